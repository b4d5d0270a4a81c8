"""scikit-learn integration: any clfeval score as a scorer, and cross-validation from ``cross_val_predict``.

:func:`scorer` turns a report name (``macro.f1``, ``macro_fa.f1``, ``weighted.recall``, ``mcc``,
``per_label.<label>.f1`` …) into a callable ``scorer(estimator, X, y)`` that scikit-learn takes as
``scoring=`` in :func:`~sklearn.model_selection.cross_val_score`, :class:`~sklearn.model_selection.GridSearchCV`,
:func:`~sklearn.model_selection.permutation_test_score` and anywhere else a callable scorer goes. Each fold is
scored over one stated label set (the estimator's ``classes_`` unless declared), so a fold that lacks a class
still averages over every class. :func:`cv` scores the out-of-fold predictions of
:func:`~sklearn.model_selection.cross_val_predict` pooled and fold by fold (:func:`clfeval.cv`), given the same
splits; :func:`folds_of` gives each instance's fold.

This module imports scikit-learn only where it needs it; ``import clfeval`` does not import this module.

Examples
--------
>>> from sklearn.datasets import make_classification
>>> from sklearn.model_selection import KFold, cross_val_predict, cross_val_score
>>> from sklearn.tree import DecisionTreeClassifier
>>> from clfeval.sklearn import cv, scorer
>>> X, y = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=0)
>>> tree = DecisionTreeClassifier(max_depth=3, random_state=0)
>>> fa = scorer("macro_fa.f1")
>>> fa, fa.greater_is_better
(clfeval.sklearn.scorer('macro_fa.f1'), True)
>>> cross_val_score(tree, X, y, cv=3, scoring=fa).round(2).tolist()
[0.58, 0.87, 0.73]
>>> scorer("hamming_loss").greater_is_better  # returned negated, as scikit-learn's neg_* scorers
False
>>> folds = KFold(3, shuffle=True, random_state=0)
>>> result = cv(y, cross_val_predict(tree, X, y, cv=folds), folds.split(X, y))
>>> round(result.pooled.averages["macro"]["f"], 4), result.fold_names
(0.7568, ('0', '1', '2'))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.count.labelnames import declared_names, is_number, label_name, number_named, spellings
from clfeval.count.labelsets import EMPTY_LABEL, MultiLabel
from clfeval.errors import InputError, OptionError, warn_each
from clfeval.inputs.arrays import count_labels, exact_array, kinds_present
from clfeval.scoring.metrics import higher_is_better, metric_key
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import f_key
from clfeval.scoring.scores import Key, Scores
from clfeval.scoring.sklearnnames import binary_measure

if TYPE_CHECKING:
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.methods import CI
    from clfeval.infer.slices import Sliced
    from clfeval.infer.slicing import Slicing

__all__ = ["Scorer", "cv", "folds_of", "scorer"]

#: The most instance numbers an error message lists.
_SHOWN = 10


class Scorer:
    """A clfeval score as a scikit-learn scorer: ``scorer(estimator, X, y_true)`` → float. Build with :func:`scorer`.

    Picklable (joblib sends it to worker processes when ``n_jobs > 1``).

    Attributes
    ----------
    metric
        The report name of the score (``macro.f1``, ``mcc``, ``per_label.<label>.f1`` …).
    labels
        The declared label set (single-label) or the labels of the indicator columns (multi-label), or None.
    scoring
        The :class:`~clfeval.Scoring` options (β, 0/0, label policy, training data), or None for the defaults.
    multilabel
        The :class:`~clfeval.MultiLabel` options when ``y`` is a multi-label indicator matrix, else None.
    greater_is_better
        Whether a higher value of the metric is better. When false (Hamming loss, micro FPR, per-label FPR
        and FNR) the scorer returns the value negated, so that greater is better for scikit-learn.
    """

    def __init__(
        self,
        metric: str,
        *,
        labels: Sequence[Any] | np.ndarray | None = None,
        scoring: Scoring | None = None,
        multilabel: bool | MultiLabel = False,
        slicing: Slicing | None = None,
    ) -> None:
        if not isinstance(metric, str):
            raise OptionError(f"metric is a report name such as 'macro.f1', not {type(metric).__name__}")
        chosen = Scoring.of(scoring)
        self.metric = metric
        self.labels = None if labels is None else _label_list(labels)
        self.scoring = scoring
        self.multilabel = MultiLabel.of(multilabel)
        known: Sequence[Any] | None = self.labels if self.labels is not None else chosen.labels
        if self.multilabel is not None:
            _column_labels(self.labels, chosen)  # column labels given twice: refuse now
            if known is not None:
                known = _declared(_named(known), self.multilabel)
        elif self.labels is not None:
            _with_labels(chosen, self.labels)  # labels given twice, or with another label policy: refuse now
        self.by_group: _ByGroup | None = _by_group(metric, self.multilabel is not None, chosen.beta, known)
        self.slicing = slicing
        if self.by_group is None and slicing is not None:
            raise OptionError(f"slicing= is for scores by group (gap.max.{metric} …), not {metric!r}")
        inner = metric if self.by_group is None else self.by_group.metric
        self._key = _checked_key(inner, self.multilabel is not None, chosen.beta, known)
        self.greater_is_better = higher_is_better(self._key)
        if self.by_group is not None:
            self.greater_is_better = self.by_group.higher_is_better(self.greater_is_better)
        self._weight_request: bool | str | None = True
        self._groups_request: bool | str | None = True if self.by_group is not None else None

    def set_score_request(
        self, *, sample_weight: bool | str | None = True, sensitive_features: bool | str | None = None
    ) -> Scorer:
        """Whether scikit-learn's metadata routing (``sklearn.set_config(enable_metadata_routing=True)``) passes
        ``sample_weight`` to this scorer: requested by default, so that ``cross_validate(..., params={"sample_weight":
        w})`` weighs the scores as it weighs the fit; ``False`` scores without weights, a string names an alias.
        ``sensitive_features`` (scores by group only; requested by default): ``False`` leaves it unrouted, a string
        routes another parameter's values as the groups (``"groups"``: the splitter's groups)."""
        self._weight_request = sample_weight
        if sensitive_features is not None:
            if self.by_group is None:
                raise OptionError(f"sensitive_features is routed to scores by group (gap.max.… ), not {self.metric!r}")
            self._groups_request = sensitive_features
        return self

    def get_metadata_routing(self) -> Any:
        """The metadata this scorer's ``score`` takes (scikit-learn's routing protocol): ``sample_weight`` and, for
        scores by group, ``sensitive_features``, requested as :meth:`set_score_request` says."""
        from sklearn.utils.metadata_routing import MetadataRequest  # type: ignore[import-untyped]

        request = MetadataRequest(owner=type(self).__name__)
        request.score.add_request(param="sample_weight", alias=self._weight_request)
        if self.by_group is not None:
            request.score.add_request(param="sensitive_features", alias=self._groups_request)
        return request

    def __call__(
        self, estimator: Any, X: Any, y_true: Any, sample_weight: Any = None, sensitive_features: Any = None
    ) -> float:
        """Score ``estimator.predict(X)`` against ``y_true``: the metric's value (negated when lower is better).

        ``sample_weight`` (one weight ≥ 0 per instance of ``X``, as scikit-learn routes it) weighs the instances as
        :func:`clfeval.score`'s ``sample_weight=`` does. ``sensitive_features`` (scores by group: each instance's
        group, one column or several, as ``clfeval.score(..., groups=)`` takes them; routed as scikit-learn routes
        metadata, cut to the test fold) is required by a score by group and refused by any other.

        Warns
        -----
        ClfevalWarning
            For each warning of the fold's scores that bears on the metric (a label never predicted, for
            ``macro.f1``), as scikit-learn's ``UndefinedMetricWarning``: the float cannot say it.
        """
        classes = getattr(estimator, "classes_", None)
        if self.by_group is not None or sensitive_features is not None:
            return self._by_group_value(
                y_true, estimator.predict(X), classes=classes, sample_weight=sample_weight, groups=sensitive_features
            )
        result = self.scores(y_true, estimator.predict(X), classes=classes, sample_weight=sample_weight)
        _refuse_outside(result)
        key = self._key_in(result)
        warn_each(result.warnings_about(key))  # as scikit-learn's UndefinedMetricWarning: a float cannot say 0/0
        value = self._value_at(result, key)
        return value if self.greater_is_better else -value

    def scores(self, y_true: Any, y_pred: Any, *, classes: Any = None, sample_weight: Any = None) -> Scores:
        """The whole :class:`~clfeval.Scores` of one fold's predictions, over the label set the scorer chooses.

        Parameters
        ----------
        y_true, y_pred
            Single-label: labels (1-D). Multi-label: n × K 0/1 indicator matrices (column j is label
            ``labels[j]``, else j), dense or scipy.sparse.
        classes
            The fitted estimator's ``classes_``: single-label scores average over these (plus any label of the
            fold outside them) unless labels were declared. Ignored for multi-label data.
        sample_weight
            One weight ≥ 0 per instance, as :func:`clfeval.score` takes it.
        """
        chosen = Scoring.of(self.scoring)
        from clfeval.api import score

        if self.multilabel is not None:
            gold, pred = _indicators(y_true, "y_true"), _indicators(y_pred, "y_pred")
            if gold.shape != pred.shape:
                raise InputError(f"y_true and y_pred have shapes {gold.shape} and {pred.shape}")
            names = _column_names(_column_labels(self.labels, chosen), gold.shape[1])
            if _open(chosen):
                chosen = _with_labels(chosen, _declared(names, self.multilabel))
            counted = _label_set_counts(gold, pred, names, self.multilabel, sample_weight)
            return score(counted, scoring=chosen)
        gold, pred = _labels_1d(y_true, "y_true"), _labels_1d(y_pred, "y_pred")
        if self.labels is not None:
            chosen = _with_labels(chosen, self.labels)
        elif _open(chosen) and classes is not None and np.ndim(classes) == 1:
            chosen = _with_labels(chosen, _classes_and_rest(np.asarray(classes), gold, pred))
        if chosen.labels is None or sample_weight is not None:  # weights: named jointly with the declared labels too
            return score(gold, pred, scoring=chosen, sample_weight=sample_weight)
        # the data named jointly with the declared labels (labelnames): declared 0/1 beside boolean y are the labels
        # 0 and 1, classes_ 0.0 and 1.0 beside integer y are 0 and 1
        return score(count_labels(gold, pred, labels=chosen.labels), scoring=chosen)

    def _by_group_value(self, y_true: Any, y_pred: Any, *, classes: Any, sample_weight: Any, groups: Any) -> float:
        """The value of a score by group in one fold (negated when lower is better): NaN, with a warning, when the
        fold lacks the group named or holds one group only."""
        if self.by_group is None:
            raise OptionError(
                f"sensitive_features groups the instances: {self.metric!r} is not a score by group (by_group.<g>."
                f"{self.metric}, gap.max.{self.metric} …)"
            )
        if groups is None:
            raise InputError(
                f"{self.metric!r} is a score by group: pass each instance's group as sensitive_features (in "
                "cross_validate: sklearn.set_config(enable_metadata_routing=True) and params={'sensitive_features': G})"
            )
        from clfeval.inputs.groups import group_index

        names = group_index(groups, len(np.asarray(y_pred)), "instance").names
        missing = [g for g in self.by_group.needed if g not in names]
        if len(names) < 2 or missing:
            why = f"no instance of group {missing[0]!r}" if len(names) > 1 else f"one group only ({names[0]!r})"
            warn_each([f"{self.metric}: this fold holds {why}: its value is NaN"])
            return math.nan
        result = self.scores_by_group(y_true, y_pred, groups, classes=classes, sample_weight=sample_weight)
        value = self.by_group.value(result)
        return value if self.greater_is_better else -value

    def scores_by_group(
        self, y_true: Any, y_pred: Any, groups: Any, *, classes: Any = None, sample_weight: Any = None
    ) -> Sliced:
        """Scores by group of one fold's predictions (:func:`clfeval.score` with ``groups=``), over the label set the
        scorer chooses (as :meth:`scores`), the gaps and tests of the scorer's metric."""
        from clfeval.api import score
        from clfeval.infer.slicing import Slicing

        if self.multilabel is not None:
            raise OptionError("scores by group score single labels here: give multi-label y to clfeval.score(groups=)")
        chosen = Scoring.of(self.scoring)
        gold, pred = _labels_1d(y_true, "y_true"), _labels_1d(y_pred, "y_pred")
        if self.labels is not None:
            chosen = _with_labels(chosen, self.labels)
        elif _open(chosen) and classes is not None and np.ndim(classes) == 1:
            chosen = _with_labels(chosen, _classes_and_rest(np.asarray(classes), gold, pred))
        assert self.by_group is not None
        inner = self.by_group.metric
        slicing = self.slicing if self.slicing is not None else Slicing(metrics=(inner,), test=self.by_group.test)
        if self.slicing is not None and self.slicing.metrics is not None and inner not in self.slicing.metrics:
            slicing = replace(self.slicing, metrics=(*self.slicing.metrics, inner))
        elif self.slicing is not None and self.slicing.metrics is None:
            slicing = replace(self.slicing, metrics=(inner,))
        return score(gold, pred, groups=groups, scoring=chosen, sample_weight=sample_weight, slicing=slicing)

    def value(self, scores: Scores) -> float:
        """The metric's value in ``scores`` (not negated).

        Raises
        ------
        OptionError
            For a per-label metric whose label is not in the label set of ``scores``.
        """
        return self._value_at(scores, self._key_in(scores))

    def _key_in(self, scores: Scores) -> Key:
        """The metric's key in ``scores``; a per-label metric's label may be another spelling of an equal number
        (``per_label.1.f1`` over boolean ``y``, whose labels are ``False`` and ``True``), as scikit-learn's
        ``pos_label=1`` is."""
        if binary_measure(self.metric, scores.beta) is not None:
            return scores.key_of(self.metric)  # the positive class's (Scores.positive), or why there is none
        try:
            return metric_key(self.metric, labels=scores.labels, task=scores.family, beta=scores.beta)
        except OptionError as unknown:
            if not self.metric.startswith("per_label."):
                raise
            respelled: dict[str, str] = {}
            for label in scores.labels:
                number = number_named(label)
                if number is not None:
                    respelled.update((name, label) for name in spellings(number) if name not in scores.labels)
            try:
                key = metric_key(self.metric, labels=(*scores.labels, *respelled), task=scores.family, beta=scores.beta)
            except OptionError:
                raise unknown from None
            return (key[0], respelled.get(key[1], key[1]), *key[2:])

    @staticmethod
    def _value_at(scores: Scores, key: Key) -> float:
        from clfeval.scoring.statistics import ScoreFunction

        return ScoreFunction.value_of(scores, key)

    def __repr__(self) -> str:
        shown = [repr(self.metric)]
        if self.labels is not None:
            shown.append(f"labels={list(self.labels)!r}")
        if self.scoring is not None:
            shown.append(f"scoring={self.scoring!r}")
        if self.multilabel is not None:
            shown.append(f"multilabel={True if self.multilabel == MultiLabel() else self.multilabel!r}")
        if self.slicing is not None:
            shown.append(f"slicing={self.slicing!r}")
        return f"clfeval.sklearn.scorer({', '.join(shown)})"


