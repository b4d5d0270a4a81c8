"""JSON output: a result's versioned contract (:meth:`clfeval.result.Result.to_dict`; docs/json.md)."""

from __future__ import annotations

from typing import Any

from clfeval.result import Result

__all__ = ["render_json"]


def render_json(
    result: Result,
    *,
    digits: int = 4,
    matrix: bool = True,
    command: str | None = None,
    raw_csv: bool = False,
    measures: Any = None,
    verbose: bool = False,
    width: int | None = None,
) -> str:
    """``result.to_dict()`` as indented JSON (labels are strings; NaN is ``null``); ``matrix=False`` writes
    confusion matrices as ``null``."""
    return result.to_json(matrix=matrix) + "\n"
