"""The public entry points: read → count → score in one call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.labelsets import LabelSetCounts
from clfeval.infer.intervals import with_intervals
from clfeval.read.arrays import count_label_sets, count_labels, frequencies_of
from clfeval.read.columns import Column
from clfeval.read.files import count_file, count_files, train_frequencies
from clfeval.read.matrix import read_matrix
from clfeval.read.table import TableOptions
from clfeval.score.result import Scores
from clfeval.score import scorer

__all__ = ["score", "score_counts", "score_file", "score_matrix"]

def score_counts(counts: ConfusionCounts | LabelSetCounts, *, labels: Sequence[Any] | None = None,
                 labels_from: str | None = None, train: LabelFrequencies | None = None, beta: float = 1.0,
                 zero_division: float | str = 0, undefined: str = "include", ci: str = "none",
                 confidence: float = 0.95, resamples: int = 10_000, seed: int | None = None,
                 progress: Callable[[int, int], None] | None = None, **provenance: Any) -> Scores:
    """Score counts (a :class:`ConfusionCounts` or :class:`LabelSetCounts`), with intervals when asked.

    Parameters as in :func:`score`; ``provenance`` (``inputs``, ``warnings``, ``options``) is
    carried into the result.
    """
    result = scorer.score_counts(counts, labels=labels, labels_from=labels_from, train=train, beta=beta,
                                 zero_division=zero_division, undefined=undefined, **provenance)
    if ci == "none":
        return result
    return with_intervals(result, ci, confidence=confidence, resamples=resamples, seed=seed, progress=progress)


def _train(train: Any, multilabel: bool, label_sep: str | None) -> LabelFrequencies | None:
    if train is None or isinstance(train, LabelFrequencies):
        return train
    return frequencies_of(train, multilabel=multilabel, label_sep=label_sep)


def score(gold: Iterable[Any], pred: Iterable[Any], *, labels: Sequence[Any] | None = None,
          labels_from: str | None = None, train: Iterable[Any] | LabelFrequencies | None = None,
          beta: float = 1.0, multilabel: bool = False, empty: str = "ignore", duplicates: str = "keep",
          zero_division: float | str = 0, undefined: str = "include", label_sep: str | None = None,
          ci: str = "none", confidence: float = 0.95, resamples: int = 10_000, seed: int | None = None,
          progress: Callable[[int, int], None] | None = None) -> Scores:
    """Score predictions against gold labels, with every average named.

    Parameters
    ----------
    gold, pred
        Labels in instance order: lists, tuples, numpy arrays, pandas or polars Series. For
        multi-label data (``multilabel=True``), collections of labels per instance (or strings
        split on ``label_sep``).
    labels
        Declare the label set L (in report order); labels never seen score with support 0.
    labels_from
        The label-set policy: ``union`` (default), ``gold``, ``train`` (default when ``train``
        is given) or ``given`` (default when ``labels`` is given). See :data:`clfeval.LABEL_SOURCES`.
    train
        Training labels (or label sets), or :class:`LabelFrequencies`: the ``train`` label
        set and the lfb average's weights.
    beta
        β of F_β.
    multilabel
        Whether each instance has a set of labels. Never guessed from the data.
    empty, duplicates
        Multi-label only: whether the empty set is the label ``NONE`` (``label``) or no label
        (``ignore``); whether a label listed twice counts twice (``keep``) or once (``collapse``).
    zero_division, undefined
        The value of 0/0 ratios (0, 1 or ``nan``) and whether such labels stay in averages
        (``include``) or drop out (``exclude``).
    ci
        Confidence intervals for every score: ``none`` (default), ``delta``, ``delta-logit``,
        ``bootstrap`` (percentile) or ``bootstrap-bca``; see :data:`clfeval.INTERVAL_METHODS`.
    confidence, resamples, seed
        Nominal coverage; the bootstrap's resamples and seed (drawn, and recorded, when ``None``).
    progress
        Called with (done, total) during long interval computations.

    Returns
    -------
    Scores
        A frozen result; ``to_dict()`` gives the ``clfeval.score/1`` JSON contract.

    Examples
    --------
    >>> r = score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2])
    >>> round(r.averages["macro"]["f"], 6), round(r.averages["micro"]["f"], 6)
    (0.355556, 0.444444)
    >>> r = score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2], ci="bootstrap", seed=7)
    >>> r.intervals.method, r.intervals.seed, r.intervals.get(("averages", "micro", "f")) is not None
    ('bootstrap', 7, True)
    """
    if multilabel:
        counts: Any = count_label_sets(gold, pred, duplicates=duplicates, empty=empty, label_sep=label_sep)
    else:
        counts = count_labels(gold, pred)
    return score_counts(counts, labels=labels, labels_from=labels_from,
                        train=_train(train, multilabel, label_sep), beta=beta,
                        zero_division=zero_division, undefined=undefined, ci=ci, confidence=confidence,
                        resamples=resamples, seed=seed, progress=progress, inputs={"source": "arrays"})


def score_file(path: str, pred_path: str | None = None, *, gold_col: Column | None = None,
               pred_col: Column | None = None, input_format: str | None = None, sep: str | None = None,
               header: bool | None = None, multilabel: bool = False, label_sep: str = ",",
               empty: str = "ignore", duplicates: str = "keep", train: str | Iterable[Any] | None = None,
               train_col: Column | None = None, labels: Sequence[Any] | None = None,
               labels_from: str | None = None, beta: float = 1.0, zero_division: float | str = 0,
               undefined: str = "include", ci: str = "none", confidence: float = 0.95, resamples: int = 10_000,
               seed: int | None = None, progress: Callable[[int, int], None] | None = None) -> Scores:
    """Score a file of gold and predicted columns, or a gold file and a predictions file.

    One file: by default the last two columns are gold then predicted (TiMBL output). Two
    files: by default each file's last column, line i against line i. ``train`` is a
    training file (its label column: ``train_col``, default the gold column's name if it
    has one, else the last column) or in-memory training labels. Other parameters as in
    :func:`score` and :class:`clfeval.read.TableOptions`.
    """
    options = TableOptions(input_format, sep, header)
    kwargs = dict(options=options, multilabel=multilabel, label_sep=label_sep, duplicates=duplicates, empty=empty)
    if pred_path is None:
        counts, warnings = count_file(path, gold_col=-2 if gold_col is None else gold_col,
                                      pred_col=-1 if pred_col is None else pred_col, **kwargs)
        inputs: dict[str, Any] = {"file": path}
    else:
        counts, warnings = count_files(path, pred_path, gold_col=-1 if gold_col is None else gold_col,
                                       pred_col=-1 if pred_col is None else pred_col, **kwargs)
        inputs = {"gold_file": path, "pred_file": pred_path}
    freqs = None
    if isinstance(train, str):
        column = train_col if train_col is not None else gold_col if isinstance(gold_col, str) else -1
        freqs = train_frequencies(train, column=column, **kwargs)
        inputs["train_file"] = train
    elif train is not None:
        freqs = _train(train, multilabel, label_sep)
    options_used = {"input_format": input_format, "sep": sep, "header": header}
    if multilabel:
        options_used["label_sep"] = label_sep
    return score_counts(counts, labels=labels, labels_from=labels_from, train=freqs, beta=beta,
                        zero_division=zero_division, undefined=undefined, ci=ci, confidence=confidence,
                        resamples=resamples, seed=seed, progress=progress, inputs=inputs, warnings=warnings,
                        options={k: v for k, v in options_used.items() if v is not None})


def score_matrix(path: str, *, rows: str = "gold", input_format: str | None = None, sep: str | None = None,
                 labels: Sequence[Any] | None = None, labels_from: str | None = None,
                 train: Iterable[Any] | LabelFrequencies | None = None, beta: float = 1.0,
                 zero_division: float | str = 0, undefined: str = "include", ci: str = "none",
                 confidence: float = 0.95, resamples: int = 10_000, seed: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Scores:
    """Score a confusion-matrix file (first row and column are labels; ``rows`` says what the rows hold).

    A paper's table is often all a reader has: intervals (``ci``) work from it as from instances.
    """
    counts = read_matrix(path, rows, TableOptions(input_format, sep))
    return score_counts(counts, labels=labels, labels_from=labels_from, train=_train(train, False, None),
                        beta=beta, zero_division=zero_division, undefined=undefined, ci=ci,
                        confidence=confidence, resamples=resamples, seed=seed, progress=progress,
                        inputs={"matrix_file": path, "matrix_rows": rows})

