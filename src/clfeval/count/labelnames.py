"""How values are named as labels: one rule, which every entry point calls.

A label's name is a function of its value, plus one fact about the label: the *kinds* of value it occurs as
(:data:`BOOL`, :data:`INT`, :data:`FLOAT`), gathered over all the data (and the declared labels) where the entry point
has them. So the name does not depend on the container, the dtype numpy would pick, the order of the values, or how
the data is split into batches, folds or workers.

* A string is itself. Strings are never parsed: ``"1.0"`` stays ``"1.0"``.
* A number (Python's or numpy's int, uint or float of any width) is named by its value: an integral value as a
  decimal integer (``1``, ``1.0``, ``np.float32(1.0)`` and ``np.uint64(1)`` are ``"1"``; ``np.uint64(2**63 + 5)`` is
  ``"9223372036854775813"``, never through float64), any other float as ``repr(float(v))`` (``"2.5"``; a float32 as
  its float64 value). An integral float beyond 2⁵³, where float64 cannot tell neighbours apart, is named by its
  float ``repr`` (``"1e+20"``) unless the label also occurs as an integer.
* A boolean is ``"False"`` or ``"True"``, unless the label (an equal value: ``True == 1``, ``False == 0``) also occurs
  as a number, when it is named as that number (``"1"``).
* Equal values are one label whatever their types; a number and a string that print alike (``1`` and ``"1"``) are
  an :class:`~clfeval.InputError` naming both. Missing values (None, NaN, ``pd.NA``, NaT) are no label.

>>> [label_name(v) for v in (1, 1.0, np.float32(1.0), np.uint64(2**63 + 5), 2.5, True, 1e20, "1.0")]
['1', '1', '1', '9223372036854775813', '2.5', 'True', '1e+20', '1.0']
>>> label_name(True, INT), label_name(1e20, INT)       # beside an equal integer
('1', '100000000000000000000')
>>> label_names([True, 2, "x"]), label_names([True, 2.0, 1], joint=True)
(['True', '2', 'x'], ['1', '2', '1'])

Where only names are left (counts, count files), :func:`spellings` and :func:`number_named` let a declared number
find the data's label that spells an equal number (:func:`declared_names`; training labels: :func:`respelled`).

Who calls it: :mod:`clfeval.inputs.arrays` (``count_labels``, ``count_systems``, ``count_in_blocks``,
``count_label_sets``, ``frequencies_of``: what :func:`clfeval.score`, :func:`clfeval.compare` and :func:`clfeval.cv`
count in-memory labels with); :class:`clfeval.Accumulator` (each label keeps the kinds it occurred as across updates,
merges and count files, and is renamed once when they change its name); :mod:`clfeval.sklearn` (``classes_`` and
``labels=`` named jointly with each fold); :mod:`clfeval.hf` (``labels`` and ``id2label``); and scoring's declared
label sets (:func:`declared_names`, which :mod:`clfeval.scoring.computation` imports).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError

__all__ = [
    "BOOL",
    "EXACT_FLOAT",
    "FLOAT",
    "INT",
    "class_id",
    "declared_names",
    "is_missing",
    "is_number",
    "joint_kinds",
    "value_kind",
    "label_name",
    "label_names",
    "names_by_id",
    "number_named",
    "respelled",
    "settled",
    "spellings",
]

#: Integers up to this magnitude are exact in float64 (2⁵³); an integral float beyond it is named as a float.
EXACT_FLOAT = 1 << 53

#: The kinds of value a label occurs as: bits of one int.
BOOL, INT, FLOAT = 1, 2, 4

_BOOLS = (bool, np.bool_)
_INTS = (int, np.integer)
_FLOATS = (float, np.floating)


def is_missing(value: Any) -> bool:
    """Whether a value stands for no label: None, NaN, ``pd.NA``, ``NaT`` (a value not equal to itself, or a scalar
    whose equality has no truth value). A string, a number and a collection (a label set) never are."""
    if value is None:
        return True
    if isinstance(value, float):
        return value != value
    if isinstance(value, (str, bytes, int, list, tuple, set, frozenset, dict, np.ndarray)):
        return False
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return not isinstance(value, Iterable)  # pd.NA; an array or a Series (a label set) is not missing


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number or a boolean, Python's or numpy's (a string never is)."""
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating))


def value_kind(value: Any) -> int:
    """The kind of a value: :data:`BOOL`, :data:`INT` or :data:`FLOAT` (Python's or numpy's), else 0 (a string)."""
    if isinstance(value, _BOOLS):
        return BOOL
    if isinstance(value, _INTS):
        return INT
    if isinstance(value, _FLOATS):
        return FLOAT
    return 0


