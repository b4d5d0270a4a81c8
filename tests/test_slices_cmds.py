"""Scores by group on the command line's ``cv`` and ``compare``: ``clfeval cv TABLE --fold-col --group-col`` gives the
numbers of ``clfeval.cv(gold, pred, folds, groups=...)`` and ``clfeval compare TABLE --pred-col A --pred-col B
--group-col`` those of ``clfeval.compare(gold, systems, groups=...)`` on the same data, run as a real process
(``python -m clfeval``); what they do not take by group is refused in one line, exit 2, nothing written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval

LABELS = ["cat", "dog", "bird"]


def _table(seed: int, n: int) -> dict[str, list[Any]]:
    """Random gold labels, two systems' predictions, two group columns, a fold and a weight per instance."""
    rng = np.random.default_rng(seed)
    gold = rng.choice(LABELS, n)
    return {
        "gold": gold.tolist(),
        "a": np.where(rng.random(n) < 0.7, gold, rng.choice(LABELS, n)).tolist(),
        "b": np.where(rng.random(n) < 0.55, gold, rng.choice(LABELS, n)).tolist(),
        "lang": rng.choice(["de", "en", "fr"], n, p=[0.5, 0.3, 0.2]).tolist(),
        "site": rng.choice(["1", "2", "10"], n).tolist(),  # numbers: ordered 1, 2, 10
        "fold": rng.choice(["1", "2", "3", "4"], n).tolist(),
        "w": rng.choice([0.5, 1.0, 2.0], n).tolist(),
    }


def _write(path: Path, table: dict[str, list[Any]]) -> str:
    lines = ["\t".join(table)] + ["\t".join(str(table[c][i]) for c in table) for i in range(len(table["gold"]))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True, timeout=120)


