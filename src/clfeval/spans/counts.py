"""Span counts: the sufficient statistics of span evaluation, with the blocks (sentences or documents) they came from.

Every span of the gold column and every predicted span that matches none is one *row*: ``(gold type, predicted
type)`` with ``∅`` for no span, i.e. ``(PER, PER)`` a span found (tp of PER), ``(PER, ∅)`` one missed (fn), ``(∅,
LOC)`` a spurious one (fp of LOC). Per type, P = tp/(tp + fp), R = tp/(tp + fn) and F over the types are the
single-label measures of these rows over the label set of types (``∅`` is never in it), so every average, interval
and test of clfeval applies; the rows of each sentence are its *count vector*, and intervals and tests resample and
swap whole sentences (:class:`~clfeval.count.blocks.Blocks`).

For several systems a row holds the gold type and each system's match: ``(PER, PER, ∅)`` is a gold span the first
system found and the second missed; a spurious span of one system is a row with ``∅`` everywhere else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.errors import OptionError
from clfeval.result import FrozenDict
from clfeval.spans.matching import MODE_COUNTS, MODES
from clfeval.spans.tags import NO_SPAN

if TYPE_CHECKING:  # blocks load when a task resamples (a score without intervals need not)
    from clfeval.count.blocks import Blocks

__all__ = ["SpanChecks", "SpanCounts", "TokenCounts", "UnitRows", "blocks_joined", "blocks_of_rows", "joined"]


@dataclass(frozen=True)
class TokenCounts:
    """Tag-level counts: tokens, tokens whose predicted tag equals the gold tag, and ``-DOCSTART-`` lines (which
    conlleval.pl counts as tokens, tagged right)."""

    tokens: int
    right: int
    docstart: int = 0

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(self.tokens + other.tokens, self.right + other.right, self.docstart + other.docstart)


def _added(a: Mapping[Any, int], b: Mapping[Any, int]) -> FrozenDict[Any, int]:
    out: Counter[Any] = Counter(a)
    out.update(b)
    return FrozenDict(sorted(out.items()))


@dataclass(frozen=True, eq=False)
class SpanCounts:
    """Spans of one system against gold, counted: rows with multiplicities, and what else span evaluation reports.

    Attributes
    ----------
    scheme
        The tagging scheme the spans were read with (:data:`clfeval.spans.SCHEMES`), or ``entities`` for spans
        given as lists.
    pairs
        ``(gold type, predicted type) → count`` (exact matching; ``∅`` for no span).
    blocks
        The rows of each unit (sentence or document): intervals and tests resample and swap whole units.
    unit
        ``sentences`` or ``documents``.
    n_sentences, n_documents
        Sentences read (also those without a span), and documents (``-DOCSTART-`` lines; 0 without).
    tokens
        Tag-level counts (``None`` for spans given as lists).
    transitions
        ``(column, kind) → count`` of invalid transitions (``column``: ``gold`` or ``pred``; the kinds are named
        like ``O → I-X``).
    sites
        Where the first few of each kind are: ``(column, kind, place)``, place like ``tagger.txt:57``.
    merged
        ``column → n``: spans conlleval.pl merges with the one before (``S-`` and ``E-`` tags under ``conlleval``).
    modes
        The partial-match counts: ``mode → type → (correct, incorrect, partial, missed, spurious)``, the type ``*``
        for every type together (``None`` when not computed: counts from rows).
    confusion
        ``(gold type, predicted type, boundaries) → count`` of overlapping spans paired one to one, boundaries
        ``exact`` or ``overlap``, ``∅`` opposite a span that overlaps none (``None`` when not computed); sorted
        by gold type, predicted type and boundaries, ``∅`` first.
    """

    scheme: str
    pairs: Mapping[tuple[str, str], int]
    blocks: Blocks | None = None
    unit: str = "sentences"
    n_sentences: int = 0
    n_documents: int = 0
    tokens: TokenCounts | None = None
    transitions: Mapping[tuple[str, str], int] = field(default_factory=FrozenDict)
    sites: tuple[tuple[str, str, str], ...] = ()
    merged: Mapping[str, int] = field(default_factory=FrozenDict)
    modes: Mapping[str, Mapping[str, tuple[int, ...]]] | None = None
    confusion: Mapping[tuple[str, str, str], int] | None = None

    def __post_init__(self) -> None:
        pairs = {(str(g), str(p)): int(c) for (g, p), c in self.pairs.items() if c}
        for (g, p), c in pairs.items():
            if c < 0:
                raise OptionError(f"span counts must be non-negative: ({g!r}, {p!r}) has {c}")
            if g != NO_SPAN and p != NO_SPAN and g != p:
                raise OptionError(
                    f"a span row pairs a gold span with a predicted span of its own type or with {NO_SPAN!r}, "
                    f"not ({g!r}, {p!r})"
                )
            if g == p == NO_SPAN:
                raise OptionError(f"a span row has a span on at least one side, not ({NO_SPAN!r}, {NO_SPAN!r})")
        object.__setattr__(self, "pairs", FrozenDict(sorted(pairs.items())))
        if self.confusion is not None:  # one order however the counts were made (one read, or parts added)
            confusion = sorted(self.confusion.items(), key=lambda kv: tuple((t != NO_SPAN, t) for t in kv[0]))
            object.__setattr__(self, "confusion", FrozenDict(confusion))
        for name in ("transitions", "merged"):
            object.__setattr__(self, name, FrozenDict(getattr(self, name)))

    @property
    def n_instances(self) -> int:
        """The number of rows: gold spans plus spurious predicted spans."""
        return sum(self.pairs.values())

    @property
    def types(self) -> tuple[str, ...]:
        """Every type with a span, sorted."""
        return tuple(sorted({t for pair in self.pairs for t in pair if t != NO_SPAN}))

    def type_counts(self) -> dict[str, tuple[int, int, int]]:
        """Each type's (tp, fp, fn)."""
        out = {t: [0, 0, 0] for t in self.types}
        for (g, p), c in self.pairs.items():
            if g == p:
                out[g][0] += c
            elif g == NO_SPAN:
                out[p][1] += c
            else:
                out[g][2] += c
        return {t: (a, b, c) for t, (a, b, c) in out.items()}

    def __add__(self, other: object) -> SpanCounts:
        if not isinstance(other, SpanCounts):
            return NotImplemented
        if (self.scheme, self.unit) != (other.scheme, other.unit):
            raise OptionError(
                f"cannot add span counts read with {other.scheme} by {other.unit} to counts read with {self.scheme} "
                f"by {self.unit}"
            )
        blocks = None
        if self.blocks is not None and other.blocks is not None:
            from clfeval.count.blocks import concatenated

            blocks = concatenated(self.blocks, other.blocks)
        tokens = None if self.tokens is None or other.tokens is None else self.tokens + other.tokens
        modes = None
        if self.modes is not None and other.modes is not None:
            modes = _modes_added(self.modes, other.modes)
        confusion = None
        if self.confusion is not None and other.confusion is not None:
            confusion = _added(self.confusion, other.confusion)
        return SpanCounts(
            self.scheme,
            _added(self.pairs, other.pairs),
            blocks,
            self.unit,
            self.n_sentences + other.n_sentences,
            self.n_documents + other.n_documents,
            tokens,
            _added(self.transitions, other.transitions),
            _sites(self.sites + other.sites),
            _added(self.merged, other.merged),
            modes,
            confusion,
        )


