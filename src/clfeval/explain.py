"""What a name means: every entry of every registry a user meets, in words (``clfeval explain NAME``).

A measure, an average, an interval method, a paired test, a label-set source, an input format … is one entry of a
registry (:data:`REGISTRIES` lists them, and where each lives). :func:`explain` reads a name's entries and says what
each is: its definition (for measures and averages, the formula in words), when it is 0/0 and what value it then
takes, what it applies to, the names it goes by in the JSON and ``--metric``, and its references. Everything comes
from the registries themselves, imported when asked for: nothing here restates a definition.

>>> [e.registry for e in explain("bootstrap")]
['INTERVAL_METHODS', 'TESTS', 'DIFFERENCE_INTERVALS', 'GROUP_TESTS']
>>> explain("subset_accuracy")[0].name
'accuracy'
"""

from __future__ import annotations

import difflib
import importlib
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from clfeval.errors import OptionError

__all__ = [
    "EXPLAIN_SCHEMA",
    "REGISTRIES",
    "WIDTH",
    "Explanation",
    "Registry",
    "explain",
    "explain_all",
    "explanations_to_dict",
    "listing_to_dict",
    "registry_names",
    "render_explanations",
    "render_listing",
    "to_json",
]

#: The JSON contract of ``clfeval explain --format json``.
EXPLAIN_SCHEMA = "clfeval.explain/1"
#: The columns the text is wrapped to.
WIDTH = 100

#: Each detail's label in text, by its JSON key, in the order entries show them.
DETAIL_LABELS: Mapping[str, str] = {
    "short": "in short",
    "scope": "scope",
    "tasks": "applies to",
    "commands": "commands",
    "measures": "measures",
    "direction": "direction",
    "range": "range",
    "undefined_when": "0/0 when",
    "undefined_value": "0/0 value",
    "in_averages": "in averages",
    "undefined": "0/0",
    "order": "label order",
    "names": "names",
    "blocks": "with blocks",
    "resampling": "resamples",
    "random": "rounds",
    "exact": "exact",
    "interval": "interval",
    "extreme": "as extreme",
    "few_counts": "few counts",
    "kinds": "kinds",
    "family": "scored as",
    "count_file": "count file",
    "label_sets": "label sets",
    "options": "options",
    "prefixes": "prefixes",
    "rules": "rules",
    "well_formed": "well formed",
    "chosen_by": "chosen by",
    "registered": "registered",
}


@dataclass(frozen=True)
class Explanation:
    """One registry entry, in words.

    Attributes
    ----------
    registry, home
        The registry's name (``MEASURES``) and where it is defined (``clfeval.MEASURES``, or its module's path).
    name, title
        The entry's name (its key in the registry) and how reports title it (empty when it has no title).
    definition
        What it is; for measures and averages, the formula in words.
    details
        (key, text) pairs, keys from :data:`DETAIL_LABELS`: what it applies to, its 0/0 rule, its names …
    references
        Where it is defined (author, year), from the entry's ``references``.
    asked
        The name it was asked by, when that is another of its names (``f1`` for ``f``, ``subset_accuracy``).
    """

    registry: str
    home: str
    name: str
    title: str
    definition: str
    details: tuple[tuple[str, str], ...] = ()
    references: tuple[str, ...] = ()
    asked: str = ""

    def detail(self, key: str) -> str | None:
        """The text of the detail ``key``, or ``None`` when the entry has none."""
        return dict(self.details).get(key)

    def to_dict(self) -> dict[str, Any]:
        """The entry as a JSON object (see docs/json.md, ``clfeval.explain/1``)."""
        return {
            "registry": self.registry,
            "home": self.home,
            "name": self.name,
            "asked": self.asked or self.name,
            "title": self.title,
            "definition": self.definition,
            "details": dict(self.details),
            "references": list(self.references),
        }

    def text(self, width: int = WIDTH) -> str:
        """The entry as text wrapped to ``width`` columns: a heading naming its registry, then a line per field."""
        title = f" — {self.title}" if self.title and self.title != self.name else ""
        asked = f" (asked as {self.asked})" if self.asked and self.asked != self.name else ""
        rows = [("definition", self.definition)]
        rows += [(DETAIL_LABELS[k], v) for k, v in self.details]
        if self.references:
            rows.append(("references", "; ".join(self.references)))
        pad = max(len(label) for label, _ in rows) + 2
        lines = textwrap.wrap(f"{self.registry}: {self.name}{title}{asked}", width, subsequent_indent="    ")
        for label, text in rows:
            lines += textwrap.wrap(
                text,
                width,
                initial_indent=f"  {label:<{pad}}",
                subsequent_indent=" " * (pad + 2),
                break_on_hyphens=False,
            )
        return "\n".join(lines)


