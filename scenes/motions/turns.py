"""Turns: a block turning rigidly, and a transpose (or a permute of every head's slice at once) seen as a
copy: the block before it left, each column copied out, turned a quarter turn and laid down as a row of
the block after it, right, one after another."""

from __future__ import annotations

import numpy as np
from manim import DOWN, ORIGIN, PI, RIGHT, Arrow, Mobject, Text, VGroup, linear, smooth

from ..components.cubegrid import CubeGrid
from ..components.fades import InPlace, all_at_once, appear, at_end, at_once, halfway, swap, vanish
from ..components.labels import TEXT_FONT, TEXT_SIZE
from ..components.projection import FRONT, project_at, world_at_screen
from ..layout import Margins

__all__ = ["turn", "turn_sign", "transpose_beside", "MAX_GROWTH"]

COPY_LAG = 0.6  # of one column's flight, the next column's start after it: two in flight at most


def turn(mob: Mobject, angle: float, axis, about_point=None, shift=None, scale: float = 1.0, lift=None,
         **kwargs):
    """A rigid turn (plus an optional shift and growth), not a straight-line morph; ``lift``: a
    shift out and back on the way (toward the eye: in front of whatever it passes)."""
    start = mob.copy()  # one copy: the turn is recomputed from the start pose each frame
    about = np.asarray(mob.get_center() if about_point is None else about_point, dtype=float)
    shift = np.zeros(3) if shift is None else np.asarray(shift, dtype=float)
    lift = np.zeros(3) if lift is None else np.asarray(lift, dtype=float)

    def update(m, alpha):
        m.points = start.points.copy()
        m.rotate(alpha * angle, axis=np.asarray(axis, float), about_point=about)
        if scale != 1.0:
            m.scale(1.0 + alpha * (scale - 1.0), about_point=about)
        m.shift(alpha * shift + lift * np.sin(PI * alpha))

    return InPlace(mob, update, **kwargs)


MAX_GROWTH = 2.5  # the turned block's cubes at most this much larger than the block before the turn


def turn_sign(theme, code: str, font_size: int = TEXT_SIZE, bold: bool = False) -> VGroup:
    """The turn's code over an arrow (``.T →``), for the space between the blocks before and after it."""
    text = Text(code, font=TEXT_FONT, font_size=font_size, weight="BOLD" if bold else "NORMAL", color=theme.ink)
    return VGroup(text, Arrow(ORIGIN, RIGHT * 0.7, buff=0, color=theme.ink)).arrange(DOWN, buff=0.05)


def _shot(layout, source: CubeGrid, result: CubeGrid, words, sign: Mobject) -> float:
    """Lay out the shot of a transpose seen as a copy (``source`` left,
    ``result`` right, both named; seen face on): the result drawn larger
    where its rows need it for every word (the row keeps the ratio), room
    over the source for its columns' words and, between the blocks, for the
    result's row words and ``sign``. Returns that gap's room for the words."""
    room = layout.word_room(words)
    gap = room + max(1.0, sign.width + 0.3)
    for _ in range(3):
        layout.row(source, result, gap=gap, view=FRONT, bind=False,
                   margins=Margins(top=layout.flat_word_room()))  # one word at a time, read across
        grow = 1.0 / layout.row_text_scale(result, TEXT_SIZE, view=FRONT)  # as it will be seen
        if grow < 1.0 + 1e-3 or result.pitch * grow > source.pitch * MAX_GROWTH:
            break
        result.scale(grow * 1.02)
    return room


def _flown(m: CubeGrid, start: np.ndarray, pivot, normal, end, growth: float, t: float) -> None:
    """``m`` (a column of cells whose points were ``start``) ``t`` of the
    way (0 to 1, eased) in its flight to ``end`` (:func:`_flight`)."""
    shift = np.asarray(end, float) - np.asarray(pivot, float)
    m.points = start.copy()
    m.rotate(t * PI / 2, axis=normal, about_point=pivot)
    m.scale(1.0 + t * (growth - 1.0), about_point=pivot)
    m.shift(t * shift + normal * 2.0 * m.pitch / (1.0 + t * (growth - 1.0)) * np.sin(PI * t))


def _flight(piece: CubeGrid, pivot, normal, end, growth: float, begin: float, span: float) -> InPlace:
    """``piece`` (a column of cells) flying from where it is to ``end``
    (its centre there), turning a quarter turn about ``normal`` (down
    becomes right: a column becomes a row), growing by ``growth``, lifted
    toward the eye on the way (over whatever it passes); from ``begin`` to
    ``begin + span`` of the play."""
    start = piece.points.copy()

    def update(m, alpha):
        t = smooth(float(np.clip((alpha - begin) / span, 0.0, 1.0)))
        _flown(m, start, pivot, normal, end, growth, t)
        m.set_opacity(0.0 if t >= 1.0 else 1.0)  # landed: the result's row shows it from then on

    return InPlace(piece, update, rate_func=linear)


