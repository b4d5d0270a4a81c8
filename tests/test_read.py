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
    _same(clfeval.score(clfeval.read(str(path))), gold, pred)


def test_text_single_spaces_fast_path(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=1)
    path = tmp_path / "run.txt"
    path.write_text("".join(f"feat {g} {p}\n" for g, p in zip(gold, pred)))
    _same(clfeval.score(clfeval.read(str(path))), gold, pred)


def test_csv_with_header_quotes_and_names(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=2)
    path = tmp_path / "run.csv"
    path.write_text("text,gold,pred\n" + "".join(f'"a, b {i}",{g},{p}\n' for i, (g, p) in enumerate(zip(gold, pred))))
    _same(clfeval.score(clfeval.read(str(path), gold_col="gold", pred_col="pred")), gold, pred)
    _same(
        clfeval.score(clfeval.read(str(path), reading=clfeval.Reading(header=True))), gold, pred
    )  # last two columns, header skipped


def test_tsv_columns_by_number(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=3)
    path = tmp_path / "run.tsv"
    path.write_text("".join(f"{p}\t{g}\tx\n" for g, p in zip(gold, pred)))
    _same(clfeval.score(clfeval.read(str(path), gold_col=2, pred_col=1)), gold, pred)
    _same(clfeval.score(clfeval.read(str(path), gold_col=-2, pred_col=-3)), gold, pred)


def test_jsonl_and_parquet(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=4)
    jl = tmp_path / "run.jsonl"
    jl.write_text(
        "".join(json.dumps({"id": i, "gold": g, "pred": p}) + "\n" for i, (g, p) in enumerate(zip(gold, pred)))
    )
    _same(clfeval.score(clfeval.read(str(jl))), gold, pred)
    pq = tmp_path / "run.parquet"
    pl.DataFrame({"gold": gold, "pred": pred}).write_parquet(pq)
    _same(clfeval.score(clfeval.read(str(pq), gold_col="gold", pred_col="pred")), gold, pred)


def test_two_files(tmp_path: Path) -> None:
    gold, pred = _random_pairs(seed=5)
    (tmp_path / "gold.txt").write_text("\n".join(gold) + "\n")
    (tmp_path / "pred.txt").write_text("\n".join(pred) + "\n")
    _same(clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"))), gold, pred)


def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "win.csv"
    path.write_bytes(b"\xef\xbb\xbfgold,pred\r\nA,B\r\nA,A\r\nB,B\r\n")
    r = clfeval.score(clfeval.read(str(path), gold_col="gold", pred_col="pred"))
    assert r.labels == ("A", "B") and r.n_instances == 3
    text = tmp_path / "win.txt"
    text.write_bytes(b"\xef\xbb\xbfx A B\r\nx A A\r\n")
    assert clfeval.score(clfeval.read(str(text))).labels == ("A", "B")


def test_blank_lines_are_skipped_and_said(tmp_path: Path) -> None:
    path = tmp_path / "blank.txt"
    path.write_text("A A\n\nA B\n  \nB B\n")
    r = clfeval.score(clfeval.read(str(path)))
    assert r.n_instances == 3
    assert any("skipped 2 blank line(s)" in w for w in r.warnings)
    csv_path = tmp_path / "blank.csv"
    csv_path.write_text("A,A\n\nB,B\n")
    r = clfeval.score(clfeval.read(str(csv_path)))
    assert r.n_instances == 2 and any("skipped 1 blank line(s)" in w for w in r.warnings)


def test_a_header_counted_as_data_is_flagged(tmp_path: Path) -> None:
    path = tmp_path / "noflag.csv"
    path.write_text("gold,pred\nA,B\nA,A\nB,B\n")
    r = clfeval.score(clfeval.read(str(path)))
    assert any("looks like a header" in w for w in r.warnings)
    assert r.n_instances == 4  # counted as told, but said


def test_multilabel_file_with_empty_cells(tmp_path: Path) -> None:
    path = tmp_path / "ml.tsv"
    path.write_text("A|B\tA\n\tC\nA\t\n")
    r = clfeval.score(clfeval.read(str(path), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(sep="|"))))
    expected = clfeval.score([["A", "B"], [], ["A"]], [["A"], ["C"], []], multilabel=True)
    assert r.to_dict()["per_label"] == expected.to_dict()["per_label"]
    jl = tmp_path / "ml.jsonl"
    jl.write_text('{"g": ["A", "B"], "p": ["A"]}\n{"g": [], "p": ["C"]}\n{"g": ["A"], "p": []}\n')
    assert (
        clfeval.score(clfeval.read(str(jl), reading=clfeval.Reading(multilabel=True))).to_dict()["per_label"]
        == expected.to_dict()["per_label"]
    )


