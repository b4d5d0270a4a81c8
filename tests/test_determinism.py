"""Same seed, same bytes (issue 37): nothing that feeds a random stream is ordered by a hash, a thread or the order in
which labels were first seen.

The command line runs in separate processes under other ``PYTHONHASHSEED`` values, one polars thread against the
default, and tiny read chunks (many chunks merged) against one: every interval and every p-value of every kind —
labels, label sets, spans, scores, with and without blocks — comes out in identical bytes. The same data with its
instances (or sentences, or blocks) in another order, so that labels are first seen in another order, gives the same
intervals and p-values for the same seed; so do the same counts with their labels listed in another order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from tests.conftest import run_cli

#: The runs each command is made in, besides the first (PYTHONHASHSEED 0): environment variables of the process.
ENVIRONMENTS: dict[str, dict[str, str]] = {
    "hash 1, one polars thread, small chunks": {
        "PYTHONHASHSEED": "1",
        "POLARS_MAX_THREADS": "1",
        "CLFEVAL_CHUNK_BYTES": "97",
    },
    "hash 2": {"PYTHONHASHSEED": "2"},
    "hash 3, one BLAS thread": {"PYTHONHASHSEED": "3", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
}

LABELS = ["zeta", "alpha", "mid", "beta"]
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]


def _write(path: Path, header: str, rows: list[str]) -> None:
    path.write_text(header + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")


def _data(folder: Path, shuffled: bool) -> None:
    """The same small data of each kind in ``folder``: instances (and sentences) in order, or ``shuffled`` so that
    the first instance has another gold label (labels are first seen in another order)."""
    rng = np.random.default_rng(37)
    n = 60
    gold = rng.integers(0, 4, n)
    a = np.where(rng.random(n) < 0.6, gold, rng.integers(0, 4, n))
    b = np.where(rng.random(n) < 0.5, gold, rng.integers(0, 4, n))
    block = [f"s{(i * 7) % 17}" for i in range(n)]

    def order(size: int) -> np.ndarray:
        if not shuffled:
            return np.arange(size)
        at = np.random.default_rng(size).permutation(size)
        if size == n:  # another label first
            j = int(np.flatnonzero(gold[at] != gold[0])[0])
            at[[0, j]] = at[[j, 0]]
        return at

    at = order(n)
    _write(
        folder / "labels.csv",
        "gold,a,b,blk",
        [f"{LABELS[gold[i]]},{LABELS[a[i]]},{LABELS[b[i]]},{block[i]}" for i in at],
    )

    def label_set() -> str:
        return "|".join(sorted({str(x) for x in rng.choice(LABELS, int(rng.integers(0, 3)))}))

    sets = [(label_set(), label_set(), label_set()) for _ in range(n)]
    _write(folder / "multi.csv", "gold,a,b", [",".join(sets[i]) for i in at])
    y = rng.integers(0, 2, n)
    pa = np.round(np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1), 1)  # few distinct scores: ties across classes
    pb = np.round(np.clip(y * 0.2 + rng.random(n) * 0.8, 0, 1), 1)
    _write(
        folder / "bin.csv",
        "gold,pa,pb,blk",
        [f"{['neg', 'pos'][y[i]]},{pa[i]},{pb[i]},{block[i]}" for i in at],
    )
    p = np.round(rng.dirichlet([1, 1, 1], n), 2)
    q = np.round(rng.dirichlet([1, 1, 1], n), 2)
    p[:, 2], q[:, 2] = np.round(1 - p[:, 0] - p[:, 1], 2), np.round(1 - q[:, 0] - q[:, 1], 2)
    c = rng.integers(0, 3, n)
    _write(
        folder / "classes.csv",
        "gold,a_c,a_a,a_b,b_c,b_a,b_b",
        [",".join([["c", "a", "b"][c[i]], *map(str, p[i]), *map(str, q[i])]) for i in at],
    )
    sentences = []
    for _ in range(24):
        tags = [TAGS[int(t)] for t in rng.integers(0, 4, int(rng.integers(2, 6)))]
        sentences.append(
            [(t, *(u if rng.random() < 0.8 else TAGS[int(rng.integers(0, 6))] for u in (t, t))) for t in tags]
        )
    for column, name in enumerate(("gold", "a", "b")):
        text = "".join("".join(f"w{k} {tok[column]}\n" for k, tok in enumerate(sentences[s])) + "\n" for s in order(24))
        (folder / f"spans_{name}.conll").write_text(text, encoding="utf-8")


#: Every command that draws from a seeded stream: (name, arguments; ``{d}`` is the data folder).
COMMANDS: list[tuple[str, str]] = [
    ("labels ci", "score {d}/labels.csv --gold-col gold --pred-col a --ci bootstrap --resamples 150"),
    ("labels bca", "score {d}/labels.csv --gold-col gold --pred-col a --ci bootstrap-bca --resamples 150"),
    ("labels ar", "compare {d}/labels.csv --gold-col gold --pred-col a --pred-col b --test ar --rounds 200"),
    ("labels bs", "compare {d}/labels.csv --gold-col gold --pred-col a --pred-col b --test bootstrap --rounds 150"),
    ("labels blocks ci", "score {d}/labels.csv --gold-col gold --pred-col a --block-col blk --ci bootstrap"),
    ("labels blocks ar", "compare {d}/labels.csv --gold-col gold --pred-col a --pred-col b --block-col blk"),
    ("sets ci", "score {d}/multi.csv --gold-col gold --pred-col a --multilabel --label-sep | --ci bootstrap"),
    ("sets ar", "compare {d}/multi.csv --gold-col gold --pred-col a --pred-col b --multilabel --label-sep |"),
    (
        "sets bs",
        "compare {d}/multi.csv --gold-col gold --pred-col a --pred-col b --multilabel --label-sep | --test bootstrap",
    ),
    ("spans ci", "score {d}/spans_gold.conll {d}/spans_a.conll --spans --ci bootstrap --resamples 150"),
    ("spans ar", "compare {d}/spans_gold.conll {d}/spans_a.conll {d}/spans_b.conll --spans --rounds 200"),
    ("spans bs", "compare {d}/spans_gold.conll {d}/spans_a.conll {d}/spans_b.conll --spans --test bootstrap"),
    ("scores ci", "score {d}/bin.csv --gold-col gold --scores pa --ci bootstrap --resamples 150"),
    ("scores bca", "score {d}/bin.csv --gold-col gold --scores pa --positive neg --ci bootstrap-bca"),
    ("scores ar", "compare {d}/bin.csv --gold-col gold --scores A=pa --scores B=pb --test ar --rounds 200"),
    ("scores bs", "compare {d}/bin.csv --gold-col gold --scores A=pa --scores B=pb --test bootstrap --rounds 150"),
    ("scores blocks ci", "score {d}/bin.csv --gold-col gold --scores pa --block-col blk --ci bootstrap"),
    ("scores blocks ar", "compare {d}/bin.csv --gold-col gold --scores A=pa --scores B=pb --block-col blk"),
    ("classes ci", "score {d}/classes.csv --gold-col gold --scores a_* --ci bootstrap --resamples 150"),
    ("classes ar", "compare {d}/classes.csv --gold-col gold --scores A=a_* --scores B=b_* --rounds 200"),
]


def _argv(command: str, folder: Path) -> list[str]:
    args = command.format(d=folder).split()
    if "--resamples" not in args and args[0] == "score":
        args += ["--resamples", "100"]
    if "--rounds" not in args and args[0] == "compare":
        args += ["--rounds", "150"]
    return [*args, "--seed", "4", "--format", "json"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The data as it is, and with its instances and sentences in another order (labels first seen in another
    order: the permuted labels file starts with another gold label)."""
    plain, permuted = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("permuted")
    _data(plain, shuffled=False)
    _data(permuted, shuffled=True)
    first = [
        f.read_text(encoding="utf-8").splitlines()[1].split(",")[0]
        for f in (plain / "labels.csv", permuted / "labels.csv")
    ]
    assert first[0] != first[1]
    return plain, permuted


