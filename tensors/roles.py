"""What each attention head looks at, measured on one sentence and named.

Pure NumPy (no torch): a scene or a caption can call it on trace arrays.
:func:`head_roles` scores every head's attention weights ``A`` (heads x T x
T, each row a softmax over the tokens the row may see) for the roles the
trained task (``tensors/training.py``) can produce, and names a role only
where the numbers show it.

The scores (each in [0, 1]; ``None`` where the sentence cannot show the
role). Row i is query token i; it *sees* every token (every token j <= i
under a causal mask).

* Position roles, each with a target ``t(i)``: ``previous token`` i-1,
  ``two back`` i-2, ``next token`` i+1, ``self`` i, ``first token`` 0,
  ``last token`` T-1. The score is the mean over rows of ``A[i, t(i)]``,
  over the rows where ``t(i)`` exists, is visible, and is no other position
  role's target in that row (row 1's previous token is also its first, so
  row 1 counts for neither: no row credits two roles). So ``previous token``
  counts rows 2.., ``first token`` rows 3.. (row 2's first is two back),
  ``self`` rows 1..T-2, ``last token`` rows 0..T-3; under a causal mask
  nothing counts for ``next token`` and ``last token`` (``None``) and row 0,
  which can only see itself, for nothing.
* ``same word``: mean over the rows whose word occurs at another visible
  position that no position role targets in that row, of the weight on those
  positions. ``None`` when no row has one: the default sentence repeats no
  word, so there the role cannot be seen, whatever a head learned. (Try a
  sentence that repeats a word a few places apart.)
* ``broad``: mean over rows that see more than one token of
  ``n_i * min_j A[i, j]``, the smallest weight among the row's ``n_i``
  visible tokens as a fraction of an even share 1/n_i: 1 for uniform rows,
  0 when a visible token gets nothing. Random rows are not broad (a
  Dirichlet(1) row of 8 scores about 1/8).

On very short sentences most position roles coincide and cannot be told
apart (2 tokens: previous = first, next = last, self = first or last), so
they are ``None`` there and only ``broad`` can be measured.

A role is **clear** when its score is at least :data:`CLEAR` (0.5) and at
least :data:`MARGIN` (0.2) above the runner-up's. So a uniform head is
"broad" (1.0 against 1/T for the others), a head with no dominant pattern has
"no clear role", and no head gets two roles.

Examples
--------
>>> import numpy as np
>>> previous = np.eye(4, k=-1); previous[0, 0] = 1.0
>>> role = head_roles(previous[None], token_ids=(0, 1, 2, 3))[0]
>>> role.text()
'head 0 · previous token 1.00'
>>> head_roles(np.full((1, 4, 4), 0.25), token_ids=(0, 1, 2, 3))[0].text()
'head 0 · broad 1.00'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

__all__ = ["CLEAR", "MARGIN", "ROLES", "HeadRole", "head_roles", "heads_alike", "role_scores"]

ROLES = ("previous token", "two back", "next token", "self", "first token", "last token", "same word", "broad")
CLEAR = 0.5  # a role's score must reach this...
MARGIN = 0.2  # ...and beat the runner-up by this much to be named
NO_ROLE = "no clear role"


@dataclass(frozen=True)
class HeadRole:
    """One head's role on one sentence.

    Attributes
    ----------
    head
        The head's index (0 for the single head of stages 10-12).
    role
        One of :data:`ROLES`, or ``None`` when no role is clear.
    score
        The named role's score; with no clear role, the best score (0.0 if
        no role can be measured).
    scores
        Every role's score (read-only), ``None`` where the sentence cannot
        show that role.
    """

    head: int
    role: str | None
    score: float
    scores: Mapping[str, float | None]

    @property
    def name(self) -> str:
        """The role, or "no clear role"."""
        return self.role or NO_ROLE

    def text(self, label: str | None = None) -> str:
        """One line: ``"head 3 · previous token 0.91"`` or ``"head 5 · no clear role"``.

        ``label`` replaces ``"head N"`` (e.g. ``"single head"``).
        """
        label = f"head {self.head}" if label is None else label
        if self.role is None:
            return f"{label} · {NO_ROLE}"
        return f"{label} · {self.role} {self.score:.2f}"


def _targets(T: int) -> dict[str, np.ndarray]:
    """Each position role's target column per row (-1: none)."""
    rows = np.arange(T)
    targets = {
        "previous token": rows - 1, "two back": rows - 2, "next token": rows + 1, "self": rows,
        "first token": np.zeros(T, dtype=int), "last token": np.full(T, T - 1),
    }
    return {role: np.where((t >= 0) & (t < T), t, -1) for role, t in targets.items()}


