"""The blog's attention code, one function a stage, each under its description.

The computation follows the blog "Visualizing Transformer" line by line (which
follows the ch16 self-attention notebook of "Machine Learning with PyTorch and
Scikit-Learn"), including where the notebook re-seeds the generator:

* ``torch.manual_seed(seed)`` before ``nn.Embedding`` (stage 2);
* again before ``U_query``, ``U_key``, ``U_value`` (stage 6);
* again before ``one_U_query`` and the three multi-head tensors (stage 13);
  the ``nn.Linear(h * d_v, d_v)`` of stage 21 takes the generator state right
  after them: the stages run in number order and 14-20 draw nothing.

Two slips of the blog are *not* copied: the stage-14 queries after
``swapaxes(1, 2)`` are ``[h, T, d_k]`` (the blog prints ``[h, d_k, T]``), and
stage 19 permutes the values to ``[h, T, d_v]`` before the batched matmul, as
the notebook does (the blog's line would not run).

With ``mask="causal"`` every softmax (stages 4, 11, 18) first fills the
scores above the diagonal with -inf (``masked_fill(mask, float('-inf'))``),
so token i attends only to tokens j <= i; the mask is exported as
``s04_causal_mask`` (True where a score is masked). With ``weights`` the
leaves given (``run.own``) replace the seeded ones right where the notebook
draws them, so the random stream of the others is unchanged.

With ``positions`` (``learned``: a T x d table drawn as ``nn.Embedding(T, d)``
right after the embedding; ``sinusoidal``: Vaswani et al.'s formula) stage 2
adds them to the token rows: ``s02_token_embeddings`` (the bare lookup) +
``s02_positions`` = ``s02_embedded_sentence`` (X, what attention consumes).
With ``init="xavier"`` the U matrices and the output projection are the same
draws turned Xavier-uniform.

With ``variant="paper"`` the stages from 13 on follow the paper (and
``torch.nn.MultiheadAttention`` with zero input biases): the per-head
projections are ``[h, d/h, d]`` -- the row blocks of one ``d x d`` matrix
W_Q (W_K, W_V) -- drawn with the same seeding, and the output projection is
``W_O = nn.Linear(d, d)``. Stages 1-12 are the same in both variants.

Each function imports torch when it runs (:func:`~.trace.compute_trace` runs
them only when a trace is not in the on-disk cache), so importing this module
costs nothing: the descriptions are read without torch.
"""

from __future__ import annotations

from .positions import sinusoidal
from .stagelist import Tensor, stage

__all__ = ["MASK_KEY"]

MASK_KEY = "s04_causal_mask"  # exported with the mask: True where token j comes after token i

TT = ("tokens", "tokens")


def _drawn(run, u, fan_in: int, fan_out: int):
    """A torch.rand draw as the blog uses it, or the same draw Xavier-uniform."""
    return (u * 2 - 1) * (6.0 / (fan_in + fan_out)) ** 0.5 if run.config.init == "xavier" else u


def _masked(config, scores, mask):
    """``scores`` with the later tokens' scores (``mask``) at -inf under a
    causal mask, else ``scores`` itself."""
    return scores.masked_fill(mask, float("-inf")) if config.mask == "causal" else scores


# -- basic self-attention --------------------------------------------------------------
@stage(1, "token_ids", exports={"s01_sentence": ("tokens",)})
def token_ids(run):
    import torch

    return {"s01_sentence": torch.tensor(run.config.token_ids, dtype=torch.long)}