#: Run in a process of its own: each command of argv lists (JSON) writes its output to the file named with it.
_DRIVER = """
import json, sys
from clfeval.cli import main
for out, argv in json.loads(sys.argv[1]):
    code = main([*argv, "-o", out])
    if code:
        sys.exit(f"{argv}: exit {code}")
"""


def _run_all(folder: Path, out: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    out.mkdir()
    jobs = [(str(out / f"{i}.json"), _argv(command, folder)) for i, (_, command) in enumerate(COMMANDS)]
    source = str(Path(clfeval.__file__).parents[1])  # this tree's clfeval, whatever is installed
    managed = {"PYTHONHASHSEED", *(name for variables in ENVIRONMENTS.values() for name in variables)}
    environ = {k: v for k, v in os.environ.items() if k not in managed}
    environ.update({"PYTHONPATH": os.pathsep.join([source, environ.get("PYTHONPATH", "")]), **env})
    return subprocess.Popen(
        [sys.executable, "-c", _DRIVER, json.dumps(jobs)], env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def test_the_same_seed_gives_the_same_bytes_in_every_process(folders: tuple[Path, Path], tmp_path: Path) -> None:
    plain, _ = folders
    runs = {"hash 0": {"PYTHONHASHSEED": "0"}, **ENVIRONMENTS}
    processes = {name: _run_all(plain, tmp_path / f"run{i}", env) for i, (name, env) in enumerate(runs.items())}
    for name, process in processes.items():
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, f"{name}: {err.decode()}"
    differ = []
    for i, (command, _) in enumerate(COMMANDS):
        outputs = {name: (tmp_path / f"run{j}" / f"{i}.json").read_bytes() for j, name in enumerate(runs)}
        first = outputs["hash 0"]
        assert b'"seed": 4' in first, command
        differ += [f"{command}: {name}" for name, output in outputs.items() if output != first]
    assert not differ, f"outputs that differ from the run with hash 0: {differ}"


def _drawn(output: bytes) -> Any:
    """What a seeded stream gave: the intervals of a score, the tests of a comparison (without where files are)."""
    doc = json.loads(output)
    return doc["pairs"] if "pairs" in doc else doc["ci"]


@pytest.mark.parametrize(("command", "arguments"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_instances_in_another_order_give_the_same_numbers(
    folders: tuple[Path, Path], command: str, arguments: str
) -> None:
    found = []
    for folder in folders:
        done = run_cli(*_argv(arguments, folder))
        assert done.returncode == 0, done.stderr.decode()
        found.append(_drawn(done.stdout))
    assert found[0] == found[1]
    assert found[0]  # something was drawn


def test_counts_with_their_labels_in_another_order_give_the_same_interval() -> None:
    rng = np.random.default_rng(5)
    cells = rng.integers(0, 15, (4, 4))
    order = [2, 0, 3, 1]
    one = clfeval.ConfusionCounts(["a", "b", "c", "d"], cells)
    other = clfeval.ConfusionCounts([["a", "b", "c", "d"][i] for i in order], cells[np.ix_(order, order)])
    for ci in ("bootstrap", "bootstrap-bca"):
        first, second = (clfeval.score(c, ci=ci, seed=4, resamples=300) for c in (one, other))
        assert first.interval("macro.f1") == second.interval("macro.f1")
        assert first.interval("mcc") == second.interval("mcc")


def test_labels_first_seen_in_another_order_give_the_same_test() -> None:
    """Arrays keep their labels in the order first seen; the draws do not."""
    rng = np.random.default_rng(6)
    gold = rng.choice(LABELS, 80)
    a = np.where(rng.random(80) < 0.7, gold, rng.choice(LABELS, 80))
    b = np.where(rng.random(80) < 0.5, gold, rng.choice(LABELS, 80))
    at = np.argsort(gold == gold[-1], kind="stable")[::-1]  # the last instance's label first
    found = []
    for order in (np.arange(80), at):
        c = clfeval.compare(gold[order], {"A": a[order], "B": b[order]}, test="ar", seed=9, rounds=300)
        s = clfeval.score(gold[order], a[order], ci="bootstrap", seed=9, resamples=200)
        found.append((c.pairs[0].p_value, s.interval("macro.f1"), s.interval("kappa")))
    assert found[0] == found[1]


def test_scores_counted_in_chunks_are_the_rows_of_the_arrays(tmp_path: Path) -> None:
    """However a score file is cut into chunks, and whichever gold label a chunk meets first, its distinct rows are
    those of the same scores given as arrays, in the same (canonical) order: the rows a bootstrap draws over."""
    from clfeval.count.scored import ScoreCounts
    from clfeval.inputs.columns import parse_column
    from clfeval.inputs.scoredfile import count_scored

    rng = np.random.default_rng(8)
    for positive in (None, "neg"):
        gold = rng.choice(["pos", "neg"], 200)
        scores = np.round(rng.random(200), 1)  # ties at every score, across the classes
        path = tmp_path / "s.csv"
        _write(path, "gold,p", [f"{g},{s}" for g, s in zip(gold, scores)])
        arrays = ScoreCounts.of_arrays(gold, scores, positive=positive)
        for size in (None, 50, 301):
            counts, _ = count_scored(str(path), "p", gold_col=parse_column("gold"), positive=positive, size=size)
            for name in ("gold", "scores", "count"):
                np.testing.assert_array_equal(getattr(counts, name), getattr(arrays, name), err_msg=f"{name} {size}")