@dataclass(frozen=True)
class Registry:
    """A registry :func:`explain` reads.

    Attributes
    ----------
    name, module
        The registry's name and the module that defines it (imported when it is read).
    about
        What its entries are, in a few words.
    chosen_by
        How a user chooses an entry (the command-line option, the Python keyword); empty when every report has them.
    describe
        ``(registry, name, entry) → Explanation``.
    """

    name: str
    module: str
    about: str
    chosen_by: str
    describe: Callable[[Registry, str, Any], Explanation] = field(repr=False)

    def entries(self) -> Mapping[str, Any]:
        """The registry itself: its entries by name."""
        entries: Mapping[str, Any] = getattr(importlib.import_module(self.module), self.name)
        return entries

    @property
    def home(self) -> str:
        """Where a user finds it: ``clfeval.NAME`` when the package exports it, else its module's path."""
        import clfeval

        return f"clfeval.{self.name}" if self.name in clfeval.__all__ else f"{self.module}.{self.name}"

    def explanation(self, name: str, **fields: Any) -> Explanation:
        """An :class:`Explanation` of the entry ``name`` of this registry (``chosen_by`` added to its details)."""
        details = tuple(fields.pop("details", ()))
        if self.chosen_by:
            details += (("chosen_by", self.chosen_by),)
        return Explanation(self.name, self.home, name, details=details, **fields)


# -- each registry's entries in words --------------------------------------------------------------------------------


def _number(x: float) -> str:
    return "∞" if x == float("inf") else "−∞" if x == float("-inf") else f"{x:g}".replace("-", "−")


def _range(low: float, high: float) -> str:
    return f"[{_number(low)}, {_number(high)}" + (")" if high == float("inf") else "]")


def _tasks(tasks: frozenset[str]) -> str:
    """The tasks of a measure or an average, single-label first: ``single-label, multi-label data``."""
    return ", ".join(sorted(tasks, key=lambda t: (t != "single-label", t))) + " data"


def _by_task(common: str, by_task: Mapping[str, str]) -> str:
    """A field and its other value for some tasks: ``correct / N; multi-label: whole label set right / N``."""
    return "; ".join([common, *(f"{task}: {value}" for task, value in sorted(by_task.items()))])


def _undefined_policies() -> str:
    """The --undefined choices and what each does to a label whose measure is 0/0 (:data:`UNDEFINED_POLICIES`)."""
    from clfeval.scoring.ratios import UNDEFINED_POLICIES

    return "; ".join(f"--undefined {k}: {v}" for k, v in UNDEFINED_POLICIES.items())


def _measure(registry: Registry, name: str, m: Any) -> Explanation:
    from clfeval.scoring.averages import AVERAGES
    from clfeval.scoring.ratios import f_key

    report = f_key(1.0) if name == "f" else name
    details: list[tuple[str, str]] = []
    if m.short:
        details.append(("short", m.short))
    every_task = frozenset().union(*(a.tasks for a in AVERAGES.values()))
    averages = ", ".join(a.name for a in AVERAGES.values() if a.tasks == every_task)
    averages += "".join(f"; {a.name} of {_tasks(a.tasks)}" for a in AVERAGES.values() if a.tasks != every_task)
    if m.scope == "label":
        scope = "per label: one value for each label of the label set"
        scope += f"; averaged by every average ({averages})" if m.averaged else "; not averaged"
    else:
        scope = "overall: one value for the data set"
    details += [
        ("scope", scope),
        ("tasks", _tasks(m.tasks)),
        ("direction", "higher is better" if m.higher_is_better else "lower is better (an error rate or loss)"),
        ("range", _by_task(_range(m.low, m.high), {t: _range(*r) for t, r in m.ranges.items()})),
    ]
    when = m.undefined_when.replace("{label}", "the label")
    details.append(("undefined_when", when + (f" ({m.denominator} = 0)" if m.denominator else "")))
    if "chance level" in m.definition:  # MCC, κ, adjusted balanced accuracy: the definition states it
        value = "0, chance level, with --zero-division 0 or 1; NaN with --zero-division nan"
    else:
        value = "the --zero-division value: 0 (the default), 1 or nan; the result lists where it was used"
    details.append(("undefined_value", value))
    if m.scope == "label" and m.averaged:
        details.append(("in_averages", _undefined_policies()))
    details.append(
        (
            "order",
            "yes: the value depends on the order of the labels, so it is given only under a declared order "
            "(ordinal=[...]; --ordinal, with --labels FILE for the file's order)"
            if m.ordered
            else "no",
        )
    )
    if m.scope == "label":
        names = f"per_label.<label>.{report}"
        if m.averaged:
            names += f", and <average>.{report} ({', '.join(f'{a}.{report}' for a in AVERAGES)})"
    else:
        names = _by_task(name, {task: f"also {alias}" for task, alias in m.aliases.items()})
    if name == "f":
        names += f"; F_β is named {f_key(1.0)} for β = 1 (the default), else f and β ({f_key(2.0)}, {f_key(0.5)})"
    details.append(("names", names))
    if m.registered:
        details.append(("registered", f"by clfeval.register_measure; reads {', '.join(sorted(m.reads))}"))
    return registry.explanation(
        name,
        title=_by_task(m.title, m.titles),
        definition=_by_task(m.definition, m.definitions),
        details=details,
        references=m.references,
    )


