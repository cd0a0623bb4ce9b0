"""Stages 14-16: multi-head Q, K, V by broadcasting Xᵀ across the heads."""

from scenes.storyboards.multihead_projection import MultiheadProjectionStage

__all__ = ["MultiheadQueries"]


class MultiheadQueries(MultiheadProjectionStage):
    number = 14
    title = "Multi-head queries"
    summary = "Xᵀ (16×8) copied ×9 along the head axis; batched matmul 9×17×8; swapaxes(1,2) → 9×8×17"
    code = ("multihead_queries = multihead_U_query.matmul(embedded_sentence.T)\n"
            "multihead_queries = multihead_queries.swapaxes(1, 2)")
    weight_key, before_key, result_key = (
        "s13_multihead_U_query", "s14_multihead_queries_before_swap", "s14_multihead_queries")
    # the one turn spelled three ways across the stages (.T, swapaxes, permute) said once to be one (G7 of the
    # 51st reader; stage 15 ties permute to swapaxes)
    weight_name, result_name = "multihead_U_query", "multihead_queries"
    transpose_code = "swapaxes(1, 2), stage 7's .T for each head"
    single = ("U_query", 7)
    turn_code = "swapaxes(1, 2)"
