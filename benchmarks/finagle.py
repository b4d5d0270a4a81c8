"""clfeval finagle benchmark: ``clfeval finagle`` against the pandas + scikit-learn script a user would write.

    python benchmarks/finagle.py            # 10^6 and 10^7 lines (about 15-20 minutes on 2 cores)
    python benchmarks/finagle.py --quick    # 10^5 lines only (under a minute): a check that everything runs

Prints one Markdown table (contender, N, repeats, median seconds, ratio vs the clfeval
``--threshold`` row at the same N, peak RSS) and writes the same text to ``benchmarks/finagle.md``.

What is measured: the whole job end to end, each contender as its own subprocess (wall time
includes interpreter start-up and imports), from a TiMBL-style text file to the NORMAL, CHANGED
(distance > 1.0 changed to the target label) and UPPER (every wrong prediction changed to it)
scorings:

1. ``clfeval finagle FILE --threshold 1.0 --lower-is-more-confident --format json -o /dev/null``,
   and the same with ``--expected-accuracy 0.35`` in place of ``--threshold`` (calibration bins
   of about 100 instances; the bins whose calibrated accuracy is below 35% are changed);
2. a pandas + scikit-learn script (``PANDAS_SKLEARN`` below, run with ``python -c``):
   ``pandas.read_csv`` of the file, the most frequent gold label as target, the CHANGED and UPPER
   predictions with pandas, and for each scenario macro, micro and weighted precision, recall and
   F1 (``precision_recall_fscore_support`` with ``labels=`` the union of gold and predicted labels
   of NORMAL, ``zero_division=0``) and accuracy, printed as JSON;
3. the same script with the labels turned into integer codes first (``PANDAS_SKLEARN_CODES``:
   ``pd.Categorical(...).codes`` over the sorted label set), what a user who profiled 2 would
   write: scikit-learn then sorts small integers instead of millions of distinct Python strings.

Median of 3 repeats, round-robin (so drift hits every contender alike). A pandas run that takes
more than 3 minutes is not repeated; one still running after ``--pandas-limit`` seconds (default
420: the string-label script at 10^7, which would take far longer) is stopped, and its time and
RSS are reported as lower bounds. Peak RSS: of that one child process, from ``os.wait4``'s rusage
via a tiny launcher process, as in run.py (start-up and imports included); the highest over the
repeats.

Check (outside the timings): clfeval's JSON (one extra, untimed run per N writing a file) against
the JSON printed by the first timed run of each pandas script that completed: the same target
label, and the same macro, micro and weighted precision, recall and F1 and accuracy for all three
scenarios to 1e-9; the script stops with an error otherwise (or when no pandas run completed), so
the rows compare the same work.

Data: seeded, generated once into ``benchmarks/data/`` (git-ignored) and reused: one instance
per line, ``feature gold predicted distance`` (16 bytes, e.g. ``q T12 T03 0.873``): a feature
letter, 40 tags T00..T39 with p ∝ 1/rank^0.7, distance ~ Exponential(1) rounded to 3 decimals
(clipped at 9.999, which touches about 5 lines in 10^5), correct with probability
exp(-distance/2.5) (about 71% correct overall), a wrong prediction drawn from the tag
distribution, never the gold tag. Drawn in blocks of 10^6 rows, each seeded with
(SEED, block number), so the smaller file is a prefix of the larger.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import (CLFEVAL, DATA, MIB, PYTHON, ROOT, ChildRow, commands_section, data_files, log, md_table, measure,
                    ratio_text, seeded_file, start, tag_lines, timing_section, warmed, write_report, wrong_tags,
                    zipf_weights)

RESULTS = Path(__file__).resolve().with_suffix(".md")
K = 40  # tags
SEED = 20240607
LINE = 16  # bytes a line
SCALE = 2.5  # P(correct) = exp(-distance / SCALE)
THRESHOLD = 1.0
EXPECTED_ACCURACY = 0.35
REPEATS = 3
ONE_REPEAT_AFTER = 180.0  # seconds: a pandas run slower than this is not repeated
PANDAS_LIMIT = 420.0  # seconds: a pandas run is stopped past this (the string-label script at 10^7)
TOLERANCE = 1e-9


# --------------------------------------------------------------------------- data

def _block(block: int, size: int) -> np.ndarray:
    """``size`` lines of block number ``block`` as a (size, 16) uint8 array."""
    rng = np.random.default_rng([SEED, block])
    weights = zipf_weights(K, 0.7)  # Zipf-like tag frequencies
    gold = rng.choice(K, size=size, p=weights)
    distance = np.minimum(np.round(rng.exponential(1.0, size=size), 3), 9.999)
    wrong = wrong_tags(rng, gold, weights)
    pred = np.where(rng.random(size) < np.exp(-distance / SCALE), gold, wrong)
    feature = rng.integers(0, 26, size=size)
    milli = np.rint(distance * 1000).astype(np.int64)
    out = tag_lines(feature, gold, pred, LINE)  # "q T12 T03", then " 0.873"
    out[:, 9] = ord(" ")
    out[:, 10] = 48 + milli // 1000
    out[:, 11] = ord(".")
    out[:, 12], out[:, 13], out[:, 14] = 48 + milli // 100 % 10, 48 + milli // 10 % 10, 48 + milli % 10
    return out


def timbl_file(n: int, log: Callable[[str], None]) -> Path:
    """The n-line TiMBL-style file (generated once, reused when present and whole)."""
    return seeded_file(DATA / f"finagle-{n}-seed{SEED}.txt", LINE, n, _block, log)


# the results file's sentence on the data
DATA_TEXT = (f"Data: seeded TiMBL-style text, `feature gold predicted distance` a line ({LINE} bytes, e.g. "
             f"`q T12 T03 0.873`), {K} tags with p ∝ 1/rank^0.7, distance ~ Exponential(1) rounded to 3 decimals, "
             f"P(correct) = exp(−distance/{SCALE:g}) (about 71% correct). Doubtful: distance > {THRESHOLD}; target: "
             "the most frequent gold label (clfeval's default without training data).")


# --------------------------------------------------------------------------- contenders

PANDAS_SKLEARN = f"""
import json, sys
import pandas as pd
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