#: How many places of each kind of invalid transition a result lists.
SITES_SHOWN = 3


@dataclass(frozen=True)
class SpanChecks:
    """What reading tags found in each column besides spans, for ``compare`` (one system's :class:`SpanCounts` holds
    its own): ``(column, kind) → count`` of invalid transitions, the first places of each, and the spans merged
    (conlleval's S-/E- rule); a column is ``gold`` or a system's name."""

    transitions: Mapping[tuple[str, str], int] = field(default_factory=FrozenDict)
    sites: tuple[tuple[str, str, str], ...] = ()
    merged: Mapping[str, int] = field(default_factory=FrozenDict)

    def __add__(self, other: SpanChecks) -> SpanChecks:
        return SpanChecks(
            _added(self.transitions, other.transitions),
            _sites(self.sites + other.sites),
            _added(self.merged, other.merged),
        )


def _sites(sites: Sequence[tuple[str, str, str]]) -> tuple[tuple[str, str, str], ...]:
    seen: Counter[tuple[str, str]] = Counter()
    out = []
    for column, kind, place in sites:
        if seen[column, kind] < SITES_SHOWN:
            seen[column, kind] += 1
            out.append((column, kind, place))
    return tuple(out)


def _modes_added(
    a: Mapping[str, Mapping[str, tuple[int, ...]]], b: Mapping[str, Mapping[str, tuple[int, ...]]]
) -> FrozenDict[str, FrozenDict[str, tuple[int, ...]]]:
    out: dict[str, FrozenDict[str, tuple[int, ...]]] = {}
    for mode in MODES:
        types = sorted(set(a.get(mode, {})) | set(b.get(mode, {})))
        zero = (0,) * len(MODE_COUNTS)
        out[mode] = FrozenDict(
            {t: tuple(x + y for x, y in zip(a.get(mode, {}).get(t, zero), b.get(mode, {}).get(t, zero))) for t in types}
        )
    return FrozenDict(out)


