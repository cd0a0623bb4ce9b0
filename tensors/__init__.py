"""Tensor provider: the attention computation with PyTorch, as plain arrays.

The only package that imports torch. Everything a scene shows comes from
:func:`compute_trace`, driven by one :class:`AttentionConfig`.

Examples
--------
>>> from tensors import AttentionConfig, compute_trace
>>> compute_trace(AttentionConfig())["s20_multihead_flattened"].shape
(8, 162)
"""

from .config import INITS, LIMITS, MASKS, POSITIONS, TRAINED, AttentionConfig, ConfigError
from .derive import matmul_products, per_head_projection, softmax_steps
from .positions import sinusoidal
from .roles import ROLES, HeadRole, head_roles
from .trace import MASK_KEY, STAGE_KEYS, Trace, axis_names, compute_trace
from .training import TrainingInfo
from .weights import LEAF_KEYS, POSITION_KEYS, Weights, load_weights

__all__ = [
    "AttentionConfig",
    "ConfigError",
    "HeadRole",
    "INITS",
    "LEAF_KEYS",
    "LIMITS",
    "MASKS",
    "MASK_KEY",
    "POSITIONS",
    "POSITION_KEYS",
    "ROLES",
    "STAGE_KEYS",
    "TRAINED",
    "TrainingInfo",
    "Weights",
    "Trace",
    "axis_names",
    "compute_trace",
    "head_roles",
    "load_weights",
    "matmul_products",
    "per_head_projection",
    "sinusoidal",
    "softmax_steps",
]
