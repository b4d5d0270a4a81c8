"""How far can macro precision be moved without being right more often? (Van Asch §6, Table 8.)

Macro-averaged precision rewards giving false positives away: a label that loses δ false
positives gains precision, a label that receives them loses less (eq. 22, see
:mod:`clfeval.scoring.shifts`). So moving every doubtful prediction onto one label raises macro
precision without a single extra correct prediction. Three scorings of the same instances show
how much:

* ``normal``  — the predictions as they are;
* ``changed`` — every prediction the confidence calls doubtful changed to the target label;
* ``upper``   — every *wrong* prediction changed to the target: the bound of the trick.

Doubtful is a threshold on the confidence (``threshold``), or where the calibrated accuracy falls
below ``expected_accuracy`` (the seed changed predictions whose expected accuracy was below 35%).
The calibration is the accuracy per confidence bin (the seed's Figure 1), made monotone by
pooling adjacent violators, estimated on the evaluated data themselves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, ClassVar

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.errors import OptionError
from clfeval.result import TEXT_FORMATS, FlatScores, FrozenDict, Result, flat_name, json_safe, signature_number
from clfeval.scoring.computation import score_counts, seen_labels
from clfeval.scoring.options import Scoring
from clfeval.scoring.scores import Scores

__all__ = ["FINAGLE_SCHEMA", "SCENARIOS", "CalibrationBin", "Finagle", "calibrate", "finagle_counts"]

FINAGLE_SCHEMA = "clfeval.finagle/2"
#: The three scorings, in report order.
SCENARIOS: Mapping[str, str] = {
    "normal": "the predictions as they are",
    "changed": "every doubtful prediction changed to the target label",
    "upper": "every wrong prediction changed to the target label: the most the trick can give",
}


@dataclass(frozen=True)
class CalibrationBin:
    """Instances whose confidence lies in [low, high] (as given: distances when lower is more confident)."""

    low: float
    high: float
    n: int
    correct: int
    calibrated: float  # the bin's accuracy after pooling adjacent violators (non-decreasing in sureness)
    changed: int = 0  # instances of the bin whose prediction was changed (those already on the target are not)

    @property
    def accuracy(self) -> float:
        return self.correct / self.n


def _pooled(correct: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Pool adjacent violators: the weighted non-decreasing fit to correct/n (a few dozen bins, not instances)."""
    blocks: list[list[float]] = []  # [correct, n, bins]
    for c, m in zip(correct.tolist(), n.tolist()):
        blocks.append([c, m, 1])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] > blocks[-1][0] * blocks[-2][1]:
            c2, m2, k2 = blocks.pop()
            blocks[-1] = [blocks[-1][0] + c2, blocks[-1][1] + m2, blocks[-1][2] + k2]
    return np.concatenate([np.full(int(k), c / m) for c, m, k in blocks])


#: Instances per calibration bin by default: the accuracy of 100 instances has a standard error ≤ 0.05.
BIN_SIZE = 100
#: At most this many calibration bins by default.
MAX_BINS = 10_000


