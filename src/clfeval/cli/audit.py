"""The ``audit`` command: its options, and which averaging formula reproduces each figure of a reported table."""

from __future__ import annotations

import argparse
from typing import Any

from clfeval.api import audit_file
from clfeval.cli import options

__all__ = ["HELP", "add_audit", "run_audit"]

#: What the command does, in one line (the top-level help lists it).
HELP = "which average did a reported table use: AF or FA macro F1, weighted, micro, lfb"


def add_audit(sub: Any) -> None:
    """Add the ``audit`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "audit",
        help=HELP,
        description="Audit a reported table: for each averaged figure, say which formula reproduces it within the "
        "table's rounding — macro (AF: mean of per-label F), macro_fa (FA: F of macro P and macro R), "
        "weighted, micro, lfb — or that none does; flag label rows whose F is not the F of their P and "
        "R; with supports, bound each label's tp, fp and fn. TABLE is a CSV, TSV, Markdown table or "
        "classification_report text with a label column and any of precision, recall, f1, support; rows "
        "named macro, micro, weighted, macro avg, average … are the averages (blank cells allowed).",
    )
    p.add_argument("table", metavar="TABLE", help="the reported table")
    a = p.add_argument_group("audit")
    a.add_argument(
        "--decimals",
        type=int,
        help="the decimals every ratio was rounded to (default: as written; "
        "a paper printing 0.4 for 0.40 needs --decimals 2)",
    )
    a.add_argument("--beta", type=float, default=1.0, help="β of the reported F (default 1)")
    a.add_argument("--train", metavar="FILE", help="training data whose label frequencies give the lfb weights")
    a.add_argument("--train-col", metavar="COL", help="the training file's label column (default -1, the last)")
    a.add_argument(
        "--multilabel",
        action="store_true",
        help="multi-label data: micro is not accuracy, and N is not the sum of the supports",
    )
    a.add_argument(
        "--all-averages",
        action="store_true",
        help="every row is an averaged row (a results table, one system per row): each judged by its own P, R, F",
    )
    options.add_output_options(p)
    p.set_defaults(run=run_audit)


def run_audit(args: argparse.Namespace) -> str:
    """Run ``audit``: the verdict on each averaged figure and label row, in the asked format."""
    result = audit_file(
        args.table,
        beta=args.beta,
        decimals=args.decimals,
        train=options.training(args),
        multilabel=args.multilabel,
        all_averages=args.all_averages,
    )
    return result.render(args.format, digits=args.digits, raw_csv=args.raw_csv)