#: What a score by group reads from a :class:`~clfeval.Sliced`, by the first part of its name.
_BY_GROUP_NAMES: dict[str, str] = {
    "by_group": "by_group.<group>.<metric>: one group's value of the metric",
    "group_min": "group_min.<metric>: the smallest group value (the worst group when higher is better; fairlearn's "
    "MetricFrame.group_min)",
    "group_max": "group_max.<metric>: the largest group value (fairlearn's MetricFrame.group_max)",
    "gap": "gap.max.<metric> (max − min over groups; lower is better, returned negated), gap.<a>_vs_<b>.<metric>, "
    "gap.<a>_vs_rest.<metric> (a − b)",
    "ratio": "ratio.max.<metric> (min / max over groups; higher is better), ratio.<a>_vs_<b>.<metric>, "
    "ratio.<a>_vs_rest.<metric> (a / b)",
    "p": "p.<a>_vs_<b>.<metric>, p.<a>_vs_rest.<metric>: the test's p-value between the groups (Slicing.test)",
    "p_holm": "p_holm.<a>_vs_<b>.<metric>: the Holm-adjusted p-value",
}


@dataclass(frozen=True)
class _ByGroup:
    """A score by group: what it reads (``by_group``, ``gap`` …), of which metric, between which groups."""

    what: str
    between: str | None  # by_group: the group; gap, ratio, p, p_holm: max, <a>_vs_<b>, <a>_vs_rest
    metric: str

    @property
    def needed(self) -> list[str]:
        """The groups the value needs in the fold (a group's, a pair's)."""
        if self.what == "by_group":
            return [str(self.between)]
        if self.between is None or self.between == "max":
            return []
        a, _, b = self.between.partition("_vs_")
        return [a] if b == "rest" else [a, b]

    @property
    def test(self) -> str:
        """The test between groups the value needs: ``none`` unless it is a p-value."""
        return "permutation" if self.what in ("p", "p_holm") else "none"

    def higher_is_better(self, metric_higher: bool) -> bool:
        """Whether a higher value is better: the metric's direction for a group's value or a difference a − b; the
        largest gap lower, its ratio (min / max) higher, a p-value higher (less evidence of a difference)."""
        if self.what == "gap" and self.between == "max":
            return False
        if self.what in ("ratio", "p", "p_holm") and (self.between == "max" or self.what != "ratio"):
            return True
        return metric_higher

    def value(self, result: Sliced) -> float:
        """The value in one fold's scores by group."""
        if self.what == "group_min":
            return result.group_min(self.metric)
        if self.what == "group_max":
            return result.group_max(self.metric)
        if self.what in ("gap", "ratio") and self.between != "max":
            a, _, b = str(self.between).partition("_vs_")
            gap = result.gap(self.metric, a, b)  # either order of a pair
            return gap.difference if self.what == "gap" else gap.ratio
        if self.what in ("p", "p_holm"):
            a, _, b = str(self.between).partition("_vs_")
            name = f"{self.what}.{b}_vs_{a}.{self.metric}"
            if b != "rest" and name in result:  # a pair's test is named in the groups' order
                return float(result[name])
        return float(result[f"{self.what}.{self.between}.{self.metric}"])


