"""Stage 16: multi-head values (as 14, no transpose yet)."""

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
    first_of, speed, cells = "14", 2.0, 1

    def finish(self, result, leaving):
        """The heads side by side, head 0 large, the others formed beside it: not turned, a token in each column."""
        self.heads_formed(result, leaving)
        self.wait(0.6)
        self.say(f"{self.result_name}: {shape_text(result.source_shape)}, a token in each column of every "
                 f"head, not transposed yet: stage 19 permutes it")
        self.wait(0.9)
