"""The shape of the code base: renderers read reports, not results; each result names its report, formats, figures."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import clfeval

SRC = Path(__file__).parents[1] / "src" / "clfeval"
RESULT_TYPES = {"Scores", "Comparison", "CrossValidation", "Conversion", "LabelConversion", "Audit", "Finagle"}


def _modules(package: str) -> list[Path]:
    return sorted((SRC / package).glob("*.py"))


@pytest.mark.parametrize("path", _modules("render") + _modules("report"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_renderer_or_report_switches_on_a_result_type(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            assert not names & RESULT_TYPES, f"{path.name}:{node.lineno} switches on {names & RESULT_TYPES}"


@pytest.mark.parametrize("path", [p for p in _modules("render") if p.name != "__init__.py"], ids=lambda p: p.name)
def test_renderers_import_reports_not_results(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    imported = re.findall(r"^from clfeval\.(\S+) import", text, re.M)
    results = [m for m in imported if m.startswith(("score.result", "infer.", "inverse.", "score.finagle"))]
    assert not results, f"{path.name} imports result modules: {results}"


def test_every_result_names_its_report_formats_and_figures() -> None:
    from clfeval.infer.comparison import Comparison
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.inverse.audit import Audit
    from clfeval.inverse.conversion import Conversion, LabelConversion
    from clfeval.result import Result
    from clfeval.scoring.finagle import Finagle

    for cls in (clfeval.Scores, Comparison, CrossValidation, Conversion, LabelConversion, Audit, Finagle):
        assert issubclass(cls, Result) and cls.kind != "result" and cls.report_builder
        assert set(cls.formats) >= {"text", "json", "markdown", "csv", "latex"}
        assert ("html" in cls.formats) == (cls.figures_builder is not None), cls
