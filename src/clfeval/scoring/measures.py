"""The measures, by name: every score clfeval reports, each defined once as a function of counts.

A :class:`Measure` is a registry entry: its name (the JSON and ``--metric`` name), its formula in
words, the tasks it applies to, its direction and range, and its *one* computation. The point
estimate, the delta method's derivatives, the bootstrap, the jackknife and the randomization tests
all evaluate that computation, on the sums of cell-type weights (:class:`Tallies`, built by
:class:`clfeval.scoring.cells.CellTypes`), for a batch of count tables at once.

Two kinds of measure:

* **per label** (``scope="label"``): a ratio of the label's one-vs-rest counts tp, fp, fn, tn.
  Those marked ``averaged`` are also averaged by every method of :data:`clfeval.AVERAGES`
  (micro applies the same function to the summed counts; samples to each instance's counts).
* **overall** (``scope="overall"``): one value for the whole data set (accuracy, MCC, κ …), written as
  a :class:`~clfeval.scoring.parts.Separable`: per-label parts summed over the labels, then combined, so
  the delta method differentiates it label by label (``scoring/parts.py``).

Adding a measure is adding an entry here (and its tests): reports, JSON, CSV, LaTeX, HTML,
intervals, ``compare --metric`` and ``cv`` read this registry. The entry declares the sums its computation
reads (``reads``, names of :data:`SUMS`): the bootstrap and randomization move those sums, and nothing
chooses them by the measure's name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from clfeval.scoring.parts import Pair, Parts, Separable
from clfeval.scoring.ratios import f_beta, ratio

__all__ = [
    "MEASURES",
    "SPANS",
    "SUMS",
    "Measure",
    "Setting",
    "Tallies",
    "averaged_measures",
    "check_reads",
    "count_names",
    "label_measures",
    "overall_measures",
]

#: A value array and where it is undefined (0/0), of the same shape.
Values = tuple[np.ndarray, np.ndarray]

SINGLE = "single-label"
MULTI = "multi-label"
#: Spans of tagger output (:mod:`clfeval.spans`): counts without true negatives, so no measure that reads tn.
SPANS = "spans"
_BOTH = frozenset({SINGLE, MULTI})
_WITH_SPANS = frozenset({SINGLE, MULTI, SPANS})

#: The sums of :class:`Tallies` that a measure or an average may read, by name: what each entry of :data:`MEASURES`
#: (and of :data:`clfeval.AVERAGES`) declares in ``reads``. A resample or a randomization round moves the sums the
#: scores asked for read (:meth:`clfeval.scoring.statistics.ScoreFunction.sums_read`), and only those.
SUMS: Mapping[str, str] = {
    "tp": "each label's true positives",
    "fp": "each label's false positives",
    "fn": "each label's false negatives",
    "tn": "each label's true negatives: N less the instances whose gold or predicted labels hold it",
    "n": "the instances, N",
    "exact": "the instances predicted exactly right (the whole label set, for label sets)",
    "disagreement_linear": "single-label: Σ |i − j| over the instances, i and j the table positions of the gold and "
    "predicted label",
    "disagreement_quadratic": "single-label: Σ (i − j)² over the instances",
    "samples": "multi-label: each averaged measure summed over the instances where it is defined, and their number",
}


def check_reads(reads: frozenset[str], what: str) -> None:
    """Refuse a declaration of sums read that names a sum :data:`SUMS` does not hold."""
    unknown = sorted(set(reads) - set(SUMS))
    if unknown:
        raise ValueError(f"{what} reads {', '.join(map(repr, unknown))}, not sums; the sums: {', '.join(SUMS)}")


@dataclass(frozen=True)
class Setting:
    """The choices a computation needs: β of F_β, the value of a 0/0 ratio, and whether an instance holds a set of
    labels (the Hamming loss of single labels is the error rate; of label sets, the share of wrong label decisions)."""

    beta: float
    zero_division: float
    label_sets: bool = False


@dataclass(frozen=True, eq=False)
class Tallies:
    """The sums every measure is a function of, for B count tables at once (arrays lead with B).

    Attributes
    ----------
    tp, fp, fn, tn
        (B, T) one-vs-rest counts of the table's labels: the label set L first (``k`` of them), then,
        for single-label data, every other label of the confusion matrix in its order.
    k
        |L|: per-label measures, averages, micro FPR and the Hamming loss run over the first ``k``.
    n, exact
        (B,) the instances, and those predicted exactly right (the whole label set, for multi-label data).
    disagreement
        Single-label data: (B,) Σ w(i, j)·n_ij over the confusion matrix's cells for the weights of
        weighted κ, ``linear`` |i − j| and ``quadratic`` (i − j)², i and j the positions of the gold and
        predicted label in the table's order.
    samples
        Multi-label data: for each averaged measure, Σ over instances of its per-instance value where
        defined (``sums``) and the number of those instances (``defined``).
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    k: int
    n: np.ndarray
    exact: np.ndarray
    disagreement: Mapping[str, np.ndarray] = field(default_factory=dict)
    samples: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None
    #: The position of each column in the table's order (weighted κ's i and j): 0, 1, … unless the columns are
    #: other labels' (the jackknife's single labels side by side).
    positions: np.ndarray | None = None

    def label_set(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """tp, fp, fn, tn over the label set L (the first ``k`` labels)."""
        k = self.k
        return self.tp[..., :k], self.fp[..., :k], self.fn[..., :k], self.tn[..., :k]

    @cached_property
    def gold(self) -> np.ndarray:
        """Gold count of each of the table's labels: tp + fn."""
        gold: np.ndarray = self.tp + self.fn
        return gold

    @cached_property
    def predicted(self) -> np.ndarray:
        """Predicted count of each of the table's labels: tp + fp."""
        predicted: np.ndarray = self.tp + self.fp
        return predicted


#: A per-label measure: (tp, fp, fn, tn, setting) → values and where they are 0/0, elementwise.
LabelFunction = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Setting], Values]
#: An overall measure: (tallies, setting) → (B,) values and where they are 0/0 (a :class:`Separable` of
#: (tallies, setting) → parts and (sums of the parts, tallies, setting) → values).
OverallFunction = Callable[[Tallies, Setting], Values]


