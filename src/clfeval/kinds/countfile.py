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

Each kind of counts writes and reads its own fields (:meth:`clfeval.kinds.Kind.to_document`,
:meth:`~clfeval.kinds.Kind.from_document`: the ``kind`` field names it); this module checks what every count file
shares — its schema, its total — and adds count files up.

A confusion over more than :data:`DENSE_COUNT_LABELS` labels is written as its non-zero cells,
``entries`` ([gold position, predicted position, count] into ``labels``), under the schema
``clfeval.counts/2``; everything else is written as ``clfeval.counts/1``, which earlier versions read.
This version reads both.

Counts kept by group (``clfeval count --group-col``) are one document whose groups each hold the kind's own count
document, so that count files of parts add up group by group::

    {"schema": "clfeval.counts/1", "clfeval_version": "…",
     "group_columns": ["lang"], "n_instances": 1234,
     "groups": [{"name": "de", "values": {"lang": "de"}, "counts": {"schema": …, "kind": "confusion", …}}, …],
     "inputs": {…}, "options": {…}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval._version import __version__
from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, canonical_set
from clfeval.count.limits import check_total, whole_count
from clfeval.errors import InputError
from clfeval.kinds.kind import KINDS, Counts, document_kind, kind_of

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

__all__ = [
    "COUNTS_SCHEMA",
    "DENSE_COUNT_LABELS",
    "READ_SCHEMAS",
    "SPARSE_COUNTS_SCHEMA",
    "add_counts",
    "counts_from_dict",
    "counts_to_dict",
    "grouped_from_dict",
    "grouped_to_dict",
    "is_grouped",
    "doc_labels",
    "doc_list",
    "doc_policy",
    "doc_set",
    "shown_json",
]

#: The schema name and version of a count file.
COUNTS_SCHEMA = "clfeval.counts/1"
#: The schema of a count file whose confusion is written as its non-zero cells (``entries``).
SPARSE_COUNTS_SCHEMA = "clfeval.counts/2"
#: The schemas this version reads.
READ_SCHEMAS = (COUNTS_SCHEMA, SPARSE_COUNTS_SCHEMA)
#: The most labels of a confusion written as a dense table (``cells``), readable by every version.
DENSE_COUNT_LABELS = 100


def counts_to_dict(
    counts: Counts, *, inputs: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``clfeval.counts/1`` document of ``counts`` (see the module docstring).

    Raises
    ------
    TypeError
        If ``counts`` are not counts of a registered kind.
    OptionError
        If their kind has no count file (finagle's confidences).
    """
    kind = kind_of(counts)
    if kind is None:
        raise TypeError(f"not counts: {type(counts).__name__}")
    doc: dict[str, Any] = {"schema": COUNTS_SCHEMA, "clfeval_version": __version__}
    doc.update(kind.to_document(counts))
    doc["inputs"] = dict(inputs or {})
    doc["options"] = dict(options or {})
    return doc


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
    if is_grouped(doc):
        raise InputError(
            f"holds counts by group (group columns {shown_json(doc.get('group_columns'))}): add it only to count files "
            "by the same group columns",
            source,
        )
    if doc["schema"] not in READ_SCHEMAS:
        raise InputError(
            f"has schema {doc['schema']!r}; this clfeval reads {' and '.join(map(repr, READ_SCHEMAS))}", source
        )
    name = doc.get("kind")
    kind = document_kind(name)
    if kind is None:
        known = [k.document for k in KINDS.values() if k.document is not None]
        shown = ", ".join(known[:-1]) + f" or {known[-1]}" if len(known) > 1 else "".join(known)
        raise InputError(f"kind must be {shown}, found {shown_json(name)}", source)
    try:
        counts: Counts = kind.from_document(doc, source)
    except KeyError as exc:
        raise InputError(f"a {name} count file needs the field {exc.args[0]!r}", source) from None
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
    held = doc.get("inputs", {}).get("sample_weight") if isinstance(doc.get("inputs"), dict) else None
    named = held.get("source") if isinstance(held, dict) else None
    if isinstance(named, str) and (kind.sample_weights or getattr(counts, "weighted", False)):
        counts.__dict__["weight_source"] = named  # where the weights were read (a column): named when scored
    return counts


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
    first_kind = kind_of(total)
    assert first_kind is not None
    for name, counts in parts[1:]:
        kind = kind_of(counts)
        assert kind is not None
        if kind.merge_signature(counts) != first_kind.merge_signature(total):
            raise InputError(
                f"holds {kind.describe(counts)}, which cannot be added to the "
                f"{first_kind.describe(total)} of {first_name}",
                name,
            )
        check_total(total.n_instances + counts.n_instances, "with the files before it, the counts add up to", name)
        total = first_kind.merge(total, counts)
    return total


def is_grouped(doc: Any) -> bool:
    """Whether a count document holds counts by group (a ``groups`` field)."""
    return isinstance(doc, dict) and "groups" in doc


def grouped_to_dict(
    columns: Sequence[str],
    groups: Mapping[str, Counts],
    values: Mapping[str, Sequence[str]],
    *,
    inputs: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The count document of counts by group: the group columns, and each group's name, its value in each column
    and its counts as their own count document (:func:`counts_to_dict`), in group order."""
    return {
        "schema": COUNTS_SCHEMA,
        "clfeval_version": __version__,
        "group_columns": list(columns),
        "n_instances": sum(c.n_instances for c in groups.values()),
        "groups": [
            {
                "name": name,
                "values": dict(zip(columns, values[name])),
                "counts": {k: v for k, v in counts_to_dict(counts).items() if k not in ("inputs", "options")},
            }
            for name, counts in groups.items()
        ],
        "inputs": dict(inputs or {}),
        "options": dict(options or {}),
    }


def grouped_from_dict(
    doc: Any, source: str = "counts"
) -> tuple[tuple[str, ...], dict[str, Counts], dict[str, tuple[str, ...]]]:
    """The group columns, each group's counts and each group's values of a document of counts by group
    (:func:`grouped_to_dict`); each group's counts checked as a count file is (:func:`counts_from_dict`).

    Raises
    ------
    InputError
        Naming the file and the field: not a list of groups, a group without its name, values or counts, values
        that are not one string per group column, a name twice, or groups of different kinds.
    """
    columns = doc.get("group_columns")
    if not isinstance(columns, list) or not columns or not all(isinstance(c, str) for c in columns):
        raise InputError(f"group_columns must be a list of column names, found {shown_json(columns)}", source)
    entries = doc_list(doc.get("groups"), "groups", source)
    if not entries:
        raise InputError("groups is empty: counts by group hold at least one group", source)
    groups: dict[str, Counts] = {}
    values: dict[str, tuple[str, ...]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not {"name", "values", "counts"} <= entry.keys():
            raise InputError(f"groups[{i}] must hold name, values and counts, found {shown_json(entry)}", source)
        name, given = entry["name"], entry["values"]
        if not isinstance(name, str) or name in groups:
            raise InputError(f"groups[{i}].name must be a new group name (a string), found {shown_json(name)}", source)
        if not isinstance(given, dict) or list(given) != columns or not all(isinstance(v, str) for v in given.values()):
            raise InputError(
                f"groups[{i}].values must give a string for each of group_columns {columns}, found {shown_json(given)}",
                source,
            )
        try:
            counts = counts_from_dict(entry["counts"], source)
        except InputError as exc:
            raise InputError(f"groups[{i}] ({name!r}): {exc.message}", source) from None
        groups[name], values[name] = counts, tuple(given.values())
    held = doc.get("inputs", {}).get("sample_weight") if isinstance(doc.get("inputs"), dict) else None
    named = held.get("source") if isinstance(held, dict) else None
    for counts in groups.values():  # the column the weights were read from, named when scored (as a count file's)
        kind = kind_of(counts)
        if isinstance(named, str) and kind is not None and (kind.sample_weights or getattr(counts, "weighted", False)):
            counts.__dict__["weight_source"] = named
    add_counts([(f"{source} group {n!r}", c) for n, c in groups.items()])  # one kind, counted alike
    if "n_instances" in doc:
        stated = whole_count(doc["n_instances"], "n_instances", source)
        total = sum(c.n_instances for c in groups.values())
        if stated != total:
            raise InputError(
                f"n_instances is {stated:,} but the groups' counts add up to {total:,}: the file was changed by hand "
                "or cut short",
                source,
            )
    return tuple(columns), groups, values


# -- what the kinds' documents share ------------------------------------------------------------------------------


def shown_json(value: Any) -> str:
    """A document's value as JSON, cut to 60 characters, for a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def doc_labels(value: Any, source: str, what: str, distinct: bool = False) -> tuple[str, ...]:
    """A document's list of labels (strings; ``distinct``: each once)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{what} must be a list of labels (strings), found {shown_json(value)}", source)
    if distinct and len(set(value)) != len(value):
        repeated = sorted({v for v in value if value.count(v) > 1})
        raise InputError(f"{what}: {', '.join(map(repr, repeated))} repeated; each label may appear once", source)
    return tuple(value)


def doc_policy(doc: Mapping[str, Any], name: str, valid: Mapping[str, str], source: str) -> str:
    """A document's counting option ``name`` (default: the first of ``valid``), one of ``valid``."""
    value = doc.get(name, next(iter(valid)))
    if value not in valid:
        raise InputError(f"{name} must be {' or '.join(map(repr, valid))}, found {shown_json(value)}", source)
    return str(value)


def doc_policies(doc: Mapping[str, Any], source: str) -> tuple[str, str]:
    """A document's multi-label counting options: duplicates and empty."""
    return doc_policy(doc, "duplicates", DUPLICATE_POLICIES, source), doc_policy(doc, "empty", EMPTY_POLICIES, source)


def doc_set(value: Any, source: str, what: str, duplicates: str, empty: str) -> tuple[str, ...]:
    """A label set of a count file in its canonical form under the file's own policies: sorted, repeats kept or
    collapsed, the empty set NONE when it is a label (a hand-edited file may hold another form of it)."""
    try:
        return canonical_set(doc_labels(value, source, what), duplicates, empty)
    except InputError as exc:
        raise InputError(f"{what}: {exc.message}", source) from None


def doc_list(value: Any, what: str, source: str) -> list[Any]:
    """A document's field that must be a list."""
    if not isinstance(value, list):
        raise InputError(f"{what} must be a list, found {shown_json(value)}", source)
    return value


def units_document(blocks: Blocks, keys: Sequence[tuple[Any, ...]]) -> list[list[Any]]:
    """The units (sentences, documents) of a count file as their distinct count vectors: ``[[[row position, count], …],
    how many units], …]``, the positions those of ``keys`` (the document's rows or pairs, in order)."""
    from clfeval.infer.units import signatures

    index = {tuple(k): i for i, k in enumerate(keys)}
    item = np.array([index[tuple(k)] for k in blocks.keys], dtype=np.int64)[blocks.row]
    unit, row, count, multiplicity = signatures(blocks.block, item, blocks.count)
    out: list[list[Any]] = [[[], int(m)] for m in multiplicity.tolist()]
    for u, r, c in zip(unit.tolist(), row.tolist(), count.tolist()):
        out[u][0].append([r, c])
    empty = blocks.n_blocks - int(multiplicity.sum())
    if empty > 0:
        out.append([[], empty])  # units without a span
    return out


def units_of(value: Any, keys: Sequence[tuple[Any, ...]], unit: str, source: str) -> Blocks:
    """The units a count file's ``units`` field holds (:func:`units_document`), as blocks over ``keys``."""
    from clfeval.count.blocks import Blocks

    entries = doc_list(value, "units", source)
    row, block, count = [], [], []
    n = 0
    for i, item in enumerate(entries):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list)):
            raise InputError(
                f"units[{i}] must be [[[row position, count], …], how many units], found {shown_json(item)}", source
            )
        times = whole_count(item[1], f"units[{i}][1]", source)
        for r, c in item[0]:
            if not (isinstance(r, int) and 0 <= r < len(keys)):
                raise InputError(f"units[{i}] names the row {shown_json(r)}; there are {len(keys)}", source)
            row += [r] * times
            block += list(range(n, n + times))
            count += [whole_count(c, f"units[{i}]", source)] * times
        n += times
    return Blocks(
        tuple(keys),
        np.array(row, dtype=np.int64),
        np.array(block, dtype=np.int64),
        np.array(count, dtype=np.int64),
        n,
        unit,
    )
