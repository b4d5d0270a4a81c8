"""Count files (``clfeval.counts/1``): written by ``clfeval count``, added up in any order, scored like the whole."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.errors import InputError
from tests.conftest import run_cli


def _write_parts(tmp_path: Path, n: int = 600, parts: int = 3, seed: int = 11, multilabel: bool = False,
                 systems: int = 1) -> tuple[Path, list[Path]]:
    """A TSV table (gold, one predicted column per system) and the same rows split into parts."""
    rng = random.Random(seed)
    labels = ["A", "B", "C", "D"]
    lines = []
    for i in range(n):
        if multilabel:
            gold = ",".join(sorted(rng.sample(labels, rng.randint(0, 2))))
            preds = [",".join(sorted(rng.sample(labels, rng.randint(0, 2)))) for _ in range(systems)]
        else:
            # part k sees only some labels, so adding counts must align label sets
            pool = labels[: 2 + (i * parts // n)]
            gold = rng.choice(pool)
            preds = [gold if rng.random() < 0.7 else rng.choice(pool) for _ in range(systems)]
        lines.append("\t".join([gold, *preds]))
    header = "\t".join(["gold"] + [f"sys{k}" for k in range(systems)])
    whole = tmp_path / "whole.tsv"
    whole.write_text(header + "\n" + "\n".join(lines) + "\n")
    paths = []
    for k in range(parts):
        path = tmp_path / f"part-{k}.tsv"
        path.write_text(header + "\n" + "\n".join(lines[k * n // parts:(k + 1) * n // parts]) + "\n")
        paths.append(path)
    return whole, paths


def _comparable(data: dict) -> dict:
    """A result without its provenance (inputs, options, warnings), at every level."""
    return {k: _comparable(v) if isinstance(v, dict) else v for k, v in data.items()
            if k not in ("inputs", "options", "warnings")}


def test_count_files_add_up_to_the_whole_in_any_order(tmp_path: Path) -> None:
    whole, parts = _write_parts(tmp_path)
    outs = []
    for k, part in enumerate(parts):
        out = tmp_path / f"c{k}.json"
        done = run_cli("count", str(part), "--gold-col", "gold", "--pred-col", "sys0", "-o", str(out))
        assert done.returncode == 0 and done.stdout == b"", done.stderr
        outs.append(str(out))
    doc = json.loads(Path(outs[0]).read_text())
    assert doc["schema"] == "clfeval.counts/1" and doc["kind"] == "confusion" and doc["labels"] == ["A", "B"]
    reference = json.loads(run_cli("score", str(whole), "--gold-col", "gold", "--pred-col", "sys0",
                                   "--format", "json").stdout)
    for order in itertools.permutations(outs):
        summed = run_cli("score", "--counts", *order, "--format", "json")
        assert summed.returncode == 0, summed.stderr
        data = json.loads(summed.stdout)
        assert _comparable(data) == _comparable(reference)
        assert data["inputs"] == {"count_files": list(order)}
    globbed = json.loads(run_cli("score", "--counts", str(tmp_path / "c*.json"), "--format", "json").stdout)
    assert _comparable(globbed) == _comparable(reference)


def test_multilabel_and_joint_count_files(tmp_path: Path) -> None:
    whole, parts = _write_parts(tmp_path, multilabel=True, systems=2, parts=2)
    files = []
    for k, part in enumerate(parts):
        counts, provenance, _ = clfeval.counts_of_files(str(part), gold_col="gold", pred_cols=["sys0", "sys1"],
                                                        multilabel=True)
        assert isinstance(counts, clfeval.JointCounts) and counts.systems == ("sys0", "sys1")
        clfeval.save_counts(counts, str(tmp_path / f"j{k}.json"), **provenance)
        files.append(str(tmp_path / f"j{k}.json"))
        single, provenance, _ = clfeval.counts_of_files(str(part), gold_col="gold", pred_col="sys0", multilabel=True)
        clfeval.save_counts(single, str(tmp_path / f"s{k}.json"), **provenance)
    options = dict(metrics=["macro.f1", "samples.f1"], rounds=200, seed=3, multilabel=True)
    direct = clfeval.compare_files(str(whole), gold_col="gold", pred_cols=["sys0", "sys1"], **options)
    del options["multilabel"]
    from_counts = clfeval.compare_count_files(files, **options)
    assert _comparable(from_counts.to_dict()) == _comparable(direct.to_dict())
    one = clfeval.score_file(str(whole), gold_col="gold", pred_col="sys0", multilabel=True)
    summed = clfeval.score_count_files([str(tmp_path / "s1.json"), str(tmp_path / "s0.json")])
    assert _comparable(summed.to_dict()) == _comparable(one.to_dict())
    joint = json.loads(Path(files[0]).read_text())
    assert joint["kind"] == "joint" and joint["multilabel"] is True and joint["systems"] == ["sys0", "sys1"]
    assert all(isinstance(row[0], list) and isinstance(row[-1], int) for row in joint["rows"])


def test_cv_from_count_files_equals_cv_from_files(tmp_path: Path) -> None:
    _, parts = _write_parts(tmp_path, parts=4)
    counts = []
    for k, part in enumerate(parts):
        out = tmp_path / f"fold{k}.json"
        assert run_cli("count", str(part), "--gold-col", "gold", "--pred-col", "sys0", "-o", str(out)).returncode == 0
        counts.append(str(out))
    files = json.loads(run_cli("cv", *map(str, parts), "--gold-col", "gold", "--pred-col", "sys0",
                               "--format", "json").stdout)
    from_counts = run_cli("cv", "--counts", *counts, "--format", "json")
    assert from_counts.returncode == 0, from_counts.stderr
    data = json.loads(from_counts.stdout)
    assert data["pooled"]["averages"] == files["pooled"]["averages"]
    assert data["mean_of_folds"] == files["mean_of_folds"]
    assert [f["averages"] for f in data["folds"]] == [f["averages"] for f in files["folds"]]


def test_round_trip_keeps_every_count() -> None:
    gold, pred = list("aabbccdd"), list("abbbccda")
    counts = clfeval.count_labels(gold, pred)
    back = clfeval.counts_from_dict(json.loads(json.dumps(clfeval.counts_to_dict(counts))))
    assert back.labels == counts.labels and np.array_equal(back.cells, counts.cells)
    sets = clfeval.count_label_sets([["a"], [], ["a", "b"]], [["a", "a"], ["b"], []], duplicates="keep")
    back = clfeval.counts_from_dict(json.loads(json.dumps(clfeval.counts_to_dict(sets))))
    assert back.pairs == sets.pairs and back.duplicates == "keep"


@pytest.mark.parametrize("content, message", [
    ("not json", "is not valid JSON"),
    ('{"schema": "clfeval.score/1"}', "is not a clfeval count file"),
    ('{"schema": "clfeval.counts/9", "kind": "confusion"}', "this clfeval reads 'clfeval.counts/1'"),
    ('{"schema": "clfeval.counts/1", "kind": "confusion", "labels": ["a"], "cells": [[1, 2]]}', "1×1 table"),
    ('{"schema": "clfeval.counts/1", "kind": "labelsets", "pairs": [[["a"], ["b"], -1]]}', "must be a count"),
    ('{"schema": "clfeval.counts/1", "kind": "confusion"}', "needs the field 'labels'"),
])
def test_bad_count_files_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        clfeval.load_counts(str(path))
    assert str(path) in str(info.value)
    out = run_cli("score", "--counts", str(path))
    assert out.returncode == 2 and out.stderr.decode().count("\n") == 1 and message in out.stderr.decode()


def test_counts_of_different_kinds_do_not_add(tmp_path: Path) -> None:
    single = tmp_path / "single.json"
    multi = tmp_path / "multi.json"
    clfeval.save_counts(clfeval.count_labels(["a"], ["a"]), str(single))
    clfeval.save_counts(clfeval.count_label_sets([["a"]], [["a"]]), str(multi))
    with pytest.raises(InputError, match=r"multi\.json: holds multi-label counts .* cannot be added to the "
                                         r"single-label counts of .*single\.json"):
        clfeval.load_counts([str(single), str(multi)])
    out = run_cli("compare", "--counts", str(single))
    assert out.returncode == 2 and "holds the counts of one system" in out.stderr.decode()
    out = run_cli("score", "--counts", str(single), "--multilabel")
    assert out.returncode == 2 and "--multilabel and --engine do not apply" in out.stderr.decode()
