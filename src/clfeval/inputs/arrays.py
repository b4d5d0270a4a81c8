"""In-memory labels (lists, tuples, numpy arrays, pandas or polars Series) → counts.

No per-instance Python loop where numpy can do the work: integer arrays are counted with one
``np.bincount``; other labels are hashed once each through a dict built in C. Labels are named once per distinct
value, by the one rule of :mod:`clfeval.count.labelnames`, jointly over every column (and the declared labels).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.invalid import INVALID_LABEL
from clfeval.count.joint import JointCounts
from clfeval.count.labelnames import (
    EXACT_FLOAT,
    FLOAT,
    INT,
    is_missing,
    joint_kinds,
    label_name,
    label_names,
    value_kind,
)
from clfeval.count.labelsets import EMPTY_SET, LabelSetCounts, MultiLabel, canonical_set
from clfeval.count.weighted import WeightedLabelCounts, check_sample_weight, weighted_rows
from clfeval.errors import InputError

__all__ = [
    "label_codes",
    "marked_invalid",
    "named_label_sets",
    "GIVEN_BLOCKS",
    "block_values_of",
    "count_in_blocks",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "exact_array",
    "exact_int64",
    "frequencies_of",
    "kinds_present",
    "systems_of",
    "to_sequence",
]

#: How blocks given with in-memory instances are named in reports.
GIVEN_BLOCKS = "blocks given with the instances"

_DENSE_LIMIT = 1 << 22  # largest K·K table counted densely straight from integer codes
_BOOL_TYPES = (bool, np.bool_)
_INT_TYPES = (int, np.integer)
_NUMBER_TYPES = (bool, int, float, np.bool_, np.integer, np.floating)
_FROMITER: dict[type, type] = {int: np.int64, float: np.float64, bool: np.bool_}


def to_sequence(values: Any, role: str) -> Sequence[Any] | np.ndarray:
    """A numpy array or a Python sequence from any supported container."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            from clfeval.spans.lists import tags_hint

            hint = tags_hint(values) if values.ndim == 2 else None
            raise InputError(
                f"expected a one-dimensional array of labels, found shape {values.shape}"
                + (f"; {hint}" if hint else ""),
                role,
            )
        return values
    module = type(values).__module__
    if module.startswith(("pandas", "polars")) and hasattr(values, "to_numpy"):
        return to_sequence(values.to_numpy(), role)
    if isinstance(values, (str, bytes)):
        raise InputError("expected a sequence of labels, found a single string", role)
    if isinstance(values, Sequence):
        return values
    if isinstance(values, Iterable):
        return list(values)
    raise InputError(f"expected a sequence of labels, found {type(values).__name__}", role)


def marked_invalid(values: Any, role: str) -> Sequence[Any] | np.ndarray:
    """Predictions with each missing one (None, NaN, ``pd.NA``, NaT) as the label
    :data:`~clfeval.count.invalid.INVALID_LABEL`, which an invalid policy counts (:mod:`clfeval.count.invalid`);
    the values themselves when none is missing.

    A float array: one ``np.isnan``; other values: the distinct ones are looked at (one C-level hash per element),
    then one membership test per element, in C.

    >>> marked_invalid([1, None, 2.0, float("nan")], "pred").tolist()
    [1, '(invalid)', 2.0, '(invalid)']
    """
    seq = to_sequence(values, role)
    if isinstance(seq, np.ndarray) and seq.dtype.kind != "O":
        if seq.dtype.kind != "f":
            return seq
        nan = np.isnan(seq)
        if not nan.any():
            return seq
        out = seq.astype(object)
        out[nan] = INVALID_LABEL
        return out
    listed = seq.tolist() if isinstance(seq, np.ndarray) else list(seq)
    try:
        missing = {v for v in dict.fromkeys(listed) if is_missing(v)}
    except TypeError:  # an unhashable value (a list): the counters say where
        return seq
    if not missing:
        return seq
    mask = np.fromiter(map(missing.__contains__, listed), dtype=bool, count=len(listed))
    objects = np.empty(len(listed), dtype=object)
    objects[:] = listed
    objects[mask] = INVALID_LABEL
    return objects