def test_training_file_gives_label_set_and_lfb(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("x A A\nx A B\nx B B\nx C A\n")
    train = tmp_path / "train.txt"
    train.write_text("x A\nx A\nx A\nx B\nx D\n")
    r = clfeval.score(clfeval.read(str(run)), scoring=clfeval.Scoring(train=str(train)))
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
    _error(
        InputError,
        lambda: clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"))),
        "gold.txt has 3 instances but",
    )
    _error(
        InputError,
        lambda: clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"))),
        "pred.txt ends early",
    )


@pytest.mark.parametrize(
    "name,content", [("short.txt", "x A B\nx A B\nA\n"), ("short.csv", "A,B\nA,B\nA\n"), ("short.tsv", "A\tB\nA\n")]
)
def test_a_line_with_too_few_columns(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    line = content.count("\n")
    _error(InputError, lambda: clfeval.score(clfeval.read(str(path))), f"{name}:{line}: expected")


def test_lines_of_different_widths_take_the_last_two_fields_of_each(tmp_path: Path) -> None:
    path = tmp_path / "ragged.txt"
    path.write_text("f1 f2 A A\nf1 A B\nf1  f2   f3 B B\n")
    r = clfeval.score(clfeval.read(str(path)))
    _same(r, ["A", "A", "B"], ["A", "B", "B"])
    assert any("lines have between 3 and 5 fields" in w for w in r.warnings)


@pytest.mark.parametrize(
    "name,content,options,message",
    [
        ("wide.csv", "A,B\nA,B\nA,B,C\n", {"gold_col": 1, "pred_col": 2}, "wide.csv:3: expected 2 fields, found 3"),
        ("empty.txt", "", {}, "empty.txt: is empty"),
        ("blank.txt", "\n \n", {}, "blank.txt: is empty"),
        (
            "run.csv",
            "gold,pred\nA,B\n",
            {"gold_col": "truth"},
            "run.csv:1: no column named 'truth' for the gold labels; the header has: 'gold', 'pred'",
        ),
        ("latin1.txt", "x A A\nx caf\xe9 B\n".encode("latin-1"), {}, "latin1.txt:2: is not valid UTF-8: byte 0xe9"),
        ("hole.csv", "A,B\n,B\n", {}, "hole.csv:2: the gold label is empty"),
        ("bad.jsonl", '{"g": "A", "p": "B"}\n{"g": "A", "p": \n', {}, "bad.jsonl:2: is not valid JSON"),
        (
            "null.jsonl",
            '{"g": "A", "p": "B"}\n{"g": "A", "p": null}\n',
            {},
            "null.jsonl:2: the predicted label ('p') is missing",
        ),
    ],
)
def test_bad_files(tmp_path: Path, name: str, content: str | bytes, options: dict, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    _error(InputError, lambda: clfeval.score(clfeval.read(str(path), **options)), message)


def test_nan_and_none_in_arrays() -> None:
    _error(InputError, lambda: clfeval.score(["A", None, "B"], ["A", "B", "B"]), "gold[1]: is None: a missing label")
    _error(
        InputError,
        lambda: clfeval.score(np.array([1.0, 2.0]), np.array([1.0, np.nan])),
        "pred[1]: is NaN: a missing label",
    )
    _error(InputError, lambda: clfeval.score(["A", "B"], ["A"]), "gold has 2 labels but pred has 1: pred ends early")
    _error(InputError, lambda: clfeval.score([1, "1"], ["1", "1"]), "have the same name '1'")
    _error(InputError, lambda: clfeval.score([["A"], None], [["A"], ["B"]], multilabel=True), "gold[1]: is None")
    _error(InputError, lambda: clfeval.score(["AB"], ["A"], multilabel=True), "gold[0]: is a string")


def test_a_label_that_is_not_a_string_or_a_number_is_named_where_it_is() -> None:
    """Label sets given without multilabel=True (and dicts) used to end in Python's 'unhashable type' traceback."""
    hint = "a label is a string or a number; for a set of labels per instance (multi-label) pass multilabel=True"
    sets = [["A"], [], ["B"]]
    _error(InputError, lambda: clfeval.score(sets, [["B"], ["A"], []]), f"gold[0]: is ['A'], a list: {hint}")
    _error(InputError, lambda: clfeval.score(["A", "B", "A"], ["A", {"B": 1}, "A"]), "pred[1]: is {'B': 1}, a dict")
    _error(InputError, lambda: clfeval.score(["A", ("B", [1])], ["A", "B"]), "gold[1]: is ('B', [1]), a tuple")
    _error(InputError, lambda: clfeval.score(np.array([["A"], ["B", "C"]], dtype=object), ["A", "B"]), "gold[0]")
    _error(
        InputError,
        lambda: clfeval.score(["A", "B"], ["A", list(range(50))]),
        "pred[1]: is [0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    )
    _error(
        InputError, lambda: clfeval.compare(["A", "B"], {"X": ["A", "B"], "Y": ["A", ["B"]]}), "pred 'Y'[1]: is ['B']"
    )
    _error(InputError, lambda: clfeval.cv(sets, [["B"], ["A"], []], [0, 1, 1]), "gold[0]: is ['A'], a list")
    assert clfeval.score(sets, [["B"], ["A"], []], multilabel=True).task == "multi-label"  # what the hint says


def test_booleans_are_named_false_and_true_in_every_container() -> None:
    """A numpy boolean array's labels were named 0 and 1, a list's False and True: the same data, two label names."""
    gold, pred = [True, False, True, True], [True, True, False, True]
    for g, p in [(gold, pred), (np.array(gold), np.array(pred)), (np.array(gold, dtype=object), np.array(pred))]:
        assert clfeval.score(g, p).labels == ("False", "True"), (type(g), getattr(g, "dtype", None))
    assert clfeval.score(np.array([True, True]), np.array([True, True])).labels == ("True",)
    systems = {"A": np.array(pred), "B": np.array(gold)}
    compared = clfeval.compare(np.array(gold), systems, test=clfeval.Test(rounds=20, seed=1))
    assert compared.results["A"].labels == ("False", "True")
    assert clfeval.cv(np.array(gold), np.array(pred), [0, 0, 1, 1]).pooled.labels == ("False", "True")
    assert clfeval.score(np.array(gold), np.array(pred, dtype=np.int64)).labels == ("0", "1")  # beside numbers: 0/1
    from sklearn.metrics import f1_score

    for declared in ([0, 1], [1], [False, True], [np.True_]):  # declared numbers match by value, as labels= does
        r = clfeval.score(np.array(gold), np.array(pred), scoring=clfeval.Scoring(labels=declared))
        expected = f1_score(gold, pred, labels=declared, average="macro")
        assert r.averages["macro"]["f"] == pytest.approx(expected, rel=1e-12) and len(r.labels) == len(declared)


def test_unsigned_integers_above_int64_keep_their_values() -> None:
    huge = np.array([2**63 + 5, 3, 3], dtype=np.uint64)
    compared = clfeval.compare(huge, {"A": huge[::-1], "B": huge}, test=clfeval.Test(rounds=20, seed=1))
    assert compared.results["A"].labels == ("3", "9223372036854775813")  # not -9223372036854775803
    wide = np.array([2**63 + 5, 0], dtype=np.uint64)
    assert clfeval.score(wide, np.array([0, 2**62], dtype=np.int64)).labels == (
        "0",
        "4611686018427387904",
        "9223372036854775813",
    )


def test_declared_label_that_never_occurs_scores_with_support_zero(tmp_path: Path) -> None:
    r = clfeval.score(["A", "B"], ["A", "A"], scoring=clfeval.Scoring(labels=["A", "B", "Z"]))
    assert r.per_label["Z"].support == 0 and r.labels == ("A", "B", "Z")
    assert any("never occur in the data (scored with support 0): 'Z'" in n for n in r.notes)


def _matrix(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cm.csv"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "text,message",
    [
        (",A,B\nA,1,2\n", "cm.csv:2: the matrix is not square: 2 column labels but 1 rows"),
        (",A,B\nA,1,-2\nB,0,1\n", "cm.csv:2: cell 3 is -2: expected a count ≥ 0"),
        (",A,B\nA,1,2.5\nB,0,1\n", "cm.csv:2: cell 3 is 2.5: expected a whole number"),
        (",A,B\nA,1,x\nB,0,1\n", "cm.csv:2: cell 3 is 'x', expected a count"),
        (",A,A\nA,1,2\nA,0,1\n", "cm.csv:1: column label 'A' is repeated"),
        (",A,B\nA,1,2\nA,0,1\n", "cm.csv:3: row label 'A' is repeated"),
        (",A,B\nA,1,2\nC,0,1\n", "cm.csv:3: row label 'C' is not among the column labels"),
        (",A,B\nA,1\nB,0,1\n", "cm.csv:2: expected a label and 2 counts, found 2 fields"),
        (",A,B\nA,1e30,1\nB,0,1\n", "cm.csv:2: cell 2 is 1e+30: counts above 2^53"),
        (",A,B\nA,9000000000000000000,9000000000000000000\nB,0,1\n", "cm.csv:2: cell 2 is 9,000,000,000,000,000,000"),
        (",A,B\nA,4503599627370496,4503599627370496\nB,0,1\n", "cm.csv: the cells add up to 9,007,199,254,740,993"),
        (",A,B\nA,1,inf\nB,0,1\n", "cm.csv:2: cell 3 is inf: expected a whole number"),
    ],
)
def test_bad_matrix_files(tmp_path: Path, text: str, message: str) -> None:
    path = _matrix(tmp_path, text)
    _error(MatrixError, lambda: clfeval.score(clfeval.read_matrix(path)), message)


def test_a_whitespace_matrix_with_a_blank_corner(tmp_path: Path) -> None:
    path = tmp_path / "cm.txt"
    path.write_text("   A  B\nA  5  1\nB  2  3\n")  # the header names the columns only
    r = clfeval.score(clfeval.read_matrix(str(path)))
    assert r.per_label["A"].recall == pytest.approx(5 / 6) and r.n_instances == 11


def test_matrix_orientation(tmp_path: Path) -> None:
    path = _matrix(tmp_path, ",A,B\nA,5,1\nB,2,3\n")
    by_gold = clfeval.score(clfeval.read_matrix(path))
    by_pred = clfeval.score(clfeval.read_matrix(path, rows="predicted"))
    assert by_gold.per_label["A"].recall == pytest.approx(5 / 6)
    assert by_pred.per_label["A"].precision == pytest.approx(5 / 6)
    assert by_gold.averages["macro"]["f"] == pytest.approx(by_pred.averages["macro"]["f"])


def test_unknown_names_list_the_valid_ones() -> None:
    _error(
        OptionError,
        lambda: clfeval.score(["A"], ["A"], scoring=clfeval.Scoring(labels_from="test")),
        "unknown label source 'test'; valid: given, gold, train, union",
    )
    _error(
        OptionError,
        lambda: clfeval.score(["A"], ["A"], scoring=clfeval.Scoring(zero_division="2")),
        "unknown zero-division value '2'",
    )
    _error(
        OptionError,
        lambda: clfeval.score(["A"], ["A"], scoring=clfeval.Scoring(undefined="drop")),
        "unknown undefined policy 'drop'",
    )
    _error(
        OptionError,
        lambda: clfeval.score(["A"], ["A"], multilabel=False, scoring=clfeval.Scoring(beta=0)),
        "beta must be a positive",
    )
    _error(
        OptionError,
        lambda: clfeval.score(["A"], ["A"], scoring=clfeval.Scoring(labels_from="train")),
        "needs training data",
    )


def test_two_jsonl_files_with_label_set_lists(tmp_path: Path) -> None:
    (tmp_path / "gold.jsonl").write_text('{"labels": ["A", "B"]}\n{"labels": []}\n')
    (tmp_path / "pred.jsonl").write_text('{"labels": ["A"]}\n{"labels": ["C"]}\n')
    r = clfeval.score(
        clfeval.read(
            str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"), reading=clfeval.Reading(multilabel=True)
        )
    )
    expected = clfeval.score([["A", "B"], []], [["A"], ["C"]], multilabel=True)
    assert r.to_dict()["per_label"] == expected.to_dict()["per_label"]


def test_two_csv_files(tmp_path: Path) -> None:
    (tmp_path / "g.csv").write_text('lab\na\n"b, c"\n')
    (tmp_path / "p.csv").write_text("lab\na\na\n")
    r = clfeval.score(
        clfeval.read(str(tmp_path / "g.csv"), str(tmp_path / "p.csv"), reading=clfeval.Reading(header=True))
    )
    _same(r, ["a", "b, c"], ["a", "a"])


def test_integer_and_float_columns_hold_the_same_labels(tmp_path: Path) -> None:
    pq = tmp_path / "mixed.parquet"
    pl.DataFrame({"g": [1, 2, 3], "p": [1.0, 2.0, 2.5]}).write_parquet(pq)
    r = clfeval.score(clfeval.read(str(pq)))
    assert r.labels == ("1", "2", "2.5", "3")
    assert r.accuracy == pytest.approx(2 / 3)
    lists = tmp_path / "lists.parquet"
    pl.DataFrame({"g": [[1.0, 2.0]], "p": [[1, 2]]}).write_parquet(lists)
    assert clfeval.score(clfeval.read(str(lists), reading=clfeval.Reading(multilabel=True))).accuracy == 1.0


def test_a_line_of_separators_is_an_instance_not_a_blank_line(tmp_path: Path) -> None:
    path = tmp_path / "m.tsv"
    path.write_text("a,b\ta\n\t\nc\tc\n\n")
    r = clfeval.score(clfeval.read(str(path), reading=clfeval.Reading(multilabel=True)))
    assert r.n_instances == 3  # the tab-only line is (∅, ∅); the empty last line is blank
    assert any("skipped 1 blank line(s)" in w for w in r.warnings)
    single = tmp_path / "s.tsv"
    single.write_text("a\ta\n\t\n")
    _error(InputError, lambda: clfeval.score(clfeval.read(str(single))), "s.tsv:2: the gold label is empty")


# --- line ends, separators, list cells, columns, files that change: what outside checks found ---------------


@pytest.mark.parametrize("chunk", ["7", "4194304"])  # blocks that cut a line end in two, and one block
def test_old_mac_line_ends_are_read_as_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: str) -> None:
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", chunk)
    gold, pred = ["a", "b", "a", "b", "a"], ["a", "a", "b", "b", "a"]
    lines = [f"{g} {p}" for g, p in zip(gold, pred)]
    (tmp_path / "cr.txt").write_bytes(("\r".join(lines) + "\r").encode())
    _same(clfeval.score(clfeval.read(str(tmp_path / "cr.txt"))), gold, pred)
    (tmp_path / "cr.csv").write_bytes(("\r".join(line.replace(" ", ",") for line in lines) + "\r").encode())
    _same(clfeval.score(clfeval.read(str(tmp_path / "cr.csv"))), gold, pred)
    (tmp_path / "g.txt").write_bytes("\r".join(gold).encode())  # no line end after the last line
    (tmp_path / "p.txt").write_bytes(("\r".join(pred) + "\r").encode())
    _same(clfeval.score(clfeval.read(str(tmp_path / "g.txt"), str(tmp_path / "p.txt"))), gold, pred)
    (tmp_path / "m.txt").write_bytes(b"g a b\ra 2 1\rb 1 1\r")
    assert clfeval.score(clfeval.read_matrix(str(tmp_path / "m.txt"))).n_instances == 5
    (tmp_path / "bad.txt").write_bytes(b"a a\rb a\r\rb\r")  # line numbers count \r line ends
    with pytest.raises(InputError, match=r"bad\.txt:4: expected at least 2 fields"):
        clfeval.score(clfeval.read(str(tmp_path / "bad.txt")))


@pytest.mark.parametrize("ends", [[b"\n", b"\r", b"\r\n"], [b"\r\n", b"\r", b"\n"], [b"\r", b"\n"]])
@pytest.mark.parametrize("chunk", ["5", "4194304"])
def test_mixed_line_ends_are_each_a_line_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ends: list[bytes], chunk: str
) -> None:
    """A file mixing \\n, \\r\\n and \\r alone was read as one line (the \\r rule was judged on its first block)."""
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", chunk)
    gold, pred = ["a", "b", "a", "b", "a", "b"], ["a", "a", "b", "b", "a", "a"]
    for name, sep in (("mix.txt", b" "), ("mix.tsv", b"\t"), ("mix.csv", b",")):
        data = b"".join(g.encode() + sep + p.encode() + ends[i % len(ends)] for i, (g, p) in enumerate(zip(gold, pred)))
        (tmp_path / name).write_bytes(data)
        _same(clfeval.score(clfeval.read(str(tmp_path / name))), gold, pred)
    (tmp_path / "bad.txt").write_bytes(b"a a\nb a\r\rb\r\n")  # line numbers count every kind of line end
    with pytest.raises(InputError, match=r"bad\.txt:4: expected at least 2 fields"):
        clfeval.score(clfeval.read(str(tmp_path / "bad.txt")))


@pytest.mark.parametrize(
    "name,content,sep,label_sep",
    [
        ("ws.txt", "A B C D\nA E A E\n", None, " "),
        ("ws.txt", "A B C D\nA E A E\n", None, "\\t"),
        ("tab.tsv", "A\tB,C\n", None, "\\t"),
        ("semi.txt", "A;B,C\n", ";", ";"),
        ("semi.txt", "A;B,C\n", ";", "|;"),
    ],
)
def test_a_label_separator_that_separates_fields_is_refused(
    tmp_path: Path, name: str, content: str, sep: str | None, label_sep: str
) -> None:
    (tmp_path / name).write_text(content)
    with pytest.raises(OptionError, match="label sets would be split into fields"):
        clfeval.score(
            clfeval.read(
                str(tmp_path / name), reading=clfeval.Reading(sep=sep, multilabel=clfeval.MultiLabel(sep=label_sep))
            )
        )


def test_label_separators_that_cannot_collide_are_taken(tmp_path: Path) -> None:
    (tmp_path / "q.csv").write_text('"A,B",A\nB,"B,C"\n')  # quoted CSV cells may hold the field separator
    r = clfeval.score(clfeval.read(str(tmp_path / "q.csv"), reading=clfeval.Reading(multilabel=True)))
    assert r.per_label["A"].tp == 1 and r.per_label["B"].fn == 1 and r.per_label["C"].fp == 1
    (tmp_path / "t.tsv").write_text("A B\tA\n")  # a space inside TSV cells
    r = clfeval.score(
        clfeval.read(str(tmp_path / "t.tsv"), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(sep=" ")))
    )
    assert r.per_label["B"].fn == 1
    with pytest.raises(OptionError, match="--label-sep is empty"):
        clfeval.score(
            clfeval.read(str(tmp_path / "t.tsv"), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(sep="")))
        )


