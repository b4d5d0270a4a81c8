"""A/B of this working tree against an earlier revision, on the same machine, alternating: is a change slower?

    .venv/bin/python benchmarks/ab.py b4bc7f0            # 3 rounds
    .venv/bin/python benchmarks/ab.py b4bc7f0 --rounds 5

When a machine's speed moves between benchmark runs (every contender, references included), ratios against
earlier runs mislead; this runs both versions of clfeval in turn, in fresh processes, on the same data. The
earlier revision's ``src/`` is taken with ``git archive`` into a temporary directory and put first on
``PYTHONPATH``. Measured per round and version:

- ``clfeval.score`` on numpy int arrays and on Python lists of strings (N = 10⁶, 20 classes, ~70% correct),
  median of 9 calls after one warm-up, wall time in the child;
- the CLI, ``clfeval score FILE --format json -o /dev/null`` on the 10⁷-line TSV of ``run.py``
  (benchmarks/data/, made by ``run.py`` if missing), CPU time (user + system) of the child, one BLAS thread.

Prints the range over rounds of each figure for each version.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "labels-10000000.tsv"

_IN_PROCESS = r"""
import sys, time, numpy as np
import clfeval
rng = np.random.default_rng(0)
n = 1_000_000
gold = rng.integers(0, 20, n); pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, 20, n))
gs = [f"label{x:02d}" for x in gold]; ps = [f"label{x:02d}" for x in pred]
def median(f):
    f(); ts = []
    for _ in range(9):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return float(np.median(ts))
print(median(lambda: clfeval.score(gold, pred)), median(lambda: clfeval.score(gs, ps)))
"""

_CLI = "import sys; from clfeval.cli import main; sys.exit(main(sys.argv[1:]))"


def _child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revision", help="the earlier revision (a commit, tag or branch)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not DATA.exists():
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.revision, "src"], check=True,
                                 capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        versions = {args.revision: str(Path(tmp) / "src"), "this tree": str(ROOT / "src")}
        figures: dict[str, list[tuple[float, float, float]]] = {v: [] for v in versions}
        for _ in range(args.rounds):
            for name, src in versions.items():
                env = {**os.environ, "PYTHONPATH": src, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
                out = subprocess.run([sys.executable, "-c", _IN_PROCESS], env=env, check=True, capture_output=True,
                                     text=True).stdout.split()  # fmt: skip
                cli = _child_cpu([sys.executable, "-c", _CLI, "score", str(DATA), "--format", "json", "-o",
                                  os.devnull], env)  # fmt: skip
                figures[name].append((float(out[0]), float(out[1]), cli))
    print(f"A/B over {args.rounds} alternating rounds (ranges over rounds)")
    for name, rows in figures.items():
        ints, strings, cli = zip(*rows)
        print(f"  {name:>12}: score ints {1000 * min(ints):.1f}–{1000 * max(ints):.1f} ms, strings "
              f"{1000 * min(strings):.0f}–{1000 * max(strings):.0f} ms, CLI on 10^7 lines {min(cli):.2f}–"
              f"{max(cli):.2f} s CPU")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
