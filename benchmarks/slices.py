"""Scores by group with bootstrap intervals: clfeval.score(..., groups=g, ci="bootstrap") against fairlearn's
MetricFrame(n_boot=...), which refits every metric on every resample.

    python benchmarks/slices.py            # 10 groups, 10^6 instances (fairlearn timed at a few resamples) and
                                           # 10^5 instances at equal resamples, measured in full; a few minutes
    python benchmarks/slices.py --quick    # 10^4 and 10^5 instances: a check that everything runs

Prints a Markdown table and writes the same text to ``benchmarks/slices.md``.

Data: seeded int64 class ids over 5 classes (the prediction the gold class with probability 0.7, else a fresh draw)
and a group column of 10 groups (``grp0`` … ``grp9``, drawn with probabilities ∝ 1 … 10, so the smallest group holds
about 1.8% of the instances).

What is measured, in this one process (imports done, one warm-up call first), with the same metrics on both sides
(accuracy and macro F1) and R resamples:

- clfeval: ``clfeval.score(gold, pred, groups=g, ci="bootstrap", resamples=R, seed=1, test="none",
  metrics=["accuracy", "macro.f1"])``: every group's scores with their percentile intervals (every measure and
  average of the kind, not only the two), the overall's, and every gap between groups with its group-stratified
  interval; the median of 3 calls;
- fairlearn: ``MetricFrame(metrics={"accuracy": accuracy_score, "macro_f1": partial(f1_score, average="macro")},
  y_true=gold, y_pred=pred, sensitive_features=g, n_boot=R, ci_quantiles=[0.025, 0.975], random_state=1)``: the
  two metrics by group and overall, each refitted by scikit-learn on each of the R resamples of the whole data;
  one call.

Where MetricFrame at R resamples would take hours (10^6 instances), it is timed without resamples (t₀) and with a
few (k: t_k), its time per resample is (t_k − t₀) / k, and its time at R is **extrapolated** as t₀ + R (t_k − t₀)/k
(marked so in the table). At 10^5 instances both sides are run at the same R in full.

Checks (before the timings): the two metrics by group and overall equal MetricFrame's ``by_group`` and ``overall``
(1e-12).
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from common import log, md_table, ratio_text, start, write_report
from fairlearn.metrics import MetricFrame
from sklearn.metrics import accuracy_score, f1_score

import clfeval

RESULTS = Path(__file__).resolve().parent / "slices.md"
K = 5
GROUPS = 10
CALLS = 3
METRICS = {"accuracy": accuracy_score, "macro_f1": functools.partial(f1_score, average="macro")}
NAMES = {"accuracy": "accuracy", "macro_f1": "macro.f1"}


def data(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    gold = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    share = np.arange(1, GROUPS + 1) / np.arange(1, GROUPS + 1).sum()
    groups = np.array([f"grp{i}" for i in range(GROUPS)])[rng.choice(GROUPS, n, p=share)]
    return gold, pred, groups


def ours(gold: np.ndarray, pred: np.ndarray, groups: np.ndarray, resamples: int) -> Any:
    return clfeval.score(gold, pred, groups=groups, ci="bootstrap", resamples=resamples, seed=1, test="none",
                         metrics=["accuracy", "macro.f1"])  # fmt: skip


def theirs(gold: np.ndarray, pred: np.ndarray, groups: np.ndarray, resamples: int) -> MetricFrame:
    if resamples == 0:
        return MetricFrame(metrics=METRICS, y_true=gold, y_pred=pred, sensitive_features=groups)
    return MetricFrame(metrics=METRICS, y_true=gold, y_pred=pred, sensitive_features=groups, n_boot=resamples,
                       ci_quantiles=[0.025, 0.975], random_state=1)  # fmt: skip


def once(call: Callable[[], Any]) -> float:
    t = time.perf_counter()
    call()
    return time.perf_counter() - t


def median_time(call: Callable[[], Any]) -> float:
    call()
    return statistics.median(once(call) for _ in range(CALLS))


def check(r: Any, frame: MetricFrame) -> int:
    """clfeval's values by group and overall against MetricFrame's (1e-12); the number of values compared."""
    compared = 0
    for theirs_name, our_name in NAMES.items():
        for group in r.names:
            got, expected = r.value(group, our_name), float(frame.by_group.loc[group, theirs_name])
            assert abs(got - expected) <= 1e-12, (group, our_name, got, expected)
            compared += 1
        got, expected = float(r.overall[our_name]), float(frame.overall[theirs_name])
        assert abs(got - expected) <= 1e-12, ("overall", our_name, got, expected)
        compared += 1
    return compared


def main() -> None:
    def extra(parser: Any) -> None:
        parser.add_argument("--resamples", type=int, default=1000, help="R (default 1000)")
        parser.add_argument("--few", type=int, default=2, help="MetricFrame's resamples at the largest N (default 2)")
        parser.add_argument("--equal", type=int, default=50, help="R of the run at equal resamples (default 50)")

    session = start(__doc__, RESULTS, extra)
    args = session.args
    big, small = (10**5, 10**4) if args.quick else (10**6, 10**5)
    rng = np.random.default_rng(20261128)
    body: list[list[str]] = []
    checks: list[str] = []
    for n, resamples, measured in ((big, args.resamples, False), (small, args.equal, True)):
        gold, pred, groups = data(n, rng)
        r = ours(gold, pred, groups, resamples)
        point = theirs(gold, pred, groups, 0)
        compared = check(r, point)
        checks.append(f"N = {n:,}: accuracy and macro F1 of {len(r.names)} groups and overall ({compared} values) "
                      "equal MetricFrame's by_group and overall (1e-12)")  # fmt: skip
        log(f"N = {n:,}: clfeval at R = {resamples}")
        a = median_time(lambda: ours(gold, pred, groups, resamples))
        if measured:
            log(f"N = {n:,}: MetricFrame at R = {resamples}")
            b = once(lambda: theirs(gold, pred, groups, resamples))
            t0 = once(lambda: theirs(gold, pred, groups, 0))
            per = (b - t0) / resamples
            how = f"measured at R = {resamples}"
        else:
            log(f"N = {n:,}: MetricFrame without resamples and at R = {args.few}")
            t0 = once(lambda: theirs(gold, pred, groups, 0))
            tk = once(lambda: theirs(gold, pred, groups, args.few))
            per = (tk - t0) / args.few
            b = t0 + resamples * per
            how = f"**extrapolated**: t₀ = {t0:.1f} s, t_{args.few} = {tk:.1f} s"
        body.append([f"{n:,}", f"{len(r.names)}", f"{resamples:,}", f"{a:.2f}", f"{1000 * a / resamples:.2f}",
                     f"{b:,.0f}" if b >= 100 else f"{b:.1f}", f"{per:.3f}", how, ratio_text(b / a)])  # fmt: skip
    head = ["N", "groups", "R", "clfeval s", "clfeval ms / resample", "MetricFrame s", "MetricFrame s / resample",
            "MetricFrame time", "MetricFrame / clfeval"]  # fmt: skip
    sections = ["### Bootstrap intervals by group: clfeval.score(groups=, ci='bootstrap') against MetricFrame(n_boot=)",
                "", *md_table(head, body, {0, 1, 2, 3, 4, 5, 6, 8}),
                f"clfeval: median of {CALLS} calls after a warm-up (each group's full report with intervals, the "
                "overall's, and every gap's interval); MetricFrame: one call (the two metrics by group and overall, "
                "refitted per resample).", ""]  # fmt: skip
    write_report(session, "Scores by group: clfeval against fairlearn's MetricFrame bootstrap", "slices.py",
                 ["numpy", "scikit-learn", "fairlearn", "pandas"],
                 f"Data: seeded int64 class ids over {K} classes (70% right) and {GROUPS} groups of unequal sizes "
                 "(∝ 1 … 10).", sections, checks)  # fmt: skip


if __name__ == "__main__":
    main()
