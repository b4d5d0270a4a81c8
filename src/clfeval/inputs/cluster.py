"""The Dask counting engine: label columns of many files, or of a Dask DataFrame, counted on a cluster.

The embedded engine (:func:`clfeval.inputs.embedded.read_cells`) reads files on this machine.
This module does the same count on a `Dask <https://www.dask.org>`_ cluster, and only the small
table of unique rows of the chosen columns ever travels. Files on a file system the workers
share are counted one task per file, each the embedded streaming reader run on a worker (the
fastest path: no pandas); remote paths (fsspec URLs) and Dask DataFrames are reduced partition
by partition (a polars group-by) and the partial counts summed in a tree reduction. The result
is the same :class:`~clfeval.inputs.embedded.Cells` the embedded engine returns, so everything
downstream (multi-label parsing, confusion counts) is shared.

Dask is an optional dependency: it is imported only when a function here is called, and its
absence is reported as an :class:`~clfeval.errors.OptionError` saying how to install it. The
workers need clfeval and polars installed too (they run this module's partition function).

Every chosen column becomes a string key per row: strings as they are, integers as digits,
integral floats as integers (``1.0`` is the label ``"1"``), other values as polars prints
them, and a list cell (a label set, from Parquet or JSON Lines) as its labels joined with an
internal separator, split again into a tuple of strings after the reduction. Label sets given as
strings with a separator (``"a,b"``) stay strings: the caller parses them after the reduction.
"""

from __future__ import annotations

import contextlib
import csv
import gc
import io
import logging
import math
import os
import re
import signal
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import expand_paths
from clfeval.inputs.columns import Column, cell_of, one_role_each, resolve_column
from clfeval.inputs.embedded import Cells, read_cells
from clfeval.inputs.formats import TableOptions, format_of, separator_of

if TYPE_CHECKING:  # pragma: no cover - typing only
    import dask.dataframe
    import pandas

__all__ = [
    "DASK_HINT",
    "check_paths",
    "cluster_cells",
    "dask_client",
    "dask_modules",
    "first_line",
    "frame_cells",
    "is_local",
    "lost_worker",
    "map_parts",
    "partition_name",
    "read_frame",
    "silence_interrupted",
    "table_paths",
]

#: The message when the optional Dask dependencies are missing.
DASK_HINT = "the dask engine needs the optional dask extra: pip install 'clfeval[dask]'"

_SCALAR, _LIST, _MISSING = 0, 1, 2  # what a key holds: a label, a label list (encoded), or nothing (null/NaN)
#: A label list travels as one string key: each label escaped (``\\`` → ``\\\\``, this character → ``\\1``) and
#: preceded by this character, so no label can collide with the encoding and ``[]`` differs from ``[""]``.
_ITEM = "\x1f"
_ESCAPED = re.compile(r"\\(.)")


def _encode_list(labels: Sequence[str]) -> str:
    """A label list as one string key (see :data:`_ITEM`)."""
    return "".join(_ITEM + label.replace("\\", "\\\\").replace(_ITEM, "\\1") for label in labels)


def _decode_list(key: str) -> tuple[str, ...]:
    """The labels of a key made by :func:`_encode_list`."""
    return tuple(_ESCAPED.sub(lambda m: "\\" if m.group(1) == "\\" else _ITEM, item) for item in key.split(_ITEM)[1:])


_COUNT = "__n"
_SPLIT_EVERY = 8  # partial results combined per step of the tree reduction
_CLOSING = 10.0  # seconds a local cluster interrupted while it starts is given to finish starting, then closed
_JSON_BLOCK = 64 * 2**20  # JSON Lines files are cut into blocks of this many bytes (at line ends)


def dask_modules() -> tuple[Any, Any]:
    """Import ``dask.dataframe`` and ``distributed``.

    Returns
    -------
    tuple
        The ``dask.dataframe`` and ``distributed`` modules.

    Raises
    ------
    OptionError
        With :data:`DASK_HINT` when either is not installed.
    """
    try:
        import dask.dataframe as dd
        import distributed
    except ImportError:
        raise OptionError(DASK_HINT) from None
    return dd, distributed


