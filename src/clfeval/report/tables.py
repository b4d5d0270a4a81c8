"""Build a :class:`Report` (tables, and notes that say what moved a number) from :class:`Scores`."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any, NamedTuple

import numpy as np

from clfeval.count.labelsets import SplitMatrix
from clfeval.errors import OptionError
from clfeval.kinds import KINDS
from clfeval.report.matrix import shown_matrix, top_confusions
from clfeval.report.rows import score_rows
from clfeval.report.view import View
from clfeval.scoring.averages import AVERAGES
from clfeval.scoring.labelset import LABEL_SOURCES, sort_labels
from clfeval.scoring.measures import MEASURES, count_names, overall_measures
from clfeval.scoring.ratios import f_title
from clfeval.scoring.scores import Key, Scores

__all__ = ["Bounds", "Label", "OverallRow", "PValue", "Report", "Table", "overall_rows", "score_report"]

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


class Label(str):
    """A table cell or column title that names a label or a system: shown in full in every format but text, which
    shortens a long one with an ellipsis to keep its tables within the terminal (the JSON and CSV keep it whole)."""


@dataclass(frozen=True)
class Table:
    """A titled table; ``rows`` hold strings or numbers (floats are scores, ints are counts).

    ``index`` leading columns name a row: a table too wide for a terminal is set in parts, each with them.
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    key: str
    index: int = 1


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


#: The short formulas of the averages whose own formulas name F (macro's AF, macro_fa's FA), for a table of averages
#: that shows no F: ``{M}`` is the measure shown ("scores" when several are).
_WITHOUT_F = {"macro": "mean of per-label {M}", "macro_fa": "as macro but for F"}


def average_title(name: str, scores: Scores, measures: Sequence[str] | None = None) -> str:
    """The row title of an average: its JSON name and, in brackets, its formula in short. ``measures``, the averaged
    measures beside it: without F among them, an average's formula names the measure shown, not F
    (``macro (mean of per-label Jaccard)``)."""
    if measures is not None and "f" not in measures and name in _WITHOUT_F:
        shown = measure_title(measures[0], scores.beta) if len(measures) == 1 else "scores"
        return f"{name} ({_WITHOUT_F[name].format(M=shown)})"
    freq = "training" if scores.lfb_source == "train" else "test gold"
    short = AVERAGES[name].short.format(F=f_title(scores.beta), freq=freq)
    if "tn" not in count_names(scores.family):  # spans: no true negatives to sum
        short = short.replace(", tn", "")
    return f"{name} ({short})"


