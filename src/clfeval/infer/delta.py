"""The delta method under the multinomial model: variances of scores from the cell probabilities.

Takahashi et al.'s closed forms for micro F1, macro F1 (AF, their maF1) and macro F1 (FA, their
maF1*), and a generic delta method that differentiates any reported score numerically and covers
every other score. The generic one comes twice, tested against each other: :func:`delta_variances`
differentiates each label's parts of the scores (scoring/parts.py) for all labels at once, in
O(types + labels) evaluations' worth of work; :func:`type_delta_variances` moves the weight of one
cell type at a time and evaluates every score, O(types × labels), the plain reference.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.infer.statistic import SeparableStatistic, Statistic
from clfeval.infer.units import BlockUnits
from clfeval.scoring.parts import Pair, linear_spread, summed
from clfeval.scoring.scores import Key

__all__ = ["block_delta_variances", "delta_variances", "takahashi_variances", "type_delta_variances"]

#: Relative step of the numerical derivative along each cell type (a fraction of its count).
_STEP = 1e-3
#: Rows evaluated at once when differentiating (bounds memory for many cell types).
_CHUNK_CELLS = 2_000_000


#: The label coordinates the parts are differentiated along, and the block of sums each moves (tn = N − present).
_COORDINATES = (("tp", "tp", 1.0), ("fp", "fp", 1.0), ("fn", "fn", 1.0), ("tn", "present", -1.0))
#: The five-point stencil's offsets, in steps.
_OFFSETS = np.array([2.0, 1.0, -1.0, -2.0])


#: A stencil's difference within this many units of rounding of its values is no difference (a value that does not
#: move gives a derivative of exactly 0, and a variance of exactly 0, not 1e-30).
_ROUNDING = 64 * np.finfo(np.float64).eps


def _five_point(values: np.ndarray, h: np.ndarray) -> np.ndarray:
    """[−v(+2h) + 8v(+h) − 8v(−h) + v(−2h)] / 12h for values stacked (4, …) in :data:`_OFFSETS` order; 0 where
    h = 0 (a coordinate that is 0 moves with no cell type: nothing reads its derivative) and where the difference
    is rounding."""
    with np.errstate(divide="ignore", invalid="ignore"):
        difference = -values[0] + 8 * values[1] - 8 * values[2] + values[3]
        rounding = np.abs(difference) <= _ROUNDING * np.max(np.abs(values), axis=0)
        d = difference / (12 * h)
    return np.where((h > 0) & ~rounding, d, 0.0)


def _column_variances(c: np.ndarray, d_of_entry: np.ndarray, rows: np.ndarray, n: float) -> float:
    """Σ_u c_u d_u² − (Σ_u c_u d_u)² / n for d_u the sum of ``d_of_entry`` over the entries of type u."""
    d = np.bincount(rows, weights=d_of_entry, minlength=len(c))
    first = c @ d
    return float(np.maximum(c @ d**2 - first * first / n, 0.0))


def delta_variances(f: SeparableStatistic, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The delta-method variance of every score of ``f`` (length S, in the order of ``f.keys``).

    Parameters
    ----------
    f
        The scores as a function of the weights of the observed cell types.
    progress
        Called with (steps done, steps) as the derivatives are computed.

    Notes
    -----
    With n instances spread over the cell types u with counts c_u, the multinomial model gives, for a
    score θ with derivative d_u = ∂θ/∂w_u along the weight of type u,

        Var(θ̂) = Σ_u c_u d_u² − (Σ_u c_u d_u)² / n,

    which a shift of every d_u by the same amount leaves unchanged. A type adds M_u to the sums s
    (:class:`~clfeval.scoring.cells.CellTypes`), so d_u = Σ_d M_ud ∂θ/∂s_d: the gradient of θ with
    respect to the D sums, read at each type's few non-zero entries. The sum N grows by one with
    every type, so its derivative is such a common shift and is left out (as is any sum every type
    adds the same amount to: the instances where a per-instance measure is defined, when it is
    defined for all).

    The gradient comes from the parts (scoring/parts.py). Each label λ's counts x_λ = (tp, fp, fn, tn)
    enter only λ's per-label scores and λ's parts ψ_r(x_λ) of every other score θ = Φ(R), R_r =
    Σ_λ ψ_r(x_λ); so ∂θ/∂x_λ = Σ_r ∂Φ/∂R_r · ∂ψ_r/∂x_λ. Moving one coordinate of every label at once
    (all tp by 10⁻³ of each label's tp, …) gives ∂ψ_r/∂x_λ for all λ in one evaluation, a five-point
    central difference; ∂Φ/∂R_r is one on the few sums R; the scalar sums (exact matches, κ's
    disagreements, multi-label per-instance sums) are moved one at a time. Every denominator is a
    sum of counts with non-negative coefficients, so a step of 10⁻³ of a coordinate stays clear of
    its poles, and a coordinate that is 0 is read by no type. Linear κ's chance disagreement, a sum
    over pairs of labels (:class:`~clfeval.scoring.parts.Pair`), has derivative δgᵀ(W p) + δpᵀ(W g).

    Cost: 17 evaluations of the per-label arrays, a few of every score, and a pass over the map's
    entries per averaged or overall score: O(types + labels), where :func:`type_delta_variances`
    evaluates every score four times per type.
    """
    cells, c = f.cells, f.weights
    n = float(c.sum())
    base = cells.sums(c[None, :])
    t = cells.tallies(base)
    k, width = len(cells.labels), len(cells.table)
    coordinate = {"tp": t.tp[0], "fp": t.fp[0], "fn": t.fn[0], "tn": t.tn[0]}
    steps = {name: _STEP * coordinate[name] for name, _, _ in _COORDINATES}
    moved = np.repeat(base, 4 * len(_COORDINATES), axis=0)
    for i, (name, block, sign) in enumerate(_COORDINATES):
        moved[4 * i : 4 * i + 4, cells.column(block)] += sign * _OFFSETS[:, None] * steps[name][None, :]
    entry_rows, entry_cols, entry_vals = cells.rows, cells.cols, cells.vals
    total_steps = 3
    with np.errstate(all="ignore"):
        per_label, parts = f.separated(moved)
        if progress is not None:
            progress(1, total_steps)

        def derivatives(values: np.ndarray) -> dict[str, np.ndarray]:
            """∂/∂x_λ of per-label values (16, w) along each coordinate: (w,) each."""
            w = np.shape(values)[-1]
            return {
                name: _five_point(values[4 * i : 4 * i + 4], steps[name][:w])
                for i, (name, _, _) in enumerate(_COORDINATES)
            }

        out = np.full(len(f.keys), np.nan)
        # per-label scores: θ_λ = m(x_λ); types that leave λ alone all move tn_λ, a common shift (left out)
        wanted = [(i, key) for i, key in enumerate(f.keys) if key[0] == "per_label"]
        if wanted:
            label_index = {lab: i for i, lab in enumerate(cells.labels)}
            in_labels = entry_cols < 4 * width
            block_of, label_of = np.divmod(entry_cols[in_labels], width)
            ours = label_of < k
            e_rows, e_block = entry_rows[in_labels][ours], block_of[ours]
            e_label, e_vals = label_of[ours], entry_vals[in_labels][ours]
            groups, group_of = np.unique(e_rows.astype(np.int64) * k + e_label, return_inverse=True)
            group_type, group_label = np.divmod(groups, k)
            weight = c[group_type]
            variances: dict[str, np.ndarray] = {}
            for m in {key[2] for _, key in wanted}:
                g = derivatives(per_label[m])
                # the block tp, fp, fn, present of an entry: ∂θ/∂s along it (present moves tn the other way)
                local = np.stack([g["tp"], g["fp"], g["fn"], -g["tn"]])
                e = np.bincount(group_of, weights=e_vals * local[e_block, e_label], minlength=len(groups))
                first = np.bincount(group_label, weights=weight * e, minlength=k)
                second = np.bincount(group_label, weights=weight * e * e, minlength=k)
                variances[m] = np.maximum(second - first * first / n, 0.0)
            for i, key in wanted:
                out[i] = variances[key[2]][label_index[key[1]]]
        if progress is not None:
            progress(2, total_steps)

        # every other score: the gradient over the D sums, from the parts and the scalar sums
        gradient: dict[Key, np.ndarray] = {}
        base_parts = f.separated(base)[1]
        for group, group_parts in parts.items():
            reduced = summed(base_parts[group])
            local_d = np.zeros((len(_COORDINATES), 0))
            # the scores asked for: a restricted function (keys=[macro_fa F]) also combines what they read (macro_fa
            # precision and recall), which it has no column for
            asked = set(f.keys)
            keys = [key for key in f.combined(group, reduced, base) if key in asked]
            grad = {key: np.zeros(cells.width) for key in keys}
            for r, part in group_parts.items():
                # ∂ψ_r/∂x_λ for every label and coordinate
                if isinstance(part, Pair):
                    base_pair = base_parts[group][r]
                    assert isinstance(base_pair, Pair)
                    dg, dp = derivatives(part.gold), derivatives(part.pred)
                    spread_p, spread_g = linear_spread(base_pair.pred[0]), linear_spread(base_pair.gold[0])
                    local_d = np.stack([dg[name] * spread_p + dp[name] * spread_g for name, _, _ in _COORDINATES])
                else:
                    dr = derivatives(np.asarray(part))
                    local_d = np.stack([dr[name] for name, _, _ in _COORDINATES])
                # ∂Φ/∂R_r: the group's scores with R_r moved
                h = _STEP * max(abs(float(reduced[r][0])), 1.0)
                shifted = {name: np.repeat(value, 4) for name, value in reduced.items()}
                shifted[r] = reduced[r][0] + _OFFSETS * h
                combined = f.combined(group, shifted, base)
                for key in keys:
                    phi = _five_point(np.asarray(combined[key]), np.full(1, h))[0]
                    if phi == 0:  # the score does not read R_r (another measure's part, NaN or not)
                        continue
                    contribution = np.where(local_d == 0, 0.0, phi * local_d)
                    w = contribution.shape[1]
                    for j, (_, block, sign) in enumerate(_COORDINATES):
                        start = cells.column(block).start
                        grad[key][start : start + w] += sign * contribution[j]
            gradient.update(grad)
        if gradient:
            # the scalar sums but N, one at a time: the whole score's derivative along each
            for column in cells.scalar_columns()[1:]:
                position = cells.column(column).start
                value = float(base[0, position])
                added = entry_vals[entry_cols == position]
                if value == 0 or (len(added) == cells.n_types and np.all(added == added[0])):
                    continue  # no type adds to it, or every type adds the same (as N): a common shift
                h = _STEP * abs(value)
                rows = np.repeat(base, 4, axis=0)
                rows[:, position] += _OFFSETS * h
                scores = f.from_sums(rows)
                for key in gradient:
                    gradient[key][position] = _five_point(scores[:, f.index(key)], np.full(1, h))[0]
            for key, along in gradient.items():
                out[f.index(key)] = _column_variances(c, entry_vals * along[entry_cols], entry_rows, n)
        out[np.isnan(f.from_sums(base)[0])] = np.nan  # a score that is NaN has no derivative
        if progress is not None:
            progress(3, total_steps)
    return out


