"""CoNLL files → sentences of tags: a file with gold and predicted tag columns (as conlleval.pl reads it), or a gold
file and prediction files, read a chunk at a time into :class:`~clfeval.spans.TagSequences`.

A line holds a token's fields, separated by white space; a blank line ends a sentence; a line whose first field is
``-DOCSTART-`` starts a document (and ends a sentence); a line matching ``block_end`` (``^<utt>``) ends a sentence.
The tag columns are chosen as ``score`` chooses its columns (1-based, negative from the end).

Bad input is a one-line error with the file and the line: a line end in CR LF, bytes that are not UTF-8, a line
whose number of fields differs from the file's first token line, a tag column missing, a ``-DOCSTART-`` line tagged
other than ``O``, prediction files of another length than gold, sentence ends or tokens that differ between files.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import polars as pl

from clfeval.count.blocks import FEW_BLOCKS, Blocks
from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import Meter, chunk_bytes, display_name, line_chunks
from clfeval.inputs.columns import Column
from clfeval.spans.counts import SpanChecks, SpanCounts, UnitRows, joined
from clfeval.spans.sequences import TagSequences

__all__ = [
    "BY_DOCUMENT",
    "DOCSTART",
    "TagFile",
    "count_tag_files",
    "count_tag_groups",
    "count_tag_part",
    "join_tag_parts",
    "TagPart",
    "read_tag_batches",
    "write_span_errors",
]

#: The first field of a line that starts a document (CoNLL-2003).
DOCSTART = "-DOCSTART-"
#: A line whose first field is this ends a sentence, as a blank line does (conlleval.pl's ``-b`` boundary, -X-).
BOUNDARY = "-X-"
_FIELDS = r"\S+"


@dataclass
class TagFile:
    """One file to read tags from: its path and the columns of the tags it holds (gold and/or predictions)."""

    path: str
    columns: Sequence[Column]
    roles: Sequence[str]
    #: Token columns naming each sentence's group (numbers: CoNLL files have no header), read beside the tags.
    group_cols: Sequence[int] = ()

    @property
    def name(self) -> str:
        return display_name(self.path)


@dataclass
class _Batch:
    """Complete sentences of one file: each column's tags (one string per token), each sentence's length, the line
    of its first token, its document, and the first field of each token (the word, to check files agree)."""

    tags: list[pl.Series]
    words: pl.Series
    lengths: np.ndarray
    first_lines: np.ndarray
    documents: np.ndarray
    n_docstart: int
    groups: list[pl.Series] = field(default_factory=list)


@dataclass
class _State:
    """What a file's reading carries from chunk to chunk."""

    n_fields: int | None = None
    fields_line: int = 0
    docstarts: int = 0
    pending: pl.DataFrame | None = None
    docstart_lines: list[tuple[list[str], int]] = field(default_factory=list)
    #: lines after a chunk's last blank line, and the number of the first, when they were read by :func:`_fast_batch`
    pending_bytes: tuple[bytes, int] | None = None


@dataclass
class _Lines:
    """A chunk's lines split into fields: the number of fields of each, the first field (``None`` on a blank
    line), the line numbers, a field by index for every line (``None`` where a line has fewer), and one line's
    fields as strings (for the few ``-DOCSTART-`` lines)."""

    n: np.ndarray
    first: pl.Series
    numbers: np.ndarray
    column: Callable[[int], pl.Series]
    row: Callable[[int], list[str]]

    def head(self, cut: int) -> _Lines:
        """The first ``cut`` lines."""
        column, row = self.column, self.row
        return _Lines(
            self.n[:cut], self.first.slice(0, cut), self.numbers[:cut], lambda i: column(i).slice(0, cut), row
        )


def _lines(data: bytes, first_line: int, name: str) -> pl.Series:
    """The chunk's lines as strings (without their ends), or a one-line error on CR LF or bytes that are not
    UTF-8."""
    cr = data.find(b"\r")
    if cr >= 0:
        line = first_line + data.count(b"\n", 0, cr)
        raise InputError(
            "the line ends in CR LF (a Windows line end): conlleval.pl scores such a file 0 without a word; convert "
            "the file to LF line ends (dos2unix)",
            name,
            line,
        )
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    try:
        return pl.Series("line", parts, dtype=pl.Binary).cast(pl.String)
    except (pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError):
        for i, raw in enumerate(parts):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"is not valid UTF-8: byte 0x{raw[exc.start]:02x}", name, first_line + i) from None
        raise


def _index(column: Column, n_fields: int, name: str, line: int, role: str) -> int:
    if isinstance(column, str):
        raise OptionError(f"CoNLL files have no header: give the {role} column by number, not {column!r}")
    index = column - 1 if column > 0 else n_fields + column
    if not 0 <= index < n_fields:
        raise InputError(f"no {role} column {column}: the line has {n_fields} fields", name, line)
    return index