def joined(parts: Sequence[SpanCounts], n_documents: int | None = None) -> SpanCounts:
    """The counts of consecutive parts of one reading (chunks of a file), whose blocks number their units in the
    whole reading (a document may run over two chunks): their entries together, the units renumbered in order."""
    total = parts[0]
    for part in parts[1:]:
        total = _without_blocks(total) + _without_blocks(part)
    if n_documents is not None:
        total = replace(total, n_documents=n_documents)
    blocks = [p.blocks for p in parts if p.blocks is not None]
    if len(blocks) != len(parts):
        return total
    n_units = total.n_documents if parts[0].unit == "documents" else total.n_sentences
    merged = blocks_joined(blocks, n_units)
    return replace(total, blocks=merged)


def blocks_joined(blocks: Sequence[Blocks], n_units: int) -> Blocks:
    """The blocks of consecutive parts of one reading, whose block numbers are already those of the whole reading:
    their rows put over the union of their keys, the units renumbered densely in order (at least ``n_units``)."""

    gathered = UnitRows()
    for b in blocks:
        gathered.add(b)
    return gathered.blocks(n_units, blocks[0].unit)


def _dense(block: np.ndarray) -> np.ndarray:
    """Unit numbers renumbered 0, 1, … in order (``np.unique``'s inverse; one pass when they come sorted, as the
    parts of one reading do)."""
    if not len(block):
        return block.astype(np.int64)
    if bool(np.all(block[1:] >= block[:-1])):
        return np.cumsum(np.r_[True, block[1:] != block[:-1]], dtype=np.int64) - 1
    return np.unique(block, return_inverse=True)[1].astype(np.int64)


