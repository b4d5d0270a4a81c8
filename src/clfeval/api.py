"""The tasks: one entry point each, taking arrays, counts, or what a reader returned.

=============  ======================================================================================
task           takes
=============  ======================================================================================
``score``      gold and predicted labels; ``ConfusionCounts`` / ``LabelSetCounts``; a :class:`Counted`
``compare``    gold labels and each system's predictions; ``JointCounts``; a :class:`Counted` of them
``cv``         gold, predicted and fold labels; fold counts (a list or a mapping); a :class:`Counted`
               of folds (:func:`clfeval.read_folds`)
``finagle``    gold, predicted and confidence values; a :class:`Counted` of :func:`read_confidences`
=============  ======================================================================================

Options come in frozen groups, validated when built: :class:`~clfeval.Scoring` (which labels, β, 0/0),
:class:`~clfeval.CI` (which interval), :class:`~clfeval.Test` (which paired test),
:class:`~clfeval.MultiLabel` (label sets) and, for files, :class:`~clfeval.Reading` (how to read).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast, overload

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.invalid import InvalidOutputs, refuse_reserved, screen, screen_joint
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import LabelSetCounts, MultiLabel, label_sets
from clfeval.count.paired import counts_of_pairs
from clfeval.errors import InputError, OptionError, warn_each
from clfeval.infer.methods import CI
from clfeval.infer.slicing import Slicing
from clfeval.inputs.groups import members_of, taken
from clfeval.inputs.options import Reading, Training
from clfeval.inputs.readers import Counted, check_count_kind, fold_names
from clfeval.kinds import Counts, kind_of
from clfeval.scoring import computation
from clfeval.scoring.measures import MULTI, SINGLE, label_measures
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import f_key
from clfeval.scoring.scores import Scores
from clfeval.shorthands import ci_of, labelsets_of, refuse_keywords, scoring_of, slicing_of, test_of
from clfeval.spans.options import Spans

if TYPE_CHECKING:  # the tasks' modules load when a task runs: `clfeval score` does not import compare's
    from clfeval.infer.comparison import Comparison, Test
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.groupcomparison import SlicedComparison
    from clfeval.infer.scored import ScoredComparison, ScoredCV
    from clfeval.infer.slices import Sliced
    from clfeval.inputs.indicators import IndicatorRows
    from clfeval.inverse.audit import Audit
    from clfeval.scoring.finagle import Finagle
    from clfeval.scoring.scored import Conventions, Scored

__all__ = [
    "audit_file",
    "check_metrics",
    "check_systems",
    "compare",
    "cv",
    "finagle",
    "folds_noted",
    "score",
    "score_grouped_counts",
]


def _given(
    gold: Any, pred: Any, multilabel: bool | MultiLabel | None, blocks: Any, task: str, *extra: Any
) -> Counted | None:
    """``gold`` as a :class:`Counted` when it holds counts (or what a reader returned), else ``None`` (arrays)."""
    kind = kind_of(gold)
    if kind is not None:
        gold = Counted(gold, blocks=kind.units(gold))  # counts of any kind (with their own units); the task says which
    if not isinstance(gold, Counted):
        return None
    given = [
        name
        for name, value in (("pred", pred), ("multilabel", multilabel or None), ("blocks", blocks), *extra)
        if value is not None
    ]
    if given:
        raise OptionError(
            f"{task} of counts: {', '.join(given)} belong(s) to arrays (counts and what a reader returned "
            "carry their own)"
        )
    return gold


def _scoring(scoring: Scoring | None, counted: Counted) -> tuple[Scoring, dict[str, Any]]:
    """The scoring group with its training data read (with the counts' label rules) and, when it names no label set
    or policy, the counts' declared label set; and the provenance a result records: the inputs (the training file
    among them), the reader's warnings (a translation mapping that only training labels used is used) and the reading
    options."""
    chosen = Scoring.of(scoring)
    if counted.declared_labels is not None and chosen.labels is None and chosen.labels_from is None:
        chosen = replace(chosen, labels=counted.declared_labels)  # the count files' declared label set
    frequencies, train_inputs = counted.training(chosen.train)
    provenance = {
        "inputs": {**counted.inputs, **train_inputs},
        "warnings": counted.warnings,
        "options": dict(counted.options),
    }
    return chosen.with_frequencies(frequencies), provenance


def _arrays(
    columns: Sequence[Any],
    roles: Sequence[str],
    ml: MultiLabel | None,
    blocks: Iterable[Any] | None,
    labels: Sequence[Any] | None = None,
) -> tuple[Any, Any]:
    """Counted blocks of in-memory columns (``None`` without blocks), and what a result records of them."""
    if blocks is None:
        return None, {}
    from clfeval.inputs.arrays import count_in_blocks  # labels in memory (a file's reader counts its own)

    found = count_in_blocks(
        columns,
        roles,
        blocks,
        multilabel=ml is not None,
        duplicates="keep" if ml is None else ml.duplicates,
        empty="ignore" if ml is None else ml.empty,
        label_sep=None if ml is None else ml.sep,
        labels=labels,  # named jointly with the declared labels (clfeval.count.labelnames)
    )
    return found, {"n_blocks": found.n_blocks}


def _matrices(
    columns: Sequence[Any], roles: Sequence[str], labels: Sequence[Any] | None, multilabel: bool | MultiLabel | None
) -> tuple[IndicatorRows, bool | MultiLabel] | None:
    """Multi-label 0/1 indicator matrices (n, L) given for gold and predictions, as their distinct joint rows of
    label sets with each instance's row (:class:`~clfeval.inputs.indicators.IndicatorRows`: counted with numpy,
    Python once per distinct row), and the multi-label group that reads them (``True`` unless one was given);
    ``None`` when they are label collections. Read as the Accumulator reads an update
    (:func:`clfeval.accumulator.batches.indicator_sets`): a data frame's columns name the labels, else ``labels=``
    in column order, else the positions 0 … L−1."""
    from clfeval.accumulator.batches import indicator_sets

    found = indicator_sets(columns, roles, labels)
    if found is None:
        return None
    if multilabel is False:
        raise OptionError("(n, labels) indicator matrices are label sets: leave out multilabel=False")
    return found, (True if multilabel is None else multilabel)


def _indicator_counted(
    rows: IndicatorRows, ml: MultiLabel, blocks: Any, sample_weight: Any, systems: Sequence[str] | None = None
) -> Counted:
    """The counts of indicator matrices (gold and one prediction; with ``systems``, several systems' joint counts)
    from their distinct rows, as label collections are counted: with ``blocks`` (:class:`Blocks`), or with sample
    weights (the weighted kinds, the weight one more key column); what a result records of them."""
    if not rows.n_instances:  # nothing to count: refused by the label collections' counters, in their words
        from clfeval.inputs.arrays import count_label_sets, count_systems

        gold, *preds = rows.instances()
        if sample_weight is not None:
            _weighted([gold, *preds], list(rows.roles), ml, sample_weight, None, blocks, None, systems)
        elif systems is not None:
            count_systems(gold, dict(zip(systems, preds)), multilabel=True)
        elif blocks is None:
            count_label_sets(gold, preds[0])
    if sample_weight is not None:
        return _weighted([], list(rows.roles), ml, sample_weight, None, blocks, None, systems, indicators=rows)
    rows = rows.canonical(ml)
    from clfeval.inputs.arrays import GIVEN_BLOCKS

    found = rows.blocks(blocks, GIVEN_BLOCKS) if blocks is not None else None
    table = found.totals() if found is not None else rows.tally()
    if systems is not None:
        counts: Any = JointCounts(tuple(systems), table, ml)
    else:
        counts = LabelSetCounts(table, ml.duplicates, ml.empty)
    return Counted(
        counts,
        blocks=found,
        inputs={"source": "arrays", **({"n_blocks": found.n_blocks} if found is not None else {})},
        options={"blocks": "given"} if found is not None else {},
        reading=Reading(multilabel=ml),
    )


def _weighted(
    columns: Sequence[Any],
    roles: Sequence[str],
    ml: MultiLabel | None,
    sample_weight: Any,
    labels: Sequence[Any] | None,
    blocks: Any,
    spans: Any,
    systems: Sequence[str] | None = None,
    indicators: IndicatorRows | None = None,  # indicator matrices' distinct rows, in the place of columns
) -> Counted:
    """Weighted counts of in-memory columns (gold and one prediction; with ``systems``, the joint counts of several),
    and what a result records of them (``inputs["sample_weight"]``)."""
    from clfeval.inputs.arrays import count_weighted, count_weighted_labels
    from clfeval.kinds.weighted import weighted_counts

    if spans is not None:
        raise OptionError("sample_weight= is not taken with spans: span scores (as seqeval's) have no instance weights")
    if blocks is not None:
        raise OptionError("sample_weight= is not taken with blocks= yet: give one or the other")
    if indicators is not None:  # the weight one more key column of the matrices' distinct rows
        from clfeval.count.weighted import check_sample_weight, weight_summary

        assert ml is not None
        table = indicators.canonical(ml).weighted(check_sample_weight(sample_weight, indicators.n_instances))
        counts: Any = weighted_counts(table, ml, systems)
        summary = weight_summary("sample_weight=", counts)
        return Counted(counts, inputs={"source": "arrays", "sample_weight": summary}, reading=Reading(multilabel=ml))
    if any(c is None for c in columns):
        raise OptionError("sample_weight= weighs instances of gold and predicted labels: give both")
    from clfeval.count.weighted import weight_summary

    if systems is None and ml is None:  # one system's single labels: counted as arrays
        counts = count_weighted_labels(columns[0], columns[1], sample_weight, labels=labels, roles=roles)
    else:
        rows = count_weighted(columns, roles, sample_weight, multilabel=ml, labels=labels)
        counts = weighted_counts(rows, ml, systems)
    summary = weight_summary("sample_weight=", counts)
    return Counted(counts, inputs={"source": "arrays", "sample_weight": summary}, reading=Reading(multilabel=ml))


def _scored_counts(gold: Any) -> tuple[Any, Mapping[str, Any]] | None:
    """``gold`` as counts of scored predictions with their provenance (ScoreCounts, or what load_counts returned of
    a ``scored`` count file), or ``None``."""
    kind = kind_of(gold)
    if kind is not None and kind.scored:
        return gold, {"source": "counts"}
    if isinstance(gold, Counted) and (held := kind_of(gold.counts)) is not None and held.scored:
        return gold.counts, dict(gold.inputs)
    return None


def _score_scored(
    gold: Any,
    scores: Any,
    labels: Sequence[Any] | None,
    positive: Any,
    threshold: float | None,
    conventions: Any,
    ci: Any,
    seed: int | None,
    resamples: int | None,
    confidence: float | None,
    scoring: Scoring | None,
    inputs: Mapping[str, Any] | None = None,
    blocks: Any = None,
    multilabel: MultiLabel | None = None,
    progress: Callable[[int, int], None] | None = None,
    sample_weight: Any = None,
    weight_source: str = "sample_weight=",
) -> Any:
    """Scored predictions (``scores`` of ``gold``, or ``gold`` already :class:`~clfeval.count.scored.ScoreCounts`
    when ``scores`` is ``None``): every score of :func:`clfeval.scoring.scored.measures_of`, the intervals asked for
    (over ``blocks``, each instance's block, when given), and the label report at the threshold. ``sample_weight``:
    each instance's weight (``weight_source`` names where the weights came from in ``inputs.sample_weight``)."""
    from clfeval.count.classes import named_scores
    from clfeval.count.scored import ScoreCounts, check_finite, checked_weights, label_indicator, layout_of
    from clfeval.infer.scored import ScoreBlocks, gold_codes, scored_intervals
    from clfeval.result import FrozenDict
    from clfeval.scoring.batched import ScoredMeasures
    from clfeval.scoring.scored import Conventions, Scored, measures_of

    chosen = conventions if conventions is not None else Conventions()
    if not isinstance(chosen, Conventions):
        raise OptionError(f"conventions is a clfeval.scoring.scored.Conventions, not {type(chosen).__name__}")
    blocked = None
    weight = None
    if scores is None:
        counts = chosen.oriented_counts(gold)
        if blocks is not None:
            raise OptionError("counts of scored predictions hold no blocks: give the gold labels, scores and blocks")
        if sample_weight is not None:
            raise OptionError("counts of scored predictions carry their own weights: count them with sample_weight=")
    else:
        given, names = named_scores(scores)
        if sample_weight is not None:
            weight = checked_weights(_weight_values(sample_weight), len(given) if hasattr(given, "__len__") else -1)
        if multilabel is not None:
            if positive is not None:
                raise OptionError(
                    "positive= names the class of binary scores; multi-label scores have a column per label"
                )
            raw = np.asarray(given, dtype=np.float64)
            if raw.ndim != 2:
                raise InputError(f"multi-label scores are an (n, labels) array, not of shape {raw.shape}", "scores")
            check_finite(raw, "scores")
            indicator, classes, layout = label_indicator(_gold_sets(gold, multilabel), labels, raw.shape, names=names)
            kept, clipped = chosen.checked(layout.apply(raw), rows_sum=False)
            counts = ScoreCounts.of_label_sets(indicator, kept, classes, sample_weight=weight)
        else:
            y, raw, seen, which, layout = layout_of(gold, given, labels, positive=positive, names=names)
            kept, clipped = chosen.checked(layout.apply(raw), rows_sum=len(layout.columns) > 1, full=raw)
            counts = ScoreCounts.of_layout(y, kept, seen, which, replace(layout, take=None), weight=weight)
            del which  # each instance's gold position: not held while the scores are computed (8 bytes an instance)
        inputs = {**(dict(inputs) if inputs is not None else {"source": "arrays"}), **layout.to_dict()}
        if clipped:
            inputs["clipped"] = f"{clipped} probabilities within 1e-06 outside [0, 1] (round-off) clipped to [0, 1]"
        if blocks is not None:  # each instance's gold (codes, or its 0/1 row), beside its scores
            y = indicator if multilabel is not None else gold_codes(np.asarray(gold), counts)
            blocked = ScoreBlocks.of_arrays(y, kept.reshape(len(y), -1), blocks, weight=weight)
    if counts.weighted:  # weights read from a file or a count file, all 0
        from clfeval.count.weighted import check_weight_sum

        check_weight_sum(counts.total)
    inputs, notes = _weight_inputs(counts, inputs, weight_source)
    probabilities = chosen.probabilities_of(counts)
    values = measures_of(counts, chosen, probabilities)
    interval = ci_of(ci, seed=seed, resamples=resamples, confidence=confidence)  # the one CI group of every kind
    intervals: dict[str, tuple[float, float]] = {}
    info = None
    if interval is not None:
        intervals, info = scored_intervals(
            counts,
            ScoredMeasures(chosen, probabilities),
            interval,
            blocks=blocked,
            progress=progress,
        )
    calibration = None
    if probabilities:
        from clfeval.scoring.probability import calibration as calibrated

        target = "positive" if counts.binary or counts.multilabel else "top-label"
        pairs = counts.pooled_pairs() if counts.multilabel else counts  # multi-label: every (instance, label) pair
        calibration = calibrated(pairs, target=target, bins=chosen.bins, binning=chosen.binning)
    at, rule = _at_threshold(counts, threshold, probabilities, scoring, chosen.lower_is_more_confident)
    return Scored(
        counts=counts,
        values=FrozenDict(values),
        conventions=chosen,
        probabilities=probabilities,
        calibration=calibration,
        intervals=FrozenDict(intervals),
        interval_method=None if info is None else FrozenDict(info),
        labels_at_threshold=at,
        threshold=rule,
        blocks=blocked,
        inputs=FrozenDict(dict(inputs) if inputs is not None else {"source": "arrays"}),
        notes=tuple(notes),
    )


def _score_scored_groups(
    gold: Any,
    scores: Any,
    groups: Any,
    slicing: Slicing,
    labels: Sequence[Any] | None,
    positive: Any,
    threshold: float | None,
    conventions: Any,
    ci: Any,
    seed: int | None,
    resamples: int | None,
    confidence: float | None,
    scoring: Scoring | None,
    *,
    blocks: Any,
    multilabel: MultiLabel | None,
    progress: Callable[[int, int], None] | None,
    sample_weight: Any,
    strata: Any = None,
) -> Sliced:
    """Scores by group of scored predictions: the whole data scored as :func:`score` scores ``scores=``, each group's
    instances cut out (gold, scores, blocks, weights) and scored by the same path over the whole data's classes and
    score columns (``labels=`` its classes, binary scores its positive class), and the groups compared
    (:func:`clfeval.infer.scoredslices.sliced_scored`)."""
    from clfeval.infer.scoredslices import sliced_scored
    from clfeval.inputs.groups import group_index

    index = group_index(groups, _length(gold), "instance")
    # with groups, a seed without intervals seeds the tests between groups
    interval = ci_of(ci, seed=None if CI.of(ci) is None else seed, resamples=resamples, confidence=confidence)
    interval, slicing = _seeded(interval, slicing)
    shared = (threshold, conventions)
    overall = _score_scored(gold, scores, labels, positive, *shared, interval, None, None, None, scoring,
                            blocks=blocks, multilabel=multilabel, progress=progress,
                            sample_weight=sample_weight)  # fmt: skip
    counts = overall.counts
    classes = list(counts.labels)
    given_positive = counts.columns[0] if counts.binary else None  # binary scores: the whole data's positive class

    def scored_at(idx: np.ndarray, group_interval: CI | None) -> Any:
        return _score_scored(
            taken(gold, idx), taken(scores, idx), classes, given_positive, *shared, group_interval, None, None, None,
            scoring, blocks=taken(blocks, idx), multilabel=multilabel, sample_weight=taken(sample_weight, idx),
        )  # fmt: skip

    def score_group(i: int, group_interval: CI | None) -> Any:
        return scored_at(index.members[i], group_interval)

    cells: list[list[Any]] | None = None
    strata_columns: tuple[str, ...] = ()
    if strata is not None:  # each group's instances in each stratum, strata in one order for every group
        layers = group_index(strata, index.n, "instance", "stratum")
        strata_columns = layers.columns
        layer_of = np.empty(index.n, dtype=np.int64)
        for s, idx in enumerate(layers.members):
            layer_of[idx] = s
        cells = []
        for idx in index.members:
            split = layer_of[idx]
            cells.append([scored_at(idx[split == s], None) if (split == s).any() else None
                          for s in range(len(layers.names))])  # fmt: skip

    predicted = None
    if counts.binary:
        predicted = _predicted_positive(counts, threshold, overall.probabilities,
                                        overall.conventions.lower_is_more_confident)  # fmt: skip
    return sliced_scored(
        overall, index.columns, index.names, index.values, score_group, interval, slicing, predicted=predicted,
        strata=cells, strata_columns=strata_columns, progress=progress,
    )  # fmt: skip


def _weight_values(sample_weight: Any) -> Any:
    """Sample weights as an array: a pandas or polars Series as its values, anything else as given."""
    return sample_weight.to_numpy() if hasattr(sample_weight, "to_numpy") else sample_weight


def _weight_inputs(
    counts: Any, inputs: Mapping[str, Any] | None, source: str
) -> tuple[dict[str, Any] | None, list[str]]:
    """What the result names of sample weights: ``inputs.sample_weight`` = {source, sum Σw, n_instances} (the
    source a count file recorded, when it did) and a note; nothing without weights."""
    if not counts.weighted:
        return (None if inputs is None else dict(inputs)), []
    out: dict[str, Any] = dict(inputs) if inputs is not None else {"source": "arrays"}
    held = out.get("sample_weight")
    given = held.get("source") if isinstance(held, Mapping) and isinstance(held.get("source"), str) else None
    given = given or counts.__dict__.get("weight_source") or source  # a count file names its weights' source
    out["sample_weight"] = {"source": given, "sum": counts.total, "n_instances": counts.n_instances}
    shown = given if given == source else f"column {given}"
    note = (
        f"sample weights ({shown}): each instance weighs its weight in every score, Σw = {counts.total:g} over "
        f"{counts.n_instances} instances; the bootstrap draws instances with their weights; the label report at "
        "the threshold is weighted too; no ece_debiased with weights"
    )
    return out, [note]


def _positive_of(positive: Any, pos_label: Any, scored: bool) -> Any:
    """Scored predictions' positive class: ``positive=``, or ``pos_label=``, scikit-learn's name for it (not both);
    for labels, ``pos_label`` goes to the scoring group."""
    if positive is not None and pos_label is not None and scored:
        raise OptionError("positive= and pos_label= name the same class: give one")
    return positive if positive is not None or not scored else pos_label


def _gold_sets(gold: Any, multilabel: MultiLabel) -> Any:
    """Multi-label gold as :func:`~clfeval.count.scored.label_indicator` reads it: a data frame of 0/1 columns as it
    is (its columns name the labels), anything else as label sets (strings split on the group's separator)."""
    return gold if hasattr(gold, "columns") else label_sets(gold, multilabel)


def _check_counted_classes(counts: Any, labels: Sequence[Any] | None, positive: Any) -> None:
    """Refuse ``labels=`` or ``positive=`` that contradict what counts of scored predictions were counted under: their
    classes in order, and binary scores' positive class (a count file cannot be scored under another)."""
    from clfeval.count.labelnames import declared_names

    if labels is not None:
        names = declared_names(list(labels), counts.labels)
        if tuple(names) != tuple(counts.labels):
            raise OptionError(
                f"the counts were counted over the classes {list(counts.labels)}, in that order; labels= says {names}: "
                "count them again under these classes, or leave labels= out"
            )
    if positive is not None:
        (pos,) = declared_names([positive], counts.labels)
        if not counts.binary or counts.columns[0] != pos:
            held = "a score column per class"
            if counts.binary:
                held = f"binary scores of the positive class {counts.columns[0]!r}"
            raise OptionError(
                f"the counts hold {held}; positive= says {pos!r}: count them again with that positive class, "
                "or leave positive= out"
            )


def _at_threshold(
    counts: Any, threshold: float | None, probabilities: bool, scoring: Scoring | None, lower: bool = False
) -> tuple[Scores | None, str]:
    """The label report of the predictions the scores make: binary, the positive class where its score is at least
    the threshold (0.5 for probabilities; none without a threshold otherwise; ``lower``: at most the threshold, the
    counts holding negated scores); multi-class, the highest score's class (``lower``: the lowest; ties: the first in
    the class order)."""
    from clfeval.count.confusion import ConfusionCounts

    labels = counts.labels
    if counts.multilabel:
        return _label_sets_at_threshold(counts, threshold, probabilities, scoring, lower)
    if counts.binary:
        positive = _predicted_positive(counts, threshold, probabilities, lower)
        if positive is None:
            return None, "none (give a threshold)"
        cut = 0.5 if threshold is None else float(threshold)
        pos = labels.index(counts.columns[0])
        pred = np.where(positive, pos, 1 - pos)
        rule = f"score <= {cut:g}" if lower else f"score >= {cut:g}"
    else:
        if threshold is not None:
            raise OptionError("threshold= is for binary scores; multi-class predictions are the highest score's class")
        order = [counts.columns.index(lab) for lab in labels]
        pred = np.argmax(counts.scores[:, order], axis=1)
        rule = "argmin" if lower else "argmax"
    k = len(labels)
    confusion: Any
    if counts.weighted:  # each instance's predicted label with its weight: the weighted label report
        from clfeval.count.weighted import WeightedLabelCounts

        confusion = WeightedLabelCounts.of_codes(tuple(labels), counts.gold, pred, counts.weight, counts.count)
    else:
        cells = np.bincount(counts.gold * k + pred, weights=counts.count, minlength=k * k).astype(np.int64)
        confusion = ConfusionCounts(tuple(labels), cells.reshape(k, k))
    chosen = Scoring.of(scoring)
    if chosen.labels is None and chosen.labels_from is None:
        chosen = replace(chosen, labels=tuple(labels))
    if counts.binary:  # the label report's positive class is the scores' (r["f1"])
        chosen = replace(chosen, pos_label=counts.columns[0])
    return computation.score_counts(confusion, chosen), rule


def _predicted_positive(counts: Any, threshold: float | None, probabilities: bool, lower: bool) -> np.ndarray | None:
    """Binary scores' prediction at the threshold, row by row: the score at least the threshold (0.5 for
    probabilities; ``lower``: at most, the counts holding negated scores); ``None`` without a threshold."""
    if threshold is None and not probabilities:
        return None
    cut = 0.5 if threshold is None else float(threshold)
    return np.asarray(counts.scores[:, 0] >= (-cut if lower else cut))


def _label_sets_at_threshold(
    counts: Any, threshold: float | None, probabilities: bool, scoring: Scoring | None, lower: bool
) -> tuple[Scores | None, str]:
    """Multi-label scores' label report: each instance's predicted set is the labels scored at least the threshold
    (0.5 for probabilities; ``lower``: at most), scored as multi-label predictions (split counts and all)."""
    from clfeval.count.labelsets import LabelSetCounts

    if threshold is None and not probabilities:
        return None, "none (give a threshold)"
    cut = 0.5 if threshold is None else float(threshold)
    pred = (counts.scores >= (-cut if lower else cut)).astype(np.int8)
    held = counts.count > 0
    k = len(counts.labels)
    names = np.array(counts.labels, dtype=object)
    keys = np.hstack([counts.gold, pred])[held]
    if counts.weighted:  # the weight one more key column: rows (gold set, predicted set, weight)
        from clfeval.count.weighted import WeightedLabelSetCounts

        values, which = np.unique(counts.weight[held], return_inverse=True)
        rows, inverse = np.unique(np.hstack([keys, which.reshape(-1, 1)]), axis=0, return_inverse=True)
        numbers = np.bincount(inverse.reshape(-1), weights=counts.count[held]).astype(np.int64)
        weighted = {
            (tuple(names[row[:k] == 1]), tuple(names[row[k : 2 * k] == 1]), float(values[row[2 * k]])): int(m)
            for row, m in zip(rows, numbers)
        }  # Python once per distinct (gold set, predicted set, weight) row
        found: Any = WeightedLabelSetCounts(weighted)
    else:
        rows, inverse = np.unique(keys, axis=0, return_inverse=True)
        numbers = np.bincount(inverse.reshape(-1), weights=counts.count[held]).astype(np.int64)
        found = LabelSetCounts(
            {(tuple(names[row[:k] == 1]), tuple(names[row[k:] == 1])): int(m) for row, m in zip(rows, numbers)}
        )  # Python once per distinct (gold set, predicted set) pair
    chosen = Scoring.of(scoring)
    if chosen.labels is None and chosen.labels_from is None:
        chosen = replace(chosen, labels=tuple(counts.labels))
    rule = f"score <= {cut:g}" if lower else f"score >= {cut:g}"
    return computation.score_counts(found, chosen), f"each label with {rule}"


def _compare_scored(
    gold: Any,
    scores: Mapping[str, Any],
    labels: Sequence[Any] | None,
    metrics: str | Sequence[str] | None,
    test: Test,
    baseline: str | None,
    conventions: Any,
    scoring: Scoring | None,
    blocks: Any = None,
    multilabel: bool = False,
    progress: Callable[[int, int], None] | None = None,
    sample_weight: Any = None,
    weight_source: str = "sample_weight=",
) -> Any:
    from clfeval.infer.scored import compare_scored
    from clfeval.scoring.scored import Conventions

    if not isinstance(scores, Mapping):
        raise OptionError("scores= maps each system's name to its scores")
    chosen = conventions if conventions is not None else Conventions()
    return compare_scored(
        gold if multilabel else np.asarray(gold),
        {str(k): v for k, v in scores.items()},
        labels,
        None if metrics is None else ([metrics] if isinstance(metrics, str) else list(metrics)),
        test,
        conventions=chosen,
        score_one=lambda c: _score_scored(
            c, None, labels, None, None, chosen, None, None, None, None, scoring, weight_source=weight_source
        ),  # a system's own result scores its counts; multi-label counts say so themselves
        baseline=baseline,
        blocks=None if blocks is None else np.asarray(list(blocks) if not hasattr(blocks, "__len__") else blocks),
        multilabel=multilabel,
        progress=progress,
        sample_weight=None if sample_weight is None else _weight_values(sample_weight),
    )


def _joint_scores(gold: Any) -> tuple[Any, Mapping[str, Any]] | None:
    """``gold`` as several systems' joint counts of scores (a JointScoreCounts, or what a reader returned of one) with
    their provenance, or ``None``."""
    from clfeval.count.jointscored import JointScoreCounts

    if isinstance(gold, JointScoreCounts):
        return gold, {"source": "counts"}
    if isinstance(gold, Counted) and isinstance(gold.counts, JointScoreCounts):
        return gold.counts, dict(gold.inputs)
    return None


def _compare_joint_scores(
    joint: tuple[Any, Mapping[str, Any]],
    metrics: str | Sequence[str] | None,
    test: Test,
    baseline: str | None,
    conventions: Any,
    scoring: Scoring | None,
    progress: Callable[[int, int], None] | None,
) -> Any:
    """Several systems' joint counts of scores compared (:func:`clfeval.infer.scored.compare_joint`): each pair on its
    joint rows, each system's own result of its counts."""
    from clfeval.infer.scored import compare_joint
    from clfeval.scoring.scored import Conventions

    counts, inputs = joint
    chosen = conventions if conventions is not None else Conventions()
    if not isinstance(chosen, Conventions):
        raise OptionError(f"conventions is a clfeval.scoring.scored.Conventions, not {type(chosen).__name__}")
    return compare_joint(
        counts,
        None if metrics is None else ([metrics] if isinstance(metrics, str) else list(metrics)),
        test,
        conventions=chosen,
        score_one=lambda c: _score_scored(
            c, None, None, None, None, chosen, None, None, None, None, scoring, inputs=inputs
        ),
        baseline=baseline,
        progress=progress,
    )


def _span_lists(columns: Sequence[Any], roles: Sequence[str], spans: Spans, ml: Any, blocks: Any) -> Counted:
    """Sentences of tags or entities in memory, counted as spans (one system, or every system for ``compare``)."""
    from clfeval.spans.lists import columns_of_lists

    if ml is not None or blocks is not None:
        raise OptionError("spans come in sentences, which are the units: multilabel and blocks do not apply")
    if any(c is None for c in columns):
        raise OptionError("spans: give gold and predicted sentences (one list of tags or entities per sentence)")
    found = columns_of_lists(columns, roles)
    inputs = {"source": "arrays", "n_sentences": found.n_sentences}
    options: dict[str, Any] = {}  # the scheme and the unit are the counts' own options
    if len(columns) > 2:
        from clfeval.kinds.spans import check_warnings
        from clfeval.spans.sequences import SpanLists
        from clfeval.spans.tags import ENTITIES

        rows, blocks_of, checks = found.count_systems(spans.scheme, "sentences", roles[1:])
        scheme = ENTITIES if isinstance(found, SpanLists) else spans.scheme
        joint = JointCounts(
            tuple(roles[1:]), rows, None, "spans", blocks_of, {"scheme": scheme, "unit": blocks_of.unit}
        )
        warned = tuple(check_warnings(checks, spans.scheme))
        return Counted(joint, blocks=blocks_of, inputs=inputs, options=options, read_warnings=warned)
    counts = found.count(spans.scheme, "sentences", details=spans.details)
    return Counted(counts, blocks=counts.blocks, inputs=inputs, options=options)


@overload
def score(
    gold: Any,
    pred: Iterable[Any] | None = None,
    *,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: None = None,
    positive: None = None,
    threshold: None = None,
    conventions: None = None,
    groups: None = None,
) -> Scores: ...


@overload
def score(
    gold: Any,
    pred: Iterable[Any] | None = None,
    *,
    groups: Any,
    strata: Any = None,
    slicing: Slicing | None = None,
    metrics: str | Sequence[str] | None = None,
    test: str | None = None,
    rounds: int | None = None,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: Any = None,
    positive: Any = None,
    threshold: float | None = None,
    conventions: Any = None,
) -> Sliced: ...


@overload
def score(
    gold: Any,
    pred: None = None,
    *,
    scores: Any,
    labels: Sequence[Any] | None = None,
    positive: Any = None,
    pos_label: Any = None,
    threshold: float | None = None,
    conventions: Conventions | None = None,
    ci: str | CI | None = "none",
    progress: Callable[[int, int], None] | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    scoring: Scoring | None = None,
    blocks: Iterable[Any] | None = None,
    multilabel: bool | MultiLabel | None = None,
    sep: str | None = None,
    sample_weight: Any = None,
    groups: None = None,
) -> Scored: ...


def score(
    gold: Any,
    pred: Iterable[Any] | None = None,
    *,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: Any = None,
    positive: Any = None,
    threshold: float | None = None,
    conventions: Any = None,
    groups: Any = None,
    strata: Any = None,
    slicing: Slicing | None = None,
    metrics: str | Sequence[str] | None = None,
    test: str | None = None,
    rounds: int | None = None,
    **sklearn_keywords: Any,
) -> Any:
    """Score predictions against gold labels, with every average named.

    Parameters
    ----------
    gold, pred
        Labels in instance order: lists, tuples, numpy arrays, pandas or polars Series. For
        multi-label data, collections of labels per instance (or strings split on the
        :class:`~clfeval.MultiLabel` separator), or 0/1 indicator matrices (n, L), scikit-learn's multi-label
        format: numpy arrays, scipy.sparse matrices, pandas or polars data frames whose columns name the labels
        (an array's columns are ``labels`` in order, else 0 … L−1). Or, with no ``pred``: counts
        (:class:`~clfeval.ConfusionCounts`, :class:`~clfeval.LabelSetCounts`) or what a reader
        returned (:func:`clfeval.read`, :func:`clfeval.load_counts`, :func:`clfeval.read_matrix`).
    multilabel
        ``True`` or a :class:`~clfeval.MultiLabel` (label separator, empty sets, duplicates): each
        instance has a set of labels. Never guessed from the data.
    scoring
        A :class:`~clfeval.Scoring`: the label set (declared, or a policy), training data, β, the value
        of 0/0 and whether such labels stay in averages. Default: the union of the labels seen, β = 1,
        0/0 = 0, included.
    ci
        Confidence intervals for every score: ``none`` (default), ``delta``, ``delta-logit``,
        ``bootstrap`` (percentile) or ``bootstrap-bca`` (see :data:`clfeval.INTERVAL_METHODS`), or a
        :class:`~clfeval.CI` with the confidence level, resamples and seed.
    blocks
        Each instance's block (sentence number, document name …): the instances of a block are not
        independent, so intervals resample whole blocks (the delta method uses the cluster-robust
        variance over blocks; with ``scores=``, DeLong's is Obuchowski's clustered variance), as a
        :class:`~clfeval.Reading`'s ``blocks`` does for files.
    progress
        Called with (done, total) during long interval computations.
    labels, beta, zero_division, undefined, ordinal, pos_label
        Shorthands of ``scoring``: ``score(y, p, labels=[...], beta=2)`` is ``scoring=Scoring(labels=[...], beta=2)``
        (:mod:`clfeval.shorthands`); a group and its shorthands together are an error. ``ordinal=[...]`` declares the
        labels' order, which weighted κ reads (without one it is not given); ``pos_label`` names a binary problem's
        positive class, whose values ``r["f1"]``, ``r["precision"]`` and ``r["recall"]`` are (default: the label 1, as
        scikit-learn's; with ``scores=``, another name of ``positive``).
    invalid
        Shorthand of ``scoring``: what a prediction that is not a label does (None, NaN, an empty string; with
        ``labels=``, a label outside them): ``"error"`` (default), ``"wrong"`` (the column ``(invalid)`` of the
        matrix) or ``"omit"`` (left out; the result's ``invalid`` gives the coverage and its Wilson interval);
        :data:`clfeval.INVALID_POLICIES`. A missing gold label is an error under every policy.
    sep
        Shorthand of ``multilabel``: label sets given as strings split on ``sep`` (``MultiLabel(sep=sep)``).
    seed, resamples, confidence
        Shorthands of ``ci``: ``ci="bootstrap", seed=1`` is ``ci=CI("bootstrap", seed=1)``.
    spans
        Score spans, not labels: ``gold`` and ``pred`` hold one list per sentence, of tags (``["B-PER", "I-PER",
        "O"]``) read with this scheme (a name from :data:`clfeval.SCHEMES`, ``True`` for ``conlleval``, or a
        :class:`~clfeval.Spans`), or of entities (``{"start": 0, "end": 2, "type": "PER"}``, ``end`` one past the last
        token). Per type P, R and F of exact matches, every average, and intervals that resample sentences.
    sample_weight
        One weight (a finite number ≥ 0) per instance, as scikit-learn's ``sample_weight``: every count is the sum
        of its instances' weights, so every measure equals scikit-learn's with ``sample_weight``; intervals resample
        instances with their weights (bootstrap, delta); Wilson's intervals are left out. The result's
        ``inputs["sample_weight"]`` names the source, the weights' sum and the number of instances.
    scores, positive, threshold, conventions
        Scored predictions instead of ``pred``: a 1-D array of the positive class's scores (``positive``, else the
        last of ``labels``, as scikit-learn's ``classes_[1]``) or an (n, K) array with a column per class of
        ``labels``. The result (:class:`~clfeval.scoring.scored.Scored`) gives ROC AUC (per class and averaged),
        average precision and, for probabilities, log loss, Brier, calibration error and top-k accuracy, each
        convention named (:class:`~clfeval.scoring.scored.Conventions`); ``ci="delong"`` gives DeLong's intervals of
        the AUCs, ``ci="bootstrap"`` the count bootstrap's of every score; and the label report of the predictions
        the scores make (argmax, or a binary score ≥ ``threshold``, 0.5 for probabilities).
    sample_weight
        With ``scores=``: each instance's weight (finite, ≥ 0), as scikit-learn's ``sample_weight``: every score
        weighs each instance by it, the bootstrap draws instances with their weights (DeLong's intervals are
        refused), and ``inputs.sample_weight`` names them.

    Returns
    -------
    Scores
        A frozen result; ``to_dict()`` gives the ``clfeval.score/2`` JSON contract; ``r["macro.f1"]`` one number and
        ``r.interval("macro.f1")`` its interval, by the names of ``flat()``.

    Examples
    --------
    >>> r = score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2])
    >>> round(r.averages["macro"]["f"], 6), round(r.averages["micro"]["f"], 6)
    (0.355556, 0.444444)
    >>> r = score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2], ci=CI("bootstrap", seed=7))
    >>> r.intervals.method, r.intervals.seed, r.intervals.get(("averages", "micro", "f")) is not None
    ('bootstrap', 7, True)
    """
    if invalid is not None and (scores is not None or _scored_counts(gold) is not None):
        raise OptionError(
            "invalid= is for predicted labels: a missing score has no label to count as wrong; leave out such rows"
        )
    refuse_keywords("score", sklearn_keywords)
    grouped = groups if groups is not None else getattr(gold, "groups", None) if isinstance(gold, Counted) else None
    chosen_slicing = slicing_of(slicing, metrics=metrics, test=test, rounds=rounds, seed=seed, grouped=grouped)
    if strata is not None and groups is None:
        raise OptionError("strata= permutes group membership within strata: give groups= too")
    positive = _positive_of(positive, pos_label, scores is not None or _scored_counts(gold) is not None)
    if scores is not None:
        if pred is not None or spans is not None:
            raise OptionError("scores= takes the place of pred: no pred or spans with it")
        if groups is not None:
            assert chosen_slicing is not None
            return _score_scored_groups(
                gold, scores, groups, chosen_slicing, labels, positive, threshold, conventions, ci, seed, resamples,
                confidence,
                scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined, ordinal=ordinal),
                blocks=blocks, multilabel=labelsets_of(multilabel, sep=sep), progress=progress,
                sample_weight=sample_weight, strata=strata,
            )  # fmt: skip
        return _score_scored(
            gold, scores, labels, positive, threshold, conventions, ci, seed, resamples, confidence,
            scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined, ordinal=ordinal),
            blocks=blocks, multilabel=labelsets_of(multilabel, sep=sep),
            progress=progress, sample_weight=sample_weight,
        )  # fmt: skip
    scored = _scored_counts(gold)
    if scored is not None:  # counts of scored predictions (a count file): scored as scores= scores them
        given, provenance = scored
        if pred is not None or spans is not None or multilabel is not None or blocks is not None:
            raise OptionError("counts of scored predictions take no pred, spans, multilabel or blocks")
        if sample_weight is not None:
            raise OptionError("counts of scored predictions carry their own weights: count them with sample_weight=")
        if groups is not None:
            raise OptionError(
                "groups= cuts the instances into groups: counts of scored predictions hold none, so give gold and "
                "scores= (a file's groups are read with --group-col)"
            )
        _check_counted_classes(given, labels, positive)
        return _score_scored(
            given,
            None,
            None,
            None,
            threshold,
            conventions,
            ci,
            seed,
            resamples,
            confidence,
            scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined, ordinal=ordinal),
            provenance,
            progress=progress,
        )
    if positive is not None or threshold is not None or conventions is not None:
        raise OptionError(
            "positive=, threshold= and conventions= are for scored predictions: give scores= (a binary problem's "
            "positive class is pos_label=)"
        )
    chosen = scoring_of(
        scoring, labels=labels, beta=beta, zero_division=zero_division, undefined=undefined, invalid=invalid,
        ordinal=ordinal, pos_label=pos_label,
    )  # fmt: skip
    # with groups, a seed without intervals seeds the tests between groups
    interval = ci_of(ci, seed=None if grouped is not None and CI.of(ci) is None else seed, resamples=resamples,
                     confidence=confidence)  # fmt: skip
    if grouped is not None and groups is None:  # counts kept by group: a file's group columns, a grouped count file
        assert chosen_slicing is not None
        return _score_counted_groups(
            gold, pred, chosen, interval, chosen_slicing, multilabel=multilabel, blocks=blocks,
            sample_weight=sample_weight, spans=spans, progress=progress,
        )  # fmt: skip
    if groups is not None:
        assert chosen_slicing is not None
        return _score_groups(
            gold, pred, groups, chosen, interval, chosen_slicing, multilabel=multilabel, sep=sep, blocks=blocks,
            sample_weight=sample_weight, spans=spans, progress=progress, strata=strata,
        )  # fmt: skip
    counted = _counted_labels(gold, pred, chosen, multilabel, sep, blocks, sample_weight, spans)
    resolved, provenance = _scoring(chosen, counted)
    counted, screened = _screened(counted, resolved, interval)
    result = computation.score_counts(cast("Counts", counted.counts), resolved, **provenance, invalid=screened)
    if interval is None:
        return result
    from clfeval.infer.intervals import with_intervals

    return with_intervals(result, interval, progress=progress, blocks=counted.blocks)


