"""DeLong's variance of the AUC and DeLong's paired test of two AUCs on the same instances (DeLong, DeLong &
Clarke-Pearson 1988), by the midrank algorithm of Sun & Xu (2014): O(n log n), from counts of distinct scores.

With P positives and N negatives, each positive i has the placement V10_i = (#{negatives below s_i} + ½ #{negatives
at s_i}) / N and each negative j the placement V01_j = (#{positives above s_j} + ½ #{positives at s_j}) / P; the AUC is
the mean of either. Then

    S10 = Σ_i (V10_i − A)² / (P − 1),   S01 = Σ_j (V01_j − A)² / (N − 1),   Var(A) = S10 / P + S01 / N,

and for two scores of the same instances the covariance is the same sums of products of their placements. Placements
depend on the score value only, so each distinct score (with its weight of positives and negatives) is computed once.
The interval is A ± z_{1−α/2} √Var(A), clipped to [0, 1] (as pROC's ``ci.auc(method = "delong")``); the paired test's
z = (A_1 − A_2) / √(Var A_1 + Var A_2 − 2 Cov), two-sided p = 2 Φ(−|z|) (pROC's ``roc.test(method = "delong")``).

Clustered instances (blocks: the sentences of a document, the images of a patient) are not independent. Given each
row's cluster, the variance is Obuchowski's (1997): with I clusters, I10 of them holding a positive and I01 a
negative, m_c positives and n_c negatives in cluster c and its sums of placements V10_c = Σ_{i ∈ c} V10_i and
V01_c = Σ_{j ∈ c} V01_j, a_c = (V10_c − m_c A) / P and b_c = (V01_c − n_c A) / N,

    Var(A) = I10 / (I10 − 1) Σ_c a_c² + I01 / (I01 − 1) Σ_c b_c² + 2 I / (I − 1) Σ_c a_c b_c,

which is S10/P + S01/N + 2 S11/(P N) in her notation; the covariance of two scores takes the same sums of products
(her S11 both ways). With every instance its own cluster, a_c b_c = 0, I10 = P and I01 = N: DeLong's variance.

The same per-instance terms t_i = (V10_i − A)/P (a positive) or (V01_j − A)/N (a negative), Â − A ≈ Σ_i t_i, carry
DeLong's variance over to functions of several AUCs of the same instances (:func:`auc_terms`,
:func:`influence_variance`). The terms come in *parts*, each a sum over one sample of instances (the positives of a
class, its negatives; parts over the same instances are one part); with u_s the part of sample s summed per unit (an
instance, or a cluster) and I_s the units with an instance of s, of I units,

    Var = Σ_s I_s / (I_s − 1) Σ_units u_s² + I / (I − 1) Σ_{s ≠ s'} Σ_units u_s u_s',

Bessel's correction per sample as DeLong's S10 and S01 (P − 1, N − 1) and Obuchowski's (I10 − 1, I01 − 1) make it:
one AUC gives DeLong's (or Obuchowski's) variance exactly, and so does a binary AUC given as two columns and averaged.

Two AUCs of independent samples (two hospitals, two groups) have no covariance: the unpaired test
(:func:`delong_unpaired`, pROC's ``roc.test(paired = FALSE, method = "delong")``) is
D = (A_1 − A_2) / √(V_1 + V_2), each V the variance above of its own sample, against Student's t with Welch and
Satterthwaite's degrees of freedom df = (V_1 + V_2)² / (V_1²/(n_1 − 1) + V_2²/(n_2 − 1)), n the instances of a sample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from clfeval.count.scored import ScoreCounts

__all__ = [
    "DeLong",
    "DeLongPair",
    "DeLongUnpaired",
    "auc_terms",
    "auc_variance",
    "delong",
    "delong_paired",
    "delong_unpaired",
    "influence_variance",
]


@dataclass(frozen=True)
class DeLong:
    """An AUC with DeLong's variance and interval."""

    auc: float
    variance: float
    low: float
    high: float
    confidence: float


@dataclass(frozen=True)
class DeLongPair:
    """DeLong's paired test of two AUCs on the same instances."""

    auc_a: float
    auc_b: float
    difference: float
    variance: float
    z: float
    p_value: float
    low: float
    high: float
    confidence: float


