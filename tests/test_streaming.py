"""Reading in chunks and in parts: any split of the data gives the same counts; errors name the right line.

The reference for every split is the same data read in one piece (one chunk, one file).
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import clfeval
from clfeval.errors import InputError, OptionError
from clfeval.inputs import typed
from clfeval.inputs.chunks import expand_paths, line_chunks
from clfeval.inputs.embedded import Cells, read_cells
from clfeval.inputs.pairing import read_cells_in_line_order
from clfeval.progress import ReadingBar
from tests.conftest import run_cli


def _multiset(cells: Cells) -> Counter:
    return Counter({row: int(c) for row, c in zip(cells.rows, cells.counts)})


def _instances(n: int, seed: int = 5) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    labels = ["A", "B", "C", "dé", "E-long"]
    out = []
    for _ in range(n):
        g = rng.choice(labels)
        out.append((g, g if rng.random() < 0.6 else rng.choice(labels)))
    return out


LAYOUTS = {
    "single spaces": ("run.txt", lambda rows: "".join(f"w{i} {g} {p}\n" for i, (g, p) in enumerate(rows)), {}),
    "runs of whitespace": (
        "run.txt",
        lambda rows: "".join(f"w{i}  {g}\t {p}\n" + ("\n" if i % 7 == 0 else "") for i, (g, p) in enumerate(rows)),
        {},
    ),
    "quoted csv with line breaks": (
        "run.csv",
        lambda rows: (
            "text,gold,pred\n" + "".join(f'"a, ""quoted""\nsentence {i}",{g},{p}\n' for i, (g, p) in enumerate(rows))
        ),
        {},
    ),
    "tsv": ("run.tsv", lambda rows: "".join(f"{g}\t{p}\n" for g, p in rows), {}),
    "jsonl": ("run.jsonl", lambda rows: "".join(json.dumps({"gold": g, "pred": p}) + "\n" for g, p in rows), {}),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("chunk", [1, 17, 300])
def test_any_chunk_size_gives_the_same_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str, chunk: int
) -> None:
    name, write, _ = LAYOUTS[layout]
    path = tmp_path / name
    rows = _instances(400)
    path.write_text(write(rows), encoding="utf-8")
    columns = ["gold", "pred"] if name.endswith((".csv", ".jsonl")) else [-2, -1]
    whole = read_cells(str(path), columns, ["gold", "predicted"])
    assert _multiset(whole) == Counter(rows)
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", str(chunk))
    assert _multiset(read_cells(str(path), columns, ["gold", "predicted"])) == Counter(rows)


def test_parquet_slices_give_the_same_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _instances(1000)
    path = tmp_path / "run.parquet"
    pl.DataFrame({"gold": [g for g, _ in rows], "pred": [p for _, p in rows]}).write_parquet(path, row_group_size=64)
    monkeypatch.setattr(typed, "_PARQUET_ROWS", 37)
    seen = []
    cells = read_cells(
        str(path),
        ["gold", "pred"],
        ["gold", "predicted"],
        progress=lambda done, total, n: seen.append((done, total, n)),
    )
    assert _multiset(cells) == Counter(rows)
    assert len(seen) > 20 and seen[-1] == (path.stat().st_size, path.stat().st_size, 1000)


def test_a_bad_line_far_into_the_file_is_named_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "64")
    lines = [f"{g}\t{p}" for g, p in _instances(500)]
    lines[436] = "A"  # line 437: one field
    path = tmp_path / "run.tsv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(
        InputError, match=r"run\.tsv:437: expected at least 2 fields \(for the gold and predicted labels\), found 1"
    ):
        read_cells(str(path), [-2, -1], ["gold", "predicted"])
    lines[436] = "A\t"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=r"run\.tsv:437: the predicted label is empty"):
        read_cells(str(path), [-2, -1], ["gold", "predicted"])
    path = tmp_path / "run.jsonl"
    records = [json.dumps({"gold": g, "pred": p}) for g, p in _instances(300)]
    records[250] = '{"gold": "A", "pred": null}'
    path.write_text("\n".join(records) + "\n")
    with pytest.raises(InputError, match=r"run\.jsonl:251: the predicted label \('pred'\) is missing"):
        read_cells(str(path), ["gold", "pred"], ["gold", "predicted"])


@pytest.mark.slow
def test_line_order_pairing_across_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _instances(700)
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.csv"
    gold.write_text("".join(f"tok{i} {g}\n" for i, (g, _) in enumerate(rows)))
    pred.write_text("".join(f"{i},{p}\n" for i, (_, p) in enumerate(rows)))
    sources = [(str(gold), -1, "gold"), (str(pred), -1, "predicted")]
    whole, counts, _, _ = read_cells_in_line_order(sources)
    assert Counter(dict(zip(whole, counts.tolist()))) == Counter(rows)
    monkeypatch.setenv("CLFEVAL_CHUNK_BYTES", "23")  # the two files' chunks hold different numbers of lines
    chunked, counts, _, _ = read_cells_in_line_order(sources)
    assert Counter(dict(zip(chunked, counts.tolist()))) == Counter(rows)
    pred.write_text("".join(f"{i},{p}\n" for i, (_, p) in enumerate(rows[:-3])))
    with pytest.raises(InputError, match=r"gold\.txt has 700 instances but .*pred\.csv has 697: .*csv ends early"):
        read_cells_in_line_order(sources)


def test_parts_and_globs_equal_one_concatenated_file(tmp_path: Path) -> None:
    rows = _instances(900)
    whole = tmp_path / "whole.csv"
    whole.write_text("gold,pred\n" + "".join(f"{g},{p}\n" for g, p in rows))
    parts = []
    for k, start in enumerate(range(0, 900, 250)):
        part = tmp_path / "parts" / f"part-{k}.csv"
        part.parent.mkdir(exist_ok=True)
        part.write_text("gold,pred\n" + "".join(f"{g},{p}\n" for g, p in rows[start : start + 250]))
        parts.append(str(part))
    one = clfeval.score(clfeval.read(str(whole), gold_col="gold", pred_col="pred"))
    many = clfeval.score(clfeval.read(parts[::-1], gold_col="gold", pred_col="pred"))
    globbed = clfeval.score(clfeval.read(str(tmp_path / "parts" / "part-*.csv"), gold_col="gold", pred_col="pred"))
    for result in (many, globbed):
        assert result.labels == one.labels and result.n_instances == 900
        assert np.array_equal(result.counts.cells, one.counts.cells)
        assert result.averages == one.averages
    assert globbed.inputs == {"file": str(tmp_path / "parts" / "part-*.csv")}
    assert expand_paths(str(tmp_path / "parts" / "part-*.csv")) == sorted(parts)
    with pytest.raises(InputError, match="no file matches this pattern"):
        expand_paths(str(tmp_path / "nothing-*.csv"))


def test_parts_of_different_formats_and_typed_parts(tmp_path: Path) -> None:
    rows = _instances(300)
    a, b = tmp_path / "a.parquet", tmp_path / "b.jsonl"
    pl.DataFrame({"gold": [g for g, _ in rows[:100]], "pred": [p for _, p in rows[:100]]}).write_parquet(a)
    b.write_text("".join(json.dumps({"gold": g, "pred": p}) + "\n" for g, p in rows[100:]))
    cells = read_cells([str(a), str(b)], ["gold", "pred"], ["gold", "predicted"])
    assert _multiset(cells) == Counter(rows) and "a.parquet" in cells.source and "b.jsonl" in cells.source


def test_chunks_cut_only_at_line_ends_outside_quotes() -> None:
    path = Path(__file__).parent / "data" / "chunk-sample.csv"
    text = 'x,"one\ntwo",y\n"a""b",c,d\nlast,line,"no end'
    path.write_text(text)
    try:
        for size in (1, 2, 5, 11, 1000):
            chunks = list(line_chunks(str(path), quoted=True, size=size))
            assert b"".join(c.data for c in chunks) == text.encode()
            assert [c.first_line for c in chunks][:1] == [1]
            for c in chunks[:-1]:
                assert c.data.endswith(b"\n") and c.data.count(b'"') % 2 == 0
    finally:
        path.unlink()


def test_reading_bar_draws_bytes_rows_rate_and_eta() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = ReadingBar("clfeval: reading", screen, delay=0.0, interval=0.0)
    bar(80_000_000, 160_000_000, 4_500_000)
    assert "50%" in screen.getvalue() and "80.0MB/160.0MB" in screen.getvalue() and "4.5M rows" in screen.getvalue()
    assert "ETA" in screen.getvalue()
    bar(2_000_000, None, 100_000)  # standard input: no total
    assert screen.getvalue().rsplit("\r", 1)[-1].startswith("clfeval: reading  2.0MB  100.0k rows")
    bar.close()
    quiet = io.StringIO()
    ReadingBar("x", quiet, delay=0.0)(1, 2, 3)
    assert quiet.getvalue() == ""


def test_cli_parts_globs_and_standard_input(tmp_path: Path) -> None:
    rows = _instances(200)
    text = "".join(f"{g} {p}\n" for g, p in rows)
    (tmp_path / "p1.txt").write_text(text[: text.index("\n", 500) + 1])
    (tmp_path / "p2.txt").write_text(text[text.index("\n", 500) + 1 :])
    whole = json.loads(run_cli("score", "-", "--format", "json", stdin=text.encode()).stdout)
    assert whole["n_instances"] == 200
    parts = run_cli("score", str(tmp_path / "p1.txt"), str(tmp_path / "p2.txt"), "--parts", "--format", "json")
    globbed = run_cli("score", str(tmp_path / "p*.txt"), "--format", "json")
    for out in (parts, globbed):
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["averages"] == whole["averages"] and data["n_instances"] == 200
    assert json.loads(parts.stdout)["inputs"]["files"] == [str(tmp_path / "p1.txt"), str(tmp_path / "p2.txt")]
    # without --parts, two files are GOLD and PRED (each file's last column, line by line); one file as both would
    # score its column against itself, and is refused
    (tmp_path / "g1.txt").write_text(
        "".join(f"{g}\n" for g, _ in rows[: len(text[: text.index("\n", 500) + 1].splitlines())])
    )
    paired = json.loads(run_cli("score", str(tmp_path / "g1.txt"), str(tmp_path / "p1.txt"), "--format", "json").stdout)
    assert paired["n_instances"] == len((tmp_path / "g1.txt").read_text().splitlines())
    same = run_cli("score", str(tmp_path / "p1.txt"), str(tmp_path / "p1.txt"))
    assert same.returncode == 2 and "the gold and predicted columns are both column -1" in same.stderr.decode()
    missing = run_cli("score", str(tmp_path / "q*.txt"))
    assert missing.returncode == 2 and missing.stderr.decode().count("\n") == 1
    assert "no file matches this pattern" in missing.stderr.decode()


def test_engine_options_are_checked() -> None:
    with pytest.raises(OptionError, match="unknown engine 'spark'"):
        clfeval.score(clfeval.read("x.txt", reading=clfeval.Reading(engine="spark")))
    with pytest.raises(OptionError, match="--scheduler applies to the dask engine only"):
        clfeval.score(clfeval.read("x.txt", reading=clfeval.Reading(scheduler="tcp://127.0.0.1:1")))
    with pytest.raises(
        OptionError, match="pairing a gold file with prediction files line by line needs the embedded engine"
    ):
        clfeval.score(clfeval.read("gold.txt", "pred.txt", reading=clfeval.Reading(engine="dask")))


WHOLE_LINE_FILES = {
    "plain.tsv": "A\tB\nA\tA\nB\tB\nA\tB\n",
    "crlf.tsv": "A\tB\r\nA\tA\r\nB\tB\r\n",
    "spaces.tsv": "A \tB\nA\t B\nA\tB\n",
    "plain.csv": "gold,pred\nA,B\nB,B\nA,B\n",
    "quoted.csv": 'gold,pred\n"A,1",B\nB,B\n',
    "three.txt": "w1 A B\nw2 B B\nw3 A B\n",
    "runs.txt": "w1  A\tB\nw2 B B\n",
    "blank.tsv": "A\tB\n\nB\tB\n",
    "ragged.tsv": "A\tB\nx\tA\tA\n",
    "unicode.tsv": "café\tthé\nthé\tthé\n",
    "braces.txt": "w1 A B { A 0.9, B 0.1 }\nw2 B B { B 1 }\n",
    "bom.tsv": "\ufeffA\tB\nA\tA\n",
    "cr.tsv": "A\tB\rA\tA\r",
    "mixed-ends.tsv": "A\tB\r\nA\tA\n",
    "tab-at-end.tsv": "A\tB\t\nA\tA\t\n",
    "leading-space.txt": " A B\nA A\n",
}


@pytest.mark.parametrize("name", list(WHOLE_LINE_FILES))
def test_hashing_whole_lines_reads_as_parsing_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The whole-line path (distinct lines grouped, then split) gives what the field parser gives, or steps aside."""
    from clfeval.inputs import delimited

    path = tmp_path / name
    path.write_bytes(WHOLE_LINE_FILES[name].encode("utf-8"))
    columns = ["gold", "pred"] if name.endswith(".csv") else [-2, -1]

    def read() -> tuple[Counter, tuple[str, ...]] | str:
        try:
            cells = read_cells(str(path), columns, ["gold", "predicted"])
        except InputError as exc:
            return str(exc)
        return _multiset(cells), cells.warnings

    used: list[bool] = []
    whole_lines = delimited._whole_lines

    def spy(chunk, layout):  # type: ignore[no-untyped-def]
        frame = whole_lines(chunk, layout)
        used.append(frame is not None)
        return frame

    monkeypatch.setattr(delimited, "_whole_lines", spy)
    with_lines = read()
    monkeypatch.setattr(delimited, "_whole_lines", lambda chunk, layout: None)
    assert with_lines == read()
    plain = name in {
        "plain.tsv",
        "crlf.tsv",
        "spaces.tsv",
        "plain.csv",
        "three.txt",
        "unicode.tsv",
        "bom.tsv",
        "cr.tsv",
        "mixed-ends.tsv",
    }
    assert any(used) == plain  # it took the plain files, and left the others to the field reader
