"""clfeval start-up and reading benchmark: ``clfeval score`` end to end against the floors issue 20 set, as ratios.

    python benchmarks/startup.py             # 15 round-robin runs of the start-up rows, 5 of the reading rows
    python benchmarks/startup.py --quick     # 5 and 2 runs, the 10^6-line file only: a check
    python benchmarks/startup.py --repeats 21

Prints two Markdown tables and writes the same text to ``benchmarks/startup.md``.

What is measured: every row is one fresh child process, started by common.py's launcher (wall time of the whole
child, interpreter start-up and imports included; peak RSS from ``os.wait4``), round-robin over the rows of a
table so that drift hits every row alike; the median of the repeats is reported.

1. Start-up, on a three-line TSV (``a<TAB>b``, ``b<TAB>b``, ``a<TAB>a``):
   - the floor: ``python -c "import numpy, polars"`` (clfeval needs both);
   - ``python -c "import clfeval"`` (the package: its names load on first use);
   - ``clfeval score tiny.tsv`` (the text report) and ``clfeval score tiny.tsv --format json``.
   Ratio: each row's median over the floor's. Issue 20's target: ``clfeval score`` within 1.3×.
2. Reading, on run.py's two-column TSV files of 20 labels (16 bytes a line: ``labelGG<TAB>labelPP``; the same
   seeded files as ``python benchmarks/run.py``; 5·10⁶ lines are the first 5·10⁶ of the 10⁷-line file's labels):
   - the floor: ``python -c "import polars; polars.read_csv(FILE, separator='\\t', has_header=False)"``, a bare
     polars read of the same file in a fresh process;
   - ``clfeval score FILE --format json`` (output kept, checked below).
   Ratio: clfeval's median over the bare read's. Issue 20's target: at or below 1.0.

Checks (outside the timings): the tiny file's JSON has n_instances = 3 and accuracy 2/3; each reading run's JSON has
n_instances = N and its confusion matrix's counts add up to N.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from common import (CLFEVAL, DATA, MIB, PYTHON, ChildRow, commands_section, log, md_table, measure, start,
                    timing_section, write_report)
from run import tsv_file

RESULTS = Path(__file__).resolve().parent / "startup.md"
START_REPEATS, READ_REPEATS = 15, 5
READ_SIZES = [5 * 10**6, 10**7]
QUICK_READ_SIZES = [10**6]


@dataclass(kw_only=True)
class Row(ChildRow):
    floor: bool = False


def startup_rows(tiny: Path, repeats: int, out: Path) -> list[Row]:
    shared = {"n": 3, "repeats": repeats}
    return [Row("python -c \"import numpy, polars\"", argv=[PYTHON, "-c", "import numpy, polars"], floor=True,
                **shared),
            Row("python -c \"import clfeval\"", argv=[PYTHON, "-c", "import clfeval"], **shared),
            Row("clfeval score tiny.tsv", argv=[CLFEVAL, "score", str(tiny)], **shared),
            Row("clfeval score tiny.tsv --format json", argv=[CLFEVAL, "score", str(tiny), "--format", "json"],
                stdout=out / "tiny.json", **shared)]


def reading_rows(path: Path, n: int, repeats: int, out: Path) -> list[Row]:
    read = f"import polars; polars.read_csv({str(path)!r}, separator='\\t', has_header=False)"
    shared = {"n": n, "repeats": repeats}
    return [Row("bare polars.read_csv", argv=[PYTHON, "-c", read], floor=True, **shared),
            Row("clfeval score FILE --format json", argv=[CLFEVAL, "score", str(path), "--format", "json"],
                stdout=out / f"read-{n}.json", **shared)]


def table(rows: list[Row], by_n: bool) -> list[str]:
    """The rows as Markdown; each ratio is over the floor of the same N (the same file)."""
    head = (["N"] if by_n else []) + ["contender", "reps", "median s", "min s", "peak MiB", "ratio to the floor"]
    body = []
    for row in rows:
        floor = next(r for r in rows if r.floor and r.n == row.n)
        ratio = "1.00× (floor)" if row is floor else f"{row.median / floor.median:.2f}×"
        body.append(([f"{row.n:,}"] if by_n else []) + [row.contender, str(len(row.times)), f"{row.median:.3f}",
                                                        f"{min(row.times):.3f}", f"{max(row.rss) / MIB:,.0f}", ratio])
    right = set(range(1 if by_n else 0, len(head))) - {1 if by_n else 0}
    return md_table(head, body, right=right | ({0} if by_n else set()))


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
    out = DATA / "startup-out"
    out.mkdir(parents=True, exist_ok=True)
    tiny = out / "tiny.tsv"
    tiny.write_text("a\tb\nb\tb\na\ta\n", encoding="utf-8")

    log("start-up")
    rows = startup_rows(tiny, start_repeats, out)
    measure(rows, log, width=40)
    checks = [check_tiny(rows[-1])]
    sections = timing_section("1. Start-up: a three-line file", table(rows, by_n=False),
                              "ratio: the row's median over the floor's (`import numpy, polars`). Issue 20's target: "
                              "`clfeval score` within 1.3×.")
    reading: list[Row] = []
    for n in QUICK_READ_SIZES if args.quick else READ_SIZES:
        path = tsv_file(n)
        log(f"reading {path.name} ({path.stat().st_size / 1e6:,.0f} MB)")
        pair = reading_rows(path, n, read_repeats, out)
        measure(pair, log, width=40)
        checks.append(check_read(pair[1]))
        reading += pair
    sections += timing_section("2. Reading: a 20-label TSV end to end", table(reading, by_n=True),
                               "ratio: clfeval's median over the bare polars read's of the same file. Issue 20's "
                               "target: at or below 1.0×.")
    ratios = [r.median / next(f for f in reading if f.floor and f.n == r.n).median for r in reading if not r.floor]
    sections += [f"Reading ratios: {', '.join(f'{x:.2f}×' for x in ratios)} (median over the files "
                 f"{statistics.median(ratios):.2f}×).", ""]
    sections += commands_section(["python -c \"import numpy, polars\"", "python -c \"import clfeval\"",
                                  "clfeval score tiny.tsv", "clfeval score tiny.tsv --format json",
                                  "python -c \"import polars; polars.read_csv(FILE, separator='\\t', "
                                  "has_header=False)\"", "clfeval score FILE --format json"], [])
    write_report(session, "clfeval start-up and reading benchmark", "startup.py", ["numpy", "polars"],
                 "Data: a three-line TSV written here; run.py's seeded 20-label TSV files (generated once into "
                 "benchmarks/data/, git-ignored, and reused). Runs: round-robin within each table, median of "
                 f"{start_repeats} (start-up) and {read_repeats} (reading).", sections, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
