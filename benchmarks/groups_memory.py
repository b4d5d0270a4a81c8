"""Scores by group on a file too large to hold: peak memory and time of ``clfeval score FILE --group-col g``.

    python benchmarks/groups_memory.py            # 2·10^6 and 2·10^7 rows (about 2 minutes on 2 cores)
    python benchmarks/groups_memory.py --quick    # 2·10^5 and 2·10^6 rows: a fast check

pandas and fairlearn run at the smaller size only: at 2·10^6 rows they already hold about 1.8 GiB, and the memory
grows with the rows (about ten times as much at 2·10^7), so the larger file is the one clfeval reads alone.

Prints a Markdown table and writes the same text to ``benchmarks/groups_memory.md``.

Contenders, each its own child process (peak RSS from ``os.wait4``'s rusage of that one child, through the launcher
of ``common.py``; start-up and imports included):

* ``clfeval score FILE --gold-col 1 --pred-col 2 --group-col 3 --group-test none --format json``: the engine counts
  the distinct (gold, predicted, group) rows a chunk at a time, then scores every group (and the gaps) from them;
* the same with the default test between groups (10,000 permutations of the group membership);
* pandas ``read_csv`` of the whole file, then fairlearn's ``MetricFrame`` (accuracy and macro F1 by group, their
  ``difference()``): the way it is done when the data fit in memory.

Data: a seeded tab-separated file without a header, lines ``lX<TAB>lY<TAB>gZ`` (5 labels, 10 groups of unequal
sizes, ~70% correct, some groups worse than others), written a block of 10^6 rows at a time into
``benchmarks/data/`` (generated once, reused when present). Checks: clfeval's JSON must give the number of rows
generated and each group's size, and its per-group accuracy and macro F1 must equal fairlearn's (relative 1e-12),
so a broken reader cannot produce a nice memory number.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from common import (
    DATA,
    MIB,
    ChildRow,
    commands_section,
    log,
    md_table,
    measure,
    seeded_file,
    start,
    timing_section,
    write_report,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "groups_memory.md"
SEED = 20261128
K, G = 5, 10
LINE = 9  # bytes: "lX\tlY\tgZ\n"
SIZES = (0.22, 0.18, 0.14, 0.11, 0.09, 0.08, 0.06, 0.05, 0.04, 0.03)  # the groups' shares
RIGHT = (0.80, 0.78, 0.75, 0.72, 0.70, 0.68, 0.65, 0.62, 0.60, 0.50)  # each group's share of right predictions


def block(number: int, rows: int) -> np.ndarray:
    """One seeded block of lines as a (rows, LINE) uint8 array."""
    rng = np.random.default_rng([SEED, number])
    group = rng.choice(G, rows, p=SIZES)
    gold = rng.integers(0, K, rows)
    right = rng.random(rows) < np.asarray(RIGHT)[group]
    pred = np.where(right, gold, (gold + rng.integers(1, K, rows)) % K)
    out = np.empty((rows, LINE), dtype=np.uint8)
    out[:, [0, 3]] = ord("l")
    out[:, 6] = ord("g")
    out[:, 1], out[:, 4], out[:, 7] = 48 + gold, 48 + pred, 48 + group
    out[:, [2, 5]] = ord("\t")
    out[:, 8] = ord("\n")
    return out


def group_sizes(n: int) -> dict[str, int]:
    """Each group's number of rows in the n-row file, drawn again from the blocks' seeds."""
    sizes = np.zeros(G, dtype=np.int64)
    for number, first in enumerate(range(0, n, 10**6)):
        rng = np.random.default_rng([SEED, number])
        sizes += np.bincount(rng.choice(G, min(10**6, n - first), p=SIZES), minlength=G)
    return {f"g{i}": int(s) for i, s in enumerate(sizes)}


def data_file(n: int) -> Path:
    return seeded_file(DATA / f"groups-{n}.tsv", LINE, n, block, log)


FAIRLEARN = """
import json, sys
from functools import partial
import pandas as pd
from fairlearn.metrics import MetricFrame
from sklearn.metrics import accuracy_score, f1_score
frame = pd.read_csv(sys.argv[1], sep="\\t", header=None, names=["gold", "pred", "g"], dtype=str)
mf = MetricFrame(metrics={"accuracy": accuracy_score, "macro_f1": partial(f1_score, average="macro")},
                 y_true=frame["gold"], y_pred=frame["pred"], sensitive_features=frame["g"])
by = mf.by_group
out = {"n": len(frame), "by_group": {g: {"accuracy": float(by.loc[g, "accuracy"]),
       "macro_f1": float(by.loc[g, "macro_f1"])} for g in by.index}, "difference": mf.difference().to_dict()}
