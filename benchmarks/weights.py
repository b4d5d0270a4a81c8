"""Sample weights on single labels: clfeval.score against scikit-learn, at 10^5 and 10^6 instances, as ratios.

    python benchmarks/weights.py            # N = 10^5 and 10^6, class weights and continuous weights
    python benchmarks/weights.py --quick    # N = 10^4 and 10^5: a check that everything runs

Prints a Markdown table and writes the same text to ``benchmarks/weights.md``.

Data: seeded int64 class ids over 10 labels, the prediction the gold label with probability 0.7, else a fresh draw;
weights either *class weights* (scikit-learn's ``compute_sample_weight("balanced", gold)``: 10 distinct values,
so few distinct (gold, predicted, weight) rows) or *continuous* (uniform on [0, 1): a row per instance).

What is measured, in this one process (imports done, one warm-up call first): the wall time of

- clfeval: ``clfeval.score(gold, pred, sample_weight=w)`` (every measure, average and the weighted matrix);
- scikit-learn: ``precision_recall_fscore_support(gold, pred, sample_weight=w)`` and
  ``accuracy_score(gold, pred, sample_weight=w)``, one after the other;

the median of 5 calls, and the ratio clfeval / scikit-learn. Peak memory: the peak of numpy's and Python's
allocations during one more call (``tracemalloc``; numpy reports its buffers to it), above what was allocated
before.

Checks (before the timings): clfeval's per-label precision, recall, F1 and support and its accuracy equal
scikit-learn's (relative 1e-9).
"""

from __future__ import annotations

import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from common import log, md_table, ratio_text, start, write_report
from sklearn.metrics import accuracy_score, precision_recall_fscore_support
from sklearn.utils.class_weight import compute_sample_weight

import clfeval

RESULTS = Path(__file__).resolve().parent / "weights.md"
K = 10
CALLS = 5


def data(n: int, kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gold = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    w = compute_sample_weight("balanced", gold) if kind == "class" else rng.random(n)
    return gold, pred, w


def timed(call: Callable[[], Any]) -> float:
    """The median wall time of ``call`` over :data:`CALLS` calls after one warm-up, in seconds."""
    call()
    times = []
    for _ in range(CALLS):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak(call: Callable[[], Any]) -> float:
    """The peak of the allocations traced during one call, above those before it, in MiB."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    call()
    top = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return (top - base) / 2**20


def check(gold: np.ndarray, pred: np.ndarray, w: np.ndarray) -> None:
    r = clfeval.score(gold, pred, sample_weight=w)
    p, rc, f, support = precision_recall_fscore_support(gold, pred, sample_weight=w, zero_division=0)
    for i in range(K):
        row = r.per_label[str(i)]
        got, expected = (row.precision, row.recall, row.f, row.support), (p[i], rc[i], f[i], support[i])
        assert np.allclose(got, expected, rtol=1e-9, atol=0), (i, got, expected)
    assert np.isclose(r["accuracy"], accuracy_score(gold, pred, sample_weight=w), rtol=1e-9, atol=0)


def main() -> None:
    session = start(__doc__, RESULTS)
    sizes = [10**4, 10**5] if session.args.quick else [10**5, 10**6]
    rng = np.random.default_rng(20261128)
    body: list[list[str]] = []
    checks: list[str] = []
    for n in sizes:
        for kind in ("class", "continuous"):
            gold, pred, w = data(n, kind, rng)
            check(gold, pred, w)
            rows = clfeval.score(gold, pred, sample_weight=w).counts.counts.size
            log(f"N = {n:,}, {kind} weights ({rows:,} distinct rows)")

            def ours(gold: np.ndarray = gold, pred: np.ndarray = pred, w: np.ndarray = w) -> Any:
                return clfeval.score(gold, pred, sample_weight=w)

            def theirs(gold: np.ndarray = gold, pred: np.ndarray = pred, w: np.ndarray = w) -> Any:
                return (
                    precision_recall_fscore_support(gold, pred, sample_weight=w, zero_division=0),
                    accuracy_score(gold, pred, sample_weight=w),
                )

            a, b = timed(ours), timed(theirs)
            body.append([f"{n:,}", kind, f"{rows:,}", f"{a:.3f}", f"{b:.3f}", ratio_text(a / b),
                         f"{peak(ours):.0f}", f"{peak(theirs):.0f}"])  # fmt: skip
            checks.append(f"N = {n:,}, {kind} weights: per-label precision, recall, F1, support and accuracy equal "
                          "scikit-learn's (relative 1e-9)")  # fmt: skip
    head = ["N", "weights", "distinct rows", "clfeval s", "scikit-learn s", "clfeval / sklearn", "clfeval peak MiB",
            "sklearn peak MiB"]  # fmt: skip
    sections = ["### clfeval.score against precision_recall_fscore_support + accuracy_score, with sample_weight", "",
                *md_table(head, body, {0, 2, 3, 4, 5, 6, 7}),
                f"Median wall time of {CALLS} calls after a warm-up, in one process (imports done); peak: the traced "
                "allocations of one more call (tracemalloc), above those before it.", ""]  # fmt: skip
    write_report(session, "Sample weights: clfeval.score against scikit-learn", "weights.py",
                 ["numpy", "scikit-learn"],
                 f"Data: seeded int64 class ids over {K} labels (70% right); class weights are "
                 "compute_sample_weight('balanced', gold), continuous weights uniform on [0, 1).", sections, checks)


if __name__ == "__main__":
    main()
