"""Files of scored predictions: a gold column and one score column (binary: the positive class's) or a column per
class, in CSV, TSV, JSON Lines or Parquet (a header names the columns), read by polars.

Score columns are chosen by ``--scores``: a glob of header names (``'p_*'``: the classes are what ``*`` matched,
``p_cat`` → ``cat``), names or numbers separated by commas (the classes are the names, or ``--labels``), or, in JSON
Lines and Parquet, one column holding a list of scores per row (the classes from ``--labels``). A weight column
(``--weight-col``) gives each row its sample weight. Every error names the file and the line: a score that is
missing or not a number, a gold label that is missing, class probabilities that do not sum to 1, a weight that is not
a finite number ≥ 0.

:func:`count_scored` counts a CSV, TSV, JSON Lines or Parquet file part by part into its distinct (gold, scores) rows
(:mod:`clfeval.inputs.scoredparts`): memory is bounded by a part and the distinct rows (rounded scores: a few thousand
rows however long the file), not by the file.
"""

from __future__ import annotations

import fnmatch
import io
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from clfeval.count.classes import PROBABILITY_TOLERANCE, checked_probabilities, class_order
from clfeval.count.labelsets import MultiLabel
from clfeval.count.scored import ScoreCounts, layout_of
from clfeval.errors import InputError, OptionError
from clfeval.inputs.chunks import Meter, ReadProgress, check_source, line_chunks, read_bytes, size_of
from clfeval.inputs.columns import Column, parse_column, resolve_column

if TYPE_CHECKING:
    from clfeval.inputs.scoredparts import ScoredPart, ScoredReading

__all__ = [
    "TIMBL",
    "ScoredFile",
    "count_scored",
    "merged_scored",
    "numbers_of",
    "read_scored",
    "read_timbl",
    "scored_parts",
]

#: Parts (chunks' distinct rows) held before they are merged: then merged once their rows are at least the merged
#: rows', so that few distinct rows stay few and many distinct rows are sorted O(log n) times, not once per chunk.
MERGE_PARTS = 32


class ScoredFile:
    """What a file of scored predictions held: the gold labels, the scores (n × columns), the class of each score
    column (``None``: to be named by ``labels``), each instance's block (``None`` without blocks), where they came
    from, each instance's sample weight (``None`` without a weight column) and its value in each group column (the
    column's header name → the values, as strings; ``None`` without group columns)."""

    def __init__(
        self,
        gold: np.ndarray,
        scores: np.ndarray,
        classes: list[str] | None,
        inputs: dict[str, Any],
        blocks: np.ndarray | None = None,
        weight: np.ndarray | None = None,
        groups: dict[str, np.ndarray] | None = None,
        order: list[str] | None = None,
        numbers: bool | None = None,
    ):
        self.gold, self.scores, self.classes, self.inputs, self.blocks = gold, scores, classes, inputs, blocks
        self.weight, self.groups, self.order, self.numbers = weight, groups, order, numbers

    def labels(self, declared: Sequence[str] | None) -> list[str] | None:
        """The classes to score under: ``declared`` where given, else the file's own order of its classes
        (:attr:`order`: the order the part counter gives the same file, :func:`numbers_of`), so that the instances'
        path (blocks, groups) orders a file's classes as counting it does (a gold column of 9 and 10 has the
        positive class 10 either way)."""
        return list(declared) if declared is not None else self.order

    def named(self) -> Any:
        """The scores as the one contract of classes and columns takes them (:mod:`clfeval.count.classes`): a
        data frame whose columns are the classes they name, where the file names them (a glob's matches, a header's
        names, TiMBL's classes), else the array (positional in the declared classes' order)."""
        if self.classes is None:
            return self.scores
        if self.scores.ndim == 1:  # one column: its name (a glob's one match) names the positive class
            return pl.DataFrame({self.classes[0]: self.scores}) if len(self.classes) == 1 else self.scores
        return pl.DataFrame(self.scores, schema=list(self.classes), orient="row")


