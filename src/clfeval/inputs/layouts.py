"""Files → counts: the readers' unique cell rows become :class:`ConfusionCounts` or :class:`LabelSetCounts`."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import MultiLabel
from clfeval.count.paired import counts_of_pairs
from clfeval.count.weighted import WeightedLabelCounts
from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import expand_paths, read_bytes
from clfeval.inputs.columns import Column, one_role_each
from clfeval.inputs.embedded import Cells, first_line_with, read_cells
from clfeval.inputs.engine import Engine
from clfeval.inputs.formats import TableOptions, shown_pattern
from clfeval.inputs.relabel import NotANumber, Relabel, cell_value, single_label
from clfeval.inputs.tally import BLOCK_KEY, unpack
from clfeval.kinds import Counts
from clfeval.kinds.countfile import add_counts, counts_from_dict

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

__all__ = [
    "BlockSpec",
    "FileCounts",
    "count_confidences",
    "count_file",
    "count_files",
    "count_fold_column",
    "count_parts",
    "PartCounts",
    "count_system_columns",
    "count_system_files",
    "cut_error",
    "STATED_LABELS",
    "load_count_files",
    "read_count_file",
    "sum_count_files",
    "sum_count_files_declared",
    "sum_grouped_count_files",
    "one_file",
    "system_names",
    "train_frequencies",
]


class _CellError(Exception):
    """A read cell that cannot be a label (a label set with an empty label, NONE beside another label …): the
    message, which label column it is in (0 = gold) and the cell as read, to find its line."""

    def __init__(self, message: str, column: int, value: Any) -> None:
        super().__init__(message)
        self.message, self.column, self.value = message, column, value


def _label(value: Any, column: int, source: str, labelsets: MultiLabel | None, relabel: Relabel | None) -> Any:
    """:func:`cell_value` of the cell in label column ``column`` (0 = gold, the others predicted); a cell that
    cannot be a label raises :class:`_CellError` for :func:`_located` to name its line."""
    try:
        return cell_value(value, source, labelsets, relabel, predicted=column > 0)
    except InputError as exc:
        raise _CellError(exc.message, column, value) from None


def _to_counts(
    rows: Sequence[tuple[Any, Any]],
    counts: np.ndarray,
    source: str,
    labelsets: MultiLabel | None,
    relabel: Relabel | None = None,
) -> Counts:
    pairs: Counter[tuple[Any, Any]] = Counter()
    for (g, p), c in zip(rows, counts):
        pairs[
            (
                _label(g, 0, source, labelsets, relabel),
                _label(p, 1, source, labelsets, relabel),
            )
        ] += int(c)
    return counts_of_pairs(pairs, labelsets)


def _frame_to_counts(frame: Any, source: str, relabel: Relabel | None) -> ConfusionCounts | None:
    """Single-label counts straight from a counted polars frame (text columns ``c0``, ``c1`` and counts ``n``): each
    distinct cell value becomes a label once (stripped, translated, cut), and the pairs become label positions in
    polars, with no Python work per distinct pair. ``None`` when the columns are not plain text (lists, numbers,
    nulls), for :func:`_to_counts` to handle."""
    import polars as pl

    if frame is None or any(frame.schema[c] != pl.String or frame.get_column(c).null_count() for c in ("c0", "c1")):
        return None
    maps = []
    for column in (0, 1):
        # sorted: a counted frame's rows come in a hash order, and the bad value an error names is the same each run
        values = frame.get_column(f"c{column}").unique().sort().to_list()
        maps.append({v: _label(v, column, source, None, relabel) for v in values})
    labels = sorted(set(maps[0].values()) | set(maps[1].values()))
    index = {lab: i for i, lab in enumerate(labels)}
    codes = [
        frame.get_column(f"c{column}")
        .replace_strict(list(m), [index[lab] for lab in m.values()], return_dtype=pl.Int64)
        .to_numpy()
        for column, m in enumerate(maps)
    ]
    return ConfusionCounts.from_entries(labels, codes[0], codes[1], frame.get_column("n").to_numpy())


def _to_joint(
    rows: Sequence[tuple[Any, ...]],
    counts: np.ndarray,
    source: str,
    systems: Sequence[str],
    labelsets: MultiLabel | None,
    relabel: Relabel | None = None,
) -> JointCounts:
    joint: Counter[tuple[Any, ...]] = Counter()
    for row, c in zip(rows, counts):
        joint[tuple(_label(v, i, source, labelsets, relabel) for i, v in enumerate(row))] += int(c)
    return JointCounts(tuple(systems), joint, labelsets)


#: Where each label column of a reading lies: (its file or files, its column), gold first.
Where = Sequence[tuple["str | Sequence[str]", Column]]


def _files(paths: str | Sequence[str]) -> list[str]:
    return [p for p in expand_paths([paths] if isinstance(paths, str) else list(paths)) if p != "-"]


def cut_error(where: Where, options: TableOptions) -> InputError:
    """The error for a prediction that is not a number under a cut-off, naming its file and line (``where``: the
    predicted columns)."""
    for paths, column in where:
        found = first_line_with(_files(paths), column, lambda text: not _is_finite(text), options)
        if found is not None:
            return InputError(
                f"the prediction {found[2]!r} is not a number (--cutoff turns real-valued predictions into labels)",
                found[0],
                found[1],
            )
    return InputError(
        "a prediction is not a number (--cutoff turns real-valued predictions into labels)",
        ", ".join(f for paths, _ in where for f in _files(paths)),
    )


def _located(read: Any, where: Where, options: TableOptions) -> Any:
    """Run ``read()``, which turns read cells into labels; a cell that cannot be one (a prediction that is not a
    number under a cut-off, a label set with an empty label …) becomes an error naming its file and line."""
    try:
        return read()
    except NotANumber:
        raise cut_error(where[1:], options) from None
    except _CellError as exc:
        paths, column = where[min(exc.column, len(where) - 1)]
        value = exc.value.strip() if isinstance(exc.value, str) else exc.value
        found = first_line_with(_files(paths), column, lambda cell: cell == value, options)
        if found is None:
            raise InputError(exc.message, ", ".join(_files(paths)) or "<stdin>") from None
        raise InputError(exc.message, found[0], found[1]) from None


def _header_warning(
    cells: Cells, counts: Counts, labelsets: MultiLabel | None, relabel: Relabel | None = None
) -> list[str]:
    """Warn when an unheaded file's first line of single labels looks like a header: its labels occur nowhere else."""
    if cells.header or cells.first_row is None or labelsets is not None:
        return []
    counts = cast(ConfusionCounts, counts)  # single labels (no label sets): a confusion matrix
    try:  # the labels as counted: translated, and cut when predictions are real-valued
        g = single_label(cells.first_row[0], cells.source, relabel)
        p = cell_value(cells.first_row[1], cells.source, None, relabel, predicted=True)
        i, j = counts.labels.index(g), counts.labels.index(p)
    except ValueError:
        return []
    occurrences = counts.gold_totals + counts.pred_totals  # the first line's pair counts once in each
    if g != p and occurrences[i] == 1 and occurrences[j] == 1:
        return [
            f"{cells.source}: the first line ({g!r}, {p!r}) looks like a header (its labels occur nowhere "
            "else) and was counted as an instance; pass --header if it is one"
        ]
    return []


