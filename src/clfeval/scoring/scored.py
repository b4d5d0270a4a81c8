"""Scores of scored predictions (probabilities, margins): the :class:`Scored` result and how counts become one.

Every value of a :class:`Scored` result is a function of :class:`~clfeval.count.scored.ScoreCounts`
(:func:`measures_of`), so the count bootstrap recomputes all of them on multinomial draws over the distinct rows;
DeLong's interval (:mod:`clfeval.infer.delong`) covers the AUCs of score columns. The conventions that move the numbers
(:class:`Conventions`) are named in the result, its JSON and its signature.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from clfeval.count.scored import ScoreCounts
from clfeval.errors import OptionError, UnknownName
from clfeval.result import TEXT_FORMATS, FrozenDict, Result, json_number, unknown_name
from clfeval.scoring import probability, ranking

__all__ = ["SCORED_SCHEMA", "Conventions", "Scored", "auc_bin_bounds", "binned_scores", "measures_of"]

#: The JSON contract of a scored result.
SCORED_SCHEMA = "clfeval.scored/2"


@dataclass(frozen=True)
class Conventions:
    """The choices that change the numbers of scored predictions, each stated in the output.

    Attributes
    ----------
    bins, binning
        Calibration bins: how many, and ``equal-width`` or ``equal-mass``
        (:data:`~clfeval.scoring.probability.BINNINGS`).
    ties
        How top-k counts classes tied with the gold class (:data:`~clfeval.scoring.probability.TIE_RULES`).
    brier
        The Brier score's normalisation (:data:`~clfeval.scoring.probability.BRIER_NORMALISATIONS`).
    top_k
        The k of the top-k accuracies reported (multi-class).
    curve_points
        The most points of each ROC and precision-recall curve the JSON holds (evenly spaced along the curve, its ends
        kept); ``None``: every point.
    score_bins
        ``None`` (default): every score as given (exact). A whole number N: scores in [0, 1] are binned first, each
        replaced by the lower edge of its bin of N equal-width bins (a fixed grid, as torchmetrics' binned metrics
        use), so that counts stay small whatever the data; every measure is then of the binned scores (ranking only:
        the edges are no probabilities), and the result states the bound on each AUC's error: pairs of a positive
        and a negative in one bin become ties, so |AUC − AUC_binned| ≤ ½ Σ_b P_b N_b / (P N).
    not_probabilities
        Whether the scores are declared not to be probabilities (margins, logits that happen to lie in [0, 1]):
        ranking measures only, whatever the scores look like.
    lower_is_more_confident
        Whether a lower score means more confidence (distances, costs, ranks): the scores are then negated before
        anything is computed, so that every measure reads higher as more confident, the probability measures do not
        apply, and thresholds are shown in the scores' own units (a positive prediction is a score ≤ the threshold).
    """

    bins: int = 15
    binning: str = "equal-width"
    ties: str = probability.DEFAULT_TIES
    brier: str = probability.DEFAULT_BRIER
    top_k: tuple[int, ...] = (1, 3, 5)
    curve_points: int | None = 200
    lower_is_more_confident: bool = False
    score_bins: int | None = None
    not_probabilities: bool = False

    @property
    def ranking_only(self) -> bool:
        """Whether the scores are read for ranking alone (distances; binned scores, whose bins' lower edges are no
        probabilities): no probability measures."""
        return self.lower_is_more_confident or self.score_bins is not None or self.not_probabilities

    @property
    def direction(self) -> str:
        """How the scores are read, as the output states it."""
        return "lower is more confident (negated)" if self.lower_is_more_confident else "higher is more confident"

    def oriented(self, scores: Any) -> np.ndarray:
        """The scores as every measure reads them: binned (``score_bins``), and higher is more confident (negated
        when lower is)."""
        s = binned_scores(np.asarray(scores, dtype=np.float64), self.score_bins)
        return -s if self.lower_is_more_confident else s

    @property
    def checks_probabilities(self) -> bool:
        """Whether the scores are held to be probabilities (checked, and errors when they are not): unless the user
        says they are not (``not_probabilities``) or lower is more confident."""
        return not (self.not_probabilities or self.lower_is_more_confident)

    def checked(
        self,
        scores: Any,
        *,
        rows_sum: bool,
        full: np.ndarray | None = None,
        where: str = "scores",
        lines: np.ndarray | None = None,
        orient: bool = True,
    ) -> tuple[np.ndarray, int]:
        """The scores as every measure reads them (:meth:`oriented`), checked first as probabilities unless the user
        says they are not (:func:`clfeval.count.classes.checked_probabilities`: an error names the row; round-off
        outside [0, 1] is clipped). ``rows_sum``: a column per class, whose rows sum to 1; ``full``: the columns as
        given, when binary scores are one column of them (their rows are what sum to 1); ``orient``: ``False`` keeps
        the scores as given (counts scored later are oriented then). Returns the scores and the number clipped."""
        from clfeval.count.classes import checked_probabilities

        s = np.asarray(scores, dtype=np.float64)
        clipped = 0
        if self.checks_probabilities:
            if full is not None and np.ndim(full) == 2 and np.shape(full)[1] > 1 and not rows_sum:
                checked_probabilities(np.asarray(full), rows_sum=True, where=where, lines=lines)
            s, clipped = checked_probabilities(s, rows_sum=rows_sum, where=where, lines=lines)
        return (self.oriented(s) if orient else s), clipped

    def probabilities_of(self, counts: ScoreCounts) -> bool:
        """Whether the probability measures apply to ``counts``: unless the scores are read for ranking alone
        (:attr:`ranking_only`), they are probabilities, checked here for counts made elsewhere (count files,
        accumulators; arrays and files are checked as they are read).

        Raises
        ------
        OptionError
            Naming the first row that is no probability, and how to say the scores are not probabilities.
        """
        if self.ranking_only:
            return False
        if self.checks_probabilities:
            probability.check_probabilities(counts)
        return True

    def oriented_counts(self, counts: ScoreCounts) -> ScoreCounts:
        """Counts of scores as given (arrays, count files, accumulators) as every measure reads them."""
        if not self.lower_is_more_confident and self.score_bins is None:
            return counts
        return ScoreCounts(
            counts.labels, counts.columns, counts.gold, self.oriented(counts.scores), counts.count, counts.weight
        )

    def __post_init__(self) -> None:
        if self.score_bins is not None and (
            isinstance(self.score_bins, bool) or not isinstance(self.score_bins, int) or self.score_bins < 2
        ):
            raise OptionError(f"score_bins is a whole number ≥ 2, or None for exact scores, not {self.score_bins!r}")
        if self.score_bins is not None and self.lower_is_more_confident:
            raise OptionError("score_bins bins probabilities; lower-is-more-confident scores are not probabilities")
        if not isinstance(self.lower_is_more_confident, bool) or not isinstance(self.not_probabilities, bool):
            raise OptionError("lower_is_more_confident and not_probabilities are True or False")
        if self.curve_points is not None and (
            isinstance(self.curve_points, bool) or not isinstance(self.curve_points, int) or self.curve_points < 2
        ):
            raise OptionError(f"curve_points is a whole number ≥ 2, or None for every point, not {self.curve_points!r}")
        if isinstance(self.bins, bool) or not isinstance(self.bins, int) or self.bins < 1:
            raise OptionError(f"bins is a whole number ≥ 1, not {self.bins!r}")
        for value, registry, what in (
            (self.binning, probability.BINNINGS, "binning"),
            (self.ties, probability.TIE_RULES, "tie rule"),
            (self.brier, probability.BRIER_NORMALISATIONS, "Brier normalisation"),
        ):
            if value not in registry:
                raise OptionError(f"unknown {what} {value!r}; one of {', '.join(registry)}")
        object.__setattr__(self, "top_k", tuple(sorted({int(k) for k in self.top_k})))

    def to_dict(self) -> dict[str, Any]:
        return {
            "auc_ties": "½ (midranks)",
            "average_precision": "step-wise (scikit-learn), no interpolation",
            "log_loss_clip": probability.LOG_LOSS_EPS,
            "brier": self.brier,
            "calibration": {"bins": self.bins, "binning": self.binning, "bin_edges": "(a, b], 0 in the first bin"},
            "top_k_ties": self.ties,
            "probability_sum_tolerance": probability.SUM_TOLERANCE,
            "curve_points": self.curve_points,
            "direction": self.direction,
            "score_bins": self.score_bins,
            "not_probabilities": self.not_probabilities,
        }


def binned_scores(scores: np.ndarray, bins: int | None) -> np.ndarray:
    """Scores in [0, 1] replaced by the lower edge of their bin of ``bins`` equal-width bins [k/N, (k+1)/N) (1 itself
    in the last bin); ``None``: the scores as they are.

    Raises
    ------
    OptionError
        On a score outside [0, 1] (naming it): binning is for probabilities.
    """
    if bins is None:
        return scores
    outside = (scores < 0) | (scores > 1)
    if outside.any():
        raise OptionError(
            f"score {scores[outside].reshape(-1)[0]!r} is outside [0, 1]: score bins are for probabilities"
        )
    k = np.floor(scores * bins)
    k += (k + 1) / bins <= scores  # float error at an edge: the bin whose range holds the score (binning twice is
    k -= k / bins > scores  # binning once)
    return np.asarray(np.minimum(k, bins - 1) / bins)


def auc_bin_bounds(counts: ScoreCounts) -> dict[str, float]:
    """Each score column's bound on the AUC's error from binned scores: ½ Σ_b P_b N_b / (P N) over the bins (the
    distinct binned scores), by the AUC's report name."""
    out: dict[str, float] = {}
    for c, name in enumerate(counts.columns):
        _, pos, neg = counts.column(c)
        total = float(pos.sum() * neg.sum())
        bound = 0.5 * float(np.dot(pos, neg)) / total if total else float("nan")
        out[f"per_label.{name}.auc"] = bound
        if counts.binary:
            out["auc"] = bound
    return out


