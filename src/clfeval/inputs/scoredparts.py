"""Files of scored predictions counted part by part: one frame of cells (a chunk of a CSV, TSV or JSON Lines file,
a batch of a Parquet file's rows, a partition of a cluster's data) reduced to its distinct (gold, scores[, weight])
rows, parts merged in any order, and the merged rows finished into counts under the one contract of classes and
score columns.

The three steps are plain functions of plain data, so that a cluster's worker can run :func:`count_part` on its
partition and send back the (small) :class:`ScoredPart`:

- :func:`count_part` (``frame``, its first line, the file's name, a :class:`ScoredReading`) → :class:`ScoredPart`:
  the cells checked as :func:`~clfeval.inputs.scoredfile.read_scored` checks a whole file (every error names the file
  and the line), the probabilities clipped and binned as asked, the rows reduced to the distinct ones. The gold side
  of a row is a label's name (multi-label: the cell's text), not a code local to the part.
- :func:`merge_parts` (parts) → one :class:`ScoredPart`: the same rows whatever the order of the parts.
- :func:`finish_parts` (part, reading, file) → ``(ScoreCounts, inputs)``, or ``(JointScoreCounts, inputs)`` for
  several systems' score columns read at once (:attr:`ScoredReading.systems`), the classes resolved by
  :func:`~clfeval.count.classes.score_layout` from the gold labels seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl

from clfeval.count.classes import checked_probabilities, score_layout
from clfeval.count.labelsets import MultiLabel
from clfeval.count.scored import ScoreCounts, distinct_rows, distinct_weighted_rows
from clfeval.errors import ClfevalError, InputError, OptionError
from clfeval.inputs.columns import Column

__all__ = ["ScoredPart", "ScoredReading", "count_part", "finish_parts", "merge_parts"]


@dataclass(frozen=True)
class ScoredReading:
    """How a file of scored predictions is read and counted (the options of :func:`count_part` and
    :func:`finish_parts`).

    Attributes
    ----------
    specs
        Each system's ``--scores`` (a glob, column names or numbers, or a list column): one for one system.
    systems
        The systems' names, one per spec (several systems: :func:`finish_parts` gives their
        :class:`~clfeval.count.jointscored.JointScoreCounts`); ``None``: one system, :class:`ScoreCounts`.
    gold_col, weight_col
        The gold column (``None``: the one column that is neither a score nor the weight) and the weight column.
    labels
        The declared classes in order (names), or ``None``.
    probabilities
        ``None``/``True``: every score a probability, within ``tolerance`` (clipped and counted); ``False``: any scale.
    positive
        The positive class of binary scores.
    bins
        Probabilities binned as read (:func:`~clfeval.scoring.scored.binned_scores`), or ``None``.
    multilabel
        The gold cell is a set of labels, taken as this group says (``None``: one label per row).
    numbers
        Whether the classes order as numbers (:func:`~clfeval.count.classes.class_order`; ``None``: where every name
        spells one).
    """

    specs: tuple[str, ...]
    systems: tuple[str, ...] | None = None
    gold_col: Column | None = None
    labels: tuple[str, ...] | None = None
    probabilities: bool | None = None
    tolerance: float = 1e-6
    positive: str | None = None
    bins: int | None = None
    weight_col: Column | None = None
    multilabel: MultiLabel | None = None
    numbers: bool | None = None

    def __post_init__(self) -> None:
        if not self.specs:
            raise OptionError("give the score columns (--scores)")
        if self.systems is not None and len(self.systems) != len(self.specs):
            raise OptionError(f"{len(self.systems)} systems but {len(self.specs)} score specifications")
        if self.multilabel is not None and self.multilabel.sep is None:  # in files, labels separated by commas
            object.__setattr__(self, "multilabel", replace(self.multilabel, sep=","))
        if self.multilabel is not None and self.positive is not None:
            raise OptionError("--positive names the class of binary scores; multi-label scores have a column per label")


@dataclass(frozen=True, eq=False)
class ScoredPart:
    """The distinct rows of a part of a file of scored predictions, and what was read.

    Attributes
    ----------
    names
        The distinct gold labels (multi-label: gold cells' texts), sorted: row r's gold is ``names[gold[r]]``.
    gold, scores, count, weight
        Each distinct row's gold (a position in ``names``), its scores (rows × every system's score columns side by
        side), its number of instances, and its sample weight (``None`` without a weight column).
    columns
        Each system's (classes its score columns name, or ``None``; the score columns' header names).
    widths
        Each system's number of scores per row (a list column: the classes it holds).
    gold_name, weight_name
        The gold column's and the weight column's header names (``""``: no weight column).
    clipped
        Probabilities outside [0, 1] by round-off, clipped.
    n_rows, sum_weight
        The instances read, and the sum of their weights.
    numeric
        Whether the gold column was typed as numbers (JSON Lines, Parquet, a frame's partition): its labels then order
        by value (:func:`~clfeval.count.classes.class_order`), as the same column in a frame or an array does, whatever
        :attr:`ScoredReading.numbers` says of text.
    """

    names: tuple[str, ...]
    gold: np.ndarray
    scores: np.ndarray
    count: np.ndarray
    weight: np.ndarray | None
    columns: tuple[tuple[tuple[str, ...] | None, tuple[str, ...]], ...]
    widths: tuple[int, ...]
    gold_name: str
    weight_name: str
    clipped: int
    n_rows: int
    sum_weight: float
    numeric: bool = False

    @property
    def n_distinct(self) -> int:
        """The number of distinct rows held."""
        return len(self.count)


def _label_sets_checked(values: pl.Series, line: np.ndarray, path: str, multilabel: MultiLabel) -> None:
    """Every distinct gold cell of a part taken as a label set (Python once per distinct cell): an error names the
    first line holding the cell."""
    from clfeval.count.labelsets import label_sets

    distinct, first = values.unique(maintain_order=True), values.arg_unique()
    for text, at in zip(distinct.to_list(), first.to_list()):
        try:
            label_sets([text], multilabel)
        except ClfevalError as exc:
            raise InputError(f"the gold label set {text!r}: {exc}", path, int(line[at])) from None


def count_part(frame: pl.DataFrame, first_line: int, path: str, reading: ScoredReading) -> ScoredPart:
    """One part of a file of scored predictions counted into its distinct rows.

    Parameters
    ----------
    frame
        The part's rows: its cells as strings (CSV, TSV) or as typed (JSON Lines, Parquet), under the file's header.
    first_line
        The line (row number) of the frame's first row, for the errors.
    path
        The file the errors name.
    reading
        The reading options.

    Raises
    ------
    InputError, OptionError
        As :func:`~clfeval.inputs.scoredfile.read_scored` raises them, naming the file and the line.
    """
    from clfeval.inputs.scoredfile import _HINT, _parsed
    from clfeval.scoring.scored import binned_scores

    line = np.arange(len(frame)) + first_line
    label_sets = reading.multilabel is not None
    labels = None if reading.labels is None else list(reading.labels)
    blocks: list[np.ndarray] = []
    columns: list[tuple[tuple[str, ...] | None, tuple[str, ...]]] = []
    gold: pl.Series | None = None
    weight: np.ndarray | None = None
    gold_name = weight_name = ""
    n_clipped = 0
    for spec in reading.specs:
        gold, scores, classes, names, gold_name, _, weight, weight_name = _parsed(
            frame, line, spec, path, gold_col=reading.gold_col, labels=labels, block_col=None,
            label_sets=label_sets, weight_col=reading.weight_col,
        )  # fmt: skip
        if reading.probabilities is not False and len(scores):  # checked as the whole-file reader checks them
            scores, clipped = checked_probabilities(
                scores, rows_sum=not label_sets, where=path, lines=line, tolerance=reading.tolerance, hint=_HINT
            )
            n_clipped += clipped
        if reading.bins is not None:  # after the checks of the scores as given
            try:
                scores = binned_scores(scores, reading.bins)
            except OptionError as exc:
                outside = np.flatnonzero(((scores < 0) | (scores > 1)).any(axis=1))
                raise InputError(str(exc), path, int(line[outside[0]]) if len(outside) else None) from None
        blocks.append(scores if scores.ndim == 2 else scores.reshape(-1, 1))
        columns.append((None if classes is None else tuple(classes), tuple(names)))
    assert gold is not None
    if reading.multilabel is not None and len(gold):
        _label_sets_checked(gold, line, path, reading.multilabel)
    given = gold.cast(pl.String)
    names_found = given.unique().sort()  # by code point, as np.unique orders the names when parts merge
    codes = given.replace_strict(names_found, pl.int_range(len(names_found), eager=True), return_dtype=pl.Int64)
    codes = codes.to_numpy().astype(np.int64, copy=False)
    stacked = np.column_stack(blocks) if blocks else np.zeros((len(frame), 0))
    ones = np.ones(len(codes), dtype=np.int64)
    if weight is None:
        g, s, c = distinct_rows(codes, stacked, ones)
        w = None
        total = 0.0
    else:
        g, s, c, w = distinct_weighted_rows(codes, stacked, ones, weight)
        total = float(weight.sum())
    return ScoredPart(
        tuple(names_found.to_list()), g, s, c, w, tuple(columns), tuple(b.shape[1] for b in blocks), gold_name,
        weight_name, n_clipped, len(frame), total, frame.schema[gold_name].is_numeric(),
    )  # fmt: skip


def merge_parts(parts: Sequence[ScoredPart]) -> ScoredPart:
    """Parts' distinct rows as one set of distinct rows (one sort), in an order no order of the parts changes.

    Raises
    ------
    InputError
        Parts read under other columns (another header).
    """
    if not parts:
        raise OptionError("no parts to merge")
    first = parts[0]
    for part in parts[1:]:
        if (part.columns, part.widths, part.gold_name, part.weight_name) != (
            first.columns, first.widths, first.gold_name, first.weight_name
        ):  # fmt: skip
            raise InputError(
                f"parts read from other columns: gold {part.gold_name!r}, scores {list(part.columns)} against gold "
                f"{first.gold_name!r}, scores {list(first.columns)}"
            )
    if len(parts) == 1:
        return first
    names = np.unique(np.concatenate([np.asarray(p.names, dtype=str) for p in parts]))
    gold = np.concatenate(
        [np.searchsorted(names, np.asarray(p.names, dtype=str)).astype(np.int64)[p.gold] for p in parts]
    )
    scores = np.vstack([p.scores for p in parts])
    count = np.concatenate([p.count for p in parts])
    if first.weight is None:
        g, s, c = distinct_rows(gold, scores, count)
        w = None
    else:
        weights = np.concatenate([np.asarray(p.weight) for p in parts])
        g, s, c, w = distinct_weighted_rows(gold, scores, count, weights)
    return ScoredPart(
        tuple(names.tolist()), g, s, c, w, first.columns, first.widths, first.gold_name, first.weight_name,
        sum(p.clipped for p in parts), sum(p.n_rows for p in parts), float(sum(p.sum_weight for p in parts)),
        all(p.numeric for p in parts),
    )  # fmt: skip


def _layout(part: ScoredPart, spec: int, seen: list[str], reading: ScoredReading, path: str) -> tuple[Any, str | None]:
    """The layout of one system's score columns by the one contract, and the positive class its one column names."""
    classes, _ = part.columns[spec]
    width = part.widths[spec]
    positive = reading.positive
    one = width == 1
    if one and classes is not None and len(classes) == 1:  # one named column (a glob's one match): the positive class
        if positive is not None and positive != classes[0]:
            raise OptionError(f"the score column names the class {classes[0]!r}, but --positive says {positive!r}")
        positive = classes[0]
    layout = score_layout(
        seen,
        None if one else width,
        names=None if one else (None if classes is None else list(classes)),
        labels=None if reading.labels is None else list(reading.labels),
        positive=positive,
        where=path,
        numbers=True if part.numeric else reading.numbers,
    )
    return layout, positive


def _multilabel_layout(part: ScoredPart, spec: int, reading: ScoredReading, path: str) -> tuple[np.ndarray, Any]:
    """Multi-label: each distinct gold cell's 0/1 row over the labels, and the layout of one system's columns."""
    from clfeval.count.labelsets import label_sets
    from clfeval.count.scored import label_indicator

    assert reading.multilabel is not None
    classes, _ = part.columns[spec]
    width = part.widths[spec]
    sets = label_sets(list(part.names), reading.multilabel)
    try:
        indicator, _, layout = label_indicator(
            sets, None if reading.labels is None else list(reading.labels), (len(part.names), width),
            names=None if classes is None else list(classes),
        )  # fmt: skip
    except InputError as exc:
        raise InputError(str(exc), path) from None
    return indicator, layout


def finish_parts(part: ScoredPart, reading: ScoredReading, path: str) -> tuple[Any, dict[str, Any]]:
    """The merged rows of a file as counts, with what was read (``inputs``): :class:`ScoreCounts` of one system, or
    the :class:`~clfeval.count.jointscored.JointScoreCounts` of :attr:`ScoredReading.systems`; the classes and each
    system's columns resolved by :func:`~clfeval.count.classes.score_layout` from the gold labels seen (every system
    must come to the same classes and columns).

    Raises
    ------
    InputError, OptionError
        A file without rows; gold labels outside the classes; columns that match no class; systems whose columns
        name other classes.
    """
    if not part.n_rows:
        raise InputError("holds no rows of scored predictions", path)
    seen = list(part.names)
    widths = part.widths
    offsets = np.r_[0, np.cumsum(widths)]
    layouts = []
    gold: np.ndarray
    if reading.multilabel is not None:
        indicators = [_multilabel_layout(part, i, reading, path) for i in range(len(widths))]
        gold = indicators[0][0][part.gold]
        layouts = [layout for _, layout in indicators]
    else:
        layouts = [_layout(part, i, seen, reading, path)[0] for i in range(len(widths))]
        classes = layouts[0].classes
        unknown = [x for x in seen if x not in classes]
        if unknown:
            raise InputError(f"the gold label {unknown[0]!r} is not one of the classes {list(classes)}", path)
        remap = np.array([classes.index(x) for x in seen], dtype=np.int64)
        gold = remap[part.gold]
    first = layouts[0]
    for name, layout in zip(reading.systems or (), layouts):
        if (layout.classes, layout.columns) != (first.classes, first.columns):
            raise OptionError(
                f"the scores of system {name!r} are of the classes {list(layout.classes)} (columns "
                f"{list(layout.columns)}), those of {reading.systems[0]!r} of {list(first.classes)} (columns "  # type: ignore[index]
                f"{list(first.columns)}): every system scores the same classes"
            )
    kept = [layout.apply(part.scores[:, offsets[i] : offsets[i + 1]]) for i, layout in enumerate(layouts)]
    inputs: dict[str, Any] = {"file": path, "gold_column": part.gold_name}
    if reading.systems is None:
        inputs["score_columns"] = list(part.columns[0][1])
    else:
        inputs["score_columns"] = {s: list(c[1]) for s, c in zip(reading.systems, part.columns)}
    inputs["read"] = "in chunks"
    inputs.update(first.to_dict())
    if part.weight is not None:
        inputs["sample_weight"] = {"source": part.weight_name, "sum": part.sum_weight, "n_instances": part.n_rows}
    if part.clipped:
        from clfeval.inputs.scoredfile import _clipped_note

        inputs["clipped"] = _clipped_note(part.clipped)
    if reading.bins is not None:
        inputs["score_bins"] = reading.bins
    if reading.systems is not None:
        from clfeval.count.jointscored import JointScoreCounts

        joint = JointScoreCounts(
            first.classes, first.columns, reading.systems, gold, np.column_stack(kept), part.count, part.weight
        )
        return joint, inputs
    return _one_system(first, gold, kept[0], part, reading.multilabel is not None), inputs


def _one_system(layout: Any, gold: np.ndarray, kept: np.ndarray, part: ScoredPart, multilabel: bool) -> ScoreCounts:
    """One system's counts of the merged rows (gold as class codes, or 0/1 rows)."""
    count = part.count
    if part.weight is not None or multilabel:  # sorted (and merged where columns were dropped) by the constructor
        return ScoreCounts(layout.classes, layout.columns, gold, kept, count, part.weight)
    if kept.shape[1] == 1:  # one score column: its rows sorted by score, then by class (not by a dropped column)
        gold, kept, count = distinct_rows(gold, kept, count, runs=part.scores.shape[1] == 1)
    return ScoreCounts.of_distinct(layout.classes, layout.columns, gold, kept, count)
