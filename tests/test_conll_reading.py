"""CoNLL files read two ways give one result: chunks whose fields are separated by single spaces go through polars'
CSV reader, any other chunk (tabs, spaces in a row, Unicode spaces, bad lines) through the regular expression; the
same tags in either layout, and in chunks of any size, must count alike, and bad lines give the same error."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import clfeval
from clfeval.errors import InputError

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-ORG"]


def _lines(rng: random.Random, n_sentences: int) -> list[list[str]]:
    """Sentences of [word, POS, gold, pred] lines, with -DOCSTART- lines, -X- boundaries and runs of blank lines."""
    out: list[list[str]] = []
    for s in range(n_sentences):
        if s % 7 == 0:
            out.append(["-DOCSTART-", "-X-", "O", "O"])
            out.append([])
        for _ in range(rng.randint(1, 8)):
            word = rng.choice(["the", "Paris", "é", "x-y", '"q"', "#", "a,b"])
            out.append([word, rng.choice(["NN", "NNP"]), rng.choice(TAGS), rng.choice(TAGS)])
        out.extend([] for _ in range(rng.choice([1, 1, 1, 2, 3])))
        if rng.random() < 0.05:
            out.append(["-X-", "-X-", "O", "O"])
    return out


def _text(lines: list[list[str]], sep: str, final_newline: bool = True) -> str:
    text = "\n".join(sep.join(fields) for fields in lines)
    return text + "\n" if final_newline else text.rstrip("\n")


def _score(path: Path, *extra: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "clfeval", "score", str(path), "--spans", *extra], capture_output=True, text=True
    )
    return done.returncode, done.stdout, done.stderr


def _read(path: Path, chunk: int | None, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The JSON report of the file read in chunks of ``chunk`` bytes (the default without), its name left out."""
    if chunk is None:
        monkeypatch.delenv("CLFEVAL_CHUNK_BYTES", raising=False)
    else:
        monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", str(chunk))
    report = json.loads(clfeval.score(clfeval.read(str(path), spans=True)).to_json().replace(str(path), "FILE"))
    report.pop("inputs")
    return report


@pytest.mark.parametrize("seed", range(2))
def test_single_spaces_and_other_white_space_read_alike_in_chunks_of_any_size(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    lines = _lines(rng, 120)
    final = seed != 1
    plain = tmp_path / "plain.conll"
    plain.write_text(_text(lines, " ", final), encoding="utf-8")
    tabs = tmp_path / "tabs.conll"
    tabs.write_text(_text(lines, "\t", final), encoding="utf-8")
    wide = tmp_path / "wide.conll"  # two spaces in a row in one line only: that chunk goes the slow way
    wide.write_text(_text(lines, " ", final).replace(" ", "  ", 1), encoding="utf-8")
    expected = _read(tabs, None, monkeypatch)
    for path in (plain, tabs, wide):
        for chunk in (None, 150):
            assert _read(path, chunk, monkeypatch) == expected, (path.name, chunk)
    if seed == 0:  # the command line, conlleval.pl's report: the same bytes
        assert _score(plain, "--format", "conlleval")[1] == _score(tabs, "--format", "conlleval")[1]


@pytest.mark.parametrize("chunk", [None, 200])
def test_a_line_of_another_number_of_fields_is_the_same_error_either_way(
    chunk: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _lines(random.Random(5), 60)
    bad = next(i for i, fields in enumerate(lines) if len(fields) == 4 and fields[0] != "-DOCSTART-" and i > 100)
    messages = []
    for sep in (" ", "\t"):
        broken = [list(f) for f in lines]
        broken[bad] = broken[bad][:3]
        path = tmp_path / "bad.conll"
        path.write_text(_text(broken, sep), encoding="utf-8")
        with pytest.raises(InputError) as caught:
            _read(path, chunk, monkeypatch)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert f"bad.conll:{bad + 1}:" in messages[0], messages[0]


@pytest.mark.parametrize("chunk", [None, 120])
def test_documents_as_units_hold_their_own_sentences_rows(
    chunk: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each document's rows are those of its sentences, sentences without a span included (they once shifted the
    rows of the sentences after them into the document before)."""
    rng = random.Random(11)
    text, expected = [], []
    for _ in range(25):
        text.append("-DOCSTART- O O\n")
        rows: dict[tuple[str, str], int] = {}
        for _ in range(rng.randint(1, 5)):
            tags = [
                (rng.choice(["O", "B-X", "B-Y"]), rng.choice(["O", "B-X", "B-Y"])) for _ in range(rng.randint(1, 3))
            ]
            text.append("\n" + "".join(f"w {g} {p}\n" for g, p in tags))
            for g, p in tags:  # one-token spans: a gold span is found when the predicted tag is the same
                if g != "O":
                    key = (g[2:], g[2:] if p == g else "∅")
                    rows[key] = rows.get(key, 0) + 1
                if p != "O" and p != g:
                    rows[("∅", p[2:])] = rows.get(("∅", p[2:]), 0) + 1
        text.append("\n")
        expected.append(rows)
    path = tmp_path / "docs.conll"
    path.write_text("".join(text))
    if chunk is not None:
        monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", str(chunk))
    counted = clfeval.read(str(path), spans=clfeval.Spans(unit="documents"))
    blocks = counted.blocks
    assert blocks is not None and blocks.n_blocks == 25 and blocks.unit == "documents"
    found: list[dict[tuple[str, str], int]] = [{} for _ in range(25)]
    for r, b, c in zip(blocks.row.tolist(), blocks.block.tolist(), blocks.count.tolist()):
        found[b][tuple(blocks.keys[r])] = c
    assert found == expected
