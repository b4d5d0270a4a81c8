"""Golden files for the text, Markdown, CSV and LaTeX renderings; escaping; JSON round-trips of every command.

Set ``CLFEVAL_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change (then read the diff).
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import json
import math
import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

import clfeval
from clfeval.errors import OptionError
from clfeval.render import RENDERERS
from clfeval.render.latex import latex_escape
from clfeval.render.markdown import markdown_escape
from clfeval.render.text import WIDTH, shorten, signature_lines, terminal_width, visible, wrap
from clfeval.scoring.measures import MEASURES, label_measures, overall_measures
from tests.conftest import run_cli, signature_of

GOLDEN = Path(__file__).parent / "data" / "golden"

#: A label long enough to stretch every first column.
LONG = "a label name long enough to test how every format copes with a very wide first column (90)"

#: Labels that break a renderer that does not escape: HTML, Markdown and LaTeX syntax, quotes, non-ASCII text,
#: control characters, a very long name.
NASTY = (
    "<b>bold</b>",
    "A&B",
    '"quoted"',
    "it's",
    "naïve-日本語",
    "50%_$#{}~^\\|",
    "*emph*",
    LONG,
    "tab\there\nnewline\x07",
)


def _example() -> clfeval.Scores:
    # Sefidian's 9-instance scikit-learn example, with a declared label that never occurs, the labels in order
    return clfeval.score(
        [1, 2, 3, 2, 3, 3, 1, 2, 2],
        [2, 2, 1, 2, 1, 3, 2, 3, 2],
        scoring=clfeval.Scoring(labels=["1", "2", "3", "4"], ordinal=True),
    )


def _multilabel() -> clfeval.Scores:
    return clfeval.score([["A"], ["A"], ["A", "B"], []], [["B", "C"], ["A"], ["A"], ["C"]], multilabel=True)


def _comparison() -> clfeval.Comparison:
    # few differing instances: every arrangement is enumerated, so the p-values do not depend on a random stream
    gold = list("abcabcabcaab")
    return clfeval.compare(
        gold,
        {"X": list("abcabbaacaab"), "Y": list("abccbcabbaab"), "Z": list("abcabcabcabb")},
        metrics=["macro.f1", "accuracy"],
        test=clfeval.Test(seed=1),
    )


def _nasty_data() -> tuple[list[str], list[str]]:
    """27 instances, three of each nasty label; six predictions wrong (each given the next label)."""
    gold = [NASTY[i % len(NASTY)] for i in range(27)]
    pred = [NASTY[(i + 1) % len(NASTY)] if i in (2, 7, 11, 16, 20, 25) else g for i, g in enumerate(gold)]
    return gold, pred


def _nasty() -> clfeval.Scores:
    return clfeval.with_intervals(clfeval.score(*_nasty_data()), "delta")


def _nasty_comparison() -> clfeval.Comparison:
    # systems named like the labels; at most 5 instances differ between two systems, so every p-value is exact
    gold, first = _nasty_data()
    second = [NASTY[(i + 2) % len(NASTY)] if i in (4, 9, 13) else g for i, g in enumerate(gold)]
    return clfeval.compare(
        gold,
        {"<sys> A&B": first, "*best*_run": second, "50% | $x$": gold[:26] + [NASTY[0]]},
        metrics=["macro.f1", "accuracy"],
        test=clfeval.Test(seed=1),
    )


def _nasty_cv() -> clfeval.CrossValidation:
    gold, pred = _nasty_data()
    return clfeval.cv(gold, pred, [("fold_1", "fold%2", "fold&3")[i % 3] for i in range(len(gold))])


CASES = {
    "single.txt": lambda: _example().render("text"),
    "single-ci.txt": lambda: clfeval.with_intervals(_example(), "delta").render("text"),
    "single-ci.md": lambda: clfeval.with_intervals(_example(), "delta").render("markdown"),
    "single-ci.csv": lambda: clfeval.with_intervals(_example(), "delta").render("csv"),
    "single.md": lambda: _example().render("markdown"),
    "single.csv": lambda: _example().render("csv"),
    "multi.txt": lambda: _multilabel().render("text"),
    "compare.txt": lambda: _comparison().render("text"),
    "compare.md": lambda: _comparison().render("markdown"),
    "compare.csv": lambda: _comparison().render("csv"),
    "single.tex": lambda: _example().render("latex"),
    "single-ci.tex": lambda: clfeval.with_intervals(_example(), "delta").render("latex"),
    "multi.tex": lambda: _multilabel().render("latex"),
    "compare.tex": lambda: _comparison().render("latex"),
    # the whole report, as every report was before issue 30: every measure and every note
    "single-all.txt": lambda: _example().render("text", measures="all", verbose=True),
    "single-ci-all.txt": lambda: clfeval.with_intervals(_example(), "delta").render(
        "text", measures="all", verbose=True
    ),
    "multi-all.txt": lambda: _multilabel().render("text", measures="all", verbose=True),
    "compare-verbose.txt": lambda: _comparison().render("text", verbose=True),
    **{
        f"nasty-{name}.{ext}": (lambda make=make, fmt=fmt: make().render(fmt))
        for name, make in (("score", _nasty), ("compare", _nasty_comparison), ("cv", _nasty_cv))
        for ext, fmt in (("txt", "text"), ("md", "markdown"), ("tex", "latex"))
    },
}


#: A number as the renderers print it: 0.8125, -3, 1e-05, 0.38234370099247103.
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
#: Numbers printed with at least this many significant digits are full-precision floats: they are compared with
#: :data:`GOLDEN_REL_TOL`, since their last digits differ between CPUs, BLAS builds and vector paths (the same
#: delta-method bound read ...70099247109 on one machine and ...70099247103 on another). Shorter numbers are
#: rounded for reading (4 decimals by default) and must match to the digit.
FULL_PRECISION_DIGITS = 12
#: The relative tolerance of full-precision numbers in golden files: far below any change a reader could see
#: (the renderers print 4 decimals) and far above float64's rounding differences (about 1e-16).
GOLDEN_REL_TOL = 1e-12


def _significant_digits(text: str) -> int:
    mantissa = re.split("[eE]", text.lstrip("-"))[0].replace(".", "")
    return len(mantissa.lstrip("0"))


def golden_mismatch(actual: str, expected: str) -> str | None:
    """Where ``actual`` differs from a golden file's ``expected`` text: the text between numbers to the character,
    short numbers to the digit, full-precision numbers within :data:`GOLDEN_REL_TOL`; ``None`` when they agree."""
    a_text, e_text = _NUMBER.split(actual), _NUMBER.split(expected)
    a_nums, e_nums = _NUMBER.findall(actual), _NUMBER.findall(expected)
    if a_text != e_text or len(a_nums) != len(e_nums):
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "actual", lineterm="", n=1)
        return "\n".join(list(diff)[:40])
    for a, e in zip(a_nums, e_nums):
        if a == e:
            continue
        if min(_significant_digits(a), _significant_digits(e)) < FULL_PRECISION_DIGITS:
            return f"{a} where the golden file has {e}"
        if not math.isclose(float(a), float(e), rel_tol=GOLDEN_REL_TOL, abs_tol=1e-300):
            return f"{a} where the golden file has {e} (beyond the relative tolerance {GOLDEN_REL_TOL:g})"
    return None


def test_golden_comparison_tolerates_only_the_last_digits_of_full_precision_numbers() -> None:
    assert golden_mismatch("x,0.38234370099247103\n", "x,0.38234370099247109\n") is None
    assert golden_mismatch("x,0.3823437009924\n", "x,0.3823437010924\n") is not None  # a change at 1e-10
    assert golden_mismatch("F1 0.8125\n", "F1 0.8126\n") is not None  # rounded for reading: to the digit
    assert golden_mismatch("N = 9\n", "N = 10\n") is not None
    assert golden_mismatch("a b\n", "a  b\n") is not None
    assert golden_mismatch("-1.5e-05 and 2", "-1.5e-05 and 2") is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    actual = CASES[name]().replace(clfeval.__version__, "<version>")
    path = GOLDEN / name
    if os.environ.get("CLFEVAL_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    mismatch = golden_mismatch(actual, path.read_text(encoding="utf-8"))
    assert mismatch is None, f"{name}: {mismatch}"


def _round_trip(result, schema: str) -> dict:
    """The JSON rendering of ``result`` is its ``to_dict()``, survives a second trip, and names its schema."""
    data = json.loads(result.render("json"))
    assert data == result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["schema"] == schema
    return data


@pytest.mark.parametrize(
    "make",
    [
        _example,
        _multilabel,
        _nasty,
        lambda: clfeval.with_intervals(_example(), clfeval.CI("bootstrap", resamples=200, seed=1)),
    ],
)
def test_score_json_round_trips(make) -> None:
    _round_trip(make(), "clfeval.score/2")


@pytest.mark.parametrize("make", [_comparison, _nasty_comparison])
def test_compare_json_round_trips(make) -> None:
    data = _round_trip(make(), "clfeval.compare/2")
    assert all(p["exact"] for p in data["pairs"])


def test_cv_json_round_trips() -> None:
    data = _round_trip(_nasty_cv(), "clfeval.cv/2")
    assert data["fold_names"] == ["fold%2", "fold&3", "fold_1"] and len(data["folds"]) == 3


def test_convert_json_round_trips() -> None:
    binary = _round_trip(clfeval.convert(precision="0.75", recall="0.6", support=50, n=100), "clfeval.convert/1")
    assert binary["status"] == "unique"
    table = clfeval.convert_labels(
        {
            "A&B": {"precision": "0.80", "recall": "0.67", "support": 6},
            "<b>": {"precision": "0.60", "recall": "0.75", "support": 4},
        }
    )
    assert _round_trip(table, "clfeval.convert/1")["labels"]["A&B"]["tables"][0]["tp"] == 4


def test_audit_json_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "table8.tsv"
    path.write_text(
        "\tPrecision\tRecall\tF1-score\tAccuracy\n"
        "NORMAL\t78.11%\t71.77%\t73.05%\t92.60%\n"
        "UPPER\t90.44%\t71.83%\t76.33%\t93.32%\n",
        encoding="utf-8",
    )
    _round_trip(clfeval.audit_file(str(path), all_averages=True), "clfeval.audit/1")


def test_finagle_json_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "tagger.out"
    path.write_text(
        "w1 A A 0.9\nw2 A B 0.2\nw3 B B 0.8\nw4 B A 0.3\nw5 C C 0.7\nw6 A A 0.6\nw7 C B 0.1\n", encoding="utf-8"
    )
    data = _round_trip(clfeval.finagle(clfeval.read_confidences(str(path)), threshold=0.5), "clfeval.finagle/2")
    assert set(data["scenarios"]) == {"normal", "changed", "upper"}


def test_nan_is_null_in_json_and_said_in_words() -> None:
    r = clfeval.score(["a", "b"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan"))
    data = r.to_dict()
    assert data["per_label"]["b"]["precision"] is None
    assert data["averages"]["macro"]["precision"] is None
    assert any("macro precision is undefined (NaN)" in w for w in r.warnings)
    assert "undefined" in r.render("text")
    excluded = clfeval.score(["a", "b"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan", undefined="exclude"))
    assert excluded.averages["macro"]["precision"] == pytest.approx(0.5)


# ---------------------------------------------------------------- escaping


@pytest.mark.parametrize(
    "char, escaped",
    [
        ("\\", r"\textbackslash{}"),
        ("&", r"\&"),
        ("%", r"\%"),
        ("$", r"\$"),
        ("#", r"\#"),
        ("_", r"\_"),
        ("{", r"\{"),
        ("}", r"\}"),
        ("~", r"\textasciitilde{}"),
        ("^", r"\textasciicircum{}"),
        ("<", r"\textless{}"),
        (">", r"\textgreater{}"),
        ('"', r"\textquotedbl{}"),
        ("|", r"\textbar{}"),
        ("`", r"\textasciigrave{}"),
        ("[", "{[}"),
        ("]", "{]}"),
        ("*", "{*}"),
        ("\n", " "),
        ("\t", " "),
        ("\r", " "),
        ("\x00", " "),
        ("\x7f", " "),
        ("Σ", r"\ensuremath{\Sigma}"),
        ("∅", r"\ensuremath{\emptyset}"),
        ("−", r"\ensuremath{-}"),
        ("†", r"\dag{}"),
    ],
)
def test_latex_escape_each_special_character(char: str, escaped: str) -> None:
    assert latex_escape(char) == escaped
    assert latex_escape(f"a{char}b") == f"a{escaped}b"


def test_latex_escape_is_one_pass_and_lets_text_through() -> None:
    assert latex_escape("\\{}") == r"\textbackslash{}\{\}"  # the braces of \textbackslash{} are not escaped again
    assert latex_escape("naïve-日本語 it's, ok.") == "naïve-日本語 it's, ok."
    assert latex_escape("50%_$#{}~^\\|") == (
        r"50\%\_\$\#\{\}\textasciitilde{}\textasciicircum{}"
        r"\textbackslash{}\textbar{}"
    )


@pytest.mark.parametrize(
    "char, escaped",
    [
        ("\\", "\\\\"),
        ("`", "\\`"),
        ("*", "\\*"),
        ("_", "\\_"),
        ("[", "\\["),
        ("]", "\\]"),
        ("|", "\\|"),
        ("~", "\\~"),
        ("$", "\\$"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ("&", "&amp;"),
        ("\n", " "),
        ("\t", " "),
        ("\x07", " "),
    ],
)
def test_markdown_escape_each_special_character(char: str, escaped: str) -> None:
    assert markdown_escape(char) == escaped
    assert markdown_escape(f"a{char}b") == f"a{escaped}b"


def test_markdown_escape_is_one_pass() -> None:
    assert markdown_escape("&lt;") == "&amp;lt;"  # an entity in a label is shown, not interpreted
    assert markdown_escape("<b>*x*</b>") == "&lt;b&gt;\\*x\\*&lt;/b&gt;"
    assert markdown_escape("naïve-日本語 it's") == "naïve-日本語 it's"


def test_text_shows_control_characters_as_escapes() -> None:
    assert visible("a\nb\tc\rd\x00e\x07f\x1bg\x7f") == "a\\nb\\tc\\rd\\x00e\\x07f\\x1bg\\x7f"
    text = _nasty().render("text", measures="all")
    assert "tab\\there\\nnewline\\x07" in text and "\t" not in text and "\x07" not in text
    table = text.split("per label:\n")[1].split("\n\n")[0].splitlines()
    assert len(table) == 2 + len(NASTY)  # one line per label: no label broke its row


def test_escaped_formats_lose_no_label() -> None:
    md, tex = _nasty().render("markdown"), _nasty().render("latex")
    for label in NASTY:
        assert f"| {markdown_escape(label)} | 3 |" in md
        assert f"\n{latex_escape(label)} & 3 & " in tex


# ---------------------------------------------------------------- LaTeX


def test_latex_is_registered_and_reachable_from_the_cli(tmp_path: Path) -> None:
    assert "latex" in RENDERERS and "booktabs" in RENDERERS["latex"][1]
    path = tmp_path / "run.txt"
    path.write_text("w1 A_1 A_1\nw2 A_1 B&C\nw3 B&C B&C\n", encoding="utf-8")
    out = run_cli("score", str(path), "--format", "latex", "--no-matrix")
    assert out.returncode == 0, out.stderr
    tex = out.stdout.decode()
    assert tex.startswith(f"% clfeval {clfeval.__version__} — clfeval score") and "\\toprule" in tex
    assert "A\\_1 & 2 & " in tex and "B\\&C & 1 & " in tex and "rows: gold, columns: predicted" not in tex


def test_latex_structure_of_a_score() -> None:
    tex = _nasty().render("latex", digits=2)
    body = [line for line in tex.splitlines() if not line.startswith("%")]
    # per label and averages (precision, recall, F), overall, matrix; the further measures with measures="all"
    assert sum(line == r"\begin{table}[htbp]" for line in body) == 4
    for command in (r"\centering", r"\toprule", r"\midrule", r"\bottomrule", r"\end{table}"):
        assert sum(line == command for line in body) == 4
    assert r"\begin{tabular}{lrrrr}" in body and "label & support & precision & recall & $F_{1}$ \\\\" in body
    assert r"0.78 \,{\footnotesize[0.62, 0.93]}" in tex  # micro precision with its delta interval
    # macro precision has no interval (a label is never predicted): a marker as wide as an interval
    assert r"0.67 \,{\footnotesize\rlap{[n/a]}\phantom{[0.00, 0.00]}}" in tex
    assert "macro (AF: mean of per-label F1) & " in tex
    assert "95\\% delta intervals" in tex and "N = 27 instances (single-label); label set L: 9 labels" in tex
    assert r"\caption{" in tex and "% needs \\usepackage{booktabs}" in tex
    assert len(_nasty().render("latex", matrix=False).split(r"\begin{table}")) == 4
    assert "specificity" not in tex and "Jaccard" not in tex
    every = _nasty().render("latex", digits=2, measures="all")
    assert sum(line == r"\begin{table}[htbp]" for line in every.splitlines()) == 6
    assert "label & support & specificity & NPV & FPR & FNR & Jaccard \\\\" in every.splitlines()


def test_latex_comments_never_break() -> None:
    tex = _nasty().render("latex")
    head = tex.split("\n\n")[0].splitlines()
    assert all(line.startswith("%") for line in head)
    assert any(
        line.startswith("%   - † — clipped to [0, 1]: the Wald interval crossed a bound: ") and '"it\'s" F1' in line
        for line in head
    )
    odd = dataclasses.replace(clfeval.score(["a", "b"], ["a", "a"]), notes=("a note\nover\rthree lines",))
    head = odd.render("latex").split("\n\n")[0].splitlines()
    assert all(line.startswith("%") for line in head) and "%   - a note over three lines" in head


def test_latex_undefined_and_negative_numbers() -> None:
    tex = clfeval.score(["a", "b"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan")).render("latex")
    assert "b & 1 & undefined & 0.0000 & 0.0000 \\\\" in tex  # precision 0/0; F = 0 as recall is 0
    assert r"\ensuremath{-}0.1062" in _comparison().render("latex")


_CJK = re.compile("[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")


@pytest.mark.latex
@pytest.mark.skipif(
    shutil.which("pdflatex") is None,
    reason="pdflatex is not installed and `make test` could not install it here (Debian's "
    "texlive-latex-base texlive-latex-recommended; needs root and apt-get, see build/latex.log): "
    "the LaTeX goldens are checked as text only",
)
@pytest.mark.parametrize("name", sorted(n for n in CASES if n.endswith(".tex")))
def test_latex_golden_compiles(name: str, tmp_path: Path) -> None:
    """Each LaTeX golden in a minimal pdfLaTeX document (CJK characters replaced: they need a CJK font)."""
    body = _CJK.sub("?", (GOLDEN / name).read_text(encoding="utf-8"))
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage{booktabs}\n\\begin{document}\n" + body + "\n\\end{document}\n",
        encoding="utf-8",
    )
    out = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    log = out.stdout.decode(errors="replace")
    assert out.returncode == 0, log[-3000:]
    assert "Missing character" not in (tmp_path / "doc.log").read_text(errors="replace")


# ---------------------------------------------------------------- issue 30: a report a person reads


def _columns(line: str) -> int:
    """Terminal columns of a line: wide (CJK) characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _assert_fits(text: str, width: int = WIDTH) -> None:
    """Every line within ``width`` columns, the closing signature's too (broken after its '|' separators)."""
    wide = [line for line in text.splitlines() if _columns(line) > width]
    assert not wide, wide[:3]
    assert signature_of(text).startswith("clfeval:")


