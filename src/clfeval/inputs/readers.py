"""The readers: files, count files, matrices and data frames → :class:`Counted` (counts with their provenance).

Each task (:func:`clfeval.score`, :func:`clfeval.compare`, :func:`clfeval.cv`, :func:`clfeval.finagle`) takes
what a reader returns, as it takes arrays or counts::

    counted = clfeval.read("tagger.out", reading=clfeval.Reading(block_end="^<utt>"))
    clfeval.score(counted, ci="bootstrap")

Reading knows formats and reports bad input precisely; it never scores.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.labelsets import MultiLabel
from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.inputs.chunks import Meter, expand_paths, size_of
from clfeval.inputs.columns import Column
from clfeval.inputs.layouts import (
    FileCounts,
    PartCounts,
    _to_counts,
    _to_joint,
    count_confidences,
    count_document,
    count_file,
    count_files,
    count_fold_column,
    count_parts,
    count_system_columns,
    count_system_files,
    one_file,
    sum_count_files_declared,
    system_names,
)
from clfeval.inputs.matrix import MATRIX_ORIENTATIONS, matrix_counts
from clfeval.inputs.options import Reading, Training
from clfeval.inputs.relabel import Relabel
from clfeval.kinds import Counts, kind_of
from clfeval.kinds.countfile import add_counts, counts_to_dict, grouped_to_dict
from clfeval.output import write_text
from clfeval.spans.options import Spans

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

__all__ = [
    "Counted",
    "counts_of_frame",
    "fold_names",
    "load_counts",
    "read",
    "read_confidences",
    "read_fold_groups",
    "read_label_columns",
    "read_folds",
    "read_matrix",
    "save_counts",
    "system_names_of",
]


@dataclass(frozen=True, eq=False)
class Counted:
    """What a reader returns: the counts, where they came from, and the blocks when blocks were asked for.

    Attributes
    ----------
    counts
        :class:`~clfeval.ConfusionCounts` or :class:`~clfeval.LabelSetCounts` (one system),
        :class:`~clfeval.JointCounts` (several systems on one gold), or the rows of
        (gold, predicted, confidence) that :func:`clfeval.finagle` reads; ``None`` for folds.
    folds
        Fold name → counts, for :func:`clfeval.cv` (``None`` otherwise).
    blocks
        Instances grouped in blocks (sentences), when the reading asked for them.
    inputs, options
        The files read and how (the options given), as a result records them (``inputs`` and ``options``
        of the JSON).
    reading
        How they were read, and so the label rules a training file is read with (``None``: counts as they
        were written).
    gold_col
        The gold column, whose name (if it has one) is a training file's default label column.
    read_warnings
        What the reader warned about.
    declared_labels
        The label set the counts were declared over (count files written by :meth:`clfeval.Accumulator.save`):
        the tasks score over it when no label set or policy is given.
    groups
        Group name → that group's counts, in group order, when the counts were kept by group (a table read with
        group columns, :attr:`clfeval.Reading.group_col`, or a grouped count file); ``counts`` is then their
        merge, and :func:`clfeval.score` scores them by group. ``None`` otherwise.
    group_columns
        The group columns' names (their header names, or as given), with ``groups``.
    group_values
        Group name → its value in each group column, in column order, with ``groups``.
    """

    counts: Counts | None
    folds: Mapping[str, Counts] | None = None
    blocks: Blocks | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    reading: Reading | None = None
    gold_col: Column | None = None
    read_warnings: tuple[str, ...] = ()
    relabel: Relabel | None = field(default=None, repr=False)
    declared_labels: tuple[str, ...] | None = None
    groups: Mapping[str, Counts] | None = None
    group_columns: tuple[str, ...] | None = None
    group_values: Mapping[str, tuple[str, ...]] | None = None

    @property
    def warnings(self) -> list[str]:
        """The reader's warnings, and the translation mappings no label has used so far."""
        return [*self.read_warnings, *(self.relabel.unused() if self.relabel is not None else [])]

    @property
    def multilabel(self) -> bool:
        """Whether the counts are of label sets."""
        if self.reading is not None and self.reading.label_sets is not None:
            return True
        parts = self.folds.values() if self.folds is not None else [self.counts]
        return any(kind.holds_label_sets(c) for c in parts if (kind := kind_of(c)) is not None)

    def to_dict(self) -> dict[str, Any]:
        """The counts as a ``clfeval.counts/1`` document, with their provenance (what :func:`save_counts` writes)."""
        kind = kind_of(self.counts)
        if self.counts is None or kind is None or kind.document is None:
            what = "folds" if self.folds is not None else "confidences"
            raise OptionError(f"a count file holds one table of counts, not {what}")
        if self.groups is not None:
            assert self.group_columns is not None and self.group_values is not None
            if kind.units(self.counts) is not None:  # load_counts does not take them back yet
                raise OptionError(
                    "counts with their units (spans' sentences) by group are not written to a count file yet: score "
                    "them as read (clfeval.score(counted))"
                )
            return grouped_to_dict(
                self.group_columns, self.groups, self.group_values, inputs=self.inputs, options=self.options
            )
        return counts_to_dict(self.counts, inputs=self.inputs, options=self.options)

    def training(self, train: Any) -> tuple[LabelFrequencies | None, dict[str, Any]]:
        """Training data (labels, frequencies, a path or a :class:`~clfeval.Training`) as label frequencies, read
        with these counts' label rules, and what the result records of it."""
        if train is None or isinstance(train, LabelFrequencies):
            return train, {}
        if isinstance(train, str):
            train = Training(train)
        if isinstance(train, Training):
            reading = self.reading or Reading(multilabel=self.multilabel)
            return train.frequencies(reading, self.gold_col, self.relabel), {"train_file": train.shown}
        ml = None if self.reading is None else self.reading.label_sets
        # labels in memory are split as the data was: a file's separator (default ","), or the arrays' (default none)
        sep = None if ml is None else ml.sep if self.inputs.get("source") == "arrays" else ml.file_sep
        from clfeval.inputs.arrays import frequencies_of

        return frequencies_of(train, multilabel=self.multilabel, label_sep=sep), {}


