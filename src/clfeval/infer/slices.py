"""Scores by group (slices): every score per group with its interval, the gaps between groups as statistics with
their own intervals, tests between groups with Holm's adjustment, and fairness summaries by name.

Every group is scored over the label set of the whole data (a label absent from a group is still in its averages,
as the label set says), by the same path as the whole data (:func:`clfeval.scoring.computation.score_counts`,
:func:`clfeval.infer.intervals.with_intervals`); what is new here reads the groups side by side
(:mod:`clfeval.infer.slicing`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from clfeval.count.blocks import Blocks, concatenated
from clfeval.errors import InputError, OptionError, UnknownName
from clfeval.infer.delta import block_delta_variances
from clfeval.infer.intervals import block_units, delta_variances_of, few_counts, with_intervals
from clfeval.infer.methods import CI, INTERVAL_METHODS
from clfeval.infer.multiplicity import holm
from clfeval.infer.slicing import (
    FAIRNESS,
    GROUP_TESTS,
    RATES,
    GroupSample,
    Slicing,
    batch_size,
    bootstrap_p,
    new_seed,
    percentile,
    permutation_p,
    range_interval,
    rates_of,
    ratio,
    spawned,
    summary_of,
    total_of,
    wald_difference,
    wald_p,
    wald_ratio,
)
from clfeval.kinds import KINDS, Kind
from clfeval.progress import phase
from clfeval.result import TEXT_FORMATS, FrozenDict, Result, flat_name, flat_number, json_number
from clfeval.scoring import computation
from clfeval.scoring.options import Scoring
from clfeval.scoring.scores import Key, Scores

__all__ = ["SLICES_SCHEMA", "GroupGap", "GroupTest", "Part", "Sliced", "sliced"]

#: What reads the positive class's rates (:data:`RATES`) from sums (size, D): rate → (size,).
Rated = Callable[[np.ndarray], dict[str, np.ndarray]]

#: How the largest gap's interval (and each fairness summary's) is computed, in words.
RANGE_METHOD = (
    "simultaneous group-stratified bootstrap intervals of every pairwise difference (max-|t| over the pairs), the "
    "largest gap's bounds read from them: [max over pairs of the distance of 0 to the pair's interval, max over pairs "
    "of its farthest end]; min / max likewise on the log scale (coverage at least the level when every pair's "
    "interval covers)"
)
#: The note that names the seeds of a result by group.
SEEDS_NOTE = (
    "seeds: one base seed, spawned (numpy SeedSequence) into one per group's intervals, one for the gaps' bootstrap "
    "and one for the test: base {base}"
)
#: The JSON contract of a result by group.
SLICES_SCHEMA = "clfeval.slices/1"


@dataclass(frozen=True)
class Part:
    """One group's counts as read: the counts, their blocks (sentences, or blocks given), what an invalid-prediction
    policy found."""

    counts: Any
    blocks: Blocks | None = None
    invalid: Any = None


@dataclass(frozen=True)
class GroupGap:
    """A gap between groups in one score, a statistic in its own right.

    Attributes
    ----------
    metric
        The score's report name.
    between
        ``pair`` (group a against group b), ``rest`` (group a against every other group together) or ``max`` (the
        largest gap: a the group with the highest value, b the lowest).
    a, b
        The groups (``rest`` for the rest).
    value_a, value_b
        Their values.
    difference, ratio
        a − b and a / b (for ``max``, max − min and min / max, as fairlearn's ``difference()`` and ``ratio()``).
    difference_ci, ratio_ci
        Their intervals (``None`` without ``ci=``, or where undefined).
    method
        How the intervals were computed.
    """

    metric: str
    between: str
    a: str
    b: str
    value_a: float
    value_b: float
    difference: float
    ratio: float
    difference_ci: tuple[float, float] | None
    ratio_ci: tuple[float, float] | None
    method: str | None

    def to_dict(self) -> dict[str, Any]:
        """The gap as a JSON object."""
        return {
            "metric": self.metric,
            "between": self.between,
            "a": self.a,
            "b": self.b,
            "value_a": json_number(self.value_a),
            "value_b": json_number(self.value_b),
            "difference": json_number(self.difference),
            "difference_ci": _pair(self.difference_ci),
            "ratio": json_number(self.ratio),
            "ratio_ci": _pair(self.ratio_ci),
            "method": self.method,
        }

    @property
    def name(self) -> str:
        """The gap's flat name part: ``max``, ``<a>_vs_<b>`` or ``<a>_vs_rest``."""
        return "max" if self.between == "max" else f"{self.a}_vs_{self.b}"


@dataclass(frozen=True)
class GroupTest:
    """A test of one score's difference between two independent groups (``b`` is ``rest`` for a group against the
    rest), its p-value and Holm's adjustment over the family of its kind (every pair, or every group against the
    rest) for that score."""

    metric: str
    between: str
    a: str
    b: str
    difference: float
    p_value: float
    p_holm: float
    test: str

    def to_dict(self) -> dict[str, Any]:
        """The test as a JSON object."""
        return {
            "metric": self.metric,
            "between": self.between,
            "a": self.a,
            "b": self.b,
            "difference": json_number(self.difference),
            "p_value": json_number(self.p_value),
            "p_holm": json_number(self.p_holm),
            "test": self.test,
        }


def _pair(bounds: tuple[float, float] | None) -> list[float | None] | None:
    return None if bounds is None else [json_number(bounds[0]), json_number(bounds[1])]


@dataclass(frozen=True, eq=False, repr=False)
class Sliced(Result):
    """Scores by group: the whole data's result, each group's, the gaps and tests between groups, and fairness
    summaries (a binary problem of labels).

    ``r["by_group.es.macro.f1"]``, ``r["gap.max.macro.f1"]``, ``r["overall.macro.f1"]`` (or bare ``macro.f1``) read
    one number by its :meth:`flat` name; ``r.by_group["es"]`` is the group's own result (a
    :class:`~clfeval.scoring.scores.Scores`, or :class:`~clfeval.scoring.scored.Scored` for scored predictions);
    :meth:`difference`, :meth:`ratio`, :meth:`group_min`, :meth:`group_max` answer as fairlearn's ``MetricFrame``.
    The JSON contract is ``clfeval.slices/1`` (docs/json.md).
    """

    kind: ClassVar[str] = "slices"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.slices:slices_report"
    frames_builder: ClassVar[str] = "clfeval.report.frames:slices_frames"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:slices_figures"

    columns: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]
    overall: Any
    by_group: FrozenDict[str, Any]
    metrics: tuple[str, ...]
    gaps: tuple[GroupGap, ...]
    tests: tuple[GroupTest, ...]
    fairness: FrozenDict[str, Any] | None
    gap_method: FrozenDict[str, Any]
    test_method: FrozenDict[str, Any]
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    units: FrozenDict[str, tuple[str, int]] = field(default_factory=FrozenDict)  # blocks resampled: (unit, number)

    @property
    def task(self) -> str:
        """The kind of data (``single-label``, ``spans``, ``scored`` …)."""
        return str(self.overall.task)

    @property
    def n_instances(self) -> int:
        """The instances of the whole data."""
        return int(self.overall.n_instances)

    def sizes(self) -> dict[str, int]:
        """Each group's number of instances."""
        return {name: int(r.n_instances) for name, r in self.by_group.items()}

    def value(self, group: str, metric: str) -> float:
        """One group's value of ``metric`` (``overall`` for the whole data)."""
        result = self.overall if group == "overall" else self.by_group.get(group)
        if result is None:
            raise UnknownName(f"unknown group {group!r}; the groups are {', '.join(map(repr, self.names))}")
        return float(result[metric])

    def interval_of(self, group: str, metric: str) -> tuple[float, float] | None:
        """The interval of one group's ``metric`` (``overall`` for the whole data); ``None`` without intervals or
        where the score has none (its result says why)."""
        result = self.overall if group == "overall" else self.by_group.get(group)
        if result is None:
            raise UnknownName(f"unknown group {group!r}; the groups are {', '.join(map(repr, self.names))}")
        try:
            bounds = result.interval(metric)
        except UnknownName:
            raise
        except OptionError:  # no intervals were asked for, or this score has none
            return None
        return None if bounds is None else (float(bounds[0]), float(bounds[1]))

    def _values(self, metric: str) -> dict[str, float]:
        return {name: self.value(name, metric) for name in self.names}

    def group_max(self, metric: str) -> float:
        """The largest group value of ``metric`` (fairlearn's ``MetricFrame.group_max()``)."""
        return float(np.nanmax(list(self._values(metric).values())))

    def group_min(self, metric: str) -> float:
        """The smallest group value of ``metric`` (fairlearn's ``MetricFrame.group_min()``)."""
        return float(np.nanmin(list(self._values(metric).values())))

    def difference(self, metric: str, method: str = "between_groups") -> float:
        """fairlearn's ``MetricFrame.difference()``: max − min over groups (``between_groups``), or the largest
        |group − overall| (``to_overall``)."""
        if method == "between_groups":
            return self.group_max(metric) - self.group_min(metric)
        if method == "to_overall":
            whole = float(self.overall[metric])
            return float(np.nanmax([abs(v - whole) for v in self._values(metric).values()]))
        raise OptionError(f"method is 'between_groups' or 'to_overall', not {method!r}")

    def ratio(self, metric: str, method: str = "between_groups") -> float:
        """fairlearn's ``MetricFrame.ratio()``: min / max over groups (``between_groups``), or the smallest of
        group / overall and overall / group (``to_overall``)."""
        if method == "between_groups":
            return ratio(self.group_min(metric), self.group_max(metric))
        if method == "to_overall":
            whole = float(self.overall[metric])
            found = [min(ratio(v, whole), ratio(whole, v)) for v in self._values(metric).values()]
            return float(np.nanmin(found))
        raise OptionError(f"method is 'between_groups' or 'to_overall', not {method!r}")

    def gap(self, metric: str, a: str | None = None, b: str | None = None) -> GroupGap:
        """The gap of ``metric``: the largest (no groups), group ``a`` against the rest (``a`` alone, or ``b`` =
        ``rest``), or group ``a`` against ``b``."""
        between = "max" if a is None else "rest" if b in (None, "rest") else "pair"
        for gap in self.gaps:
            if gap.metric == metric and gap.between == between:
                if between == "max" or (gap.a, gap.b) == (a, b if b is not None else "rest"):
                    return gap
                if between == "pair" and (gap.a, gap.b) == (b, a):
                    return _swapped(gap)
        shown = ", ".join(dict.fromkeys(g.metric for g in self.gaps)) or "none"
        raise UnknownName(f"no gap of {metric!r} between {a or 'the groups'} and {b or 'rest'} (metrics: {shown})")

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        out: dict[str, float] = {"n_instances": float(self.n_instances), "n_groups": float(len(self.names))}
        for name, value in self.overall.flat(sep, per_label=per_label).items():
            out[flat_name(["overall", name], sep)] = value
        for group, result in self.by_group.items():
            for name, value in result.flat(sep, per_label=per_label).items():
                out[flat_name(["by_group", group, name], sep)] = value
        for gap in self.gaps:
            for what, value, bounds in (
                ("gap", gap.difference, gap.difference_ci),
                ("ratio", gap.ratio, gap.ratio_ci),
            ):
                key = flat_name([what, gap.name, *gap.metric.split(".")], sep)
                out[key] = value
                if bounds is not None:
                    out[f"{key}_ci_low"], out[f"{key}_ci_high"] = bounds
        for test in self.tests:
            key = flat_name(["p", f"{test.a}_vs_{test.b}", *test.metric.split(".")], sep)
            out[key] = test.p_value
            out[flat_name(["p_holm", f"{test.a}_vs_{test.b}", *test.metric.split(".")], sep)] = test.p_holm
        if self.fairness is not None:
            for name, entry in self.fairness["summaries"].items():
                key = flat_name(["fairness", name], sep)
                out[key] = entry["value"]
                if entry["ci"] is not None:
                    out[f"{key}_ci_low"], out[f"{key}_ci_high"] = entry["ci"]
            for group, rates in self.fairness["by_group"].items():
                for rate, value in rates.items():
                    out[flat_name(["fairness", group, rate], sep)] = value
        return out

    def names_of(self) -> list[str]:
        """Every name ``r[name]`` answers (its :meth:`flat` names joined by dots, and the whole data's bare)."""
        flat = self.flat(".", per_label=True)
        return [*(n[len("overall.") :] for n in flat if n.startswith("overall.")), *flat]

    def __getitem__(self, name: str) -> float:
        return flat_number(self.flat(".", per_label=True), name, "overall")

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.names_of())

    def interval(self, name: str) -> tuple[float, float] | None:
        """The interval of the number named ``name`` (a group's score, a gap, a fairness summary)."""
        flat = self.flat(".", per_label=True)
        key = name if name in flat else f"overall.{name}"
        if key not in flat:
            self[name]  # the unknown name's error
        if f"{key}_ci_low" in flat:
            return flat[f"{key}_ci_low"], flat[f"{key}_ci_high"]
        return None

    def signature_parts(self) -> list[tuple[str, str]]:
        parts = list(self.overall.signature_parts())
        parts.append(("groups", f"{'+'.join(self.columns)}({len(self.names)})"))
        test = self.test_method
        if test["name"] != "none":
            rounds = f",n={test['rounds']}" if test.get("rounds") else ""
            parts.append(("group_test", f"{test['name']}{rounds},seed={test.get('seed')},holm"))
        return parts

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        from clfeval._version import __version__

        return {
            "schema": SLICES_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "task": self.task,
            "n_instances": self.n_instances,
            "group_columns": list(self.columns),
            "groups": [
                {
                    "name": name,
                    "values": dict(zip(self.columns, values)),
                    "n_instances": int(r.n_instances),
                    **({"unit": self.units[name][0], "n_units": self.units[name][1]} if name in self.units else {}),
                }
                for name, values, r in zip(self.names, self.values, self.by_group.values())
            ],
            "metrics": list(self.metrics),
            "overall": self.overall.to_dict(matrix=matrix),
            "by_group": {name: r.to_dict(matrix=matrix) for name, r in self.by_group.items()},
            "gaps": [g.to_dict() for g in self.gaps],
            "gap_method": dict(self.gap_method),
            "tests": [t.to_dict() for t in self.tests],
            "test_method": dict(self.test_method),
            "fairness": None if self.fairness is None else _json_fairness(self.fairness),
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def _json_fairness(fairness: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "positive": fairness["positive"],
        "rates": dict(RATES),
        "by_group": {
            g: {rate: json_number(v) for rate, v in rates.items()} for g, rates in fairness["by_group"].items()
        },
        "summaries": {
            name: {
                "value": json_number(entry["value"]),
                "ci": _pair(entry["ci"]),
                "definition": FAIRNESS[name].definition,
            }
            for name, entry in fairness["summaries"].items()
        },
    }


def _swapped(gap: GroupGap) -> GroupGap:
    """The gap of b against a."""
    return replace(
        gap,
        a=gap.b,
        b=gap.a,
        value_a=gap.value_b,
        value_b=gap.value_a,
        difference=-gap.difference,
        ratio=ratio(gap.value_b, gap.value_a),
        difference_ci=None if gap.difference_ci is None else (-gap.difference_ci[1], -gap.difference_ci[0]),
        ratio_ci=None if gap.ratio_ci is None else (_inverse(gap.ratio_ci[1]), _inverse(gap.ratio_ci[0])),
    )


def _inverse(bound: float) -> float:
    """1 / ``bound`` of a ratio's interval bound (ratios are ≥ 0): ∞ for 0, as the bound of b / a where a / b reached
    0."""
    return math.inf if bound == 0 else 1 / bound


def default_metrics(overall: Any) -> tuple[str, ...]:
    """The scores whose gaps are reported when none are named: the kind's headline average of F_β (the positive
    class's F_β for a binary problem with a positive class) and accuracy where the kind has it."""
    kind = KINDS[overall.task]
    f = "f1" if overall.beta == 1 else f"f{overall.beta:g}"
    if getattr(overall, "positive", None) is not None:
        return (f, "macro." + f, "accuracy")
    headline = f"{kind.headline}.{f}"
    return (headline, "accuracy") if "accuracy" in overall.overall else (headline,)


def pinned_scoring(scoring: Scoring, overall: Scores) -> Scoring:
    """The scoring of every group: the whole data's label set, in its order, and every other choice as given.

    A declared ordinal order (``ordinal=[...]``) already is the label set, in the user's own values, which the
    whole data's label names (strings) would contradict: it is kept as it is."""
    if not isinstance(scoring.ordinal, bool):
        return scoring
    return replace(scoring, labels=tuple(overall.labels), labels_from=None)


@dataclass
class GroupStatistic:
    """One group's statistic of the gap metrics, its units, and its observed sums."""

    name: str
    counts: Any
    blocks: Blocks | None
    f: Any
    sample: GroupSample
    sums: np.ndarray


def _groups(
    kind: Kind, f_all: Any, keys: Sequence[Key], names: Sequence[str], parts: Sequence[Part]
) -> list[GroupStatistic]:
    out = []
    for name, part in zip(names, parts):
        rows, weights = kind.rows(part.counts)
        f = f_all.on_rows(kind, rows, weights, keys=keys)
        units = block_units(f, part.counts, part.blocks) if part.blocks is not None else None
        sample = GroupSample.of(f, units)
        out.append(GroupStatistic(name, part.counts, part.blocks, f, sample, sample.observed()))
    return out


def _rests(kind: Kind, parts: Sequence[Part]) -> list[Part]:
    """Each group's rest (every other group's counts added, and their blocks one after the other), by prefix and
    suffix sums: O(groups) additions."""
    n = len(parts)

    def joined(a: Part | None, b: Part | None) -> Part | None:
        if a is None:
            return b
        if b is None:
            return a
        blocks = None if a.blocks is None or b.blocks is None else concatenated(a.blocks, b.blocks)
        return Part(kind.merge(a.counts, b.counts), blocks)

    prefix: list[Part | None] = [None]
    for p in parts:
        prefix.append(joined(prefix[-1], p))
    suffix: list[Part | None] = [None]
    for p in reversed(parts):
        suffix.append(joined(p, suffix[-1]))
    suffix.reverse()
    rests = [joined(prefix[i], suffix[i + 1]) for i in range(n)]
    return [r for r in rests if r is not None]


def _variances(kind: Kind, f_all: Any, keys: Sequence[Key], part: Part) -> np.ndarray:
    """The delta method's variance of the gap metrics of one sample (a group, or a rest)."""
    rows, weights = kind.rows(part.counts)
    f = f_all.on_rows(kind, rows, weights, keys=keys)
    if part.blocks is not None:
        return block_delta_variances(f, block_units(f, part.counts, part.blocks))
    return delta_variances_of(f)


def checked_groups(
    names: Sequence[str], test: str, task: str, slicing: Slicing, interval: CI | None, *, stratified: bool = False
) -> tuple[int, list[int]]:
    """Refuse one group, a test not for the kind (``task``: the kind's name, ``scored`` for scored predictions), or
    strata (``stratified``) with a test other than the permutation; the base seed (the slicing's, else the
    interval's, else drawn) and the seeds spawned from it: one per group's intervals, then the gaps' bootstrap's,
    then the test's."""
    if len(names) < 2:
        raise OptionError(
            f"one group only ({names[0]!r}): slices compare groups, so give at least two (or score without groups=)"
        )
    seen: dict[str, tuple[str, str]] = {}
    for a, b in [*itertools.combinations(sorted(names), 2), *((g, "rest") for g in names)]:
        # a gap's flat name (gap/<a>_vs_<b>, p/<a>_vs_rest) must name one gap: a group called "rest", or names holding
        # "_vs_", would let a pair and a group against the rest overwrite each other in flat() and r[name]
        key = f"{a}_vs_{b}"
        if key in seen:
            raise InputError(
                f"groups {seen[key][0]!r} against {seen[key][1]!r} and {a!r} against {b!r} would both be named "
                f"{key!r} in the gaps and tests: rename the group "
                f"{'rest' if 'rest' in names else next(g for g in (a, b, *seen[key]) if '_vs_' in g)!r}"
            )
        seen[key] = (a, b)
    if stratified and test != "permutation":
        raise OptionError(
            f"strata= says within which strata group membership is permuted: the permutation test reads it, not "
            f"the {test} test (test='permutation')"
        )
    spec = GROUP_TESTS[test]
    if spec.kinds is not None and task not in spec.kinds:
        raise OptionError(
            f"the {test} test between groups is for {', '.join(sorted(spec.kinds))}, not {task}: choose "
            f"{', '.join(t for t, m in GROUP_TESTS.items() if m.kinds is None or task in m.kinds)}"
        )
    base = slicing.seed if slicing.seed is not None else (interval.seed if interval and interval.seed is not None
                                                         else new_seed())  # fmt: skip
    return base, spawned(base, len(names) + 2)


def sliced(
    overall: Scores,
    columns: Sequence[str],
    names: Sequence[str],
    values: Sequence[tuple[str, ...]],
    parts: Sequence[Part],
    scoring: Scoring,
    provenance: Mapping[str, Any],
    interval: CI | None,
    slicing: Slicing,
    *,
    overall_blocks: Blocks | None = None,
    strata: Sequence[Sequence[Part | None]] | None = None,
    strata_columns: Sequence[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> Sliced:
    """Scores by group of counts of any kind with a score function (labels, label sets, spans, with weights).

    Parameters
    ----------
    overall
        The whole data's result (with its intervals, when asked for).
    columns, names, values
        The group columns, each group's name and its values.
    parts
        Each group's counts (:class:`Part`), in the order of ``names``.
    scoring, provenance
        The scoring the whole data was scored with (its label set is pinned for every group) and what each group's
        result records of its inputs.
    interval
        Every group's interval (the CI group); its seed, or the slicing's, seeds every draw through numpy's
        ``SeedSequence.spawn``: one seed per group's intervals, one for the gaps' bootstrap, one for the tests.
    slicing
        The metrics whose gaps and tests are reported, the test, its rounds and seed (:class:`Slicing`).
    overall_blocks
        The whole data's blocks (the pool a group against the rest is permuted in), when there are blocks.
    strata, strata_columns
        Each group's counts in each stratum (``None`` where it has none; strata in one order for every group), and
        the strata's columns: the permutation test then permutes group membership within each stratum.
    """
    kind = KINDS[overall.task]
    test = slicing.test_for(scored=False)
    base, seeds = checked_groups(names, test, overall.task, slicing, interval, stratified=strata is not None)
    pinned = pinned_scoring(scoring, overall)
    by_group: dict[str, Scores] = {}
    warnings: list[str] = []
    for name, part, seed in zip(names, parts, seeds):
        result = computation.score_counts(part.counts, pinned, **provenance, invalid=part.invalid)
        if interval is not None:
            result = with_intervals(result, replace(interval, seed=seed), progress=None, blocks=part.blocks)
            few = few_counts(result, interval.method) if INTERVAL_METHODS[interval.method].few_counts else None
            if few is not None:
                warnings.append(f"group {name!r}: {few}")
        absent = [lab for lab in overall.labels if result.per_label[lab].support == 0]
        if absent and len(absent) < len(overall.labels):
            shown = ", ".join(map(repr, absent[:5])) + (" …" if len(absent) > 5 else "")
            warnings.append(
                f"group {name!r} has no gold instance of {shown}: its averages still take every label of the label "
                "set of the whole data (a per-label score of such a label is its 0/0 value)"
            )
        by_group[name] = result
    metrics = slicing.metrics if slicing.metrics is not None else default_metrics(overall)
    keys = [overall.key_of(m) for m in metrics]
    f_all = overall.statistic()
    reader = f_all.on(f_all.cells, f_all.weights, keys=keys)
    groups = _groups(kind, f_all, keys, names, parts)
    total = total_of([g.sample for g in groups])
    point = np.stack([reader.from_sums(g.sums[None, :])[0] for g in groups])  # (G, M)
    rest_point = np.stack([reader.from_sums((total - g.sums)[None, :])[0] for g in groups])
    rated = _label_rates(reader, _positive_index(overall))
    confidence = interval.confidence if interval is not None else None
    resampling = interval is not None and INTERVAL_METHODS[interval.method].resampling
    need_bootstrap = interval is not None or test == "bootstrap"
    rounds = interval.resamples if interval is not None else slicing.rounds
    boot = rest = rates = None
    if need_bootstrap:
        boot, rest, rates = stratified_draws(groups, total, reader, rated, rounds, np.random.default_rng(seeds[-2]),
                                        phase(progress, "group-stratified bootstrap"))  # fmt: skip
    variances = rest_variances = None
    if (interval is not None and not resampling) or test == "delta":
        variances = np.stack([_variances(kind, f_all, keys, p) for p in parts])
        rest_variances = np.stack([_variances(kind, f_all, keys, p) for p in _rests(kind, parts)])
    gaps = gaps_of(metrics, names, point, rest_point, boot, rest, variances, rest_variances, confidence, resampling)
    draws = None
    if test == "permutation":
        overall_sample = _overall_sample(kind, f_all, keys, overall, overall_blocks)
        cells = None
        if strata is not None:
            cells = [[None if c is None else _sample(kind, f_all, keys, c) for c in row] for row in strata]
        draws = permuted_draws(groups, overall_sample, total, reader, slicing.rounds, np.random.default_rng(seeds[-1]),
                          phase(progress, "permutation of groups"), cells)  # fmt: skip
    tests = tests_of(metrics, names, point, rest_point, test, boot, rest, variances, rest_variances, draws)
    fairness = fairness_of(getattr(overall, "positive", None), names, groups, rated, rates, confidence)
    warnings.extend(undefined_rates(fairness))
    gap_method = gap_method_of(interval, resampling, rounds, seeds[-2])
    test_method = test_method_of(test, slicing, rounds, seeds, base, strata, strata_columns)
    notes = [
        f"every group is scored over the label set of the whole data ({len(overall.labels)} labels)",
        SEEDS_NOTE.format(base=base),
    ]
    units = {name: (p.blocks.unit, p.blocks.n_blocks) for name, p in zip(names, parts) if p.blocks is not None}
    return Sliced(
        columns=tuple(columns),
        names=tuple(names),
        values=tuple(tuple(v) for v in values),
        overall=overall,
        by_group=FrozenDict(by_group),
        metrics=tuple(metrics),
        gaps=tuple(gaps),
        tests=tuple(tests),
        fairness=fairness,
        gap_method=FrozenDict(gap_method),
        test_method=FrozenDict(test_method),
        warnings=tuple(dict.fromkeys(warnings)),
        notes=tuple(notes),
        units=FrozenDict(units),
    )


def _positive_index(overall: Any) -> int | None:
    """The positive class's column in the tallies, for a binary problem of single labels with one; else ``None``."""
    positive = getattr(overall, "positive", None)
    if positive is None or getattr(overall, "family", None) != "single-label" or len(overall.labels) != 2:
        return None
    return list(overall.labels).index(positive)


def stratified_draws(
    groups: Sequence[GroupStatistic],
    total: np.ndarray,
    reader: Any,
    rated: Rated | None,
    rounds: int,
    rng: np.random.Generator,
    progress: Callable[[int, int], None] | None,
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray] | None]:
    """The group-stratified bootstrap: every group's units redrawn in its own size, ``rounds`` times; each group's
    gap metrics (G, R, M), its rest's (G, R, M) — the other groups' draws added, so the rest is stratified too — and
    the positive class's rates by group (rate → (G, R)) when ``rated`` reads them from sums.

    ``reader.from_sums`` reads the gap metrics from sums (size, D) of the units' weights (``GroupSample.to_sums``);
    ``reader.keys`` names them."""
    g_count, m = len(groups), len(reader.keys)
    boot = np.empty((g_count, rounds, m))
    rest = np.empty((g_count, rounds, m))
    rates = {r: np.empty((g_count, rounds)) for r in RATES} if rated is not None else None
    batch = batch_size(rounds, len(total), g_count)
    for start in range(0, rounds, batch):
        size = min(batch, rounds - start)
        drawn = [g.sample.bootstrap(size, rng) for g in groups]
        together = np.sum(drawn, axis=0)
        for i, sums in enumerate(drawn):
            boot[i, start : start + size] = reader.from_sums(sums)
            rest[i, start : start + size] = reader.from_sums(together - sums)
            if rates is not None:
                assert rated is not None
                for rate, x in rated(sums).items():
                    rates[rate][i, start : start + size] = x
        if progress is not None:
            progress(start + size, rounds)
    return boot, rest, rates


def _sample(kind: Kind, f_all: Any, keys: Sequence[Key], part: Part) -> GroupSample:
    """The units of one group's counts in one stratum."""
    rows, weights = kind.rows(part.counts)
    f = f_all.on_rows(kind, rows, weights, keys=keys)
    return GroupSample.of(f, block_units(f, part.counts, part.blocks) if part.blocks is not None else None)


def _overall_sample(kind: Kind, f_all: Any, keys: Sequence[Key], overall: Scores, blocks: Blocks | None) -> GroupSample:
    """The whole data's units: the pool a group and its rest are dealt from."""
    rows, weights = kind.rows(overall.counts)
    f = f_all.on_rows(kind, rows, weights, keys=keys)
    return GroupSample.of(f, block_units(f, overall.counts, blocks) if blocks is not None else None)


def _deals(
    groups: Sequence[GroupStatistic],
    a: int,
    b: int,
    pool: GroupSample,
    strata: Sequence[Sequence[GroupSample | None]] | None,
) -> tuple[list[tuple[GroupSample, int]], np.ndarray]:
    """What one permutation deals, (pool, units of group a) per stratum, and the sums that stay a's; b = −1 for the
    rest of a. Without strata, one pool: the two groups' units (the whole data's, for the rest). With strata,
    membership is permuted within each stratum: a stratum's pool is a's and b's units in it (every group's, for the
    rest), a's share its own units there; in a stratum where the other side has no unit, a keeps its own."""
    first = groups[a]
    if strata is None:
        pooled = first.sample.pooled(groups[b].sample) if b >= 0 else pool
        return [(pooled, first.sample.n)], np.zeros_like(first.sums)
    deals = []
    kept = np.zeros_like(first.sums)
    for s, mine in enumerate(strata[a]):
        if mine is None:
            continue
        others = [strata[b][s]] if b >= 0 else [strata[g][s] for g in range(len(groups)) if g != a]
        present = [o for o in others if o is not None]
        if not present:
            kept = kept + mine.observed()
            continue
        both = mine
        for other in present:
            both = both.pooled(other)
        deals.append((both, mine.n))
    return deals, kept


def permuted_draws(
    groups: Sequence[GroupStatistic],
    pool: GroupSample,
    total: np.ndarray,
    reader: Any,
    rounds: int,
    rng: np.random.Generator,
    progress: Callable[[int, int], None] | None,
    strata: Sequence[Sequence[GroupSample | None]] | None = None,
) -> dict[tuple[int, int], np.ndarray]:
    """The permutation distributions of the difference of every gap metric: for each pair (a, b) of groups, and
    each group against the rest ((a, −1)), (R, M) differences of a random split of the pool in the groups' sizes
    (within each stratum, with ``strata``: each group's units per stratum, ``None`` where it has none)."""
    g_count = len(groups)
    pairs = [(a, b) for a in range(g_count) for b in range(a + 1, g_count)]
    pairs += [(a, -1) for a in range(g_count)] if g_count > 2 else []  # two groups: a rest is the other group
    out: dict[tuple[int, int], np.ndarray] = {}
    batch = batch_size(rounds, len(total), 2)
    for done, (a, b) in enumerate(pairs):
        together = groups[a].sums + groups[b].sums if b >= 0 else total
        deals, kept = _deals(groups, a, b, pool, strata)
        draws = np.empty((rounds, len(reader.keys)))
        for start in range(0, rounds, batch):
            size = min(batch, rounds - start)
            sums = np.tile(kept, (size, 1))
            for both, n_first in deals:
                sums += both.dealt(n_first, size, rng)
            draws[start : start + size] = reader.from_sums(sums) - reader.from_sums(together - sums)
        out[(a, b)] = draws
        if progress is not None:
            progress(done + 1, len(pairs))
    return out


def gaps_of(
    metrics: Sequence[str],
    names: Sequence[str],
    point: np.ndarray,
    rest_point: np.ndarray,
    boot: np.ndarray | None,
    rest: np.ndarray | None,
    variances: np.ndarray | None,
    rest_variances: np.ndarray | None,
    confidence: float | None,
    resampling: bool,
    analytic: str = "delta method, groups independent (Wald; the ratio on the log scale)",
) -> list[GroupGap]:
    """Every gap of every metric: each pair, each group against the rest, and the largest, with their intervals
    (resampled: percentiles of the group-stratified bootstrap; else Wald's from the groups' variances, Var θ_a + Var
    θ_b, the method named by ``analytic``; a metric without a variance (NaN) has no such interval)."""
    out = []
    g_count = len(names)
    pair_method = None if confidence is None else "bootstrap" if resampling else "delta"
    described = {
        None: None,
        "bootstrap": "group-stratified bootstrap (percentile)",
        "delta": analytic,
    }
    for j, metric in enumerate(metrics):
        for a in range(g_count):
            for b in [*range(a + 1, g_count), -1]:
                va = float(point[a, j])
                vb = float(point[b, j]) if b >= 0 else float(rest_point[a, j])
                d_ci = r_ci = None
                if confidence is not None and pair_method == "bootstrap":
                    assert boot is not None and rest is not None
                    xa = boot[a, :, j]
                    xb = boot[b, :, j] if b >= 0 else rest[a, :, j]
                    d_ci = percentile(xa - xb, confidence)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        r_ci = percentile(np.where(xb != 0, xa / xb, np.nan), confidence)
                elif confidence is not None:
                    assert variances is not None and rest_variances is not None
                    var_a = float(variances[a, j])
                    var_b = float(variances[b, j]) if b >= 0 else float(rest_variances[a, j])
                    d_ci = wald_difference(va - vb, var_a + var_b, confidence)
                    r_ci = wald_ratio(va, vb, var_a, var_b, confidence)
                other = names[b] if b >= 0 else "rest"
                between = "pair" if b >= 0 else "rest"
                method = described[pair_method]
                out.append(
                    GroupGap(metric, between, names[a], other, va, vb, va - vb, ratio(va, vb), d_ci, r_ci, method)
                )
        column = point[:, j]
        if np.isnan(column).all():
            continue
        high, low = int(np.nanargmax(column)), int(np.nanargmin(column))
        d_ci = r_ci = None
        if confidence is not None and boot is not None:
            d_ci = range_interval(column, boot[:, :, j], confidence)
            logged = range_interval(column, boot[:, :, j], confidence, log=True)
            r_ci = None if logged is None else (math.exp(-logged[1]), math.exp(-logged[0]))
        top_value, bottom_value = float(column[high]), float(column[low])
        method = None if confidence is None else RANGE_METHOD
        out.append(
            GroupGap(metric, "max", names[high], names[low], top_value, bottom_value, top_value - bottom_value,
                     ratio(bottom_value, top_value), d_ci, r_ci, method)
        )  # fmt: skip
    return out


def tests_of(
    metrics: Sequence[str],
    names: Sequence[str],
    point: np.ndarray,
    rest_point: np.ndarray,
    test: str,
    boot: np.ndarray | None,
    rest: np.ndarray | None,
    variances: np.ndarray | None,
    rest_variances: np.ndarray | None,
    draws: Mapping[tuple[int, int], np.ndarray] | None,
    p_values: Mapping[tuple[int, int], np.ndarray] | None = None,
) -> list[GroupTest]:
    """The tests of every metric's pairs and groups against the rest, Holm-adjusted within each family. With two
    groups, a group against the rest is the pair itself: both take the pair's p, unadjusted (one hypothesis).
    ``p_values``: each pair's (a, b; b = −1 the rest) p-values by metric (M,) of a test computed by its own
    formula (DeLong's unpaired test), in place of Wald's p from ``variances``."""
    if test == "none":
        return []
    g_count = len(names)
    out: list[GroupTest] = []
    for j, metric in enumerate(metrics):
        tested: dict[tuple[int, int], float] = {}
        for family in ("pair", "rest"):
            pairs = (
                [(a, b) for a in range(g_count) for b in range(a + 1, g_count)]
                if family == "pair"
                else [(a, -1) for a in range(g_count)]
            )
            found = []
            for a, b in pairs:
                d = float(point[a, j] - (point[b, j] if b >= 0 else rest_point[a, j]))
                if family == "rest" and g_count == 2:  # the rest of a is the other group: the pair's one hypothesis
                    found.append((a, b, d, tested[(0, 1)]))
                    continue
                if test == "permutation":
                    assert draws is not None
                    p = permutation_p(draws[(a, b)][:, j], d)
                elif test == "bootstrap":
                    assert boot is not None and rest is not None
                    p = bootstrap_p(boot[a, :, j] - (boot[b, :, j] if b >= 0 else rest[a, :, j]), d)
                elif p_values is not None:
                    p = float(p_values[(a, b)][j])
                else:
                    assert variances is not None and rest_variances is not None
                    p = wald_p(d, float(variances[a, j] + (variances[b, j] if b >= 0 else rest_variances[a, j])))
                found.append((a, b, d, p))
                tested[(a, b)] = p
            adjusted = holm(np.array([p for *_, p in found]))
            if family == "rest" and g_count == 2:  # one hypothesis, said twice: nothing to adjust for
                adjusted = np.array([p for *_, p in found])
            for (a, b, d, p), ph in zip(found, adjusted):
                out.append(GroupTest(metric, family, names[a], names[b] if b >= 0 else "rest", d, p, float(ph), test))
    return out


def _label_rates(reader: Any, positive: int | None) -> Rated | None:
    """The positive class's rates (:data:`RATES`) of sums of labels' cell types, or ``None`` without a positive
    class."""
    if positive is None:
        return None
    column = positive

    def rated(sums: np.ndarray) -> dict[str, np.ndarray]:
        t = reader.cells.tallies(sums)
        return rates_of(t.tp[:, column], t.fp[:, column], t.fn[:, column], t.tn[:, column])

    return rated


def fairness_of(
    positive: Any,
    names: Sequence[str],
    groups: Sequence[GroupStatistic],
    rated: Rated | None,
    rates: Mapping[str, np.ndarray] | None,
    confidence: float | None,
) -> FrozenDict[str, Any] | None:
    """Each group's selection rate, TPR and FPR of the ``positive`` class (``rated`` reads them from a group's sums),
    and every summary of :data:`FAIRNESS` with its group-stratified bootstrap interval (from the bootstrap's
    ``rates``)."""
    if rated is None:
        return None
    by_rate: dict[str, list[float]] = {r: [] for r in RATES}
    for g in groups:
        for rate, x in rated(g.sums[None, :]).items():
            by_rate[rate].append(float(x[0]))
    stacked = {rate: np.array(v) for rate, v in by_rate.items()}
    summaries = {}
    for name in FAIRNESS:
        value = float(summary_of(name, stacked))
        bounds = None
        if rates is not None and confidence is not None:
            bounds = _summary_bounds(name, stacked, rates, confidence)
        summaries[name] = {"value": value, "ci": bounds}
    by_group = {g: {rate: by_rate[rate][i] for rate in RATES} for i, g in enumerate(names)}
    return FrozenDict({"positive": positive, "by_group": by_group, "summaries": summaries})


def undefined_rates(fairness: Mapping[str, Any] | None) -> list[str]:
    """A warning naming each group whose rate of the positive class is 0/0 (TPR without a gold positive, FPR
    without a gold negative, in the group), and the fairness summaries it leaves undefined (NaN): fairlearn's
    functions read such a rate as 0 (scikit-learn's zero_division), which a summary here does not assume."""
    if fairness is None:
        return []
    out = []
    held = {"tpr": "no gold instance of the positive class", "fpr": "no gold instance outside the positive class"}
    for rate, why in held.items():
        empty = [g for g, rates in fairness["by_group"].items() if math.isnan(rates[rate])]
        if empty:
            reading = [
                n for n, f in FAIRNESS.items() if rate in f.rates and math.isnan(fairness["summaries"][n]["value"])
            ]
            out.append(
                f"{rate} is undefined (0/0) in group(s) {', '.join(map(repr, empty))}: {why}; "
                + (f"so {', '.join(reading)} {'is' if len(reading) == 1 else 'are'} NaN (fairlearn would read the rate "
                   "as 0)" if reading else "the fairness summaries leave the group out")
            )  # fmt: skip
    return out


def test_method_of(
    test: str,
    slicing: Slicing,
    rounds: int,
    seeds: Sequence[int],
    base: int,
    strata: Sequence[Sequence[Any]] | None = None,
    strata_columns: Sequence[str] = (),
) -> dict[str, Any]:
    """What the result names of the test between groups: its name, definition, rounds and seed (the last of
    ``seeds`` the permutation's, the one before the bootstrap's), the base seed, the alternative, Holm's families and
    the strata membership was permuted within (each group's parts per stratum, and the strata's columns; ``None``:
    none)."""
    held = None if strata is None else {"columns": list(strata_columns), "n_strata": len(strata[0]) if strata else 0}
    return {
        "name": test,
        "definition": GROUP_TESTS[test].definition,
        "rounds": slicing.rounds if test == "permutation" else rounds if test == "bootstrap" else None,
        "seed": seeds[-1] if test == "permutation" else seeds[-2] if test == "bootstrap" else None,
        "base_seed": base,
        "alternative": "two-sided",
        "multiplicity": "holm: over the pairs of groups, and over the groups against the rest, for each score",
        "alpha": slicing.alpha,
        "strata": held,
    }


def _summary_bounds(
    name: str, values: Mapping[str, np.ndarray], draws: Mapping[str, np.ndarray], confidence: float
) -> tuple[float, float] | None:
    """A fairness summary's interval (:func:`~clfeval.infer.slicing.range_interval`): every rate it reads makes one
    family of the simultaneous intervals, so the worst gap over the rates (equalized odds: the larger of the TPR's
    and the FPR's) is bounded as one; a ratio is exp(−gap) of the logs."""
    fairness = FAIRNESS[name]
    found = np.stack([values[r] for r in fairness.rates])
    drawn = np.stack([draws[r] for r in fairness.rates])
    if fairness.combine == "difference":
        return range_interval(found, drawn, confidence)
    logged = range_interval(found, drawn, confidence, log=True)
    return None if logged is None else (math.exp(-logged[1]), math.exp(-logged[0]))


def gap_method_of(
    interval: CI | None, resampling: bool, rounds: int, seed: int, analytic: tuple[str, str] | None = None
) -> dict[str, Any]:
    """What the result names of the gaps' intervals; ``analytic``: the name and definition of an interval method
    that is not the bootstrap, in place of the delta method's."""
    if interval is None:
        return {"name": "none", "definition": "no intervals of gaps: score with ci= for them"}
    boot = {
        "resamples": rounds,
        "seed": seed,
    }
    if resampling:
        return {
            "name": "bootstrap",
            "definition": "the group-stratified bootstrap: each group's units (instances, or blocks) redrawn with "
            "replacement in its own size, every group's scores and every gap read from the same draws; pairs and "
            "groups against the rest: percentile intervals of the difference and the ratio (BCa is not applied to "
            f"gaps); the largest gap and the fairness summaries: {RANGE_METHOD}",
            "confidence": interval.confidence,
            **boot,
        }
    if analytic is not None:
        return {"name": analytic[0], "definition": analytic[1], "confidence": interval.confidence, **boot}
    return {
        "name": "delta",
        "definition": "pairs and groups against the rest: the delta method with the groups independent, Var(θ_a − "
        "θ_b) = Var θ_a + Var θ_b, the ratio's interval on the log scale; the rest's variance is that of its counts "
        "pooled. The largest gap (max − min, min / max) and the fairness summaries have no derivative: "
        f"{RANGE_METHOD}",
        "confidence": interval.confidence,
        **boot,
    }