def settled(value: Any, kinds: int = 0) -> bool:
    """Whether the name of a label holding ``value``, seen as ``kinds``, is final: no other kind of an equal value can
    change it (it can while the label is a boolean only, or an integral float beyond 2⁵³ never seen as an integer)."""
    kinds |= value_kind(value)
    if kinds == BOOL:
        return False
    if kinds == FLOAT:
        f = float(value)
        return not (f.is_integer() and abs(f) > EXACT_FLOAT)
    return True


def label_name(value: Any, kinds: int = 0) -> str:
    """The name of the label holding ``value`` (not missing), which occurs as ``kinds`` besides its own kind.

    >>> label_name(np.float64(3.0)), label_name(0.1), label_name(False), label_name(False, FLOAT)
    ('3', '0.1', 'False', '0')
    """
    if isinstance(value, str):
        return value
    own = value_kind(value)
    if not own:
        return str(value)  # another hashable value (bytes, a date): by str, as ever
    kinds |= own
    if kinds == BOOL:
        return "True" if value else "False"
    if own == FLOAT:
        f = float(value)
        if not f.is_integer() or (abs(f) > EXACT_FLOAT and not kinds & INT):
            return repr(f)
        return str(int(f))
    return str(int(value))


def label_names(values: Sequence[Any], kinds: Sequence[int] | None = None, *, joint: bool = False) -> list[str]:
    """The names of distinct label values, the same length as ``values``.

    Parameters
    ----------
    values
        Label values, no two equal (one per label), none missing; or, with ``joint``, any values (equal ones share a
        name).
    kinds
        The kinds each value's label occurs as besides its own (:func:`joint_kinds`); default: its own only.
    joint
        Name the values jointly: each value's kinds are those of every equal value in ``values``.

    Raises
    ------
    InputError
        When two labels have one name: a number and a string that print alike (``1`` and ``"1"``).
    """
    if joint:
        kinds = _kinds_among(values)
    names = [label_name(v, k) for v, k in zip(values, kinds if kinds is not None else [0] * len(values))]
    if len(set(names)) != len(names):
        first: dict[str, Any] = {}
        for name, value in zip(names, values):
            other = first.setdefault(name, value)
            if other is not value and not (joint and is_number(value) and is_number(other) and other == value):
                raise InputError(f"labels {other!r} and {value!r} have the same name {name!r}; use one type of label")
    return names


def _kinds_among(values: Sequence[Any]) -> list[int]:
    """Each value's kinds: those of every value equal to it (numbers only; NaN is equal to nothing)."""
    union: dict[Any, int] = {}
    for v in values:
        if is_number(v) and v == v:
            union[v] = union.get(v, 0) | value_kind(v)
    return [union.get(v, 0) if is_number(v) and v == v else 0 for v in values]


def joint_kinds(representatives: Sequence[Any], parts: Sequence[Iterable[Any]], also: Iterable[Any] = ()) -> list[int]:
    """The kinds each distinct value's label occurs as, over the elements of ``parts`` (and the values ``also``: the
    declared labels).

    ``representatives`` are the distinct values of ``parts`` (as a dict of them holds them: one per class of equal
    values). Only a label whose name other kinds could change (:func:`settled`) is looked at again, with one pass over
    the distinct (type, value) pairs of the elements, so data that holds no booleans (or no integral floats beyond
    2⁵³) costs nothing more.
    """
    kinds = [value_kind(v) for v in representatives]
    extra = [v for v in also if is_number(v) and v == v]
    open_ = {v: i for i, v in enumerate(representatives) if kinds[i] and not settled(v)}
    if not open_:
        return kinds
    for v in extra:
        if v in open_:
            kinds[open_[v]] |= value_kind(v)
    types = set(chain.from_iterable(map(type, part) for part in parts))
    if len(types) > 1:  # other kinds of the same values may hide behind the representative
        seen: set[tuple[type, Any]] = set()
        for part in parts:
            seen.update(zip(map(type, part), part))
        for _, value in seen:
            at = open_.get(value) if is_number(value) and value == value else None
            if at is not None:
                kinds[at] |= value_kind(value)
    return kinds


def number_named(name: str) -> int | float | bool | None:
    """The number a label name spells (``"3"`` → 3, ``"2.5"`` → 2.5, ``"True"`` → True), or ``None`` (``"cat"``,
    ``"nan"``, ``"inf"``: not a number that equals another)."""
    if name in ("True", "False"):
        return name == "True"
    try:
        return int(name)
    except ValueError:
        pass
    try:
        value = float(name)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def spellings(value: Any) -> tuple[str, ...]:
    """The names a label equal to the number ``value`` may have where only names are left (counts, count files, and
    names given by earlier versions), the rule's own first: ``1`` → ``('1', '1.0', 'True')``.

    >>> spellings(1), spellings(True), spellings(2.5), spellings(-3)
    (('1', '1.0', 'True'), ('True', '1', '1.0'), ('2.5',), ('-3', '-3.0'))
    """
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return (str(value), str(int(value)), str(float(value)))
    if isinstance(value, float) and not value.is_integer():
        return (repr(value),)
    names = [label_name(value)]
    whole = int(value)
    for name in (str(whole), str(float(whole)) if abs(whole) <= EXACT_FLOAT else None, repr(value)):
        if name is not None and name not in names:
            names.append(name)
    if whole in (0, 1):
        names.append(str(bool(whole)))
    return tuple(names)