def test_one_rule_for_label_cells_of_parquet_and_json_lines(tmp_path: Path) -> None:
    good = pl.DataFrame({"g": [["A", "B\x1fC"], ["B"], []], "p": [["A"], ["B\x1fC"], ["A"]]})
    for path in (tmp_path / "good.parquet", tmp_path / "good.jsonl"):
        good.write_parquet(path) if path.suffix == ".parquet" else good.write_ndjson(path)
        r = clfeval.score(clfeval.read(str(path), gold_col="g", pred_col="p", reading=clfeval.Reading(multilabel=True)))
        assert r.labels == ("A", "B", "B\x1fC")  # no internal join character can split a label
        assert r.per_label["B\x1fC"].fn == 1 and r.per_label["B\x1fC"].fp == 1 and r.n_instances == 3
    bad = {
        "null element": ([["A"], ["A", None]], r":2: the gold label set \('g'\) holds a missing label \(null\)"),
        "null cell": ([["A"], None], r":2: the gold label set \('g'\) holds a missing label"),
        "empty label alone": ([["A"], [""]], r":2: the gold label set \('g'\) holds an empty label"),
        "empty label beside another": ([["A"], ["", "A"]], r":2: the gold label set \('g'\) holds an empty label"),
    }
    for gold, message in bad.values():
        frame = pl.DataFrame(
            {"g": gold, "p": [["A"], ["A"]]}, schema={"g": pl.List(pl.String), "p": pl.List(pl.String)}
        )
        for path in (tmp_path / "bad.parquet", tmp_path / "bad.jsonl"):
            frame.write_parquet(path) if path.suffix == ".parquet" else frame.write_ndjson(path)
            with pytest.raises(InputError, match=message):
                clfeval.score(
                    clfeval.read(str(path), gold_col="g", pred_col="p", reading=clfeval.Reading(multilabel=True))
                )
            (tmp_path / "gold.txt").write_text("A\nA\n")  # and as the predictions file of two-file reading
            with pytest.raises(InputError, match=r"holds (a missing|an empty) label"):
                clfeval.score(
                    clfeval.read(
                        str(tmp_path / "gold.txt"), str(path), pred_col="g", reading=clfeval.Reading(multilabel=True)
                    )
                )
    scalar = pl.DataFrame({"g": ["A", ""], "p": ["A", "A"]})
    scalar.write_parquet(tmp_path / "scalar.parquet")
    with pytest.raises(InputError, match=r"scalar\.parquet:2: the gold label \('g'\) is empty"):
        clfeval.score(clfeval.read(str(tmp_path / "scalar.parquet"), gold_col="g", pred_col="p"))
    r = clfeval.score(
        clfeval.read(
            str(tmp_path / "scalar.parquet"), gold_col="g", pred_col="p", reading=clfeval.Reading(multilabel=True)
        )
    )
    assert r.n_instances == 2 and r.per_label["A"].fp == 1  # a scalar empty cell of label sets: the empty set


