"""clfeval interval benchmarks: bootstrap from counts vs instance-level bootstraps, side by side.

    python benchmarks/intervals.py            # full run (about 4-5 minutes on 2 cores)
    python benchmarks/intervals.py --quick    # tiny N and few competitor resamples: a fast check

Prints Markdown tables and writes the same text to ``benchmarks/intervals.md``:

1. clfeval alone at N = 10^6, 20 classes: ``with_intervals`` (bootstrap, bootstrap-bca with
   10,000 resamples; delta; delta-logit) for every score at once, best of 3 (scoring done
   beforehand and not timed).
2. The ratio against instance-level bootstraps of macro F1 at N = 10^5 (and, for
   ``confidenceinterval``'s BCa, N = 10^4): ``scipy.stats.bootstrap`` on the paired
   (gold, pred) data, a hand-written numpy instance-level bootstrap (the floor any
   instance-level bootstrap pays), and the ``confidenceinterval`` package. Competitors run
   with fewer resamples and are extrapolated to 10,000 (stated per row); the ratio is
   (competitor time per 10,000 resamples, one score) / (clfeval time for 10,000 resamples,
   every score).
3. Takahashi et al. (2022)'s example table: the macro-F1 standard error reported by
   ``confidenceinterval``'s analytic method, clfeval's delta method, and a numerical
   delta-method referee.

Data: seeded synthetic labels, gold uniform over 20 classes, the prediction equal to gold with
probability 0.7 and otherwise uniform over the 20 classes (so ~71.5% correct). Nothing is cached.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from common import md_table, ratio_text

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "intervals.md"
K = 20  # classes
SEED = 20240607
RESAMPLES = 10_000  # what every time is stated for
MACRO_F = ("averages", "macro", "f")
Z = NormalDist().inv_cdf(0.975)


# --------------------------------------------------------------------------- data

def synthetic(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """(gold, pred) int64 codes: gold uniform over K classes; pred = gold w.p. 0.7, else uniform."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    return gold, pred


TAKAHASHI = np.array([[2, 4, 1], [3, 70, 1], [1, 3, 15]])  # rows gold, columns predicted


