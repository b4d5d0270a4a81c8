"""Spans on a Dask cluster (one task per CoNLL or JSON Lines file) against one machine, on a real local cluster of two
worker processes: the same counts, units, intervals and tests as the files read one after the other on this machine,
and as their concatenation read as one file; the same one-line errors for a bad line and a lost worker; and Ctrl-C
while a local cluster starts exits 130 quietly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the dask engine needs the optional dask extra (dask, distributed)")
pytestmark = pytest.mark.cluster  # each test runs on a real local Dask cluster


import clfeval  # noqa: E402
from clfeval.errors import InputError, OptionError  # noqa: E402
from clfeval.inputs.options import Reading  # noqa: E402
from clfeval.spans.options import Spans  # noqa: E402
from tests.conftest import cli_error, run_cli  # noqa: E402

TYPES = ["PER", "LOC", "ORG"]
PREFIXES = {"conlleval": "BI", "iob2": "BI", "iobes": "BIES"}


@pytest.fixture(scope="module")
def client(dask_client: Any) -> Any:
    """The session's real two-process local cluster (conftest.py)."""
    return dask_client


def _tag(rng: np.random.Generator, prefixes: str) -> str:
    if rng.random() < 0.45:
        return "O"
    return f"{prefixes[rng.integers(len(prefixes))]}-{TYPES[rng.integers(len(TYPES))]}"


def _corpus(seed: int, n_parts: int, prefixes: str, docstarts: bool) -> list[list[str]]:
    """Random CoNLL parts (lines): a gold and two predicted tag columns; with ``docstarts``, -DOCSTART- documents of a
    few sentences (some parts begin without one: their first sentences continue the last part's document)."""
    rng = np.random.default_rng(seed)
    parts = []
    for k in range(n_parts):
        lines: list[str] = []
        for d in range(int(rng.integers(1, 4))):
            if docstarts and (d or k == 0 or rng.random() < 0.6):
                lines += ["-DOCSTART- O O O", ""]
            for _ in range(int(rng.integers(1, 5))):
                for i in range(int(rng.integers(1, 9))):
                    gold = _tag(rng, prefixes)
                    a = gold if rng.random() < 0.7 else _tag(rng, prefixes)
                    b = gold if rng.random() < 0.5 else _tag(rng, prefixes)
                    lines.append(f"w{i} {gold} {a} {b}")
                lines.append("")
        parts.append(lines)
    return parts


def _write(tmp: Path, name: str, parts: list[list[str]]) -> tuple[list[str], str]:
    """The parts as files, and their concatenation as one file."""
    paths = []
    for k, lines in enumerate(parts):
        path = tmp / f"{name}-{k}.txt"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    whole = tmp / f"{name}-all.txt"
    whole.write_text("".join(Path(p).read_text() for p in paths))
    return paths, str(whole)


def _blocks(blocks: Any) -> Any:
    """Blocks as what they hold: each (unit, row)'s count, their number of units and what a unit is (the order of
    their keys is that of the reading's chunks, which no result depends on)."""
    if blocks is None:
        return None
    held = {(int(b), blocks.keys[r]): int(c) for r, b, c in zip(blocks.row, blocks.block, blocks.count)}
    return held, blocks.n_blocks, blocks.unit


def _same_counts(a: Any, b: Any) -> None:
    """Span counts equal field by field (their blocks too), but the places of invalid transitions (file and line)."""
    for name in ("scheme", "pairs", "unit", "n_sentences", "n_documents", "tokens", "transitions", "merged",
                 "modes", "confusion"):  # fmt: skip
        assert getattr(a, name) == getattr(b, name), name
    assert _blocks(a.blocks) == _blocks(b.blocks)


def _read(paths: Any, scheme: str, unit: str, client: Any = None, **kw: Any) -> Any:
    reading = Reading() if client is None else Reading(engine="dask", scheduler=client)
    return clfeval.read(paths, spans=Spans(scheme, unit), reading=reading, **kw)


@pytest.mark.parametrize("scheme", ["conlleval", "iob2", "iobes"])
@pytest.mark.parametrize("docstarts", [True, False])
def test_spans_on_the_cluster_equal_one_machine(client: Any, tmp_path: Path, scheme: str, docstarts: bool) -> None:
    """Random corpora in 3–6 files: the cluster's counts (with their sentences or documents as units) equal the files
    read one by one on this machine and their concatenation read as one file, for every unit."""
    for seed in range(2):
        parts = _corpus(seed * 7 + len(scheme), 3 + seed * 3, PREFIXES[scheme], docstarts)
        paths, whole = _write(tmp_path, f"{scheme}{seed}", parts)
        for unit in ("auto", "sentences", "documents") if docstarts else ("auto", "sentences"):
            one = _read(whole, scheme, unit)
            here = _read(paths, scheme, unit)
            there = _read(paths, scheme, unit, client)
            _same_counts(there.counts, one.counts)
            _same_counts(here.counts, one.counts)
            assert there.inputs == here.inputs and there.inputs["files"] == paths
            assert {k: v for k, v in there.inputs.items() if k != "files"} == {
                k: v for k, v in one.inputs.items() if k != "file"
            }
            assert there.options.get("engine") == "dask" and "engine" not in here.options


