"""Scoring: counts in, a frozen :class:`Scores` out. Arithmetic only; no reading, no formatting."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.count.binary import LabelCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.invalid import INVALID_LABEL, InvalidOutputs
from clfeval.count.labelnames import declared_names, number_named, respelled  # the one rule names declared labels
from clfeval.errors import OptionError
from clfeval.kinds import Counts, kind_of
from clfeval.result import FrozenDict
from clfeval.scoring.averages import AVERAGES, AverageInput, PerLabel, SampleSums
from clfeval.scoring.labelset import check_ordinal, resolve_label_set
from clfeval.scoring.measures import MEASURES, MULTI, SINGLE, SPANS, Setting, averaged_measures, label_measures
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import parse_zero_division
from clfeval.scoring.scores import LabelScores, Scores
from clfeval.scoring.statistics import ScoreFunction, relative

__all__ = ["average_measures", "per_label_measures", "relative", "score_counts", "seen_labels"]


def seen_labels(counts: Counts) -> tuple[set[str], set[str]]:
    """The labels that occur in the gold data and in the predictions of ``counts`` (counts of any kind)."""
    kind = kind_of(counts)
    if kind is None:
        raise OptionError(f"not counts: {type(counts).__name__}")
    return kind.labels_seen(counts)


def per_label_measures(lc: LabelCounts, beta: float = 1.0, zero_division: float = 0.0) -> PerLabel:
    """Every per-label measure of :data:`clfeval.MEASURES` for each label from its counts, with the 0/0 masks.

    Notes
    -----
    P = tp/(tp+fp), R = tp/(tp+fn), F_β = (1+β²)tp/((1+β²)tp + β²fn + fp), specificity = tn/(tn+fp),
    Jaccard = tp/(tp+fp+fn), NPV = tn/(tn+fn), FPR = fp/(fp+tn), FNR = fn/(fn+tp).
    """
    setting = Setting(beta, zero_division)
    values = {m.name: m.compute(lc.tp, lc.fp, lc.fn, lc.tn, setting) for m in label_measures()}
    return PerLabel(lc, {m: v for m, (v, _) in values.items()}, {m: u for m, (_, u) in values.items()})


def average_measures(
    per: PerLabel,
    *,
    beta: float = 1.0,
    zero_division: float = 0.0,
    undefined: str = "include",
    frequencies: np.ndarray | None = None,
    samples: SampleSums | None = None,
) -> dict[str, dict[str, np.ndarray]]:
    """Every average that applies: all of :data:`AVERAGES` but ``samples``, which needs ``samples``.

    ``frequencies`` are the lfb weights over the label set (default: relative gold support).
    Values are arrays of the per-label arrays' leading shape (0-d for one count table).
    """
    family = SINGLE if samples is None else MULTI  # samples averages what only label sets have
    weights = None if frequencies is None else np.asarray(frequencies, dtype=np.float64)
    inp = AverageInput(per, beta, zero_division, undefined, weights, samples)
    return {name: avg.compute(inp) for name, avg in AVERAGES.items() if family in avg.tasks}


def _zd_text(zd: float) -> str:
    return "nan" if math.isnan(zd) else f"{zd:g}"


def _undefined_messages(
    affected: Mapping[str, tuple[str, ...]],
    lc: LabelCounts,
    freqs: np.ndarray,
    lfb_source: str,
    samples: SampleSums | None,
    averages: Mapping[str, Mapping[str, float]],
    zd: float,
    undefined: str,
    per_undefined: Mapping[str, np.ndarray],
    family: str,
) -> list[tuple[str, str]]:
    """Say in words every ratio that was 0/0 and what was done with it: (scope, message) pairs, the scope as
    :attr:`Scores.warning_scopes` names it."""
    zd_text = _zd_text(zd)
    verb = "included in" if undefined == "include" else "left out of"
    # one message per averaged measure's 0/0 condition (Jaccard's is F's: said once)
    why: dict[str, str] = {}
    for m in averaged_measures(family):
        why.setdefault(MEASURES[m].undefined_when, m)
    messages: list[tuple[str, str]] = []
    for condition, key in why.items():
        names = affected[key]
        reason = condition.replace("{label} is ", "")
        if names:
            shown = ", ".join(map(repr, names[:10])) + (" …" if len(names) > 10 else "")
            sharing = ",".join(m.name for m in label_measures(family) if m.undefined_when == condition)  # recall's
            messages.append(
                (
                    f"per_label:{sharing}",
                    f"{MEASURES[key].title} is 0/0 for {len(names)} label(s) {reason}: {shown}; "
                    f"set to {zd_text} and {verb} averages",
                )
            )
    if lc.support.sum() == 0:
        messages.append(
            (
                "average:weighted",
                f"weighted: every label in the label set has support 0, so the support-weighted "
                f"average is undefined and set to {zd_text} (scikit-learn falls back to the macro value)",
            )
        )
    if not freqs.any():
        messages.append(
            (
                "average:lfb",
                f"lfb: no label of the label set occurs in the {lfb_source} data, so the lfb average "
                f"is undefined and set to {zd_text}",
            )
        )
    if samples is not None:
        for measure, shared, reason in (
            ("precision", "precision", "an empty predicted set"),
            ("recall", "recall", "an empty gold set"),
            ("F", "f,jaccard", "empty gold and predicted sets"),
        ):
            count = round(float(samples.total - samples.defined[shared.split(",")[0]]))
            if count:
                messages.append(
                    (
                        f"average:samples:{shared}",
                        f"samples {measure} is 0/0 for {count} instance(s) with {reason} (over the label "
                        f"set); set to {zd_text} and {verb} the mean",
                    )
                )
    weights = {
        "macro": np.ones(len(lc.labels)),
        "macro_fa": np.ones(len(lc.labels)),
        "weighted": lc.support,
        "lfb": freqs,
    }
    for name, values in averages.items():
        for measure, value in values.items():
            if math.isnan(value):
                cause = _nan_cause(name, measure, values, weights.get(name), per_undefined, lc, samples, undefined)
                if cause is not None:
                    messages.append(
                        (f"average:{name}:{measure}", f"{name} {MEASURES[measure].title} is undefined (NaN): {cause}")
                    )
    return messages


def _nan_cause(
    name: str,
    measure: str,
    values: Mapping[str, float],
    weights: np.ndarray | None,
    per_undefined: Mapping[str, np.ndarray],
    lc: LabelCounts,
    samples: SampleSums | None,
    undefined: str,
) -> str | None:
    """Why an average came out NaN (with zero division ``nan``), in words; None when another message says it."""
    word = MEASURES[measure].title
    if name == "micro" and not MEASURES[measure].denominator:  # a registered measure: its function gave NaN
        return f"micro {word} is 0/0 on the counts summed over the label set"
    if name == "micro":
        sums = " + ".join("Σ" + part for part in MEASURES[measure].denominator.split(" + "))
        return (
            f"{sums} = 0 over the label set, so micro {word} is 0/0 (--undefined, which chooses the labels an "
            "average takes, does not apply to micro averages)"
        )
    if name == "samples":
        assert samples is not None
        count = round(float(samples.total - samples.defined[measure]))
        if undefined == "include":
            return (
                f"{count} instance(s) have {word} 0/0, set to nan, and undefined='include' keeps them in the "
                "mean (--undefined exclude leaves them out)"
            )
        return f"every instance's {word} is 0/0, so undefined='exclude' leaves no instance to average"
    if name == "macro_fa" and measure == "f":
        p, r = values["precision"], values["recall"]
        if math.isnan(p) or math.isnan(r):
            return (
                f"it is the F of macro precision and macro recall, and macro "
                f"{'precision' if math.isnan(p) else 'recall'} is undefined (above)"
            )
        return "macro precision and macro recall are both 0, so their F is 0/0"
    assert weights is not None
    w = np.asarray(weights, dtype=np.float64)
    if not w.any():
        return None  # the weights are all 0: said above, for weighted and lfb
    part = "f" if measure == "f" else measure
    nan = np.asarray(per_undefined[part], dtype=bool) & (w > 0)
    shown = ", ".join(repr(lab) for lab in np.asarray(lc.labels, dtype=object)[nan][:10])
    if undefined == "include":
        one = nan.sum() == 1
        return (
            f"{shown} {'has' if one else 'have'} {word} 0/0, set to nan, and undefined='include' keeps "
            f"{'it' if one else 'them'} in the average (--undefined exclude leaves {'it' if one else 'them'} out)"
        )
    carry = "weight" if name in ("weighted", "lfb") else "a place"
    return (
        f"every label with {carry} in it ({shown}) has {word} 0/0, and undefined='exclude' leaves them all out, "
        "so nothing is left to average"
    )


def _matched(train: LabelFrequencies, seen: set[str]) -> LabelFrequencies:
    """Training frequencies under the data's names: a training label that is not among the data's labels but spells
    a number one of them spells (the training labels in memory, named by the rule, ``1``; the data from a file,
    ``1.0``) is counted under the data's name (:func:`~clfeval.count.labelnames.respelled`)."""
    rename = respelled(train.counts, seen)
    if not rename:
        return train
    counts: dict[str, int] = {}
    for label, count in train.counts.items():
        name = rename.get(label, label)
        counts[name] = counts.get(name, 0) + count
    return LabelFrequencies(counts, train.n_instances)


