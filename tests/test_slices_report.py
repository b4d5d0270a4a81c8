"""What a reader sees of scores by group (issue 39, part 6): the report in every format, the JSON contract as
documented, the frames against the result and fairlearn's ``MetricFrame``, the forest plots, ``repr`` and ``clfeval
explain`` of every flat name.

Every case is drawn at random (a few seeds, several kinds of data, one and two group columns, with and without
intervals); the numbers shown are checked against the result's own accessors, which tests/test_slices.py holds to
scikit-learn and fairlearn.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.errors import OptionError
from clfeval.explain import explain

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("text", "markdown", "csv", "latex", "html", "json")


def _binary(seed: int, ci: str | None = "bootstrap", two_columns: bool = False) -> Any:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(150, 400))
    lang = rng.choice(["es", "en", "de", "fr"][: int(rng.integers(2, 5))], n)
    gold = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.75 + 0.05 * (lang == "en"), gold, 1 - gold)
    groups: Any = {"lang": lang, "sex": rng.choice(["f", "m"], n)} if two_columns else lang
    extra = {"ci": ci, "resamples": 100} if ci is not None else {}
    return clfeval.score(gold, pred, groups=groups, rounds=99, seed=seed, **extra)


def _stratified(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    n = 300
    site = rng.choice(["north", "south"], n)
    gold = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < np.where(site == "north", 0.9, 0.7), gold, 1 - gold)
    lang = np.where(rng.random(n) < np.where(site == "north", 0.8, 0.2), "es", "en")
    return clfeval.score(gold, pred, groups=lang, strata=site, ci="bootstrap", resamples=50, rounds=50, seed=seed)


def _multiclass(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    n = 240
    gold = rng.choice(list("abc"), n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.choice(list("abc"), n))
    return clfeval.score(gold, pred, groups=rng.choice(["x", "y", "z"], n), ci="delta", test="delta", seed=seed)


def _multilabel(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    gold, pred = (rng.random((120, 3)) < 0.4).astype(int), (rng.random((120, 3)) < 0.4).astype(int)
    return clfeval.score(gold, pred, multilabel=True, groups=rng.choice(["p", "q"], 120), rounds=50, seed=seed)


def _spans(seed: int) -> Any:
    rng = np.random.default_rng(seed)
    sentences = [["B-PER", "O"], ["B-LOC", "I-LOC"], ["O", "B-ORG"]]
    gold = [sentences[i] for i in rng.integers(0, 3, 40)]
    pred = [s if rng.random() < 0.7 else ["O"] * len(s) for s in gold]
    groups = rng.choice(["news", "web"], 40)
    return clfeval.score(gold, pred, spans=True, groups=groups, ci="bootstrap", resamples=50, rounds=50, seed=seed)


CASES = {
    "binary": lambda: _binary(1),
    "binary two columns": lambda: _binary(2, ci="delta", two_columns=True),
    "binary no ci": lambda: _binary(3, ci=None),
    "binary within strata": lambda: _stratified(8),
    "multi-class": lambda: _multiclass(4),
    "multi-label": lambda: _multilabel(5),
    "spans": lambda: _spans(6),
}


@pytest.fixture(scope="module", params=list(CASES))
def result(request: pytest.FixtureRequest) -> Any:
    return CASES[request.param]()


def test_every_format_renders_every_group(result: Any) -> None:
    assert set(result.renders_to()) == set(FORMATS)
    for fmt in FORMATS:
        text = result.render(fmt)
        for name in result.names:
            assert name in text or name.replace("&", "&amp;") in text, (fmt, name)
    page = result.render("html")
    assert page.startswith("<!DOCTYPE html>") and page.count('<svg class="dotplot"') == len(result.metrics)
    assert "http" not in re.sub(r'xmlns="http://www.w3.org/2000/svg"', "", page)  # nothing loaded from the network
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)), ids  # one forest plot per metric, each its own anchor
    latex = result.render("latex")
    assert latex.count(r"\begin{tabular}") == len(result.report().tables)


def _cell(value: float) -> str:
    return "undefined" if math.isnan(value) else f"{value:.4f}"


def test_the_table_by_group_shows_each_groups_value_and_interval(result: Any) -> None:
    table = next(t for t in result.report().tables if t.key == "by_group")
    rows = {str(row[0]): row for row in table.rows}
    assert list(rows) == ["overall", *result.names]
    text = result.render("text")
    for name, row in rows.items():
        assert row[table.columns.index("N")] == (result.n_instances if name == "overall" else result.sizes()[name])
        for metric in result.metrics:
            i = table.columns.index(metric)
            value = result.value(name, metric)
            assert row[i] == value or (math.isnan(row[i]) and math.isnan(value))
            bounds = result.interval_of(name, metric)
            if result.gap_method["name"] != "none":
                assert (row[i + 1].low, row[i + 1].high) == (bounds or (None, None))
            assert _cell(result.value(name, metric)) in text
    largest = [g for g in result.gaps if g.between == "max"]
    for gap in largest:  # the ends of the largest gap are marked in the table by group
        assert "highest of" in rows[gap.a][-1] and gap.metric in rows[gap.a][-1]
        assert "lowest of" in rows[gap.b][-1] and gap.metric in rows[gap.b][-1]


def test_the_gaps_and_tests_tables_hold_every_gap_and_test(result: Any) -> None:
    report = result.report()
    tables = {t.key: t for t in report.tables}
    gaps = tables["gaps"]
    assert len(gaps.rows) == len(result.gaps)
    shown = {(r[0], r[2], r[3], r[1]): r for r in gaps.rows}
    for gap in result.gaps:
        row = shown[(gap.metric, gap.a, gap.b, {"max": "largest (max − min)", "rest": "against the rest",
                                                "pair": "pair"}[gap.between])]  # fmt: skip
        assert row[6] == gap.difference or (math.isnan(row[6]) and math.isnan(gap.difference))
    for metric in result.metrics:  # the largest gap is listed first for each metric
        first = next(r for r in gaps.rows if r[0] == metric)
        assert first[1].startswith("largest")
    if result.tests:
        alpha = result.test_method["alpha"]
        rows = tables["tests"].rows
        assert [(r[0], r[2], r[3]) for r in rows] == [(t.metric, t.a, t.b) for t in result.tests]
        for row, t in zip(rows, result.tests):
            assert float(row[5]) == t.p_value and float(row[6]) == t.p_holm
            assert row[7] == ("yes" if t.p_holm < alpha else "no")
    else:
        assert "tests" not in tables
    assert ("fairness" in tables) == (result.fairness is not None)
    notes = " ".join(report.notes)
    strata = result.test_method.get("strata")
    assert ("permuted within" in notes) == bool(strata)
    assert "r.by_group[g]" in notes and str(result.test_method["name"]) in notes
    assert notes.endswith(result.signature)


def test_csv_holds_every_number_of_flat(result: Any) -> None:
    """One row per number: each flat name is a (section, group, name) row with its value."""
    rows = list(csv.reader(io.StringIO(result.render("csv", raw_csv=True))))
    assert rows[0] == ["section", "group", "name", "value"]
    cells = {}
    for section, group, name, value in rows[1:]:
        key = ".".join(p for p in (section if section != "count" else "", group, name) if p)
        cells[key] = value
    assert cells["signature"] == result.signature
    flat = result.flat(".", per_label=True)
    for name, value in flat.items():
        assert name in cells, name
        written = cells[name]
        assert (written == "" and math.isnan(value)) or math.isclose(float(written), value), (name, written, value)


def _documented_fields() -> set[str]:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    section = text.split("## JSON output — `clfeval.slices/1`", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r'"(\w+)":', section.split("```", 2)[1]))


def test_the_json_round_trips_with_the_documented_fields(result: Any) -> None:
    doc = json.loads(result.render("json"))
    documented = _documented_fields()
    assert doc["schema"] == "clfeval.slices/1" and doc["signature"] == result.signature
    assert set(doc) <= documented, set(doc) - documented
    inner = [doc["gap_method"], doc["test_method"], *doc["gaps"], *doc["tests"], *doc["groups"]]
    if doc["fairness"] is not None:
        inner += [doc["fairness"], *doc["fairness"]["summaries"].values()]
    for obj in inner:
        assert set(obj) <= documented | set(doc["group_columns"]), set(obj) - documented
    assert [g["name"] for g in doc["groups"]] == list(result.names) == list(doc["by_group"])
    assert doc["metrics"] == list(result.metrics) and len(doc["gaps"]) == len(result.gaps)
    for name in result.names:
        group = doc["by_group"][name]
        assert group["schema"] == "clfeval.score/2" and group["n_instances"] == result.sizes()[name]


def test_the_frames_are_the_results_numbers(result: Any) -> None:
    by_group = result.to_polars()
    assert result.table_names()[0] == "by_group"
    assert by_group["group"].to_list() == list(result.names)
    assert by_group["n_instances"].to_list() == [result.sizes()[g] for g in result.names]
    for i, column in enumerate(result.columns):
        assert by_group[column].to_list() == [v[i] for v in result.values]
    with_ci = result.gap_method["name"] != "none"
    for metric in result.metrics:
        np.testing.assert_array_equal(by_group[metric].to_numpy(), [result.value(g, metric) for g in result.names])
        assert (f"{metric}_ci_low" in by_group.columns) == with_ci
        if with_ci:
            low = [(result.interval_of(g, metric) or (math.nan, math.nan))[0] for g in result.names]
            np.testing.assert_array_equal(by_group[f"{metric}_ci_low"].to_numpy(), low)
    gaps = result.to_polars("gaps")
    assert gaps.columns == ["metric", "between", "a", "b", "value_a", "value_b", "difference", "difference_ci_low",
                            "difference_ci_high", "ratio", "ratio_ci_low", "ratio_ci_high", "method"]  # fmt: skip
    np.testing.assert_array_equal(gaps["difference"].to_numpy(), [g.difference for g in result.gaps])
    for row, gap in zip(gaps.iter_rows(named=True), result.gaps):
        assert result.gap(gap.metric, gap.a, None if gap.between == "max" else gap.b).difference == row["difference"] \
            or gap.between == "max"  # fmt: skip
    tests = result.to_polars("tests")
    assert tests.columns == ["metric", "between", "a", "b", "difference", "p_value", "p_holm", "significant", "test"]
    np.testing.assert_array_equal(tests["p_holm"].to_numpy(), [t.p_holm for t in result.tests])
    if result.fairness is None:
        with pytest.raises(OptionError, match="unknown table 'fairness'"):
            result.to_polars("fairness")
    else:
        fairness = result.to_polars("fairness")
        for rate in ("selection_rate", "tpr", "fpr"):
            assert fairness[rate].to_list() == [result.fairness["by_group"][g][rate] for g in fairness["group"]]
        summaries = result.to_polars("fairness_summaries")
        assert summaries["summary"].to_list() == list(clfeval.FAIRNESS)
        for name in summaries["summary"]:
            assert summaries.filter(summary=name)["value"].item() == result[f"fairness.{name}"]


def test_by_group_frame_is_fairlearns_metric_frame() -> None:
    """The default frame has fairlearn's ``MetricFrame.by_group`` numbers, group by group, on random data."""
    fairlearn = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import accuracy_score, f1_score

    for seed in range(3):
        rng = np.random.default_rng(seed)
        n = 300
        lang = rng.choice(["es", "en", "de"], n)
        gold = rng.integers(0, 2, n)
        pred = np.where(rng.random(n) < 0.8, gold, 1 - gold)
        r = clfeval.score(gold, pred, groups=lang, rounds=20, seed=seed)
        frame = fairlearn.MetricFrame(
            metrics={"accuracy": accuracy_score, "f1": f1_score}, y_true=gold, y_pred=pred, sensitive_features=lang
        )
        ours = r.to_pandas().set_index("group")
        for metric in ("accuracy", "f1"):
            np.testing.assert_allclose(ours[metric].loc[frame.by_group.index], frame.by_group[metric], rtol=1e-12)


