"""The Dask counting engine against the embedded one, on a real local cluster of two worker processes.

Every test reads seeded random data split into part files and checks that the cluster's cells
are exactly the same multiset of (row, count) as ``read_cells`` gives on one concatenated file.
"""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the dask engine needs the optional dask extra (dask, distributed)")
dd = pytest.importorskip("dask.dataframe", reason="the dask engine needs the optional dask extra")
pytestmark = pytest.mark.cluster  # each test starts a real local Dask cluster

import dask  # noqa: E402
import distributed  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402

from clfeval.count.confusion import ConfusionCounts  # noqa: E402
from clfeval.count.labelsets import MultiLabel  # noqa: E402
from clfeval.errors import InputError, OptionError  # noqa: E402
from clfeval.inputs.cluster import DASK_HINT, cluster_cells, frame_cells  # noqa: E402
from clfeval.inputs.embedded import Cells, read_cells  # noqa: E402
from clfeval.inputs.formats import TableOptions  # noqa: E402
from clfeval.inputs.layouts import _to_counts, count_file  # noqa: E402
from tests.daskcluster import fragile_cluster, kill_workers_once_busy  # noqa: E402

N_ROWS = 2400
N_PARTS = 4
LABELS = ["cat", "dog", "bird", "fish", "a b"]  # "a b": a label with a space survives CSV


@pytest.fixture(scope="module")
def client(dask_client: Any) -> Any:
    """The session's real two-process local cluster (conftest.py)."""
    return dask_client


