"""Build a :class:`Report` from a :class:`Comparison`: scores per system, the test of each pair, a ranking."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from clfeval.infer.comparison import Comparison, PairTest
from clfeval.infer.pairtests import TESTS
from clfeval.kinds import KINDS
from clfeval.report.page import comparison_page
from clfeval.report.rows import comparison_rows
from clfeval.report.tables import Bounds, Label, PValue, Report, Table
from clfeval.report.view import View
from clfeval.scoring.averages import AVERAGES
from clfeval.scoring.labelset import LABEL_SOURCES

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
        row: list[Any] = [p.metric, Label(p.a), Label(p.b), p.score_a, p.score_b, p.difference]
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
        3,
    )


def _sign_table(cmp: Comparison) -> Table | None:
    """The sign test of each pair, once per pair: a test of its own quantity (accuracy; span errors for spans), named
    as such, whatever the metric; ``None`` when it is the comparison's test (its counts are then the pairs' columns)."""
    rows = []
    seen: set[tuple[str, str]] = set()
    for p in cmp.pairs:
        if p.sign is None or (p.a, p.b) in seen:
            continue
        seen.add((p.a, p.b))
        rows.append((Label(p.a), Label(p.b), p.sign.a_better, p.sign.b_better, p.sign.ties, PValue(p.sign.p_value)))
    if not rows or TESTS[cmp.test].counts_units:
        return None
    kind = KINDS[cmp.joint_kind]
    if cmp.unit == "instances":
        title = "sign test (McNemar's exact test) on the instances where exactly one system is right"
    else:
        units = cmp.unit if " " not in cmp.unit else "blocks"  # sentences, documents; blocks delimited by …
        title = f"sign test on {cmp.unit}: the {units} where one system {kind.counted}, ties left out"
    quantity = kind.counted_metric
    others = [m for m in cmp.metrics if not kind.counts_metric(m)]
    beside = f"; a test of {quantity}" + (f", not of {', '.join(others)}" if others else "")
    return Table(
        f"{title} ({cmp.alternative}{beside})",
        ("A", "B", "A better", "B better", "ties", "p"),
        tuple(rows),
        "sign",
        2,
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
                    Label(r["system"]),
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
        own = cmp.definition(metric)
        if own is not None:
            notes.append(f"{metric}: {own}")
        elif key[0] == "averages":
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
    lower = [m for m in cmp.metrics if not cmp.higher_is_better(m)]
    if lower and cmp.alternative != "two-sided":
        note += f"; for {', '.join(lower)} a lower score is the better one, so '{cmp.alternative}' concerns the loss"
    return note


def title_of(cmp: Comparison) -> str:
    """The title of a comparison's report."""
    first = cmp.first
    kind = KINDS[first.task]
    return (
        f"clfeval compare — {first.task}, {first.n_instances} {kind.instances}, {len(cmp.systems)} systems, "
        f"{len(first.labels)} {kind.label_word}"
    )


