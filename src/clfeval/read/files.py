"""Files → counts: the readers' unique cell rows become :class:`ConfusionCounts` or :class:`LabelSetCounts`."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.document import Counts, add_counts, counts_from_dict
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import LabelSet, LabelSetCounts, canonical_set
from clfeval.count.paired import counts_of_pairs
from clfeval.errors import InputError, OptionError
from clfeval.read.chunks import expand_paths
from clfeval.read.columns import Column
from clfeval.read.engine import Engine
from clfeval.read.table import Cells, TableOptions, first_line_with, read_cells_in_line_order, read_cells_two_files

__all__ = ["count_confidences", "count_file", "count_files", "count_fold_column", "count_system_columns",
           "count_system_files", "load_count_files", "load_counts", "one_file", "system_names", "train_frequencies"]


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


def _cell(value: Any, source: str, multilabel: bool, label_sep: str, duplicates: str, empty: str) -> Any:
    """A label (single-label) or a canonical label set (multi-label) from a read cell."""
    if multilabel:
        return _label_set(value, label_sep, source, duplicates, empty)
    return _single(value, source)


def _to_counts(rows: Sequence[tuple[Any, Any]], counts: np.ndarray, source: str, multilabel: bool,
               label_sep: str, duplicates: str, empty: str) -> ConfusionCounts | LabelSetCounts:
    pairs: Counter[tuple[Any, Any]] = Counter()
    for (g, p), c in zip(rows, counts):
        pairs[(_cell(g, source, multilabel, label_sep, duplicates, empty),
               _cell(p, source, multilabel, label_sep, duplicates, empty))] += int(c)
    return counts_of_pairs(pairs, multilabel, duplicates, empty)


def _to_joint(rows: Sequence[tuple[Any, ...]], counts: np.ndarray, source: str, systems: Sequence[str],
              multilabel: bool, label_sep: str, duplicates: str, empty: str) -> JointCounts:
    joint: Counter[tuple[Any, ...]] = Counter()
    for row, c in zip(rows, counts):
        joint[tuple(_cell(v, source, multilabel, label_sep, duplicates, empty) for v in row)] += int(c)
    return JointCounts(tuple(systems), joint, multilabel, duplicates, empty)


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


def count_file(path: str | Sequence[str], *, gold_col: Column = -2, pred_col: Column = -1,
               options: TableOptions = TableOptions(), multilabel: bool = False, label_sep: str = ",",
               duplicates: str = "keep", empty: str = "ignore", engine: Engine = Engine()
               ) -> tuple[ConfusionCounts | LabelSetCounts, list[str]]:
    """Count a file holding a gold and a predicted column (or several such files, or globs, as one table).

    Returns the counts and reader warnings.
    """
    cells = engine.cells(path, [gold_col, pred_col], ["gold", "predicted"], options, empty_ok=multilabel)
    counts = _to_counts(cells.rows, cells.counts, cells.source, multilabel, label_sep, duplicates, empty)
    if counts.n_instances == 0:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return counts, list(cells.warnings) + _header_warning(cells, counts)


def one_file(spec: str) -> str:
    """The one file a path or glob names; a glob matching several files is an error."""
    found = expand_paths(spec)
    if len(found) != 1:
        raise OptionError(f"{spec} matches {len(found)} files; a gold file and prediction files paired line by line "
                          "must each be one file")
    return found[0]


def count_files(gold_path: str, pred_path: str, *, gold_col: Column = -1, pred_col: Column = -1,
                options: TableOptions = TableOptions(), multilabel: bool = False, label_sep: str = ",",
                duplicates: str = "keep", empty: str = "ignore", engine: Engine = Engine()
                ) -> tuple[ConfusionCounts | LabelSetCounts, list[str]]:
    """Count a gold file and a predictions file, line i against line i."""
    engine.line_order()
    gold_path, pred_path = one_file(gold_path), one_file(pred_path)
    rows, counts = read_cells_two_files(gold_path, pred_path, gold_col, pred_col, options, empty_ok=multilabel,
                                        progress=engine.progress)
    result = _to_counts(rows, counts, f"{gold_path}/{pred_path}", multilabel, label_sep, duplicates, empty)
    return result, []


def _in_order(names: Sequence[str]) -> list[str]:
    """Fold names in order: numerically when every name is a number (fold 2 before fold 10), else as strings."""
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names)


def count_fold_column(path: str | Sequence[str], *, gold_col: Column = -3, pred_col: Column = -2,
                      fold_col: Column = -1, options: TableOptions = TableOptions(), multilabel: bool = False,
                      label_sep: str = ",", duplicates: str = "keep", empty: str = "ignore", engine: Engine = Engine()
                      ) -> tuple[list[str], list[ConfusionCounts | LabelSetCounts], list[str]]:
    """Count a table (one file, or parts) per value of its fold column: the fold names (sorted), each fold's counts."""
    cells = engine.cells(path, [gold_col, pred_col, fold_col], ["gold", "predicted", "fold"], options,
                         empty_ok=multilabel)
    groups: dict[str, tuple[list[tuple[Any, Any]], list[int]]] = {}
    for (g, p, fold), c in zip(cells.rows, cells.counts):
        rows, counts = groups.setdefault(_single(fold, cells.source), ([], []))
        rows.append((g, p))
        counts.append(int(c))
    if not groups:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    names = _in_order(groups)
    folds = [_to_counts(groups[n][0], np.array(groups[n][1]), cells.source, multilabel, label_sep, duplicates, empty)
             for n in names]
    return names, folds, list(cells.warnings)