def _counted_labels(
    gold: Any,
    pred: Any,
    chosen: Scoring,
    multilabel: bool | MultiLabel | None,
    sep: str | None,
    blocks: Any,
    sample_weight: Any,
    spans: Any,
    naming: Sequence[Any] | None = None,
) -> Counted:
    """Predicted labels (or label sets, spans, indicator matrices, counts) as one :class:`Counted`, by the one
    reader of each input: what :func:`score` scores, and each group of ``score(..., groups=)``. ``naming``: values
    whose names the labels are given jointly with (the whole data's, when a group is counted), so that a label has
    one name in every group."""
    matrices = _matrices([gold, pred], ["gold", "pred"], chosen.labels, multilabel) if pred is not None else None
    if matrices is not None:
        rows, multilabel = matrices
        if spans is not None:  # not label sets: what spans= makes of label sets, instance by instance
            gold, pred = rows.instances()
    ml = labelsets_of(multilabel, sep=sep)
    _check_invalid(chosen, ml, spans)
    if matrices is None:
        _tags_as_sets([gold, pred], ml, spans)
    if matrices is not None and spans is None:
        assert ml is not None
        counted: Counted | None = _indicator_counted(rows, ml, blocks, sample_weight)
    else:
        counted = _given(gold, pred, ml, blocks, "score", ("sample_weight", sample_weight))
    if counted is None and pred is not None and ml is None and chosen.invalid in MARKED:
        from clfeval.inputs.arrays import marked_invalid

        pred = marked_invalid(pred, "pred")  # a missing prediction is the label (invalid), for the policy
    chosen_spans = Spans.of(spans)
    if sample_weight is not None:
        counted = counted or _weighted(
            [gold, pred], ["gold", "pred"], ml, sample_weight, naming if naming is not None else chosen.labels,
            blocks, spans,
        )  # fmt: skip
    if counted is None and chosen_spans is not None:
        counted = _span_lists([gold, pred], ["gold", "pred"], chosen_spans, ml, blocks)
    elif chosen_spans is not None:
        raise OptionError("spans= says how to read tags; counts (and what clfeval.read returned) carry their own")
    if counted is None:
        if pred is None and hasattr(gold, "n_instances"):  # counts, of no kind that is scored (LabelCounts)
            raise OptionError(f"score takes labels or ConfusionCounts / LabelSetCounts, not {type(gold).__name__}")
        if pred is None:
            raise OptionError("score takes gold and predicted labels, or counts (or what clfeval.read returned)")
        from clfeval.inputs.arrays import count_label_sets, count_labels  # labels in memory

        found, inputs = _arrays(
            [gold, pred], ["gold", "pred"], ml, blocks, naming if naming is not None else chosen.labels
        )
        if found is not None:
            counts: Any = counts_of_pairs(found.totals(), ml)
        elif ml is not None:
            counts = count_label_sets(gold, pred, duplicates=ml.duplicates, empty=ml.empty, label_sep=ml.sep)
        else:
            counts = count_labels(
                gold, pred, labels=naming if naming is not None else chosen.labels
            )  # declared 0/1 over booleans: 0 and 1
        counted = Counted(
            counts,
            blocks=found,
            inputs={"source": "arrays", **inputs},
            options={"blocks": "given"} if found is not None else {},
            reading=Reading(multilabel=ml),
        )
    if counted.folds is not None:
        raise OptionError("these are the counts of folds: score them with clfeval.cv")
    check_count_kind(counted, "score")
    return counted


