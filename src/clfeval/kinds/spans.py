"""Spans of tagger output: :class:`~clfeval.spans.SpanCounts`, rows (gold type, predicted type) with ``∅`` for no span.

Scored with the single-label measures of the rows over the label set of types (``∅`` is never in it): per type
precision, recall and F of exact matches, and every average (micro is conlleval.pl's overall score). There are no true
negatives, so no measure that reads them (specificity, accuracy, MCC, κ …). Its units of resampling are sentences (or
documents), always: the counts carry them. Its matrix is the span confusion (gold type × predicted type of spans
that overlap); its count files are ``spans`` documents.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import MultiLabel
from clfeval.count.limits import whole_count
from clfeval.errors import InputError
from clfeval.kinds.countfile import doc_list, shown_json, units_document, units_of
from clfeval.kinds.kind import Kind, Row, register_kind
from clfeval.result import FrozenDict
from clfeval.spans.counts import SpanChecks, SpanCounts, TokenCounts
from clfeval.spans.matching import MODE_COUNTS, MODES
from clfeval.spans.schemes import SCHEMES
from clfeval.spans.tags import ENTITIES, NO_SPAN

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks
    from clfeval.scoring.cells import CellTypes

__all__ = ["Spans", "span_details"]

#: The scheme of span counts made from rows alone (a system's part of joint counts).
FROM_ROWS = "rows"


def span_details(counts: SpanCounts) -> dict[str, Any]:
    """What a span result says beyond its scores (the ``spans`` object of the JSON): the scheme, the units, the
    tag-level counts, invalid transitions, conlleval.pl's merges, the partial-match modes and the span confusion."""
    tokens = counts.tokens
    out: dict[str, Any] = {
        "scheme": counts.scheme,
        "unit": counts.unit,
        "n_sentences": counts.n_sentences,
        "n_documents": counts.n_documents,
        "n_spans": {
            "gold": sum(c for (g, _), c in counts.pairs.items() if g != NO_SPAN),
            "predicted": sum(c for (g, p), c in counts.pairs.items() if p != NO_SPAN),
            "correct": sum(c for (g, p), c in counts.pairs.items() if g == p),
        },
        "tokens": None,
        "invalid_transitions": [
            {
                "column": column,
                "kind": kind,
                "count": n,
                "where": [place for c, k, place in counts.sites if (c, k) == (column, kind)],
            }
            for (column, kind), n in counts.transitions.items()
        ],
        "merged": dict(counts.merged),
        "modes": None,
        "confusion": None,
    }
    if tokens is not None:
        out["tokens"] = {
            "tokens": tokens.tokens,
            "right": tokens.right,
            "accuracy": tokens.right / tokens.tokens if tokens.tokens else None,
            "docstart_lines": tokens.docstart,
            "conlleval_accuracy": (tokens.right + tokens.docstart) / (tokens.tokens + tokens.docstart)
            if tokens.tokens + tokens.docstart
            else None,
        }
    if counts.modes is not None:
        out["modes"] = {
            mode: {
                t: {**dict(zip(MODE_COUNTS, values)), **mode_scores(mode, values)}
                for t, values in counts.modes[mode].items()
            }
            for mode in MODES
        }
    if counts.confusion is not None:
        out["confusion"] = [
            {"gold": g, "predicted": p, "boundaries": b, "count": n} for (g, p, b), n in counts.confusion.items()
        ]
    return out


def mode_scores(mode: str, values: Sequence[int]) -> dict[str, float | None]:
    """Precision, recall and F1 of one mode's counts (SemEval-2013): P = (correct + ½ partial) / actual, R = (correct
    + ½ partial) / possible, actual = correct + incorrect + partial + spurious, possible = correct + incorrect +
    partial + missed; partial counts half in ``partial`` and ``type`` (where it is always 0), nothing elsewhere; 0/0 is
    ``None``."""
    correct, incorrect, partial, missed, spurious = values
    credit = correct + (0.5 * partial if mode in ("partial", "type") else 0)
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    p = credit / actual if actual else None
    r = credit / possible if possible else None
    f = None if p is None or r is None else (2 * p * r / (p + r) if p + r else 0.0)
    return {"precision": p, "recall": r, "f1": f}


def _column(column: str) -> str:
    if column == "gold":
        return "the gold column"
    return "the predicted column" if column == "pred" else f"the predictions of {column}"