def _by_group(metric: str, multilabel: bool, beta: float, known: Sequence[Any] | None) -> _ByGroup | None:
    """The score by group a name asks for, or ``None`` for a plain metric; the metric is the longest tail of the
    name that is a metric (a group's name may hold dots)."""
    head, _, rest = metric.partition(".")
    if head not in _BY_GROUP_NAMES:
        return None
    if multilabel:
        raise OptionError(f"{metric!r}: scores by group score single labels here (not multilabel=)")
    if head in ("group_min", "group_max"):
        return _ByGroup(head, None, rest)
    parts = rest.split(".")
    for cut in range(1, len(parts)):
        between, inner = ".".join(parts[:cut]), ".".join(parts[cut:])
        try:
            _checked_key(inner, multilabel, beta, known)
        except OptionError:
            continue
        if head != "by_group" and between != "max" and "_vs_" not in between:
            break
        if head in ("p", "p_holm") and between == "max":
            break
        return _ByGroup(head, between, inner)
    if len(parts) > 1 and (head == "by_group" or parts[0] == "max" or "_vs_" in parts[0]):
        _checked_key(".".join(parts[1:]), multilabel, beta, known)  # the groups are well named: the metric is not
    raise OptionError(f"unknown score by group {metric!r}; valid: " + "; ".join(_BY_GROUP_NAMES.values()))


