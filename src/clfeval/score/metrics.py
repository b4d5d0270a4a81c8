"""Scores by their report names: ``macro.f1``, ``weighted.recall``, ``accuracy``, ``per_label.<label>.f1`` …

A metric name is the path of a score in the ``clfeval.score/1`` JSON, joined with dots: an
average's name and measure, an overall measure, or ``per_label``, a label and a measure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from clfeval.errors import OptionError
from clfeval.score.averages import AVERAGES, MEASURES
from clfeval.score.ratios import f_key
from clfeval.score.result import Key

__all__ = ["LOWER_IS_BETTER", "OVERALL_METRICS", "higher_is_better", "metric_key", "metric_name"]

#: The overall measures, by report name, with the tasks they apply to.
OVERALL_METRICS: Mapping[str, tuple[str, ...]] = {
    "accuracy": ("single-label", "multi-label"),
    "subset_accuracy": ("multi-label",),
    "hamming_loss": ("multi-label",),
    "micro_fpr": ("single-label", "multi-label"),
}
#: Measures where a lower value is the better one.
LOWER_IS_BETTER = frozenset({"hamming_loss", "micro_fpr"})
_PER_LABEL = ("precision", "recall", "f", "specificity")


def _measure(name: str, beta: float, allowed: Sequence[str]) -> str | None:
    """The internal measure (``f`` for F_β) of a report name (``f1``, ``f2`` …), or None."""
    internal = "f" if name == f_key(beta) else name if name != "f" else None
    return internal if internal in allowed else None


def metric_key(name: str, *, labels: Sequence[str], task: str, beta: float = 1.0) -> Key:
    """The score key of the metric ``name`` (see the module docstring).

    Raises
    ------
    OptionError
        For an unknown name, listing the valid forms.
    """
    fk = f_key(beta)
    averages = [a for a, avg in AVERAGES.items() if task in avg.tasks]
    if name in OVERALL_METRICS and task in OVERALL_METRICS[name]:
        return ("accuracy",) if name == "subset_accuracy" else (name,)
    head, _, rest = name.partition(".")
    if head == "per_label" and "." in rest:
        # the measure is a known suffix (f0.5 holds a dot itself), the label everything before it
        measure = next((m for m in (fk, "precision", "recall", "specificity") if rest.endswith("." + m)),
                       rest.rpartition(".")[2])
        label = rest[:len(rest) - len(measure) - 1]
        internal = _measure(measure, beta, _PER_LABEL)
        if label in labels and internal is not None:
            return ("per_label", label, internal)
        if label not in labels:
            shown = ", ".join(map(repr, labels[:10])) + (" …" if len(labels) > 10 else "")
            raise OptionError(f"unknown metric {name!r}: label {label!r} is not in the label set ({shown})")
    elif head in averages:
        internal = _measure(rest, beta, MEASURES)
        if internal is not None:
            return ("averages", head, internal)
    overall = [m for m, tasks in OVERALL_METRICS.items() if task in tasks]
    raise OptionError(f"unknown metric {name!r}; valid: <average>.<measure> with average one of "
                      f"{', '.join(averages)} and measure one of precision, recall, {fk} (e.g. macro.{fk}); "
                      f"{', '.join(overall)}; or per_label.<label>.<precision|recall|{fk}|specificity>")


def metric_name(key: Key, beta: float = 1.0) -> str:
    """The report name of a score key (the inverse of :func:`metric_key`)."""
    parts = [f_key(beta) if part == "f" and i == len(key) - 1 else part for i, part in enumerate(key)]
    return ".".join(parts[1:] if key[0] == "averages" else parts)


def higher_is_better(key: Key) -> bool:
    """Whether a higher value of the score at ``key`` is better (false for Hamming loss and micro FPR)."""
    return key[-1] not in LOWER_IS_BETTER