@pytest.mark.parametrize(
    "content,options,message",
    [
        ("a b\nb b\n", {"gold_col": 1, "pred_col": 1}, "the gold and predicted columns are both column 1"),
        ("g,p\na,b\n", {"gold_col": "g", "pred_col": "g"}, "the gold and predicted columns are both column g"),
        (
            "a b\nb b\n",
            {"gold_col": 1, "pred_col": -2},
            ":1: the gold and predicted columns are the same field (1 of 2)",
        ),
        (
            "w x a b\nx a b\n",
            {"gold_col": 2, "pred_col": -2},
            ":2: the gold and predicted columns are the same field (2 of 3)",
        ),  # on a narrower line only
    ],
)
def test_one_column_for_gold_and_predicted_is_refused(
    tmp_path: Path, content: str, options: dict, message: str
) -> None:
    path = tmp_path / ("t.csv" if "," in content else "t.txt")
    path.write_text(content)
    with pytest.raises((InputError, OptionError), match=message.replace("(", r"\(").replace(")", r"\)")):
        clfeval.score(clfeval.read(str(path), **options))


def _changing(path: Path, change: str) -> object:
    """A ``Reading(progress=...)`` callback that changes ``path`` the first time it is called, while it is read."""
    done = []

    def progress(*_: object) -> None:
        if done:
            return
        done.append(True)
        data = path.read_bytes()
        if change == "append":
            path.write_bytes(data + b"x A B\n" * 10)
        elif change == "cut mid-line":
            path.write_bytes(data[: len(data) // 2 + 1])
        else:  # cut at a line end
            half = data[: len(data) // 2]
            path.write_bytes(half[: half.rfind(b"\n") + 1])

    return progress


@pytest.mark.parametrize(
    "change,message",
    [
        ("append", "changed while it was read"),
        ("cut mid-line", "(was cut|changed) while it was read"),
        ("cut at a line end", "(was cut|changed) while it was read"),
    ],
)
def test_a_file_that_changes_while_it_is_read_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, message: str
) -> None:
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "64")
    path = tmp_path / "growing.txt"
    gold, pred = _random_pairs(200, seed=3)
    path.write_text("".join(f"x {g} {p}\n" for g, p in zip(gold, pred)))
    with pytest.raises(InputError, match=f"growing\\.txt: {message}"):
        clfeval.score(clfeval.read(str(path), reading=clfeval.Reading(progress=_changing(path, change))))


def test_a_file_read_whole_is_not_taken_for_a_changed_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "64")
    path = tmp_path / "still.txt"
    gold, pred = _random_pairs(200, seed=4)
    path.write_text("".join(f"x {g} {p}\n" for g, p in zip(gold, pred)))
    _same(clfeval.score(clfeval.read(str(path), reading=clfeval.Reading(progress=lambda *_: None))), gold, pred)


