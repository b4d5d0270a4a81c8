"""Label frequencies (of training data, for the label set and the lfb average)."""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from clfeval.count.limits import whole_count
from clfeval.errors import InputError

__all__ = ["LabelFrequencies"]


@dataclass(frozen=True, eq=False)
class LabelFrequencies:
    """How often each label occurs (in a training set). Merge parts with ``+``.

    ``n_instances`` counts instances; with multi-label data the label occurrences may add up
    to more (or, with empty sets, less) than that. A frequency is a count, or any finite number
    ≥ 0 (relative frequencies weight the lfb average the same); anything else is an
    :class:`~clfeval.errors.InputError`.
    """

    counts: Mapping[str, int]
    n_instances: int

    def __post_init__(self) -> None:
        counts: dict[str, int] = {}
        for label, count in self.counts.items():
            if not isinstance(label, str):
                raise InputError(f"label frequencies: labels must be strings, found {label!r}")
            if (
                isinstance(count, (bool, np.bool_))
                or not isinstance(count, numbers.Real)
                or not math.isfinite(count)
                or count < 0
            ):
                raise InputError(f"the frequency of {label!r} is {count!r}: expected a count (or a number ≥ 0)")
            counts[label] = count
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "n_instances", whole_count(self.n_instances, "the number of instances"))

    @classmethod
    def from_labels(cls, labels: Iterable[str]) -> LabelFrequencies:
        """Count single labels."""
        counter = Counter(labels)
        return cls(dict(counter), sum(counter.values()))

    @classmethod
    def from_label_sets(cls, sets: Iterable[Iterable[str]]) -> LabelFrequencies:
        """Count label occurrences over label sets."""
        counter: Counter[str] = Counter()
        n = 0
        for labels in sets:
            counter.update(labels)
            n += 1
        return cls(dict(counter), n)

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels that occur at least once."""
        return tuple(lab for lab, c in self.counts.items() if c)

    def __add__(self, other: object) -> LabelFrequencies:
        if not isinstance(other, LabelFrequencies):
            return NotImplemented
        merged = Counter(self.counts)
        merged.update(other.counts)
        return LabelFrequencies(dict(merged), self.n_instances + other.n_instances)
