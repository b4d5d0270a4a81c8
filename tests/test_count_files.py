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


def _write_parts(
    tmp_path: Path, n: int = 600, parts: int = 3, seed: int = 11, multilabel: bool = False, systems: int = 1
) -> tuple[Path, list[Path]]:
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
        path.write_text(header + "\n" + "\n".join(lines[k * n // parts : (k + 1) * n // parts]) + "\n")
        paths.append(path)
    return whole, paths


def _comparable(data: dict) -> dict:
    """A result without its provenance (inputs, options, warnings), at every level."""
    return {
        k: _comparable(v) if isinstance(v, dict) else v
        for k, v in data.items()
        if k not in ("inputs", "options", "warnings")
    }


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
    reference = json.loads(
        run_cli("score", str(whole), "--gold-col", "gold", "--pred-col", "sys0", "--format", "json").stdout
    )
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
    multilabel = clfeval.Reading(multilabel=True)
    for k, part in enumerate(parts):
        counted = clfeval.read(str(part), gold_col="gold", pred_col=["sys0", "sys1"], reading=multilabel)
        counts = counted.counts
        assert isinstance(counts, clfeval.JointCounts) and counts.systems == ("sys0", "sys1")
        clfeval.save_counts(counted, str(tmp_path / f"j{k}.json"))
        files.append(str(tmp_path / f"j{k}.json"))
        single = clfeval.read(str(part), gold_col="gold", pred_col="sys0", reading=multilabel)
        clfeval.save_counts(single, str(tmp_path / f"s{k}.json"))
    options = dict(metrics=["macro.f1", "samples.f1"], test=clfeval.Test(rounds=200, seed=3))
    direct = clfeval.compare(
        clfeval.read(str(whole), gold_col="gold", pred_col=["sys0", "sys1"], reading=multilabel), **options
    )
    from_counts = clfeval.compare(clfeval.load_counts(files), **options)
    assert _comparable(from_counts.to_dict()) == _comparable(direct.to_dict())
    one = clfeval.score(
        clfeval.read(str(whole), gold_col="gold", pred_col="sys0", reading=clfeval.Reading(multilabel=True))
    )
    summed = clfeval.score(clfeval.load_counts([str(tmp_path / "s1.json"), str(tmp_path / "s0.json")]))
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
    files = json.loads(
        run_cli("cv", *map(str, parts), "--gold-col", "gold", "--pred-col", "sys0", "--format", "json").stdout
    )
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


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "is not valid JSON"),
        ('{"schema": "clfeval.score/2"}', "is not a clfeval count file"),
        ('{"schema": "clfeval.counts/9", "kind": "confusion"}', "this clfeval reads 'clfeval.counts/1'"),
        ('{"schema": "clfeval.counts/1", "kind": "confusion", "labels": ["a"], "cells": [[1, 2]]}', "1×1 table"),
        (
            '{"schema": "clfeval.counts/1", "kind": "labelsets", "pairs": [[["a"], ["b"], -1]]}',
            "is -1: expected a count ≥ 0",
        ),
        ('{"schema": "clfeval.counts/1", "kind": "confusion"}', "needs the field 'labels'"),
    ],
)
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
    with pytest.raises(
        InputError,
        match=r"multi\.json: holds multi-label counts .* cannot be added to the "
        r"single-label counts of .*single\.json",
    ):
        clfeval.load_counts([str(single), str(multi)])
    out = run_cli("compare", "--counts", str(single))
    assert out.returncode == 2 and "holds the counts of one system" in out.stderr.decode()
    out = run_cli("score", "--counts", str(single), "--multilabel")
    assert out.returncode == 2 and "--multilabel and --engine do not apply" in out.stderr.decode()


_CONFUSION = '{"schema": "clfeval.counts/1", "kind": "confusion", "labels": ["a", "b"], '


