"""The cube grid and its camera, without rendering a video."""

import numpy as np
import pytest
from manim import LEFT, RIGHT, Transform, UP

from scenes.components.projection import view_angles
from scenes.engine.drawing import project_cube_faces
from scenes.engine.manim_hooks import CubeCamera
from scenes.components.cubegrid import CORNERS, FACES, CubeGrid
from scenes.components.palette import HEADLIGHT, rainbow, value_colors
from tensors import AttentionConfig, compute_trace

TRACE = compute_trace(AttentionConfig())


def hue(rgb):
    """HSV hue in degrees of an RGB triple in [0, 1]."""
    import colorsys

    return colorsys.rgb_to_hsv(*rgb)[0] * 360


@pytest.mark.parametrize("values, shape", [
    (np.arange(8.0), (1, 8, 1)),
    (TRACE["s02_embedded_sentence"], (1, 8, 16)),
    (TRACE["s13_multihead_U_value"], (9, 18, 16)),
])
def test_one_cube_per_element(values, shape):
    grid = CubeGrid(values)
    assert grid.grid_shape == shape
    assert grid.cell_count == values.size
    assert grid.points.shape == (values.size * 8, 3)


def test_axes_follow_the_convention():
    grid = CubeGrid(np.zeros((3, 4, 5)))
    centers = grid.cell_centers()
    pitch = grid.pitch
    # columns run left to right, rows top to bottom, heads into depth (head 0 in front)
    assert np.allclose(centers[0, 0, 1] - centers[0, 0, 0], [pitch, 0, 0])
    assert np.allclose(centers[0, 1, 0] - centers[0, 0, 0], [0, -pitch, 0])
    assert np.allclose(centers[1, 0, 0] - centers[0, 0, 0], [0, 0, -pitch])
    assert np.allclose(grid.get_center(), 0.0)
    x, row, head = grid.axis_vectors()
    assert np.allclose([x, row, head], [[1, 0, 0], [0, -1, 0], [0, 0, -1]])


def test_a_1d_vector_can_be_a_row():
    assert CubeGrid(np.arange(18.0), vector="row").grid_shape == (1, 1, 18)


def test_colors_follow_the_rainbow_and_rise_with_value():
    grid = CubeGrid(np.linspace(-3.0, 5.0, 9))
    hues = [hue(c) for c in grid.cube_rgb]
    assert hues[0] == pytest.approx(270, abs=0.5) and hues[-1] == pytest.approx(0, abs=0.5)
    assert all(a > b for a, b in zip(hues, hues[1:]))  # purple (270) down to red (0)
    assert np.allclose(rainbow(np.array([0.0])), [[127 / 255, 0, 1]], atol=0.003)


def test_shared_range_keeps_x_and_xt_colors():
    x = TRACE["s02_embedded_sentence"]
    X = CubeGrid(x)
    XT = CubeGrid(x.T, value_range=X.value_range)
    rgb_x = X.cube_rgb.reshape(8, 16, 3)
    rgb_xt = XT.cube_rgb.reshape(16, 8, 3)
    assert np.allclose(rgb_x, rgb_xt.transpose(1, 0, 2))
    narrow = CubeGrid(x, value_range=(0.0, 1.0))
    assert not np.allclose(narrow.cube_rgb, X.cube_rgb)


def test_constant_tensor_gets_the_middle_color():
    assert np.allclose(CubeGrid(np.ones((2, 2))).cube_rgb, value_colors(np.array([0.5]), (0, 1)))


def test_moves_like_a_mobject():
    grid = CubeGrid(np.arange(6.0).reshape(2, 3))
    grid.shift(2 * RIGHT).rotate(np.pi / 2, axis=UP).scale(0.5)
    assert np.allclose(grid.get_center(), [2, 0, 0])
    assert grid.pitch == pytest.approx(0.5 * (grid.cube_size + grid.gap))


