"""The bootstrap from counts: resamples are multinomial draws over cell types, not over instances.

Resampling N instances with replacement gives each cell type (a confusion-matrix cell, or a
unique multi-label (gold set, predicted set) pair) a count that is jointly Multinomial(N, p̂)
with p̂ the observed proportions. Drawing those counts directly gives the same distribution as
the instance-level bootstrap at a cost that depends on the number of types, not on N.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from statistics import NormalDist

import numpy as np

from clfeval.infer.units import BlockUnits
from clfeval.score.statistics import ScoreFunction

__all__ = ["bca_levels", "bootstrap_replicates", "column_quantiles", "jackknife_moments", "jackknife_replicates"]

#: Floats held at once by one batch of resamples (about 64 MiB); bounds memory for any number of resamples.
_BATCH_FLOATS = 8_000_000
#: Relative tolerance under which a resampled score equals the estimate.
_TIE = 1e-12


def bootstrap_replicates(
    f: ScoreFunction,
    resamples: int,
    rng: np.random.Generator,
    progress: Callable[[int, int], None] | None = None,
    units: BlockUnits | None = None,
) -> np.ndarray:
    """Every score of ``f`` on ``resamples`` bootstrap resamples: a (resamples, S) array.

    Notes
    -----
    Each resample is one draw w* ~ Multinomial(N, c/N) over the observed cell types, scored
    with ``f`` (the same label set, β and zero-division choices as the estimate). With block
    ``units``, a resample draws B blocks with replacement instead: Multinomial(B, m/B) over the
    kinds of block, whose sums add up. Resamples are drawn and scored in batches so memory stays
    bounded.
    """
    c = f.weights
    n = round(c.sum())
    p = c / c.sum()
    per_row = (c.size if units is None else 2 * len(units.multiplicity)) + f.cells.width * 4 + len(f.keys) * 3
    batch = int(max(1, min(resamples, _BATCH_FLOATS // per_row)))
    out = np.empty((resamples, len(f.keys)))
    for start in range(0, resamples, batch):
        size = min(batch, resamples - start)
        if units is not None:
            out[start : start + size] = f.from_sums(units.resampled_sums(units.draw(size, rng)))
        else:
            out[start : start + size] = f(rng.multinomial(n, p, size=size).astype(np.float64))
        if progress is not None:
            progress(start + size, resamples)
    return out


def _leave_one_out(f: ScoreFunction) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For chunks of cell types: their indices and every score with one instance of each left out."""
    cells, c = f.cells, f.weights
    base = cells.sums(c[None, :])[0]
    chunk = max(1, _BATCH_FLOATS // (2 * max(cells.width, len(f.keys))))
    for start in range(0, cells.n_types, chunk):
        types = np.arange(start, min(cells.n_types, start + chunk))
        yield types, f.from_sums(base - cells.rows_of(types))


def jackknife_replicates(f: ScoreFunction) -> np.ndarray:
    """Every score with one instance of each cell type left out: a (U, S) array.

    Instances of one type give the same leave-one-out value, so the N-instance jackknife needs
    only one evaluation per type, weighted by the type's count.
    """
    out = np.empty((f.cells.n_types, len(f.keys)))
    for types, values in _leave_one_out(f):
        out[types] = values
    return out


def _leave_one_block_out(f: ScoreFunction, units: BlockUnits) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For chunks of kinds of block: their indices and every score with one block of each kind left out."""
    base = units.multiplicity @ units.sums
    chunk = max(1, _BATCH_FLOATS // (2 * max(units.sums.shape[1], len(f.keys))))
    for start in range(0, len(units.multiplicity), chunk):
        kinds = np.arange(start, min(len(units.multiplicity), start + chunk))
        yield kinds, f.from_sums(base - units.sums[kinds])


def jackknife_moments(f: ScoreFunction, units: BlockUnits | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Σ_u c_u (θ̄ − θ₍u₎)² and Σ_u c_u (θ̄ − θ₍u₎)³ of the instance jackknife, per score (length S each).

    Two passes over the cell types in chunks (the weighted mean θ̄, then the centred moments), so
    memory stays bounded however many types and scores there are.
    """
    c = f.weights if units is None else units.multiplicity

    def passes() -> Iterator[tuple[np.ndarray, np.ndarray]]:
        return _leave_one_out(f) if units is None else _leave_one_block_out(f, units)

    mean = np.zeros(len(f.keys))
    for types, values in passes():
        mean += c[types] @ values
    mean /= c.sum()
    second = np.zeros(len(f.keys))
    third = np.zeros(len(f.keys))
    for types, values in passes():
        dev = mean - values
        second += c[types] @ dev**2
        third += c[types] @ dev**3
    return second, third


def column_quantiles(sorted_values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Quantiles of each column of a column-sorted (B, S) array at per-column levels (shape (S,)).

    Linear interpolation between order statistics, as :func:`numpy.quantile`'s default.
    """
    b = sorted_values.shape[0]
    position = np.clip(levels, 0.0, 1.0) * (b - 1)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, b - 1)
    frac = position - low
    cols = np.arange(sorted_values.shape[1])
    quantiles: np.ndarray = sorted_values[low, cols] * (1 - frac) + sorted_values[high, cols] * frac
    return quantiles


def bca_levels(
    estimate: np.ndarray, replicates: np.ndarray, jackknife: tuple[np.ndarray, np.ndarray], alpha: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The BCa percentile levels (lower, upper) of each score, and which scores have none.

    Notes
    -----
    Bias correction z₀ = Φ⁻¹(#{θ* < θ̂}/B + ½·#{θ* = θ̂}/B) (ties count half: scores of counts
    are discrete; values within 10⁻¹² relative of θ̂ are ties). Acceleration from the jackknife
    over instances, computed per cell type u with count c_u and leave-one-out value θ₍u₎:
    θ̄ = Σ c_u θ₍u₎ / N, a = Σ c_u (θ̄ − θ₍u₎)³ / (6 [Σ c_u (θ̄ − θ₍u₎)²]^{3/2}). The levels are
    α₁ = Φ(z₀ + (z₀ + z_{α/2}) / (1 − a (z₀ + z_{α/2}))) and α₂ likewise with z_{1−α/2}
    (Efron 1987). A score whose estimate lies outside its bootstrap distribution (z₀ infinite)
    has no BCa interval.
    """
    normal = NormalDist()
    b = replicates.shape[0]
    tie = _TIE * np.maximum(1.0, np.abs(estimate))  # the same score computed two ways may differ in the last bits
    below = (replicates < estimate - tie).sum(axis=0) + 0.5 * (np.abs(replicates - estimate) <= tie).sum(axis=0)
    share = below / b
    valid = (share > 0) & (share < 1)
    z0 = np.array([normal.inv_cdf(s) if ok else 0.0 for s, ok in zip(share, valid)])
    spread, skew = jackknife  # see jackknife_moments
    with np.errstate(invalid="ignore", divide="ignore"):
        accel = np.where(spread > 0, skew / (6 * spread**1.5), 0.0)
    levels = []
    for z_alpha in (normal.inv_cdf(alpha / 2), normal.inv_cdf(1 - alpha / 2)):
        shifted = z0 + z_alpha
        denom = 1 - accel * shifted
        ok = denom > 0
        valid &= ok
        arg = np.where(ok, z0 + shifted / np.where(ok, denom, 1.0), 0.0)
        levels.append(np.array([normal.cdf(x) for x in arg]))
    return levels[0], levels[1], ~valid
