"""Build a :class:`Report` from a result by group (:class:`~clfeval.infer.slices.Sliced`): each group's scores with
their intervals, the gaps between groups, the tests between them and the fairness summaries.

Each group's own full report (every score, per label, the confusion matrix) is not repeated here: ``r.by_group[g]``
is that group's result, with its own report.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from clfeval.errors import OptionError
from clfeval.infer.slices import GroupGap, Sliced
from clfeval.infer.slicing import FAIRNESS, GROUP_TESTS, RATES
from clfeval.kinds import KINDS
from clfeval.report.page import slices_page
from clfeval.report.rows import slices_rows
from clfeval.report.tables import Bounds, Label, PValue, Report, Table
from clfeval.report.view import View
from clfeval.scoring.labelset import LABEL_SOURCES

__all__ = ["BETWEEN_TITLES", "RATE_TITLES", "gap_order", "significance", "slices_report"]

#: How a gap's ``between`` reads in a table.
BETWEEN_TITLES = {"max": "largest (max − min)", "rest": "against the rest", "pair": "pair"}
#: The column titles of the rates a fairness summary reads.
RATE_TITLES = {"selection_rate": "selection rate", "tpr": "TPR", "fpr": "FPR"}


def _bounds(bounds: tuple[float, float] | None) -> Bounds:
    return Bounds(None, None) if bounds is None else Bounds(bounds[0], bounds[1])


def _with_intervals(r: Sliced) -> bool:
    """Whether the groups' scores and the gaps have intervals (``ci=`` was given)."""
    return str(r.gap_method.get("name")) != "none"


def _ci(r: Sliced) -> str:
    return f"{100 * float(r.gap_method['confidence']):g}% CI"


def gap_order(r: Sliced) -> list[GroupGap]:
    """The gaps as a report lists them: for each metric, the largest first, then each group against the rest, then
    the pairs."""
    rank = {"max": 0, "rest": 1, "pair": 2}
    order = {m: i for i, m in enumerate(r.metrics)}
    return sorted(r.gaps, key=lambda g: (order.get(g.metric, len(order)), rank[g.between]))


def significance(p_holm: float, alpha: float) -> str:
    """``yes`` when a Holm-adjusted p-value is below α, ``no`` when not, ``no test`` when there is none."""
    if math.isnan(p_holm):
        return "no test"
    return "yes" if p_holm < alpha else "no"


def _extremes(r: Sliced) -> dict[str, str]:
    """Each group that is an end of a metric's largest gap: ``highest of f1; lowest of accuracy``."""
    ends: dict[str, dict[str, list[str]]] = {}
    for gap in r.gaps:
        if gap.between == "max" and gap.a != gap.b:
            ends.setdefault(gap.a, {}).setdefault("highest", []).append(gap.metric)
            ends.setdefault(gap.b, {}).setdefault("lowest", []).append(gap.metric)
    return {g: "; ".join(f"{end} of {', '.join(ms)}" for end, ms in found.items()) for g, found in ends.items()}


def _units(r: Sliced) -> dict[str, str]:
    """Each result's resampling units when they are blocks (``120 sentences``); empty for instances."""
    out = {}
    for name, result in [("overall", r.overall), *r.by_group.items()]:
        iv = getattr(result, "intervals", None)
        unit = getattr(iv, "unit", "instances")
        if unit != "instances":
            n_units = getattr(iv, "n_units", None)
            out[name] = unit if n_units is None else f"{n_units} {unit}"
    return out


def by_group_table(r: Sliced) -> Table:
    """One row per group, the whole data first: its values of the group columns (with several), its size, each gap
    metric with its interval, and which largest gaps it is an end of."""
    ci = _with_intervals(r)
    units = _units(r)
    columns: list[str] = ["group", *(r.columns if len(r.columns) > 1 else ()), "N", *(["units"] if units else [])]
    for metric in r.metrics:
        columns += [metric, *([_ci(r)] if ci else [])]
    columns.append("largest gap")
    extremes = _extremes(r)
    rows = []
    for name, values in [("overall", ("",) * len(r.columns)), *zip(r.names, r.values)]:
        result = r.overall if name == "overall" else r.by_group[name]
        row: list[Any] = [Label(name), *(Label(v) for v in values if len(r.columns) > 1), int(result.n_instances)]
        row += [units.get(name, "")] if units else []
        for metric in r.metrics:
            row.append(r.value(name, metric))
            if ci:
                row.append(_bounds(r.interval_of(name, metric)))
        row.append(extremes.get(name, ""))
        rows.append(tuple(row))
    kind = KINDS.get(r.task)
    word = kind.instances if kind is not None else "instances"
    return Table(
        f"by group (N: {word}; the whole data first)",
        tuple(columns),
        tuple(rows),
        "by_group",
        1 + (len(r.columns) if len(r.columns) > 1 else 0),
    )


