"""In-memory labels (lists, tuples, numpy arrays, pandas or polars Series) → counts.

No per-instance Python loop where numpy can do the work: integer arrays are counted with one
``np.bincount``; other labels are hashed once each through a dict built in C.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import EMPTY_SET, LabelSetCounts, MultiLabel, canonical_set
from clfeval.errors import InputError

__all__ = [
    "GIVEN_BLOCKS",
    "count_in_blocks",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "frequencies_of",
    "systems_of",
    "to_sequence",
]

#: How blocks given with in-memory instances are named in reports.
GIVEN_BLOCKS = "blocks given with the instances"

_DENSE_LIMIT = 1 << 22  # largest K·K table counted densely straight from integer codes


def to_sequence(values: Any, role: str) -> Sequence[Any] | np.ndarray:
    """A numpy array or a Python sequence from any supported container."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InputError(f"expected a one-dimensional array of labels, found shape {values.shape}", role)
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


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _first_missing(values: Sequence[Any] | np.ndarray) -> int:
    for i, v in enumerate(values):
        if _is_missing(v):
            return i
    return -1


def _check_lengths(gold: Sequence[Any] | np.ndarray, pred: Sequence[Any] | np.ndarray) -> None:
    if len(gold) != len(pred):
        short = "pred" if len(pred) < len(gold) else "gold"
        raise InputError(f"gold has {len(gold)} labels but pred has {len(pred)}: {short} ends early")


def _names(values: Iterable[Any]) -> list[str]:
    names = [v if isinstance(v, str) else str(v.item() if isinstance(v, np.generic) else v) for v in values]
    if len(set(names)) != len(names):
        seen: dict[str, Any] = {}
        for name, value in zip(names, values):
            if name in seen:
                raise InputError(
                    f"labels {seen[name]!r} and {value!r} have the same name {name!r}; use one type of label"
                )
            seen[name] = value
    return names


def exact_int64(*arrays: np.ndarray) -> list[np.ndarray] | None:
    """Integer or boolean arrays as int64, or ``None`` when a uint64 value is above int64's range (no numpy dtype
    then holds both exactly: mixing them with int64 gives float64, where 2⁶⁰ and 2⁶⁰ + 1 are one number)."""
    top = np.iinfo(np.int64).max
    if any(a.dtype == np.uint64 and a.size and int(a.max()) > top for a in arrays):
        return None
    return [a.astype(np.int64, copy=False) for a in arrays]


def _bool_names(present: np.ndarray) -> list[str]:
    """The names of the boolean values present (0/1 codes): ``False`` and ``True``, as Python and scikit-learn print
    them, and as a list of Python bools is named."""
    return [("False", "True")[int(v)] for v in present]


def _count_integers(gold: np.ndarray, pred: np.ndarray) -> ConfusionCounts:
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
        return ConfusionCounts(tuple(str(lo + int(i)) for i in present), cells)
    values, codes = np.unique(np.concatenate([gold, pred]), return_inverse=True)
    return _from_codes(values.tolist(), codes[: len(gold)], codes[len(gold) :])