def _file_batches(file: TagFile, block_end: str | None, size: int, meter: Meter | None) -> Iterator[_Batch]:
    """The file's sentences, a chunk at a time (read as every reader reads: a file that changes meanwhile is an
    error naming it; line ends as they are, since a CR is refused below)."""
    name = file.name
    state = _State()
    end_pattern = re.compile(block_end) if block_end else None
    for data, first_line in line_chunks(file.path, size=size, meter=meter, universal=False):
        if state.pending_bytes is not None:
            (head, head_line), state.pending_bytes = state.pending_bytes, None
            data, first_line = head + data, head_line
        if state.pending is None and end_pattern is None:
            fast = _fast_batch(data, first_line, file, state, last=False)
            if fast is not _SLOW:
                if fast is not None:
                    yield fast  # type: ignore[misc]
                continue
        lines = _lines(data, first_line, name)
        frame = pl.DataFrame({"line": lines, "number": np.arange(first_line, first_line + len(lines), dtype=np.int64)})
        if state.pending is not None:
            frame = pl.concat([state.pending, frame])
            state.pending = None
        batch = _batch(frame, file, state, end_pattern, last=False)
        if batch is not None:
            yield batch
    if state.pending_bytes is not None:
        (data, first_line), state.pending_bytes = state.pending_bytes, None
        fast = _fast_batch(data, first_line, file, state, last=True)
        if fast is _SLOW:
            lines = _lines(data, first_line, name)
            state.pending = pl.DataFrame(
                {"line": lines, "number": np.arange(first_line, first_line + len(lines), dtype=np.int64)}
            )
        elif fast is not None:
            yield fast  # type: ignore[misc]
    if state.pending is not None:
        frame, state.pending = state.pending, None
        batch = _batch(frame, file, state, end_pattern, last=True)
        if batch is not None:
            yield batch
    if state.docstart_lines:  # -DOCSTART- lines and no token line: their tags are checked against their own fields
        width = len(state.docstart_lines[0][0])
        for row, line in state.docstart_lines:
            for column, role in zip(file.columns, file.roles):
                index = _index(column, width, name, line, role)
                if len(row) == width and row[index] != "O":
                    raise InputError(
                        f"a {DOCSTART} line tagged {row[index]!r} in the {role} column: expected O", name, line
                    )


def _batch(
    frame: pl.DataFrame, file: TagFile, state: _State, end_pattern: re.Pattern[str] | None, *, last: bool
) -> _Batch | None:
    """The complete sentences of a chunk's lines (``frame``: each line and its number), split into fields with a
    regular expression (any white space)."""
    fields = frame.get_column("line").str.extract_all(_FIELDS)
    lines = _Lines(
        fields.list.len().fill_null(0).to_numpy(),
        fields.list.first(),
        frame.get_column("number").to_numpy(),
        lambda i: fields.list.get(i, null_on_oob=True),
        lambda i: fields[i].to_list(),
    )
    extra = None
    if end_pattern is not None:
        extra = frame.get_column("line").str.contains(end_pattern.pattern).fill_null(False).to_numpy()
    ends = _ends(lines, extra)
    if not last:  # lines after the chunk's last sentence end wait for the next chunk
        boundary = np.flatnonzero(ends)
        cut = int(boundary[-1]) + 1 if len(boundary) else 0
        if cut < len(frame):
            state.pending = frame.slice(cut)
            lines, ends = lines.head(cut), ends[:cut]
        if cut == 0:
            return None
    return _sentences_of(lines, ends, file, state)


def _ends(lines: _Lines, extra: np.ndarray | None = None) -> np.ndarray:
    """The lines that end a sentence: blank lines, conlleval.pl's boundary lines (-X-), -DOCSTART- lines, and
    ``extra`` (those matching --block-end)."""
    blank = (lines.n == 0) | (lines.first == BOUNDARY).fill_null(False).to_numpy()
    ends = blank | (lines.first == DOCSTART).fill_null(False).to_numpy()
    return ends if extra is None else ends | extra


#: Unicode's white space other than ASCII's, in UTF-8 (NEL, NBSP, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
#: U+205F, U+3000): a chunk holding any is split with the regular expression.
_UNICODE_SPACE = re.compile(rb"\xc2[\x85\xa0]|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xe2\x81\x9f|\xe3\x80\x80")
#: What :func:`_fast_batch` returns for a chunk it leaves to the regular expression.
_SLOW = object()


