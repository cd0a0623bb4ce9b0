"""Stage 20: the heads slide side by side into one 8×162 matrix."""

from manim import DOWN, UP, Group, VGroup

from scenes.base import StageScene
from scenes.components.labels import note_text
from scenes.components.motions import FRONT_VIEW, camera_turn, concat_heads
from scenes.components.fades import appear

__all__ = ["Concatenation"]

ROW_WIDTH = 11.4  # screen units for the whole 8×162 row of heads, at most ...
ROW_HEIGHT = 3.6  # ... and this high (few, narrow heads: paper variant, small d)


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
        block = self.tensor_grid("s19_multihead_context_vectors", cube_size=0.14, gap=0.035).move_to([0.0, 0.3, 0])
        label = self.label(block, "multihead_context_vectors", context.shape, DOWN, buff=0.35)
        self.step("heads")
        self.say(f"{heads} heads, each an {tokens}×{d_v} context matrix")
        self.play(appear(block), appear(label))
        self.show_colorbar("context", context)

        self.step("concatenate")
        self.say(f"for every token, its {heads} head rows are laid end to end: {heads}×{d_v} = {heads * d_v}")
        head_gap = 1.2  # in cube pitches: the boundary between heads stays visible
        fit = min(ROW_WIDTH / ((heads * d_v + head_gap * (heads - 1)) * block.pitch),
                  ROW_HEIGHT / (tokens * block.pitch))
        self.play(label.animate.set_opacity(0.0), block.animate.scale(fit),
                  camera_turn(self, *FRONT_VIEW), run_time=1.4)
        slices, targets = concat_heads(self, block, head_gap=block.pitch * head_gap)
        tags = VGroup(*[note_text(f"h{h}", self.theme, font_size=14, color=self.theme.muted)
                        .next_to(s, UP, buff=0.1) for h, s in enumerate(slices)])
        self.fixed(*tags)
        self.play(appear(tags))
        final = self.label(Group(*slices), "multihead_flattened", flattened.shape, DOWN, buff=0.4,
                           dims=(None,) + self.trace.axes("s20_multihead_flattened"))
        self.play(appear(final))
        self.say(f"one row per token, {heads * d_v} numbers: the heads stay visible as blocks")