#: Labels a terminal report must survive: 200 characters with and without spaces, wide CJK, combining marks, emoji.
ADVERSARIAL = (
    "x" * 200,
    "a long label " * 15 + "end",
    "日本語のラベル" * 20,
    "e\u0301" * 120 + "!",
    "🙂" * 60,
    "short",
)


def _adversarial(n_labels: int = 0) -> tuple[list[str], list[str]]:
    labels = list(ADVERSARIAL) + [f"label number {i} of many" for i in range(n_labels)]
    gold = [labels[i % len(labels)] for i in range(3 * len(labels))]
    pred = [labels[(i + 1) % len(labels)] if i % 4 == 0 else g for i, g in enumerate(gold)]
    return gold, pred


@pytest.mark.parametrize("n_labels", [0, 60])
@pytest.mark.parametrize("options", [{}, {"measures": "all"}, {"measures": "all", "verbose": True}])
def test_every_text_report_fits_100_columns_whatever_the_labels(n_labels: int, options: dict) -> None:
    gold, pred = _adversarial(n_labels)
    score = clfeval.score(gold, pred)
    for result in (score, clfeval.with_intervals(score, "delta")):
        text = result.render("text", **options)
        _assert_fits(text)
        assert "…" in text and "x" * 200 not in text  # shortened in text …
    assert "x" * 200 in score.render("json") and "x" * 200 in score.render("csv")  # … whole in JSON and CSV
    folds = [i % 3 for i in range(len(gold))]
    _assert_fits(clfeval.cv(gold, pred, folds).render("text", **options))
    systems = {ADVERSARIAL[1]: pred, ADVERSARIAL[2]: gold[::-1], "🙂 " * 40: gold}
    comparison = clfeval.compare(gold, systems, test=clfeval.Test(seed=1, rounds=50))
    _assert_fits(comparison.render("text", verbose=options.get("verbose", False)))


