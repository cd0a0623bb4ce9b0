"""Stage 15: multi-head keys (as 14, with permute(0, 2, 1))."""

from scenes.storyboards.multihead_projection import MultiheadProjectionStage

__all__ = ["MultiheadKeys"]


class MultiheadKeys(MultiheadProjectionStage):
    number = 15
    title = "Multi-head keys"
    summary = "Xᵀ copied ×9; batched matmul 9×17×8; permute(0,2,1) → 9×8×17"
    code = ("multihead_keys = multihead_U_key.matmul(embedded_sentence.T)\n"
            "multihead_keys = multihead_keys.permute(0, 2, 1)")
    weight_key, before_key, result_key = (
        "s13_multihead_U_key", "s15_multihead_keys_before_permute", "s15_multihead_keys")
    weight_name, result_name = "multihead_U_key", "multihead_keys"
    transpose_code = "permute(0, 2, 1), stage 14's swapaxes(1, 2) in other words"
    first_of, speed, cells = "14", 2.0, 1  # one cell worked, as 16 (row 0 against all of Xᵀ at once left no
    # still with a cell's arithmetic: 15_0143, the 29th reader)
    turn_code = "permute(0, 2, 1)"
