"""Build a :class:`Report` from a :class:`Finagle`: NORMAL, CHANGED and UPPER side by side (Van Asch Table 8)."""

from __future__ import annotations

from typing import Any

from clfeval.report.tables import Report, Table, scores_notes
from clfeval.report.view import View
from clfeval.scoring.finagle import SCENARIOS, Finagle
from clfeval.scoring.ratios import f_title

__all__ = ["finagle_report"]

#: Calibration groups shown in text (the JSON has every bin).
_SHOWN_GROUPS = 10


def _calibration(result: Finagle) -> Table:
    """The calibration bins merged into at most ten groups of about equal size, least confident first."""
    bins = result.bins
    cut = next((i for i, b in enumerate(bins) if not b.changed), len(bins))  # the doubtful bins come first
    groups: list[list] = [list(bins[:cut])] if cut else []
    rest = bins[cut:]
    total = sum(b.n for b in rest)
    slots = _SHOWN_GROUPS - len(groups)
    start = len(groups)
    filled = 0  # instances in the last group of the rest
    for b in rest:
        if len(groups) == start or (filled >= total / slots and len(groups) - start < slots):
            groups.append([])
            filled = 0
        groups[-1].append(b)
        filled += b.n
    what = "distance" if result.lower_is_more_confident else "confidence"
    rows = []
    for group in groups:
        lo, hi = min(b.low for b in group), max(b.high for b in group)
        n, correct = sum(b.n for b in group), sum(b.correct for b in group)
        cal_lo, cal_hi = min(b.calibrated for b in group), max(b.calibrated for b in group)
        calibrated = f"{cal_lo:.3f}" if cal_lo == cal_hi else f"{cal_lo:.3f}–{cal_hi:.3f}"
        rows.append((f"{lo:.4g} – {hi:.4g}", n, correct / n, calibrated, sum(b.changed for b in group)))
    order = "most confident first" if result.lower_is_more_confident else "least confident first"
    return Table(
        f"calibration: accuracy by {what} ({len(bins)} bins shown as {len(groups)} groups, {order})",
        (what, "n", "accuracy", "calibrated", "doubtful"),
        tuple(reversed(rows)) if result.lower_is_more_confident else tuple(rows),
        "calibration",
    )


def finagle_report(result: Finagle, *, matrix: bool = True, measures: Any = None, verbose: bool = False) -> Report:
    """The three scorings, what moved, the calibration, and the rule that chose the doubtful predictions; with
    ``verbose``, the notes on the calibration and the scorings' definitions too."""
    view = View.of(measures, verbose)
    normal = result.scenarios["normal"]
    f_name = f_title(normal.beta)
    rows = []
    for name in normal.averages:
        if name == "samples":
            continue
        for scenario, scores in result.scenarios.items():
            values = scores.averages[name]
            rows.append((name, scenario.upper(), values["precision"], values["recall"], values["f"], scores.accuracy))
    scores_table = Table(
        "scores with the doubtful predictions changed (NORMAL, CHANGED, UPPER)",
        ("average", "scenario", "precision", "recall", f_name, "accuracy"),
        tuple(rows),
        "scenarios",
    )
    m = result.moved
    moved = Table(
        "what moved",
        ("scenario", "changed", "right → wrong", "wrong → right", "wrong → wrong"),
        (
            ("CHANGED", m["changed"], m["lost"], m["gained"], m["still_wrong"]),
            ("UPPER", m["upper_changed"], 0, m["upper_gained"], m["upper_changed"] - m["upper_gained"]),
        ),
        "moved",
    )
    changed = result.scenarios["changed"]
    dp = changed.averages["macro"]["precision"] - normal.averages["macro"]["precision"]
    da = changed.accuracy - normal.accuracy
    source = {
        "given": "given (--to)",
        "training": "the most frequent training label",
        "gold": "the most frequent gold label (no training data given)",
    }[result.target_source]
    rule = (
        f"changed: {result.changed_where} (--threshold)"
        if result.rule == "threshold"
        else f"changed: {result.changed_where}, the bins whose calibrated accuracy is below "
        f"{result.expected_accuracy:g} (--expected-accuracy)"
    )
    warnings = list(normal.warnings)
    if dp > 0 and da <= 0:
        warnings.append(
            f"macro precision rose by {dp:+.4f} while accuracy moved by {da:+.4f}: the gain comes from "
            "where the doubtful predictions went, not from more correct ones"
        )
    notes = [f"{k.upper()}: {v}" for k, v in SCENARIOS.items()]
    notes += [f"target label {result.target!r}: {source}", rule]
    if view.verbose:
        notes += [
            "calibration: accuracy per confidence bin (about 100 instances each unless --bins), made monotone by "
            "pooling adjacent violators, estimated on these same instances",
            "every scenario is scored over NORMAL's label set, so the averages stay comparable",
        ]
    notes += scores_notes(normal, view)
    title = f"clfeval finagle — doubtful predictions changed to {result.target!r} ({result.changed_where})"
    return Report(title, (scores_table, moved, _calibration(result)), tuple(warnings), tuple(notes))
