"""Helpers the benchmark scripts share: Markdown tables, ratio text, package versions, writing the results file;
seeded data files written block by block; timing a whole child process (wall time and peak RSS) in round-robin
repeats."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

ROOT = Path(__file__).resolve().parent.parent  # the repository: the children's working directory
DATA = ROOT / "benchmarks" / "data"  # generated data (git-ignored)
PYTHON = sys.executable
CLFEVAL = str(Path(sys.executable).parent / "clfeval")
MIB = 2**20


def md_table(head: list[str], body: list[list[str]], right: set[int]) -> list[str]:
    """A Markdown pipe table with aligned columns; columns in ``right`` are right-aligned."""
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]

    def fmt(cells: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else "-" * (w + 2) for i, w in enumerate(widths)) + "|"
    return [fmt(head), rule] + [fmt(b) for b in body] + [""]


def ratio_text(x: float) -> str:
    """A speed ratio: one decimal below 10×, none above."""
    return f"{x:,.1f}×" if x < 10 else f"{x:,.0f}×"


def blas_threads() -> str:
    """The BLAS thread pools numpy and scipy use ("openblas 2", …), as threadpoolctl reports them."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown"
    pools = [f"{p.get('internal_api', '?')} {p.get('num_threads', '?')}" for p in threadpool_info()
             if p.get("user_api") == "blas"]
    return ", ".join(dict.fromkeys(pools)) or "none found"  # numpy's and scipy's pools are often alike


def pkg_version(name: str) -> str:
    """An installed package's version, or ``not installed``."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def write_results(header: list[str], sections: list[str], footer: list[str], started: float, output: str,
                  log: Callable[[str], None]) -> None:
    """Print the report and write it to ``output``, with the total benchmark time at the end."""
    text = "\n".join(header + sections + footer + ["", f"Total benchmark time: {time.perf_counter() - started:.0f} s",
                                                   ""])
    print(text)
    Path(output).write_text(text, encoding="utf-8")
    log(f"wrote {output}")


# --------------------------------------------------------------------------- data

def zipf_weights(k: int, exponent: float) -> np.ndarray:
    """Tag probabilities p ∝ 1/rank^exponent for tags 0..k-1."""
    import numpy as np

    weights = 1.0 / np.arange(1, k + 1) ** exponent
    weights /= weights.sum()
    return weights


def wrong_tags(rng: np.random.Generator, gold: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """A wrong prediction for every gold tag: drawn from the tag distribution, never the gold tag."""
    k = len(weights)
    wrong = rng.choice(k, size=len(gold), p=weights)
    same = wrong == gold
    wrong[same] = (gold[same] + rng.integers(1, k, size=int(same.sum()))) % k
    return wrong


def tag_lines(feature: np.ndarray, gold: np.ndarray, pred: np.ndarray, line: int) -> np.ndarray:
    """TiMBL-style lines as a (rows, line) uint8 array: ``q T12 T03`` (feature letter, gold and predicted tag
    numbers) in the first 9 bytes and a newline in the last; the bytes between are the caller's to fill."""
    import numpy as np

    out = np.empty((len(gold), line), dtype=np.uint8)
    out[:, 0] = ord("a") + feature
    out[:, [1, 5]] = ord(" ")
    out[:, [2, 6]] = ord("T")
    out[:, 3], out[:, 4] = 48 + gold // 10, 48 + gold % 10
    out[:, 7], out[:, 8] = 48 + pred // 10, 48 + pred % 10
    out[:, line - 1] = ord("\n")
    return out


