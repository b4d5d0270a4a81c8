"""The ``count`` command: its options, and counting files into a count file (JSON) to add up and score later."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from clfeval.cli import options
from clfeval.cli.inputs import add_input_arguments, layout
from clfeval.errors import ClfevalError
from clfeval.inputs.columns import parse_column
from clfeval.inputs.readers import read

__all__ = ["HELP", "add_count", "run_count"]

#: What the command does, in one line (the top-level help lists it).
HELP = "count files into a count file, to add up and score later"


def add_count(sub: Any) -> None:
    """Add the ``count`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "count",
        help=HELP,
        description="Count the label columns of INPUT (the layouts of score; with --pred-col repeated, one column per "
        "system, as for compare) and write the sufficient statistics as a count file (JSON, schema "
        "clfeval.counts/1). Count files of parts add up, labels aligned by name: score --counts a.json "
        "b.json, compare --counts, cv --counts (one per fold). With --group-col, the counts are kept per group "
        "(count files by the same group columns add up group by group).",
    )
    add_input_arguments(p)
    src = p.add_argument_group("input")
    options.add_table_options(src)
    options.add_weight_option(src)
    src.add_argument("--gold-col", metavar="COL", help="gold column (default: -2; with PRED: -1)")
    src.add_argument(
        "--pred-col",
        metavar="COL",
        action="append",
        help="predicted column (default: -1); repeat it for a column per system (joint counts)",
    )
    src.add_argument(
        "--name",
        metavar="NAME",
        action="append",
        dest="names",
        help="the systems' names, with --pred-col repeated (default: the column names)",
    )
    options.add_group_options(p, scores=False)
    options.add_input_rules(p)
    options.add_multilabel_options(p)
    options.add_span_options(p)
    options.add_scored_options(
        p, what="count scored predictions (the count file holds their distinct (gold, scores) rows)", report=False
    )
    options.add_engine_options(p, counts=False)
    options.add_invalid_option(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write the count file to FILE instead of standard output")
    p.set_defaults(run=run_count)


def run_count(args: argparse.Namespace) -> str:
    """Run ``count``: the count file, as one line of JSON (the reading's warnings on standard error)."""
    if not args.inputs:
        raise ClfevalError("give INPUT files (or - for standard input)")
    if args.group_col:
        options.refuse_for_groups(
            args,
            ("--scores", args.scores),
            ("--spans", args.spans),
            ("--pred-col repeated (several systems)", len(args.pred_col or []) > 1 or None),
            ("GOLD PRED files (give one table holding gold, predicted and group columns)",
             (len(args.inputs) == 2 and not args.parts) or None),
        )  # fmt: skip
    if args.scores is not None:
        options.refuse_for_scores(args, engine=True)
        return _count_scored(args)
    reading = options.reading(args)
    pred_cols = [parse_column(c) for c in args.pred_col or []]
    try:
        counted = read(
            *layout(args),
            gold_col=parse_column(args.gold_col),
            pred_col=pred_cols if len(pred_cols) > 1 else (pred_cols[0] if pred_cols else None),
            names=args.names,
            reading=reading,
            spans=options.spans(args),
        )
    finally:
        options.close(reading)
    if args.invalid in ("wrong", "omit"):
        counted = _invalid_kept(counted)
    for warning in counted.warnings:
        print(f"clfeval: warning: {warning}", file=sys.stderr)
    return json.dumps(counted.to_dict(), ensure_ascii=False) + "\n"


def _invalid_kept(counted: Any) -> Any:
    """The counts with each empty prediction as the label (invalid) (an empty gold cell refused): a count file keeps
    invalid predictions whatever the policy, which applies when the counts are scored (score --counts --invalid)."""
    from dataclasses import replace

    from clfeval.count.invalid import screen

    where = f"{counted.inputs.get('file') or (counted.inputs.get('files') or [''])[0]}: "
    counts, blocks, _ = screen(counted.counts, "wrong", blocks=counted.blocks, where=where)
    if counted.groups is not None:  # each group's counts, as the whole's
        groups = {name: screen(c, "wrong", where=where)[0] for name, c in counted.groups.items()}
        return replace(counted, counts=counts, blocks=blocks, groups=groups)
    return replace(counted, counts=counts, blocks=blocks)


def _count_scored(args: argparse.Namespace) -> str:
    """``count --scores``: the count file of one file of scored predictions."""
    from clfeval.count.labelsets import MultiLabel
    from clfeval.inputs.scoredfile import count_scored
    from clfeval.kinds.countfile import counts_to_dict

    on_dask = options.scores_on_dask(args)
    if (len(args.inputs) != 1 and not on_dask) or args.pred_col:
        raise ClfevalError("--scores reads one file with a gold column and score columns (no --pred-col)")
    labels = getattr(args, "labels", None)
    declared = None if not isinstance(labels, list) else [str(x) for x in labels]
    # a count file holds the scores as given: they are checked as probabilities when they are scored (unless said
    # otherwise then), so distances and margins count as they are
    if on_dask:  # the parts of one table, each counted where it lies
        from clfeval.inputs.scoredcluster import count_paths

        counter = options.scored_counter(args, args.scores, labels=declared, probabilities=False)
        counts, inputs = count_paths(args.inputs, counter, args.scheduler)
        return json.dumps(counts_to_dict(counts, inputs=inputs), ensure_ascii=False) + "\n"
    with options.reading_bar(args) as progress:
        counts, inputs = count_scored(args.inputs[0], args.scores, gold_col=parse_column(args.gold_col),
                                      labels=declared, positive=args.positive, probabilities=False,
                                      progress=progress, weight_col=parse_column(args.weight_col),
                                      multilabel=MultiLabel(args.label_sep or ",", args.empty, args.duplicates)
                                      if args.multilabel else None)  # fmt: skip
    return json.dumps(counts_to_dict(counts, inputs=inputs), ensure_ascii=False) + "\n"