def declared_names(labels: Sequence[Any], seen: Collection[str]) -> list[str]:
    """The names of declared labels, by the rule, jointly among them (``[False, True, 2]``: ``False``, ``True``,
    ``2``); where a declared number's name is not among the names ``seen`` in the data, the seen name that spells an
    equal number (``labels=[0, 1]`` over counts whose labels are ``False`` and ``True``; ``1`` over an earlier version's
    ``1.0``), as scikit-learn's ``labels=`` matches by value.

    Entry points that hold the data name it jointly with the declared labels first, so a declared number finds its
    own name; the match by spelling is for counts, where only names are left.

    >>> declared_names([0, 1, "x"], {"False", "True", "x"})
    ['False', 'True', 'x']
    >>> declared_names([0.0, 1.0, 2.5], {"0", "1"})
    ['0', '1', '2.5']
    """
    values = list(labels)
    kinds = _kinds_among(values)
    names = []
    by_value: dict[Any, str] | None = None
    for value, kind in zip(values, kinds):
        if not is_number(value) or value != value:  # a string, another value, NaN: by str
            names.append(value if isinstance(value, str) else str(value))
            continue
        name = label_name(value, kind)
        if name not in seen:
            if by_value is None:
                by_value = _spelled(seen)
            name = by_value.get(value, name)
        names.append(name)
    return names


def respelled(names: Iterable[str], seen: Collection[str]) -> dict[str, str]:
    """For names that are not among the names ``seen`` in the data but spell a number a seen name spells too, that
    seen name: where only names are left (training labels named apart from the data, a count file of an earlier
    version), ``"1"`` finds the data's ``"1.0"`` and ``"1.0"`` the data's ``"1"``.

    >>> respelled(["1", "2.0", "cat", "3"], {"1.0", "2", "cat"})
    {'1': '1.0', '2.0': '2'}
    """
    by_value: dict[Any, str] | None = None
    out: dict[str, str] = {}
    for name in names:
        if name in seen:
            continue
        number = number_named(name)
        if number is None:
            continue
        if by_value is None:
            by_value = _spelled(seen)
        match = by_value.get(number)
        if match is not None:
            out[name] = match
    return out


def _spelled(seen: Collection[str]) -> dict[Any, str]:
    """The seen names that spell a number, by that number; a number's spelling before a boolean's."""
    out: dict[Any, str] = {}
    for name in sorted(seen, key=lambda s: s in ("False", "True")):
        number = number_named(name)
        if number is not None:
            out.setdefault(number, name)
    return out


def names_by_id(labels: Sequence[Any] | None, id2label: Mapping[Any, Any] | None, k: int | None) -> list[str] | None:
    """The label names by class id: ``labels`` (a list), or ``id2label`` (a model config's mapping, keys ids as ints or
    strings), or the ids 0 … k−1 (``None`` without ``k``); names that are numbers are named by the one rule (``0.0``
    is ``0``).

    Raises
    ------
    OptionError
        For both given, ids that are not 0 … K−1 each once, and names that repeat.
    """
    if labels is not None and id2label is not None:
        raise OptionError("give labels or id2label, not both")
    if id2label is not None:
        if not isinstance(id2label, Mapping):
            raise OptionError(f"id2label maps class ids to label names, not {type(id2label).__name__}")
        by_id = {class_id(key): value for key, value in id2label.items()}
        if sorted(by_id) != list(range(len(by_id))) or len(by_id) != len(id2label):
            raise OptionError(f"id2label must map the ids 0 … {len(by_id) - 1}, each once; it has {sorted(by_id)}")
        names = declared_names([by_id[i] for i in range(len(by_id))], ())
    elif labels is not None:
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise OptionError(f"labels is a list of label names by class id, not {labels!r}")
        names = declared_names(list(labels), ())
    else:
        return None if k is None else [str(i) for i in range(k)]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise OptionError(f"the label names must be distinct: {', '.join(map(repr, repeated))} name several ids")
    return names


def class_id(key: Any) -> int:
    """An ``id2label`` key as a class id: an integer, or a string of one (``"3"``, as a JSON config holds it)."""
    if isinstance(key, str):
        try:
            return int(key)
        except ValueError:
            pass
    elif isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        return int(key)
    raise OptionError(f"id2label's keys are class ids (0, 1, … or '0', '1', …), not {key!r}")
