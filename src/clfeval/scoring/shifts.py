"""What moving predictions does to macro and lfb precision and recall, in closed form (Van Asch §6, eqs. 16–23).

Exact: counts in, :class:`~fractions.Fraction` out. A label's weight is 1/C for macro averages
(C labels in the label set, eqs. 22–23) and its relative training frequency f_λ for lfb
(eqs. 16, 19). 0/0 precision counts as 0, as the scorer's default does.

Precision — moving false positives between labels changes no true positive and no recall:

    factor_λ(δ) = −δ·tp_λ·w_λ / ((tp_λ + fp_λ)(tp_λ + fp_λ + δ))          (16), (22)

is the change in λ's weighted precision when it *receives* δ false positives (δ < 0: gives).
Moving δ false positives from B to C changes the average by

    Δp_{B→C}(δ) = factor_B(−δ) + factor_C(+δ)                               (17, sign corrected)

and any set of moves by Σ_λ factor_λ(δ_λ) with δ_λ the net false positives λ receives (Σ δ_λ = 0;
eq. 18's chain B→C→D is δ_B = −δ₁, δ_C = δ₁ − δ₂, δ_D = δ₂).

Recall — a label that gains δ true positives loses δ false negatives (tp + fn is its support):

    Δr_λ(δ) = δ·w_λ / (tp_λ + fn_λ)                                         (19), (23)

and shifts on several labels add up (21). With test frequencies, w_λ/(tp_λ + fn_λ) = 1/N (20).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from clfeval.count.binary import LabelCounts
from clfeval.errors import OptionError

__all__ = ["SHIFT_WEIGHTS", "precision_factor", "precision_shift", "recall_shift", "shift_weights"]

#: The averages whose shifts have a closed form, and the weight each gives a label.
SHIFT_WEIGHTS: Mapping[str, str] = {
    "macro": "1/C for each of the C labels in the label set (eqs. 22, 23)",
    "lfb": "the label's relative frequency f_λ in the training data (eqs. 16, 19)",
}


def precision_factor(tp: int, fp: int, delta: int, weight: Fraction | int = 1) -> Fraction:
    """Eq. (16)/(22): the change in ``weight`` × precision of a label with ``tp``, ``fp`` that receives ``delta`` fps.

    ``delta < 0`` gives false positives away. A label with no true positives has precision 0
    before and after (0/0 counts as 0), so its factor is 0.

    Examples
    --------
    >>> precision_factor(3, 2, 1)      # 3/6 − 3/5
    Fraction(-1, 10)
    """
    if fp + delta < 0:
        raise OptionError(f"a label with {fp} false positives cannot give {-delta}")
    if tp == 0:
        return Fraction(0)
    predicted = tp + fp
    return Fraction(-delta * tp, predicted * (predicted + delta)) * weight


def shift_weights(
    counts: LabelCounts, average: str = "macro", frequencies: Mapping[str, float | int | Fraction] | None = None
) -> dict[str, Fraction]:
    """Each label's weight in ``average``: 1/C (macro) or the relative training frequency (lfb, normalised over L)."""
    labels = counts.labels
    if average == "macro":
        return {label: Fraction(1, len(labels)) for label in labels}
    if average == "lfb":
        if frequencies is None:
            raise OptionError("lfb shifts need the training frequencies")
        raw = {label: Fraction(frequencies.get(label, 0)).limit_denominator(10**12) for label in labels}
        total = sum(raw.values(), Fraction(0))
        if total == 0:
            raise OptionError("no label of the label set occurs in the training frequencies")
        return {label: w / total for label, w in raw.items()}
    raise OptionError(f"no closed form for {average!r} shifts: use one of {', '.join(SHIFT_WEIGHTS)}")


def _moves(counts: LabelCounts, moves: Mapping[str, int]) -> dict[str, int]:
    unknown = [label for label in moves if label not in counts.labels]
    if unknown:
        raise OptionError(f"not in the label set: {', '.join(map(repr, unknown))}")
    return {label: int(d) for label, d in moves.items() if d}


def precision_shift(
    counts: LabelCounts,
    moves: Mapping[str, int],
    average: str = "macro",
    frequencies: Mapping[str, float | int | Fraction] | None = None,
) -> Fraction:
    """Eqs. (17)/(18) in general: the change in ``average`` precision when false positives move between labels.

    Parameters
    ----------
    counts
        Per-label tp, fp, fn over the label set, before the move (one row of counts).
    moves
        Label → the net number of false positives it receives (negative: gives); they sum to 0.
    average, frequencies
        ``macro`` or ``lfb`` (with training frequencies: label → count or relative frequency).

    Examples
    --------
    Van Asch's Table 3: one false positive of c4 becomes one of c1 (lfb, training frequencies).

    >>> c = LabelCounts.from_arrays(("c1", "c2", "c3", "c4"), [3, 1, 6, 6], [2, 7, 6, 9], [7, 9, 8, 0])
    >>> precision_shift(c, {"c4": -1, "c1": +1}, "lfb", {"c1": 1, "c2": 2, "c3": 3, "c4": 4})
    Fraction(1, 700)
    """
    moved = _moves(counts, moves)
    if sum(moved.values()) != 0:
        raise OptionError(
            f"false positives only move between labels: the moves must add up to 0, not {sum(moved.values())}"
        )
    weights = shift_weights(counts, average, frequencies)
    index = {label: i for i, label in enumerate(counts.labels)}
    return sum(
        (precision_factor(int(counts.tp[index[k]]), int(counts.fp[index[k]]), d, weights[k]) for k, d in moved.items()),
        Fraction(0),
    )


def recall_shift(
    counts: LabelCounts,
    moves: Mapping[str, int],
    average: str = "macro",
    frequencies: Mapping[str, float | int | Fraction] | None = None,
) -> Fraction:
    """Eqs. (19)/(23) and (21): the change in ``average`` recall when labels gain (or lose) true positives.

    ``moves`` maps a label to the true positives it gains (a false negative becomes a true
    positive) or, negative, loses. Each label's support is fixed, so only its own δ matters.

    Examples
    --------
    >>> c = LabelCounts.from_arrays(("a", "b"), [3, 5], [1, 1], [1, 3])
    >>> recall_shift(c, {"a": 1, "b": -1})          # (1/4 − 1/8) / 2
    Fraction(1, 16)
    """
    moved = _moves(counts, moves)
    weights = shift_weights(counts, average, frequencies)
    index = {label: i for i, label in enumerate(counts.labels)}
    total = Fraction(0)
    for label, delta in moved.items():
        tp, fn = int(counts.tp[index[label]]), int(counts.fn[index[label]])
        if not -tp <= delta <= fn:
            raise OptionError(f"{label!r} has {tp} true positives and {fn} false negatives: it cannot gain {delta}")
        total += Fraction(delta) * weights[label] / (tp + fn)
    return total
