"""The ``finagle`` command: its options, and how far macro precision moves when doubtful predictions are changed.

The finagle itself (:mod:`clfeval.scoring.finagle`) is imported only when the command runs: another command does
not load it.
"""

from __future__ import annotations

import argparse
from typing import Any

from clfeval.api import finagle
from clfeval.cli import options
from clfeval.inputs.columns import parse_column
from clfeval.inputs.readers import read_confidences

__all__ = ["HELP", "add_finagle", "run_finagle"]

#: What the command does, in one line (the top-level help lists it).
HELP = "how far macro precision moves when doubtful predictions go to one label (Van Asch §6)"


def add_finagle(sub: Any) -> None:
    """Add the ``finagle`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "finagle",
        help=HELP,
        description="Score NORMAL (the predictions), CHANGED (every doubtful prediction changed to one target "
        "label) and UPPER (every wrong prediction changed to it: the bound of the trick) side by side, "
        "for every average, with accuracy: macro precision can rise without one more correct "
        "prediction. INPUT holds gold, predicted and confidence columns (default: the last three; TiMBL "
        "+v di output ends in the distance: --lower-is-more-confident). Doubtful: confidence below "
        "--threshold, or in the bins whose calibrated accuracy is below --expected-accuracy.",
    )
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="the table: files or quoted glob patterns (parts of one table), or - for standard input",
    )
    src = p.add_argument_group("input")
    options.add_table_options(src)
    src.add_argument("--gold-col", metavar="COL", help="gold column (default -3)")
    src.add_argument("--pred-col", metavar="COL", help="predicted column (default -2)")
    src.add_argument("--conf-col", metavar="COL", help="confidence (or distance) column (default -1)")
    doubt = p.add_argument_group("which predictions are doubtful, and where they go")
    rule = doubt.add_mutually_exclusive_group(required=True)
    rule.add_argument(
        "--threshold", type=float, metavar="T", help="change predictions whose confidence is below T (distance above T)"
    )
    rule.add_argument(
        "--expected-accuracy",
        type=float,
        metavar="A",
        help="change predictions whose calibrated accuracy (accuracy per confidence bin, made "
        "monotone) is below A, e.g. 0.35 as in the seed",
    )
    doubt.add_argument(
        "--lower-is-more-confident",
        action="store_true",
        help="the column holds distances (lower is surer), as TiMBL's nearest-neighbour distance",
    )
    doubt.add_argument(
        "--to",
        metavar="LABEL",
        help="the target label (default: the most frequent training label, else the most frequent gold label)",
    )
    doubt.add_argument("--bins", type=int, metavar="K", help="calibration bins (default: about 100 instances each)")
    options.add_engine_options(p, counts=False)
    options.add_label_set_options(p)
    out = options.add_output_options(p)
    options.add_report_options(out, measures=False)
    p.set_defaults(run=run_finagle)


def run_finagle(args: argparse.Namespace) -> str:
    """Run ``finagle``: NORMAL, CHANGED and UPPER side by side, in the asked format (the rule is checked before a
    byte is read)."""
    from clfeval.scoring.finagle import check_rule

    check_rule(args.threshold, args.expected_accuracy, args.bins)  # before a byte is read
    scoring = options.scoring(args)
    reading = options.reading(args)
    try:
        counted = read_confidences(
            args.inputs[0] if len(args.inputs) == 1 else list(args.inputs),
            gold_col=parse_column(args.gold_col),
            pred_col=parse_column(args.pred_col),
            conf_col=parse_column(args.conf_col),
            lower_is_more_confident=args.lower_is_more_confident,
            reading=reading,
        )
    finally:
        options.close(reading)
    result = finagle(
        counted,
        threshold=args.threshold,
        expected_accuracy=args.expected_accuracy,
        to=args.to,
        bins=args.bins,
        scoring=scoring,
    )
    width = {"width": 100} if args.output else {}  # a file does not follow the terminal
    return result.render(args.format, digits=args.digits, raw_csv=args.raw_csv, verbose=args.verbose, **width)
