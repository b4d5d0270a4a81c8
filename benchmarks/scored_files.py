"""Files of scored predictions: wall time and peak memory of ``clfeval score FILE --scores`` (counted chunk by chunk)
against what users would otherwise run (polars.read_csv of the whole file, then scikit-learn's roc_auc_score), side
by side, each contender checked to give the same AUC first.

    .venv/bin/python benchmarks/scored_files.py            # writes benchmarks/scored_files.md
    .venv/bin/python benchmarks/scored_files.py --quick    # 10^5 and 10^6 rows: a smoke test, prints only
    .venv/bin/python benchmarks/scored_files.py --parts    # writes benchmarks/scored_parts.md (below)
    .venv/bin/python benchmarks/scored_files.py --parts --quick

Files (CSV, a gold column ``neg``/``pos`` with 30% positive, and a probability score): binary scores rounded to 3
decimals at 10⁶, 10⁷ and 10⁸ rows, and all-distinct scores at 10⁷ rows (also with ``--score-bins 1000``). Each
contender runs in a fresh child process, which reports its own peak resident memory (``ru_maxrss``) and wall time;
the files are written once to benchmarks/data (git-ignored) and reused.

``--parts`` (issue 40): the same binary scores (rounded to 3 decimals) as CSV, JSON Lines and Parquet at 10⁶ and 10⁷
rows, counted read whole (``read_scored``, then ``ScoreCounts.of_arrays``: how JSON Lines and Parquet were counted
before) against part by part (``count_scored``: chunks of lines, batches of Parquet rows), each in a fresh child
process (wall time, peak resident memory, the counts checked equal); and ``compare --scores`` of 3 systems of one CSV
file (``--test delong``) read once (the command) against read once per system (``read_scored`` per system, then
``clfeval.compare`` of the arrays: what the command did before), their pairs checked equal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
OUT = HERE / "scored_files.md"
PYTHON = sys.executable

CLFEVAL = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run([sys.executable, "-m", "clfeval", "score", sys.argv[1], "--scores", "score", "--gold-col",
                       "gold", "--positive", "pos", "--format", "json", *sys.argv[2:]], capture_output=True, text=True)
wall = time.perf_counter() - t
if done.returncode:
    raise SystemExit(done.stderr)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"auc": json.loads(done.stdout)["scores"]["auc"], "wall": wall, "peak_mib": peak}))
"""

SKLEARN = """
import json, resource, sys, time
t = time.perf_counter()
import polars as pl
from sklearn.metrics import roc_auc_score
frame = pl.read_csv(sys.argv[1])
auc = roc_auc_score((frame["gold"] == "pos").to_numpy(), frame["score"].to_numpy())
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"auc": float(auc), "wall": wall, "peak_mib": peak}))
"""


WHOLE = """
import json, resource, sys, time
t = time.perf_counter()
from clfeval.count.scored import ScoreCounts
from clfeval.inputs.scoredfile import read_scored
found = read_scored(sys.argv[1], "score", gold_col="gold")
counts = ScoreCounts.of_arrays(found.gold, found.scores, positive="pos")
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"rows": len(counts.count), "n": counts.n_instances, "sum": float(counts.scores.sum()), "wall": wall,
                  "peak_mib": peak}))
"""

PARTS = """
import json, resource, sys, time
t = time.perf_counter()
from clfeval.inputs.scoredfile import count_scored
counts, _ = count_scored(sys.argv[1], "score", gold_col="gold", positive="pos")
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"rows": len(counts.count), "n": counts.n_instances, "sum": float(counts.scores.sum()), "wall": wall,
                  "peak_mib": peak}))
"""

COMPARE_ONCE = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
done = subprocess.run([sys.executable, "-m", "clfeval", "compare", sys.argv[1], "--gold-col", "gold", "--scores",
                       "A=a", "--scores", "B=b", "--scores", "C=c", "--positive", "pos", "--test", "delong",
                       "--format", "json"], capture_output=True, text=True)
wall = time.perf_counter() - t
if done.returncode:
    raise SystemExit(done.stderr)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
