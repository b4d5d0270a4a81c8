"""Count files: the sufficient statistics as a JSON document (``clfeval.counts/1``), the map-reduce contract.

Any engine, on any machine, can count a part of the data and write a count file; count files
add up in any order (labels aligned by name) to the counts of the whole, and everything
clfeval computes — scores, intervals, tests, cross-validation — follows from them.

The document::

    {"schema": "clfeval.counts/1", "clfeval_version": "…",
     "kind": "confusion" | "labelsets" | "joint",
     "multilabel": false, "duplicates": "keep", "empty": "ignore",   # the options that change counts
     "n_instances": 1234,
     "labels": ["A", "B"], "cells": [[5, 1], [2, 7]],              # confusion: cells[gold][predicted]
     "pairs": [[["A"], ["A", "B"], 3], …],                          # labelsets: [gold set, predicted set, count]
     "systems": ["X", "Y"], "rows": [["A", "A", "B", 4], …],        # joint: [gold, one per system …, count]
     "inputs": {…}, "options": {…}}                                  # provenance
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from clfeval._version import __version__
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.errors import InputError

__all__ = ["COUNTS_SCHEMA", "Counts", "add_counts", "counts_from_dict", "counts_to_dict"]

#: The schema name and version of a count file.
COUNTS_SCHEMA = "clfeval.counts/1"

Counts = ConfusionCounts | LabelSetCounts | JointCounts


def counts_to_dict(counts: Counts, *, inputs: Mapping[str, Any] | None = None,
                   options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``clfeval.counts/1`` document of ``counts`` (see the module docstring)."""
    doc: dict[str, Any] = {"schema": COUNTS_SCHEMA, "clfeval_version": __version__}
    if isinstance(counts, ConfusionCounts):
        doc.update(kind="confusion", multilabel=False, n_instances=counts.n_instances, labels=list(counts.labels),
                   cells=counts.cells.tolist())
    elif isinstance(counts, LabelSetCounts):
        doc.update(kind="labelsets", multilabel=True, duplicates=counts.duplicates, empty=counts.empty,
                   n_instances=counts.n_instances,
                   pairs=[[list(g), list(p), c] for (g, p), c in counts.pairs.items()])
    elif isinstance(counts, JointCounts):
        doc.update(kind="joint", multilabel=counts.multilabel, n_instances=counts.n_instances,
                   systems=list(counts.systems),
                   rows=[[list(v) if counts.multilabel else v for v in row] + [c] for row, c in counts.rows.items()])
        if counts.multilabel:
            doc.update(duplicates=counts.duplicates, empty=counts.empty)
    else:
        raise TypeError(f"not counts: {type(counts).__name__}")
    doc["inputs"] = dict(inputs or {})
    doc["options"] = dict(options or {})
    return doc


def _labels(value: Any, source: str, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{what} must be a list of labels (strings), found {value!r}", source)
    return tuple(value)


def _count(value: Any, source: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{what} must be a count (a whole number ≥ 0), found {value!r}", source)
    return value


def counts_from_dict(doc: Any, source: str = "counts") -> Counts:
    """The counts held by a ``clfeval.counts/1`` document; ``source`` names it in errors.

    Raises
    ------
    InputError
        If the document is not a count file of a schema version this clfeval reads, or is malformed.
    """
    if not isinstance(doc, dict) or not str(doc.get("schema", "")).startswith("clfeval.counts/"):
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise InputError(f"is not a clfeval count file: expected schema {COUNTS_SCHEMA!r}, found {found!r} "
                         "(write one with `clfeval count`)", source)
    if doc["schema"] != COUNTS_SCHEMA:
        raise InputError(f"has schema {doc['schema']!r}; this clfeval reads {COUNTS_SCHEMA!r}", source)
    kind = doc.get("kind")
    try:
        if kind == "confusion":
            labels = _labels(doc["labels"], source, "labels")
            cells = np.array(doc["cells"], dtype=np.int64)
            if cells.shape != (len(labels), len(labels)) or (cells < 0).any():
                raise InputError(f"cells must be a {len(labels)}×{len(labels)} table of counts", source)
            return ConfusionCounts(labels, cells)
        if kind == "labelsets":
            pairs: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
            for i, item in enumerate(doc["pairs"]):
                if not isinstance(item, list) or len(item) != 3:
                    raise InputError(f"pairs[{i}] must be [gold labels, predicted labels, count]", source)
                key = (_labels(item[0], source, f"pairs[{i}][0]"), _labels(item[1], source, f"pairs[{i}][1]"))
                pairs[key] = pairs.get(key, 0) + _count(item[2], source, f"pairs[{i}][2]")
            return LabelSetCounts(pairs, doc.get("duplicates", "keep"), doc.get("empty", "ignore"))
        if kind == "joint":
            systems = _labels(doc["systems"], source, "systems")
            multilabel = bool(doc.get("multilabel", False))
            rows: dict[tuple[Any, ...], int] = {}
            for i, item in enumerate(doc["rows"]):
                if not isinstance(item, list) or len(item) != len(systems) + 2:
                    raise InputError(f"rows[{i}] must be [gold, a prediction per system ({len(systems)}), count]",
                                     source)
                values = tuple(_labels(v, source, f"rows[{i}]") if multilabel else v for v in item[:-1])
                if not multilabel and not all(isinstance(v, str) for v in values):
                    raise InputError(f"rows[{i}] must hold labels (strings)", source)
                rows[values] = rows.get(values, 0) + _count(item[-1], source, f"rows[{i}][-1]")
            return JointCounts(systems, rows, multilabel, doc.get("duplicates", "keep"), doc.get("empty", "ignore"))
    except KeyError as exc:
        raise InputError(f"a {kind} count file needs the field {exc.args[0]!r}", source) from None
    raise InputError(f"kind must be confusion, labelsets or joint, found {kind!r}", source)


def _signature(counts: Counts) -> tuple[Any, ...]:
    if isinstance(counts, ConfusionCounts):
        return ("confusion",)
    if isinstance(counts, LabelSetCounts):
        return ("labelsets", counts.duplicates, counts.empty)
    return ("joint", counts.systems, counts.multilabel, counts.duplicates, counts.empty)


def _describe(signature: tuple[Any, ...]) -> str:
    if signature[0] == "confusion":
        return "single-label counts"
    if signature[0] == "labelsets":
        return f"multi-label counts (duplicates={signature[1]}, empty={signature[2]})"
    return (f"joint counts of systems {', '.join(signature[1])}"
            + (f" (multi-label, duplicates={signature[3]}, empty={signature[4]})" if signature[2] else ""))


def add_counts(parts: list[tuple[str, Counts]]) -> Counts:
    """Add named counts of parts: single-label tables aligned by label, label-set pairs and joint rows merged.

    Raises
    ------
    InputError
        If two parts were counted differently (single- vs multi-label, other multi-label options, other systems).
    """
    if not parts:
        raise InputError("no counts to add")
    first_name, total = parts[0]
    for name, counts in parts[1:]:
        if _signature(counts) != _signature(total):
            raise InputError(f"holds {_describe(_signature(counts))}, which cannot be added to the "
                             f"{_describe(_signature(total))} of {first_name}", name)
        total = total + counts  # type: ignore[operator]
    return total
