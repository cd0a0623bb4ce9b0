"""The drawing engine: the cube camera and everything that touches Manim's internals.

:mod:`.manim_hooks` is the one module that subclasses Manim's camera and
renderer or reads its private state; :mod:`.drawing` projects and fills cube
faces with NumPy and pycairo.
"""