def system_names(paths: Sequence[str]) -> list[str]:
    """Systems named after their files: the file name without its extension, or the path when those clash."""
    stems = [Path(p).stem if p != "-" else "stdin" for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    if len(set(paths)) == len(paths):
        return list(paths)
    twice = sorted({p for p in paths if list(paths).count(p) > 1})
    raise OptionError(f"the same predictions file is given twice: {', '.join(twice)}")


def count_system_files(gold_path: str, pred_paths: Sequence[str], *, names: Sequence[str] | None = None,
                       gold_col: Column = -1, pred_col: Column = -1, options: TableOptions = TableOptions(),
                       multilabel: bool = False, label_sep: str = ",", duplicates: str = "keep",
                       empty: str = "ignore", engine: Engine = Engine()) -> tuple[JointCounts, list[str]]:
    """Count a gold file and one predictions file per system, line i against line i.

    ``names`` default to the prediction files' names (:func:`system_names`).
    """
    engine.line_order()
    gold_path, pred_paths = one_file(gold_path), [one_file(p) for p in pred_paths]
    names = list(names) if names is not None else system_names(pred_paths)
    if len(names) != len(pred_paths):
        raise OptionError(f"{len(names)} system name(s) for {len(pred_paths)} prediction files")
    sources = [(gold_path, gold_col, "gold")] + [(p, pred_col, f"predicted ({n})") for p, n in zip(pred_paths, names)]
    rows, counts, _ = read_cells_in_line_order(sources, options, empty_ok=multilabel, progress=engine.progress)
    source = "/".join([gold_path, *pred_paths])
    return _to_joint(rows, counts, source, names, multilabel, label_sep, duplicates, empty), []


def count_system_columns(path: str | Sequence[str], *, gold_col: Column, pred_cols: Sequence[Column],
                         names: Sequence[str] | None = None, options: TableOptions = TableOptions(),
                         multilabel: bool = False, label_sep: str = ",", duplicates: str = "keep",
                         empty: str = "ignore", engine: Engine = Engine()) -> tuple[JointCounts, list[str]]:
    """Count a table (one file, or parts) that holds the gold column and one predicted column per system.

    ``names`` default to the columns' names (header names, or ``column N``).
    """
    if names is None:
        names = [c if isinstance(c, str) else f"column {c}" for c in pred_cols]
    if len(names) != len(pred_cols):
        raise OptionError(f"{len(names)} system name(s) for {len(pred_cols)} predicted columns")
    if len(set(map(str, pred_cols))) != len(pred_cols):
        raise OptionError("a predicted column is given twice")
    roles = ["gold"] + [f"predicted ({n})" for n in names]
    cells = engine.cells(path, [gold_col, *pred_cols], roles, options, empty_ok=multilabel)
    joint = _to_joint(cells.rows, cells.counts, cells.source, names, multilabel, label_sep, duplicates, empty)
    if joint.n_instances == 0:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return joint, list(cells.warnings)


def count_confidences(path: str | Sequence[str], *, gold_col: Column = -3, pred_col: Column = -2,
                      conf_col: Column = -1, options: TableOptions = TableOptions(),
                      lower_is_more_confident: bool = False, engine: Engine = Engine()
                      ) -> tuple[ConfidenceCounts, list[str]]:
    """Count a table of gold labels, predictions and each prediction's confidence (by default the last three columns).

    Returns unique (gold, predicted, confidence) rows with counts, and reader warnings. A
    confidence that is not a finite number is an error naming its file and line.
    """
    cells = engine.cells(path, [gold_col, pred_col, conf_col], ["gold", "predicted", "confidence"], options)
    if not len(cells.rows):
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    if any((cells.is_list or ())[:2]) or (cells.frame is None and any(
            isinstance(v, tuple) for row in cells.rows for v in row[:2])):
        raise InputError("a label column holds lists of labels: finagle scores one predicted label per instance",
                         cells.source)
    if cells.frame is not None:  # columns, not a Python tuple per row: confidences make most rows unique
        labels, gold, pred, confidence, bad = _confidence_columns(cells.frame)
    else:
        gold = [_single(g, cells.source) for g, _, _ in cells.rows]
        pred = [_single(p, cells.source) for _, p, _ in cells.rows]
        raw = [c for _, _, c in cells.rows]
        bad = any(not _is_finite(c) for c in raw)
        confidence = np.array([float(c) for c in raw], dtype=np.float64) if not bad else np.zeros(0)
    if bad:
        what = "distance" if lower_is_more_confident else "confidence"
        where = first_line_with(expand_paths([path] if isinstance(path, str) else list(path)), conf_col,
                                lambda text: not _is_finite(text), options)
        if where is None:
            raise InputError(f"a {what} is not a finite number", cells.source)
        raise InputError(f"the {what} {where[2]!r} is not a finite number", where[0], where[1])
    if cells.frame is not None:
        counts = ConfidenceCounts(labels, gold, pred, confidence, cells.counts, lower_is_more_confident)
    else:
        counts = ConfidenceCounts.from_rows(gold, pred, confidence, cells.counts,
                                            lower_is_more_confident=lower_is_more_confident)
    return counts, list(cells.warnings)


def _is_finite(value: Any) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _confidence_columns(frame: Any) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, bool]:
    """The labels (sorted), gold and predicted codes and confidences of a counted frame; whether one is bad."""
    import polars as pl

    columns = [frame.get_column(k).cast(pl.String).str.strip_chars() for k in ("c0", "c1")]
    labels = tuple(sorted(set(columns[0].unique().to_list()) | set(columns[1].unique().to_list())))
    gold, pred = (c.cast(pl.Enum(labels)).to_physical().to_numpy().astype(np.intp) for c in columns)
    raw = frame.get_column("c2")
    text = raw.cast(pl.String).str.strip_chars() if raw.dtype == pl.String else raw
    values = text.cast(pl.Float64, strict=False)
    ok = values.is_not_null() & values.is_finite()
    return labels, gold, pred, values.fill_null(0.0).to_numpy(), not ok.all()


