"""Files of scored predictions: wall time and peak memory of ``clfeval score FILE --scores`` (counted chunk by chunk)
against what users would otherwise run (polars.read_csv of the whole file, then scikit-learn's roc_auc_score), side
by side, each contender checked to give the same AUC first.

    .venv/bin/python benchmarks/scored_files.py            # writes benchmarks/scored_files.md
    .venv/bin/python benchmarks/scored_files.py --quick    # 10^5 and 10^6 rows: a smoke test, prints only

Files (CSV, a gold column ``neg``/``pos`` with 30% positive, and a probability score): binary scores rounded to 3
decimals at 10⁶, 10⁷ and 10⁸ rows, and all-distinct scores at 10⁷ rows (also with ``--score-bins 1000``). Each
contender runs in a fresh child process, which reports its own peak resident memory (``ru_maxrss``) and wall time;
the files are written once to benchmarks/data (git-ignored) and reused.
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
    args = ap.parse_args()
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
