"""The motions, checked while they happen: the invariants a viewer relies on.

Each test plays a motion in a small scene (animations skipped to their ends,
nothing drawn but a last frame) and looks at the blocks between its steps,
through the caption hook a motion calls as it goes, or at a motion's own
animation half-way. A matmul whose operand turned 60° instead of 90°, or
whose products sit 2 units up, fails here.
"""

import numpy as np
import pytest
from manim import PI, UP, Wait

from golden import render_still
from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.motions.broadcast import broadcast_copies
from scenes.motions.matmul import MatmulBox, _place_products, batched_matmul, matmul
from scenes.motions.softmax import softmax_rows
from scenes.motions.turns import transpose_turn, turn
from scenes.motions.vectors import beside_matrix, matrix_vector
from scenes.components.palette import value_colors
from tensors import AttentionConfig, compute_trace, matmul_products, softmax_steps

SIZE = {"pixel_width": 160, "pixel_height": 90}
TRACE = compute_trace(AttentionConfig())


def play(tmp_path, storyboard):
    """Run ``storyboard(scene)`` as a stage's storyboard; returns the scene."""

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            storyboard(self)

    return render_still(Motion, tmp_path, size=SIZE)


def test_a_turn_is_rigid_and_half_way_at_half_time():
    grid = CubeGrid(np.arange(6.0).reshape(2, 3))
    start = grid.cell_centers().copy()
    animation = turn(grid, PI / 2, UP)
    animation.begin()
    animation.interpolate(0.5)
    moved = grid.cell_centers()
    center = start.reshape(-1, 3).mean(axis=0)
    # every cell turned 45° about the vertical axis through the centre, none stretched
    for before, after in zip(start.reshape(-1, 3), moved.reshape(-1, 3)):
        a, b = before - center, after - center
        assert np.isclose(np.linalg.norm(a), np.linalg.norm(b))
        if np.linalg.norm(a[[0, 2]]) > 1e-9:
            cos = np.dot(a[[0, 2]], b[[0, 2]]) / np.linalg.norm(a[[0, 2]]) ** 2
            assert np.isclose(cos, np.cos(PI / 4))


def test_products_fill_the_box_behind_their_result_cell():
    m, n, k = 3, 4, 5
    box = MatmulBox(np.array([0.3, -0.2, 1.0]), m, n, k, 0.25)
    template = CubeGrid(np.zeros((m, k)), cube_size=0.2, gap=0.05)
    products = np.random.default_rng(0).normal(size=(m, n, k))
    interior = _place_products(products, box, template)
    centers = interior.cell_centers()  # (k, m, n, 3)
    for p in range(k):
        for i in range(m):
            for j in range(n):
                expected = box.result_cell(i, j) + np.array([0.0, 0.0, box.depth(p)])
                assert np.allclose(centers[p, i, j], expected)
    assert np.allclose(interior.values, np.moveaxis(products, -1, 0))


def test_matmul_faces_meet_the_result_along_its_edges(tmp_path):
    """Once turned, row i of the left operand runs behind row i of the result,
    column j of the right operand behind column j, the shared axis in depth."""
    x = TRACE["s02_embedded_sentence"]
    seen = {}

    def storyboard(scene):
        left = scene.tensor_grid("s02_embedded_sentence")
        right = scene.tensor_grid("s02_embedded_sentence", transposed=True)
        scene.layout.row(left, right)
        scene.add(left, right)

        def caption(text):
            if "result" not in seen and text.startswith("row 0 · column 0"):
                seen.update(left=left.cell_centers()[0].copy(), right=right.cell_centers()[0].copy(),
                            pitch=left.pitch)
            scene.say(text)

        seen["result"] = matmul(scene, scene.layout, scene.legend, scene.viewpoint, left, right, x @ x.T,
                                matmul_products(x, x.T), say=caption, names=("X", "Xᵀ", "ω")).result

    play(tmp_path, storyboard)
    result, pitch = seen["result"], seen["pitch"]
    left, right = seen["left"], seen["right"]  # (m, k, 3), (k, n, 3)
    face = result.cell_centers()[0]  # (m, n, 3)
    m, k = x.shape
    for p in range(k):
        depth = face[0, 0, 2] - (p + 1) * pitch
        assert np.allclose(left[:, p, 1], face[:, 0, 1])  # rows meet
        assert np.allclose(left[:, p, 2], depth)  # shared axis in depth, p = 0 nearest
        assert np.allclose(left[:, p, 0], face[0, 0, 0] - 1.6 * pitch)  # left of the result
        assert np.allclose(right[p, :, 0], face[0, :, 0])  # columns meet
        assert np.allclose(right[p, :, 2], depth)
        assert np.allclose(right[p, :, 1], face[0, 0, 1] + 1.6 * pitch)  # above the result
    assert np.allclose(result.values[0], x @ x.T)
    assert result.cube_opacity.min() == 1.0  # every cell summed


