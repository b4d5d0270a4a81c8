"""CSV output: one tidy row per number — section, label, measure, value."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from clfeval.count.labelsets import SplitMatrix
from clfeval.score.result import Scores

__all__ = ["render_csv"]


def _value(v: Any) -> Any:
    return "" if isinstance(v, float) and math.isnan(v) else v


def render_csv(scores: Scores, **_: Any) -> str:
    """Rows ``section,label,measure,value``.

    Sections: ``per_label`` (label = the label), ``average`` (label = the average's JSON
    name), ``overall`` and ``confusion_matrix`` (label = gold label, measure = predicted label;
    multi-label adds ``confusion_matrix_predicted_view``). An undefined value is an empty cell.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "label", "measure", "value"])
    fk = scores.f_name
    for lab, r in scores.per_label.items():
        for measure in ("support", "predicted", "tp", "fp", "fn", "tn", "precision", "recall", "f", "specificity"):
            writer.writerow(["per_label", lab, fk if measure == "f" else measure, _value(getattr(r, measure))])
    for name, values in scores.averages.items():
        for measure in ("precision", "recall", "f"):
            writer.writerow(["average", name, fk if measure == "f" else measure, _value(values[measure])])
    writer.writerow(["overall", "", "subset_accuracy" if scores.task == "multi-label" else "accuracy",
                     _value(scores.accuracy)])
    if scores.hamming_loss is not None:
        writer.writerow(["overall", "", "hamming_loss", _value(scores.hamming_loss)])
    writer.writerow(["overall", "", "micro_fpr", _value(scores.micro_fpr)])
    confusion = scores.confusion
    views = ([("confusion_matrix", confusion.gold_view), ("confusion_matrix_predicted_view", confusion.predicted_view)]
             if isinstance(confusion, SplitMatrix) else [("confusion_matrix", confusion.cells)])
    for section, cells in views:
        for i, g in enumerate(confusion.labels):
            for j, p in enumerate(confusion.labels):
                writer.writerow([section, g, p, cells[i][j].item()])
    return out.getvalue()