def test_transform_recolors_along_the_rainbow():
    """Half-way from purple (the smallest) to red (the largest) a cube is the
    rainbow's middle (green), not a blend of purple and red (magenta): every
    frame shows colors a value can have. A grey slot filling in blends."""
    a = CubeGrid(np.arange(4.0).reshape(2, 2))
    b = CubeGrid(np.arange(4.0)[::-1].reshape(2, 2))
    anim = Transform(a, b)
    anim.begin()
    anim.interpolate(0.5)
    start, end = anim.starting_mobject.cube_t, b.cube_t
    assert np.allclose(a.cube_rgb, rainbow((start + end) / 2))
    assert np.allclose(a.cube_rgb[0], rainbow(np.array(0.5)))  # purple to red passes through green
    anim.interpolate(1.0)
    assert np.allclose(a.cube_rgb, b.cube_rgb)
    slot = CubeGrid(np.arange(4.0)).empty()
    filling = Transform(slot, slot.copy().fill())
    filling.begin()
    filling.interpolate(0.5)
    assert np.allclose(slot.cube_rgb, (filling.starting_mobject.cube_rgb + filling.target_mobject.cube_rgb) / 2)


def test_transform_to_another_shape_is_refused_clearly():
    with pytest.raises(ValueError, match="different shape"):
        CubeGrid(np.zeros((2, 3))).align_points(CubeGrid(np.zeros((3, 3))))


def test_subgrid_and_split_keep_place_and_colors():
    grid = CubeGrid(TRACE["s19_multihead_context_vectors"])
    row = grid.subgrid((0, 2))
    assert row.cell_count == 18
    assert np.allclose(row.cell_centers().reshape(-1, 3), grid.cell_centers()[0, 2])
    assert np.allclose(row.cube_rgb, grid.cube_rgb.reshape(9, 8, 18, 3)[0, 2])
    slices = grid.split(axis=0)
    assert len(slices) == 9 and slices[4].grid_shape == (1, 8, 18)
    assert np.allclose(slices[4].values[0], TRACE["s19_multihead_context_vectors"][4])


def test_highlight_and_paint():
    grid = CubeGrid(np.arange(12.0).reshape(3, 4))
    grid.highlight((0, 1))
    assert np.allclose(grid.cube_opacity.reshape(3, 4)[1], 1.0)
    assert np.all(grid.cube_opacity.reshape(3, 4)[[0, 2]] < 0.5)
    grid.paint((0, 1), np.array([0.0, 0.0, 0.0, 1.0]), (0.0, 1.0))
    assert np.allclose(grid.cube_rgb.reshape(3, 4, 3)[1, 3], [1, 0, 0])


def test_an_empty_slot_shows_no_value_until_it_is_filled():
    """A result's slots are one grey before they are computed (never a faint
    preview of the pattern to come); a slot made fully opaque shows its value."""
    from scenes.components.palette import SLOT_RGB

    values = np.arange(12.0).reshape(3, 4)
    grid = CubeGrid(values).set_cell_opacity(0.1).empty()
    assert np.allclose(grid.cube_rgb, SLOT_RGB)
    grid.recolor(values * 2)  # new values behind an empty slot stay unseen
    assert np.allclose(grid.cube_rgb, SLOT_RGB)
    grid.set_cell_opacity(0.45, (0, 1))  # being formed: still grey
    assert np.allclose(grid.cube_rgb, SLOT_RGB)
    grid.set_cell_opacity(1.0, (0, 1))
    rgb = grid.cube_rgb.reshape(3, 4, 3)
    assert np.allclose(rgb[1], value_colors(values[1] * 2, grid.value_range))
    assert np.allclose(rgb[[0, 2]], SLOT_RGB)
    assert np.allclose(grid.subgrid((0, 2)).cube_rgb, SLOT_RGB)  # a piece of a slot is a slot
    grid.fill()
    assert np.allclose(grid.cube_rgb, value_colors(values.reshape(-1) * 2, grid.value_range))