def _average(registry: Registry, name: str, a: Any) -> Explanation:
    from clfeval.scoring.ratios import f_key

    measures = [f_key(1.0) if m == "f" else m for m in _averaged()]
    details = [
        ("short", a.short.replace("{F}", "F_β").replace("{freq}", "training (else test gold)")),
        ("tasks", _tasks(a.tasks)),
        ("measures", ", ".join(measures)),
        (
            "undefined",
            "a label's measure that is 0/0 takes the --zero-division value, and --undefined says whether a mean of "
            "per-label values (samples: per-instance values) takes it in; an average with nothing left to divide "
            "by is itself 0/0 and takes the --zero-division value",
        ),
        ("in_averages", _undefined_policies()),
        ("names", ", ".join(f"{name}.{m}" for m in measures) + f" ({f_key(1.0)}: F_β for β = 1)"),
    ]
    return registry.explanation(name, title=a.title, definition=a.definition, details=details, references=a.references)


def _everything(names: frozenset[str] | None, every: str) -> str:
    return every if names is None else ", ".join(sorted(names))


def _interval_method(registry: Registry, name: str, m: Any) -> Explanation:
    details: list[tuple[str, str]] = []
    if m.computation is not None or m.kind_computations:
        blocks = m.block_definition or "the same, with blocks (sentences) as the units"
        details.append(("blocks", blocks + (f" ({m.block_note})" if m.block_note else "")))
        details.append(("resampling", "yes: --resamples and --seed apply" if m.resampling else "no: it draws nothing"))
        if m.few_counts is not None:
            least, errors = m.few_counts
            details.append(
                (
                    "few_counts",
                    f"a warning when a label has fewer than {least} gold instances or predictions, or there are "
                    f"fewer than {errors} errors: below those, simulation found intervals of averages covering less "
                    f"than their level{m.coverage_note}",
                )
            )
        details.append(("kinds", _everything(m.kinds, "every kind of counts")))
        details.append(("measures", _everything(m.measures, "every score")))
        details.append(
            (
                "undefined",
                "an AUC without positives or without negatives (or DeLong's variance of one positive) has no interval; "
                "the result says why"
                if m.kinds is not None and m.kinds <= frozenset(m.kind_computations)
                else "a score that involves a 0/0 ratio gets an interval that holds the 0/0 value fixed (no resample "
                "can predict what the data never predicted)"
                if m.resampling
                else "a score that involves a 0/0 ratio has no derivative there, so no interval; the result says why "
                "(not estimable)",
            )
        )
        for kind, definition in m.kind_definitions.items():
            details.append(("family", f"{kind}: {definition}"))
    return registry.explanation(name, title=m.short, definition=m.definition, details=details, references=m.references)


