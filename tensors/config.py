"""The one frozen, validated configuration every size comes from.

The defaults reproduce the blog "Visualizing Transformer" (and the ch16
self-attention notebook it follows): the sentence "can you help me to
translate this sentence" over a 10-word vocabulary, d = 16, d_k = d + 1,
d_v = d + 2, 9 heads, seed 123.

``variant="paper"`` changes the multi-head part (stages 13 on) to the paper's
(and ``torch.nn.MultiheadAttention``'s): d is split across the heads,
d_k = d_v = d / h per head, and the output projection W_O maps d to d.

``positions`` adds where each token stands to its embedding (none in the
blog); ``init="xavier"`` draws the weights Xavier-uniform instead of the
blog's ``torch.rand``; ``weights="trained"`` trains them (tensors/training.py).

Examples
--------
>>> cfg = AttentionConfig()
>>> cfg.token_ids
(0, 7, 1, 2, 5, 6, 4, 3)
>>> (cfg.d_k, cfg.d_v, cfg.heads)
(17, 18, 9)
>>> paper = AttentionConfig(variant="paper")
>>> (paper.heads, paper.head_k, paper.head_v, paper.d_out)
(4, 4, 4, 16)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import ConfigError
from .stagelist import exported_keys, shape_of
from .weights import LEAF_KEYS, POSITION_KEYS, Weights, check_weights

__all__ = ["AttentionConfig", "ConfigError", "DEFAULT_SENTENCE", "INITS", "LIMITS", "MASKS", "POSITIONS",
           "TRAINED", "VARIANTS"]

DEFAULT_SENTENCE = ("can", "you", "help", "me", "to", "translate", "this", "sentence")

# The blog's dictionary has 10 entries; its 8 words take ids 0-7 in
# alphabetical order (can=0, help=1, ..., you=7) and ids 8, 9 are unused.
DEFAULT_VOCAB_SIZE = 10

# The multi-head attention (stages 13 on), and the default number of heads:
# the blog gives every head a full-size projection (9 heads); the paper splits
# d = 16 across 4 heads of 4.
VARIANTS = {"blog": 9, "paper": 4}

# Which scores a token may attend to: all ("none", the blog's encoder
# self-attention) or only its own and earlier ones ("causal", a GPT decoder).
MASKS = ("none", "causal")

# Where each token stands, added to its embedding (tensors/positions.py).
POSITIONS = ("none", "learned", "sinusoidal")

# How the weights not given are drawn: the blog's torch.rand (all positive,
# scores of about +-95: one-hot softmaxes) or Xavier-uniform from the same
# draws (graded attention without training).
INITS = ("torch-rand", "xavier")

# ``weights=TRAINED``: every leaf comes from training (tensors/training.py).
TRAINED = "trained"

# What a scene can still draw legibly at 480p; one place for every bound.
LIMITS = {
    "words": (2, 16),
    "d": (2, 20),
    "heads": (1, 12),
    # stage 20 draws tokens x (heads * d_v) cubes in one row of the screen
    "concat_width": 180,
}


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(f"{name} must be from {low} to {high}, got {value}")


@dataclass(frozen=True)
class AttentionConfig:
    """Sentence, vocabulary, dimensions, heads and seed of one attention trace.

    Parameters
    ----------
    sentence
        The words, in order. 2 to 16 words.
    vocab_size
        Rows of the embedding table. The dictionary holds the distinct words
        of the sentence in alphabetical order (a word's token id is its index
        there, which gives the blog's ids); extra rows are unused ids.
        ``None``: 10 for the blog's sentence, else the number of distinct words.
    d
        The embedding size. ``d_k = d + 1`` and ``d_v = d + 2`` as in the blog,
        so every axis has its own length and the shapes tell them apart.
    heads
        The number of attention heads ``h``. ``None``: 9 for the blog, 4 for
        the paper variant.
    seed
        The ``torch.manual_seed`` used, as in the notebook.
    variant
        ``"blog"`` (the default) or ``"paper"``: how the stages from 13 on do
        multi-head attention (see the module docstring).
    mask
        ``"none"`` (the default) or ``"causal"``: every softmax first sets the
        scores of later tokens (above the diagonal) to -inf.
    weights
        Your own leaves (:class:`~.weights.Weights`, by export key); the rest
        keeps its seeded values. Checked against this configuration's shapes.
        Or ``"trained"``: all leaves from a model of this shape trained on a
        task that needs heads looking at different places (needs positions).
    positions
        ``"none"`` (the blog), ``"learned"`` (a table of T x d, drawn as
        ``nn.Embedding(T, d)`` right after the embedding, or trained) or
        ``"sinusoidal"`` (Vaswani et al.). X = token embeddings + positions.
        ``None``: ``"learned"`` with trained weights or weights holding
        ``s02_positions``, else ``"none"``.
    init
        ``"torch-rand"`` (the blog's) or ``"xavier"``: the U matrices and the
        output projection Xavier-uniform (the same draws, centred and scaled
        to +-sqrt(6 / (fan_in + fan_out))), its bias 0; the embedding keeps
        ``nn.Embedding``'s N(0, 1). Not with ``weights="trained"``.
    """

    sentence: tuple[str, ...] = DEFAULT_SENTENCE
    vocab_size: int | None = field(default=None)
    d: int = 16
    heads: int | None = None
    seed: int = 123
    variant: str = "blog"
    mask: str = "none"
    weights: Weights | str | None = None
    positions: str | None = None
    init: str = "torch-rand"

    def __post_init__(self) -> None:
        sentence = tuple(str(w) for w in self.sentence)
        object.__setattr__(self, "sentence", sentence)
        low, high = LIMITS["words"]
        if not low <= len(sentence) <= high:
            raise ConfigError(
                f"the sentence must have {low} to {high} words, got {len(sentence)}"
            )
        if any(not w or w.isspace() for w in sentence):
            raise ConfigError("the sentence has an empty word")
        words = len(set(sentence))
        vocab_size = self.vocab_size
        if vocab_size is None:
            vocab_size = DEFAULT_VOCAB_SIZE if sentence == DEFAULT_SENTENCE else words
        _check_range("the vocabulary size", vocab_size, words, 64)
        object.__setattr__(self, "vocab_size", vocab_size)
        _check_range("d (the embedding size)", self.d, *LIMITS["d"])
        if self.variant not in VARIANTS:
            raise ConfigError(f"variant must be one of {', '.join(VARIANTS)}, got {self.variant!r}")
        if self.heads is None:
            object.__setattr__(self, "heads", VARIANTS[self.variant])
        _check_range("heads", self.heads, *LIMITS["heads"])
        if self.variant == "paper" and self.d % self.heads:
            fits = ", ".join(str(h) for h in range(1, LIMITS["heads"][1] + 1) if self.d % h == 0)
            raise ConfigError(
                f"the paper variant splits d across the heads: d={self.d} is not divisible "
                f"by {self.heads} heads (heads that fit: {fits})"
            )
        width = self.heads * self.head_v
        if width > LIMITS["concat_width"]:
            raise ConfigError(
                f"heads x d_v = {self.heads} x {self.head_v} = {width} columns is too wide "
                f"to draw; keep heads x (d + 2) <= {LIMITS['concat_width']}"
            )
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ConfigError(f"seed must be a whole number >= 0, got {self.seed!r}")
        if self.mask not in MASKS:
            raise ConfigError(f"mask must be one of {', '.join(MASKS)}, got {self.mask!r}")
        if self.positions is None:
            own = self.weights
            learned = isinstance(own, str) or (own is not None and "s02_positions" in own)
            object.__setattr__(self, "positions", "learned" if learned else "none")
        if self.positions not in POSITIONS:
            raise ConfigError(f"positions must be one of {', '.join(POSITIONS)}, got {self.positions!r}")
        if self.init not in INITS:
            raise ConfigError(f"init must be one of {', '.join(INITS)}, got {self.init!r}")
        if isinstance(self.weights, str):
            if self.weights != TRAINED:
                raise ConfigError(f"weights must be {TRAINED!r} or a file's Weights, got {self.weights!r}")
            if self.positions == "none":
                raise ConfigError("--weights trained needs --positions learned or sinusoidal: without "
                                  "positions attention cannot tell the words' order")
            if self.init != INITS[0]:
                raise ConfigError(f"--init {self.init} sets untrained weights; --weights trained trains "
                                  "every one of them (from a Xavier start): leave --init out")
        elif self.weights is not None:
            check_weights(self.weights, self.leaf_shapes(), set(exported_keys(self)), self.token_ids,
                          self.positions)

    def leaf_shapes(self) -> dict[str, tuple[int, ...]]:
        """The shapes of the tensors the computation starts from (settable with weights).

        >>> AttentionConfig().leaf_shapes()["s21_linear_weight"]
        (18, 162)
        """
        return {key: shape_of(key, self) for key in LEAF_KEYS + POSITION_KEYS}

    @classmethod
    def from_text(cls, text: str, **kwargs) -> "AttentionConfig":
        """Build a configuration from a sentence typed as one string.

        >>> AttentionConfig.from_text("I love Transformers").sentence
        ('I', 'love', 'Transformers')
        """
        return cls(sentence=tuple(text.split()), **kwargs)

    @property
    def tokens(self) -> int:
        """The number of words ``T``."""
        return len(self.sentence)

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """The distinct words in alphabetical order; index = token id."""
        return tuple(sorted(set(self.sentence)))

    @property
    def d_k(self) -> int:
        return self.d + 1

    @property
    def d_v(self) -> int:
        return self.d + 2

    @property
    def head_k(self) -> int:
        """Query/key size of one head (stages 13 on): d_k (blog) or d / h (paper)."""
        return self.d_k if self.variant == "blog" else self.d // self.heads

    @property
    def head_v(self) -> int:
        """Value size of one head (stages 13 on): d_v (blog) or d / h (paper)."""
        return self.d_v if self.variant == "blog" else self.d // self.heads

    @property
    def concat(self) -> int:
        """Width of the heads side by side (stage 20): h x d_v (blog) or h x d/h = d (paper)."""
        return self.heads * self.head_v

    @property
    def d_out(self) -> int:
        """Width of the stage-21 output: d_v (blog, ``Linear(h*d_v, d_v)``) or d (paper, W_O)."""
        return self.d_v if self.variant == "blog" else self.d

    @property
    def trained(self) -> bool:
        """Whether every leaf comes from training (``weights="trained"``)."""
        return isinstance(self.weights, str) and self.weights == TRAINED

    @property
    def token_ids(self) -> tuple[int, ...]:
        index = {w: i for i, w in enumerate(self.vocabulary)}
        return tuple(index[w] for w in self.sentence)

    def describe(self) -> str:
        """One line for logs and titles."""
        heads = f"h={self.heads}"
        if self.variant == "paper":
            heads += f" of d/h={self.head_k} (paper)"
        own = ("trained weights" if self.trained else f"own {', '.join(self.weights)}") if self.weights else ""
        extra = "".join([" · causal mask" if self.mask == "causal" else "",
                         f" · {self.positions} positions" if self.positions != "none" else "",
                         " · Xavier init" if self.init == "xavier" else "",
                         f" · {own}" if own else ""])
        return (
            f'"{" ".join(self.sentence)}" · vocab {self.vocab_size} · d={self.d} '
            f"d_k={self.d_k} d_v={self.d_v} · {heads} · seed {self.seed}{extra}"
        )