class FileCounts(NamedTuple):
    """What a file counter returns: the counts, reader warnings, and the blocks when blocks were asked for."""

    counts: Any
    warnings: list[str]
    blocks: Blocks | None = None


@dataclass(frozen=True)
class BlockSpec:
    """Where instances' blocks (sentences) come from: lines between them (``column is None``): blank lines,
    CoNLL style, and lines matching ``end`` (MBT's ``<utt>``); or a column naming each instance's block."""

    column: Column | None = None
    end: str | None = None

    def __post_init__(self) -> None:
        if self.column is not None and self.end is not None:
            raise OptionError("--block-end ends blocks at lines; --block-col takes blocks from a column: give one")

    @property
    def unit(self) -> str:
        """The blocks in words, for reports."""
        if self.column is not None:
            return f"blocks of column {self.column!s}"
        if self.end is not None:
            return f"blocks delimited by blank lines and lines matching {shown_pattern(self.end)}"
        return "blocks delimited by blank lines"

    def reading(self, options: TableOptions) -> TableOptions:
        """The table options that delimit these blocks while reading."""
        return replace(options, block_end=self.end) if self.end is not None else options


def _counted_frame(cells: Cells, width: int) -> tuple[Any, Sequence[bool] | None]:
    """The counted rows as a polars frame (columns ``c0``… and ``n``) and which columns hold label lists: the
    embedded reader's own frame, or one made of the rows another engine (Dask) sent back."""
    if cells.frame is not None:
        return cells.frame, cells.is_list
    import polars as pl

    flags = [bool(cells.rows) and isinstance(cells.rows[0][i], tuple) for i in range(width)]
    columns = {f"c{i}": [list(r[i]) if flags[i] else r[i] for r in cells.rows] for i in range(width)}
    return pl.DataFrame({**columns, "n": cells.counts}), flags


