"""``clfeval compare`` on real files: layouts, names, metrics, tests, JSON contract, exit codes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

import clfeval
from tests.conftest import run_cli, signature_of


@pytest.fixture()
def systems(tmp_path: Path) -> dict[str, Path]:
    """A gold file and three systems' predictions, one label per line."""
    rng = np.random.default_rng(12)
    gold = rng.integers(0, 4, 400)
    files = {"gold": gold}
    for name, acc in (("bert", 0.85), ("svm", 0.7), ("rules", 0.69)):
        files[name] = np.where(rng.random(400) < acc, gold, rng.integers(0, 4, 400))
    paths = {}
    for name, labels in files.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(f"L{x}\n" for x in labels))
    return paths


def _json(*args: str) -> dict:
    out = run_cli("compare", *args, "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_three_files_text_report(systems: dict[str, Path]) -> None:
    args = ("compare", *(str(systems[k]) for k in ("gold", "bert", "svm", "rules")), "--seed", "5", "--rounds", "2000")
    out = run_cli(*args)
    assert out.returncode == 0 and out.stderr == b""
    text = out.stdout.decode()
    for needle in (
        "clfeval compare — single-label, 400 instances, 3 systems, 4 labels",
        "pairs (approximate randomization, two-sided",
        "ranking",
        "2000 rounds, seed 5",
        "Holm-adjusted over the 3 tested pairs of each metric",
    ):
        assert needle in " ".join(text.split()), needle  # notes wrap at 100 columns
    assert "macro.f1: unweighted mean" not in text  # the definitions: --verbose
    notes = text.split("\nnotes:\n", 1)[1].splitlines()
    assert all(len(line) <= 100 for line in notes)  # the signature too: broken after a '|', its lines indented
    signature = _json(*args[1:])["signature"]
    assert signature_of(text) == signature and len(signature) > 100
    pair_rows = [line.split()[:3] for line in text.splitlines() if line.startswith("macro.f1 ")]
    assert pair_rows[:3] == [["macro.f1", "bert", "svm"], ["macro.f1", "bert", "rules"], ["macro.f1", "svm", "rules"]]
    verbose = run_cli(
        "compare", *(str(systems[k]) for k in ("gold", "bert", "svm", "rules")), "--seed", "5", "--rounds", "2000",
        "--verbose",
    ).stdout.decode()  # fmt: skip
    for needle in ("Holm's step-down method over the 3", "macro.f1: unweighted mean over the label set", "inputs: "):
        assert needle in " ".join(verbose.split()), needle
    assert max(len(line) for line in verbose.splitlines()[:-1]) <= 100  # notes wrapped (they ran to 337 characters)


def test_json_contract(systems: dict[str, Path]) -> None:
    data = _json(
        str(systems["gold"]),
        str(systems["bert"]),
        str(systems["svm"]),
        "--seed",
        "1",
        "--rounds",
        "500",
        "--metric",
        "macro.f1,micro.f1",
        "--metric",
        "weighted.recall",
    )
    assert data["schema"] == "clfeval.compare/2"
    assert data["metric"] == ["macro.f1", "micro.f1", "weighted.recall"]
    assert data["test"] == "ar" and data["rounds"] == 500 and data["seed"] == 1
    assert data["systems"] == ["bert", "svm"] and data["comparisons"] == "all-pairs" and data["adjustment"] == "holm"
    assert data["labels"] == ["L0", "L1", "L2", "L3"] and data["label_source"] == "union"
    assert set(data["scores"]["bert"]) == {"macro.f1", "micro.f1", "weighted.recall"}
    pair = data["pairs"][0]
    assert set(pair) == {
        "metric",
        "a",
        "b",
        "score_a",
        "score_b",
        "difference",
        "p_value",
        "p_adjusted",
        "significant",
        "ci",
        "exact",
        "rounds",
        "sign_test",
    }
    assert set(pair["sign_test"]) == {"metric", "unit", "a_better", "b_better", "ties", "p_value"}
    assert pair["sign_test"]["unit"] == "instances" and data["unit"] == "instances" and data["n_units"] == 400
    assert pair["sign_test"]["metric"] == "accuracy"  # what it tests, whatever the metric
    assert data["higher_is_better"] == {"macro.f1": True, "micro.f1": True, "weighted.recall": True}
    assert (pair["a"], pair["b"], pair["ci"]) == ("bert", "svm", None)
    assert pair["difference"] == pytest.approx(pair["score_a"] - pair["score_b"])
    assert data["results"]["svm"]["schema"] == "clfeval.score/2"
    assert data["results"]["svm"]["averages"]["macro"]["f1"] == data["scores"]["svm"]["macro.f1"]
    assert data["inputs"]["pred_files"] == {"bert": str(systems["bert"]), "svm": str(systems["svm"])}
    api = clfeval.compare(
        clfeval.read(str(systems["gold"]), *[str(systems["bert"]), str(systems["svm"])]),
        metrics=["macro.f1", "micro.f1", "weighted.recall"],
        test=clfeval.Test(rounds=500, seed=1),
    )
    assert json.loads(api.render("json")) == data


def test_one_file_with_named_columns_and_training_file(tmp_path: Path) -> None:
    path = tmp_path / "runs.csv"
    path.write_text(
        "id,gold,a,b\n"
        + "".join(
            f"{i},{g},{a},{b}\n"
            for i, (g, a, b) in enumerate(
                [("x", "x", "y"), ("y", "y", "y"), ("z", "x", "z"), ("x", "x", "x"), ("y", "x", "y")] * 8
            )
        )
    )
    train = tmp_path / "train.csv"
    train.write_text("gold\n" + "x\n" * 6 + "y\n" * 3 + "z\n" + "w\n")
    data = _json(
        str(path),
        "--gold-col",
        "gold",
        "--pred-col",
        "a",
        "--pred-col",
        "b",
        "--train",
        str(train),
        "--metric",
        "lfb.f1",
        "--seed",
        "2",
    )
    assert data["systems"] == ["a", "b"] and data["label_source"] == "train" and "w" in data["labels"]
    assert data["results"]["a"]["averages"]["lfb"]["frequencies"] == "train"
    named = _json(
        str(path),
        "--gold-col",
        "2",
        "--pred-col",
        "3",
        "--pred-col",
        "4",
        "--header",
        "--name",
        "first",
        "--name",
        "second",
        "--seed",
        "2",
    )
    assert named["systems"] == ["first", "second"]


def test_multilabel_bootstrap_and_mcnemar(tmp_path: Path) -> None:
    gold, a, b = (tmp_path / f"{n}.txt" for n in ("gold", "a", "b"))
    gold.write_text("A,B\nA\n\nC\nB,C\n" * 20)
    a.write_text("A,B\nA\n\nC\nB\n" * 20)
    b.write_text("A\nB\nA\nC\nB,C\n" * 20)
    data = _json(
        str(gold),
        str(a),
        str(b),
        "--multilabel",
        "--test",
        "bootstrap",
        "--metric",
        "samples.f1",
        "--metric",
        "hamming_loss",
        "--rounds",
        "400",
        "--seed",
        "3",
    )
    assert data["task"] == "multi-label" and data["ci"]["method"] == "bootstrap"
    assert all(p["ci"] is not None for p in data["pairs"])
    assert data["ranking"]["hamming_loss"][0]["system"] == "a"  # lower loss ranks first
    mc = _json(str(gold), str(a), str(b), "--multilabel", "--test", "mcnemar")
    assert mc["metric"] == ["accuracy"] and mc["pairs"][0]["mcnemar"]["only_a"] == 60
    assert mc["rounds"] is None and mc["seed"] is None


def test_markdown_and_csv_outputs(systems: dict[str, Path]) -> None:
    files = [str(systems["gold"]), str(systems["bert"]), str(systems["svm"])]
    md = run_cli("compare", *files, "--seed", "1", "--rounds", "300", "--format", "markdown").stdout.decode()
    assert "| metric | A | B |" in md and "**ranking" in md
    assert any(line.startswith("| macro.f1 | bert | svm |") for line in md.splitlines())
    rows = list(
        csv.DictReader(
            io.StringIO(run_cli("compare", *files, "--seed", "1", "--rounds", "300", "--format", "csv").stdout.decode())
        )
    )
    assert len(rows) == 1 and rows[0]["a"] == "bert" and rows[0]["test"] == "ar" and rows[0]["seed"] == "1"


def test_verdict_does_not_change_the_exit_code(systems: dict[str, Path]) -> None:
    same = run_cli(
        "compare",
        str(systems["gold"]),
        str(systems["svm"]),
        str(systems["rules"]),
        "--seed",
        "1",
        "--rounds",
        "200",
        "--format",
        "json",
    )
    assert same.returncode == 0 and json.loads(same.stdout)["pairs"][0]["significant"] is False


@pytest.mark.parametrize(
    "extra, needle",
    [
        (["--metric", "macro.f3"], "unknown metric 'macro.f3'"),
        (["--test", "mcnemar", "--metric", "macro.f1"], "accuracy only"),
        (["--baseline", "nobody"], "unknown baseline 'nobody'"),
        (["--metric", "per_label.L9.f1"], "label 'L9' is not in the label set"),
        (["--pred-col", "1", "--pred-col", "2"], "give --pred-col once"),
    ],
)
def test_bad_options_exit_2_with_one_line(systems: dict[str, Path], extra: list[str], needle: str) -> None:
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]), str(systems["svm"]), *extra)
    assert out.returncode == 2 and out.stdout == b""
    message = out.stderr.decode()
    assert needle in message and message.count("\n") == 1, message


