"""Division with an explicit policy for undefined ratios (0/0)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from clfeval.errors import OptionError, unknown_name

__all__ = ["UNDEFINED_POLICIES", "f_beta", "f_key", "f_title", "parse_zero_division", "ratio"]

#: Whether a label whose ratio is undefined (0/0) takes part in an average.
UNDEFINED_POLICIES: Mapping[str, str] = {
    "include": "a label with an undefined ratio takes part in averages with the zero-division value",
    "exclude": "a label with an undefined ratio drops out of averages of that measure",
}


def parse_zero_division(value: object) -> float:
    """The replacement value for 0/0: 0, 1 or NaN (accepts numbers and the strings '0', '1', 'nan')."""
    if isinstance(value, str):
        value = value.strip().lower()
        table = {"0": 0.0, "1": 1.0, "nan": math.nan}
        if value == "warn":  # scikit-learn's default: 0, with a warning
            raise OptionError(
                "zero_division='warn' is scikit-learn's 0 with a warning: give zero_division=0 (clfeval always says "
                "which labels were 0/0, in result.warnings)"
            )
        if value not in table:
            raise unknown_name("zero-division value", value, table)
        return table[value]
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise OptionError(f"zero_division must be 0, 1 or nan, not {value!r}") from None
    if not (math.isnan(number) or number in (0.0, 1.0)):
        raise OptionError(f"zero_division must be 0, 1 or nan, not {value!r}")
    return number


def ratio(num: np.ndarray, den: np.ndarray, zero_division: float) -> tuple[np.ndarray, np.ndarray]:
    """``num / den`` elementwise, with ``zero_division`` where ``den == 0``; also returns that mask."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    undefined = den == 0
    out = np.divide(num, den, out=np.full(np.broadcast(num, den).shape, zero_division), where=~undefined)
    return out, undefined


def f_beta(
    tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, beta: float, zero_division: float
) -> tuple[np.ndarray, np.ndarray]:
    """F_β from counts, defined whenever tp + fp + fn > 0.

    Notes
    -----
    F_β = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp), the harmonic mean of precision and
    recall weighted by β; it is 0 (not undefined) when tp = 0 and fp + fn > 0.
    """
    b2 = beta * beta
    tp = np.asarray(tp, dtype=np.float64)
    return ratio((1 + b2) * tp, (1 + b2) * tp + b2 * np.asarray(fn, dtype=np.float64) + fp, zero_division)


def f_key(beta: float) -> str:
    """The report name of F_β: ``f1`` for β = 1, else ``f`` + β (``f2``, ``f0.5``)."""
    return f"f{beta:g}"


def f_title(beta: float) -> str:
    """The title of F_β in tables and figures: ``F1`` for β = 1, else ``F`` + β (``F2``, ``F0.5``)."""
    return f"F{beta:g}"
