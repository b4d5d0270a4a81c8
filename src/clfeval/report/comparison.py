"""Build a :class:`Report` from a :class:`Comparison`: scores per system, the test of each pair, a ranking."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from clfeval.infer.comparison import Comparison, PairTest
from clfeval.infer.pairtests import TESTS
from clfeval.report.page import comparison_page
from clfeval.report.rows import comparison_rows
from clfeval.report.tables import Bounds, PValue, Report, Table
from clfeval.scoring.averages import AVERAGES
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.metrics import higher_is_better

__all__ = ["comparison_report"]


def _verdict(p: PairTest) -> str:
    if math.isnan(p.p_adjusted):
        return "no test"
    return "yes" if p.significant else "no"


def _pairs_table(cmp: Comparison) -> Table:
    ci = cmp.ci != "none"
    mcnemar = any(p.discordant is not None for p in cmp.pairs)  # the instances only one system gets right
    units = TESTS[cmp.test].counts_units  # the test is the sign test: its counts are the pair's
    columns = ["metric", "A", "B", "score A", "score B", "A − B"]
    columns += [f"{100 * cmp.confidence:g}% CI"] if ci else []
    columns += ["only A right", "only B right"] if mcnemar else []
    columns += ["A better", "B better", "ties"] if units else []
    columns += ["p", "p (Holm)", "holds"]
    rows = []
    for p in cmp.pairs:
        row: list[Any] = [p.metric, p.a, p.b, p.score_a, p.score_b, p.difference]
        if ci:
            row.append(Bounds(None, None) if p.ci is None else Bounds(p.ci[0], p.ci[1]))
        if mcnemar:
            assert p.discordant is not None
            row += [p.discordant["only_a"], p.discordant["only_b"]]
        if units:
            assert p.sign is not None
            row += [p.sign.a_better, p.sign.b_better, p.sign.ties]
        row += [PValue(p.p_value), PValue(p.p_adjusted), _verdict(p)]
        rows.append(tuple(row))
    return Table(
        f"pairs ({TESTS[cmp.test].title}, {cmp.alternative}; a difference holds when its Holm-adjusted "
        f"p < {cmp.alpha:g})",
        tuple(columns),
        tuple(rows),
        "pairs",
    )


def _sign_table(cmp: Comparison) -> Table | None:
    """The sign test of each pair, once per pair (it concerns accuracy, whatever the metric): a cross-check."""
    rows = []
    seen: set[tuple[str, str]] = set()
    for p in cmp.pairs:
        if p.sign is None or (p.a, p.b) in seen:
            continue
        seen.add((p.a, p.b))
        rows.append((p.a, p.b, p.sign.a_better, p.sign.b_better, p.sign.ties, PValue(p.sign.p_value)))
    if not rows or TESTS[cmp.test].counts_units:
        return None
    if cmp.unit == "instances":
        title = "sign test (McNemar's exact test) on the instances where exactly one system is right"
    else:
        title = f"sign test on {cmp.unit}: the blocks where one system gets more instances right, ties left out"
    return Table(
        f"{title} ({cmp.alternative}; a cross-check of accuracy)",
        ("A", "B", "A better", "B better", "ties", "p"),
        tuple(rows),
        "sign",
    )


def _ranking_table(cmp: Comparison) -> Table:
    rows = []
    for metric in cmp.metrics:
        for r in cmp.ranking(metric):
            rank = "—" if r["rank"] is None else r["rank"]
            rows.append(
                (
                    metric,
                    rank,
                    r["system"],
                    r["score"],
                    ", ".join(r["better_than"]) or "—",
                    ", ".join(r["worse_than"]) or "—",
                )
            )
    return Table(
        f"ranking (a difference holds when its Holm-adjusted p < {cmp.alpha:g})",
        ("metric", "rank", "system", "score", "significantly better than", "significantly worse than"),
        tuple(rows),
        "ranking",
    )


def _metric_definitions(cmp: Comparison) -> list[str]:
    notes = []
    for metric, key in zip(cmp.metrics, cmp.keys):
        if key[0] == "averages":
            notes.append(f"{metric}: {AVERAGES[key[1]].definition}")
    return list(dict.fromkeys(notes))


def _test_note(cmp: Comparison) -> str:
    note = f"test: {TESTS[cmp.test].title} — {TESTS[cmp.test].definition}"
    if cmp.rounds is not None and not all(p.exact for p in cmp.pairs):  # McNemar has no rounds
        note += f"; {cmp.rounds} rounds, seed {cmp.seed}"
    if TESTS[cmp.test].enumerates:
        note += (
            f"; exact enumeration when at most {cmp.exact_limit} swap patterns exist"
            if cmp.exact_limit
            else "; no exact enumeration (exact limit 0)"
        )
    return note


def _alternative_note(cmp: Comparison) -> str:
    meaning = {
        "two-sided": "A and B differ, in either direction",
        "greater": "d = score(A) − score(B) > 0",
        "less": "d = score(A) − score(B) < 0",
    }[cmp.alternative]
    extreme = TESTS[cmp.test].extreme
    note = f"alternative: {cmp.alternative} ({meaning}"
    if extreme is not None:
        note += f"; a round counts as at least as extreme when {extreme[cmp.alternative]}"
    note += ")"
    lower = [m for m, k in zip(cmp.metrics, cmp.keys) if not higher_is_better(k)]
    if lower and cmp.alternative != "two-sided":
        note += f"; for {', '.join(lower)} a lower score is the better one, so '{cmp.alternative}' concerns the loss"
    return note


def comparison_report(cmp: Comparison, *, matrix: bool = True) -> Report:
    """The tables and notes of a comparison report.

    Tables: each system's value of each metric; each pair's difference, interval (when asked),
    p-value and Holm-adjusted p-value; the ranking per metric with the differences that hold.
    Notes define the test, the alternative, the adjustment, every average used and the label set.
    """
    first = cmp.first
    scores = Table(
        "scores",
        ("system", *cmp.metrics),
        tuple((s, *(cmp.score(s, m) for m in cmp.metrics)) for s in cmp.systems),
        "scores",
    )
    sign = _sign_table(cmp)
    tables = [scores, _pairs_table(cmp), *([sign] if sign is not None else []), _ranking_table(cmp)]
    comparisons = (
        f"each system against the baseline {cmp.baseline!r}" if cmp.baseline is not None else "every pair of systems"
    )
    seen = (
        ", taken from the gold labels and every system's predictions" if first.label_source in ("union", "gold") else ""
    )
    tested = {m: sum(1 for p in cmp.pairs if p.metric == m and not math.isnan(p.p_value)) for m in cmp.metrics}
    counts = sorted(set(tested.values()))
    family = (
        f"the {counts[0]} tested comparison(s) of each metric"
        if len(counts) == 1
        else "the tested comparisons of each metric (" + ", ".join(f"{m}: {n}" for m, n in tested.items()) + ")"
    )
    notes = [
        f"N = {first.n_instances} instances ({first.task})"
        + (f" in {cmp.n_units} {cmp.unit}" if cmp.unit != "instances" else "")
        + f"; {len(cmp.systems)} systems scored over one label set "
        f"L: {len(first.labels)} labels, source '{first.label_source}' ({LABEL_SOURCES[first.label_source]}){seen}",
        _test_note(cmp),
        _alternative_note(cmp),
        f"comparisons: {comparisons} (d = score of the first named minus the second); p-values adjusted by Holm's "
        f"step-down method over {family}",
    ]
    if cmp.ci != "none":
        notes.append(f"intervals of A − B: {100 * cmp.confidence:g}% paired bootstrap percentile intervals")
    notes += _metric_definitions(cmp)
    notes.append(
        f"β = {first.beta:g}; zero division: 0/0 is set to {first.options.get('zero_division')} and "
        f"{'included in' if first.undefined_policy == 'include' else 'left out of'} averages"
    )
    notes += list(cmp.notes)
    if cmp.inputs:
        notes.append("inputs: " + ", ".join(f"{k}={v}" for k, v in cmp.inputs.items()))
    title = (
        f"clfeval compare — {first.task}, {first.n_instances} instances, {len(cmp.systems)} systems, "
        f"{len(first.labels)} labels"
    )
    return Report(
        title,
        tuple(tables),
        tuple(cmp.warnings),
        tuple(notes),
        partial(comparison_rows, cmp),
        build_page=partial(comparison_page, cmp),
    )
