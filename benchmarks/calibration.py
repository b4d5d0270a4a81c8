"""Calibration (size under the null) and power of clfeval's paired significance tests, by simulation.

    .venv/bin/python benchmarks/calibration.py            # full run, about 4 minutes on 2 cores;
                                                          # prints Markdown and writes docs/calibration.md
    .venv/bin/python benchmarks/calibration.py --quick    # tiny M and R: a smoke test (< 30 s), stdout only

What it measures: the rejection rate of the three paired tests of ``clfeval.infer.significance``,

- approximate randomization (``randomization_test``, R = 999 rounds; enumerated exactly when
  the swap patterns are few, which the library decides by itself),
- the paired bootstrap with the shifted-null p-value (``paired_bootstrap``, R = 999 resamples),
- McNemar's exact test (``mcnemar``; accuracy, or subset accuracy for multi-label),

each two-sided, at alpha = 0.05 and 0.01 (reject when p <= alpha), on the scores macro F1, micro
F1 and accuracy (multi-label: macro F1, micro F1, samples F1 and subset accuracy).

1. Null calibration. Systems A and B are drawn from the same distribution given gold, with
   errors independent of each other, so A and B are exchangeable within every instance: the
   null hypothesis of every test holds. A valid test rejects at most alpha of M data sets, up to
   Monte Carlo error (the 95% band alpha +- 1.96 sqrt(alpha (1 - alpha) / M) is printed).
2. Power. The same generators with A truly better; the rejection rate is the power.

Generators (all vectorised over the M data sets of a scenario):

- single-label, K classes with gold ~ Categorical(p); a system predicts gold with probability
  ``acc`` and otherwise a class drawn uniformly from the K - 1 wrong ones (so its accuracy is
  ``acc`` exactly in expectation);
- multi-label, 4 labels A-D present independently in gold with prevalences 0.5, 0.35, 0.2, 0.1
  (so about 23% of gold sets are empty); a system keeps each gold label with probability
  ``recall`` and adds each absent label with probability ``fp``, independently.

Reproducibility: the data of scenario s come from ``default_rng(SeedSequence([SEED, s]))`` (all
M data sets at once); the randomization test and the bootstrap of data set i use
``default_rng(SeedSequence([SEED, s, i, 0]))`` and ``[SEED, s, i, 1]``. Results do not depend on
the number of worker processes. The label set is declared (all K classes, or A-D) on every data
set, so a class missing from a small sample still counts in macro averages.
"""

from __future__ import annotations

import os

# One BLAS thread per worker process: the workers are the parallelism.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import itertools
import math
import multiprocessing as mp
import platform
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import clfeval
from clfeval.count.paired import PairedCounts
from clfeval.infer.arrangement import Arrangements
from clfeval.infer.significance import mcnemar, paired_bootstrap, randomization_test
from clfeval.scoring.statistics import ScoreFunction

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "docs" / "calibration.md"
COMMAND = ".venv/bin/python benchmarks/calibration.py"
SEED = 20250101
ALPHAS = (0.05, 0.01)
FULL = {"null": 2000, "power": 1000, "rounds": 999, "check": 20}
QUICK = {"null": 40, "power": 20, "rounds": 199, "check": 3}
#: Size of the tiny data sets of the brute-force check of exact enumeration.
CHECK_N = 10
#: Data sets handed to a worker at a time.
CHUNK = 25
#: A hand-written summary between these markers in an existing output file is kept when the file is rewritten.
SUMMARY_START, SUMMARY_END = "<!-- summary:start -->", "<!-- summary:end -->"
#: Everything from this line on in an existing output file (sections other scripts write, e.g.
#: benchmarks/scored_coverage.py's) is kept, after the new text, when the file is rewritten.
KEPT_MARKER = "<!-- kept: sections written by other scripts -->"

ML_LABELS = ("A", "B", "C", "D")
ML_PREVALENCE = np.array([0.5, 0.35, 0.2, 0.1])
SKEWED = (0.6, 0.2, 0.1, 0.07, 0.03)

SINGLE_SCORES = {"macro F1": ("averages", "macro", "f"), "micro F1": ("averages", "micro", "f"),
                 "accuracy": ("accuracy",)}
