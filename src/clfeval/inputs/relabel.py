"""From read cells to labels: stripping, label sets, a translation table and a cut-off for real-valued predictions.

Every reader hands over unique cell values; they become labels here, once per unique value, so
the conversions cost nothing per instance. A translation file (``old > new`` per line, Van Asch's
format) maps labels before they are counted: gold, predictions and training labels alike. A
cut-off turns real-valued predictions (SVM scores) into two labels.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from clfeval.count.labelsets import LabelSet, MultiLabel, canonical_set
from clfeval.errors import InputError, OptionError

__all__ = ["CUTOFF_RULE", "NotANumber", "Relabel", "cell_value", "label_set", "read_translation", "single_label"]

#: How a cut-off turns a real-valued prediction into a label, in words (reports and the JSON record it).
CUTOFF_RULE = (
    "a prediction at or above the cut-off becomes the label above, any other the label below (value >= cutoff)"
)


class NotANumber(Exception):
    """A prediction that is not a finite number under a cut-off; the reader turns it into an :class:`InputError`
    naming its file and line. Not a ``ValueError``, so that no other error can be taken for it."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


#: A translation line, ``old > new`` (compiled on first use, by :mod:`re`'s cache: most runs translate nothing).
_MAPPING = r"^\s*(\S(?:.*\S)?)\s+>\s+(\S(?:.*\S)?)\s*$"


def read_translation(path: str) -> tuple[dict[str, str], dict[str, int]]:
    """A translation file: the mapping old → new, and the line of each mapping.

    One mapping per line, ``old > new`` (the ``>`` between spaces, so labels may hold ``>``
    themselves); blank lines and lines starting with ``#`` are passed over. A line of another
    shape, or a label mapped twice to different labels, is an error naming the line.
    """
    from clfeval.inputs.text import read_text

    mapping: dict[str, str] = {}
    lines: dict[str, int] = {}
    text = read_text(path, expected="lines 'old > new'", option="--translate")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = re.match(_MAPPING, line)
        if match is None:
            raise InputError(
                f"expected a mapping 'old > new' (a '>' with a space on each side), found {line!r}", path, number
            )
        old, new = match.group(1), match.group(2)
        if old in mapping and mapping[old] != new:
            raise InputError(
                f"{old!r} is already mapped to {mapping[old]!r} on line {lines[old]}; here to {new!r}", path, number
            )
        mapping[old] = new
        lines.setdefault(old, number)
    if not mapping:
        raise InputError("holds no mapping: expected lines 'old > new'", path)
    return mapping, lines