def _first_missing(values: Sequence[Any] | np.ndarray) -> int:
    for i, v in enumerate(values):
        if is_missing(v):
            return i
    return -1


def _check_lengths(gold: Sequence[Any] | np.ndarray, pred: Sequence[Any] | np.ndarray) -> None:
    if len(gold) != len(pred):
        short = "pred" if len(pred) < len(gold) else "gold"
        raise InputError(f"gold has {len(gold)} labels but pred has {len(pred)}: {short} ends early")


def _names(values: Sequence[Any], parts: Sequence[Sequence[Any]], declared: Sequence[Any] = ()) -> list[str]:
    """The names of the distinct values of ``parts`` (one per class of equal values), by the rule of
    :mod:`~clfeval.count.labelnames`, each label's kinds gathered over ``parts`` and the ``declared`` labels."""
    return label_names(values, joint_kinds(values, parts, declared))


def _integer_names(values: Sequence[int], arrays: Sequence[np.ndarray], declared: Sequence[Any] = ()) -> list[str]:
    """The names of the distinct values of integer and boolean arrays: each integer by its value, except that 0 and 1
    are ``False`` and ``True`` where they occur in boolean arrays only (no integer array, no declared number holds
    them). A few vectorised comparisons, and only when a boolean array is among them."""
    names = [str(v) for v in values]
    if not any(a.dtype.kind == "b" for a in arrays):
        return names
    numbers = [a for a in arrays if a.dtype.kind != "b"]
    declared_numbers = [v for v in declared if value_kind(v) in (INT, FLOAT)]
    for i, v in enumerate(values):
        if v in (0, 1) and v not in declared_numbers and not any(a.size and (a == v).any() for a in numbers):
            names[i] = str(bool(v))
    return names


def exact_array(listed: Sequence[Any], types: set[type] | None = None) -> np.ndarray:
    """Python values as the 1-D array that holds each exactly and keeps its kind: strings as ``str``; numbers as
    numpy infers them (``[1, 2.5]`` → float64), unless a boolean sits beside other numbers (``[True, 2]``: numpy would
    make ``True`` the integer 1) or an integer beyond 2⁵³ beside floats (float64 would merge neighbours); else
    objects. ``types``: the set of the values' types, when the caller has it.

    >>> exact_array([1, 2.5]).dtype, exact_array([True, 2]).dtype, exact_array([2**63 + 5, 3]).dtype
    (dtype('float64'), dtype('O'), dtype('uint64'))
    """
    if types is None:
        types = set(map(type, listed))
    if types == {str}:
        return np.array(listed, dtype=str)
    if len(types) == 1 and next(iter(types)) in _FROMITER:  # one Python type: numpy need not infer one
        try:
            return np.fromiter(listed, dtype=_FROMITER[next(iter(types))], count=len(listed))
        except OverflowError:  # an integer beyond int64
            pass
    if types and all(issubclass(t, _NUMBER_TYPES) for t in types):
        bools = [issubclass(t, _BOOL_TYPES) for t in types]
        if all(bools) or not any(bools):
            try:
                array = np.array(listed)
            except (TypeError, ValueError, OverflowError):
                array = None
            if array is not None and array.ndim == 1 and array.dtype.kind in "biuf":
                big = array.dtype.kind == "f" and any(issubclass(t, _INT_TYPES) for t in types)
                if not big or not any(
                    isinstance(v, _INT_TYPES) and not isinstance(v, _BOOL_TYPES) and abs(int(v)) > EXACT_FLOAT
                    for v in listed
                ):
                    return array
                if all(issubclass(t, _INT_TYPES) for t in types):  # [2**63 + 5, 3]: uint64 holds them, if any does
                    try:
                        return np.array(listed, dtype=np.uint64)
                    except OverflowError:
                        pass
    objects = np.empty(len(listed), dtype=object)
    objects[:] = listed
    return objects


