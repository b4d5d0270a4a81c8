"""Scored predictions on a real local Dask cluster (``--engine dask`` with ``--scores``; ``counts_of_frame(...,
scores=)``) against one machine reading the same rows as one file: every field of the JSON output equal (intervals
with the same seed included), but the file the inputs name and the engine.

Seeded random data, split into part files of every format; one two-worker cluster for the module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the dask engine needs the optional dask extra (dask, distributed)")
dd = pytest.importorskip("dask.dataframe", reason="the dask engine needs the optional dask extra")
pytestmark = pytest.mark.cluster  # each test runs on a real local Dask cluster

import polars as pl  # noqa: E402

from tests.conftest import cli_error, cli_json, run_cli  # noqa: E402

N_ROWS = 3000
N_PARTS = 4
CLASSES = ["ant", "bee", "cat"]


@pytest.fixture(scope="module")
def client(dask_client: Any) -> Any:
    """The session's real two-process local cluster (conftest.py)."""
    return dask_client


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Seeded random scores (binary, three classes, weights) written whole and as parts in every format."""
    rng = np.random.default_rng(20261128)
    gold = rng.choice(CLASSES, N_ROWS, p=[0.5, 0.3, 0.2])
    a = np.round(rng.random(N_ROWS) * 0.6, 2)
    b = np.round((1 - a) * rng.random(N_ROWS), 2)
    frame = pl.DataFrame(
        {
            "gold": gold,
            "y": np.where(gold == "ant", "no", "yes"),
            "score": np.round(np.clip(rng.normal(np.where(gold == "ant", 0.4, 0.6), 0.2), 0, 1), 3),
            "p_ant": a,
            "p_bee": b,
            "p_cat": np.round(1 - a - b, 2),
            "w": rng.integers(1, 4, N_ROWS).astype(float) / 2,
            "fold": rng.integers(0, 3, N_ROWS),
            # a non-empty set of labels per row (multi-label gold), beside the three score columns
            "tags": [",".join(sorted({g, *rng.choice(CLASSES, rng.integers(0, 2))})) for g in gold],
        }
    )
    root = tmp_path_factory.mktemp("scored")
    frame.write_csv(root / "whole.csv")
    for ext, write in (("csv", "write_csv"), ("parquet", "write_parquet"), ("jsonl", "write_ndjson")):
        for i, idx in enumerate(np.array_split(np.arange(N_ROWS), N_PARTS)):
            getattr(frame[idx], write)(root / f"part-{i}.{ext}")
    for k in range(3):
        frame.filter(pl.col("fold") == k).write_csv(root / f"fold-{k}.csv")
    return {"root": root, "frame": frame}


def _same(dask_json: dict, one_json: dict) -> None:
    """Every field equal but the inputs' file (parts against the whole) and the engine the cluster's result names."""

    def strip(doc: Any) -> Any:
        if isinstance(doc, dict):
            return {k: strip(v) for k, v in doc.items() if k not in ("file", "engine")}
        if isinstance(doc, list):
            return [strip(v) for v in doc]
        return doc

    assert strip(dask_json) == strip(one_json)


def _inputs(doc: dict) -> dict:
    return doc["inputs"]


@pytest.mark.parametrize(
    ("parts", "options"),
    [
        ("part-*.csv", ["--scores", "score", "--gold-col", "y", "--ci", "bootstrap", "--seed", "7"]),
        ("part-*.parquet", ["--scores", "p_*", "--gold-col", "gold", "--ci", "bootstrap", "--seed", "7"]),
        ("part-*.jsonl", ["--scores", "p_*", "--gold-col", "gold", "--weight-col", "w", "--score-bins", "20"]),
        ("part-*.parquet", ["--scores", "p_*", "--gold-col", "tags", "--multilabel", "--ci", "bootstrap", "--seed",
                            "7"]),
    ],
)  # fmt: skip
def test_score_on_dask_equals_one_machine(client: Any, data: dict, parts: str, options: list[str]) -> None:
    root = data["root"]
    common = [*options, "--resamples", "200"] if "--ci" in options else options
    one = cli_json("score", "whole.csv", *common, cwd=root)
    on_dask = cli_json("score", parts, *common, "--engine", "dask", "--scheduler", client.scheduler.address, cwd=root)
    _same(on_dask, one)
    assert _inputs(on_dask)["engine"] == "dask" and _inputs(on_dask)["file"] == parts
    assert "engine" not in _inputs(one)


def test_remote_parts_through_partitions(client: Any, data: dict) -> None:
    """An fsspec URL is read by dask.dataframe partition by partition, each handed to the same part counter."""
    root = data["root"]
    options = ["--scores", "p_*", "--gold-col", "gold", "--weight-col", "w"]
    one = cli_json("score", "whole.csv", *options, cwd=root)
    url = f"file://{root}/part-*.csv"
    on_dask = cli_json("score", url, *options, "--engine", "dask", "--scheduler", client.scheduler.address, cwd=root)
    _same(on_dask, one)


def test_count_file_on_dask_equals_one_machine(client: Any, data: dict, tmp_path: Path) -> None:
    root = data["root"]
    options = ["--scores", "p_*", "--gold-col", "gold", "--weight-col", "w"]
    one = run_cli("count", "whole.csv", *options, cwd=root)
    assert one.returncode == 0, one.stderr
    on_dask = run_cli("count", "part-*.parquet", *options, "--engine", "dask", "--scheduler",
                      client.scheduler.address, cwd=root)  # fmt: skip
    assert on_dask.returncode == 0, on_dask.stderr
    _same(json.loads(on_dask.stdout), json.loads(one.stdout))
    assert json.loads(on_dask.stdout)["inputs"]["engine"] == "dask"


@pytest.mark.parametrize(
    "scores", [["--scores", "p_*", "--gold-col", "gold"], ["--scores", "score", "--gold-col", "y", "--positive", "no"]]
)
def test_cv_on_dask_equals_one_machine(client: Any, data: dict, scores: list[str]) -> None:
    """Each fold counted on the cluster under the pooled folds' classes (binary: --positive ordered last, as one
    machine orders it)."""
    root = data["root"]
    folds = [f"fold-{k}.csv" for k in range(3)]
    options = [*scores, "--ci", "bootstrap", "--seed", "3", "--resamples", "200"]
    one = cli_json("cv", *folds, *options, cwd=root)
    on_dask = cli_json("cv", *folds, *options, "--engine", "dask", "--scheduler", client.scheduler.address, cwd=root)
    _same(on_dask, one)


@pytest.mark.parametrize(
    "options",
    [
        ["--scores", "A=score", "--scores", "B=p_bee", "--gold-col", "y", "--test", "delong", "--positive", "no"],
        ["--scores", "A=p_*", "--scores", "B=p_ant,p_cat,p_bee", "--gold-col", "gold", "--labels", "labels.txt",
         "--test", "bootstrap", "--seed", "4", "--rounds", "200", "--weight-col", "w"],
        ["--scores", "A=p_*", "--scores", "B=p_ant,p_bee,p_cat", "--gold-col", "tags", "--multilabel", "--labels",
         "labels.txt", "--test", "ar", "--seed", "4", "--rounds", "200"],
    ],
)  # fmt: skip
def test_compare_on_dask_equals_one_machine(client: Any, data: dict, options: list[str]) -> None:
    """Every system's scores counted at once into their joint rows on the cluster, then compared: the pairs and each
    system's scores as one machine gives them from the whole file."""
    root = data["root"]
    (root / "labels.txt").write_text("ant\nbee\ncat\n")
    one = cli_json("compare", "whole.csv", *options, cwd=root)
    on_dask = cli_json("compare", "part-*.parquet", *options, "--engine", "dask", "--scheduler",
                       client.scheduler.address, cwd=root)  # fmt: skip
    assert on_dask["pairs"] == one["pairs"]
    for system, result in one["results"].items():
        _same({k: v for k, v in on_dask["results"][system].items() if k != "inputs"},
              {k: v for k, v in result.items() if k != "inputs"})  # fmt: skip
        assert on_dask["results"][system]["inputs"]["engine"] == "dask"


