"""Copy-free fades.

Manim's ``FadeIn``/``FadeOut`` deep-copy the mobject two or three times; a
line of ``Text`` costs ~0.1 s a copy, which made captions and labels the
largest cost of a render. These fades scale the opacities in place instead,
so they cost nothing but the frames. They work on any mix of VMobjects and
cube grids (a ``Group``), and restore the exact original opacities.

Examples
--------
>>> from manim import Square
>>> anim = appear(Square())
"""

from __future__ import annotations

import numpy as np
from manim import Mobject, UpdateFromAlphaFunc

from .cubegrid import CubeGrid

__all__ = ["appear", "appearing", "vanish", "swap", "at_once", "all_at_once", "at_end", "halfway", "done_at",
           "InPlace", "Vanish", "opacity_setter"]

_RGBA_FIELDS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


def opacity_setter(mob: Mobject):
    """A function alpha -> None that scales every family member's opacity."""
    members = []
    for part in mob.get_family():
        if isinstance(part, CubeGrid):
            members.append((part, "cube_opacity", part.cube_opacity.copy()))
        for field in _RGBA_FIELDS:
            rgbas = getattr(part, field, None)
            if isinstance(rgbas, np.ndarray) and rgbas.size:
                members.append((part, field, rgbas[:, 3].copy()))

    def set_alpha(alpha: float) -> None:
        for part, field, original in members:
            if field == "cube_opacity":
                part.cube_opacity = original * alpha
            else:
                getattr(part, field)[:, 3] = original * alpha

    return set_alpha


class InPlace(UpdateFromAlphaFunc):
    """``UpdateFromAlphaFunc`` without the starting copy Manim makes by default.

    The update functions here compute everything from state captured when the
    animation is built, so the copy is never read.
    """

    def create_starting_mobject(self) -> Mobject:
        return Mobject()


def appear(mob: Mobject, **kwargs) -> InPlace:
    """Fade ``mob`` in from transparent to its own opacities."""
    set_alpha = opacity_setter(mob)
    animation = InPlace(mob, lambda _, alpha: set_alpha(alpha), **kwargs)
    animation.is_appearance = True
    return animation


def appearing(animation) -> list[Mobject] | None:
    """The mobjects ``animation`` only fades in (through :func:`appear`, alone
    or grouped, e.g. in a ``LaggedStart``); None if it does anything else."""
    if getattr(animation, "is_appearance", False):
        return [animation.mobject]
    parts = getattr(animation, "animations", None)
    if not parts:
        return None
    found = [appearing(part) for part in parts]
    return None if any(f is None for f in found) else [m for f in found for m in f]


class Vanish(InPlace):
    """A fade out that removes its mobject and then gives it back its own
    opacities, so that it can :func:`appear` again later."""

    def __init__(self, mob: Mobject, **kwargs):
        self._set_alpha = opacity_setter(mob)
        kwargs.setdefault("remover", True)
        super().__init__(mob, lambda _, alpha: self._set_alpha(1.0 - alpha), **kwargs)

    def clean_up_from_scene(self, scene) -> None:
        super().clean_up_from_scene(scene)
        if self.remover:
            self._set_alpha(1.0)


def vanish(mob: Mobject, **kwargs) -> InPlace:
    """Fade ``mob`` out and remove it from the scene (its opacities kept for a later :func:`appear`)."""
    return Vanish(mob, **kwargs)


def at_once(t: float) -> float:
    """A rate function that is done at the play's first frame."""
    return 1.0 if t > 0 else 0.0


def all_at_once(animations) -> list:
    """``animations`` (a caption's swap, say) done at the play's first frame,
    whatever their own rate: what they show is true from that frame."""
    animations = list(animations)
    for animation in animations:
        animation.rate_func = at_once
    return animations


def halfway(t: float) -> float:
    """A rate function that is done half-way through the play: a text that
    names what changes over the play changes when the change is half done."""
    return 1.0 if t >= 0.5 else 0.0


def at_end(t: float) -> float:
    """A rate function that is done at the play's last frame: a text that
    names a block where it arrives, once it is there."""
    return 1.0 if t >= 1.0 else 0.0


def done_at(moment: float):
    """A rate function that is done at ``moment`` (a fraction of the play):
    a text that changes with a step of the play that is not its half or its end.

    >>> [done_at(0.25)(t) for t in (0.0, 0.24, 0.25, 1.0)]
    [0.0, 0.0, 1.0, 1.0]
    """
    return lambda t: 1.0 if t >= moment else 0.0


def swap(old: Mobject | None, new: Mobject | None, rate_func=halfway) -> list[InPlace]:
    """``old`` gives way to ``new`` at once, half-way through the play (or
    at ``rate_func``'s step): one text in one place at any frame, never
    two, never a half-faded one."""
    return ([vanish(old, rate_func=rate_func)] if old is not None else []) + \
           ([appear(new, rate_func=rate_func)] if new is not None else [])
