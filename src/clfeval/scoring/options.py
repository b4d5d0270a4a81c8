"""What decides a score besides the counts: which labels are averaged and how each ratio is defined, in one group."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.invalid import check_invalid_policy
from clfeval.count.labelnames import is_missing
from clfeval.errors import OptionError, unknown_name
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.ratios import UNDEFINED_POLICIES, parse_zero_division

__all__ = ["Scoring"]


@dataclass(frozen=True)
class Scoring:
    """Which labels are averaged and how each score is defined: the options every task shares.

    Validated when built, so a bad β or policy stops a run before anything is read.

    Attributes
    ----------
    labels
        The declared label set L, in report order; labels never seen score with support 0.
    labels_from
        The label-set policy: ``union`` (default), ``gold``, ``train`` (default when ``train`` is
        given) or ``given`` (default when ``labels`` is given); see :data:`clfeval.LABEL_SOURCES`.
    train
        Training data: its labels (or label sets) in memory, :class:`~clfeval.LabelFrequencies`, a
        training file's path or a :class:`~clfeval.Training` (a file and how to read it). It gives the
        ``train`` label set and the lfb average's weights.
    beta
        β of F_β (> 0): F_β = (1 + β²)·P·R / (β²·P + R).
    zero_division
        The value of a 0/0 ratio: 0 (default), 1 or ``"nan"``. Results list the labels it touched.
    undefined
        ``include`` (labels whose measure is 0/0 take part in averages with ``zero_division``) or
        ``exclude`` (they drop out); see :data:`clfeval.scoring.ratios.UNDEFINED_POLICIES`.
    ordinal
        The declared order of the labels, which weighted κ (``kappa_linear``, ``kappa_quadratic``) reads; without
        one weighted κ is withheld (``null`` in the JSON, with the reason; absent from reports, ``flat()`` and
        frames). A sequence of labels is the order itself (and the label set, unless ``labels`` names the same
        labels); ``True`` says ``labels`` lists the labels in order or, without ``labels``, that the labels are
        numbers on a scale, ordered numerically (labels that are not all numbers, a stray ``'NA'``, are then an
        :class:`~clfeval.OptionError` when scored). ``labels`` alone never declares an order.
    pos_label
        The positive class of a binary problem (two labels): ``result["f1"]``, ``["precision"]`` and ``["recall"]``
        are its per-label values, as scikit-learn's ``average="binary"``. Default: the label that is the number 1
        (scikit-learn's ``pos_label=1``) when one of the two labels is; else the binary names need ``pos_label``.
    invalid
        What a prediction that is not a label does (a missing one: None, NaN, an empty cell; with declared
        ``labels``, one outside them): ``error`` (the default, ``None``), ``wrong`` or ``omit``; see
        :data:`clfeval.INVALID_POLICIES` and :mod:`clfeval.count.invalid`.

    Examples
    --------
    >>> Scoring(labels=["a", "b"], beta=2).labels_from
    'given'
    """

    labels: Sequence[Any] | None = None
    labels_from: str | None = None
    train: Any = None
    beta: float = 1.0
    zero_division: float | str = 0
    undefined: str = "include"
    ordinal: bool | Sequence[Any] = False
    invalid: str | None = None
    pos_label: Any = None

    def __post_init__(self) -> None:
        if self.labels is not None:
            if isinstance(self.labels, str):
                raise OptionError(f"labels is a list of labels, not the string {self.labels!r}")
            object.__setattr__(self, "labels", tuple(self.labels))
        if self.labels_from is not None and self.labels_from not in LABEL_SOURCES:
            raise unknown_name("label source", self.labels_from, LABEL_SOURCES)
        if self.labels_from is None and self.labels is None and not isinstance(self.ordinal, (bool, str, bytes)):
            pass  # the order, a list of labels, declares them (below)
        elif self.labels_from is None:
            default = "given" if self.labels is not None else "train" if self.train is not None else None
            object.__setattr__(self, "labels_from", default)
        if self.labels_from == "train" and self.train is None:
            raise OptionError("the label source 'train' needs training data (--train FILE or train=...)")
        if self.labels_from == "given" and self.labels is None:
            raise OptionError("the label source 'given' needs a list of labels (--labels FILE or labels=[...])")
        beta = self.beta
        if isinstance(beta, bool) or not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta > 0):
            raise OptionError(f"beta must be a positive number, not {beta!r}")
        object.__setattr__(self, "beta", float(beta))
        parse_zero_division(self.zero_division)
        if self.undefined not in UNDEFINED_POLICIES:
            raise unknown_name("undefined policy", self.undefined, UNDEFINED_POLICIES)
        if not isinstance(self.ordinal, bool):
            if isinstance(self.ordinal, (str, bytes)) or not isinstance(self.ordinal, Iterable):
                raise OptionError(
                    f"ordinal is the labels in their order (a list), or True or False, not {self.ordinal!r}"
                )
            order = tuple(self.ordinal)
            if len(order) < 2:
                raise OptionError(f"ordinal orders two labels or more, not {list(order)!r}")
            object.__setattr__(self, "ordinal", order)
            if len(set(order)) != len(order):
                raise OptionError(
                    "ordinal names each label once; it repeats "
                    f"{sorted({x for x in order if order.count(x) > 1}, key=str)}"
                )
            if self.labels is not None:  # both: the same labels, and the order is the report order too
                if len(self.labels) != len(order) or set(self.labels) != set(order):
                    raise OptionError(
                        f"labels= and ordinal= name different labels ({list(self.labels)} and {list(order)}): "
                        "ordinal= alone declares the labels and their order"
                    )
                object.__setattr__(self, "labels", order)
            if self.labels_from not in (None, "given"):
                raise OptionError(
                    f"ordinal=[...] declares the labels and their order, and labels_from={self.labels_from!r} another "
                    "label set: leave one out (ordinal=True orders a policy's labels numerically)"
                )
            if self.labels is None:  # the order declares the labels
                object.__setattr__(self, "labels", order)
                object.__setattr__(self, "labels_from", "given")
        if self.pos_label is not None and (
            isinstance(self.pos_label, (list, tuple, set, dict)) or is_missing(self.pos_label)
        ):
            raise OptionError(f"pos_label is one label (the positive class), not {self.pos_label!r}")
        check_invalid_policy(self.invalid)

    @classmethod
    def of(cls, value: Scoring | None) -> Scoring:
        """The group itself, or the defaults for ``None``."""
        if value is None:
            return cls()
        if not isinstance(value, Scoring):
            raise OptionError(f"scoring is a clfeval.Scoring, not {type(value).__name__}")
        return value

    @property
    def frequencies(self) -> LabelFrequencies | None:
        """The training frequencies, once :meth:`with_frequencies` has resolved ``train``."""
        if self.train is None or isinstance(self.train, LabelFrequencies):
            return self.train
        raise OptionError("the training data has not been read yet")  # the task reads it before scoring

    def with_frequencies(self, frequencies: LabelFrequencies | None) -> Scoring:
        """This group with ``train`` read into label frequencies."""
        return replace(self, train=frequencies)
