"""The tagging schemes by name (:data:`SCHEMES`): how a sequence of tags becomes spans, and which transitions are
invalid.

A tag is ``O`` (outside any span) or a prefix, ``-`` and a type: ``B-PER``, ``I-LOC``, ``E-ORG``, ``S-MISC``,
``L-…``, ``U-…``. Two families of rules:

* ``conlleval``: the rules of ``conlleval.pl`` (CoNLL-2000, version 2004-01-26), which the field's published
  numbers come from. A span starts at ``B-``, at ``I-`` after ``O`` or another type, and at ``E-`` after ``O`` or
  ``E-``; it ends before ``O``, ``B-`` (after ``B-`` or ``I-``), a change of type, and after ``E-`` when ``E-``,
  ``I-`` or ``O`` follows. ``S-`` has no rule of its own and ``E-X`` does not end a span before ``B-X``, so
  adjacent IOBES spans of one type merge: a warning counts them.
* ``iob1``, ``iob2``, ``ioe1``, ``ioe2``, ``iobes``, ``bilou``: seqeval's strict mode (``mode="strict"`` with its
  scheme classes, seqeval 1.2.2): a span starts where the scheme's start patterns match, runs while its inside
  patterns match, and counts only if its end pattern matches; tokens of an ill-formed span belong to no span.

Each scheme's table is data here; :mod:`clfeval.spans.chunks` applies them to whole arrays of tags at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from clfeval.errors import unknown_name

__all__ = ["DEFAULT_SCHEME", "PREFIXES", "SCHEMES", "Scheme", "scheme_of"]

#: Prefix codes: position in this string (``O`` is 0).
PREFIXES = "OBIESLU"
_O, _B, _I, _E, _S, _L, _U = range(len(PREFIXES))

#: The scheme ``--spans`` and ``spans=True`` use when none is named.
DEFAULT_SCHEME = "conlleval"

#: A pattern (previous prefixes, current prefixes, type condition): ``same``, ``diff`` or ``any``.
Pattern = tuple[str, str, str]


@dataclass(frozen=True)
class Scheme:
    """A tagging scheme: its prefixes, how tags become spans, and its well-formed transitions.

    Attributes
    ----------
    name, definition
        The registry name and what the scheme is, in words.
    prefixes
        The prefixes its tags may carry besides the plain tag ``O`` (a tag with another prefix is refused).
    family
        ``conlleval`` (conlleval.pl's rules) or ``strict`` (seqeval's strict mode).
    start, inside, end
        seqeval's patterns (strict family): (previous prefixes, current prefixes, type condition); ``*`` is any
        prefix, ``O`` included.
    needs_before, needs_after
        Well-formedness: a tag whose prefix is a key must follow (precede) a tag of the same type whose prefix is
        in the value; a transition that breaks this is *invalid* and counted (the conlleval family uses IOB2's
        rule: its invalid transitions are the ones it reads as IOB1).
    references
        Where it is defined.
    """

    name: str
    definition: str
    prefixes: str
    family: str
    start: tuple[Pattern, ...] = ()
    inside: tuple[Pattern, ...] = ()
    end: tuple[Pattern, ...] = ()
    needs_before: Mapping[str, str] | None = None
    needs_after: Mapping[str, str] | None = None
    references: tuple[str, ...] = ()

    @cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(start, inside, end): boolean lookup tables ``[previous prefix, current prefix, same type]`` of the strict
        family's patterns."""
        out = []
        for patterns in (self.start, self.inside, self.end):
            table = np.zeros((len(PREFIXES), len(PREFIXES), 2), dtype=bool)
            for before, now, condition in patterns:
                for p in PREFIXES if before == "*" else before:
                    for c in PREFIXES if now == "*" else now:
                        if condition in ("same", "any"):
                            table[PREFIXES.index(p), PREFIXES.index(c), 1] = True
                        if condition in ("diff", "any"):
                            table[PREFIXES.index(p), PREFIXES.index(c), 0] = True
            out.append(table)
        return out[0], out[1], out[2]

    @cached_property
    def allowed(self) -> np.ndarray:
        """Which prefix codes the scheme's tags may carry (``O`` always)."""
        mask = np.zeros(len(PREFIXES), dtype=bool)
        for p in "O" + self.prefixes:
            mask[PREFIXES.index(p)] = True
        return mask


# conlleval.pl's endOfChunk and startOfChunk (version 2004-01-26), besides their rule on a change of type
CONLLEVAL_END = (("B", "B"), ("B", "O"), ("I", "B"), ("I", "O"), ("E", "E"), ("E", "I"), ("E", "O"))
CONLLEVAL_START = (("B", "B"), ("I", "B"), ("O", "B"), ("O", "I"), ("E", "E"), ("E", "I"), ("O", "E"))

_SEQEVAL = "seqeval 1.2.2, seqeval/scheme.py (mode='strict')"

