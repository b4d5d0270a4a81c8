"""Readers on real files: every format agrees with the in-memory path, and bad input gets a precise message."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import clfeval
from clfeval import InputError, MatrixError, OptionError


def _random_pairs(n: int = 300, seed: int = 0) -> tuple[list[str], list[str]]:
    rnd = random.Random(seed)
    labs = ["NN", "VB", "JJ", "B-PER", "x.y"]
    return [rnd.choice(labs) for _ in range(n)], [rnd.choice(labs) for _ in range(n)]


def _same(result: clfeval.Scores, gold: list[str], pred: list[str]) -> None:
    expected = clfeval.score(gold, pred)
    assert result.n_instances == expected.n_instances
    assert result.labels == expected.labels
    np.testing.assert_array_equal(result.confusion.cells, expected.confusion.cells)


# --- every format against the in-memory reference -------------------------------------------------


def test_text_with_features_and_runs_of_whitespace(tmp_path: Path) -> None:
    gold, pred = _random_pairs()
    lines = [f"w{i}  f{i % 3}\t{g}   {p}  " for i, (g, p) in enumerate(zip(gold, pred))]
    path = tmp_path / "timbl.out"
    path.write_text("\n".join(lines) + "\n")
    _same(clfeval.score_file(str(path)), gold, pred)


def test_text_single_spaces_fast_path(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=1)
    path = tmp_path / "run.txt"
    path.write_text("".join(f"feat {g} {p}\n" for g, p in zip(gold, pred)))
    _same(clfeval.score_file(str(path)), gold, pred)


def test_csv_with_header_quotes_and_names(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=2)
    path = tmp_path / "run.csv"
    path.write_text("text,gold,pred\n" + "".join(f'"a, b {i}",{g},{p}\n' for i, (g, p) in enumerate(zip(gold, pred))))
    _same(clfeval.score_file(str(path), gold_col="gold", pred_col="pred"), gold, pred)
    _same(clfeval.score_file(str(path), header=True), gold, pred)  # last two columns, header skipped


def test_tsv_columns_by_number(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=3)
    path = tmp_path / "run.tsv"
    path.write_text("".join(f"{p}\t{g}\tx\n" for g, p in zip(gold, pred)))
    _same(clfeval.score_file(str(path), gold_col=2, pred_col=1), gold, pred)
    _same(clfeval.score_file(str(path), gold_col=-2, pred_col=-3), gold, pred)


def test_jsonl_and_parquet(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=4)
    jl = tmp_path / "run.jsonl"
    jl.write_text("".join(json.dumps({"id": i, "gold": g, "pred": p}) + "\n" for i, (g, p) in enumerate(zip(gold, pred))))
    _same(clfeval.score_file(str(jl)), gold, pred)
    pq = tmp_path / "run.parquet"
    pl.DataFrame({"gold": gold, "pred": pred}).write_parquet(pq)
    _same(clfeval.score_file(str(pq), gold_col="gold", pred_col="pred"), gold, pred)


def test_two_files(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=5)
    (tmp_path / "gold.txt").write_text("\n".join(gold) + "\n")
    (tmp_path / "pred.txt").write_text("\n".join(pred) + "\n")
    _same(clfeval.score_file(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt")), gold, pred)


def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "win.csv"
    path.write_bytes(b"\xef\xbb\xbfgold,pred\r\nA,B\r\nA,A\r\nB,B\r\n")
    r = clfeval.score_file(str(path), gold_col="gold", pred_col="pred")
    assert r.labels == ("A", "B") and r.n_instances == 3
    text = tmp_path / "win.txt"
    text.write_bytes(b"\xef\xbb\xbfx A B\r\nx A A\r\n")
    assert clfeval.score_file(str(text)).labels == ("A", "B")


def test_blank_lines_are_skipped_and_said(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("A A\n\nA B\n  \nB B\n")
    r = clfeval.score_file(str(path))
    assert r.n_instances == 3
    assert any("skipped 2 blank line(s)" in w for w in r.warnings)
    csv_path = tmp_path / "blank.csv"
    csv_path.write_text("A,A\n\nB,B\n")
    r = clfeval.score_file(str(csv_path))
    assert r.n_instances == 2 and any("skipped 1 blank line(s)" in w for w in r.warnings)


def test_a_header_counted_as_data_is_flagged(tmp_path: Path) -> None:
    path = tmp_path / "noflag.csv"
    path.write_text("gold,pred\nA,B\nA,A\nB,B\n")
    r = clfeval.score_file(str(path))
    assert any("looks like a header" in w for w in r.warnings)
    assert r.n_instances == 4  # counted as told, but said


def test_multilabel_file_with_empty_cells(tmp_path: Path) -> None:
    path = tmp_path / "ml.tsv"
    path.write_text("A|B\tA\n\tC\nA\t\n")
    r = clfeval.score_file(str(path), multilabel=True, label_sep="|")
    expected = clfeval.score([["A", "B"], [], ["A"]], [["A"], ["C"], []], multilabel=True)
    assert r.to_dict()["per_label"] == expected.to_dict()["per_label"]
    jl = tmp_path / "ml.jsonl"
    jl.write_text('{"g": ["A", "B"], "p": ["A"]}\n{"g": [], "p": ["C"]}\n{"g": ["A"], "p": []}\n')
    assert clfeval.score_file(str(jl), multilabel=True).to_dict()["per_label"] == expected.to_dict()["per_label"]


def test_training_file_gives_label_set_and_lfb(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("x A A\nx A B\nx B B\nx C A\n")
    train = tmp_path / "train.txt"
    train.write_text("x A\nx A\nx A\nx B\nx D\n")
    r = clfeval.score_file(str(run), train=str(train))
    assert r.label_source == "train" and r.labels == ("A", "B", "D", "C")
    assert any("not in the training data: 'C'" in w for w in r.warnings)
    assert r.lfb_source == "train"
    assert r.lfb_frequencies["A"] == pytest.approx(3 / 5)


# --- bad input: one precise message each -------------------------------------------------------


def _error(exc_type, call, match: str) -> None:
    with pytest.raises(exc_type) as info:
        call()
    assert match in str(info.value), str(info.value)


def test_files_of_different_lengths_say_which_ends_early(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("A\nB\nC\n")
    (tmp_path / "pred.txt").write_text("A\nB\n")
    _error(InputError, lambda: clfeval.score_file(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt")),
           "gold.txt has 3 instances but")
    _error(InputError, lambda: clfeval.score_file(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt")),
           "pred.txt ends early")


@pytest.mark.parametrize("name,content", [("short.txt", "x A B\nx A B\nA\n"), ("short.csv", "A,B\nA,B\nA\n"),
                                          ("short.tsv", "A\tB\nA\n")])
def test_a_line_with_too_few_columns(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    line = content.count("\n")
    _error(InputError, lambda: clfeval.score_file(str(path)), f"{name}:{line}: expected")


def test_lines_of_different_widths_take_the_last_two_fields_of_each(tmp_path: Path) -> None:
    path = tmp_path / "ragged.txt"
    path.write_text("f1 f2 A A\nf1 A B\nf1  f2   f3 B B\n")
    r = clfeval.score_file(str(path))
    _same(r, ["A", "A", "B"], ["A", "B", "B"])
    assert any("lines have between 3 and 5 fields" in w for w in r.warnings)


@pytest.mark.parametrize("name,content,options,message", [
    ("wide.csv", "A,B\nA,B\nA,B,C\n", {}, "wide.csv:3: expected 2 fields, found 3"),
    ("empty.txt", "", {}, "empty.txt: is empty"),
    ("blank.txt", "\n \n", {}, "blank.txt: is empty"),
    ("run.csv", "gold,pred\nA,B\n", {"gold_col": "truth"},
     "run.csv:1: no column named 'truth' for the gold labels; the header has: 'gold', 'pred'"),
    ("latin1.txt", "x A A\nx caf\xe9 B\n".encode("latin-1"), {}, "latin1.txt:2: is not valid UTF-8: byte 0xe9"),
    ("hole.csv", "A,B\n,B\n", {}, "hole.csv:2: the gold label is empty"),
    ("bad.jsonl", '{"g": "A", "p": "B"}\n{"g": "A", "p": \n', {}, "bad.jsonl:2: is not valid JSON"),
    ("null.jsonl", '{"g": "A", "p": "B"}\n{"g": "A", "p": null}\n', {},
     "null.jsonl:2: the predicted label ('p') is missing"),
])
def test_bad_files(tmp_path: Path, name: str, content: str | bytes, options: dict, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    _error(InputError, lambda: clfeval.score_file(str(path), **options), message)


def test_nan_and_none_in_arrays() -> None:
    _error(InputError, lambda: clfeval.score(["A", None, "B"], ["A", "B", "B"]), "gold[1]: is None: a missing label")
    _error(InputError, lambda: clfeval.score(np.array([1.0, 2.0]), np.array([1.0, np.nan])),
           "pred[1]: is NaN: a missing label")
    _error(InputError, lambda: clfeval.score(["A", "B"], ["A"]), "gold has 2 labels but pred has 1: pred ends early")
    _error(InputError, lambda: clfeval.score([1, "1"], ["1", "1"]), "have the same name '1'")
    _error(InputError, lambda: clfeval.score([["A"], None], [["A"], ["B"]], multilabel=True), "gold[1]: is None")
    _error(InputError, lambda: clfeval.score(["AB"], ["A"], multilabel=True), "gold[0]: is a string")


def test_declared_label_that_never_occurs_scores_with_support_zero(tmp_path: Path) -> None:
    r = clfeval.score(["A", "B"], ["A", "A"], labels=["A", "B", "Z"])
    assert r.per_label["Z"].support == 0 and r.labels == ("A", "B", "Z")
    assert any("never occur in the data (scored with support 0): 'Z'" in n for n in r.notes)


def _matrix(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cm.csv"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("text,message", [
    (",A,B\nA,1,2\n", "cm.csv:2: the matrix is not square: 2 column labels but 1 rows"),
    (",A,B\nA,1,-2\nB,0,1\n", "cm.csv:2: cell 3 is '-2', expected a count ≥ 0"),
    (",A,B\nA,1,2.5\nB,0,1\n", "cm.csv:2: cell 3 is '2.5', expected a whole number"),
    (",A,B\nA,1,x\nB,0,1\n", "cm.csv:2: cell 3 is 'x', expected a count"),
    (",A,A\nA,1,2\nA,0,1\n", "cm.csv:1: column label 'A' is repeated"),
    (",A,B\nA,1,2\nA,0,1\n", "cm.csv:3: row label 'A' is repeated"),
    (",A,B\nA,1,2\nC,0,1\n", "cm.csv:3: row label 'C' is not among the column labels"),
    (",A,B\nA,1\nB,0,1\n", "cm.csv:2: expected a label and 2 counts, found 2 fields"),
])
def test_bad_matrix_files(tmp_path: Path, text: str, message: str) -> None:
    path = _matrix(tmp_path, text)
    _error(MatrixError, lambda: clfeval.score_matrix(path), message)


def test_matrix_orientation(tmp_path: Path) -> None:
    path = _matrix(tmp_path, ",A,B\nA,5,1\nB,2,3\n")
    by_gold = clfeval.score_matrix(path)
    by_pred = clfeval.score_matrix(path, rows="predicted")
    assert by_gold.per_label["A"].recall == pytest.approx(5 / 6)
    assert by_pred.per_label["A"].precision == pytest.approx(5 / 6)
    assert by_gold.averages["macro"]["f"] == pytest.approx(by_pred.averages["macro"]["f"])


def test_unknown_names_list_the_valid_ones() -> None:
    _error(OptionError, lambda: clfeval.score(["A"], ["A"], labels_from="test"),
           "unknown label source 'test'; valid: given, gold, train, union")
    _error(OptionError, lambda: clfeval.score(["A"], ["A"], zero_division="2"), "unknown zero-division value '2'")
    _error(OptionError, lambda: clfeval.score(["A"], ["A"], undefined="drop"), "unknown undefined policy 'drop'")
    _error(OptionError, lambda: clfeval.score(["A"], ["A"], multilabel=False, beta=0), "beta must be a positive")
    _error(OptionError, lambda: clfeval.score(["A"], ["A"], labels_from="train"), "needs training data")


def test_two_jsonl_files_with_label_set_lists(tmp_path: Path) -> None:
    (tmp_path / "gold.jsonl").write_text('{"labels": ["A", "B"]}\n{"labels": []}\n')
    (tmp_path / "pred.jsonl").write_text('{"labels": ["A"]}\n{"labels": ["C"]}\n')
    r = clfeval.score_file(str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"), multilabel=True)
    expected = clfeval.score([["A", "B"], []], [["A"], ["C"]], multilabel=True)
    assert r.to_dict()["per_label"] == expected.to_dict()["per_label"]


def test_two_csv_files(tmp_path: Path) -> None:
    (tmp_path / "g.csv").write_text('lab\na\n"b, c"\n')
    (tmp_path / "p.csv").write_text('lab\na\na\n')
    r = clfeval.score_file(str(tmp_path / "g.csv"), str(tmp_path / "p.csv"), header=True)
    _same(r, ["a", "b, c"], ["a", "a"])


def test_integer_and_float_columns_hold_the_same_labels(tmp_path: Path) -> None:
    pq = tmp_path / "mixed.parquet"
    pl.DataFrame({"g": [1, 2, 3], "p": [1.0, 2.0, 2.5]}).write_parquet(pq)
    r = clfeval.score_file(str(pq))
    assert r.labels == ("1", "2", "2.5", "3")
    assert r.accuracy == pytest.approx(2 / 3)
    lists = tmp_path / "lists.parquet"
    pl.DataFrame({"g": [[1.0, 2.0]], "p": [[1, 2]]}).write_parquet(lists)
    assert clfeval.score_file(str(lists), multilabel=True).accuracy == 1.0


def test_a_line_of_separators_is_an_instance_not_a_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "m.tsv"
    path.write_text("a,b\ta\n\t\nc\tc\n\n")
    r = clfeval.score_file(str(path), multilabel=True)
    assert r.n_instances == 3  # the tab-only line is (∅, ∅); the empty last line is blank
    assert any("skipped 1 blank line(s)" in w for w in r.warnings)
    single = tmp_path / "s.tsv"
    single.write_text("a\ta\n\t\n")
    _error(InputError, lambda: clfeval.score_file(str(single)), "s.tsv:2: the gold label is empty")
