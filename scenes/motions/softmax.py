"""Softmax along rows, one row at a time then all at once, and the causal mask before it."""

from __future__ import annotations

import numpy as np
from manim import RIGHT, Mobject, Text, VGroup

from ..components.cubegrid import CubeGrid
from ..components.fades import appear
from ..components.colorbar import MASKED_SIGN
from ..components.labels import TEXT_FONT, TEXT_SIZE
from ..components.numbers import row_numbers

__all__ = ["mask_later_tokens", "softmax_rows"]


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


def softmax_rows(scene, layout, legend, grid: CubeGrid, steps: dict, weights_range, *, explicit_rows=((0, 0),),
                 say=None, sum_labels: bool = True, run_time: float = 1.0, weights_name: str = "weights"):
    """Softmax along rows: exponentiate, divide by the row sum, recolor; Σ = 1.

    ``steps`` is :func:`tensors.softmax_steps` of the grid's scores. The rows in
    ``explicit_rows`` ((head, row) pairs) go one at a time, then all the rest.
    The color bar follows the rows in focus: each step's own scale, and the
    weights' (named ``weights_name``) once rows are weights.
    Returns the labels showing each front-slice row's sum.
    """
    say = say or (lambda text: None)
    exp, weights = steps["exp"], steps["weights"]
    if exp.ndim == 2:
        exp, weights = exp[None], weights[None]
    sums = steps["weights"].sum(axis=-1).reshape(exp.shape[:2])
    labels = VGroup()

    def sum_label(h, row):
        x_axis, _, _ = grid.axis_vectors()
        text = Text(f"Σ = {sums[h, row]:.3f}", font=TEXT_FONT, font_size=16, color=layout.theme.ink)
        beside = grid.pitch + 0.55 + layout.guide_room(grid, RIGHT)  # clear of an axis arrow
        text.move_to(grid.cell_center(row, grid.grid_shape[2] - 1, h) + x_axis * beside)
        layout.upright(text)
        return text

    scores = np.asarray(steps["scores"]).reshape(exp.shape)
    bar = legend.swap
    for number, (h, row) in enumerate(explicit_rows):
        index = (h, row)
        row_exp = exp[h, row]
        scene.play(grid.animate.highlight(index), run_time=0.4 * run_time)
        if number == 0:  # the true numbers of the first row, from the trace
            say(row_numbers(f"row {row}: scores", scores[h, row]))
            scene.wait(1.2 * run_time)
            true_exp = np.exp(scores[h, row])
            say(row_numbers("exp(score)", true_exp, total="sum"))
        else:
            say("exp(score): all positive, the largest grows fastest")
        # the exponentials on their own scale: which entries grow
        scene.play(grid.animate.paint(index, row_exp, (0.0, float(row_exp.max()))),
                   *bar(f"exp, row {row} (÷ its max)", (0.0, 1.0)), run_time=0.8 * run_time)
        if number == 0:
            scene.wait(1.2 * run_time)
            say(row_numbers("÷ the sum: weights", weights[h, row], total="Σ"))
        else:
            say("÷ row sum: the row now adds up to 1")
        anims = [grid.animate.paint(index, weights[h, row], weights_range),
                 *bar(weights_name, weights_range)]
        if sum_labels and h == 0:
            label = sum_label(h, row)
            labels.add(label)
            anims.append(appear(label))
        scene.play(*anims, run_time=0.8 * run_time)

    say("the same for every row at once")
    done = {tuple(r) for r in explicit_rows}
    rest = [(h, r) for h in range(exp.shape[0]) for r in range(exp.shape[1]) if (h, r) not in done]
    if rest:
        heads = np.array([h for h, _ in rest])
        rows = np.array([r for _, r in rest])
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)
        row_max = exp.max(axis=-1, keepdims=True)
        scene.play(grid.animate.paint((heads, rows), (exp / row_max)[heads, rows], (0.0, 1.0)),
                   *bar("exp, each row ÷ its max", (0.0, 1.0)), run_time=0.8 * run_time)
        anims = [grid.animate.paint((heads, rows), weights[heads, rows], weights_range),
                 *bar(weights_name, weights_range)]
        if sum_labels:
            new = [sum_label(h, r) for h, r in rest if h == 0]
            labels.add(*new)
            anims += [appear(t) for t in new]
        scene.play(*anims, run_time=0.9 * run_time)
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)
    else:
        scene.play(grid.animate.clear_highlight(), run_time=0.3 * run_time)  # the bar is the weights' already
    return labels