def kinds_present(values: Any, role: str = "labels") -> list[Any]:
    """The distinct values of ``values`` with each kind they occur as (``True`` and ``1`` both, where a list holds
    both), as Python values: what naming a part of the data jointly with the whole needs (``count_labels(fold_gold,
    fold_pred, labels=kinds_present(gold) + kinds_present(pred))`` names a label alike in every fold). One
    ``np.unique`` for a typed array, one C-level hash per element otherwise.

    >>> kinds_present([True, 1, 1, 2.5]), kinds_present(np.array([3, 1, 3]))
    ([True, 1, 2.5], [1, 3])
    """
    seq = to_sequence(values, role)
    if isinstance(seq, np.ndarray) and seq.dtype.kind != "O":
        return np.unique(seq).tolist()
    listed = seq.tolist() if isinstance(seq, np.ndarray) else list(seq)
    try:
        return [v for _, v in dict.fromkeys(zip(map(type, listed), listed))]
    except TypeError:  # an unhashable value: the counters say where
        return []


def exact_int64(*arrays: np.ndarray) -> list[np.ndarray] | None:
    """Integer or boolean arrays as int64, or ``None`` when a uint64 value is above int64's range (no numpy dtype
    then holds both exactly: mixing them with int64 gives float64, where 2⁶⁰ and 2⁶⁰ + 1 are one number)."""
    top = np.iinfo(np.int64).max
    if any(a.dtype == np.uint64 and a.size and int(a.max()) > top for a in arrays):
        return None
    return [a.astype(np.int64, copy=False) for a in arrays]


def _count_integers(
    gold: np.ndarray, pred: np.ndarray, arrays: Sequence[np.ndarray], declared: Sequence[Any]
) -> ConfusionCounts:
    """Counts of integer labels (``arrays``: gold and pred as given, booleans among them, for the names)."""
    lo = int(min(gold.min(), pred.min()))
    hi = int(max(gold.max(), pred.max()))
    span = hi - lo + 1
    if span * span <= _DENSE_LIMIT:
        g = gold.astype(np.int64, copy=False)
        p = pred.astype(np.int64, copy=False)
        codes = (g - lo) * span + (p - lo) if lo else g * span + p
        cells = np.bincount(codes, minlength=span * span).reshape(span, span)
        present = np.flatnonzero(cells.any(axis=1) | cells.any(axis=0))
        if len(present) < span:
            cells = cells[np.ix_(present, present)]
        return ConfusionCounts(tuple(_integer_names((lo + present).tolist(), arrays, declared)), cells)
    values, codes = np.unique(np.concatenate([gold, pred]), return_inverse=True)
    return _from_codes(_integer_names(values.tolist(), arrays, declared), codes[: len(gold)], codes[len(gold) :])


