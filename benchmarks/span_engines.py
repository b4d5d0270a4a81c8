"""clfeval span engine benchmark: spans of a CoNLL corpus in part files, counted on a local Dask cluster against this
machine's reader, the same files.

    python benchmarks/span_engines.py            # 10^6 sentences in 8 parts (spans.py's file, cut at sentence ends)
    python benchmarks/span_engines.py --quick    # 10^5 sentences: a check

Prints Markdown tables and writes the same text to ``benchmarks/span_engines.md``.

Data: spans.py's seeded ``word POS gold pred`` CoNLL file (IOB2 tags, a tagger's errors, a -DOCSTART- document every
25,000 sentences), cut into 8 part files of about equal size at sentence ends (``benchmarks/data/``, reused), read
once before timing so every contender reads from the page cache.

What is timed (wall clock, ``time.perf_counter``):

1. Python API, round-robin, median of 3: ``clfeval.score(clfeval.read(parts, spans=True))`` on this machine (the
   parts read one after the other), against ``reading=Reading(engine="dask", scheduler=client)`` on an already
   running ``distributed.LocalCluster(n_workers=2, threads_per_worker=1)`` (one untimed warm-up call first), and
   against ``scheduler=None`` (a local cluster started and closed by every call, as the command line does).
2. The command line end to end, once each, in a child process: ``clfeval score PARTS --parts --spans --format
   json`` with and without ``--engine dask``.

Checks: every result's JSON (scores, span tables, units) equals this machine's, but the engine named in its options;
the API's also equals the whole file read as one (but the file names). A failure stops the run.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from common import CLFEVAL, DATA, log, md_table, ratio_text, write_results
from spans import conll_file

RESULTS = Path(__file__).resolve().parent / "span_engines.md"
PARTS = 8
REPEATS = 3


def parts_of(path: Path, n_parts: int) -> list[Path]:
    """``path`` cut into ``n_parts`` files of about equal size at sentence ends (blank lines), reused when present."""
    out = [DATA / f"{path.stem}-part{k}of{n_parts}.conll" for k in range(n_parts)]
    if all(p.exists() for p in out):
        return out
    data = path.read_bytes()
    cuts = [0]
    for k in range(1, n_parts):
        at = data.find(b"\n\n", len(data) * k // n_parts)
        cuts.append(at + 2)
    cuts.append(len(data))
    for p, a, b in zip(out, cuts, cuts[1:]):
        p.write_bytes(data[a:b])
    return out


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    """A score's JSON without what names the files and the engine (the rest must be equal)."""
    doc = json.loads(json.dumps(doc))
    doc.get("options", {}).pop("engine", None)
    for key in ("inputs", "warnings", "command"):
        doc.pop(key, None)
    doc.get("spans", {}).pop("invalid_transitions", None)  # their places name the files
    return doc


def timed(call: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    import distributed

    import clfeval
    from clfeval.inputs.options import Reading

    n = 10**5 if args.quick else 10**6
    whole = conll_file(n)
    parts = [str(p) for p in parts_of(whole, PARTS)]
    for p in parts:
        Path(p).read_bytes()  # into the page cache
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
            silence_logs=logging.CRITICAL,
        )  # fmt: skip
    client = distributed.Client(cluster, set_as_default=False)
    calls = {
        "this machine": lambda: clfeval.score(clfeval.read(parts, spans=True)),
        "dask, running 2-worker cluster": lambda: clfeval.score(
            clfeval.read(parts, spans=True, reading=Reading(engine="dask", scheduler=client))
        ),
        "dask, own cluster per call": lambda: clfeval.score(
            clfeval.read(parts, spans=True, reading=Reading(engine="dask"))
        ),
    }
    log("checking")
    one = comparable(clfeval.score(clfeval.read(str(whole), spans=True)).to_dict())
    reference = None
    for name, call in calls.items():  # untimed: warm-up, and the check
        got = comparable(call().to_dict())
        reference = reference or got
        if got != reference or got != one:
            raise SystemExit(f"{name}: its result differs from this machine's")
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(REPEATS):
        for name, call in calls.items():
            times[name].append(timed(call)[0])
            log(f"{name}: {times[name][-1]:.2f} s")
    client.close()
    cluster.close()
    cli: dict[str, float] = {}
    outputs = {}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    for name, extra in (("this machine", []), ("dask, own cluster", ["--engine", "dask"])):
        command = [CLFEVAL, "score", *parts, "--parts", "--spans", "--format", "json", *extra]
        seconds, done = timed(lambda c=command: subprocess.run(c, capture_output=True, text=True, env=env))
        if done.returncode:
            raise SystemExit(f"{' '.join(command)}: {done.stderr}")
        cli[name], outputs[name] = seconds, comparable(json.loads(done.stdout))
        log(f"CLI {name}: {seconds:.2f} s")
    if len({json.dumps(o, sort_keys=True) for o in outputs.values()}) != 1:
        raise SystemExit("the command line's results differ between the engines")
    base = statistics.median(times["this machine"])
    medians = {name: statistics.median(t) for name, t in times.items()}
    rows = [[name, f"{t:.2f} s", ratio_text(t / base)] for name, t in medians.items()]
    rows += [[f"CLI end to end, {name}", f"{s:.2f} s", ratio_text(s / cli["this machine"])] for name, s in cli.items()]
    header = [
        "# Spans: Dask against this machine",
        "",
        f"`python benchmarks/span_engines.py{' --quick' if args.quick else ''}`; {n:,} sentences of spans.py's "
        f"CoNLL file in {PARTS} parts; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end; median of "
        f"{REPEATS} (the CLI once). Every result equal to this machine's (and the API's to the whole file read as "
        "one), but the engine named.",
        "",
    ]
    table = md_table(["what", "time", "× this machine"], rows, {1, 2})
    write_results(header, table, [f"Python {sys.version.split()[0]}, distributed {distributed.__version__}"],
                  started, str(RESULTS), log)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