def _length(values: Any) -> int:
    """The number of instances (rows) of a per-instance input."""
    shape = getattr(values, "shape", None)
    if shape is not None and len(shape) >= 1:
        return int(shape[0])
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise InputError(f"expected a sequence of labels, found {type(values).__name__}", "gold")
    return len(values)


def _score_groups(
    gold: Any,
    pred: Any,
    groups: Any,
    chosen: Scoring,
    interval: CI | None,
    slicing: Slicing,
    *,
    multilabel: bool | MultiLabel | None,
    sep: str | None,
    blocks: Any,
    sample_weight: Any,
    spans: Any,
    progress: Callable[[int, int], None] | None,
    strata: Any = None,
) -> Sliced:
    """Scores by group of labels, label sets, spans or indicator matrices: the whole data read and scored as
    :func:`score` reads it, each group's instances (sentences, for spans) cut out and read by the same path, labels
    named jointly with the whole data's, and the groups compared (:func:`clfeval.infer.slices.sliced`)."""
    from clfeval.inputs.arrays import kinds_present, named_label_sets
    from clfeval.inputs.groups import group_index

    if pred is None:
        raise OptionError(
            "groups= cuts the instances into groups: counts hold none, so give gold and pred (a file's groups are "
            "read with --group-col)"
        )
    index = group_index(groups, _length(gold), "sentence" if spans is not None else "instance")
    whole = _counted_labels(gold, pred, chosen, multilabel, sep, blocks, sample_weight, spans)
    kind = kind_of(whole.counts)
    naming: list[Any] | None = None
    ml = labelsets_of(multilabel, sep=sep)
    if kind is not None and kind.holds_label_sets(whole.counts) and spans is None:
        # label collections: named jointly over the whole data, then cut; 0/1 indicator matrices (multilabel=
        # implied by their shape) keep their columns, which name the labels in every group
        if ml is not None and not hasattr(gold, "shape"):
            gold, pred = named_label_sets([gold, pred], ["gold", "pred"], ml.sep)
    elif spans is None and ml is None and len(getattr(gold, "shape", ())) < 2:  # labels (not indicator matrices)
        from clfeval.inputs.arrays import marked_invalid

        shown = marked_invalid(pred, "pred") if chosen.invalid in MARKED else pred
        naming = [*(chosen.labels or ()), *kinds_present(gold, "gold"), *kinds_present(shown, "pred")]

    def counted_at(idx: np.ndarray) -> Counted:
        return _counted_labels(
            taken(gold, idx), taken(pred, idx), chosen, multilabel, sep, taken(blocks, idx),
            taken(sample_weight, idx), spans, naming,
        )  # fmt: skip

    parts = [counted_at(idx) for idx in index.members]
    cells: list[list[Counted | None]] | None = None
    strata_columns: tuple[str, ...] = ()
    if strata is not None:  # each group's instances in each stratum, strata in one order for every group
        layers = group_index(strata, index.n, "sentence" if spans is not None else "instance", "stratum")
        strata_columns = layers.columns
        layer_of = np.empty(index.n, dtype=np.int64)
        for s, idx in enumerate(layers.members):
            layer_of[idx] = s
        cells = []
        for idx in index.members:
            split = layer_of[idx]
            cells.append(
                [counted_at(idx[split == s]) if (split == s).any() else None for s in range(len(layers.names))]
            )
    result = _sliced_counted(
        whole, parts, index.columns, index.names, index.values, chosen, interval, slicing, progress,
        strata=cells, strata_columns=strata_columns,
    )  # fmt: skip
    if blocks is not None and spans is None:
        shared = _blocks_across_groups(blocks, index.members, index.n)
        if shared:
            return replace(result, warnings=(*result.warnings, shared))
    return result