def _from_codes(names: Sequence[str], g: np.ndarray, p: np.ndarray) -> ConfusionCounts:
    k = len(names)
    keys, counts = np.unique(g.astype(np.int64) * k + p, return_counts=True)
    return ConfusionCounts.from_entries(names, keys // k, keys % k, counts)


class _Codes(dict[Any, int]):
    """label → code, assigning the next code to a label on first sight: one hash lookup per element."""

    def __missing__(self, key: Any) -> int:
        code = self[key] = len(self)
        return code


def _coded(index: _Codes, parts: Sequence[Sequence[Any] | np.ndarray], roles: Sequence[str]) -> np.ndarray:
    """The code of every element of ``parts``, in order (one hash lookup each).

    Raises
    ------
    InputError
        Naming the first element that cannot be a label (a list, a dict: unhashable), and where it is.
    """
    try:
        return np.fromiter(
            map(index.__getitem__, chain.from_iterable(parts)), dtype=np.int64, count=sum(map(len, parts))
        )
    except TypeError:
        from clfeval.spans.lists import tags_hint

        hint = tags_hint(*parts) or (
            "for a set of labels per instance (multi-label) pass multilabel=True; for a sentence of tags per "
            "instance, spans= and the tagging scheme (spans='iob2')"
        )
        for role, seq in zip(roles, parts):
            for i, value in enumerate(seq):
                try:
                    hash(value)
                except TypeError:
                    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                    raise InputError(
                        f"is {shown}, a {type(value).__name__}: a label is a string or a number; {hint}",
                        role,
                        index=i,
                    ) from None
        raise


def count_labels(gold: Any, pred: Any, *, labels: Iterable[Any] | None = None) -> ConfusionCounts:
    """Count single-label predictions held in memory.

    Labels are named by the rule of :mod:`clfeval.count.labelnames`, once per distinct value, jointly over gold and
    pred and the declared ``labels`` (a declared ``0`` beside boolean data makes ``False`` the label ``0``); the counts
    hold the labels that occur.

    Raises
    ------
    InputError
        On different lengths, missing labels (None, NaN, ``pd.NA``, NaT), a label that is not a string or a number (a
        list: multi-label data needs :func:`count_label_sets`) or labels of different types that print alike (``1``
        and ``"1"``).
    """
    g_seq, p_seq = to_sequence(gold, "gold"), to_sequence(pred, "pred")
    declared = _declared_values(labels)
    _check_lengths(g_seq, p_seq)
    if len(g_seq) == 0:
        raise InputError("no labels: gold and pred are empty")
    if isinstance(g_seq, np.ndarray) and isinstance(p_seq, np.ndarray):
        if g_seq.dtype.kind == "b" and p_seq.dtype.kind == "b":  # one bincount of the 2 × 2 cells
            cells = np.bincount(g_seq.view(np.uint8) * np.uint8(2) + p_seq.view(np.uint8), minlength=4).reshape(2, 2)
            present = np.flatnonzero(cells.any(axis=1) | cells.any(axis=0))
            names = _integer_names(present.tolist(), [g_seq, p_seq], declared)
            return ConfusionCounts(tuple(names), cells[np.ix_(present, present)])
        ints = exact_int64(g_seq, p_seq) if g_seq.dtype.kind in "iub" and p_seq.dtype.kind in "iub" else None
        if ints is not None:
            return _count_integers(ints[0], ints[1], [g_seq, p_seq], declared)
        if g_seq.dtype.kind == "f" or p_seq.dtype.kind == "f":
            for role, arr in (("gold", g_seq), ("pred", p_seq)):
                if arr.dtype.kind == "f" and np.isnan(arr).any():
                    raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(arr))[0]))
    g_seq, p_seq = (s.tolist() if isinstance(s, np.ndarray) else s for s in (g_seq, p_seq))
    n = len(g_seq)
    index = _Codes()
    codes = _coded(index, [g_seq, p_seq], ["gold", "pred"])
    _refuse_missing(index, [g_seq, p_seq], ["gold", "pred"])
    g, p = codes[:n], codes[n:]
    values = list(index)
    return _from_codes(_names(values, [g_seq, p_seq], declared), g, p)


def _declared_values(labels: Iterable[Any] | None) -> list[Any]:
    """Declared labels as a list (none: empty); only their numbers bear on the data's names."""
    if labels is None or isinstance(labels, (str, bytes)):
        return []
    return labels.tolist() if isinstance(labels, np.ndarray) else list(labels)


def _refuse_missing(index: Mapping[Any, int], parts: Sequence[Sequence[Any]], roles: Sequence[str]) -> None:
    """Raise for the first missing label (None, NaN, ``pd.NA``, NaT) when one of the distinct values is missing."""
    if any(is_missing(key) for key in index):
        for role, seq in zip(roles, parts):
            at = _first_missing(seq)
            if at >= 0:
                raise InputError(f"is {seq[at]!r}: a missing label", role, index=at)


