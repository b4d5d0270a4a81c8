"""The ``compare`` command: its options, and paired significance tests between systems on the same test set.

Compare's tests and difference intervals (:mod:`clfeval.infer.comparison`) are imported only when its parser is
built or it runs: another command does not load them.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from clfeval.api import check_metrics, check_systems, compare
from clfeval.cli import options
from clfeval.cli.inputs import counts_given
from clfeval.count.labelsets import MultiLabel
from clfeval.errors import ClfevalError
from clfeval.inputs.columns import Column, parse_column
from clfeval.inputs.options import Reading
from clfeval.inputs.readers import Counted, read, system_names_of

__all__ = ["HELP", "add_compare", "run_compare"]

#: What the command does, in one line (the top-level help lists it).
HELP = "is system A really better than B? paired significance tests"


def add_compare(sub: Any) -> None:
    """Add the ``compare`` command's parser to the subparsers ``sub``."""
    from clfeval.infer.pairtests import DIFFERENCE_INTERVALS, TESTS
    from clfeval.infer.significance import ALTERNATIVES

    p = sub.add_parser(
        "compare",
        help=HELP,
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
    options.add_table_options(src)
    options.add_weight_option(src)
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
    options.add_input_rules(
        p,
        "randomization swaps whole blocks, the bootstrap resamples whole blocks and the sign test "
        "counts blocks (art.py's sentence-level shuffling)",
    )
    options.add_multilabel_options(p)
    options.add_span_options(p, systems=True)
    options.add_scored_options(p, systems=True)
    options.add_engine_options(p)
    options.add_label_set_options(p)
    options.add_group_options(
        p,
        scores=False,
        column="a column naming each instance's group: the systems are compared within each group too, with Holm "
        "over the groups (header name or 1-based number); repeat it for intersections; with one table (CSV, TSV, "
        "JSON Lines or Parquet, with a header), its --gold-col and a --pred-col per system, held in memory",
    )
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
        help=f"{'; '.join(f'{k}: {v.title}' for k, v in TESTS.items())} (with --scores: AUCs); default: ar",
    )
    t.add_argument("--rounds", type=int, default=10_000, help="randomization or bootstrap rounds (default 10000)")
    t.add_argument("--seed", type=int, help="the seed (default: drawn at random and printed in the report)")
    t.add_argument(
        "--alternative",
        choices=list(ALTERNATIVES),
        default="two-sided",
        help=f"on d = score(A) − score(B): {options.choices(ALTERNATIVES)}; default: two-sided",
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
        help=f"an interval of each difference ({options.choices(DIFFERENCE_INTERVALS)}); default: bootstrap "
        "with --test bootstrap, else none",
    )
    t.add_argument("--confidence", type=float, default=0.95, help="the interval's coverage (default 0.95)")
    t.add_argument(
        "--exact-limit",
        type=int,
        default=100_000,
        help="enumerate every swap pattern exactly when there are at most this many (default 100000; 0: never)",
    )
    out = options.add_output_options(p, figures=True)
    options.add_report_options(out, measures=False)
    p.set_defaults(run=run_compare)


def run_compare(args: argparse.Namespace) -> str:
    """Run ``compare``: the tests' report, in the asked format (the metrics, systems and test are checked before
    anything is read)."""
    files = args.files
    pred_cols = [parse_column(c) for c in args.pred_col or []]
    metrics = [
        m.strip()
        for spec in args.metric or []
        for m in ([spec] if spec.strip().startswith("per_label.") else spec.split(","))
        if m.strip()
    ] or None
    scoring = options.scoring(args)
    if args.group_col:
        return _compare_groups(args, files, pred_cols, metrics, scoring)
    if args.scores is not None:
        options.refuse_for_scores(args, engine=True)
        check_systems([item.partition("=")[0] for item in args.scores], args.baseline)
        return _run_scored(args, files, metrics, scoring)
    if args.test == "delong":
        raise ClfevalError("--test delong is DeLong's test of two AUCs: give --scores NAME=SPEC per system")
    test = _test(args)
    reading = options.reading(args)
    spans = options.spans(args)
    check_metrics(
        metrics,
        test,
        multilabel=None if args.counts or spans is not None else reading.label_sets is not None,
        beta=scoring.beta,
        kind="spans" if spans is not None else None,
    )
    try:
        if args.counts:
            counted = counts_given(args, files, reading, "compare")
        else:
            counted = _read_systems(args, files, pred_cols, reading, spans)
    finally:
        options.close(reading)
    result = options.with_bar(
        args, args.test, compare, counted, metrics=metrics, test=test, baseline=args.baseline, scoring=scoring
    )
    return options.render(result, args)