@pytest.mark.parametrize(
    "content, message",
    [
        (_CONFUSION + '"cells": [[2.5, 1], [0, 3.9]]}', "cells[0][0] is 2.5: expected a whole number"),
        (_CONFUSION + '"cells": [[9000000000000000000, 9000000000000000000], [0, 3]]}', "counts above 2^53"),
        (
            _CONFUSION + '"cells": [[4503599627370496, 4503599627370496], [1, 0]]}',
            "cells add up to 9,007,199,254,740,993",
        ),
        (_CONFUSION + '"cells": [[1, 1e19], [0, 1]]}', "cells[0][1] is 1e+19"),
        (_CONFUSION + '"cells": [[1, "x"], [0, 1]]}', "cells[0][1] is 'x': expected a count"),
        (_CONFUSION + '"cells": [[1, null], [0, 1]]}', "cells[0][1] is null: expected a count"),
        (_CONFUSION + '"cells": [[1, true], [0, 1]]}', "cells[0][1] is true: expected a count"),
        (_CONFUSION + '"cells": [[1, 2], [3]]}', "cells must be a 2×2 table"),
        (_CONFUSION + '"cells": [[1, 2], [3, 4]], "n_instances": 7}', "n_instances is 7 but the counts add up to 10"),
        (
            '{"schema": "clfeval.counts/1", "kind": "confusion", "labels": ["a", "a"], "cells": [[1, 0], [0, 1]]}',
            "labels: 'a' repeated",
        ),
        (
            '{"schema": "clfeval.counts/1", "kind": "labelsets", "duplicates": "foo", "pairs": []}',
            "duplicates must be 'keep' or 'collapse', found \"foo\"",
        ),
        ('{"schema": "clfeval.counts/1", "kind": "labelsets", "empty": 3, "pairs": []}', "empty must be"),
        (
            '{"schema": "clfeval.counts/1", "kind": "labelsets", "pairs": [[["a"], ["b"], 1.5]]}',
            "pairs[0][2] is 1.5: expected a whole number",
        ),
        (
            '{"schema": "clfeval.counts/1", "kind": "labelsets", "pairs": [[["a"], ["b"], false]]}',
            "pairs[0][2] is false",
        ),
        ('{"schema": "clfeval.counts/1", "kind": "labelsets", "pairs": {"a": 1}}', "pairs must be a list"),
        ('{"schema": "clfeval.counts/1", "kind": "joint", "systems": ["x", "x"], "rows": []}', "systems: 'x' repeated"),
        (
            '{"schema": "clfeval.counts/1", "kind": "joint", "systems": ["x", "y"], "rows": [["a", "a", "b", 1e300]]}',
            "rows[0][3] is 1e+300",
        ),
        (
            '{"schema": "clfeval.counts/1", "kind": "bogus"}',
            "kind must be confusion, labelsets, joint, spans, scored, weighted-confusion or weighted-labelsets, "
            'found "bogus"',
        ),
        (
            '{"schema": "clfeval.counts/1", "kind": ["confusion"]}',
            "kind must be confusion, labelsets, joint, spans, scored, weighted-confusion or weighted-labelsets",
        ),
    ],
)
def test_hand_edited_count_files_get_a_named_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "edited.json"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        clfeval.load_counts(str(path))
    assert str(info.value) == f"{path}: {message}" or (
        str(info.value).startswith(f"{path}: ") and message in str(info.value)
    ), str(info.value)
    out = run_cli("score", "--counts", str(path))
    err = out.stderr.decode()
    assert out.returncode == 2 and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_adding_count_files_past_the_bound_names_the_file(tmp_path: Path) -> None:
    half = '{"schema": "clfeval.counts/1", "kind": "confusion", "labels": ["a"], "cells": [[4503599627370497]]}'
    (tmp_path / "one.json").write_text(half)
    (tmp_path / "two.json").write_text(half)
    with pytest.raises(InputError, match=r"two\.json: with the files before it, the counts add up to"):
        clfeval.load_counts([str(tmp_path / "one.json"), str(tmp_path / "two.json")])


