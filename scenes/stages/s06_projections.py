"""Stage 6: the projection matrices U_query, U_key, U_value, and what each does to one token."""

from manim import DOWN, LEFT, RIGHT, UP, Brace, Group

from scenes.base import StageScene
from scenes.components.labels import LABEL_CHAR
from scenes.layout import STACKED_LABEL_ROOM, Margins
from scenes.components.numbers import cell_arithmetic
from scenes.motions.vectors import beside_matrix, matrix_vector
from scenes.components.fades import appear, vanish

__all__ = ["ProjectionMatrices"]

BRACE_CHAR = 0.15  # width of one character of a brace's text (font size 20)
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
        grids = [self.tensor_grid(k) for k in keys]
        embedded = self.trace["s02_embedded_sentence"]
        x_range = (float(embedded.min()), float(embedded.max()))
        # token 0's embedding under each matrix, its projection beside it (shown in the last step)
        pairs = [beside_matrix(grid, embedded[0], self.trace[key][0], x_range,
                               (float(self.trace[key].min()), float(self.trace[key].max())))
                 for grid, (key, _) in zip(grids, PROJECTED)]
        side = BRACE_CHAR * len(f"d_v = {d_v}") + 0.5
        gap = LABEL_CHAR * len(str(d_v)) + 0.9  # a projection's name and length, right of it
        self.layout.row(*[Group(g, *pair) for g, pair in zip(grids, pairs)],
                     names=names,
                     gap=gap, margins=Margins(left=side, right=side, bottom=0.3, top=STACKED_LABEL_ROOM))
        labels = [self.layout.label(g, n, self.trace[k].shape, UP, stacked=True) for g, n, k in zip(grids, names, keys)]
        self.step("matrices")
        self.say("three matrices, torch.rand here (training would learn them): queries, keys, values")
        for grid, label in zip(grids, labels):
            self.play(appear(grid), appear(label), run_time=0.7)
        self.legend.show("U_query", self.trace[keys[0]])
        self.wait(1.0)

        self.step("shapes")
        braces = self.shapes(grids, d, d_k, d_v)
        for grid, name, key in zip(grids[1:], names[1:], keys[1:]):
            self.play(*[g.animate.set_opacity(1.0 if g is grid else 0.35) for g in grids], run_time=0.5)
            self.legend.show(name, self.trace[key])
        self.play(*[g.animate.set_opacity(1.0) for g in grids], run_time=0.4)
        self.say("queries and keys share d_k (they are compared); values may differ")
        self.wait(0.6)

        self.step("one token")
        word = self.cfg.sentence[0]
        self.say(f"one token through each: x⁽⁰⁾, the {d} numbers of \"{word}\" (row 0 of X)")
        vectors = [vector for vector, _ in pairs]
        x_labels = [self.layout.label(v, "x⁽⁰⁾", (d,), LEFT, buff=0.15) for v in vectors]
        self.play(vanish(braces), *[v.animate.set_cell_opacity(1.0) for v in vectors], *map(appear, x_labels))
        self.wait(0.5)
        for n, (grid, (vector, result), (key, name)) in enumerate(zip(grids, pairs, PROJECTED)):
            values = self.trace[key]
            if n == 0:
                self.say(f"each row of {names[0]} times x⁽⁰⁾, summed: one number per row")
            self.play(*self.legend.swap(name, values), run_time=0.4)
            matrix_vector(self, grid, vector, result, run_time=2.4 if n == 0 else 1.6)
            self.play(appear(self.layout.label(result, name, (result.grid_shape[1],), RIGHT, buff=0.15)), run_time=0.4)
            if n == 0:
                self.say(cell_arithmetic(name, self.trace[keys[0]][0], embedded[0], values[0, 0],
                                         cell=f"{name}[0]"))
                self.wait(1.4)
                self.say(f"the same for {names[1]} and {names[2]}")
        self.say(f"{d} numbers in; {d_k} out for query and key, {d_v} for value: stages 7–9 do every token")
        self.wait(0.8)

    def shapes(self, grids, d, d_k, d_v) -> Group:
        """Braces naming the axes' lengths: d_k and d on U_query, d_v on U_value."""
        rows_brace = Brace(grids[0], LEFT, buff=0.08, color=self.theme.accent)
        rows_text = self.captions.note(f"d_k = {d_k}", font_size=20, color=self.theme.accent)
        rows_text.next_to(rows_brace, LEFT, buff=0.1)
        cols_brace = Brace(grids[0], DOWN, buff=0.08 + self.layout.guide_room(grids[0], DOWN), color=self.theme.accent)
        cols_text = self.captions.note(f"d = {d}", font_size=20, color=self.theme.accent)
        cols_text.next_to(cols_brace, DOWN, buff=0.08)
        v_brace = Brace(grids[2], RIGHT, buff=0.08 + self.layout.guide_room(grids[2], RIGHT), color=self.theme.accent)
        v_text = self.captions.note(f"d_v = {d_v}", font_size=20, color=self.theme.accent)
        v_text.next_to(v_brace, RIGHT, buff=0.1)
        self.say(f"d_k = d+1 = {d_k}, d_v = d+2 = {d_v}: not d = {d}, only so that every axis has its own length")
        self.play(appear(rows_brace), appear(rows_text), appear(cols_brace), appear(cols_text))
        self.play(appear(v_brace), appear(v_text))
        return Group(rows_brace, rows_text, cols_brace, cols_text, v_brace, v_text)