MULTI_SCORES = {"macro F1": ("averages", "macro", "f"), "micro F1": ("averages", "micro", "f"),
                "samples F1": ("averages", "samples", "f"), "subset accuracy": ("accuracy",)}
TESTS = ("AR", "bootstrap", "McNemar")


@dataclass(frozen=True)
class Scenario:
    sid: int
    part: str  # "null" or "power"
    name: str
    kind: str  # "single" or "multi"
    n: int
    probs: tuple[float, ...] = ()  # single-label gold distribution
    a: tuple[float, ...] = ()  # single: (acc,); multi: (recall, fp)
    b: tuple[float, ...] = ()

    @property
    def k(self) -> int:
        return len(self.probs) if self.kind == "single" else len(ML_LABELS)

    @property
    def labels(self) -> list[str]:
        return [str(i) for i in range(self.k)] if self.kind == "single" else list(ML_LABELS)

    @property
    def scores(self) -> dict[str, tuple]:
        return SINGLE_SCORES if self.kind == "single" else MULTI_SCORES

    def describe(self) -> str:
        if self.kind == "single":
            dist = "balanced" if len(set(self.probs)) == 1 else "p = [" + ", ".join(f"{p:g}" for p in self.probs) + "]"
            sys_ = (f"both accuracy {self.a[0]:g}" if self.a == self.b
                    else f"A accuracy {self.a[0]:g}, B accuracy {self.b[0]:g}")
            return f"single-label, {self.k} classes {dist}, N = {self.n}, {sys_}"
        sa, sb = ml_subset_accuracy(*self.a), ml_subset_accuracy(*self.b)
        if self.a == self.b:
            sys_ = f"both recall {self.a[0]:g}, fp {self.a[1]:g} per label (subset accuracy {sa:.3f})"
        else:
            sys_ = (f"A recall {self.a[0]:g}, fp {self.a[1]:g} (subset accuracy {sa:.3f}); "
                    f"B recall {self.b[0]:g}, fp {self.b[1]:g} ({sb:.3f})")
        return f"multi-label, 4 labels, N = {self.n}, {sys_}"


BALANCED5 = (0.2,) * 5
SCENARIOS = (
    Scenario(1, "null", "(a) balanced", "single", 200, BALANCED5, (0.7,), (0.7,)),
    Scenario(2, "null", "(b) skewed", "single", 500, SKEWED, (0.7,), (0.7,)),
    Scenario(3, "null", "(c) multi-label", "multi", 200, (), (0.8, 0.1), (0.8, 0.1)),
    Scenario(4, "null", "(d) small N", "single", 40, (1 / 3,) * 3, (0.7,), (0.7,)),
    Scenario(11, "power", "balanced, N = 500", "single", 500, BALANCED5, (0.75,), (0.7,)),
    Scenario(12, "power", "balanced, N = 2000", "single", 2000, BALANCED5, (0.75,), (0.7,)),
    Scenario(13, "power", "skewed, N = 500", "single", 500, SKEWED, (0.75,), (0.7,)),
    Scenario(14, "power", "skewed, N = 2000", "single", 2000, SKEWED, (0.75,), (0.7,)),
    Scenario(15, "power", "multi-label, N = 500", "multi", 500, (), (0.83, 0.09), (0.8, 0.1)),
    Scenario(16, "power", "multi-label, N = 2000", "multi", 2000, (), (0.83, 0.09), (0.8, 0.1)),
)
BY_ID = {s.sid: s for s in SCENARIOS}


def ml_subset_accuracy(recall: float, fp: float) -> float:
    """The expected subset accuracy of the multi-label generator (labels independent)."""
    return float(np.prod(ML_PREVALENCE * recall + (1 - ML_PREVALENCE) * (1 - fp)))


# --------------------------------------------------------------------------- data (vectorised)

