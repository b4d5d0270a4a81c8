"""Sentences of tags (or of spans) in columns, gold first, and how they are counted: :class:`TagSequences` and
:class:`SpanLists` → :class:`~clfeval.spans.counts.SpanCounts` (one system) or the rows of several systems.

Readers (CoNLL files, JSON Lines, lists in memory) build these; nothing here knows files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.errors import InputError, OptionError
from clfeval.result import FrozenDict
from clfeval.spans.chunks import Chunks, conlleval_flags, conlleval_matches, find_chunks, invalid_transitions, stream_of
from clfeval.spans.counts import SITES_SHOWN, SpanChecks, SpanCounts, TokenCounts, blocks_of_rows
from clfeval.spans.matching import MODES, lexsort, match_spans, matched_flags
from clfeval.spans.schemes import PREFIXES, Scheme, scheme_of
from clfeval.spans.tags import ENTITIES, NO_SPAN, bad_tag, tag_codes

__all__ = ["ENTITIES", "SpanLists", "TagSequences", "Units"]


@dataclass(frozen=True)
class Units:
    """Which sentences make up each unit of resampling: ``of_sentence[s]`` is sentence s's unit; ``name`` is
    ``sentences`` or ``documents``."""

    of_sentence: np.ndarray
    n_units: int
    name: str

    @classmethod
    def of(cls, unit: str, n_sentences: int, documents: np.ndarray | None, first_sentence: int = 0) -> Units:
        """Sentences as units, or documents (``unit="documents"``, or ``auto`` when documents were read); sentences
        are numbered from ``first_sentence`` (a part of a longer reading)."""
        if unit not in ("auto", "sentences", "documents"):
            raise OptionError(f"the unit of span intervals and tests is auto, sentences or documents, not {unit!r}")
        if unit == "documents" and documents is None:
            raise OptionError("--unit documents needs -DOCSTART- lines in the input: none were read")
        if unit == "documents" and documents is not None:
            n = int(documents.max()) + 1 if len(documents) else 0
            return cls(np.asarray(documents, dtype=np.int64), n, "documents")
        return cls(
            np.arange(first_sentence, first_sentence + n_sentences, dtype=np.int64),
            first_sentence + n_sentences,
            "sentences",
        )


def _rows(
    gold: Chunks, systems: Sequence[tuple[Chunks, np.ndarray, np.ndarray]], names: Sequence[str], units: Units
) -> Blocks:
    """Blocks of rows: each gold span with each system's match, then each system's unmatched predicted spans."""
    k = len(systems)
    n_names = len(names)
    # a row as one integer: (type code, match bits) for gold spans; spurious spans after them
    bits = np.zeros(len(gold), dtype=np.int64)
    for j, (_, hit, _) in enumerate(systems):
        bits |= hit.astype(np.int64) << j
    codes = [gold.type.astype(np.int64) * (1 << k) + bits]
    unit = [units.of_sentence[gold.sentence]]
    base = (n_names + 1) * (1 << k)
    for j, (pred, _, kept) in enumerate(systems):
        spurious = ~kept
        codes.append(base + j * (n_names + 1) + pred.type[spurious].astype(np.int64))
        unit.append(units.of_sentence[pred.sentence[spurious]])
    code = np.concatenate(codes)
    distinct, inverse = np.unique(code, return_inverse=True)
    keys = []
    for c in distinct.tolist():
        if c < base:
            t, b = divmod(c, 1 << k)
            name = names[t - 1]
            keys.append((name, *(name if b >> j & 1 else NO_SPAN for j in range(k))))
        else:
            j, t = divmod(c - base, n_names + 1)
            keys.append((NO_SPAN, *(names[t - 1] if i == j else NO_SPAN for i in range(k))))
    return blocks_of_rows(keys, np.concatenate(unit), inverse, units.n_units, units.name)


def _pairs(blocks: Blocks) -> dict[tuple[str, ...], int]:
    return blocks.totals()


def _modes(chunks_g: Chunks, chunks_p: Chunks, names: Sequence[str]) -> tuple[Any, Any]:
    matched = match_spans(chunks_g, chunks_p, len(names))
    modes: dict[str, FrozenDict[str, tuple[int, ...]]] = {}
    for m, mode in enumerate(MODES):
        per = {"*": tuple(int(x) for x in matched.modes[m, 0])}
        for t, name in enumerate(names, start=1):
            counts = tuple(int(x) for x in matched.modes[m, t])
            if any(counts):
                per[name] = counts
        modes[mode] = FrozenDict(per)
    confusion = {}
    label = [NO_SPAN, *names]
    for g, p, b in zip(*np.nonzero(matched.confusion)):
        confusion[(label[g], label[p], ("exact", "overlap")[b])] = int(matched.confusion[g, p, b])
    return FrozenDict(modes), FrozenDict(confusion)


@dataclass(frozen=True, eq=False)
class SpanLists:
    """Spans given as lists, per column (gold first): each column's (sentence, start, end, type name) arrays, and how
    many sentences there are."""

    columns: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ...]
    n_sentences: int
    documents: np.ndarray | None = None

    def _chunks(self) -> tuple[list[Chunks], tuple[str, ...]]:
        names = tuple(sorted({str(t) for col in self.columns for t in col[3].tolist()}))
        if NO_SPAN in names:
            raise InputError(f"a span has the type {NO_SPAN!r}, clfeval's name for no span: rename it")
        index = {t: i + 1 for i, t in enumerate(names)}
        out = []
        for s, a, b, t in self.columns:
            code = np.array([index[str(x)] for x in t.tolist()], dtype=np.int32)
            order = lexsort((code, b, a, s))
            out.append(Chunks(s[order], a[order], b[order], code[order]))
        return out, names

    def count(self, scheme: str | Scheme | None = None, unit: str = "auto", *, details: bool = True) -> SpanCounts:
        """The counts of the one predicted column against gold (``scheme`` is not used: there are no tags); the
        partial-match modes and the span confusion only with ``details``."""
        if len(self.columns) != 2:
            raise OptionError("count() takes gold and one predicted column; count_systems() several")
        (gold, pred), names = self._chunks()
        units = Units.of(unit, self.n_sentences, self.documents)
        hit, kept = matched_flags(gold, pred)
        blocks = _rows(gold, [(pred, hit, kept)], names, units)
        modes, confusion = _modes(gold, pred, names) if details else (None, None)
        return SpanCounts(
            ENTITIES,
            _pairs(blocks),  # type: ignore[arg-type]
            blocks,
            units.name,
            self.n_sentences,
            0 if self.documents is None else units.n_units if units.name == "documents" else _n_docs(self.documents),
            modes=modes,
            confusion=confusion,
        )

    def count_systems(
        self, scheme: str | Scheme | None = None, unit: str = "auto", names: Sequence[str] | None = None
    ) -> tuple[dict[tuple[str, ...], int], Blocks, SpanChecks]:
        """The rows of every system (gold, then each system's match) with multiplicities, their blocks, and no
        checks (entities have no tags to check)."""
        (gold, *preds), type_names = self._chunks()
        units = Units.of(unit, self.n_sentences, self.documents)
        systems = []
        for pred in preds:
            hit, kept = matched_flags(gold, pred)
            systems.append((pred, hit, kept))
        blocks = _rows(gold, systems, type_names, units)
        return _pairs(blocks), blocks, SpanChecks()


def _n_docs(documents: np.ndarray) -> int:
    return int(documents.max()) + 1 if len(documents) else 0


@dataclass(frozen=True, eq=False)
class TagSequences:
    """Sentences of tags in columns, gold first: ``columns[c][i]`` is token i's tag in column c, as a position in
    ``vocab``; sentence s holds tokens ``offsets[s]:offsets[s + 1]``.

    Attributes
    ----------
    vocab
        The distinct tags of every column.
    columns
        Gold, then each system: int arrays of positions in ``vocab``, one per token.
    offsets
        Where each sentence starts (and, last, the number of tokens).
    documents
        Each sentence's document (from 0), when ``-DOCSTART-`` lines were read; else ``None``.
    n_docstart
        The ``-DOCSTART-`` lines read (conlleval.pl counts each as a token).
    sources, first_lines
        Each column's file (or ``gold``, ``pred``) and the line of each sentence's first token in it, to say where an
        invalid transition is (``None``: say the sentence and token).
    first_sentence
        The number (from 0) of the first sentence in the whole reading, when this is a part of it.
    words
        Each token's word (a sequence of strings), to list wrong spans; ``None`` when there are none.
    """

    vocab: tuple[str, ...]
    columns: tuple[np.ndarray, ...]
    offsets: np.ndarray
    documents: np.ndarray | None = None
    n_docstart: int = 0
    sources: tuple[str, ...] = ()
    first_lines: tuple[np.ndarray | None, ...] = ()
    first_sentence: int = 0
    words: Any = None

    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1

    def place(self, column: int, sentence: int, token: int) -> str:
        """Where a token is: ``file:line``, or its sentence and token numbers."""
        lines = self.first_lines[column] if column < len(self.first_lines) else None
        if lines is not None and column < len(self.sources):
            return f"{self.sources[column]}:{int(lines[sentence]) + token}"
        source = self.sources[column] if column < len(self.sources) else ("gold", "pred")[min(column, 1)]
        return f"{source}, sentence {self.first_sentence + sentence + 1}, token {token + 1}"

    def _codes(self, scheme: Scheme) -> tuple[Any, np.ndarray]:
        codes, bad = tag_codes(self.vocab, scheme)
        if bad is not None:
            for c, column in enumerate(self.columns):
                at = np.flatnonzero(column == bad)
                if len(at):
                    i = int(at[0])
                    s = int(np.searchsorted(self.offsets, i, side="right")) - 1
                    raise _bad_at(self, c, s, i - int(self.offsets[s]), bad, scheme)
        # conlleval.pl reads a type "0" as no type (Perl's truth): its spans behave as a type of their own that an O
        # does not end; the code 0 holds that rule, and the name "0" is given back to its spans
        stream_type = codes.type.copy()
        if scheme.family == "conlleval" and "0" in codes.types:
            stream_type[stream_type == codes.types.index("0") + 1] = 0
        return codes, stream_type

    def _stream(self, c: int, codes: Any, stream_type: np.ndarray) -> Any:
        ids = self.columns[c]
        return stream_of(codes.prefix[ids], stream_type[ids], self.offsets)

    def count(self, scheme: str | Scheme = "conlleval", unit: str = "auto", *, details: bool = True) -> SpanCounts:
        """The counts of the one predicted column against gold, with the tag-level counts, the invalid transitions
        and, with ``details``, the partial-match modes and the span confusion (``None`` without: conlleval.pl's
        report shows neither)."""
        if len(self.columns) != 2:
            raise OptionError("count() takes gold and one predicted column; count_systems() several")
        scheme = scheme_of(scheme) if isinstance(scheme, str) else scheme
        codes, stream_type = self._codes(scheme)
        units = Units.of(unit, self.n_sentences, self.documents, self.first_sentence)
        streams = [self._stream(c, codes, stream_type) for c in (0, 1)]
        names, zero = _names(codes, scheme)
        gold, pred = (_typed(find_chunks(s, scheme), zero) for s in streams)
        hit, kept = self._matches(scheme, streams, gold, pred, zero)
        blocks = _rows(gold, [(pred, hit, kept)], names, units)
        checks = self._checks(streams, ("gold", "pred"), scheme)
        modes, confusion = _modes(gold, pred, names) if details else (None, None)
        right = int(np.count_nonzero(self.columns[0] == self.columns[1]))
        n_tokens = int(self.offsets[-1]) if len(self.offsets) else 0
        return SpanCounts(
            scheme.name,
            _pairs(blocks),  # type: ignore[arg-type]
            blocks,
            units.name,
            self.n_sentences,
            0 if self.documents is None else _n_docs(self.documents),
            TokenCounts(n_tokens, right, self.n_docstart),
            checks.transitions,
            checks.sites,
            checks.merged,
            modes,
            confusion,
        )

    def _checks(self, streams: Sequence[Any], columns: Sequence[str], scheme: Scheme) -> SpanChecks:
        """The invalid transitions of each column (named by ``columns``), the first places of each kind, and the
        spans conlleval's rules merged."""
        transitions: dict[tuple[str, str], int] = {}
        sites: list[tuple[str, str, str]] = []
        merged: dict[str, int] = {}
        for c, (column, stream) in enumerate(zip(columns, streams)):
            found = invalid_transitions(stream, scheme)
            counts = np.bincount(found.kind, minlength=len(found.kinds))
            for kind, n in zip(found.kinds, counts.tolist()):
                transitions[(column, kind)] = n
            # the first few of each kind, in the order they come in the column (so the column's first site is
            # its first invalid transition, however the reading was cut in chunks)
            shown = [np.flatnonzero(found.kind == k)[:SITES_SHOWN] for k in range(len(found.kinds))]
            for i in sorted(np.concatenate(shown).tolist()) if shown else []:
                place = self.place(c, int(found.sentence[i]), int(found.token[i]))
                sites.append((column, found.kinds[int(found.kind[i])], place))
            if scheme.family == "conlleval":
                n = _merges(stream)
                if n:
                    merged[column] = n
        return SpanChecks(FrozenDict(sorted(transitions.items())), tuple(sites), FrozenDict(merged))

    def count_systems(
        self, scheme: str | Scheme = "conlleval", unit: str = "auto", names: Sequence[str] | None = None
    ) -> tuple[dict[Any, int], Blocks, SpanChecks]:
        """The rows of every system (gold, then each system's match) with multiplicities, their blocks, and what
        reading each column's tags found (columns named ``gold`` and ``names``, default ``pred 1``, ``pred 2`` …)."""
        scheme = scheme_of(scheme) if isinstance(scheme, str) else scheme
        codes, stream_type = self._codes(scheme)
        units = Units.of(unit, self.n_sentences, self.documents, self.first_sentence)
        type_names, zero = _names(codes, scheme)
        streams = [self._stream(c, codes, stream_type) for c in range(len(self.columns))]
        gold = _typed(find_chunks(streams[0], scheme), zero)
        systems = []
        for stream in streams[1:]:
            pred = _typed(find_chunks(stream, scheme), zero)
            hit, kept = self._matches(scheme, [streams[0], stream], gold, pred, zero)
            systems.append((pred, hit, kept))
        blocks = _rows(gold, systems, type_names, units)
        columns = ["gold", *(names or [f"pred {i}" for i in range(1, len(streams))])]
        return _pairs(blocks), blocks, self._checks(streams, columns, scheme)

    def errors(self, scheme: str | Scheme) -> list[tuple[int, int, str, str, str, str]]:
        """Every wrong span: (sentence number from 1, line or 0, error, gold span, predicted span, tokens), errors
        ``missed``, ``spurious``, ``type``, ``boundaries`` or ``type and boundaries`` (a wrong gold span and the
        wrong predicted span that overlaps it most), spans written ``TYPE first-last`` (tokens from 1)."""
        scheme = scheme_of(scheme) if isinstance(scheme, str) else scheme
        codes, stream_type = self._codes(scheme)
        streams = [self._stream(c, codes, stream_type) for c in (0, 1)]
        names, zero = _names(codes, scheme)
        gold, pred = (_typed(find_chunks(s, scheme), zero) for s in streams)
        hit, kept = self._matches(scheme, streams, gold, pred, zero)
        wrong_g = np.flatnonzero(~hit)
        wrong_p = np.flatnonzero(~kept)
        by_sentence: dict[int, tuple[list[int], list[int]]] = {}
        for i in wrong_g.tolist():
            by_sentence.setdefault(int(gold.sentence[i]), ([], []))[0].append(i)
        for j in wrong_p.tolist():
            by_sentence.setdefault(int(pred.sentence[j]), ([], []))[1].append(j)
        lines = self.first_lines[0] if self.first_lines else None
        out = []

        def span(chunks: Chunks, i: int) -> str:
            return f"{names[int(chunks.type[i]) - 1]} {int(chunks.start[i]) + 1}-{int(chunks.end[i])}"

        def tokens(s: int, a: int, b: int) -> str:
            if self.words is None:
                return ""
            base = int(self.offsets[s])
            return " ".join(str(self.words[base + k]) for k in range(a, b))

        for s in sorted(by_sentence):
            gs, ps = by_sentence[s]
            used: set[int] = set()
            first = int(lines[s]) if lines is not None else None

            def line_of(a: int, first: int | None = first) -> int:
                return 0 if first is None else first + a

            for i in gs:
                a, b = int(gold.start[i]), int(gold.end[i])
                best, overlap = None, 0
                for j in ps:
                    if j in used:
                        continue
                    o = min(b, int(pred.end[j])) - max(a, int(pred.start[j]))
                    if o > overlap:
                        best, overlap = j, o
                if best is None:
                    out.append((self.first_sentence + s + 1, line_of(a), "missed", span(gold, i), "", tokens(s, a, b)))
                    continue
                used.add(best)
                c, d = int(pred.start[best]), int(pred.end[best])
                same_type = gold.type[i] == pred.type[best]
                same_bounds = (a, b) == (c, d)
                error = "boundaries" if same_type else "type" if same_bounds else "type and boundaries"
                out.append(
                    (
                        self.first_sentence + s + 1,
                        line_of(min(a, c)),
                        error,
                        span(gold, i),
                        span(pred, best),
                        tokens(s, min(a, c), max(b, d)),
                    )
                )
            for j in ps:
                if j not in used:
                    c, d = int(pred.start[j]), int(pred.end[j])
                    out.append(
                        (self.first_sentence + s + 1, line_of(c), "spurious", "", span(pred, j), tokens(s, c, d))
                    )
        return out

    def _matches(
        self, scheme: Scheme, streams: Sequence[Any], gold: Chunks, pred: Chunks, zero: int
    ) -> tuple[np.ndarray, np.ndarray]:
        if scheme.family != "conlleval":
            return matched_flags(gold, pred)
        # conlleval.pl's own count of correct spans: those its state machine closes in both columns at once
        opened, _ = conlleval_matches(streams[0], streams[1])
        first = streams[0].first
        g_pos = first[gold.sentence] + gold.start if len(gold) else np.zeros(0, dtype=np.int64)
        p_pos = first[pred.sentence] + pred.start if len(pred) else np.zeros(0, dtype=np.int64)
        at = np.zeros(len(streams[0].prefix), dtype=bool)
        at[opened] = True
        return at[g_pos], at[p_pos]


def _bad_at(seqs: TagSequences, column: int, sentence: int, token: int, bad: int, scheme: Scheme) -> InputError:
    return InputError(str(bad_tag(seqs.vocab[bad], scheme)), seqs.place(column, sentence, token))


def _names(codes: Any, scheme: Scheme) -> tuple[tuple[str, ...], int]:
    """The type names by code (from 1), and the code conlleval.pl's spans of type "0" carry in the stream (0)."""
    zero = codes.types.index("0") + 1 if scheme.family == "conlleval" and "0" in codes.types else -1
    return tuple(codes.types), zero


def _typed(chunks: Chunks, zero: int) -> Chunks:
    """Spans whose stream type is conlleval.pl's "no type" (code 0) get back the code of the type "0"."""
    if zero < 0:
        return chunks
    return Chunks(chunks.sentence, chunks.start, chunks.end, np.where(chunks.type == 0, zero, chunks.type))


def _merges(stream: Any) -> int:
    """conlleval.pl's merges in one column: B- and S- tags that IOBES reads as a new span but conlleval.pl reads as
    the continuation of the span before (of the same type)."""
    start, _ = conlleval_flags(stream)
    p, t = stream.prefix, stream.type
    pp, pt = stream.previous
    opens = (p == PREFIXES.index("B")) | (p == PREFIXES.index("S"))
    return int(np.count_nonzero(opens & ~start & (pp != 0) & (pt == t)))
