"""Head slices pulled apart: head 0 large with its words, the others small, each tagged "head h";
every slice transposed in place, column j lying down as row j (a swapaxes or permute of the last two axes)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import DOWN, RIGHT, UP, Arrow, Mobject, VGroup, smooth

from ..components.cubegrid import CubeGrid
from ..components.fades import InPlace, appear, at_once, halfway, swap, vanish
from ..components.labels import NAME_SIZE, TEXT_SIZE, note_text
from ..components.projection import FRONT
from ..layout import LABEL_BUFF, LABEL_ROOM, TAG_ROOM, Margins, ghost, head_columns
from ..layout.area import StageArea
from ..layout.fit import HEAD_GAP, LABEL_GAP, head_grid

__all__ = ["FocusHeads", "HeadPairs", "head_tags", "focus_heads", "fill_heads", "form_rows_together", "pair_heads",
           "form_pairs", "turned_heads", "FOCUS_SHARE", "PAIR_LEAST", "role_lines", "tag_width"]


SHORT_ROLES = {"previous token": "previous", "next token": "next", "first token": "first",
               "last token": "last"}  # a tag's second line says the role in one word where it can


def role_lines(roles) -> dict[int, str]:
    """What each head looks at, as a tag's second line ("previous 0.91",
    "no clear role"), from :meth:`tensors.Trace.roles`; none at all where no
    head has a clear role (the blog's random weights: the captions say so)."""
    if not any(r.role for r in roles):
        return {}
    return {r.head: f"{SHORT_ROLES.get(r.role, r.role)} {r.score:.2f}" if r.role else r.name for r in roles}


def tag_text(head: int, roles=None) -> str:
    """A head's tag: "head h", and what it looks at on a second line where known."""
    role = (roles or {}).get(head)
    return f"head {head}" + (f"\n{role}" if role else "")


def head_tags(layout, slices, font_size: int = TEXT_SIZE, direction=UP, buff: float = 0.08,
              first: int = 0, roles=None, texts=None) -> VGroup:
    """"head h" over each slice (or on its ``direction`` side), counting from
    ``first``, with its role under it where ``roles`` (:func:`role_lines`)
    has one (``texts``: other tags, one per slice, e.g. the token each block
    is); pinned to the screen, not yet shown."""
    theme = layout.theme
    texts = texts or [tag_text(h, roles) for h in range(first, first + len(slices))]
    tags = VGroup(*[note_text(text, theme, font_size=font_size, color=theme.muted) for text in texts])
    for tag, piece in zip(tags, slices):
        layout.beside([piece], tag, direction, buff=buff, view=FRONT)
    if np.asarray(direction)[0] == 0 and len({t.count("\n") for t in texts}) == 1:
        # one line of tags: on one baseline (a word without a descender sits as high as "you" or "help")
        depth = descender_depth(theme, font_size)
        for tag, text in zip(tags, texts):
            if not set(text.split("\n")[-1]) & DESCENDERS:
                tag.shift(UP * depth)
    layout.fixed(*tags)
    return tags


DESCENDERS = set("gjpqy,;()[]")  # glyphs that reach below the baseline


def descender_depth(theme, font_size: int = TEXT_SIZE) -> float:
    """How far a descender reaches below the baseline, at ``font_size``."""
    return note_text("xg", theme, font_size=font_size).height - note_text("x", theme, font_size=font_size).height


TAG_GAP = 0.25  # between two head tags side by side, 15 px at 480p (at 0.15, 9 px, "head 1 head 2 head 3" read
# as one string: 16_0418, the 65th and 67th readers; at 0.3 sixteen small heads shrank under 0.4 units)
TAG_BUFF = 0.12  # between a head and the tag beside it


def tag_width(layout, last: int, font_size: int = TEXT_SIZE, roles=None, first: int = 0) -> float:
    """How wide the widest tag of heads ``first`` to ``last`` is ("head 10", with its role)."""
    return max(note_text(tag_text(h, roles), layout.theme, font_size=font_size).width for h in range(first, last + 1))


def tag_height(layout, roles=None, font_size: int = TEXT_SIZE) -> float:
    """How tall a head's tag is: one line, two with ``roles``."""
    return note_text(tag_text(1, {1: "no clear role"} if roles else None), layout.theme, font_size=font_size).height


@dataclass
class FocusHeads:
    """What :func:`focus_heads` leaves on screen: head 0 large (``focus``,
    labelled ``name[0]``, the tokens' words on the axes that are tokens),
    the other heads small (``others``, each tagged, labelled together by
    ``others_label``: ``name[1:]``)."""

    focus: CubeGrid
    others: list
    tags: VGroup
    words: list
    others_label: Mobject | None
    name: str
    area: object = None  # where head 0 stands: the left part of the stage area


FOCUS_SHARE = 0.55  # of the stage area's width, left: head 0 with its words
THUMB_GAP = (0.35, 0.6)  # between two small heads: across, and down (room for their tags, clearly nearer
# their own head than the one above: at 0.42, "head 5" stood 4 px under head 1 and 6 px over its own, 17_0595)


def _axes_words(layout, grid, words, rows: bool, columns: bool) -> list:
    on = []
    if rows:
        on.append(layout.word_labels(grid, words))
    if columns:
        on.append(layout.column_words(grid, words))
    grid.is_map = rows and columns
    return on


def focus_heads(scene, layout, viewpoint, block, name: str, words, run_time: float = 2.0, area=None,
                rows_are_tokens: bool = True, columns_are_tokens: bool = True, room_for=None,
                roles=None, leaving=(), rate_func=smooth, told=(), slices=None) -> FocusHeads:
    """Split a (h, r, c) block into its heads: head 0 goes left, large,
    with the tokens' words on its rows and/or columns (where they are
    tokens) and the label ``name[0]``; heads 1..h-1 go right, small, in a
    grid, each tagged "head h" (that small they get no words: head 0 is the
    one to read). Front view. ``room_for``: the (rows, columns) every slice
    must have room for as well (what a turn makes of it). ``roles``: what
    each head looks at (:func:`role_lines`), under its tag and under head 0's
    label. ``leaving``: what else is on screen and goes as the heads move
    (blocks and texts at once: never caught half-faded, unnamed);
    ``rate_func``: the heads' move's (``rush_from``: they leave where they
    were formed at once, a block alone there being nothing to read);
    ``told``: a caption's animations, joining the move (said
    before it, the caption held the block still where it was formed:
    15_0139); ``slices``: the heads already apart on screen, named
    together by their first's label (:func:`pair_heads`'), ``block`` being
    only their shape: that name rides under head 0 as the whole block's
    would."""
    heads = block.grid_shape[0]
    if slices is None:
        slices = block.split(axis=0)
        before = getattr(block, "label", None)  # the whole block's name stays until its heads have their own
        scene.remove(block)
        scene.add(*slices)
    else:
        before = slices[0].label
    for piece in slices:
        piece.part_of = block
        piece.thumbnail = False
    area = area or layout.area()
    share = FOCUS_SHARE if heads > 1 else 1.0
    left_part = area.part(0.0, share)
    focus, others = slices[0], slices[1:]
    target = focus.copy()
    rows, cols = block.grid_shape[1:]
    later_rows, later_cols = room_for or (rows, cols)
    word_left = layout.word_room(words) if rows_are_tokens or later_rows != rows else 0.0
    word_top = layout.word_room(words, columns=True) if columns_are_tokens else 0.0
    layout.name(focus, f"{name}[0]", DOWN, scale_of="all heads" if heads > 1 else None,
                note=f"head 0 · {roles[0]}" if roles else None)
    target.label = focus.label
    if others:
        focus.label.within = left_part  # clear of the small heads
    fitted = [target] + ([ghost(target, (1, later_rows, later_cols))] if room_for else [])
    layout.fit(fitted, view=FRONT, area=left_part,
               margins=Margins(left=word_left, top=word_top, bottom=focus.label.height + 0.3))
    targets = [target]
    others_label = None
    if others:
        right_part = area.part(share + 0.03, 1.0)
        slot = (max(rows, later_rows), max(cols, later_cols))
        thumbs = [ghost(others[0], (1,) + slot) for _ in others]  # one size (a head not drawn waits small)
        if roles:  # two-line tags (what each head looks at) go beside the heads, not over them
            wide = tag_width(layout, heads - 1, roles=roles, first=1)
            gap = (THUMB_GAP[0] + wide + TAG_BUFF, THUMB_GAP[1] / 2)
            down = tag_height(layout, roles) + TAG_GAP
            columns, size = head_grid(len(thumbs), slot[1], slot[0],
                                      right_part.inset(Margins(bottom=LABEL_ROOM + 0.3)), gap=gap, top=0.0,
                                      right=wide + TAG_BUFF, least_down=down)
            # no room for a role beside every small head (ten heads, the paper's causal weights: the heads drawn
            # at no size under a pile of tags): "head h" over each, fewer words
            if size * min(slot) < MIN_THUMB:
                roles = None
        if roles:
            layout.grid_of_blocks(thumbs, columns, gap=gap, area=right_part, least_down=down,
                                  margins=Margins(top=0.1, bottom=LABEL_ROOM + 0.3, right=wide + TAG_BUFF))
        else:  # the tags over the heads never meet
            least = tag_width(layout, heads - 1, first=1) + TAG_GAP
            columns = head_columns(len(thumbs), slot[1], slot[0], right_part.inset(Margins(bottom=LABEL_ROOM + 0.3)),
                                   least=least)
            layout.grid_of_blocks(thumbs, columns, gap=THUMB_GAP, area=right_part,
                                  margins=Margins(top=TAG_ROOM, bottom=LABEL_ROOM + 0.3), least=least)
        for s, t in zip(others, thumbs):  # each head at its slot's first cell
            there = s.copy().scale(t.pitch / s.pitch)
            there.align_cell((0, 0, 0), t.cell_center(0, 0))
            targets.append(there)
    if before is not None and not any(before is m for m in scene.mobjects):
        scene.add(before)  # named from the move's first frame (it takes the place of what leaves)
    gone = [vanish(m, rate_func=at_once) for m in leaving]
    riding = []
    # the whole block's name rides under head 0, never left over the heads moving past it
    if before is not None:

        def ride(label, alpha):
            layout.beside([focus], label, DOWN, buff=LABEL_BUFF)
            layout.inside(label)

        riding.append(InPlace(before, ride))
    # the heads part together (one after another, the block stood whole where it was formed for half
    # the move: a still of one block at the frame's edge, 14_0672)
    tags = head_tags(layout, thumbs, first=1, roles=roles, direction=RIGHT if roles else UP,
                     buff=TAG_BUFF if roles else 0.08) if others else VGroup()
    if others:
        others_label = _others_label(layout, others, name, slots=thumbs)
    scene.play(*gone, viewpoint.turn(*FRONT), *[s.animate(rate_func=rate_func).become(t)
                                                for s, t in zip(slices, targets)], *riding, *told, run_time=run_time)
    for piece in others:  # their name again (a move's ``become`` takes its target's)
        piece.label = others_label
    shown = [layout.place(focus)]
    on_focus = _axes_words(layout, focus, words, rows_are_tokens, columns_are_tokens)
    for piece in others:  # too small for words: head 0 beside them is the one to read
        piece.is_map = focus.is_map
        piece.thumbnail = True
    if others:
        shown.append(others_label)
    for piece in slices:
        piece.part_of = None
    # the words and tags at once (fading in, they were caught half-faded: 18_0051), as the names swap (after
    # the swap, a still caught the heads parted, untagged, head 0 without its words: 18_0050)
    scene.play(*(swap(before, VGroup(*shown), rate_func=at_once) if before is not None else []),
               *[appear(m, rate_func=at_once) for m in ([] if before is not None else shown) + on_focus],
               appear(tags, rate_func=at_once), run_time=0.5)
    return FocusHeads(focus, others, tags, on_focus, others_label, name, left_part)


def form_rows_together(scene, layout, grids, run_time: float, told=(), lit=(), whole=()) -> None:
    """The empty rows of ``grids`` (2D, as many rows each) formed all at
    once, row after row: row r of every grid at the same time, a frame on
    row r of each (a row already formed is left as it is). A batched
    operation seen as one: not a head's turn after another's. ``told``: a
    caption's animations, joining the frames' coming; ``lit``: the grids
    whose row r makes row r (a frame on it too), ``whole``: the operands
    every row is made with (a frame round each, all along)."""
    from .matmul import fill_rows, frame_around, row_sweep  # the matmul's row frames and fill (it needs no heads)

    marks, sweep = row_sweep(layout, *lit, *grids)
    wholes = VGroup(*[frame_around(layout, grid, (0,)) for grid in whole])
    # the frames come on row 0 with the caption (joined to the fill, it came half-way through it)
    scene.play(appear(marks, rate_func=at_once), appear(wholes, rate_func=at_once), *told, run_time=0.3)
    scene.play(*[fill_rows(grid) for grid in grids], sweep, run_time=run_time)
    scene.remove(marks, wholes)


@dataclass
class HeadPairs:
    """What :func:`pair_heads` leaves on screen: every head's left operand
    (``weights``) beside its result (``results``), an arrow between, a tag
    over each pair; the right operand every head shares (``operand``) on
    their left; under the pairs, one formula of names (``names``: the
    weights', a sign, the results' ``result_label``)."""

    weights: list
    results: list
    operand: CubeGrid
    tags: VGroup
    arrows: VGroup
    names: list
    result_label: Mobject
    unseen: list = ()  # the heads not drawn (too many to read): their results, out of sight behind ...
    dots: Mobject | None = None  # ... the "⋯" standing for their pairs

    @property
    def every(self) -> list:
        """Every head's result, head 0 first."""
        return [*self.results, *self.unseen]

    def leaving(self) -> list:
        """What goes when the results move on: all but the results and their name."""
        return [*self.weights, self.operand, self.operand.label, self.tags, self.arrows,
                *[m for m in self.names if m is not self.result_label]] + ([self.dots] if self.dots else [])


PAIR_GAP = 4  # cells between a head's left operand and its result: room for the arrow
WORDED_GAP = 6  # ... and for the arrow's "· Xᵀ" too, where that costs the pairs little:
WORDED_COST = 0.9  # their cubes keep this much of their size at least, and every pair drawn stays
PAIR_APART = 5  # cells between two heads' pairs, when only the first heads' are drawn
PAIR_LEAST = 0.13  # a drawn pair's cube at least this (frame units: 8 px at 480p), else fewer heads drawn


def pair_heads(scene, layout, viewpoint, block, weights, operand, names, leaving=(), run_time: float = 0.6,
               told=()) -> HeadPairs:
    """Every head's matmul laid out side by side, for a batched matmul to
    be seen as one: head h's left operand (``weights``: the (h, r, k) values
    and their range) beside head h's result, an arrow between (read
    ``· operand =``), tagged "head h"; the one right operand all heads share
    (a broadcast: ``operand``, on screen, labelled) left of them, as large as
    the room its name takes allows; one formula of names under the pairs.
    Front view.

    ``block``: the (h, r, c) result where it was formed (its formed rows
    and empty slots kept); ``names``: (the left operand's, the result's);
    ``leaving``: what else is on screen and goes (the bench's head-0
    slice, signs and names): one cut, half-way through the play, from the
    bench to the pairs. ``told``: a caption's animations, joining it."""
    values, value_range = weights
    heads, rows, cols = block.grid_shape
    inner = values.shape[2]
    weight_name, result_name = names
    results = block.split(axis=0)
    scene.remove(block)
    scene.add(*results)
    leaving = [m for m in leaving if m is not operand and m is not operand.label]
    grids = [results[0].like(values[h], value_range) for h in range(heads)]
    # the room: the shared operand's part on the left, the pairs' grid right of it, the names under both
    sign = note_text("· " + operand.label.tensor_name + " =", layout.theme, font_size=NAME_SIZE)
    labels = [layout.name(grids[0], f"{weight_name}[n]", DOWN, scale_of="all heads", stacked=True),
              layout.name(results[0], f"{result_name}[n]", DOWN, scale_of="all heads", stacked=True)]
    below = max(m.height for m in (*labels, operand.label)) + LABEL_BUFF + 0.15
    area = layout.area()
    least = tag_width(layout, heads - 1) + TAG_GAP
    o_rows, o_cols = operand.grid_shape[1:]

    def blank(columns):  # an invisible grid of ``rows`` × ``columns``: room on screen
        return results[0].like(np.zeros((1, rows, columns))).set_cell_opacity(0.0)

    def rest_tag(first):  # the tag of the heads not drawn
        return f"heads {first}–{heads - 1}"

    def rest_room(first):  # its width and the gaps either side
        return note_text(rest_tag(first), layout.theme, font_size=TEXT_SIZE).width + 2 * HEAD_GAP[0]

    least_share = (operand.label.width + 0.2) / area.width  # its name fits under it, inside its part

    def planned(gap):
        """The pairs' cube size, grid, the operand's share, the pairs' area,
        how many pairs are drawn, and a pair's width in cells, with ``gap``
        cells between a head's operand and its result."""
        width = inner + gap + cols

        def sizes(share):
            pairs = area.part(share + 0.03, 1.0).inset(Margins(bottom=below))
            columns, size = head_grid(heads, width, rows, pairs, least, gap=HEAD_GAP)
            alone = min(share * area.width / o_cols, (area.height - below) / o_rows)
            return min(size, alone), columns, share

        size, columns, share = max(sizes(s) for s in np.linspace(least_share, max(0.4, least_share + 0.1), 18))
        pair_area = area.part(share + 0.03, 1.0)
        drawn = heads
        if size < PAIR_LEAST and heads > 2:
            # every head's pair too small to read (nine heads: cubes of 4 px at 480p, "confetti", 14_0334 and
            # four readers before): the first heads' pairs large, in one row, and "⋯" for the rest, formed alike

            def pitch(n):
                across = (pair_area.width - rest_room(n)) / (n * width + (n - 1) * PAIR_APART)
                return min(across, (pair_area.height - TAG_ROOM - below) / rows)

            drawn = max([n for n in range(2, heads) if pitch(n) >= PAIR_LEAST] or [2])
            size = pitch(drawn)
        return size, columns, share, pair_area, drawn, width

    # the wider gap, room for the arrow's "· Xᵀ", where it costs no cube size and no pair; else the narrow one
    narrow, wide = planned(PAIR_GAP), planned(WORDED_GAP)
    worded = wide[0] >= narrow[0] * WORDED_COST and wide[4] >= narrow[4]
    size, columns, share, pair_area, drawn, width = wide if worded else narrow
    gap = WORDED_GAP if worded else PAIR_GAP
    if drawn == heads:
        ghosts = [blank(width) for _ in range(heads)]
        layout.grid_of_blocks(ghosts, columns, gap=HEAD_GAP, area=pair_area, least=least,
                              margins=Margins(top=TAG_ROOM, bottom=below))
    else:  # one row: the drawn pairs, PAIR_APART cells apart, then the "⋯" and its tag in the room left
        beyond = int(np.ceil(rest_room(drawn) / size))
        row = blank(drawn * width + (drawn - 1) * PAIR_APART + beyond)
        layout.grid_of_blocks([row], 1, gap=HEAD_GAP, area=pair_area, margins=Margins(top=TAG_ROOM, bottom=below))
        ghosts = [blank(width) for _ in range(drawn)]
        for h, ghost_h in enumerate(ghosts):
            ghost_h.scale(row.pitch / ghost_h.pitch).align_cell((0, 0, 0), row.cell_center(0, h * (width + PAIR_APART)))
    pitch = ghosts[0].pitch
    w_targets, r_targets = [], []
    for h, room in enumerate(ghosts):
        for grid, at, targets in ((grids[h], 0, w_targets), (results[h], inner + gap, r_targets)):
            there = grid.copy().scale(pitch / grid.pitch)
            there.align_cell((0, 0, 0), room.cell_center(0, at))
            targets.append(there)
    ellipsis, dots = None, None
    if drawn < heads:
        # "⋯" where the other heads' pairs would stand, "heads d–(h-1)" over it on the tags' line; those heads'
        # results wait there, small and out of sight, formed with the drawn ones, and come out of it as the
        # heads part (focus_heads)
        ellipsis = row.like(np.zeros((1, rows, beyond))).set_cell_opacity(0.0)
        ellipsis.align_cell((0, 0, 0), row.cell_center(0, drawn * width + (drawn - 1) * PAIR_APART))
        left, bottom, right, top = layout.screen_box([ellipsis], view=FRONT)
        dots = note_text("⋯", layout.theme, font_size=2 * NAME_SIZE)
        dots.move_to([(left + right) / 2, (bottom + top) / 2, 0])
        layout.fixed(dots)
        for h in range(drawn, heads):
            results[h].scale(dots.height / results[h].height).move_to(ellipsis)
    grids, w_targets = grids[:drawn], w_targets[:drawn]
    o_target = operand.copy()
    # as large as its part allows (the room its name takes beside the pairs), its name over it: the band
    # under the pairs is the formula's (the two side by side did not fit: 14 at 480p)
    operand.label.row, operand.label.side = None, UP  # no longer in the bench's row
    layout.fit([o_target], view=FRONT, area=StageArea(area.left, area.left + share * area.width, area.bottom + below,
                                                       area.top - operand.label.height - LABEL_BUFF - 0.05))
    arrows = VGroup()
    for w, r in zip(w_targets, r_targets):
        _, w_bottom, w_right, w_top = layout.screen_box([w], view=FRONT)
        r_left = layout.screen_box([r], view=FRONT)[0]
        y = (w_bottom + w_top) / 2
        arrows.add(Arrow([w_right + pitch * 0.6, y, 0], [r_left - pitch * 0.6, y, 0], buff=0.0, stroke_width=2.5,
                         max_tip_length_to_length_ratio=0.45, color=layout.theme.muted))
    # each arrow says what it does, "· Xᵀ", where the gap takes it: the one Xᵀ joins every head's matmul (the
    # arrows alone read as the weights giving the results by themselves: 14_0324, the 34th reader)
    times = [note_text(f"· {operand.label.tensor_name}", layout.theme, font_size=TEXT_SIZE) for _ in arrows]
    if times and all(t.width <= a.get_length() + pitch * 0.6 for t, a in zip(times, arrows)):
        for t, a in zip(times, arrows):
            t.next_to(a, UP, buff=0.06)
            arrows.add(t)
    layout.fixed(arrows)
    slots = ghosts + ([ellipsis] if ellipsis else [])  # where the pairs and the "⋯" stand
    tags = head_tags(layout, slots, texts=[tag_text(h) for h in range(drawn)] + (
        [rest_tag(drawn)] if ellipsis else []))
    # the formula of names under the pairs: "weights[h] · Xᵀ = results[h]", as each pair's arrow reads
    formula = VGroup(labels[0], sign, labels[1]).arrange(RIGHT, buff=LABEL_GAP / 2, aligned_edge=UP)
    sign.match_y(labels[0][0])  # on the names' line
    layout.beside(slots, formula, DOWN, buff=LABEL_BUFF, view=FRONT)
    layout.inside(formula, area, view=FRONT)
    layout.upright(*labels)
    layout.fixed(sign)
    for grid in grids:
        grid.label, grid.thumbnail = labels[0], True
    for grid in results:
        grid.label, grid.thumbnail, grid.part_of = labels[1], True, None
    # one cut, half-way through the play: the bench as it was, then every head's pair in its place (head 0's
    # from the bench, flying across the others' places, crossed the shared operand: 15_0094 at a corner)
    seen, unseen = results[:drawn], results[drawn:]
    for grid, there in zip([*grids, *seen[1:]], [*w_targets, *r_targets[1:]]):
        grid.become(there)
    coming = [*grids, *seen[1:], tags, arrows, *labels, sign] + ([dots] if dots else [])
    scene.remove(*grids, *results[1:])
    follow = layout.follow(operand, o_target, view=FRONT)
    follow.rate_func = halfway
    scene.play(*[vanish(m, rate_func=halfway) for m in leaving], viewpoint.turn(*FRONT),
               results[0].animate(rate_func=halfway).become(r_targets[0]),
               operand.animate(rate_func=halfway).become(o_target), follow,
               *[appear(m, rate_func=halfway) for m in coming], *told, run_time=run_time)
    operand.thumbnail = True
    return HeadPairs(grids, seen, operand, tags, arrows, [labels[0], sign, labels[1]], labels[1], unseen, dots)


def form_pairs(scene, layout, pairs: HeadPairs, run_time: float, told=()) -> None:
    """Every head's empty result rows formed together, row after row, as
    :func:`form_rows_together` forms them, a frame on the row of each
    head's left operand that makes it and one round the shared operand."""
    form_rows_together(scene, layout, pairs.results, run_time, told, lit=pairs.weights, whole=[pairs.operand])
    for grid in pairs.unseen:  # formed with them, at the same time, out of sight
        grid.fill()
        grid.set_cell_opacity(1.0)


def fill_heads(scene, layout, shown: FocusHeads, run_time: float, told=()) -> None:
    """Every head's empty rows (head 0's beside it too), as
    :func:`form_rows_together` forms them."""
    form_rows_together(scene, layout, [shown.focus, *shown.others], run_time, told)


MIN_THUMB = 0.4  # a small head's shorter side at least this (frame units, 24 px at 480p): else tags over heads


def _others_label(layout, others, name: str, slots=None) -> Mobject:
    """``name[1:]`` under the small heads (under their ``slots``: the room a
    turn of theirs takes), kept inside the stage area; their label."""
    label = note_text(f"{name}[1:]", layout.theme, font_size=TEXT_SIZE)
    layout.beside(slots or others, label, DOWN, buff=0.2, view=FRONT)  # where they stand, whatever the camera now
    area = layout.area()
    label.shift([min(0.0, area.right - label.get_right()[0]) + max(0.0, area.left - label.get_left()[0]), 0, 0])
    layout.fixed(label)
    for piece in others:
        piece.label = label
    return label


def turned_heads(layout, shown: FocusHeads, values, words, rows_are_tokens: bool = True,
                 columns_are_tokens: bool = False) -> FocusHeads:
    """Where every head's slice stands once turned (a swapaxes or permute of
    the last two axes: ``values``, the turned (h, c, r) tensor), not shown:
    each slice turned about its first cell, head 0 grown into the room its
    new shape leaves, the words for its new token axis placed; the other
    heads labelled together as before. Head 0 is not named: the block that
    takes its place brings its label."""
    turned = []
    for h, s in enumerate([shown.focus, *shown.others]):
        depth, rows, cols = s.dims
        new = s.like(np.asarray(values)[h], s.value_range, dims=(depth, cols, rows))
        new.align_cell((0, 0, 0), s.cell_center(0, 0))
        for attr in ("thumbnail", "part_of"):
            if hasattr(s, attr):
                setattr(new, attr, getattr(s, attr))
        turned.append(new)
    focus, others = turned[0], turned[1:]
    if shown.area is not None:  # head 0 grows into the room its new shape leaves
        layout.fit([focus], view=FRONT, area=shown.area, margins=Margins(
            left=layout.word_room(words) if rows_are_tokens else 0.0,
            top=layout.word_room(words, columns=True) if columns_are_tokens else 0.0,
            bottom=shown.focus.label.height + 0.3))
    # their name under them as they stand turned, not under the room the turn took (under a 17-row slot, it
    # floated 55 px below heads of 8 rows: 14_0640, the 58th and 59th readers)
    others_label = _others_label(layout, others, shown.name) if others else None
    for piece in others:
        piece.is_map = rows_are_tokens and columns_are_tokens
    on_focus = _axes_words(layout, focus, words, rows_are_tokens, columns_are_tokens)
    return FocusHeads(focus, others, shown.tags, on_focus, others_label, shown.name, shown.area)