def test_a_label_named_like_the_split_matrix_empty_set_is_refused(tmp_path: Path) -> None:
    """A label '∅' and the split-count matrix's ∅ row and column were one: a cell lost, the JSON labels repeated."""
    with pytest.raises(InputError, match=r"gold\[1\]: holds a label named '∅'"):
        clfeval.score([["a"], ["∅"], ["b"]], [["a"], ["b"], ["b"]], multilabel=True)
    (tmp_path / "sets.txt").write_text("x A A\ny ∅,B B\n")
    with pytest.raises(InputError, match=r"sets\.txt:2: a label is named '∅'"):
        clfeval.score(clfeval.read(str(tmp_path / "sets.txt"), reading=clfeval.Reading(multilabel=True)))
    counts = clfeval.LabelSetCounts({(("∅",), ("b",)): 1})  # counts built by hand reach the split matrix
    with pytest.raises(InputError, match="a label is named '∅'"):
        clfeval.score(counts)


def test_a_cell_that_cannot_be_a_label_is_named_by_its_line_and_cause(tmp_path: Path) -> None:
    (tmp_path / "sets.txt").write_text("x A B\ny A,,B B\n")
    with pytest.raises(InputError, match=r"sets\.txt:2: the label set 'A,,B' holds an empty label"):
        clfeval.score(clfeval.read(str(tmp_path / "sets.txt"), reading=clfeval.Reading(multilabel=True)))
    (tmp_path / "none.txt").write_text("A A\nNONE,A A\n")
    with pytest.raises(InputError, match=r"none\.txt:2: label NONE stands for the empty set"):
        clfeval.score(
            clfeval.read(
                str(tmp_path / "none.txt"), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(empty="label"))
            )
        )
    (tmp_path / "gold.txt").write_text("A\nB\n")
    (tmp_path / "pred.txt").write_text("A\nB,,C\n")
    with pytest.raises(InputError, match=r"pred\.txt:2: the label set 'B,,C' holds an empty label"):
        clfeval.score(
            clfeval.read(
                str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"), reading=clfeval.Reading(multilabel=True)
            )
        )
    (tmp_path / "train.txt").write_text("A\nNONE,A\n")
    with pytest.raises(InputError, match=r"train\.txt:2: label NONE"):
        (tmp_path / "ok.txt").write_text("x A A\n")
        clfeval.score(
            clfeval.read(
                str(tmp_path / "ok.txt"), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(empty="label"))
            ),
            scoring=clfeval.Scoring(train=str(tmp_path / "train.txt")),
        )
    for call in (
        lambda: clfeval.score(clfeval.read(str(tmp_path / "sets.txt"), reading=clfeval.Reading(multilabel=True))),
        lambda: clfeval.score(
            clfeval.read(
                str(tmp_path / "none.txt"), reading=clfeval.Reading(multilabel=clfeval.MultiLabel(empty="label"))
            )
        ),
    ):
        with pytest.raises(InputError) as info:
            call()
        assert "cutoff" not in str(info.value) and "not a number" not in str(info.value)