def score_counts(
    counts: Counts,
    scoring: Scoring | None = None,
    *,
    inputs: Mapping[str, Any] | None = None,
    warnings: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seen: tuple[Collection[str], Collection[str]] | None = None,
    invalid: InvalidOutputs | None = None,
) -> Scores:
    """Score counts: per-label measures over the label set and every named average.

    Parameters
    ----------
    counts
        Counts of a kind that is scored (:data:`clfeval.kinds.KINDS`): :class:`ConfusionCounts` (single-label),
        :class:`LabelSetCounts` (multi-label), or a registered kind's.
    scoring
        The label set L (a declared list, or a policy name from :data:`clfeval.LABEL_SOURCES`), the
        training frequencies (the ``train`` label set and the lfb weights; read already), β, the value
        of 0/0 and whether labels with 0/0 stay in averages: see :class:`~clfeval.scoring.options.Scoring`.
    inputs, warnings, options
        Provenance, reader warnings and counting options to carry into the result.
    seen
        The gold and predicted labels the label-set policy sees, when that is more than these
        counts hold (``compare`` scores every system over the labels of all of them).
    invalid
        How invalid predictions entered the counts (:func:`clfeval.count.invalid.screen`), recorded in the result;
        under ``wrong`` the label :data:`~clfeval.count.invalid.INVALID_LABEL` is outside every label-set policy's
        set: a column of the matrix, no row of the report.

    Notes
    -----
    Per label: P = tp/(tp+fp), R = tp/(tp+fn), F_β = (1+β²)tp/((1+β²)tp + β²fn + fp),
    specificity = tn/(tn+fp). See :data:`clfeval.AVERAGES` for the averages.
    """
    scoring = scoring or Scoring()
    labels, labels_from, train = scoring.labels, scoring.labels_from, scoring.frequencies
    beta, undefined = scoring.beta, scoring.undefined
    kind = kind_of(counts)
    if kind is None or kind.family is None:
        raise OptionError(
            f"scores are of ConfusionCounts or LabelSetCounts (clfeval.count_labels, "
            f"count_label_sets, clfeval.read …), not {type(counts).__name__}"
        )
    zd = parse_zero_division(scoring.zero_division)
    task, family = kind.name, kind.family
    if kind.sample_weights and hasattr(counts, "weight_sum"):  # a file's or a fold's weights, all 0
        from clfeval.count.weighted import check_weight_sum

        check_weight_sum(counts.weight_sum, f"fold {inputs['fold']}" if inputs and "fold" in inputs else None)
    n = counts.n_instances
    if n == 0:
        raise OptionError(f"there are no {kind.instances} to score" + kind.nothing_to_score)

    gold_seen, pred_seen = kind.labels_seen(counts)
    policy_gold, policy_pred = seen if seen is not None else (gold_seen, pred_seen)
    if scoring.invalid is not None:  # the invalid predictions' column is in no label set
        policy_pred = set(policy_pred) - {INVALID_LABEL}
    if train is not None:  # training labels named apart from the data ("1" beside "1.0") find the data's names
        train = _matched(train, set(policy_gold) | set(policy_pred))
    label_set = resolve_label_set(
        labels_from,
        gold=policy_gold,
        predicted=policy_pred,
        train=None if train is None else train.labels,
        given=None if labels is None else declared_names(labels, gold_seen | pred_seen),
    )
    lset = label_set.labels
    train_weights = None
    if train is not None:
        train_weights = relative(np.array([train.counts.get(lab, 0) for lab in lset], dtype=np.float64))
    # the matrix's labels: the label set, then every other label the policy saw (every system's, every fold's)
    seen_all = set(policy_gold) | set(policy_pred)
    table = kind.table(lset, [*kind.labels(counts), *sorted(seen_all)])
    order, order_rule = _declared_order(scoring, label_set.source, lset, table, family)
    positive, positive_rule = _positive(scoring.pos_label, lset, family, gold_seen | pred_seen)
    cells, sums = kind.observed(counts, lset, beta=beta, table=table)  # the sums (the map is for resampling)
    f = ScoreFunction.of_cells(
        cells,
        np.zeros(cells.n_types),
        family=family,
        beta=beta,
        zero_division=zd,
        undefined=undefined,
        train_frequencies=train_weights,
    )
    e = f.evaluate(sums)
    if kind.sample_weights:  # weighted sums (Σ m·w), as they are
        tp_, fp_, fn_, tn_ = (
            np.asarray(a[0], dtype=np.float64) for a in (e.counts.tp, e.counts.fp, e.counts.fn, e.counts.tn)
        )
    else:
        tp_, fp_, fn_, tn_ = (
            np.rint(a[0]).astype(np.int64) for a in (e.counts.tp, e.counts.fp, e.counts.fn, e.counts.tn)
        )
    lc = LabelCounts.trusted(lset, tp_, fp_, fn_, tn_, np.asarray(e.tallies.n[0]) if kind.sample_weights else n)
    freqs, lfb_source = e.frequencies[0], ("train" if train is not None else "test")
    tallies = e.tallies
    samples = (
        None
        if tallies.samples is None
        else SampleSums(
            {m: v[0] for m, (v, _) in tallies.samples.items()},
            {m: d[0] for m, (_, d) in tallies.samples.items()},
            np.asarray(tallies.n[0]),
        )
    )
    averages = {name: {m: float(v[0]) for m, v in values.items()} for name, values in e.averages.items()}
    masks = {m: u[0] for m, (_, u) in e.per_label.items()}
    affected = {key: tuple(lab for lab, u in zip(lset, mask) if u) for key, mask in masks.items()}
    if train is not None and train.labels and not set(train.labels) & (set(policy_gold) | set(policy_pred)):
        shown = ", ".join(map(repr, sorted(train.labels)[:5])) + (" …" if len(train.labels) > 5 else "")
        warnings = [
            *warnings,
            f"none of the {len(train.labels)} training labels ({shown}) occurs in the evaluated "
            "data: is the training file read as intended (its label column --train-col, "
            "--train-sep, --train-format)?",
        ]
    scoped = _undefined_messages(affected, lc, freqs, lfb_source, samples, averages, zd, undefined, masks, family)
    for name, (value, undefined_at) in e.overall.items():  # an overall measure that is 0/0 says so, and its value
        if undefined_at[0]:
            measure = MEASURES[name]
            scoped.append(
                (
                    f"overall:{name}",
                    f"{measure.title_for(family)} is 0/0 ({measure.undefined_when}); set to {_zd_text(float(value[0]))}"
                    + (" (chance level)" if measure.low < 0 and float(value[0]) == 0 else ""),
                )
            )
    messages = [*warnings, *kind.warnings(counts), *label_set.warnings, *(message for _, message in scoped)]
    notes = list(label_set.notes)

    notes += kind.notes(counts, lset, cells.table, gold_seen | pred_seen)
    inputs = _with_weights(dict(inputs or {}), counts, kind.sample_weights)
    if "sample_weight" in inputs:
        from clfeval.count.weighted import weights_note

        notes.append(weights_note(inputs["sample_weight"]))
    confusion = kind.matrix(counts, lset, cells.table)
    overall = {name: float(v[0]) for name, (v, _) in e.overall.items()}

    values = {m: v[0].tolist() for m, (v, _) in e.per_label.items()}
    counts_of = [a.tolist() for a in (lc.support, lc.predicted, lc.tp, lc.fp, lc.fn, lc.tn)]
    support, predicted, tp, fp, fn, tn = counts_of
    number: Callable[[Any], Any] = float if kind.sample_weights else int  # weighted counts are sums of weights
    rows = {
        lab: LabelScores(
            number(support[i]),
            number(predicted[i]),
            number(tp[i]),
            number(fp[i]),
            number(fn[i]),
            number(tn[i]),
            FrozenDict({m: float(v[i]) for m, v in values.items()}),
        )
        for i, lab in enumerate(lset)
    }
    opts: dict[str, Any] = {"zero_division": _zd_text(zd), "undefined": undefined, **kind.options(counts)}
    opts.update(options or {})
    opts.update({"ordinal": True} if order is not None else {})  # an order declared: weighted κ is given
    if invalid is not None:
        opts["invalid"] = invalid.policy
        notes.append(invalid.describe())
    return Scores(
        task=task,
        n_instances=n,
        beta=beta,
        labels=lset,
        label_source=label_set.source,
        per_label=FrozenDict(rows),
        averages=FrozenDict({k: FrozenDict(v) for k, v in averages.items()}),
        overall=FrozenDict(overall),
        confusion=confusion,
        counts=counts,
        lfb_frequencies=FrozenDict({lab: float(f) for lab, f in zip(lset, freqs)}),
        lfb_source=lfb_source,
        zero_division=zd,
        undefined_policy=undefined,
        undefined=FrozenDict(affected),
        options=FrozenDict(opts),
        warnings=tuple(messages),
        warning_scopes=FrozenDict({message: scope for scope, message in scoped}),
        notes=tuple(notes),
        inputs=FrozenDict(inputs),
        table=cells.table,
        invalid=invalid,
        order=order,
        order_rule=order_rule,
        positive=positive,
        positive_rule=positive_rule,
    )


