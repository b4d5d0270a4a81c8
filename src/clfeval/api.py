"""The public entry points: read → count → score in one call."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from clfeval.count.confidence import ConfidenceCounts
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.document import Counts, counts_to_dict
from clfeval.count.frequencies import LabelFrequencies
from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import LabelSetCounts
from clfeval.count.paired import counts_of_pairs
from clfeval.errors import InputError, OptionError, unknown_name
from clfeval.infer.comparison import Comparison, compare_counts
from clfeval.infer.crossvalidation import CrossValidation, cross_validate
from clfeval.infer.intervals import with_intervals
from clfeval.inverse.audit import Audit, audit_table
from clfeval.inverse.conversion import check_decimals
from clfeval.inverse.papers import read_figure_table
from clfeval.options import (
    check_cv,
    check_finagle,
    check_intervals,
    check_metrics,
    check_scoring,
    check_systems,
    check_test,
)
from clfeval.output import write_text
from clfeval.read.arrays import (
    count_in_blocks,
    count_label_sets,
    count_labels,
    count_systems,
    frequencies_of,
    systems_of,
    to_sequence,
)
from clfeval.read.chunks import ReadProgress, expand_paths
from clfeval.read.columns import Column
from clfeval.read.engine import Engine
from clfeval.read.files import (
    BlockSpec,
    _to_counts,
    _to_joint,
    count_confidences,
    count_file,
    count_files,
    count_fold_column,
    count_system_columns,
    count_system_files,
    load_counts,
    one_file,
    system_names,
    train_frequencies,
)
from clfeval.read.formats import TableOptions
from clfeval.read.labels import Relabel
from clfeval.read.matrix import read_matrix
from clfeval.score import scorer
from clfeval.score.finagle import Finagle, finagle_counts
from clfeval.score.result import Scores

__all__ = [
    "audit_file",
    "compare",
    "compare_count_files",
    "compare_counts",
    "compare_files",
    "counts_of_files",
    "counts_of_frame",
    "cv",
    "cv_count_files",
    "cv_counts",
    "cv_files",
    "finagle",
    "finagle_file",
    "save_counts",
    "score",
    "score_count_files",
    "score_counts",
    "score_file",
    "score_matrix",
]


def score_counts(
    counts: ConfusionCounts | LabelSetCounts,
    *,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    train: LabelFrequencies | None = None,
    beta: float = 1.0,
    zero_division: float | str = 0,
    undefined: str = "include",
    ci: str = "none",
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    **provenance: Any,
) -> Scores:
    """Score counts (a :class:`ConfusionCounts` or :class:`LabelSetCounts`), with intervals when asked.

    Parameters as in :func:`score`; ``provenance`` (``inputs``, ``warnings``, ``options``) is
    carried into the result.
    """
    result = scorer.score_counts(
        counts,
        labels=labels,
        labels_from=labels_from,
        train=train,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        **provenance,
    )
    if ci == "none":
        return result
    return with_intervals(result, ci, confidence=confidence, resamples=resamples, seed=seed, progress=progress)


def _train(train: Any, multilabel: bool, label_sep: str | None) -> LabelFrequencies | None:
    if train is None or isinstance(train, LabelFrequencies):
        return train
    return frequencies_of(train, multilabel=multilabel, label_sep=label_sep)


def _file_training(
    train: str | Iterable[Any] | LabelFrequencies | None,
    train_col: Column | None,
    gold_col: Column | None,
    reading: dict[str, Any],
    inputs: dict[str, Any],
    train_options: TableOptions | None = None,
) -> LabelFrequencies | None:
    """Training frequencies from a training file (recorded in ``inputs``) or in-memory labels.

    The file's label column is ``train_col``, else the gold column's name if it has one, else the last.
    It is read with its own options, ``train_options`` (format, separator, header; by default by its own
    extension), never with the evaluated files' (a ``--sep ';'`` for a CSV said nothing about a
    whitespace training file). What the evaluated data's rules say of labels applies to it too: lines
    matching the skip pattern are not instances, labels are translated, label sets split on the label
    separator.
    """
    if isinstance(train, str):
        column = train_col if train_col is not None else gold_col if isinstance(gold_col, str) else -1
        inputs["train_file"] = train
        evaluated = reading["options"]
        own = replace(train_options or TableOptions(), skip=evaluated.skip, label_sep=evaluated.label_sep)
        return train_frequencies(train, column=column, **{**reading, "options": own})
    return _train(train, reading["multilabel"], reading["label_sep"])


def _options_used(
    input_format: str | None,
    sep: str | None,
    header: bool | None,
    multilabel: bool,
    label_sep: str,
    engine: str = "polars",
    reading: Mapping[str, Any] | None = None,
    blocks: BlockSpec | None = None,
) -> dict[str, Any]:
    """The reading options a result records: those given (and the label separator for multi-label data)."""
    used: dict[str, Any] = {
        "input_format": input_format,
        "sep": sep,
        "header": header,
        "label_sep": label_sep if multilabel else None,
        "engine": engine if engine != "polars" else None,
    }
    if reading is not None:
        table, relabel = reading["options"], reading["relabel"]
        used.update(skip=table.skip, keep_trailing=True if table.keep_trailing else None)
        if relabel is not None:
            used.update(relabel.options())
    if blocks is not None:
        used["blocks"] = "blank-line" if blocks.column is None else {"column": str(blocks.column)}
        if blocks.end is not None:
            used["block_end"] = blocks.end
    return {k: v for k, v in used.items() if v is not None}


def _reading(
    input_format: str | None,
    sep: str | None,
    header: bool | None,
    multilabel: bool,
    label_sep: str,
    duplicates: str,
    empty: str,
    engine: str,
    scheduler: Any,
    read_progress: ReadProgress | None,
    skip: str | None = None,
    keep_trailing: bool = False,
    translate: str | Mapping[str, str] | None = None,
    cutoff: float | None = None,
    above: str = "+1",
    below: str = "-1",
) -> dict[str, Any]:
    """The keyword arguments of the file counters (:mod:`clfeval.read.files`): how to read, and how read labels
    change (:class:`Relabel`: a translation table, a cut-off for real-valued predictions)."""
    if cutoff is not None and multilabel:
        raise OptionError(
            "--cutoff turns a real-valued prediction into one label: it does not apply to label sets (--multilabel)"
        )
    relabel = Relabel.of(translate, cutoff, above, below) if translate is not None or cutoff is not None else None
    label_sep = "\t" if label_sep == "\\t" else label_sep  # written \t, as --sep takes it
    return dict(
        options=TableOptions(
            input_format, sep, header, skip, keep_trailing, label_sep=label_sep if multilabel else None
        ),
        multilabel=multilabel,
        label_sep=label_sep,
        duplicates=duplicates,
        empty=empty,
        engine=Engine(engine, scheduler, read_progress),
        relabel=relabel,
    )


def _block_spec(blocks: str | None, block_col: Column | None, block_end: str | None = None) -> BlockSpec | None:
    """``blocks="blank-line"`` (with ``block_end``, a pattern of lines that end blocks too, which implies it) or a
    block column, as a :class:`BlockSpec`."""
    if blocks is not None and block_col is not None:
        raise OptionError("give blocks by blank lines (--blocks blank-line) or by a column (--block-col), not both")
    if blocks is not None and blocks not in BLOCKINGS:
        raise unknown_name("way to delimit blocks", blocks, BLOCKINGS)
    if blocks is None and block_col is None and block_end is None:
        return None
    return BlockSpec(block_col, block_end)


def _unused(kwargs: Mapping[str, Any], gold: Iterable[str] = ()) -> list[str]:
    """Warnings for translation mappings no label used, and for cut-off labels the gold labels never use."""
    relabel = kwargs["relabel"]
    if relabel is None:
        return []
    out = relabel.unused()
    gold = set(gold)
    if relabel.cutoff is not None and gold and not {relabel.above, relabel.below} <= gold:
        shown = ", ".join(repr(g) for g in sorted(gold)[:6])
        out.append(
            f"--cutoff made the predictions {relabel.above!r} and {relabel.below!r}, but the gold labels are "
            f"{shown}: name them with --above and --below"
        )
    return out


def _gold_labels(counts: Any) -> set[str]:
    """The gold labels of counts (single-label), for the cut-off check."""
    if isinstance(counts, ConfusionCounts):
        return {lab for lab, n in zip(counts.labels, counts.cells.sum(axis=1)) if n}
    if isinstance(counts, JointCounts) and not counts.multilabel:
        return counts.seen_labels()[0]
    return set()


#: Ways to delimit blocks of dependent instances (sentences), by name (a column: ``block_col``).
BLOCKINGS: Mapping[str, str] = {
    "blank-line": "blank lines separate blocks, CoNLL style (delimited text; the embedded engine)",
}


def _check_comparing(options: Mapping[str, Any], multilabel: bool | None) -> None:
    """The scoring and test options of compare, and its metric names (fully when ``multilabel`` is known)."""
    check_scoring(**options)
    check_test(**options)
    if multilabel is not None:
        check_metrics(options.get("metrics"), multilabel=multilabel, beta=options.get("beta", 1.0))


def _check_cv(options: Mapping[str, Any], train: Any = None) -> None:
    """The scoring, interval and warning options of cross-validation."""
    check_scoring(**options, train=train)
    check_intervals(**options)
    check_cv(**options)


def _fold_names(shown: Sequence[str]) -> list[str]:
    """Folds named after their files, or ``fold 1``, ``fold 2`` … when a name repeats."""
    return list(shown) if len(set(shown)) == len(shown) else [f"fold {i + 1}" for i in range(len(shown))]


def _file_inputs(path: str | Sequence[str], key: str = "file") -> dict[str, Any]:
    """Provenance of one input: ``{"file": path}``, or ``{"files": [...]}`` for several paths or globs."""
    if isinstance(path, str):
        return {key: path}
    return {key + "s": list(path)}


def score(
    gold: Iterable[Any],
    pred: Iterable[Any],
    *,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    train: Iterable[Any] | LabelFrequencies | None = None,
    beta: float = 1.0,
    multilabel: bool = False,
    empty: str = "ignore",
    duplicates: str = "keep",
    zero_division: float | str = 0,
    undefined: str = "include",
    label_sep: str | None = None,
    ci: str = "none",
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    blocks: Iterable[Any] | None = None,
) -> Scores:
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
    blocks
        Each instance's block (sentence number, document name …): the instances of a block are not
        independent, so intervals resample whole blocks (the delta method uses the cluster-robust
        variance over blocks), as ``--blocks`` and ``--block-col`` do for files.

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
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    check_intervals(ci, confidence, resamples, seed)
    inputs: dict[str, Any] = {"source": "arrays"}
    found = None
    if blocks is not None:
        found = count_in_blocks(
            [gold, pred],
            ["gold", "pred"],
            blocks,
            multilabel=multilabel,
            duplicates=duplicates,
            empty=empty,
            label_sep=label_sep,
        )
        counts: Any = counts_of_pairs(found.totals(), multilabel, duplicates, empty)
        inputs["n_blocks"] = found.n_blocks
    elif multilabel:
        counts = count_label_sets(gold, pred, duplicates=duplicates, empty=empty, label_sep=label_sep)
    else:
        counts = count_labels(gold, pred)
    result = scorer.score_counts(
        counts,
        labels=labels,
        labels_from=labels_from,
        train=_train(train, multilabel, label_sep),
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        inputs=inputs,
        options={"blocks": "given"} if found is not None else None,
    )
    if ci == "none":
        return result
    return with_intervals(
        result, ci, confidence=confidence, resamples=resamples, seed=seed, progress=progress, blocks=found
    )


def score_file(
    path: str | Sequence[str],
    pred_path: str | None = None,
    *,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    input_format: str | None = None,
    sep: str | None = None,
    header: bool | None = None,
    multilabel: bool = False,
    label_sep: str = ",",
    empty: str = "ignore",
    duplicates: str = "keep",
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    beta: float = 1.0,
    zero_division: float | str = 0,
    undefined: str = "include",
    ci: str = "none",
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    engine: str = "polars",
    scheduler: Any = None,
    read_progress: ReadProgress | None = None,
    skip: str | None = None,
    keep_trailing: bool = False,
    translate: str | Mapping[str, str] | None = None,
    cutoff: float | None = None,
    above: str = "+1",
    below: str = "-1",
    blocks: str | None = None,
    block_col: Column | None = None,
    block_end: str | None = None,
) -> Scores:
    """Score a file of gold and predicted columns, or a gold file and a predictions file.

    One file: by default the last two columns are gold then predicted (TiMBL output); a
    list of files or glob patterns (``"data/part-*.parquet"``) is read as one table. Two
    files: by default each file's last column, line i against line i. ``train`` is a
    training file (its label column: ``train_col``, default the gold column's name if it
    has one, else the last column; read with ``train_options``, by default by its own
    extension — never with the evaluated files' format options) or in-memory training labels. ``engine`` counts on this
    machine (``polars``) or on a Dask cluster (``dask``, at ``scheduler``); see
    :data:`clfeval.read.engine.ENGINES`. ``read_progress(bytes_done, bytes_total, rows)`` is called
    while reading. Other parameters as in :func:`score` and :class:`clfeval.read.TableOptions`.

    Input rules, for output as TiMBL, taggers and SVMs write it: ``skip`` (a regular expression:
    matching lines are not instances, e.g. ``^<utt>``), ``keep_trailing`` (keep a trailing TiMBL
    class distribution ``{ A 0.7, B 0.3 }``, stripped by default), ``translate`` (a file of
    ``old > new`` lines, or a mapping: labels are mapped before counting, training labels too),
    ``cutoff`` with ``above`` and ``below`` (real-valued predictions: a value at or above the cut-off
    becomes ``above``, any other ``below``; ``value >= cutoff``, as ``confusionmatrix.py -C``).

    ``blocks="blank-line"`` (blank lines separate sentences) or ``block_col`` (a column naming each
    instance's block): the instances of a block are not independent, so intervals resample whole
    blocks (the delta method uses the cluster-robust variance over blocks). ``block_end``: a regular
    expression for lines that end a block as blank lines do (MBT's ``^<utt>``; implies blank-line
    blocks); such lines are not instances.
    """
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    check_intervals(ci, confidence, resamples, seed)
    kwargs = _reading(
        input_format,
        sep,
        header,
        multilabel,
        label_sep,
        duplicates,
        empty,
        engine,
        scheduler,
        read_progress,
        skip,
        keep_trailing,
        translate,
        cutoff,
        above,
        below,
    )
    spec = _block_spec(blocks, block_col, block_end)
    if pred_path is None:
        counted = count_file(
            path,
            gold_col=-2 if gold_col is None else gold_col,
            pred_col=-1 if pred_col is None else pred_col,
            blocks=spec,
            **kwargs,
        )
        inputs: dict[str, Any] = _file_inputs(path)
    else:
        if not isinstance(path, str):
            raise OptionError("with a predictions file, give one gold file")
        counted = count_files(
            path,
            pred_path,
            gold_col=-1 if gold_col is None else gold_col,
            pred_col=-1 if pred_col is None else pred_col,
            blocks=spec,
            **kwargs,
        )
        inputs = {"gold_file": path, "pred_file": pred_path}
    if counted.blocks is not None:
        inputs["n_blocks"] = counted.blocks.n_blocks
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs, train_options)
    result = score_counts(
        counted.counts,
        labels=labels,
        labels_from=labels_from,
        train=freqs,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        inputs=inputs,
        warnings=counted.warnings + _unused(kwargs, _gold_labels(counted.counts)),
        options=_options_used(input_format, sep, header, multilabel, label_sep, engine, kwargs, spec),
    )
    if ci == "none":
        return result
    return with_intervals(
        result, ci, confidence=confidence, resamples=resamples, seed=seed, progress=progress, blocks=counted.blocks
    )


def score_matrix(
    path: str,
    *,
    rows: str = "gold",
    input_format: str | None = None,
    sep: str | None = None,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    train: str | Iterable[Any] | LabelFrequencies | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    beta: float = 1.0,
    zero_division: float | str = 0,
    undefined: str = "include",
    ci: str = "none",
    confidence: float = 0.95,
    resamples: int = 10_000,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Scores:
    """Score a confusion-matrix file (first row and column are labels; ``rows`` says what the rows hold).

    A paper's table is often all a reader has: intervals (``ci``) work from it as from instances.
    ``train`` may be a training file (its label column ``train_col``, default the last), read by its own
    extension: ``input_format`` and ``sep`` describe the matrix file only.
    """
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    check_intervals(ci, confidence, resamples, seed)
    counts = read_matrix(path, rows, TableOptions(input_format, sep))
    inputs: dict[str, Any] = {"matrix_file": path, "matrix_rows": rows}
    freqs = _file_training(
        train, train_col, None, dict(options=TableOptions(), multilabel=False, label_sep=","), inputs, train_options
    )
    return score_counts(
        counts,
        labels=labels,
        labels_from=labels_from,
        train=freqs,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        ci=ci,
        confidence=confidence,
        resamples=resamples,
        seed=seed,
        progress=progress,
        inputs=inputs,
    )


def compare(
    gold: Iterable[Any],
    preds: Mapping[str, Iterable[Any]] | Sequence[Iterable[Any]],
    *,
    metrics: str | Sequence[str] | None = None,
    test: str = "ar",
    rounds: int = 10_000,
    seed: int | None = None,
    alternative: str = "two-sided",
    baseline: str | None = None,
    alpha: float = 0.05,
    ci: str | None = None,
    confidence: float = 0.95,
    exact_limit: int = 100_000,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    train: Iterable[Any] | LabelFrequencies | None = None,
    beta: float = 1.0,
    multilabel: bool = False,
    empty: str = "ignore",
    duplicates: str = "keep",
    zero_division: float | str = 0,
    undefined: str = "include",
    label_sep: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    blocks: Iterable[Any] | None = None,
) -> Comparison:
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
    blocks
        Each instance's block (sentence number, document name …): randomization swaps whole blocks,
        the bootstrap resamples whole blocks and the sign test counts blocks, as ``--blocks`` and
        ``--block-col`` do for files.

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
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    check_test(
        test=test,
        rounds=rounds,
        seed=seed,
        alternative=alternative,
        alpha=alpha,
        ci=ci,
        confidence=confidence,
        exact_limit=exact_limit,
        metrics=metrics,
    )
    check_metrics(metrics, multilabel=multilabel, beta=beta)
    found = None
    if blocks is not None:
        names, columns = systems_of(preds)
        found = count_in_blocks(
            [gold, *columns],
            ["gold", *[f"pred {n!r}" for n in names]],
            blocks,
            multilabel=multilabel,
            duplicates=duplicates,
            empty=empty,
            label_sep=label_sep,
        )
        joint = JointCounts(tuple(names), found.totals(), multilabel, duplicates, empty)
    else:
        joint = count_systems(
            gold, preds, multilabel=multilabel, duplicates=duplicates, empty=empty, label_sep=label_sep
        )
    return compare_counts(
        joint,
        metrics=metrics,
        test=test,
        rounds=rounds,
        seed=seed,
        alternative=alternative,
        baseline=baseline,
        alpha=alpha,
        ci=ci,
        confidence=confidence,
        exact_limit=exact_limit,
        labels=labels,
        labels_from=labels_from,
        train=_train(train, multilabel, label_sep),
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        progress=progress,
        inputs={"source": "arrays", **({"n_blocks": found.n_blocks} if found else {})},
        options={"blocks": "given"} if found is not None else None,
        blocks=found,
    )


def compare_files(
    gold_path: str | Sequence[str],
    pred_paths: Sequence[str] = (),
    *,
    names: Sequence[str] | None = None,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    pred_cols: Sequence[Column] | None = None,
    input_format: str | None = None,
    sep: str | None = None,
    header: bool | None = None,
    multilabel: bool = False,
    label_sep: str = ",",
    empty: str = "ignore",
    duplicates: str = "keep",
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    engine: str = "polars",
    scheduler: Any = None,
    read_progress: ReadProgress | None = None,
    skip: str | None = None,
    keep_trailing: bool = False,
    translate: str | Mapping[str, str] | None = None,
    cutoff: float | None = None,
    above: str = "+1",
    below: str = "-1",
    blocks: str | None = None,
    block_col: Column | None = None,
    block_end: str | None = None,
    **options: Any,
) -> Comparison:
    """Compare systems whose predictions are in files (see :func:`compare` for the test options).

    Two layouts:

    * a gold file and one predictions file per system (``pred_paths``), line i against line
      i; the label is each file's column ``gold_col`` / ``pred_col`` (default: the last, so
      TiMBL output works with ``gold_col=-2``); systems are named after their files;
    * one file holding the gold column and a column per system (``pred_cols``, no
      ``pred_paths``); systems are named after their columns. A list of files or globs is
      read as one table, with either engine.

    ``names`` overrides the systems' names. ``train`` is a training file (label column
    ``train_col``) or in-memory training labels, for the lfb weights and the ``train`` label set.
    ``engine``, ``scheduler`` and ``read_progress``, the input rules (``skip``, ``keep_trailing``,
    ``translate``, ``cutoff``, ``above``, ``below``) as in :func:`score_file`.

    ``blocks="blank-line"`` or ``block_col`` (a column of the table, or of the gold file): the
    instances of a block (a sentence) are not independent, so randomization swaps whole blocks, the
    bootstrap resamples whole blocks and the sign test counts blocks. ``block_end``: lines that end a
    block as blank lines do (MBT's ``^<utt>``), as in :func:`score_file`.
    """
    _check_comparing({**options, "train": train}, multilabel)
    if pred_cols is not None and len(set(map(str, pred_cols))) != len(pred_cols):
        raise OptionError("a predicted column is given twice")
    if names is not None or pred_paths or pred_cols:  # the systems' names are known before reading
        shown = (
            list(names)
            if names is not None
            else (
                system_names([one_file(p) for p in pred_paths])
                if pred_paths
                else [c if isinstance(c, str) else f"column {c}" for c in pred_cols or ()]
            )
        )
        check_systems(shown, options.get("baseline"))
    kwargs = _reading(
        input_format,
        sep,
        header,
        multilabel,
        label_sep,
        duplicates,
        empty,
        engine,
        scheduler,
        read_progress,
        skip,
        keep_trailing,
        translate,
        cutoff,
        above,
        below,
    )
    spec = _block_spec(blocks, block_col, block_end)
    if pred_paths and pred_cols:
        raise OptionError("give prediction files or predicted columns of one file, not both")
    if pred_paths:
        if len(pred_paths) < 2:
            raise OptionError("compare needs at least two prediction files")
        if not isinstance(gold_path, str):
            raise OptionError("with prediction files, give one gold file")
        counted = count_system_files(
            gold_path,
            pred_paths,
            names=names,
            gold_col=-1 if gold_col is None else gold_col,
            pred_col=-1 if pred_col is None else pred_col,
            blocks=spec,
            **kwargs,
        )
        inputs: dict[str, Any] = {"gold_file": gold_path, "pred_files": dict(zip(counted.counts.systems, pred_paths))}
    else:
        if not pred_cols or len(pred_cols) < 2:
            raise OptionError(
                "give at least two prediction files, or one file and at least two predicted columns "
                "(--pred-col, repeated)"
            )
        if gold_col is None:
            raise OptionError("with predicted columns of one file, say which column is gold (--gold-col)")
        counted = count_system_columns(
            gold_path, gold_col=gold_col, pred_cols=pred_cols, names=names, blocks=spec, **kwargs
        )
        inputs = {**_file_inputs(gold_path), "pred_columns": dict(zip(counted.counts.systems, map(str, pred_cols)))}
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs, train_options)
    return compare_counts(
        counted.counts,
        train=freqs,
        inputs=inputs,
        warnings=counted.warnings + _unused(kwargs, _gold_labels(counted.counts)),
        options=_options_used(input_format, sep, header, multilabel, label_sep, engine, kwargs, spec),
        blocks=counted.blocks,
        **options,
    )


#: Cross-validation from counts: see :func:`clfeval.infer.crossvalidation.cross_validate`.
cv_counts = cross_validate


def cv(
    gold: Iterable[Any],
    pred: Iterable[Any],
    folds: Iterable[Any],
    *,
    multilabel: bool = False,
    empty: str = "ignore",
    duplicates: str = "keep",
    label_sep: str | None = None,
    train: Iterable[Any] | LabelFrequencies | None = None,
    **options: Any,
) -> CrossValidation:
    """Cross-validation of predictions held in memory: ``folds[i]`` names the fold of instance i.

    Scores the folds pooled (their counts added: F_tp,fp, the one to report) and one by one
    (their mean and sd: F_avg). Other parameters as in :func:`score` and
    :func:`clfeval.infer.crossvalidation.cross_validate` (``ci`` applies to the pooled scores,
    ``warn_above`` sets when a difference between the two is warned about).

    Examples
    --------
    >>> r = cv(list("aabbab"), list("abbbaa"), [1, 1, 1, 2, 2, 2])
    >>> round(r.pooled.averages["macro"]["f"], 4), round(r.mean_of_folds()["averages"]["macro"]["f"], 4)
    (0.6667, 0.6667)
    """
    _check_cv(options, train)
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
        gs, ps = [g[i] for i in idx.tolist()], [p[i] for i in idx.tolist()]
        counts.append(
            count_label_sets(gs, ps, duplicates=duplicates, empty=empty, label_sep=label_sep)
            if multilabel
            else count_labels(
                np.asarray(gs) if isinstance(g, np.ndarray) else gs, np.asarray(ps) if isinstance(p, np.ndarray) else ps
            )
        )
    return cross_validate(
        counts, fold_names=names, train=_train(train, multilabel, label_sep), inputs={"source": "arrays"}, **options
    )


def cv_files(
    paths: Sequence[str | Sequence[str]],
    *,
    fold_col: Column | None = None,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    input_format: str | None = None,
    sep: str | None = None,
    header: bool | None = None,
    multilabel: bool = False,
    label_sep: str = ",",
    empty: str = "ignore",
    duplicates: str = "keep",
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    engine: str = "polars",
    scheduler: Any = None,
    read_progress: ReadProgress | None = None,
    skip: str | None = None,
    keep_trailing: bool = False,
    translate: str | Mapping[str, str] | None = None,
    cutoff: float | None = None,
    above: str = "+1",
    below: str = "-1",
    **options: Any,
) -> CrossValidation:
    """Cross-validation from files: one file per fold (each with gold and predicted columns, by default the
    last two; a fold may be a glob or a list of parts), or a table with a fold column (``fold_col``; every
    path is a part of that table; when it is the last column, gold and predicted default to the two before
    it, else they must be given).

    Other parameters (the input rules ``skip``, ``translate``, ``cutoff`` … too) as in :func:`score_file` and
    :func:`cv`.
    """
    _check_cv(options, train)
    kwargs = _reading(
        input_format,
        sep,
        header,
        multilabel,
        label_sep,
        duplicates,
        empty,
        engine,
        scheduler,
        read_progress,
        skip,
        keep_trailing,
        translate,
        cutoff,
        above,
        below,
    )
    warnings: list[str] = []
    if fold_col is not None:
        if not paths:
            raise OptionError("with a fold column, give the file (or its parts)")
        if fold_col != -1 and (gold_col is None or pred_col is None):
            raise OptionError(
                "with a fold column other than the last (-1), say which columns hold gold and predicted "
                "labels (--gold-col, --pred-col)"
            )
        table = [p for spec in paths for p in ([spec] if isinstance(spec, str) else spec)]
        names, folds, warnings = count_fold_column(
            table,
            gold_col=-3 if gold_col is None else gold_col,
            pred_col=-2 if pred_col is None else pred_col,
            fold_col=fold_col,
            **kwargs,
        )
        inputs: dict[str, Any] = {**_file_inputs(table[0] if len(table) == 1 else table), "fold_col": str(fold_col)}
    else:
        if not paths:
            raise OptionError("give one file per fold, or one file and its fold column")
        folds = []
        for path in paths:
            counted = count_file(
                path,
                gold_col=-2 if gold_col is None else gold_col,
                pred_col=-1 if pred_col is None else pred_col,
                **kwargs,
            )
            folds.append(counted.counts)
            warnings += counted.warnings
        shown = [p if isinstance(p, str) else " + ".join(p) for p in paths]
        names = _fold_names(shown)
        inputs = {"fold_files": shown}
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs, train_options)
    return cross_validate(
        folds,
        fold_names=names,
        train=freqs,
        inputs=inputs,
        warnings=warnings + _unused(kwargs),
        options=_options_used(input_format, sep, header, multilabel, label_sep, engine, kwargs),
        **options,
    )


def counts_of_files(
    path: str | Sequence[str],
    pred_path: str | None = None,
    *,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    pred_cols: Sequence[Column] | None = None,
    names: Sequence[str] | None = None,
    input_format: str | None = None,
    sep: str | None = None,
    header: bool | None = None,
    multilabel: bool = False,
    label_sep: str = ",",
    empty: str = "ignore",
    duplicates: str = "keep",
    engine: str = "polars",
    scheduler: Any = None,
    read_progress: ReadProgress | None = None,
    skip: str | None = None,
    keep_trailing: bool = False,
    translate: str | Mapping[str, str] | None = None,
    cutoff: float | None = None,
    above: str = "+1",
    below: str = "-1",
) -> tuple[Counts, dict[str, Any], list[str]]:
    """Count files without scoring them: the counts, their provenance (inputs and options) and reader warnings.

    The layouts of :func:`score_file` (a table, its parts or globs; or a gold and a predictions
    file), plus a table with a predicted column per system (``pred_cols``, two or more: joint
    counts for :func:`compare_counts`). Save the result with :func:`save_counts`. The input rules
    (``skip``, ``translate``, ``cutoff`` …) as in :func:`score_file`: the counts are of the labels
    they give.
    """
    kwargs = _reading(
        input_format,
        sep,
        header,
        multilabel,
        label_sep,
        duplicates,
        empty,
        engine,
        scheduler,
        read_progress,
        skip,
        keep_trailing,
        translate,
        cutoff,
        above,
        below,
    )
    if pred_cols is not None and len(pred_cols) > 1:
        if pred_path is not None:
            raise OptionError("with a predicted column per system, give the table's files only")
        if gold_col is None:
            raise OptionError("with predicted columns of one table, say which column is gold (--gold-col)")
        counts: Counts
        joint, warnings, _ = count_system_columns(path, gold_col=gold_col, pred_cols=pred_cols, names=names, **kwargs)
        inputs = {**_file_inputs(path), "pred_columns": dict(zip(joint.systems, map(str, pred_cols)))}
        counts = joint
    elif pred_path is not None:
        if not isinstance(path, str):
            raise OptionError("with a predictions file, give one gold file")
        counts, warnings, _ = count_files(
            path,
            pred_path,
            gold_col=-1 if gold_col is None else gold_col,
            pred_col=-1 if pred_col is None else pred_col,
            **kwargs,
        )
        inputs = {"gold_file": path, "pred_file": pred_path}
    else:
        one = pred_cols[0] if pred_cols else pred_col
        counts, warnings, _ = count_file(
            path, gold_col=-2 if gold_col is None else gold_col, pred_col=-1 if one is None else one, **kwargs
        )
        inputs = _file_inputs(path)
    options = _options_used(input_format, sep, header, multilabel, label_sep, engine, kwargs)
    return counts, {"inputs": inputs, "options": options}, warnings + _unused(kwargs)


def save_counts(
    counts: Counts, path: str, *, inputs: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None
) -> None:
    """Write ``counts`` as a ``clfeval.counts/1`` count file (see :mod:`clfeval.count.document`), whole or not at
    all (:func:`clfeval.output.write_text`)."""
    write_text(path, json.dumps(counts_to_dict(counts, inputs=inputs, options=options), ensure_ascii=False) + "\n")


def _counts_training(
    train: str | Iterable[Any] | LabelFrequencies | None,
    train_col: Column | None,
    multilabel: bool,
    label_sep: str,
    inputs: dict[str, Any],
    train_options: TableOptions | None,
) -> LabelFrequencies | None:
    reading = _reading(None, None, None, multilabel, label_sep, "keep", "ignore", "polars", None, None)
    return _file_training(train, train_col, None, reading, inputs, train_options)


def score_count_files(
    paths: str | Sequence[str],
    *,
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    label_sep: str = ",",
    **options: Any,
) -> Scores:
    """Add up count files (paths or globs, labels aligned by name) and score them.

    Other parameters as in :func:`score_counts`; ``train`` may be a training file.
    """
    check_scoring(**options, train=train)
    check_intervals(**options)
    files = expand_paths(paths)
    counts = load_counts(files)
    if isinstance(counts, JointCounts):
        raise InputError(
            "holds joint counts of several systems: compare them (clfeval compare --counts), or count "
            "one system's column",
            files[0],
        )
    inputs: dict[str, Any] = {"count_files": files}
    freqs = _counts_training(train, train_col, isinstance(counts, LabelSetCounts), label_sep, inputs, train_options)
    return score_counts(counts, train=freqs, inputs=inputs, **options)


def compare_count_files(
    paths: str | Sequence[str],
    *,
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    label_sep: str = ",",
    **options: Any,
) -> Comparison:
    """Add up joint count files (from ``clfeval count`` with a predicted column per system) and compare the systems.

    Other parameters as in :func:`compare`.
    """
    files = expand_paths(paths)
    _check_comparing({**options, "train": train}, None)
    joint = load_counts(files)
    if not isinstance(joint, JointCounts):
        raise InputError(
            "holds the counts of one system; to compare systems, count a table with a predicted column "
            "per system (clfeval count --gold-col G --pred-col A --pred-col B)",
            files[0],
        )
    inputs: dict[str, Any] = {"count_files": files}
    freqs = _counts_training(train, train_col, joint.multilabel, label_sep, inputs, train_options)
    return compare_counts(joint, train=freqs, inputs=inputs, **options)


def cv_count_files(
    paths: Sequence[str | Sequence[str]],
    *,
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    label_sep: str = ",",
    **options: Any,
) -> CrossValidation:
    """Cross-validation from count files: each path (or glob, or list of parts, added up) is one fold.

    Other parameters as in :func:`cv`.
    """
    _check_cv(options, train)
    folds, shown = [], []
    for spec in paths:
        files = expand_paths(spec)
        counts = load_counts(files)
        if isinstance(counts, JointCounts):
            raise InputError(
                "holds joint counts of several systems; a fold's count file holds one system's counts", files[0]
            )
        folds.append(counts)
        shown.append(spec if isinstance(spec, str) else " + ".join(spec))
    if not folds:
        raise OptionError("give one count file per fold")
    names = _fold_names(shown)
    inputs: dict[str, Any] = {"fold_count_files": shown}
    freqs = _counts_training(train, train_col, isinstance(folds[0], LabelSetCounts), label_sep, inputs, train_options)
    return cross_validate(folds, fold_names=names, train=freqs, inputs=inputs, **options)


def counts_of_frame(
    frame: Any,
    *,
    gold_col: Column,
    pred_col: Column | None = None,
    pred_cols: Sequence[Column] | None = None,
    names: Sequence[str] | None = None,
    multilabel: bool = False,
    label_sep: str = ",",
    empty: str = "ignore",
    duplicates: str = "keep",
    scheduler: Any = None,
) -> Counts:
    """Count a ``dask.dataframe.DataFrame`` on a Dask cluster: the counts, ready for :func:`score_counts`,
    :func:`compare_counts` (with ``pred_cols``, one per system) or :func:`cv_counts`.

    Each partition is reduced to its unique label rows where it lives, and only those travel.
    Columns by name or 1-based/negative position; label sets as lists or as strings split on
    ``label_sep`` after the reduction. ``scheduler``: an address, a ``distributed.Client``, or
    ``None`` for a local cluster for the call.

    Examples
    --------
    A sketch (needs ``clfeval[dask]`` and a cluster)::

        import dask.dataframe as dd
        frame = dd.read_parquet("s3://bucket/predictions/")
        counts = clfeval.counts_of_frame(frame, gold_col="gold", pred_col="pred", scheduler="tcp://head:8786")
        clfeval.score_counts(counts, ci="bootstrap")
    """
    from clfeval.read.cluster import frame_cells

    columns = [pred_col if pred_col is not None else -1] if not pred_cols else list(pred_cols)
    cells = frame_cells(
        frame,
        [gold_col, *columns],
        ["gold", *[f"predicted ({c})" for c in columns]],
        scheduler=scheduler,
        empty_ok=multilabel,
    )
    if len(columns) > 1:
        systems = list(names) if names is not None else [str(c) for c in columns]
        return _to_joint(cells.rows, cells.counts, cells.source, systems, multilabel, label_sep, duplicates, empty)
    return _to_counts(cells.rows, cells.counts, cells.source, multilabel, label_sep, duplicates, empty)


def audit_file(
    path: str,
    *,
    beta: float = 1.0,
    decimals: int | None = None,
    train: str | Iterable[Any] | LabelFrequencies | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    multilabel: bool = False,
    all_averages: bool = False,
) -> Audit:
    """Audit a reported table: which formula reproduces each averaged figure (see :mod:`clfeval.inverse.audit`).

    ``path`` is a CSV, TSV, Markdown table or ``classification_report`` text with a label column
    and any of precision, recall, f1, support; rows named ``macro``, ``micro``, ``weighted``,
    ``macro avg``, ``average`` … are the reported averages (every row with ``all_averages``).
    ``train`` (a training file, its labels, or frequencies) gives the lfb weights.
    """
    check_decimals(decimals)
    if not (isinstance(beta, (int, float)) and math.isfinite(beta) and beta > 0):
        raise OptionError(f"beta must be a positive number, not {beta!r}")
    table = read_figure_table(path)
    inputs: dict[str, Any] = {}
    frequencies = (
        _file_training(
            train,
            train_col,
            None,
            dict(options=TableOptions(), multilabel=multilabel, label_sep=","),
            inputs,
            train_options,
        )
        if train is not None
        else None
    )
    return audit_table(
        table,
        beta=beta,
        decimals=decimals,
        train=frequencies,
        train_source=inputs.get("train_file", "given" if train is not None else None),
        single_label=not multilabel,
        all_averages=all_averages,
    )


def finagle(
    gold: Iterable[Any],
    pred: Iterable[Any],
    confidence: Iterable[float],
    *,
    threshold: float | None = None,
    expected_accuracy: float | None = None,
    to: str | None = None,
    lower_is_more_confident: bool = False,
    train: Iterable[Any] | LabelFrequencies | None = None,
    bins: int | None = None,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    beta: float = 1.0,
    zero_division: float | str = 0,
    undefined: str = "include",
) -> Finagle:
    """How far macro precision moves when doubtful predictions go to one label (Van Asch §6, Table 8).

    Scores NORMAL (the predictions), CHANGED (every prediction whose confidence is below
    ``threshold``, or whose calibrated accuracy is below ``expected_accuracy``, changed to the
    target ``to``: by default the most frequent training label, else the most frequent gold label)
    and UPPER (every wrong prediction changed to the target). ``confidence`` holds distances when
    ``lower_is_more_confident``. Other parameters as in :func:`score`; see
    :mod:`clfeval.score.finagle`.

    Examples
    --------
    >>> gold, pred = list("aaaabcc"), list("aaaabbc")
    >>> r = finagle(gold, pred, [0.9, 0.8, 0.9, 0.7, 0.9, 0.2, 0.9], threshold=0.5)
    >>> r.target, r.changed_where, r.moved["changed"], r.moved["still_wrong"]
    ('a', 'confidence < 0.5', 1, 1)
    >>> [(round(s.averages["macro"]["precision"], 4), s.accuracy) for s in r.scenarios.values()]
    [(0.8333, 0.8571428571428571), (0.9333, 0.8571428571428571), (0.9333, 0.8571428571428571)]
    """
    check_finagle(threshold, expected_accuracy, bins)
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    g, p, c = to_sequence(gold, "gold"), to_sequence(pred, "pred"), to_sequence(confidence, "confidence")
    if not len(g) == len(p) == len(c):
        raise InputError(f"gold, pred and confidence must have one entry per instance: {len(g)}, {len(p)} and {len(c)}")
    try:
        values = np.asarray(c, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError("the confidences must be numbers") from None
    if not np.isfinite(values).all():
        raise OptionError(f"confidence {int(np.argmin(np.isfinite(values)))} (from 0) is not a finite number")
    counts = ConfidenceCounts.from_rows(
        [str(v) for v in g], [str(v) for v in p], values, lower_is_more_confident=lower_is_more_confident
    )
    return finagle_counts(
        counts,
        threshold=threshold,
        expected_accuracy=expected_accuracy,
        to=to,
        train=_train(train, False, None),
        bins=bins,
        labels=labels,
        labels_from=labels_from,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        inputs={"source": "arrays"},
    )


def finagle_file(
    path: str | Sequence[str],
    *,
    gold_col: Column | None = None,
    pred_col: Column | None = None,
    conf_col: Column | None = None,
    threshold: float | None = None,
    expected_accuracy: float | None = None,
    to: str | None = None,
    lower_is_more_confident: bool = False,
    train: str | Iterable[Any] | None = None,
    train_col: Column | None = None,
    train_options: TableOptions | None = None,
    bins: int | None = None,
    labels: Sequence[Any] | None = None,
    labels_from: str | None = None,
    beta: float = 1.0,
    zero_division: float | str = 0,
    undefined: str = "include",
    input_format: str | None = None,
    sep: str | None = None,
    header: bool | None = None,
    engine: str = "polars",
    scheduler: Any = None,
    read_progress: ReadProgress | None = None,
) -> Finagle:
    """:func:`finagle` on a table of gold, predicted and confidence columns (default: the last three).

    TiMBL output with ``+v di`` ends in the distance to the nearest neighbour: pass
    ``lower_is_more_confident=True``. Files, parts and globs as in :func:`score_file`.
    """
    check_finagle(threshold, expected_accuracy, bins)
    check_scoring(
        labels_from=labels_from, beta=beta, zero_division=zero_division, undefined=undefined, labels=labels, train=train
    )
    kwargs = _reading(input_format, sep, header, False, ",", "keep", "ignore", engine, scheduler, read_progress)
    del kwargs["relabel"]
    kwargs["options"] = replace(kwargs["options"], keep_distance=True)  # TiMBL's distance after a distribution
    counts, warnings = count_confidences(
        path,
        gold_col=-3 if gold_col is None else gold_col,
        pred_col=-2 if pred_col is None else pred_col,
        conf_col=-1 if conf_col is None else conf_col,
        options=kwargs["options"],
        lower_is_more_confident=lower_is_more_confident,
        engine=kwargs["engine"],
    )
    inputs: dict[str, Any] = _file_inputs(path)
    freqs = _file_training(train, train_col, gold_col, kwargs, inputs, train_options)
    options = {
        **_options_used(input_format, sep, header, False, ",", engine),
        "confidence_column": str(-1 if conf_col is None else conf_col),
    }
    return finagle_counts(
        counts,
        threshold=threshold,
        expected_accuracy=expected_accuracy,
        to=to,
        train=freqs,
        bins=bins,
        labels=labels,
        labels_from=labels_from,
        beta=beta,
        zero_division=zero_division,
        undefined=undefined,
        inputs=inputs,
        options=options,
        warnings=warnings,
    )
