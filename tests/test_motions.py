"""The motions, checked while they happen: the invariants a viewer relies on.

Each test plays a motion in a small scene (animations skipped to their ends,
nothing drawn but a last frame) and looks at the blocks between its steps,
through the caption hook a motion calls as it goes, or at a motion's own
animation half-way. A matmul whose row lay on the wrong column, whose
products wore the result's scale, or whose rows filled in together fails here.
"""

import numpy as np
import pytest
from manim import DOWN, LEFT, PI, RIGHT, UP, Rectangle, Text, Wait

from golden import render_still
from scenes import stage_registry
from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appearing
from scenes.engine.manim_hooks import sampled, screen_points
from scenes.motions.broadcast import broadcast_copies
from scenes.motions.heads import PAIR_LEAST, fill_heads, focus_heads, form_pairs, pair_heads
from scenes.motions.matmul import batched_matmul, bend_into, matmul
from scenes.motions.turns import transpose_beside, turn, turn_sign
from scenes.motions.vectors import beside_matrix, matrix_vector
from scenes.screen import name_faults
from scenes.components.projection import project
from tensors import AttentionConfig, compute_trace, matmul_products

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


def operands(scene, a, b):
    """``A`` and ``B``, of values ``a`` and ``b``, labelled, in a row, on screen: a matmul's start."""
    left, right = CubeGrid(a), CubeGrid(b)
    scene.layout.name(left, "A")
    scene.layout.name(right, "B")
    scene.layout.row(left, right)
    scene.add(left, right, scene.layout.place(left), scene.layout.place(right))
    return left, right


def sampled_matmul(tmp_path, a, b, during):
    """``A @ B = C`` played (row 0 at once: ``cells=0``), ``during(scene)`` called every 0.05 s."""

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            left, right = operands(self, a, b)
            matmul(self, self.layout, self.viewpoint, left, right, a @ b, matmul_products(a, b),
                   names=("A", "B", "C"), cells=0)

    render_still(sampled(Motion, 0.05, during), tmp_path, size=SIZE)


def screen_span(scene, grid) -> tuple[float, float, float, float]:
    """Left, bottom, right and top of ``grid``'s cube centres on screen."""
    centres = project(scene.camera, grid.cell_centers()).reshape(-1, 2)
    (x0, y0), (x1, y1) = centres.min(axis=0), centres.max(axis=0)
    return x0, y0, x1, y1


def watching(scene, record):
    """Make every play of ``scene`` call ``record()`` once it has ended."""
    played = scene.play

    def play_and_record(*args, **kwargs):
        played(*args, **kwargs)
        record()

    scene.play = play_and_record


def test_the_matmul_meets_a_row_and_a_column_on_the_bench_and_fills_the_result_in_order(tmp_path):
    """A · B = C as a viewer follows it: row i of A level with row i of C; for
    cell (0, 0), row 0 of A stands up on the bench between A and B, level
    with B's rows, clear of both blocks, a copy of column 0 of B beside it
    (B stays whole: nothing covered, no column moved); the pair turns into
    the products (hand-written) on their own scale, smallest to largest;
    C fills in cell by cell along row 0, then one row after another, never
    two at once; C ends as the hand-written product."""
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    expected = np.array([[sum(a[i, p] * b[p, j] for p in range(4)) for j in range(5)] for i in range(3)])
    seen = {"filled": [], "products": None, "column": None}

    def storyboard(scene):
        left, right = operands(scene, a, b)
        result = []

        def record():
            grids = [g for m in scene.mobjects for g in [m] if isinstance(g, CubeGrid)]
            done = [g for g in grids if g.grid_shape == (1, 3, 5) and getattr(g, "label", None) is not None
                    and g.label.tensor_name == "C"]
            if done:
                result[:] = done
                filled = frozenset(zip(*np.nonzero(done[0].cube_opacity.reshape(3, 5) >= 0.999)))
                if not seen["filled"] or seen["filled"][-1] != filled:
                    seen["filled"].append(filled)
                for g in grids:  # column 0 of B on the bench, before it meets the row
                    if g.grid_shape == (1, 1, 4) and getattr(g, "part_of", None) is right \
                            and np.allclose(g.values.reshape(-1), b[:, 0]) and seen["column"] is None \
                            and seen["products"] is None and not np.allclose(g.cell_centers().reshape(4, 3),
                                                                            right.cell_centers()[0, :, 0]):
                        seen["column"] = project(scene.camera, g.cell_centers()).reshape(4, 2)
                for g in grids:  # the products of cell (0, 0), once, while they stand on the bench
                    if g.grid_shape == (1, 1, 4) and getattr(g, "label", None) is not None \
                            and g.label.tensor_name == "A[0] * B[:, 0]" and seen["products"] is None:
                        on_screen = [project(scene.camera, x.cell_centers()) for x in (g, right, left)]
                        seen["products"] = (g.values.reshape(-1).copy(), g.value_range, *on_screen,
                                            right.cell_centers().copy(), left.cell_centers().copy(),
                                            done[0].cell_centers().copy())

        watching(scene, record)
        matmul(scene, scene.layout, scene.viewpoint, left, right, expected, matmul_products(a, b),
               names=("A", "B", "C"))
        seen["result"] = result[0]
        seen["b_after"] = right.cell_centers().copy()

    play(tmp_path, storyboard)
    products, value_range, piece, right, left_screen, right_world, left, result = seen["products"]
    assert np.allclose(products, [a[0, p] * b[p, 0] for p in range(4)])
    assert np.allclose(value_range, (products.min(), products.max()))  # their own scale, as every tensor's
    laid = piece.reshape(4, 2)  # the row's 4 cells, turned upright, on screen
    pitch = np.linalg.norm(right[0, 1, 0] - right[0, 0, 0])
    assert np.allclose(laid[:, 1], right[0, :, 0, 1], atol=0.15 * pitch)  # level with B's rows
    assert np.all(laid[:, 0] > left_screen[0, :, :, 0].max() + pitch)  # clear of A ...
    assert np.all(laid[:, 0] < right[0, :, 0, 0] - pitch)  # ... and of B: never read as a column of B
    column = seen["column"]  # B's column 0, copied out beside the row, between the row and B
    assert column is not None
    assert np.all(column[:, 0] > laid[:, 0]) and np.all(column[:, 0] < right[0, :, 0, 0] - 0.5 * pitch)
    assert np.allclose(column[:, 1], right[0, :, 0, 1], atol=0.15 * pitch)
    assert np.allclose(seen["b_after"], right_world)  # B stayed whole: no column of it ever moved
    pitch = abs(result[0, 1, 0, 1] - result[0, 0, 0, 1])
    assert np.allclose(left[0, :, 0, 1], result[0, :, 0, 1], atol=0.1 * pitch)  # rows level with the result's
    steps = [sorted(now - before) for before, now in zip([frozenset()] + seen["filled"], seen["filled"])]
    steps = [s for s in steps if s]
    assert steps[:5] == [[(0, j)] for j in range(5)]  # row 0 cell by cell
    assert steps[5:] == [[(i, j) for j in range(5)] for i in (1, 2)]  # then row after row
    assert np.allclose(seen["result"].values[0], expected)


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


