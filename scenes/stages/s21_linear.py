"""Stage 21: Linear(162, 18): every output cell is a row of multihead_flattened against a row of W,
162 products summed; the cells of row 0 up close, each with its products, then the other rows, row after row;
then the bias on every row."""

import numpy as np
from manim import DOWN, LEFT, OUT, RIGHT, UP, VGroup, color_to_rgb

from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import appear, at_end, at_once, swap, vanish
from scenes.components.labels import TEXT_SIZE, BlockLabel, note_text, shape_text
from scenes.components.numbers import cell_arithmetic, shown_sum, shown_value, sum_terms, tick_values
from scenes.components.projection import FRONT, project_at, world_at_screen
from scenes.layout import LABEL_BUFF, Margins
from scenes.layout.fit import LABEL_GAP
from scenes.layout.area import MAX_PITCH, StageArea
from scenes.motions.bias import add_bias_rows
from scenes.motions.matmul import (SLOT_OPACITY, frame_around, own_range, running_sum, signs_between,
                                   sums_so_far, sweep_rows)

__all__ = ["LinearProjection"]

BIAS_ROOM = 1.2  # above the result: the bias row and its gap
SIMILAR = 0.995  # two output rows whose cosine is at least this are said to be alike
BAND_GAP = 0.12  # between two bands of the layout
ROW_SHARE = 0.6  # of the products' cube size: row 0 of the result over them, its columns not lined up with theirs


