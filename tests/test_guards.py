"""The guards every reader and every writer share (issue 37, point 9).

Readers: a file that changes while clfeval reads it is an error naming it, for every kind and format — labels,
label sets, a confusion matrix, scores, spans (CoNLL and JSON Lines), count files, and the small files options
name. The span readers had skipped it: a CoNLL file appended during the read was scored as more sentences than it
held when reading began, exit 0. Writers: every CSV and TSV written (``--format csv`` of every command,
``--errors``, the MLflow confusion matrix, tested in tests/test_trackers.py) goes through one cell rule, which
quotes a line break and neutralises a formula unless ``--raw-csv``; a span tag ``B-\r=2+2`` reached
``--format csv`` with its carriage return bare (a live formula cell in a spreadsheet), and ``--errors`` wrote a
token ``=cmd|'/Ccalc'!A0`` as it was.
"""

from __future__ import annotations

import ast
import builtins
import csv
import io
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

import clfeval
from clfeval import InputError
from clfeval.output import FORMULA_STARTS, delimited_row
from tests.conftest import cli_error, run_cli

SRC = Path(__file__).parents[1] / "src" / "clfeval"
_REAL_OPEN = builtins.open


class _Growing:
    """A read handle of a file that a writer appends to right after clfeval's first read of it."""

    def __init__(self, handle: Any, path: str, extra: bytes, fired: list[str]) -> None:
        self._handle, self._path, self._extra, self._fired = handle, path, extra, fired
        self._grown = False

    def read(self, *args: Any) -> Any:
        data = self._handle.read(*args)
        if not self._grown:
            self._grown = True
            self._fired.append(self._path)
            with _REAL_OPEN(self._path, "ab") as writer:
                writer.write(self._extra)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _Growing:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()


