"""Intervals for a single proportion."""

from __future__ import annotations

import numpy as np

__all__ = ["wilson_interval"]


def wilson_interval(successes: np.ndarray, trials: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of successes/trials (NaN where trials = 0).

    Notes
    -----
    With p̂ = x/m: centre = (p̂ + z²/2m) / (1 + z²/m),
    half-width = z / (1 + z²/m) · √(p̂(1 − p̂)/m + z²/4m²). It stays inside [0, 1] and keeps
    its width at p̂ = 0 or 1, where the Wald interval collapses (Wilson 1927). For per-label
    precision the trials are the label's predictions, for recall its gold occurrences: the
    interval is conditional on that number.

    Examples
    --------
    >>> low, high = wilson_interval(np.array([8]), np.array([10]), 1.959964)
    >>> round(float(low[0]), 4), round(float(high[0]), 4)
    (0.4902, 0.9433)
    """
    x = np.asarray(successes, dtype=np.float64)
    m = np.asarray(trials, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / m
        z2 = z * z
        centre = (p + z2 / (2 * m)) / (1 + z2 / m)
        half = z / (1 + z2 / m) * np.sqrt(p * (1 - p) / m + z2 / (4 * m * m))
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