def test_bad_files_exit_2_naming_the_file(systems: dict[str, Path], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("L0\nL1\n")
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]), str(short))
    assert out.returncode == 2 and f"{short} ends early" in out.stderr.decode()
    blank = tmp_path / "blank.txt"
    blank.write_text("L0\n\n" + "L1\n" * 398)
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]), str(blank))
    assert (
        out.returncode == 2
        and f"{blank}:3: 1 blank line(s) before this line, but 0 before line 2 of" in out.stderr.decode()
    )
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]))
    assert out.returncode == 2 and "at least two prediction files" in out.stderr.decode()
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]), str(systems["bert"]))
    assert out.returncode == 2 and "given twice" in out.stderr.decode()
    out = run_cli("compare", str(systems["gold"]), str(systems["bert"]), str(tmp_path / "missing.txt"))
    assert out.returncode == 2 and "missing.txt: no such file" in out.stderr.decode()


def test_jsonl_list_columns_and_parquet(tmp_path: Path) -> None:
    rows = [
        {"gold": ["A", "B"], "x": ["A", "B"], "y": ["A"]},
        {"gold": [], "x": [], "y": ["C"]},
        {"gold": ["C"], "x": ["B"], "y": ["C"]},
    ] * 5
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    data = _json(
        str(path),
        "--gold-col",
        "gold",
        "--pred-col",
        "x",
        "--pred-col",
        "y",
        "--multilabel",
        "--metric",
        "micro.f1",
        "--seed",
        "1",
    )
    expected = clfeval.compare(
        [r["gold"] for r in rows],
        {"x": [r["x"] for r in rows], "y": [r["y"] for r in rows]},
        metrics="micro.f1",
        test=clfeval.Test(seed=1),
        multilabel=True,
    )
    assert data["pairs"][0]["p_value"] == pytest.approx(expected.pairs[0].p_value)
    assert data["scores"]["x"]["micro.f1"] == pytest.approx(expected.score("x", "micro.f1"))
    import polars as pl

    single = tmp_path / "runs.parquet"
    frame = pl.DataFrame({"gold": ["a", "b", "c"] * 10, "s1": ["a", "b", "b"] * 10, "s2": ["a", "a", "c"] * 10})
    frame.write_parquet(single)
    data = _json(
        str(single), "--gold-col", "gold", "--pred-col", "s1", "--pred-col", "s2", "--seed", "1", "--metric", "accuracy"
    )
    assert data["scores"] == {"s1": {"accuracy": pytest.approx(2 / 3)}, "s2": {"accuracy": pytest.approx(2 / 3)}}


def test_line_order_edge_cases(systems: dict[str, Path], tmp_path: Path) -> None:
    out = run_cli("compare", "-", "-", str(systems["svm"]), stdin=b"L0\n")
    assert out.returncode == 2 and "standard input (-) can stand for one file only" in out.stderr.decode()
    headed = {}
    for name in ("gold", "bert", "svm"):
        headed[name] = tmp_path / f"{name}.csv"
        headed[name].write_text("label\n" + systems[name].read_text())
    out = run_cli(
        "compare",
        *(str(headed[n]) for n in ("gold", "bert", "svm")),
        "--pred-col",
        "label",
        "--gold-col",
        "-1",
        "--format",
        "json",
        "--seed",
        "1",
        "--rounds",
        "100",
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["n_instances"] == 400  # a named column implies a header in every file
    table = tmp_path / "t.csv"
    table.write_text("g,a\nx,x\ny,x\n")
    out = run_cli("compare", str(table), "--gold-col", "g", "--pred-col", "a", "--pred-col", "a")
    assert out.returncode == 2 and "given twice" in out.stderr.decode()