def _rows(text: str, title: str) -> list[str]:
    """The rows of the first text table whose title starts with ``title``: the lines between its rule and a blank."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rule = next(i for i in range(start, len(lines)) if lines[i].startswith("-"))
    end = next((i for i in range(rule, len(lines)) if not lines[i]), len(lines))
    return lines[rule + 1 : end]


def test_labels_that_shorten_alike_are_numbered_wherever_they_are_shortened() -> None:
    """Four 201-character labels that differ only in the middle shortened to one text in every row of the per-label
    table and the matrix: each is now numbered wherever it is shortened, a note gives each number's label whole, and
    a long label that reads like no other keeps its plain shortening. System names in compare the same."""
    labels = ["x" * 100 + c + "y" * 100 for c in "ABCD"]
    other = "z" * 150
    gold = [labels[i % 4] for i in range(20)] + [other]
    pred = [labels[(i * 3) % 4] for i in range(20)] + [other]
    for width in (100, 60):
        text = clfeval.score(gold, pred, ci="delta").render("text", width=width)
        _assert_fits(text, width)
        for title in ("per label, with 95% CIs", "confusion matrix"):
            names = [row.split("  ")[0] for row in _rows(text, title)]
            assert len(set(names)) == len(names) == 5, names
            assert [name.endswith(f" [{n}]") for n, name in enumerate(names, start=1)] == [True] * 4 + [False]
        whole = re.sub(r"\s+", "", text)  # the note's lines joined (a long label breaks where it must)
        assert all(f"[{n}]'{label}'" in whole for n, label in enumerate(labels, start=1))
        assert "shortened labels or names that would read alike are numbered" in " ".join(text.split())
        assert "[5]" not in text
    systems = {"system_" + "x" * 60 + c + "y" * 60: pred if c == "A" else gold for c in "ABC"}
    text = clfeval.compare(gold, systems, test=clfeval.Test(seed=1, rounds=50)).render("text")
    _assert_fits(text)
    names = [row.split("  ")[0] for row in _rows(text, "scores")]
    assert names[0].endswith(" [1]") and len(set(names)) == 3, names
    pairs = _rows(text, "pairs (")
    for row in pairs:  # the columns A and B, 20 columns wide: each system's name with its number
        a, b = re.split(r"\s{2,}", row)[1:3]
        assert a != b and re.search(r" \[\d\]$", a) and re.search(r" \[\d\]$", b), row
    assert len(pairs) == 3


@pytest.mark.parametrize("width", [40, 60, 100])
def test_the_signature_breaks_after_its_separators_and_joins_back(width: int) -> None:
    """The signature line (105 columns with --ci delta, ~170 in compare) breaks after a '|' (after a ',' in a part too
    long for a line, anywhere in a piece longer still: a baseline's long name), each further line indented."""
    name = "b" * 150
    signature = (
        f"signature: clfeval:0.2.0|task:single-label|labels:union(3)|beta:1|zero:0,include|lfb:test|systems:2|"
        f"baseline:{name}|test:ar,two-sided,n=10000,seed=1439420413,exact_limit=100000,alpha=0.05,holm|ci:none"
    )
    lines = signature_lines(signature, width)
    assert all(len(line) <= width for line in lines) and len(lines) > 2
    assert signature_of("\n".join(lines)) == signature.removeprefix("signature: ")
    assert lines[0].endswith("|") and all(line.startswith("  ") for line in lines[1:])
    assert signature_lines("signature: clfeval:0.2.0|ci:none", width) == ["signature: clfeval:0.2.0|ci:none"]


def test_average_titles_name_the_measure_shown_when_f_is_not() -> None:
    """With --measures jaccard the average rows read "macro (AF: mean of per-label F1)" beside Jaccard alone: without F
    among the shown measures, macro's title names the measure shown and macro_fa's says it is macro's but for F."""
    r = clfeval.score(*_nasty_data())
    for ci in (False, True):
        result = clfeval.with_intervals(r, "delta") if ci else r
        jaccard = result.render("text", measures="jaccard")
        assert "macro (mean of per-label Jaccard)" in jaccard and "macro_fa (as macro but for F)" in jaccard
        averages = "\n".join(_rows(jaccard, "averages over the label set"))
        assert "AF:" not in averages and "FA:" not in averages and "F1" not in averages
        assert "macro (mean of per-label scores)" in result.render("text", measures="precision,recall")
        assert "macro (AF: mean of per-label F1)" in result.render("text", measures="jaccard,f1")
    assert "macro (mean of per-label Jaccard)" in r.render("html", measures="jaccard")


def test_a_narrower_width_is_kept_too() -> None:
    gold, pred = _adversarial(12)
    for width in (40, 60, 80):
        _assert_fits(clfeval.score(gold, pred, ci="delta").render("text", width=width, measures="all"), width)
    with pytest.raises(OptionError, match="width must be a whole number of at least 40"):
        clfeval.score(gold, pred).render("text", width=20)


def test_the_width_is_the_terminal_s_up_to_100_and_100_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert terminal_width() == WIDTH == 100  # pytest captures standard output: not a terminal
    monkeypatch.setattr("sys.stdout", Terminal())
    for columns, width in (("70", 70), ("300", 100), ("20", 40)):
        monkeypatch.setenv("COLUMNS", columns)
        assert terminal_width() == width


def test_labels_shorten_in_the_middle_and_text_wraps_by_terminal_columns() -> None:
    assert shorten("intent_book_a_table_for_two", 12) == "intent…r_two"
    assert shorten("short", 12) == "short"
    assert _columns(shorten("日本語のラベル" * 5, 11)) <= 11
    assert wrap("one two three four", 10, "- ", "  ") == ["- one two", "  three", "  four"]
    assert all(_columns(line) <= 20 for line in wrap("日本語" * 20 + " tail", 20, "  - ", "    "))
    assert wrap("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # a word longer than a line is broken


def _table_titles(text: str) -> dict[str, list[str]]:
    """Each table's column titles (the overall table's: its measures' names), by table title, across parts."""
    out: dict[str, list[str]] = {}
    blocks = text.split("\n\n")
    for block in blocks:
        lines = block.splitlines()
        if len(lines) < 3 or not lines[0].endswith(":") or not set(lines[2]) <= {"-", " "}:
            continue
        title = lines[0][:-1].removesuffix(" (continued)")
        if title == "overall":
            out[title] = [line.split(" (", 1)[0] for line in lines[3:]]
        else:
            out.setdefault(title, []).extend(re.split(r"\s{2,}", lines[1].strip())[1:])
    return out


#: The measures every score's text report showed before issue 30 (tests/data/golden/single.txt and multi.txt at
#: 24ea865): per label the counts and every measure, every averaged measure, every overall measure of the family.
BEFORE = {
    "single-label": {
        "per label": ["support", "predicted", "tp", "fp", "fn", "tn", "precision", "recall", "F1", "specificity",
                      "NPV", "FPR", "FNR", "Jaccard"],
        "averages over the label set": ["precision", "recall", "F1", "specificity", "Jaccard"],
        "overall": ["accuracy", "Hamming loss", "micro FPR", "balanced accuracy", "balanced accuracy, adjusted",
                    "MCC", "Cohen's κ", "κ, linear weights", "κ, quadratic weights"],
    },
    "multi-label": {
        "per label": ["support", "predicted", "tp", "fp", "fn", "tn", "precision", "recall", "F1", "specificity",
                      "NPV", "FPR", "FNR", "Jaccard"],
        "averages over the label set": ["precision", "recall", "F1", "specificity", "Jaccard"],
        "overall": ["subset accuracy", "Hamming loss", "micro FPR"],
    },
}  # fmt: skip


def test_measures_all_shows_every_measure_shown_before() -> None:
    for result in (_example(), _multilabel()):
        shown = _table_titles(result.render("text", measures="all"))
        expected = BEFORE[result.task]
        assert {k: shown[k] for k in expected} == expected
        # and the registry agrees: every measure of the family has its column or row
        titles = {*shown["per label"], *shown["overall"]}
        for m in (*label_measures(), *overall_measures(result.family)):
            assert (m.title_for(result.family) if m.name != "f" else "F1") in titles, m.name


def test_the_default_measures_are_what_classification_report_and_conlleval_show() -> None:
    single = _table_titles(_example().render("text"))
    assert single["per label"] == ["support", "precision", "recall", "F1"]
    assert single["averages over the label set"] == ["precision", "recall", "F1"]
    # the example declares its labels (an order): weighted κ joins the four
    assert single["overall"] == ["accuracy", "balanced accuracy", "MCC", "Cohen's κ", "κ, linear weights",
                                 "κ, quadratic weights"]  # fmt: skip
    union = _table_titles(clfeval.score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2]).render("text"))
    assert union["overall"] == ["accuracy", "balanced accuracy", "MCC", "Cohen's κ"]
    multi = _table_titles(_multilabel().render("text"))
    assert multi["per label"] == ["support", "precision", "recall", "F1"]
    assert multi["overall"] == ["subset accuracy", "Hamming loss"]
    assert "samples (mean over instances)" in _multilabel().render("text")  # every average, samples too
    with_ci = _table_titles(clfeval.with_intervals(_example(), "delta").render("text"))
    assert with_ci["per label, with 95% CIs"] == ["support", "precision", "95% CI", "recall", "95% CI", "F1",
                                                  "95% CI"]  # fmt: skip


