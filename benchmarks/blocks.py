"""clfeval block benchmarks: are sentence-level (block) tests calibrated, and how fast are they?

    python benchmarks/blocks.py            # full run (about 5 minutes on 2 cores)
    python benchmarks/blocks.py --quick    # few replications, small sizes: a fast check (< 1 minute)

Prints Markdown tables and writes the same text to ``benchmarks/blocks.md``.

1. Calibration. Tokens come in sentences; the two systems are equally good on average. In some
   scenarios their errors hang together within a sentence: in each sentence a fair coin picks the
   system that has the lower error rate there, for every token of that sentence. The null
   hypothesis (no difference) holds, but the tokens are not exchangeable one by one, only whole
   sentences are. For each of M replications, ``compare_counts(test="ar")`` is run with and without
   ``blocks=`` (R = 999 rounds, accuracy and macro F1); the sign test reported beside it gives the
   instance-level sign test (= McNemar's exact test) and the block-level sign test. The table gives
   each test's rejection rate at alpha = 0.05 (p <= alpha) with its Monte Carlo standard error.
2. Performance. Block-level approximate randomization, 10,000 rounds, on 10^5 sentences
   (about 2·10^6 tokens, 45 labels, two systems with about 5% independent errors), timed with
   ``compare_counts(..., test="ar", blocks=blocks)`` (median of 3) against a per-block Python loop
   reference (run for a few rounds and extrapolated linearly to 10,000); the instance-level test,
   the block bootstrap and the block sign test at the same size for context. Before that, on a
   smaller case, the reference loop's p-value is checked against clfeval's within Monte Carlo error.

Data: seeded synthetic labels, gold uniform over the labels; a system errs on a token with its
rate for that sentence, and then predicts one of the other labels uniformly. Nothing is cached.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import multiprocessing as mp
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import blas_threads, md_table, ratio_text, write_results

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "blocks.md"
SEED = 20240607
ALPHA = 0.05
TIE = 1e-12  # relative tolerance for |d*| >= |d| (clfeval's own)
METRICS = ["accuracy", "macro.f1"]


# --------------------------------------------------------------------------- data

@dataclass(frozen=True)
class Scenario:
    """How the two systems' per-sentence error rates are drawn: with probability ½ per sentence
    (a fair coin) A gets ``rate_a[0]`` and B ``rate_b[0]``, otherwise ``rate_a[1]`` and ``rate_b[1]``."""
    name: str
    rate_a: tuple[float, float]
    rate_b: tuple[float, float]
    description: str

    def rates(self, rng: np.random.Generator, n_sentences: int) -> tuple[np.ndarray, np.ndarray]:
        """Per-sentence error rates of A and B."""
        heads = rng.random(n_sentences) < 0.5
        return (np.where(heads, *self.rate_a), np.where(heads, *self.rate_b))


#: The calibration scenarios; every one has both systems' mean error rate 0.15.
SCENARIOS = [
    Scenario("independent errors (control)", (0.15, 0.15), (0.15, 0.15),
             "every token 15% for both systems, independently"),
    Scenario("shared difficulty (control)", (0.05, 0.25), (0.05, 0.25),
             "per sentence a coin makes it easy (5% for both systems) or hard (25% for both)"),
    Scenario("per-sentence advantage, mild", (0.10, 0.20), (0.20, 0.10),
             "per sentence a coin gives one system 10% and the other 20%"),
    Scenario("per-sentence advantage, strong", (0.05, 0.25), (0.25, 0.05),
             "per sentence a coin gives one system 5% and the other 25%"),
]


@dataclass
class Tokens:
    """Synthetic tagged sentences as int codes: each token's sentence, gold label and the two predictions."""
    block: np.ndarray
    gold: np.ndarray
    a: np.ndarray
    b: np.ndarray
    n_blocks: int
    k: int  # labels


