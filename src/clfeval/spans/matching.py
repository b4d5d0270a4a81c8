"""Gold spans against predicted spans: exact matches (the standard), the four partial-match modes of SemEval-2013
(nervaluate), and which predicted span each gold span met (the span confusion table).

Spans are arrays (sentence, start, end, type code), ``end`` one past the last token. Exact matching groups equal
spans by sorting. The partial-match modes and the confusion table pair overlapping spans, all sentences at once:
each rule below is a greedy matching over the pairs of overlapping spans in an order of priority, taken in rounds of
array operations (:func:`_greedy`); no Python runs per sentence or per span.

The rule (order-free): spans are taken in position order (start, end, type), whatever order the annotations came
in; matches of the mode's exact kind are made first (``type``: equal boundaries and type); then each predicted
span, in order, takes the first unmatched gold span it overlaps (``type``: the closest of the same type, else the
first of another). On spans that do not overlap within a column this is what nervaluate 1.2.1 computes on lists in
position order. :func:`mode_counts` and :func:`pair_spans` state the rules span by span, one sentence at a time:
the reference the array computation is tested against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.spans.chunks import Chunks

__all__ = [
    "MODES",
    "HALF_CREDIT",
    "MODE_COUNTS",
    "Matched",
    "exact_rows",
    "lexsort",
    "matched_flags",
    "match_spans",
]

#: The partial-match modes (Segura-Bedmar et al. 2013; nervaluate's names: strict, exact, partial, ent_type).
MODES: Mapping[str, str] = {
    "strict": "boundaries and type match exactly (= exact matching's tp)",
    "exact": "boundaries match exactly, whatever the type",
    "partial": "spans overlap; correct when the boundaries match, partial (half credit) when they only overlap",
    "type": "spans overlap and the types match",
}
#: What each mode counts, in this order.
MODE_COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
HALF_CREDIT = {"strict": False, "exact": False, "partial": True, "type": True}


def lexsort(keys: Sequence[np.ndarray]) -> np.ndarray:
    """``np.lexsort(keys)`` (the last key first), as one stable sort of the keys packed into one 64-bit integer when
    their ranges fit (several times faster), else ``np.lexsort`` itself."""
    if not len(keys) or not len(keys[0]):
        return np.lexsort(keys) if len(keys) else np.zeros(0, dtype=np.intp)
    columns = [np.asarray(k).astype(np.int64) for k in keys]
    lows = [int(c.min()) for c in columns]
    spans = [int(c.max()) - low + 1 for c, low in zip(columns, lows)]
    if sum(max(int(x - 1).bit_length(), 1) for x in spans) > 62:
        return np.lexsort(keys)
    packed = np.zeros(len(columns[0]), dtype=np.int64)
    for c, low, size in zip(reversed(columns), reversed(lows), reversed(spans)):
        packed = packed * size + (c - low)
    return np.argsort(packed, kind="stable")


def _group(chunks: Chunks, side: int) -> tuple[np.ndarray, ...]:
    return chunks.sentence, chunks.start, chunks.end, chunks.type.astype(np.int64), np.full(len(chunks), side)


def exact_rows(gold: Chunks, pred: Chunks) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exact matching: for every distinct span, its sentence, type and how often it is in both columns (tp), only in
    gold (fn), only in the predictions (fp); a span listed twice in a column counts twice."""
    g = _equal_spans(gold, pred)
    if g is None:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z, z
    tp = np.minimum(g.n_gold, g.n_pred)
    first = np.flatnonzero(g.new)
    return g.sentence[first], g.kind[first], tp, g.n_gold - tp, g.n_pred - tp


@dataclass(frozen=True)
class _EqualSpans:
    """The spans of both columns sorted by (sentence, start, end, type, column): ``order`` sorts them, ``new`` marks
    the first of each group of equal spans, ``group`` numbers the groups, and ``n_gold``/``n_pred`` count each
    group's spans in either column."""

    order: np.ndarray
    sentence: np.ndarray
    kind: np.ndarray
    side: np.ndarray
    new: np.ndarray
    group: np.ndarray
    n_gold: np.ndarray
    n_pred: np.ndarray