def _compare_groups(
    args: argparse.Namespace, files: list[str], pred_cols: list[Column], metrics: list[str] | None, scoring: Any
) -> str:
    """``compare TABLE --gold-col G --pred-col A --pred-col B --group-col COL``: the table's gold, predicted and group
    columns held in memory (:func:`~clfeval.inputs.readers.read_label_columns`) and compared by
    ``clfeval.compare(gold, systems, groups=...)`` (a :class:`~clfeval.infer.groupcomparison.SlicedComparison`);
    what it does not read by group is refused, by name, before anything is read."""
    from clfeval.inputs.readers import read_label_columns

    options.refuse_for_groups(
        args,
        ("--scores", args.scores),
        ("--counts (count files hold no instances to compare by group)", args.counts or None),
        ("--spans", args.spans),
        ("--engine dask (compare by group holds the columns in memory)", (args.engine != "polars") or None),
        ("--scheduler", args.scheduler),
        ("--blocks", args.blocks or None),
        ("--block-col", args.block_col),
        ("--block-end", args.block_end),
        ("--weight-col", args.weight_col),
        ("--multilabel", args.multilabel or None),
        ("--invalid", args.invalid),
        ("--input-format", args.input_format),
        ("--sep", args.sep),
        ("--no-header", (args.header is False) or None),
        ("--skip", args.skip),
        ("--keep-trailing", args.keep_trailing or None),
        ("--translate", args.translate),
        ("--cutoff", args.cutoff),
        ("prediction files (give one table with a --pred-col per system)", (len(files) != 1) or None),
    )  # fmt: skip
    if args.gold_col is None or len(pred_cols) < 2:
        raise ClfevalError("with --group-col, name the table's gold column and a predicted column per system "
                           "(--gold-col, --pred-col repeated)")  # fmt: skip
    test = _test(args)
    check_metrics(metrics, test, multilabel=False, beta=scoring.beta)
    if args.names is not None:
        check_systems(list(args.names), args.baseline)
    with options.reading_bar(args):
        found = read_label_columns(
            files[0],
            gold_col=parse_column(args.gold_col),
            pred_cols=pred_cols,
            group_cols=[parse_column(c) for c in args.group_col],
            names=args.names,
        )
    check_systems(list(found.preds), args.baseline)
    result = options.with_bar(
        args, args.test, compare, found.gold, found.preds, groups=found.groups, metrics=metrics, test=test,
        baseline=args.baseline, scoring=scoring,
    )  # fmt: skip
    systems = ", ".join(f"{s} (column {c})" for s, c in found.inputs["pred_columns"].items())
    read = (
        f"read from {found.inputs['file']}: gold column {found.inputs['gold_column']}, systems {systems}, groups "
        f"by {', '.join(found.inputs['group_col'])}; its columns held in memory"
    )
    return options.render(replace(result, notes=(*result.notes, read)), args)


def _test(args: argparse.Namespace) -> Any:
    """The one test group of every kind (:class:`~clfeval.Test`) from the command line's options."""
    from clfeval.infer.comparison import Test

    return Test(
        name=args.test,
        rounds=args.rounds,
        seed=args.seed,
        alternative=args.alternative,
        alpha=args.alpha,
        ci=args.ci,
        confidence=args.confidence,
        exact_limit=args.exact_limit,
    )


