"""clfeval memory benchmark: peak RSS of ``clfeval score`` on 10^6, 10^7 and 10^8-line files.

    python benchmarks/memory.py               # full run (about 3 minutes on 2 cores; writes a 1.6 GB file)
    python benchmarks/memory.py --quick       # 10^5/10^6 files, 10^7 generated, 1 repeat: a fast check
    python benchmarks/memory.py --keep-data   # keep the generated 10^8-line file for the next run

Prints Markdown tables and writes the same text to ``benchmarks/memory.md``.

Every row is one fresh child process, started by a tiny launcher process: its peak RSS comes
from ``os.wait4``'s rusage of that one child (start-up and imports included; on Linux a child's
``ru_maxrss`` starts from the high-water mark of the process it was forked from, hence the
launcher), its wall time from the launcher's clock. The launcher also samples the child's
``/proc/PID/status`` every 20 ms for the anonymous and file-backed parts of its RSS (a sampled
peak, a hint at where the memory goes; the rusage number is the measurement).

1. End to end by file size: ``clfeval score FILE --format json`` (the CLI, JSON to standard
   output, read back by the launcher), the old approach (bare polars: one
   ``scan_csv(...).group_by(...).collect(engine="streaming")`` over the whole file) and pandas
   ``read_csv`` (10^6 and 10^7 only), on 10^6, 10^7 and 10^8-line two-column TSV files. The 10^8
   rows are generated on the fly: once into a 1.6 GB file in ``benchmarks/data/`` (git-ignored,
   deleted at the end unless ``--keep-data``; reused when present), and once fed to
   ``clfeval score - --input-format tsv`` through a pipe from a generator child process, so
   nothing big touches the disk; the clfeval child's own peak RSS is reported, the generator's
   separately. Medians of 3 runs at 10^6 and 10^7 (round-robin), 1 run at 10^8.
2. Chunk size: clfeval at 10^7 with ``CLFEVAL_CHUNK_BYTES`` = 1, 4 (the default), 16 and 64 MiB.
3. Where clfeval's (small) growth goes: the 10^6 and 10^8 runs again with polars' jemalloc told to
   purge freed pages at once (``_RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0``), and 3·10^8
   rows through the pipe, to see whether the peak keeps rising.

Data: the 10^6 and 10^7-line files are run.py's (``labels-N.tsv``: a prefix of its seeded
20-class skewed codes, ~70% correct, lines ``labelGG<TAB>labelPP``); the 10^8 lines come from the
same distribution, drawn in blocks of 10^6 rows, each block seeded with (SEED, block number), so
the file and the pipe carry the same bytes. Checks: every clfeval run's JSON must give
``n_instances`` equal to the rows generated and the very confusion matrix generated (an
assertion), the polars and pandas children print their row counts, checked the same way, so a
broken reader cannot produce a nice memory number.
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

from common import md_table, pkg_version, write_results
from run import K, NAMES, SEED, codes, tsv_file

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "memory.md"
PYTHON = sys.executable
CLFEVAL = str(Path(sys.executable).parent / "clfeval")
BLOCK = 10**6  # rows per generated block
MIB = 2**20
FLAT = 1.20  # "flat": peak RSS at the largest N within 20% of that at the smallest
JEMALLOC_NOW = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}  # polars' jemalloc: purge freed pages at once
POLARS_LIMIT = (6 << 30, 300.0)  # the bare polars read at 10^8 is stopped beyond 6 GiB RSS or 5 minutes


# --------------------------------------------------------------------------- data

def _row_bytes() -> np.ndarray:
    """A (K*K, 16) uint8 table: row g*K+p holds the line ``labelGG\\tlabelPP\\n``."""
    table = np.empty((K * K, 16), dtype=np.uint8)
    for g in range(K):
        for p in range(K):
            table[g * K + p] = np.frombuffer(f"{NAMES[g]}\t{NAMES[p]}\n".encode(), dtype=np.uint8)
    return table


def emit(n: int, out, counts_path: str | None) -> None:
    """Write n lines of run.py's distribution to the binary stream ``out``, in seeded blocks of 10^6 rows
    (vectorised: a lookup of each row's 16 bytes); the K×K counts (rows gold) go to ``counts_path``."""
    weights = 1.0 / np.arange(1, K + 1) ** 0.8  # as run.codes()
    weights /= weights.sum()
    table = _row_bytes()
    counts = np.zeros(K * K, dtype=np.int64)
    for block, start in enumerate(range(0, n, BLOCK)):
        size = min(BLOCK, n - start)
        rng = np.random.default_rng([SEED, block])
        gold = rng.choice(K, size=size, p=weights)
        wrong = rng.choice(K, size=size, p=weights)
        cell = gold * K + np.where(rng.random(size) < 0.7, gold, wrong)
        counts += np.bincount(cell, minlength=K * K)
        out.write(table[cell].tobytes())
    out.flush()
    if counts_path:
        Path(counts_path).write_text(json.dumps(counts.tolist()))


def emit_argv(n: int, counts_path: Path) -> list[str]:
    """A generator child: this script writing n lines to its standard output."""
    return [PYTHON, str(Path(__file__).resolve()), "--emit", str(n), "--counts-to", str(counts_path)]


def generated_file(n: int, log: Callable[[str], None]) -> tuple[Path, np.ndarray, float | None]:
    """The generated n-line TSV (written by a generator child, reused when present and whole), its counts,
    and the seconds it took to write (None when reused)."""
    path = DATA / f"labels-gen-{n}-seed{SEED}.tsv"
    counts_path = path.with_suffix(".counts.json")
    if path.exists() and path.stat().st_size == 16 * n and counts_path.exists():
        log(f"reusing {path.name}")
        return path, np.array(json.loads(counts_path.read_text())).reshape(K, K), None
    log(f"generating {path.name} ({16 * n / 1e9:.1f} GB)")
    DATA.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        subprocess.run(emit_argv(n, counts_path), stdout=out, check=True)
    tmp.replace(path)
    return path, np.array(json.loads(counts_path.read_text())).reshape(K, K), time.perf_counter() - t0


def file_counts(n: int) -> np.ndarray:
    """The K×K counts (rows gold) of run.py's n-line file."""
    gold, pred = codes(n)
    return np.bincount(gold * K + pred, minlength=K * K).reshape(K, K)


def warm(path: Path) -> None:
    """Read a file once so every contender reads it from the page cache."""
    with open(path, "rb") as handle:
        while handle.read(1 << 24):
            pass


# --------------------------------------------------------------------------- measuring

# One launcher per measurement. It starts the target (and, for a pipe, the generator feeding its standard
# input), reads the target's standard output, samples /proc/PID/status, stops the target past an optional
# RSS or time limit, and prints one JSON line: exit code, wall time, the target's ru_maxrss from os.wait4,
# the sampled peaks, the generator's ru_maxrss, and the target's standard output.
LAUNCHER = r"""
import json, os, subprocess, sys, threading, time
spec = json.loads(sys.argv[1])
env = dict(os.environ)
for key, value in spec["env"].items():
    if value is None:
        env.pop(key, None)
    else:
        env[key] = value
t0 = time.perf_counter()
feeder = None
if spec["feed"]:
    feeder = subprocess.Popen(spec["feed"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
proc = subprocess.Popen(spec["argv"], stdin=feeder.stdout if feeder else subprocess.DEVNULL,
                        stdout=subprocess.PIPE, env=env)
if feeder:
    feeder.stdout.close()  # the target holds the only read end: the generator sees EPIPE if it dies
out = []
reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
reader.start()
peak = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}
killed = None
while True:
    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    if pid:
        break
    try:
        with open(f"/proc/{proc.pid}/status") as handle:
            for line in handle:
                key = line.split(":", 1)[0]
                if key in peak:
                    peak[key] = max(peak[key], int(line.split()[1]))
    except OSError:
        pass
    if killed is None:
        if spec["rss_limit"] and peak["VmRSS"] * 1024 > spec["rss_limit"]:
            killed = "rss"
        elif spec["timeout"] and time.perf_counter() - t0 > spec["timeout"]:
            killed = "time"
        if killed:
            proc.kill()
            if feeder:
                feeder.kill()
    time.sleep(0.02)
elapsed = time.perf_counter() - t0
reader.join()
feeder_rss = feeder_code = None
if feeder:
    _, fstatus, fusage = os.wait4(feeder.pid, 0)
    feeder_rss, feeder_code = fusage.ru_maxrss, os.waitstatus_to_exitcode(fstatus)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "elapsed": elapsed, "maxrss_kb": usage.ru_maxrss,
                  "anon_kb": peak["RssAnon"], "file_kb": peak["RssFile"], "feeder_rss_kb": feeder_rss,
                  "feeder_code": feeder_code, "killed": killed, "stdout": out[0].decode("utf-8", "replace")}))
"""

POLARS_OLD = ("import polars as pl, sys; df = pl.scan_csv(sys.argv[1], separator='\\t', has_header=False, "
              "infer_schema=False, quote_char=None).group_by(pl.nth(0), pl.nth(1)).agg(pl.len())"
              ".collect(engine='streaming'); print(df.height, df.get_column('len').sum())")
PANDAS_READ = ("import pandas as pd, sys; df = pd.read_csv(sys.argv[1], sep='\\t', header=None, dtype=str); "
               "print(len(df))")


@dataclass
class Row:
    contender: str
    kind: str  # clfeval, polars, pandas
    n: int
    source: str  # "file" or "pipe"
    repeats: int
    argv: list[str]
    expected: np.ndarray  # K×K counts, rows gold
    env: dict[str, str | None] = field(default_factory=dict)
    feed: list[str] | None = None
    counts_from: Path | None = None  # piped: the generator writes the counts when done; expected is read from here
    limits: tuple[int, float] | None = None
    chunk: str = "4 MiB (default)"
    note: str = ""
    times: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)  # bytes
    anon: list[int] = field(default_factory=list)
    filed: list[int] = field(default_factory=list)
    feeder_rss: list[int] = field(default_factory=list)
    killed: str | None = None

    @property
    def median_time(self) -> float:
        return statistics.median(self.times)

    @property
    def median_rss(self) -> float:
        return statistics.median(self.rss)