def _file_inputs(path: str | Sequence[str], key: str = "file") -> dict[str, Any]:
    """Provenance of one input: ``{"file": path}``, or ``{"files": [...]}`` for several paths or globs."""
    if isinstance(path, str):
        return {key: path}
    return {key + "s": list(path)}


def _gold_labels(counts: Any) -> set[str]:
    """The gold labels of counts of single labels, for the cut-off check (none for label sets)."""
    kind = kind_of(counts)
    if kind is None or kind.holds_label_sets(counts):
        return set()
    return kind.labels_seen(counts)[0]


def _cutoff_warnings(relabel: Relabel | None, gold: set[str]) -> list[str]:
    """A warning when a cut-off made predictions the gold labels never use."""
    if relabel is None or relabel.cutoff is None or not gold or {relabel.above, relabel.below} <= gold:
        return []
    shown = ", ".join(repr(g) for g in sorted(gold)[:6])
    return [
        f"--cutoff made the predictions {relabel.above!r} and {relabel.below!r}, but the gold labels are "
        f"{shown}: name them with --above and --below"
    ]


def _counted(
    found: FileCounts,
    inputs: dict[str, Any],
    reading: Reading,
    gold_col: Column | None,
    relabel: Relabel | None,
) -> Counted:
    if found.blocks is not None:
        inputs["n_blocks"] = found.blocks.n_blocks
    if reading.weight_col is not None:
        from clfeval.count.weighted import weight_summary

        inputs["sample_weight"] = weight_summary(str(reading.weight_col), found.counts)
    warnings = [*found.warnings, *_cutoff_warnings(relabel, _gold_labels(found.counts))]
    return Counted(
        found.counts,
        blocks=found.blocks,
        inputs=inputs,
        options=reading.to_dict(),
        reading=reading,
        gold_col=gold_col,
        read_warnings=tuple(warnings),
        relabel=relabel,
    )


def system_names_of(pred_paths: Sequence[str], pred_cols: Sequence[Column]) -> list[str]:
    """The systems' default names, known before reading: their files' names, or their columns'."""
    if pred_paths:
        return system_names([one_file(p) for p in pred_paths])
    if len(set(map(str, pred_cols))) != len(pred_cols):
        raise OptionError("a predicted column is given twice")
    return [c if isinstance(c, str) else f"column {c}" for c in pred_cols]


def read(
    path: str | Sequence[str],
    *pred_paths: str,
    gold_col: Column | None = None,
    pred_col: Column | Sequence[Column] | None = None,
    names: Sequence[str] | None = None,
    reading: Reading | None = None,
    spans: Spans | str | bool | None = None,
) -> Counted:
    """Read and count a table of gold and predicted labels, or a gold file and prediction files.

    Four layouts:

    * one table (``path``; a list of files or globs such as ``"data/part-*.parquet"`` is one table): by
      default its last two columns are gold then predicted (TiMBL output);
    * a gold file and a predictions file (``read(gold, pred)``): by default each file's last column, line i
      against line i;
    * a gold file and a predictions file per system (``read(gold, a, b, …)``): joint counts, for
      :func:`clfeval.compare`; systems named after their files;
    * one table with a predicted column per system (``pred_col=["A", "B"]``, with ``gold_col``): joint
      counts; systems named after their columns.

    Parameters
    ----------
    path, pred_paths
        The table (its files or globs), or the gold file followed by prediction files.
    gold_col, pred_col
        Columns by name, or by 1-based or negative position (``-1`` is the last).
    names
        The systems' names, overriding those of the files or columns.
    reading
        How to read (:class:`~clfeval.Reading`): format, separators, multi-label options, input rules,
        blocks, engine.
    spans
        Score spans, not tags (a scheme's name, ``True`` for ``conlleval``, or a :class:`~clfeval.Spans`): the
        files are CoNLL files of tags (:mod:`clfeval.inputs.conll`); sentences (or documents) are the units.

    Returns
    -------
    Counted
        The counts, their blocks and provenance, ready for a task.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp()); _ = (d / "out.txt").write_text("x A A\\ny A B\\nz B B\\n")
    >>> counted = read(str(d / "out.txt"))
    >>> counted.counts.n_instances, counted.inputs["file"].endswith("out.txt")
    (3, True)
    """
    reading = reading or Reading()
    columns: list[Column | None] = (
        [pred_col] if pred_col is None or isinstance(pred_col, (str, int)) else list(pred_col)
    )
    chosen = Spans.of(spans)
    if chosen is not None:
        return _read_spans(path, pred_paths, gold_col, columns, names, reading, chosen)
    relabel = reading.relabel()
    kwargs = reading.counter_options(relabel)
    spec = reading.block_spec()
    weight_col = reading.weight_col
    if weight_col is not None and (pred_paths or (len(columns) == 1 and columns[0] == weight_col)):
        raise OptionError(
            "--weight-col names a column of one table beside its gold and predicted columns: not with a gold file "
            "and prediction files, nor as a predicted column"
        )
    if names is not None and len(pred_paths) < 2 and len(columns) < 2:
        raise OptionError("names are the names of several systems: give prediction files or columns for each")
    if len(columns) > 1:
        if pred_paths:
            raise OptionError("give prediction files or predicted columns of one table, not both")
        if gold_col is None:
            raise OptionError("with predicted columns of one table, say which column is gold (--gold-col)")
        if len(set(map(str, columns))) != len(columns):
            raise OptionError("a predicted column is given twice")
        found = count_system_columns(
            path, gold_col=gold_col, pred_cols=[c for c in columns if c is not None], names=names, blocks=spec,
            weight_col=weight_col, **kwargs,
        )  # fmt: skip
        inputs = {**_file_inputs(path), "pred_columns": dict(zip(found.counts.systems, map(str, columns)))}
        return _counted(found, inputs, reading, gold_col, relabel)
    column = columns[0]
    if pred_paths and not isinstance(path, str):
        raise OptionError("with prediction files, give one gold file")
    if len(pred_paths) > 1:
        found = count_system_files(
            path,  # type: ignore[arg-type]  # one gold file: checked above
            list(pred_paths),
            names=names,
            gold_col=-1 if gold_col is None else gold_col,
            pred_col=-1 if column is None else column,
            blocks=spec,
            **kwargs,
        )
        inputs = {"gold_file": path, "pred_files": dict(zip(found.counts.systems, pred_paths))}
        return _counted(found, inputs, reading, gold_col, relabel)
    if pred_paths:
        found = count_files(
            path,  # type: ignore[arg-type]  # one gold file: checked above
            pred_paths[0],
            gold_col=-1 if gold_col is None else gold_col,
            pred_col=-1 if column is None else column,
            blocks=spec,
            **kwargs,
        )
        return _counted(found, {"gold_file": path, "pred_file": pred_paths[0]}, reading, gold_col, relabel)
    if reading.group_columns:
        return _read_groups(path, gold_col, column, reading, relabel)
    found = count_file(
        path,
        gold_col=(-2 if weight_col is None else -3) if gold_col is None else gold_col,
        pred_col=(-1 if weight_col is None else -2) if column is None else column,
        blocks=spec,
        weight_col=weight_col,
        **kwargs,
    )
    return _counted(found, _file_inputs(path), reading, gold_col, relabel)


