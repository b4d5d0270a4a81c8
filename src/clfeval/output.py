"""Output files written whole or not at all, and the one rule for the cells of every CSV or TSV written.

Files: a temporary file beside the target, then a rename. A full disk, a file-size limit or Ctrl-C in the
middle of writing a report, a count file or a figure leaves the target as it was (absent, or its earlier
content) and no temporary file behind. Targets that are not regular files (``/dev/stdout``, a named pipe) are
written directly: they cannot be renamed over.

Cells: every CSV or TSV clfeval writes (``--format csv`` of every command, ``--errors``, the MLflow confusion
matrix) goes through :func:`delimited_row`. Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@``
(or a tab or carriage return) as a formula: a label such as ``=cmd|' /C calc'!A0`` would be one (CSV injection).
As OWASP recommends, such a text cell is written with a leading apostrophe (``'=cmd…``), which spreadsheets show
as text; cells that are plain numbers (``-1``, ``+1``, ``-0.5``, as SVM labels are) are left as they are, since a
spreadsheet reads them as numbers. ``raw`` (``--raw-csv``) writes every cell exactly, for programs. Whatever
``raw``, a cell holding a line break (``\\n`` or ``\\r``), the separator or a double quote is quoted (a double
quote doubled), as Python's csv module and spreadsheets read it: a line break inside a label can neither end the
row nor start a new cell.
"""

from __future__ import annotations

import csv
import io
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

__all__ = ["FORMULA_STARTS", "atomic_path", "delimited_row", "safe_cell", "write_text"]

#: What a spreadsheet runs as a formula when a cell starts with it (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, with a leading apostrophe; anything else as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def delimited_row(cells: Iterable[Any], sep: str = ",", raw: bool = False) -> str:
    """One line of a CSV (``sep`` ``,``) or TSV (``sep`` a tab) file, ending in ``\\n``: each cell as Python's csv
    module writes it (``None`` empty, a float as ``repr``), made safe for spreadsheets unless ``raw`` (see the
    module), and quoted when it holds a line break, the separator or a double quote."""
    out = io.StringIO()
    # "\r\n" as the writer's line end makes it quote a cell holding either byte (with "\n" alone, a "\r" went out
    # bare); the row then ends in "\n" as every clfeval file does
    csv.writer(out, delimiter=sep, lineterminator="\r\n").writerow(cells if raw else [safe_cell(c) for c in cells])
    return out.getvalue()[:-2] + "\n"


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary path beside ``path`` to write to; on leaving the block without an error it replaces ``path``,
    on an error (or an interrupt) it is removed and ``path`` is left as it was."""
    target = os.fspath(path)
    try:
        special = not stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        special = False
    if special:
        yield target
        return
    directory, name = os.path.split(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=directory)
    os.close(handle)
    try:
        yield temporary
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it
        os.replace(temporary, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