def check(row: Row, stdout: str) -> None:
    """Assert that the child counted exactly the rows generated (clfeval: the whole confusion matrix)."""
    if row.counts_from is not None:
        row.expected = np.array(json.loads(row.counts_from.read_text())).reshape(K, K)
    n = int(row.expected.sum())
    assert n == row.n, (row.contender, n, row.n)
    if row.kind == "clfeval":
        report = json.loads(stdout)
        assert report["n_instances"] == n, f"{row.contender}: n_instances {report['n_instances']} != {n}"
        matrix = report["confusion_matrix"]
        order = [NAMES.index(label) for label in matrix["labels"]]
        got = np.array(matrix["counts"])
        assert (got == row.expected[np.ix_(order, order)]).all(), f"{row.contender}: confusion matrix differs"
    elif row.kind == "polars":
        groups, total = map(int, stdout.split())
        assert total == n and groups == int((row.expected > 0).sum()), (row.contender, groups, total)
    else:
        assert int(stdout) == n, (row.contender, stdout)


def run_once(row: Row) -> None:
    limit, timeout = row.limits or (0, 0.0)
    env = {"CLFEVAL_CHUNK_BYTES": None} | row.env  # the default rows run without any override
    spec = {"argv": row.argv, "env": env, "feed": row.feed, "rss_limit": limit, "timeout": timeout}
    done = subprocess.run([PYTHON, "-c", LAUNCHER, json.dumps(spec)], capture_output=True, text=True, check=True)
    res = json.loads(done.stdout)
    if res["killed"]:
        row.killed = res["killed"]
        row.times.append(res["elapsed"])
        row.rss.append(res["maxrss_kb"] * 1024)
        return
    if res["code"] != 0 or (row.feed and res["feeder_code"] != 0):
        raise RuntimeError(f"{row.contender} failed ({res['code']}, generator {res['feeder_code']}): "
                           f"{done.stderr[-2000:]}")
    check(row, res["stdout"])
    row.times.append(res["elapsed"])
    row.rss.append(res["maxrss_kb"] * 1024)  # Linux: kilobytes
    row.anon.append(res["anon_kb"] * 1024)
    row.filed.append(res["file_kb"] * 1024)
    if res["feeder_rss_kb"] is not None:
        row.feeder_rss.append(res["feeder_rss_kb"] * 1024)


