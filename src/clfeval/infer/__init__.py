"""Inference from counts: confidence intervals (delta method, Wilson, count-based bootstrap) and paired tests."""

from clfeval.infer.comparison import TESTS, Comparison, PairTest, compare_counts
from clfeval.infer.intervals import INTERVAL_METHODS, IntervalMethod, with_intervals
from clfeval.infer.significance import ALTERNATIVES

__all__ = ["ALTERNATIVES", "Comparison", "INTERVAL_METHODS", "IntervalMethod", "PairTest", "TESTS", "compare_counts",
           "with_intervals"]