def test_the_count_constructors_raise_errors_of_the_documented_tree() -> None:
    for call in (
        lambda: clfeval.ConfusionCounts(("a", "a"), [[1, 0], [0, 1]]),
        lambda: clfeval.ConfusionCounts(("a", "b"), [[1, 0]]),
        lambda: clfeval.ConfusionCounts(("a", "b"), [[1, 0.5], [0, 1]]),
        lambda: clfeval.ConfusionCounts(("a", "b"), [[1, -1], [0, 1]]),
        lambda: clfeval.ConfusionCounts(("a", "b"), [[2**60, 0], [0, 1]]),
        lambda: clfeval.LabelSetCounts({(("a",), ("b",)): 2.5}),
        lambda: clfeval.LabelSetCounts({(("a",), ("b",)): 1}, duplicates="twice"),
        lambda: clfeval.JointCounts(("x", "y"), {("a", "a"): 1}),
        lambda: clfeval.JointCounts(("x", "y"), {("a", "a", "b"): -2}),
        lambda: clfeval.PairedCounts({("a", "a", "b"): True}),
    ):
        with pytest.raises(clfeval.ClfevalError):
            call()
    assert clfeval.ConfusionCounts(("a", "b"), [[1.0, 2.0], [0, 1]]).cells.tolist() == [[1, 2], [0, 1]]


def test_count_file_label_sets_are_read_under_the_files_own_policies(tmp_path: Path) -> None:
    """A hand-edited labelsets file saying duplicates: collapse but holding ["A", "A"] was counted as a multiset."""
    (tmp_path / "c.json").write_text(
        '{"schema": "clfeval.counts/1", "kind": "labelsets", "duplicates": "collapse", '
        '"pairs": [[["A", "A"], ["A"], 2], [[], ["B"], 1]]}'
    )
    counts = clfeval.load_counts(str(tmp_path / "c.json")).counts
    assert counts.pairs == {(("A",), ("A",)): 2, ((), ("B",)): 1}
    (tmp_path / "n.json").write_text(
        '{"schema": "clfeval.counts/1", "kind": "labelsets", "empty": "label", "pairs": [[["NONE", "A"], ["A"], 1]]}'
    )
    with pytest.raises(InputError, match=r"n\.json: pairs\[0\]\[0\]: label NONE stands for the empty set"):
        clfeval.load_counts(str(tmp_path / "n.json"))
    (tmp_path / "m.json").write_text(
        '{"schema": "clfeval.counts/1", "kind": "confusion", "multilabel": true, "labels": ["a"], "cells": [[1]]}'
    )
    with pytest.raises(InputError, match="multilabel must be false"):
        clfeval.load_counts(str(tmp_path / "m.json"))


def test_more_public_count_objects_refuse_what_is_not_a_count() -> None:
    with pytest.raises(InputError, match="cells\\[0\\]\\[0\\] is true"):
        clfeval.ConfusionCounts(("a", "b"), np.array([[True, False], [False, True]]))
    with pytest.raises(InputError, match="the frequency of 'A' is -5"):
        clfeval.score(
            ["A", "B"], ["A", "A"], scoring=clfeval.Scoring(train=clfeval.LabelFrequencies({"A": -5, "B": 1}, 3))
        )
    with pytest.raises(InputError, match="the frequency of 'B' is True"):
        clfeval.LabelFrequencies({"A": 1, "B": True}, 2)
    assert clfeval.LabelFrequencies({"A": 0.25, "B": 0.75}, 4).counts["B"] == 0.75  # relative frequencies weigh alike
    with pytest.raises(InputError, match="tp must hold counts ≥ 0"):
        clfeval.LabelCounts(("a",), np.array([-1]), np.array([0]), np.array([0]), np.array([0]), 1)
    with pytest.raises(InputError, match="exceeds N"):
        clfeval.LabelCounts.from_arrays(("a", "b"), [1, 1], [5, 0], [0, 0], n_instances=3)
    label_counts = clfeval.LabelCounts.from_arrays(("a",), [1], [0], [0])
    for given in (clfeval.Counted(label_counts), label_counts):  # wrapped by a reader or not, the type is named
        with pytest.raises(
            clfeval.OptionError, match="score takes labels or ConfusionCounts / LabelSetCounts, not LabelCounts"
        ):
            clfeval.score(given)


