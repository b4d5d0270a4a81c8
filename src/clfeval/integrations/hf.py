"""Hugging Face: a ``compute_metrics`` for ``transformers.Trainer`` and an ``evaluate``-style ``compute``.

Neither imports transformers, evaluate or a framework: they take what the Trainer hands over (an ``EvalPrediction``,
or a ``(predictions, label_ids)`` tuple) and numpy-convertible arrays (anything with ``__array__``).

How predictions become labels:

* **single-label** (``multilabel=False``): logits (…, K) become their arg max over the last axis; integer class ids
  are taken as they are. Token classification works the same way: (n, T, K) logits and (n, T) label ids are
  flattened, and every position whose label id is ``ignore_index`` (−100, the Trainer's padding) is left out.
* **multi-label**: (n, K) logits are predicted positive where logit > logit(``threshold``), i.e. where
  sigmoid(logit) > ``threshold``; label ids are the (n, K) 0/1 targets.
* **entities** (``spans="iob2"``, or another scheme of :data:`clfeval.SCHEMES`): the label names are tags
  (``B-PER``, ``I-PER``, ``O`` …); (n, T, C) logits (or (n, T) ids) and (n, T) label ids become one sentence of tags
  per row, positions labelled −100 left out (as the Hugging Face token-classification example does), and the scores
  are of entities, not tokens: seqeval's strict mode (``conlleval``: seqeval's default mode), counted through the
  span accumulator (:class:`~clfeval.accumulator.spans.SpanAccumulator`), plus ``token_accuracy`` (seqeval's
  ``accuracy_score``).

The label set is stated, never guessed from one batch: the names in ``labels`` (or ``id2label``, the model
config's mapping), else the ids 0 … K−1 of the model's K outputs. So every evaluation averages over the same K
labels, whatever a batch holds.

>>> import numpy as np
>>> metrics = compute_metrics(["macro.f1", "accuracy"], labels=["neg", "pos"])
>>> logits = np.array([[2.0, -1.0], [0.1, 0.3], [1.0, 0.0], [-2.0, 2.0]])
>>> metrics((logits, np.array([0, 1, 1, 1])))
{'macro.f1': 0.7333333333333334, 'accuracy': 0.75}
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from clfeval.count.labelnames import names_by_id as _names
from clfeval.errors import InputError, OptionError, warn_each
from clfeval.result import flat_name

__all__ = ["IGNORE_INDEX", "compute", "compute_metrics"]

#: The label id the Trainer pads with (``-100``): such positions are not instances.
IGNORE_INDEX = -100


def _array(value: Any, what: str) -> np.ndarray:
    """``value`` as a numpy array (a tensor through ``__array__``; the first of a tuple of model outputs)."""
    if isinstance(value, tuple) and value and hasattr(value[0], "__array__") and not np.isscalar(value[0]):
        value = value[0]  # a model's outputs, as the Trainer hands them over: (logits, hidden states, …)
    try:
        return np.asarray(value)
    except (TypeError, ValueError, RuntimeError) as exc:
        if callable(getattr(value, "float", None)):  # a tensor numpy has no dtype for (bfloat16): as float32
            try:
                return np.asarray(value.float())
            except (TypeError, ValueError, RuntimeError):
                pass
        raise InputError(f"{what}: not an array of numbers ({exc})") from None


def _check_threshold(threshold: float) -> None:
    if not 0.0 < threshold < 1.0:
        raise OptionError(f"threshold must be strictly between 0 and 1, not {threshold!r}")


def _single(
    predictions: np.ndarray, references: np.ndarray, ignore_index: int | None
) -> tuple[np.ndarray, np.ndarray, int | None]:
    """Class ids of predictions and references, padding left out, and the logits' K (``None`` for ids)."""
    k = None
    if predictions.ndim == references.ndim + 1:
        k = predictions.shape[-1]
        if predictions.dtype.kind == "f" and np.isnan(predictions).any():
            raise InputError("predictions: the logits hold NaN (a diverged model?): no class can be chosen")
        predictions = predictions.argmax(axis=-1)
    if predictions.shape != references.shape:
        raise InputError(
            f"predictions of shape {predictions.shape} do not match references of shape {references.shape}: "
            "give logits (…, K) or class ids shaped like the references"
        )
    gold, pred = references.reshape(-1), predictions.reshape(-1)
    if ignore_index is not None:
        keep = gold != ignore_index
        gold, pred = gold[keep], pred[keep]
    for what, ids in (("references", gold), ("predictions", pred)):
        if ids.size and not np.issubdtype(ids.dtype, np.integer) and not np.all(np.mod(ids, 1) == 0):
            raise InputError(f"{what}: class ids must be whole numbers (or give logits with a class axis)")
    return gold.astype(np.int64, copy=False), pred.astype(np.int64, copy=False), k


