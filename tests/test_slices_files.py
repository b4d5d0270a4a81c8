"""Scores by group from files: a table's group columns counted with its labels in bounded memory (the engine's
distinct rows, split per group), on the command line, in count files and on a Dask cluster — each seam giving the
very numbers of ``score(gold, pred, groups=...)`` on the same data in memory."""

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
from clfeval.errors import InputError, OptionError
from tests.conftest import run_cli

LABELS = ["cat", "dog", "bird"]


def _table(rng: np.random.Generator, n: int, *, sets: bool = False) -> dict[str, list[Any]]:
    """Random gold and predicted labels (or label sets), two group columns and a weight per instance."""
    if sets:
        gold = [sorted(set(rng.choice(LABELS, rng.integers(1, 3)).tolist())) for _ in range(n)]
        pred = [sorted(set(rng.choice(LABELS, rng.integers(1, 3)).tolist())) for _ in range(n)]
    else:
        gold = rng.choice(LABELS, n).tolist()
        pred = np.where(rng.random(n) < 0.65, gold, rng.choice(LABELS, n)).tolist()
    return {
        "gold": gold,
        "pred": pred,
        "lang": rng.choice(["de", "en", "fr", "nl"], n, p=[0.4, 0.3, 0.2, 0.1]).tolist(),
        "site": rng.choice(["1", "2", "10"], n).tolist(),  # numbers: ordered 1, 2, 10
        "w": rng.choice([0.5, 1.0, 2.0], n).tolist(),
    }


