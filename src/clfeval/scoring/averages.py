"""Averaging methods, by name: each turns per-label values (and counts) into one value of each averaged measure.

Every average is a registry entry with its formula in words; nothing averages implicitly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.labelsets import LabelSetCounts, Occurrences
from clfeval.scoring.measures import MEASURES, Setting, averaged_measures, check_reads
from clfeval.scoring.parts import Parts, Separable
from clfeval.scoring.ratios import ratio

__all__ = [
    "AVERAGED",
    "AVERAGES",
    "Average",
    "AverageInput",
    "PerLabel",
    "SampleSums",
    "instance_measures",
    "weighted_mean",
]

#: The measures every average gives, in report order (the ``averaged`` entries of :data:`MEASURES`).
AVERAGED: tuple[str, ...] = averaged_measures()


@dataclass(frozen=True, eq=False)
class PerLabel:
    """Per-label values of each measure over the label set, and where each was undefined (0/0).

    Arrays have the label set as their last axis; leading axes, when present, index resamples.
    """

    counts: LabelCounts
    values: Mapping[str, np.ndarray]
    undefined: Mapping[str, np.ndarray]

    def stacked(self, measures: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The values and 0/0 masks of ``measures``, stacked on a leading axis in that order (kept for reuse: every
        weighted average reads the same stack)."""
        cache: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray]] = self.__dict__.setdefault("_stacks", {})
        if measures not in cache:
            cache[measures] = (
                np.stack([np.asarray(self.values[m], dtype=np.float64) for m in measures]),
                np.stack([np.asarray(self.undefined[m], dtype=bool) for m in measures]),
            )
        return cache[measures]


@dataclass(frozen=True, eq=False)
class SampleSums:
    """Sums over instances of each per-instance measure: what the ``samples`` average needs.

    For each measure m: ``sums[m]`` = Σ of the measure over the instances where it is defined,
    ``defined[m]`` = how many instances those are, and ``total`` = all instances. All three are
    linear in the instance counts, so resamples and merged parts add them up like counts.
    """

    sums: Mapping[str, np.ndarray]
    defined: Mapping[str, np.ndarray]
    total: np.ndarray

    @classmethod
    def of(cls, counts: LabelSetCounts, label_set: Sequence[str], beta: float) -> SampleSums:
        """The sums of multi-label ``counts`` over ``label_set``."""
        values = instance_measures(counts.occurrences(label_set), beta)
        w = counts.weights.astype(np.float64)
        return cls(
            {m: w @ v for m, (v, _) in values.items()},
            {m: w @ d.astype(np.float64) for m, (_, d) in values.items()},
            np.asarray(w.sum()),
        )


def instance_measures(occurrences: Occurrences, beta: float) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each unique pair's value of every averaged measure over the label set, 0 where undefined, and where defined.

    Notes
    -----
    Each instance is one count table over the label set: tp = I = Σ_λ min(gold, pred), fp = |pred| − I,
    fn = |gold| − I, tn = the labels in neither list; each measure is its per-label formula on those
    (P = I/|pred|, R = I/|gold|, F_β = (1+β²)I/(β²|gold| + |pred|), Jaccard = I/|gold ∪ pred| …). The sums run
    over each pair's occurrences only, O(occurrences), and tn = K − the labels the pair holds.
    """
    occ = occurrences
    tp = occ.row_sums(np.minimum(occ.gold, occ.pred))
    fp, fn = occ.row_sums(occ.pred) - tp, occ.row_sums(occ.gold) - tp
    tn = occ.n_labels - occ.labels_per_row()
    setting = Setting(beta, 0.0, label_sets=True)
    out = {}
    for m in averaged_measures():
        value, undefined = MEASURES[m].compute(tp, fp, fn, tn, setting)
        out[m] = (value, ~undefined)
    return out


@dataclass(frozen=True, eq=False)
class AverageInput:
    """Everything an average may need, computed once per report (or once per batch of resamples).

    ``frequencies`` are the lfb weights from training data, ``None`` when they are the test gold's relative
    frequencies (then lfb weights each label by its gold support: the same mean, and a sum of per-label parts).
    """

    per_label: PerLabel
    beta: float
    zero_division: float
    undefined: str
    frequencies: np.ndarray | None
    samples: SampleSums | None
    measures: tuple[str, ...] = field(default_factory=averaged_measures)


Result = dict[str, np.ndarray]
Sums = Mapping[str, np.ndarray]


def weighted_mean(
    values: np.ndarray, weights: np.ndarray, undefined: np.ndarray, policy: str, zero_division: float
) -> tuple[np.ndarray, np.ndarray]:
    """Σ wᵢvᵢ / Σ wᵢ over the last axis; with ``policy="exclude"`` labels whose value is undefined drop out.

    Returns the mean and whether it is itself undefined (no weight left), both of the leading shape.
    """
    num, total = _weighted_terms(values, weights, undefined, policy)
    return ratio(num.sum(axis=-1), total.sum(axis=-1), zero_division)


def _weighted_terms(
    values: np.ndarray, weights: np.ndarray, undefined: np.ndarray, policy: str
) -> tuple[np.ndarray, np.ndarray]:
    """Each label's wᵢvᵢ and wᵢ (0 for a label that drops out), the parts of a weighted mean."""
    values = np.asarray(values, dtype=np.float64)
    shape = np.broadcast_shapes(np.shape(values), np.shape(weights))
    w = np.broadcast_to(np.asarray(weights, dtype=np.float64), shape)
    if policy == "exclude":
        w = np.where(undefined, 0.0, w)
    if np.isnan(values).any():  # a NaN value (zero_division nan) with no weight stays out: NaN·0 would be NaN
        values = np.where(w > 0, values, 0.0)
    return values * w, w


