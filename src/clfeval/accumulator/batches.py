"""Reading a batch into numpy arrays: the containers an update takes (numpy arrays, lists, pandas and polars Series
and data frames, scipy.sparse matrices, tensors) checked and turned into 1-D label arrays or 0/1 indicator matrices.

Tensors are read through DLPack (``__dlpack__``, zero-copy, CPU only) or ``__array__``; the framework itself is never
imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.accumulator.sparse import _unique_rows
from clfeval.count.labelnames import is_missing, label_names
from clfeval.errors import InputError, OptionError
from clfeval.inputs.arrays import exact_array

if TYPE_CHECKING:
    from clfeval.inputs.indicators import IndicatorRows

_NONE = np.array(None, dtype=object)
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


def _inferred(values: np.ndarray) -> np.ndarray:
    """An object array as the typed array of its Python values where that holds each exactly and keeps its kind
    (:func:`~clfeval.inputs.arrays.exact_array`), else as it is."""
    if values.dtype.kind != "O" or not len(values):
        return values
    listed = values.tolist()
    typed = exact_array(listed, set(map(type, listed)))
    return values if typed.dtype.kind == "O" else typed


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
    """A 1-D array of labels as it is; any other shape is an error (a 2-D one says what to pass instead)."""
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


def decode_sets(rows: np.ndarray, names: Sequence[str]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """The distinct label sets among rows of packed bits (``np.packbits(..., bitorder="little")`` of an indicator
    over ``names``; canonical: labels sorted by name), and each row's index into them. Python runs once per distinct
    set, not per row."""
    k = len(names)
    patterns, which = _unique_rows(rows, inverse=True)
    bits = np.unpackbits(patterns, axis=1, count=k, bitorder="little")
    row, col = np.nonzero(bits)
    rank = np.empty(k, dtype=np.int64)
    rank[sorted(range(k), key=list(names).__getitem__)] = np.arange(k)
    order = np.lexsort((rank[col], row))
    flat = np.array(list(names), dtype=object)[col[order]].tolist()
    ends = np.cumsum(np.bincount(row, minlength=len(patterns))).tolist()
    return [tuple(flat[a:b]) for a, b in zip([0, *ends[:-1]], ends)], which


def distinct_rows(
    bits: Sequence[np.ndarray], decode: Callable[[np.ndarray], tuple[list[tuple[str, ...]], np.ndarray]], inverse: bool
) -> tuple[list[tuple[tuple[str, ...], ...]], np.ndarray]:
    """The distinct joint rows of boolean (n, K) matrices of one shape (gold, then each system's predictions) as
    tuples of label sets, and their counts (``inverse``: each instance's index into them).

    Each matrix's rows are packed into bits (``np.packbits``), the packed rows set side by side and made distinct with
    one sort (:func:`~clfeval.accumulator.sparse._unique_rows`); ``decode`` turns each matrix's distinct packed rows
    into label sets (:func:`decode_sets`, with the names of the columns). Python runs once per distinct row, never
    per instance.
    """
    packed = [np.packbits(b, axis=1, bitorder="little") for b in bits]
    distinct, found = _unique_rows(np.concatenate(packed, axis=1), inverse=inverse)
    width = packed[0].shape[1]
    columns = []
    for c in range(len(packed)):
        sets, of = decode(distinct[:, c * width : (c + 1) * width])
        columns.append(map(sets.__getitem__, of.tolist()))
    return list(zip(*columns)), np.asarray(found, dtype=np.int64)


def _is_matrix(values: Any) -> bool:
    """Whether ``values`` is a container of an indicator matrix: a 2-D numpy array of numbers or booleans, a 2-D
    tensor, a scipy.sparse matrix, a pandas or polars data frame (Python lists, and arrays of label names, are label
    collections, never matrices)."""
    module = type(values).__module__
    if module.startswith("scipy.sparse") and hasattr(values, "toarray"):
        return True
    if module.startswith(("pandas", "polars")):
        return getattr(values, "ndim", len(getattr(values, "shape", ()))) == 2
    if isinstance(values, (list, tuple, str, bytes)):
        return False
    if isinstance(values, np.ndarray):  # an array of label names (rows of strings) holds label collections
        return values.ndim == 2 and values.dtype.kind in "biuf"
    return (hasattr(values, "__dlpack__") or hasattr(values, "__array__")) and len(getattr(values, "shape", ())) == 2


def indicator_sets(columns: Sequence[Any], roles: Sequence[str], labels: Sequence[Any] | None) -> IndicatorRows | None:
    """Multi-label 0/1 indicator matrices (n, K) — numpy arrays, tensors, scipy.sparse matrices, data frames whose
    columns name the labels — as their distinct joint rows of label sets and each instance's row
    (:class:`~clfeval.inputs.indicators.IndicatorRows`), read as an update of the Accumulator reads them
    (:func:`_tensor`, :func:`_indicator`, :func:`distinct_rows`), with the labels of the columns; ``None`` when no
    column is a matrix (label collections).

    The labels of the columns: a data frame's column names (every frame the same); else ``labels`` (one per column,
    in column order); else the column positions ``0`` … ``K−1``, as the Accumulator names them.

    Raises
    ------
    InputError
        When some columns are matrices and others are not, for shapes that differ, and for a value other than 0/1
        (naming its row and column).
    OptionError
        For ``labels`` of another length than the columns, or frames whose columns differ.
    """
    matrices = [_is_matrix(c) for c in columns]
    if not any(matrices):
        return None
    if not all(matrices):
        odd = roles[matrices.index(False)]
        raise InputError(
            f"{odd} is not an indicator matrix like {roles[matrices.index(True)]}: give every one as (n, labels) 0/1 "
            "matrices or every one as label collections"
        )
    framed: list[str] | None = None
    bits = []
    for values, role in zip(columns, roles):
        if type(values).__module__.startswith(("pandas", "polars")):
            from clfeval.count.classes import named_scores

            _, named = named_scores(values)  # the frame's column names (a default 0 … K−1: positional)
            if named is not None and framed is not None and named != framed:
                raise OptionError(f"the indicator frames name different columns: {framed} and {named} ({role})")
            framed = named if named is not None else framed
        matrix = _tensor(values, role, "indicator matrix")
        if not isinstance(matrix, np.ndarray) or matrix.ndim != 2:
            raise InputError(f"an indicator matrix is (n, labels), found {type(values).__name__}", role)
        bits.append(_indicator(matrix, role, "indicator matrix"))
    shape = bits[0].shape
    for b, role in zip(bits[1:], roles[1:]):
        if b.shape != shape:
            raise InputError(f"the indicator matrices have shapes {shape} ({roles[0]}) and {b.shape}", role)
    k = shape[1]
    if framed is not None:
        names = framed
    elif labels is not None:
        names = label_names(list(labels))
        if len(names) != k:
            raise OptionError(f"labels= names the {k} columns of the indicator matrices, in order; it has {len(names)}")
    else:
        names = [str(j) for j in range(k)]
    from clfeval.inputs.indicators import IndicatorRows

    keys, which = distinct_rows(bits, lambda rows: decode_sets(rows, names), inverse=True)
    return IndicatorRows(tuple(keys), which, tuple(roles), tuple(names))
