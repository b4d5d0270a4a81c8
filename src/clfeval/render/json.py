"""JSON output: the versioned contract of :meth:`Scores.to_dict`."""

from __future__ import annotations

from typing import Any

from clfeval.score.result import Scores

__all__ = ["render_json"]


def render_json(scores: Scores, **_: Any) -> str:
    """``scores.to_dict()`` as indented JSON (labels are strings; NaN is ``null``)."""
    return scores.to_json() + "\n"
