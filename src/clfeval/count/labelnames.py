"""How values are named as labels: strings as they are, numbers by ``str``, booleans ``False`` and ``True``.

Equal numbers are one label whatever their types (``1``, ``1.0``, ``np.uint64(1)``, and ``True`` beside numbers),
as Python's ``==`` and scikit-learn's ``labels=`` take them. A label is named at first sight, so the other names an
equal number may already have are its *spellings*: the accumulator of batches and the declared label set look a
number up by each of them.

>>> spellings(1)
('1', '1.0', 'True')
>>> spellings(1.0), spellings(1.0, floats=True)
(('1', '1.0', 'True'), ('1.0', '1', 'True'))
>>> spellings(True), spellings(2.5), spellings(-3)
(('True', '1', '1.0'), ('2.5',), ('-3', '-3.0'))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["EXACT_FLOAT", "first_spelling", "is_missing", "is_number", "number_named", "spellings"]

#: Integers up to this magnitude are exact in float64 (2⁵³), so ``1.0`` can spell them.
EXACT_FLOAT = 1 << 53


def is_missing(value: Any) -> bool:
    """Whether a value stands for no label: None, NaN, ``pd.NA``, ``NaT`` (a value not equal to itself, or whose
    equality has no truth value)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except (TypeError, ValueError):
        return True


def is_number(value: Any) -> bool:
    """Whether ``value`` is a number or a boolean, Python's or numpy's (a string never is)."""
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating))


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


def first_spelling(value: int | float, floats: bool = False) -> str:
    """``spellings(value, floats)[0]`` for a Python int or float, without building the others (one ``str``)."""
    if isinstance(value, float) and not floats and value.is_integer():
        return str(int(value))
    return str(value)


def spellings(value: Any, floats: bool = False) -> tuple[str, ...]:
    """The names a number equal to ``value`` may have as a label, the name for a new label first.

    Parameters
    ----------
    value
        A Python or numpy number or boolean (not NaN).
    floats
        Whether an integral float is named as a float (``1.0``: a float array's labels, as :func:`clfeval.score`
        names them) rather than as an integer (``1``: a float beside integers).
    """
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return (str(value), str(int(value)), str(float(value)))
    if isinstance(value, float) and not value.is_integer():
        return (str(value),)
    whole = int(value)
    names = [str(whole)]
    if isinstance(value, float):
        names.insert(0 if floats else 1, str(value))
    elif abs(whole) <= EXACT_FLOAT:
        names.append(str(float(whole)))
    if whole in (0, 1):
        names.append(str(bool(whole)))
    return tuple(names)