def _sets(rng: np.random.Generator, n: int) -> list[list[str]]:
    return [sorted(rng.choice(LABELS[:4], size=rng.integers(0, 3), replace=False).tolist()) for _ in range(n)]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Seeded random labels written as Parquet parts, CSV parts, JSON Lines parts, and each as one whole file."""
    rng = np.random.default_rng(20260801)
    gold = rng.choice(LABELS, N_ROWS)
    gold_sets, pred_sets = _sets(rng, N_ROWS), _sets(rng, N_ROWS)
    gold_int = rng.integers(0, 4, N_ROWS)
    frame = pl.DataFrame(
        {
            "gold": gold,
            "pred": np.where(rng.random(N_ROWS) < 0.7, gold, rng.choice(LABELS, N_ROWS)),
            "predB": np.where(rng.random(N_ROWS) < 0.6, gold, rng.choice(LABELS, N_ROWS)),
            "gold_int": gold_int,
            "pred_int": np.where(rng.random(N_ROWS) < 0.5, gold_int, rng.integers(0, 4, N_ROWS)),
            "pred_float": np.where(rng.random(N_ROWS) < 0.5, gold_int, rng.integers(0, 4, N_ROWS)).astype(float)
            + np.where(rng.random(N_ROWS) < 0.1, 0.5, 0.0),  # mostly 1.0, 2.0…, some 1.5: "1" and "1.5"
            "gold_set": [",".join(s) for s in gold_sets],
            "pred_set": [",".join(s) for s in pred_sets],
            "gold_list": gold_sets,
            "pred_list": pred_sets,
            "other": rng.random(N_ROWS),
        },
        schema_overrides={"gold_list": pl.List(pl.String), "pred_list": pl.List(pl.String)},
    )
    root = tmp_path_factory.mktemp("cluster")
    (root / "parts").mkdir()
    bounds = np.linspace(0, N_ROWS, N_PARTS + 1).astype(int)
    parts = [frame.slice(lo, hi - lo) for lo, hi in itertools.pairwise(bounds)]
    paths: dict[str, Any] = {"parquet": [], "csv": [], "jsonl": [], "tsv": []}
    flat = frame.drop("gold_list", "pred_list")
    for k, part in enumerate(parts):
        paths["parquet"].append(str(root / "parts" / f"part-{k}.parquet"))
        part.write_parquet(paths["parquet"][-1])
        paths["csv"].append(str(root / "parts" / f"part-{k}.csv"))
        part.drop("gold_list", "pred_list").write_csv(paths["csv"][-1])
        paths["tsv"].append(str(root / "parts" / f"part-{k}.tsv"))
        part.select("gold", "pred").filter(~pl.col("gold").str.contains(" ")).write_csv(
            paths["tsv"][-1], separator="\t", include_header=False, quote_style="never"
        )
        paths["jsonl"].append(str(root / "parts" / f"part-{k}.jsonl"))
        part.write_ndjson(paths["jsonl"][-1])
    whole = {
        "parquet": str(root / "all.parquet"),
        "csv": str(root / "all.csv"),
        "jsonl": str(root / "all.jsonl"),
        "tsv": str(root / "all.tsv"),
    }
    frame.write_parquet(whole["parquet"])
    flat.write_csv(whole["csv"])
    frame.write_ndjson(whole["jsonl"])
    frame.select("gold", "pred").filter(~pl.col("gold").str.contains(" ")).write_csv(
        whole["tsv"], separator="\t", include_header=False, quote_style="never"
    )
    return {"root": root, "parts": paths, "whole": whole, "frame": frame}


def _multiset(cells: Cells) -> Counter:
    """The cells as a multiset of rows: a row read twice would add up, so duplicates are caught by ``==``."""
    out: Counter = Counter()
    for row, count in zip(cells.rows, cells.counts):
        out[row] += int(count)
    assert len(out) == len(cells.rows), "a row occurs twice in the cells"
    return out


def _same(got: Cells, expected: Cells) -> None:
    assert got.counts.dtype == np.int64
    assert int(got.counts.sum()) == int(expected.counts.sum())
    assert _multiset(got) == _multiset(expected)


# ---------------------------------------------------------------------------------------------
# The same cells as the embedded engine
# ---------------------------------------------------------------------------------------------


def test_single_label_parquet_parts(client: Any, data: dict) -> None:
    got = cluster_cells(data["parts"]["parquet"], ["gold", "pred"], ["gold", "predicted"], scheduler=client)
    _same(got, read_cells(data["whole"]["parquet"], ["gold", "pred"], ["gold", "predicted"]))
    assert int(got.counts.sum()) == N_ROWS
    assert all(isinstance(v, str) for row in got.rows for v in row)
    assert got.header is True
    assert got.source == ", ".join(data["parts"]["parquet"])


def test_csv_parts_by_name(client: Any, data: dict) -> None:
    got = cluster_cells(data["parts"]["csv"], ["gold", "pred"], ["gold", "predicted"], scheduler=client)
    _same(got, read_cells(data["whole"]["csv"], ["gold", "pred"], ["gold", "predicted"]))
    assert any(row[0] == "a b" for row in got.rows)
    assert got.header is True


def test_tsv_without_header_by_position(client: Any, data: dict) -> None:
    got = cluster_cells(data["parts"]["tsv"], [1, -1], ["gold", "predicted"], scheduler=client)
    _same(got, read_cells(data["whole"]["tsv"], [1, -1], ["gold", "predicted"]))
    assert got.header is False


def test_integer_and_float_label_columns(client: Any, data: dict) -> None:
    for columns in (["gold_int", "pred_int"], ["gold_int", "pred_float"]):
        got = cluster_cells(data["parts"]["parquet"], columns, ["gold", "predicted"], scheduler=client)
        _same(got, read_cells(data["whole"]["parquet"], columns, ["gold", "predicted"]))
    # 1.0 is the label "1", the same as the integer 1; 1.5 stays "1.5"
    agree = sum(int(c) for (g, p), c in zip(got.rows, got.counts) if g == p)
    frame = data["frame"]
    assert agree == int((frame["gold_int"].cast(pl.Float64) == frame["pred_float"]).sum()) > 0
    assert any(p.endswith(".5") for _, p in got.rows)
    assert not any(p.endswith(".0") for _, p in got.rows)


def test_multilabel_separator_strings(client: Any, data: dict) -> None:
    columns = ["gold_set", "pred_set"]
    got = cluster_cells(data["parts"]["csv"], columns, ["gold", "predicted"], scheduler=client, empty_ok=True)
    _same(got, read_cells(data["whole"]["csv"], columns, ["gold", "predicted"], empty_ok=True))
    assert any("," in g for g, _ in got.rows)  # still strings: the caller splits them
    assert any(g == "" for g, _ in got.rows)  # the empty label set
    with pytest.raises(InputError, match=r"part-\d\.csv:\d+: the (gold|predicted) label is empty") as info:
        cluster_cells(data["parts"]["csv"], columns, ["gold", "predicted"], scheduler=client)
    assert info.value.line is not None  # local files are read on the workers by the embedded reader: exact lines


def test_multilabel_parquet_list_columns(client: Any, data: dict) -> None:
    columns = ["gold_list", "pred_list"]
    got = cluster_cells(data["parts"]["parquet"], columns, ["gold", "predicted"], scheduler=client, empty_ok=True)
    _same(got, read_cells(data["whole"]["parquet"], columns, ["gold", "predicted"], empty_ok=True))
    assert all(isinstance(v, tuple) for row in got.rows for v in row)
    assert any(len(g) == 2 for g, _ in got.rows) and any(g == () for g, _ in got.rows)


def test_jsonl_parts_with_lists(client: Any, data: dict) -> None:
    columns = ["gold", "gold_list", "pred_int"]
    roles = ["gold", "predicted", "other"]
    got = cluster_cells(data["parts"]["jsonl"], columns, roles, scheduler=client, empty_ok=True)
    _same(got, read_cells(data["whole"]["jsonl"], columns, roles, empty_ok=True))
    assert any(isinstance(row[1], tuple) and len(row[1]) == 2 for row in got.rows)


def test_three_columns(client: Any, data: dict) -> None:
    columns = ["gold", "pred", "predB"]
    roles = ["gold", "predicted (A)", "predicted (B)"]
    got = cluster_cells(data["parts"]["parquet"], columns, roles, scheduler=client)
    _same(got, read_cells(data["whole"]["parquet"], columns, roles))
    assert all(len(row) == 3 for row in got.rows)


def test_same_column_twice_is_refused(client: Any, data: dict) -> None:
    """One column for gold and predicted scores it against itself (accuracy 1.0): refused on every path, by name
    or by a name and a number for the same field."""
    for columns in (["gold", "gold"], ["gold", 1]):
        with pytest.raises(InputError, match="the gold and predicted columns are both field 'gold'"):
            cluster_cells(data["parts"]["parquet"], columns, ["gold", "predicted"], scheduler=client)


def test_glob_pattern(client: Any, data: dict) -> None:
    pattern = str(data["root"] / "parts" / "part-*.parquet")
    got = cluster_cells([pattern], ["gold", "pred"], ["gold", "predicted"], scheduler=client)
    _same(got, read_cells(data["whole"]["parquet"], ["gold", "pred"], ["gold", "predicted"]))
    assert got.source == pattern


def test_header_name_and_negative_position(client: Any, data: dict) -> None:
    # gold by name, the predictions by position from the end: "other" is last, "gold_set" (column 7 of 9) is -3
    columns = ["gold", -3]
    got = cluster_cells(data["parts"]["csv"], columns, ["gold", "predicted"], scheduler=client, empty_ok=True)
    _same(got, read_cells(data["whole"]["csv"], columns, ["gold", "predicted"], empty_ok=True))
    assert _multiset(got) == _multiset(
        cluster_cells(
            data["parts"]["csv"],
            [1, 7],
            ["gold", "predicted"],
            TableOptions(header=True),
            scheduler=client,
            empty_ok=True,
        )
    )


def test_frame_cells(client: Any, data: dict) -> None:
    frame = data["frame"].select("gold", "pred", "gold_int", "pred_float").to_pandas()
    ddf = dd.from_pandas(frame, npartitions=3)
    got = frame_cells(ddf, ["gold", -1, 3], ["gold", "predicted", "other"], scheduler=client)
    expected = Counter(
        zip(
            frame["gold"],
            (str(int(v)) if v == int(v) else str(v) for v in frame["pred_float"]),
            frame["gold_int"].astype(str),
        )
    )
    assert _multiset(got) == expected
    assert got.header is True


def test_frame_cells_arrow_list_columns(client: Any, data: dict) -> None:
    frame = data["frame"].select("gold_list", "pred_list").to_pandas(use_pyarrow_extension_array=True)
    got = frame_cells(
        dd.from_pandas(frame, npartitions=2), [1, 2], ["gold", "predicted"], scheduler=client, empty_ok=True
    )
    expected = Counter(
        (tuple(g), tuple(p)) for g, p in zip(data["frame"]["gold_list"].to_list(), data["frame"]["pred_list"].to_list())
    )
    assert _multiset(got) == expected


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


def test_null_label_is_an_input_error(client: Any, tmp_path: Path) -> None:
    paths = []
    for k, preds in enumerate([["a", None, "b"], ["a", "b", None], ["b", "b", "a"]]):
        paths.append(str(tmp_path / f"n-{k}.parquet"))
        pl.DataFrame({"gold": ["a", "b", "a"], "pred": preds}).write_parquet(paths[-1])
    with pytest.raises(
        InputError, match=r"n-[01]\.parquet:[23]: the predicted label \('pred'\) is missing \(null\)"
    ) as info:
        cluster_cells(paths, ["gold", "pred"], ["gold", "predicted"], scheduler=client)
    assert info.value.source in paths[:2] and info.value.line in (2, 3)
    assert "\n" not in str(info.value)


def test_nan_label_is_an_input_error(client: Any, tmp_path: Path) -> None:
    # pandas NaN (a null once in Arrow) and a NaN stored in Parquet (a float value, not a null) are both missing
    ddf = dd.from_pandas(pd.DataFrame({"g": ["a", "b", "c", "d"], "p": [1.0, float("nan"), 2.0, 3.0]}), npartitions=2)
    with pytest.raises(InputError, match=r"<dask frame>: the predicted label \('p'\) is missing \(null\) in 1 row$"):
        frame_cells(ddf, ["g", "p"], ["gold", "predicted"], scheduler=client)
    path = str(tmp_path / "nan.parquet")
    pl.DataFrame({"g": [1.0, float("nan"), float("nan")], "p": [1.0, 2.0, 3.0]}).write_parquet(path)
    with pytest.raises(InputError, match=r"nan\.parquet:2: the gold label \('g'\) is missing \(null\)$"):
        cluster_cells([path], [1, 2], ["gold", "predicted"], scheduler=client)
    with pytest.raises(InputError, match=r"nan\.parquet:2: the gold label \('g'\) is missing \(null\)$"):
        read_cells(path, [1, 2], ["gold", "predicted"])  # the embedded engine says the same


def test_unknown_column(client: Any, data: dict) -> None:
    with pytest.raises(InputError, match="no column named 'nope' for the gold labels"):
        cluster_cells(data["parts"]["parquet"], ["nope", "pred"], ["gold", "predicted"], scheduler=client)
    with pytest.raises(InputError, match="the predicted column 99 does not exist"):
        cluster_cells(data["parts"]["csv"], [1, 99], ["gold", "predicted"], scheduler=client)


def test_missing_file_and_empty_glob(client: Any, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        cluster_cells([str(tmp_path / "absent.parquet")], [1, 2], ["gold", "predicted"], scheduler=client)
    with pytest.raises(InputError, match="no-such-"):
        cluster_cells([str(tmp_path / "no-such-*.parquet")], [1, 2], ["gold", "predicted"], scheduler=client)


def test_unreachable_scheduler_is_an_option_error(data: dict) -> None:
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "0.3s"}),
        pytest.raises(OptionError, match=r"could not connect to the dask scheduler at tcp://127\.0\.0\.1:1\b"),
    ):
        cluster_cells(data["parts"]["parquet"], [1, 2], ["gold", "predicted"], scheduler="tcp://127.0.0.1:1")


def test_missing_dask_is_an_option_error(monkeypatch: pytest.MonkeyPatch, data: dict) -> None:
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)  # import distributed → ImportError
    with pytest.raises(OptionError) as info:
        cluster_cells(data["parts"]["parquet"], [1, 2], ["gold", "predicted"])
    assert str(info.value) == DASK_HINT


# ---------------------------------------------------------------------------------------------
# Schedulers and the end result
# ---------------------------------------------------------------------------------------------


def test_scheduler_address_and_client(client: Any, data: dict) -> None:
    expected = _multiset(read_cells(data["whole"]["parquet"], ["gold", "pred"], ["gold", "predicted"]))
    by_address = cluster_cells(
        data["parts"]["parquet"], ["gold", "pred"], ["gold", "predicted"], scheduler=client.scheduler.address
    )
    by_client = cluster_cells(data["parts"]["parquet"], ["gold", "pred"], ["gold", "predicted"], scheduler=client)
    assert _multiset(by_address) == _multiset(by_client) == expected
    assert client.status == "running"  # a client that was passed in is left open


def test_local_cluster_for_the_call(data: dict) -> None:
    got = cluster_cells(data["parts"]["parquet"], ["gold", "pred"], ["gold", "predicted"])  # scheduler=None
    _same(got, read_cells(data["whole"]["parquet"], ["gold", "pred"], ["gold", "predicted"]))
    with pytest.raises(ValueError, match="No clients found"):
        distributed.default_client()  # the call's own client was not left behind as the default


def test_end_result_equals_count_file(client: Any, data: dict) -> None:
    cells = cluster_cells(
        data["parts"]["csv"], [1, 2], ["gold", "predicted"], TableOptions(header=True), scheduler=client
    )
    got = _to_counts(cells.rows, cells.counts, cells.source, None)
    expected = count_file(data["whole"]["csv"], gold_col=1, pred_col=2, options=TableOptions(header=True)).counts
    assert isinstance(got, ConfusionCounts) and isinstance(expected, ConfusionCounts)
    assert got.labels == expected.labels == tuple(sorted(LABELS))
    np.testing.assert_array_equal(got.cells, expected.cells)
    assert got.n_instances == N_ROWS


def test_end_result_multilabel_equals_count_file(client: Any, data: dict) -> None:
    cells = cluster_cells(
        data["parts"]["parquet"], ["gold_list", "pred_list"], ["gold", "predicted"], scheduler=client, empty_ok=True
    )
    got = _to_counts(cells.rows, cells.counts, cells.source, MultiLabel())
    expected = count_file(data["whole"]["csv"], gold_col="gold_set", pred_col="pred_set", labelsets=MultiLabel()).counts
    assert got.pairs == expected.pairs
    assert sum(got.pairs.values()) == N_ROWS


# ---------------------------------------------------------------------------------------------
# Every engine, end to end: the same counts and the same reports
# ---------------------------------------------------------------------------------------------


def _report(result: Any) -> dict:
    """A result's JSON without provenance (inputs, options), at every level."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("inputs", "options")}
        return value

    return strip(result.to_dict())


