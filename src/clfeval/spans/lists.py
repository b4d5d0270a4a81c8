"""Spans given in memory: lists of tag lists (Hugging Face style), or lists of entity lists, one per sentence →
:class:`~clfeval.spans.TagSequences` or :class:`~clfeval.spans.SpanLists`; or a token classifier's tag ids, padded
with an ignored id (the Trainer's −100) → :class:`~clfeval.spans.TagSequences`, without a Python step per token.

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

__all__ = ["columns_of_ids", "columns_of_lists", "is_entity", "tag_scheme", "tags_hint"]


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


def tag_scheme(*columns: Any) -> str | None:
    """The scheme that sentences of tags in ``columns`` look written in (``iob2``, ``iob1``, ``iobes``, ``bilou``,
    ``ioe2``), or ``None`` when they do not look like tags: lists (or a 2-D array) of strings, each ``O`` or a
    one-letter prefix of :data:`~clfeval.spans.schemes.PREFIXES`, a dash and a type (``B-PER``), one at least with a
    prefix. Reads the first 1,000 sentences of each column; for the hint of an error message, not to score."""
    from clfeval.spans.schemes import PREFIXES

    prefixes: set[str] = set()
    for column in columns:
        if isinstance(column, (str, bytes)) or not isinstance(column, Sequence | np.ndarray):
            return None
        for sentence in list(column[:1000]):
            if isinstance(sentence, (str, bytes)) or not isinstance(sentence, Sequence | np.ndarray):
                return None
            for tag in list(sentence):
                if not isinstance(tag, str):
                    return None
                if tag == "O":
                    continue
                if len(tag) < 3 or tag[1] != "-" or tag[0] not in PREFIXES[1:]:
                    return None
                prefixes.add(tag[0])
    if not prefixes:
        return None
    if prefixes & {"L", "U"}:
        return "bilou"
    if "S" in prefixes or {"B", "E"} <= prefixes:
        return "iobes"
    if "E" in prefixes:
        return "ioe2"
    return "iob2" if "B" in prefixes else "iob1"


def tags_hint(*columns: Any) -> str | None:
    """What to pass when ``columns`` look like sentences of tags (:func:`tag_scheme`), for an error that refuses
    them as labels; ``None`` when they do not."""
    scheme = tag_scheme(*columns)
    if scheme is None:
        return None
    return (
        f"these look like sentences of tags: pass spans={scheme!r} to score their entities (spans='conlleval' for "
        "conlleval.pl's rules), not tokens"
    )


def columns_of_ids(gold: np.ndarray, pred: np.ndarray, tags: Sequence[str], ignore_index: int | None) -> TagSequences:
    """Gold and predicted tag ids of a token classifier, one row per sentence, as sentences of tags.

    Parameters
    ----------
    gold, pred
        (n, T) integer arrays: row i is sentence i, padded to T; ``pred`` may be (n, T, C) logits (their arg max).
    tags
        The tag of each id (``tags[j]`` for id j: the model config's ``id2label``).
    ignore_index
        The gold id of positions that are no token (the Trainer's −100: padding, a word's later sub-word pieces);
        they are left out of both columns, as the Hugging Face token-classification example does. ``None`` keeps all.

    Returns
    -------
    TagSequences
        Sentence i holds the kept positions of row i, in order (a sentence may be empty); the vocabulary is ``tags``.

    Raises
    ------
    InputError
        On shapes that do not match, ids that are not whole numbers, and an id outside 0 … len(tags) − 1 (naming
        the sentence).
    """
    if pred.ndim == gold.ndim + 1:
        if pred.shape[-1] != len(tags):
            raise InputError(f"logits of {pred.shape[-1]} classes for {len(tags)} tag names", "pred")
        if pred.dtype.kind == "f" and np.isnan(pred).any():
            raise InputError("the logits hold NaN (a diverged model?): no tag can be chosen", "pred")
        pred = pred.argmax(axis=-1)
    if gold.ndim != 2 or pred.shape != gold.shape:
        raise InputError(
            f"tag ids are (sentences, tokens) arrays, gold and predictions of one shape (or (n, T, C) logits): "
            f"gold {gold.shape}, pred {pred.shape}"
        )
    keep = np.ones(gold.shape, dtype=bool) if ignore_index is None else gold != ignore_index
    columns = []
    for role, ids in (("gold", gold), ("pred", pred)):
        kept = ids[keep]
        whole = np.issubdtype(kept.dtype, np.integer) or (kept.dtype.kind == "f" and np.all(np.mod(kept, 1) == 0))
        if kept.size and not whole:
            raise InputError("tag ids must be whole numbers (or give logits with a class axis)", role)
        bad = (kept < 0) | (kept >= len(tags))
        if bad.any():
            at = np.flatnonzero(keep.reshape(-1))[int(np.argmax(bad))]
            raise InputError(
                f"tag id {int(kept[bad][0])} is outside 0 … {len(tags) - 1} (the {len(tags)} tag names)",
                role,
                index=int(at // gold.shape[1]),
            )
        columns.append(kept.astype(np.int32))
    offsets = np.r_[0, np.cumsum(keep.sum(axis=1))].astype(np.int64)
    return TagSequences(tuple(tags), tuple(columns), offsets, sources=("gold", "pred"))