def role_scores(weights: np.ndarray, token_ids: Sequence[int], causal: bool = False) -> dict[str, float | None]:
    """The score of every role in :data:`ROLES` for one head's ``weights`` (T x T).

    See the module docstring for the definitions.
    """
    A = np.asarray(weights, dtype=np.float64)
    T = A.shape[-1]
    if A.shape != (T, T) or len(token_ids) != T:
        raise ValueError(f"expected T x T weights for {len(token_ids)} tokens, got {A.shape}")
    rows = np.arange(T)
    visible = np.tril(np.ones((T, T), dtype=bool)) if causal else np.ones((T, T), dtype=bool)
    targets = _targets(T)
    for role, t in targets.items():  # a target the row cannot see is no target
        targets[role] = np.where((t >= 0) & visible[rows, np.maximum(t, 0)], t, -1)
    # how many position roles aim at (row, column)
    aimed = np.zeros((T, T), dtype=int)
    for t in targets.values():
        np.add.at(aimed, (rows[t >= 0], t[t >= 0]), 1)

    def mean_or_none(values) -> float | None:
        values = np.asarray(values, dtype=np.float64)
        return float(values.mean()) if values.size else None

    scores: dict[str, float | None] = {}
    for role, t in targets.items():
        counted = (t >= 0) & (aimed[rows, np.maximum(t, 0)] == 1)
        scores[role] = mean_or_none(A[rows[counted], t[counted]])
    ids = np.asarray(token_ids)
    same = (ids[:, None] == ids[None, :]) & visible & (aimed == 0)
    repeated = same.any(axis=1)
    scores["same word"] = mean_or_none((A * same).sum(axis=1)[repeated])
    counts = visible.sum(axis=1)
    smallest = np.where(visible, A, np.inf).min(axis=1)
    scores["broad"] = mean_or_none((counts * smallest)[counts > 1])
    return {role: scores[role] for role in ROLES}


def _named(head: int, scores: dict[str, float | None]) -> HeadRole:
    measured = sorted(((s, r) for r, s in scores.items() if s is not None), reverse=True)
    frozen = MappingProxyType(dict(scores))
    if not measured:
        return HeadRole(head, None, 0.0, frozen)
    best, role = measured[0]
    runner_up = measured[1][0] if len(measured) > 1 else 0.0
    clear = best >= CLEAR and best - runner_up >= MARGIN
    return HeadRole(head, role if clear else None, best, frozen)


def head_roles(weights: np.ndarray, token_ids: Sequence[int], causal: bool = False) -> tuple[HeadRole, ...]:
    """Score and name the role of every head of ``weights`` (heads x T x T, or T x T for one head).

    ``token_ids``: the sentence's ids (for ``same word``); ``causal``: whether
    the weights were masked (row 0 then has no choice; nothing is ``next``).
    """
    A = np.asarray(weights, dtype=np.float64)
    if A.ndim == 2:
        A = A[None]
    return tuple(_named(h, role_scores(A[h], token_ids, causal)) for h in range(A.shape[0]))


def heads_alike(maps: np.ndarray) -> float:
    """How alike the heads' maps (heads x ...) are: the mean correlation
    between two heads' numbers (a masked −∞ counts as 0), over every pair.

    >>> round(heads_alike(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.1], [3.0, 2.0, 1.0]])), 2)
    -0.33
    """
    flat = np.nan_to_num(np.asarray(maps, float).reshape(len(maps), -1), neginf=0.0)
    return float(np.corrcoef(flat)[np.triu_indices(len(flat), 1)].mean())
