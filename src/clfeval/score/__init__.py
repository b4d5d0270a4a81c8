"""Scoring: arithmetic on counts — per-label ratios, then a registry of named averages."""

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
