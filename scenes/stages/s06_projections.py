"""Stage 6: the projection matrices U_query, U_key, U_value, and what each does to one token."""

from manim import DOWN, LEFT, RIGHT, UP, Brace, Group

from scenes.base import StageScene
from scenes.components.projection import project, world_at_screen
from scenes.components.labels import TEXT_SIZE
from scenes.layout import Margins
from scenes.components.numbers import cell_arithmetic
from scenes.motions.vectors import beside_matrix, matrix_vector
from scenes.components.fades import appear, swap, vanish

__all__ = ["ProjectionMatrices"]

BRACE_CHAR = 0.17  # width of one character of a brace's text (TEXT_SIZE)
RESULT_GAP = 0.35  # between the labels of two result columns
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
        """Token 0's embedding through each matrix in turn: one matrix on
        screen at a time, the three results kept side by side."""
        d, d_k, d_v = self.cfg.d, self.cfg.d_k, self.cfg.d_v
        embedded = self.trace["s02_embedded_sentence"]
        word = self.cfg.sentence[0]
        matrix = grids[0]
        tallest = max(grids, key=lambda g: g.grid_shape[1])
        # where U goes: left, with x⁽⁰⁾ under it and room for the three results on its right
        target = tallest.copy()
        target.label = matrix.label
        vector, _ = beside_matrix(target, embedded[0], embedded[0][:1], (float(embedded.min()), float(embedded.max())),
                                  (0.0, 1.0))
        self.layout.name(vector, "x⁽⁰⁾ = X[0]", LEFT, stacked=True, scale_of="X")
        room = Group(target, vector)
        room.label = matrix.label
        widest = max(self.layout.sized_label(short, (self.trace[p].shape[1], 1), UP, stacked=True,
                                             value_range=(float(self.trace[p][0].min()),
                                                          float(self.trace[p][0].max()))).width
                     for p, short in PROJECTED)
        step = widest / 2 + RESULT_GAP  # from one result column to the next: their labels alternate above and below
        results_room = 2 * step + widest + 0.9
        self.layout.fit([room], margins=Margins(left=vector.label.width + 0.4, right=results_room,
                                                top=matrix.label.height + 0.3,
                                                bottom=max(vector.label.height / 2, matrix.label.height)))
        self.say(f"one token through each: x⁽⁰⁾ = X[0], the {d} numbers of \"{word}\"")
        goal = matrix.copy().scale(target.pitch / matrix.pitch)
        goal.align_cell((0, 0, 0), target.cell_center(0, 0))
        self.play(vanish(braces), *[vanish(g) for g in grids[1:]], *[vanish(g.label) for g in grids[1:]],
                  matrix.animate.become(goal), self.layout.follow(matrix, goal), run_time=1.2)
        self.play(vector.animate.set_cell_opacity(1.0), appear(self.layout.place(vector)), run_time=0.6)
        results = []
        for n, (grid, name, key, (projected, short)) in enumerate(zip(grids, names, keys, PROJECTED)):
            values = self.trace[projected][0]
            if n:
                old = matrix.label
                self.say(f"the same with {name}: {short} = {name} @ x⁽⁰⁾")
                rows = grid.grid_shape[1]
                if rows != matrix.grid_shape[1]:  # U_value has d_v rows: a block of its own
                    new = grid.copy().scale(matrix.pitch / grid.pitch)
                    new.align_cell((0, 0, 0), matrix.cell_center(0, 0))
                    self.layout.name(new, name, matrix.label.side, stacked=True)
                    self.layout.place(new)
                    self.play(vanish(matrix), appear(new), *swap(old, new.label), run_time=0.6)
                    matrix = new
                else:
                    matrix.value_range = grid.value_range
                    self.layout.name(matrix, name, matrix.label.side, stacked=True, values=self.trace[key])
                    self.layout.place(matrix)
                    self.play(matrix.animate.recolor(self.trace[key], grid.value_range), *swap(old, matrix.label),
                              run_time=0.6)
            else:
                self.say(f"each row of {name} times x⁽⁰⁾, summed: one number per row")
            result = matrix.like(values[:, None], (float(values.min()), float(values.max())))
            right = self.layout.screen_box([matrix])[2]
            clear = max(2 * matrix.pitch, matrix.label.width - (right - self.layout.screen_box([matrix])[0]) + 0.4)
            top = project(self.camera, matrix.cell_center(0, 0)[None])[0][1]  # level with U's row 0, on screen
            result.align_cell((0, 0, 0), world_at_screen(self.camera, (right + clear + n * step, top),
                                                         matrix.cell_center(0, 0)))
            result.set_cell_opacity(0.0)
            self.layout.name(result, short, DOWN if n % 2 else UP, stacked=True)
            result.label.hang = 1  # its label reaches right, over the room kept for it
            matrix_vector(self, matrix, vector, result, run_time=2.4 if n == 0 else 1.4)
            self.play(appear(self.layout.place(result)), run_time=0.4)
            results.append(result)
            if n == 0:
                self.say(cell_arithmetic(name, self.trace[key][0], embedded[0], values[0], cell=f"{short}[0]"))
                self.wait(1.6)
        self.say(f"{d} numbers in; {d_k} out for query and key, {d_v} for value: stages 7 to 9 do every token")
        self.wait(1.0)

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