def _normal_quantile(q: float) -> float:
    return NormalDist().inv_cdf(q)


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _placements(
    score: np.ndarray, positive: np.ndarray, weight: np.ndarray, order: np.ndarray | None = None
) -> tuple[float, np.ndarray, int, int]:
    """The AUC and each row's placement (V10 for a positive row, V01 for a negative one), with P and N; ``order``:
    the rows' order by score where it is known (``argsort`` of the scores)."""
    order = np.argsort(score) if order is None else order
    v = score[order]
    new = np.r_[True, v[1:] != v[:-1]]
    ones = bool((weight == 1).all())  # instances as they are: their weights need no sums
    sorted_positive = positive[order]
    pos = sorted_positive.astype(np.float64) if ones else np.where(sorted_positive, weight[order], 0.0)
    allw = np.ones(len(v)) if ones else weight[order]
    inverse = None
    if not new.all():  # ties: a group of rows per distinct score (else each row its own)
        start = np.flatnonzero(new)
        inverse = np.cumsum(new) - 1  # each sorted row's distinct score
        pos, allw = np.add.reduceat(pos, start), np.add.reduceat(allw, start)
    neg = allw - pos
    p, n = float(pos.sum()), float(neg.sum())
    if p == 0 or n == 0:
        raise ValueError("DeLong's variance needs positives and negatives")
    below_neg = np.cumsum(neg) - neg
    above_pos = p - np.cumsum(pos)
    v10 = (below_neg + 0.5 * neg) / n  # per distinct score
    v01 = (above_pos + 0.5 * pos) / p
    auc = float(np.dot(pos, v10) / p)
    placement = np.empty(len(score))
    if inverse is None:  # each sorted row its own score: its placement where it stands, put back in row order
        placement[order] = np.where(sorted_positive, v10, v01)
    else:
        placement[order] = np.where(sorted_positive, v10[inverse], v01[inverse])
    return auc, placement, round(p), round(n)


