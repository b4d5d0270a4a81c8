"""Scored predictions: DeLong's standard error of the averaged AUCs (macro, weighted, micro) against the instance
jackknife of scikit-learn's averaged AUC, on random cases (docs/scored.md states the range measured here).

    .venv/bin/python benchmarks/scored_averaged.py            # writes benchmarks/scored_averaged.md
    .venv/bin/python benchmarks/scored_averaged.py --quick    # 10 cases per family: a smoke test, prints only

Design. Two families of CASES random cases each, case c drawn from default_rng([SEED, family, c]):

- single-label: K = 3 to 5 classes, n = 30 to 250 instances, class shares from Dirichlet(2, …, 2) with at least 3
  instances of every class, logits N(0, 1) plus a shift of 0.3 to 2.0 on the gold class, the softmax rounded to 1 to
  3 decimals (ties; the last column made up so that rows sum to 1);
- multi-label: K = 2 to 5 labels, n = 30 to 250 instances, each label in an instance's gold set with probability
  0.15 to 0.6 (every label with at least 3 positives and 3 negatives), scores uniform·0.7 + 0.3·gold rounded to 1 or 2
  decimals.

For each case and average, the ratio of clfeval's DeLong standard error (``averaged_auc_terms`` and
``influence_variance``: Bessel's correction per sample) to the jackknife standard error of scikit-learn's
``roc_auc_score`` (each instance left out once: √((n − 1)/n Σ (θ_(i) − θ̄)²), computed once per distinct row and
weighted by its count), and beside it the ratio the variance n/(n − 1) Σ T² (the terms pooled into one sample, as
clfeval computed it before issue 37) gives. The binary AUC's DeLong standard error against its own jackknife, on the
single-label cases' first class against the rest, is the reference: DeLong's variance is not the jackknife's, which
is larger by about P/(P − 1) on the positives' part.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from coverage import machine  # noqa: E402  (benchmarks/coverage.py, beside this script)
from scored_coverage import source_state  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

import clfeval  # noqa: E402
from clfeval.count.scored import ScoreCounts  # noqa: E402
from clfeval.infer.delong import delong, influence_variance  # noqa: E402
from clfeval.infer.scored import averaged_auc_terms  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "scored_averaged.md"
SEED = 20261201
CASES = 100
AVERAGES = ("macro", "weighted", "micro")


def single_label(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    while True:
        k, n = int(rng.integers(3, 6)), int(rng.integers(30, 251))
        y = rng.choice(k, n, p=rng.dirichlet(np.full(k, 2.0)))
        if np.bincount(y, minlength=k).min() < 3:
            continue
        logits = rng.normal(size=(n, k)) + rng.uniform(0.3, 2.0) * np.eye(k)[y]
        p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), int(rng.integers(1, 4)))
        p[:, -1] = 1 - p[:, :-1].sum(axis=1)
        if (p[:, -1] >= 0).all():
            return y, p, k


def multi_label(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    while True:
        k, n = int(rng.integers(2, 6)), int(rng.integers(30, 251))
        y = (rng.random((n, k)) < rng.uniform(0.15, 0.6)).astype(int)
        if y.sum(axis=0).min() < 3 or (1 - y).sum(axis=0).min() < 3:
            continue
        return y, np.round(rng.random((n, k)) * 0.7 + 0.3 * y, int(rng.integers(1, 3))), k


def ratio(a: float, b: float) -> float:
    """a / b, NaN when both are 0 (every score separates the classes: no variance either way)."""
    return a / b if b > 0 else float("nan")


def jackknife_se(statistic, y: np.ndarray, p: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    """The instance jackknife's standard error, each distinct (gold, scores) row left out once, weighted by count."""
    rows = np.column_stack([y.reshape(len(y), -1), p])
    _, first, count = np.unique(rows, axis=0, return_index=True, return_counts=True)
    values = np.array([statistic(np.delete(y, i, axis=0), np.delete(p, i, axis=0)) for i in first])
    n = len(y)
    mean = np.dot(count, values) / n
    return float(np.sqrt((n - 1) / n * np.dot(count, (values - mean) ** 2)))