def test_a_list_of_measures_shows_those_and_the_same_in_every_human_format() -> None:
    r = clfeval.score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2], ci="delta")
    shown = _table_titles(r.render("text", measures="npv,fpr,jaccard"))
    assert shown["per label, with 95% CIs"] == ["support", "NPV", "95% CI", "FPR", "95% CI", "Jaccard", "95% CI"]
    assert shown["averages over the label set"] == ["Jaccard", "95% CI"] and "overall" not in shown
    assert _table_titles(r.render("text", measures=["default", "mcc", "npv"]))["per label, with 95% CIs"][-2:] == [
        "NPV",
        "95% CI",
    ]
    for fmt in ("markdown", "latex", "html"):
        out = r.render(fmt, measures="npv,fpr,jaccard")
        assert "NPV" in out and "Jaccard" in out and "specificity" not in out, fmt
        default = r.render(fmt)
        assert "NPV" not in default and "Jaccard" not in default and "Hamming" not in default, fmt
        assert "NPV" in r.render(fmt, measures="all") and "Hamming" in r.render(fmt, measures="all"), fmt
    # JSON and CSV keep everything, whatever the selection
    assert r.render("json", measures="mcc") == r.render("json") == r.to_json() + "\n"
    assert r.render("csv", measures="mcc") == r.render("csv")


