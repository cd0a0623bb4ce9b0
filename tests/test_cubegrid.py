"""The cube grid and its camera, without rendering a video."""

import numpy as np
import pytest
from manim import RIGHT, Transform, UP

from scenes.components.camera import CubeCamera, project_cube_faces, view_angles
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


def test_transform_recolors_with_interpolate():
    a = CubeGrid(np.arange(4.0).reshape(2, 2))
    b = CubeGrid(np.arange(4.0)[::-1].reshape(2, 2))
    anim = Transform(a, b)
    anim.begin()
    anim.interpolate(0.5)
    assert np.allclose(a.cube_rgb, (anim.starting_mobject.cube_rgb + b.cube_rgb) / 2)
    anim.interpolate(1.0)
    assert np.allclose(a.cube_rgb, b.cube_rgb)


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


def test_enclosed_cubes_are_skipped_unless_exposed():
    grid = CubeGrid(np.zeros((3, 3, 3)))
    assert 13 not in grid.drawn_cells()  # the centre cube is enclosed
    assert len(grid.drawn_cells()) == 26
    grid.highlight((1,))  # the middle slice lit, the rest dimmed: the centre shows
    assert 13 in grid.drawn_cells()
    assert len(CubeGrid(np.zeros((1, 5, 5))).drawn_cells()) == 25


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
    polygons, colors = project_cube_faces(camera, [near, far], HEADLIGHT)
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
