"""Inference from counts: confidence intervals (delta method, Wilson, count-based bootstrap), paired tests,
cross-validation summaries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.infer.comparison import Comparison, PairTest, compare_counts
    from clfeval.infer.crossvalidation import CrossValidation, cross_validate
    from clfeval.infer.intervals import with_intervals
    from clfeval.infer.methods import INTERVAL_METHODS, IntervalMethod
    from clfeval.infer.pairtests import TESTS, TestMethod
    from clfeval.infer.significance import ALTERNATIVES


__all__ = [
    "ALTERNATIVES",
    "Comparison",
    "CrossValidation",
    "INTERVAL_METHODS",
    "IntervalMethod",
    "PairTest",
    "TESTS",
    "TestMethod",
    "compare_counts",
    "cross_validate",
    "with_intervals",
]

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "TESTS": "clfeval.infer.pairtests",
    "TestMethod": "clfeval.infer.pairtests",
    "Comparison": "clfeval.infer.comparison",
    "PairTest": "clfeval.infer.comparison",
    "compare_counts": "clfeval.infer.comparison",
    "CrossValidation": "clfeval.infer.crossvalidation",
    "cross_validate": "clfeval.infer.crossvalidation",
    "INTERVAL_METHODS": "clfeval.infer.methods",
    "IntervalMethod": "clfeval.infer.methods",
    "with_intervals": "clfeval.infer.intervals",
    "ALTERNATIVES": "clfeval.infer.significance",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
