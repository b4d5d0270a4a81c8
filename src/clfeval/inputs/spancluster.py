"""Span files counted part by part: the files of one corpus (CoNLL files of tags, or JSON Lines of sentences) read one
by one — here, or on a Dask cluster, one task per file — and joined in order into one reading.

Each part is read by the reader of one file (:func:`clfeval.inputs.conll.count_tag_part`, or
:func:`clfeval.inputs.sentences.count_sentence_files`) into a :class:`~clfeval.inputs.conll.TagPart`: its spans
counted by sentence, each sentence's document, its ``-DOCSTART-`` lines. Only these counts travel back from a worker;
:func:`~clfeval.inputs.conll.join_tag_parts` numbers each part's sentences and documents after those of the parts
before it, so the corpus's counts, units and intervals are those of its files read one after the other, whichever
engine read them. A bad line is the reader's one-line error naming the file and the line, raised where the file was
read; a task whose workers died is :func:`~clfeval.inputs.cluster.lost_worker`'s one line naming its file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.inputs.chunks import Meter
from clfeval.inputs.columns import Column
from clfeval.inputs.conll import TagFile, TagPart, count_tag_part, join_tag_parts
from clfeval.spans.counts import UnitRows

__all__ = ["count_span_parts"]


def _part(
    path: str,
    columns: Sequence[Column],
    roles: Sequence[str],
    fmt: str,
    scheme: str,
    unit: str,
    block_end: str | None,
    systems: Sequence[str] | None,
    details: bool = True,
    meter: Meter | None = None,
) -> TagPart:
    """One file's spans (runs here or on a worker): a CoNLL file read by :func:`count_tag_part`, or a JSON Lines file
    of sentences by :func:`count_sentence_files` (its sentences in no document)."""
    if fmt == "jsonl":
        from clfeval.inputs.sentences import SentenceField, count_sentence_files

        fields = [SentenceField(path, c, role) for c, role in zip(columns, roles)]
        counts, blocks, read, checks = count_sentence_files(
            fields, scheme, unit=unit, systems=systems, meter=meter, details=details
        )
        units = None
        if blocks is not None:
            units = UnitRows("sentences", renumber=False)
            units.add(blocks)
        counts = counts if systems is not None else replace(counts, blocks=None)
        return TagPart(counts, units, np.zeros(read["n_sentences"], dtype=np.int64), 0, checks)
    return count_tag_part(
        [TagFile(path, columns, roles)], scheme, unit=unit, block_end=block_end, systems=systems, meter=meter,
        details=details,
    )  # fmt: skip


def count_span_parts(
    paths: Sequence[str],
    columns: Sequence[Column],
    roles: Sequence[str],
    scheme: str,
    *,
    fmt: str = "text",
    unit: str = "auto",
    block_end: str | None = None,
    systems: Sequence[str] | None = None,
    engine: str = "polars",
    scheduler: str | Any | None = None,
    meter: Meter | None = None,
    details: bool = True,
) -> tuple[Any, Any, dict[str, Any], Any]:
    """Count the spans of the files of one corpus, in order: what :func:`clfeval.inputs.conll.count_tag_files` returns
    for one file (the counts, or several systems' joint rows; their blocks; what was read; what reading found).

    Parameters
    ----------
    paths
        The files, in the corpus's order (globs expanded): each holds the gold tags and the predicted ones.
    columns, roles
        The tag columns of every file (gold first) and what each holds.
    fmt
        ``text`` (CoNLL) or ``jsonl`` (JSON Lines of sentences).
    unit, block_end, systems, details
        As :func:`~clfeval.inputs.conll.count_tag_files` takes them.
    engine
        ``polars``: the files read one by one on this machine (``meter`` told the bytes and sentences); ``dask``: one
        task per file on the cluster at ``scheduler`` (``None``: a local cluster for the call), the files on a file
        system every worker sees.

    Returns
    -------
    tuple
        Equal, field by field, to the reading of the files one after the other, whichever the engine.

    Raises
    ------
    InputError
        A bad file, naming it and its line; or a task whose workers died, naming its file.
    OptionError
        Dask is not installed, the scheduler cannot be reached, or the unit does not apply (``documents`` without
        ``-DOCSTART-`` lines: JSON Lines have none).
    """
    given: dict[str, Any] = {"columns": list(columns), "roles": list(roles), "fmt": fmt, "scheme": scheme, "unit": unit,
             "block_end": block_end, "systems": None if systems is None else list(systems),
             "details": details}  # fmt: skip
    if engine == "dask":
        from clfeval.inputs.cluster import check_paths, map_parts

        check_paths(paths)
        parts = map_parts(_part, list(paths), list(paths), ", ".join(paths), scheduler, **given)
    else:
        parts = [_part(path, meter=meter, **given) for path in paths]
    return join_tag_parts(parts, unit=unit, systems=systems)