#: The tagging schemes, by name.
SCHEMES: Mapping[str, Scheme] = {
    s.name: s
    for s in (
        Scheme(
            "conlleval",
            "conlleval.pl's rules (CoNLL-2000/2003, version 2004-01-26): a span starts at B-, at I- after O or "
            "another type, at E- after O or E-; it ends before O, before B- that follows B- or I-, at a change of "
            "type, and after E-; IOB1 and IOB2 read alike; S- has no rule and E-X B-X does not end a span, so "
            "adjacent IOBES spans of one type merge (counted in a warning)",
            "BIES",
            "conlleval",
            needs_before={"I": "BI"},
            references=(
                "Tjong Kim Sang & Buchholz 2000 (CoNLL-2000 chunking; conlleval.pl)",
                "Tjong Kim Sang & De Meulder 2003 (CoNLL-2003 NER)",
            ),
        ),
        Scheme(
            "iob1",
            "IOB1 (Ramshaw & Marcus 1995), seqeval strict: I- opens a span after O or another type; B- only "
            "between two adjacent spans of one type",
            "BI",
            "strict",
            start=(("O", "I", "any"), ("I", "I", "diff"), ("B", "I", "any"), ("I", "B", "same"), ("B", "B", "same")),
            inside=(("B", "I", "same"), ("I", "I", "same")),
            end=(
                ("I", "I", "diff"),
                ("I", "O", "any"),
                ("I", "B", "any"),
                ("B", "O", "any"),
                ("B", "I", "diff"),
                ("B", "B", "same"),
            ),
            needs_before={"B": "BI"},
            references=("Ramshaw & Marcus 1995", _SEQEVAL),
        ),
        Scheme(
            "iob2",
            "IOB2 (Tjong Kim Sang & Veenstra 1999), seqeval strict: every span opens with B-; an I- after O or "
            "another type belongs to no span",
            "BI",
            "strict",
            start=(("*", "B", "any"),),
            inside=(("B", "I", "same"), ("I", "I", "same")),
            end=(
                ("I", "O", "any"),
                ("I", "I", "diff"),
                ("I", "B", "any"),
                ("B", "O", "any"),
                ("B", "I", "diff"),
                ("B", "B", "any"),
            ),
            needs_before={"I": "BI"},
            references=("Tjong Kim Sang & Veenstra 1999", _SEQEVAL),
        ),
        Scheme(
            "ioe1",
            "IOE1 (Tjong Kim Sang & Veenstra 1999), seqeval strict: E- closes a span only before an adjacent span "
            "of one type",
            "IE",
            "strict",
            start=(("O", "I", "any"), ("I", "I", "diff"), ("E", "I", "any"), ("E", "E", "same")),
            inside=(("I", "I", "same"), ("I", "E", "same")),
            end=(("I", "I", "diff"), ("I", "O", "any"), ("I", "E", "diff"), ("E", "I", "same"), ("E", "E", "same")),
            needs_after={"E": "IE"},
            references=("Tjong Kim Sang & Veenstra 1999", _SEQEVAL),
        ),
        Scheme(
            "ioe2",
            "IOE2 (Tjong Kim Sang & Veenstra 1999), seqeval strict: every span closes with E-; a span of I- that "
            "does not reach an E- belongs to no span",
            "IE",
            "strict",
            start=(
                ("O", "I", "any"),
                ("O", "E", "any"),
                ("E", "I", "any"),
                ("E", "E", "any"),
                ("I", "I", "diff"),
                ("I", "E", "diff"),
            ),
            inside=(("I", "E", "same"), ("I", "I", "same")),
            end=(("E", "*", "any"),),
            needs_after={"I": "IE"},
            references=("Tjong Kim Sang & Veenstra 1999", _SEQEVAL),
        ),
        Scheme(
            "iobes",
            "IOBES (BIOES, BMEWO), seqeval strict: B- opens, I- continues and E- closes a span of several tokens; "
            "S- is a span of one token; a span that is not closed belongs to no span",
            "BIES",
            "strict",
            start=(("*", "B", "any"), ("*", "S", "any")),
            inside=(("B", "I", "same"), ("B", "E", "same"), ("I", "I", "same"), ("I", "E", "same")),
            end=(("S", "*", "any"), ("E", "*", "any")),
            needs_before={"I": "BI", "E": "BI"},
            needs_after={"B": "IE", "I": "IE"},
            references=("Ratinov & Roth 2009", _SEQEVAL),
        ),
        Scheme(
            "bilou",
            "BILOU, seqeval strict: B- opens, I- continues and L- closes a span of several tokens; U- is a span of "
            "one token; a span that is not closed belongs to no span",
            "BILU",
            "strict",
            start=(("*", "B", "any"), ("*", "U", "any")),
            inside=(("B", "I", "same"), ("B", "L", "same"), ("I", "I", "same"), ("I", "L", "same")),
            end=(("U", "*", "any"), ("L", "*", "any")),
            needs_before={"I": "BI", "L": "BI"},
            needs_after={"B": "IL", "I": "IL"},
            references=("Ratinov & Roth 2009", _SEQEVAL),
        ),
    )
}


def scheme_of(name: object) -> Scheme:
    """The scheme named ``name`` (an unknown name is an error listing them)."""
    if not isinstance(name, str) or name not in SCHEMES:
        raise unknown_name("tagging scheme", name, SCHEMES)
    return SCHEMES[name]
