"""The frame: what is pinned on it and where it looks from.

- :mod:`.header` — title, code panel and formula, and the stage area they leave;
- :mod:`.captions` — the one caption line and the subtitles it makes;
- :mod:`.viewpoint` — the camera's view, turned at once or animated.
"""