def first_line(exc: BaseException) -> str:
    """An exception's message on one line: its last non-empty line (Dask prefixes its own)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return lines[-1].removeprefix("Original Message:").strip()


# ---------------------------------------------------------------------------------------------
# The scheduler
# ---------------------------------------------------------------------------------------------


def lost_worker(exc: BaseException, part: str) -> InputError | None:
    """A task given up because its workers died (``distributed``'s ``KilledWorker``: more deaths than the scheduler's
    ``allowed-failures``) as a one-line error naming ``part``, the part of the input the task counted; ``None`` for any
    other exception."""
    try:
        from distributed import KilledWorker
    except ImportError:  # pragma: no cover - the Dask engine runs with distributed installed
        return None
    if not isinstance(exc, KilledWorker):
        return None
    allowed = getattr(exc, "allowed_failures", None)  # the scheduler's setting, carried by the exception
    times = "" if allowed is None else f" {int(allowed) + 1} time(s), more than the scheduler's allowed-failures"
    return InputError(
        f"a Dask worker died while counting it{times} (KilledWorker): a worker usually dies of memory (the nanny's "
        "limit) or of a crash in a library; see the workers' logs, give the workers more memory or the files in "
        "smaller parts",
        part,
    )


def partition_name(frame: Any, key: Any, source: str) -> str:
    """The part of a Dask DataFrame a failed task computed: ``partition i of SOURCE`` when the task is partition i
    or one it is computed from (its read, a delayed function), else the key's own trailing index (a reduction's
    chunk i), else ``SOURCE``."""
    try:
        from dask.core import get_dependencies

        graph = dict(frame.__dask_graph__())
        for index, top in enumerate(frame.__dask_keys__()):
            stack, seen = [top], set()
            while stack:
                current = stack.pop()
                if current == key:
                    return f"partition {index} of {source}"
                if current in seen or current not in graph:
                    continue
                seen.add(current)
                stack.extend(get_dependencies(graph, current))
    except Exception:  # a graph of another shape: name the key's index, if it has one
        pass
    if isinstance(key, tuple) and key and isinstance(key[-1], int):
        return f"partition {key[-1]} of {source}"
    return source


def silence_interrupted() -> None:
    """After Ctrl-C in a Dask call: the ``distributed``, ``asyncio`` and ``tornado`` loggers silent from now on in this
    process. Cancelling an interrupted call's futures makes the client's pending tasks fail, and asyncio logs each
    ("Task exception was never retrieved") when it is collected, on the event loop's thread, at any moment after."""
    for name in ("distributed", "asyncio", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _close_quietly(clusters: Iterable[Any], client: Any = None) -> None:
    """Close ``client`` and ``clusters`` (local clusters a call started) after Ctrl-C, whatever their state, and say
    nothing, then or later.

    Interrupted while it starts, a ``LocalCluster`` is left half made: ``distributed`` closes it when the interpreter
    exits and, finding workers neither running nor closed, prints the traceback of an ``AssertionError``
    (``Status.init``); interrupted while it works, the client's pending tasks are logged by asyncio as they are
    collected, on the cluster's event-loop thread, at any moment after. So the clusters are closed here, their errors
    swallowed, forgotten by ``distributed``, and the ``distributed``, ``asyncio`` and ``tornado`` loggers stay silent
    from then on in this process (Ctrl-C interrupted it: what they would log is the interruption's debris).
    """
    from distributed.deploy.spec import SpecCluster

    silence_interrupted()
    for one in [client, *clusters]:
        if one is None:
            continue
        with contextlib.suppress(BaseException):  # a half-made cluster fails its own checks as it closes
            one.close(timeout=5)
        SpecCluster._instances.discard(one)
    gc.collect()  # the client's interrupted tasks, collected now


def _started_since(before: set[int]) -> list[Any]:
    """The local clusters of this process that are not among ``before`` (their ids): those a call started."""
    from distributed.deploy.spec import SpecCluster

    return [c for c in list(SpecCluster._instances) if id(c) not in before]


def _clusters_now() -> set[int]:
    from distributed.deploy.spec import SpecCluster

    return {id(c) for c in list(SpecCluster._instances)}


def _local_cluster(distributed: Any) -> Any:
    """A ``distributed.LocalCluster`` on this machine, started by a thread that does not take Ctrl-C.

    The threads and worker processes the cluster starts inherit that thread's blocked SIGINT: Ctrl-C at a terminal
    reaches every process of its group, and a worker interrupted while it imports would print a traceback. This
    thread waits for the start and takes Ctrl-C: then the cluster is closed quietly, and ``KeyboardInterrupt``
    raised.

    Raises
    ------
    OptionError
        When the cluster cannot start.
    """
    started: dict[str, Any] = {}
    before = _clusters_now()

    def start() -> None:
        if hasattr(signal, "pthread_sigmask"):
            # started first: multiprocessing's resource tracker unblocks SIGINT in the thread that starts it
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with warnings.catch_warnings():  # the scheduler's HTTP port (unused here) moves when 8787 is taken
                warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
                # its workers' logs (a task's failure, with a traceback) stay quiet: the error reaches the user once,
                # as one line naming the file and line, when the client raises it
                started["cluster"] = distributed.LocalCluster(
                    host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL
                )
        except BaseException as exc:
            started["error"] = exc

    thread = threading.Thread(target=start, name="clfeval: starting a local dask cluster", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except BaseException:  # Ctrl-C while it starts: what was started is closed, quietly
        thread.join(_CLOSING)
        _close_quietly(_started_since(before))
        raise
    if "error" in started:
        raise OptionError(f"could not start a local dask cluster: {first_line(started['error'])}") from None
    return started["cluster"]


@contextmanager
def dask_client(scheduler: str | Any | None) -> Iterator[Any]:
    """A ``distributed.Client`` for the duration of a ``with`` block.

    Parameters
    ----------
    scheduler
        ``None``: a local cluster on this machine, started here and closed at the end;
        a scheduler address (``"tcp://10.0.0.5:8786"``): a client connected to it, closed at the
        end (the cluster keeps running); a ``distributed.Client``: used as it is, left open.

    Raises
    ------
    OptionError
        When the scheduler cannot be reached, or ``scheduler`` is none of the above.
    """
    _, distributed = dask_modules()
    if isinstance(scheduler, distributed.Client):
        yield scheduler
        return
    if scheduler is None:
        cluster = _local_cluster(distributed)
        try:
            client = distributed.Client(cluster, set_as_default=False)
        except KeyboardInterrupt:
            _close_quietly([cluster])
            raise
        except BaseException:
            cluster.close()
            raise
        try:
            yield client
        except KeyboardInterrupt:  # Ctrl-C while it works: closed whatever their state, quietly
            _close_quietly([cluster], client)
            raise
        finally:
            if cluster.status.name != "closed":
                client.close()
                cluster.close()
        return
    if not isinstance(scheduler, str):
        raise OptionError(
            "scheduler must be None (a local cluster), a scheduler address such as "
            f"'tcp://10.0.0.5:8786', or a distributed.Client, not {type(scheduler).__name__}"
        )
    from distributed.comm import resolve_address

    try:  # a malformed address first: a Client built on one hangs 60 s on exit and prints its traceback
        resolve_address(scheduler)
    except Exception as exc:  # ValueError: no port, an unknown protocol …
        raise OptionError(f"could not connect to the dask scheduler at {scheduler}: {first_line(exc)}") from None
    try:
        client = distributed.Client(scheduler, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError (a malformed address)…
        raise OptionError(f"could not connect to the dask scheduler at {scheduler}: {first_line(exc)}") from None
    try:
        yield client
    finally:
        client.close()


# ---------------------------------------------------------------------------------------------
# The partition step (runs on the workers)
# ---------------------------------------------------------------------------------------------


def _label_text(value: Any) -> str:
    """One Python value as a label string: integral floats print as integers."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _python_keys(values: Any) -> tuple[list[str], list[int]]:
    """The slow path, value by value, for an object column polars cannot type (mixed strings and numbers)."""
    import pandas as pd

    def _is_missing(value: Any) -> bool:
        return (
            value is None
            or value is pd.NA
            or value is pd.NaT
            or (isinstance(value, (float, np.floating)) and math.isnan(value))
        )

    keys: list[str] = []
    kinds: list[int] = []
    for value in values:
        if isinstance(value, (list, tuple, np.ndarray)):
            if any(_is_missing(v) for v in value):  # a null inside a label set is a missing label
                keys.append("")
                kinds.append(_MISSING)
                continue
            keys.append(_encode_list([_label_text(v) for v in value]))
            kinds.append(_LIST)
        elif _is_missing(value):
            keys.append("")
            kinds.append(_MISSING)
        else:
            keys.append(_label_text(value))
            kinds.append(_SCALAR)
    return keys, kinds


def _polars_keys(series: Any) -> tuple[Any, Any]:
    """A polars Series as (string key expression, kind expression), evaluated on a frame holding it as ``v``."""
    import polars as pl

    dtype = series.dtype
    v = pl.col("v")
    if isinstance(dtype, pl.Array):
        v = v.arr.to_list()
        dtype = pl.List(dtype.inner)
    is_list = isinstance(dtype, pl.List)
    inner = dtype.inner if is_list else dtype

    def as_text(x: Any, inner: Any) -> Any:
        if inner.is_float():  # 1.0 and 1 are the same label
            whole = (x == x.floor()) & (x.abs() < 2.0**62)
            return pl.when(whole).then(x.cast(pl.Int64, strict=False).cast(pl.String)).otherwise(x.cast(pl.String))
        return x.cast(pl.String)  # strings, integers, booleans, categories, dates…

    missing = v.is_null()
    if is_list:
        item = (
            as_text(pl.element(), inner)
            .str.replace_all("\\", "\\\\", literal=True)
            .str.replace_all(_ITEM, "\\1", literal=True)
        )
        key = v.list.eval(pl.lit(_ITEM) + item).list.join("")
        missing = (
            missing
            | v.list.eval(
                pl.element().is_null() | (pl.element().is_nan() if inner.is_float() else pl.lit(False))
            ).list.any()
        )
    else:
        key = as_text(v, inner)
        if inner.is_float():
            missing = missing | v.is_nan()
    kind = pl.when(missing).then(pl.lit(_MISSING, pl.Int8)).otherwise(pl.lit(_LIST if is_list else _SCALAR, pl.Int8))
    return pl.when(missing).then(pl.lit("")).otherwise(key), kind


def _partition_counts(part: pandas.DataFrame, take: Sequence[int]) -> pandas.DataFrame:
    """One partition's unique rows of the chosen columns with counts (runs on a worker).

    Parameters
    ----------
    part
        A pandas partition of the projected frame.
    take
        For each chosen column, its position in ``part`` (a column may be chosen twice).

    Returns
    -------
    pandas.DataFrame
        Columns ``c0…`` (string keys), ``k0…`` (:data:`_SCALAR`, :data:`_LIST` or
        :data:`_MISSING`, int8) and ``__n`` (int64 counts), Arrow-backed.
    """
    import polars as pl

    columns: dict[str, Any] = {}
    for i, j in enumerate(take):
        values = part.iloc[:, j]
        try:
            series = pl.from_pandas(values)
            if series.dtype == pl.Object or (
                isinstance(series.dtype, (pl.List, pl.Array))
                and isinstance(series.dtype.inner, (pl.List, pl.Array, pl.Struct))
            ):
                raise TypeError("untyped values")
            key, kind = _polars_keys(series)
            out = pl.DataFrame({"v": series}).select(key.alias("c"), kind.alias("k"))
            columns[f"c{i}"], columns[f"k{i}"] = out.get_column("c"), out.get_column("k")
        except Exception:  # mixed Python objects, nested lists…: value by value
            keys, kinds = _python_keys(values.tolist())
            columns[f"c{i}"] = pl.Series(keys, dtype=pl.String)
            columns[f"k{i}"] = pl.Series(kinds, dtype=pl.Int8)
    frame = pl.DataFrame(
        columns,
        schema={**{f"c{i}": pl.String for i in range(len(take))}, **{f"k{i}": pl.Int8 for i in range(len(take))}},
    )
    grouped = frame.group_by(list(frame.columns)).agg(pl.len().cast(pl.Int64).alias(_COUNT))
    return grouped.to_pandas(use_pyarrow_extension_array=True)


def _sum_counts(partial: pandas.DataFrame) -> pandas.DataFrame:
    """Concatenated partial counts summed per unique row (the combine and aggregate steps of the tree)."""
    import polars as pl

    frame = pl.from_pandas(partial)
    keys = [c for c in frame.columns if c != _COUNT]
    grouped = frame.group_by(keys).agg(pl.col(_COUNT).sum().cast(pl.Int64))
    return grouped.to_pandas(use_pyarrow_extension_array=True)


# ---------------------------------------------------------------------------------------------
# The shared driver
# ---------------------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _count_frame(
    frame: Any,
    columns: Sequence[Column],
    roles: Sequence[str],
    source: str,
    header: bool,
    scheduler: str | Any | None,
    empty_ok: bool,
) -> Cells:
    """Count the unique rows of ``columns`` of a Dask DataFrame on a cluster; see :func:`frame_cells`."""
    if len(columns) != len(roles):
        raise OptionError(f"{len(columns)} column(s) but {len(roles)} role(s)")
    if not columns:
        raise OptionError("no columns to count")
    labels = list(frame.columns)
    names = [str(c) for c in labels] if header else [f"column_{i + 1}" for i in range(len(labels))]
    if not names:
        raise InputError("has no columns", source)
    positions = [resolve_column(c, names, source, r) for c, r in zip(columns, roles)]
    one_role_each(positions, roles, source, [repr(names[p]) for p in positions])
    used = sorted(set(positions))
    projected = frame[[labels[p] for p in used]]  # Parquet reads only these columns
    take = [used.index(p) for p in positions]
    meta = _partition_counts(projected._meta, take)
    reduced = projected.reduction(
        _partition_counts,
        aggregate=_sum_counts,
        combine=_sum_counts,
        meta=meta,
        split_every=_SPLIT_EVERY,
        chunk_kwargs={"take": take},
    )
    from polars.exceptions import PolarsError

    with dask_client(scheduler) as client:
        try:
            result = client.compute(reduced).result()
        except InputError:
            raise
        except UnicodeDecodeError as exc:
            raise InputError(f"is not valid UTF-8: {first_line(exc)} (convert the files to UTF-8)", source) from None
        except (ValueError, OSError, PolarsError) as exc:  # parse errors (pandas, pyarrow, polars), unreadable files
            raise InputError(f"could not be read: {first_line(exc)}", source) from None
        except Exception as exc:
            lost = lost_worker(exc, partition_name(projected, getattr(exc, "task", None), source))
            if lost is None:
                raise
            raise lost from None
    return _to_cells(result, columns, roles, [names[p] for p in positions], source, header, empty_ok)


def _to_cells(
    result: pandas.DataFrame,
    columns: Sequence[Column],
    roles: Sequence[str],
    names: Sequence[str],
    source: str,
    header: bool,
    empty_ok: bool,
) -> Cells:
    """The reduced counts as :class:`Cells`, after checking for missing and empty labels."""
    width = len(columns)
    counts = result[_COUNT].to_numpy(dtype=np.int64, na_value=0)
    keys = [result[f"c{i}"].tolist() for i in range(width)]
    kinds = [result[f"k{i}"].to_numpy(dtype=np.int8) for i in range(width)]
    missing = [(role, name, int(counts[kind == _MISSING].sum())) for role, name, kind in zip(roles, names, kinds)]
    missing = [m for m in missing if m[2]]
    if missing:
        what = "; ".join(
            f"the {cell_of(role)} ({name!r}) is missing (null) in {_plural(n, 'row')}" for role, name, n in missing
        )
        raise InputError(what, source)
    if not empty_ok:
        empty = []
        for role, name, values in zip(roles, names, keys):
            blank = np.fromiter((v.strip() == "" for v in values), dtype=bool, count=len(values))
            if blank.any():
                empty.append(f"the {role} label ({name!r}) is empty in {_plural(int(counts[blank].sum()), 'row')}")
        if empty:
            raise InputError("; ".join(empty), source)
    rows = [
        tuple(_decode_list(v) if k == _LIST else v for v, k in zip(row, row_kinds))
        for row, row_kinds in zip(zip(*keys), zip(*kinds))
    ]
    return Cells(rows, counts, source, None, header)


# ---------------------------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------------------------


def _read_jsonl_block(text: Any, orient: str = "records", lines: bool = True, **kwargs: Any) -> pandas.DataFrame:
    """A block of JSON Lines (text) as an Arrow-backed pandas frame, parsed by polars (runs on a worker).

    Dask's own JSON reader turns a list of labels into the text of the Python list; polars keeps
    it a list.
    """
    import polars as pl

    data = text.read() if hasattr(text, "read") else text
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip():
        import pandas as pd

        return pd.DataFrame()
    return pl.read_ndjson(io.BytesIO(data)).to_pandas(use_pyarrow_extension_array=True)


def _separator(fmt: str, options: TableOptions) -> str:
    """The embedded reader's separator; runs of whitespace (``None`` there) as pandas' regex."""
    return separator_of(fmt, options) or r"\s+"


def is_local(path: str) -> bool:
    return "://" not in path and "::" not in path


def check_paths(paths: Sequence[str]) -> None:
    """Refuse standard input, and name a local file that does not exist (globs and remote paths: dask says)."""
    for path in paths:
        if path == "-":
            raise OptionError("the dask engine reads files, not standard input (-)")
        if is_local(path) and not any(ch in path for ch in "*?[") and not os.path.exists(path):
            raise InputError("no such file", path)


def table_paths(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    format_of_path: Callable[[str], str],
    hint: str = "",
) -> tuple[list[str], str]:
    """One table's parts (a path, or several) as strings, checked as :func:`check_paths` checks them, and the one
    format ``format_of_path`` reads them as: parts of mixed formats are refused (``hint``: how to choose one)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    given = [os.fspath(p) for p in paths]
    if not given:
        raise OptionError("no files to read")
    check_paths(given)
    formats = {format_of_path(p) for p in given}
    if len(formats) > 1:
        raise OptionError(
            f"the files mix formats ({', '.join(sorted(formats))}); the dask engine reads one format at a time{hint}"
        )
    return given, formats.pop()


def read_frame(
    paths: Sequence[str], fmt: str, options: TableOptions, columns: Sequence[Column], source: str
) -> tuple[Any, bool]:
    """The Dask DataFrame of ``paths`` read as ``fmt``, and whether its first line was a header."""
    dd, _ = dask_modules()
    paths = list(paths)
    try:
        if fmt == "parquet":
            if options.sep is not None:
                raise OptionError("--sep does not apply to parquet input")
            return dd.read_parquet(paths, dtype_backend="pyarrow"), True
        if fmt == "jsonl":
            if options.sep is not None:
                raise OptionError("--sep does not apply to jsonl input")
            return dd.read_json(paths, lines=True, blocksize=_JSON_BLOCK, engine=_read_jsonl_block), True
        sep = _separator(fmt, options)
        header = bool(options.header) or any(isinstance(c, str) for c in columns)
        frame = dd.read_csv(
            paths,
            sep=sep,
            header=0 if header else None,
            dtype=str,
            na_filter=False,
            quoting=csv.QUOTE_MINIMAL if fmt == "csv" else csv.QUOTE_NONE,
            encoding="utf-8",
        )
        return frame, header
    except (InputError, OptionError):
        raise
    except OSError as exc:  # a glob that matches nothing, a remote path that cannot be opened…
        raise InputError(f"could not be opened: {first_line(exc)}", source) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"is not valid UTF-8: {first_line(exc)} (convert the files to UTF-8)", source) from None
    except Exception as exc:  # an empty file, a parse error in the sample dask reads for the column types…
        raise InputError(f"could not be read as {fmt}: {first_line(exc)}", source) from None


def cluster_cells(
    paths: Sequence[str],
    columns: Sequence[Column],
    roles: Sequence[str],
    options: TableOptions = TableOptions(),
    *,
    scheduler: str | Any | None = None,
    empty_ok: bool = False,
) -> Cells:
    """Read the unique rows of ``columns`` of one or many files on a Dask cluster, with counts.

    The counterpart of :func:`clfeval.inputs.embedded.read_cells` for data that is split over many
    files, too big for one machine, or stored remotely: every file (or block of a file) is
    reduced to its unique rows where it is read, and the counts are summed in a tree.

    Parameters
    ----------
    paths
        Files, glob patterns (``data/part-*.parquet``), directories of Parquet parts, or remote
        paths that fsspec reaches (``s3://bucket/data/*.parquet``; the workers must reach them
        too). All must have the same format and the same columns.
    columns
        Which columns: 1-based numbers, negative from the end, or header names.
    roles
        What each column holds (``gold``, ``predicted``…), for messages.
    options
        The format (else by the first path's extension: Parquet, JSON Lines, CSV, TSV, or
        whitespace-separated text), the separator and whether delimited files have a header
        (else only when a column is given by name).
    scheduler
        ``None`` starts a local cluster for the call; a scheduler address
        (``"tcp://10.0.0.5:8786"``) connects to it; a ``distributed.Client`` is used as it is.
    empty_ok
        Whether an empty cell is a value (the empty label set) rather than an error.

    Returns
    -------
    Cells
        The unique rows with their counts; ``source`` is the paths joined with ``", "``.
        ``first_row`` is ``None``: the files are not read in order.

    Raises
    ------
    InputError
        A missing file, a file that cannot be parsed, a column that does not exist, missing
        (null or NaN) labels, or empty labels unless ``empty_ok``.
    OptionError
        Dask is not installed, the scheduler cannot be reached, or the options do not apply.

    Notes
    -----
    Local paths (and globs; on a cluster they must be on a file system every worker sees) are
    counted one task per file, each running the embedded streaming reader on a worker: the same
    rules and the same messages, with file and line, as on this machine. Remote paths are read
    through ``dask.dataframe`` (pandas) in partitions: there blank lines are skipped, a line with
    too few fields has empty cells, a quoted CSV field must not span lines, and errors name the
    files and the number of rows rather than a line.
    """
    paths, fmt = table_paths(
        paths, lambda p: format_of(p, options), " (set the input format to override the extensions)"
    )
    source = ", ".join(paths)
    if all(is_local(p) for p in paths) and fmt in ("parquet", "csv", "tsv", "text", "jsonl"):
        return _count_files(expand_paths(paths), columns, roles, options, source, scheduler, empty_ok)
    frame, header = read_frame(paths, fmt, options, columns, source)
    return _count_frame(frame, columns, roles, source, header, scheduler, empty_ok)


def _file_task(
    path: str, columns: Sequence[Column], roles: Sequence[str], options: TableOptions, empty_ok: bool
) -> tuple[list[tuple[Any, ...]], list[int], bool, tuple[str, ...]]:
    """One file counted on a worker by the embedded reader (streaming, exact line numbers in errors)."""
    cells = read_cells(path, columns, roles, options, empty_ok=empty_ok)
    return list(cells.rows), cells.counts.tolist(), cells.header, cells.warnings


def _count_files(
    files: Sequence[str],
    columns: Sequence[Column],
    roles: Sequence[str],
    options: TableOptions,
    source: str,
    scheduler: str | Any | None,
    empty_ok: bool,
) -> Cells:
    """Files the workers can open (a shared or local file system): one task per file, each the embedded reader.

    Only each file's unique rows with counts travel back; they are added here as they arrive.
    """
    total: dict[tuple[Any, ...], int] = {}
    headers: list[bool] = []
    found: list[str] = []
    results = map_parts(
        _file_task, list(files), files, source, scheduler,
        columns=list(columns), roles=list(roles), options=options, empty_ok=empty_ok,
    )  # fmt: skip
    for rows, counts, header, file_warnings in results:
        for row, count in zip(rows, counts):
            total[row] = total.get(row, 0) + count
        headers.append(header)
        found.extend(file_warnings)
    rows = sorted(total, key=repr)
    return Cells(
        rows, np.array([total[r] for r in rows], dtype=np.int64), source, None, all(headers), tuple(sorted(found))
    )


def map_parts(
    task: Callable[..., Any],
    items: Sequence[Any],
    names: Sequence[str],
    source: str,
    scheduler: str | Any | None,
    **kwargs: Any,
) -> list[Any]:
    """``task(item, **kwargs)`` for every item on a Dask cluster, one task each, the results in the items' order.

    The shared driver of inputs counted one task per part (a file the workers can open): labels' files
    (:func:`cluster_cells`), CoNLL and JSON Lines files of spans (:mod:`clfeval.inputs.spancluster`). Only each task's
    result travels back.

    Parameters
    ----------
    task
        Run on a worker; imported there by name (a module-level function of clfeval).
    items, names
        What each task is given, and the part it reads (a file), for the error when its workers die.
    source
        The whole input, for an error of no one part.
    scheduler
        As :func:`dask_client` takes it.

    Raises
    ------
    InputError
        The first error a task raised (a bad file, naming its file and line), as it was raised; or, when a task's
        workers died, :func:`lost_worker`'s one line naming its part.
    """
    with dask_client(scheduler) as client:
        futures = client.map(task, list(items), pure=False, **kwargs)
        parts = {future.key: name for future, name in zip(futures, names)}
        try:
            return list(client.gather(futures))  # the first error raised on a worker is raised here, as it was
        except KeyboardInterrupt:
            silence_interrupted()  # before the futures are cancelled
            raise
        except Exception as exc:
            lost = lost_worker(exc, parts.get(getattr(exc, "task", None), source))
            if lost is None:
                raise
            raise lost from None
        finally:
            client.cancel(futures)


def frame_cells(
    frame: dask.dataframe.DataFrame,
    columns: Sequence[Column],
    roles: Sequence[str],
    *,
    scheduler: str | Any | None = None,
    empty_ok: bool = False,
) -> Cells:
    """Count the unique rows of ``columns`` of a Dask DataFrame on a cluster.

    Parameters
    ----------
    frame
        A ``dask.dataframe.DataFrame``: label columns of strings, integers, floats (``1.0`` is
        the label ``"1"``), categories, or lists of labels (label sets).
    columns
        Which columns: names, or 1-based / negative positions.
    roles
        What each column holds (``gold``, ``predicted``…), for messages.
    scheduler
        ``None`` starts a local cluster for the call; a scheduler address connects to it; a
        ``distributed.Client`` is used as it is.
    empty_ok
        Whether an empty cell is a value (the empty label set) rather than an error.

    Returns
    -------
    Cells
        The unique rows with their counts; ``source`` is ``"<dask frame>"``.

    Raises
    ------
    InputError
        A column that does not exist, missing (null or NaN) labels, or empty labels unless
        ``empty_ok``.
    OptionError
        Dask is not installed, or the scheduler cannot be reached.

    Notes
    -----
    Dask's ``dataframe.convert-string`` setting (on by default) turns an object column into
    strings when the frame is built, a column of Python lists included (``"['a', 'b']"``):
    give label sets as Arrow list columns (``pd.ArrowDtype(pa.list_(pa.string()))``, as
    ``read_parquet`` makes them), as separator strings, or build the frame with that setting off.
    """
    dd, _ = dask_modules()
    if not isinstance(frame, dd.DataFrame):
        raise OptionError(f"frame_cells needs a dask.dataframe.DataFrame, not {type(frame).__name__}")
    return _count_frame(frame, columns, roles, "<dask frame>", True, scheduler, empty_ok)
