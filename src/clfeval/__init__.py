"""clfeval: evaluate classifiers with every averaged score named, over a stated label set.

>>> import clfeval
>>> result = clfeval.score(["a", "b", "b"], ["a", "b", "a"])
>>> result.averages["macro"]["f"]   # AF: mean of per-label F1
0.6666666666666666
"""

from clfeval._version import __version__
from clfeval.api import (audit_file, compare, compare_count_files, compare_counts, compare_files, counts_of_files,
                         counts_of_frame, cv, cv_count_files, cv_counts, cv_files, finagle, finagle_file, save_counts,
                         score, score_count_files, score_counts, score_file, score_matrix)
from clfeval.count.document import COUNTS_SCHEMA, counts_from_dict, counts_to_dict
from clfeval.count import (ConfusionCounts, JointCounts, LabelCounts, LabelFrequencies, LabelSetCounts, PairedCounts,
                           SplitMatrix)
from clfeval.errors import ClfevalError, InputError, MatrixError, OptionError
from clfeval.read import ENGINES, FORMATS, count_label_sets, count_labels, count_systems, load_counts
from clfeval.inverse import Audit, Conversion, LabelConversion, convert, convert_labels
from clfeval.inverse.audit import audit
from clfeval.infer import ALTERNATIVES, INTERVAL_METHODS, TESTS, Comparison, CrossValidation, PairTest, with_intervals
from clfeval.score import AVERAGES, LABEL_SOURCES, Intervals, LabelScores, Scores, precision_shift, recall_shift
from clfeval.score.finagle import Finagle

__all__ = [
    "ALTERNATIVES",
    "AVERAGES",
    "Audit",
    "COUNTS_SCHEMA",
    "ClfevalError",
    "Comparison",
    "ConfusionCounts",
    "Conversion",
    "CrossValidation",
    "ENGINES",
    "FORMATS",
    "Finagle",
    "INTERVAL_METHODS",
    "InputError",
    "Intervals",
    "JointCounts",
    "LABEL_SOURCES",
    "LabelConversion",
    "LabelCounts",
    "LabelFrequencies",
    "LabelScores",
    "LabelSetCounts",
    "MatrixError",
    "OptionError",
    "PairTest",
    "PairedCounts",
    "Scores",
    "SplitMatrix",
    "TESTS",
    "__version__",
    "audit",
    "audit_file",
    "compare",
    "compare_count_files",
    "compare_counts",
    "compare_files",
    "convert",
    "convert_labels",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "counts_from_dict",
    "counts_of_files",
    "counts_of_frame",
    "counts_to_dict",
    "cv",
    "cv_count_files",
    "cv_counts",
    "cv_files",
    "finagle",
    "finagle_file",
    "load_counts",
    "precision_shift",
    "recall_shift",
    "save_counts",
    "score",
    "score_count_files",
    "score_counts",
    "score_file",
    "score_matrix",
    "with_intervals",
]
