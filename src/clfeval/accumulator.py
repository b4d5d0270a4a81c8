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

Tensors are read through DLPack (``__dlpack__``, zero-copy, CPU only) or ``__array__``; the framework itself is never
imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelnames import (
    BOOL,
    EXACT_FLOAT,
    FLOAT,
    INT,
    is_missing,
    is_number,
    joint_kinds,
    label_name,
    number_named,
    settled,
    value_kind,
)
from clfeval.count.labelsets import EMPTY_LABEL, LabelSet, LabelSetCounts, MultiLabel, canonical_set
from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.inputs.arrays import _coded, _Codes, exact_array, exact_int64
from clfeval.kinds import KINDS, Counts, kind_of

if TYPE_CHECKING:
    from clfeval.infer.methods import CI
    from clfeval.inputs.readers import Counted
    from clfeval.scoring.options import Scoring
    from clfeval.scoring.scores import Scores

__all__ = ["TASKS", "Accumulator"]

#: The tasks an accumulator counts, with their one-line definitions.
TASKS: Mapping[str, str] = {
    "single-label": "one label per instance: a 1-D array of gold labels and one of predicted labels",
    "multi-label": "a set of labels per instance: 0/1 indicator matrices (n × K) or sequences of label collections",
}

#: Where an accumulator's label set came from (recorded in the counts' provenance and scores' ``options``).
LABEL_ORIGINS: Mapping[str, str] = {
    "declared": "the labels given to the accumulator, in report order; a value outside them is an error",
    "columns": "the columns of the first indicator matrix, named 0 … K−1",
    "seen": "the labels that occurred in the updates (the set grows as new labels appear)",
}

