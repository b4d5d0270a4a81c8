"""Predictions that are not labels (an LLM's output that failed to parse, a refusal, an empty cell): the policies.

A prediction is **invalid** when it is missing (None, NaN, ``pd.NA``, an empty cell of a file: read as the reserved
label :data:`INVALID_LABEL`, or the empty string ``""``), or, with a declared label set (``labels=``, ``--labels``),
a label outside it. The policy (:data:`INVALID_POLICIES`) says what such a prediction does:

* ``error`` (the default): a missing prediction stops with an error naming its line or index, as ever; a label
  outside the declared set is counted as scikit-learn's ``labels=`` counts it (wrong in accuracy and the matrix,
  outside the per-label rows and averages);
* ``wrong``: the prediction is the label :data:`INVALID_LABEL`, a column of its own in the confusion matrix: a false
  negative of the gold class and a false positive of no class in the label set (no row of its own, no part in
  averages), wrong in accuracy;
* ``omit``: the instance is left out; the result reports the coverage ``kept / n`` with its Wilson interval and the
  scores of what was kept. Systems compared together keep or drop an instance together: it is dropped when any
  system's prediction is invalid.

A missing gold label is an error under every policy, and so is a gold label named :data:`INVALID_LABEL`.

The policies apply to counts (:func:`screen`), so arrays, data frames, files, count files and the accumulator give
the same numbers: their readers only keep a missing prediction as :data:`INVALID_LABEL` instead of stopping.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.joint import JointCounts
from clfeval.count.labelnames import declared_names
from clfeval.errors import InputError, OptionError, unknown_name

if TYPE_CHECKING:  # blocks load when blocks are given (a plain score does not load them)
    from clfeval.count.blocks import Blocks

__all__ = [
    "INVALID_LABEL",
    "INVALID_POLICIES",
    "InvalidOutputs",
    "check_invalid_policy",
    "refuse_reserved",
    "screen",
    "screen_joint",
]

#: The label an invalid prediction becomes: a name no reader produces from a label (parentheses, never stripped),
#: refused in gold data, and in predictions read as "invalid".
INVALID_LABEL = "(invalid)"

#: What a prediction that is not a label does, by policy name (``invalid=``, ``--invalid``).
INVALID_POLICIES: Mapping[str, str] = {
    "error": (
        "a missing prediction (None, NaN, an empty cell) stops with an error naming its line or index (the default); "
        "a label outside the declared set counts as scikit-learn's labels= counts it"
    ),
    "wrong": (
        f"an invalid prediction (missing, or outside the declared labels) is the label {INVALID_LABEL}, a column of "
        "its own in the confusion matrix: a false negative of the gold class, a false positive of no class in the "
        "label set, wrong in accuracy"
    ),
    "omit": (
        "an instance whose prediction is invalid is left out (in compare: when any system's is); the result reports "
        "the coverage kept/n with its Wilson interval, and the scores of what was kept"
    ),
}

#: Predicted labels that are invalid whatever the label set: a missing value as readers keep it, an empty cell.
_MISSING = frozenset({INVALID_LABEL, ""})


def check_invalid_policy(policy: Any) -> str | None:
    """The policy name, checked (``None``: not chosen, the default ``error``)."""
    if policy is None:
        return None
    if not isinstance(policy, str) or policy not in INVALID_POLICIES:
        raise unknown_name("invalid policy", str(policy), INVALID_POLICIES)
    return policy


@dataclass(frozen=True)
class InvalidOutputs:
    """How invalid predictions entered a result: the policy, how many there were, and (``omit``) the coverage.

    Attributes
    ----------
    policy
        A name of :data:`INVALID_POLICIES`.
    n
        The instances before the policy applied.
    n_invalid
        The instances with an invalid prediction (compare: of any system).
    by_system
        Each system's invalid predictions (compare), else empty.
    confidence
        The level of the coverage interval.
    """

    policy: str
    n: int
    n_invalid: int
    by_system: Mapping[str, int] = field(default_factory=dict)
    confidence: float = 0.95

    @property
    def kept(self) -> int:
        """The instances scored: all of them, but under ``omit`` those with an invalid prediction."""
        return self.n - self.n_invalid if self.policy == "omit" else self.n

    @property
    def coverage(self) -> float | None:
        """``kept / n`` under ``omit`` (the share of instances every system answered with a label), else ``None``."""
        return self.kept / self.n if self.policy == "omit" and self.n else None

    @property
    def coverage_interval(self) -> tuple[float, float] | None:
        """The Wilson interval of the coverage (``omit``), at :attr:`confidence`.

        Notes
        -----
        With p̂ = kept/n and z the normal quantile of (1 + confidence)/2:
        (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n) (:func:`clfeval.infer.proportion.wilson_interval`).
        """
        if self.coverage is None:
            return None
        from statistics import NormalDist

        from clfeval.infer.proportion import wilson_interval  # the one Wilson interval (inference, on use)

        z = NormalDist().inv_cdf((1 + self.confidence) / 2)
        low, high = wilson_interval(np.array([self.kept]), np.array([self.n]), z)
        return float(low[0]), float(high[0])

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``invalid`` (docs/json.md)."""
        out: dict[str, Any] = {"policy": self.policy, "n": self.n, "n_invalid": self.n_invalid}
        if self.by_system:
            out["by_system"] = dict(self.by_system)
        if self.policy == "omit":
            out["kept"] = self.kept
            interval = self.coverage_interval
            out["coverage"] = {
                "value": self.coverage,
                "ci": None if interval is None else list(interval),
                "method": "wilson",
                "confidence": self.confidence,
            }
        elif self.policy == "wrong":
            out["label"] = INVALID_LABEL
        return out

    def flat(self) -> dict[str, float]:
        """The numbers ``flat()`` carries: ``n_invalid`` and, under ``omit``, ``coverage``."""
        out = {"n_invalid": float(self.n_invalid)}
        if self.coverage is not None:
            out["coverage"] = self.coverage
        return out

    def of_system(self, name: str) -> InvalidOutputs:
        """What one compared system's scores record: its own invalid predictions (``wrong``), or the shared drop of
        instances any system answered invalidly (``omit``)."""
        if self.policy == "omit" or not self.by_system:
            return self
        return InvalidOutputs(self.policy, self.n, self.by_system.get(name, 0), confidence=self.confidence)

    def tests_note(self) -> str:
        """How invalid predictions entered the paired tests between systems."""
        if self.policy == "wrong":
            return (
                f"paired tests: an invalid prediction is the label {INVALID_LABEL}, wrong for that system on that "
                "instance"
            )
        if self.policy == "omit":
            return (
                f"paired tests: on the {self.kept} of {self.n} instances every system answered with a label "
                "(an instance is dropped for all systems when any system's prediction is invalid)"
            )
        return "paired tests: no prediction was invalid"

    def describe(self) -> str:
        """One line for a report."""
        systems = " (" + ", ".join(f"{name}: {k}" for name, k in self.by_system.items()) + ")" if self.by_system else ""
        head = f"invalid predictions: {self.n_invalid} of {self.n}{systems}, policy {self.policy!r}"
        if self.policy == "wrong":
            return f"{head}: each counted wrong, as the label {INVALID_LABEL}"
        if self.policy == "omit":
            low, high = self.coverage_interval or (math.nan, math.nan)
            together = "; an instance is dropped for every system when any system's prediction is invalid"
            return (
                f"{head}: left out; coverage {self.kept}/{self.n} = {self.coverage:.4f} "
                f"[{low:.4f}, {high:.4f}] ({self.confidence:.0%} Wilson)" + (together if self.by_system else "")
            )
        return head


