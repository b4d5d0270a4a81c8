"""Exact binomial tail probabilities for p = ½ (McNemar's and the sign test), and Student's t distribution (the
unpaired DeLong test), by the regularized incomplete beta function, without scipy."""

from __future__ import annotations

import math

__all__ = ["binomial_half_cdf", "student_t_cdf", "two_sided_binomial_half"]


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes §6.4)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < eps:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1 - x) / b


def binomial_half_cdf(k: int, n: int) -> float:
    """P(X ≤ k) for X ~ Binomial(n, ½).

    Notes
    -----
    Exact sums for n ≤ 1000; beyond, P(X ≤ k) = I_{1/2}(n − k, k + 1), the regularized incomplete
    beta function, by its continued fraction (relative error about 1e-12 at n = 10⁴ and 1e-8 at
    n = 10⁷, where the log-gamma terms lose digits; ample for a p-value).

    Examples
    --------
    >>> round(binomial_half_cdf(2, 10), 6)   # (1 + 10 + 45) / 1024
    0.054688
    """
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if n <= 1000:
        return math.fsum(math.comb(n, i) for i in range(k + 1)) / 2.0**n
    return _betainc(n - k, k + 1, 0.5)


def two_sided_binomial_half(b: int, c: int) -> float:
    """Exact two-sided p-value of b successes against c under p = ½: 2·P(X ≤ min(b, c)), at most 1.

    This is McNemar's exact test on the discordant counts b and c (and the sign test).
    """
    n = b + c
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * binomial_half_cdf(min(b, c), n))


def student_t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with ``df`` > 0 degrees of freedom (not necessarily whole): with x = df/(df + t²),
    P(T ≤ −|t|) = ½ I_x(df/2, ½), the regularized incomplete beta function (near 0, ½ (1 − I_{1−x}(½, df/2))).
    Within 5e-12 of scipy's ``t.cdf``, and 10⁻¹⁰ of it relative to a tail, in the tests (df from 1 to 10⁴; the
    log-gamma terms of large df lose the last digits).

    Examples
    --------
    >>> round(student_t_cdf(-2.0, 10), 6)   # R: pt(-2, 10)
    0.036694
    """
    if math.isnan(t) or math.isnan(df):
        return float("nan")
    if math.isinf(t):
        return 0.0 if t < 0 else 1.0
    a, x, y = df / 2, df / (df + t * t), t * t / (df + t * t)  # y = 1 − x, without the cancellation
    # far out, the tail's continued fraction in x keeps its relative digits; near the centre (T² ≲ 1.5),
    # I_x(a, ½) = 1 − I_y(½, a), the fraction in the small y
    tail = 0.5 * _betainc(a, 0.5, x) if x < (a + 1) / (a + 1.5) else 0.5 * (1.0 - _betainc(0.5, a, y))
    return tail if t <= 0 else 1.0 - tail