def _write(path: Path, table: dict[str, list[Any]], rows: slice = slice(None)) -> Path:
    """The table as a TSV file with a header (label sets joined with commas)."""
    cell = lambda v: ",".join(v) if isinstance(v, list) else str(v)  # noqa: E731
    lines = ["\t".join(table)] + ["\t".join(cell(table[c][i]) for c in table) for i in range(len(table["gold"]))[rows]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reading(columns: list[str], **kwargs: Any) -> clfeval.Reading:
    return clfeval.Reading(group_col=columns, **kwargs)


CASES = [
    pytest.param({"columns": ["lang"]}, id="labels"),
    pytest.param({"columns": ["lang", "site"]}, id="intersections"),
    pytest.param({"columns": ["lang"], "sets": True}, id="label-sets"),
    pytest.param({"columns": ["site"], "weights": True}, id="weights"),
    pytest.param({"columns": ["lang"], "sets": True, "weights": True}, id="label-sets-weights"),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", [3, 17])
def test_file_equals_arrays(tmp_path: Path, case: dict[str, Any], seed: int) -> None:
    """A table read with group columns gives every number of the arrays' groups: per group, gaps with bootstrap
    intervals, permutation tests, Holm (the same seed spawns the same draws)."""
    rng = np.random.default_rng(seed)
    sets, weights = case.get("sets", False), case.get("weights", False)
    table = _table(rng, 600, sets=sets)
    path = _write(tmp_path / "t.tsv", table)
    reading = _reading(case["columns"], multilabel=True if sets else None, weight_col="w" if weights else None)
    counted = clfeval.read(str(path), gold_col="gold", pred_col="pred", reading=reading)
    assert counted.group_columns == tuple(case["columns"])
    assert counted.groups is not None and counted.counts is not None
    assert sum(c.n_instances for c in counted.groups.values()) == counted.counts.n_instances == 600
    options = dict(ci="bootstrap", seed=seed, resamples=200, rounds=200)
    from_file = clfeval.score(counted, **options)
    groups = {c: table[c] for c in case["columns"]}
    from_arrays = clfeval.score(
        table["gold"], table["pred"], groups=groups, multilabel=True if sets else None,
        sample_weight=table["w"] if weights else None, **options,
    )  # fmt: skip
    assert from_file.names == from_arrays.names
    assert from_file.flat() == from_arrays.flat()
    assert from_file.to_dict()["groups"] == from_arrays.to_dict()["groups"]


def test_groups_are_ordered_and_named_by_the_one_rule(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    table = _table(rng, 300)
    counted = clfeval.read(
        str(_write(tmp_path / "t.tsv", table)), gold_col="gold", pred_col="pred", reading=_reading(["site", "lang"])
    )
    index = clfeval.score(table["gold"], table["pred"], groups={"site": table["site"], "lang": table["lang"]},
                          seed=1, rounds=10)  # fmt: skip
    assert tuple(counted.groups or ()) == index.names
    names = list(counted.groups or ())
    assert names[0] == "1&de" and names[-1].startswith("10&")
    assert counted.group_values is not None and counted.group_values["1&de"] == ("1", "de")
    assert counted.options["group_col"] == ["site", "lang"]


def test_fold_column_is_read_by_the_same_path(tmp_path: Path) -> None:
    """cv's fold column and group columns share one counter: the folds' counts are the groups'."""
    rng = np.random.default_rng(4)
    table = _table(rng, 300)
    path = str(_write(tmp_path / "t.tsv", table))
    folds = clfeval.read_folds([path], fold_col="lang", gold_col="gold", pred_col="pred")
    grouped = clfeval.read(path, gold_col="gold", pred_col="pred", reading=_reading(["lang"]))
    assert folds.folds is not None and grouped.groups is not None
    assert list(folds.folds) == list(grouped.groups)
    for name, counts in folds.folds.items():
        assert sorted(counts.entries()) == sorted(grouped.groups[name].entries())


def _cli_json(*args: str) -> dict[str, Any]:
    out = run_cli(*args)
    assert out.returncode == 0, out.stderr.decode()
    return json.loads(out.stdout)


def _numbers(doc: dict[str, Any]) -> dict[str, Any]:
    """What a result by group computes (not where its inputs came from, which its notes name)."""
    keep = ("by_group", "gaps", "tests", "groups", "group_columns", "metrics", "fairness", "n_instances")
    out = {k: doc[k] for k in keep}
    out["by_group"] = {g: {k: v for k, v in r.items() if k not in ("inputs", "options", "notes")} for g, r in
                       doc["by_group"].items()}  # fmt: skip
    return out


def test_cli_count_file_and_arrays_agree(tmp_path: Path) -> None:
    """The same data through arrays, `clfeval score FILE --group-col`, and a count file written by `clfeval count
    --group-col` (one, or two count files of halves added group by group): the same JSON numbers."""
    rng = np.random.default_rng(8)
    table = _table(rng, 800)
    whole = _write(tmp_path / "whole.tsv", table)
    _write(tmp_path / "a.tsv", table, slice(0, 500))
    _write(tmp_path / "b.tsv", table, slice(500, None))
    cols = ["--gold-col", "gold", "--pred-col", "pred"]
    grouping = ["--group-col", "lang", "--group-col", "site"]
    tests = ["--seed", "5", "--rounds", "300", "--group-test", "bootstrap", "--group-metric", "accuracy",
             "--group-metric", "macro.f1", "--ci", "bootstrap", "--resamples", "300", "--format", "json"]  # fmt: skip
    from_file = _cli_json("score", str(whole), *cols, *grouping, *tests)
    arrays = clfeval.score(
        table["gold"], table["pred"], groups={"lang": table["lang"], "site": table["site"]}, seed=5, rounds=300,
        test="bootstrap", metrics=["accuracy", "macro.f1"], ci="bootstrap", resamples=300,
    )  # fmt: skip
    expected = _numbers(json.loads(arrays.to_json()))
    assert _numbers(from_file) == expected
    assert from_file["overall"]["inputs"]["file"] == str(whole)
    assert from_file["overall"]["options"]["group_col"] == ["lang", "site"]
    for part in ("whole", "a", "b"):
        out = run_cli("count", str(tmp_path / f"{part}.tsv"), *cols, *grouping, "-o", str(tmp_path / f"{part}.json"))
        assert out.returncode == 0, out.stderr.decode()
    doc = json.loads((tmp_path / "whole.json").read_text())
    assert doc["group_columns"] == ["lang", "site"] and doc["n_instances"] == 800
    assert {"name", "values", "counts"} <= doc["groups"][0].keys()
    assert doc["groups"][0]["counts"]["kind"] == "confusion"
    one = _cli_json("score", "--counts", str(tmp_path / "whole.json"), *tests)
    halves = _cli_json("score", "--counts", str(tmp_path / "a.json"), str(tmp_path / "b.json"), *tests)
    assert _numbers(one) == _numbers(halves) == expected
    loaded = clfeval.load_counts([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert loaded.group_columns == ("lang", "site")
    again = clfeval.score(loaded, seed=5, rounds=300, test="bootstrap", metrics=["accuracy", "macro.f1"],
                          ci="bootstrap", resamples=300)  # fmt: skip
    assert again.flat() == arrays.flat()


def test_count_file_round_trip_python(tmp_path: Path) -> None:
    rng = np.random.default_rng(12)
    table = _table(rng, 400, sets=True)
    path = str(_write(tmp_path / "t.tsv", table))
    counted = clfeval.read(path, gold_col="gold", pred_col="pred", reading=_reading(["lang"], multilabel=True))
    clfeval.save_counts(counted, str(tmp_path / "c.json"))
    loaded = clfeval.load_counts(str(tmp_path / "c.json"))
    assert loaded.groups is not None and counted.groups is not None
    assert list(loaded.groups) == list(counted.groups)
    for name in counted.groups:
        assert loaded.groups[name].n_instances == counted.groups[name].n_instances
    assert clfeval.score(loaded, seed=2, rounds=50).flat() == clfeval.score(counted, seed=2, rounds=50).flat()


def test_cli_weights_and_label_sets(tmp_path: Path) -> None:
    rng = np.random.default_rng(21)
    table = _table(rng, 500, sets=True)
    path = str(_write(tmp_path / "t.tsv", table))
    doc = _cli_json("score", path, "--gold-col", "gold", "--pred-col", "pred", "--group-col", "lang", "--multilabel",
                    "--weight-col", "w", "--seed", "3", "--rounds", "100", "--format", "json")  # fmt: skip
    arrays = clfeval.score(table["gold"], table["pred"], groups={"lang": table["lang"]}, multilabel=True,
                           sample_weight=table["w"], seed=3, rounds=100)  # fmt: skip
    assert _numbers(doc) == _numbers(json.loads(arrays.to_json()))
    assert doc["overall"]["inputs"]["sample_weight"]["source"] == "w"
    assert any("sample weights (w)" in note for note in doc["by_group"]["de"]["notes"])
    out = run_cli("count", path, "--gold-col", "gold", "--pred-col", "pred", "--group-col", "lang", "--multilabel",
                  "--weight-col", "w", "-o", str(tmp_path / "c.json"))  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    counted = _cli_json("score", "--counts", str(tmp_path / "c.json"), "--seed", "3", "--rounds", "100", "--format",
                        "json")  # fmt: skip
    assert _numbers(counted) == _numbers(doc)
    assert counted["overall"]["inputs"]["sample_weight"]["source"] == "w"
    assert any("sample weights (w)" in note for note in counted["by_group"]["de"]["notes"])


def test_invalid_predictions_by_group(tmp_path: Path) -> None:
    """--invalid wrong: an empty prediction is the label (invalid) in its group, as in memory."""
    path = tmp_path / "t.csv"
    path.write_text("gold,pred,g\na,a,x\nb,,x\na,b,y\nb,b,y\na,,y\n", encoding="utf-8")
    doc = _cli_json("score", str(path), "--gold-col", "gold", "--pred-col", "pred", "--group-col", "g",
                    "--invalid", "wrong", "--seed", "1", "--rounds", "20", "--format", "json")  # fmt: skip
    arrays = clfeval.score(["a", "b", "a", "b", "a"], ["a", None, "b", "b", None], groups=["x", "x", "y", "y", "y"],
                           invalid="wrong", seed=1, rounds=20)  # fmt: skip
    assert doc["by_group"]["x"]["averages"] == json.loads(arrays.to_json())["by_group"]["x"]["averages"]
    out = run_cli("count", str(path), "--gold-col", "gold", "--pred-col", "pred", "--group-col", "g", "--invalid",
                  "wrong", "-o", str(tmp_path / "c.json"))  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    held = json.loads((tmp_path / "c.json").read_text())
    assert "(invalid)" in held["groups"][1]["counts"]["labels"]


def _error(*args: str) -> str:
    out = run_cli(*args)
    err = out.stderr.decode()
    assert out.returncode == 2, (out.returncode, err)
    assert err.count("\n") == 1 and err.startswith("clfeval: error: ") and "Traceback" not in err, err
    return err


def test_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    table = _table(rng, 60)
    path = str(_write(tmp_path / "t.tsv", table))
    cols = ["--gold-col", "gold", "--pred-col", "pred"]
    assert "no column named 'nope'" in _error("score", path, *cols, "--group-col", "nope", "--format", "json")
    assert "t.tsv" in _error("score", path, *cols, "--group-col", "nope")
    # spans and scores by group are read from their own files (tests/test_slices_cli_kinds.py): a TSV of labels is not
    # CoNLL, and --scores takes the place of --pred-col
    assert "CoNLL" in _error("score", path, *cols, "--group-col", "lang", "--spans")
    assert "--scores" in _error("score", path, *cols, "--group-col", "lang", "--scores", "gold")
    assert "--matrix" in _error("score", "--matrix", path, "--group-col", "lang")
    assert "GOLD PRED" in _error("score", path, path, "--group-col", "lang")
    assert "--block-col" in _error("score", path, *cols, "--group-col", "lang", "--block-col", "site")
    assert "--group-col" in _error("score", path, *cols, "--group-test", "delta")
    assert "--gold-col" in _error("score", path, "--group-col", "lang", "--format", "json")
    assert "once" in _error("score", path, *cols, "--group-col", "lang", "--group-col", "lang")
    assert "several systems" in _error("count", path, "--gold-col", "gold", "--pred-col", "pred", "--pred-col",
                                       "pred", "--group-col", "lang")  # fmt: skip
    assert "gold and group columns" in _error("score", path, *cols, "--group-col", "gold", "--format", "json")
    single = tmp_path / "single.tsv"
    single.write_text("gold\tpred\tg\na\ta\tx\nb\ta\tx\n", encoding="utf-8")
    assert "one group only" in _error("score", str(single), *cols, "--group-col", "g", "--format", "json")
    empty = tmp_path / "empty.tsv"
    empty.write_text("gold\tpred\tg\na\ta\tx\nb\ta\t\na\tb\ty\n", encoding="utf-8")
    err = _error("score", str(empty), *cols, "--group-col", "g", "--multilabel", "--format", "json")
    assert "empty.tsv:3" in err and "group" in err
    assert "empty.tsv:3" in _error("score", str(empty), *cols, "--group-col", "g", "--format", "json")


def test_count_file_errors(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    table = _table(rng, 100)
    path = str(_write(tmp_path / "t.tsv", table))
    cols = ["--gold-col", "gold", "--pred-col", "pred"]
    for name, extra in (("lang", ["--group-col", "lang"]), ("site", ["--group-col", "site"]), ("plain", [])):
        assert run_cli("count", path, *cols, *extra, "-o", str(tmp_path / f"{name}.json")).returncode == 0
    lang, site, plain = (str(tmp_path / f"{n}.json") for n in ("lang", "site", "plain"))
    assert "same group columns" in _error("score", "--counts", lang, site, "--format", "json")
    assert "without groups" in _error("score", "--counts", lang, plain, "--format", "json")
    assert "by group" in _error("score", "--counts", plain, lang, "--format", "json")
    assert "other groups" in _error("score", "--counts", lang, "--group-col", "site", "--format", "json")
    assert "cv does not take them" in _error("cv", "--counts", lang, lang)
    assert "compare does not take them" in _error("compare", "--counts", lang)
    doc = json.loads(Path(lang).read_text())
    del doc["groups"][0]["counts"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert "bad.json" in _error("score", "--counts", str(bad), "--format", "json")
    with pytest.raises(InputError, match="groups\\[0\\]"):
        clfeval.load_counts(str(bad))
    doc = json.loads(Path(lang).read_text())
    doc["n_instances"] += 1
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match="n_instances"):
        clfeval.load_counts(str(bad))


def test_python_errors(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    table = _table(rng, 80)
    path = str(_write(tmp_path / "t.tsv", table))
    with pytest.raises(OptionError, match="--gold-col"):
        clfeval.read(path, reading=_reading(["lang"]))
    with pytest.raises(OptionError, match="blocks"):
        clfeval.Reading(group_col="lang", block_col="site")
    counted = clfeval.read(path, gold_col="gold", pred_col="pred", reading=_reading(["lang"]))
    with pytest.raises(OptionError, match="pred"):
        clfeval.score(counted, table["pred"])
    with pytest.raises(OptionError, match="sample_weight"):
        clfeval.score(counted, sample_weight=table["w"])
    with pytest.raises(OptionError, match="groups"):
        clfeval.score(counted, groups=table["lang"])


def test_real_process(tmp_path: Path) -> None:
    """The command as a process (python -m clfeval, this tree's sources): exit 0 and JSON; exit 2 and one line."""
    rng = np.random.default_rng(9)
    table = _table(rng, 200)
    path = str(_write(tmp_path / "t.tsv", table))
    src = str(Path(clfeval.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    base = [sys.executable, "-m", "clfeval", "score", path, "--gold-col", "gold", "--pred-col", "pred"]
    ok = subprocess.run([*base, "--group-col", "lang", "--format", "json", "--rounds", "50", "--seed", "1"],
                        capture_output=True, env=env, timeout=120)  # fmt: skip
    assert ok.returncode == 0, ok.stderr.decode()
    assert json.loads(ok.stdout)["group_columns"] == ["lang"]
    bad = subprocess.run([*base, "--group-col", "nope"], capture_output=True, env=env, timeout=120)
    assert bad.returncode == 2 and bad.stderr.decode().count("\n") == 1


@pytest.fixture(scope="module")
def client(dask_client: Any) -> Any:
    """The session's real two-process local cluster (conftest.py)."""
    return dask_client


@pytest.mark.cluster
def test_dask_counts_groups_where_they_lie(client: Any, tmp_path: Path) -> None:
    """Parquet parts counted by group on a cluster: each part's distinct (gold, pred, group…) rows where it lies,
    merged; equal to the embedded reader and to the arrays."""
    pl = pytest.importorskip("polars")
    rng = np.random.default_rng(30)
    table = _table(rng, 3000)
    frame = pl.DataFrame({k: v for k, v in table.items() if k != "w"}).with_columns(pl.col("site").cast(pl.Int64))
    (tmp_path / "parts").mkdir()
    for i in range(4):
        frame[i * 750 : (i + 1) * 750].write_parquet(tmp_path / "parts" / f"part-{i}.parquet")
    pattern = str(tmp_path / "parts" / "part-*.parquet")
    options = dict(seed=4, rounds=200, ci="bootstrap", resamples=200)
    on_dask = clfeval.read(pattern, gold_col="gold", pred_col="pred",
                           reading=_reading(["lang", "site"], engine="dask", scheduler=client))  # fmt: skip
    embedded = clfeval.read(pattern, gold_col="gold", pred_col="pred", reading=_reading(["lang", "site"]))
    arrays = clfeval.score(table["gold"], table["pred"], groups={"lang": table["lang"], "site": table["site"]},
                           **options)  # fmt: skip
    assert list(on_dask.groups or ()) == list(embedded.groups or ()) == list(arrays.names)
    assert clfeval.score(on_dask, **options).flat() == clfeval.score(embedded, **options).flat() == arrays.flat()
    assert on_dask.options["engine"] == "dask"


@pytest.mark.cluster
def test_cli_engine_dask_by_group(tmp_path: Path) -> None:
    """`count --engine dask --group-col` on its own local cluster writes the count file of the embedded engine."""
    rng = np.random.default_rng(31)
    table = _table(rng, 1200)
    for i, rows in enumerate((slice(0, 500), slice(500, 900), slice(900, None))):
        _write(tmp_path / f"part-{i}.tsv", table, rows)
    parts = [str(tmp_path / f"part-{i}.tsv") for i in range(3)]
    args = ["--parts", "--gold-col", "gold", "--pred-col", "pred", "--group-col", "lang", "--group-col", "site"]
    for engine in ("dask", "polars"):
        out = run_cli("count", *parts, *args, "--engine", engine, "-o", str(tmp_path / f"{engine}.json"))
        assert out.returncode == 0, out.stderr.decode()
    dask, embedded = (json.loads((tmp_path / f"{e}.json").read_text()) for e in ("dask", "polars"))
    assert dask["groups"] == embedded["groups"] and dask["n_instances"] == 1200
    assert dask["options"]["engine"] == "dask"