def _blocks_across_groups(blocks: Any, members: Sequence[np.ndarray], n: int) -> str | None:
    """A warning naming the blocks whose instances fall in more than one group (``None``: none do). Each group takes
    its part of such a block as a unit of its own, so the groups are not the independent samples the gaps' intervals
    and the tests between groups assume."""
    ids = np.asarray(list(blocks) if not hasattr(blocks, "__len__") else blocks)
    if ids.ndim != 1 or len(ids) != n:
        return None
    _, block = np.unique(ids.astype(str) if ids.dtype == object else ids, return_inverse=True)
    group = np.empty(n, dtype=np.int64)
    for g, idx in enumerate(members):
        group[idx] = g
    pairs = np.unique(np.stack([block.ravel(), group]), axis=1)
    blocks_of, seen = np.unique(pairs[0], return_counts=True)
    split = blocks_of[seen > 1]
    if not len(split):
        return None
    first = np.flatnonzero(np.isin(block.ravel(), split))
    shown = list(dict.fromkeys(str(ids[i]) for i in first[:200]))[:5]
    return (
        f"{len(split)} block(s) hold instances of several groups ({', '.join(map(repr, shown))}"
        f"{', …' if len(split) > len(shown) else ''}): each group resamples and permutes its part of such a block as "
        "a unit of its own, so the groups are not the independent samples the gaps' intervals and the tests between "
        "groups assume; give groups that are constant within each block"
    )


def _score_counted_groups(
    counted: Counted,
    pred: Any,
    chosen: Scoring,
    interval: CI | None,
    slicing: Slicing,
    *,
    multilabel: Any,
    blocks: Any,
    sample_weight: Any,
    spans: Any,
    progress: Callable[[int, int], None] | None,
) -> Sliced:
    """Scores by group of counts kept by group (:attr:`Counted.groups`: a table read with group columns, grouped
    count files): the whole data is the groups' counts merged (the kind's ``merge``), then scored by the one path
    of arrays' groups (:func:`_sliced_counted`)."""
    _given(counted, pred, multilabel, blocks, "score", ("sample_weight", sample_weight))
    if spans is not None:
        raise OptionError("spans= says how to read tags; counts (and what clfeval.read returned) carry their own")
    assert counted.groups is not None and counted.group_columns is not None and counted.group_values is not None
    check_count_kind(counted, "score")
    names = list(counted.groups)
    parts = [
        Counted(counts, blocks=_units(counts), inputs=counted.inputs, reading=counted.reading)
        for counts in counted.groups.values()
    ]
    whole = counted if counted.counts is not None else replace(counted, counts=_merged(parts))
    return _sliced_counted(
        whole, parts, counted.group_columns, names, [counted.group_values[n] for n in names], chosen, interval,
        slicing, progress,
    )  # fmt: skip


def _units(counts: Any) -> Any:
    """The units counts carry (spans' sentences), or ``None``."""
    kind = kind_of(counts)
    return None if kind is None else kind.units(counts)


def _merged(parts: Sequence[Counted]) -> Any:
    """The counts of parts together, by their kind's ``merge``."""
    kind = kind_of(parts[0].counts)
    assert kind is not None
    total = parts[0].counts
    for part in parts[1:]:
        total = kind.merge(total, part.counts)
    return total


def _seeded(interval: CI | None, slicing: Slicing) -> tuple[CI | None, Slicing]:
    """One seed for everything a result by group draws: the interval's or the slicing's (either given; the interval's
    when both are), else one drawn here, given to both, so that the whole data's interval is seeded as the groups'
    draws are (each spawned from it) and one reported number repeats the run."""
    from clfeval.infer.slicing import new_seed

    base = slicing.seed if slicing.seed is not None else None
    if interval is not None and interval.seed is not None:
        base = interval.seed if base is None else base
    if base is None:
        base = new_seed()
    if interval is not None and interval.seed is None:
        interval = replace(interval, seed=base)
    return interval, slicing if slicing.seed is not None else replace(slicing, seed=base)


def _sliced_counted(
    whole: Counted,
    parts: Sequence[Counted],
    columns: Sequence[str],
    names: Sequence[str],
    values: Sequence[tuple[str, ...]],
    chosen: Scoring,
    interval: CI | None,
    slicing: Slicing,
    progress: Callable[[int, int], None] | None,
    *,
    strata: Sequence[Sequence[Counted | None]] | None = None,
    strata_columns: Sequence[str] = (),
) -> Sliced:
    """Scores by group of counted data: the whole scored as :func:`score` scores it (its invalid policy, its
    intervals), each group's counts (and, with ``strata``, each group's counts in each stratum) screened by the same
    policy, then compared (:func:`clfeval.infer.slices.sliced`): the one path of groups of arrays and of counts kept
    by group."""
    from clfeval.infer.slices import Part, sliced

    interval, slicing = _seeded(interval, slicing)
    resolved, provenance = _scoring(chosen, whole)
    whole, screened = _screened(whole, resolved, interval)
    overall = computation.score_counts(cast("Counts", whole.counts), resolved, **provenance, invalid=screened)
    if interval is not None:
        from clfeval.infer.intervals import with_intervals

        overall = with_intervals(overall, interval, progress=progress, blocks=whole.blocks)

    def part(counted: Counted) -> Part:
        counted, found = _screened(counted, resolved, interval)
        return Part(counted.counts, counted.blocks, found)

    layered = None if strata is None else [[None if c is None else part(c) for c in row] for row in strata]
    return sliced(
        overall, columns, names, values, [part(c) for c in parts], resolved, provenance, interval, slicing,
        overall_blocks=whole.blocks, strata=layered, strata_columns=tuple(strata_columns), progress=progress,
    )  # fmt: skip


