"""Multi-label counts: unique (gold label set, predicted label set) pairs with multiplicities."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.limits import MAX_COUNT, check_dense, check_total, whole_count
from clfeval.errors import InputError, OptionError, unknown_name

__all__ = [
    "EMPTY_LABEL",
    "EMPTY_SET",
    "EMPTY_POLICIES",
    "DUPLICATE_POLICIES",
    "LabelSet",
    "LabelSetCounts",
    "MultiLabel",
    "Occurrences",
    "SplitMatrix",
    "canonical_set",
    "indicator_matrix",
    "label_sets",
    "occurrences_of",
]

LabelSet = tuple[str, ...]

#: The name of the empty label set when ``empty="label"`` makes it a label of its own.
EMPTY_LABEL = "NONE"
#: The name of the split-count matrix's last row and column: predicted (gold) leftovers with nothing opposite.
EMPTY_SET = "∅"

EMPTY_POLICIES: Mapping[str, str] = {
    "ignore": "an empty label set is no label: it adds to no label's counts",
    "label": f"an empty label set is the label {EMPTY_LABEL}, which never co-occurs with another label",
}
DUPLICATE_POLICIES: Mapping[str, str] = {
    "keep": "a label listed twice counts twice (gold [A], predicted [A A A]: 1 tp, 2 fp)",
    "collapse": "a label listed twice counts once (label sets are sets)",
}


def canonical_set(labels: Iterable[str], duplicates: str = "keep", empty: str = "ignore") -> LabelSet:
    """The canonical form of one instance's labels: a sorted tuple (with repeats when ``duplicates="keep"``).

    Raises
    ------
    InputError
        If the label ``NONE`` co-occurs with another label while ``empty="label"``, or a label is named ``∅``.
    """
    items = sorted(labels) if duplicates == "keep" else sorted(set(labels))
    if EMPTY_SET in items:
        raise InputError(f"a label is named {EMPTY_SET!r}, the split-count matrix's name for no label: rename it")
    if empty == "label":
        if not items:
            return (EMPTY_LABEL,)
        if EMPTY_LABEL in items and len(items) > 1:
            raise InputError(
                f"label {EMPTY_LABEL} stands for the empty set and cannot co-occur with other labels: {items}"
            )
    return tuple(items)


def indicator_matrix(gold: Any) -> np.ndarray | None:
    """``gold`` as an (n, K) indicator matrix when it is one (an array, or nested lists, of numbers or booleans in
    rows of one length), else ``None`` (label sets: collections of labels, strings)."""
    if isinstance(gold, (str, bytes)) or not hasattr(gold, "__len__"):
        return None
    try:
        matrix = np.asarray(gold)
    except ValueError:  # rows of different lengths: label sets
        return None
    return matrix if matrix.ndim == 2 and matrix.dtype.kind in "biuf" else None


def label_sets(gold: Any, multilabel: MultiLabel) -> Any:
    """Each instance's gold label set as ``multilabel`` takes it: a collection of labels, or a string split on its
    ``sep`` (an (n, K) 0/1 indicator matrix, an array or rows of numbers, passes as an array)."""
    matrix = indicator_matrix(gold)
    if matrix is not None:
        return matrix
    out = []
    for g in gold:
        items = g.split(multilabel.sep) if isinstance(g, str) and multilabel.sep is not None else g
        items = [items] if isinstance(items, str) else [str(x).strip() for x in items]
        out.append(canonical_set([x for x in items if x != ""], multilabel.duplicates, multilabel.empty))
    return out


def _check_policies(duplicates: str, empty: str) -> None:
    if duplicates not in DUPLICATE_POLICIES:
        raise unknown_name("duplicates policy", duplicates, DUPLICATE_POLICIES)
    if empty not in EMPTY_POLICIES:
        raise unknown_name("empty policy", empty, EMPTY_POLICIES)


@dataclass(frozen=True)
class MultiLabel:
    """How each instance's set of labels is taken: the options of multi-label data, in one group.

    ``multilabel=True`` anywhere means ``MultiLabel()``; give a ``MultiLabel`` to change a default.

    Attributes
    ----------
    sep
        The separator of the labels in a cell (``"\\t"`` is read as a tab). ``None``: in files, ``,``; in
        arrays, strings are not split (give collections of labels, or a separator).
    empty
        Whether an empty label set is no label (``ignore``, default) or the label ``NONE`` (``label``);
        see :data:`EMPTY_POLICIES`.
    duplicates
        Whether a label listed twice counts twice (``keep``, default) or once (``collapse``); see
        :data:`DUPLICATE_POLICIES`.
    """

    sep: str | None = None
    empty: str = "ignore"
    duplicates: str = "keep"

    def __post_init__(self) -> None:
        _check_policies(self.duplicates, self.empty)
        if self.sep == "":
            raise OptionError("--label-sep is empty: give the string that separates the labels of a set")
        if self.sep == "\\t":
            object.__setattr__(self, "sep", "\t")  # written \t, as --sep takes it

    @classmethod
    def of(cls, value: bool | MultiLabel | None) -> MultiLabel | None:
        """``True`` → the defaults, ``False`` or ``None`` → single-label data (``None``), a group → itself."""
        if isinstance(value, MultiLabel):
            return value
        if value is None or value is False:
            return None
        if value is True:
            return cls()
        raise OptionError(f"multilabel is True, False or a MultiLabel, not {value!r}")

    @property
    def file_sep(self) -> str:
        """The separator in files: ``sep``, else ``,``."""
        return "," if self.sep is None else self.sep


@dataclass(frozen=True, eq=False)
class SplitMatrix:
    """Van Asch's split-count confusion matrix for multi-label data (§5.2, Table 7), held as its non-zero cells.

    ``labels`` ends with the empty set ``"∅"``. Cell ``i`` is row ``gold[i]``, column ``pred[i]`` (positions in
    ``labels``, sorted by row, then column), with the value ``gold_counts[i]`` in the gold-row view and
    ``predicted_counts[i]`` in the predicted-column view; every other cell is 0 in both. The gold-row view adds up,
    along each row, to the gold frequency of its label; the predicted-column view, down each column, to the
    predicted frequency of its label.

    Notes
    -----
    For an instance with gold set G and predicted set P, each label of G ∩ P adds 1 to the
    diagonal of both views. The leftovers G' = G ∖ P and P' = P ∖ G are spread: in the gold
    view each g ∈ G' adds 1/|P'| to (g, p) for every p ∈ P'; in the predicted view each
    p ∈ P' adds 1/|G'| to (g, p) for every g ∈ G'. A leftover with nothing opposite goes to
    the empty row or column ∅. Held sparse, the matrix costs O(cells) whatever the number of labels; the dense
    views :attr:`gold_view` and :attr:`predicted_view` are built only when asked for.
    """

    labels: tuple[str, ...]
    gold: np.ndarray
    pred: np.ndarray
    gold_counts: np.ndarray
    predicted_counts: np.ndarray

    @property
    def gold_view(self) -> np.ndarray:
        """The gold-row view as a dense (K+1)×(K+1) array."""
        return self._dense(self.gold_counts)

    @property
    def predicted_view(self) -> np.ndarray:
        """The predicted-column view as a dense (K+1)×(K+1) array."""
        return self._dense(self.predicted_counts)

    @property
    def gold_totals(self) -> np.ndarray:
        """Each row's sum in the gold-row view: the label's gold frequency (∅'s: predicted leftovers unmatched)."""
        return np.bincount(self.gold, weights=self.gold_counts, minlength=len(self.labels))

    def _dense(self, values: np.ndarray) -> np.ndarray:
        size = len(self.labels)
        check_dense(size, what="the multi-label split-count confusion matrix as a dense K×K table")
        out = np.zeros((size, size))
        out[self.gold, self.pred] = values
        return out


@dataclass(frozen=True, eq=False)
class LabelSetCounts:
    """Counts of multi-label predictions: how often each (gold set, predicted set) pair occurred.

    Everything multi-label is a function of these pairs: per-label tp/fp/fn/tn,
    per-instance ("samples") scores, subset accuracy and the split-count matrix. Counts of
    parts add up with ``+`` when they were made with the same ``duplicates`` and ``empty``
    policies.
    """

    pairs: Mapping[tuple[LabelSet, LabelSet], int]
    duplicates: str = "keep"
    empty: str = "ignore"
    _keys: tuple[tuple[LabelSet, LabelSet], ...] = field(init=False, repr=False)
    _weights: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_policies(self.duplicates, self.empty)
        # sorted: a canonical order, so seeded resampling gives the same numbers whatever order the reader used
        items = sorted(self.pairs.items())
        counts = list(map(itemgetter(1), items))
        if not set(map(type, counts)) <= {int} or (counts and not 0 <= min(counts) <= max(counts) <= MAX_COUNT):
            counts = [whole_count(v, f"the count of {k!r}") for k, v in items]  # checked one by one, named
        check_total(sum(counts), "the counts add up to")
        pairs = dict(compress(zip(map(itemgetter(0), items), counts), counts))  # the pairs that occur
        object.__setattr__(self, "pairs", pairs)
        object.__setattr__(self, "_keys", tuple(pairs))
        object.__setattr__(self, "_weights", np.fromiter(pairs.values(), dtype=np.int64, count=len(pairs)))

    @classmethod
    def from_instances(
        cls,
        gold: Iterable[Iterable[str]],
        pred: Iterable[Iterable[str]],
        *,
        duplicates: str = "keep",
        empty: str = "ignore",
    ) -> LabelSetCounts:
        """Count instance by instance (for in-memory collections; files are counted by the readers)."""
        _check_policies(duplicates, empty)
        counter: Counter[tuple[LabelSet, LabelSet]] = Counter(
            (canonical_set(g, duplicates, empty), canonical_set(p, duplicates, empty))
            for g, p in zip(gold, pred, strict=True)
        )
        return cls(counter, duplicates, empty)

    @property
    def weights(self) -> np.ndarray:
        """Each unique pair's count, in the order of :attr:`pairs` (int64)."""
        return self._weights

    @property
    def n_instances(self) -> int:
        """Number of instances counted."""
        return int(self._weights.sum())

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label that occurs in a gold or predicted set, sorted."""
        return tuple(sorted(set(chain.from_iterable(chain.from_iterable(self._keys)))))

    def __add__(self, other: object) -> LabelSetCounts:
        if not isinstance(other, LabelSetCounts):
            return NotImplemented
        if (self.duplicates, self.empty) != (other.duplicates, other.empty):
            raise OptionError(
                "cannot add multi-label counts made with different duplicates/empty policies: "
                f"{self.duplicates}/{self.empty} and {other.duplicates}/{other.empty}"
            )
        merged: Counter[tuple[LabelSet, LabelSet]] = Counter(self.pairs)
        merged.update(other.pairs)
        return LabelSetCounts(merged, self.duplicates, self.empty)

    def __radd__(self, other: object) -> LabelSetCounts:
        if other == 0:
            return self
        return self.__add__(other)

    def occurrences(self, label_set: Sequence[str]) -> Occurrences:
        """Each unique pair's labels from ``label_set``, with their multiplicities in the gold and predicted sets
        (rows in the order of :attr:`pairs`)."""
        return occurrences_of(self._keys, label_set)

    def label_counts(self, label_set: Sequence[str]) -> LabelCounts:
        """One-vs-rest counts of each label in ``label_set``.

        Notes
        -----
        With multiplicities G and P of λ in an instance's gold and predicted lists:
        tp += min(G, P), fp += P − min(G, P), fn += G − min(G, P), and tn += 1 when
        G = P = 0: tn counts the instances where neither list holds λ, as the original
        script's per-instance rule and scikit-learn's ``multilabel_confusion_matrix`` do.
        Van Asch's prose (§5.1: gold occurrences that are not λ, minus fp_λ) gives the same
        tn on his Table 6 but differs in general (it can even be negative).
        """
        occ = self.occurrences(label_set)
        w = self._weights[occ.row]
        both = np.minimum(occ.gold, occ.pred)
        tp, fp, fn = (occ.label_sums(w * v) for v in (both, occ.pred - both, occ.gold - both))
        tn = self.n_instances - occ.label_sums(w)  # the instances whose pairs hold λ on neither side
        return LabelCounts(tuple(label_set), tp, fp, fn, tn, self.n_instances)

    def exact_matches(self) -> int:
        """Instances whose predicted label list equals the gold list (subset accuracy's numerator)."""
        return int(sum(w for (g, p), w in zip(self._keys, self._weights) if g == p))

    def split_matrix(self, labels: Sequence[str]) -> SplitMatrix:
        """The split-count confusion matrix over ``labels`` (which must hold every label that occurs) plus ∅.

        Notes
        -----
        Each unique pair adds its weighted share to the cells its leftovers meet (:class:`SplitMatrix`); the
        contributions are gathered into arrays and added up per cell, O(contributions + cells), never a K×K table.
        """
        if EMPTY_SET in labels:
            raise InputError(
                f"a label is named {EMPTY_SET!r}, the split-count matrix's row and column of leftovers with nothing "
                "opposite: rename it (its cells and the leftovers' would be one)"
            )
        names = (*labels, EMPTY_SET)
        empty = len(labels)
        occ = self.occurrences(labels)
        if occ.left_out:
            missing = min(set(self.labels).difference(labels))
            raise OptionError(f"the split-count matrix needs every label that occurs: {missing!r} is not given")
        w = self._weights[occ.row]
        matched = np.minimum(occ.gold, occ.pred)
        left_g, left_p = occ.gold - matched, occ.pred - matched  # G' and P': never both non-zero for one label
        n_g, n_p = occ.row_sums(left_g), occ.row_sums(left_p)
        gi, pi = np.flatnonzero(left_g), np.flatnonzero(left_p)  # entries with leftovers, in row order
        # each gold leftover meets every predicted leftover of its row: (gold entry, predicted entry) pairs
        per_row_p = np.bincount(occ.row[pi], minlength=occ.n_rows)
        first_p = np.cumsum(per_row_p) - per_row_p
        reps = per_row_p[occ.row[gi]]
        g_cross = np.repeat(gi, reps)
        within = np.arange(len(g_cross)) - np.repeat(np.cumsum(reps) - reps, reps)
        p_cross = pi[np.repeat(first_p[occ.row[gi]], reps) + within]
        to_empty_g = gi[reps == 0]  # gold leftovers with nothing opposite: the ∅ column
        to_empty_p = pi[n_g[occ.row[pi]] == 0]  # predicted leftovers with nothing opposite: the ∅ row
        diag = np.flatnonzero(matched)
        spread = w[g_cross] * left_g[g_cross] * left_p[p_cross]
        parts = [  # (row of each contribution, cell row, cell column, gold-row view, predicted-column view)
            (occ.row[diag], occ.label[diag], occ.label[diag], w[diag] * matched[diag], w[diag] * matched[diag]),
            (
                occ.row[g_cross],
                occ.label[g_cross],
                occ.label[p_cross],
                spread / n_p[occ.row[g_cross]],  # each gold leftover spreads 1 over P'
                spread / n_g[occ.row[g_cross]],  # each predicted leftover spreads 1 over G'
            ),
            (
                occ.row[to_empty_g],
                occ.label[to_empty_g],
                np.full(len(to_empty_g), empty),
                w[to_empty_g] * left_g[to_empty_g],
                w[to_empty_g] * left_g[to_empty_g],
            ),
            (
                occ.row[to_empty_p],
                np.full(len(to_empty_p), empty),
                occ.label[to_empty_p],
                w[to_empty_p] * left_p[to_empty_p],
                w[to_empty_p] * left_p[to_empty_p],
            ),
        ]
        source, cell_row, cell_col, gold_part, pred_part = (np.concatenate([p[i] for p in parts]) for i in range(5))
        order = np.argsort(source, kind="stable")  # each cell's shares added in pair order, as one pass over pairs
        size = len(names)
        keys = (cell_row * size + cell_col)[order]
        cells, which = np.unique(keys, return_inverse=True)
        gold_counts = np.bincount(which, weights=gold_part[order].astype(np.float64), minlength=len(cells))
        pred_counts = np.bincount(which, weights=pred_part[order].astype(np.float64), minlength=len(cells))
        return SplitMatrix(names, cells // size, cells % size, gold_counts, pred_counts)


@dataclass(frozen=True, eq=False)
class Occurrences:
    """The labels of unique (gold set, predicted set) pairs, sparse: one entry per (pair, label) where the label is
    in either set.

    Entry ``i`` says that pair ``row[i]`` holds label ``label[i]`` (a position in the label set) ``gold[i]``
    times in its gold set and ``pred[i]`` times in its predicted set; entries are sorted by row, then label. A
    label of neither set has no entry: the table costs O(occurrences), not O(pairs × K).
    """

    row: np.ndarray
    label: np.ndarray
    gold: np.ndarray
    pred: np.ndarray
    n_rows: int
    n_labels: int
    left_out: int = 0  # label occurrences (either side, with multiplicity) of labels outside the set

    def row_sums(self, values: np.ndarray) -> np.ndarray:
        """Σ of ``values`` (one per entry) over each row's entries (int64 in, int64 out)."""
        out = np.zeros(self.n_rows, dtype=np.asarray(values).dtype)
        np.add.at(out, self.row, values)
        return out

    def label_sums(self, values: np.ndarray) -> np.ndarray:
        """Σ of ``values`` (one per entry) over each label's entries."""
        out = np.zeros(self.n_labels, dtype=np.asarray(values).dtype)
        np.add.at(out, self.label, values)
        return out

    def labels_per_row(self) -> np.ndarray:
        """How many labels of the set each row holds on either side."""
        return np.bincount(self.row, minlength=self.n_rows).astype(np.int64)


def occurrences_of(pairs: Sequence[tuple[LabelSet, LabelSet]], label_set: Sequence[str]) -> Occurrences:
    """The :class:`Occurrences` of ``label_set``'s labels in ``pairs`` (rows in the order given); labels outside
    the set are left out.

    Notes
    -----
    Each side's labels are looked up in one C-level pass over all of them (``map`` of the index's ``get``: −1 for a
    label outside the set); the (row, label) keys of both sides are made unique with one sort and each side's
    multiplicities counted with a ``bincount``.
    """
    index = {lab: i for i, lab in enumerate(label_set)}
    k = len(label_set)
    keys = []
    left_out = 0
    for side in (0, 1):
        sets = [pair[side] for pair in pairs]
        lengths = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
        total = int(lengths.sum())
        found = np.fromiter(map(index.get, chain.from_iterable(sets), repeat(-1, total)), dtype=np.int64, count=total)
        inside = found >= 0
        left_out += total - int(inside.sum())
        rows = np.repeat(np.arange(len(sets), dtype=np.int64), lengths)
        keys.append(rows[inside] * max(k, 1) + found[inside])
    entries, which = np.unique(np.concatenate(keys), return_inverse=True)
    n_gold = len(keys[0])
    gold = np.bincount(which[:n_gold], minlength=len(entries)).astype(np.int64)
    pred = np.bincount(which[n_gold:], minlength=len(entries)).astype(np.int64)
    return Occurrences(entries // max(k, 1), entries % max(k, 1), gold, pred, len(pairs), k, left_out)