def gaps_table(r: Sliced) -> Table:
    """Every gap of every metric: the largest (max − min, min / max), each group against the rest, each pair."""
    ci = _with_intervals(r)
    columns = ["metric", "between", "A", "B", "value A", "value B", "difference", *([_ci(r)] if ci else [])]
    columns += ["ratio", *([_ci(r)] if ci else [])]
    rows = []
    for gap in gap_order(r):
        row: list[Any] = [gap.metric, BETWEEN_TITLES[gap.between], Label(gap.a), Label(gap.b)]
        row += [gap.value_a, gap.value_b, gap.difference, *([_bounds(gap.difference_ci)] if ci else [])]
        row += [gap.ratio, *([_bounds(gap.ratio_ci)] if ci else [])]
        rows.append(tuple(row))
    how = str(r.gap_method["name"])
    return Table(
        "gaps between groups (difference A − B and ratio A / B; the largest: A the highest group, B the lowest, "
        f"ratio min / max; intervals: {how})",
        tuple(columns),
        tuple(rows),
        "gaps",
        4,
    )


def tests_table(r: Sliced) -> Table:
    """Every test: each pair and each group against the rest, its p-value and Holm's adjustment."""
    alpha = float(r.test_method["alpha"])
    rows = tuple(
        (
            t.metric,
            BETWEEN_TITLES[t.between],
            Label(t.a),
            Label(t.b),
            t.difference,
            PValue(t.p_value),
            PValue(t.p_holm),
            significance(t.p_holm, alpha),
        )
        for t in r.tests
    )
    return Table(
        f"tests between groups ({r.test_method['name']}, two-sided; Holm within each family of each score: the "
        f"pairs, and the groups against the rest; significant when the Holm-adjusted p < {alpha:g})",
        ("metric", "between", "A", "B", "A − B", "p", "p (Holm)", "significant"),
        rows,
        "tests",
        4,
    )


def fairness_tables(r: Sliced) -> list[Table]:
    """The positive class's rates per group, and the fairness summaries with their intervals."""
    fairness = r.fairness
    if fairness is None:
        return []
    ci = _with_intervals(r)
    rates = Table(
        f"rates of the positive class {fairness['positive']!r} by group",
        ("group", *(RATE_TITLES[rate] for rate in RATES)),
        tuple((Label(g), *(float(v) for v in rates.values())) for g, rates in fairness["by_group"].items()),
        "fairness_rates",
    )
    summaries = Table(
        "fairness summaries (fairlearn's, between groups, the worst case"
        + (f"; group-stratified bootstrap {_ci(r)}s)" if ci else ")"),
        ("summary", "value", *([_ci(r)] if ci else [])),
        tuple(
            (name, float(entry["value"]), *([_bounds(entry["ci"])] if ci else []))
            for name, entry in fairness["summaries"].items()
        ),
        "fairness",
    )
    return [rates, summaries]