def score_grouped_counts(
    groups: Mapping[str, Counted | Counts],
    columns: Sequence[str],
    values: Sequence[tuple[str, ...]] | Mapping[str, tuple[str, ...]],
    scoring: Scoring | None = None,
    interval: CI | None = None,
    slicing: Slicing | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    whole: Counted | None = None,
) -> Sliced:
    """Scores by group of counts already kept per group (a grouped accumulator, a grouped count file): the whole
    data's counts are the groups' merged by their kind's ``merge`` (Σ_g counts_g; blocks one group's after
    another's), then scored by the one path of ``score(..., groups=)``.

    Parameters
    ----------
    groups
        Group name → its counts (a :class:`Counted`, or counts of any kind), in report order; every group's of one
        kind.
    columns
        The group columns' names.
    values
        Each group's value in each column (in the order of ``groups``, or a mapping name → values).
    scoring, interval, slicing, progress
        As :func:`score` takes them (:class:`~clfeval.Scoring`, :class:`~clfeval.CI` or ``None``,
        :class:`~clfeval.Slicing`, a progress callable).
    whole
        The whole data's counts with their provenance, when the caller holds them (a grouped accumulator's); they
        must be the groups' merged. Default: the groups' counts merged, with the first group's provenance.

    Raises
    ------
    OptionError
        Fewer than two groups, counts of different kinds, or of a kind that scores by group does not take.
    """
    from clfeval.count.blocks import concatenated

    names = [str(name) for name in groups]
    given = [g if isinstance(g, Counted) else Counted(g, blocks=_units(g)) for g in groups.values()]
    if not given:
        raise OptionError("no groups to score: give each group's counts")
    kinds = {getattr(kind_of(c.counts), "name", None) for c in given}
    if len(kinds) != 1 or None in kinds:
        shown = ", ".join(sorted(str(k) for k in kinds))
        raise OptionError(f"the groups' counts must be of one kind of counts, not {shown}")
    kind = kind_of(given[0].counts)
    assert kind is not None
    if kind.scored:
        raise OptionError(
            "scores by group of scored predictions' counts are not computed here: score each group's counts on its "
            "own, or give score(gold, scores=..., groups=...)"
        )
    if whole is None:
        blocks = given[0].blocks
        for counted in given[1:]:
            blocks = None if blocks is None or counted.blocks is None else concatenated(blocks, counted.blocks)
        whole = replace(given[0], counts=_merged(given), blocks=blocks)
    listed = [tuple(values[name]) for name in names] if isinstance(values, Mapping) else [tuple(v) for v in values]
    if len(listed) != len(names) or any(len(v) != len(columns) for v in listed):
        raise OptionError("values gives each group one value per group column, in the order of groups")
    return _sliced_counted(
        whole, given, tuple(columns), names, listed, Scoring.of(scoring), CI.of(interval), Slicing.of(slicing), progress
    )


#: The policies under which a missing prediction is kept, as the label (invalid), for the policy to count.
MARKED = ("wrong", "omit")


def _tags_as_sets(columns: Sequence[Any], ml: MultiLabel | None, spans: Any) -> None:
    """Warn when ``multilabel=`` is asked of columns that look like sentences of tags
    (:func:`clfeval.spans.lists.tag_scheme`): their scores are of token label sets, not of the entities ``spans=``
    scores (what seqeval and NER papers report); the numbers are right for what was asked, so a warning, not an
    error."""
    if ml is None or spans is not None or any(c is None or isinstance(c, Counted) for c in columns):
        return
    from clfeval.spans.lists import tag_scheme

    scheme = tag_scheme(*columns)
    if scheme is not None:
        warn_each(
            [
                "these look like sentences of tags: multilabel=True scores each sentence's set of tags (token "
                f"labels), not its entities; spans={scheme!r} scores entities (seqeval's and NER papers' P, R and F)"
            ],
            stacklevel=3,
        )


def _check_invalid(scoring: Scoring, ml: MultiLabel | None, spans: Any) -> None:
    """Refuse an invalid policy where it does not apply, before anything is read: label sets and spans."""
    if scoring.invalid is None:
        return
    if ml is not None:
        raise OptionError(
            "invalid= (--invalid) applies to single-label predictions, not multi-label ones: a label set's invalid "
            "output has no one column to count it in; leave out such instances before scoring"
        )
    if spans is not None and spans is not False:
        raise OptionError(
            "invalid= (--invalid) applies to single-label predictions, not spans: a tagger's invalid tags are "
            "repaired by the scheme (clfeval explain iob2)"
        )


def _screened(counted: Counted, scoring: Scoring, interval: CI | None) -> tuple[Counted, InvalidOutputs | None]:
    """The counted data under the scoring's invalid policy (:func:`clfeval.count.invalid.screen`), blocks too, and
    what the policy did; as they are when no policy was chosen."""
    if scoring.invalid is None:
        refuse_reserved(counted.counts, _where(counted))
        return counted, None
    declared = scoring.labels if scoring.labels_from == "given" else None
    where = _where(counted)
    counts, blocks, screened = screen(
        cast("Any", counted.counts),
        scoring.invalid,
        declared,
        blocks=counted.blocks,
        confidence=0.95 if interval is None else interval.confidence,
        where=where,
    )
    return replace(counted, counts=counts, blocks=blocks), screened


def _where(counted: Counted) -> str:
    """The file an error about the counted data names, as a prefix."""
    inputs = counted.inputs
    source = inputs.get("file") or (inputs.get("files") or inputs.get("count_files") or [None])[0]
    return f"{source}: " if isinstance(source, str) else ""


def _compare_groups(gold: Any, preds: Any, groups: Any, *, progress: Any, **given: Any) -> SlicedComparison:
    """Systems compared on the whole data and within each group, by :func:`compare` itself, with Holm over the
    groups for each pair of systems and metric (:class:`~clfeval.infer.groupcomparison.SlicedComparison`)."""
    from clfeval.infer.groupcomparison import GroupPairTest, SlicedComparison
    from clfeval.infer.multiplicity import holm
    from clfeval.infer.slicing import new_seed, spawned
    from clfeval.inputs.arrays import systems_of
    from clfeval.inputs.groups import group_index
    from clfeval.result import FrozenDict

    if given.pop("scores") is not None or given.pop("conventions") is not None:
        raise OptionError("compare with scores= takes no groups= yet: compare each group's scored predictions")
    if preds is None or kind_of(gold) is not None or isinstance(gold, Counted):
        raise OptionError(
            "groups= cuts the instances into groups: counts hold none, so give gold and each system's predictions"
        )
    shorthands = {name: given.pop(name) for name in ("seed", "rounds", "alternative", "ci", "confidence")}
    chosen = test_of(given.pop("test"), **shorthands)
    names, columns = systems_of(preds)
    spans = given["spans"]
    index = group_index(groups, _length(gold), "sentence" if spans is not None else "instance")
    base = chosen.seed if chosen.seed is not None else new_seed()  # one seed repeats the whole run
    chosen = replace(chosen, seed=base)
    overall = compare(gold, dict(zip(names, columns)), test=chosen, progress=progress, **given)
    seeds = spawned(base, len(index.names))
    pinned = dict(given)
    labels = tuple(overall.first.labels)
    if given["scoring"] is not None:
        if given["scoring"].labels is None and given["scoring"].labels_from is None:
            pinned["scoring"] = replace(given["scoring"], labels=labels)
    elif given["labels"] is None:
        pinned["labels"] = labels
    by_group = {}
    for name, idx, seed in zip(index.names, index.members, seeds):
        cut = {k: taken(v, idx) if k in ("blocks", "sample_weight") else v for k, v in pinned.items()}
        by_group[name] = compare(taken(gold, idx), {s: taken(c, idx) for s, c in zip(names, columns)},
                                 test=replace(chosen, seed=seed), **cut)  # fmt: skip
    tests = []
    for j, pair in enumerate(overall.pairs):
        found = [by_group[g].pairs[j] for g in index.names]
        adjusted = holm(np.array([p.p_value for p in found]))
        for g, p, ph in zip(index.names, found, adjusted):
            assert (p.metric, p.a, p.b) == (pair.metric, pair.a, pair.b)
            tests.append(GroupPairTest(g, p.metric, p.a, p.b, p.score_a, p.score_b, p.difference, p.p_value,
                                       p.p_adjusted, float(ph), bool(ph < chosen.alpha)))  # fmt: skip
    warnings = [*overall.warnings, *(f"group {g!r}: {w}" for g, r in by_group.items() for w in r.warnings)]
    method = {
        "name": overall.test,
        "base_seed": base,
        "seeds": "the whole data's test seeded with the base seed (given, else drawn); each group's with the base seed "
        "spawned per group (numpy SeedSequence)",
        "multiplicity": "holm: over the pairs of systems within each group (p_holm_pairs, as compare), and over the "
        "groups for each pair of systems and metric (p_holm_groups)",
        "alpha": chosen.alpha,
    }
    notes = [
        f"every group is compared over the label set of the whole data ({len(labels)} labels)",
        f"seeds: base {base}, spawned (numpy SeedSequence) into one per group's test",
    ]
    return SlicedComparison(
        columns=index.columns, names=index.names, values=index.values, overall=overall,
        by_group=FrozenDict(by_group), tests=tuple(tests), test_method=FrozenDict(method),
        warnings=tuple(dict.fromkeys(warnings)), notes=tuple(notes),
    )  # fmt: skip


def check_systems(names: Sequence[str], baseline: str | None) -> None:
    """The systems' names, known before reading (from --name, the files or the columns): distinct, and the
    baseline among them."""
    repeated = sorted({n for n in names if list(names).count(n) > 1})
    if repeated:
        raise OptionError(f"system names must be distinct; repeated: {', '.join(map(repr, repeated))}")
    if baseline is not None and baseline not in names:
        raise OptionError(f"unknown baseline {baseline!r}; the systems are {', '.join(map(repr, names))}")


def check_metrics(
    metrics: str | Sequence[str] | None,
    test: Test | None = None,
    *,
    multilabel: bool | None,
    beta: float = 1.0,
    kind: str | None = None,
) -> None:
    """Metric names, as far as they can be checked before the labels are known (a per-label metric's label
    is checked once they are; every name once the task is known), and, given a ``test``, that a counting test
    (McNemar, the sign test) is asked for accuracy only."""
    names = [metrics] if isinstance(metrics, str) else list(metrics or [])
    if test is not None and not all(test.method.tests(m, kind) for m in names):
        scope = test.method.scope_of(kind)
        raise OptionError(f"{test.title} compares {scope} only: use --metric {scope} (or another --test)")
    if multilabel is None:
        return
    from clfeval.scoring.metrics import metric_key

    task = MULTI if multilabel else SINGLE
    measures = [f_key(beta) if m.name == "f" else m.name for m in label_measures()]
    from clfeval.scoring.sklearnnames import binary_measure

    for name in names:
        if binary_measure(name, beta) is not None:  # a binary problem's own name: checked once the labels are known
            continue
        if name.startswith("per_label."):
            if not any(name.endswith("." + m) and len(name) > len("per_label.") + len(m) + 1 for m in measures):
                raise OptionError(
                    f"unknown metric {name!r}: a per-label metric is per_label.<label>.<measure> with "
                    f"measure one of {', '.join(measures)}"
                )
            continue
        metric_key(name, labels=(), task=task, beta=beta)


@overload
def compare(
    gold: Any,
    preds: Mapping[str, Iterable[Any]] | Sequence[Iterable[Any]] | None = None,
    *,
    metrics: str | Sequence[str] | None = None,
    test: str | Test = "ar",
    baseline: str | None = None,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    rounds: int | None = None,
    alternative: str | None = None,
    ci: str | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    scores: None = None,
    conventions: None = None,
    sample_weight: Any = None,
    groups: None = None,
) -> Comparison: ...


@overload
def compare(
    gold: Any,
    preds: Mapping[str, Iterable[Any]] | Sequence[Iterable[Any]] | None = None,
    *,
    groups: Any,
    metrics: str | Sequence[str] | None = None,
    test: str | Test = "ar",
    baseline: str | None = None,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    rounds: int | None = None,
    alternative: str | None = None,
    ci: str | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
) -> SlicedComparison: ...


@overload
def compare(
    gold: Any,
    preds: None = None,
    *,
    scores: Mapping[str, Any],
    labels: Sequence[Any] | None = None,
    metrics: str | Sequence[str] | None = None,
    test: str | Test = "ar",
    baseline: str | None = None,
    alternative: str | None = None,
    ci: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int | None = None,
    rounds: int | None = None,
    confidence: float | None = None,
    conventions: Conventions | None = None,
    scoring: Scoring | None = None,
    blocks: Iterable[Any] | None = None,
    multilabel: bool | MultiLabel | None = None,
    sep: str | None = None,
    sample_weight: Any = None,
    groups: None = None,
) -> ScoredComparison: ...


