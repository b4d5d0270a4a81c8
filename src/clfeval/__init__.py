"""clfeval: evaluate classifiers with every averaged score named, over a stated label set.

>>> import clfeval
>>> result = clfeval.score(["a", "b", "b"], ["a", "b", "a"])
>>> result.averages["macro"]["f"]   # AF: mean of per-label F1
0.6666666666666666
"""

from clfeval._version import __version__
from clfeval.api import score, score_counts, score_file, score_matrix
from clfeval.count import ConfusionCounts, LabelCounts, LabelFrequencies, LabelSetCounts, SplitMatrix
from clfeval.errors import ClfevalError, InputError, MatrixError, OptionError
from clfeval.read import FORMATS, count_label_sets, count_labels
from clfeval.infer import INTERVAL_METHODS, with_intervals
from clfeval.score import AVERAGES, LABEL_SOURCES, Intervals, LabelScores, Scores

__all__ = [
    "AVERAGES",
    "ClfevalError",
    "ConfusionCounts",
    "FORMATS",
    "INTERVAL_METHODS",
    "InputError",
    "Intervals",
    "LABEL_SOURCES",
    "LabelCounts",
    "LabelFrequencies",
    "LabelScores",
    "LabelSetCounts",
    "MatrixError",
    "OptionError",
    "Scores",
    "SplitMatrix",
    "__version__",
    "count_label_sets",
    "count_labels",
    "score",
    "score_counts",
    "score_file",
    "score_matrix",
    "with_intervals",
]