def _fast_batch(data: bytes, first_line: int, file: TagFile, state: _State, *, last: bool) -> _Batch | object | None:
    """The complete sentences of a chunk whose fields are separated by single spaces (nearly every CoNLL file), read
    with polars' CSV reader; :data:`_SLOW` for a chunk with any other white space, a CR, bytes that are not UTF-8,
    lines of different numbers of fields, or fields other than the file's: the regular expression reads it (and
    says what is wrong). Without ``last`` the lines after the chunk's last blank line wait for the next chunk."""
    lead = len(data) - len(data.lstrip(b"\n"))  # blank lines before the first: they end no sentence
    data, first_line = data[lead:], first_line + lead
    cut = len(data)
    if not last:
        k = data.rfind(b"\n\n")
        cut = k + 2 if k >= 0 else 0
    rest = (data[cut:], first_line + data.count(b"\n", 0, cut)) if cut < len(data) else None
    body = data[:cut]
    if not body:
        state.pending_bytes = rest
        return None
    if not body.endswith(b"\n"):
        body += b"\n"
    raw = np.frombuffer(body, dtype=np.uint8)
    newline = raw == 10
    space = raw == 32
    line_end = np.flatnonzero(newline)
    # single spaces between fields only: no other control byte (tab, CR …), no space beside a space or a line end
    # (nor at the start), no Unicode space
    beside = space[1:] & (space[:-1] | newline[:-1])
    if (
        np.count_nonzero(raw < 32) != len(line_end)
        or space[0]
        or beside.any()
        or (space[:-1] & newline[1:]).any()
        or (int(raw.max()) >= 0x80 and _UNICODE_SPACE.search(body))
    ):
        return _SLOW
    line_start = np.r_[0, line_end[:-1] + 1]
    filled = line_end > line_start
    if not filled.any():
        return _SLOW
    at = int(line_start[np.argmax(filled)])
    width = body.count(b" ", at, body.index(b"\n", at)) + 1
    if state.n_fields is not None and state.n_fields != width:
        return _SLOW
    names = [f"f{i}" for i in range(width)]
    try:  # a line of more fields is an error, a line of fewer has nulls at its end
        frame = pl.read_csv(
            body, separator=" ", has_header=False, quote_char=None, infer_schema=False, new_columns=names
        )
    except (pl.exceptions.ComputeError, pl.exceptions.ShapeError, pl.exceptions.SchemaError):
        return _SLOW
    last_field = frame.get_column(names[-1]).is_not_null().to_numpy()
    if frame.height != len(line_end) or frame.width != width or not np.array_equal(last_field, filled):
        return _SLOW
    state.pending_bytes = rest
    lines = _Lines(
        np.where(filled, width, 0),
        frame.get_column("f0"),
        np.arange(first_line, first_line + len(line_end), dtype=np.int64),
        lambda i: frame.get_column(names[i]),  # (a column index is checked against the width first)
        lambda i: [str(x) for x in frame.row(i)],
    )
    return _sentences_of(lines, _ends(lines), file, state)


def _sentences_of(lines: _Lines, ends: np.ndarray, file: TagFile, state: _State) -> _Batch:
    """The sentences of whole lines (``ends``: the lines that end one): runs of token lines between ends, each
    column's tags, the checks of the number of fields and of -DOCSTART- lines' tags."""
    name = file.name
    n, first, numbers = lines.n, lines.first, lines.numbers
    docstart = (first == DOCSTART).fill_null(False).to_numpy()
    token = ~ends
    if state.n_fields is None and token.any():
        i = int(np.argmax(token))
        state.n_fields, state.fields_line = int(n[i]), int(numbers[i])
    if token.any():
        wrong = token & (n != state.n_fields)
        if wrong.any():
            i = int(np.argmax(wrong))
            raise InputError(
                f"expected {state.n_fields} fields, as on line {state.fields_line}, found {int(n[i])}",
                name,
                int(numbers[i]),
            )
    width = state.n_fields or 0
    indexes = (
        [_index(c, width, name, state.fields_line, role) for c, role in zip(file.columns, file.roles)]
        if state.n_fields is not None
        else [0] * len(file.columns)
    )
    # -DOCSTART- lines are not tokens; a tag column they hold must say O (checked once the columns are known)
    state.docstart_lines += [(lines.row(d), int(numbers[d])) for d in np.flatnonzero(docstart).tolist()]
    if state.n_fields is not None:
        for row, line in state.docstart_lines:
            for index, role in zip(indexes, file.roles):
                if len(row) == width and row[index] != "O":
                    raise InputError(
                        f"a {DOCSTART} line tagged {row[index]!r} in the {role} column: expected O", name, line
                    )
        state.docstart_lines = []
    # sentences: runs of token lines between ends; a sentence's document: the -DOCSTART- lines before it
    token_index = np.flatnonzero(token)
    run_of_line = np.cumsum(ends)
    _, run_start, lengths = np.unique(run_of_line[token_index], return_index=True, return_counts=True)
    first_lines = numbers[token_index[run_start]] if len(token_index) else np.zeros(0, dtype=np.int64)
    docstarts_before = state.docstarts + np.cumsum(docstart)
    documents = docstarts_before[token_index[run_start]] if len(token_index) else np.zeros(0, dtype=np.int64)
    n_docstart = int(docstart.sum())
    state.docstarts += n_docstart
    keep = pl.Series(token)
    tags = [lines.column(index).filter(keep).alias(role) for index, role in zip(indexes, file.roles)]
    at = [
        _index(c, width, name, state.fields_line, "group") if state.n_fields is not None else 0 for c in file.group_cols
    ]
    groups = [lines.column(index).filter(keep) for index in at]
    return _Batch(tags, first.filter(keep), lengths.astype(np.int64), first_lines, documents, n_docstart, groups)


