"""The stage list as data: each stage's number, name, tensors, inputs and
what changes it, stated once, on the function that computes it.

A stage is a function decorated with :func:`stage`. The decorator states
the stage's description (a :class:`StageSpec`) and registers the function
under its number::

    @stage(3, "omega", reads=("s02_embedded_sentence",), exports={"s03_omega": ("tokens", "tokens")})
    def omega(run):
        x = run["s02_embedded_sentence"]
        return {"s03_omega": x.matmul(x.T)}

:func:`~.trace.compute_trace` runs the registered functions in number order
and checks that each returns what it declares; a function sees only the
tensors it ``reads`` (:class:`Run`). Everything else reads the description:
the export's keys and axis names, the weights check, the command line's
list and the scenes' names and "(paper)"/"(causal)" marks. The blog's stages
are registered by :mod:`.attention`, which importing the ``tensors`` package
imports; a stage defined anywhere else (a test's) registers the same way and
is then in every trace and export until :func:`unregister` takes it out.

A stage *follows* the causal mask when it applies the mask itself
(``masks=True``) or reads a tensor of a stage that follows it; it *follows*
the variant when its own code differs in the paper variant
(``variant=True``) or it reads a tensor of a stage that follows it.

Axes are named by the configuration's sizes (:data:`AXES`): ``"tokens"``,
``"heads"``, ``"vocabulary"``, ``"d"``, ``"d_k"``, ``"d_v"``, ``"head_k"``,
``"head_v"``, ``"concat"``, ``"d_out"``.

Importing this module imports neither torch nor NumPy.

Examples
--------
>>> omega = stage_list()[3]
>>> omega.slug, omega.reads, omega.follows_mask
('omega', ('s02_embedded_sentence',), False)
>>> [n for n, s in stage_list().items() if s.follows_mask]
[4, 5, 11, 12, 18, 19, 20, 21]
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

__all__ = ["AXES", "CONDITIONS", "Run", "StageListError", "StageSpec", "Tensor", "axis_names", "exported_keys",
           "fingerprint", "shape_of", "stage", "stage_keys", "stage_list", "stage_spec", "unregister",
           "when_changed"]

# Axis symbol -> what it counts in the blog, what it counts in the paper
# variant, and the configuration's attribute that gives its length.
AXES: dict[str, tuple[str, str, str]] = {
    "tokens": ("tokens", "tokens", "tokens"),
    "heads": ("heads", "heads", "heads"),
    "vocabulary": ("vocabulary", "vocabulary", "vocab_size"),
    "d": ("features (d)", "features (d)", "d"),
    "d_k": ("features (d_k)", "features (d_k)", "d_k"),
    "d_v": ("features (d_v)", "features (d_v)", "d_v"),
    "head_k": ("features (d_k)", "features (d/h)", "head_k"),
    "head_v": ("features (d_v)", "features (d/h)", "head_v"),
    "concat": ("features (h·d_v)", "features (d)", "concat"),
    "d_out": ("features (d_v)", "features (d)", "d_out"),
}

# When an export is exported (it may be in the trace either way).
CONDITIONS: dict[str, Callable] = {
    "causal": lambda config: config.mask == "causal",
    "positions": lambda config: config.positions != "none",
}


class StageListError(RuntimeError):
    """A stage declared against the rules (see :func:`stage`), or a stage
    function that reads or returns what it did not declare."""


@dataclass(frozen=True)
class Tensor:
    """One tensor of a stage: its axes (symbols of :data:`AXES`) and, for an
    export that only some configurations have, ``when`` (a key of :data:`CONDITIONS`)."""

    axes: tuple[str, ...]
    when: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "axes", tuple(self.axes))

    def applies(self, config) -> bool:
        return self.when is None or CONDITIONS[self.when](config)


@dataclass(frozen=True, eq=False)
class StageSpec:
    """One stage as data. ``exports``: what ``render.py tensors`` writes, in
    order; ``shows``: the tensors between inputs and exports a scene shows
    (in the trace, not exported); ``reads``: the tensors of earlier stages
    the function uses; ``masks``/``variant``: its own code applies the causal
    mask / differs in the paper variant; ``follows_mask``/``follows_variant``:
    whether a causal mask / the paper variant changes its numbers (its own
    code's or through what it reads)."""

    number: int
    slug: str
    exports: Mapping[str, Tensor]
    shows: Mapping[str, Tensor]
    reads: tuple[str, ...]
    masks: bool
    variant: bool
    compute: Callable = field(repr=False)
    follows_mask: bool = False
    follows_variant: bool = False

    @property
    def tensors(self) -> dict[str, Tensor]:
        """Every tensor the stage computes: its exports, then what it shows."""
        return {**self.exports, **self.shows}

    def export_keys(self, config) -> tuple[str, ...]:
        """The keys this stage exports for ``config``."""
        return tuple(key for key, tensor in self.exports.items() if tensor.applies(config))

    def check_made(self, made: Mapping, config) -> None:
        """:class:`StageListError` unless ``made`` holds exactly what the stage
        declares for ``config`` (a conditional export may be there anyway)."""
        extra = [key for key in made if key not in self.tensors]
        missing = [key for key, tensor in self.tensors.items() if key not in made and tensor.applies(config)]
        if extra or missing:
            raise StageListError(
                f"stage {self.number} ({self.slug}) returned {', '.join(extra) or 'nothing'} undeclared "
                f"and is missing {', '.join(missing) or 'nothing'}")


class Run:
    """What a stage function gets: ``run.config`` (the
    :class:`~.config.AttentionConfig`), ``run.own`` (the leaves a weights file
    or training gives, torch tensors by export key) and ``run[key]``, a
    tensor of an earlier stage, which the stage must declare in ``reads``."""

    def __init__(self, spec: StageSpec, config, tensors: Mapping, own: Mapping):
        self.spec, self.config, self.own = spec, config, own
        self._tensors = tensors

    def __getitem__(self, key: str):
        if key not in self.spec.reads:
            raise StageListError(f"stage {self.spec.number} ({self.spec.slug}) reads {key} "
                                 "without declaring it in reads=")
        return self._tensors[key]


_STAGES: dict[int, StageSpec] = {}
_LISTENERS: list[Callable[[], None]] = []


def stage(number: int, slug: str, *, exports: Mapping[str, tuple[str, ...] | Tensor], reads: tuple[str, ...] = (),
          shows: Mapping[str, tuple[str, ...] | Tensor] | None = None, masks: bool = False,
          variant: bool = False) -> Callable:
    """Declare and register the function computing stage ``number``, called ``slug``.

    ``exports`` and ``shows`` map each tensor's key (``sNN_name``, NN the
    stage's number) to its axes, or to a :class:`Tensor` for an export only
    some configurations have; ``reads`` names tensors of lower-numbered
    stages. The function takes a :class:`Run` and returns its tensors by key
    (torch tensors, or anything NumPy reads). A second function under a taken
    number, slug or key is refused (:class:`StageListError`); the same
    function defined again replaces itself.
    """
    exports = {key: t if isinstance(t, Tensor) else Tensor(t) for key, t in exports.items()}
    shows = {key: t if isinstance(t, Tensor) else Tensor(t) for key, t in (shows or {}).items()}

    def register(compute: Callable) -> Callable:
        spec = StageSpec(number, slug, MappingProxyType(exports), MappingProxyType(shows), tuple(reads),
                         masks, variant, compute)
        others = {n: s for n, s in _STAGES.items() if n != number or _name(s.compute) != _name(compute)}
        _check(spec, others)
        producers = [_producer(key, others) for key in spec.reads]
        spec = StageSpec(**{**spec.__dict__,
                            "follows_mask": masks or any(p.follows_mask for p in producers),
                            "follows_variant": variant or any(p.follows_variant for p in producers)})
        _STAGES[number] = spec
        _changed()
        return compute

    return register


def _name(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _check(spec: StageSpec, others: dict[int, StageSpec]) -> None:
    where = f"stage {spec.number} ({spec.slug})"
    if isinstance(spec.number, bool) or not isinstance(spec.number, int) or spec.number < 1:
        raise StageListError(f"{where}: a stage number is a whole number from 1")
    if spec.number in others:
        raise StageListError(f"{where} declared twice: {_name(others[spec.number].compute)} and "
                             f"{_name(spec.compute)}")
    if not spec.slug or any(s.slug == spec.slug for s in others.values()):
        raise StageListError(f"{where}: its name must be given and not another stage's")
    taken = {key for s in others.values() for key in s.tensors}
    for key, tensor in spec.tensors.items():
        if not key.startswith(f"s{spec.number:02d}_") or key in taken:
            raise StageListError(f"{where}: {key} must be named s{spec.number:02d}_... and not another stage's")
        unknown = [a for a in tensor.axes if a not in AXES]
        if unknown or (tensor.when is not None and tensor.when not in CONDITIONS):
            raise StageListError(f"{where}: {key} has unknown axes or condition "
                                 f"({', '.join(unknown) or tensor.when}; axes: {', '.join(AXES)})")
    for key in spec.reads:
        _producer(key, {n: s for n, s in others.items() if n < spec.number}, where)


def _producer(key: str, stages: Mapping[int, StageSpec], where: str = "") -> StageSpec:
    for spec in stages.values():
        if key in spec.tensors:
            return spec
    raise StageListError(f"{where or 'the stage list'}: no earlier stage computes {key}")


def unregister(number: int) -> None:
    """Take stage ``number`` out (a test's stage, after the test)."""
    if _STAGES.pop(number, None) is not None:
        _changed()


def when_changed(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever a stage is registered or taken out (to drop
    what was computed from the old list)."""
    _LISTENERS.append(callback)


def _changed() -> None:
    for callback in _LISTENERS:
        callback()


def stage_list() -> dict[int, StageSpec]:
    """Every registered stage by number, sorted; :class:`StageListError`
    unless the numbers run 1..N."""
    stages = dict(sorted(_STAGES.items()))
    if list(stages) != list(range(1, len(stages) + 1)):
        raise StageListError(f"stage numbers must be 1..{len(stages)}, got {list(stages)}")
    return stages


def stage_spec(number: int) -> StageSpec:
    """The description of stage ``number``."""
    try:
        return _STAGES[number]
    except KeyError:
        raise StageListError(f"stage {number} has no tensor function (see tensors/attention.py)") from None


def stage_keys() -> tuple[str, ...]:
    """The keys every configuration exports, in stage order."""
    return tuple(key for spec in stage_list().values() for key, t in spec.exports.items() if t.when is None)


def exported_keys(config) -> tuple[str, ...]:
    """The keys ``config`` exports, in stage order."""
    return tuple(key for spec in stage_list().values() for key in spec.export_keys(config))


def axis_names(variant: str = "blog") -> dict[str, tuple[str, ...]]:
    """What each axis of every stage tensor counts, e.g. ``("tokens", "features (d)")``.

    The features are told apart by their size's name: d, d_k = d+1, d_v = d+2
    (the blog's sizes, stages 6-12 in both variants). The multi-head part uses
    them too in the blog; in the paper a head has d/h features, h of them
    concatenate back to d and W_O keeps d.

    >>> axis_names("paper")["s14_multihead_queries"]
    ('heads', 'tokens', 'features (d/h)')
    """
    which = 1 if variant == "paper" else 0
    return {key: tuple(AXES[a][which] for a in tensor.axes)
            for spec in stage_list().values() for key, tensor in spec.tensors.items()}


def shape_of(key: str, config) -> tuple[int, ...]:
    """The shape of stage tensor ``key`` for ``config``, from its axes.

    >>> from tensors import AttentionConfig
    >>> shape_of("s20_multihead_flattened", AttentionConfig())
    (8, 162)
    """
    tensor = _producer(key, _STAGES).tensors[key]
    return tuple(getattr(config, AXES[a][2]) for a in tensor.axes)


def fingerprint() -> bytes:
    """What the registered stages compute, for cache keys: each stage's
    description and the source of its function's module."""
    digest = hashlib.sha256()
    sources = set()
    for spec in stage_list().values():
        digest.update(repr((spec, _name(spec.compute))).encode())  # the description, not the function's id
        source = getattr(sys.modules.get(spec.compute.__module__), "__file__", None)
        if source and Path(source).is_file():
            sources.add(source)
        else:
            digest.update(marshal.dumps(spec.compute.__code__))
    for source in sorted(sources):
        digest.update(Path(source).read_bytes())
    return digest.digest()