def type_delta_variances(f: Statistic, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The delta-method variance of every score of ``f`` (length S, in the order of ``f.keys``), type by type.

    The reference for :func:`delta_variances`: it evaluates every score four times per cell type, so its
    cost grows with types × labels.

    Parameters
    ----------
    f
        The scores as a function of the weights of the observed cell types.
    progress
        Called with (types done, types) while the derivatives are computed.

    Notes
    -----
    With n instances spread over the cell types u with counts c_u (probabilities p̂_u = c_u/n),
    the multinomial model gives √n(p̂ − p) → Normal(0, diag(p) − ppᵀ). For a score θ(p) with
    gradient g = ∂θ/∂p,

        Var(θ̂) = gᵀ (diag(p) − ppᵀ) g / n = Σ_u c_u d_u² − (Σ_u c_u d_u)² / n,

    where d_u = ∂θ/∂w_u is the derivative with respect to the weight of type u (g = n·d). Each
    d_u is a five-point central difference, [−θ(w+2h) + 8θ(w+h) − 8θ(w−h) + θ(w−2h)] / 12h with
    h = 10⁻³·c_u along type u: every denominator of every score is a sum of type weights with
    non-negative coefficients, so no pole lies within c_u of the observed weights and the error
    is O((h/c_u)⁴). Types with zero count have zero variance and do not enter.
    """
    cells, c = f.cells, f.weights
    n = c.sum()
    base = cells.sums(c[None, :])[0]
    u_total = cells.n_types
    chunk = max(1, _CHUNK_CELLS // (4 * max(cells.width, len(f.keys))))
    first = np.zeros(len(f.keys))  # Σ c_u d_u, accumulated chunk by chunk so memory stays bounded
    second = np.zeros(len(f.keys))  # Σ c_u d_u²
    for start in range(0, u_total, chunk):
        types = np.arange(start, min(u_total, start + chunk))
        rows = cells.rows_of(types)
        h = _STEP * c[types]
        steps = np.array([2.0, 1.0, -1.0, -2.0])
        sums = base + (steps[:, None, None] * h[None, :, None]) * rows[None, :, :]
        values = f.from_sums(sums.reshape(-1, cells.width)).reshape(4, len(types), -1)
        derivative = (-values[0] + 8 * values[1] - 8 * values[2] + values[3]) / (12 * h[:, None])
        first += c[types] @ derivative
        second += c[types] @ derivative**2
        if progress is not None:
            progress(int(types[-1]) + 1, u_total)
    with np.errstate(invalid="ignore"):
        variances: np.ndarray = np.maximum(second - first**2 / n, 0.0)
    return variances


def block_delta_variances(f: Statistic, units: BlockUnits) -> np.ndarray:
    """The delta-method variance of every score of ``f`` when blocks, not instances, are independent.

    Notes
    -----
    Every score is a function θ(s) of the sums s = Σ_b S_b over blocks b (see :class:`BlockUnits`).
    Linearised, θ̂ − θ ≈ ∇θ · (s − E s), and with independent blocks

        Var(θ̂) = Σ_b (∇θ · S_b − ḡ)²,   ḡ = (1/B) Σ_b ∇θ · S_b,

    the cluster-robust (sandwich) form. Kinds of block j with multiplicity m_j enter m_j times.
    With blocks of one instance it is :func:`delta_variances` exactly. ∇θ, the gradient with
    respect to the D sums, is a five-point central difference along each sum, step 10⁻³·max(|s_d|, 1).
    """
    base = units.multiplicity @ units.sums
    width = len(base)
    h = _STEP * np.maximum(np.abs(base), 1.0)
    steps = np.array([2.0, 1.0, -1.0, -2.0])
    moved = base[None, None, :] + steps[:, None, None] * np.diag(h)[None, :, :]
    values = f.from_sums(moved.reshape(-1, width)).reshape(4, width, -1)
    gradient = (-values[0] + 8 * values[1] - 8 * values[2] + values[3]) / (12 * h[:, None])
    gradient = np.where(np.isfinite(gradient), gradient, np.nan)
    g = units.sums @ np.nan_to_num(gradient)  # (J, S): each kind of block's linear contribution
    m = units.multiplicity
    mean = m @ g / m.sum()
    variance = m @ (g - mean) ** 2
    undefined = ~np.isfinite(gradient).all(axis=0)
    return np.where(undefined, np.nan, variance)


def takahashi_variances(cells: np.ndarray | ConfusionCounts) -> dict[str, float]:
    """Takahashi et al.'s closed-form variances of micro F1, macro F1 (AF) and macro F1 (FA).

    Parameters
    ----------
    cells
        A K×K count table indexed [gold, predicted] (clfeval's orientation; the paper prints
        rows = predicted), or :class:`~clfeval.ConfusionCounts`; every class predicted and occurring at
        least once. The sums over pairs of classes run over the non-zero cells only: O(cells + K).

    Returns
    -------
    dict
        ``micro``, ``macro`` and ``macro_fa``: the variances of the three F1 estimates.

    Notes
    -----
    In the paper's notation p_ij is the probability of predicted i and true j, p_i· and p_·i
    the row (predicted) and column (true) margins, r classes, F_i = 2p_ii/(p_i· + p_·i):

    Var(miF1) = (Σ p_ii)(1 − Σ p_ii) / n;

    Var(maF1) = (2/r²) { Σ_i F_i (p_i· + p_·i − 2p_ii)/(p_i· + p_·i)² · [(p_i· + p_·i − 2p_ii)/(p_i· + p_·i)
    + F_i/2] + Σ_i Σ_{j≠i} p_ij F_i F_j / [(p_i· + p_·i)(p_j· + p_·j)] } / n;

    Var(maF1*) = 4 [maR⁴ Var(maP) + 2 maP² maR² Cov(maP, maR) + maP⁴ Var(maR)] / (maP + maR)⁴, with
    Var(maP) = Σ_i p_ii (p_i· − p_ii)/p_i·³ / (r² n), Var(maR) = Σ_i p_ii (p_·i − p_ii)/p_·i³ / (r² n), and
    Cov(maP, maR) = [Σ_i (p_i· − p_ii) p_ii (p_·i − p_ii)/(p_i·² p_·i²) + Σ_i Σ_{j≠i} p_ii p_ij p_jj/(p_i·² p_·j²)]
    / (r² n). The last denominator is printed p_i·² p_j·² in the paper, a misprint (docs/misprints.md):
    as printed, sd(maF1*) on the paper's example is 0.0658, not its 0.0649.
    """
    counts = ConfusionCounts(_positions(cells), cells) if isinstance(cells, (np.ndarray, list, tuple)) else cells
    n = float(counts.n_instances)
    r = len(counts.labels)
    # in the paper's orientation: i indexes predicted (clfeval's columns), j true (clfeval's rows)
    i, j, p_ij = counts.pred, counts.gold, counts.count / n
    diag = counts.diagonal / n
    row, col = counts.pred_totals / n, counts.gold_totals / n  # p_i· (predicted), p_·i (true)
    if np.any(row == 0) or np.any(col == 0):
        raise ValueError("Takahashi's closed forms need every class predicted and present")
    micro = diag.sum() * (1 - diag.sum()) / n
    off_diagonal = i != j

    margin = row + col
    f = 2 * diag / margin
    off = margin - 2 * diag
    own = np.sum(f * off / margin**2 * (off / margin + f / 2))
    scaled = f / margin
    cross = np.sum((p_ij * scaled[i] * scaled[j])[off_diagonal])
    macro = 2 / r**2 * (own + cross) / n

    ma_p, ma_r = np.mean(diag / row), np.mean(diag / col)
    var_p = np.sum(diag * (row - diag) / row**3) / (r**2 * n)
    var_r = np.sum(diag * (col - diag) / col**3) / (r**2 * n)
    pair = ((diag / row**2)[i] * (diag / col**2)[j] * p_ij)[off_diagonal]  # p_ii p_ij p_jj / (p_i·² p_·j²)
    cov = (np.sum((row - diag) * diag * (col - diag) / (row**2 * col**2)) + pair.sum()) / (r**2 * n)
    if ma_p + ma_r == 0:  # nothing predicted right: F of macro P and macro R is 0/0, with no derivative there
        macro_fa = math.nan
    else:
        macro_fa = 4 * (ma_r**4 * var_p + 2 * ma_p**2 * ma_r**2 * cov + ma_p**4 * var_r) / (ma_p + ma_r) ** 4
        # A variance is ≥ 0; on a perfectly predicted table these are 0 up to rounding (Σ p_ii = 1 + 1e-16: −1e-17)
        macro_fa = max(float(macro_fa), 0.0)
    return {"micro": max(float(micro), 0.0), "macro": max(float(macro), 0.0), "macro_fa": macro_fa}


def _positions(cells: np.ndarray) -> tuple[str, ...]:
    """Names for the classes of a bare table: their positions."""
    return tuple(str(i) for i in range(np.shape(cells)[0]))
