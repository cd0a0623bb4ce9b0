"""Stages 7-9: Q, K, V = (U · Xᵀ)ᵀ - one storyboard, three tensors."""

from scenes.storyboards.projection import ProjectionStage

__all__ = ["Queries"]


class Queries(ProjectionStage):
    number = 7
    title = "Queries Q = (U_query · Xᵀ)ᵀ"
    summary = "matmul U_query (17×16) · Xᵀ (16×8) = 17×8, then .T turns it into Q (8×17)"
    code = "queries = U_query.matmul(embedded_sentence.T).T"
    weight_key, result_key = "s06_U_query", "s07_queries"
    weight_name, result_name, role = "U_query", "Q", "query"
