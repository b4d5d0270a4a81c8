"""CSV output: one tidy row per number — section, label, measure, value.

CSV files get opened in spreadsheets, which run a cell that starts with ``=``, ``+``, ``-`` or ``@``
(or a tab or carriage return) as a formula: a label such as ``=cmd|' /C calc'!A0`` would be one
(CSV injection). As OWASP recommends, such a text cell is written with a leading apostrophe
(``'=cmd…``), which spreadsheets show as text; cells that are plain numbers (``-1``, ``+1``,
``-0.5``, as SVM labels are) are left as they are, since a spreadsheet reads them as numbers.
``raw_csv=True`` (``--raw-csv``) writes every cell exactly, for programs.
"""

from __future__ import annotations

import csv
import io
import math
import re
from typing import Any

from clfeval.count.labelsets import SplitMatrix
from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.report import report_of
from clfeval.report.tables import Report
from clfeval.score.averages import AVERAGED
from clfeval.score.measures import label_measures, overall_measures
from clfeval.score.result import Scores

__all__ = ["FORMULA_STARTS", "comparison_csv", "cv_csv", "render_csv", "report_csv", "safe_cell", "score_csv"]


#: What a spreadsheet runs as a formula when a cell starts with it (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, with a leading apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class _Writer:
    """A csv writer whose text cells are made safe for spreadsheets unless ``raw``."""

    def __init__(self, out: io.StringIO, raw: bool) -> None:
        self._writer = csv.writer(out, lineterminator="\n")
        self._raw = raw

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow(row if self._raw else [safe_cell(v) for v in row])


def _value(v: Any) -> Any:
    return "" if isinstance(v, float) and math.isnan(v) else v


def render_csv(
    result: Scores | Comparison | CrossValidation,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
) -> str:
    """A score result as tidy rows (:func:`score_csv`); a comparison as one row per test (:func:`comparison_csv`);
    a cross-validation as tidy rows per scope (:func:`cv_csv`); anything else as its report's tables. Text cells
    a spreadsheet would run as formulas get a leading apostrophe unless ``raw_csv`` (see the module docstring);
    ``matrix=False`` leaves the confusion matrix out."""
    if isinstance(result, Comparison):
        return comparison_csv(result, raw=raw_csv)
    if isinstance(result, CrossValidation):
        return cv_csv(result, raw=raw_csv)
    if isinstance(result, Scores):
        return score_csv(result, matrix=matrix, raw=raw_csv)
    return report_csv(report_of(result), raw=raw_csv)  # conversions, audits: their report's tables


def report_csv(report: Report, raw: bool = False) -> str:
    """Any report's tables as rows ``table,<its columns…>`` (one header row per table)."""
    out = io.StringIO()
    writer = _Writer(out, raw)
    for table in report.tables:
        writer.writerow(["table", *table.columns])
        for row in table.rows:
            writer.writerow([table.key, *(_value(v) for v in row)])
    return out.getvalue()


def cv_csv(cv: CrossValidation, raw: bool = False) -> str:
    """Rows ``scope,average,measure,value``: scope ``pooled``, ``mean_of_folds``, ``sd`` or ``fold:<name>``;
    average ``overall`` holds the overall measures (accuracy, Hamming loss, micro FPR, MCC, κ …)."""
    out = io.StringIO()
    writer = _Writer(out, raw)
    writer.writerow(["scope", "average", "measure", "value"])
    fk = cv.pooled.f_name
    overall = [m.name for m in overall_measures(cv.pooled.task)]
    means = cv.mean_of_folds()
    for scope, result in [("pooled", cv.pooled)] + [(f"fold:{n}", f) for n, f in zip(cv.fold_names, cv.folds)]:
        for name, values in result.averages.items():
            for m in AVERAGED:
                writer.writerow([scope, name, fk if m == "f" else m, _value(values[m])])
        for m in overall:
            writer.writerow([scope, "overall", m, _value(result.overall[m])])
    for name, values in means["averages"].items():
        for m in AVERAGED:
            writer.writerow(["mean_of_folds", name, fk if m == "f" else m, _value(values[m])])
            writer.writerow(["sd", name, fk if m == "f" else m, _value(values[f"{m}_sd"])])
    for m in overall:
        writer.writerow(["mean_of_folds", "overall", m, _value(means[m])])
        writer.writerow(["sd", "overall", m, _value(means[f"{m}_sd"])])
    return out.getvalue()