def test_counts_of_frame_with_scores(client: Any, data: dict) -> None:
    """A dask.dataframe of scores: counted partition by partition, scored as the whole file is on one machine."""
    import clfeval
    from clfeval.inputs.scoredfile import count_scored

    frame = dd.from_pandas(data["frame"].to_pandas(), npartitions=5)
    counted = clfeval.counts_of_frame(frame, gold_col="gold", scores="p_*", weight_col="w", scheduler=client)
    whole, _ = count_scored(str(data["root"] / "whole.csv"), "p_*", gold_col="gold", weight_col="w")
    assert counted.inputs["source"] == "dask frame" and counted.inputs["engine"] == "dask"
    a = json.loads(clfeval.score(counted, ci="bootstrap", seed=5, resamples=200).to_json())
    b = json.loads(clfeval.score(whole, ci="bootstrap", seed=5, resamples=200).to_json())
    assert a["scores"] == b["scores"] and a["ci"] == b["ci"] and a["distinct_rows"] == b["distinct_rows"]


def test_counts_of_frame_of_several_systems_compares_as_one_machine(client: Any, data: dict) -> None:
    """scores={name: columns}: every system's scores counted at once into their joint rows, for clfeval.compare."""
    import clfeval
    from clfeval.count.jointscored import JointScoreCounts
    from clfeval.inputs.scoredfile import count_scored

    frame = dd.from_pandas(data["frame"].to_pandas(), npartitions=3)
    systems = {"A": ["p_ant", "p_bee", "p_cat"], "B": "p_*"}
    counted = clfeval.counts_of_frame(frame, gold_col="gold", scores=systems, labels=CLASSES, scheduler=client)
    assert isinstance(counted.counts, JointScoreCounts) and counted.counts.systems == ("A", "B")
    whole, _ = count_scored(str(data["root"] / "whole.csv"), "", gold_col="gold", labels=CLASSES,
                            systems=[("A", "p_ant,p_bee,p_cat"), ("B", "p_*")])  # fmt: skip
    a = json.loads(clfeval.compare(counted, test="bootstrap", seed=2, rounds=100).to_json())
    b = json.loads(clfeval.compare(whole, test="bootstrap", seed=2, rounds=100).to_json())
    assert a["pairs"] == b["pairs"]