class _Buffer:
    """A file's sentences read but not yet handed on."""

    def __init__(self, file: TagFile, batches: Iterator[_Batch]) -> None:
        self.file = file
        self.batches = batches
        self.parts: list[_Batch] = []
        self.done = False

    def sentences(self) -> int:
        return sum(len(b.lengths) for b in self.parts)

    def fill(self) -> None:
        if not self.done:
            try:
                self.parts.append(next(self.batches))
            except StopIteration:
                self.done = True

    def take(self, k: int) -> _Batch:
        """The first ``k`` sentences."""
        whole = _concat(self.parts)
        n_tokens = int(whole.lengths[:k].sum())
        head = _Batch(
            [t.slice(0, n_tokens) for t in whole.tags],
            whole.words.slice(0, n_tokens),
            whole.lengths[:k],
            whole.first_lines[:k],
            whole.documents[:k],
            whole.n_docstart,
            [g.slice(0, n_tokens) for g in whole.groups],
        )
        rest = _Batch(
            [t.slice(n_tokens) for t in whole.tags],
            whole.words.slice(n_tokens),
            whole.lengths[k:],
            whole.first_lines[k:],
            whole.documents[k:],
            0,
            [g.slice(n_tokens) for g in whole.groups],
        )
        self.parts = [rest] if len(rest.lengths) else []
        return head


def _concat(parts: Sequence[_Batch]) -> _Batch:
    if len(parts) == 1:
        return parts[0]
    return _Batch(
        [pl.concat([p.tags[i] for p in parts]) for i in range(len(parts[0].tags))],
        pl.concat([p.words for p in parts]),
        np.concatenate([p.lengths for p in parts]),
        np.concatenate([p.first_lines for p in parts]),
        np.concatenate([p.documents for p in parts]),
        sum(p.n_docstart for p in parts),
        [pl.concat([p.groups[i] for p in parts]) for i in range(len(parts[0].groups))],
    )


def _check_aligned(gold: TagFile, head: _Batch, other: TagFile, part: _Batch) -> None:
    """Sentences of two files must end at the same tokens, and the tokens' words agree."""
    if not np.array_equal(head.lengths, part.lengths):
        s = int(np.argmax(head.lengths != part.lengths))
        raise InputError(
            f"sentence ends differ from {gold.name}'s: the sentence starting on line {int(part.first_lines[s])} has "
            f"{int(part.lengths[s])} tokens, in {gold.name} (line {int(head.first_lines[s])}) it has "
            f"{int(head.lengths[s])}",
            other.name,
        )
    if len(head.words) and len(part.words):
        differ = (head.words != part.words).to_numpy()
        if differ.any():
            i = int(np.argmax(differ))
            s = int(np.searchsorted(np.cumsum(head.lengths), i, side="right"))
            offset = i - int(np.r_[0, np.cumsum(head.lengths)][s])
            raise InputError(
                f"the token {part.words[i]!r} differs from {gold.name}'s {head.words[i]!r} (line "
                f"{int(head.first_lines[s]) + offset}): the files are not aligned",
                other.name,
                int(part.first_lines[s]) + offset,
            )


def read_tag_batches(
    files: Sequence[TagFile], *, block_end: str | None = None, size: int | None = None, meter: Meter | None = None
) -> Iterator[TagSequences]:
    """Sentences of tags from ``files`` (the first holds gold as its first column), a chunk at a time: each
    :class:`~clfeval.spans.TagSequences` holds complete sentences, numbered in the whole reading. ``meter`` is told
    the bytes read.

    Raises
    ------
    InputError
        Bad lines (see the module), files whose sentences or tokens disagree, or of different lengths, or a file
        that changed while it was read.
    """
    for seqs, _ in _aligned(files, block_end=block_end, size=size, meter=meter):
        yield seqs


def _aligned(
    files: Sequence[TagFile], *, block_end: str | None = None, size: int | None = None, meter: Meter | None = None
) -> Iterator[tuple[TagSequences, _Batch]]:
    """What :func:`read_tag_batches` yields, each with the gold file's batch it was made of (its group columns)."""
    size = size or chunk_bytes()
    buffers = [_Buffer(f, _file_batches(f, block_end, size, meter)) for f in files]
    first_sentence = 0
    while True:
        for b in buffers:
            while not b.sentences() and not b.done:
                b.fill()
        available = [b.sentences() for b in buffers]
        if all(b.done and not b.sentences() for b in buffers):
            left = sum(p.n_docstart for p in buffers[0].parts)  # -DOCSTART- lines after the last sentence
            if left:
                heads = [b.take(0) for b in buffers]
                yield _sequences(files, heads, first_sentence), heads[0]
            return
        if any(a == 0 and b.done for a, b in zip(available, buffers)):
            short = next(b for a, b in zip(available, buffers) if a == 0 and b.done)
            longer = next(b for a, b in zip(available, buffers) if a > 0)
            line = int(_concat(longer.parts).first_lines[0])
            raise InputError(
                f"ends after {first_sentence} sentences, but {longer.file.name} goes on (a sentence on line {line}): "
                "a prediction file must hold every gold sentence",
                short.file.name,
            )
        k = min(available)
        heads = [b.take(k) for b in buffers]
        for b, head in zip(buffers[1:], heads[1:]):
            _check_aligned(files[0], heads[0], b.file, head)
        yield _sequences(files, heads, first_sentence), heads[0]
        first_sentence += k