class LinearProjection(StageScene):
    code_steps = {"operands": (0,), "first cell": (1,)}
    number = 21
    title = "Output projection: Linear({concat}, {d_out})"
    paper_title = "Output projection W_O: Linear({concat}, {d_out})"
    summary = ("multihead_flattened (8×162) @ W.T: every output cell a row of multihead_flattened against a row of "
               "W (18×162), 162 products summed; then the bias added to every row: 8×18 like stage 12")
    code = ("linear = torch.nn.Linear(h*d_v, d_v)  # {concat} in, {d_out} out; W = linear.weight: {d_out}×{concat}\n"
            "output = linear(multihead_flattened)  # multihead_flattened @ W.T + linear.bias")
    paper_code = ("W_O = torch.nn.Linear(d, d)  # {concat} in (h × d/h = d), {d_out} out; W = W_O.weight: "
                  "{d_out}×{concat}\n"
                  "output = W_O(multihead_flattened)  # multihead_flattened @ W.T + W_O.bias")
    formula_tex = r"\mathrm{output} = \mathrm{flattened}\; W^{\top} + b"

    def storyboard(self):
        flat = self.trace["s20_multihead_flattened"]
        weight = self.trace["s21_linear_weight"]
        bias = self.trace["s21_linear_bias"]
        before = self.trace["s21_before_bias"]
        output = self.trace["s21_output"]
        tokens, width = flat.shape
        d_out = weight.shape[0]

        self.step("operands")
        self.viewpoint.look_from(FRONT)
        flat_grid = self.block("s20_multihead_flattened", "multihead_flattened", direction=UP, stacked=False)
        w = CubeGrid(weight, dims=self.trace.axes("s21_linear_weight"))
        self.layout.name(w, "W", DOWN, stacked=False)
        result = CubeGrid(before, dims=self.trace.axes("s21_output"))
        label = self.layout.bind(result, BlockLabel("multihead_flattened @ W.T", before.shape, self.theme,
                                                    result.value_range))  # one line: the rows need the height
        label.side = LEFT
        result.set_cell_opacity(SLOT_OPACITY).empty()
        self.lay_out(flat_grid, w, result)
        self.say(f"output = multihead_flattened @ W.T + bias: cell [i, j] is row i of multihead_flattened against "
                 f"row j of W, both {width} long")
        self.play(*[appear(m) for m in (flat_grid, w, result)],
                  *[appear(m.label) for m in (flat_grid, w, result)], run_time=1.0)
        self.wait(0.6)
        # why the output is this wide, said as W is first seen (said only where the rows did not come out alike,
        # at the end, an output of d_v = 18 against X's d = 16 stopped a lecturer: 21, the 49th reader)
        self.say(self.width_of(d_out, width))
        self.wait(1.2)

        self.step("first cell")
        whole = [flat_grid, w, result, flat_grid.label, w.label, result.label]
        # the two rows framed in the whole blocks, then the same two rows large (the cell's bench)
        frames = VGroup(frame_around(self.layout, flat_grid, (0, 0)), frame_around(self.layout, w, (0, 0)))
        self.play(appear(frames, rate_func=at_once), *self.saying(
            "cell [0, 0]: row 0 of multihead_flattened against row 0 of W, number by number"), run_time=0.6)
        self.wait(0.8)
        cube, bench = self.first_cell(flat, weight, before, leaving=(*whole, frames))
        self.step("row 0")
        if d_out > 1:
            # the rest of row 0 up close, then back to the whole blocks: row 0 into the result's first row
            close_up = [bench[0], bench[2], bench[4], *self.row_up_close(flat, weight, before, bench[1], bench[4],
                                                                          cube)]
            # row 0 as it was formed goes into the result's first row as the whole blocks come back
            row0 = next(m for m in close_up if isinstance(m, CubeGrid) and m.grid_shape == (1, 1, d_out))
            there = row0.copy().scale(result.pitch / row0.pitch).align_cell((0, 0, 0), result.cell_center(0, 0))
            row0.part_of, row0.label = result, None
            self.play(*[vanish(m, rate_func=at_once) for m in close_up if m is not row0],
                      *[appear(m, rate_func=at_once) for m in whole], row0.animate.become(there), *self.saying(
                          f"row 0's {d_out} cells in their places: every cell is such a row against a row of W"),
                      run_time=0.8)
            self.remove(*close_up)
            result.fill((0, 0)).set_cell_opacity(1.0, (0, 0))  # the cells just seen, in their places
        else:  # back to the whole blocks: the sum goes into the result's one cell of row 0
            there = cube.copy().scale(result.pitch / cube.pitch).align_cell((0, 0, 0), result.cell_center(0, 0))
            cube.part_of = result
            self.play(*[vanish(m, rate_func=at_once) for m in bench], *[appear(m, rate_func=at_once) for m in whole],
                      cube.animate.become(there), *self.saying(
                          "cell [0, 0] in its place: every cell is such a row against a row of W"), run_time=0.8)
            self.remove(cube)
            result.fill((0, 0, 0)).set_cell_opacity(1.0, (0, 0, 0))
        self.wait(0.4)
        self.step("rows")
        if tokens > 1:
            sweep_rows(self, self.layout, flat_grid, w, result, min(4.0, 1.0 + 0.4 * tokens), start=1,
                       told=self.saying(f"the remaining rows of multihead_flattened against all of W, row after row: "
                                        f"{shape_text(before.shape)} before the bias"))
        self.wait(0.6)
        self.total = result
        self.step("bias")
        beside = result.label  # its name goes under it as it takes the stage: on its left, it took the room
        self.layout.name(result, "multihead_flattened @ W.T", DOWN)  # the bias's name needs on the right
        self.add_bias(before, bias, output, leaving=[flat_grid, w, flat_grid.label, w.label], renamed=beside)

    def lay_out(self, flat_grid, w, result) -> None:
        """Top to bottom, on screen, from the left edge: multihead_flattened's
        name, multihead_flattened, W (its columns under
        multihead_flattened's: the same pitch, the same left edge),
        W's name; the result's slots, named on their left, in the band under
        W right of W's name, or right of W where the operands are narrow and
        that gives the cubes more room. Each name on one line, its scale
        under it (a long inner axis leaves the rows little height)."""
        layout = self.layout
        area = layout.area()
        tokens, width = flat_grid.grid_shape[1:]
        d_out = w.grid_shape[1]
        rows = tokens + d_out
        fixed = flat_grid.label.height + 2 * LABEL_BUFF + 2 * BAND_GAP
        beside = result.label.width + LABEL_BUFF + LABEL_GAP  # the result's name, and a gap before it
        # the result under W (its band as tall as the names), or right of W at the operands' pitch
        under = min(area.width / width, (area.height - fixed - max(w.label.height, result.label.height)) / rows)
        right = min((area.width - beside) / (width + d_out), (area.height - fixed - w.label.height) / rows)
        pitch = min(max(under, right), MAX_PITCH)
        top = area.top - flat_grid.label.height - LABEL_BUFF
        a_band = StageArea(area.left, area.left + width * pitch, top - tokens * pitch, top)
        top = a_band.bottom - 2 * BAND_GAP
        w_band = StageArea(area.left, area.left + width * pitch, top - d_out * pitch, top)
        for grid, band in ((flat_grid, a_band), (w, w_band)):
            layout.fit([grid], view=FRONT, area=band, max_pitch=pitch)
        flat_grid.label.side = UP
        w_left, w_bottom, w_right, w_top = layout.screen_box([w], view=FRONT)
        self.flush(layout.beside([flat_grid], flat_grid.label, UP, buff=LABEL_BUFF, view=FRONT), w_left)
        self.flush(layout.beside([w], w.label, DOWN, buff=LABEL_BUFF, view=FRONT), w_left)
        layout.upright(flat_grid.label, w.label)
        if right > under:
            room = StageArea(w_right + beside, area.right, w_bottom, w_top)
        else:
            room = StageArea(w_left + w.label.width + beside, area.right, area.bottom, w_bottom - LABEL_BUFF)
        layout.fit([result], view=FRONT, area=room)
        layout.beside([result], result.label, LEFT, buff=LABEL_BUFF, view=FRONT)
        layout.upright(result.label)

    def flush(self, label, left: float):
        """``label`` moved along its line so its left edge is at ``left``, seen from the front."""
        center = label.get_center()
        y = project_at(self.camera, center[None], FRONT)[0][1]
        label.move_to(world_at_screen(self.camera, (left + label.width / 2, y), center, FRONT))
        return label

    def first_cell(self, flat, weight, before, leaving=()):
        """Cell [0, 0], large, before the whole blocks: row 0 of
        multihead_flattened and row 0 of W, each drawn as its heads' rows
        (9 of 18: a 162-long row at a readable size, as stage 20 built it),
        multiplied number by number into their products (on their own
        colors), which close up into one cube: the cell (4-5 px a number in
        the whole blocks, "row 0 against row 0 of W" could not be seen:
        21_0042, the 29th reader). ``leaving``: the whole blocks, gone as the
        rows come. Returns the cube and the bench, left on screen."""
        layout = self.layout
        heads = self.cfg.heads
        width = flat.shape[1]
        shape = (heads, width // heads)
        products = flat[0] * weight[0]
        # each on its own colors (a close-up: the whole tensor's scale, said under each, made names too wide
        # to stand side by side)
        row = CubeGrid(flat[0].reshape(shape), value_range=own_range(flat[0]))
        w_row = CubeGrid(weight[0].reshape(shape), value_range=own_range(weight[0]))
        prods = CubeGrid(products.reshape(shape), value_range=own_range(products))
        split = f", {heads} rows of {shape[1]}: head by head" if heads > 1 else ""
        for grid, name in ((row, "multihead_flattened[0]"), (w_row, "W[0]"), (prods, self.products_of(0))):
            self.name_close_up(grid, name, width)
            grid.label.side = DOWN
        # W[0]'s name over it, the others' under theirs, each block in a part as wide as its name needs (three
        # names side by side need more than the frame's width: the first ran into the second's and stood at
        # the frame's edge, 21_0048)
        area = layout.area()
        w_row.label.side = UP
        room = Margins(top=w_row.label.height + LABEL_BUFF + 0.1,
                       bottom=max(g.label.height for g in (row, w_row, prods)) + LABEL_BUFF + 0.1)
        pitch = min(min(area.width / 3 - 1.0, 4.2) / shape[1], (area.height - room.top - room.bottom) / shape[0])
        needs = [row.label.width + LABEL_GAP, max(w_row.label.width, shape[1] * pitch) + LABEL_GAP,
                 prods.label.width + LABEL_GAP]
        cuts = np.concatenate([[0.0], np.cumsum(needs) / sum(needs)])
        for n, grid in enumerate((row, w_row, prods)):
            part = area.part(cuts[n], cuts[n + 1])
            layout.fit([grid], view=FRONT, area=part, margins=room, max_pitch=pitch)
            layout.place(grid)
        signs = signs_between(layout, row, w_row, prods, marks=("*", "="))
        self.play(*[vanish(m, rate_func=at_once) for m in leaving],
                  *[appear(m, rate_func=at_once) for m in (row, w_row, row.label, w_row.label,
                                                           signs[0])], *self.saying(
            f"cell [0, 0]: row 0 of multihead_flattened against row 0 of W (column 0 of W.T), "
            f"{width} numbers each{split}"), run_time=0.5)
        self.wait(1.0)
        # the products where the two rows meet: number by number, head row by head row; their name and the "="
        # at once (faded in with them, a still caught the name half-faded: 21_0075 at 2 words, 1 head)
        self.play(appear(prods), appear(prods.label, rate_func=at_once), appear(signs[1], rate_func=at_once),
                  *self.saying(f"number by number: multihead_flattened[0, k] · W[0, k], {width} products on their "
                               f"own colors"), run_time=1.2)
        self.wait(1.0)
        self.say(cell_arithmetic("", flat[0], weight[0], before[0, 0], cell="cell [0, 0]")
                 + ": the products summed")
        at, pitch = prods.cell_center(0, 0), prods.pitch
        # each row's products added one by one, as a matmul's cell (:func:`running_sum`): a cube in the ink's
        # color, a sum in progress on no bar (on the sums', a pile beside the products' bar read as a
        # contradiction, 21_0173, the 44th reader), goes along the row from its end, taking them in, and
        # ends as the row's sum in its first
        # column (squashed into a band of the products' colors, the elementwise products were never seen
        # summed: 21_0170, the 42nd reader); the products' name stays on what is left of them. The "=" goes:
        # what the products become is not their equal (the row sums after "multihead_flattened[0] * W[0] ="
        # read as a wrong equation: 21_0170, the 40th reader)
        self.products_place = prods.copy()  # where the next cells' products stand (:meth:`row_up_close`)
        rows = products.reshape(shape)
        parts = rows.sum(axis=1)
        partial = sums_so_far(rows, parts if heads > 1 else before[0, 0], axis=1, reverse=True)
        ink = color_to_rgb(self.theme.ink)  # sums in progress, on no bar (as a matmul's)
        pile, adding = running_sum(prods, partial, prods.value_range, 0, reverse=True, toward=OUT * pitch,
                                   color=ink)  # toward the eye: over the product it is reaching
        self.add(pile)
        self.play(*adding, vanish(signs[1], rate_func=at_once),  # one head: the products' name goes with the last
                  *([vanish(prods.label, rate_func=at_end)] if heads == 1 else []), run_time=1.2)
        self.remove(pile)
        last = prods
        if heads > 1:
            # the 162-term sum in two steps a still can catch: each head's row of products into one number (the
            # head's part of the cell), then those parts into the cell (the fold of all 162 at once was between
            # every reader's stills: "the 162-term sum never visibly happens", the 31st reader)
            sums = CubeGrid(parts.reshape(heads, 1), value_range=own_range(parts))
            sums.scale(pitch / sums.pitch).align_cell((0, 0, 0), at)
            self.layout.bind(sums, BlockLabel("row sums", (heads,), self.theme, sums.value_range, stacked=True,
                                              note="one per head"))
            self.remove(prods)
            self.add(sums)
            added = shown_sum(parts, before[0, 0])
            written = added.rsplit(" ", 1)[-1]  # the cell as the sum writes it
            # the nine sums grow where the products were, each with its number beside it, as the caption adds
            # them (a column of nine 4-px cubes beside "=" was invisible, its numbers in a caption from edge to
            # edge: 21_0166, the 34th reader)
            grown = self.grown_sums(sums, prods, sums.label)
            numbers = self.numbers_beside(grown, sum_terms(parts, before[0, 0]))
            self.layout.bind(grown, sums.label)
            grown.label.side = DOWN
            self.layout.place(grown)
            self.layout.inside(grown.label, view=FRONT)
            self.play(sums.animate.become(grown), appear(sums.label, rate_func=at_once),
                      vanish(prods.label, rate_func=at_once), *self.saying(
                f"each row's {shape[1]} products summed: {heads} row sums, head 0's part of the cell, head 1's, …"),
                      run_time=0.6)
            self.play(appear(numbers, rate_func=at_once), run_time=0.2)
            self.wait(1.6)
            self.say(f"cell [0, 0], before the bias = the {heads} row sums added: {written}")
            at, pitch = sums.cell_center(heads - 1, 0), sums.pitch
            last = sums
            # added one by one into the cell, the same way, down the column from its top to its foot, toward
            # their name (up it, the one cube ended at the stage area's top beside W[0]'s name, the name "row
            # sums" under an emptied column: 21_0186, the 46th reader), in the ink's color; named while they are
            # added (their name gone at the start, a still showed a column of nine small cubes, unnamed: 21_0161);
            # the name goes as the cell's comes, the numbers at once
            partial = sums_so_far(parts, before[0, 0])
            pile, adding = running_sum(sums, partial, sums.value_range, 1, toward=OUT * pitch, color=ink)
            self.add(pile)
            # their name goes with the last of them (held to the play's end, it named one white cube, the pile:
            # 21_0186, the 49th reader)
            self.play(*adding, vanish(numbers, rate_func=at_once), vanish(sums.label, rate_func=at_end),
                      run_time=1.0)
            self.remove(pile)
        else:
            written = shown_value(float(before[0, 0]))
        cube = row.like(before[:1, :1], (float(before.min()), float(before.max())))
        cube.scale(pitch / cube.pitch).align_cell((0, 0, 0), at)
        # as the pile left it while the row sums' name is there (on the output's from its first frame, a still
        # showed it under "row sums" on another scale: 21_0186, the 47th reader); the output's as it goes to its
        # place, their name gone
        leaving = cube.copy()
        cube.cube_rgb[:], cube.cube_t[:] = ink, np.nan  # the sum as the pile left it, on no bar (on the row
        # sums', the sum of them came out orange, then yellow-green on the output's: 21_0186, the 48th reader)
        # the sum named with its number where it stands (one small cube, unnamed, read as a stray: 21_0166),
        # over the place of the products it came from, named over it (at the row sums' top, its name ran into
        # W[0]'s; under it, level with the rows, onto W[0] where the blocks are wide: 16 long words, 8 heads)
        level = self.over_products(leaving)
        self.layout.name(cube, f"cell [0, 0] = {written}", UP, shape=(), scale=False, note=None)
        self.layout.bind(level, cube.label)
        self.layout.place(level)
        self.layout.inside(cube.label, view=FRONT)
        self.remove(last)
        self.add(cube)
        self.play(cube.animate.become(level), run_time=0.4)
        cube.recolor(before[:1, :1], leaving.value_range)  # the output's colors, as it stands now
        self.layout.bind(cube, cube.label)
        self.play(appear(cube.label, rate_func=at_once), run_time=0.2)
        self.wait(1.0)
        return cube, [row, w_row, row.label, w_row.label, signs, cube.label]

    def name_close_up(self, grid, name: str, width: int) -> BlockLabel:
        """``grid``, a row ``width`` long drawn as its heads' rows, named
        ``name``, on its own colors, what the drawing is said under the name
        (a 9×18 grid named "162" read as unexplained: 21_0048)."""
        heads = self.cfg.heads
        drawn = f"drawn as {heads} rows of {width // heads}" if heads > 1 else None
        return self.layout.bind(grid, BlockLabel(name, (width,), self.theme, grid.value_range, stacked=True,
                                                 note=drawn))

    @staticmethod
    def products_of(j: int) -> str:
        """The name of row 0's products with row ``j`` of W (on two lines: three names stand side by side)."""
        return f"multihead_flattened[0] *\nW[{j}]"

    def over_products(self, grid):
        """``grid`` (a cell) moved over the place of the products, above their middle."""
        place = self.products_place
        top = self.layout.screen_box([place], FRONT)[3]
        grid.move_to(place.get_center())
        grid.shift(UP * (top - self.layout.screen_box([grid], FRONT)[1] + LABEL_BUFF + 0.1))
        return grid

    def row_up_close(self, flat, weight, before, w_row, signs, cube):
        """The rest of row 0, up close: row after row of W, W[j] (as 9
        rows of 18) takes W[0]'s place beside row 0 of multihead_flattened,
        their products (on their own colors) stand where the first cell's
        did ("row * W[j] = products", ``signs``), and over them ``cube``,
        named with its number, is cell [0, j], quicker and quicker (in the
        whole blocks, 4-px rows of W went by under a frame, "the 162
        products are never seen": 21_0288, the 45th reader). Returns what it leaves on screen (the last W[j], products
        and cell, with their names)."""
        layout = self.layout
        heads = self.cfg.heads
        d_out, width = weight.shape
        shape = (heads, width // heads)
        place = self.products_place
        value_range = (float(before.min()), float(before.max()))  # the cells on the output's colors
        shown = [w_row, w_row.label, cube, cube.label]
        self.say(f"cell [0, j]: row 0 against row j of W, {width} products summed, for j = 1 … {d_out - 1}")
        for j in range(1, d_out):
            w_j = w_row.like(weight[j].reshape(shape), own_range(weight[j]))
            w_j.scale(w_row.pitch / w_j.pitch).align_cell((0, 0, 0), w_row.cell_center(0, 0))
            self.name_close_up(w_j, f"W[{j}]", width).move_to(w_row.label)
            products = flat[0] * weight[j]
            p_j = place.like(products.reshape(shape), own_range(products))
            p_j.scale(place.pitch / p_j.pitch).align_cell((0, 0, 0), place.cell_center(0, 0))
            self.name_close_up(p_j, self.products_of(j), width).side = DOWN
            layout.place(p_j)
            layout.inside(p_j.label, view=FRONT)
            # over its products, row 0 of the result so far: cells 0 … j formed, cell j framed, named with its
            # number (one cube, the cell alone, left "where the number goes" unseen: 21_0311, the 47th reader);
            # its cubes smaller than the products', their columns not lined up (each cell sums all 162
            # products of its W[j], not a column of them)
            c_j = self.row_so_far(before, j, cube.pitch * ROW_SHARE, value_range)
            layout.place(c_j)
            layout.inside(c_j.label, view=FRONT)
            now = [w_j, w_j.label, p_j, p_j.label, c_j, c_j.label, c_j.frame]
            equal = [appear(signs[1], rate_func=at_once)] if j == 1 else []  # row 0 * W[j] = their products
            self.play(*[vanish(m, rate_func=at_once) for m in shown], *[appear(m, rate_func=at_once) for m in now],
                      *equal, run_time=max(0.3, 0.9 * 0.8 ** j))
            self.remove(*shown)
            shown = now
        return shown

    def row_so_far(self, before, j: int, pitch: float, value_range) -> CubeGrid:
        """Row 0 of the result before the bias, cells 0 … ``j`` formed (the
        rest empty slots), cubes ``pitch`` apart, over the products' place,
        on the result's colors, named by cell ``j`` and its number, what
        the row is said under it (no scale: the row's name with its bar
        took four lines and reached the title); ``frame``: a frame on cell
        ``j`` (not shown)."""
        d_out = before.shape[1]
        row = CubeGrid(before[:1], value_range=value_range, dims=("tokens", "outputs"))
        row.scale(pitch / row.pitch)
        if j + 1 < d_out:
            later = (0, 0, slice(j + 1, None))
            row.set_cell_opacity(SLOT_OPACITY, later).empty(later)
        self.over_products(row)
        self.layout.name(row, f"cell [0, {j}] = {shown_value(float(before[0, j]))}", UP, shape=(), scale=False,
                         note="row 0 of the result so far")
        row.frame = frame_around(self.layout, row, (0, 0, j))
        return row

    def grown_sums(self, sums, prods, label) -> CubeGrid:
        """The row sums as a column as tall as the stage area allows with
        ``label`` under it (at most three of the products' pitch), where the
        products stood: left where they began, from the stage area's top.
        Not shown."""
        area = self.layout.area()
        grown = sums.copy()
        rows = sums.grid_shape[1]
        pitch = min(3.0 * sums.pitch, (area.height - label.height - LABEL_BUFF - 0.3) / rows)
        grown.scale(pitch / sums.pitch)
        left, _, _, top = self.layout.screen_box([grown], FRONT)
        grown.shift([self.layout.screen_box([prods], FRONT)[0] - left, area.top - 0.1 - top, 0.0])
        return grown

    def numbers_beside(self, grid, texts) -> VGroup:
        """``texts``, one beside each cube of the column ``grid``, on its right,
        pinned (not shown)."""
        numbers = VGroup()
        for i, text in enumerate(texts):
            number = note_text(text, self.theme, font_size=TEXT_SIZE)
            self.layout.beside([grid.subgrid((0, i))], number, RIGHT, buff=0.15, view=FRONT)
            numbers.add(number)
        self.layout.fixed(*numbers)
        return numbers

    def add_bias(self, before, bias, output, leaving=(), renamed=None):
        """The bias row over the result, on its own colors, then on the
        result's (its size beside the sums' seen), cell [0, 0] and the bias's
        first number framed as the caption adds them, dropped onto every row
        (a broadcast add);
        ``leaving``: the operands, gone as the result takes the stage;
        ``renamed``: the result's old label, giving way to its own as it moves."""
        total = self.total
        words = self.cfg.sentence
        # room on the right for the bias's name (pushed inside the frame, it stood over the cubes: 21_0365)
        named = BlockLabel("bias", (1, bias.shape[0]), self.theme, total.value_range,
                           scale_of="multihead_flattened @ W.T")
        self.close_on(total, *leaving, margins=Margins(left=self.layout.word_room(words), top=BIAS_ROOM,
                                                       right=named.width + 0.3), run_time=1.0, renamed=renamed)
        low, high = tick_values((float(bias.min()), float(bias.max())))
        sum_low, sum_high = tick_values(total.value_range)
        # the bias first on its own colors, then on the sums' (only on the sums' colors, all green, it read as a
        # row that "just sits above the output", never added: 21_0402, the 32nd reader)
        self.say(f"+ bias: one row of {bias.shape[0]} numbers, {low} … {high}, here on its own colors")
        bias_row = total.like(bias[None, :], own_range(bias), dims=(None,) + self.trace.axes("s21_linear_bias"))
        bias_row.align_cell((0, 0, 0), total.cell_center(0, 0) + UP * total.pitch * 2.0)
        self.layout.name(bias_row, "bias", RIGHT)
        self.play(appear(bias_row), appear(self.layout.place(bias_row)))
        self.wait(1.2)
        old_bias = bias_row.label
        bias_row.value_range = total.value_range
        self.layout.name(bias_row, "bias", RIGHT, scale_of="multihead_flattened @ W.T")
        self.layout.place(bias_row)
        self.play(*swap(old_bias, bias_row.label), bias_row.animate.recolor(bias[None, :], total.value_range),
                  *self.saying(f"on the colors of the sums below ({sum_low} … {sum_high}) it is tiny: all green"),
                  run_time=0.6)
        self.wait(1.2)
        old = total.label
        total.value_range = (float(output.min()), float(output.max()))
        self.layout.name(total, "output", DOWN, values=output)
        self.layout.place(total)
        # the cell the caption adds, and the bias's number that goes into it
        marks = VGroup(frame_around(self.layout, bias_row, (0, 0, 0)), frame_around(self.layout, total, (0, 0, 0)))
        self.play(appear(marks, rate_func=at_once), *self.saying(
            f"added to every row (broadcast): cell [0, 0] = {shown_sum([before[0, 0], bias[0]], output[0, 0])}; "
            f"no cell changes by more than {shown_value(float(np.abs(bias).max()))}"), run_time=0.4)
        # renamed "output" half-way through the add, in the play that recolors it
        add_bias_rows(self, total, bias_row, output, total.value_range, naming=swap(old, total.label))
        self.remove(marks)
        # the bias stays over the output it was added to, on its colors: the closing shot shows what made it
        old_bias = bias_row.label
        bias_row.value_range = total.value_range
        self.layout.name(bias_row, "bias", RIGHT, scale_of="output")
        self.layout.place(bias_row)
        self.play(*swap(old_bias, bias_row.label),
                  bias_row.animate.recolor(bias[None, :], total.value_range), run_time=0.6)
        self.wait(1.0)
        self.close_on(total, margins=Margins(left=self.layout.word_room(words), top=BIAS_ROOM,
                                             right=bias_row.label.width + 0.3),
                      run_time=0.8, riders=[bias_row])  # room for every word, the bias's label beside its row
        self.play(appear(self.layout.word_labels(total, words)), run_time=0.5)
        self.say(self.remark(output))
        alike = self.alike(output)
        if alike is not None:
            frames = VGroup(*[frame_around(self.layout, total, (0, row), pad=0.2, stroke=2.5) for row in alike])
            self.play(appear(frames), run_time=0.6)
        self.wait(0.9)

    def alike(self, output):
        """The two most alike rows of the output, if they are alike enough to say so."""
        unit = output / np.linalg.norm(output, axis=1, keepdims=True)
        cos = unit @ unit.T
        np.fill_diagonal(cos, -1.0)
        i, j = np.unravel_index(np.argmax(cos), cos.shape)
        return (int(i), int(j)) if cos[i, j] >= SIMILAR else None

    def width_of(self, d_out: int, width: int) -> str:
        """Why the output has ``d_out`` columns, from the configuration."""
        d, d_v = self.cfg.d, self.cfg.d_v
        if d_out == d:
            return f"W: {width} in, {d_out} out, back to d = {d}, the width of X: a residual can add the two"
        return (f"W: {width} in, {d_out} out: the blog's Linear(h·d_v, d_v) goes back to d_v = {d_v}, stage 12's "
                f"width; the paper's W_O goes to d = {d}, X's width")

    def remark(self, output) -> str:
        """What the output's rows show, said from the numbers."""
        unit = output / np.linalg.norm(output, axis=1, keepdims=True)
        cos = unit @ unit.T
        np.fill_diagonal(cos, -1.0)
        i, j = np.unravel_index(np.argmax(cos), cos.shape)
        words = self.cfg.sentence
        if cos[i, j] >= SIMILAR:
            return (f"rows \"{words[i]}\" and \"{words[j]}\" come out alike (same direction, cosine {cos[i, j]:.3f}): "
                    f"their attention chose the same tokens")
        if self.paper(self.cfg):
            return f"the output: {shape_text(output.shape)}, the shape of the input X (a residual can add them)"
        return f"the output: {shape_text(output.shape)}, a row of {output.shape[1]} numbers for each token"
