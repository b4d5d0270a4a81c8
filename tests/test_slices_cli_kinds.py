"""Scores by group from the command line for the two kinds read apart from tables of labels: files of scored
predictions (``score FILE --scores COLS --group-col COL``) and CoNLL files of spans (``score GOLD PRED --spans
--group-col N`` or ``--group-by document``). Each gives the numbers of ``clfeval.score(..., groups=...)`` on the
same data in memory, run as a real process (``python -m clfeval``)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

import clfeval
from clfeval.errors import InputError, OptionError

EXAMPLES = Path(__file__).parents[1] / "examples"
SRC = str(Path(clfeval.__file__).parents[1])


def _run(*args: str, chunk: int | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m clfeval ARGS`` with this tree's sources (and, given, a chunk size of so many bytes)."""
    env = {**os.environ, "PYTHONPATH": SRC}
    if chunk is not None:
        env["CLFEVAL_CHUNK_BYTES"] = str(chunk)
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, env=env, timeout=300)


def _json(*args: str, chunk: int | None = None) -> dict[str, Any]:
    out = _run(*args, "--format", "json", chunk=chunk)
    assert out.returncode == 0, out.stderr.decode()
    return json.loads(out.stdout)


def _error(*args: str) -> str:
    out = _run(*args)
    err = out.stderr.decode()
    assert out.returncode == 2, (out.returncode, err)
    assert err.count("\n") == 1 and err.startswith("clfeval: error: ") and "Traceback" not in err, err
    return err


def _numbers(doc: dict[str, Any]) -> dict[str, Any]:
    """What a result by group computes, not where its inputs came from (the file, or arrays)."""
    keep = ("by_group", "overall", "gaps", "tests", "groups", "group_columns", "metrics", "fairness", "n_instances",
            "test_method", "gap_method")  # fmt: skip
    out = {k: doc[k] for k in keep}
    for part in ("overall", "by_group"):
        results = {"": out[part]} if part == "overall" else out[part]
        cut = {g: {k: v for k, v in r.items() if k not in ("inputs", "options", "notes")} for g, r in results.items()}
        out[part] = cut[""] if part == "overall" else cut
    return out


# --- scored predictions --------------------------------------------------------------------------------------------


def _scored_table(rng: np.random.Generator, n: int, kind: str) -> dict[str, Any]:
    """Gold, scores (binary: one column; multi-class: a probability column per class; multi-label: a score per
    label), two group columns and a weight per row."""
    classes = ["cat", "dog", "owl"]
    if kind == "binary":
        gold = rng.choice(["neg", "pos"], n, p=[0.6, 0.4])
        scores = np.clip(0.35 * (gold == "pos") + rng.random(n) * 0.65, 0, 1).round(3)
        columns = {"pos": scores}
    elif kind == "multiclass":
        gold = rng.choice(classes, n)
        raw = rng.dirichlet([1.0, 1.0, 1.0], n) + 0.8 * (gold[:, None] == np.array(classes))
        probs = raw / raw.sum(axis=1, keepdims=True)
        columns = {f"p_{c}": probs[:, i] for i, c in enumerate(classes)}
    else:
        gold = np.array([",".join(sorted(set(rng.choice(classes, rng.integers(1, 3)).tolist()))) for _ in range(n)])
        columns = {f"p_{c}": rng.random(n).round(2) for c in classes}
    return {
        "gold": gold.tolist(),
        **{k: [float(x) for x in v] for k, v in columns.items()},
        "lang": rng.choice(["de", "en", "fr"], n, p=[0.5, 0.3, 0.2]).tolist(),
        "site": rng.choice(["1", "2", "10"], n).tolist(),
        "w": rng.choice([0.5, 1.0, 2.0], n).tolist(),
        "blk": [f"b{i // 4}" for i in range(n)],  # four rows a block
    }


def _write_table(path: Path, table: dict[str, Any]) -> str:
    n = len(table["gold"])
    lines = ["\t".join(table)] + ["\t".join(repr(table[c][i]) if isinstance(table[c][i], float) else table[c][i]
                                            for c in table) for i in range(n)]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


