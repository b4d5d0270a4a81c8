"""clfeval: evaluate classifiers with every averaged score named, over a stated label set.

>>> import clfeval
>>> result = clfeval.score(["a", "b", "b"], ["a", "b", "a"])
>>> result.averages["macro"]["f"]   # AF: mean of per-label F1
0.6666666666666666

The names below load on first use (PEP 562), so ``import clfeval`` and the command's start-up import only
what a call needs; type checkers see each name's own type through the imports under ``TYPE_CHECKING``. The
subpackages are named apart from the functions (``clfeval.inputs`` reads, ``clfeval.scoring`` scores), so
``import clfeval.inputs.typed`` and ``clfeval.score`` both mean what they say.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from clfeval._version import __version__ as __version__  # re-exported (in __all__)

if TYPE_CHECKING:  # the names' own types, for type checkers (at run time each loads on first use)
    from clfeval.accumulator import Accumulator
    from clfeval.api import audit_file, compare, cv, finagle, score
    from clfeval.count import (
        ConfusionCounts,
        JointCounts,
        LabelCounts,
        LabelFrequencies,
        LabelSetCounts,
        PairedCounts,
        SplitMatrix,
    )
    from clfeval.count.invalid import INVALID_POLICIES
    from clfeval.count.labelsets import MultiLabel
    from clfeval.errors import (
        ClfevalError,
        ClfevalWarning,
        InputError,
        MatrixError,
        OptionError,
    )
    from clfeval.infer import (
        ALTERNATIVES,
        INTERVAL_METHODS,
        TESTS,
        Comparison,
        CrossValidation,
        PairTest,
        with_intervals,
    )
    from clfeval.infer.comparison import Test
    from clfeval.infer.methods import CI
    from clfeval.infer.slices import Sliced
    from clfeval.infer.slicing import FAIRNESS, GROUP_TESTS, Slicing
    from clfeval.inputs import (
        ENGINES,
        FORMATS,
        count_label_sets,
        count_labels,
        count_systems,
    )
    from clfeval.inputs.options import Reading, Training
    from clfeval.inputs.readers import (
        Counted,
        counts_of_frame,
        load_counts,
        read,
        read_confidences,
        read_folds,
        read_matrix,
        save_counts,
    )
    from clfeval.inverse import (
        Audit,
        Conversion,
        LabelConversion,
        convert,
        convert_labels,
    )
    from clfeval.inverse.audit import audit
    from clfeval.kinds import KINDS
    from clfeval.kinds.countfile import (
        COUNTS_SCHEMA,
        counts_from_dict,
        counts_to_dict,
    )
    from clfeval.scoring import (
        AVERAGES,
        LABEL_SOURCES,
        MEASURES,
        Intervals,
        LabelScores,
        Scores,
        precision_shift,
        recall_shift,
    )
    from clfeval.scoring.finagle import Finagle
    from clfeval.scoring.options import Scoring
    from clfeval.scoring.registration import register_measure, unregister_measure
    from clfeval.spans import SCHEMES, SpanCounts, Spans

#: Each public name and the module that defines it.
_HOMES: dict[str, str] = {
    **dict.fromkeys(["audit_file", "compare", "cv", "finagle", "score"], "clfeval.api"),
    **dict.fromkeys(
        [
            "Counted",
            "counts_of_frame",
            "load_counts",
            "read",
            "read_confidences",
            "read_folds",
            "read_matrix",
            "save_counts",
        ],
        "clfeval.inputs.readers",
    ),
    **dict.fromkeys(["Reading", "Training"], "clfeval.inputs.options"),
    "MultiLabel": "clfeval.count.labelsets",
    "INVALID_POLICIES": "clfeval.count.invalid",
    "Scoring": "clfeval.scoring.options",
    "CI": "clfeval.infer.methods",
    "Test": "clfeval.infer.comparison",
    **dict.fromkeys(["Slicing", "GROUP_TESTS", "FAIRNESS"], "clfeval.infer.slicing"),
    "Sliced": "clfeval.infer.slices",
    **dict.fromkeys(["COUNTS_SCHEMA", "counts_from_dict", "counts_to_dict"], "clfeval.kinds.countfile"),
    **dict.fromkeys(
        [
            "ConfusionCounts",
            "JointCounts",
            "LabelCounts",
            "LabelFrequencies",
            "LabelSetCounts",
            "PairedCounts",
            "SplitMatrix",
        ],
        "clfeval.count",
    ),
    **dict.fromkeys(["ClfevalError", "ClfevalWarning", "InputError", "MatrixError", "OptionError"], "clfeval.errors"),
    **dict.fromkeys(["ENGINES", "FORMATS", "count_label_sets", "count_labels", "count_systems"], "clfeval.inputs"),
    **dict.fromkeys(["Audit", "Conversion", "LabelConversion", "convert", "convert_labels"], "clfeval.inverse"),
    "audit": "clfeval.inverse.audit",
    **dict.fromkeys(
        ["ALTERNATIVES", "INTERVAL_METHODS", "TESTS", "Comparison", "CrossValidation", "PairTest", "with_intervals"],
        "clfeval.infer",
    ),
    **dict.fromkeys(
        [
            "AVERAGES",
            "LABEL_SOURCES",
            "Intervals",
            "LabelScores",
            "MEASURES",
            "Scores",
            "precision_shift",
            "recall_shift",
        ],
        "clfeval.scoring",
    ),
    "Finagle": "clfeval.scoring.finagle",
    **dict.fromkeys(["register_measure", "unregister_measure"], "clfeval.scoring.registration"),
    "Accumulator": "clfeval.accumulator",
    "KINDS": "clfeval.kinds",
    **dict.fromkeys(["SCHEMES", "SpanCounts", "Spans"], "clfeval.spans"),
}

#: The integrations (clfeval/integrations/) by their short names: modules found as attributes on first use
#: (``clfeval.mlflow.log``), as after an ``import clfeval.mlflow``; each imports its library only when called.
_MODULES = frozenset({"hf", "mlflow", "sklearn"})

#: The public names (written out for tools that read them statically; a test checks them against _HOMES).
__all__ = [
    "FAIRNESS",
    "GROUP_TESTS",
    "Sliced",
    "Slicing",
    "ALTERNATIVES",
    "AVERAGES",
    "Accumulator",
    "Audit",
    "CI",
    "COUNTS_SCHEMA",
    "ClfevalError",
    "ClfevalWarning",
    "Comparison",
    "ConfusionCounts",
    "Conversion",
    "Counted",
    "CrossValidation",
    "ENGINES",
    "FORMATS",
    "Finagle",
    "INTERVAL_METHODS",
    "INVALID_POLICIES",
    "InputError",
    "Intervals",
    "JointCounts",
    "KINDS",
    "LABEL_SOURCES",
    "LabelConversion",
    "LabelCounts",
    "LabelFrequencies",
    "LabelScores",
    "LabelSetCounts",
    "MEASURES",
    "MatrixError",
    "MultiLabel",
    "OptionError",
    "PairTest",
    "PairedCounts",
    "Reading",
    "SCHEMES",
    "Scores",
    "Scoring",
    "SpanCounts",
    "Spans",
    "SplitMatrix",
    "TESTS",
    "Test",
    "Training",
    "__version__",
    "audit",
    "audit_file",
    "compare",
    "convert",
    "convert_labels",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "counts_from_dict",
    "counts_of_frame",
    "counts_to_dict",
    "cv",
    "finagle",
    "load_counts",
    "precision_shift",
    "read",
    "read_confidences",
    "read_folds",
    "read_matrix",
    "recall_shift",
    "register_measure",
    "save_counts",
    "score",
    "unregister_measure",
    "with_intervals",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (and kept)."""
    if name in _MODULES:
        return importlib.import_module(f"clfeval.integrations.{name}")
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'clfeval' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_MODULES})
