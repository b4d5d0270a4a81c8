"""Measures of one's own: :func:`register_measure` adds an entry to :data:`~clfeval.MEASURES`, checked, and
:func:`unregister_measure` takes it out again.

A registered measure is a function of the counts' sums (:data:`~clfeval.scoring.measures.SUMS`) that declares the
sums it reads. Everything that reads the registry then treats it as a built-in measure: scores, the averages (a
per-label measure marked ``averaged``), every interval method, the paired tests (``compare --metric``), ``cv``,
``flat()``, the reports (shown by default), the JSON and ``clfeval explain``. The command line registers the
measures of the modules (or ``.py`` files) named in the environment variable ``CLFEVAL_MEASURES``
(:func:`register_from_environment`).

>>> import numpy as np
>>> def f_half(tp, fp, fn):
...     with np.errstate(invalid="ignore", divide="ignore"):
...         return 1.25 * tp / (1.25 * tp + 0.25 * fn + fp)
>>> _ = register_measure(
...     "f_half", f_half, reads=("tp", "fp", "fn"), definition="F with β = 0.5", direction="higher", averaged=True
... )
>>> import clfeval
>>> round(clfeval.score(["a", "b", "b", "a"], ["a", "b", "a", "a"])["macro.f_half"], 4)
0.7738
>>> unregister_measure("f_half")
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.errors import OptionError
from clfeval.scoring.measures import MEASURES, SPANS, SUMS, Measure, Setting, Tallies, Values
from clfeval.scoring.parts import Parts, Separable

__all__ = [
    "ENVIRONMENT",
    "SCOPE_SUMS",
    "register_from_environment",
    "register_measure",
    "registered_measures",
    "unregister_measure",
]

#: The environment variable whose modules (comma-separated names, or paths of ``.py`` files) the command line
#: imports before it runs, so the measures they register are there for ``score``, ``compare``, ``explain`` …
ENVIRONMENT = "CLFEVAL_MEASURES"

#: The sums a registered measure of each scope may read (names of :data:`~clfeval.scoring.measures.SUMS`). A
#: per-label measure reads one label's tp, fp, fn, tn; an overall one those of every label of the label set and the
#: data set's scalar sums. (``samples``, the multi-label per-instance sums, are the samples average's.)
SCOPE_SUMS = {
    "label": ("tp", "fp", "fn", "tn"),
    "overall": ("tp", "fp", "fn", "tn", "n", "exact", "disagreement_linear", "disagreement_quadratic"),
}
_PER_LABEL = frozenset({"tp", "fp", "fn", "tn"})
_DIRECTIONS = {"higher": True, "lower": False}
_TASKS = ("single-label", "multi-label", SPANS)
#: The sums of each task's counts: spans have no true negatives (nor instances, nor exact matches); weighted κ's
#: disagreements are single-label sums.
_TASK_SUMS = {
    "single-label": frozenset(SCOPE_SUMS["overall"]),
    "multi-label": frozenset({"tp", "fp", "fn", "tn", "n", "exact"}),
    SPANS: frozenset({"tp", "fp", "fn"}),
}
_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: Names a measure cannot take: the other keys of the JSON documents its value would sit beside (a score's top
#: level, a label's row, an average's object), the groups of ``--measures``, and the names of counts.
_RESERVED = frozenset(
    {
        "schema", "clfeval_version", "signature", "task", "n_instances", "beta", "labels", "label_source",
        "per_label", "averages", "ci", "confusion_matrix", "zero_division", "options", "inputs", "warnings", "notes",
        "registered_measures", "support", "predicted", "frequencies", "weights", "default", "counts", "all",
        "systems", "pairs", "scores", "ranking", "comparisons", "results", "folds", "pooled", "differences",
        "metric", "test", "unit", "seed", "alpha", "rounds", "baseline", "spans", "scored", "samples", "micro",
        "macro", "macro_fa", "weighted", "lfb",
    }
)  # fmt: skip


@dataclass(frozen=True)
class _LabelComputation:
    """A registered per-label measure as the registry computes one: (tp, fp, fn, tn, setting) → (values, undefined),
    elementwise; the function's NaN is 0/0, given the ``zero_division`` value."""

    function: Callable[..., Any]
    reads: tuple[str, ...]

    def __call__(self, tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, tn: np.ndarray, s: Setting) -> Values:
        given = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
        shape = np.broadcast_shapes(*(np.shape(given[name]) for name in self.reads))
        return _values(self.function(**{name: given[name] for name in self.reads}), shape, s)


