"""Empirical coverage of clfeval's 95% confidence intervals: Takahashi et al. (2022)'s simulation.

    .venv/bin/python benchmarks/coverage.py            # full run (writes docs/coverage.md)
    .venv/bin/python benchmarks/coverage.py --quick    # T=200 tables, 200 resamples: a smoke test

Design (Takahashi, Yamamoto, Kuchiba and Koyama 2022, "Confidence interval for micro-averaged F1
and macro-averaged F1 scores", Applied Intelligence; their section 4): three classes, three
scenarios of true cell probabilities, sample sizes n in {25, 50, 100, 500, 1000, 5000}. For each
scenario and n, T tables of counts are drawn from Multinomial(n, p); on each table every interval
method gives a 95% interval for micro F1 (miF1), macro F1 as the mean of per-class F1 (maF1, "AF")
and macro F1 as the harmonic mean of macro precision and macro recall (maF1*, "FA"), and for
the precision of class 2 (a minority class in scenarios 2 and 3), which also gets its Wilson
interval. Coverage is the share of tables whose interval contains the true value (the score of
the probability table itself); a table where the interval is not estimable counts as a miss,
and the share of such tables is reported separately. Mean widths are over estimable intervals.

Reproducibility: tables of scenario s and size n come from numpy's default_rng seeded with
SeedSequence([SEED, s, n]); the bootstrap of table t uses the seed
SeedSequence([SEED, s, n, t]).generate_state(1)[0] (the same for the percentile and BCa
intervals). Results therefore do not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import clfeval
from clfeval.infer.intervals import with_intervals

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "docs" / "coverage.md"
SEED = 20220516
CONFIDENCE = 0.95
LABELS = ("1", "2", "3")
SIZES = (25, 50, 100, 500, 1000, 5000)
FULL_TABLES, FULL_RESAMPLES = 4000, 2000
QUICK_TABLES, QUICK_RESAMPLES = 200, 200
#: Chunk of tables handed to one worker at a time.
CHUNK = 100
#: Tolerance of the containment test (true values and estimates are ratios computed in floating point).
TOL = 1e-12
#: A hand-written summary between these markers in an existing output file is kept when the file is rewritten.
SUMMARY_START, SUMMARY_END = "<!-- summary:start -->", "<!-- summary:end -->"

# The paper's tables: rows = predicted, columns = true.
PAPER_TABLES = {
    1: np.full((3, 3), 0.1 / 3) + np.eye(3) * (0.8 / 3 - 0.1 / 3),
    2: np.array([[0.64, 0.03, 0.03], [0.08, 0.04, 0.03], [0.08, 0.03, 0.04]]),
    3: np.array([[0.32, 0.01, 0.01], [0.24, 0.08, 0.01], [0.24, 0.01, 0.08]]),
}
SCENARIO_NAMES = {
    1: "balanced: P = R = 0.8 for every class",
    2: "one dominant class with high precision and high recall",
    3: "one dominant class with high precision and low recall",
}
#: The paper's stated true values (miF1, maF1, maF1*), checked to 2 decimals.
PAPER_VALUES = {1: (0.80, 0.80, 0.80), 2: (0.72, 0.50, 0.51), 3: (0.48, 0.44, 0.55)}

SCORES = {  # name -> clfeval key
    "miF1": ("averages", "micro", "f"),
    "maF1": ("averages", "macro", "f"),
    "maF1*": ("averages", "macro_fa", "f"),
    "P2": ("per_label", "2", "precision"),
}
SCORE_TITLES = {
    "miF1": "miF1 (micro F1; clfeval `averages.micro.f`)",
    "maF1": "maF1 (macro F1 = mean of per-class F1, \"AF\"; clfeval `averages.macro.f`)",
    "maF1*": "maF1* (macro F1 = harmonic mean of macro P and macro R, \"FA\"; clfeval `averages.macro_fa.f`)",
    "P2": "Precision of class 2 (clfeval `per_label.2.precision`; Wilson: `per_label.2.precision_wilson`)",
}
METHODS = ("delta", "delta-logit", "bootstrap", "bootstrap-bca")
#: Columns of the result arrays: the four methods, then the Wilson interval (precision only).
COLUMNS = METHODS + ("wilson",)
WILSON_KEY = ("per_label", "2", "precision_wilson")


def gold_pred(paper_table: np.ndarray) -> np.ndarray:
    """The paper's (predicted, true) table as clfeval's [gold, predicted]."""
    return np.ascontiguousarray(paper_table.T)


def true_values(p: np.ndarray) -> dict[str, float]:
    """The scores of a [gold, predicted] probability table, computed directly."""
    diag = np.diag(p)
    gold, pred = p.sum(axis=1), p.sum(axis=0)
    precision, recall = diag / pred, diag / gold
    f1 = 2 * diag / (gold + pred)
    ma_p, ma_r = precision.mean(), recall.mean()
    return {"miF1": float(diag.sum()), "maF1": float(f1.mean()),
            "maF1*": float(2 * ma_p * ma_r / (ma_p + ma_r)), "P2": float(precision[1])}


def check_scenarios() -> dict[int, dict[str, float]]:
    """The true values of each scenario, checked against the paper and against clfeval's own scoring."""
    truths = {}
    for s, table in PAPER_TABLES.items():
        assert abs(table.sum() - 1) < 1e-12, f"scenario {s}: probabilities sum to {table.sum()}"
        p = gold_pred(table)
        truth = true_values(p)
        for name, stated in zip(("miF1", "maF1", "maF1*"), PAPER_VALUES[s]):
            assert round(truth[name], 2) == stated, f"scenario {s}: {name} = {truth[name]:.4f}, paper {stated}"
        counts = clfeval.ConfusionCounts(LABELS, np.rint(p * 1e6).astype(np.int64))
        r = clfeval.score_counts(counts, labels=list(LABELS))
        for name, key in SCORES.items():
            got = r.per_label[key[1]].precision if key[0] == "per_label" else r.averages[key[1]][key[2]]
            assert abs(got - truth[name]) < 1e-5, f"scenario {s}: clfeval {name} = {got}, direct {truth[name]}"
        truths[s] = truth
    return truths


