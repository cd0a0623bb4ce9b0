"""What a scene shows on screen, as geometry: the rules every layout keeps.

A frame is checked without drawing it. Every visible thing of a scene gets
its screen outline (frame units, the frame centred at the origin): a cube
block the convex hull of its projected box, a text its rectangle. The rules
are those a newcomer notices first:

- nothing leaves the frame;
- nothing but the code runs into the code panel, nothing but the color bar
  into the color bar;
- no two texts overlap, and no label lies on a block (a mark that names a
  part of its block, like a causal mask's −∞, says so with ``on_block``);
- the blocks use the stage area: together they span a good part of it, or
  their cubes are as large as cubes get (:func:`fill_faults`);
- every block in view carries its label, which names what it shows now and
  whose scale is the block's colors (:func:`label_faults`);
- no text is too small for a projector: captions and names 16 px high at
  480p, anything else 12 (:func:`text_faults`);
- no caption is held half-faded, and a sum a caption writes adds up as
  written (:func:`caption_faults`);
- an attention map has the tokens' words on its rows and columns (:func:`map_faults`).

Examples
--------
>>> a = Outline("a", "label", np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float))
>>> b = Outline("b", "label", np.array([[0.5, 0.5], [2, 0.5], [2, 2], [0.5, 2]], float))
>>> overlap(a, b) > 0, overlap(a, a.shifted(3.0)) > 0
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from manim import Mobject, Text, MathTex, config

from .components.cubegrid import CubeGrid, grids_in
from .components.labels import MIN_NAME_PX, MIN_TEXT_PX, BlockLabel, cap_height_px
from .components.numbers import fingerprint
from .layout.area import MAX_PITCH
from .components.projection import project
from .engine.manim_hooks import screen_points

__all__ = ["Outline", "outlines", "layout_faults", "fill_faults", "label_faults", "text_faults", "caption_faults",
           "map_faults", "name_faults", "sum_faults", "overlap", "TOLERANCE"]

TOLERANCE = 0.03  # frame units (about 2 px at 480p) two outlines may share
VISIBLE = 0.05  # opacity below which a thing is not seen
FOCUS = 0.3  # a block with a cube at least this opaque is in view (a dimmed one, below, is background)
HULL_DIRECTIONS = 64


@dataclass(frozen=True)
class Outline:
    """One visible thing: what it is, its kind and its convex screen polygon."""

    name: str
    kind: str  # "block", "label", "caption", "title", "formula", "code", "colorbar"
    polygon: np.ndarray  # (n, 2), convex, counter-clockwise
    on_block: bool = False

    @property
    def box(self) -> tuple[float, float, float, float]:
        (left, bottom), (right, top) = self.polygon.min(axis=0), self.polygon.max(axis=0)
        return float(left), float(bottom), float(right), float(top)

    def shifted(self, dx: float) -> "Outline":
        return Outline(self.name, self.kind, self.polygon + [dx, 0.0], self.on_block)


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull (monotone chain), counter-clockwise, of the points extreme
    in 64 directions (all a hull needs to within a hair, and fast)."""
    angles = np.linspace(0.0, 2 * np.pi, HULL_DIRECTIONS, endpoint=False)
    directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pts = np.unique(np.round(points[np.argmax(points @ directions.T, axis=0)], 9), axis=0)
    if len(pts) < 3:
        return pts

    def turn(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _rectangle(points: np.ndarray) -> np.ndarray:
    (l, b), (r, t) = points.min(axis=0), points.max(axis=0)
    return np.array([[l, b], [r, b], [r, t], [l, t]])


def overlap(a: Outline, b: Outline) -> float:
    """How deep two convex outlines overlap (0 when apart): the smallest
    penetration along the edge normals of either (separating axes)."""
    depth = np.inf
    for poly in (a.polygon, b.polygon):
        edges = np.roll(poly, -1, axis=0) - poly
        for edge in edges:
            normal = np.array([-edge[1], edge[0]])
            length = np.linalg.norm(normal)
            if length < 1e-12:
                continue
            normal /= length
            pa, pb = a.polygon @ normal, b.polygon @ normal
            depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
            if depth <= 0:
                return 0.0
    return float(depth)


def _opacity(mob: Mobject) -> float:
    if isinstance(mob, CubeGrid):
        return float(mob.cube_opacity.max()) if mob.cube_opacity.size else 0.0
    alphas = [a for part in mob.get_family() for a in part.get_fill_opacities()] if mob.get_family() else []
    return float(max(alphas, default=0.0))


def _texts(mob: Mobject):
    """The texts in ``mob``'s family (a text's glyphs are not walked into)."""
    if isinstance(mob, (Text, MathTex)):
        yield mob
        return
    for sub in mob.submobjects:
        yield from _texts(sub)


def _kind(scene, top: Mobject) -> str:
    part = scene.header.kind_of(top)
    if part:
        return part
    return "caption" if getattr(top, "is_caption", False) else "label"


def outlines(scene) -> list[Outline]:
    """Everything visible in ``scene`` now, as screen outlines."""
    found = []
    header_parts = scene.header.parts
    tops = [m for m in scene.mobjects if m is not None]
    for top in tops:
        # the header is one Group of title, code and formula
        parts = [p for p in header_parts if p is not None and p in top.submobjects] or [top]
        for part in parts:
            kind = _kind(scene, part)
            on_block = bool(getattr(part, "on_block", False))
            if kind == "code":  # a panel: its whole rectangle
                points = np.concatenate([screen_points(scene, m) for m in part.get_family() if len(m.points)])
                found.append(Outline(kind, kind, _rectangle(points[:, :2])))
                continue
            for grid in grids_in(part):
                if _opacity(grid) < VISIBLE:
                    continue
                seen = grid.cube_opacity.reshape(-1) >= VISIBLE
                corners = grid.cube_corners()[seen].reshape(-1, 3)
                points = project(scene.camera, corners)
                found.append(Outline(f"block {'×'.join(map(str, grid.grid_shape))}", "block", _hull(points)))
            for text in _texts(part):
                if _opacity(text) < VISIBLE or not len(text.get_all_points()):
                    continue
                points = np.concatenate([screen_points(scene, m) for m in text.get_family()
                                         if len(m.points)])
                name = getattr(text, "original_text", None) or getattr(text, "tex_string", "?")
                found.append(Outline(str(name).replace("\n", " ")[:40], kind, _rectangle(points[:, :2]),
                                     on_block or bool(getattr(text, "on_block", False))))
    return found


def layout_faults(scene, margin: float = 0.0) -> list[str]:
    """Every broken rule in ``scene`` now, one line each (empty: all kept)."""
    items = outlines(scene)
    half_w, half_h = config.frame_width / 2 - margin, config.frame_height / 2 - margin
    faults = []
    for item in items:
        left, bottom, right, top = item.box
        if left < -half_w - TOLERANCE or right > half_w + TOLERANCE or bottom < -half_h - TOLERANCE \
                or top > half_h + TOLERANCE:
            faults.append(f"{item.kind} '{item.name}' leaves the frame "
                          f"(x {left:.2f}..{right:.2f}, y {bottom:.2f}..{top:.2f})")
    panels = [i for i in items if i.kind == "code"]
    for item in items:
        for panel in panels:
            if item.kind != panel.kind and overlap(item, panel) > TOLERANCE:
                faults.append(f"{item.kind} '{item.name}' runs into the {panel.kind}")
    texts = [i for i in items if i.kind in ("label", "caption", "title", "formula")]
    for n, a in enumerate(texts):
        for b in texts[n + 1:]:
            if overlap(a, b) > TOLERANCE:
                faults.append(f"{a.kind} '{a.name}' overlaps {b.kind} '{b.name}'")
    blocks = [i for i in items if i.kind == "block"]
    for text in texts:
        if text.on_block:
            continue
        for block in blocks:
            if overlap(text, block) > TOLERANCE:
                faults.append(f"{text.kind} '{text.name}' lies on {block.name}")
                break
    return faults


FILL_WIDTH, FILL_HEIGHT = 0.3, 0.45  # of the stage area: the blocks span at least one of these


def fill_faults(scene) -> list[str]:
    """A fault when the visible blocks are small in the stage area although
    their cubes could grow: a layout placed for another configuration."""
    blocks = [o for o in outlines(scene) if o.kind == "block"]
    grids = [g for m in scene.mobjects for g in grids_in(m) if _opacity(g) >= VISIBLE]
    if not blocks or max(g.pitch for g in grids) >= 0.9 * MAX_PITCH:
        return []
    boxes = np.array([b.box for b in blocks])
    width = boxes[:, 2].max() - boxes[:, 0].min()
    height = boxes[:, 3].max() - boxes[:, 1].min()
    area = scene.layout.area()
    if width < FILL_WIDTH * area.width and height < FILL_HEIGHT * area.height:
        return [f"the blocks fill only {width / area.width:.0%} × {height / area.height:.0%} of the stage area"]
    return []


def _shown(scene, mob: Mobject) -> bool:
    """Whether ``mob`` is in the scene (itself or in a family there) and not faded out."""
    if not any(mob is top or mob in top.get_family() for top in scene.mobjects):
        return False
    return _opacity(mob) >= 0.5


def _grids(scene):
    return [g for top in scene.mobjects for g in grids_in(top)]


def label_faults(scene, in_focus: float = FOCUS, names: bool = True) -> list[str]:
    """Names bound to blocks: every block in focus (some cube at least
    ``in_focus`` opaque) has its label on screen, or belongs to a block
    that has (``part_of``: a row lifted out of it); the label names what
    the block shows now (the same numbers it was named with); its scale is
    the block's colors, and those are the range of the block's own numbers
    unless the label says whose they are (``scale_of``)."""
    faults = []
    for grid in _grids(scene):
        if grid.cube_opacity.size == 0 or float(grid.cube_opacity.max()) < in_focus:
            continue
        owner = grid
        while getattr(owner, "label", None) is None and getattr(owner, "part_of", None) is not None:
            owner = owner.part_of
        label = getattr(owner, "label", None)
        size = "×".join(map(str, grid.grid_shape))
        if label is None or not _shown(scene, label):
            faults.append(f"a block {size} is on screen without its label")
            continue
        if owner is not grid or not names:  # inside an animation a block and its name change together
            continue
        name = getattr(label, "tensor_name", "?").replace("\n", " ")
        scale = getattr(label, "value_range", None)
        if scale is None:
            continue
        if not np.allclose(scale, grid.value_range, rtol=1e-4, atol=1e-9):
            faults.append(f"the label '{name}' shows a scale that is not its block's colors")
        finite = grid.values[np.isfinite(grid.values)]
        own = (float(finite.min()), float(finite.max())) if finite.size else scale
        if getattr(label, "scale_of", None) is None and not np.allclose(scale, own, rtol=1e-4, atol=1e-9):
            faults.append(f"the label '{name}' shows a range ({scale[0]:.3g} to {scale[1]:.3g}) that is not "
                          f"its numbers' ({own[0]:.3g} to {own[1]:.3g}) and does not say whose it is")
    return faults + (name_faults(scene) if names else [])


def name_faults(scene) -> list[str]:
    """The labels on screen that name other numbers than their block shows
    now: part of :func:`label_faults`, and alone the rule that holds at every
    play's first frame too (a block recolored between two plays has its new
    name in the same instant), where a block may still lack its label or its
    scale."""
    labels = {id(m): m for top in scene.mobjects for m in top.get_family() if isinstance(m, BlockLabel)}
    return [f"the label '{label.tensor_name}' names numbers its block no longer shows".replace("\n", " ")
            for label in labels.values()
            if getattr(label, "block", None) is not None and _opacity(label) >= 0.5
            and label.fingerprint != fingerprint(label.block.values)]


def _cap_px(scene, text) -> float:
    """A text's capitals on screen, in pixels of a 480-line frame: its font
    size as drawn (scaled, turned upright or sideways, seen at its depth)."""
    turned = getattr(text, "turned", False)
    size = text.width if turned else text.height  # its line height, now
    drawn = np.concatenate([screen_points(scene, m) for m in text.get_family() if len(m.points)])
    extent = np.ptp(drawn[:, 0 if turned else 1])
    scale = extent / size if size > 1e-9 else 1.0
    font_size = size / text.initial_height * text._font_size * scale if isinstance(text, Text) else 48
    return cap_height_px(font_size)


def text_faults(scene) -> list[str]:
    """No text a viewer needs under :data:`~.components.labels.MIN_TEXT_PX`
    high at 480p; captions, titles and block names under
    :data:`~.components.labels.MIN_NAME_PX`."""
    faults = []
    for top in scene.mobjects:
        kind = _kind(scene, top)
        for text in _texts(top):
            if not isinstance(text, Text) or _opacity(text) < VISIBLE or not len(text.get_all_points()):
                continue
            role = "name" if kind in ("caption", "title") or getattr(text, "is_name", False) else "text"
            least = MIN_NAME_PX if role == "name" else MIN_TEXT_PX
            px = _cap_px(scene, text)
            if px < least - 0.3:
                faults.append(f"{kind} '{text.original_text[:30]}' is {px:.1f} px high, under {least} px")
    return faults


def caption_faults(scene) -> list[str]:
    """No caption held half-faded (at a step's end every caption on screen
    is whole), and every sum a caption writes adds up as written (:func:`sum_faults`)."""
    captions = [c for top in scene.mobjects if getattr(top, "is_caption", False) for c in _texts(top)]
    return ([f"the caption '{c.original_text[:30]}' is half-faded ({_opacity(c):.0%})"
             for c in captions if 0.05 < _opacity(c) < 0.95]
            + [f for c in captions for f in sum_faults(c.original_text.replace("\n", " "))])


_NUMBER = r"\(?[−-]?\d+(?:\.\d+)?\)?"
# a sum of plain numbers: not a product's factor (no "·", "×", "*" or "/" before the first term)
_SUM = re.compile(rf"(?<![·×*/\d.])({_NUMBER}(?: \+ {_NUMBER})+) ([=≈]) ({_NUMBER})(?![\d.·×*])")


def sum_faults(text: str) -> list[str]:
    """Each ``a + b + … = c`` of plain numbers in ``text`` adds up as
    written: to half a unit of its last written digit with "=", to one unit
    with "≈" (a reader adds what is written; nine row sums read 0.68 beside
    "≈ 0.70", the 32nd reader).

    >>> sum_faults("cell = 0.65 + 0.23 + (−0.69) ≈ 0.19"), sum_faults("0.654 + 0.228 = 0.882; 0.2·0.3 + 0.4 = 9")
    ([], [])
    >>> sum_faults("the row sums added: 0.65 + 0.23 + (−0.69) + 0.27 + 0.29 + 0.51 + (−0.46) + (−1.09) + 0.97 ≈ 0.70")
    ['the written sum 0.65 + 0.23 + (−0.69) + 0.27 + 0.29 + … ≈ 0.70 adds up to 0.68']
    """
    faults = []
    for match in _SUM.finditer(text):
        terms = [_read(t) for t in match.group(1).split(" + ")]
        total = _read(match.group(3))
        digits = max(_decimals_written(t) for t in match.group(1).split(" + ") + [match.group(3)])
        missed = abs(sum(terms) - total) * 10.0 ** digits
        if missed > (0.5 if match.group(2) == "=" else 1.0) + 1e-6:
            shown = match.group(1).split(" + ")
            shown = " + ".join(shown[:5]) + (" + …" if len(shown) > 5 else "")
            faults.append(f"the written sum {shown} {match.group(2)} {match.group(3)} adds up to "
                          f"{sum(terms):.{digits}f}".replace("-", "−"))
    return faults


def _read(number: str) -> float:
    return float(number.strip("()").replace("−", "-"))


def _decimals_written(number: str) -> int:
    digits = number.strip("()")
    return len(digits.split(".")[1]) if "." in digits else 0


def map_faults(scene) -> list[str]:
    """Every attention map on screen (a block marked ``is_map``, not a small
    ``thumbnail`` of one beside a large one) has the tokens' words on its rows
    and on its columns."""
    faults = []
    for grid in _grids(scene):
        if not getattr(grid, "is_map", False) or getattr(grid, "thumbnail", False) or _opacity(grid) < FOCUS:
            continue
        for axis in ("row_words", "column_words"):
            words = getattr(grid, axis, None)
            if words is None or not len(words) or not _shown(scene, words):
                faults.append(f"an attention map {'×'.join(map(str, grid.grid_shape))} has no words on its "
                              f"{axis.split('_')[0]}s")
    return faults