def scorer(
    metric: str,
    *,
    labels: Sequence[Any] | np.ndarray | None = None,
    scoring: Scoring | None = None,
    multilabel: bool | MultiLabel = False,
    slicing: Slicing | None = None,
) -> Scorer:
    """A scikit-learn scorer of any clfeval score, for ``scoring=`` in cross-validation and model selection.

    Parameters
    ----------
    metric
        The report name of the score: ``<average>.<measure>`` (``macro.f1``, ``macro_fa.f1``,
        ``micro.f1``, ``weighted.recall``, ``lfb.precision``, ``samples.f1`` for multi-label …), an overall
        measure (``accuracy``, ``balanced_accuracy``, ``mcc``, ``kappa``, ``hamming_loss``, ``micro_fpr`` …) or
        ``per_label.<label>.<measure>`` (``per_label.2.f1``). Checked here, before anything is fitted: an unknown
        name fails with the valid forms listed (a per-label metric's label is checked against the label set when
        the labels are declared, else when a fold is scored).
    labels
        Single-label: the label set L every fold averages over, in report order. Multi-label: the label of each
        indicator column, in column order.
    scoring
        :class:`~clfeval.Scoring`: β, the value of 0/0 and whether such labels stay in averages, training data
        for ``lfb``; its ``labels`` act as ``labels`` (give them in one place only), and an explicit label policy
        (``labels_from``) is kept as it is.
    multilabel
        ``True`` (or a :class:`~clfeval.MultiLabel`, for its ``empty`` policy): ``y`` is an n × K 0/1
        indicator matrix, scikit-learn's multi-label format; column j is label ``labels[j]`` (else j).
    slicing
        Scores by group only: the :class:`~clfeval.Slicing` of each fold's ``clfeval.score(..., groups=)`` (the test
        of a ``p.…`` score, its rounds and seed); default: the metric alone, no test (a permutation test for p).

    Scores by group (single labels): a metric named ``by_group.<group>.<metric>``, ``group_min.<metric>`` (the
    worst group when higher is better), ``group_max.<metric>``, ``gap.max.<metric>`` (max − min, returned negated),
    ``ratio.max.<metric>`` (min / max), ``gap.<a>_vs_<b>.<metric>``, ``gap.<a>_vs_rest.<metric>``, ``ratio.…``,
    ``p.<a>_vs_<b>.<metric>`` or ``p_holm.…`` is read from each fold's :class:`~clfeval.Sliced`. Each instance's
    group comes as the metadata ``sensitive_features`` (fairlearn's name), which scikit-learn routes to the scorer
    with ``sklearn.set_config(enable_metadata_routing=True)`` and ``cross_validate(..., params={"sensitive_features":
    G})``, cut to each test fold. It is not called ``groups``: a splitter such as ``GroupKFold`` consumes ``groups``
    (patients, sessions: the units kept together), which are not the groups compared (language, sex, hospital);
    ``set_score_request(sensitive_features="groups")`` routes the splitter's groups when they are the same. A fold
    without the group named, or with one group only, scores NaN with a warning.

    Returns
    -------
    Scorer
        ``scorer(estimator, X, y_true)`` calls ``estimator.predict(X)`` and returns the metric's value over the
        label set; ``greater_is_better`` says whether it was negated.

    Raises
    ------
    OptionError
        For an unknown metric, a metric of the other task (``samples.f1`` without ``multilabel``, ``mcc`` with
        it) or labels given both as ``labels`` and in ``scoring``.

    Notes
    -----
    The label set L is explicit and, as far as the data allow, the same in every fold:

    * ``labels`` (or ``scoring.labels``) when given;
    * else, single-label: the fitted estimator's ``classes_`` (the labels it was trained on), followed by any
      label of the fold outside them. A test fold that lacks a class (and predicts none of it) still averages
      over every class, with that class's ratios 0/0 (``Scoring.zero_division``, 0 by default), where
      scikit-learn's ``f1_macro`` averages over the fold's gold ∪ predicted labels only. Estimators without
      ``classes_`` get gold ∪ predicted. Declare ``labels`` when a training fold may lack a class;
    * else, multi-label: every indicator column (and ``NONE`` when ``MultiLabel(empty="label")`` makes the empty
      set a label);
    * a label policy set in ``scoring`` (``labels_from="gold"``, or ``"train"`` with training data) is used as it
      is.

    Averages are as in :data:`clfeval.AVERAGES`: macro F1 is the mean of per-label F1 (AF, scikit-learn's
    ``f1_macro``); macro_fa F1 is F1 of macro precision P̄ and macro recall R̄: 2·P̄·R̄ / (P̄ + R̄) (FA).

    Measures where lower is better (``hamming_loss``, ``micro_fpr``, ``per_label.<label>.fpr`` and ``.fnr``) are
    returned negated, as scikit-learn's ``neg_*`` scorers are (``greater_is_better`` is false), so that model
    selection maximises the scorer's value.

    ``sample_weight`` is refused with an :class:`~clfeval.OptionError`: clfeval counts whole instances.

    Examples
    --------
    >>> s = scorer("micro_fpr", labels=["a", "b", "c"])
    >>> s, s.greater_is_better
    (clfeval.sklearn.scorer('micro_fpr', labels=['a', 'b', 'c']), False)
    >>> scorer("macro.f2")
    Traceback (most recent call last):
    ...
    clfeval.errors.OptionError: unknown metric 'macro.f2'; valid: <average>.<measure> with average one of micro, ...
    """
    return Scorer(metric, labels=labels, scoring=scoring, multilabel=multilabel, slicing=slicing)


