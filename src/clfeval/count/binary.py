"""Per-label one-vs-rest counts: the common currency the score layer works on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from clfeval.count.limits import count_array, whole_count
from clfeval.errors import InputError

__all__ = ["LabelCounts"]


@dataclass(frozen=True, eq=False)
class LabelCounts:
    """tp, fp, fn and tn of every label in a label set, from one counting pass.

    Parameters
    ----------
    labels
        The label set L, in report order.
    tp, fp, fn, tn
        Integer (or float) arrays whose last axis is the label set; leading axes, when present,
        index resamples (the bootstrap scores many count tables at once).
    n_instances
        Number of instances counted (an array of the leading shape for resampled counts).

    Notes
    -----
    For label λ: support = tp + fn (gold occurrences), predicted = tp + fp.
    Single-label data: tn = N − tp − fp − fn. Multi-label data: tn counts the
    instances whose gold and predicted sets both lack λ.
    """

    labels: tuple[str, ...]
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    n_instances: int | np.ndarray

    def __post_init__(self) -> None:
        k = len(self.labels)
        shape = np.shape(self.tp)
        for name in ("tp", "fp", "fn", "tn"):
            arr = np.asarray(getattr(self, name))
            if arr.shape != shape or not shape or shape[-1] != k:
                raise InputError(f"{name} has shape {arr.shape}, expected (..., {k}) like tp {shape}")
            if arr.dtype.kind not in "iuf" or (arr < 0).any():
                raise InputError(f"{name} must hold counts ≥ 0, found {arr.ravel()[:6].tolist()}")
            object.__setattr__(self, name, arr)

    @classmethod
    def trusted(
        cls,
        labels: tuple[str, ...],
        tp: np.ndarray,
        fp: np.ndarray,
        fn: np.ndarray,
        tn: np.ndarray,
        n_instances: int | np.ndarray,
    ) -> LabelCounts:
        """Counts the scorer made itself, unchecked: resampled sums and the delta method's perturbed sums (which
        may be fractional, or a hair below 0 around a zero count) pass as they are."""
        made = object.__new__(cls)
        for name, value in (
            ("labels", labels),
            ("tp", tp),
            ("fp", fp),
            ("fn", fn),
            ("tn", tn),
            ("n_instances", n_instances),
        ):
            object.__setattr__(made, name, value)
        return made

    @property
    def support(self) -> np.ndarray:
        """Gold occurrences of each label: tp + fn."""
        support: np.ndarray = self.tp + self.fn
        return support

    @property
    def predicted(self) -> np.ndarray:
        """Predicted occurrences of each label: tp + fp."""
        predicted: np.ndarray = self.tp + self.fp
        return predicted

    @classmethod
    def from_arrays(
        cls,
        labels: tuple[str, ...],
        tp: object,
        fp: object,
        fn: object,
        tn: object | None = None,
        n_instances: int | None = None,
    ) -> LabelCounts:
        """Build from per-label tp/fp/fn (as printed in papers); tn and N default to single-label values.

        With single-label data N = Σ(tp + fn) and tn = N − tp − fp − fn.
        """
        tp_, fp_, fn_ = (count_array(a, name) for a, name in ((tp, "tp"), (fp, "fp"), (fn, "fn")))
        n = int((tp_ + fn_).sum()) if n_instances is None else whole_count(n_instances, "n_instances")
        tn_ = n - tp_ - fp_ - fn_ if tn is None else count_array(tn, "tn")
        if (tn_ < 0).any():
            raise InputError(f"tp + fp + fn exceeds N = {n} for a label: the counts do not fit one table")
        return cls(tuple(labels), tp_, fp_, fn_, tn_, n)
