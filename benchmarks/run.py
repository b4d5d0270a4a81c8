"""clfeval benchmarks: one command, side by side, medians of several repeats.

    python benchmarks/run.py            # full run (about 5-10 minutes on 2 cores)
    python benchmarks/run.py --quick    # smaller N, a fast check that everything runs

Prints one Markdown table (contender, N, repeats, median seconds, ratio vs the group's
reference row, memory) and writes the same text to ``benchmarks/results.md``.

Data: one seeded array of (gold, predicted) codes for 20 skewed classes, about 70% correct,
is generated once into ``benchmarks/data/`` (git-ignored) and reused; every group takes a
prefix of it (integer arrays; Python lists of "labelNN" strings; two-column TSV files).

Memory: in-process rows report the peak of memory allocated *during* the call (tracemalloc,
which numpy reports its buffers to), measured in one extra, untimed call; subprocess rows
report the peak RSS of that one child process, taken from ``os.wait4``'s per-child rusage
(so each measurement is of exactly one contender, start-up and imports included).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from common import write_results

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "results.md"
K = 20  # classes
N_MAX = 10**7
SEED = 20240607
NAMES = [f"label{k:02d}" for k in range(K)]
PYTHON = sys.executable
CLFEVAL = str(Path(sys.executable).parent / "clfeval")


# --------------------------------------------------------------------------- data

def codes(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The first n (gold, pred) codes as int64 arrays; the 10^7 uint8 master is cached on disk."""
    path = DATA / f"codes-{N_MAX}-seed{SEED}.npz"
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(SEED)
        weights = 1.0 / np.arange(1, K + 1) ** 0.8  # skewed class frequencies
        weights /= weights.sum()
        gold = rng.choice(K, size=N_MAX, p=weights).astype(np.uint8)
        wrong = rng.choice(K, size=N_MAX, p=weights).astype(np.uint8)
        pred = np.where(rng.random(N_MAX) < 0.7, gold, wrong).astype(np.uint8)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, gold=gold, pred=pred)
        tmp.replace(path)
    with np.load(path) as z:
        return z["gold"][:n].astype(np.int64), z["pred"][:n].astype(np.int64)


def tsv_file(n: int) -> Path:
    """A two-column TSV of n lines "labelGG<TAB>labelPP", no header (16 bytes a line)."""
    path = DATA / f"labels-{n}.tsv"
    if path.exists() and path.stat().st_size == 16 * n:
        return path
    gold, pred = codes(n)
    row = np.frombuffer(b"label00\tlabel00\n", dtype=np.uint8)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        for start in range(0, n, 10**6):
            g, p = gold[start:start + 10**6], pred[start:start + 10**6]
            block = np.tile(row, (len(g), 1))
            block[:, 5], block[:, 6] = 48 + g // 10, 48 + g % 10
            block[:, 13], block[:, 14] = 48 + p // 10, 48 + p % 10
            out.write(block.tobytes())
    tmp.replace(path)
    return path


# --------------------------------------------------------------------------- measuring

@dataclass
class Row:
    contender: str
    n: int
    repeats: int
    run: Callable[[], Any]  # in-process: the call; subprocess: argv list returned by run()
    subprocess: bool = False
    note: str = ""
    times: list[float] = field(default_factory=list)
    memory: list[int] = field(default_factory=list)  # bytes
    result: Any = None

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def _time_call(row: Row) -> None:
    gc.collect()
    t0 = time.perf_counter()
    out = row.run()
    row.times.append(time.perf_counter() - t0)
    if row.result is None:
        row.result = out


