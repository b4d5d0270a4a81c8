"""Tags → spans, for whole arrays of sentences at once: the schemes' rules applied with array operations.

The sentences are laid end to end with one ``O`` between them and at both ends (the *stream*), as ``conlleval.pl``
reads a file (a sentence break is a token tagged ``O O``) and as seqeval reads each sentence (``O`` before the first
token and after the last). Every rule looks at a token and the one before it, so it is a lookup in a small table
indexed by (previous prefix, prefix, same type): no Python runs per token.

* The conlleval family marks span starts and ends token by token (``startOfChunk``, ``endOfChunk``) and counts a
  span correct with conlleval.pl's state machine (a span opened in both columns at once, of one type, closed in both
  at once). The machine's state after a token is that of the last token that opened or closed a match, so it is
  computed with a running maximum.
* The strict family follows seqeval's loop: from a start, a span runs while the inside patterns match and counts
  only if the end pattern matches at the first token that does not continue it; tokens skipped that way are not
  looked at for starts. Tokens that do not continue a span cut the stream into segments; a segment holds at most
  one span, opened at its first start.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from clfeval.spans.schemes import CONLLEVAL_END, CONLLEVAL_START, PREFIXES, Scheme

__all__ = ["Chunks", "Stream", "Transitions", "conlleval_matches", "find_chunks", "invalid_transitions", "stream_of"]

_O = 0
_K = len(PREFIXES)


@dataclass(frozen=True, eq=False)
class Stream:
    """Sentences laid end to end with an ``O`` between them: ``prefix`` and ``type`` codes per position (type 0:
    none), ``sentence`` and ``token`` of each position (the separator before sentence s has token −1), and where each
    sentence starts (``first``, the position of its first token)."""

    prefix: np.ndarray
    type: np.ndarray
    sentence: np.ndarray
    token: np.ndarray
    first: np.ndarray

    @cached_property
    def previous(self) -> tuple[np.ndarray, np.ndarray]:
        """The prefix and type codes of the position before each (``O`` and 0 before the first)."""
        pp = np.empty_like(self.prefix, dtype=np.int8)
        pt = np.empty_like(self.type, dtype=np.int32)
        if len(pp):
            pp[0], pt[0] = _O, 0
            pp[1:], pt[1:] = self.prefix[:-1], self.type[:-1]
        return pp, pt

    @cached_property
    def conlleval(self) -> tuple[np.ndarray, np.ndarray]:
        """conlleval.pl's ``startOfChunk`` and ``endOfChunk`` at every position (computed once a stream)."""
        p, t = self.prefix, self.type
        pp, pt = self.previous
        pair = pp.astype(np.intp) * _K + p
        changed = pt != t
        start = np.take(_C_START.ravel(), pair) | ((p != _O) & changed)
        end = np.take(_C_END.ravel(), pair) | ((pp != _O) & changed)
        return start, end


def stream_of(prefix: np.ndarray, types: np.ndarray, offsets: np.ndarray) -> Stream:
    """The stream of tokens with prefix and type codes ``prefix``, ``types`` (one per token), in sentences
    ``offsets[s]:offsets[s + 1]``."""
    offsets = np.asarray(offsets, dtype=np.int64)
    n_sent = len(offsets) - 1
    n_tok = int(offsets[-1]) if n_sent >= 0 else 0
    size = n_tok + n_sent + 1
    first = offsets[:-1] + np.arange(n_sent, dtype=np.int64) + 1  # position of each sentence's first token
    token_pos = np.arange(n_tok, dtype=np.int64) + np.repeat(np.arange(n_sent, dtype=np.int64) + 1, np.diff(offsets))
    p = np.zeros(size, dtype=np.int8)
    t = np.zeros(size, dtype=np.int32)
    p[token_pos] = prefix
    t[token_pos] = types
    lengths = np.diff(offsets)
    sentence = np.repeat(np.arange(n_sent + 1, dtype=np.int64), np.r_[lengths + 1, 1])
    sentence[-1] = max(n_sent - 1, 0)
    token = np.full(size, -1, dtype=np.int64)
    token[token_pos] = np.arange(n_tok, dtype=np.int64) - np.repeat(offsets[:-1], lengths)
    return Stream(p, t, sentence, token, first)


