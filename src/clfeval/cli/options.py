"""The options several commands share: each group's ``add_…`` written once, and what the parsed options mean.

The ``add_…`` functions put a group of options on a command's parser (a command's own options stay in its module);
:func:`scoring`, :func:`training`, :func:`reading` and :func:`ci` turn the parsed options into the library's option
groups (checked as they are built, before anything is read); :func:`render` writes a result in the asked format and
:func:`with_bar` runs a task under a progress bar (:func:`bar`: drawn on a terminal unless ``--no-progress``).
Private to clfeval: the names are public only within :mod:`clfeval.cli`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from clfeval.cli.inputs import read_label_list
from clfeval.count.invalid import INVALID_POLICIES
from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, MultiLabel
from clfeval.errors import ClfevalError
from clfeval.infer import INTERVAL_METHODS
from clfeval.infer.methods import CI
from clfeval.inputs.chunks import ReadProgress
from clfeval.inputs.columns import parse_column
from clfeval.inputs.engine import ENGINES
from clfeval.inputs.formats import FORMATS
from clfeval.inputs.options import Reading, Training
from clfeval.progress import ProgressBar, ReadingBar
from clfeval.render import RENDERERS
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import UNDEFINED_POLICIES

__all__ = [
    "add_engine_options",
    "add_input_rules",
    "add_interval_options",
    "add_label_set_options",
    "add_multilabel_options",
    "add_output_options",
    "add_report_options",
    "add_table_options",
    "add_weight_option",
    "choices",
    "check_view",
    "ci",
    "close",
    "reading",
    "reading_bar",
    "render",
    "scoring",
    "training",
    "bar",
    "with_bar",
]


def choices(registry: Any) -> str:
    """A registry's names and what each does, for a help text: ``name: description; …``."""
    return "; ".join(f"{k}: {v if isinstance(v, str) else v[1]}" for k, v in registry.items())


def add_table_options(src: Any) -> None:
    """How a table is laid out (``--input-format``, ``--sep``, ``--header``), into the command's input group."""
    src.add_argument("--input-format", choices=sorted(FORMATS), help=f"default: by extension ({choices(FORMATS)})")
    src.add_argument(
        "--sep", help="field separator: one character, or \\t (default: whitespace for text, ',' for csv, tab for tsv)"
    )
    src.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the first line names the columns (implied when a column is given by name)",
    )


def add_weight_option(src: Any) -> None:
    """``--weight-col``: each instance's sample weight, from a column of the table (labels and label sets)."""
    src.add_argument(
        "--weight-col",
        metavar="COL",
        help="a column holding each instance's sample weight (a finite number ≥ 0), as scikit-learn's "
        "sample_weight: every count and score weighs its instances, and the bootstrap and randomization move "
        "instances with their weights (1-based number, negative from the end, or header name; gold and predicted "
        "columns then default to the two before the last); not with blocks or spans; with --scores, DeLong's "
        "interval and test are refused",
    )


def add_group_options(p: Any, scores: bool = True, documents: bool = False, column: str | None = None) -> None:
    """``--group-col`` (repeatable: intersections), with ``documents`` ``--group-by document`` (spans: a group per
    ``-DOCSTART-`` document) and, with ``scores``, how groups are compared: ``--group-test``, ``--group-metric``
    (repeatable) and ``--rounds`` (:class:`~clfeval.Slicing`). ``column``: the command's own help of
    ``--group-col`` (default: score's)."""
    from clfeval.infer.slicing import GROUP_TESTS

    group = p.add_argument_group("groups (scores by group: every score per group, the gaps and tests between groups)")
    group.add_argument(
        "--group-col",
        metavar="COL",
        action="append",
        help=column
        or "a column naming each instance's group (language, domain, site …): the counts are kept per group, in "
        "bounded memory (1-based number, negative from the end, or header name); repeat it for the intersections "
        "of several columns (es&female); --gold-col and --pred-col must then be given (with --scores: --gold-col; "
        "with --spans: a token column of the gold CoNLL file, by number, the same on every token of a sentence)",
    )
    if documents:
        group.add_argument(
            "--group-by",
            choices=["document"],
            help="with --spans: each -DOCSTART- document is a group (sentences before the first one: document 0); "
            "with --group-col, their intersections",
        )
    if not scores:
        return
    group.add_argument(
        "--group-test",
        choices=list(GROUP_TESTS),
        help="the test between groups (default permutation; with --scores, delong, DeLong's unpaired test of AUCs, "
        "when every group metric is an AUC and there are no weights, blocks or strata)",
    )
    group.add_argument(
        "--group-metric",
        metavar="NAME",
        action="append",
        help="a score whose gaps and tests between groups are reported, by report name (macro.f1, accuracy …); "
        "repeat it for several (default: the headline F average and accuracy); every score is reported per group",
    )
    group.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="permutations (or resamples) of the test between groups (default 10000)",
    )


