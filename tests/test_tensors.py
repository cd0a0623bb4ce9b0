"""Every stage tensor against an independent reference.

References are hand-written loops (as in the notebook), torch.nn.functional
and nn.Linear / explicit matmuls - never the trace's own code path.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

from scenes.catalogue import stage_catalogue
import torch
import torch.nn.functional as F

from tensors import AttentionConfig, ConfigError, compute_trace, matmul_products, softmax_steps, stage_list

CFG = AttentionConfig()
T = compute_trace(CFG)

# What each axis of a stage tensor counts, sized by the blog's configuration
SIZES = {"tokens": CFG.tokens, "vocabulary": CFG.vocab_size, "heads": CFG.heads, "d": CFG.d, "d_k": CFG.d_k,
         "d_v": CFG.d_v, "head_k": CFG.head_k, "head_v": CFG.head_v, "concat": CFG.heads * CFG.head_v,
         "d_out": CFG.d_out}
# Every stage's exports with the shapes their axes give, from the stage list
EXPECTED_SHAPES = {key: tuple(SIZES[axis] for axis in tensor.axes)
                   for stage in stage_list().values() for key, tensor in stage.exports.items()
                   if tensor.when is None}
# ... and some of them written out, as the blog prints them
SPOT_CHECKS = {
    "s01_sentence": (8,), "s02_embedding_table": (10, 16), "s06_U_value": (18, 16),
    "s13_multihead_U_query": (9, 17, 16),
    "s14_multihead_queries": (9, 8, 17),  # the blog prints 9x17x8: a slip
    "s16_multihead_values": (9, 18, 8), "s20_multihead_flattened": (8, 162), "s21_linear_weight": (18, 162),
}


def t(key):
    return torch.from_numpy(np.array(T[key]))


def test_export_names_and_shapes_match_stages_md():
    exported = T.export()
    assert list(exported) == list(EXPECTED_SHAPES)
    assert {k: v.shape for k, v in exported.items()} == EXPECTED_SHAPES
    assert {k: exported[k].shape for k in SPOT_CHECKS} == SPOT_CHECKS
    assert list(stage_list()) == list(stage_catalogue())  # tensors for every stage, no more


def test_blog_token_ids():
    assert T["s01_sentence"].tolist() == [0, 7, 1, 2, 5, 6, 4, 3]
    assert CFG.vocab_size == 10


def test_embedding_is_seeded_nn_embedding():
    torch.manual_seed(123)
    table = torch.nn.Embedding(10, 16).weight.detach()
    assert torch.equal(t("s02_embedding_table"), table)
    for row, token in enumerate(T["s01_sentence"]):
        assert torch.equal(t("s02_embedded_sentence")[row], table[token])


def _loop_omega(a, b):
    out = torch.empty(a.shape[0], b.shape[0])
    for i, a_i in enumerate(a):
        for j, b_j in enumerate(b):
            out[i, j] = torch.dot(a_i, b_j)
    return out


def _loop_context(weights, x):
    out = torch.zeros(weights.shape[0], x.shape[1])
    for i in range(weights.shape[0]):
        for j in range(x.shape[0]):
            out[i] += weights[i, j] * x[j]
    return out


def test_basic_self_attention_against_loops():
    x = t("s02_embedded_sentence")
    omega = _loop_omega(x, x)
    assert torch.allclose(t("s03_omega"), omega, atol=1e-5)
    weights = F.softmax(omega, dim=1)
    assert torch.allclose(t("s04_attention_weights"), weights, atol=1e-6)
    assert torch.allclose(t("s05_context_vectors"), _loop_context(weights, x), atol=1e-5)


def test_softmax_rows_sum_to_one_and_stage4_argmax_is_diagonal():
    for key in ("s04_attention_weights", "s11_attention_weights", "s18_multihead_attention_weights"):
        assert np.allclose(T[key].sum(axis=-1), 1.0, atol=1e-5)
    weights = T["s04_attention_weights"]
    assert weights.argmax(axis=-1).tolist() == list(range(8))
    assert weights.argmax(axis=0).tolist() == list(range(8))


def test_projection_matrices_are_the_seeded_rand_draws():
    torch.manual_seed(123)
    expected = torch.rand(17, 16), torch.rand(17, 16), torch.rand(18, 16)
    for key, ref in zip(("s06_U_query", "s06_U_key", "s06_U_value"), expected):
        assert torch.equal(t(key), ref)


def test_qkv_rows_are_projected_tokens():
    x = t("s02_embedded_sentence")
    for key, u in (("s07_queries", "s06_U_query"), ("s08_keys", "s06_U_key"), ("s09_values", "s06_U_value")):
        for i in range(8):
            assert torch.allclose(t(key)[i], t(u) @ x[i], atol=1e-5)


def test_scaled_dot_product_against_torch_sdpa():
    q, k, v = t("s07_queries"), t("s08_keys"), t("s09_values")
    assert torch.allclose(t("s10_omegas"), _loop_omega(q, k), atol=1e-4)
    ref = F.scaled_dot_product_attention(q[None], k[None], v[None])[0]
    assert torch.allclose(t("s12_context_vectors"), ref, atol=1e-5)
    ref_weights = F.softmax(_loop_omega(q, k) / math.sqrt(17), dim=-1)
    assert torch.allclose(t("s11_attention_weights"), ref_weights, atol=1e-6)
    # what stage 11 compares with: the same scores without the scaling (SDPA at scale 1, values = identity)
    eye = torch.eye(8)
    unscaled = F.scaled_dot_product_attention(q[None], k[None], eye[None], scale=1.0)[0]
    assert torch.allclose(t("s11_unscaled_weights"), unscaled, atol=1e-5)


def test_multihead_tensors_are_seeded_after_one_u_query():
    torch.manual_seed(123)
    torch.rand(17, 16)  # the notebook's one_U_query
    for key, shape in (("s13_multihead_U_query", (9, 17, 16)), ("s13_multihead_U_key", (9, 17, 16)),
                       ("s13_multihead_U_value", (9, 18, 16))):
        assert torch.equal(t(key), torch.rand(*shape))


def test_multihead_projections_per_head_loop():
    x = t("s02_embedded_sentence")
    for head in range(9):
        assert torch.allclose(t("s14_multihead_queries")[head], x @ t("s13_multihead_U_query")[head].T, atol=1e-5)
        assert torch.allclose(t("s15_multihead_keys")[head], x @ t("s13_multihead_U_key")[head].T, atol=1e-5)
        assert torch.allclose(t("s16_multihead_values")[head], t("s13_multihead_U_value")[head] @ x.T, atol=1e-5)


def test_multihead_attention_against_sdpa_per_head():
    q, k = t("s14_multihead_queries"), t("s15_multihead_keys")
    v = t("s16_multihead_values").permute(0, 2, 1)
    for head in range(9):
        omega = _loop_omega(q[head], k[head])
        assert torch.allclose(t("s17_multihead_omegas")[head], omega, atol=1e-3)
        weights = F.softmax(omega / math.sqrt(17), dim=-1)
        assert torch.allclose(t("s18_multihead_attention_weights")[head], weights, atol=1e-5)
    ref = F.scaled_dot_product_attention(q, k, v)
    assert torch.allclose(t("s19_multihead_context_vectors"), ref, atol=1e-5)


def test_concatenation_puts_head_blocks_side_by_side():
    flat, ctx = T["s20_multihead_flattened"], T["s19_multihead_context_vectors"]
    for head in range(9):
        assert np.array_equal(flat[:, head * 18:(head + 1) * 18], ctx[head])


def test_linear_is_explicit_matmul_plus_bias():
    w, b, x = t("s21_linear_weight"), t("s21_linear_bias"), t("s20_multihead_flattened")
    assert torch.allclose(t("s21_output"), x @ w.T + b, atol=1e-5)
    assert torch.allclose(t("s21_output") - b, t("s21_before_bias"), atol=1e-5)
    torch.manual_seed(123)
    torch.rand(17, 16), torch.rand(9, 17, 16), torch.rand(9, 17, 16), torch.rand(9, 18, 16)
    linear = torch.nn.Linear(162, 18)
    assert torch.equal(w, linear.weight.detach()) and torch.equal(b, linear.bias.detach())


def test_arrays_are_read_only():
    with pytest.raises(ValueError):
        T["s03_omega"][0, 0] = 1.0


def test_determinism_in_a_new_process(tmp_path):
    out = tmp_path / "a.npz"
    code = ("import numpy as np; from tensors import AttentionConfig, compute_trace;"
            f"np.savez(r'{out}', **compute_trace(AttentionConfig()).export())")
    subprocess.run([sys.executable, "-c", code], check=True)
    other = np.load(out)
    for key, value in T.export().items():
        assert np.array_equal(other[key], value), key


def test_other_seed_changes_the_leaves_not_the_ids():
    other = compute_trace(AttentionConfig(seed=7))
    assert np.array_equal(other["s01_sentence"], T["s01_sentence"])
    for key in ("s02_embedding_table", "s06_U_query", "s13_multihead_U_value", "s21_linear_weight"):
        assert not np.array_equal(other[key], T[key])


def test_custom_sentence_and_sizes_flow_through():
    cfg = AttentionConfig.from_text("I love Transformers", d=4, heads=2)
    trace = compute_trace(cfg)
    assert cfg.vocabulary == ("I", "Transformers", "love")
    assert trace["s01_sentence"].tolist() == [0, 2, 1]
    assert trace["s20_multihead_flattened"].shape == (3, 12)
    assert trace["s21_output"].shape == (3, 6)


@pytest.mark.parametrize("kwargs, message", [
    ({"heads": 0}, "heads must be from 1"),
    ({"sentence": ("one",)}, "2 to 16 words"),
    ({"sentence": tuple("abcdefghijklmnopq")}, "2 to 16 words"),
    ({"d": 1}, "from 2 to 20"),
    ({"d": 99}, "from 2 to 20"),
    ({"heads": 12, "d": 16}, "too wide"),
    ({"seed": -1}, "seed must be"),
    ({"vocab_size": 3}, "vocabulary size"),
    ({"variant": "gpt"}, "variant must be one of blog, paper"),
    ({"variant": "paper", "heads": 9}, "not divisible by 9 heads .heads that fit: 1, 2, 4, 8"),
])
def test_impossible_configurations_are_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        AttentionConfig(**kwargs)


def test_derive_matches_torch():
    a, b = T["s07_queries"], T["s08_keys"].T
    products = matmul_products(a, b)
    assert np.allclose(products.sum(-1), T["s10_omegas"], atol=1e-3)
    assert products.shape == (8, 8, 17)
    multi = matmul_products(T["s14_multihead_queries"], np.swapaxes(T["s15_multihead_keys"], 1, 2))
    assert np.allclose(multi.sum(-1), T["s17_multihead_omegas"], atol=1e-3)
    steps = softmax_steps(T["s11_scaled_omegas"])
    assert np.allclose(steps["weights"], F.softmax(t("s11_scaled_omegas").double(), -1).numpy())
    assert np.allclose(steps["exp"].sum(-1), steps["row_sums"])


# -- the paper's multi-head attention ------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {},  # d = 16 split into 4 heads of 4
    {"heads": 8},
    {"heads": 1},
    {"sentence": ("I", "love", "Transformers"), "d": 6, "heads": 3, "seed": 5},
])
def test_paper_variant_matches_nn_multihead_attention(kwargs):
    cfg = AttentionConfig(variant="paper", **kwargs)
    trace = compute_trace(cfg)
    d, h = cfg.d, cfg.heads
    assert cfg.head_k == cfg.head_v == d // h
    x = torch.from_numpy(np.array(trace["s02_embedded_sentence"]))
    # W_Q, W_K, W_V are the head slices stacked back into d x d matrices
    w_q, w_k, w_v = (torch.from_numpy(np.array(trace[f"s13_multihead_U_{n}"])).reshape(d, d)
                     for n in ("query", "key", "value"))
    mha = torch.nn.MultiheadAttention(d, h, bias=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([w_q, w_k, w_v]))
        mha.in_proj_bias.zero_()
        mha.out_proj.weight.copy_(torch.from_numpy(np.array(trace["s21_linear_weight"])))
        mha.out_proj.bias.copy_(torch.from_numpy(np.array(trace["s21_linear_bias"])))
        output, weights = mha(x, x, x, need_weights=True, average_attn_weights=False)
    assert weights.shape == (h, cfg.tokens, cfg.tokens)
    assert np.allclose(trace["s18_multihead_attention_weights"], weights.numpy(), atol=1e-5)
    assert trace["s21_output"].shape == (cfg.tokens, d)
    assert np.allclose(trace["s21_output"], output.numpy(), atol=1e-5)


def test_paper_variant_shapes_and_shared_first_stages():
    cfg = AttentionConfig(variant="paper")
    paper = compute_trace(cfg)
    assert (cfg.heads, cfg.head_k, cfg.head_v, cfg.d_out) == (4, 4, 4, 16)
    assert paper["s13_multihead_U_query"].shape == (4, 4, 16)
    assert paper["s14_multihead_queries"].shape == (4, 8, 4)
    assert paper["s16_multihead_values"].shape == (4, 4, 8)
    assert paper["s20_multihead_flattened"].shape == (8, 16)
    assert paper["s21_linear_weight"].shape == (16, 16)
    shared = [n for n, stage in stage_list().items() if not stage.follows_variant]
    assert shared == list(range(1, 13))  # stages 1-12 do not change
    for key in (k for n in shared for k in stage_list()[n].exports if k in T):
        assert np.array_equal(paper[key], T[key]), key
    # per head, the softmax is scaled by the head's own size: sqrt(d / h)
    q = torch.from_numpy(np.array(paper["s14_multihead_queries"]))
    k = torch.from_numpy(np.array(paper["s15_multihead_keys"]))
    v = torch.from_numpy(np.array(paper["s19_multihead_values_permuted"]))
    expected = F.scaled_dot_product_attention(q, k, v)
    assert np.allclose(paper["s19_multihead_context_vectors"], expected.numpy(), atol=1e-5)


@pytest.mark.parametrize("other, changes", [(AttentionConfig(mask="causal"), "follows_mask"),
                                           (AttentionConfig(variant="paper"), "follows_variant")])
def test_a_stage_changes_with_the_mask_and_the_variant_where_its_description_says(other, changes):
    """The stage list's follows_mask / follows_variant (what the titles mark) against the numbers."""
    changed = compute_trace(other)
    for number, stage in stage_list().items():
        keys = [key for key, tensor in stage.exports.items() if tensor.when is None]
        same = all(changed[k].shape == T[k].shape and np.array_equal(changed[k], T[k]) for k in keys)
        assert same != getattr(stage, changes), (number, stage.slug)


