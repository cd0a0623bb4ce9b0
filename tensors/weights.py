"""Your own numbers: the leaves of the computation read from an ``.npz``.

The file uses the export's own key names and shapes (what ``render.py
tensors`` writes for the same configuration). Only the leaves can be set, the
tensors the computation starts from; everything else follows from them:

* ``s02_embedding_table`` (vocabulary x d) *or* ``s02_embedded_sentence``
  (tokens x d; a repeated word needs the same row, and the table's rows of
  the sentence's words take these rows);
* ``s06_U_query``, ``s06_U_key``, ``s06_U_value``;
* ``s13_multihead_U_query``, ``s13_multihead_U_key``, ``s13_multihead_U_value``;
* ``s21_linear_weight`` and ``s21_linear_bias`` (zero when the weight is
  given without it).

With positions (``--positions``), X = token embeddings + positions, so
``s02_embedded_sentence`` (X) is computed, not set; the bare rows are
``s02_token_embeddings`` instead (given in place of the table, like
``s02_embedded_sentence`` without positions), and ``s02_positions`` can be
set with ``--positions learned`` (sinusoidal positions follow their formula).

Keys left out keep their seeded values. Every check fails with one
:class:`~.errors.ConfigError` line saying what is wrong and what is expected.

Examples
--------
>>> import numpy as np
>>> w = Weights({"s06_U_key": np.ones((17, 16), dtype=np.float32)})
>>> w.keys(), w == Weights({"s06_U_key": np.ones((17, 16))})
(('s06_U_key',), True)
"""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from .errors import ConfigError

__all__ = ["LEAF_KEYS", "POSITION_KEYS", "Weights", "check_weights", "load_weights", "settable"]

LEAF_KEYS = (
    "s02_embedding_table", "s02_embedded_sentence",
    "s06_U_query", "s06_U_key", "s06_U_value",
    "s13_multihead_U_query", "s13_multihead_U_key", "s13_multihead_U_value",
    "s21_linear_weight", "s21_linear_bias",
)
# The tensors a configuration with positions has besides the others: the bare
# token rows and the positions (X = their sum is s02_embedded_sentence).
POSITION_KEYS = ("s02_token_embeddings", "s02_positions")


class Weights(Mapping):
    """Read-only float32 arrays by export key; equal (and hashed) by content,
    so a configuration holding them can key the trace cache."""

    def __init__(self, arrays: Mapping[str, np.ndarray]):
        frozen = {}
        for key in sorted(arrays):
            array = np.array(arrays[key], dtype=np.float32)
            array.setflags(write=False)
            frozen[key] = array
        self._arrays = frozen
        digest = hashlib.sha256()
        for key, array in frozen.items():
            digest.update(key.encode() + str(array.shape).encode() + array.tobytes())
        self._digest = digest.hexdigest()

    def __getitem__(self, key: str) -> np.ndarray:
        return self._arrays[key]

    def __iter__(self):
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)

    def keys(self):
        return tuple(self._arrays)

    def __hash__(self) -> int:
        return hash(self._digest)

    def __eq__(self, other) -> bool:
        return isinstance(other, Weights) and other._digest == self._digest

    def __repr__(self) -> str:
        return f"Weights({', '.join(self._arrays)}; sha256 {self._digest})"


def load_weights(path: str | Path) -> Weights:
    """Read an ``.npz`` of leaves; the file's own faults are one line each.

    Shapes are checked against a configuration by :func:`check_weights`.
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"--weights {path}: no such file")
    if not zipfile.is_zipfile(path):
        raise ConfigError(f"--weights {path}: not an .npz file (write one with numpy.savez)")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (ValueError, OSError, zipfile.BadZipFile) as error:
        raise ConfigError(f"--weights {path}: cannot be read as .npz ({error})") from None
    if not arrays:
        raise ConfigError(f"--weights {path}: holds no arrays")
    for key, array in arrays.items():
        if array.dtype.kind not in "biuf":
            raise ConfigError(f"--weights {path}: {key} is not numeric (dtype {array.dtype})")
        if not np.all(np.isfinite(array)):
            bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
            raise ConfigError(f"--weights {path}: {key} holds {bad} NaN or infinite value(s)")
    return Weights(arrays)


def settable(positions: str = "none") -> tuple[str, ...]:
    """The keys a weights file may hold for a configuration with these positions."""
    if positions == "none":
        return LEAF_KEYS
    rows = "s02_token_embeddings"
    keys = tuple(rows if k == "s02_embedded_sentence" else k for k in LEAF_KEYS)
    return keys[:2] + ("s02_positions",) + keys[2:] if positions == "learned" else keys


def check_weights(weights: Weights, shapes: Mapping[str, tuple[int, ...]], known, token_ids,
                  positions: str = "none") -> None:
    """Each key is a leaf this configuration has, in its shape; a repeated
    word's rows agree. ``shapes``: the leaves' shapes; ``known``: every export
    key; ``positions``: the configuration's (see the module docstring)."""
    leaves = settable(positions)
    for key in weights:
        if key in POSITION_KEYS and positions == "none":
            raise ConfigError(f"--weights: {key} is not a tensor of this configuration: it has no "
                              "positions (add --positions learned)")
        if key not in known:
            raise ConfigError(f"--weights: {key} is not a tensor of this configuration "
                              f"(settable: {', '.join(leaves)})")
        if key == "s02_positions" and positions == "sinusoidal":
            raise ConfigError("--weights: s02_positions follows the sinusoidal formula, not set "
                              "(use --positions learned to set your own)")
        if key == "s02_embedded_sentence" and positions != "none":
            raise ConfigError("--weights: with positions s02_embedded_sentence is token embeddings + "
                              "positions, computed; give s02_embedding_table or s02_token_embeddings")
        if key not in leaves:
            raise ConfigError(f"--weights: {key} is computed from the others, not set "
                              f"(settable: {', '.join(leaves)})")
        if tuple(weights[key].shape) != tuple(shapes[key]):
            expected = "x".join(map(str, shapes[key])) or "a scalar"
            got = "x".join(map(str, weights[key].shape)) or "a scalar"
            raise ConfigError(f"--weights: {key} must be {expected} for this configuration, got {got}")
    rows_key = "s02_embedded_sentence" if positions == "none" else "s02_token_embeddings"
    if "s02_embedding_table" in weights and rows_key in weights:
        raise ConfigError(f"--weights: give s02_embedding_table or {rows_key}, not both")
    if rows_key in weights:
        rows = weights[rows_key]
        first: dict[int, int] = {}
        for position, token in enumerate(token_ids):
            seen = first.setdefault(token, position)
            if not np.array_equal(rows[seen], rows[position]):
                raise ConfigError(f"--weights: {rows_key} rows {seen} and {position} are the "
                                  "same word and must be equal (one embedding per word)")
