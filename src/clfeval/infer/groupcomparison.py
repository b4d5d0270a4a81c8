"""Systems compared within each group: ``compare(gold, {systems}, groups=G)``.

Each group's comparison is :func:`clfeval.compare` of the group's instances (sentences, for spans), by the same
path as the whole data's, over the whole data's label set; the paired test within a group is the comparison's own
(Holm over the pairs of systems within the group, as ``compare`` gives it). Across groups, each pair of systems and
each metric is a family of G tests (one per group), adjusted by Holm's step-down method:
p_holm_groups(g) = max_{j ≤ rank(g)} min(1, (G − j + 1) · p_(j)), so "A beats B in some group" holds at the
family-wise level α whatever the number of groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from clfeval.errors import UnknownName
from clfeval.result import FrozenDict, Result, flat_name, flat_number, json_number

__all__ = ["COMPARE_SLICES_SCHEMA", "GroupPairTest", "SlicedComparison"]

#: The JSON contract of a comparison by group.
COMPARE_SLICES_SCHEMA = "clfeval.compare-slices/1"


@dataclass(frozen=True)
class GroupPairTest:
    """One pair of systems' test of one metric within one group.

    Attributes
    ----------
    group, metric, a, b
        The group, the metric's report name, the systems (d = score(a) − score(b)).
    score_a, score_b, difference
        The scores within the group and their difference.
    p_value
        The paired test's p-value within the group.
    p_holm_pairs
        Holm's adjustment over the pairs of systems of the metric within the group (the group's ``compare``).
    p_holm_groups
        Holm's adjustment of this pair's p-values over the groups.
    significant
        ``p_holm_groups`` < α.
    """

    group: str
    metric: str
    a: str
    b: str
    score_a: float
    score_b: float
    difference: float
    p_value: float
    p_holm_pairs: float
    p_holm_groups: float
    significant: bool

    def to_dict(self) -> dict[str, Any]:
        """The test as a JSON object."""
        return {
            "group": self.group,
            "metric": self.metric,
            "a": self.a,
            "b": self.b,
            "score_a": json_number(self.score_a),
            "score_b": json_number(self.score_b),
            "difference": json_number(self.difference),
            "p_value": json_number(self.p_value),
            "p_holm_pairs": json_number(self.p_holm_pairs),
            "p_holm_groups": json_number(self.p_holm_groups),
            "significant": self.significant,
        }


@dataclass(frozen=True, eq=False)
class SlicedComparison(Result):
    """Systems compared on the whole data and within each group, with Holm across the groups for each pair.

    ``r.overall`` and ``r.by_group["es"]`` are :class:`~clfeval.infer.comparison.Comparison` results;
    ``r.tests`` each pair's test in each group with both adjustments; ``r["by_group.es.macro.f1.A_vs_B.p_value"]``
    reads one number by its :meth:`flat` name (bare names read the whole data's). The JSON contract is
    ``clfeval.compare-slices/1`` (docs/json.md).
    """

    kind: ClassVar[str] = "compare-slices"
    report_builder: ClassVar[str] = "clfeval.report.groupcomparison:group_comparison_report"

    columns: tuple[str, ...]
    names: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]
    overall: Any
    by_group: FrozenDict[str, Any]
    tests: tuple[GroupPairTest, ...]
    test_method: FrozenDict[str, Any]
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems compared."""
        return tuple(self.overall.systems)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics compared."""
        return tuple(self.overall.metrics)

    @property
    def task(self) -> str:
        """The kind of data of the systems' scores (``single-label``, ``spans`` …)."""
        return str(self.overall.first.task)

    @property
    def n_instances(self) -> int:
        """The instances of the whole data."""
        return int(self.overall.first.n_instances)

    def test(self, group: str, a: str, b: str, metric: str) -> GroupPairTest:
        """The test of systems ``a`` and ``b`` on ``metric`` within ``group`` (either order of the pair)."""
        for t in self.tests:
            if t.group == group and t.metric == metric and {t.a, t.b} == {a, b}:
                return t
        raise UnknownName(f"no test of {a!r} and {b!r} on {metric!r} in group {group!r}")

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        """The whole data's comparison under ``overall/`` (``compare``'s flat names), each group's under
        ``by_group/<g>/``, and each pair's Holm adjustment over the groups,
        ``by_group/<g>/<metric>/<a>_vs_<b>/p_holm_groups``."""
        out: dict[str, float] = {"n_instances": float(self.n_instances), "n_groups": float(len(self.names))}
        for name, value in self.overall.flat(sep, per_label=per_label).items():
            out[flat_name(["overall", name], sep)] = value
        for group, result in self.by_group.items():
            for name, value in result.flat(sep, per_label=per_label).items():
                out[flat_name(["by_group", group, name], sep)] = value
        for t in self.tests:
            path = _metric_path(self.overall, t.metric)  # the metric's parts in compare's own flat names
            out[flat_name(["by_group", t.group, *path, f"{t.a}_vs_{t.b}", "p_holm_groups"], sep)] = t.p_holm_groups
        return out

    def __getitem__(self, name: str) -> float:
        return flat_number(self.flat("."), name, "overall", "number")

    def signature_parts(self) -> list[tuple[str, str]]:
        parts = list(self.overall.signature_parts())
        parts.append(("groups", f"{'+'.join(self.columns)}({len(self.names)})"))
        parts.append(("group_seed", str(self.test_method.get("base_seed"))))
        parts.append(("groups_adjusted", "holm"))
        return parts

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        from clfeval._version import __version__

        return {
            "schema": COMPARE_SLICES_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "task": self.task,
            "n_instances": self.n_instances,
            "group_columns": list(self.columns),
            "groups": [
                {"name": name, "values": dict(zip(self.columns, values)), "n_instances": int(r.first.n_instances)}
                for name, values, r in zip(self.names, self.values, self.by_group.values())
            ],
            "systems": list(self.systems),
            "metrics": list(self.metrics),
            "overall": self.overall.to_dict(matrix=matrix),
            "by_group": {name: r.to_dict(matrix=matrix) for name, r in self.by_group.items()},
            "tests": [t.to_dict() for t in self.tests],
            "test_method": dict(self.test_method),
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def _metric_path(comparison: Any, metric: str) -> list[str]:
    """A metric's parts in ``compare``'s flat names (``macro.f1`` → ``macro``, ``f1``)."""
    from clfeval.scoring.metrics import metric_path

    if metric in comparison.own_scores:
        return [metric]
    key = dict(zip(comparison.metrics, comparison.keys))[metric]
    return list(metric_path(key, comparison.first.beta))