def compare(
    gold: Any,
    preds: Mapping[str, Iterable[Any]] | Sequence[Iterable[Any]] | None = None,
    *,
    metrics: str | Sequence[str] | None = None,
    test: str | Test = "ar",
    baseline: str | None = None,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    blocks: Iterable[Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    rounds: int | None = None,
    alternative: str | None = None,
    ci: str | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: Mapping[str, Any] | None = None,
    conventions: Any = None,
    groups: Any = None,
    **sklearn_keywords: Any,
) -> Any:
    """Is system A really better than B? Paired significance tests of score differences.

    Parameters
    ----------
    gold
        Gold labels (or label sets) in instance order, as for :func:`score`. Or, with no ``preds``:
        :class:`~clfeval.JointCounts` or what :func:`clfeval.read` (prediction files, or a predicted
        column per system) or :func:`clfeval.load_counts` returned. Or several systems' scores of the same instances
        as their distinct joint rows, a :class:`~clfeval.count.jointscored.JointScoreCounts` (scores as given, e.g.
        a file read once, or counted part by part on a cluster), or what a reader returned of one:
        ``compare(joint, test=..., metrics=..., baseline=..., conventions=...)`` tests each pair on its joint rows
        (``joint.pair(a, b)``) and scores each system on its own counts (``joint.system(s)``), exactly as the same
        instances given as arrays (``scores=``) are compared; the joint counts carry their classes, systems and
        weights, so ``preds``, ``scores``, ``labels``, ``multilabel``, ``blocks`` and ``sample_weight`` are refused
        with them.
    preds
        Each system's predictions of the same instances: a mapping name → predictions, or a
        sequence (systems named ``A``, ``B``, …).
    metrics
        Report names of the scores to compare: ``macro.f1`` (default; ``accuracy`` for
        McNemar), ``macro_fa.f1``, ``micro.f1``, ``weighted.recall``, ``lfb.precision``,
        ``samples.f1``, ``accuracy``, ``mcc``, ``kappa``, ``per_label.<label>.f1`` … One
        name or several: every metric is tested on the same arrangements.
    test
        ``ar`` (approximate randomization, default), ``bootstrap`` (paired bootstrap), ``mcnemar`` or
        ``sign`` (exact, accuracy only); see :data:`clfeval.TESTS`. Or a :class:`~clfeval.Test` with the
        rounds, seed, alternative, α, the interval of the difference and the exact limit.
    baseline
        Compare each system with this one only; default: every pair.
    multilabel, scoring
        As in :func:`score`. The label set is chosen once, from the gold labels and every
        system's predictions, and all systems are scored over it.
    blocks
        Each instance's block (sentence number, document name …): randomization swaps whole blocks,
        the bootstrap resamples whole blocks and the sign test counts blocks (with ``scores=``,
        DeLong's test uses Obuchowski's clustered variance).
    progress
        Called with (done, total) rounds.
    labels, beta, zero_division, undefined, invalid, ordinal, pos_label, sep
        Shorthands of ``scoring`` and ``multilabel``, as in :func:`score` (a binary problem's ``f1``, ``precision`` and
        ``recall`` are metrics too, of the ``pos_label`` class).
    invalid
        Shorthand of ``scoring``, as in :func:`score`: ``"wrong"`` makes an invalid prediction wrong for that system
        in the paired data; ``"omit"`` drops an instance for every system when any system's prediction is invalid
        (the result's ``invalid`` gives each system's count and the shared coverage).
    seed, rounds, alternative, ci, confidence
        Shorthands of ``test``: ``test="bootstrap", seed=1`` is ``test=Test("bootstrap", seed=1)``; ``ci`` is the
        interval of each difference (``"bootstrap"`` or ``"none"``, as ``--ci``), ``confidence`` its coverage.
    spans
        Compare taggers on spans, as :func:`score` scores them: ``gold`` and each system's predictions hold one list
        of tags or entities per sentence. The sentence is the unit: randomization swaps whole sentences, the
        bootstrap resamples them and the sign test counts them.
    sample_weight
        One weight ≥ 0 per instance, as in :func:`score`: every system is scored on the weighted instances;
        randomization swaps an instance's two predictions with its weight, the bootstrap resamples instances with
        their weights. McNemar's and the sign test count instances and are refused.
    scores, conventions
        Compare scored predictions instead (``gold`` the gold labels, ``scores`` a mapping name → each system's scores
        as :func:`score` takes them; binary scores belong to the last of ``labels``): ``test`` ``delong`` (AUCs:
        ``auc``, ``per_label.<c>.auc``), ``bootstrap`` or ``ar`` (any score of :func:`score`'s scored result), Holm
        over the pairs; default metric ``auc`` (binary) or ``macro.auc``. Returns a
        :class:`~clfeval.infer.scored.ScoredComparison`.
    sample_weight
        With ``scores=``: each instance's weight, as :func:`score` takes it; the bootstrap and randomization move
        instances with their weights (DeLong's test is refused).
    groups
        Compare the systems within each group too (each instance's group, each sentence's for spans, as
        :func:`score` takes ``groups=``): each group's comparison is this function's on the group's instances, over
        the whole data's label set, its test seeded from one base seed (``seed``, else drawn) spawned per group; for
        each pair of systems and each metric, the groups' p-values are adjusted by Holm over the groups. Returns a
        :class:`~clfeval.infer.groupcomparison.SlicedComparison` (JSON ``clfeval.compare-slices/1``). Not with
        ``scores=``.

    Returns
    -------
    Comparison
        Each system's scores, each pair's test (``pairs``), a ranking per metric; ``to_dict()``
        is the ``clfeval.compare/2`` JSON contract.

    Examples
    --------
    >>> from clfeval import Test
    >>> gold = list("abcabcab")
    >>> r = compare(gold, {"X": list("abcabaac"), "Y": list("aacbbacc")}, metrics=["macro.f1", "accuracy"],
    ...             test=Test(seed=1))
    >>> p = r.pair("X", "Y", "accuracy")
    >>> round(p.difference, 3), p.exact, round(p.p_value, 4)
    (0.375, True, 0.25)
    """
    from clfeval.infer.comparison import compare_counts

    if groups is not None:
        refuse_keywords("compare", sklearn_keywords)
        return _compare_groups(
            gold, preds, groups, metrics=metrics, test=test, baseline=baseline, multilabel=multilabel,
            scoring=scoring, blocks=blocks, labels=labels, beta=beta, zero_division=zero_division,
            undefined=undefined, invalid=invalid, ordinal=ordinal, pos_label=pos_label, sep=sep, seed=seed,
            rounds=rounds, alternative=alternative, ci=ci, confidence=confidence, spans=spans, scores=scores,
            conventions=conventions, sample_weight=sample_weight, progress=progress,
        )  # fmt: skip
    if invalid is not None and scores is not None:
        raise OptionError("invalid= is for predicted labels: a missing score has no label to count as wrong")
    refuse_keywords("compare", sklearn_keywords)
    if (joint_scores := _joint_scores(gold)) is not None:
        given = {
            "preds": preds,
            "scores": scores,
            "spans": spans,
            "blocks": blocks,
            "sample_weight": sample_weight,
            "labels": labels,
            "multilabel": multilabel,
            "pos_label": pos_label,
            "ordinal": ordinal,
            "sep": sep,
        }
        extra = [k for k, v in given.items() if v is not None]
        if extra:
            raise OptionError(
                f"joint counts of scores carry their classes, systems and weights: no {', '.join(extra)} with them"
            )
        return _compare_joint_scores(
            joint_scores, metrics, test_of(test, seed=seed, rounds=rounds, alternative=alternative, ci=ci,
            confidence=confidence), baseline, conventions,
            scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined), progress,
        )  # fmt: skip
    if scores is not None:
        if preds is not None or spans is not None:
            raise OptionError("scores= takes the place of preds: no preds or spans with it")
        if pos_label is not None or ordinal is not None:
            raise OptionError(
                "compare with scores= takes no pos_label= or ordinal=: binary scores belong to the last of labels="
            )
        paired = test_of(test, seed=seed, rounds=rounds, alternative=alternative, ci=ci, confidence=confidence)
        ml = labelsets_of(multilabel, sep=sep)
        chosen_scoring = scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined)
        return _compare_scored(
            _gold_sets(gold, ml) if ml is not None else gold, scores, labels, metrics, paired, baseline, conventions,
            chosen_scoring, blocks, ml is not None, progress, sample_weight,
        )  # fmt: skip
    if conventions is not None:
        raise OptionError("conventions= are for scored predictions: give scores=")
    chosen = scoring_of(
        scoring, labels=labels, beta=beta, zero_division=zero_division, undefined=undefined, invalid=invalid,
        ordinal=ordinal, pos_label=pos_label,
    )  # fmt: skip
    paired = test_of(test, seed=seed, rounds=rounds, alternative=alternative, ci=ci, confidence=confidence)
    matrices = None
    if preds is not None and spans is None and kind_of(gold) is None and not isinstance(gold, Counted):
        from clfeval.inputs.arrays import systems_of

        names, columns = systems_of(preds)
        matrices = _matrices([gold, *columns], ["gold", *[f"pred {n!r}" for n in names]], chosen.labels, multilabel)
        if matrices is not None:
            rows, multilabel = matrices
    ml = labelsets_of(multilabel, sep=sep)
    _check_invalid(chosen, ml, spans)
    if matrices is None and isinstance(preds, Mapping):
        _tags_as_sets([gold, *preds.values()], ml, spans)
    if matrices is not None:
        assert ml is not None
        check_metrics(metrics, paired, multilabel=True, beta=chosen.beta)
        counted: Counted | None = _indicator_counted(rows, ml, blocks, sample_weight, names)
    else:
        counted = _given(gold, preds, ml, blocks, "compare", ("sample_weight", sample_weight))
    chosen_spans = Spans.of(spans)
    if sample_weight is not None and counted is None:
        from clfeval.inputs.arrays import systems_of

        names, columns = systems_of(preds if preds is not None else {})
        check_metrics(metrics, paired, multilabel=ml is not None, beta=chosen.beta)
        roles = ["gold", *[f"pred {n!r}" for n in names]]
        if ml is None and chosen.invalid in MARKED:  # a missing prediction is the label (invalid), for the policy
            from clfeval.inputs.arrays import marked_invalid

            columns = [marked_invalid(c, role) for c, role in zip(columns, roles[1:])]
        counted = _weighted([gold, *columns], roles, ml, sample_weight, chosen.labels, blocks, spans, names)
    if counted is None and chosen_spans is not None:
        if preds is None:
            raise OptionError("compare with spans= takes gold sentences and each system's predicted sentences")
        from clfeval.inputs.arrays import systems_of

        names, columns = systems_of(preds)
        counted = _span_lists([gold, *columns], ["gold", *names], chosen_spans, ml, blocks)
    elif chosen_spans is not None:
        raise OptionError("spans= says how to read tags; counts (and what clfeval.read returned) carry their own")
    if counted is None:
        if preds is None:
            raise OptionError("compare takes gold labels and each system's predictions, or joint counts")
        from clfeval.inputs.arrays import count_systems, systems_of  # labels in memory

        names, columns = systems_of(preds)
        if ml is None and chosen.invalid in MARKED:  # a missing prediction is the label (invalid), for the policy
            from clfeval.inputs.arrays import marked_invalid

            columns = [marked_invalid(c, f"pred {n!r}") for n, c in zip(names, columns)]
            preds = dict(zip(names, columns))
        check_metrics(metrics, paired, multilabel=ml is not None, beta=chosen.beta)
        found, inputs = _arrays([gold, *columns], ["gold", *[f"pred {n!r}" for n in names]], ml, blocks, chosen.labels)
        if found is not None:
            joint = JointCounts(tuple(names), found.totals(), ml)
        else:
            joint = count_systems(
                gold, preds, multilabel=ml is not None, duplicates="keep" if ml is None else ml.duplicates,
                empty="ignore" if ml is None else ml.empty, label_sep=None if ml is None else ml.sep,
                labels=chosen.labels,
            )  # fmt: skip
        counted = Counted(
            joint,
            blocks=found,
            inputs={"source": "arrays", **inputs},
            options={"blocks": "given"} if found is not None else {},
            reading=Reading(multilabel=ml),
        )
    check_count_kind(counted, "compare")
    check_metrics(
        metrics, paired, multilabel=counted.multilabel, beta=chosen.beta, kind=getattr(counted.counts, "kind", None)
    )
    resolved, provenance = _scoring(chosen, counted)
    joint, joint_blocks, screened = cast(JointCounts, counted.counts), counted.blocks, None
    if resolved.invalid is None:
        refuse_reserved(joint, _where(counted))
    else:
        joint, joint_blocks, screened = screen_joint(
            joint,
            resolved.invalid,
            resolved.labels if resolved.labels_from == "given" else None,
            blocks=joint_blocks,
            confidence=paired.confidence,
            where=_where(counted),
        )
        weighed = provenance.get("inputs", {}).get("sample_weight")
        if weighed is not None:  # the weights of the instances the policy kept, as score records them
            from clfeval.count.weighted import weight_summary

            provenance = {**provenance, "inputs": {**provenance["inputs"], "sample_weight": weight_summary(
                weighed["source"], joint
            )}}  # fmt: skip
    return compare_counts(
        joint,  # the kind that compare takes (checked above)
        metrics=metrics,
        test=paired,
        baseline=baseline,
        scoring=resolved,
        progress=progress,
        **provenance,
        blocks=joint_blocks,
        invalid=screened,
    )


def _folds_given(gold: Any) -> tuple[list[Any], list[str], Counted] | None:
    """Fold counts as given: a :class:`Counted` of folds, or a list or mapping of counts (or of what readers
    returned); ``None`` for arrays."""
    if isinstance(gold, Counted) and gold.folds is not None:
        return list(gold.folds.values()), list(gold.folds), gold
    if isinstance(gold, Mapping):
        items = list(gold.items())
    elif isinstance(gold, Sequence) and gold and all(isinstance(f, Counted) or kind_of(f) is not None for f in gold):
        items = [(None, f) for f in gold]
    else:
        return None
    folds: list[Any] = []
    shown: list[str] = []
    first: Counted | None = None
    for i, (name, fold) in enumerate(items):
        counted = fold if isinstance(fold, Counted) else Counted(fold)
        kind = kind_of(counted.counts)
        if counted.folds is not None or (kind is not None and "compare" in kind.tasks):
            raise OptionError(f"fold {i + 1} holds {'folds' if counted.folds else 'joint counts'}: give one "
                              "system's counts per fold")  # fmt: skip
        if kind is None or "cv" not in kind.tasks:
            raise OptionError(f"fold {i + 1} is a {type(counted.counts).__name__}, not counts")
        files = counted.inputs.get("count_files")
        folds.append(counted.counts)
        shown.append(str(name) if name is not None else " + ".join(files) if files else f"fold {i + 1}")
        first = first or counted
    if not folds:
        raise OptionError("cross-validation needs at least one fold")
    names = fold_names(shown)
    from_files = all(isinstance(f, Counted) and "count_files" in f.inputs for f in (v for _, v in items))
    assert first is not None
    counted = replace(first, inputs={"fold_count_files": shown} if from_files else {}, read_warnings=())
    return folds, names, counted


