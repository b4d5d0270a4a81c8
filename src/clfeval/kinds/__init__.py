"""Kinds of counted data: the registry every task asks what counts are and how they score, pair and resample.

``KINDS`` holds single-label confusion counts, multi-label label-set pairs, several systems' joint counts and
finagle's confidences (:mod:`clfeval.kinds.kind` says what a kind declares); a new kind is a :class:`Kind` subclass
and :func:`register_kind`. Count files (:mod:`clfeval.kinds.countfile`) are written and read through it.
"""

from __future__ import annotations

from clfeval.kinds.kind import KINDS, Counts, Kind, Row, document_kind, kind_of, register_kind, unregister_kind

__all__ = ["KINDS", "Counts", "Kind", "Row", "document_kind", "kind_of", "register_kind", "unregister_kind"]
