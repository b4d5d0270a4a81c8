"""clfeval large-label-set benchmark: peak RSS and wall time of single-label scoring as the number of labels K
grows, against scikit-learn, to show that memory follows the distinct (gold, predicted) pairs, not K².

    python benchmarks/labels.py               # full run: K = 10^2..10^5 at 10^6 lines, N = 10^6..3·10^7 at K = 10^4
    python benchmarks/labels.py --quick       # K = 10^2..10^4 at 10^5 lines, N = 10^5 and 3·10^5: a check
    python benchmarks/labels.py --keep-data   # keep the generated files (up to 480 MB) for the next run
    python benchmarks/labels.py --repeats 3   # median of 3 round-robin runs (default 1)
    python benchmarks/labels.py --limit 600   # seconds a child may run before it is stopped (default 600)

Prints two Markdown tables and writes the same text to ``benchmarks/labels.md``.

What is measured: every row is one fresh child process, started by common.py's tiny launcher: its peak RSS
comes from ``os.wait4``'s rusage of that one child (start-up and imports included; the launcher is there
because on Linux a child's ``ru_maxrss`` starts from the high-water mark of the process it was forked from),
its wall time from the launcher's clock (interpreter start-up and imports included). Per file, round-robin
over the contenders (``--repeats``, default 1; the median time and the highest peak RSS are reported):

1. ``clfeval score FILE --format json``: the versioned JSON (clfeval.score/2) on standard output, kept in a
   file (its size is the *JSON MB* column; it is what the checks below read). Above 100 labels its confusion
   matrix is written as its non-zero cells (``"layout": "sparse"``, ``"cells": [[i, j, n], …]``).
2. ``clfeval score FILE --no-matrix``: the text report without the confusion matrix (output dropped).
2b. ``clfeval score FILE --format json --ci delta``: the same JSON with a delta-method confidence interval beside
   every score (8 per label, every average and overall measure), kept in a file.
3. scikit-learn (``SKLEARN_SCRIPT`` below, run with ``python -c``): ``polars.read_csv`` of the file, the labels
   made integer codes (a ``pl.Enum`` over the sorted union of gold and predicted labels, so scikit-learn sorts
   small integers rather than millions of Python strings), then ``precision_recall_fscore_support`` with
   ``average=None`` and ``average="macro"``, and separately ``classification_report(output_dict=True)``, all
   with ``zero_division=0``. The child prints, as JSON lines on standard output, the seconds of the
   ``precision_recall_fscore_support`` calls (both) and of ``classification_report`` alone, and the macro F1
   it got; the table shows the whole child's time and peak RSS and, apart, those in-process seconds (of the
   first run). The first line is printed before ``classification_report`` starts, so a child stopped at the
   limit still leaves its macro F1.
4. torchmetrics (``TORCHMETRICS_SCRIPT``: ``MulticlassF1Score(num_classes=K, average=None)`` on the same
   codes), only when ``import torchmetrics`` works; otherwise the report says it was not measured.

A child still running after ``--limit`` seconds (default 600) is stopped and its row marked so (its time and
RSS are then lower bounds) rather than holding up the run.

Sweeps: (1) K = 10^2, 10^3, 10^4, 10^5 labels at N = 10^6 lines; (2) N = 10^6, 3·10^6, 10^7, 3·10^7 lines at
K = 10^4 (``--quick``: K = 10^2, 10^3, 10^4 at 10^5 lines, and N = 10^5, 3·10^5). The number of distinct
(gold, predicted) pairs U in each file is in the tables; "MiB per 10^6 distinct pairs" is the slope of
clfeval's peak RSS against U over the K sweep (fixed N), by least squares.

Data: two-column TSV files ``gold<TAB>pred`` (16 bytes a line, labels ``L000000``-style), generated with numpy
into ``benchmarks/data/labels-K{k}-N{n}.tsv`` (git-ignored; reused when present and whole, deleted at the end
unless ``--keep-data``), written 10^6 lines at a time (so generating stays small in memory), each block seeded
with (SEED, block number): gold drawn from a Zipf-like distribution p_i ∝ 1/(i+1)^0.8 over the K labels; the
prediction is the gold label with probability 0.6, else a fresh draw from the same distribution (which may
be the gold label again). A file of whole blocks is a prefix of a larger one with the same K.

Checks (assertions, outside the timings; the script stops when one fails): for every file, clfeval's JSON
gives ``n_instances`` = N; its ``averages.macro.f1`` equals scikit-learn's macro F1
(``average="macro"``, labels the union of gold and predicted, ``zero_division=0``; the scikit-learn child's
number, or, if that child was stopped before printing it, one computed here the same way) within 1e-9; its
confusion matrix has ``"layout": "sparse"`` above 100 labels (``"dense"`` at or below), and its non-zero cells
number U, the distinct (gold, predicted) pairs counted here with polars (``df.unique().height``, as a lazy
streaming query) and add up to N. The ``--ci delta`` JSON has the same ``n_instances`` and macro F1 as the plain
JSON, its ``ci.method`` is ``delta`` and macro F1 has an interval around its estimate.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from common import (CLFEVAL, DATA, MIB, PYTHON, ChildRow, commands_section, log, md_table, measure, seeded_file,
                    start, timing_section, warmed, write_report, zipf_weights)

RESULTS = Path(__file__).resolve().with_suffix(".md")
SEED = 20240611
LINE = 16  # bytes a line: L000000<TAB>L000000<NEWLINE>
DIGITS = 6  # digits of a label number
ZIPF = 0.8  # p_i ∝ 1/(i+1)^ZIPF
P_CORRECT = 0.6  # the prediction is the gold label; else a fresh draw from the label distribution
DENSE_LABELS = 100  # clfeval's JSON: a dense matrix up to this many labels, its non-zero cells above
TOLERANCE = 1e-9
LIMIT = 600.0  # seconds: a child is stopped past this

K_SWEEP, K_SWEEP_N = [10**2, 10**3, 10**4, 10**5], 10**6
N_SWEEP, N_SWEEP_K = [10**6, 3 * 10**6, 10**7, 3 * 10**7], 10**4
QUICK_K_SWEEP, QUICK_K_SWEEP_N = [10**2, 10**3, 10**4], 10**5
QUICK_N_SWEEP, QUICK_N_SWEEP_K = [10**5, 3 * 10**5], 10**4


# --------------------------------------------------------------------------- data

def _label_bytes(codes: np.ndarray) -> np.ndarray:
    """Label numbers as a (rows, 7) uint8 array: ``L`` and 6 decimal digits."""
    out = np.empty((len(codes), 1 + DIGITS), dtype=np.uint8)
    out[:, 0] = ord("L")
    for place in range(DIGITS):
        out[:, DIGITS - place] = 48 + (codes // 10**place) % 10
    return out


def block_maker(k: int) -> Callable[[int, int], np.ndarray]:
    """``make_block(block number, rows)`` for ``common.seeded_file``: seeded lines of the K-label distribution."""
    weights = zipf_weights(k, ZIPF)  # 1/rank^ZIPF, rank = i + 1

    def make_block(block: int, size: int) -> np.ndarray:
        rng = np.random.default_rng([SEED, block])
        gold = rng.choice(k, size=size, p=weights)
        fresh = rng.choice(k, size=size, p=weights)
        pred = np.where(rng.random(size) < P_CORRECT, gold, fresh)
        out = np.empty((size, LINE), dtype=np.uint8)
        out[:, 0:7] = _label_bytes(gold)
        out[:, 7] = ord("\t")
        out[:, 8:15] = _label_bytes(pred)
        out[:, 15] = ord("\n")
        return out

    return make_block


def labels_file(k: int, n: int) -> Path:
    """The n-line file of K labels (generated once, reused when present and whole)."""
    assert k <= 10**DIGITS
    return seeded_file(DATA / f"labels-K{k}-N{n}.tsv", LINE, n, block_maker(k), log)


def distinct(path: Path) -> tuple[int, int]:
    """The file's distinct (gold, predicted) pairs U and distinct labels (gold and predicted together), counted
    with a lazy polars query (``df.unique().height``, streaming, so that this process stays small)."""
    import polars as pl

    lf = pl.scan_csv(path, separator="\t", has_header=False, new_columns=["gold", "pred"], quote_char=None)
    pairs = lf.unique().select(pl.len()).collect(engine="streaming").item()
    labels = (pl.concat([lf.select(pl.col("gold").alias("label")), lf.select(pl.col("pred").alias("label"))])
              .unique().select(pl.len()).collect(engine="streaming").item())
    return pairs, labels


# the results file's paragraph on the data
DATA_TEXT = (f"Data: seeded two-column TSV, `gold<TAB>pred` a line ({LINE} bytes, labels `L000000`-style), gold drawn "
             f"from p_i ∝ 1/(i+1)^{ZIPF:g} over the K labels, the prediction the gold label with probability "
             f"{P_CORRECT:g}, else a fresh draw from the same distribution; generated 10^6 lines at a time, each block "
             "seeded with (SEED, block number). U: the file's distinct (gold, predicted) pairs; labels: the distinct "
             "labels occurring in it (gold or predicted: the label set clfeval and scikit-learn both score over).")


# --------------------------------------------------------------------------- contenders

# What a scikit-learn user would write, with integer codes: python -c SKLEARN_SCRIPT FILE
SKLEARN_SCRIPT = """
import json, sys, time
import polars as pl
from sklearn.metrics import classification_report, precision_recall_fscore_support