def slicing(args: argparse.Namespace, grouped: bool) -> Any:
    """The :class:`~clfeval.Slicing` the group options ask for (its seed: ``--seed``), or ``None`` without groups,
    where a group option is an error naming it."""
    from clfeval.infer.slicing import Slicing

    given = [
        option
        for option, value in (
            ("--group-test", getattr(args, "group_test", None)),
            ("--group-metric", getattr(args, "group_metric", None)),
            ("--rounds", getattr(args, "rounds", None)),
        )
        if value is not None
    ]
    if not grouped:
        if given:
            raise ClfevalError(f"{', '.join(given)} compare groups: give --group-col (or count files by group)")
        return None
    rounds = getattr(args, "rounds", None)
    metrics = getattr(args, "group_metric", None)
    return Slicing(
        metrics=tuple(metrics) if metrics else None,
        test=getattr(args, "group_test", None),
        rounds=10_000 if rounds is None else rounds,
        seed=getattr(args, "seed", None),
    )


def group_columns(args: argparse.Namespace) -> list[Any] | None:
    """The group columns ``--group-col`` names, then ``document`` for ``--group-by document`` (the name of CoNLL
    sentences' documents, :data:`clfeval.inputs.conll.BY_DOCUMENT`), or ``None``."""
    columns = [parse_column(c) for c in getattr(args, "group_col", None) or ()]
    if getattr(args, "group_by", None) is not None:
        from clfeval.inputs.conll import BY_DOCUMENT

        if not getattr(args, "spans", None):
            raise ClfevalError(
                "--group-by document makes each -DOCSTART- document of CoNLL files a group: give --spans (a table's "
                "groups are its columns: --group-col)"
            )
        columns.append(BY_DOCUMENT)
    return columns or None


def refuse_for_groups(args: argparse.Namespace, *pairs: tuple[str, Any]) -> None:
    """What ``--group-col`` is not taken with (yet), each named in one line: ``pairs`` of (option, value given)."""
    given = [option for option, value in pairs if value not in (None, False, [], "none")]
    if given:
        them = "it" if len(given) == 1 else "them"
        raise ClfevalError(f"--group-col is not taken with {', '.join(given)} (yet): leave {them} out")


def add_input_rules(p: Any, blocks: str | None = None) -> None:
    """The input rules (lines skipped, labels translated, TiMBL distributions, a cut-off for real values); with
    ``blocks``, what blocks do in this command, the block options too (--blocks, --block-end, --block-col)."""
    rules = p.add_argument_group("input rules (as confusionmatrix.py and art.py had them)")
    rules.add_argument(
        "--skip",
        metavar="REGEX",
        help="lines matching this regular expression are not instances, e.g. '^<utt>' (Rust regex "
        "syntax: Python's without look-around); blank lines are skipped too"
        + (", unless they delimit blocks" if blocks else ""),
    )
    rules.add_argument(
        "--translate",
        metavar="FILE",
        help="map labels before counting: lines 'old > new' (gold, predictions and training labels "
        "alike); mappings never used are reported",
    )
    rules.add_argument(
        "--keep-trailing",
        action="store_true",
        help="keep a trailing TiMBL class distribution '{ A 0.7, B 0.3 }' as fields (default: "
        "recognised after the predicted label and stripped; text and TSV)",
    )
    rules.add_argument(
        "--cutoff",
        type=float,
        metavar="X",
        help="real-valued predictions: a value at or above X (value >= X, as confusionmatrix.py -C) "
        "becomes --above, any other --below",
    )
    rules.add_argument("--above", default="+1", metavar="LABEL", help="the label at or above the cut-off (default +1)")
    rules.add_argument("--below", default="-1", metavar="LABEL", help="the label below the cut-off (default -1)")
    if blocks:
        rules.add_argument(
            "--blocks",
            choices=["blank-line"],
            help=f"blank lines separate blocks (sentences, CoNLL style) whose instances are not independent: {blocks}",
        )
        rules.add_argument(
            "--block-end",
            metavar="REGEX",
            help="a line matching this regular expression ends a block, as a blank line does, and is "
            "not an instance: MBT and TiMBL taggers end sentences with '<utt>' lines "
            "(--block-end '^<utt>'); implies --blocks blank-line",
        )
        rules.add_argument(
            "--block-col",
            metavar="COL",
            help="a column naming each instance's block (sentence id), instead of blank lines: "
            "1-based number, negative from the end, or header name",
        )