SCORED = [
    pytest.param({"kind": "binary", "columns": ["lang"], "scores": "pos"}, id="binary"),
    pytest.param(
        {"kind": "binary", "columns": ["lang", "site"], "scores": "pos", "ci": True}, id="binary-intersections-ci"
    ),
    pytest.param({"kind": "multiclass", "columns": ["site"], "scores": "p_*"}, id="multiclass"),
    pytest.param(
        {"kind": "multiclass", "columns": ["lang"], "scores": "p_*", "weights": True}, id="multiclass-weights"
    ),
    pytest.param({"kind": "multilabel", "columns": ["lang"], "scores": "p_*"}, id="multilabel"),
    pytest.param({"kind": "multiclass", "columns": ["lang"], "scores": "p_*", "blocks": True}, id="multiclass-blocks"),
]


@pytest.mark.parametrize("case", SCORED)
def test_scored_file_by_group_equals_arrays(tmp_path: Path, case: dict[str, Any]) -> None:
    """`score FILE --scores COLS --gold-col gold --group-col …` gives the JSON numbers of
    `clfeval.score(gold, scores=S, groups=G)`: every group's scores, the gaps, the tests, the fairness."""
    rng = np.random.default_rng(len(case["columns"]) * 7 + len(case["kind"]))
    table = _scored_table(rng, 500, case["kind"])
    path = _write_table(tmp_path / "scores.tsv", table)
    grouping = [a for c in case["columns"] for a in ("--group-col", c)]
    extra = ["--multilabel"] if case["kind"] == "multilabel" else []
    extra += ["--weight-col", "w"] if case.get("weights") else []
    extra += ["--ci", "bootstrap", "--resamples", "200"] if case.get("ci") else []
    extra += ["--block-col", "blk", "--ci", "bootstrap", "--resamples", "100"] if case.get("blocks") else []
    doc = _json("score", path, "--scores", case["scores"], "--gold-col", "gold", *grouping, *extra,
                "--rounds", "200", "--seed", "4")  # fmt: skip
    score_columns = [c for c in table if c == case["scores"] or c.startswith("p_")]
    if case["kind"] == "binary":
        scores: Any = pl.DataFrame({"pos": table["pos"]})
    else:
        scores = pl.DataFrame({c[2:]: table[c] for c in score_columns})
    gold = [g.split(",") for g in table["gold"]] if case["kind"] == "multilabel" else table["gold"]
    arrays = clfeval.score(
        gold, scores=scores, groups={c: table[c] for c in case["columns"]},
        multilabel=True if case["kind"] == "multilabel" else None,
        sample_weight=table["w"] if case.get("weights") else None, rounds=200, seed=4,
        blocks=table["blk"] if case.get("blocks") else None,
        **({"ci": "bootstrap", "resamples": 200} if case.get("ci") else {}),
        **({"ci": "bootstrap", "resamples": 100} if case.get("blocks") else {}),
    )  # fmt: skip
    expected = json.loads(arrays.to_json())
    assert _numbers(doc) == _numbers(expected)
    assert doc["group_columns"] == case["columns"]
    assert len(doc["groups"]) >= 2 and sum(g["n_instances"] for g in doc["groups"]) == 500
    for result in (doc["overall"], *doc["by_group"].values()):  # the file, not arrays, is named
        assert result["inputs"]["file"] == path and result["inputs"]["gold_column"] == "gold"
        if case.get("weights"):
            assert result["inputs"]["sample_weight"]["source"] == "w"
    if case.get("blocks"):
        assert doc["overall"]["inputs"]["n_blocks"] == 125 and doc["overall"]["ci"]["unit"] == "block"


def test_scored_groups_report_and_test_names(tmp_path: Path) -> None:
    """The text report of a scored file by group, and DeLong's unpaired test asked by name, as in memory."""
    rng = np.random.default_rng(11)
    table = _scored_table(rng, 300, "binary")
    path = _write_table(tmp_path / "s.tsv", table)
    base = ["score", path, "--scores", "pos", "--gold-col", "gold", "--group-col", "lang"]
    out = _run(*base, "--group-test", "delong", "--group-metric", "auc", "--seed", "1")
    assert out.returncode == 0, out.stderr.decode()
    assert "de" in out.stdout.decode() and "en" in out.stdout.decode()
    doc = _json(*base, "--group-test", "delong", "--group-metric", "auc", "--seed", "1")
    arrays = clfeval.score(table["gold"], scores=pl.DataFrame({"pos": table["pos"]}), groups={"lang": table["lang"]},
                           test="delong", metrics=["auc"], seed=1)  # fmt: skip
    assert _numbers(doc) == _numbers(json.loads(arrays.to_json()))
    assert doc["test_method"]["name"] == "delong"