def _transposing(tmp_path, values, every=0.1):
    """``transpose_beside`` run on a grid of ``values`` (named "U·Xᵀ"), the
    result named "Q"; what each sampled frame showed, and the end."""
    seen = {"filled": [], "source": [], "faults": []}

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            grid = CubeGrid(values)
            self.layout.name(grid, "U·Xᵀ", DOWN)
            self.layout.row(grid)
            self.add(grid, self.layout.place(grid))
            seen["before"] = grid.copy()
            seen["grid"] = grid
            seen["sign"] = turn_sign(self.theme, ".T")
            seen["result"], seen["beside"] = transpose_beside(
                self, self.layout, self.viewpoint, grid, values[0].T, lambda g: self.layout.name(g, "Q", DOWN),
                "U·Xᵀ", [f"w{i}" for i in range(values.shape[2])], seen["sign"])

    def during(scene):
        result = next((m for m in scene.mobjects if getattr(getattr(m, "label", None), "tensor_name", "") == "Q"
                       and isinstance(m, CubeGrid)), None)
        if result is not None:
            rows = result.grid_shape[1]
            seen["filled"].append([not result.cube_empty[result.cell_ids((0, r))].any() for r in range(rows)])
        seen["source"].append(seen["grid"].values.copy())
        seen["faults"] += name_faults(scene)
        sign = seen.get("sign")
        if sign is not None and sign in scene.mobjects and sign[0].get_fill_opacity() > 0.05:
            x, y = project(scene.camera, np.asarray(sign.get_center(), float)[None])[0]
            for piece in scene.mobjects:  # the columns in flight (copies, still B's parts)
                if isinstance(piece, CubeGrid) and getattr(piece, "part_of", None) is seen["grid"] and (piece.cube_opacity > 0.05).any():
                    cubes = project(scene.camera, piece.cell_centers().reshape(-1, 3))
                    reach = piece.pitch / 2
                    seen.setdefault("over_sign", []).append(bool(np.any(
                        (np.abs(cubes[:, 0] - x) < sign.width / 2 + reach)
                        & (np.abs(cubes[:, 1] - y) < sign.height / 2 + reach))))

    render_still(sampled(Motion, every, during), tmp_path, size=SIZE)
    return seen


def test_a_transpose_is_its_columns_copied_out_as_the_rows_of_a_new_block(tmp_path):
    """``.T`` seen as a copy: the block before it stays whole (its numbers
    never change) while the block after it, beside it, fills row after row,
    never two rows at once, each row j holding column j's numbers and
    colors (``numpy``'s transpose, the reference); both named from the
    first frame."""
    values = np.arange(3 * 5, dtype=float).reshape(1, 3, 5)  # 3 rows, 5 columns: 5 rows after
    seen = _transposing(tmp_path, values)
    before, result = seen["before"], seen["result"]
    assert all(np.array_equal(v, values) for v in seen["source"])
    assert np.array_equal(result.values[0], values[0].T)
    assert not result.cube_empty.any()
    assert np.allclose(result.cube_rgb.reshape(5, 3, 3), before.cube_rgb.reshape(3, 5, 3).transpose(1, 0, 2))
    counts = [sum(f) for f in seen["filled"]]
    formed = [f for f in seen["filled"] if any(f)]
    # rows fill top to bottom, one at a time: a filled row has every row above it filled
    assert all(f == sorted(f, reverse=True) for f in formed)
    assert counts == sorted(counts) and set(range(1, 6)) <= set(counts)
    assert not seen["faults"]
    assert result.label.tensor_name == "Q" and seen["grid"].label.tensor_name == "U·Xᵀ"


def test_the_columns_in_flight_never_cross_the_transposes_sign(tmp_path):
    """The ``.T`` and its arrow stand off the lane the columns fly through
    (over or under it): at no sampled frame is a column in flight over the
    sign (a column turning across a permute's code read as a glitch)."""
    seen = _transposing(tmp_path, np.arange(6 * 4, dtype=float).reshape(1, 6, 4), every=0.04)
    assert seen.get("over_sign")  # columns were seen in flight beside the sign
    assert not any(seen["over_sign"])


def test_a_row_goes_round_a_corner_into_the_bench_in_order():
    """A row turned into a column on the bench goes round a corner, like a
    train: at every moment each cube is on the row's line or on the
    column's, in order, none on another (never across its block), and it
    ends as the column, exactly; a column reaching a little above the
    row's line is reached that much lower, then rises; one far above it is
    left to the turn about the row's end."""
    row = CubeGrid(np.arange(6, dtype=float).reshape(1, 6))
    pitch = row.pitch
    for above in (0.0, -0.5 * pitch, 0.7 * pitch):  # the column's top below, level with, a little above the line
        target = row.copy().rotate(-PI / 2, axis=np.array([0.0, 0.0, 1.0]))
        top = row.cell_center(0, 0)[1] + above
        target.shift(np.array([row.get_right()[0] + 2 * pitch, top, 0.0]) - target.cell_center(0, 0))
        piece = row.copy()
        motion = bend_into(piece, target)
        assert motion is not None
        line, corner_x = row.cell_center(0, 0)[1], target.cell_center(0, 0)[0]
        lowest = min(line, top) - 1e-9
        for alpha in np.linspace(0.0, 1.0, 41):
            motion.update_function(piece, alpha)
            centers = piece.cell_centers().reshape(-1, 3)
            on_line = np.isclose(centers[:, 1], line, atol=1e-6)
            in_column = np.isclose(centers[:, 0], corner_x, atol=1e-6)
            assert np.all(on_line | in_column), alpha
            assert np.all(centers[:, 0] <= corner_x + 1e-6)  # never past the bench
            gaps = np.linalg.norm(np.diff(centers, axis=0), axis=1)
            assert gaps.min() >= 0.7 * pitch - 1e-6  # in order, none on another
            if above <= 0:
                assert np.all(centers[:, 1] <= line + 1e-6)  # never over the row's line: never over its block
        assert np.allclose(piece.points, target.points)
    far = row.copy().rotate(-PI / 2, axis=np.array([0.0, 0.0, 1.0]))
    far.shift(np.array([row.get_right()[0] + 2 * pitch, row.cell_center(0, 0)[1] + 3 * pitch, 0.0])
              - far.cell_center(0, 0))
    assert bend_into(row.copy(), far) is None


