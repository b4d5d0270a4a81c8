"""Cross-validation: the pooled scores (add the folds' counts, then score) and the mean of the folds' scores.

Van Asch §7, after Forman & Scholz (2010): F_tp,fp (pooled) is the score of all N out-of-fold predictions
taken as one test set; F_avg (mean of folds) is the average score on a test set of one fold's size, N/k, and
is pulled down on small folds where a rare label is absent or never predicted. Neither is unbiased (both are
ratios of counts), and they differ even for folds of equal size and class balance, since F is not linear in
the counts. Both are reported, side by side.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, cast

import numpy as np

from clfeval._version import __version__
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.invalid import InvalidOutputs, refuse_reserved, screen
from clfeval.count.labelsets import LabelSetCounts
from clfeval.errors import OptionError
from clfeval.infer.intervals import CI, with_intervals
from clfeval.kinds import KINDS, kind_of
from clfeval.progress import steps
from clfeval.result import TEXT_FORMATS, FlatScores, Folded, Result, flat_name, json_safe
from clfeval.scoring.computation import score_counts, seen_labels
from clfeval.scoring.measures import averaged_measures, overall_measures
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import f_key, f_title
from clfeval.scoring.scores import Scores

__all__ = ["CV_SCHEMA", "CrossValidation", "cross_validate"]

#: The JSON schema name and version of a cross-validation result.
CV_SCHEMA = "clfeval.cv/2"


@dataclass(frozen=True, eq=False, repr=False)
class CrossValidation(Folded, Result):
    """Scores of k folds: pooled (counts added, then scored) and each fold's own.

    Attributes
    ----------
    pooled
        The score of the folds' counts added up (F_tp,fp; with intervals when asked).
    folds
        Each fold's score, over the pooled label set.
    fold_names
        A name per fold (its file, or its value in the fold column).
    warn_above
        Differences between pooled and mean-of-folds values above this are warned about.
    """

    kind: ClassVar[str] = "cv"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.crossvalidation:cv_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:cv_figures"
    frames_builder: ClassVar[str] = "clfeval.report.frames:cv_frames"

    pooled: Scores
    folds: tuple[Scores, ...]
    fold_names: tuple[str, ...]
    warn_above: float
    inputs: Mapping[str, Any] = field(default_factory=dict)

    def mean_of_folds(self) -> dict[str, Any]:
        """Every average and overall measure: the mean over folds and its sample standard deviation (F_avg).

        Returns ``{"averages": {name: {measure: mean, measure_sd: sd}}, "accuracy": mean,
        "accuracy_sd": sd, …}`` with the measure names of :attr:`Scores.averages` (``f`` for F_β), so
        ``mean_of_folds()["averages"]["macro"]["f"]`` sits beside ``pooled.averages["macro"]["f"]``; the
        JSON (:meth:`to_dict`) names F ``f1`` (``f2`` …) as everywhere else. An sd needs two folds.
        """
        out: dict[str, Any] = {"averages": {}}
        for name in self.pooled.averages:
            row = {}
            for m in averaged_measures(self.pooled.family):
                row[m], row[f"{m}_sd"] = _mean_sd([fold.averages[name][m] for fold in self.folds])
            out["averages"][name] = row
        withheld = self.pooled.withheld()  # weighted κ without a declared order: null, as the pooled value
        for measure in overall_measures(self.pooled.family):
            values = [math.nan if measure.name in withheld else fold.overall[measure.name] for fold in self.folds]
            out[measure.name], out[f"{measure.name}_sd"] = _mean_sd(values)
        return out

    def differences(self) -> list[dict[str, Any]]:
        """Pooled minus mean-of-folds value of each average's measures (``f`` for F_β, as in
        :attr:`Scores.averages`), largest first."""
        means = self.mean_of_folds()["averages"]
        rows = []
        for name, values in self.pooled.averages.items():
            for m in averaged_measures(self.pooled.family):
                pooled, mean = values[m], means[name][m]
                rows.append(
                    {
                        "average": name,
                        "measure": m,
                        "pooled": pooled,
                        "mean_of_folds": mean,
                        "difference": pooled - mean,
                    }
                )
        # largest first; differences equal to 12 digits (equal but for rounding) keep the registries' order
        return sorted(
            rows, key=lambda r: -float(f"{abs(r['difference']):.12g}") if not math.isnan(r["difference"]) else 0.0
        )

    @property
    def warnings(self) -> tuple[str, ...]:
        """The pooled result's warnings, then a warning naming the averages whose two summaries differ by more
        than :attr:`warn_above` (F first)."""
        # F_β first (the score most reports lead with), then the rest, each largest first
        big = sorted(
            (r for r in self.differences() if abs(r["difference"]) > self.warn_above), key=lambda r: r["measure"] != "f"
        )
        out = list(self.pooled.warnings)
        if big:
            f = f_title(self.pooled.beta)
            shown = ", ".join(
                f"{r['average']} {f if r['measure'] == 'f' else r['measure']} by {r['difference']:+.4f}"
                for r in big[:6]
            )
            more = f" and {len(big) - 6} more" if len(big) > 6 else ""
            out.append(
                f"pooled and mean-of-folds scores differ by more than {self.warn_above:g}: {shown}{more}; "
                "they estimate different things (pooled: the score of all N predictions as one test set; "
                "mean of folds: the score on a test set of one fold's size), so say which one you report "
                "(Forman & Scholz 2010; Van Asch §7)"
            )
        return tuple(out)

    def _json_measure(self, measure: str) -> str:
        return f_key(self.pooled.beta) if measure == "f" else measure

    def _json_means(self) -> dict[str, Any]:
        """:meth:`mean_of_folds` with the JSON's measure names (``f1``, ``f1_sd``)."""
        means = self.mean_of_folds()
        fk = f_key(self.pooled.beta)
        averages = {
            name: {(fk + key[1:] if key in ("f", "f_sd") else key): v for key, v in row.items()}
            for name, row in means["averages"].items()
        }
        return {**means, "averages": averages}

    def flat(self, sep: str = "/", *, folds: bool = False, per_label: bool = False) -> dict[str, float]:
        """The cross-validation as one flat mapping for an experiment tracker: the pooled scores under ``pooled``
        (as :meth:`Scores.flat`, with their intervals), the mean of folds and its sd under ``mean_of_folds`` and
        ``sd`` (``mean_of_folds/macro/f1``, ``sd/accuracy`` …), and with ``folds`` each fold's scores under
        ``fold/<name>``; ``per_label`` adds the labels' scores to the pooled and the folds' ones."""
        out = FlatScores(sep)
        out.update(self.pooled.flat(sep, per_label=per_label, prefix=("pooled",)))
        fk = f_key(self.pooled.beta)
        means = self.mean_of_folds()
        for name, row in means["averages"].items():
            for m in averaged_measures(self.pooled.family):
                measure = fk if m == "f" else m
                out[flat_name(["mean_of_folds", name, measure], sep)] = float(row[m])
                out[flat_name(["sd", name, measure], sep)] = float(row[f"{m}_sd"])
        for overall in self.pooled.given_overall():
            shown = overall.name_for(self.pooled.family)
            out[flat_name(["mean_of_folds", shown], sep)] = float(means[overall.name])
            out[flat_name(["sd", shown], sep)] = float(means[f"{overall.name}_sd"])
        if folds:
            for name, fold in zip(self.fold_names, self.folds):
                out.update(fold.flat(sep, per_label=per_label, prefix=("fold", name)))
        return dict(out)

    def signature_parts(self) -> list[tuple[str, str]]:
        """What decides these numbers (see :attr:`~clfeval.result.Result.signature`): the scoring choices, the
        number of folds and the pooled scores' interval method."""
        return [*self.pooled.scoring_parts(), ("folds", str(len(self.folds))), self.pooled.interval_part()]

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The JSON contract ``clfeval.cv/2`` (docs/json.md); NaN becomes ``null``; ``matrix=False`` leaves the
        pooled and the folds' confusion matrices out."""
        return {
            "schema": CV_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "n_folds": len(self.folds),
            "fold_names": list(self.fold_names),
            "pooled": self.pooled.to_dict(matrix=matrix),
            "folds": [fold.to_dict(matrix=matrix) for fold in self.folds],
            "mean_of_folds": json_safe(self._json_means()),
            "differences": json_safe([{**r, "measure": self._json_measure(r["measure"])} for r in self.differences()]),
            "warn_above": self.warn_above,
            "inputs": dict(self.inputs),
            "warnings": list(self.warnings),
        }


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    array = np.asarray(values, dtype=np.float64)
    sd = float(array.std(ddof=1)) if len(array) > 1 else math.nan
    return float(array.mean()), sd