def test_intervals_and_tests_on_the_cluster_equal_one_machine(client: Any, tmp_path: Path) -> None:
    """A bootstrap over documents with one seed gives the same interval from the cluster's counts; a comparison of two
    taggers (columns) the same p-values and intervals."""
    paths, whole = _write(tmp_path, "ci", _corpus(11, 4, "BI", True))
    for unit in ("sentences", "documents"):
        one = clfeval.score(_read(whole, "iob2", unit), ci="bootstrap", resamples=300, seed=5).to_dict()
        there = clfeval.score(_read(paths, "iob2", unit, client), ci="bootstrap", resamples=300, seed=5).to_dict()
        assert there["ci"] == one["ci"] and there["averages"] == one["averages"]
    for test in ("ar", "bootstrap", "sign"):
        kw: dict[str, Any] = {"pred_col": [-2, -1], "gold_col": -3}
        one = clfeval.compare(_read(whole, "iob2", "auto", **kw), test=test, rounds=300, seed=3).to_dict()
        there = clfeval.compare(_read(paths, "iob2", "auto", client, **kw), test=test, rounds=300, seed=3).to_dict()
        assert there["pairs"] == one["pairs"] and there["systems"] == one["systems"], test


def _engines_named(doc: Any) -> int:
    """How many ``options`` of a JSON document name the dask engine, taken out."""
    if isinstance(doc, list):
        return sum(_engines_named(x) for x in doc)
    if not isinstance(doc, dict):
        return 0
    found = int(isinstance(doc.get("options"), dict) and doc["options"].pop("engine", None) == "dask")
    return found + sum(_engines_named(v) for v in doc.values())


def test_the_command_line_scores_and_compares_parts_on_the_cluster(client: Any, tmp_path: Path) -> None:
    """``score PARTS --parts --spans --engine dask --scheduler ADDR``: the JSON of the files read here, but the engine
    named; ``compare`` of two taggers' columns likewise, and ``--format conlleval`` byte for byte."""
    paths, _ = _write(tmp_path, "cli", _corpus(3, 3, "BI", True))
    address = client.scheduler.address
    base = [*paths, "--spans", "--seed", "1"]

    def run(*args: str) -> Any:
        done = run_cli(*args)
        return SimpleNamespace(returncode=done.returncode, stdout=done.stdout.decode(), stderr=done.stderr.decode())

    for command, extra in (("score", ["--parts", "--gold-col", "2", "--pred-col", "3", "--ci", "bootstrap"]),
                           ("compare", ["--gold-col", "-3", "--pred-col", "-2", "--pred-col", "-1"])):  # fmt: skip
        here = run(command, *base, *extra, "--format", "json")
        there = run(command, *base, *extra, "--format", "json", "--engine", "dask", "--scheduler", address)
        assert here.returncode == there.returncode == 0, there.stderr
        a, b = json.loads(here.stdout), json.loads(there.stdout)
        assert _engines_named(b) == (1 if command == "score" else 2)  # score's options; each system's in compare
        a.pop("command", None), b.pop("command", None)
        assert a == b
    base += ["--parts", "--gold-col", "2", "--pred-col", "3", "--format", "conlleval"]
    here, there = run("score", *base), run("score", *base, "--engine", "dask", "--scheduler", address)
    assert there.stdout == here.stdout and there.returncode == 0


def test_count_files_and_folds_of_spans_on_the_cluster_equal_one_machine(client: Any, tmp_path: Path) -> None:
    """``count PARTS --parts --spans --engine dask``: the count file of the files read here, but the engine named;
    ``cv FOLDS --spans --engine dask`` (a fold a file): each fold's result and the pooled one likewise."""
    paths, _ = _write(tmp_path, "cv", _corpus(4, 3, "BI", True))
    dask = ["--engine", "dask", "--scheduler", client.scheduler.address]
    columns = ["--spans", "--gold-col", "2", "--pred-col", "3"]
    for n, engine in enumerate(([], dask)):
        out = str(tmp_path / f"c{n}.json")
        assert run_cli("count", *paths, "--parts", *columns, "-o", out, *engine).returncode == 0
    here, there = (json.loads((tmp_path / f"c{n}.json").read_text()) for n in range(2))
    assert _engines_named(there) == 1 and there == here
    here, there = (
        run_cli("cv", *paths, "--spans", "--gold-col", "2", "--pred-col", "3", "--format", "json", *engine)
        for engine in ([], dask)
    )
    assert here.returncode == there.returncode == 0, there.stderr
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    assert _engines_named(b) == 4 and a == b  # the three folds' and the pooled result's options