def test_a_permute_of_every_heads_slice_is_copied_out_for_every_head_at_once(tmp_path):
    """``permute(0, 2, 1)`` of a 3D block: row j of every head's slice lands
    together, as column j of that head's slice (a hand-written loop, the
    reference)."""
    values = np.random.default_rng(3).normal(size=(2, 3, 4))
    seen = {}

    def storyboard(scene):
        grid = CubeGrid(values)
        scene.layout.name(grid, "V", DOWN)
        scene.layout.row(grid)
        scene.add(grid, scene.layout.place(grid))
        seen["result"], _ = transpose_beside(
            scene, scene.layout, scene.viewpoint, grid, values.transpose(0, 2, 1),
            lambda g: scene.layout.name(g, "V", DOWN), "V", ["a", "b", "c", "d"], turn_sign(scene.theme, "permute"))

    play(tmp_path, storyboard)
    result = seen["result"]
    expected = np.empty((2, 4, 3))
    for h in range(2):
        for i in range(3):
            for j in range(4):
                expected[h, j, i] = values[h, i, j]
    assert np.allclose(result.values, expected)
    assert not result.cube_empty.any() and np.all(result.cube_opacity == 1.0)


def test_a_softmax_row_goes_through_its_exponentials_to_its_weights(tmp_path):
    """Stage 4, row by row: row 0 leaves the scores for the bench, becomes its
    exponentials (named so, on their own scale), "÷ sum" is written beside
    them, and they are divided by it (the weights' scale, the sign gone) and
    land in row 0 of the weights; the weights end as the softmax written out."""
    from scenes.stages.s04_softmax import SoftmaxRows

    scores = TRACE["s03_omega"]
    exp = np.exp(scores)
    weights = exp / exp.sum(axis=1, keepdims=True)
    seen = {}

    class Watched(SoftmaxRows):
        def play(self, *args, **kwargs):
            super().play(*args, **kwargs)
            for mob in self.mobjects:
                name = getattr(getattr(mob, "label", None), "tensor_name", "")
                signs = [m.text for m in self.mobjects if isinstance(m, Text) and m.text.startswith("÷")
                         and not getattr(m, "is_caption", False)]
                if isinstance(mob, CubeGrid) and name.startswith("exp(") and "exp" not in seen:
                    seen["exp"] = (mob.values.reshape(-1).copy(), mob.value_range, name, mob.label.note)
                if isinstance(mob, CubeGrid) and name == "exp(ω[0])" and signs:  # the sign, then the division
                    seen.setdefault("sign", (mob.values.reshape(-1).copy(), signs))
                if isinstance(mob, CubeGrid) and name.startswith("α[0]") and "divided" not in seen:
                    seen["divided"] = (mob.values.reshape(-1).copy(), signs)

        def point_out_maxima(self, grid, values):
            seen["weights"] = grid.values[0].copy()
            super().point_out_maxima(grid, values)

    render_still(Watched, tmp_path, size=SIZE)
    values, value_range, name, note = seen["exp"]
    assert name == "exp(ω[0])"
    assert np.allclose(values, exp[0], rtol=1e-5)
    assert np.allclose(value_range, (exp[0].min(), exp[0].max()), rtol=1e-5)
    assert note == f"Σ = {exp[0].sum():.0f}"  # the sum it is divided by, under its name, to the units
    values, signs = seen["sign"]  # the division, seen: the sign beside the exponentials ...
    assert np.allclose(values, exp[0], rtol=1e-5)
    assert [sign.replace(" ", "") for sign in signs] == [f"÷{exp[0].sum():.0f}"]
    values, signs = seen["divided"]  # ... then the weights, the sign gone with the division
    assert np.allclose(values, weights[0], atol=1e-6) and not signs
    assert np.allclose(seen["weights"], weights, atol=1e-6)


@pytest.mark.parametrize("heads", [1, 3])
def test_a_batched_matmul_does_head_0_then_each_head_in_turn(tmp_path, heads):
    rng = np.random.default_rng(1)
    left_values, right_values = rng.normal(size=(heads, 3, 4)), rng.normal(size=(heads, 4, 2))
    result_values = left_values @ right_values
    seen = {"names": []}

    def storyboard(scene):
        left, right = operands(scene, left_values, right_values)

        def record():
            names = [g.label.tensor_name for m in scene.mobjects for g in [m]
                     if isinstance(g, CubeGrid) and getattr(g, "label", None) is not None
                     and g.label.tensor_name.startswith("C[")]
            if names and (not seen["names"] or seen["names"][-1] != names[0]):
                seen["names"].append(names[0])

        watching(scene, record)
        seen["block"] = batched_matmul(scene, scene.layout, scene.viewpoint, left, right, result_values,
                                       matmul_products(left_values[0], right_values[0]),
                                       names=("A", "B", "C")).block

    play(tmp_path, storyboard)
    block = seen["block"]
    assert block.grid_shape == (heads, 3, 2)
    assert np.allclose(block.values, result_values)
    assert block.cube_opacity.min() == 1.0
    assert seen["names"] == [f"C[{h}]" for h in range(heads)]  # head 0 first, then one head after another


def worked_row_batch(scene, left_values, right_values, result_values):
    """``A`` and ``B`` on screen, then their batched matmul formed
    ``together``: head 0's row 0 worked, the rest left empty slots."""
    left, right = operands(scene, left_values, right_values)
    done = batched_matmul(scene, scene.layout, scene.viewpoint, left, right, result_values,
                          matmul_products(left_values[0], right_values[0]), names=("A", "B", "C"),
                          together=True, stack=False)
    return left, done


def worked_pairs(scene, left_values, right_values, result_values):
    """:func:`worked_row_batch`, then every head's pair laid out
    (:func:`pair_heads`); the batched matmul and the pairs."""
    left, done = worked_row_batch(scene, left_values, right_values, result_values)
    pairs = pair_heads(scene, scene.layout, scene.viewpoint, done.block, (left.values, left.value_range),
                       done.operands[1], ("A", "C"), leaving=done.leaving)
    return done, pairs


def formed_rows(grids) -> tuple:
    """How many rows of each 2D grid are formed (no empty slot)."""
    return tuple(int((~g.cube_empty.reshape(g.grid_shape)[0]).all(axis=1).sum()) for g in grids)


