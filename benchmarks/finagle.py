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
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from common import md_table, pkg_version, ratio_text, write_results

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "finagle.md"
PYTHON = sys.executable
CLFEVAL = str(Path(sys.executable).parent / "clfeval")
K = 40  # tags
SEED = 20240607
BLOCK = 10**6  # rows per seeded block
LINE = 16  # bytes a line
SCALE = 2.5  # P(correct) = exp(-distance / SCALE)
THRESHOLD = 1.0
EXPECTED_ACCURACY = 0.35
REPEATS = 3
ONE_REPEAT_AFTER = 180.0  # seconds: a pandas run slower than this is not repeated
PANDAS_LIMIT = 420.0  # seconds: a pandas run is stopped past this (the string-label script at 10^7)
TOLERANCE = 1e-9
MIB = 2**20


# --------------------------------------------------------------------------- data

def _block(block: int, size: int) -> np.ndarray:
    """``size`` lines of block number ``block`` as a (size, 16) uint8 array."""
    rng = np.random.default_rng([SEED, block])
    weights = 1.0 / np.arange(1, K + 1) ** 0.7  # Zipf-like tag frequencies
    weights /= weights.sum()
    gold = rng.choice(K, size=size, p=weights)
    distance = np.minimum(np.round(rng.exponential(1.0, size=size), 3), 9.999)
    wrong = rng.choice(K, size=size, p=weights)
    same = wrong == gold  # a wrong prediction is never the gold tag
    wrong[same] = (gold[same] + rng.integers(1, K, size=int(same.sum()))) % K
    pred = np.where(rng.random(size) < np.exp(-distance / SCALE), gold, wrong)
    feature = rng.integers(0, 26, size=size)
    milli = np.rint(distance * 1000).astype(np.int64)
    out = np.empty((size, LINE), dtype=np.uint8)
    out[:, 0] = ord("a") + feature
    out[:, [1, 5, 9]] = ord(" ")
    out[:, [2, 6]] = ord("T")
    out[:, 3], out[:, 4] = 48 + gold // 10, 48 + gold % 10
    out[:, 7], out[:, 8] = 48 + pred // 10, 48 + pred % 10
    out[:, 10] = 48 + milli // 1000
    out[:, 11] = ord(".")
    out[:, 12], out[:, 13], out[:, 14] = 48 + milli // 100 % 10, 48 + milli // 10 % 10, 48 + milli % 10
    out[:, 15] = ord("\n")
    return out


def timbl_file(n: int, log: Callable[[str], None]) -> Path:
    """The n-line TiMBL-style file (generated once, reused when present and whole)."""
    path = DATA / f"finagle-{n}-seed{SEED}.txt"
    if path.exists() and path.stat().st_size == LINE * n:
        return path
    log(f"generating {path.name} ({LINE * n / 1e6:,.0f} MB)")
    DATA.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        for block, start in enumerate(range(0, n, BLOCK)):
            out.write(_block(block, min(BLOCK, n - start)).tobytes())
    tmp.replace(path)
    return path


def warm(path: Path) -> None:
    """Read the file once so that every contender reads it from the page cache."""
    with open(path, "rb") as handle:
        while handle.read(1 << 24):
            pass


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
class Row:
    contender: str
    n: int
    argv: list[str]
    repeats: int = REPEATS
    reference: bool = False
    stdout: Path | None = None  # where the first timed run's standard output is kept (for the check)
    limit: float | None = None  # seconds: the child is stopped past this (then not repeated)
    note: str = ""
    times: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)  # bytes
    stopped: bool = False

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def completed(self) -> bool:
        return bool(self.times) and not self.stopped


# A tiny launcher, one per measurement: the target's peak RSS comes from os.wait4's rusage of that one
# child (as run.py: on Linux a child's ru_maxrss starts from the high-water mark of the process it was
# forked from). The child's standard output goes to the file argv[1] (os.devnull when not kept); past
# argv[2] seconds (0: no limit) a timer thread kills it, and the launcher says so.
LAUNCHER = """
import os, subprocess, sys, threading, time
limit = float(sys.argv[2])
with open(sys.argv[1], "wb") as out:
    t0 = time.perf_counter()
    proc = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=out)
    timer = threading.Timer(limit, proc.kill) if limit > 0 else None
    if timer:
        timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    if timer:
        timer.cancel()
stopped = int(limit > 0 and elapsed >= limit)
print(os.waitstatus_to_exitcode(status), elapsed, usage.ru_maxrss, stopped)
"""


def _time_child(row: Row) -> None:
    keep = row.stdout is not None and not row.times
    target = str(row.stdout) if keep else os.devnull
    done = subprocess.run([PYTHON, "-c", LAUNCHER, target, str(row.limit or 0), *row.argv], capture_output=True,
                          text=True, check=True, cwd=HERE.parent)
    code, elapsed, maxrss, stopped = done.stdout.split()
    if int(stopped):
        row.stopped = True
    elif int(code) != 0:
        raise RuntimeError(f"{row.contender} failed ({code}): {done.stderr[-2000:]}")
    row.times.append(float(elapsed))
    row.rss.append(int(maxrss) * 1024)  # Linux: kilobytes


