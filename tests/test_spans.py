"""Span evaluation (issue 31): tags → spans under each scheme against the peers that define them, exact and
partial matching, the CoNLL reader's errors, intervals and tests over sentences.

Oracles: conlleval.pl's own outputs on generated files (tests/data/conlleval, made by tools/conlleval_fixtures.py:
the script is not in this repository, its sha256 is in MANIFEST.json), seqeval 1.2.2 (strict mode with each scheme
class, and its default mode) and nervaluate 1.2.1 (its four modes), run here on random tag sequences with invalid
transitions.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.cli import main
from clfeval.spans import SCHEMES, TagSequences
from clfeval.spans.matching import MODES, mode_counts

FIXTURES = Path(__file__).parent / "data" / "conlleval"
CASES = sorted(FIXTURES.glob("case-*.txt"))


def _run(capfdbinary: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, bytes]:
    code = main(list(args))
    out, err = capfdbinary.readouterr()
    return code, out, err


def test_the_fixtures_are_conlleval_pl_s_outputs_of_the_stated_version() -> None:
    manifest = json.loads((FIXTURES / "MANIFEST.json").read_text(encoding="utf-8"))
    script = manifest["script"]
    assert script["version_line"] == "# version:   2004-01-26" and len(script["sha256"]) == 64
    assert len(CASES) >= 150 and all(c.with_suffix(".out").exists() for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_format_conlleval_prints_conlleval_pl_s_report_byte_for_byte(
    case: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, err = _run(capfdbinary, "score", str(case), "--spans", "--format", "conlleval")
    assert code == 0, err
    assert out == case.with_suffix(".out").read_bytes()


# -- random tag sequences, as the peers read them -------------------------------------------------------------------


def _random_sentences(rng: random.Random, prefixes: str, n: int, types: str = "XYZ") -> tuple[list, list]:
    tags = ["O"] + [f"{p}-{t}" for p in prefixes for t in types]
    gold = [[rng.choice(tags) for _ in range(rng.randint(0, 9))] for _ in range(n)]
    pred = [[t if rng.random() < 0.6 else rng.choice(tags) for t in s] for s in gold]
    return gold, pred


def _sequences(gold: list, pred: list) -> TagSequences:
    vocab = sorted({t for s in gold + pred for t in s} | {"O"})
    index = {t: i for i, t in enumerate(vocab)}
    offsets = np.r_[0, np.cumsum([len(s) for s in gold])].astype(np.int64)
    columns = tuple(np.array([index[t] for s in c for t in s], dtype=np.int64) for c in (gold, pred))
    return TagSequences(tuple(vocab), columns, offsets)


STRICT = ["iob1", "iob2", "ioe1", "ioe2", "iobes", "bilou"]


@pytest.mark.parametrize("scheme", STRICT)
def test_strict_schemes_give_seqeval_s_strict_numbers(scheme: str) -> None:
    seqeval_metrics = pytest.importorskip("seqeval.metrics.v1")
    seqeval_scheme = pytest.importorskip("seqeval.scheme")
    cls = getattr(seqeval_scheme, scheme.upper())
    rng = random.Random(scheme)
    for _ in range(60):
        gold, pred = _random_sentences(rng, SCHEMES[scheme].prefixes, rng.randint(1, 8))
        counts = _sequences(gold, pred).count(scheme)
        entities_g = {e.to_tuple() for es in seqeval_scheme.Entities(gold, cls).entities for e in es}
        entities_p = {e.to_tuple() for es in seqeval_scheme.Entities(pred, cls).entities for e in es}
        types = sorted({e[1] for e in entities_g | entities_p})
        expected = {
            t: (
                len({e for e in entities_g if e[1] == t} & {e for e in entities_p if e[1] == t}),
                len({e for e in entities_p if e[1] == t} - {e for e in entities_g if e[1] == t}),
                len({e for e in entities_g if e[1] == t} - {e for e in entities_p if e[1] == t}),
            )
            for t in types
        }
        assert counts.type_counts() == expected, (gold, pred)
        if not types:
            continue
        result = clfeval.score(counts)
        p, r, f, s = seqeval_metrics.precision_recall_fscore_support(
            gold, pred, scheme=cls, average="micro", zero_division=0
        )
        assert result["micro.precision"] == pytest.approx(p) and result["micro.recall"] == pytest.approx(r)
        assert result["micro.f1"] == pytest.approx(f)
        p, r, f, s = seqeval_metrics.precision_recall_fscore_support(
            gold, pred, scheme=cls, average=None, zero_division=0
        )
        assert [result.per_label[t].values["f"] for t in types] == pytest.approx(list(f))
        assert [result.per_label[t].support for t in types] == list(s)


@pytest.mark.parametrize("prefixes", ["BI", "I", "B"])
def test_conlleval_agrees_with_seqeval_s_default_mode_on_iob_tags(prefixes: str) -> None:
    seqeval_metrics = pytest.importorskip("seqeval.metrics")
    rng = random.Random(prefixes)
    for _ in range(60):
        gold, pred = _random_sentences(rng, prefixes, rng.randint(1, 8))
        counts = _sequences(gold, pred).count("conlleval")
        if not counts.pairs:
            continue
        f = seqeval_metrics.f1_score(gold, pred, average="micro", zero_division=0)
        assert clfeval.score(counts)["micro.f1"] == pytest.approx(f), (gold, pred)


def test_the_issue_s_iobes_cases_merge_under_conlleval_and_not_under_iobes() -> None:
    gold, pred = (
        [["B-LOC", "E-LOC", "B-LOC", "E-LOC"], ["S-PER", "S-PER"]],
        [["B-LOC", "I-LOC", "I-LOC", "E-LOC"], ["B-PER", "E-PER"]],
    )
    conll = _sequences(gold, pred).count("conlleval")
    iobes = _sequences(gold, pred).count("iobes")
    assert clfeval.score(conll)["micro.f1"] == 1.0 and clfeval.score(iobes)["micro.f1"] == 0.0
    assert conll.merged == {"gold": 2}  # E-LOC B-LOC and S-PER S-PER: two spans merged in gold, none predicted
    r = clfeval.score(gold, pred, spans="conlleval")
    assert any("merge" in w for w in r.warnings)


def test_the_partial_match_modes_give_nervaluate_s_counts() -> None:
    nervaluate = pytest.importorskip("nervaluate")
    rng = random.Random(7)
    names = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
    for _ in range(150):
        gold, pred = _random_sentences(rng, "BI", rng.randint(1, 6))
        counts = _sequences(gold, pred).count("iob2")
        spans = {}
        for column, tags in (("gold", gold), ("pred", pred)):
            spans[column] = [
                [{"label": t, "start": a, "end": b - 1} for a, b, t in _spans_of(sentence)] for sentence in tags
            ]
        if not any(spans["gold"]) and not any(spans["pred"]):
            continue
        found = nervaluate.Evaluator(spans["gold"], spans["pred"], tags=list("XYZ"), loader="dict").evaluate()
        for mode in MODES:
            r = found["overall"][names[mode]]
            assert counts.modes[mode]["*"] == (r.correct, r.incorrect, r.partial, r.missed, r.spurious), (
                mode,
                gold,
                pred,
            )
            for t, by_type in found["entities"].items():
                r = by_type[names[mode]]
                assert counts.modes[mode].get(t, (0,) * 5) == (r.correct, r.incorrect, r.partial, r.missed, r.spurious)


def _spans_of(tags: list[str]) -> list[tuple[int, int, str]]:
    """IOB2 spans of one sentence, as seqeval strict reads them (a stray I- opens none)."""
    out, start, kind = [], None, None
    for i, tag in enumerate([*tags, "O"]):
        if start is not None and not (tag.startswith("I-") and tag[2:] == kind):
            out.append((start, i, kind))
            start = None
        if tag.startswith("B-"):
            start, kind = i, tag[2:]
    return out


def test_partial_matching_does_not_depend_on_the_order_of_the_annotations() -> None:
    rng = random.Random(3)
    for _ in range(200):
        gold = [(a, a + rng.randint(1, 4), rng.choice("XY")) for a in rng.sample(range(12), 4)]
        pred = [(a, a + rng.randint(1, 4), rng.choice("XY")) for a in rng.sample(range(12), 4)]
        first = clfeval.score([gold], [pred], spans=True).counts
        rng.shuffle(gold)
        rng.shuffle(pred)
        again = clfeval.score([gold], [pred], spans=True).counts
        assert first.modes == again.modes and first.confusion == again.confusion and first.pairs == again.pairs


def test_overlapping_entity_lists_take_exact_matches_first() -> None:
    """nervaluate 1.2.1 lets an earlier prediction that only overlaps a gold span take it from a later one that
    matches it exactly (docs/spans.md); clfeval matches exactly first."""
    gold = [[(0, 3, "PER")]]
    pred = [[(0, 2, "PER"), (0, 3, "PER")]]
    counts = clfeval.score(gold, pred, spans=True).counts
    assert counts.modes["strict"]["*"] == (1, 0, 0, 0, 1)
    assert mode_counts([(0, 3, 1)], [(0, 2, 1), (0, 3, 1)], "strict") == [1, 0, 0, 0, 1]


# -- the Python entry points ---------------------------------------------------------------------------------------


def test_tag_lists_and_entity_lists_give_the_same_scores() -> None:
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"]]
    pred = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "B-ORG", "O"]]
    tags = clfeval.score(gold, pred, spans="iob2")
    entities = clfeval.score(
        [[(0, 2, "PER"), (3, 4, "LOC")], [{"start": 1, "end": 3, "type": "ORG"}]],
        [[(0, 2, "PER"), (3, 4, "ORG")], [{"start": 1, "end": 2, "label": "ORG"}]],
        spans=True,
    )
    assert tags.flat() == entities.flat()
    assert tags["micro.f1"] == pytest.approx(2 / 6) and tags.options["scheme"] == "iob2"
    assert entities.options["scheme"] == "entities"
    assert tags.per_label["PER"].tp == 1 and tags.per_label["ORG"].fp == 2 and tags.per_label["ORG"].fn == 1


def test_span_results_have_no_measure_that_reads_true_negatives() -> None:
    r = clfeval.score([["B-A", "O"]], [["B-A", "B-B"]], spans="iob2")
    assert set(r.per_label["A"].values) == {"precision", "recall", "f", "fnr", "jaccard"}
    assert "tn" not in r.to_dict()["per_label"]["A"] and "accuracy" not in r.to_dict()
    assert set(r.averages) == {"micro", "macro", "macro_fa", "weighted", "lfb"}


@pytest.mark.parametrize(
    ("gold", "pred", "message"),
    [
        ([["B-PER"]], [["B-PER", "O"]], "2 tags, but the gold sentence has 1"),
        ([["B-PER"], ["O"]], [["B-PER"]], "1 sentences, but gold has 2"),
        ([["PER"]], [["B-PER"]], "the tag 'PER' has no prefix"),
        ([["S-PER"]], [["B-PER"]], "the tag 'S-PER' has the prefix S-, which the iob2 scheme does not use"),
        ([["B-"]], [["B-PER"]], "the tag 'B-' has no type after its prefix"),
        ([[(0, 0, "PER")]], [[]], "an entity must hold a token"),
    ],
)
def test_bad_lists_get_a_one_line_error(gold: list, pred: list, message: str) -> None:
    with pytest.raises(clfeval.InputError, match=message):
        clfeval.score(gold, pred, spans="iob2")


def test_intervals_resample_sentences_and_say_so() -> None:
    rng = random.Random(11)
    gold, pred = _random_sentences(rng, "BI", 300)
    r = clfeval.score(gold, pred, spans="iob2", ci="bootstrap", seed=4, resamples=400)
    assert r.intervals.unit == "sentences" and r.intervals.n_units <= 300
    low, high = r.interval("micro.f1")
    assert low < r["micro.f1"] < high
    delta = clfeval.score(gold, pred, spans="iob2", ci="delta")
    assert delta.intervals.unit == "sentences"
    assert any("resampling units: sentences" in n for n in delta.intervals.notes)


# -- files ---------------------------------------------------------------------------------------------------------


CONLL = """-DOCSTART- -X- O O