def sklearn_average(average: str, k: int, multilabel: bool):  # type: ignore[no-untyped-def]
    if multilabel:
        return lambda y, p: roc_auc_score(y, p, average=average)
    if average == "micro":
        return lambda y, p: roc_auc_score(np.eye(k)[y], p, average="micro")
    return lambda y, p: roc_auc_score(y, p, multi_class="ovr", average=average, labels=list(range(k)))


def measure(family: int, case: int) -> dict[str, tuple[float, float]]:
    rng = np.random.default_rng([SEED, family, case])
    multilabel = family == 1
    y, p, k = multi_label(rng) if multilabel else single_label(rng)
    names = [str(j) for j in range(k)]
    counts = ScoreCounts.of_label_sets(y, p, names) if multilabel else ScoreCounts.of_arrays(y, p, names)
    out = {}
    for average in AVERAGES:
        value, terms = averaged_auc_terms(counts, counts.gold, counts.scores, counts.count, average)
        statistic = sklearn_average(average, k, multilabel)
        assert abs(value - statistic(y, p)) < 1e-12
        jack = jackknife_se(statistic, y, p)
        now = ratio(float(np.sqrt(influence_variance(terms, counts.count))), jack)
        pooled = ratio(float(np.sqrt(influence_variance(np.nansum(terms, axis=1), counts.count))), jack)
        out[average] = (now, pooled)
    if not multilabel:
        first = (y == 0).astype(int)
        jack = jackknife_se(lambda yy, pp: roc_auc_score(yy == 0, pp[:, 0]), y, p)
        out["binary"] = (ratio(float(np.sqrt(delong(first == 1, p[:, 0]).variance)), jack), float("nan"))
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 cases per family; prints, writes nothing")
    ap.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    cases = 10 if args.quick else CASES
    start = time.time()
    found = {family: [measure(family, c) for c in range(cases)] for family in (0, 1)}
    wall = time.time() - start
    lines = [
        "# Scored predictions: DeLong's standard error of averaged AUCs against the instance jackknife",
        "",
        "Written by `benchmarks/scored_averaged.py` (its docstring has the design). Reproduce with",
        "",
        "```sh",
        ".venv/bin/python benchmarks/scored_averaged.py",
        "```",
        "",
        f"- {cases} random cases per family (single-label: 3–5 classes; multi-label: 2–5 labels; 30–250 instances, "
        "rounded scores with ties).",
        f"- Machine: {machine()}; wall time {wall:.0f} s ({time.strftime('%Y-%m-%d')}); clfeval "
        f"{clfeval.__version__}, {source_state()}.",
        "",
        "Ratio of DeLong's standard error to the jackknife's (min / median / max over the cases):",
        "",
        "| family | average | Bessel's correction per sample (clfeval) | n/(n − 1), terms pooled (before) |",
        "|---|---|---:|---:|",
    ]
    for family, name in ((0, "single-label"), (1, "multi-label")):
        for average in (*AVERAGES, "binary"):
            if average not in found[family][0]:
                continue
            cells = []
            for j in (0, 1):
                r = np.array([case[average][j] for case in found[family]])
                if j == 1 and np.isnan(r).all():
                    cells.append("—")
                    continue
                ok = r[np.isfinite(r)]
                none = f" ({len(r) - len(ok)} without: no variance)" if len(ok) < len(r) else ""
                cells.append(f"{ok.min():.3f} / {np.median(ok):.3f} / {ok.max():.3f}{none}")
            label = "binary AUC (class 0 against the rest; DeLong's own)" if average == "binary" else average
            lines.append(f"| {name} | {label} | {cells[0]} | {cells[1]} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        (args.out or DEFAULT_OUT).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
