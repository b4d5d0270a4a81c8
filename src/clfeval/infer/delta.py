"""The delta method under the multinomial model: variances of scores from the cell probabilities.

Two ways, kept side by side and tested against each other: Takahashi et al.'s closed forms for
micro F1, macro F1 (AF, their maF1) and macro F1 (FA, their maF1*), and a generic delta method
that differentiates any reported score numerically and covers every other score.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.infer.units import BlockUnits
from clfeval.score.statistics import ScoreFunction

__all__ = ["block_delta_variances", "delta_variances", "takahashi_variances"]

#: Relative step of the numerical derivative along each cell type (a fraction of its count).
_STEP = 1e-3
#: Rows evaluated at once when differentiating (bounds memory for many cell types).
_CHUNK_CELLS = 2_000_000


def delta_variances(f: ScoreFunction, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The delta-method variance of every score of ``f`` (length S, in the order of ``f.keys``).

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


def block_delta_variances(f: ScoreFunction, units: BlockUnits) -> np.ndarray:
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
    counts = cells if isinstance(cells, ConfusionCounts) else ConfusionCounts(_positions(cells), cells)
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
