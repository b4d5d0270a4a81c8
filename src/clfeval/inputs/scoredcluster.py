"""Scored predictions counted on a Dask cluster: each part of the data reduced where it lies to its distinct
(gold, scores) rows, the parts' rows merged in a tree, and the classes resolved once, on the whole.

The counting itself is the single-machine one (:mod:`clfeval.inputs.scoredparts`): a part counter turns one table
of cells into a partial count (distinct rows whose gold side is the label's name, not a code local to the part), the
partials merge (in any order) and a finish step resolves the classes and score columns by the one contract
(:func:`~clfeval.count.classes.score_layout`) into :class:`~clfeval.count.scored.ScoreCounts` (or, for several
systems, :class:`~clfeval.count.jointscored.JointScoreCounts`). This module only says where each part is counted:

* files on a file system the workers share: one task per file, the single-machine chunked counter of that file run
  on a worker (its errors name the file and the line, as on one machine);
* remote paths (fsspec URLs) and a ``dask.dataframe``: one task per partition, its cells handed to the part counter
  (errors name the partition: a partition has no line numbers);

then the partials are merged :data:`SPLIT_EVERY` at a time on the workers, so that only distinct rows travel, and
the last one is finished here. With ``bins`` the probabilities are binned where they are read
(:func:`~clfeval.scoring.scored.binned_scores`), so every part's rows stay few.

The scheduler, the one-line errors for a worker lost beyond its retries and for a file that cannot be read are the
label engine's (:mod:`clfeval.inputs.cluster`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import expand_paths
from clfeval.inputs.cluster import (
    dask_client,
    dask_modules,
    first_line,
    is_local,
    lost_worker,
    partition_name,
    silence_interrupted,
    table_paths,
)
from clfeval.inputs.formats import TableOptions
from clfeval.inputs.scoredparts import ScoredPart, ScoredReading, count_part, finish_parts, merge_parts

__all__ = ["SPLIT_EVERY", "Counting", "count_folds", "count_frame", "count_paths", "merged_paths", "scored_format"]

#: Partial counts merged per task of the tree reduction.
SPLIT_EVERY = 8

#: The formats a file of scored predictions is read in, by extension (what :func:`~clfeval.inputs.scoredfile.
#: table_frame` reads: anything else is CSV).
_FORMATS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".tsv": "tsv",
    ".tab": "tsv",
}


def scored_format(path: str) -> str:
    """A file of scored predictions' format by its extension, as the single-machine reader tells it: Parquet, JSON
    Lines, TSV, else CSV."""
    return _FORMATS.get(os.path.splitext(path.lower())[1], "csv")


def _tree(client: Any, futures: list[Any], merge: Callable[[list[Any]], Any]) -> Any:
    """The futures' partials merged :data:`SPLIT_EVERY` at a time on the workers, level by level; the last one's
    future (the only one whose result travels here)."""
    while len(futures) > 1:
        futures = [
            client.submit(merge, futures[i : i + SPLIT_EVERY], pure=False) for i in range(0, len(futures), SPLIT_EVERY)
        ]
    return futures[0]


def _gathered(top: Any, parts: dict[Any, str], source: str, name_of: Any) -> Any:
    """The top of the tree's result, errors mapped: an input error raised on a worker is raised as it was (it names
    the file and line, or the partition); a task given up because its workers died names the part it counted
    (``parts``: the part of each task's key, else ``name_of(key)``). On an error the other tasks are released with
    their futures, not cancelled: cancelling the futures of a tree trips an assertion in distributed's scheduler
    (``stimulus_cancel``: ``assert ts.who_wants``), logged with a traceback."""
    from polars.exceptions import PolarsError

    try:
        return top.result()
    except KeyboardInterrupt:
        silence_interrupted()  # Ctrl-C: the interrupted tasks' debris stays unlogged
        raise
    except (InputError, OptionError):  # a task's own error, as it was raised on the worker
        raise
    except UnicodeDecodeError as exc:
        raise InputError(f"is not valid UTF-8: {first_line(exc)} (convert the files to UTF-8)", source) from None
    except (ValueError, OSError, PolarsError) as exc:  # parse errors of a partition (pandas, pyarrow, polars)
        raise InputError(f"could not be read: {first_line(exc)}", source) from None
    except Exception as exc:
        key = getattr(exc, "task", None)
        lost = lost_worker(exc, parts.get(key) or name_of(key))
        if lost is None:
            raise
        raise lost from None


@dataclass(frozen=True)
class Counting:
    """The single-machine part counter (:mod:`clfeval.inputs.scoredparts`) under one :class:`ScoredReading`, as the
    tasks of a cluster run it (picklable: the reading options alone)."""

    reading: ScoredReading
    #: Binary scores of a ``positive`` class: the classes ordered with it last, as ``cv`` and ``compare`` order them
    #: on one machine (``score`` and ``count`` keep the classes' own order).
    positive_last: bool = False

    def file(self, path: str, shown: str) -> ScoredPart:
        """One local file's partial count (runs on a worker): the single-machine chunked counter of the file at
        ``path`` (absolute: a worker's working directory is its own), its errors naming it as given (``shown``)."""
        from clfeval.inputs.scoredfile import merged_scored

        try:
            return merged_scored(path, self.reading)
        except InputError as exc:
            if exc.source != path:
                raise
            raise InputError(exc.message, shown, exc.line) from None

    def frame(self, frame: Any, index: int, source: str) -> ScoredPart:
        """One partition's partial count (runs on a worker): its cells (pandas) as a polars frame, handed to the part
        counter; an error names the row within the partition (a partition has no line numbers)."""
        import polars as pl

        try:
            table = pl.from_pandas(frame)
        except Exception as exc:  # a column polars cannot type (mixed Python objects)
            raise InputError(f"partition {index} could not be read as a table: {first_line(exc)}", source) from None
        try:
            return count_part(table, 1, source, self.reading)
        except InputError as exc:
            row = "" if exc.line is None else f"row {exc.line} of "
            raise InputError(f"{row}partition {index}: {exc.message}", source) from None

    def merge(self, parts: list[ScoredPart]) -> ScoredPart:
        """Partial counts merged (in any order: the same rows)."""
        return merge_parts(parts)

    def finish(self, part: ScoredPart, source: str) -> tuple[Any, dict[str, Any]]:
        """The merged partial as counts, the classes resolved on the whole, with what was read."""
        counts, inputs = finish_parts(part, self.reading, source)
        positive = self.reading.positive
        if self.positive_last and positive is not None and len(counts.columns) == 1 and counts.labels[-1] != positive:
            labels = (*(c for c in counts.labels if c != positive), positive)
            counts, inputs = finish_parts(part, replace(self.reading, labels=labels), source)
        return counts, inputs

    def of_paths(self, paths: Sequence[str]) -> Counting:
        """The counter of these files: their labels' class order as the single-machine reader of their format
        takes it (:func:`~clfeval.inputs.scoredfile.numbers_of`)."""
        from clfeval.inputs.scoredfile import numbers_of

        first = paths if isinstance(paths, str) else (paths[0] if paths else "")
        return Counting(replace(self.reading, numbers=numbers_of(str(first), self.reading.numbers)), self.positive_last)

    def pinned(self, counts: Any) -> Counting:
        """The counter whose finish gives the classes and columns of ``counts`` whatever gold labels a part holds
        (each fold of a cross-validation resolved as the pooled folds are)."""
        positive = counts.columns[0] if len(counts.columns) == 1 and len(counts.labels) == 2 else None
        return Counting(replace(self.reading, labels=tuple(counts.labels), positive=positive), self.positive_last)


def _partition_task(part: Any, counter: Counting, index: int, source: str) -> ScoredPart:
    """One partition's partial count (runs on a worker)."""
    return counter.frame(part, index, source)


class _Parts:
    """The tasks that count one table's parts on a cluster, and the part each task counts (for a lost worker)."""

    def __init__(self, client: Any, paths: Sequence[str], counter: Counting) -> None:
        paths, fmt = table_paths(paths, scored_format)
        self.source = ", ".join(paths)
        self.frame: Any = None
        if all(is_local(p) for p in paths):  # one task per file: the single-machine counter, file and line in errors
            files = expand_paths(paths)
            self.tasks = client.map(counter.file, [os.path.abspath(f) for f in files], files, pure=False)
            self.parts = {task.key: path for task, path in zip(self.tasks, files)}
        else:
            self.frame = _remote_frame(paths, fmt, self.source)
            self.tasks, self.parts = _partition_tasks(client, self.frame, counter, self.source)

    def part_of(self, key: Any) -> str:
        """The part a task counted, or computed from."""
        if key in self.parts:
            return self.parts[key]
        return self.source if self.frame is None else partition_name(self.frame, key, self.source)


def _partition_tasks(client: Any, frame: Any, counter: Counting, source: str) -> tuple[list[Any], dict[Any, str]]:
    """One task per partition of a Dask DataFrame."""
    import dask

    pieces = frame.to_delayed()
    jobs = [dask.delayed(_partition_task, pure=False)(p, counter, i, source) for i, p in enumerate(pieces)]
    tasks = client.compute(jobs)
    return tasks, {task.key: f"partition {i} of {source}" for i, task in enumerate(tasks)}


def _merged(client: Any, counter: Counting, parts: _Parts) -> ScoredPart:
    """A table's partials merged in the tree on the workers; the last one, here."""
    top = _tree(client, parts.tasks, counter.merge)
    return _gathered(top, parts.parts, parts.source, parts.part_of)


def count_paths(paths: Sequence[str], counter: Counting, scheduler: Any = None) -> tuple[Any, dict[str, Any]]:
    """The counts of files of scored predictions on a Dask cluster (see the module), with what was read.

    Parameters
    ----------
    paths
        Files, glob patterns, or remote paths (fsspec URLs such as ``s3://bucket/scores/*.parquet``, which the
        workers must reach): one table in parts, all in one format (Parquet, JSON Lines, CSV or TSV).
    counter
        The part counter under the reading options.
    scheduler
        ``None`` starts a local cluster for the call; a scheduler address connects to it; a ``distributed.Client``
        is used as it is.

    Returns
    -------
    tuple
        The counts (:class:`~clfeval.count.scored.ScoreCounts`, or
        :class:`~clfeval.count.jointscored.JointScoreCounts` for several systems) and their ``inputs``: the
        single-machine reader's, ``file`` the paths joined with ``", "``, and ``engine``: ``"dask"``.

    Raises
    ------
    InputError
        A part that cannot be read (local files: the file and the line; remote parts: the partition and its row), a
        worker lost beyond the scheduler's retries (the part it counted).
    OptionError
        Dask is not installed, the scheduler cannot be reached, the files mix formats.
    """
    merged, source = merged_paths(paths, counter, scheduler)
    counts, inputs = counter.of_paths(paths).finish(merged, source)
    return counts, {**inputs, "engine": "dask"}


def merged_paths(paths: Sequence[str], counter: Counting, scheduler: Any = None) -> tuple[ScoredPart, str]:
    """The files' distinct rows counted on a Dask cluster and merged, not yet finished into counts (see
    :func:`count_paths`), and the source the errors name (the paths joined with ``", "``): for a caller that
    resolves the classes itself before :func:`~clfeval.inputs.scoredparts.finish_parts`."""
    counter = counter.of_paths(paths)
    with dask_client(scheduler) as client:
        parts = _Parts(client, paths, counter)
        return _merged(client, counter, parts), parts.source


def count_folds(
    folds: Sequence[str | Sequence[str]], counter: Counting, scheduler: Any = None
) -> list[tuple[Any, dict[str, Any]]]:
    """Each fold's counts (a file, a glob or a list of parts per fold) on one Dask cluster: every fold's parts
    counted at once, each fold's merged in its own tree, and every fold finished under the classes and columns of
    the pooled folds (as the single-machine cross-validation resolves them, from every fold's gold labels)."""
    counter = counter.of_paths(folds[0])
    with dask_client(scheduler) as client:
        each = [_Parts(client, fold, counter) for fold in folds]
        merged = [_merged(client, counter, parts) for parts in each]
    pooled, _ = counter.finish(merge_parts(merged), ", ".join(p.source for p in each))
    pinned = counter.pinned(pooled)
    found = [pinned.finish(part, parts.source) for part, parts in zip(merged, each)]
    return [(counts, {**inputs, "engine": "dask"}) for counts, inputs in found]


def _remote_frame(paths: Sequence[str], fmt: str, source: str) -> Any:
    """The Dask DataFrame of remote parts: CSV and TSV as strings (the part counter parses the numbers, as on one
    machine), Parquet and JSON Lines typed."""
    from clfeval.inputs.cluster import read_frame

    frame, _ = read_frame(paths, fmt, TableOptions(input_format=fmt, header=True), [], source)
    return frame


def count_frame(frame: Any, counter: Counting, scheduler: Any = None) -> tuple[Any, dict[str, Any]]:
    """The counts of a ``dask.dataframe.DataFrame`` of scored predictions (a gold column, score columns) on a Dask
    cluster, one task per partition, with what was read (``source`` ``"dask frame"``, ``engine`` ``"dask"``)."""
    dd, _ = dask_modules()
    if not isinstance(frame, dd.DataFrame):
        raise OptionError(f"counts_of_frame needs a dask.dataframe.DataFrame, not {type(frame).__name__}")
    source = "<dask frame>"
    with dask_client(scheduler) as client:
        tasks, parts = _partition_tasks(client, frame, counter, source)
        top = _tree(client, tasks, counter.merge)
        merged = _gathered(top, parts, source, lambda key: partition_name(frame, key, source))
    counts, inputs = counter.finish(merged, source)
    inputs = {k: v for k, v in inputs.items() if k != "file"}
    return counts, {"source": "dask frame", **inputs, "engine": "dask"}