def test_each_file_is_read_with_its_own_options(tmp_path: Path) -> None:
    (tmp_path / "m.csv").write_text(";a;b\na;3;1\nb;0;2\n")
    (tmp_path / "train.txt").write_text("x a\nx b\ny a\n")  # whitespace-separated, its last column the label
    r = clfeval.score(
        clfeval.read_matrix(str(tmp_path / "m.csv"), reading=clfeval.Reading(sep=";")),
        scoring=clfeval.Scoring(train=str(tmp_path / "train.txt")),
    )
    assert r.labels == ("a", "b") and r.lfb_source == "train"
    assert dict(r.lfb_frequencies) == pytest.approx({"a": 2 / 3, "b": 1 / 3})
    assert r.inputs["train_file"] == str(tmp_path / "train.txt")
    # finagle keeps TiMBL's distance after a class distribution in its input, not in the training file
    (tmp_path / "run.txt").write_text("w A A { A 0.9 } 0.1\nw B A { A 0.6 } 1.2\nw B B { B 0.9 } 0.3\n")
    (tmp_path / "ttrain.txt").write_text("w A A { A 0.9 } 0.1\nw B B { B 0.7 } 0.5\nw B B { B 0.8 } 0.4\n")
    r = clfeval.finagle(
        clfeval.read_confidences(str(tmp_path / "run.txt")),
        threshold=1.0,
        lower_is_more_confident=True,
        scoring=clfeval.Scoring(train=clfeval.Training(str(tmp_path / "ttrain.txt"), column=-2)),
    )
    assert r.target == "B"  # the most frequent training label, not a distance


