"""Build a :class:`Report` from a :class:`SlicedComparison`: each system's scores per group, and each pair's test
within each group with Holm's adjustments over the pairs and over the groups."""

from __future__ import annotations

import math
from typing import Any

from clfeval.infer.groupcomparison import SlicedComparison
from clfeval.infer.pairtests import TESTS
from clfeval.report.tables import Label, PValue, Report, Table

__all__ = ["group_comparison_report"]


def group_comparison_report(
    result: SlicedComparison, *, matrix: bool = True, measures: Any = None, verbose: bool = False
) -> Report:
    """The tables and notes of a comparison by group.

    Tables: each system's value of each metric, overall and in each group (with the group's size); each pair's
    difference within each group, its p-value, Holm over the pairs within the group, Holm over the groups, and
    whether it holds (Holm over the groups < α).
    """
    systems, metrics = result.systems, result.metrics
    rows: list[tuple[Any, ...]] = []
    for group, comparison in (("overall", result.overall), *result.by_group.items()):
        for metric in metrics:
            rows.append((Label(group), int(comparison.first.n_instances), metric,
                         *(comparison.score(s, metric) for s in systems)))  # fmt: skip
    scores = Table("scores by group", ("group", "n", "metric", *map(Label, systems)), tuple(rows), "scores", 3)
    overall = result.overall
    pairs: list[tuple[Any, ...]] = [
        (Label("overall"), p.metric, Label(p.a), Label(p.b), p.difference, PValue(p.p_value), PValue(p.p_adjusted),
         "", "yes" if p.significant else "no" if not math.isnan(p.p_adjusted) else "no test")
        for p in overall.pairs
    ]  # fmt: skip
    for t in result.tests:
        verdict = "no test" if math.isnan(t.p_holm_groups) else "yes" if t.significant else "no"
        pairs.append((Label(t.group), t.metric, Label(t.a), Label(t.b), t.difference, PValue(t.p_value),
                      PValue(t.p_holm_pairs), PValue(t.p_holm_groups), verdict))  # fmt: skip
    alpha = result.test_method["alpha"]
    table = Table(
        f"pairs by group ({TESTS[overall.test].title}, {overall.alternative}; within a group a difference holds when "
        f"its p adjusted by Holm over the groups < {alpha:g})",
        ("group", "metric", "A", "B", "A − B", "p", "p (Holm, pairs)", "p (Holm, groups)", "holds"),
        tuple(pairs),
        "pairs",
        4,
    )
    warnings = list(result.warnings)
    notes = [*result.notes]
    if verbose:
        notes.append(str(result.test_method["multiplicity"]))
    return Report("comparison by group", (scores, table), tuple(warnings), tuple(notes))
