"""Multi-label counts: unique (gold label set, predicted label set) pairs with multiplicities."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.limits import check_dense, check_total, whole_count
from clfeval.errors import InputError, OptionError, unknown_name

__all__ = [
    "EMPTY_LABEL",
    "EMPTY_POLICIES",
    "DUPLICATE_POLICIES",
    "LabelSet",
    "LabelSetCounts",
    "MultiLabel",
    "SplitMatrix",
    "canonical_set",
]

LabelSet = tuple[str, ...]

#: The name of the empty label set when ``empty="label"`` makes it a label of its own.
EMPTY_LABEL = "NONE"

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
        If the label ``NONE`` co-occurs with another label while ``empty="label"``.
    """
    items = sorted(labels) if duplicates == "keep" else sorted(set(labels))
    if empty == "label":
        if not items:
            return (EMPTY_LABEL,)
        if EMPTY_LABEL in items and len(items) > 1:
            raise InputError(
                f"label {EMPTY_LABEL} stands for the empty set and cannot co-occur with other labels: {items}"
            )
    return tuple(items)


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
    """Van Asch's split-count confusion matrix for multi-label data (§5.2, Table 7).

    ``labels`` ends with the empty set ``"∅"``. ``gold_view[g, p]`` adds up, along each row,
    to the gold frequency of ``g``; ``predicted_view[g, p]`` adds up, down each column, to
    the predicted frequency of ``p``.

    Notes
    -----
    For an instance with gold set G and predicted set P, each label of G ∩ P adds 1 to the
    diagonal of both views. The leftovers G' = G ∖ P and P' = P ∖ G are spread: in the gold
    view each g ∈ G' adds 1/|P'| to (g, p) for every p ∈ P'; in the predicted view each
    p ∈ P' adds 1/|G'| to (g, p) for every g ∈ G'. A leftover with nothing opposite goes to
    the empty row or column ∅.
    """

    labels: tuple[str, ...]
    gold_view: np.ndarray
    predicted_view: np.ndarray


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
        pairs = {k: whole_count(v, f"the count of {k!r}") for k, v in sorted(self.pairs.items())}
        check_total(sum(pairs.values()), "the counts add up to")
        pairs = {k: v for k, v in pairs.items() if v}
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
    def n_instances(self) -> int:
        """Number of instances counted."""
        return int(self._weights.sum())

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label that occurs in a gold or predicted set, sorted."""
        seen = {lab for g, p in self._keys for lab in (*g, *p)}
        return tuple(sorted(seen))

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

    def indicator(self, label_set: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Multiplicity matrices ``G[u, λ]`` and ``P[u, λ]`` over the unique pairs u, and the weights."""
        index = {lab: i for i, lab in enumerate(label_set)}
        u, k = len(self._keys), len(label_set)
        check_dense(k, rows=u)
        g_mat = np.zeros((u, k), dtype=np.int64)
        p_mat = np.zeros((u, k), dtype=np.int64)
        for row, (g, p) in enumerate(self._keys):
            for lab in g:
                if lab in index:
                    g_mat[row, index[lab]] += 1
            for lab in p:
                if lab in index:
                    p_mat[row, index[lab]] += 1
        return g_mat, p_mat, self._weights

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
        g_mat, p_mat, w = self.indicator(label_set)
        both = np.minimum(g_mat, p_mat)
        tp = w @ both
        fp = w @ (p_mat - both)
        fn = w @ (g_mat - both)
        tn = w @ ((g_mat == 0) & (p_mat == 0)).astype(np.int64)
        return LabelCounts(tuple(label_set), tp, fp, fn, tn, self.n_instances)

    def exact_matches(self) -> int:
        """Instances whose predicted label list equals the gold list (subset accuracy's numerator)."""
        return int(sum(w for (g, p), w in zip(self._keys, self._weights) if g == p))

    def split_matrix(self, labels: Sequence[str]) -> SplitMatrix:
        """The split-count confusion matrix over ``labels`` (which must hold every label that occurs) plus ∅."""
        names = tuple(labels) + ("∅",)
        index = {lab: i for i, lab in enumerate(labels)}
        empty = len(labels)
        check_dense(len(names), what="the multi-label split-count confusion matrix as a dense K×K table")
        gold_view = np.zeros((len(names), len(names)))
        pred_view = np.zeros((len(names), len(names)))
        for (g, p), w in zip(self._keys, self._weights):
            left_g, left_p = Counter(g), Counter(p)
            matched = left_g & left_p
            for lab, c in matched.items():
                gold_view[index[lab], index[lab]] += w * c
                pred_view[index[lab], index[lab]] += w * c
            left_g -= matched
            left_p -= matched
            n_g, n_p = sum(left_g.values()), sum(left_p.values())
            if n_g and n_p:
                for lab_g, cg in left_g.items():
                    for lab_p, cp in left_p.items():
                        cell = index[lab_g], index[lab_p]
                        gold_view[cell] += w * cg * cp / n_p  # each gold leftover spreads 1 over P'
                        pred_view[cell] += w * cp * cg / n_g  # each predicted leftover spreads 1 over G'
            else:  # leftovers with nothing opposite: unsplit, the same in both views
                for lab, c in left_g.items():
                    gold_view[index[lab], empty] += w * c
                    pred_view[index[lab], empty] += w * c
                for lab, c in left_p.items():
                    gold_view[empty, index[lab]] += w * c
                    pred_view[empty, index[lab]] += w * c
        return SplitMatrix(names, gold_view, pred_view)