def test_zero_is_one_color_on_every_block_of_both_signs():
    """0 is the rainbow's middle (green) on any range of both signs, however
    lopsided; each side runs linearly to its own end (positions worked by
    hand); a side under a hundredth of the other is rounding's dust, drawn as 0."""
    for low, high in [(-6.09, 0.42), (-2.84, 2.25), (-146.0, 128.0), (-0.31, 2.43)]:
        grid = CubeGrid(np.array([[low, low / 2, 0.0, high / 2, high]]))
        assert np.allclose(grid.cube_rgb, rainbow(np.array([0.0, 0.25, 0.5, 0.75, 1.0])))
    dust = CubeGrid(np.array([[-0.176, -0.088, 0.0, 0.0004]]))  # under a hundredth of the other side: 0
    assert np.allclose(dust.cube_rgb, rainbow(np.array([0.0, 0.25, 0.5, 0.5])))
    dust = CubeGrid(np.array([[-0.0003, 0.0, 0.69]]))
    assert np.allclose(dust.cube_rgb, rainbow(np.array([0.5, 0.5, 1.0])))
    weights = CubeGrid(np.array([[0.0, 0.25, 1.0]]))
    assert np.allclose(weights.cube_rgb, rainbow(np.array([0.0, 0.25, 1.0])))  # one sign: min to max


def test_a_scale_of_both_signs_writes_its_middle():
    """A scale of both signs is anchored on 0: the bar says its middle is 0,
    lopsided or not; a scale of one sign has none."""
    from scenes.components.colorbar import ScaleBar

    centred, plain = ScaleBar((-4.55, 4.55)), ScaleBar((0.1, 4.55))
    lopsided, dust = ScaleBar((-6.09, 0.42)), ScaleBar((-0.176, 0.0004))
    assert lopsided.zero is not None and dust.zero is not None
    # rounding's dust drawn as 0: "−0.176 ▮▮ 0", no half and no end for it
    assert [t.text for t in dust.ticks] == ["−0.176", "0"] and dust.ticks[1] is dust.zero
    assert dust.get_right()[0] <= dust.zero.get_right()[0] + 1e-6
    assert abs(lopsided.width - plain.width) < 0.6  # as long as a one-sign bar, give or take the ticks
    assert centred.zero is not None and centred.zero.text == "0"
    low, high = centred.ticks
    assert low.get_right()[0] < centred.zero.get_center()[0] < high.get_left()[0]
    middle = (low.get_right()[0] + high.get_left()[0]) / 2
    assert abs(centred.zero.get_center()[0] - middle) < 0.05
    assert plain.zero is None


def test_enclosed_cubes_are_skipped_unless_exposed():
    grid = CubeGrid(np.zeros((3, 3, 3)))
    assert 13 not in grid.drawn_cells()  # the centre cube is enclosed
    assert len(grid.drawn_cells()) == 26
    grid.highlight((1,))  # the middle slice lit, the rest dimmed: the centre shows
    assert 13 in grid.drawn_cells()
    assert len(CubeGrid(np.zeros((1, 5, 5))).drawn_cells()) == 25


def test_box_corners_and_surface_cells():
    grid = CubeGrid(np.zeros((3, 4, 5))).rotate(0.7, axis=UP)
    box = grid.box_corners()
    # the box's corners are cube corners at the block's extremes, its faces outward
    assert np.allclose(box.mean(axis=0), grid.get_center())
    for face in FACES:
        normal = np.cross(box[face[1]] - box[face[0]], box[face[2]] - box[face[1]])
        assert normal @ (box[face].mean(axis=0) - grid.get_center()) > 0
    # seen: x- (column 0), y+ (row 0), z+ (head 0)
    seen = np.array([True, False, False, True, False, True])
    cells = grid.surface_cells(seen)
    d, r, c = np.unravel_index(cells, grid.grid_shape)
    assert np.all((c == 0) | (r == 0) | (d == 0))
    assert len(cells) == 3 * 4 * 5 - 2 * 3 * 4  # all but the 2x3x4 cells off those faces
    assert np.array_equal(grid.drawn_cells(seen), cells)  # opaque: the surface only
    grid.highlight((1,))
    assert len(grid.drawn_cells(seen)) == 3 * 4 * 5  # see-through: every cell


