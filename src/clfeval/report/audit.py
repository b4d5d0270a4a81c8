"""Build a :class:`Report` from an :class:`Audit`: per averaged figure, which formula reproduces it."""

from __future__ import annotations

from typing import Any

from clfeval.inverse.audit import CANDIDATES, Audit, Span
from clfeval.report.tables import Report, Table
from clfeval.scoring.ratios import f_title

__all__ = ["audit_report"]


def _range(span: Span | None, digits: int = 4) -> str:
    if span is None:
        return "n/a"
    lo, hi = f"{float(span[0]):.{digits}f}", f"{float(span[1]):.{digits}f}"
    return lo if lo == hi else f"{lo}–{hi}"


def _count(bounds: tuple[int | None, int | None] | None) -> str:
    if bounds is None:
        return "?"
    lo, hi = bounds
    return "?" if lo is None else str(lo) if lo == hi else f"{lo}–{'∞' if hi is None else hi}"


def audit_report(result: Audit, *, matrix: bool = True, **view: Any) -> Report:
    """The verdicts, what each formula gives, and the per-label checks and count bounds of an audit."""
    f_name = f_title(result.beta)

    def measure(m: str) -> str:
        return f_name if m == "f" else m

    verdicts = Table(
        "reported averages",
        ("row", "measure", "reported", "matches", "ruled out"),
        tuple(
            (
                r.row,
                measure(r.metric),
                r.figure.text,
                ", ".join(r.matches) or ("none" if r.candidates else "?"),
                ", ".join(r.ruled_out) or "-",
            )
            for r in result.rows
        ),
        "rows",
    )
    shown = [k for k in CANDIDATES if any(k in r.candidates for r in result.rows)]
    tables = [verdicts]
    if shown:
        tables.append(
            Table(
                "what each formula gives, within the rounding of the per-label figures",
                ("row", "measure", "reported", *shown),
                tuple(
                    (
                        r.row,
                        measure(r.metric),
                        _range((r.figure.low, r.figure.high)),
                        *(_range(r.candidates.get(k)) for k in shown),
                    )
                    for r in result.rows
                ),
                "candidates",
            )
        )
    if result.labels:
        with_counts = any(a.counts for a in result.labels)
        columns = ("label", "precision", "recall", f_name, f"{f_name} of P and R", "check") + (
            ("tp", "fp", "fn", "tables") if with_counts else ()
        )
        rows = []
        for a in result.labels:
            row: tuple[str | int, ...] = (
                a.label,
                *(a.given[m].text if m in a.given else "" for m in ("precision", "recall", "f")),
                _range(a.harmonic),
                "FLAG" if a.flags else "ok",
            )
            if with_counts:
                row += (
                    *(_count(a.counts.get(k)) if a.counts else "?" for k in ("tp", "fp", "fn")),
                    "?" if a.tables is None else a.tables,
                )
            rows.append(row)
        tables.append(
            Table(
                "per-label rows" + (" and the counts that fit them (supports given)" if with_counts else ""),
                columns,
                tuple(rows),
                "labels",
            )
        )
    warnings = [f"{a.label}: {flag}" for a in result.labels for flag in a.flags] + list(result.messages)
    notes = [r.verdict for r in result.rows if r.candidates or r.matches or r.own_f is not None]
    if not result.labels:
        notes.append(
            "no per-label rows: each averaged row is judged by its own precision, recall and F (every mean "
            f"of per-label {f_name} is at most the {f_name} of the same means of precision and recall)"
        )
    notes += [f"{k}: {v}" for k, v in CANDIDATES.items() if k in shown]
    if result.labels:
        missing = {k: v for r in result.rows for k, v in r.unavailable.items() if k not in shown}
        notes += [f"{k}: not computed, {v}" for k, v in missing.items()]
    notes.append(
        "a figure reported to d decimals stands for any value within ±½·10⁻ᵈ of it; a formula matches when "
        "the range it gives from the rounded per-label figures meets that interval"
    )
    if result.combinations:
        notes.append(
            f"checked exactly over the {result.combinations:,} combinations of integer per-label tables "
            "that fit the figures and the supports"
        )
    if result.frequencies:
        notes.append(f"lfb frequencies: {result.frequencies}")
    title = f"clfeval audit — {result.source}" if result.source else "clfeval audit"
    return Report(title, tuple(tables), tuple(warnings), tuple(notes))
