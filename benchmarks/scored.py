"""Binary scored predictions at scale (issue 32): clfeval's AUC, DeLong interval and paired test, and peak memory,
against one sort of the scores, scikit-learn and a plain numpy DeLong, as ratios; a profile of clfeval's path.

    python benchmarks/scored.py            # 10^7 scores (AUC, memory, profile), 10^6 (DeLong)
    python benchmarks/scored.py --quick    # 10^5 everywhere: a check that everything runs

Prints Markdown tables and writes the same text to ``benchmarks/scored.md``.

Data (seeded): gold 0/1 (int64, 30% positive), the score a probability ``1 / (1 + exp(−(z + y)))`` with z standard
normal: all distinct (continuous) or rounded to 3 decimals and clipped to [0.001, 0.999] (≤ 999 distinct values).

1. AUC at 10⁷, in this process (imports done), round-robin repeats, median and best: the floor ``np.argsort(s)``
   (and ``np.sort(s)``); clfeval's counting path ``ranking.averaged_auc(ScoreCounts.of_arrays(y, s), "macro")``;
   the whole ``clfeval.score(y, scores=s)`` (AUC, AP, log loss, Brier, ECE, the label report at 0.5); scikit-learn's
   ``roc_auc_score``. Ratios over one argsort (issue 32's target: clfeval's AUC within 2×).
2. DeLong at 10⁶: ``delong(y == 1, s)`` and ``delong_paired(y == 1, sa, sb)``, the public ``clfeval.score(...,
   ci="delong")`` and ``clfeval.compare(..., test="delong")``, a plain numpy DeLong (Sun & Xu's midranks with
   ``scipy.stats.rankdata``, written here) — ratios over scikit-learn's point ``roc_auc_score`` alone (target: within
   1.5×).
3. Peak RSS of a child process that loads y and s (``.npy``, in benchmarks/data/) and runs ``clfeval.score``, against
   the same child without the call (the baseline), ``np.argsort`` and ``roc_auc_score``; bytes per instance above the
   baseline.
4. cProfile of ``clfeval.score`` at 10⁷; two sketches of a faster one-column path (not clfeval code), checked to give
   the same AUC.

Checks (before the timings): every AUC equals scikit-learn's to 1e-12; clfeval's DeLong AUC, variance, covariance, z
and p-value agree with the numpy reference to 1e-10 (relative for the variances and z).
"""

from __future__ import annotations

import cProfile
import io
import math
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from common import DATA, MIB, PYTHON, ChildRow, log, md_table, measure, ratio_text, start, write_report
from scipy.stats import norm, rankdata
from sklearn.metrics import roc_auc_score

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.infer.delong import delong, delong_paired
from clfeval.scoring import ranking

RESULTS = Path(__file__).resolve().parent / "scored.md"
SEED = 20261126


# --------------------------------------------------------------------------- data


