"""Files → counts: the readers' unique cell rows become :class:`ConfusionCounts` or :class:`LabelSetCounts`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.labelsets import LabelSet, LabelSetCounts, canonical_set
from clfeval.errors import InputError
from clfeval.read.columns import Column
from clfeval.read.table import Cells, TableOptions, read_cells, read_cells_two_files

__all__ = ["count_file", "count_files", "train_frequencies"]


def _single(value: Any, source: str) -> str:
    if isinstance(value, tuple):
        raise InputError("the label column holds lists of labels; pass --multilabel (multilabel=True)", source)
    return str(value).strip()


def _label_set(value: Any, label_sep: str, source: str, duplicates: str, empty: str) -> LabelSet:
    if isinstance(value, tuple):
        parts = [v.strip() for v in value]
    else:
        text = str(value).strip()
        parts = [p.strip() for p in text.split(label_sep)] if text else []
    if any(p == "" for p in parts):
        raise InputError(f"the label set {value!r} holds an empty label (separator {label_sep!r})", source)
    try:
        return canonical_set(parts, duplicates, empty)
    except InputError as exc:
        raise InputError(str(exc), source) from None


def _to_counts(rows: Sequence[tuple[Any, Any]], counts: np.ndarray, source: str, multilabel: bool,
               label_sep: str, duplicates: str, empty: str) -> ConfusionCounts | LabelSetCounts:
    if multilabel:
        pairs: Counter[tuple[LabelSet, LabelSet]] = Counter()
        for (g, p), c in zip(rows, counts):
            pairs[(_label_set(g, label_sep, source, duplicates, empty),
                   _label_set(p, label_sep, source, duplicates, empty))] += int(c)
        return LabelSetCounts(pairs, duplicates, empty)
    merged: Counter[tuple[str, str]] = Counter()
    for (g, p), c in zip(rows, counts):
        merged[(_single(g, source), _single(p, source))] += int(c)
    labels = tuple(sorted({lab for key in merged for lab in key}))
    index = {lab: i for i, lab in enumerate(labels)}
    cells = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for (g, p), c in merged.items():
        cells[index[g], index[p]] += c
    return ConfusionCounts(labels, cells)


def _header_warning(cells: Cells, counts: ConfusionCounts | LabelSetCounts) -> list[str]:
    """Warn when an unheaded file's first line looks like a header: its labels occur nowhere else."""
    if cells.header or cells.first_row is None or not isinstance(counts, ConfusionCounts):
        return []
    g, p = (str(v).strip() for v in cells.first_row)
    i, j = counts.labels.index(g), counts.labels.index(p)
    if g != p and counts.cells[i, j] == 1 and counts.cells[i].sum() + counts.cells[:, i].sum() == 1 \
            and counts.cells[j].sum() + counts.cells[:, j].sum() == 1:
        return [f"{cells.source}: the first line ({g!r}, {p!r}) looks like a header (its labels occur nowhere "
                "else) and was counted as an instance; pass --header if it is one"]
    return []


def count_file(path: str, *, gold_col: Column = -2, pred_col: Column = -1,
               options: TableOptions = TableOptions(), multilabel: bool = False, label_sep: str = ",",
               duplicates: str = "keep", empty: str = "ignore"
               ) -> tuple[ConfusionCounts | LabelSetCounts, list[str]]:
    """Count one file holding a gold and a predicted column. Returns the counts and reader warnings."""
    cells = read_cells(path, [gold_col, pred_col], ["gold", "predicted"], options, empty_ok=multilabel)
    counts = _to_counts(cells.rows, cells.counts, cells.source, multilabel, label_sep, duplicates, empty)
    if counts.n_instances == 0:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return counts, [f"{cells.source}: {w}" for w in cells.warnings] + _header_warning(cells, counts)


def count_files(gold_path: str, pred_path: str, *, gold_col: Column = -1, pred_col: Column = -1,
                options: TableOptions = TableOptions(), multilabel: bool = False, label_sep: str = ",",
                duplicates: str = "keep", empty: str = "ignore"
                ) -> tuple[ConfusionCounts | LabelSetCounts, list[str]]:
    """Count a gold file and a predictions file, line i against line i."""
    rows, counts = read_cells_two_files(gold_path, pred_path, gold_col, pred_col, options, empty_ok=multilabel)
    result = _to_counts(rows, counts, f"{gold_path}/{pred_path}", multilabel, label_sep, duplicates, empty)
    return result, []


def train_frequencies(path: str, *, column: Column = -1, options: TableOptions = TableOptions(),
                      multilabel: bool = False, label_sep: str = ",", duplicates: str = "keep",
                      empty: str = "ignore") -> LabelFrequencies:
    """Label frequencies of a training file's label column (by default its last column)."""
    cells = read_cells(path, [column], ["training"], options, empty_ok=multilabel)
    counter: Counter[str] = Counter()
    n = 0
    for (value,), c in zip(cells.rows, cells.counts):
        c = int(c)
        n += c
        if multilabel:
            for lab in _label_set(value, label_sep, cells.source, duplicates, empty):
                counter[lab] += c
        else:
            counter[_single(value, cells.source)] += c
    return LabelFrequencies(dict(counter), n)
