"""Scored resampling at count speed (issue 40, part 4): the count bootstrap of scored predictions against a loop of
scikit-learn's roc_auc_score over index resamples, and compare --test delong against scikit-learn's point AUCs.

    python benchmarks/scored_resampling.py            # 10^5 rows (bootstrap), 10^6 instances (DeLong)
    python benchmarks/scored_resampling.py --quick    # 10^4 and 10^5: a check that everything runs

Prints Markdown tables and writes the same text to ``benchmarks/scored_resampling.md``.

Data (seeded): gold 0/1 (50% positive), scores ``clip(0.6 u + 0.3 y, 0, 1)`` with u uniform: every score distinct,
so every instance is its own distinct row (the bootstrap's worst case: nothing compresses).

1. Bootstrap, 2,000 resamples on 10⁵ distinct binary rows, in this process (imports done), round-robin repeats,
   median: ``clfeval.score(y, scores=s, ci="bootstrap", resamples=2000)`` (every score: AUC, AP, log loss, Brier, ECE,
   MCE, debiased ECE, each with its interval); the AUC alone through the same path
   (``scored_intervals(counts, ScoredMeasures(..., wanted={"auc"}), CI("bootstrap"))``); the per-resample path this
   replaced (``measures_of`` of each resample's counts, one Python call per resample; timed on 40 resamples and scaled);
   scikit-learn's ``roc_auc_score(y[i], s[i])`` over index resamples ``i`` (timed on 40, scaled). Per-resample times
   and ratios over the scikit-learn loop (issue 40's target: under 10 s for the 2,000; at least 20× faster per resample
   than the loop).
2. ``compare --test delong`` of two systems at 10⁶: ``clfeval.compare(y, scores={"A": a, "B": b}, test="delong")``
   against scikit-learn's ``roc_auc_score`` of each system (target: within 1.5×); and the command line
   ``clfeval compare FILE --gold-col gold --scores A=a --scores B=b --test delong --format json`` (a child process,
   the CSV read included) against a child that reads the same file with polars and runs ``roc_auc_score`` of each.

Checks (before the timings): the AUC interval of clfeval's bootstrap equals the percentile interval of its own draws
recomputed resample by resample with ``measures_of`` (same seed, same draws) to 1e-12; the AUCs and DeLong's paired
test equal scikit-learn's AUCs to 1e-12.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from common import DATA, PYTHON, log, md_table, start, write_report
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval import CI
from clfeval.count.scored import ScoreCounts
from clfeval.infer.scored import resampled_counts, scored_intervals
from clfeval.scoring.batched import ScoredMeasures
from clfeval.scoring.scored import Conventions, measures_of

RESULTS = Path(__file__).resolve().parent / "scored_resampling.md"
SEED = 20261128
RESAMPLES = 2000
LOOPED = 40  # resamples timed for the per-resample paths (scaled to RESAMPLES)


def make(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.clip(rng.random(n) * 0.6 + y * 0.3, 0, 1)
    b = np.clip(rng.random(n) * 0.7 + y * 0.25, 0, 1)
    return y, a, b


def timed(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Each contender's median wall time over ``repeats`` round-robin runs."""
    times: dict[str, list[float]] = {k: [] for k in contenders}
    for _ in range(repeats):
        for name, run in contenders.items():
            t = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