@pytest.mark.parametrize("change", ["cut", "rewrite"])
def test_a_parquet_file_changed_while_it_is_read_is_an_error_not_a_panic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A Parquet file cut short under polars made it panic (a traceback, exit 1)."""
    from clfeval.inputs import typed

    monkeypatch.setattr(typed, "_PARQUET_ROWS", 1000)  # several slices, so the file changes between two of them
    path = tmp_path / "big.parquet"
    rng = np.random.default_rng(0)
    frame = pl.DataFrame({"g": rng.choice(["a", "b", "c"], 5000), "p": rng.choice(["a", "b", "c"], 5000)})
    frame.write_parquet(path, row_group_size=1000)
    done: list[bool] = []

    def progress(done_bytes: int, total: int | None, rows: int) -> None:
        if not done and rows >= 1000:  # a first slice is read: the file is open and being read
            done.append(True)
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2] if change == "cut" else data[:-8] + b"\0" * 8)

    with pytest.raises(InputError, match=r"big\.parquet: (changed|was cut) while it was read"):
        clfeval.score(clfeval.read(str(path), gold_col="g", pred_col="p", reading=clfeval.Reading(progress=progress)))
    frame.write_parquet(path, row_group_size=1000)
    (tmp_path / "gold.txt").write_text("a\n" * 5000)
    done.clear()
    with pytest.raises(InputError, match=r"big\.parquet: (changed|was cut) while it was read"):
        clfeval.score(
            clfeval.read(
                str(tmp_path / "gold.txt"), str(path), pred_col="p", reading=clfeval.Reading(progress=progress)
            )
        )


def test_the_training_file_is_read_with_its_own_options(tmp_path: Path) -> None:
    """score, compare, cv and finagle read --train with the evaluated files' --sep: 'x a' became one label."""
    (tmp_path / "run.csv").write_text("w;g;p;c\nx;a;b;0.9\ny;b;b;0.2\nz;a;a;0.8\n")
    (tmp_path / "train.txt").write_text("x a\nx b\ny a\n")
    reading = clfeval.Reading(sep=";", header=True)
    scoring = clfeval.Scoring(train=clfeval.Training(str(tmp_path / "train.txt"), column=-1))
    run = str(tmp_path / "run.csv")
    r = clfeval.score(clfeval.read(run, gold_col="g", pred_col="p", reading=reading), scoring=scoring)
    assert r.labels == ("a", "b") and dict(r.lfb_frequencies) == pytest.approx({"a": 2 / 3, "b": 1 / 3})
    c = clfeval.compare(
        clfeval.read(run, gold_col="g", pred_col=["p", "w"], names=["P", "W"], reading=reading),
        test=clfeval.Test(seed=1),
        scoring=scoring,
    )
    assert c.results["P"].lfb_frequencies["a"] == pytest.approx(2 / 3)
    v = clfeval.cv(
        clfeval.read_folds([run], fold_col="w", gold_col="g", pred_col="p", reading=reading), scoring=scoring
    )
    assert v.pooled.lfb_frequencies["a"] == pytest.approx(2 / 3)
    f = clfeval.finagle(
        clfeval.read_confidences(run, gold_col="g", pred_col="p", conf_col="c", reading=reading),
        threshold=0.5,
        scoring=scoring,
    )
    assert f.target == "a"  # the most frequent training label, not 'x a'
    semi = clfeval.score(
        clfeval.read(
            str(tmp_path / "run.csv"), gold_col="g", pred_col="p", reading=clfeval.Reading(sep=";", header=True)
        ),
        scoring=clfeval.Scoring(
            train=clfeval.Training(
                str(tmp_path / "train.txt"),
                column=-1,
                sep=";",
            )
        ),
    )
    assert any(
        "none of the 3 training labels ('x a', 'x b', 'y a') occurs in the evaluated data" in w for w in semi.warnings
    )


