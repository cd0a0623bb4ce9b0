"""A small trained model of exactly the configured shape: ``--weights trained``.

With the blog's ``torch.rand`` weights every head looks alike and the scores
span about +-95, so even the scaled softmax is nearly one-hot. This module trains
the configuration's own attention (blog or paper variant, causal or not, the
configured T, d, d_k, d_v and heads) on a synthetic task whose answers need
heads that look at different places, and hands back its leaves
(:class:`~.weights.Weights` under the export keys), so every stage and the
export show trained numbers through the unchanged computation in
``attention.py``.

The task
--------
Sequences of T random ids from the configuration's vocabulary (the
sentence's dictionary, including unused ids), drawn fresh at every step. At
every position the model answers, from the stage-21 output row of that
position, one question per head (:data:`SUBTASKS`, in the order of
:func:`subtasks_for`, at most one per head): the word before it, the word
after it, the first word, the last word, the word itself, whether its word
occurs elsewhere; with a causal mask (nothing later is visible) the word
before it, the first word, the word two places back, the word itself,
whether its word occurred earlier. Questions without an answer (nothing
before the first word) are not asked. There is no residual connection in the
blog's attention, so an answer about another position can only come through
a head that looks there.

The single head of stages 3-12 is trained along, on one question: the word
before it (read from its stage-12 context vectors). Stages 3-5 have no
weights of their own; they show X = embedding + positions of the trained
model.

The answers come from a small readout trained along but not drawn and not
exported: one linear map from the stage-21 row to the word answers, a
one-hidden-layer MLP for the yes/no answer, and a linear map from the
stage-12 row for the single head.

What it learns (measured, see README): the position questions get clean heads
(previous, next, first, last, two back); the word itself usually does *not*
get a head of its own. Without a residual the model encodes a word in *which*
position its content-dependent heads pick, and the readout decodes that, so
those heads have no clear role on a sentence. ``--weights trained`` reports
the held-out accuracy it reached (:class:`TrainingInfo`), whatever it is.

Determinism: one private ``torch.Generator`` seeded with the configuration's
seed draws the start and every batch; training runs on one thread with
``torch.use_deterministic_algorithms(True)``, so one machine gives
bit-identical weights. Trained leaves are kept on disk beside the traces
(:func:`trained`), keyed by what training depends on, the code and torch's
version.

Examples
--------
>>> from tensors import AttentionConfig
>>> [s.key for s in subtasks_for(AttentionConfig(variant="paper"))]
['previous', 'next', 'first', 'last']
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .cache import cache_folder, code_bytes, torch_version
from .config import AttentionConfig
from .weights import Weights

__all__ = ["SUBTASKS", "Subtask", "TrainedModel", "TrainingInfo", "subtasks_for", "trained", "train"]


@dataclass(frozen=True)
class Subtask:
    """One question asked at every position.

    ``key``: short id; ``words``: the question in plain words; ``role``: the
    head role (:data:`~.roles.ROLES`) that answers it directly.
    """

    key: str
    words: str
    role: str


SUBTASKS = {
    "previous": Subtask("previous", "the word before it", "previous token"),
    "next": Subtask("next", "the word after it", "next token"),
    "first": Subtask("first", "the first word", "first token"),
    "last": Subtask("last", "the last word", "last token"),
    "two back": Subtask("two back", "the word two places back", "two back"),
    "self": Subtask("self", "the word itself", "self"),
    "same": Subtask("same", "whether its word occurs elsewhere", "same word"),
    "same earlier": Subtask("same earlier", "whether its word occurred earlier", "same word"),
}
# One question per head, in this order: the position questions first (each
# needs a head of its own), then the two that need the word itself.
ORDER = {
    "none": ("previous", "next", "first", "last", "self", "same"),
    "causal": ("previous", "first", "two back", "self", "same earlier"),
}
SINGLE_HEAD_TASK = "previous"

# Training recipe. Adam at a constant rate after a short warm-up; every
# CHECK_EVERY steps the answers on a fixed validation set are checked, and
# training stops once they are STOP_AT right (or at MAX_STEPS). The reported
# accuracy is measured afterwards on HELD_OUT other sequences.
BATCH = 64
LEARNING_RATE = 1e-2
WARMUP = 50
CHECK_EVERY = 100
MAX_STEPS = 2000
STOP_AT = 0.995
VALIDATION = 512
HELD_OUT = 2048
READOUT_HIDDEN = 32


@dataclass(frozen=True)
class TrainingInfo:
    """What ``--weights trained`` did, for honest titles and captions.

    Attributes
    ----------
    task
        The task in plain words ("telling, at every word, the word before
        it, ..."), to follow "trained on".
    subtasks
        The questions asked (keys of :data:`SUBTASKS`), one per head at most.
    roles
        For each question, the head role that answers it directly.
    single_head_task
        The question the single head of stages 3-12 was trained on.
    steps
        Training steps (one batch of :data:`BATCH` sequences each).
    accuracy
        Held-out accuracy of all the multi-head model's answers (0-1).
    subtask_accuracy
        ``(question key, held-out accuracy)`` per question.
    single_head_accuracy
        Held-out accuracy of the single head's answers.
    held_out
        How many held-out sequences were measured: drawn by their own
        generator, apart from the training batches (with a tiny vocabulary
        and length some may equal a training sequence by chance).
    positions
        The positions the model was trained with: ``learned`` or ``sinusoidal``.
    """

    task: str
    subtasks: tuple[str, ...]
    roles: tuple[str, ...]
    single_head_task: str
    steps: int
    accuracy: float
    subtask_accuracy: tuple[tuple[str, float], ...]
    single_head_accuracy: float
    held_out: int
    positions: str

    def describe(self) -> str:
        """One line: ``trained on <task> for N steps, held-out accuracy 0.996 ...``."""
        return (f"trained on {self.task} for {self.steps} steps, held-out accuracy "
                f"{self.accuracy:.3f} ({self.held_out} sequences); single head (stages 10-12): "
                f"{SUBTASKS[self.single_head_task].words}, {self.single_head_accuracy:.3f}; "
                f"{self.positions} positions")

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "TrainingInfo":
        data = json.loads(text)
        data["subtasks"] = tuple(data["subtasks"])
        data["roles"] = tuple(data["roles"])
        data["subtask_accuracy"] = tuple((k, float(v)) for k, v in data["subtask_accuracy"])
        return cls(**data)


def subtasks_for(config: AttentionConfig) -> tuple[Subtask, ...]:
    """The questions of ``config``'s task: one per head, those this length can ask."""
    order = [k for k in ORDER[config.mask] if config.tokens >= 3 or k not in ("two back", "last")]
    return tuple(SUBTASKS[k] for k in order[:config.heads])


def _task_words(subtasks) -> str:
    words = [s.words for s in subtasks]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"telling, at every word, {listed}"


@dataclass(frozen=True)
class TrainedModel:
    """What :func:`train` hands back.

    ``leaves``: the attention's trained leaves under their export keys.
    ``readout``: the answers' readout, trained along, not drawn (read-only
    float32 arrays): ``words`` (n x V, d_out) and ``words_bias`` map a
    stage-21 row to the word answers, question after question in the order
    of ``info.subtasks`` without the yes/no one (logits of question q are rows
    q*V..(q+1)*V); ``hidden`` (32, d_out), ``hidden_bias``, then ReLU, then
    ``yes_no`` (2, 32) and ``yes_no_bias`` give the yes/no question's logits
    (no, yes); ``single`` (V, d_v) and ``single_bias`` map a stage-12 row to
    the single head's answer. ``info``: :class:`TrainingInfo`.
    """

    leaves: Weights
    readout: dict
    info: TrainingInfo


def _training_key(config: AttentionConfig) -> tuple:
    """What the trained leaves depend on (not the sentence's words: the task
    draws random sequences of the vocabulary's ids, of the sentence's length)."""
    return (config.tokens, config.vocab_size, config.d, config.heads, config.variant,
            config.mask, config.positions, config.seed)


def _cache_file(config: AttentionConfig) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(repr(_training_key(config)).encode() + torch_version().encode())
    digest.update(code_bytes("training.py", "config.py", "positions.py"))
    return folder / f"trained-{digest.hexdigest()[:32]}.npz"


def trained(config: AttentionConfig) -> TrainedModel:
    """The trained model of ``config`` (leaves, readout, what training did).

    Read from the on-disk cache when there (a second render does not train
    again), else trained (:func:`train`) and written there atomically.
    """
    return _trained(_training_config(config))


def _training_config(config: AttentionConfig) -> AttentionConfig:
    """The configuration reduced to what training depends on, so every
    sentence of one length and dictionary size shares one training."""
    return AttentionConfig(sentence=tuple(f"w{i % config.vocab_size}" for i in range(config.tokens)),
                           vocab_size=config.vocab_size, d=config.d, heads=config.heads,
                           seed=config.seed, variant=config.variant, mask=config.mask,
                           positions=config.positions)


_READOUT = "readout."  # prefix of the readout's arrays in a cache file


@lru_cache(maxsize=4)
def _trained(config: AttentionConfig) -> TrainedModel:
    cache = _cache_file(config)
    if cache is not None and cache.is_file():
        try:
            with np.load(cache, allow_pickle=False) as data:
                info = TrainingInfo.from_json(str(data["training_info"]))
                leaves = Weights({k: data[k] for k in data.files
                                  if k != "training_info" and not k.startswith(_READOUT)})
                readout = {k[len(_READOUT):]: data[k] for k in data.files if k.startswith(_READOUT)}
                return TrainedModel(leaves, _read_only(readout), info)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable: train again
    model = train(config)
    if cache is not None:
        partial = cache.with_name(f".{cache.name}.{os.getpid()}")
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            readout = {_READOUT + k: v for k, v in model.readout.items()}
            with open(partial, "wb") as handle:
                np.savez(handle, training_info=np.array(model.info.to_json()), **dict(model.leaves.items()),
                         **readout)
            os.replace(partial, cache)
        except OSError:
            pass  # a cache that cannot be written only costs time
        finally:
            partial.unlink(missing_ok=True)  # written and renamed, or never complete
    return model


def _read_only(arrays: dict) -> dict:
    for array in arrays.values():
        array.setflags(write=False)
    return arrays


def train(config: AttentionConfig) -> TrainedModel:
    """Train ``config``'s attention on its task; deterministic for its seed.

    The leaves come under their export keys (``s02_embedding_table``,
    ``s02_positions`` when learned, ``s06_U_*``, ``s13_multihead_U_*``,
    ``s21_linear_weight``, ``s21_linear_bias``); see :class:`TrainedModel`.
    """
    import torch

    threads = torch.get_num_threads()
    deterministic = torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    try:
        return _train(config)
    finally:
        torch.use_deterministic_algorithms(deterministic)
        torch.set_num_threads(threads)


def _xavier(generator, *shape, fan_in: int, fan_out: int):
    import torch

    limit = math.sqrt(6.0 / (fan_in + fan_out))
    return ((torch.rand(*shape, generator=generator) * 2 - 1) * limit).requires_grad_()


def _train(config: AttentionConfig) -> TrainedModel:
    import torch
    import torch.nn.functional as F

    from .positions import sinusoidal

    T, V, d, h = config.tokens, config.vocab_size, config.d, config.heads
    d_k, d_v, head_k, head_v, d_out = config.d_k, config.d_v, config.head_k, config.head_v, config.d_out
    causal = config.mask == "causal"
    subtasks = subtasks_for(config)
    words = [s for s in subtasks if not s.key.startswith("same")]
    yes_no = [s for s in subtasks if s.key.startswith("same")]

    g = torch.Generator().manual_seed(config.seed)
    # the paper's W_Q (W_K, W_V) is one d x d matrix cut into the heads' rows
    fan_k, fan_v = (head_k, head_v) if config.variant == "blog" else (d, d)
    p = {
        "s02_embedding_table": torch.randn(V, d, generator=g).requires_grad_(),
        "s06_U_query": _xavier(g, d_k, d, fan_in=d, fan_out=d_k),
        "s06_U_key": _xavier(g, d_k, d, fan_in=d, fan_out=d_k),
        "s06_U_value": _xavier(g, d_v, d, fan_in=d, fan_out=d_v),
        "s13_multihead_U_query": _xavier(g, h, head_k, d, fan_in=d, fan_out=fan_k),
        "s13_multihead_U_key": _xavier(g, h, head_k, d, fan_in=d, fan_out=fan_k),
        "s13_multihead_U_value": _xavier(g, h, head_v, d, fan_in=d, fan_out=fan_v),
        "s21_linear_weight": _xavier(g, d_out, h * head_v, fan_in=h * head_v, fan_out=d_out),
        "s21_linear_bias": torch.zeros(d_out, requires_grad=True),
    }
    if config.positions == "learned":
        p["s02_positions"] = torch.randn(T, d, generator=g).requires_grad_()
    fixed_positions = (torch.from_numpy(sinusoidal(T, d)) if config.positions == "sinusoidal"
                       else torch.zeros(T, d))
    readout = {
        "words": _xavier(g, len(words) * V, d_out, fan_in=d_out, fan_out=V),
        "words_bias": torch.zeros(len(words) * V, requires_grad=True),
        "hidden": _xavier(g, READOUT_HIDDEN, d_out, fan_in=d_out, fan_out=READOUT_HIDDEN),
        "hidden_bias": torch.zeros(READOUT_HIDDEN, requires_grad=True),
        "yes_no": _xavier(g, 2, READOUT_HIDDEN, fan_in=READOUT_HIDDEN, fan_out=2),
        "yes_no_bias": torch.zeros(2, requires_grad=True),
        "single": _xavier(g, V, d_v, fan_in=d_v, fan_out=V),
        "single_bias": torch.zeros(V, requires_grad=True),
    }
    later = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)

    def attend(q, k, v, size):
        scores = q.matmul(k.transpose(-1, -2)) / size**0.5
        if causal:
            scores = scores.masked_fill(later, float("-inf"))
        # softmax written out: for rows of a few tokens it is twice as fast as
        # F.softmax on CPU, forward and backward (the trace uses F.softmax)
        exp = (scores - scores.amax(dim=-1, keepdim=True).detach()).exp()
        return (exp / exp.sum(dim=-1, keepdim=True)).matmul(v)

    def forward(ids):
        """The trace's computation for a batch (B, T), then the readout."""
        x = p["s02_embedding_table"][ids] + p.get("s02_positions", fixed_positions)
        single = attend(x.matmul(p["s06_U_query"].T), x.matmul(p["s06_U_key"].T),
                        x.matmul(p["s06_U_value"].T), d_k)
        B = ids.shape[0]

        def per_head(u, size):  # every head's projection of X in one matmul: (B, h, T, size)
            return x.matmul(u.reshape(h * size, d).T).reshape(B, T, h, size).transpose(1, 2)

        heads = attend(per_head(p["s13_multihead_U_query"], head_k), per_head(p["s13_multihead_U_key"], head_k),
                       per_head(p["s13_multihead_U_value"], head_v), head_k)
        flattened = heads.transpose(1, 2).reshape(B, T, h * head_v)
        output = flattened.matmul(p["s21_linear_weight"].T) + p["s21_linear_bias"]
        word_logits = (output.matmul(readout["words"].T) + readout["words_bias"]).reshape(
            ids.shape[0], T, len(words), V)
        hidden = F.relu(output.matmul(readout["hidden"].T) + readout["hidden_bias"])
        yes_no_logits = hidden.matmul(readout["yes_no"].T) + readout["yes_no_bias"]
        single_logits = single.matmul(readout["single"].T) + readout["single_bias"]
        return word_logits, yes_no_logits, single_logits

    def answers(ids):
        word_targets = torch.stack([_answers(s.key, ids, causal) for s in words], dim=-1) \
            if words else torch.zeros(*ids.shape, 0, dtype=torch.long)
        same = _answers(yes_no[0].key, ids, causal) if yes_no else None
        return word_targets, same, _answers(SINGLE_HEAD_TASK, ids, causal)

    def loss_of(ids):
        word_logits, yes_no_logits, single_logits = forward(ids)
        word_targets, same, single_targets = answers(ids)
        loss = F.cross_entropy(single_logits.reshape(-1, V), single_targets.reshape(-1), ignore_index=-1)
        if words:
            loss = loss + len(words) * F.cross_entropy(word_logits.reshape(-1, V), word_targets.reshape(-1),
                                                       ignore_index=-1)
        if yes_no:
            loss = loss + F.cross_entropy(yes_no_logits.reshape(-1, 2), same.reshape(-1))
        return loss

    def accuracy(ids) -> tuple[float, dict[str, float], float]:
        with torch.no_grad():
            word_logits, yes_no_logits, single_logits = forward(ids)
        word_targets, same, single_targets = answers(ids)
        right = total = 0
        per: dict[str, float] = {}
        for i, s in enumerate(words):
            asked = word_targets[..., i] >= 0
            ok = (word_logits[..., i, :].argmax(-1) == word_targets[..., i]) & asked
            per[s.key] = ok.sum().item() / asked.sum().item()
            right, total = right + ok.sum().item(), total + asked.sum().item()
        if yes_no:
            ok = yes_no_logits.argmax(-1) == same
            per[yes_no[0].key] = ok.float().mean().item()
            right, total = right + ok.sum().item(), total + ok.numel()
        asked = single_targets >= 0
        single = ((single_logits.argmax(-1) == single_targets) & asked).sum().item() / asked.sum().item()
        return (right / total if total else 1.0), per, single

    checks = torch.Generator().manual_seed(config.seed + 1)
    validation = torch.randint(0, V, (VALIDATION, T), generator=checks)
    held_out = torch.randint(0, V, (HELD_OUT, T), generator=checks)

    optimizer = torch.optim.Adam([*p.values(), *readout.values()], lr=LEARNING_RATE, foreach=True)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / WARMUP))
    steps = 0
    while steps < MAX_STEPS:
        batch = torch.randint(0, V, (BATCH, T), generator=g)
        optimizer.zero_grad()
        loss_of(batch).backward()
        optimizer.step()
        warmup.step()
        steps += 1
        if steps % CHECK_EVERY == 0:
            acc, _, single = accuracy(validation)
            if min(acc, single) >= STOP_AT:
                break

    acc, per, single = accuracy(held_out)
    info = TrainingInfo(
        task=_task_words(subtasks), subtasks=tuple(s.key for s in subtasks),
        roles=tuple(s.role for s in subtasks), single_head_task=SINGLE_HEAD_TASK, steps=steps,
        accuracy=float(acc), subtask_accuracy=tuple((k, float(v)) for k, v in per.items()),
        single_head_accuracy=float(single), held_out=HELD_OUT, positions=config.positions)
    leaves = Weights({k: v.detach().numpy() for k, v in p.items()})
    return TrainedModel(leaves, _read_only({k: v.detach().numpy().copy() for k, v in readout.items()}), info)


def _answers(key: str, ids, causal: bool):
    """The answer of question ``key`` at every position of ``ids`` (B, T):
    a word id, 0/1 for the yes/no questions, -1 where nothing is asked."""
    import torch

    B, T = ids.shape
    answer = torch.full((B, T), -1, dtype=torch.long)
    if key == "previous":
        answer[:, 1:] = ids[:, :-1]
    elif key == "two back":
        answer[:, 2:] = ids[:, :-2]
    elif key == "next":
        answer[:, :-1] = ids[:, 1:]
    elif key == "first":
        answer[:] = ids[:, :1]
    elif key == "last":
        answer[:] = ids[:, -1:]
    elif key == "self":
        answer[:] = ids
    else:  # same / same earlier: another position, visible to this one, holds the same id
        same = (ids[:, :, None] == ids[:, None, :]) & ~torch.eye(T, dtype=torch.bool)
        if causal or key == "same earlier":
            same &= torch.tril(torch.ones(T, T, dtype=torch.bool))
        answer[:] = same.any(-1).long()
    return answer
