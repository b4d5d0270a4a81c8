"""clfeval compare benchmarks: approximate randomization on counts vs instance-level permutation tests.

    python benchmarks/compare.py            # full run (about 2-3 minutes on 2 cores, ~5 GB peak for scipy)
    python benchmarks/compare.py --quick    # tiny N and few competitor rounds: a fast check (< 30 s)

Prints Markdown tables and writes the same text to ``benchmarks/compare.md``.

The statistic, for every contender: two-sided approximate randomization (each instance's two
predictions swapped with probability ½) of d = macro F1(A) − macro F1(B) over the 20 labels (a 0/0
per-label F counts 0), p = (r + 1)/(R + 1) with r of R rounds having |d*| ≥ |d|.

1. clfeval at N = 10^6: the counting step (a vectorised count of (gold, A, B) codes into
   ``PairedCounts``), the set-up (``Arrangements.of``) and ``randomization_test`` with 10,000
   rounds, each timed, best of 3 (plus 2 after the competitors) — for independent errors (the main case), correlated errors
   (fewer differing triples) and a multi-label case; and the public ``clfeval.compare`` end to end
   when it exists (``time_clfeval_api``).
2. The instance-level competitors, each timed per 10,000 rounds at N = 10^6 and divided by
   clfeval's end-to-end time (count + set-up + rounds):
   per-instance numpy (a swap mask over all N, two ``np.bincount`` per round; plus a tuned variant
   with one bincount), numpy over the differing instances only (as art.py shuffled), an
   instance-by-instance pure Python loop in art.py's style, ``scipy.stats.permutation_test``
   (``permutation_type='samples'``, vectorized) and ``mlxtend.evaluate.permutation_test``
   (``paired=True``). What is measured and what is extrapolated is stated per row: numpy rows run a
   few hundred rounds (scaled to 10,000); the pure Python loop and mlxtend run at N = 10^4 and 10^5
   (scaled linearly in N and rounds); scipy runs at 10^5 and, with 100 rounds, at 10^6.
3. Each competitor's p-value against clfeval's on the same data, within Monte Carlo error.

Data: seeded synthetic labels, K = 20 classes, gold uniform; each system = gold with probability 0.7,
otherwise uniform over the 20 classes, the two systems' errors drawn independently. Nothing is cached.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import platform
import random
import resource
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common import blas_threads, md_table, pkg_version, ratio_text, write_results

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "compare.md"
K = 20  # classes (labels)
SEED = 20240607
ROUNDS = 10_000  # what every time is stated for
MACRO_F = ("averages", "macro", "f")
NAMES = [f"c{i:02d}" for i in range(K)]  # label names; zero-padded so sorted order = code order
TIE = 1e-12  # relative tolerance for |d*| >= |d| (clfeval's own)


# --------------------------------------------------------------------------- data

def independent(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(gold, a, b) int64 codes: gold uniform over K; each system = gold w.p. 0.7, else uniform;
    the two systems' errors independent."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, K, n)
    a = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    b = np.where(rng.random(n) < 0.7, gold, rng.integers(0, K, n))
    return gold, a, b


def correlated(n: int, seed: int = SEED + 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(gold, a, b): gold uniform; a = gold w.p. 0.7, else one of the 3 classes after gold (mod K);
    b copies a's prediction w.p. 0.5, else is drawn like a, independently."""
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, K, n)

    def system() -> np.ndarray:
        return np.where(rng.random(n) < 0.7, gold, (gold + rng.integers(1, 4, n)) % K)

    a = system()
    b = np.where(rng.random(n) < 0.5, a, system())
    return gold, a, b