def test_multilabel_counts_over_more_labels_than_a_dense_table_score_and_only_a_dense_view_is_refused() -> None:
    """20,000 labels stopped multi-label scoring (a dense pairs × labels table of 3 GiB); the counts are sparse now,
    and only asking for the split-count matrix as a dense array is refused, clearly."""
    k = 20_000
    gold = [[f"l{i}"] for i in range(k)]
    pred = [[f"l{(i + 1) % k}"] for i in range(k)]
    result = clfeval.score(gold, pred, multilabel=True)
    rows = result.per_label
    assert len(rows) == k and all((r.tp, r.fp, r.fn, r.tn) == (0, 1, 1, k - 2) for r in rows.values())
    assert result.confusion.gold_counts.tolist() == [1.0] * k
    with pytest.raises(InputError, match="split-count confusion matrix as a dense K×K table, which would take"):
        _ = result.confusion.gold_view


def test_training_labels_in_memory_are_split_as_the_data_was(tmp_path: Path) -> None:
    """Label sets read from a file are split on its separator (default ","), and so are training label sets given
    as strings beside them; beside arrays, strings are split only on a separator that was given."""
    (tmp_path / "ml.tsv").write_text("a,b\ta\nb\tb\n")
    counted = clfeval.read(str(tmp_path / "ml.tsv"), reading=clfeval.Reading(multilabel=True))
    r = clfeval.score(counted, scoring=clfeval.Scoring(train=["a,b", "b", "c"]))
    assert dict(r.lfb_frequencies) == pytest.approx({"a": 0.25, "b": 0.5, "c": 0.25})  # "a,b" is two labels
    with pytest.raises(clfeval.InputError, match="label_sep"):
        clfeval.score([["a"], ["b"]], [["a"], ["b"]], multilabel=True, scoring=clfeval.Scoring(train=["a,b"]))
    piped = clfeval.score(
        ["a|b"], ["a"], multilabel=clfeval.MultiLabel(sep="|"), scoring=clfeval.Scoring(train=["a|b"])
    )
    assert dict(piped.lfb_frequencies) == pytest.approx({"a": 0.5, "b": 0.5})


# -- count files carry what they were read under (issue 37, point 5) --------------------------------------------

_TAGS = "w1 B-PER B-PER\nw2 I-PER I-PER\nw3 O O\nw4 B-LOC B-LOC\n\nw1 I-ORG I-ORG\nw2 O B-ORG\n\n"


def _span_counts(tmp_path: Path, *options: str) -> tuple[Path, Path]:
    text = tmp_path / "tags.txt"
    text.write_text(_TAGS, encoding="utf-8")
    counts = tmp_path / "c.json"
    assert run_cli("count", str(text), *options, "-o", str(counts)).returncode == 0
    return text, counts