def test_a_broadcast_makes_one_copy_per_head_along_the_head_axis(tmp_path):
    heads = 4
    seen = {}

    def storyboard(scene):
        grid = scene.tensor_grid("s02_embedded_sentence", transposed=True)
        scene.add(grid)
        seen["grid"] = grid.copy()
        seen["block"] = broadcast_copies(scene, scene.layout, grid, heads, [0, 2, 0]).block

    play(tmp_path, storyboard)
    grid, block = seen["grid"], seen["block"]
    assert block.grid_shape == (heads,) + grid.grid_shape[1:]
    assert all(np.array_equal(block.values[h], grid.values[0]) for h in range(heads))
    _, _, head_axis = grid.axis_vectors()
    centers = block.cell_centers()
    for h in range(heads):
        assert np.allclose(centers[h] - centers[0], h * grid.pitch * head_axis)
    assert np.allclose(centers[0], grid.cell_centers()[0])


def test_a_matrix_vector_product_lays_the_vector_on_every_row_then_sums_each_row(tmp_path):
    """Stage 6's one token: x lies on every row of U (column under column),
    then row i's products become result cube i, beside row i, at its true value."""
    u = TRACE["s06_U_query"]
    x = TRACE["s02_embedded_sentence"][0]
    expected = np.array([sum(u[i, j] * x[j] for j in range(len(x))) for i in range(len(u))])  # by hand
    states = []

    def storyboard(scene):
        matrix = scene.tensor_grid("s06_U_query")
        vector, result = beside_matrix(matrix, x, expected, (x.min(), x.max()), (expected.min(), expected.max()))
        scene.add(matrix, vector, result)
        played = scene.play

        def watch(*args, **kwargs):
            played(*args, **kwargs)
            if all(isinstance(a, Wait) for a in args):  # a pause (the opening's hold) changes nothing
                return
            grids = [m for m in scene.mobjects if isinstance(m, CubeGrid)]
            states.append([(g.values.copy(), g.cell_centers().copy(), g.cube_opacity.copy()) for g in grids])

        scene.play = watch
        states.append(matrix.cell_centers().copy())
        matrix_vector(scene, matrix, vector, result)
        final.extend((result.values.copy(), result.cell_centers().copy(), result.cube_opacity.copy()))

    final = []
    play(tmp_path, storyboard)
    rows = states[0][0]  # the matrix's cell centers (rows, columns, 3)
    copies = np.broadcast_to(x, u.shape)  # x on every row
    laid = [c for v, c, _ in states[1] if v.shape == (1,) + u.shape and np.allclose(v[0], copies)]
    assert len(laid) == 1
    assert np.allclose(laid[0][0][..., :2], rows[..., :2])  # on top of U, cell over cell
    values, centers, opacity = final
    assert np.allclose(values[0, :, 0], TRACE["s07_queries"][0], atol=1e-5)  # q(0) = row 0 of Q
    assert np.allclose(values[0, :, 0], expected)
    assert np.all(opacity == 1.0)
    assert np.allclose(centers[0, :, 0, 1], rows[:, 0, 1])  # cube i beside row i
    assert np.all(centers[0, :, 0, 0] > rows[:, -1, 0])