def _sequences(files: Sequence[TagFile], heads: Sequence[_Batch], first_sentence: int) -> TagSequences:
    columns = [t for head in heads for t in head.tags]
    sources = tuple(f.name for f, head in zip(files, heads) for _ in head.tags)
    lines = tuple(head.first_lines for head in heads for _ in head.tags)
    every = pl.concat(columns).unique(maintain_order=True)
    vocab = tuple(every.to_list())
    mapping = {t: i for i, t in enumerate(vocab)}
    ids = tuple(
        c.replace_strict(mapping, return_dtype=pl.Int32).to_numpy() if len(c) else np.zeros(0, dtype=np.int32)
        for c in columns
    )
    gold = heads[0]
    return TagSequences(
        vocab,
        ids,
        np.r_[0, np.cumsum(gold.lengths)].astype(np.int64),
        gold.documents,
        gold.n_docstart,
        sources,
        lines,
        first_sentence,
        gold.words,
    )


def count_tag_files(
    files: Sequence[TagFile],
    scheme: str,
    *,
    unit: str = "auto",
    block_end: str | None = None,
    systems: Sequence[str] | None = None,
    meter: Meter | None = None,
    details: bool = True,
) -> tuple[Any, Blocks | None, dict[str, Any], SpanChecks]:
    """Count the spans of ``files``: :class:`~clfeval.spans.SpanCounts` of the one predicted column (or, given the
    ``systems``' names, the rows of every predicted column and their blocks, for ``compare``), what the result records
    of the reading (sentences, documents, the unit), and what reading each column's tags found (for ``systems``; one
    column's counts hold their own).

    Sentences are counted as units; ``unit`` ``documents`` regroups them by document (``-DOCSTART-`` lines), and
    ``auto`` does so when there are at least :data:`~clfeval.count.blocks.FEW_BLOCKS` documents (fewer are too few
    units for an interval or a test), else keeps sentences. ``meter`` is told the bytes and sentences read.
    ``details``: the partial-match modes and the span confusion are counted too (``False``: exact matching alone,
    all conlleval.pl's report shows).
    """
    part = count_tag_part(files, scheme, unit=unit, block_end=block_end, systems=systems, meter=meter, details=details)
    return join_tag_parts([part], unit=unit, systems=systems)


def count_tag_groups(
    files: Sequence[TagFile],
    scheme: str,
    groups: Sequence[int | str],
    *,
    unit: str = "auto",
    block_end: str | None = None,
    meter: Meter | None = None,
    details: bool = True,
) -> tuple[SpanCounts, Blocks | None, dict[str, Any], dict[tuple[str, ...], SpanCounts]]:
    """The counts of :func:`count_tag_files` (one predicted column) and, beside them, each group's: a group is
    the sentences whose key is alike, a sentence's key its value in each of ``groups`` — a token column of the gold
    file (a number; every token of a sentence must hold one value), or :data:`BY_DOCUMENT`, the sentence's
    document (``"0"`` before the first ``-DOCSTART-`` line, then ``"1"``, ``"2"`` … by their order).

    Each group's sentences are counted by :meth:`~clfeval.spans.TagSequences.count`, chunk by chunk as the whole
    is, so Σ_g counts_g holds the whole's rows; a group's ``-DOCSTART-`` lines are those before its sentences (those
    after the last sentence, the last sentence's group's); its units are the whole's (sentences, or documents).
    Memory: the whole's counts, and each group's.

    Raises
    ------
    InputError
        A sentence whose tokens hold two values of a group column (naming the file, the line and both values), or
        what :func:`read_tag_batches` raises.
    OptionError
        :data:`BY_DOCUMENT` without ``-DOCSTART-`` lines.
    """
    part, by_key = _count(files, scheme, unit, block_end, None, meter, tuple(groups), details)
    total, blocks, read, _ = join_tag_parts([part], unit=unit)
    if BY_DOCUMENT in groups and not part.n_docstart:
        raise OptionError(f"grouping by {BY_DOCUMENT} needs {DOCSTART} lines in the input: none were read")
    chosen = read["unit"]
    by_group = {}
    for key, group in by_key.items():
        ids = np.unique(np.concatenate(group.documents))
        n_own = len(ids) if part.n_docstart else 0
        by_group[key] = _with_units(joined(group.parts, n_own), group.units, ids, chosen)
    return total, blocks, read, by_group


