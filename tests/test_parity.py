"""The input conveniences of confusionmatrix.py and art.py on real files, through the command line and the API.

``--skip``, blank lines, ``--translate``, trailing TiMBL class distributions (``--keep-trailing``),
``--cutoff`` with ``--above``/``--below``, negative column numbers, and ``count`` / ``--counts``
with these rules, for score, compare, cv and count. Each result is checked against the counts of
an equivalent plain file (or of the labels in memory), and each bad input against its one-line
error ``clfeval: error: FILE:LINE: message`` with exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from tests.conftest import cli_error, cli_json, run_cli

TAGS = ("NN", "VB", "JJ", "DT")


# --------------------------------------------------------------------------- helpers


def _cells(matrix: dict[str, Any]) -> dict[tuple[str, str], int]:
    """A JSON confusion matrix ({labels, counts}) as its non-zero cells."""
    labels = matrix["labels"]
    return {(g, p): c for g, row in zip(labels, matrix["counts"]) for p, c in zip(labels, row) if c}


def _cells_of(result: clfeval.Scores) -> dict[tuple[str, str], int]:
    return _cells(result.to_dict()["confusion_matrix"])


def _expected(gold: list[str], pred: list[str]) -> dict[tuple[str, str], int]:
    """The non-zero cells of gold against pred, counted by hand."""
    out: dict[tuple[str, str], int] = {}
    for g, p in zip(gold, pred):
        out[(g, p)] = out.get((g, p), 0) + 1
    return out


def _tagged(seed: int, n: int, accuracy: float = 0.7) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    gold = [TAGS[i] for i in rng.integers(0, len(TAGS), n)]
    pred = [g if rng.random() < accuracy else TAGS[int(rng.integers(0, len(TAGS)))] for g in gold]
    return gold, pred


def _with_markers(lines: list[str], every: int, marker: str = "<utt>", offset: int = 0) -> tuple[str, int]:
    """The lines with a marker line before line 0 (when offset is 0) and every ``every`` lines after; the text and
    the number of markers."""
    out, markers = [], 0
    for i, line in enumerate(lines):
        if (i + offset) % every == 0:
            out.append(marker)
            markers += 1
        out.append(line)
    return "".join(x + "\n" for x in out), markers


# --------------------------------------------------------------------------- --skip


def test_skip_lines_are_not_instances(tmp_path: Path) -> None:
    gold, pred = _tagged(1, 80)
    text, markers = _with_markers([f"w{i} {g} {p}" for i, (g, p) in enumerate(zip(gold, pred))], 7)
    (tmp_path / "marked.txt").write_text(text)
    data = cli_json("score", "marked.txt", "--skip", "^<utt>$", cwd=tmp_path)
    assert data["n_instances"] == 80
    assert _cells(data["confusion_matrix"]) == _expected(gold, pred)
    assert f"marked.txt: skipped {markers} line(s) matching --skip '^<utt>$'" in data["warnings"]
    assert markers == 12 and data["options"]["skip"] == "^<utt>$"
    # the text report lists the warning too
    text_out = run_cli("score", "marked.txt", "--skip", "^<utt>", cwd=tmp_path)
    assert text_out.returncode == 0 and f"skipped {markers} line(s) matching --skip" in text_out.stdout.decode()
    # without --skip the marker is a line of one field: an error naming its line
    cli_error(run_cli("score", "marked.txt", cwd=tmp_path), "marked.txt:1: the gold column -2 does not exist")
    # the API
    result = clfeval.score(clfeval.read(str(tmp_path / "marked.txt"), reading=clfeval.Reading(skip="<utt>")))
    assert result.n_instances == 80 and _cells_of(result) == _expected(gold, pred)
    assert any(f"skipped {markers} line(s)" in w for w in result.warnings)


@pytest.mark.parametrize(
    "command,pattern,needles",
    [
        ("score", "(", ["--skip", "'(' is not a valid regular expression"]),
        ("score", "(?=x)", ["--skip", "'(?=x)'", "not support", "look-around"]),
        ("count", "(?<=x)y", ["--skip", "look-around"]),
        ("cv", r"(a)\1", ["--skip", "back-references"]),
        ("compare", "(", ["--skip", "not a valid regular expression"]),
    ],
)
def test_skip_refuses_a_pattern_it_cannot_use(tmp_path: Path, command: str, pattern: str, needles: list[str]) -> None:
    (tmp_path / "run.txt").write_text("A A\nA B\n")
    (tmp_path / "b.txt").write_text("A\nB\n")
    files = ["run.txt", "b.txt", "run.txt"] if command == "compare" else ["run.txt"]
    cli_error(run_cli(command, *files, "--skip", pattern, cwd=tmp_path), *needles)
    with pytest.raises(clfeval.ClfevalError, match="--skip"):
        clfeval.score(clfeval.read(str(tmp_path / "run.txt"), reading=clfeval.Reading(skip=pattern)))


def test_skip_in_two_file_mode(tmp_path: Path) -> None:
    gold, pred = _tagged(2, 50)
    (tmp_path / "gold.txt").write_text(_with_markers(gold, 10)[0])
    (tmp_path / "pred.txt").write_text(_with_markers(pred, 6, offset=3)[0])  # markers at other places
    data = cli_json("score", "gold.txt", "pred.txt", "--skip", "^<utt>", cwd=tmp_path)
    assert data["n_instances"] == 50 and _cells(data["confusion_matrix"]) == _expected(gold, pred)
    result = clfeval.score(
        clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"), reading=clfeval.Reading(skip="^<utt>"))
    )
    assert _cells_of(result) == _expected(gold, pred)


def test_skip_in_two_file_mode_warns_like_one_file(tmp_path: Path) -> None:
    gold, pred = _tagged(2, 20)
    (tmp_path / "gold.txt").write_text(_with_markers(gold, 10)[0])
    (tmp_path / "pred.txt").write_text("".join(p + "\n" for p in pred))
    data = cli_json("score", "gold.txt", "pred.txt", "--skip", "^<utt>", cwd=tmp_path)
    assert "gold.txt: skipped 2 line(s) matching --skip '^<utt>'" in data["warnings"], data["warnings"]
    assert not any(w.startswith("pred.txt") for w in data["warnings"])  # nothing left out of it: nothing said
    # one file with both columns says the same of its own lines
    markers = _with_markers([f"{g} {p}" for g, p in zip(gold, pred)], 10)[0]
    (tmp_path / "both.txt").write_text(markers)
    one = cli_json("score", "both.txt", "--skip", "^<utt>", cwd=tmp_path)
    assert "both.txt: skipped 2 line(s) matching --skip '^<utt>'" in one["warnings"], one["warnings"]


def test_blank_lines_in_two_file_mode_are_counted_per_file(tmp_path: Path) -> None:
    gold, pred = _tagged(5, 12)
    for name, labels in (("gold.txt", gold), ("a.txt", pred), ("b.txt", gold[::-1])):
        (tmp_path / name).write_text("".join(x + ("\n\n" if i in (3, 7) else "\n") for i, x in enumerate(labels)))
    data = cli_json("score", "gold.txt", "a.txt", cwd=tmp_path)
    assert data["n_instances"] == 12
    assert {"gold.txt: skipped 2 blank line(s)", "a.txt: skipped 2 blank line(s)"} <= set(data["warnings"])
    compared = cli_json("compare", "gold.txt", "a.txt", "b.txt", "--seed", "1", "--rounds", "100", cwd=tmp_path)
    said = [w for w in compared["warnings"] if "blank line" in w]
    assert said == [f"{n}: skipped 2 blank line(s)" for n in ("gold.txt", "a.txt", "b.txt")]
    blocks = cli_json("score", "gold.txt", "a.txt", "--blocks", "blank-line", cwd=tmp_path)
    assert not any("blank line" in w for w in blocks["warnings"])  # blank lines delimiting blocks are not news


def test_skip_in_compare_with_prediction_files(tmp_path: Path) -> None:
    gold, a = _tagged(3, 60, 0.8)
    _, b = _tagged(4, 60, 0.6)
    b = [x if i % 3 else g for i, (g, x) in enumerate(zip(gold, b))]
    for name, labels, every, offset in (("gold", gold, 9, 0), ("sysa", a, 5, 2), ("sysb", b, 13, 4)):
        (tmp_path / f"{name}.txt").write_text(_with_markers(labels, every, offset=offset)[0])
        (tmp_path / f"plain_{name}.txt").write_text("".join(x + "\n" for x in labels))
    data = cli_json(
        "compare",
        "gold.txt",
        "sysa.txt",
        "sysb.txt",
        "--skip",
        "^<utt>$",
        "--seed",
        "3",
        "--rounds",
        "300",
        "--metric",
        "macro.f1,accuracy",
        cwd=tmp_path,
    )
    reference = clfeval.compare(
        clfeval.read(
            str(tmp_path / "plain_gold.txt"),
            *[str(tmp_path / "plain_sysa.txt"), str(tmp_path / "plain_sysb.txt")],
            names=["sysa", "sysb"],
        ),
        metrics=["macro.f1", "accuracy"],
        test=clfeval.Test(rounds=300, seed=3),
    ).to_dict()
    assert data["n_instances"] == 60
    assert data["scores"] == reference["scores"]
    assert data["scores"]["sysa"]["accuracy"] == pytest.approx(np.mean(np.array(gold) == np.array(a)))
    assert [(p["metric"], p["p_value"]) for p in data["pairs"]] == [
        (p["metric"], p["p_value"]) for p in reference["pairs"]
    ]
    assert data["results"]["sysa"]["options"]["skip"] == "^<utt>$"


def test_skip_in_cv_and_count(tmp_path: Path) -> None:
    folds = [_tagged(10 + k, 30) for k in range(2)]
    for k, (gold, pred) in enumerate(folds):
        lines = [f"w {g} {p}" for g, p in zip(gold, pred)]
        (tmp_path / f"fold{k}.txt").write_text(_with_markers(lines, 4 + k)[0])
    data = cli_json("cv", "fold0.txt", "fold1.txt", "--skip", "^<utt>", cwd=tmp_path)
    pooled = _expected(folds[0][0] + folds[1][0], folds[0][1] + folds[1][1])
    assert _cells(data["pooled"]["confusion_matrix"]) == pooled
    assert [f["n_instances"] for f in data["folds"]] == [30, 30]
    assert any("fold0.txt: skipped 8 line(s) matching --skip" in w for w in data["warnings"])
    api = clfeval.cv(
        clfeval.read_folds(
            [str(tmp_path / "fold0.txt"), str(tmp_path / "fold1.txt")], reading=clfeval.Reading(skip="^<utt>")
        )
    )
    assert _cells_of(api.pooled) == pooled

    out = run_cli("count", "fold0.txt", "--skip", "^<utt>", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "clfeval: warning: fold0.txt: skipped 8 line(s) matching --skip '^<utt>'" in out.stderr.decode()
    counted = json.loads(out.stdout)
    assert counted["n_instances"] == 30 and counted["options"]["skip"] == "^<utt>"
    assert _cells({"labels": counted["labels"], "counts": counted["cells"]}) == _expected(*folds[0])


# --------------------------------------------------------------------------- blank lines


def test_blank_lines_are_skipped_in_single_label_input(tmp_path: Path) -> None:
    gold, pred = _tagged(5, 40)
    lines = [f"{g} {p}" for g, p in zip(gold, pred)]
    text = (
        "\n\n" + "\n".join(lines[:10]) + "\n\n\n" + "\n".join(lines[10:25]) + "\n   \n" + "\n".join(lines[25:]) + "\n\n"
    )
    (tmp_path / "blank.txt").write_text(text)
    data = cli_json("score", "blank.txt", cwd=tmp_path)
    assert data["n_instances"] == 40 and _cells(data["confusion_matrix"]) == _expected(gold, pred)
    assert "blank.txt: skipped 6 blank line(s)" in data["warnings"]
    # two files with their blank lines at the same places pair up
    (tmp_path / "gold.txt").write_text("A\nB\n\nB\nA\n\n")
    (tmp_path / "pred.txt").write_text("A\nA\n\nB\nB\n")
    data = cli_json("score", "gold.txt", "pred.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("A", "A"): 1, ("B", "A"): 1, ("B", "B"): 1, ("A", "B"): 1}


def test_blank_lines_at_different_places_in_two_files_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("A\nB\n\nB\nA\n")
    (tmp_path / "pred.txt").write_text("A\nA\nB\n\nB\n")
    cli_error(
        run_cli("score", "gold.txt", "pred.txt", cwd=tmp_path),
        "pred.txt:3:",
        "line 4 of gold.txt",
        "blank lines must fall at the same places",
    )
    (tmp_path / "other.txt").write_text("A\nB\n\nB\nA\n")
    cli_error(
        run_cli("compare", "gold.txt", "other.txt", "pred.txt", cwd=tmp_path),
        "pred.txt:3:",
        "blank lines must fall at the same places",
    )
    with pytest.raises(clfeval.InputError, match=r"pred\.txt:3"):
        clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt")))


# --------------------------------------------------------------------------- --translate

_MAP = "# Penn tags to coarse ones\n\nNNS > NN\n  VBD   >   VB  \nVBZ > VB\n# unused:\nXX > YY\n"


def _translated(label: str) -> str:
    return {"NNS": "NN", "VBD": "VB", "VBZ": "VB"}.get(label, label)


def test_translate_maps_gold_predictions_and_training_labels(tmp_path: Path) -> None:
    fine = ("NN", "NNS", "VB", "VBD", "VBZ", "JJ")
    rng = np.random.default_rng(6)
    gold = [fine[i] for i in rng.integers(0, len(fine), 60)]
    pred = [g if rng.random() < 0.6 else fine[int(rng.integers(0, len(fine)))] for g in gold]
    train = [fine[i] for i in rng.integers(0, len(fine), 90)]
    (tmp_path / "map.txt").write_text(_MAP)
    (tmp_path / "run.txt").write_text("".join(f"w {g} {p}\n" for g, p in zip(gold, pred)))
    (tmp_path / "train.txt").write_text("".join(f"w {t}\n" for t in train))
    (tmp_path / "run_coarse.txt").write_text(
        "".join(f"w {_translated(g)} {_translated(p)}\n" for g, p in zip(gold, pred))
    )
    (tmp_path / "train_coarse.txt").write_text("".join(f"w {_translated(t)}\n" for t in train))
    data = cli_json("score", "run.txt", "--translate", "map.txt", "--train", "train.txt", cwd=tmp_path)
    reference = cli_json("score", "run_coarse.txt", "--train", "train_coarse.txt", cwd=tmp_path)
    assert data["labels"] == ["JJ", "NN", "VB"] == reference["labels"] and data["label_source"] == "train"
    coarse_train = [_translated(t) for t in train]
    weights = data["averages"]["lfb"]["weights"]
    assert weights == pytest.approx({lab: coarse_train.count(lab) / 90 for lab in ("JJ", "NN", "VB")})
    assert data["per_label"] == reference["per_label"] and data["averages"] == reference["averages"]
    assert _cells(data["confusion_matrix"]) == _expected([_translated(g) for g in gold], [_translated(p) for p in pred])
    assert data["options"]["translate"] == "map.txt"
    # the mapping no label used is reported, naming its line; the text report lists it too
    unused = "map.txt: 1 mapping(s) never used (no such label in the data): 'XX' > 'YY' (line 7)"
    assert unused in data["warnings"] and not any("never used" in w for w in reference["warnings"])
    text = run_cli("score", "run.txt", "--translate", "map.txt", cwd=tmp_path).stdout.decode()
    assert "warnings:" in text and unused in text
    # the API, with a mapping instead of a file
    result = clfeval.score(
        clfeval.read(
            str(tmp_path / "run.txt"), reading=clfeval.Reading(translate={"NNS": "NN", "VBD": "VB", "VBZ": "VB"})
        ),
        scoring=clfeval.Scoring(train=str(tmp_path / "train.txt")),
    )
    assert result.to_dict()["per_label"] == data["per_label"]


def test_a_mapping_used_only_by_training_labels_is_used(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("NNS > NN\nVBD > VB\n")
    (tmp_path / "run.txt").write_text("NN NN\nVB NNS\n")
    (tmp_path / "train.txt").write_text("NN\nVBD\nVB\n")
    data = cli_json("score", "run.txt", "--translate", "map.txt", "--train", "train.txt", cwd=tmp_path)
    assert not any("never used" in w for w in data["warnings"]), data["warnings"]
    assert data["averages"]["lfb"]["weights"] == pytest.approx({"NN": 1 / 3, "VB": 2 / 3})
    alone = cli_json("score", "run.txt", "--translate", "map.txt", cwd=tmp_path)
    assert "map.txt: 1 mapping(s) never used (no such label in the data): 'VBD' > 'VB' (line 2)" in alone["warnings"]


@pytest.mark.parametrize(
    "content,needles",
    [
        ("NNS > NN\nVBD->VB\n", ["map.txt:2:", "expected a mapping 'old > new'", "'VBD->VB'"]),
        ("NNS > NN\nVBD\n", ["map.txt:2:", "expected a mapping"]),
        ("NNS > NN\nVBD > VB\n\nNNS > JJ\n", ["map.txt:4:", "'NNS' is already mapped to 'NN' on line 1", "'JJ'"]),
        ("# nothing\n\n", ["map.txt:", "holds no mapping"]),
    ],
)
def test_bad_translation_files(tmp_path: Path, content: str, needles: list[str]) -> None:
    (tmp_path / "map.txt").write_text(content)
    (tmp_path / "run.txt").write_text("NN NN\nVBD VB\n")
    cli_error(run_cli("score", "run.txt", "--translate", "map.txt", cwd=tmp_path), *needles)
    cli_error(run_cli("count", "run.txt", "--translate", "map.txt", cwd=tmp_path), *needles)


def test_a_mapping_repeated_alike_is_fine_and_a_missing_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("NNS > NN\nNNS > NN\n")
    (tmp_path / "run.txt").write_text("NN NNS\nNNS NN\n")
    data = cli_json("score", "run.txt", "--translate", "map.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("NN", "NN"): 2}
    cli_error(
        run_cli("score", "run.txt", "--translate", "nomap.txt", cwd=tmp_path), "nomap.txt: no such file (--translate)"
    )


def test_translate_labels_inside_label_sets(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("NNS > NN\nVBD > VB\n")
    (tmp_path / "run.txt").write_text("w NN,NNS NN\nw VBD VB,VBD\nw JJ JJ,NNS\nw VB,JJ VBD\n")
    (tmp_path / "coarse.txt").write_text("w NN NN\nw VB VB\nw JJ JJ,NN\nw VB,JJ VB\n")
    args = ("--multilabel", "--duplicates", "collapse")
    data = cli_json("score", "run.txt", "--translate", "map.txt", *args, cwd=tmp_path)
    reference = cli_json("score", "coarse.txt", *args, cwd=tmp_path)
    assert data["labels"] == ["JJ", "NN", "VB"]
    assert data["per_label"] == reference["per_label"] and data["averages"] == reference["averages"]
    assert {lab: (r["support"], r["tp"], r["predicted"]) for lab, r in data["per_label"].items()} == {
        "JJ": (2, 1, 1),
        "NN": (1, 1, 2),
        "VB": (2, 2, 2),
    }
    with pytest.raises(clfeval.ClfevalError, match="--multilabel"):
        clfeval.score(clfeval.read(str(tmp_path / "run.txt"), reading=clfeval.Reading(cutoff=0.0, multilabel=True)))


def test_translate_in_compare_cv_and_count(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("NNS > NN\nVBD > VB\n")
    (tmp_path / "gold.txt").write_text("NN\nNNS\nVBD\nVB\nJJ\n")
    (tmp_path / "a.txt").write_text("NNS\nNN\nVB\nVBD\nNN\n")
    (tmp_path / "b.txt").write_text("NN\nVB\nVBD\nJJ\nJJ\n")
    data = cli_json(
        "compare",
        "gold.txt",
        "a.txt",
        "b.txt",
        "--translate",
        "map.txt",
        "--metric",
        "accuracy",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    assert data["labels"] == ["JJ", "NN", "VB"]
    assert data["scores"] == {"a": {"accuracy": 0.8}, "b": {"accuracy": 0.6}}
    assert data["pairs"][0]["sign_test"]["a_better"] == 2 and data["pairs"][0]["sign_test"]["b_better"] == 1
    assert data["results"]["a"]["options"]["translate"] == "map.txt"

    (tmp_path / "fold.txt").write_text("w NNS NN\nw VBD VB\nw JJ NN\n")
    cv = cli_json("cv", "fold.txt", "fold.txt", "--translate", "map.txt", cwd=tmp_path)
    assert _cells(cv["pooled"]["confusion_matrix"]) == {("NN", "NN"): 2, ("VB", "VB"): 2, ("JJ", "NN"): 2}

    out = run_cli("count", "gold.txt", "a.txt", "--translate", "map.txt", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    counted = json.loads(out.stdout)
    assert _cells({"labels": counted["labels"], "counts": counted["cells"]}) == {
        ("NN", "NN"): 2,
        ("VB", "VB"): 2,
        ("JJ", "NN"): 1,
    }
    assert counted["options"]["translate"] == "map.txt"


# --------------------------------------------------------------------------- trailing TiMBL distributions

_PLAIN = [("NN", "VB"), ("NN", "NN"), ("VB", "VB"), ("VB", "NN"), ("JJ", "NN"), ("NN", "NN")]
_DISTRIBUTIONS = [
    "{ NN 0.7, VB 0.3 }",
    "{ NN 0.9, VB 0.1 }",
    "{ VB 1.0 }",
    "{ NN 0.6, VB 0.4 }",
    "{ NN 0.5, JJ 0.25, VB 0.25 }",
    "{ NN 1 }",
]


@pytest.mark.parametrize("style", ["commas", "no commas", "scientific"])
def test_trailing_distribution_is_stripped(tmp_path: Path, style: str) -> None:
    dists = {
        "commas": _DISTRIBUTIONS,
        "no commas": [d.replace(",", "") for d in _DISTRIBUTIONS],
        "scientific": [
            "{ NN 7e-1, VB 3.0E-1 }",
            "{NN .9 VB .1}",
            "{ VB 1. }",
            "{ NN +0.6 , VB 0.4 }",
            "{ NN 5e-1 JJ 2.5e-1 VB 2.5e-1 }",
            "{ NN 1 }",
        ],
    }[style]
    (tmp_path / "timbl.txt").write_text("".join(f"w1 w2 {g} {p} {d}\n" for (g, p), d in zip(_PLAIN, dists)))
    data = cli_json("score", "timbl.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(*zip(*_PLAIN))
    assert data["warnings"] == [
        ("precision is 0/0 for 1 label(s) never predicted: 'JJ'; set to 0 and included in averages")
    ]
    result = clfeval.score(clfeval.read(str(tmp_path / "timbl.txt")))
    assert _cells_of(result) == _expected(*zip(*_PLAIN))


def test_keep_trailing_reads_the_distribution_as_fields(tmp_path: Path) -> None:
    (tmp_path / "timbl.txt").write_text("".join(f"w1 w2 {g} {p} {d}\n" for (g, p), d in zip(_PLAIN, _DISTRIBUTIONS)))
    data = cli_json("score", "timbl.txt", "--keep-trailing", cwd=tmp_path)
    assert set(data["labels"]) == {"0.3", "0.1", "1.0", "0.4", "0.25", "1", "}"}
    assert data["options"]["keep_trailing"] is True
    assert any("lines have between" in w for w in data["warnings"])
    result = clfeval.score(clfeval.read(str(tmp_path / "timbl.txt"), reading=clfeval.Reading(keep_trailing=True)))
    assert "}" in result.labels and "NN" not in result.labels


def test_trailing_distribution_then_distance(tmp_path: Path) -> None:
    """TiMBL's +v db+di: the distribution and the distance after it go, so the default columns (-2, -1) are
    gold and predicted; finagle keeps the distance as its confidence column."""
    distances = ["0.0123", "0.5", "0", "1e-3", "2.25", "0.75"]
    (tmp_path / "timbl.txt").write_text(
        "".join(f"w1 w2 {g} {p} {d} {x}\n" for (g, p), d, x in zip(_PLAIN, _DISTRIBUTIONS, distances))
    )
    data = cli_json("score", "timbl.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(*zip(*_PLAIN))
    kept = cli_json("score", "timbl.txt", "--keep-trailing", cwd=tmp_path)  # then the last field is the distance
    assert _cells(kept["confusion_matrix"]) != _expected(*zip(*_PLAIN))
    # and finagle reads the distance as the confidence column with the defaults (-3, -2, -1)
    out = run_cli(
        "finagle",
        "timbl.txt",
        "--threshold",
        "0.6",
        "--lower-is-more-confident",
        "--to",
        "VB",
        "--format",
        "json",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    finagle = json.loads(out.stdout)
    assert sum(b["n"] for b in finagle["calibration"]) == 6
    # distances 2.25 and 0.75 are above 0.6: their predictions (NN, one of them right) go to VB
    assert finagle["moved"]["changed"] == 2 and finagle["moved"]["lost"] == 1


def test_set_like_cells_are_not_distributions(tmp_path: Path) -> None:
    (tmp_path / "sets.txt").write_text("a b c w NN {NN,VB}\na b c w VB VB\nw NN { NN, VB }\n")  # one width
    data = cli_json("score", "sets.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("NN", "{NN,VB}"): 1, ("VB", "VB"): 1, ("VB", "}"): 1}
    (tmp_path / "ml.txt").write_text("w {A,B} {A,C}\nw {B} {B}\n")
    data = cli_json("score", "ml.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("{A,B}", "{A,C}"): 1, ("{B}", "{B}"): 1}


def test_trailing_distribution_in_tsv_and_in_a_predictions_file(tmp_path: Path) -> None:
    (tmp_path / "timbl.tsv").write_text("".join(f"w1\t{g}\t{p}\t{d}\n" for (g, p), d in zip(_PLAIN, _DISTRIBUTIONS)))
    assert _cells(cli_json("score", "timbl.tsv", cwd=tmp_path)["confusion_matrix"]) == _expected(*zip(*_PLAIN))
    kept = cli_json("score", "timbl.tsv", "--keep-trailing", cwd=tmp_path)
    assert set(kept["labels"]) == {p for _, p in _PLAIN} | set(_DISTRIBUTIONS)
    # a predictions file of TiMBL output, paired line by line with a gold file
    (tmp_path / "gold.txt").write_text("".join(g + "\n" for g, _ in _PLAIN))
    (tmp_path / "pred.txt").write_text("".join(f"w {p} {d}\n" for (_, p), d in zip(_PLAIN, _DISTRIBUTIONS)))
    data = cli_json("score", "gold.txt", "pred.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(*zip(*_PLAIN))


# --------------------------------------------------------------------------- --cutoff


def test_cutoff_turns_real_valued_predictions_into_labels(tmp_path: Path) -> None:
    values = ["0.5", "-0.2", "0", "-1.5", "2e-3", "0.0", "-0", "1e-300", "-3"]
    gold = ["+1", "+1", "-1", "-1", "+1", "+1", "-1", "-1", "-1"]
    # value >= cut-off, as confusionmatrix.py -C: exactly 0 (and -0) is at the cut-off, so above
    expected = ["+1", "-1", "+1", "-1", "+1", "+1", "+1", "+1", "-1"]
    (tmp_path / "svm.txt").write_text("".join(f"{g} {v}\n" for g, v in zip(gold, values)))
    data = cli_json("score", "svm.txt", "--cutoff", "0", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(gold, expected)
    assert data["options"]["cutoff"] == {"value": 0.0, "above": "+1", "below": "-1", "rule": ">="}
    named = ["pos" if g == "+1" else "neg" for g in gold]
    (tmp_path / "named.txt").write_text("".join(f"{g} {v}\n" for g, v in zip(named, values)))
    data = cli_json("score", "named.txt", "--cutoff", "0", "--above", "pos", "--below", "neg", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(named, ["pos" if e == "+1" else "neg" for e in expected])
    # another cut-off: 0.5 itself is at the cut-off, so above
    data = cli_json("score", "svm.txt", "--cutoff", "0.5", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(gold, ["+1" if float(v) >= 0.5 else "-1" for v in values])
    result = clfeval.score(
        clfeval.read(str(tmp_path / "named.txt"), reading=clfeval.Reading(cutoff=0.0, above="pos", below="neg"))
    )
    assert _cells_of(result) == _expected(named, ["pos" if e == "+1" else "neg" for e in expected])


@pytest.mark.parametrize("bad", ["abc", "nan", "inf", "+1"])
def test_cutoff_with_a_prediction_that_is_not_a_number(tmp_path: Path, bad: str) -> None:
    (tmp_path / "svm.txt").write_text(f"+1 0.5\n-1 -0.5\n\n+1 {bad}\n-1 0.1\n")
    if bad == "+1":  # a label-looking number is a number
        data = cli_json("score", "svm.txt", "--cutoff", "0", cwd=tmp_path)
        assert _cells(data["confusion_matrix"]) == {("+1", "+1"): 2, ("-1", "-1"): 1, ("-1", "+1"): 1}
        return
    cli_error(
        run_cli("score", "svm.txt", "--cutoff", "0", cwd=tmp_path), f"svm.txt:4: the prediction '{bad}' is not a number"
    )
    (tmp_path / "gold.txt").write_text("+1\n-1\n+1\n")
    (tmp_path / "a.txt").write_text("0.1\n-2\n0.3\n")
    (tmp_path / "b.txt").write_text(f"0.1\n{bad}\n0.3\n")
    cli_error(
        run_cli("compare", "gold.txt", "a.txt", "b.txt", "--cutoff", "0", cwd=tmp_path),
        f"b.txt:2: the prediction '{bad}' is not a number",
    )


def test_cutoff_in_compare_and_count_and_refused_with_multilabel(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("+1\n+1\n-1\n-1\n+1\n-1\n")
    (tmp_path / "sa.txt").write_text("0.3\n-0.1\n0\n-2\n1\n0.0001\n")
    (tmp_path / "sb.txt").write_text("1\n2\n-3\n0\n-1\n-1\n")
    data = cli_json(
        "compare", "gold.txt", "sa.txt", "sb.txt", "--cutoff", "0", "--metric", "accuracy", "--seed", "1", cwd=tmp_path
    )
    assert data["scores"]["sa"]["accuracy"] == pytest.approx(3 / 6)  # 0 is at the cut-off: +1
    assert data["scores"]["sb"]["accuracy"] == pytest.approx(4 / 6)
    out = run_cli("count", "gold.txt", "sa.txt", "--cutoff", "0", cwd=tmp_path)
    counted = json.loads(out.stdout)
    assert _cells({"labels": counted["labels"], "counts": counted["cells"]}) == {
        ("+1", "+1"): 2,
        ("+1", "-1"): 1,
        ("-1", "-1"): 1,
        ("-1", "+1"): 2,
    }
    assert counted["options"]["cutoff"] == {"value": 0.0, "above": "+1", "below": "-1", "rule": ">="}
    cli_error(
        run_cli("score", "gold.txt", "sa.txt", "--cutoff", "0", "--multilabel", cwd=tmp_path),
        "--cutoff",
        "--multilabel",
    )
    cli_error(
        run_cli("score", "gold.txt", "sa.txt", "--cutoff", "0", "--above", "x", "--below", "x", cwd=tmp_path),
        "--above and --below must differ",
    )
    cli_error(
        run_cli("score", "gold.txt", "sa.txt", "--cutoff", "nan", cwd=tmp_path), "--cutoff must be a finite number"
    )


# --------------------------------------------------------------------------- negative column numbers


def test_negative_columns_on_lines_of_a_fixed_width(tmp_path: Path) -> None:
    gold, pred = _tagged(8, 30)
    (tmp_path / "fixed.txt").write_text(
        "".join(f"w{i} x {g} {p} {i / 10:.2f}\n" for i, (g, p) in enumerate(zip(gold, pred)))
    )
    data = cli_json("score", "fixed.txt", "--gold-col", "-3", "--pred-col", "-2", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == _expected(gold, pred) and data["warnings"] == []
    # the same by positive numbers, and through the API
    positive = cli_json("score", "fixed.txt", "--gold-col", "3", "--pred-col", "4", cwd=tmp_path)
    assert positive["confusion_matrix"] == data["confusion_matrix"]
    assert _cells_of(clfeval.score(clfeval.read(str(tmp_path / "fixed.txt"), gold_col=-3, pred_col=-2))) == _expected(
        gold, pred
    )


def test_negative_columns_on_lines_of_varying_width_with_runs_of_spaces(tmp_path: Path) -> None:
    """Lines whose first line has runs of spaces take the line path: each line counted from its own end."""
    (tmp_path / "ragged.txt").write_text("a  NN VB 0.1\nc d e NN NN 0.2\nVB VB 0.3\n")
    data = cli_json("score", "ragged.txt", "--gold-col", "-3", "--pred-col", "-2", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("NN", "VB"): 1, ("NN", "NN"): 1, ("VB", "VB"): 1}
    assert any("lines have between 3 and 6 fields" in w for w in data["warnings"])


def test_negative_columns_on_whitespace_lines_of_varying_width(tmp_path: Path) -> None:
    (tmp_path / "ragged.txt").write_text("a NN VB 0.1\nc d e NN NN 0.2\nVB VB 0.3\n")
    data = cli_json("score", "ragged.txt", "--gold-col", "-3", "--pred-col", "-2", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("NN", "VB"): 1, ("NN", "NN"): 1, ("VB", "VB"): 1}


def test_default_columns_on_whitespace_lines_growing_wider(tmp_path: Path) -> None:
    (tmp_path / "ragged.txt").write_text("a NN VB\nc d NN NN\n")
    data = cli_json("score", "ragged.txt", cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("NN", "VB"): 1, ("NN", "NN"): 1}


def test_a_wider_csv_line_is_an_error_when_a_column_counts_from_the_start(tmp_path: Path) -> None:
    (tmp_path / "wide.csv").write_text("x,A,B\ny,A,B\nz,A,B,C\n")
    cli_error(
        run_cli("score", "wide.csv", "--gold-col", "2", "--pred-col", "3", cwd=tmp_path),
        "wide.csv:3: expected 3 fields, found 4",
    )
    cli_error(
        run_cli("score", "wide.csv", "--gold-col", "2", "--pred-col", "-1", cwd=tmp_path),
        "wide.csv:3: expected 3 fields, found 4",
    )


@pytest.mark.parametrize("skip", [[], ["--skip", "^#"]])  # the fast path, and the line path
def test_ragged_lines_with_a_separator_are_read_when_every_column_counts_from_the_end(
    tmp_path: Path, skip: list[str]
) -> None:
    # TiMBL output written with -f ',' and sparse features: lines differ in width, the last two fields are labels
    (tmp_path / "timbl.csv").write_text("f1,f2,A,B\nf1,A,A\n" + ("#\n" if skip else "") + "f1,f2,f3,B,B\n")
    data = cli_json("score", "timbl.csv", *skip, cwd=tmp_path)
    assert _cells(data["confusion_matrix"]) == {("A", "B"): 1, ("A", "A"): 1, ("B", "B"): 1}
    assert any("lines have between 3 and 5 fields" in w and "counted from its end" in w for w in data["warnings"])


# --------------------------------------------------------------------------- count and --counts


def test_count_writes_the_counts_of_the_transformed_labels(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("NNS > NN\n")
    (tmp_path / "run.txt").write_text(
        "<utt>\nw NN NNS { NNS 0.6, NN 0.4 }\nw NNS VB { VB 1 }\n\n<utt>\nw VB VB { VB 0.9, NN 0.1 }\n"
    )
    out = run_cli("count", "run.txt", "--skip", "^<utt>$", "--translate", "map.txt", "-o", "counts.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    counted = json.loads((tmp_path / "counts.json").read_text())
    assert counted["n_instances"] == 3
    assert _cells({"labels": counted["labels"], "counts": counted["cells"]}) == {
        ("NN", "NN"): 1,
        ("NN", "VB"): 1,
        ("VB", "VB"): 1,
    }
    assert counted["options"] == {"skip": "^<utt>$", "translate": "map.txt"}
    # scoring the count file gives what scoring the input with the same rules gives
    direct = cli_json("score", "run.txt", "--skip", "^<utt>$", "--translate", "map.txt", cwd=tmp_path)
    from_counts = cli_json("score", "--counts", "counts.json", cwd=tmp_path)
    assert from_counts["per_label"] == direct["per_label"] and from_counts["averages"] == direct["averages"]
    # joint counts of a table with a column per system
    (tmp_path / "table.txt").write_text("g a b\n<utt>\nNNS NN VB\nVB VB 0\n")
    out = run_cli(
        "count",
        "table.txt",
        "--gold-col",
        "g",
        "--pred-col",
        "a",
        "--pred-col",
        "b",
        "--skip",
        "<utt>",
        "--translate",
        "map.txt",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    joint = json.loads(out.stdout)
    assert joint["kind"] == "joint" and sorted(map(tuple, joint["rows"])) == [
        ("NN", "NN", "VB", 1),
        ("VB", "VB", "0", 1),
    ]
    api = clfeval.read(
        str(tmp_path / "run.txt"), reading=clfeval.Reading(skip="^<utt>$", translate=str(tmp_path / "map.txt"))
    )
    assert api.counts.n_instances == 3 and api.options["skip"] == "^<utt>$"


@pytest.mark.parametrize(
    "command,rule",
    [
        ("score", ["--skip", "x"]),
        ("score", ["--translate", "map.txt"]),
        ("score", ["--cutoff", "0"]),
        ("score", ["--keep-trailing"]),
        ("compare", ["--translate", "map.txt"]),
        ("cv", ["--skip", "^<utt>"]),
    ],
)
def test_input_rules_are_refused_with_count_files(tmp_path: Path, command: str, rule: list[str]) -> None:
    (tmp_path / "map.txt").write_text("A > B\n")
    (tmp_path / "run.txt").write_text("A A\nA B\n")
    clfeval.save_counts(clfeval.read(str(tmp_path / "run.txt")), str(tmp_path / "counts.json"))
    cli_error(
        run_cli(command, "--counts", "counts.json", *rule, cwd=tmp_path),
        rule[0],
        "when reading instances, not to count files",
        "clfeval count",
    )


# --------------------------------------------------------------------------- options in the JSON


def test_rules_are_recorded_in_the_json_options(tmp_path: Path) -> None:
    (tmp_path / "map.txt").write_text("+1 > pos\n-1 > neg\n")
    (tmp_path / "svm.txt").write_text("<utt>\n+1 0.4 { +1 0.6, -1 0.4 }\n-1 -0.3 { -1 1 }\n\n+1 -0.1 { -1 1 }\n")
    data = cli_json(
        "score",
        "svm.txt",
        "--skip",
        "^<utt>$",
        "--translate",
        "map.txt",
        "--cutoff",
        "0",
        "--blocks",
        "blank-line",
        cwd=tmp_path,
    )
    assert data["options"] == {
        "zero_division": "0",
        "undefined": "include",
        "skip": "^<utt>$",
        "translate": "map.txt",
        "cutoff": {"value": 0.0, "above": "+1", "below": "-1", "rule": ">="},
        "blocks": "blank-line",
    }
    # the cut-off's labels are translated too
    assert _cells(data["confusion_matrix"]) == {("pos", "pos"): 1, ("neg", "neg"): 1, ("pos", "neg"): 1}
    assert data["inputs"]["n_blocks"] == 2
    kept = cli_json(
        "score",
        "svm.txt",
        "--skip",
        "<utt>",
        "--keep-trailing",
        "--gold-col",
        "1",
        "--pred-col",
        "2",
        "--block-col",
        "-1",
        cwd=tmp_path,
    )
    assert kept["options"]["keep_trailing"] is True and kept["options"]["blocks"] == {"column": "-1"}
    plain = cli_json("score", "svm.txt", "--skip", "<utt>", "--gold-col", "1", "--pred-col", "2", cwd=tmp_path)
    assert not {"keep_trailing", "translate", "cutoff", "blocks"} & set(plain["options"])