def _from_codes(values: Sequence[Any], g: np.ndarray, p: np.ndarray) -> ConfusionCounts:
    k = len(values)
    keys, counts = np.unique(g.astype(np.int64) * k + p, return_counts=True)
    return ConfusionCounts.from_entries(_names(values), keys // k, keys % k, counts)


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
        for role, seq in zip(roles, parts):
            for i, value in enumerate(seq):
                try:
                    hash(value)
                except TypeError:
                    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                    raise InputError(
                        f"is {shown}, a {type(value).__name__}: a label is a string or a number; for a set of labels "
                        "per instance (multi-label) pass multilabel=True",
                        role,
                        index=i,
                    ) from None
        raise


def count_labels(gold: Any, pred: Any) -> ConfusionCounts:
    """Count single-label predictions held in memory.

    Raises
    ------
    InputError
        On different lengths, missing labels (None, NaN), a label that is not a string or a number (a list:
        multi-label data needs :func:`count_label_sets`) or labels of different types that print alike (``1`` and
        ``"1"``).
    """
    g_seq, p_seq = to_sequence(gold, "gold"), to_sequence(pred, "pred")
    _check_lengths(g_seq, p_seq)
    if len(g_seq) == 0:
        raise InputError("no labels: gold and pred are empty")
    if isinstance(g_seq, np.ndarray) and isinstance(p_seq, np.ndarray):
        if g_seq.dtype.kind == "b" and p_seq.dtype.kind == "b":  # one bincount of the 2 × 2 cells
            cells = np.bincount(g_seq.view(np.uint8) * np.uint8(2) + p_seq.view(np.uint8), minlength=4).reshape(2, 2)
            present = np.flatnonzero(cells.any(axis=1) | cells.any(axis=0))
            return ConfusionCounts(tuple(_bool_names(present)), cells[np.ix_(present, present)])
        ints = exact_int64(g_seq, p_seq) if g_seq.dtype.kind in "iub" and p_seq.dtype.kind in "iub" else None
        if ints is not None:
            return _count_integers(*ints)  # a boolean beside integers is 0/1
        if g_seq.dtype.kind == "f" or p_seq.dtype.kind == "f":
            for role, arr in (("gold", g_seq), ("pred", p_seq)):
                if arr.dtype.kind == "f" and np.isnan(arr).any():
                    raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(arr))[0]))
        g_seq, p_seq = g_seq.tolist(), p_seq.tolist()
    n = len(g_seq)
    index = _Codes()
    codes = _coded(index, [g_seq, p_seq], ["gold", "pred"])
    for key in index:
        if _is_missing(key):
            for role, seq in (("gold", g_seq), ("pred", p_seq)):
                at = _first_missing(seq)
                if at >= 0:
                    raise InputError(f"is {seq[at]!r}: a missing label", role, index=at)
    g, p = codes[:n], codes[n:]
    return _from_codes(list(index), g, p)


def _as_label_set(value: Any, role: str, i: int, label_sep: str | None) -> list[str]:
    if isinstance(value, str):
        if label_sep is None:
            raise InputError(
                "is a string, but multi-label instances must be collections of labels "
                "(or pass label_sep to split strings)",
                role,
                index=i,
            )
        return [part.strip() for part in value.split(label_sep)] if value.strip() else []
    if _is_missing(value):
        raise InputError(f"is {value!r}: a missing label set (use an empty collection for no labels)", role, index=i)
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, Iterable):
        raise InputError(f"expected a collection of labels, found {type(value).__name__}", role, index=i)
    labels = []
    for item in value:
        if _is_missing(item):
            raise InputError(f"holds {item!r}: a missing label", role, index=i)
        labels.append(item if isinstance(item, str) else str(item))
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
    g_sets = [_as_label_set(v, "gold", i, label_sep) for i, v in enumerate(g_seq)]
    p_sets = [_as_label_set(v, "pred", i, label_sep) for i, v in enumerate(p_seq)]
    return LabelSetCounts.from_instances(g_sets, p_sets, duplicates=duplicates, empty=empty)


