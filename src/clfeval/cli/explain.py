"""The ``explain`` command: what a name means — a measure, an average, an interval method, a test, a label-set
source, a format … — from the registries (:mod:`clfeval.explain`, imported when the command runs)."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["HELP", "add_explain", "run_explain"]

#: What the command does, in one line (the top-level help lists it).
HELP = "what a name means: a measure, average, interval method, test … (formula, 0/0 rule, references)"


def add_explain(sub: Any) -> None:
    """Add the ``explain`` command's parser to the subparsers ``sub``."""
    p = sub.add_parser(
        "explain",
        help=HELP,
        description="Say what NAME means: its definition (the formula, for measures and averages), when it is 0/0 "
        "and what value it then takes, what it applies to, the names it goes by in the JSON and --metric, "
        "and its references. NAME is an entry of any registry (macro_fa, mcc, delta, ar, union, jsonl …), "
        "another of its names (f1, subset_accuracy) or a score's report name (macro_fa.f1); a name in "
        "several registries (bootstrap) is explained in each. Without NAME: every registry and its names.",
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="the name to explain (default: list every name)")
    out = p.add_argument_group("output")
    out.add_argument(
        "--format",
        choices=["text", "json"],
        default="text",
        help="text: wrapped to 100 columns; json: the clfeval.explain/1 contract (docs/json.md); default: text",
    )
    out.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(run=run_explain)


def run_explain(args: argparse.Namespace) -> str:
    """Run ``explain``: NAME's entries, or every registry's names, in the asked format."""
    from clfeval import explain as registries

    if args.name is None:
        if args.format == "json":
            return registries.to_json(registries.listing_to_dict())
        return registries.render_listing()
    found = registries.explain(args.name)
    if args.format == "json":
        return registries.to_json(registries.explanations_to_dict(args.name, found))
    return registries.render_explanations(found)
