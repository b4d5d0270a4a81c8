"""Scored predictions as counts: how often each distinct (gold label, scores) row occurred.

A classifier that outputs a score (or a probability) per class is judged on how the scores rank (ROC AUC, average
precision), how good they are as probabilities (log loss, Brier, calibration) and whether the gold class is among the
top k. Every one of those is a function of the distinct rows (gold, s_1 … s_C) and their multiplicities: scores are
often rounded or few-valued, so the rows compress, the bootstrap is a multinomial draw over them, and counts of parts
add up with ``+``. When every score is distinct the rows are the instances (8 bytes per score, 8 per row for the gold
code and the count).

Binary scores are one column, the positive class's; multi-class scores one column per class (``columns`` names the
class of each column, in order). Multi-label scores are one column per label, and the gold side of a row is the set of
its labels as a 0/1 row of the label indicator (``gold`` of shape rows × labels).

Sample weights (scikit-learn's ``sample_weight``) make the distinct rows (gold, scores, weight value): row r stands for
m_r = ``count[r]`` instances of weight w_r = ``weight[r]``, so every measure reads the weighted mass m_r · w_r
(:attr:`ScoreCounts.mass`) where it read the count, and the count bootstrap draws instances (a multinomial over the m_r)
that keep their weights. Without weights ``weight`` is ``None`` and the mass is the count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.errors import InputError, OptionError

__all__ = ["ScoreCounts", "check_finite", "checked_weights", "distinct_labels", "distinct_rows", "label_indicator"]


@dataclass(frozen=True, eq=False)
class ScoreCounts:
    """Distinct (gold, scores) rows with their counts.

    Attributes
    ----------
    labels
        The classes, in order; ``gold[r]`` is a position in it.
    columns
        The class each score column belongs to: every class (multi-class), or the positive class alone (binary);
        multi-label: every label, in the order of ``labels``.
    gold, scores, count
        Row r: gold class ``labels[gold[r]]`` (multi-label: ``gold[r]`` is a 0/1 row, the labels of its gold set),
        scores ``scores[r]`` (one per column), seen ``count[r]`` times. Rows are distinct and sorted (one column: by
        score, then by gold class; several: by gold, then the scores; weighted: then by weight): a canonical order,
        which a seeded resample draws over.
    weight
        ``None`` (no sample weights), or each row's sample weight (float64 ≥ 0): its ``count[r]`` instances each
        weigh ``weight[r]``, and the measures read the mass ``count · weight``.
    """

    labels: tuple[str, ...]
    columns: tuple[str, ...]
    gold: np.ndarray
    scores: np.ndarray
    count: np.ndarray
    weight: np.ndarray | None = None

    def __post_init__(self) -> None:
        labels, columns = tuple(str(x) for x in self.labels), tuple(str(x) for x in self.columns)
        if len(set(labels)) != len(labels):
            raise OptionError(f"the classes repeat: {', '.join(sorted({x for x in labels if labels.count(x) > 1}))}")
        missing = [c for c in columns if c not in labels]
        if missing or not columns:
            raise OptionError(f"every score column belongs to a class; not among the classes: {missing}")
        gold = np.asarray(self.gold)
        if gold.ndim == 2:  # multi-label: a 0/1 row per distinct row, a score column per label
            if columns != labels or gold.shape[1] != len(labels):
                raise OptionError(
                    "multi-label scores have a column per label, in the labels' order, and a gold row each"
                )
            if gold.size and not np.isin(gold, (0, 1)).all():
                raise OptionError("a multi-label gold row holds 0 and 1 only")
            gold = gold.astype(np.int8)
        else:
            if len(columns) == 1 and len(labels) != 2:
                raise OptionError(f"one score column is the positive class of two classes, not of {len(labels)}")
            gold = gold.astype(np.int64)
            if len(gold) and (gold.min() < 0 or gold.max() >= len(labels)):
                raise OptionError("a gold code outside the classes")
        scores = np.asarray(self.scores, dtype=np.float64).reshape(len(gold), len(columns))
        count = np.asarray(self.count, dtype=np.int64)
        if len(count) != len(gold):
            raise OptionError("gold, scores and count must have one entry per row")
        if len(count) and count.min() < 0:
            raise OptionError("counts must be non-negative")
        if not np.isfinite(scores).all():
            raise OptionError("scores must be finite numbers")
        if self.weight is None:
            gold, scores, count = distinct_rows(gold, scores, count)
            weight = None
        else:
            weight = checked_weights(self.weight, len(count), "weight", positive_sum=False)
            gold, scores, count, weight = distinct_weighted_rows(gold, scores, count, weight)
        for name, value in (("labels", labels), ("columns", columns), ("gold", gold), ("scores", scores)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "weight", weight)

    @classmethod
    def of_arrays(
        cls,
        gold: Sequence[Any] | np.ndarray,
        scores: Sequence[Any] | np.ndarray,
        labels: Sequence[Any] | None = None,
        *,
        positive: Any = None,
        names: Sequence[str] | None = None,
        sample_weight: Sequence[Any] | np.ndarray | None = None,
    ) -> ScoreCounts:
        """Count gold labels against their scores, classes and columns by :func:`clfeval.count.classes.score_layout`:
        a 1-D array of scores belongs to the positive class (``positive``, else the last class); an (n, 2) array is
        binary too; an (n, K) array has a column per class: named by ``names`` where the input names its columns,
        else positional in the order of ``labels`` (default: the gold labels in scikit-learn's order).
        ``sample_weight``: each instance's weight (finite, ≥ 0; :func:`checked_weights`).

        Raises
        ------
        InputError
            On lengths that differ, a score that is not a finite number (naming the row), a gold label outside the
            classes, columns that do not match the classes.
        """
        found = layout_of(gold, scores, labels, positive=positive, names=names)
        weight = None if sample_weight is None else checked_weights(sample_weight, len(found[0]))
        return cls.of_layout(*found, weight=weight)

    @classmethod
    def of_layout(
        cls,
        y: np.ndarray,
        s: np.ndarray,
        seen: list[str],
        which: np.ndarray,
        layout: Any,
        weight: np.ndarray | None = None,
    ) -> ScoreCounts:
        """Counts of gold values ``y`` (their distinct names ``seen`` and each instance's position ``which`` among
        them) and scores ``s`` laid out by ``layout`` (a :class:`~clfeval.count.classes.ScoreLayout`); ``weight``:
        each instance's sample weight, checked (:func:`checked_weights`), or ``None``."""
        classes, columns = list(layout.classes), layout.columns
        s = layout.apply(s)
        if s.ndim == 2 and len(columns) == 1:
            s = s[:, 0]
        lookup = class_lookup(seen, which, classes)
        if len(columns) == 1 and len(which) and weight is None:  # binary: whether each instance is positive, no codes
            at = seen.index(columns[0]) if columns[0] in seen else -1  # every seen label is a class: two at most
            return _binary_counts(tuple(classes), columns, which == at, s.reshape(-1))
        codes = lookup[which]
        ones = np.ones(len(codes), dtype=np.int64)
        return cls(tuple(classes), columns, codes, s.reshape(len(codes), -1), ones, weight)

    @classmethod
    def of_label_sets(
        cls,
        gold: Sequence[Any] | np.ndarray,
        scores: Sequence[Any] | np.ndarray,
        labels: Sequence[Any] | None = None,
        *,
        names: Sequence[str] | None = None,
        sample_weight: Sequence[Any] | np.ndarray | None = None,
    ) -> ScoreCounts:
        """Multi-label scores: ``gold`` is each instance's set of labels (any collection of labels) or an (n, K) 0/1
        indicator matrix, ``scores`` an (n, K) array (or data frame) with a column per label, laid out by
        :func:`label_indicator`; ``sample_weight``: each instance's weight.

        Raises
        ------
        InputError
            On lengths that differ, a score that is not a finite number or a gold label outside the labels (naming
            the instance), columns that do not match the labels.
        """
        if names is None:
            from clfeval.count.classes import named_scores

            scores, names = named_scores(scores)
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim != 2:
            raise InputError(f"multi-label scores are an (n, labels) array, not of shape {s.shape}", "scores")
        check_finite(s, "scores")
        indicator, classes, layout = label_indicator(gold, labels, s.shape, names=names)
        weight = None if sample_weight is None else checked_weights(sample_weight, len(s))
        ones = np.ones(len(s), dtype=np.int64)
        return cls(tuple(classes), tuple(classes), indicator, layout.apply(s), ones, weight)

    @property
    def multilabel(self) -> bool:
        """Whether the gold side of a row is a set of labels (a 0/1 row) rather than one class."""
        return bool(np.ndim(self.__dict__.get("gold", ())) == 2)

    def positives(self, gold: np.ndarray, c: int) -> np.ndarray:
        """Whether each of the rows ``gold`` (codes, or multi-label 0/1 rows) is a positive of score column ``c``."""
        k = self.labels.index(self.columns[c])
        return np.asarray(gold[:, k] == 1) if gold.ndim == 2 else np.asarray(gold == k)

    def support(self) -> np.ndarray:
        """Each label's instances (multi-class: of each class; multi-label: with the label in the gold set)."""
        if self.multilabel:
            return np.asarray(self.count @ self.gold.astype(np.int64))
        return np.bincount(self.gold, weights=self.count, minlength=len(self.labels)).astype(np.int64)

    def weighted_support(self) -> np.ndarray:
        """Each label's mass Σ m·w (its instances without weights): the support weighted averages read."""
        if self.multilabel:
            return np.asarray(self.mass @ self.gold.astype(np.float64))
        return np.bincount(self.gold, weights=self.mass, minlength=len(self.labels))

    @property
    def weighted(self) -> bool:
        """Whether the instances carry sample weights."""
        return self.weight is not None

    @property
    def mass(self) -> np.ndarray:
        """Each row's weight in every measure: m_r · w_r with sample weights, else the count m_r (float64)."""
        count = self.count.astype(np.float64)
        return count if self.weight is None else count * self.weight

    @property
    def total(self) -> float:
        """The instances' total weight Σ_r m_r w_r (without sample weights: the number of instances)."""
        return float(self.mass.sum()) if self.weight is not None else float(self.n_instances)

    def pooled_pairs(self) -> ScoreCounts:
        """Multi-label scores as binary scores of every (instance, label) pair: gold ``yes`` where the label is in the
        instance's gold set (the counts the probability measures and the calibration of multi-label scores read)."""
        k = len(self.columns)
        weight = None if self.weight is None else np.repeat(self.weight, k)
        return ScoreCounts(
            ("no", "yes"), ("yes",), self.gold.reshape(-1), self.scores.reshape(-1, 1), np.repeat(self.count, k),
            weight,
        )  # fmt: skip

    @classmethod
    def of_distinct(
        cls,
        labels: tuple[str, ...],
        columns: tuple[str, ...],
        gold: np.ndarray,
        scores: np.ndarray,
        count: np.ndarray,
        weight: np.ndarray | None = None,
    ) -> ScoreCounts:
        """Rows already distinct and, for one score column, sorted by score, then by gold code (:func:`distinct_rows`'
        output): taken as they are, without a second sort; several columns (or weighted rows) are checked and sorted
        as the constructor does."""
        if scores.shape[1] != 1 or gold.ndim != 1 or weight is not None:
            return cls(labels, columns, gold, scores, count, weight)
        out = object.__new__(cls)
        for name, value in (("labels", labels), ("columns", columns), ("gold", gold), ("scores", scores)):
            object.__setattr__(out, name, value)
        object.__setattr__(out, "count", count)
        return out

    def with_counts(self, count: np.ndarray) -> ScoreCounts:
        """The same rows with other counts (a bootstrap draw): rows of count 0 stay, nothing is checked again."""
        out = object.__new__(ScoreCounts)
        for name in ("labels", "columns", "gold", "scores", "weight"):
            object.__setattr__(out, name, getattr(self, name))
        object.__setattr__(out, "count", np.asarray(count, dtype=np.int64))
        return out

    def __getattr__(self, name: str) -> Any:
        """The rows of binary scores counted by one sort (:func:`_binary_counts`), built when first read: AUC,
        average precision and the curves read the per-score table alone."""
        if name in ("gold", "scores", "count") and "_table" in self.__dict__:
            for field_name, value in zip(("gold", "scores", "count"), _rows_of_table(self, *self.__dict__["_table"])):
                object.__setattr__(self, field_name, value)
            del self.__dict__["_table"]
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def n_instances(self) -> int:
        """The number of instances counted."""
        if "_table" in self.__dict__:  # rows not built: the per-score table has every instance
            _, pos, neg = self.__dict__["_table"]
            return round(float(pos.sum() + neg.sum()))
        return int(self.count.sum())

    @property
    def binary(self) -> bool:
        """Whether the scores are one column, the positive class's (multi-label scores of one label are not: their
        rows are sorted by gold row first)."""
        return len(self.columns) == 1 and not self.multilabel

    def column(self, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Score column ``c`` one-vs-rest: its distinct scores ascending, and at each the weight of instances of the
        column's class (positives) and of the others (negatives); computed once per column (AUC, average precision
        and the curves read the same table)."""
        cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = self.__dict__.setdefault("_columns", {})
        if c not in cache:
            cache[c] = self._column(c)
        return cache[c]

    def _column(self, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        held = self.count > 0  # a bootstrap draw leaves rows out
        if held.all():
            s, gold, count = self.scores[:, c], self.gold, self.mass
        else:
            s, gold, count = self.scores[held, c], self.gold[held], self.mass[held]
        pos = np.where(self.positives(gold, c), count, 0)
        order = slice(None) if self.binary else np.argsort(s, kind="stable")  # one column: sorted already
        v = s[order]
        new = np.r_[True, v[1:] != v[:-1]] if len(v) else np.zeros(0, dtype=bool)
        if new.all():  # every score distinct: each row its own threshold
            return v, pos[order].astype(np.float64), (count[order] - pos[order]).astype(np.float64)
        start = np.flatnonzero(new)
        pos_w = np.add.reduceat(pos[order], start)
        all_w = np.add.reduceat(count[order], start)
        return v[start], pos_w.astype(np.float64), (all_w - pos_w).astype(np.float64)

    @classmethod
    def added(cls, parts: Sequence[ScoreCounts]) -> ScoreCounts:
        """The counts of several parts together (one sort, however many parts): their classes and columns must
        agree."""
        first = parts[0]
        for part in parts[1:]:
            if (part.labels, part.columns) != (first.labels, first.columns):
                raise OptionError(
                    f"cannot add scores of classes {list(part.labels)} (columns {list(part.columns)}) to scores of "
                    f"{list(first.labels)} (columns {list(first.columns)})"
                )
            if part.weighted != first.weighted:
                raise OptionError(
                    "cannot add scores with sample weights to scores without: give every part its weights"
                )
        weight = None if not first.weighted else np.concatenate([np.asarray(p.weight) for p in parts])
        return cls(
            first.labels,
            first.columns,
            np.concatenate([p.gold for p in parts]),
            np.vstack([p.scores for p in parts]),
            np.concatenate([p.count for p in parts]),
            weight,
        )

    def __add__(self, other: object) -> ScoreCounts:
        if not isinstance(other, ScoreCounts):
            return NotImplemented
        return ScoreCounts.added([self, other])

    def __repr__(self) -> str:
        shape = "binary" if self.binary else "multi-label" if self.multilabel else f"{len(self.columns)} columns"
        return (
            f"ScoreCounts({len(self.labels)} classes, {shape}, {len(self.count):,} distinct rows, "
            f"{self.n_instances:,} instances{f', weighted (Σw = {self.total:g})' if self.weighted else ''})"
        )


def _binary_counts(
    labels: tuple[str, ...], columns: tuple[str, ...], positive: np.ndarray, s: np.ndarray
) -> ScoreCounts:
    """Binary scores of one instance each (``positive``: whether the instance's gold class is the score column's),
    counted by one sort: the distinct scores with their positives and negatives (the one-vs-rest table, kept as column
    0's); the distinct (gold, score) rows are built from it when first read. When every score is distinct the table
    is the sorted instances themselves (no grouping)."""
    order = np.argsort(s)
    v = s[order]
    is_pos = positive[order]  # a gather of bytes
    new = np.empty(len(v), dtype=bool)
    new[0] = True
    np.not_equal(v[1:], v[:-1], out=new[1:])
    if new.all():
        values, pos = v, is_pos.astype(np.float64)
        neg = 1.0 - pos
    else:
        starts = np.flatnonzero(new)
        values = v[starts]
        counted = np.add.reduceat(is_pos.view(np.int8), starts, dtype=np.int64)
        pos, neg = counted.astype(np.float64), (np.diff(np.r_[starts, len(v)]) - counted).astype(np.float64)
    out = object.__new__(ScoreCounts)
    object.__setattr__(out, "labels", labels)
    object.__setattr__(out, "columns", columns)
    out.__dict__["_columns"] = {0: (values, pos, neg)}
    out.__dict__["_table"] = (values, pos, neg)  # the rows are built from it when first read (__getattr__)
    return out


def layout_of(
    gold: Sequence[Any] | np.ndarray,
    scores: Sequence[Any] | np.ndarray,
    labels: Sequence[Any] | None = None,
    *,
    positive: Any = None,
    names: Sequence[str] | None = None,
    where: str = "scores",
) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray, Any]:
    """Gold values and scores checked (lengths, finite scores), the gold labels' names (by the naming rule, jointly
    with the declared ``labels`` and ``positive``), each instance's position among them, and the
    :class:`~clfeval.count.classes.ScoreLayout` of the classes and columns: what :meth:`ScoreCounts.of_arrays` counts
    and the callers that say how the columns were matched read."""
    from clfeval.count.classes import named_scores, score_layout
    from clfeval.count.labelnames import declared_names, is_number, label_names

    if names is None:
        scores, names = named_scores(scores)
    y = np.asarray(gold)
    s = np.asarray(scores, dtype=np.float64)  # no copy of float64 input
    if y.ndim != 1:
        raise InputError(f"gold is one label per instance, not an array of shape {y.shape}", "gold")
    if s.ndim not in (1, 2) or len(s) != len(y):
        raise InputError(f"{len(y)} gold labels but scores of shape {s.shape}", where)
    check_finite(s, where)
    distinct, which = distinct_labels(y)  # Python once per distinct label
    values = distinct.tolist()
    seen = label_names(values)
    given = declared_names(list(labels), seen) if labels is not None else None
    pos = declared_names([positive], seen)[0] if positive is not None else None
    if s.ndim == 2 and s.shape[1] == 1:  # one column: the positive class's, its name saying which where it has one
        s = s[:, 0]
        if names is not None:
            if pos is not None and pos != names[0]:
                raise OptionError(f"the score column is named {names[0]!r}, but positive= says {pos!r}")
            pos, names = names[0], None
    numbers = bool(values) and all(is_number(v) for v in values)  # numbers order by value, strings as text
    layout = score_layout(
        seen, None if s.ndim == 1 else s.shape[1], names=names, labels=given, positive=pos, where=where,
        numbers=numbers,
    )  # fmt: skip
    return y, s, seen, which.reshape(-1), layout


def checked_weights(
    weight: Sequence[Any] | np.ndarray, n: int, where: str = "sample_weight", *, positive_sum: bool = True
) -> np.ndarray:
    """Sample weights as float64: one finite number ≥ 0 per instance (``n``), and (``positive_sum``) not all 0.

    Raises
    ------
    InputError
        ``where`` with what was expected: another length, a weight that is not a finite number ≥ 0 (naming the
        instance), weights that sum to 0.
    """
    raw = np.asarray(weight)
    if raw.ndim != 1 or len(raw) != n:
        raise InputError(f"gives each instance a weight: {n} instances, weights of shape {raw.shape}", where)
    try:
        w = raw.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("holds a weight that is not a number", where) from None
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"is {raw[i]!r}: a weight is a finite number ≥ 0", where, index=i)
    if positive_sum and n and not w.sum() > 0:
        raise InputError("the weights sum to 0: no instance weighs anything", where)
    return w


def check_finite(scores: np.ndarray, where: str) -> None:
    """Refuse scores that are not all finite numbers, naming the first instance (row) that holds one.

    Raises
    ------
    InputError
        ``where`` (the argument, or an update's) with the row's scores.
    """
    bad = ~np.isfinite(scores).reshape(len(scores), -1).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"is {scores[i].tolist()!r}: scores must be finite numbers", where, index=i)


def label_indicator(
    gold: Sequence[Any] | np.ndarray,
    labels: Sequence[Any] | None,
    shape: tuple[int, ...],
    *,
    names: Sequence[str] | None = None,
) -> tuple[np.ndarray, list[str], Any]:
    """Gold label sets (collections of labels, or an (n, K) 0/1 matrix) as an (n, K) int8 indicator over the labels,
    checked against the scores' ``shape``, with the labels in order and the
    :class:`~clfeval.count.classes.ScoreLayout` that puts the score columns in that order (``names``: the score
    columns' names, matched by name; else positional in the order of ``labels``, default the gold sets' labels in
    scikit-learn's order, or a matrix's column numbers). A gold matrix is matched by its own column names where it is
    a data frame, else it is positional in the class order (``labels=``, or the scores' names in order), never in
    the order of the scores' columns."""
    from clfeval.count.classes import score_layout
    from clfeval.count.labelsets import indicator_matrix

    if len(shape) != 2:
        raise InputError(f"multi-label scores are an (n, labels) array, not of shape {tuple(shape)}", "scores")
    from clfeval.count.classes import named_scores
    from clfeval.count.labelnames import label_name, label_names

    declared = label_names(list(labels)) if labels is not None else None
    gold_matrix, gold_names = named_scores(gold) if hasattr(gold, "columns") else (gold, None)
    matrix = indicator_matrix(gold_matrix)
    if matrix is not None:
        if matrix.shape != tuple(shape):
            raise InputError(f"gold of shape {matrix.shape}, scores of {tuple(shape)}", "gold")
        if not np.isin(matrix, (0, 1)).all():
            raise InputError("a gold indicator matrix holds 0 and 1 only", "gold")
        named = names if names is not None else gold_names
        seen = [str(i) for i in range(shape[1])] if declared is None and named is None else []
        layout = score_layout(seen, shape[1], names=named, labels=declared, multilabel=True)
        classes = list(layout.classes)
        if gold_names is not None:  # a gold frame's columns are matched by their names too
            own = score_layout([], shape[1], names=gold_names, labels=classes, multilabel=True, where="gold")
            return own.apply(matrix.astype(np.int8)), classes, layout
        return matrix.astype(np.int8), classes, layout  # an unnamed gold matrix: positional in the class order
    sets = [[label_name(x) for x in g] if not isinstance(g, str) else [g] for g in gold]
    if len(sets) != shape[0]:
        raise InputError(f"{len(sets)} gold label sets but scores of shape {tuple(shape)}", "scores")
    values = [x for g in gold if not isinstance(g, str) for x in g]
    numbers = bool(values) and all(isinstance(x, (int, float, np.integer, np.floating)) for x in values)
    layout = score_layout(
        sorted({x for g in sets for x in g}), shape[1], names=names, labels=declared, multilabel=True, numbers=numbers
    )
    classes = list(layout.classes)
    index = {c: i for i, c in enumerate(classes)}
    flat = [index.get(x, -1) for g in sets for x in g]  # Python once per gold label given
    at = np.repeat(np.arange(len(sets)), [len(g) for g in sets])
    outside = [i for i, x in enumerate(flat) if x < 0]
    if outside:
        i = int(at[outside[0]])
        raise InputError(f"holds {sets[i]!r}, a label outside {classes[:20]}", "gold", index=i)
    indicator = np.zeros(tuple(shape), dtype=np.int8)
    indicator[at, np.asarray(flat, dtype=np.int64)] = 1
    return indicator, classes, layout


def _rows_of_table(
    counts: ScoreCounts, values: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (gold, score) rows of a per-score table of positives and negatives: at each distinct score a row
    of each class with instances there, in the classes' order (the rows :func:`distinct_rows` gives)."""
    positive = counts.labels.index(counts.columns[0])
    if (pos + neg == 1).all():  # one instance at each score (all distinct): a row each, no interleaving
        gold = np.where(pos > 0, positive, 1 - positive).astype(np.int64)
        return gold, values.reshape(-1, 1), np.ones(len(values), dtype=np.int64)
    both = np.stack([neg, pos] if positive else [pos, neg], axis=1).reshape(-1).astype(np.int64)
    held = both > 0
    gold = np.tile(np.array([0, 1], dtype=np.int64), len(values))[held]
    return gold, np.repeat(values, 2)[held].reshape(-1, 1), both[held]


def distinct_labels(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``y`` (sorted) and each value's position among them: small integer labels through a
    table (no sort), others through ``np.unique``."""
    if y.dtype.kind in "iu" and len(y):  # booleans keep their values (False, True), not 0 and 1
        low, high = int(y.min()), int(y.max())
        if high - low < 1 << 20:
            shifted = np.asarray(y, dtype=np.int64) - low if low else np.asarray(y, dtype=np.int64)
            present = np.bincount(shifted, minlength=high - low + 1) > 0
            lookup = np.cumsum(present) - 1
            return np.flatnonzero(present) + low, lookup[shifted]
    distinct, which = np.unique(y, return_inverse=True)
    return distinct, which.reshape(-1)


def class_lookup(seen: Sequence[str], which: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    """Each distinct gold label's position among ``classes`` (``lookup[which]`` is each instance's gold code).

    Raises
    ------
    InputError
        Naming the first instance whose gold label is not one of the classes.
    """
    index = {c: i for i, c in enumerate(classes)}
    lookup = np.array([index.get(v, -1) for v in seen], dtype=np.int64)  # each distinct label's class
    if (lookup < 0).any():
        i = int(np.flatnonzero(lookup[which] < 0)[0])
        raise InputError(f"is {seen[int(which[i])]!r}, not one of the classes {list(classes)}", "gold", index=i)
    return lookup


def distinct_weighted_rows(
    gold: np.ndarray, scores: np.ndarray, count: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (gold, scores, weight) rows, sorted as :func:`distinct_rows` sorts (one score column: by score,
    then gold; several: by gold, then the scores), then by weight, with their counts added (rows of count 0
    dropped)."""
    keep = count > 0
    gold, scores, count, weight = gold[keep], scores[keep], count[keep], weight[keep]
    if not len(gold):
        return gold, scores, count.astype(np.int64), weight
    golds = [gold] if gold.ndim == 1 else [gold[:, k] for k in range(gold.shape[1] - 1, -1, -1)]
    columns = [scores[:, c] for c in range(scores.shape[1] - 1, -1, -1)]
    keys = [weight, *golds, *columns] if scores.shape[1] == 1 and gold.ndim == 1 else [weight, *columns, *golds]
    order = np.lexsort(keys)
    g, s, c, w = gold[order], scores[order], count[order], weight[order]
    differ = g[1:] != g[:-1]
    new = np.r_[
        True, (differ if g.ndim == 1 else differ.any(axis=1)) | (s[1:] != s[:-1]).any(axis=1) | (w[1:] != w[:-1])
    ]
    start = np.flatnonzero(new)
    return g[start], s[start], np.add.reduceat(c, start).astype(np.int64), w[start]


def distinct_rows(
    gold: np.ndarray, scores: np.ndarray, count: np.ndarray, *, runs: bool = False, order: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (gold, scores) rows, sorted, with their counts added (rows of count 0 dropped). ``runs``: the
    rows are sorted parts one after another (one score column), which a stable sort merges. ``order``: one score
    column's rows already sorted by score (``argsort`` of the scores, every count 1), not sorted again."""
    ones = bool(len(count)) and int(count.min()) == 1 and int(count.max()) == 1
    if not ones:
        keep = count > 0
        gold, scores, count = gold[keep], scores[keep], count[keep]
    if not len(gold):
        return gold, scores, count
    if scores.shape[1] == 1 and gold.ndim == 1:  # one column: one sort of the scores, then each one's gold classes
        if order is None or not ones:
            order = np.argsort(scores[:, 0], kind="stable" if runs else None)
        v = scores[order, 0]
        new = np.empty(len(v), dtype=bool)
        new[0] = True
        np.not_equal(v[1:], v[:-1], out=new[1:])
        if new.all():  # every score distinct: every row is
            return gold[order], v.reshape(-1, 1), count[order].astype(np.int64)
        group = np.cumsum(new) - 1
        k = int(gold.max()) + 1
        key = group * k + gold[order]
        size = (int(group[-1]) + 1) * k
        if ones:  # every row one instance (arrays): an integer count, no weights
            per = np.bincount(key, minlength=size)
        else:
            per = np.bincount(key, weights=count[order], minlength=size).astype(np.int64)
        at = np.flatnonzero(per)
        firsts = np.flatnonzero(new)
        return at % k, v[firsts][at // k].reshape(-1, 1), per[at].astype(np.int64)
    golds = [gold] if gold.ndim == 1 else [gold[:, k] for k in range(gold.shape[1] - 1, -1, -1)]
    keys = [scores[:, c] for c in range(scores.shape[1] - 1, -1, -1)] + golds
    order = np.lexsort(keys)
    g, s, c = gold[order], scores[order], count[order]
    differ = g[1:] != g[:-1]
    new = np.r_[True, (differ if g.ndim == 1 else differ.any(axis=1)) | (s[1:] != s[:-1]).any(axis=1)]
    start = np.flatnonzero(new)
    return g[start], s[start], np.add.reduceat(c, start)
