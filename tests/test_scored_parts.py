"""Files of scored predictions counted part by part (``inputs/scoredparts.py``, ``count_scored``): every format (CSV,
TSV, JSON Lines, Parquet) cut into many parts counts what the whole file holds (every field), errors in a later part
name their line, parts merge in any order, multi-label and weighted and binned files, several systems read at once
(``JointScoreCounts``), and ``compare --scores`` reading the file once with the results of the instances' path."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

import clfeval
from clfeval.count.labelsets import MultiLabel, label_sets
from clfeval.count.scored import ScoreCounts, layout_of
from clfeval.errors import InputError
from clfeval.inputs import scoredfile
from clfeval.inputs.scoredfile import count_scored, read_scored
from clfeval.inputs.scoredparts import ScoredReading, count_part, finish_parts, merge_parts
from clfeval.scoring.scored import binned_scores
from tests.conftest import cli_error, cli_json, run_cli

FORMATS = ["csv", "tsv", "jsonl", "parquet"]


def _write(frame: pl.DataFrame, path: Path) -> Path:
    fmt = path.suffix[1:]
    if fmt == "parquet":
        frame.write_parquet(path, row_group_size=97)
    elif fmt == "jsonl":
        frame.write_ndjson(path)
    else:
        frame.write_csv(path, separator="\t" if fmt == "tsv" else ",")
    return path


def _table(rng: np.random.Generator, shape: str, n: int) -> tuple[pl.DataFrame, str]:
    """A random table of scored predictions (rounded scores: rows repeat) and its --scores spec."""
    w = rng.integers(0, 4, n).astype(float) / 2
    if shape == "binary":
        gold = rng.choice(["neg", "pos"], n)
        s = np.round(rng.random(n), 2)
        return pl.DataFrame({"gold": gold, "s": s, "w": w}), "s"
    if shape == "multilabel":
        labels = ["a", "b", "c"]
        gold = [",".join(x for x in labels if rng.random() < 0.4) for _ in range(n)]
        return pl.DataFrame({"gold": gold, **{f"p_{x}": np.round(rng.random(n), 1) for x in labels}, "w": w}), "p_*"
    classes = ["0", "1", "2"]
    p = np.round(rng.dirichlet([1, 1, 1], n), 2)
    p[:, 2] = np.round(1 - p[:, 0] - p[:, 1], 2)
    gold = rng.choice(classes, n)
    return pl.DataFrame({"gold": gold, **{f"p_{c}": p[:, i] for i, c in enumerate(classes)}, "w": w}), "p_*"


def _whole(path: Path, spec: str, *, multilabel: bool, **kw: Any) -> ScoreCounts:
    """The counts of the whole file read at once (``read_scored``), counted from its instances."""
    bins, weight_col, positive = kw.get("bins"), kw.get("weight_col"), kw.get("positive")
    found = read_scored(str(path), spec, gold_col="gold", label_sets=multilabel, weight_col=weight_col)
    scores = binned_scores(found.scores, bins)
    if multilabel:
        return ScoreCounts.of_label_sets(
            label_sets(found.gold, MultiLabel(sep=",")), scores, names=found.classes, sample_weight=found.weight
        )
    names = found.classes if scores.ndim == 2 else None
    y, raw, seen, which, layout = layout_of(found.gold, scores, None, positive=positive, names=names)
    return ScoreCounts.of_layout(y, raw, seen, which, layout, weight=found.weight)


def _same(a: Any, b: Any) -> None:
    assert (a.labels, a.columns) == (b.labels, b.columns)
    np.testing.assert_array_equal(a.gold, b.gold)
    np.testing.assert_array_equal(a.scores.reshape(len(a.count), -1), b.scores.reshape(len(b.count), -1))
    np.testing.assert_array_equal(a.count, b.count)
    assert (a.weight is None) == (b.weight is None)
    if a.weight is not None:
        np.testing.assert_array_equal(a.weight, b.weight)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("shape", "options"),
    [
        ("binary", {}),
        ("binary", {"weight_col": "w", "positive": "neg"}),
        ("binary", {"bins": 7}),
        ("multiclass", {}),
        ("multiclass", {"weight_col": "w", "bins": 5}),
        ("multilabel", {}),
        ("multilabel", {"weight_col": "w"}),
        ("multilabel", {"bins": 4}),
    ],
)
def test_a_file_cut_into_many_parts_counts_what_the_whole_file_holds(
    tmp_path: Path, fmt: str, shape: str, options: dict[str, Any]
) -> None:
    rng = np.random.default_rng(len(fmt) * 7 + len(shape) + len(options))
    frame, spec = _table(rng, shape, int(rng.integers(300, 700)))
    path = _write(frame, tmp_path / f"scores.{fmt}")
    multilabel = shape == "multilabel"
    cut, inputs = count_scored(str(path), spec, gold_col="gold", size=int(rng.integers(200, 900)),
                               rows=int(rng.integers(20, 90)), multilabel=MultiLabel() if multilabel else None,
                               **options)  # fmt: skip
    whole, whole_inputs = count_scored(str(path), spec, gold_col="gold", size=1 << 24, rows=1 << 24,
                                       multilabel=MultiLabel() if multilabel else None, **options)  # fmt: skip
    _same(cut, whole)
    assert inputs == whole_inputs
    _same(cut, _whole(path, spec, multilabel=multilabel, **options))
    # every field the whole-file reader says of the file
    found = read_scored(str(path), spec, gold_col="gold", label_sets=multilabel, weight_col=options.get("weight_col"))
    for key in ("file", "gold_column", "score_columns", "sample_weight"):
        assert inputs.get(key) == found.inputs.get(key), key
    assert inputs["read"] == "in chunks"
    assert inputs.get("score_bins") == options.get("bins")


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_error_in_a_later_part_names_its_line(tmp_path: Path, fmt: str) -> None:
    rng = np.random.default_rng(3)
    n = 400
    for bad_row in rng.choice(n, 3, replace=False):
        frame, _ = _table(rng, "binary", n)
        scores = frame["s"].cast(pl.String).to_list()
        scores[int(bad_row)] = "oops"
        path = _write(frame.with_columns(pl.Series("s", scores)), tmp_path / f"bad.{fmt}")
        line = int(bad_row) + (2 if fmt in ("csv", "tsv") else 1)
        with pytest.raises(InputError, match=rf"bad\.{fmt}:{line}: the score 'oops'"):
            count_scored(str(path), "s", gold_col="gold", size=150, rows=17)
        # and a probability outside [0, 1], checked part by part as over the whole file
        scores[int(bad_row)] = "1.5"
        path = _write(frame.with_columns(pl.Series("s", scores).cast(pl.Float64)), tmp_path / f"bad.{fmt}")
        with pytest.raises(InputError, match=rf"bad\.{fmt}:{line}:"):
            count_scored(str(path), "s", gold_col="gold", size=150, rows=17)


def test_a_gold_label_set_that_is_refused_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "ml.csv"
    rows = [f"a,0.{i % 10},0.5" for i in range(50)] + ["∅,0.1,0.2"] + ["b,0.3,0.4"] * 5
    path.write_text("gold,p_a,p_b\n" + "\n".join(rows) + "\n")
    with pytest.raises(InputError, match=r"ml\.csv:52: the gold label set '∅'"):
        count_scored(str(path), "p_*", gold_col="gold", size=100, multilabel=MultiLabel())
    out = run_cli("score", "ml.csv", "--gold-col", "gold", "--scores", "p_*", "--multilabel", cwd=tmp_path)
    cli_error(out, "ml.csv:52:", "∅")


@pytest.mark.parametrize("seed", range(4))
def test_parts_merge_to_the_same_rows_in_any_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = ["binary", "multiclass", "multilabel"][seed % 3]
    frame, spec = _table(rng, shape, 500)
    frame = frame.with_columns(pl.col(c).cast(pl.String) for c in frame.columns)
    reading = ScoredReading(
        specs=(spec,), gold_col="gold", weight_col="w" if seed % 2 else None,
        multilabel=MultiLabel() if shape == "multilabel" else None,
    )  # fmt: skip
    cuts = np.sort(rng.choice(np.arange(1, 500), 6, replace=False))
    bounds = [0, *cuts.tolist(), 500]
    parts = [count_part(frame[a:b], a + 2, "t.csv", reading) for a, b in itertools.pairwise(bounds)]
    whole = count_part(frame, 2, "t.csv", reading)
    order = rng.permutation(len(parts))
    merged = merge_parts([parts[i] for i in order])
    halves = merge_parts([merge_parts([parts[i] for i in order[:3]]), merge_parts([parts[i] for i in order[3:]])])
    for other in (merged, halves):
        assert other.names == whole.names and other.n_rows == whole.n_rows == 500
        np.testing.assert_array_equal(other.gold, whole.gold)
        np.testing.assert_array_equal(other.scores, whole.scores)
        np.testing.assert_array_equal(other.count, whole.count)
    _same(finish_parts(merged, reading, "t.csv")[0], finish_parts(whole, reading, "t.csv")[0])


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("weighted", [False, True])
def test_several_systems_read_at_once_are_each_systems_counts(tmp_path: Path, fmt: str, weighted: bool) -> None:
    rng = np.random.default_rng(11 + weighted)
    n = 600
    p = np.round(rng.dirichlet([1, 1, 1], (2, n)), 2)
    p[..., 2] = np.round(1 - p[..., 0] - p[..., 1], 2)
    frame = pl.DataFrame({
        "gold": rng.choice(["x", "y", "z"], n),
        **{f"{s}_{c}": p[i, :, j] for i, s in enumerate("ab") for j, c in enumerate("xyz")},
        "w": rng.integers(0, 3, n).astype(float),
    })  # fmt: skip
    path = _write(frame, tmp_path / f"two.{fmt}")
    kw: dict[str, Any] = {"gold_col": "gold", "weight_col": "w" if weighted else None, "size": 300, "rows": 50}
    joint, inputs = count_scored(str(path), "", systems=[("A", "a_*"), ("B", "b_*")], **kw)
    assert joint.systems == ("A", "B") and joint.n_instances == n
    assert inputs["score_columns"] == {"A": ["a_x", "a_y", "a_z"], "B": ["b_x", "b_y", "b_z"]}
    for name, spec in (("A", "a_*"), ("B", "b_*")):
        alone, _ = count_scored(str(path), spec, **kw)
        _same(joint.system(name), alone)


def test_systems_of_other_classes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("gold,a_x,a_y,b_x,b_z\nx,0.5,0.5,0.5,0.5\nx,0.4,0.6,0.5,0.5\n")
    out = run_cli("compare", "t.csv", "--gold-col", "gold", "--scores", "A=a_*", "--scores", "B=b_*", cwd=tmp_path)
    cli_error(out, "system 'B'", "every system scores the same classes")


def _rounded_off(want: Any, got: Any) -> Any:
    """``got`` where it equals ``want`` to 1e-12 (relative), else ``want``: numbers summed in another order."""
    if isinstance(want, dict) and isinstance(got, dict) and want.keys() == got.keys():
        return {k: _rounded_off(want[k], got[k]) for k in want}
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [_rounded_off(w, g) for w, g in zip(want, got)]
    if isinstance(want, float) and isinstance(got, float) and got == pytest.approx(want, rel=1e-12, abs=1e-15):
        return got
    return want


def _instances_compared(path: Path, specs: dict[str, str], weight_col: str | None, **kw: Any) -> dict[str, Any]:
    """``compare`` of the file's instances given as arrays (each system read whole): what the command gave before it
    read the file once."""
    systems, gold, weight = {}, None, None
    for name, spec in specs.items():
        found = read_scored(str(path), spec, gold_col="gold", weight_col=weight_col)
        gold, weight, systems[name] = found.gold, found.weight, found.named()
    return json.loads(clfeval.compare(gold, scores=systems, sample_weight=weight, **kw).to_json())


@pytest.mark.parametrize(
    ("shape", "args", "kw"),
    [
        ("binary", ["--test", "delong"], {"test": "delong"}),
        ("binary", ["--test", "bootstrap", "--rounds", "200", "--seed", "5"],
         {"test": "bootstrap", "rounds": 200, "seed": 5}),
        ("multiclass", ["--test", "ar", "--rounds", "150", "--seed", "2", "--baseline", "B"],
         {"test": "ar", "rounds": 150, "seed": 2, "baseline": "B"}),
        ("multiclass", ["--weight-col", "w", "--rounds", "100", "--seed", "3"], {"rounds": 100, "seed": 3}),
        ("binary", ["--positive", "neg", "--rounds", "100", "--seed", "4"],
         {"rounds": 100, "seed": 4, "labels": ["pos", "neg"]}),
    ],
)  # fmt: skip
def test_compare_reads_the_file_once_with_the_numbers_of_the_instances(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str, args: list[str], kw: dict[str, Any]
) -> None:
    rng = np.random.default_rng(len(args))
    tables = [_table(rng, shape, 400) for _ in range(3)]
    frame = tables[0][0].select("gold", "w")
    specs = {}
    for i, (t, spec) in enumerate(tables):
        named = t.drop("gold", "w").rename({c: f"{'abc'[i]}{c}" for c in t.columns if c not in ("gold", "w")})
        frame = frame.hstack(named)
        specs["ABC"[i]] = f"{'abc'[i]}{spec}"
    path = _write(frame, tmp_path / "three.csv")
    reads = []
    parts = scoredfile.scored_parts
    monkeypatch.setattr(scoredfile, "scored_parts", lambda *a, **k: (reads.append(a[0]), parts(*a, **k))[1])
    given = [x for s, spec in specs.items() for x in ("--scores", f"{s}={spec}")]
    got = cli_json("compare", "three.csv", "--gold-col", "gold", *given, *args, cwd=tmp_path)
    assert reads == ["three.csv"]
    want = _instances_compared(path, specs, "w" if "--weight-col" in args else None, **kw)
    for key in ("ranking", "systems", "n_instances", "test", "seed", "rounds"):
        assert got[key] == want[key], key
    # DeLong's test of the instances and of their joint rows sums in another order: equal to round-off
    assert got["pairs"] == (want["pairs"] if kw.get("test") != "delong" else _rounded_off(want["pairs"], got["pairs"]))
    # the most distinct (gold, A's scores, B's scores[, weight]) rows of a pair
    extra = ["w"] if "--weight-col" in args else []
    columns = {s: [c for c in frame.columns if c.startswith(spec.rstrip("*"))] for s, spec in specs.items()}
    pairs = [(a, b) for a in specs for b in specs if a < b]
    rows = max(frame.select("gold", *columns[a], *columns[b], *extra).unique().height for a, b in pairs)
    assert got["distinct_rows"] == rows
    for name, result in got["results"].items():
        mine, theirs = dict(result), dict(want["results"][name])
        inputs = mine.pop("inputs")
        theirs.pop("inputs")
        if "--weight-col" in args:  # the weights named by their column, as before
            assert "sample weights (column w)" in mine.pop("notes")[0]
            theirs.pop("notes")
        assert mine == theirs
        assert inputs["file"] == "three.csv" and inputs["score_columns"] == read_scored(
            str(path), specs[name], gold_col="gold").inputs["score_columns"]  # fmt: skip
        assert inputs["read"] == "in chunks"


def test_compare_of_label_sets_reads_them_once_too(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    a, _ = _table(rng, "multilabel", 300)
    b = a.select(pl.col("gold"), *(pl.lit(np.round(rng.random(300), 1)).alias(f"q_{x}") for x in "abc"))
    path = _write(a.drop("w").hstack(b.drop("gold")), tmp_path / "ml.jsonl")
    got = cli_json("compare", "ml.jsonl", "--gold-col", "gold", "--multilabel", "--scores", "A=p_*", "--scores",
                   "B=q_*", "--rounds", "100", "--seed", "1", cwd=tmp_path)  # fmt: skip
    found = {
        s: read_scored(str(path), spec, gold_col="gold", label_sets=True) for s, spec in (("A", "p_*"), ("B", "q_*"))
    }
    want = json.loads(clfeval.compare(found["A"].gold, scores={s: f.named() for s, f in found.items()},
                                      multilabel=MultiLabel(sep=","), rounds=100, seed=1).to_json())  # fmt: skip
    assert got["pairs"] == want["pairs"] and got["ranking"] == want["ranking"]
    assert got["results"]["B"]["inputs"]["score_columns"] == ["q_a", "q_b", "q_c"]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_json_lines_and_parquet_name_their_classes_as_before(tmp_path: Path, fmt: str) -> None:
    """Gold labels that spell numbers (9, 10) order as the whole-file reader ordered them: as text, so the positive
    class of one score column is the same as before they were read in parts."""
    rng = np.random.default_rng(4)
    frame = pl.DataFrame({"gold": rng.choice(["9", "10"], 300), "s": np.round(rng.random(300), 2)})
    path = _write(frame, tmp_path / f"numbers.{fmt}")
    cut, inputs = count_scored(str(path), "s", gold_col="gold", size=500, rows=40)
    _same(cut, _whole(path, "s", multilabel=False))
    assert inputs["positive"] == "9"


def test_the_part_counter_travels_by_pickle() -> None:
    """What a cluster's worker is sent (the reading options) and sends back (a part) survive pickling."""
    import pickle

    reading = ScoredReading(specs=("p_*",), gold_col="gold", weight_col="w", multilabel=MultiLabel(), bins=5)
    frame, _ = _table(np.random.default_rng(1), "multilabel", 200)
    part = count_part(frame, 1, "part.parquet", reading)
    again = pickle.loads(pickle.dumps(part))
    assert pickle.loads(pickle.dumps(reading)) == reading
    _same(finish_parts(again, reading, "part.parquet")[0], finish_parts(part, reading, "part.parquet")[0])


def test_parquet_is_read_in_slices_by_a_polars_without_collect_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frame, spec = _table(np.random.default_rng(6), "multiclass", 500)
    path = _write(frame, tmp_path / "old.parquet")
    batched, inputs = count_scored(str(path), spec, gold_col="gold", rows=37)
    monkeypatch.delattr(pl.LazyFrame, "collect_batches")
    sliced, same_inputs = count_scored(str(path), spec, gold_col="gold", rows=37)
    _same(batched, sliced)
    assert inputs == same_inputs