def test_one_field_or_one_file_column_for_two_roles_is_refused_on_every_path(tmp_path: Path) -> None:
    pl.DataFrame({"g": ["a", "b"], "p": ["a", "a"]}).write_parquet(tmp_path / "gp.parquet")
    (tmp_path / "gp.jsonl").write_text('{"g": "a", "p": "a"}\n{"g": "b", "p": "a"}\n')
    for name in ("gp.parquet", "gp.jsonl"):
        for gold, pred in (("g", 1), ("g", -2), (1, "g")):
            with pytest.raises(InputError, match="the gold and predicted columns are both field 'g'"):
                clfeval.score(clfeval.read(str(tmp_path / name), gold_col=gold, pred_col=pred))
    (tmp_path / "gold.txt").write_text("a\nb\n")
    with pytest.raises(InputError, match=r"both column -1 of .*gold\.txt: give different columns"):
        clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "gold.txt")))
    with pytest.raises(InputError, match="both column -1 of"):
        clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "." / "gold.txt")))
    (tmp_path / "b.txt").write_text("a\na\n")
    (tmp_path / "link.txt").symlink_to(tmp_path / "b.txt")
    with pytest.raises(OptionError, match="the same predictions file is given twice"):
        clfeval.compare(
            clfeval.read(str(tmp_path / "gold.txt"), *[str(tmp_path / "b.txt"), str(tmp_path / "link.txt")])
        )
    # the TiMBL idiom: one file as gold (its second-to-last column) and as predictions (its last)
    (tmp_path / "a.out").write_text("w a a\nw b a\n")
    r = clfeval.compare(
        clfeval.read(str(tmp_path / "a.out"), *[str(tmp_path / "a.out"), str(tmp_path / "b.txt")], gold_col=-2),
        test=clfeval.Test(seed=1),
    )
    assert r.results["a"].accuracy == 0.5


def test_json_lines_fields_hold_one_kind_of_value(tmp_path: Path) -> None:
    """A field mixing strings and lists was read as strings: the list became the label '["B"]'."""
    (tmp_path / "mixed.jsonl").write_text('{"g": "A,B", "p": ["A"]}\n{"g": ["B"], "p": ["B"]}\n')
    with pytest.raises(
        InputError,
        match=r"mixed\.jsonl:2: the gold field 'g' holds a list of labels here but single "
        "labels in other records",
    ):
        clfeval.score(
            clfeval.read(
                str(tmp_path / "mixed.jsonl"), gold_col="g", pred_col="p", reading=clfeval.Reading(multilabel=True)
            )
        )
    (tmp_path / "object.jsonl").write_text('{"g": "A", "p": "A"}\n{"g": {"x": 1}, "p": "B"}\n')
    with pytest.raises(InputError, match=r"object\.jsonl:2: the gold field 'g' must be a label"):
        clfeval.score(clfeval.read(str(tmp_path / "object.jsonl"), gold_col="g", pred_col="p"))
    (tmp_path / "gold.txt").write_text("A\nB\n")
    with pytest.raises(InputError, match=r"mixed\.jsonl:2: the predicted field 'g' holds a list"):
        clfeval.score(
            clfeval.read(
                str(tmp_path / "gold.txt"),
                str(tmp_path / "mixed.jsonl"),
                pred_col="g",
                reading=clfeval.Reading(multilabel=True),
            )
        )
    (tmp_path / "bracket.jsonl").write_text('{"g": "[x]", "p": "[x]"}\n{"g": "{y}", "p": "[x]"}\n')
    r = clfeval.score(
        clfeval.read(str(tmp_path / "bracket.jsonl"), gold_col="g", pred_col="p")
    )  # labels that look like JSON
    assert r.labels == ("[x]", "{y}")
