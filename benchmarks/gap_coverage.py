"""Gaps between groups: empirical coverage of the 95% intervals of the gaps that ``clfeval.score(y, p, groups=g,
ci=...)`` reports (the "Gaps between groups" section of docs/coverage.md).

    .venv/bin/python benchmarks/gap_coverage.py --workers 2       # full run: T = 1000 per cell, prints Markdown
    .venv/bin/python benchmarks/gap_coverage.py --quick           # T = 40: a smoke test
    .venv/bin/python benchmarks/gap_coverage.py --scenario "null, small groups" --tables 300   # one scenario

Design. Each group g has its own population table P_g(gold, predicted); a data set draws n_g instances of group g
i.i.d. from P_g, the group sizes fixed (the design the group-stratified bootstrap resamples). The true value of a
score of group g is its value on P_g (accuracy = trace P_g; macro F1 = the mean over classes of 2 P_cc / (P_c· +
P_·c)); the true value of "the rest" of group a is the score of the mixture Σ_{b≠a} n_b P_b / Σ_{b≠a} n_b, which the
rest's counts estimate; the largest gap is max_g θ_g − min_g θ_g (ratio min/max); the fairness summaries read each
group's selection rate P(ŷ = 1), TPR and FPR of class 1 from P_g. All of these are computed exactly from the tables,
and checked once against clfeval on 2·10⁶ instances per group before the run (to 0.004).

Binary scenarios give a group (prevalence π, TPR, FPR) the table P(1,1) = π·TPR, P(1,0) = π(1 − TPR),
P(0,1) = (1 − π)FPR, P(0,0) = (1 − π)(1 − FPR); the three-class scenario gives each group a prevalence vector and a
probability of being right, errors split alike between the other classes.

Every data set is scored twice, ``ci="delta"`` and ``ci="bootstrap"`` (percentile, R resamples), with
``metrics=["accuracy", "macro.f1"]``, ``test="none"`` and one seed per table. Reported per scenario and method:
coverage (the share of tables whose interval holds the true value, inclusive to 1e-12) of

- pair: the difference θ_a − θ_b and the ratio θ_a / θ_b of every pair of groups, pooled over the pairs (the
  range over the pairs in brackets);
- rest: each group against the rest, pooled likewise;
- max: max − min and min / max; fairness: demographic parity difference and equalized odds difference (binary).

The largest gap and the fairness summaries have no delta interval: both methods give them the group-stratified
bootstrap (since main's 1bb94c2, read from simultaneous max-|t| intervals of every pairwise difference; before, the
percentile interval of the resampled max − min), so they are shown for the bootstrap run only (``--methods
bootstrap`` runs it alone). A missing interval (not estimable) is a miss, its share in parentheses. The null
scenarios (true gap 0) and the small true demographic-parity gaps (0.01, 0.02) are where the percentile interval of
max − min failed: max − min ≥ 0 in every resample and is biased upward, so its interval lay above 0.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import itertools
import math
import multiprocessing as mp
import time
from typing import Any

import numpy as np

import clfeval

SEED = 20261128
METRICS = ("accuracy", "macro.f1")
METHODS = ("delta", "bootstrap")
FAIRNESS = ("demographic_parity_difference", "equalized_odds_difference")


def binary(prevalence: float, tpr: float, fpr: float) -> np.ndarray:
    """The population table P(gold, predicted) of a binary group, classes 0 and 1."""
    return np.array(
        [[(1 - prevalence) * (1 - fpr), (1 - prevalence) * fpr], [prevalence * (1 - tpr), prevalence * tpr]]
    )


def multiclass(prevalence: list[float], right: float) -> np.ndarray:
    """A K-class table: gold ~ prevalence, predicted right with probability ``right``, errors split alike."""
    p = np.asarray(prevalence)
    k = len(p)
    return p[:, None] * (right * np.eye(k) + (1 - right) * (1 - np.eye(k)) / (k - 1))


def scenarios() -> dict[str, dict[str, Any]]:
    """Each scenario: group names, sizes and population tables."""
    same = binary(0.4, 0.8, 0.15)
    return {
        "null, equal sizes (3 × 200)": {"sizes": (200, 200, 200), "tables": (same, same, same)},
        "gap, equal sizes (3 × 200)": {
            "sizes": (200, 200, 200),
            "tables": (binary(0.4, 0.9, 0.1), binary(0.4, 0.8, 0.15), binary(0.4, 0.7, 0.25)),
        },
        "gap, unequal sizes (500, 150, 40)": {
            "sizes": (500, 150, 40),
            "tables": (binary(0.4, 0.9, 0.1), binary(0.3, 0.8, 0.15), binary(0.5, 0.7, 0.25)),
        },
        "null, small groups (4 × 40)": {"sizes": (40, 40, 40, 40), "tables": (same,) * 4},
        "gap, small groups (3 × 50)": {
            "sizes": (50, 50, 50),
            "tables": (binary(0.4, 0.95, 0.05), binary(0.4, 0.8, 0.15), binary(0.4, 0.6, 0.3)),
        },
        "3 classes, gap, unequal (300, 100, 50)": {
            "sizes": (300, 100, 50),
            "tables": (
                multiclass([0.5, 0.3, 0.2], 0.85),
                multiclass([0.4, 0.4, 0.2], 0.75),
                multiclass([0.6, 0.2, 0.2], 0.65),
            ),
        },
    }


def group_names(spec: dict[str, Any]) -> list[str]:
    return [f"g{i}" for i in range(len(spec["sizes"]))]


def metric_of(table: np.ndarray, metric: str) -> float:
    """A score of a population table (cells sum to 1)."""
    if metric == "accuracy":
        return float(np.trace(table))
    diagonal = np.diag(table)
    f1 = 2 * diagonal / (table.sum(axis=0) + table.sum(axis=1))
    return float(f1.mean())


def rates(table: np.ndarray) -> dict[str, float]:
    """Selection rate, TPR and FPR of class 1 of a binary table."""
    return {
        "selection_rate": float(table[:, 1].sum()),
        "tpr": float(table[1, 1] / table[1].sum()),
        "fpr": float(table[0, 1] / table[0].sum()),
    }


def truth(spec: dict[str, Any]) -> dict[str, float]:
    """The true value of every reported gap, by (what, metric, a, b) → value, from the population tables."""
    names, sizes, tables = group_names(spec), spec["sizes"], spec["tables"]
    out: dict[Any, float] = {}
    for metric in METRICS:
        theta = [metric_of(t, metric) for t in tables]
        for a, b in itertools.combinations(range(len(names)), 2):
            out[("pair diff", metric, a, b)] = theta[a] - theta[b]
            out[("pair ratio", metric, a, b)] = theta[a] / theta[b]
        for a in range(len(names)):
            others = [b for b in range(len(names)) if b != a]
            mixture = sum(sizes[b] * tables[b] for b in others) / sum(sizes[b] for b in others)
            rest = metric_of(mixture, metric)
            out[("rest diff", metric, a, -1)] = theta[a] - rest
            out[("rest ratio", metric, a, -1)] = theta[a] / rest
        out[("max diff", metric, -1, -1)] = max(theta) - min(theta)
        out[("max ratio", metric, -1, -1)] = min(theta) / max(theta)
    if tables[0].shape == (2, 2):
        r = [rates(t) for t in tables]
        spread = {k: max(x[k] for x in r) - min(x[k] for x in r) for k in ("selection_rate", "tpr", "fpr")}
        out[("fairness", "demographic_parity_difference", -1, -1)] = spread["selection_rate"]
        out[("fairness", "equalized_odds_difference", -1, -1)] = max(spread["tpr"], spread["fpr"])
    return out


def draw(spec: dict[str, Any], rng: np.random.Generator, scale: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One data set: gold, predicted and group, each group's instances drawn from its table."""
    gold, pred, group = [], [], []
    for name, n, table in zip(group_names(spec), spec["sizes"], spec["tables"]):
        k = table.shape[0]
        cells = rng.choice(k * k, size=n * scale, p=table.ravel())
        gold.append(cells // k)
        pred.append(cells % k)
        group.append(np.full(n * scale, name))
    return np.concatenate(gold), np.concatenate(pred), np.concatenate(group)


def check_truth(spec: dict[str, Any], true: dict[Any, float]) -> None:
    """The exact truth against clfeval's point values on 2·10⁶ instances a group (to 0.004)."""
    rng = np.random.default_rng(SEED)
    scale = max(1, 2_000_000 // min(spec["sizes"]))
    gold, pred, group = draw(spec, rng, scale)
    labels = list(range(spec["tables"][0].shape[0]))
    r = clfeval.score(gold, pred, groups=group, labels=labels, metrics=list(METRICS), test="none")
    for metric in METRICS:
        for (what, m, a, b), value in true.items():
            if m != metric or what not in ("pair diff", "rest diff", "max diff"):
                continue
            gap = r.gap(metric) if b == -1 and a == -1 else r.gap(metric, f"g{a}", None if b < 0 else f"g{b}")
            assert abs(gap.difference - value) < 0.004, (what, metric, a, b, gap.difference, value)
    if r.fairness is not None:
        for name in FAIRNESS:
            found = r.fairness["summaries"][name]["value"]
            assert abs(found - true[("fairness", name, -1, -1)]) < 0.004, (name, found)


def one_table(args: tuple[str, int, int, int, tuple[str, ...]]) -> dict[str, Any]:
    """The methods' intervals of every gap of one data set: method → (what, metric, a, b) → bounds or None."""
    name, t, resamples, seed_base, methods = args
    spec = scenarios()[name]
    index = list(scenarios()).index(name)
    rng = np.random.default_rng(np.random.SeedSequence([seed_base, index, t]))
    gold, pred, group = draw(spec, rng)
    labels = list(range(spec["tables"][0].shape[0]))
    seed = int(np.random.SeedSequence([seed_base, index, t, 1]).generate_state(1)[0])
    g = len(spec["sizes"])
    out: dict[str, Any] = {}
    for method in methods:
        r = clfeval.score(gold, pred, groups=group, labels=labels, ci=method, resamples=resamples, seed=seed,
                          metrics=list(METRICS), test="none")  # fmt: skip
        found: dict[Any, Any] = {}
        for metric in METRICS:
            for a, b in itertools.combinations(range(g), 2):
                gap = r.gap(metric, f"g{a}", f"g{b}")
                found[("pair diff", metric, a, b)] = gap.difference_ci
                found[("pair ratio", metric, a, b)] = gap.ratio_ci
            for a in range(g):
                gap = r.gap(metric, f"g{a}")
                found[("rest diff", metric, a, -1)] = gap.difference_ci
                found[("rest ratio", metric, a, -1)] = gap.ratio_ci
            gap = r.gap(metric)
            found[("max diff", metric, -1, -1)] = gap.difference_ci
            found[("max ratio", metric, -1, -1)] = gap.ratio_ci
        if r.fairness is not None:
            for fair in FAIRNESS:
                found[("fairness", fair, -1, -1)] = r.fairness["summaries"][fair]["ci"]
        out[method] = found
    return out


def covered(bounds: Any, value: float) -> bool:
    return (
        bounds is not None
        and not any(math.isnan(x) for x in bounds)
        and bounds[0] - 1e-12 <= value <= bounds[1] + 1e-12
    )


def cell(found: list[dict[Any, Any]], true: dict[Any, float], what: str, metric: str) -> str:
    """Pooled coverage over the keys of (what, metric), the range over them in brackets, missing in parentheses."""
    keys = [k for k in true if k[0] == what and k[1] == metric]
    if not keys:
        return "—"
    hits = {k: sum(covered(f[k], true[k]) for f in found) / len(found) for k in keys}
    missing = sum(f[k] is None for f in found for k in keys) / (len(found) * len(keys))
    text = f"{sum(hits.values()) / len(hits):.3f}"
    if len(keys) > 1:
        text += f" [{min(hits.values()):.3f}–{max(hits.values()):.3f}]"
    if missing:
        text += f" ({missing:.2f})"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="T = 40 tables per scenario, 200 resamples")
    parser.add_argument("--tables", type=int, help="tables per scenario (default 1000; --quick 40)")
    parser.add_argument("--resamples", type=int, help="bootstrap resamples (default 500; --quick 200)")
    parser.add_argument("--seed", type=int, default=SEED, help="the tables' seed (default: the recorded run's)")
    parser.add_argument("--scenario", help="one scenario only (its name, or the start of it)")
    parser.add_argument("--methods", default=",".join(METHODS), help="the methods, comma-separated (default: both)")
    args = parser.parse_args()
    methods = tuple(m for m in METHODS if m in args.methods.split(","))
    tables = args.tables or (40 if args.quick else 1000)
    resamples = args.resamples or (200 if args.quick else 500)
    chosen = {k: v for k, v in scenarios().items() if args.scenario is None or k.startswith(args.scenario)}
    started = time.time()
    print(f"clfeval {clfeval.__version__}; T = {tables} tables per scenario, bootstrap R = {resamples}; "
          f"seed {args.seed}\n")  # fmt: skip
    rows = ["pair diff", "pair ratio", "rest diff", "rest ratio", "max diff", "max ratio"]
    print("| scenario | method | gap | accuracy | macro F1 |")
    print("|---|---|---|---|---|")
    fair_lines = []
    truths = []
    with mp.Pool(args.workers) as pool:
        for name, spec in chosen.items():
            true = truth(spec)
            check_truth(spec, true)
            truths.append(f"- {name}: " + "; ".join(
                f"{m} " + ", ".join(f"{metric_of(t, m):.4f}" for t in spec["tables"]) for m in METRICS
            ) + "".join(f"; {f} {true[('fairness', f, -1, -1)]:.4f}" for f in FAIRNESS
                        if ("fairness", f, -1, -1) in true))  # fmt: skip
            found = pool.map(one_table, [(name, t, resamples, args.seed, methods) for t in range(tables)])
            for method in methods:
                for what in rows:
                    if what.startswith("max") and method == "delta":
                        continue  # the largest gap takes the bootstrap whatever the method
                    cells = [cell([f[method] for f in found], true, what, m) for m in METRICS]
                    print(f"| {name} | {method} | {what} | " + " | ".join(cells) + " |", flush=True)
            if any(k[0] == "fairness" for k in true) and "bootstrap" in methods:
                fair_lines.append(
                    f"| {name} | "
                    + " | ".join(cell([f["bootstrap"] for f in found], true, "fairness", fair) for fair in FAIRNESS)
                    + " |"
                )
    if fair_lines:
        print("\n| scenario (bootstrap) | demographic parity difference | equalized odds difference |")
        print("|---|---|---|")
        print("\n".join(fair_lines))
    print("\ntrue values per group (g0, g1, …):")
    print("\n".join(truths))
    print(f"\nwall time {(time.time() - started) / 60:.1f} min, {args.workers} worker(s)")


if __name__ == "__main__":
    main()