def _run_scored(args: argparse.Namespace, files: list[str], metrics: list[str] | None, scoring: Any) -> str:
    """``compare --scores NAME=SPEC …``: the systems' scores of one file, tested pairwise (or each against
    ``--baseline``), with the test group every kind takes."""
    from clfeval.inputs.scoredfile import read_scored

    on_dask = options.scores_on_dask(
        args, ("--ordinal", getattr(args, "ordinal", False)), *options.block_options(args),
    )  # fmt: skip
    if (len(files) != 1 and not (on_dask and files)) or args.counts:
        raise ClfevalError("--scores reads one file with a gold column and each system's score columns")
    labels = None if scoring.labels is None else [str(x) for x in scoring.labels]
    specs: dict[str, str] = {}
    for item in args.scores:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec:
            raise ClfevalError(f"--scores takes NAME=SPEC per system (A='a_*'), not {item!r}")
        if name in specs:
            raise ClfevalError(f"system names must be distinct; repeated: {name!r}")
        specs[name] = spec
    if len(specs) >= 2 and not any(options.score_blocks(args).values()) and not getattr(args, "ordinal", False):
        return _run_joint(args, files, specs, labels, metrics, on_dask)
    systems: dict[str, Any] = {}
    gold = None
    classes = None
    blocks = weight = None
    for name, spec in specs.items():
        with options.reading_bar(args) as progress:
            found = read_scored(
                files[0],
                spec,
                gold_col=parse_column(args.gold_col),
                labels=labels,
                probabilities=False if args.not_probabilities or args.lower_is_more_confident else None,
                label_sets=args.multilabel,
                weight_col=parse_column(args.weight_col),
                **options.score_blocks(args),
                progress=progress,
            )
        gold, classes = found.gold, found.labels(labels)
        blocks, weight = found.blocks, found.weight
        systems[name] = found.named()
    if len(systems) < 2:
        raise ClfevalError("compare needs at least two systems: give --scores NAME=SPEC for each")
    classes = _positive_last(classes, [] if gold is None else gold.tolist(), args.positive)
    test = _test(args)
    result = options.with_bar(
        args,
        args.test,
        compare,
        gold,
        scores=systems,
        labels=classes,
        metrics=metrics,
        test=test,
        baseline=args.baseline,
        conventions=options.conventions(args),
        blocks=blocks,
        multilabel=MultiLabel(args.label_sep or ",", args.empty, args.duplicates) if args.multilabel else None,
        sample_weight=weight,
        **options.scored_scoring(args),
    )
    if weight is not None:
        result = _weights_named(args, result)
    return options.render(result, args)


def _weights_named(args: argparse.Namespace, result: Any) -> Any:
    """Each system's result with its weights' source the weight column, not ``sample_weight=``."""
    from clfeval.result import FrozenDict

    column = str(args.weight_col)
    named = {s: options.weights_named(r, column) for s, r in result.results.items()}
    return replace(result, results=FrozenDict(named))


def _positive_last(classes: list[str] | None, seen: Any, positive: str | None) -> list[str] | None:
    """The classes with ``positive`` the last (binary scores belong to the last class): the declared classes, or the
    gold labels ``seen`` in scikit-learn's order; unchanged without ``positive``."""
    from clfeval.count.classes import class_order

    if positive is None:
        return classes
    if classes is None:
        ordered = class_order(str(v) for v in seen)
        if positive not in ordered:
            raise ClfevalError(f"the positive class {positive!r} is not among the gold labels {ordered}")
        return [*(c for c in ordered if c != positive), positive]
    if len(classes) == 2 and positive in classes:
        return [*(c for c in classes if c != positive), positive]
    return classes