def comparison_csv(cmp: Comparison, raw: bool = False) -> str:
    """One row per (metric, pair): ``metric,a,b,score_a,score_b,difference,ci_low,ci_high,p_value,p_adjusted,
    significant,exact,rounds,test,alternative,seed``; an undefined value is an empty cell."""
    out = io.StringIO()
    writer = _Writer(out, raw)
    writer.writerow(
        [
            "metric",
            "a",
            "b",
            "score_a",
            "score_b",
            "difference",
            "ci_low",
            "ci_high",
            "p_value",
            "p_adjusted",
            "significant",
            "exact",
            "rounds",
            "test",
            "alternative",
            "seed",
        ]
    )
    for p in cmp.pairs:
        low, high = (_value(p.ci[0]), _value(p.ci[1])) if p.ci is not None else ("", "")
        writer.writerow(
            [
                p.metric,
                p.a,
                p.b,
                _value(p.score_a),
                _value(p.score_b),
                _value(p.difference),
                low,
                high,
                _value(p.p_value),
                _value(p.p_adjusted),
                p.significant,
                p.exact,
                "" if p.rounds is None else p.rounds,
                cmp.test,
                cmp.alternative,
                "" if cmp.seed is None else cmp.seed,
            ]
        )
    return out.getvalue()


def score_csv(scores: Scores, matrix: bool = True, raw: bool = False) -> str:
    """Rows ``section,label,measure,value``.

    Sections: ``per_label`` (label = the label), ``average`` (label = the average's JSON
    name), ``overall`` and ``confusion_matrix`` (label = gold label, measure = predicted label;
    multi-label adds ``confusion_matrix_predicted_view``). An undefined value is an empty cell.
    With intervals, each score's row is followed by ``<measure>_ci_low`` and ``<measure>_ci_high``
    rows (empty when it has no interval; per-label precision and recall add ``_wilson_ci_``
    rows), and ``ci`` rows name the method, confidence, resamples and seed.
    """
    out = io.StringIO()
    writer = _Writer(out, raw)
    writer.writerow(["section", "label", "measure", "value"])
    fk = scores.f_name
    iv = scores.intervals

    def row(section: str, label: str, measure: str, value: Any, key: tuple[str, ...]) -> None:
        name = fk if measure == "f" else measure
        writer.writerow([section, label, name, _value(value)])
        if iv is None or measure in ("support", "predicted", "tp", "fp", "fn", "tn"):
            return
        extra = [(name, key)]
        if key[0] == "per_label" and measure in ("precision", "recall"):
            extra.append((f"{measure}_wilson", key[:2] + (f"{measure}_wilson",)))
        for title, k in extra:
            bounds = iv.get(k)
            writer.writerow([section, label, f"{title}_ci_low", "" if bounds is None else bounds[0]])
            writer.writerow([section, label, f"{title}_ci_high", "" if bounds is None else bounds[1]])

    for lab, r in scores.per_label.items():
        for measure in ("support", "predicted", "tp", "fp", "fn", "tn"):
            row("per_label", lab, measure, getattr(r, measure), ("per_label", lab, measure))
        for m in label_measures():
            row("per_label", lab, m.name, r[m.name], ("per_label", lab, m.name))
    for name, values in scores.averages.items():
        for measure in AVERAGED:
            row("average", name, measure, values[measure], ("averages", name, measure))
    for m in overall_measures(scores.task):
        row("overall", "", m.name_for(scores.task), scores.overall[m.name], (m.name,))
    if iv is not None:
        for key, value in (
            ("method", iv.method),
            ("confidence", iv.confidence),
            ("resamples", iv.resamples),
            ("seed", iv.seed),
        ):
            writer.writerow(["ci", "", key, "" if value is None else value])
    confusion = scores.confusion
    if not matrix:
        return out.getvalue()
    views = (
        [("confusion_matrix", confusion.gold_view), ("confusion_matrix_predicted_view", confusion.predicted_view)]
        if isinstance(confusion, SplitMatrix)
        else [("confusion_matrix", confusion.cells)]
    )
    for section, cells in views:
        for i, g in enumerate(confusion.labels):
            for j, p in enumerate(confusion.labels):
                writer.writerow([section, g, p, cells[i][j].item()])
    return out.getvalue()