def measure(rows: list[Row], log: Callable[[str], None]) -> None:
    """Round-robin repeats; a pandas row slower than ONE_REPEAT_AFTER seconds, or stopped, is not repeated."""
    for rep in range(max(r.repeats for r in rows)):
        for row in rows:
            if rep < row.repeats:
                _time_child(row)
                log(f"  run {rep + 1}: {row.contender:<50} n={row.n:>10,} {row.times[-1]:8.2f} s "
                    f"{row.rss[-1] / MIB:6.0f} MiB" + (" STOPPED" if row.stopped else ""))
                if row.stopped:
                    row.repeats = 1
                    row.note = f"stopped after {row.limit:.0f} s (time and RSS are lower bounds); 1 run"
                elif row.stdout is not None and rep == 0 and row.times[0] > ONE_REPEAT_AFTER:
                    row.repeats = 1
                    row.note = f"1 run: it took more than {ONE_REPEAT_AFTER:.0f} s"


# --------------------------------------------------------------------------- check

def check(n: int, path: Path, outputs: dict[str, Path], log: Callable[[str], None]) -> str:
    """clfeval's JSON (an untimed run) against each pandas script's printed JSON: target, averages, accuracy."""
    if not outputs:
        raise SystemExit(f"CHECK FAILED at N={n:,}: no pandas + scikit-learn run completed to compare with")
    ref_json = DATA / f"finagle-check-{n}.json"
    subprocess.run(clfeval_argv(path, THRESHOLD_RULE, str(ref_json)), check=True, cwd=HERE.parent)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10^5 lines only: a fast check that everything runs")
    parser.add_argument("--pandas-limit", type=float, default=PANDAS_LIMIT, metavar="SECONDS",
                        help="stop a pandas run past this many seconds; 0: never (default: %(default)s)")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    args = parser.parse_args()
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    sizes = [10**5] if args.quick else [10**6, 10**7]

    log("preparing data in benchmarks/data/ (generated once, then reused)")
    paths = {n: timbl_file(n, log) for n in sizes}

    all_rows: list[Row] = []
    checks: list[str] = []
    for n in sizes:
        path = paths[n]
        warm(path)
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
        measure(rows, log)
        outputs = {r.contender: r.stdout for r in rows if r.stdout is not None and r.completed}
        checks.append(check(n, path, outputs, log))
        for r in rows:
            if r.stdout is not None:
                r.stdout.unlink(missing_ok=True)
        all_rows += rows

    sections = ["### clfeval finagle vs pandas + scikit-learn, end to end (one subprocess each)", ""]
    sections += results_table(all_rows)
    sections += ["Wall time of the whole child process (interpreter start-up and imports included), median of the "
                 "repeats; × clfeval --threshold: median / the `--threshold` row's median at the same N; "
                 "peak RSS: the highest over the repeats. *string labels*: the script as a user would first write "
                 "it (below); *integer codes*: the same with the labels turned into integer codes first.", ""]
    distinct = {n: distinct_rows(paths[n]) for n in sizes}
    sections += [reading(all_rows, sizes, distinct), ""]
    sections += ["### Commands", "",
                 "```",
                 f"clfeval finagle FILE --threshold {THRESHOLD} --lower-is-more-confident --format json -o /dev/null",
                 f"clfeval finagle FILE --expected-accuracy {EXPECTED_ACCURACY} --lower-is-more-confident "
                 "--format json -o /dev/null",
                 "python -c \"$PANDAS_SKLEARN\" FILE         # string labels, below",
                 "python -c \"$PANDAS_SKLEARN_CODES\" FILE   # integer codes, below",
                 "```", "",
                 "`PANDAS_SKLEARN` (string labels):", "",
                 "```python" + PANDAS_SKLEARN.rstrip(), "```", "",
                 "`PANDAS_SKLEARN_CODES` (integer codes):", "",
                 "```python" + PANDAS_SKLEARN_CODES.rstrip(), "```", ""]

    import sklearn

    import clfeval
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    header = [
        "# clfeval finagle benchmark",
        "",
        f"`python benchmarks/finagle.py{' --quick' if args.quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.platform()}, {os.cpu_count()} cores, {ram:.0f} GiB, "
        f"Python {platform.python_version()}, clfeval {clfeval.__version__}, numpy {np.__version__}, "
        f"polars {pkg_version('polars')}, pandas {pkg_version('pandas')}, pyarrow {pkg_version('pyarrow')}, "
        f"scikit-learn {sklearn.__version__}; 1-min load average {load_before:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at end (other processes share the cores: times are indicative)",
        "",
        f"Data: seeded TiMBL-style text, `feature gold predicted distance` a line ({LINE} bytes, e.g. "
        f"`q T12 T03 0.873`), {K} tags with p ∝ 1/rank^0.7, distance ~ Exponential(1) rounded to 3 decimals, "
        f"P(correct) = exp(−distance/{SCALE:g}) (about 71% correct). Doubtful: distance > {THRESHOLD}; target: the "
        "most frequent gold label (clfeval's default without training data).",
        "",
    ]
    footer = ["### Checks", ""] + [f"- {c}" for c in checks]
    write_results(header, sections, footer, started, args.output, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