def measure(rows: list[Row], log: Callable[[str], None]) -> None:
    """Round-robin repeats, so drift and the other users of the machine hit every row alike."""
    for rep in range(max(r.repeats for r in rows)):
        for row in rows:
            if rep < row.repeats and not row.killed:
                run_once(row)
                log(f"  {row.contender:<52} n={row.n:>11,} {row.chunk:>16} {row.times[-1]:7.2f} s "
                    f"{row.rss[-1] / MIB:7.0f} MiB" + (f"  STOPPED ({row.killed})" if row.killed else ""))


# --------------------------------------------------------------------------- contenders

def clfeval_argv(path: str) -> list[str]:
    return [CLFEVAL, "score", path, "--format", "json"]


def file_rows(n: int, path: Path, expected: np.ndarray, repeats: int, pandas: bool) -> list[Row]:
    rows = [Row("clfeval score FILE --format json", "clfeval", n, "file", repeats, clfeval_argv(str(path)),
                expected),
            Row("old: bare polars scan_csv…group_by…collect(streaming)", "polars", n, "file", repeats,
                [PYTHON, "-c", POLARS_OLD, str(path)], expected, chunk="whole file", note="reference")]
    if pandas:
        rows.append(Row("pandas read_csv(sep='\\t', dtype=str), nothing else", "pandas", n, "file", repeats,
                        [PYTHON, "-c", PANDAS_READ, str(path)], expected, chunk="whole file"))
    return rows