def train_frequencies(path: str | Sequence[str], *, column: Column = -1, options: TableOptions = TableOptions(),
                      multilabel: bool = False, label_sep: str = ",", duplicates: str = "keep",
                      empty: str = "ignore", engine: Engine = Engine()) -> LabelFrequencies:
    """Label frequencies of a training file's label column (by default its last column); files or globs add up."""
    cells = engine.cells(path, [column], ["training"], options, empty_ok=multilabel)
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


def load_counts(paths: str | Sequence[str]) -> Counts:
    """Read count files (``clfeval.counts/1``; paths or globs) and add them up, labels aligned by name.

    Raises
    ------
    InputError
        Naming the file: missing, not JSON, not a count file, or counted differently from the first.
    """
    parts = [(path, _count_document(path)) for path in expand_paths(paths)]
    return add_counts(parts)


def load_count_files(paths: str | Sequence[str]) -> list[tuple[str, Counts]]:
    """Read count files one by one (for folds): (path, counts) in order."""
    return [(path, _count_document(path)) for path in expand_paths(paths)]


def _count_document(path: str) -> Counts:
    if path == "-":
        raise OptionError("count files are read from files, not standard input")
    try:
        with open(path, encoding="utf-8") as handle:
            doc = json.load(handle)
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except UnicodeDecodeError:
        raise InputError("is not valid UTF-8: expected a clfeval count file (JSON)", path) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"is not valid JSON: {exc.msg} at column {exc.colno}; expected a clfeval count file",
                         path, exc.lineno) from None
    return counts_from_dict(doc, path)
