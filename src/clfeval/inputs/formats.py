"""Input formats and the options that say how to read them.

:data:`FORMATS` names the formats, :func:`format_of` tells a file's format (given, or by its extension), and
:class:`TableOptions` holds the reading options (separator, header, ``--skip``, ``--block-end``, label separator
…), checked when built. The readers build on this module; it imports none of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clfeval.errors import OptionError, unknown_name
from clfeval.inputs.chunks import STDIN

__all__ = ["FORMATS", "TableOptions", "check_pattern", "format_of", "no_line_rules", "separator_of", "shown_pattern"]


#: Input formats, by name.
FORMATS: Mapping[str, str] = {
    "text": "whitespace-separated fields, as TiMBL writes them (any extension not listed below)",
    "csv": "comma-separated values with optional double-quote quoting (.csv)",
    "tsv": "tab-separated values (.tsv, .tab)",
    "jsonl": "JSON Lines, one object per line (.jsonl, .ndjson)",
    "parquet": "Apache Parquet (.parquet, .pq)",
}
_EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}


@dataclass(frozen=True)
class TableOptions:
    """How to read a delimited file.

    Attributes
    ----------
    input_format
        A name from :data:`FORMATS`; ``None`` guesses from the extension.
    sep
        The field separator (one character; ``"\\t"`` for tab). Default: runs of whitespace for
        ``text``, ``,`` for ``csv``, tab for ``tsv``.
    header
        Whether the first line names the columns; ``None``: only when a column is chosen by name.
    skip
        A regular expression (the syntax of Rust's ``regex`` crate, which polars uses: Python's
        without look-around and back-references); lines it matches anywhere are not instances,
        e.g. ``^<utt>`` sentence markers. Delimited files only.
    keep_trailing
        Keep a trailing TiMBL class distribution (``{ A 0.7, B 0.3 }``, after the predicted label,
        possibly followed by TiMBL's distance) as fields; by default it is recognised and stripped
        (text and TSV input).
    keep_distance
        When a distribution is stripped, keep the one field TiMBL may write after it (its distance,
        ``+v di``), as ``finagle`` reads it; by default it goes too, so the predicted label is last.
    block_end
        A regular expression (the syntax of ``skip``): a line it matches ends a block, as a blank line
        does, and is not an instance (MBT and TiMBL taggers end sentences with ``<utt>`` lines). Used
        when blocks are delimited by lines.
    label_sep
        The separator inside a multi-label cell (``None`` for single-label data): it may not be the
        field separator (whitespace in text input), or a cell would be split into fields.
    empty_cells
        Read an empty single-label cell as the empty label, not an error: what ``--invalid wrong|omit`` asks, whose
        policy counts an empty prediction as invalid and refuses an empty gold label (:mod:`clfeval.count.invalid`).
    """

    input_format: str | None = None
    sep: str | None = None
    header: bool | None = None
    skip: str | None = None
    keep_trailing: bool = False
    keep_distance: bool = False
    block_end: str | None = None
    label_sep: str | None = None
    empty_cells: bool = False

    def __post_init__(self) -> None:
        if self.input_format is not None and self.input_format not in FORMATS:
            raise unknown_name("input format", self.input_format, FORMATS)
        if self.sep is not None:
            separator_of("csv", self)  # one character, or \t
        if self.skip is not None:
            check_pattern(self.skip, "--skip")
        if self.block_end is not None:
            check_pattern(self.block_end, "--block-end")
        if self.label_sep == "":
            raise OptionError("--label-sep is empty: give the string that separates the labels of a set")


def check_pattern(pattern: str, option: str) -> None:
    """Refuse a regular expression that Python or polars (Rust's ``regex``) cannot compile, naming the option."""
    if pattern == "":
        raise OptionError(f"{option}: the pattern is empty (it would match every line)")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise OptionError(f"{option}: {pattern!r} is not a valid regular expression: {exc}") from None
    import polars as pl

    try:
        pl.Series([""]).str.contains(pattern)
    except Exception:
        raise OptionError(
            f"{option}: {pattern!r} uses syntax the reader's regex engine (Rust's regex crate) does "
            "not support, such as look-around or back-references"
        ) from None


def format_of(path: str, options: TableOptions) -> str:
    """The input format: the explicit one, else by extension, else ``text``."""
    if options.input_format is not None:
        if options.input_format not in FORMATS:
            raise unknown_name("input format", options.input_format, FORMATS)
        return options.input_format
    return _EXTENSIONS.get(Path(path).suffix.lower(), "text") if path != STDIN else "text"


def separator_of(fmt: str, options: TableOptions) -> str | None:
    """The field separator of a format under ``options`` (``--sep``, else the format's own); ``None``: runs of
    whitespace."""
    sep = options.sep
    if sep is not None:
        sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
        if len(sep) != 1:
            raise OptionError(f"--sep must be one character (or \\t), not {options.sep!r}")
        return sep
    return {"csv": ",", "tsv": "\t"}.get(fmt)  # None: runs of whitespace


def shown_pattern(pattern: str | None) -> str:
    """A regular expression as the user typed it, in single quotes (``repr`` would double its backslashes)."""
    if pattern is None:
        return "None"
    return "'" + pattern + "'" if "'" not in pattern else '"' + pattern + '"'


def no_line_rules(fmt: str, options: TableOptions, blocks: bool) -> None:
    """Refuse the rules about lines for records that have none (JSON Lines and Parquet)."""
    if options.skip is not None:
        raise OptionError(f"--skip applies to lines of delimited text, not to {fmt} records")
    if blocks or options.block_end is not None:
        raise OptionError(
            f"{fmt} records have no blank lines or block-end lines to delimit blocks: give the block "
            "column (--block-col)"
        )
