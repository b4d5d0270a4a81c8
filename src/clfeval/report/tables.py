"""Build a :class:`Report` (tables and notes that define every average used) from :class:`Scores`."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any, NamedTuple

import numpy as np

from clfeval.count.labelsets import SplitMatrix
from clfeval.kinds import KINDS
from clfeval.report.matrix import shown_matrix, top_confusions
from clfeval.report.rows import score_rows
from clfeval.scoring.averages import AVERAGED, AVERAGES
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.measures import MEASURES, label_measures, overall_measures
from clfeval.scoring.ratios import f_title
from clfeval.scoring.scores import Key, Scores

__all__ = ["Bounds", "OverallRow", "PValue", "Report", "Table", "overall_rows", "score_report"]

#: How many interval remarks and not-estimable reasons a report lists before pointing to the JSON.
_MAX_LISTED = 12


@dataclass(frozen=True)
class Bounds:
    """A table cell holding a confidence interval, or ``None`` bounds when there is none.

    ``mark`` flags an interval with a remark (clipped, zero width) explained in the notes.
    """

    low: float | None
    high: float | None
    mark: str = ""


class PValue(float):
    """A table cell holding a p-value: shown in scientific notation when below 0.001, so it never reads 0."""


@dataclass(frozen=True)
class Table:
    """A titled table; ``rows`` hold strings or numbers (floats are scores, ints are counts)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    key: str


