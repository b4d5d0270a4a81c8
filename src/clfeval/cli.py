"""The ``clfeval`` command line. The only module that touches argv, stdout/stderr and exit codes.

Exit codes: 0 on success; 2 on bad input or usage, with one line on stderr naming the file,
the line and what was expected.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from clfeval._version import __version__
from clfeval.api import audit_file, check_metrics, check_systems, compare, cv, finagle, score
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.labelsets import DUPLICATE_POLICIES, EMPTY_POLICIES, LabelSetCounts, MultiLabel
from clfeval.errors import ClfevalError, InputError
from clfeval.infer import INTERVAL_METHODS
from clfeval.infer.methods import CI, cost_note
from clfeval.inputs.columns import parse_column
from clfeval.inputs.engine import ENGINES
from clfeval.inputs.formats import FORMATS
from clfeval.inputs.matrix import MATRIX_ORIENTATIONS
from clfeval.inputs.options import Reading, Training
from clfeval.inputs.readers import (
    Counted,
    check_count_kind,
    load_counts,
    read,
    read_confidences,
    read_folds,
    read_matrix,
    system_names_of,
)
from clfeval.inputs.text import read_text
from clfeval.output import write_text
from clfeval.progress import ProgressBar, ReadingBar
from clfeval.render import RENDERERS, check_render_options
from clfeval.scoring.labelset import LABEL_SOURCES
from clfeval.scoring.options import Scoring
from clfeval.scoring.ratios import UNDEFINED_POLICIES

__all__ = ["main"]

EXIT_USAGE = 2
#: The exit code after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


#: What each command does, in one line (the top-level help lists them).
_HELP: dict[str, str] = {
    "score": "score predictions against gold labels",
    "count": "count files into a count file, to add up and score later",
    "compare": "is system A really better than B? paired significance tests",
    "cv": "cross-validation: pooled and mean-of-folds scores",
    "convert": "reported scores back into counts: every integer table that fits",
    "audit": "which average did a reported table use: AF or FA macro F1, weighted, micro, lfb",
    "finagle": "how far macro precision moves when doubtful predictions go to one label (Van Asch §6)",
}


def _choices(registry: Any) -> str:
    return "; ".join(f"{k}: {v if isinstance(v, str) else v[1]}" for k, v in registry.items())


def _add_table_options(src: Any) -> None:
    src.add_argument("--input-format", choices=sorted(FORMATS), help=f"default: by extension ({_choices(FORMATS)})")
    src.add_argument(
        "--sep", help="field separator: one character, or \\t (default: whitespace for text, ',' for csv, tab for tsv)"
    )
    src.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the first line names the columns (implied when a column is given by name)",
    )


def _add_input_rules(p: Any, blocks: str | None = None) -> None:
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


def _add_engine_options(p: Any, counts: bool = True) -> None:
    eng = p.add_argument_group("engine")
    eng.add_argument("--engine", choices=list(ENGINES), default="polars", help=f"{_choices(ENGINES)}")
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


def _add_multilabel_options(p: Any) -> None:
    ml = p.add_argument_group("multi-label")
    ml.add_argument("--multilabel", action="store_true", help="each cell is a set of labels")
    ml.add_argument(
        "--label-sep",
        default=",",
        metavar="SEP",
        help="separator inside a label-set cell (default ','); an empty cell is the empty set",
    )
    ml.add_argument(
        "--empty", choices=sorted(EMPTY_POLICIES), default="ignore", help=f"{_choices(EMPTY_POLICIES)}; default: ignore"
    )
    ml.add_argument(
        "--duplicates",
        choices=sorted(DUPLICATE_POLICIES),
        default="keep",
        help=f"{_choices(DUPLICATE_POLICIES)}; default: keep",
    )


def _add_label_set_options(p: Any) -> None:
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
        help=f"the label-set policy ({_choices(LABEL_SOURCES)}; 'file' is 'given' from --labels); "
        "default: file with --labels, train with --train, else union",
    )
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
        help=f"{_choices(UNDEFINED_POLICIES)}; default: include",
    )


def _add_output_options(p: Any, figures: bool = False) -> Any:
    out = p.add_argument_group("output")
    formats = RENDERERS if figures else {k: v for k, v in RENDERERS.items() if k != "html"}
    out.add_argument("--format", choices=list(formats), default="text", help=f"{_choices(formats)}; default: text")
    out.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    out.add_argument(
        "--digits", type=int, default=4, help="decimals in text, Markdown, LaTeX and HTML, 0 to 15 (default 4)"
    )
    out.add_argument(
        "--raw-csv",
        action="store_true",
        help="with --format csv: write every cell exactly, for programs (by default a label that a "
        "spreadsheet would run as a formula, starting with = + - @, gets a leading apostrophe)",
    )
    if figures:
        out.add_argument(
            "--plot",
            metavar="DIR",
            help="also draw the report's figures into DIR as PNG and SVG "
            "(needs matplotlib: pip install 'clfeval[plot]')",
        )
    return out


def _render(result: Any, args: argparse.Namespace, **options: Any) -> str:
    """The result in the asked format; with --plot, its figures written first (an error stops before any output)."""
    if args.plot:
        from clfeval.render.plot import write_plots

        written = write_plots(result, args.plot)
        print(
            f"clfeval: wrote {len(written)} files ({len(written) // 2} figures as PNG and SVG) to {args.plot}",
            file=sys.stderr,
        )
    return result.render(args.format, digits=args.digits, command=args.command_line, raw_csv=args.raw_csv, **options)


def _add_score(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help=_HELP["score"],
        description="Score predictions against gold labels: per-label counts and measures, every average by "
        "its explicit name, over a stated label set. INPUT holds gold and predicted columns (by "
        "default the last two, whitespace-separated, as TiMBL writes them); several files or a quoted "
        "glob ('data/part-*.parquet') are parts of one table. Exactly two files are GOLD and PRED, the "
        "gold file and the predictions, one instance per line (unless --parts).",
    )
    _add_input_arguments(p)
    src = p.add_argument_group("input")
    src.add_argument("--matrix", metavar="FILE", help="score a confusion matrix: first row and column are labels")
    src.add_argument(
        "--matrix-rows",
        choices=sorted(MATRIX_ORIENTATIONS),
        default="gold",
        help=f"what the matrix rows hold ({_choices(MATRIX_ORIENTATIONS)}); default: gold",
    )
    _add_table_options(src)
    src.add_argument(
        "--gold-col",
        metavar="COL",
        help="gold column: 1-based number, negative from the end, or header name (default: -2; with PRED: -1)",
    )
    src.add_argument("--pred-col", metavar="COL", help="predicted column (default: -1)")
    _add_input_rules(
        p,
        "intervals resample whole blocks (--ci bootstrap, bootstrap-bca; the delta method takes "
        "blocks as its independent units)",
    )
    _add_multilabel_options(p)
    _add_engine_options(p)
    _add_label_set_options(p)
    _add_interval_options(p, "confidence intervals")
    out = _add_output_options(p, figures=True)
    out.add_argument("--no-matrix", action="store_true", help="leave the confusion matrix out of the report")
    p.set_defaults(run=_run_score)


def _add_input_arguments(p: Any) -> None:
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


def _add_count(sub: Any) -> None:
    p = sub.add_parser(
        "count",
        help=_HELP["count"],
        description="Count the label columns of INPUT (the layouts of score; with --pred-col repeated, one column per "
        "system, as for compare) and write the sufficient statistics as a count file (JSON, schema "
        "clfeval.counts/1). Count files of parts add up, labels aligned by name: score --counts a.json "
        "b.json, compare --counts, cv --counts (one per fold).",
    )
    _add_input_arguments(p)
    src = p.add_argument_group("input")
    _add_table_options(src)
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
    _add_input_rules(p)
    _add_multilabel_options(p)
    _add_engine_options(p, counts=False)
    p.add_argument("-o", "--output", metavar="FILE", help="write the count file to FILE instead of standard output")
    p.set_defaults(run=_run_count)


def _add_compare(sub: Any) -> None:
    from clfeval.infer.comparison import DIFFERENCE_INTERVALS, TESTS
    from clfeval.infer.significance import ALTERNATIVES

    p = sub.add_parser(
        "compare",
        help=_HELP["compare"],
        description="Test whether systems' scores on the same test set differ: approximate randomization "
        "(default), the paired bootstrap or McNemar's exact test, on any score clfeval reports. "
        "GOLD is the gold file and each PRED one system's predictions, line i against line i; or give "
        "one file and name its gold column and a predicted column per system (--gold-col, --pred-col "
        "repeated). With more than two systems every pair is tested (or each against --baseline), "
        "with Holm-adjusted p-values. The exit code is 0 whatever the verdict.",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="GOLD PRED_A PRED_B [PRED_C …], or a table (one file, "
        "parts or a glob) with a gold column and a column per "
        "system",
    )
    src = p.add_argument_group("input")
    _add_table_options(src)
    src.add_argument(
        "--gold-col",
        metavar="COL",
        help="the gold file's label column: 1-based number, negative from "
        "the end, or header name (default: -1, the last)",
    )
    src.add_argument(
        "--pred-col",
        metavar="COL",
        action="append",
        help="the prediction files' label column (default: -1); with one FILE, repeat it for each system's column",
    )
    src.add_argument(
        "--name",
        metavar="NAME",
        action="append",
        dest="names",
        help="the systems' names, in order (repeat; default: the file names, or the column names)",
    )
    _add_input_rules(
        p,
        "randomization swaps whole blocks, the bootstrap resamples whole blocks and the sign test "
        "counts blocks (art.py's sentence-level shuffling)",
    )
    _add_multilabel_options(p)
    _add_engine_options(p)
    _add_label_set_options(p)
    t = p.add_argument_group("test")
    t.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="the score to compare, by its report name: macro.f1 (default; accuracy for mcnemar), "
        "macro_fa.f1, micro.f1, weighted.recall, lfb.precision, samples.f1, macro.jaccard, accuracy, "
        "hamming_loss, mcc, kappa, balanced_accuracy, per_label.<label>.f1, …; repeat it, or separate names with "
        "commas (a per_label.… value is always one name), to test several metrics on the same arrangements",
    )
    t.add_argument(
        "--test",
        choices=list(TESTS),
        default="ar",
        help=f"{'; '.join(f'{k}: {v.title}' for k, v in TESTS.items())}; default: ar",
    )
    t.add_argument("--rounds", type=int, default=10_000, help="randomization or bootstrap rounds (default 10000)")
    t.add_argument("--seed", type=int, help="the seed (default: drawn at random and printed in the report)")
    t.add_argument(
        "--alternative",
        choices=list(ALTERNATIVES),
        default="two-sided",
        help=f"on d = score(A) − score(B): {_choices(ALTERNATIVES)}; default: two-sided",
    )
    t.add_argument(
        "--baseline",
        metavar="NAME",
        help="test each system against this one only, d = score(system) − score(baseline) (default: every "
        "pair, d = earlier − later system)",
    )
    t.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="the level at which a Holm-adjusted p-value marks a difference as holding (default 0.05)",
    )
    t.add_argument(
        "--ci",
        choices=list(DIFFERENCE_INTERVALS),
        default=None,
        help=f"an interval of each difference ({_choices(DIFFERENCE_INTERVALS)}); default: bootstrap "
        "with --test bootstrap, else none",
    )
    t.add_argument("--confidence", type=float, default=0.95, help="the interval's coverage (default 0.95)")
    t.add_argument(
        "--exact-limit",
        type=int,
        default=100_000,
        help="enumerate every swap pattern exactly when there are at most this many (default 100000; 0: never)",
    )
    _add_output_options(p, figures=True)
    p.set_defaults(run=_run_compare)


def _add_cv(sub: Any) -> None:
    p = sub.add_parser(
        "cv",
        help=_HELP["cv"],
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
    _add_table_options(src)
    src.add_argument(
        "--fold-col",
        metavar="COL",
        help="the fold column of a single file: 1-based number, negative from the end, or header name",
    )
    src.add_argument("--gold-col", metavar="COL", help="gold column (default: -2; with --fold-col -1: -3)")
    src.add_argument("--pred-col", metavar="COL", help="predicted column (default: -1; with --fold-col -1: -2)")
    _add_input_rules(p)
    _add_multilabel_options(p)
    _add_engine_options(p)
    _add_label_set_options(p)
    _add_interval_options(p, "intervals of the pooled scores")
    p.add_argument(
        "--warn-above",
        type=float,
        default=0.01,
        metavar="D",
        help="warn when a pooled and a mean-of-folds value differ by more than D (default 0.01)",
    )
    out = _add_output_options(p, figures=True)
    out.add_argument("--no-matrix", action="store_true", help="leave the pooled confusion matrix out of the report")
    p.set_defaults(run=_run_cv)


def _add_convert(sub: Any) -> None:
    from clfeval.inverse.conversion import QUANTITIES

    p = sub.add_parser(
        "convert",
        help=_HELP["convert"],
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
    _add_output_options(p)
    p.set_defaults(run=_run_convert)


def _run_convert(args: argparse.Namespace) -> str:
    from clfeval.inverse.conversion import COUNT_QUANTITIES, convert, convert_labels, reported
    from clfeval.inverse.papers import read_label_figures

    names = (
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
    figures = {k: getattr(args, k) for k in names if getattr(args, k) is not None}
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


def _add_audit(sub: Any) -> None:
    p = sub.add_parser(
        "audit",
        help=_HELP["audit"],
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
    _add_output_options(p)
    p.set_defaults(run=_run_audit)


def _run_audit(args: argparse.Namespace) -> str:
    result = audit_file(
        args.table,
        beta=args.beta,
        decimals=args.decimals,
        train=_training(args),
        multilabel=args.multilabel,
        all_averages=args.all_averages,
    )
    return result.render(args.format, digits=args.digits, raw_csv=args.raw_csv)


def _add_finagle(sub: Any) -> None:
    p = sub.add_parser(
        "finagle",
        help=_HELP["finagle"],
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
    _add_table_options(src)
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
    _add_engine_options(p, counts=False)
    _add_label_set_options(p)
    _add_output_options(p)
    p.set_defaults(run=_run_finagle)


def _run_finagle(args: argparse.Namespace) -> str:
    from clfeval.scoring.finagle import check_rule

    check_rule(args.threshold, args.expected_accuracy, args.bins)  # before a byte is read
    scoring = _scoring(args)
    reading = _reading(args, ReadingBar("clfeval: reading", sys.stderr))
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
        _close(reading)
    result = finagle(
        counted,
        threshold=args.threshold,
        expected_accuracy=args.expected_accuracy,
        to=args.to,
        bins=args.bins,
        scoring=scoring,
    )
    return result.render(args.format, digits=args.digits, raw_csv=args.raw_csv)


def _add_interval_options(p: Any, title: str) -> None:
    ci = p.add_argument_group(title)
    ci.add_argument(
        "--ci",
        choices=list(INTERVAL_METHODS),
        default="none",
        help="an interval for every score: "
        + "; ".join(f"{k}: {m.short}" for k, m in INTERVAL_METHODS.items())
        + "; default: none",
    )
    ci.add_argument("--confidence", type=float, default=0.95, help="nominal coverage (default 0.95)")
    ci.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    ci.add_argument("--seed", type=int, help="bootstrap seed (default: drawn at random and printed in the report)")


def _scoring(args: argparse.Namespace) -> Scoring:
    """The label-set and measure options every command shares, and the training file, as one group."""
    labels = _read_label_list(args.labels) if args.labels else None
    if args.labels_from == "file" and labels is None:
        raise ClfevalError("--labels-from file needs --labels FILE")
    return Scoring(
        labels=labels,
        labels_from={"file": "given"}.get(args.labels_from, args.labels_from),
        train=_training(args),
        beta=args.beta,
        zero_division=args.zero_division,
        undefined=args.undefined,
    )


def _training(args: argparse.Namespace) -> Training | None:
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


def _read_label_list(path: str) -> list[str]:
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


def _reading(args: argparse.Namespace, bar: ReadingBar) -> Reading:
    """How the command reads its files, as one group (checked as it is built, before anything is read)."""
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
        engine=args.engine,
        scheduler=args.scheduler,
        progress=bar if bar.enabled else None,
    )


def _close(reading: Reading) -> None:
    """Close the reading progress bar (if it shows)."""
    if isinstance(reading.progress, ReadingBar):
        reading.progress.close()


def _ci(args: argparse.Namespace) -> CI | None:
    return CI.of(CI(args.ci, args.confidence, args.resamples, args.seed))


def _layout(args: argparse.Namespace) -> list[Any]:
    """INPUT arguments → the paths :func:`clfeval.read` takes: [table] (its parts in a list), or [gold, pred]."""
    inputs = args.inputs
    if len(inputs) == 2 and not args.parts:
        return list(inputs)
    return [inputs[0] if len(inputs) == 1 else list(inputs)]


def _no_rules(reading: Reading) -> None:
    """Count files and a matrix hold labels as they were counted: the input rules applied then."""
    if reading.rules:
        raise ClfevalError(
            f"{', '.join(reading.rules)} {'applies' if len(reading.rules) == 1 else 'apply'} when reading instances, "
            "not to count files or a matrix (give them to `clfeval count` when counting)"
        )


def _check_counts(files: Sequence[str], reading: Reading) -> None:
    """--counts takes count files as they were written: no input files, input rules, multi-label options or
    engine beside it."""
    if files:
        raise ClfevalError("give either input files or --counts FILE…, not both")
    _no_rules(reading)
    if reading.label_sets is not None or reading.engine != "polars":
        raise ClfevalError("--counts takes count files as they were written: --multilabel and --engine do not apply")


def _load(args: argparse.Namespace, paths: str | Sequence[str], joint: bool) -> Counted:
    """Count files added up, of the kind expected; a training file beside them splits label sets on --label-sep."""
    counted = load_counts(paths)
    check_count_kind(counted, joint)
    return replace(counted, reading=Reading(multilabel=MultiLabel(args.label_sep) if counted.multilabel else None))


def _counts(args: argparse.Namespace, files: Sequence[str], reading: Reading, joint: bool) -> Counted:
    """The count files of --counts, checked and added up."""
    _check_counts(files, reading)
    return _load(args, args.counts, joint)


def _run_score(args: argparse.Namespace) -> str:
    scoring, interval = _scoring(args), _ci(args)
    reading = _reading(args, ReadingBar("clfeval: reading", sys.stderr))
    try:
        counted = _score_input(args, reading)
    finally:
        _close(reading)
    if interval is not None:
        _say_cost(interval, counted)
    result = _with_bar(args.ci, score, counted, scoring=scoring, ci=interval)
    return _render(result, args, matrix=not args.no_matrix)


def _with_bar(label: str, task: Any, *args: Any, **kwargs: Any) -> Any:
    """``task(*args, **kwargs, progress=...)`` with a progress bar named ``label`` on standard error (drawn on a
    terminal only; the task gets no callback otherwise), closed however the task ends."""
    progress = ProgressBar(f"clfeval: {label}", sys.stderr)
    try:
        return task(*args, progress=progress if progress.enabled else None, **kwargs)
    finally:
        progress.close()


def _say_cost(interval: CI, counted: Counted) -> None:
    """Say on standard error, before it starts, when an interval method will take long on these counts (and why)."""
    counts = counted.counts
    if counted.blocks is not None or not isinstance(counts, (ConfusionCounts, LabelSetCounts)):
        return
    types = counts.n_cells if isinstance(counts, ConfusionCounts) else len(counts.pairs)
    note = cost_note(interval.method, types, len(counts.labels), interval.resamples if interval.resampling else 0)
    if note is not None:
        print(f"clfeval: note: {note}", file=sys.stderr)


def _score_input(args: argparse.Namespace, reading: Reading) -> Counted:
    """Read and count what the arguments name (a matrix file, count files, or instance files)."""
    if args.matrix:
        if args.inputs or args.counts:
            raise ClfevalError("--matrix takes no INPUT file, no --counts and no --multilabel")
        if reading.label_sets is not None:
            raise ClfevalError("--matrix takes no INPUT file, no --counts and no --multilabel")
        _no_rules(reading)
        return read_matrix(
            args.matrix, rows=args.matrix_rows, reading=Reading(input_format=args.input_format, sep=args.sep)
        )
    if args.counts:
        return _counts(args, args.inputs, reading, joint=False)
    if not args.inputs:
        raise ClfevalError("give an INPUT file (or - for standard input), --counts FILE…, or --matrix FILE")
    return read(*_layout(args), gold_col=parse_column(args.gold_col), pred_col=parse_column(args.pred_col),
                reading=reading)  # fmt: skip


def _run_count(args: argparse.Namespace) -> str:
    if not args.inputs:
        raise ClfevalError("give INPUT files (or - for standard input)")
    reading = _reading(args, ReadingBar("clfeval: reading", sys.stderr))
    pred_cols = [parse_column(c) for c in args.pred_col or []]
    try:
        counted = read(
            *_layout(args),
            gold_col=parse_column(args.gold_col),
            pred_col=pred_cols if len(pred_cols) > 1 else (pred_cols[0] if pred_cols else None),
            names=args.names,
            reading=reading,
        )
    finally:
        _close(reading)
    for warning in counted.warnings:
        print(f"clfeval: warning: {warning}", file=sys.stderr)
    return json.dumps(counted.to_dict(), ensure_ascii=False) + "\n"


def _run_compare(args: argparse.Namespace) -> str:
    from clfeval.infer.comparison import Test

    files = args.files
    pred_cols = [parse_column(c) for c in args.pred_col or []]
    metrics = [
        m.strip()
        for spec in args.metric or []
        for m in ([spec] if spec.strip().startswith("per_label.") else spec.split(","))
        if m.strip()
    ] or None
    scoring = _scoring(args)
    test = Test(
        name=args.test,
        rounds=args.rounds,
        seed=args.seed,
        alternative=args.alternative,
        alpha=args.alpha,
        ci=args.ci,
        confidence=args.confidence,
        exact_limit=args.exact_limit,
    )
    reading = _reading(args, ReadingBar("clfeval: reading", sys.stderr))
    check_metrics(metrics, test, multilabel=None if args.counts else reading.label_sets is not None, beta=scoring.beta)
    try:
        if args.counts:
            counted = _counts(args, files, reading, joint=True)
        else:
            table = len(pred_cols) > 1  # a column per system: every FILE is a part of that table
            if not files:
                raise ClfevalError("give GOLD and prediction files, a table with --pred-col per system, or --counts")
            if table and args.gold_col is None:
                raise ClfevalError(
                    "with a --pred-col per system, every FILE is a part of one table: say which column "
                    "is gold (--gold-col); with prediction files, give --pred-col once"
                )
            if not table and len(files) == 2:
                raise ClfevalError(
                    "compare needs GOLD and at least two prediction files (or a table with --gold-col "
                    "and --pred-col for each system)"
                )
            if not table and len(files) == 1:
                raise ClfevalError(
                    "with one file, name its gold column and a predicted column per system "
                    "(--gold-col, --pred-col repeated)"
                )
            check_systems(
                list(args.names) if args.names is not None else system_names_of([] if table else files[1:], pred_cols),
                args.baseline,
            )
            if table:
                counted = read(files[0] if len(files) == 1 else list(files), gold_col=parse_column(args.gold_col),
                               pred_col=pred_cols, names=args.names, reading=reading)  # fmt: skip
            else:
                counted = read(
                    files[0],
                    *files[1:],
                    gold_col=parse_column(args.gold_col),
                    pred_col=pred_cols[0] if pred_cols else None,
                    names=args.names,
                    reading=reading,
                )
    finally:
        _close(reading)
    result = _with_bar(args.test, compare, counted, metrics=metrics, test=test, baseline=args.baseline, scoring=scoring)
    return _render(result, args)


def _run_cv(args: argparse.Namespace) -> str:
    scoring, interval = _scoring(args), _ci(args)
    reading = _reading(args, ReadingBar("clfeval: reading", sys.stderr))
    try:
        if args.counts:
            _check_counts(args.files, reading)
            folds: Any = [_load(args, spec, joint=False) for spec in args.counts]  # one count file per fold
        else:
            if not args.files:
                raise ClfevalError("give one file per fold, a table with --fold-col, or --counts (one per fold)")
            folds = read_folds(
                args.files,
                fold_col=parse_column(args.fold_col),
                gold_col=parse_column(args.gold_col),
                pred_col=parse_column(args.pred_col),
                reading=reading,
            )
    finally:
        _close(reading)
    result = _with_bar(args.ci, cv, folds, scoring=scoring, ci=interval, warn_above=args.warn_above)
    return _render(result, args, matrix=not args.no_matrix)


#: The commands, in help order, and what adds each one's parser.
_COMMANDS: dict[str, Callable[[Any], None]] = {
    "score": _add_score,
    "compare": _add_compare,
    "cv": _add_cv,
    "count": _add_count,
    "convert": _add_convert,
    "audit": _add_audit,
    "finagle": _add_finagle,
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``clfeval`` command.

    With ``command``, only that command's options are built (the others are listed by name and purpose, which is
    all the top-level help shows): a command does not import what only another command's options name (compare's
    tests, convert's quantities)."""
    parser = _Parser(prog="clfeval", description="Evaluate classifiers with every averaged score named.")
    parser.add_argument("--version", action="version", version=f"clfeval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, add in _COMMANDS.items():
        if command is None or name == command:
            add(sub)
        else:
            sub.add_parser(name, help=_HELP[name])
    return parser


def _check_writable(output: str | None, plot: str | None) -> None:
    """Refuse an output file (-o) or a figure directory (--plot) that cannot be written, before any input is read."""
    if output is not None and output != "-":
        parent = os.path.dirname(os.path.abspath(output))
        if os.path.isdir(output):
            raise ClfevalError(f"cannot write {output}: it is a directory (-o names a file)")
        if not os.path.isdir(parent):
            raise ClfevalError(f"cannot write {output}: no such directory {parent}")
        if not os.access(parent, os.W_OK):
            raise ClfevalError(f"cannot write {output}: permission denied in {parent}")
    if plot is not None:
        existing = os.path.abspath(plot)
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        if not os.path.isdir(existing):
            raise ClfevalError(f"cannot make the --plot directory {plot}: {existing} is a file")
        if not os.access(existing, os.W_OK):
            raise ClfevalError(f"cannot make the --plot directory {plot}: permission denied in {existing}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 done, 2 bad input or usage, 130 interrupted)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C raises KeyboardInterrupt: cleanup runs
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: no traceback; nothing half-written (output files are written atomically)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(given[0] if given and given[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    args.command_line = shlex.join(["clfeval", *(sys.argv[1:] if argv is None else argv)])
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        if hasattr(args, "digits"):  # output options are checked before any input is read
            check_render_options(args.format, digits=args.digits)
        _check_writable(getattr(args, "output", None), getattr(args, "plot", None))
        text = args.run(args)
    except ClfevalError as exc:
        print(f"clfeval: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"clfeval: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.output:
            write_text(args.output, text)
        else:
            _write_stdout(text)
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where, kept = (
            (args.output, " (nothing was written)")
            if args.output
            else ("standard output", " (the output is incomplete)")
        )
        print(f"clfeval: error: cannot write {where}: {exc.strerror or exc}{kept}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _write_stdout(text: str) -> None:
    """Write ``text`` to standard output, every byte or an ``OSError``: a short write (a full disk, a file-size
    limit) is retried until it fails, where Python's buffered stream could drop the rest without a word."""
    sys.stdout.flush()
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's captured stream)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data) :]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
