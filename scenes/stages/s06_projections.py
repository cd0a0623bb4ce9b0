"""Stage 6: the projection matrices U_query, U_key, U_value."""

from manim import DOWN, LEFT, RIGHT, UP, Brace

from scenes.base import StageScene
from scenes.components.labels import shape_text
from scenes.components.layout import LABEL_ROOM, Margins
from scenes.components.fades import appear

__all__ = ["ProjectionMatrices"]

BRACE_CHAR = 0.15  # width of one character of a brace's text (font size 20)


class ProjectionMatrices(StageScene):
    number = 6
    slug = "projections"
    title = "Projection matrices"
    summary = "U_query, U_key (17×16) and U_value (18×16) side by side; d_k = d+1, d_v = d+2"
    code = "U_query = torch.rand(d_k, d); U_key = torch.rand(d_k, d); U_value = torch.rand(d_v, d)"

    def storyboard(self):
        keys = ("s06_U_query", "s06_U_key", "s06_U_value")
        names = ("U_query", "U_key", "U_value")
        d, d_k, d_v = self.cfg.d, self.cfg.d_k, self.cfg.d_v
        grids = [self.tensor_grid(k) for k in keys]
        side = BRACE_CHAR * len(f"d_v = d+2 = {d_v}") + 0.5
        self.lay_out(*grids, names=[f"{n} {shape_text(self.trace[k].shape)}" for n, k in zip(names, keys)],
                     gap=0.9, margins=Margins(left=side, right=side, bottom=0.75, top=LABEL_ROOM))
        labels = [self.label(g, n, self.trace[k].shape, UP) for g, n, k in zip(grids, names, keys)]
        self.step("matrices")
        self.say("three matrices, torch.rand here (training would learn them): queries, keys, values")
        for grid, label in zip(grids, labels):
            self.play(appear(grid), appear(label), run_time=0.7)
        self.show_colorbar("U_query", self.trace[keys[0]])

        self.step("shapes")
        rows_brace = Brace(grids[0], LEFT, buff=0.08, color=self.theme.accent)
        rows_text = self.note(f"d_k = d+1 = {d_k}", font_size=20, color=self.theme.accent)
        rows_text.next_to(rows_brace, LEFT, buff=0.1)
        cols_brace = Brace(grids[0], DOWN, buff=0.08 + self.guide_room(grids[0], DOWN), color=self.theme.accent)
        cols_text = self.note(f"d = {d}", font_size=20, color=self.theme.accent)
        cols_text.next_to(cols_brace, DOWN, buff=0.08)
        v_brace = Brace(grids[2], RIGHT, buff=0.08 + self.guide_room(grids[2], RIGHT), color=self.theme.accent)
        v_text = self.note(f"d_v = d+2 = {d_v}", font_size=20, color=self.theme.accent)
        v_text.next_to(v_brace, RIGHT, buff=0.1)
        self.say(f"d_k = {d_k} and d_v = {d_v} differ from d = {d} only so that every axis has its own length")
        self.play(appear(rows_brace), appear(rows_text), appear(cols_brace), appear(cols_text))
        self.play(appear(v_brace), appear(v_text))
        for grid, name, key in zip(grids[1:], names[1:], keys[1:]):
            self.play(*[g.animate.set_opacity(1.0 if g is grid else 0.35) for g in grids], run_time=0.5)
            self.show_colorbar(name, self.trace[key])
        self.play(*[g.animate.set_opacity(1.0) for g in grids], run_time=0.4)
        self.say("queries and keys share d_k (they are compared); values may differ")