@stage(2, "embedding", reads=("s01_sentence",), exports={
    "s02_embedding_table": ("vocabulary", "d"),
    "s02_token_embeddings": Tensor(("tokens", "d"), when="positions"),
    "s02_positions": Tensor(("tokens", "d"), when="positions"),
    "s02_embedded_sentence": ("tokens", "d"),
})
def embedding(run):
    import torch

    config, own, sentence = run.config, run.own, run["s01_sentence"]
    torch.manual_seed(config.seed)
    embed = torch.nn.Embedding(config.vocab_size, config.d)
    if config.positions == "learned":  # drawn right after the table: the other draws stay
        positions = own.get("s02_positions", torch.nn.Embedding(config.tokens, config.d).weight.detach())
    elif config.positions == "sinusoidal":
        positions = torch.from_numpy(sinusoidal(config.tokens, config.d))
    if "s02_embedding_table" in own:
        embed.weight.copy_(own["s02_embedding_table"])
    rows = "s02_embedded_sentence" if config.positions == "none" else "s02_token_embeddings"
    if rows in own:  # the table's rows of the sentence's words
        embed.weight[sentence] = own[rows]
    embedded_sentence = embed(sentence).detach()
    out = {"s02_embedding_table": embed.weight}
    if config.positions != "none":
        out["s02_token_embeddings"] = embedded_sentence
        out["s02_positions"] = positions
        embedded_sentence = embedded_sentence + positions
    out["s02_embedded_sentence"] = embedded_sentence
    return out


@stage(3, "omega", reads=("s02_embedded_sentence",), exports={"s03_omega": TT})
def omega(run):
    x = run["s02_embedded_sentence"]
    return {"s03_omega": x.matmul(x.T)}


@stage(4, "softmax", reads=("s03_omega",), masks=True,
       exports={"s04_attention_weights": TT, MASK_KEY: Tensor(TT, when="causal")},
       shows={"s04_masked_omega": TT})
def softmax(run):
    import torch
    import torch.nn.functional as F

    omega = run["s03_omega"]
    # True above the diagonal: the scores of tokens that come later
    mask = torch.triu(torch.ones(run.config.tokens, run.config.tokens, dtype=torch.bool), diagonal=1)
    masked = _masked(run.config, omega, mask)
    return {MASK_KEY: mask, "s04_masked_omega": masked, "s04_attention_weights": F.softmax(masked, dim=1)}


@stage(5, "context", reads=("s04_attention_weights", "s02_embedded_sentence"),
       exports={"s05_context_vectors": ("tokens", "d")})
def context(run):
    import torch

    return {"s05_context_vectors": torch.matmul(run["s04_attention_weights"], run["s02_embedded_sentence"])}


# -- scaled dot-product attention ------------------------------------------------------
@stage(6, "projections", exports={
    "s06_U_query": ("d_k", "d"), "s06_U_key": ("d_k", "d"), "s06_U_value": ("d_v", "d")})
def projections(run):
    import torch

    d, d_k, d_v = run.config.d, run.config.d_k, run.config.d_v
    torch.manual_seed(run.config.seed)
    U_query = _drawn(run, torch.rand(d_k, d), d, d_k)
    U_key = _drawn(run, torch.rand(d_k, d), d, d_k)
    U_value = _drawn(run, torch.rand(d_v, d), d, d_v)
    return {f"s06_U_{n}": run.own.get(f"s06_U_{n}", u)
            for n, u in (("query", U_query), ("key", U_key), ("value", U_value))}


def _projected(run, weight_key: str):
    """``U.matmul(X.T)`` and its ``.T``: a token's projection per row."""
    before = run[weight_key].matmul(run["s02_embedded_sentence"].T)
    return before, before.T


@stage(7, "queries", reads=("s06_U_query", "s02_embedded_sentence"), exports={"s07_queries": ("tokens", "d_k")},
       shows={"s07_queries_before_transpose": ("d_k", "tokens")})
def queries(run):
    before, queries = _projected(run, "s06_U_query")
    return {"s07_queries_before_transpose": before, "s07_queries": queries}


@stage(8, "keys", reads=("s06_U_key", "s02_embedded_sentence"), exports={"s08_keys": ("tokens", "d_k")},
       shows={"s08_keys_before_transpose": ("d_k", "tokens")})
def keys(run):
    before, keys = _projected(run, "s06_U_key")
    return {"s08_keys_before_transpose": before, "s08_keys": keys}