def orbit_camera(yaw, pitch, **config):
    camera = CubeCamera(**config)
    for key, value in view_angles(yaw, pitch).items():
        getattr(camera, f"set_{key}")(value)
    camera.reset_rotation_matrix()
    return camera


def test_opaque_block_shows_no_background_through_its_gaps():
    from manim import tempconfig

    block = CubeGrid(TRACE["s13_multihead_U_query"], cube_size=0.12, gap=0.03)
    with tempconfig({"pixel_width": 854, "pixel_height": 480}):
        for yaw, pitch in ((0.05, 0.02), (0.35, 0.25), (1.05, 0.3)):
            camera = orbit_camera(yaw, pitch)
            polygons, colors, groups = project_cube_faces(camera, [block], HEADLIGHT)
            assert groups == []
            # fewer faces than the cubes of the shell would give, the far walls first
            assert len(polygons) < 3 * len(block.drawn_cells())
            mean = block.cube_rgb.mean(axis=0) * HEADLIGHT.ambient
            assert np.allclose(colors[0, :3], mean[::-1]) and colors[0, 3] == 1.0
            camera.reset()
            camera.display_cube_grids([block], camera.pixel_array)
            image = camera.pixel_array[..., :3].astype(int)
            background = image[0, 0]
            # inside the block's outline (a margin of 2 pixels in), no background shows
            inside = np.zeros(image.shape[:2], bool)
            rows, cols = np.nonzero(np.abs(image - background).sum(axis=-1) > 0)
            for y in np.unique(rows):
                xs = cols[rows == y]
                inside[y, xs.min() + 2:xs.max() - 1] = True
            inside[:rows.min() + 2] = inside[rows.max() - 1:] = False
            leaks = inside & (np.abs(image - background).sum(axis=-1) < 12)
            assert leaks.sum() == 0, (yaw, pitch, leaks.sum())


def test_a_fading_block_fades_as_one_solid():
    from manim import tempconfig

    block = CubeGrid(TRACE["s13_multihead_U_key"], cube_size=0.12, gap=0.03)
    with tempconfig({"pixel_width": 427, "pixel_height": 240}):
        camera = orbit_camera(0.35, 0.25)
        camera.reset()
        camera.display_cube_grids([block], camera.pixel_array)
        solid = camera.pixel_array.astype(float)
        background = solid[0, 0]
        block.set_opacity(0.4)
        polygons, colors, groups = project_cube_faces(camera, [block], HEADLIGHT)
        assert groups == [(0, len(polygons), pytest.approx(0.4))]
        assert np.all(colors[:, 3] == 1.0)  # opaque inside the group
        camera.reset()
        camera.display_cube_grids([block], camera.pixel_array)
        faded = camera.pixel_array.astype(float)
        # every pixel 40 % of the way from the background to the solid block
        assert np.abs(faded - (0.6 * background + 0.4 * solid)).max() <= 2.0
        # a highlight (opacities differ) stays see-through, cube by cube
        block.highlight((0,))
        assert project_cube_faces(camera, [block], HEADLIGHT)[2] == []


def test_a_block_layer_that_stands_still_is_drawn_once(monkeypatch):
    from manim import tempconfig

    with tempconfig({"pixel_width": 320, "pixel_height": 180}):
        camera = orbit_camera(0.35, 0.25)
        grids = [CubeGrid(TRACE["s13_multihead_U_key"], cube_size=0.1, gap=0.02).shift(LEFT),
                 CubeGrid(TRACE["s02_embedded_sentence"]).shift(2 * RIGHT)]
        drawn = []
        draw = CubeCamera.display_cube_grids
        monkeypatch.setattr(CubeCamera, "display_cube_grids",
                            lambda self, *args: drawn.append(1) or draw(self, *args))

        def frame():
            camera.reset()
            camera.capture_mobjects(grids)
            return camera.pixel_array.copy()

        first, second, third = frame(), frame(), frame()
        assert len(drawn) == 2  # drawn, drawn again and kept, then copied
        assert np.array_equal(first, third) and np.array_equal(second, third)
        grids[1].recolor(-TRACE["s02_embedded_sentence"])  # a block changes: drawn anew
        changed = frame()
        assert len(drawn) == 3 and not np.array_equal(changed, third)
        grids[1].recolor(TRACE["s02_embedded_sentence"])
        frame(), frame()
        camera.set_frame_to_background(np.zeros_like(camera.pixel_array))  # another start image
        camera.capture_mobjects(grids)
        assert len(drawn) == 6
        for key, value in view_angles(0.4, 0.25).items():  # the camera turns
            getattr(camera, f"set_{key}")(value)
        frame()
        assert len(drawn) == 7