def _check_ids(ids: np.ndarray, k: int, what: str) -> None:
    if ids.size and (ids.min() < 0 or ids.max() >= k):
        bad = int(ids[(ids < 0) | (ids >= k)][0])
        raise InputError(f"{what}: class id {bad} is outside 0 … {k - 1} (the {k} labels)")


def _label_sets(predictions: np.ndarray, references: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Multi-label: 0/1 indicator matrices of references and of predictions (logit > logit(threshold))."""
    if predictions.ndim != 2 or predictions.shape != references.shape:
        raise InputError(
            f"multi-label predictions must be (n, K) logits shaped like the (n, K) 0/1 references: "
            f"{predictions.shape} and {references.shape}"
        )
    gold = references.astype(np.float64, copy=False)
    if not np.isin(gold, (0.0, 1.0)).all():
        raise InputError("multi-label references must be 0/1 for each label")
    cut = math.log(threshold / (1.0 - threshold))
    return gold.astype(bool), predictions > cut


def compute(
    *,
    predictions: Any,
    references: Any,
    metrics: Sequence[str] | str | None = None,
    labels: Sequence[Any] | None = None,
    id2label: Mapping[Any, Any] | None = None,
    label_names: Sequence[Any] | Mapping[Any, Any] | None = None,
    spans: Any = None,
    multilabel: bool = False,
    threshold: float = 0.5,
    ignore_index: int | None = IGNORE_INDEX,
    scoring: Any = None,
    ci: Any = "none",
    sep: str = "/",
    groups: Any = None,
    slicing: Any = None,
) -> dict[str, float]:
    """Score predictions against references, as ``evaluate``'s ``compute(predictions=, references=)`` does.

    Parameters
    ----------
    predictions, references
        Logits or class ids, and the gold class ids (single-label); (n, K) logits and 0/1 targets (multi-label).
        Any array-like: numpy arrays, lists, tensors on the CPU (through ``__array__``).
    metrics
        Report names to return (``macro.f1``, ``macro_fa.f1``, ``micro.f1``, ``accuracy``, ``mcc``,
        ``per_label.<label>.f1`` …), each under its own name; default: every average's and overall measure
        (:meth:`clfeval.Scores.flat`, names joined by ``sep``).
    labels, id2label, label_names
        The label names by class id (the model config's ``id2label``); default: the ids 0 … K−1. They are the
        stated label set every average runs over. ``label_names`` is either, as a list or a mapping (give one of
        the three).
    spans
        Score entities: a tagging scheme (``"iob2"``, ``"iobes"``, ``"conlleval"`` … or a :class:`clfeval.Spans`),
        the label names being its tags. Predictions are (n, T, C) logits or (n, T) ids, references (n, T) ids; the
        types the tags name are the stated types every average runs over. ``metrics`` then names span metrics
        (``micro.f1``, ``per_label.PER.f1`` …) and ``token_accuracy``; the default is every average's measures, each
        type's (``per_label/<type>/f1`` …) and ``token_accuracy``.
    multilabel, threshold
        Multi-label output: positive where sigmoid(logit) > ``threshold``.
    ignore_index
        The reference id of positions that are not instances (the Trainer's −100 padding); ``None`` keeps all.
    scoring, ci
        As in :func:`clfeval.score` (β, 0/0; an interval method adds ``<name>_ci_low`` / ``_ci_high``); the label
        set comes from ``labels``.
    groups, slicing
        Each row's group (an example's; for token classification and spans, a sequence's, which its tokens
        share), one column or several, in row order, as :func:`clfeval.score` takes ``groups=``. The counts are kept
        per group (a grouped :class:`~clfeval.Accumulator`) and scored by ``score(..., groups=)``'s path: besides
        the overall scores (their names unchanged), ``by_group/<g>/<metric>`` for each group and the largest gap
        ``gap/max/<metric>`` (max − min over groups) and ``ratio/max/<metric>`` (min / max), with ``ci`` their
        intervals (``_ci_low`` / ``_ci_high``); with no ``metrics``, every name of :meth:`clfeval.Sliced.flat` (the
        overall ones without their ``overall/``). ``slicing``: the :class:`~clfeval.Slicing` (default: the metrics
        asked, no test between groups).

    Returns
    -------
    dict
        Name → value (NaN where undefined), flat, for ``Trainer`` logs and trackers.

    Warns
    -----
    ClfevalWarning
        Each warning of the scores that bears on a returned score (a 0/0 set to a value, for example a label never
        predicted, for ``macro.f1`` but not for ``accuracy``; :meth:`clfeval.Scores.warnings_about`), which a dict
        of numbers cannot carry.
    """
    labels, id2label = _by_id(labels, id2label, label_names)
    chosen_spans = _spans(spans, multilabel)
    out, messages = _computed(
        predictions=predictions, references=references, metrics=metrics, labels=labels, id2label=id2label,
        spans=chosen_spans, multilabel=multilabel, threshold=threshold, ignore_index=ignore_index,
        scoring=scoring, ci=ci, sep=sep, groups=_check_groups(groups, slicing), slicing=slicing,
    )  # fmt: skip
    tokens = _token_scores(_names(labels, id2label, None), multilabel) if chosen_spans is None else []
    warn_each([*tokens, *messages])
    return out


def _computed(
    *,
    predictions: Any,
    references: Any,
    metrics: Sequence[str] | str | None,
    labels: Sequence[Any] | None,
    id2label: Mapping[Any, Any] | None,
    spans: Any,
    multilabel: bool,
    threshold: float,
    ignore_index: int | None,
    scoring: Any,
    ci: Any,
    sep: str,
    groups: Any = None,
    slicing: Any = None,
) -> tuple[dict[str, float], tuple[str, ...]]:
    """:func:`compute`'s scores and the warnings of the result that bear on them (all of them for the default)."""
    from clfeval.accumulator import Accumulator
    from clfeval.api import score
    from clfeval.count.confusion import ConfusionCounts
    from clfeval.scoring.options import Scoring

    _check_threshold(threshold)
    p, r = _array(predictions, "predictions"), _array(references, "references")
    chosen = Scoring.of(scoring)
    if chosen.labels is not None or chosen.labels_from is not None:
        raise OptionError("the label set comes from labels= or id2label= (by class id); leave it out of scoring")
    if groups is not None:
        return _by_group(p, r, labels, id2label, spans, multilabel, threshold, ignore_index, chosen, ci, metrics, sep,
                         groups, slicing)  # fmt: skip
    if spans is not None:
        return _entities(p, r, labels, id2label, spans, ignore_index, chosen, ci, metrics, sep)
    if multilabel:
        gold_bits, pred_bits = _label_sets(p, r, threshold)
        names = _names(labels, id2label, p.shape[1])
        assert names is not None
        if len(names) != p.shape[1]:
            raise OptionError(f"{len(names)} label names for {p.shape[1]} outputs")
        acc = Accumulator("multi-label", names)
        acc.update(gold_bits, pred_bits)  # rows packed into bits: label sets built once per distinct pair
        counts: Any = acc.counts
    else:
        gold, pred, k = _single(p, r, ignore_index)
        names = _names(labels, id2label, k)
        if names is not None and k is not None and len(names) != k:
            raise OptionError(f"{len(names)} label names for logits of {k} classes")
        if names is None:
            raise OptionError(
                "class ids without logits do not say how many labels there are: give labels= or id2label=, so "
                "every evaluation averages over the same label set"
            )
        _check_ids(gold, len(names), "references")
        _check_ids(pred, len(names), "predictions")
        acc = Accumulator(labels=range(len(names)))
        acc.update(gold, pred)  # the ids are the codes: one bincount
        by_id = cast(ConfusionCounts, acc.counts)  # a single-label accumulator's counts
        counts = ConfusionCounts.from_entries(names, by_id.gold, by_id.pred, by_id.count)
    result = score(counts, scoring=_declared(chosen, names), ci=ci)
    if metrics is None:
        return result.flat(sep), result.warnings
    return _chosen(result, metrics, {})


def _chosen(
    result: Any, metrics: Sequence[str] | str, extra: dict[str, float]
) -> tuple[dict[str, float], tuple[str, ...]]:
    """The ``metrics`` of ``result`` by name (those of ``extra`` as they are), with their intervals, and the warnings
    that bear on them."""
    from clfeval.scoring.metrics import metric_key
    from clfeval.scoring.statistics import ScoreFunction

    out: dict[str, float] = {}
    bearing: set[str] = set()
    for name in [metrics] if isinstance(metrics, str) else metrics:
        if name in extra:
            out[name] = extra[name]
            continue
        key = metric_key(name, labels=result.labels, task=result.family, beta=result.beta)
        out[name] = ScoreFunction.value_of(result, key)
        bearing.update(result.warnings_about(key))
        if result.intervals is not None:
            bounds = result.intervals.get(key)
            out[name + "_ci_low"], out[name + "_ci_high"] = (math.nan, math.nan) if bounds is None else bounds
    return out, tuple(w for w in result.warnings if w in bearing)


def _check_groups(groups: Any, slicing: Any) -> Any:
    """The groups of the eval set's rows, checked once (``None`` without them, where ``slicing`` is refused)."""
    if groups is None:
        if slicing is not None:
            raise OptionError("slicing= compares groups: give groups= (each row's group)")
        return None
    from clfeval.infer.slicing import Slicing
    from clfeval.inputs.groups import GroupIndex, group_index, group_length

    Slicing.of(slicing)
    if isinstance(groups, GroupIndex):
        return groups
    n = group_length(groups)
    return group_index(groups, n, "row")


def _row_groups(index: Any, rows: int, per_row: int, keep: np.ndarray | None) -> dict[str, np.ndarray]:
    """Each instance's value in each group column: a row's group repeated over its ``per_row`` positions (tokens),
    the positions ``keep`` leaves out dropped."""
    if index.n != rows:
        raise InputError(
            f"groups= names {index.n} rows, this evaluation has {rows}: give the eval set's groups in eval order "
            "(a fixed eval set, not shuffled)"
        )
    code = np.empty(rows, dtype=np.int64)
    for i, members in enumerate(index.members):
        code[members] = i
    code = np.repeat(code, per_row)
    if keep is not None:
        code = code[keep]
    return {c: np.asarray([v[j] for v in index.values], dtype=object)[code] for j, c in enumerate(index.columns)}


def _by_group(
    predictions: np.ndarray,
    references: np.ndarray,
    labels: Sequence[Any] | None,
    id2label: Mapping[Any, Any] | None,
    spans: Any,
    multilabel: bool,
    threshold: float,
    ignore_index: int | None,
    scoring: Any,
    ci: Any,
    metrics: Sequence[str] | str | None,
    sep: str,
    index: Any,
    slicing: Any,
) -> tuple[dict[str, float], tuple[str, ...]]:
    """Scores by group of an eval set: the counts kept per group by a grouped accumulator, scored by
    ``score(..., groups=)``'s path (:func:`clfeval.api.score_grouped_counts`); the overall scores, each group's and
    the largest gap of each metric, flat."""
    from clfeval.accumulator.groups import GroupedAccumulator
    from clfeval.infer.slicing import Slicing

    asked = None if metrics is None else [metrics] if isinstance(metrics, str) else list(metrics)
    gap_metrics = None if asked is None else tuple(m for m in asked if m != "token_accuracy") or None
    chosen_slicing = Slicing.of(slicing)
    if slicing is None:
        chosen_slicing = Slicing(metrics=gap_metrics, test="none")
    elif chosen_slicing.metrics is None and gap_metrics is not None:
        from dataclasses import replace

        chosen_slicing = replace(chosen_slicing, metrics=gap_metrics)
    rows = references.shape[0] if references.ndim else 0
    if spans is not None:
        names = _names(labels, id2label, None)
        if names is None:
            raise OptionError("spans= scores entities: give the tag of each id (label_names=, labels= or id2label=)")
        acc = GroupedAccumulator(
            "spans", spans=spans, id2label=names, ignore_index=ignore_index, groups=list(index.columns)
        )
        acc.update(references, predictions, groups=_row_groups(index, rows, 1, None))
    elif multilabel:
        gold_bits, pred_bits = _label_sets(predictions, references, threshold)
        names = _names(labels, id2label, predictions.shape[1])
        assert names is not None
        if len(names) != predictions.shape[1]:
            raise OptionError(f"{len(names)} label names for {predictions.shape[1]} outputs")
        acc = GroupedAccumulator("multi-label", names, groups=list(index.columns))
        acc.update(gold_bits, pred_bits, groups=_row_groups(index, rows, 1, None))
    else:
        gold, pred, k = _single(predictions, references, ignore_index)
        names = _names(labels, id2label, k)
        if names is None:
            raise OptionError(
                "class ids without logits do not say how many labels there are: give labels= or id2label=, so "
                "every evaluation averages over the same label set"
            )
        if k is not None and len(names) != k:
            raise OptionError(f"{len(names)} label names for logits of {k} classes")
        _check_ids(gold, len(names), "references")
        _check_ids(pred, len(names), "predictions")
        flat = references.reshape(-1)
        keep = None if ignore_index is None else flat != ignore_index
        per_row = int(np.prod(references.shape[1:], dtype=np.int64)) if references.ndim > 1 else 1
        named = np.asarray(names, dtype=object)
        acc = GroupedAccumulator(labels=names, groups=list(index.columns))
        acc.update(named[gold], named[pred], groups=_row_groups(index, rows, per_row, keep))
    result = acc.score(ci=ci, scoring=_declared(scoring, names) if spans is None else scoring, slicing=chosen_slicing)
    extra: dict[str, float] = {}
    by_tokens: dict[str, float] = {}
    if spans is not None:
        extra["token_accuracy"] = _token_accuracy(acc.counts)
        by_tokens = {g: _token_accuracy(a.counts) for g, a in acc.by_group.items()}
    if asked is None:
        out: dict[str, float] = {}
        head = f"overall{sep}"
        for name, value in result.flat(sep, per_label=spans is not None).items():
            out[name[len(head) :] if name.startswith(head) else name] = value
        out.update(extra)
        out.update({flat_name(["by_group", g, "token_accuracy"], sep): v for g, v in by_tokens.items()})
        return out, result.warnings
    out, messages = _chosen(result.overall, asked, extra)
    for name in asked:
        for group in result.names:
            key = flat_name(["by_group", group, name], sep)
            if name == "token_accuracy":
                out[key] = by_tokens.get(group, math.nan)
                continue
            out[key] = result.value(group, name)
            if result.overall.intervals is not None:
                bounds = result.interval(f"by_group.{group}.{name}")
                out[key + "_ci_low"], out[key + "_ci_high"] = (math.nan, math.nan) if bounds is None else bounds
        if name == "token_accuracy":
            continue
        gap = result.gap(name)
        for what, value, bounds in (("gap", gap.difference, gap.difference_ci), ("ratio", gap.ratio, gap.ratio_ci)):
            key = flat_name([what, "max", name], sep)
            out[key] = value
            if result.overall.intervals is not None:
                out[key + "_ci_low"], out[key + "_ci_high"] = (math.nan, math.nan) if bounds is None else bounds
    group_warnings = tuple(w for w in result.warnings if w.startswith("group "))
    return out, (*messages, *group_warnings)


def _token_accuracy(counts: Any) -> float:
    """seqeval's token accuracy of span counts (NaN without tokens)."""
    tokens = counts.tokens
    return tokens.right / tokens.tokens if tokens is not None and tokens.tokens else math.nan


def _entities(
    predictions: np.ndarray,
    references: np.ndarray,
    labels: Sequence[Any] | None,
    id2label: Mapping[Any, Any] | None,
    spans: Any,
    ignore_index: int | None,
    scoring: Any,
    ci: Any,
    metrics: Sequence[str] | str | None,
    sep: str,
) -> tuple[dict[str, float], tuple[str, ...]]:
    """Entity scores of a token classifier's tag ids (the span accumulator's path) and the token accuracy."""
    from clfeval.accumulator.spans import SpanAccumulator

    names = _names(labels, id2label, None)
    if names is None:
        raise OptionError("spans= scores entities: give the tag of each id (label_names=, labels= or id2label=)")
    acc = SpanAccumulator("spans", spans=spans, id2label=names, ignore_index=ignore_index)
    acc.update(references, predictions)
    result = acc.score(scoring=scoring, ci=ci)
    tokens = acc.counts.tokens
    accuracy = {"token_accuracy": tokens.right / tokens.tokens if tokens is not None and tokens.tokens else math.nan}
    if metrics is None:
        return {**result.flat(sep, per_label=True), **accuracy}, result.warnings
    return _chosen(result, metrics, accuracy)


def _by_id(
    labels: Sequence[Any] | None, id2label: Mapping[Any, Any] | None, label_names: Any
) -> tuple[Sequence[Any] | None, Mapping[Any, Any] | None]:
    """``labels`` and ``id2label``, ``label_names`` (a list or a mapping) taken as the one it is."""
    if label_names is None:
        return labels, id2label
    if labels is not None or id2label is not None:
        raise OptionError("give one of label_names, labels and id2label: each names the labels by class id")
    return (None, label_names) if isinstance(label_names, Mapping) else (label_names, None)


def _spans(spans: Any, multilabel: bool) -> Any:
    """The span options of ``spans=`` (``None``: labels, not entities), checked now."""
    from clfeval.spans.options import Spans

    chosen = Spans.of(spans)
    if chosen is not None and multilabel:
        raise OptionError("spans= scores a tagger's entities, multilabel=True label sets: give one")
    return chosen


def _declared(scoring: Any, names: list[str]) -> Any:
    from dataclasses import replace

    return replace(scoring, labels=tuple(names))


def _token_scores(names: Sequence[Any] | None, multilabel: bool) -> list[str]:
    """The warning that label names which look like a tagger's tags (``O``, ``B-PER``, ``I-PER`` …: see
    :func:`~clfeval.spans.lists.tag_scheme`) are scored as tokens without ``spans=``; none for other names."""
    from clfeval.spans.lists import tag_scheme

    tags = [] if names is None or multilabel else [str(name) for name in names]
    scheme = tag_scheme([tags]) if len(tags) > 1 else None
    if scheme is None:
        return []
    shown = ", ".join(tags[:3]) + (" …" if len(tags) > 3 else "")
    return [  # the scores are right, of tokens; what a NER user wants is spans=
        f"the labels look like the tags of a tagger ({shown}): these metrics score each token as a label; "
        f"spans={scheme!r} scores entities (the precision, recall and F1 of seqeval and NER papers)"
    ]


def compute_metrics(
    metrics: Sequence[str] | str | None = None,
    *,
    labels: Sequence[Any] | None = None,
    id2label: Mapping[Any, Any] | None = None,
    label_names: Sequence[Any] | Mapping[Any, Any] | None = None,
    spans: Any = None,
    multilabel: bool = False,
    threshold: float = 0.5,
    ignore_index: int | None = IGNORE_INDEX,
    scoring: Any = None,
    ci: Any = "none",
    sep: str = "/",
    groups: Any = None,
    slicing: Any = None,
) -> Callable[[Any], dict[str, float]]:
    """A ``compute_metrics`` for ``transformers.Trainer(compute_metrics=...)``: it takes the ``EvalPrediction``
    (or a ``(predictions, label_ids)`` tuple) and returns a flat dict of scores; the options are :func:`compute`'s,
    checked here, once, before any evaluation runs (metric names with β, a per-label metric's label when the
    labels are given, and with ``spans=`` the tags). The scores' warnings are issued as
    :class:`~clfeval.ClfevalWarning`, as :func:`compute`'s.

    Entity F1 for token classification (NER)::

        compute_metrics = clfeval.hf.compute_metrics(spans="iob2", label_names=model.config.id2label)
        Trainer(model, args, ..., compute_metrics=compute_metrics)   # logs micro/f1, per_label/PER/f1 … per epoch

    Scores by group of a fixed eval set (``groups=``: each row's group, in eval order; see :func:`compute`)::

        compute_metrics = clfeval.hf.compute_metrics(["macro.f1"], labels=names, groups=eval_set["lang"])
        # logs macro.f1, by_group/es/macro.f1 …, gap/max/macro.f1, ratio/max/macro.f1
    """
    from clfeval.scoring.options import Scoring

    labels, id2label = _by_id(labels, id2label, label_names)
    chosen_spans = _spans(spans, multilabel)
    options: dict[str, Any] = {
        "metrics": metrics, "labels": labels, "id2label": id2label, "spans": chosen_spans, "multilabel": multilabel,
        "threshold": threshold, "ignore_index": ignore_index, "scoring": scoring, "ci": ci, "sep": sep,
        "groups": _check_groups(groups, slicing), "slicing": slicing,
    }  # fmt: skip
    from clfeval.infer.methods import CI

    _check_threshold(threshold)
    names = _names(labels, id2label, None)
    chosen = Scoring.of(scoring)
    CI.of(ci)  # an unknown method fails here, not after the first evaluation
    if chosen_spans is not None:
        from clfeval.accumulator.spans import SpanAccumulator

        if names is None:
            raise OptionError("spans= scores entities: give the tag of each id (label_names=, labels= or id2label=)")
        types = SpanAccumulator("spans", spans=chosen_spans, id2label=names).labels  # the tags are checked now
        if metrics is not None:
            from clfeval.scoring.metrics import metric_key

            for name in [metrics] if isinstance(metrics, str) else metrics:
                if name != "token_accuracy":
                    metric_key(name, labels=types, task="spans", beta=chosen.beta)
    else:
        warn_each(_token_scores(names, multilabel))
    if chosen_spans is None and metrics is not None:
        from clfeval.api import check_metrics
        from clfeval.scoring.metrics import metric_key

        check_metrics(metrics, multilabel=multilabel, beta=chosen.beta)
        if names is not None:  # a per-label metric's label is known now too
            task = "multi-label" if multilabel else "single-label"
            for name in [metrics] if isinstance(metrics, str) else metrics:
                metric_key(name, labels=names, task=task, beta=chosen.beta)

    def evaluate(prediction: Any) -> dict[str, float]:
        if hasattr(prediction, "predictions") and hasattr(prediction, "label_ids"):
            predictions, references = prediction.predictions, prediction.label_ids
        else:
            try:
                predictions, references = prediction
            except (TypeError, ValueError):
                raise InputError("compute_metrics takes an EvalPrediction or (predictions, label_ids)") from None
        out, messages = _computed(predictions=predictions, references=references, **options)
        warn_each(messages)  # at the Trainer's line, as compute's are at its caller's
        return out

    return evaluate