#: The group "column" of CoNLL sentences that names their document (CoNLL files have no header, so no column has a
#: name): ``-DOCSTART-`` lines start documents.
BY_DOCUMENT = "document"


@dataclass
class _Group:
    """One group's parts as they are read: its chunks' counts, its sentences' documents, its sentences so far."""

    parts: list[SpanCounts] = field(default_factory=list)
    documents: list[np.ndarray] = field(default_factory=list)
    n_sentences: int = 0
    units: UnitRows = field(default_factory=UnitRows)

    def add(self, counts: SpanCounts, documents: np.ndarray | None, first: int) -> None:
        """A chunk's counts (its sentences numbered from ``first``, in ``documents``): their blocks gathered
        compactly by sentence and by document, the rest kept."""
        if counts.blocks is not None:
            self.units.add(counts.blocks, documents, first)
        self.parts.append(replace(counts, blocks=None))


def _sentence_keys(seqs: TagSequences, head: _Batch, file: TagFile, groups: Sequence[int | str]) -> np.ndarray:
    """Each sentence's value in each group column (sentences × columns, strings); a sentence whose tokens differ in
    a column is an error naming the token's line, its value and the sentence's first value."""
    lengths = np.diff(seqs.offsets)
    starts = seqs.offsets[:-1]
    columns = []
    token_columns = iter(zip(file.group_cols, head.groups))
    for column in groups:
        if column == BY_DOCUMENT:
            docs = seqs.documents if seqs.documents is not None else np.zeros(len(starts), np.int64)
            columns.append(docs.astype(str))
            continue
        number, values = next(token_columns)
        given = values.to_numpy().astype(str)
        first = given[starts]
        differ = np.flatnonzero(given != np.repeat(first, lengths))
        if len(differ):
            i = int(differ[0])
            s = int(np.searchsorted(seqs.offsets, i, side="right")) - 1
            line = int(head.first_lines[s])
            raise InputError(
                f"the group column {number} holds {str(given[i])!r}, but {str(first[s])!r} on line {line}, the "
                "sentence's first token: every token of a sentence is in one group",
                file.name,
                line + i - int(starts[s]),
            )
        columns.append(first)
    return np.column_stack(columns) if columns else np.zeros((len(starts), 0), dtype=str)


def _sentences(seqs: TagSequences, idx: np.ndarray, first_sentence: int, n_docstart: int) -> TagSequences:
    """The sentences ``idx`` (ascending) of ``seqs``, numbered from ``first_sentence``, with ``n_docstart``
    ``-DOCSTART-`` lines."""
    lengths = np.diff(seqs.offsets)
    chosen = np.zeros(len(lengths), dtype=bool)
    chosen[idx] = True
    tokens = np.repeat(chosen, lengths)
    return TagSequences(
        seqs.vocab,
        tuple(c[tokens] for c in seqs.columns),
        np.r_[0, np.cumsum(lengths[idx])].astype(np.int64),
        None if seqs.documents is None else seqs.documents[idx],
        n_docstart,
        seqs.sources,
        tuple(None if lines is None else lines[idx] for lines in seqs.first_lines),
        first_sentence,
    )


@dataclass(frozen=True)
class TagPart:
    """The spans of one reading — a CoNLL file, or a gold file and its prediction files — before its units are chosen:
    what :func:`count_tag_part` returns and :func:`join_tag_parts` joins, one part or the parts of a corpus in order.

    Attributes
    ----------
    counts
        :class:`~clfeval.spans.SpanCounts` of the one predicted column, without blocks; or, for several systems, the
        joint rows with their numbers (``row → count``).
    units
        The rows of the part's units (:class:`~clfeval.spans.counts.UnitRows`): its sentences numbered from 0 and/or
        its documents numbered as in ``documents`` (``None``: several systems, nothing read). :func:`join_tag_parts`
        moves them into the whole's: a part is joined once.
    documents
        Each sentence's document: how many ``-DOCSTART-`` lines come before it in the part.
    n_docstart
        The part's ``-DOCSTART-`` lines.
    checks
        What reading each column's tags found (several systems; one system's counts hold their own).
    """

    counts: Any
    units: UnitRows | None
    documents: np.ndarray
    n_docstart: int
    checks: SpanChecks


def count_tag_part(
    files: Sequence[TagFile],
    scheme: str,
    *,
    unit: str = "auto",
    block_end: str | None = None,
    systems: Sequence[str] | None = None,
    meter: Meter | None = None,
    details: bool = True,
) -> TagPart:
    """Count the spans of one reading (``files``: a CoNLL file, or a gold file and prediction files):
    :func:`join_tag_parts` joins it to the parts read before and after it (the Dask engine reads each file of a corpus
    on a worker), or alone, as :func:`count_tag_files` does. ``unit`` is the whole's (it decides which units' rows
    the part keeps); ``details`` as :func:`count_tag_files` takes it.

    Raises
    ------
    InputError
        What :func:`read_tag_batches` raises, naming the file and the line.
    OptionError
        An unknown unit.
    """
    part, _ = _count(files, scheme, unit, block_end, systems, meter, (), details)
    return part