def _declared_order(
    scoring: Scoring, source: str, label_set: Sequence[str], table: Sequence[str], family: str = SINGLE
) -> tuple[tuple[str, ...] | None, str]:
    """The order of the labels weighted κ reads and how it was declared (:attr:`Scoring.ordinal`), or ``None`` and
    why there is none. The one rule: an order is declared by ``ordinal`` alone (a list: that order; ``True``: the
    declared labels' order, or without them the labels' numerical order), never by ``labels`` alone; a declared order
    places every label of the confusion matrix."""
    if scoring.ordinal is not False and family != SINGLE:  # no measure of label sets or spans reads an order
        raise OptionError(
            f"ordinal= (--ordinal) declares the order weighted κ reads, a measure of single-label data; "
            f"{'label sets' if family == MULTI else 'spans'} have no weighted κ: leave it out"
        )
    if scoring.ordinal is False:
        return None, (
            "no order of the labels was declared (ordinal=[...], --ordinal), so weighted κ (kappa_linear, "
            "kappa_quadratic), which reads one, is not given; labels= alone declares no order"
        )
    if INVALID_LABEL in table:  # invalid=wrong: a prediction with no place on the scale
        return None, (
            f"predictions counted as wrong under invalid='wrong' (the column {INVALID_LABEL}) have no place in the "
            "declared order, so weighted κ (kappa_linear, kappa_quadratic), which reads the distance between labels, "
            "is not given; invalid='omit' leaves them out"
        )
    if source != "given":  # ordinal=True over a policy's labels: numbers, numerically
        check_ordinal(table)
        return tuple(table), "ordinal=True (--ordinal): the labels' numerical order"
    outside = [lab for lab in table if lab not in set(label_set)]
    if outside:
        shown = ", ".join(map(repr, outside[:5])) + (" …" if len(outside) > 5 else "")
        raise OptionError(
            f"the declared order of the labels does not place {shown}, which the data hold: an order for weighted κ "
            "names every label (add them to ordinal= or the --labels file)"
        )
    if isinstance(scoring.ordinal, tuple):
        return tuple(table), "ordinal=[...]: the order given"
    return tuple(table), "ordinal=True (--ordinal) with declared labels (labels=, --labels FILE): their order"