def test_the_other_heads_form_together_row_after_row(tmp_path):
    """A batched matmul formed ``together``: head 0's row 0 is formed (the
    worked example), its later rows and the other heads are empty slots when
    it ends; beside head 0 they then fill all at once, row after row, head
    0's later rows with them (at every moment each head has as many rows
    formed as the others, and never a row half-way without the rows above
    it), ending on their own results (hand-written: ``@`` per head)."""
    heads, rows = 3, 4
    rng = np.random.default_rng(5)
    left_values, right_values = rng.normal(size=(heads, rows, 3)), rng.normal(size=(heads, 3, 2))
    result_values = np.stack([left_values[h] @ right_values[h] for h in range(heads)])
    seen = {"formed": [], "filling": False}

    def record(scene):
        if seen["filling"]:
            seen["formed"].append(formed_rows(seen["heads"]))

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            _, done = worked_row_batch(self, left_values, right_values, result_values)
            seen["empty"] = done.block.cube_empty.reshape(done.block.grid_shape).copy()
            shown = focus_heads(self, self.layout, self.viewpoint, done.block, "C", ["one", "two"],
                                rows_are_tokens=False, columns_are_tokens=True, leaving=done.leaving)
            seen["heads"], seen["filling"] = [shown.focus, *shown.others], True
            fill_heads(self, self.layout, shown, run_time=2.0)
            seen["filling"] = False

    render_still(sampled(Motion, 0.1, record), tmp_path, size=SIZE)
    empty = seen["empty"]
    assert not empty[0, 0].any() and empty[0, 1:].all() and empty[1:].all()  # head 0's row 0 only formed
    counts = [c[1] for c in seen["formed"]]
    # every head at the same row (head 0's row 0 formed before the others')
    assert all(len(set(c[1:])) == 1 and c[0] == max(1, c[1]) for c in seen["formed"]), seen["formed"]
    assert counts == sorted(counts) and set(range(1, rows)) <= set(counts)  # row after row, each one seen
    for piece, values in zip(seen["heads"], result_values):
        assert not piece.cube_empty.any()
        assert np.allclose(piece.values.reshape(values.shape), values)


def test_the_batch_is_seen_with_every_heads_operand_beside_its_result(tmp_path):
    """A batched matmul against one broadcast operand, formed ``together``:
    every head's left operand stands beside its own result (on the same
    rows, left of it), the shared operand on screen with them, while row r
    of every head forms at once, row after row, a frame on row r of each
    head's operand and of its result (the rows filling in small heads with
    no operand in sight read as results appearing: 14_0328); the results
    end as their own products (hand-written: ``@`` per head)."""
    heads, rows = 3, 4
    rng = np.random.default_rng(7)
    left_values = rng.normal(size=(heads, rows, 3))
    right_values = np.repeat(rng.normal(size=(1, 3, 2)), heads, axis=0)  # one matrix, broadcast
    result_values = np.stack([left_values[h] @ right_values[h] for h in range(heads)])
    seen = {"formed": [], "frames": [], "filling": False}

    def during(scene):
        if not seen["filling"]:
            return
        pairs = seen["pairs"]
        seen["formed"].append(formed_rows(pairs.results))
        on = [m for top in scene.mobjects for m in top.get_family()]
        seen["frames"].append(sum(isinstance(m, Rectangle) for m in on))
        for grid, result in zip(pairs.weights, pairs.results):
            assert any(grid is m for m in on) and grid.cube_opacity.min() == 1.0
            left, bottom, right, top = scene.layout.screen_box([grid])
            r_left, r_bottom, _, r_top = scene.layout.screen_box([result])
            assert right < r_left and np.isclose(top, r_top, atol=0.05) and np.isclose(bottom, r_bottom, atol=0.05)
        assert any(pairs.operand is m for m in on)

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            done, pairs = worked_pairs(self, left_values, right_values, result_values)
            seen["pairs"], seen["filling"] = pairs, True
            form_pairs(self, self.layout, pairs, run_time=2.0)
            seen["filling"] = False

    scene = render_still(sampled(Motion, 0.1, during), tmp_path, size=SIZE)
    pairs = seen["pairs"]
    # where the gap takes it, each arrow says "· B", between its pair's blocks (never over them)
    words = [m for m in pairs.arrows if getattr(m, "original_text", None)]
    assert [w.original_text for w in words] in ([], ["· B"] * len(pairs.weights))
    for word, grid, result in zip(words, pairs.weights, pairs.results):
        right, r_left = scene.layout.screen_box([grid])[2], scene.layout.screen_box([result])[0]
        assert right <= word.get_left()[0] and word.get_right()[0] <= r_left
    for grid, values in zip(pairs.weights, left_values):
        assert np.allclose(grid.values.reshape(values.shape), values)
    assert np.allclose(pairs.operand.values.reshape(right_values[0].shape), right_values[0])
    # every head at the same row (head 0's row 0 formed before), row after row, each one seen; frames on 2
    # rows a head and round the operand
    assert all(len(set(c[1:])) == 1 and c[0] == max(1, c[1]) for c in seen["formed"]), seen["formed"]
    counts = [c[1] for c in seen["formed"]]
    assert counts == sorted(counts) and set(range(1, rows)) <= set(counts)
    assert max(seen["frames"]) >= 2 * heads + 1
    for piece, values in zip(pairs.results, result_values):
        assert not piece.cube_empty.any()
        assert np.allclose(piece.values.reshape(values.shape), values)


def test_too_many_heads_to_read_draw_the_first_pairs_large_and_dots_for_the_rest(tmp_path):
    """Nine heads of 17×16 against one 16×8 operand: every pair side by side
    would draw 4 px cubes at 480p (14_0334, "confetti"). The first heads'
    pairs are drawn, each cube at least PAIR_LEAST, in one row; a "⋯"
    tagged "heads d–8" stands for the others, whose results are formed with
    the drawn ones (out of sight) and end as their own products
    (hand-written: ``@`` per head); focus_heads then brings every head out."""
    heads, rows, inner, cols = 9, 17, 16, 8
    rng = np.random.default_rng(11)
    left_values = rng.random((heads, rows, inner))
    right_values = np.repeat(rng.normal(size=(1, inner, cols)), heads, axis=0)
    result_values = np.stack([left_values[h] @ right_values[h] for h in range(heads)])
    seen = {}

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            done, pairs = worked_pairs(self, left_values, right_values, result_values)
            seen["pairs"] = pairs
            on = [m for top in self.mobjects for m in top.get_family()]
            seen["dots on screen"] = pairs.dots is not None and any(pairs.dots is m for m in on)
            seen["unseen on screen"] = any(g is m for g in pairs.unseen for m in on)
            seen["tags"] = [t.original_text for t in pairs.tags]
            seen["pitch"] = min((box[2] - box[0]) / g.grid_shape[2] for g in (*pairs.weights, *pairs.results)
                                for box in [self.layout.screen_box([g])])
            form_pairs(self, self.layout, pairs, run_time=1.0)
            shown = focus_heads(self, self.layout, self.viewpoint, done.block, "C", list("abcdefgh"),
                                rows_are_tokens=False, slices=pairs.every, leaving=pairs.leaving(), run_time=0.5)
            seen["others"] = shown.others

    render_still(Motion, tmp_path)
    pairs = seen["pairs"]
    drawn = len(pairs.results)
    assert 2 <= drawn < heads and len(pairs.weights) == drawn and len(pairs.unseen) == heads - drawn
    # as many pairs as keep PAIR_LEAST, at least two (then as large as the rows' height allows: over 6 px at
    # 480p here, where all nine side by side had 4.5)
    assert (seen["pitch"] >= PAIR_LEAST or drawn == 2) and seen["pitch"] > 0.1
    assert seen["dots on screen"] and not seen["unseen on screen"]
    assert seen["tags"][-1] == f"heads {drawn}–{heads - 1}"
    assert len(seen["others"]) == heads - 1
    for piece, values in zip(pairs.every, result_values):
        assert not piece.cube_empty.any()
        assert np.allclose(piece.values.reshape(values.shape), values)


