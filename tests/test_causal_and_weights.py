"""Causal attention (--mask causal) and your own numbers (--weights FILE.npz),
against independent references: torch's scaled_dot_product_attention and
nn.MultiheadAttention, and the NumPy notebook "A step to step guide to
understand attention mechanisms" with its printed numbers."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from click.testing import CliRunner

from render import cli
from tensors import LEAF_KEYS, MASK_KEY, AttentionConfig, ConfigError, Weights, compute_trace, load_weights

CAUSAL = AttentionConfig(mask="causal")
SMALL = dict(sentence=("I", "love", "Transformers"), d=4, heads=2)


def t(array) -> torch.Tensor:
    return torch.from_numpy(np.array(array))


@pytest.mark.parametrize("config", [CAUSAL, AttentionConfig(mask="causal", variant="paper"),
                                    AttentionConfig(mask="causal", **{**SMALL, "heads": 1})])
def test_causal_weights_sum_to_one_and_give_nothing_to_later_tokens(config):
    trace = compute_trace(config)
    for key in ("s04_attention_weights", "s11_attention_weights", "s18_multihead_attention_weights"):
        weights = trace[key]
        assert np.allclose(weights.sum(axis=-1), 1.0, atol=1e-6), key
        later = np.triu(np.ones(weights.shape[-2:], dtype=bool), k=1)
        assert np.all(weights[..., later] == 0.0), key  # exactly 0, not small
        assert np.all(weights[..., ~later] > 0.0), key
    assert np.array_equal(trace[MASK_KEY], np.triu(np.ones((config.tokens,) * 2, dtype=bool), k=1))


def test_causal_stages_match_scaled_dot_product_attention_with_is_causal():
    trace = compute_trace(CAUSAL)
    x = t(trace["s02_embedded_sentence"])
    # stage 4/5: the unscaled softmax of X·Xᵀ (scale 1)
    z = F.scaled_dot_product_attention(x, x, x, is_causal=True, scale=1.0)
    assert np.allclose(trace["s05_context_vectors"], z.numpy(), atol=1e-5)
    # stage 11/12: Q, K, V with 1/sqrt(d_k)
    q, k, v = (t(trace[key]) for key in ("s07_queries", "s08_keys", "s09_values"))
    assert np.allclose(trace["s12_context_vectors"], F.scaled_dot_product_attention(q, k, v, is_causal=True),
                       atol=1e-5)
    # stage 11's comparison, without the scaling: SDPA at scale 1 over the identity gives its weights
    eye = torch.eye(CAUSAL.tokens)
    assert np.allclose(trace["s11_unscaled_weights"],
                       F.scaled_dot_product_attention(q, k, eye, is_causal=True, scale=1.0).numpy(), atol=1e-5)
    # stages 17-19, per head
    q, k, v = (t(trace[key]) for key in ("s14_multihead_queries", "s15_multihead_keys",
                                         "s19_multihead_values_permuted"))
    for head in range(CAUSAL.heads):
        expected = F.scaled_dot_product_attention(q[head], k[head], v[head], is_causal=True)
        assert np.allclose(trace["s19_multihead_context_vectors"][head], expected.numpy(), atol=1e-5)


def test_the_mask_changes_only_what_follows_the_weights():
    plain, causal = compute_trace(AttentionConfig()), compute_trace(CAUSAL)
    for key in ("s03_omega", "s07_queries", "s10_omegas", "s13_multihead_U_key", "s17_multihead_omegas"):
        assert np.array_equal(plain[key], causal[key]), key
    for key in ("s04_attention_weights", "s12_context_vectors", "s20_multihead_flattened", "s21_output"):
        assert not np.allclose(plain[key], causal[key]), key
    # the last token sees every token: its row is the same as without the mask
    assert np.allclose(plain["s11_attention_weights"][-1], causal["s11_attention_weights"][-1], atol=1e-6)


@pytest.mark.parametrize("config", [AttentionConfig(mask="causal", variant="paper"),
                                    AttentionConfig(mask="causal", variant="paper", **SMALL)])
def test_causal_paper_variant_matches_multihead_attention_with_attn_mask(config):
    trace, d, h = compute_trace(config), config.d, config.heads
    x = t(trace["s02_embedded_sentence"])
    w_q, w_k, w_v = (t(trace[f"s13_multihead_U_{n}"]).reshape(d, d) for n in ("query", "key", "value"))
    mha = torch.nn.MultiheadAttention(d, h, bias=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([w_q, w_k, w_v]))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(t(trace["s21_linear_weight"]))
        mha.out_proj.bias.copy_(t(trace["s21_linear_bias"]))
        mask = torch.nn.Transformer.generate_square_subsequent_mask(config.tokens)
        output, weights = mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
    assert np.allclose(trace["s18_multihead_attention_weights"], weights.numpy(), atol=1e-6)
    assert np.allclose(trace["s21_output"], output.numpy(), atol=1e-5)


# -- your own numbers ----------------------------------------------------------------
def export(config, path):
    np.savez(path, **compute_trace(config).export())
    return path


def test_export_then_import_round_trips_bit_for_bit(tmp_path):
    config = AttentionConfig(seed=5)
    exported = compute_trace(config).export()
    leaves = {k: exported[k] for k in LEAF_KEYS if k != "s02_embedded_sentence"}
    np.savez(tmp_path / "leaves.npz", **leaves)
    # the same leaves under another seed give back the first trace, bit for bit
    mine = compute_trace(AttentionConfig(seed=99, weights=load_weights(tmp_path / "leaves.npz")))
    for key, array in exported.items():
        assert np.array_equal(mine[key], array), key


def test_an_edited_leaf_changes_what_follows_and_nothing_before():
    base = compute_trace(AttentionConfig())
    new_key = np.array(base["s06_U_key"]) * 2.0
    mine = compute_trace(AttentionConfig(weights=Weights({"s06_U_key": new_key})))
    assert np.array_equal(mine["s06_U_key"], new_key.astype(np.float32))
    assert np.array_equal(mine["s07_queries"], base["s07_queries"])  # not downstream of U_key
    assert np.array_equal(mine["s09_values"], base["s09_values"])
    assert np.allclose(mine["s08_keys"], base["s08_keys"] * 2.0, rtol=1e-6)
    assert not np.allclose(mine["s11_attention_weights"], base["s11_attention_weights"])
    assert np.array_equal(mine["s13_multihead_U_key"], base["s13_multihead_U_key"])  # same random stream


def test_the_embedded_sentence_sets_the_table_rows_of_its_words():
    config = AttentionConfig(sentence=("a", "b", "a"), d=2, heads=1)
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]], dtype=np.float32)
    trace = compute_trace(AttentionConfig(sentence=config.sentence, d=2, heads=1,
                                          weights=Weights({"s02_embedded_sentence": rows})))
    assert np.array_equal(trace["s02_embedded_sentence"], rows)
    assert np.array_equal(trace["s02_embedding_table"], rows[:2])  # ids: a=0, b=1
    assert np.array_equal(trace["s03_omega"], rows @ rows.T)


def test_a_weight_without_its_bias_has_no_bias():
    base = compute_trace(AttentionConfig())
    mine = compute_trace(AttentionConfig(weights=Weights({"s21_linear_weight": base["s21_linear_weight"]})))
    assert np.all(mine["s21_linear_bias"] == 0.0)
    assert np.allclose(mine["s21_output"], base["s21_before_bias"], atol=1e-6)


def run(*args):
    return CliRunner().invoke(cli, list(map(str, args)))


def bad_npz(tmp_path, **arrays):
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize("make, message", [
    (lambda p: bad_npz(p, s99_nothing=np.ones(3)), "s99_nothing is not a tensor of this configuration"),
    (lambda p: bad_npz(p, s07_queries=np.ones((8, 17))), "s07_queries is computed from the others"),
    (lambda p: bad_npz(p, s06_U_query=np.ones((16, 17))), "s06_U_query must be 17x16 for this configuration, got 16x17"),
    (lambda p: bad_npz(p, s06_U_query=np.full((17, 16), np.nan)), "s06_U_query holds 272 NaN or infinite"),
    (lambda p: bad_npz(p, s21_linear_bias=np.full(18, np.inf)), "NaN or infinite"),
    (lambda p: bad_npz(p, s06_U_key=np.array([["a"] * 16] * 17)), "s06_U_key is not numeric"),
    (lambda p: (p / "text.npz").write_text("hello") and p / "text.npz", "not an .npz file"),
    (lambda p: p / "missing.npz", "no such file"),
    (lambda p: bad_npz(p, s02_embedding_table=np.ones((10, 16)), s02_embedded_sentence=np.ones((8, 16))),
     "not both"),
    (lambda p: bad_npz(p, s02_embedded_sentence=np.arange(8 * 16.0).reshape(8, 16)), None),
])
def test_bad_weights_are_one_line_and_exit_2_with_nothing_written(tmp_path, make, message):
    path = make(tmp_path)
    out = tmp_path / "out.npz"
    result = run("tensors", "--out", out, "--weights", path)
    if message is None:  # distinct words, any rows: fine
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not out.exists()


def test_a_repeated_word_needs_one_embedding(tmp_path):
    rows = np.arange(3 * 2.0).reshape(3, 2)
    path = bad_npz(tmp_path, s02_embedded_sentence=rows)
    result = run("tensors", "--format", "summary", "--sentence", "to be to", "--d-model", "2",
                 "--heads", "1", "--weights", path)
    assert result.exit_code == 2 and "rows 0 and 2 are the same word" in result.output


def test_bad_weights_stop_a_render_before_it_starts(tmp_path):
    path = bad_npz(tmp_path, s06_U_query=np.ones((3, 3)))
    out = tmp_path / "videos"
    result = run("render", "6", "--out-dir", out, "--weights", path)
    assert result.exit_code == 2 and "must be 17x16" in result.output
    assert not out.exists()


def test_the_mask_is_exported_under_its_own_key(tmp_path):
    out = tmp_path / "causal.npz"
    assert run("tensors", "--out", out, "--mask", "causal").exit_code == 0
    data = np.load(out)
    assert data[MASK_KEY].dtype == bool and data[MASK_KEY].shape == (8, 8)
    assert np.all(np.triu(data["s18_multihead_attention_weights"], k=1) == 0)
    assert MASK_KEY not in np.load(export(AttentionConfig(), tmp_path / "plain.npz"))


# -- the NumPy notebook ("A step to step guide ..."), in our key names ---------------------
def notebook_weights() -> dict[str, np.ndarray]:
    """The notebook's "I love Transformers" (d_model 4, 2 heads), its draws in its
    order, written in our key names. It multiplies X @ W where we use U @ Xᵀ
    (so U = Wᵀ per head), and concat @ W_O where nn.Linear keeps the transpose."""
    n, d_model, h = 3, 4, 2
    d_k = d_v = d_model // h
    np.random.seed(0)
    input_matrix = np.random.randint(10, size=(n, d_model))

    def xavier_uniform_init(input_size, output_size):
        limit = np.sqrt(6 / (input_size + output_size))
        return np.random.uniform(-limit, limit, (input_size, output_size))

    W_Q = np.array([xavier_uniform_init(d_model, d_k) for _ in range(h)])
    W_K = np.array([xavier_uniform_init(d_model, d_k) for _ in range(h)])
    W_V = np.array([xavier_uniform_init(d_model, d_v) for _ in range(h)])
    W_O = xavier_uniform_init(h * d_v, d_model)
    return {
        "s02_embedded_sentence": input_matrix.astype(np.float64),
        "s13_multihead_U_query": W_Q.transpose(0, 2, 1),
        "s13_multihead_U_key": W_K.transpose(0, 2, 1),
        "s13_multihead_U_value": W_V.transpose(0, 2, 1),
        "s21_linear_weight": W_O.T,  # no bias: zero
    }


NOTEBOOK_CONFIG = dict(sentence=("I", "love", "Transformers"), d=4, heads=2, variant="paper")
# what the notebook prints (its cells 12 and 17)
NOTEBOOK_WEIGHTS = np.array([
    [[8.32207466e-07, 8.62661112e-09, 9.99999159e-01],
     [9.79261626e-01, 7.06124878e-03, 1.36771253e-02],
     [5.06701339e-05, 4.85740226e-04, 9.99463590e-01]],
    [[9.99999999e-01, 7.02243021e-10, 3.67172510e-14],
     [1.00000000e+00, 7.32297340e-23, 2.77013209e-39],
     [1.00000000e+00, 3.91078473e-22, 1.37240079e-32]]])
NOTEBOOK_OUTPUT = np.array([
    [7.3765234, 6.13875477, 3.44813173, -0.03779159],
    [3.6536207, 4.44609421, 5.25015372, -0.89010674],
    [7.3761135, 6.13921767, 3.44763211, -0.03725722]])


def test_the_notebook_of_seed_002_reproduces_its_printed_numbers(tmp_path):
    """The README's worked example: its numbers in an npz, through the CLI's loader."""
    path = tmp_path / "notebook.npz"
    np.savez(path, **notebook_weights())
    trace = compute_trace(AttentionConfig(**NOTEBOOK_CONFIG, weights=load_weights(path)))
    # float32 against the notebook's float64: a few parts in a million
    assert np.allclose(trace["s18_multihead_attention_weights"], NOTEBOOK_WEIGHTS, rtol=1e-4, atol=1e-6)
    assert np.allclose(trace["s21_output"], NOTEBOOK_OUTPUT, rtol=1e-5, atol=1e-5)
    assert np.all(trace["s21_linear_bias"] == 0)


def test_weights_are_checked_when_the_configuration_is_made():
    with pytest.raises(ConfigError, match="s21_linear_weight must be 6x12"):
        AttentionConfig(**SMALL, weights=Weights({"s21_linear_weight": np.ones((18, 162))}))


def rows_that_mix(trace, config) -> tuple[int, int]:
    """How many rows of softmax(Q·Kᵀ/√d_k), by torch (masked where the
    config masks), take under 95 % from every token; and how many rows."""
    q, k = t(trace["s07_queries"]), t(trace["s08_keys"])
    weights = F.scaled_dot_product_attention(q, k, torch.eye(len(q), dtype=q.dtype),
                                             is_causal=config.mask == "causal")
    return int((weights.max(dim=-1).values < 0.95).sum()), len(q)


@pytest.mark.parametrize("config", [AttentionConfig(), CAUSAL, AttentionConfig(variant="paper")])
def test_stage_5_says_where_the_weights_mix_when_its_own_do_not(config):
    """Stage 5's closing remark: where α is nearly the identity (Z ≈ X, no
    mixing to see), it names how many rows of stage 11's scaled weights do
    mix (under 0.95 on every key), counted here from softmax(Q·Kᵀ/√d_k) by
    torch, masked where the config masks; where α is not, it says nothing
    of stages 11 and 12."""
    from scenes.stages.s05_context import ContextVectors

    trace = compute_trace(config)
    stage = ContextVectors.__new__(ContextVectors)  # the remark reads the numbers alone
    stage.trace = trace
    mixing, tokens = rows_that_mix(trace, config)
    said = stage.remark()
    if np.diag(trace["s04_attention_weights"]).min() >= 0.95 and mixing:
        assert f"the scaled α′ of stage 11 mixes {mixing} of {tokens} rows (seen in stage 12)" in said
    else:
        assert "stage 11" not in said and "stage 12" not in said


@pytest.mark.parametrize("config", [AttentionConfig(), CAUSAL, AttentionConfig(variant="paper")])
def test_stage_12_says_how_many_rows_its_weights_mix(config):
    """Stage 12's closing remark counts the rows of softmax(Q·Kᵀ/√d_k)
    (torch's, masked where the config masks) that take under 95 % from
    every token, the line stage 11 counts the rows on one token by."""
    from scenes.stages.s12_context import ScaledContext

    trace = compute_trace(config)
    stage = ScaledContext.__new__(ScaledContext)
    stage.trace = trace
    mixing, tokens = rows_that_mix(trace, config)
    said = stage.remark()
    assert (f"here {mixing} of {tokens} rows of α′ mix" in said) if mixing else ("little mixing" in said)


@pytest.mark.parametrize("config", [AttentionConfig(), AttentionConfig(variant="paper"), CAUSAL])
def test_stage_13_sets_beside_head_0_the_stage_6_matrix_it_repeats_only_where_it_does(config):
    """Stage 13 draws stage 6's matrix beside head 0's card where, and only
    where, head 0 holds its very numbers (a hand loop over every cell); the
    drawn matrix is that one (its values and name)."""
    from scenes.stages.s13_multihead_projections import MultiheadProjections

    trace = compute_trace(config)
    stage = MultiheadProjections.__new__(MultiheadProjections)
    stage.trace, stage.cfg = trace, config
    names = ("multihead_U_query", "multihead_U_key", "multihead_U_value")
    tensors = [trace[f"s13_{n}"] for n in names]
    found = None
    for name, tensor in zip(names, tensors):
        for single in ("query", "key", "value"):
            matrix = trace[f"s06_U_{single}"]
            if found is None and matrix.shape == tensor[0].shape and all(
                    tensor[0][r][c] == matrix[r][c] for r in range(matrix.shape[0]) for c in range(matrix.shape[1])):
                found = (name, single)
    assert stage.stage6_pair(tensors, names) == found
    if config == AttentionConfig():
        assert found == ("multihead_U_query", "key")  # the blog's re-seed and spare draw


@pytest.mark.parametrize("config", [AttentionConfig(), AttentionConfig(variant="paper"), CAUSAL])
def test_stage_14_names_every_head_that_repeats_stage_6_and_calls_none_new(config):
    """Stage 14 names each head of multihead_U_query that holds the first
    rows of one of stage 6's matrices (found here by a hand loop over rows;
    the default's heads 0 and 1, whose queries are stage 8's K and stage
    9's V[:, :17] number for number, by torch); it never says the other
    heads are new (head 1 of the default is U_value's first 17 rows)."""
    from scenes.stages.s14_multihead_queries import MultiheadQueries

    trace = compute_trace(config)
    stage = MultiheadQueries.__new__(MultiheadQueries)
    stage.trace, stage.cfg = trace, config
    weight = trace["s13_multihead_U_query"]
    singles = {n: trace[f"s06_U_{n}"] for n in ("query", "key", "value")}
    expected = []
    for h in range(len(weight)):
        for n, single in singles.items():
            rows = weight.shape[1]
            if single.shape[0] >= rows and all(np.allclose(single[r], weight[h, r]) for r in range(rows)):
                expected.append(f"[{h}]")
                break
    said = stage.repeated_heads()
    assert "new" not in said
    assert [part.split()[0] for part in said.split(", ")] == expected if expected else said == ""
    if config == AttentionConfig():
        assert expected == ["[0]", "[1]"]
        queries = trace["s14_multihead_queries"]  # ... which they are, number for number
        assert np.allclose(queries[0], trace["s08_keys"]) and np.allclose(queries[1], trace["s09_values"][:, :17])


@pytest.mark.parametrize("config", [AttentionConfig(), AttentionConfig(variant="paper"), CAUSAL])
def test_stage_14_says_the_heads_differ_only_where_they_do(config):
    """The closing words of stages 14 and 15 ("each token gets 9 different
    queries") hold by a hand loop over the heads' rows; with one head's
    slice planted equal to another's, they name those two heads instead."""
    from scenes.stages.s14_multihead_queries import MultiheadQueries
    from scenes.stages.s15_multihead_keys import MultiheadKeys

    trace = compute_trace(config)
    for cls, plural in ((MultiheadQueries, "queries"), (MultiheadKeys, "keys")):
        stage = cls.__new__(cls)
        stage.trace, stage.cfg = dict(trace), config
        result = trace[stage.result_key]
        heads, tokens = result.shape[0], result.shape[1]
        distinct = all(not np.allclose(result[a, i], result[b, i])
                       for a in range(heads) for b in range(a + 1, heads) for i in range(tokens))
        assert distinct and stage.heads_differ() == f"each token gets {heads} different {plural}, one per head"
        planted = result.copy()
        planted[heads - 1] = planted[1]
        stage.trace[stage.result_key] = planted
        said = stage.heads_differ()
        assert "different" not in said and f"heads 1 and {heads - 1} give a token the same one" in said