def _positive(pos_label: Any, label_set: Sequence[str], family: str, seen: Collection[str]) -> tuple[str | None, str]:
    """The positive class of a binary problem and the rule that chose it, or ``None`` and why there is none.

    scikit-learn's ``average="binary"`` reads ``pos_label`` (default 1) and refuses data whose two labels do not hold
    it; here: ``pos_label`` when given (one of the two labels, matched as :func:`declared_names` matches declared
    labels), else the label that is the number 1 (named ``1``, ``1.0`` or ``True``), else none (the binary names then
    ask for ``pos_label``)."""
    if family != SINGLE or len(label_set) != 2:
        if pos_label is not None:
            what = {MULTI: "label sets", SPANS: "spans of entity types"}.get(family, f"{len(label_set)} labels")
            raise OptionError(
                f"pos_label= (--positive) names the positive class of a binary problem (two labels, one per instance); "
                f"this has "
                f"{what}: read one class's scores as result['per_label.<label>.f1'], or an average as "
                "result['macro.f1']"
            )
        return None, "not a binary problem (two labels, one per instance)"
    if pos_label is not None:
        (name,) = declared_names([pos_label], set(label_set) | set(seen))
        if name not in label_set:
            raise OptionError(f"pos_label={pos_label!r} (--positive) is not one of the labels {list(label_set)}")
        return name, "pos_label= (--positive)"
    ones = [lab for lab in label_set if number_named(lab) == 1]
    if len(ones) == 1:
        return ones[0], "the label 1, scikit-learn's default pos_label=1"
    return None, (
        f"neither of the labels {list(label_set)} is 1 (scikit-learn's default pos_label=1): name the positive "
        "class with pos_label= (--positive)"
    )


def _with_weights(inputs: dict[str, Any], counts: Any, weighted: bool) -> dict[str, Any]:
    """``inputs`` with ``sample_weight`` ({source, sum, n_instances}) for weighted counts: as the reader named their
    source (``sample_weight=``, a column, or the column a count file names), else ``counts``; the sum and number
    are the counts' own."""
    if not weighted:
        return inputs
    source = inputs.get("sample_weight", {}).get("source") or counts.__dict__.get("weight_source") or "counts"
    return {**inputs, "sample_weight": {"source": source, "sum": counts.weight_sum, "n_instances": counts.n_instances}}