def _ways(source: CubeGrid, result: CubeGrid, normal) -> list[tuple]:
    """Each column's flight: (the column, its middle, where it lands, the growth)."""
    _, rows, cols = source.grid_shape
    growth = result.pitch / source.pitch
    ways = []
    for j in range(cols):
        middle = (np.asarray(source.cell_center(0, j)) + np.asarray(source.cell_center(rows - 1, j))) / 2
        end = (np.asarray(result.cell_center(j, 0)) + np.asarray(result.cell_center(j, rows - 1))) / 2
        ways.append((j, middle, end, growth))
    return ways


def _lane(layout, source: CubeGrid, result: CubeGrid, normal, span: tuple[float, float]) -> tuple[float, float]:
    """The (bottom, top) on screen the flying columns pass through between
    ``span`` (left, right on screen)."""
    bottom, top = np.inf, -np.inf
    for j, middle, end, growth in _ways(source, result, normal):
        piece = source.subgrid((slice(None), slice(None), j))
        start = piece.points.copy()
        for t in np.linspace(0.0, 1.0, 13):
            _flown(piece, start, middle, normal, end, growth, float(t))
            left, low, right, high = layout.screen_box([piece])
            if right > span[0] and left < span[1]:
                bottom, top = min(bottom, low), max(top, high)
    return float(bottom), float(top)


def _landing(result: CubeGrid, rows, ends) -> InPlace:
    """Row ``rows[k]`` of ``result`` (empty slots) filled in the frame its copy lands (``ends[k]``, of the play)."""

    def update(m, alpha):
        for r, end in zip(rows, ends):
            row = (slice(None), r)  # of every head's slice
            if alpha >= end - 1e-9 and m.cube_empty[m.cell_ids(row)].any():
                m.set_cell_opacity(1.0, row)  # opaque, an empty slot shows its value

    return InPlace(result, update, rate_func=linear)


def _words_landing(words, ends) -> list[InPlace]:
    """Row word k shown from the frame its row lands (``ends[k]``, of the play)."""
    moves = []
    for word, end in zip(words, ends):
        def land(mob, alpha, end=end):
            mob.set_opacity(1.0 if alpha >= end - 1e-9 else 0.0)

        word.set_opacity(0.0)
        moves.append(InPlace(word, land, rate_func=linear))
    return moves


def _leaving(begins, alpha: float) -> int:
    """Of the columns set off at ``begins`` (of the play), the last one gone at ``alpha``."""
    return max(i for i, b in enumerate(begins) if alpha >= b - 1e-9 or i == 0)


def _framing(layout, boxes, begins) -> tuple[Mobject, InPlace]:
    """One frame on the box of the column last set off (``begins[k]``: when box k's column leaves)."""
    mark = layout.fixed(boxes[0].copy())
    return mark, InPlace(mark, lambda m, alpha: m.become(boxes[_leaving(begins, alpha)]), rate_func=linear)


def _naming(words, begins) -> InPlace:
    """Of ``words`` (a group, one over each column set off), only the last one set off's shown."""

    def update(group, alpha):
        shown = _leaving(begins, alpha)
        for k, word in enumerate(group):
            word.set_opacity(1.0 if k == shown else 0.0)

    return InPlace(words, update, rate_func=linear)


