"""clfeval: evaluate classifiers with every averaged score named, over a stated label set.

>>> import clfeval
>>> result = clfeval.score(["a", "b", "b"], ["a", "b", "a"])
>>> result.averages["macro"]["f"]   # AF: mean of per-label F1
0.6666666666666666

The names below load on first use (PEP 562), so ``import clfeval`` and the command's start-up import only
what a call needs. The functions ``clfeval.score`` and ``clfeval.read`` keep their names over the subpackages
``clfeval.score`` and ``clfeval.read``: import a module of those as ``from clfeval.read import typed`` (the
form ``import clfeval.read.typed as typed`` finds the function first).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from clfeval._version import __version__ as __version__  # re-exported (in __all__)

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
        "clfeval.read.inputs",
    ),
    **dict.fromkeys(["Reading", "Training"], "clfeval.read.reading"),
    "MultiLabel": "clfeval.count.labelsets",
    "Scoring": "clfeval.score.scoring",
    "CI": "clfeval.infer.methods",
    "Test": "clfeval.infer.comparison",
    **dict.fromkeys(["COUNTS_SCHEMA", "counts_from_dict", "counts_to_dict"], "clfeval.count.document"),
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
    **dict.fromkeys(["ENGINES", "FORMATS", "count_label_sets", "count_labels", "count_systems"], "clfeval.read"),
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
        "clfeval.score",
    ),
    "Finagle": "clfeval.score.finagle",
    "Accumulator": "clfeval.accumulator",
}

#: The integrations: modules found as attributes on first use (``clfeval.mlflow.log``), as after an ``import
#: clfeval.mlflow``; each imports its library only when called.
_MODULES = frozenset({"hf", "mlflow", "sklearn"})

__all__ = sorted([*_HOMES, "__version__"])


class _Surface(types.ModuleType):
    """The package module: the import system binds each imported subpackage to its parent, and the subpackage
    ``clfeval.score`` must not take the place of the function ``clfeval.score`` (code imports the subpackage's
    modules by their full names, never as an attribute of ``clfeval``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Surface


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (and kept)."""
    if name in _MODULES:
        return importlib.import_module(f"clfeval.{name}")
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'clfeval' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_MODULES})
