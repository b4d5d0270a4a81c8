"""The ``cv`` command: its options, and k folds scored both ways (pooled counts, and the mean of the folds)."""

from __future__ import annotations

import argparse
from typing import Any

from clfeval.api import cv
from clfeval.cli import options
from clfeval.cli.inputs import check_counts, load_count_files
from clfeval.count.labelsets import MultiLabel
from clfeval.errors import ClfevalError
from clfeval.infer.methods import INTERVAL_METHODS
from clfeval.inputs.columns import parse_column
from clfeval.inputs.readers import read_folds

__all__ = ["HELP", "add_cv", "run_cv"]

#: What the command does, in one line (the top-level help lists it).
HELP = "cross-validation: pooled and mean-of-folds scores"


def add_cv(sub: Any) -> None:
    """Add the ``cv`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "cv",
        help=HELP,
        description="Score k folds both ways: pooled (add the folds' counts, then score: F_tp,fp, the score of "
        "all N predictions as one test set) and the mean ± sd of the folds' own scores (F_avg, the score "
        "on a test set of one fold's size), with a table per fold and a warning when the two differ. Give one "
        "file per fold (gold and predicted columns, by default the last two, as for score), or one file and its "
        "--fold-col.",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="FOLD",
        help="one file (or quoted glob of parts) per fold, or a table with --fold-col (one file, parts or a glob)",
    )
    src = p.add_argument_group("input")
    options.add_table_options(src)
    options.add_weight_option(src)
    src.add_argument(
        "--fold-col",
        metavar="COL",
        help="the fold column of a single file: 1-based number, negative from the end, or header name",
    )
    src.add_argument("--gold-col", metavar="COL", help="gold column (default: -2; with --fold-col -1: -3)")
    src.add_argument("--pred-col", metavar="COL", help="predicted column (default: -1; with --fold-col -1: -2)")
    options.add_input_rules(p)
    options.add_multilabel_options(p)
    options.add_span_options(p)
    options.add_scored_options(
        p,
        what="folds of scored predictions, each FOLD file's score columns (the pooled scores and each fold's: ROC "
        "AUC, average precision, log loss, Brier, calibration)",
        threshold=False,
    )
    options.add_engine_options(p)
    options.add_label_set_options(p)
    options.add_interval_options(p, "intervals of the pooled scores", scored=True)
    options.add_group_options(
        p,
        column="a column naming each instance's group (language, domain, site …): each group's counts pooled over "
        "the folds, kept per group in bounded memory (1-based number, negative from the end, or header name); repeat "
        "it for the intersections of several columns; with one table, its --fold-col, --gold-col and --pred-col",
    )
    p.add_argument(
        "--warn-above",
        type=float,
        default=0.01,
        metavar="D",
        help="warn when a pooled and a mean-of-folds value differ by more than D (default 0.01)",
    )
    out = options.add_output_options(p, figures=True)
    out.add_argument("--no-matrix", action="store_true", help="leave the pooled confusion matrix out of the report")
    options.add_report_options(out)
    p.set_defaults(run=run_cv)


def run_cv(args: argparse.Namespace) -> str:
    """Run ``cv``: the pooled and mean-of-folds report, in the asked format (with ``--counts``, one count file or
    glob per fold)."""
    if args.group_col:
        return _cv_groups(args)
    options.slicing(args, False)  # --group-test, --group-metric, --rounds without --group-col: refused, by name
    if args.scores is not None:
        options.refuse_for_scores(args, engine=True)
        return _cv_scored(args)
    kinds = INTERVAL_METHODS[args.ci].kinds  # a method of some kinds only (DeLong's: scored predictions)
    if kinds is not None:
        raise ClfevalError(f"--ci {args.ci} is for {', '.join(sorted(kinds))} counts: give --scores")
    scoring, interval = options.scoring(args), options.ci(args)
    options.check_view(args)
    reading = options.reading(args)
    try:
        if args.counts:
            check_counts(args.files, reading)
            folds: Any = [load_count_files(args, spec, "cv") for spec in args.counts]  # one count file per fold
        else:
            if not args.files:
                raise ClfevalError("give one file per fold, a table with --fold-col, or --counts (one per fold)")
            folds = read_folds(
                args.files,
                fold_col=parse_column(args.fold_col),
                gold_col=parse_column(args.gold_col),
                pred_col=parse_column(args.pred_col),
                reading=reading,
                spans=options.spans(args),
            )
    finally:
        options.close(reading)
    result = options.with_bar(args, args.ci, cv, folds, scoring=scoring, ci=interval, warn_above=args.warn_above)
    return options.render(result, args, matrix=not args.no_matrix)


def _cv_groups(args: argparse.Namespace) -> str:
    """``cv --fold-col F --group-col COL``: each group's counts pooled over the folds, scored by the one path of
    ``score --group-col`` (the table's distinct (gold, predicted, group…, fold) rows counted once,
    :func:`~clfeval.inputs.readers.read_fold_groups`), the folds and their sizes named in the notes as
    ``clfeval.cv(..., groups=)`` names them."""
    from clfeval.api import folds_noted, score
    from clfeval.inputs.readers import read_fold_groups

    options.refuse_for_groups(
        args,
        ("--scores (score the pooled file of scores with score --group-col)", args.scores),
        ("--counts (fold count files hold no groups)", args.counts or None),
        ("--spans (score the pooled sentences with score --spans --group-col)", args.spans),
        ("--warn-above (by group there is no mean of folds to compare)", (args.warn_above != 0.01) or None),
        ("one file per fold (give one table and its --fold-col)", (bool(args.files) and args.fold_col is None) or None),
    )  # fmt: skip
    if not args.files or args.fold_col is None:
        raise ClfevalError("--group-col reads one table (or its parts) with its --fold-col")
    if args.gold_col is None or args.pred_col is None:
        raise ClfevalError(
            "with --group-col, say which columns hold gold and predicted labels (--gold-col, --pred-col)"
        )
    kinds = INTERVAL_METHODS[args.ci].kinds  # a method of some kinds only (DeLong's: scored predictions)
    if kinds is not None:
        raise ClfevalError(f"--ci {args.ci} is for {', '.join(sorted(kinds))} counts: give --scores")
    scoring, interval = options.scoring(args), options.ci(args)
    options.check_view(args)
    slicing = options.slicing(args, True)
    reading = options.reading(args)
    try:
        table = [p for spec in args.files for p in ([spec] if isinstance(spec, str) else spec)]
        counted, sizes = read_fold_groups(
            table[0] if len(table) == 1 else table,
            fold_col=parse_column(args.fold_col),
            gold_col=parse_column(args.gold_col),
            pred_col=parse_column(args.pred_col),
            reading=reading,
        )
    finally:
        options.close(reading)
    result = options.with_bar(args, args.ci, score, counted, scoring=scoring, ci=interval, slicing=slicing)
    return options.render(folds_noted(result, sizes), args, matrix=not args.no_matrix)


def _cv_scored(args: argparse.Namespace) -> str:
    """``cv --scores``: one file of scored predictions per fold."""
    from dataclasses import replace

    import numpy as np
    import polars as pl

    from clfeval.count.classes import class_order
    from clfeval.inputs.scoredfile import read_scored

    if not args.files or args.counts or args.fold_col:
        raise ClfevalError("--scores reads one file of scored predictions per fold")
    labels = options.scoring(args).labels
    declared = None if labels is None else [str(x) for x in labels]
    probabilities = False if args.not_probabilities or args.lower_is_more_confident else None
    if options.scores_on_dask(args, ("--multilabel", args.multilabel)):
        return _cv_on_dask(args, declared, probabilities)
    with options.reading_bar(args) as progress:
        found = [
            read_scored(path, args.scores, gold_col=parse_column(args.gold_col), labels=declared,
                        probabilities=probabilities, label_sets=args.multilabel, progress=progress,
                        weight_col=parse_column(args.weight_col))
            for path in args.files
        ]  # fmt: skip
    names = found[0].classes
    classes = declared
    multilabel = MultiLabel(args.label_sep or ",", args.empty, args.duplicates) if args.multilabel else None
    if classes is None and names is None and multilabel is not None:
        raise ClfevalError("multi-label scores: name the labels of the score columns (a glob 'p_*', or --labels)")
    if classes is None and names is None:  # binary scores: the classes of every fold's gold labels, in order
        numbers = True if all(f.numbers for f in found) else (False if any(f.numbers is False for f in found) else None)
        classes = class_order({str(v) for f in found for v in np.unique(f.gold.astype(str)).tolist()}, numbers)
    if args.positive is not None:  # binary scores belong to the last class
        if len(found[0].scores.shape) > 1 or classes is None or args.positive not in classes:
            raise ClfevalError(f"--positive names the class of binary scores, one of {classes}; not {args.positive!r}")
        classes = [*(c for c in classes if c != args.positive), args.positive]
    gold = np.concatenate([f.gold.astype(str) for f in found])
    if any(f.classes != names for f in found[1:]):
        raise ClfevalError(f"every fold's file names the same score columns: {args.files[0]} names {names}")
    stacked = np.concatenate([f.scores for f in found])
    scores = stacked if names is None or stacked.ndim == 1 else pl.DataFrame(stacked, schema=names, orient="row")
    fold_of = np.repeat(np.arange(len(found)), [len(f.gold) for f in found])
    weight = None if args.weight_col is None else np.concatenate([f.weight for f in found])
    result = options.with_bar(
        args, args.ci, cv, gold, scores=scores, folds=fold_of, labels=classes, ci=args.ci,
        **options.interval_settings(args), conventions=options.conventions(args), multilabel=multilabel,
        sample_weight=weight, **options.scored_scoring(args),
    )  # fmt: skip
    if weight is not None:  # the weights' source is the column, not sample_weight=
        column = found[0].inputs["sample_weight"]["source"]
        result = replace(result, pooled=options.weights_named(result.pooled, column),
                         folds=tuple(options.weights_named(f, column) for f in result.folds))  # fmt: skip
    from clfeval.inputs.readers import fold_names

    return options.render(replace(result, fold_names=tuple(fold_names(list(args.files)))), args)


def _cv_on_dask(args: argparse.Namespace, declared: list[str] | None, probabilities: bool | None) -> str:
    """``cv --scores --engine dask``: each fold's file (or parts) counted on the cluster into its distinct rows,
    every fold under the pooled folds' classes (:func:`~clfeval.inputs.scoredcluster.count_folds`), scored as the
    folds of one machine are."""
    from dataclasses import replace

    from clfeval.inputs.readers import fold_names
    from clfeval.inputs.scoredcluster import count_folds

    counter = options.scored_counter(args, args.scores, labels=declared, probabilities=probabilities,
                                     positive_last=True)  # fmt: skip
    found = count_folds(list(args.files), counter, args.scheduler)
    result = options.with_bar(
        args, args.ci, cv, [counts for counts, _ in found], ci=args.ci, **options.interval_settings(args),
        conventions=options.conventions(args), **options.scored_scoring(args),
    )  # fmt: skip
    if args.weight_col is not None:  # the weights' source is the column, not sample_weight=
        column = found[0][1]["sample_weight"]["source"]
        result = replace(result, pooled=options.weights_named(result.pooled, column),
                         folds=tuple(options.weights_named(f, column) for f in result.folds))  # fmt: skip
    shown = [f if isinstance(f, str) else ", ".join(f) for f in args.files]
    return options.render(replace(result, fold_names=tuple(fold_names(shown))), args)