def _column_codes(columns: Sequence[Sequence[Any] | np.ndarray], roles: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Label names and a (columns, n) array of codes into them: one hash lookup per element (integers: np.unique)."""
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
            names = _bool_names(lo + present) if all(a.dtype.kind == "b" for a in arrays) else None
            return names or [str(lo + int(v)) for v in present], code_of[stacked - lo]
        values, codes = np.unique(stacked, return_inverse=True)
        return _names(values.tolist()), codes.reshape(len(columns), n)
    lists = [c.tolist() if isinstance(c, np.ndarray) else c for c in columns]
    index = _Codes()
    codes = _coded(index, lists, roles)
    if any(_is_missing(key) for key in index):
        for role, seq in zip(roles, lists):
            at = _first_missing(seq)
            if at >= 0:
                raise InputError(f"is {seq[at]!r}: a missing label", role, index=at)
    return _names(list(index)), codes.reshape(len(lists), n)


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
) -> JointCounts:
    """Count several systems' predictions of the same gold labels, held in memory.

    ``preds`` maps system names to predictions, or is a sequence of predictions (named
    ``A``, ``B``, … in order). Each holds one label (or label collection) per gold instance.
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
        sets = [
            [canonical_set(_as_label_set(v, role, i, label_sep), duplicates, empty) for i, v in enumerate(seq)]
            for role, seq in zip(roles, seqs)
        ]
        return JointCounts(tuple(names), Counter(zip(*sets)), MultiLabel(empty=empty, duplicates=duplicates))
    for role, seq in zip(roles, seqs):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    labels, codes = _column_codes(seqs, roles)
    unique, counts = _unique_rows(codes, len(labels))
    named = np.array(labels, dtype=object)[unique]
    return JointCounts(tuple(names), dict(zip(zip(*named.tolist()), counts.tolist())))


def frequencies_of(train: Any, *, multilabel: bool, label_sep: str | None = None) -> LabelFrequencies:
    """Label frequencies of in-memory training labels (single labels, or label collections)."""
    seq = to_sequence(train, "train")
    if multilabel:
        return LabelFrequencies.from_label_sets(
            canonical_set(_as_label_set(v, "train", i, label_sep)) for i, v in enumerate(seq)
        )
    values = seq.tolist() if isinstance(seq, np.ndarray) else list(seq)
    at = _first_missing(values)
    if at >= 0:
        raise InputError(f"is {values[at]!r}: a missing label", "train", index=at)
    uniq = list(dict.fromkeys(values))
    names = _names(uniq)
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
) -> Blocks:
    """In-memory instances grouped in blocks: ``columns`` (gold, then one prediction per system) and each
    instance's block id in ``blocks`` (any hashable values: sentence numbers, document names …).

    The blocks' rows are labels (or canonical label sets for multi-label data) as the array counters name
    them, so ``Blocks.totals()`` are the counts :func:`count_labels`, :func:`count_label_sets` and
    :func:`count_systems` give. Single-label data is coded with numpy, no per-instance Python.
    """
    seqs = [to_sequence(c, role) for c, role in zip(columns, roles)]
    ids = to_sequence(blocks, "blocks")
    n = len(seqs[0])
    for role, seq in zip([*roles[1:], "blocks"], [*seqs[1:], ids]):
        if len(seq) != n:
            raise InputError(f"{roles[0]} has {n} entries but {role} has {len(seq)}: one per instance")
    if n == 0:
        raise InputError("no instances: the labels are empty")
    block_values = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
    at = _first_missing(block_values)
    if at >= 0:
        raise InputError(f"is {block_values[at]!r}: a missing block id", "blocks", index=at)
    if multilabel:
        sets = [
            [canonical_set(_as_label_set(v, role, i, label_sep), duplicates, empty) for i, v in enumerate(seq)]
            for role, seq in zip(roles, seqs)
        ]
        return Blocks.of_instances(list(zip(*sets)), block_values, GIVEN_BLOCKS)
    for role, seq in zip(roles, seqs):
        if isinstance(seq, np.ndarray) and seq.dtype.kind == "f" and np.isnan(seq).any():
            raise InputError("is NaN: a missing label", role, index=int(np.flatnonzero(np.isnan(seq))[0]))
    labels, codes = _column_codes(seqs, roles)
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
    keys = tuple(tuple(labels[c] for c in row) for row in rows.tolist())
    return Blocks(keys, entry // n_blocks, entry % n_blocks, count, n_blocks, GIVEN_BLOCKS)


def _first_seen(values: Sequence[Any]) -> np.ndarray:
    """Each value's number in order of first sight: one hash lookup per element."""
    index = _Codes()
    return np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))