def make_data(n: int, rounded: bool, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Gold 0/1 (int64, 30% positive) and a probability score for each: all distinct, or rounded to 3 decimals."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = 1.0 / (1.0 + np.exp(-(rng.standard_normal(n) + y)))
    return y, (np.clip(np.round(s, 3), 0.001, 0.999) if rounded else s)


def second_score(y: np.ndarray, s: np.ndarray, rounded: bool) -> np.ndarray:
    """A second, slightly worse score of the same instances (for the paired test)."""
    rng = np.random.default_rng(SEED + 1)
    logit = np.log(s / (1 - s)) + rng.standard_normal(len(s)) * 0.15
    b = 1.0 / (1.0 + np.exp(-logit))
    return np.clip(np.round(b, 3), 0.001, 0.999) if rounded else b


KINDS = {"all distinct": False, "rounded to 3 decimals": True}


# --------------------------------------------------------------------------- timing in this process


def timed_rows(contenders: dict[str, Callable[[], object]], repeats: int) -> dict[str, list[float]]:
    """Round-robin repeats (drift hits every contender alike): each contender's wall times in seconds."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for rep in range(repeats):
        for name, run in contenders.items():
            t = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t)
        log(f"  round {rep + 1}: " + ", ".join(f"{k} {v[-1]:.3f}" for k, v in times.items()))
    return times


def ms(x: float) -> str:
    return f"{x * 1e3:,.0f}" if x >= 0.1 else f"{x * 1e3:,.1f}"


def ratio_table(times: dict[str, list[float]], floor: str, notes: dict[str, str]) -> list[str]:
    base = statistics.median(times[floor])
    body = [
        [name, ms(statistics.median(t)), ms(min(t)), ratio_text(statistics.median(t) / base), notes.get(name, "")]
        for name, t in times.items()
    ]
    return md_table(["contender", "median ms", "best ms", f"× {floor}", "note"], body, {1, 2, 3})


# --------------------------------------------------------------------------- 1. AUC


def counts_auc(y: np.ndarray, s: np.ndarray) -> float:
    return ranking.averaged_auc(ScoreCounts.of_arrays(y, s), "macro")


def auc_section(n: int, repeats: int, checks: list[str], verdicts: list[str]) -> list[str]:
    out: list[str] = []
    for kind, rounded in KINDS.items():
        log(f"AUC, n = {n:,}, {kind}")
        y, s = make_data(n, rounded)
        distinct = len(np.unique(s))
        reference = roc_auc_score(y, s)
        mine = counts_auc(y, s)
        whole = clfeval.score(y, scores=s).values["auc"]
        assert math.isclose(mine, reference, rel_tol=1e-12, abs_tol=1e-12), (mine, reference)
        assert math.isclose(whole, reference, rel_tol=1e-12, abs_tol=1e-12), (whole, reference)
        checks.append(
            f"AUC, {n:,} scores {kind}: clfeval's counting path and clfeval.score give {mine:.12f}, "
            f"scikit-learn's roc_auc_score {reference:.12f} (equal to 1e-12)"
        )
        contenders: dict[str, Callable[[], object]] = {
            "np.argsort(s)": lambda s=s: np.argsort(s),
            "np.sort(s)": lambda s=s: np.sort(s),
            "clfeval: ScoreCounts.of_arrays + averaged_auc": lambda y=y, s=s: counts_auc(y, s),
            "clfeval.score(y, scores=s)": lambda y=y, s=s: clfeval.score(y, scores=s),
            "scikit-learn roc_auc_score": lambda y=y, s=s: roc_auc_score(y, s),
        }
        times = timed_rows(contenders, repeats)
        notes = {"np.argsort(s)": "the floor", "clfeval.score(y, scores=s)": "AUC, AP, log loss, Brier, ECE, labels"}
        out += [
            f"### AUC of {n:,} binary scores, {kind} ({distinct:,} distinct values)",
            "",
            *ratio_table(times, "np.argsort(s)", notes),
        ]
        floor = statistics.median(times["np.argsort(s)"])
        ratio = statistics.median(times["clfeval: ScoreCounts.of_arrays + averaged_auc"]) / floor
        verdicts.append(
            f"AUC at {n:,}, {kind}: clfeval's counting path is {ratio_text(ratio)} one argsort "
            f"(target ≤ 2×: {'met' if ratio <= 2 else 'NOT met'})"
        )
    out += [
        f"In this process (imports done), {repeats} round-robin repeats after an untimed check run; ratio of the "
        "medians over one `np.argsort(s)`.",
        "",
    ]
    return out


# --------------------------------------------------------------------------- 2. DeLong


def reference_delong(positive: np.ndarray, scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """A straightforward DeLong (Sun & Xu 2014, midranks by scipy.stats.rankdata): the AUCs of the scores and their
    covariance matrix S10/P + S01/N."""
    m, k = int(positive.sum()), len(scores)
    nn = len(positive) - m
    v10 = np.empty((k, m))
    v01 = np.empty((k, nn))
    aucs = np.empty(k)
    for i, s in enumerate(scores):
        x, z = s[positive], s[~positive]
        tx, tz, tall = rankdata(x), rankdata(z), rankdata(np.r_[x, z])
        aucs[i] = (tall[:m].sum() - m * (m + 1) / 2) / (m * nn)
        v10[i] = (tall[:m] - tx) / nn  # each positive's placement among the negatives
        v01[i] = 1.0 - (tall[m:] - tz) / m  # each negative's placement among the positives
    cov = np.atleast_2d(np.cov(v10)) / m + np.atleast_2d(np.cov(v01)) / nn
    return aucs, cov


def reference_paired(positive: np.ndarray, sa: np.ndarray, sb: np.ndarray) -> tuple[float, float]:
    """z and the two-sided p-value of the reference DeLong's paired test."""
    aucs, cov = reference_delong(positive, [sa, sb])
    z = (aucs[0] - aucs[1]) / math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    return z, 2 * norm.sf(abs(z))


def close(a: float, b: float, rel: bool) -> bool:
    return math.isclose(a, b, rel_tol=1e-10, abs_tol=0 if rel else 1e-10)


def delong_contenders(y: np.ndarray, sa: np.ndarray, sb: np.ndarray) -> dict[str, Callable[[], object]]:
    return {
        "scikit-learn roc_auc_score(y, sa)": lambda: roc_auc_score(y, sa),
        "scikit-learn roc_auc_score, both scores": lambda: (roc_auc_score(y, sa), roc_auc_score(y, sb)),
        "clfeval delong(y == 1, sa)": lambda: delong(y == 1, sa),
        "clfeval delong_paired(y == 1, sa, sb)": lambda: delong_paired(y == 1, sa, sb),
        "clfeval.score(y, scores=sa, ci='delong')": lambda: clfeval.score(y, scores=sa, ci="delong"),
        "clfeval.compare(..., test='delong')": lambda: clfeval.compare(y, scores={"a": sa, "b": sb}, test="delong"),
        "numpy DeLong (rankdata), one score": lambda: reference_delong(y == 1, [sa]),
        "numpy DeLong (rankdata), paired": lambda: reference_paired(y == 1, sa, sb),
    }


def delong_section(n: int, repeats: int, checks: list[str], verdicts: list[str]) -> list[str]:
    out: list[str] = []
    for kind, rounded in KINDS.items():
        log(f"DeLong, n = {n:,}, {kind}")
        y, sa = make_data(n, rounded)
        sb = second_score(y, sa, rounded)
        positive = y == 1
        one, pair = delong(positive, sa), delong_paired(positive, sa, sb)
        aucs, cov = reference_delong(positive, [sa, sb])
        z, p = reference_paired(positive, sa, sb)
        assert close(one.auc, aucs[0], False) and close(one.variance, cov[0, 0], True), (one, aucs, cov)
        assert close(pair.auc_b, aucs[1], False) and close(pair.z, z, True) and close(pair.p_value, p, False), pair
        assert close(pair.variance, cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], True), pair
        assert math.isclose(one.auc, roc_auc_score(y, sa), rel_tol=1e-12)
        shown = clfeval.score(y, scores=sa, ci="delong").to_dict()["scores"]["auc_ci"]
        assert close(shown[0], one.low, False) and close(shown[1], one.high, False), (shown, one)
        compared = clfeval.compare(y, scores={"a": sa, "b": sb}, test="delong").to_dict()["pairs"][0]
        assert close(compared["p_value"], pair.p_value, False) and close(compared["z"], pair.z, True), compared
        checks.append(
            f"DeLong, {n:,} scores {kind}: delong's AUC {one.auc:.10f} and variance {one.variance:.6e}, "
            f"delong_paired's z {pair.z:.6f} (p {pair.p_value:.3e}) and variance of A − B agree with the "
            "numpy midrank reference to 1e-10; clfeval.score(ci='delong') and clfeval.compare(test="
            "'delong') give the same interval and p-value"
        )
        times = timed_rows(delong_contenders(y, sa, sb), repeats)
        floor = "scikit-learn roc_auc_score(y, sa)"
        notes = {floor: "point AUC only", "clfeval.score(y, scores=sa, ci='delong')": "everything + AUC interval"}
        out += [f"### DeLong at {n:,} instances, {kind}", "", *ratio_table(times, floor, notes)]
        base = statistics.median(times[floor])
        both = statistics.median(times["scikit-learn roc_auc_score, both scores"])
        r1 = statistics.median(times["clfeval delong(y == 1, sa)"]) / base
        r2 = statistics.median(times["clfeval delong_paired(y == 1, sa, sb)"]) / base
        r2b = statistics.median(times["clfeval delong_paired(y == 1, sa, sb)"]) / both
        verdicts.append(
            f"DeLong at {n:,}, {kind}: delong is {ratio_text(r1)} one roc_auc_score (target ≤ 1.5×: "
            f"{'met' if r1 <= 1.5 else 'NOT met'}); delong_paired {ratio_text(r2)} one, "
            f"{ratio_text(r2b)} two roc_auc_score calls (target ≤ 1.5× of one: "
            f"{'met' if r2 <= 1.5 else 'NOT met'})"
        )
    out += [
        f"In this process, {repeats} round-robin repeats after an untimed check run; ratio of the medians over one "
        "`roc_auc_score`.",
        "",
    ]
    return out