def test_a_transpose_ends_with_the_axes_swapped_in_place(tmp_path):
    seen = {}

    def storyboard(scene):
        grid = scene.tensor_grid("s07_queries_before_transpose")
        scene.add(grid)
        seen["before"] = grid.copy()
        seen["after"] = transpose_turn(scene, grid, grid.values[0].T)

    play(tmp_path, storyboard)
    before, after = seen["before"], seen["after"]
    rows, cols = before.grid_shape[1:]
    assert after.grid_shape[1:] == (cols, rows)
    assert np.array_equal(after.values[0], before.values[0].T)
    assert np.allclose(after.cell_center(0, 0), before.cell_center(0, 0))  # turned about its corner
    x_axis, row_axis, _ = before.axis_vectors()
    # cell (i, j) of the result is where cell (j, i) went: across became down
    for i, j in ((0, 1), (1, 0), (cols - 1, rows - 1)):
        expected = before.cell_center(0, 0) + before.pitch * (j * x_axis + i * row_axis)
        assert np.allclose(after.cell_center(i, j), expected)
    assert np.allclose(after.cube_rgb.reshape(cols, rows, 3), before.cube_rgb.reshape(rows, cols, 3)
                       .transpose(1, 0, 2))


def test_a_softmax_row_goes_through_its_exponentials_and_ends_at_its_weights(tmp_path):
    scores = TRACE["s03_omega"]
    steps = softmax_steps(scores)
    weights = steps["weights"]
    weights_range = (float(weights.min()), float(weights.max()))
    seen = {}

    def storyboard(scene):
        grid = scene.tensor_grid("s03_omega")
        scene.add(grid)

        def caption(text):
            if text.startswith("÷ the sum"):  # after the exp step of row 0, before the division
                seen["exp row"] = grid.cube_rgb[:scores.shape[1]].copy()
                seen["bar"] = scene.legend.bar.value_range
            scene.say(text)

        softmax_rows(scene, scene.layout, scene.legend, grid, steps, weights_range, say=caption)
        seen["grid"] = grid

    play(tmp_path, storyboard)
    row_exp = steps["exp"][0]
    assert np.allclose(seen["exp row"], value_colors(row_exp, (0.0, float(row_exp.max()))))
    assert seen["bar"] == (0.0, 1.0)  # the exp step's own scale on the bar
    assert np.allclose(seen["grid"].cube_rgb, value_colors(weights.reshape(-1), weights_range))


@pytest.mark.parametrize("heads", [1, 3])
def test_a_batched_matmul_shows_head_0_then_stacks_the_others(tmp_path, heads):
    rng = np.random.default_rng(1)
    left_values, right_values = rng.normal(size=(heads, 3, 4)), rng.normal(size=(heads, 4, 2))
    result_values = left_values @ right_values
    seen = {}

    def storyboard(scene):
        left, right = CubeGrid(left_values), CubeGrid(right_values)
        scene.layout.row(left, right)
        scene.add(left, right)

        def caption(text):
            if text.startswith("heads 1 to"):
                block = next(g for top in scene.mobjects for g in top.get_family()
                             if isinstance(g, CubeGrid) and g.grid_shape == (heads, 3, 2))
                seen["opacity"] = block.cube_opacity.reshape(heads, -1).max(axis=1).copy()
            scene.say(text)

        seen["block"] = batched_matmul(scene, scene.layout, scene.legend, scene.viewpoint, left, right,
                                       result_values, matmul_products(left_values[0], right_values[0]),
                                       names=("A", "B", "C"), say=caption)

    play(tmp_path, storyboard)
    block = seen["block"]
    assert block.grid_shape == (heads, 3, 2)
    assert np.allclose(block.values, result_values)
    assert block.cube_opacity.min() == 1.0
    if heads > 1:  # before the others appear, only head 0's result is there
        assert seen["opacity"][0] == 1.0 and np.all(seen["opacity"][1:] == 0.0)
    else:
        assert "opacity" not in seen