def cross_validate(
    folds: Sequence[ConfusionCounts | LabelSetCounts],
    *,
    fold_names: Sequence[str] | None = None,
    scoring: Scoring | None = None,
    ci: CI | None = None,
    progress: Callable[[int, int], None] | None = None,
    warn_above: float = 0.01,
    inputs: Mapping[str, Any] | None = None,
    warnings: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
) -> CrossValidation:
    """Score k folds both ways: pooled (F_tp,fp) and mean of folds (F_avg).

    Parameters
    ----------
    folds
        Each fold's counts (all single-label or all multi-label, with the same multi-label options).
    fold_names
        Names for the report (default ``fold 1`` …).
    scoring
        As in :func:`clfeval.score` (``train`` read already). One label set, resolved from the pooled
        counts, serves the pooled score and every fold (a label absent from a fold has support 0 there). Its
        ``invalid`` policy applies to each fold (:func:`clfeval.count.invalid.screen`); the pooled scores record the
        folds' totals (under ``omit``, the pooled coverage and its interval).
    ci, progress
        Intervals of the pooled scores (see :func:`clfeval.with_intervals`); ``progress`` is told of the folds scored
        too (the phase ``folds``: done of total folds), then of the intervals' phases.
    warn_above
        Warn when a pooled and a mean-of-folds value differ by more than this.

    Notes
    -----
    Pooled: every measure on Σ_k counts_k. Mean of folds: (1/K) Σ_k measure(counts_k), with the
    sample standard deviation. They agree when every fold has the same size and class balance
    (Van Asch eq. 26–30); otherwise the fold mean is biased (Forman & Scholz 2010).
    """
    scoring = scoring or Scoring()
    if not folds:
        raise OptionError("cross-validation needs at least one fold")
    found = {kind.name if (kind := kind_of(f)) is not None else type(f).__name__ for f in folds}
    kinds = sorted(found, key=lambda name: (list(KINDS).index(name) if name in KINDS else len(KINDS), name))
    if len(kinds) > 1:
        raise OptionError(f"the folds mix {' and '.join(kinds)} counts")
    names = tuple(fold_names) if fold_names is not None else tuple(f"fold {i + 1}" for i in range(len(folds)))
    if len(names) != len(folds):
        raise OptionError(f"{len(names)} fold names for {len(folds)} folds")
    if len(set(names)) != len(names):
        raise OptionError("fold names must be distinct")
    if not (isinstance(warn_above, (int, float)) and warn_above >= 0):
        raise OptionError(f"warn_above must be a non-negative number, not {warn_above!r}")
    screened: list[InvalidOutputs | None] = [None] * len(folds)
    pooled_invalid = None
    if scoring.invalid is None:
        for fold, name in zip(folds, names):
            refuse_reserved(fold, f"{name}: ")
    if scoring.invalid is not None:  # each fold under the policy; the pooled counts are their sum, and so its tally
        declared = scoring.labels if scoring.labels_from == "given" else None
        level = 0.95 if ci is None else ci.confidence
        outs = [
            screen(cast(Any, f), scoring.invalid, declared, confidence=level, where=f"{n}: ")
            for f, n in zip(folds, names)
        ]
        folds = [counts for counts, _, _ in outs]
        screened = [found for _, _, found in outs]
        pooled_invalid = InvalidOutputs(
            scoring.invalid, sum(f.n for _, _, f in outs), sum(f.n_invalid for _, _, f in outs), confidence=level
        )
    pooled_counts = sum(folds[1:], folds[0])
    weighed = (inputs or {}).get("sample_weight")
    if weighed is not None and scoring.invalid is not None:  # the weights of the instances the policy kept
        from clfeval.count.weighted import weight_summary

        inputs = {**dict(inputs or {}), "sample_weight": weight_summary(weighed["source"], pooled_counts)}
    score = partial(score_counts, scoring=scoring, options=options)
    pooled = score(pooled_counts, inputs=inputs, warnings=warnings, invalid=pooled_invalid)
    seen = seen_labels(pooled_counts)
    each = steps(progress, "folds", list(zip(folds, names, screened)))
    scored = tuple(score(fold, seen=seen, inputs={"fold": name}, invalid=found) for fold, name, found in each)
    if ci is not None:  # resampling the units the counts carry (spans: sentences or documents), as score does
        kind = kind_of(pooled_counts)
        units = None if kind is None else kind.units(pooled_counts)
        pooled = with_intervals(pooled, ci, progress=progress, blocks=units)
    return CrossValidation(pooled, scored, names, float(warn_above), dict(inputs or {}))
