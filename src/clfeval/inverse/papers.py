"""Tables of reported figures, as papers print them: per-label precision, recall, F1 and support, plus averages.

Read from CSV, TSV, a Markdown table, or scikit-learn's ``classification_report`` text. Rows whose
label is an average name (``macro``, ``macro avg``, ``micro``, ``weighted avg``, ``average`` …)
are the reported averages; every other row is a label. Blank cells are allowed.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass

from clfeval.errors import InputError, OptionError
from clfeval.inputs.text import read_text
from clfeval.inverse.conversion import Reported, reported

__all__ = ["AVERAGE_ROWS", "FigureTable", "read_figure_table", "read_label_figures"]

#: Row labels that name an average (lower case, spaces collapsed) → the average they claim to be, if any.
AVERAGE_ROWS: Mapping[str, str | None] = {
    "macro": "macro",
    "macro avg": "macro",
    "macro average": "macro",
    "macro-average": "macro",
    "macro-averaged": "macro",
    "macro f1": "macro",
    "micro": "micro",
    "micro avg": "micro",
    "micro average": "micro",
    "micro-average": "micro",
    "weighted": "weighted",
    "weighted avg": "weighted",
    "weighted average": "weighted",
    "samples avg": "samples",
    "samples": "samples",
    "average": None,
    "avg": None,
    "avg / total": None,
    "mean": None,
    "overall": None,
    "all": None,
    "total": None,
    "accuracy": "accuracy",
}
_COLUMNS = {
    "label": "label",
    "class": "label",
    "name": "label",
    "": "label",
    "precision": "precision",
    "p": "precision",
    "prec": "precision",
    "pre": "precision",
    "recall": "recall",
    "r": "recall",
    "rec": "recall",
    "f1": "f",
    "f1-score": "f",
    "f1 score": "f",
    "f-score": "f",
    "f": "f",
    "f-measure": "f",
    "fscore": "f",
    "support": "support",
    "n": "support",
    "count": "support",
    "instances": "support",
    "accuracy": "accuracy",
    "acc": "accuracy",
}


@dataclass(frozen=True)
class FigureTable:
    """A reported table: label rows and average rows, each (name, line, measure → figure text)."""

    source: str
    labels: tuple[tuple[str, int, Mapping[str, str]], ...]
    averages: tuple[tuple[str, int, Mapping[str, str]], ...]


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().strip("*_`").strip().lower())


def _split_lines(text: str) -> list[tuple[int, list[str]]]:
    """Cells per non-blank line: Markdown pipes, tabs, commas (CSV), else runs of 2+ spaces or whitespace."""
    lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        return []
    if all(line.strip().startswith("|") for _, line in lines):
        out = []
        for i, line in lines:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) or not c for c in cells):
                continue  # the separator row
            out.append((i, cells))
        return out
    if all("\t" in line for _, line in lines):
        return [(i, [c.strip() for c in line.split("\t")]) for i, line in lines]
    if all("," in line for _, line in lines):
        return [(i, [c.strip() for c in next(csv.reader([line]))]) for i, line in lines]
    # scikit-learn's classification_report: a header without a label column; labels may hold single spaces
    return [(i, [c for c in re.split(r"\s{2,}", line.strip())]) for i, line in lines]


def read_figure_table(path: str) -> FigureTable:
    """Read a table of reported figures (see the module docstring).

    Raises
    ------
    InputError
        Naming the file and line: no header naming precision/recall/F1/support, a row with too
        many cells, a figure that is not a number.
    """
    text = read_text(path, expected="a table of reported figures (label, precision, recall, f1, support)")
    rows = _split_lines(text)
    if not rows:
        raise InputError("is empty: expected a header (label, precision, recall, f1, support) and rows", path)
    header_line, header = rows[0]
    found = [_COLUMNS.get(_normal(h)) for h in header]
    unknown = [h for h, n in zip(header, found) if n is None]
    names = [n for n in found if n is not None]
    if "label" not in names:  # classification_report: the header has no label column
        names = ["label"] + names
    if unknown or not {"precision", "recall", "f", "support", "accuracy"} & set(names):
        raise InputError(
            f"the header should name the columns label, precision, recall, f1, support (accuracy); found "
            f"{', '.join(repr(h) for h in header)}",
            path,
            header_line,
        )
    labels: list[tuple[str, int, Mapping[str, str]]] = []
    averages: list[tuple[str, int, Mapping[str, str]]] = []
    for line, cells in rows[1:]:
        if len(cells) > len(names):
            raise InputError(f"expected at most {len(names)} cells, found {len(cells)}", path, line)
        if len(cells) < len(names) and _normal(cells[0]) in ("accuracy",):
            cells = [cells[0]] + [""] * (len(names) - len(cells)) + cells[1:]  # accuracy row: value, support
        values = dict(zip(names, cells + [""] * (len(names) - len(cells))))
        label = values.pop("label")
        figures = {k: v.strip().strip("*") for k, v in values.items() if v.strip()}
        for k, v in figures.items():
            try:
                reported(v, count=k == "support")
            except OptionError as exc:
                raise InputError(f"the {k} of {label!r}: {exc}", path, line) from None
        (averages if _normal(label) in AVERAGE_ROWS else labels).append((label, line, figures))
    return FigureTable(path, tuple(labels), tuple(averages))


def read_label_figures(path: str, *, decimals: int | None = None) -> dict[str, dict[str, Reported]]:
    """The per-label figures of a table, ready for :func:`clfeval.inverse.convert_labels` (averages left out)."""
    table = read_figure_table(path)
    if not table.labels:
        raise InputError("holds no label rows (only averages)", path)
    out: dict[str, dict[str, Reported]] = {}
    for label, line, figures in table.labels:
        if label in out:
            raise InputError(f"the label {label!r} appears twice", path, line)
        out[label] = {
            k: reported(v, None if k == "support" else decimals, count=k == "support") for k, v in figures.items()
        }
    return out
