"""Reading: files, arrays and data frames → counts. Knows formats and reports bad input precisely; never scores."""

from clfeval.read.arrays import count_label_sets, count_labels, count_systems, frequencies_of
from clfeval.read.columns import parse_column
from clfeval.read.engine import ENGINES, Engine
from clfeval.read.files import count_file, count_files, load_counts, train_frequencies
from clfeval.read.formats import FORMATS, TableOptions
from clfeval.read.matrix import MATRIX_ORIENTATIONS, read_matrix

__all__ = [
    "ENGINES",
    "FORMATS",
    "MATRIX_ORIENTATIONS",
    "Engine",
    "TableOptions",
    "count_file",
    "count_files",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "frequencies_of",
    "load_counts",
    "parse_column",
    "read_matrix",
    "train_frequencies",
]
