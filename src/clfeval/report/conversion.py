"""Build a :class:`Report` from a :class:`Conversion` or :class:`LabelConversion`: the tables that fit, and why."""

from __future__ import annotations

from typing import Any

from clfeval.inverse.conversion import QUANTITIES, Conversion, LabelConversion
from clfeval.report.tables import Report, Table
from clfeval.scoring.ratios import f_title

__all__ = ["conversion_report", "label_conversion_report"]

_SHOWN = ("tp", "fp", "fn", "tn", "n", "precision", "recall", "f", "accuracy", "specificity")


def _given_note(c: Conversion) -> str:
    parts = [f"{k} = {v.text}" + ("" if v.decimals is None else f" (±{float(v.half):g})") for k, v in c.given.items()]
    return "given: " + ", ".join(parts)


def conversion_report(result: Conversion, *, matrix: bool = True, **view: Any) -> Report:
    """The tables and notes of a conversion: each consistent table with what it implies, the ranges, the verdict."""
    f_name = f_title(result.beta)
    columns = tuple(f_name if q == "f" else q for q in _SHOWN)
    rows = tuple(tuple("?" if t.quantities()[q] is None else t.quantities()[q] for q in _SHOWN) for t in result.tables)
    tables = [Table(f"consistent tables ({result.count:,} in all)", columns, rows, "tables")]
    if result.count > 1:
        tables.append(
            Table(
                "ranges over every consistent table",
                ("count", "lowest", "highest"),
                tuple((k, lo, "unbounded" if hi is None else hi) for k, (lo, hi) in result.ranges.items()),
                "ranges",
            )
        )
    unique = (
        "exactly one integer table fits"
        if not (result.tables and result.tables[0].tn is None)
        else "exactly one (tp, fp, fn) fits; tn is not determined"
    )
    verdict = {
        "unique": unique,
        "several": "several integer tables fit",
        "none": "no integer table fits: the figures are inconsistent",
        "insufficient": "the figures do not determine the table",
        "too many": "too many candidate tables to enumerate",
    }[result.status]
    notes = [
        _given_note(result),
        "a figure reported to d decimals stands for any value within ±½·10⁻ᵈ of it",
        *(f"{k}: {QUANTITIES[k]}" for k in result.given if k not in ("tp", "fp", "fn", "tn")),
    ]
    return Report(f"clfeval convert — {verdict}", tuple(tables), result.messages, tuple(notes))


def _span(c: Conversion, key: str) -> str:
    """Count ``key`` of the fitting tables: its one value, its range, or ``?``."""
    lo, hi = c.ranges.get(key, (None, None))
    return "?" if lo is None else str(lo) if lo == hi else f"{lo}–{hi}"


def label_conversion_report(result: LabelConversion, *, matrix: bool = True, **view: Any) -> Report:
    f_name = f_title(result.beta)
    rows: list[tuple[str, int | str, int | str, int | str, int, str]] = []
    for label, c in result.labels.items():
        if c.count == 1 or (
            c.tables
            and c.ranges.get("tp", (0, 0))[0] == c.ranges.get("tp", (0, 0))[1]
            and c.ranges["fp"][0] == c.ranges["fp"][1]
            and c.ranges["fn"][0] == c.ranges["fn"][1]
        ):
            t = c.tables[0]
            rows.append((label, t.tp, t.fp, t.fn, c.count, c.status))
        else:
            rows.append((label, _span(c, "tp"), _span(c, "fp"), _span(c, "fn"), c.count, c.status))
    per_label = Table("per label", ("label", "tp", "fp", "fn", "tables", "status"), tuple(rows), "labels")
    avg_rows = tuple(
        (name, f_name if m == "f" else m, lo, hi)
        for name, values in result.averages.items()
        for m, (lo, hi) in values.items()
    )
    averages = Table(
        f"averages over the {result.combinations:,} fitting combination(s) (lowest, highest)",
        ("average", "measure", "lowest", "highest"),
        avg_rows,
        "averages",
    )
    notes = [
        f"n = {result.n} instances",
        "each label solved as a binary table; combinations must satisfy Σ fp = Σ fn "
        "and Σ tp + Σ fp = n (single-label data)",
        "macro: mean of per-label scores (AF for F); macro_fa: F of macro precision and macro recall (FA)",
    ]
    return Report(
        "clfeval convert — per-label figures back into counts", (per_label, averages), result.messages, tuple(notes)
    )
