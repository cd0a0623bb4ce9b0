"""Tensor provider: the attention computation with PyTorch, as plain arrays.

The only package that imports torch. Everything a scene shows comes from
:func:`compute_trace`, driven by one :class:`AttentionConfig`.

Examples
--------
>>> from tensors import AttentionConfig, compute_trace
>>> compute_trace(AttentionConfig())["s20_multihead_flattened"].shape
(8, 162)
"""

from .config import LIMITS, MASKS, AttentionConfig, ConfigError
from .derive import matmul_products, per_head_projection, softmax_steps
from .trace import MASK_KEY, STAGE_KEYS, Trace, axis_names, compute_trace
from .weights import LEAF_KEYS, Weights, load_weights

__all__ = [
    "AttentionConfig",
    "ConfigError",
    "LEAF_KEYS",
    "LIMITS",
    "MASKS",
    "MASK_KEY",
    "STAGE_KEYS",
    "Weights",
    "Trace",
    "axis_names",
    "compute_trace",
    "load_weights",
    "matmul_products",
    "per_head_projection",
    "softmax_steps",
]