def _read_groups(
    path: str | Sequence[str], gold_col: Column | None, pred_col: Column | None, reading: Reading,
    relabel: Relabel | None,
) -> Counted:  # fmt: skip
    """A table counted by group (:func:`clfeval.inputs.layouts.count_parts`): each group's counts, their merge, and
    the groups named and ordered by the one rule of :mod:`clfeval.inputs.groups`."""
    columns = reading.group_columns
    if gold_col is None or pred_col is None:
        raise OptionError(
            "with group columns (--group-col), say which columns hold gold and predicted labels (--gold-col, "
            "--pred-col)"
        )
    found = count_parts(
        path, gold_col=gold_col, pred_col=pred_col, part_cols=columns, weight_col=reading.weight_col,
        **reading.counter_options(relabel),
    )  # fmt: skip
    return _named_groups(path, found, gold_col, reading, relabel)


def _named_groups(
    path: str | Sequence[str], found: PartCounts, gold_col: Column | None, reading: Reading, relabel: Relabel | None
) -> Counted:
    """The counts of each group key (:class:`~clfeval.inputs.layouts.PartCounts`), named and ordered by the one
    rule of :mod:`clfeval.inputs.groups`, and their merge, as :func:`read` returns them."""
    from clfeval.inputs.groups import named_keys

    columns = reading.group_columns
    order, names = named_keys(found.keys, _shown(path))
    groups = {name: found.counts[i] for name, i in zip(names, order)}
    values = {name: found.keys[i] for name, i in zip(names, order)}
    kind = kind_of(found.counts[0])
    assert kind is not None
    total = found.counts[order[0]]
    for i in order[1:]:
        total = kind.merge(total, found.counts[i])
    header = [str(c) for c in columns]
    counted = _counted(FileCounts(total, found.warnings), _file_inputs(path), reading, gold_col, relabel)
    return replace(counted, groups=groups, group_columns=tuple(header), group_values=values)


def read_fold_groups(
    path: str | Sequence[str], *, fold_col: Column, gold_col: Column, pred_col: Column, reading: Reading
) -> tuple[Counted, dict[str, int]]:
    """A cross-validation table counted by group, each group's counts pooled over the folds (Σ_folds counts of the
    group's instances): the distinct (gold, predicted[, weight], group…, fold) rows counted once by the one counter
    of group and fold columns (:func:`~clfeval.inputs.layouts.count_parts`), each group's counts then merged over
    its folds by their kind's ``merge``.

    Returns
    -------
    counted, folds
        What :func:`read` returns of the table with ``reading.group_col`` (the fold column changes no count), and
        each fold's name and number of instances, folds in the order of :func:`clfeval.inputs.groups.members_of`.
    """
    from clfeval.inputs.groups import named_keys

    columns = reading.group_columns
    if not columns:
        raise OptionError("cross-validation by group takes group columns (--group-col)")
    if str(fold_col) in {str(c) for c in columns}:
        raise OptionError(f"column {fold_col!s} is given as the fold column and as a group column")
    relabel = reading.relabel()
    found = count_parts(
        path, gold_col=gold_col, pred_col=pred_col, part_cols=[*columns, fold_col],
        role=[*["group"] * len(columns), "fold"], weight_col=reading.weight_col,
        **reading.counter_options(relabel),
    )  # fmt: skip
    kind = kind_of(found.counts[0])
    assert kind is not None
    pooled: dict[tuple[str, ...], Any] = {}
    sizes: dict[str, int] = {}
    for key, counts in zip(found.keys, found.counts):
        group, fold = key[:-1], key[-1]
        pooled[group] = counts if group not in pooled else kind.merge(pooled[group], counts)
        sizes[fold] = sizes.get(fold, 0) + counts.n_instances
    folds = [(f,) for f in sizes]
    order, names = named_keys(folds, _shown(path))
    counted = _named_groups(path, PartCounts(list(pooled), list(pooled.values()), found.warnings), gold_col, reading,
                            relabel)  # fmt: skip
    return replace(counted, inputs={**counted.inputs, "fold_col": str(fold_col)}), {
        name: sizes[folds[i][0]] for name, i in zip(names, order)
    }


