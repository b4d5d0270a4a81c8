"""A streaming accumulator: counts updated batch by batch in a training or evaluation loop, merged across workers.

::

    acc = clfeval.Accumulator(task="single-label", labels=range(10))
    for batch in loader:
        acc.update(batch.gold, model(batch.x).argmax(1))   # numpy arrays, lists, Series, CPU tensors
    acc.score(ci="delta")

Each update turns the batch into label codes and adds one ``np.bincount`` of gold·K + pred to the counts; Python
works once per *distinct* label (or, for multi-label data, per distinct (gold set, predicted set) pair), never once
per instance. Accumulators of workers add up with ``+`` (or :meth:`Accumulator.merge`), pickle, and save as a count
file (``clfeval.counts/1``) that :func:`clfeval.load_counts` and ``clfeval score --counts`` read.

This module holds the public :class:`Accumulator` and its counts (a dense K×K table, sorted sparse keys, or the
multi-label pairs); the rest of the package does one job each, and never imports this module:

- :mod:`clfeval.accumulator.batches`: reading a batch (arrays, lists, Series, data frames, tensors through DLPack or
  ``__array__``, the framework never imported) into 1-D label arrays or 0/1 indicator matrices;
- :mod:`clfeval.accumulator.codes`: the labels (names, values, kinds) and how a batch's values become label codes;
- :mod:`clfeval.accumulator.sparse`: counting distinct keys with sorts (packed indicator rows, sparse cells);
- :mod:`clfeval.accumulator.spans`: a tagger's spans (``Accumulator("spans", spans=SCHEME)`` makes its
  :class:`~clfeval.accumulator.spans.SpanAccumulator`, a subclass);
- :mod:`clfeval.accumulator.scored`: scored predictions (``Accumulator("scored", labels=...)`` makes its
  :class:`~clfeval.accumulator.scored.ScoredAccumulator`); these two subclasses are the modules that import this one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from clfeval.accumulator.batches import _array, _indicator, _one_dimensional, _tensor, decode_sets, distinct_rows
from clfeval.accumulator.codes import LabelCoder, _declared_entry, _holds_number, _plain
from clfeval.accumulator.sparse import _merge_sorted
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.invalid import INVALID_LABEL, check_invalid_policy
from clfeval.count.labelsets import EMPTY_LABEL, LabelSet, LabelSetCounts, MultiLabel, canonical_set
from clfeval.count.weighted import WeightedRows
from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.kinds import KINDS, Counts, kind_of

if TYPE_CHECKING:
    from clfeval.count.weighted import WeightedLabelCounts, WeightedLabelSetCounts
    from clfeval.infer.methods import CI
    from clfeval.inputs.readers import Counted
    from clfeval.scoring.options import Scoring
    from clfeval.scoring.scores import Scores

__all__ = ["TASKS", "Accumulator"]

#: The tasks an accumulator counts, with their one-line definitions.
TASKS: Mapping[str, str] = {
    "single-label": "one label per instance: a 1-D array of gold labels and one of predicted labels",
    "multi-label": "a set of labels per instance: 0/1 indicator matrices (n × K) or sequences of label collections",
    "spans": "a tagger's sentences: one list of tags (read with spans=SCHEME) or of entities per sentence "
    "(clfeval.accumulator.spans)",
    "scored": "scored predictions: gold labels and their scores, 1-D (the positive class's) or n × K, a column per "
    "class of labels (clfeval.accumulator.scored)",
}

#: Where an accumulator's label set came from (recorded in the counts' provenance and scores' ``options``).
LABEL_ORIGINS: Mapping[str, str] = {
    "declared": "the labels given to the accumulator, in report order; a value outside them is an error",
    "columns": "the columns of the first indicator matrix, named 0 … K−1",
    "seen": "the labels that occurred in the updates (the set grows as new labels appear)",
}

_DENSE_CELLS = 1 << 22  # the largest K·K table kept dense (32 MiB of int64); beyond it the counts are sparse
_EMPTY = np.zeros(0, dtype=np.int64)
#: The policies under which an update keeps an invalid prediction as the label (invalid), for the policy to count.
MARKED = ("wrong", "omit")


class Accumulator:
    """Counts of a classifier's predictions, updated batch by batch: the sufficient statistics of every score.

    Parameters
    ----------
    task
        ``"single-label"`` (default) or ``"multi-label"`` (see :data:`TASKS`).
    labels
        The declared label set, in report order (named by the one rule of :mod:`clfeval.count.labelnames`:
        ``range(3)`` is ``"0", "1", "2"``, ``[0.0, 1.0]`` is ``"0", "1"``).
        Scores average over it, labels never seen included (support 0), and an update holding a value outside it
        is an :class:`~clfeval.InputError`. Without it the label set grows as new labels appear and scores use the
        labels seen (``union``). Multi-label indicator matrices without declared labels name their K columns
        ``"0"`` … ``"K-1"`` and those columns are the label set.
    multilabel
        Multi-label options (:class:`~clfeval.MultiLabel`: ``empty``, ``duplicates``, the ``sep`` of label
        strings); only with ``task="multi-label"``.
    spans
        With ``task="spans"``, the tagging scheme (:data:`clfeval.SCHEMES`): the accumulator is then a
        :class:`~clfeval.accumulator.spans.SpanAccumulator`, updated with one list of tags (or entities) per sentence,
        or, given ``id2label=`` (the tag of each id), with a token classifier's (n, T) tag ids padded with −100.
    invalid
        What a prediction that is not a label does (single-label): ``"error"`` (default: a missing one, or one outside
        the declared labels, is an :class:`~clfeval.InputError` of its update), ``"wrong"`` or ``"omit"``
        (:data:`clfeval.INVALID_POLICIES`): updates keep it as the label ``(invalid)`` and :meth:`score` applies the
        policy, as :func:`clfeval.score` does with ``invalid=``. A missing gold label is an error under every policy.
    groups
        Count by group: ``True`` (the group columns named by the first update's groups), or the group columns' names
        (one name or several: intersections). The accumulator is then a
        :class:`~clfeval.accumulator.groups.GroupedAccumulator`: every update gives ``groups=`` (each instance's
        group, for spans each sentence's, as :func:`clfeval.score` takes it), each group's counts are kept apart,
        and :meth:`score` returns scores by group (:class:`~clfeval.Sliced`).

    Attributes
    ----------
    task
        The task.
    multilabel
        The multi-label options (``None`` for single-label counts).

    Raises
    ------
    OptionError
        On an unknown task, multi-label options for single-label counts, or repeated declared labels.

    Notes
    -----
    Single-label counts are the confusion matrix ``cells[g, p]`` = #{i : gold_i = g, pred_i = p}. An update codes
    both arrays into label positions 0 … K−1 and adds ``bincount(g·K + p, minlength=K²)`` to a dense int64 K×K
    table while K² ≤ 2²², else merges ``unique(g·K + p)`` into sorted (key, count) arrays, so memory follows the
    distinct (gold, predicted) pairs, not K². Integer labels are coded through a lookup table (identity when the
    labels are 0 … K−1); other labels with one ``np.unique`` over the batch and a dict lookup per distinct value.

    Multi-label counts are the multiplicities of the distinct (gold set, predicted set) pairs. Indicator rows are
    packed into bits (``np.packbits``), the distinct (gold bits, predicted bits) rows counted with one
    ``np.unique(..., axis=0)``, and only those decoded into label sets.

    ``a + b`` returns a new accumulator and leaves both operands alone; ``a.merge(b)`` (and ``a += b``) adds ``b``
    into ``a`` in place and returns ``a``. Accumulators pickle (their state is plain arrays and dicts).

    Examples
    --------
    >>> acc = Accumulator(labels=[0, 1, 2])
    >>> acc.update([0, 1, 2, 1], [0, 1, 1, 1])
    >>> acc.update(np.array([2, 2]), np.array([2, 0]))
    >>> acc.n, acc.counts.cells.tolist()
    (6, [[1, 0, 0], [0, 2, 0], [1, 1, 1]])
    >>> round(acc.score().averages["macro"]["f"], 4)
    0.6556

    Workers' accumulators add up:

    >>> other = Accumulator(labels=[0, 1, 2])
    >>> other.update([0], [0])
    >>> (acc + other).n, acc.n
    (7, 6)

    Multi-label data as indicator matrices (columns are the declared labels) or label collections:

    >>> ml = Accumulator("multi-label", labels=["cat", "dog"])
    >>> ml.update(np.array([[1, 0], [1, 1]]), np.array([[1, 0], [0, 1]]))
    >>> ml.update([["dog"]], [[]])
    >>> sorted(ml.counts.pairs.items())
    [((('cat',), ('cat',)), 1), ((('cat', 'dog'), ('dog',)), 1), ((('dog',), ()), 1)]
    """

    task: str
    multilabel: MultiLabel | None

    def __new__(cls, task: str = "single-label", *args: Any, **kwargs: Any) -> Accumulator:
        if cls is Accumulator and kwargs.get("groups") not in (None, False):  # counts kept per group
            from clfeval.accumulator.groups import GroupedAccumulator

            return object.__new__(GroupedAccumulator)
        own = KINDS[task].accumulator_class() if cls is Accumulator and task in KINDS else None
        if own is not None:  # a kind with an accumulator of its own (spans, scored predictions): the kind says which
            return cast("Accumulator", object.__new__(own))
        return object.__new__(cls)

    def __init__(
        self,
        task: str = "single-label",
        labels: Iterable[Any] | None = None,
        *,
        multilabel: MultiLabel | None = None,
        spans: Any = None,
        positive: Any = None,
        invalid: str | None = None,
        groups: Any = None,
    ) -> None:
        if groups not in (None, False):
            raise OptionError("groups= makes a grouped accumulator: call clfeval.Accumulator(..., groups=...)")
        if task not in TASKS:
            raise unknown_name("task", task, TASKS)
        self.invalid = check_invalid_policy(invalid)
        if self.invalid is not None and task != "single-label":
            raise OptionError(f"invalid= applies to single-label predictions, not task={task!r}")
        if spans is not None:
            raise OptionError("spans= reads a tagger's tags: give task='spans'")
        if positive is not None:
            raise OptionError("positive= names the class of binary scores: give task='scored'")
        if not KINDS[task].label_sets and multilabel is not None:
            raise OptionError("multilabel options are for task='multi-label'")
        if multilabel is not None and not isinstance(multilabel, MultiLabel):
            raise OptionError(f"multilabel is a clfeval.MultiLabel, not {type(multilabel).__name__}")
        if isinstance(labels, (str, bytes)):
            raise OptionError(f"labels is a collection of labels, not the string {labels!r}")
        if labels is not None and not isinstance(labels, Iterable):
            raise OptionError(f"labels is a collection of labels, not {type(labels).__name__}")
        self.task = task
        self.multilabel = (multilabel or MultiLabel()) if KINDS[task].label_sets else None
        given = None if labels is None else [_plain(v) for v in labels]
        if given is not None:
            equal: dict[Any, Any] = {}
            for value in (v for v in given if _holds_number(v)):
                first = equal.setdefault(value, value)
                if first is not value:
                    raise OptionError(
                        f"the declared labels {first!r} and {value!r} are equal numbers, which are one label"
                    )
            names = [_declared_entry(v)[0] for v in given]
            repeated = sorted(lab for lab, times in Counter(names).items() if times > 1)  # O(K), not K²
            if repeated:
                raise OptionError(f"the declared labels repeat {', '.join(map(repr, repeated))}")
            if not given:
                raise OptionError("the declared label set is empty: give the labels, or labels=None to take those seen")
        self._declared = None if given is None else tuple(given)
        if given is not None and self.invalid in MARKED:  # an invalid prediction is the declared label (invalid)
            given = [*given, INVALID_LABEL]
        self._coder = LabelCoder(None if given is None else tuple(given))  # the labels; declared: values, as given
        self._clear_counts()

    # -- state ------------------------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every count (and the labels seen; declared labels stay)."""
        self._coder.reset()
        self._clear_counts()

    def _clear_counts(self) -> None:
        """No counts, over the labels the coder holds."""
        self._n = 0
        self._updates = 0
        self._table = np.zeros((0, 0), dtype=np.int64)  # dense K×K counts (single-label, K² ≤ the dense limit)
        self._keys: np.ndarray | None = None  # sparse: sorted keys gold·K + pred and their counts
        self._counts = _EMPTY
        self._pairs: dict[tuple[LabelSet, LabelSet], int] = {}  # multi-label: (gold set, predicted set) → count
        # sample weights: None (no weights), or (label sets) (gold set, predicted set, weight) → count; single labels
        # keep an empty dict here and their (gold code, predicted code, weight) rows as arrays in _weighted_rows
        self._weighted: dict[tuple[Any, Any, float], int] | None = None
        self._weighted_rows = WeightedRows()
        self._grow(0)

    def _grow(self, old: int) -> None:
        """Fit the counts to the labels added since there were ``old``: grow the dense table, or re-stride the sparse
        keys (a dense table too large from now on becomes sparse keys)."""
        k = len(self._coder.names)
        if self.multilabel is not None or k == old:
            return
        if self._keys is not None:
            self._keys = (self._keys // old) * k + self._keys % old if old else self._keys
        elif k * k <= self._dense_cells:
            table = np.zeros((k, k), dtype=np.int64)
            table[:old, :old] = self._table
            self._table = table
        else:  # too many labels for a dense table from now on
            gold, pred = np.nonzero(self._table)
            self._keys = gold.astype(np.int64) * k + pred
            self._counts = self._table[gold, pred]
            self._table = np.zeros((0, 0), dtype=np.int64)

    def _add_labels(self, names: Iterable[str]) -> None:
        """Give codes to new labels that are names only (multi-label labels, labels read from counts)."""
        old = len(self._coder.names)
        self._coder.add_names(names)
        self._grow(old)

    _dense_cells = _DENSE_CELLS  # a class attribute, so that a test can compare the sparse and dense paths

    @property
    def labels(self) -> tuple[str, ...]:
        """The label set so far: the declared labels, or those seen in order of first appearance."""
        return tuple(self._coder.names)

    @property
    def label_origin(self) -> str:
        """Where the label set came from: ``declared``, ``columns`` or ``seen`` (see :data:`LABEL_ORIGINS`)."""
        return self._coder.origin

    @property
    def n(self) -> int:
        """The number of instances counted."""
        return self._n

    @property
    def updates(self) -> int:
        """The number of updates that counted a batch (an update refused with an error is not one; merged
        accumulators' updates included)."""
        return self._updates

    @property
    def counts(self) -> ConfusionCounts | LabelSetCounts | WeightedLabelCounts | WeightedLabelSetCounts:
        """The counts: :class:`~clfeval.ConfusionCounts` over :attr:`labels` (single-label) or
        :class:`~clfeval.LabelSetCounts` (multi-label); with sample weights, their weighted counts
        (:class:`~clfeval.count.weighted.WeightedLabelCounts`,
        :class:`~clfeval.count.weighted.WeightedLabelSetCounts`)."""
        if self._weighted is not None:
            from clfeval.count.weighted import WeightedLabelSetCounts

            if self.multilabel is not None:
                return WeightedLabelSetCounts(dict(self._weighted), self.multilabel.duplicates, self.multilabel.empty)
            return self._weighted_rows.counts(self._coder.names)
        if self.multilabel is not None:
            return LabelSetCounts(dict(self._pairs), self.multilabel.duplicates, self.multilabel.empty)
        gold, pred, count = self._entries()
        return ConfusionCounts.from_entries(self._coder.names, gold, pred, count)

    def _entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-zero single-label cells: gold codes, predicted codes, counts (sorted by gold, then predicted)."""
        k = len(self._coder.names)
        if self._keys is not None:
            return self._keys // k, self._keys % k, self._counts
        gold, pred = np.nonzero(self._table)
        return gold.astype(np.int64), pred.astype(np.int64), self._table[gold, pred]

    # -- updates ----------------------------------------------------------------------------------------------------

    def update(self, gold: Any, pred: Any, *, sample_weight: Any = None, groups: Any = None) -> None:
        """Add a batch of instances.

        Parameters
        ----------
        gold, pred
            Single-label: 1-D numpy arrays, lists, pandas or polars Series, or tensors (anything with
            ``__dlpack__`` on the CPU, or ``__array__``), one label per instance. Multi-label: 0/1 indicator
            matrices (n × K: arrays or tensors, columns in the order of the declared labels; data frames, columns by
            name) or sequences of label
            collections (strings split on the :class:`~clfeval.MultiLabel` ``sep`` when one is given).
        sample_weight
            One weight (a finite number ≥ 0) per instance, as :func:`clfeval.score` takes it: the accumulator then
            counts weighted instances, and every update must give weights (an accumulator with weights and one
            without do not merge).

        Raises
        ------
        InputError
            On different lengths, a 2-D single-label batch (scores: take ``argmax(axis=1)``), a missing label, a
            label outside the declared ones, an indicator value other than 0/1, or a tensor not on the CPU.
        """
        if groups is not None:
            raise OptionError(
                "this accumulator does not count by group: make it with clfeval.Accumulator(..., groups=True) (or "
                "the group columns' names)"
            )
        where = f"update {self._updates + 1}"
        self._check_weighing(sample_weight is not None, where)
        if self.multilabel is not None:
            self._update_sets(gold, pred, where, sample_weight)
            self._updates += 1
            return
        g, p = (_one_dimensional(_array(v, role, where), role, where) for v, role in ((gold, "gold"), (pred, "pred")))
        if len(g) != len(p):
            raise InputError(f"gold has {len(g)} labels but pred has {len(p)}", where)
        if self.invalid in MARKED:
            p = self._marked(p, where)
        w = None if sample_weight is None else self._sample_weight(sample_weight, len(g), where)
        if len(g):
            old = len(self._coder.names)
            try:
                gold_codes, pred_codes = self._coder.codes(g, p, where)
            finally:  # labels added, even by an update that fails, widen the counts
                self._grow(old)
            if w is not None:
                self._add_weighted(np.stack([gold_codes, pred_codes]), w)
                self._n += len(g)
                self._updates += 1
                return
            k = len(self._coder.names)
            keys = gold_codes * k
            keys += pred_codes
            if self._keys is None:
                self._table += np.bincount(keys, minlength=k * k).reshape(k, k)
            else:
                new_keys, new_counts = np.unique(keys, return_counts=True)
                self._keys, self._counts = _merge_sorted(
                    self._keys, self._counts, new_keys, new_counts.astype(np.int64)
                )
            self._n += len(g)
        self._updates += 1

    def _marked(self, p: np.ndarray, where: str) -> np.ndarray:
        """Predictions with each invalid one as the label :data:`~clfeval.count.invalid.INVALID_LABEL`: a missing
        one (:func:`clfeval.inputs.arrays.marked_invalid`) and, with declared labels, a value outside them (equal
        numbers are one label: declared ``1`` takes ``1.0`` and ``True``). Python works once per distinct value."""
        from clfeval.inputs.arrays import marked_invalid

        marked = np.asarray(marked_invalid(p, f"{where}: pred"))
        if self._declared is None:
            return marked
        declared = set(self._declared) | {INVALID_LABEL}
        if marked.dtype.kind == "O":
            listed = marked.tolist()
            outside = {v for v in dict.fromkeys(listed) if v not in declared}
            if not outside:
                return marked
            mask = np.fromiter(map(outside.__contains__, listed), dtype=bool, count=len(listed))
        else:
            values = np.unique(marked)
            outside_values = [v for v in values.tolist() if v not in declared]
            if not outside_values:
                return marked
            mask = np.isin(marked, np.array(outside_values, dtype=marked.dtype))
        out = marked.astype(object)
        out[mask] = INVALID_LABEL
        return out

    # -- sample weights ---------------------------------------------------------------------------------------------

    def _check_weighing(self, weighs: bool, where: str) -> None:
        """Refuse an update with weights into an accumulator that counted instances without, and the other way."""
        if not self._updates and not self._n:
            self._weighted = {} if weighs else None
            return
        if weighs != (self._weighted is not None):
            held = "weighted instances" if self._weighted is not None else "instances without weights"
            raise InputError(f"this accumulator counts {held}: give sample_weight= to every update, or to none", where)

    @staticmethod
    def _sample_weight(sample_weight: Any, n: int, where: str) -> np.ndarray:
        from clfeval.count.weighted import check_sample_weight

        try:
            # a batch may weigh 0 (as the scored accumulator's): the total is checked when scored
            return check_sample_weight(_tensor(sample_weight, "sample_weight", where), n, positive_sum=False)
        except InputError as exc:
            raise InputError(exc.message, where) from None

    def _add_weighted(self, codes: np.ndarray, w: np.ndarray) -> None:
        """Add single-label instances given as a (2, n) array of label codes with their weights: arrays appended,
        merged by a sort (:class:`~clfeval.count.weighted.WeightedRows`), no Python work per instance."""
        assert self._weighted is not None
        self._weighted_rows.add(codes[0], codes[1], w)

    # -- multi-label updates ----------------------------------------------------------------------------------------

    def _update_sets(self, gold: Any, pred: Any, where: str, sample_weight: Any = None) -> None:
        ml = self.multilabel
        assert ml is not None
        order = self._frame_order(gold, pred, where)
        gold, pred = _tensor(gold, "gold", where), _tensor(pred, "pred", where)
        g_matrix, p_matrix = (isinstance(v, np.ndarray) and v.ndim == 2 for v in (gold, pred))
        if order is not None and g_matrix and p_matrix:  # the frames' columns in the accumulator's label order
            gold, pred = gold[:, order], pred[:, order]
        if g_matrix != p_matrix:
            raise InputError("give gold and pred both as indicator matrices or both as label collections", where)
        if sample_weight is not None:
            self._update_weighted_sets(gold, pred, where, sample_weight, g_matrix)
            return
        if g_matrix:
            pairs = self._indicator_pairs(gold, pred, where)
        else:
            from clfeval.inputs.arrays import count_label_sets, to_sequence

            g_seq, p_seq = to_sequence(gold, f"{where}: gold"), to_sequence(pred, f"{where}: pred")
            if len(g_seq) != len(p_seq):
                raise InputError(f"gold has {len(g_seq)} label sets but pred has {len(p_seq)}", where)
            if not len(g_seq):
                return
            try:
                found = count_label_sets(g_seq, p_seq, duplicates=ml.duplicates, empty=ml.empty, label_sep=ml.sep)
            except InputError as exc:
                raise InputError(
                    exc.message, f"{where}: {exc.source}" if exc.source else where, index=exc.index
                ) from None
            pairs = dict(found.pairs)
            self._check_set_labels(pairs, where)
        for key, count in pairs.items():
            self._pairs[key] = self._pairs.get(key, 0) + count
            self._n += count

    def _frame_order(self, gold: Any, pred: Any, where: str) -> list[int] | None:
        """The positions, in indicator data frames, of the accumulator's labels: a frame's columns name its labels
        (:func:`~clfeval.count.classes.named_scores`, as :func:`clfeval.score` reads them), so a batch whose columns
        come in another order is counted by name, not by position. The first named batch of an accumulator without
        labels gives them; ``None`` when no frame names its columns (positions are the labels' order)."""
        from clfeval.count.classes import named_scores

        named = [
            named_scores(v.head(0))[1] if type(v).__module__.startswith(("pandas", "polars")) else None
            for v in (gold, pred)
        ]
        if named[0] is not None and named[1] is not None and named[0] != named[1]:
            raise OptionError(f"the indicator frames name different columns: {named[0]} and {named[1]} ({where})")
        names = named[0] if named[0] is not None else named[1]
        if names is None:
            return None
        if self._coder.origin == "seen" and not self._coder.names:  # the frame's columns are the labels
            self._add_labels(names)
            self._coder.origin = "columns"
            return None
        held = list(self._coder.names)
        if sorted(names) != sorted(held):
            raise InputError(
                f"the indicator frame's columns {names} are not the accumulator's labels {held}: name the same labels",
                where,
            )
        return [names.index(x) for x in held]

    def _update_weighted_sets(self, gold: Any, pred: Any, where: str, sample_weight: Any, matrices: bool) -> None:
        """Add weighted label sets: indicator matrices (each instance's sets decoded once per distinct row) or label
        collections."""
        from clfeval.inputs.arrays import count_weighted, to_sequence

        assert self.multilabel is not None and self._weighted is not None
        if matrices:
            n = gold.shape[0] if gold.ndim == 2 else 0
            w = self._sample_weight(sample_weight, n, where)
            sets, which = self._indicator_sets(gold, pred, where)
            if n:
                values, widx = np.unique(w, return_inverse=True)
                keys, counts = np.unique(np.stack([which, widx]).T, axis=0, return_counts=True)
                listed = values.tolist()
                for (u, i), m in zip(keys.tolist(), counts.tolist()):
                    row = (*sets[u], listed[i])
                    self._weighted[row] = self._weighted.get(row, 0) + m
                self._n += n
            return
        g_seq, p_seq = to_sequence(gold, f"{where}: gold"), to_sequence(pred, f"{where}: pred")
        if len(g_seq) != len(p_seq):
            raise InputError(f"gold has {len(g_seq)} label sets but pred has {len(p_seq)}", where)
        w = self._sample_weight(sample_weight, len(g_seq), where)
        if not len(g_seq):
            return
        try:
            rows = count_weighted([g_seq, p_seq], ["gold", "pred"], w, multilabel=self.multilabel)
        except InputError as exc:
            raise InputError(exc.message, f"{where}: {exc.source}" if exc.source else where, index=exc.index) from None
        self._check_set_labels({(r[0], r[1]): m for r, m in rows.items()}, where)
        for row, m in rows.items():
            self._weighted[row] = self._weighted.get(row, 0) + m
            self._n += m

    def _check_set_labels(self, pairs: Mapping[tuple[LabelSet, LabelSet], int], where: str) -> None:
        """Refuse (declared labels) or add (labels seen) the labels of new distinct pairs."""
        assert self.multilabel is not None
        allowed = EMPTY_LABEL if self.multilabel.empty == "label" else None
        for role, side in (("gold", 0), ("pred", 1)):
            names = sorted({lab for key in pairs for lab in key[side]} - self._coder.code.keys() - {allowed})
            if not names:
                continue
            if self._coder.origin != "seen":
                raise self._coder.undeclared(names[0], f"{where}: {role}")
            self._add_labels(names)

    def _indicator_pairs(self, g: np.ndarray, p: np.ndarray, where: str) -> dict[tuple[LabelSet, LabelSet], int]:
        """The distinct (gold set, predicted set) pairs of two n × K 0/1 matrices, with their counts."""
        assert self.multilabel is not None
        if g.ndim != 2 or p.ndim != 2:
            raise InputError(f"indicator matrices are n × K; found shapes {g.shape} and {p.shape}", where)
        if g.shape[0] != p.shape[0]:
            raise InputError(f"gold has {g.shape[0]} rows but pred has {p.shape[0]}", where)
        if g.shape[1] != p.shape[1]:
            raise InputError(f"gold has {g.shape[1]} columns but pred has {p.shape[1]}", where)
        k = g.shape[1]
        bits = [_indicator(m, role, where) for m, role in ((g, "gold"), (p, "pred"))]
        if self._coder.origin == "seen":
            if self._coder.names:
                raise InputError(
                    "indicator matrices need declared labels (labels=[...]) once labels came from label collections",
                    where,
                )
            self._add_labels(str(j) for j in range(k))
            self._coder.origin = "columns"
        if k != len(self._coder.names):
            raise InputError(
                f"indicator matrices have {k} columns; the accumulator has {len(self._coder.names)} labels", where
            )
        if not g.shape[0]:
            return {}
        return dict(zip(*self._distinct_pairs(bits, k, inverse=False)))

    def _indicator_sets(self, g: Any, p: Any, where: str) -> tuple[list[tuple[LabelSet, LabelSet]], np.ndarray]:
        """The distinct (gold set, predicted set) pairs of two n × K 0/1 matrices, and each instance's pair."""
        self._indicator_pairs(g, p, where)  # checks the matrices (and takes their columns as labels)
        if not g.shape[0]:
            return [], np.zeros(0, dtype=np.int64)
        bits = [_indicator(m, role, where) for m, role in ((g, "gold"), (p, "pred"))]
        pairs, which = self._distinct_pairs(bits, g.shape[1], inverse=True)
        return pairs, np.asarray(which, dtype=np.int64)

    def _distinct_pairs(self, bits: Sequence[np.ndarray], k: int, inverse: bool) -> tuple[list[Any], Any]:
        """The distinct (gold set, predicted set) pairs of 0/1 matrices, and their counts (``inverse``: each row's
        index into them)."""
        keys, found = distinct_rows(bits, lambda rows: self._decode(rows, k), inverse)  # (gold set, pred set)
        return keys, found if inverse else found.tolist()

    def _decode(self, rows: np.ndarray, k: int) -> tuple[list[LabelSet], np.ndarray]:
        """The distinct label sets among rows of packed bits (canonical: labels sorted by name), and each row's."""
        assert self.multilabel is not None
        sets, which = decode_sets(rows, self._coder.names[:k])
        if self.multilabel.empty == "label":  # the empty set is the label NONE, which co-occurs with no other
            sets = [
                canonical_set(s, self.multilabel.duplicates, "label") if not s or EMPTY_LABEL in s else s for s in sets
            ]
        return sets, which

    # -- merging ----------------------------------------------------------------------------------------------------

    def merge(self, other: Accumulator) -> Accumulator:
        """Add ``other``'s counts into this accumulator, in place, and return it (``other`` is left alone).

        Labels are aligned by value (numbers) or by name; codes are remapped, and a label's kinds of value are joined
        (a label that was ``True`` here is ``1`` once the other held the number 1), so merged workers name their
        labels as one accumulator fed all the data would. Both accumulators must count the same task with the same
        multi-label options. When both declared their labels, the sets must be equal (this one's order is kept);
        when one did, the other's labels must lie within them.

        Raises
        ------
        OptionError
            On different tasks, multi-label options or declared label sets.
        InputError
            When ``other`` holds a label outside this accumulator's declared labels, or a string named as one of
            this one's numbers (``"1"`` and ``1``).
        """
        if not isinstance(other, Accumulator):
            raise OptionError(f"an Accumulator merges with an Accumulator, not {type(other).__name__}")
        if other.task != self.task:
            raise OptionError(f"cannot merge {self.task} counts with {other.task} counts")
        if getattr(other, "invalid", None) != getattr(self, "invalid", None):
            raise OptionError(
                f"cannot merge counts kept under invalid={getattr(other, 'invalid', None)!r} into counts kept under "
                f"invalid={getattr(self, 'invalid', None)!r}"
            )
        policies = [(m.duplicates, m.empty) for m in (self.multilabel, other.multilabel) if m is not None]
        if len(policies) == 2 and policies[0] != policies[1]:
            (d1, e1), (d2, e2) = policies
            raise OptionError(
                f"cannot merge multi-label counts made with duplicates={d1!r}, empty={e1!r} and "
                f"duplicates={d2!r}, empty={e2!r}"
            )
        if (self._weighted is None) != (other._weighted is None) and (self._n or self._updates):
            raise OptionError("cannot merge an accumulator of weighted instances with one of instances without weights")
        if self._weighted is None and other._weighted is not None:  # nothing counted here yet: take the weights
            self._weighted = {}
        adopt = self._coder.origin == "seen" and other._coder.origin != "seen"  # the other's declared set
        old = len(self._coder.names)
        try:
            alias = self._coder.join(other._coder)  # the other's code → this one's code of the same label
        finally:  # labels added, even by a merge that fails, widen the counts
            self._grow(old)
        if self._weighted is not None and self.multilabel is None:
            code_of = np.array([alias[j] for j in range(len(other._coder.names))], dtype=np.int64)
            gold, pred, weights, counts = other._weighted_rows.arrays()
            self._weighted_rows.add(code_of[gold], code_of[pred], weights, counts)
        elif self._weighted is not None:
            assert other._weighted is not None
            for row, m in other._weighted.items():
                self._weighted[row] = self._weighted.get(row, 0) + m
        elif self.multilabel is not None:
            for key, count in other._pairs.items():
                self._pairs[key] = self._pairs.get(key, 0) + count
        else:
            code_of = np.array([alias[j] for j in range(len(other._coder.names))], dtype=np.int64)
            gold, pred, cells = other._entries()
            self._add_entries(code_of[gold], code_of[pred], cells)
        if adopt:
            self._relabel([alias[j] for j in range(len(other._coder.names))])
            self._coder.origin, self._coder.declared = other._coder.origin, other._coder.declared
        self._n += other._n
        self._updates += other._updates
        return self

    def _relabel(self, order: Sequence[int]) -> None:
        """Put the labels in ``order`` (a permutation of their codes), remapping the counts."""
        if list(order) == list(range(len(self._coder.names))):
            return
        gold, pred, count = self._entries() if self.multilabel is None else (_EMPTY, _EMPTY, _EMPTY)
        position = np.empty(len(order), dtype=np.int64)
        position[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
        entries = [self._coder.entry(c) for c in order]
        self._coder.clear()
        if self._keys is None:
            self._table = np.zeros((0, 0), dtype=np.int64)
        else:
            self._keys, self._counts = _EMPTY, _EMPTY
        self._coder.add(entries)
        self._grow(0)
        if self._weighted is not None and self.multilabel is None:
            self._weighted_rows = self._weighted_rows.remapped(position)
        if self.multilabel is None and len(count):
            self._add_entries(position[gold], position[pred], count)

    def _add_entries(self, gold: np.ndarray, pred: np.ndarray, count: np.ndarray) -> None:
        """Add cells given as (gold code, predicted code, count), each cell at most once."""
        k = len(self._coder.names)
        if self._keys is None:
            np.add.at(self._table, (gold, pred), count)
            return
        keys = gold * k + pred
        order = np.argsort(keys, kind="stable")
        self._keys, self._counts = _merge_sorted(self._keys, self._counts, keys[order], count[order])

    def copy(self) -> Accumulator:
        """An independent copy."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._coder, out._pairs = self._coder.copy(), dict(self._pairs)
        out._weighted = None if self._weighted is None else dict(self._weighted)
        out._weighted_rows = self._weighted_rows.copy()
        out._table, out._counts = self._table.copy(), self._counts.copy()
        out._keys = None if self._keys is None else self._keys.copy()
        return out

    def __add__(self, other: object) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        return self.copy().merge(other)

    def __radd__(self, other: object) -> Accumulator:
        if isinstance(other, int) and other == 0:  # so that sum(accumulators) works
            return self.copy()
        return NotImplemented

    def __iadd__(self, other: object) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        return self.merge(other)

    # -- scoring and files ------------------------------------------------------------------------------------------

    def counted(self) -> Counted:
        """The counts with their provenance (what :func:`clfeval.score` and :func:`clfeval.save_counts` take)."""
        from clfeval.inputs.readers import Counted

        options: dict[str, Any] = {"labels": self._coder.origin}
        stated = self.scoring_labels()
        if stated is not None:  # the label set this accumulator's scores use: load_counts scores over it too
            options["label_set"] = list(stated)
        numbers = [lab for lab, value in zip(self._coder.names, self._coder.value) if value is not None]
        if numbers:  # Accumulator.load knows these as numbers again (1.0 and True find 1; True becomes 1 beside 1)
            options["number_labels"] = "all" if len(numbers) == len(self._coder.names) else numbers
        inputs: dict[str, Any] = {"source": "accumulator", "updates": self._updates}
        if self._weighted is not None:  # the sum and number are the counts' own (clfeval.score adds them)
            inputs["sample_weight"] = {"source": "sample_weight="}
        return Counted(self.counts, inputs=inputs, options=options)

    def scoring_labels(self) -> tuple[str, ...] | None:
        """The labels scores average over by default: the declared ones (plus ``NONE`` when empty label sets are a
        label of their own, ``MultiLabel(empty="label")``), or ``None`` for the labels seen."""
        if self._coder.origin == "seen":
            return None
        names = [name for name in self._coder.names if name != INVALID_LABEL or self.invalid is None]
        extra = self.multilabel is not None and self.multilabel.empty == "label" and EMPTY_LABEL not in self._coder.code
        return (*names, EMPTY_LABEL) if extra else tuple(names)

    def score(self, *, ci: str | CI | None = "none", scoring: Scoring | None = None, **kwargs: Any) -> Scores:
        """Score the counts so far: :func:`clfeval.score` of :attr:`counts`.

        Parameters
        ----------
        ci
            Confidence intervals, as in :func:`clfeval.score`.
        scoring
            A :class:`~clfeval.Scoring`. When it names no labels, label source or training data, the declared labels
            are used (label source ``given``), else the labels seen (``union``).
        **kwargs
            Passed to :func:`clfeval.score` (``progress``); the shorthands of ``scoring`` (``ordinal=``,
            ``pos_label=``, ``beta=`` …) join the declared labels.

        Raises
        ------
        InputError
            If nothing has been counted yet.
        """
        from clfeval.api import score

        if not self._n:
            raise InputError("nothing to score: the accumulator has counted no instances")
        chosen = self._scoring_of(scoring, kwargs)
        return score(self.counted(), scoring=chosen, ci=ci, **kwargs)

    def _scoring_of(self, scoring: Scoring | None, kwargs: dict[str, Any]) -> Scoring:
        """The scoring of :meth:`score`: ``scoring`` or its shorthands (popped from ``kwargs``), with the
        accumulator's invalid policy and declared labels unless it names its own."""
        from clfeval.shorthands import SHORTHANDS, scoring_of

        given = {name: kwargs.pop(name) for name in SHORTHANDS["Scoring"] if name in kwargs}
        chosen = scoring_of(scoring, **given)  # ordinal=, pos_label= … with the declared labels below
        if self.invalid is not None and chosen.invalid is None:  # the accumulator's policy, unless scoring names one
            chosen = replace(chosen, invalid=self.invalid)
        declared = self.scoring_labels()
        if declared is not None and chosen.labels is None and chosen.labels_from is None:
            chosen = replace(chosen, labels=declared)
        return chosen

    def save(self, path: str | Path) -> None:
        """Write the counts as a count file (:func:`clfeval.save_counts`), the declared labels in its ``options``."""
        from clfeval.inputs.readers import save_counts

        save_counts(self.counted(), str(path))

    @classmethod
    def load(cls, path: str | Path) -> Accumulator:
        """An accumulator holding the counts of a count file (declared labels restored when :meth:`save` wrote it).

        Raises
        ------
        InputError
            If the file is missing, not a count file, or holds the counts of several systems.
        """
        from clfeval.inputs.layouts import count_document, counts_from_dict, number_labels, stated_labels

        source = str(path)
        doc = count_document(source)
        counts, stated = counts_from_dict(doc, source), stated_labels(doc)  # stated: None unless save wrote it
        kind = kind_of(counts)
        if kind is None or (kind.name not in TASKS and not kind.sample_weights):
            raise InputError("holds the counts of several systems: an accumulator holds one system's", source)
        labels = None if stated is None else stated[1]
        own = kind.accumulator_class()
        if own is not None:  # the kind's own accumulator
            made: Accumulator = own.from_counts(counts, labels=labels)
            return made
        if labels and kind.options(counts).get("empty") == "label" and labels[-1] == EMPTY_LABEL:
            labels = labels[:-1]  # saved as scores use it, NONE last; the accumulator adds it when it scores
        out = cls.from_counts(counts, labels=labels)
        if stated is not None:
            out._coder.origin = stated[0]
        if out.multilabel is None:  # which labels were numbers: they hold their values again (1.0 and True find 1)
            out._coder.know_numbers(number_labels(doc))
        return out

    @classmethod
    def from_counts(cls, counts: Counts, labels: Iterable[Any] | None = None) -> Accumulator:
        """An accumulator starting from ``counts``, as one update (``labels``: the declared label set, which must hold
        every label counted).

        Raises
        ------
        InputError
            If a label counted is not among ``labels``.
        """
        kind = kind_of(counts)
        if kind is not None and kind.sample_weights:
            return cls._from_weighted(kind, counts, labels)
        if kind is None or kind.name not in TASKS:
            raise OptionError(
                f"an accumulator starts from ConfusionCounts or LabelSetCounts, not {type(counts).__name__}"
            )
        confusion = kind.confusion(counts)
        if confusion is None:  # label sets: the (gold set, predicted set) pairs, counted under their options
            options = kind.options(counts)
            ml = MultiLabel(empty=options["empty"], duplicates=options["duplicates"])
            out = cls(kind.name, labels, multilabel=ml)
            rows, weights = kind.rows(counts)
            pairs = dict(zip(rows, weights.tolist()))
            out._check_set_labels(pairs, "counts")
            out._pairs = pairs
        else:
            counts = confusion
            out = cls(kind.name, labels)
            gold_seen, pred_seen = counts.seen_labels()
            outside = set(gold_seen | pred_seen) - out._coder.code.keys()
            if outside and labels is not None:
                raise out._coder.undeclared(min(outside), "counts")
            out._add_labels(lab for lab in counts.labels if lab in outside)
            code = np.array([out._coder.code.get(lab, -1) for lab in counts.labels], dtype=np.int64)
            out._add_entries(code[counts.gold], code[counts.pred], counts.count.copy())
        out._n, out._updates = counts.n_instances, 1
        return out

    @classmethod
    def _from_weighted(cls, kind: Any, counts: Any, labels: Iterable[Any] | None) -> Accumulator:
        """An accumulator starting from weighted counts (of the kind ``kind``), as one update."""
        ml = counts.multilabel if kind.label_sets else None
        out = cls("multi-label" if ml is not None else "single-label", labels, multilabel=ml)
        out._weighted = {}
        if ml is not None:
            out._check_set_labels({(g, p): m for (g, p, _), m in counts.rows.items()}, "counts")
            out._weighted = dict(counts.rows)
        else:
            gold_seen, pred_seen = kind.labels_seen(counts)
            outside = set(gold_seen | pred_seen) - out._coder.code.keys()
            if outside and labels is not None:
                raise out._coder.undeclared(min(outside), "counts")
            out._add_labels(sorted(outside))
            code = np.array([out._coder.code[lab] for lab in counts.labels], dtype=np.int64)
            out._weighted_rows.add(code[counts.gold], code[counts.pred], counts.weights, counts.counts)
        out._n, out._updates = counts.n_instances, 1
        return out

    def __repr__(self) -> str:
        layout = "" if self.multilabel is not None else ", sparse" if self._keys is not None else ", dense"
        return (
            f"Accumulator({self.task}, {len(self._coder.names)} labels ({self._coder.origin}), {self._n:,} instances, "
            f"{self._updates} updates{layout})"
        )
