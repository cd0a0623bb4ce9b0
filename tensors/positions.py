"""Where each token stands: the positions added to the embeddings (``--positions``).

The blog has none: its attention cannot tell "can you" from "you can".
``sinusoidal`` is the fixed encoding of Vaswani et al. (2017), section 3.5;
``learned`` is a table of one row per position, drawn like an embedding
(``nn.Embedding(T, d)``) or trained (``--weights trained``). Either way the
attention consumes X = token embeddings + positions.

Examples
--------
>>> [round(float(v), 3) for v in sinusoidal(3, 4)[1]]
[0.841, 0.54, 0.01, 1.0]
"""

from __future__ import annotations

import numpy as np

__all__ = ["sinusoidal"]


def sinusoidal(tokens: int, d: int) -> np.ndarray:
    """``PE[pos, 2i] = sin(pos / 10000^(2i/d))``, ``PE[pos, 2i+1] = cos(pos / 10000^(2i/d))``.

    ``tokens`` x ``d``, float32 (computed in float64); an odd ``d`` ends on a sine.
    """
    position = np.arange(tokens, dtype=np.float64)[:, None]
    pair = np.arange(d)[None, :] // 2
    angle = position / 10000.0 ** (2.0 * pair / d)
    table = np.where(np.arange(d)[None, :] % 2 == 0, np.sin(angle), np.cos(angle))
    return table.astype(np.float32)
