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
     "entries": [[0, 0, 5], [0, 1, 1], …],                          # …or (clfeval.counts/2) its non-zero cells
     "pairs": [[["A"], ["A", "B"], 3], …],                          # labelsets: [gold set, predicted set, count]
     "systems": ["X", "Y"], "rows": [["A", "A", "B", 4], …],        # joint: [gold, one per system …, count]
     "inputs": {…}, "options": {…}}                                  # provenance

A confusion over more than :data:`DENSE_COUNT_LABELS` labels is written as its non-zero cells,
``entries`` ([gold position, predicted position, count] into ``labels``), under the schema
``clfeval.counts/2``; everything else is written as ``clfeval.counts/1``, which earlier versions read.
This version reads both.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from clfeval._version import __version__
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, LabelSetCounts, canonical_set
from clfeval.count.limits import check_total, count_array, whole_count
from clfeval.errors import InputError

__all__ = ["COUNTS_SCHEMA", "SPARSE_COUNTS_SCHEMA", "Counts", "add_counts", "counts_from_dict", "counts_to_dict"]

#: The schema name and version of a count file.
COUNTS_SCHEMA = "clfeval.counts/1"
#: The schema of a count file whose confusion is written as its non-zero cells (``entries``).
SPARSE_COUNTS_SCHEMA = "clfeval.counts/2"
#: The schemas this version reads.
READ_SCHEMAS = (COUNTS_SCHEMA, SPARSE_COUNTS_SCHEMA)
#: The most labels of a confusion written as a dense table (``cells``), readable by every version.
DENSE_COUNT_LABELS = 100

Counts = ConfusionCounts | LabelSetCounts | JointCounts


