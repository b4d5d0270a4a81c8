"""What a kind of counted data declares, and the registry :data:`KINDS` every task asks instead of the counts' type.

A *kind* is one shape of sufficient statistics: single-label confusion counts, multi-label (gold set, predicted
set) pairs, several systems' joint counts (``compare``), rows with confidences (``finagle``). Each is one
:class:`Kind` registered here, and it says in one place what the rest of clfeval needs of its counts:

==============================  ==========================================================================
what                            methods
==============================  ==========================================================================
its counts type, its tasks      :attr:`Kind.counts_type`, :attr:`Kind.tasks`
its count-file document         :attr:`Kind.document`, :meth:`Kind.to_document`, :meth:`Kind.from_document`
how its counts merge            :meth:`Kind.merge` (``+``), :meth:`Kind.merge_signature` (what must agree)
the labels it has seen          :meth:`Kind.labels_seen`
cell types and weights          :meth:`Kind.rows`, :meth:`Kind.from_rows`, :meth:`Kind.cells`,
                                :meth:`Kind.cells_of_rows`, :meth:`Kind.observed`
its confusion-matrix view       :meth:`Kind.matrix` (``None``: none)
which measures apply            :attr:`Kind.family` (the ``tasks`` of :data:`clfeval.MEASURES` and
                                :data:`clfeval.AVERAGES`)
how its units resample          :meth:`Kind.rows` (instances: one multinomial draw over the rows; blocks:
                                :class:`~clfeval.count.blocks.Blocks` keyed by the same rows), :meth:`Kind.units`
                                (blocks the counts carry: a span's sentences)
how two systems pair            :meth:`Kind.system_row`, :meth:`Kind.correct`
==============================  ==========================================================================

A *row* is one distinct kind of instance: ``(gold, predicted)`` labels, ``(gold set, predicted set)``, or what a
new kind makes of its instances; counts are rows with multiplicities. Nothing outside this package asks
``isinstance`` of counts or compares task names: :func:`kind_of` finds the kind of counts, ``KINDS[name]`` the kind
of a result (its ``task``). A new kind is one subclass and one :func:`register_kind`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import numpy as np

from clfeval.errors import OptionError

if TYPE_CHECKING:
    from clfeval.count.blocks import Blocks
    from clfeval.count.confusion import ConfusionCounts
    from clfeval.count.labelsets import MultiLabel
    from clfeval.scoring.cells import CellTypes

__all__ = ["KINDS", "Counts", "Kind", "Row", "kind_of", "register_kind", "unregister_kind"]

#: The modules of the built-in kinds, each registering its kind when imported.
_BUILT_IN = (
    "clfeval.kinds.single",
    "clfeval.kinds.labelsets",
    "clfeval.kinds.joint",
    "clfeval.kinds.confidences",
    "clfeval.kinds.spans",
    "clfeval.kinds.scored",
    "clfeval.kinds.weighted",
)

#: One distinct kind of instance of some counts (labels, label sets, or a new kind's own values), hashable.
Row = tuple[Any, ...]


class Counts(Protocol):
    """What every kind's counts have: a number of instances (counts of parts add up with ``+``, where the kind's
    :meth:`Kind.merge_signature` agree)."""

    @property
    def n_instances(self) -> int: ...


class Kind:
    """A kind of counted data: one subclass per kind, registered with :func:`register_kind`.

    Class attributes
    ----------------
    name
        The registry key, and the ``task`` of its results (``single-label``, ``multi-label`` …).
    title
        The kind in words, for messages.
    counts_type
        The class of its counts (:func:`kind_of` matches it).
    tasks
        The tasks that take these counts: ``score`` and ``cv`` (one system), ``compare`` (several), ``finagle``.
    document
        Its count files' ``kind`` field (``confusion``, ``labelsets``, ``joint`` …), ``None``: no count file.
    family
        Whose measures and averages apply: a ``tasks`` value of :data:`clfeval.MEASURES` and
        :data:`clfeval.AVERAGES` (``single-label``: one label per instance; ``multi-label``: a set); ``None`` for
        counts that are not scored as they are (joint counts, confidences).
    label_sets
        Whether an instance holds a set of labels (training labels are then read as sets).
    option_names
        The counting options its counts carry (``duplicates``, ``empty``), recorded in results and signatures.
    joint_extra
        The values a row of joint counts holds after the systems' predictions (a weight, say): 0 for labels.
    instances
        What its instances are, in words (``spans in gold or predictions``).
    formats
        Output formats of its results besides every result's (:data:`clfeval.render.RENDERERS`): ``conlleval``
        for spans.
    label_word
        What its labels are, in words: ``labels``; ``types`` for spans.
    matrix_title, matrix_cells, report_tables
        The title of its confusion matrix in reports; what a cell counts (the heat map's caption); the
        ``"module:function"`` that builds the tables its score report shows besides the scores and the matrix
        (``scores → list[Table]``), ``None``: none.
    nothing_to_score
        What the error on counts without instances adds (spans: what conlleval.pl prints instead).
    scored
        Whether its instances carry scores, not predicted labels (scored predictions): :func:`clfeval.score` gives
        their :class:`~clfeval.scoring.scored.Scored` result, not the label measures.
    needs_units
        Whether its instances come in units that intervals and tests must keep whole (spans, in sentences): without
        the units they are refused rather than computed as if the instances were independent.
    headline
        The average ``compare`` tests when no metric is named (of F_β): ``macro`` for labels, ``micro`` for spans
        (conlleval.pl's overall score, which the field reports).
    counted, counted_metric, counted_aliases
        The quantity the counting tests (McNemar's, the sign test: :attr:`TestMethod.quantity
        <clfeval.infer.pairtests.TestMethod.quantity>` ``counted``) test, of the instances each system gets right
        (:meth:`correct`): what a unit counts for the better system, in words (``gets more instances right``), and the
        quantity's report name (and its other names): ``accuracy`` for labels (``subset_accuracy`` for label sets); for
        spans ``span_errors``, missed plus spurious spans per unit, never micro F (which fewer errors need not raise).
    counted_in_scores, counted_higher_is_better, counted_definition
        Whether the counted quantity is one of the scores (accuracy: its value is the score's), else
        :meth:`counted_value` gives it; its direction; its definition, for reports (empty: the measure's).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    counts_type: ClassVar[type]
    tasks: ClassVar[frozenset[str]] = frozenset({"score", "cv"})
    document: ClassVar[str | None] = None
    family: ClassVar[str | None] = None
    label_sets: ClassVar[bool] = False
    option_names: ClassVar[tuple[str, ...]] = ()
    joint_extra: ClassVar[int] = 0
    formats: ClassVar[tuple[str, ...]] = ()
    instances: ClassVar[str] = "instances"
    label_word: ClassVar[str] = "labels"
    matrix_title: ClassVar[str] = "confusion matrix"
    matrix_cells: ClassVar[str] = "instances with gold label (row) and predicted label (column)"
    report_tables: ClassVar[str | None] = None
    needs_units: ClassVar[bool] = False
    scored: ClassVar[bool] = False
    #: The interval methods (:data:`~clfeval.infer.methods.INTERVAL_METHODS`) and paired tests
    #: (:data:`~clfeval.infer.pairtests.TESTS`) its counts take; ``None``: every one whose ``kinds`` admit the kind.
    interval_methods: ClassVar[frozenset[str] | None] = None
    paired_tests: ClassVar[frozenset[str] | None] = None
    #: Its own accumulator (``"module:Class"``, a subclass of :class:`clfeval.Accumulator` whose ``from_counts`` takes
    #: the counts and ``labels=``), or ``None``: the accumulator of labels and label sets.
    accumulator: ClassVar[str | None] = None
    #: Whether an instance carries a sample weight (its counts are weighted sums, not whole numbers, and Wilson's
    #: intervals of counts of instances do not apply); ``refused_tests_note`` ends the message of a paired test the
    #: kind does not take, naming the ones it does.
    sample_weights: ClassVar[bool] = False
    refused_tests_note: ClassVar[str] = ""

    def accumulator_class(self) -> Any:
        """The class :attr:`accumulator` names, imported when asked (``None``: the accumulator of labels)."""
        if self.accumulator is None:
            return None
        import importlib

        module, _, name = self.accumulator.partition(":")
        return getattr(importlib.import_module(module), name)

    nothing_to_score: ClassVar[str] = ""
    headline: ClassVar[str] = "macro"
    counted: ClassVar[str] = "gets more instances right"
    counted_metric: ClassVar[str] = "accuracy"
    counted_aliases: ClassVar[tuple[str, ...]] = ("subset_accuracy",)
    counted_in_scores: ClassVar[bool] = True
    counted_higher_is_better: ClassVar[bool] = True
    counted_definition: ClassVar[str] = ""

    # -- every kind ---------------------------------------------------------------------------------------------

    def labels_seen(self, counts: Any) -> tuple[set[str], set[str]]:
        """The labels in the gold data and in the predictions of ``counts``."""
        gold: set[str] = set()
        pred: set[str] = set()
        for row in self.rows(counts)[0]:
            gold.add(row[0])
            pred.add(row[1])
        return gold, pred

    def labels(self, counts: Any) -> Sequence[str]:
        """Every label ``counts`` know, those without instances too (a declared label of a count file)."""
        gold, pred = self.labels_seen(counts)
        return sorted(gold | pred)

    def holds_label_sets(self, counts: Any) -> bool:
        """Whether an instance of ``counts`` holds a set of labels (training labels are then read as sets)."""
        return self.label_sets

    def merge(self, counts: Any, other: Any) -> Any:
        """The counts of two parts together (:meth:`merge_signature` agrees): their ``+``."""
        return counts + other

    def merge_signature(self, counts: Any) -> tuple[Any, ...]:
        """What two counts must share to be added (:meth:`merge`): the kind, and its counting options."""
        return (self.name, *self.options(counts).values())

    def describe(self, counts: Any) -> str:
        """The counts in words, for a message that they cannot be added to others."""
        options = self.options(counts)
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        return f"{self.title}" + (f" ({shown})" if shown else "")

    def options(self, counts: Any) -> dict[str, Any]:
        """The counting options the counts were made with (:attr:`option_names`), by name."""
        return {}

    def read_under(self, counts: Any) -> dict[str, Any]:
        """What ``counts`` were read under that changes them and that a task cannot apply to them afterwards, by name
        (spans: ``scheme`` and ``unit``): their count files hold it, and a task given another value refuses it
        (``score --counts c.json --spans conlleval`` of spans read as ``iob1``). By default the counting options."""
        return self.options(counts)

    def option_notes(self, options: Mapping[str, Any]) -> list[str]:
        """A report's notes on the counting options of a result (its ``options``), one per option."""
        return []

    def to_document(self, counts: Any) -> dict[str, Any]:
        """The fields of a count file that hold ``counts`` (besides schema, version, inputs and options)."""
        raise OptionError(f"{self.title} have no count file")

    def from_document(self, doc: Mapping[str, Any], source: str) -> Any:
        """The counts a count file of this kind holds (``doc`` is its JSON; ``source`` names it in errors)."""
        raise OptionError(f"{self.title} have no count file")

    def units(self, counts: Any) -> Blocks | None:
        """The blocks the counts carry as their own units of resampling (spans: sentences), or ``None``: instances
        are the units unless a reader grouped them."""
        return None

    def unweighted(self, counts: Any) -> Any:
        """The counts with their sample weights dropped, each instance counted once (a kind without sample weights:
        the counts themselves): what warnings on few instances read."""
        return counts

    def n_types(self, counts: Any) -> int:
        """The number of distinct rows: what resampling and the cost of intervals grow with."""
        return len(self.rows(counts)[1])

    # -- scored kinds (family is not None) ------------------------------------------------------------------------

    def rows(self, counts: Any) -> tuple[Sequence[Row], np.ndarray]:
        """The distinct rows of ``counts`` in a canonical order (the order of :meth:`cells`' types and of a seeded
        resample), and each one's count. Canonical: sorted by the rows' labels (names), so that a seeded resample
        gives the same numbers however a reader ordered the labels or the instances — never by a hash, a thread or
        the order in which labels were first seen."""
        raise OptionError(f"{self.title} are not scored as they are")

    def from_rows(self, rows: Mapping[Row, int], labelsets: MultiLabel | None = None) -> Any:
        """Counts of rows with multiplicities (counting options from ``labelsets`` where the kind has them)."""
        raise OptionError(f"{self.title} are not made from rows")

    def cells_of_rows(
        self, rows: Sequence[Row], label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> CellTypes:
        """The cell types of ``rows`` over ``label_set``: the linear map from their weights to every sum a score
        reads (:class:`~clfeval.scoring.cells.CellTypes`); ``table`` is the label order of the matrix."""
        raise OptionError(f"{self.title} are not scored as they are")

    def cells(
        self, counts: Any, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        """The cell types of ``counts``' own rows, and their counts as weights (float64)."""
        rows, weights = self.rows(counts)
        return self.cells_of_rows(rows, label_set, beta=beta, table=table), np.asarray(weights, dtype=np.float64)

    def observed(
        self, counts: Any, label_set: Sequence[str], *, beta: float, table: Sequence[str]
    ) -> tuple[CellTypes, np.ndarray]:
        """The layout of the sums and the sums of ``counts`` (shape (1, D)): what the point estimate reads (a kind
        may give them without building the map, which intervals and tests need)."""
        cells, weights = self.cells(counts, label_set, beta=beta, table=table)
        return cells, cells.sums(weights[None, :])

    def table(self, label_set: Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
        """The labels of the matrix in report order: the label set, then every other label of ``labels``
        (:func:`~clfeval.scoring.cells.table_order`); weighted κ reads positions in it."""
        from clfeval.scoring.cells import table_order

        return table_order(label_set, labels)

    def matrix(self, counts: Any, label_set: Sequence[str], table: Sequence[str]) -> Any:
        """The confusion-matrix view of ``counts`` over ``table`` (the label set first, then every label the
        label-set policy saw), or ``None`` when the kind has none."""
        return None

    def notes(self, counts: Any, label_set: Sequence[str], table: Sequence[str], seen: set[str]) -> list[str]:
        """What a result of these counts should say about how they are scored (``seen``: every label the label-set
        policy saw)."""
        return []

    def warnings(self, counts: Any) -> list[str]:
        """What a result of these counts should warn about, beyond its scores (spans: invalid transitions, spans
        conlleval.pl merged)."""
        return []

    def details(self, counts: Any) -> dict[str, Any] | None:
        """What a result of these counts holds beyond its scores, as JSON (written under the kind's name: the
        ``spans`` object of a span result), or ``None``."""
        return None

    def confusion(self, counts: Any) -> ConfusionCounts | None:
        """``counts`` as a confusion matrix of instances, one cell each (the multinomial model of Takahashi et al.'s
        closed forms), or ``None`` when they are not one."""
        return None

    def errors(self, counts: Any, label_set: Sequence[str]) -> int:
        """How many errors the counts hold, for the warning on few counts: instances predicted wrong (a label set:
        Σ fp + fn over the label set)."""
        rows, weights = self.rows(counts)
        return int(sum(w for row, w in zip(rows, np.asarray(weights).tolist()) if not self.correct(row)))

    # -- pairing (compare) ----------------------------------------------------------------------------------------

    def system_row(self, joint_row: Row, column: int) -> Row:
        """One system's row in a row of joint counts (gold, then each system's prediction, then
        :attr:`joint_extra` values of the instance): ``column`` is the system's position, from 1."""
        return (joint_row[0], joint_row[column])

    def correct(self, row: Row) -> bool:
        """Whether the row's prediction is right (the whole label set, for sets): what McNemar's and the sign test
        count."""
        return bool(row[0] == row[1])

    def counts_metric(self, metric: str) -> bool:
        """Whether ``metric`` names the quantity the counting tests test (:attr:`counted_metric` or an alias)."""
        return metric == self.counted_metric or metric in self.counted_aliases

    def counted_value(self, right: int, n: int, n_units: int) -> float:
        """The counted quantity of a system that gets ``right`` of ``n`` instances right (:meth:`correct`) in
        ``n_units`` units: accuracy, right / n (NaN without instances)."""
        return right / n if n else math.nan

    def right(self, counts: Any) -> int:
        """How many instances of one system's ``counts`` are right (:meth:`correct`)."""
        rows, weights = self.rows(counts)
        return int(sum(w for row, w in zip(rows, np.asarray(weights).tolist()) if self.correct(row)))


class _Registry(Mapping[str, Kind]):
    """The kinds by name; the built-in kinds register on first use (:mod:`clfeval.kinds`)."""

    def __init__(self) -> None:
        self._kinds: dict[str, Kind] = {}
        self._loaded = False

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for module in _BUILT_IN:  # in this order: count files' kinds are listed so in messages
                importlib.import_module(module)  # each registers its kind

    def __getitem__(self, name: str) -> Kind:
        self._load()
        try:
            return self._kinds[name]
        except KeyError:
            raise OptionError(f"unknown kind of counts {name!r}; the kinds are {', '.join(map(repr, self))}") from None

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._kinds

    def get(self, name: str, default: Any = None) -> Any:
        self._load()
        return self._kinds.get(name, default)

    def __iter__(self) -> Iterator[str]:
        """The built-in kinds in :data:`_BUILT_IN`'s order, whichever module was imported first, then the others in the
        order they were registered."""
        self._load()
        order = {module: i for i, module in enumerate(_BUILT_IN)}
        return iter(sorted(self._kinds, key=lambda n: order.get(type(self._kinds[n]).__module__, len(order))))

    def __len__(self) -> int:
        self._load()
        return len(self._kinds)

    def __repr__(self) -> str:
        return f"KINDS({', '.join(self)})"

    def add(self, kind: Kind) -> None:
        self._kinds[kind.name] = kind

    def remove(self, name: str) -> None:
        del self._kinds[name]


#: Every kind of counted data, by name (the ``task`` of its results).
KINDS = _Registry()


def register_kind(kind: Kind) -> Kind:
    """Add ``kind`` to :data:`KINDS` (a kind of the same name is replaced); returns it.

    Raises
    ------
    OptionError
        If another kind's counts are already of the same class, or its document name is taken.
    """
    for other in KINDS.values():
        if other.name == kind.name:
            continue
        if other.counts_type is kind.counts_type:
            raise OptionError(f"{kind.counts_type.__name__} are already the counts of the kind {other.name!r}")
        if kind.document is not None and other.document == kind.document:
            raise OptionError(f"the count-file kind {kind.document!r} is already the kind {other.name!r}'s")
    KINDS.add(kind)
    return kind


def unregister_kind(name: str) -> None:
    """Remove the kind ``name`` from :data:`KINDS` (a kind registered for a while, as a test does)."""
    KINDS.remove(name)


def kind_of(counts: object) -> Kind | None:
    """The registered kind whose counts ``counts`` are, or ``None`` (not counts: labels, a reader's result …)."""
    for kind in KINDS.values():
        if isinstance(counts, kind.counts_type):
            return kind
    return None


def document_kind(name: object) -> Kind | None:
    """The kind whose count files have the ``kind`` field ``name``, or ``None``."""
    return next((k for k in KINDS.values() if k.document is not None and k.document == name), None)
