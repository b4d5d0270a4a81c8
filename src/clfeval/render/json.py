"""JSON output: the versioned contracts of :meth:`Scores.to_dict`, :meth:`Comparison.to_dict` and
:meth:`CrossValidation.to_dict`."""

from __future__ import annotations

from clfeval.infer.comparison import Comparison
from clfeval.infer.crossvalidation import CrossValidation
from clfeval.score.result import Scores

__all__ = ["render_json"]


def render_json(
    result: Scores | Comparison | CrossValidation,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
) -> str:
    """``result.to_dict()`` as indented JSON (labels are strings; NaN is ``null``)."""
    return result.to_json() + "\n"