def wanted_groups(wanted: Collection[str] | None) -> Callable[..., bool]:
    """Whether a group of scores is computed for the ``wanted`` names (``None``: every group): a group is computed when
    a wanted name is, starts with, or ends in ``.`` and one of its names."""

    def want(*names: str) -> bool:
        return wanted is None or any(
            n in wanted or any(w.startswith(n) or w.endswith(f".{n}") for w in wanted) for n in names
        )

    return want


def measures_of(
    counts: ScoreCounts, conventions: Conventions, probabilities: bool, wanted: Collection[str] | None = None
) -> dict[str, float]:
    """Every number of a scored result, by its report name (``auc``, ``macro.auc``, ``per_label.<c>.auc``,
    ``log_loss`` …); the probability measures only when the scores are probabilities. ``wanted`` (names) limits the
    work to the groups that hold them (a test's rounds compute one score, not every one)."""

    want = wanted_groups(wanted)
    if counts.multilabel:
        return _multilabel_measures(counts, conventions, probabilities, want)
    out: dict[str, float] = {}
    if want("per_label.", "auc", "average_precision"):
        per_auc = ranking.ovr_auc(counts)
        per_ap = ranking.average_precision(counts)
        for c in counts.columns:
            out[f"per_label.{c}.auc"] = per_auc[c]
            out[f"per_label.{c}.average_precision"] = per_ap[c]
        if counts.binary:
            out["auc"] = per_auc[counts.columns[0]]
            out["average_precision"] = per_ap[counts.columns[0]]
        else:
            for average in ranking.AUC_AVERAGES:
                if want(f"{average}.auc"):
                    out[f"{average}.auc"] = ranking.averaged_auc(counts, average)
            out["macro.average_precision"] = float(np.mean(list(per_ap.values())))
    if probabilities:
        if want("log_loss"):
            out["log_loss"] = probability.log_loss(counts)
        if want("brier"):
            out["brier"] = probability.brier(counts, conventions.brier)
        if want("ece", "mce"):
            target = "positive" if counts.binary else "top-label"
            cal = probability.calibration(counts, target=target, bins=conventions.bins, binning=conventions.binning)
            out.update(_calibration_errors(cal))
            if not counts.binary:
                out["ece_classwise"] = probability.classwise_ece(
                    counts, bins=conventions.bins, binning=conventions.binning
                )
        if not counts.binary and want("top_"):
            for k in conventions.top_k:
                if k < len(counts.labels):
                    out[f"top_{k}_accuracy"] = probability.top_k_accuracy(counts, k, conventions.ties)
    return out


