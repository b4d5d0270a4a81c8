"""Small text files read whole: a declared label list, a translation file, a table of reported figures."""

from __future__ import annotations

import os

from clfeval.errors import InputError
from clfeval.inputs.chunks import STDIN, read_bytes

__all__ = ["read_text"]


def read_text(path: str, *, expected: str, option: str = "") -> str:
    """The text of a small UTF-8 file (a byte-order mark dropped), or a one-line error naming it.

    Parameters
    ----------
    path
        The file.
    expected
        What the file should hold, said in the error when it is a directory or not UTF-8.
    option
        The command-line option that named the file (``--labels``), said in every error; empty for an argument.

    Raises
    ------
    InputError
        The file is missing or a directory, a byte is not UTF-8 (the error names its line), or the file changed
        while it was read.
    """
    tag = f" ({option})" if option else ""
    try:
        data = read_bytes(os.path.join(os.curdir, path) if path == STDIN else path)  # a file named -, not stdin
    except FileNotFoundError:
        raise InputError(f"no such file{tag}", path) from None
    except IsADirectoryError:
        raise InputError(f"is a directory{tag}: expected {expected}", path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # decoded whole, so the offset counts lines from the file's start
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"is not valid UTF-8: byte 0x{data[exc.start]:02x}{tag}; expected {expected}", path, line
        ) from None
