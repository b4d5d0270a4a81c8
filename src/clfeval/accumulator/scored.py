"""The accumulator of scored predictions: gold labels and their scores (probabilities, logits) batch by batch.

::

    acc = clfeval.Accumulator("scored", labels=range(10))
    for batch in loader:
        acc.update(batch.y, model(batch.x).softmax(-1))     # numpy arrays, lists, CPU tensors
    acc.score(ci="delong")

``clfeval.Accumulator("scored", ...)`` makes one (:class:`ScoredAccumulator`, an :class:`~clfeval.Accumulator`). Each
update counts its batch's distinct (gold, scores) rows (:class:`~clfeval.count.scored.ScoreCounts`, one sort); the
parts are added when the counts are asked for, so the whole equals one ``clfeval.score(y, scores=...)`` on every row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from clfeval.accumulator import Accumulator
from clfeval.accumulator.batches import _array
from clfeval.errors import InputError, OptionError

if TYPE_CHECKING:
    from clfeval.count.labelsets import MultiLabel
    from clfeval.count.scored import ScoreCounts
    from clfeval.inputs.readers import Counted
    from clfeval.kinds import Counts

__all__ = ["ScoredAccumulator"]

#: Parts kept before they are added into one.
_PARTS = 64


class ScoredAccumulator(Accumulator):
    """Counts of scored predictions, updated batch by batch: what ``clfeval.Accumulator("scored", labels=...)``
    makes.

    Parameters
    ----------
    task
        ``"scored"``.
    labels
        The classes, in the order of the score columns (a 1-D score belongs to the last, or to ``positive``); named
        by the one rule of :mod:`clfeval.count.labelnames` (``range(3)`` is ``"0", "1", "2"``). Required: a batch
        may not hold every class.
    positive
        Binary scores: the class they belong to.
    multilabel
        ``True`` (or a :class:`~clfeval.MultiLabel`): each instance's gold side is a set of labels (a collection of
        labels, a string split on the group's ``sep``, or a row of an (n, K) 0/1 matrix) and the scores an (n, K)
        array with a column per label of ``labels``.

    Examples
    --------
    >>> acc = Accumulator("scored", labels=[0, 1])
    >>> acc.update([0, 1, 1], [0.2, 0.7, 0.4])
    >>> acc.update([0], [0.5])
    >>> acc.n, acc.score()["auc"]
    (4, 0.75)
    """

    def __init__(
        self,
        task: str = "scored",
        labels: Iterable[Any] | None = None,
        *,
        multilabel: Any = None,
        spans: Any = None,
        positive: Any = None,
        invalid: Any = None,
        groups: Any = None,
    ) -> None:
        if groups not in (None, False):
            raise OptionError("groups= makes a grouped accumulator: call clfeval.Accumulator(..., groups=...)")
        if invalid is not None:
            raise OptionError(
                "invalid= applies to single-label predictions: a tag or a score has no one label to count"
            )
        if task != "scored":
            raise OptionError(f"a scored accumulator counts scored predictions, not {task}")
        if spans is not None:
            raise OptionError("spans options are for the spans task")
        from clfeval.count.labelsets import MultiLabel

        if MultiLabel.of(multilabel) is not None and positive is not None:
            raise OptionError("positive= names the class of binary scores; multi-label scores have a column per label")
        if labels is None or isinstance(labels, (str, bytes)):
            raise OptionError("a scored accumulator needs its classes, in the order of the score columns (labels=)")
        from clfeval.count.labelnames import label_names

        self.task = task
        self.multilabel = MultiLabel.of(multilabel)
        self.classes = tuple(label_names(list(labels)))
        if len(set(self.classes)) != len(self.classes) or len(self.classes) < (1 if self.multilabel else 2):
            raise OptionError(f"the classes must be two or more distinct labels, not {list(self.classes)}")
        self.positive = None if positive is None else label_names([positive])[0]
        self.reset()

    def reset(self) -> None:
        """Forget every count (the classes stay)."""
        self._parts: list[ScoreCounts] = []
        self._updates = 0

    @property
    def labels(self) -> tuple[str, ...]:
        return self.classes

    @property
    def label_origin(self) -> str:
        return "declared"

    @property
    def n(self) -> int:
        """The instances counted."""
        return sum(p.n_instances for p in self._parts)

    @property
    def counts(self) -> ScoreCounts:  # type: ignore[override]
        """The distinct (gold, scores) rows of every update."""
        if not self._parts:
            raise InputError("nothing counted yet: the accumulator has had no update")
        if len(self._parts) > 1:
            self._parts = [type(self._parts[0]).added(self._parts)]
        return self._parts[0]

    def update(self, gold: Any, scores: Any, *, sample_weight: Any = None, groups: Any = None) -> None:
        """Add a batch: gold labels and their scores (1-D: the positive class's; n × K: a column per class), and
        (``sample_weight``) each instance's weight — in every update or in none.

        Raises
        ------
        InputError
            Naming the update: lengths that differ, a score that is not a finite number, a gold label outside the
            classes, a weight that is not a finite number ≥ 0, a batch of another shape than the earlier ones, a
            batch with weights after batches without (or the other way round).
        """
        if groups is not None:
            raise OptionError(
                "this accumulator does not count by group: make it with clfeval.Accumulator(..., groups=True) (or "
                "the group columns' names)"
            )
        from clfeval.count.classes import named_scores
        from clfeval.count.scored import ScoreCounts, checked_weights, layout_of

        where = f"update {self._updates + 1}"
        weight = None
        if sample_weight is not None:
            w = np.asarray(_array(sample_weight, "sample_weight", where))
            weight = checked_weights(w, len(w), f"{where}, sample_weight", positive_sum=False)
        if self._parts and self._parts[0].weighted != (weight is not None):
            held = "with" if self._parts[0].weighted else "without"
            raise InputError(f"the earlier updates were {held} sample_weight: give weights in every update or none",
                             where)  # fmt: skip
        if self.multilabel is not None:
            self._update_label_sets(gold, scores, where, weight)
            return
        given, names = named_scores(scores)  # a frame's columns are matched to the classes by name
        y = np.asarray(_array(gold, "gold", where))
        s = np.asarray(_array(given, "scores", where), dtype=np.float64)
        try:  # the one contract of classes and columns, the classes declared (an (n, 2) batch is binary)
            y, s, seen, which, layout = layout_of(
                y, s, list(self.classes), positive=self.positive, names=names, where=f"{where}, scores"
            )
            if weight is not None and len(weight) != len(y):
                raise InputError(f"{len(y)} instances but {len(weight)} weights", f"{where}, sample_weight")
            part = ScoreCounts.of_layout(y, s, seen, which, layout, weight=weight)
        except InputError as exc:
            if exc.source != "gold":
                raise
            raise InputError(exc.message, f"{where}, gold", index=exc.index) from None
        if self._parts and part.columns != self._parts[0].columns:
            raise InputError(
                f"scores for the columns {list(part.columns)}, the earlier batches for {list(self._parts[0].columns)}",
                where,
            )
        self._parts.append(part)
        if len(self._parts) > _PARTS:
            self._parts = [type(self._parts[0]).added(self._parts)]
        self._updates += 1

    def _update_label_sets(self, gold: Any, scores: Any, where: str, weight: np.ndarray | None = None) -> None:
        """A batch of multi-label scores: gold label sets (or 0/1 rows) and a score column per label."""
        from clfeval.count.labelsets import label_sets
        from clfeval.count.scored import ScoreCounts, check_finite, label_indicator

        s = np.asarray(_array(scores, "scores", where), dtype=np.float64)
        if s.ndim != 2 or s.shape[1] != len(self.classes):
            raise InputError(f"multi-label scores have a column per label ({len(self.classes)}), not {s.shape}", where)
        check_finite(s, f"{where}, scores")
        # an indicator matrix (array, tensor) as an array; label sets (ragged lists, strings) as they are
        given = np.asarray(_array(gold, "gold", where)) if hasattr(gold, "shape") else gold
        multilabel = cast("MultiLabel", self.multilabel)
        try:
            indicator, _, _ = label_indicator(label_sets(given, multilabel), self.classes, s.shape)
        except InputError as exc:
            raise InputError(str(exc).split(": ", 1)[-1], where) from None
        if weight is not None and len(weight) != len(s):
            raise InputError(f"{len(s)} instances but {len(weight)} weights", f"{where}, sample_weight")
        ones = np.ones(len(s), dtype=np.int64)
        self._parts.append(ScoreCounts(self.classes, self.classes, indicator, s, ones, weight))
        if len(self._parts) > _PARTS:
            self._parts = [type(self._parts[0]).added(self._parts)]
        self._updates += 1

    def merge(self, other: Accumulator) -> Accumulator:
        """Add ``other``'s counts into this accumulator, in place, and return it."""
        if not isinstance(other, ScoredAccumulator):
            raise OptionError(f"a scored accumulator merges with a scored accumulator, not {type(other).__name__}")
        if other.classes != self.classes or (other.multilabel is None) != (self.multilabel is None):
            raise OptionError(f"cannot merge scores of classes {list(other.classes)} into {list(self.classes)}")
        self._parts += other._parts
        self._updates += other._updates
        return self

    def copy(self) -> ScoredAccumulator:
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._parts = list(self._parts)  # counts are immutable
        return out

    def counted(self) -> Counted:
        from clfeval.inputs.readers import Counted

        return Counted(self.counts, inputs={"source": "accumulator", "updates": self._updates})

    def scoring_labels(self) -> tuple[str, ...] | None:
        return self.classes

    def score(self, *, ci: Any = "none", scoring: Any = None, **kwargs: Any) -> Any:
        """Score the counts so far: :func:`clfeval.score` of scored predictions (``kwargs``: ``threshold``,
        ``conventions``, ``seed``, ``resamples``, ``confidence``)."""
        from clfeval.api import score

        return score(self.counted(), ci=ci, scoring=scoring, **kwargs)

    @classmethod
    def from_counts(cls, counts: Counts, labels: Iterable[Any] | None = None) -> ScoredAccumulator:
        from clfeval.kinds import KINDS, kind_of

        if kind_of(counts) is not KINDS["scored"]:
            raise OptionError(f"a scored accumulator starts from ScoreCounts, not {type(counts).__name__}")
        counts = cast("ScoreCounts", counts)
        positive = counts.columns[0] if counts.binary else None
        out = cls("scored", counts.labels, positive=positive, multilabel=True if counts.multilabel else None)
        out._parts = [counts]
        out._updates = 1
        return out

    def __repr__(self) -> str:
        n = self.n
        what = f"{len(self.classes)} labels, multi-label" if self.multilabel else f"{len(self.classes)} classes"
        return f"Accumulator(scored, {what}, {n:,} instances, {self._updates} updates)"
