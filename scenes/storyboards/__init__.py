"""Storyboards several stages share: a stage subclasses one and names its tensors.

They live outside the stage files so that a stage file is one stage; outside
``components`` because they are stage scenes themselves (they build on
:class:`~scenes.base.StageScene`, which builds on the components).
"""
