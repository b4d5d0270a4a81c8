"""Every score of scored predictions for many count vectors over the same rows at once: the resamples of the count
bootstrap, the rounds of a paired test, the jackknife's left-out counts.

A vector m (one per row: how many instances of the row it holds) weighs row r by its mass m_r w_r (w_r the row's
sample weight, 1 without). Every score :func:`~clfeval.scoring.scored.measures_of` reports is a function of those
masses over rows that do not change, so what depends on the rows alone is computed once, when the scorer is built,
and what depends on the masses for a whole batch of vectors (batch × rows) at once:

* **ranking** (:class:`Ranked`): a column's rows sorted by score once, ties grouped; the AUC is
  Σ_{positive rows i} m_i (N_<(i) + ½ N_=(i)) / (P N) from one cumulative sum of the negatives' mass, and the
  step-wise average precision AP = (1/P) Σ_g p_g TP_g / (TP_g + FP_g) over the distinct scores g from the highest
  down (p_g the positives' mass at g, TP_g and FP_g at or above it) from one cumulative sum from the top;
* **means of per-row values** (log loss, Brier, top-k accuracy, the label-ranking measures): Σ m w v / Σ m w;
* **calibration** (:class:`Calibrated`): each row's bin is fixed (equal-width bins), so a bin's mass, confidence and
  accuracy are sums over its rows, then ECE, MCE and the debiased ECE as
  :class:`~clfeval.scoring.probability.Calibration` computes them; equal-mass bins move with the masses: their edges
  are found vector by vector.

Each is the computation of :mod:`clfeval.scoring.ranking`, :mod:`clfeval.scoring.probability` and
:mod:`clfeval.scoring.labelranking` written over a batch; ``tests/test_scored_batched.py`` holds each equal, to 1e-12,
to :func:`~clfeval.scoring.scored.measures_of` of each vector's counts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from clfeval.count.scored import ScoreCounts
from clfeval.scoring import probability

__all__ = [
    "BATCH_BYTES",
    "BatchedScores",
    "Calibrated",
    "Ranked",
    "ScoredMeasures",
    "THREADS",
    "batch_size",
    "in_batches",
]

R = TypeVar("R")

#: The most bytes a batch's arrays (batch × rows, a few at a time) take: batches are cut to stay near it.
BATCH_BYTES = 64 << 20


def batch_size(rows: int, arrays: int = 6) -> int:
    """How many vectors over ``rows`` rows a batch holds so that ``arrays`` float64 arrays of batch × rows stay within
    :data:`BATCH_BYTES` (at least one)."""
    return max(1, BATCH_BYTES // (8 * arrays * max(rows, 1)))


#: Threads that score batches while the next is drawn: the draws stay in one stream, in order, so the numbers do not
#: depend on the threads (numpy releases the GIL in the sums that take the time).
THREADS = 2


def in_batches(
    draw: Callable[[int], Any],
    score: Callable[[Any], R],
    total: int,
    step: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``score`` of ``draw(size)`` for batches of ``step`` (the last smaller) until ``total``, in order: the batches
    are drawn one after another in the calling thread (one random stream, the order a batch of one would draw) and
    scored by :data:`THREADS` threads, at most two batches ahead. ``progress`` is called with (done, total)."""
    from concurrent.futures import ThreadPoolExecutor

    sizes = [min(step, total - at) for at in range(0, total, step)]
    out: list[R] = []
    with ThreadPoolExecutor(THREADS) as pool:
        pending: list[Any] = []
        done = 0
        for size in sizes:
            pending.append(pool.submit(score, draw(size)))
            while len(pending) > THREADS:
                out.append(pending.pop(0).result())
                done += sizes[len(out) - 1]
                if progress is not None:
                    progress(done, total)
        for future in pending:
            out.append(future.result())
            done += sizes[len(out) - 1]
            if progress is not None:
                progress(done, total)
    return out


