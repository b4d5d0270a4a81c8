"""clfeval.score on multi-label 0/1 indicator matrices against scikit-learn's multi-label metrics, in one process.

    python benchmarks/indicators.py            # n = 10^5 and 10^6, L = 20 (about 2 minutes)
    python benchmarks/indicators.py --quick    # n = 10^4 and 10^5: a check

Writes ``benchmarks/indicators.md``. Per data set, median wall time of 3 calls (after one untimed warm-up call on
the first 1,000 rows), in this process (imports done):

- ``clfeval.score(gold, pred)``: every multi-label score (per label, micro, macro, weighted, samples, hamming loss,
  subset accuracy, the split-count matrix …) of two (n, 20) int8 indicator matrices;
- scikit-learn: ``f1_score`` with ``average="micro"``, ``"macro"`` and ``"samples"`` and ``hamming_loss`` on the
  same matrices, the four calls together (``zero_division=0``).

Data (seeded): *random* — each gold cell 1 with probability 0.15 and each predicted cell the gold cell flipped with
probability 0.1, so nearly every instance is a distinct (gold, predicted) pair; *realistic* — gold label sets drawn
from 300 sets (1 to 4 labels each, Zipf-like frequencies p_i ∝ 1/(i+1)), the prediction the gold set on 70% of the
instances, else one of the 300 sets drawn alike: at most 9·10⁴ distinct pairs whatever n, a few thousand in
practice. clfeval counts the distinct (gold, predicted) rows (packed into bits, made distinct with one sort) and
scores those, so its time follows the distinct pairs; scikit-learn's follows n × L.

Checks (outside the timings): clfeval's micro, macro and samples F1 and hamming loss equal scikit-learn's within
1e-12 on every data set.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from common import log, md_table, ratio_text, start, write_report
from sklearn.metrics import f1_score, hamming_loss

import clfeval

RESULTS = Path(__file__).resolve().parent / "indicators.md"
L = 20
SETS = 300


def random_data(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    gold = (rng.random((n, L)) < 0.15).astype(np.int8)
    return gold, np.where(rng.random((n, L)) < 0.9, gold, 1 - gold).astype(np.int8)


def realistic_data(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    pool = np.zeros((SETS, L), dtype=np.int8)
    for row in pool:
        row[rng.choice(L, rng.integers(1, 5), replace=False)] = 1
    p = 1 / np.arange(1, SETS + 1)
    p /= p.sum()
    gold_set = rng.choice(SETS, n, p=p)
    pred_set = np.where(rng.random(n) < 0.7, gold_set, rng.choice(SETS, n, p=p))
    return pool[gold_set], pool[pred_set]


def median_time(call: Callable[[], object], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        call()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def sklearn_scores(gold: np.ndarray, pred: np.ndarray) -> dict[str, float]:
    out = {f"{a}.f1": f1_score(gold, pred, average=a, zero_division=0) for a in ("micro", "macro", "samples")}
    out["hamming_loss"] = hamming_loss(gold, pred)
    return out


def main() -> None:
    session = start(__doc__, RESULTS)
    sizes = [10**4, 10**5] if session.args.quick else [10**5, 10**6]
    rng = np.random.default_rng(20261128)
    checks: list[str] = []
    body = []
    for name, make in (("random", random_data), ("realistic", realistic_data)):
        for n in sizes:
            log(f"{name}, n = {n:,}")
            gold, pred = make(n, rng)
            pairs = len(np.unique(np.concatenate([np.packbits(gold, axis=1), np.packbits(pred, axis=1)], axis=1), axis=0))
            clfeval.score(gold[:1000], pred[:1000])
            ours = median_time(lambda: clfeval.score(gold, pred))
            theirs = median_time(lambda: sklearn_scores(gold, pred))
            r = clfeval.score(gold, pred)
            for key, value in sklearn_scores(gold, pred).items():
                assert abs(r[key] - value) <= 1e-12, (name, n, key, r[key], value)
            checks.append(f"{name}, n = {n:,}: micro, macro and samples F1 and hamming loss equal scikit-learn's")
            body.append([name, f"{n:,}", f"{pairs:,}", f"{ours:.3f}", f"{theirs:.3f}", ratio_text(ours / theirs)])
    head = ["data", "n", "distinct pairs", "clfeval.score s", "scikit-learn (4 calls) s", "clfeval / scikit-learn"]
    sections = [
        f"### Multi-label indicator matrices, L = {L}",
        "",
        *md_table(head, body, {1, 2, 3, 4, 5}),
        "Median wall time of 3 calls in one process. clfeval computes every multi-label score in one call; "
        "scikit-learn's column is four calls (micro, macro and samples F1, hamming loss).",
        "",
    ]
    write_report(session, "clfeval.score on 0/1 indicator matrices against scikit-learn", "indicators.py",
                 ["numpy", "scikit-learn"], f"Data: seeded, L = {L} labels; see the script's docstring.", sections,
                 checks)  # fmt: skip


if __name__ == "__main__":
    main()
