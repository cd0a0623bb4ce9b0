"""Stage 3: ω = X·Xᵀ, every token's dot product with every token."""

from manim import RIGHT

from tensors import matmul_products

from scenes.base import StageScene
from scenes.layout import Margins
from scenes.motions.matmul import matmul
from scenes.components.fades import appear, vanish

__all__ = ["Omega"]


class Omega(StageScene):
    number = 3
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
        self.layout.row(X, XT)
        x_label = self.layout.label(X, "X", x.shape)
        xt_label = self.layout.label(XT, "Xᵀ", x.T.shape)
        self.step("operands")
        self.say("X holds one row per token; Xᵀ is the same numbers, turned")
        self.play(appear(X), appear(XT), appear(x_label), appear(xt_label))
        self.legend.show("X", x)
        self.wait(0.5)

        self.step("matmul")
        self.play(vanish(x_label), vanish(xt_label), run_time=0.4)
        done = matmul(self, self.layout, self.legend, self.viewpoint, X, XT, omega_values,
                      matmul_products(x, x.T), say=self.say, names=("X", "Xᵀ", "ω"))
        omega = done.result

        self.step("scores")
        room = self.layout.word_room(words, 16)
        self.close_on(omega, X, XT, *done.labels, margins=Margins(left=self.layout.word_room(words), top=room, right=1.2))
        rows = self.layout.word_labels(omega, words)
        cols = self.layout.column_words(omega, words)
        title = self.layout.label(omega, "ω", omega_values.shape, RIGHT, buff=0.5)
        self.say("ω[i, j]: how strongly token i matches token j (before softmax)")
        self.play(appear(rows), appear(cols), appear(title))
