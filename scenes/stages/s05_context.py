"""Stage 5: context vectors Z = A·X."""

from scenes.storyboards.matmul import MatmulStage

__all__ = ["ContextVectors"]


class ContextVectors(MatmulStage):
    number = 5
    follows_mask = True
    slug = "context"
    title = "Context vectors Z = A · X"
    summary = "matmul A (8×8) · X (8×16): each row of Z is a weighted mix of the token rows of X"
    code = "context_vectors = torch.matmul(attention_weights, embedded_sentence)"
    formula_tex = r"z^{(i)} = \sum_j \alpha_{ij}\, x^{(j)}"
    left_key, right_key, result_key = "s04_attention_weights", "s02_embedded_sentence", "s05_context_vectors"
    names = ("A", "X", "Z")
    intro = "attention weights A ({left}) and the embeddings X ({right})"
    outro = "row i of Z: the rows of X mixed by row i of A"
