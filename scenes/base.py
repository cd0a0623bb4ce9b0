"""The base stage scene: trace, camera, title, code line, color bar.

A stage is a subclass of :class:`StageScene` that declares its number, name,
the PyTorch line it shows and a ``storyboard`` method. Declaring a ``number``
registers the class; :func:`stage_registry` checks that the numbers run 1..21
with no gap and no repeat.

A scene is built from two values handed to it: the tensors' configuration
(:class:`~tensors.AttentionConfig`) and the look (:class:`~.components.palette.Look`:
theme, lighting, view panel). Both default to the blog's example as Manim's
own command line renders it.

Examples
--------
A stage file reads like the storyboard of its scene::

    class Omega(StageScene):
        number = 3
        slug = "omega"
        title = "ω = X·Xᵀ"
        summary = "unnormalised attention scores: every token's dot product with every token"
        code = "omega = embedded_sentence.matmul(embedded_sentence.T)"

        def storyboard(self):
            ...
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from manim import (
    DOWN, LEFT, RIGHT, UL, UP, UR, Group, ManimColor, Mobject,
    ThreeDScene, VGroup, config,
)

from tensors import AttentionConfig, compute_trace

from .engine.drawing import project, view_angles, view_rotation
from .engine.manim_hooks import CubeCamera, CubeRenderer, orient_camera, scene_time, writes_movie
from .components.colorbar import ColorBar, own_colors
from .components.fades import appear, appearing, vanish
from .components.cubegrid import CubeGrid, grids_in
from .components.guides import axis_guides, floor_grid, guide_room, guide_sides
from .components.labels import LABEL_CHAR, code_box, formula, note_text, tensor_label, title_text
from .components.motions import camera_turn
from .components.layout import (
    LABEL_ROOM, MAX_PITCH, Margins, StageArea, fit_blocks, place_beside, screen_box,
)
from .components.palette import LOOK, Look

__all__ = ["StageScene", "stage_registry", "StageRegistryError"]

FRAME_MARGIN = 0.3
COLORBAR_X = 6.35
BAR_TITLE_MARGIN = 0.2  # between the bar's title and the frame's right edge
COLORBAR_ROOM = 0.95  # from the bar's center to the left edge of its numbers and title
CAPTION_DROP = 0.62  # the caption line's top sits this far below the title's top ...
CAPTION_GAP = 0.1  # ... and at least this far below its lowest glyph
CAPTION_ROOM = 0.42  # the height one caption line takes
CAPTION_SHRINK = 0.7  # a caption shrinks to this share of its size before it wraps
AREA_GAP = 0.12  # between the stage area and the furniture around it
OPENING_HOLD = 1.0  # seconds the opening shot stays still, at least
CLOSING_HOLD = 2.5
WORD_GAP = 0.12  # between a block and the words naming its rows
ROW_FILL = 0.85  # a word label's height, at most, as a share of its row's
WORD_SLACK = 0.3  # beyond a word's width: the half cube and perspective between a block's edge and its row ends
FRONT = (0.0, 0.0)  # the front view (yaw, pitch)
MIN_WORD_CHARS = 3
MIN_WORD_SCALE = 0.5  # a word label smaller than half its size is not drawn: unreadable
INSET_PITCH = 0.16  # an inset's cubes: small, it is only there to compare
INSET_NOTE_ROOM = 0.3  # under an inset's label: its own color scale
LABEL_GAP = 0.4  # between two labels side by side  # a shortened word keeps at least this many letters before "…"
TITLE_FORMULA_GAP = 0.4
PAPER_FROM_STAGE = 13  # the variants differ from the multi-head part on
MASK_LINE = "mask = torch.triu(torch.ones({tokens}, {tokens}, dtype=torch.bool), diagonal=1)"
class StageRegistryError(RuntimeError):
    """The stage numbers are not 1..N, unique and contiguous."""


class StageScene(ThreeDScene):
    """One stage of the attention computation, drawn with cube grids."""

    number: ClassVar[int | None] = None
    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    code: ClassVar[str] = ""  # title and code are templates: {d}, {heads}, ... (see sizes())
    paper_title: ClassVar[str] = ""  # what the paper variant shows instead, where it differs
    paper_code: ClassVar[str] = ""
    formula_tex: ClassVar[str | None] = None
    # True where the stage's numbers follow from the attention weights, so a
    # causal mask changes them (its title says so)
    follows_mask: ClassVar[bool] = False
    mask_code: ClassVar[str] = ""  # the code line with the causal mask, where the stage applies it
    view: ClassVar[tuple[float, float]] = (0.0, 0.0)  # yaw, pitch in radians

    _registry: ClassVar[dict[int, type["StageScene"]]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        number = cls.__dict__.get("number")
        if number is None:
            return
        other = StageScene._registry.get(number)
        if other is not None and other.__qualname__ != cls.__qualname__:
            raise StageRegistryError(
                f"stage {number} declared twice: {other.__qualname__} and {cls.__qualname__}"
            )
        StageScene._registry[number] = cls

    def __init__(self, attention_config: AttentionConfig | None = None, look: Look = LOOK, **kwargs):
        """``attention_config``: the example whose tensors are shown (default: the
        blog's); ``look``: theme, lighting and view panel. Other arguments go to Manim."""
        self.cfg = attention_config or AttentionConfig()
        self.theme, self.lighting, self.panel = look.theme, look.lighting, look.panel
        kwargs.setdefault("renderer", CubeRenderer(
            camera_class=CubeCamera, skip_animations=kwargs.get("skip_animations", False)))
        super().__init__(camera_class=CubeCamera, **kwargs)

    # -- set-up ---------------------------------------------------------------
    def setup(self):
        super().setup()
        self.trace = compute_trace(self.cfg)
        self.camera.lighting = self.lighting
        self.camera.background_color = ManimColor(self.theme.background)
        self.camera.init_background()
        orient_camera(self, view_angles(*self.view))
        self.colorbar: ColorBar | None = None
        self._captions: list[tuple[float, str]] = []

    def construct(self):
        # the title and code are there from the first frame; the storyboard's
        # first step brings in the operands at once (no empty opening shot)
        if self.panel.floor:
            self.add(floor_grid(self.theme))
        self.add(self.header())
        # the operands' first fade-ins are not played: the first frame is the
        # scene's opening shot (a video's poster frame), not an empty stage
        self._opening, self.opened_on = True, []
        self.storyboard()
        self.step("result")
        self.wait(CLOSING_HOLD)
        self.write_subcaptions()

    def write_subcaptions(self) -> None:
        """Each caption becomes a subtitle lasting until the next one (.srt).

        Only when a movie is written: Manim names the .srt after the movie.
        """
        if not writes_movie():
            return
        end = scene_time(self)
        times = [t for t, _ in self._captions] + [end]
        for (start, text), stop in zip(self._captions, times[1:]):
            self.add_subcaption(text, duration=max(stop - start, 0.1), offset=start - end)

    def play(self, *args, **kwargs):
        if self._opening:  # fade-ins before anything else happens: there at the first frame
            shown = [appearing(a) for a in args]
            if args and all(s is not None for s in shown):
                self.add(*[m for s in shown for m in s])
                self.opened_on += [m for s in shown for m in s]
                self.mobjects.sort(key=self._draw_rank)
                return
            self._opening = False
            self.wait(OPENING_HOLD)  # a moment to read the opening shot before anything moves
        super().play(*args, **kwargs)
        # Manim redraws, every frame, all mobjects from the first animated one
        # onward in this list. Text rarely moves and is the costly part to
        # draw; kept in front of the grids it lands in the cached static frame.
        # Captions come last among the text: swapping one then redraws little.
        self.mobjects.sort(key=self._draw_rank)

    @staticmethod
    def _draw_rank(mob: Mobject) -> int:
        if getattr(mob, "is_backdrop", False):
            return -1
        if isinstance(mob, CubeGrid):
            return 2
        return 1 if getattr(mob, "is_caption", False) else 0

    def storyboard(self) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define storyboard()")

    def step(self, name: str) -> None:
        """Start a named section (one clip with --save_sections)."""
        self.next_section(name)

    def look_from(self, view) -> None:
        """Turn the camera to ``view`` (yaw, pitch) at once, not animated."""
        orient_camera(self, view_angles(*view))
        self.current_view = tuple(view)

    # -- frame furniture --------------------------------------------------------
    def header(self) -> Mobject:
        """Title at the top left, the code line at the bottom, fixed in frame."""
        title = title_text(self.number or 0, self.title_text(self.cfg), self.theme)
        title.to_corner(UL, buff=FRAME_MARGIN)
        code = code_box(self.code_text(self.cfg), self.theme)
        code.to_edge(DOWN, buff=0.2)
        self._title, self._code_box, self._formula = title, code, None
        parts = [title, code]
        if self.formula_tex:
            tex = formula(self.formula_tex, self.theme).to_corner(UR, buff=FRAME_MARGIN)
            tex.shift(0.9 * LEFT)
            parts.append(tex)
            self._formula = tex
            room = tex.get_left()[0] - TITLE_FORMULA_GAP - title.get_left()[0]
            if title.width > room:  # a long title (own sizes, paper variant) gives way
                title.scale_to_fit_width(room, about_edge=LEFT)
        self.fixed(*parts)
        return Group(*parts)

    def stage_area(self) -> StageArea:
        """Where blocks may go: below the caption line, above the code panel,
        left of the color bar, inside the frame margin (frame units)."""
        half_w, half_h = config.frame_width / 2, config.frame_height / 2
        top = self.caption_top() - CAPTION_ROOM
        code = getattr(self, "_code_box", None)
        bottom = (code.get_top()[1] if code is not None else -half_h + FRAME_MARGIN) + AREA_GAP
        return StageArea(left=-half_w + FRAME_MARGIN, right=COLORBAR_X - COLORBAR_ROOM - AREA_GAP,
                         bottom=bottom, top=top)

    def caption_top(self) -> float:
        """The top of the caption line: under the title, clear of its descenders."""
        top = config.frame_height / 2 - FRAME_MARGIN - CAPTION_DROP
        title = getattr(self, "_title", None)
        return top if title is None else min(top, title.get_bottom()[1] - CAPTION_GAP)

    # -- layout -------------------------------------------------------------------
    def lay_out(self, *blocks: Mobject, names=(), gap: float = 1.2,
                margins: Margins | None = None, view=None, max_pitch: float = MAX_PITCH,
                area: StageArea | None = None) -> float:
        """Put ``blocks`` in a row, left to right, and fit them to the stage
        area (less ``margins``: by default a label's room above), seen from
        ``view`` (default: the scene's camera). Neighbours are ``gap`` apart
        on screen, more where their labels (``names``, one per block, drawn
        above or below) are wider than the blocks. Returns the scale."""
        margins = Margins(top=LABEL_ROOM) if margins is None else margins
        full = area or self.stage_area()
        room = full.inset(margins)
        labels = [LABEL_CHAR * len(n or "") for n in names] + [0.0] * (len(blocks) - len(names))
        total = 1.0
        for _ in range(3):  # perspective bends the sizes a little: measure again and settle
            scale, between, first, last = self._row_scale(blocks, labels, gap, margins, full, room,
                                                          max_pitch, view)
            for block in blocks:
                block.scale(scale)
            self._in_screen_row(blocks, list(between), view)
            pitch = max(g.pitch for b in blocks for g in grids_in(b))
            total *= scale * fit_blocks(self, list(blocks), view=view, max_pitch=pitch, area=area,
                                        margins=Margins(left=max(margins.left, first),
                                                        right=max(margins.right, last),
                                                        bottom=margins.bottom, top=margins.top))
        return total

    def _row_scale(self, blocks, labels, gap, margins, full, room, max_pitch, view):
        """The largest scale of ``blocks`` in a row that fits, with the gaps
        and the labels' overhang at both ends that go with it."""
        self._in_screen_row(blocks, [gap] * (len(blocks) - 1), view)
        sizes = [screen_box(self.camera, [b], view) for b in blocks]
        widths = np.array([r - l for l, _, r, _ in sizes])
        heights = np.array([t - b for _, b, _, t in sizes])

        def spaces(scale):  # the gaps, and the labels' overhang beyond both ends
            over = np.maximum(0.0, (np.array(labels) - scale * widths) / 2)
            return np.maximum(gap, over[:-1] + over[1:] + LABEL_GAP), over[0], over[-1]

        def fits(scale, with_labels=True):
            between, first, last = spaces(scale) if with_labels else (np.full(len(blocks) - 1, gap), 0, 0)
            # a label's overhang beyond the row may use the side margins (kept
            # for row words, beside the block rather than above or below it)
            return (scale * widths.sum() + between.sum() + max(margins.left, first)
                    + max(margins.right, last) <= full.width and scale * heights.max() <= room.height)

        def largest(**how):  # widths and gaps grow with the scale: bisect
            low, high = 0.0, max_pitch / max(g.pitch for b in blocks for g in grids_in(b))
            for _ in range(40):
                middle = (low + high) / 2
                low, high = (middle, high) if fits(middle, **how) else (low, middle)
            return low

        scale = largest() or largest(with_labels=False)  # labels too wide for any row: the blocks still fit
        return (scale, *spaces(scale))

    def _in_screen_row(self, blocks, gaps, view) -> None:
        """Each block right of the one before, ``gaps`` apart and centred on
        the same height, as seen on screen (not along the world's x axis,
        which a turned camera shows slanting)."""
        rotation = self.camera.get_rotation_matrix() if view is None else view_rotation(*view)
        right, up = rotation[0], rotation[1]  # the screen's axes, in the world
        for _ in range(2):  # perspective: a second pass settles it
            for before, block, space in zip(blocks, blocks[1:], gaps):
                l0, b0, r0, t0 = screen_box(self.camera, [before], view)
                l1, b1, r1, t1 = screen_box(self.camera, [block], view)
                block.shift(right * (r0 + space - l1) + up * ((b0 + t0) / 2 - (b1 + t1) / 2))

    def settled(self, grid: CubeGrid, margins: Margins | None = None, view=FRONT,
                max_pitch: float = MAX_PITCH, room_for=None) -> CubeGrid:
        """Where ``grid`` goes in a closing shot: a copy, fitted to the stage
        area seen from ``view`` (front by default) less ``margins``.

        ``room_for``: a block shape that must fit as well from the same first
        cell (what the block becomes next, e.g. turned by a transpose).
        """
        target = grid.copy()
        blocks = [target]
        if room_for is not None:
            blocks.append(self.ghost(grid, room_for))
        fit_blocks(self, blocks, margins=margins or Margins(), view=view, max_pitch=max_pitch)
        return target

    def close_on(self, result: CubeGrid, *leaving: Mobject, margins: Margins | None = None, view=FRONT,
                 room_for=None, run_time: float = 1.4) -> None:
        """The closing shot of a motion: what is ``leaving`` fades, the camera
        turns to ``view`` and ``result`` moves to fill the stage area (less
        ``margins``; ``room_for`` as in :meth:`settled`)."""
        target = self.settled(result, margins, view=view, room_for=room_for)
        self.play(*map(vanish, leaving), camera_turn(self, *view), result.animate.become(target),
                  run_time=run_time)

    def ghost(self, grid: CubeGrid, shape) -> CubeGrid:
        """An invisible block of ``shape`` with ``grid``'s cubes at its first
        cell: room kept for what ``grid`` will grow into."""
        ghost = grid.like(np.zeros(shape)).set_cell_opacity(0.0)
        ghost.align_cell((0, 0, 0), grid.cell_center(0, 0, 0))
        return ghost

    def inset(self, key: str, name: str, share: float, max_pitch: float = INSET_PITCH,
              beside: CubeGrid | None = None) -> tuple[CubeGrid, Mobject]:
        """An earlier stage's tensor ``key``, small (cubes at most ``max_pitch``
        apart, or half as far as those of the block it is ``beside``, if that
        is more: a 2×2 inset is not a speck), in the right ``share`` of the
        stage area, for comparison: its name and its own color scale beneath
        (its colors are not the bar's). Not yet shown."""
        if beside is not None:
            max_pitch = max(max_pitch, beside.pitch / 2)
        values = self.trace[key]
        other = self.tensor_grid(key)
        fit_blocks(self, [other], area=self.stage_area().part(1 - share + 0.04, 1.0),
                   margins=Margins(bottom=LABEL_ROOM + INSET_NOTE_ROOM), max_pitch=max_pitch)
        label = self.label(other, name, values.shape, DOWN)
        scale = note_text(own_colors(other.value_range), self.theme, font_size=15, color=self.theme.muted)
        scale.next_to(label, DOWN, buff=0.08)
        self.upright(scale)
        return other, VGroup(label, scale)

    def word_room(self, words, font_size: int = 18) -> float:
        """The width to keep beside a block for its row words: the longest
        word, at most a fifth of the stage area (longer words get "…")."""
        longest = sorted(words, key=len)[-3:]  # measured: character counts misjudge "translate"
        width = max((note_text(w, self.theme, font_size=font_size).width for w in longest), default=0.0)
        return min(width + WORD_GAP + WORD_SLACK, self.stage_area().width / 5)

    @classmethod
    def paper(cls, config: AttentionConfig | None = None) -> bool:
        """True when this stage shows the paper's multi-head attention (stages 13-21)."""
        cfg = config or AttentionConfig()
        return cfg.variant == "paper" and (cls.number or 0) >= PAPER_FROM_STAGE

    @classmethod
    def sizes(cls, config: AttentionConfig | None = None) -> dict:
        """The names a stage's code and title may use in ``{}``."""
        cfg = config or AttentionConfig()
        return dict(ids=list(cfg.token_ids), vocab_size=cfg.vocab_size, d=cfg.d, d_k=cfg.d_k,
                    d_v=cfg.d_v, heads=cfg.heads, head_k=cfg.head_k, head_v=cfg.head_v,
                    concat=cfg.heads * cfg.head_v, d_out=cfg.d_out, tokens=cfg.tokens)

    @classmethod
    def causal(cls, config: AttentionConfig | None = None) -> bool:
        """True when a causal mask changes this stage's numbers."""
        return (config or AttentionConfig()).mask == "causal" and cls.follows_mask

    @classmethod
    def title_text(cls, config: AttentionConfig | None = None) -> str:
        """The title with this configuration's sizes; marked in the paper variant
        and where a causal mask changes the stage."""
        paper = cls.paper(config)
        title = (cls.paper_title if paper and cls.paper_title else cls.title).format(**cls.sizes(config))
        marks = [m for m, on in (("paper", paper), ("causal", cls.causal(config))) if on]
        return f"{title} ({', '.join(marks)})" if marks else title

    @classmethod
    def code_text(cls, config: AttentionConfig | None = None) -> str:
        """The stage's PyTorch line with this configuration's sizes filled in."""
        code = cls.paper_code if cls.paper(config) and cls.paper_code else cls.code
        if cls.causal(config) and cls.mask_code:
            code = MASK_LINE + "\n" + cls.mask_code
        return code.format(**cls.sizes(config))

    def fixed(self, *mobjects: Mobject) -> Mobject:
        """Pin mobjects to the screen (titles, notes, the color bar)."""
        self.camera.add_fixed_in_frame_mobjects(*mobjects)
        return mobjects[0] if len(mobjects) == 1 else mobjects

    def upright(self, *mobjects: Mobject) -> None:
        """Keep 3D-placed labels facing the viewer while they follow their spot."""
        self.camera.add_fixed_orientation_mobjects(*mobjects)

    def show_colorbar(self, name: str, values: np.ndarray | tuple[float, float], run_time=0.6):
        """Show (or swap to) the color bar of the tensor in focus."""
        self.play(*self.colorbar_swap(name, values), run_time=run_time)
        return self.colorbar

    def colorbar_swap(self, name: str, values: np.ndarray | tuple[float, float]) -> list:
        """The animations that swap to the color bar of ``values``, to play
        together with the recolor that puts the blocks on its scale."""
        value_range = values if isinstance(values, tuple) else (float(np.min(values)), float(np.max(values)))
        bar = ColorBar(name, value_range, self.theme).move_to([COLORBAR_X, -0.1, 0])
        bar.shift(RIGHT * (COLORBAR_X - bar.gradient.get_x()))  # every bar in one place, whatever its title
        over = bar.title.get_right()[0] - (config.frame_width / 2 - BAR_TITLE_MARGIN)
        if over > 0:  # a wide title stays inside the frame, reaching left toward the stage
            bar.title.shift(LEFT * over)
        self.fixed(bar)
        if self.colorbar is not None:  # gone at once: two legends in one place read as neither
            self.remove(self.colorbar)
        self.colorbar = bar
        return [appear(bar)]

    def note(self, text: str, position=None, color=None, font_size: int = 22) -> Mobject:
        """A plain-words caption pinned under the title (not yet shown)."""
        mob = note_text(text, self.theme, font_size=font_size, color=color)
        if position is None:
            mob.to_corner(UL, buff=FRAME_MARGIN)
            mob.shift((mob.get_top()[1] - self.caption_top()) * DOWN)
        else:
            mob.move_to(position)
        self.fixed(mob)
        return mob

    def say(self, text: str, run_time: float = 0.5, **kwargs) -> Mobject | None:
        """Replace the current caption with ``text`` (and start its subtitle).

        Without captions in the picture the scene keeps its timing, so the
        .srt reads the same.
        """
        self._captions.append((scene_time(self), text))
        if not self.panel.captions:
            if not self._opening:  # a caption at the opening takes no time either (see play)
                self.wait(run_time)
            return None
        new = self.note(text, **kwargs)
        self._fit_caption(new, text)
        new.is_caption = True
        old = getattr(self, "_caption", None)
        if old is not None:  # one after the other: two lines in one place read as neither
            self.play(vanish(old), run_time=run_time / 2)
            self.play(appear(new), run_time=run_time / 2)
        else:
            self.play(appear(new), run_time=run_time)
        self._caption = new
        return new

    def _fit_caption(self, caption: Mobject, text: str) -> None:
        """Keep a caption on its line: clear of the formula at the top right and
        the frame's edge, shrunk (never below :data:`CAPTION_SHRINK`) and else
        wrapped in two (which the stage area does not leave room for: keep
        captions short)."""
        right = config.frame_width / 2 - FRAME_MARGIN
        formula_box = getattr(self, "_formula", None)
        if formula_box is not None and formula_box.get_bottom()[1] < caption.get_top()[1]:
            right = formula_box.get_left()[0] - TITLE_FORMULA_GAP
        room = right - caption.get_left()[0]
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

    # -- tensors on screen ------------------------------------------------------
    def grid(self, values, value_range=None, **kwargs) -> CubeGrid:
        return CubeGrid(values, value_range=value_range, **kwargs)

    def tensor_grid(self, key: str, transposed: bool = False, **kwargs) -> CubeGrid:
        """Trace tensor ``key`` as a grid whose axes carry their names.

        ``transposed``: its last two axes swapped (``.T``, ``swapaxes(-1, -2)``).
        """
        values, axes = self.trace[key], self.trace.axes(key)
        if transposed:
            values, axes = np.swapaxes(values, -1, -2), axes[:-2] + (axes[-1], axes[-2])
        return self.grid(values, dims=axes, **kwargs)

    def label(self, grid: Mobject, name: str, shape, direction=UP, buff: float = 0.22,
              dims=None, sides: tuple[str, str] | None = None, stacked: bool = False,
              own_scale: bool = False) -> Mobject:
        """Name and shape beside a block, kept upright: on one line above or
        below it (``stacked``: the shape under the name, narrower), in two
        lines left or right of it. ``own_scale``: a line more with the block's
        own color range, for a block the color bar does not describe.

        With the panel's axes on, the block's named axes come with it (``dims``
        names them where ``grid`` is not one :class:`CubeGrid`; ``sides``
        overrides where their arrows go, see :func:`guide_sides`).
        """
        note = own_colors(grid.value_range) if own_scale and isinstance(grid, CubeGrid) else None
        mob = tensor_label(name, shape, self.theme, inline=abs(np.asarray(direction)[1]) > 0 and not stacked,
                           note=note)
        blocks = list(grid) if isinstance(grid, Group) else [grid]
        guides = self.panel.axes and all(isinstance(b, CubeGrid) for b in blocks)
        if guides:
            sides = sides or guide_sides(blocks[-1], direction, COLORBAR_X - 1.15)
            for block in blocks:
                block.guide_sides = sides
        place_beside(self, blocks, mob, direction, buff=buff + (guide_room(sides, direction) if guides else 0))
        self.upright(mob)
        if not guides:
            return mob
        arrows, words = axis_guides(blocks[0], sides, self.theme, dims, last=blocks[-1])
        self.upright(*words)
        return VGroup(mob, arrows, words)

    def guide_room(self, grid: CubeGrid, direction) -> float:
        """The room the axis guides take on that side of ``grid`` (0 without)."""
        return guide_room(getattr(grid, "guide_sides", None), direction)

    def relabel(self, old: Mobject, grid: Mobject, name: str, shape, direction=UP, buff=0.22,
                dims=None, stacked: bool = False, own_scale: bool = False):
        """Swap a block's label for a new one (fade; text never morphs in 3D)."""
        new = self.label(grid, name, shape, direction, buff, dims, stacked=stacked, own_scale=own_scale)
        self.play(vanish(old), appear(new), run_time=0.5)
        return new

    def word_labels(self, grid: CubeGrid, words, side=LEFT, font_size: int = 18) -> Mobject:
        """One word beside each row of ``grid`` (rows are tokens), no taller
        than its row on screen; a word wider than the room up to the stage
        area's edge is shortened with an ellipsis."""
        labels = VGroup()
        x_axis, _, _ = grid.axis_vectors()
        right_side = np.dot(side, RIGHT) > 0
        left, _, right, _ = screen_box(self.camera, [grid])
        area = self.stage_area()
        room = (area.right - right if right_side else left - area.left) - WORD_GAP - grid.pitch / 2
        scale = self._row_text_scale(grid, font_size)
        if scale < MIN_WORD_SCALE:  # rows too thin for any readable word (see rows_readable)
            return labels
        for row, word in enumerate(words):
            text = self._fitted_word(word, font_size, scale, room)
            edge = grid.cell_center(row, grid.grid_shape[2] - 1 if right_side else 0)
            offset = (grid.pitch / 2 + WORD_GAP + text.width / 2) * (x_axis if right_side else -x_axis)
            text.move_to(edge + offset)
            labels.add(text)
        self.upright(*labels)
        return labels

    def rows_readable(self, grid: CubeGrid, font_size: int = 18) -> bool:
        """Whether ``grid``'s rows are tall enough on screen for word labels."""
        return self._row_text_scale(grid, font_size) >= MIN_WORD_SCALE

    def _row_text_scale(self, grid: CubeGrid, font_size: int) -> float:
        """How much a word label must shrink to be no taller than a row on screen."""
        if grid.grid_shape[1] < 2:
            return 1.0
        ends = project(self.camera, np.array([grid.cell_center(0, 0), grid.cell_center(1, 0)]))
        row_height = float(np.linalg.norm(ends[1] - ends[0]))
        reference = note_text("Ay", self.theme, font_size=font_size).height
        return min(1.0, ROW_FILL * row_height / reference)

    def _fitted_word(self, word: str, font_size: int, scale: float, room: float, color=None) -> Mobject:
        """``word`` as a label scaled by ``scale``, cut with "…" to fit ``room``."""
        def make(w):
            return note_text(w, self.theme, font_size=font_size, color=color or self.theme.muted).scale(scale)
        text = make(word)
        cut = len(word)
        while text.width > room and cut > MIN_WORD_CHARS:
            cut = max(MIN_WORD_CHARS, min(cut - 1, int(cut * room / text.width)))
            text = make(word[:cut].rstrip() + "…")
        return text

    def column_words(self, grid: CubeGrid, words, font_size: int = 16) -> Mobject:
        """Words above the columns of ``grid`` (columns are tokens), rotated
        upright; no wider than a column, shortened like :meth:`word_labels`."""
        labels = VGroup()
        _, row_axis, _ = grid.axis_vectors()
        _, _, _, top = screen_box(self.camera, [grid])
        room = self.stage_area().top - top - WORD_GAP
        scale = self._row_text_scale(grid, font_size)
        if scale < MIN_WORD_SCALE:
            return labels
        for col, word in enumerate(words):
            text = self._fitted_word(word, font_size, scale, room)
            text.rotate(np.pi / 2)
            head = grid.cell_center(0, col)
            text.move_to(head - row_axis * (grid.pitch / 2 + WORD_GAP + text.height / 2))
            labels.add(text)
        self.upright(*labels)
        return labels


def stage_registry() -> dict[int, type[StageScene]]:
    """All stages by number, importing the stage modules once.

    Raises :class:`StageRegistryError` unless the numbers are 1..N.
    """
    from . import stages  # noqa: F401  (importing registers every stage)

    registry = dict(sorted(StageScene._registry.items()))
    expected = list(range(1, len(registry) + 1))
    if list(registry) != expected:
        raise StageRegistryError(f"stage numbers must be 1..{len(registry)}, got {list(registry)}")
    return registry