def test_scored_errors(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    table = _scored_table(rng, 40, "multiclass")
    table["lang"][6] = ""
    path = _write_table(tmp_path / "s.tsv", table)
    base = ["score", path, "--scores", "p_*", "--gold-col", "gold"]
    err = _error(*base, "--group-col", "lang")
    assert "s.tsv:8" in err and "'lang'" in err and "missing" in err
    assert "no column named 'nope'" in _error(*base, "--group-col", "nope")
    assert "gold" in _error(*base, "--group-col", "gold") and "column of its own" in _error(
        *base, "--group-col", "gold"
    )
    assert "once" in _error(*base, "--group-col", "site", "--group-col", "site")
    assert "--group-by document" in _error(*base, "--group-col", "site", "--group-by", "document")
    assert "--format conlleval" in _error(*base, "--group-col", "site", "--format", "conlleval")
    assert "TiMBL" in _error("score", path, "--scores", "timbl", "--group-col", "3")
    counts = tmp_path / "c.json"
    table["lang"][6] = "de"
    _write_table(tmp_path / "ok.tsv", table)
    made = _run("count", str(tmp_path / "ok.tsv"), "--scores", "p_*", "--gold-col", "gold", "-o", str(counts))
    assert made.returncode == 0, made.stderr.decode()
    assert "scored count files" in _error("score", "--counts", str(counts), "--group-col", "lang")
    with pytest.raises(InputError, match="missing"):
        from clfeval.inputs.scoredfile import read_scored

        read_scored(path, "p_*", gold_col="gold", group_col=["lang"])


# --- spans ---------------------------------------------------------------------------------------------------------


def _span_numbers(doc: dict[str, Any]) -> dict[str, Any]:
    """The numbers of a result of spans by group that sentences in memory also give: a file's reading knows more —
    its -DOCSTART- lines (tokens and conlleval.pl's accuracy), its documents, and the file and line of an invalid
    transition (where memory says the sentence and token) — which is left out here and tested apart."""
    out = _numbers(copy.deepcopy(doc))
    for result in (out["overall"], *out["by_group"].values()):
        result.pop("warnings")
        held = result["spans"]
        for key in ("n_documents", "tokens"):
            held.pop(key, None)
        held["invalid_transitions"] = [
            {k: v for k, v in t.items() if k != "where"} for t in held["invalid_transitions"]
        ]
    return out


def _sentences(path: Path, tag: int = -1, group: int | None = None) -> tuple[list[list[str]], list[str], list[str]]:
    """A CoNLL file's sentences of tags (field ``tag``), each sentence's document ("0" before the first -DOCSTART-,
    then "1", "2" …) and its value in field ``group`` — read here plainly, line by line, apart from clfeval's
    reader."""
    sentences: list[list[str]] = []
    documents: list[str] = []
    groups: list[str] = []
    current: list[str] = []
    value = ""
    document = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields or fields[0] == "-DOCSTART-":
            if current:
                sentences.append(current)
                documents.append(str(document))
                groups.append(value)
                current = []
            document += bool(fields)
            continue
        current.append(fields[tag])
        value = fields[group] if group is not None else ""
    if current:
        sentences.append(current)
        documents.append(str(document))
        groups.append(value)
    return sentences, documents, groups


TYPES = ["PER", "LOC", "ORG"]


def _random_conll(rng: np.random.Generator, path: Path, n_sentences: int, docstart: bool) -> None:
    """A CoNLL file: word, domain (one per sentence), gold tag, predicted tag (IOB2, predictions often wrong)."""
    lines: list[str] = []
    for s in range(n_sentences):
        if docstart and s % 30 == 0:
            lines += ["-DOCSTART- x O O", ""]
        domain = rng.choice(["news", "web", "chat", "10"], p=[0.35, 0.25, 0.2, 0.2])
        gold_tags: list[str] = []
        while len(gold_tags) < rng.integers(2, 12):
            if rng.random() < 0.3:
                kind = rng.choice(TYPES)
                gold_tags += [f"B-{kind}"] + [f"I-{kind}"] * int(rng.integers(0, 3))
            else:
                gold_tags.append("O")
        for i, g in enumerate(gold_tags):
            p = g if rng.random() < 0.8 else rng.choice(["O", "B-PER", "I-PER", "B-LOC", "I-ORG"])
            lines.append(f"w{s}_{i} {domain} {g} {p}")
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_spans_by_document_of_the_example_equal_arrays() -> None:
    """examples/ner-gold.conll against ner-tagger-a.conll, a group per -DOCSTART- document: the numbers of
    score(gold sentences, predicted sentences, spans=, groups=each sentence's document)."""
    gold_path, pred_path = EXAMPLES / "ner-gold.conll", EXAMPLES / "ner-tagger-a.conll"
    gold, documents, _ = _sentences(gold_path)
    pred, _, _ = _sentences(pred_path)
    options = ["--unit", "sentences", "--rounds", "300", "--seed", "6", "--ci", "bootstrap", "--resamples", "200"]
    doc = _json("score", str(gold_path), str(pred_path), "--spans", "--group-by", "document", *options)
    sentences = clfeval.Spans("conlleval", unit="sentences")
    arrays = clfeval.score(gold, pred, spans=sentences, groups={"document": documents}, rounds=300, seed=6,
                           ci="bootstrap", resamples=200)  # fmt: skip
    assert _span_numbers(doc) == _span_numbers(json.loads(arrays.to_json()))
    assert doc["group_columns"] == ["document"] and len(doc["groups"]) == 20
    assert all(doc["by_group"][g]["spans"]["tokens"]["docstart_lines"] == 1 for g in doc["by_group"])
    assert doc["overall"]["spans"]["tokens"]["docstart_lines"] == 20
    assert doc["overall"]["inputs"]["gold_file"] == str(gold_path)
    read = clfeval.read(str(gold_path), str(pred_path), spans=clfeval.Spans("conlleval", unit="sentences"),
                        reading=clfeval.Reading(group_col="document"))  # fmt: skip
    assert read.groups is not None and read.counts is not None
    assert sum(c.n_instances for c in read.groups.values()) == read.counts.n_instances
    assert sum(c.tokens.docstart for c in read.groups.values() if c.tokens) == 20  # each document's own line
    again = clfeval.score(read, rounds=300, seed=6, ci="bootstrap", resamples=200)
    assert again.flat() == arrays.flat()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("layout", ["one-file", "gold-pred"])
def test_spans_by_token_column_equal_arrays(tmp_path: Path, seed: int, layout: str) -> None:
    """Random CoNLL files read in small chunks, a group per sentence from a token column (and its intersections with
    documents): the numbers of score(..., spans=, groups=) on the sentences."""
    rng = np.random.default_rng(seed)
    path = tmp_path / "both.conll"
    _random_conll(rng, path, 90, docstart=True)
    gold, documents, domains = _sentences(path, tag=2, group=1)
    pred, _, _ = _sentences(path, tag=3)
    if layout == "one-file":
        files = [str(path), "--gold-col", "3", "--pred-col", "4"]
    else:  # the gold file holds the group column; the predictions file the same words and sentences
        lines = path.read_text(encoding="utf-8").splitlines()
        cut = lambda keep: "\n".join(" ".join(line.split()[i] for i in keep) if line else "" for line in lines)  # noqa: E731
        (tmp_path / "gold.conll").write_text(cut([0, 1, 2]) + "\n", encoding="utf-8")
        (tmp_path / "pred.conll").write_text(cut([0, 3]) + "\n", encoding="utf-8")
        files = [str(tmp_path / "gold.conll"), str(tmp_path / "pred.conll")]
    spans = clfeval.Spans("iob2", unit="sentences")
    common = ["--spans", "iob2", "--unit", "sentences", "--rounds", "200", "--seed", "3"]
    doc = _json("score", *files, *common, "--group-col", "2", chunk=700)
    arrays = clfeval.score(gold, pred, spans=spans, groups={"2": domains}, rounds=200, seed=3)
    assert _span_numbers(doc) == _span_numbers(json.loads(arrays.to_json()))
    assert [g["name"] for g in doc["groups"]] == ["10", "chat", "news", "web"][: len(doc["groups"])] or doc["groups"]
    both = _json("score", *files, *common, "--group-col", "2", "--group-by", "document", "--ci", "bootstrap",
                 "--resamples", "100", chunk=500)  # fmt: skip
    crossed = clfeval.score(gold, pred, spans=spans, groups={"2": domains, "document": documents}, rounds=200, seed=3,
                            ci="bootstrap", resamples=100)  # fmt: skip
    assert _span_numbers(both) == _span_numbers(json.loads(crossed.to_json()))
    assert both["group_columns"] == ["2", "document"]


def test_spans_groups_keep_the_whole_units(tmp_path: Path) -> None:
    """With documents as units (--unit documents), every group's blocks are documents too, and the groups' rows and
    tokens add up to the whole's."""
    rng = np.random.default_rng(5)
    path = tmp_path / "t.conll"
    _random_conll(rng, path, 150, docstart=True)
    read = clfeval.read(str(path), gold_col=3, pred_col=4, spans=clfeval.Spans("iob2", unit="documents"),
                        reading=clfeval.Reading(group_col=2))  # fmt: skip
    assert read.groups is not None and read.counts is not None and read.counts.tokens is not None
    assert all(c.unit == "documents" and c.blocks is not None for c in read.groups.values())
    assert sum(c.n_instances for c in read.groups.values()) == read.counts.n_instances
    tokens = [c.tokens for c in read.groups.values() if c.tokens is not None]
    assert sum(t.tokens for t in tokens) == read.counts.tokens.tokens
    assert sum(t.docstart for t in tokens) == read.counts.tokens.docstart
    doc = _json("score", str(path), "--gold-col", "3", "--pred-col", "4", "--spans", "iob2", "--unit", "documents",
                "--group-col", "2", "--rounds", "100", "--seed", "2")  # fmt: skip
    assert doc["n_instances"] == read.counts.n_instances
    assert _numbers(doc) == _numbers(json.loads(clfeval.score(read, rounds=100, seed=2).to_json()))


def test_spans_errors(tmp_path: Path) -> None:
    path = tmp_path / "mixed.conll"
    path.write_text("a news B-PER B-PER\nb news O O\n\nc web O O\nd chat B-LOC O\n\n", encoding="utf-8")
    base = ["score", str(path), "--gold-col", "3", "--pred-col", "4", "--spans"]
    err = _error(*base, "--group-col", "2")
    assert "mixed.conll:5" in err and "'chat'" in err and "'web'" in err and "line 4" in err
    assert "no group column 9" in _error(*base, "--group-col", "9")
    assert "by number" in _error(*base, "--group-col", "domain")
    assert "-DOCSTART-" in _error(*base, "--group-by", "document")
    assert "--group-by document" in _error("score", str(path), "--group-by", "document")
    assert "--format conlleval" in _error(*base, "--group-col", "2", "--format", "conlleval")
    assert "--block-end" in _error(*base, "--group-col", "2", "--block-end", "^<utt>")
    jsonl = tmp_path / "s.jsonl"
    jsonl.write_text('{"gold": ["B-PER"], "pred": ["O"], "g": "x"}\n', encoding="utf-8")
    assert "JSON Lines" in _error("score", str(jsonl), "--gold-col", "gold", "--pred-col", "pred", "--spans",
                                  "--group-col", "g")  # fmt: skip
    assert "--spans" in _error("count", str(path), "--gold-col", "3", "--pred-col", "4", "--spans", "--group-col", "2")
    with pytest.raises(InputError, match=r"mixed\.conll:5"):
        clfeval.read(str(path), gold_col=3, pred_col=4, spans=True, reading=clfeval.Reading(group_col=2))
    with pytest.raises(OptionError, match="DOCSTART"):
        clfeval.read(str(path), gold_col=3, pred_col=4, spans=True, reading=clfeval.Reading(group_col="document"))


def test_spans_by_group_python_refusals(tmp_path: Path) -> None:
    """What CoNLL counts by group are not taken by yet, each in one line: a count file (load_counts does not read
    spans by group back), folds of spans (cv), several systems."""
    gold, pred = str(EXAMPLES / "ner-gold.conll"), str(EXAMPLES / "ner-tagger-a.conll")
    counted = clfeval.read(gold, pred, spans=True, reading=clfeval.Reading(group_col="document"))
    with pytest.raises(OptionError, match="count file"):
        clfeval.save_counts(counted, str(tmp_path / "c.json"))
    with pytest.raises(OptionError, match="folds of spans"):
        clfeval.read_folds([gold], spans=clfeval.Spans("conlleval"), reading=clfeval.Reading(group_col=2))
    with pytest.raises(OptionError, match="several systems"):
        clfeval.read(gold, pred, str(EXAMPLES / "ner-tagger-b.conll"), spans=True,
                     reading=clfeval.Reading(group_col="document"))  # fmt: skip
