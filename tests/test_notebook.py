"""The notebook display: the compact text repr and the HTML fragment of every kind of result, read as text and as
HTML, then shown by a real Jupyter kernel (nbclient running this interpreter's ipykernel) to check what a notebook
receives."""

from __future__ import annotations

import ast
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.render.notebook import MAX_PAIRS, MAX_ROWS, WIDTH, WRAPPER, compact_text, fragment
from clfeval.result import Result

ROOT = Path(__file__).resolve().parents[1]
NASTY = '<b>&"x'
ESCAPED = "&lt;b&gt;&amp;&quot;x"
#: HTML elements with no end tag.
VOID = {"br", "hr", "img", "input", "link", "meta", "wbr", "col", "area", "base", "source", "track", "param"}


def _labels() -> tuple[list[str], list[str]]:
    gold = list("aaaabbbbbccccc") + [NASTY] * 3
    pred = list("aaabbbbbbccccb") + [NASTY, NASTY, "a"]
    return gold, pred


def _f(x: float) -> str:
    return f"{x:.4f}"


class _Fragment(HTMLParser):
    """Start tags with their attributes, the text, the style, and whether every element is closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.style: list[str] = []
        self.open: list[str] = []
        self.mismatched: list[str] = []
        self.depth_zero_ends = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.mismatched.append(tag)
        self.depth_zero_ends += not self.open

    def handle_data(self, data: str) -> None:
        (self.style if self.open and self.open[-1] == "style" else self.text).append(data)


def _parse(html: str) -> _Fragment:
    page = _Fragment()
    page.feed(html)
    page.close()
    return page


def _assert_fragment(html: str) -> _Fragment:
    """One closed wrapper element holding everything; no document tags, script, address or outside resource; every
    style rule under the wrapper class."""
    page = _parse(html)
    assert page.tags[0] == ("div", {"class": WRAPPER})
    assert not page.open and not page.mismatched and page.depth_zero_ends == 1, (page.open, page.mismatched)
    assert html.endswith("</div>")
    names = {t for t, _ in page.tags}
    assert not names & {"html", "head", "body", "script", "link", "img", "iframe", "object", "embed", "base"}, names
    for tag, attrs in page.tags:
        assert not ({"src", "href", "srcset", "action", "id"} & set(attrs)), (tag, attrs)
        assert not any(a.startswith("on") for a in attrs), (tag, attrs)  # no inline handlers either
    assert not re.search(r"https?:|url\(|@import", html, re.I)
    style = "".join(page.style)
    rules = re.findall(r"([^{}]+)\{[^{}]*\}", style)
    assert rules
    for rule in rules:
        for selector in rule.split(","):
            assert selector.strip().startswith(f".{WRAPPER}"), selector
    return page


def _assert_lines(text: str) -> list[str]:
    lines = text.split("\n")
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    assert lines[-1].startswith("str(r) prints the whole report; r.render(fmt)")
    return lines


def _line(lines: list[str], start: str) -> str:
    return next(line for line in lines if line.startswith(start))


# --- compact text -------------------------------------------------------------------------------------------------


def test_a_score_repr_names_its_task_size_label_set_and_headline_numbers() -> None:
    r = clfeval.score(*_labels(), ci=clfeval.CI("delta"))
    assert repr(r) == compact_text(r)
    lines = _assert_lines(repr(r))
    assert lines[0] == "clfeval score — single-label, 17 instances, 4 labels"
    assert lines[1].startswith("label set: 4 labels, source union — every label that occurs in the gold or predicted")
    expected = {
        "accuracy ": (r.accuracy, ("accuracy",)),
        "micro F1 ": (r.averages["micro"]["f"], ("averages", "micro", "f")),
        "macro F1 (AF) ": (r.averages["macro"]["f"], ("averages", "macro", "f")),
        "macro F1 (FA) ": (r.averages["macro_fa"]["f"], ("averages", "macro_fa", "f")),
    }
    assert r.averages["macro"]["f"] != r.averages["macro_fa"]["f"]  # the two macro F1 are told apart
    assert r.intervals is not None
    for start, (value, key) in expected.items():
        line = _line(lines, start)
        bounds = r.intervals.get(key)
        shown = "no interval" if bounds is None else f"[{_f(bounds[0])}, {_f(bounds[1])}]"
        assert line.rstrip("†‡").endswith(f" {_f(value)}  {shown}"), line
    intervals = _line(lines, "intervals: delta, 95%")
    assert ("†" in intervals) == any("†" in line for line in lines[2:6])  # a mark says where it is explained


def test_a_multilabel_score_repr_says_subset_accuracy_and_beta_names_the_f() -> None:
    r = clfeval.score([["a", "b"], ["b"], ["c"], ["a"]], [["a"], ["b", "c"], ["c"], ["b"]], multilabel=True)
    lines = _assert_lines(repr(r))
    assert "multi-label, 4 instances" in lines[0]
    assert _line(lines, "subset accuracy ").split()[-1] == _f(r.accuracy)
    assert _line(lines, "macro F1 (AF) ").split()[-1] == _f(r.averages["macro"]["f"])
    f2 = clfeval.score(*_labels(), scoring=clfeval.Scoring(beta=2.0))
    assert _line(_assert_lines(repr(f2)), "macro F2 (FA) ").split()[-1] == _f(f2.averages["macro_fa"]["f"])


def test_a_comparison_repr_lists_each_pair_and_counts_the_rest() -> None:
    gold = list("abcabcabcabc")
    systems = {name: list(p) for name, p in zip("WXYZ", ("abcabcabcabb", "abcaacabcbbc", "aacbbcabcabc", "abcabc" * 2))}
    r = clfeval.compare(gold, systems, metrics=["macro.f1", "accuracy"], test=clfeval.Test(seed=3, rounds=500))
    lines = _assert_lines(repr(r))
    assert lines[0].startswith("clfeval compare — single-label, 12 instances, 4 systems")
    assert _line(lines, "systems: ") == "systems: W, X, Y, Z · metrics: macro.f1, accuracy"
    assert _line(lines, "test: ").startswith("test: approximate randomization, two-sided")
    shown = [line for line in lines if line.startswith("  ") and " − " in line]
    assert len(r.pairs) == 12 > MAX_PAIRS == len(shown)
    assert f"  … {12 - MAX_PAIRS} more pairs" in lines
    for line, pair in zip(shown, r.pairs):
        assert f"{pair.a} − {pair.b} = {pair.difference:+.4f}" in line and line.strip().startswith(pair.metric)
        assert f"p = {pair.p_value:.4f}, Holm {pair.p_adjusted:.4f}" in line
        assert line.endswith("holds: " + ("yes" if pair.significant else "no"))


def test_a_cv_repr_gives_pooled_and_mean_of_folds_with_sd() -> None:
    gold, pred = _labels()
    folds = [i % 3 for i in range(len(gold))]
    r = clfeval.cv(gold, pred, folds)
    lines = _assert_lines(repr(r))
    assert lines[0] == "clfeval cv — single-label, 3 folds, 17 instances, 4 labels"
    assert "folds: 0, 1, 2" in lines
    means = r.mean_of_folds()
    for start, pooled, mean, sd in (
        ("accuracy ", r.pooled.accuracy, means["accuracy"], means["accuracy_sd"]),
        ("macro F1 (AF) ", r.pooled.averages["macro"]["f"], means["averages"]["macro"]["f"],
         means["averages"]["macro"]["f_sd"]),
        ("macro F1 (FA) ", r.pooled.averages["macro_fa"]["f"], means["averages"]["macro_fa"]["f"],
         means["averages"]["macro_fa"]["f_sd"]),
    ):  # fmt: skip
        assert _line(lines, start).endswith(f"{_f(pooled)} · {_f(mean)} ± {_f(sd)}")


def _other_results() -> list[Result]:
    rng = np.random.default_rng(5)
    gold = rng.choice(["a", "b", NASTY], 300)
    pred = np.where(rng.random(300) < 0.7, gold, rng.choice(["a", "b", NASTY], 300))
    return [
        clfeval.convert(precision="75%", recall="60%", support=50, n=100),
        clfeval.convert_labels(
            {NASTY: {"precision": "0.80", "recall": "0.67", "support": 6}, "b": {"precision": "0.6", "support": 4}}
        ),
        clfeval.audit({NASTY: {"f1": "0.5"}, "b": {"f1": "0.7"}}, [("macro", {"f1": "0.6"})]),
        clfeval.finagle(gold, pred, rng.random(300), threshold=0.5),
    ]


def test_every_other_result_has_a_compact_repr_and_a_fragment_of_its_tables() -> None:
    for r in _other_results():
        lines = _assert_lines(repr(r))
        report = r.report()
        assert lines[0] == report.title[:WIDTH] and r.kind in lines[0]
        assert f"  {report.tables[0].title}: {len(report.tables[0].rows)} row" in lines[1]
        html = r._repr_html_()
        page = _assert_fragment(html)
        assert [a.get("data-key") for t, a in page.tags if t == "table"] == [
            t.key for t in r.report(matrix=True).tables
        ]
        assert NASTY not in html and ('<b>&"x' not in str(r) or ESCAPED in html)


# --- HTML fragment ------------------------------------------------------------------------------------------------


def test_a_score_fragment_is_self_contained_escaped_and_holds_summary_figures_and_tables() -> None:
    r = clfeval.score(*_labels(), ci="delta")
    html = fragment(r)
    assert html == r._repr_html_()
    page = _assert_fragment(html)
    assert NASTY not in html and ESCAPED in html
    text = " ".join(page.text)
    assert NASTY in text  # shown as written
    svgs = [a.get("class") for t, a in page.tags if t == "svg"]
    assert svgs == ["heatmap", "dotplot"]
    cells = [a for t, a in page.tags if t == "rect" and "cell" in (a.get("class") or "").split()]
    assert len(cells) == 16 and not any(k.startswith("data-") for c in cells for k in c)  # no script: counts only
    assert not any(t == "button" for t, _ in page.tags)
    summary = next(a for t, a in page.tags if t == "table" and a.get("data-key") == "summary")
    assert summary["class"] == "summary"
    assert f">{_f(r.averages['macro']['f'])}<br>" in html and f">{_f(r.averages['macro_fa']['f'])}<br>" in html
    assert "macro (AF: mean of per-label F1)" in text and "macro_fa (FA: F1 of macro P and macro R)" in text
    keys = [a.get("data-key") for t, a in page.tags if t == "table"]
    assert keys[:2] == ["summary", "overall-summary"]  # the page's summary, then every table of the report
    assert keys[2:] == [t.key for t in r.report(matrix=False).tables] and "matrix" not in keys  # the heat map is
    assert "<details><summary>notes (" in html and "result.render(&quot;html&quot;)" in html


def test_compare_and_cv_fragments_hold_their_summaries_and_figures() -> None:
    gold, pred = _labels()
    cmp = clfeval.compare(gold, {"A": pred, NASTY: gold[::-1]}, test=clfeval.Test(seed=1, rounds=200))
    page = _assert_fragment(cmp._repr_html_())
    assert [a.get("class") for t, a in page.tags if t == "svg"] == ["dotplot", "dotplot"]
    assert "pairs" in [a.get("data-key") for t, a in page.tags if t == "table"]
    assert ESCAPED in cmp._repr_html_() and f"{cmp.pairs[0].difference:.4f}" in cmp._repr_html_()
    cv = clfeval.cv(gold, pred, [i % 2 for i in range(len(gold))])
    html = cv._repr_html_()
    page = _assert_fragment(html)
    assert [a.get("class") for t, a in page.tags if t == "svg"] == ["dotplot", "heatmap", "dotplot"]
    assert _f(cv.pooled.averages["macro"]["f"]) in html and "Pooled scores" in " ".join(page.text)


def test_two_fragments_in_one_notebook_do_not_clash() -> None:
    """No ids (a notebook shows many outputs in one document) and one style scoped to the wrapper class."""
    a, b = clfeval.score(list("aab"), list("abb")), clfeval.score(list("xyz"), list("xyy"))
    both = fragment(a) + fragment(b)
    assert ' id="' not in both and both.count(f'<div class="{WRAPPER}">') == 2


def test_at_thousands_of_labels_the_fragment_and_the_repr_stay_small() -> None:
    rng = np.random.default_rng(0)
    n, k = 40_000, 2_000
    names = np.array([f"label-{i}" for i in range(k)])
    gold = rng.integers(0, k, n)
    pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    r = clfeval.score(names[gold], names[pred])
    html = fragment(r)
    assert len(html.encode()) < 1_000_000
    page = _assert_fragment(html)
    cells = [a for t, a in page.tags if t == "rect" and "cell" in (a.get("class") or "").split()]
    assert len(cells) <= 41**2  # folded to the most frequent labels and "other"
    per_label = html.split('data-key="per_label"', 1)[1].split("</table>", 1)[0]
    assert per_label.count("<tr>") == MAX_ROWS + 1  # the head and the first MAX_ROWS rows
    assert f"The first {MAX_ROWS} of {k} rows" in html
    text = repr(r)
    assert len(text.split("\n")) <= 8 and len(text) < 1_000 and "label-1" not in text
    assert _line(_assert_lines(text), "macro F1 (AF) ").split()[-1] == _f(r.averages["macro"]["f"])


# --- a real notebook ----------------------------------------------------------------------------------------------


def _kernel_manager(tmp_path: Path) -> object:
    """A kernel manager whose only kernel spec runs this interpreter's ipykernel (not whatever ``python3`` is first
    on the machine's Jupyter path)."""
    pytest.importorskip("ipykernel", reason="ipykernel (a test extra) is not installed")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec = tmp_path / "kernels" / "clfeval-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "clfeval test", "language": "python"}))
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")])
    assert specs.get_kernel_spec("clfeval-test").argv[0] == sys.executable
    return KernelManager(kernel_name="clfeval-test", kernel_spec_manager=specs)