def test_an_unknown_measure_is_a_one_line_error_that_lists_the_valid_ones() -> None:
    r = _example()
    with pytest.raises(OptionError) as info:
        r.render("text", measures="npv,presicion")
    message = str(info.value)
    assert "\n" not in message and "'presicion'" in message
    assert all(name in message for name in ("all", "default", "counts", *MEASURES))
    with pytest.raises(OptionError, match="not a measure of multi-label data"):
        _multilabel().render("text", measures="mcc")
    with pytest.raises(OptionError, match="names no measure"):
        r.render("markdown", measures=" , ")
    with pytest.raises(OptionError, match="unknown render option"):
        r.render("text", measure="mcc")
    assert "subset accuracy" in _multilabel().render("text", measures="subset_accuracy")
    assert "F1" in r.render("text", measures="f1") and "F2" in clfeval.score(
        ["a", "b"], ["a", "a"], scoring=clfeval.Scoring(beta=2)
    ).render("text", measures="f2")


_WEIGHTED = ("κ, linear weights", "κ, quadratic weights")


def _human(result: clfeval.Scores, **options: object) -> dict[str, str]:
    return {fmt: result.render(fmt, **options) for fmt in ("text", "markdown", "latex", "html")}


def _has_weighted_kappa(fmt: str, out: str) -> bool:
    titles = [t.replace("κ", r"\ensuremath{\kappa}") if fmt == "latex" else t for t in _WEIGHTED]
    return any(t in out for t in titles)