def _grow_while_read(monkeypatch: pytest.MonkeyPatch, path: Path, extra: bytes, nth: int = 1) -> list[str]:
    """Make every opening of ``path`` for reading from the ``nth`` on one whose file grows by ``extra`` after its
    first read, as a file still being written does; the returned list holds the path each time that happened (a
    reader that never opened the file leaves it empty)."""
    target = os.path.abspath(path)
    opened: list[int] = []
    fired: list[str] = []

    def hooked(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = _REAL_OPEN(file, mode, *args, **kwargs)
        if isinstance(file, (str, os.PathLike)) and os.path.abspath(file) == target and mode.startswith("r"):
            opened.append(1)
            if len(opened) >= nth:
                return _Growing(handle, target, extra, fired)
        return handle

    monkeypatch.setattr(builtins, "open", hooked)
    return fired


CONLL = "-DOCSTART- -X- O O\n\nEU NNP B-ORG B-ORG\nrejects VBZ O O\n\nPeter NNP B-PER B-PER\nBlackburn NNP I-PER O\n"
CONLL_GOLD = "".join(" ".join(line.split()[:3]) + "\n" if line.strip() else "\n" for line in CONLL.splitlines())
CONLL_PRED = "".join(" ".join(line.split()[:1] + line.split()[3:]) + "\n" if line.strip() else "\n"
                     for line in CONLL.splitlines())  # fmt: skip
SENTENCES = "".join(
    json.dumps({"tokens": ["w"] * len(g), "gold": g, "pred": p}) + "\n"
    for g, p in ((["B-PER", "O"], ["B-PER", "O"]), (["B-LOC"], ["O"]))
)
RUN = "w1 A A\nw2 A B\nw3 B B\nw4 C A\n"


def _parquet(**columns: list[Any]) -> bytes:
    import polars as pl

    out = io.BytesIO()
    pl.DataFrame(columns).write_parquet(out)
    return out.getvalue()


#: (files, the command's arguments, the file that grows, what is appended to it, which opening of it grows).
READERS: dict[str, tuple[dict[str, str | bytes], list[str], str, str, int]] = {
    "labels, text": ({"run.txt": RUN}, ["score", "run.txt"], "run.txt", "w5 B B\n" * 9, 1),
    "labels, csv": ({"run.csv": "g,p\nA,A\nA,B\n"}, ["score", "run.csv", "--header"], "run.csv", "B,B\n" * 9, 1),
    "labels, tsv": ({"run.tsv": "A\tA\nA\tB\n"}, ["score", "run.tsv"], "run.tsv", "B\tB\n" * 9, 1),
    "labels, json lines": (
        {"run.jsonl": '{"g": "A", "p": "A"}\n{"g": "A", "p": "B"}\n'},
        ["score", "run.jsonl", "--gold-col", "g", "--pred-col", "p"],
        "run.jsonl",
        '{"g": "B", "p": "B"}\n' * 9,
        1,
    ),
    "labels, gold and prediction files": (
        {"gold.txt": "A\nA\nB\n", "pred.txt": "A\nB\nB\n"},
        ["score", "gold.txt", "pred.txt"],
        "pred.txt",
        "B\n" * 9,
        1,
    ),
    "label sets": (
        {"sets.txt": "w A,B A\nw B B,C\n"},
        ["score", "sets.txt", "--multilabel"],
        "sets.txt",
        "w C C\n" * 9,
        1,
    ),
    "confusion matrix": ({"m.txt": "x A B\nA 3 1\nB 0 2\n"}, ["score", "--matrix", "m.txt"], "m.txt", "B 0 2\n", 1),
    "scores, csv": (
        {"s.csv": "gold,p\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n"},
        ["score", "s.csv", "--scores", "p", "--gold-col", "gold"],
        "s.csv",
        "1,0.7\n" * 9,
        1,
    ),
    "scores, json lines": (
        {"s.jsonl": "".join(json.dumps({"gold": g, "p": p}) + "\n" for g, p in ((1, 0.9), (0, 0.2), (1, 0.6)))},
        ["score", "s.jsonl", "--scores", "p", "--gold-col", "gold"],
        "s.jsonl",
        '{"gold": 0, "p": 0.1}\n' * 9,
        1,
    ),
    "scores, parquet": (
        {"s.parquet": _parquet(gold=[1, 0, 1], p=[0.9, 0.2, 0.6])},
        ["score", "s.parquet", "--scores", "p", "--gold-col", "gold"],
        "s.parquet",
        "\0" * 9,
        1,
    ),
    "scores, TiMBL class distributions": (
        {"t.txt": "w A A { A 0.9, B 0.1 }\nw B A { A 0.6, B 0.4 }\n"},
        ["score", "t.txt", "--scores", "timbl"],
        "t.txt",
        "w B B { A 0.2, B 0.8 }\n" * 9,
        1,
    ),
    "spans, conll": ({"ner.txt": CONLL}, ["score", "ner.txt", "--spans"], "ner.txt", "\nx NN B-X O\n" * 9, 1),
    "spans, conll gold and prediction files": (
        {"gold.conll": CONLL_GOLD, "pred.conll": CONLL_PRED},
        ["score", "gold.conll", "pred.conll", "--spans"],
        "pred.conll",
        "\nx B-X\n" * 9,
        1,
    ),
    "spans, conll, read again for --errors": (
        {"ner.txt": CONLL},
        ["score", "ner.txt", "--spans", "--errors", "errors.tsv"],
        "ner.txt",
        "\nx NN B-X O\n" * 9,
        2,
    ),
    "spans, json lines": ({"t.jsonl": SENTENCES}, ["score", "t.jsonl", "--spans"], "t.jsonl", SENTENCES * 9, 1),
    "spans, compare": (
        {"ner.txt": "EU B-ORG B-ORG O\nrejects O O O\n\nPeter B-PER B-PER B-PER\n"},
        ["compare", "ner.txt", "--spans", "--gold-col", "2", "--pred-col", "3", "--pred-col", "4"],
        "ner.txt",
        "\nx B-X O O\n" * 9,
        1,
    ),
    "labels, cv folds": ({"f1.txt": RUN, "f2.txt": RUN}, ["cv", "f1.txt", "f2.txt"], "f2.txt", "w B B\n" * 9, 1),
    "--labels file": (
        {"run.txt": RUN, "labels.txt": "A\nB\nC\n"},
        ["score", "run.txt", "--labels", "labels.txt"],
        "labels.txt",
        "D\n",
        1,
    ),
    "--translate file": (
        {"run.txt": RUN, "tr.txt": "C > B\n"},
        ["score", "run.txt", "--translate", "tr.txt"],
        "tr.txt",
        "A > B\n",
        1,
    ),
    "--train file": (
        {"run.txt": RUN, "train.txt": "A\nB\n"},
        ["score", "run.txt", "--train", "train.txt"],
        "train.txt",
        "C\n" * 9,
        1,
    ),
}


@pytest.mark.parametrize("case", list(READERS))
def test_a_file_appended_while_it_is_read_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """Every kind and format, through the command line: exit 2, one line naming the file, and nothing written (the
    report's -o file, the --errors file). The file grows after the reader's first read of it, as a file still being
    written does; a reader that read on to the new end, or never looked again, would score a mix of two versions."""
    files, args, grown, extra, nth = READERS[case]
    for name, content in files.items():
        (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    fired = _grow_while_read(monkeypatch, tmp_path / grown, extra.encode(), nth)
    out = run_cli(*args, "-o", "report.out", cwd=tmp_path)
    assert fired, f"{grown} was never read through open()"
    cli_error(out, f"{grown}: changed while it was read")
    assert not (tmp_path / "report.out").exists() and not (tmp_path / "errors.tsv").exists()


def test_a_count_file_appended_while_it_is_read_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "run.txt").write_text(RUN)
    assert run_cli("count", "run.txt", "-o", "c.json", cwd=tmp_path).returncode == 0
    # still valid JSON once grown; score opens it twice (to tell its kind, then to read it), and it grows each time
    fired = _grow_while_read(monkeypatch, tmp_path / "c.json", b" " * 10)
    cli_error(run_cli("score", "--counts", "c.json", cwd=tmp_path), "c.json: changed while it was read")
    assert fired
    monkeypatch.undo()
    assert run_cli("score", "--counts", "c.json", cwd=tmp_path).returncode == 0  # the same file, left alone


def _conll_sentences(n: int, seed: int) -> str:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tags = [(rng.choice(["B-PER", "O", "B-LOC"]), rng.choice(["B-PER", "O", "B-LOC"])) for _ in range(3)]
        out.append("".join(f"w {g} {p}\n" for g, p in tags))
    return "\n".join(out)


def _appending(path: Path, extra: bytes) -> Any:
    """A ``Reading(progress=...)`` callback that appends ``extra`` to ``path`` the first time it is called: between
    two chunks of the reading (as tests/test_read.py changes a label file)."""
    done: list[bool] = []

    def progress(*_: object) -> None:
        if not done:
            done.append(True)
            with open(path, "ab") as handle:
                handle.write(extra)

    return progress


@pytest.mark.parametrize("layout", ["conll", "conll gold and prediction files", "json lines"])
def test_a_span_file_appended_between_chunks_is_an_error_not_more_sentences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    """The issue's case in small: a CoNLL file appended between two chunks was scored with the sentences added (or
    cut at a sentence boundary), exit 0. Read in 64-byte chunks, with the reading's progress callback doing the
    appending."""
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "64")
    text = _conll_sentences(60, seed=1)
    if layout == "json lines":
        sentences = [[line.split() for line in block.splitlines()] for block in text.split("\n\n")]
        text = "".join(json.dumps({"gold": [t[1] for t in s], "pred": [t[2] for t in s]}) + "\n" for s in sentences)
        paths = [tmp_path / "t.jsonl"]
        paths[0].write_text(text)
    elif layout == "conll":
        paths = [tmp_path / "t.conll"]
        paths[0].write_text(text + "\n")
    else:
        paths = [tmp_path / "g.conll", tmp_path / "p.conll"]
        for path, keep in zip(paths, (1, 2)):
            path.write_text("".join(f"w {line.split()[keep]}\n" if line else "\n" for line in text.splitlines()) + "\n")
    whole = clfeval.read(*map(str, paths), spans="iob2")  # the same files, left alone, read in chunks
    assert whole.inputs["n_sentences"] == 60
    extra = paths[0].read_bytes()[: len(paths[0].read_bytes()) // 3]
    reading = clfeval.Reading(progress=_appending(paths[0], extra))  # the first file: open while the callback runs
    with pytest.raises(InputError, match=f"{paths[0].name}: changed while it was read"):
        clfeval.read(*map(str, paths), spans="iob2", reading=reading)


# -- writers -------------------------------------------------------------------------------------------------------


def _rows(text: str, sep: str = ",") -> list[list[str]]:
    """CSV or TSV as a spreadsheet or a program reads it (quoted fields may hold line breaks)."""
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))


