"""What a report a person reads shows: which measures (``--measures``) and how many notes (``--verbose``).

The JSON and the CSV's tidy rows keep every score whatever the view; text, Markdown, LaTeX and HTML show the
view's measures. By default a score's report shows what readers of scikit-learn's ``classification_report`` and of
conlleval look for first:

* per label: support, precision, recall and F;
* every named average (micro, macro, macro_fa, weighted, lfb, and samples for label sets) of precision, recall and F;
* overall: accuracy, balanced accuracy, MCC and Cohen's κ (single labels), subset accuracy and the Hamming loss
  (label sets);
* weighted κ, which reads an order of the labels, only where one is declared (``ordinal=``, ``--ordinal``:
  :func:`order_declared`); without one it is withheld everywhere, even when asked for by name.

``measures`` names what to show instead: measure names of :data:`clfeval.MEASURES` (``npv``, ``mcc``,
``subset_accuracy``, ``f1`` for F), and the groups ``default``, ``counts`` (each label's predicted, tp, fp, fn, tn,
and the Wilson intervals of precision and recall) and ``all`` (every count and every measure, as reports showed
them before there was a choice). Notes say what moved a number, one line per choice; ``verbose`` adds the notes
that define every average and measure, the inputs and the interval method in full.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clfeval.errors import OptionError

if TYPE_CHECKING:
    from clfeval.scoring.scores import Scores

__all__ = ["MEASURE_GROUPS", "View", "measure_names", "order_declared"]

#: Names of groups of measures that ``measures`` takes beside measure names, and what each shows.
MEASURE_GROUPS: Mapping[str, str] = {
    "default": "support, precision, recall and F per label and averaged; accuracy, balanced accuracy, MCC and κ "
    "(subset accuracy and Hamming loss for label sets); weighted κ where an order of the labels is declared",
    "counts": "each label's predicted, tp, fp, fn and tn, and the Wilson intervals of precision and recall",
    "all": "every count and every measure",
}

#: The per-label measures a default report shows (their averages too).
DEFAULT_LABEL_MEASURES = ("precision", "recall", "f")
#: The overall measures a default report shows, by family (weighted κ joins where an order is declared).
DEFAULT_OVERALL: Mapping[str, tuple[str, ...]] = {
    "single-label": ("accuracy", "balanced_accuracy", "mcc", "kappa"),
    "multi-label": ("accuracy", "hamming_loss"),
}

#: F_β's report names: f1, f2, f0.5 …
_F_NAME = re.compile(r"f\d+(\.\d+)?")


def measure_names() -> dict[str, str]:
    """Every name ``measures`` takes: the groups, each measure's name and aliases (``subset_accuracy``), ``f1``; each
    to the measure (or group) it means."""
    from clfeval.scoring.measures import MEASURES

    names = {g: g for g in MEASURE_GROUPS}
    for m in MEASURES.values():
        names[m.name] = m.name
        names.update({alias: m.name for alias in m.aliases.values()})
    names["f1"] = "f"
    return names


def _parse(measures: str | Iterable[str] | None) -> tuple[str, ...]:
    """The measure and group names of ``measures`` (a comma-separated string, or names), checked."""
    if measures is None:
        return ("default",)
    parts = measures.split(",") if isinstance(measures, str) else list(measures)
    names = measure_names()
    out: list[str] = []
    for part in parts:
        if not isinstance(part, str):
            raise OptionError(f"measures are names (strings), not {part!r}")
        name = part.strip()
        if not name:
            continue
        known = names.get(name) or ("f" if _F_NAME.fullmatch(name) else None)
        if known is None:
            valid = ", ".join([*MEASURE_GROUPS, *(n for n in names if n not in MEASURE_GROUPS)])
            raise OptionError(f"unknown measure {name!r} in measures; valid: {valid}")
        out.append(known)
    if not out:
        raise OptionError(f"measures names no measure; give names or one of {', '.join(MEASURE_GROUPS)}")
    return tuple(dict.fromkeys(out))


def order_declared(scores: Scores) -> bool:
    """Whether the labels of ``scores`` have a declared order (``ordinal=``, ``--ordinal``): the one rule,
    :attr:`~clfeval.scoring.scores.Scores.order`; declared labels alone declare none."""
    return scores.order is not None


@dataclass(frozen=True)
class View:
    """Which measures a report shows and whether its notes are the full ones.

    Attributes
    ----------
    names
        The measure and group names asked for (:data:`MEASURE_GROUPS`, :data:`clfeval.MEASURES`); ``("default",)``.
    verbose
        Whether the notes define every average and measure, and say the inputs and the interval method in full.
    """

    names: tuple[str, ...] = ("default",)
    verbose: bool = False

    @classmethod
    def of(cls, measures: str | Iterable[str] | None = None, verbose: bool = False) -> View:
        """The view of ``measures`` (a comma-separated string or names; ``None``: the default) and ``verbose``,
        checked: an unknown name is an :class:`~clfeval.errors.OptionError` that lists the valid ones."""
        if not isinstance(verbose, bool):
            raise OptionError(f"verbose is True or False, not {verbose!r}")
        if isinstance(measures, View):
            return measures
        return cls(_parse(measures), verbose)

    @property
    def everything(self) -> bool:
        """Whether every measure is shown (``all``)."""
        return "all" in self.names

    @property
    def counts(self) -> bool:
        """Whether each label's counts (predicted, tp, fp, fn, tn) and the Wilson intervals are shown."""
        return self.everything or "counts" in self.names

    def _wanted(self, measure: str, default: bool) -> bool:
        return self.everything or measure in self.names or ("default" in self.names and default)

    def label_measures(self, scores: Scores) -> tuple[str, ...]:
        """The per-label measures shown for ``scores``, in report order."""
        from clfeval.scoring.measures import label_measures

        return tuple(
            m.name
            for m in label_measures(scores.family)
            if self._wanted(m.name, m.name in DEFAULT_LABEL_MEASURES or m.registered)
        )

    def averaged(self, scores: Scores) -> tuple[str, ...]:
        """The averaged measures shown for every average of ``scores``, in report order."""
        from clfeval.scoring.measures import averaged_measures

        shown = self.label_measures(scores)
        return tuple(m for m in averaged_measures(scores.family) if m in shown)

    def overall(self, scores: Scores) -> tuple[str, ...]:
        """The overall measures shown for ``scores``, in report order: weighted κ by default only where an order
        of the labels is declared."""
        from clfeval.scoring.measures import overall_measures

        defaults = DEFAULT_OVERALL.get(scores.family, ("accuracy",))
        ordered = order_declared(scores)
        withheld = scores.withheld()  # weighted κ without a declared order: not even by name
        return tuple(
            m.name
            for m in overall_measures(scores.family)
            if m.name not in withheld
            and self._wanted(m.name, m.name in defaults or (m.ordered and ordered) or (m.registered and not m.ordered))
        )

    def shows(self, scores: Scores, measure: str) -> bool:
        """Whether the measure ``measure`` (per label, averaged or overall) is shown for ``scores``."""
        return measure in self.label_measures(scores) or measure in self.overall(scores)

    def unknown_for(self, scores: Scores) -> list[str]:
        """The measures asked for by name that ``scores`` do not have (MCC of label sets)."""
        from clfeval.scoring.measures import MEASURES

        return [
            n
            for n in self.names
            if n in MEASURES and MEASURES[n].scope == "overall" and scores.family not in MEASURES[n].tasks
        ]


def view_of(options: Mapping[str, Any]) -> View:
    """The view that render options ``measures`` and ``verbose`` ask for."""
    return View.of(options.get("measures"), bool(options.get("verbose", False)))