def test_weighted_kappa_shows_only_where_an_order_is_declared_in_every_human_format() -> None:
    """Issue 38: labels= alone declares no order (nominal classes 'cat', 'dog', 'bird' are not a scale): weighted κ
    is absent from every human format, flat() and the frames, and null in the JSON with the reason; ordinal=
    declares an order (a list, or True: the declared labels' order, else numerical) and brings it back."""
    gold, pred = ["low", "mid", "high", "mid", "high", "low"], ["mid", "mid", "high", "low", "mid", "low"]
    rank = {"low": 1, "mid": 2, "high": 10}
    undeclared = {
        "none": clfeval.score(gold, pred),
        "labels": clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=["low", "mid", "high"])),
    }
    for how, result in undeclared.items():
        for fmt, out in _human(result).items():
            assert not _has_weighted_kappa(fmt, out) and "kappa_linear" not in out, (how, fmt)
            assert "Cohen" in out and "MCC" in out, fmt
        data = result.to_dict()
        assert data["kappa_linear"] is None and data["kappa_quadratic"] is None  # the JSON keeps its keys
        assert (
            data["label_order"]["order"] is None
            and "no order of the labels was declared" in data["label_order"]["rule"]
        )
        assert "kappa_linear" not in result.flat() and "kappa_linear" not in result.names()
        assert "kappa_linear" not in list(result.to_pandas("overall")["measure"])
        with pytest.raises(OptionError, match="no order of the labels was declared"):  # asked for by name
            result.render("text", measures="default,kappa_linear")
        with pytest.raises(OptionError, match="ordinal="):
            result["kappa_quadratic"]
    declared = {
        "list": clfeval.score(gold, pred, ordinal=["low", "mid", "high"]),
        "labels": clfeval.score(gold, pred, labels=["low", "mid", "high"], ordinal=True),
        "ordinal": clfeval.score(  # numbers on a scale: ordinal=True orders them numerically
            [rank[g] for g in gold], [rank[p] for p in pred], scoring=clfeval.Scoring(ordinal=True)
        ),
    }
    for how, result in declared.items():
        for fmt, out in _human(result).items():
            assert _has_weighted_kappa(fmt, out), (how, fmt)
            assert "reads the labels as ordered" in out, (how, fmt)
        assert "kappa_linear" in result.flat() and result.to_dict()["kappa_linear"] == result["kappa_linear"]
    assert "'low' < 'mid' < 'high': ordinal=[...]: the order given" in " ".join(declared["list"].render("text").split())
    assert "'low' < 'mid' < 'high': ordinal=True (--ordinal) with declared labels" in " ".join(
        declared["labels"].render("text").split()
    )
    assert "'1' < '2' < '10': ordinal=True (--ordinal): the labels' numerical order" in " ".join(
        declared["ordinal"].render("text").split()
    )
    assert declared["ordinal"].options["ordinal"] is True and "ordinal" not in undeclared["none"].options
    assert declared["list"].to_dict()["label_order"]["order"] == ["low", "mid", "high"]
    with pytest.raises(OptionError, match="ordinal is the labels in their order"):
        clfeval.Scoring(ordinal="yes")