def join_tag_parts(
    parts: Sequence[TagPart], *, unit: str = "auto", systems: Sequence[str] | None = None
) -> tuple[Any, Blocks | None, dict[str, Any], SpanChecks]:
    """The parts of one corpus, read in order, as one reading: what :func:`count_tag_files` returns.

    Part k's sentences are numbered after those of parts 0 … k−1, and its documents after theirs: a sentence's
    document is the number of ``-DOCSTART-`` lines before it in the whole, so sentences before a part's first
    ``-DOCSTART-`` line belong to the previous part's last document (as when the files are read one after the other).
    Then the unit is chosen as for one file: ``documents`` (``-DOCSTART-``), ``auto`` (documents when there are at
    least :data:`~clfeval.count.blocks.FEW_BLOCKS` of them) or ``sentences``. The parts' unit rows are moved into
    the whole's (:meth:`~clfeval.spans.counts.UnitRows.extend`).

    Raises
    ------
    OptionError
        An unknown unit, or ``documents`` without ``-DOCSTART-`` lines.
    """
    _check_unit(unit)
    sentence_at = np.cumsum([0] + [len(p.documents) for p in parts])
    docstart_at = np.cumsum([0] + [p.n_docstart for p in parts])
    shifted = [p.documents.astype(np.int64) + int(d) for p, d in zip(parts, docstart_at)]
    doc_of = np.concatenate(shifted) if shifted else np.zeros(0, dtype=np.int64)
    n_docstart = int(docstart_at[-1])
    n_sentences = len(doc_of)
    doc_ids = np.unique(doc_of)
    n_documents = len(doc_ids) if n_docstart else 0
    if unit == "documents" and not n_docstart:
        raise OptionError(f"--unit documents needs {DOCSTART} lines in the input: none were read")
    chosen = "documents" if unit == "documents" or (unit == "auto" and n_documents >= FEW_BLOCKS) else "sentences"
    read = {"n_sentences": n_sentences, "n_documents": n_documents, "unit": chosen}
    checks = sum((p.checks for p in parts[1:]), parts[0].checks) if parts else SpanChecks()
    held = [(p.units, int(k), int(d)) for p, k, d in zip(parts, sentence_at, docstart_at) if p.units is not None]
    units = UnitRows.joined(held, chosen) if held else None
    if systems is not None:
        rows: Counter[tuple[str, ...]] = Counter()
        for p in parts:
            rows.update(p.counts)
        return dict(rows), None if units is None else _units(units, n_sentences, doc_ids, chosen), read, checks
    assert units is not None
    total = _with_units(joined([p.counts for p in parts], n_documents), units, doc_ids, chosen)
    return total, total.blocks, read, checks


def _check_unit(unit: str) -> None:
    if unit not in ("auto", "sentences", "documents"):
        raise OptionError(f"the unit is auto, sentences or documents, not {unit!r}")