def _label_sets(
    seqs: Sequence[Sequence[Any] | np.ndarray], roles: Sequence[str], label_sep: str | None
) -> list[list[Any]]:
    """Each column's instances as label lists, named by the rule: numbers jointly over every column (``True`` in one
    set and ``1`` in another are the label ``1``): one dict operation per number, none per string."""
    columns = [[_as_label_set(v, role, i, label_sep) for i, v in enumerate(seq)] for role, seq in zip(roles, seqs)]
    kinds: dict[Any, int] = {}
    for column in columns:
        for labels in column:
            for item in labels:
                if not isinstance(item, str):
                    kinds[item] = kinds.get(item, 0) | value_kind(item)
    if not kinds:
        return columns
    names = {value: label_name(value, kind) for value, kind in kinds.items()}
    return [
        [[item if isinstance(item, str) else names[item] for item in labels] for labels in column] for column in columns
    ]


def _as_label_set(value: Any, role: str, i: int, label_sep: str | None) -> list[Any]:
    """One instance's labels: strings as they are, numbers as values (named by :func:`_label_sets`)."""
    if isinstance(value, str):
        if label_sep is None:
            raise InputError(
                "is a string, but multi-label instances must be collections of labels "
                "(or pass label_sep to split strings)",
                role,
                index=i,
            )
        return [part.strip() for part in value.split(label_sep)] if value.strip() else []
    if is_missing(value):
        raise InputError(f"is {value!r}: a missing label set (use an empty collection for no labels)", role, index=i)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, Iterable):
        raise InputError(f"expected a collection of labels, found {type(value).__name__}", role, index=i)
    labels = []
    for item in value:
        if is_missing(item):
            raise InputError(f"holds {item!r}: a missing label", role, index=i)
        labels.append(item if isinstance(item, str) or value_kind(item) else str(item))
    if any(lab == "" for lab in labels):
        raise InputError("holds an empty label", role, index=i)
    if EMPTY_SET in labels:
        raise InputError(f"holds a label named {EMPTY_SET!r}, the split-count matrix's name for none", role, index=i)
    return labels


def count_label_sets(
    gold: Any, pred: Any, *, duplicates: str = "keep", empty: str = "ignore", label_sep: str | None = None
) -> LabelSetCounts:
    """Count multi-label predictions held in memory (iterables of label collections)."""
    g_seq, p_seq = to_sequence(gold, "gold"), to_sequence(pred, "pred")
    _check_lengths(g_seq, p_seq)
    if len(g_seq) == 0:
        raise InputError("no instances: gold and pred are empty")
    g_sets, p_sets = _label_sets([g_seq, p_seq], ["gold", "pred"], label_sep)
    return LabelSetCounts.from_instances(g_sets, p_sets, duplicates=duplicates, empty=empty)


def _column_codes(
    columns: Sequence[Sequence[Any] | np.ndarray], roles: Sequence[str], declared: Sequence[Any] = ()
) -> tuple[list[str], np.ndarray]:
    """Label names and a (columns, n) array of codes into them: one hash lookup per element (integers: np.unique);
    the names by the rule, jointly over the columns and the ``declared`` labels."""
    n = len(columns[0])
    arrays = [c for c in columns if isinstance(c, np.ndarray) and c.dtype.kind in "iub"]
    ints = exact_int64(*arrays) if len(arrays) == len(columns) else None
    if ints is not None:
        stacked = np.stack(ints)
        lo, hi = int(stacked.min()), int(stacked.max())
        if hi - lo < _DENSE_LIMIT:  # a small range: compact the values present with one bincount
            present = np.flatnonzero(np.bincount((stacked - lo).ravel(), minlength=hi - lo + 1))
            code_of = np.zeros(hi - lo + 1, dtype=np.int64)
            code_of[present] = np.arange(len(present))
            return _integer_names((lo + present).tolist(), arrays, declared), code_of[stacked - lo]
        values, codes = np.unique(stacked, return_inverse=True)
        return _integer_names(values.tolist(), arrays, declared), codes.reshape(len(columns), n)
    lists = [c.tolist() if isinstance(c, np.ndarray) else c for c in columns]
    index = _Codes()
    codes = _coded(index, lists, roles)
    _refuse_missing(index, lists, roles)
    return _names(list(index), lists, declared), codes.reshape(len(lists), n)