df = pd.read_csv(sys.argv[1], sep=" ", header=None, names=["feature", "gold", "pred", "distance"])
gold, pred = df["gold"], df["pred"]
target = gold.value_counts().idxmax()                  # the most frequent gold label
labels = sorted(set(gold.unique()) | set(pred.unique()))  # the label set of NORMAL
scenarios = {{
    "normal": pred,
    "changed": pred.mask(df["distance"] > {THRESHOLD!r}, target),  # doubtful: distance above the threshold
    "upper": pred.mask(pred != gold, target),                  # every wrong prediction
}}
out = {{"target": target}}
for name, p in scenarios.items():
    res = {{"accuracy": accuracy_score(gold, p)}}
    for average in ("macro", "micro", "weighted"):
        prec, rec, f1, _ = precision_recall_fscore_support(gold, p, labels=labels, average=average,
                                                           zero_division=0)
        res[average] = {{"precision": prec, "recall": rec, "f1": f1}}
    out[name] = res
print(json.dumps(out))
"""

# The same computation with the labels turned into integer codes first (pd.Categorical over the sorted label
# set): what a user who profiled the script above would write; scikit-learn then sorts small integers instead
# of millions of distinct Python strings.
PANDAS_SKLEARN_CODES = f"""
import json, sys
import pandas as pd
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

df = pd.read_csv(sys.argv[1], sep=" ", header=None, names=["feature", "gold", "pred", "distance"])
labels = sorted(set(df["gold"].unique()) | set(df["pred"].unique()))  # the label set of NORMAL
gold = pd.Categorical(df["gold"], categories=labels).codes             # int8 codes into labels
pred = pd.Categorical(df["pred"], categories=labels).codes
target = labels.index(df["gold"].value_counts().idxmax())  # the most frequent gold label
scenarios = {{
    "normal": pred,
    "changed": pred.copy(),
    "upper": pred.copy(),
}}
scenarios["changed"][df["distance"].to_numpy() > {THRESHOLD!r}] = target  # doubtful: distance above the threshold
scenarios["upper"][pred != gold] = target                                 # every wrong prediction
out = {{"target": labels[target]}}
codes = list(range(len(labels)))
for name, p in scenarios.items():
    res = {{"accuracy": accuracy_score(gold, p)}}
    for average in ("macro", "micro", "weighted"):
        prec, rec, f1, _ = precision_recall_fscore_support(gold, p, labels=codes, average=average,
                                                           zero_division=0)
        res[average] = {{"precision": prec, "recall": rec, "f1": f1}}
    out[name] = res
