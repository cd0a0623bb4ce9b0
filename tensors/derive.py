"""Step-by-step views of an operation that the scenes animate.

The trace holds results; a scene that shows *how* a result comes about also
needs the pieces in between: the element-wise products of a matmul before
they are summed, the exponentials and row sums of a softmax. They are derived
here from trace arrays with NumPy in float64, so scene code stays free of
arithmetic. Tested against torch in tests/test_tensors.py.

Examples
--------
>>> import numpy as np
>>> matmul_products(np.eye(2), np.ones((2, 3))).shape
(2, 3, 2)
"""

from __future__ import annotations

import numpy as np

__all__ = ["matmul_products", "softmax_steps", "per_head_projection"]


def matmul_products(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``P[..., i, j, p] = left[..., i, p] * right[..., p, j]``.

    Summing the last axis gives ``left @ right``; the last axis is the shared
    one, which the matmul motion lays out in depth. Leading (head) axes
    broadcast as in ``torch.matmul``.
    """
    left = np.asarray(left, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    return left[..., :, None, :] * np.swapaxes(right, -1, -2)[..., None, :, :]


def softmax_steps(scores: np.ndarray) -> dict[str, np.ndarray]:
    """The stages of a row softmax over the last axis.

    Returns the ``scores``, ``exp`` (after subtracting each row's max, as
    every stable softmax does; the ratio is unchanged), ``row_sums`` and
    ``weights``.
    """
    scores = np.asarray(scores, dtype=np.float64)
    exp = np.exp(scores - scores.max(axis=-1, keepdims=True))
    row_sums = exp.sum(axis=-1, keepdims=True)
    return {"scores": scores, "exp": exp, "row_sums": row_sums[..., 0], "weights": exp / row_sums}


def per_head_projection(flattened: np.ndarray, weight: np.ndarray, heads: int) -> dict[str, np.ndarray]:
    """``flattened @ weight.T`` cut where the heads meet.

    The columns of ``flattened`` (T x h*d_v) come in ``heads`` runs of d_v,
    one per head; the rows of ``weight.T`` likewise. So the product is the sum
    over heads of (head h's columns) @ (Wᵀ's rows of head h). Returns
    ``inputs`` (h, T, d_v), ``blocks`` (h, d_v, out) and ``partials``
    (h, T, out), whose sum over the first axis is ``flattened @ weight.T``.

    >>> f, w = np.arange(8.0).reshape(2, 4), np.ones((3, 4))
    >>> parts = per_head_projection(f, w, 2)
    >>> bool(np.allclose(parts["partials"].sum(axis=0), f @ w.T))
    True
    """
    flattened = np.asarray(flattened, dtype=np.float64)
    weight_t = np.asarray(weight, dtype=np.float64).T
    tokens, width = flattened.shape
    inputs = flattened.reshape(tokens, heads, width // heads).swapaxes(0, 1)
    blocks = weight_t.reshape(heads, width // heads, weight_t.shape[1])
    return {"inputs": inputs, "blocks": blocks, "partials": inputs @ blocks}