def _equal_spans(gold: Chunks, pred: Chunks) -> _EqualSpans | None:
    parts = [_group(gold, 0), _group(pred, 1)]
    sentence, start, end, kind, side = (np.concatenate([a[i] for a in parts]) for i in range(5))
    if not len(sentence):
        return None
    order = lexsort((side, kind, end, start, sentence))
    s, a, b, k, d = sentence[order], start[order], end[order], kind[order], side[order]
    new = np.r_[True, (s[1:] != s[:-1]) | (a[1:] != a[:-1]) | (b[1:] != b[:-1]) | (k[1:] != k[:-1])]
    group = np.cumsum(new) - 1
    n_groups = int(group[-1]) + 1
    n_gold = np.bincount(group, weights=(d == 0), minlength=n_groups).astype(np.int64)
    n_pred = np.bincount(group, weights=(d == 1), minlength=n_groups).astype(np.int64)
    return _EqualSpans(order, s, k, d, new, group, n_gold, n_pred)


@dataclass(frozen=True, eq=False)
class Matched:
    """The partial-match counts and the span confusion of some spans.

    Attributes
    ----------
    modes
        (4, K + 1, 5) counts: mode (in :data:`MODES` order) × (0: every type together, then type code k) ×
        :data:`MODE_COUNTS`. Per type, only the spans of that type take part (nervaluate's per-type results).
    confusion
        (K + 1, K + 1, 2) counts: gold type × predicted type (0: no span, ∅) × boundaries (0: exact, 1: they only
        overlap) of the one-to-one pairing of overlapping spans (exact boundaries first, then the largest overlap);
        a span paired with nothing is counted against ∅ with exact boundaries (index 0).
    """

    modes: np.ndarray
    confusion: np.ndarray


