"""Stage 3: ω = X·Xᵀ, every token's dot product with every token."""

from manim import RIGHT

from tensors import matmul_products

from scenes.base import StageScene
from scenes.components.layout import Margins
from scenes.components.motions import matmul
from scenes.components.fades import appear, vanish

__all__ = ["Omega"]


class Omega(StageScene):
    number = 3
    slug = "omega"
    title = "ω = X · Xᵀ"
    summary = "matmul: row i of X meets column j of Xᵀ at cell (i, j) of the 8×8 scores"
    code = "omega_mat = embedded_sentence.matmul(embedded_sentence.T)"
    formula_tex = r"\omega_{ij} = x^{(i)\top} x^{(j)}"

    def storyboard(self):
        x = self.trace["s02_embedded_sentence"]
        omega_values = self.trace["s03_omega"]
        words = self.cfg.sentence

        X = self.tensor_grid("s02_embedded_sentence")
        XT = self.tensor_grid("s02_embedded_sentence", transposed=True, value_range=X.value_range)
        self.lay_out(X, XT)
        x_label = self.label(X, "X", x.shape)
        xt_label = self.label(XT, "Xᵀ", x.T.shape)
        self.step("operands")
        self.say("X holds one row per token; Xᵀ is the same numbers, turned")
        self.play(appear(X), appear(XT), appear(x_label), appear(xt_label))
        self.show_colorbar("X", x)
        self.wait(0.5)

        self.step("matmul")
        self.play(vanish(x_label), vanish(xt_label), run_time=0.4)
        omega, labels = matmul(self, X, XT, omega_values, matmul_products(x, x.T),
                               caption=self.say, names=("X", "Xᵀ", "ω"))

        self.step("scores")
        room = self.word_room(words, 16)
        self.close_on(omega, X, XT, labels, margins=Margins(left=self.word_room(words), top=room, right=1.2))
        rows = self.word_labels(omega, words)
        cols = self.column_words(omega, words)
        title = self.label(omega, "ω", omega_values.shape, RIGHT, buff=0.5)
        self.say("ω[i, j]: how strongly token i matches token j (before softmax)")
        self.play(appear(rows), appear(cols), appear(title))
