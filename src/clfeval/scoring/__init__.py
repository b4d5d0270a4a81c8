"""Scoring: arithmetic on counts — per-label ratios, then a registry of named averages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.scoring.averages import AVERAGES, Average
    from clfeval.scoring.computation import average_measures, per_label_measures, score_counts
    from clfeval.scoring.labelset import LABEL_SOURCES, resolve_label_set, sort_labels
    from clfeval.scoring.measures import MEASURES, Measure
    from clfeval.scoring.ratios import UNDEFINED_POLICIES, f_key
    from clfeval.scoring.scores import SCHEMA, Intervals, LabelScores, Scores
    from clfeval.scoring.shifts import SHIFT_WEIGHTS, precision_factor, precision_shift, recall_shift


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
    "AVERAGES": "clfeval.scoring.averages",
    "Average": "clfeval.scoring.averages",
    "LABEL_SOURCES": "clfeval.scoring.labelset",
    "resolve_label_set": "clfeval.scoring.labelset",
    "sort_labels": "clfeval.scoring.labelset",
    "MEASURES": "clfeval.scoring.measures",
    "Measure": "clfeval.scoring.measures",
    "UNDEFINED_POLICIES": "clfeval.scoring.ratios",
    "f_key": "clfeval.scoring.ratios",
    "SCHEMA": "clfeval.scoring.scores",
    "Intervals": "clfeval.scoring.scores",
    "LabelScores": "clfeval.scoring.scores",
    "Scores": "clfeval.scoring.scores",
    "average_measures": "clfeval.scoring.computation",
    "per_label_measures": "clfeval.scoring.computation",
    "score_counts": "clfeval.scoring.computation",
    "SHIFT_WEIGHTS": "clfeval.scoring.shifts",
    "precision_factor": "clfeval.scoring.shifts",
    "precision_shift": "clfeval.scoring.shifts",
    "recall_shift": "clfeval.scoring.shifts",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