def test_every_engine_scores_single_label_parts_alike(client: Any, data: dict) -> None:
    import clfeval

    embedded_parts = clfeval.score(
        clfeval.read(data["parts"]["parquet"], gold_col="gold", pred_col="pred"),
        ci=clfeval.CI("bootstrap", resamples=300, seed=5),
    )
    one_file = clfeval.score(
        clfeval.read(data["whole"]["csv"], gold_col="gold", pred_col="pred"),
        ci=clfeval.CI("bootstrap", resamples=300, seed=5),
    )
    on_dask = clfeval.score(
        clfeval.read(
            str(data["root"] / "parts" / "part-*.parquet"),
            gold_col="gold",
            pred_col="pred",
            reading=clfeval.Reading(engine="dask", scheduler=client),
        ),
        ci=clfeval.CI("bootstrap", resamples=300, seed=5),
    )
    assert _report(embedded_parts) == _report(one_file) == _report(on_dask)
    assert on_dask.options["engine"] == "dask" and "engine" not in one_file.options


def test_every_engine_scores_multilabel_alike(client: Any, data: dict) -> None:
    import clfeval

    columns = dict(gold_col="gold_set", pred_col="pred_set")
    embedded = clfeval.score(clfeval.read(data["whole"]["csv"], **columns, reading=clfeval.Reading(multilabel=True)))
    on_dask = clfeval.score(
        clfeval.read(
            data["parts"]["csv"], **columns, reading=clfeval.Reading(engine="dask", scheduler=client, multilabel=True)
        )
    )
    lists = clfeval.score(
        clfeval.read(
            data["parts"]["parquet"],
            gold_col="gold_list",
            pred_col="pred_list",
            reading=clfeval.Reading(engine="dask", scheduler=client, multilabel=True),
        )
    )
    assert _report(embedded) == _report(on_dask) == _report(lists)
    assert embedded.task == "multi-label" and embedded.n_instances == N_ROWS