def test_a_bad_part_names_its_file_and_line(client: Any, data: dict, tmp_path: Path) -> None:
    for i in range(3):
        (tmp_path / f"s-{i}.csv").write_text("y,score\n" + "".join(f"{'ab'[j % 2]},0.{j}\n" for j in range(6)))
    (tmp_path / "s-1.csv").write_text("y,score\na,0.1\nb,0.2\na,0.3\nb,x\n")
    done = run_cli("score", "s-*.csv", "--scores", "score", "--gold-col", "y", "--engine", "dask", "--scheduler",
                   client.scheduler.address, cwd=tmp_path)  # fmt: skip
    cli_error(done, "s-1.csv:5: the score 'x' in column 'score' is not a number")


def test_a_bad_cell_of_a_remote_part_names_its_partition_and_row(client: Any, tmp_path: Path) -> None:
    """Remote parts are read by dask.dataframe, partition by partition: no line numbers, so the error names the row
    within the partition, on one line."""
    (tmp_path / "r-0.csv").write_text("y,score\na,0.1\nb,0.2\n")
    (tmp_path / "r-1.csv").write_text("y,score\na,0.3\nb,0.4\na,2.5\n")
    url = f"file://{tmp_path}/r-*.csv"
    done = run_cli("score", url, "--scores", "score", "--gold-col", "y", "--engine", "dask", "--scheduler",
                   client.scheduler.address, cwd=tmp_path)  # fmt: skip
    cli_error(done, f"{url}: row 3 of partition 1: ", "is not a probability")


def test_options_the_cluster_does_not_take_are_refused(data: dict) -> None:
    root = data["root"]
    for extra, name in ((["--block-col", "fold"], "--block-col"), (["--group-col", "fold"], "--group-col")):
        done = run_cli("score", "whole.csv", "--scores", "p_*", "--gold-col", "gold", *extra, "--engine", "dask",
                       cwd=root)  # fmt: skip
        cli_error(done, name, "leave --engine dask out")
    cli_error(run_cli("score", "whole.csv", "--scores", "p_*", "--scheduler", "tcp://127.0.0.1:1", cwd=root),
              "--scheduler applies to the dask engine only")  # fmt: skip


def test_a_lost_worker_is_a_one_line_error_naming_the_file(tmp_path: Path) -> None:
    """A worker that dies while it counts a file of scores makes the scheduler give the task up: one line, naming
    the file, exit 2 (the label engine's test, through the scored path)."""
    import os
    import subprocess
    import sys

    from tests.daskcluster import fragile_cluster, kill_workers_once_busy

    with fragile_cluster() as fragile:
        pipe = tmp_path / "part-1.csv"
        os.mkfifo(pipe)
        kill_workers_once_busy(fragile)
        command = ["score", str(pipe), "--scores", "score", "--engine", "dask", "--scheduler"]
        done = subprocess.run([sys.executable, "-m", "clfeval", *command, fragile.scheduler.address],
                              capture_output=True, timeout=120)  # fmt: skip
    err = done.stderr.decode()
    assert done.returncode == 2, err
    lines = [line for line in err.splitlines() if line.startswith("clfeval: error:")]
    assert len(lines) == 1 and f"{pipe}: a Dask worker died while counting it 1 time(s)" in lines[0], err
    assert "Traceback" not in err