def score_blocks(args: Any) -> dict[str, Any]:
    """The block options as :func:`clfeval.inputs.scoredfile.read_scored` takes them."""
    return {
        "block_col": parse_column(getattr(args, "block_col", None)),
        "blank_lines": getattr(args, "blocks", None) == "blank-line",
        "block_end": getattr(args, "block_end", None),
    }


def block_options(args: Any) -> list[tuple[str, Any]]:
    """The block options given, as (option, value) pairs for a refusal that names them."""
    return [
        (name, getattr(args, name[2:].replace("-", "_"), None)) for name in ("--blocks", "--block-col", "--block-end")
    ]


def add_engine_options(p: Any, counts: bool = True) -> None:
    """The engine group: ``--engine`` and ``--scheduler``, and with ``counts`` the ``--counts FILE…`` to add up."""
    eng = p.add_argument_group("engine")
    eng.add_argument("--engine", choices=list(ENGINES), default="polars", help=f"{choices(ENGINES)}")
    eng.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="the Dask scheduler to use (e.g. tcp://10.0.0.5:8786); default: a local cluster for this run",
    )
    if counts:
        eng.add_argument(
            "--counts",
            nargs="+",
            metavar="FILE",
            help="add up count files written by `clfeval count` (paths or globs) instead of reading INPUT",
        )


def add_multilabel_options(p: Any) -> None:
    """The multi-label group: ``--multilabel``, the separator inside a cell, empty sets and duplicate labels."""
    ml = p.add_argument_group("multi-label")
    ml.add_argument("--multilabel", action="store_true", help="each cell is a set of labels")
    ml.add_argument(
        "--label-sep",
        default=",",
        metavar="SEP",
        help="separator inside a label-set cell (default ','); an empty cell is the empty set",
    )
    ml.add_argument(
        "--empty", choices=sorted(EMPTY_POLICIES), default="ignore", help=f"{choices(EMPTY_POLICIES)}; default: ignore"
    )
    ml.add_argument(
        "--duplicates",
        choices=sorted(DUPLICATE_POLICIES),
        default="keep",
        help=f"{choices(DUPLICATE_POLICIES)}; default: keep",
    )


def add_label_set_options(p: Any) -> None:
    """The label set and measures group: the training file and how to read it, the declared labels, the
    label-set policy, β, the value of 0/0 and what an undefined score does to an average."""
    ls = p.add_argument_group("label set and measures")
    ls.add_argument(
        "--train",
        metavar="FILE",
        help="training data: its labels form the label set (unless "
        "--labels-from says otherwise) and give the lfb frequencies",
    )
    ls.add_argument(
        "--train-col",
        metavar="COL",
        help="the training file's label column (default: the gold column's name if it has one, else -1, the last)",
    )
    ls.add_argument(
        "--train-format",
        choices=sorted(FORMATS),
        help="the training file's format (default: by its extension); the evaluated files' --input-format, "
        "--sep and --header do not apply to it",
    )
    ls.add_argument(
        "--train-sep",
        metavar="SEP",
        help="the training file's field separator (default: as its format "
        "has it: whitespace for text, ',' for csv, tab for tsv)",
    )
    ls.add_argument(
        "--train-header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the training file's first line names its columns (implied by a --train-col name)",
    )
    ls.add_argument("--labels", metavar="FILE", help="declare the label set: one label per line")
    ls.add_argument(
        "--labels-from",
        choices=["union", "gold", "train", "file"],
        help=f"the label-set policy ({choices(LABEL_SOURCES)}; 'file' is 'given' from --labels); "
        "default: file with --labels, train with --train, else union",
    )
    ls.add_argument(
        "--ordinal",
        action="store_true",
        help="declare the labels' order, which weighted κ (kappa_linear, kappa_quadratic) reads: the order of the "
        "--labels FILE, or without one the labels' numerical order (labels that are not all numbers are refused); "
        "without --ordinal weighted κ is not given (--labels alone declares no order)",
    )
    add_invalid_option(ls)
    ls.add_argument("--beta", type=float, default=1.0, help="β of F_β (default 1)")
    ls.add_argument(
        "--zero-division",
        choices=["0", "1", "nan"],
        default="0",
        help="the value of a 0/0 ratio (default 0); the report lists the labels affected",
    )
    ls.add_argument(
        "--undefined",
        choices=sorted(UNDEFINED_POLICIES),
        default="include",
        help=f"{choices(UNDEFINED_POLICIES)}; default: include",
    )


