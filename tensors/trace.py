"""The attention trace: every named intermediate of the 21 stages.

The computation follows the blog "Visualizing Transformer" line by line (which
follows the ch16 self-attention notebook of "Machine Learning with PyTorch and
Scikit-Learn"), including where the notebook re-seeds the generator:

* ``torch.manual_seed(seed)`` before ``nn.Embedding``;
* again before ``U_query``, ``U_key``, ``U_value``;
* again before ``one_U_query`` and the three multi-head tensors; the
  ``nn.Linear(h * d_v, d_v)`` takes the generator state right after them.

Two slips of the blog are *not* copied: the stage-14 queries after
``swapaxes(1, 2)`` are ``[h, T, d_k]`` (the blog prints ``[h, d_k, T]``), and
stage 19 permutes the values to ``[h, T, d_v]`` before the batched matmul, as
the notebook does (the blog's line would not run).

With ``mask="causal"`` every softmax (stages 4, 11, 18) first fills the
scores above the diagonal with -inf (``masked_fill(mask, float('-inf'))``),
so token i attends only to tokens j <= i; the mask is exported as
``s04_causal_mask`` (True where a score is masked). With ``weights`` the
leaves given replace the seeded ones right where the notebook draws them, so
the random stream of the others is unchanged.

With ``variant="paper"`` stages 13-21 follow the paper (and
``torch.nn.MultiheadAttention`` with zero input biases): the per-head
projections are ``[h, d/h, d]`` -- the row blocks of one ``d x d`` matrix
W_Q (W_K, W_V) -- drawn with the same seeding, and the output projection is
``W_O = nn.Linear(d, d)``. Stages 1-12 are the same in both variants.

This is the only module that imports torch, and only when a trace is not yet
in the on-disk cache (importing torch takes a second or more; a render needs
the arrays, not torch). Callers get read-only NumPy arrays.

Examples
--------
>>> trace = compute_trace(AttentionConfig())
>>> trace["s07_queries"].shape
(8, 17)
>>> trace.stage_keys()[:2]
('s01_sentence', 's02_embedding_table')
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import numpy as np

from .cache import cache_home
from .config import AttentionConfig

__all__ = ["Trace", "compute_trace", "STAGE_KEYS", "MASK_KEY", "axis_names"]

MASK_KEY = "s04_causal_mask"  # exported with the mask: True where token j comes after token i

# Stage number -> the keys ``render.py tensors`` exports for it (docs/stages.md).
STAGE_KEYS: dict[int, tuple[str, ...]] = {
    1: ("s01_sentence",),
    2: ("s02_embedding_table", "s02_embedded_sentence"),
    3: ("s03_omega",),
    4: ("s04_attention_weights",),
    5: ("s05_context_vectors",),
    6: ("s06_U_query", "s06_U_key", "s06_U_value"),
    7: ("s07_queries",),
    8: ("s08_keys",),
    9: ("s09_values",),
    10: ("s10_omegas",),
    11: ("s11_attention_weights",),
    12: ("s12_context_vectors",),
    13: ("s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value"),
    14: ("s14_multihead_queries",),
    15: ("s15_multihead_keys",),
    16: ("s16_multihead_values",),
    17: ("s17_multihead_omegas",),
    18: ("s18_multihead_attention_weights",),
    19: ("s19_multihead_context_vectors",),
    20: ("s20_multihead_flattened",),
    21: ("s21_linear_weight", "s21_linear_bias", "s21_output"),
}


def axis_names(variant: str = "blog") -> dict[str, tuple[str, ...]]:
    """What each axis of every trace tensor counts, e.g. ``("tokens", "features (d)")``.

    The features are told apart by their size's name: d, d_k = d+1, d_v = d+2
    (the blog's sizes, stages 6-12 in both variants). The multi-head part uses
    them too in the blog; in the paper a head has d/h features, h of them
    concatenate back to d and W_O keeps d.
    """
    T, H = "tokens", "heads"
    d, d_k, d_v, concat, split = (f"features ({n})" for n in ("d", "d_k", "d_v", "h·d_v", "d/h"))
    head_k, head_v, out = (split, split, d) if variant == "paper" else (d_k, d_v, d_v)
    concat = d if variant == "paper" else concat
    return {
        "s01_sentence": (T,),
        "s02_embedding_table": ("vocabulary", d),
        "s02_embedded_sentence": (T, d),
        "s03_omega": (T, T),
        MASK_KEY: (T, T),
        "s04_masked_omega": (T, T),
        "s04_attention_weights": (T, T),
        "s05_context_vectors": (T, d),
        "s06_U_query": (d_k, d),
        "s06_U_key": (d_k, d),
        "s06_U_value": (d_v, d),
        "s07_queries_before_transpose": (d_k, T),
        "s07_queries": (T, d_k),
        "s08_keys_before_transpose": (d_k, T),
        "s08_keys": (T, d_k),
        "s09_values_before_transpose": (d_v, T),
        "s09_values": (T, d_v),
        "s10_omegas": (T, T),
        "s11_scaled_omegas": (T, T),
        "s11_masked_scaled_omegas": (T, T),
        "s11_attention_weights": (T, T),
        "s12_context_vectors": (T, d_v),
        "s13_multihead_U_query": (H, head_k, d),
        "s13_multihead_U_key": (H, head_k, d),
        "s13_multihead_U_value": (H, head_v, d),
        "s14_multihead_queries_before_swap": (H, head_k, T),
        "s14_multihead_queries": (H, T, head_k),
        "s15_multihead_keys_before_permute": (H, head_k, T),
        "s15_multihead_keys": (H, T, head_k),
        "s16_multihead_values": (H, head_v, T),
        "s17_multihead_omegas": (H, T, T),
        "s18_multihead_scaled_omegas": (H, T, T),
        "s18_multihead_masked_scaled_omegas": (H, T, T),
        "s18_multihead_attention_weights": (H, T, T),
        "s19_multihead_values_permuted": (H, T, head_v),
        "s19_multihead_context_vectors": (H, T, head_v),
        "s20_multihead_context_swapped": (T, H, head_v),
        "s20_multihead_flattened": (T, concat),
        "s21_linear_weight": (out, concat),
        "s21_linear_bias": (out,),
        "s21_before_bias": (T, out),
        "s21_output": (T, out),
    }


class Trace(Mapping):
    """Read-only mapping of tensor name -> NumPy array, plus its configuration.

    Besides the exported stage keys (``sNN_name``) it holds the in-between
    tensors the scenes show on the way, named after the blog's variables with
    a suffix, e.g. ``s14_multihead_queries_before_swap`` (h, d_k, T).
    """

    def __init__(self, config: AttentionConfig, arrays: dict[str, np.ndarray]):
        self.config = config
        self._arrays = arrays
        self._axes = axis_names(config.variant)

    def axes(self, key: str) -> tuple[str, ...]:
        """What each axis of tensor ``key`` counts (see :func:`axis_names`)."""
        return self._axes[key]

    def __getitem__(self, key: str) -> np.ndarray:
        return self._arrays[key]

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)

    @staticmethod
    def stage_keys() -> tuple[str, ...]:
        """The exported keys of every configuration, in stage order."""
        return tuple(k for keys in STAGE_KEYS.values() for k in keys)

    def export_keys(self) -> tuple[str, ...]:
        """The exported keys of this configuration: with a causal mask, the mask
        follows stage 4's weights."""
        keys = list(self.stage_keys())
        if self.config.mask == "causal":
            keys.insert(keys.index("s04_attention_weights") + 1, MASK_KEY)
        return tuple(keys)

    def export(self) -> dict[str, np.ndarray]:
        """The stage tensors under their export names (docs/stages.md)."""
        return {k: self._arrays[k] for k in self.export_keys()}


def _frozen(t) -> np.ndarray:
    array = t.detach().cpu().numpy().copy() if hasattr(t, "detach") else np.array(t)
    array.setflags(write=False)
    return array


def _cache_file(config: AttentionConfig) -> Path | None:
    """Where the trace of ``config`` is kept between processes, or None when
    there is no cache folder (``ATTENTION_CUBES_TRACE_CACHE=off``).

    The name hashes the configuration (your weights by content), the code that
    computes the trace and the installed torch's version, so a change in any
    of them never reads an old trace.
    """
    folder = os.environ.get("ATTENTION_CUBES_TRACE_CACHE")
    if folder == "off":
        return None
    if not folder:
        folder = cache_home() / "traces"
    from importlib.metadata import PackageNotFoundError, version

    try:
        torch_version = version("torch")
    except PackageNotFoundError:
        torch_version = "none"
    digest = hashlib.sha256(repr(config).encode() + torch_version.encode())
    for module in ("trace.py", "config.py", "weights.py"):
        digest.update((Path(__file__).parent / module).read_bytes())
    return Path(folder) / f"{digest.hexdigest()[:32]}.npz"


@lru_cache(maxsize=8)
def compute_trace(config: AttentionConfig) -> Trace:
    """Run the blog's attention code for ``config`` and keep every intermediate.

    Deterministic: the same configuration gives bit-identical arrays in any
    process (CPU, float32, a fixed thread-independent op sequence), so a
    trace computed once is kept on disk (:func:`_cache_file`) and read back
    by later processes without importing torch.
    """
    cache = _cache_file(config)
    if cache is not None and cache.is_file():
        try:
            with np.load(cache, allow_pickle=False) as data:
                return Trace(config, {name: _frozen(data[name]) for name in data.files})
        except (OSError, ValueError, KeyError):
            pass  # unreadable: compute it again
    trace = Trace(config, _compute(config))
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_name(f".{cache.name}.{os.getpid()}")
            with open(partial, "wb") as handle:
                np.savez(handle, **dict(trace.items()))
            os.replace(partial, cache)
        except OSError:
            pass  # a cache that cannot be written only costs time
    return trace


def _compute(config: AttentionConfig) -> dict[str, np.ndarray]:
    """The computation itself, with torch."""
    import torch
    import torch.nn.functional as F
    d, d_k, d_v, h = config.d, config.d_k, config.d_v, config.heads
    head_k, head_v = config.head_k, config.head_v
    own = {k: torch.from_numpy(np.array(v)) for k, v in (config.weights or {}).items()}
    causal = config.mask == "causal"
    # True above the diagonal: the scores of tokens that come later
    mask = torch.triu(torch.ones(config.tokens, config.tokens, dtype=torch.bool), diagonal=1)

    def masked(scores: torch.Tensor) -> torch.Tensor:
        return scores.masked_fill(mask, float("-inf")) if causal else scores

    out: dict[str, torch.Tensor] = {}
    with torch.no_grad():
        sentence = torch.tensor(config.token_ids, dtype=torch.long)
        out["s01_sentence"] = sentence

        # Basic self-attention
        torch.manual_seed(config.seed)
        embed = torch.nn.Embedding(config.vocab_size, d)
        if "s02_embedding_table" in own:
            embed.weight.copy_(own["s02_embedding_table"])
        if "s02_embedded_sentence" in own:  # the table's rows of the sentence's words
            embed.weight[sentence] = own["s02_embedded_sentence"]
        embedded_sentence = embed(sentence).detach()
        out["s02_embedding_table"] = embed.weight
        out["s02_embedded_sentence"] = embedded_sentence

        omega = embedded_sentence.matmul(embedded_sentence.T)
        out["s03_omega"] = omega
        out[MASK_KEY] = mask
        out["s04_masked_omega"] = masked(omega)
        attention_weights = F.softmax(masked(omega), dim=1)
        out["s04_attention_weights"] = attention_weights
        out["s05_context_vectors"] = torch.matmul(attention_weights, embedded_sentence)

        # Scaled dot-product attention
        torch.manual_seed(config.seed)
        U_query = torch.rand(d_k, d)
        U_key = torch.rand(d_k, d)
        U_value = torch.rand(d_v, d)
        U_query, U_key, U_value = (own.get(f"s06_U_{n}", u) for n, u in
                                   (("query", U_query), ("key", U_key), ("value", U_value)))
        out["s06_U_query"], out["s06_U_key"], out["s06_U_value"] = U_query, U_key, U_value

        queries = U_query.matmul(embedded_sentence.T).T
        keys = U_key.matmul(embedded_sentence.T).T
        values = U_value.matmul(embedded_sentence.T).T
        out["s07_queries_before_transpose"] = U_query.matmul(embedded_sentence.T)
        out["s07_queries"] = queries
        out["s08_keys_before_transpose"] = U_key.matmul(embedded_sentence.T)
        out["s08_keys"] = keys
        out["s09_values_before_transpose"] = U_value.matmul(embedded_sentence.T)
        out["s09_values"] = values

        omegas = queries.matmul(keys.T)
        out["s10_omegas"] = omegas
        out["s11_scaled_omegas"] = omegas / d_k**0.5
        out["s11_masked_scaled_omegas"] = masked(omegas / d_k**0.5)
        attention_weights = F.softmax(masked(omegas / d_k**0.5), dim=-1)
        out["s11_attention_weights"] = attention_weights
        out["s12_context_vectors"] = attention_weights.matmul(values)

        # Multi-head attention
        torch.manual_seed(config.seed)
        if config.variant == "blog":
            torch.rand(d_k, d)  # the notebook draws one U_query here; keeps the stream
        multihead_U_query = torch.rand(h, head_k, d)
        multihead_U_key = torch.rand(h, head_k, d)
        multihead_U_value = torch.rand(h, head_v, d)
        multihead_U_query, multihead_U_key, multihead_U_value = (
            own.get(f"s13_multihead_U_{n}", u) for n, u in
            (("query", multihead_U_query), ("key", multihead_U_key), ("value", multihead_U_value)))
        out["s13_multihead_U_query"] = multihead_U_query
        out["s13_multihead_U_key"] = multihead_U_key
        out["s13_multihead_U_value"] = multihead_U_value

        multihead_queries = multihead_U_query.matmul(embedded_sentence.T)
        out["s14_multihead_queries_before_swap"] = multihead_queries
        multihead_queries = multihead_queries.swapaxes(1, 2)
        out["s14_multihead_queries"] = multihead_queries

        multihead_keys = multihead_U_key.matmul(embedded_sentence.T)
        out["s15_multihead_keys_before_permute"] = multihead_keys
        multihead_keys = multihead_keys.permute(0, 2, 1)
        out["s15_multihead_keys"] = multihead_keys

        multihead_values = multihead_U_value.matmul(embedded_sentence.T)
        out["s16_multihead_values"] = multihead_values

        multihead_omegas = multihead_queries.matmul(multihead_keys.swapaxes(1, 2))
        out["s17_multihead_omegas"] = multihead_omegas
        out["s18_multihead_scaled_omegas"] = multihead_omegas / head_k**0.5
        out["s18_multihead_masked_scaled_omegas"] = masked(multihead_omegas / head_k**0.5)
        multihead_attention_weights = F.softmax(masked(multihead_omegas / head_k**0.5), dim=-1)
        out["s18_multihead_attention_weights"] = multihead_attention_weights

        multihead_values = multihead_values.permute(0, 2, 1)
        out["s19_multihead_values_permuted"] = multihead_values
        multihead_context_vectors = multihead_attention_weights.matmul(multihead_values)
        out["s19_multihead_context_vectors"] = multihead_context_vectors

        multihead_context_vectors = multihead_context_vectors.swapaxes(0, 1)
        out["s20_multihead_context_swapped"] = multihead_context_vectors
        multihead_flattened = multihead_context_vectors.reshape(config.tokens, h * head_v)
        out["s20_multihead_flattened"] = multihead_flattened

        linear = torch.nn.Linear(h * head_v, config.d_out)
        if "s21_linear_weight" in own:
            linear.weight.copy_(own["s21_linear_weight"])
            linear.bias.zero_()  # a given weight without its bias: no bias
        if "s21_linear_bias" in own:
            linear.bias.copy_(own["s21_linear_bias"])
        out["s21_linear_weight"] = linear.weight
        out["s21_linear_bias"] = linear.bias
        out["s21_before_bias"] = multihead_flattened.matmul(linear.weight.T)
        out["s21_output"] = linear(multihead_flattened)

    return {name: _frozen(t) for name, t in out.items()}