@stage(9, "values", reads=("s06_U_value", "s02_embedded_sentence"), exports={"s09_values": ("tokens", "d_v")},
       shows={"s09_values_before_transpose": ("d_v", "tokens")})
def values(run):
    before, values = _projected(run, "s06_U_value")
    return {"s09_values_before_transpose": before, "s09_values": values}


@stage(10, "omegas", reads=("s07_queries", "s08_keys"), exports={"s10_omegas": TT})
def omegas(run):
    return {"s10_omegas": run["s07_queries"].matmul(run["s08_keys"].T)}


@stage(11, "scaled_softmax", reads=("s10_omegas", MASK_KEY), masks=True,
       exports={"s11_attention_weights": TT},
       shows={"s11_scaled_omegas": TT, "s11_masked_scaled_omegas": TT, "s11_unscaled_weights": TT})
def scaled_softmax(run):
    import torch.nn.functional as F

    scaled = run["s10_omegas"] / run.config.d_k**0.5
    masked = _masked(run.config, scaled, run[MASK_KEY])
    # what the scaling changes: the weights the same scores would get without it
    unscaled = F.softmax(_masked(run.config, run["s10_omegas"], run[MASK_KEY]), dim=-1)
    return {"s11_scaled_omegas": scaled, "s11_masked_scaled_omegas": masked,
            "s11_attention_weights": F.softmax(masked, dim=-1), "s11_unscaled_weights": unscaled}


@stage(12, "context_values", reads=("s11_attention_weights", "s09_values"),
       exports={"s12_context_vectors": ("tokens", "d_v")})
def context_values(run):
    return {"s12_context_vectors": run["s11_attention_weights"].matmul(run["s09_values"])}


# -- multi-head attention --------------------------------------------------------------
@stage(13, "multihead_projections", variant=True, exports={
    "s13_multihead_U_query": ("heads", "head_k", "d"),
    "s13_multihead_U_key": ("heads", "head_k", "d"),
    "s13_multihead_U_value": ("heads", "head_v", "d"),
})
def multihead_projections(run):
    import torch

    config = run.config
    d, h, head_k, head_v = config.d, config.heads, config.head_k, config.head_v
    torch.manual_seed(config.seed)
    if config.variant == "blog":
        torch.rand(config.d_k, d)  # the notebook draws one U_query here; keeps the stream
    # Xavier's fans: a blog head maps d to its own d_k (d_v); the paper's W_Q
    # (W_K, W_V) is one d x d matrix whose row blocks are the heads
    fan_k, fan_v = (head_k, head_v) if config.variant == "blog" else (d, d)
    U_query = _drawn(run, torch.rand(h, head_k, d), d, fan_k)
    U_key = _drawn(run, torch.rand(h, head_k, d), d, fan_k)
    U_value = _drawn(run, torch.rand(h, head_v, d), d, fan_v)
    return {f"s13_multihead_U_{n}": run.own.get(f"s13_multihead_U_{n}", u)
            for n, u in (("query", U_query), ("key", U_key), ("value", U_value))}


@stage(14, "multihead_queries", reads=("s13_multihead_U_query", "s02_embedded_sentence"),
       exports={"s14_multihead_queries": ("heads", "tokens", "head_k")},
       shows={"s14_multihead_queries_before_swap": ("heads", "head_k", "tokens")})
def multihead_queries(run):
    queries = run["s13_multihead_U_query"].matmul(run["s02_embedded_sentence"].T)
    return {"s14_multihead_queries_before_swap": queries, "s14_multihead_queries": queries.swapaxes(1, 2)}


@stage(15, "multihead_keys", reads=("s13_multihead_U_key", "s02_embedded_sentence"),
       exports={"s15_multihead_keys": ("heads", "tokens", "head_k")},
       shows={"s15_multihead_keys_before_permute": ("heads", "head_k", "tokens")})