class UnitRows:
    """The rows of the units of consecutive parts of one reading, gathered part by part and held compactly until the
    reading ends: then one :class:`Blocks`, by sentence (each sentence's rows, 32-bit codes: 12 bytes an entry while
    reading) or by document (each document's rows, summed part by part: memory flat in the sentences read).

    ``by``: ``sentences``, ``documents``, or ``auto`` (both, until :meth:`only` keeps one). ``renumber``: the
    sentences that hold a row are numbered densely in :meth:`blocks` (CoNLL readings); ``False`` keeps each
    sentence's number (JSON Lines of sentences, whose blocks number every sentence).
    """

    def __init__(self, by: str = "sentences", *, renumber: bool = True) -> None:
        self.keys: dict[tuple[str, ...], int] = {}
        self.by = by
        self.renumber = renumber
        self._row: list[np.ndarray] = []
        self._block: list[np.ndarray] = []
        self._count: list[np.ndarray] = []
        self._docs: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, blocks: Blocks, documents: np.ndarray | None = None, first: int = 0) -> None:
        """Add a part's blocks (units numbered in the whole reading, after those added before; ``documents``: the
        document of each of the part's units, the first numbered ``first``)."""
        code = np.array([self.keys.setdefault(tuple(k), len(self.keys)) for k in blocks.keys], dtype=np.int32)
        row = code[blocks.row] if len(blocks.row) else np.zeros(0, np.int32)
        if self.by in ("sentences", "auto"):
            self._row.append(row)
            self._block.append(blocks.block.astype(np.int32 if blocks.n_blocks < 2**31 else np.int64))
            self._count.append(blocks.count.astype(np.int32 if not len(blocks.count) or blocks.count.max() < 2**31
                                                   else np.int64))  # fmt: skip
        if self.by in ("documents", "auto") and documents is not None:
            doc = documents[blocks.block - first].astype(np.int64) if len(row) else np.zeros(0, np.int64)
            width = 1 << 31
            entry, inverse = np.unique(doc * width + row, return_inverse=True)
            total = np.bincount(inverse.reshape(-1), weights=blocks.count, minlength=len(entry)).astype(np.int64)
            self._docs.append((entry // width, (entry % width).astype(np.int32), total))

    def extend(self, other: UnitRows, sentences: int = 0, documents: int = 0) -> None:
        """Move the rows of ``other`` (a later part of the reading, its sentences numbered from 0 and its documents
        by its own ``-DOCSTART-`` lines) into these, its sentences numbered ``sentences`` later and its documents
        ``documents`` later; ``other`` is left empty. Only the units these keep (:attr:`by`) are moved."""
        code = np.array([self.keys.setdefault(k, len(self.keys)) for k in other.keys], dtype=np.int32)
        same = bool(np.array_equal(code, np.arange(len(code))))
        while other._row:
            r, b, c = other._row.pop(0), other._block.pop(0), other._count.pop(0)
            if self.by not in ("sentences", "auto"):
                continue
            if sentences and len(b):
                b = b.astype(np.int64) + sentences
                b = b.astype(np.int32) if int(b.max()) < 2**31 else b
            self._row.append(r if same else code[r])
            self._block.append(b)
            self._count.append(c)
        while other._docs:
            d, r, c = other._docs.pop(0)
            if self.by in ("documents", "auto"):
                self._docs.append((d + documents if documents else d, r if same else code[r], c))

    @classmethod
    def joined(cls, parts: Sequence[tuple[UnitRows, int, int]], unit: str) -> UnitRows:
        """The rows of consecutive parts of one reading as one's: each part ``(rows, first sentence, -DOCSTART- lines
        before it)`` moved in (:meth:`extend`), keeping the units ``unit`` (``sentences`` or ``documents``)."""
        whole = cls(unit, renumber=all(rows.renumber for rows, _, _ in parts))
        for rows, sentences, documents in parts:
            whole.extend(rows, sentences, documents)
        return whole

    def only(self, by: str) -> None:
        """Keep the units ``by`` alone (``sentences`` or ``documents``), once it is known which the reading takes."""
        self.by = by
        if by == "documents":
            self._row, self._block, self._count = [], [], []
        else:
            self._docs = []

    def blocks(self, n_units: int, unit: str) -> Blocks:
        """The units' rows as :class:`Blocks`: the units that hold a row renumbered densely in order, at least
        ``n_units`` units (the parts are dropped as the whole is filled)."""
        from clfeval.count.blocks import Blocks

        n = sum(len(r) for r in self._row)
        row, block, count = (np.empty(n, dtype=np.int64) for _ in range(3))
        at = 0
        while self._row:
            r, b, c = self._row.pop(0), self._block.pop(0), self._count.pop(0)
            row[at : at + len(r)], block[at : at + len(r)], count[at : at + len(r)] = r, b, c
            at += len(r)
        dense = _dense(block) if self.renumber else block
        del block
        return Blocks(tuple(self.keys), row, dense, count, max(n_units, int(dense.max(initial=-1)) + 1), unit)

    def regrouped(self, document_ids: np.ndarray, unit: str = "documents") -> Blocks:
        """The rows of each document, documents numbered by their place in ``document_ids`` (the sorted document
        numbers of the reading's sentences), as :class:`Blocks` sorted by (document, row)."""
        from clfeval.count.blocks import Blocks

        width = len(self.keys) + 1
        doc = np.concatenate([d for d, _, _ in self._docs]) if self._docs else np.zeros(0, np.int64)
        row = np.concatenate([r for _, r, _ in self._docs]) if self._docs else np.zeros(0, np.int32)
        count = np.concatenate([c for _, _, c in self._docs]) if self._docs else np.zeros(0, np.int64)
        key = np.searchsorted(document_ids, doc).astype(np.int64) * width + row
        entry, inverse = np.unique(key, return_inverse=True)
        total = np.bincount(inverse.reshape(-1), weights=count, minlength=len(entry)).astype(np.int64)
        return Blocks(tuple(self.keys), entry % width, entry // width, total, len(document_ids), unit)


def _without_blocks(counts: SpanCounts) -> SpanCounts:
    return replace(counts, blocks=None)


def blocks_of_rows(
    keys: Sequence[tuple[str, ...]], unit_of_row: np.ndarray, code_of_row: np.ndarray, n_units: int, unit: str
) -> Blocks:
    """Blocks from rows given one by one: row ``i`` is ``keys[code_of_row[i]]`` in unit ``unit_of_row[i]``."""
    from clfeval.count.blocks import Blocks

    width = max(len(keys), 1)
    entry, count = np.unique(unit_of_row.astype(np.int64) * width + code_of_row, return_counts=True)
    return Blocks(tuple(keys), entry % width, entry // width, count.astype(np.int64), n_units, unit)
