"""Stage 1: the sentence becomes token ids through the dictionary."""

from manim import LEFT, RIGHT, UP, Arrow, LaggedStart, VGroup

from scenes.base import StageScene
from scenes.components.labels import NAME_SIZE, TEXT_SIZE, note_text
from scenes.layout import Margins, StageArea
from scenes.layout.text import word_stride
from scenes.components.fades import appear
from scenes.motions.matmul import SLOT_OPACITY

__all__ = ["TokenIds"]

DICTIONARY_SIZE = 24  # 15 px capitals at 480p; a long vocabulary takes two columns, never smaller than TEXT_SIZE
LINE_PITCH = 2.0  # dictionary lines apart, in digit heights
WORDS_SHARE = 0.25  # of the stage area's width, at most, for the sentence's words (longer ones get "…")
ARROW_ROOM = 1.2  # between the words and the dictionary, and the dictionary and the ids: the arrows' run
COLUMN_ROOM = 2.6  # the sentence's column, its ids and its label
MIN_WORDS_ROOM = 1.6  # the words keep at least this much (cut with "…")


def ruled(lines: VGroup, pitch: float) -> VGroup:
    """Lines one under another, left-aligned, their first glyphs' feet (a
    digit or a letter without a descender) ``pitch`` apart: even lines,
    whatever descenders the words have."""
    for n, line in enumerate(lines):
        line.align_to(lines[0], LEFT)
        line.shift(UP * (lines[0][0].get_bottom()[1] - n * pitch - line[0].get_bottom()[1]))
    return lines


class TokenIds(StageScene):
    number = 1
    title = "Token ids"
    summary = "each word maps through the dictionary to its id: a column of 8 cubes"
    code = "sentence = torch.tensor({ids})"

    def storyboard(self):
        ids = self.trace["s01_sentence"]
        words = self.cfg.sentence

        area = self.layout.area()
        vocab = self.cfg.vocabulary
        dictionary = VGroup(*[
            note_text(f"{i:>2}  {w}", self.theme, font_size=DICTIONARY_SIZE, color=self.theme.ink)
            for i, w in enumerate(vocab)
        ])
        unused = self.cfg.vocab_size - len(vocab)
        if unused:  # the blog's table has more rows than the sentence has words
            dictionary.add(note_text(f"ids {len(vocab)}–{self.cfg.vocab_size - 1}: no word", self.theme,
                                     color=self.theme.muted))
        ruled(dictionary, LINE_PITCH * dictionary[0][0].height)
        dict_title = note_text("dictionary", self.theme, font_size=NAME_SIZE)
        room = area.height - dict_title.height - 0.2
        if dictionary.height > room:  # two columns, side by side, before anything gets smaller
            half = (len(dictionary) + 1) // 2
            second = VGroup(*dictionary[half:])
            second.shift(UP * (dictionary[0].get_y() - second[0].get_y()))
            second.next_to(VGroup(*dictionary[:half]), RIGHT, buff=0.5, aligned_edge=UP)
            if dictionary.height > room:
                dictionary.scale_to_fit_height(max(room, dictionary.height * TEXT_SIZE / DICTIONARY_SIZE))
        # left to right: the words, room for the arrows, the dictionary, the sentence's column
        column = self.block("s01_sentence", "sentence", direction=UP)
        words_room = min(WORDS_SHARE * area.width, max(
            self.layout.fitted_word(w, 24, 1.0, area.width, color=self.theme.ink).width for w in words))
        available = area.width - COLUMN_ROOM - 2 * ARROW_ROOM - words_room
        if dictionary.width > available:  # a wide dictionary: its text down to TEXT_SIZE, then the words cut
            dictionary.scale(max(available / dictionary.width, TEXT_SIZE / DICTIONARY_SIZE))
            words_room = max(MIN_WORDS_ROOM, area.width - COLUMN_ROOM - 2 * ARROW_ROOM - dictionary.width)
        column_left = area.left + words_room + ARROW_ROOM + dictionary.width + ARROW_ROOM
        self.layout.fit([column], area=StageArea(column_left, area.right, area.bottom, area.top),
                        margins=Margins(top=column.label.height + 0.3, right=max(
                            0.0, area.right - column_left - COLUMN_ROOM)))
        spacing = column.pitch
        scale = self.layout.row_text_scale(column, 24)
        stride = word_stride(scale)  # rows thinner than a word: every second word, at full size
        word_mobs = VGroup(*[self.layout.fitted_word(w, 24, 1.0 if stride else scale, words_room,
                                                     color=self.theme.ink) for w in words])
        words_right = area.left + words_room
        for row, mob in enumerate(word_mobs):
            mob.move_to([0, column.cell_center(row)[1], 0]).align_to([words_right, 0, 0], RIGHT)
            if stride and row % stride:
                mob.set_opacity(0.0)
        dictionary.move_to([words_right + ARROW_ROOM + dictionary.width / 2,
                            area.center[1] - (dict_title.height + 0.2) / 2, 0.0])
        dict_title.next_to(dictionary, UP, buff=0.2)
        self.layout.fixed(*word_mobs, dictionary, dict_title)

        self.step("sentence")
        self.say(f"the {len(words)} words of the sentence; their ids go into a tensor also named sentence")
        column.set_cell_opacity(SLOT_OPACITY).empty()  # empty slots, named from the start
        self.play(LaggedStart(*[appear(w) for w in word_mobs], lag_ratio=0.12), appear(column),
                  appear(self.layout.place(column)))
        self.play(appear(dictionary), appear(dict_title))

        self.step("lookup")
        self.say("each word is looked up: its id is its place in the dictionary, its words sorted A to Z")
        id_texts = VGroup()
        for row, word in enumerate(words):
            token = int(ids[row])
            entry = dictionary[token]
            number = note_text(str(token), self.theme, font_size=NAME_SIZE if stride == 1 else TEXT_SIZE)
            number.next_to(column.cell_center(row) + RIGHT * spacing / 2, RIGHT, buff=0.15)
            if stride != 1 and row % max(stride, 1):  # thin rows: every second id, as the words
                number.set_opacity(0.0)
            self.layout.upright(number)
            id_texts.add(number)
            arrow = Arrow(word_mobs[row].get_right(), entry.get_left(), buff=0.08, stroke_width=2,
                          color=self.theme.accent, max_tip_length_to_length_ratio=0.08)
            self.layout.fixed(arrow)
            run = 0.9 if row < 2 else 0.45
            self.play(appear(arrow), entry.animate.set_color(self.theme.accent), run_time=run * 0.5)
            self.play(column.animate.set_cell_opacity(1.0, (0, row)), appear(number),
                      arrow.animate.set_opacity(0.0), entry.animate.set_color(self.theme.ink),
                      run_time=run * 0.6)
            self.remove(arrow)
        self.say(f"{len(ids)} token ids: one cube each, colored by the id")
        self.wait(0.9)
        if unused:
            # in the viewer's words, not the making's ("the blog's table (stage 2)" read as production talk:
            # 01_0164, the 47th reader)
            self.say(f"ids {len(vocab)}–{self.cfg.vocab_size - 1} have no word: the next stage's embedding table "
                     f"has {self.cfg.vocab_size} rows, {unused} to spare")
            self.wait(0.8)
