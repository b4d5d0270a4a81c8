"""Which labels form the label set L that per-label rows and averages run over: a stated policy."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from clfeval.errors import OptionError, unknown_name

__all__ = ["LABEL_SOURCES", "ChosenLabels", "check_ordinal", "resolve_label_set", "sort_labels"]

#: Label-set policies, by name, with their one-line definitions.
LABEL_SOURCES: Mapping[str, str] = {
    "union": "every label that occurs in the gold or predicted data (scikit-learn's default)",
    "gold": "the labels that occur in the gold data (Van Asch's 'strict')",
    "train": "the labels of the training data, plus any label seen in the test data",
    "given": "the labels the user declared, in the order given",
}


def _number(label: str) -> float | None:
    """The number a label spells (``"10"``, ``"2.5"``, ``"-1"``), or ``None`` (``"NA"``; ``"nan"``, which has no
    place in an order)."""
    try:
        number = float(label)
    except ValueError:
        return None
    return None if math.isnan(number) else number


def sort_labels(labels: Iterable[str]) -> tuple[str, ...]:
    """Sort labels numerically when every label is a number, else as strings."""
    labels = list(dict.fromkeys(labels))
    numbers = [_number(lab) for lab in labels]
    if labels and all(n is not None for n in numbers):
        return tuple(lab for _, lab in sorted(zip(numbers, labels), key=lambda t: (t[0], t[1])))
    return tuple(sorted(labels))


def check_ordinal(labels: Iterable[str]) -> None:
    """Refuse ``--ordinal`` (``Scoring(ordinal=True)``) over labels that are not all numbers: it orders them
    numerically, and an order over a scale with a stray label (``'NA'``) is not one to invent.

    >>> check_ordinal(["1", "10", "2"])
    >>> check_ordinal(["1", "2", "NA"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clfeval.errors.OptionError: --ordinal (ordinal=True) orders the labels as numbers, but 1 label is not ...: 'NA'; ...
    """
    stray = [lab for lab in dict.fromkeys(labels) if _number(lab) is None]
    if stray:
        shown = _names(stray[:10]) + (f" and {len(stray) - 10} more" if len(stray) > 10 else "")
        count = "1 label is not a number" if len(stray) == 1 else f"{len(stray)} labels are not numbers"
        raise OptionError(
            f"--ordinal (ordinal=True) orders the labels as numbers, but {count}: {shown}; declare their order with "
            "--ordinal and --labels FILE (one label per line, in order), or ordinal=[...]"
        )


@dataclass(frozen=True)
class ChosenLabels:
    """A resolved label set: the labels, the policy that chose them, and what the reader should be told."""

    labels: tuple[str, ...]
    source: str
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def _names(labels: Iterable[str]) -> str:
    return ", ".join(repr(lab) for lab in labels)


def resolve_label_set(
    source: str | None,
    *,
    gold: Collection[str],
    predicted: Collection[str],
    train: Collection[str] | None = None,
    given: Sequence[str] | None = None,
) -> ChosenLabels:
    """Resolve the label-set policy ``source`` against the labels seen in the data.

    ``source=None`` picks ``given`` when labels are given, ``train`` when training labels
    are, else ``union``.
    """
    if source is None:
        source = "given" if given is not None else "train" if train is not None else "union"
    if source not in LABEL_SOURCES:
        raise unknown_name("label source", source, LABEL_SOURCES)
    seen = set(gold) | set(predicted)
    warnings: list[str] = []
    notes: list[str] = []
    if source == "union":
        labels = sort_labels(seen)
    elif source == "gold":
        labels = sort_labels(gold)
    elif source == "train":
        if train is None:
            raise OptionError("the label source 'train' needs training data (--train FILE or train=...)")
        labels = sort_labels(train)
        unseen = sort_labels(seen - set(labels))
        if unseen:
            warnings.append(
                f"labels in the test data but not in the training data: {_names(unseen)} (added to the label set)"
            )
            labels = labels + unseen
    else:
        if given is None:
            raise OptionError("the label source 'given' needs a list of labels (--labels FILE or labels=[...])")
        labels = tuple(dict.fromkeys(given))
        if len(labels) != len(given):
            repeated = sorted({lab for lab in given if list(given).count(lab) > 1})
            raise OptionError(f"the given label list repeats labels: {_names(repeated)}")
        absent = [lab for lab in labels if lab not in seen]
        if absent:
            notes.append(f"declared labels that never occur in the data (scored with support 0): {_names(absent)}")
    if not labels:
        raise OptionError("the label set is empty: there is nothing to score")
    outside = sort_labels(seen - set(labels))
    if outside:
        warnings.append(
            f"labels in the data but outside the label set ({source}): {_names(outside)}; they count "
            "in accuracy and the confusion matrix, not in per-label rows or averages"
        )
    return ChosenLabels(labels, source, tuple(warnings), tuple(notes))