def test_every_engine_compares_alike(client: Any, data: dict) -> None:
    import clfeval

    columns = dict(gold_col="gold", pred_col=["pred", "predB"])
    options = dict(metrics=["macro.f1", "accuracy"], test=clfeval.Test(rounds=300, seed=9))
    embedded = clfeval.compare(clfeval.read(data["whole"]["parquet"], **columns), **options)
    on_dask = clfeval.compare(
        clfeval.read(data["parts"]["parquet"], **columns, reading=clfeval.Reading(engine="dask", scheduler=client)),
        **options,
    )
    assert _report(embedded) == _report(on_dask)
    counted = clfeval.counts_of_frame(
        dd.read_parquet(data["parts"]["parquet"]), gold_col="gold", pred_col=["pred", "predB"], scheduler=client
    )
    counts = counted.counts
    assert isinstance(counts, clfeval.JointCounts) and counts.systems == ("pred", "predB")
    from_frame = clfeval.compare(counted, **options)
    assert _report(from_frame)["pairs"] == _report(embedded)["pairs"]


def test_cli_engine_dask_on_its_own_local_cluster(data: dict, tmp_path: Path) -> None:
    from tests.conftest import run_cli

    pattern = str(data["root"] / "parts" / "part-*.parquet")
    out = run_cli(
        "count",
        pattern,
        "--gold-col",
        "gold",
        "--pred-col",
        "pred",
        "--engine",
        "dask",
        "-o",
        str(tmp_path / "dask.json"),
    )
    assert out.returncode == 0, out.stderr
    embedded = run_cli(
        "count",
        data["whole"]["parquet"],
        "--gold-col",
        "gold",
        "--pred-col",
        "pred",
        "-o",
        str(tmp_path / "embedded.json"),
    )
    assert embedded.returncode == 0, embedded.stderr
    import json

    a, b = (json.loads((tmp_path / f).read_text()) for f in ("dask.json", "embedded.json"))
    assert (a["labels"], a["cells"], a["n_instances"]) == (b["labels"], b["cells"], b["n_instances"])
    assert a["options"] == {"engine": "dask"} and a["inputs"] == {"file": pattern}
    paired = run_cli("score", data["whole"]["tsv"], data["whole"]["tsv"], "--engine", "dask")
    assert paired.returncode == 2 and "needs the embedded engine" in paired.stderr.decode()


