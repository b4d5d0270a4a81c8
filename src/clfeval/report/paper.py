"""Tables for a paper: one cell per score with its interval beside it, and captions that say everything.

A score's report carries these (:attr:`clfeval.report.tables.Report.paper`) beside its screen tables: per label
(precision, recall and F first, then the further measures), the averages (the same split), the overall
measures and the confusion matrix, each caption stating N, the label set and its source and the interval
method. The LaTeX renderer sets them; any report without them is set from its screen tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from clfeval.infer.methods import INTERVAL_METHODS
from clfeval.report.tables import Bounds, Table, average_title
from clfeval.report.view import View
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.measures import MEASURES
from clfeval.scoring.scores import Key, Scores

__all__ = ["CaptionedTable", "Estimate", "Subscript", "estimate_of", "kind_of", "score_paper_tables", "sentence"]

#: The measures of the first per-label and averages tables; the others follow in a table of their own.
_FIRST = ("precision", "recall", "f")


class Estimate(NamedTuple):
    """A score cell with its interval beside it (``bounds`` None: the result has no intervals; ``Bounds(None,
    None)``: this score has none) and, for an interval with a remark, what kind (``zero width`` …)."""

    value: float
    bounds: Bounds | None
    remark: str = ""


class Subscript(str):
    """A column title with a subscript, F_1: reads ``F1`` as text; typeset renderers set ``base`` and ``sub``."""

    base: str
    sub: str

    def __new__(cls, base: str, sub: str) -> Subscript:
        made = super().__new__(cls, base + sub)
        made.base, made.sub = base, sub
        return made


@dataclass(frozen=True)
class CaptionedTable:
    """A table whose caption is its title, then its context (what the numbers are of and how they were made)."""

    title: str
    context: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (a title as a caption)."""
    return text[:1].upper() + text[1:]


def _context(scores: Scores, intervals: bool = True) -> str:
    """What a score table's caption states: N, the label set and its source, the intervals (when ``intervals``)."""
    text = (
        f"N = {scores.n_instances} instances ({scores.task}); label set L: {len(scores.labels)} labels, source: "
        f"{scores.label_source} ({LABEL_SOURCES[scores.label_source]})."
    )
    iv = scores.intervals
    if iv is not None and intervals:
        text += (
            f" In brackets: {100 * iv.confidence:g}% {iv.method} intervals "
            f"({INTERVAL_METHODS[iv.method].short if iv.method in INTERVAL_METHODS else iv.definition}"
        )
        text += f"; {iv.resamples} resamples, seed {iv.seed}" if iv.resamples is not None else ""
        text += f"; over {iv.n_units} {iv.unit}" if iv.unit != "instances" else ""
        text += ")."
    return text


def kind_of(remark: str) -> str:
    """A remark on an interval in short: its words before the colon (``clipped to [0, 1]``)."""
    return remark.split(":")[0]


def estimate_of(scores: Scores, key: Key, value: float) -> Estimate:
    """A score and its interval (if the result has intervals), marked when the interval has a remark."""
    iv = scores.intervals
    if iv is None:
        return Estimate(value, None)
    got, remark = iv.get(key), iv.remarks.get(key, "")
    return Estimate(
        value, Bounds(None, None) if got is None else Bounds(got[0], got[1], "†" if remark else ""), kind_of(remark)
    )


def _groups(measures: Sequence[str]) -> list[list[str]]:
    """Measures split for tables that fit a page: precision, recall and F first, then the rest."""
    return [g for g in ([m for m in measures if m in _FIRST], [m for m in measures if m not in _FIRST]) if g]


def score_paper_tables(scores: Scores, tables: Sequence[Table], view: View | None = None) -> tuple[CaptionedTable, ...]:
    """The per-label, averages, overall and confusion-matrix tables of a score result, for a paper (the overall
    and matrix tables from the report's ``tables``), with the measures ``view`` shows (default: every one)."""
    view = view or View(("all",))
    iv = scores.intervals

    def head(measures: Sequence[str]) -> list[str]:
        return [Subscript("F", f"{scores.beta:g}") if m == "f" else MEASURES[m].title for m in measures]

    out: list[CaptionedTable] = []
    context = _context(scores)
    for i, measures in enumerate(_groups(view.label_measures(scores))):
        per_label = tuple(
            (lab, r.support, *(estimate_of(scores, ("per_label", lab, m), r[m]) for m in measures))
            for lab, r in scores.per_label.items()
        )
        title = (
            "Per-label scores (support: the label's occurrences in the gold data)"
            if i == 0
            else "Further per-label scores"
        )
        out.append(CaptionedTable(title, context, ("label", "support", *head(measures)), per_label))
    for i, measures in enumerate(_groups(view.averaged(scores))):
        averages = tuple(
            (
                average_title(name, scores, measures),
                *(estimate_of(scores, ("averages", name, m), v[m]) for m in measures),
            )
            for name, v in scores.averages.items()
        )
        title = "Averages over the label set L, each named by its formula" if i == 0 else "Further averages over L"
        out.append(CaptionedTable(title, context, ("average", *head(measures)), averages))
    for table in tables:
        if table.key == "overall":
            # the overall measures are the result's one-part keys; a marked row is told by every kind they have
            kinds = (
                ", or ".join(dict.fromkeys(kind_of(why) for key, why in iv.remarks.items() if len(key) == 1))
                if iv is not None
                else ""
            )
            rows = tuple(
                (title, Estimate(value, bounds[0] if bounds else None, kinds)) for title, value, *bounds in table.rows
            )
            out.append(CaptionedTable("Overall measures", context, ("measure", "value"), rows))
        elif table.key.startswith("matrix"):
            out.append(CaptionedTable(sentence(table.title), _context(scores, False), table.columns, table.rows))
    return tuple(out)