def triple_counts(s: Scenario, m: int) -> np.ndarray:
    """(m, C³) counts of the triple codes (gold, A, B) of m data sets, C = classes or label-set codes."""
    rng = np.random.default_rng(np.random.SeedSequence([SEED, s.sid]))
    shape = (m, s.n)
    if s.kind == "single":
        c = s.k
        gold = rng.choice(c, size=shape, p=np.asarray(s.probs))

        def system(acc: float) -> np.ndarray:
            right = rng.random(shape) < acc
            wrong = (gold + rng.integers(1, c, shape)) % c
            return np.where(right, gold, wrong)
    else:
        c = 2 ** len(ML_LABELS)
        bits = 1 << np.arange(len(ML_LABELS))
        gold_bits = rng.random(shape + (len(ML_LABELS),)) < ML_PREVALENCE
        gold = gold_bits @ bits

        def system(recall: float, fp: float) -> np.ndarray:
            u = rng.random(gold_bits.shape)
            return np.where(gold_bits, u < recall, u < fp) @ bits
    a, b = system(*s.a), system(*s.b)
    code = (gold * c + a) * c + b + (c ** 3) * np.arange(m)[:, None]
    return np.bincount(code.ravel(), minlength=m * c ** 3).reshape(m, c ** 3)


def decode(s: Scenario, codes: np.ndarray, counts: np.ndarray) -> PairedCounts:
    """The PairedCounts of one data set from its nonzero triple codes."""
    if s.kind == "single":
        c = s.k
        name = [str(i) for i in range(c)]
    else:
        c = 2 ** len(ML_LABELS)
        name = [tuple(lab for j, lab in enumerate(ML_LABELS) if v >> j & 1) for v in range(c)]
    triples = Counter({(name[x // (c * c)], name[x // c % c], name[x % c]): int(n) for x, n in zip(codes, counts)})
    return PairedCounts(triples, multilabel=s.kind == "multi")


# --------------------------------------------------------------------------- the tests

def run_chunk(job: tuple[int, int, np.ndarray, int]) -> tuple[int, int, dict[str, np.ndarray]]:
    """The tests on a chunk of data sets: p-values (m, scores) for AR and bootstrap, (m,) McNemar, exactness."""
    sid, start, counts, rounds = job
    s = BY_ID[sid]
    keys = list(s.scores.values())
    m = len(counts)
    out = {"AR": np.empty((m, len(keys))), "bootstrap": np.empty((m, len(keys))), "McNemar": np.empty(m),
           "exact": np.zeros(m, dtype=bool), "difference": np.empty((m, len(keys)))}
    for i, row in enumerate(counts):
        codes = np.flatnonzero(row)
        paired = decode(s, codes, row[codes])
        template = ScoreFunction.of(clfeval.score(paired.system(1), scoring=clfeval.Scoring(labels=s.labels)))
        arr = Arrangements.of(paired, template)
        cols = [arr.f.index(k) for k in keys]
        seed = [SEED, sid, start + i]
        ar = randomization_test(arr, cols, rounds=rounds, rng=np.random.default_rng(np.random.SeedSequence(seed + [0])))
        bs = paired_bootstrap(arr, cols, rounds=rounds, rng=np.random.default_rng(np.random.SeedSequence(seed + [1])))
        out["AR"][i], out["bootstrap"][i], out["exact"][i] = ar.p_values, bs.p_values, ar.exact
        out["McNemar"][i] = mcnemar(paired).p_value
        out["difference"][i] = ar.difference
    return sid, start, out


def simulate(m_of: dict[str, int], rounds: int, workers: int) -> dict[int, dict[str, np.ndarray]]:
    jobs = []
    for s in SCENARIOS:
        m = m_of[s.part]
        counts = triple_counts(s, m)
        jobs += [(s.sid, start, counts[start:start + CHUNK], rounds) for start in range(0, m, CHUNK)]
    # biggest N first, so the pool is not left waiting on one slow chunk at the end
    jobs.sort(key=lambda j: -BY_ID[j[0]].n)
    parts: dict[int, list[tuple[int, dict[str, np.ndarray]]]] = {s.sid: [] for s in SCENARIOS}
    if workers > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            for sid, start, out in pool.imap_unordered(run_chunk, jobs):
                parts[sid].append((start, out))
    else:
        for job in jobs:
            sid, start, out = run_chunk(job)
            parts[sid].append((start, out))
    results = {}
    for sid, chunks in parts.items():
        chunks.sort(key=lambda x: x[0])
        results[sid] = {k: np.concatenate([c[k] for _, c in chunks]) for k in chunks[0][1]}
    return results


# --------------------------------------------------------------------------- references

def mcnemar_size(s: Scenario, alpha: float) -> float:
    """The exact rejection rate of McNemar's test under the null of scenario s (computed, not simulated).

    Given gold g each system is right with probability π_g, independently of the other, so an
    instance is discordant (exactly one right) with probability q = 2 E_g[π_g (1 − π_g)]
    (single-label: π_g = acc for every g; multi-label: π_g = Π_l (recall if l ∈ g else 1 − fp)).
    The discordant count D ~ Binomial(N, q) and, given D = d, only_a ~ Binomial(d, ½); the size is
    Σ_d P(D = d) · P(two-sided sign-test p ≤ α | d).
    """
    if s.kind == "single":
        q = 2 * s.a[0] * (1 - s.a[0])
    else:
        recall, fp = s.a
        q = 0.0
        for g in itertools.product((False, True), repeat=len(ML_LABELS)):
            present = np.array(g)
            prob_g = float(np.prod(np.where(present, ML_PREVALENCE, 1 - ML_PREVALENCE)))
            right = float(np.prod(np.where(present, recall, 1 - fp)))
            q += prob_g * 2 * right * (1 - right)
    log_q, log_r = math.log(q), math.log1p(-q)
    size = 0.0
    for d in range(s.n + 1):
        p_d = math.exp(math.lgamma(s.n + 1) - math.lgamma(d + 1) - math.lgamma(s.n - d + 1) + d * log_q
                       + (s.n - d) * log_r)
        if p_d < 1e-15:
            continue
        # P(p <= alpha | d): both tails up to the largest k with 2 P(X <= k) <= alpha
        cdf, k, tail = 0.0, 0, 0.0
        while k <= d:
            cdf += math.comb(d, k) / 2.0 ** d
            if min(1.0, 2 * cdf) > alpha + 1e-12:
                break
            tail = cdf
            k += 1
        size += p_d * min(1.0, 2 * tail)
    return size


def _brute_force_p(gold: list, a: list, b: list, s: Scenario) -> np.ndarray:
    """Exact two-sided AR p-values by swapping instances one by one and rescoring with ``clfeval.score``."""
    multilabel = s.kind == "multi"

    def scores(pred: list) -> np.ndarray:
        r = clfeval.score([list(x) for x in gold] if multilabel else gold,
                          [list(x) for x in pred] if multilabel else pred, multilabel=multilabel,
                          scoring=clfeval.Scoring(labels=s.labels))
        return np.array([r.accuracy if k == ("accuracy",) else r.averages[k[1]][k[2]] for k in s.scores.values()])

    observed = scores(a) - scores(b)
    differ = [i for i in range(len(gold)) if a[i] != b[i]]
    hits = np.zeros(len(observed))
    for bits in itertools.product((False, True), repeat=len(differ)):
        aa, bb = list(a), list(b)
        for i, swap in zip(differ, bits):
            if swap:
                aa[i], bb[i] = b[i], a[i]
        d = scores(aa) - scores(bb)
        hits += np.abs(d) >= np.abs(observed) - 1e-12 * np.maximum(1.0, np.abs(observed))
    return hits / 2 ** len(differ)


def exactness_check(data_sets: int, n: int = 10) -> dict[str, dict[str, tuple[int, float]]]:
    """Exact AR p-values of clfeval against the per-instance brute force, on tiny null data sets.

    For each generator (the null scenarios (c) and (d), at N = n) and score: (data sets whose
    p-values differ by more than 1e-9, the largest absolute difference).
    """
    out = {}
    for sid in (3, 4):
        base = BY_ID[sid]
        s = Scenario(base.sid + 100, "check", base.name, base.kind, n, base.probs, base.a, base.b)
        counts = triple_counts(s, data_sets)
        worst = {score: [0, 0.0] for score in s.scores}
        for row in counts:
            codes = np.flatnonzero(row)
            paired = decode(s, codes, row[codes])
            gold, a, b = (list(col) for col in zip(*[t for t, c in paired.triples.items() for _ in range(c)]))
            template = ScoreFunction.of(clfeval.score(paired.system(1), scoring=clfeval.Scoring(labels=s.labels)))
            arr = Arrangements.of(paired, template)
            ours = randomization_test(arr, [arr.f.index(k) for k in s.scores.values()], rounds=1,
                                      rng=np.random.default_rng(0))
            assert ours.exact
            ref = _brute_force_p(gold, a, b, s)
            for j, score in enumerate(s.scores):
                err = abs(float(ours.p_values[j]) - float(ref[j]))
                if err > 1e-9:
                    worst[score][0] += 1
                worst[score][1] = max(worst[score][1], err)
        out[f"{base.name.split(' ', 1)[1]} generator, N = {n}"] = {k: (v[0], v[1]) for k, v in worst.items()}
    return out


# --------------------------------------------------------------------------- report

def band(alpha: float, m: int) -> tuple[float, float]:
    half = 1.96 * math.sqrt(alpha * (1 - alpha) / m)
    return alpha - half, alpha + half


def rates(res: dict[str, np.ndarray], s: Scenario, alpha: float) -> dict[tuple[str, str], float]:
    """Rejection rate per (test, score); McNemar only on (subset) accuracy."""
    out = {}
    for j, score in enumerate(s.scores):
        out[("AR", score)] = float(np.mean(res["AR"][:, j] <= alpha))
        out[("bootstrap", score)] = float(np.mean(res["bootstrap"][:, j] <= alpha))
    acc = list(s.scores)[-1]
    out[("McNemar", acc)] = float(np.mean(res["McNemar"] <= alpha))
    return out


def _cell(rate: float | None, lo: float | None = None, hi: float | None = None) -> str:
    if rate is None:
        return "—"
    text = f"{rate:.3f}"
    if lo is not None and rate > hi + 1e-12:
        return f"**{text}** ▲"
    if lo is not None and rate < lo - 1e-12:
        return f"{text} ▼"
    return text


def null_table(results: dict, m: int) -> tuple[str, list[dict]]:
    lines = ["| Scenario | Score | " + " | ".join(f"{t} {a:g}" for a in ALPHAS for t in TESTS) + " |",
             "|---|---|" + "---:|" * (len(ALPHAS) * len(TESTS))]
    flat = []
    for s in SCENARIOS:
        if s.part != "null":
            continue
        by_alpha = {a: rates(results[s.sid], s, a) for a in ALPHAS}
        for score in s.scores:
            cells = []
            for a in ALPHAS:
                lo, hi = band(a, m)
                for t in TESTS:
                    r = by_alpha[a].get((t, score))
                    cells.append(_cell(r, lo, hi))
                    if r is not None:
                        flat.append({"scenario": s.name, "score": score, "test": t, "alpha": a, "rate": r,
                                     "lo": lo, "hi": hi})
            lines.append(f"| {s.name} | {score} | " + " | ".join(cells) + " |")
    return "\n".join(lines), flat


def power_table(results: dict, m: int) -> tuple[str, list[dict]]:
    alpha = ALPHAS[0]
    lines = ["| Scenario | Score | mean d | " + " | ".join(TESTS) + " |", "|---|---|---:|" + "---:|" * len(TESTS)]
    flat = []
    for s in SCENARIOS:
        if s.part != "power":
            continue
        r = rates(results[s.sid], s, alpha)
        mean_d = results[s.sid]["difference"].mean(axis=0)
        for j, score in enumerate(s.scores):
            cells = [_cell(r.get((t, score))) for t in TESTS]
            for t in TESTS:
                if (t, score) in r:
                    flat.append({"scenario": s.name, "score": score, "test": t, "rate": r[(t, score)]})
            lines.append(f"| {s.name} | {score} | {mean_d[j]:+.4f} | " + " | ".join(cells) + " |")
    return "\n".join(lines), flat


def null_sentence(flat: list[dict]) -> str:
    """One generated sentence on the null table: which cells leave the Monte Carlo band, and which way."""
    parts = []
    for t in TESTS:
        rows = [x for x in flat if x["test"] == t]
        above = [x for x in rows if x["rate"] > x["hi"] + 1e-12]
        below = [x for x in rows if x["rate"] < x["lo"] - 1e-12]
        at5 = [x["rate"] for x in rows if x["alpha"] == 0.05]
        text = f"{t} rejects {min(at5):.3f}–{max(at5):.3f} at α = 0.05"
        if above:
            text += (f", above the band in {len(above)} of {len(rows)} cells ("
                     + "; ".join(f"{x['scenario']} {x['score']} α={x['alpha']:g}: {x['rate']:.3f}" for x in above)
                     + ")")
        if below:
            text += (f", below it in {len(below)} of {len(rows)} cells ("
                     + "; ".join(f"{x['scenario']} {x['score']} α={x['alpha']:g}: {x['rate']:.3f}" for x in below)
                     + ")")
        if not above and not below:
            text += f", inside the band in all {len(rows)} cells"
        parts.append(text)
    return "Generated from the numbers: " + "; ".join(parts) + "."


def power_sentence(flat: list[dict]) -> str:
    parts = []
    for t in TESTS:
        rows = [x for x in flat if x["test"] == t]
        parts.append(f"{t} {min(x['rate'] for x in rows):.3f}–{max(x['rate'] for x in rows):.3f}")
    ar = {(x["scenario"], x["score"]): x["rate"] for x in flat if x["test"] == "AR"}
    bs = {(x["scenario"], x["score"]): x["rate"] for x in flat if x["test"] == "bootstrap"}
    diff = [bs[k] - ar[k] for k in ar]
    return ("Generated from the numbers: power at α = 0.05 ranges " + ", ".join(parts)
            + f"; bootstrap minus AR on the same score: {min(diff):+.3f} to {max(diff):+.3f} "
              f"(mean {np.mean(diff):+.3f}).")


def kept_summary(path: Path) -> str:
    if path.exists():
        text = path.read_text()
        if SUMMARY_START in text and SUMMARY_END in text:
            return text[text.index(SUMMARY_START):text.index(SUMMARY_END) + len(SUMMARY_END)]
    return f"{SUMMARY_START}\n(No hand-written summary yet.)\n{SUMMARY_END}"


def source_state() -> str:
    """The git commit of the library run, and whether src/ had uncommitted changes."""
    try:
        run = lambda *a: subprocess.run(["git", *a], cwd=HERE.parent, capture_output=True, text=True,
                                        check=True).stdout.strip()
        commit = run("rev-parse", "--short", "HEAD")
        dirty = bool(run("status", "--porcelain", "--", "src"))
    except (OSError, subprocess.CalledProcessError):
        return "git commit unknown"
    return f"git {commit}" + (", with uncommitted changes under src/" if dirty else "")


def report(results: dict, check: dict, cfg: dict, wall: float, workers: int, command: str,
           summary: str | None) -> str:
    m_null, m_power, rounds = cfg["null"], cfg["power"], cfg["rounds"]
    ntab, nflat = null_table(results, m_null)
    ptab, pflat = power_table(results, m_power)
    exact_lines = []
    for s in SCENARIOS:
        share = results[s.sid]["exact"].mean()
        if share > 0:
            exact_lines.append(f"{s.name}: {share:.1%}")
    lo5, hi5 = band(0.05, m_null)
    lo1, hi1 = band(0.01, m_null)
    out = [
        "# Calibration and power of clfeval's paired significance tests",
        "",
        (f"Produced by `{command}` (seeded, deterministic). "
        f"Machine: {os.cpu_count()} cores, {workers} worker process(es); Python {platform.python_version()}, "
        f"numpy {np.__version__}, clfeval {clfeval.__version__} ({source_state()}). "
        f"Run time: {wall / 60:.1f} min ({wall:.0f} s)."),
        "",
        ("Tests (all two-sided, reject when p ≤ α): **AR** = `randomization_test` (approximate randomization, "
        f"R = {rounds} rounds, p = (r + 1)/(R + 1); exact enumeration when Π(c_t + 1) ≤ 100,000 over the "
        "differing triples), **bootstrap** = `paired_bootstrap` (R = "
        f"{rounds} resamples, shifted-null p-value (1 + #{{|d* − d| ≥ |d|}})/(R + 1)), **McNemar** = `mcnemar` "
        "(exact binomial on the discordant pairs; accuracy, or subset accuracy for multi-label). "
        "Data generators and seeds: see the module docstring of `benchmarks/calibration.py`."),
        "",
        "## Scenarios",
        "",
    ]
    for s in SCENARIOS:
        out.append(f"- {s.part} {s.name}: {s.describe()}.")
    out += [
        "",
        "## 1. Null calibration (type I error)",
        "",
        (f"M = {m_null} data sets per scenario; A and B drawn from the same distribution given gold with "
        "independent errors (exchangeable), so every rejection is a false positive. Monte Carlo 95% band: "
        f"α = 0.05: [{lo5:.4f}, {hi5:.4f}] (0.05 ± {hi5 - 0.05:.4f}); α = 0.01: [{lo1:.4f}, {hi1:.4f}]. "
        "▲ (bold) = above the band (liberal), ▼ = below it (conservative). "
        "In single-label scenarios micro F1 equals accuracy (one prediction per instance, declared label set)."),
        "",
        ntab,
        "",
        "Share of data sets where AR enumerated every swap pattern (exact p-value): "
        + ("; ".join(exact_lines) if exact_lines else "none") + ".",
        "",
        "For reference, the exact size of McNemar's test under each null generator (computed from the "
        "binomial distributions, not simulated; see `mcnemar_size`), α = 0.05 / 0.01: "
        + "; ".join(f"{s.name}: {mcnemar_size(s, 0.05):.4f} / {mcnemar_size(s, 0.01):.4f}"
                    for s in SCENARIOS if s.part == "null")
        + ". AR on accuracy has the same discreteness (its swap distribution of the accuracy difference is the "
        "sign-test distribution of McNemar's discordant pairs).",
        "",
        null_sentence(nflat),
        "",
        "## 2. Power",
        "",
        (f"M = {m_power} data sets per scenario, A truly better; rejection rate at α = 0.05 "
        f"(Monte Carlo standard error at most ±{0.5 / math.sqrt(m_power):.3f}). "
        "*mean d* = mean observed score(A) − score(B) over the data sets."),
        "",
        ptab,
        "",
        power_sentence(pflat),
        "",
        "## 3. Exact enumeration against a per-instance brute force",
        "",
        (f"{check['data_sets']} tiny data sets (N = {check['n']}) from each of two null generators; on each, "
        "`randomization_test` enumerates every swap pattern (exact p-value), and the same p-value is computed by "
        "swapping instances one at a time and rescoring both systems with `clfeval.score`. The two must agree to "
        "rounding (≤ 1e-9)."),
        "",
        "| Generator | Score | data sets that disagree | largest \\|Δp\\| |",
        "|---|---|---:|---:|",
    ]
    bad = []
    for gen, per_score in check["results"].items():
        for score, (count, worst) in per_score.items():
            out.append(f"| {gen} | {score} | {count} / {check['data_sets']} | {worst:.2g} |")
            if count:
                bad.append(f"{score} ({gen}: {count} of {check['data_sets']}, up to {worst:.3g})")
    out += ["", "Generated from the numbers: " + (
        "the exact p-values disagree with the brute force for " + "; ".join(bad) + "." if bad
        else "every exact p-value agrees with the brute force."), ""]
    if summary is not None:
        out += ["## Summary", "", "Hand-written from this run's tables (kept when the script rewrites this file).",
                "", summary, ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny M and R; print only, write nothing")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    cfg = QUICK if args.quick else FULL
    t0 = time.perf_counter()
    results = simulate(cfg, cfg["rounds"], args.workers)
    check = {"data_sets": cfg["check"], "n": CHECK_N, "results": exactness_check(cfg["check"], CHECK_N)}
    wall = time.perf_counter() - t0
    command = COMMAND + (" --quick" if args.quick else "")
    summary = None if args.quick else kept_summary(args.out)
    text = report(results, check, cfg, wall, args.workers, command, summary)
    print(text)
    if not args.quick:
        old = args.out.read_text() if args.out.exists() else ""
        tail = old[old.find(KEPT_MARKER) :] if KEPT_MARKER in old else ""
        args.out.write_text(text + (f"\n{tail}" if tail else ""))
        print(f"\nwrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
