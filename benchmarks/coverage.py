"""Empirical coverage of clfeval's 95% confidence intervals: Takahashi et al. (2022)'s simulation, a rare class
and a near-perfect classifier.

    .venv/bin/python benchmarks/coverage.py --workers 1                  # full run (writes docs/coverage.md)
    .venv/bin/python benchmarks/coverage.py --quick                      # T=200 tables, 200 resamples: a smoke test
    .venv/bin/python benchmarks/coverage.py --measures new --workers 1   # issue 19's measures only (about 25 min)

Design. Three families of scenarios, each a table p of true cell probabilities [gold, predicted]:

- Takahashi, Yamamoto, Kuchiba and Koyama 2022, "Confidence interval for micro-averaged F1 and macro-averaged
  F1 scores", Applied Intelligence, their section 4: three classes, three scenarios (1–3), sample sizes n in
  {25, 50, 100, 500, 1000, 5000}.
- Rare class (scenario 4): ten classes with Zipf-like prevalences (proportional to 1/k, together 0.99) and an
  eleventh class of prevalence 0.01; every class is predicted right with probability 0.8, and an error goes to
  another class with probability proportional to that class's prevalence.
- Near-perfect (scenario 5): four classes of prevalence 0.25, each predicted right with probability 0.99, an
  error going to each of the other three classes alike.

Scenarios 4 and 5 use n in {50, 200, 500, 1000, 2000, 3000, 5000}. For each scenario and n, T tables of counts are
drawn from Multinomial(n, p); on each table every interval method gives a 95% interval for micro F1 (miF1),
macro F1 as the mean of per-class F1 (maF1, "AF"), macro F1 as the harmonic mean of macro precision and macro
recall (maF1*, "FA"), and the precision and recall of the scenario's rarest class (class 2 in scenarios 1–3,
11 in 4, 4 in 5), which also get their Wilson intervals. The label set is declared (every class of the
scenario) on every table. Coverage is the share of tables whose interval contains the true value (the score of
the probability table itself); a table where the interval is not estimable counts as a miss, and the share of
such tables is reported separately. A call of clfeval that raises an exception counts as not estimable too; how
often that happened is reported per scenario, n and method. Mean widths are over estimable intervals.

Every table also records its observed counts (the smallest gold support and the smallest predicted count over
the label set, and the number of errors), so that a warning rule on observed counts (RULES) can be checked: the
share of tables it flags, and the coverage of the tables it flags and does not flag. The report also lists
coverage against the cells' expected counts, and exact binomial coverage of the accuracy's and of a per-label
share's intervals against expected errors and trials.

New measures (``--measures new``, issue 19). The same scenarios, sizes, tables and bootstrap seeds (T = 1000
tables per cell by default, which are the first 1000 of the main study's tables of the cell, and 1000 resamples),
scored for the measures issue 19 added to the registry (NEW_MEASURES): MCC, Cohen's κ and its linear and
quadratic weighted forms, balanced accuracy (plain and adjusted), the Hamming loss, macro Jaccard and macro
specificity, and the focus class's NPV, Jaccard, FPR and FNR, by the methods of --methods (default all four). Their
true values are computed directly from p (new_true_values) and checked against clfeval on round(p × 10⁹). The
run writes only its own section of docs/coverage.md, between NEW_START and NEW_END (a hand-written summary between
NEW_SUMMARY_START and NEW_SUMMARY_END is kept), and a run of the main study keeps that section, and everything from
the line KEPT_MARKER on (sections other scripts write, e.g. benchmarks/span_coverage.py's). --sizes restricts
it to some n. Its report also checks the simulated coverage of the Hamming loss and of the focus class's NPV,
Jaccard, FPR and FNR (each one binomial share) against their exact coverage.

Reproducibility: tables of scenario s and size n come from numpy's default_rng seeded with
SeedSequence([SEED, s, n]); the bootstrap of table t uses the seed
SeedSequence([SEED, s, n, t]).generate_state(1)[0] (the same for the percentile and BCa intervals). Results
therefore do not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import pickle
import platform
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# One BLAS thread per process, so that --workers 1 keeps to one core (set before numpy is imported).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import clfeval  # noqa: E402
from clfeval.infer.intervals import with_intervals  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "docs" / "coverage.md"
SEED = 20220516
CONFIDENCE = 0.95
TAKAHASHI, RARE, NEAR_PERFECT = "Takahashi", "rare class", "near-perfect"
TAKAHASHI_SIZES = (25, 50, 100, 500, 1000, 5000)
NEW_SIZES = (50, 200, 500, 1000, 2000, 3000, 5000)
#: (tables, resamples) per cell: Takahashi's scenarios, the new ones; --quick uses QUICK for both.
FULL = {TAKAHASHI: (2000, 2000), RARE: (2000, 1000), NEAR_PERFECT: (2000, 1000)}
QUICK_TABLES, QUICK_RESAMPLES = 200, 200
#: Chunk of tables handed to one worker at a time.
CHUNK = 100
#: Tolerance of the containment test (true values and estimates are ratios computed in floating point).
TOL = 1e-12
#: A hand-written summary between these markers in an existing output file is kept when the file is rewritten.
SUMMARY_START, SUMMARY_END = "<!-- summary:start -->", "<!-- summary:end -->"
#: The proposed warning rule: warn when the smallest gold support or the smallest predicted count of any label of
#: the label set is below A, or when the number of errors (off-diagonal count) is below B; (A, B) per method.
RULES = {"delta": (30, 50), "delta-logit": (30, 50), "bootstrap": (30, 50), "bootstrap-bca": (10, 10)}
#: Thresholds (A, B) tried on the cells' expected counts, besides those of RULES.
THRESHOLDS = ((5, 5), (10, 5), (10, 10), (20, 20), (30, 30), (30, 50), (50, 50))
#: Per-cell coverage of flagged and unflagged tables is shown in brackets when there are fewer tables than this.
MIN_UNFLAGGED = 100


def _zipf_rare() -> tuple[np.ndarray, float]:
    k = np.arange(1, 11)
    prevalence = np.append(0.99 * (1 / k) / (1 / k).sum(), 0.01)
    return prevalence, 0.8


def confusion(prevalence: np.ndarray, accuracy: float) -> np.ndarray:
    """[gold, predicted]: class i is predicted right with probability ``accuracy``; an error goes to class j ≠ i
    with probability proportional to j's prevalence."""
    prevalence = np.asarray(prevalence, dtype=float)
    p = np.empty((len(prevalence), len(prevalence)))
    for i, pi in enumerate(prevalence):
        p[i] = pi * (1 - accuracy) * prevalence / (1 - pi)
        p[i, i] = pi * accuracy
    return p


@dataclass(frozen=True)
class Scenario:
    key: int  # the scenario number in the seeds
    family: str
    name: str
    p: np.ndarray  # true cell probabilities [gold, predicted]
    focus: str  # the label whose precision and recall are scored (the rarest)
    sizes: tuple[int, ...]
    paper: np.ndarray | None = None  # as printed by Takahashi et al. (rows = predicted, columns = true)
    stated: tuple[float, float, float] | None = None  # the paper's stated (miF1, maF1, maF1*)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(str(i + 1) for i in range(len(self.p)))

    def expected_counts(self, n: int) -> tuple[float, float, float]:
        """n × (smallest gold prevalence, smallest predicted-class probability, 1 − accuracy)."""
        return (n * float(self.p.sum(axis=1).min()), n * float(self.p.sum(axis=0).min()),
                n * float(1 - np.trace(self.p)))


# The paper's tables: rows = predicted, columns = true.
PAPER_TABLES = {
    1: np.full((3, 3), 0.1 / 3) + np.eye(3) * (0.8 / 3 - 0.1 / 3),
    2: np.array([[0.64, 0.03, 0.03], [0.08, 0.04, 0.03], [0.08, 0.03, 0.04]]),
    3: np.array([[0.32, 0.01, 0.01], [0.24, 0.08, 0.01], [0.24, 0.01, 0.08]]),
}
SCENARIOS: dict[int, Scenario] = {
    1: Scenario(1, TAKAHASHI, "balanced: P = R = 0.8 for every class", np.ascontiguousarray(PAPER_TABLES[1].T), "2",
                TAKAHASHI_SIZES, PAPER_TABLES[1], (0.80, 0.80, 0.80)),
    2: Scenario(2, TAKAHASHI, "one dominant class with high precision and high recall",
                np.ascontiguousarray(PAPER_TABLES[2].T), "2", TAKAHASHI_SIZES, PAPER_TABLES[2], (0.72, 0.50, 0.51)),
    3: Scenario(3, TAKAHASHI, "one dominant class with high precision and low recall",
                np.ascontiguousarray(PAPER_TABLES[3].T), "2", TAKAHASHI_SIZES, PAPER_TABLES[3], (0.48, 0.44, 0.55)),
    4: Scenario(4, RARE, "ten Zipf-like classes and a class of prevalence 0.01, per-class recall 0.8",
                confusion(*_zipf_rare()), "11", NEW_SIZES),
    5: Scenario(5, NEAR_PERFECT, "four balanced classes, accuracy 0.99", confusion(np.full(4, 0.25), 0.99), "4",
                NEW_SIZES),
}

