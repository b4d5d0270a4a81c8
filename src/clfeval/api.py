"""The public entry points: read → count → score in one call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.count.confusion import ConfusionCounts
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.labelsets import LabelSetCounts
from clfeval.infer.comparison import Comparison, compare_counts
from clfeval.infer.crossvalidation import CrossValidation, cross_validate
from clfeval.infer.intervals import with_intervals
from clfeval.read.arrays import count_label_sets, count_labels, count_systems, frequencies_of, to_sequence
from clfeval.read.columns import Column
from clfeval.read.files import (count_file, count_files, count_fold_column, count_system_columns, count_system_files,
                                train_frequencies)
from clfeval.read.matrix import read_matrix
from clfeval.errors import InputError, OptionError
from clfeval.read.table import TableOptions
from clfeval.score.result import Scores
from clfeval.score import scorer

__all__ = ["compare", "compare_counts", "compare_files", "cv", "cv_counts", "cv_files", "score", "score_counts",
           "score_file", "score_matrix"]

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


def _file_training(train: str | Iterable[Any] | None, train_col: Column | None, gold_col: Column | None,
                   reading: dict[str, Any], inputs: dict[str, Any]) -> LabelFrequencies | None:
    """Training frequencies from a training file (recorded in ``inputs``) or in-memory labels.

    The file's label column is ``train_col``, else the gold column's name if it has one, else the last.
    """
    if isinstance(train, str):
        column = train_col if train_col is not None else gold_col if isinstance(gold_col, str) else -1
        inputs["train_file"] = train
        return train_frequencies(train, column=column, **reading)
    return _train(train, reading["multilabel"], reading["label_sep"])


def _options_used(input_format: str | None, sep: str | None, header: bool | None, multilabel: bool,
                  label_sep: str) -> dict[str, Any]:
    """The reading options a result records: those given (and the label separator for multi-label data)."""
    used = {"input_format": input_format, "sep": sep, "header": header,
            "label_sep": label_sep if multilabel else None}
    return {k: v for k, v in used.items() if v is not None}


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
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs)
    return score_counts(counts, labels=labels, labels_from=labels_from, train=freqs, beta=beta,
                        zero_division=zero_division, undefined=undefined, ci=ci, confidence=confidence,
                        resamples=resamples, seed=seed, progress=progress, inputs=inputs, warnings=warnings,
                        options=_options_used(input_format, sep, header, multilabel, label_sep))


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



def compare(gold: Iterable[Any], preds: Mapping[str, Iterable[Any]] | Sequence[Iterable[Any]], *,
            metrics: str | Sequence[str] | None = None, test: str = "ar", rounds: int = 10_000,
            seed: int | None = None, alternative: str = "two-sided", baseline: str | None = None,
            alpha: float = 0.05, ci: str | None = None, confidence: float = 0.95, exact_limit: int = 100_000,
            labels: Sequence[Any] | None = None, labels_from: str | None = None,
            train: Iterable[Any] | LabelFrequencies | None = None, beta: float = 1.0, multilabel: bool = False,
            empty: str = "ignore", duplicates: str = "keep", zero_division: float | str = 0,
            undefined: str = "include", label_sep: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Comparison:
    """Is system A really better than B? Paired significance tests of score differences.

    Parameters
    ----------
    gold
        Gold labels (or label sets) in instance order, as for :func:`score`.
    preds
        Each system's predictions of the same instances: a mapping name → predictions, or a
        sequence (systems named ``A``, ``B``, …).
    metrics
        Report names of the scores to compare: ``macro.f1`` (default; ``accuracy`` for
        McNemar), ``macro_fa.f1``, ``micro.f1``, ``weighted.recall``, ``lfb.precision``,
        ``samples.f1``, ``accuracy``, ``hamming_loss``, ``per_label.<label>.f1`` … One
        name or several: every metric is tested on the same arrangements.
    test
        ``ar`` (approximate randomization, default), ``bootstrap`` (paired bootstrap) or
        ``mcnemar`` (exact, accuracy only); see :data:`clfeval.TESTS`.
    rounds, seed
        Randomization or bootstrap rounds, and the seed (drawn and recorded when ``None``).
    alternative
        On d = score(A) − score(B): ``two-sided`` (default), ``greater`` or ``less``.
    baseline
        Compare each system with this one only; default: every pair.
    alpha
        The level at which a Holm-adjusted p-value marks a difference as significant.
    ci, confidence
        ``bootstrap``: the paired bootstrap's percentile interval of each difference (the
        default with ``test="bootstrap"``; with ``ar`` it costs another ``rounds`` rounds);
        ``none``.
    exact_limit
        Randomization enumerates every swap pattern when there are at most this many
        (Π (c_t + 1) over the differing triples); 0 never does.
    labels, labels_from, train, beta, multilabel, empty, duplicates, zero_division, undefined, label_sep
        As in :func:`score`. The label set is chosen once, from the gold labels and every
        system's predictions, and all systems are scored over it.
    progress
        Called with (done, total) rounds.

    Returns
    -------
    Comparison
        Each system's scores, each pair's test (``pairs``), a ranking per metric; ``to_dict()``
        is the ``clfeval.compare/1`` JSON contract.

    Examples
    --------
    >>> gold = list("abcabcab")
    >>> r = compare(gold, {"X": list("abcabaac"), "Y": list("aacbbacc")}, metrics=["macro.f1", "accuracy"], seed=1)
    >>> p = r.pair("X", "Y", "accuracy")
    >>> round(p.difference, 3), p.exact, round(p.p_value, 4)
    (0.375, True, 0.25)
    """
    joint = count_systems(gold, preds, multilabel=multilabel, duplicates=duplicates, empty=empty,
                          label_sep=label_sep)
    return compare_counts(joint, metrics=metrics, test=test, rounds=rounds, seed=seed, alternative=alternative,
                          baseline=baseline, alpha=alpha, ci=ci, confidence=confidence, exact_limit=exact_limit,
                          labels=labels, labels_from=labels_from,
                          train=_train(train, multilabel, label_sep), beta=beta, zero_division=zero_division,
                          undefined=undefined, progress=progress, inputs={"source": "arrays"})


def compare_files(gold_path: str, pred_paths: Sequence[str] = (), *, names: Sequence[str] | None = None,
                  gold_col: Column | None = None, pred_col: Column | None = None,
                  pred_cols: Sequence[Column] | None = None, input_format: str | None = None, sep: str | None = None,
                  header: bool | None = None, multilabel: bool = False, label_sep: str = ",", empty: str = "ignore",
                  duplicates: str = "keep", train: str | Iterable[Any] | None = None, train_col: Column | None = None,
                  **options: Any) -> Comparison:
    """Compare systems whose predictions are in files (see :func:`compare` for the test options).

    Two layouts:

    * a gold file and one predictions file per system (``pred_paths``), line i against line
      i; the label is each file's column ``gold_col`` / ``pred_col`` (default: the last, so
      TiMBL output works with ``gold_col=-2``); systems are named after their files;
    * one file holding the gold column and a column per system (``pred_cols``, no
      ``pred_paths``); systems are named after their columns.

    ``names`` overrides the systems' names. ``train`` is a training file (label column
    ``train_col``) or in-memory training labels, for the lfb weights and the ``train`` label set.
    """
    table = TableOptions(input_format, sep, header)
    kwargs = dict(options=table, multilabel=multilabel, label_sep=label_sep, duplicates=duplicates, empty=empty)
    if pred_paths and pred_cols:
        raise OptionError("give prediction files or predicted columns of one file, not both")
    if pred_paths:
        if len(pred_paths) < 2:
            raise OptionError("compare needs at least two prediction files")
        joint, warnings = count_system_files(gold_path, pred_paths, names=names,
                                             gold_col=-1 if gold_col is None else gold_col,
                                             pred_col=-1 if pred_col is None else pred_col, **kwargs)
        inputs: dict[str, Any] = {"gold_file": gold_path, "pred_files": dict(zip(joint.systems, pred_paths))}
    else:
        if not pred_cols or len(pred_cols) < 2:
            raise OptionError("give at least two prediction files, or one file and at least two predicted columns "
                              "(--pred-col, repeated)")
        if gold_col is None:
            raise OptionError("with predicted columns of one file, say which column is gold (--gold-col)")
        joint, warnings = count_system_columns(gold_path, gold_col=gold_col, pred_cols=pred_cols, names=names,
                                               **kwargs)
        inputs = {"file": gold_path, "pred_columns": dict(zip(joint.systems, map(str, pred_cols)))}
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs)
    return compare_counts(joint, train=freqs, inputs=inputs, warnings=warnings,
                          options=_options_used(input_format, sep, header, multilabel, label_sep), **options)


#: Cross-validation from counts: see :func:`clfeval.infer.crossvalidation.cross_validate`.
cv_counts = cross_validate


def cv(gold: Iterable[Any], pred: Iterable[Any], folds: Iterable[Any], *, multilabel: bool = False,
       empty: str = "ignore", duplicates: str = "keep", label_sep: str | None = None,
       train: Iterable[Any] | LabelFrequencies | None = None, **options: Any) -> CrossValidation:
    """Cross-validation of predictions held in memory: ``folds[i]`` names the fold of instance i.

    Scores the folds pooled (their counts added: F_tp,fp, the one to report) and one by one
    (their mean and sd: F_avg). Other parameters as in :func:`score` and
    :func:`clfeval.infer.crossvalidation.cross_validate` (``ci`` applies to the pooled scores,
    ``warn_above`` sets when a difference between the two is warned about).

    Examples
    --------
    >>> r = cv(list("aabbab"), list("abbbaa"), [1, 1, 1, 2, 2, 2])
    >>> round(r.pooled.averages["macro"]["f"], 4), round(r.mean_of_folds()["averages"]["macro"]["f1"], 4)
    (0.6667, 0.6667)
    """
    g, p = to_sequence(gold, "gold"), to_sequence(pred, "pred")
    f = np.asarray(to_sequence(folds, "folds"))
    if not len(g) == len(p) == len(f):
        raise InputError(f"gold, pred and folds must have one entry per instance: {len(g)}, {len(p)} and {len(f)}")
    names = [str(v) for v in dict.fromkeys(f.tolist())]
    try:
        names.sort(key=float)
    except ValueError:
        names.sort()
    keys = np.array([str(v) for v in f.tolist()])
    counts = []
    for name in names:
        idx = np.flatnonzero(keys == name)
        gs, ps = [g[i] for i in idx], [p[i] for i in idx]
        counts.append(count_label_sets(gs, ps, duplicates=duplicates, empty=empty, label_sep=label_sep) if multilabel
                      else count_labels(np.asarray(gs) if isinstance(g, np.ndarray) else gs,
                                        np.asarray(ps) if isinstance(p, np.ndarray) else ps))
    return cross_validate(counts, fold_names=names, train=_train(train, multilabel, label_sep),
                          inputs={"source": "arrays"}, **options)


def cv_files(paths: Sequence[str], *, fold_col: Column | None = None, gold_col: Column | None = None,
             pred_col: Column | None = None, input_format: str | None = None, sep: str | None = None,
             header: bool | None = None, multilabel: bool = False, label_sep: str = ",", empty: str = "ignore",
             duplicates: str = "keep", train: str | Iterable[Any] | None = None, train_col: Column | None = None,
             **options: Any) -> CrossValidation:
    """Cross-validation from files: one file per fold (each with gold and predicted columns, by default the
    last two), or one file with a fold column (``fold_col``; when it is the last column, gold and predicted
    default to the two before it, else they must be given).

    Other parameters as in :func:`score_file` and :func:`cv`.
    """
    table = TableOptions(input_format, sep, header)
    kwargs = dict(options=table, multilabel=multilabel, label_sep=label_sep, duplicates=duplicates, empty=empty)
    warnings: list[str] = []
    if fold_col is not None:
        if len(paths) != 1:
            raise OptionError("with a fold column, give one file")
        if fold_col != -1 and (gold_col is None or pred_col is None):
            raise OptionError("with a fold column other than the last (-1), say which columns hold gold and predicted "
                              "labels (--gold-col, --pred-col)")
        names, folds, warnings = count_fold_column(
            paths[0], gold_col=-3 if gold_col is None else gold_col, pred_col=-2 if pred_col is None else pred_col,
            fold_col=fold_col, **kwargs)
        inputs: dict[str, Any] = {"file": paths[0], "fold_col": str(fold_col)}
    else:
        if not paths:
            raise OptionError("give one file per fold, or one file and its fold column")
        folds = []
        for path in paths:
            counts, found = count_file(path, gold_col=-2 if gold_col is None else gold_col,
                                       pred_col=-1 if pred_col is None else pred_col, **kwargs)
            folds.append(counts)
            warnings += found
        names = list(paths) if len(set(paths)) == len(paths) else [f"fold {i + 1}" for i in range(len(paths))]
        inputs = {"fold_files": list(paths)}
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs)
    return cross_validate(folds, fold_names=names, train=freqs, inputs=inputs, warnings=warnings,
                          options=_options_used(input_format, sep, header, multilabel, label_sep), **options)