def _weighted_parts(inp: AverageInput, weights: np.ndarray) -> Parts:
    # every averaged measure at once: a leading axis of measures (one product, not one per measure)
    values, undefined = inp.per_label.stacked(inp.measures)
    num, total = _weighted_terms(values, weights, undefined, inp.undefined)
    parts: dict[str, np.ndarray] = {}
    for i, m in enumerate(inp.measures):
        parts[f"{m}/num"], parts[f"{m}/den"] = num[i], total[i]
    return parts


def _weighted(r: Sums, inp: AverageInput) -> Result:
    return {m: ratio(r[f"{m}/num"], r[f"{m}/den"], inp.zero_division)[0] for m in inp.measures}


def _micro_parts(inp: AverageInput) -> Parts:
    c = inp.per_label.counts
    return {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}


def _micro(r: Sums, inp: AverageInput) -> Result:
    setting = Setting(inp.beta, inp.zero_division)
    return {m: MEASURES[m].compute(r["tp"], r["fp"], r["fn"], r["tn"], setting)[0] for m in inp.measures}


def _macro_parts(inp: AverageInput) -> Parts:
    return _weighted_parts(inp, np.ones(len(inp.per_label.counts.labels)))


def _macro_fa(r: Sums, inp: AverageInput) -> Result:
    out = _weighted(r, inp)
    if "f" not in out:
        return out
    p, r_, b2 = out["precision"], out["recall"], inp.beta**2
    out["f"] = ratio((1 + b2) * p * r_, b2 * p + r_, inp.zero_division)[0]
    return out


def _support_parts(inp: AverageInput) -> Parts:
    return _weighted_parts(inp, inp.per_label.counts.support)


def _lfb_parts(inp: AverageInput) -> Parts:
    return _weighted_parts(inp, inp.per_label.counts.support if inp.frequencies is None else inp.frequencies)


def _samples(r: Sums, inp: AverageInput) -> Result:
    assert inp.samples is not None
    s = inp.samples
    out = {}
    for m in inp.measures:
        if inp.undefined == "exclude":
            out[m] = ratio(s.sums[m], s.defined[m], inp.zero_division)[0]
        else:  # undefined instances count with the zero-division value
            missing = s.total - s.defined[m]
            num = s.sums[m] + np.where(missing > 0, missing * inp.zero_division, 0.0)
            out[m] = ratio(num, s.total, inp.zero_division)[0]
    return out


def _no_parts(inp: AverageInput) -> Parts:
    return {}