def _invalid_names(labels: Collection[str], declared: Sequence[Any] | None, seen: Collection[str]) -> set[str]:
    """The predicted labels that are invalid: missing (:data:`_MISSING`) or, when labels are declared, outside them."""
    bad = {lab for lab in labels if lab in _MISSING}
    if declared is not None:
        allowed = set(declared_names(declared, seen))
        if INVALID_LABEL in allowed:
            raise OptionError(
                f"the declared labels hold {INVALID_LABEL!r}, the name clfeval keeps for invalid predictions"
            )
        bad |= {lab for lab in labels if lab not in allowed}
    return bad


def _refuse_gold(gold_labels: Collection[str], where: str) -> None:
    """A missing gold label (an empty cell) and the reserved name are errors under every policy."""
    if "" in gold_labels:
        raise InputError(
            f"{where}a gold label is empty: a missing gold label is an error under every invalid policy "
            "(only predictions can be invalid)"
        )
    if INVALID_LABEL in gold_labels:
        raise InputError(
            f"{where}a gold label is {INVALID_LABEL!r}, the name clfeval keeps for invalid predictions; "
            "rename that label"
        )


def refuse_reserved(counts: Any, where: str = "") -> None:
    """Refuse single-label counts (one system's or several systems') that hold the reserved label
    :data:`INVALID_LABEL` while no policy counts it (``error``, the default): counts kept under ``--invalid`` (a count
    file) are scored with a policy; a label of the data by that name must be renamed."""
    kind = _kind(counts)
    if kind == "single-label":
        gold, pred = counts.seen_labels()
    elif kind == _WEIGHTED:
        from clfeval.kinds import KINDS

        gold, pred = KINDS[_WEIGHTED].labels_seen(counts)
    elif kind == "joint" and counts.kind in _SINGLE:
        k = len(counts.systems)
        gold = {row[0] for row in counts.rows}
        pred = {p for row in counts.rows for p in row[1 : 1 + k]}
    else:
        return
    if INVALID_LABEL in gold:
        _refuse_gold(gold, where)
    if INVALID_LABEL in pred:
        raise InputError(
            f"{where}predictions hold the label {INVALID_LABEL!r}, invalid predictions kept by --invalid: score them "
            "with invalid='wrong' or 'omit' (--invalid wrong|omit)"
        )


