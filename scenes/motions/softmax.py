"""Softmax along rows, built row by row over a bench; the causal mask a softmax applies first.

The scores stand on the left, the weights' empty slots on the right, both
with the tokens' words on their rows and columns. Each row of scores slides
onto a bench between them, becomes its exponentials (on their own scale),
is divided by its sum (now on the weights' scale, summing to 1) and slides
on into its row of the weights: the first row slowly with its numbers, the
others one after another, faster. A causal mask, where asked, first turns
the scores of later tokens to −∞.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from manim import DOWN, RIGHT, UP, Mobject, Text

from tensors import softmax_steps
from ..components.colorbar import MASKED_SIGN
from ..components.cubegrid import CubeGrid
from ..components.fades import appear, at_once, halfway, swap, vanish
from ..components.labels import NAME_SIZE, TEXT_FONT, TEXT_SIZE
from ..components.numbers import row_numbers, shown_total
from ..components.projection import project
from ..layout import LABEL_BUFF, Margins, ghost
from .matmul import SLOT_OPACITY

__all__ = ["mask_later_tokens", "SoftmaxBench", "bench_between", "soften_rows", "exp_name"]

DIM = 0.25
BENCH_CHARS = 18  # a bench label's name longer than this says "row i" (the caption names the tensor)


def mask_later_tokens(scene, layout, grids: list[CubeGrid], run_time: float = 1.4) -> Mobject:
    """A causal mask: in each (tokens x tokens) score grid the cells above the
    diagonal (token j after token i) turn dark, marked -inf on the first grid.

    The grids keep them dark through the softmax that follows (their weight
    is exactly 0). Returns the "-inf" mark (upright, on the masked triangle).
    """
    tokens = grids[0].grid_shape[1]
    rows, cols = np.triu_indices(tokens, k=1)
    later = (slice(None), rows, cols)
    first = grids[0]
    centre = np.mean([first.cell_center(r, c) for r, c in zip(rows, cols)], axis=0)
    mark = Text(MASKED_SIGN, font=TEXT_FONT, font_size=max(TEXT_SIZE, min(30, int(90 * first.pitch))),
                color=layout.theme.ink)
    mark.move_to(centre + np.array([0.0, 0.0, first.cube_edge]))
    mark.on_block = True  # it names the dark cells it lies on
    layout.upright(mark)
    scene.play(*[g.animate.mask(later) for g in grids], appear(mark), run_time=run_time)
    return mark


@dataclass
class SoftmaxBench:
    """Scores, the bench a row is worked on, and the weights' slots, in a row
    (:func:`bench_between`); the names the pictures use for them."""

    scores: CubeGrid
    bench: CubeGrid
    weights: CubeGrid
    scores_name: str
    weights_name: str
    words_on: list
    bench_hang: int = 0  # how a label on the bench's place hangs (see :func:`..layout.fit.label_span`) ...
    bench_side: np.ndarray = field(default_factory=lambda: DOWN)  # ... and on which side
    words: tuple = ()  # the tokens', said with a row's number where its name is "row i"


def exp_name(scores_name: str, row: int, scale_note: str = "", overflow: bool = False, word: str = "") -> str:
    """The bench's label while row ``row`` is exponentiated: the row as
    PyTorch indexes it; where that is too long for the bench, "row i" and
    the token's ``word`` (the map's words may be too many to show every one).

    >>> exp_name("ω′", 2, "/√17"), exp_name("multihead_omegas[0]", 2, " / √17", word="help")
    ('exp(ω′[2]/√17)', 'exp(row 2) "help"')
    """
    inner = f"{_row_of(scores_name, row)}{scale_note}"
    if not _short(f"exp({inner})"):
        return _with_word(f"exp(row {row} − max)" if overflow else f"exp(row {row})", word)
    return f"exp({inner} − max)" if overflow else f"exp({inner})"


def lifted_name(scores_name: str, row: int, scale_note: str = "", word: str = "") -> str:
    """The bench's label while row ``row`` of the scores is on it as it is.

    >>> lifted_name("ω′", 2, "/√17"), lifted_name("multihead_omegas[0]", 2, " / √17", word="help")
    ('ω′[2]/√17', 'row 2 "help"')
    """
    name = f"{_row_of(scores_name, row)}{scale_note}"
    return name if _short(name) else _with_word(f"row {row}", word)


def weights_row_name(weights_name: str, row: int, total: float, word: str = "", one_line: bool = False) -> str:
    r"""The bench's label once row ``row`` is divided by its sum: on one
    line, or, where the row is named by its index and word (a map's long
    name), its sum under it (on one line, the widest of the bench's labels
    squeezed 18's maps to 7 px cubes: 18_0129, the 38th reader), unless
    ``one_line``.

    >>> weights_row_name("α", 0, 1.0), weights_row_name("multihead_attention_weights[0]", 3, 1.0, word="me")
    ('α[0]  Σ = 1.000', 'row 3 "me"\nΣ = 1.000')
    """
    row_name = _row_of(weights_name, row)
    if _short(row_name):
        return f"{row_name}  Σ = {total:.3f}"
    return _with_word(f"row {row}", word) + ("  " if one_line else "\n") + f"Σ = {total:.3f}"


def _off_stage(layout, label) -> bool:
    """Whether ``label`` (placed, upright) reaches out of the stage area, over it or under it, on screen."""
    y = project(layout.camera, label.get_center()[None])[0][1]
    area = layout.area()
    return y + label.height / 2 > area.top or y - label.height / 2 < area.bottom


def _colors_of(name: str, role: str) -> str:
    """Whose colors a row on the bench wears, said short: ``name``, or the
    map's ``role`` ("the scores", "the weights")."""
    return name if _short(name) else role


def _with_word(name: str, word: str) -> str:
    """``name "word"`` where that is short enough for the bench, else ``name``.

    >>> _with_word("row 2", "help"), _with_word("exp(row 0)", "extraordinarily")
    ('row 2 "help"', 'exp(row 0)')
    """
    named = f'{name} "{word}"' if word else name
    return named if _short(named) else name


def _row_of(name: str, row: int) -> str:
    """Row ``row`` of the matrix ``name`` (of a head's slice ``t[h]``: ``t[h, row]``)."""
    return f"{name[:-1]}, {row}]" if name.endswith("]") else f"{name}[{row}]"


def _short(name: str) -> bool:
    """A bench label this short fits between two maps."""
    return len(name) <= BENCH_CHARS


def bench_between(layout, scores: CubeGrid, weights_values, scores_name: str, weights_name: str, words, *,
                  weights_label: str | None = None, scale_note: str = "", right: float = 0.0,
                  scores_room=None, bench_room=None, area=None) -> SoftmaxBench:
    """Lay out ``scores`` (labelled), a bench for one row and the weights'
    empty slots (named ``weights_label``, default ``weights_name``) in a
    row filling the stage area (or ``area``, less ``right``), with room for
    the tokens' words on their rows and columns and for the bench's labels
    (``scale_note`` as the rows will be named); ``scores_room``: a label
    the scores will take later; ``bench_room``: a label under a block shown
    on the bench's place before the softmax. Nothing is shown yet; the
    words are made."""
    weights = scores.like(weights_values, (float(np.min(weights_values)), float(np.max(weights_values))),
                          dims=scores.dims)
    layout.name(weights, weights_label or weights_name, DOWN)
    bench = ghost(scores, (1, 1, scores.grid_shape[2]))  # room for one row between them
    tokens = scores.grid_shape[1]
    longest = max(range(tokens), key=lambda t: len(words[t]))  # the row whose word makes its names widest
    widest = max((layout.sized_label(n, (), RIGHT, scale_of=of) for n, of in (
        (weights_row_name(weights_name, tokens - 1, 1.0, words[longest]), _colors_of(weights_name, "the weights")),
        (lifted_name(scores_name, tokens - 1, scale_note, words[longest]), _colors_of(scores_name, "the scores")),
        (exp_name(scores_name, tokens - 1, scale_note, word=words[longest]), None))),
        key=lambda m: m.width)  # between the maps
    area = area or layout.area()
    if right:  # kept free of blocks and of their labels (a margin only keeps blocks out)
        area = replace(area, right=area.right - right)
    def fit():
        return layout.row(scores, bench, weights, gap=0.5, area=area, margins=Margins(
            left=layout.word_room(words), top=layout.word_room(words, columns=True)),
            room_for=[scores_room, widest, None], also=[[], [bench_room] if bench_room is not None else [], []])
    fitted = fit()
    if bench_room is not None and not fitted.roomy:  # no room under it: over it (it has no column words)
        bench_room.side = UP
        fitted = fit()
    bench.align_cell((0, 0, 0), [bench.cell_center(0, 0)[0], scores.cell_center(0, 0)[1], 0.0])
    words_on = [layout.word_labels(scores, words), layout.column_words(scores, words),
                layout.column_words(weights, words)]
    weights.row_words = scores.row_words  # the weights' rows are level with the scores' and their words
    scores.is_map = weights.is_map = True
    weights.set_cell_opacity(SLOT_OPACITY).empty()  # grey slots: the weights are not computed yet
    return SoftmaxBench(scores, bench, weights, scores_name, weights_name, words_on, fitted.hangs[1],
                        DOWN if bench_room is None else bench_room.side, tuple(words))


def soften_rows(scene, layout, bench: SoftmaxBench, values, weights_values, saying=None, scale_note: str = "",
                speed: float = 1.0, rest_speed: float = 1.5, rows: int | None = None) -> None:
    """Every row of ``bench.scores`` (showing ``values``, −∞ where masked)
    over the bench, through exp and ÷ sum, into its row of the weights.
    ``saying(text)``: the animations that change the caption in the play
    they join (the first row's steps are said as they happen); the rows
    after the first go ``rest_speed`` times faster still: the first row,
    with its numbers, is the one to read (the later rows took half of
    stage 4's clip, and no still of it caught an exponential); ``rows``:
    how many rows go over the bench (all by default; the caller forms the
    rest otherwise)."""
    saying = saying or (lambda text: [])
    steps = softmax_steps(values)
    _play(scene, saying(f"softmax, row by row: exp, then ÷ the row's sum, so each row of {bench.weights_name} "
                        "sums to 1"), run_time=0.5)
    count = bench.scores.grid_shape[1] if rows is None else rows
    for row in range(count):
        _soften(scene, layout, bench, row, values[row], steps["weights"][row], saying, scale_note,
                first=row == 0, run_time=max(0.8, 3.2 * 0.6 ** row) / speed / (rest_speed if row else 1.0),
                more=count > 1)
    scene.play(bench.scores.animate.clear_highlight(), run_time=0.3)


def _play(scene, animations: list, run_time: float) -> None:
    """Play ``animations``; with none (a caption left out of the picture), keep the time."""
    if animations:
        scene.play(*animations, run_time=run_time)
    else:
        scene.wait(run_time)


def _soften(scene, layout, bench: SoftmaxBench, row: int, row_scores, row_weights, saying, scale_note,
            first: bool, run_time: float, more: bool = True):
    """Row ``row`` of the scores onto the bench, through exp and ÷ its sum,
    into the weights; named at every moment it is on the bench, the sum it
    is divided by written beside it while it is divided."""
    scores, weights = bench.scores, bench.weights
    tokens = scores.grid_shape[1]
    piece = scores.subgrid((0, row))
    piece.part_of = scores
    piece.set_cell_opacity(1.0)  # the row in play is lit, whatever the last highlight left
    at = bench.bench.cell_center(0, 0)
    spot = [at[0], scores.cell_center(row, 0)[1], at[2]]
    shape = ()  # a strip: its cubes are there to count

    def named(text: str, side, **options):
        """``piece`` named ``text`` on ``side``, its label placed where the piece stands (or is going)."""
        label = layout.name(piece, text, side, shape=shape, **{"note": None, **options})
        layout.place(piece)
        return label

    row_scores = np.asarray(row_scores, np.float64)  # the trace's float32 would overflow from exp(89) on
    finite = row_scores[np.isfinite(row_scores)]
    overflow = finite.max() > 700  # exp of the true score would not fit a float: shown ÷ its row max
    exp = np.where(np.isfinite(row_scores), np.exp(row_scores - (finite.max() if overflow else 0.0)), 0.0)
    total = shown_total(exp)  # 3772.6 where 3767 ÷ 3773 would not give the weight written
    word = bench.words[row] if bench.words else ""
    exp_text, exp_note = exp_name(bench.scores_name, row, scale_note, overflow, word), f"Σ = {total}"

    # the row goes onto the bench, named from the first frame where it is going
    start = piece.get_center().copy()
    piece.align_cell((0, 0, 0), spot)
    tallest = layout.name(piece, exp_text, DOWN, shape=shape, note=exp_note).height
    below = (tokens - 1 - row) * scores.pitch  # the map's height under the bench: labels stay between the maps
    side = DOWN if row < tokens / 2 and tallest + 0.25 <= below else UP
    lifted = named(lifted_name(bench.scores_name, row, scale_note, word), side,
                   scale_of=_colors_of(bench.scores_name, "the scores"))
    piece.move_to(start)
    said = row_numbers(f"row {row}, {_row_of(bench.scores_name, row)}{scale_note}", row_scores) if first else None
    scene.add(piece)
    scene.play(scores.animate.highlight((0, row), DIM), weights.animate.set_cell_opacity(0.45, (0, row)),
               piece.animate.align_cell((0, 0, 0), spot), appear(lifted, rate_func=halfway),
               *(saying(said) if first else []), run_time=0.3 * run_time)
    if first:
        scene.wait(1.0)

    # exp of each score, on its own scale; its sum written under its name
    piece.part_of, piece.value_range = None, (float(exp.min()), float(exp.max()))
    label = named(exp_text, side, values=exp, note=exp_note)
    # the colors change in the frame the name does (a blend of two scales matches neither legend)
    scene.play(piece.animate(rate_func=halfway).paint((0, 0), exp, piece.value_range), *swap(lifted, label),
               *(saying(row_numbers("exp(score)" + (" ÷ e^max" if overflow else ""), exp, total="sum"))
                 if first else []), run_time=0.3 * run_time)
    if first:  # the exponentials and their sum held longer: the step readers missed (04, 18), under 2 s
        scene.wait(1.8)

    # ÷ that sum: the weights, on the weights' scale, summing to 1
    sign = Text(f"÷ {total}", font=TEXT_FONT, font_size=NAME_SIZE, weight="BOLD", color=layout.theme.ink)
    layout.beside([piece], sign, -side, buff=LABEL_BUFF)
    layout.upright(sign)
    # the sign beside the exponentials first, then the division: the weights come, the sign going with
    # them (a "÷ 17456" beside a row already divided read as a division still to come: 04_0103)
    scene.play(appear(sign, rate_func=at_once), run_time=(0.35 if first else 0.1) * run_time)
    piece.value_range = weights.value_range
    def divided(one_line: bool = False):
        return named(weights_row_name(bench.weights_name, row, row_weights.sum(), word, one_line), side,
                     values=row_weights, scale_of=_colors_of(bench.weights_name, "the weights"))
    new = divided()
    if _off_stage(layout, new):  # its sum under its name too tall there (few tokens: small maps): one line
        new = divided(one_line=True)
    scene.play(piece.animate(rate_func=halfway).paint((0, 0), row_weights, weights.value_range),
               vanish(sign, rate_func=halfway),
               *swap(label, new), *(saying(row_numbers(f"÷ the sum {total}: weights", row_weights, total="Σ"))
                                    if first else []), run_time=0.3 * run_time)
    if first:
        scene.wait(1.2)
        if more:
            _play(scene, saying("the next rows the same way, one after another, faster"), run_time=0.5)
    scene.remove(new)  # the row leaves the bench: its label goes at once
    scene.play(piece.animate.align_cell((0, 0, 0), weights.cell_center(row, 0)).set_opacity(0.0),
               weights.animate.set_cell_opacity(1.0, (0, row)), run_time=0.25 * run_time)
    scene.remove(piece)
