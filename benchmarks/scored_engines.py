"""Scored predictions on Dask against one machine, the same parts: ``--engine dask`` with ``--scores``.

    python benchmarks/scored_engines.py            # N = 10^7 rows (about 10 minutes on 2 cores; data reused)
    python benchmarks/scored_engines.py --quick    # N = 10^6 rows: a fast check

Prints Markdown and writes it to ``benchmarks/scored_engines.md``.

Data: N rows of a gold class (``ant``/``bee``/``cat``, 50/30/20 %), a binary score (``score``, of ``y`` = ant or
not, 3 decimals) and three class probabilities (``p_ant``, ``p_bee``, ``p_cat``, 2 decimals, summing to 1), seeded,
written once to ``benchmarks/data/scored-engines-N/`` (git-ignored, reused) as 16 Parquet parts, 16 CSV parts and one
whole CSV file, each read once before timing (page cache).

What is timed (wall clock, ``time.perf_counter``), round-robin, median of 3:

1. In this process: the parts counted one after another by the single-machine counter each Dask task runs
   (:meth:`clfeval.inputs.scoredcluster.Counting.file`, merged and finished here: "one machine, part by part"),
   against :func:`clfeval.inputs.scoredcluster.count_paths` on an already running ``LocalCluster`` of 2 worker
   processes × 1 thread (one untimed warm-up call first): binary scores (``--scores score``) and three classes
   (``--scores 'p_*'``), Parquet and CSV parts.
2. The command line end to end, in a child process: ``clfeval score whole.csv --scores 'p_*' --gold-col gold
   --format json`` (one machine, the whole file) against ``clfeval score 'part-*.parquet' … --engine dask`` (a
   local cluster of its own started and stopped in the run: the fixed cost of Dask included).

Checks: every contender's counts are the same distinct rows with the same counts (``gold``, ``scores``, ``count``
arrays equal), and the CLI's JSON equal but for ``inputs.file`` and ``inputs.engine``; a failure stops the run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, md_table, pkg_version, ratio_text, start, write_report

HERE = Path(__file__).resolve().parent
OUT = HERE / "scored_engines.md"
PARTS = 16
SEED = 20261128


def make_data(n: int) -> Path:
    """The seeded rows as 16 Parquet parts, 16 CSV parts and one whole CSV (written once, reused)."""
    root = HERE / "data" / f"scored-engines-{n}"
    done = root / "done"
    if done.exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    gold = rng.choice(np.array(["ant", "bee", "cat"]), n, p=[0.5, 0.3, 0.2])
    a = np.round(rng.random(n) * 0.6, 2)
    b = np.round((1 - a) * rng.random(n), 2)
    frame = pl.DataFrame(
        {
            "gold": gold,
            "y": np.where(gold == "ant", "no", "yes"),
            "score": np.round(np.clip(rng.normal(np.where(gold == "ant", 0.4, 0.6), 0.2), 0, 1), 3),
            "p_ant": a,
            "p_bee": b,
            "p_cat": np.round(1 - a - b, 2),
        }
    )
    frame.write_csv(root / "whole.csv")
    for i, idx in enumerate(np.array_split(np.arange(n), PARTS)):
        frame[idx].write_parquet(root / f"part-{i:02d}.parquet")
        frame[idx].write_csv(root / f"part-{i:02d}.csv")
    done.write_text("")
    return root


def warm(root: Path) -> None:
    for path in root.iterdir():
        path.read_bytes()


def counter(spec: str, gold: str) -> Any:
    from clfeval.inputs.scoredcluster import Counting
    from clfeval.inputs.scoredparts import ScoredReading

    return Counting(ScoredReading(specs=(spec,), gold_col=gold))


def one_machine(files: list[str], count: Any) -> Any:
    """The parts one after another in this process, by the counter each Dask task runs."""
    merged = count.merge([count.file(f, f) for f in files])
    return count.finish(merged, ", ".join(files))[0]


def on_dask(pattern: str, count: Any, client: Any) -> Any:
    from clfeval.inputs.scoredcluster import count_paths

    return count_paths([pattern], count, client)[0]


def same_counts(a: Any, b: Any, what: str) -> None:
    if not (
        a.labels == b.labels
        and a.columns == b.columns
        and np.array_equal(a.gold, b.gold)
        and np.array_equal(a.scores, b.scores)
        and np.array_equal(a.count, b.count)
    ):
        raise SystemExit(f"{what}: the counts differ")


def main() -> None:
    import distributed

    session = start(__doc__ or "", OUT)
    n = 10**6 if session.args.quick else 10**7
    root = make_data(n)
    warm(root)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
        )
    client = distributed.Client(cluster, set_as_default=False)
    rows: list[list[str]] = []
    checks: list[str] = []
    try:
        for spec, gold, shape in (("score", "y", "binary"), ("p_*", "gold", "3 classes")):
            count = counter(spec, gold)
            for ext in ("parquet", "csv"):
                files = sorted(str(p) for p in root.glob(f"part-*.{ext}"))
                pattern = str(root / f"part-*.{ext}")
                reference = one_machine(files, count)
                same_counts(on_dask(pattern, count, client), reference, f"{shape} {ext}")  # and the warm-up call
                times: dict[str, list[float]] = {"one": [], "dask": []}
                for _ in range(3):
                    for name in ("one", "dask"):
                        t = time.perf_counter()
                        got = one_machine(files, count) if name == "one" else on_dask(pattern, count, client)
                        same_counts(got, reference, f"{shape} {ext} {name}")
                        times[name].append(time.perf_counter() - t)
                one, dask_time = statistics.median(times["one"]), statistics.median(times["dask"])
                rows.append([shape, ext, f"{reference.n_instances:,}", f"{len(reference.count):,}",
                             f"{one:.2f}", f"{dask_time:.2f}", ratio_text(one / dask_time)])  # fmt: skip
                print(rows[-1], file=sys.stderr)
        checks.append("every Dask count equal to one machine's (gold, scores and count arrays), each shape and format")
    finally:
        client.close()
        cluster.close()
    cli_rows, cli_outputs = [], {}
    base = ["--scores", "p_*", "--gold-col", "gold", "--format", "json"]
    contenders = (
        ("one machine, whole.csv", ["score", str(root / "whole.csv"), *base]),
        ("--engine dask, 16 Parquet parts", ["score", str(root / "part-*.parquet"), *base, "--engine", "dask"]),
    )
    times2: dict[str, list[float]] = {name: [] for name, _ in contenders}
    for _ in range(3):
        for name, argv in contenders:
            t = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "clfeval", *argv], capture_output=True, text=True, cwd=ROOT)
            times2[name].append(time.perf_counter() - t)
            if done.returncode:
                raise SystemExit(done.stderr)
            cli_outputs[name] = json.loads(done.stdout)
    a, b = cli_outputs.values()
    for doc in (a, b):
        doc["inputs"].pop("file")
        doc["inputs"].pop("engine", None)
    if a != b:
        raise SystemExit("the CLI's JSON differs between one machine and --engine dask")
    checks.append("the CLI's JSON equal between one machine and --engine dask (but inputs.file, inputs.engine)")
    for name, _ in contenders:
        cli_rows.append([name, f"{statistics.median(times2[name]):.2f}"])
    table = md_table(
        ["scores", "parts", "rows", "distinct rows", "one machine, part by part (s)", "Dask, 2 workers (s)",
         "one machine / Dask"],
        rows,
        {2, 3, 4, 5, 6},
    )  # fmt: skip
    cli_table = md_table(["clfeval score --scores 'p_*' (child process, end to end)", "wall (s)"], cli_rows, {1})
    write_report(
        session,
        "Scored predictions on Dask against one machine",
        "scored_engines.py",
        ["polars", "dask", "distributed"],
        f"Data: {n:,} rows, {PARTS} parts (see the script's docstring).",
        ["### Counting the same parts, in this process", "", *table, "",
         "Median of 3 round-robin runs; the Dask cluster already running (2 worker processes × 1 thread).", "",
         "### The command line", "", *cli_table, "",
         "Median of 3; --engine dask starts and stops its own local cluster in the run.", ""],
        checks,
    )  # fmt: skip
    print(f"dask {pkg_version('dask')}", file=sys.stderr)


if __name__ == "__main__":
    main()