def check_warnings(checks: SpanChecks | SpanCounts, scheme: str) -> list[str]:
    """The warnings of what reading tags found: spans merged by conlleval's rules, and invalid transitions per column
    with their kinds and the first place."""
    out = []
    for column, n in checks.merged.items():
        out.append(
            f"{n} span(s) of {_column(column)} merged with the span before (S- or B- after a span of the same type): "
            "conlleval.pl has no rule for S- and does not end a span at E-X B-X; for IOBES tags give --spans iobes"
        )
    by_column: dict[str, int] = {}
    for (column, _), n in checks.transitions.items():
        by_column[column] = by_column.get(column, 0) + n
    for column, n in by_column.items():
        if not n:
            continue
        kinds = [k for (c, k), m in checks.transitions.items() if c == column and m]
        what = "read by conlleval.pl's rules" if scheme == "conlleval" else "belong to no span (strict)"
        first = next((place for c, _, place in checks.sites if c == column), "")
        out.append(
            f"{n} invalid transition(s) in {_column(column)} ({'; '.join(kinds[:4])}{' …' if len(kinds) > 4 else ''}), "
            f"{what}; the first at {first}"
        )
    return out


class Spans(Kind):
    """Spans of tagger output against gold spans: :class:`~clfeval.spans.SpanCounts`, rows (gold type, predicted
    type), ``∅`` for no span, counted per sentence."""

    name: ClassVar[str] = "spans"
    accumulator: ClassVar[str | None] = "clfeval.accumulator.spans:SpanAccumulator"
    title: ClassVar[str] = "span counts"
    counts_type: ClassVar[type] = SpanCounts
    document: ClassVar[str | None] = "spans"
    family: ClassVar[str | None] = "spans"
    option_names: ClassVar[tuple[str, ...]] = ("scheme", "unit")
    formats: ClassVar[tuple[str, ...]] = ("conlleval",)
    instances: ClassVar[str] = "spans in gold or predictions"
    label_word: ClassVar[str] = "types"
    matrix_title: ClassVar[str] = "span confusion"
    matrix_cells: ClassVar[str] = (
        f"overlapping spans paired one to one, gold type (row) and predicted type (column); {NO_SPAN} opposite a span "
        "that overlaps none (missed in the column, spurious in the row); the diagonal holds pairs whose boundaries "
        "may differ"
    )
    report_tables: ClassVar[str | None] = "clfeval.report.spans:span_tables"
    headline: ClassVar[str] = "micro"
    needs_units: ClassVar[bool] = True
    nothing_to_score: ClassVar[str] = (
        ": every tag is O, so every span score is 0/0 (conlleval.pl prints 0.00 for them: --format conlleval gives "
        "its report)"
    )
    counted: ClassVar[str] = "makes fewer span errors (missed and spurious spans, fn + fp)"
    counted_metric: ClassVar[str] = "span_errors"
    counted_aliases: ClassVar[tuple[str, ...]] = ()
    counted_in_scores: ClassVar[bool] = False
    counted_higher_is_better: ClassVar[bool] = False
    counted_definition: ClassVar[str] = (
        "span errors per unit (sentence, or document with --unit documents): missed plus spurious spans (fn + fp) of "
        "every type, divided by the number of units; lower is better. It is not micro F: fewer errors can come with "
        "a lower F1 (a tagger that finds nothing makes no spurious span)"
    )

    def labels_seen(self, counts: SpanCounts) -> tuple[set[str], set[str]]:
        gold = {g for (g, _), c in counts.pairs.items() if g != NO_SPAN}
        pred = {p for (_, p), c in counts.pairs.items() if p != NO_SPAN}
        return gold, pred

    def options(self, counts: SpanCounts) -> dict[str, Any]:
        return {"scheme": counts.scheme, "unit": counts.unit}

    def option_notes(self, options: Mapping[str, Any]) -> list[str]:
        scheme = str(options.get("scheme"))
        if scheme in SCHEMES:
            return [f"spans: {scheme} ({SCHEMES[scheme].definition})"]
        if scheme == ENTITIES:
            return ["spans: given as lists (start, end, type); no tags to read"]
        return []

    def details(self, counts: SpanCounts) -> dict[str, Any]:
        return span_details(counts)

    def warnings(self, counts: SpanCounts) -> list[str]:
        return check_warnings(counts, counts.scheme)

    def units(self, counts: SpanCounts) -> Blocks | None:
        return counts.blocks

    def n_types(self, counts: SpanCounts) -> int:
        return len(counts.pairs)

    def rows(self, counts: SpanCounts) -> tuple[Sequence[Row], np.ndarray]:
        return list(counts.pairs), np.array(list(counts.pairs.values()), dtype=np.int64)

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> SpanCounts:
        # a system's part of joint rows: the other systems' spurious spans are nothing to this one
        return SpanCounts(FROM_ROWS, {(g, p): c for (g, p), c in rows.items() if (g, p) != (NO_SPAN, NO_SPAN)})

    def table(self, label_set: Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
        from clfeval.scoring.cells import table_order

        return (*table_order(label_set, [lab for lab in labels if lab != NO_SPAN]), NO_SPAN)

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        from clfeval.scoring.cells import CellTypes

        return CellTypes.single_label([r[0] for r in rows], [r[1] for r in rows], label_set, table)

    def matrix(self, counts: SpanCounts, label_set: Sequence[str], table: Sequence[str]) -> ConfusionCounts | None:
        if counts.confusion is None:
            return None
        labels = tuple(table)
        index = {lab: i for i, lab in enumerate(labels)}
        cells = np.zeros((len(labels), len(labels)), dtype=np.int64)
        for (g, p, _), n in counts.confusion.items():
            if g in index and p in index:
                cells[index[g], index[p]] += n
        return ConfusionCounts(labels, cells)

    def notes(self, counts: SpanCounts, label_set: Sequence[str], table: Sequence[str], seen: set[str]) -> list[str]:
        notes = [
            "spans: a span is right when its boundaries and type equal a gold span's (exact matching); per type "
            "P = tp/(tp + fp), R = tp/(tp + fn); micro is conlleval.pl's overall score; there are no true negatives",
        ]
        if counts.confusion is not None:
            notes.append(
                f"span confusion: spans that overlap, paired one to one (equal boundaries first, then the largest "
                f"overlap); {NO_SPAN} opposite a span that overlaps none; its diagonal counts pairs of one type "
                "whose boundaries may differ"
            )
        return notes

    def counted_value(self, right: int, n: int, n_units: int) -> float:
        # a row is a span right (g = p) or one error: missed (g, ∅) or spurious (∅, p)
        return (n - right) / n_units if n_units else math.nan

    def errors(self, counts: SpanCounts, label_set: Sequence[str]) -> int:
        inside = set(label_set)
        return sum(c for (g, p), c in counts.pairs.items() if g != p and (g in inside or p in inside))

    def to_document(self, counts: SpanCounts) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "kind": self.document,
            "multilabel": False,
            "scheme": counts.scheme,
            "unit": counts.unit,
            "n_instances": counts.n_instances,
            "n_sentences": counts.n_sentences,
            "n_documents": counts.n_documents,
            "pairs": [[g, p, c] for (g, p), c in counts.pairs.items()],
            "units": None,
            "tokens": None
            if counts.tokens is None
            else [counts.tokens.tokens, counts.tokens.right, counts.tokens.docstart],
            "transitions": [[column, kind, n] for (column, kind), n in counts.transitions.items()],
            "sites": [list(site) for site in counts.sites],
            "merged": dict(counts.merged),
            "modes": None
            if counts.modes is None
            else {m: {t: list(v) for t, v in per.items()} for m, per in counts.modes.items()},
            "confusion": None
            if counts.confusion is None
            else [[g, p, b, n] for (g, p, b), n in counts.confusion.items()],
        }
        if counts.blocks is not None:
            doc["units"] = units_document(counts.blocks, list(counts.pairs))
        return doc

    def from_document(self, doc: Mapping[str, Any], source: str) -> SpanCounts:
        pairs: dict[tuple[str, str], int] = {}
        for i, item in enumerate(doc_list(doc["pairs"], "pairs", source)):
            if not (isinstance(item, list) and len(item) == 3 and all(isinstance(x, str) for x in item[:2])):
                raise InputError(
                    f"pairs[{i}] must be [gold type, predicted type, count] ({NO_SPAN!r} for no span), found "
                    f"{shown_json(item)}",
                    source,
                )
            key = (item[0], item[1])
            pairs[key] = pairs.get(key, 0) + whole_count(item[2], f"pairs[{i}][2]", source)
        scheme = doc.get("scheme")
        if not isinstance(scheme, str):
            raise InputError(f"scheme must be a tagging scheme's name, found {shown_json(scheme)}", source)
        unit = doc.get("unit", "sentences")
        if unit not in ("sentences", "documents"):
            raise InputError(f"unit must be sentences or documents, found {shown_json(unit)}", source)
        keys = list(pairs)
        blocks = None if doc.get("units") is None else units_of(doc["units"], keys, unit, source)
        tokens = doc.get("tokens")
        try:
            return SpanCounts(
                scheme,
                pairs,
                blocks,
                unit,
                whole_count(doc.get("n_sentences", 0), "n_sentences", source),
                whole_count(doc.get("n_documents", 0), "n_documents", source),
                None if tokens is None else TokenCounts(*(whole_count(x, "tokens", source) for x in tokens)),
                FrozenDict({(c, k): whole_count(n, "transitions", source) for c, k, n in doc.get("transitions", [])}),
                tuple((str(c), str(k), str(w)) for c, k, w in doc.get("sites", [])),
                FrozenDict(doc.get("merged", {})),
                None
                if doc.get("modes") is None
                else FrozenDict(
                    {m: FrozenDict({t: tuple(v) for t, v in per.items()}) for m, per in doc["modes"].items()}
                ),
                None if doc.get("confusion") is None else FrozenDict({(g, p, b): n for g, p, b, n in doc["confusion"]}),
            )
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"not a span count file: {exc}", source) from None


SPANS = register_kind(Spans())