def tokens(rng: np.random.Generator, n_sentences: int, lengths: tuple[int, int], k: int,
           rates: Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]) -> Tokens:
    """Sentences of uniform length in ``lengths`` (inclusive), gold uniform over ``k`` labels; each system
    errs on a token with its sentence's rate (from ``rates``) and then predicts another label uniformly."""
    length = rng.integers(lengths[0], lengths[1] + 1, n_sentences)
    block = np.repeat(np.arange(n_sentences), length)
    n = len(block)
    gold = rng.integers(0, k, n)
    rate_a, rate_b = rates(rng, n_sentences)

    def system(rate: np.ndarray) -> np.ndarray:
        wrong = rng.random(n) < rate[block]
        return np.where(wrong, (gold + rng.integers(1, k, n)) % k, gold)

    return Tokens(block, gold, system(rate_a), system(rate_b), n_sentences, k)


def independent_rates(rate: float) -> Callable[[np.random.Generator, int], tuple[np.ndarray, np.ndarray]]:
    """Both systems at ``rate`` in every sentence."""
    return lambda rng, m: (np.full(m, rate), np.full(m, rate))


def to_blocks(t: Tokens):
    """clfeval's ``Blocks`` (sentences × unique (gold, A, B) rows, with counts) and the ``JointCounts`` of the
    totals, from int codes: one np.unique of combined (sentence, gold, A, B) codes, one of the row codes."""
    from clfeval.count.blocks import Blocks
    from clfeval.count.joint import JointCounts

    k3 = t.k ** 3
    code = t.block.astype(np.int64) * k3 + (t.gold * t.k + t.a) * t.k + t.b
    unique, count = np.unique(code, return_counts=True)
    rows, row = np.unique(unique % k3, return_inverse=True)
    names = [f"T{i:02d}" for i in range(t.k)]
    keys = tuple((names[r // (t.k * t.k)], names[(r // t.k) % t.k], names[r % t.k]) for r in rows.tolist())
    blocks = Blocks(keys, row, unique // k3, count, t.n_blocks, "sentences")
    return blocks, JointCounts(("A", "B"), blocks.totals())


# --------------------------------------------------------------------------- 1. calibration

#: The tests whose rejection rates are recorded, in column order: (title, p-value from the two results).
TESTS: list[tuple[str, Callable]] = [
    ("instance AR, accuracy", lambda inst, blk: inst.pairs[0].p_value),
    ("block AR, accuracy", lambda inst, blk: blk.pairs[0].p_value),
    ("instance AR, macro F1", lambda inst, blk: inst.pairs[1].p_value),
    ("block AR, macro F1", lambda inst, blk: blk.pairs[1].p_value),
    ("instance sign (McNemar)", lambda inst, blk: inst.pairs[0].sign.p_value),
    ("block sign", lambda inst, blk: blk.pairs[0].sign.p_value),
]


@dataclass(frozen=True)
class CalibrationSetup:
    """The size of each simulated data set and of the tests."""
    sentences: int
    lengths: tuple[int, int]
    labels: int
    rounds: int
    replications: int


def replicate(job: tuple[int, int, CalibrationSetup]) -> tuple[int, int, list[float]]:
    """One replication: simulate a data set of scenario ``s``, run instance- and block-level AR; the p-values
    of ``TESTS``. Data and test seeds come from SeedSequence([SEED, s, i])."""
    from clfeval.infer.comparison import Test, compare_counts

    s, i, setup = job
    rng = np.random.default_rng(np.random.SeedSequence([SEED, s, i]))
    blocks, joint = to_blocks(tokens(rng, setup.sentences, setup.lengths, setup.labels, SCENARIOS[s].rates))
    seed = int(rng.integers(0, 2 ** 63))
    inst = compare_counts(joint, metrics=METRICS, test=Test("ar", rounds=setup.rounds, seed=seed))
    blk = compare_counts(joint, metrics=METRICS, test=Test("ar", rounds=setup.rounds, seed=seed), blocks=blocks)
    return s, i, [float(p(inst, blk)) for _, p in TESTS]


def _one_blas_thread() -> None:
    """Worker initializer: one BLAS thread per worker process (the workers are the parallelism)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(limits=1)


def simulate(setup: CalibrationSetup, workers: int, log: Callable[[str], None]) -> np.ndarray:
    """p-values of every test: an array (scenario, replication, test)."""
    jobs = [(s, i, setup) for s in range(len(SCENARIOS)) for i in range(setup.replications)]
    out = np.full((len(SCENARIOS), setup.replications, len(TESTS)), np.nan)
    step = max(1, len(jobs) // 10)
    t0 = time.perf_counter()

    def record(done: int, result: tuple[int, int, list[float]]) -> None:
        s, i, ps = result
        out[s, i] = ps
        if done % step == 0 or done == len(jobs):
            log(f"  {done:>5,}/{len(jobs):,} replications, {time.perf_counter() - t0:.0f} s")

    if workers > 1:
        with mp.get_context("fork").Pool(workers, initializer=_one_blas_thread) as pool:
            for done, result in enumerate(pool.imap_unordered(replicate, jobs, chunksize=20), 1):
                record(done, result)
    else:
        for done, job in enumerate(jobs, 1):
            record(done, replicate(job))
    return out


def rate_cell(p_values: np.ndarray) -> str:
    """Rejection rate at ALPHA ± its Monte Carlo standard error."""
    m = len(p_values)
    rate = float(np.mean(p_values <= ALPHA))
    return f"{rate:.3f} ± {math.sqrt(rate * (1 - rate) / m):.3f}"


def calibration_section(p: np.ndarray, setup: CalibrationSetup, workers: int, seconds: float) -> list[str]:
    """The Markdown of part 1: set-up, table, conclusion."""
    m = setup.replications
    half = 1.96 * math.sqrt(ALPHA * (1 - ALPHA) / m)
    tokens_mean = setup.sentences * (setup.lengths[0] + setup.lengths[1]) / 2
    body = [[s.name] + [rate_cell(p[i, :, j]) for j in range(len(TESTS))] for i, s in enumerate(SCENARIOS)]
    rates = {(i, j): float(np.mean(p[i, :, j] <= ALPHA)) for i in range(len(SCENARIOS)) for j in range(len(TESTS))}
    blocks_max = max(rates[i, j] for i in range(len(SCENARIOS)) for j in (1, 3, 5))
    strong = len(SCENARIOS) - 1
    inst_strong = [rates[strong, j] for j in (0, 2, 4)]
    lines = [f"### 1. Calibration: rejection rate at α = {ALPHA} when the two systems are equally good", "",
             f"Each of M = {m:,} replications per scenario is one synthetic data set of {setup.sentences} sentences "
             f"of {setup.lengths[0]}–{setup.lengths[1]} tokens (about {tokens_mean:,.0f} tokens), gold uniform over "
             f"{setup.labels} labels; a system errs on a token with its rate for that sentence and then predicts "
             "one of the other labels uniformly. Both systems' mean error rate is 0.15 in every scenario, and in "
             "each the two are exchangeable sentence by sentence, so the null hypothesis holds. Scenarios: "
             + "; ".join(f"*{s.name}* — {s.description}" for s in SCENARIOS) + ". "
             "Tests: `compare_counts(joint, metrics=[\"accuracy\", \"macro.f1\"], test=\"ar\", "
             f"rounds={setup.rounds})` "
             "without `blocks=` (instance-level: each token's two predictions swapped) and with it (block-level: "
             "whole sentences swapped); the sign tests are the `sign` cross-check of the same results (on "
             "instances it is McNemar's exact test; on blocks it counts the sentences where A gets more tokens "
             f"right against those where B does). Only {setup.rounds} randomization rounds per test (not 10,000), "
             "to keep "
             f"{len(SCENARIOS) * m:,} replications × 2 tests affordable ({seconds:.0f} s with {workers} worker "
             f"process(es)); with p = (r + 1)/(R + 1) the test stays exact at any R. Reject when p ≤ {ALPHA}. Cells: "
             f"rejection rate ± its Monte Carlo standard error √(r(1 − r)/M); a calibrated test's rate lies in "
             f"{ALPHA} ± {half:.3f} (95% of the time) or below.", ""]
    lines += md_table(["scenario"] + [t for t, _ in TESTS], body, set(range(1, len(TESTS) + 1)))
    band = ALPHA + half
    controls_max = max(rates[i, j] for i in (0, 1) for j in range(len(TESTS)))
    controls = (f"{'every' if controls_max <= band else 'NOT every'} test holds α "
                f"(largest rate {controls_max:.3f})")
    verdict = "hold" if blocks_max <= band else "do NOT all hold"
    sign_max = max(rates[i, 5] for i in range(len(SCENARIOS)))
    sign_text = (f" The block sign test stays below α (largest rate {sign_max:.3f}): it is exact on a discrete "
                 "statistic and leaves out the tied sentences, so it tends to be conservative, and it ignores by "
                 "how much a sentence favours a system." if sign_max < ALPHA else "")
    lines += [(f"Conclusion: with independent errors, and with a sentence difficulty both systems share, {controls}. "
              f"When the advantage between the systems changes from sentence to sentence — the errors of one "
              f"sentence hang together, the usual case for taggers — the instance-level tests over-reject: with "
              f"the strong per-sentence advantage instance-level AR rejects a true null {inst_strong[0]:.1%} "
              f"(accuracy) and {inst_strong[1]:.1%} (macro F1) of the time and McNemar's test "
              f"{inst_strong[2]:.1%}, against the nominal {ALPHA:.0%}, because they treat the ~{tokens_mean:,.0f} "
              f"tokens as independent evidence when the independent units are the {setup.sentences} sentences. "
              f"The block-level tests {verdict} α in every scenario (largest block-level rate "
              f"{blocks_max:.3f}).{sign_text}"), ""]
    return lines


# --------------------------------------------------------------------------- reference: block AR by a Python loop

def block_stats(t: Tokens, pred: np.ndarray) -> np.ndarray:
    """Per sentence, one system's counts as an (n_blocks, 3k + 1) int64 array: tp per label, fp per label,
    fn per label, correct tokens."""
    k, width = t.k, 3 * t.k + 1
    right = pred == t.gold
    columns = np.concatenate([t.gold[right],  # tp[gold]
                              3 * k + np.zeros(int(right.sum()), dtype=np.int64),  # correct
                              k + pred[~right],  # fp[pred]
                              2 * k + t.gold[~right]])  # fn[gold]
    owners = np.concatenate([t.block[right], t.block[right], t.block[~right], t.block[~right]])
    return np.bincount(owners * width + columns, minlength=t.n_blocks * width).reshape(t.n_blocks, width)


def scores(stats: np.ndarray, k: int, n: int) -> np.ndarray:
    """(accuracy, macro F1) from summed counts; a 0/0 label's F1 counts 0."""
    tp, fp, fn = stats[:k], stats[k:2 * k], stats[2 * k:3 * k]
    den = 2 * tp + fp + fn
    f1 = np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0)
    return np.array([stats[3 * k] / n, f1.mean()])


def reference_block_ar(t: Tokens, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Block-level approximate randomization, straightforwardly: per round a fair coin for each sentence where
    the systems differ, a Python loop over those sentences adding each one's numpy count vectors to A's and
    B's totals (swapped when the coin says so), then accuracy and macro F1. Returns the observed differences
    and the two-sided p-values (r + 1)/(R + 1), r = rounds with |d*| ≥ |d|."""
    rng = np.random.default_rng(seed)
    sa, sb = block_stats(t, t.a), block_stats(t, t.b)
    n = len(t.gold)
    differ = np.bincount(t.block, weights=t.a != t.b, minlength=t.n_blocks) > 0
    base = sa[~differ].sum(axis=0)  # = sb[~differ].sum(axis=0): the same predictions there
    pairs = list(zip(sa[differ], sb[differ]))
    observed = scores(sa.sum(axis=0), t.k, n) - scores(sb.sum(axis=0), t.k, n)
    tol = TIE * np.maximum(1.0, np.abs(observed))
    hits = np.zeros(2)
    for _ in range(rounds):
        coins = (rng.random(len(pairs)) < 0.5).tolist()
        total_a, total_b = base.copy(), base.copy()
        for swap, (x, y) in zip(coins, pairs):
            if swap:
                total_a += y
                total_b += x
            else:
                total_a += x
                total_b += y
        d = scores(total_a, t.k, n) - scores(total_b, t.k, n)
        hits += np.abs(d) >= np.abs(observed) - tol
    return observed, (hits + 1) / (rounds + 1)


# --------------------------------------------------------------------------- 2. performance

def clfeval_p(joint, blocks, test: str, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """clfeval's differences and p-values of (accuracy, macro F1)."""
    from clfeval.infer.comparison import Test, compare_counts

    r = compare_counts(joint, metrics=METRICS, test=Test(test, rounds=rounds, seed=seed), blocks=blocks)
    return np.array([x.difference for x in r.pairs]), np.array([x.p_value for x in r.pairs])


def agreement_check(sentences: int, rounds: int, log: Callable[[str], None]) -> tuple[list[str], bool]:
    """The reference loop against clfeval on a smaller case with a strong per-sentence advantage (so the block-
    and instance-level p-values differ): both p-values per metric, within 4·√(p(1 − p)/R)·√2."""
    t = tokens(np.random.default_rng(SEED + 1), sentences, (5, 35), 45, SCENARIOS[-1].rates)
    blocks, joint = to_blocks(t)
    d_ref, p_ref = reference_block_ar(t, rounds, SEED)
    d_clf, p_clf = clfeval_p(joint, blocks, "ar", rounds, SEED)
    _, p_inst = clfeval_p(joint, None, "ar", rounds, SEED)
    lines, ok_all = [], True
    for j, metric in enumerate(METRICS):
        tol = 4 * math.sqrt(p_clf[j] * (1 - p_clf[j]) / rounds) * math.sqrt(2)
        ok = abs(p_ref[j] - p_clf[j]) < tol and abs(d_ref[j] - d_clf[j]) < 1e-12
        ok_all &= ok
        line = (f"check ({metric}, {sentences:,} sentences, {len(t.gold):,} tokens, {rounds:,} rounds each): "
                f"observed d = {d_clf[j]:+.6f} (clfeval) vs {d_ref[j]:+.6f} (loop); block-level p = {p_clf[j]:.4f} "
                f"(clfeval) vs {p_ref[j]:.4f} (reference loop), |diff| {abs(p_ref[j] - p_clf[j]):.4f} < "
                f"{tol:.4f}: {'agree' if ok else 'DIFFER'} (instance-level p for contrast: {p_inst[j]:.4f})")
        log("  " + line)
        lines.append(line)
    return lines, ok_all


@dataclass
class Timing:
    """One timed contender: seconds (median of the repeats, or one run scaled), and how it was obtained."""
    name: str
    seconds: float
    how: str
    p: np.ndarray | None = None


def one_thread_available() -> bool:
    """Whether threadpoolctl is installed (to limit the BLAS pool)."""
    try:
        import threadpoolctl  # noqa: F401
    except ImportError:
        return False
    return True


def blas_limit(single: bool):
    """A context limiting the BLAS pool to one thread when ``single``, else doing nothing."""
    if not single:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def median_time(fn: Callable[[], object], repeats: int) -> tuple[float, object]:
    """The median wall time of ``repeats`` calls, and the first call's result."""
    times, first = [], None
    for i in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if i == 0:
            first = out
    return statistics.median(times), first


def performance(sentences: int, rounds: int, ref_rounds: int, repeats: int,
                log: Callable[[str], None]) -> tuple[list[Timing], dict[str, float]]:
    """Part 2: clfeval's block AR, instance AR, block bootstrap and block sign test at ``rounds`` rounds, and the
    reference loop at ``ref_rounds`` rounds scaled to ``rounds``."""
    from clfeval.infer.comparison import Test, compare_counts

    rng = np.random.default_rng(SEED + 2)
    t = tokens(rng, sentences, (5, 35), 45, independent_rates(0.05))
    t0 = time.perf_counter()
    blocks, joint = to_blocks(t)
    build = time.perf_counter() - t0
    facts = {"tokens": len(t.gold), "build": build, "entries": len(blocks.count), "rows": len(blocks.keys),
             "differing": int((np.bincount(t.block, weights=t.a != t.b, minlength=t.n_blocks) > 0).sum())}
    log(f"  {sentences:,} sentences, {len(t.gold):,} tokens, {len(blocks.count):,} block entries; "
        f"Blocks + JointCounts built in {build:.2f} s")
    rows = []
    contenders = [("clfeval block AR", "ar", blocks, False), ("clfeval instance AR", "ar", None, False),
                  ("clfeval block bootstrap", "bootstrap", blocks, False), ("clfeval block sign test", "sign", blocks,
                                                                             False)]
    if one_thread_available():
        contenders += [("clfeval block AR, BLAS limited to 1 thread", "ar", blocks, True),
                       ("clfeval block bootstrap, BLAS limited to 1 thread", "bootstrap", blocks, True)]
    for name, test, blk, single in contenders:
        metrics = ["accuracy"] if test == "sign" else METRICS
        with blas_limit(single):
            call = functools.partial(compare_counts, joint, metrics=metrics, test=Test(test, rounds=rounds, seed=1),
                                     blocks=blk)
            secs, res = median_time(call, repeats)
        rows.append(Timing(name, secs, f"measured, median of {repeats}",
                           np.array([x.p_value for x in res.pairs])))
        log(f"  {name}: {secs:.3f} s (median of {repeats}), p = {rows[-1].p.round(4).tolist()}")
    t0 = time.perf_counter()
    _, p_ref = reference_block_ar(t, ref_rounds, SEED)
    secs = time.perf_counter() - t0
    rows.append(Timing("reference per-block Python loop (block AR)", secs * rounds / ref_rounds,
                       f"extrapolated: {secs:.2f} s for {ref_rounds} rounds × {rounds:,}/{ref_rounds}", p_ref))
    log(f"  reference loop: {secs:.2f} s for {ref_rounds} rounds -> {rows[-1].seconds:,.0f} s per {rounds:,}")
    return rows, facts


def ratio_cell(x: float) -> str:
    """A time ratio; below 0.1 with two significant digits (``ratio_text`` would round it to 0.0×)."""
    return f"{x:.2g}×" if x < 0.1 else ratio_text(x)


def performance_section(rows: list[Timing], facts: dict[str, float], sentences: int, rounds: int,
                        ref_rounds: int, checks: list[str]) -> list[str]:
    """The Markdown of part 2."""
    clf = rows[0]
    body = []
    for r in rows:
        p = "—" if r.p is None else " / ".join(f"{x:.4f}" for x in r.p)
        body.append([r.name, f"{r.seconds:,.3f}" if r.seconds < 100 else f"{r.seconds:,.0f}", r.how, p,
                     ratio_cell(r.seconds / clf.seconds)])
    ref = next(r for r in rows if r.name.startswith("reference"))
    lines = [f"### 2. Performance: block-level AR, {rounds:,} rounds, {sentences:,} sentences", "",
             (f"Data: {sentences:,} sentences of 5–35 tokens ({facts['tokens']:,} tokens), gold uniform over 45 "
             "labels, each system wrong on 5% of tokens (then another label uniformly), the two independently; "
             f"{facts['differing']:,} sentences where the systems differ; `Blocks` has {facts['entries']:,} "
             f"entries over {facts['rows']:,} unique (gold, A, B) rows (built from int codes with two `np.unique` "
             f"calls in {facts['build']:.2f} s, not in the times below). Every clfeval row is one "
             f"`compare_counts(joint, metrics=[\"accuracy\", \"macro.f1\"], test=…, rounds={rounds:,}, seed=1, "
             "blocks=…)` call (the sign test: accuracy only), which includes building the `Arrangements`; wall "
             "time, median of the repeats. The reference is a plain per-block loop: per round one fair coin per "
             "differing sentence, and a Python loop over those sentences adding the sentence's per-label "
             "tp/fp/fn and correct-token count vectors (numpy, precomputed) to A's and B's totals, swapped or "
             f"not, then accuracy and macro F1; it ran {ref_rounds} rounds and is extrapolated linearly to "
             f"{rounds:,} (its p-values come from those {ref_rounds} rounds only, so they are coarse). The rows "
             "'BLAS limited to 1 thread' repeat two calls inside threadpoolctl's `threadpool_limits(1, "
             "user_api=\"blas\")`: OpenBLAS's idle worker threads spin after each matrix product and take a core "
             "from the main thread when other processes keep the cores busy (see the load average above). p: "
             "accuracy / macro F1 (sign test: accuracy). Ratio = row s / clfeval block AR s (default BLAS pool)."),
             ""]
    lines += md_table(["contender", f"s per {rounds:,} rounds", "how", "p (acc / macro F1)", "ratio"], body,
                      {1, 4})
    lines += [(f"clfeval's block-level AR is {ratio_text(ref.seconds / clf.seconds)} faster than the per-block "
              f"loop ({clf.seconds:.2f} s against an extrapolated {ref.seconds:,.0f} s)."), ""]
    single = {r.name: r.seconds for r in rows if r.name.endswith("limited to 1 thread")}
    boot = next(r for r in rows if r.name == "clfeval block bootstrap")
    if single:
        lines += [(f"The block bootstrap took {boot.seconds:.1f} s with the default BLAS pool and "
                  f"{single['clfeval block bootstrap, BLAS limited to 1 thread']:.1f} s with one BLAS thread; block "
                  f"AR {clf.seconds:.2f} s and {single['clfeval block AR, BLAS limited to 1 thread']:.2f} s."), ""]
    lines += [("Check of the reference loop against clfeval first (a smaller case with a strong per-sentence "
              "advantage, independent seeds, so the p-values agree only within Monte Carlo error):"), ""]
    lines += [f"- {c}" for c in checks] + [""]
    return lines


# --------------------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few replications and small sizes: a smoke run")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes for the calibration simulation (default: %(default)s)")
    parser.add_argument("--replications", type=int, default=None, help="per scenario (default 2000; quick 40)")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    quick = args.quick

    setup = CalibrationSetup(sentences=400, lengths=(10, 30), labels=10, rounds=199 if quick else 999,
                             replications=args.replications or (40 if quick else 2000))
    perf_sentences = 10 ** 4 if quick else 10 ** 5
    rounds = 10_000
    ref_rounds = 3 if quick else 30
    repeats = 1 if quick else 3
    check_sentences, check_rounds = (500, 500) if quick else (2000, 2000)

    log(f"part 1: calibration, {len(SCENARIOS)} scenarios × {setup.replications:,} replications, "
        f"{args.workers} worker(s)")
    t0 = time.perf_counter()
    p = simulate(setup, args.workers, log)
    sections = calibration_section(p, setup, args.workers, time.perf_counter() - t0)

    log(f"part 2: check of the reference loop ({check_sentences:,} sentences, {check_rounds:,} rounds)")
    checks, ok = agreement_check(check_sentences, check_rounds, log)
    log(f"part 2: performance, {perf_sentences:,} sentences, {rounds:,} rounds")
    rows, facts = performance(perf_sentences, rounds, ref_rounds, repeats, log)
    sections += performance_section(rows, facts, perf_sentences, rounds, ref_rounds, checks)

    import clfeval
    header = [
        "# clfeval block benchmarks: sentence-level significance tests",
        "",
        (f"`python benchmarks/blocks.py{' --quick' if quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"clfeval {clfeval.__version__}, numpy {np.__version__}; BLAS threads: {blas_threads()}; 1-min load "
        f"average {load_before:.2f} at start, {os.getloadavg()[0]:.2f} at end (other processes share the cores: "
        "compare rows within one run)"),
        "",
        ("Blocks are sentences: block-level tests swap (AR) or resample (bootstrap) whole sentences, or count "
        "sentences (sign test), instead of tokens. Data: seeded synthetic labels (see each part). Times: "
        "time.perf_counter, one script run."),
        "",
    ]
    footer = [] if ok else ["**The reference loop's p-value DIFFERS from clfeval's beyond Monte Carlo error.**"]
    if quick:
        footer.append("(--quick: few replications and small sizes; the numbers only show that everything runs.)")
    write_results(header, sections, footer, started, args.output, log)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