def _method_notes(r: Sliced, view: View) -> list[str]:
    """The gaps' method, the test, their seeds and Holm's families; with ``verbose``, their definitions in full."""
    gap, test = r.gap_method, r.test_method
    notes = []
    if gap["name"] == "none":
        notes.append(f"gaps: {gap['definition']}")
    else:
        line = f"gaps: {100 * float(gap['confidence']):g}% {gap['name']} intervals"
        line += f", {gap['resamples']} resamples, seed {gap['seed']}" if gap.get("resamples") else ""
        notes.append(line + (f" — {gap['definition']}" if view.verbose else ""))
    if test["name"] == "none":
        notes.append("tests between groups: none (test='none')")
    else:
        line = f"tests between groups: {test['name']}, {test['alternative']}"
        line += f", {test['rounds']} rounds" if test.get("rounds") else ""
        line += f", seed {test['seed']}" if test.get("seed") is not None else ""
        strata = test.get("strata")
        if strata:
            line += f", group membership permuted within {strata['n_strata']} strata of {', '.join(strata['columns'])}"
        line += f"; {test['multiplicity']}; significant at α = {float(test['alpha']):g}"
        notes.append(line)
        if view.verbose:
            notes.append(f"{test['name']}: {GROUP_TESTS[str(test['name'])].definition}")
    notes.append(
        "ratio: A / B for a pair or a group against the rest (the rest: every other group's instances together); "
        "min / max for the largest gap, as fairlearn's MetricFrame.ratio(); undefined when its denominator is 0"
    )
    return notes


def _fairness_notes(r: Sliced, view: View) -> list[str]:
    if r.fairness is None:
        return []
    notes = [f"fairness: rates of the positive class {r.fairness['positive']!r}; the summaries are fairlearn's"]
    if view.verbose:
        notes += [f"{name}: {RATES[name]}" for name in RATES]
        notes += [f"{name}: {FAIRNESS[name].definition}" for name in r.fairness["summaries"]]
    return notes


def _label_set_note(r: Sliced) -> list[str]:
    source = getattr(r.overall, "label_source", None)
    labels = getattr(r.overall, "labels", None)
    if source is None or labels is None:
        return []
    meaning = LABEL_SOURCES.get(source, "").split(" (")[0]
    return [
        f"label set L ({source}, {len(labels)} labels): {meaning}; a label absent from a group still counts in its "
        "averages"
    ]


def slices_report(r: Sliced, *, matrix: bool = True, measures: Any = None, verbose: bool = False) -> Report:
    """The tables and notes of a report by group.

    Tables: by group (the whole data first; each group's size and each gap metric with its interval, and which
    largest gaps it is an end of); the gaps (the largest, each group against the rest, each pair: difference and
    ratio with their intervals); the tests between groups (p and Holm's p, significant at α); with a positive class,
    its rates per group and the fairness summaries. Notes say the label set, the gaps' method, the test and its
    seeds, and how to read each group's own report (``r.by_group[g]``); ``verbose`` adds every definition.
    ``matrix`` concerns a group's own report, which this one does not repeat; ``measures`` chooses the measures of a
    score's report, and is refused here: the metrics shown are those whose gaps were read (``metrics=``).
    """
    view = View.of(measures, verbose)
    if view.names != View().names:
        raise OptionError(
            "a report by group shows the scores whose gaps it reads (metrics=, --group-metric), not measures=: a "
            "group's own report takes it (r.by_group[g].render(fmt, measures=...))"
        )
    tables = [by_group_table(r), gaps_table(r)]
    tables += [tests_table(r)] if r.tests else []
    tables += fairness_tables(r)
    kind = KINDS.get(r.task)
    word = kind.instances if kind is not None else "instances"
    groups = f"{len(r.names)} groups of {' & '.join(r.columns)}"
    notes = [
        f"{groups} ({', '.join(r.names[:8])}{' …' if len(r.names) > 8 else ''}); N = {r.n_instances} {word} in all"
        + ("; a group of several columns is named by their values joined by &" if len(r.columns) > 1 else ""),
        *_label_set_note(r),
        *_method_notes(r, view),
        *_fairness_notes(r, view),
        *r.notes,
        "each group's own report (every score, per label, its confusion matrix) is not repeated here: "
        "r.by_group[g] is the group's result (str(r.by_group[g]), r.by_group[g].render(fmt)), r.overall the whole "
        "data's",
    ]
    title = f"clfeval score by group — {r.task}, {r.n_instances} {word}, {groups}"
    warnings = tuple(dict.fromkeys([*r.warnings, *getattr(r.overall, "warnings", ())]))
    return Report(
        title,
        tuple(tables),
        warnings,
        tuple(notes),
        partial(slices_rows, r),
        build_page=partial(slices_page, r),
    )
