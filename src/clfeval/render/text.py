"""Plain-text report: aligned tables, deterministic (no terminal codes), so pipes and golden files agree.

Every line fits :data:`WIDTH` columns (100), or the terminal when standard output is a narrower one: long labels
and system names are shortened with "…" in the middle (the JSON and CSV keep them whole; labels that would read
alike once shortened are numbered, ``[1]``, and a note gives them whole), a table too wide is set in parts that each
repeat the columns naming its rows (a wide row title wraps first), titles, warnings and notes are wrapped, and the
signature breaks after its ``|`` separators. Off a terminal the width is always :data:`WIDTH`, so pipes, files and
golden files do not depend on the window.
"""

from __future__ import annotations

import shutil
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.report.tables import Bounds, Label, Report, Table, format_number
from clfeval.result import Result

__all__ = [
    "WIDTH",
    "render_report_text",
    "render_text",
    "shorten",
    "signature_lines",
    "terminal_width",
    "text_table",
    "visible",
    "wrap",
]

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}

#: Control characters (C0 and DEL) as the escapes Python would print: a newline in a label cannot break a row.
_VISIBLE = str.maketrans({chr(i): _NAMED.get(chr(i), f"\\x{i:02x}") for i in (*range(0x20), 0x7F)})

#: The widest line of a text report: off a terminal always, on a terminal at most (a narrower one sets less).
WIDTH = 100
#: The narrowest width a text report is set to, however narrow the terminal.
MIN_WIDTH = 40
#: The most columns a label (or a system's name) takes in a column that names the rows, in another column, and as
#: a column title (the confusion matrix's predicted labels); longer ones are shortened with "…".
LABEL_WIDTH, CELL_LABEL_WIDTH, HEAD_LABEL_WIDTH = 32, 20, 12
#: The fewest columns a shortened label, and a wrapped text cell, are given when a table must shrink to fit.
_MIN_LABEL, _MIN_TEXT = 16, 16


def visible(text: str) -> str:
    r"""``text`` with every control character shown as an escape (``\n``, ``\t``, ``\r``, ``\x07`` …).

    Examples
    --------
    >>> print(visible("two\nlines\tand a bell\a"))
    two\nlines\tand a bell\x07
    """
    return text.translate(_VISIBLE)


#: Cells whose text is digits, a point, a sign or "undefined": nothing to escape.
_NUMBERS = (float, int)


#: Characters beyond ASCII that reports write themselves, each one column wide (the interval mark †, ∅, dashes).
_NARROW = str.maketrans("", "", "†‡–—−…·×±≤≥≈∅")


def _char_width(c: str) -> int:
    return 0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1


def _width(text: str) -> int:
    """Terminal columns of ``text``: wide (CJK) characters take two, combining marks none."""
    if text.isascii() or text.translate(_NARROW).isascii():  # numbers and most labels: one column a character
        return len(text)
    return sum(map(_char_width, text))