SCORE_NAMES = ("miF1", "maF1", "maF1*", "P", "R")
SCORE_TITLES = {
    "miF1": "miF1 (micro F1; clfeval `averages.micro.f`)",
    "maF1": "maF1 (macro F1 = mean of per-class F1, \"AF\"; clfeval `averages.macro.f`)",
    "maF1*": "maF1* (macro F1 = harmonic mean of macro P and macro R, \"FA\"; clfeval `averages.macro_fa.f`)",
    "P": "Precision of the rarest class (class 2 in scenarios 1–3, 11 in 4, 4 in 5; clfeval "
         "`per_label.<label>.precision`; Wilson: `per_label.<label>.precision_wilson`)",
    "R": "Recall of the rarest class (class 2 in scenarios 1–3, 11 in 4, 4 in 5; clfeval "
         "`per_label.<label>.recall`; Wilson: `per_label.<label>.recall_wilson`)",
}
METHODS = ("delta", "delta-logit", "bootstrap", "bootstrap-bca")
#: Columns of the result arrays: the four methods, then the Wilson interval (precision and recall only).
COLUMNS = METHODS + ("wilson",)
PER_LABEL = {"P": "precision", "R": "recall"}


def score_keys(sc: Scenario) -> list[tuple[str, ...]]:
    return [("averages", "micro", "f"), ("averages", "macro", "f"), ("averages", "macro_fa", "f"),
            ("per_label", sc.focus, "precision"), ("per_label", sc.focus, "recall")]


def true_values(sc: Scenario) -> dict[str, float]:
    """The scores of a [gold, predicted] probability table, computed directly."""
    p = sc.p
    diag = np.diag(p)
    gold, pred = p.sum(axis=1), p.sum(axis=0)
    precision, recall = diag / pred, diag / gold
    f1 = 2 * diag / (gold + pred)
    ma_p, ma_r = precision.mean(), recall.mean()
    i = sc.labels.index(sc.focus)
    return {"miF1": float(diag.sum()), "maF1": float(f1.mean()),
            "maF1*": float(2 * ma_p * ma_r / (ma_p + ma_r)), "P": float(precision[i]), "R": float(recall[i])}


def check_scenarios() -> dict[int, dict[str, float]]:
    """The true values of each scenario, checked against the paper and against clfeval's own scoring."""
    truths = {}
    for s, sc in SCENARIOS.items():
        assert abs(sc.p.sum() - 1) < 1e-12, f"scenario {s}: probabilities sum to {sc.p.sum()}"
        truth = true_values(sc)
        if sc.stated is not None:
            for name, stated in zip(("miF1", "maF1", "maF1*"), sc.stated):
                assert round(truth[name], 2) == stated, f"scenario {s}: {name} = {truth[name]:.4f}, paper {stated}"
        labels = list(sc.labels)
        counts = clfeval.ConfusionCounts(sc.labels, np.rint(sc.p * 1e9).astype(np.int64))
        r = clfeval.score(counts, scoring=clfeval.Scoring(labels=labels, ordinal=True))
        for name, key in zip(SCORE_NAMES, score_keys(sc)):
            got = getattr(r.per_label[key[1]], key[2]) if key[0] == "per_label" else r.averages[key[1]][key[2]]
            assert abs(got - truth[name]) < 1e-6, f"scenario {s}: clfeval {name} = {got}, direct {truth[name]}"
        truths[s] = truth
    return truths


# --------------------------------------------------------------------------- the new measures (issue 19)

#: The measures of issue 19's registry whose coverage the new-measure study (--measures new) measures: (name, title,
#: clfeval key with FOCUS for the focus label). The focus label is the scenario's rarest class, as above.
FOCUS = "<focus>"
NEW_MEASURES = (
    ("mcc", "MCC", ("mcc",)),
    ("kappa", "κ", ("kappa",)),
    ("kappa_linear", "κ lin.", ("kappa_linear",)),
    ("kappa_quadratic", "κ quad.", ("kappa_quadratic",)),
    ("balanced_accuracy", "BA", ("balanced_accuracy",)),
    ("balanced_accuracy_adjusted", "BA adj.", ("balanced_accuracy_adjusted",)),
    ("hamming_loss", "HL", ("hamming_loss",)),
    ("macro_jaccard", "macro J", ("averages", "macro", "jaccard")),
    ("macro_specificity", "macro spec.", ("averages", "macro", "specificity")),
    ("npv", "NPV", ("per_label", FOCUS, "npv")),
    ("jaccard", "J", ("per_label", FOCUS, "jaccard")),
    ("fpr", "FPR", ("per_label", FOCUS, "fpr")),
    ("fnr", "FNR", ("per_label", FOCUS, "fnr")),
)
NEW_NAMES = tuple(name for name, _, _ in NEW_MEASURES)
NEW_TITLES = {name: title for name, title, _ in NEW_MEASURES}
#: (tables, resamples) per cell of the new-measure study, every scenario; --quick uses QUICK.
NEW_STUDY = (1000, 1000)
#: Methods of the new-measure study (--methods changes them).
NEW_METHODS = METHODS
#: Markers of the new-measure study's section in docs/coverage.md, and of its hand-written summary.
NEW_START, NEW_END = "<!-- new-measures:start -->", "<!-- new-measures:end -->"
NEW_SUMMARY_START, NEW_SUMMARY_END = "<!-- new-measures-summary:start -->", "<!-- new-measures-summary:end -->"
#: Everything from this line on in an existing output file (sections other scripts write) is kept on a rewrite.
KEPT_MARKER = "<!-- kept: sections written by other scripts -->"


def new_score_keys(sc: Scenario) -> list[tuple[str, ...]]:
    return [tuple(sc.focus if part == FOCUS else part for part in key) for _, _, key in NEW_MEASURES]


def new_true_values(sc: Scenario) -> dict[str, float]:
    """The new measures of a [gold, predicted] probability table (N = 1), computed directly from p with the
    textbook formulas; κ's weights use the positions 0, …, K − 1 of the classes 1, …, K."""
    p = sc.p
    k = len(p)
    d, gold, pred = np.diag(p), p.sum(axis=1), p.sum(axis=0)
    tp, fp, fn = d, pred - d, gold - d
    tn = 1 - gold - pred + d
    po, pe = d.sum(), float(gold @ pred)
    pos = np.arange(k, dtype=float)
    chance = np.outer(gold, pred)

    def weighted_kappa(w: np.ndarray) -> float:
        return float(1 - (w * p).sum() / (w * chance).sum())

    ba = float((d / gold).mean())
    i = sc.labels.index(sc.focus)
    return {
        "mcc": float((po - pe) / math.sqrt((1 - gold @ gold) * (1 - pred @ pred))),
        "kappa": float((po - pe) / (1 - pe)),
        "kappa_linear": weighted_kappa(np.abs(pos[:, None] - pos[None, :])),
        "kappa_quadratic": weighted_kappa((pos[:, None] - pos[None, :]) ** 2),
        "balanced_accuracy": ba,
        "balanced_accuracy_adjusted": (ba - 1 / k) / (1 - 1 / k),
        "hamming_loss": float(1 - po),
        "macro_jaccard": float((tp / (tp + fp + fn)).mean()),
        "macro_specificity": float((tn / (tn + fp)).mean()),
        "npv": float(tn[i] / (tn[i] + fn[i])),
        "jaccard": float(tp[i] / (tp[i] + fp[i] + fn[i])),
        "fpr": float(fp[i] / (fp[i] + tn[i])),
        "fnr": float(fn[i] / (fn[i] + tp[i])),
    }


def _get(r: object, key: tuple[str, ...]) -> float:
    """A score of a clfeval result by its interval key."""
    if key[0] == "per_label":
        return float(r.per_label[key[1]][key[2]])  # type: ignore[attr-defined]
    if key[0] == "averages":
        return float(r.averages[key[1]][key[2]])  # type: ignore[attr-defined]
    return float(r.overall[key[0]])  # type: ignore[attr-defined]


def check_new_truths() -> tuple[dict[int, dict[str, float]], float]:
    """The new measures' true values of each scenario (computed directly from p), checked against clfeval's own
    scoring of the counts round(p × 10⁹); also returns the largest difference."""
    truths, worst = {}, 0.0
    for s, sc in SCENARIOS.items():
        truth = new_true_values(sc)
        counts = clfeval.ConfusionCounts(sc.labels, np.rint(sc.p * 1e9).astype(np.int64))
        r = clfeval.score(counts, scoring=clfeval.Scoring(labels=list(sc.labels), ordinal=True))
        for name, key in zip(NEW_NAMES, new_score_keys(sc)):
            got = _get(r, key)
            assert abs(got - truth[name]) < 1e-6, f"scenario {s}: clfeval {name} = {got}, direct {truth[name]}"
            worst = max(worst, abs(got - truth[name]))
        truths[s] = truth
    return truths, worst


def table_seed(s: int, n: int, t: int) -> int:
    return int(np.random.SeedSequence([SEED, s, n, t]).generate_state(1)[0])


def draw_tables(s: int, n: int, tables: int) -> np.ndarray:
    """T tables of counts [gold, predicted] drawn from Multinomial(n, p) of scenario s."""
    p = SCENARIOS[s].p
    rng = np.random.default_rng(np.random.SeedSequence([SEED, s, n]))
    return rng.multinomial(n, p.ravel(), size=tables).reshape(tables, *p.shape)