def _blocked(
    frame: Any,
    n_labels: int,
    block_key: str,
    source: str,
    is_list: Sequence[bool] | None,
    labelsets: MultiLabel | None,
    relabel: Relabel | None,
    unit: str,
) -> Blocks:
    """A counted frame with label columns ``c0``… and a block column as :class:`Blocks`: each unique cell value
    becomes a label (or label set) once, and rows that become equal merge."""
    import polars as pl

    from clfeval.count.blocks import Blocks  # blocks only: a plain reading does not load it

    if frame is None or frame.height == 0:
        raise InputError("holds no instances (only blank lines or a header)", source)
    flags = list(is_list) if is_list is not None else [False] * n_labels
    canon: dict[Any, int] = {}
    values: list[Any] = []
    label_keys = [f"k{i}" for i in range(n_labels)]
    coded = frame.with_columns(pl.col(block_key).rank("dense").cast(pl.Int64).alias("b") - 1)
    for i in range(n_labels):
        unique = frame.select(pl.col(f"c{i}").unique(maintain_order=True))
        mapped = []
        for value in unique.get_column(f"c{i}").to_list():
            label = _label(unpack(value, flags[i]), i, source, labelsets, relabel)
            if label not in canon:
                canon[label] = len(values)
                values.append(label)
            mapped.append(canon[label])
        # a join, not a replace: list cells (label sets of JSON Lines and Parquet) are keys as they are
        codes = unique.with_columns(pl.Series(f"k{i}", mapped, dtype=pl.Int64))
        coded = coded.join(codes, on=f"c{i}", how="left", maintain_order="left", nulls_equal=True)
    coded = coded.select(*label_keys, "b", "n")
    unique_rows = coded.select(label_keys).unique(maintain_order=True).with_row_index("r")
    entries = coded.join(unique_rows, on=label_keys, how="left").group_by("b", "r").agg(pl.col("n").sum())
    keys = tuple(tuple(values[c] for c in row) for row in unique_rows.select(label_keys).iter_rows())
    return Blocks(
        keys,
        entries.get_column("r").to_numpy(),
        entries.get_column("b").to_numpy(),
        entries.get_column("n").to_numpy(),
        int(coded.get_column("b").max()) + 1,
        unit,
    )


def _empty_ok(labelsets: MultiLabel | None, options: TableOptions) -> bool:
    """Whether an empty label cell is read as a value: the empty label set (multi-label), or the empty label that an
    invalid policy counts as an invalid prediction (``TableOptions.empty_cells``; an empty gold cell is then refused
    by the policy, :mod:`clfeval.count.invalid`)."""
    return labelsets is not None or options.empty_cells


def _table(
    path: str | Sequence[str],
    label_cols: Sequence[Column],
    roles: Sequence[str],
    options: TableOptions,
    sets: bool,
    engine: Engine,
    blocks: BlockSpec | None,
) -> Cells:
    """The cells of a table's label columns, and its block column (or blank-line block numbers) last."""
    if blocks is None:
        return engine.cells(path, list(label_cols), list(roles), options, empty_ok=sets)
    options = blocks.reading(options)
    if blocks.column is None:
        if engine.name != "polars":
            raise OptionError(
                "blocks delimited by blank lines need the lines in order: the embedded engine "
                "(--engine polars); on a cluster, give each instance's block in a column (--block-col)"
            )
        return read_cells(
            expand_paths([path] if isinstance(path, str) else list(path)),
            list(label_cols),
            list(roles),
            options,
            empty_ok=sets,
            progress=engine.progress,
            blank_line_blocks=True,
        )
    return engine.cells(path, [*label_cols, blocks.column], [*roles, "block"], options, empty_ok=sets)


def count_file(
    path: str | Sequence[str],
    *,
    gold_col: Column = -2,
    pred_col: Column = -1,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
    blocks: BlockSpec | None = None,
    weight_col: Column | None = None,
) -> FileCounts:
    """Count a file holding a gold and a predicted column (or several such files, or globs, as one table).

    Returns the counts, reader warnings and (with ``blocks``) the instances' :class:`Blocks`; with ``weight_col``,
    weighted counts (:mod:`clfeval.count.weighted`).
    """
    if weight_col is not None:
        return _weighted_table(path, [gold_col, pred_col], ["gold", "predicted"], None, weight_col, options,
                               labelsets, engine, relabel)  # fmt: skip
    _distinct_columns([gold_col, pred_col], ["gold", "predicted"])
    cells = _table(
        path, [gold_col, pred_col], ["gold", "predicted"], options, _empty_ok(labelsets, options), engine, blocks
    )
    where = [(path, gold_col), (path, pred_col)]
    if blocks is not None:
        key = BLOCK_KEY if blocks.column is None else "c2"
        frame, flags = _counted_frame(cells, 3)
        found = _located(
            lambda: _blocked(frame, 2, key, cells.source, flags, labelsets, relabel, blocks.unit),
            where,
            options,
        )
        counts = counts_of_pairs(found.totals(), labelsets)
        return FileCounts(counts, list(cells.warnings), found)
    counts = _located(
        lambda: (
            (None if labelsets is not None else _frame_to_counts(cells.frame, cells.source, relabel))
            or _to_counts(cells.rows, cells.counts, cells.source, labelsets, relabel)
        ),
        where,
        options,
    )
    if counts.n_instances == 0:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return FileCounts(counts, list(cells.warnings) + _header_warning(cells, counts, labelsets, relabel))


def _weight_of(value: Any) -> float | None:
    """A weight cell as a number, or ``None`` when it is not a finite number ≥ 0."""
    try:
        w = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError):
        return None
    return w if math.isfinite(w) and w >= 0 else None