def _short_notes(cmp: Comparison) -> list[str]:
    """What moved a number, one line per choice: the label set, the test and its adjustment, the baseline, the
    intervals, β and 0/0 where they are not the defaults, and the test's own notes (exact enumeration …)."""
    first = cmp.first
    source = first.label_source
    meaning = (
        "every label that occurs in the gold data or in any system's predictions"
        if source == "union"
        else LABEL_SOURCES[source].split(" (")[0]
    )
    notes = [f"label set L ({source}): {meaning}"]
    test = TESTS[cmp.test]
    line = f"test: {test.title}, {cmp.alternative}"
    if cmp.rounds is not None and not all(p.exact for p in cmp.pairs):
        line += f", {cmp.rounds} rounds, seed {cmp.seed}"
    tested = {m: sum(1 for p in cmp.pairs if p.metric == m and not math.isnan(p.p_value)) for m in cmp.metrics}
    counts = sorted(set(tested.values()))
    line += (
        f"; Holm-adjusted over the {counts[0]} tested pairs of each metric"
        if len(counts) == 1
        else "; Holm-adjusted over each metric's tested pairs"
    )
    if cmp.unit != "instances":
        line += f"; units: {cmp.n_units} {cmp.unit}" if cmp.n_units is not None else f"; units: {cmp.unit}"
    notes.append(line)
    lower = [m for m in cmp.metrics if not cmp.higher_is_better(m)]
    if lower and cmp.alternative != "two-sided":
        notes.append(
            f"for {', '.join(lower)} a lower score is the better one, so '{cmp.alternative}' concerns the loss"
        )
    if cmp.baseline is not None:
        notes.append(f"comparisons: each system against the baseline {cmp.baseline!r} (d = system − baseline)")
    if cmp.ci != "none":
        notes.append(f"intervals of A − B: {100 * cmp.confidence:g}% paired bootstrap percentile intervals")
    if first.beta != 1:
        notes.append(f"β = {first.beta:g}")
    zd, policy = first.options.get("zero_division"), first.undefined_policy
    if zd != "0" or policy != "include":
        verb = "included in" if policy == "include" else "left out of"
        notes.append(f"0/0: set to {zd} and {verb} averages (--zero-division, --undefined)")
    notes += [f"{m}: {cmp.definition(m)}" for m in cmp.metrics if cmp.definition(m) is not None]
    notes += KINDS[first.task].option_notes(first.options) + _weight_notes(cmp)
    return notes + list(cmp.notes)


def _weight_notes(cmp: Comparison) -> list[str]:
    """The note that sample weights were used, when they were (inputs.sample_weight)."""
    from clfeval.count.weighted import weights_note

    summary = cmp.inputs.get("sample_weight") or cmp.first.inputs.get("sample_weight")
    return [weights_note(summary)] if summary else []


def comparison_report(cmp: Comparison, *, matrix: bool = True, measures: Any = None, verbose: bool = False) -> Report:
    """The tables and notes of a comparison report.

    Tables: each system's value of each metric; each pair's difference, interval (when asked),
    p-value and Holm-adjusted p-value; the ranking per metric with the differences that hold.
    Notes say the label set, the test, the adjustment and what else moved a number, one line each; with
    ``verbose``, they define the test, the alternative and every average used in full.
    """
    view = View.of(measures, verbose)
    scores = Table(
        "scores",
        ("system", *cmp.metrics),
        tuple((Label(s), *(cmp.score(s, m) for m in cmp.metrics)) for s in cmp.systems),
        "scores",
    )
    sign = _sign_table(cmp)
    tables = [scores, _pairs_table(cmp), *([sign] if sign is not None else []), _ranking_table(cmp)]
    tested = {m: sum(1 for p in cmp.pairs if p.metric == m and not math.isnan(p.p_value)) for m in cmp.metrics}
    counts = sorted(set(tested.values()))
    family = (
        f"the {counts[0]} tested comparison(s) of each metric"
        if len(counts) == 1
        else "the tested comparisons of each metric (" + ", ".join(f"{m}: {n}" for m, n in tested.items()) + ")"
    )
    notes = _short_notes(cmp) if not view.verbose else _full_notes(cmp, family)
    return Report(
        title_of(cmp),
        tuple(tables),
        tuple(cmp.warnings),
        tuple(notes),
        partial(comparison_rows, cmp),
        build_page=partial(comparison_page, cmp),
    )


def _full_notes(cmp: Comparison, family: str) -> list[str]:
    """The full notes (``verbose``): N and the label set, the test, the alternative, the comparisons and the
    adjustment, the intervals, each average's definition, β and 0/0, the test's notes and the inputs."""
    first = cmp.first
    comparisons = (
        f"each system against the baseline {cmp.baseline!r}" if cmp.baseline is not None else "every pair of systems"
    )
    seen = (
        ", taken from the gold labels and every system's predictions" if first.label_source in ("union", "gold") else ""
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
    notes += _weight_notes(cmp) + list(cmp.notes)
    if cmp.inputs:
        notes.append("inputs: " + ", ".join(f"{k}={v}" for k, v in cmp.inputs.items()))
    return notes