def observed_counts(table: np.ndarray) -> tuple[int, int, int]:
    """(smallest gold support, smallest predicted count, errors) of a [gold, predicted] table of counts."""
    return int(table.sum(axis=1).min()), int(table.sum(axis=0).min()), int(table.sum() - np.trace(table))


@dataclass
class ChunkResult:
    s: int
    n: int
    start: int
    bounds: np.ndarray  # (tables, scores, columns, 2): (low, high), NaN if none
    crashed: np.ndarray  # (tables, methods): the call raised
    observed: np.ndarray  # (tables, 3): observed_counts
    errors: Counter  # "method: ExceptionType: message" -> count
    seconds: float = 0.0  # time spent on the chunk


def study_layout(study: str, methods: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(score names, result columns) of a study: the original one has a Wilson column after its four methods."""
    return (NEW_NAMES, tuple(methods)) if study == "new" else (SCORE_NAMES, COLUMNS)


def run_chunk(job: tuple[int, int, int, np.ndarray, int, str, tuple[str, ...]]) -> ChunkResult:
    """Intervals for a chunk of tables (study "original": SCORE_NAMES; "new": NEW_NAMES by ``methods``)."""
    s, n, start, cells, resamples, study, methods = job
    t0 = time.perf_counter()
    sc = SCENARIOS[s]
    labels = list(sc.labels)
    names, columns = study_layout(study, methods)
    if study == "new":
        keys, wilson_keys = new_score_keys(sc), {}
    else:
        keys = score_keys(sc)
        wilson_keys = {SCORE_NAMES.index(name): ("per_label", sc.focus, f"{measure}_wilson")
                       for name, measure in PER_LABEL.items()}
    out = np.full((len(cells), len(names), len(columns), 2), np.nan)
    crashed = np.zeros((len(cells), len(methods)), dtype=bool)
    observed = np.array([observed_counts(t) for t in cells], dtype=np.int64).reshape(len(cells), 3)
    errors: Counter = Counter()
    for i, table in enumerate(cells):
        ordered = clfeval.Scoring(labels=labels, ordinal=True)  # weighted κ reads the labels' declared order
        r = clfeval.score(clfeval.ConfusionCounts(sc.labels, table), scoring=ordered)
        seed = table_seed(s, n, start + i)
        wilson_done = False
        for j, method in enumerate(methods):
            kw = {"resamples": resamples, "seed": seed} if method.startswith("bootstrap") else {}
            try:
                iv = with_intervals(r, clfeval.CI(method, confidence=CONFIDENCE, **kw)).intervals
            except Exception as e:  # noqa: BLE001 - a crash of clfeval is counted as "not estimable" and reported
                crashed[i, j] = True
                errors[f"{method}: {type(e).__name__}: {e}"] += 1
                continue
            for k, key in enumerate(keys):
                b = iv.get(key)
                if b is not None:
                    out[i, k, j] = b
            # Wilson intervals are the same under every method: take the first that ran
            if wilson_keys and not wilson_done:
                wilson_done = True
                for k, key in wilson_keys.items():
                    b = iv.get(key)
                    if b is not None:
                        out[i, k, COLUMNS.index("wilson")] = b
    return ChunkResult(s, n, start, out, crashed, observed, errors, time.perf_counter() - t0)


@dataclass
class Cell:
    """Everything recorded for one (scenario, n)."""
    bounds: np.ndarray
    crashed: np.ndarray
    observed: np.ndarray
    errors: Counter
    resamples: int
    seconds: float = 0.0

    @property
    def tables(self) -> int:
        return len(self.bounds)


def simulate(plan: dict[int, tuple[int, int]], workers: int, study: str = "original",
             methods: tuple[str, ...] = METHODS, sizes: tuple[int, ...] | None = None
             ) -> dict[tuple[int, int], Cell]:
    """plan: scenario -> (tables, resamples); sizes: only these n of each scenario's grid (None: all)."""
    jobs = []
    results: dict[tuple[int, int], Cell] = {}
    names, columns = study_layout(study, methods)
    for s, (tables, resamples) in plan.items():
        for n in SCENARIOS[s].sizes:
            if sizes is not None and n not in sizes:
                continue
            cells = draw_tables(s, n, tables)
            results[(s, n)] = Cell(np.empty((tables, len(names), len(columns), 2)),
                                   np.zeros((tables, len(methods)), dtype=bool),
                                   np.zeros((tables, 3), dtype=np.int64), Counter(), resamples)
            for start in range(0, tables, CHUNK):
                jobs.append((s, n, start, cells[start:start + CHUNK], resamples, study, tuple(methods)))
    jobs.sort(key=lambda j: -len(SCENARIOS[j[0]].labels) * j[4])  # the biggest jobs first keeps workers busy
    t0 = time.perf_counter()
    done = 0
    if workers > 1:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        pool = ctx.Pool(workers)
        it = pool.imap_unordered(run_chunk, jobs)
    else:
        pool, it = None, map(run_chunk, jobs)
    try:
        for res in it:
            cell = results[(res.s, res.n)]
            sl = slice(res.start, res.start + len(res.bounds))
            cell.bounds[sl], cell.crashed[sl], cell.observed[sl] = res.bounds, res.crashed, res.observed
            cell.errors.update(res.errors)
            cell.seconds += res.seconds
            done += 1
            if done % max(1, len(jobs) // 40) == 0 or done == len(jobs):
                el = time.perf_counter() - t0
                print(f"  {done}/{len(jobs)} chunks, {el:.0f} s elapsed, about {el / done * (len(jobs) - done):.0f} s "
                      "to go", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return results


def covered(cell: Cell, truth: float, k: int, j: int) -> np.ndarray:
    """Per table: the interval of score k by column j exists and contains the truth."""
    low, high = cell.bounds[:, k, j, 0], cell.bounds[:, k, j, 1]
    return ~np.isnan(low) & (low <= truth + TOL) & (high >= truth - TOL)


def summarise(results: dict[tuple[int, int], Cell], truths: dict[int, dict[str, float]],
              names: tuple[str, ...] = SCORE_NAMES, columns: tuple[str, ...] = COLUMNS) -> dict:
    """Per (scenario, n, score, column): coverage, not-estimable and crashed shares, mean width, misses
    below/above."""
    summary = {}
    for (s, n), cell in results.items():
        for k, name in enumerate(names):
            truth = truths[s][name]
            for j, col in enumerate(columns):
                if col == "wilson" and name not in PER_LABEL:
                    continue
                low, high = cell.bounds[:, k, j, 0], cell.bounds[:, k, j, 1]
                ok = ~np.isnan(low)
                summary[(s, n, name, col)] = {
                    "coverage": float(covered(cell, truth, k, j).mean()),
                    "not_estimable": float((~ok).mean()),
                    "crashed": float(cell.crashed[:, j].mean()) if col in METHODS else 0.0,
                    "width": float(np.mean(high[ok] - low[ok])) if ok.any() else math.nan,
                    "miss_low": float((ok & (high < truth - TOL)).mean()),  # interval entirely below the truth
                    "miss_high": float((ok & (low > truth + TOL)).mean()),  # interval entirely above
                    "tables": cell.tables,
                }
    return summary


# --------------------------------------------------------------------------- exact check

_LOG_FACT = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 25_001)))])
_Z = 1.959963984540054  # Φ⁻¹(0.975)


def _binom_pmf(n: int, p: float) -> np.ndarray:
    k = np.arange(n + 1)
    if p in (0.0, 1.0):
        return (k == round(p * n)).astype(float)
    return np.exp(_LOG_FACT[n] - _LOG_FACT[k] - _LOG_FACT[n - k] + k * math.log(p) + (n - k) * math.log1p(-p))


def _proportion_intervals(k: np.ndarray, m: int, method: str) -> tuple[np.ndarray, np.ndarray]:
    """The interval of k successes in m trials (NaN when none); the same formulas as clfeval's."""
    ph = k / m
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "delta":  # Wald, clipped to [0, 1]
            half = _Z * np.sqrt(ph * (1 - ph) / m)
            return np.maximum(ph - half, 0.0), np.minimum(ph + half, 1.0)
        if method == "delta-logit":  # none at p̂ = 0 or 1
            half = _Z / np.sqrt(m * ph * (1 - ph))
            centre = np.log(ph / (1 - ph))
            ok = (ph > 0) & (ph < 1)
            low, high = 1 / (1 + np.exp(-(centre - half))), 1 / (1 + np.exp(-(centre + half)))
            return np.where(ok, low, np.nan), np.where(ok, high, np.nan)
        z2 = _Z * _Z  # Wilson
        centre = (ph + z2 / (2 * m)) / (1 + z2 / m)
        half = _Z / (1 + z2 / m) * np.sqrt(ph * (1 - ph) / m + z2 / (4 * m * m))
        return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _exact_binomial(n: int, p: float, method: str) -> float:
    low, high = _proportion_intervals(np.arange(n + 1), n, method)
    hit = (low <= p + TOL) & (high >= p - TOL)  # NaN compares False: a miss
    return float(_binom_pmf(n, p) @ hit)


def _exact_conditional(n: int, q: float, p: float, method: str) -> float:
    """Coverage of a share p of m ~ Binomial(n, q) trials (no interval when m = 0: a miss)."""
    weights = _binom_pmf(n, q)
    return float(sum(weights[m] * _exact_binomial(m, p, method) for m in range(1, n + 1) if weights[m] > 1e-300))