def screen(
    counts: Any,
    policy: str,
    declared: Sequence[Any] | None = None,
    *,
    blocks: Blocks | None = None,
    confidence: float = 0.95,
    where: str = "",
) -> tuple[Any, Blocks | None, InvalidOutputs]:
    """One system's counts under an invalid policy: the counts (and blocks) to score, and what happened; several
    systems' joint counts are screened together (:func:`screen_joint`).

    Parameters
    ----------
    counts
        Single-label counts whose invalid predictions a reader kept as :data:`INVALID_LABEL` (or ``""``).
    policy
        A name of :data:`INVALID_POLICIES`.
    declared
        The declared label set (``labels=``): a prediction outside it is invalid.
    blocks
        The instances by block (intervals that resample blocks), changed alike.
    where
        A prefix for errors (the file).

    Notes
    -----
    ``wrong`` renames each invalid predicted label to :data:`INVALID_LABEL` (cells merge); ``omit`` drops the cells
    of an invalid prediction. Both are sums over the distinct cells: no pass over instances.
    """
    if _kind(counts) == "joint":  # several systems' predictions: screened together (screen_joint)
        return screen_joint(counts, policy, declared, blocks=blocks, confidence=confidence, where=where)
    if _kind(counts) not in _SINGLE:
        raise OptionError(_unsupported(counts))
    if policy == "error":
        refuse_reserved(counts, where)
        return counts, blocks, InvalidOutputs(policy, counts.n_instances, 0, confidence=confidence)
    if _kind(counts) == _WEIGHTED:
        return _screen_weighted(counts, policy, declared, blocks, confidence, where)
    gold_seen, pred_seen = counts.seen_labels()
    _refuse_gold(gold_seen, where)
    bad = _invalid_names(pred_seen, declared, gold_seen | pred_seen)
    labels = np.array(counts.labels, dtype=object)
    is_bad = np.array([lab in bad for lab in counts.labels], dtype=bool)
    cell_bad = is_bad[counts.pred] if len(counts.labels) else np.zeros(0, dtype=bool)
    n = counts.n_instances
    n_invalid = int(counts.count[cell_bad].sum())
    gold_names = labels[counts.gold]
    pred_names = labels[counts.pred].copy()
    keep = np.ones(len(pred_names), dtype=bool)
    if policy == "wrong":
        pred_names[cell_bad] = INVALID_LABEL
    else:
        keep = ~cell_bad
    out = _named_counts(gold_names[keep], pred_names[keep], counts.count[keep], n, policy)
    new_blocks = None if blocks is None else _screen_blocks(blocks, bad, policy, 1)
    return out, new_blocks, InvalidOutputs(policy, n, n_invalid, confidence=confidence)