def add_interval_options(p: Any, title: str, scored: bool = False) -> None:
    """The interval group, titled ``title``: ``--ci`` method, ``--confidence``, ``--resamples`` and ``--seed``
    (``scored``: ``delong`` too, for the AUCs of scored predictions)."""
    group = p.add_argument_group(title)
    group.add_argument(
        "--ci",
        choices=[k for k, m in INTERVAL_METHODS.items() if scored or m.kinds is None],
        default="none",
        help="an interval for every score: "
        + "; ".join(
            f"{k}: {m.short}" + (f" (with --scores: {', '.join(sorted(m.kinds))})" if m.kinds is not None else "")
            for k, m in INTERVAL_METHODS.items()
            if scored or m.kinds is None
        )
        + "; default: none",
    )
    group.add_argument("--confidence", type=float, default=0.95, help="nominal coverage (default 0.95)")
    group.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    group.add_argument("--seed", type=int, help="bootstrap seed (default: drawn at random and printed in the report)")


def add_output_options(p: Any, figures: bool = False) -> Any:
    """The output group: ``--format``, ``-o``, ``--digits`` and ``--raw-csv``; returned, for a command's own.

    With ``figures`` (a result that has figures), the HTML format and ``--plot DIR`` too.
    """
    out = p.add_argument_group("output")
    formats = RENDERERS if figures else {k: v for k, v in RENDERERS.items() if k != "html"}
    out.add_argument("--format", choices=list(formats), default="text", help=f"{choices(formats)}; default: text")
    out.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    out.add_argument(
        "--digits", type=int, default=4, help="decimals in text, Markdown, LaTeX and HTML, 0 to 15 (default 4)"
    )
    out.add_argument(
        "--raw-csv",
        action="store_true",
        help="in every CSV and TSV written (--format csv, score --spans --errors FILE): write every cell exactly, "
        "for programs (by default a cell that a spreadsheet would run as a formula, starting with = + - @, a tab or "
        "a carriage return, gets a leading apostrophe); a cell holding a line break is quoted either way",
    )
    if figures:
        out.add_argument(
            "--plot",
            metavar="DIR",
            help="also draw the report's figures into DIR as PNG and SVG "
            "(needs matplotlib: pip install 'clfeval[plot]')",
        )
    return out


def add_report_options(out: Any, measures: bool = True) -> None:
    """What a report a person reads shows, into the command's output group: ``--verbose`` and, with ``measures``,
    ``--measures`` (text, Markdown, LaTeX and HTML; JSON and CSV keep everything)."""
    if measures:
        out.add_argument(
            "--measures",
            metavar="LIST",
            help="the measures the report shows: 'all', or a comma list of measure names (npv,fpr,jaccard, mcc, "
            "kappa_linear …) and of the groups default, counts, all (default: support, precision, recall and F per "
            "label and averaged; accuracy, balanced accuracy, MCC and κ; weighted κ where the labels' order is "
            "declared); JSON and CSV keep every measure",
        )
    out.add_argument(
        "--verbose",
        action="store_true",
        help="the full notes: the definition of every average and measure, the inputs, the interval method in full "
        "(default: one line per choice that moved a number)",
    )


def add_invalid_option(p: Any) -> None:
    """``--invalid POLICY``: what a prediction that is not a label does (an empty cell; with --labels, a label outside
    them)."""
    p.add_argument(
        "--invalid",
        choices=list(INVALID_POLICIES),
        default=None,
        help="what a prediction that is not a label does (an empty cell; with --labels, a label outside them): error "
        "(the default: stop, naming the line), wrong (the matrix column (invalid), wrong in accuracy) or omit (left "
        "out; the coverage kept/n with its Wilson interval); an empty gold cell is an error under every policy "
        "(clfeval explain wrong, omit)",
    )


def refuse_for_scores(args: argparse.Namespace, engine: bool = False) -> None:
    """What scored predictions (``--scores``, or scored count files) do not take: ``--invalid``, refused as
    ``invalid=`` is with ``scores=``; and, unless ``engine`` (the files of scores themselves are read, and may be
    counted on a Dask cluster: :func:`scores_on_dask`), ``--engine dask`` and ``--scheduler`` (count files are read
    as they were written)."""
    if getattr(args, "invalid", None) is not None:
        raise ClfevalError("--invalid is for predicted labels, not --scores: a missing score has no label to count")
    if not engine and (getattr(args, "engine", "polars") != "polars" or getattr(args, "scheduler", None) is not None):
        raise ClfevalError("--counts takes count files as they were written: --engine and --scheduler do not apply")