def folds_of(splits: Iterable[tuple[Any, Any]], n_samples: int) -> np.ndarray:
    """Each instance's fold: the number (from 0, in the order of ``splits``) of the test fold that holds it.

    Parameters
    ----------
    splits
        (train indices, test indices) pairs, as a splitter's ``split(X, y)`` gives them; test indices are
        integer positions (or boolean masks of length ``n_samples``).
    n_samples
        The number of instances.

    Returns
    -------
    numpy.ndarray
        ``folds[i]`` = the fold whose test set holds instance i (int64, length ``n_samples``).

    Raises
    ------
    InputError
        When an instance is in no test fold or in more than one (every instance must be in exactly one, as
        ``cross_val_predict`` requires), or a test index is out of range.

    Examples
    --------
    >>> folds_of([([2, 3], [0, 1]), ([0, 1], [2, 3])], 4).tolist()
    [0, 0, 1, 1]
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise OptionError(f"n_samples must be a positive integer, not {n_samples!r}")
    n = int(n_samples)
    if hasattr(splits, "split") and hasattr(splits, "get_n_splits"):
        raise OptionError(
            "splits is a splitter: pass splitter.split(X, y) (with the X, y and groups given to cross_val_predict, "
            "and a fixed random_state when it shuffles)"
        )
    tests: list[np.ndarray] = []
    for i, pair in enumerate(splits):
        try:
            _, indices = pair
        except (TypeError, ValueError):
            raise InputError(f"split {i} is not a (train indices, test indices) pair") from None
        test = np.asarray(indices)
        if test.size == 0:
            raise InputError(f"split {i} has no test instances")
        if test.dtype.kind == "b":
            if test.shape != (n,):
                raise InputError(f"the test mask of split {i} has shape {test.shape}, not ({n},)")
            test = np.flatnonzero(test)
        elif test.ndim != 1 or test.dtype.kind not in "iu":
            raise InputError(f"the test indices of split {i} are not a one-dimensional array of integers")
        outside = (test < 0) | (test >= n)
        if outside.any():
            raise InputError(f"split {i} holds test index {int(test[outside][0])}, outside 0 … {n - 1}")
        tests.append(test.astype(np.int64, copy=False))
    if not tests:
        raise InputError("no splits: cross-validation needs at least one (train, test) pair")
    every = np.concatenate(tests)
    times = np.bincount(every, minlength=n)
    if (times != 1).any():
        missing, repeated = np.flatnonzero(times == 0), np.flatnonzero(times > 1)
        problems = [
            f"{what} {_instances(where)}"
            for what, where in (("in no test fold:", missing), ("in more than one test fold:", repeated))
            if where.size
        ]
        raise InputError(
            f"every instance must be in exactly one test fold (as cross_val_predict requires); instances "
            f"{'; instances '.join(problems)}"
        )
    folds = np.empty(n, dtype=np.int64)
    folds[every] = np.repeat(np.arange(len(tests), dtype=np.int64), [len(t) for t in tests])
    return folds


def cv(
    y: Any,
    y_pred: Any,
    splits: Iterable[Any],
    *,
    labels: Sequence[Any] | np.ndarray | None = None,
    scoring: Scoring | None = None,
    ci: str | CI | None = "none",
    multilabel: bool | MultiLabel = False,
    warn_above: float = 0.01,
    sample_weight: Any = None,
    sensitive_features: Any = None,
) -> CrossValidation | Sliced:
    """Cross-validation of ``cross_val_predict`` output: pooled (the folds' counts added, then scored) and mean of
    folds (each fold scored, then mean ± sd), as :func:`clfeval.cv`.

    Parameters
    ----------
    y, y_pred
        The gold labels and ``cross_val_predict(estimator, X, y, cv=splitter)``: 1-D labels, or with
        ``multilabel`` n × K 0/1 indicator matrices (dense or scipy.sparse).
    splits
        The (train indices, test indices) pairs of ``splitter.split(X, y)`` (the splitter given to
        ``cross_val_predict``, with a fixed ``random_state`` when it shuffles), or each instance's fold (a 1-D
        array of length n). Folds from pairs are named ``0``, ``1`` … in split order, as scikit-learn's
        ``split0_test_score`` …
    labels
        Single-label: the label set (default: the pooled gold ∪ predicted labels). Multi-label: each indicator
        column's label (default 0 … K − 1); every column is in the label set.
    scoring, ci, multilabel, warn_above
        As in :func:`clfeval.cv` (``scoring.labels`` act as ``labels``).
    sample_weight
        One weight ≥ 0 per instance, as :func:`clfeval.cv` takes it: each fold and the pooled counts are weighted.
    sensitive_features
        Each instance's group (one column or several), as the scorers by group take it: the result is then
        ``clfeval.cv(..., groups=)``'s, each group's counts pooled over the folds (a :class:`~clfeval.Sliced`).

    Returns
    -------
    CrossValidation
        ``pooled`` (F_tp,fp), ``folds`` (each fold's scores over the pooled label set) and ``mean_of_folds()``;
        with ``sensitive_features``, a :class:`~clfeval.Sliced`.

    Raises
    ------
    InputError
        When an instance is in no test fold or in several (see :func:`folds_of`), or the inputs' lengths differ.
    """
    from clfeval.api import cv as cv_task

    chosen, ml = Scoring.of(scoring), MultiLabel.of(multilabel)
    declared = None if labels is None else _label_list(labels)
    if ml is not None:
        gold, pred = _indicators(y, "y"), _indicators(y_pred, "y_pred")
        if gold.shape != pred.shape:
            raise InputError(f"y and y_pred have shapes {gold.shape} and {pred.shape}")
        names = _column_names(_column_labels(declared, chosen), gold.shape[1])
        if _open(chosen):
            chosen = _with_labels(chosen, _declared(names, ml))
    else:
        if declared is not None:
            chosen = _with_labels(chosen, declared)
        gold, pred = _labels_1d(y, "y"), _labels_1d(y_pred, "y_pred")
        if len(gold) != len(pred):
            raise InputError(f"y and y_pred have {len(gold)} and {len(pred)} instances")
    n = len(gold)
    names_of_folds, members = _fold_members(splits, n)
    if sensitive_features is not None:  # each group pooled over the folds: clfeval.cv(..., groups=)
        fold_of = np.empty(n, dtype=object)
        for name, idx in zip(names_of_folds, members):
            fold_of[idx] = name
        return cv_task(gold, pred, fold_of, groups=sensitive_features, scoring=chosen, ci=ci,
                       multilabel=ml, sample_weight=sample_weight)  # fmt: skip
    # every fold named jointly with the whole data and the declared labels, so a label has one name in every fold
    context = None if ml is not None else [*(declared or ()), *kinds_present(gold), *kinds_present(pred)]
    folds: dict[str, Any] = {}
    w = None
    if sample_weight is not None:
        from clfeval.count.weighted import check_sample_weight
        from clfeval.inputs.arrays import count_weighted_labels

        w = check_sample_weight(sample_weight, n)
    for name, idx in zip(names_of_folds, members):
        if ml is not None:
            folds[name] = _label_set_counts(gold[idx], pred[idx], names, ml, None if w is None else w[idx])
        elif w is not None:
            folds[name] = count_weighted_labels(gold[idx], pred[idx], w[idx], labels=context, roles=("y", "y_pred"))
        else:
            folds[name] = count_labels(gold[idx], pred[idx], labels=context)
    return cv_task(folds, scoring=chosen, ci=ci, warn_above=warn_above)


def _fold_members(splits: Iterable[Any], n: int) -> tuple[list[str], list[np.ndarray]]:
    """Fold names and each fold's instance positions, from (train, test) pairs or a per-instance fold array."""
    if hasattr(splits, "to_numpy") and type(splits).__module__.startswith(("pandas", "polars")):
        splits = splits.to_numpy()
    if isinstance(splits, np.ndarray) and splits.ndim == 1 and splits.dtype.kind != "O":
        fold_array: np.ndarray | None = splits
    elif isinstance(splits, Sequence) and not isinstance(splits, str) and splits and _scalar(splits[0]):
        fold_array = np.asarray(splits)
    else:
        fold_array = None
    if fold_array is None:
        numbers = folds_of(splits, n)
        k = int(numbers.max()) + 1
        order = np.argsort(numbers, kind="stable")
        bounds = np.cumsum(np.bincount(numbers, minlength=k))[:-1]
        return [str(i) for i in range(k)], np.split(order, bounds)
    if len(fold_array) != n:
        raise InputError(f"the fold array has {len(fold_array)} entries for {n} instances")
    values, codes = np.unique(fold_array, return_inverse=True)
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(values)))[:-1]
    return [str(v) for v in values.tolist()], np.split(order, bounds)


