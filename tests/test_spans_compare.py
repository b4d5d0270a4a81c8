"""Comparing taggers on spans (issue 31): sentence-level randomization, paired bootstrap and sign test, from tag lists,
entity lists and CoNLL files.

Oracles: a per-sentence reference — each sentence's spans read by seqeval's default mode (which counts conlleval.pl's
spans on IOB tags: tests/test_spans.py), every arrangement of the sentences enumerated in Python, micro F1 from the
swapped per-sentence counts — and the single-system ``score`` of each tagger.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import clfeval
from clfeval.cli import main
from clfeval.errors import ClfevalError

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]


def _tagger(rng: random.Random, gold: list[list[str]], p: float) -> list[list[str]]:
    return [[t if rng.random() > p else rng.choice(TAGS) for t in s] for s in gold]


def _corpus(seed: int, n: int) -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    rng = random.Random(seed)
    gold = [[rng.choice(TAGS) for _ in range(rng.randint(0, 7))] for _ in range(n)]
    return gold, _tagger(rng, gold, 0.15), _tagger(rng, gold, 0.35)


def _spans(tags: list[str]) -> set[tuple[str, int, int]]:
    from seqeval.metrics.sequence_labeling import get_entities

    return set(get_entities(list(tags)))


def _sentence_counts(gold: list[list[str]], pred: list[list[str]]) -> list[tuple[int, int, int]]:
    """Each sentence's (tp, fp, fn) of exact spans, by seqeval's reading (conlleval.pl's on IOB tags)."""
    out = []
    for g, p in zip(gold, pred):
        sg, sp = _spans(g), _spans(p)
        out.append((len(sg & sp), len(sp - sg), len(sg - sp)))
    return out


def _micro_f1(counts: list[tuple[int, int, int]]) -> float:
    tp, fp, fn = (sum(c[i] for c in counts) for i in range(3))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def test_sentence_randomization_is_the_exact_enumeration_of_sentence_swaps() -> None:
    # 10 sentences: 2^10 arrangements, enumerated by clfeval (exact) and here, one by one
    gold, a, b = _corpus(5, 10)
    ca, cb = _sentence_counts(gold, a), _sentence_counts(gold, b)
    observed = _micro_f1(ca) - _micro_f1(cb)
    hits = 0
    for swap in itertools.product((False, True), repeat=len(gold)):
        xa = [y if s else x for x, y, s in zip(ca, cb, swap)]
        xb = [x if s else y for x, y, s in zip(ca, cb, swap)]
        hits += abs(_micro_f1(xa) - _micro_f1(xb)) >= abs(observed) - 1e-12
    r = clfeval.compare(gold, {"A": a, "B": b}, spans="conlleval", metrics="micro.f1", seed=1)
    pair = r.pair("A", "B", "micro.f1")
    assert pair.exact
    assert pair.difference == pytest.approx(observed, abs=1e-12)
    assert pair.p_value == pytest.approx(hits / 2 ** len(gold), abs=1e-12)
    assert r.unit == "sentences" and r.n_units == 10


def test_each_tagger_s_scores_in_compare_are_its_own_scores() -> None:
    gold, a, b = _corpus(11, 80)
    r = clfeval.compare(gold, {"A": a, "B": b}, spans="iob2", metrics=["micro.f1", "macro.f1", "per_label.PER.f1"])
    for name, pred in (("A", a), ("B", b)):
        alone = clfeval.score(gold, pred, spans="iob2")
        for metric in ("micro.f1", "macro.f1", "per_label.PER.f1"):
            assert r.score(name, metric) == pytest.approx(alone[metric], abs=1e-12)


def test_the_sign_test_counts_sentences_where_a_tagger_makes_fewer_span_errors() -> None:
    from scipy.stats import binomtest

    gold, a, b = _corpus(7, 120)
    ca, cb = _sentence_counts(gold, a), _sentence_counts(gold, b)
    errors_a, errors_b = [fp + fn for _, fp, fn in ca], [fp + fn for _, fp, fn in cb]
    a_better = sum(x < y for x, y in zip(errors_a, errors_b))
    b_better = sum(x > y for x, y in zip(errors_a, errors_b))
    r = clfeval.compare(gold, {"A": a, "B": b}, spans=True, test="sign")
    pair = r.pair("A", "B")
    assert r.metrics == ("span_errors",)  # what it counts, not micro F1
    assert (pair.sign.a_better, pair.sign.b_better, pair.sign.ties) == (a_better, b_better, 120 - a_better - b_better)
    assert pair.p_value == pytest.approx(binomtest(a_better, a_better + b_better).pvalue, rel=1e-9)
    # its A − B and scores are span errors per sentence
    assert (pair.score_a, pair.score_b) == pytest.approx((sum(errors_a) / 120, sum(errors_b) / 120), abs=1e-12)
    assert pair.difference == pytest.approx((sum(errors_a) - sum(errors_b)) / 120, abs=1e-12)
    for alternative, fewer in (("less", a_better), ("greater", b_better)):  # d < 0: A makes fewer errors
        one = clfeval.compare(gold, {"A": a, "B": b}, spans=True, test=clfeval.Test("sign", alternative=alternative))
        assert one.pair("A", "B").p_value == pytest.approx(
            binomtest(fewer, a_better + b_better, alternative="greater").pvalue, rel=1e-9
        )


def _fewer_errors_lower_f1() -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
    """Issue 37's case: 15 sentences ``B-PER O O``; in 10 A finds nothing and B finds the person and two spurious
    places. A makes fewer span errors in 10 sentences (10 errors against 20), B has the higher micro F1 (0.6 > 0.5)."""
    gold = [["B-PER", "O", "O"] for _ in range(15)]
    a = [["O", "O", "O"] if i < 10 else ["B-PER", "O", "O"] for i in range(15)]
    b = [["B-PER", "B-LOC", "B-LOC"] if i < 10 else ["B-PER", "O", "O"] for i in range(15)]
    return gold, a, b


def test_the_sign_test_ranks_span_errors_not_the_micro_f1_it_does_not_test() -> None:
    gold, a, b = _fewer_errors_lower_f1()
    r = clfeval.compare(gold, {"A": a, "B": b}, spans=True, test="sign")
    pair = r.pair("A", "B")
    assert pair.metric == "span_errors" and r.metrics == ("span_errors",)
    assert (pair.score_a, pair.score_b, pair.difference) == pytest.approx((10 / 15, 20 / 15, -10 / 15), abs=1e-12)
    assert (pair.sign.a_better, pair.sign.b_better, pair.sign.ties) == (10, 0, 5)
    assert pair.p_value == pytest.approx(2 / 2**10, abs=1e-15) and pair.significant
    ranking = r.ranking("span_errors")
    assert [x["system"] for x in ranking] == ["A", "B"]  # fewer errors is better
    assert ranking[0]["better_than"] == ["B"] and ranking[1]["worse_than"] == ["A"]
    # micro F1 is B's, and the sign test says nothing of it: randomization tests it
    f1 = clfeval.compare(gold, {"A": a, "B": b}, spans=True, seed=1)
    assert f1.pair("A", "B").difference == pytest.approx(0.5 - 0.6, abs=1e-12)
    assert [x["system"] for x in f1.ranking("micro.f1")] == ["B", "A"]


def test_the_sign_test_of_spans_on_the_command_line_names_its_quantity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, a, b = _fewer_errors_lower_f1()
    for name, column in (("gold", gold), ("a", a), ("b", b)):
        _write(tmp_path / f"{name}.conll", [column])
    files = [str(tmp_path / f"{n}.conll") for n in ("gold", "a", "b")]
    assert main(["compare", *files, "--spans", "--test", "sign", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["metric"] == ["span_errors"] and doc["higher_is_better"] == {"span_errors": False}
    (pair,) = doc["pairs"]
    assert (pair["metric"], pair["difference"], pair["significant"]) == ("span_errors", pytest.approx(-2 / 3), True)
    assert pair["sign_test"]["metric"] == "span_errors" and pair["sign_test"]["a_better"] == 10
    assert doc["ranking"]["span_errors"][0]["system"] == "a" and doc["ranking"]["span_errors"][0]["better_than"] == [
        "b"
    ]
    assert main(["compare", *files, "--spans", "--test", "sign"]) == 0
    text = capsys.readouterr().out
    assert "span_errors  a  b   0.6667   1.3333  -0.6667" in text and "span_errors: span errors per unit" in text
    assert "micro.f1" not in text
    assert main(["compare", *files, "--spans", "--test", "sign", "--format", "html"]) == 0
    assert "<strong>span_errors</strong>: span errors per unit" in capsys.readouterr().out  # defined on the page
    # beside randomization of micro F1, the sign test is named as a test of span errors, not of micro F1
    assert main(["compare", *files, "--spans", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "a test of span_errors, not of micro.f1" in text and "cross-check" not in text
    assert main(["compare", *files, "--spans", "--test", "sign", "--metric", "micro.f1"]) == 2
    assert "sign test compares span_errors only" in capsys.readouterr().err


def test_the_default_metric_of_a_span_comparison_is_micro_f1_conlleval_s_overall_score() -> None:
    gold, a, b = _corpus(3, 40)
    assert clfeval.compare(gold, [a, b], spans=True, seed=1).metrics == ("micro.f1",)
    assert clfeval.compare(gold, [a, b], spans=True, seed=1, beta=2).metrics == ("micro.f2",)


def test_counting_tests_on_spans_refuse_what_they_do_not_count() -> None:
    gold, a, b = _corpus(3, 40)
    with pytest.raises(ClfevalError, match=r"sign test compares span_errors only: use --metric span_errors"):
        clfeval.compare(gold, [a, b], spans=True, test="sign", metrics="micro.f1")
    with pytest.raises(ClfevalError, match="span_errors"):  # no score: randomization cannot test it
        clfeval.compare(gold, [a, b], spans=True, metrics="span_errors")
    with pytest.raises(ClfevalError, match="McNemar's test counts instances as independent"):
        clfeval.compare(gold, [a, b], spans=True, test="mcnemar")
    with pytest.raises(ClfevalError, match="accuracy"):
        clfeval.compare(gold, [a, b], spans=True, metrics="accuracy")  # no tn, no accuracy of spans


def test_entity_lists_compare_as_the_tags_they_come_from() -> None:
    gold, a, b = _corpus(13, 60)

    def entities(sentences: list[list[str]]) -> list[list[dict[str, object]]]:
        return [[{"type": t, "start": s, "end": e + 1} for t, s, e in sorted(_spans(tags))] for tags in sentences]

    by_tags = clfeval.compare(gold, {"A": a, "B": b}, spans=True, metrics=["micro.f1", "macro.f1"], seed=4)
    by_entities = clfeval.compare(
        entities(gold), {"A": entities(a), "B": entities(b)}, spans=True, metrics=["micro.f1", "macro.f1"], seed=4
    )
    for metric in ("micro.f1", "macro.f1"):
        assert by_entities.pair("A", "B", metric).p_value == by_tags.pair("A", "B", metric).p_value
        assert by_entities.pair("A", "B", metric).difference == pytest.approx(by_tags.pair("A", "B", metric).difference)


def test_the_pair_is_antisymmetric_and_the_bootstrap_interval_holds_the_difference() -> None:
    gold, a, b = _corpus(17, 150)
    ab = clfeval.compare(gold, {"A": a, "B": b}, spans="iob2", test="bootstrap", seed=9, rounds=2000)
    ba = clfeval.compare(gold, {"B": b, "A": a}, spans="iob2", test="bootstrap", seed=9, rounds=2000)
    p, q = ab.pair("A", "B"), ba.pair("B", "A")
    assert p.difference == pytest.approx(-q.difference, abs=1e-12)
    assert p.ci is not None and p.ci[0] <= p.difference <= p.ci[1]


def test_three_taggers_are_tested_pairwise_with_holm() -> None:
    gold, a, b = _corpus(19, 90)
    c = _tagger(random.Random(2), gold, 0.25)
    r = clfeval.compare(gold, {"A": a, "B": b, "C": c}, spans=True, seed=3, rounds=2000)
    pairs = [(p.a, p.b) for p in r.pairs]
    assert pairs == [("A", "B"), ("A", "C"), ("B", "C")]
    ordered = sorted(r.pairs, key=lambda p: p.p_value)
    for i, p in enumerate(ordered):  # Holm's step-down: the i-th smallest p times (m - i), made monotone
        assert p.p_adjusted >= min(1.0, (3 - i) * p.p_value) - 1e-12


def _write(path: Path, columns: list[list[list[str]]], docstart_every: int = 0) -> None:
    lines = []
    for i in range(len(columns[0])):
        if docstart_every and i % docstart_every == 0:
            lines += ["-DOCSTART- " + " ".join("O" for _ in columns), ""]
        for j in range(len(columns[0][i])):
            lines.append(" ".join([f"w{j}", *(c[i][j] for c in columns)]))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_two_taggers_conll_outputs_compare_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, a, b = _corpus(23, 200)
    gold = [s for s in gold if s]  # a CoNLL file has no empty sentences
    rng = random.Random(1)
    a, b = _tagger(rng, gold, 0.1), _tagger(rng, gold, 0.3)
    _write(tmp_path / "gold.conll", [gold], 5)
    _write(tmp_path / "a.conll", [a], 5)
    _write(tmp_path / "b.conll", [b], 5)
    args = ["compare", *(str(tmp_path / f) for f in ("gold.conll", "a.conll", "b.conll")), "--spans", "--seed", "2"]
    assert main([*args, "--format", "json", "--metric", "micro.f1,macro.f1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["unit"] == "documents" and doc["n_units"] == (len(gold) + 4) // 5  # -DOCSTART- every 5: 20+ documents
    assert "scheme:conlleval" in doc["signature"] and "unit:documents" in doc["signature"]
    alone = clfeval.score(gold, a, spans=True)
    assert doc["scores"]["a"]["micro.f1"] == pytest.approx(alone["micro.f1"], abs=1e-12)
    assert [w for w in doc["warnings"] if "predictions of a" in w]  # invalid transitions named by system
    assert main([*args, "--unit", "sentences", "--test", "sign", "--format", "json"]) == 0
    sign = json.loads(capsys.readouterr().out)
    assert sign["unit"] == "sentences" and sign["n_units"] == len(gold) and sign["metric"] == ["span_errors"]
    assert main([*args]) == 0
    text = capsys.readouterr().out
    assert "makes fewer span errors" in text and "spans: conlleval" in text
    # one file, a column per tagger: the same test
    _write(tmp_path / "all.conll", [gold, a, b], 5)
    one = ["compare", str(tmp_path / "all.conll"), "--spans", "--gold-col", "2", "--pred-col", "3", "--pred-col", "4"]
    assert (
        main([*one, "--name", "a", "--name", "b", "--seed", "2", "--format", "json", "--metric", "micro.f1,macro.f1"])
        == 0
    )
    same = json.loads(capsys.readouterr().out)
    assert same["pairs"] == doc["pairs"]


def test_span_options_need_spans_and_prediction_files_must_align(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, _, _ = _corpus(29, 30)
    gold = [s for s in gold if s]
    _write(tmp_path / "gold.conll", [gold])
    _write(tmp_path / "a.conll", [_tagger(random.Random(1), gold, 0.1)])
    _write(tmp_path / "b.conll", [_tagger(random.Random(2), gold, 0.1)[:-1]])  # a sentence short
    files = [str(tmp_path / f) for f in ("gold.conll", "a.conll", "b.conll")]
    assert main(["compare", *files, "--unit", "sentences"]) == 2
    assert "--unit is for spans" in capsys.readouterr().err
    assert main(["compare", *files, "--spans"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "b.conll" in err


def test_the_report_s_span_tables_add_up_to_each_type_s_counts() -> None:
    from clfeval.report.spans import span_tables

    gold, a, _ = _corpus(31, 200)
    r = clfeval.score(gold, a, spans="iob2")
    tables = {t.key: t for t in span_tables(r)}
    assert set(tables) >= {"read", "span_errors", "modes"}
    errors = tables["span_errors"]
    columns = errors.columns
    for row in errors.rows[:-1]:
        label, values = str(row[0]), dict(zip(columns[1:], row[1:]))
        per = r.per_label[label]
        assert values["correct"] == per.tp
        gold_side = sum(values[k] for k in ("correct", "wrong type", "wrong boundaries", "both wrong", "missed"))
        assert gold_side == per.support
    total = dict(zip(columns[1:], errors.rows[-1][1:]))
    assert total["correct"] == sum(p.tp for p in r.per_label.values())
    read = {str(row[0]): row[1] for row in tables["read"].rows}
    assert read["gold spans"] == sum(p.support for p in r.per_label.values())
    assert read["predicted spans"] == sum(p.predicted for p in r.per_label.values())
    strict = next(row for row in tables["modes"].rows if str(row[0]) == "strict")
    assert strict[-1] == pytest.approx(r["micro.f1"])  # nervaluate's strict mode is exact matching
    text = r.render("text")
    assert "span confusion (rows: gold" in text and "where the errors are" in text and "partial-match modes" in text
    frame = r.to_polars("span_errors")  # the report's span tables are frames too
    assert frame.columns[:3] == ["type", "correct", "wrong type"] and frame["correct"].to_list() == [
        row[1] for row in errors.rows
    ]
    assert set(r.table_names()) >= {"read", "span_errors", "modes", "transitions"}


def test_joint_span_count_files_keep_the_units_and_the_scheme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, a, b = _corpus(37, 120)
    gold = [s for s in gold if s]
    rng = random.Random(3)
    a, b = _tagger(rng, gold, 0.1), _tagger(rng, gold, 0.3)
    half = len(gold) // 2
    for name, part in (("p1", slice(0, half)), ("p2", slice(half, None))):
        _write(tmp_path / f"{name}.conll", [gold[part], a[part], b[part]])
        args = ["count", str(tmp_path / f"{name}.conll"), "--spans", "iob2", "--gold-col", "2"]
        assert main([*args, "--pred-col", "3", "--pred-col", "4", "-o", str(tmp_path / f"{name}.json")]) == 0
    capsys.readouterr()
    doc = json.loads((tmp_path / "p1.json").read_text(encoding="utf-8"))
    assert doc["system_options"] == {"scheme": "iob2", "unit": "sentences"} and doc["unit"] == "sentences"
    files = [str(tmp_path / "p1.json"), str(tmp_path / "p2.json")]
    assert (
        main(["compare", "--counts", *files, "--seed", "5", "--format", "json", "--metric", "micro.f1,macro.f1"]) == 0
    )
    from_files = json.loads(capsys.readouterr().out)
    direct = clfeval.compare(
        gold, {"column 3": a, "column 4": b}, spans="iob2", seed=5, metrics=["micro.f1", "macro.f1"]
    )
    assert from_files["n_units"] == len(gold) and "scheme:iob2" in from_files["signature"]
    for got, want in zip(from_files["pairs"], direct.to_dict()["pairs"]):
        assert got["p_value"] == pytest.approx(want["p_value"]) and got["difference"] == pytest.approx(
            want["difference"]
        )


def test_cv_of_taggers_pools_the_folds_spans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, a, _ = _corpus(41, 90)
    folds = [i % 3 for i in range(len(gold))]
    r = clfeval.cv(gold, a, folds, spans="iob2")
    whole = clfeval.score(gold, a, spans="iob2")
    assert r.pooled["micro.f1"] == pytest.approx(whole["micro.f1"]) and len(r.folds) == 3
    for k, fold in enumerate(r.folds):
        alone = clfeval.score(
            [g for g, f in zip(gold, folds) if f == k], [p for p, f in zip(a, folds) if f == k], spans="iob2"
        )
        assert fold["macro.f1"] == pytest.approx(alone["macro.f1"])
    assert "accuracy" not in r.render("text").split("pooled:")[0]  # spans have no accuracy column
    # the command: one CoNLL file per fold
    gold = [s for s in gold if s]
    a = _tagger(random.Random(4), gold, 0.2)
    paths = []
    for k in range(3):
        _write(tmp_path / f"fold{k}.conll", [gold[k::3], a[k::3]])
        paths.append(str(tmp_path / f"fold{k}.conll"))
    assert main(["cv", *paths, "--spans", "iob2", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    pooled = clfeval.score(
        [s for k in range(3) for s in gold[k::3]], [s for k in range(3) for s in a[k::3]], spans="iob2"
    )
    assert doc["pooled"]["averages"]["micro"]["f1"] == pytest.approx(pooled["micro.f1"])


def test_the_docs_iobes_examples() -> None:
    """docs/spans.md: IOBES tags under conlleval merge adjacent spans of one type; the iobes scheme keeps them."""
    gold = [["B-LOC", "E-LOC", "B-LOC", "E-LOC"]]
    pred = [["B-LOC", "I-LOC", "I-LOC", "E-LOC"]]
    merged = clfeval.score(gold, pred, spans="conlleval")
    assert merged["micro.f1"] == 1.0 and any("merged" in w for w in merged.warnings)
    assert clfeval.score(gold, pred, spans="iobes")["micro.f1"] == 0.0
    assert clfeval.score([["S-PER", "S-PER"]], [["B-PER", "E-PER"]], spans="conlleval")["micro.f1"] == 1.0
    assert clfeval.score([["S-PER", "S-PER"]], [["B-PER", "E-PER"]], spans="iobes")["micro.f1"] == 0.0
    valid = [["B-PER", "E-PER", "B-PER", "E-PER", "S-PER"]]
    assert clfeval.score(valid, valid, spans="conlleval").per_label["PER"].support == 1
    assert clfeval.score(valid, valid, spans="iobes").per_label["PER"].support == 3


def test_span_counts_without_their_units_get_no_interval_and_no_test() -> None:
    counts = clfeval.SpanCounts("iob2", {("PER", "PER"): 3, ("PER", "∅"): 1})
    assert clfeval.score(counts)["micro.f1"] == pytest.approx(6 / 7)  # a point estimate needs no units
    with pytest.raises(ClfevalError, match="need their units"):
        clfeval.score(counts, ci="bootstrap")
    joint = clfeval.JointCounts(("A", "B"), {("PER", "PER", "∅"): 3, ("PER", "∅", "PER"): 1}, kind="spans")
    with pytest.raises(ClfevalError, match="need their units"):
        clfeval.compare(joint)


def test_the_accumulator_of_spans_is_one_call_on_every_sentence(tmp_path: Path) -> None:
    import pickle

    gold, a, _ = _corpus(43, 97)
    whole = clfeval.score(gold, a, spans="iob2", ci="bootstrap", seed=2, resamples=300)
    acc = clfeval.Accumulator("spans", spans="iob2")
    for start in range(0, len(gold), 10):
        acc.update(gold[start : start + 10], a[start : start + 10])
    assert acc.n_sentences == len(gold) and acc.updates == 10
    r = acc.score(ci="bootstrap", seed=2, resamples=300)
    assert r.flat() == whole.flat()  # the same scores and, sentence by sentence, the same bootstrap intervals
    assert r.warnings == whole.warnings  # invalid transitions named by their sentence in the whole
    # workers: the second's sentences after the first's
    first, second = clfeval.Accumulator("spans", spans="iob2"), clfeval.Accumulator("spans", spans="iob2")
    first.update(gold[:50], a[:50])
    second.update(gold[50:], a[50:])
    merged = pickle.loads(pickle.dumps(first)) + second
    assert merged.score(ci="bootstrap", seed=2, resamples=300).flat() == whole.flat()
    acc.save(tmp_path / "acc.json")
    loaded = clfeval.Accumulator.load(tmp_path / "acc.json")
    assert loaded.score(ci="bootstrap", seed=2, resamples=300).flat() == whole.flat()


def test_the_accumulator_of_spans_refuses_what_it_cannot_count() -> None:
    acc = clfeval.Accumulator("spans", ["PER", "LOC"], spans="iob2")
    acc.update([["B-PER"]], [["B-LOC"]])
    with pytest.raises(clfeval.InputError, match=r"update 2: the type 'ORG' is not among the declared types"):
        acc.update([["B-ORG"]], [["O"]])
    with pytest.raises(clfeval.InputError, match=r"update 2, gold, sentence 2, token 1: the tag 'PER' has no prefix"):
        acc.update([["PER"]], [["O"]])
    with pytest.raises(clfeval.InputError, match="entity lists, the earlier ones tags"):
        acc.update([[(0, 1, "PER")]], [[]])
    assert acc.updates == 1 and acc.n_sentences == 1  # a refused update counts nothing
    assert acc.score().labels == ("PER", "LOC")  # declared types, in their order
    with pytest.raises(ClfevalError, match="give task='spans'"):
        clfeval.Accumulator("single-label", spans="iob2")
    with pytest.raises(ClfevalError, match="merges with a span accumulator"):
        acc.merge(clfeval.Accumulator())
