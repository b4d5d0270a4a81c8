"""clfeval start-up and reading benchmark: clfeval's own start-up over the import floor, and reading a large TSV
against a bare polars read, side by side in one run, with issue 30's bounds (item 8).

    python benchmarks/startup.py             # 21 round-robin runs of the start-up rows, 9 of the reading rows
    python benchmarks/startup.py --quick     # 5 and 2 runs, the 10^6-line file only: a check
    python benchmarks/startup.py --repeats 31

Prints the tables and writes the same text to ``benchmarks/startup.md``.

What is measured: every row is one fresh child process, started by common.py's launcher (wall time of the whole
child, interpreter start-up and imports included; peak RSS from ``os.wait4``), round-robin over the rows of a
table so that drift hits every row alike, after one untimed run of each row; the median of the repeats is
reported, and the minimum beside it (the least disturbed run: on a shared machine the median moves with the
load, the minimum much less).

The children run with compiled bytecode, as an installed package has it: ``PYTHONDONTWRITEBYTECODE`` is dropped
from their environment and ``PYTHONPYCACHEPREFIX`` points at ``benchmarks/data/pycache``, where the untimed
first run of each row compiles what it imports. (Without that, every module edited since its ``.pyc`` was last
written is compiled again in every run, a few milliseconds each.)

1. Start-up, on a three-line TSV (``a<TAB>b``, ``b<TAB>b``, ``a<TAB>a``):
   - the floor: ``python -c "import numpy, polars"`` (clfeval needs both);
   - ``python -c "import clfeval"`` (the package: its names load on first use);
   - ``clfeval score tiny.tsv`` (the text report) and ``clfeval score tiny.tsv --format json``.
   clfeval's own start-up is a row's median minus the floor's. Issue 30's bound: at most 50 ms.
2. Reading, on run.py's two-column TSV files of 20 labels (16 bytes a line: ``labelGG<TAB>labelPP``; the same
   seeded files as ``python benchmarks/run.py``; 5·10⁶ lines are the first 5·10⁶ of the 10⁷-line file's labels):
   - the floor: ``python -c "import polars; polars.read_csv(FILE, separator='\\t', has_header=False)"``, a bare
     polars read of the same file in a fresh process;
   - ``clfeval score FILE --format json`` (output kept, checked below).
   Ratio: clfeval's median over the bare read's. Issue 30's bound: at most 1.5×.
3. Where clfeval's own start-up goes: ``python -X importtime`` of ``clfeval score tiny.tsv`` run in process
   (``from clfeval.cli import main; main(["score", "tiny.tsv"])``), the modules the floor does not import, their
   own ("self") import times summed by package; medians over a few runs. ``-X importtime`` adds its own overhead,
   and the run itself (reading, scoring, the report) is not an import: the table says where, not how much.

Checks (outside the timings): the tiny file's JSON has n_instances = 3 and accuracy 2/3; each reading run's JSON has
n_instances = N and its confusion matrix's counts add up to N.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from common import (CLFEVAL, DATA, MIB, PYTHON, ChildRow, commands_section, log, md_table, measure, start,
                    time_child, timing_section, write_report)
from run import tsv_file

RESULTS = Path(__file__).resolve().parent / "startup.md"
START_REPEATS, READ_REPEATS, IMPORT_REPEATS = 21, 9, 5
READ_SIZES = [5 * 10**6, 10**7]
QUICK_READ_SIZES = [10**6]
START_BOUND = 0.050  # seconds of clfeval's own start-up over the floor (issue 30)
READ_BOUND = 1.5  # clfeval's reading time over a bare polars read (issue 30)
PYCACHE = DATA / "pycache"  # the children's compiled bytecode (PYTHONPYCACHEPREFIX)


@dataclass(kw_only=True)
class Row(ChildRow):
    floor: bool = False
    compared: bool = True  # False: a row that does not import the floor's packages (no difference shown)


def child_environment() -> None:
    """The children (they inherit this process's environment) run with compiled bytecode kept apart."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)


def warm_up(rows: list[Row]) -> None:
    """One untimed run of every row: compiles the bytecode and reads the data files into the page cache."""
    for row in rows:
        time_child(row)
        row.times.clear()
        row.rss.clear()


def startup_rows(tiny: Path, repeats: int, out: Path) -> list[Row]:
    shared = {"n": 3, "repeats": repeats}
    return [Row("python -c \"import numpy, polars\"", argv=[PYTHON, "-c", "import numpy, polars"], floor=True,
                **shared),
            Row("python -c \"import clfeval\"", argv=[PYTHON, "-c", "import clfeval"], compared=False, **shared),
            Row("clfeval score tiny.tsv", argv=[CLFEVAL, "score", str(tiny)], **shared),
            Row("clfeval score tiny.tsv --format json", argv=[CLFEVAL, "score", str(tiny), "--format", "json"],
                stdout=out / "tiny.json", **shared)]


def reading_rows(path: Path, n: int, repeats: int, out: Path) -> list[Row]:
    read = f"import polars; polars.read_csv({str(path)!r}, separator='\\t', has_header=False)"
    shared = {"n": n, "repeats": repeats}
    return [Row("bare polars.read_csv", argv=[PYTHON, "-c", read], floor=True, **shared),
            Row("clfeval score FILE --format json", argv=[CLFEVAL, "score", str(path), "--format", "json"],
                stdout=out / f"read-{n}.json", **shared)]


def floor_of(rows: list[Row], row: Row) -> Row:
    return next(r for r in rows if r.floor and r.n == row.n)


def table(rows: list[Row], by_n: bool) -> list[str]:
    """The rows as Markdown: over the floor of the same N (the same file), the difference (start-up) or the ratio."""
    head = (["N"] if by_n else []) + ["contender", "reps", "median s", "min s", "peak MiB",
                                      "ratio to the floor" if by_n else "over the floor (median, min)"]
    body = []
    for row in rows:
        floor = floor_of(rows, row)
        if row is floor:
            versus = "1.00× (floor)" if by_n else "(floor)"
        elif not row.compared:
            versus = "— (imports neither)"
        elif by_n:
            versus = f"{row.median / floor.median:.2f}×"
        else:
            versus = f"{(row.median - floor.median) * 1e3:+.0f} ms, {(min(row.times) - min(floor.times)) * 1e3:+.0f} ms"
        body.append(([f"{row.n:,}"] if by_n else []) + [row.contender, str(len(row.times)), f"{row.median:.3f}",
                                                        f"{min(row.times):.3f}", f"{max(row.rss) / MIB:,.0f}", versus])
    right = set(range(1 if by_n else 0, len(head))) - {1 if by_n else 0}
    return md_table(head, body, right=right | ({0} if by_n else set()))


def bounds_table(start_rows: list[Row], reading: list[Row]) -> tuple[list[str], bool]:
    """Issue 30's two bounds, each figure beside its bound: clfeval's own start-up (median and min over the floor's)
    and the reading ratios (medians, and mins). Returns the table and whether every median is within its bound."""
    body, within = [], True
    for row in start_rows:
        if row.floor or not row.contender.startswith("clfeval score"):
            continue
        floor = floor_of(start_rows, row)
        own, own_min = row.median - floor.median, min(row.times) - min(floor.times)
        ok = own <= START_BOUND
        within &= ok
        body.append([f"clfeval's own start-up: `{row.contender}` − floor", f"{own * 1e3:.0f} ms",
                     f"{own_min * 1e3:.0f} ms", f"≤ {START_BOUND * 1e3:.0f} ms", "yes" if ok else "**no**"])
    for row in reading:
        if row.floor:
            continue
        floor = floor_of(reading, row)
        ratio, ratio_min = row.median / floor.median, min(row.times) / min(floor.times)
        ok = ratio <= READ_BOUND
        within &= ok
        body.append([f"reading {row.n:,} lines: clfeval ÷ bare polars", f"{ratio:.2f}×", f"{ratio_min:.2f}×",
                     f"≤ {READ_BOUND:.1f}×", "yes" if ok else "**no**"])
    head = ["issue 30, item 8", "median", "min", "bound", "within"]
    return md_table(head, body, right={1, 2, 3}), within


def import_times(tiny: Path, repeats: int) -> list[str]:
    """Section 3: the self import times (ms) of the modules ``clfeval score tiny.tsv`` loads beyond the floor's,
    by package and the largest modules, medians over ``repeats`` runs of ``python -X importtime``."""

    def run(code: str) -> dict[str, float]:
        done = subprocess.run([PYTHON, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True,
                              cwd=tiny.parent)
        found = (re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line) for line in done.stderr.splitlines())
        return {m[2]: int(m[1]) / 1e3 for m in found if m is not None}

    floor = set(run("import numpy, polars"))
    code = f"from clfeval.cli import main; main(['score', {tiny.name!r}])"
    runs = [run(code) for _ in range(repeats)]
    modules = [m for m in runs[0] if m not in floor]
    own = {m: statistics.median(r.get(m, 0.0) for r in runs) for m in modules}
    packages: dict[str, list[float]] = defaultdict(list)
    for module, ms in own.items():
        parts = module.split(".")
        key = ".".join(parts[:2]) if parts[0] == "clfeval" and len(parts) > 1 else parts[0]
        packages[key if parts[0] == "clfeval" else "other (standard library …)"].append(ms)
    small = [k for k, v in packages.items() if k.startswith("clfeval") and sum(v) < 0.5]
    if len(small) > 1:  # the packages of a module or two, under half a millisecond each: one row
        rest = [ms for k in small for ms in packages.pop(k)]
        packages[f"the other {len(small)} clfeval packages and modules (under 0.5 ms each)"] = rest
    by_package = sorted(packages.items(), key=lambda kv: -sum(kv[1]))
    lines = md_table(["package", "modules", "self ms"],
                     [[f"`{k}`" if k.startswith("clfeval.") else k, str(len(v)), f"{sum(v):.1f}"]
                      for k, v in by_package]
                     + [["**all**", str(len(own)), f"**{sum(own.values()):.1f}**"]], right={1, 2})
    largest = sorted(own.items(), key=lambda kv: -kv[1])[:12]
    lines += md_table(["module", "self ms"], [[f"`{m}`", f"{ms:.2f}"] for m, ms in largest], right={1})
    return lines


def check_tiny(row: Row) -> str:
    assert row.stdout is not None
    data = json.loads(row.stdout.read_text(encoding="utf-8"))
    if data["n_instances"] != 3 or abs(data["accuracy"] - 2 / 3) > 1e-12:
        raise SystemExit(f"CHECK FAILED: the tiny file gave n = {data['n_instances']}, accuracy {data['accuracy']}")
    return "tiny.tsv: n_instances = 3, accuracy = 2/3"


def check_read(row: Row) -> str:
    assert row.stdout is not None
    data = json.loads(row.stdout.read_text(encoding="utf-8"))
    total = sum(map(sum, data["confusion_matrix"]["counts"]))
    if data["n_instances"] != row.n or total != row.n:
        raise SystemExit(f"CHECK FAILED at N={row.n:,}: n_instances {data['n_instances']:,}, matrix total {total:,}")
    return f"N={row.n:,}: n_instances = N and the confusion matrix adds up to N"


def main() -> int:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--repeats", type=int, default=START_REPEATS, metavar="R",
                            help="start-up runs per contender (default %(default)s; reading: a third, at least 2)")

    session = start(__doc__, RESULTS, extra)
    args = session.args
    start_repeats = 5 if args.quick else args.repeats
    read_repeats = 2 if args.quick else max(2, READ_REPEATS if args.repeats == START_REPEATS else args.repeats // 3)
    import_repeats = 2 if args.quick else IMPORT_REPEATS
    child_environment()
    out = DATA / "startup-out"
    out.mkdir(parents=True, exist_ok=True)
    tiny = out / "tiny.tsv"
    tiny.write_text("a\tb\nb\tb\na\ta\n", encoding="utf-8")

    log("start-up")
    rows = startup_rows(tiny, start_repeats, out)
    warm_up(rows)
    measure(rows, log, width=40)
    checks = [check_tiny(rows[-1])]
    reading: list[Row] = []
    for n in QUICK_READ_SIZES if args.quick else READ_SIZES:
        path = tsv_file(n)
        log(f"reading {path.name} ({path.stat().st_size / 1e6:,.0f} MB)")
        pair = reading_rows(path, n, read_repeats, out)
        warm_up(pair)
        measure(pair, log, width=40)
        checks.append(check_read(pair[1]))
        reading += pair
    log("import times")
    imports = import_times(tiny, import_repeats)

    bounds, within = bounds_table(rows, reading)
    sections = ["### Issue 30's bounds", "", *bounds,
                f"{'Every median is within its bound.' if within else 'A median is over its bound.'} Start-up: a "
                "row's median (and min) minus the floor's; reading: clfeval's median (and min) over the bare polars "
                "read's of the same file.", ""]
    sections += timing_section("1. Start-up: a three-line file", table(rows, by_n=False),
                               "over the floor: the row's median minus the floor's (`import numpy, polars`), then its "
                               "min minus the floor's min: clfeval's own start-up.")
    sections += timing_section("2. Reading: a 20-label TSV end to end", table(reading, by_n=True),
                               "ratio: clfeval's median over the bare polars read's of the same file.")
    sections += ["### 3. Where clfeval's own start-up goes", "",
                 f"`python -X importtime` of `clfeval score tiny.tsv` in process; modules beyond the floor's, their "
                 f"self times (median of {import_repeats} runs) by package, then the largest. `-X importtime` adds "
                 "its own overhead, and the run's work (reading, scoring, the report) is not in it.", "", *imports]
    sections += commands_section(["python -c \"import numpy, polars\"", "python -c \"import clfeval\"",
                                  "clfeval score tiny.tsv", "clfeval score tiny.tsv --format json",
                                  "python -c \"import polars; polars.read_csv(FILE, separator='\\t', "
                                  "has_header=False)\"", "clfeval score FILE --format json",
                                  "python -X importtime -c \"from clfeval.cli import main; "
                                  "main(['score', 'tiny.tsv'])\""], [])
    write_report(session, "clfeval start-up and reading benchmark", "startup.py", ["numpy", "polars"],
                 "Data: a three-line TSV written here; run.py's seeded 20-label TSV files (generated once into "
                 "benchmarks/data/, git-ignored, and reused). Runs: one untimed run of every row, then round-robin "
                 f"within each table, median of {start_repeats} (start-up) and {read_repeats} (reading); children "
                 "with compiled bytecode (PYTHONPYCACHEPREFIX set to the benchmarks' own pycache directory).", sections, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