def test_json_lines_parts_on_the_cluster_equal_one_machine(client: Any, tmp_path: Path) -> None:
    """JSON Lines of sentences, one task per file: the counts of the files read here, and of their concatenation; two
    taggers' fields compared with a seeded paired bootstrap give the same p-values."""
    rng = np.random.default_rng(8)
    paths = []
    for k in range(3):
        rows = []
        for _ in range(int(rng.integers(2, 6))):
            n = int(rng.integers(1, 7))
            gold = [_tag(rng, "BI") for _ in range(n)]
            a, b = ([g if rng.random() < 0.7 else _tag(rng, "BI") for g in gold] for _ in range(2))
            rows.append(json.dumps({"gold": gold, "pred": a, "other": b}))
        path = tmp_path / f"s-{k}.jsonl"
        path.write_text("\n".join(rows) + "\n")
        paths.append(str(path))
    whole = tmp_path / "all.jsonl"
    whole.write_text("".join(Path(p).read_text() for p in paths))
    kw = {"gold_col": "gold", "pred_col": "pred"}
    one = _read(str(whole), "iob2", "auto", **kw)
    _same_counts(_read(paths, "iob2", "auto", client, **kw).counts, one.counts)
    _same_counts(_read(paths, "iob2", "auto", **kw).counts, one.counts)
    two = {"gold_col": "gold", "pred_col": ["pred", "other"]}
    one = clfeval.compare(_read(str(whole), "iob2", "auto", **two), test="bootstrap", rounds=200, seed=4).to_dict()
    there = clfeval.compare(_read(paths, "iob2", "auto", client, **two), test="bootstrap", rounds=200, seed=4)
    assert there.to_dict()["pairs"] == one["pairs"] and there.to_dict()["systems"] == one["systems"]
    with pytest.raises(OptionError, match="JSON Lines of sentences have none"):
        _read(paths, "iob2", "documents", client, **kw)


def test_a_bad_line_is_named_by_its_file_and_line_from_the_worker(client: Any, tmp_path: Path) -> None:
    """A part with a line of other fields: the reader's one-line error, raised on the worker, names that file and its
    line; on the command line, exit 2 and one line."""
    parts = _corpus(5, 3, "BI", False)
    parts[1].insert(3, "w B-PER")  # two fields where the file's lines have four
    paths, _ = _write(tmp_path, "bad", parts)
    with pytest.raises(InputError) as raised:
        _read(paths, "iob2", "auto", client)
    with pytest.raises(InputError) as here:
        _read(paths, "iob2", "auto")
    assert str(raised.value) == str(here.value) and str(raised.value).startswith(f"{paths[1]}:4: expected 4 fields")
    done = run_cli("score", *paths, "--parts", "--spans", "--engine", "dask", "--scheduler", client.scheduler.address)
    cli_error(done, f"{paths[1]}:4: expected 4 fields")


def test_what_spans_on_the_cluster_do_not_take_is_refused(client: Any, tmp_path: Path) -> None:
    """A gold file and prediction files (paired sentence by sentence here), spans by group, and the wrong spans of
    several parts (--errors): one-line errors."""
    paths, _ = _write(tmp_path, "no", _corpus(2, 2, "BI", True))
    with pytest.raises(OptionError, match="paired sentence by sentence on this machine: with --engine dask"):
        clfeval.read(paths[0], paths[1], spans=True, reading=Reading(engine="dask", scheduler=client))
    cli_error(run_cli("score", *paths, "--parts", "--spans", "--errors", str(tmp_path / "e.tsv")), "--errors lists")
    with pytest.raises(OptionError, match=r"--group-col\) are read from one CoNLL file on this machine"):
        clfeval.read(paths, spans=True, reading=Reading(engine="dask", scheduler=client, group_col="document"))