def test_finagle_on_dask_equals_the_embedded_reader(client: Any, tmp_path: Path) -> None:
    """Confidence columns through the cluster (rows come back as tuples, not a frame) give the same scorings."""
    import clfeval

    rng = np.random.default_rng(77)
    n = 3_000
    gold = rng.choice(LABELS, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(LABELS, n))
    conf = np.round(rng.random(n), 2)
    parts = []
    for i, chunk in enumerate(np.array_split(np.arange(n), 3)):
        path = tmp_path / f"conf-{i}.parquet"
        pl.DataFrame({"gold": gold[chunk], "pred": pred[chunk], "conf": conf[chunk]}).write_parquet(path)
        parts.append(str(path))
    columns = dict(gold_col="gold", pred_col="pred", conf_col="conf")
    embedded = clfeval.finagle(clfeval.read_confidences(parts, **columns), expected_accuracy=0.5)
    on_dask = clfeval.finagle(
        clfeval.read_confidences(parts, **columns, reading=clfeval.Reading(engine="dask", scheduler=client)),
        expected_accuracy=0.5,
    )
    assert on_dask.moved == embedded.moved and on_dask.threshold == embedded.threshold
    for name in ("normal", "changed", "upper"):
        assert on_dask.scenarios[name].averages == embedded.scenarios[name].averages