def multihead_keys(run):
    keys = run["s13_multihead_U_key"].matmul(run["s02_embedded_sentence"].T)
    return {"s15_multihead_keys_before_permute": keys, "s15_multihead_keys": keys.permute(0, 2, 1)}


@stage(16, "multihead_values", reads=("s13_multihead_U_value", "s02_embedded_sentence"),
       exports={"s16_multihead_values": ("heads", "head_v", "tokens")})
def multihead_values(run):
    return {"s16_multihead_values": run["s13_multihead_U_value"].matmul(run["s02_embedded_sentence"].T)}


@stage(17, "multihead_omegas", reads=("s14_multihead_queries", "s15_multihead_keys"),
       exports={"s17_multihead_omegas": ("heads", "tokens", "tokens")})
def multihead_omegas(run):
    return {"s17_multihead_omegas": run["s14_multihead_queries"].matmul(run["s15_multihead_keys"].swapaxes(1, 2))}


@stage(18, "multihead_softmax", reads=("s17_multihead_omegas", MASK_KEY), masks=True,
       exports={"s18_multihead_attention_weights": ("heads", "tokens", "tokens")},
       shows={"s18_multihead_scaled_omegas": ("heads", "tokens", "tokens"),
              "s18_multihead_masked_scaled_omegas": ("heads", "tokens", "tokens")})
def multihead_softmax(run):
    import torch.nn.functional as F

    scaled = run["s17_multihead_omegas"] / run.config.head_k**0.5
    masked = _masked(run.config, scaled, run[MASK_KEY])
    return {"s18_multihead_scaled_omegas": scaled, "s18_multihead_masked_scaled_omegas": masked,
            "s18_multihead_attention_weights": F.softmax(masked, dim=-1)}


@stage(19, "multihead_context", reads=("s18_multihead_attention_weights", "s16_multihead_values"),
       exports={"s19_multihead_context_vectors": ("heads", "tokens", "head_v")},
       shows={"s19_multihead_values_permuted": ("heads", "tokens", "head_v")})
def multihead_context(run):
    values = run["s16_multihead_values"].permute(0, 2, 1)
    return {"s19_multihead_values_permuted": values,
            "s19_multihead_context_vectors": run["s18_multihead_attention_weights"].matmul(values)}


@stage(20, "concatenation", reads=("s19_multihead_context_vectors",),
       exports={"s20_multihead_flattened": ("tokens", "concat")},
       shows={"s20_multihead_context_swapped": ("tokens", "heads", "head_v")})
def concatenation(run):
    swapped = run["s19_multihead_context_vectors"].swapaxes(0, 1)
    return {"s20_multihead_context_swapped": swapped,
            "s20_multihead_flattened": swapped.reshape(run.config.tokens, run.config.concat)}


@stage(21, "linear", reads=("s20_multihead_flattened",), exports={
    "s21_linear_weight": ("d_out", "concat"), "s21_linear_bias": ("d_out",), "s21_output": ("tokens", "d_out")},
       shows={"s21_before_bias": ("tokens", "d_out")})
def linear(run):
    import torch

    config, own, flattened = run.config, run.own, run["s20_multihead_flattened"]
    linear = torch.nn.Linear(config.concat, config.d_out)  # draws right after stage 13's tensors
    if config.init == "xavier":  # nn.Linear draws uniform(+-1/sqrt(fan_in)): the same draw rescaled
        linear.weight.mul_((6.0 / (config.concat + config.d_out)) ** 0.5 * config.concat**0.5)
        linear.bias.zero_()
    if "s21_linear_weight" in own:
        linear.weight.copy_(own["s21_linear_weight"])
        linear.bias.zero_()  # a given weight without its bias: no bias
    if "s21_linear_bias" in own:
        linear.bias.copy_(own["s21_linear_bias"])
    return {"s21_linear_weight": linear.weight, "s21_linear_bias": linear.bias,
            "s21_before_bias": flattened.matmul(linear.weight.T), "s21_output": linear(flattened)}
