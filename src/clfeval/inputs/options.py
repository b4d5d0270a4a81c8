"""How files are read, in one group (:class:`Reading`), and a training file with its own format (:class:`Training`).

Both are validated when built: a bad format, separator, pattern or engine stops a run before a byte of a
large file is read. :meth:`Reading.to_dict` is what a result records of them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from clfeval.count.labelsets import MultiLabel
from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.inputs.chunks import STDIN, ReadProgress, expand_paths
from clfeval.inputs.columns import Column
from clfeval.inputs.engine import Engine
from clfeval.inputs.formats import TableOptions
from clfeval.inputs.layouts import BlockSpec, train_frequencies
from clfeval.inputs.relabel import Relabel, read_translation

if TYPE_CHECKING:
    from clfeval.count.frequencies import LabelFrequencies

__all__ = ["BLOCKINGS", "Reading", "Training", "check_files"]

#: Ways to delimit blocks of dependent instances (sentences), by name (a column: ``block_col``).
BLOCKINGS: Mapping[str, str] = {
    "blank-line": "blank lines separate blocks, CoNLL style (delimited text; the embedded engine)",
}


def check_files(paths: str | Sequence[str], option: str) -> None:
    """Input files named by an option exist (globs match something) before anything else is read."""
    for path in expand_paths([paths] if isinstance(paths, str) else list(paths)):
        if path != STDIN and not os.path.isfile(path):
            what = "is a directory, not a file" if os.path.isdir(path) else "no such file"
            raise InputError(f"{what} ({option})", path)


@dataclass(frozen=True)
class Reading:
    """How files are read and how their cells become labels: format, separators, the input rules, blocks, engine.

    Attributes
    ----------
    input_format, sep, header
        A name from :data:`clfeval.FORMATS` (``None``: by extension, else ``text``); the field separator
        (one character or ``\\t``; default: runs of whitespace in text, ``,`` in CSV, tab in TSV); whether
        the first line names the columns (``None``: only when a column is chosen by name).
    multilabel
        ``True`` or a :class:`~clfeval.MultiLabel` (label separator, empty sets, duplicates): each
        instance has a set of labels. Never guessed from the data.
    skip
        A regular expression: matching lines are not instances (e.g. ``^<utt>``).
    keep_trailing
        Keep a trailing TiMBL class distribution ``{ A 0.7, B 0.3 }`` (stripped by default).
    translate
        A file of ``old > new`` lines, or a mapping: labels are mapped before counting (training labels too).
    cutoff, above, below
        Real-valued predictions: a value at or above the cut-off becomes ``above``, any other ``below``
        (``value >= cutoff``, as ``confusionmatrix.py -C``).
    blocks, block_col, block_end
        ``"blank-line"`` (blank lines separate sentences), a column naming each instance's block, or a
        regular expression for lines that end a block as blank lines do (MBT's ``^<utt>``; implies
        blank-line blocks; such lines are not instances). The instances of a block are not independent:
        intervals and tests then resample, swap and count whole blocks.
    group_col
        A column (or several: their intersections) naming each instance's group, for a table of gold and predicted
        columns: the counts are kept per group (:attr:`Counted.groups`), for scores by group
        (:func:`clfeval.score` of what :func:`clfeval.read` returns). Not with blocks, spans or several systems.
    weight_col
        A column holding each instance's sample weight (a finite number ≥ 0), for a table (one file of gold and
        predicted columns, or a predicted column per system): every count weighs its instances
        (:mod:`clfeval.count.weighted`). Not with blocks.
    engine, scheduler, progress
        Who counts (:data:`clfeval.ENGINES`: ``polars`` here, ``dask`` on a cluster at ``scheduler``), and
        ``progress(bytes_done, bytes_total, rows)``, called while reading.
    empty_predictions
        Read an empty single-label cell as an invalid prediction (the empty label) instead of stopping: what
        ``--invalid wrong|omit`` sets, for the task's ``invalid=`` policy to count (an empty gold cell is then
        refused by the policy, naming the file: :mod:`clfeval.count.invalid`).

    Examples
    --------
    >>> Reading(sep="\\t", multilabel=True).to_dict()
    {'sep': '\\t', 'label_sep': ','}
    """

    input_format: str | None = None
    sep: str | None = None
    header: bool | None = None
    multilabel: MultiLabel | bool | None = None
    skip: str | None = None
    keep_trailing: bool = False
    translate: str | Mapping[str, str] | None = None
    cutoff: float | None = None
    above: str = "+1"
    below: str = "-1"
    blocks: str | None = None
    block_col: Column | None = None
    block_end: str | None = None
    weight_col: Column | None = None
    group_col: Column | Sequence[Column] | None = None
    engine: str = "polars"
    scheduler: Any = None
    progress: ReadProgress | None = None
    empty_predictions: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "multilabel", MultiLabel.of(self.multilabel))
        self.table_options()  # the format, separator and patterns
        Engine(self.engine, self.scheduler)
        if self.cutoff is not None:
            if self.multilabel is not None:
                raise OptionError(
                    "--cutoff turns a real-valued prediction into one label: it does not apply to label sets "
                    "(--multilabel)"
                )
            if isinstance(self.cutoff, bool) or not (
                isinstance(self.cutoff, (int, float)) and math.isfinite(self.cutoff)
            ):
                raise OptionError(f"--cutoff must be a finite number, not {self.cutoff!r}")
            if self.above == self.below:
                raise OptionError(f"--above and --below must differ (both are {self.above!r})")
        if isinstance(self.translate, str):
            check_files(self.translate, "--translate")
            read_translation(self.translate)  # a malformed line stops the run now
        if self.blocks is not None and self.block_col is not None:
            raise OptionError("give blocks by blank lines (--blocks blank-line) or by a column (--block-col), not both")
        if self.blocks is not None and self.blocks not in BLOCKINGS:
            raise unknown_name("way to delimit blocks", self.blocks, BLOCKINGS)
        self.block_spec()
        if self.group_col is not None:
            given = (self.group_col,) if isinstance(self.group_col, (str, int)) else tuple(self.group_col)
            if not given or len(set(map(str, given))) != len(given):
                raise OptionError("--group-col names each group column once")
            object.__setattr__(self, "group_col", given)
            if self.block_spec() is not None:
                raise OptionError("--group-col is not taken with blocks (--blocks, --block-col, --block-end) yet")
        if self.weight_col is not None and (self.blocks is not None or self.block_col is not None or self.block_end):
            raise OptionError(
                "--weight-col is not taken with blocks (--blocks, --block-col, --block-end) yet: give one"
            )

    @property
    def group_columns(self) -> tuple[Column, ...]:
        """The group columns given (none: ``()``)."""
        return cast("tuple[Column, ...]", self.group_col or ())

    @property
    def label_sets(self) -> MultiLabel | None:
        """The multi-label options (``None`` for single-label data)."""
        return self.multilabel if isinstance(self.multilabel, MultiLabel) else None

    @property
    def rules(self) -> list[str]:
        """The input rules given, as options: they apply while instances are read, not to counts."""
        return [
            name
            for name, value in (
                ("--skip", self.skip),
                ("--translate", self.translate),
                ("--cutoff", self.cutoff),
                ("--keep-trailing", self.keep_trailing or None),
                ("--blocks", self.blocks),
                ("--block-end", self.block_end),
                ("--block-col", self.block_col),
            )
            if value is not None
        ]

    def table_options(self) -> TableOptions:
        """The delimited-file options of the evaluated files."""
        ml = self.label_sets
        return TableOptions(
            self.input_format, self.sep, self.header, self.skip, self.keep_trailing,
            label_sep=None if ml is None else ml.file_sep, empty_cells=self.empty_predictions and ml is None,
        )  # fmt: skip

    def block_spec(self) -> BlockSpec | None:
        """Where blocks come from, or ``None`` when instances are independent."""
        if self.blocks is None and self.block_col is None and self.block_end is None:
            return None
        return BlockSpec(self.block_col, self.block_end)

    def relabel(self) -> Relabel | None:
        """A fresh relabelling (it records which mappings were used), or ``None`` without rules."""
        if self.translate is None and self.cutoff is None:
            return None
        return Relabel.of(self.translate, self.cutoff, self.above, self.below)

    def counter_options(self, relabel: Relabel | None) -> dict[str, Any]:
        """The keyword arguments of the file counters of :mod:`clfeval.inputs.layouts`."""
        return dict(
            options=self.table_options(),
            labelsets=self.label_sets,
            engine=Engine(self.engine, self.scheduler, self.progress),
            relabel=relabel,
        )

    def to_dict(self) -> dict[str, Any]:
        """What a result records of how its files were read: the options given (the ``options`` of the JSON)."""
        ml = self.label_sets
        used: dict[str, Any] = {
            "input_format": self.input_format,
            "sep": self.sep,
            "header": self.header,
            "label_sep": None if ml is None else ml.file_sep,
            "engine": self.engine if self.engine != "polars" else None,
            "skip": self.skip,
            "keep_trailing": True if self.keep_trailing else None,
            "empty_predictions": True if self.empty_predictions else None,
        }
        if self.translate is not None:
            used["translate"] = self.translate if isinstance(self.translate, str) else "mapping"
        if self.cutoff is not None:
            used["cutoff"] = {"value": self.cutoff, "above": self.above, "below": self.below, "rule": ">="}
        if self.weight_col is not None:
            used["weight_col"] = str(self.weight_col)
        if self.group_columns:
            used["group_col"] = [str(c) for c in self.group_columns]
        spec = self.block_spec()
        if spec is not None:
            used["blocks"] = "blank-line" if spec.column is None else {"column": str(spec.column)}
            if spec.end is not None:
                used["block_end"] = spec.end
        return {k: v for k, v in used.items() if v is not None}


@dataclass(frozen=True)
class Training:
    """A training file: its label column and how to read it (by its own extension unless told).

    Never read with the evaluated files' format options (a ``--sep ';'`` for a CSV says nothing about a
    whitespace training file); what the evaluated data's rules say of labels applies to it too: lines
    matching the skip pattern are not instances, labels are translated, label sets are split on the
    label separator.

    Attributes
    ----------
    path
        The file (or its parts, or globs).
    column
        Its label column: by default the gold column's name when it has one, else the last.
    input_format, sep, header
        How to read it, as in :class:`Reading` (``--train-format``, ``--train-sep``, ``--train-header``).
    """

    path: str | Sequence[str]
    column: Column | None = None
    input_format: str | None = None
    sep: str | None = None
    header: bool | None = None

    def __post_init__(self) -> None:
        check_files(self.path, "--train")
        TableOptions(self.input_format, self.sep, self.header)

    @property
    def shown(self) -> str | list[str]:
        """The path as a result records it."""
        return self.path if isinstance(self.path, str) else list(self.path)

    def frequencies(
        self, reading: Reading | None, gold_col: Column | None = None, relabel: Relabel | None = None
    ) -> LabelFrequencies:
        """The label frequencies of its label column, read with the label rules of ``reading``."""
        reading = reading or Reading()
        column = self.column if self.column is not None else gold_col if isinstance(gold_col, str) else -1
        evaluated = reading.table_options()
        own = replace(
            TableOptions(self.input_format, self.sep, self.header), skip=evaluated.skip, label_sep=evaluated.label_sep
        )
        kwargs = reading.counter_options(relabel)
        kwargs["options"] = own
        return train_frequencies(self.path, column=column, **kwargs)
