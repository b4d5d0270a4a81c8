"""Reading: files, arrays and data frames → counts. Knows formats and reports bad input precisely; never scores.

The readers (:mod:`clfeval.read.inputs`) return :class:`Counted`: counts with their provenance and blocks.
"""

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