# --------------------------------------------------------------------------- 3. memory

CHILD = """
import sys
import numpy as np
import clfeval
from sklearn.metrics import roc_auc_score
y, s = np.load(sys.argv[1]), np.load(sys.argv[2])
what = sys.argv[3]
if what == "score":
    clfeval.score(y, scores=s)
elif what == "argsort":
    np.argsort(s)
elif what == "sklearn":
    roc_auc_score(y, s)
"""


def memory_section(n: int, repeats: int, verdicts: list[str]) -> list[str]:
    rows: list[ChildRow] = []
    for kind, rounded in KINDS.items():
        ypath = DATA / f"scored-{n}-gold.npy"
        spath = DATA / f"scored-{n}-{'rounded' if rounded else 'distinct'}.npy"
        if not (ypath.exists() and spath.exists()):
            log(f"writing {spath.name}")
            DATA.mkdir(parents=True, exist_ok=True)
            y, s = make_data(n, rounded)
            np.save(ypath, y)
            np.save(spath, s)
        for what, label in [
            ("nothing", "baseline: load y and s, imports"),
            ("argsort", "np.argsort(s)"),
            ("sklearn", "scikit-learn roc_auc_score"),
            ("score", "clfeval.score(y, scores=s)"),
        ]:
            rows.append(
                ChildRow(f"{kind}: {label}", n, [PYTHON, "-c", CHILD, str(ypath), str(spath), what], repeats=repeats)
            )
    log(f"peak RSS, n = {n:,}")
    measure(rows, log, width=60)
    body = []
    for kind in KINDS:
        mine = [r for r in rows if r.contender.startswith(kind)]
        base = max(mine[0].rss)
        for r in mine:
            peak = max(r.rss)
            extra = (peak - base) / n
            body.append(
                [
                    r.contender,
                    f"{peak / MIB:,.0f}",
                    f"{(peak - base) / MIB:,.0f}",
                    "—" if r is mine[0] else f"{extra:,.0f}",
                    f"{statistics.median(r.times):.2f}",
                ]
            )
            if r.contender.endswith("clfeval.score(y, scores=s)"):
                verdicts.append(
                    f"Memory at {n:,}, {kind}: clfeval.score peaks {(peak - base) / MIB:,.0f} MiB above "
                    f"the loaded data, {extra:,.0f} bytes per instance (the input: 16 bytes per "
                    "instance, y int64 + s float64)"
                )
    return [
        f"### Peak RSS at {n:,} instances (child processes)",
        "",
        *md_table(["child", "peak MiB", "above baseline MiB", "bytes / instance", "wall s"], body, {1, 2, 3, 4}),
        f"Peak RSS (`ru_maxrss` of each child, the highest of {repeats} runs) and wall time of the whole child "
        "(interpreter start-up, imports and `np.load` included, median). The baseline child loads y (int64) and s "
        "(float64) and imports clfeval and scikit-learn, then stops; bytes per instance = (peak − baseline) / n.",
        "",
    ]