def chunk_rows(n: int, path: Path, expected: np.ndarray, repeats: int) -> list[Row]:
    rows = []
    for mib in (1, 4, 16, 64):
        rows.append(Row(f"clfeval score FILE, CLFEVAL_CHUNK_BYTES={mib} MiB", "clfeval", n, "file", repeats,
                        clfeval_argv(str(path)), expected, env={"CLFEVAL_CHUNK_BYTES": str(mib * MIB)},
                        chunk=f"{mib} MiB" + (" (default)" if mib == 4 else "")))
    return rows


# --------------------------------------------------------------------------- report

def mib(x: float) -> str:
    return f"{x / MIB:,.0f}"


def rss_cells(row: Row) -> list[str]:
    if row.killed:
        return [f"> {mib(max(row.rss))} (stopped: {row.killed})", "", ""]
    span = f"{mib(min(row.rss))}–{mib(max(row.rss))}" if len(row.rss) > 1 else ""
    sampled = f"{mib(max(row.anon))} / {mib(max(row.filed))}" if row.anon else ""
    return [mib(row.median_rss), span, sampled]


def size_table(rows: list[Row]) -> list[str]:
    head = ["contender", "N", "input", "reps", "median s", "min s", "peak RSS MiB", "range", "anon / file MiB",
            "Mrows/s", "note"]
    body = []
    for row in rows:
        body.append([row.contender, f"{row.n:,}", row.source, str(len(row.times)), f"{row.median_time:.2f}",
                     f"{min(row.times):.2f}", *rss_cells(row),
                     "" if row.killed else f"{row.n / row.median_time / 1e6:.1f}", row.note])
    return md_table(head, body, right={1, 3, 4, 5, 6, 7, 8, 9})