t0 = time.perf_counter()
df = pl.read_csv(sys.argv[1], separator="\\t", has_header=False, new_columns=["gold", "pred"])
labels = pl.concat([df["gold"], df["pred"]]).unique().sort()
enum = pl.Enum(labels)
gold = df["gold"].cast(enum).to_physical().to_numpy()
pred = df["pred"].cast(enum).to_physical().to_numpy()
read = time.perf_counter() - t0

t0 = time.perf_counter()
per_label = precision_recall_fscore_support(gold, pred, average=None, zero_division=0)
macro = precision_recall_fscore_support(gold, pred, average="macro", zero_division=0)
prfs = time.perf_counter() - t0
print(json.dumps({"n": len(gold), "labels": len(labels), "read_s": read, "prfs_s": prfs, "macro_f1": macro[2]}),
      flush=True)

t0 = time.perf_counter()
report = classification_report(gold, pred, output_dict=True, zero_division=0)
print(json.dumps({"report_s": time.perf_counter() - t0, "report_macro_f1": report["macro avg"]["f1-score"]}),
      flush=True)
"""

# torchmetrics on the same codes (run only when torchmetrics imports): python -c TORCHMETRICS_SCRIPT FILE
TORCHMETRICS_SCRIPT = """
import json, sys, time
import polars as pl
import torch
from torchmetrics.classification import MulticlassF1Score