@pytest.mark.parametrize("source", [None, "gold"])
def test_ordinal_refuses_labels_that_are_not_numbers(source: str | None) -> None:
    """--ordinal orders numbers numerically; a stray label ('NA') beside them has no place in that order: a one-line
    error naming it and saying how to declare an order, never an order of text ('1' < '10' < '2' < 'NA')."""
    gold, pred = ["1", "2", "10", "NA"], ["1", "10", "2", "2"]
    with pytest.raises(OptionError, match=r"not a number: 'NA'; declare their order with --ordinal and --labels FILE"):
        clfeval.score(gold, pred, scoring=clfeval.Scoring(ordinal=True, labels_from=source))
    with pytest.raises(OptionError, match="not a number: 'nan'"):  # NaN is no place on a scale either
        clfeval.score(["1", "nan"], ["1", "1"], scoring=clfeval.Scoring(ordinal=True))
    declared = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=["1", "2", "10", "NA"], ordinal=True))
    assert "'1' < '2' < '10' < 'NA': ordinal=True (--ordinal) with declared labels" in " ".join(
        declared.render("text").split()
    )


def test_cli_ordinal_and_labels_declare_an_order(tmp_path: Path) -> None:
    """--ordinal declares the order: the --labels file's order with --labels, else numerical; --labels alone
    declares none (issue 38)."""
    path = tmp_path / "run.txt"
    path.write_text("w1 1 1\nw2 2 3\nw3 3 3\nw4 10 2\nw5 2 2\n")
    plain = run_cli("score", str(path)).stdout.decode()
    ordinal = run_cli("score", str(path), "--ordinal").stdout.decode()
    assert "κ, linear weights" not in plain and "κ, linear weights" in ordinal
    assert "'1' < '2' < '3' < '10'" in ordinal  # numbers in numerical order
    labels = tmp_path / "labels.txt"
    labels.write_text("10\n3\n2\n1\n")
    alone = run_cli("score", str(path), "--labels", str(labels)).stdout.decode()
    assert "κ, quadratic weights" not in alone
    given = run_cli("score", str(path), "--labels", str(labels), "--ordinal").stdout.decode()
    assert "'10' < '3' < '2' < '1'" in given and "κ, quadratic weights" in given
    data = json.loads(run_cli("score", str(path), "--ordinal", "--format", "json").stdout)
    unordered = json.loads(run_cli("score", str(path), "--labels", str(labels), "--format", "json").stdout)
    assert data["options"]["ordinal"] is True and "ordinal" not in unordered["options"]
    assert data["label_order"]["order"] == ["1", "2", "3", "10"] and unordered["kappa_linear"] is None
    stray = tmp_path / "stray.tsv"
    stray.write_text("1\t1\n2\t10\n10\t2\nNA\t2\n")
    refused = run_cli("score", str(stray), "--ordinal")
    assert refused.returncode == 2 and refused.stdout == b""
    message = refused.stderr.decode()
    assert message.count("\n") == 1 and "'NA'" in message and "--labels FILE" in message, message


