"""The ``score`` command: its options, and scoring the instances, count files or confusion matrix they name."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from clfeval.api import score
from clfeval.cli import options
from clfeval.cli.inputs import (
    WEIGHTS_IN_COUNTS,
    add_input_arguments,
    check_read_under,
    counts_given,
    layout,
    no_rules,
)
from clfeval.count.labelsets import MultiLabel
from clfeval.errors import ClfevalError
from clfeval.infer.methods import CI, INTERVAL_METHODS, cost_note
from clfeval.inputs.columns import parse_column
from clfeval.inputs.matrix import MATRIX_ORIENTATIONS
from clfeval.inputs.options import Reading
from clfeval.inputs.readers import Counted, read, read_matrix
from clfeval.inputs.scoredfile import TIMBL
from clfeval.kinds import kind_of
from clfeval.result import FrozenDict

__all__ = ["HELP", "add_score", "run_score"]

#: What the command does, in one line (the top-level help lists it).
HELP = "score predictions against gold labels"


def add_score(sub: Any) -> None:
    """Add the ``score`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "score",
        help=HELP,
        description="Score predictions against gold labels: per-label counts and measures, every average by "
        "its explicit name, over a stated label set. INPUT holds gold and predicted columns (by "
        "default the last two, whitespace-separated, as TiMBL writes them); several files or a quoted "
        "glob ('data/part-*.parquet') are parts of one table. Exactly two files are GOLD and PRED, the "
        "gold file and the predictions, one instance per line (unless --parts).",
    )
    add_input_arguments(p)
    src = p.add_argument_group("input")
    src.add_argument("--matrix", metavar="FILE", help="score a confusion matrix: first row and column are labels")
    src.add_argument(
        "--matrix-rows",
        choices=sorted(MATRIX_ORIENTATIONS),
        default="gold",
        help=f"what the matrix rows hold ({options.choices(MATRIX_ORIENTATIONS)}); default: gold",
    )
    options.add_table_options(src)
    options.add_weight_option(src)
    src.add_argument(
        "--gold-col",
        metavar="COL",
        help="gold column: 1-based number, negative from the end, or header name (default: -2; with PRED: -1)",
    )
    options.add_group_options(p, documents=True)
    src.add_argument("--pred-col", metavar="COL", help="predicted column (default: -1)")
    options.add_input_rules(
        p,
        "intervals resample whole blocks (--ci bootstrap, bootstrap-bca; the delta method takes "
        "blocks as its independent units)",
    )
    options.add_multilabel_options(p)
    options.add_span_options(p, errors=True)
    options.add_engine_options(p)
    options.add_label_set_options(p)
    options.add_scored_options(p)
    options.add_interval_options(p, "confidence intervals", scored=True)
    out = options.add_output_options(p, figures=True)
    out.add_argument("--no-matrix", action="store_true", help="leave the confusion matrix out of the report")
    options.add_report_options(out)
    p.set_defaults(run=run_score)


def run_score(args: argparse.Namespace) -> str:
    """Run ``score``: the report, in the asked format."""
    if args.group_col or args.group_by:
        options.group_columns(args)  # --group-by document is for spans: refused, by name, with any other input
        _refuse_for_groups(args)
    if args.scores is not None:
        options.refuse_for_scores(args, engine=True)
        return _run_scored(args)
    if args.counts and _scored_files(args):
        options.refuse_for_scores(args)
        return _run_scored(args, counts=True)
    kinds = INTERVAL_METHODS[args.ci].kinds  # a method of some kinds only (DeLong's: scored predictions)
    if kinds is not None:
        raise ClfevalError(f"--ci {args.ci} is for {', '.join(sorted(kinds))} counts: give --scores")
    scoring, interval = options.scoring(args), options.ci(args)
    options.check_view(args)
    reading = options.reading(args)
    try:
        counted = _score_input(args, reading)
    finally:
        options.close(reading)
    if args.format == "conlleval":  # conlleval.pl's report of the counts (a file without a span has no scores)
        from clfeval.render.conlleval import render_conlleval

        return render_conlleval(counted.counts)
    if args.group_col and counted.group_columns is not None:
        _same_group_columns(args, counted)
    slicing = options.slicing(args, counted.groups is not None)
    if interval is not None:
        _say_cost(interval, counted)
    grouped = {} if slicing is None else {"slicing": slicing}
    result = options.with_bar(args, args.ci, score, counted, scoring=scoring, ci=interval, **grouped)
    return options.render(result, args, matrix=not args.no_matrix)


def _refuse_for_groups(args: argparse.Namespace) -> None:
    """What ``--group-col`` is not taken with (yet), each named: a matrix, conlleval's report, a gold file and a
    predictions file paired line by line (but CoNLL files of spans, whose sentences are paired), scored count files
    and TiMBL's distributions (they hold no group column)."""
    options.refuse_for_groups(
        args,
        ("--matrix", args.matrix),
        ("--format conlleval", args.format == "conlleval" or None),
        ("GOLD PRED files (give one table holding gold, predicted and group columns)",
         (len(args.inputs) == 2 and not args.parts and not args.spans) or None),
        ("scored count files (they hold no groups: score the file of scores with --group-col)",
         (args.counts and _scored_files(args)) or None),
        ("--scores timbl (TiMBL's output has no group column)", args.scores == TIMBL or None),
    )  # fmt: skip


def _same_group_columns(args: argparse.Namespace, counted: Counted) -> None:
    """--group-col beside count files by group names their group columns (as strings), or is an error."""
    if not args.counts:
        return
    asked = [str(c) for c in options.group_columns(args) or ()]
    held = list(counted.group_columns or ())
    if asked != held:
        raise ClfevalError(
            f"--group-col {' '.join(asked)} asks for other groups than the count files hold (by {', '.join(held)}): "
            "count the table again with those --group-col, or leave --group-col out"
        )


def _scored_files(args: argparse.Namespace) -> bool:
    """Whether the --counts files are counts of scored predictions: the kind their first file's document names
    (:func:`~clfeval.kinds.document_kind`) says so, read through the guarded reader of count files."""
    from clfeval.inputs.chunks import expand_paths
    from clfeval.inputs.layouts import count_document
    from clfeval.kinds import document_kind

    try:
        doc = count_document(expand_paths(args.counts)[0])
    except (IndexError, ClfevalError):
        return False  # the count-file reader says what is wrong
    kind = document_kind(doc.get("kind")) if isinstance(doc, dict) else None
    return kind is not None and kind.scored


def _run_scored(args: argparse.Namespace, counts: bool = False) -> str:
    """``score --scores``: the scored-predictions report of one file (or, ``counts``, of scored count files)."""
    multilabel: Any = None
    weight: Any = None
    grouped: Any = None
    weight_col = parse_column(args.weight_col)
    if counts:
        from clfeval.inputs.readers import load_counts

        if args.inputs or args.matrix:
            raise ClfevalError("--counts takes the count files alone")
        if weight_col is not None:
            raise ClfevalError(WEIGHTS_IN_COUNTS)
        loaded = load_counts(args.counts)
        check_read_under(args, loaded)  # a scored count file holds its scores as given: no span option applies
        given: Any = loaded
        scores_of: Any = None
        declared = options.scoring(args).labels  # checked against the count file's classes when scored
        labels: Any = None if declared is None else [str(x) for x in declared]
        blocks: Any = None
    else:
        from clfeval.inputs.scoredfile import count_scored, read_scored

        in_blocks = options.score_blocks(args)
        on_dask = options.scores_on_dask(
            args,
            ("--group-col", args.group_col),
            *options.block_options(args),
        )
        if (len(args.inputs) != 1 and not (on_dask and args.inputs)) or args.counts or args.matrix:
            raise ClfevalError("--scores reads one file with a gold column and score columns")
        if args.pred_col is not None:
            raise ClfevalError("--scores takes the place of --pred-col")
        declared = options.scoring(args).labels
        declared = None if declared is None else [str(x) for x in declared]
        probabilities = False if args.not_probabilities or args.lower_is_more_confident else None
        if on_dask:  # each part counted where it lies, the distinct rows merged in a tree
            from clfeval.inputs.scoredcluster import count_paths

            counter = options.scored_counter(args, args.scores, labels=declared, probabilities=probabilities)
            given, read_inputs = count_paths(args.inputs, counter, args.scheduler)
            scores_of = labels = blocks = weight = None
        elif args.group_col:  # the rows themselves (gold, scores, weights, blocks) and each row's group
            with options.reading_bar(args) as progress:
                found = read_scored(args.inputs[0], args.scores, gold_col=parse_column(args.gold_col),
                                    labels=declared, probabilities=probabilities, label_sets=bool(args.multilabel),
                                    **in_blocks, progress=progress, weight_col=weight_col,
                                    group_col=[parse_column(c) for c in args.group_col])  # fmt: skip
            given, scores_of, blocks, read_inputs = found.gold, found.named(), found.blocks, found.inputs
            labels, weight, grouped = found.labels(declared), found.weight, found.groups
            if args.multilabel:
                multilabel = MultiLabel(args.label_sep or ",", args.empty, args.duplicates)
        elif args.multilabel and any(in_blocks.values()):  # a cell of gold labels per row, in blocks
            multilabel = MultiLabel(args.label_sep or ",", args.empty, args.duplicates)
            with options.reading_bar(args) as progress:
                found = read_scored(args.inputs[0], args.scores, gold_col=parse_column(args.gold_col),
                                    labels=declared, probabilities=probabilities, label_sets=True, **in_blocks,
                                    progress=progress, weight_col=weight_col)  # fmt: skip
            given, scores_of, blocks, read_inputs = found.gold, found.named(), found.blocks, found.inputs
            labels, weight = found.labels(declared), found.weight
        elif any(in_blocks.values()):  # the instances themselves: blocks group them
            with options.reading_bar(args) as progress:
                found = read_scored(args.inputs[0], args.scores, gold_col=parse_column(args.gold_col),
                                    labels=declared, probabilities=probabilities, **in_blocks,
                                    progress=progress, weight_col=weight_col)  # fmt: skip
            given, scores_of, blocks, read_inputs = found.gold, found.named(), found.blocks, found.inputs
            labels, weight = found.labels(declared), found.weight
        else:  # counted as read, part by part: memory grows with the distinct rows, not the file
            with options.reading_bar(args) as progress:
                given, read_inputs = count_scored(
                    args.inputs[0], args.scores, gold_col=parse_column(args.gold_col), labels=declared,
                    probabilities=probabilities, positive=args.positive, bins=args.score_bins, progress=progress,
                    weight_col=weight_col,
                    multilabel=MultiLabel(args.label_sep or ",", args.empty, args.duplicates) if args.multilabel
                    else None,
                )  # fmt: skip
            scores_of = labels = blocks = weight = None
    result = options.with_bar(
        args,
        args.ci,
        score,
        given,
        scores=scores_of,
        labels=labels,
        positive=args.positive,
        threshold=args.threshold,
        conventions=options.conventions(args),
        ci=args.ci,
        **options.interval_settings(args),
        blocks=blocks,
        multilabel=multilabel,
        sample_weight=weight,
        **options.scored_scoring(args),
        **({} if grouped is None else {"groups": grouped, "slicing": options.slicing(args, True)}),
    )
    if not counts and grouped is not None:  # each group's result, and the whole's, names the file
        of_group = {k: v for k, v in read_inputs.items() if k not in ("n_blocks", "clipped")}  # the whole file's
        result = dataclasses.replace(
            result,
            overall=_from_file(result.overall, read_inputs),
            by_group=FrozenDict({g: _from_file(r, of_group) for g, r in result.by_group.items()}),
        )
    elif not counts:
        result = _from_file(result, read_inputs)
    return options.render(result, args)


def _from_file(result: Any, read_inputs: dict[str, Any]) -> Any:
    """A scored result whose inputs are the file, its columns and its blocks, not "arrays"; how the columns were
    matched; its weights' source the weight column, not ``sample_weight=``."""
    matched = {
        k: v for k, v in result.inputs.items() if k in ("columns_matched", "positive", "clipped", "sample_weight")
    }
    result = dataclasses.replace(result, inputs=FrozenDict({**read_inputs, **matched}))
    if "sample_weight" in read_inputs:
        result = options.weights_named(result, read_inputs["sample_weight"]["source"])
    return result


def _say_cost(interval: CI, counted: Counted) -> None:
    """Say on standard error, before it starts, when an interval method will take long on these counts (and why)."""
    counts = counted.counts
    kind = kind_of(counts)
    if counted.blocks is not None or kind is None or kind.family is None:
        return
    types, labels = kind.n_types(counts), len(kind.labels(counts))
    note = cost_note(interval.method, types, labels, interval.resamples if interval.resampling else 0)
    if note is not None:
        print(f"clfeval: note: {note}", file=sys.stderr)


def _score_input(args: argparse.Namespace, reading: Reading) -> Counted:
    """Read and count what the arguments name (a matrix file, count files, or instance files)."""
    if args.matrix:
        if args.inputs or args.counts:
            raise ClfevalError("--matrix takes no INPUT file, no --counts and no --multilabel")
        if reading.label_sets is not None:
            raise ClfevalError("--matrix takes no INPUT file, no --counts and no --multilabel")
        if reading.weight_col is not None:
            raise ClfevalError("--matrix holds counts already: --weight-col weighs the instances of a table")
        no_rules(reading)
        return read_matrix(
            args.matrix, rows=args.matrix_rows, reading=Reading(input_format=args.input_format, sep=args.sep)
        )
    if args.counts:
        return counts_given(args, args.inputs, reading, "score")
    if not args.inputs:
        raise ClfevalError("give an INPUT file (or - for standard input), --counts FILE…, or --matrix FILE")
    chosen = options.spans(args)
    if chosen is not None and args.errors and not isinstance(layout(args)[0], str):
        raise ClfevalError("--errors lists the wrong spans of one CoNLL file (or a gold file and a prediction file)")
    counted = read(*layout(args), gold_col=parse_column(args.gold_col), pred_col=parse_column(args.pred_col),
                   reading=reading, spans=chosen)  # fmt: skip
    if chosen is not None and args.errors:
        from clfeval.inputs.conll import write_span_errors

        write_span_errors(args.errors, *layout(args), gold_col=parse_column(args.gold_col),
                          pred_col=parse_column(args.pred_col), spans=chosen, block_end=reading.block_end,
                          raw=args.raw_csv)  # fmt: skip
    return counted
