"""The HTML report and the figures behind it, read without a browser: self-contained, escaped, and the heat map's
cells and shares checked against the confusion matrix they come from. (tests/test_browser.py opens it in Chromium.)"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.render.svg import nice_ticks
from clfeval.report.figures import MAX_HEAT_LABELS, DotPlot, HeatMap, figures_of, heat_map, per_label_plot
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
NASTY = ["<b>bold</b>", "A&B", '"quoted"', "it's", "naïve-日本語", "50%_$#{}~^\\|", "*emph*", "L" * 90]


def _nasty_data() -> tuple[list[str], list[str]]:
    gold = list("aabbbcccc") + NASTY + NASTY[:4]
    pred = list("abbbccccc") + NASTY[1:] + NASTY[:1] + NASTY[:2] + ["a", "b"]
    return gold, pred


class _Page(HTMLParser):
    """Every start tag with its attributes, and the page's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    page.close()
    return page


def _assert_self_contained(html: str) -> None:
    page = _parse(html)
    for tag, attrs in page.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed"), tag
        assert not ({"src", "href", "srcset", "action"} & set(attrs)), (tag, attrs)
    without_namespace = html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert not re.search(r"https?:|//[a-z]|url\(|@import", without_namespace, re.I)


def _heat_cells(html: str) -> list[dict[str, str | None]]:
    return [a for t, a in _parse(html).tags if t == "rect" and "cell" in (a.get("class") or "").split()]


def test_score_report_is_self_contained_escaped_and_complete() -> None:
    gold, pred = _nasty_data()
    result = clfeval.with_intervals(clfeval.score(gold, pred), "delta")
    html = result.render("html")
    _assert_self_contained(html)
    assert html.startswith("<!DOCTYPE html>") and '<meta name="viewport"' in html
    for label in NASTY:  # every label written escaped, none as markup
        assert (
            label.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            .replace("'", "&#x27;")
            in html
        )
    assert "<b>bold" not in html
    text = unescape(" ".join(_parse(html).text))
    for name, values in result.averages.items():  # every average by its explicit name, with its value
        assert f"{name} (" in text
        assert f"{values['f']:.4f}" in text
    assert "macro (AF: mean of per-label F1)" in text and "macro_fa (FA: F1 of macro P and macro R)" in text
    low, high = result.intervals.get(("averages", "micro", "f"))
    assert f"[{low:.4f}, {high:.4f}]" in text
    assert "source 'union'" in text and "delta" in text
    assert f"clfeval{clfeval.__version__}" in text.replace(" ", "") and f"{result.n_instances} instances" in text


def test_heat_map_cells_views_and_order_follow_the_confusion_matrix() -> None:
    gold, pred = _nasty_data()
    result = clfeval.score(gold, pred)
    cells = _heat_cells(result.render("html"))
    n = len(result.labels)
    assert len(cells) == n * n
    heat = heat_map(result)
    support = {lab: r.support for lab, r in result.per_label.items()}
    assert [support[lab] for lab in heat.labels] == sorted(support.values(), reverse=True)
    assert heat.labels[0] == "c"  # the most frequent gold label first
    # the oracle: the confusion matrix reordered, row shares and column shares by plain division
    index = [result.labels.index(lab) for lab in heat.labels]
    matrix = result.confusion.cells[np.ix_(index, index)].astype(float)
    for k, attrs in enumerate(cells):
        i, j = divmod(k, n)
        assert attrs["data-text-count"] == str(int(matrix[i, j]))
        row, col = matrix[i].sum(), matrix[:, j].sum()
        assert attrs["data-text-row"] == (f"{100 * matrix[i, j] / row:.0f}" if row else "–")  # no gold: no recall
        assert attrs["data-text-column"] == (f"{100 * matrix[i, j] / col:.0f}" if col else "–")
        assert attrs["fill"] == attrs["data-fill-count"]


