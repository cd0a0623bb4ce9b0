"""--positions and --init against independent references: Vaswani et al.'s
formula written out, nn.Embedding's own draws, Xavier's bound; and the
default configuration untouched by either."""

import math
import re

import numpy as np
import pytest
import torch
from click.testing import CliRunner

from render import cli
from tensors import POSITION_KEYS, AttentionConfig, ConfigError, Weights, compute_trace, load_weights


def vaswani(T: int, d: int) -> np.ndarray:
    """Section 3.5 of "Attention Is All You Need", one number at a time."""
    table = np.zeros((T, d))
    for pos in range(T):
        for i in range(0, d, 2):
            table[pos, i] = math.sin(pos / 10000 ** (i / d))
            if i + 1 < d:
                table[pos, i + 1] = math.cos(pos / 10000 ** (i / d))
    return table


@pytest.mark.parametrize("d", [16, 5])
def test_sinusoidal_positions_follow_the_formula_and_add_to_the_embedding(d):
    config = AttentionConfig(d=d, heads=2, positions="sinusoidal")
    trace = compute_trace(config)
    assert np.allclose(trace["s02_positions"], vaswani(config.tokens, d), atol=1e-6)
    torch.manual_seed(123)
    table = torch.nn.Embedding(10, d).weight.detach().numpy()
    ids = list(config.token_ids)
    assert np.array_equal(trace["s02_embedding_table"], table)  # positions draw nothing
    assert np.array_equal(trace["s02_token_embeddings"], table[ids])
    assert np.allclose(trace["s02_embedded_sentence"], table[ids] + vaswani(config.tokens, d), atol=1e-6)
    # attention consumes X = embedding + positions
    x = trace["s02_embedded_sentence"]
    assert np.allclose(trace["s03_omega"], x @ x.T, atol=1e-4)


def test_learned_positions_are_an_embedding_drawn_after_the_table():
    trace = compute_trace(AttentionConfig(positions="learned"))
    torch.manual_seed(123)
    table = torch.nn.Embedding(10, 16).weight.detach()
    positions = torch.nn.Embedding(8, 16).weight.detach()
    assert np.array_equal(trace["s02_positions"], positions.numpy())
    rows = table[list(AttentionConfig().token_ids)]
    assert np.array_equal(trace["s02_embedded_sentence"], (rows + positions).numpy())
    base = compute_trace(AttentionConfig())
    for key in ("s06_U_query", "s13_multihead_U_value", "s21_linear_weight"):  # the other draws stay
        assert np.array_equal(trace[key], base[key]), key
    q = torch.from_numpy(np.array(trace["s02_embedded_sentence"])) @ torch.from_numpy(np.array(base["s06_U_query"])).T
    assert np.allclose(trace["s07_queries"], q.numpy(), atol=1e-4)


def test_export_keys_with_positions_and_their_axes():
    trace = compute_trace(AttentionConfig(positions="learned"))
    keys = trace.export_keys()
    at = keys.index("s02_embedding_table")
    assert keys[at:at + 4] == ("s02_embedding_table", *POSITION_KEYS, "s02_embedded_sentence")
    assert trace.axes("s02_positions") == ("tokens", "features (d)")
    assert trace.axes("s02_token_embeddings") == ("tokens", "features (d)")
    plain = compute_trace(AttentionConfig())
    assert not set(POSITION_KEYS) & set(plain) and not set(POSITION_KEYS) & set(plain.export())


def test_a_weights_file_sets_learned_positions_and_token_rows(tmp_path):
    positions = np.arange(8 * 16, dtype=np.float32).reshape(8, 16) / 100
    rows = np.ones((8, 16), dtype=np.float32)
    np.savez(tmp_path / "mine.npz", s02_positions=positions, s02_token_embeddings=rows)
    trace = compute_trace(AttentionConfig(positions="learned", weights=load_weights(tmp_path / "mine.npz")))
    assert np.array_equal(trace["s02_positions"], positions)
    assert np.array_equal(trace["s02_embedded_sentence"], rows + positions)