def test_small_heads_keep_their_size_where_their_roles_do_not_fit(tmp_path):
    """Sixteen 8×8 heads whose roles (a tag's second line, beside each head)
    leave no room for a grid: the tags say "head h" over the heads (fewer
    words), and the heads keep a size one can see (the paper's causal
    weights drew them at no size, under a pile of tags)."""
    heads = 16
    values = np.random.default_rng(2).random((heads, 8, 8))
    roles = {h: "no clear role" for h in range(heads)}
    found = {}

    def storyboard(scene):
        block = CubeGrid(values)
        scene.layout.name(block, "w")
        scene.layout.fit([block])
        scene.add(block, scene.layout.place(block))
        shown = focus_heads(scene, scene.layout, scene.viewpoint, block, "w", [f"t{i}" for i in range(8)],
                            roles=roles)
        found["sizes"] = [scene.layout.screen_box([piece])[2] - scene.layout.screen_box([piece])[0]
                          for piece in shown.others]
        found["tags"] = [tag.original_text for tag in shown.tags]

    play(tmp_path, storyboard)
    assert min(found["sizes"]) > 0.4
    assert found["tags"] == [f"head {h}" for h in range(1, heads)]


def test_a_row_keeps_a_wide_label_off_the_neighbouring_block(tmp_path):
    """A name wider than its block hangs over the gap, not over or under the
    next block (where it would read as that block's name), when the row has room."""
    found = {}

    def storyboard(scene):
        small, big = CubeGrid(np.ones((3, 2))), CubeGrid(np.ones((6, 6)))
        scene.layout.name(small, "a_rather_long_tensor_name[0]", UP)
        scene.layout.name(big, "B", DOWN)  # on the other side: only the new rule keeps them apart
        scene.layout.row(small, big)
        scene.add(small, big, scene.layout.place(small), scene.layout.place(big))
        scene.camera.reset_rotation_matrix()
        found["label"] = max(screen_points(scene, m)[:, 0].max() for m in small.label.family_members_with_points())
        found["next"] = scene.layout.screen_box([big])[0]

    play(tmp_path, storyboard)
    assert found["label"] < found["next"], "the label reaches over the next block"


def test_a_row_is_never_named_under_the_column_copy_alone(tmp_path):
    """Stage 8's matmul (U_key 17×16 · Xᵀ 16×8): A's row on the bench is
    named clear of A's label; where that puts the row's name under the
    column copy beside it (where it read as the column's name: 08_0049,
    09_0049), the pair is named as one, left to right as it stands:
    "U_key[0] and Xᵀ[:, j]" (two operands: "U_key[0] * Xᵀ[:, j]" over them,
    before they multiply, read as the products' name: 07_0276, 10_0360).
    At every play's end no label naming the row alone reaches under a column
    copy on the bench."""
    rng = np.random.default_rng(8)
    a, b = rng.random((17, 16)), rng.normal(size=(16, 8))
    found = {"under": [], "names": set()}

    def storyboard(scene):
        left, right = CubeGrid(a), CubeGrid(b)
        scene.layout.name(left, "U_key", DOWN)
        scene.layout.name(right, "Xᵀ", UP)
        scene.layout.row(left, right)
        scene.add(left, right, scene.layout.place(left), scene.layout.place(right))

        def record():
            on = scene.mobjects
            labels = [m for m in on if getattr(m, "tensor_name", None)]
            found["names"] |= {m.tensor_name for m in labels}
            columns = [scene.layout.screen_box([m]) for m in on if isinstance(m, CubeGrid)
                       and getattr(m, "part_of", None) is right]  # B's column copied out onto the bench
            for label in labels:
                if label.tensor_name != "U_key[0]":
                    continue
                for x0, _, x1, _ in columns:
                    if label.get_right()[0] > x0 + 0.05 and label.get_left()[0] < x1 - 0.05:
                        found["under"].append(label.tensor_name)

        watching(scene, record)
        matmul(scene, scene.layout, scene.viewpoint, left, right, a @ b, matmul_products(a, b),
               names=("U_key", "Xᵀ", "U_key·Xᵀ"), cells=2, rows=0)

    play(tmp_path, storyboard)
    assert not found["under"], "the row's name under the column copy"
    said = {name.replace("\n", " ") for name in found["names"]}  # on one line or two
    assert {"U_key[0] and Xᵀ[:, 0]", "U_key[0] and Xᵀ[:, 1]"} & said, "the pair is never named"
    assert {"U_key[0] * Xᵀ[:, 0]", "U_key[0] * Xᵀ[:, 1]"} <= found["names"]


