"""The interval methods by name (:data:`INTERVAL_METHODS`), the options group :class:`CI` that chooses one, and what
a method's cost on given counts will be: what the command line and the API need before any interval is computed
(:mod:`clfeval.infer.intervals` computes them)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.errors import OptionError, unknown_name

__all__ = ["CI", "INTERVAL_METHODS", "IntervalMethod", "LONG_WORK", "check_interval_options", "cost_note"]


@dataclass(frozen=True)
class IntervalMethod:
    """A named way to make confidence intervals: what it is, what it needs, and the function that computes it.

    Attributes
    ----------
    name, short, definition
        Its registry name, a few words, and what it does (the ``definition`` of every result that uses it).
    resampling
        Whether it resamples (and so uses ``resamples`` and ``seed``).
    computation
        ``"module:function"`` computing every score's interval from an :class:`~clfeval.infer.intervals.IntervalRun`
        (imported when the method runs); ``None`` for ``none``.
    block_definition
        The definition when blocks (sentences) are the units, where it differs.
    block_note
        What the method does with blocks, for a result's notes.
    few_counts
        (least gold support or predictions of a label, least errors) below which simulation found its intervals of
        averaged scores covering less than their level (docs/coverage.md); ``None``: no such rule.
    coverage_note
        What the warning on few counts adds for this method (another method that covers from fewer counts).
    kinds, measures
        The kinds of counts (:data:`clfeval.kinds.KINDS`) and the measures it gives intervals of; ``None``: every one.
    references
        Where the method is defined (author, year), for ``clfeval explain``.
    kind_definitions
        The definition worded for a kind's counts, by kind (scored predictions: distinct (gold, scores) rows).
    kind_computations
        ``"module:function"`` computing the intervals of a kind whose scores are no function of cell-type weights
        (scored predictions: :class:`~clfeval.infer.scored.ScoredRun` → intervals and what the result records), by
        kind; the other kinds run :attr:`computation`.
    bca
        Whether the percentile levels are bias-corrected and accelerated (BCa).
    """

    name: str
    short: str
    definition: str
    resampling: bool
    computation: str | None = None
    block_definition: str | None = None
    block_note: str = ""
    few_counts: tuple[int, int] | None = None
    coverage_note: str = ""
    kinds: frozenset[str] | None = None
    measures: frozenset[str] | None = None
    references: tuple[str, ...] = ()
    kind_definitions: Mapping[str, str] = field(default_factory=dict)
    kind_computations: Mapping[str, str] = field(default_factory=dict)
    bca: bool = False

    def definition_for(self, kind: str | None) -> str:
        """The definition for counts of ``kind``, where it is worded for that kind (scored predictions' rows)."""
        return self.kind_definitions.get(kind or "", self.definition)

    def applies_to(self, kind: str) -> bool:
        """Whether the method gives intervals of counts of ``kind``: its :attr:`kinds` admit the kind (``None``: every
        kind) and the kind takes it (:attr:`clfeval.kinds.Kind.interval_methods`)."""
        from clfeval.kinds import KINDS

        taken = KINDS[kind].interval_methods if kind in KINDS else None
        return (self.kinds is None or kind in self.kinds) and (taken is None or self.name in taken)

    def compute_for(self, kind: str, run: Any) -> Any:
        """Compute ``run`` of counts of ``kind`` by the method's computation for it (:attr:`kind_computations`)."""
        if kind not in self.kind_computations:
            raise OptionError(f"{self.name} has no computation for {kind} counts")
        module, _, function = self.kind_computations[kind].partition(":")
        return getattr(importlib.import_module(module), function)(run)

    def compute(self, run: Any) -> None:
        """Fill ``run`` (an :class:`~clfeval.infer.intervals.IntervalRun`) with every score's interval."""
        if self.computation is None:
            raise OptionError(f"{self.name!r} makes no intervals")
        module, _, function = self.computation.partition(":")
        getattr(importlib.import_module(module), function)(run)


_DELTA_BLOCKS = "the delta method's variance is the cluster-robust one over blocks"
_SCORED = frozenset({"scored"})
#: What DeLong's two intervals share: scored predictions' AUCs, computed by one function, clustered in blocks.
_DELONG: dict[str, Any] = {
    "block_note": "Obuchowski's (1997) clustered variance over the blocks",
    "kinds": _SCORED,
    "measures": frozenset({"auc"}),
    "kind_computations": {"scored": "clfeval.infer.scored:delong_run"},
}
_BOOTSTRAP_BLOCKS = "the bootstrap draws whole blocks"
_BCA_COVERS = "; bootstrap-bca covered 0.93–0.97 from 10 of each"

#: The interval methods, by name.
INTERVAL_METHODS: Mapping[str, IntervalMethod] = {
    m.name: m
    for m in (
        IntervalMethod("none", "no intervals", "no intervals", False),
        IntervalMethod(
            "delta",
            "Wald interval, delta-method standard error (Takahashi et al.)",
            "Wald interval θ̂ ± z·se under the multinomial model of the counts, se by the delta method "
            "(Takahashi et al. 2022's closed forms for micro, macro (AF) and macro (FA) F1 where they apply, "
            "the generic delta method for every other score), clipped to the measure's range ([0, 1] for most)",
            False,
            "clfeval.infer.intervals:wald_intervals",
            block_note=_DELTA_BLOCKS,
            few_counts=(30, 50),
            coverage_note=_BCA_COVERS,
            references=(
                "Takahashi et al. 2022 §3 (closed-form variances of miF1, maF1 and maF1*)",
                "docs/coverage.md (coverage in simulation)",
            ),
        ),
        IntervalMethod(
            "delta-logit",
            "Wald interval on the logit scale (stays inside 0..1)",
            "Wald interval on the logit scale, logit θ̂ ± z·se/(θ̂(1 − θ̂)), mapped back: stays inside (0, 1) (a "
            "measure with another range, as MCC's [−1, 1], is placed in it first; one bounded on one side only goes on "
            "the log scale); se by the delta method as for 'delta'",
            False,
            "clfeval.infer.intervals:logit_intervals",
            block_note=_DELTA_BLOCKS,
            few_counts=(30, 50),
            coverage_note=_BCA_COVERS,
            references=(
                "Takahashi et al. 2022 §3 (the delta-method variances it transforms)",
                "docs/coverage.md (coverage in simulation)",
            ),
        ),
        IntervalMethod(
            "bootstrap",
            "percentile bootstrap from the counts",
            "percentile interval of multinomial resamples of the counts (the instance-level bootstrap, drawn "
            "per cell type)",
            True,
            "clfeval.infer.intervals:percentile_intervals",
            block_definition="percentile interval of resamples of whole blocks, drawn per kind of block",
            block_note=_BOOTSTRAP_BLOCKS,
            few_counts=(30, 50),
            coverage_note=_BCA_COVERS,
            references=(
                "Efron 1987 (bootstrap confidence intervals: the percentile interval and its BCa correction)",
                "docs/coverage.md (coverage in simulation)",
            ),
            kind_computations={"scored": "clfeval.infer.scored:bootstrap_run"},
            kind_definitions={
                "scored": "percentile intervals of the count bootstrap: multinomial draws over the distinct (gold, "
                "scores) rows, every score recomputed on each draw; draws without a value (no positive of a class) "
                "are left out when they are at most 5%, and counted"
            },
        ),
        IntervalMethod(
            "bootstrap-bca",
            "BCa bootstrap from the counts",
            "bias-corrected and accelerated (BCa) interval of multinomial resamples of the counts; acceleration "
            "from the jackknife over instances",
            True,
            "clfeval.infer.intervals:bca_intervals",
            block_definition="bias-corrected and accelerated (BCa) interval of resamples of whole blocks; "
            "acceleration from the jackknife over blocks",
            block_note=_BOOTSTRAP_BLOCKS,
            few_counts=(10, 10),
            references=(
                "Efron 1987 (bias-corrected and accelerated intervals)",
                "docs/coverage.md (coverage in simulation)",
            ),
            bca=True,
            kind_computations={"scored": "clfeval.infer.scored:bootstrap_run"},
            kind_definitions={
                "scored": "BCa intervals (Efron 1987) of the same count bootstrap: percentile levels moved by the bias "
                "correction z₀ (the share of draws below the estimate) and the acceleration "
                "a = Σ d³ / (6 (Σ d²)^{3/2}) of the jackknife deviations d: each instance left out (computed once "
                "per distinct row, weighted by its count) up to 2,000 distinct rows, else 200 random groups of n/200 "
                "instances (blocks: each block, or 200 groups of blocks), each left out"
            },
        ),
        IntervalMethod(
            "delong",
            "DeLong's interval of each AUC",
            "DeLong's variance of each score column's AUC (Sun & Xu's midrank algorithm): AUC ± z·√Var, clipped "
            "to [0, 1]; the macro, weighted and micro AUCs from the classes' DeLong terms averaged per instance, "
            "Var = Σ_s n_s/(n_s − 1) Σ u_s² over the samples s (a class's positives, its negatives) + n/(n − 1) × the "
            "cross products; the other scores get none (use bootstrap)",
            False,
            None,
            **_DELONG,
            references=(
                "DeLong, DeLong & Clarke-Pearson 1988",
                "Sun & Xu 2014 (the midrank algorithm)",
                "Obuchowski 1997 (clustered data)",
            ),
        ),
        IntervalMethod(
            "delong-logit",
            "DeLong's interval on the logit scale",
            "DeLong's variance on the logit scale: logit(A) ± z·√Var/(A(1 − A)), back through the logistic "
            "function (inside (0, 1), asymmetric near 1; none at A = 0 or 1); the averaged AUCs likewise; the other "
            "scores get none",
            False,
            None,
            **_DELONG,
            references=("DeLong, DeLong & Clarke-Pearson 1988", "Pepe 2003 §5.2 (the logit-scale interval)"),
        ),
    )
}


def check_interval_options(method: str, confidence: float, resamples: int, seed: int | None) -> None:
    """Refuse an unknown interval method, a confidence level outside (0, 1), fewer than 2 resamples or a seed
    that is not a non-negative integer."""
    if method not in INTERVAL_METHODS:
        raise unknown_name("interval method", method, {k: m.definition for k, m in INTERVAL_METHODS.items()})
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise OptionError(f"confidence must be between 0 and 1 (e.g. 0.95), not {confidence!r}")
    if not (isinstance(resamples, (int, np.integer)) and resamples >= 2):
        raise OptionError(f"resamples must be an integer of at least 2, not {resamples!r}")
    if seed is not None and not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise OptionError(f"seed must be a non-negative integer, not {seed!r}")


#: Work (score evaluations × labels, plus draws over the cell types) above which an interval method says, before it
#: starts and in its notes, that it is a long computation and why.
LONG_WORK = 5 * 10**9


def cost_note(method: str, n_types: int, n_labels: int, resamples: int = 0) -> str | None:
    """A sentence saying why ``method`` will take long on ``n_types`` cell types (distinct (gold, predicted) pairs, or
    label-set pairs) over ``n_labels`` labels, or ``None`` when its work is below :data:`LONG_WORK`.

    Notes
    -----
    Every evaluation of the scores costs O(K) for K labels. The bootstrap draws U counts and evaluates once per
    resample, R·(U + K); BCa adds its jackknife and the delta method its derivatives, both from each label's parts
    of the scores (:func:`~clfeval.infer.bootstrap.label_jackknife_moments`,
    :func:`~clfeval.infer.delta.delta_variances`): O(U + K), never flagged.
    """
    if not INTERVAL_METHODS[method].resampling:
        return None
    work = resamples * (n_labels + n_types)
    if work <= LONG_WORK:
        return None
    return (
        f"{method} evaluates every score {resamples:,} times (one per resample), each over {n_labels:,} labels, and "
        f"draws {resamples:,} resamples of {n_types:,} distinct (gold, predicted) pairs: a long computation; its cost "
        "grows with resamples × (pairs + labels)"
    )


@dataclass(frozen=True)
class CI:
    """Which confidence interval every score gets: the method and its settings, in one group.

    ``ci="bootstrap"`` anywhere means ``CI("bootstrap")``; give a ``CI`` to change a setting. Validated
    when built.

    Attributes
    ----------
    method
        A name from :data:`INTERVAL_METHODS`: ``delta``, ``delta-logit``, ``bootstrap`` (percentile),
        ``bootstrap-bca`` or ``none``.
    confidence
        Nominal coverage 1 − α, e.g. 0.95.
    resamples, seed
        The bootstrap's resamples and the seed of :func:`numpy.random.default_rng` (drawn from the
        operating system when ``None``; the seed used is recorded in the result).

    Examples
    --------
    >>> CI("bootstrap", resamples=2000, seed=7).resampling
    True
    """

    method: str = "delta"
    confidence: float = 0.95
    resamples: int = 10_000
    seed: int | None = None

    def __post_init__(self) -> None:
        check_interval_options(self.method, self.confidence, self.resamples, self.seed)

    @classmethod
    def of(cls, value: str | CI | None) -> CI | None:
        """A method's name → its group with the default settings; ``None`` or ``"none"`` → no intervals."""
        if isinstance(value, CI):
            return None if value.method == "none" else value
        if value is None or value == "none":
            return None
        if not isinstance(value, str):
            raise OptionError(f"ci is an interval method's name or a clfeval.CI, not {value!r}")
        return cls(value)

    @property
    def resampling(self) -> bool:
        """Whether the method resamples (and so uses ``resamples`` and ``seed``)."""
        return INTERVAL_METHODS[self.method].resampling
