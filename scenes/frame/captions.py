"""The caption line: one plain-words caption at a time under the title, and
the subtitles (.srt) it makes.

A new caption replaces the old one: the old fades out before the new fades
in (two lines in one place read as neither). With captions left out of the
picture (``--captions srt``) the scene keeps its timing, so the .srt reads
the same.
"""

from __future__ import annotations

from manim import Mobject

from ..components.fades import appear, swap
from ..components.labels import CAPTION_SIZE, note_text
from ..components.palette import Theme
from ..engine.manim_hooks import scene_time, writes_movie
from .header import Header

__all__ = ["Captions", "CAPTION_SHRINK"]

CAPTION_SHRINK = 0.96  # a caption shrinks no further (27 points: 16 px capitals at 480p) ...
MAX_LINES = 2  # ... and takes at most two lines


class Captions:
    """The captions of one scene: what was said when (``said``), and the one
    on screen (``current``). ``burned``: drawn in the picture, not only in the .srt."""

    def __init__(self, scene, header: Header, theme: Theme, burned: bool = True):
        self.scene, self.header, self.theme, self.burned = scene, header, theme, burned
        self.said: list[tuple[float, str]] = []
        self.current: Mobject | None = None
        self.current_text: str | None = None  # with captions off the picture: the caption the .srt shows

    def note(self, text: str, position=None, color=None, font_size: int = CAPTION_SIZE) -> Mobject:
        """Plain words pinned to the frame: in the caption's place, or at ``position`` (not yet shown)."""
        mob = note_text(text, self.theme, font_size=font_size, color=color)
        if position is None:
            self._put(mob)
        else:
            mob.move_to(position)
        self.scene.camera.add_fixed_in_frame_mobjects(mob)
        return mob

    def _put(self, mob: Mobject) -> None:
        """Left-aligned, its last line on the caption's base line."""
        mob.move_to([self.header.caption_left() + mob.width / 2, self.header.caption_bottom() + mob.height / 2, 0])

    def say(self, text: str, run_time: float = 0.5, **kwargs) -> Mobject | None:
        """Replace the current caption with ``text`` (and start its subtitle), in a play of its own."""
        first = self.current is None and self.current_text is None
        animations = self.saying(text, **kwargs)
        if not self.burned:  # the same time as drawn: the first caption at the opening takes none
            if not (first and self.scene.opening):
                self.scene.wait(run_time)
            return None
        self.scene.play(*animations, run_time=run_time)
        return self.current

    def held(self, hold: float) -> None:
        """The scene holds still ``hold`` seconds before the play the last
        captions joined: their subtitles start after it (the opening shot's
        first caption stood 0.1 s in the subtitles, the next from 0, while
        the picture showed the first for the whole hold: 14, 15, 17)."""
        now = scene_time(self.scene)
        self.said = [(t + hold if t >= now - 1e-9 and n else t, text) for n, (t, text) in enumerate(self.said)]

    def later(self, delay: float) -> None:
        """The last caption comes ``delay`` seconds into the play it joins
        (its animations step there): its subtitle starts then."""
        if self.said:
            t, text = self.said[-1]
            self.said[-1] = (t + delay, text)

    def saying(self, text: str, **kwargs) -> list:
        """The animations that replace the caption with ``text`` half-way
        through the play they join (:func:`~..components.fades.swap`): a
        caption that changes with the picture it speaks of, in the same play."""
        self.said.append((scene_time(self.scene), text))
        if not self.burned:
            self.current_text = text
            return []
        new = self.note(text, **kwargs)
        self._fit(new, text)
        new.is_caption = True
        old, self.current = self.current, new
        # at once: a caption is never caught half-faded, two never overlap
        return swap(old, new) if old is not None else [appear(new)]

    def _fit(self, caption: Mobject, text: str) -> None:
        """Keep a caption in its place: clear of the formula and the frame's
        edge, shrunk a little (never below :data:`CAPTION_SHRINK`) and else
        wrapped at the word that balances two lines. A caption too long for
        two lines is an error: captions are written short."""
        room = self.header.caption_right() - self.header.caption_left()
        if caption.width <= room:
            return
        if caption.width * CAPTION_SHRINK <= room:
            caption.scale_to_fit_width(room)
            self._put(caption)
            return
        words = text.split(" ")
        lines = None
        for cut in sorted(range(1, len(words)), key=lambda c: _break_cost(words, c)):
            wrapped = note_text(" ".join(words[:cut]) + "\n" + " ".join(words[cut:]), self.theme,
                                font_size=CAPTION_SIZE, color=caption.color)
            if wrapped.width * CAPTION_SHRINK <= room:
                lines = wrapped
                break
        if lines is None:
            raise ValueError(f"caption too long for {MAX_LINES} lines at {CAPTION_SIZE} points: {text!r}")
        caption.become(lines)
        if caption.width > room:
            caption.scale_to_fit_width(room)
        self._put(caption)

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


# words a line does not end on: each leads into the word after it ("column / 0", "of / Xᵀ")
_LEADING = {"a", "an", "the", "of", "to", "on", "in", "by", "at", "for", "from", "with", "into", "onto", "toward",
            "is", "are", "row", "rows", "column", "columns", "head", "heads", "cell", "token", "stage", "slice",
            "and", "or", "its", "each", "every", "one", "no", "not", "than", "as"}
_PAUSES = (":", ";", ",", "—", ")")


def _break_cost(words: list[str], cut: int) -> float:
    """How badly ``words`` read broken into two lines before ``words[cut]``:
    the lines' imbalance (0 … 0.5 of the whole), less where the first line
    ends on a pause (a colon, a comma), more where it ends on a word that
    leads into the next, or the second starts with a number, a symbol or
    a word too short to stand at a line's head ("column 0 of / Xᵀ", or an
    "=": "ω[i, i] / = |x⁽ⁱ⁾|²" read as a broken formula, 04_0343).

    >>> def first_line(text):
    ...     words = text.split(" ")
    ...     return " ".join(words[:min(range(1, len(words)), key=lambda c: _break_cost(words, c))])
    >>> first_line("the products of row 0 of X and column 0 of Xᵀ: 16 of them")
    'the products of row 0 of X'
    >>> first_line("row 0 of U_query meets column 0 of Xᵀ")
    'row 0 of U_query'
    >>> first_line("2 of 8 here, 7 of 8 without ÷√17")
    '2 of 8 here,'
    >>> first_line("head 0's part: flattened[:, 0:18] times its 18 rows")
    "head 0's part:"
    >>> first_line("every row's largest score is its own, ω[i, i] = |x|²; exp makes it win")
    "every row's largest score is its own,"
    """
    first, second = " ".join(words[:cut]), " ".join(words[cut:])
    cost = abs(len(first) - len(second)) / (2 * (len(first) + len(second) + 1))
    if first.count("[") > first.count("]") or first.count("(") > first.count(")"):
        return cost + 1.0  # never inside an index or a parenthesis ("flattened[:, / 0:18]": 21_0100)
    last, head = words[cut - 1], words[cut]
    if last.endswith(_PAUSES) or head == "—" or head.startswith("("):
        return cost - 0.2  # after a pause, a number may start the line ("2 of 8 here, / 7 of 8 …")
    if last.lower() in _LEADING:
        cost += 0.3
    if len(head.strip("(),.;:")) <= 2 or head.strip("(),.;:'").replace(".", "").replace("−", "").isdigit():
        cost += 0.3
    return cost