print(json.dumps(out))
"""


def clfeval_argv(path: Path, rule: list[str], output: str = os.devnull) -> list[str]:
    return [CLFEVAL, "finagle", str(path), *rule, "--lower-is-more-confident", "--format", "json", "-o", output]


THRESHOLD_RULE = ["--threshold", str(THRESHOLD)]
EXPECTED_RULE = ["--expected-accuracy", str(EXPECTED_ACCURACY)]


# --------------------------------------------------------------------------- measuring

@dataclass
class Row(ChildRow):
    repeats: int = REPEATS
    note: str = ""


def measure_rows(rows: list[Row], log: Callable[[str], None]) -> None:
    """Round-robin repeats; a pandas row slower than ONE_REPEAT_AFTER seconds, or stopped, is not repeated."""

    def after(row: Row, rep: int) -> None:
        if row.stopped:
            row.repeats = 1
            row.note = f"stopped after {row.limit:.0f} s (time and RSS are lower bounds); 1 run"
        elif row.stdout is not None and rep == 0 and row.times[0] > ONE_REPEAT_AFTER:
            row.repeats = 1
            row.note = f"1 run: it took more than {ONE_REPEAT_AFTER:.0f} s"

    measure(rows, log, width=50, after=after)


# --------------------------------------------------------------------------- check

def check(n: int, path: Path, outputs: dict[str, Path], log: Callable[[str], None]) -> str:
    """clfeval's JSON (an untimed run) against each pandas script's printed JSON: target, averages, accuracy."""
    if not outputs:
        raise SystemExit(f"CHECK FAILED at N={n:,}: no pandas + scikit-learn run completed to compare with")
    ref_json = DATA / f"finagle-check-{n}.json"
    subprocess.run(clfeval_argv(path, THRESHOLD_RULE, str(ref_json)), check=True, cwd=ROOT)
    ours = json.loads(ref_json.read_text())
    ref_json.unlink()
    problems = []
    worst = 0.0
    compared = 0
    for who, out in outputs.items():
        theirs = json.loads(out.read_text())
        if ours["target"]["label"] != theirs["target"]:
            problems.append(f"{who}: target: clfeval {ours['target']['label']!r} ({ours['target']['source']}), "
                            f"pandas {theirs['target']!r}")
        for scenario in ("normal", "changed", "upper"):
            s = ours["scenarios"][scenario]
            pairs = [(f"{scenario} accuracy", s["accuracy"], theirs[scenario]["accuracy"])]
            for average in ("macro", "micro", "weighted"):
                for name in ("precision", "recall", "f1"):
                    pairs.append((f"{scenario} {average} {name}", s["averages"][average][name],
                                  theirs[scenario][average][name]))
            for name, a, b in pairs:
                compared += 1
                worst = max(worst, abs(a - b))
                if not abs(a - b) <= TOLERANCE:
                    problems.append(f"{who}: {name}: clfeval {a!r}, pandas+sklearn {b!r}")
    if problems:
        raise SystemExit(f"CHECK FAILED at N={n:,}: clfeval and pandas+sklearn disagree:\n  " + "\n  ".join(problems))
    macro = {sc: ours["scenarios"][sc]["averages"]["macro"]["precision"] for sc in ("normal", "changed", "upper")}
    acc = {sc: ours["scenarios"][sc]["accuracy"] for sc in ("normal", "changed", "upper")}
    text = (f"N={n:,}, clfeval vs {' and '.join(outputs)}: the same target ({ours['target']['label']}, the most "
            f"frequent gold label) and {compared} numbers (macro, micro, weighted P/R/F1 and accuracy of NORMAL, "
            f"CHANGED, UPPER) agree, largest difference {worst:.1e} (tolerance {TOLERANCE:g}). Macro precision "
            f"NORMAL {macro['normal']:.4f} → CHANGED {macro['changed']:.4f} → UPPER {macro['upper']:.4f}; "
            f"accuracy {acc['normal']:.4f} → {acc['changed']:.4f} → {acc['upper']:.4f}")
    log(f"check {text}")
    return text


# --------------------------------------------------------------------------- report

def results_table(rows: list[Row]) -> list[str]:
    head = ["contender", "N", "reps", "median s", "min s", "× clfeval --threshold", "peak RSS MiB", "note"]
    body = []
    for row in rows:
        base = next(r for r in rows if r.n == row.n and r.reference)
        more = "> " if row.stopped else ""
        body.append([row.contender, f"{row.n:,}", str(len(row.times)), f"{more}{row.median:.2f}",
                     f"{more}{min(row.times):.2f}", more + ratio_text(row.median / base.median),
                     f"{'≥ ' if row.stopped else ''}{max(row.rss) / MIB:,.0f}", row.note])
    return md_table(head, body, right={1, 2, 3, 4, 5, 6})


def distinct_rows(path: Path) -> int:
    """Distinct (gold, predicted, distance) rows of the file: what clfeval keeps one count for."""
    import polars as pl

    frame = pl.scan_csv(path, separator=" ", has_header=False, new_columns=["feature", "gold", "pred", "distance"],
                        schema_overrides={"distance": pl.String})
    return frame.select("gold", "pred", "distance").unique().select(pl.len()).collect().item()


def reading(rows: list[Row], sizes: list[int], distinct: dict[int, int]) -> str:
    """Two sentences on the table."""
    at = {n: [r for r in rows if r.n == n] for n in sizes}  # [threshold, expected accuracy, strings, codes]

    def times(i: int) -> str:
        parts = []
        for n in sizes:
            ref, row = at[n][0], at[n][i]
            parts.append(f"{'> ' if row.stopped else ''}{ratio_text(row.median / ref.median)} ({n:,} lines"
                         + (f", stopped after {row.median:.0f} s)" if row.stopped else ")"))
        return " and ".join(parts)

    def rss(i: int) -> str:
        return " and ".join(f"{max(at[n][i].rss) / max(at[n][0].rss):.1f}×" for n in sizes)

    first = sizes[0]
    text = (f"The script as first written (string labels) takes {times(2)} the time of `clfeval finagle "
            f"--threshold`, nearly all of it scikit-learn's handling of string labels (a distinct Python string per "
            f"row) (the same script takes {at[first][3].median:.1f} s instead of {at[first][2].median:.1f} s at "
            f"{first:,} lines on integer codes); with integer codes it takes {times(3)}, at {rss(3)} clfeval's peak "
            "RSS.")
    rss_text = " → ".join(f"{max(at[n][0].rss) / MIB:,.0f}" for n in sizes)
    rows_text = ", ".join(f"{distinct[n] / 1e6:.2f} M at {n:,} lines" for n in sizes)
    text += (f" clfeval's own peak RSS grows with the file ({rss_text} MiB): it keeps one count per distinct "
             f"(gold, predicted, distance) row, and there are more of those in a bigger file ({rows_text}); the "
             f"calibrated rule (`--expected-accuracy`) costs {times(1)} the threshold rule's time.")
    return text


def _pandas_limit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pandas-limit", type=float, default=PANDAS_LIMIT, metavar="SECONDS",
                        help="stop a pandas run past this many seconds; 0: never (default: %(default)s)")


def main() -> int:
    session = start(__doc__, RESULTS, _pandas_limit)
    args = session.args
    sizes = [10**5] if args.quick else [10**6, 10**7]

    paths = data_files(sizes, timbl_file)

    all_rows: list[Row] = []
    checks: list[str] = []
    for n, path in warmed(paths):
        naive_out, codes_out = DATA / f"finagle-pandas-{n}.json", DATA / f"finagle-pandas-codes-{n}.json"
        rows = [
            Row(f"clfeval finagle --threshold {THRESHOLD}", n, clfeval_argv(path, THRESHOLD_RULE), reference=True,
                note="reference"),
            Row(f"clfeval finagle --expected-accuracy {EXPECTED_ACCURACY}", n, clfeval_argv(path, EXPECTED_RULE)),
            Row("pandas + sklearn (string labels)", n, [PYTHON, "-c", PANDAS_SKLEARN, str(path)], stdout=naive_out,
                limit=args.pandas_limit or None),
            Row("pandas + sklearn (integer codes)", n, [PYTHON, "-c", PANDAS_SKLEARN_CODES, str(path)],
                stdout=codes_out, limit=args.pandas_limit or None),
        ]
        log(f"N={n:,}: {path.name} ({path.stat().st_size / 1e6:,.0f} MB), {REPEATS} round-robin repeats")
        measure_rows(rows, log)
        outputs = {r.contender: r.stdout for r in rows if r.stdout is not None and r.completed}
        checks.append(check(n, path, outputs, log))
        for r in rows:
            if r.stdout is not None:
                r.stdout.unlink(missing_ok=True)
        all_rows += rows

    sections = timing_section("clfeval finagle vs pandas + scikit-learn, end to end (one subprocess each)",
                              results_table(all_rows),
                              "× clfeval --threshold: median / the `--threshold` row's median at the same N; peak "
                              "RSS: the highest over the repeats. *string labels*: the script as a user would first "
                              "write it (below); *integer codes*: the same with the labels turned into integer codes "
                              "first.")
    distinct = {n: distinct_rows(paths[n]) for n in sizes}
    sections += [reading(all_rows, sizes, distinct), ""]
    sections += commands_section(
        [f"clfeval finagle FILE --threshold {THRESHOLD} --lower-is-more-confident --format json -o /dev/null",
         f"clfeval finagle FILE --expected-accuracy {EXPECTED_ACCURACY} --lower-is-more-confident "
         "--format json -o /dev/null",
         "python -c \"$PANDAS_SKLEARN\" FILE         # string labels, below",
         "python -c \"$PANDAS_SKLEARN_CODES\" FILE   # integer codes, below"],
        [("`PANDAS_SKLEARN` (string labels)", PANDAS_SKLEARN),
         ("`PANDAS_SKLEARN_CODES` (integer codes)", PANDAS_SKLEARN_CODES)])
    write_report(session, "clfeval finagle benchmark", "finagle.py",
                 ["numpy", "polars", "pandas", "pyarrow", "scikit-learn"], DATA_TEXT, sections, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
