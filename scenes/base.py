"""The base stage scene: the storyboard's vocabulary over its collaborators.

A stage is a subclass of :class:`StageScene` that declares its number, name,
the PyTorch line it shows (:class:`~.description.StageDescription`) and a
``storyboard`` method. Declaring a ``number`` registers the class
(:mod:`.registry`).

A scene is built from two values handed to it: the tensors' configuration
(:class:`~tensors.AttentionConfig`) and the look (:class:`~.components.palette.Look`:
theme, lighting, view panel). Both default to the blog's example as Manim's
own command line renders it. Its jobs are done by collaborators, each in its
own module:

- ``self.header`` (:mod:`.frame.header`): title, code, formula, and the stage area;
- ``self.captions`` (:mod:`.frame.captions`): the caption line and the subtitles;
- ``self.viewpoint`` (:mod:`.frame.viewpoint`): where the camera looks from;
- ``self.layout`` (:mod:`.layout`): where blocks and their labels go.

What stays here is the storyboard's vocabulary (``step``, ``say``, ``play``,
``block``, ``close_on``, ``inset``) and two tweaks of Manim's lifecycle: the opening
shot and the drawing order.

Examples
--------
A stage file reads like the storyboard of its scene::

    class Omega(StageScene):
        number = 3
        title = "ω = X·Xᵀ"
        summary = "unnormalised attention scores: every token's dot product with every token"
        code = "omega = embedded_sentence.matmul(embedded_sentence.T)"

        def storyboard(self):
            ...
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, UP, ManimColor, Mobject, ThreeDScene

from tensors import AttentionConfig, compute_trace

from . import interrupts
from .components.cubegrid import CubeGrid
from .components.fades import InPlace, appear, appearing, at_once, done_at, swap, vanish
from .components.guides import floor_grid
from .components.labels import mark_statements
from .components.palette import LOOK, Look
from .components.projection import FRONT
from .description import StageDescription
from .engine.manim_hooks import CubeCamera, CubeRenderer
from .frame.captions import Captions
from .frame.header import Header
from .frame.viewpoint import Viewpoint
from .layout import LABEL_BUFF, Layout, Margins
from .registry import register

__all__ = ["StageScene"]

OPENING_HOLD = 1.0  # seconds the opening shot stays still, at least
CLOSING_HOLD = 1.0  # no still stretch lasts more than 2 s: a caption's wait and this together
INSET_PITCH = 0.16  # an inset's cubes: small, it is only there to compare
RENAMED_AT = 0.85  # of a closing move: where a label changing sides gives way (see close_on)


class StageScene(StageDescription, ThreeDScene):
    """One stage of the attention computation, drawn with cube grids."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("number") is not None:
            register(cls)

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
        self.viewpoint = Viewpoint(self.camera, self.view)
        self.header = Header(self.title_text(self.cfg), self.number or 0, self.code_text(self.cfg),
                             self.formula_tex, self.theme)
        self.captions = Captions(self, self.header, self.theme, burned=self.panel.captions)
        self.layout = Layout(self.camera, self.header.stage_area, self.theme, self.panel)
        self.opening, self.opened_on = True, []

    def construct(self):
        # the title and code are there from the first frame; the storyboard's
        # first fade-ins are not played: the first frame is the scene's opening
        # shot (a video's poster frame), not an empty stage
        if self.panel.floor:
            self.add(floor_grid(self.theme))
        self.camera.add_fixed_in_frame_mobjects(*self.header.parts)
        self.add(self.header.group)
        self.storyboard()
        self.step("result")
        self.wait(CLOSING_HOLD)
        self.captions.write_subtitles()

    def storyboard(self) -> None:
        raise NotImplementedError(f"{type(self).__name__} must define storyboard()")

    # -- the storyboard's vocabulary --------------------------------------------
    # per step, the statements of a code panel of several that the step shows (lit in the accent color,
    # the others muted: a reader could not tell which line a two-line panel was at, G12); the closing shot
    # keeps the last step's lit, under that step's last caption (all in ink there, the panel said nothing
    # of the step still named: 14_0640, 21_0567, the 41st reader), unless it names its own ("result": ()
    # for every statement in ink: a closing shot of what they all made)
    code_steps: dict[str, tuple[int, ...]] = {}

    def step(self, name: str) -> None:
        """Start a named section (one clip with --save_sections, a slide with
        --slides), the code panel showing which statements it is at
        (:attr:`code_steps`)."""
        self.next_section(name)
        if name in self.code_steps:
            self.code_at(*self.code_steps[name])

    def code_at(self, *statements: int) -> None:
        """Light those statements of the code panel (none given: all, in ink)."""
        mark_statements(self.header.code, self.theme, statements or None)

    def say(self, text: str, run_time: float = 0.5, **kwargs) -> Mobject | None:
        """Replace the caption with ``text`` (see :class:`~.frame.captions.Captions`)."""
        return self.captions.say(text, run_time, **kwargs)

    def saying(self, text: str, **kwargs) -> list:
        """The caption ``text`` as animations to join a play: it changes with the picture."""
        return self.captions.saying(text, **kwargs)

    def play(self, *args, **kwargs):
        interrupts.check()  # a Ctrl-C swallowed by a callback during the last play
        if self.opening:  # fade-ins before anything else happens: there at the first frame
            shown = [appearing(a) for a in args]
            if args and all(s is not None for s in shown):
                self.add(*[m for s in shown for m in s])
                self.opened_on += [m for s in shown for m in s]
                self.mobjects.sort(key=self._draw_rank)
                return
            self.opening = False
            self.captions.held(OPENING_HOLD)  # a caption joining this play comes after the hold, not at 0
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

    def close_on(self, result: CubeGrid, *leaving: Mobject, margins: Margins | None = None, view=FRONT,
                 room_for=None, run_time: float = 1.4, riders=(), renamed=None) -> None:
        """The closing shot of a motion: what is ``leaving`` fades, the camera
        turns to ``view`` and ``result`` moves to fill the stage area (less
        ``margins``, and the room its label takes; ``room_for`` as in
        :meth:`Layout.settled`); its label stands beside it all the way. ``riders``
        (labelled blocks beside it, on screen) move and grow with it.
        ``renamed``: the label on screen ``result`` had before its label
        now (not shown yet): the old one rides beside the block, then gives
        way to the new one near the move's end (a label changing sides:
        left where it stood, the old one was crossed by its block)."""
        label = getattr(result, "label", None)
        if label is not None:
            side = label.side
            room = Margins(top=label.height + 0.25 if side[1] > 0 else 0.0,
                           bottom=label.height + 0.25 if side[1] < 0 else 0.0,
                           left=label.width + 0.3 if side[0] < 0 else 0.0,
                           right=label.width + 0.3 if side[0] > 0 else 0.0)
            base = margins or Margins()
            margins = Margins(*(a + b for a, b in zip((base.left, base.right, base.bottom, base.top),
                                                      (room.left, room.right, room.bottom, room.top))))
        target = self.layout.settled(result, margins, view=view, room_for=room_for)
        following, hidden = [], []
        if label is not None:
            shown = any(label is m or label in m.get_family() for m in self.mobjects)
            if shown and not self.layout.in_place(result):  # a label changing sides would cross its block
                hidden, shown = [vanish(label, rate_func=at_once)], False
            following = [self.layout.follow(result, target, view, track=True)] if shown or renamed is not None else []
            if renamed is not None:
                # the old name rides beside the block on its own side until the block is nearly there
                # (at its start the new one's side ran into the caption), then the new one takes over
                ride = InPlace(renamed, lambda m, alpha: self.layout.inside(
                    self.layout.beside([result], m, renamed.side, buff=LABEL_BUFF)))
                following += [ride, *swap(renamed, label, rate_func=done_at(RENAMED_AT))]
        # what is leaving goes at once, blocks and texts alike: never caught half-faded and unnamed (a
        # dimmed block without its name read as a glitch, 08_0443), a label never slides across one going
        gone = [vanish(m, rate_func=at_once) for m in leaving]
        grow, center, shift = target.pitch / result.pitch, result.get_center(), target.get_center() - result.get_center()
        rides = []
        for rider in riders:
            there = rider.copy().scale(grow, about_point=center).shift(shift)
            rides += [rider.animate.become(there), self.layout.follow(rider, there, view, track=True)]
        self.play(*gone, *hidden, self.viewpoint.turn(*view), result.animate.become(target), *following, *rides,
                  run_time=run_time)
        if label is not None and not following:
            self.layout.place(result)
            self.play(appear(label), run_time=0.4)

    def inset(self, key: str, name: str, share: float, max_pitch: float = INSET_PITCH,
              beside: CubeGrid | None = None, band: tuple[float, float] = (0.0, 1.0)) -> CubeGrid:
        """An earlier stage's tensor ``key``, small (cubes at most ``max_pitch``
        apart, or half as far as those of the block it is ``beside``, if that
        is more: a 2×2 inset is not a speck), in the right ``share`` of the
        stage area (and the ``band`` of its height, fractions from the top),
        for comparison, labelled ``name`` with its own scale beneath.
        Neither shown yet."""
        if beside is not None:
            max_pitch = max(max_pitch, beside.pitch / 2)
        other = self.block(key, name, direction=DOWN, stacked=True)
        region = self.layout.area().part(1 - share + 0.04, 1.0).band(*band)
        self.layout.fit([other], area=region, margins=Margins(bottom=other.label.height + LABEL_BUFF + 0.05),
                        max_pitch=max_pitch)
        other.label.within = region  # wider than its block, it stays in its part of the area
        self.layout.place(other)
        return other

    # -- tensors on screen ------------------------------------------------------
    def block(self, key: str, name: str, transposed: bool = False, direction=UP, stacked: bool | None = None,
              **kwargs) -> CubeGrid:
        """Trace tensor ``key`` as a grid (see :meth:`tensor_grid`) with its
        label bound (``name``, its shape and color scale; placed later)."""
        grid = self.tensor_grid(key, transposed, **kwargs)
        self.layout.name(grid, name, direction, stacked=stacked)
        return grid

    def stage6_twin(self, matrix) -> str:
        """Which of stage 6's matrices ("query", "key", "value") holds the very
        numbers of ``matrix`` (a head-0 slice: the blog re-seeds torch.rand
        before the multi-head matrices), else "": :meth:`stage6_heads`'s find
        for a slice that is the whole matrix."""
        return next((name for _, name, rows in self.stage6_heads(np.asarray(matrix)[None])
                     if rows == self.trace[f"s06_U_{name}"].shape[0]), "")

    def stage6_heads(self, tensor) -> list[tuple[int, str, int]]:
        """The heads of ``tensor`` (heads × rows × columns) whose slice holds
        the very numbers of the first rows of one of stage 6's matrices, as
        (head, "query" / "key" / "value", rows): with the default seed,
        head 0 of multihead_U_query is U_key and head 1 U_value's first 17
        rows (said "heads 1 to 8 are new", head 1 was seen to be stage 9's V:
        14_0653, the 43rd reader)."""
        found = []
        for head, matrix in enumerate(np.asarray(tensor)):
            rows, cols = matrix.shape
            for name in ("query", "key", "value"):
                single = self.trace[f"s06_U_{name}"]
                if single.shape[1] == cols and single.shape[0] >= rows and np.allclose(single[:rows], matrix):
                    found.append((head, name, rows))
                    break
        return found

    def tensor_grid(self, key: str, transposed: bool = False, **kwargs) -> CubeGrid:
        """Trace tensor ``key`` as a grid whose axes carry their names.

        ``transposed``: its last two axes swapped (``.T``, ``swapaxes(-1, -2)``).
        """
        values, axes = self.trace[key], self.trace.axes(key)
        if transposed:
            values, axes = values.swapaxes(-1, -2), axes[:-2] + (axes[-1], axes[-2])
        return CubeGrid(values, dims=axes, **kwargs)
