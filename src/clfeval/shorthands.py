"""The common options as keywords of each task, shorthands for their option groups.

``clfeval.score(y, p, labels=[...], beta=2, zero_division=0)`` means ``scoring=Scoring(labels=[...], beta=2,
zero_division=0)``, as ``ci="delta"`` means ``ci=CI("delta")``: scikit-learn's keywords work where a user tries them
first. Each shorthand is a field of its group, under the same name:

==========================================  ==========================================================
group                                       shorthands
==========================================  ==========================================================
:class:`~clfeval.Scoring` (``scoring=``)    ``labels``, ``beta``, ``zero_division``, ``undefined``, ``invalid``,
                                            ``ordinal``, ``pos_label``
:class:`~clfeval.Test` (``test=``)          ``seed``, ``rounds``, ``alternative``, ``ci``, ``confidence`` (compare)
:class:`~clfeval.CI` (``ci=``)              ``seed``, ``resamples``, ``confidence`` (score and cv)
:class:`~clfeval.MultiLabel` (``multilabel=``)  ``sep`` (implies label sets)
==========================================  ==========================================================

A group and one of its shorthands together is an :class:`~clfeval.OptionError`: the group already says it.

scikit-learn's keywords that clfeval spells another way (``average``, ``target_names``, ``output_dict``, ``digits``,
``normalize``, ``weights``, ``adjusted``, ``y_true`` …) are an :class:`~clfeval.OptionError` that names clfeval's way
(:func:`refuse_keywords`), never Python's "unexpected keyword argument".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from clfeval.count.labelsets import MultiLabel
from clfeval.errors import OptionError
from clfeval.infer.methods import CI
from clfeval.scoring.options import Scoring

if TYPE_CHECKING:
    from clfeval.infer.comparison import Test
    from clfeval.infer.slicing import Slicing

__all__ = [
    "SHORTHANDS",
    "SKLEARN_KEYWORDS",
    "ci_of",
    "labelsets_of",
    "refuse_keywords",
    "scoring_of",
    "slicing_of",
    "test_of",
]

#: Each option group's shorthands: the task keywords that stand for its fields.
SHORTHANDS: Mapping[str, tuple[str, ...]] = {
    "Scoring": ("labels", "beta", "zero_division", "undefined", "invalid", "ordinal", "pos_label"),
    "Test": ("seed", "rounds", "alternative", "ci", "confidence"),
    "CI": ("seed", "resamples", "confidence"),
    "MultiLabel": ("sep",),
    "Slicing": ("metrics", "test", "rounds", "seed"),
}


def _given(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}


def _both(group: str, keyword: str, given: Mapping[str, Any]) -> OptionError:
    names = ", ".join(f"{name}=" for name in given)
    return OptionError(
        f"{names} and {keyword}={group}(...) set the same options: give them as keywords or in {group}(...), not both"
    )


def scoring_of(
    scoring: Scoring | None,
    *,
    labels: Any = None,
    beta: float | None = None,
    zero_division: float | str | None = None,
    undefined: str | None = None,
    invalid: str | None = None,
    ordinal: Any = None,
    pos_label: Any = None,
) -> Scoring:
    """The scoring group: ``scoring``, or one made of its shorthands (defaults: :class:`~clfeval.Scoring`'s).

    >>> scoring_of(None, labels=["a", "b"], beta=2).beta
    2.0
    """
    given = _given(
        labels=labels,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        invalid=invalid,
        ordinal=ordinal,
        pos_label=pos_label,
    )
    if not given:
        return Scoring.of(scoring)
    if scoring is not None:
        raise _both("Scoring", "scoring", given)
    return Scoring(**given)


def test_of(test: str | Test | None, *, seed: int | None = None, rounds: int | None = None,
            alternative: str | None = None, ci: str | CI | None = None,
            confidence: float | None = None) -> Test:  # fmt: skip
    """The test group: ``test`` (a name or a :class:`~clfeval.Test`), with its shorthands when it is a name (``ci``
    and ``confidence``: the interval of each difference and its coverage, the test's own)."""
    from clfeval.infer.comparison import Test

    if isinstance(ci, CI):  # the interval group of score and cv: compare's interval is the test's
        raise OptionError(
            "compare's ci= is the interval of each difference, a name ('bootstrap' or 'none'), not a clfeval.CI: "
            "give ci='bootstrap', confidence=... (or test=Test(ci=..., confidence=...))"
        )
    given = _given(seed=seed, rounds=rounds, alternative=alternative, ci=ci, confidence=confidence)
    if not given:
        return Test.of(test)
    if isinstance(test, Test):
        raise _both("Test", "test", given)
    return Test("ar" if test is None else test, **given)


def slicing_of(
    slicing: Slicing | None,
    *,
    metrics: Any = None,
    test: str | None = None,
    rounds: int | None = None,
    seed: int | None = None,
    grouped: Any = None,
    task: str = "score",
) -> Slicing | None:
    """The slicing group of ``score(..., groups=)``: ``slicing``, or one made of its shorthands (``seed`` is shared
    with the interval's); ``None`` without ``groups``, where ``slicing=``, ``metrics=``, ``test=`` and ``rounds=``
    are an error."""
    from clfeval.infer.slicing import Slicing

    given = _given(metrics=metrics, test=test, rounds=rounds)
    if grouped is None:
        named = [f"{name}=" for name in ("slicing", *given) if name != "slicing" or slicing is not None]
        if named:
            raise OptionError(
                f"{task} takes no {', '.join(named)} without groups=: they say how groups are compared (groups=, each "
                "instance's group); compare's paired tests of systems draw rounds=, an interval's bootstrap "
                "draws resamples="
            )
        return None
    if isinstance(slicing, Slicing):
        if given:
            raise _both("Slicing", "slicing", given)
        return slicing if seed is None or slicing.seed is not None else replace(slicing, seed=seed)
    if slicing is not None:
        raise OptionError(f"slicing is a clfeval.Slicing, not {type(slicing).__name__}")
    if isinstance(given.get("metrics"), str):
        given["metrics"] = (given["metrics"],)
    return Slicing(**given, seed=seed)


def ci_of(
    ci: str | CI | None, *, seed: int | None = None, resamples: int | None = None, confidence: float | None = None
) -> CI | None:
    """The interval group: ``ci`` (a method's name or a :class:`~clfeval.CI`), with its shorthands when it is a name;
    ``None`` for no intervals."""
    given = _given(seed=seed, resamples=resamples, confidence=confidence)
    if not given:
        return CI.of(ci)
    if isinstance(ci, CI):
        raise _both("CI", "ci", given)
    if ci is None or ci == "none":
        names = ", ".join(f"{name}=" for name in given)
        raise OptionError(
            f"{names} set(s) how intervals are made, but ci= asks for none: give ci='bootstrap' or another"
        )
    return CI(ci, **given)


def labelsets_of(multilabel: bool | MultiLabel | None, *, sep: str | None = None) -> MultiLabel | None:
    """The multi-label group: ``multilabel``, or label sets split on ``sep`` (a separator implies label sets)."""
    if sep is None:
        return MultiLabel.of(multilabel)
    if isinstance(multilabel, MultiLabel):
        raise _both("MultiLabel", "multilabel", {"sep": sep})
    if multilabel is False:
        raise OptionError("sep= splits label sets, but multilabel=False says there are none: leave one out")
    return MultiLabel(sep=sep)


def _average(value: Any) -> str:
    if value is None:
        return "average=None is each label's own: result['per_label.<label>.f1'] (result.per_label)"
    if value == "binary":
        return (
            "average='binary' is a binary problem's positive class: result['f1'], result['precision'] and "
            "result['recall'] (pos_label= names the class; default the label 1)"
        )
    if value in ("micro", "macro", "weighted", "samples"):
        note = " (scikit-learn's macro is clfeval's macro, not macro_fa)" if value == "macro" else ""
        return f"every average is computed at once: read result['{value}.f1'], result['{value}.precision'] …{note}"
    return "every average is computed at once: read result['macro.f1'], result['micro.f1'], result['weighted.f1'] …"


#: scikit-learn's keywords that clfeval spells another way → what to write instead (a function of the value given).
SKLEARN_KEYWORDS: Mapping[str, Any] = {
    "average": _average,
    "target_names": lambda v: (
        "the labels are named by their own values: declare the set and its order with labels=[...] (rename them "
        "before scoring for other names)"
    ),
    "output_dict": lambda v: "the result is the dictionary already: result.to_dict() (JSON) or result.flat()",
    "digits": lambda v: (
        "the numbers are kept whole: result.render('text', digits=...) rounds a report (--digits on the command line)"
    ),
    "normalize": lambda v: (
        "result['accuracy'] is the share; the count is result['accuracy'] * result['n_instances'], and the "
        "confusion matrix's counts are result.confusion"
    ),
    "weights": lambda v: (
        "weighted κ is result['kappa_linear'] and result['kappa_quadratic'], given once the labels' order is "
        "declared: ordinal=[...]"
    ),
    "adjusted": lambda v: "the adjusted balanced accuracy is result['balanced_accuracy_adjusted']",
    "y_true": lambda v: "the gold labels are the first argument (gold), positionally or as gold=",
    "y_pred": lambda v: "the predicted labels are the second argument (pred), positionally or as pred=",
    "y_score": lambda v: "scores go in scores=",
    "multi_class": lambda v: "scored predictions give one-vs-rest AUCs per class and averaged: give scores=",
}


#: Shorthands of one task that another task's users reach for: what each is, and the keyword that task takes instead.
_OTHER_TASKS: Mapping[str, str] = {
    "rounds": "rounds= is the number of rounds of compare's paired tests; an interval's bootstrap draws resamples=",
    "resamples": "resamples= is the number of an interval's bootstrap draws (score, cv); compare's tests draw rounds=",
    "alternative": "alternative= is the direction of compare's paired tests",
    "baseline": "baseline= names the system compare tests the others against",
}


def refuse_keywords(task: str, given: Mapping[str, Any]) -> None:
    """Refuse keywords the task does not take: scikit-learn's (:data:`SKLEARN_KEYWORDS`) and another task's
    (``rounds=`` given to score …) with clfeval's way in one line (an :class:`~clfeval.OptionError`), any other as
    Python does (a ``TypeError``).

    >>> refuse_keywords("score", {"average": "macro"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    clfeval.errors.OptionError: score takes no average= (scikit-learn's): every average is computed at once: ...
    """
    for name, value in given.items():
        advice = SKLEARN_KEYWORDS.get(name)
        if advice is not None:
            raise OptionError(f"{task} takes no {name}= (scikit-learn's): {advice(value)}")
        elsewhere = _OTHER_TASKS.get(name)
        if elsewhere is not None:
            raise OptionError(f"{task} takes no {name}=: {elsewhere}")
    if given:
        raise TypeError(f"{task}() got an unexpected keyword argument {next(iter(given))!r}")