def scores_on_dask(args: argparse.Namespace, *given: tuple[str, Any]) -> bool:
    """Whether files of scores are counted on a Dask cluster (``--engine dask``, ``--scheduler ADDRESS``): their
    distinct (gold, scores) rows, part by part (:mod:`clfeval.inputs.scoredcluster`). ``given``: (option, value)
    pairs of what that path does not take (it needs the instances on one machine), each refused by name when set."""
    if args.engine == "polars":
        if args.scheduler is not None:
            raise ClfevalError("--scheduler applies to the dask engine only (--engine dask)")
        return False
    from clfeval.inputs.scoredfile import TIMBL

    specs = args.scores if isinstance(args.scores, list) else [args.scores]
    if any(s == TIMBL or s.endswith("=" + TIMBL) for s in specs):
        given = (*given, ("--scores timbl (TiMBL's output is read whole)", True))
    held = [name for name, value in given if value not in (None, False, [], ())]
    if held:
        raise ClfevalError(
            f"--engine dask counts scores as their distinct (gold, scores) rows; {', '.join(held)} needs the "
            "instances on one machine: leave --engine dask out"
        )
    return True


def scored_counter(
    args: argparse.Namespace,
    specs: Any,
    *,
    labels: list[str] | None,
    probabilities: bool | None,
    positive_last: bool = False,
) -> Any:
    """The part counter of files of scores on a cluster (:class:`~clfeval.inputs.scoredcluster.Counting`) under the
    command line's reading options: ``specs`` one ``--scores`` SPEC, or several systems' (name → SPEC); ``labels``
    the declared classes; ``probabilities`` ``False`` for scores of any scale; ``positive_last``: binary scores'
    ``--positive`` class ordered last (as ``cv`` and ``compare`` order it). ``--score-bins``, where the command has
    it, bins the probabilities as they are read; ``--multilabel`` reads gold label sets (a score column per label)."""
    from clfeval.inputs.scoredcluster import Counting
    from clfeval.inputs.scoredparts import ScoredReading

    systems = None if isinstance(specs, str) else tuple(specs)
    reading = ScoredReading(
        specs=(specs,) if isinstance(specs, str) else tuple(specs.values()),
        systems=systems,
        gold_col=parse_column(args.gold_col),
        labels=None if labels is None else tuple(labels),
        probabilities=probabilities,
        positive=getattr(args, "positive", None),
        bins=getattr(args, "score_bins", None),
        weight_col=parse_column(getattr(args, "weight_col", None)),
        multilabel=MultiLabel(args.label_sep or ",", args.empty, args.duplicates)
        if getattr(args, "multilabel", False)
        else None,
    )
    return Counting(reading, positive_last)


def check_view(args: argparse.Namespace) -> None:
    """Refuse an unknown name in --measures before anything is read (a one-line error listing the valid names)."""
    from clfeval.report.view import View

    View.of(getattr(args, "measures", None), getattr(args, "verbose", False))


def scoring(args: argparse.Namespace) -> Scoring:
    """The label-set and measure options every command shares, and the training file, as one group."""
    labels = read_label_list(args.labels) if args.labels else None
    if args.labels_from == "file" and labels is None:
        raise ClfevalError("--labels-from file needs --labels FILE")
    return Scoring(
        labels=labels,
        labels_from={"file": "given"}.get(args.labels_from, args.labels_from),
        train=training(args),
        beta=args.beta,
        zero_division=args.zero_division,
        undefined=args.undefined,
        ordinal=getattr(args, "ordinal", False),
        invalid=getattr(args, "invalid", None),
        # labels, not scores: --positive names a binary problem's positive class (scikit-learn's pos_label)
        pos_label=None if getattr(args, "scores", None) else getattr(args, "positive", None),
    )


def scored_scoring(args: argparse.Namespace) -> dict[str, Any]:
    """What the label report of scored predictions at a threshold reads of the measure options, as the tasks'
    keywords: ``beta``, ``zero_division``, ``undefined`` and ``ordinal`` (``--ordinal``: the classes' order, the
    --labels file's when it is given). The label set is the classes, given apart (``labels=``)."""
    return {
        "beta": args.beta,
        "zero_division": args.zero_division,
        "undefined": args.undefined,
        "ordinal": True if getattr(args, "ordinal", False) else None,
    }


def training(args: argparse.Namespace) -> Training | None:
    """The training file, its label column and how to read it: its own --train-format, --train-sep and
    --train-header (by default, by its own extension), never the evaluated files' options."""
    if args.train is None:
        return None
    return Training(
        args.train,
        parse_column(args.train_col),
        getattr(args, "train_format", None),
        getattr(args, "train_sep", None),
        getattr(args, "train_header", None),
    )