def test_heat_map_folds_rare_labels_and_keeps_every_count() -> None:
    rng = np.random.default_rng(3)
    labels = [f"L{k:03d}" for k in range(70)]
    gold = rng.choice(labels, size=4000, p=np.arange(70, 0, -1) / np.arange(70, 0, -1).sum())
    pred = np.where(rng.random(4000) < 0.7, gold, rng.choice(labels, size=4000))
    result = clfeval.score(gold.tolist(), pred.tolist())
    heat = heat_map(result)
    assert len(heat.labels) == MAX_HEAT_LABELS and heat.folded == 70 - (MAX_HEAT_LABELS - 1)
    assert heat.labels[-1] == f"other ({heat.folded} labels)"
    assert heat.cells.sum() == result.confusion.cells.sum()
    # the oracle: the 39 labels of highest gold support (ties in label-set order) kept, in that order
    by_support = sorted(range(70), key=lambda i: (-result.per_label[result.labels[i]].support, i))
    kept, rest = by_support[: MAX_HEAT_LABELS - 1], sorted(by_support[MAX_HEAT_LABELS - 1 :])
    assert list(heat.labels[:-1]) == [result.labels[i] for i in kept]
    assert np.array_equal(heat.cells[:-1, :-1], result.confusion.cells[np.ix_(kept, kept)])
    assert heat.cells[-1, -1] == result.confusion.cells[np.ix_(rest, rest)].sum()
    assert np.array_equal(heat.cells[:-1, -1], result.confusion.cells[np.ix_(kept, rest)].sum(axis=1))
    html = result.render("html")
    assert len(_heat_cells(html)) == MAX_HEAT_LABELS**2
    # the 70 × 70 matrix table stays out of the page; the CSV and JSON hold every cell
    assert 'data-key="matrix"' not in html and "confusion matrix of 70 labels is left out" in html
    assert 'data-key="matrix"' in clfeval.score(list("ab"), list("ba")).render("html")


def test_multilabel_heat_map_keeps_the_empty_set_last_and_uses_the_predicted_view_for_columns() -> None:
    result = clfeval.score(
        [["A"], ["A"], ["A", "B"], [], ["C"]], [["B", "C"], ["A"], ["A"], ["C"], []], multilabel=True
    )
    heat = heat_map(result)
    assert heat.labels[-1] == "∅" and heat.labels[0] == "A"
    columns = heat.shares("column")
    sums = heat.column_cells.sum(axis=0)
    assert np.allclose(columns.sum(axis=0)[sums > 0], 1.0)
    index = [result.confusion.labels.index(lab) for lab in heat.labels]
    assert np.allclose(heat.column_cells, result.confusion.predicted_view[np.ix_(index, index)])
    assert np.allclose(heat.cells.sum(axis=1), result.confusion.gold_view[np.ix_(index, index)].sum(axis=1))


def test_multilabel_folding_keeps_the_empty_set_apart() -> None:
    rng = np.random.default_rng(5)
    labels = [f"T{k:02d}" for k in range(60)]
    weights = 1 / np.arange(1, 61)
    gold = [
        list(rng.choice(labels, size=rng.integers(0, 3), replace=False, p=weights / weights.sum())) for _ in range(1500)
    ]
    pred = [g[:1] + list(rng.choice(labels, size=rng.integers(0, 2), p=weights / weights.sum())) for g in gold]
    result = clfeval.score(gold, pred, multilabel=True)
    heat = heat_map(result)
    confusion = result.confusion
    assert len(heat.labels) == MAX_HEAT_LABELS and heat.labels[-1] == "∅"
    assert heat.labels[-2] == f"other ({heat.folded} labels)" and heat.folded == 60 - (MAX_HEAT_LABELS - 2)
    gold_total = confusion.gold_view.sum(axis=1)
    by_support = sorted(range(60), key=lambda i: (-gold_total[i], i))
    kept, rest, empty = by_support[: MAX_HEAT_LABELS - 2], by_support[MAX_HEAT_LABELS - 2 :], 60
    assert list(heat.labels[:-2]) == [confusion.labels[i] for i in kept]
    for view, folded in ((confusion.gold_view, heat.cells), (confusion.predicted_view, heat.column_cells)):
        assert np.allclose(folded[:-2, :-2], view[np.ix_(kept, kept)])
        assert np.isclose(folded[-2, -2], view[np.ix_(rest, rest)].sum())
        assert np.allclose(folded[-1, :-2], view[empty, kept]) and np.isclose(folded[-1, -1], view[empty, empty])
        assert np.allclose(folded[:-2, -2], view[np.ix_(kept, rest)].sum(axis=1))
        assert np.isclose(folded.sum(), view.sum())