def _screen_rect(layout, mob: Mobject) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) on screen of an upright text ``mob``."""
    x, y = project_at(layout.camera, np.asarray(mob.get_center(), float)[None])[0]
    return x - mob.width / 2, y - mob.height / 2, x + mob.width / 2, y + mob.height / 2


def _off_the_lane(layout, source: CubeGrid, result: CubeGrid, sign: Mobject, normal) -> None:
    """``sign`` (between ``source`` and ``result``, seen face on) moved
    under the lane the columns fly through, else over it, where it stays in
    the stage area and clear of both blocks' labels; left where it is when
    neither side has room (a column turning across the arrow and its code
    read as a glitch: 19_0070, the 56th and 57th readers)."""
    left, bottom, right, top = _screen_rect(layout, sign)
    low, high = _lane(layout, source, result, normal, (left, right))
    if top < low or bottom > high:
        return
    area = layout.area()
    texts = [_screen_rect(layout, label) for label in (source.label, result.label) if label is not None]
    half_w, half_h = sign.width / 2, sign.height / 2
    # under the lane, else over it; under it, also lower down, between the two blocks' names (drawn large, the
    # blocks leave no room over the lane and the names fill the band under it)
    ys = [low - 0.15 - half_h, high + 0.15 + half_h] + [low - 0.15 - half_h - 0.1 * k for k in range(1, 30)]
    names = sorted(texts)
    xs = [(left + right) / 2] + ([(names[0][2] + names[-1][0]) / 2] if len(names) == 2 else [])
    lows = [_lane(layout, source, result, normal, (x - half_w, x + half_w))[0] for x in xs]  # one per x, not per y
    for y in ys:
        b, t = y - half_h, y + half_h
        if b < area.bottom or t > area.top:
            continue
        for x, lane_low in zip(xs, lows):
            if lane_low < t:
                continue  # the lane is wider down there
            if any(l < x + half_w + 0.1 and r > x - half_w - 0.1 and lb < t + 0.1 and lt > b - 0.1
                   for l, lb, r, lt in texts):
                continue
            sign.move_to(world_at_screen(layout.camera, (x, y), source.get_center()))
            return


def transpose_beside(scene, layout, viewpoint, source: CubeGrid, values, result_name, before_name: str, words,
                     sign: Mobject, leaving=(), speed: float = 1.0, told_move=list, told=list, told_rest=list,
                     say_end=None, before_note: str | None = None):
    """A transpose seen as a copy, not a turn in place: ``source`` (a 2D
    block on screen, labelled) goes left and ``result`` (its transpose,
    ``values``) stands right as empty slots, ``sign`` (the turn's code on an
    arrow) between them, a token's word over each of the source's columns;
    then column j of the source is copied out, flies across, turning a
    quarter turn, and lands as row j of the result, its word coming beside
    it: column 0 alone, the others one after another, faster. A still at
    any moment shows which column becomes which row (a frame on the column
    in flight), the rows already laid and the slots still empty: the same
    grammar as a matmul's result filling in (a block turning in place read
    as a T-shaped glitch at every still: 08_0363, 14_0482, the 36th reader).

    ``result_name``: a function naming the result grid (``layout.name``, its
    label placed under it); ``before_name``: the source's name in the shot
    (its label replaced by one without a scale: one legend for both, the
    result's), ``before_note`` a line under it (the code's one name for
    both, before and after, read as two blocks of one name with nothing to
    tell them apart: 15_0405, 19_0070, the 42nd reader). ``leaving``: what goes as the source moves; ``told_move``: a
    function giving a caption's animations for that move (said before it,
    a still showed the heads unturned under a caption saying the turn:
    14_0462); ``told``: a
    function giving a caption's animations for the first column's flight,
    ``told_rest`` for the others'; ``say_end``: a caption said when every row has landed.
    Returns the result (labelled, with ``row_words``) and what stands beside
    it (the source, its label, the sign, the words, the frames)."""
    from .matmul import SLOT_OPACITY, frame_around  # the matmul's frames and slots

    depth, rows, cols = source.grid_shape
    twin = source.copy()
    twin.label = source.label
    old_label = source.label
    layout.name(twin, before_name, DOWN, scale=False, note=before_note)
    heads_name, rows_name, columns_name = source.dims  # what each axis counts: the last two swap
    result = twin.like(values, source.value_range, dims=(heads_name, columns_name, rows_name))
    result.align_cell((0, 0, 0), twin.cell_center(0, 0))
    result_name(result)
    room = _shot(layout, twin, result, words, sign)
    twin.label.hang = -1  # a name wider than the block reaches left, away from the result's row words
    # the shot the move ends in, laid out as seen from there: the result's empty slots come with the move, its
    # name as the source's changes (after it, a still caught the block alone, everything else gone: 14_0484,
    # the 50th and 51st readers)
    was = viewpoint.now
    viewpoint.look_from(FRONT)
    layout.place(twin)  # as seen from the front, where the sign is kept clear of it
    layout.place(result)
    between = layout.screen_box([result])[0] - layout.screen_box([twin])[2]
    layout.beside([twin], sign, RIGHT, buff=(between - room - sign.width) / 2)
    _off_the_lane(layout, twin, result, sign, np.cross(twin.axis_vectors()[1], twin.axis_vectors()[0]))
    layout.upright(sign)
    viewpoint.look_from(was)
    result.set_cell_opacity(SLOT_OPACITY).empty()
    result.set_cell_opacity(0.0, (slice(1, None),))  # slots behind the front slice: nine deep, they read light grey
    # the caption saying the turn from the move's first frame, the move short (said half-way through a move of
    # 1 s, a still caught the block alone, everything else gone, under the last caption's "head 0 large, with
    # the tokens": 14_0486, the 49th reader)
    # the names placed for the front view come once the camera is there (half-way through its turn, a name
    # stood where the turn had not yet brought its block: over the caption, off the frame's edge)
    named = at_end if not np.allclose(was, FRONT) else halfway
    scene.play(*[vanish(m, rate_func=at_once) for m in leaving], viewpoint.turn(*FRONT),
               source.animate.become(twin), *swap(old_label, twin.label, rate_func=named),
               *all_at_once(told_move()), appear(result, rate_func=at_once),
               appear(result.label, rate_func=named),  # with the source's new name
               appear(sign, rate_func=at_end), run_time=0.7 / speed)  # the sign once the block has passed
    layout.bind(source, twin.label)
    layout.place(source)
    # over the column in flight its token's word, one at a time (over every column, they were too thin for
    # more than every other word)
    above = VGroup(*[layout.column_word(source, j, word, flat=True) for j, word in enumerate(words[:cols])])
    for word in above[1:]:
        word.set_opacity(0.0)
    # the column in flight's word beside the row it becomes, right of it, one at a time (the rows' own words,
    # every third where rows are thin, left the framed row's unsaid: "you" over the column, "can" beside the
    # target read "you → can", 19_0071, the 49th reader)
    beside = VGroup(*[layout.row_word(result, j, word) for j, word in enumerate(words[:cols])])
    # the two words of the column in play in full ink, not the rows' muted grey: they are the step's point (grey
    # at 12 px, "can" over the column and beside its row went unread: 09_0279, the 73rd reader)
    above.set_color(layout.theme.ink)
    beside.set_color(layout.theme.ink)
    for word in beside[1:]:
        word.set_opacity(0.0)
    x_axis, row_axis, _ = source.axis_vectors()
    normal = np.cross(row_axis, x_axis)
    pieces = [source.subgrid((slice(None), slice(None), j), values_shape=(depth, rows, 1)) for j in range(cols)]
    for piece in pieces:
        piece.part_of = source
    boxes = [frame_around(layout, source, (0, slice(None), j), pad=0.12, stroke=3) for j in range(cols)]
    targets = [frame_around(layout, result, (0, j), pad=0.12, stroke=3) for j in range(cols)]
    # the caption for column 0 with the slots, column 0 and row 0 framed, in a play too short for a still to
    # catch and the flight right after it (said as the slots came, over 0.6 s, a still showed the caption over a
    # grey block and no column in play: 15_0406, the 37th reader)
    scene.play(appear(above[0]), appear(beside[0]), *told(),
               *[appear(box, rate_func=at_once) for box in (boxes[0], targets[0])], run_time=0.3)
    scene.remove(boxes[0], targets[0])  # the first flight's frames stand there from its first frame
    landed = layout.word_labels(result, words)
    by_row = {word.row: word for word in landed}  # rows too thin for a word each: every other one, or fewer
    ways = _ways(source, result, normal)

    def fly(js, lag, run_time):
        span = 1.0 / (1.0 + lag * (len(js) - 1))
        begins = [k * lag * span for k in range(len(js))]
        ends = [b + span for b in begins]
        flights = []
        for k, j in enumerate(js):
            _, middle, end, growth = ways[j]
            flights.append(_flight(pieces[j], middle, normal, end, growth, begins[k], span))
        marks = [_framing(layout, [boxes[j] for j in js], begins), _framing(layout, [targets[j] for j in js], begins)]
        scene.add(*[pieces[j] for j in js])
        lands = [(by_row[j], end) for j, end in zip(js, ends) if j in by_row]
        scene.play(*flights, _landing(result, js, ends), *_words_landing(*zip(*lands)) if lands else [],
                   *[move for _, move in marks], _naming(VGroup(*[above[j] for j in js]), begins),
                   _naming(VGroup(*[beside[j] for j in js]), begins), run_time=run_time)
        scene.remove(*[pieces[j] for j in js])
        return [mark for mark, _ in marks]

    frames = fly([0], 0.0, 1.0 / speed)
    scene.wait(0.4 / speed)  # column 0 laid as row 0, both framed: the step a still should catch
    if cols > 1:
        scene.play(*told_rest(), *[vanish(m, rate_func=at_once) for m in (*frames, above[0], beside[0])],
                   run_time=0.25)
        frames = fly(list(range(1, cols)), COPY_LAG, min(3.4, 1.0 + 0.35 * cols) / speed)
        first = [boxes[0], targets[0]]
        scene.play(*[f.animate.become(b) for f, b in zip(frames, first)], *swap(above[cols - 1], above[0]),
                   vanish(beside[cols - 1], rate_func=at_once), run_time=0.4)
    scene.remove(*beside)  # every row laid, with its own word where rows have room: the flights' words go
    if say_end is not None:
        say_end()
    scene.wait(0.6)
    return result, [source, source.label, sign, above[0], *frames]
