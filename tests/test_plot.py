"""``--plot DIR``: the report's figures as PNG and SVG files (matplotlib), and a clear hint when matplotlib is
missing."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import clfeval
from tests.conftest import cli_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("matplotlib", reason="matplotlib (the plot extra, part of the test extras) is not installed")

FIGURES = {
    "score": ["confusion", "confusion-row", "confusion-column", "per-label"],
    "compare": ["differences", "per-label-differences"],
    "cv": ["folds", "confusion", "confusion-row", "confusion-column", "per-label"],
}


def _svg_text(path: Path) -> str:
    root = ET.parse(path).getroot()  # well-formed XML, text kept as text
    return " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))


def test_score_plots_are_png_and_svg_with_labels_as_written(tmp_path: Path) -> None:
    data = tmp_path / "data.txt"
    rows = ["a a", "a b", "b b", "$x$ $x$", "<b>&c a", "b <b>&c"] * 5
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = run_cli("score", str(data), "--ci", "delta", "--plot", "figs", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    assert b"wrote 8 files (4 figures as PNG and SVG) to figs" in out.stderr
    assert out.stdout.startswith(b"clfeval score")  # the report still goes to standard output
    written = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert written == sorted(f"{name}.{ext}" for name in FIGURES["score"] for ext in ("png", "svg"))
    for name in FIGURES["score"]:
        assert (tmp_path / "figs" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = _svg_text(tmp_path / "figs" / "confusion.svg")
    assert "$x$" in text and "<b>&c" in text  # math mode off; XML escaping done by the writer
    assert "confusion matrix: counts" in text
    assert "recall view" in _svg_text(tmp_path / "figs" / "confusion-row.svg")
    assert "precision" in _svg_text(tmp_path / "figs" / "per-label.svg")


def test_svg_files_are_reproducible(tmp_path: Path) -> None:
    from clfeval.render.plot import write_plots

    result = clfeval.with_intervals(clfeval.score(list("aabbc"), list("abbcc")), "delta")
    first = {p.name: p.read_bytes() for p in result.plot(tmp_path / "one") if p.suffix == ".svg"}
    second = {p.name: p.read_bytes() for p in write_plots(result, tmp_path / "two") if p.suffix == ".svg"}
    assert first == second and len(first) == 4


def test_compare_and_cv_plots(tmp_path: Path) -> None:
    from clfeval.render.plot import write_plots

    gold = list("abcabcabcaab")
    cmp = clfeval.compare(gold, {"X": list("abcabbaacaab"), "Y": list("abccbcabbaab")}, test=clfeval.Test(seed=1))
    names = {p.stem for p in write_plots(cmp, tmp_path / "cmp")}
    assert names == set(FIGURES["compare"])
    cv = clfeval.cv(gold, list("abcabbaacaab"), [k % 3 for k in range(12)])
    names = {p.stem for p in write_plots(cv, tmp_path / "cv")}
    assert names == set(FIGURES["cv"])
    assert "pooled" in _svg_text(tmp_path / "cv" / "folds.svg")


def test_plot_into_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("", encoding="utf-8")
    (tmp_path / "d.txt").write_text("a a\nb a\n", encoding="utf-8")
    cli_error(run_cli("score", "d.txt", "--plot", "taken", cwd=tmp_path), "--plot directory", "taken")


def test_missing_matplotlib_gives_the_install_hint(tmp_path: Path) -> None:
    (tmp_path / "d.txt").write_text("a a\nb a\n", encoding="utf-8")
    # a real run of the command in an interpreter where matplotlib cannot be imported
    code = (
        "import sys; sys.modules['matplotlib'] = None; from clfeval.cli import main; "
        "sys.exit(main(['score', 'd.txt', '--plot', 'figs']))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path, env=env, timeout=60)
    cli_error(out, "--plot needs matplotlib", "pip install 'clfeval[plot]'")
    assert not (tmp_path / "figs").exists()


@pytest.mark.slow
def test_percentile_intervals_that_leave_out_their_estimate_are_drawn(tmp_path: Path) -> None:
    from clfeval.render.plot import write_plots

    # twenty labels seen once: resamples lose most of them, so the bootstrap's macro F1 sits below the estimate
    gold = ["a"] * 20 + [f"s{k}" for k in range(20)]
    pred = ["s0"] + gold[1:]
    cv = clfeval.cv(gold, pred, [k % 2 for k in range(40)], ci=clfeval.CI("bootstrap", resamples=300, seed=1))
    low, high = cv.pooled.intervals.get(("averages", "macro", "f"))
    assert not low <= cv.pooled.averages["macro"]["f"] <= high  # the case this test is about
    assert {p.stem for p in write_plots(cv, tmp_path / "cv")} == set(FIGURES["cv"])
    cmp = clfeval.compare(
        gold,
        {"X": pred, "_base": ["a"] * 40},
        metrics=["macro.f1", "accuracy"],
        test=clfeval.Test(rounds=300, seed=1, ci="bootstrap"),
    )
    assert any(not p.ci[0] <= p.difference <= p.ci[1] for p in cmp.pairs)
    write_plots(cmp, tmp_path / "cmp")
    assert "X − _base" in _svg_text(tmp_path / "cmp" / "per-label-differences.svg")  # "_" names stay in the legend


def test_control_characters_in_labels_keep_the_svg_valid(tmp_path: Path) -> None:
    from clfeval.render.plot import write_plots

    result = clfeval.score(["a\x01b", "c\td", "a\x01b"], ["a\x01b", "a\x01b", "c\td"])
    write_plots(result, tmp_path)
    assert "a\\x01b" in _svg_text(tmp_path / "confusion.svg")  # shown as an escape; the XML parses


def test_results_without_figures_say_so() -> None:
    with pytest.raises(clfeval.OptionError, match=r"a convert result has no figures \(score, compare and cv"):
        clfeval.convert(tp=3, fp=1, fn=2).plot("unused")


def test_each_result_says_which_formats_it_renders_to() -> None:
    """A result names its formats and figures; asking for another is a clear error, not a crash in a renderer."""
    conversion = clfeval.convert(tp=3, fp=1, fn=2)
    assert conversion.formats == ("text", "json", "markdown", "csv", "latex")
    with pytest.raises(
        clfeval.OptionError,
        match=r"a convert result renders as text, json, markdown, csv, latex, "
        r"not html \(html is for score, compare, cv, slices results\)",
    ):
        conversion.render("html")
    score = clfeval.score(["a", "b"], ["a", "a"])
    assert "html" in score.formats and len(score.figures()) == 2
    for fmt in score.formats:
        assert score.render(fmt)
    with pytest.raises(clfeval.OptionError, match="unknown"):
        score.render("pdf")