@overload
def cv(
    gold: Any,
    pred: Iterable[Any] | None = None,
    folds: Iterable[Any] | None = None,
    *,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    warn_above: float = 0.01,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: None = None,
    groups: None = None,
) -> CrossValidation: ...


@overload
def cv(
    gold: Any,
    pred: Iterable[Any] | None = None,
    folds: Iterable[Any] | None = None,
    *,
    groups: Any,
    slicing: Slicing | None = None,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
) -> Sliced: ...


@overload
def cv(
    gold: Any,
    pred: None = None,
    folds: Iterable[Any] | None = None,
    *,
    scores: Any,
    labels: Sequence[Any] | None = None,
    ci: str | CI | None = "none",
    progress: Callable[[int, int], None] | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    scoring: Scoring | None = None,
    conventions: Conventions | None = None,
    multilabel: bool | MultiLabel | None = None,
    sep: str | None = None,
    sample_weight: Any = None,
    groups: None = None,
) -> ScoredCV: ...


def cv(
    gold: Any,
    pred: Iterable[Any] | None = None,
    folds: Iterable[Any] | None = None,
    *,
    multilabel: bool | MultiLabel | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    warn_above: float = 0.01,
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: bool | Sequence[Any] | None = None,
    pos_label: Any = None,
    sep: str | None = None,
    seed: int | None = None,
    resamples: int | None = None,
    confidence: float | None = None,
    spans: str | Spans | bool | None = None,
    sample_weight: Any = None,
    scores: Any = None,
    conventions: Any = None,
    groups: Any = None,
    slicing: Slicing | None = None,
    metrics: str | Sequence[str] | None = None,
    test: str | None = None,
    rounds: int | None = None,
    **sklearn_keywords: Any,
) -> Any:
    """Cross-validation: the folds scored pooled (their counts added: F_tp,fp, the one to report) and one by
    one (their mean and sd: F_avg).

    Parameters
    ----------
    gold, pred, folds
        Labels in memory, ``folds[i]`` naming the fold of instance i. Or, alone: what
        :func:`clfeval.read_folds` returned, or each fold's counts (a list, or a mapping fold name →
        counts; counts or what a reader returned, e.g. :func:`clfeval.load_counts` of a fold's files).
    multilabel, scoring
        As in :func:`score`. One label set, resolved from the pooled counts, serves the pooled score
        and every fold.
    ci
        Intervals of the pooled scores, as in :func:`score`.
    warn_above
        Warn when a pooled and a mean-of-folds value differ by more than this.
    progress
        Called with (done, total) during long interval computations.
    labels, beta, zero_division, undefined, invalid, ordinal, pos_label, sep, seed, resamples, confidence
        Shorthands of ``scoring``, ``multilabel`` and ``ci``, as in :func:`score` (``gold`` and ``pred`` may be 0/1
        indicator matrices, as there); ``invalid`` applies to each fold, and the pooled scores record the folds'
        totals (under ``omit``, the pooled coverage).
    spans
        Taggers' folds, as :func:`score` scores spans: ``gold`` and ``pred`` hold one list of tags or entities per
        sentence and ``folds[s]`` names sentence s's fold.
    sample_weight
        One weight ≥ 0 per instance, as in :func:`score`: each fold and the pooled counts are weighted.
    scores
        Scored predictions' folds, in the place of ``pred`` (as :func:`score` takes them; ``labels`` names the classes):
        a :class:`~clfeval.infer.scored.ScoredCV`, the pooled scores (with ``ci``) beside each fold's and their mean
        and sd.
    conventions
        With ``scores``: the :class:`~clfeval.scoring.scored.Conventions` of every fold and the pooled scores.
    sample_weight
        With ``scores``: each instance's weight, as :func:`score` takes it (each fold and the pooled scores weighted).
    groups, slicing
        Scores by group of the pooled counts, as ``score(..., groups=)`` gives them (:class:`~clfeval.Sliced`): each
        group's counts are its instances' added over every fold (F_tp,fp of the group, as the pooled scores), with
        ``ci`` each group's interval and the gaps' and the tests between groups (``slicing``, a
        :class:`~clfeval.Slicing`); the folds are named in the result's notes. Labels, label sets, spans (a group
        per sentence) and weights; not with fold counts (they hold no groups) or ``scores=``.

    Examples
    --------
    >>> r = cv(list("aabbab"), list("abbbaa"), [1, 1, 1, 2, 2, 2])
    >>> round(r.pooled.averages["macro"]["f"], 4), round(r.mean_of_folds()["averages"]["macro"]["f"], 4)
    (0.6667, 0.6667)
    """
    refuse_keywords("cv", sklearn_keywords)
    if groups is None:  # slicing=, metrics=, test=, rounds= without groups: refused, whatever the kind
        slicing_of(slicing, metrics=metrics, test=test, rounds=rounds, grouped=None, task="cv")
    scored_folds = _score_count_folds(gold)
    if scored_folds is not None:  # each fold's ScoreCounts (what a cluster counted): scored as arrays' folds are
        refused = {
            "pred": pred,
            "folds": folds,
            "scores": scores,
            "groups": groups,
            "labels": labels,
            "multilabel": multilabel,
            "sample_weight": sample_weight,
            "spans": spans,
            "invalid": invalid,
        }
        extra = [k for k, v in refused.items() if v not in (None, False)]
        if extra:
            raise OptionError(f"cv of each fold's ScoreCounts takes them alone: {', '.join(extra)} do not apply")
        scoring = scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined, ordinal=ordinal)
        parts, names = scored_folds
        return _cv_of_score_counts(parts, names, ci, seed, resamples, confidence, scoring, conventions, progress)
    if scores is not None and groups is not None:
        raise OptionError(
            "cv of scored predictions takes no groups= yet: give score(gold, scores=..., groups=...) the pooled "
            "instances"
        )
    if scores is not None:
        if invalid is not None:
            raise OptionError("invalid= is for predicted labels: a missing score has no label to count as wrong")
        if pred is not None or spans is not None:
            raise OptionError("scores= takes the place of pred: no pred or spans with it")
        if pos_label is not None:
            raise OptionError("cv with scores= takes no pos_label=: binary scores belong to the last of labels=")
        # the label report at the threshold of each fold reads β, 0/0 and the order, as a score's does
        scoring = scoring_of(scoring, beta=beta, zero_division=zero_division, undefined=undefined, ordinal=ordinal)
        if folds is None:
            raise OptionError("cv with scores= takes gold, scores= and folds (the fold of each instance)")
        ml = labelsets_of(multilabel, sep=sep)
        return _cv_scored(gold, scores, folds, labels, ci, seed, resamples, confidence, scoring, conventions, ml,
                          progress, sample_weight)  # fmt: skip
    chosen = scoring_of(
        scoring, labels=labels, beta=beta, zero_division=zero_division, undefined=undefined, invalid=invalid,
        ordinal=ordinal, pos_label=pos_label,
    )  # fmt: skip
    if groups is not None:
        return _cv_groups(
            gold, pred, folds, groups, chosen, ci_of(ci, seed=None if CI.of(ci) is None else seed,
            resamples=resamples, confidence=confidence), slicing_of(slicing, metrics=metrics, test=test,
            rounds=rounds, seed=seed, grouped=groups, task="cv"),
            multilabel=multilabel, sep=sep, sample_weight=sample_weight, spans=spans, progress=progress,
        )  # fmt: skip
    interval = ci_of(ci, seed=seed, resamples=resamples, confidence=confidence)
    matrices = None
    if pred is not None and folds is not None and spans is None:
        matrices = _matrices([gold, pred], ["gold", "pred"], chosen.labels, multilabel)
    if matrices is not None:
        gold, multilabel = matrices  # their distinct rows, counted fold by fold (_count_folds)
        pred = gold
    ml = labelsets_of(multilabel, sep=sep)
    if isinstance(warn_above, bool) or not (isinstance(warn_above, (int, float)) and warn_above >= 0):
        raise OptionError(f"warn_above must be a number ≥ 0, not {warn_above!r}")
    _check_invalid(chosen, ml, spans)
    given = _folds_given(gold)
    chosen_spans = Spans.of(spans)
    if given is not None:
        if chosen_spans is not None:
            raise OptionError("spans= says how to read tags; counts (and what clfeval.read returned) carry their own")
        _given(Counted(None), pred, ml, None, "cv", ("folds", folds), ("sample_weight", sample_weight))
        fold_counts, names, counted = given
    else:
        if pred is None or folds is None:
            raise OptionError("cv takes gold, predicted and fold labels, or each fold's counts")
        inputs: dict[str, Any] = {"source": "arrays"}
        if chosen_spans is not None:
            if ml is not None:
                raise OptionError("spans come in sentences: multilabel does not apply")
            if sample_weight is not None:
                raise OptionError(
                    "sample_weight= is not taken with spans: span scores (as seqeval's) have no instance weights"
                )
            fold_counts, names = _span_folds(gold, pred, folds, chosen_spans)
        else:
            if matrices is None:
                _tags_as_sets([gold, pred], ml, None)
            if ml is None and chosen.invalid in MARKED:  # a missing prediction is the label (invalid), for the policy
                from clfeval.inputs.arrays import marked_invalid

                pred = marked_invalid(pred, "pred")
            fold_counts, names = _count_folds(gold, pred, folds, ml, chosen.labels, sample_weight)
            if sample_weight is not None:
                inputs["sample_weight"] = {
                    "source": "sample_weight=",
                    "sum": float(sum(c.weight_sum for c in fold_counts)),
                    "n_instances": sum(c.n_instances for c in fold_counts),
                }
        counted = Counted(None, inputs=inputs, reading=Reading(multilabel=ml))
    resolved, provenance = _scoring(chosen, counted)
    from clfeval.infer.crossvalidation import cross_validate

    return cross_validate(
        fold_counts,
        fold_names=names,
        scoring=resolved,
        ci=interval,
        progress=progress,
        warn_above=warn_above,
        **provenance,
    )


def _cv_groups(
    gold: Any,
    pred: Any,
    folds: Any,
    groups: Any,
    chosen: Scoring,
    interval: CI | None,
    slicing: Slicing | None,
    *,
    multilabel: bool | MultiLabel | None,
    sep: str | None,
    sample_weight: Any,
    spans: Any,
    progress: Callable[[int, int], None] | None,
) -> Sliced:
    """Cross-validation by group: each group's counts pooled over the folds (Σ_folds counts of the group's
    instances), scored by the one path of ``score(..., groups=)``, the folds named in the notes."""
    if _folds_given(gold) is not None:
        raise OptionError(
            "groups= cuts the instances into groups: fold counts hold none, so give gold, pred and folds (a file's "
            "groups are read with --group-col)"
        )
    if pred is None or folds is None:
        raise OptionError("cv with groups= takes gold, predicted and fold labels, and each instance's group")
    assert slicing is not None
    unit = "sentence" if spans is not None else "instance"
    fold_values = list(folds) if not hasattr(folds, "shape") else folds
    if _length(fold_values) != _length(gold):
        raise InputError(f"must name one fold per {unit}: {_length(fold_values)} entries for {_length(gold)}", "folds")
    parts = members_of(fold_values)
    result = _score_groups(
        gold, pred, groups, chosen, interval, slicing, multilabel=multilabel, sep=sep, blocks=None,
        sample_weight=sample_weight, spans=spans, progress=progress,
    )  # fmt: skip
    return folds_noted(result, {name: len(idx) for name, idx in parts.items()}, unit)


def folds_noted(result: Sliced, sizes: Mapping[str, int], unit: str = "instance") -> Sliced:
    """A result by group of pooled folds with the folds named in its notes: each fold's name and its number of
    units (``unit``: instances, or sentences; ``cv(..., groups=)`` and ``clfeval cv --fold-col --group-col`` alike)."""
    shown = ", ".join(f"{name} ({size})" for name, size in sizes.items())
    note = (
        f"cross-validation: {len(sizes)} folds pooled ({unit}s per fold: {shown}); each group's counts are its "
        f"{unit}s' added over the folds, so its scores are pooled (F_tp,fp), not a mean over folds"
    )
    return replace(result, notes=(*result.notes, note))