@dataclass(frozen=True)
class Measure:
    """A named measure.

    Attributes
    ----------
    name
        The JSON, CSV and ``--metric`` name (``f`` stands for F_β: ``f1``, ``f2`` … in reports).
    title
        How tables and figures name it.
    definition
        The formula in words.
    scope
        ``label`` (one value per label of L) or ``overall`` (one value for the data set).
    tasks
        The tasks it applies to: ``single-label``, ``multi-label``.
    higher_is_better
        The direction: false for error rates and losses.
    low, high
        The range of its values (a Wald interval is clipped to it).
    averaged
        Per-label measures: whether :data:`clfeval.AVERAGES` average it.
    undefined_when
        When the measure is 0/0, in words (``{label}`` stands for a label's name).
    short
        The formula in short, for the rows of overall measures (the definition when empty).
    denominator
        Per-label measures: the counts whose sum is 0 when the measure is 0/0 (``tp + fp``).
    compute
        Per label: (tp, fp, fn, tn, setting) → (values, undefined), elementwise. Overall: a
        :class:`~clfeval.scoring.parts.Separable` (tallies, setting) → (values, undefined).
    titles, aliases, ranges
        Per task: a title, an extra JSON/CSV name, a range that differ from the defaults
        (multi-label accuracy is subset accuracy, also named ``subset_accuracy``).
    ordered
        Whether the value depends on an order of the labels (weighted κ): it is given only where an order is
        declared (``ordinal=``, ``--ordinal``); without one it is withheld (``Scores.withheld``: ``null`` in the JSON,
        absent from reports, ``flat()`` and frames).
    references
        Where the measure is defined (author, year, what), for ``clfeval explain``.
    reads
        The sums of :class:`Tallies` its computation reads, by their names in :data:`SUMS` (a keyword, required):
        resamples and randomization rounds move exactly the sums that the measures and averages asked for declare,
        so a sum left out here stays at its observed value in every round.
    registered
        Whether :func:`clfeval.register_measure` added it (reports show it by default; the JSON describes it in
        ``registered_measures``).
    """

    name: str
    title: str
    definition: str
    scope: str
    tasks: frozenset[str]
    higher_is_better: bool
    low: float
    high: float
    averaged: bool
    undefined_when: str
    compute: Callable[..., Values]
    short: str = ""
    denominator: str = ""
    titles: Mapping[str, str] = field(default_factory=dict)
    definitions: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    ordered: bool = False
    references: tuple[str, ...] = ()
    reads: frozenset[str] = field(kw_only=True)
    registered: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        if not self.reads:
            raise ValueError(f"the measure {self.name!r} declares no sums it reads (reads=…, from {', '.join(SUMS)})")
        check_reads(self.reads, f"the measure {self.name!r}")

    def title_for(self, task: str) -> str:
        """The title of this measure for ``task``."""
        return self.titles.get(task, self.title)

    def definition_for(self, task: str) -> str:
        """The definition of this measure for ``task``."""
        return self.definitions.get(task, self.definition)

    def short_for(self, task: str) -> str:
        """The formula in short for ``task`` (for row titles)."""
        return self.short or self.definition_for(task)

    def range_for(self, task: str) -> tuple[float, float]:
        """The (low, high) range of this measure's values for ``task``."""
        return self.ranges.get(task, (self.low, self.high))

    def name_for(self, task: str) -> str:
        """The name rows of ``task`` carry (CSV, text): the alias where there is one (``subset_accuracy``)."""
        return self.aliases.get(task, self.name)


