"""Scores by their report names: ``macro.f1``, ``weighted.recall``, ``mcc``, ``per_label.<label>.jaccard`` …

A metric name is the path of a score in the ``clfeval.score/2`` JSON, joined with dots: an
average's name and measure, an overall measure, or ``per_label``, a label and a measure. The
names come from :data:`clfeval.MEASURES` and :data:`clfeval.AVERAGES`.
"""

from __future__ import annotations

from collections.abc import Sequence

from clfeval.errors import OptionError
from clfeval.scoring.averages import AVERAGES
from clfeval.scoring.measures import MEASURES, averaged_measures, label_measures, overall_measures
from clfeval.scoring.ratios import f_key
from clfeval.scoring.scores import Key

__all__ = ["higher_is_better", "metric_key", "metric_name", "metric_path"]


def _measure(name: str, beta: float, allowed: Sequence[str]) -> str | None:
    """The internal measure (``f`` for F_β) of a report name (``f1``, ``f2`` …), or None."""
    internal = "f" if name == f_key(beta) else name if name != "f" else None
    return internal if internal in allowed else None


def _report_names(measures: Sequence[str], beta: float) -> list[str]:
    return [f_key(beta) if m == "f" else m for m in measures]


def metric_key(name: str, *, labels: Sequence[str], task: str, beta: float = 1.0) -> Key:
    """The score key of the metric ``name`` (see the module docstring).

    Raises
    ------
    OptionError
        For an unknown name, listing the valid forms.
    """
    averages = [a for a, avg in AVERAGES.items() if task in avg.tasks]
    per_label = [m.name for m in label_measures()]
    overall = {alias: m.name for m in overall_measures(task) for alias in (m.name, *m.aliases.values())}
    if name in overall:
        return (overall[name],)
    head, _, rest = name.partition(".")
    if head == "per_label" and "." in rest:
        # the measure is a known suffix (f0.5 holds a dot itself), the label everything before it
        measure = next((m for m in _report_names(per_label, beta) if rest.endswith("." + m)), rest.rpartition(".")[2])
        label = rest[: len(rest) - len(measure) - 1]
        internal = _measure(measure, beta, per_label)
        if label in labels and internal is not None:
            return ("per_label", label, internal)
        if label not in labels:
            shown = ", ".join(map(repr, labels[:10])) + (" …" if len(labels) > 10 else "")
            raise OptionError(f"unknown metric {name!r}: label {label!r} is not in the label set ({shown})")
    elif head in averages:
        internal = _measure(rest, beta, averaged_measures())
        if internal is not None:
            return ("averages", head, internal)
    from clfeval.scoring.sklearnnames import report_name_hint  # scikit-learn's "macro avg", "f1_macro" …

    hint = report_name_hint(name, f_key(beta))
    if hint is not None:
        raise OptionError(f"unknown metric {name!r}: {hint}")
    raise OptionError(
        f"unknown metric {name!r}; valid: <average>.<measure> with average one of "
        f"{', '.join(averages)} and measure one of {', '.join(_report_names(averaged_measures(), beta))} (e.g. "
        f"macro.{f_key(beta)}); {', '.join(overall)}; or per_label.<label>.<"
        f"{'|'.join(_report_names(per_label, beta))}>"
    )


def metric_path(key: Key, beta: float = 1.0) -> list[str]:
    """The parts of a score key's report name: ``["macro", "f1"]``, ``["accuracy"]``, ``["per_label", label, "f1"]``
    (joined by dots, :func:`metric_name`; by a tracker's separator, :meth:`~clfeval.result.Result.flat`)."""
    parts = [f_key(beta) if part == "f" and i == len(key) - 1 else part for i, part in enumerate(key)]
    return parts[1:] if key[0] == "averages" else parts


def metric_name(key: Key, beta: float = 1.0) -> str:
    """The report name of a score key (the inverse of :func:`metric_key`)."""
    return ".".join(metric_path(key, beta))


def higher_is_better(key: Key) -> bool:
    """Whether a higher value of the score at ``key`` is better (false for error rates and losses: Hamming loss,
    micro FPR, per-label FPR and FNR)."""
    measure = key[0] if len(key) == 1 else key[-1]
    return MEASURES[measure].higher_is_better
