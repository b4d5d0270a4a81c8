"""What decides a score besides the counts: which labels are averaged and how each ratio is defined, in one group."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.invalid import check_invalid_policy
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
        The labels are numbers on a scale, ordered numerically: measures that read an order (weighted κ) are then
        shown in reports. Labels that are not all numbers (a stray ``'NA'``) are an :class:`~clfeval.OptionError` when
        scored: declared labels (``labels``, source ``given``) declare any order, and need no ``ordinal``.
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
    ordinal: bool = False
    invalid: str | None = None

    def __post_init__(self) -> None:
        if self.labels is not None:
            if isinstance(self.labels, str):
                raise OptionError(f"labels is a list of labels, not the string {self.labels!r}")
            object.__setattr__(self, "labels", tuple(self.labels))
        if self.labels_from is not None and self.labels_from not in LABEL_SOURCES:
            raise unknown_name("label source", self.labels_from, LABEL_SOURCES)
        if self.labels_from is None:
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
            raise OptionError(f"ordinal is True or False, not {self.ordinal!r}")
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
