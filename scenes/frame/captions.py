"""The caption line: one plain-words caption at a time under the title, and
the subtitles (.srt) it makes.

A new caption replaces the old one: the old fades out before the new fades
in (two lines in one place read as neither). With captions left out of the
picture (``--captions srt``) the scene keeps its timing, so the .srt reads
the same.
"""

from __future__ import annotations

from manim import DOWN, UL, Mobject

from ..components.fades import appear, vanish
from ..components.labels import NOTE_SIZE, note_text
from ..components.palette import Theme
from ..engine.manim_hooks import scene_time, writes_movie
from .header import FRAME_MARGIN, Header

__all__ = ["Captions", "CAPTION_SHRINK"]

CAPTION_SHRINK = 0.7  # a caption shrinks to this share of its size before it wraps


class Captions:
    """The captions of one scene: what was said when (``said``), and the one
    on screen (``current``). ``burned``: drawn in the picture, not only in the .srt."""

    def __init__(self, scene, header: Header, theme: Theme, burned: bool = True):
        self.scene, self.header, self.theme, self.burned = scene, header, theme, burned
        self.said: list[tuple[float, str]] = []
        self.current: Mobject | None = None

    def note(self, text: str, position=None, color=None, font_size: int = NOTE_SIZE) -> Mobject:
        """Plain words pinned to the frame: on the caption line, or at ``position`` (not yet shown)."""
        mob = note_text(text, self.theme, font_size=font_size, color=color)
        if position is None:
            mob.to_corner(UL, buff=FRAME_MARGIN)
            mob.shift((mob.get_top()[1] - self.header.caption_top()) * DOWN)
        else:
            mob.move_to(position)
        self.scene.camera.add_fixed_in_frame_mobjects(mob)
        return mob

    def say(self, text: str, run_time: float = 0.5, **kwargs) -> Mobject | None:
        """Replace the current caption with ``text`` (and start its subtitle)."""
        self.said.append((scene_time(self.scene), text))
        if not self.burned:
            if not self.scene.opening:  # a caption at the opening takes no time either
                self.scene.wait(run_time)
            return None
        new = self.note(text, **kwargs)
        self._fit(new, text)
        new.is_caption = True
        old = self.current
        if old is not None:
            self.scene.play(vanish(old), run_time=run_time / 2)
            self.scene.play(appear(new), run_time=run_time / 2)
        else:
            self.scene.play(appear(new), run_time=run_time)
        self.current = new
        return new

    def _fit(self, caption: Mobject, text: str) -> None:
        """Keep a caption on its line: clear of the formula and the frame's
        edge, shrunk (never below :data:`CAPTION_SHRINK`) and else wrapped in
        two (which the stage area does not leave room for: keep captions short)."""
        room = self.header.caption_right(caption.get_top()[1]) - caption.get_left()[0]
        if caption.width <= room:
            return
        if caption.width * CAPTION_SHRINK <= room:
            caption.scale_to_fit_width(room, about_edge=UL)
            return
        words = text.split(" ")
        if len(words) > 1:
            half = len(words) // 2
            wrapped = note_text(" ".join(words[:half]) + "\n" + " ".join(words[half:]), self.theme,
                                font_size=caption.font_size, color=caption.color)
            wrapped.move_to(caption, aligned_edge=UL)
            caption.become(wrapped)
        if caption.width > room:
            caption.scale_to_fit_width(room, about_edge=UL)

    def write_subtitles(self) -> None:
        """Each caption becomes a subtitle lasting until the next one (.srt).

        Only when a movie is written: Manim names the .srt after the movie.
        """
        if not writes_movie():
            return
        end = scene_time(self.scene)
        times = [t for t, _ in self.said] + [end]
        for (start, text), stop in zip(self.said, times[1:]):
            self.scene.add_subcaption(text, duration=max(stop - start, 0.1), offset=start - end)