EXACT_CHECKS = (("miF1", "delta"), ("miF1", "delta-logit"), ("P", "delta"), ("P", "delta-logit"), ("P", "wilson"),
                ("R", "delta"), ("R", "delta-logit"), ("R", "wilson"))


def exact_coverage(truths: dict[int, dict[str, float]]) -> dict[tuple[int, int, str, str], float]:
    """Coverage computed from binomial distributions, no simulation, where it can be.

    miF1 of a single-label table is the accuracy, a Binomial(n, Σ p_ii) share, and its 'delta'
    interval (Takahashi's Var = p(1 − p)/n) is the Wald interval of that share. The precision
    of the focus class is a share of m ~ Binomial(n, q) predictions (q the class's predicted margin);
    its delta-method variance is p̂(1 − p̂)/m, so given m its 'delta' interval is the Wald
    interval, its Wilson interval the Wilson interval (none when m = 0: a miss). Recall likewise, with
    m ~ Binomial(n, the class's gold prevalence).
    """
    out = {}
    for s, sc in SCENARIOS.items():
        i = sc.labels.index(sc.focus)
        q_pred, q_gold = float(sc.p[:, i].sum()), float(sc.p[i].sum())
        for n in sc.sizes:
            for method in ("delta", "delta-logit"):
                out[(s, n, "miF1", method)] = _exact_binomial(n, truths[s]["miF1"], method)
            for method in ("delta", "delta-logit", "wilson"):
                out[(s, n, "P", method)] = _exact_conditional(n, q_pred, truths[s]["P"], method)
                out[(s, n, "R", method)] = _exact_conditional(n, q_gold, truths[s]["R"], method)
    return out


ACCURACY_CURVE = ((0.8, 0.95, 0.99), (2, 5, 10, 15, 20, 30, 50, 100, 200))
WILSON_CURVE = ((0.8, 0.9, 0.95, 0.97, 0.99), (5, 10, 20, 50, 100, 200, 500))
#: The exact curves average over sizes within this share of the nominal one (coverage oscillates with the size).
WINDOW = 0.2


def _window(x0: float) -> list[int]:
    """Sizes within ±WINDOW of x0, at most 41 of them, evenly spaced."""
    lo, hi = max(2, math.ceil((1 - WINDOW) * x0)), max(2, math.floor((1 + WINDOW) * x0))
    return sorted(set(np.linspace(lo, hi, min(41, hi - lo + 1)).round().astype(int).tolist()))


def _stats(values: list[float]) -> tuple[float, float, float]:
    return float(np.mean(values)), min(values), max(values)


def accuracy_curve() -> dict[tuple[float, int, str], tuple[float, float, float]]:
    """Exact coverage of the accuracy's (miF1's) Wald and logit intervals with e expected errors: (mean, min, max)
    over n within ±WINDOW of e / (1 − accuracy)."""
    return {(acc, e, method): _stats([_exact_binomial(n, acc, method) for n in _window(e / (1 - acc))])
            for acc in ACCURACY_CURVE[0] for e in ACCURACY_CURVE[1] for method in ("delta", "delta-logit")}


def wilson_curve() -> dict[tuple[float, int, str], tuple[float, float, float]]:
    """Exact coverage of a share p of m trials by the Wald and the Wilson interval: (mean, min, max) over m within
    ±WINDOW of the nominal m."""
    return {(p, m0, method): _stats([_exact_binomial(m, p, method) for m in _window(m0)])
            for p in WILSON_CURVE[0] for m0 in WILSON_CURVE[1] for method in ("delta", "wilson")}


# --------------------------------------------------------------------------- the warning rule

RULE_SCORES = ("maF1", "maF1*", "miF1")


def flags(observed: np.ndarray, a: int, b: int) -> np.ndarray:
    """The rule on observed counts: smallest gold support or smallest predicted count < a, or errors < b."""
    return (observed[:, 0] < a) | (observed[:, 1] < a) | (observed[:, 2] < b)


def short_of(cov: float, m: int) -> bool:
    """Coverage more than two Monte Carlo standard errors below 0.95, over m tables."""
    return cov < CONFIDENCE - 2 * math.sqrt(CONFIDENCE * (1 - CONFIDENCE) / m)


def above(sc: Scenario, n: int, a: float, b: float) -> bool:
    """The cell's expected counts pass the rule: n·min gold prevalence and n·min predicted probability ≥ a,
    n·(1 − accuracy) ≥ b."""
    g, q, e = sc.expected_counts(n)
    return min(g, q) >= a and e >= b


def threshold_check(summary: dict, cells: list[tuple[int, int]], method: str, a: float, b: float) -> dict:
    """Coverage of maF1, maF1* and miF1 in the cells whose expected counts pass (a, b) and in those that do not:
    the lowest and highest value, where the lowest is, and how many cell-scores are short of 0.95."""
    out = {}
    for side in (True, False):
        vals = [(summary[(s, n, name, method)]["coverage"], s, n, name, summary[(s, n, name, method)]["tables"])
                for s, n in cells if above(SCENARIOS[s], n, a, b) == side for name in RULE_SCORES]
        out[side] = {"cells": len(vals) // len(RULE_SCORES), "scores": len(vals),
                     "min": min(vals) if vals else None, "max": max(vals) if vals else None,
                     "short": sum(short_of(v[0], v[4]) for v in vals)}
    return out


# --------------------------------------------------------------------------- report

def _pct(x: float) -> str:
    return "0%" if x == 0 else (f"{100 * x:.1f}%" if x >= 0.001 else f"{100 * x:.2f}%")


def _cov_cell(d: dict) -> str:
    return f"{d['coverage']:.3f} ({_pct(d['not_estimable'])})"


def _width_cell(d: dict) -> str:
    return "–" if math.isnan(d["width"]) else f"{d['width']:.3f}"


def _short_mark(d: dict) -> str:
    """Coverage, in bold when more than two Monte Carlo standard errors short of 0.95."""
    text = f"{d['coverage']:.3f}"
    return f"**{text}**" if short_of(d["coverage"], d["tables"]) else text


def _matrix_md(t: np.ndarray, corner: str) -> str:
    k = len(t)
    lines = [f"| {corner} | " + " | ".join(str(j + 1) for j in range(k)) + " |", "|---|" + "---|" * k]
    for i in range(k):
        lines.append(f"| {i + 1} | " + " | ".join(f"{x:.4g}" for x in t[i]) + " |")
    return "\n".join(lines)


def kept_summary(path: Path, start: str = SUMMARY_START, end: str = SUMMARY_END) -> str:
    """The hand-written summary block of an existing report (markers included), or a placeholder."""
    return kept_block(path, start, end) or f"{start}\n(No summary written yet: read the tables below.)\n{end}"