def _count_folds(
    gold: Any,
    pred: Any,
    folds: Any,
    ml: MultiLabel | None,
    labels: Sequence[Any] | None = None,
    sample_weight: Any = None,
) -> tuple[list[Any], list[str]]:
    """Each fold's counts of in-memory labels, folds in numeric (else text) order of their names.

    The instances are grouped by fold with one sort of the fold names (``np.unique``'s inverse); numpy arrays are
    cut with array indexing, Python sequences with ``operator.itemgetter`` (no per-instance Python code)."""
    from clfeval.inputs.arrays import count_label_sets, count_labels, kinds_present, named_label_sets, to_sequence
    from clfeval.inputs.indicators import IndicatorRows

    if isinstance(gold, IndicatorRows):  # indicator matrices: each fold's instances' distinct rows counted
        return _count_indicator_folds(gold, folds, ml, sample_weight)
    g, p = to_sequence(gold, "gold"), to_sequence(pred, "pred")
    f = to_sequence(folds, "folds")
    # every fold named jointly with the whole data and the declared labels: a label has one name in every fold
    context = None
    if ml is not None:
        if len(g) == len(p):
            g, p = named_label_sets([g, p], ["gold", "pred"], ml.sep)  # label sets of names, split into folds below
    else:
        context = [*(labels or ()), *kinds_present(g, "gold"), *kinds_present(p, "pred")]
    if not len(g) == len(p) == len(f):
        raise InputError(f"gold, pred and folds must have one entry per instance: {len(g)}, {len(p)} and {len(f)}")
    by_name = members_of(f)
    counts: list[Any] = []
    if sample_weight is not None:  # each fold's weighted counts, its labels named once over the whole data
        from clfeval.count.weighted import check_sample_weight
        from clfeval.inputs.arrays import count_weighted, count_weighted_labels, label_codes
        from clfeval.kinds.weighted import weighted_counts

        w = check_sample_weight(sample_weight, len(g))
        if ml is None:
            names_of, codes = label_codes([g, p], ["gold", "pred"])
            g, p = (np.array(names_of, dtype=object)[c] for c in codes)
        for idx in by_name.values():
            if ml is None:
                counts.append(count_weighted_labels(taken(g, idx), taken(p, idx), w[idx]))
                continue
            rows = count_weighted([taken(g, idx), taken(p, idx)], ["gold", "pred"], w[idx], multilabel=ml)
            counts.append(weighted_counts(rows, ml))
        return counts, list(by_name)
    for idx in by_name.values():
        gs, ps = taken(g, idx), taken(p, idx)
        counts.append(
            count_label_sets(gs, ps, duplicates=ml.duplicates, empty=ml.empty)
            if ml is not None
            else count_labels(gs, ps, labels=context)
        )
    return counts, list(by_name)


def _count_indicator_folds(
    rows: IndicatorRows, folds: Any, ml: MultiLabel | None, sample_weight: Any
) -> tuple[list[Any], list[str]]:
    """Each fold's counts of indicator matrices (:func:`_count_folds`): a ``bincount`` of the fold's instances'
    distinct rows (with sample weights, the weight one more key column)."""
    from clfeval.inputs.arrays import to_sequence

    assert ml is not None
    f = to_sequence(folds, "folds")
    n = rows.n_instances
    if len(f) != n:
        raise InputError(f"gold, pred and folds must have one entry per instance: {n}, {n} and {len(f)}")
    by_name = members_of(f)
    if sample_weight is not None:
        from clfeval.count.weighted import check_sample_weight
        from clfeval.kinds.weighted import weighted_counts

        w = check_sample_weight(sample_weight, n)
        rows = rows.canonical(ml)
        return [weighted_counts(rows.weighted(w[idx], idx), ml) for idx in by_name.values()], list(by_name)
    rows = rows.canonical(ml)
    return [LabelSetCounts(rows.tally(idx), ml.duplicates, ml.empty) for idx in by_name.values()], list(by_name)


def _score_count_folds(gold: Any) -> tuple[list[Any], list[str]] | None:
    """Each fold's :class:`~clfeval.count.scored.ScoreCounts`, given as a list or a mapping (fold name → counts),
    with the folds' names; ``None`` for anything else."""
    items = list(gold.items()) if isinstance(gold, Mapping) else None
    if items is None and isinstance(gold, Sequence) and not isinstance(gold, str):
        items = [(None, f) for f in gold]
    if not items or not all((kind := kind_of(f)) is not None and kind.scored for _, f in items):
        return None
    shown = [str(name) if name is not None else f"fold {i + 1}" for i, (name, _) in enumerate(items)]
    return [f for _, f in items], fold_names(shown)


def _cv_scored(
    gold: Any,
    scores: Any,
    folds: Any,
    labels: Sequence[Any] | None,
    ci: Any,
    seed: int | None,
    resamples: int | None,
    confidence: float | None,
    scoring: Scoring | None,
    conventions: Any = None,
    multilabel: MultiLabel | None = None,
    progress: Callable[[int, int], None] | None = None,
    sample_weight: Any = None,
    weight_source: str = "sample_weight=",
) -> Any:
    """Scored predictions' folds: each fold's counts scored alone, and added (pooled) and scored with ``ci``
    (``multilabel``: gold label sets and a score column per label; ``sample_weight``: each instance's weight)."""
    from clfeval.count.classes import named_scores
    from clfeval.count.scored import ScoreCounts, check_finite, checked_weights, label_indicator, layout_of
    from clfeval.inputs.arrays import to_sequence
    from clfeval.scoring.scored import Conventions

    chosen = conventions if conventions is not None else Conventions()
    given, names = named_scores(scores)
    f = to_sequence(folds, "folds")
    n_scores = len(given) if hasattr(given, "__len__") else 0
    if not len(gold) == n_scores == len(f):
        raise InputError(
            f"gold, scores and folds must have one entry per instance: {len(gold)}, {n_scores} and {len(f)}"
        )
    by_name = members_of(f)
    w = None if sample_weight is None else checked_weights(_weight_values(sample_weight), len(f))
    if multilabel is not None:  # the classes and columns of the whole data, by the one contract; then each fold's
        raw = np.asarray(given, dtype=np.float64)
        if raw.ndim != 2:
            raise InputError(f"multi-label scores are an (n, labels) array, not of shape {raw.shape}", "scores")
        check_finite(raw, "scores")
        y, classes, layout = label_indicator(_gold_sets(gold, multilabel), labels, raw.shape, names=names)
        s, _ = chosen.checked(layout.apply(raw), rows_sum=False, orient=False)
        parts = [
            ScoreCounts.of_label_sets(y[idx], s[idx], classes, sample_weight=None if w is None else w[idx])
            for idx in by_name.values()
        ]
    else:
        y, raw, seen, which, layout = layout_of(gold, given, labels, names=names)
        s, _ = chosen.checked(layout.apply(raw), rows_sum=len(layout.columns) > 1, full=raw, orient=False)
        kept = replace(layout, take=None)
        parts = [
            ScoreCounts.of_layout(y[idx], s[idx], seen, which[idx], kept, weight=None if w is None else w[idx])
            for idx in by_name.values()
        ]
    return _cv_of_score_counts(parts, list(by_name), ci, seed, resamples, confidence, scoring, conventions, progress,
                               weight_source)  # fmt: skip


def _cv_of_score_counts(
    parts: Sequence[Any],
    names: Sequence[Any],
    ci: Any,
    seed: int | None,
    resamples: int | None,
    confidence: float | None,
    scoring: Scoring | None,
    conventions: Any = None,
    progress: Callable[[int, int], None] | None = None,
    weight_source: str = "sample_weight=",
) -> Any:
    """Each fold's :class:`~clfeval.count.scored.ScoreCounts` (classes and columns alike) scored alone, and added
    (pooled) and scored with ``ci``: the cross-validation of scored predictions, from arrays or from counts."""
    from clfeval.count.scored import ScoreCounts
    from clfeval.infer.scored import ScoredCV
    from clfeval.progress import steps

    if any(p.weighted for p in parts):  # a fold whose weights are all 0 has no score (every score divides by it)
        from clfeval.count.weighted import check_weight_sum

        for part, name in zip(parts, names):
            check_weight_sum(part.total, f"fold {name}")
    pooled = ScoreCounts.added(parts)
    each = [_score_scored(p, None, None, None, None, conventions, None, None, None, None, scoring,
                          weight_source=weight_source) for p in steps(progress, "folds", parts)]  # fmt: skip
    whole = _score_scored(pooled, None, None, None, None, conventions, ci, seed, resamples, confidence, scoring,
                          progress=progress, weight_source=weight_source)  # fmt: skip
    return ScoredCV(pooled=whole, folds=tuple(each), fold_names=tuple(names))


def _span_folds(gold: Any, pred: Any, folds: Any, spans: Spans) -> tuple[list[Any], list[str]]:
    """Each fold's span counts: ``folds[s]`` names sentence s's fold."""
    from clfeval.inputs.arrays import to_sequence

    g, p, f = list(gold), list(pred), to_sequence(folds, "folds")
    if not len(g) == len(p) == len(f):
        raise InputError(f"gold, pred and folds must have one entry per sentence: {len(g)}, {len(p)} and {len(f)}")
    counts = []
    by_name = members_of(f)
    for idx in by_name.values():
        taken = [[g[i] for i in idx.tolist()], [p[i] for i in idx.tolist()]]
        counts.append(_span_lists(taken, ["gold", "pred"], spans, None, None).counts)
    return counts, list(by_name)


def finagle(
    gold: Any,
    pred: Iterable[Any] | None = None,
    confidence: Iterable[float] | None = None,
    *,
    threshold: float | None = None,
    expected_accuracy: float | None = None,
    to: str | None = None,
    lower_is_more_confident: bool | None = None,
    bins: int | None = None,
    scoring: Scoring | None = None,
    labels: Sequence[Any] | None = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
) -> Finagle:
    """How far macro precision moves when doubtful predictions go to one label (Van Asch §6, Table 8).

    Scores NORMAL (the predictions), CHANGED (every prediction whose confidence is below
    ``threshold``, or whose calibrated accuracy is below ``expected_accuracy``, changed to the
    target ``to``: by default the most frequent training label, else the most frequent gold label)
    and UPPER (every wrong prediction changed to the target). ``confidence`` holds distances when
    ``lower_is_more_confident`` (TiMBL's ``+v di``; default: as :func:`clfeval.read_confidences` read them,
    else no). ``gold`` may instead be what :func:`clfeval.read_confidences` returned. ``scoring`` as in
    :func:`score`, as are the shorthands ``labels``, ``beta``, ``zero_division`` and ``undefined``; see
    :mod:`clfeval.scoring.finagle`.

    Examples
    --------
    >>> gold, pred = list("aaaabcc"), list("aaaabbc")
    >>> r = finagle(gold, pred, [0.9, 0.8, 0.9, 0.7, 0.9, 0.2, 0.9], threshold=0.5)
    >>> r.target, r.changed_where, r.moved["changed"], r.moved["still_wrong"]
    ('a', 'confidence < 0.5', 1, 1)
    >>> [(round(s.averages["macro"]["precision"], 4), s.accuracy) for s in r.scenarios.values()]
    [(0.8333, 0.8571428571428571), (0.9333, 0.8571428571428571), (0.9333, 0.8571428571428571)]
    """
    from clfeval.scoring.finagle import check_rule, finagle_counts

    check_rule(threshold, expected_accuracy, bins)
    chosen = scoring_of(scoring, labels=labels, beta=beta, zero_division=zero_division, undefined=undefined)
    counted = _given(gold, pred, None, None, "finagle", ("confidence", confidence))
    if counted is None:
        if pred is None or confidence is None:
            raise OptionError("finagle takes gold, predicted and confidence values, or what read_confidences returned")
        counted = Counted(_confidence_rows(gold, pred, confidence), inputs={"source": "arrays"})
    kind = kind_of(counted.counts)
    if kind is None or "finagle" not in kind.tasks:
        raise OptionError("finagle needs each prediction's confidence: read the table with clfeval.read_confidences")
    counts = cast(ConfidenceCounts, counted.counts)  # the kind that finagle takes (checked above)
    if lower_is_more_confident is not None and lower_is_more_confident != counts.lower_is_more_confident:
        counts = replace(counts, lower_is_more_confident=lower_is_more_confident)  # how the values are read
    resolved, provenance = _scoring(chosen, counted)
    return finagle_counts(
        counts,
        threshold=threshold,
        expected_accuracy=expected_accuracy,
        to=to,
        bins=bins,
        scoring=resolved,
        **provenance,
    )


def _confidence_rows(gold: Any, pred: Any, confidence: Any) -> ConfidenceCounts:
    from clfeval.inputs.arrays import label_codes, to_sequence

    g, p, c = to_sequence(gold, "gold"), to_sequence(pred, "pred"), to_sequence(confidence, "confidence")
    if not len(g) == len(p) == len(c):
        raise InputError(f"gold, pred and confidence must have one entry per instance: {len(g)}, {len(p)} and {len(c)}")
    try:
        values = np.asarray(c, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError("the confidences must be numbers") from None
    if not np.isfinite(values).all():
        raise OptionError(f"confidence {int(np.argmin(np.isfinite(values)))} (from 0) is not a finite number")
    names, codes = label_codes([g, p], ["gold", "pred"])  # the one rule, as score names them
    named = np.array(names, dtype=object)
    return ConfidenceCounts.from_rows(named[codes[0]].tolist(), named[codes[1]].tolist(), values)


def audit_file(
    path: str,
    *,
    beta: float = 1.0,
    decimals: int | None = None,
    train: str | Training | Iterable[Any] | LabelFrequencies | None = None,
    multilabel: bool = False,
    all_averages: bool = False,
) -> Audit:
    """Audit a reported table: which formula reproduces each averaged figure (see :mod:`clfeval.inverse.audit`).

    ``path`` is a CSV, TSV, Markdown table or ``classification_report`` text with a label column
    and any of precision, recall, f1, support; rows named ``macro``, ``micro``, ``weighted``,
    ``macro avg``, ``average`` … are the reported averages (every row with ``all_averages``).
    ``train`` (a training file or :class:`~clfeval.Training`, its labels, or frequencies) gives the lfb
    weights.
    """
    from clfeval.inverse.audit import audit_table
    from clfeval.inverse.conversion import check_decimals
    from clfeval.inverse.papers import read_figure_table

    check_decimals(decimals)
    if isinstance(beta, bool) or not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta > 0):
        raise OptionError(f"beta must be a positive number, not {beta!r}")
    table = read_figure_table(path)
    reading = Reading(multilabel=multilabel)
    frequencies, inputs = Counted(None, reading=reading).training(train)
    return audit_table(
        table,
        beta=beta,
        decimals=decimals,
        train=frequencies,
        train_source=inputs.get("train_file", "given" if train is not None else None),
        single_label=not multilabel,
        all_averages=all_averages,
    )