def table_seed(s: int, n: int, t: int) -> int:
    return int(np.random.SeedSequence([SEED, s, n, t]).generate_state(1)[0])


def draw_tables(s: int, n: int, tables: int) -> np.ndarray:
    """T tables of counts [gold, predicted] drawn from Multinomial(n, p) of scenario s."""
    p = gold_pred(PAPER_TABLES[s]).ravel()
    rng = np.random.default_rng(np.random.SeedSequence([SEED, s, n]))
    return rng.multinomial(n, p, size=tables).reshape(tables, 3, 3)


def run_chunk(job: tuple[int, int, int, np.ndarray, int]) -> tuple[int, int, int, np.ndarray]:
    """Intervals for a chunk of tables: an array (tables, scores, columns, 2) of (low, high), NaN if none."""
    s, n, start, cells, resamples = job
    out = np.full((len(cells), len(SCORES), len(COLUMNS), 2), np.nan)
    keys = list(SCORES.values())
    for i, table in enumerate(cells):
        r = clfeval.score_counts(clfeval.ConfusionCounts(LABELS, table), labels=list(LABELS))
        seed = table_seed(s, n, start + i)
        for j, method in enumerate(METHODS):
            kw = {"resamples": resamples, "seed": seed} if method.startswith("bootstrap") else {}
            iv = with_intervals(r, method, confidence=CONFIDENCE, **kw).intervals
            for k, key in enumerate(keys):
                b = iv.get(key)
                if b is not None:
                    out[i, k, j] = b
            if method == "delta":
                b = iv.get(WILSON_KEY)
                if b is not None:
                    out[i, list(SCORES).index("P2"), COLUMNS.index("wilson")] = b
    return s, n, start, out