def _peak_alloc(row: Row) -> None:
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        row.run()
        row.memory.append(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()


# A tiny launcher, one per measurement: the target's peak RSS comes from os.wait4's rusage of that one
# child. (Spawning the target straight from this script would not do: on Linux a child's ru_maxrss starts
# from the high-water mark of the process it was forked from, here this big benchmark process.)
LAUNCHER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
elapsed = time.perf_counter() - t0
print(os.waitstatus_to_exitcode(status), elapsed, usage.ru_maxrss)
"""


def _time_child(row: Row) -> None:
    argv = row.run()
    done = subprocess.run([PYTHON, "-c", LAUNCHER, *argv], capture_output=True, text=True, check=True)
    code, elapsed, maxrss = done.stdout.split()
    if int(code) != 0:
        raise RuntimeError(f"{row.contender} failed ({code}): {done.stderr[-2000:]}")
    row.times.append(float(elapsed))
    row.memory.append(int(maxrss) * 1024)  # Linux: kilobytes


def measure(rows: list[Row], log: Callable[[str], None]) -> None:
    """Round-robin repeats (so drift hits every contender alike); then one untimed memory pass."""
    for rep in range(max(r.repeats for r in rows)):
        for row in rows:
            if rep < row.repeats:
                (_time_child if row.subprocess else _time_call)(row)
    for row in rows:
        if not row.subprocess:
            _peak_alloc(row)
        log(f"  {row.contender:<58} n={row.n:>9,} median {row.median:8.4f} s over {len(row.times)}")


# --------------------------------------------------------------------------- contenders

def floor_macro_f(cells: np.ndarray) -> float:
    """Per-label arithmetic on a K×K confusion table (rows gold): tp, fp, fn, P, R, F, macro mean."""
    tp = np.diag(cells)
    fp = cells.sum(axis=0) - tp
    fn = cells.sum(axis=1) - tp
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.nan_to_num(tp / (tp + fp))
        recall = np.nan_to_num(tp / (tp + fn))
        f = np.nan_to_num(2 * precision * recall / (precision + recall))
    return float(f.mean())


def group_integers(n: int, quick: bool) -> list[Row]:
    import clfeval
    from sklearn.metrics import classification_report, precision_recall_fscore_support

    gold, pred = codes(n)
    fast, slow = (15, 5) if n <= 10**6 else (7, 3)

    def floor() -> float:
        return floor_macro_f(np.bincount(gold * K + pred, minlength=K * K).reshape(K, K))

    return [
        Row("floor: np.bincount(gold*20+pred) + per-label arithmetic", n, fast, floor, note="reference"),
        Row("clfeval.score(gold, pred)", n, fast, lambda: clfeval.score(gold, pred).averages["macro"]["f"]),
        Row("sklearn precision_recall_fscore_support(average=None)", n, slow,
            lambda: float(precision_recall_fscore_support(gold, pred, average=None, zero_division=0)[2].mean())),
        Row("sklearn classification_report", n, slow, lambda: classification_report(gold, pred)),
    ]


def group_strings(n: int) -> list[Row]:
    import clfeval
    from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

    g_codes, p_codes = codes(n)
    gold = [NAMES[k] for k in g_codes.tolist()]
    pred = [NAMES[k] for k in p_codes.tolist()]

    def floor() -> None:
        dict.fromkeys(gold)
        dict.fromkeys(pred)

    return [
        Row("floor: dict.fromkeys(gold); dict.fromkeys(pred)", n, 9, floor,
            note="reference: hashes each string once"),
        Row("clfeval.score(gold_list, pred_list)", n, 9,
            lambda: clfeval.score(gold, pred).averages["macro"]["f"]),
        Row("sklearn precision_recall_fscore_support(average=None)", n, 3,
            lambda: float(precision_recall_fscore_support(gold, pred, average=None, zero_division=0)[2].mean())),
        Row("sklearn confusion_matrix", n, 3, lambda: floor_macro_f(confusion_matrix(gold, pred))),
    ]


POLARS_READ = ("import polars as pl, sys; pl.scan_csv(sys.argv[1], separator='\\t', has_header=False, "
               "infer_schema=False, quote_char=None).group_by(pl.all()).agg(pl.len()).collect(engine='streaming')")
PANDAS_SKLEARN = ("import pandas as pd, sys; from sklearn.metrics import precision_recall_fscore_support as prfs; "
                  "df = pd.read_csv(sys.argv[1], sep='\\t', header=None, dtype=str); "
                  "prfs(df.iloc[:, -2], df.iloc[:, -1], average=None, zero_division=0)")


def group_file(big: int, small: int, pandas_repeats: int) -> list[Row]:
    big_path, small_path = str(tsv_file(big)), str(tsv_file(small))
    with open(big_path, "rb") as handle:  # warm the page cache: every contender reads from memory
        while handle.read(1 << 24):
            pass

    def cli(path: str) -> list[str]:
        return [CLFEVAL, "score", path, "--format", "json", "-o", os.devnull]

    return [
        Row("bare polars read (python -c scan_csv…group_by…streaming)", big, 5,
            lambda: [PYTHON, "-c", POLARS_READ, big_path], subprocess=True, note="reference"),
        Row("clfeval score FILE --format json -o /dev/null (CLI)", big, 5, lambda: cli(big_path), subprocess=True),
        Row("pandas read_csv(dtype=str) + sklearn prfs (python -c)", big, pandas_repeats,
            lambda: [PYTHON, "-c", PANDAS_SKLEARN, big_path], subprocess=True),
        Row("bare polars read, smaller file", small, 5, lambda: [PYTHON, "-c", POLARS_READ, small_path],
            subprocess=True, note="reference for the smaller file"),
        Row("clfeval CLI, smaller file (memory vs file size)", small, 5, lambda: cli(small_path), subprocess=True),
    ]


# --------------------------------------------------------------------------- report

def _mem(row: Row) -> str:
    if not row.memory:
        return ""
    mib = max(row.memory) / 2**20
    return f"{mib:,.0f} MiB {'peak RSS' if row.subprocess else 'peak alloc'}"


def table(title: str, rows: list[Row], *, ref: int = 0, extra: dict[str, str] | None = None) -> list[str]:
    head = ["contender", "N", "reps", "median s", "min s", "× ref", "memory", "note"]
    body = []
    for row in rows:
        same_n = [r for r in rows if r.n == row.n and r.note.startswith("reference")]
        base = same_n[0].median if same_n else rows[ref].median
        ratio = f"{row.median / base:.2f}×"
        body.append([row.contender, f"{row.n:,}", str(len(row.times)), f"{row.median:.4f}", f"{min(row.times):.4f}",
                     ratio, _mem(row),
                     (extra or {}).get(row.contender, row.note)])
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    right = {1, 2, 3, 4, 5, 6}

    def fmt(cells: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else "-" * (w + 2) for i, w in enumerate(widths)) + "|"
    return [f"### {title}", "", fmt(head), rule] + [fmt(b) for b in body] + [""]


def check_agree(name: str, rows: list[Row], expected: float) -> str:
    bad = [r.contender for r in rows if isinstance(r.result, float) and not np.isclose(r.result, expected)]
    if bad:
        return f"CHECK FAILED ({name}): macro F differs from {expected:.6f} for {bad}"
    return f"check ({name}): every contender that returns a macro F agrees ({expected:.6f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller N (10^6/10^5 arrays, 10^5 strings, "
                                                             "10^6/10^5-line files): a fast check")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    started = time.perf_counter()
    load_before = os.getloadavg()[0]

    n_int = [10**6, 10**5] if args.quick else [10**7, 10**6]
    n_str = 10**5 if args.quick else 10**6
    n_file = (10**6, 10**5) if args.quick else (10**7, 10**6)

    log("preparing data in benchmarks/data/ (generated once, then reused)")
    codes(1)
    for n in n_file:
        tsv_file(n)

    sections: list[str] = []
    targets: list[str] = []

    def ratio(rows: list[Row], a: int, b: int) -> float:
        return rows[a].median / rows[b].median

    def target(ok: bool, text: str) -> None:
        targets.append(f"- [{'x' if ok else ' '}] {'met' if ok else 'MISSED'}: {text}")

    checks = []
    for i, n in enumerate(n_int):
        log(f"group 1: in-memory int64 labels, N={n:,}")
        rows = group_integers(n, args.quick)
        measure(rows, log)
        sections += table(f"1{'ab'[i]}. In-memory integer labels (numpy int64, {K} classes), N = {n:,}", rows)
        checks.append(check_agree(f"ints N={n:,}", rows, rows[0].result))
        if i == 0:
            target(ratio(rows, 1, 0) <= 3, f"clfeval within 3× of the bincount floor at N={n:,}: "
                                           f"{ratio(rows, 1, 0):.2f}×")
            target(ratio(rows, 3, 1) >= 50, f"clfeval ≥ 50× faster than classification_report at N={n:,}: "
                                            f"{ratio(rows, 3, 1):.1f}×")

    log(f"group 2: Python lists of strings, N={n_str:,}")
    rows = group_strings(n_str)
    measure(rows, log)
    sections += table(f"2. Python lists of string labels ({K} distinct \"labelNN\"), N = {n_str:,}", rows)
    checks.append(check_agree(f"strings N={n_str:,}", rows, rows[1].result))
    target(ratio(rows, 1, 0) <= 2, f"clfeval within 2× of the hashing floor (lists, N={n_str:,}): "
                                   f"{ratio(rows, 1, 0):.2f}×")

    log(f"group 3: {n_file[0]:,}-line TSV end to end (subprocesses)")
    rows = group_file(*n_file, pandas_repeats=1)
    measure(rows, log)
    size_mb = os.path.getsize(tsv_file(n_file[0])) / 1e6
    sections += table(f"3. Two-column TSV, {n_file[0]:,} lines ({size_mb:.0f} MB), end to end in a subprocess "
                      "(wall time includes interpreter start-up and imports)", rows)
    target(ratio(rows, 1, 0) <= 1.5, f"CLI within 1.5× of the bare polars read ({n_file[0]:,} lines): "
                                     f"{ratio(rows, 1, 0):.2f}×")
    mem_ratio = max(rows[1].memory) / max(rows[4].memory)
    target(mem_ratio <= 1.25, f"CLI peak RSS flat in file size: {max(rows[4].memory) / 2**20:,.0f} MiB at "
                              f"{n_file[1]:,} lines vs {max(rows[1].memory) / 2**20:,.0f} MiB at {n_file[0]:,} "
                              f"({mem_ratio:.2f}×; flat taken as ≤ 1.25×). The bare polars read goes "
                              f"{max(rows[3].memory) / 2**20:,.0f} → {max(rows[0].memory) / 2**20:,.0f} MiB; "
                              f"clfeval's excess over it: {(max(rows[4].memory) - max(rows[3].memory)) / 2**20:,.0f}"
                              f" → {(max(rows[1].memory) - max(rows[0].memory)) / 2**20:,.0f} MiB")
    # correctness of the CLI, outside the timings: its JSON macro F against the bincount floor
    check_json = DATA / "cli-check.json"
    subprocess.run([CLFEVAL, "score", str(tsv_file(n_file[1])), "--format", "json", "-o", str(check_json)],
                   check=True)
    macro = json.loads(check_json.read_text())["averages"]["macro"]
    got = macro.get("f1", macro.get("f"))
    g_small, p_small = codes(n_file[1])
    want = floor_macro_f(np.bincount(g_small * K + p_small, minlength=K * K).reshape(K, K))
    checks.append(f"check (CLI, {n_file[1]:,} lines): macro F {got:.6f} vs floor {want:.6f}: "
                  f"{'agree' if np.isclose(got, want) else 'DIFFER'}")

    import clfeval
    import polars
    import sklearn
    header = [
        "# clfeval benchmarks",
        "",
        f"`python benchmarks/run.py{' --quick' if args.quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"clfeval {clfeval.__version__}, numpy {np.__version__}, polars {polars.__version__}, "
        f"scikit-learn {sklearn.__version__}; 1-min load average {load_before:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at end (other processes share the cores: compare rows within a group)",
        "",
        "Median of the repeats (time.perf_counter); contenders of a group run round-robin in one script run. "
        "× ref: median / the group's reference row (first row; in group 3 the reference read of the same file). Memory: *peak alloc* = peak memory allocated "
        "during one in-process call (tracemalloc, numpy buffers included, inputs excluded); *peak RSS* = peak "
        "resident set of that one child process (os.wait4 rusage, via a small launcher process). Data: seeded, 20 skewed classes, ~70% correct.",
        "",
    ]
    footer = ["### Targets", ""] + targets + ["", "### Checks", ""] + [f"- {c}" for c in checks]
    write_results(header, sections, footer, started, args.output, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
