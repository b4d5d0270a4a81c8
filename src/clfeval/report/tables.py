"""Build a :class:`Report` (tables and notes that define every average used) from :class:`Scores`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, SplitMatrix
from clfeval.score.averages import AVERAGES
from clfeval.score.labelset import LABEL_SOURCES
from clfeval.score.result import Scores

__all__ = ["Report", "Table", "score_report"]


@dataclass(frozen=True)
class Table:
    """A titled table; ``rows`` hold strings or numbers (floats are scores, ints are counts)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    key: str


@dataclass(frozen=True)
class Report:
    """What a reader sees, independent of the output format."""

    title: str
    tables: tuple[Table, ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


def _f_label(scores: Scores) -> str:
    return "F1" if scores.beta == 1 else f"F{scores.beta:g}"


def average_title(name: str, scores: Scores) -> str:
    """The row title of an average: its JSON name and, in brackets, its formula in short."""
    freq = "training" if scores.lfb_source == "train" else "test gold"
    return f"{name} ({AVERAGES[name].short.format(F=_f_label(scores), freq=freq)})"


def _matrix_table(scores: Scores) -> list[Table]:
    confusion = scores.confusion
    if isinstance(confusion, SplitMatrix):
        out = []
        for key, title, cells in (
                ("matrix", "split-count confusion matrix, gold-row view (rows: gold, columns: predicted; "
                 "each row adds up to the gold frequency)", confusion.gold_view),
                ("matrix_predicted_view", "split-count confusion matrix, predicted-column view (each column "
                 "adds up to the predicted frequency)", confusion.predicted_view)):
            rows = tuple((lab, *(float(v) if not float(v).is_integer() else int(v) for v in row))
                         for lab, row in zip(confusion.labels, cells))
            out.append(Table(title, ("gold \\ predicted", *confusion.labels), rows, key))
        return out
    rows = tuple((lab, *(int(v) for v in row)) for lab, row in zip(confusion.labels, confusion.cells))
    return [Table("confusion matrix (rows: gold, columns: predicted)", ("gold \\ predicted", *confusion.labels),
                  rows, "matrix")]


def score_report(scores: Scores, *, matrix: bool = True) -> Report:
    """The tables and notes of a score report.

    Tables: per-label rows; one row per average, named by its formula; overall measures; the
    confusion matrix (unless ``matrix=False``). Notes define every average used, and state
    N, the label set and its source, the zero-division choice and the options.
    """
    f = _f_label(scores)
    per_label = Table(
        "per label", ("label", "support", "predicted", "tp", "fp", "fn", "tn", "precision", "recall", f,
                      "specificity"),
        tuple((lab, r.support, r.predicted, r.tp, r.fp, r.fn, r.tn, r.precision, r.recall, r.f, r.specificity)
              for lab, r in scores.per_label.items()), "per_label")
    averages = Table(
        "averages over the label set", ("average", "precision", "recall", f),
        tuple((average_title(name, scores), v["precision"], v["recall"], v["f"])
              for name, v in scores.averages.items()), "averages")
    overall_rows: list[tuple[Any, ...]] = []
    if scores.task == "single-label":
        overall_rows.append(("accuracy (correct / N)", scores.accuracy))
    else:
        overall_rows.append(("subset accuracy (whole label set right / N)", scores.accuracy))
        overall_rows.append(("Hamming loss (Σ fp + fn over labels / (N·|L|))", scores.hamming_loss))
    overall_rows.append(("micro FPR (Σ fp / Σ (fp + tn))", scores.micro_fpr))
    overall = Table("overall", ("measure", "value"), tuple(overall_rows), "overall")
    tables = [per_label, averages, overall] + (_matrix_table(scores) if matrix else [])

    zd = "nan" if math.isnan(scores.zero_division) else f"{scores.zero_division:g}"
    notes = [f"N = {scores.n_instances} instances ({scores.task}); label set L: {len(scores.labels)} labels, "
             f"source '{scores.label_source}' ({LABEL_SOURCES[scores.label_source]})"]
    for name in scores.averages:
        notes.append(f"{name}: {AVERAGES[name].definition}")
    affected = "; ".join(f"{'F' if m == 'f' else m}: {', '.join(map(repr, labs))}"
                         for m, labs in scores.undefined.items() if labs)
    verb = "included in averages" if scores.undefined_policy == "include" else "left out of averages"
    notes.append(f"zero division: a 0/0 ratio is set to {zd} and {verb}; affected: {affected or 'none'}")
    if scores.task == "multi-label":
        notes.append(f"duplicates: {scores.options['duplicates']} ({DUPLICATE_POLICIES[scores.options['duplicates']]})")
        notes.append(f"empty label set: {scores.options['empty']} ({EMPTY_POLICIES[scores.options['empty']]})")
    notes.append(f"β = {scores.beta:g}")
    notes.extend(scores.notes)
    if scores.inputs:
        notes.append("inputs: " + ", ".join(f"{k}={v}" for k, v in scores.inputs.items()))
    title = f"clfeval score — {scores.task}, {scores.n_instances} instances, {len(scores.labels)} labels"
    return Report(title, tuple(tables), tuple(scores.warnings), tuple(notes))


def format_number(value: Any, digits: int) -> str:
    """Scores with ``digits`` decimals, counts as integers, NaN as ``undefined``."""
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return "undefined"
        return f"{value:.{digits}f}"
    return str(value)