def kept_block(path: Path, start: str, end: str) -> str:
    """The text between markers ``start`` and ``end`` of an existing file (markers included), or ""."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        i, j = text.find(start), text.find(end)
        if 0 <= i < j:
            return text[i:j + len(end)]
    return ""


def _source_state() -> str:
    """The commit of the working tree clfeval is imported from, and whether src/ had uncommitted changes; if
    clfeval comes from elsewhere, the note in a COMMIT file beside it, or else its directory."""
    root = HERE.parent
    src = Path(clfeval.__file__).resolve().parent.parent
    if src != root / "src":  # a copy, e.g. of a commit's src/ while the working tree is being edited
        note = src / "COMMIT"
        return note.read_text(encoding="utf-8").strip() if note.exists() else f"imported from {src}"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "source state unknown"
    return f"commit {commit}" + (" with uncommitted changes under src/" if dirty else "")


def report(summary: dict, truths: dict, exact: dict, results: dict, plan: dict, wall: float, workers: int,
           command: str, findings: str, source: str, note: str = "") -> str:
    fams = {}
    for s, (tables, resamples) in plan.items():
        fams.setdefault(SCENARIOS[s].family, (tables, resamples))

    def se(t: int) -> float:
        return math.sqrt(0.95 * 0.05 / t)

    def family_seconds(fam: str) -> float:
        return sum(results[(s, n)].seconds for s in plan if SCENARIOS[s].family == fam for n in SCENARIOS[s].sizes)

    cells = [(s, n) for s in plan for n in SCENARIOS[s].sizes]
    out = [
        "# Coverage of clfeval's confidence intervals",
        "",
        "A simulation study of the empirical coverage of clfeval's 95% confidence intervals, in three families of "
        "scenarios (true cell probabilities below):",
        "",
        "- **Takahashi** (scenarios 1–3): the design of Takahashi, Yamamoto, Kuchiba and Koyama (2022), *Confidence "
        "interval for micro-averaged F1 and macro-averaged F1 scores* (Applied Intelligence): three classes, "
        "n ∈ {" + ", ".join(map(str, TAKAHASHI_SIZES)) + "}.",
        "- **Rare class** (scenario 4): ten classes with Zipf-like prevalences (∝ 1/k, together 0.99) and an "
        "eleventh class of prevalence 0.01; every class is predicted right with probability 0.8, and an error goes "
        "to another class with probability proportional to that class's prevalence. n ∈ {"
        + ", ".join(map(str, NEW_SIZES)) + "}.",
        "- **Near-perfect** (scenario 5): four classes of prevalence 0.25, each predicted right with probability "
        "0.99, an error going to each of the other three classes alike. n ∈ {" + ", ".join(map(str, NEW_SIZES))
        + "}.",
        "",
        "Settings:",
        "",
        "- For each scenario and n, T tables of counts were drawn from Multinomial(n, p) (numpy "
        f"`default_rng(SeedSequence([{SEED}, scenario, n]))`): "
        + "; ".join(f"{' and '.join(f for f, v in fams.items() if v == (t, r))}: **T = {t}** tables per cell, "
                    f"bootstrap with **{r} resamples**" for t, r in dict.fromkeys(fams.values())) + ". "
        + "Monte Carlo standard error of a coverage near 0.95: " + ", ".join(
            f"±{se(t):.4f} with T = {t} (two standard errors: {2 * se(t):.3f})"
            for t in sorted({t for t, _ in fams.values()})) + ".",
        "- On each table, each interval method gave a 95% interval for miF1, maF1 and maF1*, and for the precision "
        "and the recall of the scenario's rarest class (class 2 in scenarios 1–3, class 11 in scenario 4, class 4 "
        "in scenario 5), which also have their Wilson score intervals. The label set is declared (every class of "
        "the scenario) on every table, so a class missing from a small table still counts.",
        "- Methods: `delta` (Wald with Takahashi's closed-form variances for the three F1s when every class is "
        "predicted and present, the generic delta method otherwise and for precision and recall), `delta-logit`, "
        "`bootstrap` (percentile) and `bootstrap-bca`, the last two seeded per table with "
        f"`SeedSequence([{SEED}, scenario, n, table]).generate_state(1)[0]` (the same resamples for both).",
        "- **Coverage** = share of the T tables whose interval contains the true value (the score of the "
        "probability table itself); a table where the method gives no interval (*not estimable*, e.g. a class "
        "never predicted makes maF1*'s delta-method variance undefined) counts as a miss. A call of clfeval that "
        "raised an exception counts as not estimable too (section *Crashes*). In parentheses: the share of tables "
        "where the interval was not estimable. Containment is inclusive (low ≤ truth ≤ high, "
        f"to {TOL:g}): scores of counts are discrete and an interval end can equal the true value exactly. "
        "**Width** = mean width over the estimable intervals.",
        f"- clfeval {clfeval.__version__} ({source}), Python {platform.python_version()}, numpy {np.__version__}; "
        f"{workers} worker process(es), one BLAS thread each; wall time of the simulation {wall / 60:.1f} min "
        "(" + ", ".join(f"{fam} {family_seconds(fam) / 60:.1f}" for fam in fams) + " min of worker time)."
        + (f" {note}" if note else ""),
        "",
        "Reproduce with:",
        "",
        "```",
        command,
        "```",
        "",
        "The summary below is written by hand from the tables of this run (the script keeps it when it "
        "rewrites this file); the tables are the script's output.",
        "",
        "## Summary",
        "",
        findings,
        "",
    ]

    # ------------------------------------------------------------ coverage by expected counts
    rows = []
    for s, n in cells:
        g, q, e = SCENARIOS[s].expected_counts(n)
        rows.append((min(g, q, e), g, q, e, s, n))
    rows.sort()
    out += [
        "## Coverage by expected counts",
        "",
        "Every (scenario, n) cell, ordered by the smallest of three expected counts: n × the smallest gold "
        "prevalence (the expected support of the rarest class), n × the smallest predicted-class probability "
        "(its expected number of predictions) and n × (1 − accuracy) (the expected number of errors). Coverage of "
        "`delta` and `bootstrap-bca`; **bold**: more than two Monte Carlo standard errors short of 0.95 ("
        + ", ".join(f"below {0.95 - 2 * se(t):.3f} with T = {t}" for t in sorted({t for t, _ in fams.values()}))
        + "). miF1 (the accuracy) depends on the errors only: read it against the last count column.",
        "",
        "| scenario | n | smallest of the three | n·min gold prev. | n·min pred. prob. | n·(1 − acc.) "
        "| maF1 delta | maF1 BCa | maF1* delta | maF1* BCa | miF1 delta | miF1 BCa |",
        "|---|---:|---:|---:|---:|---:|---|---|---|---|---|---|",
    ]
    for m, g, q, e, s, n in rows:
        out.append(f"| {s} ({SCENARIOS[s].family}) | {n} | {m:.1f} | {g:.1f} | {q:.1f} | {e:.1f} | " + " | ".join(
            _short_mark(summary[(s, n, name, method)])
            for name in ("maF1", "maF1*", "miF1") for method in ("delta", "bootstrap-bca")) + " |")
    out.append("")

    # ------------------------------------------------------------ the warning rule
    def rule_text(method: str) -> str:
        a, b = RULES[method]
        return f"`{method}`: A = {a}, B = {b}"

    def cov_text(v: tuple | None) -> str:
        return "–" if v is None else f"{v[0]:.3f} ({v[1]}/{v[2]} {v[3]})"

    out += [
        "## A warning rule on observed counts",
        "",
        "Proposed: **warn when the smallest gold support or the smallest predicted count of any label in the label "
        "set is below A, or the number of errors (off-diagonal count) is below B**, naming the label and its "
        "count, with " + "; ".join(rule_text(m) for m in METHODS) + ".",
        "",
        "### Thresholds on expected counts",
        "",
        "Each row: a method and thresholds A and B applied to the cells' *expected* counts (the columns of the "
        "previous section): the number of cells at or above both, the lowest coverage of maF1, maF1* or miF1 "
        "among them (scenario/n score) and how many of those cell-scores are short (more than two Monte Carlo "
        "standard errors below 0.95), then the range of coverage in the cells below and how many of those are "
        "short. The cells' expected counts jump (…, 10, 20, 30, 50, …), so a threshold between two of these "
        "values gives the same split as the next one up.",
        "",
        "| method | A | B | cells at or above | lowest there | short there | coverage below | short below |",
        "|---|---:|---:|---:|---|---:|---|---:|",
    ]
    for method in METHODS:
        for a, b in sorted(set(THRESHOLDS) | {RULES[method]}):
            chk = threshold_check(summary, cells, method, a, b)
            hi, lo = chk[True], chk[False]
            mark = " ←" if (a, b) == RULES[method] else ""
            below_range = "–" if lo["min"] is None else f"{lo['min'][0]:.3f}–{lo['max'][0]:.3f}"
            out.append(f"| {method} | {a} | {b}{mark} | {hi['cells']} | {cov_text(hi['min'])} | {hi['short']} of "
                       f"{hi['scores']} | {below_range} | {lo['short']} of {lo['scores']} |")
    rule_methods = ("delta", "bootstrap-bca")
    out += ["",
            "### The proposed rule on the simulated tables",
            "",
            "Here each simulated table's *observed* counts decide whether it is flagged ("
            + "; ".join(rule_text(m) for m in rule_methods) + "). Per cell and method: the share of tables "
            "flagged, then the coverage of the unflagged / flagged tables (– when there are none; in brackets when "
            f"fewer than {MIN_UNFLAGGED}). The old rule flagged every table with n < 500 (delta method only). "
            "Coverage *given* the observed counts is not the cell's coverage: in a cell whose expected count is "
            "near a threshold, the tables above it are those with unusually many instances of a small class (or "
            "many errors), whose estimates are off in one direction, so their coverage can be lower than the "
            "cell's.",
            "",
            "| scenario | n | " + " | ".join(f"{m} flagged | " + " | ".join(f"{m} {name}" for name in RULE_SCORES)
                                          for m in rule_methods) + " |",
            "|---|---:|" + ("---:|" + "---|" * len(RULE_SCORES)) * len(rule_methods)]
    for s, n in cells:
        cell = results[(s, n)]
        txt = []
        for method in rule_methods:
            f = flags(cell.observed, *RULES[method])
            txt.append(_pct(f.mean()))
            for name in RULE_SCORES:
                c = covered(cell, truths[s][name], SCORE_NAMES.index(name), COLUMNS.index(method))

                def part(mask: np.ndarray) -> str:
                    if not mask.any():
                        return "–"
                    v = f"{c[mask].mean():.3f}"
                    return v if mask.sum() >= MIN_UNFLAGGED else f"[{v}]"
                txt.append(f"{part(~f)} / {part(f)}")
        out.append(f"| {s} ({SCENARIOS[s].family}) | {n} | " + " | ".join(txt) + " |")
    out.append("")

    # ------------------------------------------------------------ scenarios
    out += [
        "## Scenarios",
        "",
        "Takahashi's tables as printed in the paper (rows = predicted, columns = true); clfeval's tables are indexed "
        "[gold, predicted], so the simulation uses their transposes. Scenarios 4 and 5 are given as "
        "[gold, predicted] (rows = gold). True values computed from the probabilities (and checked against the "
        "paper's stated values to two decimals, and against `clfeval.score` on the probabilities × 10⁹):",
        "",
    ]
    for s, sc in SCENARIOS.items():
        tv = truths[s]
        gold, pred = sc.p.sum(axis=1), sc.p.sum(axis=0)
        out += [f"**Scenario {s}** ({sc.family}: {sc.name}): miF1 = {tv['miF1']:.4f}, maF1 = {tv['maF1']:.4f}, "
                f"maF1* = {tv['maF1*']:.4f}, precision of class {sc.focus} = {tv['P']:.4f}, recall of class "
                f"{sc.focus} = {tv['R']:.4f}. Gold prevalences: " + ", ".join(f"{x:.4g}" for x in gold)
                + "; predicted-class probabilities: " + ", ".join(f"{x:.4g}" for x in pred) + ".", ""]
        out += [_matrix_md(sc.paper, "predicted \\ true") if sc.paper is not None else
                _matrix_md(sc.p, "gold \\ predicted"), ""]

    # ------------------------------------------------------------ results
    out += ["## Results", "",
            "Each cell: coverage (share of tables with no interval). Nominal level 0.95. "
            "Mean widths follow each coverage table.", ""]
    for name, title in SCORE_TITLES.items():
        cols = COLUMNS if name in PER_LABEL else METHODS
        head = "| scenario | n | " + " | ".join(cols) + " |"
        rule = "|---|---:|" + "---|" * len(cols)
        out += [f"### {title}", "", "Coverage (not-estimable share):", "", head, rule]
        for s, n in cells:
            out.append(f"| {s} | {n} | " + " | ".join(_cov_cell(summary[(s, n, name, c)]) for c in cols) + " |")
        out += ["", "Mean width:", "", head, rule]
        for s, n in cells:
            out.append(f"| {s} | {n} | " + " | ".join(_width_cell(summary[(s, n, name, c)]) for c in cols) + " |")
        out.append("")

    out += ["### Where the delta method's misses fall", "",
            "Share of tables whose `delta` interval lies entirely below / entirely above the true value "
            "(the rest of the misses are not-estimable tables):", "",
            "| scenario | n | " + " | ".join(SCORE_NAMES) + " |", "|---|---:|" + "---|" * len(SCORE_NAMES)]
    for s, n in cells:
        out.append(f"| {s} | {n} | " + " | ".join(
            f"{summary[(s, n, name, 'delta')]['miss_low']:.3f} / {summary[(s, n, name, 'delta')]['miss_high']:.3f}"
            for name in SCORE_NAMES) + " |")
    out.append("")

    # ------------------------------------------------------------ crashes
    crash_rows = [(s, n, m, summary[(s, n, "miF1", m)]["crashed"]) for s, n in cells for m in METHODS
                  if summary[(s, n, "miF1", m)]["crashed"] > 0]
    out += ["## Crashes", ""]
    if not crash_rows:
        out += ["No call of `with_intervals` raised an exception.", ""]
    else:
        total = sum(round(sh * results[(s, n)].tables) for s, n, _, sh in crash_rows)
        out += [f"Calls of `with_intervals` that raised an exception ({total} in all), counted as not estimable "
                "for every score of that table and method:", "",
                "| scenario | n | method | share of tables | tables |", "|---|---:|---|---:|---:|"]
        for s, n, m, sh in crash_rows:
            out.append(f"| {s} | {n} | {m} | {_pct(sh)} | {round(sh * results[(s, n)].tables)} |")
        messages: Counter = Counter()
        for cell in results.values():
            messages.update(cell.errors)
        out += ["", "Exceptions:", ""] + [f"- {count} × `{msg}`" for msg, count in messages.most_common()] + [""]

    # ------------------------------------------------------------ exact
    worst = max(((abs(summary[(s, n, name, m)]["coverage"] - exact[(s, n, name, m)])
                  / math.sqrt(max(exact[(s, n, name, m)] * (1 - exact[(s, n, name, m)]), 1e-12)
                              / results[(s, n)].tables), s, n, name, m)
                 for s, n in cells for name, m in EXACT_CHECKS))
    out += ["## Check: simulated against exact coverage", "",
            "Where coverage can be computed exactly from binomial distributions, without simulation: miF1 of a "
            "single-label table is the accuracy, a Binomial(n, Σ p_ii) share, and its `delta` interval "
            "(Takahashi's Var = p(1 − p)/n) is that share's Wald interval; the precision of the rarest class is a "
            "share of m ~ Binomial(n, q) predictions, and given m its `delta` interval is the Wald interval of that "
            "share (none when m = 0), its Wilson interval the Wilson interval; recall likewise, with m the class's "
            "gold support. Each cell: simulated / exact. The largest gap is "
            f"{worst[0]:.1f} Monte Carlo standard errors (scenario {worst[1]}, n = {worst[2]}, {worst[3]}, "
            f"{worst[4]}).", "",
            "| scenario | n | " + " | ".join(f"{name} {m}" for name, m in EXACT_CHECKS) + " |",
            "|---|---:|" + "---|" * len(EXACT_CHECKS)]
    for s, n in cells:
        out.append(f"| {s} | {n} | " + " | ".join(
            f"{summary[(s, n, name, m)]['coverage']:.3f} / {exact[(s, n, name, m)]:.3f}" for name, m in EXACT_CHECKS)
            + " |")
    out.append("")

    def curve_cell(v: tuple[float, float, float]) -> str:
        return f"{v[0]:.3f} ({v[1]:.3f}–{v[2]:.3f})"

    acc = accuracy_curve()
    out += ["## Exact coverage by expected counts", "",
            "Binomial computations, not simulations. Coverage oscillates with the size (a known property of "
            "intervals for a binomial share), so each cell gives the mean coverage over sizes within "
            f"±{100 * WINDOW:.0f}% of the nominal one (at most 41 sizes, evenly spaced), and in brackets its "
            "range there.", "",
            "### miF1 (the accuracy) by expected errors", "",
            "miF1's `delta` (Wald) and `delta-logit` intervals for a true accuracy and e = n × (1 − accuracy) "
            "expected errors.", "",
            "| expected errors | " + " | ".join(f"acc. {a:g} delta | acc. {a:g} delta-logit"
                                                for a in ACCURACY_CURVE[0]) + " |",
            "|---:|" + "---|---|" * len(ACCURACY_CURVE[0])]
    for e in ACCURACY_CURVE[1]:
        out.append(f"| {e} | " + " | ".join(curve_cell(acc[(a, e, m)]) for a in ACCURACY_CURVE[0]
                                            for m in ("delta", "delta-logit")) + " |")
    wc = wilson_curve()
    out += ["", "### A per-label share (precision or recall) by its trials", "",
            "The Wald (`delta`) and Wilson intervals for a true share p (a label's precision or recall) out of m "
            "trials (its predictions or its gold support), given m.", "",
            "| m | " + " | ".join(f"p = {p:g} Wald | p = {p:g} Wilson" for p in WILSON_CURVE[0]) + " |",
            "|---:|" + "---|---|" * len(WILSON_CURVE[0])]
    for m in WILSON_CURVE[1]:
        out.append(f"| {m} | " + " | ".join(f"{curve_cell(wc[(p, m, 'delta')])} | {curve_cell(wc[(p, m, 'wilson')])}"
                                            for p in WILSON_CURVE[0]) + " |")
    out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------- the new measures' report

#: Where coverage of a new measure's delta and delta-logit intervals can be computed exactly: the measure is a share
#: k/m of m trials with k | m ~ Binomial(m, truth), so its interval is that share's Wald (logit) interval.
NEW_EXACT = ("hamming_loss", "npv", "jaccard", "fpr", "fnr")
NEW_EXACT_METHODS = ("delta", "delta-logit")


def new_exact_coverage(truths: dict[int, dict[str, float]], cells: list[tuple[int, int]]
                       ) -> dict[tuple[int, int, str, str], float]:
    """Exact coverage of the new measures that are one share of multinomial counts.

    The Hamming loss of single-label data is the share of errors, Binomial(n, 1 − Σ p_ii). A per-label
    ratio a/(a + b) of two disjoint sets of cells is, given m = a + b ~ Binomial(n, P(a) + P(b)), a
    Binomial(m, truth) share, and its generic delta-method variance is p̂(1 − p̂)/m: NPV (m = the focus
    class's predicted negatives), Jaccard (m = tp + fp + fn), FPR (m = its gold negatives), FNR (m = its
    gold positives); none when m = 0 (a miss).
    """
    out = {}
    for s, n in cells:
        sc = SCENARIOS[s]
        i = sc.labels.index(sc.focus)
        d, g, q = float(sc.p[i, i]), float(sc.p[i].sum()), float(sc.p[:, i].sum())
        trials = {"npv": 1 - q, "jaccard": g + q - d, "fpr": 1 - g, "fnr": g}
        for method in NEW_EXACT_METHODS:
            out[(s, n, "hamming_loss", method)] = _exact_binomial(n, truths[s]["hamming_loss"], method)
            for name, share in trials.items():
                out[(s, n, name, method)] = _exact_conditional(n, share, truths[s][name], method)
    return out


def machine() -> str:
    """CPU model, cores, operating system."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def new_report(summary: dict, truths: dict, worst: float, exact: dict, results: dict, plan: dict, wall: float,
               workers: int, command: str, findings: str, source: str, methods: tuple[str, ...], host: str,
               date: str, note: str = "") -> str:
    """The section "New measures (issue 19)" of docs/coverage.md, between NEW_START and NEW_END."""
    cells = list(results)
    tables = sorted({results[c].tables for c in cells})
    resamples = sorted({results[c].resamples for c in cells})
    se = {t: math.sqrt(0.95 * 0.05 / t) for t in tables}
    sizes = {s: [n for (s2, n) in cells if s2 == s] for s in plan}
    reduced = {s: [n for n in SCENARIOS[s].sizes if n not in sizes[s]] for s in plan}

    def family_seconds(fam: str) -> float:
        return sum(results[(s, n)].seconds for s, n in cells if SCENARIOS[s].family == fam)

    fams = dict.fromkeys(SCENARIOS[s].family for s in plan)
    boot = [m for m in methods if m.startswith("bootstrap")]
    out = [
        NEW_START,
        "",
        "## New measures (issue 19)",
        "",
        "The coverage of the 95% intervals of the measures issue 19 added to clfeval's registry, on the five "
        "scenarios above, checked by a separate run of the same script (`--measures new`); the sections above "
        "are not affected by it.",
        "",
        "Settings:",
        "",
        "- Tables: as in the main study, Multinomial(n, p) draws from "
        f"`default_rng(SeedSequence([{SEED}, scenario, n]))`, **T = {' or '.join(map(str, tables))}** tables per "
        "cell" + (f", so a cell's tables are the first {tables[0]} of the main study's tables of that cell"
                  if len(tables) == 1 else "") + ". "
        + "Monte Carlo standard error of a coverage near 0.95: " + ", ".join(
            f"±{se[t]:.4f} with T = {t} (**bold** below: more than two standard errors short of 0.95, i.e. below "
            f"{0.95 - 2 * se[t]:.4f})" for t in tables) + ".",
        "- Sizes: " + "; ".join(f"scenario {s}: n ∈ {{{', '.join(map(str, sizes[s]))}}}" for s in plan)
        + (". Left out to keep the run short: " + "; ".join(f"scenario {s}: {', '.join(map(str, reduced[s]))}"
                                                           for s in plan if reduced[s]) + "."
           if any(reduced.values()) else " (every size of the main study)."),
        "- Measures (clfeval's interval keys; *focus* = the scenario's rarest class, as above: class 2 in "
        "scenarios 1–3, 11 in 4, 4 in 5): " + "; ".join(
            f"{title} `{'.'.join('<focus>' if part == FOCUS else part for part in key)}`"
            for _, title, key in NEW_MEASURES) + ". "
        "κ lin. and κ quad. are weighted κ with weights |i − j| and (i − j)² over the classes in the order "
        "1, 2, …, K (the declared label set's order). BA = balanced accuracy (its mean is over the classes "
        "present in gold, so a table missing a class averages fewer recalls). The label set (every class) is "
        "declared on every table.",
        "- True values: computed **directly from p** (N = 1) with the textbook formulas (`new_true_values`); "
        "checked against `clfeval.score` on a `ConfusionCounts` of round(p × 10⁹): the largest "
        f"difference is {worst:.1e}.",
        "- Methods: " + ", ".join(f"`{m}`" for m in methods) + " (the generic delta method: no closed form "
        "applies to these measures)"
        + (f"; bootstrap with **{' or '.join(map(str, resamples))} resamples**, seeded per table as in the main "
           "study" + (" (so the same resamples for " + " and ".join(f"`{m}`" for m in boot) + ")"
                      if len(boot) > 1 else "") if boot else "")
        + ". Coverage, not-estimable and crash counting as above: a table with no interval, or on which "
        "`with_intervals` raised, counts as a miss.",
        f"- Machine and run: {host}; clfeval {clfeval.__version__} ({source}), Python "
        f"{platform.python_version()}, numpy {np.__version__}; {workers} worker process(es), one BLAS thread each; "
        f"finished {date}; wall time of the simulation **{wall / 60:.1f} min** ("
        + ", ".join(f"{fam} {family_seconds(fam) / 60:.1f}" for fam in fams) + " min of worker time)."
        + (f" {note}" if note else ""),
        "",
        "Reproduce with:",
        "",
        "```",
        command,
        "```",
        "",
        "### Summary of the new measures",
        "",
        findings,
        "",
        "### True values",
        "",
        "| scenario | " + " | ".join(NEW_TITLES[name] for name in NEW_NAMES) + " |",
        "|---|" + "---:|" * len(NEW_NAMES),
    ]
    for s in plan:
        out.append(f"| {s} ({SCENARIOS[s].family}) | " + " | ".join(f"{truths[s][name]:.4f}" for name in NEW_NAMES)
                   + " |")

    # ------------------------------------------------------------ the warning rule
    out += [
        "",
        "### The warning rule's cells",
        "",
        "The warning rule proposed above (section *A warning rule on observed counts*), applied to the cells' "
        "*expected* counts: for each measure and method, the lowest coverage among the cells at or above the "
        "rule's thresholds (scenario/n), with the number of those cells whose coverage is more than two standard "
        "errors short of 0.95; then the range of coverage in the cells below the thresholds. "
        + "; ".join(f"`{m}`: A = {RULES[m][0]}, B = {RULES[m][1]}" for m in methods) + ".",
        "",
        "| measure | " + " | ".join(f"{m}: at or above | {m}: below" for m in methods) + " |",
        "|---|" + "---|---|" * len(methods),
    ]
    for name in NEW_NAMES:
        row = []
        for m in methods:
            a, b = RULES[m]
            for side in (True, False):
                vals = [(summary[(s, n, name, m)]["coverage"], s, n) for s, n in cells
                        if above(SCENARIOS[s], n, a, b) == side]
                if not vals:
                    row.append("–")
                    continue
                if side:
                    short = sum(short_of(v[0], results[(v[1], v[2])].tables) for v in vals)
                    lo = min(vals)
                    row.append(f"{lo[0]:.3f} ({lo[1]}/{lo[2]}); {short} of {len(vals)} short")
                else:
                    row.append(f"{min(vals)[0]:.3f}–{max(vals)[0]:.3f}")
        out.append(f"| {NEW_TITLES[name]} | " + " | ".join(row) + " |")

    # ------------------------------------------------------------ coverage and width by expected counts
    rows = []
    for s, n in cells:
        g, q, e = SCENARIOS[s].expected_counts(n)
        rows.append((min(g, q, e), g, q, e, s, n))
    rows.sort()
    head = ("| scenario | n | smallest | gold | pred. | errors | " + " | ".join(NEW_TITLES[x] for x in NEW_NAMES)
            + " |")
    rule = "|---|---:|---:|---:|---:|---:|" + "---|" * len(NEW_NAMES)

    def cov(d: dict) -> str:
        text = _short_mark(d)
        return text + (f" ({_pct(d['not_estimable'])})" if d["not_estimable"] > 0 else "")

    for m in methods:
        out += ["", f"### Coverage, `{m}`", "",
                "Cells ordered by the smallest of three expected counts (as in *Coverage by expected counts*): "
                "n × the smallest gold prevalence, n × the smallest predicted-class probability, n × (1 − "
                "accuracy). Each cell: coverage, then in parentheses the share of tables with no interval when "
                "there were any.", "", head, rule]
        for mn, g, q, e, s, n in rows:
            out.append(f"| {s} ({SCENARIOS[s].family}) | {n} | {mn:.1f} | {g:.1f} | {q:.1f} | {e:.1f} | "
                       + " | ".join(cov(summary[(s, n, name, m)]) for name in NEW_NAMES) + " |")
    for m in methods:
        out += ["", f"### Mean width, `{m}`", "", "Over the estimable intervals; cells in the same order.", "",
                "| scenario | n | " + " | ".join(NEW_TITLES[x] for x in NEW_NAMES) + " |",
                "|---|---:|" + "---|" * len(NEW_NAMES)]
        for _, _, _, _, s, n in rows:
            out.append(f"| {s} | {n} | " + " | ".join(_width_cell(summary[(s, n, name, m)]) for name in NEW_NAMES)
                       + " |")
    if "delta" in methods:
        out += ["", "### Where the delta method's misses fall", "",
                "Share of tables whose `delta` interval lies entirely below / entirely above the true value (the "
                "rest of the misses are not-estimable tables); cells in the same order.", "",
                "| scenario | n | " + " | ".join(NEW_TITLES[x] for x in NEW_NAMES) + " |",
                "|---|---:|" + "---|" * len(NEW_NAMES)]
        for _, _, _, _, s, n in rows:
            out.append(f"| {s} | {n} | " + " | ".join(
                f"{summary[(s, n, name, 'delta')]['miss_low']:.3f} / {summary[(s, n, name, 'delta')]['miss_high']:.3f}"
                for name in NEW_NAMES) + " |")

    # ------------------------------------------------------------ exact check
    checks = [(name, m) for name in NEW_EXACT for m in NEW_EXACT_METHODS if m in methods]
    if checks:
        gaps = [(abs(summary[(s, n, name, m)]["coverage"] - exact[(s, n, name, m)])
                 / math.sqrt(max(exact[(s, n, name, m)] * (1 - exact[(s, n, name, m)]), 1e-12)
                             / results[(s, n)].tables), s, n, name, m) for s, n in cells for name, m in checks]
        worst_gap = max(gaps)
        beyond = sum(g[0] > 3 for g in gaps)
        out += ["", "### Check: simulated against exact coverage", "",
                "The Hamming loss (single-label) is the share of errors, a Binomial(n, 1 − Σ p_ii) share; the "
                "focus class's NPV, Jaccard, FPR and FNR are each a ratio a/(a + b) of two disjoint sets of "
                "cells, so given m = a + b they are a Binomial(m, truth) share, and their generic delta-method "
                "variance is p̂(1 − p̂)/m: their `delta` and `delta-logit` intervals are that share's Wald and logit "
                "intervals (none when m = 0), whose coverage is computed exactly from binomial distributions. "
                "Each cell: simulated / exact. The largest gap is "
                f"{worst_gap[0]:.1f} Monte Carlo standard errors (scenario {worst_gap[1]}, n = {worst_gap[2]}, "
                f"{NEW_TITLES[worst_gap[3]]}, {worst_gap[4]}); {beyond} of {len(gaps)} gaps exceed 3.", "",
                "| scenario | n | " + " | ".join(f"{NEW_TITLES[name]} {m}" for name, m in checks) + " |",
                "|---|---:|" + "---|" * len(checks)]
        for s, n in cells:
            out.append(f"| {s} | {n} | " + " | ".join(
                f"{summary[(s, n, name, m)]['coverage']:.3f} / {exact[(s, n, name, m)]:.3f}" for name, m in checks)
                + " |")

    # ------------------------------------------------------------ crashes
    crash_rows = [(s, n, m, summary[(s, n, NEW_NAMES[0], m)]["crashed"]) for s, n in cells for m in methods
                  if summary[(s, n, NEW_NAMES[0], m)]["crashed"] > 0]
    out += ["", "### Crashes in the new-measure run", ""]
    if not crash_rows:
        out += ["No call of `with_intervals` raised an exception."]
    else:
        out += ["Calls of `with_intervals` that raised an exception, counted as not estimable for every measure of "
                "that table and method:", "", "| scenario | n | method | tables |", "|---|---:|---|---:|"]
        out += [f"| {s} | {n} | {m} | {round(sh * results[(s, n)].tables)} |" for s, n, m, sh in crash_rows]
        messages: Counter = Counter()
        for cell in results.values():
            messages.update(cell.errors)
        out += ["", "Exceptions:", ""] + [f"- {count} × `{msg}`" for msg, count in messages.most_common()]
    out += ["", NEW_END]
    return "\n".join(out)