def test_verbose_notes_define_every_average_and_measure_the_default_says_what_moved_a_number() -> None:
    r = clfeval.score(
        clfeval.read("examples/pos-tagger.txt"), scoring=clfeval.Scoring(train="examples/pos-train.txt", beta=2)
    )
    short = r.render("text").split("\nnotes:\n")[1].splitlines()
    joined = " ".join(" ".join(short).split())
    assert "label set L (train): the labels of the training data" in joined
    assert "lfb: weighted by the training data's label frequencies (examples/pos-train.txt)" in joined
    assert "β = 2: F2 weighs recall 2 times as much as precision" in joined
    assert "0/0" not in joined  # the warnings name the labels 0/0 touched and what was done
    for formula in ("micro: the measure on", "macro: unweighted mean", "mcc: Matthews", "kappa: (p_o", "inputs:"):
        assert formula not in joined, formula
    verbose = " ".join(r.render("text", verbose=True).split())
    for name in ("micro", "macro", "macro_fa", "weighted", "lfb", "balanced_accuracy", "mcc", "kappa"):
        assert f" {name}: " in verbose, name
    assert "single-label data: micro precision = micro recall" in verbose and "inputs: file=" in verbose
    assert "MCC, κ and balanced accuracy run over every label of the confusion matrix" in verbose
    assert "kappa_linear:" not in verbose  # weighted κ is not shown, so neither is its definition
    assert "kappa_linear:" not in " ".join(r.render("text", verbose=True, measures="all").split())  # no order
    ranked = clfeval.score(  # an order declared (issue 38): weighted κ and its definition
        clfeval.read("examples/pos-tagger.txt"), ordinal=sorted(r.table)
    )
    assert "kappa_linear:" in " ".join(ranked.render("text", verbose=True, measures="all").split())
    for fmt in ("markdown", "latex", "html"):
        assert "mcc: Matthews" in r.render(fmt, verbose=True) and "mcc: Matthews" not in r.render(fmt), fmt


def test_interval_notes_are_one_line_by_default_and_in_full_with_verbose() -> None:
    r = clfeval.with_intervals(_example(), clfeval.CI("bootstrap", resamples=200, seed=3))
    short = " ".join(r.render("text").split("\nnotes:\n")[1].split())
    assert "intervals: 95% bootstrap, 200 resamples, seed 3" in short
    assert "only 200 resamples" in short  # a caution stays
    assert "percentile" not in short and "'4' FNR" not in short  # the method's definition; a score not shown
    verbose = " ".join(r.render("text", verbose=True).split())
    assert "percentile" in verbose and "'4' FNR" in verbose


def test_the_golden_notes_show_what_moved_a_number() -> None:
    text = (GOLDEN / "single.txt").read_text(encoding="utf-8").replace("<version>", clfeval.__version__)
    notes = text.split("\nnotes:\n")[1].splitlines()
    assert all(len(n) <= 100 for n in notes) and signature_of(text).endswith("|ci:none")
    assert sum(n.startswith("  - ") for n in notes) == 3  # label set, declared labels never seen, κ's order


def test_the_zero_division_note_says_what_the_warnings_do_not() -> None:
    clean = clfeval.score(["a", "b", "b"], ["a", "b", "a"], scoring=clfeval.Scoring(zero_division=1))
    assert "0/0: set to 1 and included in averages; no score shown is 0/0" in clean.render("text")
    assert "0/0" not in clfeval.score(["a", "b", "b"], ["a", "b", "a"]).render("text").split("\nnotes:\n")[1]
    everywhere = clfeval.score(["a", "b", "b"], ["a", "a", "a"])  # 'a' predicted for every instance: NPV is 0/0
    notes = " ".join(everywhere.render("text", measures="npv").split("\nnotes:\n")[1].split())
    assert "it touched NPV of 'a'" in notes