def _rows(
    gold_positive: np.ndarray, weight: np.ndarray | None, n: int, cluster: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    positive = np.asarray(gold_positive, dtype=bool)
    w = np.ones(n, dtype=np.float64) if weight is None else np.asarray(weight, dtype=np.float64)
    if len(positive) != n or len(w) != n:
        raise ValueError("gold, scores and weights must have one entry per row")
    if cluster is not None:
        cluster = np.unique(np.asarray(cluster), return_inverse=True)[1].reshape(-1)
        if len(cluster) != n:
            raise ValueError("gold, scores and clusters must have one entry per row")
    return positive, w, cluster


def _parts(v: np.ndarray, positive: np.ndarray, auc: float, p: int, n: int) -> np.ndarray:
    """The rows' terms as two parts (see the module): (V10 − A)/P in the positives' column, (V01 − A)/N in the
    negatives', NaN where a row is not of the part's sample."""
    t = (v - auc) / np.where(positive, p, n)
    return np.column_stack([np.where(positive, t, np.nan), np.where(positive, np.nan, t)])


def _parts_variance(parts: np.ndarray, weight: np.ndarray, cluster: np.ndarray | None) -> float:
    """Σ_s I_s/(I_s − 1) Σ_units u_s² + I/(I − 1) Σ_{s ≠ s'} Σ_units u_s u_s' of the parts (rows × parts, NaN where
    a row is not of the part's sample; see the module), each row standing for ``weight`` instances; units are the
    instances, or the clusters. Parts over the same rows are added into one; a part of no row is left out. NaN when
    a sample (or all of them) has fewer than two units."""
    w = np.asarray(weight, dtype=np.float64)
    parts = np.asarray(parts, dtype=np.float64).reshape(len(w), -1)
    member = ~np.isnan(parts) & (w > 0)[:, None]
    used = member.any(axis=0)
    if not used.any():
        return float("nan")
    samples, which = np.unique(member[:, used].T, axis=0, return_inverse=True)
    merged = np.zeros((len(w), len(samples)))
    for s, col in zip(np.asarray(which).reshape(-1), np.flatnonzero(used), strict=True):
        merged[:, s] += np.where(member[:, col], parts[:, col], 0.0)
    members = samples.T.astype(np.float64) * w[:, None]  # rows × samples: the instances of each sample
    if cluster is None:
        units, sizes = float(w.sum()), members.sum(axis=0)
        products = merged.T @ (w[:, None] * merged)
    else:
        ids = np.unique(np.asarray(cluster), return_inverse=True)[1].reshape(-1)
        count = int(ids.max()) + 1 if len(ids) else 0

        def summed(x: np.ndarray) -> np.ndarray:  # clusters × columns: the sums of each cluster's rows
            return np.column_stack([np.bincount(ids, weights=col, minlength=count) for col in x.T])

        per = summed(w[:, None] * merged)
        units, sizes = float((np.bincount(ids, weights=w, minlength=count) > 0).sum()), (summed(members) > 0).sum(0)
        products = per.T @ per
    if units < 2 or len(sizes) == 0 or (sizes < 2).any():
        return float("nan")
    within = np.diag(products)
    return float(np.dot(sizes / (sizes - 1), within) + units / (units - 1) * (products.sum() - within.sum()))


def delong(
    gold_positive: np.ndarray,
    score: np.ndarray,
    weight: np.ndarray | None = None,
    *,
    confidence: float = 0.95,
    cluster: np.ndarray | None = None,
) -> DeLong:
    """DeLong's variance and interval of the AUC of ``score`` (rows: whether gold is positive, the score, how many
    instances the row stands for; ``cluster``, each row's cluster: Obuchowski's clustered variance)."""
    score = np.asarray(score, dtype=np.float64)
    positive, w, cluster = _rows(gold_positive, weight, len(score), cluster)
    auc, v, p, n = _placements(score, positive, w)
    if cluster is None:
        variance = _var(v, positive, w, auc, auc, v, p, n)
    else:
        variance = _parts_variance(_parts(v, positive, auc, p, n), w, cluster)
    half = _normal_quantile(0.5 + confidence / 2) * math.sqrt(max(variance, 0.0))
    return DeLong(auc, variance, max(0.0, auc - half), min(1.0, auc + half), confidence)


def _var(
    va: np.ndarray, positive: np.ndarray, w: np.ndarray, a: float, b: float, vb: np.ndarray, p: int, n: int
) -> float:
    """S10/P + S01/N of the placements ``va`` and ``vb`` (their covariance; a variance when they are one)."""
    if p < 2 or n < 2:
        return float("nan")
    s10 = float(np.sum(w[positive] * (va[positive] - a) * (vb[positive] - b))) / (p - 1)
    s01 = float(np.sum(w[~positive] * (va[~positive] - a) * (vb[~positive] - b))) / (n - 1)
    return s10 / p + s01 / n


def delong_paired(
    gold_positive: np.ndarray,
    score_a: np.ndarray,
    score_b: np.ndarray,
    weight: np.ndarray | None = None,
    *,
    confidence: float = 0.95,
    cluster: np.ndarray | None = None,
    orders: tuple[np.ndarray, np.ndarray] | None = None,
) -> DeLongPair:
    """DeLong's paired test of the AUCs of two scores of the same instances (rows as in :func:`delong`, each row with
    both scores), with the interval of A − B; with ``cluster``, Obuchowski's clustered variances and covariance.
    ``orders``: each score's ``argsort`` where it is known (the rows are then not sorted again)."""
    sa, sb = np.asarray(score_a, dtype=np.float64), np.asarray(score_b, dtype=np.float64)
    positive, w, cluster = _rows(gold_positive, weight, len(sa), cluster)
    a, va, p, n = _placements(sa, positive, w, None if orders is None else orders[0])
    b, vb, _, _ = _placements(sb, positive, w, None if orders is None else orders[1])
    if cluster is None:
        variance = _var(va, positive, w, a, a, va, p, n) + _var(vb, positive, w, b, b, vb, p, n)
        variance -= 2 * _var(va, positive, w, a, b, vb, p, n)
    else:
        variance = _parts_variance(_parts(va, positive, a, p, n) - _parts(vb, positive, b, p, n), w, cluster)
    d = a - b
    if not math.isfinite(variance):  # one positive or one negative (or one block): no variance, no test
        nan = float("nan")
        return DeLongPair(a, b, d, variance, nan, nan, nan, nan, confidence)
    sd = math.sqrt(max(variance, 0.0))
    if sd > 0:
        z = d / sd
        p_value = min(1.0, 2 * _normal_cdf(-abs(z)))
    else:
        z = 0.0 if d == 0 else math.copysign(math.inf, d)
        p_value = 1.0 if d == 0 else 0.0
    half = _normal_quantile(0.5 + confidence / 2) * sd
    return DeLongPair(a, b, d, variance, z, p_value, d - half, d + half, confidence)


def auc_terms(
    gold_positive: np.ndarray, score: np.ndarray, weight: np.ndarray | None = None
) -> tuple[float, np.ndarray]:
    """The AUC of ``score`` and each row's term t (see the module): (V10 − A)/P for a positive row, (V01 − A)/N for a
    negative one, so that Σ_rows weight · t = 0 and Var(A) = P/(P − 1) Σ_positives weight · t² +
    N/(N − 1) Σ_negatives weight · t² (:func:`influence_variance` of the two parts). NaN terms without positives or
    negatives."""
    score = np.asarray(score, dtype=np.float64)
    positive, w, _ = _rows(gold_positive, weight, len(score))
    if not (positive & (w > 0)).any() or not (~positive & (w > 0)).any():
        return float("nan"), np.full(len(score), np.nan)
    auc, v, p, n = _placements(score, positive, w)
    return auc, (v - auc) / np.where(positive, p, n)


def influence_variance(terms: np.ndarray, weight: np.ndarray, cluster: np.ndarray | None = None) -> float:
    """The variance of a statistic whose per-row terms are ``terms`` (each row standing for ``weight`` instances).

    ``terms`` is rows × parts, NaN where a row is not of a part's sample (see the module): Bessel's correction per
    sample, I_s/(I_s − 1), and I/(I − 1) for products of different samples; units are the instances, or the
    clusters (``cluster``). A 1-D ``terms`` is one part over every row: n/(n − 1) Σ weight · t², or
    I/(I − 1) Σ_c (Σ_{rows of c} weight · t)². NaN when a sample has fewer than two units."""
    return _parts_variance(np.asarray(terms, dtype=np.float64), weight, cluster)


@dataclass(frozen=True)
class DeLongUnpaired:
    """DeLong's unpaired test of two AUCs of independent samples (:func:`delong_unpaired`): the AUCs, their DeLong
    variances and sizes, the difference A − B, its standard error √(V_a + V_b), the statistic D = difference / se, the
    Welch–Satterthwaite degrees of freedom and the p-value for ``alternative``."""

    metric: str
    auc_a: float
    auc_b: float
    variance_a: float
    variance_b: float
    n_a: int
    n_b: int
    difference: float
    se: float
    statistic: float
    df: float
    p_value: float
    alternative: str


def auc_variance(counts: ScoreCounts, metric: str, side: str) -> tuple[float, float]:
    """An AUC of ``counts`` and its DeLong variance, by the code of the ``delong`` intervals: a score column's
    (``auc``, ``per_label.<c>.auc``) from its placements (:func:`delong`), an averaged one's (``macro.auc``,
    ``weighted.auc``, ``micro.auc``) from the per-instance terms (:func:`influence_variance`)."""
    from clfeval.errors import InputError, OptionError
    from clfeval.infer.scored import AVERAGED, WEIGHTED_DELONG, _auc_column, averaged_auc_terms

    if counts.weighted:
        raise OptionError(WEIGHTED_DELONG.format(what="tests", use="the bootstrap (test='bootstrap')"))
    if metric in AVERAGED:
        value, terms = averaged_auc_terms(counts, counts.gold, counts.scores, counts.count, AVERAGED[metric])
        variance = influence_variance(terms, counts.count)
    else:
        if metric == "auc" and not counts.binary:
            raise OptionError(
                f"DeLong's unpaired test of scores of {len(counts.columns)} columns takes an averaged AUC "
                f"({', '.join(AVERAGED)}) or a class's (per_label.<class>.auc), not 'auc'"
            )
        values, pos, neg = counts.column(_auc_column(counts, metric))
        if pos.sum() < 2 or neg.sum() < 2:
            raise InputError(
                f"DeLong's variance of {metric} needs two positives and two negatives; sample {side} has "
                f"{round(float(pos.sum()))} and {round(float(neg.sum()))}"
            )
        score = np.r_[values, values]
        positive = np.r_[np.ones(len(values), bool), np.zeros(len(values), bool)]
        found = delong(positive, score, np.r_[pos, neg])
        value, variance = found.auc, found.variance
    if not (math.isfinite(value) and math.isfinite(variance)):
        raise InputError(f"DeLong's variance of {metric} does not exist in sample {side} (a class of fewer than two)")
    return value, variance


def delong_unpaired(
    a: ScoreCounts, b: ScoreCounts, metric: str = "auc", *, alternative: str = "two-sided"
) -> DeLongUnpaired:
    """DeLong's unpaired test of an AUC of two independent samples ``a`` and ``b`` (two groups, two hospitals):
    pROC's ``roc.test(roc_a, roc_b, paired = FALSE, method = "delong")``.

    Parameters
    ----------
    a, b
        The two samples' scored predictions, of the same classes and score columns, without sample weights.
    metric
        ``auc`` (binary scores), a class's ``per_label.<class>.auc``, or an averaged ``macro.auc``,
        ``weighted.auc``, ``micro.auc`` (variance from the per-instance DeLong terms, as the ``delong`` intervals).
    alternative
        ``two-sided``, ``greater`` (A_a > A_b) or ``less``.

    Returns
    -------
    DeLongUnpaired
        With V_a, V_b each sample's DeLong variance and n_a, n_b its instances,
        D = (A_a − A_b) / √(V_a + V_b), df = (V_a + V_b)² / (V_a²/(n_a − 1) + V_b²/(n_b − 1)) (Welch and
        Satterthwaite, as pROC), and p = 2 P(T_df ≤ −|D|) two-sided, P(T_df ≥ D) ``greater``, P(T_df ≤ D) ``less``.

    Raises
    ------
    OptionError
        Sample weights (DeLong's variance is not derived for them: the bootstrap takes them), scores of several
        columns without an averaged or per-class metric, samples of different classes or columns, an unknown
        alternative.
    InputError
        A sample with fewer than two positives or negatives, or both AUCs without variance (every score tied within
        each class: D is not defined).
    """
    from clfeval.errors import InputError, OptionError
    from clfeval.infer.binomial import student_t_cdf
    from clfeval.infer.significance import ALTERNATIVES

    if alternative not in ALTERNATIVES:
        raise OptionError(f"unknown alternative {alternative!r}; one of {', '.join(ALTERNATIVES)}")
    if (a.labels, a.columns) != (b.labels, b.columns):
        raise OptionError(
            f"the two samples score different classes: {list(a.labels)} (columns {list(a.columns)}) and "
            f"{list(b.labels)} (columns {list(b.columns)})"
        )
    auc_a, var_a = auc_variance(a, metric, "a")
    auc_b, var_b = auc_variance(b, metric, "b")
    n_a, n_b = a.n_instances, b.n_instances
    total = var_a + var_b
    if not total > 0:
        raise InputError(
            f"DeLong's variance of {metric} is 0 in both samples (each sample's scores separate or tie its classes "
            "completely): the unpaired test is not defined"
        )
    difference = auc_a - auc_b
    se = math.sqrt(total)
    statistic = difference / se
    df = total**2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1))
    if alternative == "two-sided":
        p = min(1.0, 2 * student_t_cdf(-abs(statistic), df))
    else:
        p = student_t_cdf(-statistic if alternative == "greater" else statistic, df)
    return DeLongUnpaired(metric, auc_a, auc_b, var_a, var_b, n_a, n_b, difference, se, statistic, df, p, alternative)