@dataclass(frozen=True)
class LabelColumns:
    """A table's gold, predicted and group columns held in memory (:func:`read_label_columns`).

    Attributes
    ----------
    gold
        The gold labels, one stripped string per row.
    preds
        Each predicted column's name → its labels, one stripped string per row, in the order given.
    groups
        Each group column's name → its values (stripped strings), in the order given.
    inputs
        What was read: the file, the gold column, the predicted columns by system and the group columns.
    """

    gold: Any
    preds: dict[str, Any]
    groups: dict[str, Any]
    inputs: dict[str, Any]


def read_label_columns(
    path: str, *, gold_col: Column, pred_cols: Sequence[Column], group_cols: Sequence[Column],
    names: Sequence[str] | None = None,
) -> LabelColumns:  # fmt: skip
    """The gold, predicted and group columns of one table (CSV, TSV, JSON Lines or Parquet, by its name's ending,
    with a header) held in memory, read as the files of scored predictions are (polars, one parse of the whole): a
    missing gold or predicted label, or group, is an error naming its line; a column given for two roles is refused.
    ``names`` name the predicted columns' systems (default: the columns' names)."""
    import numpy as np
    import polars as pl

    from clfeval.inputs.columns import resolve_column
    from clfeval.inputs.scoredfile import group_values, table_frame

    frame, first_line, _ = table_frame(path)
    line = np.arange(len(frame)) + first_line
    if not len(frame):
        raise InputError("holds no instances (only blank lines or a header)", path)
    gold_name = frame.columns[resolve_column(gold_col, frame.columns, path, "gold")]
    pred_names = [frame.columns[resolve_column(c, frame.columns, path, "predicted")] for c in pred_cols]
    group_names = [frame.columns[resolve_column(c, frame.columns, path, "group")] for c in group_cols]
    used = [gold_name, *pred_names]
    if len(set(used)) != len(used):
        raise OptionError("the gold column and each predicted column must be distinct columns")
    if len(set(group_names)) != len(group_names):
        raise OptionError("--group-col names each group column once")
    systems = list(names) if names is not None else pred_names
    if len(systems) != len(pred_names):
        raise OptionError(f"{len(systems)} names for {len(pred_names)} predicted columns: give one --name per column")

    def labels(name: str, role: str) -> Any:
        given = frame.get_column(name).cast(pl.String)
        missing = given.is_null() | (given.str.strip_chars() == "")
        if missing.any():
            i = int(missing.arg_max() or 0)
            raise InputError(f"the {role} label in column {name!r} is missing", path, int(line[i]))
        return given.str.strip_chars().to_numpy()

    gold = labels(gold_name, "gold")
    preds = {s: labels(c, "predicted") for s, c in zip(systems, pred_names)}
    groups = group_values(frame, line, path, group_names, used)
    inputs = {"file": path, "gold_column": gold_name, "pred_columns": dict(zip(systems, pred_names)),
              "group_col": group_names}  # fmt: skip
    return LabelColumns(gold, preds, groups, inputs)


def _shown(path: str | Sequence[str]) -> str:
    """A table's files, for a message."""
    return path if isinstance(path, str) else ", ".join(path)


