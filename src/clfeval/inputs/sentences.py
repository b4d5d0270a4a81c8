"""JSON Lines of sentences, for spans: one object per line, a field holding the sentence's tags (a list of strings) or
its entities (a list of ``{"start", "end", "type"}`` objects, ``end`` one past the last token) per column.

::

    {"tokens": ["Anna", "met", "Jan"], "gold": ["B-PER", "O", "B-PER"], "pred": ["B-PER", "O", "O"]}

The fields are chosen as columns are (``--gold-col``, ``--pred-col``: a name, or a number among the fields in order;
default the last two); a gold file and prediction files may each hold one such field. polars parses the file; the
tags become codes with array operations (no Python per token), entities go through
:func:`clfeval.spans.lists.columns_of_lists`. Every sentence is a unit (JSON Lines have no ``-DOCSTART-``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import Meter, read_bytes
from clfeval.inputs.columns import Column, resolve_column

__all__ = ["SentenceField", "count_sentence_files"]


class SentenceField:
    """One column of a JSON Lines file of sentences: the file, the field (name or number) and its role."""

    def __init__(self, path: str, column: Column, role: str) -> None:
        self.path, self.column, self.role = path, column, role


def _frame(path: str, meter: Meter | None) -> pl.DataFrame:
    """The file parsed whole, read as every reader reads (a file that changes meanwhile is an error naming it)."""
    try:
        data = read_bytes(path, meter=meter)
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror}", path) from None
    try:
        return pl.read_ndjson(data)
    except Exception as exc:  # polars' parse errors: say which line
        import json

        for number, line in enumerate(data.splitlines(), start=1):
            try:
                json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(f"is not a JSON object: {err.msg}", path, number) from None
        raise InputError(f"is not JSON Lines of sentences: {str(exc).splitlines()[0]}", path) from None


def _field(frame: pl.DataFrame, field: SentenceField) -> pl.Series:
    names = frame.columns
    index = resolve_column(field.column, names, field.path, field.role)
    series = frame.get_column(names[index])
    if not isinstance(series.dtype, pl.List):
        raise InputError(
            f"the {field.role} field {names[index]!r} holds {series.dtype}, not a list of tags or of entities per "
            "sentence",
            field.path,
            1,
        )
    nulls = series.is_null()
    if nulls.any():
        raise InputError(
            f"the {field.role} field {names[index]!r} is missing", field.path, int(nulls.arg_max() or 0) + 1
        )
    return series


def count_sentence_files(
    fields: Sequence[SentenceField],
    scheme: str,
    *,
    unit: str = "auto",
    systems: Sequence[str] | None = None,
    meter: Meter | None = None,
    details: bool = True,
) -> tuple[Any, Any, dict[str, Any], Any]:
    """Count the spans of JSON Lines fields (gold first): as :func:`clfeval.inputs.conll.count_tag_files` returns
    them (counts or joint rows, blocks, what was read, what reading the tags found). ``meter`` is told the bytes
    and sentences read; ``details``: the partial-match modes and the span confusion are counted too."""
    from clfeval.spans.counts import SpanChecks
    from clfeval.spans.lists import columns_of_lists
    from clfeval.spans.sequences import TagSequences

    if unit == "documents":
        raise OptionError("--unit documents needs -DOCSTART- documents: JSON Lines of sentences have none")
    frames: dict[str, pl.DataFrame] = {}
    series = []
    for field in fields:
        if field.path not in frames:
            frames[field.path] = _frame(field.path, meter)
        series.append(_field(frames[field.path], field))
    n = len(series[0])
    if meter is not None:
        meter.add(rows=n)
    for field, s in zip(fields[1:], series[1:]):
        if len(s) != n:
            raise InputError(f"holds {len(s)} sentences, but the gold file {fields[0].path} holds {n}", field.path)
    inner = [s.dtype.inner for s in series]  # type: ignore[attr-defined]
    if all(isinstance(t, pl.Struct) for t in inner) or all(t == pl.Null for t in inner):
        found: Any = columns_of_lists([s.to_list() for s in series], [f"{f.path} ({f.role})" for f in fields])
    elif all(t in (pl.String, pl.Null) for t in inner):
        lengths = [s.list.len().to_numpy().astype(np.int64) for s in series]
        for field, length in zip(fields[1:], lengths[1:]):
            differ = np.flatnonzero(length != lengths[0])
            if len(differ):
                i = int(differ[0])
                raise InputError(
                    f"the sentence holds {int(length[i])} tags, but the gold sentence holds {int(lengths[0][i])}",
                    field.path,
                    i + 1,
                )
        tags = [s.explode().drop_nulls() for s in series]
        vocab = pl.concat(tags).unique(maintain_order=True)
        index = {tag: i for i, tag in enumerate(vocab.to_list())}
        columns = tuple(t.replace_strict(index, return_dtype=pl.Int32).to_numpy() for t in tags)
        offsets = np.r_[0, np.cumsum(lengths[0])].astype(np.int64)
        found = TagSequences(tuple(index), columns, offsets, sources=tuple(f.path for f in fields))
    else:
        shown = ", ".join(sorted({str(t) for t in inner}))
        raise InputError(
            f"the fields hold lists of {shown}: give tags (strings) or entities in every field", fields[0].path
        )
    read = {"n_sentences": n, "n_documents": 0, "unit": "sentences"}
    if systems is not None:
        rows, blocks, checks = found.count_systems(scheme, "sentences", systems)
        return rows, blocks, read, checks
    counts = found.count(scheme, "sentences", details=details)
    return counts, counts.blocks, read, SpanChecks()
