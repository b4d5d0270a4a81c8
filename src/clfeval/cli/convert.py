"""The ``convert`` command: its options, and reported figures turned back into every integer table that fits.

The inverse problem (:mod:`clfeval.inverse.conversion`) is imported only when the command's parser is built or it
runs: another command does not load it.
"""

from __future__ import annotations

import argparse
from typing import Any

from clfeval.cli import options
from clfeval.errors import ClfevalError

__all__ = ["HELP", "add_convert", "run_convert"]

#: What the command does, in one line (the top-level help lists it).
HELP = "reported scores back into counts: every integer table that fits"

#: The reported figures, by their option's destination, in the order they are passed on.
_FIGURES = (
    "tp",
    "fp",
    "fn",
    "tn",
    "n",
    "support",
    "predicted",
    "precision",
    "recall",
    "f",
    "accuracy",
    "specificity",
    "prevalence",
)


def add_convert(sub: Any) -> None:
    """Add the ``convert`` command's parser to the subparsers ``sub``."""
    from clfeval.inverse.conversion import QUANTITIES

    p = sub.add_parser(
        "convert",
        help=HELP,
        description="Turn reported figures back into counts. Binary (one label against the rest): give any of the "
        "quantities below and get every integer table (tp, fp, fn, tn) consistent with them as rounded "
        "(a figure with d decimals stands for ±½·10⁻ᵈ; '75%%' works too), with what each implies; the "
        "answer says when the figures are not enough (and what would settle them) or disagree (which "
        "two). Multi-class: --table FILE, a CSV with columns label,precision,recall,f1,support (any "
        "of them; blank cells allowed).",
    )
    q = p.add_argument_group("reported quantities")
    for name in ("tp", "fp", "fn", "tn", "n", "support", "predicted"):
        q.add_argument(f"--{name}", metavar="COUNT", help=QUANTITIES[name])
    for name in ("precision", "recall", "accuracy", "specificity", "prevalence"):
        q.add_argument(f"--{name}", metavar="X", help=f"{QUANTITIES[name]}: 0.75 or 75%%")
    q.add_argument("--f1", "--f", dest="f", metavar="X", help="F_β (F1 unless --beta): " + QUANTITIES["f"])
    q.add_argument("--beta", type=float, default=1.0, help="β of the reported F (default 1)")
    q.add_argument("--decimals", type=int, help="the decimals every ratio was rounded to (default: as written)")
    q.add_argument(
        "--table",
        metavar="FILE",
        help="per-label figures: a CSV with a label column and any of precision, recall, f1, support (multi-class)",
    )
    q.add_argument(
        "--limit", type=int, default=100, help="list at most this many tables (default 100); all are counted"
    )
    options.add_output_options(p)
    p.set_defaults(run=run_convert)


def run_convert(args: argparse.Namespace) -> str:
    """Run ``convert``: the tables consistent with the figures given (binary) or with ``--table`` (per label)."""
    from clfeval.inverse.conversion import COUNT_QUANTITIES, convert, convert_labels, reported
    from clfeval.inverse.papers import read_label_figures

    figures = {k: getattr(args, k) for k in _FIGURES if getattr(args, k) is not None}
    if args.table:
        if set(figures) - {"n"}:
            raise ClfevalError("with --table, give the figures in the table (only --n may be added)")
        rows = read_label_figures(args.table, decimals=args.decimals)
        n = int(figures["n"]) if "n" in figures else None
        result: Any = convert_labels(rows, n=n, beta=args.beta, limit=args.limit)
    else:
        given = {
            k: reported(v, args.decimals if k not in COUNT_QUANTITIES else None, count=k in COUNT_QUANTITIES)
            for k, v in figures.items()
        }
        result = convert(beta=args.beta, limit=args.limit, **given)
    return result.render(args.format, digits=args.digits, raw_csv=args.raw_csv)
