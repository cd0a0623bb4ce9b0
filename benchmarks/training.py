"""Training benchmark: how long ``--weights trained`` takes and what it reaches.

For each configuration, trains from scratch a few times (no cache) and prints
a Markdown table: median wall seconds and CPU seconds of one training, the
steps it took, the held-out accuracy of the multi-head model's answers and
of the single head's, and what the trained heads show on the configuration's
sentence: how many different roles, and how much more the heads' rows differ
than the blog's random heads' (mean pairwise Jensen-Shannon divergence,
trained / random).

    .venv/bin/python benchmarks/training.py            # 3 runs each
    .venv/bin/python benchmarks/training.py --runs 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["ATTENTION_CUBES_TRACE_CACHE"] = "off"  # train every time; leave the user's cache alone

from tensors import AttentionConfig, compute_trace
from tensors.training import train

SIXTEEN = tuple("the quick brown fox jumps over a lazy dog while seven tired owls sing loud songs".split())
CONFIGURATIONS = {
    "blog default (8 words, d=16, 9 heads)": AttentionConfig(weights="trained"),
    "blog, 16 words, d=20, 8 heads": AttentionConfig(weights="trained", sentence=SIXTEEN, d=20, heads=8),
    "paper default (d=16, 4 heads of 4)": AttentionConfig(weights="trained", variant="paper"),
    "blog default, causal": AttentionConfig(weights="trained", mask="causal"),
}


def mean_pairwise_js(weights: np.ndarray) -> float:
    """Mean over head pairs and rows of the Jensen-Shannon divergence (nats)."""
    A = np.asarray(weights, dtype=np.float64)

    def kl(p, q):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(p > 0, p * np.log(p / q), 0.0).sum(axis=-1)

    pairs = [(0.5 * kl(A[a], (A[a] + A[b]) / 2) + 0.5 * kl(A[b], (A[a] + A[b]) / 2)).mean()
             for a in range(len(A)) for b in range(a + 1, len(A))]
    return float(np.mean(pairs)) if pairs else 0.0


def measure(config: AttentionConfig, runs: int) -> dict:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        model = train(config)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    trace = compute_trace(config)
    untrained = compute_trace(AttentionConfig(sentence=config.sentence, d=config.d, heads=config.heads,
                                              variant=config.variant, mask=config.mask))
    key = "s18_multihead_attention_weights"
    roles = trace.roles()
    return {
        "wall": statistics.median(walls), "cpu": statistics.median(cpus), "info": model.info,
        "roles": roles, "named": sorted({r.role for r in roles} - {None}),
        "ratio": mean_pairwise_js(trace[key]) / mean_pairwise_js(untrained[key]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for name, config in CONFIGURATIONS.items():
        result = measure(config, args.runs)
        rows.append((name, result))
        info = result["info"]
        print(f"{name}: {result['wall']:.2f} s, {info.steps} steps, accuracy {info.accuracy:.4f}",
              file=sys.stderr)
        for role in result["roles"]:
            print(f"    {role.text()}", file=sys.stderr)
    print(f"\nMedian of {args.runs} trainings each, torch on 1 thread:\n")
    print("| configuration | wall s | CPU s | steps | held-out accuracy | single head | roles shown "
          "| JS trained / random |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for name, r in rows:
        info = r["info"]
        print(f"| {name} | {r['wall']:.2f} | {r['cpu']:.2f} | {info.steps} | {info.accuracy:.4f} | "
              f"{info.single_head_accuracy:.4f} | {len(r['named'])}: {', '.join(r['named'])} | {r['ratio']:.2f} |")


if __name__ == "__main__":
    main()