def _read_spans(
    path: str | Sequence[str],
    pred_paths: Sequence[str],
    gold_col: Column | None,
    columns: Sequence[Column | None],
    names: Sequence[str] | None,
    reading: Reading,
    spans: Spans,
) -> Counted:
    """CoNLL files of tags → span counts (one system) or joint rows (several), with their sentences as blocks."""
    from clfeval.inputs.conll import TagFile, count_tag_files

    unsupported = [
        option
        for option, value in (
            ("--multilabel", reading.label_sets),
            ("--skip", reading.skip),
            ("--translate", reading.translate),
            ("--cutoff", reading.cutoff),
            ("--block-col", reading.block_col),
        )
        if value is not None
    ]
    from clfeval.inputs.formats import format_of

    parts = expand_paths(path)  # a corpus in files (parts, globs): read one by one, in order
    formats = {format_of(p, reading.table_options()) for p in parts}
    fmt = formats.pop() if len(formats) == 1 else "of several kinds"
    if unsupported or fmt not in ("text", "jsonl"):
        what = ", ".join(unsupported) or f"input format {fmt}"
        raise OptionError(
            f"spans are read from CoNLL text files of tags or JSON Lines of sentences: {what} does not apply"
        )
    if len(columns) > 1 and pred_paths:
        raise OptionError("give prediction files or predicted columns of one file, not both")
    if fmt == "jsonl" and reading.block_end is not None:
        raise OptionError("--block-end marks sentence ends in text: a JSON Lines object is a sentence")
    dask = reading.engine == "dask"
    if pred_paths and (dask or len(parts) > 1):
        raise OptionError(
            "a gold file and prediction files are paired sentence by sentence on this machine: with "
            f"{'--engine dask' if dask else 'several parts'}, give files that each hold the gold and the predicted "
            "tags (a column per system)"
        )
    if reading.group_columns and (dask or len(parts) > 1):
        raise OptionError(
            f"spans by group (--group-col) are read from one CoNLL file on this machine, not "
            f"{'with --engine dask' if dask else 'from several parts'}"
        )
    if dask or len(parts) > 1:
        return _span_parts(parts, fmt, gold_col, columns, names, reading, spans)
    path = parts[0]
    if pred_paths:
        files = [TagFile(path, [-1 if gold_col is None else gold_col], ["gold"])]
        files += [TagFile(p, [-1 if columns[0] is None else columns[0]], ["predicted"]) for p in pred_paths]
        systems = list(names) if names is not None else system_names([one_file(p) for p in pred_paths])
        inputs: dict[str, Any] = {"gold_file": path}
        inputs.update(
            {"pred_file": pred_paths[0]} if len(pred_paths) == 1 else {"pred_files": dict(zip(systems, pred_paths))}
        )
    else:
        cols = [-1 if c is None else c for c in columns]
        files = [TagFile(path, [-2 if gold_col is None else gold_col, *cols], ["gold", *(["predicted"] * len(cols))])]
        systems = list(names) if names is not None else [c if isinstance(c, str) else f"column {c}" for c in cols]
        inputs = {"file": path}
    several = len(files[0].columns) + len(files) - 2 > 1
    meter = Meter(size_of([f.path for f in files]), reading.progress)
    if reading.group_columns:
        if several or fmt != "text":
            what = "several systems" if several else "JSON Lines"
            raise OptionError(f"spans by group (--group-col) are read from CoNLL text files of one system, not {what}")
        return _span_groups(files, inputs, reading, spans, meter)
    if fmt == "jsonl":
        from clfeval.inputs.sentences import SentenceField, count_sentence_files

        fields = [SentenceField(f.path, c, role) for f in files for c, role in zip(f.columns, f.roles)]
        counts, blocks, read_info, checks = count_sentence_files(
            fields,
            spans.scheme,
            unit=spans.unit,
            systems=systems if several else None,
            meter=meter,
            details=spans.details,
        )
    else:
        counts, blocks, read_info, checks = count_tag_files(
            files,
            spans.scheme,
            unit=spans.unit,
            block_end=reading.block_end,
            systems=systems if several else None,
            meter=meter,
            details=spans.details,
        )
    return _spans_counted((counts, blocks, read_info, checks), inputs, reading, spans, systems if several else None)


def _spans_counted(
    found: tuple[Any, Any, dict[str, Any], Any],
    inputs: dict[str, Any],
    reading: Reading,
    spans: Spans,
    systems: Sequence[str] | None,
) -> Counted:
    """What a span reader found (:func:`~clfeval.inputs.conll.count_tag_files`' tuple) as a :class:`Counted`: one
    system's counts, or several systems' joint rows; the reading recorded in its inputs and options (the engine,
    when not this machine's)."""
    counts, blocks, read_info, checks = found
    inputs.update(read_info)
    options: dict[str, Any] = {"block_end": reading.block_end} if reading.block_end else {}
    if reading.engine != "polars":
        options["engine"] = reading.engine
    if systems is not None:
        from clfeval.count.joint import JointCounts
        from clfeval.kinds.spans import check_warnings

        joint = JointCounts(
            tuple(systems), counts, None, "spans", blocks, {"scheme": spans.scheme, "unit": read_info["unit"]}
        )
        warned = tuple(check_warnings(checks, spans.scheme))
        return Counted(joint, blocks=blocks, inputs=inputs, options=options, read_warnings=warned)
    return Counted(counts, blocks=blocks, inputs=inputs, options=options)


def _span_parts(
    parts: Sequence[str],
    fmt: str,
    gold_col: Column | None,
    columns: Sequence[Column | None],
    names: Sequence[str] | None,
    reading: Reading,
    spans: Spans,
) -> Counted:
    """The files of a corpus, each holding gold and predicted tags, read one by one (:mod:`clfeval.inputs.spancluster`:
    here, or on a Dask cluster with ``reading.engine`` ``dask``) and joined in order."""
    from clfeval.inputs.spancluster import count_span_parts

    cols = [-1 if c is None else c for c in columns]
    systems = list(names) if names is not None else [c if isinstance(c, str) else f"column {c}" for c in cols]
    several = len(cols) > 1
    counts, blocks, read_info, checks = count_span_parts(
        parts, [-2 if gold_col is None else gold_col, *cols], ["gold", *(["predicted"] * len(cols))], spans.scheme,
        fmt=fmt, unit=spans.unit, block_end=reading.block_end, systems=systems if several else None,
        engine=reading.engine, scheduler=reading.scheduler,
        meter=None if reading.engine == "dask" else Meter(size_of(list(parts)), reading.progress),
        details=spans.details,
    )  # fmt: skip
    inputs: dict[str, Any] = {"file": parts[0]} if len(parts) == 1 else {"files": list(parts)}
    return _spans_counted((counts, blocks, read_info, checks), inputs, reading, spans, systems if several else None)


def _span_groups(files: Sequence[Any], inputs: dict[str, Any], reading: Reading, spans: Spans, meter: Meter) -> Counted:
    """CoNLL files counted by group of sentences (:func:`clfeval.inputs.conll.count_tag_groups`: a token column of
    the gold file, or the sentence's document), the groups named and ordered by the one rule of
    :mod:`clfeval.inputs.groups`; the whole's counts are counted as without groups."""
    from clfeval.inputs.conll import count_tag_groups
    from clfeval.inputs.groups import named_keys

    columns = reading.group_columns
    counts, blocks, read_info, by_key = count_tag_groups(
        files,
        spans.scheme,
        columns,
        unit=spans.unit,
        block_end=reading.block_end,
        meter=meter,
        details=spans.details,
    )
    keys = list(by_key)
    order, names = named_keys(keys, files[0].path)
    groups = {name: by_key[keys[i]] for name, i in zip(names, order)}
    values = {name: keys[i] for name, i in zip(names, order)}
    inputs.update(read_info)
    return Counted(
        counts, blocks=blocks, inputs=inputs, options={"group_col": [str(c) for c in columns]}, groups=groups,
        group_columns=tuple(str(c) for c in columns), group_values=values,
    )  # fmt: skip


