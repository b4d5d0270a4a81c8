"""The bootstrap from counts: resamples are multinomial draws over cell types, not over instances.

Resampling N instances with replacement gives each cell type (a confusion-matrix cell, or a
unique multi-label (gold set, predicted set) pair) a count that is jointly Multinomial(N, p̂)
with p̂ the observed proportions. Drawing those counts directly gives the same distribution as
the instance-level bootstrap at a cost that depends on the number of types, not on N.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from statistics import NormalDist
from typing import cast

import numpy as np

from clfeval.infer.statistic import SeparableStatistic, Statistic, separable
from clfeval.infer.units import BlockUnits
from clfeval.scoring.cells import ordered_dot
from clfeval.scoring.measures import Tallies, averaged_measures
from clfeval.scoring.parts import Pair, linear_spread

__all__ = [
    "bca_levels",
    "bootstrap_replicates",
    "column_quantiles",
    "jackknife_moments",
    "jackknife_replicates",
    "label_jackknife_moments",
    "type_jackknife_moments",
]

#: Floats held at once by one batch of resamples (about 64 MiB); bounds memory for any number of resamples.
_BATCH_FLOATS = 8_000_000
#: Relative tolerance under which a resampled score equals the estimate.
_TIE = 1e-12


def bootstrap_replicates(
    f: Statistic,
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


def _leave_one_out(f: Statistic) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For chunks of cell types: their indices and every score with one instance of each left out."""
    cells, c = f.cells, f.weights
    base = cells.sums(c[None, :])[0]
    chunk = max(1, _BATCH_FLOATS // (2 * max(cells.width, len(f.keys))))
    for start in range(0, cells.n_types, chunk):
        types = np.arange(start, min(cells.n_types, start + chunk))
        yield types, f.from_sums(base - cells.rows_of(types))


def jackknife_replicates(f: Statistic) -> np.ndarray:
    """Every score with one instance of each cell type left out: a (U, S) array.

    Instances of one type give the same leave-one-out value, so the N-instance jackknife needs
    only one evaluation per type, weighted by the type's count.
    """
    out = np.empty((f.cells.n_types, len(f.keys)))
    for types, values in _leave_one_out(f):
        out[types] = values
    return out


def _leave_one_block_out(f: Statistic, units: BlockUnits) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For chunks of kinds of block: their indices and every score with one block of each kind left out."""
    base = ordered_dot(units.multiplicity, units.sums)
    chunk = max(1, _BATCH_FLOATS // (2 * max(units.sums.shape[1], len(f.keys))))
    for start in range(0, len(units.multiplicity), chunk):
        kinds = np.arange(start, min(len(units.multiplicity), start + chunk))
        yield kinds, f.from_sums(base - units.sums[kinds])


def jackknife_moments(
    f: Statistic, units: BlockUnits | None = None, progress: Callable[[int, int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Σ_u c_u (θ̄ − θ₍u₎)² and Σ_u c_u (θ̄ − θ₍u₎)³ of the instance jackknife, per score (length S each).

    Over instances, from each label's parts (:func:`label_jackknife_moments`: O(types + labels)) where ``f`` gives them
    over types of one instance each (:func:`~clfeval.infer.statistic.separable`), else type by type; over blocks
    (``units``), every score with each kind of block left out, in two passes over the kinds in chunks (the
    weighted mean θ̄, then the centred moments), so memory stays bounded however many kinds and scores there are.
    ``progress`` is called with (done, total) types or kinds of block left out over both passes (total: twice their
    number); the label parts' closed form is one vectorised computation, without calls.
    """
    if units is None and separable(f):
        return label_jackknife_moments(cast(SeparableStatistic, f))
    return type_jackknife_moments(f, units, progress)


def type_jackknife_moments(
    f: Statistic, units: BlockUnits | None = None, progress: Callable[[int, int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`jackknife_moments` by evaluating every score with one instance of each type (or one block of each
    kind) left out: O(types × labels), the reference for :func:`label_jackknife_moments`."""
    c = f.weights if units is None else units.multiplicity
    total = 2 * len(c)

    def passes() -> Iterator[tuple[np.ndarray, np.ndarray]]:
        return _leave_one_out(f) if units is None else _leave_one_block_out(f, units)

    mean = np.zeros(len(f.keys))
    for types, values in passes():
        mean += ordered_dot(c[types], values)
        if progress is not None:
            progress(int(types[-1]) + 1, total)
    mean /= c.sum()
    second = np.zeros(len(f.keys))
    third = np.zeros(len(f.keys))
    for types, values in passes():
        dev = mean - values
        second += ordered_dot(c[types], dev**2)
        third += ordered_dot(c[types], dev**3)
        if progress is not None:
            progress(len(c) + int(types[-1]) + 1, total)
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


def _weighted_moments(c: np.ndarray, values: np.ndarray, n: float) -> tuple[float, float]:
    """Σ c (θ̄ − θ)² and Σ c (θ̄ − θ)³ of values θ with weights c, θ̄ = Σ cθ / n."""
    mean = ordered_dot(c, values) / n
    dev = mean - values
    return float(ordered_dot(c, dev**2)), float(ordered_dot(c, dev**3))


def label_jackknife_moments(f: SeparableStatistic) -> tuple[np.ndarray, np.ndarray]:
    """The instance jackknife's moments (see :func:`jackknife_moments`) from each label's parts, O(types + labels).

    Notes
    -----
    Leaving one instance of type u out takes M_u from the sums. A label λ that u does not touch keeps its tp, fp
    and fn, and its tn drops by one (N − 1): its values are the same for every such type, a_λ; a label u touches
    (one of u's few entries) has its own. So a per-label score's replicates are a_λ, with weight N minus the
    instances of the types that touch λ, and one value per (type, label) entry. A score Φ(R) of summed parts
    R_r = Σ_λ ψ_r(λ) has R_r(u) = S'_r + Σ_{λ touched by u} [ψ_r(λ without u) − ψ_r(λ with tn − 1)], S'_r the
    sum with every tn − 1: the parts of the touched labels are evaluated side by side, as columns of one table
    (each with its own position in the table and lfb weight). Linear κ's pair sum Σ_ij |i − j| t_i p_j loses
    (W p)_g + (W t)_p − |g − p| for a type of gold g and prediction p.
    """
    cells, c = f.cells, f.weights
    n = float(c.sum())
    u_total, k, width = cells.n_types, len(cells.labels), len(cells.table)
    base = cells.sums(c[None, :])
    t = cells.tallies(base)
    second, third = np.full(len(f.keys), np.nan), np.full(len(f.keys), np.nan)
    # every label with tn − 1: one instance left out that does not touch it
    untouched = base.copy()
    untouched[:, cells.column("n")] -= 1
    rows, cols, vals = cells.rows, cells.cols, cells.vals
    in_labels = cols < 4 * width
    block, label = np.divmod(cols[in_labels], width)
    groups, group_of = np.unique(rows[in_labels].astype(np.int64) * width + label, return_inverse=True)
    group_type, group_label = np.divmod(groups, width)
    change = np.stack(
        [
            np.bincount(group_of, weights=np.where(block == b, vals[in_labels], 0.0), minlength=len(groups))
            for b in range(4)
        ]
    )
    # the touched labels' counts with the type's instance left out (tn = N − 1 − (present − Δpresent)), the columns
    # of the label set first
    order = np.argsort(group_label >= k, kind="stable")
    group_type, group_label, change = group_type[order], group_label[order], change[:, order]
    in_set = int(np.count_nonzero(group_label < k))
    counts = [a[0][group_label] for a in (t.tp, t.fp, t.fn, t.tn)]
    left = [counts[0] - change[0], counts[1] - change[1], counts[2] - change[2], counts[3] - 1 + change[3]]
    scalars = {}
    for name in cells.scalar_columns():
        position = cells.column(name).start
        mine = cols == position
        scalars[name] = base[0, position] - np.bincount(rows[mine], weights=vals[mine], minlength=u_total)
    with np.errstate(all="ignore"):
        per_label, untouched_parts = f.separated(untouched)
        frequencies = None if f.train_frequencies is None else np.asarray(f.train_frequencies)[group_label[:in_set]]
        side_by_side = Tallies(
            left[0][None, :],
            left[1][None, :],
            left[2][None, :],
            left[3][None, :],
            in_set,
            np.array([n - 1]),
            np.zeros(1),
            positions=group_label.astype(np.float64),
        )
        group_values, group_parts = f.parts_of(side_by_side, tuple(map(str, range(in_set))), frequencies)
        columns = {key: i for i, key in enumerate(f.keys)}

        # per-label scores: a_λ for the types that leave λ alone, one value per (type, λ) entry otherwise
        touched = np.bincount(group_label[:in_set], weights=c[group_type[:in_set]], minlength=k)
        alone = n - touched
        label_index = {lab: i for i, lab in enumerate(cells.labels)}
        for m, values in per_label.items():
            a, v = values[0], group_values[m][0]
            w = c[group_type[:in_set]]
            mean = (alone * a + np.bincount(group_label[:in_set], weights=w * v, minlength=k)) / n
            dev_a, dev_v = mean - a, mean[group_label[:in_set]] - v
            m2 = alone * dev_a**2 + np.bincount(group_label[:in_set], weights=w * dev_v**2, minlength=k)
            m3 = alone * dev_a**3 + np.bincount(group_label[:in_set], weights=w * dev_v**3, minlength=k)
            for lab, i in label_index.items():
                key = ("per_label", lab, m)
                if key in columns:
                    second[columns[key]], third[columns[key]] = m2[i], m3[i]

        # every other score: its parts' sums with each type left out, combined
        empty = np.zeros((1, 0))
        left_out = Tallies(
            empty,
            empty,
            empty,
            empty,
            k,
            scalars["n"],
            scalars["exact"],
            disagreement={w: scalars[f"kappa_{w}"] for w in ("linear", "quadratic") if f"kappa_{w}" in scalars},
            samples=(
                {m: (scalars[f"sum_{m}"], scalars[f"defined_{m}"]) for m in averaged_measures()}
                if cells.multilabel
                else None
            ),
        )
        for group, parts in untouched_parts.items():
            reduced: dict[str, np.ndarray] = {}
            for r, part in parts.items():
                if isinstance(part, Pair):  # linear κ: the full data's pair sum, less the left-out instance's pairs
                    # unit types scaled by weights of 1 (sample_weight of ones) keep their positions as scaled_positions
                    positions = cells.positions if cells.positions is not None else cells.scaled_positions
                    assert positions is not None
                    g, p = positions
                    gold, pred = part.gold[0], part.pred[0]
                    total = float(part.total()[0])
                    reduced[r] = total - linear_spread(pred)[g] - linear_spread(gold)[p] + np.abs(g - p)
                    continue
                values = np.asarray(part)[0]
                mine = in_set if len(values) == k else len(group_label)
                own = np.asarray(group_parts[group][r])[0][:mine] - values[group_label[:mine]]
                reduced[r] = values.sum() + np.bincount(group_type[:mine], weights=own, minlength=u_total)
            for score, replicates in f.combined_with(group, reduced, left_out).items():
                if score in columns:
                    values = np.broadcast_to(np.asarray(replicates, dtype=np.float64), (u_total,))
                    second[columns[score]], third[columns[score]] = _weighted_moments(c, values, n)
    return second, third