@dataclass(frozen=True)
class Average:
    """A named averaging method.

    Attributes
    ----------
    name
        The report (and JSON) name.
    title
        How the text report names it.
    definition
        The formula in words, printed in every report that uses it.
    short
        A short parenthetical for report rows; ``{F}`` stands for F1/F2…, ``{freq}`` for the lfb source.
    tasks
        The tasks it applies to ("single-label", "multi-label").
    compute
        Per-label input → {measure: value} for every measure of ``input.measures`` (default :data:`AVERAGED`;
        with F, macro_fa needs precision and recall among them), arrays of the input's
        leading shape: a :class:`~clfeval.scoring.parts.Separable`, per-label parts (Σ wᵢvᵢ and Σ wᵢ of a
        weighted mean, the counts micro sums) and what combines their sums.
    references
        Where the average is defined or named (author, year), for ``clfeval explain``.
    reads
        The sums (names of :data:`~clfeval.scoring.measures.SUMS`) it reads besides those of the measures it
        averages (a keyword, required; empty when the measures' own sums are all it reads): the gold support of a
        weighted mean, the per-instance sums of ``samples``.
    """

    name: str
    title: str
    definition: str
    short: str
    tasks: frozenset[str]
    compute: Separable
    references: tuple[str, ...] = ()
    reads: frozenset[str] = field(kw_only=True)

    def __post_init__(self) -> None:
        check_reads(self.reads, f"the average {self.name!r}")


_BOTH = frozenset({"single-label", "multi-label", "spans"})

#: The averaging methods, in report order.
AVERAGES: Mapping[str, Average] = {
    a.name: a
    for a in (
        Average(
            "micro",
            "micro",
            "the measure on tp, fp, fn and tn summed over the label set",
            "summed tp, fp, fn, tn",
            _BOTH,
            Separable(_micro_parts, _micro),
            references=(
                "Van Asch 2013 §3.2, eq. 9 (after Sebastiani 2002; Manning et al. 2008; Tsoumakas et al. 2010)",
                "Frank 2019 (single-label: micro P = micro R = micro F = accuracy)",
                "Takahashi et al. 2022 (miF1)",
            ),
            reads=frozenset(),
        ),
        Average(
            "macro",
            "macro (AF)",
            "unweighted mean over the label set of each label's measure",
            "AF: mean of per-label {F}",
            _BOTH,
            Separable(_macro_parts, _weighted),
            references=(
                "Van Asch 2013 §3.1, eq. 8 (after Tsoumakas et al. 2010)",
                "Opitz & Burst 2019 (AF: the mean of per-label F1)",
                "Takahashi et al. 2022 (maF1)",
            ),
            reads=frozenset(),
        ),
        Average(
            "macro_fa",
            "macro (FA)",
            "every measure as macro but F, which is the F of macro precision and macro recall",
            "FA: {F} of macro P and macro R",
            _BOTH,
            Separable(_macro_parts, _macro_fa),
            references=(
                "Sokolova & Lapalme 2009 (FA: the F1 of macro P and macro R; cited in Takahashi et al. 2022)",
                "Opitz & Burst 2019 (FA ≥ AF; rankings can flip)",
                "Takahashi et al. 2022 (maF1*)",
            ),
            reads=frozenset(),
        ),
        Average(
            "weighted",
            "weighted",
            "mean of each label's measure weighted by its gold support",
            "mean weighted by gold support",
            _BOTH,
            Separable(_support_parts, _weighted),
            references=("Frank 2019 (Weka's weighted average)", "Sefidian 2022 (scikit-learn's average='weighted')"),
            reads=frozenset({"tp", "fn"}),
        ),
        Average(
            "lfb",
            "lfb",
            "label-frequency-based: mean of each label's measure weighted by its relative "
            "frequency (training data when given, else test gold)",
            "mean weighted by {freq} label frequencies",
            _BOTH,
            Separable(_lfb_parts, _weighted),
            references=(
                "Van Asch 2013 §3.3, eq. 10 (label-frequency-based micro-average, after Daelemans et al. 2010)",
            ),
            reads=frozenset({"tp", "fn"}),
        ),
        Average(
            "samples",
            "samples",
            "mean over instances of the measure on each instance's gold and predicted label sets",
            "mean over instances",
            frozenset({"multi-label"}),
            Separable(_no_parts, _samples),
            references=(
                "Tsoumakas et al. 2010 (example-based measures of multi-label data)",
                "scikit-learn's average='samples'",
            ),
            reads=frozenset({"samples", "n"}),
        ),
    )
}