def _matrix_table(scores: Scores) -> list[Table]:
    """The confusion matrix: whole up to :data:`~clfeval.report.matrix.MAX_SHOWN_LABELS` labels; beyond, the most
    frequent gold labels with the others added up into ``other``, and (single-label) the most frequent confusions."""
    confusion = scores.confusion
    if confusion is None:  # a kind of counts without a matrix
        return []
    split = isinstance(confusion, SplitMatrix)
    shown = shown_matrix(confusion, by_support=False)
    labels = tuple(Label(lab) for lab in shown.labels)
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
                for lab, row in zip(labels, cells)
            )
            out.append(Table(title, ("gold \\ predicted", *labels), rows, key))
        return out
    rows = tuple(  # whole counts as integers; weighted instances' sums of weights as they are
        (lab, *(int(v) if float(v).is_integer() else float(v) for v in row)) for lab, row in zip(labels, shown.cells)
    )
    tables = [
        Table(
            f"{KINDS[scores.task].matrix_title} (rows: gold, columns: predicted{folded})",
            ("gold \\ predicted", *labels),
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
                tuple((Label(g), Label(p), c, share) for g, p, c, share in top),
                "confusions",
                2,
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


def overall_rows(scores: Scores, view: View | None = None) -> list[OverallRow]:
    """The overall measures of a result, in the order of :data:`clfeval.MEASURES`: accuracy (subset accuracy for
    multi-label data), the Hamming loss, micro FPR, and for single-label data balanced accuracy, MCC and κ; with a
    ``view``, those it shows (:meth:`~clfeval.report.view.View.overall`)."""
    shown = None if view is None else view.overall(scores)
    return [
        OverallRow(m.title_for(scores.family), m.short_for(scores.family), scores.overall[m.name], m.name)
        for m in scores.given_overall()
        if shown is None or m.name in shown
    ]


def measure_title(measure: str, beta: float) -> str:
    """The column title of a measure: its registry title, F_β as F1, F2 …"""
    return f_title(beta) if measure == "f" else MEASURES[measure].title


#: Per-label measures shown in one table beside their intervals (the rest follow in another).
_PER_TABLE = 4


def _counts(scores: Scores) -> tuple[str, ...]:
    """The columns of each label's counts beside its support (``counts`` and ``all`` views): predicted, tp, fp, fn
    and, where there are true negatives, tn."""
    return count_names(scores.family)[1:]


def score_report(scores: Scores, *, matrix: bool = True, measures: Any = None, verbose: bool = False) -> Report:
    """The tables and notes of a score report.

    Tables: per-label rows; one row per average, named by its formula; overall measures (each
    with its interval beside it when the result has intervals); the confusion matrix (unless
    ``matrix=False``). ``measures`` chooses the measures shown (:class:`~clfeval.report.view.View`: by default
    support, precision, recall and F per label and averaged, and accuracy, balanced accuracy, MCC and κ). Notes
    say what moved a number, one line per choice (``verbose``: every average's and measure's definition too).
    """
    view = View.of(measures, verbose)
    missing = view.unknown_for(scores)
    if missing:
        raise OptionError(
            f"{', '.join(missing)}: not a measure of {scores.family} data (its overall measures: "
            f"{', '.join(m.name for m in overall_measures(scores.family))})"
        )
    asked = [name for name in view.names if name in scores.withheld()]
    if asked:  # weighted κ asked for by name, with no order declared: what to declare, not a silent omission
        raise OptionError(f"{', '.join(asked)}: {scores.order_rule}")
    tables = _plain_tables(scores, view) if scores.intervals is None else _interval_tables(scores, view)
    kind = KINDS[scores.task]
    if kind.report_tables is not None:
        module, _, function = kind.report_tables.partition(":")
        tables += getattr(importlib.import_module(module), function)(scores)
    tables += _matrix_table(scores) if matrix else []
    notes = scores_notes(scores, view) + ([] if scores.intervals is None else _interval_notes(scores, view))

    def paper() -> tuple[Any, ...]:
        from clfeval.report.paper import score_paper_tables  # it builds on this module's tables

        return score_paper_tables(scores, tables, view)

    def page() -> Any:
        from clfeval.report.page import score_page  # it builds on this module's tables

        return score_page(scores, view)

    title = (
        f"clfeval score — {scores.task}, {scores.n_instances} {kind.instances}, {len(scores.labels)} {kind.label_word}"
    )
    return Report(
        title,
        tuple(tables),
        tuple(scores.warnings),
        tuple(notes),
        partial(score_rows, scores, matrix),
        paper,
        page,
    )


def _plain_tables(scores: Scores, view: View) -> list[Table]:
    measures = view.label_measures(scores)
    counts = _counts(scores) if view.counts else ()
    tables = []
    if measures or counts:
        tables.append(
            Table(
                "per label",
                ("label", "support", *counts, *(measure_title(m, scores.beta) for m in measures)),
                tuple(
                    (
                        Label(lab),
                        r.support,
                        *((getattr(r, c) for c in counts) if counts else ()),
                        *(r[m] for m in measures),
                    )
                    for lab, r in scores.per_label.items()
                ),
                "per_label",
            )
        )
    averaged = view.averaged(scores)
    if averaged:
        tables.append(
            Table(
                "averages over the label set",
                ("average", *(measure_title(m, scores.beta) for m in averaged)),
                tuple(
                    (average_title(name, scores, averaged), *(v[m] for m in averaged))
                    for name, v in scores.averages.items()
                ),
                "averages",
            )
        )
    overall = overall_rows(scores, view)
    if overall:
        tables.append(Table("overall", ("measure", "value"), tuple((r.title, r.value) for r in overall), "overall"))
    return tables


#: The openings of notes of the counts' kind that restate a formula or a definition: shown with ``verbose`` only
#: (a report shows its own note on weighted κ's order where it shows weighted κ).
_FORMULA_NOTES = ("single-label data: micro precision = micro recall", "MCC, κ and balanced accuracy run over")
#: Labels of the order a note on weighted κ lists before "…".
_ORDER_SHOWN = 12


def _listed(labels: Sequence[str], limit: int = 10) -> str:
    """Labels as a reader sees them in a note: quoted, the first ``limit``, then how many more."""
    shown = ", ".join(map(repr, labels[:limit]))
    return shown + (f" and {len(labels) - limit} more" if len(labels) > limit else "")


def _kappa_note(scores: Scores) -> str:
    """The order weighted κ reads and how it was declared (:attr:`~clfeval.scoring.scores.Scores.order_rule`)."""
    table = scores.order or scores.table or scores.labels
    order = " < ".join(map(repr, table[:_ORDER_SHOWN])) + (" < …" if len(table) > _ORDER_SHOWN else "")
    how = scores.order_rule
    if scores.label_source != "given" and tuple(table) != sort_labels(table):
        how += f"; but the label set ({scores.label_source}) comes first, so the order is not sorted"
    return f"weighted κ (kappa_linear, kappa_quadratic) reads the labels as ordered {order}: {how}"


def _zero_division_note(scores: Scores, view: View) -> str | None:
    """0/0's value and the labels it touched among the measures shown; ``None`` when it touched none of them and
    is the default (0, included), or when the warnings name every label it touched."""
    zd = "nan" if math.isnan(scores.zero_division) else f"{scores.zero_division:g}"
    verb = "included in averages" if scores.undefined_policy == "include" else "left out of averages"
    shown = set(view.label_measures(scores))
    touched = [(m, labs) for m, labs in scores.undefined.items() if labs and m in shown]
    if not touched:
        if zd == "0" and scores.undefined_policy == "include":
            return None
        return f"0/0: set to {zd} and {verb}; no score shown is 0/0"
    warned = {
        m for scope in scores.warning_scopes.values() if scope.startswith("per_label:") for m in scope[10:].split(",")
    }
    if all(m in warned for m, _ in touched):  # the warnings say it all: the value, the labels, the averages
        return None
    where = "; ".join(f"{measure_title(m, scores.beta)} of {_listed(labs)}" for m, labs in touched)
    return f"0/0: set to {zd} and {verb} (--zero-division, --undefined); it touched {where}"


def scores_notes(scores: Scores, view: View | None = None) -> list[str]:
    """The notes of a scoring: what moved a number, one line per choice — the label set and its source, the lfb
    weights' source, 0/0's value and the labels it touched, β when not 1, the counting options, weighted κ's order
    where it is shown. With a ``verbose`` view (or no view), the full notes: N, each average's and measure's
    definition, 0/0 in full, β, the inputs."""
    view = view or View(("all",), verbose=True)
    kappa_shown = any(MEASURES[m].ordered for m in view.overall(scores))
    kind_notes = []
    for note in scores.notes:
        if view.verbose or not note.startswith(_FORMULA_NOTES):
            kind_notes.append(note)
    if kappa_shown:
        kind_notes.append(_kappa_note(scores))
    if scores.positive is not None:  # a binary problem's own names (scikit-learn's average="binary")
        kind_notes.append(
            f"binary: the positive class is {scores.positive!r} ({scores.positive_rule}); result['{scores.f_name}'], "
            "['precision'] and ['recall'] are its row's values"
        )
    if not view.verbose:
        source = scores.label_source
        notes = [f"label set L ({source}): {LABEL_SOURCES[source].split(' (')[0]}"]
        if scores.lfb_source == "train" and "lfb" in scores.averages and view.averaged(scores):
            where = scores.inputs.get("train_file")
            notes.append("lfb: weighted by the training data's label frequencies" + (f" ({where})" if where else ""))
        zero = _zero_division_note(scores, view)
        notes += [zero] if zero else []
        if scores.beta != 1:
            notes.append(
                f"β = {scores.beta:g}: {f_title(scores.beta)} weighs recall {scores.beta:g} times as much as precision"
            )
        notes.extend(KINDS[scores.task].option_notes(scores.options))
        return notes + kind_notes
    zd = "nan" if math.isnan(scores.zero_division) else f"{scores.zero_division:g}"
    notes = [
        f"N = {scores.n_instances} instances ({scores.task}); label set L: {len(scores.labels)} labels, "
        f"source '{scores.label_source}' ({LABEL_SOURCES[scores.label_source]})"
    ]
    for name in scores.averages:
        notes.append(f"{name}: {AVERAGES[name].definition}")
    shown = view.overall(scores)
    for m in overall_measures(scores.family):
        if m.name in shown and m.definition_for(scores.family) != m.short_for(scores.family):
            notes.append(f"{m.name}: {m.definition_for(scores.family)}")
    affected = "; ".join(
        f"{'F' if m == 'f' else m}: {', '.join(map(repr, labs))}" for m, labs in scores.undefined.items() if labs
    )
    verb = "included in averages" if scores.undefined_policy == "include" else "left out of averages"
    notes.append(f"zero division: a 0/0 ratio is set to {zd} and {verb}; affected: {affected or 'none'}")
    notes.extend(KINDS[scores.task].option_notes(scores.options))
    notes.append(f"β = {scores.beta:g}")
    notes.extend(kind_notes)
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


def _shown_keys(scores: Scores, view: View) -> Callable[[Key], bool]:
    """Whether the table cell of a score key is shown in ``view`` (the measures worked out once)."""
    per_label = set(view.label_measures(scores))
    per_label |= {f"{m}_wilson" for m in per_label} if view.counts else set()
    averaged, overall = set(view.averaged(scores)), set(view.overall(scores))

    def shown(key: Key) -> bool:
        if key[0] == "per_label":
            return key[-1] in per_label
        if key[0] == "averages":
            return key[-1] in averaged
        return key[0] in overall

    return shown


def _interval_notes(scores: Scores, view: View | None = None) -> list[str]:
    """The method, its notes, and the scores without an interval (or with a remark), grouped by reason: with a
    view that is not verbose, the method in short, and the reasons of the scores shown only."""
    view = view or View(("all",), verbose=True)
    iv = scores.intervals
    assert iv is not None
    if view.verbose:
        head = f"intervals: {100 * iv.confidence:g}% {iv.method} — {iv.definition}"
        if iv.resamples is not None:
            head += f"; {iv.resamples} resamples, seed {iv.seed}"
        notes = [head, *(f"intervals: {n}" for n in iv.notes)]
    else:
        head = f"intervals: {100 * iv.confidence:g}% {iv.method}"
        if iv.unit != "instances":
            head += f" over {iv.n_units} {iv.unit}" if iv.n_units is not None else f" over {iv.unit}"
        if iv.resamples is not None:
            head += f", {iv.resamples} resamples, seed {iv.seed}"
        notes = [head, *(f"intervals: {n}" for n in iv.notes if n.startswith("only "))]
    shown_key = _shown_keys(scores, view)
    for title, items in (("no interval", iv.not_estimable), ("†", iv.remarks)):
        groups: dict[str, list[Key]] = {}
        for key, why in items.items():
            if view.verbose or shown_key(key):
                groups.setdefault(why, []).append(key)
        for why, keys in groups.items():
            shown = ", ".join(_key_text(k, scores) for k in keys[:_MAX_LISTED])
            more = f" and {len(keys) - _MAX_LISTED} more (see the JSON output)" if len(keys) > _MAX_LISTED else ""
            notes.append(f"{title} — {why}: {shown}{more}")
    return notes


def _interval_tables(scores: Scores, view: View) -> list[Table]:
    """The score tables with an interval beside every score."""
    iv = scores.intervals
    assert iv is not None
    ci = f"{100 * iv.confidence:g}% CI"
    tables = []
    if view.counts:
        tables.append(
            Table(
                "per label",
                ("label", "support", *_counts(scores)),
                tuple(
                    (Label(lab), r.support, *(getattr(r, c) for c in _counts(scores)))
                    for lab, r in scores.per_label.items()
                ),
                "per_label_counts",
            )
        )
    measures = view.label_measures(scores)
    wilson = ("precision", "recall") if view.counts else ()
    for start in range(0, len(measures), _PER_TABLE):
        group = measures[start : start + _PER_TABLE]
        first = start == 0
        support = first and not view.counts  # the support beside the scores, unless the counts table has it
        columns: list[str] = ["label", *(["support"] if support else [])]
        for m in group:
            columns += [measure_title(m, scores.beta), ci] + (["Wilson"] if m in wilson else [])
        rows = []
        for lab, r in scores.per_label.items():
            row: list[Any] = [Label(lab), *([r.support] if support else [])]
            for m in group:
                row += [r[m], _bounds(scores, ("per_label", lab, m))]
                if m in wilson:
                    row.append(_bounds(scores, ("per_label", lab, f"{m}_wilson")))
            rows.append(tuple(row))
        tables.append(
            Table(
                f"per label, with {ci}s" if first else f"per label, more measures, with {ci}s",
                tuple(columns),
                tuple(rows),
                "per_label" if first else f"per_label_{start // _PER_TABLE}",
            )
        )
    averaged = view.averaged(scores)
    if averaged:
        tables.append(
            Table(
                "averages over the label set",
                ("average", *(x for m in averaged for x in (measure_title(m, scores.beta), ci))),
                tuple(
                    (
                        average_title(name, scores, averaged),
                        *(x for m in averaged for x in (v[m], _bounds(scores, ("averages", name, m)))),
                    )
                    for name, v in scores.averages.items()
                ),
                "averages",
            )
        )
    overall = overall_rows(scores, view)
    if overall:
        tables.append(
            Table(
                "overall",
                ("measure", "value", ci),
                tuple((r.title, r.value, _bounds(scores, (r.key,))) for r in overall),
                "overall",
            )
        )
    return tables


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
