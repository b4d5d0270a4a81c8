"""Partitions of the instances: cross-validation folds and groups (slices), each instance's part from one column or
several, and every per-instance input cut into its parts.

One rule names a part, whether it is a fold or a group: the ``str`` of its id, equal ids one part (``1`` and
``1.0``), distinct ids that print alike (``1`` and ``"1"``) refused, a missing id refused at its position. Parts
are ordered numerically when every name is a number (2 before 10), else as strings. Several group columns make
their intersections, named by their values joined with :data:`GROUP_JOIN` (``es&female``) and ordered column by
column. The instances are sorted into parts once (``np.unique``'s inverse, one stable sort): no per-instance Python
code on numpy input.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np

from clfeval.count.labelnames import is_missing, label_name
from clfeval.errors import InputError, OptionError

__all__ = [
    "GROUP_JOIN",
    "GroupIndex",
    "group_index",
    "group_length",
    "members_of",
    "named_keys",
    "taken",
    "value_codes",
]

#: What joins the values of an intersection of group columns in its name.
GROUP_JOIN = "&"
#: What one part is called, by the name of the input that gives the parts.
_WORDS = {"folds": "fold", "groups": "group", "strata": "stratum"}


def value_codes(values: Sequence[Any] | np.ndarray, role: str = "folds") -> tuple[list[str], np.ndarray]:
    """The part names (the distinct ids named by the one rule of labels, :func:`~clfeval.count.labelnames.label_name`:
    ``1.0`` is ``1``, as a file's reader names it; in order of first sight) and each instance's part number. Equal
    ids are one part (``1`` and ``1.0``), as equal labels are one label: one hash lookup per instance.

    Raises
    ------
    InputError
        For an id that is not a string or a number, a missing id, or distinct ids that print alike (``1`` and
        ``"1"``), which would silently be one part.
    """
    what = _WORDS.get(role, "group")
    try:
        number = {value: i for i, value in enumerate(dict.fromkeys(values))}
    except TypeError:
        at = next(i for i, v in enumerate(values) if not isinstance(v, Hashable))
        raise InputError(f"is {values[at]!r}: a {what} id must be a string or a number", role, index=at) from None
    named: dict[str, Any] = {}
    for value in number:
        if is_missing(value):
            at = next(i for i, v in enumerate(values) if v is value or (v != v and value != value))
            raise InputError(f"is {value!r}: a missing {what} id (each instance belongs to one {what})", role, index=at)
        name = label_name(value)
        other = named.setdefault(name, value)
        if other is not value:
            at = next(i for i, v in enumerate(values) if v is value)
            raise InputError(
                f"{what} ids {other!r} and {value!r} have the same name {name!r}: use one type of {what} id",
                role,
                index=at,
            )
    return list(named), np.fromiter(map(number.__getitem__, values), dtype=np.int64, count=len(values))


def _codes(values: Any, role: str) -> tuple[list[str], np.ndarray]:
    """Each part's name and each instance's part number, of one column (numpy arrays by ``np.unique``)."""
    if isinstance(values, np.ndarray) and values.dtype.kind != "O":
        if values.dtype.kind in "fmM" and np.isnan(values).any():  # NaN, NaT
            at = int(np.flatnonzero(np.isnan(values))[0])
            what = "fold" if role == "folds" else "group"
            raise InputError(
                f"is {values[at]}: a missing {what} id (each instance belongs to one {what})", role, index=at
            )
        distinct, which = np.unique(values, return_inverse=True)
        return [label_name(v) for v in distinct.tolist()], which.reshape(-1)  # one-to-one over distinct numbers
    return value_codes(values, role)  # Python values: a list's 1 stays "1", and "1" beside 1 is refused


def _order(names: Sequence[str]) -> list[int]:
    """Positions of ``names`` in order: numerically when every name is a number, else as strings."""
    try:
        keys: list[Any] = [float(n) for n in names]
    except ValueError:
        keys = list(names)
    return sorted(range(len(names)), key=keys.__getitem__)


def members_of(values: Any, role: str = "folds") -> dict[str, np.ndarray]:
    """Each part's name and the positions of its instances (or sentences), in order, parts in numeric (else text)
    order of their names."""
    names, which = _codes(values, role)
    members = np.split(np.argsort(which, kind="stable"), np.cumsum(np.bincount(which, minlength=len(names)))[:-1])
    return {names[i]: members[i] for i in _order(names)}


@dataclass(frozen=True)
class GroupIndex:
    """The groups of the instances: their columns, each group's name and values, and its instances.

    Attributes
    ----------
    columns
        The group columns' names (a Series' or frame's own names; ``group`` for one unnamed column, ``group 1``,
        ``group 2`` … for several).
    names
        Each group's name: its value, or its values joined with :data:`GROUP_JOIN` for intersections.
    values
        Each group's value in each column, in column order.
    members
        Each group's instances' positions, ascending.
    n
        The number of instances (or sentences) grouped.
    """

    columns: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]
    members: tuple[np.ndarray, ...]
    n: int

    def sizes(self) -> dict[str, int]:
        """Each group's number of instances."""
        return {name: len(m) for name, m in zip(self.names, self.members)}


