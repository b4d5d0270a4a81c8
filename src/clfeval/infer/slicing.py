"""Scores by group as statistics: each group's resampling units, the group-stratified bootstrap, permutation of group
membership, and the gaps, tests and fairness summaries read from them.

Groups are independent samples. A group's scores are a function of its units' weights (instances, or blocks such as
sentences), through the sums every score reads (:class:`~clfeval.infer.statistic.Statistic`); every group is scored
over the same label set and table, so sums of groups add: the sums of "the rest" of a group are the total's less the
group's, the sums of a pool of two groups are theirs added. So

* the **group-stratified bootstrap** draws each group's units with replacement, as many as it has (a multinomial
  over its kinds of unit), and reads every group's scores, the rest's, and any gap from the same draws;
* the **permutation test** of groups a and b pools their units and draws n_a of them without replacement (a
  multivariate hypergeometric over the pool's kinds of unit) as a's, the others as b's: the difference under
  exchangeable membership;
* the **delta method** adds the two independent groups' variances: Var(θ_a − θ_b) = Var θ_a + Var θ_b, and
  Var log(θ_a/θ_b) = Var θ_a/θ_a² + Var θ_b/θ_b².

No instance is looked at one by one: a resample costs the kinds of unit of the groups it draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from clfeval.errors import OptionError
from clfeval.infer.statistic import Statistic
from clfeval.infer.units import BlockUnits
from clfeval.scoring.cells import ordered_dot

__all__ = [
    "FAIRNESS",
    "GROUP_TESTS",
    "Fairness",
    "GroupSample",
    "GroupTestMethod",
    "RATES",
    "SLICE_NAMES",
    "Slicing",
    "bootstrap_p",
    "permutation_p",
    "wald_p",
]

#: Floats one batch of resamples holds at once (about 64 MiB).
_BATCH_FLOATS = 8_000_000
#: Kinds of unit up to which a permutation draws a multivariate hypergeometric; above, it picks units.
_HYPERGEOMETRIC_KINDS = 256


@dataclass(frozen=True)
class GroupTestMethod:
    """A test of a score's difference between two independent groups: its name, definition and what it reads."""

    name: str
    definition: str
    resampling: bool
    kinds: frozenset[str] | None = None  # the kinds of data it takes (None: every kind with counts)
    metrics: str | None = None  # what it tests, when restricted (DeLong: AUCs)


#: The tests between groups by name (``test=``, ``--group-test``).
GROUP_TESTS: Mapping[str, GroupTestMethod] = {
    "permutation": GroupTestMethod(
        "permutation",
        "permutation of group membership: the two groups' units (instances, or blocks) pooled and dealt out again at "
        "random in the groups' sizes, R times; two-sided p = (1 + #{|d*| ≥ |d|}) / (R + 1), d the observed difference "
        "(exact in size under exchangeable membership, whatever the score)",
        True,
    ),
    "bootstrap": GroupTestMethod(
        "bootstrap",
        "the group-stratified bootstrap of the difference: each group's units redrawn with replacement in its own "
        "size, R times; two-sided p = (1 + #{|d* − d| ≥ |d|}) / (R + 1), the resampled differences centred on the "
        "observed one",
        True,
    ),
    "delta": GroupTestMethod(
        "delta",
        "Wald's z test of the difference with the delta method's variance of two independent groups, "
        "z = (θ_a − θ_b) / √(Var θ_a + Var θ_b), p from the normal distribution",
        False,
        kinds=frozenset({"single-label", "multi-label", "spans", "weighted-single-label", "weighted-multi-label"}),
    ),
    "delong": GroupTestMethod(
        "delong",
        "DeLong's unpaired test of two independent samples' AUCs, as pROC's roc.test(paired = FALSE, method = "
        "'delong'): D = (A_a − A_b) / √(V_a + V_b), Student's t with Welch–Satterthwaite degrees of freedom",
        False,
        kinds=frozenset({"scored"}),
        metrics="auc",
    ),
    "none": GroupTestMethod("none", "no test between groups", False),
}