# -- per-label measures: ratios of one label's counts --------------------------------------------------------


def _precision(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(tp, tp + fp, s.zero_division)


def _recall(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(tp, tp + fn, s.zero_division)


def _f(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return f_beta(tp, fp, fn, s.beta, s.zero_division)


def _specificity(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(tn, tn + fp, s.zero_division)


def _jaccard(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(tp, np.asarray(tp, dtype=np.float64) + fp + fn, s.zero_division)


def _npv(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(tn, tn + fn, s.zero_division)


def _fpr(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(fp, fp + tn, s.zero_division)


def _fnr(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
    return ratio(fn, fn + tp, s.zero_division)


# -- overall measures: each Φ(Σ_λ ψ(λ)), parts per label and what combines their sums (scoring/parts.py) ----------


def _no_parts(t: Tallies, s: Setting) -> Parts:
    return {}


def _accuracy(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    return ratio(t.exact, t.n, s.zero_division)


def _hamming_parts(t: Tallies, s: Setting) -> Parts:
    if not s.label_sets:
        return {}
    _, fp, fn, _ = t.label_set()
    return {"wrong": fp + fn}


def _hamming_loss(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    if not s.label_sets:
        return ratio(t.n - t.exact, t.n, s.zero_division)
    return ratio(r["wrong"], t.n * t.k, s.zero_division)


def _micro_fpr_parts(t: Tallies, s: Setting) -> Parts:
    _, fp, _, tn = t.label_set()
    return {"fp": fp, "tn": tn}


def _micro_fpr(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    return ratio(r["fp"], r["fp"] + r["tn"], s.zero_division)


def _chance(s: Setting) -> float:
    """The value of a chance-corrected measure (MCC, κ, adjusted balanced accuracy) where it is 0/0: chance level,
    0 (as scikit-learn's MCC), or NaN with zero_division NaN. Never 1: a classifier that predicts one label for
    everything is not perfect."""
    return math.nan if math.isnan(s.zero_division) else 0.0


def _mcc_parts(t: Tallies, s: Setting) -> Parts:
    """tp, t·p, and t(N − t), p(N − p) of every label: N·Σt − Σt² as a sum of non-negative terms (Σ_k t_k = N for
    single-label data), with no cancellation at large N."""
    gold, pred, n = t.gold, t.predicted, t.n[..., None]
    return {"hit": t.tp, "cross": gold * pred, "gold": gold * (n - gold), "pred": pred * (n - pred)}


def _mcc(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    num = t.n * r["hit"] - r["cross"]
    product = np.maximum(r["gold"], 0.0) * np.maximum(r["pred"], 0.0)
    return ratio(num, np.sqrt(product), _chance(s))


def _kappa_parts(weights: str) -> Callable[[Tallies, Setting], Parts]:
    """The parts of κ's chance disagreement Σ_ij w(i, j)·t_i·p_j (and, unweighted, of the agreement Σ tp)."""

    def parts(t: Tallies, s: Setting) -> Parts:
        gold, pred = t.gold, t.predicted
        if weights == "none":  # Σ_i t_i (N − p_i), with Σ p = N: non-negative terms, no cancellation at large N
            return {"hit": t.tp, "chance": gold * (t.n[..., None] - pred)}
        if weights == "linear":
            return {"chance": Pair(gold, pred)}
        positions = np.arange(np.shape(gold)[-1], dtype=np.float64) if t.positions is None else t.positions
        squares = positions**2
        return {
            "g0": gold,
            "g1": gold * positions,
            "g2": gold * squares,
            "p0": pred,
            "p1": pred * positions,
            "p2": pred * squares,
        }

    return parts


def _kappa_with(weights: str) -> Callable[[Mapping[str, np.ndarray], Tallies, Setting], Values]:
    """κ = 1 − observed / expected disagreement; the expected one is the parts' chance sum over N (quadratic
    weights: Σ_ij (i − j)² t_i p_j = g₀p₂ − 2g₁p₁ + g₂p₀ from the position moments, no T×T)."""

    def kappa(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
        if weights == "none":
            observed, inner = t.n - r["hit"], r["chance"]
        elif weights == "linear":
            observed, inner = t.disagreement[weights], r["chance"]
        else:
            observed = t.disagreement[weights]
            inner = r["g0"] * r["p2"] - 2 * r["g1"] * r["p1"] + r["g2"] * r["p0"]
        share, undefined = ratio(observed, inner / t.n, math.nan)
        return np.where(undefined, _chance(s), 1.0 - share), undefined

    return kappa


def _balanced_parts(t: Tallies, s: Setting) -> Parts:
    gold = t.gold
    present = gold > 0
    recall = np.divide(t.tp, gold, out=np.zeros(np.shape(gold)), where=present)
    return {"recall": recall, "classes": present.astype(np.float64)}


def _balanced_accuracy(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    return ratio(r["recall"], r["classes"], s.zero_division)


def _balanced_accuracy_adjusted(r: Mapping[str, np.ndarray], t: Tallies, s: Setting) -> Values:
    classes = r["classes"]
    score = ratio(r["recall"], classes, s.zero_division)[0]
    chance = 1.0 / np.maximum(classes, 1.0)
    return ratio(score - chance, 1.0 - chance, _chance(s))


_GOLD_EVERYWHERE = "{label} is in the gold labels of every instance"
#: What a chance-corrected measure (MCC, κ, adjusted balanced accuracy) is where it is 0/0 (see :func:`_chance`).
_AT_CHANCE = " (where it is 0/0: 0, chance level, unless --zero-division leaves 0/0 undefined)"
_NO_CHANCE_DISAGREEMENT = "chance disagreement is 0 (gold and predictions all one label)"

#: Every measure, in report order: per-label measures first, then the overall ones.
MEASURES: Mapping[str, Measure] = {
    m.name: m
    for m in (
        Measure(
            "precision",
            "precision",
            "tp / (tp + fp)",
            "label",
            _WITH_SPANS,
            True,
            0.0,
            1.0,
            True,
            "{label} is never predicted",
            _precision,
            denominator="tp + fp",
            references=(
                "van Rijsbergen 1975 (cited in Van Asch 2013 §1)",
                "Van Asch 2013 §2, eq. 1",
                "Wilson 1927 (the Wilson interval each label's precision gets)",
            ),
            reads=frozenset({"tp", "fp"}),
        ),
        Measure(
            "recall",
            "recall",
            "tp / (tp + fn)",
            "label",
            _WITH_SPANS,
            True,
            0.0,
            1.0,
            True,
            "{label} is absent from gold",
            _recall,
            denominator="tp + fn",
            references=(
                "van Rijsbergen 1975 (cited in Van Asch 2013 §1)",
                "Van Asch 2013 §2, eq. 2",
                "Wilson 1927 (the Wilson interval each label's recall gets)",
            ),
            reads=frozenset({"tp", "fn"}),
        ),
        Measure(
            "f",
            "F",
            "(1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp), the weighted harmonic mean of precision and recall",
            "label",
            _WITH_SPANS,
            True,
            0.0,
            1.0,
            True,
            "{label} is neither in gold nor predicted",
            _f,
            denominator="tp + fp + fn",
            references=("van Rijsbergen 1975 (cited in Van Asch 2013 §1)", "Van Asch 2013 §2, eqs. 3–4"),
            reads=frozenset({"tp", "fp", "fn"}),
        ),
        Measure(
            "specificity",
            "specificity",
            "tn / (tn + fp), the true negative rate",
            "label",
            _BOTH,
            True,
            0.0,
            1.0,
            True,
            _GOLD_EVERYWHERE,
            _specificity,
            denominator="tn + fp",
            references=(
                "Takahashi et al. 2022 §1 (specificity and predictive values in diagnostic studies)",
                "PyCM TNR (test oracle)",
            ),
            reads=frozenset({"tn", "fp"}),
        ),
        Measure(
            "npv",
            "NPV",
            "tn / (tn + fn), the negative predictive value",
            "label",
            _BOTH,
            True,
            0.0,
            1.0,
            False,
            "{label} is predicted for every instance",
            _npv,
            denominator="tn + fn",
            references=("Takahashi et al. 2022 §1 (negative and positive predictive values)", "PyCM NPV (test oracle)"),
            reads=frozenset({"tn", "fn"}),
        ),
        Measure(
            "fpr",
            "FPR",
            "fp / (fp + tn) = 1 − specificity, the false positive rate (fall-out)",
            "label",
            _BOTH,
            False,
            0.0,
            1.0,
            False,
            _GOLD_EVERYWHERE,
            _fpr,
            denominator="fp + tn",
            references=("Frank 2019 §4 (the false positive rate and its micro average)", "PyCM FPR (test oracle)"),
            reads=frozenset({"fp", "tn"}),
        ),
        Measure(
            "fnr",
            "FNR",
            "fn / (fn + tp) = 1 − recall, the false negative rate (miss rate)",
            "label",
            _WITH_SPANS,
            False,
            0.0,
            1.0,
            False,
            "{label} is absent from gold",
            _fnr,
            denominator="fn + tp",
            references=("Takahashi et al. 2022 §1 (the false negative probability)", "PyCM FNR (test oracle)"),
            reads=frozenset({"fn", "tp"}),
        ),
        Measure(
            "jaccard",
            "Jaccard",
            "tp / (tp + fp + fn), the Jaccard index (intersection over union; = F1 / (2 − F1))",
            "label",
            _WITH_SPANS,
            True,
            0.0,
            1.0,
            True,
            "{label} is neither in gold nor predicted",
            _jaccard,
            denominator="tp + fp + fn",
            references=("scikit-learn jaccard_score (test oracle)", "PyCM J (test oracle)"),
            reads=frozenset({"tp", "fp", "fn"}),
        ),
        Measure(
            "accuracy",
            "accuracy",
            "correct / N",
            "overall",
            _BOTH,
            True,
            0.0,
            1.0,
            False,
            "there are no instances",
            Separable(_no_parts, _accuracy),
            titles={MULTI: "subset accuracy"},
            definitions={MULTI: "whole label set right / N"},
            aliases={MULTI: "subset_accuracy"},
            references=(
                "Van Asch 2013 §2, eqs. 6–7 (accuracy = micro-averaged recall)",
                "Frank 2019 (micro P = micro R = micro F = accuracy for single-label data)",
            ),
            reads=frozenset({"exact", "n"}),
        ),
        Measure(
            "hamming_loss",
            "Hamming loss",
            "wrong / N = 1 − accuracy",
            "overall",
            _BOTH,
            False,
            0.0,
            1.0,
            False,
            "there are no instances",
            Separable(_hamming_parts, _hamming_loss),
            definitions={MULTI: "Σ fp + fn over labels / (N·|L|)"},
            ranges={MULTI: (0.0, math.inf)},
            references=(
                "Tsoumakas et al. 2010 (multi-label evaluation; cited in Van Asch 2013 §5)",
                "scikit-learn hamming_loss (test oracle)",
            ),
            reads=frozenset({"n", "exact", "fp", "fn"}),
        ),
        Measure(
            "micro_fpr",
            "micro FPR",
            "Σ fp / Σ (fp + tn)",
            "overall",
            _BOTH,
            False,
            0.0,
            1.0,
            False,
            "Σ (fp + tn) = 0 over the label set",
            Separable(_micro_fpr_parts, _micro_fpr),
            references=("Frank 2019 §4 (micro FPR differs from the error rate for more than two labels)",),
            reads=frozenset({"fp", "tn"}),
        ),
        Measure(
            "balanced_accuracy",
            "balanced accuracy",
            "mean over the labels with gold instances of tp / (tp + fn) "
            "(macro recall over the gold labels; scikit-learn's balanced_accuracy_score)",
            "overall",
            frozenset({SINGLE}),
            True,
            0.0,
            1.0,
            False,
            "no label has gold instances",
            Separable(_balanced_parts, _balanced_accuracy),
            short="mean recall over the gold labels",
            references=("scikit-learn balanced_accuracy_score (test oracle)",),
            reads=frozenset({"tp", "fn"}),
        ),
        Measure(
            "balanced_accuracy_adjusted",
            "balanced accuracy, adjusted",
            "(balanced accuracy − 1/C) / (1 − 1/C) for "
            "C labels with gold instances: 0 by chance, 1 perfect (scikit-learn's adjusted=True)" + _AT_CHANCE,
            "overall",
            frozenset({SINGLE}),
            True,
            -1.0,
            1.0,
            False,
            "only one label has gold instances",
            Separable(_balanced_parts, _balanced_accuracy_adjusted),
            short="0 by chance, 1 perfect",
            references=("scikit-learn balanced_accuracy_score with adjusted=True (test oracle)",),
            reads=frozenset({"tp", "fn"}),
        ),
        Measure(
            "mcc",
            "MCC",
            "Matthews correlation coefficient R_K (Gorodkin 2004): (N·c − Σ_k t_k·p_k) / √((N² − Σ_k "
            "t_k²)(N² − Σ_k p_k²)) for c correct, t_k gold and p_k predicted counts of label k over the whole "
            "confusion matrix; φ for two labels" + _AT_CHANCE,
            "overall",
            frozenset({SINGLE}),
            True,
            -1.0,
            1.0,
            False,
            "every gold label, or every prediction, is the same label",
            Separable(_mcc_parts, _mcc),
            short="Matthews, R_K over the matrix",
            references=(
                "Matthews 1975 (φ, two labels)",
                "Gorodkin 2004 (R_K, the multi-class MCC)",
                "scikit-learn matthews_corrcoef and PyCM (test oracles)",
            ),
            reads=frozenset({"tp", "fp", "fn", "n"}),
        ),
        Measure(
            "kappa",
            "Cohen's κ",
            "(p_o − p_e) / (1 − p_e): observed agreement p_o = c/N against chance agreement "
            "p_e = Σ_k t_k·p_k / N² over the whole confusion matrix" + _AT_CHANCE,
            "overall",
            frozenset({SINGLE}),
            True,
            -1.0,
            1.0,
            False,
            "gold and predictions are all one and the same label",
            Separable(_kappa_parts("none"), _kappa_with("none")),
            short="(p_o − p_e) / (1 − p_e)",
            references=("Cohen 1960", "scikit-learn cohen_kappa_score and PyCM (test oracles)"),
            reads=frozenset({"tp", "fp", "fn", "n"}),
        ),
        Measure(
            "kappa_linear",
            "κ, linear weights",
            "1 − Σ_ij |i − j|·n_ij / Σ_ij |i − j|·t_i·p_j/N: weighted κ for "
            "ordered labels, i and j their positions in the confusion matrix's order" + _AT_CHANCE,
            "overall",
            frozenset({SINGLE}),
            True,
            -1.0,
            1.0,
            False,
            _NO_CHANCE_DISAGREEMENT,
            Separable(_kappa_parts("linear"), _kappa_with("linear")),
            short="weights |i − j| in the matrix's order",
            ordered=True,
            references=(
                "Cohen 1968 (weighted κ)",
                "scikit-learn cohen_kappa_score with weights='linear' (test oracle)",
            ),
            reads=frozenset({"tp", "fp", "fn", "n", "disagreement_linear"}),
        ),
        Measure(
            "kappa_quadratic",
            "κ, quadratic weights",
            "1 − Σ_ij (i − j)²·n_ij / Σ_ij (i − j)²·t_i·p_j/N: weighted κ "
            "for ordered labels, i and j their positions in the confusion matrix's order" + _AT_CHANCE,
            "overall",
            frozenset({SINGLE}),
            True,
            -1.0,
            1.0,
            False,
            _NO_CHANCE_DISAGREEMENT,
            Separable(_kappa_parts("quadratic"), _kappa_with("quadratic")),
            short="weights (i − j)² in the matrix's order",
            ordered=True,
            references=(
                "Cohen 1968 (weighted κ)",
                "scikit-learn cohen_kappa_score with weights='quadratic' and PyCM weighted_kappa (test oracles)",
            ),
            reads=frozenset({"tp", "fp", "fn", "n", "disagreement_quadratic"}),
        ),
    )
}


def label_measures(family: str | None = None) -> tuple[Measure, ...]:
    """The per-label measures (of the measure family ``family``, or every one), in report order."""
    return tuple(m for m in MEASURES.values() if m.scope == "label" and (family is None or family in m.tasks))


def count_names(family: str) -> tuple[str, ...]:
    """The counts a label's row reports in the measure family ``family``: support, predicted, tp, fp, fn, and tn
    where there are true negatives (not for spans)."""
    return ("support", "predicted", "tp", "fp", "fn") + (() if family == SPANS else ("tn",))


def averaged_measures(family: str | None = None) -> tuple[str, ...]:
    """The names of the per-label measures that the averages average (of ``family``, or every one), in report
    order."""
    return tuple(m.name for m in label_measures(family) if m.averaged)


def overall_measures(task: str) -> tuple[Measure, ...]:
    """The overall measures of ``task``, in report order."""
    return tuple(m for m in MEASURES.values() if m.scope == "overall" and task in m.tasks)