def _overlaps(gold: Chunks, pred: Chunks) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (gold index, predicted index) of spans in one sentence that share a token."""
    if not len(gold) or not len(pred):
        z = np.zeros(0, dtype=np.int64)
        return z, z
    porder = lexsort((pred.start, pred.sentence))
    ps, pa, pb = pred.sentence[porder], pred.start[porder], pred.end[porder]
    longest = int((pb - pa).max())
    # predicted spans of the sentence that start before the gold span ends, and not so early that they end before it
    lo = _search(ps, pa, gold.sentence, gold.start - longest, "right")
    hi = _search(ps, pa, gold.sentence, gold.end, "left")
    width = np.maximum(hi - lo, 0)
    g = np.repeat(np.arange(len(gold)), width)
    j = np.repeat(lo, width) + (np.arange(int(width.sum())) - np.repeat(np.cumsum(width) - width, width))
    keep = pb[j] > gold.start[g]
    return g[keep], porder[j[keep]]


def _search(sent: np.ndarray, pos: np.ndarray, at_sent: np.ndarray, at_pos: np.ndarray, side: str) -> np.ndarray:
    """Positions in the (sentence, position)-sorted arrays where (``at_sent``, ``at_pos``) would go."""
    key = (sent.astype(np.int64) << 32) + (pos.astype(np.int64) + 2**31)
    probe = (at_sent.astype(np.int64) << 32) + (at_pos.astype(np.int64) + 2**31)
    return np.searchsorted(key, probe, side=side)  # type: ignore[call-overload]


def match_spans(gold: Chunks, pred: Chunks, n_types: int) -> Matched:
    """The partial-match counts and the span confusion of ``gold`` against ``pred`` (type codes 1…``n_types``).

    Every rule of the module is a greedy matching over the pairs of overlapping spans, taken in an order of
    priority: a pair is taken when neither span is taken yet. :func:`_greedy` takes them with array operations.
    For a mode, the pairs of its exact kind are matched first (:func:`matched_flags`, with or without the type);
    then the pairs of the spans left, by predicted span in position order and, for each, by gold span in position
    order (``type``: same type first, by the distance Σ|boundary differences|, then the other types). Per type the
    same is done on the pairs of that type alone. The span confusion takes the pairs by (boundaries not exact,
    −overlap, gold position, predicted position).
    """
    k1 = n_types + 1
    modes = np.zeros((len(MODES), k1, len(MODE_COUNTS)), dtype=np.int64)
    g, p = _overlaps(gold, pred)
    g_rank, p_rank = _position_rank(gold), _position_rank(pred)
    gt, pt = gold.type.astype(np.int64), pred.type.astype(np.int64)
    cg_t, cp_t = gt[g], pt[p]
    bounds = (gold.start[g] == pred.start[p]) & (gold.end[g] == pred.end[p])
    same = cg_t == cp_t
    dist = np.abs(gold.start[g] - pred.start[p]) + np.abs(gold.end[g] - pred.end[p])
    by_position = lexsort((g_rank[g], p_rank[p]))
    by_type_first = lexsort((g_rank[g], dist * same, ~same, p_rank[p]))
    typed = matched_flags(gold, pred)  # equal boundaries and type
    untyped = matched_flags(*(Chunks(c.sentence, c.start, c.end, np.zeros(len(c), np.int32)) for c in (gold, pred)))
    n_gold_t = np.bincount(gt, minlength=k1)
    n_pred_t = np.bincount(pt, minlength=k1)
    c = {name: i for i, name in enumerate(MODE_COUNTS)}
    # every type together
    runs = {
        "strict": (typed, by_position),
        "exact": (untyped, by_position),
        "type": (typed, by_type_first),
    }
    taken_of: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
    for name, ((first_g, first_p), order) in runs.items():
        taken = _greedy(g, p, order, first_g, first_p)
        taken_of[name] = (first_g, first_p, taken, order)
    for m, mode in enumerate(MODES):
        first_g, first_p, taken, order = taken_of["exact" if mode == "partial" else mode]
        pairs = order[taken]
        correct = int(first_p.sum()) + (int(same[pairs].sum()) if mode == "type" else 0)
        other = len(pairs) - (correct - int(first_p.sum()))
        out = modes[m, 0]
        out[c["correct"]] = correct
        out[c["partial" if mode == "partial" else "incorrect"]] = other
        out[c["missed"]] = len(gold) - int(first_g.sum()) - len(pairs)
        out[c["spurious"]] = len(pred) - int(first_p.sum()) - len(pairs)
    # per type: the pairs of one type alone, after the exact matches of boundaries and type
    first_g, first_p = typed
    found_g = np.bincount(gt[first_g], minlength=k1)
    found_p = np.bincount(pt[first_p], minlength=k1)
    for name, order in (("position", by_position), ("type", by_type_first)):
        order = order[same[order]]
        pairs = order[_greedy(g, p, order, first_g, first_p)]
        taken_t = np.bincount(cg_t[pairs], minlength=k1)
        for m, mode in enumerate(MODES):
            if (mode == "type") != (name == "type"):
                continue
            per = modes[m, 1:]
            per[:, c["correct"]] = (found_p + (taken_t if mode == "type" else 0))[1:]
            if mode != "type":
                per[:, c["partial" if mode == "partial" else "incorrect"]] = taken_t[1:]
            per[:, c["missed"]] = (n_gold_t - found_g - taken_t)[1:]
            per[:, c["spurious"]] = (n_pred_t - found_p - taken_t)[1:]
    # the span confusion: exact boundaries first, then the largest overlap, ties in position order
    overlap = np.minimum(gold.end[g], pred.end[p]) - np.maximum(gold.start[g], pred.start[p])
    order = lexsort((p_rank[p], g_rank[g], -overlap, ~bounds))
    none_g = np.zeros(len(gold), dtype=bool)
    none_p = np.zeros(len(pred), dtype=bool)
    pairs = order[_greedy(g, p, order, none_g, none_p)]
    paired_g = np.zeros(len(gold), dtype=bool)
    paired_p = np.zeros(len(pred), dtype=bool)
    paired_g[g[pairs]] = True
    paired_p[p[pairs]] = True
    cell = np.concatenate(
        [
            (cg_t[pairs] * k1 + cp_t[pairs]) * 2 + (~bounds[pairs]),
            gt[~paired_g] * k1 * 2,
            pt[~paired_p] * 2,
        ]
    )
    confusion = np.bincount(cell, minlength=k1 * k1 * 2).reshape(k1, k1, 2).astype(np.int64)
    return Matched(modes, confusion)


def _position_rank(chunks: Chunks) -> np.ndarray:
    """Each span's rank in (sentence, start, end, type) order: position order within a sentence."""
    order = lexsort((chunks.type, chunks.end, chunks.start, chunks.sentence))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank


def _greedy(g: np.ndarray, p: np.ndarray, order: np.ndarray, taken_g: np.ndarray, taken_p: np.ndarray) -> np.ndarray:
    """The greedy matching of the pairs ``order`` (indices into the pairs (``g``, ``p``), best first) of spans not
    yet taken (``taken_g``, ``taken_p``): whether each pair of ``order`` is taken.

    Taking pairs one by one, a pair is taken when neither of its spans is. In rounds, every pair that comes first
    among the pairs left of both its spans is taken at once (no pair before it can take either span), and the pairs
    of the spans so taken are dropped; a round takes at least the first pair left, and most pairs are taken in the
    first round (a chain of spans that each overlap the next takes one round a link).
    """
    used_g = taken_g.copy()
    used_p = taken_p.copy()
    out = np.zeros(len(order), dtype=bool)
    alive = np.flatnonzero(~(used_g[g[order]] | used_p[p[order]]))
    while len(alive):
        a_g, a_p = g[order[alive]], p[order[alive]]
        win = alive[_firsts(a_g, len(used_g)) & _firsts(a_p, len(used_p))]
        out[win] = True
        used_g[g[order[win]]] = True
        used_p[p[order[win]]] = True
        alive = alive[~(used_g[a_g] | used_p[a_p])]
    return out