def test_a_worker_lost_while_it_reads_a_part_is_a_one_line_error_naming_it(tmp_path: Path) -> None:
    """A worker that dies while it reads a CoNLL file (blocked on a named pipe, then ended) beyond the scheduler's
    allowed failures: one line naming the file, exit 2, no traceback."""
    from tests.daskcluster import fragile_cluster, kill_workers_once_busy

    with fragile_cluster() as fragile:
        pipe = tmp_path / "part-1.txt"
        os.mkfifo(pipe)
        kill_workers_once_busy(fragile)
        done = subprocess.run(
            [sys.executable, "-m", "clfeval", "score", str(pipe), "--spans", "--engine", "dask", "--scheduler",
             fragile.scheduler.address], capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and f"{pipe}: a Dask worker died while counting it 1 time(s)" in done.stderr
    assert "Traceback" not in done.stderr


def test_ctrl_c_while_a_local_cluster_starts_exits_130_quietly(tmp_path: Path) -> None:
    """Ctrl-C at a terminal (SIGINT to the command's process group: the command and the cluster's worker processes)
    while the local cluster starts, at a few moments: exit 130, no traceback, at most one line."""
    import psutil

    paths, _ = _write(tmp_path, "c", _corpus(1, 2, "BI", True))
    for after in (0.0, 0.3):
        process = subprocess.Popen(
            [sys.executable, "-m", "clfeval", "score", *paths, "--parts", "--spans", "--engine", "dask"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not psutil.Process(process.pid).children() and time.monotonic() < deadline:
            time.sleep(0.02)  # the first process the cluster starts: it is starting
        time.sleep(after)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=120)
        text = err.decode()
        assert process.returncode == 130, (after, text)
        assert "Traceback" not in text and len(text.splitlines()) <= 1, (after, text)


def _documents(rng: np.random.Generator, n_documents: int) -> tuple[list[list[str]], list[dict[tuple[str, str], int]]]:
    """Documents of one-token spans (some sentences without any), each as its sentences' lines, and each document's
    rows: a gold span is found when the predicted tag is the same."""
    documents, expected = [], []
    for _ in range(n_documents):
        sentences: list[str] = []
        rows: dict[tuple[str, str], int] = {}
        for _ in range(int(rng.integers(1, 5))):
            tags = [(str(rng.choice(["O", "O", "B-X", "B-Y"])), str(rng.choice(["O", "O", "B-X", "B-Y"])))
                    for _ in range(int(rng.integers(1, 4)))]  # fmt: skip
            sentences.append("".join(f"w {g} {p}\n" for g, p in tags) + "\n")
            for g, p in tags:
                if g != "O":
                    rows[(g[2:], g[2:] if p == g else "∅")] = rows.get((g[2:], g[2:] if p == g else "∅"), 0) + 1
                if p not in ("O", g):
                    rows[("∅", p[2:])] = rows.get(("∅", p[2:]), 0) + 1
        documents.append(sentences)
        expected.append(rows)
    return documents, expected


def _per_document(blocks: Any, n: int) -> list[dict[tuple[str, str], int]]:
    found: list[dict[tuple[str, str], int]] = [{} for _ in range(n)]
    for r, b, c in zip(blocks.row.tolist(), blocks.block.tolist(), blocks.count.tolist()):
        found[b][tuple(blocks.keys[r])] = c
    return found


def test_documents_as_units_hold_their_own_rows_across_parts(client: Any, tmp_path: Path) -> None:
    """A corpus of 24 documents cut into files at random sentences (a file may begin inside a document, which it then
    continues): with documents as units (``documents``, and ``auto`` at 20 or more), each document's rows are its own
    sentences' (sentences without a span included), read here part by part, on the cluster, and as one file; the
    command line's JSON with a bootstrap over documents is the same here and on the cluster."""
    rng = np.random.default_rng(40)
    for seed in range(2):
        documents, expected = _documents(rng, 24)
        lines = [line for d in documents for line in ["-DOCSTART- O O\n\n", *d]]
        cuts = sorted(rng.choice(np.arange(1, len(lines)), size=3 + seed, replace=False).tolist())
        paths = []
        for k, (a, b) in enumerate(zip([0, *cuts], [*cuts, len(lines)])):
            path = tmp_path / f"docs{seed}-{k}.conll"
            path.write_text("".join(lines[a:b]))
            paths.append(str(path))
        whole = tmp_path / f"docs{seed}.conll"
        whole.write_text("".join(lines))
        for unit in ("documents", "auto"):
            for counted in (_read(str(whole), "iob2", unit), _read(paths, "iob2", unit),
                            _read(paths, "iob2", unit, client)):  # fmt: skip
                blocks = counted.blocks
                assert blocks is not None and blocks.unit == "documents" and blocks.n_blocks == 24
                assert _per_document(blocks, 24) == expected
    base = [*paths, "--parts", "--spans", "iob2", "--unit", "documents", "--ci", "bootstrap", "--resamples", "200",
            "--seed", "3", "--format", "json"]  # fmt: skip
    here = run_cli("score", *base)
    there = run_cli("score", *base, "--engine", "dask", "--scheduler", client.scheduler.address)
    assert here.returncode == there.returncode == 0, there.stderr
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    assert _engines_named(b) == 1 and a == b