def test_a_real_notebook_shows_the_fragment_and_the_compact_repr(tmp_path: Path) -> None:
    nbclient = pytest.importorskip("nbclient", reason="nbclient (a test extra) is not installed")
    nbformat = pytest.importorskip("nbformat", reason="nbformat (a test extra) is not installed")
    gold, pred = _labels()
    setup = f"import sys, clfeval\ngold, pred = {gold!r}, {pred!r}\nsys.executable, clfeval.__file__"
    cells = [
        setup,
        'r = clfeval.score(gold, pred, ci="delta")\nr',
        'clfeval.compare(gold, {"A": pred, "B": gold[::-1]}, test=clfeval.Test(seed=1, rounds=200))',
        "clfeval.cv(gold, pred, [i % 3 for i in range(len(gold))])",
        "print(repr(r))",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = nbclient.NotebookClient(
        nb, km=_kernel_manager(tmp_path), timeout=60, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [cell.outputs for cell in nb.cells]
    assert all(o.output_type != "error" for out in outputs for o in out), outputs
    (executable,) = (o for o in outputs[0] if o.output_type == "execute_result")
    # this interpreter, this code; IPython's pretty printer may fold a long tuple over lines, so compare values
    assert ast.literal_eval(executable.data["text/plain"]) == (sys.executable, clfeval.__file__)

    expected = clfeval.score(gold, pred, ci="delta")
    shown = [next(o for o in out if o.output_type == "execute_result").data for out in outputs[1:4]]
    for data in shown:
        html = data["text/html"]
        _assert_fragment(html)
        assert f'<div class="{WRAPPER}">' in html and "<svg" in html
        assert not re.search("https?://", html)
        assert ESCAPED in html and NASTY not in html  # the label, escaped
        for label in ("a", "b", "c"):
            assert f"<title>{label}</title>" in html
    score_html, compare_html, cv_html = (d["text/html"] for d in shown)
    assert score_html == fragment(expected)  # what the kernel showed is what this process renders
    assert f">{_f(expected.averages['macro']['f'])}<br>" in score_html
    assert shown[0]["text/plain"] == compact_text(expected)
    assert "clfeval compare" in shown[1]["text/plain"] and "A − B = " in shown[1]["text/plain"]
    assert "pooled (counts added, then scored)" in shown[2]["text/plain"] and "Pooled scores" in cv_html
    assert 'class="dotplot"' in compare_html
    printed = outputs[4][0]
    assert printed.output_type == "stream" and printed.text == compact_text(expected) + "\n"