pairs = [(p["a"], p["b"], p["difference"], p["p_value"]) for p in json.loads(done.stdout)["pairs"]]
print(json.dumps({"pairs": pairs, "wall": wall, "peak_mib": peak}))
"""

COMPARE_EACH = """
import json, resource, sys, time
t = time.perf_counter()
import clfeval
from clfeval.inputs.scoredfile import read_scored
systems = {}
for name in "ABC":
    found = read_scored(sys.argv[1], name.lower(), gold_col="gold")
    gold, systems[name] = found.gold, found.named()
result = clfeval.compare(gold, scores=systems, labels=["neg", "pos"], test="delong")
wall = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
pairs = [(p.a, p.b, p.difference, p.p_value) for p in result.pairs]
print(json.dumps({"pairs": pairs, "wall": wall, "peak_mib": peak}))
"""


def make_format(rows: int, fmt: str) -> Path:
    """The binary scores of :func:`make_file` (rounded) as ``fmt`` (csv, jsonl, parquet), written once."""
    path = DATA / f"scored-{rows}-r3.{fmt}"
    if not path.exists():
        frame = pl.read_csv(make_file(rows, True))
        if fmt == "jsonl":
            frame.write_ndjson(path)
        elif fmt == "parquet":
            frame.write_parquet(path)
    return path


def make_systems(rows: int) -> Path:
    """A CSV of ``rows`` instances scored by 3 systems (columns a, b, c; rounded to 3 decimals), written once."""
    path = DATA / f"scored-{rows}-3systems.csv"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    rng = np.random.default_rng(20261128)
    y = rng.random(rows) < 0.3
    columns = {k: np.round(1 / (1 + np.exp(-(rng.standard_normal(rows) + shift * y))), 3)
               for k, shift in (("a", 1.0), ("b", 1.1), ("c", 0.8))}  # fmt: skip
    pl.DataFrame({"gold": np.where(y, "pos", "neg"), **columns}).write_csv(path)
    return path


def parts(quick: bool) -> None:
    """The ``--parts`` tables (see the module): read whole against part by part, per format; compare read once."""
    sizes = [10**5, 10**6] if quick else [10**6, 10**7]
    # the files written by a child process: a child forked from a process that held a large frame would start its
    # peak resident memory (ru_maxrss) at that process's
    subprocess.run([PYTHON, __file__, "--make", *map(str, sizes)], check=True)
    lines = [
        "# Scored files part by part: time and peak memory, side by side",
        "",
        "Written by `benchmarks/scored_files.py --parts` (design in its docstring). Reproduce with "
        "`.venv/bin/python benchmarks/scored_files.py --parts`.",
        "",
        f"- {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores (shared), load average "
        f"{os.getloadavg()[0]:.1f} at the start; each contender a fresh child process, its own peak memory; the two "
        "contenders of a row run one after the other.",
        "",
        "| rows | format | read whole: wall s | peak MiB | part by part: wall s | peak MiB | counts |",
        "|---:|---|---:|---:|---:|---:|---|",
    ]
    for rows in sizes:
        for fmt in ("csv", "jsonl", "parquet"):
            path = make_format(rows, fmt)
            size = path.stat().st_size / 2**20
            whole, cut = run(WHOLE, str(path)), run(PARTS, str(path))
            same = all(whole[k] == cut[k] for k in ("rows", "n")) and abs(whole["sum"] - cut["sum"]) < 1e-6
            assert same, (whole, cut)
            cells = [f"{rows:,}", f"{fmt} ({size:,.0f} MiB)", f"{whole['wall']:.1f}", f"{whole['peak_mib']:,.0f}",
                     f"{cut['wall']:.1f}", f"{cut['peak_mib']:,.0f}", f"equal ({cut['rows']:,} distinct)"]  # fmt: skip
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    lines += [
        "",
        f"`compare --scores` of 3 systems (CSV, `--test delong`), load average {os.getloadavg()[0]:.1f}:",
        "",
        "| rows | read once per system + compare of arrays: wall s | peak MiB | compare --scores (read once): wall s "
        "| peak MiB | pairs |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for rows in sizes:
        path = make_systems(rows)
        each, once = run(COMPARE_EACH, str(path)), run(COMPARE_ONCE, str(path))
        for x, y in zip(each["pairs"], once["pairs"]):
            assert x[:2] == y[:2] and abs(x[2] - y[2]) < 1e-12 and abs(x[3] - y[3]) < 1e-9, (x, y)
        cells = [f"{rows:,}", f"{each['wall']:.1f}", f"{each['peak_mib']:,.0f}", f"{once['wall']:.1f}",
                 f"{once['peak_mib']:,.0f}", "equal"]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if not quick:
        (HERE / "scored_parts.md").write_text(text, encoding="utf-8")
    print(text)


def make_file(rows: int, rounded: bool) -> Path:
    """A CSV of ``rows`` scored predictions (see the module), written once."""
    path = DATA / f"scored-{rows}-{'r3' if rounded else 'distinct'}.csv"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    rng = np.random.default_rng(20261126)
    step = 10_000_000
    with open(path, "wb") as handle:
        for start in range(0, rows, step):
            n = min(step, rows - start)
            y = rng.random(n) < 0.3
            s = 1 / (1 + np.exp(-(rng.standard_normal(n) + y)))
            frame = pl.DataFrame({"gold": np.where(y, "pos", "neg"), "score": np.round(s, 3) if rounded else s})
            frame.write_csv(handle, include_header=start == 0)
    return path


def run(code: str, *args: str) -> dict:
    done = subprocess.run([PYTHON, "-c", code, *args], capture_output=True, text=True, cwd=HERE.parent)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--parts", action="store_true", help="files read whole against part by part; compare read once")
    ap.add_argument("--make", nargs="+", type=int, help=argparse.SUPPRESS)  # the --parts files of these sizes
    args = ap.parse_args()
    if args.make:
        for rows in args.make:
            make_systems(rows)
            for fmt in ("csv", "jsonl", "parquet"):
                make_format(rows, fmt)
        return
    if args.parts:
        parts(args.quick)
        return
    cases = (
        [(10**5, True), (10**6, True), (10**6, False)]
        if args.quick
        else [(10**6, True), (10**7, True), (10**8, True), (10**7, False)]
    )
    lines = [
        "# Files of scored predictions: time and peak memory, side by side",
        "",
        "Written by `benchmarks/scored_files.py` (design in its docstring). Reproduce with "
        "`.venv/bin/python benchmarks/scored_files.py`.",
        "",
        f"- {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores (shared), load average "
        f"{os.getloadavg()[0]:.1f}; peak memory is each child process's own (clfeval: the CLI process).",
        "",
        "| rows | scores | contender | wall s | peak MiB | AUC |",
        "|---:|---|---|---:|---:|---|",
    ]
    for rows, rounded in cases:
        path = make_file(rows, rounded)
        size = path.stat().st_size / 2**20
        kind = "rounded to 3 decimals" if rounded else "all distinct"
        contenders = [("clfeval score (chunks)", CLFEVAL, [])]
        if not rounded:
            contenders.append(("clfeval score --score-bins 1000", CLFEVAL, ["--score-bins", "1000"]))
        contenders.append(("polars.read_csv + roc_auc_score", SKLEARN, []))
        found = {name: run(code, str(path), *extra) for name, code, extra in contenders}
        reference = found["polars.read_csv + roc_auc_score"]["auc"]
        for name, got in found.items():
            if "score-bins" in name:
                check = f"{got['auc']:.6f} (binned)"
            else:
                assert abs(got["auc"] - reference) < 1e-9, (name, got["auc"], reference)
                check = f"{got['auc']:.9f} (equal)"
            cells = [f"{rows:,} ({size:,.0f} MiB)", kind, name, f"{got['wall']:.1f}", f"{got['peak_mib']:,.0f}", check]
            lines.append("| " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if not args.quick:
        OUT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
