"""Rendering: a result as text, JSON, Markdown, CSV or LaTeX. The registry :data:`RENDERERS` names them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from clfeval.errors import unknown_name
from clfeval.render.csv import render_csv
from clfeval.render.html import render_html
from clfeval.render.json import render_json
from clfeval.render.latex import render_latex
from clfeval.render.markdown import render_markdown
from clfeval.render.text import render_text
from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.score.result import Scores

__all__ = ["RENDERERS", "render"]

#: Output formats, by name: (renderer, one-line description).
RENDERERS: Mapping[str, tuple[Callable[..., str], str]] = {
    "text": (render_text, "a terminal report: tables, the confusion matrix, and notes defining every average"),
    "json": (render_json, "the versioned JSON contract (clfeval.score/1, clfeval.compare/1, clfeval.cv/1)"),
    "markdown": (render_markdown, "the report's tables as Markdown"),
    "csv": (render_csv, "tidy rows: section,label,measure,value"),
    "latex": (render_latex, "booktabs tables (per-label and averaged scores, with intervals), labels escaped, to paste "
                            "into a paper"),
    "html": (render_html, "one self-contained page (score, compare, cv): summary with definitions, heat map, dot "
                          "plots with intervals, provenance; write it with -o report.html"),
}


def render(result: Scores | Comparison | CrossValidation, fmt: str = "text", **options: Any) -> str:
    """Render a result in the format ``fmt`` (a name from :data:`RENDERERS`)."""
    if fmt not in RENDERERS:
        raise unknown_name("output format", fmt, RENDERERS)
    return RENDERERS[fmt][0](result, **options)
