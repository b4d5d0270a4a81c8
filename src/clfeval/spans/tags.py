"""Tags read once per distinct tag: each tag's prefix and type, checked against a scheme.

A file of 10⁷ tokens has a few dozen distinct tags; they are parsed here, and every token then carries two small
integer codes (:class:`TagCodes`), so no per-token Python runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.spans.schemes import PREFIXES, Scheme

__all__ = ["ENTITIES", "NO_SPAN", "TagCodes", "bad_tag", "tag_codes"]

#: The name of "no span" opposite a span (a missed or spurious span's other side), never a type.
NO_SPAN = "∅"
#: The scheme name of spans given as lists (no tags to read).
ENTITIES = "entities"


@dataclass(frozen=True, eq=False)
class TagCodes:
    """The distinct tags of some data, parsed: tag ``i`` has prefix code ``prefix[i]`` (a position in
    :data:`~clfeval.spans.schemes.PREFIXES`) and type ``types[type[i] - 1]`` (``type[i] = 0`` for ``O``).

    Attributes
    ----------
    tags
        The distinct tags.
    types
        Their types, sorted (as strings).
    """

    tags: tuple[str, ...]
    prefix: np.ndarray
    type: np.ndarray
    types: tuple[str, ...]


def bad_tag(tag: str, scheme: Scheme) -> str | None:
    """Why ``tag`` is not a tag of ``scheme`` (a sentence that ends "expected …"), or ``None`` when it is one."""
    if tag == "O":
        return None
    allowed = ", ".join(f"{p}-" for p in scheme.prefixes)
    head, dash, kind = tag.partition("-")
    if not dash or len(head) != 1 or head not in PREFIXES[1:]:
        return f"the tag {tag!r} has no prefix: expected O or {allowed} followed by a type ({scheme.name} scheme)"
    if head not in scheme.prefixes:
        return (
            f"the tag {tag!r} has the prefix {head}-, which the {scheme.name} scheme does not use: expected O or "
            f"{allowed}"
        )
    if not kind:
        return f"the tag {tag!r} has no type after its prefix: expected e.g. {head}-PER"
    if kind == NO_SPAN:
        return f"the tag {tag!r} has the type {NO_SPAN!r}, clfeval's name for no span: rename it"
    return None


def tag_codes(tags: Sequence[str], scheme: Scheme) -> tuple[TagCodes, int | None]:
    """The codes of the distinct ``tags`` under ``scheme``, and the position of the first tag the scheme refuses (the
    caller names its file and line with :func:`bad_tag`), or ``None``."""
    tags = tuple(tags)
    prefix = np.zeros(len(tags), dtype=np.int8)
    kinds: list[str | None] = []
    first_bad = None
    for i, tag in enumerate(tags):
        if bad_tag(tag, scheme) is not None:
            first_bad = i if first_bad is None else first_bad
            kinds.append(None)
            continue
        if tag == "O":
            kinds.append(None)
            continue
        prefix[i] = PREFIXES.index(tag[0])
        kinds.append(tag[2:])
    types = tuple(sorted({k for k in kinds if k is not None}))
    index = {t: i + 1 for i, t in enumerate(types)}
    type_code = np.array([0 if k is None else index[k] for k in kinds], dtype=np.int32)
    return TagCodes(tags, prefix, type_code, types), first_bad
