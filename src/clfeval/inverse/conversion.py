"""Reported scores back into counts: every integer table (tp, fp, fn, tn) consistent with rounded figures.

Van Asch's ``scoreconverter`` turned a paper's precision, recall and support back into a
confusion table. Reported figures are rounded, so one floating-point answer is wrong twice:
it is not an integer table, and it is only one of possibly several. This solver returns all of
them.

Every quantity is a ratio of linear forms in the four unknowns (a count is the ratio to 1), and
a figure reported to d decimals says ``lo ≤ num/den ≤ hi`` with ``lo, hi = value ∓ ½·10⁻ᵈ``, i.e.
two linear inequalities ``num − lo·den ≥ 0`` and ``hi·den − num ≥ 0`` in exact fractions. The
search fixes one unknown at a time: for each free unknown, every inequality whose other free
unknowns all have coefficients ≤ 0 bounds it (they are ≥ 0, so dropping them only loosens
it); the unknown with the narrowest finite range is enumerated, and the last one is counted as
an interval. An unknown that no inequality bounds is undetermined: the answer says so and
names the quantities that would settle it. When no table fits, the pairs of figures that
cannot both hold are named.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.errors import OptionError, unknown_name
from clfeval.result import TEXT_FORMATS, Result, json_safe
from clfeval.scoring.computation import average_measures, per_label_measures

__all__ = [
    "COUNT_QUANTITIES",
    "QUANTITIES",
    "BinaryTable",
    "Conversion",
    "LabelConversion",
    "Reported",
    "convert",
    "convert_labels",
    "reported",
]

#: The quantities the converter takes and returns, with their definitions.
QUANTITIES: Mapping[str, str] = {
    "tp": "true positives",
    "fp": "false positives",
    "fn": "false negatives",
    "tn": "true negatives",
    "n": "instances: tp + fp + fn + tn",
    "support": "gold occurrences of the label: tp + fn",
    "predicted": "predictions of the label: tp + fp",
    "precision": "tp / (tp + fp)",
    "recall": "tp / (tp + fn)",
    "f": "F_β = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp)",
    "accuracy": "(tp + tn) / n",
    "specificity": "tn / (tn + fp)",
    "prevalence": "(tp + fn) / n",
}
#: Quantities that are counts (exact integers).
COUNT_QUANTITIES = ("tp", "fp", "fn", "tn", "n", "support", "predicted")
_UNKNOWNS = ("tp", "fn", "fp", "tn")
#: Partial tables the search may visit before it gives up and asks for more figures.
WORK_LIMIT = 2_000_000

Form = dict[str, Fraction]  # unknown → coefficient; the key "" holds the constant


@dataclass(frozen=True)
class Reported:
    """A reported figure: its value, how many decimals it was rounded to (``None``: exact), and as given.

    ``low`` and ``high`` bound the true value: ``value ∓ ½·10⁻ᵈ``.
    """

    value: Fraction
    decimals: int | None
    text: str

    @property
    def half(self) -> Fraction:
        return Fraction(0) if self.decimals is None else Fraction(1, 2 * 10**self.decimals)

    @property
    def low(self) -> Fraction:
        return self.value - self.half

    @property
    def high(self) -> Fraction:
        return self.value + self.half


_NUMBER = re.compile(r"^\s*([+-]?)(\d*)(?:\.(\d*))?\s*(%?)\s*$")


def check_decimals(decimals: int | None) -> None:
    """Refuse a number of decimals that is not a whole number from 0 to 15 (--decimals)."""
    if decimals is not None and (
        isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 15
    ):
        raise OptionError(
            f"decimals must be a whole number from 0 to 15 (the digits a figure was rounded to), not {decimals!r}"
        )


def reported(value: str | float | int | Fraction, decimals: int | None = None, *, count: bool = False) -> Reported:
    """Parse a reported figure.

    Parameters
    ----------
    value
        A number or its text: ``"0.75"`` (2 decimals), ``"75%"`` or ``"75.0%"`` (a percentage:
        0.75, to 2 or 3 decimals), ``0.6`` (a float: its shortest text, 1 decimal).
    decimals
        The decimals it was rounded to (of the value as a fraction, so 75.0% is 3); default:
        as many as the text shows.
    count
        A count: an exact non-negative integer.

    Raises
    ------
    OptionError
        If the text is not a number, a count is not a whole number ≥ 0, or a ratio lies outside [0, 1].
    """
    if isinstance(value, Reported):
        return value
    check_decimals(decimals)
    text = str(value) if not isinstance(value, float) else repr(value)
    match = _NUMBER.match(text)
    if match is None or not (match.group(2) or match.group(3)):
        raise OptionError(f"{text!r} is not a number")
    sign, whole, frac, percent = match.groups()
    digits = len(frac or "")
    number = Fraction(int((whole or "0") + (frac or "")), 10**digits) * (-1 if sign == "-" else 1)
    if count:
        if percent or number.denominator != 1 or number < 0:
            raise OptionError(f"{text!r} is not a count (a whole number ≥ 0)")
        return Reported(number, None, text.strip())
    if percent:
        number /= 100
        digits += 2
    if not 0 <= number <= 1:
        raise OptionError(f"{text!r} is not a ratio between 0 and 1 (write 75% or 0.75)")
    return Reported(number, digits if decimals is None else decimals, text.strip())


def _forms(beta: Fraction) -> dict[str, tuple[Form, Form]]:
    """Each quantity as (numerator, denominator): linear forms in tp, fn, fp, tn."""
    one = Fraction(1)
    b2 = beta * beta
    total = {"tp": one, "fn": one, "fp": one, "tn": one}
    unit = {"": one}
    return {
        "tp": ({"tp": one}, unit),
        "fp": ({"fp": one}, unit),
        "fn": ({"fn": one}, unit),
        "tn": ({"tn": one}, unit),
        "n": (total, unit),
        "support": ({"tp": one, "fn": one}, unit),
        "predicted": ({"tp": one, "fp": one}, unit),
        "precision": ({"tp": one}, {"tp": one, "fp": one}),
        "recall": ({"tp": one}, {"tp": one, "fn": one}),
        "f": ({"tp": 1 + b2}, {"tp": 1 + b2, "fn": b2, "fp": one}),
        "accuracy": ({"tp": one, "tn": one}, total),
        "specificity": ({"tn": one}, {"tn": one, "fp": one}),
        "prevalence": ({"tp": one, "fn": one}, total),
    }


def _combine(a: Form, ka: Fraction, b: Form, kb: Fraction) -> Form:
    out: Form = {}
    for form, k in ((a, ka), (b, kb)):
        for var, c in form.items():
            out[var] = out.get(var, Fraction(0)) + k * c
    return {v: c for v, c in out.items() if c != 0 or v == ""}


def _integral(form: Form) -> dict[str, int]:
    """The same inequality (form ≥ 0) with integer coefficients: scaled by the denominators' least common multiple."""
    scale = math.lcm(*(c.denominator for c in form.values()))
    return {v: int(c * scale) for v, c in form.items()}