@dataclass(frozen=True)
class _OverallComputation:
    """A registered overall measure: (tallies, setting) → (B,) values and where they are 0/0. ``tp`` … are (B, |L|)
    arrays over the label set, ``n``, ``exact`` and the disagreements (B,)."""

    function: Callable[..., Any]
    reads: tuple[str, ...]

    def __call__(self, t: Tallies, s: Setting) -> Values:
        return self.combine({}, t, s)

    def combine(self, reduced: Any, t: Tallies, s: Setting) -> Values:
        tp, fp, fn, tn = t.label_set()
        given: dict[str, Any] = {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "n": t.n, "exact": t.exact}
        for name in self.reads:
            if name.startswith("disagreement_"):
                given[name] = t.disagreement[name.removeprefix("disagreement_")]
        return _values(self.function(**{name: given[name] for name in self.reads}), np.shape(t.n), s)


def _no_parts(t: Tallies, s: Setting) -> Parts:
    return {}


def _values(out: Any, shape: tuple[int, ...], s: Setting) -> Values:
    """A registered function's values as the registry's: of the sums' shape exactly (no broadcast that would hide
    a reduction over the wrong axis), 0/0 (NaN) given the ``zero_division`` value."""
    values = np.asarray(out, dtype=np.float64)
    if values.shape != shape:
        raise OptionError(f"compute returned shape {values.shape} for sums of shape {shape}")
    undefined = np.isnan(values)
    return np.where(undefined, s.zero_division, values), undefined


def registered_measures() -> tuple[str, ...]:
    """The names of the measures registered with :func:`register_measure`, in registration order."""
    return tuple(name for name, m in MEASURES.items() if m.registered)