def _run_joint(
    args: argparse.Namespace,
    files: list[str],
    specs: dict[str, str],
    labels: list[str] | None,
    metrics: list[str] | None,
    on_dask: bool = False,
) -> str:
    """``compare --scores`` without blocks: the file read once, part by part, for every system
    (:func:`~clfeval.inputs.scoredfile.merged_scored`) into the systems' joint distinct rows
    (:class:`~clfeval.count.jointscored.JointScoreCounts`), which ``compare`` tests pair by pair; ``on_dask``: the
    files (or parts) counted on a Dask cluster (:func:`~clfeval.inputs.scoredcluster.merged_paths`), the rest
    alike."""
    from clfeval.inputs.scoredfile import merged_scored, numbers_of
    from clfeval.inputs.scoredparts import ScoredReading, finish_parts

    multilabel = MultiLabel(args.label_sep or ",", args.empty, args.duplicates) if args.multilabel else None
    if multilabel is not None and args.positive is not None:
        raise ClfevalError("--positive names the class of binary scores; multi-label scores have a column per label")
    reading = ScoredReading(
        specs=tuple(specs.values()), systems=tuple(specs), gold_col=parse_column(args.gold_col),
        labels=None if labels is None else tuple(labels),
        probabilities=False if args.not_probabilities or args.lower_is_more_confident else None,
        weight_col=parse_column(args.weight_col), multilabel=multilabel,
        numbers=numbers_of(files[0] if files else "", None),  # the classes ordered as `score` orders the file's
    )  # fmt: skip
    if on_dask:  # each part counted where it lies, the distinct joint rows merged in a tree
        from clfeval.inputs.scoredcluster import Counting, merged_paths

        merged, path = merged_paths(files, Counting(reading), args.scheduler)
    else:
        path = files[0]
        with options.reading_bar(args) as progress:
            merged = merged_scored(path, reading, progress=progress)
    if multilabel is None:  # the classes as the instances' path orders them: binary scores' positive class last
        ordered = _positive_last(labels, merged.names, args.positive)
        reading = replace(reading, labels=None if ordered is None else tuple(ordered))
    joint, inputs = finish_parts(merged, reading, path)
    if on_dask:
        inputs = {**inputs, "engine": "dask"}
    result = options.with_bar(
        args, args.test, compare, Counted(joint, inputs=inputs), metrics=metrics, test=_test(args),
        baseline=args.baseline, conventions=options.conventions(args), **options.scored_scoring(args),
    )  # fmt: skip
    result = _weights_named(args, result) if joint.weight is not None else result
    return options.render(_own_columns(result, inputs["score_columns"]), args)


def _own_columns(result: Any, columns: dict[str, list[str]]) -> Any:
    """Each system's result naming its own score columns (``inputs.score_columns``), as ``score --scores`` does."""
    from clfeval.result import FrozenDict

    own = {
        s: replace(r, inputs=FrozenDict({**r.inputs, "score_columns": columns[s]})) for s, r in result.results.items()
    }
    return replace(result, results=FrozenDict(own))


def _read_systems(
    args: argparse.Namespace, files: list[str], pred_cols: list[Column], reading: Reading, spans: Any = None
) -> Counted:
    """The systems' joint counts from GOLD and a prediction file per system, or from a table with a predicted column
    per system (every FILE a part of it); the layout and the systems' names are checked before anything is read."""
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
            "with one file, name its gold column and a predicted column per system (--gold-col, --pred-col repeated)"
        )
    check_systems(
        list(args.names) if args.names is not None else system_names_of([] if table else files[1:], pred_cols),
        args.baseline,
    )
    if table:
        return read(files[0] if len(files) == 1 else list(files), gold_col=parse_column(args.gold_col),
                    pred_col=pred_cols, names=args.names, reading=reading, spans=spans)  # fmt: skip
    return read(
        files[0],
        *files[1:],
        gold_col=parse_column(args.gold_col),
        pred_col=pred_cols[0] if pred_cols else None,
        names=args.names,
        reading=reading,
        spans=spans,
    )