@dataclass(frozen=True, eq=False)
class Chunks:
    """Spans found in one column: sentence, first token, end (one past the last token, within the sentence) and
    type code of each, in stream order."""

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type: np.ndarray

    def __len__(self) -> int:
        return len(self.start)


def _previous(stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    return stream.previous


def _pairs_table(pairs: tuple[tuple[str, str], ...]) -> np.ndarray:
    table = np.zeros((_K, _K), dtype=bool)
    for a, b in pairs:
        table[PREFIXES.index(a), PREFIXES.index(b)] = True
    return table


_C_START = _pairs_table(CONLLEVAL_START)
_C_END = _pairs_table(CONLLEVAL_END)


def conlleval_flags(stream: Stream) -> tuple[np.ndarray, np.ndarray]:
    """conlleval.pl's ``startOfChunk`` and ``endOfChunk`` at every position (an end at i: a span ended between
    i − 1 and i)."""
    return stream.conlleval


def _next_at(flags: np.ndarray, at: np.ndarray) -> np.ndarray:
    """For each position i of ``at``, the first position j > i where ``flags[j]`` (the length when there is none)."""
    pos = np.r_[np.flatnonzero(flags), len(flags)]
    return pos[np.searchsorted(pos, at, side="right")]


def _chunks(stream: Stream, start_pos: np.ndarray, end_pos: np.ndarray) -> Chunks:
    sentence = stream.sentence[start_pos]
    first = stream.first[sentence] if len(stream.first) else np.zeros(0, dtype=np.int64)
    start = start_pos - first
    # a span ends within its sentence (conlleval.pl's spans of a type it reads as none may run past a sentence break)
    last = np.r_[stream.first[1:] - 1, len(stream.prefix) - 1][sentence] if len(stream.first) else first
    end = np.minimum(end_pos, last) - first
    return Chunks(sentence, start, end, stream.type[start_pos])


def find_chunks(stream: Stream, scheme: Scheme) -> Chunks:
    """The spans of one column under ``scheme``."""
    if scheme.family == "conlleval":
        start, end = conlleval_flags(stream)
        begins = np.flatnonzero(start)
        return _chunks(stream, begins, _next_at(start | end, begins))
    starts, insides, ends = scheme.tables
    p, t = stream.prefix, stream.type
    pp, pt = _previous(stream)
    same = (pt == t).astype(np.int8)
    s = starts[pp, p, same]
    inside = insides[pp, p, same]
    e = ends[pp, p, same]
    segment_start = np.flatnonzero(~inside)  # position 0 (an O) always opens a segment
    segment = np.cumsum(~inside) - 1
    candidates = np.flatnonzero(s)
    first_in_segment, at = np.unique(segment[candidates], return_index=True)
    opened = candidates[at]
    closing = np.r_[segment_start[1:], len(p)][first_in_segment]  # the first position that does not continue it
    valid = e[np.minimum(closing, len(p) - 1)] & (closing < len(p))
    return _chunks(stream, opened[valid], closing[valid])


def conlleval_matches(gold: Stream, pred: Stream) -> tuple[np.ndarray, np.ndarray]:
    """The spans conlleval.pl counts correct: for each, the stream position where both columns opened it, and its
    type code (conlleval.pl's ``$correctChunk``, found with its state machine).

    Notes
    -----
    At each position conlleval.pl first closes a match in progress (counted when both columns end a span there
    and the previous types agree; dropped when only one column ends one, or the types differ), then opens one where
    both columns start a span of one type. The state after position i is therefore that of the last position that
    opened or closed a match: found for each position that counts one by a search among those positions.
    """
    gs, ge = conlleval_flags(gold)
    ps, pe = conlleval_flags(pred)
    tg, tp = gold.type, pred.type
    _, ptg = _previous(gold)
    _, ptp = _previous(pred)
    opens = gs & ps & (tg == tp)
    counted = ge & pe & (ptg == ptp)
    killed = counted | (ge != pe) | (tg != tp)
    events = np.flatnonzero(opens | killed)
    closing = np.flatnonzero(counted)
    # the last event before each position that closes: a match is open there when that event opened one
    last = np.searchsorted(events, closing, side="left") - 1
    open_before = last >= 0
    open_before[open_before] = opens[events[last[open_before]]]
    at = closing[open_before]
    opened_at = events[last[open_before]]
    types = ptg[at]
    if len(events) and opens[events[-1]]:  # still open at the end of the file: counted with the last type
        opened_at = np.r_[opened_at, events[-1]]
        types = np.r_[types, tg[-1]]
    return opened_at.astype(np.int64), types.astype(np.int32)


@dataclass(frozen=True, eq=False)
class Transitions:
    """The invalid transitions of one column: where (sentence, token of the tag that breaks the rule) and of which
    kind (a code into ``kinds``, named like ``O → I-X`` or ``B-X → end of sentence``)."""

    sentence: np.ndarray
    token: np.ndarray
    kind: np.ndarray
    kinds: tuple[str, ...]


def _tag_name(prefix: int, letter: str, boundary: bool) -> str:
    if boundary:
        return ""
    return "O" if prefix == _O else f"{PREFIXES[prefix]}-{letter}"


def _member(prefix: np.ndarray, letters: str | tuple[str, ...] | list[str]) -> np.ndarray:
    """Whether each prefix code is one of ``letters`` (a lookup, not a search)."""
    table = np.zeros(_K, dtype=bool)
    table[[PREFIXES.index(x) for x in letters]] = True
    return np.take(table, prefix.astype(np.intp))


def invalid_transitions(stream: Stream, scheme: Scheme) -> Transitions:
    """Transitions that break ``scheme``'s well-formedness (:attr:`~clfeval.spans.schemes.Scheme.needs_before`,
    ``needs_after``), each at the tag that breaks it."""
    p, t = stream.prefix, stream.type
    pp, pt = _previous(stream)
    boundary = stream.token < 0
    prev_boundary = np.r_[True, boundary[:-1]]
    same = pt == t
    bad = np.zeros(len(p), dtype=bool)  # at i: the pair (i − 1, i) breaks a rule
    for now, before in (scheme.needs_before or {}).items():
        code = PREFIXES.index(now)
        ok = _member(pp, before) & same & ~prev_boundary
        bad |= (p == code) & ~ok
    for now, after in (scheme.needs_after or {}).items():
        code = PREFIXES.index(now)
        ok = _member(p, after) & same & ~boundary
        bad |= (pp == code) & ~prev_boundary & ~ok
    at = np.flatnonzero(bad)
    # the kind: previous and current prefix, whether the types agree, and the sentence boundaries around them
    code = ((pp[at].astype(np.int64) * _K + p[at]) * 2 + same[at]) * 4 + prev_boundary[at] * 2 + boundary[at]
    distinct, inverse = np.unique(code, return_inverse=True)
    names = []
    for c in distinct.tolist():
        c, cur_boundary = divmod(c, 2)
        c, prev_b = divmod(c, 2)
        c, same_type = divmod(c, 2)
        prev_prefix, cur_prefix = divmod(c, _K)
        left = "start of sentence" if prev_b else _tag_name(prev_prefix, "X", False)
        right = "end of sentence" if cur_boundary else _tag_name(cur_prefix, "X" if same_type or prev_b else "Y", False)
        names.append(f"{left} → {right}")
    # where: the tag that breaks the rule (at a sentence's end, its last token)
    where = np.where(boundary[at], at - 1, at)
    return Transitions(stream.sentence[where], stream.token[where], inverse.astype(np.int64), tuple(names))