def _calibration_errors(cal: probability.Calibration) -> dict[str, float]:
    """ECE and MCE, and the debiased ECE where it is defined (not with sample weights)."""
    out = {"ece": cal.ece, "mce": cal.mce}
    if cal.weight is None:
        out["ece_debiased"] = cal.debiased
    return out


def _multilabel_measures(
    counts: ScoreCounts, conventions: Conventions, probabilities: bool, want: Any
) -> dict[str, float]:
    """Multi-label scores: each label's AUC and average precision, their macro, weighted (by the label's gold
    instances), micro (every (instance, label) pair pooled) and samples (per instance) averages, the label ranking
    measures, and for probabilities the log loss, Brier score and calibration of the pooled pairs (each label a
    binary probability)."""
    from clfeval.scoring.labelranking import label_ranking

    out: dict[str, float] = {}
    if want("per_label.", "auc", "average_precision", "lrap", "coverage_error", "ranking_loss"):
        per_auc, per_ap = ranking.ovr_auc(counts), ranking.average_precision(counts)
        for c in counts.columns:
            out[f"per_label.{c}.auc"] = per_auc[c]
            out[f"per_label.{c}.average_precision"] = per_ap[c]
        support = counts.weighted_support()  # with sample weights: each label's Σ m·w, as scikit-learn's
        pooled = counts.pooled_pairs()
        ranked = label_ranking(counts)
        for name, per, micro in (
            ("auc", per_auc, ranking.averaged_auc(pooled, "macro")),
            ("average_precision", per_ap, ranking.average_precision(pooled)["yes"]),
        ):
            values = np.array(list(per.values()))
            out[f"macro.{name}"] = float(np.mean(values))
            out[f"weighted.{name}"] = float(np.dot(support, values) / support.sum()) if support.sum() else float("nan")
            out[f"micro.{name}"] = micro
            out[f"samples.{name}"] = ranked[f"samples.{name}"]
        for name in ("lrap", "coverage_error", "ranking_loss"):
            out[name] = ranked[name]
    if probabilities and want("log_loss", "brier", "ece", "mce"):
        pairs = counts.pooled_pairs()
        out["log_loss"] = probability.log_loss(pairs)
        out["brier"] = probability.brier(pairs, conventions.brier)  # pairs: two classes each
        cal = probability.calibration(pairs, target="positive", bins=conventions.bins, binning=conventions.binning)
        out.update(_calibration_errors(cal))
    return out