def test_a_span_count_file_refuses_another_scheme_or_unit(tmp_path: Path) -> None:
    from tests.conftest import cli_error

    text, counts = _span_counts(tmp_path, "--spans", "iob1")
    # the two readings differ: conlleval.pl finds 3 gold phrases where IOB1's strict rules find 2
    script = run_cli("score", str(text), "--spans", "conlleval", "--format", "conlleval").stdout.decode()
    strict = run_cli("score", str(text), "--spans", "iob1", "--format", "conlleval").stdout.decode()
    assert "with 3 phrases" in script and "with 2 phrases" in strict
    for command in (["score"], ["score", "--format", "conlleval"], ["cv"]):
        cli_error(
            run_cli(*command, "--counts", str(counts), "--spans", "conlleval"),
            f"{counts}: was counted with scheme iob1; --spans conlleval contradicts it",
        )
    cli_error(
        run_cli("score", "--counts", str(counts), "--spans", "--unit", "documents", "--ci", "bootstrap"),
        f"{counts}: was counted with unit sentences; --unit documents contradicts it",
    )
    # what agrees is taken: the same scheme, --spans alone, the same unit, --unit auto
    assert (
        run_cli("score", "--counts", str(counts), "--spans", "iob1", "--format", "conlleval").stdout.decode() == strict
    )
    for agreeing in (["--spans"], ["--spans", "iob1", "--unit", "sentences"], ["--unit", "auto"], []):
        out = run_cli("score", "--counts", str(counts), *agreeing, "--format", "json")
        assert out.returncode == 0 and json.loads(out.stdout)["spans"]["scheme"] == "iob1", agreeing
    cli_error(run_cli("score", "--counts", str(counts), "--spans", "--errors", str(tmp_path / "e.tsv")), "--errors")


def test_joint_span_count_files_refuse_another_scheme_and_label_counts_refuse_span_options(tmp_path: Path) -> None:
    from tests.conftest import cli_error

    text = tmp_path / "two.txt"
    # the tagger's column twice: two systems
    text.write_text(
        "\n".join(" ".join([*line.split(), line.split()[-1]]) if line else "" for line in _TAGS.split("\n"))
    )
    joint = tmp_path / "joint.json"
    args = ["--gold-col", "2", "--pred-col", "3", "--pred-col", "4"]
    assert run_cli("count", str(text), "--spans", "iob2", *args, "-o", str(joint)).returncode == 0
    cli_error(
        run_cli("compare", "--counts", str(joint), "--spans", "conlleval"),
        f"{joint}: was counted with scheme iob2; --spans conlleval contradicts it",
    )
    assert run_cli("compare", "--counts", str(joint), "--spans", "iob2", "--test", "sign").returncode == 0
    whole, _ = _write_parts(tmp_path, n=60, parts=1)
    labels = tmp_path / "labels.json"
    assert run_cli("count", str(whole), "--gold-col", "gold", "--pred-col", "sys0", "-o", str(labels)).returncode == 0
    for option in (["--spans"], ["--spans", "iob2"], ["--unit", "sentences"]):
        cli_error(
            run_cli("score", "--counts", str(labels), *option),
            f"{labels}: holds single-label counts, read without {option[0]}",
        )


@pytest.mark.parametrize("option", [[], ["--lower-is-more-confident"], ["--score-bins", "10"], ["--not-probabilities"]])
def test_a_scored_count_file_holds_the_scores_as_given_so_direction_and_binning_apply_exactly(
    tmp_path: Path, option: list[str]
) -> None:
    """``count --scores`` has no direction or binning option: the count file holds each score as the file gave it,
    so --lower-is-more-confident, --score-bins and --not-probabilities given when scoring it apply exactly, as they
    do to the file itself; a span option does not apply."""
    from tests.conftest import cli_error

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 120)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(120), 0, 1), 3)
    csv = tmp_path / "s.csv"
    csv.write_text("gold,p\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p)))
    counts = tmp_path / "s.json"
    assert run_cli("count", str(csv), "--scores", "p", "--gold-col", "gold", "-o", str(counts)).returncode == 0
    held = json.loads(counts.read_text())
    assert sorted((r[0], r[1]) for r in held["rows"]) == sorted({(str(a), float(b)) for a, b in zip(y, p)})

    def scored(*source: str) -> dict:
        out = json.loads(run_cli("score", *source, *option, "--format", "json").stdout)
        out.pop("inputs")
        return out

    assert scored("--counts", str(counts)) == scored(str(csv), "--scores", "p", "--gold-col", "gold")
    cli_error(run_cli("score", "--counts", str(counts), "--spans"), "holds scored predictions, read without --spans")