def bootstrap_section(n: int, repeats: int, checks: list[str]) -> list[str]:
    y, s, _ = make(n)
    counts = ScoreCounts.of_arrays(y, s)
    auc_only = ScoredMeasures(Conventions(), True, frozenset({"auc"}))
    every = ScoredMeasures(Conventions(), True)

    # check: the batched bootstrap's AUC interval is the percentile interval of the same draws scored one by one
    out, _ = scored_intervals(counts, auc_only, CI("bootstrap", resamples=200, seed=1))
    rng = np.random.default_rng(1)
    draws = resampled_counts(rng, counts.count, 200)
    one_by_one = np.array([measures_of(counts.with_counts(d), Conventions(), True, {"auc"})["auc"] for d in draws])
    low, high = np.quantile(one_by_one, [0.025, 0.975])
    assert abs(low - out["auc"][0]) < 1e-12 and abs(high - out["auc"][1]) < 1e-12, (out["auc"], low, high)
    checks.append(f"bootstrap at {n:,} rows: the batched AUC interval of 200 resamples equals the one of the same draws "
                  "scored one by one to 1e-12")

    looped_draws = resampled_counts(np.random.default_rng(2), counts.count, LOOPED)
    index_rng = np.random.default_rng(3)

    def per_resample_path() -> None:  # the path this replaced: every score of each resample's counts, one call each
        for d in looped_draws:
            every(counts.with_counts(d))

    def sklearn_loop() -> None:
        for _ in range(LOOPED):
            i = index_rng.integers(0, n, n)
            roc_auc_score(y[i], s[i])

    contenders: dict[str, Callable[[], object]] = {
        "clfeval.score(ci='bootstrap'), every score": lambda: clfeval.score(
            y, scores=s, ci="bootstrap", resamples=RESAMPLES, seed=1
        ),
        "clfeval bootstrap, AUC alone": lambda: scored_intervals(
            counts, auc_only, CI("bootstrap", resamples=RESAMPLES, seed=1)
        ),
        f"per-resample measures_of, every score ({LOOPED}, scaled)": per_resample_path,
        f"sklearn roc_auc_score over index resamples ({LOOPED}, scaled)": sklearn_loop,
    }
    found = timed(contenders, repeats)
    names = list(contenders)
    per = {k: v / (RESAMPLES if i < 2 else LOOPED) for i, (k, v) in enumerate(found.items())}
    sklearn = per[names[3]]
    body = [
        [k, f"{per[k] * RESAMPLES:.2f} s", f"{per[k] * 1e3:.2f} ms", f"{sklearn / per[k]:.1f}×"] for k in names
    ]
    table = md_table(["contender", f"{RESAMPLES:,} resamples", "per resample", "faster than sklearn"], body, {1, 2, 3})
    return [f"## Bootstrap: {RESAMPLES:,} resamples on {n:,} distinct binary rows", "", *table]


def delong_section(n: int, repeats: int, checks: list[str]) -> list[str]:
    y, a, b = make(n)
    r = clfeval.compare(y, scores={"A": a, "B": b}, test="delong")
    pair = r.pair("A", "B", "auc")
    assert abs(pair.score_a - roc_auc_score(y, a)) < 1e-12 and abs(pair.score_b - roc_auc_score(y, b)) < 1e-12
    checks.append(f"compare --test delong at {n:,}: each AUC equals scikit-learn's to 1e-12")
    found = timed(
        {
            "clfeval.compare(y, scores={A, B}, test='delong')": lambda: clfeval.compare(
                y, scores={"A": a, "B": b}, test="delong"
            ),
            "sklearn roc_auc_score(y, a), (y, b)": lambda: (roc_auc_score(y, a), roc_auc_score(y, b)),
        },
        repeats,
    )
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"scored_resampling_{n}.csv"
    if not path.exists():
        import polars as pl

        pl.DataFrame({"gold": y, "a": a, "b": b}).write_csv(path)
    cli = [PYTHON, "-m", "clfeval", "compare", str(path), "--gold-col", "gold", "--scores", "A=a", "--scores",
           "B=b", "--test", "delong", "--format", "json"]  # fmt: skip
    reference = [PYTHON, "-c", "import polars as pl, sys; from sklearn.metrics import roc_auc_score as f; "
                 f"d = pl.read_csv({str(path)!r}); y = d['gold'].to_numpy(); "
                 "print(f(y, d['a'].to_numpy()), f(y, d['b'].to_numpy()))"]  # fmt: skip
    children = timed(
        {
            "clfeval compare FILE --test delong (child)": lambda: subprocess.run(cli, check=True, capture_output=True),
            "polars.read_csv + roc_auc_score ×2 (child)": lambda: subprocess.run(
                reference, check=True, capture_output=True
            ),
        },
        repeats,
    )
    rows = list(found.items()) + list(children.items())
    floor = {0: rows[1][1], 1: rows[1][1], 2: rows[3][1], 3: rows[3][1]}
    body = [[k, f"{v:.3f} s", f"{v / floor[i]:.2f}×"] for i, (k, v) in enumerate(rows)]
    table = md_table(["contender", "median", "over its scikit-learn row"], body, {1, 2})
    return [f"## compare --test delong, two systems, {n:,} instances", "", *table]


def main() -> None:
    session = start(__doc__ or "", RESULTS)
    quick = session.args.quick
    checks: list[str] = []
    sections: list[str] = []
    log("bootstrap …")
    sections += bootstrap_section(10_000 if quick else 100_000, 1 if quick else 3, checks)
    log("DeLong …")
    sections += delong_section(100_000 if quick else 1_000_000, 1 if quick else 5, checks)
    data = ("Data: gold 0/1 (50% positive), scores clip(0.6·u + 0.3·y) and clip(0.7·u + 0.25·y), u uniform (seed "
            f"{SEED}): every score distinct. Medians of round-robin repeats.")  # fmt: skip
    write_report(session, "Scored resampling and DeLong's compare (issue 40)", "scored_resampling.py",
                 ["numpy", "scikit-learn", "polars"], data, sections, checks)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