def _scalar(value: Any) -> bool:
    """Whether ``value`` is one fold name (not a (train, test) pair)."""
    return isinstance(value, (str, bytes)) or (not isinstance(value, (tuple, list)) and np.ndim(value) == 0)


def _checked_key(metric: str, multilabel: bool, beta: float, labels: Sequence[Any] | None) -> Key:
    """The score key of ``metric``, checked as far as can be before any data: the name and its task always, a
    per-label metric's label when the labels are declared."""
    from clfeval.api import check_metrics

    task = "multi-label" if multilabel else "single-label"
    measure = binary_measure(metric, beta)
    if measure is not None:  # a binary problem's positive class's (Scoring(pos_label=...), default the label 1)
        if multilabel:
            raise OptionError(f"{metric!r} is a binary problem's {metric} of its positive class: name an average of "
                              f"label sets (macro.{metric}, micro.{metric} …)")  # fmt: skip
        return ("per_label", "", measure)  # the positive class is known once the data are
    if labels is not None:
        return metric_key(metric, labels=_named(labels), task=task, beta=beta)
    check_metrics(metric, multilabel=multilabel, beta=beta)
    if not metric.startswith("per_label."):
        return metric_key(metric, labels=(), task=task, beta=beta)
    from clfeval.scoring.measures import label_measures

    measures = [f_key(beta) if m.name == "f" else m.name for m in label_measures()]
    measure = max((m for m in measures if metric.endswith("." + m)), key=len)
    label = metric[len("per_label.") : len(metric) - len(measure) - 1]
    return metric_key(metric, labels=(label,), task=task, beta=beta)