def _firsts(keys: np.ndarray, n: int) -> np.ndarray:
    """Whether each element is the first of its value in ``keys`` (values below ``n``)."""
    at = np.arange(len(keys), dtype=np.int64)
    first = np.full(n, len(keys), dtype=np.int64)
    np.minimum.at(first, keys, at)
    return first[keys] == at


Span = tuple[int, int, int]


def _overlap(a: Span, b: Span) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def mode_counts(gold: Sequence[Span], pred: Sequence[Span], mode: str) -> list[int]:
    """One mode's (correct, incorrect, partial, missed, spurious) for the spans of one sentence, sorted by position:
    the rule of this module, span by span (the reference the array path is tested against)."""
    matched: set[int] = set()
    taken: dict[int, str] = {}
    # matches of the mode's exact kind first (type: equal boundaries and type, which no overlap can take away; in
    # tag sequences, whose spans do not overlap within a column, no other span could have taken them)
    for j, p in enumerate(pred):
        for i, g in enumerate(gold):
            if i in matched:
                continue
            if g[0] == p[0] and g[1] == p[1] and (mode not in ("strict", "type") or g[2] == p[2]):
                matched.add(i)
                taken[j] = "correct"
                break
    for j, p in enumerate(pred):
        if j in taken:
            continue
        best: int | None = None
        other: int | None = None
        for i, g in enumerate(gold):
            if i in matched or not _overlap(g, p):
                continue
            if mode == "type":
                if g[2] == p[2]:
                    dist = abs(g[0] - p[0]) + abs(g[1] - p[1])
                    if best is None or dist < abs(gold[best][0] - p[0]) + abs(gold[best][1] - p[1]):
                        best = i
                elif other is None:
                    other = i
            elif other is None:
                other = i
        if best is not None:
            matched.add(best)
            taken[j] = "correct"
        elif other is not None:
            matched.add(other)
            taken[j] = "partial" if mode == "partial" else "incorrect"
        else:
            taken[j] = "spurious"
    out = dict.fromkeys(MODE_COUNTS, 0)
    for what in taken.values():
        out[what] += 1
    out["missed"] = len(gold) - len(matched)
    return [out[name] for name in MODE_COUNTS]


def pair_spans(gold: Sequence[Span], pred: Sequence[Span]) -> list[tuple[int, int, int]]:
    """The span confusion's pairs of one sentence: (gold type, predicted type, boundaries) with type 0 for ∅ and
    boundaries 0 (exact, or unpaired) or 1 (they only overlap); pairs by exact boundaries first, then by the largest
    overlap, ties in position order."""
    candidates = sorted(
        (
            (not (g[0] == p[0] and g[1] == p[1]), -_overlap(g, p), i, j)
            for i, g in enumerate(gold)
            for j, p in enumerate(pred)
            if _overlap(g, p)
        )
    )
    used_g: set[int] = set()
    used_p: set[int] = set()
    out = []
    for inexact, _, i, j in candidates:
        if i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
        out.append((gold[i][2], pred[j][2], int(inexact)))
    out += [(g[2], 0, 0) for i, g in enumerate(gold) if i not in used_g]
    out += [(0, p[2], 0) for j, p in enumerate(pred) if j not in used_p]
    return out


def matched_flags(gold: Chunks, pred: Chunks) -> tuple[np.ndarray, np.ndarray]:
    """Exact matching span by span: whether each gold span has an equal predicted span, and each predicted span an
    equal gold span (a span listed twice in a column is matched at most as often as the other column lists it)."""
    g = _equal_spans(gold, pred)
    out = np.zeros(len(gold) + len(pred), dtype=bool)
    if g is not None:
        # rank within (group, side): sides are sorted within a group, gold first
        d = g.side
        run = np.r_[True, g.new[1:] | (d[1:] != d[:-1])]
        starts = np.flatnonzero(run)
        rank = np.arange(len(d)) - np.repeat(starts, np.diff(np.r_[starts, len(d)]))
        other = np.where(d == 0, g.n_pred[g.group], g.n_gold[g.group])
        out[g.order] = rank < other
    return out[: len(gold)], out[len(gold) :]