_DENSE_CELLS = 1 << 22  # the largest K·K table kept dense (32 MiB of int64); beyond it the counts are sparse
_INT_TABLE = 1 << 22  # integer labels below this map to codes through a lookup table (no sort)
_EMPTY = np.zeros(0, dtype=np.int64)
_NONE = np.array(None, dtype=object)
_NUMBER, _TEXT, _NAME = 0, 1, 2  # a label's category: a number, a string seen in the data, a name only
_KIND_OF_DTYPE = {"b": BOOL, "i": INT, "u": INT, "f": FLOAT}
# DLPack device types (dlpack.h) other than the CPU (1), for the message refusing them
_DEVICES = {
    2: "cuda",
    3: "cuda (pinned host)",
    4: "opencl",
    7: "vulkan",
    8: "metal",
    9: "vpi",
    10: "rocm",
    14: "oneapi",
}


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

    def __init__(
        self, task: str = "single-label", labels: Iterable[Any] | None = None, *, multilabel: MultiLabel | None = None
    ) -> None:
        if task not in TASKS:
            raise unknown_name("task", task, TASKS)
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
        self._declared: tuple[Any, ...] | None = None if given is None else tuple(given)  # values, as given
        if given is not None:
            equal: dict[Any, Any] = {}
            for value in (v for v in given if _holds_number(v)):
                first = equal.setdefault(value, value)
                if first is not value:
                    raise OptionError(
                        f"the declared labels {first!r} and {value!r} are equal numbers, which are one label"
                    )
            names = [_declared_entry(v)[0] for v in given]
            repeated = sorted({lab for lab in names if names.count(lab) > 1})
            if repeated:
                raise OptionError(f"the declared labels repeat {', '.join(map(repr, repeated))}")
            if not given:
                raise OptionError("the declared label set is empty: give the labels, or labels=None to take those seen")
        self.reset()

    # -- state ------------------------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every count (and the labels seen; declared labels stay)."""
        self._origin = "seen" if self._declared is None else "declared"
        self._clear_labels()
        self._n = 0
        self._updates = 0
        self._table = np.zeros((0, 0), dtype=np.int64)  # dense K×K counts (single-label, K² ≤ the dense limit)
        self._keys: np.ndarray | None = None  # sparse: sorted keys gold·K + pred and their counts
        self._counts = _EMPTY
        self._pairs: dict[tuple[LabelSet, LabelSet], int] = {}  # multi-label: (gold set, predicted set) → count
        if self._declared is not None:
            self._add(_declared_entry(v) for v in self._declared)

    def _clear_labels(self) -> None:
        """No labels. Each label has a name (by the rule of :mod:`~clfeval.count.labelnames`), a category (a number,
        a string seen in the data, or a name only: declared as a string, or read from counts), the number it holds
        and the kinds of value it occurred as, which decide its name."""
        self._labels: list[str] = []
        self._code: dict[str, int] = {}
        self._category: list[int] = []  # _NUMBER, _TEXT or _NAME
        self._value: list[Any] = []  # the number a label holds (a Python int, float or bool), or None
        self._kinds: list[int] = []  # the kinds of value it occurred as (labelnames.BOOL | INT | FLOAT)
        self._by_value: dict[Any, int] = {}  # number → code: equal numbers (1, 1.0, True) are one key
        self._open: set[int] = set()  # number labels whose names another kind of value may still change
        self._n_names = 0  # labels that are names only (a number spelled as one matches them)
        self._int_table = np.full(0, -1, dtype=np.int64)  # integer value → code (-1: not a label yet)
        self._identity = True  # labels are "0", "1", … in code order: integer values are their codes

    @property
    def labels(self) -> tuple[str, ...]:
        """The label set so far: the declared labels, or those seen in order of first appearance."""
        return tuple(self._labels)

    @property
    def label_origin(self) -> str:
        """Where the label set came from: ``declared``, ``columns`` or ``seen`` (see :data:`LABEL_ORIGINS`)."""
        return self._origin

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
    def counts(self) -> ConfusionCounts | LabelSetCounts:
        """The counts: :class:`~clfeval.ConfusionCounts` over :attr:`labels` (single-label) or
        :class:`~clfeval.LabelSetCounts` (multi-label)."""
        if self.multilabel is not None:
            return LabelSetCounts(dict(self._pairs), self.multilabel.duplicates, self.multilabel.empty)
        gold, pred, count = self._entries()
        return ConfusionCounts.from_entries(self._labels, gold, pred, count)

    def _entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The non-zero single-label cells: gold codes, predicted codes, counts (sorted by gold, then predicted)."""
        k = len(self._labels)
        if self._keys is not None:
            return self._keys // k, self._keys % k, self._counts
        gold, pred = np.nonzero(self._table)
        return gold.astype(np.int64), pred.astype(np.int64), self._table[gold, pred]

    def _add_labels(self, names: Iterable[str]) -> None:
        """Give codes to new labels that are names only (multi-label labels, labels read from counts)."""
        self._add((name, _NAME, None, 0) for name in names)

    def _add(self, entries: Iterable[tuple[str, int, Any, int]]) -> None:
        """Give codes to new labels, each (name, category, number or None, kinds), growing the dense table or
        re-striding the sparse keys."""
        old = len(self._labels)
        for name, category, value, kinds in entries:
            code = self._code[name] = len(self._labels)
            self._labels.append(name)
            self._category.append(category)
            self._value.append(value)
            self._kinds.append(kinds)
            self._n_names += category == _NAME
            if value is not None:
                self._by_value.setdefault(value, code)
                if category == _NUMBER and not settled(value, kinds):
                    self._open.add(code)
            self._identity = self._identity and name == str(code) and category != _TEXT and code not in self._open
            self._register_int(code)
        k = len(self._labels)
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

    def _register_int(self, code: int) -> None:
        """Enter a label in the integer value → code table when an integer array may find it there: a number whose
        name is settled, or a name only that spells a non-negative integer (never a string seen in the data)."""
        category, value = self._category[code], self._value[code]
        if category == _TEXT or code in self._open:
            return
        if value is None:
            whole = _int_value(self._labels[code])
        elif isinstance(value, float):
            whole = int(value) if value.is_integer() else None
        else:
            whole = int(value)
        if whole is None or not 0 <= whole < _INT_TABLE:
            return
        if whole >= len(self._int_table):
            grown = np.full(max(whole + 1, 2 * len(self._int_table)), -1, dtype=np.int64)
            grown[: len(self._int_table)] = self._int_table
            self._int_table = grown
        if self._int_table[whole] < 0:
            self._int_table[whole] = code

    def _widen(self, code: int, kinds: int, where: str) -> None:
        """The label ``code`` occurs as ``kinds`` too: a boolean label beside an equal number is named as the number,
        an integral float beyond 2⁵³ beside an equal integer as the integer (renamed, once)."""
        now = self._kinds[code] | kinds
        if now == self._kinds[code]:
            return
        self._kinds[code] = now
        if code in self._open and settled(self._value[code], now):
            self._open.discard(code)
            name = label_name(self._value[code], now)
            if name != self._labels[code]:
                other = self._code.get(name)
                if other is not None:
                    raise InputError(
                        f"labels {self._shown(other)} and {self._value[code]!r} (named {name!r} beside an equal "
                        f"number) have the same name {name!r}; use one type of label",
                        where,
                    )
                del self._code[self._labels[code]]
                self._code[name] = code
                self._labels[code] = name
                self._identity = all(
                    lab == str(i) and c != _TEXT and i not in self._open
                    for i, (lab, c) in enumerate(zip(self._labels, self._category))
                )
            self._register_int(code)

    def _shown(self, code: int) -> str:
        """A label as an error message shows it: its number, or its name."""
        value = self._value[code]
        return repr(value) if value is not None and self._category[code] == _NUMBER else repr(self._labels[code])

    _dense_cells = _DENSE_CELLS  # a class attribute, so that a test can compare the sparse and dense paths

    # -- updates ----------------------------------------------------------------------------------------------------

    def update(self, gold: Any, pred: Any) -> None:
        """Add a batch of instances.

        Parameters
        ----------
        gold, pred
            Single-label: 1-D numpy arrays, lists, pandas or polars Series, or tensors (anything with
            ``__dlpack__`` on the CPU, or ``__array__``), one label per instance. Multi-label: 0/1 indicator
            matrices (n × K: arrays or tensors, columns in the order of the declared labels) or sequences of label
            collections (strings split on the :class:`~clfeval.MultiLabel` ``sep`` when one is given).

        Raises
        ------
        InputError
            On different lengths, a 2-D single-label batch (scores: take ``argmax(axis=1)``), a missing label, a
            label outside the declared ones, an indicator value other than 0/1, or a tensor not on the CPU.
        """
        where = f"update {self._updates + 1}"
        if self.multilabel is not None:
            self._update_sets(gold, pred, where)
            self._updates += 1
            return
        g, p = (_one_dimensional(_array(v, role, where), role, where) for v, role in ((gold, "gold"), (pred, "pred")))
        if len(g) != len(p):
            raise InputError(f"gold has {len(g)} labels but pred has {len(p)}", where)
        if len(g):
            gold_codes, pred_codes = self._codes(g, p, where)
            k = len(self._labels)
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

    def _codes(self, g: np.ndarray, p: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Both arrays as int64 label codes, new labels added (or refused when the labels are declared).

        Labels are named by the one rule of :mod:`clfeval.count.labelnames`, as :func:`clfeval.score` names them:
        strings as they are, numbers by value (``1``, ``1.0`` and ``np.uint64(1)`` are one label ``1``), booleans
        ``False`` and ``True`` unless an equal number occurs too. A label keeps the kinds of value it occurred as
        over every update, so its name does not depend on how the data was split into batches or workers. Python
        works once per distinct value of a batch; integer arrays go through a value → code table.
        """
        if g.dtype.kind == "O" or p.dtype.kind == "O":  # Python objects (a pandas object Series): typed where exact
            _check_missing(np.concatenate([g, p]), len(g), where)
            g, p = (_inferred(a) for a in (g, p))
            if g.dtype.kind == "O" or p.dtype.kind == "O":
                return self._object_codes(g, p, where)
        gk, pk = g.dtype.kind, p.dtype.kind
        if gk == "b" and pk == "b":
            return self._bool_codes(g, p, where)
        if gk in "iu" and pk in "iu":
            lo = min(int(g.min()), int(p.min()))
            hi = max(int(g.max()), int(p.max()))
            if lo >= 0 and self._identity and hi < len(self._labels):  # declared 0 … K−1: the values are the codes
                return g.astype(np.int64, copy=False), p.astype(np.int64, copy=False)
            if lo >= 0 and hi < _INT_TABLE:
                return self._table_codes(g, p, hi, where)
        for role, arr in (("gold", g), ("pred", p)):
            if arr.dtype.kind == "f" and np.isnan(arr).any():
                raise InputError(
                    "is NaN: a missing label", f"{where}: {role}", index=int(np.flatnonzero(np.isnan(arr))[0])
                )
        if gk in "biuf" and pk in "biuf":
            return self._number_codes(g, p, where)
        if gk == "U" and pk == "U":
            codes = self._text_codes(np.concatenate([g, p]), len(g), where)
            return codes[: len(g)], codes[len(g) :]
        return self._object_codes(g.astype(object), p.astype(object), where)  # bytes, strings beside numbers …

    def _bool_codes(self, g: np.ndarray, p: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes of boolean labels: the labels of the equal values ``False`` and ``True`` (0 and 1); once both are
        labels, one gather per array."""
        table = np.array([self._by_value.get(v, -1) for v in (False, True)], dtype=np.int64)
        if (table < 0).any():
            both = np.concatenate([g.view(np.uint8), p.view(np.uint8)])
            present = np.flatnonzero(np.bincount(both, minlength=2))
            missing = [int(v) for v in present if table[v] < 0]
            if missing:
                table[missing] = self._number_lookup(
                    [bool(v) for v in missing],
                    [BOOL] * len(missing),
                    lambda i: _first(both == missing[i], len(g)),
                    where,
                )
        if table[0] == 0 and table[1] == 1:  # False and True are the codes 0 and 1: the values are the codes
            return g.view(np.uint8).astype(np.int64), p.view(np.uint8).astype(np.int64)
        return table[g.view(np.uint8)], table[p.view(np.uint8)]

    def _number_codes(self, g: np.ndarray, p: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes of numeric labels outside the integer table (negative, large, float; booleans beside numbers):
        ``np.unique`` of the values in a dtype that holds each exactly (int64, float64, or Python numbers for what
        neither holds), each distinct value's kinds from the arrays it occurs in, then a lookup per distinct value."""
        gk, pk = g.dtype.kind, p.dtype.kind
        if gk in "iub" and pk in "iub":
            ints = exact_int64(g, p)
            parts = ints if ints is not None else [g.astype(object), p.astype(object)]
        elif all(a.dtype.kind == "f" or not a.size or max(-int(a.min()), int(a.max())) <= EXACT_FLOAT for a in (g, p)):
            parts = [g.astype(np.float64, copy=False), p.astype(np.float64, copy=False)]
        else:  # integers beyond 2⁵³ beside floats: float64 would merge neighbours
            parts = [g.astype(object), p.astype(object)]
        values, inverse = np.unique(np.concatenate(parts), return_inverse=True)
        inverse = inverse.reshape(-1)
        kg, kp = _KIND_OF_DTYPE[gk], _KIND_OF_DTYPE[pk]
        listed = values.tolist()
        if kg == kp:
            kinds = [kg] * len(listed)
        else:  # each distinct value's kinds: those of the arrays it occurs in
            in_gold, in_pred = np.zeros(len(listed), dtype=bool), np.zeros(len(listed), dtype=bool)
            in_gold[inverse[: len(g)]] = True
            in_pred[inverse[len(g) :]] = True
            kinds = (np.where(in_gold, kg, 0) | np.where(in_pred, kp, 0)).tolist()
            listed = [_typed(v, k) for v, k in zip(listed, kinds)]
        codes = self._number_lookup(listed, kinds, _locator(inverse, len(g)), where)[inverse]
        return codes[: len(g)], codes[len(g) :]

    def _object_codes(self, g: np.ndarray, p: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes of Python values of several types (strings beside numbers, booleans beside numbers, integers beyond
        2⁵³ beside floats): one hash lookup per element into the distinct values, each named by the rule with the
        kinds of its equal values in the batch."""
        listed = [g.tolist(), p.tolist()]
        index = _Codes()
        local = _coded(index, listed, [f"{where}: gold", f"{where}: pred"])
        distinct = list(index)
        kinds = joint_kinds(distinct, listed)
        locate = _locator(local, len(g))
        codes = np.empty(len(distinct), dtype=np.int64)
        numbers = sorted((i for i, k in enumerate(kinds) if k), key=distinct.__getitem__)  # new labels by value
        if numbers:
            codes[numbers] = self._number_lookup(
                [_typed(_plain(distinct[i]), kinds[i]) for i in numbers],
                [kinds[i] for i in numbers],
                lambda j: locate(numbers[j]),
                where,
            )
        others = [i for i, k in enumerate(kinds) if not k]
        if others:
            codes[others] = self._text_lookup(
                [v if isinstance(v, str) else str(v) for v in (distinct[i] for i in others)],
                lambda j: locate(others[j]),
                where,
            )
        both = codes[local]
        return both[: len(g)], both[len(g) :]

    def _text_codes(self, both: np.ndarray, n_gold: int, where: str) -> np.ndarray:
        """Codes of string labels: a binary search among the known labels (``np.unique`` of the misses only)."""
        known = np.array(self._labels, dtype=str)
        order = np.argsort(known, kind="stable")
        ranked = known[order]
        at = np.searchsorted(ranked, both)
        at[at == len(ranked)] = 0
        hit = ranked[at] == both if len(ranked) else np.zeros(len(both), dtype=bool)
        if hit.all():
            codes = order[at].astype(np.int64)
            if self._by_value and self._declared is None:  # a string is not a number label (declared: matched by name)
                numbers = np.array([c == _NUMBER for c in self._category], dtype=bool)[codes]
                if numbers.any():
                    at_first = int(np.flatnonzero(numbers)[0])
                    role, index = ("gold", at_first) if at_first < n_gold else ("pred", at_first - n_gold)
                    raise self._alike(int(codes[at_first]), str(both[at_first]), f"{where}: {role}", index)
            return codes
        new = np.unique(both[~hit]).tolist()
        if self._declared is not None:
            position = int(np.flatnonzero(both == new[0])[0])
            role, index = ("gold", position) if position < n_gold else ("pred", position - n_gold)
            raise self._undeclared(new[0], f"{where}: {role}", index)
        self._add((name, _TEXT, None, 0) for name in new)
        return self._text_codes(both, n_gold, where)

    def _table_codes(self, g: np.ndarray, p: np.ndarray, hi: int, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes of non-negative integer labels below the table size: a gather through the value → code table."""
        if hi >= len(self._int_table):
            grown = np.full(max(hi + 1, 2 * len(self._int_table)), -1, dtype=np.int64)
            grown[: len(self._int_table)] = self._int_table
            self._int_table = grown
        gold_codes, pred_codes = self._int_table[g], self._int_table[p]
        if min(int(gold_codes.min()), int(pred_codes.min())) < 0:  # values that are not labels yet
            missing = [g[gold_codes < 0].astype(np.int64), p[pred_codes < 0].astype(np.int64)]  # uint64 + int64: exact
            new = np.unique(np.concatenate(missing)).tolist()

            def locate(i: int) -> tuple[str, int]:
                at = np.flatnonzero(g == new[i])
                return ("gold", int(at[0])) if len(at) else ("pred", int(np.flatnonzero(p == new[i])[0]))

            found = self._number_lookup(new, [INT] * len(new), locate, where)
            self._int_table[new] = found
            gold_codes, pred_codes = self._int_table[g], self._int_table[p]
        return gold_codes, pred_codes

    def _number_lookup(
        self, values: Sequence[Any], kinds: Sequence[int], locate: Callable[[int], tuple[str, int]], where: str
    ) -> np.ndarray:
        """Each distinct number's code (``values``: Python numbers, no two equal, occurring as ``kinds``): its label
        by value (its kinds joined, which may rename it), else a label that is a name spelling it, else a new label
        named by the rule, or an error at ``locate(i)`` (role, index) when the labels are declared."""
        codes = np.fromiter(map(self._by_value.get, values, repeat(-1)), dtype=np.int64, count=len(values))
        if self._open:
            for i in np.flatnonzero(np.isin(codes, list(self._open))).tolist():
                self._widen(int(codes[i]), kinds[i], where)
        misses = np.flatnonzero(codes < 0).tolist()
        if not misses:
            return codes
        new: list[int] = []
        for i in misses:
            found = self._name_match(values[i], kinds[i]) if self._n_names else -1
            if found >= 0:
                codes[i] = found
            elif self._declared is not None:
                role, index = locate(i)
                raise self._undeclared(label_name(values[i], kinds[i]), f"{where}: {role}", index)
            else:
                new.append(i)
        if new:
            entries = [(label_name(values[i], kinds[i]), _NUMBER, values[i], kinds[i]) for i in new]
            for (name, _, value, _), i in zip(entries, new):
                if name in self._code:  # a string seen in the data, named alike
                    role, index = locate(i)
                    raise self._alike(self._code[name], value, f"{where}: {role}", index)
            start = len(self._labels)
            self._add(entries)
            codes[new] = np.arange(start, len(self._labels))
        return codes

    def _name_match(self, value: Any, kinds: int) -> int:
        """The code of a label that is a name only (declared as a string, read from counts) spelling the number
        ``value`` (by the rule, or by ``str`` as earlier versions named it), which then holds it; −1 if none."""
        for name in dict.fromkeys((label_name(value, kinds), str(value))):
            code = self._code.get(name)
            if code is not None and self._category[code] == _NAME:
                if self._value[code] is None:
                    self._value[code] = value
                self._by_value.setdefault(value, code)
                self._register_int(code)
                return code
        return -1

    def _text_lookup(self, names: Sequence[str], locate: Callable[[int], tuple[str, int]], where: str) -> np.ndarray:
        """Each distinct string's code (a label of that name, never a number's), new labels added."""
        codes = np.fromiter((self._code.get(name, -1) for name in names), dtype=np.int64, count=len(names))
        for i, code in enumerate(codes.tolist() if self._declared is None else ()):  # declared: matched by name
            if code >= 0 and self._category[code] == _NUMBER:
                role, index = locate(i)
                raise self._alike(code, names[i], f"{where}: {role}", index)
        misses = np.flatnonzero(codes < 0).tolist()
        if misses and self._declared is not None:
            role, index = locate(misses[0])
            raise self._undeclared(names[misses[0]], f"{where}: {role}", index)
        if misses:
            start = len(self._labels)
            self._add((names[i], _TEXT, None, 0) for i in misses)
            codes[misses] = np.arange(start, len(self._labels))
        return codes

    def _alike(self, code: int, value: Any, where: str, index: int | None = None) -> InputError:
        """The error for a value named as the label ``code`` is, though not equal to it (``1`` and ``"1"``)."""
        return InputError(
            f"labels {self._shown(code)} and {value!r} have the same name {self._labels[code]!r}; "
            "use one type of label",
            where,
            index=index,
        )

    def _undeclared(self, value: str, where: str, index: int | None = None) -> InputError:
        shown = ", ".join(map(repr, self._labels[:8])) + (", …" if len(self._labels) > 8 else "")
        what = "declared" if self._origin == "declared" else "indicator columns'"
        hint = ""
        if value.endswith(".0") and value[:-2] in self._code:
            hint = "; cast float labels to integers"
        return InputError(
            f"holds the label {value!r}, not among the {len(self._labels)} {what} labels ({shown}){hint}",
            where,
            index=index,
        )

    # -- multi-label updates ----------------------------------------------------------------------------------------

    def _update_sets(self, gold: Any, pred: Any, where: str) -> None:
        ml = self.multilabel
        assert ml is not None
        gold, pred = _tensor(gold, "gold", where), _tensor(pred, "pred", where)
        g_matrix, p_matrix = (isinstance(v, np.ndarray) and v.ndim == 2 for v in (gold, pred))
        if g_matrix != p_matrix:
            raise InputError("give gold and pred both as indicator matrices or both as label collections", where)
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

    def _check_set_labels(self, pairs: Mapping[tuple[LabelSet, LabelSet], int], where: str) -> None:
        """Refuse (declared labels) or add (labels seen) the labels of new distinct pairs."""
        assert self.multilabel is not None
        allowed = EMPTY_LABEL if self.multilabel.empty == "label" else None
        for role, side in (("gold", 0), ("pred", 1)):
            names = sorted({lab for key in pairs for lab in key[side]} - self._code.keys() - {allowed})
            if not names:
                continue
            if self._origin != "seen":
                raise self._undeclared(names[0], f"{where}: {role}")
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
        if self._origin == "seen":
            if self._labels:
                raise InputError(
                    "indicator matrices need declared labels (labels=[...]) once labels came from label collections",
                    where,
                )
            self._add_labels(str(j) for j in range(k))
            self._origin = "columns"
        if k != len(self._labels):
            raise InputError(
                f"indicator matrices have {k} columns; the accumulator has {len(self._labels)} labels", where
            )
        if not g.shape[0]:
            return {}
        packed = [np.packbits(b, axis=1, bitorder="little") for b in bits]
        distinct, counts = _unique_rows(np.concatenate(packed, axis=1))  # distinct (gold bits, pred bits) rows
        width = packed[0].shape[1]
        gold_sets, gold_of = self._decode(distinct[:, :width], k)
        pred_sets, pred_of = self._decode(distinct[:, width:], k)
        keys = zip(map(gold_sets.__getitem__, gold_of.tolist()), map(pred_sets.__getitem__, pred_of.tolist()))
        return dict(zip(keys, counts.tolist()))

    def _decode(self, rows: np.ndarray, k: int) -> tuple[list[LabelSet], np.ndarray]:
        """The distinct label sets among rows of packed bits (canonical: labels sorted by name), and each row's."""
        assert self.multilabel is not None
        patterns, which = _unique_rows(rows, inverse=True)
        bits = np.unpackbits(patterns, axis=1, count=k, bitorder="little")
        row, col = np.nonzero(bits)
        rank = np.empty(k, dtype=np.int64)
        rank[sorted(range(k), key=self._labels.__getitem__)] = np.arange(k)
        order = np.lexsort((rank[col], row))
        flat = np.array(self._labels, dtype=object)[col[order]].tolist()
        ends = np.cumsum(np.bincount(row, minlength=len(patterns))).tolist()
        sets = [tuple(flat[a:b]) for a, b in zip([0, *ends[:-1]], ends)]
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
        policies = [(m.duplicates, m.empty) for m in (self.multilabel, other.multilabel) if m is not None]
        if len(policies) == 2 and policies[0] != policies[1]:
            (d1, e1), (d2, e2) = policies
            raise OptionError(
                f"cannot merge multi-label counts made with duplicates={d1!r}, empty={e1!r} and "
                f"duplicates={d2!r}, empty={e2!r}"
            )
        fixed = self._origin != "seen"
        alias = self._aliases(other)  # the other's code → this one's code of the same label
        if (
            fixed
            and other._origin != "seen"
            and (len(alias) != len(other._labels) or set(alias.values()) != set(range(len(self._labels))))
        ):
            unmatched = {other._labels[j] for j in range(len(other._labels)) if j not in alias}
            unmatched |= {self._labels[c] for c in set(range(len(self._labels))) - set(alias.values())}
            differ = ", ".join(map(repr, sorted(unmatched)[:5]))
            raise OptionError(f"cannot merge accumulators with different declared label sets (they differ in {differ})")
        new = [j for j in range(len(other._labels)) if j not in alias]
        if new and fixed:
            raise self._undeclared(other._labels[new[0]], "merge")
        if not fixed and other._origin != "seen":  # the other's declared set becomes this one's
            matched = set(alias.values())
            outside = [c for c in range(len(self._labels)) if c not in matched]
            if outside:
                raise other._undeclared(self._labels[outside[0]], "merge")
        start = len(self._labels)
        self._add((other._labels[j], other._category[j], other._value[j], other._kinds[j]) for j in new)
        alias.update(zip(new, range(start, len(self._labels))))
        for j, code in alias.items():
            value = other._value[j]
            if value is not None and self._value[code] is None and self._category[code] == _NAME:
                self._value[code] = value  # a name only here, a number there
                self._by_value.setdefault(value, code)
                self._register_int(code)
            if other._kinds[j] and self._category[code] == _NUMBER:
                self._widen(code, other._kinds[j], "merge")
        if self.multilabel is not None:
            for key, count in other._pairs.items():
                self._pairs[key] = self._pairs.get(key, 0) + count
        else:
            code_of = np.array([alias[j] for j in range(len(other._labels))], dtype=np.int64)
            gold, pred, cells = other._entries()
            self._add_entries(code_of[gold], code_of[pred], cells)
        if not fixed and other._origin != "seen":
            self._relabel([alias[j] for j in range(len(other._labels))])
            self._origin, self._declared = other._origin, other._declared
        self._n += other._n
        self._updates += other._updates
        return self

    def _aliases(self, other: Accumulator) -> dict[int, int]:
        """Each of ``other``'s labels that this accumulator holds: by value (a number: ``1`` here, ``True`` or ``1.0``
        there), else by name, mapped to this one's code.

        Raises
        ------
        InputError
            For a number there and a string seen in the data here (or the other way round) named alike.
        """
        out = {}
        for j, name in enumerate(other._labels):
            value, category = other._value[j], other._category[j]
            code = self._by_value.get(value, -1) if value is not None else -1
            if code < 0 and value is not None and self._n_names:
                for spelled in dict.fromkeys((label_name(value, other._kinds[j]), str(value))):
                    found = self._code.get(spelled, -1)
                    if found >= 0 and self._category[found] == _NAME:
                        code = found
                        break
            if code < 0:
                code = self._code.get(name, -1)
                if code >= 0 and {category, self._category[code]} == {_NUMBER, _TEXT}:
                    number = value if category == _NUMBER else self._value[code]
                    raise InputError(
                        f"labels {number!r} and {name!r} have the same name {name!r}; use one type of label", "merge"
                    )
            if code >= 0:
                out[j] = code
        return out

    def _relabel(self, order: Sequence[int]) -> None:
        """Put the labels in ``order`` (a permutation of their codes), remapping the counts."""
        if list(order) == list(range(len(self._labels))):
            return
        gold, pred, count = self._entries() if self.multilabel is None else (_EMPTY, _EMPTY, _EMPTY)
        position = np.empty(len(order), dtype=np.int64)
        position[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
        entries = [(self._labels[c], self._category[c], self._value[c], self._kinds[c]) for c in order]
        self._clear_labels()
        if self._keys is None:
            self._table = np.zeros((0, 0), dtype=np.int64)
        else:
            self._keys, self._counts = _EMPTY, _EMPTY
        self._add(entries)
        if self.multilabel is None and len(count):
            self._add_entries(position[gold], position[pred], count)

    def _add_entries(self, gold: np.ndarray, pred: np.ndarray, count: np.ndarray) -> None:
        """Add cells given as (gold code, predicted code, count), each cell at most once."""
        k = len(self._labels)
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
        out._labels, out._code, out._pairs = list(self._labels), dict(self._code), dict(self._pairs)
        out._category, out._value, out._kinds = list(self._category), list(self._value), list(self._kinds)
        out._by_value, out._open = dict(self._by_value), set(self._open)
        out._int_table, out._table, out._counts = self._int_table.copy(), self._table.copy(), self._counts.copy()
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

        options: dict[str, Any] = {"labels": self._origin}
        stated = self.scoring_labels()
        if stated is not None:  # the label set this accumulator's scores use: load_counts scores over it too
            options["label_set"] = list(stated)
        numbers = [lab for lab, value in zip(self._labels, self._value) if value is not None]
        if numbers:  # Accumulator.load knows these as numbers again (1.0 and True find 1; True becomes 1 beside 1)
            options["number_labels"] = "all" if len(numbers) == len(self._labels) else numbers
        return Counted(self.counts, inputs={"source": "accumulator", "updates": self._updates}, options=options)

    def scoring_labels(self) -> tuple[str, ...] | None:
        """The labels scores average over by default: the declared ones (plus ``NONE`` when empty label sets are a
        label of their own, ``MultiLabel(empty="label")``), or ``None`` for the labels seen."""
        if self._origin == "seen":
            return None
        extra = self.multilabel is not None and self.multilabel.empty == "label" and EMPTY_LABEL not in self._code
        return (*self._labels, EMPTY_LABEL) if extra else tuple(self._labels)

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
            Passed to :func:`clfeval.score` (``progress``).

        Raises
        ------
        InputError
            If nothing has been counted yet.
        """
        from clfeval.api import score
        from clfeval.scoring.options import Scoring

        if not self._n:
            raise InputError("nothing to score: the accumulator has counted no instances")
        chosen = Scoring.of(scoring)
        declared = self.scoring_labels()
        if declared is not None and chosen.labels is None and chosen.labels_from is None:
            chosen = replace(chosen, labels=declared)
        return score(self.counted(), scoring=chosen, ci=ci, **kwargs)

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
        if kind is None or kind.name not in TASKS:
            raise InputError("holds the counts of several systems: an accumulator holds one system's", source)
        labels = None if stated is None else stated[1]
        if labels and kind.options(counts).get("empty") == "label" and labels[-1] == EMPTY_LABEL:
            labels = labels[:-1]  # saved as scores use it, NONE last; the accumulator adds it when it scores
        out = cls.from_counts(counts, labels=labels)
        if stated is not None:
            out._origin = stated[0]
        if out.multilabel is None:  # which labels were numbers: they hold their values again (1.0 and True find 1)
            for name in sorted(number_labels(doc) & out._code.keys(), key=out._code.__getitem__):
                out._know_number(out._code[name])
            if out._declared is not None:
                out._declared = tuple(
                    out._value[out._code[d]] if out._category[out._code[d]] == _NUMBER else d for d in out._declared
                )
        return out

    def _know_number(self, code: int) -> None:
        """The label ``code``, a name read from a count file, held a number: a name the rule gives a number
        (``1``, ``2.5``, ``True``, ``1e+20``) makes it that number's label again, with the kinds its name says; an
        earlier version's name (``1.0``) stays as it is, matched by its value."""
        value = number_named(self._labels[code])
        if value is None or self._category[code] != _NAME:
            return
        if label_name(value) == self._labels[code]:
            self._category[code] = _NUMBER
            self._n_names -= 1
            self._kinds[code] = value_kind(value)
            if not settled(value):
                self._open.add(code)
                self._identity = False
        self._value[code] = value
        self._by_value.setdefault(value, code)
        self._register_int(code)

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
            outside = set(gold_seen | pred_seen) - out._code.keys()
            if outside and labels is not None:
                raise out._undeclared(min(outside), "counts")
            out._add_labels(lab for lab in counts.labels if lab in outside)
            code = np.array([out._code.get(lab, -1) for lab in counts.labels], dtype=np.int64)
            out._add_entries(code[counts.gold], code[counts.pred], counts.count.copy())
        out._n, out._updates = counts.n_instances, 1
        return out

    def __repr__(self) -> str:
        layout = "" if self.multilabel is not None else ", sparse" if self._keys is not None else ", dense"
        return (
            f"Accumulator({self.task}, {len(self._labels)} labels ({self._origin}), {self._n:,} instances, "
            f"{self._updates} updates{layout})"
        )


# -- helpers --------------------------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value (``np.uint64(2**63 + 5)`` exactly), anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def _holds_number(value: Any) -> bool:
    """Whether a value is a number a label holds (a number or a boolean, not NaN)."""
    return is_number(value) and value == value


def _declared_entry(value: Any) -> tuple[str, int, Any, int]:
    """A declared label: a number by the rule (its own kind: the data may join others), a string as a name only."""
    if _holds_number(value):
        return label_name(value), _NUMBER, value, value_kind(value)
    return (value if isinstance(value, str) else str(value)), _NAME, None, 0


def _typed(value: Any, kinds: int) -> Any:
    """A distinct value as the Python number of its kinds: a boolean label's ``1.0`` as ``True``, an integral float
    beside an equal integer as that integer (exact: the float equals it)."""
    if kinds == BOOL:
        return bool(value)
    if kinds & INT and isinstance(value, float):
        return int(value)
    return value


def _first(mask: np.ndarray, n_gold: int) -> tuple[str, int]:
    """The role and index of the first true element of ``mask`` over gold then pred."""
    position = int(np.flatnonzero(mask)[0])
    return ("gold", position) if position < n_gold else ("pred", position - n_gold)


def _inferred(values: np.ndarray) -> np.ndarray:
    """An object array as the typed array of its Python values where that holds each exactly and keeps its kind
    (:func:`~clfeval.inputs.arrays.exact_array`), else as it is."""
    if values.dtype.kind != "O" or not len(values):
        return values
    listed = values.tolist()
    typed = exact_array(listed, set(map(type, listed)))
    return values if typed.dtype.kind == "O" else typed


def _locator(inverse: np.ndarray, n_gold: int) -> Callable[[int], tuple[str, int]]:
    """``locate(i)``: the role and index of the first element of gold-then-pred whose distinct value is ``i``."""

    def locate(i: int) -> tuple[str, int]:
        return _first(inverse == i, n_gold)

    return locate


def _int_value(name: str) -> int | None:
    """The non-negative integer a name spells canonically (``"12"`` → 12; ``"012"``, ``"-1"``, ``"a"`` → None)."""
    if name.isdigit() and name.isascii() and (name == "0" or not name.startswith("0")):
        return int(name)
    return None


def _check_missing(values: np.ndarray, n_gold: int, where: str) -> None:
    """Raise for the first missing label (None, NaN, ``pd.NA``, NaT) of an object array holding gold then
    predicted labels."""
    try:
        missing = np.asarray(np.equal(values, _NONE) | np.not_equal(values, values), dtype=bool)  # NaN ≠ NaN
    except (TypeError, ValueError):  # a value whose comparison is no boolean (pandas.NA): look one by one
        missing = np.fromiter((is_missing(v) for v in values.tolist()), dtype=bool, count=len(values))
    if missing.any():
        at = int(np.flatnonzero(missing)[0])
        role, index = ("gold", at) if at < n_gold else ("pred", at - n_gold)
        raise InputError(f"is {values[at]!r}: a missing label", f"{where}: {role}", index=index)


def _array(values: Any, role: str, where: str) -> np.ndarray:
    """A numpy array of ``values`` without copying where possible: DLPack (CPU only), ``__array__``, lists."""
    if isinstance(values, np.ndarray):
        return values
    if type(values).__module__.startswith(("pandas", "polars")) and hasattr(values, "to_numpy"):
        return np.asarray(values.to_numpy())
    if hasattr(values, "__dlpack__"):
        device = _device(values)
        if device is not None:
            raise InputError(f"is a tensor on {device}: move it to the CPU first (e.g. .cpu())", f"{where}: {role}")
        try:
            return np.from_dlpack(values)
        except (BufferError, TypeError, RuntimeError, ValueError) as exc:
            reason = exc
        if hasattr(values, "__array__"):
            try:
                return np.asarray(values)
            except (TypeError, RuntimeError, ValueError) as exc:
                reason = exc
        raise InputError(
            f"cannot be read through DLPack ({reason}); pass a CPU tensor (.detach().cpu()) or a numpy array",
            f"{where}: {role}",
        )
    if hasattr(values, "__array__"):
        return np.asarray(values)
    if isinstance(values, (str, bytes)):
        raise InputError("expected a sequence of labels, found a single string", f"{where}: {role}")
    if isinstance(values, Iterable) and not isinstance(values, Mapping):
        listed = values if isinstance(values, Sequence) else list(values)
        types = set(map(type, listed))
        if not any(issubclass(t, (list, tuple, np.ndarray)) for t in types):
            return exact_array(listed, types)  # [1, 2.5] is floats; [True, 2] keeps its boolean; "1" beside 1 too
        try:
            return np.asarray(listed)
        except ValueError:  # ragged nested lists
            raise InputError(
                "expected one label per instance, found nested lists of different lengths", f"{where}: {role}"
            ) from None
    raise InputError(f"expected a sequence of labels, found {type(values).__name__}", f"{where}: {role}")


def _device(values: Any) -> str | None:
    """The name of the device a DLPack object lives on, or ``None`` on the CPU (or when it does not say)."""
    method = getattr(values, "__dlpack_device__", None)
    if method is None:
        return None
    kind, index = method()
    if int(kind) == 1:  # kDLCPU
        return None
    return f"{_DEVICES.get(int(kind), f'device type {int(kind)}')}:{index}"


def _one_dimensional(arr: np.ndarray, role: str, where: str) -> np.ndarray:
    if arr.ndim == 1:
        return arr
    if arr.ndim == 2:
        raise InputError(
            f"is 2-D (shape {arr.shape}) but single-label updates take one label per instance: for scores or logits "
            "pass .argmax(axis=1); for 0/1 indicator matrices use task='multi-label'",
            f"{where}: {role}",
        )
    raise InputError(f"expected a 1-D array of labels, found shape {arr.shape}", f"{where}: {role}")


def _tensor(values: Any, role: str, where: str) -> Any:
    """Multi-label input: arrays, tensors, scipy.sparse matrices and data frames as numpy arrays (2-D: indicator
    matrices); lists, tuples and Series of label collections as they are."""
    module = type(values).__module__
    if module.startswith("scipy.sparse") and hasattr(values, "toarray"):
        return np.asarray(values.toarray())  # a sparse indicator matrix, as scikit-learn's multi-label y may be
    if module.startswith(("pandas", "polars")) and getattr(values, "ndim", len(getattr(values, "shape", ()))) == 2:
        return values.to_numpy()  # a data frame of 0/1 columns
    if isinstance(values, (list, tuple, str)) or module.startswith(("pandas", "polars")):
        return values
    if isinstance(values, np.ndarray) or hasattr(values, "__dlpack__") or hasattr(values, "__array__"):
        return _array(values, role, where)
    return values


def _indicator(matrix: np.ndarray, role: str, where: str) -> np.ndarray:
    """A 0/1 matrix as booleans; any other value is an error naming its position."""
    if matrix.dtype.kind == "b":
        return matrix
    if matrix.dtype.kind == "O":  # a data frame of nullable columns (Int64, boolean): numbers unless a value is missing
        try:
            matrix = matrix.astype(np.float64)
        except (TypeError, ValueError):
            i, j = next((i, j) for (i, j), v in np.ndenumerate(matrix) if not isinstance(v, (int, float, np.number)))
            raise InputError(
                f"holds {matrix[i, j]!r} at column {j}: an indicator matrix holds 0 and 1 only",
                f"{where}: {role}",
                index=i,
            ) from None
    if matrix.dtype.kind not in "iuf":
        raise InputError(f"an indicator matrix holds 0/1 numbers, found dtype {matrix.dtype}", f"{where}: {role}")
    ones = matrix == 1
    bad = ~(ones | (matrix == 0))
    if bad.any():
        i, j = (int(x) for x in np.argwhere(bad)[0])
        raise InputError(
            f"holds {matrix[i, j].item()!r} at column {j}: an indicator matrix holds 0 and 1 only (threshold scores "
            "first, e.g. probs >= 0.5)",
            f"{where}: {role}",
            index=i,
        )
    return ones


def _unique_rows(rows: np.ndarray, inverse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-D uint8 array and their counts (or, with ``inverse``, each row's index into them).

    Each row is read as whole 64-bit words (zero-padded): a row of at most 8 bytes is one integer for ``np.unique``;
    a longer row is sorted by its words with ``np.lexsort`` (integer sorts, not ``np.unique(axis=0)``'s comparison
    of byte strings, ten times slower at 10⁵ rows of 50 bytes) and cut where a word changes.
    """
    n, width = rows.shape
    words = max(1, -(-width // 8))
    padded = np.zeros((n, 8 * words), dtype=np.uint8)
    padded[:, :width] = rows
    keys = padded.view(np.uint64)  # (n, words)
    if words == 1:
        flat = keys.reshape(-1)
        if inverse:
            distinct, found = np.unique(flat, return_inverse=True)
        else:
            distinct, found = np.unique(flat, return_counts=True)
        return distinct.view(np.uint8).reshape(-1, 8)[:, :width], found.reshape(-1)
    order = np.lexsort(keys.T[::-1])  # the first word is the primary key
    ordered = keys[order]
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(new)
    distinct = rows[order[starts]]
    if inverse:
        which = np.empty(n, dtype=np.int64)
        which[order] = np.cumsum(new) - 1
        return distinct, which
    return distinct, np.diff(np.append(starts, n))


def _merge_sorted(
    keys: np.ndarray, counts: np.ndarray, new_keys: np.ndarray, new_counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct keys with counts, plus more (sorted, distinct): O(U + u log U) with a binary search."""
    if not len(keys):
        return new_keys.astype(np.int64), new_counts.astype(np.int64)
    at = np.searchsorted(keys, new_keys)
    found = at < len(keys)
    found[found] = keys[at[found]] == new_keys[found]
    counts = counts.copy()
    counts[at[found]] += new_counts[found]
    fresh = ~found
    if fresh.any():
        keys = np.insert(keys, at[fresh], new_keys[fresh])
        counts = np.insert(counts, at[fresh], new_counts[fresh])
    return keys, counts
