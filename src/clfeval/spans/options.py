"""How tags become spans, in one options group: :class:`Spans` (the scheme and the unit of resampling)."""

from __future__ import annotations

from dataclasses import dataclass

from clfeval.errors import OptionError
from clfeval.spans.schemes import DEFAULT_SCHEME, SCHEMES, scheme_of

__all__ = ["UNITS", "Spans"]

#: The units intervals and tests resample and swap, by name.
UNITS = {
    "auto": "documents when the input holds at least 20 -DOCSTART- documents (CoNLL-2003's files do), else sentences "
    "(fewer documents are too few units for an interval or a test)",
    "sentences": "sentences: the errors of a sentence hang together; sentences are taken as independent",
    "documents": "documents (-DOCSTART- lines): for when the sentences of a document are not independent either",
}


@dataclass(frozen=True)
class Spans:
    """Score spans, not tags: the tagging scheme (:data:`clfeval.spans.SCHEMES`) and the unit of resampling.

    ``spans="iob2"`` anywhere means ``Spans("iob2")``; ``spans=True`` the default scheme, ``conlleval``: the rules of
    conlleval.pl, which the field's published numbers come from (and seqeval's default mode on IOB1/IOB2 tags).

    Attributes
    ----------
    scheme
        ``conlleval``, ``iob1``, ``iob2``, ``ioe1``, ``ioe2``, ``iobes`` or ``bilou``; spans given as lists of
        (start, end, type) need none.
    unit
        ``auto``, ``sentences`` or ``documents`` (:data:`UNITS`).
    details
        Count the partial-match modes and the span confusion, which the reports and the JSON show (``details`` of a
        span result) beside exact matching. ``False``: exact matching alone, as conlleval.pl's report shows it (the
        command line's ``--format conlleval``): the counts' ``modes`` and ``confusion`` are ``None``, and the result
        has no span confusion matrix.
    """

    scheme: str = DEFAULT_SCHEME
    unit: str = "auto"
    details: bool = True

    def __post_init__(self) -> None:
        scheme_of(self.scheme)
        if self.unit not in UNITS:
            raise OptionError(f"unknown unit {self.unit!r}; valid: {', '.join(UNITS)}")

    @classmethod
    def of(cls, value: object) -> Spans | None:
        """``True`` → the default scheme, a scheme's name → its group, a :class:`Spans` as it is, ``None``/``False``
        → not spans."""
        if value is None or value is False:
            return None
        if value is True:
            return cls()
        if isinstance(value, Spans):
            return value
        if isinstance(value, str):
            return cls(value)
        raise OptionError(
            f"spans is a tagging scheme's name ({', '.join(SCHEMES)}), True or a clfeval.Spans, not {value!r}"
        )