# --------------------------------------------------------------------------- 4. profile


def profile_rows(run: Callable[[], object], top: int) -> list[list[str]]:
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    stats = pstats.Stats(prof, stream=io.StringIO())
    total = stats.total_tt
    entries = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]
    body = [["(total)", "", f"{total * 1e3:,.0f}", "", ""]]
    for (path, line, func), (_, calls, tottime, cumtime, _) in entries:
        where = func if path == "~" else f"{Path(path).name}:{line} {func}"
        body.append(
            [
                f"`{where}`",
                f"{calls:,}",
                f"{tottime * 1e3:,.0f}",
                f"{cumtime * 1e3:,.0f}",
                f"{100 * tottime / total:.0f}%",
            ]
        )
    return body


def sketch_argsort(y: np.ndarray, s: np.ndarray) -> float:
    """A one-column path on argsort: sort once, gather the gold as bool (1 byte), group the runs of equal scores,
    positives per group by ``add.reduceat``, the group sizes from the starts (counts all 1); then the AUC."""
    order = np.argsort(s)
    v, g = s[order], (y == 1)[order]
    start_ = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
    pos = np.add.reduceat(g, start_, dtype=np.int64)
    neg = np.diff(np.r_[start_, len(v)]) - pos
    return float(np.dot(pos, np.cumsum(neg) - neg + 0.5 * neg) / (pos.sum() * neg.sum()))


def sketch_sorted(y: np.ndarray, s: np.ndarray) -> float:
    """A one-column path without argsort: sort the positives' and the negatives' scores apart (``np.sort``, no
    index array), the distinct values from a sort of the two, and the weight of each class at each distinct value by
    ``searchsorted``; then the AUC."""
    positive = y == 1
    sp, sn = np.sort(s[positive]), np.sort(s[~positive])
    u = np.sort(np.r_[sp, sn])
    u = u[np.r_[True, u[1:] != u[:-1]]]
    pos = np.diff(np.searchsorted(sp, u, "right"), prepend=0)
    neg = np.diff(np.searchsorted(sn, u, "right"), prepend=0)
    return float(np.dot(pos, np.cumsum(neg) - neg + 0.5 * neg) / (len(sp) * len(sn)))


