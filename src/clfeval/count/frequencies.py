"""Label frequencies (of training data, for the label set and the lfb average)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["LabelFrequencies"]


@dataclass(frozen=True, eq=False)
class LabelFrequencies:
    """How often each label occurs (in a training set). Merge parts with ``+``.

    ``n_instances`` counts instances; with multi-label data the label occurrences may add up
    to more (or, with empty sets, less) than that.
    """

    counts: Mapping[str, int]
    n_instances: int

    @classmethod
    def from_labels(cls, labels: Iterable[str]) -> "LabelFrequencies":
        """Count single labels."""
        counter = Counter(labels)
        return cls(dict(counter), sum(counter.values()))

    @classmethod
    def from_label_sets(cls, sets: Iterable[Iterable[str]]) -> "LabelFrequencies":
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

    def __add__(self, other: object) -> "LabelFrequencies":
        if not isinstance(other, LabelFrequencies):
            return NotImplemented
        merged = Counter(self.counts)
        merged.update(other.counts)
        return LabelFrequencies(dict(merged), self.n_instances + other.n_instances)