def fold_names(shown: Sequence[str]) -> list[str]:
    """Folds named after their files, or ``fold 1``, ``fold 2`` … when a name repeats."""
    return list(shown) if len(set(shown)) == len(shown) else [f"fold {i + 1}" for i in range(len(shown))]


def read_folds(
    paths: Sequence[str | Sequence[str]],
    *,
    fold_col: Column | None = None,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    reading: Reading | None = None,
    spans: Spans | None = None,
) -> Counted:
    """Read the folds of a cross-validation: one file per fold (each with gold and predicted columns, by
    default the last two; a fold may be a glob or a list of parts), or a table with a fold column
    (``fold_col``; every path is a part of that table; when it is the last column, gold and predicted
    default to the two before it, else they must be given). With ``spans``, one CoNLL file per fold. Other
    parameters as in :func:`read`."""
    reading = reading or Reading()
    if spans is not None:
        return _span_folds(paths, fold_col, gold_col, pred_col, reading, spans)
    if reading.block_spec() is not None:
        raise OptionError(
            "cross-validation scores folds, not blocks: --blocks, --block-col and --block-end do not apply"
        )
    relabel = reading.relabel()
    kwargs = reading.counter_options(relabel)
    weight_col = reading.weight_col
    if fold_col is not None:
        if not paths:
            raise OptionError("with a fold column, give the file (or its parts)")
        if (fold_col != -1 or weight_col is not None) and (gold_col is None or pred_col is None):
            raise OptionError(
                "with a fold column other than the last (-1), say which columns hold gold and predicted "
                "labels (--gold-col, --pred-col)"
            )
        table = [p for spec in paths for p in ([spec] if isinstance(spec, str) else spec)]
        names, folds, warnings = count_fold_column(
            table,
            gold_col=-3 if gold_col is None else gold_col,
            pred_col=-2 if pred_col is None else pred_col,
            fold_col=fold_col,
            weight_col=weight_col,
            **kwargs,
        )
        inputs: dict[str, Any] = {**_file_inputs(table[0] if len(table) == 1 else table), "fold_col": str(fold_col)}
        if weight_col is not None:
            inputs["sample_weight"] = _weights_summary(str(weight_col), folds)
    else:
        if not paths:
            raise OptionError("give one file per fold, or one file and its fold column")
        folds, warnings = [], []
        for path in paths:
            found = count_file(
                path,
                gold_col=(-2 if weight_col is None else -3) if gold_col is None else gold_col,
                pred_col=(-1 if weight_col is None else -2) if pred_col is None else pred_col,
                weight_col=weight_col,
                **kwargs,
            )
            folds.append(found.counts)
            warnings += found.warnings
        shown = [p if isinstance(p, str) else " + ".join(p) for p in paths]
        names = fold_names(shown)
        inputs = {"fold_files": shown}
        if weight_col is not None:
            inputs["sample_weight"] = _weights_summary(str(weight_col), folds)
    return Counted(
        None,
        folds=dict(zip(names, folds)),
        inputs=inputs,
        options=reading.to_dict(),
        reading=reading,
        gold_col=gold_col,
        read_warnings=tuple(warnings),
        relabel=relabel,
    )


def _weights_summary(source: str, folds: Sequence[Counts]) -> dict[str, Any]:
    """What a result records of the weights of every fold together: their column, sum and number of instances."""
    from clfeval.count.weighted import weight_summary

    summaries = [weight_summary(source, f) for f in folds]
    return {
        "source": source,
        "sum": sum(s["sum"] for s in summaries),
        "n_instances": sum(s["n_instances"] for s in summaries),
    }


def _span_folds(
    paths: Sequence[str | Sequence[str]],
    fold_col: Column | None,
    gold_col: Column | None,
    pred_col: Column | None,
    reading: Reading,
    spans: Spans,
) -> Counted:
    """Each fold's span counts, from one CoNLL file per fold (sentences are the units of every fold)."""
    if fold_col is not None:
        raise OptionError("spans are read from one CoNLL file per fold: a fold column does not apply")
    if reading.group_columns:
        raise OptionError(
            "folds of spans are not read by group: score the pooled sentences with score(..., spans=, groups=)"
        )
    if not paths:
        raise OptionError("give one CoNLL file per fold")
    if any(not isinstance(p, str) for p in paths):
        raise OptionError("spans are read from one CoNLL file per fold, not from parts")
    folds: list[Counts] = []
    warnings: list[str] = []
    for path in paths:
        found = read(cast(str, path), gold_col=gold_col, pred_col=pred_col, reading=reading, spans=spans)
        folds.append(cast(Counts, found.counts))
        warnings += found.warnings
    shown = [cast(str, p) for p in paths]
    return Counted(
        None,
        folds=dict(zip(fold_names(shown), folds)),
        inputs={"fold_files": shown},
        options=reading.to_dict(),
        reading=reading,
        gold_col=gold_col,
        read_warnings=tuple(warnings),
    )