def _columns_of(groups: Any, word: str = "group") -> list[tuple[str, Any]]:
    """The group columns given: one column (a sequence, array or Series), several (a frame, a mapping of name →
    column, a list of columns), named."""
    module = type(groups).__module__
    if module.startswith(("pandas", "polars")) and hasattr(groups, "columns"):  # a frame: a column each
        return [(str(c), groups[c]) for c in groups.columns]
    if isinstance(groups, Mapping):
        return [(str(name), column) for name, column in groups.items()]
    if module.startswith(("pandas", "polars")) and hasattr(groups, "to_numpy"):  # a Series: its name, if any
        name = getattr(groups, "name", None)
        return [(str(name) if name not in (None, "") else word, groups)]
    if isinstance(groups, np.ndarray) and groups.ndim == 2:
        return [(f"{word} {i + 1}", groups[:, i]) for i in range(groups.shape[1])]
    if (
        isinstance(groups, (list, tuple))
        and groups
        and all(isinstance(c, np.ndarray) or (hasattr(c, "to_numpy") and hasattr(c, "__len__")) for c in groups)
    ):
        return [(f"{word} {i + 1}" if len(groups) > 1 else word, c) for i, c in enumerate(groups)]
    if isinstance(groups, (list, tuple)) and groups and all(isinstance(v, tuple) for v in groups):
        widths = {len(v) for v in groups}
        if len(widths) != 1:
            raise InputError("every instance's tuple of groups must have one value per group column", "groups")
        (width,) = widths
        return [(f"{word} {i + 1}", [v[i] for v in groups]) for i in range(width)]
    return [(word, groups)]


def group_index(groups: Any, n: int, unit: str = "instance", word: str = "group") -> GroupIndex:
    """Each instance's group, from one column or several (their intersections).

    Parameters
    ----------
    groups
        One column (a sequence, numpy array, pandas or polars Series), or several: a pandas or polars frame, a
        mapping of column name → column, a list of arrays or Series, a 2-D array, or one tuple per instance.
    n
        The number of instances (or, for spans, sentences) the groups must name one each.
    unit
        What one entry of a column groups (``instance``, ``sentence``), for messages.
    word
        What a part is called (``group``, ``stratum``): an unnamed column's name and the inputs' name in messages.
    """
    from clfeval.inputs.arrays import to_sequence

    role = next((r for r, w in _WORDS.items() if w == word), "groups")
    columns = _columns_of(groups, word)
    names = [name for name, _ in columns]
    if len(set(names)) != len(names):
        raise OptionError(f"group columns must have distinct names: {', '.join(names)}")
    coded = []
    for name, column in columns:
        values = to_sequence(column, role)
        if len(values) != n:
            raise InputError(
                f"must name one group per {unit}: {len(values)} entries for {n} {unit}s", f"{role} {name!r}"
            )
        part_names, which = _codes(values, role)
        order = _order(part_names)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        coded.append(([part_names[i] for i in order], rank[which]))
    if n == 0:
        raise InputError("no instances to group", role)
    radix = [len(c[0]) for c in coded]
    joint = np.zeros(n, dtype=np.int64)
    for (_, codes), size in zip(coded, radix):  # column-major key: groups ordered column by column
        joint = joint * size + codes
    distinct, which = np.unique(joint, return_inverse=True)
    members = np.split(np.argsort(which, kind="stable"), np.cumsum(np.bincount(which))[:-1])
    named: list[tuple[str, ...]] = []
    for key in distinct.tolist():
        parts = []
        for (part_names, _), size in zip(reversed(coded), reversed(radix)):
            key, at = divmod(key, size)
            parts.append(part_names[at])
        named.append(tuple(reversed(parts)))
    shown = tuple(GROUP_JOIN.join(v) for v in named)
    if len(set(shown)) != len(shown):
        raise InputError(f"group values hold {GROUP_JOIN!r}, so two intersections print alike", role)
    return GroupIndex(tuple(names), shown, tuple(named), tuple(members), n)


def group_length(groups: Any) -> int:
    """The number of entries of the first group column (the instances they group, when nothing else says)."""
    from clfeval.inputs.arrays import to_sequence

    return len(to_sequence(_columns_of(groups)[0][1], "groups"))


def named_keys(keys: Sequence[tuple[str, ...]], where: str = "groups") -> tuple[list[int], list[str]]:
    """The groups of counted keys (each group's value in each column, as :func:`clfeval.inputs.layouts.count_parts`
    reads them from a file): their order and names by the rule of :func:`group_index` — ordered column by column,
    each column numerically when every value is a number, else as strings; named by their values joined with
    :data:`GROUP_JOIN`.

    Returns
    -------
    order, names
        The keys' positions in group order, and each ordered group's name.
    """
    width = len(keys[0]) if keys else 0
    ranks = []
    for at in range(width):
        distinct = list(dict.fromkeys(k[at] for k in keys))
        rank = {distinct[i]: r for r, i in enumerate(_order(distinct))}
        ranks.append(rank)
    order = sorted(range(len(keys)), key=lambda i: tuple(ranks[at][keys[i][at]] for at in range(width)))
    names = [GROUP_JOIN.join(keys[i]) for i in order]
    if len(set(names)) != len(names):
        raise InputError(f"group values hold {GROUP_JOIN!r}, so two intersections print alike", where)
    return order, names


def taken(values: Any, idx: np.ndarray) -> Any:
    """The entries at ``idx`` (ascending positions) of any per-instance input: a numpy array's, a scipy.sparse
    matrix's or a tensor's rows by indexing, a pandas object's by position, a polars object's by gather, a
    sequence's as a list."""
    if values is None:
        return None
    if isinstance(values, np.ndarray):
        return values[idx]
    module = type(values).__module__
    if module.startswith("pandas") and hasattr(values, "iloc"):
        return values.iloc[idx]
    if module.startswith("polars"):
        return values[idx.tolist()] if not hasattr(values, "gather") else values.gather(idx)
    if module.startswith(("scipy", "torch")):
        return values[idx]
    if not isinstance(values, Sequence):
        values = list(values)
    if len(idx) == 1:
        return [values[int(idx[0])]]
    return list(itemgetter(*idx.tolist())(values))
