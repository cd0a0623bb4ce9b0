"""The role detector (tensors/roles.py) on hand-built attention patterns:
each planted role is named, and nothing is named that the numbers do not show."""

import numpy as np
import pytest

from tensors.roles import CLEAR, MARGIN, ROLES, head_roles, role_scores

T = 8
IDS = tuple(range(T))  # no repeated word


def pattern(target, T=T, strength=1.0):
    """Row i puts ``strength`` on column target(i) (when it exists) and the
    rest evenly on the other columns."""
    A = np.zeros((T, T))
    for i in range(T):
        j = target(i)
        if j is None or not 0 <= j < T:
            A[i] = 1.0 / T
            continue
        A[i] = (1.0 - strength) / (T - 1)
        A[i, j] = strength
    return A


PLANTED = {
    "previous token": lambda i: i - 1,
    "two back": lambda i: i - 2,
    "next token": lambda i: i + 1,
    "self": lambda i: i,
    "first token": lambda i: 0,
    "last token": lambda i: T - 1,
}


@pytest.mark.parametrize("role", list(PLANTED))
def test_each_planted_position_role_is_named(role):
    named = head_roles(pattern(PLANTED[role], strength=0.9)[None], IDS)[0]
    assert named.role == role and named.name == role
    assert named.score == pytest.approx(0.9)  # the weight on the target, by definition
    assert named.text() == f"head 0 · {role} 0.90"
    others = [s for r, s in named.scores.items() if r != role and s is not None]
    assert max(others) < 0.9 - MARGIN


def test_the_scores_are_the_documented_means():
    rng = np.random.default_rng(3)
    A = rng.dirichlet(np.ones(T), size=T)
    scores = role_scores(A, IDS)
    # rows where the target is no other role's: previous 2..7, first 3..7, self 1..6, last 0..5
    assert scores["previous token"] == pytest.approx(np.mean([A[i, i - 1] for i in range(2, T)]))
    assert scores["two back"] == pytest.approx(np.mean([A[i, i - 2] for i in range(3, T)]))
    assert scores["next token"] == pytest.approx(np.mean([A[i, i + 1] for i in range(T - 2)]))
    assert scores["first token"] == pytest.approx(np.mean([A[i, 0] for i in range(3, T)]))
    assert scores["self"] == pytest.approx(np.mean([A[i, i] for i in range(1, T - 1)]))
    assert scores["last token"] == pytest.approx(np.mean([A[i, T - 1] for i in range(T - 2)]))
    assert scores["broad"] == pytest.approx(np.mean(T * A.min(axis=1)))
    assert scores["same word"] is None  # no word repeats
    assert list(scores) == list(ROLES)


def test_uniform_rows_are_broad_and_random_rows_have_no_clear_role():
    uniform = head_roles(np.full((1, T, T), 1.0 / T), IDS)[0]
    assert uniform.role == "broad" and uniform.score == pytest.approx(1.0)
    assert uniform.text() == "head 0 · broad 1.00"
    rng = np.random.default_rng(0)
    random_heads = rng.dirichlet(np.ones(T), size=(50, T))
    roles = head_roles(random_heads, IDS)
    assert [r.role for r in roles] == [None] * 50
    assert all(r.text() == f"head {r.head} · no clear role" for r in roles)
    assert all(r.score < CLEAR for r in roles)  # the best score, not a claimed role


def test_a_one_hot_head_on_an_unplanned_column_has_no_clear_role():
    # every row looks at token 4: no position role, not broad
    A = np.zeros((T, T))
    A[:, 4] = 1.0
    assert head_roles(A, IDS)[0].role is None


def test_two_patterns_half_and_half_are_not_a_role():
    A = 0.5 * pattern(PLANTED["previous token"]) + 0.5 * pattern(PLANTED["next token"])
    named = head_roles(A[None], IDS)[0]
    assert named.role is None and named.scores["previous token"] == pytest.approx(0.5, abs=0.02)


def test_same_word_is_measured_only_on_a_repeated_word_away_from_position_targets():
    words = "we saw the cat and then the dog".split()
    ids = tuple(sorted(set(words)).index(w) for w in words)  # "the" at 2 and 6
    A = np.zeros((T, T))
    A[:, 4] = 1.0  # the rows without a repeat look anywhere (here: at token 4)
    A[2], A[6] = 0.1 / 7, 0.1 / 7
    A[2, 6] = A[6, 2] = 0.9
    named = head_roles(A, ids)[0]
    assert named.scores["same word"] == pytest.approx(0.9)  # rows 2 and 6, weight on the other "the"
    assert named.role == "same word"
    # the same head on a sentence without a repeat cannot show it
    assert head_roles(A, IDS)[0].scores["same word"] is None
    # a repeat at the previous position is the previous token's, not evidence of a same-word head
    ids = (0, 0, 1, 2, 3, 4, 5, 6)
    assert role_scores(pattern(PLANTED["previous token"]), ids)["same word"] is None


def test_causal_weights_never_show_a_later_token_and_row_zero_counts_for_nothing():
    visible = np.tril(np.ones((T, T)))
    uniform = visible / visible.sum(axis=1, keepdims=True)
    named = head_roles(uniform, IDS, causal=True)[0]
    assert named.role == "broad" and named.score == pytest.approx(1.0)
    assert named.scores["next token"] is None and named.scores["last token"] is None
    previous = np.eye(T, k=-1)
    previous[0, 0] = 1.0
    named = head_roles(previous, IDS, causal=True)[0]
    assert named.role == "previous token" and named.score == pytest.approx(1.0)
    assert named.scores["self"] == pytest.approx(0.0)  # row 0's forced self-look is not counted


def test_roles_of_several_heads_keep_their_index_and_short_sentences_lack_some_roles():
    heads = np.stack([pattern(PLANTED["self"]), pattern(PLANTED["previous token"])])
    assert [(r.head, r.role) for r in head_roles(heads, IDS)] == [(0, "self"), (1, "previous token")]
    two = role_scores(np.full((2, 2), 0.5), (0, 1))
    assert two["first token"] is None and two["two back"] is None
    with pytest.raises(ValueError):
        role_scores(np.ones((3, 3)) / 3, (0, 1))
