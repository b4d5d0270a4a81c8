"""Gold spans against predicted spans: exact matches (the standard), the four partial-match modes of SemEval-2013
(nervaluate), and which predicted span each gold span met (the span confusion table).

Spans are arrays (sentence, start, end, type code), ``end`` one past the last token. Exact matching groups equal
spans by sorting. The partial-match modes and the confusion table pair overlapping spans: in a sentence where every
span overlaps at most one span of the other column (all tag sequences, nearly always) the pairs are read off with
array operations; sentences with a span that overlaps several are resolved one by one with the rule below.

The rule (order-free): spans are taken in position order (start, end, type), whatever order the annotations came
in; matches of the mode's exact kind are made first (``type``: equal boundaries and type); then each predicted
span, in order, takes the first unmatched gold span it overlaps (``type``: the closest of the same type, else the
first of another). On spans that do not overlap within a column this is what nervaluate 1.2.1 computes on lists in
position order.
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
    order = np.lexsort((side, kind, end, start, sentence))
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
    porder = np.lexsort((pred.start, pred.sentence))
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
    """The partial-match counts and the span confusion of ``gold`` against ``pred`` (type codes 1…``n_types``)."""
    k1 = n_types + 1
    modes = np.zeros((len(MODES), k1, len(MODE_COUNTS)), dtype=np.int64)
    confusion = np.zeros((k1, k1, 2), dtype=np.int64)
    g, p = _overlaps(gold, pred)
    g_deg = np.bincount(g, minlength=len(gold))
    p_deg = np.bincount(p, minlength=len(pred))
    # sentences where a span meets several: resolved span by span
    tangled = np.zeros(0, dtype=np.int64)
    if len(g):
        several = (g_deg[g] > 1) | (p_deg[p] > 1)
        tangled = np.unique(gold.sentence[g[several]])
    g_in = np.isin(gold.sentence, tangled)
    p_in = np.isin(pred.sentence, tangled)
    simple = ~np.isin(gold.sentence[g], tangled) if len(g) else np.zeros(0, dtype=bool)
    g, p = g[simple], p[simple]
    gt, pt = gold.type[g].astype(np.int64), pred.type[p].astype(np.int64)
    bounds = (gold.start[g] == pred.start[p]) & (gold.end[g] == pred.end[p])
    same = gt == pt
    lone_g = ~g_in & (g_deg == 0)
    lone_p = ~p_in & (p_deg == 0)
    lone_gt = gold.type[lone_g].astype(np.int64)
    lone_pt = pred.type[lone_p].astype(np.int64)
    np.add.at(confusion, (gt, pt, (~bounds).astype(np.int64)), 1)
    np.add.at(confusion, (lone_gt, 0, 0), 1)
    np.add.at(confusion, (0, lone_pt, 0), 1)
    c = {name: i for i, name in enumerate(MODE_COUNTS)}
    for m, mode in enumerate(MODES):
        hit = {"strict": bounds & same, "exact": bounds, "partial": bounds, "type": same}[mode]
        other = "partial" if mode == "partial" else "incorrect"
        overall = modes[m, 0]
        overall[c["correct"]] += int(hit.sum())
        overall[c[other]] += int((~hit).sum())
        overall[c["missed"]] += int(lone_g.sum())
        overall[c["spurious"]] += int(lone_p.sum())
        per = modes[m]
        # per type: only spans of that type take part; a pair of two types leaves a missed and a spurious span
        np.add.at(per[:, c["missed"]], lone_gt, 1)
        np.add.at(per[:, c["spurious"]], lone_pt, 1)
        np.add.at(per[:, c["missed"]], gt[~same], 1)
        np.add.at(per[:, c["spurious"]], pt[~same], 1)
        both = gt[same]
        hit_same = np.ones(len(both), dtype=bool) if mode == "type" else bounds[same]
        np.add.at(per[:, c["correct"]], both[hit_same], 1)
        np.add.at(per[:, c[other]], both[~hit_same], 1)
    for s in tangled.tolist():
        gi = np.flatnonzero(gold.sentence == s)
        pi = np.flatnonzero(pred.sentence == s)
        gs = [(int(gold.start[i]), int(gold.end[i]), int(gold.type[i])) for i in gi]
        ps_ = [(int(pred.start[i]), int(pred.end[i]), int(pred.type[i])) for i in pi]
        _resolve(sorted(gs), sorted(ps_), modes, confusion)
    return Matched(modes, confusion)


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


def _resolve(gold: list[Span], pred: list[Span], modes: np.ndarray, confusion: np.ndarray) -> None:
    """Add the counts of one sentence's spans, resolved span by span."""
    for m, mode in enumerate(MODES):
        modes[m, 0] += mode_counts(gold, pred, mode)
        for t in {s[2] for s in gold} | {s[2] for s in pred}:
            modes[m, t] += mode_counts([s for s in gold if s[2] == t], [s for s in pred if s[2] == t], mode)
    for g, p, boundary in pair_spans(gold, pred):
        confusion[g, p, boundary] += 1


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
