"""The attention trace: every named intermediate of every stage, as read-only arrays.

:func:`compute_trace` runs the registered stage functions (the blog's, in
:mod:`.attention`, and any other registered with
:func:`~.stagelist.stage`) in number order and keeps what they return. With
``weights="trained"`` every leaf comes from tensors/training.py and the trace
carries what training did (:attr:`Trace.training`).

torch is imported only when a trace is not yet in the on-disk cache
(importing torch takes a second or more; a render needs the arrays, not
torch). Callers get read-only NumPy arrays.

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

from . import attention  # noqa: F401  (registers the blog's stages)
from .cache import cache_folder, code_bytes, torch_version
from .config import AttentionConfig
from .roles import HeadRole, head_roles
from .stagelist import Run, axis_names, exported_keys, fingerprint, stage_keys, stage_list, when_changed
from .training import TrainingInfo
from .weights import settable

__all__ = ["Trace", "compute_trace", "is_cached"]


class Trace(Mapping):
    """Read-only mapping of tensor name -> NumPy array, plus its configuration.

    Besides the exported stage keys (``sNN_name``) it holds the in-between
    tensors the scenes show on the way, named after the blog's variables with
    a suffix, e.g. ``s14_multihead_queries_before_swap`` (h, d_k, T).

    ``training`` is what training did for ``weights="trained"``
    (:class:`~.training.TrainingInfo`), else None.
    """

    def __init__(self, config: AttentionConfig, arrays: dict[str, np.ndarray],
                 training: TrainingInfo | None = None):
        self.config = config
        self.training = training
        self._arrays = arrays
        self._axes = axis_names(config.variant)

    def roles(self) -> tuple[HeadRole, ...]:
        """Each head's role on this sentence, from stage 18's weights (see tensors/roles.py)."""
        return head_roles(self._arrays["s18_multihead_attention_weights"], self.config.token_ids,
                          causal=self.config.mask == "causal")

    def single_head_role(self) -> HeadRole:
        """The role of the single head of stages 10-12, from stage 11's weights (head index 0)."""
        return head_roles(self._arrays["s11_attention_weights"], self.config.token_ids,
                          causal=self.config.mask == "causal")[0]

    def leaves(self) -> dict[str, np.ndarray]:
        """The tensors a ``--weights`` file may set for this configuration, as
        this trace has them: written out, they read back to this trace."""
        return {k: self._arrays[k] for k in settable(self.config.positions)
                if k not in ("s02_embedded_sentence", "s02_token_embeddings")}

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
        return stage_keys()

    def export_keys(self) -> tuple[str, ...]:
        """The exported keys of this configuration, in stage order: with a
        causal mask, the mask follows stage 4's weights; with positions, the
        token rows and the positions come before X."""
        return exported_keys(self.config)

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
    computes the trace (the stage list: every stage's description and its
    function's module) and the installed torch's version, so a change in any
    of them never reads an old trace.
    """
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(repr(config).encode() + torch_version().encode() + fingerprint())
    digest.update(code_bytes("trace.py", "stagelist.py", "config.py", "weights.py", "positions.py", "training.py"))
    return folder / f"{digest.hexdigest()[:32]}.npz"


_TRAINING_ENTRY = "_training_info"  # beside a trained trace's arrays in its cache file


def is_cached(config: AttentionConfig) -> bool:
    """Whether ``config``'s trace is in the on-disk cache, so :func:`compute_trace`
    reads it instead of computing it (for trained weights: training)."""
    cache = _cache_file(config)
    return cache is not None and cache.is_file()


@lru_cache(maxsize=8)
def compute_trace(config: AttentionConfig) -> Trace:
    """Run every stage's function for ``config`` and keep every intermediate.

    Deterministic: the same configuration gives bit-identical arrays in any
    process (CPU, float32, a fixed thread-independent op sequence), so a
    trace computed once is kept on disk (:func:`_cache_file`) and read back
    by later processes without importing torch.
    """
    cache = _cache_file(config)
    if cache is not None and cache.is_file():
        try:
            with np.load(cache, allow_pickle=False) as data:
                training = (TrainingInfo.from_json(str(data[_TRAINING_ENTRY]))
                            if _TRAINING_ENTRY in data.files else None)
                if training is not None or not config.trained:
                    return Trace(config, {name: _frozen(data[name]) for name in data.files
                                          if name != _TRAINING_ENTRY}, training)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable: compute it again
    training = None
    if config.trained:
        from .training import trained

        model = trained(config)
        training = model.info
        trace = Trace(config, _compute(config, model.leaves), training)
    else:
        trace = Trace(config, _compute(config))
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_name(f".{cache.name}.{os.getpid()}")
            extra = {_TRAINING_ENTRY: np.array(training.to_json())} if training else {}
            with open(partial, "wb") as handle:
                np.savez(handle, **dict(trace.items()), **extra)
            os.replace(partial, cache)
        except OSError:
            pass  # a cache that cannot be written only costs time
    return trace


when_changed(compute_trace.cache_clear)  # a trace has the tensors of the stages registered when computed


def _compute(config: AttentionConfig, leaves=None) -> dict[str, np.ndarray]:
    """Run every stage function in number order, with torch; ``leaves``
    (export key -> array) replace the drawn ones (a weights file's, or the
    trained ones)."""
    import torch

    if leaves is None and not config.trained:
        leaves = config.weights
    own = {k: torch.from_numpy(np.array(v)) for k, v in (leaves or {}).items()}
    out: dict = {}
    with torch.no_grad():
        for spec in stage_list().values():
            made = spec.compute(Run(spec, config, out, own))
            spec.check_made(made, config)
            out.update(made)
    return {name: _frozen(t) for name, t in out.items()}
