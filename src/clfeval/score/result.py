"""The frozen result of scoring: per-label rows, named averages, the confusion matrix and every choice made."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clfeval._version import __version__
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import LabelSetCounts, SplitMatrix
from clfeval.score.ratios import f_key

__all__ = ["SCHEMA", "LabelScores", "Scores"]

#: The JSON schema name and version of a score result.
SCHEMA = "clfeval.score/1"


@dataclass(frozen=True)
class LabelScores:
    """One label's counts and measures (``f`` is F_β for the result's β)."""

    support: int
    predicted: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    f: float
    specificity: float


def _json_number(x: float) -> float | None:
    return None if isinstance(x, float) and math.isnan(x) else x


@dataclass(frozen=True, eq=False)
class Scores:
    """Everything one scoring pass found. Build with :func:`clfeval.score` or :func:`clfeval.score_counts`.

    Attributes
    ----------
    task
        ``"single-label"`` or ``"multi-label"``.
    labels, label_source
        The label set L (report order) and the policy that chose it.
    per_label
        Label → :class:`LabelScores`, for each label in L.
    averages
        Average name → {"precision", "recall", "f"}; names as in :data:`clfeval.AVERAGES`.
    accuracy
        Single-label: correct / N. Multi-label: subset accuracy (whole set right) / N.
    hamming_loss
        Multi-label: Σ_L (fp + fn) / (N·|L|); ``None`` for single-label data.
    micro_fpr
        Σ fp / Σ (fp + tn) over L.
    confusion
        Single-label: the :class:`ConfusionCounts`; multi-label: the :class:`SplitMatrix`.
    lfb_frequencies, lfb_source
        The relative frequencies the lfb average used and where they came from (``train``/``test``).
    zero_division, undefined_policy, undefined
        The value used for 0/0, whether such labels stay in averages, and which labels (per
        measure) and averages were affected.
    """

    task: str
    n_instances: int
    beta: float
    labels: tuple[str, ...]
    label_source: str
    per_label: Mapping[str, LabelScores]
    averages: Mapping[str, Mapping[str, float]]
    accuracy: float
    hamming_loss: float | None
    micro_fpr: float
    confusion: ConfusionCounts | SplitMatrix
    counts: ConfusionCounts | LabelSetCounts
    lfb_frequencies: Mapping[str, float]
    lfb_source: str
    zero_division: float
    undefined_policy: str
    undefined: Mapping[str, tuple[str, ...]]
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def f_name(self) -> str:
        """The report name of F for this β: ``f1``, ``f2``, ``f0.5`` …"""
        return f_key(self.beta)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract ``clfeval.score/1`` (see the README); NaN becomes ``null``."""
        fk = self.f_name
        per_label = {
            lab: {"support": r.support, "predicted": r.predicted, "tp": r.tp, "fp": r.fp, "fn": r.fn,
                  "tn": r.tn, "precision": _json_number(r.precision), "recall": _json_number(r.recall),
                  fk: _json_number(r.f), "specificity": _json_number(r.specificity)}
            for lab, r in self.per_label.items()}
        averages: dict[str, dict[str, Any]] = {}
        for name, values in self.averages.items():
            averages[name] = {"precision": _json_number(values["precision"]),
                              "recall": _json_number(values["recall"]), fk: _json_number(values["f"])}
        if "lfb" in averages:
            averages["lfb"]["frequencies"] = self.lfb_source
            averages["lfb"]["weights"] = dict(self.lfb_frequencies)
        if isinstance(self.confusion, SplitMatrix):
            matrix: dict[str, Any] = {
                "labels": list(self.confusion.labels), "empty": self.confusion.labels[-1],
                "counts": self.confusion.gold_view.tolist(),
                "counts_predicted_view": self.confusion.predicted_view.tolist()}
        else:
            matrix = {"labels": list(self.confusion.labels), "counts": self.confusion.cells.tolist()}
        zd = self.zero_division
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "clfeval_version": __version__,
            "task": self.task,
            "n_instances": self.n_instances,
            "beta": self.beta,
            "labels": list(self.labels),
            "label_source": self.label_source,
            "per_label": per_label,
            "averages": averages,
            "accuracy": _json_number(self.accuracy),
        }
        if self.task == "multi-label":
            out["subset_accuracy"] = _json_number(self.accuracy)
            out["hamming_loss"] = _json_number(self.hamming_loss) if self.hamming_loss is not None else None
        out["micro_fpr"] = _json_number(self.micro_fpr)
        out["confusion_matrix"] = matrix
        out["zero_division"] = {"value": "nan" if math.isnan(zd) else int(zd), "in_average": self.undefined_policy,
                                "affected": {k: list(v) for k, v in self.undefined.items()}}
        out["options"] = dict(self.options)
        out["inputs"] = dict(self.inputs)
        out["warnings"] = list(self.warnings)
        out["notes"] = list(self.notes)
        return out

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def render(self, fmt: str = "text", **options: Any) -> str:
        """This result rendered as ``text``, ``json``, ``markdown`` or ``csv`` (see :data:`clfeval.RENDERERS`)."""
        from clfeval.render import render  # render sits above score; imported on use only

        return render(self, fmt, **options)

    def __str__(self) -> str:
        return self.render("text")