def read_confidences(
    path: str | Sequence[str],
    *,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    conf_col: Column | None = None,
    lower_is_more_confident: bool = False,
    reading: Reading | None = None,
) -> Counted:
    """Read a table of gold, predicted and confidence columns (default: the last three), for
    :func:`clfeval.finagle`. TiMBL output with ``+v di`` ends in the distance to the nearest neighbour: say so
    with ``lower_is_more_confident=True`` (the column holds distances; lower is surer). Files, parts and globs as in
    :func:`read`; of ``reading``, the format, separator, header and engine apply."""
    reading = reading or Reading()
    if reading.label_sets is not None or reading.rules:
        given = ["--multilabel"] * (reading.label_sets is not None) + reading.rules
        raise OptionError(f"{', '.join(given)} do(es) not apply to a table of confidences")
    kwargs = reading.counter_options(None)
    table = replace(kwargs["options"], keep_distance=True)  # TiMBL's distance after a distribution
    counts, warnings = count_confidences(
        path,
        gold_col=-3 if gold_col is None else gold_col,
        pred_col=-2 if pred_col is None else pred_col,
        conf_col=-1 if conf_col is None else conf_col,
        options=table,
        lower_is_more_confident=lower_is_more_confident,
        engine=kwargs["engine"],
    )
    options = {**reading.to_dict(), "confidence_column": str(-1 if conf_col is None else conf_col)}
    return Counted(
        counts, inputs=_file_inputs(path), options=options, reading=reading, gold_col=gold_col,
        read_warnings=tuple(warnings),
    )  # fmt: skip


def read_matrix(path: str, *, rows: str = "gold", reading: Reading | None = None) -> Counted:
    """Read a confusion-matrix file: the first row and column are labels; ``rows`` (``gold`` or ``predicted``,
    see :data:`clfeval.inputs.MATRIX_ORIENTATIONS`) says what the rows hold. A paper's table is often all a
    reader has: intervals work from it as from instances. Of ``reading``, the format and separator apply."""
    reading = reading or Reading()
    extra = [
        name
        for name, given in (
            ("--header", reading.header is not None),
            ("--multilabel", reading.label_sets is not None),
            ("--engine", reading.engine != "polars"),
        )
        if given
    ] + reading.rules
    if extra:
        raise OptionError(f"{', '.join(extra)} do(es) not apply to a matrix file")
    if rows not in MATRIX_ORIENTATIONS:
        raise unknown_name("matrix orientation", rows, MATRIX_ORIENTATIONS)
    counts = matrix_counts(path, rows, reading.table_options())
    return Counted(counts, inputs={"matrix_file": path, "matrix_rows": rows})


def load_counts(paths: str | Sequence[str]) -> Counted:
    """Add up count files (``clfeval.counts/1``, written by ``clfeval count`` or :func:`save_counts`; paths or
    globs, labels aligned by name). A label set the files declare (:meth:`clfeval.Accumulator.save`) is kept: the
    tasks score over it unless told another label set or policy.

    Raises
    ------
    InputError
        Naming the file: missing, not JSON, not a count file, or counted differently from the first.
    """
    files = expand_paths(paths)
    from clfeval.kinds.countfile import is_grouped

    if files and is_grouped(count_document(files[0])):
        return _load_grouped(files)
    counts, declared = sum_count_files_declared(files)
    kind = kind_of(counts)
    units = kind.units(counts) if kind is not None else None  # counts that carry their own units (spans' sentences)
    return Counted(counts, blocks=units, inputs={"count_files": files}, declared_labels=declared)


def _load_grouped(files: Sequence[str]) -> Counted:
    """Count files of counts by group, added up group by group, the groups ordered by the one rule of
    :mod:`clfeval.inputs.groups`."""
    from clfeval.inputs.groups import named_keys
    from clfeval.inputs.layouts import sum_grouped_count_files

    columns, groups, values = sum_grouped_count_files(files)
    keys = [values[name] for name in groups]
    order, names = named_keys(keys, files[0])
    held = list(groups.values())
    by_name = {name: held[i] for name, i in zip(names, order)}
    kind = kind_of(held[0])
    assert kind is not None
    total = add_counts([(f"group {n!r}", c) for n, c in by_name.items()])
    if kind.units(total) is not None:
        raise InputError("holds counts with their units (sentences) by group: not taken yet", files[0])
    inputs: dict[str, Any] = {"count_files": list(files)}
    source = held[0].__dict__.get("weight_source")
    if isinstance(source, str):  # weights read from a column: named when scored, as a count file's
        inputs["sample_weight"] = {"source": source}
    return Counted(
        total,
        inputs=inputs,
        groups=by_name,
        group_columns=columns,
        group_values={name: values[name] for name in by_name},
    )


def save_counts(counts: Counted | Counts, path: str) -> None:
    """Write counts as a ``clfeval.counts/1`` count file (see :mod:`clfeval.kinds.countfile`), with the provenance
    of a :class:`Counted`; whole or not at all (:func:`clfeval.output.write_text`)."""
    document = counts.to_dict() if isinstance(counts, Counted) else counts_to_dict(counts)
    write_text(path, json.dumps(document, ensure_ascii=False) + "\n")


