"""Predictions that are not labels (issue 38 part 4): ``invalid=`` / ``--invalid`` with the policies error, wrong, omit.

The oracle: scikit-learn, with every invalid prediction replaced by a label outside the label set and the label set
declared (``f1_score(..., labels=label_set)``) for ``wrong``, and on the kept instances for ``omit``; the coverage's
interval against Wilson's formula written out here. The seam: lists, numpy, pandas and polars with None/NaN, a file
read by the CLI and the Accumulator give the same numbers.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score, precision_recall_fscore_support

import clfeval
from clfeval.count.invalid import INVALID_LABEL, INVALID_POLICIES
from tests.conftest import cli_error, cli_json, run_cli

LABELS = ["cat", "dog", "bird", "fish"]
#: What an LLM gives back besides a label: failed parses, an empty answer, a refusal, a label it invented.
NOT_LABELS = [None, float("nan"), "", "I cannot answer that.", "Cat!", "unknown"]
SUBSTITUTE = "__not_a_label__"


def _llm_case(rng: np.random.Generator, n: int, share: float) -> tuple[list[str], list[object]]:
    """Gold labels and LLM-like predictions: right, wrong, or (with probability ``share``) not a label at all."""
    gold = [LABELS[i] for i in rng.integers(0, len(LABELS), n)]
    pred: list[object] = []
    for g in gold:
        u = rng.random()
        if u < share:
            pred.append(NOT_LABELS[int(rng.integers(0, len(NOT_LABELS)))])
        elif u < share + (1 - share) * 0.6:
            pred.append(g)
        else:
            pred.append(LABELS[int(rng.integers(0, len(LABELS)))])
    return gold, pred


def _is_label(value: object) -> bool:
    return isinstance(value, str) and value in LABELS


def _wilson(kept: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval, written out (Wilson 1927; Agresti & Coull 1998, eq. 2)."""
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    p = kept / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@pytest.mark.parametrize("seed", range(12))
def test_wrong_equals_scikit_learn_with_the_invalid_predictions_outside_the_label_set(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold, pred = _llm_case(rng, int(rng.integers(5, 300)), float(rng.uniform(0.0, 0.5)))
    r = clfeval.score(gold, pred, labels=LABELS, invalid="wrong")
    substituted = [p if _is_label(p) else SUBSTITUTE for p in pred]
    p, rc, f, s = precision_recall_fscore_support(gold, substituted, labels=LABELS, zero_division=0)
    for i, lab in enumerate(LABELS):
        row = r.per_label[lab]
        assert (row.precision, row.recall, row.f) == pytest.approx((p[i], rc[i], f[i]))
        assert row.support == s[i]
    for average in ("micro", "macro", "weighted"):
        expected = f1_score(gold, substituted, labels=LABELS, average=average, zero_division=0)
        assert r[f"{average}.f1"] == pytest.approx(expected), average
    assert r["accuracy"] == pytest.approx(accuracy_score(gold, substituted))
    n_invalid = sum(not _is_label(x) for x in pred)
    assert r.invalid is not None and r.invalid.n_invalid == n_invalid and r.n_instances == len(gold)
    assert r.labels == tuple(LABELS)  # (invalid) has no row and takes no part in averages
    matrix = r.to_dict()["confusion_matrix"]
    assert INVALID_LABEL in matrix["labels"]
    column = matrix["labels"].index(INVALID_LABEL)
    assert sum(row[column] for row in matrix["counts"]) == n_invalid
    assert r.to_dict()["invalid"] == {"policy": "wrong", "n": len(gold), "n_invalid": n_invalid, "label": INVALID_LABEL}
    assert r.flat()["n_invalid"] == n_invalid and "coverage" not in r.flat()


@pytest.mark.parametrize("seed", range(12))
def test_omit_scores_what_was_kept_and_reports_the_coverage_with_its_wilson_interval(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    gold, pred = _llm_case(rng, int(rng.integers(5, 300)), float(rng.uniform(0.05, 0.6)))
    if all(not _is_label(p) for p in pred):
        pred[0] = gold[0]
    r = clfeval.score(gold, pred, labels=LABELS, invalid="omit")
    kept = [i for i, p in enumerate(pred) if _is_label(p)]
    g_kept, p_kept = [gold[i] for i in kept], [pred[i] for i in kept]
    for average in ("micro", "macro", "weighted"):
        expected = f1_score(g_kept, p_kept, labels=LABELS, average=average, zero_division=0)
        assert r[f"{average}.f1"] == pytest.approx(expected), average
    assert r["accuracy"] == pytest.approx(accuracy_score(g_kept, p_kept))
    assert r.n_instances == len(kept)
    info = r.to_dict()["invalid"]
    assert info["policy"] == "omit" and info["n"] == len(gold) and info["n_invalid"] == len(gold) - len(kept)
    assert info["kept"] == len(kept) and info["coverage"]["value"] == pytest.approx(len(kept) / len(gold))
    assert info["coverage"]["ci"] == pytest.approx(list(_wilson(len(kept), len(gold))))
    assert info["coverage"]["method"] == "wilson"
    assert r.flat()["coverage"] == pytest.approx(len(kept) / len(gold))
    assert INVALID_LABEL not in r.to_dict()["confusion_matrix"]["labels"]


def test_the_coverage_interval_follows_the_confidence_of_the_interval_asked_for() -> None:
    gold, pred = ["a"] * 10, ["a"] * 7 + [None] * 3
    r = clfeval.score(gold, pred, invalid="omit", ci="bootstrap", confidence=0.9, seed=1)
    assert r.to_dict()["invalid"]["coverage"]["ci"] == pytest.approx(list(_wilson(7, 10, 0.9)))


def test_without_declared_labels_only_missing_predictions_are_invalid() -> None:
    gold = ["a", "b", "a", "b"]
    pred = ["a", None, "refused", "b"]
    r = clfeval.score(gold, pred, invalid="wrong")
    assert r.invalid is not None and r.invalid.n_invalid == 1
    assert "refused" in r.labels and INVALID_LABEL not in r.labels  # a string is a label unless labels= says not


def test_the_error_policy_is_the_default_and_unchanged() -> None:
    gold, pred = ["a", "b", "a"], ["a", None, "b"]
    for kwargs in ({}, {"invalid": "error"}):
        with pytest.raises(clfeval.InputError, match=r"pred\[1\]: is None: a missing label"):
            clfeval.score(gold, pred, **kwargs)
    with pytest.raises(clfeval.InputError, match=r"pred\[2\]: is NaN"):
        clfeval.score(np.array([1.0, 2.0, 1.0]), np.array([1.0, 2.0, np.nan]), invalid="error")
    # a label outside labels= counts as scikit-learn's labels= counts it, as before
    plain = clfeval.score(["a", "b", "a"], ["a", "zz", "b"], labels=["a", "b"])
    named = clfeval.score(["a", "b", "a"], ["a", "zz", "b"], labels=["a", "b"], invalid="error")
    assert plain.flat() == {k: v for k, v in named.flat().items() if k != "n_invalid"}
    assert named.to_dict()["invalid"] == {"policy": "error", "n": 3, "n_invalid": 0}
    assert "invalid" not in plain.to_dict()  # no policy chosen: the JSON as it was


def test_missing_gold_labels_are_an_error_under_every_policy() -> None:
    for policy in INVALID_POLICIES:
        with pytest.raises(clfeval.InputError, match=r"gold\[1\]: is None"):
            clfeval.score(["a", None], ["a", "b"], invalid=policy)
    for policy in ("wrong", "omit"):
        with pytest.raises(clfeval.InputError, match="a gold label is empty"):
            clfeval.score(["a", ""], ["a", "b"], invalid=policy)
        with pytest.raises(clfeval.InputError, match="rename that label"):
            clfeval.score(["a", INVALID_LABEL], ["a", "b"], invalid=policy)


def test_refusals_name_what_does_not_apply() -> None:
    with pytest.raises(clfeval.OptionError, match="unknown invalid policy 'drop'; valid: error, omit, wrong"):
        clfeval.score(["a"], ["a"], invalid="drop")
    with pytest.raises(clfeval.OptionError, match="single-label predictions, not multi-label"):
        clfeval.score([["a"], ["b"]], [["a"], None], multilabel=True, invalid="omit")
    with pytest.raises(clfeval.OptionError, match="single-label"):
        clfeval.score([["B-PER", "O"]], [["B-PER", "O"]], spans="iob2", invalid="wrong")
    with pytest.raises(clfeval.OptionError, match="invalid= is for predicted labels"):
        clfeval.score([0, 1], scores=[0.2, 0.9], invalid="omit")
    with pytest.raises(clfeval.OptionError, match="invalid= applies to single-label"):
        clfeval.Accumulator("multi-label", invalid="wrong")
    with pytest.raises(clfeval.OptionError, match="invalid= applies to single-label"):
        clfeval.Accumulator("spans", spans="iob2", invalid="wrong")
    with pytest.raises(clfeval.OptionError, match="invalid= and scoring="):
        clfeval.score(["a"], ["a"], invalid="omit", scoring=clfeval.Scoring())
    with pytest.raises(clfeval.OptionError, match="the declared labels hold '\\(invalid\\)'"):
        clfeval.score(["a"], ["b"], labels=["a", INVALID_LABEL], invalid="wrong")
    with pytest.raises(clfeval.InputError, match="every one of the 2 predictions is invalid"):
        clfeval.score(["a", "b"], [None, None], invalid="omit")


def test_counts_holding_invalid_predictions_need_a_policy() -> None:
    kept = clfeval.Accumulator(labels=["a", "b"], invalid="wrong")
    kept.update(["a", "b", "a"], ["a", None, "c"])
    with pytest.raises(clfeval.InputError, match=r"predictions hold the label '\(invalid\)'"):
        clfeval.score(kept.counts)
    assert clfeval.score(kept.counts, labels=["a", "b"], invalid="omit").n_instances == 1


def _seam_inputs(gold: list[str], pred: list[object]) -> dict[str, tuple[object, object]]:
    import pandas as pd
    import polars as pl

    as_none = [None if (p is None or (isinstance(p, float) and math.isnan(p))) else p for p in pred]
    return {
        "list": (gold, pred),
        "numpy": (np.array(gold), np.array(pred, dtype=object)),
        "pandas": (pd.Series(gold), pd.Series(pred, dtype=object)),
        "pandas string": (pd.Series(gold, dtype="string"), pd.Series(as_none, dtype="string")),
        "polars": (pl.Series(gold), pl.Series(as_none, dtype=pl.String)),
    }


@pytest.mark.parametrize("policy", ["wrong", "omit"])
def test_the_seam_arrays_frames_a_file_and_the_accumulator_give_the_same_numbers(tmp_path, policy: str) -> None:
    rng = np.random.default_rng(7)
    gold, pred = _llm_case(rng, 200, 0.3)
    pred = [p if p != "" else None for p in pred]  # an empty cell of a file is what None is in memory
    expected = clfeval.score(gold, pred, labels=LABELS, invalid=policy).flat()
    for name, (g, p) in _seam_inputs(gold, pred).items():
        assert clfeval.score(g, p, labels=LABELS, invalid=policy).flat() == expected, name
    acc = clfeval.Accumulator(labels=LABELS, invalid=policy)
    for start in range(0, len(gold), 37):
        acc.update(gold[start : start + 37], pred[start : start + 37])
    assert acc.score().flat() == expected
    text = "gold\tpred\n" + "".join(
        f"{g}\t{'' if p is None or (isinstance(p, float) and math.isnan(p)) else p}\n" for g, p in zip(gold, pred)
    )
    (tmp_path / "llm.tsv").write_text(text, encoding="utf-8")
    (tmp_path / "labels.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")
    data = cli_json("score", "llm.tsv", "--gold-col", "gold", "--pred-col", "pred", "--labels", "labels.txt",
                    "--invalid", policy, cwd=tmp_path)  # fmt: skip
    ours = clfeval.score(gold, pred, labels=LABELS, invalid=policy).to_dict()
    assert data["invalid"] == ours["invalid"]
    assert data["averages"] == ours["averages"] and data["accuracy"] == ours["accuracy"]
    # a count file keeps the invalid predictions whatever the policy, which applies when it is scored
    out = run_cli("count", "llm.tsv", "--gold-col", "gold", "--pred-col", "pred", "--invalid", policy, cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    (tmp_path / "counts.json").write_bytes(out.stdout)
    again = cli_json("score", "--counts", "counts.json", "--labels", "labels.txt", "--invalid", policy, cwd=tmp_path)
    assert again["invalid"] == ours["invalid"] and again["averages"] == ours["averages"]
    cli_error(run_cli("score", "--counts", "counts.json", cwd=tmp_path), "(invalid)", "--invalid wrong|omit")


def test_the_cli_reads_empty_cells_and_labels_outside_labels_under_a_policy(tmp_path) -> None:
    (tmp_path / "llm.tsv").write_text("gold\tpred\ncat\tcat\ndog\t\ncat\tI refuse\nbird\tbird\n", encoding="utf-8")
    (tmp_path / "labels.txt").write_text("cat\ndog\nbird\n", encoding="utf-8")
    args = ("score", "llm.tsv", "--gold-col", "gold", "--pred-col", "pred")
    cli_error(run_cli(*args, cwd=tmp_path), "llm.tsv:3: the predicted label is empty")
    cli_error(run_cli(*args, "--invalid", "error", cwd=tmp_path), "llm.tsv:3: the predicted label is empty")
    wrong = cli_json(*args, "--labels", "labels.txt", "--invalid", "wrong", cwd=tmp_path)
    assert wrong["invalid"]["n_invalid"] == 2 and wrong["accuracy"] == 0.5 and wrong["n_instances"] == 4
    omit = cli_json(*args, "--labels", "labels.txt", "--invalid", "omit", cwd=tmp_path)
    assert omit["invalid"]["kept"] == 2 and omit["accuracy"] == 1.0 and omit["n_instances"] == 2
    assert omit["options"]["invalid"] == "omit" and "invalid:omit" in omit["signature"]
    text = run_cli(*args, "--labels", "labels.txt", "--invalid", "omit", cwd=tmp_path).stdout.decode()
    assert "invalid predictions: 2 of 4, policy 'omit': left out; coverage 2/4 = 0.5000" in text
    no_labels = cli_json(*args, "--invalid", "wrong", cwd=tmp_path)
    assert no_labels["invalid"]["n_invalid"] == 1  # without --labels, "I refuse" is a label
    (tmp_path / "gold.tsv").write_text("gold\tpred\ncat\tcat\n\tdog\n", encoding="utf-8")
    cli_error(run_cli("score", "gold.tsv", "--gold-col", "gold", "--pred-col", "pred", "--invalid", "omit",
                      cwd=tmp_path), "gold.tsv: a gold label is empty")  # fmt: skip
    refused = run_cli(*args, "--invalid", "drop", cwd=tmp_path)
    assert refused.returncode == 2 and b"invalid choice: 'drop'" in refused.stderr


def test_gold_and_prediction_files_paired_line_by_line(tmp_path) -> None:
    (tmp_path / "gold.txt").write_text("a\nb\na\nb\n", encoding="utf-8")
    (tmp_path / "pred.csv").write_text('label\na\n""\nb\nb\n', encoding="utf-8")
    (tmp_path / "pred.txt").write_text("a\nzz\nb\nb\n", encoding="utf-8")
    (tmp_path / "labels.txt").write_text("a\nb\n", encoding="utf-8")
    data = cli_json("score", "gold.txt", "pred.txt", "--labels", "labels.txt", "--invalid", "omit", cwd=tmp_path)
    assert data["invalid"]["n_invalid"] == 1 and data["n_instances"] == 3


@pytest.mark.parametrize("seed", range(4))
def test_compare_wrong_and_omit(seed: int, tmp_path) -> None:
    rng = np.random.default_rng(200 + seed)
    gold, a = _llm_case(rng, 120, 0.2)
    _, b = _llm_case(rng, 120, 0.3)
    b = [x if rng.random() < 0.5 else g for x, g in zip(b, gold)]
    preds = {"A": a, "B": b}
    wrong = clfeval.compare(gold, preds, labels=LABELS, invalid="wrong", metrics=["macro.f1", "accuracy"], seed=1)
    for name, p in preds.items():
        alone = clfeval.score(gold, p, labels=LABELS, invalid="wrong")
        assert wrong.results[name]["macro.f1"] == pytest.approx(alone["macro.f1"])
        assert wrong.to_dict()["invalid"]["by_system"][name] == sum(not _is_label(x) for x in p)
    # McNemar's discordant pairs: an invalid prediction is wrong for that system on that instance
    mcnemar = clfeval.compare(gold, preds, labels=LABELS, invalid="wrong", test="mcnemar")
    right = {n: np.array([_is_label(x) and x == g for x, g in zip(p, gold)]) for n, p in preds.items()}
    pair = mcnemar.pairs[0]
    assert pair.discordant is not None
    assert dict(pair.discordant)["only_a"] == int((right["A"] & ~right["B"]).sum())
    assert dict(pair.discordant)["only_b"] == int((~right["A"] & right["B"]).sum())
    omit = clfeval.compare(gold, preds, labels=LABELS, invalid="omit", metrics="macro.f1", seed=1)
    both = [i for i in range(len(gold)) if _is_label(a[i]) and _is_label(b[i])]
    for name, p in preds.items():
        expected = f1_score([gold[i] for i in both], [p[i] for i in both], labels=LABELS, average="macro",
                            zero_division=0)  # fmt: skip
        assert omit.results[name]["macro.f1"] == pytest.approx(expected)
    info = omit.to_dict()["invalid"]
    assert info["kept"] == len(both) and info["n"] == len(gold)
    assert info["coverage"]["ci"] == pytest.approx(list(_wilson(len(both), len(gold))))
    assert "dropped for all systems" in info["tests"]
    assert omit.flat()["coverage"] == pytest.approx(len(both) / len(gold))
    assert omit.flat()["A/n_invalid"] == sum(not _is_label(x) for x in a)


def test_compare_on_the_cli(tmp_path) -> None:
    (tmp_path / "sys.csv").write_text("gold,A,B\na,a,a\nb,,b\na,zz,a\nb,b,\na,a,b\n", encoding="utf-8")
    (tmp_path / "labels.txt").write_text("a\nb\n", encoding="utf-8")
    data = cli_json("compare", "sys.csv", "--gold-col", "gold", "--pred-col", "A", "--pred-col", "B", "--labels",
                    "labels.txt", "--invalid", "omit", "--seed", "1", cwd=tmp_path)  # fmt: skip
    assert data["invalid"]["by_system"] == {"A": 2, "B": 1} and data["invalid"]["kept"] == 2
    assert data["n_instances"] == 2


def test_cv_per_fold_and_pooled(tmp_path) -> None:
    rng = np.random.default_rng(11)
    gold, pred = _llm_case(rng, 150, 0.3)
    folds = [i % 3 for i in range(len(gold))]
    for policy in ("wrong", "omit"):
        r = clfeval.cv(gold, pred, folds, labels=LABELS, invalid=policy)
        assert r.pooled.flat() == pytest.approx(clfeval.score(gold, pred, labels=LABELS, invalid=policy).flat())
        for k, fold in enumerate(r.folds):
            idx = [i for i in range(len(gold)) if folds[i] == k]
            alone = clfeval.score([gold[i] for i in idx], [pred[i] for i in idx], labels=LABELS, invalid=policy)
            assert fold.to_dict()["invalid"] == alone.to_dict()["invalid"]
            assert fold["macro.f1"] == pytest.approx(alone["macro.f1"])
        assert r.flat(folds=True)["pooled/n_invalid"] == sum(not _is_label(x) for x in pred)
    (tmp_path / "cv.tsv").write_text("gold\tpred\tfold\na\ta\t1\nb\t\t1\na\ta\t2\nb\tb\t2\n", encoding="utf-8")
    data = cli_json("cv", "cv.tsv", "--gold-col", "gold", "--pred-col", "pred", "--fold-col", "fold", "--invalid",
                    "omit", cwd=tmp_path)  # fmt: skip
    assert data["pooled"]["invalid"]["kept"] == 3 and [f["invalid"]["n_invalid"] for f in data["folds"]] == [1, 0]


def test_blocks_follow_the_policy_into_the_intervals() -> None:
    gold = ["a", "b", "a", "b", "a", "b", "a", "b"]
    pred = ["a", None, "a", "b", None, "b", "b", "b"]
    blocks = [1, 1, 2, 2, 3, 3, 4, 4]
    r = clfeval.score(gold, pred, invalid="omit", blocks=blocks, ci="bootstrap", seed=3, resamples=200)
    assert r.n_instances == 6 and r.intervals is not None and r.intervals.n_units == 4
    emptied = clfeval.score(gold, ["a", None, None, None, "a", "b", "a", "b"], invalid="omit", blocks=blocks,
                            ci="bootstrap", seed=3, resamples=200)  # fmt: skip
    assert emptied.n_instances == 5 and emptied.intervals is not None and emptied.intervals.n_units == 3
    w = clfeval.score(gold, pred, invalid="wrong", blocks=blocks, ci="bootstrap", seed=3, resamples=200)
    assert w.n_instances == 8 and w["accuracy"] == pytest.approx(5 / 8)


def test_the_accumulator_keeps_invalid_predictions_and_merges_alike() -> None:
    a, b = clfeval.Accumulator(invalid="omit"), clfeval.Accumulator(invalid="omit")
    a.update(np.array([1, 2, 3]), np.array([1.0, np.nan, 3.0]))
    b.update([2, 2], [2, None])
    a.merge(b)
    r = a.score()
    assert r.to_dict()["invalid"]["n_invalid"] == 2 and r.n_instances == 3
    with pytest.raises(clfeval.OptionError, match="cannot merge"):
        a.merge(clfeval.Accumulator(invalid="wrong"))
    declared = clfeval.Accumulator(labels=[0, 1], invalid="wrong")
    declared.update([0, 1, 1], [0, 7, True])  # 7 is outside the declared labels; True is the label 1
    assert declared.score().to_dict()["invalid"]["n_invalid"] == 1
    assert declared.score()["accuracy"] == pytest.approx(2 / 3)


def test_json_and_text_name_the_policy() -> None:
    r = clfeval.score(["a", "b", "a"], ["a", None, "b"], invalid="omit")
    data = json.loads(r.to_json())
    assert data["invalid"]["policy"] == "omit" and data["options"]["invalid"] == "omit"
    assert "coverage 2/3" in str(r)


def _doc_block(after: str) -> str:
    """The text of docs/llm.md's fenced block that starts with the line ``after`` (the command), without it."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "llm.md").read_text(encoding="utf-8")
    start = text.index(after + "\n") + len(after) + 1
    return text[start : text.index("```", start)]


def test_the_worked_example_of_docs_llm_is_a_real_run() -> None:
    """docs/llm.md pastes these runs' output: they must still print it."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    head = "$ clfeval score examples/llm-sentiment.tsv --gold-col gold --pred-col model_a"
    cli_error(run_cli(*head.split()[2:], cwd=root), "examples/llm-sentiment.tsv:22: the predicted label is empty")
    wrong = head + " --labels examples/llm-labels.txt --invalid wrong"
    out = run_cli(*wrong.split()[2:], cwd=root)
    pasted = _doc_block(wrong).replace("clfeval:0.2.0|", f"clfeval:{clfeval.__version__}|")
    assert out.returncode == 0 and out.stdout.decode() == pasted
    omit = head + " --labels examples/llm-labels.txt --invalid omit --format json"
    data = json.loads(run_cli(*omit.split()[2:], cwd=root).stdout)
    assert json.dumps(data["invalid"]) in _doc_block(omit)
    compare = (
        "$ clfeval compare examples/llm-sentiment.tsv --gold-col gold --pred-col model_a --pred-col model_b "
        "--labels examples/llm-labels.txt --invalid omit --seed 1"
    )
    shown = run_cli(*compare.split()[2:], cwd=root).stdout.decode()
    for part in _doc_block(compare).split("...\n"):
        assert part in shown


def test_null_predictions_of_json_lines_and_parquet(tmp_path) -> None:
    import polars as pl

    gold, pred = ["a", "b", "a", "b"], ["a", None, "b", "b"]
    expected = clfeval.score(gold, pred, invalid="omit").to_dict()["invalid"]
    pl.DataFrame({"gold": gold, "pred": pred}).write_parquet(tmp_path / "llm.parquet")
    pl.DataFrame({"gold": gold, "pred": pred}).write_ndjson(tmp_path / "llm.jsonl")
    for name in ("llm.parquet", "llm.jsonl"):
        args = ("score", name, "--gold-col", "gold", "--pred-col", "pred")
        cli_error(run_cli(*args, cwd=tmp_path), f"{name}:2: the predicted label ('pred') is missing (null)")
        assert cli_json(*args, "--invalid", "omit", cwd=tmp_path)["invalid"] == expected


def test_the_cli_refuses_invalid_where_it_does_not_apply(tmp_path) -> None:
    (tmp_path / "scores.csv").write_text("gold,p\na,0.2\nb,0.9\n", encoding="utf-8")
    (tmp_path / "sets.tsv").write_text("a,b\ta\nb\t\n", encoding="utf-8")
    (tmp_path / "tags.conll").write_text("w B-PER B-PER\nx O O\n\ny B-LOC O\n", encoding="utf-8")
    for command in ("score", "compare", "cv"):
        extra = ["--scores", "A=p"] if command == "compare" else ["--scores", "p"]
        extra += ["--fold-col", "gold"] if command == "cv" else []
        out = run_cli(command, "scores.csv", "--gold-col", "gold", *extra, "--invalid", "omit", cwd=tmp_path)
        cli_error(out, "--invalid is for predicted labels, not --scores")
    cli_error(run_cli("score", "sets.tsv", "--multilabel", "--invalid", "wrong", cwd=tmp_path),
              "applies to single-label predictions, not multi-label")  # fmt: skip
    cli_error(run_cli("score", "tags.conll", "--spans", "--invalid", "omit", cwd=tmp_path),
              "applies to single-label predictions, not spans")  # fmt: skip


def test_weighted_kappa_is_withheld_under_wrong_even_with_a_declared_order() -> None:
    """An invalid prediction has no place on an ordinal scale: under ``wrong`` weighted κ is not given (with the
    reason), under ``omit`` the kept instances have one and it equals scikit-learn's."""
    from sklearn.metrics import cohen_kappa_score

    gold = ["low", "mid", "high", "mid", "low", "high", "mid", "low"]
    pred = ["low", None, "high", "low", "mid", "high", "mid", ""]
    order = ["low", "mid", "high"]
    wrong = clfeval.score(gold, pred, ordinal=order, invalid="wrong")
    data = wrong.to_dict()
    assert data["kappa_linear"] is None and "invalid='wrong'" in data["label_order"]["rule"]
    assert "kappa_linear" not in wrong.flat()
    omit = clfeval.score(gold, pred, ordinal=order, invalid="omit")
    kept = [(g, p) for g, p in zip(gold, pred) if p]
    expected = cohen_kappa_score([g for g, _ in kept], [p for _, p in kept], labels=order, weights="linear")
    assert omit["kappa_linear"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_invalid_predictions_with_sample_weights(seed: int) -> None:
    """The policies apply to weighted instances as to plain ones: ``wrong`` keeps an invalid prediction's weight in
    the gold class's false negatives, ``omit`` drops it; coverage counts outputs (instances), not weight. Equal to
    scikit-learn with ``sample_weight``, and ``compare`` under ``omit`` to a comparison of the kept instances."""
    from sklearn.metrics import accuracy_score, f1_score

    rng = np.random.default_rng(seed)
    n = 80
    gold = [str(x) for x in rng.integers(0, 3, n)]
    pred: list[Any] = [str(x) for x in rng.integers(0, 3, n)]
    bad = rng.choice(n, 7, replace=False)
    for i in bad:
        pred[i] = None if i % 2 else ""
    w = rng.integers(1, 4, n) * rng.random(n)
    labels = ["0", "1", "2"]
    wrong = clfeval.score(gold, pred, sample_weight=w, invalid="wrong", labels=labels)
    outside = [p if p else "X" for p in pred]
    assert wrong["macro.f1"] == pytest.approx(
        f1_score(gold, outside, labels=labels, average="macro", sample_weight=w, zero_division=0), rel=1e-12
    )
    assert wrong["accuracy"] == pytest.approx(accuracy_score(gold, outside, sample_weight=w), rel=1e-12)
    assert wrong.to_dict()["invalid"]["n_invalid"] == 7
    kept = np.array([bool(p) for p in pred])
    g_kept, p_kept = [g for g, k in zip(gold, kept) if k], [p for p, k in zip(pred, kept) if k]
    omit = clfeval.score(gold, pred, sample_weight=w, invalid="omit")
    assert omit["macro.f1"] == pytest.approx(
        f1_score(g_kept, p_kept, average="macro", sample_weight=w[kept], zero_division=0), rel=1e-12
    )
    assert omit.to_dict()["invalid"]["coverage"]["value"] == pytest.approx((n - 7) / n)
    both = clfeval.compare(gold, {"A": pred, "B": gold}, sample_weight=w, invalid="omit", seed=seed, rounds=999)
    direct = clfeval.compare(g_kept, {"A": p_kept, "B": g_kept}, sample_weight=w[kept], seed=seed, rounds=999)
    assert both.pairs[0].p_value == direct.pairs[0].p_value
    assert both.results["A"]["macro.f1"] == pytest.approx(direct.results["A"]["macro.f1"], rel=1e-12)


def test_invalid_and_weight_columns_on_the_command_line(tmp_path: Path) -> None:
    from sklearn.metrics import f1_score

    rows = [("a", "a", 1.0), ("b", "", 2.0), ("a", "b", 0.5), ("b", "b", 3.0), ("a", "a", 1.5), ("b", "a", 1.0)]
    (tmp_path / "llm.tsv").write_text("gold\tpred\tw\n" + "".join(f"{g}\t{p}\t{w}\n" for g, p, w in rows))
    (tmp_path / "labels.txt").write_text("a\nb\n")
    out = run_cli("score", "llm.tsv", "--gold-col", "gold", "--pred-col", "pred", "--weight-col", "w",
                  "--invalid", "wrong", "--labels", "labels.txt", "--format", "json", cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    expected = f1_score(
        [g for g, _, _ in rows], [p or "X" for _, p, _ in rows], labels=["a", "b"], average="macro",
        sample_weight=[w for _, _, w in rows],
    )  # fmt: skip
    assert data["averages"]["macro"]["f1"] == pytest.approx(expected, rel=1e-12)
    assert data["invalid"]["n_invalid"] == 1 and data["inputs"]["sample_weight"]["source"] == "w"


def test_weighted_results_under_omit_record_the_weights_they_scored() -> None:
    """Under ``omit``, ``inputs.sample_weight`` of score, compare and cv is the sum and number of the instances kept
    (what every score of the result weighs), the same in the three tasks."""
    gold, pred = ["a", "b", "a", "b", "a"], ["a", None, "b", "", "a"]
    w = [1.0, 2.0, 3.0, 4.0, 5.0]
    kept = {"source": "sample_weight=", "sum": 9.0, "n_instances": 3}
    assert clfeval.score(gold, pred, sample_weight=w, invalid="omit").inputs["sample_weight"] == kept
    both = clfeval.compare(gold, {"A": pred, "B": gold}, sample_weight=w, invalid="omit", seed=1, rounds=99)
    assert both.inputs["sample_weight"] == kept and both.first.inputs["sample_weight"] == kept
    folds = clfeval.cv(gold * 2, pred * 2, [0] * 5 + [1] * 5, sample_weight=w * 2, invalid="omit")
    twice = {**kept, "sum": 18.0, "n_instances": 6}
    assert folds.to_dict()["inputs"]["sample_weight"] == twice and folds.pooled.inputs["sample_weight"] == twice