_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _live(cell: str) -> bool:
    """Whether a spreadsheet would run the cell as a formula."""
    return cell.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(cell)


def test_every_formula_start_is_neutralised_and_every_line_break_quoted() -> None:
    for sep in (",", "\t"):
        for start in FORMULA_STARTS:
            cell = f"{start}2+2"
            assert _rows(delimited_row(["x", cell, "y"], sep), sep) == [["x", "'" + cell, "y"]]
            assert _rows(delimited_row(["x", cell, "y"], sep, raw=True), sep) == [["x", cell, "y"]]
        for cell in ("a\rb", "a\nb", "a\r\nb", "\n=2+2", 'say "hi"', "a,b", "a\tb"):
            for raw in (False, True):  # quoted either way: the row keeps its cells
                line = delimited_row([cell, 1, None, 0.5], sep, raw)
                assert line.endswith("\n") and _rows(line, sep) == [[cell, "1", "", "0.5"]]
    for number in ("-1", "+1", "-0.5", "+2e-3"):  # a spreadsheet reads these as numbers, not formulas
        assert delimited_row([number]) == number + "\n"


#: Labels a spreadsheet would run (stripped as every label is, so a carriage return inside one), and span types.
HOSTILE_LABELS = ("x\r=2+2", "=cmd|'/Ccalc'!A0", "x\n@SUM(1)")
HOSTILE_TYPES = ("\r=2+2", "=cmd|'/Ccalc'!A0")