def register_measure(
    name: str,
    compute: Callable[..., Any],
    *,
    reads: Iterable[str],
    definition: str,
    direction: str,
    scope: str = "label",
    averaged: bool | None = None,
    tasks: Iterable[str] = ("single-label", "multi-label"),
    range: tuple[float, float] = (0.0, 1.0),  # the word clfeval explain uses
    title: str | None = None,
    undefined_when: str | None = None,
    references: Sequence[str] = (),
) -> Measure:
    """Add a measure of one's own to :data:`~clfeval.MEASURES`; it is then scored, averaged, given intervals and
    tested like a built-in one.

    Parameters
    ----------
    name
        Its name in the JSON, ``flat()``, ``--metric`` and ``clfeval explain``: lower-case letters, digits and ``_``,
        no built-in name (``f1``, ``mcc``, ``macro`` …) and no other key of the JSON it sits in.
    compute
        A vectorised function of the sums it reads, each passed as a keyword array: a per-label measure gets one
        label's counts elementwise (arrays of any shape, e.g. (B, K) for B resamples of K labels) and returns an
        array of their shape; an overall measure gets ``tp``, ``fp``, ``fn``, ``tn`` as (B, |L|) arrays (a column
        per label of the label set) and ``n``, ``exact``, ``disagreement_linear``, ``disagreement_quadratic`` as
        (B,) arrays, and returns (B,) values. NaN marks 0/0: the result gives it the ``zero_division`` value and
        lists it, as for a built-in measure. The counts may be fractional (the delta method moves them by small
        steps).
    reads
        The sums ``compute`` takes, names of :data:`~clfeval.scoring.measures.SUMS` (:data:`SCOPE_SUMS` by
        scope): the bootstrap, the jackknife and the randomization tests move exactly these.
    definition
        The formula in words (what ``clfeval explain`` and every report's notes say).
    direction
        ``"higher"`` or ``"lower"``: which is better (paired tests' direction, rankings).
    scope
        ``"label"`` (one value per label) or ``"overall"`` (one for the data set).
    averaged
        A per-label measure: whether every average (micro, macro, weighted …) averages it; default ``True``. An
        overall measure is never averaged.
    tasks
        ``single-label``, ``multi-label`` and ``spans`` (a per-label measure reading no ``tn``).
    range
        Its (low, high) values; a Wald interval is clipped to it.
    title, undefined_when, references
        How tables name it (default: ``name``), when it is 0/0 in words, and where it is defined.

    Returns
    -------
    Measure
        The registry entry (``registered=True``).

    Raises
    ------
    OptionError
        For a name taken or malformed, a sum unknown or out of its scope or task, a direction other than
        ``higher``/``lower``, a bad range, an unknown task, or a ``compute`` that fails on a trial table or
        returns the wrong shape.

    Notes
    -----
    The delta method differentiates ``compute`` numerically: a per-label measure label by label (O(types +
    labels)); an overall measure that reads only the scalar sums likewise; an overall measure that reads the
    per-label sums has no per-label parts to differentiate, so its scores are differentiated cell type by cell
    type (:func:`~clfeval.infer.delta.type_delta_variances`), as are the bootstrap's and the jackknife's
    replicates computed from the whole sums.
    """
    _check_name(name)
    if not callable(compute):
        raise OptionError(f"register_measure({name!r}): compute is a function of the sums, not {compute!r}")
    if scope not in SCOPE_SUMS:
        raise OptionError(f"register_measure({name!r}): scope is 'label' or 'overall', not {scope!r}")
    if direction not in _DIRECTIONS:
        raise OptionError(
            f"register_measure({name!r}): direction is 'higher' or 'lower' (which is better), not {direction!r}"
        )
    read = _reads(name, reads, scope)
    chosen_tasks = _tasks(name, tasks, read)
    low, high = _range(name, range)
    if not isinstance(definition, str) or not definition.strip():
        raise OptionError(f"register_measure({name!r}): give its definition, the formula in words")
    if averaged is not None and scope == "overall":
        raise OptionError(f"register_measure({name!r}): an overall measure is not averaged; leave averaged out")
    ordered = any(r.startswith("disagreement_") for r in read)
    if scope == "label":
        computation: Any = _LabelComputation(compute, read)
    elif _PER_LABEL & set(read):
        computation = _OverallComputation(compute, read)
    else:  # scalar sums only: parts of none, and the delta method's per-sum derivatives hold
        computation = Separable(_no_parts, _OverallComputation(compute, read).combine)
    _trial(name, computation, scope)
    measure = Measure(
        name,
        title or name,
        definition.strip(),
        scope,
        chosen_tasks,
        _DIRECTIONS[direction],
        low,
        high,
        True if averaged is None and scope == "label" else bool(averaged),
        undefined_when or "its function gives NaN (0/0)",
        computation,
        ordered=ordered,
        references=tuple(references),
        reads=frozenset(read),
        registered=True,
    )
    MEASURES[name] = measure  # type: ignore[index]  # the registry is a dict: built-ins, then registered ones
    return measure


def unregister_measure(name: str) -> None:
    """Take the measure ``name`` that :func:`register_measure` added out of :data:`~clfeval.MEASURES`.

    Raises
    ------
    OptionError
        If ``name`` is a built-in measure or not registered.
    """
    measure = MEASURES.get(name)
    if measure is None or not measure.registered:
        what = "a built-in measure" if measure is not None else "not a registered measure"
        shown = ", ".join(registered_measures()) or "none"
        raise OptionError(f"unregister_measure: {name!r} is {what} (registered: {shown})")
    del MEASURES[name]  # type: ignore[attr-defined]


def _check_name(name: object) -> None:
    from clfeval.scoring.averages import AVERAGES
    from clfeval.scoring.scoredmeasures import SCORED_MEASURES

    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise OptionError(
            f"a measure's name is lower-case letters, digits and _ (starting with a letter), not {name!r}"
        )
    taken = {alias: m.name for m in MEASURES.values() for alias in (m.name, *m.aliases.values())}
    if name in taken:
        registered = MEASURES[taken[name]].registered
        raise OptionError(
            f"the measure {name!r} exists ({'registered: unregister_measure it first' if registered else 'built in'})"
        )
    if re.fullmatch(r"f\d+(_\d+)?", name) or name in AVERAGES or name in SCORED_MEASURES or name in SUMS:
        raise OptionError(f"{name!r} is a name clfeval gives to a score or a sum already: choose another")
    if name in _RESERVED or name.endswith(("_ci", "_ci_low", "_ci_high")):
        raise OptionError(f"{name!r} is a key of clfeval's JSON beside the measures: choose another name")