def test_per_label_plot_names_each_zero_division() -> None:
    result = clfeval.score(["a", "b", "a"], ["a", "a", "a"], scoring=clfeval.Scoring(labels=["a", "b", "c"]))
    plot = per_label_plot(result)
    notes = dict(zip(plot.rows, plot.notes))
    assert notes == {"a": "", "b": "0/0: precision", "c": "0/0: precision, recall, F1"}
    assert "drawn at 0 (--zero-division)" in plot.caption
    assert (
        "left undefined"
        in per_label_plot(clfeval.score(["a", "b"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan"))).caption
    )


def test_per_label_plot_puts_the_weakest_first_with_each_interval() -> None:
    gold, pred = _nasty_data()
    result = clfeval.with_intervals(clfeval.score(gold, pred), "delta-logit")
    plot = per_label_plot(result)
    f = [result.per_label[lab].f for lab in plot.rows]
    assert f == sorted(f) and set(plot.rows) == set(result.labels)
    precision = plot.series[0]
    for lab, point in zip(plot.rows, precision.points):
        bounds = result.intervals.get(("per_label", lab, "precision"))
        assert point.value == result.per_label[lab].precision
        assert (point.low, point.high) == (bounds if bounds is not None else (None, None))
    html = result.render("html")
    drawn = html.count('<g class="point">')
    defined = sum(1 for s in plot.series for p in s.points if p is not None and not np.isnan(p.value))
    assert drawn == defined > 0


def test_comparison_report_shows_each_difference_with_its_p_value_and_per_label_differences() -> None:
    gold = list("abcabcabcaab") + ["<x>"] * 3
    cmp = clfeval.compare(
        gold,
        {"X": list("abcabbaacaab") + ["<x>"] * 3, "Y": list("abccbcabbaab") + ["a"] * 3},
        metrics=["macro.f1", "accuracy"],
        test=clfeval.Test(rounds=300, seed=1, ci="bootstrap"),
    )
    html = cmp.render("html")
    _assert_self_contained(html)
    figures = figures_of(cmp)
    differences, per_label = figures
    assert isinstance(differences, DotPlot) and differences.reference == 0.0
    assert [p.value for p in differences.series[0].points] == [p.difference for p in cmp.pairs]
    assert all(f"p = {p.p_value:.2g}" in note for p, note in zip(cmp.pairs, differences.notes))
    gaps = {lab: cmp.results["X"].per_label[lab].f - cmp.results["Y"].per_label[lab].f for lab in per_label.rows}
    assert [p.value for p in per_label.series[0].points] == [gaps[lab] for lab in per_label.rows]
    text = unescape(" ".join(_parse(html).text))
    for p in cmp.pairs:
        assert f"{p.difference:.4f}" in text and f"[{p.ci[0]:.4f}, {p.ci[1]:.4f}]" in text
    assert "&lt;x&gt;" in html and "<x>" not in html
    assert "approximate randomization" in text and "seed" in text


def test_cv_report_marks_pooled_and_mean_of_folds() -> None:
    gold = list("aabbccaabbccaabbcc")
    pred = list("abbbccaabbcaaabbcc")
    cv = clfeval.cv(gold, pred, [k % 3 for k in range(18)])
    fig = figures_of(cv)[0]
    names = [s.name for s in fig.series]
    assert names[-2:] == ["mean of folds ± sd", "pooled"] and sum(s.muted for s in fig.series) == 3
    pooled = fig.series[-1]
    assert pooled.points[fig.rows.index("macro F1")].value == cv.pooled.averages["macro"]["f"]
    mean = cv.mean_of_folds()["averages"]["macro"]
    tick = fig.series[-2].points[fig.rows.index("macro F1")]
    assert tick.value == pytest.approx(mean["f"]) and tick.high - tick.value == pytest.approx(mean["f_sd"])
    html = cv.render("html")
    _assert_self_contained(html)
    assert len(_heat_cells(html)) == 9 and isinstance(figures_of(cv)[1], HeatMap)


def test_nice_ticks_cover_the_scale() -> None:
    for low, high in ((0, 1), (-0.3, 0.3), (-1.1, 1.1), (-0.0011, 0.0011)):
        ticks = nice_ticks(low, high)
        assert 3 <= len(ticks) <= 9 and low <= ticks[0] and ticks[-1] <= high and 0.0 in ticks


def test_cli_writes_the_report_and_refuses_html_where_there_is_none(tmp_path: Path) -> None:
    out = run_cli(
        "score",
        str(ROOT / "examples/pos-tagger.txt"),
        "--train",
        str(ROOT / "examples/pos-train.txt"),
        "--ci",
        "delta",
        "--format",
        "html",
        "-o",
        "report.html",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr.decode()
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    _assert_self_contained(html)
    assert "pos-tagger.txt" in html and "clfeval score" in html and len(_heat_cells(html)) == 100
    refused = run_cli("convert", "--tp", "3", "--fp", "1", "--format", "html", cwd=tmp_path)
    assert refused.returncode == 2 and b"invalid choice: 'html'" in refused.stderr


def test_the_page_shows_the_measures_asked_for_and_weighted_kappa_only_with_an_order() -> None:
    """Issue 30: the summary and the folded tables show the default measures (averages of precision, recall and F;
    accuracy, balanced accuracy, MCC, κ); weighted κ only where an order is declared or it is asked for."""
    gold, pred = _nasty_data()
    plain = clfeval.score(gold, pred, ci="delta")
    html = plain.render("html")
    _assert_self_contained(html)
    summary = [a.get("data-key") for t, a in _parse(html).tags if t == "table"]
    assert summary[:2] == ["summary", "overall-summary"]
    text = unescape(" ".join(_parse(html).text))
    for shown in ("balanced accuracy", "MCC", "Cohen's κ", "precision", "recall", "F1"):
        assert shown in text, shown
    for hidden in ("κ, linear weights", "Jaccard", "specificity", "Hamming loss", "NPV"):
        assert hidden not in text, hidden
    every = unescape(" ".join(_parse(plain.render("html", measures="all", verbose=True)).text))
    for shown in ("Jaccard", "specificity", "Hamming loss", "NPV", "mcc: Matthews"):
        assert shown in every, shown
    assert "κ, linear weights" not in every  # no order declared: withheld, even with measures="all" (issue 38)
    # an order declared (ordinal=True: the declared labels' order); labels= alone declares none
    ordered = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=plain.labels, ordinal=True), ci="delta")
    text = unescape(" ".join(_parse(ordered.render("html")).text))
    assert "κ, linear weights" in text and "κ, quadratic weights" in text and "reads the labels as ordered" in text
    unordered = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=plain.labels))
    assert "κ, linear weights" not in unescape(" ".join(_parse(unordered.render("html")).text))
    only = unescape(" ".join(_parse(plain.render("html", measures="npv,mcc")).text))
    assert "NPV" in only and "MCC" in only and "Cohen's κ" not in only
