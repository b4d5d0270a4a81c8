"""Inference from counts: confidence intervals (delta method, Wilson, count-based bootstrap)."""

from clfeval.infer.intervals import INTERVAL_METHODS, IntervalMethod, with_intervals

__all__ = ["INTERVAL_METHODS", "IntervalMethod", "with_intervals"]
