"""Transitional: the frame's color bar is gone (every block's label carries its scale)."""

from __future__ import annotations

__all__ = ["Legend"]


class Legend:
    def __init__(self, scene, theme):
        self.scene, self.theme, self.bar = scene, theme, None

    def swap(self, name, values) -> list:
        return []

    def show(self, name, values, run_time: float = 0.6):
        return None