def profile_section(n: int, repeats: int, checks: list[str]) -> list[str]:
    out: list[str] = []
    for kind, rounded in KINDS.items():
        log(f"profile, n = {n:,}, {kind}")
        y, s = make_data(n, rounded)
        clfeval.score(y, scores=s)  # warm
        body = profile_rows(lambda y=y, s=s: clfeval.score(y, scores=s), 14)
        out += [
            f"### cProfile of `clfeval.score(y, scores=s)`, {n:,} scores {kind}",
            "",
            *md_table(["function", "calls", "own ms", "cumulative ms", "own share"], body, {1, 2, 3, 4}),
            "The 14 functions with the most own time (cProfile adds some overhead; numpy's C functions are "
            "their own rows, fancy indexing and arithmetic are counted in the Python function that does them).",
            "",
        ]
        reference = roc_auc_score(y, s)
        for name, sketch in [("argsort", sketch_argsort), ("sorted", sketch_sorted)]:
            value = sketch(y, s)
            assert math.isclose(value, reference, rel_tol=1e-12), (name, value, reference)
        checks.append(f"profile, {n:,} scores {kind}: both sketches give scikit-learn's AUC to 1e-12")
        contenders: dict[str, Callable[[], object]] = {
            "np.argsort(s)": lambda s=s: np.argsort(s),
            "clfeval: ScoreCounts.of_arrays + averaged_auc": lambda y=y, s=s: counts_auc(y, s),
            "sketch: argsort + bool gather + reduceat": lambda y=y, s=s: sketch_argsort(y, s),
            "sketch: np.sort per class + searchsorted": lambda y=y, s=s: sketch_sorted(y, s),
        }
        times = timed_rows(contenders, repeats)
        out += [
            f"#### Sketches of a faster one-column path (not clfeval code), {kind}",
            "",
            *ratio_table(times, "np.argsort(s)", {"np.argsort(s)": "the floor"}),
        ]
    return out


# --------------------------------------------------------------------------- the script

NOTES = [
    "## What the profile says (issue 32)",
    "",
    "- Done in src/ since the first run of this script: float64 scores are not copied, small integer gold labels are "
    "coded through a table (no second sort), binary scores of one instance each are counted by one sort that keeps "
    "the per-score (value, positives, negatives) table as column 0's, and each column's table is computed once for "
    "AUC, average precision and the curves; `compare(test='delong')` no longer counts joint rows. The distinct "
    "(gold, score) rows are built only when a measure reads them, and when every score is distinct the sorted "
    "instances are the table (no grouping): the AUC alone no longer pays for the rows.",
    "- Still to do: `clfeval.score` still builds the rows for the probability measures (log loss, Brier, "
    "calibration) and the label report, which could read the per-score table of binary scores instead. "
    "`compare(test='delong')` scores each system in full (its label report included).",
    "- The cores were shared with other jobs (load average in the header): medians are indicative, ratios within one "
    "table more reliable than across tables.",
    "",
]


def main() -> None:
    session = start(__doc__, RESULTS)
    quick = session.args.quick
    n_auc, n_delong = (10**5, 10**5) if quick else (10**7, 10**6)
    repeats = 3 if quick else 5
    checks: list[str] = []
    verdicts: list[str] = []
    sections = [
        "## 1. AUC",
        "",
        *auc_section(n_auc, repeats, checks, verdicts),
        "## 2. DeLong interval and paired test",
        "",
        *delong_section(n_delong, repeats + 2, checks, verdicts),
        "## 3. Memory",
        "",
        *memory_section(n_auc, 2, verdicts),
        "## 4. Profile",
        "",
        *profile_section(n_auc, 3, checks),
        *NOTES,
        "## Targets",
        "",
        *[f"- {v}" for v in verdicts],
        "",
    ]
    write_report(
        session,
        "Binary scored predictions: AUC, DeLong and memory against one sort and scikit-learn",
        "scored.py",
        ["numpy", "scipy", "scikit-learn"],
        "Data: seeded; gold 0/1 int64, 30% positive; score 1/(1+exp(−(z + y))), z ~ N(0, 1), all distinct or "
        "rounded to 3 decimals (clipped to [0.001, 0.999]). Each benchmark process pins nothing: numpy's "
        "sorts are single-threaded.",
        sections,
        checks,
    )


if __name__ == "__main__":
    main()