def _blank_line_blocks(
    path: str, data: bytes, frame: pl.DataFrame, first_line: int, block_end: str | None
) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """Blocks separated by blank lines (and lines matching ``block_end``, which are no instances) in a CSV or TSV
    file (``data``, the bytes the frame was read from): the frame without those lines, each remaining row's line
    number and its block."""
    import re

    if block_end is not None:
        try:
            re.compile(block_end)
        except re.error as exc:
            raise OptionError(f"--block-end {block_end!r} is not a regular expression: {exc}") from None
    lines = pl.read_csv(
        io.BytesIO(data),
        has_header=False,
        separator="\x01",
        new_columns=["line"],
        quote_char=None,
        infer_schema_length=0,
    ).get_column("line")[first_line - 1 :]
    if len(lines) != len(frame):
        raise InputError("blank-line blocks need one row per line (a quoted field spans lines): give --block-col", path)
    stripped = lines.str.strip_chars()
    ends = (stripped.is_null() | (stripped == "")).to_numpy()
    if block_end is not None:
        ends |= lines.str.contains(block_end).fill_null(False).to_numpy()
    keep = ~ends
    block = np.cumsum(ends)[keep]
    return frame.filter(pl.Series(keep)), np.flatnonzero(keep) + first_line, block


def table_frame(path: str, meter: Meter | None = None) -> tuple[pl.DataFrame, int, bytes]:
    """The table, the line of its first row (2 under a header, 1 in JSON Lines and Parquet) and the file's bytes,
    read as every reader reads (:func:`~clfeval.inputs.chunks.read_bytes`: a file that changes meanwhile is an
    error naming it; ``meter`` is told the bytes read, before one parse of the whole)."""
    lower = path.lower()
    try:
        data = read_bytes(path, meter=meter)
        if lower.endswith((".jsonl", ".ndjson")):
            return pl.read_ndjson(io.BytesIO(data)), 1, data
        if lower.endswith((".parquet", ".pq")):
            return pl.read_parquet(io.BytesIO(data)), 1, data
        sep = "\t" if lower.endswith((".tsv", ".tab")) else ","
        # strings: numbers are parsed below
        return pl.read_csv(io.BytesIO(data), separator=sep, infer_schema_length=0), 2, data
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"cannot be read as a table: {str(exc).splitlines()[0]}", path) from None


def _score_columns(frame: pl.DataFrame, spec: str, path: str) -> tuple[list[str], list[str] | None]:
    names = frame.columns
    if any(ch in spec for ch in "*?["):
        chosen = [n for n in names if fnmatch.fnmatchcase(n, spec)]
        if not chosen:
            raise InputError(f"no column matches --scores {spec!r}; the header has: {', '.join(names[:20])}", path, 1)
        classes = None
        if spec.count("*") == 1 and "?" not in spec and "[" not in spec:
            head, tail = spec.split("*")
            classes = [n[len(head) : len(n) - len(tail)] for n in chosen]
        return chosen, classes
    chosen = []
    for part in spec.split(","):
        column: Column = parse_column(part.strip())
        chosen.append(names[resolve_column(column, names, path, "score")])
    return chosen, (chosen if len(chosen) > 1 else None)


def _numbers(series: pl.Series, path: str, line: np.ndarray) -> np.ndarray:
    if series.dtype == pl.String:
        parsed = series.str.strip_chars().cast(pl.Float64, strict=False)
        bad = parsed.is_null() | parsed.is_nan()
    else:
        parsed = series.cast(pl.Float64, strict=False)
        bad = parsed.is_null() | parsed.is_nan()
    if bad.any():
        i = int(bad.arg_max() or 0)
        raise InputError(f"the score {series[i]!r} in column {series.name!r} is not a number", path, int(line[i]))
    values = parsed.to_numpy()
    if not np.isfinite(values).all():
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        raise InputError(f"the score {series[i]!r} in column {series.name!r} is not finite", path, int(line[i]))
    return values