def test_faces_are_outward_and_counter_clockwise():
    for face in FACES:
        p = CORNERS[face]
        normal = np.cross(p[1] - p[0], p[2] - p[1])
        assert normal @ p.mean(axis=0) > 0


def test_projection_culls_back_faces_and_sorts_back_to_front():
    camera = CubeCamera()
    for key, value in view_angles(0.4, 0.3).items():
        getattr(camera, f"set_{key}")(value)
    camera.reset_rotation_matrix()
    near = CubeGrid(np.zeros((2, 2)), value_range=(0.0, 1.0))  # purple
    far = CubeGrid(np.ones((2, 2)), value_range=(0.0, 1.0)).shift([0, 0, -3])  # red
    polygons, colors, groups = project_cube_faces(camera, [near, far], HEADLIGHT)
    # 8 cubes, 3 faces of each turned to a camera above and to the left
    assert polygons.shape == (24, 4, 2)
    # colors come as cairo wants them (blue, green, red, alpha); red has no blue
    assert np.allclose(colors[:12, 0], 0.0)  # the far (red) grid is drawn first
    assert np.all(colors[12:, 0] > 0.4)  # then the near purple one over it
    assert np.allclose(colors[:, 3], 1.0)


def test_view_angles_keep_y_up():
    camera = CubeCamera()
    for key, value in view_angles(0.5, 0.2).items():
        getattr(camera, f"set_{key}")(value)
    camera.reset_rotation_matrix()
    up = camera.get_rotation_matrix() @ np.array([0, 1.0, 0])
    assert abs(up[0]) < 1e-9 and up[1] > 0.9


def test_a_moving_block_stays_under_a_label_that_stands_still(monkeypatch):
    """Manim draws what moves over the static image; a block recoloring under a
    label must not cover it (the label is drawn over every block)."""
    from manim import WHITE, Square, ThreeDScene, tempconfig

    from scenes.engine.manim_hooks import CubeRenderer

    values = TRACE["s02_embedded_sentence"]
    frames = []

    class LabelOverBlock(ThreeDScene):
        def construct(self):
            grid = CubeGrid(values, cube_size=0.3, gap=0.05)
            label = Square(0.6, fill_color=WHITE, fill_opacity=1.0, stroke_width=0).move_to([0, 0, 2])
            self.add(label, grid)  # the label first: Manim keeps it in the static image
            self.play(grid.animate.recolor(-values), run_time=0.2)

    monkeypatch.setattr(CubeRenderer, "add_frame", lambda self, frame, num_frames=1: frames.append(frame.copy()))
    with tempconfig({"pixel_width": 320, "pixel_height": 180, "frame_rate": 15, "format": "none",
                     "disable_caching": True, "progress_bar": "none", "verbosity": "ERROR"}):
        scene = LabelOverBlock(renderer=CubeRenderer(camera_class=CubeCamera), camera_class=CubeCamera)
        scene.render()
    assert len(frames) >= 3
    # the block moves (its colors change) ...
    assert not np.array_equal(frames[1][..., :3], frames[-1][..., :3])
    # ... and the label over its middle stays white in every frame
    for frame in frames:
        assert np.all(frame[85:95, 155:165, :3] == 255)