def test_a_legend_changes_with_the_colors_it_names(tmp_path):
    """The products' label (name and scale) comes in the frame A's row turns
    into the products, in the play that recolors it (once the pair has met
    on the "·"), never in a frame that still shows A's row (a reader saw
    "α[0] * X[:, 9]" over α's colors). A later row's products
    come in named as products from their first column (no row of A on B
    under them first). And every play's first frame (the state before it)
    has every block named by what it shows: the row on its way to the next
    column is A's row again, and named so, from that frame (a tenth reader
    saw the products' name over it)."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 2))
    seen, first_frames = [], []

    def storyboard(scene):
        left, right = operands(scene, a, b)
        played = scene.play

        def play(*animations, **kwargs):
            first_frames.extend(name_faults(scene))
            coming = [(animation, label) for animation in animations for label in appearing(animation) or []
                      if getattr(label, "tensor_name", "") in ("A[0] * B[:, 0]", "A[1] * columns of B")]
            before = [label.block.values.copy() for _, label in coming]
            recolors = [[(a.rate_func if hasattr(a, "rate_func") else a.anim_args["rate_func"])(0.25)
                         for a in animations if getattr(a, "mobject", None) is label.block]
                        for _, label in coming]  # the block's own change in that play (``.animate``), when done
            played(*animations, **kwargs)
            for (animation, label), was, recolor in zip(coming, before, recolors):
                seen.append((label.tensor_name, animation.rate_func(0.25), animation.rate_func(0.75),
                             recolor, was.reshape(-1), label.block.values.reshape(-1).copy()))

        scene.play = play
        matmul(scene, scene.layout, scene.viewpoint, left, right, a @ b, matmul_products(a, b), names=("A", "B", "C"))

    play(tmp_path, storyboard)
    assert not first_frames, "\n".join(first_frames)
    assert [name for name, *_ in seen] == ["A[0] * B[:, 0]", "A[1] * columns of B"]
    (_, early, late, recolor, was0, now0), (_, *soon, _, was1, now1) = seen
    assert (early, late) == (1.0, 1.0) and recolor == [1.0], "the first products' name and colors not in one frame"
    assert np.allclose(was0, a[0]) and np.allclose(now0, a[0] * b[:, 0])  # A's row before, the products after
    assert soon == [1.0, 1.0]  # named as they come in
    products = (a[1][:, None] * b).reshape(-1)
    assert np.allclose(was1, products) and np.allclose(now1, products)


def test_the_output_projection_is_a_row_against_a_row_of_w(tmp_path):
    """Stage 21 shows ``linear(multihead_flattened)`` as nn.Linear computes
    it: cell [0, 0] from row 0 of multihead_flattened and row 0 of W, their
    products (on their own scale) beside them, number for number; then the
    rest of row 0 cell after cell, up close, each W[j]'s products beside it
    and the cell named with its number, in order, in row 0 of the result
    so far (its cells 0 … j formed, the rest empty); then the other rows one
    after another, never a row before the one above it; the cells and the
    block are ``torch.nn.functional.linear``'s (an independent reference)."""
    import torch
    import torch.nn.functional as F
    from scenes.stages import stage_registry

    seen = {"products": {}, "formed": [], "order": [], "cells": {}, "rows": []}

    def during(scene):
        for top in scene.mobjects:
            for grid in [m for m in top.get_family() if isinstance(m, CubeGrid)]:
                name = getattr(getattr(grid, "label", None), "tensor_name", "").replace("\n", " ")
                shown = grid.cube_opacity.size and grid.cube_opacity.max() > 0.5
                if shown and name.startswith("multihead_flattened[0] * W["):
                    j = int(name.rsplit("[", 1)[1].rstrip("]"))
                    seen["products"].setdefault(j, grid.values.reshape(-1).copy())
                    if not seen["order"] or seen["order"][-1] != j:
                        seen["order"].append(j)
                if shown and name.startswith("cell [0, "):
                    j = int(name.split(",")[1].split("]")[0])
                    values = grid.values.reshape(-1)  # the cell alone, or row 0 so far with cell j in it
                    seen["cells"][j] = (float(values[j if values.size > 1 else 0]),
                                        float(name.rsplit("=", 1)[1].replace("−", "-")))
                    if values.size > 1:
                        seen["rows"].append((j, values.copy(), grid.cube_empty.copy()))
                if name == "multihead_flattened @ W.T" and grid.grid_shape[1:] == (8, 18):
                    filled = ~grid.cube_empty.reshape(grid.grid_shape)[0]
                    seen["formed"].append(filled.copy())
                    seen["result"] = grid

    scene = render_still(sampled(stage_registry()[21], 0.1, during), tmp_path, size=SIZE)
    trace = scene.trace
    flat, weight = trace["s20_multihead_flattened"], trace["s21_linear_weight"]
    by_hand = F.linear(torch.tensor(flat), torch.tensor(weight)).numpy()  # before the bias
    d_out = weight.shape[0]
    assert seen["order"] == list(range(d_out))  # row 0's cells one after another, up close
    for j in range(d_out):  # each with its products, number for number, and its cell
        assert np.allclose(seen["products"][j], flat[0] * weight[j])
        value, written = seen["cells"][j]
        assert np.isclose(value, by_hand[0, j], atol=1e-5) and abs(written - by_hand[0, j]) < 6e-3
    # and over the products, row 0 of the result so far: cells 0 … j formed, the rest empty slots
    assert {j for j, _, _ in seen["rows"]} == set(range(1, d_out))
    for j, values, empty in seen["rows"]:
        assert np.allclose(values, by_hand[0], atol=1e-5) and (empty == (np.arange(d_out) > j)).all()
    # then row by row: what is formed is always a run from the first cell
    for filled in seen["formed"]:
        order = filled.reshape(-1)
        assert not np.any(order[1:] & ~order[:-1]), filled.astype(int)
    assert any(1 <= f[1:].sum(axis=1).astype(bool).sum() < 7 for f in seen["formed"])  # later rows one by one
    expected = F.linear(torch.tensor(flat), torch.tensor(weight), torch.tensor(trace["s21_linear_bias"])).numpy()
    assert np.allclose(seen["result"].values.reshape(expected.shape), expected, atol=1e-5)


def row_zero_matmul(a, b, seen):
    """A scene forming row 0 of ``a @ b`` cell by cell (4 cells), its operands kept in ``seen``."""

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            seen["operands"] = operands(self, a, b)
            matmul(self, self.layout, self.viewpoint, *seen["operands"], a @ b, matmul_products(a, b),
                   names=("A", "B", "C"), cells=4, rows=0)

    return Motion


def shown_sums(scene):
    """Each "Σ …" text in sight, with its screen box (left, bottom, right, top)."""
    sums = [t for m in scene.mobjects for t in m.get_family() if isinstance(t, Text) and t.text.startswith("Σ")
            and max(s.get_fill_opacity() for s in t.family_members_with_points()) > 0.05]
    return [(t.text, t.get_corner(DOWN + LEFT)[0], t.get_corner(DOWN + LEFT)[1], t.get_corner(UP + RIGHT)[0],
             t.get_corner(UP + RIGHT)[1]) for t in sums]


def test_a_sums_number_never_rides_over_the_operands(tmp_path):
    """A cell's sum flies from the bench between A and B to C, over B: its
    "Σ = …" goes with it only where that keeps it off both operands, else it
    stays beside the sum until the sum leaves; at no sampled frame is a sum's
    number over A or B."""
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(3, 6)), rng.normal(size=(6, 4))
    seen = {"sums": 0, "over": []}

    def during(scene):
        boxes = [screen_span(scene, grid) for grid in seen["operands"]]
        for text, left, bottom, right, top in shown_sums(scene):
            seen["sums"] += 1
            seen["over"] += [text for x0, y0, x1, y1 in boxes
                             if left < x1 and right > x0 and bottom < y1 and top > y0]

    render_still(sampled(row_zero_matmul(a, b, seen), 0.04, during), tmp_path, size=SIZE)
    assert seen["sums"]
    assert not seen["over"]