def simulate(tables: int, resamples: int, workers: int) -> dict[tuple[int, int], np.ndarray]:
    jobs = []
    for s in PAPER_TABLES:
        for n in SIZES:
            cells = draw_tables(s, n, tables)
            for start in range(0, tables, CHUNK):
                jobs.append((s, n, start, cells[start:start + CHUNK], resamples))
    # the biggest jobs first keeps both workers busy to the end (n hardly matters for the cost)
    results = {(s, n): np.empty((tables, len(SCORES), len(COLUMNS), 2)) for s in PAPER_TABLES for n in SIZES}
    t0 = time.perf_counter()
    done = 0
    if workers > 1:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        pool = ctx.Pool(workers)
        it = pool.imap_unordered(run_chunk, jobs)
    else:
        pool, it = None, map(run_chunk, jobs)
    try:
        for s, n, start, out in it:
            results[(s, n)][start:start + len(out)] = out
            done += 1
            if done % max(1, len(jobs) // 20) == 0 or done == len(jobs):
                el = time.perf_counter() - t0
                print(f"  {done}/{len(jobs)} chunks, {el:.0f} s elapsed, about {el / done * (len(jobs) - done):.0f} s "
                      "to go", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return results


def summarise(results: dict[tuple[int, int], np.ndarray], truths: dict[int, dict[str, float]]) -> dict:
    """Per (scenario, n, score, column): coverage, not-estimable share, mean width, misses below/above."""
    summary = {}
    for (s, n), arr in results.items():
        for k, name in enumerate(SCORES):
            truth = truths[s][name]
            for j, col in enumerate(COLUMNS):
                low, high = arr[:, k, j, 0], arr[:, k, j, 1]
                ok = ~np.isnan(low)
                if col == "wilson" and name != "P2":
                    continue
                covered = ok & (low <= truth + TOL) & (high >= truth - TOL)
                summary[(s, n, name, col)] = {
                    "coverage": float(covered.mean()),
                    "not_estimable": float((~ok).mean()),
                    "width": float(np.mean(high[ok] - low[ok])) if ok.any() else math.nan,
                    "miss_low": float((ok & (high < truth - TOL)).mean()),  # interval entirely below the truth
                    "miss_high": float((ok & (low > truth + TOL)).mean()),  # interval entirely above
                }
    return summary


# --------------------------------------------------------------------------- exact check

_LOG_FACT = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, max(SIZES) + 1)))])
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
    covered = (low <= p + TOL) & (high >= p - TOL)  # NaN compares False: a miss
    return float(_binom_pmf(n, p) @ covered)


def exact_coverage(truths: dict[int, dict[str, float]]) -> dict[tuple[int, int, str, str], float]:
    """Coverage computed from binomial distributions, no simulation, where it can be.

    miF1 of a single-label table is the accuracy, a Binomial(n, Σ p_ii) share, and its 'delta'
    interval (Takahashi's Var = p(1 − p)/n) is the Wald interval of that share. The precision
    of class 2 is a share of m ~ Binomial(n, q) predictions (q the class's predicted margin);
    its delta-method variance is p̂(1 − p̂)/m, so given m its 'delta' interval is the Wald
    interval, its Wilson interval the Wilson interval (none when m = 0: a miss).
    """
    out = {}
    for s in PAPER_TABLES:
        p = gold_pred(PAPER_TABLES[s])
        q = float(p[:, 1].sum())
        for n in SIZES:
            for method in ("delta", "delta-logit"):
                out[(s, n, "miF1", method)] = _exact_binomial(n, truths[s]["miF1"], method)
            weights = _binom_pmf(n, q)
            for method in ("delta", "delta-logit", "wilson"):
                out[(s, n, "P2", method)] = float(sum(weights[m] * _exact_binomial(m, truths[s]["P2"], method)
                                                      for m in range(1, n + 1) if weights[m] > 1e-300))
    return out


# --------------------------------------------------------------------------- report

def _cov_cell(d: dict) -> str:
    ne = d["not_estimable"]
    ne_text = "0%" if ne == 0 else (f"{100 * ne:.1f}%" if ne >= 0.001 else f"{100 * ne:.2f}%")
    return f"{d['coverage']:.3f} ({ne_text})"


def _width_cell(d: dict) -> str:
    return "–" if math.isnan(d["width"]) else f"{d['width']:.3f}"


def _paper_table_md(s: int) -> str:
    t = PAPER_TABLES[s]
    lines = ["| predicted \\ true | 1 | 2 | 3 |", "|---|---|---|---|"]
    for i in range(3):
        lines.append(f"| {i + 1} | " + " | ".join(f"{x:.4g}" for x in t[i]) + " |")
    return "\n".join(lines)


