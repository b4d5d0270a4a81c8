"""Counting: the sufficient statistics every measure is computed from. Counts merge with ``+``."""

from clfeval.count.binary import LabelCounts
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.labelsets import (DUPLICATE_POLICIES, EMPTY_LABEL, EMPTY_POLICIES, LabelSetCounts,
                                     SplitMatrix, canonical_set)

__all__ = ["ConfusionCounts", "DUPLICATE_POLICIES", "EMPTY_LABEL", "EMPTY_POLICIES", "LabelCounts",
           "LabelFrequencies", "LabelSetCounts", "SplitMatrix", "canonical_set"]
