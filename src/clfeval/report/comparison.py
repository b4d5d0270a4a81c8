"""Build a :class:`Report` from a :class:`Comparison`: scores per system, the test of each pair, a ranking."""

from __future__ import annotations

import math
from typing import Any

from clfeval.infer.comparison import TESTS, Comparison, PairTest
from clfeval.infer.significance import ALTERNATIVES
from clfeval.report.tables import Bounds, PValue, Report, Table
from clfeval.score.averages import AVERAGES
from clfeval.score.labelset import LABEL_SOURCES

__all__ = ["comparison_report"]


def _verdict(p: PairTest) -> str:
    if math.isnan(p.p_adjusted):
        return "no test"
    return "yes" if p.significant else "no"


def _pairs_table(cmp: Comparison) -> Table:
    ci = cmp.ci != "none"
    mcnemar = cmp.test == "mcnemar"
    columns = ["metric", "A", "B", "score A", "score B", "A − B"]
    columns += [f"{100 * cmp.confidence:g}% CI"] if ci else []
    columns += ["only A right", "only B right"] if mcnemar else []
    columns += ["p", "p (Holm)", "holds"]
    rows = []
    for p in cmp.pairs:
        row: list[Any] = [p.metric, p.a, p.b, p.score_a, p.score_b, p.difference]
        if ci:
            row.append(Bounds(None, None) if p.ci is None else Bounds(p.ci[0], p.ci[1]))
        if mcnemar:
            assert p.discordant is not None
            row += [p.discordant["only_a"], p.discordant["only_b"]]
        row += [PValue(p.p_value), PValue(p.p_adjusted), _verdict(p)]
        rows.append(tuple(row))
    return Table(f"pairs ({TESTS[cmp.test].title}, {cmp.alternative}; a difference holds when its Holm-adjusted "
                 f"p < {cmp.alpha:g})", tuple(columns), tuple(rows), "pairs")


def _ranking_table(cmp: Comparison) -> Table:
    rows = []
    for metric in cmp.metrics:
        for r in cmp.ranking(metric):
            rows.append((metric, r["rank"], r["system"], r["score"], ", ".join(r["better_than"]) or "—",
                         ", ".join(r["worse_than"]) or "—"))
    return Table(f"ranking (a difference holds when its Holm-adjusted p < {cmp.alpha:g})",
                 ("metric", "rank", "system", "score", "significantly better than", "significantly worse than"),
                 tuple(rows), "ranking")


def _metric_definitions(cmp: Comparison) -> list[str]:
    notes = []
    for metric, key in zip(cmp.metrics, cmp.keys):
        if key[0] == "averages":
            notes.append(f"{metric}: {AVERAGES[key[1]].definition}")
    return list(dict.fromkeys(notes))


def _test_note(cmp: Comparison) -> str:
    note = f"test: {TESTS[cmp.test].title} — {TESTS[cmp.test].definition}"
    if cmp.rounds is not None:
        note += f"; {cmp.rounds} rounds, seed {cmp.seed}"
    if cmp.test == "ar":
        note += f"; exact enumeration when at most {cmp.exact_limit} swap patterns exist"
    return note


def comparison_report(cmp: Comparison) -> Report:
    """The tables and notes of a comparison report.

    Tables: each system's value of each metric; each pair's difference, interval (when asked),
    p-value and Holm-adjusted p-value; the ranking per metric with the differences that hold.
    Notes define the test, the alternative, the adjustment, every average used and the label set.
    """
    first = cmp.first
    scores = Table("scores", ("system", *cmp.metrics),
                   tuple((s, *(cmp.score(s, m) for m in cmp.metrics)) for s in cmp.systems), "scores")
    tables = [scores, _pairs_table(cmp), _ranking_table(cmp)]
    comparisons = (f"each system against the baseline {cmp.baseline!r}" if cmp.baseline is not None
                   else "every pair of systems")
    notes = [
        f"N = {first.n_instances} instances ({first.task}); {len(cmp.systems)} systems scored over one label set "
        f"L: {len(first.labels)} labels, source '{first.label_source}' ({LABEL_SOURCES[first.label_source]}), "
        "taken from the gold labels and every system's predictions",
        _test_note(cmp),
        f"alternative: {cmp.alternative} ({ALTERNATIVES[cmp.alternative]})",
        f"comparisons: {comparisons}; p-values adjusted by Holm's step-down method over the "
        f"{len(cmp.pairs) // len(cmp.metrics)} comparison(s) of each metric",
    ]
    if cmp.ci != "none":
        notes.append(f"intervals of A − B: {100 * cmp.confidence:g}% paired bootstrap percentile intervals")
    notes += _metric_definitions(cmp)
    notes.append(f"β = {first.beta:g}; zero division: 0/0 is set to {first.options.get('zero_division')} and "
                 f"{'included in' if first.undefined_policy == 'include' else 'left out of'} averages")
    notes += list(cmp.notes)
    if cmp.inputs:
        notes.append("inputs: " + ", ".join(f"{k}={v}" for k, v in cmp.inputs.items()))
    title = (f"clfeval compare — {first.task}, {first.n_instances} instances, {len(cmp.systems)} systems, "
             f"{len(first.labels)} labels")
    return Report(title, tuple(tables), tuple(cmp.warnings), tuple(notes))