def expand(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Instance arrays (y_true, y_pred) of a confusion table with rows = gold."""
    k = table.shape[0]
    cells = table.ravel()
    return np.repeat(np.repeat(np.arange(k), k), cells), np.repeat(np.tile(np.arange(k), k), cells)


# --------------------------------------------------------------------------- macro F1 statistics

def macro_f1_counts(cells: np.ndarray) -> np.ndarray:
    """Macro F1 (0 for a 0/0 label) of (..., K, K) tables, rows gold."""
    tp = np.diagonal(cells, axis1=-2, axis2=-1)
    den = cells.sum(axis=-2) + cells.sum(axis=-1)  # 2tp + fp + fn
    return np.mean(np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0), axis=-1)


def macro_f1_numpy(gold: np.ndarray, pred: np.ndarray, axis: int = -1) -> Any:
    """Macro F1 by np.bincount; vectorized over leading axes (scipy's ``vectorized=True`` contract)."""
    gold, pred = np.asarray(gold), np.asarray(pred)
    if gold.ndim == 1:
        return np.float64(macro_f1_counts(np.bincount(gold * K + pred, minlength=K * K).reshape(K, K)))
    gold = np.moveaxis(gold, axis, -1)
    pred = np.moveaxis(pred, axis, -1)
    lead = gold.shape[:-1]
    g, p = gold.reshape(-1, gold.shape[-1]), pred.reshape(-1, pred.shape[-1])
    b = g.shape[0]
    codes = g * K + p + (np.arange(b) * (K * K))[:, None]
    cells = np.bincount(codes.ravel(), minlength=b * K * K).reshape(b, K, K)
    return macro_f1_counts(cells).reshape(lead)


def macro_f1_sklearn(gold: np.ndarray, pred: np.ndarray) -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(gold, pred, average="macro", zero_division=0))


# --------------------------------------------------------------------------- measuring

def best_of(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Minimum wall time over ``repeats`` calls, and the first call's result."""
    best, result = float("inf"), None
    for i in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
        if i == 0:
            result = out
    return best, result


@dataclass
class Clf:
    """One clfeval timing: with_intervals on a scored result."""
    method: str
    n: int
    seconds: float
    repeats: int
    interval: tuple[float, float]
    n_bounds: int


def time_clfeval(gold: np.ndarray, pred: np.ndarray, method: str, repeats: int) -> Clf:
    import clfeval
    from clfeval.infer.intervals import with_intervals

    scored = clfeval.score(gold, pred)  # not timed
    seconds, out = best_of(lambda: clfeval.with_intervals(scored, clfeval.CI(method, resamples=RESAMPLES, seed=SEED)), repeats)
    return Clf(method, len(gold), seconds, repeats, out.intervals.get(MACRO_F), len(out.intervals.bounds))


@dataclass
class Competitor:
    """One competitor run: ``resamples`` resamples measured, extrapolated to RESAMPLES."""
    name: str
    n: int
    resamples: int
    seconds: float  # measured, best of repeats
    repeats: int
    per_10k: float  # extrapolated
    how: str  # the extrapolation, in words
    interval: tuple[float, float]
    against: Clf


def linear(name: str, n: int, resamples: int, repeats: int, run: Callable[[], tuple[float, float]],
           against: Clf) -> Competitor:
    seconds, interval = best_of(run, repeats)
    return Competitor(name, n, resamples, seconds, repeats, seconds * RESAMPLES / resamples,
                      f"× {RESAMPLES:,}/{resamples:,}", interval, against)


def with_fixed_cost(name: str, n: int, resamples: int, run: Callable[[], tuple[float, float]],
                    per_resample: float, against: Clf) -> Competitor:
    """BCa: the jackknife over N instances is a fixed cost; only the resampling part is scaled up,
    at the per-resample cost of the same competitor's percentile run."""
    seconds, interval = best_of(run, 1)
    extra = (RESAMPLES - resamples) * per_resample
    return Competitor(name, n, resamples, seconds, 1, seconds + extra,
                      f"+ {RESAMPLES - resamples:,} × {per_resample * 1e3:.2f} ms (percentile run's per-resample "
                      f"cost)", interval, against)


# --------------------------------------------------------------------------- competitors

def scipy_bootstrap(gold: np.ndarray, pred: np.ndarray, statistic: Callable, vectorized: bool, method: str,
                    resamples: int, batch: int | None) -> tuple[float, float]:
    from scipy import stats

    params = inspect.signature(stats.bootstrap).parameters
    rng = {"rng" if "rng" in params else "random_state": np.random.default_rng(SEED)}
    res = stats.bootstrap((gold, pred), statistic, paired=True, vectorized=vectorized, n_resamples=resamples,
                          batch=batch, method=method, confidence_level=0.95, **rng)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def numpy_floor(gold: np.ndarray, pred: np.ndarray, resamples: int) -> tuple[float, float]:
    """The plainest instance-level bootstrap: draw N indices, bincount, macro F1; percentile interval."""
    rng = np.random.default_rng(SEED)
    n = len(gold)
    codes = gold * K + pred
    values = np.empty(resamples)
    for b in range(resamples):
        cells = np.bincount(codes[rng.integers(0, n, n)], minlength=K * K).reshape(K, K)
        values[b] = macro_f1_counts(cells)
    low, high = np.quantile(values, [0.025, 0.975])
    return float(low), float(high)


def ci_package(gold: np.ndarray, pred: np.ndarray, method: str, resamples: int) -> tuple[float, float]:
    from confidenceinterval import f1_score

    _, (low, high) = f1_score(gold, pred, average="macro", method=method, n_resamples=resamples,
                              random_state=np.random.RandomState(SEED % 2**32))
    return float(low), float(high)


# --------------------------------------------------------------------------- report

def tolerance(resamples: int) -> float:
    """Allowed end difference, as a share of the interval width: 4 Monte Carlo standard errors of a
    2.5% quantile from ``resamples`` draws (sqrt(.025·.975/B)/φ(1.96)/(2·1.96) ≈ 0.68/√B of the width),
    plus 0.05 for clfeval's own draws and the discreteness of scores of counts."""
    return 4 * 0.68 / np.sqrt(resamples) + 0.05


def iv(x: tuple[float, float] | None) -> str:
    return "—" if x is None else f"({x[0]:.4f}, {x[1]:.4f})"


def secs(x: float) -> str:
    return f"{x:,.3f}" if x < 10 else f"{x:,.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny N (10^5 / 10^4 / 2·10^3) and few competitor "
                                                             "resamples: a check that everything runs")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    quick = args.quick

    n_alone = 10**5 if quick else 10**6  # section 1
    n_cmp = 10**4 if quick else 10**5  # section 2, main comparison
    n_bca = 2_000 if quick else 10**4  # section 2, confidenceinterval's BCa (its jackknife is N×N in memory)
    reps = 1 if quick else 3  # clfeval: best of
    b_floor, b_scipy, b_scipy_bca, b_ci, b_ci_bca = (100, 100, 50, 50, 20) if quick else (1000, 1000, 200, 200, 100)
    scipy_batch, scipy_bca_batch = 10, 200  # the fastest batch sizes found for this N and statistic (see notes)

    sections: list[str] = []
    targets: list[str] = []
    checks: list[str] = []
    notes: list[str] = []

    def target(ok: bool, text: str) -> None:
        targets.append(f"- [{'x' if ok else ' '}] {'met' if ok else 'MISSED'}: {text}")

    # ---------------------------------------------------------------- 1. clfeval alone
    log(f"section 1: clfeval with_intervals, N={n_alone:,}, {K} classes, best of {reps}")
    gold, pred = synthetic(n_alone)
    alone = []
    for method in ("bootstrap", "bootstrap-bca", "delta", "delta-logit"):
        row = time_clfeval(gold, pred, method, reps)
        alone.append(row)
        log(f"  {method:<14} {row.seconds:8.4f} s  macro F {iv(row.interval)}")
    body = [[r.method, f"{RESAMPLES:,}" if r.method.startswith("bootstrap") else "—", str(r.repeats),
             f"{r.seconds:.4f}", str(r.n_bounds), iv(r.interval)] for r in alone]
    sections += [f"### 1. clfeval `with_intervals`, every score at once, N = {n_alone:,}, {K} classes", "",
                 f"Time of `with_intervals(scored, method, resamples={RESAMPLES:,}, seed=…)` only (`clfeval.score` "
                 "done beforehand), best of the repeats. Intervals: every per-label precision, recall, F, "
                 "specificity; micro, macro (AF), macro_fa (FA), weighted and lfb precision/recall/F; accuracy; "
                 "micro FPR; plus per-label Wilson intervals for precision and recall.", ""]
    sections += md_table(["method", "resamples", "reps", "best s", "intervals", "macro F 95% interval"], body,
                         {1, 2, 3, 4})
    for r in alone[:2]:
        target(r.seconds < 1, f"clfeval {r.method}, {RESAMPLES:,} resamples, every score, N={n_alone:,}, {K} "
                              f"classes, under 1 s: {r.seconds:.3f} s")

    # ---------------------------------------------------------------- 2. against instance-level bootstraps
    log(f"section 2: instance-level bootstraps of macro F1, N={n_cmp:,}")
    gold, pred = synthetic(n_cmp)
    clf_pct = time_clfeval(gold, pred, "bootstrap", reps)
    clf_bca = time_clfeval(gold, pred, "bootstrap-bca", reps)
    log(f"  clfeval bootstrap {clf_pct.seconds:.4f} s, bootstrap-bca {clf_bca.seconds:.4f} s")

    # the statistic handed to scipy: whichever of sklearn's f1_score and a numpy bincount macro F1 is faster
    t_np, v_np = best_of(lambda: macro_f1_numpy(gold, pred), 20)
    t_sk, v_sk = best_of(lambda: macro_f1_sklearn(gold, pred), 5)
    checks.append(f"check (statistic): numpy bincount macro F1 {v_np:.6f} vs sklearn f1_score(average='macro') "
                  f"{v_sk:.6f}: {'agree' if np.isclose(v_np, v_sk) else 'DIFFER'}")
    use_numpy = t_np <= t_sk
    stat_name = "numpy bincount macro F1, vectorized" if use_numpy else "sklearn f1_score(average='macro')"
    notes.append(f"Statistic for scipy.stats.bootstrap at N={n_cmp:,}: one call of the numpy bincount macro F1 takes "
                 f"{t_np * 1e3:.3f} ms, sklearn `f1_score(average='macro')` {t_sk * 1e3:.2f} ms (best of 20 / 5); "
                 f"the faster, {stat_name}, is used (with `vectorized=True`, so scipy hands it a batch of resamples "
                 f"at once, and `batch={scipy_batch}` for the percentile run, `batch={scipy_bca_batch}` for BCa — "
                 "the fastest settings in trials at N = 100,000; scipy's default `batch=None` is slower and holds all "
                 "resamples in memory at once).")
    if use_numpy:
        scipy_stat, scipy_vec = macro_f1_numpy, True
    else:
        scipy_stat, scipy_vec = (lambda g, p: macro_f1_sklearn(g, p)), False

    rows: list[Competitor] = []
    log(f"  numpy instance-level floor, {b_floor} resamples")
    rows.append(linear("numpy instance-level bootstrap (rng.integers + bincount per resample), percentile",
                       n_cmp, b_floor, reps, lambda: numpy_floor(gold, pred, b_floor), clf_pct))
    log(f"  scipy.stats.bootstrap percentile, {b_scipy} resamples")
    scipy_pct = linear(f"scipy.stats.bootstrap(paired, {stat_name}), method='percentile'", n_cmp, b_scipy, reps,
                       lambda: scipy_bootstrap(gold, pred, scipy_stat, scipy_vec, "percentile", b_scipy, scipy_batch),
                       clf_pct)
    rows.append(scipy_pct)
    log(f"  scipy.stats.bootstrap BCa, {b_scipy_bca} resamples (its jackknife runs over all N instances)")
    rows.append(with_fixed_cost(f"scipy.stats.bootstrap(paired, {stat_name}), method='BCa'", n_cmp, b_scipy_bca,
                                lambda: scipy_bootstrap(gold, pred, scipy_stat, scipy_vec, "BCa", b_scipy_bca,
                                                        scipy_bca_batch),
                                scipy_pct.seconds / scipy_pct.resamples, clf_bca))
    log(f"  confidenceinterval f1_score(average='macro', method='bootstrap_percentile'), {b_ci} resamples")
    ci_pct = linear("confidenceinterval f1_score(average='macro', method='bootstrap_percentile')", n_cmp, b_ci, 1,
                    lambda: ci_package(gold, pred, "bootstrap_percentile", b_ci), clf_pct)
    rows.append(ci_pct)

    # confidenceinterval's BCa: scipy's jackknife without a batch size materialises an N×(N-1) index array
    log(f"  confidenceinterval bootstrap_bca at N={n_bca:,}, {b_ci_bca} resamples")
    g_small, p_small = synthetic(n_bca)
    clf_bca_small = time_clfeval(g_small, p_small, "bootstrap-bca", reps)
    ci_pct_small = linear("(per-resample cost)", n_bca, b_ci, 1,
                          lambda: ci_package(g_small, p_small, "bootstrap_percentile", b_ci), clf_bca_small)
    rows.append(with_fixed_cost("confidenceinterval f1_score(average='macro', method='bootstrap_bca')", n_bca,
                                b_ci_bca, lambda: ci_package(g_small, p_small, "bootstrap_bca", b_ci_bca),
                                ci_pct_small.seconds / ci_pct_small.resamples, clf_bca_small))
    notes.append(f"confidenceinterval's `bootstrap_bca` is measured at N={n_bca:,}, not {n_cmp:,}: it calls "
                 "scipy.stats.bootstrap without `batch`, and scipy's BCa jackknife then builds the whole N×(N−1) "
                 f"index array at once (at N={10**5:,}: a 10 GB mask and an 80 GB int64 index) and evaluates the "
                 "statistic N times. Its percentile method likewise holds all resamples' indices at once: "
                 f"at its default n_resamples=9999 and N={10**5:,} that is ~8 GB of indices plus an equal-sized "
                 "copy, so the linear extrapolation above is generous to it.")

    for r in rows:
        log(f"  {r.name[:70]:<70} {r.seconds:8.3f} s for {r.resamples:,} → {r.per_10k:8.1f} s per {RESAMPLES:,}")

    body = []
    for r in rows:
        c = r.against
        body.append([r.name, f"{r.n:,}", f"{c.method}: {c.seconds:.3f}", f"{r.resamples:,}", secs(r.seconds),
                     r.how, secs(r.per_10k), ratio_text(r.per_10k / c.seconds), iv(r.interval), iv(c.interval)])
    sections += [f"### 2. Against instance-level bootstraps of macro F1, {K} classes", "",
                 f"clfeval: `with_intervals` with {RESAMPLES:,} resamples for every score "
                 f"({clf_pct.n_bounds} intervals), best of {reps}. Competitors: one score (macro F1), measured with "
                 f"fewer resamples (best of the repeats: {reps} for numpy and scipy percentile, 1 otherwise) and "
                 f"extrapolated to {RESAMPLES:,} as stated. Ratio = competitor s per {RESAMPLES:,} / clfeval s. "
                 "Intervals are 95% for macro F1 (competitors: from their smaller number of resamples).", ""]
    sections += md_table(["competitor", "N", "clfeval s", "their resamples", "their s", "extrapolation",
                          f"their s per {RESAMPLES:,}", "ratio", "their macro F interval", "clfeval's"],
                         body, {1, 2, 3, 4, 6, 7})
    for r in rows[1:]:
        ratio = r.per_10k / r.against.seconds
        target(ratio >= 100, f"≥ 100× faster than {r.name} (N={r.n:,}, {RESAMPLES:,} resamples): "
                             f"{ratio_text(ratio)}")
    def agree(name: str, n: int, theirs: tuple[float, float], resamples: int, clf: Clf) -> None:
        c = clf.interval
        width = c[1] - c[0]
        gap = max(abs(theirs[0] - c[0]), abs(theirs[1] - c[1]))
        tol = tolerance(resamples)
        checks.append(f"check (interval, N={n:,}): {name} with {resamples:,} resamples {iv(theirs)} vs clfeval "
                      f"{clf.method} {iv(c)}: largest end difference {gap:.5f} = {gap / width:.3f} of clfeval's "
                      f"width ({'within' if gap <= tol * width else 'OUTSIDE'} the Monte Carlo tolerance {tol:.3f})")

    for r in rows:
        agree(r.name, r.n, r.interval, r.resamples, r.against)
    # correctness, untimed: scipy with the full number of resamples at the smaller N, both methods
    clf_pct_small = time_clfeval(g_small, p_small, "bootstrap", 1)
    for method, clf in (("percentile", clf_pct_small), ("BCa", clf_bca_small)):
        theirs = scipy_bootstrap(g_small, p_small, macro_f1_numpy, True, method, RESAMPLES, scipy_bca_batch)
        agree(f"scipy.stats.bootstrap(paired, numpy bincount macro F1), method={method!r}", n_bca, theirs,
              RESAMPLES, clf)

    # ---------------------------------------------------------------- 3. Takahashi's example
    log("section 3: Takahashi et al.'s example table")
    import clfeval
    from clfeval.infer.intervals import with_intervals
    from confidenceinterval import f1_score as ci_f1

    y_true, y_pred = expand(TAKAHASHI)
    value, (low, high) = ci_f1(y_true, y_pred, average="macro", method="takahashi")
    ci_se = (high - low) / (2 * Z)
    scored = clfeval.score(y_true, y_pred)
    delta = clfeval.with_intervals(scored, "delta").intervals.get(MACRO_F)
    clf_se = (delta[1] - delta[0]) / (2 * Z)
    # referee: the delta method by central differences, Var = g'(diag p − pp')g / N
    n_t = TAKAHASHI.sum()
    p = TAKAHASHI.ravel() / n_t
    grad = np.array([(macro_f1_counts((p + 1e-7 * e).reshape(3, 3)) - macro_f1_counts((p - 1e-7 * e).reshape(3, 3)))
                     / 2e-7 for e in np.eye(p.size)])
    ref_se = float(np.sqrt(grad @ (np.diag(p) - np.outer(p, p)) @ grad / n_t))
    body = [["confidenceinterval f1_score(average='macro', method='takahashi')", f"{value:.4f}", iv((low, high)),
             f"{ci_se:.4f}"],
            ["clfeval with_intervals(r, 'delta')", f"{scored.averages['macro']['f']:.4f}", iv(delta), f"{clf_se:.4f}"],
            ["referee: delta method by central differences, g'(diag p − pp')g/N",
             f"{macro_f1_counts(p.reshape(3, 3)):.4f}", "—", f"{ref_se:.4f}"]]
    sections += ["### 3. Takahashi et al. (2022)'s example: macro-F1 standard error", "",
                 "Table (rows gold, columns predicted) [[2, 4, 1], [3, 70, 1], [1, 3, 15]] — their rows-predicted "
                 "table transposed — expanded to N = 100 instances. SE = (high − low) / (2 · 1.959964).", ""]
    sections += md_table(["method", "macro F1", "95% interval", "implied SE"], body, {1, 3})
    checks.append(f"check (Takahashi example): clfeval SE {clf_se:.6f} vs referee {ref_se:.6f}: "
                  f"{'agree' if np.isclose(clf_se, ref_se, rtol=1e-5) else 'DIFFER'}; confidenceinterval's "
                  f"'takahashi' SE {ci_se:.6f} is {100 * (ci_se / ref_se - 1):+.1f}% off the referee")

    # ---------------------------------------------------------------- report
    import scipy
    import sklearn
    header = [
        "# clfeval interval benchmarks",
        "",
        f"`python benchmarks/intervals.py{' --quick' if quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"clfeval {clfeval.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}, confidenceinterval {version('confidenceinterval')}; 1-min load "
        f"average {load_before:.2f} at start, {os.getloadavg()[0]:.2f} at end (other processes share the cores: "
        "compare rows within one run)",
        "",
        f"Data: seeded synthetic labels, {K} classes, gold uniform, prediction = gold with probability 0.7 and "
        "otherwise uniform. Times: time.perf_counter, everything in one process, one script run.",
        "",
    ]
    if quick:
        targets.insert(0, "- (--quick: sizes and resamples are below the targets' own, so these say only that "
                          "everything runs; see a full run)")
    footer = (["### Targets", ""] + targets + ["", "### Checks", ""] + [f"- {c}" for c in checks]
              + ["", "### Notes", ""] + [f"- {n}" for n in notes]
              + ["", f"Total benchmark time: {time.perf_counter() - started:.0f} s", ""])
    text = "\n".join(header + sections + footer)
    print(text)
    Path(args.output).write_text(text, encoding="utf-8")
    log(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