class Ranked:
    """One score column's rows ranked once: AUC and average precision of many mass vectors at once.

    With the rows sorted by score and cut into G groups of tied scores, C⁺ and C the cumulative positives' and all
    mass over the sorted rows, read at the G + 1 group bounds b_0 … b_G: group g holds p_g = C⁺(b_{g+1}) − C⁺(b_g)
    positives; the negatives below it are N_g = (C − C⁺)(b_g), so that

        AUC = Σ_g p_g (N_g + N_{g+1}) / 2 / (P N)    (N_g + ½ n_g: ties count ½)
        AP  = Σ_g p_g · (P − C⁺(b_g)) / (M − C(b_g)) / P    (the precision at or above g's score)

    with P, N and M the positives', negatives' and all mass. Two cumulative sums a vector, whatever G.

    Parameters
    ----------
    score, positive
        Each row's score and whether it is a positive of the column.
    """

    def __init__(self, score: np.ndarray, positive: np.ndarray) -> None:
        order = np.argsort(score, kind="stable")
        v = score[order]
        first = np.r_[True, v[1:] != v[:-1]] if len(v) else np.zeros(0, dtype=bool)
        self.order = None if np.array_equal(order, np.arange(len(order))) else order  # sorted already: no gather
        self.positive = np.asarray(positive, dtype=bool)[order]
        bounds = np.r_[np.flatnonzero(first), len(v)]
        self.bounds = None if len(bounds) == len(v) + 1 else bounds  # every score distinct: every row a bound

    def __call__(self, mass: np.ndarray, *, ap: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The AUC, the average precision (``ap``; else NaN), the positives' and the negatives' mass of each
        vector of ``mass`` (batch × rows, in the rows' own order; whole numbers as int64, summed exactly); NaN where
        undefined (AUC: no positive or no negative; AP: no positive)."""
        m = mass if self.order is None else mass[:, self.order]
        size = len(m)
        pos = np.zeros((size, m.shape[1] + 1), dtype=m.dtype)
        every = np.zeros_like(pos)
        np.cumsum(m * self.positive, axis=1, out=pos[:, 1:])
        np.cumsum(m, axis=1, out=every[:, 1:])
        if self.bounds is not None:
            pos, every = pos[:, self.bounds], every[:, self.bounds]
        pos, every = pos.astype(np.float64, copy=False), every.astype(np.float64, copy=False)
        p, total = pos[:, -1], every[:, -1]
        n = total - p
        gained = np.diff(pos, axis=1)
        below = every - pos  # the negatives below each bound
        found = 0.5 * (np.einsum("ij,ij->i", gained, below[:, :-1]) + np.einsum("ij,ij->i", gained, below[:, 1:]))
        with np.errstate(invalid="ignore", divide="ignore"):
            auc = np.where((p > 0) & (n > 0), found / (p * n), np.nan)
            if not ap:
                return auc, np.full(len(auc), np.nan), p, n
            above = p[:, None] - pos[:, :-1]
            above /= np.maximum(total[:, None] - every[:, :-1], 1e-300)  # the precision at or above each group
            precision = np.where(p > 0, np.einsum("ij,ij->i", gained, above) / p, np.nan)
        return auc, precision, p, n


class Calibrated:
    """The calibration errors of rows with fixed confidences and outcomes, for many mass vectors at once.

    Parameters
    ----------
    confidence, right
        Each row's confidence and whether it is right (0/1).
    bins, binning
        As :func:`~clfeval.scoring.probability.calibration` takes them.
    weighted
        Whether the rows carry sample weights (then the bins' instances are counted apart from their mass, and the
        debiased ECE is not reported).
    """

    def __init__(self, confidence: np.ndarray, right: np.ndarray, bins: int, binning: str, weighted: bool) -> None:
        self.confidence, self.right = confidence, right.astype(np.float64)
        self.bins, self.binning, self.weighted = bins, binning, weighted
        if binning == "equal-width":
            edges = np.linspace(0.0, 1.0, bins + 1)
            which = np.searchsorted(edges[1:-1], confidence, side="left")  # (a, b]; 0 in the first bin
            order = np.argsort(which, kind="stable")
            self.present, self.starts = np.unique(which[order], return_index=True)
            self.order = None if np.array_equal(order, np.arange(len(order))) else order  # in bin order: no gather

    def __call__(self, mass: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
        """ECE, MCE and (without sample weights) the debiased ECE of each vector: ``mass`` (batch × rows) the rows'
        mass, ``count`` their instances."""
        if self.binning == "equal-width":
            w = self._sums(mass)
            conf = self._sums(mass * self.confidence)
            acc = self._sums(mass * self.right)
            n = self._sums(count) if self.weighted else w
        else:
            w, conf, acc, n = self._equal_mass(mass, count)
        with np.errstate(invalid="ignore", divide="ignore"):
            conf, acc = conf / w, acc / w
            filled = w > 0
            gap = np.where(filled, np.abs(acc - conf), 0.0)
            out = {"ece": (w * gap).sum(axis=1) / w.sum(axis=1), "mce": np.where(filled, gap, -np.inf).max(axis=1)}
            if not self.weighted:
                use = n > 1
                term = np.where(use, n * ((acc - conf) ** 2 - acc * (1 - acc) / np.where(use, n - 1, 1.0)), 0.0)
                squared = term.sum(axis=1) / n.sum(axis=1)
                out["ece_debiased"] = np.sqrt(np.maximum(squared, 0.0))
        return out

    def _sums(self, values: np.ndarray) -> np.ndarray:
        out = np.zeros((len(values), self.bins))
        if len(self.present):
            ordered = values if self.order is None else values[:, self.order]
            out[:, self.present] = np.add.reduceat(ordered, self.starts, axis=1)
        return out

    def _equal_mass(self, mass: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, ...]:
        """Equal-mass bins: each vector's edges at the quantiles of its confidences
        (:func:`~clfeval.scoring.probability.calibration`'s), its bins' sums; vector by vector."""
        from clfeval.scoring.probability import _binned

        out = [np.zeros((len(mass), self.bins)) for _ in range(4)]
        for b in range(len(mass)):
            keep = count[b] > 0
            _, w, conf, acc = _binned(self.confidence[keep], self.right[keep], mass[b, keep], self.bins, self.binning)
            out[0][b], out[1][b], out[2][b] = w, np.nan_to_num(conf) * w, np.nan_to_num(acc) * w
            out[3][b] = w
        return tuple(out)


@dataclass(frozen=True)
class ScoredMeasures:
    """Which scores of scored predictions to compute, and how: every score of
    :func:`~clfeval.scoring.scored.measures_of` under ``conventions`` (the probability measures when
    ``probabilities``), or the groups that hold the ``wanted`` names. Called on counts, the point values; its
    :meth:`batched` scorer gives the same scores of many count vectors over fixed rows at once."""

    conventions: Any
    probabilities: bool
    wanted: frozenset[str] | None = None

    def __call__(self, counts: ScoreCounts) -> dict[str, float]:
        from clfeval.scoring.scored import measures_of

        return measures_of(counts, self.conventions, self.probabilities, self.wanted)

    def batched(self, rows: ScoreCounts) -> BatchedScores:
        """The scorer of count vectors over ``rows`` (distinct or not; their counts are not read)."""
        return BatchedScores(rows, self.conventions, self.probabilities, self.wanted)


class BatchedScores:
    """The scores of :func:`~clfeval.scoring.scored.measures_of` for many count vectors over the rows of ``rows``:
    ``scorer(counts)`` with ``counts`` (batch × rows) gives each score's values (batch,), by report name."""

    def __init__(
        self, rows: ScoreCounts, conventions: Any, probabilities: bool, wanted: Collection[str] | None = None
    ) -> None:
        from clfeval.scoring.scored import wanted_groups

        self.rows, self.conventions, self.probabilities = rows, conventions, probabilities
        self.want = wanted_groups(wanted)
        self.weight = None if rows.weight is None else np.asarray(rows.weight, dtype=np.float64)
        self.parts: list[Callable[[np.ndarray, np.ndarray], dict[str, np.ndarray]]] = []
        self.means: list[tuple[str, np.ndarray]] = []  # scores that are means of per-row values, by name
        self.values: np.ndarray | None = None
        if rows.multilabel:
            self._multilabel()
        else:
            self._single()

    def __call__(self, counts: np.ndarray) -> dict[str, np.ndarray]:
        count = np.asarray(counts)
        if self.weight is None:  # whole numbers: summed exactly, as int64, where sums run along the rows
            count = count.astype(np.int64, copy=False) if count.dtype.kind in "iub" else count
            mass = count
        else:
            count = count.astype(np.float64, copy=False)
            mass = count * self.weight
        out: dict[str, np.ndarray] = {}
        if self.means:  # every mean of per-row values from one product: Σ m w v / Σ m w
            if self.values is None:
                self.values = np.column_stack([v for _, v in self.means])
            held = mass.astype(np.float64, copy=False)  # one conversion for every product
            sums = held @ self.values
            total = held.sum(axis=1)
            for j, (name, _) in enumerate(self.means):
                out[name] = sums[:, j] / total
        for part in self.parts:
            out.update(part(mass, count))
        return out

    # -- single labels: binary and multi-class ------------------------------------------------------------------

    def _single(self) -> None:
        rows, want, conventions = self.rows, self.want, self.conventions
        columns = rows.columns
        if want("per_label.", "auc", "average_precision"):
            ranked = [Ranked(rows.scores[:, c], rows.positives(rows.gold, c)) for c in range(len(columns))]
            averages = [a for a in ("macro", "weighted", "micro", "ovo", "ovo_weighted") if want(f"{a}.auc")]
            micro = self._micro() if "micro" in averages and not rows.binary else None
            pairs = self._pairs() if {"ovo", "ovo_weighted"} & set(averages) and not rows.binary else None
            onehot = np.eye(len(rows.labels))[rows.gold]

            precision = want("per_label.", "average_precision") or not rows.binary  # binary auc alone: no AP

            def ranking(mass: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
                found = [r(mass, ap=precision) for r in ranked]
                aucs = np.column_stack([f[0] for f in found])
                out = {f"per_label.{name}.auc": aucs[:, c] for c, name in enumerate(columns)}
                if rows.binary:
                    out["auc"] = aucs[:, 0]
                if not precision:
                    return out
                aps = np.column_stack([f[1] for f in found])
                for c, name in enumerate(columns):
                    out[f"per_label.{name}.average_precision"] = aps[:, c]
                if rows.binary:
                    out["average_precision"] = aps[:, 0]
                    return out
                support = mass @ onehot  # each class's mass
                for average in averages:
                    if average == "macro":
                        out["macro.auc"] = aucs.mean(axis=1)
                    elif average == "weighted":
                        w = support[:, [rows.labels.index(c) for c in columns]]
                        out["weighted.auc"] = (w * aucs).sum(axis=1) / w.sum(axis=1)
                    elif average == "micro":
                        assert micro is not None
                        out["micro.auc"] = micro(np.repeat(mass, len(columns), axis=1), ap=False)[0]
                    else:
                        assert pairs is not None
                        out[f"{average}.auc"] = pairs(mass, support, average == "ovo_weighted")
                out["macro.average_precision"] = aps.mean(axis=1)
                return out

            self.parts.append(ranking)
        if not self.probabilities:
            return
        p = probability.class_probabilities(rows)
        gold_p = p[np.arange(len(p)), rows.gold]
        if want("log_loss"):
            loss = -np.log(np.clip(gold_p, probability.LOG_LOSS_EPS, 1 - probability.LOG_LOSS_EPS))
            self.means.append(("log_loss", loss))
        if want("brier"):
            k = p.shape[1]
            if rows.binary:
                y = rows.gold == rows.labels.index(columns[0])
                per = 2 * (rows.scores[:, 0] - y) ** 2
            else:
                onehot = np.zeros_like(p)
                onehot[np.arange(len(p)), rows.gold] = 1
                per = ((p - onehot) ** 2).sum(axis=1)
            divisor = {"sklearn": 2.0 if k == 2 else 1.0, "sum": 1.0, "half": 2.0, "mean": float(k)}[conventions.brier]
            self.means.append(("brier", per / divisor))
        if want("ece", "mce"):
            if rows.binary:
                conf = rows.scores[:, 0]
                right = rows.gold == rows.labels.index(columns[0])
            else:
                top = np.argmax(p, axis=1)
                conf, right = p[np.arange(len(p)), top], top == rows.gold
            calibrated = Calibrated(conf, right, conventions.bins, conventions.binning, self.weight is not None)
            classwise = (
                []
                if rows.binary
                else [
                    Calibrated(p[:, k], rows.gold == k, conventions.bins, conventions.binning, self.weight is not None)
                    for k in range(p.shape[1])
                ]
            )

            def calibration(mass: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
                out = calibrated(mass, count)
                if classwise:
                    out["ece_classwise"] = np.mean([c(mass, count)["ece"] for c in classwise], axis=0)
                return out

            self.parts.append(calibration)
        if not rows.binary and want("top_"):
            for k in conventions.top_k:
                if k < len(rows.labels):
                    right = probability.top_k_right(p, rows.gold, k, conventions.ties)
                    self.means.append((f"top_{k}_accuracy", right))

    def _micro(self) -> Ranked:
        """Every (row, column) pair pooled, row-major: the micro average's table."""
        rows = self.rows
        positive = np.column_stack([rows.positives(rows.gold, c) for c in range(len(rows.columns))])
        return Ranked(rows.scores.reshape(-1), positive.reshape(-1))

    def _pairs(self) -> Callable[[np.ndarray, np.ndarray, bool], np.ndarray]:
        """Hand & Till's mean over pairs of classes of (A(i|j) + A(j|i)) / 2, each A on the rows of the two classes;
        weighted by the pair's prevalence (p_i + p_j) when asked."""
        rows = self.rows
        k = len(rows.labels)
        tables = []
        for i in range(k):
            for j in range(i + 1, k):
                mine = (rows.gold == i) | (rows.gold == j)
                both = []
                for a in (i, j):
                    c = rows.columns.index(rows.labels[a])
                    both.append(Ranked(rows.scores[mine, c], rows.gold[mine] == a))
                tables.append((i, j, np.flatnonzero(mine), both))

        def ovo(mass: np.ndarray, support: np.ndarray, weighted: bool) -> np.ndarray:
            total = np.zeros(len(mass))
            weights = np.zeros(len(mass))
            for i, j, mine, (ij, ji) in tables:
                sub = mass[:, mine]
                a = (ij(sub, ap=False)[0] + ji(sub, ap=False)[0]) / 2
                w = (support[:, i] + support[:, j]) / support.sum(axis=1) if weighted else np.ones(len(mass))
                total += w * a
                weights += w
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(weights != 0, total / np.where(weights != 0, weights, 1.0), np.nan)

        return ovo

    # -- multi-label ---------------------------------------------------------------------------------------------

    def _multilabel(self) -> None:
        from clfeval.scoring.labelranking import CHUNK_CELLS, _rows

        rows, want, conventions = self.rows, self.want, self.conventions
        k = len(rows.columns)
        gold = rows.gold.astype(np.int64)
        if want("per_label.", "auc", "average_precision", "lrap", "coverage_error", "ranking_loss"):
            ranked = [Ranked(rows.scores[:, c], gold[:, c] == 1) for c in range(k)]
            pooled = Ranked(rows.scores.reshape(-1), gold.reshape(-1) == 1)
            step = max(1, CHUNK_CELLS // max(k, 1))
            parts = [_rows(rows.scores[at : at + step], gold[at : at + step]) for at in range(0, len(gold), step)]
            per_row = {name: np.concatenate([p[name] for p in parts]) for name in parts[0]} if parts else {}
            golds = gold.astype(np.float64)

            def ranking(mass: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
                found = [r(mass) for r in ranked]
                out = {}
                for c, name in enumerate(rows.columns):
                    out[f"per_label.{name}.auc"] = found[c][0]
                    out[f"per_label.{name}.average_precision"] = found[c][1]
                support = mass @ golds
                micro_auc, micro_ap, _, _ = pooled(np.repeat(mass, k, axis=1))
                total = mass.sum(axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    for name, at, micro in (("auc", 0, micro_auc), ("average_precision", 1, micro_ap)):
                        values = np.column_stack([f[at] for f in found])
                        out[f"macro.{name}"] = values.mean(axis=1)
                        weight_sum = support.sum(axis=1)
                        held_sum = np.where(weight_sum != 0, weight_sum, 1)
                        out[f"weighted.{name}"] = np.where(
                            weight_sum != 0, (support * values).sum(axis=1) / held_sum, np.nan
                        )
                        out[f"micro.{name}"] = micro
                        has = per_row[f"has_{'auc' if name == 'auc' else 'ap'}"]
                        value = per_row["auc" if name == "auc" else "ap"]
                        held = mass @ has.astype(np.float64)
                        summed = mass @ np.where(has, value, 0.0)
                        out[f"samples.{name}"] = np.where(held != 0, summed / np.where(held != 0, held, 1), np.nan)
                    for name, key in (("lrap", "lrap"), ("coverage_error", "coverage"), ("ranking_loss", "loss")):
                        out[name] = np.where(total != 0, (mass @ per_row[key]) / np.where(total != 0, total, 1), np.nan)
                return out

            self.parts.append(ranking)
        if self.probabilities and want("log_loss", "brier", "ece", "mce"):
            s, y = rows.scores.reshape(-1), gold.reshape(-1) == 1
            p = np.clip(np.where(y, s, 1 - s), probability.LOG_LOSS_EPS, 1 - probability.LOG_LOSS_EPS)
            divisor = {"sklearn": 2.0, "sum": 1.0, "half": 2.0, "mean": 2.0}[conventions.brier]
            loss, brier = -np.log(p), 2 * (s - y) ** 2 / divisor
            calibrated = Calibrated(s, y, conventions.bins, conventions.binning, self.weight is not None)

            def pooled_pairs(mass: np.ndarray, count: np.ndarray) -> dict[str, np.ndarray]:
                pair_mass, pair_count = np.repeat(mass, k, axis=1), np.repeat(count, k, axis=1)
                total = pair_mass.sum(axis=1)
                out = {"log_loss": pair_mass @ loss / total, "brier": pair_mass @ brier / total}
                out.update(calibrated(pair_mass, pair_count))
                return out

            self.parts.append(pooled_pairs)