df = pl.read_csv(sys.argv[1], separator="\\t", has_header=False, new_columns=["gold", "pred"])
labels = pl.concat([df["gold"], df["pred"]]).unique().sort()
enum = pl.Enum(labels)
gold = torch.from_numpy(df["gold"].cast(enum).to_physical().to_numpy().astype("int64"))
pred = torch.from_numpy(df["pred"].cast(enum).to_physical().to_numpy().astype("int64"))

t0 = time.perf_counter()
f1 = MulticlassF1Score(num_classes=len(labels), average=None)(pred, gold)
calls = time.perf_counter() - t0
print(json.dumps({"n": len(gold), "labels": len(labels), "calls_s": calls, "macro_f1": float(f1.double().mean())}),
      flush=True)
"""


def torchmetrics_missing() -> str | None:
    """Why torchmetrics cannot be a contender here, or None when it imports."""
    if importlib.util.find_spec("torch") is None:
        return "torchmetrics needs torch, not installed"
    if importlib.util.find_spec("torchmetrics") is None:
        return "torchmetrics not installed"
    return None


@dataclass(kw_only=True)
class Row(ChildRow):
    kind: str  # clfeval-json, clfeval-text, sklearn, torchmetrics
    k: int
    path: Path
    pairs: int = 0  # U
    labels: int = 0  # distinct labels in the file
    printed: list[dict] = field(default_factory=list)  # the JSON lines a Python child printed (first run)
    json_bytes: int = 0  # clfeval's JSON output (first run)

    def keep_output(self) -> None:
        """Read what the first run wrote (the JSON lines a Python child printed; the size of clfeval's JSON)."""
        if self.stdout is None or not self.stdout.exists():
            return
        if self.kind in ("clfeval-json", "clfeval-delta"):
            self.json_bytes = self.stdout.stat().st_size
        else:
            for line in self.stdout.read_text(encoding="utf-8").splitlines():
                try:
                    self.printed.append(json.loads(line))
                except json.JSONDecodeError:  # blank, or cut short by the limit
                    pass


def file_rows(k: int, n: int, path: Path, repeats: int, limit: float, torch_ok: bool) -> list[Row]:
    out = DATA / "labels-out"
    out.mkdir(parents=True, exist_ok=True)
    stem = f"K{k}-N{n}"
    shared = {"n": n, "k": k, "path": path, "repeats": repeats, "limit": limit}
    rows = [Row("clfeval score FILE --format json", argv=[CLFEVAL, "score", str(path), "--format", "json"],
                stdout=out / f"{stem}.json", kind="clfeval-json", reference=True, **shared),
            Row("clfeval score FILE --no-matrix", argv=[CLFEVAL, "score", str(path), "--no-matrix"],
                kind="clfeval-text", **shared),
            Row("clfeval score FILE --format json --ci delta",
                argv=[CLFEVAL, "score", str(path), "--format", "json", "--ci", "delta"],
                stdout=out / f"{stem}.delta.json", kind="clfeval-delta", **shared),
            Row("scikit-learn (polars read, codes)", argv=[PYTHON, "-c", SKLEARN_SCRIPT, str(path)],
                stdout=out / f"{stem}.sklearn.jsonl", kind="sklearn", **shared)]
    if torch_ok:
        rows.append(Row("torchmetrics MulticlassF1Score", argv=[PYTHON, "-c", TORCHMETRICS_SCRIPT, str(path)],
                        stdout=out / f"{stem}.torchmetrics.jsonl", kind="torchmetrics", **shared))
    for row in rows:
        if row.stdout is not None:
            row.stdout.unlink(missing_ok=True)  # no stale output from an earlier run
    return rows


# --------------------------------------------------------------------------- checks

def sklearn_macro_f1(path: Path) -> float:
    """scikit-learn's macro F1 over the union of labels (zero_division=0), computed here: the fallback when the
    scikit-learn child was stopped before printing its own."""
    import polars as pl
    from sklearn.metrics import f1_score

    df = pl.read_csv(path, separator="\t", has_header=False, new_columns=["gold", "pred"])
    enum = pl.Enum(pl.concat([df["gold"], df["pred"]]).unique().sort())
    gold = df["gold"].cast(enum).to_physical().to_numpy()
    pred = df["pred"].cast(enum).to_physical().to_numpy()
    return float(f1_score(gold, pred, average="macro", zero_division=0))


def check(rows: list[Row]) -> str:
    """The assertions for one file (see the module docstring); a sentence for the Checks section."""
    first = rows[0]
    k, n, path = first.k, first.n, first.path
    where = f"K={k:,}, N={n:,}"
    pairs, labels = distinct(path)
    for row in rows:
        row.pairs, row.labels = pairs, labels
    js = next(r for r in rows if r.kind == "clfeval-json")
    if not js.completed:
        return f"{where}: NOT CHECKED: clfeval --format json was stopped at the {js.limit:.0f} s limit"
    data = json.loads(js.stdout.read_text(encoding="utf-8"))
    problems = []
    if data["n_instances"] != n:
        problems.append(f"n_instances {data['n_instances']:,}, expected {n:,}")
    sk = next(r for r in rows if r.kind == "sklearn")
    printed = sk.printed
    if printed:
        sk_macro, source = printed[0]["macro_f1"], "the scikit-learn child's"
    else:
        sk_macro, source = sklearn_macro_f1(path), "scikit-learn's (computed here: the child was stopped)"
    macro = data["averages"]["macro"]["f1"]
    if abs(macro - sk_macro) > TOLERANCE:
        problems.append(f"macro F1 {macro!r}, {source} {sk_macro!r}")
    if len(printed) > 1 and abs(printed[1]["report_macro_f1"] - sk_macro) > TOLERANCE:
        problems.append(f"classification_report's macro avg F1 {printed[1]['report_macro_f1']!r}, "
                        f"precision_recall_fscore_support's {sk_macro!r}")
    matrix = data["confusion_matrix"]
    layout = "sparse" if k > DENSE_LABELS else "dense"
    if matrix["layout"] != layout:
        problems.append(f"confusion_matrix layout {matrix['layout']!r}, expected {layout!r}")
    if len(matrix["labels"]) != labels:
        problems.append(f"{len(matrix['labels']):,} matrix labels, the file has {labels:,}")
    if matrix["layout"] == "sparse":
        cells = matrix["cells"]
        nonzero, total = sum(1 for c in cells if c[2] != 0), sum(c[2] for c in cells)
        if nonzero != len(cells):
            problems.append(f"{len(cells) - nonzero:,} zero cells listed among the sparse cells")
        nonzero = len(cells)
    else:
        counts = np.array(matrix["counts"], dtype=np.int64)
        nonzero, total = int(np.count_nonzero(counts)), int(counts.sum())
    if nonzero != pairs:
        problems.append(f"{nonzero:,} non-zero matrix cells, the file has {pairs:,} distinct pairs")
    if total != n:
        problems.append(f"the matrix cells add up to {total:,}, expected {n:,}")
    delta = next(r for r in rows if r.kind == "clfeval-delta")
    delta_text = "--ci delta stopped at the limit: not checked"
    if delta.completed:
        with_ci = json.loads(delta.stdout.read_text(encoding="utf-8"))
        interval = with_ci["averages"]["macro"].get("f1_ci")
        if with_ci["n_instances"] != n or with_ci["averages"]["macro"]["f1"] != macro:
            problems.append("the --ci delta JSON's n_instances or macro F1 differs from the plain JSON's")
        if with_ci["ci"]["method"] != "delta" or interval is None or not interval[0] <= macro <= interval[1]:
            problems.append(f"--ci delta: method {with_ci['ci']['method']!r}, macro F1 interval {interval!r}")
        delta_text = f"--ci delta: the same n and macro F1, interval [{interval[0]:.6f}, {interval[1]:.6f}]"
    if problems:
        raise SystemExit(f"CHECK FAILED at {where} ({path.name}):\n  " + "\n  ".join(problems))
    text = (f"{where}: n_instances = {n:,}; macro F1 {macro:.12f} = {source} to 1e-9"
            + (" (and classification_report's macro avg)" if len(printed) > 1 else "")
            + f"; layout {layout!r} with {pairs:,} non-zero cells = the file's distinct pairs U, adding up to N; "
            f"{labels:,} labels; {delta_text}")
    log(f"check {text}")
    return text


# --------------------------------------------------------------------------- report

def time_cell(row: Row) -> str:
    if row.stopped:
        return f"> {row.limit:.0f} (stopped)"
    return f"{row.median:.2f}"


def rss_cell(row: Row) -> str:
    return ("≥ " if row.stopped else "") + f"{max(row.rss) / MIB:,.0f}"


def calls_cell(row: Row) -> str:
    """The in-process seconds a Python child printed: scikit-learn's prfs (both calls) + classification_report."""
    printed = row.printed
    if row.kind == "sklearn" and printed:
        prfs = f"{printed[0]['prfs_s']:.2f}"
        report = f"{printed[1]['report_s']:.2f}" if len(printed) > 1 else "stopped"
        return f"{prfs} + {report}"
    if row.kind == "torchmetrics" and printed:
        return f"{printed[0]['calls_s']:.2f}"
    return "–"


def sweep_table(rows: list[Row], by: str) -> list[str]:
    head = [by, "labels", "distinct pairs U", "contender", "reps", "time s", "peak MiB", "JSON MB", "calls s"]
    body = []
    for row in rows:
        kept = row.kind in ("clfeval-json", "clfeval-delta") and row.completed
        json_mb = f"{row.json_bytes / 1e6:,.1f}" if kept else "–"
        body.append([f"{row.k if by == 'K' else row.n:,}", f"{row.labels:,}", f"{row.pairs:,}", row.contender,
                     str(len(row.times)), time_cell(row), rss_cell(row), json_mb, calls_cell(row)])
    return md_table(head, body, right={0, 1, 2, 4, 5, 6, 7, 8})


LEGEND = ("peak MiB: the child's peak RSS (`os.wait4`), the highest over the repeats; JSON MB: the size of clfeval's "
          "JSON output; calls s: the seconds scikit-learn's calls took inside its child (first run): "
          "`precision_recall_fscore_support` with average=None and \"macro\" + `classification_report`.")


def slope_text(rows: list[Row], n: int) -> str:
    """clfeval's MiB per 10^6 distinct pairs over the K sweep (least squares), and the dense table it avoids."""
    parts = []
    for kind, name in (("clfeval-json", "`--format json`"), ("clfeval-text", "`--no-matrix` (text)")):
        pts = [(r.pairs, max(r.rss) / MIB) for r in rows if r.kind == kind and r.completed]
        if len(pts) < 2:
            continue
        u, mib = np.array(pts, dtype=float).T
        slope = np.polyfit(u, mib, 1)[0] * 1e6
        parts.append(f"{name} {slope:,.0f} MiB per 10^6 distinct pairs ({mib[0]:,.0f} MiB at U = {u[0]:,.0f}, "
                     f"{mib[-1]:,.0f} MiB at U = {u[-1]:,.0f})")
    k_max = max(r.k for r in rows)
    dense = k_max**2 * 8 / 2**30
    return (f"clfeval's peak RSS against U over the K sweep ({n:,} lines), least-squares slope: "
            + "; ".join(parts) + ". An upper bound on the cost of a pair: the labels grow with U in this sweep, so "
            "per-label costs (a row of measures per label, the label strings) are charged to the pairs too. "
            f"A dense K×K table of int64 counts at K = {k_max:,} would take {dense:,.1f} GiB by itself.")


def main() -> int:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--keep-data", action="store_true", help="keep the generated files (default: delete)")
        parser.add_argument("--repeats", type=int, default=1, metavar="R", help="runs per contender (default 1)")
        parser.add_argument("--limit", type=float, default=LIMIT, metavar="S",
                            help="seconds a child may run before it is stopped (default %(default)g)")

    session = start(__doc__, RESULTS, extra)
    args = session.args
    if args.quick:
        k_sweep, k_n, n_sweep, n_k = QUICK_K_SWEEP, QUICK_K_SWEEP_N, QUICK_N_SWEEP, QUICK_N_SWEEP_K
    else:
        k_sweep, k_n, n_sweep, n_k = K_SWEEP, K_SWEEP_N, N_SWEEP, N_SWEEP_K
    missing = torchmetrics_missing()
    if missing:
        log(f"not measured: {missing}")

    log("preparing data in benchmarks/data/ (generated once, then reused)")
    files = {(k, k_n): labels_file(k, k_n) for k in k_sweep}
    files.update({(n_k, n): labels_file(n_k, n) for n in n_sweep})

    done: dict[tuple[int, int], list[Row]] = {}
    checks: list[str] = []
    for (k, n), path in warmed(files):
        log(f"K={k:,}, N={n:,}: {path.name} ({path.stat().st_size / 1e6:,.0f} MB)")
        rows = file_rows(k, n, path, args.repeats, args.limit, missing is None)
        measure(rows, log, width=36)
        for row in rows:
            row.keep_output()
        checks.append(check(rows))
        done[(k, n)] = rows
        if not args.keep_data:
            for row in rows:
                if row.stdout is not None:
                    row.stdout.unlink(missing_ok=True)

    if not args.keep_data:
        for path in files.values():
            path.unlink(missing_ok=True)
        shutil.rmtree(DATA / "labels-out", ignore_errors=True)
        log(f"deleted {len(files)} data files (--keep-data keeps them)")

    # ----------------------------------------------------------------- report
    k_rows = [r for k in k_sweep for r in done[(k, k_n)]]
    n_rows = [r for n in n_sweep for r in done[(n_k, n)]]
    sections = timing_section(f"1. By number of labels K, at N = {k_n:,} lines", sweep_table(k_rows, "K"), LEGEND)
    sections += [slope_text(k_rows, k_n), ""]
    sections += timing_section(f"2. By number of lines N, at K = {n_k:,} labels", sweep_table(n_rows, "N"), LEGEND)
    stopped = [f"{r.contender} at K={r.k:,}, N={r.n:,}" for r in k_rows + n_rows if r.stopped]
    if stopped:
        sections += [f"Stopped at the {args.limit:.0f} s limit (time and RSS are lower bounds): "
                     + "; ".join(stopped) + ".", ""]
    sections += [f"Not measured: {missing}." if missing else "torchmetrics: measured (rows above).", ""]
    scripts = [("`SKLEARN_SCRIPT`", SKLEARN_SCRIPT)] + ([] if missing else [("`TORCHMETRICS_SCRIPT`",
                                                                               TORCHMETRICS_SCRIPT)])
    sections += commands_section(["clfeval score FILE --format json > OUT.json",
                                  "clfeval score FILE --no-matrix > /dev/null",
                                  "clfeval score FILE --format json --ci delta > OUT.delta.json",
                                  "python -c \"$SKLEARN_SCRIPT\" FILE   # below"]
                                 + ([] if missing else ["python -c \"$TORCHMETRICS_SCRIPT\" FILE   # below"]),
                                 scripts)
    title = "clfeval large-label-set benchmark"
    write_report(session, title, "labels.py", ["numpy", "polars", "scikit-learn", "torch", "torchmetrics"],
                 DATA_TEXT + f" Runs per contender: {args.repeats} (round-robin); limit {args.limit:.0f} s a child.",
                 sections, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