def _inequalities(name: str, figure: Reported, beta: Fraction) -> list[dict[str, int]]:
    """``lo·den ≤ num ≤ hi·den`` (and ``den ≥ 1`` unless 0/0, reported as 0, is possible) as integer forms ≥ 0."""
    num, den = _forms(beta)[name]
    out = [_combine(num, Fraction(1), den, -figure.low), _combine(den, figure.high, num, Fraction(-1))]
    if "" not in den and figure.low > 0:
        out.append(_combine(den, Fraction(1), {"": Fraction(-1)}, Fraction(1)))
    return [_integral(f) for f in out]


def _bounds(var: str, fixed: Mapping[str, int], inequalities: list[dict[str, int]]) -> tuple[int, int | None]:
    """The range of ``var`` given the fixed unknowns: exact where it is the only free one, else a projection."""
    low, high = 0, None
    for form in inequalities:
        cx = form.get(var, 0)
        if cx == 0:
            continue
        if any(c > 0 for v, c in form.items() if v != "" and v != var and v not in fixed):
            continue  # a free unknown ≥ 0 with a positive coefficient: no bound on var from this one
        const = form.get("", 0) + sum(c * fixed[v] for v, c in form.items() if v in fixed)
        if cx > 0:
            low = max(low, -(const // cx))  # ⌈−const / cx⌉
        else:
            bound = const // -cx
            high = bound if high is None else min(high, bound)
    return low, high


def _holds(form: dict[str, int], fixed: Mapping[str, int]) -> bool:
    return form.get("", 0) + sum(c * fixed[v] for v, c in form.items() if v != "") >= 0


class _TooMany(Exception):
    pass


@dataclass
class _Search:
    inequalities: list[dict[str, int]]
    keep: int
    tables: list[tuple[int, int, int, int | None]] = field(default_factory=list)
    count: int = 0
    ranges: dict[str, list[int | None]] = field(default_factory=dict)
    tn_open: bool = False  # some table leaves tn undetermined
    unbounded: set[str] = field(default_factory=set)
    work: int = 0

    def run(self, fixed: dict[str, int]) -> None:
        self.work += 1
        if self.work > WORK_LIMIT:
            raise _TooMany
        free = [v for v in _UNKNOWNS if v not in fixed]
        settled = [f for f in self.inequalities if all(v == "" or v in fixed for v in f)]
        if not all(_holds(f, fixed) for f in settled):
            return
        bounds = {v: _bounds(v, fixed, self.inequalities) for v in free}
        if any(hi is not None and lo > hi for lo, hi in bounds.values()):
            return
        finite = [v for v in free if bounds[v][1] is not None]
        if not finite:
            if free == ["tn"]:  # every other count is fixed; nothing pins tn
                self._record(fixed, bounds["tn"][0], None)
            else:
                self.unbounded.update(free)
            return
        var = min(finite, key=lambda v: bounds[v][1] - bounds[v][0])  # type: ignore[operator]
        low, high = bounds[var]
        if len(free) == 1:
            self._record(fixed | {var: low}, low, high, var)
            return
        for value in range(low, high + 1):  # type: ignore[operator]
            self.run(fixed | {var: value})

    def _record(self, fixed: dict[str, int], low: int, high: int | None, var: str = "tn") -> None:
        """Count the tables of ``fixed`` with ``var`` anywhere in [low, high] (``None``: unbounded tn)."""
        if high is None:
            self.tn_open = True
            self.count += 1
            values: list[int | None] = [None]
        else:
            self.count += high - low + 1
            values = list(range(low, min(high, low + self.keep) + 1))
        for v in _UNKNOWNS:
            lo_v, hi_v = (low, high) if v == var else (fixed[v], fixed[v])
            if v not in self.ranges:
                self.ranges[v] = [lo_v, hi_v]
                continue
            now = self.ranges[v]
            now[0] = min(now[0], lo_v)  # type: ignore[type-var]
            now[1] = None if hi_v is None or now[1] is None else max(now[1], hi_v)
        for value in values:
            if len(self.tables) >= self.keep:
                break
            if value is None:  # an unbounded tn: every other count is fixed
                self.tables.append((fixed["tp"], fixed["fp"], fixed["fn"], None))
            else:
                row = fixed | {var: value}
                self.tables.append((row["tp"], row["fp"], row["fn"], row.get("tn")))


@dataclass(frozen=True)
class BinaryTable:
    """One consistent table, with every quantity it implies (``tn`` ``None``: not determined)."""

    tp: int
    fp: int
    fn: int
    tn: int | None
    beta: float = 1.0

    def quantities(self) -> dict[str, float | int | None]:
        """Every quantity of :data:`QUANTITIES` (``None`` when undefined, 0/0, or needing an unknown tn)."""
        tp, fp, fn, tn = self.tp, self.fp, self.fn, self.tn
        b2 = self.beta**2

        def div(a: float, b: float) -> float | None:
            return a / b if b else None

        n = None if tn is None else tp + fp + fn + tn
        return {
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "tn": tn,
            "n": n,
            "support": tp + fn,
            "predicted": tp + fp,
            "precision": div(tp, tp + fp),
            "recall": div(tp, tp + fn),
            "f": div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
            "accuracy": None if n is None else div(tp + tn, n),  # type: ignore[operator]
            "specificity": None if tn is None else div(tn, tn + fp),
            "prevalence": None if n is None else div(tp + fn, n),
        }


@dataclass(frozen=True, repr=False)
class Conversion(Result):
    """What the converter found: every consistent table (up to ``limit`` listed), how many, and their ranges.

    Attributes
    ----------
    given
        Quantity → the figure as reported.
    status
        ``unique``, ``several``, ``none`` (inconsistent), ``insufficient`` or ``too many``.
    count
        How many integer tables fit (tables whose tn is undetermined count once).
    tables
        The first ``limit`` tables, in (tp, fn, fp, tn) order.
    ranges
        Each count's smallest and largest value over every table (``None``: unbounded).
    messages
        What settles an undetermined answer, or which figures disagree.
    """

    kind: ClassVar[str] = "convert"
    formats: ClassVar[tuple[str, ...]] = TEXT_FORMATS
    report_builder: ClassVar[str] = "clfeval.report.conversion:conversion_report"

    given: Mapping[str, Reported]
    beta: float
    status: str
    count: int
    tables: tuple[BinaryTable, ...]
    ranges: Mapping[str, tuple[int | None, int | None]]
    messages: tuple[str, ...]
    limit: int

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The ``clfeval.convert/1`` JSON contract."""
        from clfeval._version import __version__

        return json_safe(
            {
                "schema": "clfeval.convert/1",
                "clfeval_version": __version__,
                "beta": self.beta,
                "given": {
                    k: {
                        "reported": v.text,
                        "value": float(v.value),
                        "decimals": v.decimals,
                        "interval": [float(v.low), float(v.high)],
                    }
                    for k, v in self.given.items()
                },
                "status": self.status,
                "count": self.count,
                "listed": len(self.tables),
                "limit": self.limit,
                "ranges": {k: list(v) for k, v in self.ranges.items()},
                "tables": [t.quantities() for t in self.tables],
                "messages": list(self.messages),
            }
        )


def _solve(given: Mapping[str, Reported], beta: Fraction, keep: int) -> _Search:
    inequalities = [f for name, fig in given.items() for f in _inequalities(name, fig, beta)]
    search = _Search(inequalities, keep)
    search.run({})
    return search


def _settles(unknowns: set[str]) -> str:
    if unknowns <= {"tn"}:
        return ""
    return (
        "tp, fp and fn are not bounded by these figures (ratios fix proportions only): give a count — n, "
        "support, predicted, tp, fp or fn"
    )


def convert(beta: float = 1.0, limit: int = 100, **figures: str | float | int | Reported | None) -> Conversion:
    """Every binary table (tp, fp, fn, tn) consistent with reported figures, rounded as reported.

    Parameters
    ----------
    beta
        β of the reported F (``f``).
    limit
        How many tables to list; all are counted, and their ranges given.
    **figures
        Any of :data:`QUANTITIES`: counts as integers, ratios as numbers or text (``"0.75"``,
        ``"75%"``) or :class:`Reported` (to state the decimals). ``None`` is left out.

    Returns
    -------
    Conversion
        ``status`` says whether the answer is unique, several, none (with the figures that
        disagree), insufficient (with the quantity that would settle it) or too many to enumerate.

    Examples
    --------
    >>> r = convert(precision="0.75", recall="0.6", support=50, n=100)
    >>> r.status, [(t.tp, t.fp, t.fn, t.tn) for t in r.tables]
    ('unique', [(30, 10, 20, 40)])
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise OptionError(f"limit must be a whole number ≥ 0 (how many tables to list; all are counted), not {limit!r}")
    given: dict[str, Reported] = {}
    for name, value in figures.items():
        if value is None:
            continue
        if name not in QUANTITIES:
            raise unknown_name("quantity", name, QUANTITIES)
        given[name] = value if isinstance(value, Reported) else reported(value, count=name in COUNT_QUANTITIES)
    if not given:
        raise OptionError("give at least one reported figure (e.g. precision, recall and support)")
    if not (beta > 0 and math.isfinite(beta)):
        raise OptionError(f"beta must be a positive number, not {beta}")
    b = Fraction(beta).limit_denominator(10**6)
    try:
        search = _solve(given, b, limit)
    except _TooMany:
        return Conversion(
            given,
            beta,
            "too many",
            0,
            (),
            {},
            (
                f"more than {WORK_LIMIT:,} partial tables to try: give more figures (n, support or predicted narrow it "
                "most), or more decimals",
            ),
            limit,
        )
    tables = tuple(BinaryTable(*t, beta=beta) for t in search.tables)
    ranges = {k: (v[0], v[1]) for k, v in search.ranges.items()}
    messages: list[str] = []
    if search.unbounded and not search.count:
        status = "insufficient"
        messages.append(_settles(search.unbounded))
    elif search.count == 0:
        status = "none"
        messages.extend(_disagreements(given, b))
    else:
        status = "unique" if search.count == 1 else "several"  # unique: one table, its tn perhaps undetermined
        if search.unbounded:
            messages.append(_settles(search.unbounded))
        if search.tn_open:
            messages.append("tn is not determined: give n, tn, accuracy, specificity or prevalence")
        if search.count > len(tables):
            messages.append(f"{search.count:,} tables fit; the first {len(tables)} are listed, and every count's range")
    return Conversion(given, beta, status, search.count, tables, ranges, tuple(messages), limit)


def _fits(given: Mapping[str, Reported], beta: Fraction, *, unbounded_fits: bool = True) -> bool:
    """Whether some table fits; an unbounded search (proportions only) fits when ``unbounded_fits``."""
    try:
        search = _solve(given, beta, 1)
    except _TooMany:
        return True
    return search.count > 0 or (unbounded_fits and bool(search.unbounded))


def _disagreements(given: Mapping[str, Reported], beta: Fraction) -> list[str]:
    """Which figures disagree: pairs that no table satisfies on their own, else the figures whose removal helps."""
    pairs = [(a, b) for a, b in itertools.combinations(given, 2) if not _fits({a: given[a], b: given[b]}, beta)]
    if pairs:
        return [f"{a} = {given[a].text} and {b} = {given[b].text} disagree: no table has both" for a, b in pairs]
    culprits = [a for a in given if _fits({k: v for k, v in given.items() if k != a}, beta, unbounded_fits=False)]
    if culprits:
        return [
            "no table fits all the figures together, though every two of them fit; the rest fit without "
            + " or without ".join(f"{a} = {given[a].text}" for a in culprits)
        ]
    return ["no table fits the figures together, though every two of them fit: check the figures"]


#: Combinations of per-label tables tried when each label has several (beyond: per-label ranges only).
COMBINATION_LIMIT = 100_000


@dataclass(frozen=True, repr=False)
class LabelConversion(Result):
    """Per-label reported figures back into tp, fp, fn, and every average the tables allow.

    Attributes
    ----------
    labels
        Label → its :class:`Conversion`.
    n
        Instances (the sum of the supports unless given).
    combinations
        How many combinations of per-label tables fit together (single-label data: Σ fp = Σ fn, and Σ tp + Σ fp = n).
    averages
        Average name → measure → (lowest, highest) over the fitting combinations; equal bounds: determined.
    messages
        What is undetermined or inconsistent.
    """

    kind: ClassVar[str] = "convert"
    formats: ClassVar[tuple[str, ...]] = TEXT_FORMATS
    report_builder: ClassVar[str] = "clfeval.report.conversion:label_conversion_report"

    labels: Mapping[str, Conversion]
    n: int
    beta: float
    combinations: int
    averages: Mapping[str, Mapping[str, tuple[float, float]]]
    messages: tuple[str, ...]

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The ``clfeval.convert/1`` JSON contract, multi-class form."""
        from clfeval._version import __version__

        return json_safe(
            {
                "schema": "clfeval.convert/1",
                "clfeval_version": __version__,
                "beta": self.beta,
                "n": self.n,
                "labels": {
                    k: {key: v for key, v in c.to_dict().items() if key not in ("schema", "clfeval_version")}
                    for k, c in self.labels.items()
                },
                "combinations": self.combinations,
                "averages": {
                    k: {m: list(b) if b is not None else None for m, b in v.items()} for k, v in self.averages.items()
                },
                "messages": list(self.messages),
            }
        )


#: The averages a per-label table determines (lfb with test frequencies is ``weighted``; samples needs instances).
_LABEL_AVERAGES = ("micro", "macro", "macro_fa", "weighted")


def average_values(
    labels: tuple[str, ...], options: list[list[BinaryTable]], n: int, beta: float, single_label: bool
) -> dict[str, dict[str, np.ndarray]]:
    """Every combination of per-label tables, scored at once by the scorer's own averages (0/0 → 0).

    Returns average name → measure → one value per fitting combination (single-label: Σ fp = Σ fn
    and Σ tp + Σ fp = n); empty when none fits.
    """
    choice = np.array(list(itertools.product(*(range(len(o)) for o in options))), dtype=np.intp)
    tp, fp, fn = (
        np.stack(
            [np.array([getattr(t, a) for t in o], dtype=np.int64)[choice[:, j]] for j, o in enumerate(options)], axis=1
        )
        for a in ("tp", "fp", "fn")
    )
    if single_label:
        keep = (fp.sum(axis=1) == fn.sum(axis=1)) & ((tp + fp).sum(axis=1) == n)
        tp, fp, fn = tp[keep], fp[keep], fn[keep]
    if not len(tp):
        return {}
    counts = LabelCounts(labels, tp, fp, fn, n - tp - fp - fn, n)
    averages = average_measures(per_label_measures(counts, beta), beta=beta)
    return {name: dict(averages[name]) for name in _LABEL_AVERAGES}


def _average_bounds(
    values: Mapping[str, Mapping[str, np.ndarray]],
) -> tuple[int, dict[str, dict[str, tuple[float, float]]]]:
    """How many combinations fit, and each average's (lowest, highest) value over them."""
    if not values:
        return 0, {}
    count = len(next(iter(values["micro"].values())))
    return count, {name: {m: (float(v.min()), float(v.max())) for m, v in by.items()} for name, by in values.items()}


def convert_labels(
    rows: Mapping[str, Mapping[str, str | float | int | Reported | None]],
    *,
    n: int | None = None,
    beta: float = 1.0,
    single_label: bool = True,
    limit: int = 100,
) -> LabelConversion:
    """Per-label reported figures (precision, recall, F and support, or any of :data:`QUANTITIES`) back into counts.

    Each label is solved as a binary table with n instances (default: the sum of the supports);
    with ``single_label`` the combinations must also satisfy Σ fp = Σ fn and Σ tp + Σ fp = n
    (every error is a false positive of one label and a false negative of another). Every average
    is given as its (lowest, highest) value over the fitting combinations.

    Examples
    --------
    >>> r = convert_labels({"A": {"precision": "0.8", "recall": "0.667", "support": 6},
    ...                     "B": {"precision": "0.6", "recall": "0.75", "support": 4}})
    >>> [(c.tables[0].tp, c.tables[0].fp, c.tables[0].fn) for c in r.labels.values()], r.averages["micro"]["f"]
    ([(4, 1, 2), (3, 2, 1)], (0.7, 0.7))
    """
    if not rows:
        raise OptionError("give at least one label's figures")
    supports = [row.get("support") for row in rows.values()]
    if n is None:
        if any(s is None for s in supports):
            raise OptionError("give every label's support, or n")
        n = sum(reported(s, count=True).value for s in supports)  # type: ignore[arg-type, misc]
    conversions = {label: convert(beta=beta, limit=limit, n=n, **dict(row)) for label, row in rows.items()}
    messages = [
        f"{label}: {m}"
        for label, c in conversions.items()
        for m in c.messages
        if not m.startswith(("tn is not determined",))
    ]
    options = [[BinaryTable(t.tp, t.fp, t.fn, t.tn, beta) for t in c.tables] for c in conversions.values()]
    if any(c.count > len(c.tables) for c in conversions.values()):
        messages.append(f"a label has more than {limit} tables: the averages range over the {limit} listed")
    size = math.prod(len(o) for o in options)
    combinations = 0
    averages: dict[str, dict[str, tuple[float, float]]] = {}
    if size and size <= COMBINATION_LIMIT:
        values = average_values(tuple(conversions), options, int(n), beta, single_label)
        combinations, averages = _average_bounds(values)
        if combinations == 0:
            messages.append(
                "no combination of the per-label tables is a single-label table (Σ fp = Σ fn and "
                "Σ tp + Σ fp = n): the figures are not from one single-label confusion matrix"
                if single_label
                else "no label has a consistent table"
            )
    elif size:
        messages.append(
            f"{size:,} combinations of per-label tables: too many to range the averages over; give more "
            "decimals or counts"
        )
    return LabelConversion(conversions, int(n), beta, combinations, averages, tuple(messages))
