"""Counting: the sufficient statistics every measure is computed from. Counts merge with ``+``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.count.binary import LabelCounts
    from clfeval.count.confusion import ConfusionCounts
    from clfeval.count.frequencies import LabelFrequencies
    from clfeval.count.joint import JointCounts
    from clfeval.count.labelsets import (
        DUPLICATE_POLICIES,
        EMPTY_LABEL,
        EMPTY_POLICIES,
        LabelSetCounts,
        Occurrences,
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
    "Occurrences",
    "PairedCounts",
    "SplitMatrix",
    "canonical_set",
]

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "LabelCounts": "clfeval.count.binary",
    "ConfusionCounts": "clfeval.count.confusion",
    "LabelFrequencies": "clfeval.count.frequencies",
    "JointCounts": "clfeval.count.joint",
    "DUPLICATE_POLICIES": "clfeval.count.labelsets",
    "EMPTY_LABEL": "clfeval.count.labelsets",
    "EMPTY_POLICIES": "clfeval.count.labelsets",
    "LabelSetCounts": "clfeval.count.labelsets",
    "Occurrences": "clfeval.count.labelsets",
    "SplitMatrix": "clfeval.count.labelsets",
    "canonical_set": "clfeval.count.labelsets",
    "PairedCounts": "clfeval.count.paired",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
