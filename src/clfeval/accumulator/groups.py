"""Counts kept per group, batch by batch: ``Accumulator(..., groups=...)`` and ``update(gold, pred, groups=...)``.

A grouped accumulator holds one accumulator of its kind per group (the group's values in each column → its
accumulator). An update sorts the batch into its groups once (:func:`clfeval.inputs.groups.group_index`, the rule
``score(..., groups=)`` names groups by), counts each group's instances (:func:`clfeval.inputs.groups.taken`) in a
fresh accumulator of the kind, and merges them in only when every group's counting succeeded: an update refused
with an error counts nothing. Workers' grouped accumulators merge group by group with the kind's merge. The scores
are those of :func:`clfeval.api.score_grouped_counts`: the whole data is the groups merged, scored by the one path
of ``score(..., groups=)``.

::

    acc = clfeval.Accumulator(labels=range(3), groups="lang")
    for batch in loader:
        acc.update(batch.gold, batch.pred, groups=batch.lang)
    acc.score(ci="bootstrap")          # a clfeval.Sliced: every group's scores, the gaps, the tests
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clfeval.accumulator import Accumulator
from clfeval.errors import InputError, OptionError
from clfeval.kinds import KINDS

if TYPE_CHECKING:
    from clfeval.infer.methods import CI
    from clfeval.infer.slices import Sliced
    from clfeval.infer.slicing import Slicing
    from clfeval.inputs.readers import Counted
    from clfeval.kinds import Counts
    from clfeval.scoring.options import Scoring

__all__ = ["GroupedAccumulator"]


def _default_column(name: str, position: int, width: int) -> bool:
    """Whether ``name`` is the name :func:`~clfeval.inputs.groups.group_index` gives an unnamed column."""
    return name == ("group" if width == 1 else f"group {position + 1}")


class GroupedAccumulator(Accumulator):
    """An accumulator whose counts are kept per group (made by ``clfeval.Accumulator(..., groups=...)``).

    Parameters
    ----------
    task, labels, **options
        As :class:`~clfeval.Accumulator` takes them (``multilabel=``, ``spans=``, ``id2label=``, ``invalid=``):
        every group's accumulator is made with them.
    groups
        ``True``: the group columns are named by the first update's groups (a Series' name, a frame's or a
        mapping's columns; ``group`` when unnamed). A name, or several (intersections): the group columns, which
        every update's groups give in this order (a frame or mapping is read by these names).

    Notes
    -----
    Each update's groups are each instance's (for spans each sentence's), in any form ``score(..., groups=)``
    takes. The counts of group g are those of the instances with group g over every update; the whole data's
    counts are Σ_g counts_g (the kind's merge), so scores by group from batches equal ``score(gold, pred,
    groups=G)`` on the whole arrays.
    """

    def __init__(self, task: str = "single-label", labels: Iterable[Any] | None = None, *, groups: Any = None,
                 **options: Any) -> None:  # fmt: skip
        if isinstance(labels, Iterable) and not isinstance(labels, (str, bytes)):
            labels = list(labels)  # a range or generator, read once for every group
        template = Accumulator(task, labels, **options)  # checks the options once
        if KINDS[template.task].scored:
            raise OptionError(
                "groups= is not taken by the accumulator of scored predictions yet: keep one accumulator per group, "
                "or give clfeval.score(gold, scores=..., groups=...)"
            )
        if groups is True:
            columns: tuple[str, ...] | None = None
        elif isinstance(groups, str):
            columns = (groups,)
        elif isinstance(groups, (list, tuple)) and groups and all(isinstance(c, str) for c in groups):
            columns = tuple(groups)
        else:
            raise OptionError(f"groups= is True or the group columns' names, not {groups!r}")
        if columns is not None and len(set(columns)) != len(columns):
            raise OptionError(f"group columns must have distinct names: {', '.join(columns)}")
        self.task = template.task
        self.multilabel = template.multilabel
        self.invalid = getattr(template, "invalid", None)
        self._task_args: tuple[Any, ...] = (task, labels)
        self._options = dict(options)
        self._declared_columns = columns
        self.reset()

    # -- state ------------------------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget every group and its counts (declared group columns and labels stay)."""
        self._columns = self._declared_columns
        self._children: dict[tuple[str, ...], Accumulator] = {}
        self._weighs: bool | None = None
        self._updates = 0

    def _fresh(self) -> Accumulator:
        """A new, empty accumulator of the kind, made with this one's options."""
        task, labels = self._task_args
        return Accumulator(task, labels, **self._options)

    @property
    def group_columns(self) -> tuple[str, ...]:
        """The group columns' names (empty until the first update when ``groups=True``)."""
        return self._columns or ()

    def _ordered(self) -> list[tuple[str, ...]]:
        """The groups' values in report order: column by column, numerically when every value of the column is a
        number, else as strings (the order of ``score(..., groups=)``, :func:`~clfeval.inputs.groups.named_keys`)."""
        from clfeval.inputs.groups import named_keys

        keys = list(self._children)
        order, _ = named_keys(keys)
        return [keys[i] for i in order]

    @property
    def by_group(self) -> dict[str, Accumulator]:
        """Each group's accumulator, by group name (values joined by ``&``), in report order."""
        from clfeval.inputs.groups import GROUP_JOIN

        return {GROUP_JOIN.join(key): self._children[key] for key in self._ordered()}

    def whole(self) -> Accumulator:
        """One accumulator of every group's counts together (the kind's merge, groups in report order)."""
        out = self._fresh()
        for key in self._ordered():
            out.merge(self._children[key])
        return out

    @property
    def labels(self) -> tuple[str, ...]:
        """The label set of every group together."""
        return self.whole().labels

    @property
    def label_origin(self) -> str:
        """Where the label set came from (see :data:`~clfeval.accumulator.LABEL_ORIGINS`)."""
        return self.whole().label_origin

    @property
    def n(self) -> int:
        """The number of instances counted, every group together."""
        return sum(child.n for child in self._children.values())

    @property
    def counts(self) -> Any:
        """The whole data's counts: every group's merged."""
        return self.whole().counts

    # -- updates ----------------------------------------------------------------------------------------------------

    def update(self, gold: Any, pred: Any, *, sample_weight: Any = None, groups: Any = None) -> None:
        """Add a batch of instances and their groups.

        Parameters
        ----------
        gold, pred, sample_weight
            As the accumulator of the kind takes them.
        groups
            Each instance's group (for spans, each sentence's): one column or several, in any form
            ``clfeval.score(..., groups=)`` takes.

        Raises
        ------
        InputError
            Without groups, with groups of another length, other group columns, or what the kind's update refuses
            (named with the update, the group and the position in the batch); nothing of the batch is counted.
        """
        from clfeval.api import _length
        from clfeval.inputs.groups import group_index, taken

        where = f"update {self._updates + 1}"
        if groups is None:
            raise InputError("this accumulator counts by group: give groups= (each instance's group) to every update",
                             where)  # fmt: skip
        weighs = sample_weight is not None
        if self._weighs is not None and weighs != self._weighs:
            held = "weighted instances" if self._weighs else "instances without weights"
            raise InputError(f"this accumulator counts {held}: give sample_weight= to every update, or to none", where)
        n = _length(gold)
        if n == 0:
            self._fresh().update(gold, pred, sample_weight=sample_weight)  # an empty batch checked as the kind's
            self._updates += 1
            return
        unit = "sentence" if KINDS[self.task].needs_units else "instance"  # a kind in units: a group per unit
        index = group_index(self._by_name(groups), n, unit)
        columns = self._columns_of(index.columns, where)
        found: dict[tuple[str, ...], Accumulator] = {}
        for values, idx in zip(index.values, index.members):
            batch = self._fresh()
            try:
                batch.update(taken(gold, idx), taken(pred, idx), sample_weight=taken(sample_weight, idx))
            except InputError as exc:
                source = (exc.source or "").replace("update 1", f"{where}, group {'&'.join(values)!r}", 1)
                position = None if exc.index is None else int(idx[exc.index])
                raise InputError(exc.message, source or where, exc.line, index=position) from None
            found[values] = batch
        for key, counted in found.items():
            kept = self._children.get(key)
            self._children[key] = counted if kept is None else kept.merge(counted)
        self._columns, self._weighs = columns, weighs
        self._updates += 1

    def _by_name(self, groups: Any) -> Any:
        """A frame's or mapping's group columns in the declared order (by name), else the groups as given."""
        columns = self._columns
        if columns is None:
            return groups
        module = type(groups).__module__
        frame = module.startswith(("pandas", "polars")) and hasattr(groups, "columns")
        if not (frame or isinstance(groups, Mapping)):
            return groups
        held = [str(c) for c in (groups.columns if frame else groups)]
        missing = [c for c in columns if c not in held]
        if missing or len(held) != len(columns):
            raise InputError(f"the groups' columns {held} are not the accumulator's group columns {list(columns)}",
                             "groups")  # fmt: skip
        if frame:
            return groups.select(list(columns)) if module.startswith("polars") else groups[list(columns)]
        named = {str(k): v for k, v in groups.items()}
        return {c: named[c] for c in columns}

    def _columns_of(self, given: tuple[str, ...], where: str) -> tuple[str, ...]:
        """The group columns of an update: the accumulator's, which unnamed columns take by position."""
        if self._columns is None:
            return given
        width = len(self._columns)
        if len(given) == width and all(
            name == own or _default_column(name, i, width) for i, (name, own) in enumerate(zip(given, self._columns))
        ):
            return self._columns
        raise InputError(f"the groups' columns {list(given)} are not the accumulator's group columns "
                         f"{list(self._columns)}", where)  # fmt: skip

    # -- merging ----------------------------------------------------------------------------------------------------

    def merge(self, other: Accumulator) -> Accumulator:
        """Add ``other``'s groups into this accumulator, in place, group by group (the kind's merge), and return it.

        Raises
        ------
        OptionError
            If ``other`` does not count by group, counts another task, other group columns, or its groups' counts do
            not merge with these (the kind's merge says why).
        """
        if not isinstance(other, GroupedAccumulator):
            raise OptionError(
                f"a grouped accumulator merges with a grouped accumulator, not {type(other).__name__}: merge each "
                "group's (acc.by_group[name]) instead"
            )
        if other.task != self.task:
            raise OptionError(f"cannot merge {self.task} counts with {other.task} counts")
        if self._columns is not None and other._columns is not None and other._columns != self._columns:
            raise OptionError(
                f"cannot merge counts grouped by {list(other._columns)} into counts grouped by {list(self._columns)}"
            )
        if self._weighs is not None and other._weighs is not None and self._weighs != other._weighs:
            raise OptionError("cannot merge an accumulator of weighted instances with one of instances without weights")
        merged = {key: child.copy() for key, child in self._children.items()}
        for key, child in other._children.items():
            held = merged.get(key)
            merged[key] = (held if held is not None else self._fresh()).merge(child)
        self._children = merged
        self._columns = self._columns if self._columns is not None else other._columns
        self._weighs = self._weighs if self._weighs is not None else other._weighs
        self._updates += other._updates
        return self

    def copy(self) -> GroupedAccumulator:
        """An independent copy."""
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._options = dict(self._options)
        out._children = {key: child.copy() for key, child in self._children.items()}
        return out

    # -- scoring and files ------------------------------------------------------------------------------------------

    def counted(self) -> Counted:
        """The whole data's counts with their provenance (every group's merged) and each group's counts
        (``groups``, ``group_columns``, ``group_values``): what :func:`clfeval.score` scores by group and
        :func:`clfeval.save_counts` writes as counts by group."""
        from dataclasses import replace

        keys = self._ordered()
        names = list(self.by_group)
        return replace(
            self.whole().counted(),
            groups={name: self._children[key].counts for name, key in zip(names, keys)},
            group_columns=self.group_columns,
            group_values=dict(zip(names, keys)),
        )

    def scoring_labels(self) -> tuple[str, ...] | None:
        """The labels scores average over by default (as the accumulator of the kind says)."""
        return self._fresh().scoring_labels()

    def score(  # type: ignore[override]
        self,
        *,
        ci: str | CI | None = "none",
        scoring: Scoring | None = None,
        slicing: Slicing | None = None,
        metrics: str | list[str] | tuple[str, ...] | None = None,
        test: str | None = None,
        rounds: int | None = None,
        seed: int | None = None,
        resamples: int | None = None,
        confidence: float | None = None,
        progress: Any = None,
        **shorthands: Any,
    ) -> Sliced:
        """Scores by group of the counts so far (:func:`clfeval.api.score_grouped_counts`): every group's scores,
        the whole data's, the gaps and the tests between groups, as ``clfeval.score(..., groups=)`` gives them.

        Parameters
        ----------
        ci, scoring, slicing, metrics, test, rounds, seed, resamples, confidence, progress
            As :func:`clfeval.score` takes them with ``groups=``.
        **shorthands
            The shorthands of ``scoring`` (``beta=``, ``pos_label=``, ``ordinal=`` …).

        Raises
        ------
        InputError
            If nothing has been counted yet.
        """
        from clfeval.api import score_grouped_counts
        from clfeval.infer.methods import CI as CIGroup
        from clfeval.shorthands import SHORTHANDS, ci_of, slicing_of

        unknown = sorted(set(shorthands) - set(SHORTHANDS["Scoring"]))
        if unknown:
            raise OptionError(f"a grouped accumulator's score takes no {', '.join(unknown)}=")
        if not self.n:
            raise InputError("nothing to score: the accumulator has counted no instances")
        whole = self.whole()
        chosen = whole._scoring_of(scoring, shorthands)
        interval = ci_of(ci, seed=None if CIGroup.of(ci) is None else seed, resamples=resamples,
                         confidence=confidence)  # fmt: skip
        chosen_slicing = slicing_of(slicing, metrics=metrics, test=test, rounds=rounds, seed=seed, grouped=True)
        assert chosen_slicing is not None
        by_group = self.by_group
        keys = self._ordered()
        return score_grouped_counts(
            {name: child.counted() for name, child in by_group.items()}, self.group_columns, keys, chosen, interval,
            chosen_slicing, progress, whole=whole.counted(),
        )  # fmt: skip

    def save(self, path: str | Path) -> None:
        """Write the counts by group as one count file (``"group_columns"``, ``"groups"``: each group's name, values
        and counts, ``clfeval count --group-col``'s document), which :func:`clfeval.load_counts` reads and
        ``clfeval score --counts`` scores by group.

        Raises
        ------
        InputError
            If nothing has been counted yet.
        OptionError
            For spans, whose count files by group are not read yet.
        """
        from clfeval.inputs.readers import save_counts

        if not self._children:
            raise InputError("nothing to save: the accumulator has counted no instances")
        if KINDS[self.task].needs_units:  # count files by group do not take counts with their units (sentences) yet
            raise OptionError(
                "counts of spans by group are not written to one count file yet (their sentences): save each "
                "group's (acc.by_group[name].save(path))"
            )
        save_counts(self.counted(), str(path))

    @classmethod
    def load(cls, path: str | Path) -> Accumulator:
        """Refused: a count file by group is scored as it is, ``clfeval.score(clfeval.load_counts(path))``."""
        raise OptionError(
            "a grouped accumulator does not load count files: score counts by group with "
            "clfeval.score(clfeval.load_counts(path)), or load one group's counts with clfeval.Accumulator.load"
        )

    @classmethod
    def from_counts(cls, counts: Counts, labels: Iterable[Any] | None = None) -> Accumulator:
        """Refused: counts hold no groups (use :meth:`clfeval.Accumulator.from_counts`)."""
        raise OptionError("counts hold no groups: start a group's accumulator with clfeval.Accumulator.from_counts")

    def __repr__(self) -> str:
        columns = "+".join(self.group_columns) or "groups"
        return (
            f"Accumulator({self.task}, by {columns}: {len(self._children)} groups, {self.n:,} instances, "
            f"{self._updates} updates)"
        )