def test_the_forest_plots_are_drawn(result: Any, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    figures = result.figures()
    assert [f.key for f in figures] == [f"forest-{m.replace('.', '-')}" for m in result.metrics]
    for fig, metric in zip(figures, result.metrics):
        assert fig.rows == ("overall", *result.names)
        overall = result.value("overall", metric)
        assert fig.reference == overall or (fig.reference is None and math.isnan(overall))
        largest = result.gap(metric)
        marked = {row: note for row, note in zip(fig.rows, fig.notes) if note}
        assert marked[largest.a].startswith("highest") and marked[largest.b] == "lowest"
        points = fig.series[1].points[1:]
        np.testing.assert_array_equal([p.value for p in points], [result.value(g, metric) for g in result.names])
    written = result.plot(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{f.key}.{ext}" for f in figures for ext in ("png", "svg"))
    for path in written:
        assert path.stat().st_size > 1000
    svg = (tmp_path / f"{figures[0].key}.svg").read_text(encoding="utf-8")
    assert all(html.escape(name) in svg for name in result.names)


def test_repr_and_the_notebook_fragment(result: Any) -> None:
    text = repr(result)
    assert text.startswith("clfeval score by group") and len(text.splitlines()) < 20
    assert all(len(line) <= 100 for line in text.splitlines())
    for gap in result.gaps:
        if gap.between == "max":
            assert f"largest gap {gap.a} − {gap.b}" in text
    fragment = result._repr_html_()
    assert "<script" not in fragment and 'class="clfeval-nb"' in fragment and "dotplot" in fragment


def test_explain_knows_every_flat_name(result: Any) -> None:
    """Every number a result by group names (flat(), r[name]) leads to an explanation: the part of the name that
    says where the number sits (SLICE_NAMES, or a count), then what it is."""
    walked = 0
    for name in result.flat(".", per_label=True):
        found = explain(name)
        assert found, name
        head = name.split(".", 1)[0]
        if head in clfeval.infer.slicing.SLICE_NAMES:
            assert found[0].registry == "SLICE_NAMES" and found[0].name == head and len(found) > 1, name
        walked += 1
    assert walked > 20
    assert [e.registry for e in explain("n_groups")] == ["COUNT_NAMES"]
    assert [e.registry for e in explain("fairness.equalized_odds_difference_ci_low")] == ["SLICE_NAMES", "FAIRNESS"]
    with pytest.raises(OptionError):
        explain("gap.max.macro.f9x")


def test_measures_are_refused_and_verbose_defines_everything() -> None:
    r = _binary(7)
    with pytest.raises(OptionError, match="metrics="):
        r.render("text", measures="npv")
    verbose = r.render("text", verbose=True)
    assert "demographic_parity_difference: max − min" in " ".join(verbose.split())
    assert clfeval.GROUP_TESTS["permutation"].definition.split(",")[0] in " ".join(verbose.split())


def test_a_result_by_group_from_the_shorthands_renders_without_figures_library(tmp_path: Path) -> None:
    """The HTML page draws its forest plots as inline SVG (no matplotlib), one per metric asked for."""
    rng = np.random.default_rng(9)
    gold = rng.choice(list("ab"), 100)
    r = clfeval.score(gold, gold[::-1], groups=rng.choice(["u", "v"], 100), metrics=["accuracy"], rounds=20, seed=9)
    page = r.render("html")
    assert page.count('<svg class="dotplot"') == 1 and "accuracy by group" in page
