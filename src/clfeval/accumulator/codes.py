"""The labels of an accumulator and how a batch's values become their codes.

A label has a code (its position, 0 … K−1, in report order), a name (by the one rule of
:mod:`clfeval.count.labelnames`), a category (a number, a string seen in the data, or a name only), the number it
holds and the kinds of value it occurred as, which decide its name. :class:`LabelCoder` owns that state and turns each
batch's values into int64 codes, naming new labels (or refusing them when the labels are declared): Python works once
per *distinct* value of a batch, integer arrays go through a value → code lookup table. The counts indexed by the
codes are :class:`~clfeval.accumulator.Accumulator`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from clfeval.accumulator.batches import _check_missing, _inferred
from clfeval.count.labelnames import (
    BOOL,
    EXACT_FLOAT,
    FLOAT,
    INT,
    is_number,
    joint_kinds,
    label_name,
    number_named,
    settled,
    value_kind,
)
from clfeval.errors import InputError, OptionError
from clfeval.inputs.arrays import _coded, _Codes, exact_int64

_INT_TABLE = 1 << 22  # integer labels below this map to codes through a lookup table (no sort)
_NUMBER, _TEXT, _NAME = 0, 1, 2  # a label's category: a number, a string seen in the data, a name only
_KIND_OF_DTYPE = {"b": BOOL, "i": INT, "u": INT, "f": FLOAT}

#: A label as :meth:`LabelCoder.add` takes it: (name, category, the number it holds or None, kinds).
Entry = tuple[str, int, Any, int]


class LabelCoder:
    """The labels of an accumulator, in code order, and the coding of batches into them.

    Parameters
    ----------
    declared
        The declared labels (values, as given), or ``None`` for the labels seen.

    Attributes
    ----------
    declared
        The declared labels (values, as given; numbers again after :meth:`know_numbers`), or ``None``: while it is
        set, a value outside the labels is an error.
    origin
        Where the label set came from: ``declared``, ``columns`` or ``seen`` (see
        :data:`~clfeval.accumulator.LABEL_ORIGINS`).
    names
        Each label's name, by code.
    code
        Name → code.
    category
        Each label's category: ``_NUMBER``, ``_TEXT`` (a string seen in the data) or ``_NAME`` (a name only: declared
        as a string, or read from counts).
    value
        The number each label holds (a Python int, float or bool), or ``None``.
    kinds
        The kinds of value each label occurred as (``labelnames.BOOL | INT | FLOAT``).
    by_value
        Number → code: equal numbers (``1``, ``1.0``, ``True``) are one key.
    open
        The number labels whose names another kind of value may still change.
    n_names
        How many labels are names only (a number spelled as one matches them).
    int_table
        Integer value → code (−1: not a label yet), for non-negative integers below 2²².
    identity
        Whether the labels are ``"0"``, ``"1"``, … in code order: integer values are their codes.

    Notes
    -----
    The owner of the counts (:class:`~clfeval.accumulator.Accumulator`) grows them after a call that may add labels
    (:meth:`codes`, :meth:`add`, :meth:`add_names`, :meth:`join`), from the number of labels before the call: a
    call that fails part way keeps the labels it added.
    """

    declared: tuple[Any, ...] | None
    origin: str

    def __init__(self, declared: tuple[Any, ...] | None = None) -> None:
        self.declared = declared
        self.reset()

    def reset(self) -> None:
        """The declared labels only (none when they are not declared)."""
        self.origin = "seen" if self.declared is None else "declared"
        self.clear()
        if self.declared is not None:
            self.add(_declared_entry(v) for v in self.declared)

    def clear(self) -> None:
        """No labels (:attr:`declared` and :attr:`origin` stay)."""
        self.names: list[str] = []
        self.code: dict[str, int] = {}
        self.category: list[int] = []
        self.value: list[Any] = []
        self.kinds: list[int] = []
        self.by_value: dict[Any, int] = {}
        self.open: set[int] = set()
        self.n_names = 0
        self.int_table = np.full(0, -1, dtype=np.int64)
        self.identity = True

    def copy(self) -> LabelCoder:
        """An independent copy."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.names, out.code, out.category = list(self.names), dict(self.code), list(self.category)
        out.value, out.kinds = list(self.value), list(self.kinds)
        out.by_value, out.open, out.int_table = dict(self.by_value), set(self.open), self.int_table.copy()
        return out

    def entry(self, code: int) -> Entry:
        """The label ``code`` as :meth:`add` takes it."""
        return self.names[code], self.category[code], self.value[code], self.kinds[code]

    def add_names(self, names: Iterable[str]) -> None:
        """Give codes to new labels that are names only (multi-label labels, labels read from counts)."""
        self.add((name, _NAME, None, 0) for name in names)

    def add(self, entries: Iterable[Entry]) -> None:
        """Give codes to new labels, each (name, category, number or None, kinds)."""
        for name, category, value, kinds in entries:
            code = self.code[name] = len(self.names)
            self.names.append(name)
            self.category.append(category)
            self.value.append(value)
            self.kinds.append(kinds)
            self.n_names += category == _NAME
            if value is not None:
                self.by_value.setdefault(value, code)
                if category == _NUMBER and not settled(value, kinds):
                    self.open.add(code)
            self.identity = self.identity and name == str(code) and category != _TEXT and code not in self.open
            self._register_int(code)

    def _register_int(self, code: int) -> None:
        """Enter a label in the integer value → code table when an integer array may find it there: a number whose
        name is settled, or a name only that spells a non-negative integer (never a string seen in the data)."""
        category, value = self.category[code], self.value[code]
        if category == _TEXT or code in self.open:
            return
        if value is None:
            whole = _int_value(self.names[code])
        elif isinstance(value, float):
            whole = int(value) if value.is_integer() else None
        else:
            whole = int(value)
        if whole is None or not 0 <= whole < _INT_TABLE:
            return
        if whole >= len(self.int_table):
            grown = np.full(max(whole + 1, 2 * len(self.int_table)), -1, dtype=np.int64)
            grown[: len(self.int_table)] = self.int_table
            self.int_table = grown
        if self.int_table[whole] < 0:
            self.int_table[whole] = code

    def _widen(self, code: int, kinds: int, where: str) -> None:
        """The label ``code`` occurs as ``kinds`` too: a boolean label beside an equal number is named as the number,
        an integral float beyond 2⁵³ beside an equal integer as the integer (renamed, once)."""
        now = self.kinds[code] | kinds
        if now == self.kinds[code]:
            return
        self.kinds[code] = now
        if code in self.open and settled(self.value[code], now):
            self.open.discard(code)
            name = label_name(self.value[code], now)
            if name != self.names[code]:
                other = self.code.get(name)
                if other is not None:
                    raise InputError(
                        f"labels {self._shown(other)} and {self.value[code]!r} (named {name!r} beside an equal "
                        f"number) have the same name {name!r}; use one type of label",
                        where,
                    )
                del self.code[self.names[code]]
                self.code[name] = code
                self.names[code] = name
                self.identity = all(
                    lab == str(i) and c != _TEXT and i not in self.open
                    for i, (lab, c) in enumerate(zip(self.names, self.category))
                )
            self._register_int(code)

    def _shown(self, code: int) -> str:
        """A label as an error message shows it: its number, or its name."""
        value = self.value[code]
        return repr(value) if value is not None and self.category[code] == _NUMBER else repr(self.names[code])

    def codes(self, g: np.ndarray, p: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
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
            if lo >= 0 and self.identity and hi < len(self.names):  # declared 0 … K−1: the values are the codes
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
        table = np.array([self.by_value.get(v, -1) for v in (False, True)], dtype=np.int64)
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
        known = np.array(self.names, dtype=str)
        order = np.argsort(known, kind="stable")
        ranked = known[order]
        at = np.searchsorted(ranked, both)
        at[at == len(ranked)] = 0
        hit = ranked[at] == both if len(ranked) else np.zeros(len(both), dtype=bool)
        if hit.all():
            codes = order[at].astype(np.int64)
            if self.by_value and self.declared is None:  # a string is not a number label (declared: matched by name)
                numbers = np.array([c == _NUMBER for c in self.category], dtype=bool)[codes]
                if numbers.any():
                    at_first = int(np.flatnonzero(numbers)[0])
                    role, index = ("gold", at_first) if at_first < n_gold else ("pred", at_first - n_gold)
                    raise self._alike(int(codes[at_first]), str(both[at_first]), f"{where}: {role}", index)
            return codes
        new = np.unique(both[~hit]).tolist()
        if self.declared is not None:
            position = int(np.flatnonzero(both == new[0])[0])
            role, index = ("gold", position) if position < n_gold else ("pred", position - n_gold)
            raise self.undeclared(new[0], f"{where}: {role}", index)
        self.add((name, _TEXT, None, 0) for name in new)
        return self._text_codes(both, n_gold, where)

    def _table_codes(self, g: np.ndarray, p: np.ndarray, hi: int, where: str) -> tuple[np.ndarray, np.ndarray]:
        """Codes of non-negative integer labels below the table size: a gather through the value → code table."""
        if hi >= len(self.int_table):
            grown = np.full(max(hi + 1, 2 * len(self.int_table)), -1, dtype=np.int64)
            grown[: len(self.int_table)] = self.int_table
            self.int_table = grown
        gold_codes, pred_codes = self.int_table[g], self.int_table[p]
        if min(int(gold_codes.min()), int(pred_codes.min())) < 0:  # values that are not labels yet
            missing = [g[gold_codes < 0].astype(np.int64), p[pred_codes < 0].astype(np.int64)]  # uint64 + int64: exact
            new = np.unique(np.concatenate(missing)).tolist()

            def locate(i: int) -> tuple[str, int]:
                at = np.flatnonzero(g == new[i])
                return ("gold", int(at[0])) if len(at) else ("pred", int(np.flatnonzero(p == new[i])[0]))

            found = self._number_lookup(new, [INT] * len(new), locate, where)
            self.int_table[new] = found
            gold_codes, pred_codes = self.int_table[g], self.int_table[p]
        return gold_codes, pred_codes

    def _number_lookup(
        self, values: Sequence[Any], kinds: Sequence[int], locate: Callable[[int], tuple[str, int]], where: str
    ) -> np.ndarray:
        """Each distinct number's code (``values``: Python numbers, no two equal, occurring as ``kinds``): its label
        by value (its kinds joined, which may rename it), else a label that is a name spelling it, else a new label
        named by the rule, or an error at ``locate(i)`` (role, index) when the labels are declared."""
        codes = np.fromiter(map(self.by_value.get, values, repeat(-1)), dtype=np.int64, count=len(values))
        if self.open:
            for i in np.flatnonzero(np.isin(codes, list(self.open))).tolist():
                self._widen(int(codes[i]), kinds[i], where)
        misses = np.flatnonzero(codes < 0).tolist()
        if not misses:
            return codes
        new: list[int] = []
        for i in misses:
            found = self._name_match(values[i], kinds[i]) if self.n_names else -1
            if found >= 0:
                codes[i] = found
            elif self.declared is not None:
                role, index = locate(i)
                raise self.undeclared(label_name(values[i], kinds[i]), f"{where}: {role}", index)
            else:
                new.append(i)
        if new:
            entries = [(label_name(values[i], kinds[i]), _NUMBER, values[i], kinds[i]) for i in new]
            for (name, _, value, _), i in zip(entries, new):
                if name in self.code:  # a string seen in the data, named alike
                    role, index = locate(i)
                    raise self._alike(self.code[name], value, f"{where}: {role}", index)
            start = len(self.names)
            self.add(entries)
            codes[new] = np.arange(start, len(self.names))
        return codes

    def _name_match(self, value: Any, kinds: int) -> int:
        """The code of a label that is a name only (declared as a string, read from counts) spelling the number
        ``value`` (by the rule, or by ``str`` as earlier versions named it), which then holds it; −1 if none."""
        for name in dict.fromkeys((label_name(value, kinds), str(value))):
            code = self.code.get(name)
            if code is not None and self.category[code] == _NAME:
                if self.value[code] is None:
                    self.value[code] = value
                self.by_value.setdefault(value, code)
                self._register_int(code)
                return code
        return -1

    def _text_lookup(self, names: Sequence[str], locate: Callable[[int], tuple[str, int]], where: str) -> np.ndarray:
        """Each distinct string's code (a label of that name, never a number's), new labels added."""
        codes = np.fromiter((self.code.get(name, -1) for name in names), dtype=np.int64, count=len(names))
        for i, code in enumerate(codes.tolist() if self.declared is None else ()):  # declared: matched by name
            if code >= 0 and self.category[code] == _NUMBER:
                role, index = locate(i)
                raise self._alike(code, names[i], f"{where}: {role}", index)
        misses = np.flatnonzero(codes < 0).tolist()
        if misses and self.declared is not None:
            role, index = locate(misses[0])
            raise self.undeclared(names[misses[0]], f"{where}: {role}", index)
        if misses:
            start = len(self.names)
            self.add((names[i], _TEXT, None, 0) for i in misses)
            codes[misses] = np.arange(start, len(self.names))
        return codes

    def _alike(self, code: int, value: Any, where: str, index: int | None = None) -> InputError:
        """The error for a value named as the label ``code`` is, though not equal to it (``1`` and ``"1"``)."""
        return InputError(
            f"labels {self._shown(code)} and {value!r} have the same name {self.names[code]!r}; use one type of label",
            where,
            index=index,
        )

    def undeclared(self, value: str, where: str, index: int | None = None) -> InputError:
        """The error for a label outside the declared labels (or the indicator columns): ``value``, at ``where``."""
        shown = ", ".join(map(repr, self.names[:8])) + (", …" if len(self.names) > 8 else "")
        what = "declared" if self.origin == "declared" else "indicator columns'"
        hint = ""
        if value.endswith(".0") and value[:-2] in self.code:
            hint = "; cast float labels to integers"
        return InputError(
            f"holds the label {value!r}, not among the {len(self.names)} {what} labels ({shown}){hint}",
            where,
            index=index,
        )

    def _aliases(self, other: LabelCoder) -> dict[int, int]:
        """Each of ``other``'s labels that this one holds: by value (a number: ``1`` here, ``True`` or ``1.0`` there),
        else by name, mapped to this one's code.

        Raises
        ------
        InputError
            For a number there and a string seen in the data here (or the other way round) named alike.
        """
        out = {}
        for j, name in enumerate(other.names):
            value, category = other.value[j], other.category[j]
            code = self.by_value.get(value, -1) if value is not None else -1
            if code < 0 and value is not None and self.n_names:
                for spelled in dict.fromkeys((label_name(value, other.kinds[j]), str(value))):
                    found = self.code.get(spelled, -1)
                    if found >= 0 and self.category[found] == _NAME:
                        code = found
                        break
            if code < 0:
                code = self.code.get(name, -1)
                if code >= 0 and {category, self.category[code]} == {_NUMBER, _TEXT}:
                    number = value if category == _NUMBER else self.value[code]
                    raise InputError(
                        f"labels {number!r} and {name!r} have the same name {name!r}; use one type of label", "merge"
                    )
            if code >= 0:
                out[j] = code
        return out

    def _know_number(self, code: int) -> None:
        """The label ``code``, a name read from a count file, held a number: a name the rule gives a number
        (``1``, ``2.5``, ``True``, ``1e+20``) makes it that number's label again, with the kinds its name says; an
        earlier version's name (``1.0``) stays as it is, matched by its value."""
        value = number_named(self.names[code])
        if value is None or self.category[code] != _NAME:
            return
        if label_name(value) == self.names[code]:
            self.category[code] = _NUMBER
            self.n_names -= 1
            self.kinds[code] = value_kind(value)
            if not settled(value):
                self.open.add(code)
                self.identity = False
        self.value[code] = value
        self.by_value.setdefault(value, code)
        self._register_int(code)

    def join(self, other: LabelCoder) -> dict[int, int]:
        """Take in ``other``'s labels, as a merge does: each of its codes mapped to this one's code of the same label
        (labels this one lacks added), a label's value and kinds joined.

        When both declared their labels, the sets must be equal; when one did, the other's labels must lie within
        them. The origin and declared labels are left as they are (the caller adopts ``other``'s).

        Raises
        ------
        OptionError
            On different declared label sets.
        InputError
            When ``other`` holds a label outside this one's declared labels, or a string named as one of this one's
            numbers (``"1"`` and ``1``).
        """
        fixed = self.origin != "seen"
        alias = self._aliases(other)  # the other's code → this one's code of the same label
        if (
            fixed
            and other.origin != "seen"
            and (len(alias) != len(other.names) or set(alias.values()) != set(range(len(self.names))))
        ):
            unmatched = {other.names[j] for j in range(len(other.names)) if j not in alias}
            unmatched |= {self.names[c] for c in set(range(len(self.names))) - set(alias.values())}
            differ = ", ".join(map(repr, sorted(unmatched)[:5]))
            raise OptionError(f"cannot merge accumulators with different declared label sets (they differ in {differ})")
        new = [j for j in range(len(other.names)) if j not in alias]
        if new and fixed:
            raise self.undeclared(other.names[new[0]], "merge")
        if not fixed and other.origin != "seen":  # the other's declared set becomes this one's
            matched = set(alias.values())
            outside = [c for c in range(len(self.names)) if c not in matched]
            if outside:
                raise other.undeclared(self.names[outside[0]], "merge")
        start = len(self.names)
        self.add(other.entry(j) for j in new)
        alias.update(zip(new, range(start, len(self.names))))
        for j, code in alias.items():
            value = other.value[j]
            if value is not None and self.value[code] is None and self.category[code] == _NAME:
                self.value[code] = value  # a name only here, a number there
                self.by_value.setdefault(value, code)
                self._register_int(code)
            if other.kinds[j] and self.category[code] == _NUMBER:
                self._widen(code, other.kinds[j], "merge")
        return alias

    def know_numbers(self, names: frozenset[str]) -> None:
        """The labels ``names`` (read from a count file) were named from numbers: they hold their values again
        (``1.0`` and ``True`` find ``1``), and so do the declared labels among them."""
        for name in sorted(names & self.code.keys(), key=self.code.__getitem__):
            self._know_number(self.code[name])
        if self.declared is not None:
            self.declared = tuple(
                self.value[self.code[d]] if self.category[self.code[d]] == _NUMBER else d for d in self.declared
            )


# -- helpers ----------------------------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value (``np.uint64(2**63 + 5)`` exactly), anything else as it is."""
    return value.item() if isinstance(value, np.generic) else value


def _holds_number(value: Any) -> bool:
    """Whether a value is a number a label holds (a number or a boolean, not NaN)."""
    return is_number(value) and value == value


def _declared_entry(value: Any) -> Entry:
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