def _label_list(labels: Any) -> tuple[Any, ...]:
    """Declared labels as a tuple of Python values (numpy's booleans as Python's: named ``False`` and ``True``)."""
    if isinstance(labels, str):
        raise OptionError(f"labels is a list of labels, not the string {labels!r}")
    if isinstance(labels, np.ndarray):
        return tuple(labels.tolist())
    return tuple(bool(x) if isinstance(x, np.bool_) else x for x in labels)


def _refuse_outside(result: Scores) -> None:
    """A scorer's fold must not hold labels outside a declared label set: they would drop out of every average
    and leave a score (0 for a set that matches nothing) that looks like a result."""
    if result.label_source != "given":
        return
    from clfeval.scoring.computation import seen_labels

    gold, pred = seen_labels(result.counts)
    outside = sorted((gold | pred) - set(result.labels))
    if outside:
        shown = ", ".join(map(repr, outside[:5])) + (" …" if len(outside) > 5 else "")
        raise InputError(
            f"the fold holds labels outside the declared labels ({', '.join(map(repr, result.labels[:5]))}"
            f"{' …' if len(result.labels) > 5 else ''}): {shown}; declare every label (labels=), or leave labels "
            "out to take the estimator's classes_"
        )


def _open(scoring: Scoring) -> bool:
    """Whether the label set is still open: no labels declared and no label policy chosen in ``scoring``."""
    return scoring.labels is None and scoring.labels_from is None


def _with_labels(scoring: Scoring, labels: Sequence[Any]) -> Scoring:
    """``scoring`` with the declared label set ``labels``, refusing a second label set or another policy."""
    if scoring.labels is not None and tuple(scoring.labels) != tuple(labels):
        raise OptionError("labels are given twice, as labels= and as scoring.labels: give them in one place")
    if scoring.labels_from not in (None, "given"):
        raise OptionError(
            f"labels= declares the label set, but scoring chooses the label source {scoring.labels_from!r}: "
            "give one of them"
        )
    return replace(scoring, labels=tuple(labels), labels_from="given")