def add_span_options(p: Any, errors: bool = False, systems: bool = False) -> None:
    """The spans group: ``--spans [SCHEME]`` and ``--unit``; with ``errors``, ``--errors FILE`` too; ``systems``: the
    files are compare's (a gold file and a file per system, or a column per system)."""
    from clfeval.spans.options import UNITS
    from clfeval.spans.schemes import DEFAULT_SCHEME, SCHEMES

    group = p.add_argument_group("spans (taggers, chunkers, NER: CoNLL files of tags)")
    group.add_argument(
        "--spans",
        nargs="?",
        const=True,  # --spans alone: the default scheme, or a count file's own
        choices=list(SCHEMES),
        metavar="SCHEME",
        help="score spans (B-PER I-PER is one person), not tags: "
        + (
            "GOLD and each PRED are CoNLL files (blank lines end sentences, -DOCSTART- lines start documents) whose "
            "tags are the last column (or --gold-col, --pred-col), or one CoNLL file with --gold-col and a "
            "--pred-col per system; "
            if systems
            else "INPUT is a CoNLL file (blank lines end sentences, -DOCSTART- lines start documents) with gold and "
            "predicted tag columns (default: the last two), or GOLD and PRED files; or JSON Lines, one sentence "
            "per line, a list of tags or of entities per field. "
        )
        + f"SCHEME: {', '.join(SCHEMES)}; default {DEFAULT_SCHEME}, the rules of conlleval.pl, "
        "which the field's published numbers come from (seqeval's default mode agrees on IOB1 and IOB2 tags); "
        "for IOBES or BILOU tags name the scheme: conlleval.pl merges adjacent spans of one type there (a warning "
        "counts them). The other schemes are seqeval's strict mode; invalid transitions are counted and reported, "
        "never repaired silently (clfeval explain SCHEME)",
    )
    group.add_argument(
        "--unit",
        choices=list(UNITS),
        default="auto",
        help="what intervals and tests resample and swap: " + "; ".join(f"{k}: {v}" for k, v in UNITS.items()),
    )
    if errors:
        group.add_argument(
            "--errors",
            metavar="FILE",
            help="with --spans: list every wrong span (missed, spurious, wrong type, wrong boundaries) with its "
            "sentence, line and tokens, as tab-separated lines",
        )


def weights_named(result: Any, column: str) -> Any:
    """A scored result whose ``inputs.sample_weight`` names the weight column it was read from."""
    import dataclasses

    from clfeval.result import FrozenDict

    held = result.inputs.get("sample_weight")
    if not isinstance(held, Mapping):
        return result
    inputs: FrozenDict[str, Any] = FrozenDict({**result.inputs, "sample_weight": {**held, "source": column}})
    notes = tuple(n.replace("(sample_weight=)", f"(column {column})") for n in result.notes)
    return dataclasses.replace(result, inputs=inputs, notes=notes)


