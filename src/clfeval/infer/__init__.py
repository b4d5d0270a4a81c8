"""Inference from counts: confidence intervals (delta method, Wilson, count-based bootstrap), paired tests,
cross-validation summaries."""

from clfeval.infer.comparison import TESTS, Comparison, PairTest, compare_counts
from clfeval.infer.crossvalidation import CrossValidation, cross_validate
from clfeval.infer.intervals import INTERVAL_METHODS, IntervalMethod, with_intervals
from clfeval.infer.significance import ALTERNATIVES

__all__ = [
    "ALTERNATIVES",
    "Comparison",
    "CrossValidation",
    "INTERVAL_METHODS",
    "IntervalMethod",
    "PairTest",
    "TESTS",
    "compare_counts",
    "cross_validate",
    "with_intervals",
]
