"""How good scores are as probabilities: log loss, the Brier score, calibration error, and top-k accuracy, from
:class:`~clfeval.count.scored.ScoreCounts`. Each convention that changes the number is a named choice here and is
stated wherever the value is reported:

* **Log loss** −(1/N) Σ log p_gold, with p clipped to [ε, 1 − ε], ε = 2.220446e-16 (float64's machine epsilon)
  whatever the input's dtype (scores are float64 once counted).
* **Brier score** (:data:`BRIER_NORMALISATIONS`): by default scikit-learn's ``brier_score_loss`` (its
  ``scale_by_half="auto"``): two classes (1/N) Σ (p − y)², p the positive class's probability; three or more classes
  (1/N) Σ_i Σ_k (p_ik − y_ik)² (Brier 1950). Or the sum for any number of classes (two classes: 2 (p − y)²), half
  of it, or the sum divided by K.
* **Calibration error** (:data:`CALIBRATION_TARGETS`, :data:`BINNINGS`): bins (a, b] of the confidence (the first
  bin holds 0 too); equal-width bins split [0, 1], equal-mass bins split at the quantiles of the confidences (linear
  interpolation, as numpy's ``percentile``); ECE = Σ_b (n_b / N) |ȳ_b − p̄_b|, MCE = max_b |ȳ_b − p̄_b| over bins
  with instances; the debiased estimator of the squared error (Kumar, Liang & Ma 2019),
  Σ_b (n_b / N) [(ȳ_b − p̄_b)² − ȳ_b (1 − ȳ_b) / (n_b − 1)], reported as the square root of its positive part.
* **Top-k accuracy** (:data:`TIE_RULES`): how ties with the gold class's score are counted.

Probabilities must be in [0, 1] and, with a column per class, sum to 1 within :data:`SUM_TOLERANCE`; a row that
does not is an error naming it.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from clfeval.count.scored import ScoreCounts
from clfeval.errors import OptionError

__all__ = [
    "BINNINGS",
    "are_probabilities",
    "BRIER_NORMALISATIONS",
    "CALIBRATION_TARGETS",
    "DEFAULT_BRIER",
    "DEFAULT_TIES",
    "LOG_LOSS_EPS",
    "SUM_TOLERANCE",
    "TIE_RULES",
    "Calibration",
    "brier",
    "brier_formula",
    "calibration",
    "check_probabilities",
    "class_probabilities",
    "classwise_ece",
    "log_loss",
    "top_k_accuracy",
    "top_k_right",
]

#: Probabilities are clipped to [ε, 1 − ε] in the log loss: float64's machine epsilon, whatever the input's dtype.
LOG_LOSS_EPS = float(np.finfo(np.float64).eps)
#: How far a row of class probabilities may sum from 1.
SUM_TOLERANCE = 1e-6

BRIER_NORMALISATIONS: Mapping[str, str] = {
    "sklearn": "scikit-learn's brier_score_loss (scale_by_half='auto'): two classes (p − y)² per instance, p the "
    "positive class's probability (half the sum); three or more classes the sum Σ_k (p_k − y_k)², averaged",
    "sum": "Σ_k (p_k − y_k)² per instance, averaged, whatever the number of classes (Brier 1950; two classes: "
    "2 (p − y)², twice scikit-learn's binary Brier)",
    "half": "half the sum, whatever the number of classes (two classes: (p − y)²)",
    "mean": "the sum divided by the number of classes K",
}
#: The Brier normalisation of :func:`brier`, the :class:`~clfeval.scoring.scored.Conventions` and ``--brier``.
DEFAULT_BRIER = "sklearn"
CALIBRATION_TARGETS: Mapping[str, str] = {
    "top-label": "the highest probability of each instance against whether its class is the gold one",
    "class-wise": "each class's probability against whether the instance is of that class, averaged over classes",
    "positive": "binary: the positive class's probability against whether the instance is positive",
}
BINNINGS: Mapping[str, str] = {
    "equal-width": "bins of equal width splitting [0, 1]",
    "equal-mass": "bins split at the quantiles of the confidences (about as many instances in each)",
}
TIE_RULES: Mapping[str, str] = {
    "expected": "the chance a random order of the tied classes puts the gold class in the top k",
    "optimistic": "right when fewer than k classes score strictly higher than the gold class",
    "pessimistic": "right when the gold class and every class tied with it are in the top k",
    "sklearn": "scikit-learn's top_k_accuracy_score: tied classes ranked by the class order, the later class first "
    "(a stable ascending sort, reversed): right when fewer than k classes score higher or tie and come later",
}
#: The tie rule of :func:`top_k_accuracy`, the :class:`~clfeval.scoring.scored.Conventions` and ``--top-k-ties``.
DEFAULT_TIES = "expected"


def class_probabilities(counts: ScoreCounts) -> np.ndarray:
    """The (rows × K) class probabilities: the columns as given, or binary p and 1 − p."""
    if counts.binary:
        p = counts.scores[:, 0]
        pos = counts.labels.index(counts.columns[0])
        out = np.empty((len(p), 2))
        out[:, pos], out[:, 1 - pos] = p, 1 - p
        return out
    order = [counts.columns.index(lab) for lab in counts.labels]
    return counts.scores[:, order]


def check_probabilities(counts: ScoreCounts, tolerance: float = SUM_TOLERANCE) -> None:
    """Refuse scores that are not probabilities: outside [0, 1], or (a column per class) rows that do not sum to 1
    within ``tolerance`` (multi-label: each label's probability stands alone, no sum).

    Raises
    ------
    OptionError
        Naming the first such row's scores and what was expected.
    """
    s = counts.scores
    outside = np.flatnonzero(((s < -tolerance) | (s > 1 + tolerance)).any(axis=1))
    hint = (
        "; if the scores are not probabilities, say so (--not-probabilities; Python: "
        "conventions=Conventions(not_probabilities=True))"
    )
    if len(outside):
        row = s[outside[0]].tolist()
        raise OptionError(f"scores {row} are not probabilities: every probability is in [0, 1]{hint}")
    if not counts.binary and not counts.multilabel:
        off = np.flatnonzero(np.abs(s.sum(axis=1) - 1) > tolerance)
        if len(off):
            row = s[off[0]]
            raise OptionError(
                f"the class probabilities {row.tolist()} sum to {row.sum():.9g}, not 1 (tolerance {tolerance:g}){hint}"
            )


def are_probabilities(counts: ScoreCounts, tolerance: float = SUM_TOLERANCE) -> bool:
    """Whether the scores are probabilities (:func:`check_probabilities` passes): the probability measures apply."""
    try:
        check_probabilities(counts, tolerance)
    except OptionError:
        return False
    return True


def log_loss(counts: ScoreCounts) -> float:
    """−(1/N) Σ log p_gold, p clipped to [ε, 1 − ε] (:data:`LOG_LOSS_EPS`)."""
    check_probabilities(counts)
    if counts.binary:  # the gold class's probability: p or 1 − p, without the rows × 2 table
        s = counts.scores[:, 0]
        p = np.where(counts.gold == counts.labels.index(counts.columns[0]), s, 1 - s)
    else:
        p = class_probabilities(counts)[np.arange(len(counts.gold)), counts.gold]
    p = np.clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    return float(-np.dot(counts.mass, np.log(p)) / counts.total)


def brier(counts: ScoreCounts, normalisation: str = DEFAULT_BRIER) -> float:
    """The Brier score, normalised as :data:`BRIER_NORMALISATIONS` names: ``sklearn`` (the default) equals
    scikit-learn's ``brier_score_loss`` (two classes, binary scores or a column per class: (1/N) Σ (p − y)²; three or
    more classes: (1/N) Σ_i Σ_k (p_ik − y_ik)²); ``sum`` counts both classes' squared errors of two classes too,
    2 (p − y)²."""
    if normalisation not in BRIER_NORMALISATIONS:
        raise OptionError(
            f"unknown Brier normalisation {normalisation!r}; the normalisations: {', '.join(BRIER_NORMALISATIONS)}"
        )
    check_probabilities(counts)
    if counts.binary:  # both classes' squared errors are (p − y)² each: 2 (p − y)², without the rows × 2 table
        y = counts.gold == counts.labels.index(counts.columns[0])
        per = 2 * (counts.scores[:, 0] - y) ** 2
        k = 2
    else:
        p = class_probabilities(counts)
        onehot = np.zeros_like(p)
        onehot[np.arange(len(p)), counts.gold] = 1
        per = ((p - onehot) ** 2).sum(axis=1)
        k = p.shape[1]
    value = float(np.dot(counts.mass, per) / counts.total)
    divisor = {"sklearn": 2.0 if k == 2 else 1.0, "sum": 1.0, "half": 2.0, "mean": float(k)}[normalisation]
    return value / divisor


def brier_formula(normalisation: str, classes: int) -> str:
    """What the Brier score of :func:`brier` is for data of ``classes`` classes under ``normalisation``, as a
    formula (the report states it beside the normalisation's name)."""
    full = "(1/N) Σ_i Σ_k (p_ik − y_ik)²"
    if classes == 2 and normalisation in ("sklearn", "half"):
        return "(1/N) Σ (p − y)², p the positive class's probability"
    if classes == 2 and normalisation == "sum":
        return "(2/N) Σ (p − y)², p the positive class's probability"
    if normalisation == "half":
        return f"½ {full}"
    if normalisation == "mean":
        return f"(1/{classes}) {full}"
    return full


class Calibration:
    """A calibration error and the reliability diagram behind it: per bin the edges, the instances, the mean
    confidence and the share right (with sample weights: the bins' weights ``weight`` and weighted means)."""

    def __init__(
        self,
        edges: np.ndarray,
        n: np.ndarray,
        confidence: np.ndarray,
        accuracy: np.ndarray,
        target: str,
        binning: str,
        weight: np.ndarray | None = None,
    ) -> None:
        self.edges, self.n, self.confidence, self.accuracy = edges, n, confidence, accuracy
        self.target, self.binning = target, binning
        self.weight = weight

    @property
    def mass(self) -> np.ndarray:
        """Each bin's weight W_b: its instances n_b, or with sample weights Σ w over them."""
        return np.asarray(self.n if self.weight is None else self.weight, dtype=np.float64)

    @property
    def ece(self) -> float:
        """Σ_b (W_b / W) |ȳ_b − p̄_b| (W_b = n_b without sample weights; ȳ_b, p̄_b weighted means)."""
        w = self.mass
        filled = w > 0
        return float(np.dot(w[filled], np.abs(self.accuracy[filled] - self.confidence[filled])) / w.sum())

    @property
    def mce(self) -> float:
        """max_b |ȳ_b − p̄_b| over bins with instances (of weight > 0)."""
        filled = self.mass > 0
        return float(np.abs(self.accuracy[filled] - self.confidence[filled]).max())

    @property
    def debiased(self) -> float:
        """√max(0, Σ_b (n_b / N) [(ȳ_b − p̄_b)² − ȳ_b (1 − ȳ_b) / (n_b − 1)]) over bins of two or more instances
        (Kumar, Liang & Ma 2019); NaN with sample weights, for which its bias correction is not derived."""
        if self.weight is not None:
            return float("nan")
        use = self.n > 1
        y, p, n = self.accuracy[use], self.confidence[use], self.n[use]
        squared = np.dot(n, (y - p) ** 2 - y * (1 - y) / (n - 1)) / self.n.sum()
        return float(np.sqrt(max(squared, 0.0)))


def _binned(
    confidence: np.ndarray, right: np.ndarray, weight: np.ndarray, bins: int, binning: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    if binning == "equal-width":
        edges = np.linspace(0.0, 1.0, bins + 1)
    elif binning == "equal-mass":
        edges = _weighted_percentiles(confidence, weight, np.linspace(0, 100, bins + 1))
    else:
        raise OptionError(f"unknown binning {binning!r}; the binnings: {', '.join(BINNINGS)}")
    which = np.searchsorted(edges[1:-1], confidence, side="left")  # (a, b]; 0 in the first bin
    n = np.bincount(which, weights=weight, minlength=bins)
    conf = np.bincount(which, weights=weight * confidence, minlength=bins)
    acc = np.bincount(which, weights=weight * right, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        return edges, n, conf / n, acc / n


def _weighted_percentiles(x: np.ndarray, weight: np.ndarray, q: np.ndarray) -> np.ndarray:
    """numpy's ``percentile`` (linear interpolation) of the data in which x[i] occurs weight[i] times."""
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], weight[order]
    cum = np.cumsum(ws)
    total = cum[-1]
    pos = q / 100 * (total - 1)
    lo, frac = np.floor(pos), pos - np.floor(pos)

    def at(k: np.ndarray) -> np.ndarray:  # the (k+1)-th smallest of the data
        out: np.ndarray = xs[np.searchsorted(cum, k + 1, side="left")]
        return out

    low = at(lo)
    out: np.ndarray = low + frac * (at(np.minimum(lo + 1, total - 1)) - low)
    return out


def _binning_weights(counts: ScoreCounts, binning: str) -> np.ndarray:
    """Each row's weight in the bins: its mass Σ m·w (the count without sample weights).

    Raises
    ------
    OptionError
        Equal-mass bins with sample weights: their edges are quantiles of instances, which weights leave undefined.
    """
    if counts.weighted and binning == "equal-mass":
        raise OptionError("equal-mass calibration bins are not defined with sample weights: use equal-width bins")
    return counts.mass


def calibration(
    counts: ScoreCounts, *, target: str = "top-label", bins: int = 15, binning: str = "equal-width"
) -> Calibration:
    """The calibration of the probabilities (:data:`CALIBRATION_TARGETS`): ``class-wise`` gives the mean of the
    classes' errors as :attr:`Calibration.ece` through :func:`classwise_ece`, so here it is refused."""
    cache: dict[tuple[str, int, str], Calibration] = counts.__dict__.setdefault("_calibration", {})
    if (target, bins, binning) not in cache:  # computed once per counts (the scores and the report read the same)
        cache[target, bins, binning] = _calibrated(counts, target, bins, binning)
    return cache[target, bins, binning]


def _calibrated(counts: ScoreCounts, target: str, bins: int, binning: str) -> Calibration:
    check_probabilities(counts)
    if target not in CALIBRATION_TARGETS or target == "class-wise":
        raise OptionError(f"calibration of {target!r}: give top-label or positive (class-wise: classwise_ece)")
    w = _binning_weights(counts, binning)
    if target == "positive":
        if not counts.binary:
            raise OptionError("the positive class's calibration is for binary scores")
        conf = counts.scores[:, 0]
        right = (counts.gold == counts.labels.index(counts.columns[0])).astype(np.float64)
    else:
        p = class_probabilities(counts)
        top = np.argmax(p, axis=1)  # ties: the first class of the label order
        conf = p[np.arange(len(p)), top]
        right = (top == counts.gold).astype(np.float64)
    return _calibration(counts, conf, right, w, bins, binning, target)


def _calibration(
    counts: ScoreCounts, conf: np.ndarray, right: np.ndarray, w: np.ndarray, bins: int, binning: str, target: str
) -> Calibration:
    """The bins of confidences ``conf`` and outcomes ``right`` of rows weighing ``w``; with sample weights the bins'
    instances counted apart from their weights."""
    edges, mass, confidence, accuracy = _binned(conf, right, w, bins, binning)
    if not counts.weighted:
        return Calibration(edges, mass, confidence, accuracy, target, binning)
    which = np.searchsorted(edges[1:-1], conf, side="left")
    n = np.bincount(which, weights=counts.count, minlength=bins)
    return Calibration(edges, n, confidence, accuracy, target, binning, weight=mass)


def classwise_ece(counts: ScoreCounts, *, bins: int = 15, binning: str = "equal-width") -> float:
    """The class-wise ECE: each class's probability against whether the instance is of that class, binned apart,
    the ECEs averaged over the classes."""
    check_probabilities(counts)
    p = class_probabilities(counts)
    w = _binning_weights(counts, binning)
    errors = []
    for k in range(p.shape[1]):
        right = (counts.gold == k).astype(np.float64)
        errors.append(_calibration(counts, p[:, k], right, w, bins, binning, "class-wise").ece)
    return float(np.mean(errors))


def top_k_accuracy(counts: ScoreCounts, k: int = 1, ties: str = DEFAULT_TIES) -> float:
    """The share of instances whose gold class is among the k highest scores, ties with the gold class's score
    counted as :data:`TIE_RULES` names: with h classes scoring higher and t classes tied (the gold class included),
    ``expected`` counts min(1, max(0, (k − h) / t)), ``optimistic`` h < k, ``pessimistic`` h + t ≤ k and ``sklearn``
    h + (the tied classes after the gold class in the class order) < k, as scikit-learn's ``top_k_accuracy_score``
    ranks them (its ``labels`` in this class order)."""
    if ties not in TIE_RULES:
        raise OptionError(f"unknown tie rule {ties!r}; the rules: {', '.join(TIE_RULES)}")
    p = class_probabilities(counts)
    if not 1 <= k <= p.shape[1]:
        raise OptionError(f"k is between 1 and the {p.shape[1]} classes, not {k}")
    return float(np.dot(counts.mass, top_k_right(p, counts.gold, k, ties)) / counts.total)


def top_k_right(p: np.ndarray, gold: np.ndarray, k: int, ties: str) -> np.ndarray:
    """Each row's share right in the top k (1, 0, or under ``expected`` a share), of its class probabilities ``p``
    (rows × K) and gold class codes, ties counted as :func:`top_k_accuracy` counts them."""
    g = p[np.arange(len(p)), gold][:, None]
    higher = (p > g).sum(axis=1)
    tied = (p == g).sum(axis=1)  # the gold class included
    if ties == "optimistic":
        right = higher < k
    elif ties == "pessimistic":
        right = higher + tied <= k
    elif ties == "sklearn":
        later = np.arange(p.shape[1])[None, :] > gold[:, None]
        right = higher + ((p == g) & later).sum(axis=1) < k
    else:
        return np.asarray(np.clip((k - higher) / tied, 0.0, 1.0))
    return np.asarray(right, dtype=np.float64)