print(json.dumps(out))
"""


def clfeval_argv(path: Path, test: bool) -> list[str]:
    return [sys.executable, "-m", "clfeval", "score", str(path), "--gold-col", "1", "--pred-col", "2", "--group-col",
            "3", "--format", "json", "--no-progress", "--seed", "1",
            *([] if test else ["--group-test", "none"])]  # fmt: skip


def check(rows: list[ChildRow], n: int) -> list[str]:
    """clfeval's sizes and per-group accuracy and macro F1 against the generated data and fairlearn's."""
    found = {r.contender: json.loads(r.stdout.read_text()) for r in rows if r.n == n and r.stdout is not None}
    ours = found["clfeval, no test"]
    theirs = found["pandas read_csv + fairlearn MetricFrame"]
    assert ours["n_instances"] == theirs["n"] == n, (ours["n_instances"], theirs["n"], n)
    assert {g["name"]: g["n_instances"] for g in ours["groups"]} == group_sizes(n)
    worst = 0.0
    for group in ours["groups"]:
        name = group["name"]
        result = ours["by_group"][name]
        mine = {"accuracy": result["accuracy"], "macro_f1": result["averages"]["macro"]["f1"]}
        for metric, value in mine.items():
            other = theirs["by_group"][name][metric]
            worst = max(worst, abs(value - other) / max(abs(other), 1e-300))
    assert worst <= 1e-12, worst
    tested = found["clfeval, permutation test (10,000 rounds)"]
    assert tested["n_instances"] == n and tested["tests"], "the permutation test ran"
    return [f"N = {n:,}: clfeval's n_instances and group sizes equal the rows generated; per-group accuracy and "
            f"macro F1 equal fairlearn's MetricFrame (largest relative difference {worst:.1e})"]


def main() -> None:
    session = start(__doc__, RESULTS)
    sizes = [2 * 10**5, 2 * 10**6] if session.args.quick else [2 * 10**6, 2 * 10**7]
    log("preparing data in benchmarks/data/ (generated once, then reused)")
    files = {n: data_file(n) for n in sizes}
    rows: list[ChildRow] = []
    for n, path in files.items():
        rows += [
            ChildRow("clfeval, no test", n, clfeval_argv(path, False), repeats=1,
                     stdout=DATA / f"groups-{n}.clfeval.json"),
            ChildRow("clfeval, permutation test (10,000 rounds)", n, clfeval_argv(path, True), repeats=1,
                     stdout=DATA / f"groups-{n}.tested.json"),
        ]  # fmt: skip
    small = min(sizes)
    rows.append(ChildRow("pandas read_csv + fairlearn MetricFrame", small,
                         [sys.executable, "-c", FAIRLEARN, str(files[small])], repeats=1, reference=True,
                         stdout=DATA / f"groups-{small}.fairlearn.json"))  # fmt: skip
    measure(rows, log)
    checks = check(rows, min(sizes))
    large = {r.contender: json.loads(r.stdout.read_text()) for r in rows if r.n == max(sizes) and r.stdout}
    expected = group_sizes(max(sizes))
    for doc in large.values():
        assert doc["n_instances"] == max(sizes)
        assert {g["name"]: g["n_instances"] for g in doc["groups"]} == expected
    checks.append(f"N = {max(sizes):,}: clfeval's n_instances and each group's size equal the rows generated")
    base = next(x for x in rows if x.reference)
    body = []
    for r in rows:
        body.append([r.contender, f"{r.n:,}", f"{r.n * LINE / 1e6:,.0f}", f"{r.median:.1f}",
                     f"{r.rss[0] / MIB:,.0f}", f"{r.rss[0] / base.rss[0]:.2f}×"])  # fmt: skip
    head = ["contender", "rows", "file MB", "wall s", "peak RSS MiB", f"RSS / pandas+fairlearn at {base.n:,}"]
    table = md_table(head, body, {1, 2, 3, 4, 5})
    largest = max(sizes)
    ours = [r for r in rows if r.contender == "clfeval, no test"]
    growth = ours[-1].rss[0] / ours[0].rss[0]
    checks.append(f"clfeval's peak RSS at {largest:,} rows is {growth:.2f}× its peak at {min(sizes):,} rows (a file "
                  f"{largest // min(sizes)}× as large)")  # fmt: skip
    sections = [
        *timing_section("Peak memory and time of scores by group, 10 groups", table,
                        "peak RSS of the child process from os.wait4 (one run each)."),
        *commands_section([" ".join(["clfeval", *clfeval_argv(Path("FILE"), False)[3:]])],
                          [("pandas and fairlearn", FAIRLEARN)]),
    ]  # fmt: skip
    write_report(session, "Scores by group on a file too large to hold", "groups_memory.py",
                 ["numpy", "polars", "pandas", "fairlearn", "scikit-learn"],
                 f"Data: seeded TSV without a header, {K} labels, {G} groups of shares {', '.join(map(str, SIZES))}, "
                 f"{LINE} bytes a line.", sections, checks)  # fmt: skip


if __name__ == "__main__":
    main()
