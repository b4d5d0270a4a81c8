"""Scoring: arithmetic on counts — per-label ratios, then a registry of named averages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.score.averages import AVERAGES, Average
    from clfeval.score.labelset import LABEL_SOURCES, resolve_label_set, sort_labels
    from clfeval.score.measures import MEASURES, Measure
    from clfeval.score.ratios import UNDEFINED_POLICIES, f_key
    from clfeval.score.result import SCHEMA, Intervals, LabelScores, Scores
    from clfeval.score.scorer import average_measures, per_label_measures, score_counts
    from clfeval.score.shifts import SHIFT_WEIGHTS, precision_factor, precision_shift, recall_shift


__all__ = [
    "AVERAGES",
    "Average",
    "Intervals",
    "LABEL_SOURCES",
    "LabelScores",
    "MEASURES",
    "Measure",
    "SCHEMA",
    "SHIFT_WEIGHTS",
    "Scores",
    "UNDEFINED_POLICIES",
    "average_measures",
    "f_key",
    "per_label_measures",
    "precision_factor",
    "precision_shift",
    "recall_shift",
    "resolve_label_set",
    "score_counts",
    "sort_labels",
]

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "AVERAGES": "clfeval.score.averages",
    "Average": "clfeval.score.averages",
    "LABEL_SOURCES": "clfeval.score.labelset",
    "resolve_label_set": "clfeval.score.labelset",
    "sort_labels": "clfeval.score.labelset",
    "MEASURES": "clfeval.score.measures",
    "Measure": "clfeval.score.measures",
    "UNDEFINED_POLICIES": "clfeval.score.ratios",
    "f_key": "clfeval.score.ratios",
    "SCHEMA": "clfeval.score.result",
    "Intervals": "clfeval.score.result",
    "LabelScores": "clfeval.score.result",
    "Scores": "clfeval.score.result",
    "average_measures": "clfeval.score.scorer",
    "per_label_measures": "clfeval.score.scorer",
    "score_counts": "clfeval.score.scorer",
    "SHIFT_WEIGHTS": "clfeval.score.shifts",
    "precision_factor": "clfeval.score.shifts",
    "precision_shift": "clfeval.score.shifts",
    "recall_shift": "clfeval.score.shifts",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