EU NNP B-ORG B-ORG
rejects VBZ O O
German JJ B-MISC B-MISC
call NN O O

Peter NNP B-PER B-PER
Blackburn NNP I-PER O

BRUSSELS NNP B-LOC B-ORG
1996-08-22 CD O B-LOC
"""


def test_a_conll_file_scores_and_lists_its_wrong_spans(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    (tmp_path / "ner.txt").write_text(CONLL)
    code, out, err = _run(
        capfdbinary,
        "score",
        str(tmp_path / "ner.txt"),
        "--spans",
        "--errors",
        str(tmp_path / "e.tsv"),
        "--format",
        "json",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["task"] == "spans" and doc["averages"]["micro"]["f1"] == pytest.approx(4 / 9)
    assert doc["spans"]["tokens"] == {
        "tokens": 8,
        "right": 5,
        "accuracy": 5 / 8,
        "docstart_lines": 1,
        "conlleval_accuracy": 6 / 9,
    }
    assert doc["spans"]["n_sentences"] == 3 and doc["spans"]["unit"] == "sentences"
    lines = (tmp_path / "e.tsv").read_text().splitlines()
    assert lines == [
        "sentence\tline\terror\tgold\tpredicted\ttokens",
        "2\t8\tboundaries\tPER 1-2\tPER 1-1\tPeter Blackburn",
        "3\t11\ttype\tLOC 1-1\tORG 1-1\tBRUSSELS",
        "3\t12\tspurious\t\tLOC 2-2\t1996-08-22",
    ]


def test_a_gold_file_and_a_prediction_file_score_as_one_file(tmp_path: Path) -> None:
    (tmp_path / "ner.txt").write_text(CONLL)
    lines = CONLL.splitlines()
    (tmp_path / "gold.txt").write_text("\n".join(" ".join(line.split()[:3]) for line in lines) + "\n")
    (tmp_path / "pred.txt").write_text(
        "\n".join(" ".join(line.split()[:1] + line.split()[3:]) for line in lines) + "\n"
    )
    one = clfeval.score(clfeval.read(str(tmp_path / "ner.txt"), spans=True))
    two = clfeval.score(clfeval.read(str(tmp_path / "gold.txt"), str(tmp_path / "pred.txt"), spans=True))
    assert one.flat() == two.flat()


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.txt": "x B-PER B-PER\r\n"}, r"a.txt:1: the line ends in CR LF"),
        ({"a.txt": "x B-PER B-PER\ny PER O\n"}, r"a.txt:2: the tag 'PER' has no prefix"),
        ({"a.txt": "x B-PER B-PER\ny O\n"}, r"a.txt:2: expected 3 fields, as on line 1, found 2"),
        ({"a.txt": "-DOCSTART- B-PER O\n\nx B-PER O\n"}, r"a.txt:1: a -DOCSTART- line tagged 'B-PER'"),
        ({"g.txt": "x B-PER\ny O\n\nz O\n", "p.txt": "x B-PER\ny O\n"}, r"p.txt: ends after 1 sentences"),
        ({"g.txt": "x B-PER\ny O\n\nz O\n", "p.txt": "x B-PER\n\ny O\nz O\n"}, r"p.txt: sentence ends differ"),
        ({"g.txt": "x B-PER\ny O\n", "p.txt": "x B-PER\nw O\n"}, r"p.txt:2: the token 'w' differs"),
        ({"a.txt": b"x B-PER B-\xffPER\n"}, r"a.txt:1: is not valid UTF-8"),
    ],
)
def test_bad_files_get_a_one_line_error_with_file_and_line(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes], files: dict, message: str
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    code, out, err = _run(capfdbinary, "score", *(str(tmp_path / n) for n in files), "--spans", "iob2")
    assert code == 2 and out == b""
    lines = err.decode().splitlines()
    assert len(lines) == 1 and __import__("re").search(message, lines[0]), lines


def test_invalid_transitions_are_counted_with_where_they_are(tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("a O I-PER\nb O I-PER\n\nc B-LOC B-LOC\nd I-LOC I-ORG\n")
    r = clfeval.score(clfeval.read(str(tmp_path / "t.txt"), spans="iob2"))
    found = r.to_dict()["spans"]["invalid_transitions"]
    assert {(t["column"], t["kind"], t["count"]) for t in found} == {
        ("pred", "start of sentence → I-X", 1),
        ("pred", "B-X → I-Y", 1),
    }
    where = {t["kind"]: t["where"] for t in found}
    assert where["start of sentence → I-X"] == [f"{tmp_path / 't.txt'}:1"] and where["B-X → I-Y"] == [
        f"{tmp_path / 't.txt'}:5"
    ]
    assert any("invalid transition" in w for w in r.warnings)


def test_documents_are_the_units_when_there_are_enough_of_them(tmp_path: Path) -> None:
    rng = random.Random(5)
    lines = []
    for _ in range(25):
        lines += ["-DOCSTART- O O", ""]
        for _ in range(3):
            for i in range(4):
                lines.append(f"w{i} {rng.choice(['B-X', 'O'])} {rng.choice(['B-X', 'O'])}")
            lines.append("")
    (tmp_path / "docs.txt").write_text("\n".join(lines))
    counted = clfeval.read(str(tmp_path / "docs.txt"), spans=True)
    assert counted.inputs["unit"] == "documents" and counted.inputs["n_documents"] == 25
    assert counted.blocks.n_blocks == 25
    few = "\n".join(lines[: lines.index("-DOCSTART- O O", 3)])
    (tmp_path / "one.txt").write_text(few)
    assert clfeval.read(str(tmp_path / "one.txt"), spans=True).inputs["unit"] == "sentences"
    by_sentence = clfeval.read(str(tmp_path / "docs.txt"), spans=clfeval.Spans(unit="sentences"))
    assert by_sentence.inputs["unit"] == "sentences" and by_sentence.blocks.n_blocks == 75


def test_chunked_reading_equals_reading_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(9)
    gold, pred = _random_sentences(rng, "BIES", 400)
    text = "\n\n".join("\n".join(f"w {g} {p}" for g, p in zip(gs, ps)) for gs, ps in zip(gold, pred) if gs)
    (tmp_path / "big.txt").write_text(text + "\n")
    whole = clfeval.score(clfeval.read(str(tmp_path / "big.txt"), spans="iobes"), ci="delta")
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "97")
    parts = clfeval.score(clfeval.read(str(tmp_path / "big.txt"), spans="iobes"), ci="delta")
    assert whole.flat() == parts.flat()
    assert whole.counts.transitions == parts.counts.transitions and whole.counts.modes == parts.counts.modes


def test_span_count_files_round_trip(tmp_path: Path) -> None:
    rng = random.Random(2)
    gold, pred = _random_sentences(rng, "BI", 100)
    r = clfeval.score(gold, pred, spans="iob2")
    clfeval.save_counts(r.counts, str(tmp_path / "c.json"))
    again = clfeval.load_counts(str(tmp_path / "c.json"))
    assert clfeval.score(again).flat() == r.flat()
    a = clfeval.score(again, ci="bootstrap", seed=1, resamples=300)
    b = clfeval.score(gold, pred, spans="iob2", ci="bootstrap", seed=1, resamples=300)
    assert a.interval("micro.f1") == pytest.approx(b.interval("micro.f1"))


# -- JSON Lines of sentences ---------------------------------------------------------------------------------------


def test_json_lines_of_sentences_count_as_the_conll_file_does(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    rng = random.Random(21)
    gold, pred = _random_sentences(rng, "BI", 120)
    gold, pred = zip(*[(g, p) for g, p in zip(gold, pred) if g])  # CoNLL has no empty sentence
    conll = "\n\n".join("\n".join(f"w {g} {p}" for g, p in zip(gs, ps)) for gs, ps in zip(gold, pred)) + "\n"
    (tmp_path / "t.conll").write_text(conll, encoding="utf-8")
    lines = [json.dumps({"tokens": ["w"] * len(g), "gold": g, "pred": p}) for g, p in zip(gold, pred)]
    (tmp_path / "t.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "g.jsonl").write_text("\n".join(json.dumps({"tags": g}) for g in gold) + "\n", encoding="utf-8")
    (tmp_path / "p.jsonl").write_text("\n".join(json.dumps({"tags": p}) for p in pred) + "\n", encoding="utf-8")
    outputs = []
    for args in (
        [str(tmp_path / "t.conll")],
        [str(tmp_path / "t.jsonl")],
        [str(tmp_path / "t.jsonl"), "--gold-col", "gold", "--pred-col", "pred"],
        [str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl")],
    ):
        assert main(["score", *args, "--spans", "iob2", "--ci", "bootstrap", "--seed", "3", "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        outputs.append((doc["per_label"], doc["averages"], doc["ci"]["n_units"]))
    assert all(o == outputs[0] for o in outputs[1:])
    entities = [
        json.dumps({"gold": [{"start": a, "end": b, "type": t} for a, b, t in _spans_of(g)],
                    "pred": [{"start": a, "end": b, "type": t} for a, b, t in _spans_of(p)]})
        for g, p in zip(gold, pred)
    ]  # fmt: skip
    (tmp_path / "e.jsonl").write_text("\n".join(entities) + "\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "e.jsonl"), "--spans", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    without_ci = {a: {m: v for m, v in row.items() if not m.endswith("_ci")} for a, row in outputs[0][1].items()}
    assert doc["averages"] == without_ci and doc["spans"]["scheme"] == "entities"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"gold": ["B-PER"], "pred": ["B-PER"]}\n{"gold": ["B-PER", "O"], "pred": ["O"]}\n',
            r":2: the sentence holds 1 tags",
        ),
        ('{"gold": ["B-PER"], "pred": ["B-PER"]}\n{"gold": ["O"] "pred": ["O"]}\n', r":2: is not a JSON object"),
        ('{"gold": "B-PER", "pred": "B-PER"}\n', r":1: the gold field 'gold' holds String, not a list"),
        ('{"gold": ["PER"], "pred": ["B-PER"]}\n', r"the tag 'PER' has no prefix"),
    ],
)
def test_bad_json_lines_of_sentences_get_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture, text: str, message: str
) -> None:
    (tmp_path / "bad.jsonl").write_text(text, encoding="utf-8")
    assert main(["score", str(tmp_path / "bad.jsonl"), "--spans", "iob2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.jsonl" in err
    assert re.search(message, err), err


# -- found by fuzzing against the peers ------------------------------------------------------------------------------


def test_type_mode_never_finds_fewer_correct_spans_than_strict() -> None:
    """With entity lists a gold span may meet a prediction of equal boundaries and type and another overlapping one:
    the equal one is matched first in every mode."""
    for gold, pred in (
        ([(8, 10, "B")], [(8, 10, "B"), (8, 10, "A")]),
        ([(7, 8, "C")], [(7, 8, "C"), (6, 9, "A")]),
    ):
        for order in (pred, pred[::-1]):
            modes = clfeval.score([gold], [order], spans=True).counts.modes
            assert modes["type"]["*"] == modes["strict"]["*"] == (1, 0, 0, 0, 1)
    rng = random.Random(5)
    for _ in range(300):
        gold = [(a, a + rng.randint(1, 3), rng.choice("AB")) for a in rng.sample(range(10), 3)]
        pred = [(a, a + rng.randint(1, 3), rng.choice("AB")) for a in rng.sample(range(10), 4)]
        modes = clfeval.score([gold], [pred], spans=True).counts.modes
        assert modes["type"]["*"][0] >= modes["strict"]["*"][0]
        assert modes["exact"]["*"][0] >= modes["strict"]["*"][0]


def test_docstart_lines_without_token_lines_are_read_and_checked(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    (tmp_path / "only.txt").write_bytes(b"-DOCSTART- B-X O\n")
    code, _, err = _run(capfdbinary, "score", str(tmp_path / "only.txt"), "--spans", "--format", "conlleval")
    assert code == 2 and b"only.txt:1: a -DOCSTART- line tagged 'B-X' in the gold column: expected O" in err
    (tmp_path / "o.txt").write_bytes(b"a O O\n")
    code, _, err = _run(capfdbinary, "score", str(tmp_path / "o.txt"), "--spans")
    assert code == 2 and b"every tag is O" in err and err.count(b"\n") == 1
