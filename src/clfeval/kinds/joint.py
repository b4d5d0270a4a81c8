"""Several systems on one gold: :class:`~clfeval.JointCounts`, what ``compare`` reads.

Each row holds the gold value and every system's prediction of one kind of instance. A system's own counts and a
pair's (gold, A, B) triples follow from the rows through the systems' kind (``JointCounts.kind``: its
:meth:`~clfeval.kinds.Kind.system_row` says where a system's instance lies in a row). Count files: ``joint``
documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from clfeval.count.joint import JointCounts
from clfeval.count.labelsets import MultiLabel
from clfeval.count.limits import check_total, whole_count
from clfeval.count.paired import system_kind_name
from clfeval.errors import InputError
from clfeval.kinds.countfile import doc_labels, doc_list, doc_policies, doc_set, shown_json, units_document, units_of
from clfeval.kinds.kind import KINDS, Kind, register_kind

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks

__all__ = ["Joint"]


class Joint(Kind):
    """Several systems' predictions of the same instances: :class:`~clfeval.JointCounts`."""

    name: ClassVar[str] = "joint"
    title: ClassVar[str] = "joint counts"
    counts_type: ClassVar[type] = JointCounts
    tasks: ClassVar[frozenset[str]] = frozenset({"compare"})
    document: ClassVar[str | None] = "joint"

    def labels_seen(self, counts: JointCounts) -> tuple[set[str], set[str]]:
        return counts.seen_labels()

    def holds_label_sets(self, counts: JointCounts) -> bool:
        return KINDS[counts.kind].label_sets

    def n_types(self, counts: JointCounts) -> int:
        return len(counts.rows)

    def merge_signature(self, counts: JointCounts) -> tuple[Any, ...]:
        ml = counts.multilabel
        return ("joint", counts.systems, counts.kind, None if ml is None else (ml.duplicates, ml.empty))

    def describe(self, counts: JointCounts) -> str:
        ml = counts.multilabel
        return f"joint counts of systems {', '.join(counts.systems)}" + (
            f" (multi-label, duplicates={ml.duplicates}, empty={ml.empty})" if ml is not None else ""
        )

    def to_document(self, counts: JointCounts) -> dict[str, Any]:
        ml = counts.multilabel
        sets = KINDS[counts.kind].label_sets  # the systems' instances hold label sets
        if sets and ml is None:
            ml = MultiLabel()
        labels = len(counts.systems) + 1  # gold and each system's prediction; then the instance's own values
        doc: dict[str, Any] = {
            "kind": self.document,
            "multilabel": sets,
            "n_instances": counts.n_instances,
            "systems": list(counts.systems),
            "rows": [
                [list(v) if sets and i < labels else v for i, v in enumerate(row)] + [c]
                for row, c in counts.rows.items()
            ],
        }
        if ml is not None:
            doc.update(duplicates=ml.duplicates, empty=ml.empty)
        if counts.kind != system_kind_name("", counts.multilabel):  # a registered kind's systems: say which
            doc["system_kind"] = counts.kind
        if counts.options:
            doc["system_options"] = dict(counts.options)
        if counts.units is not None:
            doc["unit"] = counts.units.unit
            doc["units"] = units_document(counts.units, list(counts.rows))
        return doc

    def read_under(self, counts: JointCounts) -> dict[str, Any]:
        # the systems' counting options (a span scheme and unit), and the label-set policies
        ml = counts.multilabel
        policies = {} if ml is None else {"duplicates": ml.duplicates, "empty": ml.empty}
        return {**policies, **counts.options}

    def units(self, counts: JointCounts) -> Blocks | None:
        return counts.units

    def from_document(self, doc: Mapping[str, Any], source: str) -> JointCounts:
        systems = doc_labels(doc["systems"], source, "systems", distinct=True)
        multilabel = doc.get("multilabel", False)
        if not isinstance(multilabel, bool):
            raise InputError(f"multilabel must be true or false, found {shown_json(multilabel)}", source)
        duplicates, empty = doc_policies(doc, source)
        ml = MultiLabel(empty=empty, duplicates=duplicates) if multilabel else None
        name = doc.get("system_kind", system_kind_name("", ml))
        scored = [k for k, kind in KINDS.items() if kind.family is not None]
        if not isinstance(name, str) or name not in scored:
            raise InputError(
                f"system_kind must name a kind of one system's counts ({', '.join(scored)}), found {shown_json(name)}",
                source,
            )
        system = KINDS[name]
        if system.label_sets != multilabel:
            raise InputError(
                f"system_kind {name!r} counts {'label sets' if system.label_sets else 'single labels'}, but "
                f"multilabel is {shown_json(multilabel)}",
                source,
            )
        extra = system.joint_extra  # values of each instance after the predictions (a registered kind's)
        labels = len(systems) + 1
        rows: dict[tuple[Any, ...], int] = {}
        for i, item in enumerate(doc_list(doc["rows"], "rows", source)):
            if not isinstance(item, list) or len(item) != labels + extra + 1:
                raise InputError(
                    f"rows[{i}] must be [gold, a prediction per system ({len(systems)}), "
                    + (f"{extra} value(s) of the instance, " if extra else "")
                    + f"count], found {shown_json(item)}",
                    source,
                )
            values = tuple(
                doc_set(v, source, f"rows[{i}][{j}]", duplicates, empty) if multilabel else v
                for j, v in enumerate(item[:labels])
            )
            if not multilabel and not all(isinstance(v, str) for v in values):
                raise InputError(f"rows[{i}] must hold labels (strings), found {shown_json(item)}", source)
            try:
                values += tuple(tuple(v) if isinstance(v, list) else v for v in item[labels:-1])
                hash(values)
            except TypeError:
                raise InputError(
                    f"rows[{i}] holds a value that is not a label, a number or a list of them", source
                ) from None
            rows[values] = rows.get(values, 0) + whole_count(item[-1], f"rows[{i}][{len(item) - 1}]", source)
        check_total(sum(rows.values()), "the rows' counts add up to", source)
        options = doc.get("system_options", {})
        if not (isinstance(options, dict) and all(isinstance(v, (str, int, float, bool)) for v in options.values())):
            raise InputError(f"system_options must map option names to values, found {shown_json(options)}", source)
        units = None
        if doc.get("units") is not None:
            unit = doc.get("unit", "units")
            if not isinstance(unit, str):
                raise InputError(f"unit must name the units (sentences, documents), found {shown_json(unit)}", source)
            units = units_of(doc["units"], list(rows), unit, source)
        return JointCounts(systems, rows, ml, name, units, options)


JOINT = register_kind(Joint())