def _test(registry: Registry, name: str, t: Any) -> Explanation:
    details = [
        (
            "scope",
            "its kind's counted quantity, and nothing else: accuracy (subset accuracy for label sets), span_errors "
            "for spans (span errors per sentence); A − B and the ranking are of that quantity"
            if t.quantity == "counted"
            else "the difference A − B of the metric asked, which the ranking orders by: "
            + t.scope
            + ("" if t.metrics is None else f" ({', '.join(sorted(t.metrics))})"),
        ),
        ("kinds", _everything(t.kinds, "every kind of counts")),
        ("blocks", f"does not run: {t.no_blocks}" if t.no_blocks else "runs on blocks (sentences) as the units"),
        ("random", "draws --rounds rounds (with --seed)" if t.random else "none: an exact test, it draws nothing"),
    ]
    if t.enumerates:
        details.append(("exact", "every arrangement is enumerated when there are at most --exact-limit of them"))
    if t.own_interval:
        details.append(("interval", "its draws give the interval of the difference"))
    if t.extreme:
        details.append(("extreme", "; ".join(f"{k}: {v}" for k, v in t.extreme.items())))
    details.append(
        (
            "undefined",
            "a draw whose score is 0/0 (NaN, with --zero-division nan) counts as at least as extreme, the "
            "conservative choice, and the result counts such draws; an undefined difference gets no p-value"
            if t.random
            else "it counts the units each system gets right: no ratio of counts can be 0/0",
        )
    )
    return registry.explanation(name, title=t.title, definition=t.definition, details=details, references=t.references)