def write_section(path: Path, block: str) -> None:
    """Put ``block`` (NEW_START … NEW_END) in place of the file's block, or at its end; the rest is untouched."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    i, j = text.find(NEW_START), text.find(NEW_END)
    if 0 <= i < j:
        text = text[:i] + block + text[j + len(NEW_END):]
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measures", choices=("original", "new"), default="original",
                    help="original: the study of micro/macro F1, precision and recall (rewrites the file but for the "
                         "new measures' section); new: only the measures of issue 19 (MCC, κ, balanced accuracy, "
                         "Jaccard, NPV …), written into their own section (default %(default)s)")
    ap.add_argument("--quick", action="store_true",
                    help=f"T={QUICK_TABLES} tables, {QUICK_RESAMPLES} resamples everywhere (a smoke test)")
    ap.add_argument("--out", type=Path, default=None,
                    help=f"where to write the Markdown (default {DEFAULT_OUT}; with --quick, standard output only)")
    ap.add_argument("--tables", type=int, default=None,
                    help=f"tables per cell of Takahashi's scenarios (default {FULL[TAKAHASHI][0]}; with --measures "
                         f"new {NEW_STUDY[0]})")
    ap.add_argument("--resamples", type=int, default=None,
                    help=f"bootstrap resamples in Takahashi's scenarios (default {FULL[TAKAHASHI][1]}; with "
                         f"--measures new {NEW_STUDY[1]})")
    ap.add_argument("--new-tables", type=int, default=None,
                    help=f"tables per cell of scenarios 4 and 5 (default {FULL[RARE][0]}; with --measures new "
                         f"{NEW_STUDY[0]})")
    ap.add_argument("--new-resamples", type=int, default=None,
                    help=f"bootstrap resamples in scenarios 4 and 5 (default {FULL[RARE][1]}; with --measures new "
                         f"{NEW_STUDY[1]})")
    ap.add_argument("--methods", default=None,
                    help="--measures new: the interval methods, comma-separated (default " + ",".join(NEW_METHODS)
                         + ")")
    ap.add_argument("--sizes", default=None,
                    help="--measures new: only these n of each scenario's sizes, comma-separated (default: all)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--summary-tsv", type=Path, default=None,
                    help="also write every summary number (incl. misses below/above the truth) as TSV")
    ap.add_argument("--save-raw", type=Path, default=None,
                    help="also pickle every table's intervals and observed counts (to re-report without re-running)")
    ap.add_argument("--from-raw", type=Path, default=None,
                    help="write the report from a --save-raw file instead of simulating (its settings and wall time)")
    args = ap.parse_args(argv)
    new = args.measures == "new"
    if args.out is None and not args.quick:
        args.out = DEFAULT_OUT
    methods = tuple(args.methods.split(",")) if args.methods else NEW_METHODS
    if not new and (args.methods or args.sizes):
        ap.error("--methods and --sizes apply to --measures new only")
    if any(m not in METHODS for m in methods):
        ap.error(f"--methods: choose among {', '.join(METHODS)}")
    sizes = tuple(int(x) for x in args.sizes.split(",")) if args.sizes else None
    plan = {}
    for s, sc in SCENARIOS.items():
        old = sc.family == TAKAHASHI
        tables, resamples = NEW_STUDY if new else FULL[sc.family]
        if args.quick:
            tables, resamples = QUICK_TABLES, QUICK_RESAMPLES
        tables = (args.tables if old else args.new_tables) or tables
        resamples = (args.resamples if old else args.new_resamples) or resamples
        plan[s] = (tables, resamples)

    truths = check_scenarios()
    new_truths, worst = check_new_truths()
    parts = [".venv/bin/python benchmarks/coverage.py"]
    if new:
        parts.append("--measures new")
    if args.quick:
        parts.append("--quick")
    for opt in ("tables", "resamples", "new_tables", "new_resamples", "methods", "sizes"):
        if getattr(args, opt):
            parts.append(f"--{opt.replace('_', '-')} {getattr(args, opt)}")
    parts.append(f"--workers {args.workers}")
    if args.from_raw:
        with open(args.from_raw, "rb") as fh:
            raw = pickle.load(fh)
        if raw.get("study", "original") != args.measures:
            ap.error(f"--from-raw {args.from_raw} holds the {raw.get('study', 'original')} study, not {args.measures}")
    else:
        print(f"scenarios check out; study {args.measures}, plan (tables, resamples) {plan}, workers={args.workers}"
              + (f", methods {methods}, sizes {sizes or 'all'}" if new else ""), file=sys.stderr)
        source = _source_state()
        t0 = time.perf_counter()
        results = simulate(plan, args.workers, "new", methods, sizes) if new else simulate(plan, args.workers)
        raw = {"results": results, "plan": plan, "wall": time.perf_counter() - t0, "workers": args.workers,
               "command": " ".join(parts), "source": source, "study": args.measures, "methods": methods,
               "machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M %Z")}
        if args.save_raw:
            with open(args.save_raw, "wb") as fh:
                pickle.dump(raw, fh)
    results, plan, wall = raw["results"], raw["plan"], raw["wall"]
    out_path = args.out or DEFAULT_OUT
    if new:
        methods = tuple(raw["methods"])
        names, columns = study_layout("new", methods)
        summary = summarise(results, new_truths, names, columns)
        text = new_report(summary, new_truths, worst, new_exact_coverage(new_truths, list(results)), results, plan,
                          wall, raw["workers"], raw["command"],
                          kept_summary(out_path, NEW_SUMMARY_START, NEW_SUMMARY_END), raw["source"], methods,
                          raw["machine"], raw["date"], raw.get("note", ""))
    else:
        summary = summarise(results, truths)
        text = report(summary, truths, exact_coverage(truths), results, plan, wall, raw["workers"], raw["command"],
                      kept_summary(out_path), raw["source"], raw.get("note", ""))
    if args.out is None:  # a quick smoke run must not overwrite the full study
        print(text)
    elif new:
        write_section(args.out, text)
    else:
        kept = kept_block(args.out, NEW_START, NEW_END)  # the new measures' section stays
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        tail = old[old.find(KEPT_MARKER):] if KEPT_MARKER in old else ""  # and what other scripts wrote
        kept = "" if kept in tail else kept  # (a new-measures section appended after the marker is in the tail)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n" + (f"\n{kept}\n" if kept else "") + (f"\n{tail}" if tail else ""),
                            encoding="utf-8")
    if args.summary_tsv:
        with open(args.summary_tsv, "w", encoding="utf-8") as fh:
            fh.write("scenario\tn\tscore\tmethod\tcoverage\tnot_estimable\tcrashed\twidth\tmiss_low\tmiss_high\t"
                     "tables\n")
            for (s, n, name, col), d in sorted(summary.items()):
                fh.write(f"{s}\t{n}\t{name}\t{col}\t{d['coverage']:.4f}\t{d['not_estimable']:.4f}\t"
                         f"{d['crashed']:.4f}\t{d['width']:.4f}\t{d['miss_low']:.4f}\t{d['miss_high']:.4f}\t"
                         f"{d['tables']}\n")
    print(f"wrote {args.out or 'standard output'} ({wall:.1f} s of simulation)", file=sys.stderr)


if __name__ == "__main__":
    main()
