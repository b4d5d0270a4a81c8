"""A/B of this working tree against an earlier revision, on the same machine, alternating: is a change slower?

    .venv/bin/python benchmarks/ab.py b4bc7f0                     # 3 rounds, every figure
    .venv/bin/python benchmarks/ab.py b4bc7f0 --rounds 5
    .venv/bin/python benchmarks/ab.py b4bc7f0 --only ar,ar-blocks   # a subset of the figures, by name

When a machine's speed moves between benchmark runs (every contender, references included), ratios against
earlier runs mislead; this runs both versions of clfeval in turn, in fresh processes, on the same data. The
earlier revision's ``src/`` is taken with ``git archive`` into a temporary directory and put first on
``PYTHONPATH`` (each version's children use only public names, ``clfeval.score``, ``clfeval.compare``,
``clfeval.Test`` and ``clfeval.cli.main``, so that module moves between the versions do not matter). Every child
runs with one BLAS/OpenMP thread. Measured per round and version, by name (``--only``):

- ``score-ints``, ``score-strings``: ``clfeval.score`` on numpy int arrays and on Python lists of strings
  (N = 10⁶, 20 classes, ~70% correct), median of 9 calls after one warm-up, wall time in the child (one child
  for both);
- ``cli``: the CLI, ``clfeval score FILE --format json -o /dev/null`` on the 10⁷-line TSV of ``run.py``
  (benchmarks/data/labels-10000000.tsv, generated there with run.py's own generator if missing), CPU time
  (user + system) of the child;
- ``cli-delta``: the CLI with delta-method intervals, ``clfeval score FILE --ci delta --format json -o
  /dev/null``, on labels.py's 3·10⁶-line file over 10⁴ labels (benchmarks/data/labels-K10000-N3000000.tsv,
  generated there with labels.py's seeded generator if missing: Zipf-like gold labels, the prediction the gold
  label with probability 0.6, else a fresh draw), CPU time (user + system) of the child;
- ``ar``, ``ar-blocks``: approximate randomization with 10⁴ rounds, ``clfeval.compare(gold, {"A": a, "B": b},
  metrics=["macro.f1", "accuracy"], test=clfeval.Test("ar", rounds=10_000, seed=1))`` on N = 10⁶ numpy int
  labels over 20 classes, without and with ``blocks=`` (sentence ids, sentences of 10–30 tokens, 20 on
  average), median of 3 calls after one warm-up, wall time in the child (one child for both). A and B share a
  prediction (~70% correct) except on 30% of the instances, where one of them (each on 15%) has another,
  seeded redraw; so the two are about as accurate and there are far too many swap patterns to enumerate (the
  child checks that the p-values are Monte Carlo estimates, not exact).

Prints a table: for each figure, each version's range over the rounds and the ratio of the medians over the
rounds (this tree / the revision; below 1 means this tree is faster). A figure whose child fails (say, a tree
that is mid-refactor and does not import) is reported as failed, with the last line of the child's error, and
the other figures still run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import md_table
from labels import labels_file
from run import tsv_file

ROOT = Path(__file__).resolve().parents[1]
CLI_LINES = 10**7  # lines of run.py's TSV for ``cli``
DELTA_LABELS, DELTA_LINES = 10**4, 3 * 10**6  # labels.py's file for ``cli-delta``

# Times clfeval.score; prints {name: seconds} (JSON) for the figures named in its arguments.
_SCORE = r"""
import json, sys, time, numpy as np
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
calls = {"score-ints": lambda: clfeval.score(gold, pred), "score-strings": lambda: clfeval.score(gs, ps)}
print(json.dumps({name: median(calls[name]) for name in sys.argv[1:]}))
"""

# Times clfeval.compare's approximate randomization; prints {name: seconds} (JSON) for the figures named.
_COMPARE = r"""
import json, sys, time, numpy as np
import clfeval
rng = np.random.default_rng(1)
n, k = 1_000_000, 20
gold = rng.integers(0, k, n)
base = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
def redrawn(where):
    # base, but where `where` another prediction: the gold label with probability 0.7, never base's label
    new = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    same = new == base
    new[same] = (base[same] + rng.integers(1, k, int(same.sum()))) % k
    return np.where(where, new, base)