def chunk_table(rows: list[Row]) -> list[str]:
    default = next(r for r in rows if r.chunk.endswith("(default)"))
    head = ["CLFEVAL_CHUNK_BYTES", "N", "reps", "median s", "min s", "× default time", "peak RSS MiB", "range",
            "anon / file MiB", "× default RSS"]
    body = [[row.chunk, f"{row.n:,}", str(len(row.times)), f"{row.median_time:.2f}", f"{min(row.times):.2f}",
             f"{row.median_time / default.median_time:.2f}×", *rss_cells(row),
             f"{row.median_rss / default.median_rss:.2f}×"] for row in rows]
    return md_table(head, body, right={1, 2, 3, 4, 5, 6, 7, 8, 9})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10^5 and 10^6-line files, 10^7 generated, 1 repeat")
    parser.add_argument("--keep-data", action="store_true", help="keep the generated big file (default: delete it)")
    parser.add_argument("--no-big-file", action="store_true", help="largest N through the pipe only, no file")
    parser.add_argument("-o", "--output", default=str(RESULTS), help="Markdown output (default: %(default)s)")
    parser.add_argument("--emit", type=int, metavar="N", help=argparse.SUPPRESS)  # the generator child
    parser.add_argument("--counts-to", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit is not None:
        emit(args.emit, sys.stdout.buffer, args.counts_to)
        return 0

    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    small, mid, big = (10**5, 10**6, 10**7) if args.quick else (10**6, 10**7, 10**8)
    repeats = 1 if args.quick else 3

    log("preparing data in benchmarks/data/ (run.py's files, generated once, then reused)")
    paths = {n: tsv_file(n) for n in (small, mid)}
    expected = {n: file_counts(n) for n in (small, mid)}
    for path in paths.values():
        warm(path)

    log(f"1-2. {small:,} and {mid:,}-line files, chunk sizes at {mid:,} ({repeats} round-robin repeats)")
    rows_small = file_rows(small, paths[small], expected[small], repeats, pandas=True)
    rows_mid = file_rows(mid, paths[mid], expected[mid], repeats, pandas=True)
    rows_chunk = chunk_rows(mid, paths[mid], expected[mid], repeats)
    jem = "_RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0"
    diag_small = Row(f"clfeval score FILE, {jem}", "clfeval", small, "file", repeats, clfeval_argv(str(paths[small])),
                     expected[small], env=dict(JEMALLOC_NOW))
    measure(rows_small + rows_mid + rows_chunk + [diag_small], log)

    log(f"1. {big:,} rows, generated on the fly (1 run each)")
    rows_big: list[Row] = []
    counts_pipe = DATA / f"labels-gen-{big}-pipe.counts.json"
    pipe = Row("clfeval score - --input-format tsv (piped)", "clfeval", big, "pipe", 1,
               [CLFEVAL, "score", "-", "--input-format", "tsv", "--format", "json"], np.zeros((K, K)),
               feed=emit_argv(big, counts_pipe), counts_from=counts_pipe)
    gen_seconds = None
    big_path = None
    if not args.no_big_file:
        big_path, big_counts, gen_seconds = generated_file(big, log)
        warm(big_path)
        rows_big = [Row("clfeval score FILE --format json", "clfeval", big, "file", 1, clfeval_argv(str(big_path)),
                        big_counts),
                    Row("old: bare polars scan_csv…group_by…collect(streaming)", "polars", big, "file", 1,
                        [PYTHON, "-c", POLARS_OLD, str(big_path)], big_counts, chunk="whole file",
                        limits=POLARS_LIMIT, note="reference; would be stopped past 6 GiB or 5 min")]
        diag_big = Row(f"clfeval score FILE, {jem}", "clfeval", big, "file", 1, clfeval_argv(str(big_path)),
                       big_counts, env=dict(JEMALLOC_NOW))
        measure(rows_big + [diag_big], log)
    else:
        diag_big = Row(f"clfeval score - (piped), {jem}", "clfeval", big, "pipe", 1, pipe.argv, np.zeros((K, K)),
                       env=dict(JEMALLOC_NOW), feed=pipe.feed, counts_from=counts_pipe)
    measure([pipe] + ([diag_big] if args.no_big_file else []), log)
    counts_pipe.unlink(missing_ok=True)
    log(f"3. {3 * big:,} rows piped: does the peak keep growing?")
    counts_huge = DATA / f"labels-gen-{3 * big}-pipe.counts.json"
    huge = Row("clfeval score - --input-format tsv (piped)", "clfeval", 3 * big, "pipe", 1, pipe.argv,
               np.zeros((K, K)), feed=emit_argv(3 * big, counts_huge), counts_from=counts_huge)
    measure([huge], log)
    counts_huge.unlink(missing_ok=True)
    if big_path is not None and not args.keep_data:
        big_path.unlink()
        big_path.with_suffix(".counts.json").unlink()
        log(f"deleted {big_path.name} (--keep-data keeps it)")
    for row in [pipe, huge] + ([diag_big] if diag_big.feed else []):
        row.note = f"generator child's own peak RSS: {mib(max(row.feeder_rss))} MiB (not included)"

    # ----------------------------------------------------------------- report
    by_size = rows_small + rows_mid + rows_big + [pipe]
    by_size.sort(key=lambda r: (r.n, {"clfeval": 0, "polars": 1, "pandas": 2}[r.kind], r.source))
    sections = [f"### 1. Peak RSS by file size (two-column TSV, 16 bytes a line: {16 * small / 1e6:,.0f} MB, "
                f"{16 * mid / 1e6:,.0f} MB, {16 * big / 1e9:,.1f} GB)", ""]
    sections += size_table(by_size)
    sections += [f"Medians of {repeats} run{'s' if repeats > 1 else ''} at {small:,} and {mid:,} lines "
                 f"(round-robin), 1 run at {big:,}. "
                 "*anon / file*: the largest RssAnon and RssFile seen in the child's /proc status, sampled every "
                 "20 ms (file-backed pages count in RSS: the executable, shared libraries, and any mmap of the "
                 "input). Wall time includes interpreter start-up and imports; the piped row's time is bounded "
                 "by its generator, which shares the 2 cores.", ""]
    if gen_seconds is not None:
        sections += [f"The {big:,}-line file was generated in {gen_seconds:.0f} s (in the time below)"
                     + ("." if args.keep_data else " and deleted at the end."), ""]
    sections += [f"### 2. Chunk size: clfeval at {mid:,} lines, by CLFEVAL_CHUNK_BYTES", ""]
    sections += chunk_table(rows_chunk)
    by_chunk = {r.chunk.split()[0]: r for r in rows_chunk}
    fastest = min(rows_chunk, key=lambda r: r.median_time)
    versus = ("it has the fastest median" if fastest is by_chunk["4"] else
              f"{by_chunk['4'].median_time / fastest.median_time:.2f}× the fastest median ({fastest.chunk})")
    sections += [f"The default (4 MiB) against the others: {versus}; 1 MiB saves "
                 f"{mib(by_chunk['4'].median_rss - by_chunk['1'].median_rss)} MiB at "
                 f"{by_chunk['1'].median_time / by_chunk['4'].median_time:.2f}× the time, 16 MiB costs "
                 f"{mib(by_chunk['16'].median_rss - by_chunk['4'].median_rss)} MiB more for "
                 f"{by_chunk['16'].median_time / by_chunk['4'].median_time:.2f}× the time, 64 MiB "
                 f"{mib(by_chunk['64'].median_rss - by_chunk['4'].median_rss)} MiB more for "
                 f"{by_chunk['64'].median_time / by_chunk['4'].median_time:.2f}×. Peak RSS grows by about "
                 f"{(by_chunk['64'].median_rss - by_chunk['1'].median_rss) / (63 * MIB):.1f} MiB per MiB of chunk.", ""]

    sections += [f"### 3. Where the growth goes: polars' jemalloc keeping freed pages, and {3 * big:,} rows", ""]
    pairs = [rows_big[0], diag_big, pipe] if rows_big else [pipe, diag_big]
    sections += size_table([rows_small[0], diag_small] + pairs + [huge])
    sections += ["polars allocates through its own jemalloc, which keeps freed pages resident, in each of its "
                 "arenas, and purges them gradually (dirty_decay_ms, 10 s by default): the peak RSS is the live "
                 "memory plus whatever freed chunk buffers happen to be held at the worst moment, and a run of more "
                 "chunks meets a worse moment, up to a ceiling. "
                 f"`{jem}` (the environment variable of polars' bundled jemalloc) purges them at once: a "
                 "diagnosis, not a recommended setting (more purging, more time). The last row runs three times as "
                 f"many rows through the pipe to see whether the peak keeps rising past {big:,}.", ""]

    def rss_of(rows: list[Row], kind: str, source: str = "file") -> Row | None:
        return next((r for r in rows if r.kind == kind and r.source == source), None)

    flat: list[str] = []
    base = rss_of(rows_small, "clfeval")
    base_polars = rss_of(rows_small, "polars")
    for row, label in [(rss_of(rows_mid, "clfeval"), f"clfeval, file, {mid:,}"),
                       (rss_of(rows_big, "clfeval"), f"clfeval, file, {big:,}"),
                       (pipe, f"clfeval, pipe, {big:,}")]:
        if row is None:
            continue
        r = row.median_rss / base.median_rss
        flat.append(f"- [{'x' if r <= FLAT else ' '}] {'flat' if r <= FLAT else 'NOT FLAT'}: {label} lines: "
                    f"{mib(row.median_rss)} MiB vs {mib(base.median_rss)} MiB at {small:,} = {r:.2f}× "
                    f"(+{mib(row.median_rss - base.median_rss)} MiB; flat taken as ≤ {FLAT:.2f}×)")
    for row in [rss_of(rows_mid, "polars"), rss_of(rows_big, "polars")]:
        if row is None:
            continue
        r = row.median_rss / base_polars.median_rss
        flat.append(f"- for reference, the old bare polars read at {row.n:,} lines: {mib(row.median_rss)} MiB vs "
                    f"{mib(base_polars.median_rss)} MiB at {small:,} = {r:.2f}×"
                    + (f" (stopped: {row.killed}; a lower bound)" if row.killed else ""))
    r_jem = diag_big.median_rss / diag_small.median_rss
    flat.append(f"- with polars' jemalloc purging freed pages at once ({jem}): {mib(diag_big.median_rss)} MiB at "
                f"{big:,} ({diag_big.source}) vs {mib(diag_small.median_rss)} MiB at {small:,} = {r_jem:.2f}×"
                + (" (flat): the default's growth is freed memory that jemalloc has not yet returned" if r_jem <= FLAT
                   else " (not flat either: not all of the growth is jemalloc's retained pages)"))
    top = max([pipe] + rows_big[:1], key=lambda r: r.median_rss)  # one run each: the higher of the two
    r_huge, r_huge_base = huge.median_rss / top.median_rss, huge.median_rss / base.median_rss
    flat.append(f"- {3 * big:,} rows piped: {mib(huge.median_rss)} MiB = {r_huge:.2f}× the higher {big:,}-row peak "
                f"({top.source}, {mib(top.median_rss)} MiB), {r_huge_base:.2f}× the {small:,}-line file: "
                + ("the peak levels off" if r_huge <= 1.05 else "the peak is STILL RISING"))
    n_checked = sum(len(r.times) for r in by_size + rows_chunk + [diag_small, diag_big, huge] if r.kind == "clfeval")
    checks = [f"- every clfeval run (file and pipe, every chunk size) gave n_instances = the rows generated and "
              f"the generated confusion matrix ({n_checked}"
              f" runs); the polars and pandas children counted every row too (assertions: the script stops "
              f"otherwise)"]

    import clfeval
    import polars
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    header = [
        "# clfeval memory benchmark",
        "",
        f"`python benchmarks/memory.py{' --quick' if args.quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{platform.machine()}, {os.cpu_count()} cores, {ram:.0f} GiB, "
        f"Python {platform.python_version()}, clfeval {clfeval.__version__}, numpy {np.__version__}, "
        f"polars {polars.__version__}, pandas {pkg_version('pandas')}, pyarrow {pkg_version('pyarrow')}; "
        f"1-min load average {load_before:.2f} at start, {os.getloadavg()[0]:.2f} at end (other processes "
        "share the cores: times are indicative, memory is not affected)",
        "",
        "Peak RSS: of that one child process, from `os.wait4` rusage via a small launcher process (start-up and "
        "imports included). Data: seeded, 20 skewed classes, ~70% correct. clfeval's default chunk: 4 MiB of "
        "whole lines.",
        "",
    ]
    footer = ["### Flatness", ""] + flat + ["", "### Checks", ""] + checks
    write_results(header, sections, footer, started, args.output, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