def _labels_1d(values: Any, role: str) -> np.ndarray:
    """Single-label labels as a 1-D numpy array; a list as the array that holds each value exactly with its kind
    (:func:`~clfeval.inputs.arrays.exact_array`: ``[2**63 + 5, 3]`` is not floats, ``[True, 2]`` keeps its boolean)."""
    flat = isinstance(values, (list, tuple)) and not any(isinstance(v, (list, tuple, np.ndarray)) for v in values)
    array = exact_array(values) if flat else np.asarray(values)
    if array.ndim != 1:
        raise OptionError(
            f"{role} has shape {array.shape}: single-label data is one label per instance (for an n × K "
            "multi-label indicator matrix use multilabel=True)"
        )
    return array


def _classes_and_rest(classes: np.ndarray, gold: np.ndarray, pred: np.ndarray) -> list[Any]:
    """The estimator's classes, then (sorted by name) every label of the fold that equals none of them.

    An estimator may hold its classes in another type than ``y``: fitted on a pandas ``Int64`` Series, ``classes_``
    is float (``0.0``, ``1.0``) while the fold's labels are the integers ``0``, ``1``. Such a label is its class, not
    one of the rest (Python's equality: ``1 == 1.0``), and the fold is named jointly with the classes by the one rule
    (:mod:`clfeval.count.labelnames`: ``0`` and ``1``), so it has two labels, not four that halve every macro score.
    """
    seen = kinds_present(gold) + kinds_present(pred)
    listed = classes.tolist()
    equal = {c for c in listed if is_number(c) and c == c}
    known = {c if isinstance(c, str) else label_name(c) for c in listed if c not in equal}
    rest: dict[str, Any] = {}
    for v in seen:
        if is_number(v) and v == v:
            if v not in equal:
                rest.setdefault(label_name(v), v)  # pred 1.0 is gold's class 1
        elif (v if isinstance(v, str) else str(v)) not in known:
            rest.setdefault(v if isinstance(v, str) else str(v), v)
    return [*listed, *(rest[name] for name in sorted(rest))]


def _named(labels: Sequence[Any]) -> tuple[str, ...]:
    """Declared labels' names by the one rule (:func:`~clfeval.count.labelnames.declared_names`): ``0.0`` is ``0``."""
    return tuple(declared_names(list(labels), ()))


def _indicators(values: Any, role: str) -> np.ndarray:
    """A multi-label indicator matrix as a dense n × K boolean array."""
    if hasattr(values, "toarray") and hasattr(values, "nnz"):  # scipy.sparse
        values = values.toarray()
    array = np.asarray(values)
    if array.ndim != 2:
        raise OptionError(
            f"{role} has shape {array.shape}: multilabel=True takes an n × K 0/1 indicator matrix, scikit-learn's "
            "multi-label format (label sets go to clfeval.score and clfeval.cv)"
        )
    if array.dtype.kind == "b":
        return array
    if array.dtype.kind not in "iuf":
        raise InputError(f"the indicator matrix {role} holds {array.dtype} values, not 0/1")
    bad = (array != 0) & (array != 1)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise InputError(f"is {array[row, col].item()!r}: an indicator matrix holds only 0 and 1", role, index=int(row))
    return array.astype(bool)


def _column_labels(labels: Sequence[Any] | None, scoring: Scoring) -> Sequence[Any] | None:
    """The labels of the indicator columns: ``labels`` or ``scoring.labels`` (refusing both), else None."""
    if labels is not None and scoring.labels is not None:
        raise OptionError("labels are given twice, as labels= and as scoring.labels: give them in one place")
    return labels if labels is not None else scoring.labels


def _column_names(labels: Sequence[Any] | None, k: int) -> tuple[str, ...]:
    """The label of each indicator column: ``labels`` in order (named by the rule), else the column numbers."""
    if labels is None:
        return tuple(str(j) for j in range(k))
    if len(labels) != k:
        raise InputError(f"the indicator matrix has {k} columns but {len(labels)} labels are given")
    return _named(labels)


def _declared(names: tuple[str, ...], ml: MultiLabel) -> tuple[str, ...]:
    """The label set of indicator columns: every column, and the empty set's label when it is one."""
    return names + (EMPTY_LABEL,) if ml.empty == "label" and EMPTY_LABEL not in names else names


def _label_set_counts(
    gold: np.ndarray, pred: np.ndarray, names: Sequence[str], ml: MultiLabel, sample_weight: Any = None
) -> Any:
    """Counts of the (gold set, predicted set) pairs of two indicator matrices, through
    :class:`~clfeval.accumulator.Accumulator` (rows packed into bits, label sets built once per unique pair); with
    ``sample_weight``, their weighted counts."""
    from clfeval.accumulator import Accumulator

    if gold.shape[0] == 0:
        raise InputError("no instances: the indicator matrices are empty")
    acc = Accumulator("multi-label", names, multilabel=ml)
    acc.update(gold, pred, sample_weight=sample_weight)
    return acc.counts  # a multi-label accumulator's counts (weighted with sample_weight)


def _instances(where: np.ndarray) -> str:
    shown = ", ".join(map(str, where[:_SHOWN].tolist()))
    return shown + (f" … ({where.size} in all)" if where.size > _SHOWN else "")
