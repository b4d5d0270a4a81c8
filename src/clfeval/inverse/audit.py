"""Which average did a paper report? Each reported averaged figure tested against every formula, within rounding.

Opitz & Burst found a paper whose "macro F1" was not the mean of its per-class F1 scores: there
are two macro F1 formulas, AF (``macro``: the mean of per-label F) and FA (``macro_fa``: the F of
macro precision and macro recall), and FA ≥ AF. A reported table (per-label precision, recall, F
and perhaps support, plus averaged rows) is audited here:

* every figure stands for an interval — reported to d decimals, the true value lies within
  ±½·10⁻ᵈ — so each formula is evaluated in exact interval arithmetic over the per-label
  intervals (every formula is monotone in each per-label value):

  - ``macro``      [mean(lowᵢ), mean(highᵢ)]
  - ``macro_fa``   F = Fβ(macro P, macro R), Fβ(p, r) = (1+β²)pr/(β²p + r), increasing in p and r
  - ``weighted``   Σ sᵢxᵢ / Σ sᵢ with the supports sᵢ
  - ``lfb``        Σ fᵢxᵢ / Σ fᵢ with training frequencies fᵢ
  - ``micro``      single-label: P = R = F = accuracy = Σ tpᵢ / N; multi-label: the measure on Σ tp, Σ fp,
    Σ fn — with each label's tp, fp, fn bounded by :func:`~clfeval.inverse.conversion.convert`

  and a formula *matches* when its interval meets the reported one;
* when supports are given and few integer tables fit each label, every combination of per-label
  tables is scored exactly (single-label: Σ fp = Σ fn, Σ tp + Σ fp = N), and a formula matches
  only if some combination lands inside the reported interval;
* without per-label rows an averaged row can still be judged by its own P, R and F: every
  weighted mean of per-label F is at most Fβ of the same means of P and R (Fβ is concave), so
  F below Fβ(P, R) rules out FA (and micro, where F = Fβ(P, R)), and F above it rules out all;
* per-label rows whose F is not Fβ of their own P and R are flagged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from clfeval.count.frequencies import LabelFrequencies
from clfeval.errors import InputError, OptionError
from clfeval.inverse.conversion import BinaryTable, Reported, average_values, convert, reported
from clfeval.inverse.papers import AVERAGE_ROWS, FigureTable
from clfeval.result import TEXT_FORMATS, Result, json_safe
from clfeval.scoring.ratios import f_key, f_title

__all__ = ["AUDIT_SCHEMA", "CANDIDATES", "Audit", "AverageAudit", "LabelAudit", "audit", "audit_table"]

AUDIT_SCHEMA = "clfeval.audit/1"
#: The formulas a reported average is tested against (names as in ``clfeval score``'s JSON).
CANDIDATES: Mapping[str, str] = {
    "macro": "mean of per-label scores (AF for F)",
    "macro_fa": "F of macro precision and macro recall (FA); its precision and recall are macro's",
    "weighted": "mean of per-label scores weighted by gold support",
    "lfb": "mean of per-label scores weighted by training label frequency",
    "micro": "the measure on tp, fp, fn summed over labels (single-label: accuracy)",
}
_DESCRIBED = {
    "macro": "macro (AF for F): the mean of per-label {m}",
    "macro_fa": "FA (macro_fa): the {m} of macro precision and macro recall",
    "weighted": "weighted: the support-weighted mean of per-label {m}",
    "lfb": "lfb: the training-frequency-weighted mean of per-label {m}",
    "micro": "micro: {m} of tp, fp, fn summed over labels",
}
#: Tables per label enumerated for the exact check; beyond, interval arithmetic alone decides.
EXACT_TABLES = 2_000
#: Combinations of per-label tables scored for the exact check.
EXACT_COMBINATIONS = 100_000
_MEASURES = ("precision", "recall", "f")
_TOLERANCE = 1e-12  # float scores of exact integer tables against exact interval ends

Span = tuple[Fraction, Fraction]


def _span(figure: Reported) -> Span:
    return max(Fraction(0), figure.low), min(Fraction(1), figure.high)


def _f_of(p: Span, r: Span, b2: Fraction) -> Span:
    """Fβ of precision and recall intervals: Fβ is increasing in both, so the ends map to the ends."""

    def f(x: Fraction, y: Fraction) -> Fraction:
        den = b2 * x + y
        return (1 + b2) * x * y / den if den else Fraction(0)

    return f(p[0], r[0]), f(p[1], r[1])


def _mean(spans: Sequence[Span], weights: Sequence[Fraction]) -> Span | None:
    total = sum(weights, Fraction(0))
    if total == 0:
        return None
    return (
        sum((w * s[0] for s, w in zip(spans, weights)), Fraction(0)) / total,
        sum((w * s[1] for s, w in zip(spans, weights)), Fraction(0)) / total,
    )


def _meets(a: Span, b: Span, *, inclusive: bool = False) -> bool:
    """Whether two intervals share a value.

    A formula's range built from rounded per-label figures reaches its end only when every label
    sits exactly on its own rounding tie, so two such ranges that only touch at an end do not
    meet: a figure printed 0.40 and a mean of figures printed 0.40 cannot be 0.41. Ranges whose
    ends are values the counts really take (micro's Σ tp / N, a single point) are compared
    ``inclusive``-ly: a true 0.25 may be printed 0.2 (half to even) or 0.3 (half up).
    """
    if inclusive or a[0] == a[1] or b[0] == b[1]:
        return a[0] <= b[1] and b[0] <= a[1]
    return a[0] < b[1] and b[0] < a[1]


def _ratio(num: int, den: int) -> Fraction:
    return Fraction(num, den) if den else Fraction(0)


@dataclass(frozen=True)
class LabelAudit:
    """One per-label row: its figures, the Fβ of its P and R, flags, and its counts' ranges (supports given).

    ``counts`` maps tp, fp, fn (and tn, single-label) to their (lowest, highest) over every integer
    table that fits the row's figures; ``tables`` is how many fit (``None``: not solved).
    """

    label: str
    line: int
    given: Mapping[str, Reported]
    harmonic: Span | None
    flags: tuple[str, ...]
    counts: Mapping[str, tuple[int | None, int | None]] | None
    tables: int | None


@dataclass(frozen=True)
class AverageAudit:
    """One reported averaged figure and what reproduces it.

    Attributes
    ----------
    row, line
        The row's label as written, and its line in the file.
    metric
        ``precision``, ``recall``, ``f`` or ``accuracy``.
    figure
        The reported figure (value, decimals, interval).
    claimed
        The average the row's name claims (``macro``, ``micro``, ``weighted`` …), or ``None``.
    candidates
        Formula → the interval it gives for this metric (exact combinations narrow it when available).
    matches
        The formulas that reproduce the figure within rounding.
    ruled_out
        Formulas shown not to: computed and missed, or excluded by the row's own P, R and F.
    unavailable
        Formula → why it could not be computed (no supports, no training frequencies …).
    without
        (label, formulas): a formula that reproduces the figure once that one label is left out.
    verdict
        One sentence.
    own_f
        Fβ of the row's own precision and recall (F rows that give both), as rounded.
    """

    row: str
    line: int
    metric: str
    figure: Reported
    claimed: str | None
    candidates: Mapping[str, Span]
    matches: tuple[str, ...]
    ruled_out: tuple[str, ...]
    unavailable: Mapping[str, str]
    without: tuple[tuple[str, tuple[str, ...]], ...]
    verdict: str
    own_f: Span | None = None


@dataclass(frozen=True, repr=False)
class Audit(Result):
    """What an audit found: a verdict per reported average, flags per label row, bounds on the counts."""

    kind: ClassVar[str] = "audit"
    formats: ClassVar[tuple[str, ...]] = TEXT_FORMATS
    report_builder: ClassVar[str] = "clfeval.report.audit:audit_report"

    source: str | None
    beta: float
    single_label: bool
    decimals: int | None
    frequencies: str | None
    labels: tuple[LabelAudit, ...]
    rows: tuple[AverageAudit, ...]
    combinations: int | None
    messages: tuple[str, ...] = field(default=())

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The ``clfeval.audit/1`` JSON contract."""
        from clfeval._version import __version__

        def span(s: Span | None) -> list[float] | None:
            return None if s is None else [float(s[0]), float(s[1])]

        def metric(name: str) -> str:
            return f_key(self.beta) if name == "f" else name

        return json_safe(
            {
                "schema": AUDIT_SCHEMA,
                "clfeval_version": __version__,
                "source": self.source,
                "beta": self.beta,
                "single_label": self.single_label,
                "decimals": self.decimals,
                "frequencies": self.frequencies,
                "rows": [
                    {
                        "label": r.row,
                        "line": r.line,
                        "metric": metric(r.metric),
                        "reported": float(r.figure.value),
                        "reported_text": r.figure.text,
                        "decimals": r.figure.decimals,
                        "interval": span(_span(r.figure)),
                        "claimed": r.claimed,
                        "matches": list(r.matches),
                        "ruled_out": list(r.ruled_out),
                        "candidates": {k: span(v) for k, v in r.candidates.items()},
                        "unavailable": dict(r.unavailable),
                        "without": [{"label": lab, "matches": list(m)} for lab, m in r.without],
                        f"{metric('f')}_of_precision_recall": span(r.own_f),
                        "verdict": r.verdict,
                    }
                    for r in self.rows
                ],
                "labels": [
                    {
                        "label": a.label,
                        "line": a.line,
                        "given": {metric(k): v.text for k, v in a.given.items()},
                        f"{metric('f')}_of_precision_recall": span(a.harmonic),
                        "flags": list(a.flags),
                        "counts": None if a.counts is None else {k: list(v) for k, v in a.counts.items()},
                        "tables": a.tables,
                    }
                    for a in self.labels
                ],
                "exact": None if self.combinations is None else {"combinations": self.combinations},
                "messages": list(self.messages),
            }
        )


def _figures(row: Mapping[str, Any], decimals: int | None) -> dict[str, Reported]:
    out = {}
    for key, value in row.items():
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        name = {"f1": "f", "f-score": "f"}.get(key, key)
        if name not in ("precision", "recall", "f", "support", "accuracy"):
            raise OptionError(f"unknown figure {key!r}: expected precision, recall, f1, support or accuracy")
        out[name] = (
            value
            if isinstance(value, Reported)
            else reported(value, None if name == "support" else decimals, count=name == "support")
        )
    return out


@dataclass
class _Labels:
    """Per-label spans and counts, shared by every averaged row's candidates."""

    names: list[str]
    spans: dict[str, dict[str, Span]]
    supports: dict[str, int] | None
    weights: dict[str, Fraction] | None
    totals: dict[str, tuple[int | None, int | None]] | None  # Σ tp, Σ fp, Σ fn ranges (micro)
    n: int | None
    exact: dict[str, dict[str, Any]] | None  # average → measure → values over exact combinations


def _label_spans(given: Mapping[str, Reported], b2: Fraction) -> tuple[dict[str, Span], Span | None]:
    spans = {m: _span(given[m]) for m in _MEASURES if m in given}
    harmonic = _f_of(spans["precision"], spans["recall"], b2) if "precision" in spans and "recall" in spans else None
    if "f" not in spans and harmonic is not None:
        spans["f"] = harmonic
    return spans, harmonic


def _solve_label(given: Mapping[str, Reported], n: int | None, beta: float) -> tuple[Any, list[str]]:
    figures = {m: given[m] for m in ("precision", "recall", "f", "support") if m in given}
    result = convert(beta=beta, limit=EXACT_TABLES, n=n, **figures)
    if result.status == "none":
        return result, ["no integer table has these figures: " + "; ".join(result.messages)]
    return result, []


def _micro_spans(
    totals: Mapping[str, tuple[int | None, int | None]], n: int | None, single_label: bool, b2: Fraction
) -> dict[str, Span]:
    (tp_lo, tp_hi), (fp_lo, fp_hi), (fn_lo, fn_hi) = totals["tp"], totals["fp"], totals["fn"]
    if tp_lo is None or tp_hi is None:
        return {}
    if single_label and n:
        acc = (Fraction(tp_lo, n), Fraction(tp_hi, n))
        return {"precision": acc, "recall": acc, "f": acc, "accuracy": acc}
    out = {}
    if fp_lo is not None and fp_hi is not None:
        out["precision"] = (_ratio(tp_lo, tp_lo + fp_hi), _ratio(tp_hi, tp_hi + fp_lo))
    if fn_lo is not None and fn_hi is not None:
        out["recall"] = (_ratio(tp_lo, tp_lo + fn_hi), _ratio(tp_hi, tp_hi + fn_lo))
        if fp_lo is not None and fp_hi is not None:

            def f(tp: int, fp: int, fn: int) -> Fraction:
                den = (1 + b2) * tp + b2 * fn + fp
                return (1 + b2) * tp / den if den else Fraction(0)

            out["f"] = (f(tp_lo, fp_hi, fn_hi), f(tp_hi, fp_lo, fn_lo))
    return out


def _candidates(
    metric: str, names: Sequence[str], data: _Labels, b2: Fraction, single_label: bool
) -> tuple[dict[str, Span], dict[str, str]]:
    """Each formula's interval for ``metric`` over the labels ``names`` (or why it cannot be computed)."""
    spans: dict[str, Span] = {}
    missing: dict[str, str] = {}
    if metric == "accuracy":
        if not single_label:
            return {}, {"micro": "accuracy is micro only for single-label data"}
        micro = _micro_spans(data.totals, data.n, True, b2) if data.totals else {}
        if "accuracy" in micro:
            spans["micro"] = micro["accuracy"]
        else:
            missing["micro"] = "needs every label's support (and figures that bound its tp)"
        return spans, missing
    if not names:
        return {}, dict.fromkeys(CANDIDATES, "needs per-label rows")
    ones = [Fraction(1)] * len(names)

    def per_label(m: str) -> list[Span] | None:
        got = [data.spans[k].get(m) for k in names]
        return None if any(s is None for s in got) else got  # type: ignore[return-value]

    values = per_label(metric)
    need = {"precision": "precision", "recall": "recall", "f": "F (or precision and recall)"}[metric]
    if values is None:
        missing["macro"] = f"needs every label's {need}"
    else:
        spans["macro"] = _mean(values, ones)  # type: ignore[assignment]
    if metric == "f":
        p, r = per_label("precision"), per_label("recall")
        if p is None or r is None:
            missing["macro_fa"] = "needs every label's precision and recall"
        else:
            spans["macro_fa"] = _f_of(_mean(p, ones), _mean(r, ones), b2)  # type: ignore[arg-type]
    for name, weights, why in (
        ("weighted", data.supports, "needs every label's support"),
        ("lfb", data.weights, "needs training frequencies (--train)"),
    ):
        if weights is None:
            missing[name] = why
        elif values is not None:
            mean = _mean(values, [Fraction(weights[k]) for k in names])
            if mean is None:
                missing[name] = "the weights are all zero"
            else:
                spans[name] = mean
    if len(names) == len(data.names):
        micro = _micro_spans(data.totals, data.n, single_label, b2) if data.totals else {}
        if metric in micro:
            spans["micro"] = micro[metric]
        else:
            missing["micro"] = "needs every label's support (and figures that bound its counts)"
    return spans, missing


def _internal(
    figures: Mapping[str, Reported], metric: str, b2: Fraction, single_label: bool
) -> tuple[set[str], str | None, Span | None]:
    """What the row's own P, R and F rule out (each assumed an average of the same kind), how F relates to
    Fβ(P, R) (``equal``, ``below``, ``above``) and Fβ(P, R) itself."""
    out: set[str] = set()
    relation, h = None, None
    if "precision" in figures and "recall" in figures:
        p, r = _span(figures["precision"]), _span(figures["recall"])
        if single_label and not _meets(p, r) and metric in _MEASURES:
            out.add("micro")  # single-label micro P = micro R
        if metric == "f" and "f" in figures:
            h, f = _f_of(p, r, b2), _span(figures["f"])
            if _meets(h, f):
                relation = "equal"
            elif f[1] < h[0]:
                relation = "below"
                out |= {"macro_fa", "micro"}
            else:
                relation = "above"
                out |= set(CANDIDATES)
    return out, relation, h


def _range(s: Span, like: Reported | None = None) -> str:
    """A range shown with one decimal more than ``like`` (a percentage if it is one), else 4 decimals."""
    digits = 4 if like is None or like.decimals is None else like.decimals + 1
    if like is not None and like.text.endswith("%"):
        lo, hi = (f"{100 * float(x):.{max(digits - 2, 0)}f}%" for x in s)
    else:
        lo, hi = (f"{float(x):.{digits}f}" for x in s)
    return lo if lo == hi else f"{lo}–{hi}"


def _names(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(
    row: str,
    metric_name: str,
    figure: Reported,
    claimed: str | None,
    candidates: Mapping[str, Span],
    matches: Sequence[str],
    without: Sequence[tuple[str, Sequence[str]]],
    relation: str | None,
    equal_supports: bool,
    fa_name: str,
    micro_out: bool,
    own: Span | None,
) -> str:
    what = f"{row} {figure.text}" if metric_name.lower() in row.lower() else f"{row} {metric_name} {figure.text}"
    if matches:
        said = (
            f"{what} is {_DESCRIBED[matches[0]].format(m=metric_name)}"
            if len(matches) == 1
            else f"{what} is reproduced by {_names(matches)} alike at this rounding"
        )
        if equal_supports and {"macro", "weighted"} <= set(matches):
            said += " (the supports are equal, so weighted = macro)"
        family = {"macro_fa": "macro"}
        if claimed and claimed in CANDIDATES and not any(family.get(m, m) == claimed for m in matches):
            said += (
                f"; the row is named {claimed}, but {claimed} gives {_range(candidates[claimed], figure)}"
                if claimed in candidates
                else f"; the row is named {claimed}, which is not among them"
            )
        return said
    if candidates:
        said = (
            f"{what}: no formula reproduces it ("
            + "; ".join(f"{k} gives {_range(v, figure)}" for k, v in candidates.items())
            + ")"
        )
        if without:
            said += "; " + "; ".join(f"{_names(list(m))} without {lab!r} does" for lab, m in without)
        return said
    own_f = f" ({_range(own, figure)})" if own else ""
    if relation == "below":
        return (
            f"{what} is below the {fa_name} of the row's own precision and recall{own_f}: a mean of per-label "
            f"{fa_name} (macro AF, weighted or lfb), not FA (macro_fa) or micro"
        )
    if relation == "equal":
        return (
            f"{what} equals the {fa_name} of the row's own precision and recall{own_f}, as FA (macro_fa) and micro "
            "do; AF gives this only when every label's precision equals its recall"
        )
    if relation == "above":
        return (
            f"{what} is above the {fa_name} of the row's own precision and recall{own_f}: no average does that "
            f"(every "
            f"mean of per-label {fa_name} is at most the {fa_name} of the same means of precision and recall)"
        )
    return f"{what}: nothing to check it against (give per-label rows, or the row's precision, recall and F)" + (
        "; not single-label micro, whose precision and recall are equal" if micro_out else ""
    )


def _exact(data: _Labels, solved: Mapping[str, Any], beta: float, single_label: bool) -> tuple[int | None, str | None]:
    """Score every combination of per-label tables when all are enumerated and few enough."""
    if (
        not single_label
        or data.n is None
        or not solved
        or len(solved) != len(data.names)
        or any(c is None or c.count != len(c.tables) or not c.tables for c in solved.values())
    ):
        return None, None
    if math.prod(len(c.tables) for c in solved.values()) > EXACT_COMBINATIONS:
        return None, None
    options = [[BinaryTable(t.tp, t.fp, t.fn, t.tn, beta) for t in c.tables] for c in solved.values()]
    values = average_values(tuple(solved), options, data.n, beta, single_label)
    if not values:
        return 0, (
            "no combination of the per-label tables is one single-label confusion matrix (Σ fp = Σ fn, "
            "Σ tp + Σ fp = N): the figures are not from one matrix"
        )
    data.exact = values
    return len(next(iter(values["micro"].values()))), None


def audit(
    labels: Mapping[str, Mapping[str, Any]],
    averages: Mapping[str, Mapping[str, Any]]
    | Sequence[tuple[str, Mapping[str, Any]] | tuple[str, Mapping[str, Any], int]],
    *,
    beta: float = 1.0,
    decimals: int | None = None,
    train: LabelFrequencies | Mapping[str, float] | None = None,
    single_label: bool = True,
    train_source: str | None = None,
    source: str | None = None,
    lines: Mapping[str, int] | None = None,
) -> Audit:
    """Decide which formula reproduces each reported average, within the table's rounding.

    Parameters
    ----------
    labels
        Label → its figures: any of ``precision``, ``recall``, ``f`` (or ``f1``), ``support``;
        ratios as text (``"0.75"``, ``"75%"``: the decimals are read from the text) or numbers.
    averages
        Row name → its figures (``precision``, ``recall``, ``f``; ``accuracy``), or (name, figures) or
        (name, figures, line) tuples (names may repeat).
    beta
        β of the reported F.
    decimals
        The decimals every ratio was rounded to (default: as written; ``0.4`` printed for 0.40 says 1).
    train
        Training label frequencies for ``lfb`` (counts or relative; normalised over the table's labels).
    single_label
        Single-label data: micro P = R = F = accuracy = Σ tp / N, N = Σ supports.
    train_source, source, lines
        Provenance for the output: where the frequencies and the table came from, label → line.

    Examples
    --------
    Opitz & Burst's Table 3 (per-label P, R, F to two decimals): its 0.47 is FA, its 0.36 is AF.

    >>> rows = {"A": {"precision": "0.67", "recall": "0.20", "f1": "0.31"},
    ...         "B": {"precision": "0.33", "recall": "0.80", "f1": "0.47"},
    ...         "C": {"precision": "0.67", "recall": "0.20", "f1": "0.31"}}
    >>> result = audit(rows, [("macro", {"f1": "0.36"}), ("macro", {"f1": "0.47"})])
    >>> [r.matches for r in result.rows]
    [('macro',), ('macro_fa',)]
    """
    if not (beta > 0 and math.isfinite(beta)):
        raise OptionError(f"beta must be a positive number, not {beta}")
    if decimals is not None and decimals < 0:
        raise OptionError(f"decimals must be 0 or more, not {decimals}")
    b = Fraction(beta).limit_denominator(10**6)
    b2 = b * b
    lines = lines or {}
    given = {str(k): _figures(v, decimals) for k, v in labels.items()}
    pairs = [
        (p[0], p[1], p[2] if len(p) > 2 else 0)
        for p in (averages.items() if isinstance(averages, Mapping) else averages)
    ]
    if not pairs:
        raise OptionError("the table has no averaged rows (macro, micro, weighted, average …) to audit")
    messages: list[str] = []
    spans, audits = {}, []
    supports = {k: int(g["support"].value) for k, g in given.items() if "support" in g}
    all_supports = bool(given) and len(supports) == len(given)
    n = sum(supports.values()) if all_supports and single_label else None
    solved: dict[str, Any] = {}
    for label, figures in given.items():
        spans[label], harmonic = _label_spans(figures, b2)
        flags = []
        if harmonic is not None and "f" in figures and not _meets(harmonic, _span(figures["f"])):
            shown = _range(harmonic, figures["f"])
            flags.append(f"F {figures['f'].text} is not the F of its precision and recall ({shown})")
        counts, tables = None, None
        if "support" in figures and len(figures) > 1:
            result, problems = _solve_label(figures, n, beta)
            flags += problems
            if result.status in ("unique", "several"):
                counts, tables = dict(result.ranges), result.count
                solved[label] = result
            else:
                solved[label] = None
        audits.append(LabelAudit(label, lines.get(label, 0), figures, harmonic, tuple(flags), counts, tables))
    totals = None
    if all_supports and solved and all(c is not None for c in solved.values()) and len(solved) == len(given):
        totals = {
            k: (
                sum(c.ranges[k][0] for c in solved.values()),
                None
                if any(c.ranges[k][1] is None for c in solved.values())
                else sum(c.ranges[k][1] for c in solved.values()),
            )
            for k in ("tp", "fp", "fn")
        }
    weights = frequencies = None
    if train is not None:
        counts_of = train.counts if isinstance(train, LabelFrequencies) else train
        weights = {k: Fraction(counts_of.get(k, 0)).limit_denominator(10**9) for k in given}
        absent = sorted(k for k in counts_of if k not in given)  # one order, whatever the reader's
        frequencies = train_source or "given"
        if absent:
            messages.append(
                f"lfb is over the table's labels; training labels not in the table: {_names(absent[:5])}"
                + (" …" if len(absent) > 5 else "")
            )
    data = _Labels(list(given), spans, supports if all_supports else None, weights, totals, n, None)
    combinations, problem = _exact(data, solved, beta, single_label) if all_supports else (None, None)
    if problem:
        messages.append(problem)
    equal_supports = all_supports and len(set(supports.values())) == 1
    rows = []
    for row, raw, row_line in pairs:
        figures = _figures(raw, decimals)
        claimed = AVERAGE_ROWS.get(" ".join(row.strip().lower().split()))
        if claimed == "accuracy" and "accuracy" not in figures:  # classification_report puts it under f1-score
            values = [v for k, v in figures.items() if k != "support"]
            figures = {"accuracy": values[0]} if values else {}
        for metric in ("precision", "recall", "f", "accuracy"):
            if metric not in figures:
                continue
            figure = figures[metric]
            target = _span(figure)
            candidates, unavailable = _candidates(metric, data.names, data, b2, single_label)
            known = data.exact or {}
            exact = {k for k in candidates if k in known}
            for name in exact:  # the range over exact combinations (shown); a match needs one of them inside
                v = known[name]["precision" if metric == "accuracy" else metric]
                candidates[name] = (Fraction(float(v.min())), Fraction(float(v.max())))
            matches = tuple(
                k
                for k, s in candidates.items()
                if (_exact_hit(known[k], metric, target) if k in exact else _meets(s, target, inclusive=k == "micro"))
            )
            excluded, relation, own = _internal(figures, metric, b2, single_label)
            ruled_out = tuple(
                k
                for k in CANDIDATES
                if k not in matches and (k in candidates or k in excluded) and not (metric != "f" and k == "macro_fa")
            )
            without: tuple[tuple[str, tuple[str, ...]], ...] = ()
            if not matches and candidates and len(data.names) > 2 and metric != "accuracy":
                found = []
                for label in data.names:
                    rest = [k for k in data.names if k != label]
                    spans_without, _ = _candidates(metric, rest, data, b2, single_label)
                    hit = tuple(k for k, s in spans_without.items() if _meets(s, target))
                    if hit:
                        found.append((label, hit))
                without = tuple(found)
            fa_name = f_title(beta)
            metric_name = fa_name if metric == "f" else metric
            verdict = _verdict(
                row,
                metric_name,
                figure,
                claimed,
                candidates,
                matches,
                without,
                relation,
                equal_supports,
                fa_name,
                "micro" in excluded,
                own,
            )
            rows.append(
                AverageAudit(
                    row,
                    row_line,
                    metric,
                    figure,
                    claimed,
                    candidates,
                    matches,
                    ruled_out,
                    unavailable,
                    without,
                    verdict,
                    own,
                )
            )
    return Audit(
        source, beta, single_label, decimals, frequencies, tuple(audits), tuple(rows), combinations, tuple(messages)
    )


def _exact_hit(values: Mapping[str, Any], metric: str, target: Span) -> bool:
    v = values["precision" if metric == "accuracy" else metric]
    return bool(((v >= float(target[0]) - _TOLERANCE) & (v <= float(target[1]) + _TOLERANCE)).any())


def audit_table(
    table: FigureTable,
    *,
    beta: float = 1.0,
    decimals: int | None = None,
    train: LabelFrequencies | Mapping[str, float] | None = None,
    train_source: str | None = None,
    single_label: bool = True,
    all_averages: bool = False,
) -> Audit:
    """Audit a table read by :func:`~clfeval.inverse.papers.read_figure_table`.

    With ``all_averages`` every row is an averaged row (a results table, one system or setting per
    row, such as Van Asch's Table 8): each is judged by its own precision, recall and F.
    """
    label_rows = () if all_averages else table.labels
    average_rows = table.labels + table.averages if all_averages else table.averages
    if not average_rows:
        raise InputError(
            "has no averaged rows to audit: name them macro, micro, weighted, macro avg, average … "
            "(or pass --all-averages when every row is one)",
            table.source,
        )
    seen: dict[str, int] = {}
    for label, line, _ in label_rows:
        if label in seen:
            raise InputError(f"the label {label!r} appears twice (first on line {seen[label]})", table.source, line)
        seen[label] = line
    return audit(
        {label: figures for label, _, figures in label_rows},
        [(name, figures, line) for name, line, figures in average_rows],
        beta=beta,
        decimals=decimals,
        train=train,
        train_source=train_source,
        single_label=single_label,
        source=table.source,
        lines={label: line for label, line, _ in label_rows},
    )
