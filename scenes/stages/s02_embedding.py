"""Stage 2: nn.Embedding - each token id picks its row of the table (plus, with positions, where it stands)."""

from manim import RIGHT, Text

from scenes.base import StageScene
from scenes.components.fades import appear, at_end, at_once, swap, vanish
from scenes.components.labels import NAME_SIZE, TEXT_FONT
from scenes.components.palette import signed
from scenes.layout import Margins

__all__ = ["Embedding"]


class Embedding(StageScene):
    number = 2
    title = "Embedding"
    summary = "each token id picks its row of the 10×16 table; the rows build X (8×16)"
    code = "embed = torch.nn.Embedding({vocab_size}, {d})\nembedded_sentence = embed(sentence).detach()"

    @classmethod
    def code_text(cls, config=None):
        """With positions, the line adds them (learned or sinusoidal, Vaswani et al.)."""
        if config is None or config.positions == "none":
            return super().code_text(config)
        places = ("torch.nn.Embedding({tokens}, {d})(torch.arange({tokens}))" if config.positions == "learned"
                  else "sinusoidal_positions({tokens}, {d})")
        return ("embed = torch.nn.Embedding({vocab_size}, {d})\n"
                "embedded_sentence = (embed(sentence) + " + places + ").detach()").format(**cls.sizes(config))

    def storyboard(self):
        ids = self.trace["s01_sentence"]
        vocab = self.cfg.vocabulary
        positions = "s02_positions" in self.trace
        lookup_key = "s02_token_embeddings" if positions else "s02_embedded_sentence"
        table = self.block("s02_embedding_table", "embedding table", stacked=True)
        shared = table.value_range
        lookup = self.tensor_grid(lookup_key, value_range=shared)  # the table's rows, on the table's colors
        self.layout.name(lookup, "embed(sentence)" if positions else "X = embedded_sentence", stacked=True,
                         scale_of="the table")
        names = [vocab[i] if i < len(vocab) else "(unused)" for i in range(table.grid_shape[1])]
        table_words = [f"{i} {w}" for i, w in enumerate(names)]
        if positions:
            place = self.block("s02_positions", "positions", stacked=True)
            x = self.block("s02_embedded_sentence", "X = embedded_sentence", stacked=True)
        self.margins = Margins(left=self.layout.word_room(table_words),
                               right=self.layout.word_room(self.cfg.sentence))
        self.layout.row(table, lookup, gap=1.0, margins=self.margins, flip=True,
                        room_for=[None, x.label if positions else None])  # the sum's name takes the lookup's place
        row_names = self.layout.word_labels(table, table_words)
        self.table, self.table_words, self.table_words_text = table, row_names, table_words

        self.step("table")
        self.say(f"the table: one {self.cfg.d}-number row per dictionary id, "
                 f"{self.embedding_words(self.cfg)}")
        self.play(appear(table), appear(row_names), appear(self.layout.place(table)))
        if signed(table.value_range):  # the first bar of both signs: its rule said once (unexplained, a scale's
            self.wait(0.8)  # mark was read as a defect: G3 of the 38th reader)
            # the rule for a block of both signs in plain words ("0 is green on every block of both signs" read
            # as garbled: 02_0060, the 68th and 69th readers)
            self.say("the colors: purple the smallest number, red the largest; where a block holds negatives "
                     "and positives, 0 is green, the middle of its bar")
            self.wait(1.6)

        self.step("lookup")
        self.say("each token id picks its row; the rows line up in sentence order")
        lookup.set_cell_opacity(0.0)
        self.add(lookup)
        self.play(appear(self.layout.place(lookup)), run_time=0.4)
        words = self.layout.word_labels(lookup, self.cfg.sentence, side=RIGHT) if not positions else []
        for row, token in enumerate(ids):
            token = int(token)
            piece = table.subgrid((0, token))
            piece.part_of = table
            run = 1.0 if row < 2 else 0.5
            self.add(piece)
            self.play(table.animate.highlight((0, token)), run_time=0.3 * run)
            word = [appear(w) for w in words if w.row == row]
            self.play(piece.animate.align_cell((0, 0, 0), lookup.cell_center(row, 0)), *word, run_time=0.7 * run)
            lookup.set_cell_opacity(1.0, (0, row))
            self.remove(piece)
        self.play(table.animate.clear_highlight(), run_time=0.4)
        if positions:
            self.add_positions(lookup, place, x)
            return
        self.say(f"X: {lookup.grid_shape[1]} tokens × {lookup.grid_shape[2]} features, the input to attention")
        self.wait(0.8)

    def add_positions(self, lookup, place, x):
        """Where each token stands, added to its row: X = embed(sentence) + positions."""
        self.step("positions")
        kind = "learned: a table of its own" if self.cfg.positions == "learned" else "sinusoids of its place"
        self.say(f"+ positions: one {self.cfg.d}-number row per place ({kind})")
        # the row makes room for a third block: the table and the lookup move over
        table = self.table
        targets = [table.copy(), lookup.copy(), place]
        for target, grid in zip(targets, (table, lookup)):
            target.label = grid.label
        self.layout.row(*targets, gap=1.2, margins=self.margins, flip=True, room_for=[None, x.label, None])
        for target, grid in zip(targets, (table, lookup)):
            target.label = grid.label
        words = self.layout.word_labels(targets[0], self.table_words_text)
        self.play(table.animate.become(targets[0]), lookup.animate.become(targets[1]),
                  self.layout.follow(table, targets[0]), self.layout.follow(lookup, targets[1]),
                  vanish(self.table_words, rate_func=at_once), appear(words, rate_func=at_end),  # once their rows
                  run_time=1.0)  # are there
        plus = Text("+", font=TEXT_FONT, font_size=NAME_SIZE + 8, color=self.theme.ink)
        gap = self.layout.screen_box([place])[0] - self.layout.screen_box([lookup])[2]
        self.layout.beside([lookup], plus, RIGHT, buff=(gap - plus.width) / 2)
        self.layout.upright(plus)
        self.play(appear(place), appear(self.layout.place(place)), appear(plus))
        self.wait(0.8)
        self.say("added row by row: token i gets place i's row, so \"the word before\" can be told apart")
        x.scale(lookup.pitch / x.pitch).move_to(lookup)
        self.layout.name(x, "X = embedded_sentence", lookup.label.side, stacked=True)
        self.layout.place(x)
        self.play(place.animate.move_to(lookup).set_opacity(0.0), vanish(place.label), vanish(plus),
                  *swap(lookup.label, x.label), run_time=1.2)
        self.remove(lookup, place)
        self.add(x)
        self.play(appear(self.layout.word_labels(x, self.cfg.sentence, side=RIGHT)), run_time=0.4)
        self.say(f"X: {x.grid_shape[1]} tokens × {x.grid_shape[2]} features, with their places: "
                 f"the input to attention")
        self.wait(0.8)
