"""Options checked before a byte is read: a bad β or confidence level stops a run at once, not after minutes of
reading a large file.

Each task's entry point calls the checks of the options it takes first thing; the checks are the
ones the scoring, interval and test code applies when it runs, so an option that passes here
never fails there for its own sake.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.infer.comparison import COUNTING_TESTS, TESTS, check_test_options
from clfeval.infer.intervals import check_interval_options
from clfeval.read.chunks import expand_paths
from clfeval.score.finagle import check_rule
from clfeval.score.labelset import LABEL_SOURCES
from clfeval.score.measures import label_measures
from clfeval.score.metrics import metric_key
from clfeval.score.ratios import UNDEFINED_POLICIES, f_key, parse_zero_division

__all__ = [
    "check_cv",
    "check_files",
    "check_finagle",
    "check_intervals",
    "check_metrics",
    "check_scoring",
    "check_systems",
    "check_test",
]


def check_scoring(
    *,
    labels_from: str | None = None,
    beta: Any = 1.0,
    zero_division: Any = 0,
    undefined: str = "include",
    labels: Any = None,
    train: Any = None,
    **_: Any,
) -> None:
    """The label-set policy (and what it needs: training data, declared labels), β, the 0/0 value and the
    undefined policy (as :func:`clfeval.score` takes them); a training file must exist."""
    if labels_from is not None and labels_from not in LABEL_SOURCES:
        raise unknown_name("label source", labels_from, LABEL_SOURCES)
    if labels_from == "train" and train is None:
        raise OptionError("the label source 'train' needs training data (--train FILE or train=...)")
    if labels_from == "given" and labels is None:
        raise OptionError("the label source 'given' needs a list of labels (--labels FILE or labels=[...])")
    if isinstance(train, str):
        check_files(train, "--train")
    if isinstance(beta, bool) or not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta > 0):
        raise OptionError(f"beta must be a positive number, not {beta!r}")
    parse_zero_division(zero_division)
    if undefined not in UNDEFINED_POLICIES:
        raise unknown_name("undefined policy", undefined, UNDEFINED_POLICIES)


def check_intervals(
    ci: str = "none", confidence: float = 0.95, resamples: int = 10_000, seed: int | None = None, **_: Any
) -> None:
    """An interval method and its settings (see :data:`clfeval.INTERVAL_METHODS`)."""
    check_interval_options(ci, confidence, resamples, seed)


def check_test(
    *,
    test: str = "ar",
    rounds: int = 10_000,
    seed: int | None = None,
    alternative: str = "two-sided",
    alpha: float = 0.05,
    ci: str | None = None,
    confidence: float = 0.95,
    exact_limit: int = 100_000,
    metrics: str | Sequence[str] | None = None,
    **_: Any,
) -> None:
    """A paired test and its settings (see :data:`clfeval.TESTS`), and that a test of accuracy alone is asked
    for accuracy only."""
    check_test_options(
        test,
        alternative,
        rounds,
        seed,
        alpha,
        ci if ci is not None else ("bootstrap" if test == "bootstrap" else "none"),
        confidence,
        exact_limit,
    )
    names = [metrics] if isinstance(metrics, str) else list(metrics or [])
    if test in COUNTING_TESTS and any(m not in ("accuracy", "subset_accuracy") for m in names):
        raise OptionError(f"{TESTS[test].title} compares accuracy only: use --metric accuracy (or another --test)")


def check_systems(names: Sequence[str], baseline: str | None) -> None:
    """The systems' names, known before reading (from --name, the files or the columns): distinct, and the
    baseline among them."""
    repeated = sorted({n for n in names if list(names).count(n) > 1})
    if repeated:
        raise OptionError(f"system names must be distinct; repeated: {', '.join(map(repr, repeated))}")
    if baseline is not None and baseline not in names:
        raise OptionError(f"unknown baseline {baseline!r}; the systems are {', '.join(map(repr, names))}")


def check_files(paths: str | Sequence[str], option: str) -> None:
    """Input files named by an option exist (globs match something) before anything else is read."""
    for path in expand_paths([paths] if isinstance(paths, str) else list(paths)):
        if path != "-" and not os.path.isfile(path):
            what = "is a directory, not a file" if os.path.isdir(path) else "no such file"
            raise InputError(f"{what} ({option})", path)


def check_metrics(metrics: str | Sequence[str] | None, *, multilabel: bool, beta: float) -> None:
    """Metric names, as far as they can be checked before the labels are known (a per-label metric's label
    is checked once they are)."""
    if metrics is None:
        return
    task = "multi-label" if multilabel else "single-label"
    measures = [f_key(beta) if m.name == "f" else m.name for m in label_measures()]
    for name in [metrics] if isinstance(metrics, str) else metrics:
        if name.startswith("per_label."):
            if not any(name.endswith("." + m) and len(name) > len("per_label.") + len(m) + 1 for m in measures):
                raise OptionError(
                    f"unknown metric {name!r}: a per-label metric is per_label.<label>.<measure> with "
                    f"measure one of {', '.join(measures)}"
                )
            continue
        metric_key(name, labels=(), task=task, beta=beta)


def check_cv(warn_above: Any = 0.01, **_: Any) -> None:
    """The difference above which cross-validation warns."""
    if isinstance(warn_above, bool) or not (isinstance(warn_above, (int, float)) and warn_above >= 0):
        raise OptionError(f"warn_above must be a number ≥ 0, not {warn_above!r}")


def check_finagle(threshold: float | None, expected_accuracy: float | None, bins: int | None) -> None:
    """The rule that makes a prediction doubtful, and the calibration bins."""
    check_rule(threshold, expected_accuracy, bins)
