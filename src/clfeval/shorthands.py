"""The common options as keywords of each task, shorthands for their option groups.

``clfeval.score(y, p, labels=[...], beta=2, zero_division=0)`` means ``scoring=Scoring(labels=[...], beta=2,
zero_division=0)``, as ``ci="delta"`` means ``ci=CI("delta")``: scikit-learn's keywords work where a user tries them
first. Each shorthand is a field of its group, under the same name:

==========================================  ==========================================================
group                                       shorthands
==========================================  ==========================================================
:class:`~clfeval.Scoring` (``scoring=``)    ``labels``, ``beta``, ``zero_division``, ``undefined``, ``invalid``
:class:`~clfeval.Test` (``test=``)          ``seed``, ``rounds``, ``alternative``, ``ci``, ``confidence`` (compare)
:class:`~clfeval.CI` (``ci=``)              ``seed``, ``resamples``, ``confidence`` (score and cv)
:class:`~clfeval.MultiLabel` (``multilabel=``)  ``sep`` (implies label sets)
==========================================  ==========================================================

A group and one of its shorthands together is an :class:`~clfeval.OptionError`: the group already says it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from clfeval.count.labelsets import MultiLabel
from clfeval.errors import OptionError
from clfeval.infer.methods import CI
from clfeval.scoring.options import Scoring

if TYPE_CHECKING:
    from clfeval.infer.comparison import Test

__all__ = ["SHORTHANDS", "ci_of", "labelsets_of", "scoring_of", "test_of"]

#: Each option group's shorthands: the task keywords that stand for its fields.
SHORTHANDS: Mapping[str, tuple[str, ...]] = {
    "Scoring": ("labels", "beta", "zero_division", "undefined", "invalid"),
    "Test": ("seed", "rounds", "alternative", "ci", "confidence"),
    "CI": ("seed", "resamples", "confidence"),
    "MultiLabel": ("sep",),
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
) -> Scoring:
    """The scoring group: ``scoring``, or one made of its shorthands (defaults: :class:`~clfeval.Scoring`'s).

    >>> scoring_of(None, labels=["a", "b"], beta=2).beta
    2.0
    """
    given = _given(labels=labels, beta=beta, zero_division=zero_division, undefined=undefined, invalid=invalid)
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