def add_scored_options(
    p: Any,
    systems: bool = False,
    *,
    what: str | None = None,
    positive: bool = True,
    report: bool = True,
    threshold: bool = True,
) -> None:
    """The scored-predictions group: ``--scores`` (``systems``, compare: ``NAME=SPEC`` per system; ``what``: what the
    command does with them), ``--positive`` (unless ``positive`` is false), ``--weight-col`` and, for a command that
    reports (``report``), the conventions (``--bins``, ``--binning``, ``--top-k-ties``, ``--brier``, ``--curve-points``,
    ``--lower-is-more-confident``), ``--not-probabilities`` and, for one system (``threshold``), ``--threshold``."""
    from clfeval.scoring.probability import BINNINGS, BRIER_NORMALISATIONS, DEFAULT_BRIER, DEFAULT_TIES, TIE_RULES

    group = p.add_argument_group("scored predictions (probabilities, scores: ROC AUC, calibration, log loss)")
    what = what or (
        "NAME=SPEC, once per system: each system's score columns"
        if systems
        else "the score columns, instead of a predicted column"
    )
    group.add_argument(
        "--scores",
        metavar="NAME=SPEC" if systems else "SPEC",
        action="append" if systems else "store",
        help=f"{what}: one column (binary: the positive class's score), a glob of header names ('p_*': a column "
        "per class, named by what * matched), names or numbers separated by commas, or a list column (JSON Lines, "
        "Parquet; name the classes with --labels). The file is CSV, TSV, JSON Lines or Parquet, with a header; or "
        "'timbl': TiMBL output whose lines end in class distributions { A 0.7, B 0.3 }",
    )
    if positive:
        group.add_argument(
            "--positive",
            metavar="LABEL",
            help="binary scores: the class they belong to (default: the last label); labels (no --scores): a binary "
            "problem's positive class, whose precision, recall and F are the JSON's pos_label (scikit-learn's "
            "pos_label; default: the label 1)",
        )
    if not any("--weight-col" in action.option_strings for action in p._actions):  # one option, whichever adds it
        add_weight_option(group)
    if not report:
        return
    group.add_argument(
        "--score-bins",
        type=int,
        metavar="N",
        help="bin probabilities first into N equal-width bins, each replaced by its lower edge (a fixed grid of "
        "thresholds, as torchmetrics' binned metrics use): counts stay small whatever the data, every measure is of "
        "the binned scores (ranking only), and the output states each AUC's error bound ½ Σ P_b N_b / (P N) "
        "(default: exact scores)",
    )
    if threshold and not systems:
        group.add_argument(
            "--threshold",
            type=float,
            help="binary: predict the positive class where its score is at least this (default 0.5 for "
            "probabilities) for the label report; multi-class predictions are the highest score's class",
        )
    group.add_argument(
        "--not-probabilities",
        action="store_true",
        help="the scores are not probabilities (margins, logits): ranking measures only, no sum-to-1 check",
    )
    group.add_argument(
        "--lower-is-more-confident",
        action="store_true",
        help="a lower score means more confidence (distances, costs): the scores are negated before anything is "
        "computed, so no probability measures; thresholds stay in the scores' units (positive: score ≤ threshold)",
    )
    group.add_argument("--bins", type=int, default=15, help="calibration bins (default 15)")
    group.add_argument("--binning", choices=list(BINNINGS), default="equal-width", help=choices(BINNINGS))
    group.add_argument(
        "--top-k-ties",
        choices=list(TIE_RULES),
        default=DEFAULT_TIES,
        help=f"how top-k accuracy counts classes tied with the gold class (default {DEFAULT_TIES}): "
        f"{choices(TIE_RULES)}",
    )
    group.add_argument(
        "--brier",
        choices=list(BRIER_NORMALISATIONS),
        default=DEFAULT_BRIER,
        help=f"the Brier score's normalisation (default {DEFAULT_BRIER}): {choices(BRIER_NORMALISATIONS)}",
    )
    group.add_argument(
        "--curve-points",
        default="200",
        metavar="N",
        help="the most points of each ROC and precision-recall curve in the JSON (evenly spaced, the ends kept); "
        "'all' for every point (default 200)",
    )


def conventions(args: argparse.Namespace) -> Any:
    """The conventions of scored predictions the options name."""
    from clfeval.scoring.scored import Conventions

    points = args.curve_points
    if points != "all" and not (points.isdigit() and int(points) >= 2):
        raise ClfevalError(f"--curve-points is a whole number ≥ 2 or 'all', not {points!r}")
    return Conventions(
        bins=args.bins,
        binning=args.binning,
        ties=args.top_k_ties,
        brier=args.brier,
        curve_points=None if points == "all" else int(points),
        lower_is_more_confident=args.lower_is_more_confident,
        score_bins=args.score_bins,
        not_probabilities=args.not_probabilities,
    )


def spans(args: argparse.Namespace) -> Any:
    """The spans group of the arguments (``None`` without --spans); --unit and --errors need --spans, and
    --weight-col is refused with it."""
    from clfeval.spans.options import Spans
    from clfeval.spans.schemes import DEFAULT_SCHEME

    if getattr(args, "spans", None) is None:
        if getattr(args, "unit", "auto") != "auto":
            raise ClfevalError("--unit is for spans: give --spans too")
        if getattr(args, "errors", None):
            raise ClfevalError("--errors lists wrong spans: give --spans too")
        return None
    if getattr(args, "weight_col", None) is not None:  # as sample_weight= with spans= in Python
        raise ClfevalError(
            "--weight-col is not taken with --spans: span scores (as seqeval's) have no instance weights"
        )
    # conlleval.pl's report (--format conlleval) shows exact matching alone: the partial-match modes and the span
    # confusion are not counted for it
    details = getattr(args, "format", None) != "conlleval"
    return Spans(DEFAULT_SCHEME if args.spans is True else args.spans, args.unit, details)


def read_under(args: argparse.Namespace) -> dict[str, tuple[str, Any]]:
    """What the arguments say about how instances are read that count files carry (:meth:`clfeval.kinds.Kind.
    read_under`), by name: ``scheme`` (``--spans``; ``True`` when it is given alone, naming no scheme) and ``unit``
    (``--unit`` other than ``auto``), each with its option."""
    said: dict[str, tuple[str, Any]] = {}
    if getattr(args, "spans", None) is not None:
        said["scheme"] = ("--spans", args.spans)
    if getattr(args, "unit", "auto") != "auto":
        said["unit"] = ("--unit", args.unit)
    return said