u = rng.random(n)
a, b = redrawn(u < 0.15), redrawn(u >= 0.85)  # they differ on exactly 30% of the instances
lengths = rng.integers(10, 31, n // 10)  # sentences of 10-30 tokens, 20 on average
sentences = np.repeat(np.arange(lengths.size), lengths)[:n]
metrics = ["macro.f1", "accuracy"]
test = clfeval.Test("ar", rounds=10_000, seed=1)
def call(blocks):
    return clfeval.compare(gold, {"A": a, "B": b}, metrics=metrics, test=test, blocks=blocks)
def median(blocks):
    warm = call(blocks)
    if any(warm.pair("A", "B", m).exact for m in metrics):
        sys.exit("the randomization enumerated every swap pattern: not the sampled test this figure measures")
    ts = []
    for _ in range(3):
        t = time.perf_counter(); call(blocks); ts.append(time.perf_counter() - t)
    return float(np.median(ts))
given = {"ar": None, "ar-blocks": sentences}
print(json.dumps({name: median(given[name]) for name in sys.argv[1:]}))
"""

_CLI = "import sys; from clfeval.cli import main; sys.exit(main(sys.argv[1:]))"


@dataclass(frozen=True)
class Figure:
    """One measured figure: in-process (timed by ``script``) or the CLI (``cli`` on the file ``data`` makes)."""

    title: str  # its row in the table
    unit: str  # "ms" or "s"
    digits: int  # decimals shown
    script: str = ""  # in-process: the child script that times it (given the figure's name)
    cli: tuple[str, ...] = ()  # CLI: the arguments after the file
    data: Callable[[], Path] | None = None  # CLI: the file, generated when missing


def _cli_data() -> Path:
    print(f"data: {CLI_LINES:,}-line TSV (run.py's, generated if missing)", file=sys.stderr, flush=True)
    return tsv_file(CLI_LINES)


def _delta_data() -> Path:
    print(f"data: {DELTA_LINES:,} lines over {DELTA_LABELS:,} labels (labels.py's, generated if missing)",
          file=sys.stderr, flush=True)  # fmt: skip
    return labels_file(DELTA_LABELS, DELTA_LINES)


FIGURES: dict[str, Figure] = {
    "score-ints": Figure("clfeval.score, numpy ints, N=10^6 (ms wall, median of 9)", "ms", 1, script=_SCORE),
    "score-strings": Figure("clfeval.score, lists of str, N=10^6 (ms wall, median of 9)", "ms", 0, script=_SCORE),
    "cli": Figure("CLI score --format json, 10^7 lines (s CPU)", "s", 2, cli=("--format", "json"), data=_cli_data),
    "cli-delta": Figure("CLI score --ci delta, 3·10^6 lines, 10^4 labels (s CPU)", "s", 2,
                        cli=("--ci", "delta", "--format", "json"), data=_delta_data),
    "ar": Figure("compare ar 10^4 rounds, N=10^6 (s wall, median of 3)", "s", 2, script=_COMPARE),
    "ar-blocks": Figure("compare ar 10^4 rounds, blocks, N=10^6 (s wall, median of 3)", "s", 2, script=_COMPARE),
}


class ChildFailed(Exception):
    """A child exited with an error; the message is the last line it wrote to standard error."""


def _check(done: subprocess.CompletedProcess[str]) -> None:
    """ChildFailed when the child failed."""
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise ChildFailed(lines[-1].strip()[:200] if lines else f"exit status {done.returncode}")


def _run(cmd: list[str], env: dict[str, str]) -> str:
    """A child's standard output; ChildFailed when it fails."""
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    _check(done)
    return done.stdout


def _child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process (its output dropped)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    _check(done)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _one_round(names: list[str], files: dict[str, Path], env: dict[str, str]) -> dict[str, float | str]:
    """Each named figure of one version: seconds, or why it failed."""
    out: dict[str, float | str] = {}
    for script in dict.fromkeys(FIGURES[name].script for name in names if FIGURES[name].script):
        wanted = [name for name in names if FIGURES[name].script == script]
        try:
            out.update(json.loads(_run([sys.executable, "-c", script, *wanted], env)))
        except ChildFailed as failed:
            out.update(dict.fromkeys(wanted, str(failed)))
    for name in names:
        if name in files:
            cmd = [sys.executable, "-c", _CLI, "score", str(files[name]), *FIGURES[name].cli, "-o", os.devnull]
            try:
                out[name] = _child_cpu(cmd, env)
            except ChildFailed as failed:
                out[name] = str(failed)
    return out


def _cell(seconds: list[float], figure: Figure, failed: str | None) -> str:
    """A version's range over the rounds (one value after one round), or why it failed."""
    if not seconds:
        return f"failed: {failed}"
    scale = 1000 if figure.unit == "ms" else 1
    lo, hi = f"{scale * min(seconds):.{figure.digits}f}", f"{scale * max(seconds):.{figure.digits}f}"
    text = lo if lo == hi else f"{lo}–{hi}"
    return text + (f" ({len(seconds)} rounds; failed: {failed})" if failed else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revision", help="the earlier revision (a commit, tag or branch)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", metavar="NAME[,NAME]", help=f"measure these figures only: {', '.join(FIGURES)}")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    asked = list(FIGURES) if args.only is None else [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in asked if name not in FIGURES]
    if unknown or not asked:
        ap.error(f"--only takes figures among {', '.join(FIGURES)}; not {', '.join(unknown) or 'nothing'}")
    names = [name for name in FIGURES if name in asked]  # in the table's order
    files = {name: data() for name in names if (data := FIGURES[name].data) is not None}

    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.revision, "src"], check=True,
                                 capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        versions = {args.revision: str(Path(tmp) / "src"), "this tree": str(ROOT / "src")}
        envs = {version: {**os.environ, "PYTHONPATH": src, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
                for version, src in versions.items()}  # fmt: skip
        for version, env in envs.items():  # which clfeval each version's children import
            try:
                where = _run([sys.executable, "-c", "import clfeval; print(clfeval.__file__)"], env).strip()
            except ChildFailed as failed:
                where = f"does not import: {failed}"
            print(f"{version}: {where}", file=sys.stderr, flush=True)
        seconds: dict[str, dict[str, list[float]]] = {v: {name: [] for name in names} for v in versions}
        failures: dict[str, dict[str, str]] = {v: {} for v in versions}
        started = time.perf_counter()
        for number in range(1, args.rounds + 1):
            for version, env in envs.items():
                t0 = time.perf_counter()
                for name, value in _one_round(names, files, env).items():
                    if isinstance(value, str):
                        failures[version][name] = value
                    else:
                        seconds[version][name].append(value)
                print(f"round {number}/{args.rounds}, {version}: {time.perf_counter() - t0:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
        per_round = (time.perf_counter() - started) / args.rounds

    old, new = versions
    print(f"A/B over {args.rounds} alternating round(s), {per_round:.0f} s a round (both versions): each version's "
          f"range over the rounds; ratio = median this tree / median {old} (below 1: faster)\n")  # fmt: skip
    body = []
    for name in names:
        figure = FIGURES[name]
        before, after = seconds[old][name], seconds[new][name]
        ratio = f"{statistics.median(after) / statistics.median(before):.2f}×" if before and after else "–"
        body.append([name, figure.title, _cell(before, figure, failures[old].get(name)),
                     _cell(after, figure, failures[new].get(name)), ratio])  # fmt: skip
    print("\n".join(md_table(["name", "figure", old, new, "ratio"], body, right={2, 3, 4})))
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