def test_dask_engine_with_a_block_column(tmp_path: Path) -> None:
    """--engine dask --block-col always said 'holds no instances': the Dask rows had no counted frame."""
    from tests.conftest import cli_json

    (tmp_path / "bc.csv").write_text("s,g,p\n1,a,a\n1,b,a\n2,a,a\n3,b,b\n3,a,b\n")
    args = ["score", "bc.csv", "--block-col", "s", "--gold-col", "g", "--pred-col", "p", "--ci", "delta"]
    local = cli_json(*args, cwd=tmp_path)
    dask_result = cli_json(*args, "--engine", "dask", cwd=tmp_path)
    assert dask_result["ci"]["n_units"] == local["ci"]["n_units"] == 3
    assert dask_result["averages"] == local["averages"]


def test_dask_engine_input_errors_are_one_line(tmp_path: Path) -> None:
    """The local cluster's workers logged each failed task with a traceback before the one-line error."""
    from tests.conftest import cli_error, run_cli_process

    (tmp_path / "bad.txt").write_text("a a\nb\n")
    cli_error(
        run_cli_process("score", "bad.txt", "--engine", "dask", cwd=tmp_path), "bad.txt:2: expected at least 2 fields"
    )


@pytest.fixture
def fragile() -> Any:
    """A one-worker cluster whose scheduler gives a task up when its worker dies once (allowed-failures 0)."""
    with fragile_cluster() as client:
        yield client