def _weights_of(
    cells: Cells, width: int, path: str | Sequence[str], weight_col: Column, options: TableOptions
) -> list[float]:
    """Each counted row's weight (the cell after its ``width`` label columns); a weight that is not a finite number
    ≥ 0 is an error naming its file and line."""
    weights = [_weight_of(row[width]) for row in cells.rows]
    if any(w is None for w in weights):
        found = first_line_with(
            expand_paths([path] if isinstance(path, str) else list(path)),
            weight_col,
            lambda text: _weight_of(text) is None,
            options,
        )
        if found is None:
            raise InputError("a weight is not a finite number ≥ 0", cells.source)
        raise InputError(f"the weight {found[2]!r} is not a finite number ≥ 0", found[0], found[1])
    return cast("list[float]", weights)


def _weighted_rows(
    rows: Sequence[tuple[Any, ...]],
    counts: Sequence[int] | np.ndarray,
    weights: Sequence[float],
    width: int,
    source: str,
    systems: Sequence[str] | None,
    labelsets: MultiLabel | None,
    relabel: Relabel | None,
) -> Counts | None:
    """Weighted counts of counted rows (``width`` label columns: gold, then one predicted column or one per system)
    with each row's weight: one system's single labels as arrays (each column's distinct cells named once by
    :func:`_label`, every row a code into the names), else rows of weighted or joint counts
    (:func:`clfeval.kinds.weighted.weighted_counts`). ``None`` when there are no rows."""
    if not len(rows):
        return None
    if systems is None and labelsets is None:
        names: list[str] = []
        codes = []
        for i, column in enumerate(list(zip(*rows))[:width]):
            index = {v: len(names) + j for j, v in enumerate(dict.fromkeys(column))}
            names += [_label(v, i, source, None, relabel) for v in index]
            codes.append(np.fromiter(map(index.__getitem__, column), dtype=np.int64, count=len(column)))
        count = np.asarray(counts, dtype=np.int64)
        return WeightedLabelCounts.of_codes(names, codes[0], codes[1], np.array(weights, dtype=np.float64), count)
    out: dict[tuple[Any, ...], int] = {}
    for row, w, c in zip(rows, weights, counts):
        key = (*(_label(v, i, source, labelsets, relabel) for i, v in enumerate(row[:width])), w)
        out[key] = out.get(key, 0) + int(c)
    from clfeval.kinds.weighted import weighted_counts

    return weighted_counts(out, labelsets, systems)


def _weighted_table(
    path: str | Sequence[str],
    label_cols: Sequence[Column],
    roles: Sequence[str],
    systems: Sequence[str] | None,
    weight_col: Column,
    options: TableOptions,
    labelsets: MultiLabel | None,
    engine: Engine,
    relabel: Relabel | None,
) -> FileCounts:
    """Weighted counts of a table: its label columns (gold, then one predicted column, or one per system in
    ``systems``) and a column of each instance's weight. The engine counts the distinct (labels…, weight) rows; each
    becomes a row of weighted counts (:mod:`clfeval.count.weighted`), or of joint counts that end with the weight.
    A weight that is not a finite number ≥ 0 is an error naming its file and line."""

    _distinct_columns([*label_cols, weight_col], [*roles, "weight"])
    cells = engine.cells(
        path, [*label_cols, weight_col], [*roles, "weight"], options, empty_ok=_empty_ok(labelsets, options)
    )
    width = len(label_cols)
    weights = _weights_of(cells, width, path, weight_col, options)
    where = [(path, column) for column in label_cols]
    counted = _located(
        lambda: _weighted_rows(cells.rows, cells.counts, weights, width, cells.source, systems, labelsets, relabel),
        where,
        options,
    )
    if counted is None or not counted.n_instances:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return FileCounts(counted, list(cells.warnings))


class PartCounts(NamedTuple):
    """What :func:`count_parts` returns: each part's key (its value in each part column, in the order the rows
    came), its counts, and reader warnings."""

    keys: list[tuple[str, ...]]
    counts: list[Counts]
    warnings: list[str]


