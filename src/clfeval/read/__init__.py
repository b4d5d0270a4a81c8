"""Reading: files, arrays and data frames → counts. Knows formats and reports bad input precisely; never scores.

The readers (:mod:`clfeval.read.inputs`) return :class:`Counted`: counts with their provenance and blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.read.arrays import count_label_sets, count_labels, count_systems, frequencies_of
    from clfeval.read.columns import parse_column
    from clfeval.read.engine import ENGINES, Engine
    from clfeval.read.formats import FORMATS, TableOptions
    from clfeval.read.matrix import MATRIX_ORIENTATIONS


__all__ = [
    "ENGINES",
    "FORMATS",
    "MATRIX_ORIENTATIONS",
    "Engine",
    "TableOptions",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "frequencies_of",
    "parse_column",
]

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "count_label_sets": "clfeval.read.arrays",
    "count_labels": "clfeval.read.arrays",
    "count_systems": "clfeval.read.arrays",
    "frequencies_of": "clfeval.read.arrays",
    "parse_column": "clfeval.read.columns",
    "ENGINES": "clfeval.read.engine",
    "Engine": "clfeval.read.engine",
    "FORMATS": "clfeval.read.formats",
    "TableOptions": "clfeval.read.formats",
    "MATRIX_ORIENTATIONS": "clfeval.read.matrix",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