def reading(args: argparse.Namespace) -> Reading:
    """How the command reads its files, as one group (checked as it is built, before anything is read).

    Options a command does not have take their defaults; a :class:`~clfeval.progress.ReadingBar` (:func:`bar`) shows
    the reading's progress when it is enabled (on a terminal, without ``--no-progress``), and :func:`close` closes it.
    """
    shown = _reading_bar(args)
    multilabel = getattr(args, "multilabel", False)
    return Reading(
        input_format=args.input_format,
        sep=args.sep,
        header=args.header,
        multilabel=MultiLabel(args.label_sep, args.empty, args.duplicates) if multilabel else None,
        skip=getattr(args, "skip", None),
        keep_trailing=getattr(args, "keep_trailing", False),
        translate=getattr(args, "translate", None),
        cutoff=getattr(args, "cutoff", None),
        above=getattr(args, "above", "+1"),
        below=getattr(args, "below", "-1"),
        blocks=getattr(args, "blocks", None),
        block_col=parse_column(getattr(args, "block_col", None)),
        block_end=getattr(args, "block_end", None),
        weight_col=parse_column(getattr(args, "weight_col", None)),
        group_col=group_columns(args),
        engine=args.engine,
        scheduler=args.scheduler,
        progress=shown if shown.enabled else None,
        empty_predictions=getattr(args, "invalid", None) in ("wrong", "omit"),
    )


@contextmanager
def reading_bar(args: argparse.Namespace) -> Iterator[ReadProgress | None]:
    """The reading bar (:func:`bar`) as a reader's ``progress`` callback (``None`` when it does not show), closed on
    leaving: for the readers that take no :class:`~clfeval.Reading` (files of scored predictions)."""
    shown = _reading_bar(args)
    try:
        yield shown if shown.enabled else None
    finally:
        shown.close()


def close(reading: Reading) -> None:
    """Close the reading progress bar (if it shows)."""
    if isinstance(reading.progress, ReadingBar):
        reading.progress.close()


def ci(args: argparse.Namespace) -> CI | None:
    """The interval the options ask for, or None for ``--ci none``."""
    return CI.of(CI(args.ci, args.confidence, args.resamples, args.seed))


def interval_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The interval's settings as the tasks' keywords (``seed``, ``resamples``, ``confidence``): the ones given, and
    none without an interval (the CLI's defaults are no request)."""
    if args.ci in (None, "none"):
        return {}
    return {
        "seed": args.seed,
        "resamples": args.resamples if args.resamples != 10_000 else None,
        "confidence": args.confidence,
    }


def bar(args: argparse.Namespace, label: str) -> ProgressBar:
    """The command's progress bar named ``label`` (``clfeval: <label>``, until the task names its phase) on standard
    error: enabled on a terminal only, and never with ``--no-progress``."""
    return ProgressBar(f"clfeval: {label}", sys.stderr, enabled=not getattr(args, "no_progress", False))


def _reading_bar(args: argparse.Namespace) -> ReadingBar:
    """The bar of reading (``clfeval: reading``), shown as :func:`bar` is."""
    return ReadingBar("clfeval: reading", sys.stderr, enabled=not getattr(args, "no_progress", False))


def with_bar(options: argparse.Namespace, label: str, task: Any, *args: Any, **kwargs: Any) -> Any:
    """``task(*args, **kwargs, progress=...)`` with a progress bar (:func:`bar`) named ``label`` until the task names
    its phases (the task gets no callback when it does not show), closed however the task ends (Ctrl-C too: the line
    is cleared)."""
    progress = bar(options, label)
    try:
        return task(*args, progress=progress if progress.enabled else None, **kwargs)
    finally:
        progress.close()


def render(result: Any, args: argparse.Namespace, **options: Any) -> str:
    """The result in the asked format; with --plot, its figures written first (an error stops before any output)."""
    if args.plot:
        from clfeval.render.plot import write_plots

        written = write_plots(result, args.plot)
        print(
            f"clfeval: wrote {len(written)} files ({len(written) // 2} figures as PNG and SVG) to {args.plot}",
            file=sys.stderr,
        )
    view = {"measures": getattr(args, "measures", None), "verbose": getattr(args, "verbose", False)}
    width = {"width": 100} if args.output else {}  # a file does not follow the terminal
    return result.render(
        args.format, digits=args.digits, command=args.command_line, raw_csv=args.raw_csv, **view, **width, **options
    )
