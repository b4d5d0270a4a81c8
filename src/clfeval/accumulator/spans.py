"""The accumulator of a tagger's spans: sentences of tags (or entities) batch by batch, in an evaluation loop.

::

    acc = clfeval.Accumulator("spans", spans="iob2")
    for batch in loader:
        acc.update(batch.gold_tags, decode(model(batch)))     # one list of tags per sentence
    acc.score(ci="bootstrap")                                 # sentences are the units

A token classifier's evaluation loop hands over tag ids, not tags: name the tag of each id (the model config's
``id2label``, a mapping or a list) and update with the (n, T) gold ids, padded with −100 (``ignore_index``), and the
predicted ids or the (n, T, C) logits::

    acc = clfeval.Accumulator("spans", spans="iob2", id2label=model.config.id2label)
    for batch in loader:
        acc.update(batch["labels"], model(**batch).logits)    # positions labelled −100 are left out

``clfeval.Accumulator("spans", ...)`` makes one (:class:`SpanAccumulator`, an :class:`~clfeval.Accumulator`). Each
update counts its sentences' spans under the scheme (:meth:`clfeval.spans.TagSequences.count`: array operations, no
per-token Python) and keeps them as :class:`~clfeval.spans.SpanCounts` numbered after the sentences before, so the
whole is what one call on every sentence gives, per-sentence units included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from clfeval.accumulator import Accumulator
from clfeval.errors import InputError, OptionError
from clfeval.spans.tags import bad_tag

if TYPE_CHECKING:
    from clfeval.infer.methods import CI
    from clfeval.inputs.readers import Counted
    from clfeval.kinds import Counts
    from clfeval.scoring.options import Scoring
    from clfeval.scoring.scores import Scores
    from clfeval.spans.counts import SpanCounts
    from clfeval.spans.options import Spans

__all__ = ["SpanAccumulator"]

#: Parts kept before they are joined into one (a join costs the parts' size; joining every update would cost the
#: square of the updates).
_PARTS = 64


class SpanAccumulator(Accumulator):
    """Span counts of a tagger, updated batch by batch: what ``clfeval.Accumulator("spans", spans=SCHEME)`` makes.

    Parameters
    ----------
    task
        ``"spans"``.
    labels
        The declared types, in report order: scores average over them (types never seen included), and a span of
        another type is an :class:`~clfeval.InputError`. Without them scores use the types seen.
    spans
        The scheme (a name of :data:`clfeval.SCHEMES`, ``True`` for ``conlleval``, or a :class:`~clfeval.Spans`);
        entity lists need none.
    id2label
        The tag of each id (a list, or a mapping of ids 0 … C−1 as a model config holds it): updates then take
        (n, T) arrays of tag ids, gold padded with ``ignore_index``, predictions as ids or (n, T, C) logits. The
        types these tags name are the declared types (unless ``labels`` declares them).
    ignore_index
        With ``id2label``, the gold id of positions that are not tokens (−100, the Trainer's padding and a word's
        later sub-word pieces): left out of both gold and predictions (``None`` keeps every position).

    Examples
    --------
    >>> acc = Accumulator("spans", spans="iob2")
    >>> acc.update([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
    >>> acc.update([["B-LOC"], ["O"]], [["B-ORG"], ["O"]])
    >>> acc.n, acc.n_sentences, round(acc.score()["micro.f1"], 4)
    (3, 3, 0.5)
    """

    def __init__(
        self,
        task: str = "spans",
        labels: Iterable[Any] | None = None,
        *,
        multilabel: Any = None,
        spans: str | Spans | bool | None = None,
        id2label: Sequence[Any] | Mapping[Any, Any] | None = None,
        ignore_index: int | None = -100,
        invalid: Any = None,
        groups: Any = None,
    ) -> None:
        if groups not in (None, False):
            raise OptionError("groups= makes a grouped accumulator: call clfeval.Accumulator(..., groups=...)")
        if invalid is not None:
            raise OptionError(
                "invalid= applies to single-label predictions: a tag or a score has no one label to count"
            )
        from clfeval.count.labelnames import names_by_id
        from clfeval.spans.options import Spans
        from clfeval.spans.schemes import scheme_of

        if task != "spans":
            raise OptionError(f"a span accumulator counts spans, not {task}")
        if multilabel is not None:
            raise OptionError("multilabel options are for task='multi-label'")
        if isinstance(labels, (str, bytes)):
            raise OptionError(f"labels is a collection of types, not the string {labels!r}")
        self.task = task
        self.multilabel = None
        chosen = Spans.of(True if spans is None else spans)
        assert chosen is not None  # True is conlleval
        self.spans: Spans = chosen
        self.id2label: tuple[str, ...] | None = None
        self.ignore_index = ignore_index
        if id2label is not None:
            as_map = isinstance(id2label, Mapping)
            names = names_by_id(None if as_map else id2label, id2label if as_map else None, None)  # type: ignore[arg-type]
            assert names is not None
            self.id2label = tuple(names)
            bad = next((t for t in names if bad_tag(t, scheme_of(self.spans.scheme)) is not None), None)
            if bad is not None:
                raise OptionError(f"id2label: {bad_tag(bad, scheme_of(self.spans.scheme))}")
            if labels is None:
                labels = sorted({t[2:] for t in names if t != "O"})
        elif ignore_index != -100:
            raise OptionError("ignore_index is for tag ids: give id2label, the tag of each id")
        declared = None if labels is None else tuple(str(t) for t in labels)
        if declared is not None and len(set(declared)) != len(declared):
            raise OptionError(
                f"the declared types repeat: {', '.join(sorted({t for t in declared if declared.count(t) > 1}))}"
            )
        self._declared = declared
        self.reset()

    def reset(self) -> None:
        """Forget every count (declared types stay)."""
        self._parts: list[SpanCounts] = []
        self._sentences = 0
        self._updates = 0

    @property
    def labels(self) -> tuple[str, ...]:
        """The declared types, or the types seen so far (sorted)."""
        if self._declared is not None:
            return self._declared
        return self.counts.types if self._parts else ()

    @property
    def label_origin(self) -> str:
        """``declared`` or ``seen``."""
        return "seen" if self._declared is None else "declared"

    @property
    def n(self) -> int:
        """The spans counted: gold spans plus spurious predicted spans (a matched pair once)."""
        return self.counts.n_instances if self._parts else 0

    @property
    def n_sentences(self) -> int:
        """The sentences counted."""
        return self._sentences

    @property
    def counts(self) -> SpanCounts:  # type: ignore[override]
        """The span counts of every sentence so far, with their sentences as units."""
        from clfeval.spans.counts import joined
        from clfeval.spans.sequences import TagSequences

        if not self._parts:
            empty = TagSequences((), (_none(), _none()), _zero_offsets())
            return empty.count(self.spans.scheme, "sentences", details=self.spans.details)
        if len(self._parts) > 1:
            self._parts = [joined(self._parts)]
        return self._parts[0]

    def update(self, gold: Any, pred: Any, *, sample_weight: Any = None, groups: Any = None) -> None:
        """Add a batch of sentences: gold and predicted, one list of tags (or of entities) per sentence; with
        ``id2label``, (n, T) arrays of tag ids (gold padded with ``ignore_index``) and predicted ids or (n, T, C)
        logits, one row per sentence (numpy arrays, tensors on the CPU, lists).

        Raises
        ------
        InputError
            Naming the update, the column and the sentence: a sentence of another length, a tag without a valid
            prefix, an entity that holds no token, a type outside the declared ones.
        """
        if groups is not None:
            raise OptionError(
                "this accumulator does not count by group: make it with clfeval.Accumulator(..., groups=True) (or "
                "the group columns' names)"
            )
        if sample_weight is not None:
            raise OptionError(
                "sample_weight= is not taken with spans: span scores (as seqeval's) have no instance weights"
            )
        from clfeval.spans.lists import columns_of_lists
        from clfeval.spans.sequences import SpanLists, TagSequences

        where = f"update {self._updates + 1}"
        if self.id2label is not None:  # tensors, lists, frames as arrays (the labels' accumulator's reading)
            from clfeval.accumulator.batches import _array

            gold, pred = _array(gold, "gold", where), _array(pred, "pred", where)
        found: TagSequences | SpanLists
        try:
            if self.id2label is not None:
                from clfeval.spans.lists import columns_of_ids

                found = columns_of_ids(gold, pred, self.id2label, self.ignore_index)
            else:
                found = columns_of_lists([gold, pred], ["gold", "pred"])
            if isinstance(found, TagSequences):
                found = replace(found, first_sentence=self._sentences)  # sentences numbered after the earlier ones
                counts = found.count(self.spans.scheme, "sentences", details=self.spans.details)
            else:
                counts = _after(
                    found.count(self.spans.scheme, "sentences", details=self.spans.details), self._sentences
                )
        except InputError as exc:
            raise InputError(
                exc.message, f"{where}, {exc.source}" if exc.source else where, exc.line, index=exc.index
            ) from None
        if self._parts and counts.scheme != self._parts[0].scheme:
            what = {"entities": "entity lists"}
            raise InputError(
                f"this batch holds {what.get(counts.scheme, 'tags')}, the earlier ones "
                f"{what.get(self._parts[0].scheme, 'tags')}: an accumulator takes one or the other",
                where,
            )
        if self._declared is not None:
            outside = sorted(set(counts.types) - set(self._declared))
            if outside:
                raise InputError(
                    f"the type {outside[0]!r} is not among the declared types {list(self._declared)}", where
                )
        self._parts.append(counts)
        self._sentences += found.n_sentences
        if len(self._parts) > _PARTS:
            self.counts  # noqa: B018 - joins the parts
        self._updates += 1

    def merge(self, other: Accumulator) -> Accumulator:
        """Add ``other``'s spans into this accumulator, in place (its sentences after these), and return it.

        Raises
        ------
        OptionError
            If ``other`` is not a span accumulator, or reads another scheme, or declares other types.
        """
        if not isinstance(other, SpanAccumulator):
            raise OptionError(f"a span accumulator merges with a span accumulator, not {type(other).__name__}")
        if other.spans.scheme != self.spans.scheme:
            raise OptionError(
                f"cannot merge spans read with {other.spans.scheme} into spans read with {self.spans.scheme}"
            )
        if self._declared is not None and other._declared is not None and set(self._declared) != set(other._declared):
            raise OptionError("cannot merge span accumulators that declare different types")
        if other._parts:
            self._parts.append(_after(other.counts, self._sentences))
        self._sentences += other._sentences
        self._updates += other._updates
        return self

    def copy(self) -> SpanAccumulator:
        """An independent copy."""
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._parts = list(self._parts)  # counts are immutable
        return out

    def counted(self) -> Counted:
        """The counts with their provenance, and their sentences as the units."""
        from clfeval.inputs.readers import Counted

        counts = self.counts
        options: dict[str, Any] = {"labels": self.label_origin}
        if self._declared is not None:
            options["label_set"] = list(self._declared)
        return Counted(
            counts, blocks=counts.blocks, inputs={"source": "accumulator", "updates": self._updates}, options=options
        )

    def scoring_labels(self) -> tuple[str, ...] | None:
        """The declared types, or ``None`` for the types seen."""
        return self._declared

    def score(self, *, ci: str | CI | None = "none", scoring: Scoring | None = None, **kwargs: Any) -> Scores:
        """Score the spans so far (:func:`clfeval.score` of :meth:`counted`; intervals resample sentences).

        Raises
        ------
        InputError
            If no sentence has been counted yet.
        """
        from clfeval.api import score

        if not self._sentences:
            raise InputError("nothing to score: the accumulator has counted no sentences")
        return score(self.counted(), scoring=self._scoring_of(scoring, kwargs), ci=ci, **kwargs)

    def _scoring_of(self, scoring: Scoring | None, kwargs: dict[str, Any]) -> Scoring:
        """The scoring of :meth:`score`: ``scoring`` with the declared types unless it names its own."""
        from clfeval.scoring.options import Scoring

        chosen = Scoring.of(scoring)
        if self._declared is not None and chosen.labels is None and chosen.labels_from is None:
            chosen = replace(chosen, labels=self._declared)
        return chosen

    @classmethod
    def from_counts(cls, counts: Counts, labels: Iterable[Any] | None = None) -> SpanAccumulator:
        """A span accumulator starting from span counts (with their units), as one update."""
        from clfeval.kinds import KINDS, kind_of

        if kind_of(counts) is not KINDS["spans"]:
            raise OptionError(f"a span accumulator starts from SpanCounts, not {type(counts).__name__}")
        counts = cast("SpanCounts", counts)
        scheme = counts.scheme if counts.scheme in _schemes() else None
        out = cls("spans", labels, spans=scheme)
        if labels is not None:
            outside = sorted(set(counts.types) - set(out._declared or ()))
            if outside:
                raise InputError(f"the type {outside[0]!r} is not among the declared types", "counts")
        out._parts = [counts]
        out._sentences = counts.n_sentences
        out._updates = 1
        return out

    def __repr__(self) -> str:
        return (
            f"Accumulator(spans, {self.spans.scheme}, {len(self.labels)} types ({self.label_origin}), "
            f"{self._sentences:,} sentences, {self.n:,} spans, {self._updates} updates)"
        )


def _after(counts: SpanCounts, sentences: int) -> SpanCounts:
    """Counts whose units (sentences) are numbered from 0, numbered after ``sentences`` earlier ones."""
    blocks = counts.blocks
    if blocks is None or not sentences:
        return counts
    shifted = replace(blocks, block=blocks.block + sentences, n_blocks=blocks.n_blocks + sentences)
    return replace(counts, blocks=shifted)


def _schemes() -> Any:
    from clfeval.spans.schemes import SCHEMES

    return SCHEMES


def _none() -> Any:
    import numpy as np

    return np.zeros(0, dtype=np.int32)


def _zero_offsets() -> Any:
    import numpy as np

    return np.zeros(1, dtype=np.int64)