def _json(*args: str) -> dict[str, Any]:
    out = _run(*args, "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _numbers(doc: dict[str, Any]) -> dict[str, Any]:
    """A result by group without where its inputs came from (a file, or arrays; weights' column or keyword)."""
    doc = json.loads(json.dumps(doc).replace("sample weights (w)", "sample weights (sample_weight=)"))
    out = dict(doc)
    for key in ("overall", "by_group"):
        if key == "overall":
            out[key] = {k: v for k, v in doc[key].items() if k not in ("inputs", "options")}
        else:
            out[key] = {g: {k: v for k, v in r.items() if k not in ("inputs", "options")}
                        for g, r in doc[key].items()}  # fmt: skip
    return out


CV_CASES = [
    pytest.param({"columns": ["lang"], "seed": 3}, id="one-column"),
    pytest.param({"columns": ["lang", "site"], "seed": 8, "ci": True}, id="intersections-bootstrap"),
    pytest.param({"columns": ["site"], "seed": 11, "weights": True, "test": "bootstrap"}, id="weights"),
    pytest.param({"columns": ["lang"], "seed": 13, "sets": True}, id="label-sets"),
]


@pytest.mark.parametrize("case", CV_CASES)
def test_cv_by_group_equals_python(tmp_path: Path, case: dict[str, Any]) -> None:
    """Each group's counts pooled over the folds, gaps, tests and the folds' note: the very JSON of cv(groups=)."""
    table = _table(case["seed"], 400)
    if case.get("sets"):  # label sets: a cell of comma-separated labels
        rng = np.random.default_rng(case["seed"])
        for column in ("gold", "a"):
            table[column] = [",".join(sorted(set(rng.choice(LABELS, rng.integers(1, 3)).tolist()))) for _ in range(400)]
    path = _write(tmp_path / "cv.tsv", table)
    args = ["cv", path, "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--rounds", "200",
            "--seed", str(case["seed"]), "--group-metric", "accuracy", "--group-metric", "macro.f1"]  # fmt: skip
    kw: dict[str, Any] = {"seed": case["seed"], "rounds": 200, "metrics": ["accuracy", "macro.f1"]}
    for column in case["columns"]:
        args += ["--group-col", column]
    if case.get("ci"):
        args += ["--ci", "bootstrap", "--resamples", "200"]
        kw.update(ci="bootstrap", resamples=200)
    if case.get("weights"):
        args += ["--weight-col", "w"]
        kw["sample_weight"] = table["w"]
    if case.get("test"):
        args += ["--group-test", case["test"]]
        kw["test"] = case["test"]
    if case.get("sets"):
        args += ["--multilabel"]
        kw["multilabel"] = True
    doc = _json(*args)
    groups = {c: table[c] for c in case["columns"]}
    gold, pred = ([c.split(",") for c in table[k]] if case.get("sets") else table[k] for k in ("gold", "a"))
    expected = json.loads(clfeval.cv(gold, pred, table["fold"], groups=groups, **kw).to_json())
    assert doc["schema"] == "clfeval.slices/1"
    assert _numbers(doc) == _numbers(expected)
    sizes = ", ".join(f"{f} ({table['fold'].count(f)})" for f in ["1", "2", "3", "4"])
    assert any(f"4 folds pooled (instances per fold: {sizes})" in note for note in doc["notes"])
    assert doc["overall"]["inputs"]["fold_col"] == "fold"


def test_cv_by_group_pools_folds_as_score_does(tmp_path: Path) -> None:
    """The fold column changes no count: cv by group is score --group-col of the table, and a fold is not a group."""
    table = _table(5, 300)
    path = _write(tmp_path / "cv.tsv", table)
    common = ["--gold-col", "gold", "--pred-col", "a", "--group-col", "lang", "--rounds", "200", "--seed", "2"]
    by_cv = _json("cv", path, "--fold-col", "fold", *common)
    by_score = _json("score", path, *common)
    assert _numbers(by_cv)["by_group"] == _numbers(by_score)["by_group"]
    assert by_cv["gaps"] == by_score["gaps"] and by_cv["tests"] == by_score["tests"]
    text = _run("cv", path, "--fold-col", "fold", *common)
    assert text.returncode == 0, text.stderr
    assert "cross-validation: 4 folds pooled" in text.stdout and "de" in text.stdout


COMPARE_CASES = [
    pytest.param({"columns": ["lang"], "seed": 4, "extra": []}, id="one-column"),
    pytest.param(
        {
            "columns": ["lang", "site"],
            "seed": 9,
            "extra": ["--metric", "accuracy", "--test", "bootstrap", "--name", "X", "--name", "Y", "--baseline", "Y"],
        },
        id="intersections-bootstrap-names",
    ),
]


@pytest.mark.parametrize("case", COMPARE_CASES)
def test_compare_by_group_equals_python(tmp_path: Path, case: dict[str, Any]) -> None:
    """Each group's comparison of the systems and Holm over the groups: the very JSON of compare(groups=)."""
    table = _table(case["seed"], 300)
    path = _write(tmp_path / "cmp.tsv", table)
    args = ["compare", path, "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--rounds", "200",
            "--seed", str(case["seed"]), *case["extra"]]  # fmt: skip
    for column in case["columns"]:
        args += ["--group-col", column]
    doc = _json(*args)
    groups = {c: table[c] for c in case["columns"]}
    if "--name" in case["extra"]:
        systems = {"X": table["a"], "Y": table["b"]}
        kw: dict[str, Any] = {"metrics": ["accuracy"], "test": "bootstrap", "baseline": "Y"}
    else:
        systems, kw = {"a": table["a"], "b": table["b"]}, {}
    expected = clfeval.compare(table["gold"], systems, groups=groups, seed=case["seed"], rounds=200, **kw)
    assert doc["schema"] == "clfeval.compare-slices/1"
    read = doc["notes"].pop()
    assert read.startswith(f"read from {path}: gold column gold, systems ") and "column a" in read
    assert doc == json.loads(expected.to_json())
    text = _run(*args)
    assert text.returncode == 0 and "comparison by group" in text.stdout


ERRORS = [
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "lang",
      "--engine", "dask"], "--engine dask"),
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "lang", "--spans"],
     "--spans"),
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "lang",
      "--block-col", "site"], "--block-col"),
    (["compare", "--counts", "{t}", "--group-col", "lang"], "--counts"),
    (["compare", "{t}", "--gold-col", "gold", "--scores", "A=a", "--scores", "B=b", "--group-col", "lang"],
     "--scores"),
    (["compare", "{t}", "{t}", "{t}", "--group-col", "lang"], "prediction files"),
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang"], "a predicted column per"),
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "nope"], "'nope'"),
    (["compare", "{t}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "gold"],
     "a column of its own"),
    (["compare", "{e}", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b", "--group-col", "lang"],
     "e.tsv:3: the predicted label in column 'a' is missing"),
    (["cv", "{t}", "{t}", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang"], "one file per fold"),
    (["cv", "{t}", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang", "--spans"],
     "--spans"),
    (["cv", "{t}", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--group-col", "fold"],
     "fold column and as a group column"),
    (["cv", "{t}", "--fold-col", "nope", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang"],
     "no column named 'nope' for the fold"),
    (["cv", "{t}", "--fold-col", "fold", "--group-col", "lang"], "--gold-col, --pred-col"),
    (["cv", "{t}", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--rounds", "5"], "--group-col"),
    (["cv", "{t}", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang",
      "--warn-above", "0.1"], "--warn-above"),
    (["cv", "{e}", "--fold-col", "fold", "--gold-col", "gold", "--pred-col", "a", "--group-col", "lang"],
     "e.tsv:3"),
]  # fmt: skip


def test_errors_are_one_line_exit_2_nothing_written(tmp_path: Path) -> None:
    table = _table(1, 60)
    t = _write(tmp_path / "t.tsv", table)
    e = tmp_path / "e.tsv"
    e.write_text("gold\ta\tb\tlang\tfold\ncat\tcat\tdog\tde\t1\ndog\t\tcat\ten\t\n", encoding="utf-8")
    for n, (given, expected) in enumerate(ERRORS):
        written = tmp_path / f"out{n}.json"
        out = _run(*(a.format(t=t, e=e) for a in given), "-o", str(written))
        assert out.returncode == 2, (given, out.stderr)
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in out.stderr, (given, out.stderr)
        assert expected in lines[0], (given, lines[0])
        assert out.stdout == "" and not written.exists()