_OLD_NAME = re.compile(r"^(auc|average_precision)\.(macro|weighted|micro|ovo_weighted|ovo|samples)$")


def renamed(name: str) -> str | None:
    """The name a score has had since ``clfeval.scored/2`` where ``name`` is its earlier one (``auc.macro`` →
    ``macro.auc``, ``per_class.<c>.auc`` → ``per_label.<c>.auc``), else ``None``."""
    found = _OLD_NAME.match(name)
    if found:
        return f"{found.group(2)}.{found.group(1)}"
    if name.startswith("per_class."):
        return "per_label." + name[len("per_class.") :]
    return None


def lower_is_better(name: str) -> bool:
    """Whether a lower value of the score ``name`` is better (losses and calibration errors:
    :data:`~clfeval.scoring.scoredmeasures.SCORED_MEASURES`)."""
    from clfeval.scoring.scoredmeasures import scored_measure_of

    measure = scored_measure_of(name)
    return measure is not None and not measure.higher_is_better


@dataclass(frozen=True, eq=False, repr=False)
class Scored(Result):
    """The result of :func:`clfeval.score` with ``scores=``: how well scores rank and how good they are as
    probabilities, with every convention named.

    ``values`` holds every number by its report name (``r["macro.auc"]``); ``intervals`` the (low, high) of those with
    an interval; ``labels_at_threshold`` the label report of the predictions the scores make (argmax, or the binary
    threshold), a :class:`~clfeval.scoring.scores.Scores`.
    """

    kind: ClassVar[str] = "score"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.scored:scored_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:scored_figures"
    frames_builder: ClassVar[str] = "clfeval.report.frames:scored_frames"

    counts: ScoreCounts
    values: Mapping[str, float]
    conventions: Conventions
    probabilities: bool
    calibration: Any
    intervals: Mapping[str, tuple[float, float]] = field(default_factory=FrozenDict)
    interval_method: Mapping[str, Any] | None = None
    labels_at_threshold: Any = None
    threshold: str = "argmax"
    inputs: Mapping[str, Any] = field(default_factory=FrozenDict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    blocks: Any = None  # the instances in blocks (clfeval.infer.scored.ScoreBlocks), when given: the figures' band

    @property
    def task(self) -> str:
        if self.counts.multilabel:
            return "scored-multilabel"
        return "scored-binary" if self.counts.binary else "scored-multiclass"

    @property
    def n_instances(self) -> int:
        return self.counts.n_instances

    def __getitem__(self, name: str) -> float:
        if name == "n_instances":
            return float(self.n_instances)
        try:
            return self.values[name]
        except KeyError:
            new = renamed(name)
            if new is not None and new in self.values:
                raise UnknownName(
                    f"unknown score {name!r}: it is named {new!r} (every average before its measure, as macro.f1; "
                    "per-class scores under per_label, since clfeval.scored/2)"
                ) from None
            raise unknown_name(name, list(self.values)) from None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.values or name == "n_instances")

    def interval(self, name: str) -> tuple[float, float]:
        """The interval of ``name``."""
        self[name]
        if name in self.intervals:
            return self.intervals[name]
        m = self.interval_method
        if m is None:
            raise OptionError(f"{name} has no interval: give ci='delong' (AUCs) or ci='bootstrap' (every score)")
        if m["method"] in ("delong", "delong-logit"):
            why = (
                "DeLong's covers the AUCs of score columns and their macro, weighted and micro averages, where they "
                "have a variance (and, on the logit scale, lie inside (0, 1)): give ci='bootstrap'"
            )
        else:
            why = "too many bootstrap draws had no value (ci.not_estimable), or the BCa correction has none"
        raise OptionError(f"{name} has no {m['method']} interval: {why}")

    def names(self) -> list[str]:
        """Every score's report name."""
        return list(self.values)

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        out: dict[str, float] = {"n_instances": float(self.n_instances)}
        if self.counts.weighted:  # the weights were used: their sum, as inputs.sample_weight.sum
            out["sample_weight_sum"] = self.counts.total
        for name, value in self.values.items():
            if name.startswith("per_label.") and not per_label:
                continue
            key = name.replace(".", sep)
            out[key] = value
            if name in self.intervals:
                out[f"{key}_ci_low"], out[f"{key}_ci_high"] = self.intervals[name]
        return out

    def signature_parts(self) -> list[tuple[str, str]]:
        c = self.conventions
        parts = [
            ("task", self.task),
            ("classes", str(len(self.counts.labels))),
            ("positive", self.counts.columns[0]) if self.counts.binary else ("columns", str(len(self.counts.columns))),
            ("ties", "half"),
            ("ap", "step"),
        ]
        if self.counts.weighted:
            parts.append(("weights", "sample"))
        if c.lower_is_more_confident:
            parts.append(("direction", "lower"))
        if c.score_bins is not None:
            parts.append(("score_bins", str(c.score_bins)))
        if self.probabilities:
            parts += [
                ("logloss_eps", f"{probability.LOG_LOSS_EPS:.6g}"),
                ("brier", f"pairs-{'sum' if c.brier == 'sum' else 'half'}" if self.counts.multilabel else c.brier),
                ("calibration", f"{c.bins},{c.binning}"),
            ]
            if not self.counts.binary and not self.counts.multilabel:
                parts.append(("topk_ties", c.ties))
        parts.append(("threshold", self.threshold))
        m = self.interval_method
        if m is None:
            parts.append(("ci", "none"))
        else:
            detail = [m["method"], f"{m['confidence']:g}"]
            if m.get("resamples"):
                detail += [f"n={m['resamples']}", f"seed={m['seed']}"]
            if m.get("n_blocks") is not None:
                detail.append(f"blocks={m['n_blocks']}")
            parts.append(("ci", ",".join(detail)))
        return parts

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        from clfeval._version import __version__

        per_label: dict[str, dict[str, Any]] = {}
        support = self.counts.support()
        for i, lab in enumerate(self.counts.labels):
            row: dict[str, Any] = {"support": int(support[i])}
            for measure in ("auc", "average_precision"):
                name = f"per_label.{lab}.{measure}"
                if name in self.values:
                    row[measure] = json_number(self.values[name])
                    if name in self.intervals:
                        row[f"{measure}_ci"] = [json_number(x) for x in self.intervals[name]]
            per_label[lab] = row
        scores: dict[str, Any] = {}
        for name, value in self.values.items():
            if name.startswith("per_label."):
                continue
            scores[name] = json_number(value)
            if name in self.intervals:
                scores[f"{name}_ci"] = [json_number(x) for x in self.intervals[name]]
        cal = self.calibration
        reliability = None
        if cal is not None:
            reliability = {
                "target": cal.target,
                "binning": cal.binning,
                "edges": [float(x) for x in cal.edges],
                "n": [int(x) for x in cal.n],
                "confidence": [json_number(float(x)) for x in cal.confidence],
                "accuracy": [json_number(float(x)) for x in cal.accuracy],
            }
            if cal.weight is not None:  # sample weights: each bin's Σw, which weighs its means and the ECE
                reliability["weight"] = [float(x) for x in cal.weight]
        curves: dict[str, Any] = {}
        sign = -1.0 if self.conventions.lower_is_more_confident else 1.0  # thresholds in the scores' own units
        for c, lab in enumerate(self.counts.columns):
            fpr, tpr, roc_at = ranking.roc_curve(self.counts, c)
            precision, recall, pr_at = ranking.pr_curve(self.counts, c)
            keep_roc, keep_pr = (
                _thinned(len(fpr), self.conventions.curve_points),
                _thinned(len(precision), self.conventions.curve_points),
            )
            curves[lab] = {
                "roc": {
                    "fpr": [json_number(float(x)) for x in fpr[keep_roc]],
                    "tpr": [json_number(float(x)) for x in tpr[keep_roc]],
                    "threshold": [json_number(sign * float(x)) if np.isfinite(x) else None for x in roc_at[keep_roc]],
                    "points": len(fpr),
                },
                "pr": {
                    "precision": [json_number(float(x)) for x in precision[keep_pr]],
                    "recall": [json_number(float(x)) for x in recall[keep_pr]],
                    "threshold": [json_number(sign * float(x)) for x in pr_at[keep_pr]],
                    "points": len(precision),
                },
            }
        return {
            "schema": SCORED_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "task": self.task,
            "n_instances": self.n_instances,
            "classes": list(self.counts.labels),
            "score_columns": list(self.counts.columns),
            "positive": self.counts.columns[0] if self.counts.binary else None,
            "probabilities": self.probabilities,
            "distinct_rows": len(self.counts.count),
            "conventions": self.conventions.to_dict(),
            "auc_bin_bound": None
            if self.conventions.score_bins is None
            else {k: json_number(v) for k, v in auc_bin_bounds(self.counts).items()},
            "scores": scores,
            "per_label": per_label,
            "reliability": reliability,
            "curves": curves,
            "ci": dict(self.interval_method) if self.interval_method is not None else None,
            "threshold": self.threshold,
            "labels_at_threshold": None
            if self.labels_at_threshold is None
            else self.labels_at_threshold.to_dict(matrix=matrix),
            "inputs": dict(self.inputs),
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def _thinned(n: int, most: int | None) -> np.ndarray:
    """The positions of at most ``most`` of ``n`` curve points, evenly spaced, the first and the last kept (every one
    when ``most`` is ``None``)."""
    if most is None or n <= most:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, most)).astype(np.int64))