@pytest.mark.parametrize("positions, leaves, message", [
    ("none", {"s02_positions": np.ones((8, 16))},
     "s02_positions is not a tensor of this configuration: it has no positions"),
    ("sinusoidal", {"s02_positions": np.ones((8, 16))}, "s02_positions follows the sinusoidal formula"),
    ("learned", {"s02_embedded_sentence": np.ones((8, 16))}, "s02_embedded_sentence is token embeddings + positions"),
    ("learned", {"s02_positions": np.ones((16, 8))}, "s02_positions must be 8x16"),
    ("learned", {"s02_embedding_table": np.ones((10, 16)), "s02_token_embeddings": np.ones((8, 16))}, "not both"),
])
def test_position_leaves_that_do_not_fit_are_refused(positions, leaves, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        AttentionConfig(positions=positions, weights=Weights(leaves))


def test_unknown_positions_and_init_are_refused():
    with pytest.raises(ConfigError, match="positions must be one of none, learned, sinusoidal"):
        AttentionConfig(positions="rotary")
    with pytest.raises(ConfigError, match="init must be one of torch-rand, xavier"):
        AttentionConfig(init="he")


# -- --init xavier ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["blog", "paper"])
def test_xavier_is_the_same_draws_centred_and_scaled(variant):
    config = AttentionConfig(init="xavier", variant=variant)
    trace, d = compute_trace(config), config.d
    torch.manual_seed(123)
    draws = torch.rand(17, 16), torch.rand(17, 16), torch.rand(18, 16)
    for key, u, fan_out in zip(("s06_U_query", "s06_U_key", "s06_U_value"), draws, (17, 17, 18)):
        limit = math.sqrt(6 / (d + fan_out))
        assert np.allclose(trace[key], ((u * 2 - 1) * limit).numpy(), atol=1e-7), key
        assert np.abs(trace[key]).max() <= limit
    torch.manual_seed(123)
    if variant == "blog":
        torch.rand(17, 16)
    h, hk, hv = config.heads, config.head_k, config.head_v
    draws = torch.rand(h, hk, d), torch.rand(h, hk, d), torch.rand(h, hv, d)
    # a blog head maps d to its own d_k; the paper's W_Q is d x d, cut into the heads' rows
    fans = (hk, hk, hv) if variant == "blog" else (d, d, d)
    for name, u, fan_out in zip(("query", "key", "value"), draws, fans):
        limit = math.sqrt(6 / (d + fan_out))
        assert np.allclose(trace[f"s13_multihead_U_{name}"], ((u * 2 - 1) * limit).numpy(), atol=1e-7), name
    linear = torch.nn.Linear(h * hv, config.d_out)  # the stream continues where the blog's does
    limit = math.sqrt(6 / (h * hv + config.d_out))
    assert np.allclose(trace["s21_linear_weight"], linear.weight.detach().numpy() * limit * math.sqrt(h * hv),
                       atol=1e-6)
    assert np.abs(trace["s21_linear_weight"]).max() <= limit + 1e-6
    assert np.all(trace["s21_linear_bias"] == 0)
    # the embedding is nn.Embedding's N(0, 1) either way
    assert np.array_equal(trace["s02_embedding_table"], compute_trace(AttentionConfig())["s02_embedding_table"])


@pytest.mark.parametrize("variant", ["blog", "paper"])
def test_xavier_gives_graded_attention_where_torch_rand_is_one_hot(variant):
    rand = compute_trace(AttentionConfig(variant=variant))
    xavier = compute_trace(AttentionConfig(variant=variant, init="xavier"))
    for key in ("s11_attention_weights", "s18_multihead_attention_weights"):
        # the blog's: a row's largest weight averages 0.7-0.9, its smallest under 0.005
        assert rand[key].max(axis=-1).mean() > 0.7 and rand[key].min(axis=-1).mean() < 0.005, key
        assert xavier[key].max(axis=-1).mean() < 0.45, key  # graded: no row close to one-hot...
        assert xavier[key].min(axis=-1).mean() > 0.02, key  # ...and no token left out


def test_a_file_with_xavier_keeps_its_leaves_and_draws_the_rest():
    mine = np.full((17, 16), 0.5, dtype=np.float32)
    trace = compute_trace(AttentionConfig(init="xavier", weights=Weights({"s06_U_key": mine})))
    assert np.array_equal(trace["s06_U_key"], mine)
    assert np.array_equal(trace["s06_U_query"], compute_trace(AttentionConfig(init="xavier"))["s06_U_query"])


def test_the_cli_takes_positions_and_init_and_refuses_bad_values(tmp_path):
    out = tmp_path / "x.npz"
    result = CliRunner().invoke(cli, ["tensors", "--out", str(out), "--positions", "sinusoidal", "--init", "xavier"])
    assert result.exit_code == 0, result.output
    data = np.load(out)
    assert np.allclose(data["s02_positions"], vaswani(8, 16), atol=1e-6)
    for args, message in ((["--positions", "rotary"], "Invalid value for '--positions'"),
                          (["--init", "he"], "Invalid value for '--init'")):
        result = CliRunner().invoke(cli, ["tensors", "--format", "summary", *args])
        assert result.exit_code == 2 and message in result.output
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
