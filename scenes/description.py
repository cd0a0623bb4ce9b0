"""What a stage says about itself: title, code line, formula and which
configurations change it, filled in for one configuration.

A stage declares its words as class attributes (templates with ``{d}``,
``{heads}``, ... see :meth:`StageDescription.sizes`); the class methods give
the text a scene shows for a configuration, without building the scene.
What the tensors' stage list states (:mod:`tensors.stagelist`) the class
reads from it by its ``number`` and does not restate: its name (``slug``)
and whether a causal mask (``follows_mask``) or the paper variant
(``follows_variant``) changes its numbers.

Examples
--------
>>> class Demo(StageDescription):
...     number, title, code = 21, "Linear({concat}, {d_out})", "linear(x)"
>>> Demo.title_text(), Demo.slug, Demo.follows_mask
('Linear(162, 18)', 'linear', True)
"""

from __future__ import annotations

from typing import ClassVar

from tensors import AttentionConfig
from tensors.stagelist import stage_spec

__all__ = ["StageDescription", "MASK_LINE"]

MASK_LINE = "mask = torch.triu(torch.ones({tokens}, {tokens}, dtype=torch.bool), diagonal=1)"


class FromStageList:
    """A stage class's attribute read from the tensors' description of the
    stage with the class's ``number`` (``default`` without a number)."""

    def __init__(self, default):
        self.default = default

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner=None):
        number = (owner or type(instance)).number
        return self.default if number is None else getattr(stage_spec(number), self.name)


class StageDescription:
    """A stage's words: number, name, title, summary, code; see the module docstring."""

    number: ClassVar[int | None] = None
    slug = FromStageList("")
    follows_mask = FromStageList(False)  # a causal mask changes its numbers (its title says so)
    follows_variant = FromStageList(False)  # the paper variant changes its numbers (its title says so)
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    code: ClassVar[str] = ""  # title and code are templates: {d}, {heads}, ... (see sizes())
    paper_title: ClassVar[str] = ""  # what the paper variant shows instead, where it differs
    paper_code: ClassVar[str] = ""
    formula_tex: ClassVar[str | None] = None
    mask_code: ClassVar[str] = ""  # the code line with the causal mask, where the stage applies it
    view: ClassVar[tuple[float, float]] = (0.0, 0.0)  # the camera's yaw, pitch in radians

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        restated = [name for name, value in vars(StageDescription).items()
                    if isinstance(value, FromStageList) and name in cls.__dict__]
        if restated:
            raise TypeError(f"{cls.__qualname__} sets {', '.join(restated)}: the tensors' stage list states "
                            "it (tensors/attention.py), the class reads it by its number")

    @classmethod
    def paper(cls, config: AttentionConfig | None = None) -> bool:
        """True when this stage shows the paper's multi-head attention (the
        stages the variant changes)."""
        return (config or AttentionConfig()).variant == "paper" and cls.follows_variant

    @classmethod
    def sizes(cls, config: AttentionConfig | None = None) -> dict:
        """The names a stage's code and title may use in ``{}``."""
        cfg = config or AttentionConfig()
        return dict(ids=list(cfg.token_ids), vocab_size=cfg.vocab_size, d=cfg.d, d_k=cfg.d_k,
                    d_v=cfg.d_v, heads=cfg.heads, head_k=cfg.head_k, head_v=cfg.head_v,
                    concat=cfg.concat, d_out=cfg.d_out, tokens=cfg.tokens)

    @classmethod
    def causal(cls, config: AttentionConfig | None = None) -> bool:
        """True when a causal mask changes this stage's numbers."""
        return (config or AttentionConfig()).mask == "causal" and cls.follows_mask

    @staticmethod
    def weights_words(config: AttentionConfig | None = None) -> str:
        """Where this configuration's weights come from, in a few words for a caption."""
        cfg = config or AttentionConfig()
        if cfg.trained:
            return "trained on a task (see stage 18)"
        if cfg.weights is not None:
            return "your own numbers (--weights)"
        if cfg.init == "xavier":
            return "Xavier-uniform random, not trained"
        return "random (torch.rand), not trained"

    @staticmethod
    def embedding_words(config: AttentionConfig | None = None) -> str:
        """Where this configuration's embedding table comes from, for a caption:
        ``nn.Embedding`` draws its rows from a normal distribution, not ``torch.rand``."""
        cfg = config or AttentionConfig()
        if cfg.trained:
            return "trained with the attention (see stage 18)"
        if cfg.weights is not None:
            return "your own numbers (--weights)"
        return "random, drawn from N(0, 1) as nn.Embedding initialises it: not trained"

    @classmethod
    def title_text(cls, config: AttentionConfig | None = None) -> str:
        """The title with this configuration's sizes; marked in the paper variant
        and where a causal mask changes the stage."""
        paper = cls.paper(config)
        title = (cls.paper_title if paper and cls.paper_title else cls.title).format(**cls.sizes(config))
        marks = [m for m, on in (("paper", paper), ("causal", cls.causal(config))) if on]
        return f"{title} ({', '.join(marks)})" if marks else title

    @classmethod
    def code_text(cls, config: AttentionConfig | None = None) -> str:
        """The stage's PyTorch line with this configuration's sizes filled in."""
        code = cls.paper_code if cls.paper(config) and cls.paper_code else cls.code
        if cls.causal(config) and cls.mask_code:
            code = MASK_LINE + "\n" + cls.mask_code
        return code.format(**cls.sizes(config))