def _reads(name: str, reads: Iterable[str], scope: str) -> tuple[str, ...]:
    if isinstance(reads, str) or not isinstance(reads, Iterable):
        raise OptionError(f"register_measure({name!r}): reads is a list of sums, e.g. ('tp', 'fp'), not {reads!r}")
    read = tuple(dict.fromkeys(reads))
    if not read:
        raise OptionError(f"register_measure({name!r}): declare the sums it reads (reads=, from {', '.join(SUMS)})")
    unknown = [r for r in read if r not in SUMS]
    if unknown:
        raise OptionError(
            f"register_measure({name!r}) reads {', '.join(map(repr, unknown))}, which are not sums; the sums: "
            f"{', '.join(SUMS)}"
        )
    outside = [r for r in read if r not in SCOPE_SUMS[scope]]
    if outside:
        raise OptionError(
            f"register_measure({name!r}): a measure of scope {scope!r} reads {', '.join(SCOPE_SUMS[scope])}, not "
            f"{', '.join(map(repr, outside))}"
        )
    return read


def _tasks(name: str, tasks: Iterable[str], read: tuple[str, ...]) -> frozenset[str]:
    chosen = (tasks,) if isinstance(tasks, str) else tuple(tasks)
    unknown = [t for t in chosen if t not in _TASKS]
    if unknown or not chosen:
        raise OptionError(f"register_measure({name!r}): tasks are some of {', '.join(_TASKS)}, not {list(chosen)}")
    for task in chosen:
        missing = [r for r in read if r not in _TASK_SUMS[task]]
        if missing:
            raise OptionError(
                f"register_measure({name!r}): {task} counts have no {', '.join(missing)}; leave {task} out of tasks"
            )
    return frozenset(chosen)


def _range(name: str, bounds: Any) -> tuple[float, float]:
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise OptionError(f"register_measure({name!r}): range is (low, high), not {bounds!r}") from None
    if math.isnan(low) or math.isnan(high) or not low < high:
        raise OptionError(f"register_measure({name!r}): range needs low < high, not ({low}, {high})")
    return low, high


def _trial(name: str, computation: Any, scope: str) -> None:
    """Run the computation on a small table of two resamples of three labels: a function that fails, or returns
    the wrong shape, is refused now, not in the middle of a bootstrap."""
    tp = np.array([[3.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    fp, fn = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]]), np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 2.0]])
    n = np.array([8.0, 6.0])
    tn = n[:, None] - tp - fp - fn
    setting = Setting(1.0, 0.0)
    try:
        with np.errstate(all="ignore"):
            if scope == "label":
                values, _ = computation(tp, fp, fn, tn, setting)
                expected: tuple[int, ...] = tp.shape
            else:
                t = Tallies(tp, fp, fn, tn, 3, n, tp.sum(axis=1), {"linear": n / 2, "quadratic": n})
                values, _ = computation(t, setting)
                expected = n.shape
    except OptionError as exc:
        raise OptionError(f"register_measure({name!r}): {exc}") from None
    except Exception as exc:  # any failure of the user's function, named
        raise OptionError(
            f"register_measure({name!r}): compute failed on a trial table ({type(exc).__name__}: {exc}); it takes "
            "the sums it reads as keyword arrays and returns an array of values"
        ) from None
    assert np.shape(values) == expected  # checked by _values


def register_from_environment() -> tuple[str, ...]:
    """Import the modules (names, or paths of ``.py`` files) listed in ``CLFEVAL_MEASURES``, comma-separated, so
    the measures they register exist for the command line; returns their names.

    Raises
    ------
    OptionError
        Naming the module that cannot be imported, or that fails.
    """
    listed = [part.strip() for part in os.environ.get(ENVIRONMENT, "").split(",") if part.strip()]
    for entry in listed:
        try:
            if entry.endswith(".py"):
                path = Path(entry)
                if not path.is_file():
                    raise OptionError(f"{ENVIRONMENT}: no such file {entry}")
                spec = importlib.util.spec_from_file_location(f"clfeval_measures_{path.stem}", path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
            else:
                importlib.import_module(entry)
        except OptionError as exc:
            raise OptionError(f"{ENVIRONMENT}: {entry}: {exc}" if ENVIRONMENT not in str(exc) else str(exc)) from None
        except Exception as exc:  # the user's module: any failure, named
            raise OptionError(f"{ENVIRONMENT}: cannot import {entry} ({type(exc).__name__}: {exc})") from None
    return tuple(listed)