def _screen_weighted(
    counts: Any, policy: str, declared: Sequence[Any] | None, blocks: Blocks | None, confidence: float, where: str
) -> tuple[Any, Blocks | None, InvalidOutputs]:
    """:func:`screen` of weighted single-label counts (distinct (gold, predicted, weight) rows with their numbers of
    instances): ``wrong`` renames an invalid prediction, weight kept; ``omit`` drops its rows. ``n`` and
    ``n_invalid`` count instances, whatever their weights: coverage is the share of outputs that were labels."""
    from clfeval.count.weighted import WeightedLabelCounts
    from clfeval.kinds import KINDS

    gold_seen, pred_seen = KINDS[_WEIGHTED].labels_seen(counts)
    _refuse_gold(gold_seen, where)
    bad = _invalid_names(pred_seen, declared, gold_seen | pred_seen)
    n = counts.n_instances
    is_bad = np.array([lab in bad for lab in counts.labels], dtype=bool)
    row_bad = is_bad[counts.pred] if len(counts.labels) else np.zeros(0, dtype=bool)  # one step per label, not row
    n_invalid = int(counts.counts[row_bad].sum())
    keep = ~row_bad if policy == "omit" else np.ones(len(row_bad), dtype=bool)
    if not keep.any():
        raise InputError(f"every one of the {n} predictions is invalid: nothing is left to score (invalid={policy!r})")
    names = [*counts.labels, INVALID_LABEL]
    pred = np.where(row_bad, len(counts.labels), counts.pred)  # wrong: an invalid prediction is INVALID_LABEL
    out = WeightedLabelCounts.of_codes(names, counts.gold[keep], pred[keep], counts.weights[keep], counts.counts[keep])
    new_blocks = None if blocks is None else _screen_blocks(blocks, bad, policy, 1)
    return out, new_blocks, InvalidOutputs(policy, n, n_invalid, confidence=confidence)


def _named_counts(gold: np.ndarray, pred: np.ndarray, count: np.ndarray, n: int, policy: str) -> ConfusionCounts:
    if not len(count):
        raise InputError(f"every one of the {n} predictions is invalid: nothing is left to score (invalid={policy!r})")
    names, codes = np.unique(np.concatenate([gold, pred]).astype(str), return_inverse=True)
    codes = codes.reshape(-1)
    return ConfusionCounts.from_entries(names.tolist(), codes[: len(gold)], codes[len(gold) :], count)


def _screen_blocks(blocks: Blocks, bad: set[str], policy: str, n_systems: int) -> Blocks:
    """Blocks whose rows (gold, prediction …) are renamed (``wrong``) or dropped (``omit``) alike."""
    keys: list[tuple[Any, ...]] = []
    index: dict[tuple[Any, ...], int] = {}
    where = np.empty(len(blocks.keys), dtype=np.int64)
    for r, key in enumerate(blocks.keys):
        preds = key[1 : 1 + n_systems]
        if policy == "omit" and any(p in bad for p in preds):
            where[r] = -1
            continue
        new = (key[0], *(INVALID_LABEL if p in bad else p for p in preds), *key[1 + n_systems :])
        where[r] = index.setdefault(new, len(index))
        if where[r] == len(keys):
            keys.append(new)
    kept = where[blocks.row] >= 0
    present, block = np.unique(blocks.block[kept], return_inverse=True)  # a block left empty is no block
    trimmed = type(blocks)(
        blocks.keys, blocks.row[kept], block.reshape(-1), blocks.count[kept], len(present), blocks.unit
    )
    return trimmed.regrouped(np.where(where < 0, 0, where), keys)


