"""Tests between groups: the size (rejection rate under H0) of the permutation, bootstrap and delta tests that
``clfeval.score(y, p, groups=g, test=...)`` runs, Holm's family-wise error over several groups, and power at one
alternative (the "Tests between groups" section of docs/calibration.md).

    .venv/bin/python benchmarks/group_test_calibration.py --workers 2   # full run: M = 1000 data sets per scenario
    .venv/bin/python benchmarks/group_test_calibration.py --quick       # M = 60: a smoke test

Design. Every group draws its instances i.i.d. from a population table P_g(gold, predicted) in a fixed size. Under
H0 every group has the same table (groups with the same distribution: membership is exchangeable); under the
alternative group g0 is right less often. Tables: three classes of prevalences (0.5, 0.3, 0.2), each predicted right
with probability 0.8 (the alternative: 0.7 in g0), errors split alike between the other two classes.

Scenarios (sizes of the groups): large and equal (4 × 250), small and equal (4 × 40), unequal with a small group
(40, 100, 400: g0 the small one), the alternative (4 × 250, g0 right 0.7 instead of 0.8). Each of the M data sets is
scored three times, ``test="permutation"``, ``"bootstrap"`` and ``"delta"`` (resampling tests ``rounds=R``, one seed
per data set), ``metrics=["accuracy", "macro.f1"]``, no intervals. Reported, the share of data sets with

- pair: p ≤ 0.05 for the pair (g0, g1) (the small group and the next in the unequal scenario);
- rest: p ≤ 0.05 for g0 against the rest;
- FWER pairs, raw / Holm: some pair's unadjusted p ≤ 0.05 / some pair's Holm-adjusted p ≤ 0.05 (every pair of the
  groups: 6 pairs of 4 groups, 3 of 3); Holm over the groups against the rest likewise (FWER rest, Holm);

± the binomial standard error. A test holds its size when the share is within about 2 s.e. of 0.05. Under the
alternative the same columns are the power (the FWER columns: the chance of finding some difference).

The permutation test of accuracy is a test on a discrete statistic: given the pool's K right instances, group a's
k right is hypergeometric and d = k/n_a − (K − k)/n_b is linear in k, so its size is below α by the atoms of that
distribution. ``--exact`` prints that size exactly (the sum over K ~ Binomial(n_a + n_b, accuracy) of the
hypergeometric mass of the k whose two-sided p = P(|d*| ≥ |d|) ≤ α; R = ∞) for the comparisons reported, the
yardstick of the simulated permutation column for accuracy.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import math
import multiprocessing as mp
import time
from typing import Any

import numpy as np

import clfeval

SEED = 20261129
METRICS = ("accuracy", "macro.f1")
TESTS = ("permutation", "bootstrap", "delta")
ALPHA = 0.05


def table(right: float) -> np.ndarray:
    """Three classes of prevalences (0.5, 0.3, 0.2), predicted right with probability ``right``."""
    p = np.array([0.5, 0.3, 0.2])
    return p[:, None] * (right * np.eye(3) + (1 - right) * (1 - np.eye(3)) / 2)


def scenarios() -> dict[str, dict[str, Any]]:
    null = table(0.8)
    return {
        "H0, large (4 × 250)": {"sizes": (250, 250, 250, 250), "tables": (null,) * 4},
        "H0, small (4 × 40)": {"sizes": (40, 40, 40, 40), "tables": (null,) * 4},
        "H0, unequal (40, 100, 400)": {"sizes": (40, 100, 400), "tables": (null,) * 3},
        "power: g0 0.7 vs 0.8 (4 × 250)": {"sizes": (250, 250, 250, 250), "tables": (table(0.7),) + (null,) * 3},
    }


def one_set(args: tuple[str, int, int, int]) -> dict[str, dict[str, dict[str, bool]]]:
    """test → metric → what → rejected at ALPHA, for one data set."""
    name, i, rounds, seed_base = args
    spec = scenarios()[name]
    index = list(scenarios()).index(name)
    rng = np.random.default_rng(np.random.SeedSequence([seed_base, index, i]))
    gold, pred, group = [], [], []
    for g, (n, t) in enumerate(zip(spec["sizes"], spec["tables"])):
        cells = rng.choice(9, size=n, p=t.ravel())
        gold.append(cells // 3)
        pred.append(cells % 3)
        group.append(np.full(n, f"g{g}"))
    y, p, groups = np.concatenate(gold), np.concatenate(pred), np.concatenate(group)
    seed = int(np.random.SeedSequence([seed_base, index, i, 1]).generate_state(1)[0])
    out: dict[str, dict[str, dict[str, bool]]] = {}
    for test in TESTS:
        r = clfeval.score(y, p, groups=groups, labels=[0, 1, 2], metrics=list(METRICS), test=test, rounds=rounds,
                          seed=seed)  # fmt: skip
        out[test] = {}
        for metric in METRICS:
            found = [t for t in r.tests if t.metric == metric]
            pairs = [t for t in found if t.between == "pair"]
            rests = [t for t in found if t.between == "rest"]
            first = next(t for t in pairs if {t.a, t.b} == {"g0", "g1"})
            mine = next(t for t in rests if t.a == "g0")
            out[test][metric] = {
                "pair": first.p_value <= ALPHA,
                "rest": mine.p_value <= ALPHA,
                "FWER pairs, raw": any(t.p_value <= ALPHA for t in pairs),
                "FWER pairs, Holm": any(t.p_holm <= ALPHA for t in pairs),
                "FWER rest, Holm": any(t.p_holm <= ALPHA for t in rests),
                "undefined": any(math.isnan(t.p_value) for t in found),
            }
    return out


def exact_permutation_size(n_a: int, n_b: int, accuracy: float, alpha: float = ALPHA) -> float:
    """The size of the two-sided permutation test of accuracy between groups of n_a and n_b instances (R = ∞)."""
    from scipy.stats import binom, hypergeom

    n = n_a + n_b
    size = 0.0
    for k_total in range(n + 1):
        weight = binom.pmf(k_total, n, accuracy)
        if weight < 1e-15:
            continue
        k = np.arange(max(0, k_total - n_b), min(n_a, k_total) + 1)
        mass = hypergeom.pmf(k, n, k_total, n_a)
        spread = np.abs(k / n_a - (k_total - k) / n_b)
        p = np.array([mass[spread >= s - 1e-12].sum() for s in spread])
        size += weight * mass[p <= alpha].sum()
    return float(size)


def exact_sizes() -> None:
    """The exact size of the permutation test of accuracy for every pair and rest comparison reported."""
    print("| scenario | pair: exact size | rest: exact size |")
    print("|---|---|---|")
    for name, spec in scenarios().items():
        if not name.startswith("H0"):
            continue
        sizes = spec["sizes"]
        accuracy = float(np.trace(spec["tables"][0]))
        pair = exact_permutation_size(sizes[0], sizes[1], accuracy)
        rest = exact_permutation_size(sizes[0], sum(sizes[1:]), accuracy)
        print(f"| {name} | {pair:.3f} | {rest:.3f} |")


COLUMNS = ("pair", "rest", "FWER pairs, raw", "FWER pairs, Holm", "FWER rest, Holm")


def share(values: list[bool]) -> str:
    m = len(values)
    s = sum(values) / m
    return f"{s:.3f} ± {math.sqrt(max(s * (1 - s), 1e-12) / m):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="M = 60 data sets, 199 rounds")
    parser.add_argument("--sets", type=int, help="data sets per scenario (default 1000; --quick 60)")
    parser.add_argument("--rounds", type=int, help="rounds of the resampling tests (default 999; --quick 199)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--scenario", help="one scenario only (the start of its name)")
    parser.add_argument("--exact", action="store_true", help="print the permutation test's exact size of accuracy")
    args = parser.parse_args()
    if args.exact:
        exact_sizes()
        return
    m = args.sets or (60 if args.quick else 1000)
    rounds = args.rounds or (199 if args.quick else 999)
    chosen = [k for k in scenarios() if args.scenario is None or k.startswith(args.scenario)]
    started = time.time()
    print(f"clfeval {clfeval.__version__}; M = {m} data sets per scenario, R = {rounds} rounds; seed {args.seed}; "
          f"α = {ALPHA}\n")  # fmt: skip
    print("| scenario | test | metric | " + " | ".join(COLUMNS) + " |")
    print("|---|---|---|" + "---|" * len(COLUMNS))
    with mp.Pool(args.workers) as pool:
        for name in chosen:
            found = pool.map(one_set, [(name, i, rounds, args.seed) for i in range(m)])
            for test in TESTS:
                for metric in METRICS:
                    cells = [share([f[test][metric][c] for f in found]) for c in COLUMNS]
                    undefined = sum(f[test][metric]["undefined"] for f in found)
                    note = f" ({undefined} with an undefined p)" if undefined else ""
                    print(f"| {name} | {test} | {metric}{note} | " + " | ".join(cells) + " |", flush=True)
    print(f"\nwall time {(time.time() - started) / 60:.1f} min, {args.workers} worker(s)")


if __name__ == "__main__":
    main()