def counts_of_frame(
    frame: Any,
    *,
    gold_col: Column,
    pred_col: Column | Sequence[Column] | None = None,
    names: Sequence[str] | None = None,
    multilabel: bool | MultiLabel = False,
    scheduler: Any = None,
    scores: str | Sequence[str] | Mapping[str, str] | None = None,
    weight_col: Column | None = None,
    labels: Sequence[Any] | None = None,
    positive: Any = None,
    probabilities: bool | None = None,
    score_bins: int | None = None,
) -> Counted:
    """Count a ``dask.dataframe.DataFrame`` on a Dask cluster, ready for :func:`clfeval.score` (or
    :func:`clfeval.compare`, with a list of predicted columns, one per system).

    Each partition is reduced to its unique label rows where it lives, and only those travel.
    Columns by name or 1-based/negative position; label sets as lists or as strings split on the
    :class:`~clfeval.MultiLabel` separator after the reduction. ``scheduler``: an address, a
    ``distributed.Client``, or ``None`` for a local cluster for the call.

    Scored predictions: ``scores`` (instead of ``pred_col``) names the score columns as ``--scores`` does (a glob
    ``'p_*'``, names separated by commas, a list column), or is a list of column names, or maps each system's name
    to its columns (several systems: their :class:`~clfeval.count.jointscored.JointScoreCounts`, for
    :func:`clfeval.compare`); each partition is reduced to its distinct (gold, scores[, weight]) rows
    (:mod:`clfeval.inputs.scoredcluster`), the classes resolved on the whole. ``weight_col``: each row's sample
    weight; ``labels``: the classes in order; ``positive``: the class of binary scores; ``probabilities``: ``False``
    for scores of any scale (else every score is checked as a probability); ``score_bins``: probabilities binned
    into that many equal-width bins as they are read.

    Examples
    --------
    A sketch (needs ``clfeval[dask]`` and a cluster)::

        import dask.dataframe as dd
        frame = dd.read_parquet("s3://bucket/predictions/")
        counted = clfeval.counts_of_frame(frame, gold_col="gold", pred_col="pred", scheduler="tcp://head:8786")
        clfeval.score(counted, ci="bootstrap")
    """
    if scores is not None:
        return _scored_frame(frame, gold_col, pred_col, multilabel, scheduler, scores, weight_col, labels, positive,
                             probabilities, score_bins)  # fmt: skip
    if weight_col is not None or labels is not None or positive is not None or score_bins is not None:
        raise OptionError("weight_col, labels, positive and score_bins of counts_of_frame are for scores=")
    from clfeval.inputs.cluster import frame_cells

    ml = MultiLabel.of(multilabel)
    columns = (
        [-1 if pred_col is None else pred_col]
        if pred_col is None or isinstance(pred_col, (str, int))
        else list(pred_col)
    )
    cells = frame_cells(
        frame,
        [gold_col, *columns],
        ["gold", *[f"predicted ({c})" for c in columns]],
        scheduler=scheduler,
        empty_ok=ml is not None,
    )
    counts: Counts
    if len(columns) > 1:
        systems = list(names) if names is not None else [str(c) for c in columns]
        counts = _to_joint(cells.rows, cells.counts, cells.source, systems, ml)
    else:
        counts = _to_counts(cells.rows, cells.counts, cells.source, ml)
    reading = Reading(multilabel=ml, engine="dask", scheduler=scheduler)
    return Counted(counts, inputs={"source": "dask frame"}, reading=reading, gold_col=gold_col)


def _scored_frame(
    frame: Any,
    gold_col: Column,
    pred_col: Any,
    multilabel: Any,
    scheduler: Any,
    scores: str | Sequence[str] | Mapping[str, str],
    weight_col: Column | None,
    labels: Sequence[Any] | None,
    positive: Any,
    probabilities: bool | None,
    score_bins: int | None,
) -> Counted:
    """:func:`counts_of_frame` of scored predictions: the frame's distinct (gold, scores) rows counted on the cluster
    by the part counter of files of scores."""
    from clfeval.inputs.scoredcluster import Counting, count_frame
    from clfeval.inputs.scoredparts import ScoredReading

    if pred_col is not None or multilabel not in (False, None):
        raise OptionError("scores= takes the place of pred_col (and multilabel= is for label columns)")

    def spec_of(given: str | Sequence[str]) -> str:
        return given if isinstance(given, str) else ",".join(str(c) for c in given)

    named = dict(scores) if isinstance(scores, Mapping) else None
    reading = ScoredReading(
        specs=(spec_of(scores),) if named is None else tuple(spec_of(v) for v in named.values()),  # type: ignore[arg-type]
        systems=None if named is None else tuple(str(k) for k in named),
        gold_col=gold_col,
        labels=None if labels is None else tuple(str(x) for x in labels),
        probabilities=probabilities,
        positive=None if positive is None else str(positive),
        bins=score_bins,
        weight_col=weight_col,
    )
    counts, inputs = count_frame(frame, Counting(reading), scheduler)
    return Counted(counts, inputs=inputs, reading=Reading(engine="dask", scheduler=scheduler), gold_col=gold_col)


def check_count_kind(counted: Counted, task: str) -> None:
    """Refuse counts the task does not take (:attr:`clfeval.kinds.Kind.tasks`): joint counts where one system's are
    expected and the other way round, naming the count file; other counts (confidences to score) by their type."""
    kind = kind_of(counted.counts)
    where = counted.inputs.get("count_files", ["counts"])[0]
    if counted.groups is not None and task != "score":
        raise InputError(
            f"holds counts by group (by {', '.join(counted.group_columns or ())}): {task} does not take them; score "
            "them by group (clfeval score --counts, clfeval.score)",
            where,
        )
    if kind is not None and task in kind.tasks:
        return
    if task == "compare":
        raise InputError(
            "holds the counts of one system; to compare systems, count a table with a predicted column "
            "per system (clfeval count --gold-col G --pred-col A --pred-col B)",
            where,
        )
    if kind is not None and "compare" in kind.tasks:
        raise InputError(
            "holds joint counts of several systems: compare them (clfeval compare --counts), or count "
            "one system's column",
            where,
        )
    raise OptionError(f"{task} takes labels or ConfusionCounts / LabelSetCounts, not {type(counted.counts).__name__}")
