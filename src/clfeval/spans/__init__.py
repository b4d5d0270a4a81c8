"""Span evaluation for taggers and named-entity recognisers: tags → spans under a named scheme, spans matched
exactly (and in the four partial-match modes), counted per sentence so that intervals and tests resample and swap
whole sentences.

============================  ===============================================================================
module                        what it holds
============================  ===============================================================================
:mod:`~.schemes`              the tagging schemes by name (:data:`SCHEMES`): conlleval.pl's rules, seqeval's
                              strict IOB1, IOB2, IOE1, IOE2, IOBES, BILOU
:mod:`~.tags`                 each distinct tag's prefix and type, checked against a scheme
:mod:`~.chunks`               tags → spans, and invalid transitions, for whole arrays of sentences
:mod:`~.matching`             exact matching, the partial-match modes, the span confusion
:mod:`~.sequences`            sentences of tags or of spans in columns, and how they are counted
:mod:`~.counts`               :class:`SpanCounts`, the sufficient statistics, with their sentences
:mod:`~.options`              :class:`Spans`, the options group: the scheme and the unit of resampling
:mod:`~.lists`                spans in memory: lists of tag lists, or of entity lists
============================  ===============================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.spans.counts import SpanCounts, TokenCounts
    from clfeval.spans.matching import MODES
    from clfeval.spans.options import UNITS, Spans
    from clfeval.spans.schemes import DEFAULT_SCHEME, SCHEMES, Scheme
    from clfeval.spans.sequences import SpanLists, TagSequences
    from clfeval.spans.tags import ENTITIES, NO_SPAN

_HOMES = {
    **dict.fromkeys(["SpanCounts", "TokenCounts"], "clfeval.spans.counts"),
    "MODES": "clfeval.spans.matching",
    **dict.fromkeys(["UNITS", "Spans"], "clfeval.spans.options"),
    **dict.fromkeys(["DEFAULT_SCHEME", "SCHEMES", "Scheme"], "clfeval.spans.schemes"),
    **dict.fromkeys(["SpanLists", "TagSequences"], "clfeval.spans.sequences"),
    **dict.fromkeys(["ENTITIES", "NO_SPAN"], "clfeval.spans.tags"),
}

__all__ = [
    "DEFAULT_SCHEME",
    "ENTITIES",
    "MODES",
    "NO_SPAN",
    "SCHEMES",
    "Scheme",
    "SpanCounts",
    "SpanLists",
    "Spans",
    "TagSequences",
    "TokenCounts",
    "UNITS",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES)
