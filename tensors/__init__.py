"""Tensor provider: the attention computation with PyTorch, as plain arrays.

The only package that imports torch. Everything a scene shows comes from
:func:`compute_trace`, driven by one :class:`AttentionConfig`; what each
stage computes, reads and exports is stated once, on its function
(:mod:`.stagelist`, the blog's stages in :mod:`.attention`).

Examples
--------
>>> from tensors import AttentionConfig, compute_trace
>>> compute_trace(AttentionConfig())["s20_multihead_flattened"].shape
(8, 162)
"""

from .attention import MASK_KEY
from .config import INITS, LIMITS, MASKS, POSITIONS, TRAINED, AttentionConfig
from .derive import matmul_products, per_head_projection, softmax_steps
from .errors import ConfigError
from .positions import sinusoidal
from .roles import ROLES, HeadRole, head_roles
from .stagelist import Run, StageSpec, axis_names, stage, stage_list
from .trace import Trace, compute_trace
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
    "Run",
    "StageSpec",
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
    "stage",
    "stage_list",
]