@dataclass(frozen=True)
class Report:
    """What a reader sees, independent of the output format.

    ``tidy``, when the result has them, builds its tidy rows (header first; :mod:`clfeval.report.rows`) on demand:
    the CSV renderer writes them instead of the tables. ``paper``, when the result has them, are tables for a paper
    (:class:`clfeval.report.paper.CaptionedTable`): the LaTeX renderer sets them instead of the tables. ``page``
    (:class:`clfeval.report.page.Page`), for results with a page (score, compare, cv), is what the HTML page shows
    beyond the tables: the summary, extra sections, the leading figures and the provenance.
    """

    title: str
    tables: tuple[Table, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    tidy: Callable[[], list[list[Any]]] | None = None
    build_paper: Callable[[], tuple[Any, ...]] | None = None
    build_page: Callable[[], Any] | None = None

    @cached_property
    def paper(self) -> tuple[Any, ...]:
        """The tables for a paper, built when a renderer first asks (LaTeX): ``()`` for results without them."""
        return () if self.build_paper is None else self.build_paper()

    @cached_property
    def page(self) -> Any:
        """What the HTML page shows beyond the tables, built when first asked: ``None`` for results without one."""
        return None if self.build_page is None else self.build_page()


def average_title(name: str, scores: Scores) -> str:
    """The row title of an average: its JSON name and, in brackets, its formula in short."""
    freq = "training" if scores.lfb_source == "train" else "test gold"
    return f"{name} ({AVERAGES[name].short.format(F=f_title(scores.beta), freq=freq)})"


def _matrix_table(scores: Scores) -> list[Table]:
    """The confusion matrix: whole up to :data:`~clfeval.report.matrix.MAX_SHOWN_LABELS` labels; beyond, the most
    frequent gold labels with the others added up into ``other``, and (single-label) the most frequent confusions."""
    confusion = scores.confusion
    if confusion is None:  # a kind of counts without a matrix
        return []
    split = isinstance(confusion, SplitMatrix)
    shown = shown_matrix(confusion, by_support=False)
    folded = (
        f"; the {len(shown.labels) - 1 - split} most frequent gold labels of {shown.total_labels}, the other "
        f"{shown.folded} added up into one row and column (the JSON and CSV keep every cell)"
        if shown.folded
        else ""
    )
    if split:
        out = []
        for key, title, cells in (
            (
                "matrix",
                "split-count confusion matrix, gold-row view (rows: gold, columns: predicted; "
                f"each row adds up to the gold frequency{folded})",
                shown.cells,
            ),
            (
                "matrix_predicted_view",
                "split-count confusion matrix, predicted-column view (each column adds up to the predicted "
                f"frequency{folded})",
                shown.column_cells,
            ),
        ):
            rows = tuple(
                (lab, *(float(v) if not float(v).is_integer() else int(v) for v in row))
                for lab, row in zip(shown.labels, cells)
            )
            out.append(Table(title, ("gold \\ predicted", *shown.labels), rows, key))
        return out
    rows = tuple((lab, *(int(v) for v in row)) for lab, row in zip(shown.labels, shown.cells))
    tables = [
        Table(
            f"confusion matrix (rows: gold, columns: predicted{folded})",
            ("gold \\ predicted", *shown.labels),
            rows,
            "matrix",
        )
    ]
    if shown.folded:
        assert not isinstance(confusion, SplitMatrix)  # a confusion matrix of single labels
        top = top_confusions(confusion)
        off_diagonal = int((confusion.gold != confusion.pred).sum())
        tables.append(
            Table(
                f"most frequent confusions (the {len(top)} largest of {off_diagonal:,} non-zero cells off the "
                "diagonal; share: of the gold label's instances)",
                ("gold", "predicted", "instances", "share"),
                tuple((g, p, c, share) for g, p, c, share in top),
                "confusions",
            )
        )
    return tables


class OverallRow(NamedTuple):
    """An overall measure of a result: its name, its formula in words, its value and its score key."""

    name: str
    definition: str
    value: float
    key: str

    @property
    def title(self) -> str:
        """The row title of the text report: the name and, in brackets, the formula."""
        return f"{self.name} ({self.definition})"


def overall_rows(scores: Scores) -> list[OverallRow]:
    """The overall measures of a result, in the order of :data:`clfeval.MEASURES`: accuracy (subset accuracy for
    multi-label data), the Hamming loss, micro FPR, and for single-label data balanced accuracy, MCC and κ."""
    return [
        OverallRow(m.title_for(scores.family), m.short_for(scores.family), scores.overall[m.name], m.name)
        for m in overall_measures(scores.family)
    ]


def measure_title(measure: str, beta: float) -> str:
    """The column title of a measure: its registry title, F_β as F1, F2 …"""
    return f_title(beta) if measure == "f" else MEASURES[measure].title


#: Per-label measures shown in one table beside their intervals (the rest follow in another).
_PER_TABLE = 4


def score_report(scores: Scores, *, matrix: bool = True) -> Report:
    """The tables and notes of a score report.

    Tables: per-label rows; one row per average, named by its formula; overall measures (each
    with its interval beside it when the result has intervals); the confusion matrix (unless
    ``matrix=False``). Notes define every average used, and state N, the label set and its
    source, the zero-division choice, the options and the interval method.
    """
    tables = _plain_tables(scores) if scores.intervals is None else _interval_tables(scores)
    tables += _matrix_table(scores) if matrix else []
    notes = scores_notes(scores) + ([] if scores.intervals is None else _interval_notes(scores))

    def paper() -> tuple[Any, ...]:
        from clfeval.report.paper import score_paper_tables  # it builds on this module's tables

        return score_paper_tables(scores, tables)

    def page() -> Any:
        from clfeval.report.page import score_page  # it builds on this module's tables

        return score_page(scores)

    title = f"clfeval score — {scores.task}, {scores.n_instances} instances, {len(scores.labels)} labels"
    return Report(
        title,
        tuple(tables),
        tuple(scores.warnings),
        tuple(notes),
        partial(score_rows, scores, matrix),
        paper,
        page,
    )


def _plain_tables(scores: Scores) -> list[Table]:
    measures = [m.name for m in label_measures()]
    per_label = Table(
        "per label",
        ("label", "support", "predicted", "tp", "fp", "fn", "tn", *(measure_title(m, scores.beta) for m in measures)),
        tuple(
            (lab, r.support, r.predicted, r.tp, r.fp, r.fn, r.tn, *(r[m] for m in measures))
            for lab, r in scores.per_label.items()
        ),
        "per_label",
    )
    averages = Table(
        "averages over the label set",
        ("average", *(measure_title(m, scores.beta) for m in AVERAGED)),
        tuple((average_title(name, scores), *(v[m] for m in AVERAGED)) for name, v in scores.averages.items()),
        "averages",
    )
    overall = Table("overall", ("measure", "value"), tuple((r.title, r.value) for r in overall_rows(scores)), "overall")
    return [per_label, averages, overall]


def scores_notes(scores: Scores) -> list[str]:
    """The notes every scoring states: N, the label set and its source, each average's definition, 0/0, β, inputs."""
    zd = "nan" if math.isnan(scores.zero_division) else f"{scores.zero_division:g}"
    notes = [
        f"N = {scores.n_instances} instances ({scores.task}); label set L: {len(scores.labels)} labels, "
        f"source '{scores.label_source}' ({LABEL_SOURCES[scores.label_source]})"
    ]
    for name in scores.averages:
        notes.append(f"{name}: {AVERAGES[name].definition}")
    for m in overall_measures(scores.family):
        if m.definition_for(scores.family) != m.short_for(scores.family):
            notes.append(f"{m.name}: {m.definition_for(scores.family)}")
    affected = "; ".join(
        f"{'F' if m == 'f' else m}: {', '.join(map(repr, labs))}" for m, labs in scores.undefined.items() if labs
    )
    verb = "included in averages" if scores.undefined_policy == "include" else "left out of averages"
    notes.append(f"zero division: a 0/0 ratio is set to {zd} and {verb}; affected: {affected or 'none'}")
    notes.extend(KINDS[scores.task].option_notes(scores.options))
    notes.append(f"β = {scores.beta:g}")
    notes.extend(scores.notes)
    if scores.inputs:
        notes.append("inputs: " + ", ".join(f"{k}={v}" for k, v in scores.inputs.items()))
    return notes


def _bounds(scores: Scores, key: Key) -> Bounds:
    iv = scores.intervals
    assert iv is not None
    got = iv.get(key)
    mark = "†" if key in iv.remarks else ""
    return Bounds(None, None) if got is None else Bounds(got[0], got[1], mark)


def _key_text(key: Key, scores: Scores) -> str:
    f = f_title(scores.beta)
    measure = {
        "f_wilson": f"{f} (Wilson)",
        "precision_wilson": "precision (Wilson)",
        "recall_wilson": "recall (Wilson)",
    }.get(key[-1]) or measure_title(key[-1], scores.beta)
    if key[0] == "per_label":
        return f"{key[1]!r} {measure}"
    if key[0] == "averages":
        return f"{key[1]} {measure}"
    return MEASURES[key[0]].title_for(scores.family)


def _interval_notes(scores: Scores) -> list[str]:
    """The method, its notes, and the scores without an interval (or with a remark), grouped by reason."""
    iv = scores.intervals
    assert iv is not None
    head = f"intervals: {100 * iv.confidence:g}% {iv.method} — {iv.definition}"
    if iv.resamples is not None:
        head += f"; {iv.resamples} resamples, seed {iv.seed}"
    notes = [head, *(f"intervals: {n}" for n in iv.notes)]
    for title, items in (("no interval", iv.not_estimable), ("†", iv.remarks)):
        groups: dict[str, list[Key]] = {}
        for key, why in items.items():
            groups.setdefault(why, []).append(key)
        for why, keys in groups.items():
            shown = ", ".join(_key_text(k, scores) for k in keys[:_MAX_LISTED])
            more = f" and {len(keys) - _MAX_LISTED} more (see the JSON output)" if len(keys) > _MAX_LISTED else ""
            notes.append(f"{title} — {why}: {shown}{more}")
    return notes


def _interval_tables(scores: Scores) -> list[Table]:
    """The score tables with an interval beside every score."""
    iv = scores.intervals
    assert iv is not None
    ci = f"{100 * iv.confidence:g}% CI"
    per_label = Table(
        "per label",
        ("label", "support", "predicted", "tp", "fp", "fn", "tn"),
        tuple((lab, r.support, r.predicted, r.tp, r.fp, r.fn, r.tn) for lab, r in scores.per_label.items()),
        "per_label_counts",
    )
    measures = [m.name for m in label_measures()]
    tables = [per_label]
    for start in range(0, len(measures), _PER_TABLE):
        group = measures[start : start + _PER_TABLE]
        columns: list[str] = ["label"]
        for m in group:
            columns += [measure_title(m, scores.beta), ci] + (["Wilson"] if m in ("precision", "recall") else [])
        rows = []
        for lab, r in scores.per_label.items():
            row: list[Any] = [lab]
            for m in group:
                row += [r[m], _bounds(scores, ("per_label", lab, m))]
                if m in ("precision", "recall"):
                    row.append(_bounds(scores, ("per_label", lab, f"{m}_wilson")))
            rows.append(tuple(row))
        first = start == 0
        tables.append(
            Table(
                f"per label, with {ci}s" if first else f"per label, more measures, with {ci}s",
                tuple(columns),
                tuple(rows),
                "per_label" if first else f"per_label_{start // _PER_TABLE}",
            )
        )
    averages = Table(
        "averages over the label set",
        ("average", *(x for m in AVERAGED for x in (measure_title(m, scores.beta), ci))),
        tuple(
            (
                average_title(name, scores),
                *(x for m in AVERAGED for x in (v[m], _bounds(scores, ("averages", name, m)))),
            )
            for name, v in scores.averages.items()
        ),
        "averages",
    )
    overall = Table(
        "overall",
        ("measure", "value", ci),
        tuple((r.title, r.value, _bounds(scores, (r.key,))) for r in overall_rows(scores)),
        "overall",
    )
    return [*tables, averages, overall]


def format_number(value: Any, digits: int) -> str:
    """Scores with ``digits`` decimals, counts as integers, NaN as ``undefined``, intervals as ``[low, high]``."""
    kind = type(value)
    if kind is float:  # most cells (a million in a report of 10⁵ labels): the plain cases first
        return "undefined" if value != value else f"{value:.{digits}f}"
    if kind is int:
        return str(value)
    if isinstance(value, Bounds):
        if value.low is None or value.high is None:
            return "no interval"
        return f"[{value.low:.{digits}f}, {value.high:.{digits}f}]{value.mark}"
    if isinstance(value, PValue):
        if math.isnan(value):
            return "no test"
        return f"{value:.1e}" if value < 0.001 else f"{value:.{max(digits, 3)}f}"
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "undefined"
        return f"{value:.{digits}f}"
    return str(value)