@dataclass(frozen=True)
class Slicing:
    """How groups are compared: the option group of ``score(..., groups=...)`` and ``--group-col``.

    Attributes
    ----------
    metrics
        The scores whose gaps and tests are reported, by report name (``macro.f1``, ``accuracy``, ``auc`` …);
        default: the kind's headline average of F_β and, where the kind has it, accuracy (AUC for scored
        predictions). Every score is reported per group whatever this says.
    test
        The test between groups, one of :data:`GROUP_TESTS` (default ``permutation``; for scored predictions whose
        gap metrics are all AUCs, without sample weights, blocks or strata, ``delong``).
    rounds
        The permutations (or resamples) of a resampling test (default 10000).
    seed
        The seed of the test's and the gaps' random draws (default: the interval's seed, else drawn and
        reported).
    alpha
        The level at which a Holm-adjusted p-value is called significant in reports (default 0.05).
    """

    metrics: tuple[str, ...] | None = None
    test: str | None = None
    rounds: int = 10_000
    seed: int | None = None
    alpha: float = 0.05

    def __post_init__(self) -> None:
        if self.metrics is not None:
            metrics = (self.metrics,) if isinstance(self.metrics, str) else tuple(self.metrics)
            if not metrics or not all(isinstance(m, str) for m in metrics):
                raise OptionError("metrics names scores by their report names, such as 'macro.f1' or 'accuracy'")
            object.__setattr__(self, "metrics", metrics)
        if self.test is not None and self.test not in GROUP_TESTS:
            raise OptionError(f"unknown test between groups {self.test!r}; one of {', '.join(GROUP_TESTS)}")
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise OptionError(f"rounds must be a positive whole number, not {self.rounds!r}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0):
            raise OptionError(f"seed must be a whole number ≥ 0, not {self.seed!r}")
        if not 0 < self.alpha < 1:
            raise OptionError(f"alpha must lie between 0 and 1, not {self.alpha!r}")

    @classmethod
    def of(cls, value: Slicing | None) -> Slicing:
        """The group given, or the defaults."""
        if value is None:
            return cls()
        if not isinstance(value, Slicing):
            raise OptionError(f"slicing is a clfeval.Slicing, not {type(value).__name__}")
        return value

    def test_for(self, scored: bool) -> str:
        """The test's name: the one asked for, else ``permutation`` (``delong`` for scored predictions)."""
        return self.test if self.test is not None else ("delong" if scored else "permutation")


def new_seed() -> int:
    """A seed drawn from the operating system's entropy (reported, so a run can be repeated)."""
    return int(np.random.SeedSequence().generate_state(1)[0])


def spawned(seed: int, n: int) -> list[int]:
    """``n`` independent seeds derived from ``seed`` (numpy's ``SeedSequence.spawn``): the same for every run and
    every hash seed."""
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n)]


