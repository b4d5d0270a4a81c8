"""The tables a span result shows beyond its scores: what was read (spans, tokens and conlleval.pl's token accuracy),
where the errors are (type against boundaries, per type), nervaluate's partial-match modes, and the invalid
transitions. They read the result's ``spans`` details (:func:`clfeval.kinds.spans.span_details`), as the JSON does.
"""

from __future__ import annotations

from typing import Any

from clfeval.report.tables import Label, Table
from clfeval.scoring.scores import Scores

__all__ = ["span_tables"]

#: The kinds of wrong span (as the span confusion tells them) and the error table's column for each, after
#: ``correct``.
ERROR_KINDS = {
    "type": "wrong type",
    "boundaries": "wrong boundaries",
    "type and boundaries": "both wrong",
    "missed": "missed",
    "spurious": "spurious",
}


def span_tables(scores: Scores) -> list[Table]:
    """The span tables of ``scores`` (a span result): what was read, the errors by kind and type, the partial-match
    modes and the invalid transitions (each only when there is something to show)."""
    from clfeval.kinds import KINDS

    details = KINDS[scores.task].details(scores.counts)
    if details is None:
        return []
    tables = [_read_table(details)]
    errors = _error_table(details)
    if errors is not None:
        tables.append(errors)
    modes = _modes_table(details)
    if modes is not None:
        tables.append(modes)
    transitions = _transition_table(details)
    if transitions is not None:
        tables.append(transitions)
    return tables


def _read_table(details: dict[str, Any]) -> Table:
    n = details["n_spans"]
    rows: list[tuple[Any, ...]] = [
        (Label("sentences"), details["n_sentences"]),
        (Label("documents (-DOCSTART- lines)"), details["n_documents"]),
        (Label("gold spans"), n["gold"]),
        (Label("predicted spans"), n["predicted"]),
        (Label("correct spans (exact)"), n["correct"]),
    ]
    tokens = details.get("tokens")
    title = f"spans read ({details['scheme']}; units: {details['unit']})"
    if tokens is not None:
        rows += [(Label("tokens"), tokens["tokens"]), (Label("token accuracy"), tokens["accuracy"])]
        if tokens["docstart_lines"]:
            rows.append((Label("conlleval.pl's token accuracy"), tokens["conlleval_accuracy"]))
            title += (
                f"; -DOCSTART- lines are not tokens, but conlleval.pl counts its {tokens['docstart_lines']} as tokens "
                "tagged right"
            )
    return Table(title, ("", "value"), tuple(rows), "read")


def _error_table(details: dict[str, Any]) -> Table | None:
    """Wrong spans per type, from the span confusion: a gold span paired with a predicted span of another type and the
    same boundaries is a type error, of its type and other boundaries a boundary error; a gold span with no overlapping
    predicted span is missed, a predicted span with no overlapping gold span spurious."""
    confusion = details.get("confusion")
    if confusion is None:
        return None
    none = "∅"
    per: dict[str, dict[str, int]] = {}
    for entry in confusion:
        g, p, exact, c = entry["gold"], entry["predicted"], entry["boundaries"] == "exact", entry["count"]
        if g == none:
            per.setdefault(p, {}).setdefault("spurious", 0)
            per[p]["spurious"] += c
            continue
        if p == none:
            what = "missed"
        elif g == p:
            what = "correct" if exact else "boundaries"
        else:
            what = "type" if exact else "type and boundaries"
        per.setdefault(g, {}).setdefault(what, 0)
        per[g][what] += c
    if not per:
        return None
    kinds = ("correct", *ERROR_KINDS)
    rows = [(Label(t), *(per[t].get(k, 0) for k in kinds)) for t in sorted(per)]
    rows.append((Label("all"), *(sum(per[t].get(k, 0) for t in per) for k in kinds)))
    return Table(
        "where the errors are (by gold type; spurious by predicted type): overlapping spans paired one to one; "
        "wrong type: same boundaries, another type; wrong boundaries: same type, other boundaries",
        ("type", "correct", *ERROR_KINDS.values()),
        tuple(rows),
        "span_errors",
    )


def _modes_table(details: dict[str, Any]) -> Table | None:
    modes = details.get("modes")
    if modes is None:
        return None
    rows = []
    for mode, per in modes.items():
        overall = per.get("*")
        if overall is None:
            continue
        rows.append(
            (
                Label(mode),
                *(overall[k] for k in ("correct", "incorrect", "partial", "missed", "spurious")),
                *(overall[k] for k in ("precision", "recall", "f1")),
            )
        )
    return Table(
        "partial-match modes (SemEval-2013, as nervaluate; partial credit ½ in partial and type modes)",
        ("mode", "correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "F1"),
        tuple(rows),
        "modes",
    )


def _transition_table(details: dict[str, Any]) -> Table | None:
    rows = [
        (Label(t["column"]), Label(t["kind"]), Label(t["where"][0] if t["where"] else ""), t["count"])
        for t in details.get("invalid_transitions", ())
        if t["count"]
    ]
    if not rows:
        return None
    return Table(
        "invalid transitions (counted, never repaired)",
        ("column", "transition", "first at", "count"),
        tuple(rows),
        "transitions",
        3,
    )