@pytest.mark.parametrize("config", [CFG, AttentionConfig(variant="paper"),
                                    AttentionConfig.from_text("I love Transformers", d=4, heads=2, seed=7)])
def test_every_axis_is_named_by_what_it_counts(config):
    d, h = config.d, config.heads
    size = {"tokens": len(config.sentence), "heads": h, "vocabulary": config.vocab_size,
            "features (d)": d, "features (d_k)": d + 1, "features (d_v)": d + 2,
            "features (d/h)": d // h, "features (h·d_v)": h * (d + 2)}
    trace = compute_trace(config)
    for key in trace:
        axes = trace.axes(key)
        assert len(axes) == trace[key].ndim, key
        assert tuple(size[a] for a in axes) == trace[key].shape, key


def test_a_trace_on_disk_reads_back_bit_for_bit_and_only_for_its_configuration(tmp_path, monkeypatch):
    from tensors import trace as trace_module

    monkeypatch.setenv("ATTENTION_CUBES_TRACE_CACHE", str(tmp_path))
    config = AttentionConfig(seed=31, mask="causal")
    first = trace_module.compute_trace.__wrapped__(config)  # computes, writes the cache
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1 and not list(tmp_path.glob(".*"))
    again = trace_module.compute_trace.__wrapped__(config)  # reads it
    assert set(again) == set(first)
    for key in first:
        assert np.array_equal(again[key], first[key]) and again[key].dtype == first[key].dtype, key
    assert not again[key].flags.writeable
    trace_module.compute_trace.__wrapped__(AttentionConfig(seed=32, mask="causal"))
    assert len(list(tmp_path.glob("*.npz"))) == 2  # another configuration, another file