def count_parts(
    path: str | Sequence[str],
    *,
    gold_col: Column,
    pred_col: Column,
    part_cols: Sequence[Column],
    role: str | Sequence[str] = "group",
    weight_col: Column | None = None,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
) -> PartCounts:
    """Count a table (one file, or parts) per value of its part columns (a fold column, or group columns): the
    engine counts the distinct (gold, predicted[, weight], part…) rows — on a cluster, each partition where it lies
    — and the rows are split by their part key, so memory grows with the distinct rows, never the instances.

    Labels are named jointly over the whole table (each distinct cell once, :func:`_label`), so a label is one label
    in every part; a part's value is its cell's stripped text (never translated); an empty one is an error naming
    its file and line. With ``weight_col``, each part's counts are weighted (:func:`_weighted_rows`). ``role``
    names what a part column holds in messages: one word for every part column, or one per column.
    """
    part_roles = [role] * len(part_cols) if isinstance(role, str) else list(role)
    label_cols = [gold_col, pred_col]
    extra = [] if weight_col is None else [weight_col]
    columns = [*label_cols, *extra, *part_cols]
    roles = ["gold", "predicted", *(["weight"] if extra else []), *part_roles]
    _distinct_columns(columns, roles)
    cells = engine.cells(path, columns, roles, options, empty_ok=_empty_ok(labelsets, options))
    width = len(label_cols) + len(extra)
    weights = _weights_of(cells, len(label_cols), path, extra[0], options) if extra else None
    members: dict[tuple[str, ...], list[int]] = {}
    for i, row in enumerate(cells.rows):
        key = tuple("" if v is None else single_label(v, cells.source) for v in row[width:])
        members.setdefault(key, []).append(i)
    if not members:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    for at, column in enumerate(part_cols):
        if any(key[at] == "" for key in members):  # an empty cell where empty label sets are read
            found = first_line_with(
                expand_paths([path] if isinstance(path, str) else list(path)),
                column,
                lambda value: value is None or (isinstance(value, str) and not value.strip()),
                options,
            )
            what = f"has no {part_roles[at]} (column {column!s}): each instance belongs to one {part_roles[at]}"
            if found is None:
                raise InputError(what, cells.source)
            raise InputError(what, found[0], found[1])
    named: dict[Any, Any] = {}  # each distinct cell a label once, for every part

    def label(value: Any, column: int) -> Any:
        key = (column > 0, value)
        if key not in named:
            named[key] = _label(value, column, cells.source, labelsets, relabel)
        return named[key]

    def counted(idx: list[int]) -> Counts:
        rows = [cells.rows[i] for i in idx]
        counts = [int(cells.counts[i]) for i in idx]
        if weights is not None:
            found = _weighted_rows(rows, counts, [weights[i] for i in idx], len(label_cols), cells.source, None,
                                   labelsets, relabel)  # fmt: skip
            assert found is not None
            return found
        pairs: Counter[tuple[Any, Any]] = Counter()
        for (g, p, *_), c in zip(rows, counts):
            pairs[(label(g, 0), label(p, 1))] += c
        return cast(Counts, counts_of_pairs(pairs, labelsets))

    keys = list(members)
    found = _located(lambda: [counted(members[k]) for k in keys], [(path, gold_col), (path, pred_col)], options)
    return PartCounts(keys, found, list(cells.warnings))


def _distinct_columns(columns: Sequence[Column], roles: Sequence[str]) -> None:
    """Refuse one column given for two roles (``--gold-col 2 --pred-col 2``), before any file is read."""
    one_role_each([str(c) for c in columns], roles, None, [f"column {c!s}" for c in columns])


def one_file(spec: str) -> str:
    """The one file a path or glob names; a glob matching several files is an error."""
    found = expand_paths(spec)
    if len(found) != 1:
        raise OptionError(
            f"{spec} matches {len(found)} files; a gold file and prediction files paired line by line "
            "must each be one file"
        )
    return found[0]


def _in_line_order(
    sources: list[tuple[str, Column, str]],
    options: TableOptions,
    sets: bool,
    engine: Engine,
    blocks: BlockSpec | None,
) -> tuple[list[tuple[Any, ...]], np.ndarray, Any, str | None, list[str]]:
    """Read files in step (the block column, if any, from the first file): rows, counts, the counted frame, the
    frame's block key, and the warnings about skipped lines."""
    if blocks is not None and blocks.column is not None:
        sources = sources + [(sources[0][0], blocks.column, "block")]
    if blocks is not None:
        options = blocks.reading(options)
    from clfeval.inputs.pairing import read_cells_in_line_order  # files in step: a table alone does not load it

    rows, counts, frame, warnings = read_cells_in_line_order(
        sources,
        options,
        empty_ok=sets,
        progress=engine.progress,
        blank_line_blocks=blocks is not None and blocks.column is None,
    )
    key = None if blocks is None else BLOCK_KEY if blocks.column is None else f"c{len(sources) - 1}"
    return rows, counts, frame, key, warnings


def count_files(
    gold_path: str,
    pred_path: str,
    *,
    gold_col: Column = -1,
    pred_col: Column = -1,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
    blocks: BlockSpec | None = None,
) -> FileCounts:
    """Count a gold file and a predictions file, line i against line i."""
    engine.line_order()
    gold_path, pred_path = one_file(gold_path), one_file(pred_path)
    rows, counts, frame, key, warnings = _in_line_order(
        [(gold_path, gold_col, "gold"), (pred_path, pred_col, "predicted")],
        options,
        _empty_ok(labelsets, options),
        engine,
        blocks,
    )
    source = f"{gold_path}/{pred_path}"
    where = [(gold_path, gold_col), (pred_path, pred_col)]
    if blocks is not None and key is not None:
        found = _located(
            lambda: _blocked(frame, 2, key, source, None, labelsets, relabel, blocks.unit),
            where,
            options,
        )
        return FileCounts(counts_of_pairs(found.totals(), labelsets), warnings, found)
    result = _located(
        lambda: _to_counts([r[:2] for r in rows], counts, source, labelsets, relabel),
        where,
        options,
    )
    return FileCounts(result, warnings)