@dataclass(frozen=True)
class GroupSample:
    """A sample's resampling units: kinds of unit (distinct instances, or kinds of block) with multiplicities, and
    the linear map from their weights to the sums every score reads.

    Attributes
    ----------
    multiplicity
        m_j, the units of kind j (instances of a distinct row, or blocks of a kind).
    to_sums
        Weights of the kinds (R, J) → sums (R, D).
    unit
        ``instances`` or how the blocks were delimited.
    units
        The blocks' own sampler (:class:`BlockUnits`), whose draws are quick for many kinds.
    """

    multiplicity: np.ndarray
    to_sums: Callable[[np.ndarray], np.ndarray]
    unit: str
    units: BlockUnits | None = field(default=None, repr=False)

    @classmethod
    def of(cls, f: Statistic, units: BlockUnits | None) -> GroupSample:
        """The units of a statistic's cell types (instances), or of its blocks."""
        if units is not None:
            return cls(units.multiplicity, units.resampled_sums, units.unit, units)
        return cls(np.asarray(f.weights, dtype=np.float64), f.cells.sums, "instances")

    @property
    def n(self) -> int:
        """The number of units."""
        return round(float(self.multiplicity.sum()))

    def observed(self) -> np.ndarray:
        """The sums of the sample itself (D,)."""
        sums: np.ndarray = self.to_sums(self.multiplicity[None, :].astype(np.float64))[0]
        return sums

    def bootstrap(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """The sums of ``size`` resamples with replacement of the sample's units (size, D)."""
        if self.units is not None:
            return self.to_sums(self.units.draw(size, rng))
        m = self.multiplicity
        return self.to_sums(rng.multinomial(self.n, m / m.sum(), size=size).astype(np.float64))

    def dealt(self, n_first: int, size: int, rng: np.random.Generator) -> np.ndarray:
        """The sums of ``n_first`` units drawn without replacement from the sample, ``size`` times (size, D): one
        side of a random split of the pool."""
        m = np.rint(self.multiplicity).astype(np.int64)
        if len(m) <= _HYPERGEOMETRIC_KINDS:
            drawn = rng.multivariate_hypergeometric(m, n_first, size=size, method="marginals")
            return self.to_sums(drawn.astype(np.float64))
        kind_of_unit = np.repeat(np.arange(len(m)), m)
        picks = np.empty((size, len(m)))
        for r in range(size):  # n_first units picked per round: O(units), however many kinds
            picked = rng.choice(len(kind_of_unit), n_first, replace=False)
            picks[r] = np.bincount(kind_of_unit[picked], minlength=len(m))
        return self.to_sums(picks)

    def pooled(self, other: GroupSample) -> GroupSample:
        """This sample's units and ``other``'s side by side (kinds kept apart)."""
        j = len(self.multiplicity)
        mine, theirs = self.to_sums, other.to_sums

        def to_sums(w: np.ndarray) -> np.ndarray:
            return np.asarray(mine(w[:, :j]) + theirs(w[:, j:]))

        unit = self.unit if self.unit == other.unit else f"{self.unit}; {other.unit}"
        return GroupSample(np.r_[self.multiplicity, other.multiplicity], to_sums, unit)


def batch_size(rounds: int, width: int, groups: int) -> int:
    """Resamples per batch so that one batch's sums of every group stay within :data:`_BATCH_FLOATS`."""
    return int(max(1, min(rounds, _BATCH_FLOATS // max(1, width * max(1, groups) * 2))))


def permutation_p(draws: np.ndarray, observed: float) -> float:
    """Two-sided p of a permutation test: (1 + #{|d*| ≥ |d|}) / (R + 1), a tolerance of 10⁻¹² for ties."""
    if math.isnan(observed):
        return math.nan
    d = draws[~np.isnan(draws)]
    if len(d) == 0:
        return math.nan
    tie = 1e-12 * max(1.0, abs(observed))
    return float((1 + np.count_nonzero(np.abs(d) >= abs(observed) - tie)) / (len(d) + 1))


def bootstrap_p(draws: np.ndarray, observed: float) -> float:
    """Two-sided p of the bootstrap test of a difference: (1 + #{|d* − d| ≥ |d|}) / (R + 1)."""
    if math.isnan(observed):
        return math.nan
    d = draws[~np.isnan(draws)]
    if len(d) == 0:
        return math.nan
    tie = 1e-12 * max(1.0, abs(observed))
    return float((1 + np.count_nonzero(np.abs(d - observed) >= abs(observed) - tie)) / (len(d) + 1))


def wald_p(difference: float, variance: float) -> float:
    """Two-sided p of z = d / √Var from the normal distribution, 2 (1 − Φ(|z|)) = erfc(|z| / √2) (NaN without a
    variance); erfc keeps the tail exact where 1 − Φ(|z|) would round to 0 (|z| above about 8.3)."""
    if not (variance > 0) or math.isnan(difference):
        return math.nan
    z = abs(difference) / math.sqrt(variance)
    return math.erfc(z / math.sqrt(2))


def percentile(draws: np.ndarray, confidence: float) -> tuple[float, float] | None:
    """The percentile interval of resampled values (``None`` when a tenth or more of them are undefined)."""
    d = draws[~np.isnan(draws)]
    if len(d) < 0.9 * len(draws) or len(d) == 0:
        return None
    alpha = 1 - confidence
    low, high = np.quantile(d, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def wald_difference(difference: float, variance: float, confidence: float) -> tuple[float, float] | None:
    """θ_a − θ_b ± z √(Var θ_a + Var θ_b)."""
    if not (variance >= 0) or math.isnan(difference):
        return None
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    half = z * math.sqrt(variance)
    return difference - half, difference + half


def wald_ratio(a: float, b: float, var_a: float, var_b: float, confidence: float) -> tuple[float, float] | None:
    """θ_a / θ_b · exp(± z √(Var θ_a/θ_a² + Var θ_b/θ_b²)): the delta method on the log scale."""
    if not (a > 0 and b > 0) or not (var_a >= 0 and var_b >= 0):
        return None
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    se = math.sqrt(var_a / a**2 + var_b / b**2)
    r = a / b
    return r * math.exp(-z * se), r * math.exp(z * se)


def ratio(a: float, b: float) -> float:
    """a / b, NaN when b is 0 (fairlearn's ratio of a zero is undefined too)."""
    if b == 0 or math.isnan(a) or math.isnan(b):
        return math.nan
    return a / b


@dataclass(frozen=True)
class Fairness:
    """A fairness summary by name: what it reads per group and how the groups' values make one number."""

    name: str
    definition: str
    rates: tuple[str, ...]
    combine: str  # "difference" (the largest max − min) or "ratio" (the smallest min / max)


#: The fairness summaries of a binary problem, each fairlearn's function of the same name (``method =
#: "between_groups"``, ``agg = "worst_case"``).
FAIRNESS: Mapping[str, Fairness] = {
    f.name: f
    for f in (
        Fairness(
            "demographic_parity_difference",
            "max − min over groups of the selection rate P(ŷ = positive) (fairlearn's demographic_parity_difference)",
            ("selection_rate",),
            "difference",
        ),
        Fairness(
            "demographic_parity_ratio",
            "min / max over groups of the selection rate (fairlearn's demographic_parity_ratio)",
            ("selection_rate",),
            "ratio",
        ),
        Fairness(
            "equalized_odds_difference",
            "the larger of the true positive rate's and the false positive rate's max − min over groups "
            "(fairlearn's equalized_odds_difference, agg='worst_case')",
            ("tpr", "fpr"),
            "difference",
        ),
        Fairness(
            "equalized_odds_ratio",
            "the smaller of the true positive rate's and the false positive rate's min / max over groups "
            "(fairlearn's equalized_odds_ratio, agg='worst_case')",
            ("tpr", "fpr"),
            "ratio",
        ),
        Fairness(
            "equal_opportunity_difference",
            "max − min over groups of the true positive rate, recall of the positive class (fairlearn's "
            "equal_opportunity_difference)",
            ("tpr",),
            "difference",
        ),
        Fairness(
            "equal_opportunity_ratio",
            "min / max over groups of the true positive rate (fairlearn's equal_opportunity_ratio)",
            ("tpr",),
            "ratio",
        ),
    )
}

#: The rates a fairness summary reads, per group, of the positive class.
RATES: Mapping[str, str] = {
    "selection_rate": "the share of instances predicted positive, (tp + fp) / n",
    "tpr": "the true positive rate, tp / (tp + fn): recall of the positive class",
    "fpr": "the false positive rate, fp / (fp + tn)",
}


#: The first part of the flat names of a result by group (``r.flat(".")``, ``r[name]``), and what the rest names.
SLICE_NAMES: Mapping[str, str] = {
    "overall": "overall.<score>: the whole data's score (r['<score>'] reads it too), with its interval "
    "(_ci_low, _ci_high) when ci= was given",
    "by_group": "by_group.<group>.<score>: one group's score, the group scored alone over the label set of the whole "
    "data, with its interval (_ci_low, _ci_high) when ci= was given; a group of several columns is named by their "
    "values joined by & (es&female)",
    "gap": "gap.<between>.<score>: a gap between groups in a score, a statistic with its own interval: gap.max (the "
    "largest, max − min over the groups: fairlearn's MetricFrame.difference()), gap.<a>_vs_<b> (group a − group b), "
    "gap.<a>_vs_rest (group a − every other group together); _ci_low, _ci_high: its group-stratified bootstrap or "
    "delta-method interval",
    "ratio": "ratio.<between>.<score>: the ratio of a gap: ratio.max (min / max over the groups: fairlearn's "
    "MetricFrame.ratio()), ratio.<a>_vs_<b> (a / b), ratio.<a>_vs_rest; undefined when its denominator is 0; with "
    "its interval",
    "p": "p.<a>_vs_<b>.<score>, p.<a>_vs_rest.<score>: the two-sided p-value of the test between groups "
    "(GROUP_TESTS; --group-test, test=) of the score's difference",
    "p_holm": "p_holm.<a>_vs_<b>.<score>, p_holm.<a>_vs_rest.<score>: the p-value adjusted by Holm's method within "
    "its family: the pairs of groups, or the groups against the rest, of each score",
    "fairness": "fairness.<summary>: a fairness summary of a binary problem's positive class (FAIRNESS), with its "
    "group-stratified bootstrap interval; fairness.<group>.<rate>: the positive class's rate in a group (RATES)",
}


def rates_of(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray) -> dict[str, np.ndarray]:
    """Each rate of :data:`RATES` from the positive class's counts (arrays of any shape; 0/0 is NaN)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "selection_rate": (tp + fp) / (tp + fp + fn + tn),
            "tpr": tp / (tp + fn),
            "fpr": fp / (fp + tn),
        }


def summary_of(name: str, by_group: Mapping[str, np.ndarray]) -> np.ndarray:
    """A fairness summary from each rate's values by group, stacked (G, …): max − min or min / max over the groups
    (NaN where a group's rate is undefined), the worst over the rates it reads."""
    fairness = FAIRNESS[name]
    values = []
    for rate in fairness.rates:
        x = by_group[rate]
        with np.errstate(invalid="ignore", divide="ignore"):
            high, low = np.max(x, axis=0), np.min(x, axis=0)
            values.append(high - low if fairness.combine == "difference" else np.where(high > 0, low / high, np.nan))
    stacked = np.stack(values)
    out = np.max(stacked, axis=0) if fairness.combine == "difference" else np.min(stacked, axis=0)
    return np.asarray(out)


def total_of(samples: Sequence[GroupSample]) -> np.ndarray:
    """The sums of every group together (D,), added in a fixed order."""
    observed = np.stack([s.observed() for s in samples])
    total: np.ndarray = ordered_dot(np.ones(len(samples)), observed)
    return total


def simultaneous(values: np.ndarray, draws: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Simultaneous intervals of several independent estimates from their bootstrap draws (max-|t|).

    Parameters
    ----------
    values
        The estimates θ̂_g (G,).
    draws
        Their bootstrap replicates θ*_g (G, R).
    confidence
        The level at which every interval covers at once.

    Returns
    -------
    low, high
        θ̂_g ∓ c·se_g, se_g the replicates' standard deviation and c the ``confidence`` quantile over resamples of
        max_g |θ*_g − θ̂_g| / se_g: all G intervals cover together with probability ``confidence`` (the bootstrap's
        max-t, as Romano and Wolf's). An estimate whose replicates never move (se 0) has the point for interval and
        no part in the maximum; one without a value (NaN), or without replicates (a tenth or more undefined or
        infinite: the log of a rate of 0), has none; fewer undefined replicates are left out.

    Notes
    -----
    A gap between the largest and the smallest of several estimates (max − min, fairlearn's ``difference()``) is not
    smooth where two groups tie, and its percentile bootstrap is biased away from 0 there (the resampled maximum
    exceeds the true one): with 3 groups of the same accuracy, percentile intervals of max − min exclude 0 nearly
    always. :func:`range_bounds` reads the range's interval from these simultaneous intervals instead.
    """
    values = np.asarray(values, dtype=np.float64)
    draws = np.where(np.isfinite(draws), draws, np.nan)  # the log of a resampled 0: no value
    low, high = np.full(len(values), np.nan), np.full(len(values), np.nan)
    valid = ~np.isnan(values) & (np.isnan(draws).mean(axis=1) < 0.1)
    with np.errstate(invalid="ignore"):
        se = np.where(valid, np.nanstd(np.where(valid[:, None], draws, 0.0), axis=1, ddof=1), np.nan)
    fixed = valid & (se == 0)
    moving = valid & (se > 0)
    low[fixed] = high[fixed] = values[fixed]
    if moving.any():
        t = np.abs(draws[moving] - values[moving, None]) / se[moving, None]
        worst = np.max(np.where(np.isnan(t), -np.inf, t), axis=0)  # a resample where every estimate is undefined:
        worst[worst == -np.inf] = np.nan  # no maximum (nanmax would warn of an all-NaN slice)
        c = float(np.quantile(worst[~np.isnan(worst)], confidence))
        low[moving] = values[moving] - c * se[moving]
        high[moving] = values[moving] + c * se[moving]
    return low, high


def range_bounds(low: np.ndarray, high: np.ndarray, bottom: float = -math.inf) -> tuple[float, float] | None:
    """The interval of max − min over groups from simultaneous intervals [low_g, high_g] of their values: when every
    interval covers, the true range lies in [max(0, max_g low_g − min_g high_g), max_g high_g − min_g low_g] (values
    at or above ``bottom``: a group's lower bound below it is read as ``bottom``). ``None`` when a group has none."""
    if np.isnan(low).any() or np.isnan(high).any() or len(low) == 0:
        return None
    low = np.maximum(low, bottom)
    return max(0.0, float(np.max(low) - np.min(high))), float(np.max(high) - np.min(low))


def ratio_bounds(low: np.ndarray, high: np.ndarray) -> tuple[float, float] | None:
    """The interval of min / max over groups of values ≥ 0 from simultaneous intervals of them: [max(0, min_g low_g)
    / max_g high_g, min(1, min_g high_g / max_g low_g)] (1 when the largest lower bound is 0 or less)."""
    if np.isnan(low).any() or np.isnan(high).any() or len(low) == 0:
        return None
    low = np.maximum(low, 0.0)
    top_high, top_low = float(np.max(high)), float(np.max(low))
    lower = float(np.min(low)) / top_high if top_high > 0 else math.nan
    upper = min(1.0, float(np.min(high)) / top_low) if top_low > 0 else 1.0
    return lower, upper


#: The most pairs of groups whose differences make one simultaneous family (above, each group's value does).
MOST_PAIRS = 500


def range_interval(
    values: np.ndarray, draws: np.ndarray, confidence: float, *, log: bool = False
) -> tuple[float, float] | None:
    """The interval of the largest gap max_{a,b} |θ_a − θ_b| (= max − min) over one or several families of groups.

    Parameters
    ----------
    values, draws
        Each family's group values (F, G) and their group-stratified bootstrap replicates (F, G, R).
    confidence
        The interval's level.
    log
        Gaps of log θ (the ratio min / max is exp(−gap)): values must be > 0.

    Returns
    -------
    tuple or None
        [max_{a,b} max(0, |d̂_ab| − c·se_ab), max_{a,b} (|d̂_ab| + c·se_ab)] over every pair of every family, where
        d̂_ab ± c·se_ab are simultaneous intervals of all the pairwise differences (max-|t| over the pairs of the
        bootstrap's resamples, :func:`simultaneous`): when they all cover, every |d_ab| lies within its bounds, so
        the largest does. Above :data:`MOST_PAIRS` pairs, each group's value makes the family instead
        (:func:`range_bounds`, wider). ``None`` when a value is undefined.
    """
    values = np.atleast_2d(np.asarray(values, dtype=np.float64))
    draws = np.asarray(draws, dtype=np.float64).reshape(values.shape + (-1,))
    if np.isnan(values).any() or (log and (values <= 0).any()):
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        if log:
            values, draws = np.log(values), np.log(draws)
    f_count, g_count = values.shape
    if g_count < 2:
        return None
    first, second = np.triu_indices(g_count, k=1)
    if f_count * len(first) > MOST_PAIRS:
        low, high = simultaneous(values.reshape(-1), draws.reshape(f_count * g_count, -1), confidence)
        found = [range_bounds(low[i * g_count : (i + 1) * g_count], high[i * g_count : (i + 1) * g_count])
                 for i in range(f_count)]  # fmt: skip
        if any(b is None for b in found):
            return None
        return max(b[0] for b in found if b), max(b[1] for b in found if b)
    d = (values[:, first] - values[:, second]).reshape(-1)
    with np.errstate(invalid="ignore"):  # log 0 in a resample: −∞ − (−∞) is undefined, and counted so
        dd = (draws[:, first] - draws[:, second]).reshape(len(d), -1)
    low, high = simultaneous(d, dd, confidence)
    if np.isnan(low).any():
        return None
    nearest = np.where((low <= 0) & (high >= 0), 0.0, np.minimum(np.abs(low), np.abs(high)))
    farthest = np.maximum(np.abs(low), np.abs(high))
    return float(nearest.max()), float(farthest.max())
