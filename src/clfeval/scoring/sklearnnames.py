"""scikit-learn's names for scores, read where a clfeval name is asked for: a binary problem's ``f1``,
``precision`` and ``recall`` (``average="binary"``: the positive class's values), and the names of
``classification_report`` rows and of scorers (``macro avg``, ``f1_macro``), which point to clfeval's names.

scikit-learn's ``average="macro"`` and ``classification_report``'s ``macro avg`` are the mean of the per-label values:
clfeval's ``macro`` (``macro.f1``), not ``macro_fa`` (the F of the macro precision and recall).
"""

from __future__ import annotations

import re

from clfeval.scoring.ratios import f_key

__all__ = ["REPORT_ROWS", "binary_measure", "report_name_hint"]

#: classification_report's rows (and ``average=`` values) → clfeval's average of the same numbers.
REPORT_ROWS = {"macro avg": "macro", "weighted avg": "weighted", "micro avg": "micro", "samples avg": "samples"}
#: classification_report's columns and scorer names' measures → clfeval's report names (``f`` for F_β).
_MEASURES = {"f1-score": "f", "f1_score": "f", "f1": "f", "f": "f", "precision": "precision", "recall": "recall",
             "jaccard": "jaccard"}  # fmt: skip
_SCORER = re.compile(r"(?P<measure>f1|precision|recall|jaccard)_(?P<average>macro|micro|weighted|samples)")
_REVERSED = re.compile(r"(?P<average>macro|micro|weighted|samples)_(?P<measure>f1|precision|recall|jaccard)")


def binary_measure(name: str, beta: float) -> str | None:
    """The per-label measure a binary problem's name reads for its positive class (``f1`` → ``f`` for β = 1,
    ``precision``, ``recall``), or ``None`` for any other name.

    >>> binary_measure("f1", 1.0), binary_measure("f2", 2.0), binary_measure("macro.f1", 1.0)
    ('f', 'f', None)
    """
    if name in ("precision", "recall"):
        return name
    return "f" if name == f_key(beta) else None


def _named(measure: str, f_name: str) -> str:
    return f_name if measure == "f" else measure


def report_name_hint(name: str, f_name: str) -> str | None:
    """Where a scikit-learn name (a ``classification_report`` row or column, a scorer's ``f1_macro``) is in a clfeval
    result, in words; ``None`` for any other name.

    >>> print(report_name_hint("macro avg", "f1"))  # doctest: +NORMALIZE_WHITESPACE
    'macro avg' is classification_report's row of the macro average: read result['macro.f1'], result['macro.precision']
    and result['macro.recall'] (scikit-learn's macro average is clfeval's macro, not macro_fa)
    """
    folded = name.strip().casefold()
    row, _, column = folded.partition("/") if "/" in folded else folded.partition(".")
    if row in REPORT_ROWS:
        average = REPORT_ROWS[row]
        measure = _MEASURES.get(column)
        if measure is not None:
            return f"{name!r} is result['{average}.{_named(measure, f_name)}']" + _macro_note(average)
        return (
            f"{name!r} is classification_report's row of the {average} average: read result['{average}.{f_name}'], "
            f"result['{average}.precision'] and result['{average}.recall']" + _macro_note(average)
        )
    found = _SCORER.fullmatch(folded) or _REVERSED.fullmatch(folded)
    if found is not None:
        average, measure = found["average"], _MEASURES[found["measure"]]
        return f"{name!r} is result['{average}.{_named(measure, f_name)}'] here" + _macro_note(average)
    if folded in ("f1-score", "f1_score"):
        return (
            f"{name!r}: a binary problem's F1 is result['{f_name}'] (pos_label=), an average's result['macro.{f_name}']"
        )
    if folded == "support":
        return "'support' is each label's: result.per_label[label].support; the instances: result['n_instances']"
    return None


def _macro_note(average: str) -> str:
    return " (scikit-learn's macro average is clfeval's macro, not macro_fa)" if average == "macro" else ""