def seeded_file(path: Path, line: int, n: int, make_block: Callable[[int, int], np.ndarray],
                log: Callable[[str], None], block: int = 10**6) -> Path:
    """The n-line file at ``path`` (``line`` bytes a line), generated once and reused when present and whole:
    written ``block`` rows at a time, ``make_block(block number, rows)`` giving each as a (rows, line) uint8
    array (seeded with the block number: a file of whole blocks is then a prefix of a larger one; a short last
    block is drawn apart, not as the start of a whole one)."""
    if path.exists() and path.stat().st_size == line * n:
        return path
    log(f"generating {path.name} ({line * n / 1e6:,.0f} MB)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        for number, start in enumerate(range(0, n, block)):
            out.write(make_block(number, min(block, n - start)).tobytes())
    tmp.replace(path)
    return path


def data_files(sizes: list[int], make: Callable[[int, Callable[[str], None]], Path]) -> dict[int, Path]:
    """``make(n, log)`` for every size, said first."""
    log("preparing data in benchmarks/data/ (generated once, then reused)")
    return {n: make(n, log) for n in sizes}


def warm(path: Path) -> None:
    """Read the file once so that every contender reads it from the page cache."""
    with open(path, "rb") as handle:
        while handle.read(1 << 24):
            pass


def warmed(paths: dict[int, Path]) -> Iterator[tuple[int, Path]]:
    """Each (size, file), the file read just before (``warm``)."""
    for n, path in paths.items():
        warm(path)
        yield n, path


# --------------------------------------------------------------------------- timing child processes

@dataclass
class ChildRow:
    """One contender run as its own subprocess: its command line and the wall times and peak RSS of its runs."""
    contender: str
    n: int
    argv: list[str]
    repeats: int = 3
    reference: bool = False
    stdout: Path | None = None  # where the first timed run's standard output is kept (else it is dropped)
    limit: float | None = None  # seconds: the child is stopped past this
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
# forked from, here the benchmark process). The child's standard output goes to the file argv[1]
# (os.devnull when not kept); past argv[2] seconds (0: no limit) a timer thread kills it, and the launcher
# says so.
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


def time_child(row: ChildRow) -> None:
    """One run of ``row.argv`` (from the repository): its wall time and peak RSS appended to the row; a run
    stopped at ``row.limit`` marks the row stopped, any other failure raises."""
    keep = row.stdout is not None and not row.times
    target = str(row.stdout) if keep else os.devnull
    done = subprocess.run([sys.executable, "-c", LAUNCHER, target, str(row.limit or 0), *row.argv],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    code, elapsed, maxrss, stopped = done.stdout.split()
    if int(stopped):
        row.stopped = True
    elif int(code) != 0:
        raise RuntimeError(f"{row.contender} failed ({code}): {done.stderr[-2000:]}")
    row.times.append(float(elapsed))
    row.rss.append(int(maxrss) * 1024)  # Linux: kilobytes


def measure(rows: list[ChildRow], log: Callable[[str], None], width: int = 50,
            before: Callable[[ChildRow], None] | None = None,
            after: Callable[[ChildRow, int], None] | None = None) -> None:
    """Round-robin repeats (so drift hits every contender alike), each logged with the contender name padded to
    ``width``; ``before(row)`` runs untimed before each run, ``after(row, repeat)`` after it (it may lower
    ``row.repeats``)."""
    for rep in range(max(r.repeats for r in rows)):
        for row in rows:
            if rep < row.repeats:
                if before:
                    before(row)
                time_child(row)
                log(f"  run {rep + 1}: {row.contender:<{width}} n={row.n:>10,} {row.times[-1]:8.2f} s "
                    f"{row.rss[-1] / MIB:6.0f} MiB" + (" STOPPED" if row.stopped else ""))
                if after:
                    after(row, rep)



# --------------------------------------------------------------------------- the script around it

def log(text: str) -> None:
    """Progress, on standard error."""
    print(text, file=sys.stderr, flush=True)


@dataclass
class Session:
    """One run of a benchmark script: its arguments, when it started and the 1-min load average then."""
    args: argparse.Namespace
    started: float = field(default_factory=time.perf_counter)
    load_before: float = field(default_factory=lambda: os.getloadavg()[0])


def start(doc: str, results: Path, extra: Callable[[argparse.ArgumentParser], None] | None = None) -> Session:
    """The command line: ``--quick``, then what ``extra`` adds, then ``-o/--output`` (default ``results``); the
    description is the first paragraph of ``doc``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10^5 lines only: a fast check that everything runs")
    if extra:
        extra(parser)
    parser.add_argument("-o", "--output", default=str(results), help="Markdown output (default: %(default)s)")
    return Session(parser.parse_args())


def timing_section(title: str, table: list[str], legend: str) -> list[str]:
    """A results section: the heading, the table of child-process timings, and what its columns mean."""
    return [f"### {title}", "", *table,
            "Wall time of the whole child process (interpreter start-up and imports included), median of the "
            f"repeats; {legend}", ""]


def commands_section(commands: list[str], scripts: list[tuple[str, str]]) -> list[str]:
    """The "Commands" section: the command lines in one code block, then each (caption, Python script) in its
    own."""
    lines = ["### Commands", "", "```", *commands, "```", ""]
    for caption, script in scripts:
        lines += [f"{caption}:", "", "```python" + script.rstrip(), "```", ""]
    return lines


def write_report(session: Session, title: str, script: str, packages: list[str], data: str, sections: list[str],
                 checks: list[str]) -> None:
    """The results file (``--output``): the title; the command (``python benchmarks/SCRIPT``, ``--quick`` if
    given), date, machine, Python, clfeval and ``packages`` versions and the 1-min load average at start and now;
    the ``data`` paragraph; the sections; the checks, one a bullet; the total time of the session."""
    args, load_before = session.args, session.load_before
    import platform

    import clfeval

    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    versions = ", ".join([f"clfeval {clfeval.__version__}"] + [f"{name} {pkg_version(name)}" for name in packages])
    run = (f"`python benchmarks/{script}{' --quick' if args.quick else ''}` — {time.strftime('%Y-%m-%d %H:%M')}, "
           f"{platform.platform()}, {os.cpu_count()} cores, {ram:.0f} GiB, Python {platform.python_version()}, "
           f"{versions}; 1-min load average {load_before:.2f} at start, {os.getloadavg()[0]:.2f} at end (other "
           "processes share the cores: times are indicative)")
    footer = ["### Checks", ""] + [f"- {c}" for c in checks]
    write_results([f"# {title}", "", run, "", data, ""], sections, footer, session.started, args.output, log)