def _hostile_files(tmp_path: Path) -> None:
    rng = random.Random(3)
    gold = [rng.choice([*HOSTILE_LABELS, "plain"]) for _ in range(40)]
    pred = [g if rng.random() < 0.6 else rng.choice([*HOSTILE_LABELS, "plain"]) for g in gold]
    (tmp_path / "labels.jsonl").write_text(
        "".join(json.dumps({"g": g, "p": p, "q": g}) + "\n" for g, p in zip(gold, pred))
    )
    lines = []
    for _ in range(30):
        gold = [f"B-{rng.choice([*HOSTILE_TYPES, 'PER'])}" if rng.random() < 0.5 else "O" for _ in range(3)]
        pred = [g if rng.random() < 0.7 else f"B-{rng.choice([*HOSTILE_TYPES, 'PER'])}" for g in gold]
        lines.append(json.dumps({"gold": gold, "pred": pred}))
    (tmp_path / "spans.jsonl").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("command", "hostile"),
    [
        (["score", "labels.jsonl", "--gold-col", "g", "--pred-col", "p"], HOSTILE_LABELS),
        (
            [
                "compare",
                "labels.jsonl",
                "--gold-col",
                "g",
                "--pred-col",
                "p",
                "--pred-col",
                "q",
                "--seed",
                "1",
                "--name",
                "=HYPERLINK(1)",
                "--name",
                "x\r=1",
            ],
            ("=HYPERLINK(1)", "x\r=1"),
        ),
        (["score", "spans.jsonl", "--spans"], HOSTILE_TYPES),
    ],
    ids=["score", "compare", "score --spans"],
)
def test_csv_reports_quote_line_breaks_and_neutralise_formulas(
    tmp_path: Path, command: list[str], hostile: tuple[str, ...]
) -> None:
    """A label (a span type) holding a carriage return went out bare: a spreadsheet started a new row at it, and the
    cell after it, ``=2+2``, was a live formula. Each row now has the header's width, each hostile label comes back
    whole — with its apostrophe where it starts like a formula, or exactly as it is under --raw-csv — and no cell
    is live."""
    _hostile_files(tmp_path)
    for raw in (False, True):
        out = run_cli(*command, "--format", "csv", *(["--raw-csv"] if raw else []), cwd=tmp_path)
        assert out.returncode == 0, out.stderr.decode()
        rows = _rows(out.stdout.decode())
        assert len({len(row) for row in rows}) == 1, {len(row) for row in rows}
        cells = {cell for row in rows for cell in row}
        if raw:
            assert set(hostile) <= cells
        else:
            assert {"'" + h if _live(h) else h for h in hostile} <= cells and not [c for c in cells if _live(c)]


def test_the_errors_file_neutralises_formulas_unless_raw_csv(tmp_path: Path) -> None:
    """``--errors FILE`` wrote each cell as it was: a token ``=cmd|'/Ccalc'!A0`` was a live formula in a
    spreadsheet. Its cells take the one rule of every CSV and TSV: an apostrophe (or nothing, with --raw-csv), and
    a token with a double quote is quoted so that the TSV reads back."""
    (tmp_path / "ner.txt").write_text(
        "=cmd|'/Ccalc'!A0 B-=1+1 O\nsaid O O\n\n\" B-PER O\n+x I-PER O\n\nok B-LOC B-LOC\n", encoding="utf-8"
    )
    for raw in (False, True):
        args = ["score", "ner.txt", "--spans", "--errors", "e.tsv", *(["--raw-csv"] if raw else [])]
        assert run_cli(*args, cwd=tmp_path).returncode == 0
        rows = _rows((tmp_path / "e.tsv").read_text(encoding="utf-8"), "\t")
        assert rows[0] == ["sentence", "line", "error", "gold", "predicted", "tokens"]
        mark = "" if raw else "'"
        assert rows[1:] == [
            ["1", "1", "missed", mark + "=1+1 1-1", "", mark + "=cmd|'/Ccalc'!A0"],
            ["2", "4", "missed", "PER 1-2", "", '" +x'],
        ]


# -- the shape: one guard, one cell rule ---------------------------------------------------------------------------


def test_readers_open_files_only_through_the_shared_guard() -> None:
    """A reader that opens a file itself skips the guard (the span readers did): in inputs/, only chunks.py calls
    open(); every other module reads through its byte_blocks, line_chunks or read_bytes."""
    found = []
    for path in sorted((SRC / "inputs").glob("*.py")):
        if path.name == "chunks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found
