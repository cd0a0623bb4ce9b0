"""Stage 6: the projection matrices U_query, U_key, U_value, and what each does to one token."""

from manim import DOWN, LEFT, OUT, PI, RIGHT, UP, AnimationGroup, Brace, Group, LaggedStart

from scenes.base import StageScene
from scenes.components.cubegrid import CubeGrid
from scenes.components.fades import all_at_once, appear, at_end, at_once, vanish
from scenes.components.labels import TEXT_SIZE
from scenes.components.projection import FRONT
from scenes.layout import Margins
from scenes.motions.matmul import matmul
from scenes.motions.turns import turn

__all__ = ["ProjectionMatrices"]

BRACE_CHAR = 0.17  # width of one character of a brace's text (TEXT_SIZE)
PROJECTED = (("s07_queries", "q⁽⁰⁾"), ("s08_keys", "k⁽⁰⁾"), ("s09_values", "v⁽⁰⁾"))  # row 0: token 0's


class ProjectionMatrices(StageScene):
    number = 6
    title = "Projection matrices"
    summary = ("U_query, U_key (17×16) and U_value (18×16) side by side; d_k = d+1, d_v = d+2; "
               "what each does to one token's embedding")
    code = "U_query = torch.rand(d_k, d); U_key = torch.rand(d_k, d); U_value = torch.rand(d_v, d)"

    def storyboard(self):
        keys = ("s06_U_query", "s06_U_key", "s06_U_value")
        names = ("U_query", "U_key", "U_value")
        d, d_k, d_v = self.cfg.d, self.cfg.d_k, self.cfg.d_v
        grids = [self.block(k, n, stacked=True) for k, n in zip(keys, names)]
        side = BRACE_CHAR * len(f"d_v = {d_v}") + 0.5
        self.layout.row(*grids, gap=1.2, margins=Margins(left=side, right=side, bottom=0.6))
        self.step("matrices")
        self.say(f"three matrices, {self.weights_words(self.cfg)}: for queries, keys and values")
        for grid in grids:
            self.play(appear(grid), appear(self.layout.place(grid)), run_time=0.7)
        self.wait(0.8)

        self.step("shapes")
        braces = self.shapes(grids, d, d_k, d_v)
        self.say("queries and keys share d_k (they are compared); values may differ")
        self.wait(1.2)

        self.step("one token")
        self.one_token(grids, names, keys, braces)

    def one_token(self, grids, names, keys, braces):
        """Token 0's embedding through each matrix in turn, as the matmul of
        stages 7 to 9 does for every token: U · x⁽⁰⁾ = one number per row of
        U; the three results side by side at the end."""
        embedded = self.trace["s02_embedded_sentence"]
        word = self.cfg.sentence[0]
        x_range = (float(embedded.min()), float(embedded.max()))
        self.say(f"one token through each: x⁽⁰⁾ = X[0], the {self.cfg.d} numbers of \"{word}\"")
        self.play(vanish(braces), *[vanish(g) for g in grids[1:]], *[vanish(g.label) for g in grids[1:]],
                  run_time=0.6)
        results, place, last, leaving = [], grids[0], None, []
        for n, (grid, name, key, (projected, short)) in enumerate(zip(grids, names, keys, PROJECTED)):
            values = self.trace[projected][0]
            vector = CubeGrid(embedded[0], value_range=x_range, dims=("features (d)",))
            self.layout.name(vector, "x⁽⁰⁾ = X[0]", DOWN, stacked=True, scale_of="X")
            if n:  # the next matrix and x⁽⁰⁾ where the last ones were, named as they were
                grid.scale(place.pitch / grid.pitch).align_cell((0, 0, 0), place.cell_center(0, 0))
                grid.label.side = place.label.side
                vector.scale(last.pitch / vector.pitch).align_cell((0, 0, 0), last.cell_center(0, 0))
                vector.label.side = last.label.side
            else:  # right of U, far enough for the two labels under them to stand apart
                vector.scale(grid.pitch / vector.pitch).next_to(grid, RIGHT, buff=grid.pitch * 3)
                apart = (grid.label.width + vector.label.width) / 2 + 0.4
                vector.shift(RIGHT * max(0.0, grid.get_center()[0] + apart - vector.get_center()[0]))
            # the next matrix comes in already laid out, U · x⁽⁰⁾ = (empty), the matmul's rule said as it comes (a
            # caption of its own first, "the same with U_key: k⁽⁰⁾ = U_key @ x⁽⁰⁾", held the frame still for 1.7 s
            # and wrote the product two ways: 06_0423, the 64th and 65th readers)
            if not n:
                self.play(appear(vector), appear(self.layout.place(vector)), run_time=0.6)
            matrix = self.trace[key]
            # the last matmul's blocks, names and signs go in the frame the next one's come, where they stood (gone
            # in a play of their own first, they left the stage empty for a second under the last caption: 06_0405)
            done = matmul(self, self.layout, self.viewpoint, grid, vector, values, matrix[:, None, :] *
                          embedded[0][None, None, :], names=(name, "x⁽⁰⁾", short), say=self.say,
                          speed=1.4 if n == 0 else 2.2, cells=1, rows=2 if n == 0 else 0, leaving=leaving)
            result = done.result
            self.wait(0.4)
            results.append(result)
            place, last = grid, vector
            # the blocks and their names go together, at once: no frame shows a block without its name,
            # nor all of them half-faded (06_0842)
            leaving = [grid, vector, result, grid.label, vector.label, result.label, done.signs]
        self.side_by_side(results, leaving)

    def side_by_side(self, results, leaving):
        """q⁽⁰⁾, k⁽⁰⁾ and v⁽⁰⁾ in a row, each labelled above itself, centred
        over its own vector (the vectors stand a label's width apart: a
        reader saw k's and v's names beside their vectors, not over them).
        ``leaving``: the last matmul on screen, gone as they come."""
        smallest = min(r.pitch for r in results)
        for result in results:
            result.label.side = UP
            result.set_opacity(1.0)
            result.scale(smallest / result.pitch)  # one cube size for all three: 17 < 18 reads as it is
        self.viewpoint.look_from(FRONT)
        self.layout.row(*results, gap=1.2, view=FRONT)
        for result in results:  # centred, not hanging from the end vectors' outer edges: a vector is one column
            result.label.hang = 0
        shown = [self.layout.place(r) for r in results]
        # columns, as the matmul gives them (called "row 0" under three columns, they clashed: 06_0741)
        self.say("q⁽⁰⁾, k⁽⁰⁾, v⁽⁰⁾: token 0's query, key and value, each one column U · x⁽⁰⁾")
        kept = [*results, *shown]  # v⁽⁰⁾ and its name are the last matmul's too: they move, and show whole
        self.play(*[vanish(m, rate_func=at_once) for m in leaving if not any(m is k for k in kept)],
                  *[appear(m, rate_func=at_once) for m in kept], run_time=0.8)
        self.wait(0.9)
        self.laid_down(results)

    def laid_down(self, columns):
        """q⁽⁰⁾, k⁽⁰⁾ and v⁽⁰⁾ each turning a quarter turn about its middle,
        into a row, the three rows one under another, large: as stages 7 to 9
        draw them, row 0 of Q, K and V (left as three thin columns, the
        closing shot was dull and the next scenes' rows read as another
        orientation: 06_0797, the 50th and 51st readers)."""
        rows = []
        for column in columns:
            values = column.values.reshape(1, 1, -1)
            row = column.like(values, column.value_range, dims=(None, None, column.dims[1]))
            self.layout.name(row, column.label.tensor_name, UP, shape=(values.size,))
            row.label.hang = 1  # from the row's left end, as the rows start
            rows.append(row)
        label = max(r.label.height for r in rows) + 0.3
        self.layout.grid_of_blocks(rows, 1, gap=(0.0, label), margins=Margins(top=label))
        placed = [self.layout.place(r) for r in rows]
        # one after another, each lifted toward the eye on its way (over the columns still standing), the rows
        # named once all have landed (a stick still turning crossed a landed row's name); said as they turn: a
        # still of the rows under "each one column" would contradict it
        self.play(LaggedStart(*[AnimationGroup(
            turn(c, PI / 2, OUT, shift=r.get_center() - c.get_center(), scale=r.pitch / c.pitch,
                 lift=OUT * 3 * r.pitch),
            vanish(c.label, rate_func=at_once)) for c, r in zip(columns, rows)], lag_ratio=0.7),
            *[appear(named, rate_func=at_end) for named in placed],  # named once every stick has landed
            *all_at_once(self.saying("laid down as rows, as stages 7 to 9 draw them: token 0's row of Q, "
                                     "of K and of V")), run_time=2.4)
        self.remove(*columns)
        self.add(*rows)
        self.wait(0.8)  # the scene's closing hold follows: no still stretch over 2 s

    def shapes(self, grids, d, d_k, d_v) -> Group:
        """Braces naming the axes' lengths: d_k and d on U_query, d_v on U_value."""
        rows_brace = Brace(grids[0], LEFT, buff=0.08, color=self.theme.accent)
        rows_text = self.captions.note(f"d_k = {d_k}", font_size=TEXT_SIZE, color=self.theme.accent)
        rows_text.next_to(rows_brace, LEFT, buff=0.1)
        cols_brace = Brace(grids[0], DOWN, buff=0.08 + self.layout.guide_room(grids[0], DOWN), color=self.theme.accent)
        cols_text = self.captions.note(f"d = {d}", font_size=TEXT_SIZE, color=self.theme.accent)
        cols_text.next_to(cols_brace, DOWN, buff=0.08)
        v_brace = Brace(grids[2], RIGHT, buff=0.08 + self.layout.guide_room(grids[2], RIGHT), color=self.theme.accent)
        v_text = self.captions.note(f"d_v = {d_v}", font_size=TEXT_SIZE, color=self.theme.accent)
        v_text.next_to(v_brace, RIGHT, buff=0.1)
        self.say(f"d_k = d+1 = {d_k}, d_v = d+2 = {d_v}: not d = {d}, only so that every axis has its own length")
        self.play(appear(rows_brace), appear(rows_text), appear(cols_brace), appear(cols_text))
        self.play(appear(v_brace), appear(v_text))
        return Group(rows_brace, rows_text, cols_brace, cols_text, v_brace, v_text)