def kept_summary(path: Path) -> str:
    """The hand-written summary block of an existing report (markers included), or a placeholder."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        i, j = text.find(SUMMARY_START), text.find(SUMMARY_END)
        if 0 <= i < j:
            return text[i:j + len(SUMMARY_END)]
    return f"{SUMMARY_START}\n(No summary written yet: read the tables below.)\n{SUMMARY_END}"


def report(summary: dict, truths: dict, exact: dict, tables: int, resamples: int, wall: float, workers: int,
           command: str, findings: str) -> str:
    mc_se = math.sqrt(0.95 * 0.05 / tables)
    out = [
        "# Coverage of clfeval's confidence intervals",
        "",
        "A simulation study of the empirical coverage of clfeval's 95% confidence intervals, on the design of "
        "Takahashi, Yamamoto, Kuchiba and Koyama (2022), *Confidence interval for micro-averaged F1 and "
        "macro-averaged F1 scores* (Applied Intelligence): three classes, three scenarios of true cell "
        "probabilities (below), sample sizes n ∈ {" + ", ".join(map(str, SIZES)) + "}.",
        "",
        f"- For each scenario and n, **T = {tables}** tables of counts were drawn from Multinomial(n, p) "
        f"(numpy `default_rng(SeedSequence([{SEED}, scenario, n]))`).",
        "- On each table, each interval method gave a 95% interval for miF1, maF1 and maF1*, and for the "
        "precision of class 2 (a minority class in scenarios 2 and 3), which also has its Wilson score interval. "
        "The label set is declared as {1, 2, 3} on every table, so a class missing from a small table still counts.",
        f"- Methods: `delta` (Wald with Takahashi's closed-form variances for the three F1s when every class is "
        f"predicted and present, the generic delta method otherwise and for precision), `delta-logit`, "
        f"`bootstrap` (percentile) and `bootstrap-bca`, the last two with **{resamples} resamples**, seeded per "
        f"table with `SeedSequence([{SEED}, scenario, n, table]).generate_state(1)[0]` (the same resamples for "
        "both).",
        "- **Coverage** = share of the T tables whose interval contains the true value (the score of the "
        "probability table itself); a table where the method gives no interval (*not estimable*, e.g. a class "
        "never predicted makes maF1*'s delta-method variance undefined) counts as a miss. In parentheses: the "
        "share of tables where the interval was not estimable. Containment is inclusive (low ≤ truth ≤ high, "
        f"to {TOL:g}): scores of counts are discrete and an interval end can equal the true value exactly. "
        "**Width** = mean width over the estimable intervals.",
        f"- Monte Carlo standard error of a coverage near 0.95 with T = {tables}: ±{mc_se:.4f} "
        f"(so 0.95 ± {2 * mc_se:.3f} is within two standard errors).",
        f"- clfeval {clfeval.__version__}, Python {platform.python_version()}, numpy {np.__version__}; "
        f"{workers} worker process(es); wall time {wall / 60:.1f} min.",
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
        "## Scenarios",
        "",
        "As printed in the paper (rows = predicted, columns = true); clfeval's tables are indexed "
        "[gold, predicted], so the simulation uses their transposes. True values computed from the "
        "probabilities (and checked against the paper's stated values to two decimals, and against "
        "`clfeval.score_counts` on the probabilities × 10⁶):",
        "",
    ]
    for s in PAPER_TABLES:
        tv = truths[s]
        out += [f"**Scenario {s}** ({SCENARIO_NAMES[s]}): miF1 = {tv['miF1']:.4f}, maF1 = {tv['maF1']:.4f}, "
                f"maF1* = {tv['maF1*']:.4f}, precision of class 2 = {tv['P2']:.4f}.", "", _paper_table_md(s), ""]

    out += ["## Results", "",
            "Each cell: coverage (share of tables with no interval). Nominal level 0.95. "
            "Mean widths follow each coverage table.", ""]
    for name, title in SCORE_TITLES.items():
        cols = COLUMNS if name == "P2" else METHODS
        head = "| scenario | n | " + " | ".join(cols) + " |"
        rule = "|---|---:|" + "---|" * len(cols)
        out += [f"### {title}", "", "Coverage (not-estimable share):", "", head, rule]
        for s in PAPER_TABLES:
            for n in SIZES:
                out.append(f"| {s} | {n} | " + " | ".join(_cov_cell(summary[(s, n, name, c)]) for c in cols) + " |")
        out += ["", "Mean width:", "", head, rule]
        for s in PAPER_TABLES:
            for n in SIZES:
                out.append(f"| {s} | {n} | " + " | ".join(_width_cell(summary[(s, n, name, c)]) for c in cols)
                           + " |")
        out.append("")

    out += ["### Where the delta method's misses fall", "",
            "Share of tables whose `delta` interval lies entirely below / entirely above the true value "
            "(the rest of the misses are not-estimable tables):", "",
            "| scenario | n | " + " | ".join(SCORES) + " |", "|---|---:|" + "---|" * len(SCORES)]
    for s in PAPER_TABLES:
        for n in SIZES:
            out.append(f"| {s} | {n} | " + " | ".join(
                f"{summary[(s, n, name, 'delta')]['miss_low']:.3f} / {summary[(s, n, name, 'delta')]['miss_high']:.3f}"
                for name in SCORES) + " |")
    out.append("")

    checks = [("miF1", "delta"), ("miF1", "delta-logit"), ("P2", "delta"), ("P2", "delta-logit"), ("P2", "wilson")]
    worst = max(((abs(summary[(s, n, name, m)]["coverage"] - exact[(s, n, name, m)])
                  / math.sqrt(max(exact[(s, n, name, m)] * (1 - exact[(s, n, name, m)]), 1e-12) / tables),
                  s, n, name, m) for s in PAPER_TABLES for n in SIZES for name, m in checks))
    out += ["## Check: simulated against exact coverage", "",
            "Where coverage can be computed exactly from binomial distributions, without simulation: miF1 of a "
            "single-label table is the accuracy, a Binomial(n, Σ p_ii) share, and its `delta` interval "
            "(Takahashi's Var = p(1 − p)/n) is that share's Wald interval; the precision of class 2 is a share of "
            "m ~ Binomial(n, q) predictions, and given m its `delta` interval is the Wald interval of that "
            "share (none when m = 0). Each cell: simulated / exact. The largest gap is "
            f"{worst[0]:.1f} Monte Carlo standard errors (scenario {worst[1]}, n = {worst[2]}, {worst[3]}, "
            f"{worst[4]}).", "",
            "| scenario | n | " + " | ".join(f"{name} {m}" for name, m in checks) + " |",
            "|---|---:|" + "---|" * len(checks)]
    for s in PAPER_TABLES:
        for n in SIZES:
            out.append(f"| {s} | {n} | " + " | ".join(
                f"{summary[(s, n, name, m)]['coverage']:.3f} / {exact[(s, n, name, m)]:.3f}" for name, m in checks)
                + " |")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help=f"T={QUICK_TABLES} tables, {QUICK_RESAMPLES} resamples (a smoke test)")
    ap.add_argument("--out", type=Path, default=None,
                    help=f"where to write the Markdown (default {DEFAULT_OUT}; with --quick, standard output only)")
    ap.add_argument("--tables", type=int, default=None, help=f"tables per scenario and n (default {FULL_TABLES})")
    ap.add_argument("--resamples", type=int, default=None,
                    help=f"bootstrap resamples (default {FULL_RESAMPLES})")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--summary-tsv", type=Path, default=None,
                    help="also write every summary number (incl. misses below/above the truth) as TSV")
    args = ap.parse_args(argv)
    if args.out is None and not args.quick:
        args.out = DEFAULT_OUT
    tables = args.tables or (QUICK_TABLES if args.quick else FULL_TABLES)
    resamples = args.resamples or (QUICK_RESAMPLES if args.quick else FULL_RESAMPLES)

    truths = check_scenarios()
    print(f"scenarios check out; T={tables}, resamples={resamples}, workers={args.workers}", file=sys.stderr)
    t0 = time.perf_counter()
    results = simulate(tables, resamples, args.workers)
    wall = time.perf_counter() - t0
    summary = summarise(results, truths)

    parts = [".venv/bin/python benchmarks/coverage.py"]
    if args.quick:
        parts.append("--quick")
    if args.tables:
        parts.append(f"--tables {args.tables}")
    if args.resamples:
        parts.append(f"--resamples {args.resamples}")
    text = report(summary, truths, exact_coverage(truths), tables, resamples, wall, args.workers, " ".join(parts),
                  kept_summary(args.out or DEFAULT_OUT))
    if args.out is None:  # a quick smoke run must not overwrite the full study
        print(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.summary_tsv:
        with open(args.summary_tsv, "w", encoding="utf-8") as fh:
            fh.write("scenario\tn\tscore\tmethod\tcoverage\tnot_estimable\twidth\tmiss_low\tmiss_high\n")
            for (s, n, name, col), d in sorted(summary.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2],
                                                                                  kv[0][3])):
                fh.write(f"{s}\t{n}\t{name}\t{col}\t{d['coverage']:.4f}\t{d['not_estimable']:.4f}\t"
                         f"{d['width']:.4f}\t{d['miss_low']:.4f}\t{d['miss_high']:.4f}\n")
    print(f"wrote {args.out or 'standard output'} ({wall:.1f} s of simulation)", file=sys.stderr)


if __name__ == "__main__":
    main()