def multilabel(n: int, seed: int = SEED + 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(gold, a, b) label sets as K-bit masks: gold one uniform label plus, w.p. 0.4, a second one
    (possibly the same); each system keeps each gold label w.p. 0.9 and adds one uniform label
    w.p. 0.1, independently of the other system."""
    rng = np.random.default_rng(seed)
    gold = (1 << rng.integers(0, K, n)) | np.where(rng.random(n) < 0.4, 1 << rng.integers(0, K, n), 0)

    def system() -> np.ndarray:
        kept = np.zeros(n, dtype=np.int64)
        for lab in range(K):
            bit = 1 << lab
            kept |= np.where(((gold & bit) > 0) & (rng.random(n) < 0.9), bit, 0)
        return kept | np.where(rng.random(n) < 0.1, 1 << rng.integers(0, K, n), 0)

    return gold, system(), system()


def indicator(masks: np.ndarray) -> np.ndarray:
    """(N, K) bool indicator matrix of K-bit label-set masks."""
    return ((masks[:, None] >> np.arange(K)) & 1).astype(bool)


# --------------------------------------------------------------------------- macro F1

def macro_f1_cells(cells: np.ndarray) -> np.ndarray:
    """Macro F1 (0 for a 0/0 label) of (..., K, K) tables, rows gold."""
    tp = np.diagonal(cells, axis1=-2, axis2=-1)
    den = cells.sum(axis=-2) + cells.sum(axis=-1)  # 2tp + fp + fn
    return np.mean(np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0), axis=-1)


def macro_f1(gold: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """Macro F1 of ``pred`` (shape (..., N), any leading batch axes) against ``gold`` (N,), by np.bincount."""
    pred = np.asarray(pred)
    lead = pred.shape[:-1]
    p = pred.reshape(-1, pred.shape[-1]).astype(np.int64, copy=False)
    b = p.shape[0]
    codes = gold * K + p + (np.arange(b) * (K * K))[:, None]
    cells = np.bincount(codes.ravel(), minlength=b * K * K).reshape(b, K, K)
    return macro_f1_cells(cells).reshape(lead)


def macro_f1_sets(gold_count: np.ndarray, gold: np.ndarray, pred: np.ndarray) -> float:
    """Multi-label macro F1 (AF) from (N, K) indicators: per label 2tp / (|gold| + |pred|), 0 for 0/0."""
    tp = np.count_nonzero(gold & pred, axis=0)
    den = gold_count + np.count_nonzero(pred, axis=0)
    return float(np.mean(np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)))


def p_of(hits: int, rounds: int) -> float:
    return (hits + 1) / (rounds + 1)


# --------------------------------------------------------------------------- clfeval

def count_single(gold: np.ndarray, a: np.ndarray, b: np.ndarray):
    """The counting step from int codes: one bincount of (gold, a, b) codes, then PairedCounts of the
    nonzero triples (label names as strings)."""
    from clfeval.count.paired import PairedCounts

    cnt = np.bincount((gold * K + a) * K + b, minlength=K ** 3)
    nz = np.flatnonzero(cnt)
    g, rest = np.divmod(nz, K * K)
    pa, pb = np.divmod(rest, K)
    return PairedCounts({(NAMES[x], NAMES[y], NAMES[z]): c
                         for x, y, z, c in zip(g.tolist(), pa.tolist(), pb.tolist(), cnt[nz].tolist())})


def count_multi(gold: np.ndarray, a: np.ndarray, b: np.ndarray):
    """The counting step for K-bit label-set masks: np.unique of one 60-bit code, then PairedCounts of
    canonical label-set tuples."""
    from clfeval.count.paired import PairedCounts

    codes, cnt = np.unique((gold << 40) | (a << 20) | b, return_counts=True)
    sets: dict[int, tuple[str, ...]] = {}

    def labelset(m: int) -> tuple[str, ...]:
        if m not in sets:
            sets[m] = tuple(NAMES[i] for i in range(K) if m >> i & 1)
        return sets[m]

    mask = (1 << 20) - 1
    return PairedCounts({(labelset(c >> 40), labelset((c >> 20) & mask), labelset(c & mask)): k
                         for c, k in zip(codes.tolist(), cnt.tolist())}, multilabel=True)


@dataclass
class Clf:
    """One clfeval engine timing (the repeat with the smallest total)."""
    case: str
    n: int
    count_s: float
    setup_s: float
    test_s: float
    repeats: int
    triples: int
    differing_triples: int
    differing_instances: int
    difference: float
    p: float

    @property
    def total(self) -> float:
        return self.count_s + self.setup_s + self.test_s


def time_clfeval(case: str, data: tuple[np.ndarray, np.ndarray, np.ndarray], repeats: int,
                 multi: bool = False) -> Clf:
    import clfeval
    from clfeval.infer.arrangement import Arrangements
    from clfeval.infer.significance import randomization_test
    from clfeval.scoring.statistics import ScoreFunction

    gold, a, b = data
    best: Clf | None = None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        paired = count_multi(gold, a, b) if multi else count_single(gold, a, b)
        t1 = time.perf_counter()
        template = ScoreFunction.of(clfeval.score(paired.system(1), scoring=clfeval.Scoring(labels=NAMES)))
        arr = Arrangements.of(paired, template, keys=[MACRO_F])  # as clfeval.compare: the tested metric only
        t2 = time.perf_counter()
        res = randomization_test(arr, [arr.f.index(MACRO_F)], rounds=ROUNDS, rng=np.random.default_rng(0),
                                 exact_limit=0)
        t3 = time.perf_counter()
        # the swap units are the triples where the two predictions differ, with their counts
        row = Clf(case, len(gold), t1 - t0, t2 - t1, t3 - t2, repeats, arr.n_types, len(arr.swap_counts),
                  int(arr.swap_counts.sum()), float(res.difference[0]), float(res.p_values[0]))
        if best is None or row.total < best.total:
            best = row
    assert best is not None
    return best


def time_clfeval_single_thread(data: tuple[np.ndarray, np.ndarray, np.ndarray], repeats: int) -> Clf | None:
    """The main case again with the BLAS thread pool limited to one thread (threadpoolctl), or None
    without threadpoolctl. OpenBLAS's idle worker threads spin for a while after each product, which
    costs the main thread its core when other processes share the machine."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    with threadpool_limits(limits=1, user_api="blas"):
        return time_clfeval("independent errors, BLAS limited to 1 thread", data, repeats)


@dataclass
class Api:
    """The public API end to end, or why it was skipped."""
    seconds: float | None
    repeats: int
    p: float | None
    difference: float | None
    reason: str


def time_clfeval_api(data: tuple[np.ndarray, np.ndarray, np.ndarray], repeats: int) -> Api:
    """``clfeval.compare(gold, {"A": a, "B": b}, metrics=["macro.f1"], test=clfeval.Test("ar", rounds=10000, seed=0))``
    end to end (counting included), best of ``repeats``. Skipped, with the reason printed, while the
    public API does not exist (or fails)."""
    import clfeval

    if not hasattr(clfeval, "compare"):
        reason = "skipped: this clfeval has no clfeval.compare yet"
        print(f"  clfeval.compare: {reason}", file=sys.stderr)
        return Api(None, 0, None, None, reason)
    gold, a, b = data
    best, result = float("inf"), None
    try:
        for i in range(repeats):
            gc.collect()
            t0 = time.perf_counter()
            out = clfeval.compare(gold, {"A": a, "B": b}, metrics=["macro.f1"],
                                  test=clfeval.Test("ar", rounds=ROUNDS, seed=0))
            best = min(best, time.perf_counter() - t0)
            if i == 0:
                result = out
    except Exception as exc:  # noqa: BLE001 - the API is new: report a failure, do not crash the benchmark
        reason = f"skipped: clfeval.compare raised {type(exc).__name__}: {exc}"
        print(f"  clfeval.compare: {reason}", file=sys.stderr)
        return Api(None, 0, None, None, reason)
    p = difference = None
    try:
        pair = result.pair("A", "B", "macro.f1")
        p, difference = float(pair.p_value), float(pair.difference)
    except Exception as exc:  # noqa: BLE001 - only the p-value read-out is best effort
        print(f"  clfeval.compare: could not read the p-value ({type(exc).__name__}: {exc})", file=sys.stderr)
    return Api(best, repeats, p, difference, "")


# --------------------------------------------------------------------------- competitors
# Each returns the p-value; the time is taken around the call. Inputs that a user would already hold
# (int codes, string lists) are prepared outside the timed call.

def numpy_per_instance(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int) -> float:
    """Per round: a swap mask over all N instances, both confusion matrices by np.bincount, macro F1."""
    rng = np.random.default_rng(seed)
    ca, cb = gold * K + a, gold * K + b
    kk = K * K
    observed = abs(macro_f1_cells(np.bincount(ca, minlength=kk).reshape(K, K))
                   - macro_f1_cells(np.bincount(cb, minlength=kk).reshape(K, K)))
    tol = TIE * max(1.0, observed)
    hits = 0
    for _ in range(rounds):
        swap = rng.integers(0, 2, len(ca), dtype=np.bool_)
        cells_a = np.bincount(np.where(swap, cb, ca), minlength=kk).reshape(K, K)
        cells_b = np.bincount(np.where(swap, ca, cb), minlength=kk).reshape(K, K)
        hits += abs(macro_f1_cells(cells_a) - macro_f1_cells(cells_b)) >= observed - tol
    return p_of(hits, rounds)


def numpy_per_instance_one_bincount(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int) -> float:
    """As :func:`numpy_per_instance`, but B's matrix is (A's + B's observed total) − A's: one bincount per round."""
    rng = np.random.default_rng(seed)
    ca, cb = gold * K + a, gold * K + b
    kk = K * K
    obs_a, obs_b = np.bincount(ca, minlength=kk).reshape(K, K), np.bincount(cb, minlength=kk).reshape(K, K)
    total = obs_a + obs_b
    observed = abs(macro_f1_cells(obs_a) - macro_f1_cells(obs_b))
    tol = TIE * max(1.0, observed)
    hits = 0
    for _ in range(rounds):
        swap = rng.integers(0, 2, len(ca), dtype=np.bool_)
        cells_a = np.bincount(np.where(swap, cb, ca), minlength=kk).reshape(K, K)
        hits += abs(macro_f1_cells(cells_a) - macro_f1_cells(total - cells_a)) >= observed - tol
    return p_of(hits, rounds)


def numpy_differing(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int) -> float:
    """Per round: a swap mask over the instances where a != b only; the others' (fixed) cells added."""
    rng = np.random.default_rng(seed)
    ca, cb = gold * K + a, gold * K + b
    kk = K * K
    same = a == b
    fixed = np.bincount(ca[same], minlength=kk).reshape(K, K)  # identical for A and B
    da, db = ca[~same], cb[~same]
    observed = abs(macro_f1_cells(fixed + np.bincount(da, minlength=kk).reshape(K, K))
                   - macro_f1_cells(fixed + np.bincount(db, minlength=kk).reshape(K, K)))
    tol = TIE * max(1.0, observed)
    hits = 0
    for _ in range(rounds):
        swap = rng.integers(0, 2, len(da), dtype=np.bool_)
        cells_a = fixed + np.bincount(np.where(swap, db, da), minlength=kk).reshape(K, K)
        cells_b = fixed + np.bincount(np.where(swap, da, db), minlength=kk).reshape(K, K)
        hits += abs(macro_f1_cells(cells_a) - macro_f1_cells(cells_b)) >= observed - tol
    return p_of(hits, rounds)


def _py_counts(pairs: list[tuple[str, str]]) -> tuple[dict, dict, dict]:
    tp: dict[str, int] = {}
    fp: dict[str, int] = {}
    fn: dict[str, int] = {}
    for g, p in pairs:
        if g == p:
            tp[g] = tp.get(g, 0) + 1
        else:
            fp[p] = fp.get(p, 0) + 1
            fn[g] = fn.get(g, 0) + 1
    return tp, fp, fn


def _py_macro_f(labels: list[str], tp: dict, fp: dict, fn: dict) -> float:
    total = 0.0
    for lab in labels:
        t = tp.get(lab, 0)
        den = 2 * t + fp.get(lab, 0) + fn.get(lab, 0)
        total += 2 * t / den if den else 0.0
    return total / len(labels)


def python_art_style(gold: list[str], a: list[str], b: list[str], rounds: int, seed: int) -> float:
    """art.py's way, in Python 3: the instances where the systems differ are shuffled one by one
    (random.random() < ½), each round's tp/fp/fn dictionaries rebuilt from the fixed counts of the
    others, then macro F1 from the dictionaries."""
    rnd = random.Random(seed)
    labels = sorted(set(gold) | set(a) | set(b))
    differ = [(g, x, y) for g, x, y in zip(gold, a, b) if x != y]
    fixed = _py_counts([(g, x) for g, x, y in zip(gold, a, b) if x == y])
    observed = abs(_py_macro_f(labels, *_py_counts(list(zip(gold, a))))
                   - _py_macro_f(labels, *_py_counts(list(zip(gold, b)))))
    tol = TIE * max(1.0, observed)
    hits = 0
    for _ in range(rounds):
        tp_a, fp_a, fn_a = (dict(d) for d in fixed)
        tp_b, fp_b, fn_b = (dict(d) for d in fixed)
        for g, x, y in differ:
            if rnd.random() < 0.5:
                x, y = y, x
            if g == x:
                tp_a[g] = tp_a.get(g, 0) + 1
            else:
                fp_a[x] = fp_a.get(x, 0) + 1
                fn_a[g] = fn_a.get(g, 0) + 1
            if g == y:
                tp_b[g] = tp_b.get(g, 0) + 1
            else:
                fp_b[y] = fp_b.get(y, 0) + 1
                fn_b[g] = fn_b.get(g, 0) + 1
        d = abs(_py_macro_f(labels, tp_a, fp_a, fn_a) - _py_macro_f(labels, tp_b, fp_b, fn_b))
        hits += d >= observed - tol
    return p_of(hits, rounds)


def scipy_permutation(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int, batch: int) -> float:
    """scipy.stats.permutation_test on the paired data (a, b), permutation_type='samples' (each
    instance's pair swapped or not), vectorized statistic |macro F1(A) − macro F1(B)| against the
    (index-aligned) gold, alternative='greater' on that absolute difference: p = (r + 1)/(R + 1)."""
    from scipy import stats

    def statistic(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        x, y = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
        return np.abs(macro_f1(gold, x) - macro_f1(gold, y))

    params = inspect.signature(stats.permutation_test).parameters
    rng = {"rng" if "rng" in params else "random_state": np.random.default_rng(seed)}
    res = stats.permutation_test((a, b), statistic, permutation_type="samples", vectorized=True, n_resamples=rounds,
                                 batch=batch, alternative="greater", **rng)
    return float(res.pvalue)


def mlxtend_permutation(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int) -> float:
    """mlxtend.evaluate.permutation_test(a, b, paired=True, method='approximate'): it swaps x[i] and
    y[i] per instance (a Python loop over all N) and calls ``func(x, y)``; macro F1 is expressible
    because the swap keeps positions, so ``func`` closes over the index-aligned gold."""
    from mlxtend.evaluate import permutation_test

    def func(x: np.ndarray, y: np.ndarray) -> float:  # mlxtend hands float copies
        return float(abs(macro_f1(gold, x.astype(np.int64)) - macro_f1(gold, y.astype(np.int64))))

    return float(permutation_test(a, b, func=func, method="approximate", num_rounds=rounds, seed=seed % 2 ** 32,
                                  paired=True))


def numpy_multilabel(gold: np.ndarray, a: np.ndarray, b: np.ndarray, rounds: int, seed: int) -> float:
    """Multi-label, per instance: (N, K) indicator matrices, a swap mask over all N per round, per-label
    tp by np.count_nonzero, macro F1 (AF)."""
    rng = np.random.default_rng(seed)
    gold_count = np.count_nonzero(gold, axis=0)
    observed = abs(macro_f1_sets(gold_count, gold, a) - macro_f1_sets(gold_count, gold, b))
    tol = TIE * max(1.0, observed)
    hits = 0
    for _ in range(rounds):
        swap = rng.integers(0, 2, len(gold), dtype=np.bool_)[:, None]
        d = (macro_f1_sets(gold_count, gold, np.where(swap, b, a))
             - macro_f1_sets(gold_count, gold, np.where(swap, a, b)))
        hits += abs(d) >= observed - tol
    return p_of(hits, rounds)


# --------------------------------------------------------------------------- measuring

@dataclass
class Run:
    """One competitor measurement: ``rounds`` rounds at N = ``n``, scaled to ROUNDS at N = ``n_target``."""
    name: str
    key: str  # which competitor (rows of one competitor share it)
    n: int
    rounds: int
    seconds: float
    repeats: int
    p: float
    n_target: int
    against: Clf  # clfeval on the same data (p-value check)
    linear_in_n: bool  # whether the cost at n_target is extrapolated from n (linear in N)

    @property
    def per_10k(self) -> float:
        """Seconds per ROUNDS rounds at the measured N."""
        return self.seconds * ROUNDS / self.rounds

    @property
    def per_10k_target(self) -> float:
        return self.per_10k * (self.n_target / self.n if self.linear_in_n else 1.0)

    @property
    def how(self) -> str:
        parts = [f"× {ROUNDS:,}/{self.rounds:,} rounds"]
        if self.n != self.n_target:
            parts.append(f"× {self.n_target:,}/{self.n:,} instances (linear in N)")
        return "measured" if self.rounds == ROUNDS and self.n == self.n_target else ", ".join(parts)


def measure(name: str, key: str, n: int, rounds: int, repeats: int, fn: Callable[..., float], args: tuple,
            n_target: int, against: Clf) -> Run:
    """Time ``fn(*args)`` (best of ``repeats``); its first result is the p-value."""
    best, p = float("inf"), float("nan")
    for i in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t0)
        if i == 0:
            p = out
    return Run(name, key, n, rounds, best, repeats, p, n_target, against, n != n_target)


# --------------------------------------------------------------------------- report

def secs(x: float) -> str:
    if x < 10:
        return f"{x:,.3f}"
    if x < 3600:
        return f"{x:,.1f}"
    return f"{x:,.0f} (≈ {x / 3600:,.1f} h)"


def agreement(p_theirs: float, rounds: int, clf: Clf) -> tuple[bool, float]:
    """|p − p_clfeval| within 4 Monte Carlo standard errors of the difference (binomial, at clfeval's
    p, both sides' rounds), plus one count of the smaller side."""
    p = min(max(clf.p, 1.0 / ROUNDS), 1 - 1.0 / ROUNDS)
    tol = 4 * np.sqrt(p * (1 - p) * (1 / rounds + 1 / ROUNDS)) + 1 / (rounds + 1)
    return abs(p_theirs - clf.p) <= tol, tol


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 10^5 for clfeval, tiny N and few rounds for the "
                                                             "competitors: a check that everything runs")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    log = lambda s: print(s, file=sys.stderr, flush=True)
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    quick = args.quick

    n_main = 10**5 if quick else 10**6  # clfeval's N, and the N every competitor is stated at
    n_mid = 10**4 if quick else 10**5  # competitors' second size
    n_small = 10**3 if quick else 10**4  # the pure Python loops' smaller size
    reps = 1 if quick else 3
    # rounds run per competitor (full / quick); each scaled to ROUNDS
    r_np_main, r_np_mid = (30, 100) if quick else (500, 1000)
    r_py_mid, r_py_small = (5, 100) if quick else (100, 400)
    r_scipy_main, r_scipy_mid = (20, 100) if quick else (100, 400)
    b_scipy_main, b_scipy_mid = (20, 50) if quick else (50, 200)
    r_ml = 5 if quick else 100

    sections: list[str] = []
    targets: list[str] = []
    checks: list[str] = []
    notes: list[str] = []

    def target(ok: bool, text: str) -> None:
        targets.append(f"- [{'x' if ok else ' '}] {'met' if ok else 'MISSED'}: {text}")

    # ---------------------------------------------------------------- 1. clfeval
    log(f"section 1: clfeval randomization_test, {ROUNDS:,} rounds, N={n_main:,}, best of {reps}")
    data = {n: independent(n) for n in sorted({n_main, n_mid, n_small})}
    clf = {}
    for n in sorted(data, reverse=True):
        clf[n] = time_clfeval("independent errors", data[n], reps if n == n_main else 1)
        c = clf[n]
        log(f"  N={n:>9,}: count {c.count_s:.4f} s, setup {c.setup_s:.4f} s, test {c.test_s:.4f} s; "
            f"{c.differing_triples:,} differing triples; d={c.difference:+.6f} p={c.p:.4f}")
    main_clf = clf[n_main]
    corr_data = correlated(n_main)
    clf_corr = time_clfeval("correlated errors", corr_data, reps)
    log(f"  correlated: total {clf_corr.total:.4f} s, {clf_corr.differing_triples:,} differing triples")
    ml_data = multilabel(n_main)
    clf_ml = time_clfeval("multi-label", ml_data, max(1, reps - 1), multi=True)
    log(f"  multi-label: total {clf_ml.total:.4f} s, {clf_ml.differing_triples:,} differing triples")
    api = time_clfeval_api(data[n_main], reps)
    if api.seconds is not None:
        log(f"  clfeval.compare end to end: {api.seconds:.4f} s, p={api.p}")

    # counting from Python lists of strings, for reference (what the counting costs without int codes)
    g_s, a_s, b_s = ([NAMES[x] for x in col.tolist()] for col in data[n_main])
    gc.collect()
    t0 = time.perf_counter()
    from clfeval.count.paired import PairedCounts
    PairedCounts(Counter(zip(g_s, a_s, b_s)))
    t_counter = time.perf_counter() - t0
    del g_s, a_s, b_s

    # ---------------------------------------------------------------- 2. competitors
    log("section 2: competitors")
    import mlxtend.evaluate  # noqa: F401 - imported before timing (mlxtend's import alone takes ~1 s)
    import scipy.stats
    runs: list[Run] = []

    def add(run: Run) -> None:
        runs.append(run)
        log(f"  {run.name[:60]:<60} N={run.n:>9,} {run.seconds:8.3f} s for {run.rounds:>5,} rounds "
            f"→ {run.per_10k_target:10.1f} s per {ROUNDS:,} at N={run.n_target:,}; p={run.p:.4f}")

    for n, r in ((n_mid, r_np_mid), (n_main, r_np_main)):
        g, a, b = data[n]
        add(measure("numpy per instance: swap mask over all N, 2 × np.bincount per round", "np", n, r, 1,
                    numpy_per_instance, (g, a, b, r, SEED), n_main, clf[n]))
    g, a, b = data[n_main]
    add(measure("numpy per instance, tuned: 1 × np.bincount per round (B = total − A)", "np1", n_main, r_np_main, 1,
                numpy_per_instance_one_bincount, (g, a, b, r_np_main, SEED), n_main, main_clf))
    for n, r in ((n_mid, r_np_mid), (n_main, r_np_main)):
        g, a, b = data[n]
        add(measure("numpy, differing instances only (as art.py), 2 × np.bincount per round", "npd", n, r, 1,
                    numpy_differing, (g, a, b, r, SEED), n_main, clf[n]))
    for n, r in ((n_small, r_py_small), (n_mid, r_py_mid)):
        g, a, b = ([NAMES[x] for x in col.tolist()] for col in data[n])
        add(measure("pure Python, art.py style: dict counts, differing instances one by one", "py", n, r, 1,
                    python_art_style, (g, a, b, r, SEED), n_main, clf[n]))
    for n, r, batch in ((n_mid, r_scipy_mid, b_scipy_mid), (n_main, r_scipy_main, b_scipy_main)):
        g, a, b = data[n]
        add(measure(f"scipy.stats.permutation_test(permutation_type='samples', vectorized, batch={batch})", "scipy",
                    n, r, 1, scipy_permutation, (g, a, b, r, SEED, batch), n_main, clf[n]))
    for n, r in ((n_small, r_py_small), (n_mid, r_py_mid)):
        g, a, b = data[n]
        add(measure("mlxtend.evaluate.permutation_test(paired=True, func=abs(ΔmacroF1))", "mlxtend", n, r, 1,
                    mlxtend_permutation, (g, a, b, r, SEED), n_main, clf[n]))
    g, a, b = corr_data
    add(measure("numpy, differing instances only — correlated-errors data", "npd-corr", n_main, r_np_main, 1,
                numpy_differing, (g, a, b, r_np_main, SEED), n_main, clf_corr))
    g, a, b = (indicator(x) for x in ml_data)
    add(measure("numpy per instance, multi-label: (N, K) indicators, swap mask over all N", "np-ml", n_main, r_ml, 1,
                numpy_multilabel, (g, a, b, r_ml, SEED), n_main, clf_ml))
    del g, a, b
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20

    # clfeval again after the competitors (other processes may share the cores: keep the best of all repeats)
    log("section 1, again: clfeval after the competitors")
    for first, case, data_case in ((main_clf, "independent errors", data[n_main]),
                                   (clf_corr, "correlated errors", corr_data)):
        again = time_clfeval(case, data_case, max(1, reps - 1))
        if again.total < first.total:
            first.count_s, first.setup_s, first.test_s = again.count_s, again.setup_s, again.test_s
        first.repeats += again.repeats
    single = time_clfeval_single_thread(data[n_main], reps)
    if single is not None:
        log(f"  BLAS limited to 1 thread: total {single.total:.4f} s")

    case_text = {
        "independent errors": f"{K} classes, independent errors",
        "correlated errors": f"{K} classes, correlated errors",
        "multi-label": f"{K} labels, multi-label sets",
        "independent errors, BLAS limited to 1 thread": f"{K} classes, independent errors, BLAS limited to 1 thread",
    }
    body = [[case_text[c.case], f"{c.n:,}", f"{c.triples:,}", f"{c.differing_triples:,}",
             f"{c.differing_instances:,}", f"{c.count_s:.4f}", f"{c.setup_s:.4f}", f"{c.test_s:.4f}",
             f"{c.total:.4f}", str(c.repeats), f"{c.difference:+.5f}", f"{c.p:.4f}"]
            for c in (main_clf, clf_corr, clf_ml) + ((single,) if single is not None else ())]
    if api.seconds is not None:
        body.append([f"`clfeval.compare` end to end ({K} classes, independent errors, int arrays)", f"{n_main:,}",
                     "", "", "", "", "", "", f"{api.seconds:.4f}", str(api.repeats),
                     "—" if api.difference is None else f"{api.difference:+.5f}",
                     "—" if api.p is None else f"{api.p:.4f}"])
    sections += [f"### 1. clfeval: approximate randomization of macro F1, {ROUNDS:,} rounds, N = {n_main:,}", "",
                 "Engine calls as in the module docstring: *count* = one `np.bincount` (multi-label: `np.unique`) of "
                 "combined (gold, A, B) codes into `PairedCounts`; *set-up* = `ScoreFunction.of(clfeval.score(…))` "
                 f"+ `Arrangements.of`; *test* = `randomization_test(…, rounds={ROUNDS:,}, exact_limit=0)`. Times "
                 f"in seconds, the repeat with the smallest total (reps column: {reps} before the competitors ran, "
                 f"{max(1, reps - 1)} after; multi-label {max(1, reps - 1)}; the 1-thread row {reps}).", ""]
    sections += md_table(["case", "N", "triples", "differing triples", "differing instances", "count s", "set-up s",
                          "test s", "total s", "reps", "d = F(A) − F(B)", "p"], body, set(range(1, 12)))
    if api.seconds is None:
        sections += [f"`clfeval.compare` end to end: {api.reason} (see `time_clfeval_api`).", ""]
    sections += ["Cases: *independent errors* — the data of section 2; *correlated errors* — an error goes to one "
                 "of the 3 classes after gold (mod 20), and B copies A's prediction with probability 0.5 (else "
                 "drawn like A); *multi-label* — gold is one uniform label plus, with probability 0.4, a second; "
                 "each system keeps each gold label with probability 0.9 and adds one uniform label with "
                 "probability 0.1, independently; macro F1 = mean of per-label F1 over the 20 labels.", ""]
    target(main_clf.test_s <= 1.5, f"{ROUNDS:,} rounds of macro F1 at N={n_main:,}, {K} classes, in about a second "
                                   f"(≤ 1.5 s): test {main_clf.test_s:.3f} s, end to end with counting "
                                   f"{main_clf.total:.3f} s")
    if single is not None:
        notes.append(f"The 1-thread row limits only the BLAS pool (threadpoolctl): {single.test_s:.3f} s for the test "
                     f"against {main_clf.test_s:.3f} s with the default pool ({blas_threads()}). In trials on this "
                     "2-core machine the two were equal when it was otherwise idle, and the default pool was about 2× "
                     "slower while other processes kept both cores busy (OpenBLAS's idle workers spin after each "
                     "product and take the core from the main thread); the ratios use the default pool.")
    notes.append(f"Counting from Python lists of {n_main:,} label strings instead (`PairedCounts(Counter(zip(gold, "
                 f"a, b)))`) takes {t_counter:.3f} s, against {main_clf.count_s:.4f} s from int codes; the ratios "
                 "use the int-code count, the form every competitor is given its data in.")


    # headline: one row per competitor at n_main — the largest N it was measured at
    order = ["np", "np1", "npd", "py", "scipy", "mlxtend", "npd-corr", "np-ml"]
    headline = []
    for key in order:
        rows = [r for r in runs if r.key == key]
        headline.append(max(rows, key=lambda r: r.n))
    denominators = {id(main_clf): "independent", id(clf_corr): "correlated", id(clf_ml): "multi-label"}
    body = []
    for r in headline:
        base = r.against if r.against.n == n_main else main_clf
        body.append([r.name, f"{r.n:,}", f"{r.rounds:,}", secs(r.seconds), r.how, secs(r.per_10k_target),
                     f"{base.total:.3f} ({denominators[id(base)]})", ratio_text(r.per_10k_target / base.total),
                     ratio_text(r.per_10k_target / base.test_s)])
    sections += [f"### 2. Time per {ROUNDS:,} rounds at N = {n_main:,}, and the ratio to clfeval", "",
                 f"Each competitor at the largest N it was run at, scaled to {ROUNDS:,} rounds at N = {n_main:,} as "
                 "stated (a single run each: these are minutes to hours, and their per-round cost is steady). "
                 "Ratio = competitor s / clfeval s on the same kind of data, clfeval end to end (count + set-up + "
                 "test, section 1); the last column divides by the test alone.", ""]
    sections += md_table(["competitor", "N run", "rounds run", "s run", "extrapolation",
                          f"s per {ROUNDS:,} at N={n_main:,}", "clfeval s", "ratio", "ratio (test only)"],
                         body, {1, 2, 3, 5, 6, 7, 8})

    body = []
    for r in runs:
        ok, tol = agreement(r.p, r.rounds, r.against)
        body.append([r.name, f"{r.n:,}", f"{r.rounds:,}", secs(r.seconds), secs(r.per_10k),
                     f"{r.against.total:.3f}", ratio_text(r.per_10k / r.against.total), f"{r.p:.4f}",
                     f"{r.against.p:.4f}", f"±{tol:.3f}", "yes" if ok else "NO"])
        checks.append(f"check (p-value, N={r.n:,}): {r.name}, {r.rounds:,} rounds: p = {r.p:.4f} vs clfeval "
                      f"{r.against.p:.4f} ({ROUNDS:,} rounds): {'agree' if ok else 'DIFFER'} within ±{tol:.3f}")
    sections += ["### 3. Every measurement, and the p-values", "",
                 f"At the N each was run at: seconds per {ROUNDS:,} rounds at that N (rounds scaled only), clfeval's "
                 "end-to-end time on the same data (best of the repeats at the largest N, a single run below it), the ratio, "
                 "and both p-values on the same data. Tolerance: 4 Monte Carlo standard errors of the difference "
                 "of two binomial estimates at clfeval's p (their rounds and clfeval's 10,000) plus 1/(R + 1).", ""]
    sections += md_table(["competitor", "N", "rounds", "s", f"s per {ROUNDS:,} at N", "clfeval s at N",
                          "ratio at N", "their p", "clfeval p", "tolerance", "agree"], body, set(range(1, 10)))

    by_key = {r.key: r for r in headline}
    ratio_np = by_key["np"].per_10k_target / main_clf.total
    target(ratio_np >= 100, f"≥ 100× faster than per-instance numpy at N={n_main:,} (clfeval end to end, counting "
                            f"included): {ratio_text(ratio_np)} (test alone: "
                            f"{ratio_text(by_key['np'].per_10k_target / main_clf.test_s)}; against the tuned "
                            f"one-bincount variant: {ratio_text(by_key['np1'].per_10k_target / main_clf.total)})")
    ratio_d = by_key["npd"].per_10k_target / main_clf.total
    target(ratio_d > 1, f"faster than numpy over the differing instances only at N={n_main:,}: {ratio_text(ratio_d)}"
                        f" (correlated errors: {ratio_text(by_key['npd-corr'].per_10k_target / clf_corr.total)})")

    # consistency checks: the observed differences agree with a direct numpy macro F1
    g, a, b = data[n_main]
    d_np = float(macro_f1(g, a) - macro_f1(g, b))
    checks.insert(0, f"check (observed difference, N={n_main:,}): clfeval d = {main_clf.difference:+.10f}, numpy "
                     f"bincount macro F1 d = {d_np:+.10f}: "
                     f"{'agree' if np.isclose(d_np, main_clf.difference, rtol=0, atol=1e-12) else 'DIFFER'}")
    G, A, B = (indicator(x) for x in ml_data)
    gold_count = np.count_nonzero(G, axis=0)
    d_ml = macro_f1_sets(gold_count, G, A) - macro_f1_sets(gold_count, G, B)
    del G, A, B
    checks.insert(1, f"check (observed difference, multi-label): clfeval d = {clf_ml.difference:+.10f}, numpy "
                     f"indicator macro F1 d = {d_ml:+.10f}: "
                     f"{'agree' if np.isclose(d_ml, clf_ml.difference, rtol=0, atol=1e-12) else 'DIFFER'}")
    if api.p is not None:
        ok = api.difference is not None and np.isclose(api.difference, main_clf.difference, atol=1e-12)
        same_p = "same p: seed 0 on both sides" if api.p == main_clf.p else "p from its own draws"
        checks.insert(2, f"check (public API): clfeval.compare d = {api.difference:+.10f}, p = {api.p:.4f} vs the "
                         f"engine's d = {main_clf.difference:+.10f}, p = {main_clf.p:.4f} "
                         f"({'same d' if ok else 'd DIFFERS'}; {same_p})")

    # linearity of the per-instance Python loops in N (the basis of their extrapolation)
    for key in ("py", "mlxtend"):
        small, large = sorted((r for r in runs if r.key == key), key=lambda r: r.n)
        per_small = small.seconds / small.rounds / small.n * 1e6
        per_large = large.seconds / large.rounds / large.n * 1e6
        notes.append(f"{large.name}: {per_small:.3f} µs per instance and round at N={small.n:,}, {per_large:.3f} µs "
                     f"at N={large.n:,}; the row in section 2 is scaled linearly from N={large.n:,} (if the cost per "
                     "instance keeps growing with N, as caches fill, the extrapolation flatters it).")
    sc_small, sc_large = sorted((r for r in runs if r.key == "scipy"), key=lambda r: r.n)
    notes.append(f"scipy.stats.permutation_test with permutation_type='samples' turns the two length-N samples into "
                 "N 'samples' of 2 observations and permutes each, looping over the N of them in Python once per "
                 "batch, and holds a (batch, N, 2) index array per batch; `batch` trades the two (batch=None would "
                 f"hold all {ROUNDS:,} rounds at once: {ROUNDS * n_main * 16 / 2 ** 30:.0f} GB of indices at "
                 f"N={n_main:,}). Measured {sc_small.per_10k:,.0f} s per {ROUNDS:,} at N={sc_small.n:,} "
                 f"(batch={b_scipy_mid}) and {sc_large.per_10k:,.0f} s at N={sc_large.n:,} (batch={b_scipy_main}, "
                 f"{-(-r_scipy_main // b_scipy_main)} batches). Its alternative='two-sided' on the signed difference would be "
                 "2·min(P(d* ≤ d), P(d* ≥ d)), a different p-value, so the statistic is |d| with "
                 "alternative='greater', which is exactly (r + 1)/(R + 1) with |d*| ≥ |d|.")
    notes.append("mlxtend.evaluate.permutation_test (paired=True, method='approximate') can express macro F1: its "
                 "func receives the swapped x and y (float copies, positions kept), so func = |macro F1(gold, x) − "
                 "macro F1(gold, y)| closes over gold. It swaps every one of the N instances in a Python loop each "
                 "round (numpy's randn > 0 for the coin), counts d* > d or np.isclose(d*, d) as extreme, and "
                 "returns (r + 1)/(R + 1).")
    notes.append("The pure Python row follows art.py (as described in the project's notes on the original scripts): "
                 "only instances where the systems differ are shuffled, one random.random() per instance, tp/fp/fn "
                 "dictionaries rebuilt each round from the fixed counts of the other instances; the labels are "
                 "Python strings, prepared outside the timed call (art.py read them from files).")
    notes.append("The numpy swap mask is rng.integers(0, 2, N, dtype=bool) (about 3× cheaper than "
                 "rng.random(N) < 0.5 at N=10^6). The 'tuned' per-instance row uses that A's and B's matrices always "
                 "sum to the observed A + B, so only A's needs a bincount per round.")
    notes.append(f"clfeval's cost grows with the number of differing triples (a (rounds × differing triples) "
                 f"binomial draw and a product with the triples' cell changes), not with N: "
                 f"{main_clf.differing_triples:,} differing triples for {K} classes with independent uniform errors "
                 f"(every possible (gold, a ≠ b) triple occurs at N={n_main:,}: the worst case for {K} classes), "
                 f"{clf_corr.differing_triples:,} with concentrated, correlated errors, "
                 f"{clf_ml.differing_triples:,} in the multi-label case (there the triples are label-set triples).")
    notes.append(f"Peak resident memory of the benchmark process: {peak_gb:.1f} GB (scipy at N={n_main:,}).")

    # ---------------------------------------------------------------- report
    import scipy

    import clfeval
    header = [
        "# clfeval compare benchmarks: approximate randomization",
        "",
        f"`python benchmarks/compare.py{' --quick' if quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"clfeval {clfeval.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"mlxtend {pkg_version('mlxtend')}; BLAS threads: {blas_threads()}; 1-min load average {load_before:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at end (other processes share the cores: compare rows within one run)",
        "",
        f"Statistic (every row): two-sided approximate randomization of d = macro F1(A) − macro F1(B) over {K} "
        "labels (0 for a 0/0 label), each instance's two predictions swapped with probability ½, "
        "p = (r + 1)/(R + 1). Data: seeded synthetic labels, gold uniform over 20 classes, each system = gold "
        "with probability 0.7 and otherwise uniform, the two systems' errors independent (other cases in "
        "section 1). Times: time.perf_counter, everything in one process, one script run.",
        "",
    ]
    if quick:
        targets.insert(0, "- (--quick: sizes and rounds are below the targets' own, so these say only that "
                          "everything runs; see a full run)")
    footer = (["### Targets", ""] + targets + ["", "### Checks", ""] + [f"- {c}" for c in checks]
              + ["", "### Notes", ""] + [f"- {n}" for n in notes])
    write_results(header, sections, footer, started, args.output, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