def _weights(series: pl.Series, path: str, line: np.ndarray) -> np.ndarray:
    """A weight column as float64: each cell a finite number ≥ 0 (an error names the line)."""
    text = series.cast(pl.String).str.strip_chars()
    values = text.cast(pl.Float64, strict=False).to_numpy()
    bad = np.isnan(values) | ~np.isfinite(values) | (values < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"the weight {text[i]!r} in column {series.name!r} is not a finite number ≥ 0", path, int(line[i])
        )
    return np.asarray(values, dtype=np.float64)


def weight_inputs(column: str, weight: np.ndarray) -> dict[str, Any]:
    """What ``inputs.sample_weight`` says of a weight column: its name, Σw and the instances."""
    return {"source": column, "sum": float(weight.sum()), "n_instances": len(weight)}


#: ``--scores`` of TiMBL's output: the class distribution after the predicted label, ``{ A 0.7, B 0.3 }``.
TIMBL = "timbl"


def read_timbl(path: str, gold_col: Column | None = None) -> ScoredFile:
    """TiMBL output with class distributions (``+v db``): the features, the gold class, the predicted class, then
    ``{ A 0.7, B 0.3 }`` (and maybe TiMBL's distance). Each line's distribution becomes its row of scores, a class
    absent from it scoring 0; the classes are those of every distribution and every gold label, in scikit-learn's order
    (:func:`~clfeval.count.classes.class_order`). Read by
    polars: no Python per line."""
    try:
        text = pl.read_csv(
            io.BytesIO(read_bytes(path)),
            has_header=False,
            separator="\x01",
            new_columns=["line"],
            quote_char=None,
            infer_schema_length=0,
        ).get_column("line")
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"cannot be read: {str(exc).splitlines()[0]}", path) from None
    text = text.str.strip_chars()
    keep = text.str.len_chars() > 0
    lines = text.filter(keep)
    numbers = np.flatnonzero(keep.to_numpy()) + 1
    brace = lines.str.extract(r"\{([^}]*)\}", 1)
    missing = brace.is_null().to_numpy()
    if missing.any():
        i = int(np.argmax(missing))
        raise InputError(
            "expected a TiMBL class distribution { A 0.7, B 0.3 } after the predicted class", path, int(numbers[i])
        )
    fields = lines.str.replace(r"\s*\{.*$", "").str.split(" ").list.eval(pl.element().filter(pl.element() != ""))
    n_fields = fields.list.len().to_numpy().astype(np.int64)
    index = -2 if gold_col is None else gold_col
    if isinstance(index, str):
        raise OptionError("TiMBL output has no header: give the gold column by number")
    position = np.full(len(n_fields), index - 1) if index > 0 else n_fields + index
    bad = (position < 0) | (position >= n_fields)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(
            f"no gold column {index}: the line has {int(n_fields[i])} fields before its distribution",
            path,
            int(numbers[i]),
        )
    gold = fields.list.get(pl.Series(position.tolist()), null_on_oob=True).to_numpy()
    pairs = brace.str.extract_all(r"[^\s,]+\s+[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
    counts = pairs.list.len().to_numpy()
    flat = pairs.explode().drop_nulls()
    label = flat.str.extract(r"^(\S+)", 1)
    value = flat.str.extract(r"(\S+)$", 1).cast(pl.Float64)
    row = np.repeat(np.arange(len(lines)), counts)
    classes = class_order(set(label.unique().to_list()) | set(np.unique(gold.astype(str)).tolist()))
    code = {c: i for i, c in enumerate(classes)}
    scores = np.zeros((len(lines), len(classes)))
    scores[row, label.replace_strict(code, return_dtype=pl.Int64).to_numpy()] = value.to_numpy()
    return ScoredFile(gold.astype(str), scores, classes, {"file": path, "scores": "TiMBL class distributions"})


def _parsed(
    frame: pl.DataFrame,
    line: np.ndarray,
    spec: str,
    path: str,
    *,
    gold_col: Column | None,
    labels: Sequence[str] | None,
    block_col: Column | None,
    label_sets: bool = False,
    weight_col: Column | None = None,
    taken_out: list[str] | None = None,
) -> tuple[pl.Series, np.ndarray, list[str] | None, list[str], str, np.ndarray | None, np.ndarray | None, str]:
    """A table's gold labels (stripped strings), scores (n × columns), the classes of the score columns (``None``: to
    be named), the score columns' names, the gold column's name, each row's block (``None`` without ``block_col``),
    each row's weight (``None`` without ``weight_col``) and the weight column's name; ``line`` gives each row's line
    for the errors. ``taken_out``: columns of the table that are neither gold nor scores (group columns), left out of
    the default gold column."""
    list_columns = [n for n, t in frame.schema.items() if isinstance(t, pl.List)]
    if spec in list_columns:  # a list of scores per row
        if not labels:
            raise OptionError(f"the scores are a list per row in {spec!r}: name their classes in order (--labels)")
        lists = frame.get_column(spec)
        lengths = lists.list.len().to_numpy()
        wrong = np.flatnonzero(lengths != len(labels))
        if len(wrong):
            i = int(wrong[0])
            raise InputError(f"{int(lengths[i])} scores, but {len(labels)} classes (--labels)", path, int(line[i]))
        scores = _numbers(lists.explode(), path, np.repeat(line, len(labels))).reshape(len(frame), len(labels))
        columns: list[str] = [spec]
        classes: list[str] | None = [str(x) for x in labels]
    else:
        columns, classes = _score_columns(frame, spec, path)
        glob = any(ch in spec for ch in "*?[")
        if glob and classes is None and labels is None and len(columns) > 1:
            raise OptionError(
                f"the glob {spec!r} matches {', '.join(columns[:10])} but names no classes (a glob with one '*' "
                "names them: 'p_*' makes p_cat the class cat): give --labels in the columns' order"
            )
        scores = np.column_stack([_numbers(frame.get_column(c), path, line) for c in columns])
        if labels is not None and len(columns) > 1:
            if len(labels) != len(columns):
                raise OptionError(f"{len(columns)} score columns but {len(labels)} classes in --labels")
            if classes is not None and not glob and not set(classes) & {str(x) for x in labels}:
                classes = None  # header names that name no class: the columns are --labels in order
    names = frame.columns
    taken = [*columns, *(taken_out or ())]
    blocks = None
    if block_col is not None:
        block_name = names[resolve_column(block_col, names, path, "block")]
        taken.append(block_name)
        given = frame.get_column(block_name).cast(pl.String)
        missing = given.is_null() | (given.str.strip_chars() == "")
        if missing.any():
            i = int(missing.arg_max() or 0)
            raise InputError(f"the block in column {block_name!r} is missing", path, int(line[i]))
        blocks = given.str.strip_chars().to_numpy()
    weight, weight_name = None, ""
    if weight_col is not None:
        weight_name = names[resolve_column(weight_col, names, path, "weight")]
        if weight_name in taken:
            raise OptionError(f"--weight-col {weight_name!r} is a score or block column")
        taken.append(weight_name)
        weight = _weights(frame.get_column(weight_name), path, line)
    if gold_col is None:
        rest = [n for n in names if n not in taken]
        if len(rest) != 1:
            raise OptionError(f"say which column holds the gold labels (--gold-col); the others are {rest[:20]}")
        gold_name = rest[0]
    else:
        gold_name = names[resolve_column(gold_col, names, path, "gold")]
    gold = frame.get_column(gold_name).cast(pl.String)
    if label_sets:  # a cell of labels: an empty one is the empty set
        found = gold.fill_null("").str.strip_chars()
        return found, scores, classes, columns, gold_name, blocks, weight, weight_name
    missing = gold.is_null() | (gold.str.strip_chars() == "")
    if missing.any():
        i = int(missing.arg_max() or 0)
        raise InputError(f"the gold label in column {gold_name!r} is missing", path, int(line[i]))
    gold_values = gold.str.strip_chars()
    known = classes if classes is not None else ([str(x) for x in labels] if labels is not None else None)
    if known is not None and len(columns) > 1:
        outside = ~gold.str.strip_chars().is_in(known).to_numpy()
        if outside.any():
            i = int(np.argmax(outside))
            raise InputError(
                f"the gold label {gold_values[i]!r} is not one of the classes of the score columns {known}",
                path,
                int(line[i]),
            )
    return gold_values, scores, classes, columns, gold_name, blocks, weight, weight_name


_HINT = "if they are scores, not probabilities, give --not-probabilities"


def _clipped_note(n: int) -> str:
    return f"{n} probabilities within {PROBABILITY_TOLERANCE:g} outside [0, 1] (round-off) clipped to [0, 1]"


def read_scored(
    path: str,
    spec: str,
    *,
    gold_col: Column | None = None,
    labels: Sequence[str] | None = None,
    probabilities: bool | None = None,
    tolerance: float = 1e-6,
    block_col: Column | None = None,
    blank_lines: bool = False,
    block_end: str | None = None,
    label_sets: bool = False,
    weight_col: Column | None = None,
    progress: ReadProgress | None = None,
    group_col: Sequence[Column] = (),
) -> ScoredFile:
    """Read a file of scored predictions (see the module).

    ``probabilities`` (``None`` or ``True``): every score is a probability, in [0, 1], and a row of class columns
    sums to 1, each within ``tolerance`` (round-off outside [0, 1] is clipped and counted in ``inputs``; an error names
    the first line that is no probability); ``False`` reads scores of any scale. Blocks: ``block_col`` names each
    row's block; ``blank_lines`` (CSV, TSV) makes blank lines, and lines matching ``block_end``, end blocks.
    ``label_sets``: the gold cell holds a set of labels (multi-label; an empty cell is the empty set), returned as the
    cell's text, and the scores are per label (no sum to 1). ``progress(bytes_done, bytes_total, rows_done)`` is
    called as the file's bytes are read (then it is parsed whole, in one call). ``weight_col``: the column of each row's
    sample weight. ``group_col``: columns naming each row's group (:attr:`ScoredFile.groups`; a missing value is an
    error naming its line).
    """
    if block_col is not None and (blank_lines or block_end is not None):
        raise OptionError("blocks come from --block-col or from blank lines (--blocks, --block-end), not both")
    if spec == TIMBL:
        if block_col is not None or blank_lines or block_end is not None:
            raise OptionError("TiMBL's output has no blocks here: give its scores in a table with --block-col")
        if weight_col is not None:
            raise OptionError("TiMBL's output has no weight column: give its scores in a table with --weight-col")
        if group_col:
            raise OptionError("TiMBL's output has no group column: give its scores in a table with --group-col")
        return read_timbl(path, gold_col)
    meter = Meter(size_of([path]), progress) if progress is not None else None
    frame, first_line, data = table_frame(path, meter)
    if meter is not None:
        meter.add(rows=len(frame))
    line = np.arange(len(frame)) + first_line
    blocks: np.ndarray | None = None
    if blank_lines or block_end is not None:
        if first_line == 1:
            raise OptionError("blank-line blocks are for CSV and TSV files: give --block-col")
        frame, line, blocks = _blank_line_blocks(path, data, frame, first_line, block_end)
    group_names = [frame.columns[resolve_column(c, frame.columns, path, "group")] for c in group_col]
    if len(set(group_names)) != len(group_names):
        raise OptionError("--group-col names each group column once")
    gold_series, scores, classes, columns, gold_name, given, weight, weight_name = _parsed(
        frame, line, spec, path, gold_col=gold_col, labels=labels, block_col=block_col, label_sets=label_sets,
        weight_col=weight_col, taken_out=group_names,
    )  # fmt: skip
    groups = group_values(frame, line, path, group_names, [gold_name, *columns, weight_name]) if group_names else None
    if given is not None:
        blocks = given
    clipped = 0
    if probabilities is not False:  # probabilities unless said otherwise: an error names the line
        scores, clipped = checked_probabilities(
            scores, rows_sum=not label_sets, where=path, lines=line, tolerance=tolerance, hint=_HINT
        )
    inputs: dict[str, Any] = {"file": path, "gold_column": gold_name, "score_columns": columns}
    if clipped:
        inputs["clipped"] = _clipped_note(clipped)
    if blocks is not None:
        inputs["blocks"] = f"column {block_col}" if block_col is not None else "blank lines"
        inputs["n_blocks"] = len(np.unique(blocks))
    if weight is not None:
        inputs["sample_weight"] = weight_inputs(weight_name, weight)
    order = None
    numbers = True if frame.schema[gold_name].is_numeric() else numbers_of(path, None)
    if not label_sets and labels is None:  # the classes as the part counter orders this file's (finish_parts)
        named = classes if classes is not None and (len(classes) > 1 or scores.shape[1] == 1) else []
        order = class_order(set(gold_series.unique().to_list()) | set(named), numbers)
    return ScoredFile(
        gold_series.to_numpy(),
        scores if scores.shape[1] > 1 else scores[:, 0],
        classes,
        inputs,
        blocks,
        weight,
        groups,
        order,
        numbers,
    )


def group_values(
    frame: pl.DataFrame, line: np.ndarray, path: str, names: Sequence[str], taken: Sequence[str]
) -> dict[str, np.ndarray]:
    """Each group column's values (as strings, stripped): a group column that is the gold, a score or the weight
    column, or a missing value, is an error."""
    found = {}
    for name in names:
        if name in taken:
            raise OptionError(
                f"--group-col {name!r} is the gold, a score or the weight column: give a column of its own"
            )
        given = frame.get_column(name).cast(pl.String)
        missing = given.is_null() | (given.str.strip_chars() == "")
        if missing.any():
            i = int(missing.arg_max() or 0)
            raise InputError(f"the group in column {name!r} is missing", path, int(line[i]))
        found[name] = given.str.strip_chars().to_numpy()
    return found


def scored_parts(
    path: str, *, size: int | None = None, rows: int | None = None, meter: Meter | None = None
) -> Iterator[tuple[pl.DataFrame, int]]:
    """A table of scored predictions part by part: each part's rows (CSV, TSV: cells as strings; JSON Lines,
    Parquet: as typed) and the line of its first row. CSV, TSV and JSON Lines in chunks of whole lines (``size``
    bytes; :func:`~clfeval.inputs.chunks.line_chunks`), Parquet in batches of ``rows`` rows."""
    lower = path.lower()
    if lower.endswith((".parquet", ".pq")):
        yield from _parquet_parts(path, rows or PARQUET_ROWS, meter)
        return
    jsonl = lower.endswith((".jsonl", ".ndjson"))
    sep = "\t" if lower.endswith((".tsv", ".tab")) else ","
    header: list[str] | None = None
    schema: Any = None
    for chunk in line_chunks(path, quoted=not jsonl, size=size, meter=meter):
        source = io.BytesIO(chunk.data)
        if jsonl:
            if not chunk.data.strip():
                continue
            # the schema of the first chunk's first rows for every chunk, as polars infers a whole file's
            frame = pl.read_ndjson(source) if schema is None else pl.read_ndjson(source, schema=schema)
            schema = schema or frame.schema
            first = chunk.first_line
        elif header is None:
            frame = pl.read_csv(source, separator=sep, infer_schema_length=0)
            header, first = frame.columns, chunk.first_line + 1
        else:
            frame = pl.read_csv(source, separator=sep, has_header=False, new_columns=header, infer_schema_length=0)
            first = chunk.first_line
        if meter is not None:
            meter.add(rows=len(frame))
        yield frame, first


#: Rows of a Parquet file counted at once (a part): memory is bounded by a part and the distinct rows.
PARQUET_ROWS = 1 << 19


def _parquet_parts(path: str, rows: int, meter: Meter | None) -> Iterator[tuple[pl.DataFrame, int]]:
    """A Parquet file in batches of ``rows`` rows: its bytes read as every reader reads them
    (:func:`~clfeval.inputs.chunks.read_bytes`: a file that changes meanwhile is an error naming it) and held as they
    are (compressed), decoded a batch at a time by polars' streaming engine."""
    if path == "-":
        raise OptionError("Parquet is read from a file, not from standard input")
    check_source(path)
    data = read_bytes(path, meter=meter)
    first = 1
    lazy = pl.scan_parquet(io.BytesIO(data))
    if hasattr(lazy, "collect_batches"):
        batches: Iterator[pl.DataFrame] = iter(lazy.collect_batches(chunk_size=rows))
    else:  # a polars before collect_batches: decoded whole, counted in slices
        batches = lazy.collect().iter_slices(rows)
    for frame in batches:
        if meter is not None:
            meter.add(rows=len(frame))
        yield frame, first
        first += len(frame)
    if first == 1:  # no rows: the header (the schema) alone
        yield pl.read_parquet(io.BytesIO(data), n_rows=0), 1


def count_scored(
    path: str,
    spec: str,
    *,
    gold_col: Column | None = None,
    labels: Sequence[str] | None = None,
    probabilities: bool | None = None,
    tolerance: float = 1e-6,
    positive: str | None = None,
    size: int | None = None,
    rows: int | None = None,
    bins: int | None = None,
    weight_col: Column | None = None,
    progress: ReadProgress | None = None,
    multilabel: MultiLabel | None = None,
    systems: Sequence[tuple[str, str]] | None = None,
    numbers: bool | None = None,
) -> tuple[Any, dict[str, Any]]:
    """The distinct (gold, scores) rows of a file of scored predictions, with what was read (``inputs``).

    The file is read part by part (:func:`scored_parts`: CSV, TSV and JSON Lines in chunks of whole lines of ``size``
    bytes, Parquet in batches of ``rows`` rows), each part checked as :func:`read_scored` checks a file (errors name
    the file and the line) and reduced to its distinct rows (:func:`~clfeval.inputs.scoredparts.count_part`), which
    are merged as they accumulate (:func:`~clfeval.inputs.scoredparts.merge_parts`): memory grows with the distinct
    rows, not the file. TiMBL output is read whole. The classes and the positive class are resolved by the one
    contract (:func:`~clfeval.inputs.scoredparts.finish_parts`). ``bins``: probabilities binned as they are read
    (:func:`~clfeval.scoring.scored.binned_scores`), so that the distinct rows stay few however many scores are
    distinct. ``weight_col``: the column of each row's sample weight; the distinct rows are then (gold, scores,
    weight), their weights kept (``inputs.sample_weight`` names the column). ``multilabel``: the gold cell is a set
    of labels, a score column per label. ``systems``: (name, spec) of several systems' score columns of the file
    (``spec`` is then unused), read at once into their :class:`~clfeval.count.jointscored.JointScoreCounts`.
    ``numbers``: whether the classes order as numbers (``None``: where every name spells one).
    ``progress(bytes_done, bytes_total, rows_done)`` is called as parts are read and counted.
    """
    from clfeval.inputs.scoredparts import ScoredReading, finish_parts

    if spec == TIMBL and systems is None:
        if multilabel is not None:
            raise OptionError("TiMBL's output holds one gold class per line: give multi-label scores in a table")
        return _count_timbl(path, gold_col, labels, probabilities, tolerance, positive, bins, weight_col, progress)
    numbers = numbers_of(path, numbers)
    reading = ScoredReading(
        specs=tuple(s for _, s in systems) if systems is not None else (spec,),
        systems=tuple(n for n, _ in systems) if systems is not None else None,
        gold_col=gold_col, labels=None if labels is None else tuple(str(x) for x in labels),
        probabilities=probabilities, tolerance=tolerance, positive=positive, bins=bins, weight_col=weight_col,
        multilabel=multilabel, numbers=numbers,
    )  # fmt: skip
    if TIMBL in reading.specs:
        raise OptionError("TiMBL's output holds one system's class distributions: give each system's in a table")
    return finish_parts(merged_scored(path, reading, size=size, rows=rows, progress=progress), reading, path)


def numbers_of(path: str, numbers: bool | None) -> bool | None:
    """Whether the classes of a file's gold labels order as numbers (:attr:`~clfeval.inputs.scoredparts.
    ScoredReading.numbers`): as given, else ``False`` for JSON Lines and Parquet, whose labels are named as the
    whole-file reader names them (as text: their cells are typed), else ``None`` (where every name spells one)."""
    if numbers is None and path.lower().endswith((".jsonl", ".ndjson", ".parquet", ".pq")):
        return False
    return numbers


def merged_scored(
    path: str,
    reading: ScoredReading,
    *,
    size: int | None = None,
    rows: int | None = None,
    progress: ReadProgress | None = None,
) -> ScoredPart:
    """A table of scored predictions read part by part (:func:`scored_parts`), each part counted
    (:func:`~clfeval.inputs.scoredparts.count_part`) and the parts merged as they accumulate (once their rows are at
    least the merged rows': few distinct rows stay few, many are sorted O(log n) times): the file's distinct rows,
    to be finished by :func:`~clfeval.inputs.scoredparts.finish_parts`."""
    from clfeval.inputs.scoredparts import count_part, merge_parts

    parts: list[ScoredPart] = []
    held = merged = 0  # rows in the parts, and in the first (merged) part
    meter = Meter(size_of([path]), progress) if progress is not None else None
    try:
        for frame, first in scored_parts(path, size=size, rows=rows, meter=meter):
            parts.append(count_part(frame, first, path, reading))
            held += parts[-1].n_distinct
            if len(parts) > MERGE_PARTS and held >= 2 * merged:
                parts = [merge_parts(parts)]
                held = merged = parts[0].n_distinct
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"cannot be read as a table: {str(exc).splitlines()[0]}", path) from None
    if not parts:
        raise InputError("holds no header and no rows", path)
    return merge_parts(parts)


def _count_timbl(
    path: str,
    gold_col: Column | None,
    labels: Sequence[str] | None,
    probabilities: bool | None,
    tolerance: float,
    positive: str | None,
    bins: int | None,
    weight_col: Column | None,
    progress: ReadProgress | None,
) -> tuple[ScoreCounts, dict[str, Any]]:
    """TiMBL output counted: read whole (:func:`read_timbl`), its class distributions counted."""
    from clfeval.scoring.scored import binned_scores

    found = read_scored(path, TIMBL, gold_col=gold_col, labels=labels, probabilities=probabilities,
                        tolerance=tolerance, weight_col=weight_col, progress=progress)  # fmt: skip
    try:
        scores = binned_scores(found.scores, bins)
    except OptionError as exc:
        raise InputError(str(exc), path) from None
    inputs = found.inputs if bins is None else {**found.inputs, "score_bins": bins}
    names = found.classes if scores.ndim == 2 else None
    y, raw, seen_names, which, layout = layout_of(found.gold, scores, labels, positive=positive, names=names)
    counted = ScoreCounts.of_layout(y, raw, seen_names, which, layout, weight=found.weight)
    return counted, {**inputs, **layout.to_dict()}