def test_a_sums_number_never_lies_on_its_own_cube(tmp_path):
    """Where its number cannot ride with the sum (the way to C crosses B), it
    stays where it stood, over the sum, until the sum leaves: at no sampled
    frame does a "Σ = …" lie on a cube (tried at each side, it was left on
    the sum: 17_0165; stage 17 itself, and its shapes in a plain matmul)."""
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(8, 17)), rng.normal(size=(17, 8))
    seen = {"sums": 0, "on": []}

    def during(scene):
        cubes = [project(scene.camera, g.cube_corners()[g.cube_opacity > 0.5].reshape(-1, 3)).reshape(-1, 8, 2)
                 for m in scene.mobjects for g in m.get_family() if isinstance(g, CubeGrid)]
        for text, left, bottom, right, top in shown_sums(scene):
            seen["sums"] += 1
            for corners in cubes:
                low, high = corners.min(axis=1), corners.max(axis=1)
                if np.any((low[:, 0] < right) & (high[:, 0] > left) & (low[:, 1] < top) & (high[:, 1] > bottom)):
                    seen["on"].append(text)

    render_still(sampled(row_zero_matmul(a, b, seen), 0.04, during), tmp_path, size=SIZE)
    render_still(sampled(stage_registry()[17], 0.04, during), tmp_path, size=SIZE)  # where it was seen
    assert seen["sums"]
    assert not seen["on"]


def test_the_first_cells_products_are_added_one_by_one_under_their_running_sum(tmp_path):
    """The sum of cells (0, 0) and (0, 1), seen: a pile, one cube, goes down the
    products strip taking in one product after another (the products it
    has passed gone under it, those ahead of it whole), framed, in the
    ink's color (a sum in progress, on no bar), and "Σ = …" above it is
    the sum of the products it holds (a hand-written running sum),
    changing in order, one product at a time, up to the cell's value."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(2, 6)), rng.normal(size=(6, 3))
    running = [[sum(a[0, p] * b[p, j] for p in range(q + 1)) for q in range(6)] for j in range(2)]  # by hand
    seen = {0: [], 1: []}

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            left, right = operands(self, a, b)
            matmul(self, self.layout, self.viewpoint, left, right, a @ b, matmul_products(a, b),
                   names=("A", "B", "C"), cells=2, rows=0)

    def during(scene):
        sums = [t for m in scene.mobjects for t in m.get_family() if isinstance(t, Text) and t.text.startswith("Σ")
                and max(s.get_fill_opacity() for s in t.family_members_with_points()) > 0.5]
        grids = [m for m in scene.mobjects if isinstance(m, CubeGrid)]
        names = {j: f"A[0] * B[:, {j}]" for j in (0, 1)}
        strips = [(j, m) for m in grids for j in (0, 1)  # named, the name in sight
                  if getattr(getattr(m, "label", None), "tensor_name", "") == names[j]
                  and max(t.get_fill_opacity() for t in m.label.family_members_with_points()) > 0.5]
        result = [m for m in grids if getattr(getattr(m, "label", None), "tensor_name", "") == "C"]
        if not sums or not strips:
            return
        assert len(sums) == 1 and len(result) == 1 and len(strips) == 1
        j, strip = strips[0]
        shown = float(sums[0].text.split("=")[1].replace("−", "-"))
        held = int(np.argmin([abs(shown - r) for r in running[j]]))  # the running sum it shows ...
        assert abs(shown - running[j][held]) < 0.006
        piles = [m for m in grids if getattr(m, "part_of", None) is strip and m.cell_count == 1]
        assert len(piles) == 1, "one pile, a piece of the products"
        # a sum in progress, on no bar (a color that is no value's), framed: on the products' colors, a sum
        # beyond their range came out clipped red and landed orange, and looked like one more product (08_0134)
        assert np.isnan(piles[0].cube_t).all()
        left_x, bottom, right_x, top = scene.layout.screen_box([piles[0]])
        frames = [r for m in scene.mobjects for r in m.get_family() if type(r) is Rectangle
                  and r.get_stroke_opacity() > 0.5 and r.get_left()[0] < left_x and r.get_right()[0] > right_x
                  and r.get_bottom()[1] < bottom and r.get_top()[1] > top and r.width < 3 * (right_x - left_x)]
        assert frames, "the pile framed"
        gone = strip.cube_opacity < 0.05
        assert gone[:held + 1].all() and not gone[held + 1:].any()  # ... is of the products in the pile
        centres = strip.cube_corners().mean(axis=1)  # the products' places, down the strip
        step = centres[1] - centres[0]
        at = float(np.dot(piles[0].get_center() - centres[0], step) / np.dot(step, step))
        assert held - 0.15 <= at < held + 1.0  # on the last product it took in (lifted a little toward the eye)
        seen[j].append(held)

    render_still(sampled(Motion, 0.05, during), tmp_path, size=SIZE)
    for j, held in seen.items():  # the first cell's, explained, and the next one's, quick
        # in order, up to the whole sum (sampled in plays, and the whole sum is there at a play's end only, as the
        # products' name goes: the last sample with their name in sight holds all but the last product)
        assert held == sorted(held) and held[-1] >= 4
        assert len(set(held)) >= 4  # one product after another, not all at once


def test_a_rows_sums_never_pass_over_the_rows_already_formed(tmp_path):
    """Row i's sums go into C's row i without crossing C's rows already
    formed (flown on a slant from B's top row, they slid over C's rows 0 to
    i - 1 and read as a glitch: 05_0632, the 39th and 40th readers): at
    every 0.05 s sample, the sums of a row in flight (n cubes of C's
    colors, not C) cover no formed row of C on screen; and they do fly."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(5, 6)), rng.normal(size=(6, 7))
    flights = []

    def during(scene):
        grids = [m for m in scene.mobjects if isinstance(m, CubeGrid)]
        result = [g for g in grids if getattr(getattr(g, "label", None), "tensor_name", "") == "C"
                  and g.grid_shape == (1, 5, 7)]
        if not result:
            return
        c = result[0]
        sums = [g for g in grids if g is not c and getattr(g, "part_of", None) is c and g.grid_shape == (1, 1, 7)]
        formed = [r for r in range(5) if (c.cube_opacity.reshape(5, 7)[r] >= 0.999).all()]
        for strip in sums:
            flights.append(True)
            x0, y0, x1, y1 = screen_span(scene, strip)
            for r in formed:
                row = project(scene.camera, c.cell_centers()[0, r]).reshape(-1, 2)
                half = c.pitch * 0.45  # cube centres a cube's width or more apart: no overlap
                apart = (x1 < row[:, 0].min() - 2 * half or x0 > row[:, 0].max() + 2 * half
                         or y1 < row[:, 1].min() - 2 * half or y0 > row[:, 1].max() + 2 * half)
                assert apart, f"a row's sums over C's formed row {r}"

    sampled_matmul(tmp_path, a, b, during)
    assert len(flights) >= 4  # rows 1 … in flight, sampled