def _in_order(names: Iterable[str]) -> list[str]:
    """Fold names in order: numerically when every name is a number (fold 2 before fold 10), else as strings."""
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names)


def count_fold_column(
    path: str | Sequence[str],
    *,
    gold_col: Column = -3,
    pred_col: Column = -2,
    fold_col: Column = -1,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
    weight_col: Column | None = None,
) -> tuple[list[str], list[Counts], list[str]]:
    """Count a table (one file, or parts) per value of its fold column: the fold names (sorted), each fold's counts
    (:func:`count_parts`, the path of group columns too; with ``weight_col``, weighted)."""
    found = count_parts(
        path, gold_col=gold_col, pred_col=pred_col, part_cols=[fold_col], role="fold", weight_col=weight_col,
        options=options, labelsets=labelsets, engine=engine, relabel=relabel,
    )  # fmt: skip
    by_name = {key[0]: counts for key, counts in zip(found.keys, found.counts)}
    names = _in_order(by_name)
    return names, [by_name[n] for n in names], found.warnings


def system_names(paths: Sequence[str]) -> list[str]:
    """Systems named after their files: the file name without its extension, or the path when those clash."""
    from clfeval.inputs.pairing import file_identity

    ids = [file_identity(p) for p in paths]
    if len(set(ids)) != len(ids):  # one file under two names (./b.txt, a link) is still one system
        twice = [p for p, i in zip(paths, ids) if ids.count(i) > 1]
        raise OptionError(f"the same predictions file is given twice: {', '.join(twice)}")
    stems = [Path(p).stem if p != "-" else "stdin" for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    return list(paths)


def count_system_files(
    gold_path: str,
    pred_paths: Sequence[str],
    *,
    names: Sequence[str] | None = None,
    gold_col: Column = -1,
    pred_col: Column = -1,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
    blocks: BlockSpec | None = None,
) -> FileCounts:
    """Count a gold file and one predictions file per system, line i against line i.

    ``names`` default to the prediction files' names (:func:`system_names`).
    """
    engine.line_order()
    gold_path, pred_paths = one_file(gold_path), [one_file(p) for p in pred_paths]
    names = list(names) if names is not None else system_names(pred_paths)
    if len(names) != len(pred_paths):
        raise OptionError(f"{len(names)} system name(s) for {len(pred_paths)} prediction files")
    sources = [(gold_path, gold_col, "gold")] + [(p, pred_col, f"predicted ({n})") for p, n in zip(pred_paths, names)]
    rows, counts, frame, key, warnings = _in_line_order(sources, options, _empty_ok(labelsets, options), engine, blocks)
    source = "/".join([gold_path, *pred_paths])
    where = [(path, column) for path, column, _ in sources]
    if blocks is not None and key is not None:
        found = _located(
            lambda: _blocked(frame, len(sources), key, source, None, labelsets, relabel, blocks.unit),
            where,
            options,
        )
        return FileCounts(JointCounts(tuple(names), found.totals(), labelsets), warnings, found)
    joint = _located(
        lambda: _to_joint([r[: len(sources)] for r in rows], counts, source, names, labelsets, relabel),
        where,
        options,
    )
    return FileCounts(joint, warnings)


def count_system_columns(
    path: str | Sequence[str],
    *,
    gold_col: Column,
    pred_cols: Sequence[Column],
    names: Sequence[str] | None = None,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
    blocks: BlockSpec | None = None,
    weight_col: Column | None = None,
) -> FileCounts:
    """Count a table (one file, or parts) that holds the gold column and one predicted column per system (and, with
    ``weight_col``, each instance's sample weight: joint rows that end with it).

    ``names`` default to the columns' names (header names, or ``column N``).
    """
    if names is None:
        names = [c if isinstance(c, str) else f"column {c}" for c in pred_cols]
    if len(names) != len(pred_cols):
        raise OptionError(f"{len(names)} system name(s) for {len(pred_cols)} predicted columns")
    if len(set(map(str, pred_cols))) != len(pred_cols):
        raise OptionError("a predicted column is given twice")
    roles = ["gold"] + [f"predicted ({n})" for n in names]
    if weight_col is not None:
        return _weighted_table(path, [gold_col, *pred_cols], roles, names, weight_col, options, labelsets, engine,
                               relabel)  # fmt: skip
    _distinct_columns([gold_col, *pred_cols], roles)
    cells = _table(path, [gold_col, *pred_cols], roles, options, _empty_ok(labelsets, options), engine, blocks)
    where = [(path, column) for column in [gold_col, *pred_cols]]
    if blocks is not None:
        key = BLOCK_KEY if blocks.column is None else f"c{len(roles)}"
        frame, flags = _counted_frame(cells, len(roles) + 1)
        found = _located(
            lambda: _blocked(
                frame,
                len(roles),
                key,
                cells.source,
                flags,
                labelsets,
                relabel,
                blocks.unit,
            ),
            where,
            options,
        )
        return FileCounts(JointCounts(tuple(names), found.totals(), labelsets), list(cells.warnings), found)
    joint = _located(
        lambda: _to_joint(cells.rows, cells.counts, cells.source, names, labelsets, relabel),
        where,
        options,
    )
    if joint.n_instances == 0:
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    return FileCounts(joint, list(cells.warnings))


def count_confidences(
    path: str | Sequence[str],
    *,
    gold_col: Column = -3,
    pred_col: Column = -2,
    conf_col: Column = -1,
    options: TableOptions = TableOptions(),
    lower_is_more_confident: bool = False,
    engine: Engine = Engine(),
) -> tuple[ConfidenceCounts, list[str]]:
    """Count a table of gold labels, predictions and each prediction's confidence (by default the last three columns).

    Returns unique (gold, predicted, confidence) rows with counts, and reader warnings. A
    confidence that is not a finite number is an error naming its file and line.
    """
    _distinct_columns([gold_col, pred_col, conf_col], ["gold", "predicted", "confidence"])
    cells = engine.cells(path, [gold_col, pred_col, conf_col], ["gold", "predicted", "confidence"], options)
    if not len(cells.rows):
        raise InputError("holds no instances (only blank lines or a header)", cells.source)
    if any((cells.is_list or ())[:2]) or (
        cells.frame is None and any(isinstance(v, tuple) for row in cells.rows for v in row[:2])
    ):
        raise InputError(
            "a label column holds lists of labels: finagle scores one predicted label per instance", cells.source
        )
    if cells.frame is not None:  # columns, not a Python tuple per row: confidences make most rows unique
        labels, gold_codes, pred_codes, confidence, bad = _confidence_columns(cells.frame)
    else:
        gold = [single_label(g, cells.source) for g, _, _ in cells.rows]
        pred = [single_label(p, cells.source) for _, p, _ in cells.rows]
        raw = [c for _, _, c in cells.rows]
        bad = any(not _is_finite(c) for c in raw)
        confidence = np.array([float(c) for c in raw], dtype=np.float64) if not bad else np.zeros(0)
    if bad:
        what = "distance" if lower_is_more_confident else "confidence"
        where = first_line_with(
            expand_paths([path] if isinstance(path, str) else list(path)),
            conf_col,
            lambda text: not _is_finite(text),
            options,
        )
        if where is None:
            raise InputError(f"a {what} is not a finite number", cells.source)
        raise InputError(f"the {what} {where[2]!r} is not a finite number", where[0], where[1])
    if cells.frame is not None:
        counts = ConfidenceCounts(labels, gold_codes, pred_codes, confidence, cells.counts, lower_is_more_confident)
    else:
        counts = ConfidenceCounts.from_rows(
            gold, pred, confidence, cells.counts, lower_is_more_confident=lower_is_more_confident
        )
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


def train_frequencies(
    path: str | Sequence[str],
    *,
    column: Column = -1,
    options: TableOptions = TableOptions(),
    labelsets: MultiLabel | None = None,
    engine: Engine = Engine(),
    relabel: Relabel | None = None,
) -> LabelFrequencies:
    """Label frequencies of a training file's label column (by default its last column); files or globs add up.

    ``relabel`` translates the labels (its cut-off is for predictions and does not apply)."""
    cells = engine.cells(path, [column], ["training"], options, empty_ok=labelsets is not None)

    def count() -> LabelFrequencies:
        counter: Counter[str] = Counter()
        n = 0
        for (value,), c in zip(cells.rows, cells.counts):
            n += int(c)
            labels = _label(value, 0, cells.source, labelsets, relabel)
            for lab in labels if labelsets is not None else (labels,):
                counter[lab] += int(c)
        return LabelFrequencies(dict(counter), n)

    return _located(count, [(path, column)], options)


def sum_count_files(paths: str | Sequence[str]) -> Counts:
    """Read count files (``clfeval.counts/1``; paths or globs) and add them up, labels aligned by name.

    Raises
    ------
    InputError
        Naming the file: missing, not JSON, not a count file, or counted differently from the first.
    """
    return sum_count_files_declared(paths)[0]


def sum_count_files_declared(paths: str | Sequence[str]) -> tuple[Counts, tuple[str, ...] | None]:
    """:func:`sum_count_files`, and the label set the files state (:func:`read_count_file`: declared, or the
    columns of indicator matrices, as :meth:`clfeval.Accumulator.save` writes them), or ``None`` when none does.

    Raises
    ------
    InputError
        As :func:`sum_count_files`; and when two files declare different label sets.
    """
    parts: list[tuple[str, Counts]] = []
    declared: tuple[str, ...] | None = None
    first = ""
    for path in expand_paths(paths):
        counts, stated = read_count_file(path)
        parts.append((path, counts))
        if stated is None:
            continue
        labels = stated[1]
        if declared is not None and set(labels) != set(declared):
            raise InputError(
                f"declares a label set of {len(labels)} labels, {first} a different one of {len(declared)}: the "
                "count files must declare one label set (or give it with --labels / Scoring(labels=...))",
                path,
            )
        declared, first = declared or labels, first or path
    return add_counts(parts), declared


def sum_grouped_count_files(
    paths: str | Sequence[str],
) -> tuple[tuple[str, ...], dict[str, Counts], dict[str, tuple[str, ...]]]:
    """Read count files of counts by group (:func:`clfeval.kinds.countfile.grouped_to_dict`) and add them up group
    by group (a group absent from a file adds nothing): the group columns, each group's counts (in the order the
    files name them) and values.

    Raises
    ------
    InputError
        Naming the file: one that does not hold counts by group, or by other group columns than the first; and as
        :func:`sum_count_files` for the counts themselves.
    """
    from clfeval.kinds.countfile import grouped_from_dict, is_grouped

    columns: tuple[str, ...] | None = None
    parts: dict[str, list[tuple[str, Counts]]] = {}
    values: dict[str, tuple[str, ...]] = {}
    first = ""
    for path in expand_paths(paths):
        doc = count_document(path)
        if not is_grouped(doc):
            raise InputError(
                f"holds counts without groups, and {first} holds counts by group: add count files by the same group "
                "columns (clfeval count --group-col)",
                path,
            )
        found, groups, given = grouped_from_dict(doc, path)
        if columns is not None and found != columns:
            raise InputError(
                f"holds counts by the group columns {list(found)}, and {first} by {list(columns)}: count files add up "
                "group by group only over the same group columns",
                path,
            )
        columns, first = found, first or path
        for name, counts in groups.items():
            parts.setdefault(name, []).append((f"{path} (group {name!r})", counts))
            values.setdefault(name, given[name])
    assert columns is not None
    return columns, {name: add_counts(found) for name, found in parts.items()}, values


def load_count_files(paths: str | Sequence[str]) -> list[tuple[str, Counts]]:
    """Read count files one by one (for folds): (path, counts) in order."""
    return [(path, _count_document(path)) for path in expand_paths(paths)]


def _count_document(path: str) -> Counts:
    return read_count_file(path)[0]


#: The ``options.labels`` of a count file whose ``options.label_set`` is a stated label set (as
#: :meth:`clfeval.Accumulator.save` writes them): declared by the user, or the columns of indicator matrices.
STATED_LABELS = ("declared", "columns")


def stated_labels(doc: Any) -> tuple[str, tuple[str, ...]] | None:
    """The label set a count document states in its options, with where it came from (:data:`STATED_LABELS`)."""
    options = doc.get("options") if isinstance(doc, dict) else None
    if not isinstance(options, dict) or options.get("labels") not in STATED_LABELS:
        return None
    labels = options.get("label_set")
    if isinstance(labels, list) and labels and all(isinstance(lab, str) for lab in labels):
        return options["labels"], tuple(labels)
    return None


def number_labels(doc: Any) -> frozenset[str]:
    """The labels a count document's options say were named from numbers (``"number_labels"``: ``"all"`` or a
    list), which an accumulator loaded from it matches by value (``1`` and ``1.0``, ``True`` and ``1``)."""
    options = doc.get("options") if isinstance(doc, dict) else None
    given = options.get("number_labels") if isinstance(options, dict) else None
    if given == "all":
        labels = doc.get("labels")
        return frozenset(lab for lab in labels if isinstance(lab, str)) if isinstance(labels, list) else frozenset()
    if isinstance(given, list):
        return frozenset(lab for lab in given if isinstance(lab, str))
    return frozenset()


def read_count_file(path: str) -> tuple[Counts, tuple[str, tuple[str, ...]] | None]:
    """One count file's counts, and the label set it states with where it came from (``("declared", labels)`` or
    ``("columns", labels)``, see :data:`STATED_LABELS`), or ``None``.

    Raises
    ------
    InputError
        Naming the file: missing, a directory, not UTF-8, not JSON, not a count file.
    """
    doc = count_document(path)
    return counts_from_dict(doc, path), stated_labels(doc)


def count_document(path: str) -> Any:
    """A count file's JSON document (checked as a count file by :func:`counts_from_dict`).

    Raises
    ------
    InputError
        Naming the file: missing, a directory, not UTF-8, not JSON, or changed while it was read.
    """
    if path == "-":
        raise OptionError("count files are read from files, not standard input")
    try:
        doc = json.loads(read_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", path) from None
    except UnicodeDecodeError:
        raise InputError("is not valid UTF-8: expected a clfeval count file (JSON)", path) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"is not valid JSON: {exc.msg} at column {exc.colno}; expected a clfeval count file", path, exc.lineno
        ) from None
    return doc
