"""Rendering: a result as text, JSON, Markdown, CSV or LaTeX. The registry :data:`RENDERERS` names them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from clfeval.errors import OptionError, unknown_name

if TYPE_CHECKING:
    from clfeval.result import Result

__all__ = ["RENDERERS", "RENDER_OPTIONS", "check_render_options", "render"]

#: The narrowest a text report may be asked to be (``width``).
_MIN_WIDTH = 40


def _renderer(name: str) -> Callable[..., str]:
    """The renderer ``render_<name>`` of ``clfeval.render.<name>``, imported when it is first called (a command
    that writes JSON does not import the HTML page's builders)."""

    def renderer(result: Result, **options: Any) -> str:
        function: Callable[..., str] = getattr(importlib.import_module(f"clfeval.render.{name}"), f"render_{name}")
        return function(result, **options)

    renderer.__name__ = renderer.__qualname__ = f"render_{name}"
    return renderer


#: Output formats, by name: (renderer, one-line description).
RENDERERS: Mapping[str, tuple[Callable[..., str], str]] = {
    "text": (
        _renderer("text"),
        "a terminal report within 100 columns: tables, the confusion matrix, and notes on what moved a number",
    ),
    "json": (_renderer("json"), "the versioned JSON contract (clfeval.score/2, clfeval.compare/2, clfeval.cv/2)"),
    "markdown": (_renderer("markdown"), "the report's tables as Markdown"),
    "csv": (_renderer("csv"), "tidy rows: section,label,measure,value"),
    "latex": (
        _renderer("latex"),
        "booktabs tables (per-label and averaged scores, with intervals), labels escaped, to paste into a paper",
    ),
    "html": (
        _renderer("html"),
        "one self-contained page (score, compare, cv, score by group): summary with definitions, heat map, dot "
        "plots with intervals (forest plots by group), provenance; write it with -o report.html",
    ),
    "conlleval": (
        _renderer("conlleval"),
        "span results (score --spans): conlleval.pl's report, byte for byte, for scripts that parse it",
    ),
}


#: The options every renderer takes (each uses those that concern its format), by name.
RENDER_OPTIONS: Mapping[str, str] = {
    "digits": "decimals shown in text, Markdown, LaTeX and HTML, 0 to 15 (JSON and CSV keep every digit)",
    "matrix": "whether the confusion matrix is part of the output (--no-matrix: false)",
    "command": "the command line that made the result, for the HTML report's provenance",
    "raw_csv": "CSV cells exactly as written, for programs; by default a text cell a spreadsheet would run as a "
    "formula (=, +, -, @ …) gets a leading apostrophe (a cell holding a line break is quoted either way)",
    "measures": "the measures text, Markdown, LaTeX and HTML show: 'all', or names ('npv,fpr,jaccard', or a list) of "
    "measures and of the groups default, counts, all (default: support, precision, recall and F per label and "
    "averaged; accuracy, balanced accuracy, MCC and κ; weighted κ where an order of the labels is declared); JSON "
    "and CSV keep every measure",
    "verbose": "the full notes: each average's and measure's definition, the inputs, the interval method in full "
    "(default: one line per choice that moved a number)",
    "width": f"the widest line of a text report, at least {_MIN_WIDTH} (default: the terminal's width up to 100, and "
    "100 when standard output is not a terminal)",
}


def check_render_options(fmt: str | None = None, **options: Any) -> None:
    """Refuse an unknown format or option name (listing the valid ones) and values out of range."""
    if fmt is not None and fmt not in RENDERERS:
        raise unknown_name("output format", fmt, RENDERERS)
    for name in options:
        if name not in RENDER_OPTIONS:
            raise unknown_name("render option", name, RENDER_OPTIONS)
    digits = options.get("digits", 4)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 15:
        raise OptionError(f"digits must be a whole number from 0 to 15, not {digits!r}")
    width = options.get("width")
    if width is not None and (isinstance(width, bool) or not isinstance(width, int) or width < _MIN_WIDTH):
        raise OptionError(f"width must be a whole number of at least {_MIN_WIDTH} columns, not {width!r}")
    if "measures" in options or "verbose" in options:
        from clfeval.report.view import View

        View.of(options.get("measures"), options.get("verbose", False))  # an unknown measure stops here


def render(result: Result, fmt: str = "text", **options: Any) -> str:
    """Render a result in the format ``fmt`` (a name from :data:`RENDERERS`) with ``options`` from
    :data:`RENDER_OPTIONS` (an unknown one is an error, not ignored)."""
    check_render_options(fmt, **options)
    if fmt not in result.renders_to():
        raise OptionError(
            f"a {result.kind} result renders as {', '.join(result.renders_to())}, not {fmt} "
            f"({fmt} is for {', '.join(_kinds_with(fmt))} results)"
        )
    return RENDERERS[fmt][0](result, **options)


def _kinds_with(fmt: str) -> list[str]:
    """The kinds of result that render to ``fmt``."""
    from clfeval.infer.comparison import Comparison
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.slices import Sliced
    from clfeval.inverse.audit import Audit
    from clfeval.inverse.conversion import Conversion
    from clfeval.kinds import KINDS
    from clfeval.scoring.finagle import Finagle
    from clfeval.scoring.scores import Scores

    kinds = (Scores, Comparison, CrossValidation, Sliced, Conversion, Audit, Finagle)
    found = [k.kind for k in kinds if fmt in k.formats]
    return found or [f"{kind.name} {k.kind}" for kind in KINDS.values() for k in kinds if fmt in kind.formats]
