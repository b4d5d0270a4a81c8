"""Counting: the sufficient statistics every measure is computed from. Counts merge with ``+``."""

from clfeval.count.binary import LabelCounts
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import (
    DUPLICATE_POLICIES,
    EMPTY_LABEL,
    EMPTY_POLICIES,
    LabelSetCounts,
    SplitMatrix,
    canonical_set,
)
from clfeval.count.paired import PairedCounts

__all__ = [
    "ConfusionCounts",
    "DUPLICATE_POLICIES",
    "EMPTY_LABEL",
    "EMPTY_POLICIES",
    "JointCounts",
    "LabelCounts",
    "LabelFrequencies",
    "LabelSetCounts",
    "PairedCounts",
    "SplitMatrix",
    "canonical_set",
]
