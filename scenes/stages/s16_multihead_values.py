"""Stage 16: multi-head values (as 14, no transpose yet)."""

from manim import DOWN

from scenes.components.fades import appear
from scenes.components.labels import shape_text
from scenes.storyboards.multihead_projection import MultiheadProjectionStage

__all__ = ["MultiheadValues"]


class MultiheadValues(MultiheadProjectionStage):
    number = 16
    title = "Multi-head values"
    summary = "Xᵀ copied ×9; batched matmul gives 9×18×8 (permuted later, in stage 19)"
    code = "multihead_values = multihead_U_value.matmul(embedded_sentence.T)"
    weight_key, before_key, result_key = (
        "s13_multihead_U_value", "s16_multihead_values", "s16_multihead_values")
    weight_name, result_name = "multihead_U_value", "multihead_values"

    def finish(self, result):
        shape = self.trace[self.result_key].shape
        self.settle(result)
        self.say(f"multihead_values: {shape_text(shape)} - kept like this until stage 19 turns it")
        self.play(appear(self.layout.label(result, self.result_name, shape, DOWN)), run_time=0.4)
