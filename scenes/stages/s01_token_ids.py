"""Stage 1: the sentence becomes token ids through the dictionary."""

from manim import DOWN, LEFT, RIGHT, UP, Arrow, LaggedStart, VGroup

from scenes.base import StageScene
from scenes.components.labels import NAME_SIZE, TEXT_SIZE, note_text
from scenes.layout import Margins
from scenes.components.fades import appear
from scenes.motions.matmul import SLOT_OPACITY

__all__ = ["TokenIds"]

DICTIONARY_SIZE = 24  # 15 px capitals at 480p; a long vocabulary takes two columns, never smaller than TEXT_SIZE
LINE_PITCH = 2.0  # dictionary lines apart, in digit heights


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
        column = self.block("s01_sentence", "sentence", direction=UP)
        self.layout.fit([column], area=area.part(0.66, 0.8),
                        margins=Margins(top=column.label.height + 0.3))
        spacing = column.pitch
        words_right = area.left + 0.28 * area.width
        scale = self.layout.row_text_scale(column, 24)
        word_mobs = VGroup(*[self.layout.fitted_word(w, 24, scale, 0.26 * area.width, color=self.theme.ink)
                             for w in words])
        for row, mob in enumerate(word_mobs):
            mob.move_to([0, column.cell_center(row)[1], 0]).align_to([words_right, 0, 0], RIGHT)

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
        middle = area.part(0.36, 0.6).center
        dictionary.move_to(middle + DOWN * (dict_title.height + 0.2) / 2)
        dict_title.next_to(dictionary, UP, buff=0.2)
        self.layout.fixed(*word_mobs, dictionary, dict_title)

        self.step("sentence")
        self.say(f"the sentence: {len(words)} words; sentence will hold their ids")
        column.set_cell_opacity(SLOT_OPACITY)  # empty slots, named from the start
        self.play(LaggedStart(*[appear(w) for w in word_mobs], lag_ratio=0.12), appear(column),
                  appear(self.layout.place(column)))
        self.play(appear(dictionary), appear(dict_title))

        self.step("lookup")
        self.say("each word is looked up: its id is its place in the dictionary")
        id_texts = VGroup()
        for row, word in enumerate(words):
            token = int(ids[row])
            entry = dictionary[token]
            number = note_text(str(token), self.theme, font_size=NAME_SIZE)
            number.next_to(column.cell_center(row) + RIGHT * spacing / 2, RIGHT, buff=0.15)
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
        self.wait(1.2)
        if unused:
            self.say(f"ids {len(vocab)}–{self.cfg.vocab_size - 1} have no word: the blog's table "
                     f"(stage 2) has {self.cfg.vocab_size} rows")
            self.wait(0.8)