def _docstring(kind: Any) -> str:
    """The first paragraph of a kind's docstring, without its Sphinx roles."""
    text = (type(kind).__doc__ or "").strip().split("\n\n", 1)[0]
    text = re.sub(r":\w+:`~?([\w.]+)`", lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return " ".join(text.replace("``", "").split())


def _kind(registry: Registry, name: str, k: Any) -> Explanation:
    details = [
        ("commands", ", ".join(sorted(k.tasks))),
        ("family", f"the measures and averages of {k.family} data" if k.family else "not scored as they are"),
        ("count_file", f'its count files have "kind": "{k.document}"' if k.document else "none"),
        ("label_sets", "an instance holds a set of labels" if k.label_sets else "no"),
    ]
    if k.option_names:
        details.append(("options", ", ".join(k.option_names)))
    return registry.explanation(name, title=k.title, definition=_docstring(k), details=details)


def _scheme(registry: Registry, name: str, s: Any) -> Explanation:
    details = [
        ("prefixes", "O, " + ", ".join(f"{p}-" for p in s.prefixes)),
        ("rules", "conlleval.pl's" if s.family == "conlleval" else "seqeval's strict mode"),
    ]
    if s.needs_before or s.needs_after:
        rules = [f"{k}-X after {'/'.join(v)}-X" for k, v in (s.needs_before or {}).items()]
        rules += [f"{k}-X before {'/'.join(v)}-X" for k, v in (s.needs_after or {}).items()]
        details.append(("well_formed", "; ".join(rules) + "; any other transition is counted as invalid"))
    return registry.explanation(name, title=name, definition=s.definition, details=details, references=s.references)


def _scored_measure(registry: Registry, name: str, m: Any) -> Explanation:
    """A measure of scored predictions (:data:`~clfeval.scoring.scoredmeasures.SCORED_MEASURES`)."""
    details = [
        ("tasks", "scored predictions: " + ", ".join(sorted(m.applies))),
        ("direction", "higher is better" if m.higher_is_better else "lower is better (a loss or calibration error)"),
        ("range", _range(m.low, m.high)),
        (
            "scope",
            "per class (per_label.<class>." + name + ") and averaged: " + ", ".join(m.averaged)
            if m.averaged
            else "overall: one value for the data set",
        ),
        ("family", "probabilities (--not-probabilities leaves it out)" if m.probabilities else "ranking: any score"),
    ]
    if m.convention:
        details.append(("options", m.convention))
    return registry.explanation(
        name, title=m.title, definition=m.definition, details=tuple(details), references=m.references
    )


def _group_test(registry: Registry, name: str, t: Any) -> Explanation:
    """A test between groups (:data:`~clfeval.infer.slicing.GROUP_TESTS`)."""
    if name == "none":
        return registry.explanation(name, title="", definition=t.definition)
    details = [
        ("scope", "the difference of a score between two independent groups, and between a group and the rest"
         + ("" if t.metrics is None else f" ({t.metrics} only)")),
        ("kinds", _everything(t.kinds, "every kind of counts")),
        ("random", "draws --rounds rounds (rounds=, with seed=)" if t.resampling else "none: it draws nothing"),
        ("undefined", "a difference that is undefined (a 0/0 score in a group) gets no p-value; draws with no value "
         "are left out of a resampling test's count"),
    ]  # fmt: skip
    return registry.explanation(name, title="", definition=t.definition, details=details)


def _fairness(registry: Registry, name: str, f: Any) -> Explanation:
    """A fairness summary (:data:`~clfeval.infer.slicing.FAIRNESS`)."""
    details = [
        ("measures", "reads each group's " + " and ".join(f.rates) + " of the positive class (RATES)"),
        ("scope", "max − min over the groups, the largest over the rates it reads"
         if f.combine == "difference" else "min / max over the groups, the smallest over the rates it reads"),
        ("tasks", "a binary problem of single labels with a positive class, scored by group"),
        ("names", f"fairness.{name}, with fairness.{name}_ci_low and _ci_high (group-stratified bootstrap)"),
    ]  # fmt: skip
    return registry.explanation(name, title="", definition=f.definition, details=details)


def _described(registry: Registry, name: str, entry: Any) -> Explanation:
    """An entry of a registry of one-line definitions (a renderer: its function and its definition)."""
    definition = entry if isinstance(entry, str) else entry[1]
    return registry.explanation(name, title="", definition=definition)


#: Every registry :func:`explain` reads, in the order ``clfeval explain`` lists them.
REGISTRIES: tuple[Registry, ...] = (
    Registry("MEASURES", "clfeval.scoring.measures", "the measures: every score of a report", "", _measure),
    Registry("AVERAGES", "clfeval.scoring.averages", "the averages of the per-label measures", "", _average),
    Registry("COUNT_NAMES", "clfeval.result", "the counts every result reports beside its scores", "", _described),
    Registry(
        "SCORED_MEASURES",
        "clfeval.scoring.scoredmeasures",
        "the measures of scored predictions: every score of a scored report",
        "--scores; every scored report lists them",
        _scored_measure,
    ),
    Registry(
        "SCORED_AVERAGES",
        "clfeval.scoring.scoredmeasures",
        "how a measure of scored predictions is averaged over the classes (macro.auc …)",
        "--scores; every scored report lists them",
        _described,
    ),
    Registry(
        "LABEL_SOURCES",
        "clfeval.scoring.labelset",
        "where the label set comes from",
        "--labels-from (given: --labels FILE); Scoring(labels_from=...)",
        _described,
    ),
    Registry(
        "UNDEFINED_POLICIES",
        "clfeval.scoring.ratios",
        "whether a label whose ratio is 0/0 takes part in averages",
        "--undefined; Scoring(undefined=...)",
        _described,
    ),
    Registry(
        "INTERVAL_METHODS", "clfeval.infer.methods", "confidence intervals", "--ci; ci=... or CI(...)", _interval_method
    ),
    Registry("TESTS", "clfeval.infer.pairtests", "paired tests of two systems", "compare --test; Test(...)", _test),
    Registry(
        "COUNTED_QUANTITIES",
        "clfeval.infer.pairtests",
        "what a counting test tests where it is not a score (the sign test on spans)",
        "compare --test sign (its default --metric)",
        _described,
    ),
    Registry(
        "ALTERNATIVES",
        "clfeval.infer.significance",
        "the alternative hypotheses of a paired test",
        "compare --alternative; Test(alternative=...)",
        _described,
    ),
    Registry(
        "DIFFERENCE_INTERVALS",
        "clfeval.infer.pairtests",
        "intervals of a difference between two systems",
        "compare --ci; Test(ci=...)",
        _described,
    ),
    Registry(
        "GROUP_TESTS",
        "clfeval.infer.slicing",
        "tests of a score's difference between groups",
        "--group-test; Slicing(test=...), or test= with groups=",
        _group_test,
    ),
    Registry(
        "FAIRNESS",
        "clfeval.infer.slicing",
        "fairness summaries of a binary problem scored by group (fairlearn's functions)",
        "",
        _fairness,
    ),
    Registry(
        "RATES", "clfeval.infer.slicing", "the positive class's rates by group that fairness reads", "", _described
    ),
    Registry(
        "SLICE_NAMES",
        "clfeval.infer.slicing",
        "the names of a result by group's numbers (flat() and r[name]): their first part",
        "",
        _described,
    ),
    Registry("KINDS", "clfeval.kinds", "the kinds of counted data (a result's task)", "", _kind),
    Registry(
        "DUPLICATE_POLICIES",
        "clfeval.count.labelsets",
        "multi-label data: a label listed twice",
        "--duplicates; MultiLabel(duplicates=...)",
        _described,
    ),
    Registry(
        "EMPTY_POLICIES",
        "clfeval.count.labelsets",
        "multi-label data: an empty label set",
        "--empty; MultiLabel(empty=...)",
        _described,
    ),
    Registry(
        "INVALID_POLICIES",
        "clfeval.count.invalid",
        "predictions that are not labels (an LLM's unparsable output, an empty cell, a label outside --labels)",
        "--invalid; invalid=... (score, compare, cv; Accumulator(invalid=...))",
        _described,
    ),
    Registry(
        "FORMATS",
        "clfeval.inputs.formats",
        "input formats",
        "--input-format (default: by extension); Reading(input_format=...)",
        _described,
    ),
    Registry(
        "BLOCKINGS",
        "clfeval.inputs.options",
        "blocks of dependent instances (sentences)",
        "--blocks; Reading(blocks=...)",
        _described,
    ),
    Registry(
        "MATRIX_ORIENTATIONS",
        "clfeval.inputs.matrix",
        "what the rows of a confusion-matrix file hold",
        "score --matrix FILE --matrix-rows; read_matrix(rows=...)",
        _described,
    ),
    Registry("ENGINES", "clfeval.inputs.engine", "who counts", "--engine; Reading(engine=...)", _described),
    Registry("RENDERERS", "clfeval.render", "output formats", "--format; Result.render(fmt)", _described),
    Registry("SCENARIOS", "clfeval.scoring.finagle", "finagle's three scorings", "the rows of finagle", _described),
    Registry(
        "SCHEMES", "clfeval.spans.schemes", "tagging schemes: how tags become spans", "--spans; spans=...", _scheme
    ),
    Registry(
        "MODES",
        "clfeval.spans.matching",
        "span matching modes (SemEval-2013, nervaluate)",
        "every span report lists them",
        _described,
    ),
    Registry(
        "AUC_AVERAGES",
        "clfeval.scoring.ranking",
        "multi-class ROC AUC averages",
        "--scores; every scored report lists them (macro.auc …)",
        _described,
    ),
    Registry(
        "BRIER_NORMALISATIONS",
        "clfeval.scoring.probability",
        "Brier score normalisations",
        "--brier; Conventions(brier=...)",
        _described,
    ),
    Registry(
        "BINNINGS",
        "clfeval.scoring.probability",
        "calibration bins",
        "--binning; Conventions(binning=...)",
        _described,
    ),
    Registry(
        "CALIBRATION_TARGETS",
        "clfeval.scoring.probability",
        "what calibration error compares",
        "binary: positive; multi-class: top-label and class-wise",
        _described,
    ),
    Registry(
        "TIE_RULES", "clfeval.scoring.probability", "top-k ties", "--top-k-ties; Conventions(ties=...)", _described
    ),
)


# -- looking names up ------------------------------------------------------------------------------------------------


def _aliases() -> dict[str, tuple[str, str]]:
    """Other names of registry entries, by name: the measures' aliases (subset_accuracy) → (registry, entry)."""
    from clfeval.scoring.measures import MEASURES

    return {alias: ("MEASURES", m.name) for m in MEASURES.values() for alias in m.aliases.values()}


def _f_name(name: str) -> bool:
    """Whether ``name`` is F_β's report name for some β (``f1``, ``f2``, ``f0.5``)."""
    from clfeval.scoring.ratios import f_key

    match = re.fullmatch(r"f(\d+(?:\.\d+)?)", name)
    return match is not None and float(match.group(1)) > 0 and f_key(float(match.group(1))) == name


def _lookup(name: str) -> list[Explanation]:
    """Every entry called ``name`` (or one of its other names), in registry order."""
    found = []
    aliases = _aliases()
    for registry in REGISTRIES:
        entries = registry.entries()
        key = name
        if key not in entries and registry.name == "MEASURES":
            key = "f" if _f_name(name) else aliases.get(name, (None, name))[1]
        if key in entries:
            e = registry.describe(registry, key, entries[key])
            found.append(e if key == name else replace(e, asked=name))
    return found


_MEASURE_REGISTRIES = ("MEASURES", "SCORED_MEASURES")


def _scored_name(name: str) -> list[Explanation]:
    """A scored report name that is no registry key itself: ``top_3_accuracy`` → ``top_k_accuracy``."""
    from clfeval.scoring.scoredmeasures import scored_measure_of

    measure = scored_measure_of(name)
    if measure is None or "." in name or measure.name == name:
        return []
    return [replace(e, asked=name) for e in _lookup(measure.name) if e.registry == "SCORED_MEASURES"]


def _dotted(name: str) -> list[Explanation]:
    """A score's report name: ``macro_fa.f1``, ``macro.auc`` → the average and the measure; ``per_label.B.recall``,
    ``per_label.B.auc`` → the measure."""
    head, _, rest = name.partition(".")
    if head == "per_label":
        parts = rest.split(".")
        for n in (1, 2):  # f0.5 holds a dot itself
            found = _lookup(".".join(parts[-n:])) if len(parts) > n else []
            if found:
                return [e for e in found if e.registry in _MEASURE_REGISTRIES]
        return []
    from clfeval.scoring.scoredmeasures import SCORED_MEASURES

    for averages, measures in (("AVERAGES", "MEASURES"), ("SCORED_AVERAGES", "SCORED_MEASURES")):
        average = [e for e in _lookup(head) if e.registry == averages]
        measure = [e for e in _lookup(rest) if e.registry == measures]
        if measures == "SCORED_MEASURES" and measure and head not in SCORED_MEASURES[measure[0].name].averaged:
            continue  # a scored measure under an average it is not reported under (macro.log_loss)
        if average and measure:
            return average + measure
    return []


def registry_names() -> dict[str, tuple[str, ...]]:
    """Every registry's names, by registry, in :data:`REGISTRIES` order."""
    return {r.name: tuple(r.entries()) for r in REGISTRIES}


def _known() -> list[str]:
    """Every name :func:`explain` knows, for the close matches of one it does not: the registries' names, the
    measures' other names and the scores' report names (``macro_fa.f1``)."""
    from clfeval.scoring.ratios import f_key
    from clfeval.scoring.scoredmeasures import SCORED_MEASURES

    names = {n for names in registry_names().values() for n in names} | set(_aliases()) | {f_key(1.0), f_key(2.0)}
    measures = [f_key(1.0) if m == "f" else m for m in _averaged()]
    scored = {f"{a}.{m.name}" for m in SCORED_MEASURES.values() for a in m.averaged}
    return sorted(names | {f"{a}.{m}" for a in registry_names()["AVERAGES"] for m in measures} | scored)


def _averaged() -> list[str]:
    """The measures the averages average (the ``averaged`` entries of :data:`MEASURES`), in report order."""
    from clfeval.scoring.measures import MEASURES

    return [m.name for m in MEASURES.values() if m.scope == "label" and m.averaged]


def explain(name: str) -> tuple[Explanation, ...]:
    """What ``name`` is: its entry in every registry that has it (``bootstrap`` is an interval method, a test and an
    interval of a difference), in :data:`REGISTRIES` order.

    ``name`` is an entry's name, one of its other names (``subset_accuracy``; ``f1``, ``f2`` for F_β), or a score's
    report name (``macro_fa.f1``: the average and the measure; ``per_label.B.recall``: the measure). Case does not
    matter.

    Raises
    ------
    OptionError
        For a name in no registry, listing the close matches.
    """
    query = name.strip()
    found = _found(query)
    if not found:  # a score's flat name: the cross-validation's summary before it, its interval's end after it
        core = _DECORATION.fullmatch(query)
        if core is not None and core.group("score") != query:
            found = [replace(e, asked=query) for e in _found(core.group("score"))]
    if found:
        return tuple(found)
    close = difflib.get_close_matches(query.lower(), _known(), n=6, cutoff=0.6)
    hint = f"; close matches: {', '.join(close)}" if close else ""
    raise OptionError(f"{name!r} is in no registry{hint} (clfeval explain lists every name)")


#: A score's flat name (``Result.flat``) around its report name: a cross-validation's ``pooled.``,
#: ``mean_of_folds.`` or ``sd.`` before it, an interval's ``_ci_low``, ``_ci_high`` (JSON: ``_ci``) after it.
_DECORATION = re.compile(r"(?:pooled\.|mean_of_folds\.|sd\.)?(?P<score>.+?)(?:_ci_low|_ci_high|_ci)?")


def _found(query: str) -> list[Explanation]:
    """The entries a name or a score's report name names (as given, then in lower case)."""
    found = _lookup(query) or _lookup(query.lower()) or _scored_name(query.lower())
    if not found and "." in query:
        found = _dotted(query) or _dotted(query.lower()) or _sliced(query)
    return found


def _sliced(query: str) -> list[Explanation]:
    """A flat name of a result by group (:data:`~clfeval.infer.slicing.SLICE_NAMES`): its first part's entry, then
    the entries of what it holds — ``by_group.es.macro.f1`` and ``gap.max.macro.f1`` the score's, ``fairness.<summary>``
    the summary's, ``fairness.<group>.tpr`` the rate's. A group's name may hold dots: the shortest that leaves a name
    explain knows is taken."""
    from clfeval.infer.slicing import FAIRNESS, RATES, SLICE_NAMES

    head, _, rest = query.partition(".")
    if head not in SLICE_NAMES or not rest:
        return []
    own = [e for e in _lookup(head) if e.registry == "SLICE_NAMES"]
    inner: list[Explanation] = []
    core = _DECORATION.fullmatch(rest)
    plain = rest if core is None else core.group("score")
    parts = plain.split(".")
    if head == "overall":
        inner = _found(plain)
    elif head == "fairness":
        name = plain if plain in FAIRNESS else parts[-1] if len(parts) > 1 and parts[-1] in RATES else ""
        inner = [e for e in _lookup(name) if e.registry in ("FAIRNESS", "RATES")] if name else []
    else:  # by_group.<group>.<score>, gap.<between>.<score> …: the group or pair's name, then the score's
        for i in range(1, len(parts)):
            inner = _found(".".join(parts[i:]))
            if inner:
                break
    return [replace(e, asked=query) for e in own + inner] if inner else []


def explain_all() -> tuple[Explanation, ...]:
    """Every entry of every registry, explained, in :data:`REGISTRIES` order."""
    return tuple(r.describe(r, name, entry) for r in REGISTRIES for name, entry in r.entries().items())


# -- text and JSON -----------------------------------------------------------------------------------------------


def render_explanations(explanations: Sequence[Explanation], width: int = WIDTH) -> str:
    """The entries as text, a blank line between them."""
    return "\n\n".join(e.text(width) for e in explanations) + "\n"


def render_listing(width: int = WIDTH) -> str:
    """Every registry and its names, as text: what ``clfeval explain`` with no name prints."""
    lines = textwrap.wrap(
        "clfeval explain NAME says what a name means: its definition (the formula, for measures and averages), its "
        "0/0 rule, what it applies to and its references. The names, by registry:",
        width,
    )
    aliases = _aliases()
    for r in REGISTRIES:
        names = []
        for n in r.entries():
            other = [a for a, (reg, entry) in aliases.items() if reg == r.name and entry == n]
            if r.name == "MEASURES" and n == "f":
                other = ["f1", "f2", "…"]
            names.append(n + (f" ({', '.join(other)})" if other else ""))
        lines += ["", *textwrap.wrap(f"{r.name} ({r.home}): {r.about}", width)]
        lines += textwrap.wrap(
            ", ".join(names), width, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False
        )  # a name is never cut at its hyphen (weighted-single-label)
    return "\n".join(lines) + "\n"


def _version() -> str:
    from clfeval._version import __version__

    return __version__


def explanations_to_dict(query: str, explanations: Sequence[Explanation]) -> dict[str, Any]:
    """The ``clfeval.explain/1`` JSON object of ``query``'s entries."""
    return {
        "schema": EXPLAIN_SCHEMA,
        "clfeval_version": _version(),
        "query": query,
        "entries": [e.to_dict() for e in explanations],
    }


def listing_to_dict() -> dict[str, Any]:
    """The ``clfeval.explain/1`` JSON object of every registry and its names (``query`` null)."""
    return {
        "schema": EXPLAIN_SCHEMA,
        "clfeval_version": _version(),
        "query": None,
        "registries": [
            {"registry": r.name, "home": r.home, "about": r.about, "chosen_by": r.chosen_by, "names": list(r.entries())}
            for r in REGISTRIES
        ],
    }


def to_json(document: Mapping[str, Any]) -> str:
    """A JSON object as the text ``--format json`` writes (lists of names on one line)."""
    from clfeval.result import json_text

    return json_text(dict(document)) + "\n"