def label_codes(columns: Sequence[Any], roles: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Label names, by the rule, jointly over ``columns`` (in-memory labels of equal length), and a (columns, n)
    array of each element's code into them: for a task that keeps instance order (finagle's confidences)."""
    seqs = [to_sequence(c, role) for c, role in zip(columns, roles)]
    for seq, role in zip(seqs, roles):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    return _column_codes(seqs, roles)


def named_label_sets(columns: Sequence[Any], roles: Sequence[str], label_sep: str | None) -> list[list[list[Any]]]:
    """Multi-label columns as lists of label lists, the numbers named by the rule jointly over every column: so
    that parts of the data (cross-validation's folds) name a label alike."""
    return _label_sets([to_sequence(c, role) for c, role in zip(columns, roles)], roles, label_sep)


def _unique_rows(codes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The unique columns of a (m, n) code array (codes below k) and their counts."""
    m = codes.shape[0]
    if k**m < 2**62:
        radix = k ** np.arange(m, dtype=np.int64)
        combined = radix @ codes
        if k**m <= _DENSE_LIMIT:
            tally = np.bincount(combined, minlength=k**m)
            keys = np.flatnonzero(tally)
            counts = tally[keys]
        else:
            keys, counts = np.unique(combined, return_counts=True)
        return (keys[None, :] // radix[:, None]) % k, counts
    rows, counts = np.unique(codes.T, axis=0, return_counts=True)
    return rows.T, counts


def systems_of(preds: Mapping[str, Any] | Sequence[Any]) -> tuple[list[str], list[Any]]:
    """Systems' names and predictions: a mapping name → predictions, or a sequence (named ``A``, ``B``, … in order)."""
    if isinstance(preds, Mapping):
        return [str(k) for k in preds], list(preds.values())
    columns = list(preds)
    return [chr(ord("A") + i) if i < 26 else f"system_{i + 1}" for i in range(len(columns))], columns


def count_systems(
    gold: Any,
    preds: Mapping[str, Any] | Sequence[Any],
    *,
    multilabel: bool = False,
    duplicates: str = "keep",
    empty: str = "ignore",
    label_sep: str | None = None,
    labels: Iterable[Any] | None = None,
) -> JointCounts:
    """Count several systems' predictions of the same gold labels, held in memory.

    ``preds`` maps system names to predictions, or is a sequence of predictions (named
    ``A``, ``B``, … in order). Each holds one label (or label collection) per gold instance. Single labels are named
    jointly over gold, every system and the declared ``labels`` (:func:`count_labels`).
    """
    names, columns = systems_of(preds)
    roles = ["gold"] + [f"pred {n!r}" for n in names]
    seqs = [to_sequence(c, role) for c, role in zip([gold, *columns], roles)]
    for role, seq in zip(roles[1:], seqs[1:]):
        if len(seq) != len(seqs[0]):
            short = role if len(seq) < len(seqs[0]) else "gold"
            raise InputError(f"gold has {len(seqs[0])} labels but {role} has {len(seq)}: {short} ends early")
    if len(seqs[0]) == 0:
        raise InputError("no labels: gold and the predictions are empty")
    if multilabel:
        sets = [[canonical_set(s, duplicates, empty) for s in column] for column in _label_sets(seqs, roles, label_sep)]
        return JointCounts(tuple(names), Counter(zip(*sets)), MultiLabel(empty=empty, duplicates=duplicates))
    for role, seq in zip(roles, seqs):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    names_of, codes = _column_codes(seqs, roles, _declared_values(labels))
    unique, counts = _unique_rows(codes, len(names_of))
    named = np.array(names_of, dtype=object)[unique]
    return JointCounts(tuple(names), dict(zip(zip(*named.tolist()), counts.tolist())))


def frequencies_of(train: Any, *, multilabel: bool, label_sep: str | None = None) -> LabelFrequencies:
    """Label frequencies of in-memory training labels (single labels, or label collections)."""
    seq = to_sequence(train, "train")
    if multilabel:
        return LabelFrequencies.from_label_sets(canonical_set(s) for s in _label_sets([seq], ["train"], label_sep)[0])
    values = seq.tolist() if isinstance(seq, np.ndarray) else list(seq)
    at = _first_missing(values)
    if at >= 0:
        raise InputError(f"is {values[at]!r}: a missing label", "train", index=at)
    uniq = list(dict.fromkeys(values))
    names = _names(uniq, [values])
    rename = dict(zip(uniq, names))
    return LabelFrequencies.from_labels(map(rename.__getitem__, values))


def count_in_blocks(
    columns: Sequence[Any],
    roles: Sequence[str],
    blocks: Any,
    *,
    multilabel: bool = False,
    duplicates: str = "keep",
    empty: str = "ignore",
    label_sep: str | None = None,
    labels: Iterable[Any] | None = None,
) -> Blocks:
    """In-memory instances grouped in blocks: ``columns`` (gold, then one prediction per system) and each
    instance's block id in ``blocks`` (any hashable values: sentence numbers, document names …).

    The blocks' rows are labels (or canonical label sets for multi-label data) as the array counters name
    them (jointly with the declared ``labels``), so ``Blocks.totals()`` are the counts :func:`count_labels`,
    :func:`count_label_sets` and :func:`count_systems` give. Single-label data is coded with numpy, no per-instance
    Python.
    """
    seqs = [to_sequence(c, role) for c, role in zip(columns, roles)]
    n = len(seqs[0])
    for role, seq in zip(roles[1:], seqs[1:]):
        if len(seq) != n:
            raise InputError(f"{roles[0]} has {n} entries but {role} has {len(seq)}: one per instance")
    ids = to_sequence(blocks, "blocks")
    block_values = block_values_of(ids, n, roles[0])
    if multilabel:
        sets = [[canonical_set(s, duplicates, empty) for s in column] for column in _label_sets(seqs, roles, label_sep)]
        return Blocks.of_instances(list(zip(*sets)), block_values, GIVEN_BLOCKS)
    for role, seq in zip(roles, seqs):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    names_of, codes = _column_codes(seqs, roles, _declared_values(labels))
    numeric = isinstance(ids, np.ndarray) and ids.dtype.kind in "iufUSb"
    try:
        block_of = np.unique(ids, return_inverse=True)[1].ravel() if numeric else _first_seen(block_values)
    except TypeError:  # an unhashable block id (a list)
        at = next(i for i, b in enumerate(block_values) if not isinstance(b, Hashable))
        raise InputError(
            f"is {block_values[at]!r}: a block id must be a number or a string", "blocks", index=at
        ) from None
    n_blocks = int(block_of.max()) + 1
    rows, row_of = np.unique(codes.T, axis=0, return_inverse=True)
    entry, count = np.unique(row_of.ravel() * n_blocks + block_of, return_counts=True)
    keys = tuple(tuple(names_of[c] for c in row) for row in rows.tolist())
    return Blocks(keys, entry // n_blocks, entry % n_blocks, count, n_blocks, GIVEN_BLOCKS)


def block_values_of(blocks: Any, n: int, role: str) -> list[Any]:
    """Each instance's block id (``blocks``, one per instance of ``role``, which has ``n``), checked, as a list.

    Raises
    ------
    InputError
        When there are not ``n`` block ids, no instances, or a block id is missing (None, NaN …).
    """
    ids = to_sequence(blocks, "blocks")
    if len(ids) != n:
        raise InputError(f"{role} has {n} entries but blocks has {len(ids)}: one per instance")
    if n == 0:
        raise InputError("no instances: the labels are empty")
    values = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    if not (isinstance(ids, np.ndarray) and ids.dtype.kind in "iubU"):  # integers and strings are never missing
        at = _first_missing(values)
        if at >= 0:
            raise InputError(f"is {values[at]!r}: a missing block id", "blocks", index=at)
    return values


def _first_seen(values: Sequence[Any]) -> np.ndarray:
    """Each value's number in order of first sight: one hash lookup per element."""
    index = _Codes()
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))


def count_weighted(
    columns: Sequence[Any],
    roles: Sequence[str],
    sample_weight: Any,
    *,
    multilabel: MultiLabel | None = None,
    labels: Iterable[Any] | None = None,
) -> dict[tuple[Any, ...], int]:
    """Rows of in-memory columns (gold, then each system's predictions) with each instance's sample weight appended,
    and the number of instances of each: the rows of weighted counts (:mod:`clfeval.count.weighted`), or of joint
    counts whose rows end with the weight. One system's single labels are better counted by
    :func:`count_weighted_labels`, which keeps them as arrays.

    Labels are named as :func:`count_labels` and :func:`count_systems` name them (sets as :func:`count_label_sets`).

    Raises
    ------
    InputError
        On columns of different lengths, a missing label, or weights that are not one finite number ≥ 0 per instance
        (:func:`~clfeval.count.weighted.check_sample_weight`).
    """
    seqs, weights = _weighted_columns(columns, roles, sample_weight)
    if multilabel is not None:
        ml = multilabel
        sets = [
            [canonical_set(s, ml.duplicates, ml.empty) for s in column] for column in _label_sets(seqs, roles, ml.sep)
        ]
        return weighted_rows(zip(*sets), weights)
    names_of, codes = _weighted_codes(seqs, roles, labels)
    values, index = np.unique(weights, return_inverse=True)
    stacked = np.vstack([codes, index.reshape(1, -1)])
    unique, counts = _unique_rows(stacked, max(len(names_of), len(values)))
    named = np.array(names_of, dtype=object)[unique[:-1]]
    listed = values[unique[-1]].tolist()
    return {(*row, w): int(c) for row, w, c in zip(zip(*named.tolist()), listed, counts.tolist())}


def count_weighted_labels(
    gold: Any,
    pred: Any,
    sample_weight: Any,
    *,
    labels: Iterable[Any] | None = None,
    roles: Sequence[str] = ("gold", "pred"),
) -> WeightedLabelCounts:
    """Single labels in memory with each instance's sample weight: their
    :class:`~clfeval.count.weighted.WeightedLabelCounts`, counted as arrays (no Python work per instance or row).

    Labels are named as :func:`count_labels` names them; ``roles`` name the two columns in errors.

    Raises
    ------
    InputError
        As :func:`count_weighted`.
    """
    seqs, weights = _weighted_columns([gold, pred], roles, sample_weight)
    names_of, codes = _weighted_codes(seqs, roles, labels)
    return WeightedLabelCounts.of_codes([str(name) for name in names_of], codes[0], codes[1], weights)


def _weighted_columns(columns: Sequence[Any], roles: Sequence[str], sample_weight: Any) -> tuple[list[Any], np.ndarray]:
    """The columns as sequences of one length, not empty, and the sample weights checked against it."""
    seqs = [to_sequence(c, role) for c, role in zip(columns, roles)]
    for role, seq in zip(roles[1:], seqs[1:]):
        if len(seq) != len(seqs[0]):
            short = role if len(seq) < len(seqs[0]) else roles[0]
            raise InputError(f"{roles[0]} has {len(seqs[0])} labels but {role} has {len(seq)}: {short} ends early")
    if len(seqs[0]) == 0:
        raise InputError(f"no labels: {' and '.join(roles)} are empty")
    return seqs, check_sample_weight(sample_weight, len(seqs[0]))


def _weighted_codes(
    seqs: Sequence[Any], roles: Sequence[str], labels: Iterable[Any] | None
) -> tuple[list[str], np.ndarray]:
    """Single-label columns as label names and a (columns, n) array of codes into them; a NaN is a missing label."""
    for role, seq in zip(roles, seqs):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    names_of, codes = _column_codes(seqs, roles, _declared_values(labels))
    return list(names_of), codes