def default_bins(n_instances: int) -> int:
    """N / :data:`BIN_SIZE` bins, at least one and at most :data:`MAX_BINS`."""
    return int(min(MAX_BINS, max(1, n_instances // BIN_SIZE)))


def check_rule(threshold: float | None, expected_accuracy: float | None, bins: int | None) -> None:
    """Refuse a doubt rule that is not exactly one of a threshold and an expected accuracy (a proportion), or a
    number of calibration bins that is not a positive whole number."""
    if (threshold is None) == (expected_accuracy is None):
        raise OptionError("give either a threshold or an expected accuracy (not both)")
    if threshold is not None and math.isnan(threshold):
        raise OptionError("the threshold must be a number, not nan")
    if expected_accuracy is not None and not 0 <= expected_accuracy <= 1:
        raise OptionError(f"the expected accuracy is a proportion between 0 and 1, not {expected_accuracy}")
    if bins is not None and (isinstance(bins, bool) or not isinstance(bins, int) or bins < 1):
        raise OptionError(f"bins must be a positive whole number, not {bins!r}")


def calibrate(counts: ConfidenceCounts, bins: int | None = None) -> tuple[tuple[CalibrationBin, ...], np.ndarray]:
    """Accuracy per confidence bin, least confident first, and each row's bin.

    Bins hold about N/``bins`` instances each (default :func:`default_bins`: about 100 each);
    ties are never split, so there are fewer bins when values repeat, and one per distinct value
    when there are at most ``bins`` of them.
    """
    bins = default_bins(counts.n_instances) if bins is None else bins
    if bins < 1:
        raise OptionError(f"bins must be at least 1, not {bins}")
    sure = counts.sureness
    values, inverse = np.unique(sure, return_inverse=True)
    per_value = np.bincount(inverse, weights=counts.counts, minlength=len(values))
    right = np.bincount(inverse, weights=counts.counts * counts.correct, minlength=len(values))
    if len(values) <= bins:
        bin_of_value = np.arange(len(values))
    else:
        before = np.cumsum(per_value) - per_value
        bin_of_value = np.minimum(bins - 1, np.floor(bins * before / per_value.sum())).astype(np.intp)
        _, bin_of_value = np.unique(bin_of_value, return_inverse=True)
    k = int(bin_of_value.max()) + 1 if len(values) else 0
    n = np.bincount(bin_of_value, weights=per_value, minlength=k)
    correct = np.bincount(bin_of_value, weights=right, minlength=k)
    low = np.full(k, np.inf)
    high = np.full(k, -np.inf)
    np.minimum.at(low, bin_of_value, values)
    np.maximum.at(high, bin_of_value, values)
    if counts.lower_is_more_confident:  # back to distances: a bin's sureness [lo, hi] is distance [−hi, −lo]
        low, high = -high, -low
    pooled = _pooled(correct, n) if k else np.zeros(0)
    out = tuple(
        CalibrationBin(float(low[i]), float(high[i]), round(n[i]), round(correct[i]), float(pooled[i]))
        for i in range(k)
    )
    return out, bin_of_value[inverse]


@dataclass(frozen=True, repr=False)
class Finagle(Result):
    """NORMAL, CHANGED and UPPER scorings of the same predictions, and how the doubtful ones were chosen.

    Attributes
    ----------
    target, target_source
        The label doubtful predictions were changed to, and why that one (``given``, ``training``:
        the most frequent training label, ``gold``: the most frequent gold label).
    rule
        ``threshold`` or ``expected_accuracy``.
    threshold
        The confidence below which (distance above which) predictions were changed.
    expected_accuracy
        The calibrated accuracy below which predictions were changed (rule ``expected_accuracy``).
    lower_is_more_confident
        The column held distances.
    bins
        The calibration: accuracy per confidence bin, least confident first.
    moved
        ``changed``: predictions changed (those already on the target are not); ``lost``: right
        before, wrong now; ``gained``: wrong before, right now (their gold is the target);
        ``still_wrong``: wrong before and after (a false positive moved to the target), so
        changed = lost + gained + still_wrong and the accuracy moves by (gained − lost) / N;
        ``upper_changed`` and ``upper_gained`` for UPPER.
    scenarios
        ``normal``, ``changed``, ``upper`` → :class:`Scores` over the same label set.
    """

    kind: ClassVar[str] = "finagle"
    formats: ClassVar[tuple[str, ...]] = TEXT_FORMATS
    report_builder: ClassVar[str] = "clfeval.report.finagle:finagle_report"

    target: str
    target_source: str
    rule: str
    threshold: float
    expected_accuracy: float | None
    lower_is_more_confident: bool
    bins: tuple[CalibrationBin, ...]
    moved: Mapping[str, int]
    scenarios: Mapping[str, Scores]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        """The three scenarios' scores as one flat mapping for an experiment tracker (``normal/macro/precision``,
        ``changed/…``, ``upper/…``, as :meth:`Scores.flat`) and the predictions moved (``moved/changed`` …)."""
        out = FlatScores(sep)
        for name, scores in self.scenarios.items():
            out.update(scores.flat(sep, per_label=per_label, prefix=(name,)))
        for name, value in self.moved.items():
            out[flat_name(["moved", name], sep)] = float(value)
        return dict(out)

    def signature_parts(self) -> list[tuple[str, str]]:
        """What decides these numbers (see :attr:`~clfeval.result.Result.signature`): the scoring choices of the
        scenarios and the rule that chose the doubtful predictions."""
        if self.rule == "threshold" or self.expected_accuracy is None:
            rule = self.changed_where
        else:
            rule = f"expected accuracy < {signature_number(self.expected_accuracy)}"
        return [*self.scenarios["normal"].scoring_parts(), ("target", self.target), ("rule", rule)]

    @property
    def changed_where(self) -> str:
        """The rule in words: ``confidence < 0.4`` or ``distance > 1.5``."""
        if math.isinf(self.threshold):
            return "every prediction" if (self.threshold > 0) != self.lower_is_more_confident else "none"
        shown = signature_number(self.threshold)
        return f"distance > {shown}" if self.lower_is_more_confident else f"confidence < {shown}"

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The ``clfeval.finagle/2`` JSON contract: each scenario is a ``clfeval.score/2`` body (``matrix=False``:
        without its confusion matrix)."""
        from clfeval._version import __version__

        drop = ("schema", "clfeval_version", "signature", "inputs", "options")
        return json_safe(
            {
                "schema": FINAGLE_SCHEMA,
                "clfeval_version": __version__,
                "signature": self.signature,
                "target": {"label": self.target, "source": self.target_source},
                "rule": {
                    "kind": self.rule,
                    "threshold": None if math.isinf(self.threshold) else self.threshold,
                    "expected_accuracy": self.expected_accuracy,
                    "lower_is_more_confident": self.lower_is_more_confident,
                    "changed_where": self.changed_where,
                },
                "calibration": [
                    {
                        "low": b.low,
                        "high": b.high,
                        "n": b.n,
                        "correct": b.correct,
                        "accuracy": b.accuracy,
                        "calibrated": b.calibrated,
                        "changed": b.changed,
                    }
                    for b in self.bins
                ],
                "moved": dict(self.moved),
                "scenarios": {
                    name: {k: v for k, v in s.to_dict(matrix=matrix).items() if k not in drop}
                    for name, s in self.scenarios.items()
                },
                "inputs": dict(self.inputs),
                "options": dict(self.options),
            }
        )


def _target(counts: ConfidenceCounts, to: str | None, train: LabelFrequencies | None) -> tuple[str, str]:
    if to is not None:
        return str(to), "given"
    if train is not None and train.counts:
        return max(sorted(train.counts), key=lambda k: train.counts[k]), "training"
    gold = np.bincount(counts.gold, weights=counts.counts, minlength=len(counts.labels))
    return counts.labels[int(np.argmax(gold))], "gold"


def finagle_counts(
    counts: ConfidenceCounts,
    *,
    threshold: float | None = None,
    expected_accuracy: float | None = None,
    to: str | None = None,
    bins: int | None = None,
    scoring: Scoring | None = None,
    inputs: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    warnings: Sequence[str] = (),
) -> Finagle:
    """Score NORMAL, CHANGED and UPPER (see the module docstring) over one label set.

    Parameters
    ----------
    counts
        Unique (gold, predicted, confidence) rows with counts.
    threshold
        Change predictions with confidence below it (distance above it when the counts hold distances).
    expected_accuracy
        Instead: change the predictions in confidence bins whose calibrated accuracy is below it.
    to
        The target label (default: the most frequent training label, else the most frequent gold label).
    scoring
        As in :func:`clfeval.score` (``train`` read already); the label set is fixed by NORMAL's gold and
        predicted labels, so all three scorings average over the same labels (and NORMAL equals
        :func:`clfeval.score`).
        A target outside that set is warned about: predictions moved to it leave the averages.
    bins
        Calibration bins (default: about 100 instances each, see :func:`default_bins`).
    """
    scoring = scoring or Scoring()
    check_rule(threshold, expected_accuracy, bins)
    if counts.n_instances == 0:
        raise OptionError("no instances to score")
    target, source = _target(counts, to, scoring.frequencies)
    counts = counts.with_label(target)
    table, bin_of_row = calibrate(counts, bins)
    sure = counts.sureness
    if threshold is not None:
        limit = -threshold if counts.lower_is_more_confident else threshold
        change = sure < limit
        rule, shown = "threshold", float(threshold)
    else:
        assert expected_accuracy is not None  # check_rule: exactly one of the two rules
        doubtful = np.array([b.calibrated < expected_accuracy for b in table], dtype=np.bool_)
        change = doubtful[bin_of_row] if len(table) else np.zeros(len(sure), dtype=bool)
        kept = ~doubtful
        rule = "expected_accuracy"
        if not kept.any():
            shown = math.inf if not counts.lower_is_more_confident else -math.inf
        else:  # the least sure bin kept: predictions less sure than its least sure value were changed
            first = int(np.argmax(kept))
            shown = table[first].high if counts.lower_is_more_confident else table[first].low
    correct = counts.correct
    wrong = ~correct
    t = counts.labels.index(target)
    moves = counts.pred != t  # a prediction of the target is not changed by changing it to the target
    gold_is_target = counts.gold == t
    w = counts.counts
    per_bin = np.bincount(bin_of_row, weights=counts.counts * (change & moves), minlength=len(table))
    table = tuple(CalibrationBin(b.low, b.high, b.n, b.correct, b.calibrated, round(c)) for b, c in zip(table, per_bin))

    def total(mask: np.ndarray) -> int:
        return int(w[mask].sum())

    moved = {
        "changed": total(change & moves),
        "lost": total(change & moves & correct),
        "gained": total(change & moves & gold_is_target),
        "still_wrong": total(change & moves & wrong & ~gold_is_target),
        "upper_changed": total(wrong & moves),
        "upper_gained": total(wrong & gold_is_target),
    }
    normal = counts.confusion()
    seen = seen_labels(normal)
    score = partial(score_counts, scoring=scoring, seen=seen)
    plain = score(normal, warnings=warnings)
    if target not in plain.labels:
        plain = replace(
            plain,
            warnings=(
                *plain.warnings,
                (
                    f"the target label {target!r} is not in the label set ({plain.label_source}): predictions moved "
                    "to it leave the averaged labels, so their false positives count nowhere and CHANGED and UPPER "
                    "flatter every average; declare it with --labels or choose a label in the set"
                ),
            ),
        )
    scenarios = {
        "normal": plain,
        "changed": score(counts.confusion(counts.relabelled(change, target))),
        "upper": score(counts.confusion(counts.relabelled(wrong, target))),
    }
    return Finagle(
        target,
        source,
        rule,
        shown,
        expected_accuracy,
        counts.lower_is_more_confident,
        table,
        FrozenDict(moved),
        FrozenDict(scenarios),
        FrozenDict(inputs or {}),
        FrozenDict(options or {}),
    )
