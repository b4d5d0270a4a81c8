"""What the commands read beside the library's readers: the INPUT files of score and count and their layout, count
files given with ``--counts``, and the label list of ``--labels``.

Count files (and a confusion matrix) hold labels as they were counted, so what applies only when instances are
read (input rules, multi-label options, another engine) is refused beside them. Private to clfeval: the names are
public only within :mod:`clfeval.cli`.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from clfeval.count.labelsets import MultiLabel
from clfeval.errors import ClfevalError, InputError
from clfeval.inputs.options import Reading
from clfeval.inputs.readers import Counted, check_count_kind, load_counts
from clfeval.inputs.text import read_text

__all__ = [
    "add_input_arguments",
    "WEIGHTS_IN_COUNTS",
    "check_counts",
    "check_read_under",
    "counts_given",
    "layout",
    "load_count_files",
    "no_rules",
    "read_label_list",
]


def add_input_arguments(p: Any) -> None:
    """The INPUT files of ``score`` and ``count``, and ``--parts`` (two files are GOLD and PRED unless it is given)."""
    p.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="input files or quoted glob patterns, or - for standard input; exactly two: GOLD PRED",
    )
    p.add_argument(
        "--parts",
        action="store_true",
        help="the INPUT files are parts of one table, each with gold and predicted columns (needed only "
        "when there are exactly two)",
    )


def layout(args: argparse.Namespace) -> list[Any]:
    """INPUT arguments → the paths :func:`clfeval.read` takes: [table] (its parts in a list), or [gold, pred]."""
    inputs = args.inputs
    if len(inputs) == 2 and not args.parts:
        return list(inputs)
    return [inputs[0] if len(inputs) == 1 else list(inputs)]


def no_rules(reading: Reading) -> None:
    """Count files and a matrix hold labels as they were counted: the input rules applied then."""
    if reading.rules:
        raise ClfevalError(
            f"{', '.join(reading.rules)} {'applies' if len(reading.rules) == 1 else 'apply'} when reading instances, "
            "not to count files or a matrix (give them to `clfeval count` when counting)"
        )


WEIGHTS_IN_COUNTS = "a count file keeps its weights: give --weight-col when counting (clfeval count)"


def check_counts(files: Sequence[str], reading: Reading) -> None:
    """--counts takes count files as they were written: no input files, input rules, multi-label options,
    engine or weight column beside it (a count file keeps its weights, or has none)."""
    if files:
        raise ClfevalError("give either input files or --counts FILE…, not both")
    no_rules(reading)
    if reading.weight_col is not None:
        raise ClfevalError(WEIGHTS_IN_COUNTS)
    if reading.label_sets is not None or reading.engine != "polars":
        raise ClfevalError("--counts takes count files as they were written: --multilabel and --engine do not apply")


def load_count_files(args: argparse.Namespace, paths: str | Sequence[str], task: str) -> Counted:
    """Count files added up, of the kind expected; a training file beside them splits label sets on --label-sep.

    Parameters
    ----------
    args
        The parsed options (``--label-sep`` is read from them).
    paths
        The count files (paths or globs) that add up to one set of counts.
    task
        The command that reads them (``score``, ``compare``, ``cv``): its kinds of counts are taken
        (:attr:`clfeval.kinds.Kind.tasks`), any other refused.
    """
    counted = load_counts(paths)
    check_count_kind(counted, task)
    check_read_under(args, counted)
    return replace(counted, reading=Reading(multilabel=MultiLabel(args.label_sep) if counted.multilabel else None))


def check_read_under(args: argparse.Namespace, counted: Counted) -> None:
    """Count files carry what they were read under (a span scheme, the unit: :meth:`clfeval.kinds.Kind.read_under`)
    and it cannot be changed after counting: an option that says otherwise is a one-line error naming the file, the
    value it holds and the option; one that agrees (or ``--spans`` alone, ``--unit auto``) is taken."""
    from clfeval.cli.options import read_under
    from clfeval.kinds import kind_of

    if getattr(args, "errors", None):
        raise ClfevalError("--errors lists the wrong spans of tag files; count files hold no spans to list")
    kind = kind_of(counted.counts)
    if kind is None:
        return
    stored = kind.read_under(counted.counts)
    files = list(counted.inputs.get("count_files") or ["the counts"])
    source = files[0] if len(files) == 1 else f"{files[0]} (and {len(files) - 1} more)"
    for name, (option, value) in read_under(args).items():
        if name not in stored:
            raise InputError(f"holds {kind.title}, read without {option}: {option} does not apply to them", source)
        if value is not True and stored[name] != value:
            raise InputError(
                f"was counted with {name} {stored[name]}; {option} {value} contradicts it (count the input again "
                f"with {option} {value}, or leave {option} out)",
                source,
            )


def counts_given(args: argparse.Namespace, files: Sequence[str], reading: Reading, task: str) -> Counted:
    """The count files of --counts, checked (``files``, the command's input files, must be empty) and added up, of a
    kind ``task`` takes."""
    check_counts(files, reading)
    return load_count_files(args, args.counts, task)


def read_label_list(path: str) -> list[str]:
    """The labels a ``--labels`` file declares, one a line, in order (blank lines skipped, a repeat refused)."""
    text = read_text(path, expected="one label per line", option="--labels")
    labels: dict[str, int] = {}
    for number, line in enumerate(io.StringIO(text, newline=None), start=1):  # lines as a file reads them
        label = line.strip()
        if label in labels:
            raise InputError(
                f"label {label!r} is declared twice (--labels), first on line {labels[label]}", path, number
            )
        if label:
            labels[label] = number
    if not labels:
        raise InputError("declares no labels (--labels): expected one label per line", path)
    return list(labels)
