"""What a stage says about itself: title, code line, formula and which
configurations change it, filled in for one configuration.

A stage declares these as class attributes (templates with ``{d}``,
``{heads}``, ... see :meth:`StageDescription.sizes`); the class methods give
the text a scene shows for a configuration, without building the scene.

Examples
--------
>>> class Demo(StageDescription):
...     number, title, code = 21, "Linear({concat}, {d_out})", "linear(x)"
>>> Demo.title_text()
'Linear(162, 18)'
"""

from __future__ import annotations

from typing import ClassVar

from tensors import AttentionConfig

__all__ = ["StageDescription", "PAPER_FROM_STAGE", "MASK_LINE"]

PAPER_FROM_STAGE = 13  # the variants differ from the multi-head part on
MASK_LINE = "mask = torch.triu(torch.ones({tokens}, {tokens}, dtype=torch.bool), diagonal=1)"


class StageDescription:
    """A stage's words: number, name, title, summary, code; see the module docstring."""

    number: ClassVar[int | None] = None
    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    code: ClassVar[str] = ""  # title and code are templates: {d}, {heads}, ... (see sizes())
    paper_title: ClassVar[str] = ""  # what the paper variant shows instead, where it differs
    paper_code: ClassVar[str] = ""
    formula_tex: ClassVar[str | None] = None
    # True where the stage's numbers follow from the attention weights, so a
    # causal mask changes them (its title says so)
    follows_mask: ClassVar[bool] = False
    mask_code: ClassVar[str] = ""  # the code line with the causal mask, where the stage applies it
    view: ClassVar[tuple[float, float]] = (0.0, 0.0)  # the camera's yaw, pitch in radians

    @classmethod
    def paper(cls, config: AttentionConfig | None = None) -> bool:
        """True when this stage shows the paper's multi-head attention (stages 13-21)."""
        cfg = config or AttentionConfig()
        return cfg.variant == "paper" and (cls.number or 0) >= PAPER_FROM_STAGE

    @classmethod
    def sizes(cls, config: AttentionConfig | None = None) -> dict:
        """The names a stage's code and title may use in ``{}``."""
        cfg = config or AttentionConfig()
        return dict(ids=list(cfg.token_ids), vocab_size=cfg.vocab_size, d=cfg.d, d_k=cfg.d_k,
                    d_v=cfg.d_v, heads=cfg.heads, head_k=cfg.head_k, head_v=cfg.head_v,
                    concat=cfg.heads * cfg.head_v, d_out=cfg.d_out, tokens=cfg.tokens)

    @classmethod
    def causal(cls, config: AttentionConfig | None = None) -> bool:
        """True when a causal mask changes this stage's numbers."""
        return (config or AttentionConfig()).mask == "causal" and cls.follows_mask

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