@dataclass(frozen=True, eq=False)
class Relabel:
    """How read labels are changed before counting.

    Attributes
    ----------
    translate
        old label → new label (a translation file; labels not in it stay as they are).
    translate_source
        Where the mapping came from, for messages.
    cutoff, above, below
        Real-valued predictions: a value at or above ``cutoff`` becomes ``above``, any other
        ``below`` (defaults ``+1`` and ``-1``, as SVM-light's classes): ``float(value) >= cutoff``,
        the rule of ``confusionmatrix.py -C``, so an SVM decision value of exactly 0 is ``+1`` at
        cut-off 0. Predictions only; gold labels stay as they are.
    """

    translate: Mapping[str, str] = field(default_factory=dict)
    translate_source: str | None = None
    translate_lines: Mapping[str, int] = field(default_factory=dict)
    cutoff: float | None = None
    above: str = "+1"
    below: str = "-1"
    used: set[str] = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        if self.cutoff is not None and not math.isfinite(self.cutoff):
            raise OptionError(f"--cutoff must be a finite number, not {self.cutoff!r}")
        if self.cutoff is not None and self.above == self.below:
            raise OptionError(f"--above and --below must differ (both are {self.above!r})")

    @classmethod
    def of(
        cls,
        translate: str | Mapping[str, str] | None = None,
        cutoff: float | None = None,
        above: str = "+1",
        below: str = "-1",
    ) -> Relabel:
        """A relabelling from a translation file (path) or mapping, and a cut-off."""
        if isinstance(translate, str):
            mapping, lines = read_translation(translate)
            return cls(mapping, translate, lines, cutoff, above, below)
        return cls(dict(translate or {}), None, {}, cutoff, above, below)

    @property
    def active(self) -> bool:
        """Whether it changes anything."""
        return bool(self.translate) or self.cutoff is not None

    def label(self, value: str) -> str:
        """A label after translation (and record that its mapping was used)."""
        new = self.translate.get(value)
        if new is None:
            return value
        self.used.add(value)
        return new

    def predicted(self, value: str) -> str:
        """A predicted value: cut (when a cut-off is set; :data:`CUTOFF_RULE`) or translated. Raises
        :class:`NotANumber` for a value that is not a finite number under a cut-off."""
        if self.cutoff is None:
            return self.label(value)
        try:
            number = float(value)
        except ValueError:
            raise NotANumber(value) from None
        if not math.isfinite(number):
            raise NotANumber(value)
        return self.label(self.above if number >= self.cutoff else self.below)

    def unused(self) -> list[str]:
        """Warnings for mappings that no label used (in the order of the file)."""
        never = [old for old in self.translate if old not in self.used]
        if not never:
            return []
        where = self.translate_source or "the translation"
        shown = ", ".join(
            f"{old!r} > {self.translate[old]!r}"
            + (f" (line {self.translate_lines[old]})" if old in self.translate_lines else "")
            for old in never[:10]
        )
        more = f" and {len(never) - 10} more" if len(never) > 10 else ""
        return [f"{where}: {len(never)} mapping(s) never used (no such label in the data): {shown}{more}"]

    def options(self) -> dict[str, Any]:
        """What a result records of it."""
        out: dict[str, Any] = {}
        if self.translate:
            out["translate"] = self.translate_source or "mapping"
        if self.cutoff is not None:
            out["cutoff"] = {"value": self.cutoff, "above": self.above, "below": self.below, "rule": ">="}
        return out


def single_label(value: Any, source: str, relabel: Relabel | None = None) -> str:
    """One label from a read cell (stripped, translated); a list cell is an error asking for multi-label."""
    if isinstance(value, tuple):
        raise InputError("the label column holds lists of labels; pass --multilabel (multilabel=True)", source)
    text = str(value).strip()
    return relabel.label(text) if relabel is not None and relabel.translate else text


def label_set(
    value: Any, label_sep: str, source: str, duplicates: str, empty: str, relabel: Relabel | None = None
) -> LabelSet:
    """A canonical label set from a read cell: split on ``label_sep`` (or a list cell), each label translated."""
    if isinstance(value, tuple):
        parts = [v.strip() for v in value]
    else:
        text = str(value).strip()
        parts = [p.strip() for p in text.split(label_sep)] if text else []
    if any(p == "" for p in parts):
        raise InputError(f"the label set {value!r} holds an empty label (separator {label_sep!r})", source)
    if relabel is not None and relabel.translate:
        parts = [relabel.label(p) for p in parts]
    try:
        return canonical_set(parts, duplicates, empty)
    except InputError as exc:
        raise InputError(str(exc), source) from None


def cell_value(
    value: Any, source: str, labelsets: MultiLabel | None, relabel: Relabel | None = None, predicted: bool = False
) -> Any:
    """A label (single-label: ``labelsets`` is ``None``) or a canonical label set (multi-label, split on the group's
    file separator and counted under its options) from a read cell.

    ``predicted`` cells go through the cut-off when one is set (a value that is not a number raises
    ValueError, for the caller to name its line).
    """
    if labelsets is not None:
        return label_set(value, labelsets.file_sep, source, labelsets.duplicates, labelsets.empty, relabel)
    if predicted and relabel is not None and relabel.cutoff is not None:
        if isinstance(value, tuple):
            raise InputError("the label column holds lists of labels; pass --multilabel (multilabel=True)", source)
        return relabel.predicted(str(value).strip())
    return single_label(value, source, relabel)
