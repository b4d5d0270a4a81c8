"""The measures of scored predictions by name (:data:`SCORED_MEASURES`) and their averages (:data:`SCORED_AVERAGES`):
what each is, its direction and range, whether it needs probabilities, and which scored data it applies to — what
``clfeval explain`` prints, what a comparison ranks by, and how a score's report name (``macro.auc``,
``per_label.<c>.average_precision``, ``top_3_accuracy``) is read.

The computations live beside their tables (:mod:`clfeval.scoring.ranking`, :mod:`clfeval.scoring.probability`,
:mod:`clfeval.scoring.labelranking`); :func:`clfeval.scoring.scored.measures_of` names every value by these names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["SCORED_AVERAGES", "SCORED_MEASURES", "ScoredMeasure", "scored_measure_of"]


@dataclass(frozen=True)
class ScoredMeasure:
    """A measure of scored predictions.

    Attributes
    ----------
    name, title, definition
        Its report name, a few words, and its formula.
    higher_is_better
        The direction its comparisons rank by (``False``: losses and calibration errors).
    low, high
        Its range.
    probabilities
        Whether it reads the scores as probabilities (``False``: ranking alone).
    applies
        The scored data it is reported for: ``binary``, ``multiclass``, ``multilabel``.
    averaged
        The averages it is reported under (``macro.auc`` …), ``()`` for none.
    convention
        The choice that moves its number, as the output names it.
    references
        Where it is defined.
    """

    name: str
    title: str
    definition: str
    higher_is_better: bool
    low: float
    high: float
    probabilities: bool
    applies: frozenset[str]
    averaged: tuple[str, ...] = ()
    convention: str = ""
    references: tuple[str, ...] = ()


_ALL = frozenset({"binary", "multiclass", "multilabel"})
_INF = float("inf")
_CALIBRATION = "--bins, --binning (conventions.calibration)"  # what moves every calibration error

#: The measures of scored predictions, by report name.
SCORED_MEASURES: Mapping[str, ScoredMeasure] = {
    m.name: m
    for m in (
        ScoredMeasure(
            "auc",
            "ROC AUC",
            "the area under the ROC curve of a score column against the rest: the chance a positive scores above a "
            "negative, ties counting ½ (midranks)",
            True,
            0.0,
            1.0,
            False,
            _ALL,
            ("macro", "weighted", "micro", "ovo", "ovo_weighted", "samples"),
            "ties between a positive and a negative count ½; conventions.auc_ties",
            ("Hanley & McNeil 1982", "Hand & Till 2001 (ovo)"),
        ),
        ScoredMeasure(
            "average_precision",
            "average precision",
            "Σ_n (R_n − R_{n−1}) P_n over the distinct thresholds from the highest down (step-wise, no interpolation)",
            True,
            0.0,
            1.0,
            False,
            _ALL,
            ("macro", "weighted", "micro", "samples"),
            "step-wise, as scikit-learn's average_precision_score",
        ),
        ScoredMeasure(
            "log_loss",
            "log loss",
            "−(1/N) Σ log p_gold, p clipped to [ε, 1 − ε], ε = 2.22·10⁻¹⁶ (multi-label: the mean binary cross-entropy "
            "of every (instance, label) pair)",
            False,
            0.0,
            _INF,
            True,
            _ALL,
            convention="the clip ε (conventions.log_loss_clip)",
        ),
        ScoredMeasure(
            "brier",
            "Brier score",
            "the mean squared error of the probabilities: binary (p − y)², more classes Σ_k (p_k − y_k)², as "
            "scikit-learn's brier_score_loss (--brier sum, half, mean for the other normalisations)",
            False,
            0.0,
            2.0,
            True,
            _ALL,
            convention="--brier (conventions.brier)",
            references=("Brier 1950",),
        ),
        ScoredMeasure(
            "ece",
            "expected calibration error",
            "Σ_b (n_b/N)|ȳ_b − p̄_b| over bins of the confidence (binary: the positive class's probability; "
            "multi-class: the top label's)",
            False,
            0.0,
            1.0,
            True,
            _ALL,
            convention=_CALIBRATION,
            references=("Naeini, Cooper & Hauskrecht 2015", "Guo et al. 2017"),
        ),
        ScoredMeasure(
            "mce",
            "maximum calibration error",
            "max_b |ȳ_b − p̄_b| over the bins that hold instances",
            False,
            0.0,
            1.0,
            True,
            _ALL,
            convention=_CALIBRATION,
        ),
        ScoredMeasure(
            "ece_debiased",
            "debiased calibration error",
            "the debiased estimator of the squared calibration error's root (Kumar, Liang & Ma 2019)",
            False,
            0.0,
            1.0,
            True,
            _ALL,
            convention=_CALIBRATION,
            references=("Kumar, Liang & Ma 2019",),
        ),
        ScoredMeasure(
            "ece_classwise",
            "class-wise calibration error",
            "the mean over classes of each class's calibration error of its own probability",
            False,
            0.0,
            1.0,
            True,
            frozenset({"multiclass"}),
            convention=_CALIBRATION,
        ),
        ScoredMeasure(
            "top_k_accuracy",
            "top-k accuracy",
            "the share of instances whose gold class is among the k highest scores (reported as top_<k>_accuracy, "
            "k = 1, 3, 5 below the number of classes)",
            True,
            0.0,
            1.0,
            False,
            frozenset({"multiclass"}),
            convention="--top-k-ties (conventions.top_k_ties): expected, optimistic, pessimistic or sklearn",
        ),
        ScoredMeasure(
            "lrap",
            "label ranking average precision",
            "the mean over instances and their gold labels of the share of labels ranked at or above the gold label "
            "that are gold, as scikit-learn's label_ranking_average_precision_score",
            True,
            0.0,
            1.0,
            False,
            frozenset({"multilabel"}),
        ),
        ScoredMeasure(
            "coverage_error",
            "coverage error",
            "the mean over instances of how far down the ranking one must go to cover every gold label, as "
            "scikit-learn's coverage_error",
            False,
            0.0,
            _INF,
            False,
            frozenset({"multilabel"}),
        ),
        ScoredMeasure(
            "ranking_loss",
            "ranking loss",
            "the mean over instances of the share of (gold, other) label pairs ranked the wrong way, as "
            "scikit-learn's label_ranking_loss",
            False,
            0.0,
            1.0,
            False,
            frozenset({"multilabel"}),
        ),
    )
}

#: How a measure of scored predictions is averaged over the classes (labels), by name.
SCORED_AVERAGES: Mapping[str, str] = {
    "macro": "the mean of the classes' one-vs-rest values (scikit-learn's average='macro', multi_class='ovr')",
    "weighted": "the classes' one-vs-rest values weighted by each class's gold support (average='weighted')",
    "micro": "the value of every (instance, class) pair pooled: the one-vs-rest tables added (average='micro')",
    "ovo": "Hand & Till (2001): the mean over pairs of classes of the mean of A(i|j) and A(j|i) (multi_class='ovo')",
    "ovo_weighted": "Hand & Till's pairs weighted by the prevalence of the pair (multi_class='ovo', "
    "average='weighted')",
    "samples": "multi-label: the mean over instances of each instance's value over its labels (average='samples'); "
    "instances where it is undefined are left out and counted",
}

_TOP_K = re.compile(r"top_(\d+)_accuracy")


def scored_measure_of(name: str) -> ScoredMeasure | None:
    """The measure a scored result's report name names: ``auc``, ``macro.auc``, ``per_label.<c>.auc``,
    ``top_3_accuracy``; ``None`` for no measure of scored predictions."""
    last = name.rsplit(".", 1)[-1]
    if _TOP_K.fullmatch(last):
        return SCORED_MEASURES["top_k_accuracy"]
    return SCORED_MEASURES.get(last)
