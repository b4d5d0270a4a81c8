"""Reading: files, arrays and data frames → counts. Knows formats and reports bad input precisely; never scores.

The readers (:mod:`clfeval.inputs.readers`) return :class:`Counted`: counts with their provenance and blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.inputs.arrays import count_label_sets, count_labels, count_systems, frequencies_of
    from clfeval.inputs.columns import parse_column
    from clfeval.inputs.engine import ENGINES, Engine
    from clfeval.inputs.formats import FORMATS, TableOptions
    from clfeval.inputs.matrix import MATRIX_ORIENTATIONS


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
    "count_label_sets": "clfeval.inputs.arrays",
    "count_labels": "clfeval.inputs.arrays",
    "count_systems": "clfeval.inputs.arrays",
    "frequencies_of": "clfeval.inputs.arrays",
    "parse_column": "clfeval.inputs.columns",
    "ENGINES": "clfeval.inputs.engine",
    "Engine": "clfeval.inputs.engine",
    "FORMATS": "clfeval.inputs.formats",
    "TableOptions": "clfeval.inputs.formats",
    "MATRIX_ORIENTATIONS": "clfeval.inputs.matrix",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
