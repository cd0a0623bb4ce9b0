"""Stage 2: nn.Embedding - each token id picks its row of the table."""

from manim import RIGHT, UP

from scenes.base import StageScene
from scenes.layout import STACKED_LABEL_ROOM, Margins
from scenes.components.fades import appear

__all__ = ["Embedding"]


class Embedding(StageScene):
    number = 2
    title = "Embedding"
    summary = "each token id picks its row of the 10×16 table; the rows build X (8×16)"
    code = "embed = torch.nn.Embedding({vocab_size}, {d})\nembedded_sentence = embed(sentence).detach()"
    view = (0.18, 0.12)

    def storyboard(self):
        table_values = self.trace["s02_embedding_table"]
        x = self.trace["s02_embedded_sentence"]
        ids = self.trace["s01_sentence"]
        vocab = self.cfg.vocabulary
        shared = (float(table_values.min()), float(table_values.max()))

        table = self.tensor_grid("s02_embedding_table", value_range=shared)
        X = self.tensor_grid("s02_embedded_sentence", value_range=shared)
        names = [vocab[i] if i < len(vocab) else "(unused)" for i in range(table_values.shape[0])]
        self.layout.row(table, X, gap=1.0, names=("embedding table", "X = embedded_sentence"),
                     margins=Margins(
            left=self.layout.word_room([f"{i} {w}" for i, w in enumerate(names)]),
            right=self.layout.word_room(self.cfg.sentence), top=STACKED_LABEL_ROOM))
        row_names = self.layout.word_labels(table, [f"{i} {w}" for i, w in enumerate(names)])
        table_label = self.layout.label(table, "embedding table", table_values.shape, UP, stacked=True)
        x_label = self.layout.label(X, "X = embedded_sentence", x.shape, UP, stacked=True)

        self.step("table")
        self.say(f"the table: one {self.cfg.d}-number row per dictionary id (random here; training learns it)")
        self.play(appear(table), appear(row_names), appear(table_label))
        self.legend.show("embedding table, X", shared)  # one scale: the rows are the same numbers

        self.step("lookup")
        self.say("each token id picks its row; the rows line up in sentence order")
        X.set_cell_opacity(0.0)
        self.add(X)
        self.play(appear(x_label), run_time=0.4)
        words = self.layout.word_labels(X, self.cfg.sentence, side=RIGHT)
        for row, token in enumerate(ids):
            token = int(token)
            piece = table.subgrid((0, token))
            run = 1.0 if row < 2 else 0.5
            self.add(piece)
            self.play(table.animate.highlight((0, token)), run_time=0.3 * run)
            word = [appear(words[row])] if len(words) else []
            self.play(piece.animate.align_cell((0, 0, 0), X.cell_center(row, 0)), *word, run_time=0.7 * run)
            X.set_cell_opacity(1.0, (0, row))
            self.remove(piece)
        self.play(table.animate.clear_highlight(), run_time=0.4)
        self.say(f"X: {x.shape[0]} tokens × {x.shape[1]} features, the input to attention")