def screen_joint(
    counts: JointCounts,
    policy: str,
    declared: Sequence[Any] | None = None,
    *,
    blocks: Blocks | None = None,
    confidence: float = 0.95,
    where: str = "",
) -> tuple[JointCounts, Blocks | None, InvalidOutputs]:
    """Several systems' counts on one gold under an invalid policy (compare): each system's invalid predictions
    counted; ``wrong`` renames them to :data:`INVALID_LABEL` (the instance is wrong for that system in the paired
    data); ``omit`` drops an instance when any system's prediction is invalid, so the systems keep the same
    instances and every paired test sees the shared coverage. ``blocks`` (keys: the joint rows) change alike."""
    if _kind(counts) != "joint" or counts.kind not in _SINGLE or counts.units is not None:
        raise OptionError(_unsupported(counts))
    if policy == "error":
        refuse_reserved(counts, where)
        return counts, blocks, InvalidOutputs(policy, counts.n_instances, 0, confidence=confidence)
    k = len(counts.systems)
    gold_seen = {row[0] for row in counts.rows}
    pred_seen = {p for row in counts.rows for p in row[1 : 1 + k]}
    _refuse_gold(gold_seen, where)
    bad = _invalid_names(pred_seen, declared, gold_seen | pred_seen)
    n = counts.n_instances
    by_system = {name: 0 for name in counts.systems}
    n_invalid = 0
    rows: dict[tuple[Any, ...], int] = {}
    for row, c in counts.rows.items():
        preds = row[1 : 1 + k]
        flags = [p in bad for p in preds]
        for name, flag in zip(counts.systems, flags):
            if flag:
                by_system[name] += c
        if any(flags):
            n_invalid += c
            if policy == "omit":
                continue
            row = (row[0], *(INVALID_LABEL if f else p for f, p in zip(flags, preds)), *row[1 + k :])
        rows[row] = rows.get(row, 0) + c
    if not rows:
        raise InputError(f"every one of the {n} instances has an invalid prediction: nothing is left to score")
    out = JointCounts(counts.systems, rows, None, counts.kind, None, counts.options)
    new_blocks = None if blocks is None else _screen_blocks(blocks, bad, policy, k)
    return out, new_blocks, InvalidOutputs(policy, n, n_invalid, by_system, confidence)


#: The kinds whose instances hold one predicted label, which an invalid prediction can replace: without and with
#: sample weights (a weighted row ends with its weight, which a policy keeps).
_WEIGHTED = "weighted-single-label"
_SINGLE = frozenset({"single-label", _WEIGHTED})


def _kind(counts: Any) -> str | None:
    """The name of the kind of ``counts`` (:func:`clfeval.kinds.kind_of`, asked on use: the kinds know their counts),
    or ``None``."""
    from clfeval.kinds import kind_of

    kind = kind_of(counts)
    return None if kind is None else kind.name


def _unsupported(counts: Any) -> str:
    """The refusal of counts of another kind than single-label: named by their kind (:func:`clfeval.kinds.kind_of`,
    asked on use: the kinds know their counts)."""
    kind = _kind(counts)
    what = counts.kind if kind == "joint" else kind or type(counts).__name__
    return (
        f"invalid= (--invalid) applies to single-label predictions, not {what}: a label set's invalid output, a "
        "tag or a score has no one column to count it in; leave out such instances before scoring"
    )
