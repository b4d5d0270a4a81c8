"""Paired significance tests on counts: approximate randomization, paired bootstrap, McNemar.

All three work on the unique (gold, prediction A, prediction B) triples (:class:`Arrangements`), so
their cost does not depend on the number of instances.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.paired import PairedCounts
from clfeval.errors import unknown_name
from clfeval.infer.arrangement import Arrangements, HalfBinomial
from clfeval.infer.binomial import binomial_half_cdf, two_sided_binomial_half
from clfeval.kinds import KINDS

__all__ = [
    "ALTERNATIVES",
    "McNemar",
    "SignTest",
    "TestResult",
    "mcnemar",
    "paired_bootstrap",
    "randomization_test",
    "extreme",
    "p_of_z",
    "right_of",
    "sign_test",
]

#: The alternative hypotheses, on the difference d = score(A) − score(B) (for Hamming loss and micro FPR a
#: lower score is the better one, so ``greater`` there says A is worse).
ALTERNATIVES: Mapping[str, str] = {
    "two-sided": "A and B differ, in either direction (randomization: |d*| ≥ |d| counts as at least as extreme)",
    "greater": "d > 0: A's score is higher than B's (randomization: d* ≥ d counts as at least as extreme)",
    "less": "d < 0: A's score is lower than B's (randomization: d* ≤ d counts as at least as extreme)",
}
#: Relative tolerance under which two differences are equal (the same arrangement scored two ways).
_TIE = 1e-12
#: Floats held at once by one batch of rounds (about 64 MiB of float32 swap counts: big enough that the swap
#: product reads the delta matrix once per hundred-odd rounds, not once per few).
_BATCH_FLOATS = 16_000_000


@dataclass(frozen=True)
class TestResult:
    """One test of d = score(A) − score(B) for each requested score.

    ``p_values[i]`` belongs to the i-th score; ``exact`` says whether every arrangement was
    enumerated (then ``rounds`` is the number of distinct swap patterns weighed). The bootstrap's
    ``ci`` comes from the defined draws; ``undefined`` counts the draws where a score was NaN
    (counted as at least as extreme in p, the conservative choice).
    """

    difference: np.ndarray
    p_values: np.ndarray
    rounds: int
    exact: bool
    ci: np.ndarray | None = None
    undefined: np.ndarray | None = None


def p_of_z(z: float, alternative: str) -> float:
    """The normal test's p-value of z = d / se for the alternative (:data:`ALTERNATIVES`): two-sided 2Φ(−|z|),
    ``greater`` Φ(−z), ``less`` Φ(z); NaN for a NaN z."""
    from statistics import NormalDist

    if math.isnan(z):
        return float("nan")
    if alternative == "two-sided":
        return min(1.0, 2 * NormalDist().cdf(-abs(z)))
    return NormalDist().cdf(-z if alternative == "greater" else z)


def extreme(draws: np.ndarray, observed: np.ndarray, alternative: str) -> np.ndarray:
    """Which draws are at least as extreme as ``observed``; an undefined (NaN) draw counts as extreme (conservative)."""
    tol = _TIE * np.maximum(1.0, np.abs(observed))
    if alternative == "two-sided":
        hit = np.abs(draws) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = draws >= observed - tol
    else:
        hit = draws <= observed + tol
    extreme: np.ndarray = hit | np.isnan(draws)
    return extreme


def _batch(arr: Arrangements) -> int:
    per_round = len(arr.swap_counts) * 2 + arr.f.cells.width * 4 + len(arr.f.keys) * 4
    return int(max(1, _BATCH_FLOATS // per_round))


def _resample_batch(arr: Arrangements) -> int:
    kinds = len(arr.counts) if arr.blocks is None else len(arr.blocks.multiplicity) + arr.blocks.n_blocks
    per_round = kinds * 3 + arr.f.cells.width * 4 + len(arr.f.keys) * 4
    return int(max(1, _BATCH_FLOATS // per_round))


def _enumerable(counts: np.ndarray, limit: int) -> int | None:
    if limit <= 0:
        return None
    total = 1
    for c in counts:
        total *= int(c) + 1
        if total > limit:
            return None
    return total


def randomization_test(
    arr: Arrangements,
    columns: Sequence[int],
    *,
    rounds: int,
    rng: np.random.Generator,
    alternative: str = "two-sided",
    exact_limit: int = 100_000,
    progress: Callable[[int, int], None] | None = None,
) -> TestResult:
    """Approximate randomization (Noreen 1989; Yeh 2000) of the score differences in ``columns``.

    Notes
    -----
    Under the null hypothesis the two predictions of each instance are exchangeable: each is
    swapped with probability ½. For a triple with c instances the number swapped is
    Binomial(c, ½), so a round draws one such number per triple where the systems differ and
    rescores both systems from the counts (:class:`Arrangements`). With r of R rounds at least as
    extreme as the observed difference, p = (r + 1)/(R + 1). When the swap patterns are few
    (Π (c_t + 1) ≤ ``exact_limit``), all of them are enumerated with their binomial probabilities
    Π C(c_t, s_t)/2^{c_t}, and p is the exact probability of a difference at least as extreme.

    With blocks, whole blocks are swapped: the units are the kinds of block where the systems
    differ (blocks with the same contents move the sums alike), c_t counts the blocks of a kind,
    and everything else is as above.
    """
    if alternative not in ALTERNATIVES:
        raise unknown_name("alternative", alternative, ALTERNATIVES)
    columns = list(columns)
    observed_a, observed_b = arr.observed()
    observed = observed_a[columns] - observed_b[columns]
    c = np.round(arr.swap_counts).astype(np.int64)
    patterns = _enumerable(c, exact_limit)
    if patterns is not None:
        return _exact(arr, columns, observed, c, patterns, alternative)
    hits = np.zeros(len(columns))
    batch = _batch(arr)
    sampler = HalfBinomial(c)
    arr = arr.reordered(sampler.order)
    for start in range(0, rounds, batch):
        size = min(batch, rounds - start)
        a, b = arr.swapped(sampler.draw(size, rng, arr.swap_dtype))
        hits += extreme(a[:, columns] - b[:, columns], observed, alternative).sum(axis=0)
        if progress is not None:
            progress(start + size, rounds)
    return TestResult(observed, (hits + 1) / (rounds + 1), rounds, False)


def _exact(
    arr: Arrangements, columns: list[int], observed: np.ndarray, c: np.ndarray, patterns: int, alternative: str
) -> TestResult:
    grids = np.meshgrid(*[np.arange(x + 1) for x in c], indexing="ij") if len(c) else []
    swaps = np.stack([g.ravel() for g in grids], axis=1) if len(c) else np.zeros((1, 0), dtype=np.int64)
    log_weight = np.zeros(len(swaps))
    for i, count in enumerate(c):
        log_choose = np.array(
            [math.lgamma(count + 1) - math.lgamma(k + 1) - math.lgamma(count - k + 1) for k in range(count + 1)]
        ) - count * math.log(2)
        log_weight += log_choose[swaps[:, i]]
    weight = np.exp(log_weight)
    mass = np.zeros(len(columns))
    batch = _batch(arr)
    for start in range(0, len(swaps), batch):
        part = slice(start, start + batch)
        a, b = arr.swapped(swaps[part])
        mass += weight[part] @ extreme(a[:, columns] - b[:, columns], observed, alternative)
    return TestResult(observed, np.minimum(mass / weight.sum(), 1.0), patterns, True)


def paired_bootstrap(
    arr: Arrangements,
    columns: Sequence[int],
    *,
    rounds: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    alternative: str = "two-sided",
    progress: Callable[[int, int], None] | None = None,
) -> TestResult:
    """The paired bootstrap of the score differences: their percentile interval and a p-value.

    Notes
    -----
    A resample draws N instances with replacement, both systems' predictions together: one
    Multinomial(N, c/N) draw over the triples (with blocks: B blocks, one Multinomial(B, m/B) draw
    over the kinds of block). With d* the resampled differences and d the
    observed one, the interval is the percentile interval of d*, and the p-value tests d = 0 by
    shifting the bootstrap distribution to the null (Berg-Kirkpatrick et al. 2012):
    p = (1 + #{|d* − d| ≥ |d|})/(R + 1) two-sided, #{d* − d ≥ d} for ``greater``, #{d* − d ≤ d}
    for ``less``.
    """
    if alternative not in ALTERNATIVES:
        raise unknown_name("alternative", alternative, ALTERNATIVES)
    columns = list(columns)
    observed_a, observed_b = arr.observed()
    observed = observed_a[columns] - observed_b[columns]
    draws = np.empty((rounds, len(columns)))
    batch = _resample_batch(arr)
    for start in range(0, rounds, batch):
        size = min(batch, rounds - start)
        a, b = arr.resampled(arr.draw(size, rng))
        draws[start : start + size] = a[:, columns] - b[:, columns]
        if progress is not None:
            progress(start + size, rounds)
    alpha = 1 - confidence
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column: no interval (NaN), said by the caller
        ci = np.nanquantile(draws, [alpha / 2, 1 - alpha / 2], axis=0).T
    hits = extreme(draws - observed, observed, alternative).sum(axis=0)
    return TestResult(observed, (hits + 1) / (rounds + 1), rounds, False, ci, np.isnan(draws).sum(axis=0))


def right_of(paired: PairedCounts) -> list[tuple[bool, bool]]:
    """Whether A and B are right (:meth:`clfeval.kinds.Kind.correct`) on each triple, in the order of ``triples``."""
    kind = KINDS[paired.kind]
    return [(kind.correct(kind.system_row(t, 1)), kind.correct(kind.system_row(t, 2))) for t in paired.triples]


@dataclass(frozen=True)
class McNemar:
    """McNemar's exact test on instances where exactly one system is right.

    ``only_a``: A right and B wrong; ``only_b``: B right and A wrong; ``p_value``: the exact
    binomial test of only_a against only_b with p = ½, for the alternative asked.
    """

    only_a: int
    only_b: int
    both: int
    neither: int
    p_value: float


def mcnemar(paired: PairedCounts, alternative: str = "two-sided") -> McNemar:
    """McNemar's exact test of accuracy (multi-label: subset accuracy, the whole set right).

    Notes
    -----
    With b instances only A gets right and c only B gets right, X ~ Binomial(b + c, ½) under
    the null: two-sided p = min(1, 2·P(X ≤ min(b, c))); ``greater`` (A more accurate)
    p = P(X ≥ b); ``less`` p = P(X ≤ b).
    """
    if alternative not in ALTERNATIVES:
        raise unknown_name("alternative", alternative, ALTERNATIVES)
    cells = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    for right, c in zip(right_of(paired), paired.triples.values()):
        cells[right] += c
    only_a, only_b = cells[(True, False)], cells[(False, True)]
    return McNemar(only_a, only_b, cells[(True, True)], cells[(False, False)], _binomial_p(only_a, only_b, alternative))


@dataclass(frozen=True)
class SignTest:
    """The sign test on the units (instances or blocks) where one system does better than the other.

    ``a_better``: units where A gets more instances right than B (on instances: A right, B wrong);
    ``b_better`` the other way; ``ties``: units where they get as many right. ``p_value``: the exact
    binomial test of a_better against b_better with p = ½, for the alternative asked.
    """

    unit: str
    a_better: int
    b_better: int
    ties: int
    p_value: float


def _binomial_p(wins: int, losses: int, alternative: str) -> float:
    if alternative == "two-sided":
        p = two_sided_binomial_half(wins, losses)
    elif alternative == "greater":
        p = binomial_half_cdf(losses, wins + losses)  # P(X ≥ wins) = P(X ≤ losses)
    else:
        p = binomial_half_cdf(wins, wins + losses)
    return min(1.0, max(0.0, p))


def sign_test(paired: PairedCounts, alternative: str = "two-sided", blocks: Blocks | None = None) -> SignTest:
    """The sign test of A against B on instances, or on blocks (multi-label: an instance is right when its whole
    label set is).

    Notes
    -----
    On instances it is McNemar's exact test: the units where exactly one system is right. On
    blocks, a block counts for A when A gets more of its instances right than B does, for B the
    other way, and is a tie otherwise; under the null hypothesis (the systems' outputs exchangeable
    within each block) the non-tied blocks split Binomial(n, ½). ``blocks`` must have
    ``paired``'s triples as keys.
    """
    if alternative not in ALTERNATIVES:
        raise unknown_name("alternative", alternative, ALTERNATIVES)
    margin = np.array([int(a) - int(b) for a, b in right_of(paired)], dtype=np.int64)
    if blocks is None:
        counts = np.array(list(paired.triples.values()), dtype=np.int64)
        a_better, b_better = int(counts[margin > 0].sum()), int(counts[margin < 0].sum())
        ties, unit = int(counts.sum()) - a_better - b_better, "instances"
    else:
        per_block = np.bincount(blocks.block, weights=margin[blocks.row] * blocks.count, minlength=blocks.n_blocks)
        a_better, b_better = int((per_block > 0).sum()), int((per_block < 0).sum())
        ties, unit = blocks.n_blocks - a_better - b_better, blocks.unit
    return SignTest(unit, a_better, b_better, ties, _binomial_p(a_better, b_better, alternative))