def counts_to_dict(
    counts: Counts, *, inputs: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``clfeval.counts/1`` document of ``counts`` (see the module docstring)."""
    doc: dict[str, Any] = {"schema": COUNTS_SCHEMA, "clfeval_version": __version__}
    if isinstance(counts, ConfusionCounts):
        doc.update(kind="confusion", multilabel=False, n_instances=counts.n_instances, labels=list(counts.labels))
        if len(counts.labels) <= DENSE_COUNT_LABELS:
            doc["cells"] = counts.cells.tolist()
        else:
            doc["schema"] = SPARSE_COUNTS_SCHEMA
            doc["entries"] = [list(e) for e in zip(counts.gold.tolist(), counts.pred.tolist(), counts.count.tolist())]
    elif isinstance(counts, LabelSetCounts):
        doc.update(
            kind="labelsets",
            multilabel=True,
            duplicates=counts.duplicates,
            empty=counts.empty,
            n_instances=counts.n_instances,
            pairs=[[list(g), list(p), c] for (g, p), c in counts.pairs.items()],
        )
    elif isinstance(counts, JointCounts):
        doc.update(
            kind="joint",
            multilabel=counts.multilabel,
            n_instances=counts.n_instances,
            systems=list(counts.systems),
            rows=[[list(v) if counts.multilabel else v for v in row] + [c] for row, c in counts.rows.items()],
        )
        if counts.multilabel:
            doc.update(duplicates=counts.duplicates, empty=counts.empty)
    else:
        raise TypeError(f"not counts: {type(counts).__name__}")
    doc["inputs"] = dict(inputs or {})
    doc["options"] = dict(options or {})
    return doc


def _labels(value: Any, source: str, what: str, distinct: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{what} must be a list of labels (strings), found {_json(value)}", source)
    if distinct and len(set(value)) != len(value):
        repeated = sorted({v for v in value if value.count(v) > 1})
        raise InputError(f"{what}: {', '.join(map(repr, repeated))} repeated; each label may appear once", source)
    return tuple(value)


def _json(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _policy(doc: Mapping[str, Any], name: str, valid: Mapping[str, str], source: str) -> str:
    value = doc.get(name, next(iter(valid)))
    if value not in valid:
        raise InputError(f"{name} must be {' or '.join(map(repr, valid))}, found {_json(value)}", source)
    return str(value)


def counts_from_dict(doc: Any, source: str = "counts") -> Counts:
    """The counts held by a ``clfeval.counts/1`` document; ``source`` names it in errors.

    Every count must be a whole number ≥ 0 (``2.0`` is taken as 2), the counts and their total at
    most 2⁵³ (:mod:`clfeval.count.limits`); labels are strings, distinct in ``labels``;
    ``n_instances``, when present, must equal the total.

    Raises
    ------
    InputError
        If the document is not a count file of a schema version this clfeval reads, or is malformed
        (the message names the field, e.g. ``cells[0][1] is 2.5: expected a whole number``).
    """
    if not isinstance(doc, dict) or not str(doc.get("schema", "")).startswith("clfeval.counts/"):
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise InputError(
            f"is not a clfeval count file: expected schema {COUNTS_SCHEMA!r}, found {found!r} "
            "(write one with `clfeval count`)",
            source,
        )
    if doc["schema"] not in READ_SCHEMAS:
        raise InputError(
            f"has schema {doc['schema']!r}; this clfeval reads {' and '.join(map(repr, READ_SCHEMAS))}", source
        )
    kind = doc.get("kind")
    try:
        counts = _counts_of_kind(doc, kind, source)
    except KeyError as exc:
        raise InputError(f"a {kind} count file needs the field {exc.args[0]!r}", source) from None
    except InputError as exc:
        if exc.source is not None:
            raise
        raise InputError(exc.message, source) from None
    if "n_instances" in doc:
        stated = whole_count(doc["n_instances"], "n_instances", source)
        if stated != counts.n_instances:
            raise InputError(
                f"n_instances is {stated:,} but the counts add up to {counts.n_instances:,}: the file "
                "was changed by hand or cut short",
                source,
            )
    return counts


def _counts_of_kind(doc: Mapping[str, Any], kind: Any, source: str) -> Counts:
    if kind == "confusion":
        if doc.get("multilabel", False) is not False:
            raise InputError(
                f"a confusion count file holds single-label counts: multilabel must be false, found "
                f"{_json(doc.get('multilabel'))}",
                source,
            )
        labels = _labels(doc["labels"], source, "labels", distinct=True)
        if "entries" in doc and doc["schema"] == SPARSE_COUNTS_SCHEMA:
            return _entries(doc["entries"], labels, source)
        cells = doc["cells"]
        if (
            not isinstance(cells, list)
            or len(cells) != len(labels)
            or not all(isinstance(row, list) and len(row) == len(labels) for row in cells)
        ):
            raise InputError(
                f"cells must be a {len(labels)}×{len(labels)} table of counts (a list of "
                f"{len(labels)} rows of {len(labels)}), one row and column per label",
                source,
            )
        return ConfusionCounts(labels, count_array(cells, "cells", source))
    if kind == "labelsets":
        duplicates = _policy(doc, "duplicates", DUPLICATE_POLICIES, source)
        empty = _policy(doc, "empty", EMPTY_POLICIES, source)
        pairs: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        for i, item in enumerate(_list(doc["pairs"], "pairs", source)):
            if not isinstance(item, list) or len(item) != 3:
                raise InputError(
                    f"pairs[{i}] must be [gold labels, predicted labels, count], found {_json(item)}", source
                )
            key = (
                _set(item[0], source, f"pairs[{i}][0]", duplicates, empty),
                _set(item[1], source, f"pairs[{i}][1]", duplicates, empty),
            )
            pairs[key] = pairs.get(key, 0) + whole_count(item[2], f"pairs[{i}][2]", source)
        check_total(sum(pairs.values()), "the pairs' counts add up to", source)
        return LabelSetCounts(pairs, duplicates, empty)
    if kind == "joint":
        systems = _labels(doc["systems"], source, "systems", distinct=True)
        multilabel = doc.get("multilabel", False)
        if not isinstance(multilabel, bool):
            raise InputError(f"multilabel must be true or false, found {_json(multilabel)}", source)
        duplicates = _policy(doc, "duplicates", DUPLICATE_POLICIES, source)
        empty = _policy(doc, "empty", EMPTY_POLICIES, source)
        rows: dict[tuple[Any, ...], int] = {}
        for i, item in enumerate(_list(doc["rows"], "rows", source)):
            if not isinstance(item, list) or len(item) != len(systems) + 2:
                raise InputError(
                    f"rows[{i}] must be [gold, a prediction per system ({len(systems)}), count], found {_json(item)}",
                    source,
                )
            values = tuple(
                _set(v, source, f"rows[{i}][{j}]", duplicates, empty) if multilabel else v
                for j, v in enumerate(item[:-1])
            )
            if not multilabel and not all(isinstance(v, str) for v in values):
                raise InputError(f"rows[{i}] must hold labels (strings), found {_json(item)}", source)
            rows[values] = rows.get(values, 0) + whole_count(item[-1], f"rows[{i}][{len(item) - 1}]", source)
        check_total(sum(rows.values()), "the rows' counts add up to", source)
        return JointCounts(systems, rows, multilabel, duplicates, empty)
    raise InputError(f"kind must be confusion, labelsets or joint, found {_json(kind)}", source)


def _set(value: Any, source: str, what: str, duplicates: str, empty: str) -> tuple[str, ...]:
    """A label set of a count file in its canonical form under the file's own policies: sorted, repeats kept or
    collapsed, the empty set NONE when it is a label (a hand-edited file may hold another form of it)."""
    try:
        return canonical_set(_labels(value, source, what), duplicates, empty)
    except InputError as exc:
        raise InputError(f"{what}: {exc.message}", source) from None


def _entries(value: Any, labels: tuple[str, ...], source: str) -> ConfusionCounts:
    """A confusion from its non-zero cells ``[[gold position, predicted position, count], …]``."""
    entries = _list(value, "entries", source)
    k = len(labels)
    for i, item in enumerate(entries):
        if (
            not isinstance(item, list)
            or len(item) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) for v in item[:2])
            or not (0 <= item[0] < k and 0 <= item[1] < k)
        ):
            raise InputError(
                f"entries[{i}] must be [gold position, predicted position, count] with positions from 0 to {k - 1} "
                f"(into labels), found {_json(item)}",
                source,
            )
    counts = count_array([item[2] for item in entries], "the counts of entries", source)
    table = np.array([item[:2] for item in entries], dtype=np.int64).reshape(-1, 2)
    distinct, times = np.unique(table[:, 0] * k + table[:, 1], return_counts=True)
    if (times > 1).any():
        g, p = divmod(int(distinct[np.argmax(times > 1)]), k)
        raise InputError(f"entries holds the cell [{g}, {p}] more than once; each cell may appear once", source)
    return ConfusionCounts.from_entries(labels, table[:, 0], table[:, 1], counts, source=source)


def _list(value: Any, what: str, source: str) -> list[Any]:
    if not isinstance(value, list):
        raise InputError(f"{what} must be a list, found {_json(value)}", source)
    return value


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
    return f"joint counts of systems {', '.join(signature[1])}" + (
        f" (multi-label, duplicates={signature[3]}, empty={signature[4]})" if signature[2] else ""
    )


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
            raise InputError(
                f"holds {_describe(_signature(counts))}, which cannot be added to the "
                f"{_describe(_signature(total))} of {first_name}",
                name,
            )
        check_total(total.n_instances + counts.n_instances, "with the files before it, the counts add up to", name)
        total = total + counts
    return total
