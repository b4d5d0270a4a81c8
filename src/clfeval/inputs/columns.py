"""Column selection: 1-based numbers, negative numbers from the end, or header names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from clfeval.errors import InputError, OptionError

__all__ = ["Column", "cell_of", "one_role_each", "parse_column", "resolve_column"]

Column = int | str


@overload
def parse_column(value: str | int) -> Column: ...
@overload
def parse_column(value: None) -> None: ...
def parse_column(value: str | int | None) -> Column | None:
    """A CLI column option: an integer (1 = first, −1 = last) or a header name."""
    if value is None or isinstance(value, int):
        if value == 0:
            raise OptionError("column numbers start at 1 (or -1 for the last column), not 0")
        return value
    text = value.strip()
    try:
        number = int(text)
    except ValueError:
        return text
    return parse_column(number)


def one_role_each(
    resolved: Sequence[object],
    roles: Sequence[str],
    source: str | None,
    shown: Sequence[str] | None = None,
    line: int | None = None,
) -> None:
    """Refuse two roles resolved to one column (``--gold-col g --pred-col 1`` naming the same field twice).

    ``resolved`` holds each role's column as found in the file (a position or a field name), or as given
    (``source`` None: an :class:`OptionError`, before any file is read); ``shown``, how to name them in the
    message (default: as they are).
    """
    seen: dict[object, int] = {}
    for i, key in enumerate(resolved):
        if key in seen:
            first = seen[key]
            what = (shown or [str(k) for k in resolved])[i]
            cause = (
                " (a column scored against itself is always right)"
                if {roles[first], roles[i]} & {"gold"} and "predicted" in roles[i] + roles[first]
                else ""
            )
            message = f"the {roles[first]} and {roles[i]} columns are both {what}: give different columns{cause}"
            raise OptionError(message) if source is None else InputError(message, source, line)
        seen[key] = i


def cell_of(role: str) -> str:
    """What a cell of a column in ``role`` holds, for messages: ``gold label``, ``predicted label`` …, but ``weight``
    (a weight column holds numbers, not labels)."""
    return "weight" if role == "weight" else f"{role} label"


def resolve_column(col: Column, names: Sequence[str], source: str, role: str) -> int:
    """The 0-based position of ``col`` among ``names`` (the header, or column_1… without one)."""
    if isinstance(col, str):
        if col not in names:
            shown = ", ".join(repr(n) for n in names[:20])
            raise InputError(f"no column named {col!r} for the {cell_of(role)}s; the header has: {shown}", source, 1)
        return list(names).index(col)
    position = col - 1 if col > 0 else len(names) + col
    if not 0 <= position < len(names):
        raise InputError(
            f"the {role} column {col} does not exist: the first line has {len(names)} "
            f"field{'s' if len(names) != 1 else ''}",
            source,
            1,
        )
    return position
