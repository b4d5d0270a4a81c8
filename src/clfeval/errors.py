"""Errors raised by clfeval.

Every error clfeval raises on purpose derives from :class:`ClfevalError`::

    ClfevalError                  anything clfeval rejects; the CLI prints it on one line, exit code 2
    ├── InputError                bad data: a file, a line or an array element that is not what was expected
    │   └── MatrixError           a confusion-matrix file that is not a square table of counts
    └── OptionError               a bad option value or a bad combination of options (unknown names list the valid ones)
        └── UnknownName           a name a result does not hold (``result["macro.f2"]``), with the close ones; also a
                                  ``KeyError``

Where clfeval returns bare numbers (``clfeval.hf``, the scikit-learn scorer) a result's warnings (a 0/0 set to a
value, labels outside the stated set) are issued as :class:`ClfevalWarning`, a ``UserWarning``, so they are not lost.

Messages say where and what, e.g. ``pred.txt:17: expected 2 fields, found 1``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

__all__ = [
    "ClfevalError",
    "ClfevalWarning",
    "InputError",
    "MatrixError",
    "OptionError",
    "UnknownName",
    "unknown_name",
    "warn_each",
]


class ClfevalError(Exception):
    """Base class of every error clfeval raises on purpose."""


class InputError(ClfevalError, ValueError):
    """Input data is not what was expected.

    Parameters
    ----------
    message
        What was expected and what was found.
    source
        The file name (or ``"gold"``/``"pred"`` for in-memory data), if known.
    line
        The 1-based line number (or 0-based index for arrays, written ``source[i]``), if known.
    """

    def __init__(
        self, message: str, source: str | None = None, line: int | None = None, *, index: int | None = None
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.index = index
        if source is not None and index is not None:
            where = f"{source}[{index}]: "
        elif source is not None and line is not None:
            where = f"{source}:{line}: "
        elif source is not None:
            where = f"{source}: "
        else:
            where = ""
        super().__init__(f"{where}{message}")

    def __reduce__(self) -> tuple:
        """Pickle with its parts (errors raised on Dask workers arrive whole)."""
        return (_rebuild_input_error, (type(self), self.message, self.source, self.line, self.index))


def _rebuild_input_error(
    cls: type, message: str, source: str | None, line: int | None, index: int | None
) -> InputError:
    return cls(message, source, line, index=index)


class MatrixError(InputError):
    """A confusion-matrix input that is not a square table of non-negative integer counts."""


class OptionError(ClfevalError, ValueError):
    """An option value, or a combination of options, that clfeval cannot honour."""


class UnknownName(OptionError, KeyError):
    """A name a result does not hold (``result["macro.f2"]``): an :class:`OptionError` and, as ``[]`` raises, a
    ``KeyError``; the message lists the close names."""

    def __str__(self) -> str:  # the message, not KeyError's repr of it
        return str(self.args[0]) if self.args else ""


def unknown_name(kind: str, name: object, valid: Iterable[str]) -> OptionError:
    """Build the error for a name that is not in a registry, listing the valid names."""
    names = ", ".join(sorted(valid))
    return OptionError(f"unknown {kind} {name!r}; valid: {names}")


class ClfevalWarning(UserWarning):
    """A result's warning passed on where only numbers are returned (``clfeval.hf``, ``clfeval.sklearn.scorer``).

    Its text is the result's own (for example ``precision is 0/0 for 1 label(s) never predicted: 'a'; set to 0 and
    included in averages``). Python shows each distinct text once per place by default; silence them with
    ``warnings.filterwarnings("ignore", category=clfeval.ClfevalWarning)``.
    """


def warn_each(messages: Iterable[str], *, stacklevel: int = 2) -> None:
    """Issue each message as a :class:`ClfevalWarning`, as ``warnings.warn(message, ClfevalWarning, stacklevel)``
    would where this function is called (``stacklevel=2``: at the line that called the caller)."""
    for message in messages:
        warnings.warn(message, ClfevalWarning, stacklevel=stacklevel + 1)
