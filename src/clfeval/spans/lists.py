"""Spans given in memory: lists of tag lists (Hugging Face style), or lists of entity lists, one per sentence →
:class:`~clfeval.spans.TagSequences` or :class:`~clfeval.spans.SpanLists`.

An entity is a mapping with ``start``, ``end`` and ``type`` (or ``label``), or a tuple ``(start, end, type)``; ``end``
is one past its last token (``start <= i < end``), as Python slices are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError
from clfeval.spans.sequences import SpanLists, TagSequences

__all__ = ["columns_of_lists", "is_entity"]


def is_entity(item: object) -> bool:
    """Whether ``item`` is an entity (a mapping with ``start``, or a 3-tuple) rather than a tag."""
    return isinstance(item, Mapping) or (isinstance(item, (tuple, list)) and len(item) == 3)


def _sentences(column: Any, role: str) -> list[Sequence[Any]]:
    if isinstance(column, (str, bytes)) or (
        not isinstance(column, Sequence | np.ndarray) and not hasattr(column, "__iter__")
    ):
        raise OptionError(
            f"spans: {role} is one list per sentence (of tags, or of entities), not {type(column).__name__}"
        )
    out: list[Sequence[Any]] = list(column)
    for i, sentence in enumerate(out):
        if isinstance(sentence, (str, bytes)):
            raise InputError(f"a sentence is a list of tags or of entities, not the string {sentence!r}", role, index=i)
        if not isinstance(sentence, (list, tuple)):  # lists are read as they are; other sequences once
            out[i] = list(sentence)
    return out


def _entity(item: Any, role: str, sentence: int) -> tuple[int, int, str]:
    if isinstance(item, Mapping):
        kind = item.get("type", item.get("label"))
        start, end = item.get("start"), item.get("end")
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        start, end, kind = item
    else:
        raise InputError(
            f"an entity is {{'start', 'end', 'type'}} or (start, end, type), not {item!r}", role, index=sentence
        )
    if not (isinstance(start, (int, np.integer)) and isinstance(end, (int, np.integer))) or isinstance(start, bool):
        raise InputError(
            f"an entity's start and end are token positions, not {start!r} and {end!r}", role, index=sentence
        )
    if not 0 <= start < end:
        raise InputError(
            f"an entity must hold a token: 0 <= start < end (end is one past its last token), found start {start}, "
            f"end {end}",
            role,
            index=sentence,
        )
    if not isinstance(kind, str) or not kind:
        raise InputError(f"an entity's type is a non-empty string, not {kind!r}", role, index=sentence)
    return int(start), int(end), kind


def columns_of_lists(columns: Sequence[Any], roles: Sequence[str]) -> TagSequences | SpanLists:
    """Gold and predictions in memory (``columns[0]`` gold), one list per sentence: tag lists → TagSequences, entity
    lists → SpanLists. Every column must hold as many sentences (and, for tags, as many tokens per sentence) as gold."""
    sentences = [_sentences(c, role) for c, role in zip(columns, roles)]
    n = len(sentences[0])
    for s, role in zip(sentences[1:], roles[1:]):
        if len(s) != n:
            raise InputError(f"{len(s)} sentences, but gold has {n}", role)
    first = next((item for col in sentences for sent in col for item in sent), None)
    if first is not None and is_entity(first):
        out = []
        for col, role in zip(sentences, roles):
            parts = [(i, _entity(item, role, i)) for i, sent in enumerate(col) for item in sent]
            out.append(
                (
                    np.array([i for i, _ in parts], dtype=np.int64),
                    np.array([e[0] for _, e in parts], dtype=np.int64),
                    np.array([e[1] for _, e in parts], dtype=np.int64),
                    np.array([e[2] for _, e in parts], dtype=object),
                )
            )
        return SpanLists(tuple(out), n)
    lengths = np.array([len(s) for s in sentences[0]], dtype=np.int64)
    for col, role in zip(sentences[1:], roles[1:]):
        other = np.array([len(s) for s in col], dtype=np.int64)
        if not np.array_equal(other, lengths):
            i = int(np.argmax(other != lengths))
            raise InputError(f"{int(other[i])} tags, but the gold sentence has {int(lengths[i])}", role, index=i)
    import polars as pl

    columns = []
    for col, role in zip(sentences, roles):  # the tags as one string column (polars builds it; no Python per tag)
        flat = list(chain.from_iterable(col))
        try:
            series = pl.Series(role, flat, dtype=pl.String, strict=True)
        except (TypeError, pl.exceptions.PolarsError):
            series = None
        if series is None or series.null_count():
            i = next(i for i, tag in enumerate(flat) if not isinstance(tag, str))
            where = int(np.searchsorted(np.cumsum(lengths), i, side="right"))
            raise InputError(f"a tag is a string, not {flat[i]!r} (or give entity lists)", role, index=where)
        columns.append(series)
    vocab = pl.concat(columns).unique(maintain_order=True).to_list()
    mapping = {tag: i for i, tag in enumerate(vocab)}
    ids = tuple(
        c.replace_strict(mapping, return_dtype=pl.Int32).to_numpy() if len(c) else np.zeros(0, dtype=np.int32)
        for c in columns
    )
    offsets = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    return TagSequences(tuple(vocab), ids, offsets, sources=tuple(roles))
