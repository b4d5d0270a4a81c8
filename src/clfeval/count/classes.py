"""The one contract for classes and score columns: which classes there are, in which order, and which score column
belongs to which class. Every entry point of scored predictions calls it: arrays, lists, pandas and polars frames, CLI
files (whole and in chunks), ``compare``, ``cv`` and the Accumulator; counts made elsewhere (count files) are checked
against the classes asked for when scored. (The scikit-learn and Hugging Face integrations score labels, not scores.)

* **Order.** Classes are ordered as scikit-learn orders them (``np.unique``, an estimator's ``classes_``): numbers by
  value (``2 < 10``), strings as text (``'10' < '9'``); where only names are left (files, count files) by value when
  every name spells a number; ``labels=`` (``--labels``) gives the order instead. :func:`class_order` is the rule;
  class *names* come from :mod:`clfeval.count.labelnames`.
* **Columns by name.** Wherever the input names its score columns (data-frame columns, CSV headers, a glob's matches),
  a column belongs to the class of its name, and ``labels=`` only orders the named columns; a column whose name is
  no class, a class without a column, or a name given twice is a one-line error naming them. Unnamed arrays are
  positional in the stated class order, and the result says which (:attr:`ScoreLayout.matched`).
* **Binary.** A 1-D array of scores belongs to the last class in that order (scikit-learn's ``classes_[1]``) unless
  ``positive=``, or the class its name names (a one-column frame, a glob's one match); an (n, 2) ``predict_proba``
  array is binary too: its positive class's column is kept.
* **Probabilities.** Scores outside [0, 1] beyond float round-off, or (a column per class) rows that do not sum to 1,
  are errors naming the row unless the user says the scores are not probabilities; round-off is clipped and counted
  (:func:`checked_probabilities`).

>>> class_order(["10", "2", "1"]), class_order(["b", "10", "a"])
(['1', '2', '10'], ['10', 'a', 'b'])
>>> layout = score_layout(["0", "1"], 2)           # predict_proba of two classes: binary, the column of '1'
>>> layout.classes, layout.columns, layout.take, layout.matched
(('0', '1'), ('1',), (1,), 'by position')
>>> score_layout(["a", "b", "c"], 3, names=["c", "a", "b"]).take
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.labelnames import label_names, number_named
from clfeval.errors import InputError, OptionError

__all__ = [
    "PROBABILITY_TOLERANCE",
    "ScoreLayout",
    "checked_probabilities",
    "class_order",
    "named_scores",
    "score_layout",
]

#: How far a probability may lie outside [0, 1], or a row of class probabilities from a sum of 1, and still be
#: float round-off (clipped and counted, not refused).
PROBABILITY_TOLERANCE = 1e-6


def class_order(names: Iterable[str], numbers: bool | None = None) -> list[str]:
    """The distinct class names in scikit-learn's order: by the number each spells when the classes are numbers (as
    ``np.unique`` orders numeric labels, exactly; ties between spellings of one number, ``'1'`` and ``'1.0'``, by
    text), else by text (as ``np.unique`` orders strings). ``numbers``: whether the classes' values were numbers
    (arrays and frames know: string labels ``'10'`` and ``'9'`` sort as text, as scikit-learn's ``classes_`` do);
    ``None`` where only names are left (files, count files): numbers when every name spells one.

    >>> class_order(["True", "False"]), class_order(["2.5", "-1", "10"]), class_order(["10", "9"], numbers=False)
    (['False', 'True'], ['-1', '2.5', '10'], ['10', '9'])
    """
    distinct = sorted(set(names))
    if numbers is False:
        return distinct
    values = [number_named(n) for n in distinct]
    if distinct and all(v is not None for v in values):
        return [n for _, n in sorted(zip(values, distinct))]  # Python compares ints and floats exactly
    return distinct


@dataclass(frozen=True)
class ScoreLayout:
    """Which classes there are and which score column belongs to which.

    Attributes
    ----------
    classes
        Every class, in order (``gold`` codes are positions in it).
    columns
        The class of each score column kept, in order: every class (multi-class, multi-label), or the positive
        class alone (binary).
    take
        The input's columns to keep, in the order of ``columns`` (``None``: all of them, as given).
    matched
        How the columns were matched to their classes: ``by name``, ``by position`` (unnamed columns in the stated
        class order) or ``one column`` (1-D scores: the positive class's).
    """

    classes: tuple[str, ...]
    columns: tuple[str, ...]
    take: tuple[int, ...] | None
    matched: str

    def apply(self, scores: np.ndarray) -> np.ndarray:
        """The kept columns of ``scores`` (n × input columns) in the order of :attr:`columns`; 1-D scores as given."""
        if self.take is None or scores.ndim == 1:
            return scores
        return scores[:, list(self.take)]

    @property
    def positive(self) -> str | None:
        """The positive class of binary scores (``None`` otherwise)."""
        return self.columns[0] if len(self.columns) == 1 and len(self.classes) == 2 else None

    def to_dict(self) -> dict[str, Any]:
        """What the output says of the columns: how they were matched, and binary scores' positive class."""
        out: dict[str, Any] = {"columns_matched": self.matched}
        if self.positive is not None:
            out["positive"] = self.positive
        return out


def _by_name(
    names: Sequence[str], labels: Sequence[str] | None, where: str, numbers: bool | None = None
) -> tuple[list[str], str]:
    """The classes of named columns, in order, and how they were matched (see :func:`score_layout`)."""
    repeated = sorted({n for n in names if list(names).count(n) > 1})
    if repeated:
        raise InputError(f"the score column name {repeated[0]!r} is given twice: each class has one column", where)
    if labels is None:
        return class_order(names, numbers), "by name"
    extra = [n for n in names if n not in labels]
    missing = [c for c in labels if c not in names]
    if extra or missing:
        said = []
        if extra:
            said.append(f"score column(s) {', '.join(map(repr, extra[:10]))} match no class of labels")
        if missing:
            said.append(f"class(es) {', '.join(map(repr, missing[:10]))} have no score column")
        raise InputError("; ".join(said) + f" (the columns are matched to classes by name: {list(names)[:20]})", where)
    return list(labels), "by name"


def score_layout(
    seen: Sequence[str],
    n_columns: int | None,
    *,
    names: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
    positive: str | None = None,
    multilabel: bool = False,
    where: str = "scores",
    numbers: bool | None = None,
) -> ScoreLayout:
    """The classes and score columns of scored predictions (the module's contract).

    Parameters
    ----------
    seen
        The names of the gold labels seen (multi-label: of the labels in the gold sets).
    n_columns
        The score columns given; ``None`` for 1-D scores (the positive class's).
    names
        The class name of each score column where the input names its columns (``None``: unnamed, positional).
    labels
        The declared classes, in order (names), or ``None``.
    positive
        The positive class of binary scores (1-D, or two columns).
    multilabel
        A column per label (never binary).
    where
        What the errors name (the argument, or the file).
    numbers
        Whether the classes' values were numbers (:func:`class_order`; ``None``: only names are known).

    Raises
    ------
    InputError, OptionError
        Columns and classes that do not match, named.
    """
    if n_columns is None:
        named = [*seen, *([positive] if positive else [])]
        classes = list(labels) if labels is not None else class_order(named, numbers)
        if len(classes) != 2:
            raise InputError(
                f"one score per instance is the positive class's of two classes; the classes are {classes} "
                "(give labels=[negative, positive], --labels)",
                where,
            )
        pos = classes[-1] if positive is None else positive
        if pos not in classes:
            raise OptionError(f"the positive class {pos!r} is not among the classes {classes}")
        return ScoreLayout(tuple(classes), (pos,), None, "one column")
    if names is not None:
        if len(names) != n_columns:
            raise InputError(f"{n_columns} score columns but {len(names)} column names", where)
        classes, matched = _by_name([str(n) for n in names], labels, where, numbers)
        take: tuple[int, ...] | None = tuple(list(names).index(c) for c in classes)
        if take == tuple(range(n_columns)):
            take = None
    else:
        classes = list(labels) if labels is not None else class_order(seen, numbers)
        if len(classes) != n_columns:
            raise InputError(
                f"{n_columns} score columns but {len(classes)} classes {classes[:20]}: unnamed columns are the classes "
                "in order (give labels= in the columns' order, or scores as a data frame whose columns name them)",
                where,
            )
        take, matched = None, "by position"
    if len(set(classes)) != len(classes):
        raise OptionError(f"the classes repeat: {sorted({c for c in classes if classes.count(c) > 1})}")
    if multilabel:
        if positive is not None:
            raise OptionError("positive= names the class of binary scores; multi-label scores have a column per label")
        return ScoreLayout(tuple(classes), tuple(classes), take, matched)
    if n_columns == 2:  # predict_proba of two classes: binary, the positive class's column
        pos = classes[-1] if positive is None else positive
        if pos not in classes:
            raise OptionError(f"the positive class {pos!r} is not among the classes {classes}")
        at = classes.index(pos)
        return ScoreLayout(tuple(classes), (pos,), ((take or (0, 1))[at],), matched)
    if positive is not None:
        raise OptionError(f"positive= names the class of binary scores, not of {n_columns} score columns")
    return ScoreLayout(tuple(classes), tuple(classes), take, matched)


def named_scores(scores: Any) -> tuple[Any, list[str] | None]:
    """Scores and the class names of their columns where the input names them: a pandas or polars data frame's
    columns (named by the label-naming rule: a column ``0`` is class ``'0'``); anything else is unnamed (``None``), and
    so is a frame with its library's default column labels (``pd.DataFrame(model.predict_proba(X))``)."""
    columns = getattr(scores, "columns", None)
    if columns is None or not hasattr(scores, "shape") or len(getattr(scores, "shape", ())) != 2:
        return scores, None
    values = np.asarray(scores.to_numpy() if hasattr(scores, "to_numpy") else scores, dtype=np.float64)
    given = list(columns)
    if type(columns).__name__ == "RangeIndex" or given == [f"column_{i}" for i in range(len(given))]:
        return values, None  # a frame's default column labels (pandas 0 … K−1, polars column_0 …) name no class
    return values, label_names(given)


def checked_probabilities(
    scores: np.ndarray,
    *,
    rows_sum: bool,
    where: str,
    lines: np.ndarray | None = None,
    tolerance: float = PROBABILITY_TOLERANCE,
    hint: str = "if they are scores, not probabilities, say so (--not-probabilities; Python: "
    "conventions=Conventions(not_probabilities=True))",
) -> tuple[np.ndarray, int]:
    """Probabilities checked: every score in [0, 1] and (``rows_sum``: a column per class) every row summing to 1,
    each within ``tolerance`` of float round-off; round-off outside [0, 1] is clipped. Returns the scores (a copy only
    when something was clipped) and how many were clipped.

    Raises
    ------
    InputError
        Naming the first row (``lines``: its line of ``where``; else its index) that is no probability, and ``hint``.
    """
    s = np.asarray(scores, dtype=np.float64)
    two = s.reshape(len(s), -1)
    low, high = (float(two.min()), float(two.max())) if two.size else (0.0, 1.0)  # no temporary of n values
    if low < -tolerance or high > 1 + tolerance:
        far = (two < -tolerance) | (two > 1 + tolerance)
        i = int(np.flatnonzero(far.any(axis=1))[0])
        value = two[i].tolist()
        shown = value[0] if len(value) == 1 else value
        _refuse(f"the score {shown!r} is not a probability (every probability is in [0, 1]); {hint}", where, i, lines)
    if rows_sum and two.shape[1] > 1 and len(two):
        off = np.flatnonzero(np.abs(two.sum(axis=1) - 1) > tolerance)
        if len(off):
            i = int(off[0])
            _refuse(
                f"the class probabilities {two[i].tolist()} sum to {two[i].sum():.9g}, not 1 (tolerance "
                f"{tolerance:g}); {hint}",
                where,
                i,
                lines,
            )
    if low >= 0 and high <= 1:
        return s, 0
    n = int(((two < 0) | (two > 1)).sum())
    return np.clip(s, 0.0, 1.0), n


def _refuse(message: str, where: str, i: int, lines: np.ndarray | None) -> None:
    if lines is not None:
        raise InputError(message, where, int(lines[i]))
    raise InputError(message, where, index=i)