def _head(text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` columns."""
    if _width(text) <= width:
        return text
    used = 0
    for i, c in enumerate(text):
        used += _char_width(c)
        if used > width:
            return text[:i]
    return text


def shorten(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal columns: whole when it fits, else its start and its end around "…"
    (labels that share a prefix, ``intent_book_…``, differ at the end).

    >>> shorten("a_very_long_label_name_x", 12)
    'a_very…ame_x'
    """
    if _width(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    back = (width - 1) // 2
    front = _head(text, width - 1 - back)
    end = _head(text[::-1], back)[::-1] if back else ""
    while end and unicodedata.combining(end[0]):  # a mark whose letter was cut off would sit on the "…"
        end = end[1:]
    return front + "…" + end


def wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` terminal columns, the first after ``first`` and
    the others after ``rest`` (a word longer than a line is broken where it must be).

    >>> wrap("one two three four", 10, "- ", "  ")
    ['- one two', '  three', '  four']
    """
    lines: list[str] = []
    line, used = first, _width(first)
    fresh = True  # nothing on the line but its indent
    for word in text.split(" "):
        size = _width(word)
        if not fresh and used + 1 + size > width:
            lines.append(line)
            line, used, fresh = rest, _width(rest), True
        if not fresh:
            line, used = line + " ", used + 1
        while used + size > width and size > 0:  # a word longer than a line
            room = max(width - used, 1)
            part = _head(word, room) or word[:1]
            lines.append(line + part)
            word = word[len(part) :]
            size = _width(word)
            line, used = rest, _width(rest)
        line, used, fresh = line + word, used + size, False
    lines.append(line)
    return [ln.rstrip() for ln in lines]


def terminal_width() -> int:
    """The width of a text report: the terminal's, from :data:`MIN_WIDTH` to :data:`WIDTH` columns, when standard
    output is a terminal; :data:`WIDTH` otherwise (a pipe, a file, a notebook, a test), so the text is the same
    wherever it is made."""
    stream = sys.stdout
    try:
        tty = stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return WIDTH
    return max(MIN_WIDTH, min(WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns))


class _Marks:
    """The labels (and system names) of one report that read alike once shortened, each given a number shown after
    it (``xxxx…yyyy [2]``) wherever it is shortened, so that rows and columns naming them read apart; a note gives
    them whole. Setting the report's tables records each shortened label as shown (:meth:`saw`); the labels shown
    as one text are numbered (:meth:`number`), and the tables are set again with their numbers."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self._seen: dict[str, dict[str, None]] = {}  # shown → the whole labels shown so, in the order seen
        self._order: dict[str, None] = {}  # every whole label shortened, in the order seen

    def saw(self, shown: str, whole: str) -> None:
        """``whole`` was shown as ``shown``."""
        self._seen.setdefault(shown, {})[whole] = None
        self._order[whole] = None

    def number(self) -> bool:
        """Number the labels that read alike and have no number yet; whether there were any."""
        alike = {whole for shown, wholes in self._seen.items() if len(wholes) > 1 for whole in wholes if whole != shown}
        new = [whole for whole in self._order if whole in alike and whole not in self.numbers]
        for whole in new:
            self.numbers[whole] = len(self.numbers) + 1
        return bool(new)

    def mark(self, whole: str) -> str:
        """What follows ``whole`` where it is shortened: `` [n]``, or nothing."""
        n = self.numbers.get(whole)
        return "" if n is None else f" [{n}]"

    def note(self) -> str | None:
        """The note that gives each numbered label whole."""
        if not self.numbers:
            return None
        listed = "; ".join(f"[{n}] '{whole}'" for whole, n in self.numbers.items())
        return f"shortened labels or names that would read alike are numbered; in full: {listed}"


class _Prefixed(Label):
    """A label after a prefix, as a numbered confusion matrix's rows start (``3 NN``): shortened as one text, and
    numbered as the label it holds when that reads like another (:class:`_Marks`)."""

    prefix: str
    label: str

    def __new__(cls, prefix: str, label: str) -> _Prefixed:
        self = super().__new__(cls, prefix + label)
        self.prefix, self.label = prefix, label
        return self


@dataclass
class _Column:
    """A column as set: its title, its cells' texts and kinds (``num``, ``label``, ``text``), its alignment; the
    labels among them whole (shortened labels that read alike are numbered, ``marks``)."""

    head: str
    head_label: bool
    cells: list[str]
    kinds: list[str]
    left: bool
    tied: bool  # an interval beside its score: set in the same part as the column before it
    wholes: list[str] = field(default_factory=list)  # each label cell's label whole ("" for another cell)
    prefixes: list[str] = field(default_factory=list)  # what is shown before it (a numbered matrix's row number)
    head_whole: str = ""
    marks: _Marks | None = None

    def __post_init__(self) -> None:
        sizes = [_width(c) for c in self.cells]
        words = max((_width(w) for w in self.head.split(" ")), default=0)
        self.natural = max([_width(self.head), *sizes])
        least = [
            s if k == "num" else min(s, _MIN_LABEL if k == "label" else _MIN_TEXT) for s, k in zip(sizes, self.kinds)
        ]
        head_least = min(_width(self.head), _MIN_LABEL) if self.head_label else min(words, self.natural)
        self.least = max([head_least, *least])
        self.width = self.natural

    def lines(self, i: int) -> list[str]:
        """The lines of cell ``i`` (``-1``: the title) at the column's width."""
        text, kind = (self.head, "label" if self.head_label else "text") if i < 0 else (self.cells[i], self.kinds[i])
        if kind == "label":
            if i < 0:
                return [self._label(text, self.head_whole, "")]
            return [self._label(text, self.wholes[i], self.prefixes[i])]
        if kind == "num" or _width(text) <= self.width:
            return [text]
        return wrap(text, self.width)

    def _label(self, text: str, whole: str, prefix: str) -> str:
        """A label (``text``: ``prefix`` and the label ``whole``, shortened to its limit) at the column's width, with
        its number when it has one."""
        shown = text if _width(text) <= self.width else shorten(text, self.width)
        if self.marks is None or shown == prefix + whole:
            return shown
        self.marks.saw(shown, whole)
        mark = self.marks.mark(whole)
        room = _width(shown) - _width(prefix) - len(mark)
        return prefix + shorten(whole, room) + mark if mark and room >= 3 else shown


def _pad(text: str, width: int, left: bool) -> str:
    fill = " " * (width - _width(text))
    return text + fill if left else fill + text


def _cell(value: Any, digits: int, limit: int) -> tuple[str, str, str, str]:
    """A cell's text and kind, and for a label the label whole and what is shown before it: numbers as
    :func:`format_number` writes them, labels shortened to ``limit``."""
    if type(value) in _NUMBERS:
        return format_number(value, digits), "num", "", ""
    if isinstance(value, _Prefixed):
        return shorten(visible(value), limit), "label", visible(value.label), visible(value.prefix)
    if isinstance(value, Label):
        whole = visible(value)
        return shorten(whole, limit), "label", whole, ""
    if isinstance(value, str):
        return visible(value), "text", "", ""
    return visible(format_number(value, digits)), "num", "", ""


def _columns(table: Table, digits: int, marks: _Marks | None = None) -> list[_Column]:
    index = max(1, min(table.index, len(table.columns)))
    out = []
    for i, title in enumerate(table.columns):
        limit = LABEL_WIDTH if i < index else CELL_LABEL_WIDTH
        cells = [_cell(row[i], digits, limit) for row in table.rows]
        head_label = isinstance(title, Label)
        head = shorten(visible(title), HEAD_LABEL_WIDTH) if head_label else visible(title)
        tied = i > index and bool(cells) and all(isinstance(row[i], Bounds) for row in table.rows)
        texts, kinds, wholes, prefixes = ([c[k] for c in cells] for k in range(4))
        out.append(_Column(head, head_label, texts, kinds, i < index, tied, wholes, prefixes, visible(title), marks))
    return out


def _span(columns: Sequence[_Column]) -> int:
    return sum(c.width for c in columns) + 2 * (len(columns) - 1)


def _shrink(columns: Sequence[_Column], width: int) -> None:
    """Narrow the widest columns that may be narrowed (text wraps, labels shorten) until they fit ``width``."""
    while _span(columns) > width:
        slack = [c for c in columns if c.width > c.least]
        if not slack:
            return
        widest = max(slack, key=lambda c: c.width)
        widest.width -= 1


def _groups(columns: Sequence[_Column]) -> list[list[_Column]]:
    """The columns after the index, a score and its interval kept together."""
    groups: list[list[_Column]] = []
    for c in columns:
        if c.tied and groups:
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


def _pack(index_width: int, groups: Sequence[Sequence[_Column]], width: int) -> list[list[_Column]]:
    """The groups packed into parts in order, each part within ``width`` beside an index ``index_width`` wide (a
    group too wide for a part of its own is one anyway)."""
    parts: list[list[_Column]] = []
    used = width + 1
    for group in groups:
        size = sum(c.natural for c in group) + 2 * len(group)
        if parts and used + size <= width:
            parts[-1].extend(group)
            used += size
        else:
            parts.append(list(group))
            used = index_width + size
    return parts


def _overflows(index_width: int, parts: Sequence[Sequence[_Column]], width: int) -> int:
    """How many of ``parts`` are wider than ``width`` beside an index ``index_width`` wide."""
    return sum(index_width + sum(c.natural + 2 for c in part) > width for part in parts)


def _parts(columns: list[_Column], index: int, width: int) -> list[list[_Column]]:
    """The columns of a table set in parts that fit ``width``: all at once when they fit (wrapping a text column if
    that is enough), else the fewest parts, each with the index columns (narrowed as little as that allows)."""
    if _span(columns) <= width:
        return [columns]
    _shrink(columns, width)
    if _span(columns) <= width:
        return [columns]
    for c in columns:
        c.width = c.natural
    head, rest = columns[:index], columns[index:]
    if not rest:
        _shrink(head, width)
        return [head]
    if _span(head) + 2 + max(c.natural for c in rest) <= width:
        for c in head:  # set in parts, a label naming a row keeps its width: one part fewer is not worth a label
            if "label" in c.kinds:
                c.least = c.natural
    natural = _span(head)
    least = sum(c.least for c in head) + 2 * (len(head) - 1)
    groups = [  # a score and its interval together, unless they do not fit beside the narrowest index
        part
        for group in _groups(rest)
        for part in ([group] if least + sum(c.natural + 2 for c in group) <= width else [[c] for c in group])
    ]
    packed = _pack(least, groups, width)
    fewest, overflow = len(packed), _overflows(least, packed, width)

    def worse(index_width: int) -> bool:
        parts = _pack(index_width, groups, width)
        return len(parts) > fewest or _overflows(index_width, parts, width) > overflow

    chosen = natural
    while chosen > least and worse(chosen):
        chosen -= 1
    _shrink(head, chosen)
    parts = []
    for part in _pack(chosen, groups, width):
        for c in part:
            c.width = c.natural
        _shrink(part, width - _span(head) - 2)
        parts.append(head + part)
    return parts


def _set(columns: Sequence[_Column], n_rows: int) -> list[str]:
    lines = []
    for i in range(-1, n_rows):
        cells = [c.lines(i) for c in columns]
        for k in range(max(len(x) for x in cells)):
            parts = [_pad(x[k] if k < len(x) else "", c.width, c.left) for x, c in zip(cells, columns)]
            lines.append("  ".join(parts).rstrip())
        if i == -1:
            lines.append("  ".join("-" * c.width for c in columns))
    return lines


def text_table(table: Table, digits: int, width: int | None = None, marks: _Marks | None = None) -> list[str]:
    """A table as aligned lines: the columns naming its rows left-aligned, the others right-aligned; with ``width``,
    in parts that each fit it (see :func:`render_report_text`), a part after the first under a ``(continued)``
    title line. ``marks`` records the labels shortened and numbers those that read alike."""
    columns = _columns(table, digits, marks)
    if width is None:
        return _set(columns, len(table.rows))
    index = max(1, min(table.index, len(columns)))
    lines: list[str] = []
    for n, part in enumerate(_parts(columns, index, width)):
        if n:
            lines += ["", *wrap(f"{visible(table.title)} (continued):", width)]
        lines += _set(part, len(table.rows))
    return lines


def _parts_of(table: Table, digits: int, width: int) -> int:
    """How many parts ``table`` is set in at ``width``."""
    return len(_parts(_columns(table, digits), max(1, min(table.index, len(table.columns))), width))


def _numbered(table: Table, digits: int, width: int) -> Table:
    """A table whose column titles are labels (the confusion matrix's predicted labels) with its columns numbered
    instead where shortened titles would read alike, or where numbers set it in fewer parts: each row that names one
    of those labels starts with its number ("3 NN"), and the title says so."""
    index = max(1, min(table.index, len(table.columns)))
    heads = [t for t in table.columns[index:] if isinstance(t, Label)]
    if not heads or all(_width(visible(t)) <= HEAD_LABEL_WIDTH for t in heads):
        return table
    number = {t: n for n, t in enumerate(heads, start=1)}
    columns = tuple(str(number[t]) if isinstance(t, Label) and t in number else t for t in table.columns)
    rows = tuple(
        (_Prefixed(f"{number[row[0]]} ", row[0]) if row[0] in number else row[0], *row[1:]) for row in table.rows
    )
    numbered = Table(f"{table.title}; columns numbered as the rows", columns, rows, table.key, table.index)
    shown = [shorten(visible(t), HEAD_LABEL_WIDTH) for t in heads]
    if len(set(shown)) < len(shown) or _parts_of(numbered, digits, width) < _parts_of(table, digits, width):
        return numbered
    return table


#: The indent of the signature's lines after its first.
SIGNATURE_INDENT = "  "


def _pieces(text: str, separator: str) -> list[str]:
    """``text`` cut after each ``separator``: the pieces join back into it."""
    parts = text.split(separator)
    return [part + separator for part in parts[:-1]] + [parts[-1]]


def signature_lines(signature: str, width: int) -> list[str]:
    """The signature line (``signature: clfeval:…|task:…|…``) in lines of at most ``width`` columns, broken after its
    ``|`` separators (after a ``,`` in a part too long for a line, anywhere in a piece still too long), the lines
    after the first indented by :data:`SIGNATURE_INDENT`: deleting each line break and the indent after it gives the
    signature back.

    >>> signature_lines("signature: clfeval:0.2.0|task:single-label|labels:union(4)|ci:none", 40)
    ['signature: clfeval:0.2.0|', '  task:single-label|labels:union(4)|', '  ci:none']
    """
    room = max(width - len(SIGNATURE_INDENT), 1)
    pieces: list[str] = []
    for part in _pieces(signature, "|"):
        for piece in _pieces(part, ",") if _width(part) > room else [part]:
            while _width(piece) > room:  # a system's name longer than a line
                head = _head(piece, room) or piece[:1]
                pieces.append(head)
                piece = piece[len(head) :]
            pieces.append(piece)
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line.strip() and _width(line) + _width(piece) > width:
            lines.append(line)
            line = SIGNATURE_INDENT
        line += piece
    lines.append(line)
    return lines


def render_report_text(report: Report, digits: int, width: int | None = None) -> str:
    """A :class:`Report` as plain text (control characters in any text shown as escapes), every line within
    ``width`` columns (default: :func:`terminal_width`), the closing signature broken after its ``|`` separators
    (:func:`signature_lines`). Labels (and system names) that read alike once shortened are numbered wherever they
    are shortened, and a note gives them whole."""
    width = terminal_width() if width is None else width
    marks = _Marks()
    tables = [_numbered(t, digits, width) for t in report.tables]
    body = _tables_text(tables, digits, width, marks)
    if marks.number():  # set again, each label that reads like another with its number wherever it is shortened
        body = _tables_text(tables, digits, width, marks)
    lines = [*wrap(visible(report.title), width), "", *body]
    if report.warnings:
        lines.append("warnings:")
        for w in report.warnings:
            lines.extend(wrap(visible(w), width, "  ! ", "    "))
        lines.append("")
    notes = list(report.notes)
    signature = notes.pop() if notes and notes[-1].startswith("signature: ") else None
    shortened = marks.note()
    if shortened is not None:
        notes.append(shortened)
    lines.append("notes:")
    for n in notes:
        lines.extend(wrap(visible(n), width, "  - ", "    "))
    if signature is not None:  # what decides the numbers: broken after a "|", so the lines join back into it
        lines.extend(signature_lines(visible(signature), width))
    return "\n".join(lines) + "\n"


def _tables_text(tables: Sequence[Table], digits: int, width: int, marks: _Marks) -> list[str]:
    """The report's tables, each under its title and followed by a blank line."""
    lines: list[str] = []
    for table in tables:
        lines.extend(wrap(f"{visible(table.title)}:", width))
        lines.extend(text_table(table, digits, width, marks))
        lines.append("")
    return lines


def render_text(
    result: Result,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
    measures: Any = None,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """The terminal report of a result: the measures ``measures`` names (default: the default measures), the full
    notes with ``verbose``, every line within ``width`` columns (default: :func:`terminal_width`)."""
    from clfeval.report import report_of

    return render_report_text(report_of(result, matrix=matrix, measures=measures, verbose=verbose), digits, width)
