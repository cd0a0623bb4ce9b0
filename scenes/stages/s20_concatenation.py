"""Stage 20: the heads slide side by side into one 8×162 matrix."""

import numpy as np
from manim import DOWN, Group, LaggedStart

from scenes.base import StageScene
from scenes.components.layout import LABEL_ROOM, Margins, fit_blocks
from scenes.components.motions import FRONT_VIEW, TAG_ROOM, camera_turn, head_tags
from scenes.components.fades import appear, vanish

__all__ = ["Concatenation"]

HEAD_GAP_CELLS = 1  # between heads while they line up, in cube pitches


class Concatenation(StageScene):
    number = 20
    follows_mask = True
    slug = "concatenation"
    title = "Concatenate the heads"
    summary = "swapaxes(0,1) to 8×9×18, reshape: the 9 head slices side by side in one 8×162 matrix"
    code = ("multihead_context_vectors = multihead_context_vectors.swapaxes(0, 1)\n"
            "multihead_flattened = multihead_context_vectors.reshape({tokens}, h*d_v)")
    view = (0.45, 0.3)

    def storyboard(self):
        context = self.trace["s19_multihead_context_vectors"]
        flattened = self.trace["s20_multihead_flattened"]
        heads, tokens, d_v = context.shape
        block = self.tensor_grid("s19_multihead_context_vectors")
        fit_blocks(self, [block], margins=Margins(bottom=LABEL_ROOM))
        label = self.label(block, "multihead_context_vectors", context.shape, DOWN)
        self.step("heads")
        self.say(f"{heads} heads, each an {tokens}×{d_v} context matrix")
        self.play(appear(block), appear(label))
        self.show_colorbar("multihead_context_vectors", context)

        self.step("concatenate")
        self.say(f"for every token, its {heads} head rows are laid end to end: {heads}×{d_v} = {heads * d_v}")
        # where the row of heads goes: fitted, front view, room for words and tags
        row = block.like(np.zeros((1, tokens, heads * d_v + (heads - 1) * HEAD_GAP_CELLS)))
        fit_blocks(self, [row], view=FRONT_VIEW, margins=Margins(
            left=self.word_room(self.cfg.sentence, 16), top=TAG_ROOM, bottom=LABEL_ROOM))
        slices = block.split(axis=0)
        self.remove(block)
        self.add(*slices)
        targets = []
        for h, piece in enumerate(slices):
            target = piece.copy().scale(row.pitch / piece.pitch)
            target.align_cell((0, 0, 0), row.cell_center(0, h * (d_v + HEAD_GAP_CELLS)))
            targets.append(target)
        self.play(vanish(label), camera_turn(self, *FRONT_VIEW),
                  LaggedStart(*[s.animate.become(t) for s, t in zip(slices, targets)], lag_ratio=0.12),
                  run_time=3.0)
        tags = head_tags(self, slices, font_size=14)
        words = self.word_labels(slices[0], self.cfg.sentence, font_size=16)
        # the code's intermediate: tokens first, then heads (swapaxes(0, 1))
        swapped = self.label(Group(*slices), "multihead_context_vectors.swapaxes(0, 1)", (tokens, heads, d_v), DOWN)
        self.play(appear(tags), appear(words), appear(swapped))

        self.step("one matrix")
        self.say(f"closed up: one {tokens}×{heads * d_v} matrix, one row per token")
        joined = block.like(flattened, block.value_range, dims=(None,) + self.trace.axes("s20_multihead_flattened"))
        joined.scale(row.pitch / joined.pitch).align_cell((0, 0, 0), row.cell_center(0, 0))
        self.play(*[s.animate.align_cell((0, 0, 0), joined.cell_center(0, h * d_v)) for h, s in enumerate(slices)],
                  *[t.animate.set_x((joined.cell_center(0, h * d_v)[0] + joined.cell_center(0, h * d_v + d_v - 1)[0]) / 2)
                    for h, t in enumerate(tags)], run_time=1.2)
        self.remove(*slices)
        self.add(joined)
        final = self.label(joined, "multihead_flattened", flattened.shape, DOWN,
                           dims=(None,) + self.trace.axes("s20_multihead_flattened"))
        self.play(vanish(swapped), appear(final), *self.colorbar_swap("multihead_flattened", flattened))
        self.say(f"one row per token, {heads * d_v} numbers: head 0's {d_v}, then head 1's, …")