def test_a_rows_sums_fly_framed_with_b_out_of_play(tmp_path):
    """While a row's sums are on screen (going down B, then flying into C's
    row), B is not lit (B lit whole under its own name as they flew, a
    still read a bright B in focus "while row 0 is computed at once":
    08_0222, 09_0224, the 51st reader), and a frame is on them at every
    0.05 s sample: it goes with them."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=(4, 6)), rng.normal(size=(6, 5))
    seen = {"flying": 0, "framed": 0, "b lit": 0}

    def during(scene):
        grids = [m for m in scene.mobjects if isinstance(m, CubeGrid)]
        named = {getattr(getattr(g, "label", None), "tensor_name", ""): g for g in grids}
        c, right = named.get("C"), named.get("B")
        if c is None or right is None or right.grid_shape != (1, 6, 5):
            return
        sums = [g for g in grids if g is not c and getattr(g, "part_of", None) is c and g.grid_shape == (1, 1, 5)]
        for strip in sums:
            seen["flying"] += 1
            seen["b lit"] += float(right.cube_opacity.max()) > 0.5
            x0, y0, x1, y1 = screen_span(scene, strip)
            frames = [r for top in scene.mobjects for r in top.get_family() if isinstance(r, Rectangle)
                      and r.get_stroke_opacity() > 0.5]
            seen["framed"] += any(r.get_left()[0] <= x0 and r.get_right()[0] >= x1 and r.get_bottom()[1] <= y0
                                  and r.get_top()[1] >= y1 for r in frames)

    sampled_matmul(tmp_path, a, b, during)
    assert seen["flying"] >= 8
    assert seen["b lit"] == 0
    assert seen["framed"] == seen["flying"]


def _products_in_sight(scene):
    """The blocks in sight named as products ("… * …"), with their numbers."""
    return [g for top in scene.mobjects for g in top.get_family() if isinstance(g, CubeGrid)
            and " * " in getattr(getattr(g, "label", None), "tensor_name", "").replace("\n", " ")
            and g.cube_opacity.size and float(g.cube_opacity.max()) > 0.5
            and max(t.get_fill_opacity() for t in g.label.family_members_with_points()) > 0.5]


def test_products_are_in_sight_at_every_moment_a_matmul_forms_its_result(tmp_path):
    """From the first products to C's last row, every 0.05 s sample shows the
    products of what is being formed, or the row and column about to be
    multiplied, on the bench (no sum flying over an empty bench between two
    cells, no row of C filling beside a bare B: "the cell value simply
    appears", 03_0208, 10_0366, 17_0444, the 45th reader); and the rows of
    C formed fast, without a running sum, each beside its own products
    (hand-written, row r of A times every column of B), one row after
    another, for head 0 and for each other head of a batched matmul. (A
    row's sums flying into C, just summed from its products, are the result
    filling in, seen: they count as the operation in sight.)"""
    rng = np.random.default_rng(7)
    a, b = rng.normal(size=(2, 6, 4)), rng.normal(size=(2, 4, 5))
    expected = np.einsum("hik,hkj->hij", a, b)
    by_hand = {(h, r): a[h, r][:, None] * b[h] for h in range(2) for r in range(6)}  # k×n, as laid over B
    samples = {"empty": 0, "seen": [], "all": 0, "flows": 0}

    class Motion(StageScene):
        title, code = "motion", "motion"

        def storyboard(self):
            self.layout.name(left := CubeGrid(a), "A")
            self.layout.name(right := CubeGrid(b), "B")
            self.layout.row(left, right)
            self.add(left, right, self.layout.place(left), self.layout.place(right))
            batched_matmul(self, self.layout, self.viewpoint, left, right, expected,
                           matmul_products(a[0], b[0]), names=("A", "B", "C"), cells=3, rows=1, stack=False)

    def during(scene):
        grids = [g for top in scene.mobjects for g in top.get_family() if isinstance(g, CubeGrid)]
        results = [g for g in grids if g.grid_shape == (1, 6, 5) and getattr(g, "part_of", None) is None
                   and not g.cube_empty.all() and " * " not in getattr(getattr(g, "label", None), "tensor_name", "")]
        if not results:
            return  # before the first cell forms, or after the heads have left
        c = results[0]
        formed = int((c.cube_opacity.reshape(6, 5) >= 0.999).all(axis=1).sum())
        if formed == 6:
            return
        samples["all"] += 1
        products = _products_in_sight(scene)
        on_bench = [g for g in grids if g.grid_shape in ((1, 1, 4), (1, 4, 1)) and float(g.cube_opacity.max()) > 0.5]
        # or a row's sums going into C, the products just summed (the result filling in, seen)
        summed = [g for g in grids if getattr(g, "part_of", None) is c and float(g.cube_opacity.max()) > 0.5]
        if not products and len(on_bench) < 2 and not summed:
            samples["empty"] += 1
        signs = [t.text for top in scene.mobjects for t in top.get_family()
                 if isinstance(t, Text) and t.text in ("=", "→", "Σ→") and t.get_fill_opacity() > 0.5]
        for p in products:
            if p.grid_shape == (1, 4, 5):  # a row times every column, over B
                match = [key for key, v in by_hand.items() if np.allclose(p.values.reshape(4, 5), v)]
                assert match, "products over B are a row of A times every column of B"
                samples["seen"].append((match[0], formed))
                # not "A · (products) = C": arrows, A's row → its products → C's row
                assert signs == ["→", "Σ→"], signs
                samples["flows"] += 1
        if not any(p.grid_shape == (1, 4, 5) for p in products) and products:
            assert "=" in signs and "→" not in signs, signs  # a cell on the bench: B is B, "A · B = C"

    render_still(sampled(Motion, 0.05, during), tmp_path, size=SIZE)
    assert samples["all"] > 40 and samples["empty"] == 0 and samples["flows"] > 10
    rows = {}
    for (h, r), formed in samples["seen"]:
        rows.setdefault(h, []).append(r)
    for h in (0, 1):  # every row after the first's products, for head 0 (row 1 and the swept 2 to 5) and head 1
        seen = [r for i, r in enumerate(rows[h]) if i == 0 or r != rows[h][i - 1]]
        assert seen == sorted(seen) and set(range(1 if h == 0 else 0, 6)) <= set(seen)
