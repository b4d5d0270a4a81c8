"""Sample weights: empirical coverage of clfeval's 95% intervals of weighted scores, and the size of its weighted
randomization test (the "Sample weights" section of docs/coverage.md).

    .venv/bin/python benchmarks/weighted_coverage.py --workers 1   # full run: prints the markdown tables
    .venv/bin/python benchmarks/weighted_coverage.py --quick       # tiny T: a smoke test
    .venv/bin/python benchmarks/weighted_coverage.py --seed 7 --scenario "3 classes, class weights" --n 1000
                                                                   # one cell again, on other tables

Design, part 1 (coverage). Single-label instances (gold g, predicted p) are drawn i.i.d. from a table of cell
probabilities P(g, p), each with a weight w = c_g · u: a class (cost) weight c_g of its gold class, times u = 1
(scenario "class weights": the weights repeat, the rows stay few) or u ~ Gamma(2, 1/2), mean 1 (scenarios
"continuous": every instance its own row). A weighted score is a function of the weighted counts Σ_i w_i 1{cell(i)}
/ n, which converge to Q(g, p) = P(g, p) · E[w | g, p] = P(g, p) · c_g; the true value of a score is its value on Q
(clfeval itself scores Q: one row (g, p, Q(g, p)) per cell). Scenarios:

- 3 classes: prevalences (0.5, 0.3, 0.2), each predicted right with probability 0.75, an error going to each other
  class alike; class weights c = (1, 2, 4); u = 1 ("3 classes, class weights") or Gamma ("3 classes, continuous");
- 5 classes: prevalences (0.4, 0.3, 0.15, 0.1, 0.05), right with probability 0.8, errors proportional to the other
  classes' prevalences; balanced class weights c_g = 1 / (5 π_g) times a Gamma u ("5 classes, balanced").

For each scenario and n, T tables are drawn from default_rng(SeedSequence([SEED, scenario, n, t])) and scored with
``clfeval.score(gold, pred, sample_weight=w, labels=[...], ci=method)`` for the methods delta, delta-logit,
bootstrap (percentile) and bootstrap-bca (R = 500 resamples, seeded per table with the same seed for both). Coverage is
the share of tables whose interval holds the true value (inclusive, to 1e-12); an interval that is not estimable
counts as a miss (its share in parentheses). Scores: micro F1 (the weighted accuracy), macro F1, macro_fa F1 (F1 of
macro P and R), MCC, and the recall of the scenario's rarest class.

Design, part 2 (size of the weighted randomization test). Two systems A and B, exchangeable per instance: each
predicts the gold label with probability 0.75 independently, else another class uniformly; 3 classes of prevalences
(0.5, 0.3, 0.2), continuous weights c_g · Gamma(2, 1/2) with c = (1, 2, 4). M data sets of n = 300 instances are
compared with ``clfeval.compare(gold, {"A": a, "B": b}, sample_weight=w, test="ar", rounds=499)`` on macro.f1 and
accuracy (the weighted accuracy); reported is the share of p ≤ 0.05 (and ≤ 0.01), with its binomial s.e.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import time
from typing import Any

import numpy as np

import clfeval

SEED = 20261128
METHODS = ("delta", "delta-logit", "bootstrap", "bootstrap-bca")
SCORES = {"miF1": "micro.f1", "maF1": "macro.f1", "maF1*": "macro_fa.f1", "MCC": "mcc"}


def _table(prevalence: np.ndarray, right: float, proportional: bool) -> np.ndarray:
    k = len(prevalence)
    errors = np.zeros((k, k))
    for g in range(k):
        share = prevalence.copy() if proportional else np.ones(k)
        share[g] = 0
        errors[g] = (1 - right) * share / share.sum()
    return prevalence[:, None] * (right * np.eye(k) + errors)


def scenarios() -> dict[str, dict[str, Any]]:
    three = np.array([0.5, 0.3, 0.2])
    five = np.array([0.4, 0.3, 0.15, 0.1, 0.05])
    return {
        "3 classes, class weights": {"p": _table(three, 0.75, False), "c": np.array([1.0, 2.0, 4.0]), "gamma": False},
        "3 classes, continuous": {"p": _table(three, 0.75, False), "c": np.array([1.0, 2.0, 4.0]), "gamma": True},
        "5 classes, balanced": {"p": _table(five, 0.8, True), "c": 1 / (5 * five), "gamma": True},
    }


def truth(spec: dict[str, Any]) -> dict[str, float]:
    """The scores of Q(g, p) = P(g, p) · c_g, scored by clfeval as one weighted row per cell."""
    p, c = spec["p"], spec["c"]
    k = len(c)
    rows = {(f"c{g}", f"c{q}", float(p[g, q] * c[g])): 1 for g in range(k) for q in range(k)}
    from clfeval.count.weighted import WeightedLabelCounts

    r = clfeval.score(WeightedLabelCounts(rows), labels=[f"c{g}" for g in range(k)])
    rare = f"c{k - 1}"
    return {**{name: r[key] for name, key in SCORES.items()}, "rare recall": r[f"per_label.{rare}.recall"]}


def one_table(args: tuple[str, int, int, int, int]) -> dict[str, Any]:
    name, n, t, resamples, seed_base = args
    spec = scenarios()[name]
    k = len(spec["c"])
    rng = np.random.default_rng(np.random.SeedSequence([seed_base, list(scenarios()).index(name), n, t]))
    cells = rng.choice(k * k, size=n, p=spec["p"].ravel())
    gold, pred = cells // k, cells % k
    w = spec["c"][gold] * (rng.gamma(2.0, 0.5, n) if spec["gamma"] else 1.0)
    names = np.array([f"c{g}" for g in range(k)])
    seed = int(np.random.SeedSequence([seed_base, list(scenarios()).index(name), n, t, 1]).generate_state(1)[0])
    keys = {**SCORES, "rare recall": f"per_label.c{k - 1}.recall"}
    out: dict[str, Any] = {}
    for method in METHODS:
        try:
            r = clfeval.score(
                names[gold], names[pred], sample_weight=w, labels=list(names), ci=method, resamples=resamples,
                seed=seed,
            ) if method.startswith("bootstrap") else clfeval.score(
                names[gold], names[pred], sample_weight=w, labels=list(names), ci=method
            )  # fmt: skip
            out[method] = {s: r.interval(key) for s, key in keys.items()}
        except clfeval.ClfevalError:
            out[method] = {s: None for s in keys}
    return out


def test_size(args: tuple[int, int]) -> dict[str, float]:
    i, rounds = args
    rng = np.random.default_rng(np.random.SeedSequence([SEED, 100, i]))
    n, k = 300, 3
    gold = rng.choice(k, size=n, p=[0.5, 0.3, 0.2])

    def system() -> np.ndarray:
        other = (gold + rng.integers(1, k, n)) % k
        return np.where(rng.random(n) < 0.75, gold, other)

    a, b = system(), system()
    w = np.array([1.0, 2.0, 4.0])[gold] * rng.gamma(2.0, 0.5, n)
    seed = int(np.random.SeedSequence([SEED, 100, i, 1]).generate_state(1)[0])
    r = clfeval.compare(gold, {"A": a, "B": b}, sample_weight=w, metrics=["macro.f1", "accuracy"], rounds=rounds,
                        seed=seed)  # fmt: skip
    return {m: r.pair("A", "B", m).p_value for m in ("macro.f1", "accuracy")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=SEED, help="the tables' seed (default: the recorded run's)")
    parser.add_argument("--scenario", help="one scenario only (its name)")
    parser.add_argument("--n", type=int, help="one n only")
    args = parser.parse_args()
    tables, resamples, sizes, m, rounds = (
        (20, 100, (200,), 20, 99) if args.quick else (1000, 500, (200, 1000), 500, 499)
    )
    started = time.time()
    if args.n is not None:
        sizes = (args.n,)
    chosen = {k: v for k, v in scenarios().items() if args.scenario in (None, k)}
    print(f"clfeval {clfeval.__version__}; T = {tables} tables per cell, {resamples} resamples; seed {args.seed}\n")
    print("| scenario | n | method | " + " | ".join([*SCORES, "rare recall"]) + " |")
    print("|---|---|---|" + "---|" * (len(SCORES) + 1))
    with mp.Pool(args.workers) as pool:
        for name, spec in chosen.items():
            true = truth(spec)
            for n in sizes:
                found = pool.map(one_table, [(name, n, t, resamples, args.seed) for t in range(tables)])
                for method in METHODS:
                    cells = []
                    for score, value in true.items():
                        bounds = [f[method][score] for f in found]
                        hit = sum(1 for b in bounds if b is not None and b[0] - 1e-12 <= value <= b[1] + 1e-12)
                        missing = sum(1 for b in bounds if b is None or any(math.isnan(x) for x in b))
                        cells.append(f"{hit / tables:.3f}" + (f" ({missing / tables:.2f})" if missing else ""))
                    print(f"| {name} | {n} | {method} | " + " | ".join(cells) + " |", flush=True)
        print("\ntruth: " + "; ".join(f"{name}: " + ", ".join(f"{s} {v:.4f}" for s, v in truth(spec).items())
                                       for name, spec in scenarios().items()))  # fmt: skip
        p = pool.map(test_size, [(i, rounds) for i in range(m if args.scenario is None and args.n is None else 0)])
    if p:
        print(f"\nweighted randomization under the null (M = {m}, n = 300, {rounds} rounds):")
    for metric in ("macro.f1", "accuracy") if p else ():
        values = np.array([x[metric] for x in p])
        for alpha in (0.05, 0.01):
            share = float((values <= alpha).mean())
            print(f"- {metric}: share of p ≤ {alpha}: {share:.3f} ± {math.sqrt(share * (1 - share) / m):.3f}")
    print(f"\nwall time {(time.time() - started) / 60:.1f} min, {args.workers} worker(s)")


if __name__ == "__main__":
    main()