def test_a_worker_lost_beyond_its_retries_is_a_one_line_error_naming_the_file(fragile: Any, tmp_path: Path) -> None:
    """A worker that dies while it counts a file (here: blocked reading a named pipe, then ended) makes the scheduler
    give the task up (KilledWorker): the command says so on one line, naming the file, exit 2, no traceback."""
    import os

    from tests.conftest import run_cli_process

    pipe = tmp_path / "part-1.tsv"
    os.mkfifo(pipe)
    kill_workers_once_busy(fragile)
    done = run_cli_process("score", str(pipe), "--engine", "dask", "--scheduler", fragile.scheduler.address)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    lines = [line for line in err.splitlines() if line.startswith("clfeval: error:")]
    assert len(lines) == 1 and f"{pipe}: a Dask worker died while counting it 1 time(s)" in lines[0], err
    assert "KilledWorker" in lines[0] and "Traceback" not in err


def test_a_lost_worker_names_the_partition_of_a_frame(fragile: Any) -> None:
    """The same through a Dask DataFrame: the error names the partition whose task was given up."""
    import time

    import clfeval

    def slow() -> pd.DataFrame:
        time.sleep(60)  # ended by the worker's death long before
        return pd.DataFrame({"gold": ["a"], "pred": ["a"]})

    parts = [dask.delayed(slow)()]
    frame = dd.from_delayed(parts, meta=pd.DataFrame({"gold": pd.Series(dtype=str), "pred": pd.Series(dtype=str)}))
    kill_workers_once_busy(fragile)
    with pytest.raises(InputError, match=r"partition 0 of .*a Dask worker died while counting it 1 time\(s\)"):
        clfeval.counts_of_frame(frame, gold_col="gold", pred_col="pred", scheduler=fragile)