def _count(
    files: Sequence[TagFile],
    scheme: str,
    unit: str,
    block_end: str | None,
    systems: Sequence[str] | None,
    meter: Meter | None,
    groups: tuple[int | str, ...],
    details: bool = True,
) -> tuple[TagPart, dict[tuple[str, ...], _Group]]:
    """One reading's :class:`TagPart` and, with ``groups``, each group's parts (:func:`count_tag_groups`).

    Under ``unit`` ``auto`` both sentences' and documents' rows are gathered until the reading has seen
    :data:`~clfeval.count.blocks.FEW_BLOCKS` documents holding a sentence; then documents are sure to be the units
    (a corpus joined of parts has at least as many documents as each part) and the sentences' rows are dropped."""
    _check_unit(unit)
    if groups:
        named = [g for g in groups if isinstance(g, str) and g != BY_DOCUMENT]
        if named:
            raise OptionError(
                f"CoNLL files have no header: give the group column by number (or {BY_DOCUMENT!r}), not {named[0]!r}"
            )
        files = [replace(files[0], group_cols=[g for g in groups if isinstance(g, int)]), *files[1:]]
    by = unit if unit != "auto" else "auto"
    whole = _Group(units=UnitRows(by))
    seen_documents, last_seen = 0, -1
    rows: Counter[tuple[str, ...]] = Counter()
    checks = SpanChecks()
    documents: list[np.ndarray] = []
    n_docstart = 0
    by_key: dict[tuple[str, ...], _Group] = {}
    last_document, last_key = 0, None
    counted_systems = False
    for seqs, head in _aligned(files, block_end=block_end, meter=meter):
        documents.append(np.zeros(seqs.n_sentences, np.int64) if seqs.documents is None else seqs.documents)
        if seqs.n_sentences and seqs.documents is not None and by == "auto":
            # documents that hold a sentence, so far: once there are enough, they are the units (auto)
            docs = seqs.documents
            seen_documents += int(np.count_nonzero(np.diff(np.r_[last_seen, docs])))
            last_seen = int(docs[-1])
            if seen_documents >= FEW_BLOCKS:
                by = "documents"
                for g in (whole, *by_key.values()):
                    g.units.only(by)
        if meter is not None:
            meter.add(rows=seqs.n_sentences)
        n_docstart += seqs.n_docstart
        if systems is not None:
            part_rows, part_blocks, part_checks = seqs.count_systems(scheme, "sentences", systems)
            rows.update(part_rows)
            whole.units.add(part_blocks, documents[-1], seqs.first_sentence)
            counted_systems = True
            checks = checks + part_checks
            continue
        whole.add(seqs.count(scheme, "sentences", details=details), documents[-1], seqs.first_sentence)
        if not groups:
            continue
        if not seqs.n_sentences:  # -DOCSTART- lines after the last sentence: the last sentence's group's
            if last_key is not None:
                last = by_key[last_key]
                part = _sentences(seqs, np.zeros(0, np.int64), last.n_sentences, seqs.n_docstart)
                last.add(part.count(scheme, "sentences", details=details), np.zeros(0, np.int64), last.n_sentences)
            continue
        keys = _sentence_keys(seqs, head, files[0], groups)
        docs = documents[-1]
        before = np.diff(np.r_[last_document, docs])  # the -DOCSTART- lines just before each sentence
        last_document = int(docs[-1])
        distinct, inverse = np.unique(keys, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        for k, key in enumerate(map(tuple, distinct.tolist())):
            idx = np.flatnonzero(inverse == k)
            group = by_key.setdefault(key, _Group(units=UnitRows(by)))
            sub = _sentences(seqs, idx, group.n_sentences, int(before[idx].sum()))
            group.add(sub.count(scheme, "sentences", details=details), docs[idx], group.n_sentences)
            group.documents.append(docs[idx])
            group.n_sentences += len(idx)
        last_key = tuple(keys[-1].tolist())
    doc_of = np.concatenate(documents) if documents else np.zeros(0, dtype=np.int64)
    if systems is not None:
        units = whole.units if counted_systems else None
        return TagPart(dict(rows), units, doc_of, n_docstart, checks), by_key
    if not whole.parts:
        empty = TagSequences((), tuple(np.zeros(0, dtype=np.int32) for _ in range(2)), np.zeros(1, np.int64))
        whole.add(empty.count(scheme, "sentences", details=details), np.zeros(0, np.int64), 0)
    return TagPart(joined(whole.parts), whole.units, doc_of, n_docstart, checks), by_key


def _with_units(counts: SpanCounts, units: UnitRows, document_ids: np.ndarray, chosen: str) -> SpanCounts:
    """The counts of a whole reading with the blocks of its units: sentences, or their documents (``chosen``)."""
    return replace(counts, blocks=_units(units, counts.n_sentences, document_ids, chosen), unit=chosen)


def _units(units: UnitRows, n_sentences: int, document_ids: np.ndarray, chosen: str) -> Blocks:
    """The rows of each unit: each sentence's (numbered densely in order), or, when documents are the units,
    each document's (numbered by their place in ``document_ids``, the sorted document numbers of the sentences)."""
    if chosen == "documents":
        return units.regrouped(document_ids)
    return units.blocks(n_sentences, "sentences")


def write_span_errors(
    path: str,
    source: str,
    *pred_paths: str,
    gold_col: Column | None,
    pred_col: Column | None,
    spans: Any,
    block_end: str | None = None,
    raw: bool = False,
) -> int:
    """Write every wrong span of a CoNLL file (or a gold file and a prediction file) to ``path`` as tab-separated
    lines (sentence, line, error, gold, predicted, tokens), atomically; returns how many. Cells go through
    :func:`clfeval.output.delimited_row`, as every CSV and TSV written does: a cell a spreadsheet would run as a
    formula gets a leading apostrophe unless ``raw`` (``--raw-csv``)."""
    from clfeval.output import delimited_row, write_text

    if len(pred_paths) > 1 or (pred_col is not None and not isinstance(pred_col, (int, str))):
        raise OptionError("--errors lists the wrong spans of one system")
    if not isinstance(source, str):
        raise OptionError("--errors lists the wrong spans of one CoNLL file (or a gold file and a prediction file)")
    if pred_paths:
        files = [
            TagFile(source, [-1 if gold_col is None else gold_col], ["gold"]),
            TagFile(pred_paths[0], [-1 if pred_col is None else pred_col], ["predicted"]),
        ]
    else:
        files = [
            TagFile(
                source,
                [-2 if gold_col is None else gold_col, -1 if pred_col is None else pred_col],
                ["gold", "predicted"],
            )
        ]
    rows = [delimited_row(["sentence", "line", "error", "gold", "predicted", "tokens"], "\t")]
    for seqs in read_tag_batches(files, block_end=block_end):
        rows += [delimited_row(row, "\t", raw) for row in seqs.errors(spans.scheme)]
    write_text(path, "".join(rows))
    return len(rows) - 1
