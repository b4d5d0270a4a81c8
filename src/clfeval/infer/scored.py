"""Intervals of scored predictions' scores: DeLong's for the AUC of each score column, and the count bootstrap for
every score (multinomial draws over the distinct (gold, scores) rows, each score recomputed on each draw: percentile
intervals).

Instances in blocks (the sentences of a document, the images of a patient; :class:`ScoreBlocks`) are not independent:
the bootstrap then draws whole blocks, randomization swaps whole blocks, and DeLong's variance is Obuchowski's
clustered one over the blocks.

With sample weights each distinct row is (gold, scores, weight): the bootstrap draws instances (or blocks) that keep
their weights — a multinomial over the rows' instance counts m, the scores read Σ m*·w — and randomization swaps an
instance's two systems' scores, its weight with them. DeLong's variance is not derived for weights: refused, naming
the bootstrap."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from clfeval.count.scored import ScoreCounts
from clfeval.errors import OptionError
from clfeval.infer.comparison import Paired, PairTest, pair_stream
from clfeval.infer.delong import delong
from clfeval.kinds.scored import ScoredKind
from clfeval.progress import phase
from clfeval.result import TEXT_FORMATS, Folded, FrozenDict, Result, json_number
from clfeval.scoring.batched import ScoredMeasures, batch_size, in_batches

__all__ = [
    "SCORED_CV_SCHEMA",
    "SCORED_PAIRS_SCHEMA",
    "ScoreBlocks",
    "ScoredCV",
    "ScoredComparison",
    "compare_joint",
    "compare_scored",
    "gold_codes",
    "paired_scored",
    "scored_intervals",
]

#: The kind these computations are of: the registries' entries name their computation for it.
_KIND = ScoredKind.name

#: The largest share of bootstrap draws without a value (a draw with no positive of a class has no AUC) that an
#: interval leaves out; with more, the score gets no interval. The count is in the result (``not_estimable``).
MOST_UNDEFINED = 0.05

#: The most jackknife units (distinct rows, blocks) left out one at a time; beyond, units are left out in groups.
JACKKNIFE_UNITS = 2000
JACKKNIFE_GROUPS = 200


#: Instances are drawn one by one (uniform draws over the instances, counted per row) while there are at most this many
#: times as many instances as rows; beyond, one multinomial draw over the rows. Both are the same distribution (a
#: resample of the n instances with replacement); the rule only picks the cheaper (an instance costs a few ns to draw,
#: a row of numpy's conditional binomials some 80 ns), and both depend on the seed, the counts and their order alone.
INSTANCE_DRAWS = 16


def resampled_counts(rng: np.random.Generator, count: np.ndarray, size: int) -> np.ndarray:
    """``size`` bootstrap resamples (size × units) of the n = Σ ``count`` instances in units (distinct rows, blocks)
    of ``count`` instances each: each resample n instances drawn with replacement, counted per unit — n uniform draws
    over the instances while n ≤ :data:`INSTANCE_DRAWS` × units, else ``rng.multinomial(n, count / n)``. A batch of
    ``size`` draws the same numbers as ``size`` batches of one, one after another."""
    count = np.asarray(count, dtype=np.int64)
    n, units = int(count.sum()), len(count)
    if n > INSTANCE_DRAWS * units:
        return np.asarray(rng.multinomial(n, count / n, size=size))
    ones = bool((count == 1).all())
    unit_of = None if ones else np.repeat(np.arange(units), count)  # one instance a unit: drawn as it is
    out = np.empty((size, units), dtype=np.int64)
    step = max(1, (4 << 20) // max(n, 1))  # at most 32 MB of drawn instances at a time
    for at in range(0, size, step):
        drawn = rng.integers(0, n, size=(min(step, size - at), n))
        for b, instances in enumerate(drawn):
            out[at + b] = np.bincount(instances if unit_of is None else unit_of[instances], minlength=units)
    return out


def wald(auc: float, variance: float, confidence: float, logit: bool) -> tuple[float, float] | None:
    """A ± z √Var clipped to [0, 1], or (``logit``) the interval of logit(A) ± z √Var / (A (1 − A)) taken back
    through the logistic function; ``None`` where it does not exist (a variance that is not positive: every score
    tied, one positive; logit: A of 0 or 1)."""
    from statistics import NormalDist

    if not (np.isfinite(auc) and np.isfinite(variance)) or variance <= 0:  # no variance (every score tied …): none
        return None
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    sd = float(np.sqrt(max(variance, 0.0)))
    if not logit:
        return max(0.0, auc - z * sd), min(1.0, auc + z * sd)
    if not 0 < auc < 1:
        return None
    centre, half = float(np.log(auc / (1 - auc))), z * sd / (auc * (1 - auc))
    return float(1 / (1 + np.exp(-(centre - half)))), float(1 / (1 + np.exp(-(centre + half))))


def _averaged_intervals(
    counts: ScoreCounts, confidence: float, blocks: ScoreBlocks | None, logit: bool = False
) -> dict[str, tuple[float, float]]:
    """DeLong's intervals of the averaged AUCs (:data:`AVERAGED`): :func:`wald` with Var from the per-instance terms
    (:func:`averaged_auc_terms`; blocks: clustered)."""
    from clfeval.infer.delong import influence_variance

    if blocks is None:
        gold, scores, weight, cluster = counts.gold, counts.scores, counts.count, None
    else:
        gold, scores, weight, cluster = blocks.gold, blocks.scores, blocks.count, blocks.block
    out = {}
    for name, average in AVERAGED.items():
        value, terms = averaged_auc_terms(counts, gold, scores, weight, average)
        bounds = wald(value, influence_variance(terms, weight, cluster), confidence, logit)
        if bounds is not None:
            out[name] = bounds
    return out


@dataclass(frozen=True, eq=False)
class ScoreBlocks:
    """Scored predictions in blocks: the distinct (block, gold, scores …) rows with their counts (``scores`` may hold
    several systems' columns side by side), and each row's block among ``n_blocks``.

    Rows are distinct within a block only, so that a draw of blocks (or a swap of a block's systems) weighs each row
    by its block's draw: row r stands for ``count[r] · draw[block[r]]`` instances.
    """

    gold: np.ndarray
    scores: np.ndarray
    count: np.ndarray
    block: np.ndarray
    n_blocks: int
    weight: np.ndarray | None = None

    @classmethod
    def of_arrays(
        cls, codes: np.ndarray, scores: np.ndarray, blocks: Any, weight: np.ndarray | None = None
    ) -> ScoreBlocks:
        """Rows of instances (gold codes, an (n, c) array of scores; ``weight``: each instance's sample weight) in
        ``blocks`` (each instance's block: any labels, a sentence number, a document name). Blocks are numbered in
        the order of their contents (:func:`~clfeval.infer.units.content_ranks`), so a seeded draw gives the same
        numbers whatever the blocks' names and order."""
        from clfeval.infer.units import content_ranks

        given = np.asarray(blocks)
        if given.ndim != 1 or len(given) != len(codes):
            raise OptionError(f"blocks gives each instance its block: {len(codes)} instances, blocks of {given.shape}")
        names, block = np.unique(given, return_inverse=True)
        if len(names) < 2:
            raise OptionError(
                f"the instances are in {len(names)} block: blocks are the units that intervals and tests resample, "
                "so give at least two (a file without blank lines, or a block column with one value, has one)"
            )
        width = 1 if codes.ndim == 1 else codes.shape[1]  # multi-label: a 0/1 gold row
        values = np.column_stack([codes, scores.reshape(len(codes), -1)]).astype(np.float64)
        if weight is not None:  # a row's last value is its weight
            values = np.column_stack([values, weight])
        item = np.unique(values, axis=0, return_inverse=True)[1].reshape(-1)
        block = block.reshape(-1)
        block = content_ranks(block, item)[block]  # numbered by their contents: the draws depend on no name or order
        table = np.column_stack([block, values])
        rows, inverse = np.unique(table, axis=0, return_inverse=True)
        count = np.bincount(inverse.reshape(-1), minlength=len(rows)).astype(np.int64)
        gold = rows[:, 1].astype(np.int64) if codes.ndim == 1 else rows[:, 1 : 1 + width].astype(np.int8)
        end = rows.shape[1] - (weight is not None)
        return cls(gold, rows[:, 1 + width : end], count, rows[:, 0].astype(np.int64), len(names),
                   None if weight is None else rows[:, end])  # fmt: skip

    def rows(self, template: ScoreCounts) -> tuple[ScoreCounts, np.ndarray]:
        """The rows as a table of ``template``'s classes and columns that counts can be put on (see :func:`_view`)."""
        return _view(template, self.gold, self.scores, self.weight)

    def drawn(self, rng: np.random.Generator, size: int = 1) -> np.ndarray:
        """The rows' counts (size × rows) in ``size`` bootstrap draws of whole blocks (B blocks drawn with replacement
        from B: :func:`resampled_counts` of the blocks)."""
        per_block = resampled_counts(rng, np.ones(self.n_blocks, dtype=np.int64), size)
        return np.asarray(self.count * per_block[:, self.block])

    def swapped(self, rng: np.random.Generator, size: int = 1) -> np.ndarray:
        """The rows' counts (size × rows) whose two systems are swapped in ``size`` randomization rounds: a whole
        block, or none of it."""
        return np.asarray(self.count * rng.integers(0, 2, (size, self.n_blocks))[:, self.block])


def delong_intervals(
    counts: ScoreCounts,
    confidence: float,
    blocks: ScoreBlocks | None,
    logit: bool,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, tuple[float, float]]:
    """DeLong's intervals (``logit``: on the logit scale) of every score column's AUC and, multi-class and
    multi-label, of the averaged AUCs: the ``delong`` and ``delong-logit`` entries of
    :data:`~clfeval.infer.methods.INTERVAL_METHODS`. With ``blocks``, Obuchowski's clustered variance. Each column is
    one vectorised computation; ``progress`` is called with (done, total) columns."""
    out: dict[str, tuple[float, float]] = {}
    for c, name in enumerate(counts.columns):
        if progress is not None and c:
            progress(c, len(counts.columns))
        values, pos, neg = counts.column(c)
        if pos.sum() < 2 or neg.sum() < 2:
            continue
        if blocks is None:
            score = np.r_[values, values]
            positive = np.r_[np.ones(len(values), bool), np.zeros(len(values), bool)]
            d = delong(positive, score, np.r_[pos, neg], confidence=confidence)
        else:
            d = delong(counts.positives(blocks.gold, c), blocks.scores[:, c], blocks.count,
                       confidence=confidence, cluster=blocks.block)  # fmt: skip
        bounds = wald(d.auc, d.variance, confidence, logit)
        if bounds is None:
            continue
        out[f"per_label.{name}.auc"] = bounds
        if counts.binary:
            out["auc"] = bounds
    if not counts.binary:
        out.update(_averaged_intervals(counts, confidence, blocks, logit))
    if progress is not None:
        progress(len(counts.columns), len(counts.columns))
    return out


@dataclass(eq=False)
class ScoredRun:
    """One computation of scored predictions' intervals: what an entry of
    :data:`~clfeval.infer.methods.INTERVAL_METHODS` computes for the ``scored`` kind (its ``kind_computations``)
    reads. ``measures`` gives every score of counts; ``ci`` is the :class:`~clfeval.CI` group."""

    counts: ScoreCounts
    measures: ScoredMeasures
    ci: Any
    blocks: ScoreBlocks | None
    progress: Callable[[int, int], None] | None


def scored_intervals(
    counts: ScoreCounts,
    measures: ScoredMeasures,
    ci: Any,
    *,
    blocks: ScoreBlocks | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, tuple[float, float]], dict[str, Any]]:
    """The intervals of the scores ``measures`` computes, by ``ci`` (a :class:`~clfeval.CI`: its method from
    :data:`~clfeval.infer.methods.INTERVAL_METHODS`, confidence, resamples and seed), and what the result records of
    the method: the entry's computation for the ``scored`` kind runs. With ``blocks`` (the same instances in their
    blocks), the bootstrap draws whole blocks and DeLong's variance is the clustered one. ``progress`` is called with
    (done, total) resamples."""
    from clfeval.infer.methods import INTERVAL_METHODS

    spec = INTERVAL_METHODS[ci.method]
    if not spec.applies_to(_KIND):
        raise OptionError(
            f"{ci.method} intervals are not for scored predictions; one of "
            f"{', '.join(k for k, m in INTERVAL_METHODS.items() if m.applies_to(_KIND) and k != 'none')}"
        )
    found: tuple[dict[str, tuple[float, float]], dict[str, Any]] = spec.compute_for(
        _KIND, ScoredRun(counts, measures, ci, blocks, progress)
    )
    return found


def delong_run(run: ScoredRun) -> tuple[dict[str, tuple[float, float]], dict[str, Any]]:
    """The ``delong`` and ``delong-logit`` intervals of scored predictions (:func:`delong_intervals`)."""
    method, confidence, blocks = run.ci.method, run.ci.confidence, run.blocks
    from clfeval.infer.methods import INTERVAL_METHODS

    if run.counts.weighted:
        raise OptionError(WEIGHTED_DELONG.format(what="intervals", use="ci='bootstrap' (--ci bootstrap)"))

    out = delong_intervals(run.counts, confidence, blocks, method == "delong-logit", phase(run.progress, "DeLong"))
    definition = INTERVAL_METHODS[method].definition_for(_KIND) + (CLUSTERED if blocks is not None else "")
    unit = {} if blocks is None else {"unit": "block", "n_blocks": blocks.n_blocks}
    return out, {"method": method, "confidence": confidence, "definition": definition, **unit}


def bootstrap_run(run: ScoredRun) -> tuple[dict[str, tuple[float, float]], dict[str, Any]]:
    """The ``bootstrap`` and ``bootstrap-bca`` intervals of scored predictions: multinomial draws over the distinct
    rows (or whole blocks; :func:`resampled_counts`), every score recomputed on each, a batch of draws at once
    (:class:`~clfeval.scoring.batched.BatchedScores`); BCa's acceleration from the jackknife (:func:`_bca`)."""
    from clfeval.infer.methods import INTERVAL_METHODS

    counts, measures, blocks, progress = run.counts, run.measures, run.blocks, phase(run.progress, "bootstrap")
    method, confidence, resamples, seed = run.ci.method, run.ci.confidence, run.ci.resamples, run.ci.seed
    unit = {} if blocks is None else {"unit": "block", "n_blocks": blocks.n_blocks}
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    rng = np.random.default_rng(seed)
    rows, order = (counts, None) if blocks is None else blocks.rows(counts)
    scorer = measures.batched(rows)

    def drawn(size: int) -> np.ndarray:
        return resampled_counts(rng, counts.count, size) if blocks is None else blocks.drawn(rng, size)[:, order]

    found = in_batches(drawn, scorer, resamples, batch_size(len(rows.count)), progress)
    draws = {name: np.concatenate([f[name] for f in found]) for name in (found[0] if found else {})}
    alpha = 1 - confidence
    out = {}
    not_estimable: dict[str, int] = {}
    kept: dict[str, np.ndarray] = {}
    for name, values in draws.items():
        x = np.array(values, dtype=np.float64)
        bad = int(np.isnan(x).sum())
        if bad:  # draws without a value (no positive of a class among them): counted, and left out when few
            not_estimable[name] = bad
            if bad > MOST_UNDEFINED * len(x):
                continue
            x = x[~np.isnan(x)]
        kept[name] = x
        low, high = np.quantile(x, [alpha / 2, 1 - alpha / 2])
        out[name] = (float(low), float(high))
    jackknife = None
    if INTERVAL_METHODS[method].bca:
        out, jackknife = _bca(counts, measures, kept, alpha, rng, blocks, phase(run.progress, "BCa jackknife"))
    info = {
        "method": method,
        "confidence": confidence,
        "resamples": resamples,
        "seed": seed,
        "definition": INTERVAL_METHODS[method].definition_for(_KIND) + (BLOCKED if blocks is not None else ""),
        "not_estimable": not_estimable,
        **unit,
        **({} if jackknife is None else {"jackknife": jackknife}),
    }
    return out, info


def _bca(
    counts: ScoreCounts,
    measures: ScoredMeasures,
    draws: Mapping[str, np.ndarray],
    alpha: float,
    rng: np.random.Generator,
    blocks: ScoreBlocks | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, tuple[float, float]], str]:
    """BCa intervals of the scores with bootstrap ``draws`` (``bootstrap-bca`` of
    :data:`~clfeval.infer.methods.INTERVAL_METHODS`), and which jackknife gave
    the acceleration; ``progress`` is called with (done, total) units (or groups) left out."""
    from clfeval.infer.bootstrap import bca_levels

    estimate = measures(counts)
    if blocks is None:
        rows, order = counts, np.arange(len(counts.count))
        unit_of, base = np.arange(len(counts.count)), counts.count
        instances = True
    else:
        rows, order = blocks.rows(counts)
        unit_of, base = blocks.block, blocks.count
        instances = False
    units = int(unit_of.max()) + 1 if len(unit_of) else 0
    if instances and units <= JACKKNIFE_UNITS:  # each instance left out: one per distinct row, weighted by its count
        weights = base.astype(np.float64)
        left: Iterable[np.ndarray] = (base - (np.arange(len(base)) == u) for u in range(units))
        how = f"instances ({units} distinct rows)"
    elif units <= JACKKNIFE_UNITS:  # each block left out
        weights = np.ones(units)
        left = (np.where(unit_of == u, 0, base) for u in range(units))
        how = f"blocks ({units})"
    elif instances:  # the delete-a-group jackknife: instances in random order, cut into groups of n/G each
        order_ = rng.permutation(len(base))
        end = np.empty(len(base))
        end[order_] = np.cumsum(base[order_])
        start = end - base
        n = float(base.sum())
        edges = np.linspace(0.0, n, JACKKNIFE_GROUPS + 1)
        weights = np.ones(JACKKNIFE_GROUPS)
        left = (
            base - np.clip(np.minimum(end, hi) - np.maximum(start, lo), 0, None).astype(np.int64)
            for lo, hi in zip(np.floor(edges[:-1]), np.floor(edges[1:]))
        )  # one group at a time
        how = f"{JACKKNIFE_GROUPS} groups of instances"
    else:  # groups of blocks, each left out
        group = rng.permutation(units)[unit_of] % JACKKNIFE_GROUPS
        weights = np.ones(JACKKNIFE_GROUPS)
        left = (np.where(group == g, 0, base) for g in range(JACKKNIFE_GROUPS))
        how = f"{JACKKNIFE_GROUPS} groups of blocks"
    scorer = measures.batched(rows)
    values: dict[str, list[np.ndarray]] = {name: [] for name in draws}
    step, done, pending = batch_size(len(order)), 0, []
    for i, w in enumerate(left, 1):  # the left-out counts scored a batch at a time
        pending.append(np.asarray(w)[order])
        if len(pending) < step and i < len(weights):
            continue
        found = scorer(np.stack(pending))
        for name in draws:
            values[name].append(found.get(name, np.full(len(pending), np.nan)))
        done, pending = done + len(pending), []
        if progress is not None:
            progress(done, len(weights))
    out: dict[str, tuple[float, float]] = {}
    for name, x in draws.items():
        theta = np.concatenate(values[name]) if values[name] else np.zeros(0)
        if np.isnan(theta).any() or not np.isfinite(estimate.get(name, float("nan"))):
            continue
        mean = weights @ theta / weights.sum()
        dev = mean - theta
        moments = (np.array([weights @ dev**2]), np.array([weights @ dev**3]))
        low, high, none = bca_levels(np.array([estimate[name]]), x.reshape(-1, 1), moments, alpha)
        if none[0]:
            continue
        q = np.quantile(x, [float(low[0]), float(high[0])])
        out[name] = (float(q[0]), float(q[1]))
    return out, how


#: Why DeLong's interval and test are refused with sample weights, and what applies.
WEIGHTED_DELONG = (
    "DeLong's {what} are not derived for sample weights: use {use}, which resamples instances with their weights"
)

#: What blocks change in DeLong's variance, and in the resampling methods.
CLUSTERED = (
    "; in blocks, Obuchowski's (1997) clustered variance over the blocks (I10/(I10 − 1), I01/(I01 − 1): the blocks "
    "with a positive, with a negative)"
)
BLOCKED = "; in blocks, whole blocks are drawn (randomization: swapped)"


def _view(
    counts: ScoreCounts, gold: np.ndarray, scores: np.ndarray, weight: np.ndarray | None = None
) -> tuple[ScoreCounts, np.ndarray]:
    """Rows as a ScoreCounts table without merging equal ones (so that counts can move between them), in the order
    its functions read (one column: by score); ``weight``: each row's sample weight, which stays with the row.
    Returns the table and the order to put counts in."""
    order = np.argsort(scores[:, 0], kind="stable") if scores.shape[1] == 1 else np.arange(len(gold))
    out = object.__new__(ScoreCounts)
    for name, value in (
        ("labels", counts.labels),
        ("columns", counts.columns),
        ("gold", gold[order]),
        ("scores", scores[order]),
        ("count", np.zeros(len(gold), dtype=np.int64)),
        ("weight", None if weight is None else np.asarray(weight, dtype=np.float64)[order]),
    ):
        object.__setattr__(out, name, value)
    return out, order


@dataclass(eq=False)
class ScoredPair:
    """One pair of systems' scores to test: what an entry of :data:`~clfeval.infer.pairtests.TESTS` computes for the
    ``scored`` kind (its ``kind_computations``) reads — the rows (gold, A's scores, B's scores) with their counts, the
    classes and columns (``template``), the scores of counts (``measures``), the metrics, the
    :class:`~clfeval.Test` group, the pair's random stream, the blocks, the progress callback and each row's sample
    weight (``None``: none)."""

    joint_gold: np.ndarray
    scores_a: np.ndarray
    scores_b: np.ndarray
    count: np.ndarray
    template: ScoreCounts
    measures: ScoredMeasures
    metrics: list[str]
    test: Any
    rng: np.random.Generator
    blocks: ScoreBlocks | None
    progress: Callable[[int], None] | None
    weight: np.ndarray | None = None
    orders: tuple[np.ndarray, np.ndarray] | None = None  # each system's rows in score order, where known (one column)

    def __post_init__(self) -> None:
        from clfeval.infer.pairtests import TESTS

        if TESTS[self.test.name].random:  # the resampling tests: each system's scores of the rows, the metrics known
            self.check()

    @cached_property
    def a_view(self) -> ScoreCounts:
        """A's rows as a table that counts can be put on (:func:`_view`), put in order by :attr:`a_order`."""
        view, self.a_order = _view(self.template, self.joint_gold, self.scores_a, self.weight)
        return view

    @cached_property
    def b_view(self) -> ScoreCounts:
        """B's rows as a table that counts can be put on (:func:`_view`), put in order by :attr:`b_order`."""
        view, self.b_order = _view(self.template, self.joint_gold, self.scores_b, self.weight)
        return view

    @cached_property
    def base_a(self) -> dict[str, float]:
        """A's scores of the rows."""
        return self.measures(self.a_view.with_counts(self.count[self.a_order]))

    @cached_property
    def base_b(self) -> dict[str, float]:
        """B's scores of the rows."""
        return self.measures(self.b_view.with_counts(self.count[self.b_order]))

    def check(self) -> None:
        """Refuse a metric that is no score of these systems (naming its new name where it was renamed)."""
        for m in self.metrics:
            if m not in self.base_a:
                from clfeval.scoring.scored import renamed

                new = renamed(m)
                hint = f" (it is named {new!r})" if new is not None else ""
                raise OptionError(f"unknown score {m!r}{hint}; the scores: {', '.join(self.base_a)}")

    def resampled(
        self,
        draw: Callable[[int], Any],
        score: Callable[[Any], tuple[dict[str, np.ndarray], dict[str, np.ndarray]]],
        rows: int,
    ) -> np.ndarray:
        """The differences A − B of the metrics over ``test.rounds`` rounds: ``draw(size)`` draws ``size`` rounds
        (in this thread, one stream), ``score`` gives both systems' scores of them, batches of
        :func:`~clfeval.scoring.batched.batch_size` over ``rows`` at a time
        (:func:`~clfeval.scoring.batched.in_batches`)."""
        done = 0

        def advanced(at: int, total: int) -> None:
            nonlocal done
            if self.progress is not None:
                self.progress(at - done)
            done = at

        found = in_batches(draw, score, self.test.rounds, batch_size(rows), advanced)
        return np.vstack([np.column_stack([da[m] - db[m] for m in self.metrics]) for da, db in found])

    def results(self, observed: np.ndarray, hits: np.ndarray, draws: np.ndarray | None) -> list[dict[str, Any]]:
        """Each metric's result of a resampling test: p = (1 + hits)/(R + 1); with ``draws`` (the bootstrap's), the
        percentile interval of the difference."""
        alpha, rounds = 1 - self.test.confidence, self.test.rounds
        out = []
        for i, m in enumerate(self.metrics):
            ci = None
            if draws is not None and not np.isnan(draws[:, i]).any():
                ci = tuple(float(v) for v in np.quantile(draws[:, i], [alpha / 2, 1 - alpha / 2]))
            out.append(
                {"metric": m, "score_a": self.base_a[m], "score_b": self.base_b[m], "difference": float(observed[i]),
                 "p_value": (1 + int(hits[i])) / (rounds + 1), "ci": ci, "z": None, "rounds": rounds}
            )  # fmt: skip
        return out


def paired_scored(
    joint_gold: np.ndarray,
    scores_a: np.ndarray,
    scores_b: np.ndarray,
    count: np.ndarray,
    template: ScoreCounts,
    measures: ScoredMeasures,
    metrics: list[str],
    test: Any,
    *,
    rng: np.random.Generator | None = None,
    blocks: ScoreBlocks | None = None,
    progress: Callable[[int], None] | None = None,
    weight: np.ndarray | None = None,
    orders: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[dict[str, Any]]:
    """Each metric's paired test of two systems' scores of the same instances: rows (gold, A's scores, B's scores)
    with their counts; ``template`` gives the classes and columns; ``test`` is the :class:`~clfeval.Test` group, whose
    entry of :data:`~clfeval.infer.pairtests.TESTS` computes it for the ``scored`` kind. Returns per metric the
    scores, the difference d = A − B, the p-value for the alternative on d, its interval (DeLong, bootstrap) and the
    rounds. With ``blocks`` (whose rows these are, in their blocks), the bootstrap draws whole blocks, randomization
    swaps whole blocks and DeLong's variance is clustered. ``rng``: the pair's random stream (keyed by the two
    systems' names, :func:`~clfeval.infer.comparison.pair_stream`). ``progress`` is called with the rounds done since
    its last call. ``weight``: each row's sample weight, which moves with the row."""
    from clfeval.infer.pairtests import TESTS

    pair = ScoredPair(joint_gold, scores_a, scores_b, count, template, measures, metrics, test,
                      rng if rng is not None else np.random.default_rng(), blocks, progress, weight,
                      orders)  # fmt: skip
    found: list[dict[str, Any]] = TESTS[test.name].run_for(_KIND, pair)
    return found


def delong_pair(pair: ScoredPair) -> list[dict[str, Any]]:
    """DeLong's paired test of each AUC metric (a column's, or an averaged one's from the systems' per-instance
    terms), its p-value for the alternative: the ``delong`` entry of :data:`~clfeval.infer.pairtests.TESTS`."""
    from clfeval.infer.delong import delong_paired
    from clfeval.infer.significance import p_of_z

    confidence, blocks, template, count = pair.test.confidence, pair.blocks, pair.template, pair.count
    if pair.weight is not None:
        raise OptionError(WEIGHTED_DELONG.format(what="tests", use="test='bootstrap' or 'ar' (--test bootstrap, ar)"))
    out = []
    for m in pair.metrics:
        if m in AVERAGED:  # the averaged AUCs: the difference of the two systems' per-instance terms
            found = _averaged_pair(template, pair.joint_gold, pair.scores_a, pair.scores_b, count, m, confidence,
                                   blocks)  # fmt: skip
        else:
            column = _auc_column(template, m)
            d = delong_paired(
                template.positives(pair.joint_gold, column),
                pair.scores_a[:, column],
                pair.scores_b[:, column],
                count.astype(np.float64),
                confidence=confidence,
                cluster=None if blocks is None else blocks.block,
                orders=pair.orders if pair.scores_a.shape[1] == 1 else None,
            )
            found = {"metric": m, "score_a": d.auc_a, "score_b": d.auc_b, "difference": d.difference,
                     "p_value": d.p_value, "ci": (d.low, d.high), "z": d.z, "rounds": None}  # fmt: skip
        z = found["z"]
        if z is not None and not np.isnan(z):
            found["p_value"] = p_of_z(float(z), pair.test.alternative)
        out.append(found)
    return out


def bootstrap_pair(pair: ScoredPair) -> list[dict[str, Any]]:
    """The paired bootstrap of scored predictions: multinomial draws over the joint rows (or whole blocks), p from
    the differences shifted to zero (``bootstrap`` of :data:`~clfeval.infer.pairtests.TESTS`)."""
    from clfeval.infer.significance import extreme

    rng, blocks = pair.rng, pair.blocks
    score_a, score_b = pair.measures.batched(pair.a_view), pair.measures.batched(pair.b_view)

    def draw(size: int) -> np.ndarray:
        return resampled_counts(rng, pair.count, size) if blocks is None else blocks.drawn(rng, size)

    def score(w: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        return score_a(w[:, pair.a_order]), score_b(w[:, pair.b_order])

    observed = np.array([pair.base_a[m] - pair.base_b[m] for m in pair.metrics])
    draws = pair.resampled(draw, score, len(pair.count))
    hits = extreme(draws - observed, observed, pair.test.alternative).sum(axis=0)  # shifted to a zero difference
    return pair.results(observed, hits, draws)


def randomization_pair(pair: ScoredPair) -> list[dict[str, Any]]:
    """Approximate randomization of scored predictions: each joint row's (or block's) two systems' scores swapped
    with probability ½ (``ar`` of :data:`~clfeval.infer.pairtests.TESTS`)."""
    from clfeval.infer.significance import extreme

    count, rng, blocks = pair.count, pair.rng, pair.blocks
    weight = None if pair.weight is None else np.r_[pair.weight, pair.weight]  # an instance's weight: either system
    mixed, mixed_order = _view(
        pair.template, np.r_[pair.joint_gold, pair.joint_gold], np.vstack([pair.scores_a, pair.scores_b]), weight
    )

    scorer = pair.measures.batched(mixed)

    def draw(size: int) -> np.ndarray:
        return rng.binomial(count, 0.5, size=(size, len(count))) if blocks is None else blocks.swapped(rng, size)

    def score(swapped: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        wa, wb = np.c_[count - swapped, swapped], np.c_[swapped, count - swapped]
        return scorer(wa[:, mixed_order]), scorer(wb[:, mixed_order])

    observed = np.array([pair.base_a[m] - pair.base_b[m] for m in pair.metrics])
    draws = pair.resampled(draw, score, 2 * len(count))
    return pair.results(observed, extreme(draws, observed, pair.test.alternative).sum(axis=0), None)


#: The averaged AUCs DeLong's terms give intervals and paired tests for, by report name.
AVERAGED = {"macro.auc": "macro", "weighted.auc": "weighted", "micro.auc": "micro"}


def averaged_auc_terms(
    template: ScoreCounts, gold: np.ndarray, scores: np.ndarray, weight: np.ndarray, average: str
) -> tuple[float, np.ndarray]:
    """An averaged one-vs-rest AUC of rows (gold codes or multi-label 0/1 rows, scores, weights) and each row's
    DeLong terms (:func:`~clfeval.infer.delong.auc_terms`) in parts, rows × parts, NaN where a row is not of a part's
    sample (the parts :func:`~clfeval.infer.delong.influence_variance` takes), Â − A ≈ Σ_i Σ_parts T_i:

    * macro, A = (1/C) Σ_c A_c: (1/C) t_c, a part over the positives of column c and one over its negatives;
    * weighted, A = Σ_c s_c A_c / S with s_c the positives of column c and S = Σ_c s_c: (s_c/S) t_c in the same
      parts, and the weights' part over every row, Σ_c (A_c − A)(y_c − s_c/n)/S (the weights are estimated too);
    * micro, the AUC of every (row, column) pair pooled: a row's terms of its positive pairs summed, and of its
      negative pairs.
    """
    from clfeval.infer.delong import auc_terms

    w = np.asarray(weight, dtype=np.float64)
    columns = range(len(template.columns))
    positives = [template.positives(gold, c) for c in columns]
    if average == "micro":
        value, pooled = auc_terms(np.concatenate(positives), np.concatenate([scores[:, c] for c in columns]),
                                  np.tile(w, len(positives)))  # fmt: skip
        pairs, positive = pooled.reshape(len(positives), -1), np.array(positives)
        parts = [np.where(positive, pairs, 0.0).sum(axis=0), np.where(positive, 0.0, pairs).sum(axis=0)]
        return value, np.column_stack([np.where(positive.any(axis=0), parts[0], np.nan),
                                       np.where((~positive).any(axis=0), parts[1], np.nan)])  # fmt: skip
    found = [auc_terms(positives[c], scores[:, c], w) for c in columns]
    aucs = np.array([a for a, _ in found])
    support = np.array([w[p].sum() for p in positives])
    total, n = float(support.sum()), float(w.sum())
    if average == "macro":
        value, share = float(aucs.mean()), np.full(len(aucs), 1 / len(aucs))
    else:
        value, share = float(support @ aucs / total), support / total
    parts = []
    for c in columns:
        t = share[c] * found[c][1]
        parts += [np.where(positives[c], t, np.nan), np.where(positives[c], np.nan, t)]
    if average == "weighted":
        y = np.column_stack(positives).astype(np.float64)
        parts.append((y - support / n) @ (aucs - value) / total)
    return value, np.column_stack(parts)


def _averaged_pair(
    template: ScoreCounts,
    gold: np.ndarray,
    scores_a: np.ndarray,
    scores_b: np.ndarray,
    count: np.ndarray,
    metric: str,
    confidence: float,
    blocks: ScoreBlocks | None,
) -> dict[str, Any]:
    """DeLong's paired test of an averaged AUC: z = (A_a − A_b) / √Var, Var from the difference of the systems'
    per-instance terms (blocks: clustered)."""
    from statistics import NormalDist

    from clfeval.infer.delong import influence_variance

    a, ta = averaged_auc_terms(template, gold, scores_a, count, AVERAGED[metric])
    b, tb = averaged_auc_terms(template, gold, scores_b, count, AVERAGED[metric])
    variance = influence_variance(ta - tb, count, None if blocks is None else blocks.block)
    d = a - b
    sd = float(np.sqrt(variance)) if variance > 0 else 0.0
    if not np.isfinite(d) or not np.isfinite(variance):
        z, p = float("nan"), float("nan")
    elif sd > 0:
        z = d / sd
        p = min(1.0, 2 * NormalDist().cdf(-abs(z)))
    else:
        z, p = (0.0, 1.0) if d == 0 else (float(np.copysign(np.inf, d)), 0.0)
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * sd
    return {"metric": metric, "score_a": a, "score_b": b, "difference": d, "p_value": p, "ci": (d - half, d + half),
            "z": z, "rounds": None}  # fmt: skip


def _auc_column(counts: ScoreCounts, metric: str) -> int:
    """The score column whose AUC ``metric`` names (``auc`` of binary scores, ``per_label.<c>.auc``)."""
    if metric == "auc" and counts.binary:
        return 0
    if metric.startswith("per_label.") and metric.endswith(".auc"):
        name = metric[len("per_label.") : -len(".auc")]
        if name in counts.columns:
            return counts.columns.index(name)
    raise OptionError(
        f"DeLong's test compares the AUC of a score column (auc, per_label.<class>.auc) or an averaged one "
        f"({', '.join(AVERAGED)}), not {metric!r}: use test='bootstrap' or 'ar' for it"
    )


#: The JSON contract of a comparison of scored predictions.
SCORED_PAIRS_SCHEMA = "clfeval.scoredpairs/2"


@dataclass(frozen=True, eq=False, repr=False)
class ScoredComparison(Paired, Result):
    """The result of :func:`clfeval.compare` with ``scores=``: each pair of systems' paired test on each metric, with
    Holm's adjustment over the pairs of a metric; ``results`` holds each system's
    :class:`~clfeval.scoring.scored.Scored`."""

    kind: ClassVar[str] = "compare"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.scored:scored_comparison_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:scored_comparison_figures"

    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    test: str
    rounds: int | None
    seed: int | None
    confidence: float
    alpha: float
    pairs: tuple[PairTest, ...]
    results: Mapping[str, Any]
    n_instances: int
    distinct_rows: int  # the joint rows the tests read (DeLong of arrays: the instances)
    n_blocks: int | None = None  # blocks: the units the tests resample, swap or cluster on
    alternative: str = "two-sided"
    baseline: str | None = None

    @property
    def test_definition(self) -> str:
        """What the test computes (its entry of :data:`~clfeval.infer.pairtests.TESTS`), and what blocks change."""
        from clfeval.infer.pairtests import TESTS

        return TESTS[self.test].definition + (
            "" if self.n_blocks is None else CLUSTERED if self.test == "delong" else BLOCKED
        )

    def score(self, system: str, metric: str) -> float:
        """The value of ``metric`` for ``system`` (its own result's)."""
        return float(self.results[system][metric])

    def higher_is_better(self, metric: str) -> bool:
        """Whether a higher value of ``metric`` is the better one (not for losses and calibration errors)."""
        from clfeval.scoring.scored import lower_is_better

        return not lower_is_better(metric)

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        """The comparison as one flat mapping, named as every comparison names it: each system's score of each metric
        (``<system>/macro/auc``) and each pair's test (``macro/auc/<a>_vs_<b>/difference``, ``…/p_value``,
        ``…/p_adjusted``, ``…/significant`` as 1 or 0, ``…/ci_low``, ``…/ci_high`` with an interval)."""
        out: dict[str, float] = {}
        weighed = self.results[self.systems[0]].inputs.get("sample_weight")
        if weighed is not None:  # the instances' total weight, as every weighted result names it
            out["sample_weight_sum"] = float(weighed["sum"])
        for system in self.systems:
            for metric in self.metrics:
                out[sep.join([system, *metric.split(".")])] = self.score(system, metric)
        for p in self.pairs:
            head = sep.join([*p.metric.split("."), f"{p.a}_vs_{p.b}"])
            values = {"difference": p.difference, "p_value": p.p_value, "p_adjusted": p.p_adjusted}
            values["significant"] = float(p.significant)
            if p.ci is not None:
                values["ci_low"], values["ci_high"] = p.ci
            for name, value in values.items():
                out[f"{head}{sep}{name}"] = float(value)
        return out

    def signature_parts(self) -> list[tuple[str, str]]:
        first = self.results[self.systems[0]]
        parts = [p for p in first.signature_parts() if p[0] not in ("ci", "threshold")]
        test = [self.test, self.alternative]
        if self.n_blocks is not None:
            test.append(f"blocks={self.n_blocks}")
        if self.rounds is not None:
            test += [f"n={self.rounds}", f"seed={self.seed}"]
        test += [f"alpha={self.alpha:g}", "holm"]
        if self.baseline is not None:
            test.append(f"baseline={self.baseline}")
        return [*parts, ("systems", str(len(self.systems))), ("test", ",".join(test))]

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        from clfeval._version import __version__

        return {
            "schema": SCORED_PAIRS_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "n_instances": self.n_instances,
            "distinct_rows": self.distinct_rows,
            "unit": "instance" if self.n_blocks is None else "block",
            "n_blocks": self.n_blocks,
            "systems": list(self.systems),
            "metrics": list(self.metrics),
            "test": self.test,
            "test_definition": self.test_definition,
            "alternative": self.alternative,
            "comparisons": "baseline" if self.baseline is not None else "all-pairs",
            "baseline": self.baseline,
            "rounds": self.rounds,
            "seed": self.seed,
            "confidence": self.confidence,
            "alpha": self.alpha,
            "adjustment": "holm",
            "higher_is_better": {m: self.higher_is_better(m) for m in self.metrics},
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "metric": p.metric,
                    "score_a": json_number(p.score_a),
                    "score_b": json_number(p.score_b),
                    "difference": json_number(p.difference),
                    "p_value": json_number(p.p_value),
                    "ci": None if p.ci is None else [json_number(x) for x in p.ci],
                    "z": None if p.z is None else json_number(p.z),
                    "rounds": p.rounds,
                    "p_adjusted": json_number(p.p_adjusted),
                    "significant": p.significant,
                }
                for p in self.pairs
            ],
            "ranking": {m: self.ranking(m) for m in self.metrics},
            "results": {s: r.to_dict(matrix=matrix) for s, r in self.results.items()},
        }


def compare_scored(
    gold: np.ndarray,
    systems: Mapping[str, Any],
    labels: Any,
    metrics: list[str] | None,
    test: Any,
    *,
    conventions: Any,
    score_one: Callable[[ScoreCounts], Any],
    baseline: str | None = None,
    blocks: Any = None,
    multilabel: bool = False,
    progress: Callable[[int, int], None] | None = None,
    sample_weight: Any = None,
) -> ScoredComparison:
    """Every pair of ``systems`` (name → scores of the same instances; each against ``baseline`` when given) tested on
    each metric (default: the AUC, macro for multi-class) by ``test`` (the :class:`~clfeval.Test` group: its name from
    :data:`~clfeval.infer.pairtests.TESTS`, alternative, α, rounds, seed, confidence), each round computing those
    metrics only, with Holm's adjustment over the pairs of a metric; ``score_one`` gives each system's own result (of
    its counts, scores as given). The probability measures apply unless the conventions say the scores are not
    probabilities (every system's scores are then checked as probabilities). ``blocks``: each instance's block (the
    tests then treat blocks as the independent units). ``multilabel``: ``gold`` holds each instance's gold label set
    (or an (n, K) 0/1 matrix). ``sample_weight``: each instance's weight; the resampling tests move instances with
    their weights (DeLong's test is refused).

    The instances are counted into their distinct joint rows (:class:`~clfeval.count.jointscored.JointScoreCounts`),
    and the systems compared on them (:func:`compare_joint`); with ``blocks`` each pair's rows are held in their
    blocks (:class:`ScoreBlocks`) instead."""
    from clfeval.count.classes import named_scores
    from clfeval.count.jointscored import JointScoreCounts
    from clfeval.count.scored import check_finite, checked_weights, class_lookup, label_indicator, layout_of
    from clfeval.infer.pairtests import TESTS

    names = list(systems)
    _check_pairing(names, baseline, test, weighted=sample_weight is not None)
    weight = None if sample_weight is None else checked_weights(sample_weight, len(gold))
    given: dict[str, np.ndarray] = {}
    layouts: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    codes: np.ndarray | None = None
    for s in names:  # each system's columns matched to the classes by the one contract, then checked as probabilities
        raw, column_names = named_scores(systems[s])
        where = f"scores[{s!r}]"
        if multilabel:
            values = np.asarray(raw, dtype=np.float64)
            check_finite(values, where)
            indicator, found, layout = label_indicator(gold, labels, values.shape, names=column_names)
            given[s], _ = conventions.checked(layout.apply(values), rows_sum=False, where=where, orient=False)
            layouts[s] = (tuple(found), tuple(found))
            codes = indicator
        else:
            _, values, seen, which, layout = layout_of(gold, raw, labels, names=column_names, where=where)
            given[s], _ = conventions.checked(
                layout.apply(values), rows_sum=len(layout.columns) > 1, full=values, where=where, orient=False
            )
            layouts[s] = (tuple(layout.classes), tuple(layout.columns))
            if codes is None:
                codes = class_lookup(seen, which, list(layout.classes))[which]
    assert codes is not None
    for s in names[1:]:
        if layouts[s] != layouts[names[0]]:
            raise OptionError(f"system {s!r} scores classes {list(layouts[s][1])}, {names[0]!r} "
                              f"{list(layouts[names[0]][1])}")  # fmt: skip
    classes, columns = layouts[names[0]]
    orders = None
    as_given = not (conventions.lower_is_more_confident or conventions.score_bins is not None)  # not oriented
    if blocks is None and not TESTS[test.name].random and len(columns) == 1 and not multilabel and as_given:
        orders = {s: np.argsort(given[s].reshape(-1)) for s in names}  # one sort of each system, read twice
    own = {s: _system_counts(classes, columns, codes, given[s], weight, None if orders is None else orders[s])
           for s in names}  # fmt: skip
    if blocks is None and TESTS[test.name].random:
        joint = JointScoreCounts.of_systems(classes, columns, codes, given, weight)
        return compare_joint(joint, metrics, test, conventions=conventions, score_one=score_one, baseline=baseline,
                             progress=progress, checked=True, own=own)  # fmt: skip
    oriented = {s: conventions.oriented(v).reshape(len(codes), -1) for s, v in given.items()}

    def held(a: str, b: str) -> _PairRows:
        if blocks is None:  # DeLong's test: exact on the instances as they are (placements per distinct score)
            return codes, oriented[a], oriented[b], np.ones(len(codes), dtype=np.int64), None, None
        # in blocks: each pair's joint rows within each block
        rows = ScoreBlocks.of_arrays(codes, np.column_stack([oriented[a], oriented[b]]), blocks, weight=weight)
        width = len(columns)
        return rows.gold, rows.scores[:, :width], rows.scores[:, width:], rows.count, rows, rows.weight

    return _compared(names, own, held, len(codes), metrics, test, conventions, score_one, baseline, progress, orders)


def compare_joint(
    joint: Any,
    metrics: list[str] | None,
    test: Any,
    *,
    conventions: Any,
    score_one: Callable[[ScoreCounts], Any],
    baseline: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    checked: bool = False,
    own: Mapping[str, ScoreCounts] | None = None,
) -> ScoredComparison:
    """The systems of ``joint`` (a :class:`~clfeval.count.jointscored.JointScoreCounts`, its scores as given) compared
    as :func:`compare_scored` compares them: each pair tested on its joint rows (:meth:`JointScoreCounts.pair`, the
    scores oriented by the ``conventions``: a seeded test draws over the same rows, in the same order, whatever
    other systems were counted with it), each system scored on its own counts (:meth:`JointScoreCounts.system`) by
    ``score_one``. Unless ``checked`` (the scores were checked as they were read), every system's scores are checked
    as probabilities where the conventions hold them to be; ``own``: each system's counts where they are at hand
    (they equal its margin)."""
    from clfeval.count.jointscored import JointScoreCounts

    names = list(joint.systems)
    _check_pairing(names, baseline, test, weighted=joint.weight is not None)
    own = {s: joint.system(s) for s in names} if own is None else own
    if not checked and conventions.checks_probabilities:
        for s in names:
            try:
                conventions.probabilities_of(own[s])
            except OptionError as e:
                raise OptionError(f"scores[{s!r}]: {e}") from None
    if conventions.lower_is_more_confident or conventions.score_bins is not None:  # the rows as every measure reads
        joint = JointScoreCounts(joint.labels, joint.columns, joint.systems, joint.gold,
                                 conventions.oriented(joint.scores), joint.count, joint.weight)  # fmt: skip

    def held(a: str, b: str) -> _PairRows:
        gold, scores_a, scores_b, count, weight = joint.pair(a, b)
        return gold, scores_a, scores_b, count, None, weight

    return _compared(names, own, held, joint.n_instances, metrics, test, conventions, score_one, baseline, progress)


#: A pair's rows: gold, A's scores, B's scores, counts, the blocks that hold them (or ``None``), sample weights.
_PairRows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, "ScoreBlocks | None", "np.ndarray | None"]


def _check_pairing(names: list[str], baseline: str | None, test: Any, *, weighted: bool) -> None:
    """Refuse what no comparison of these systems by ``test`` can do: fewer than two systems, an unknown baseline, a
    test or option that is not for scores, DeLong's test with sample weights."""
    from clfeval.infer.pairtests import TESTS

    if len(names) < 2:
        raise OptionError(f"compare needs at least two systems, got {len(names)}")
    if baseline is not None and baseline not in names:
        raise OptionError(f"unknown baseline {baseline!r}; the systems are {', '.join(map(repr, names))}")
    spec = TESTS[test.name]
    if not spec.applies_to(_KIND):
        raise OptionError(
            f"{spec.title} tests {spec.scope}: with scores use "
            f"{', '.join(k for k, t in TESTS.items() if t.applies_to('scored'))}"
        )
    if spec.random and test.interval != ("bootstrap" if spec.own_interval else "none"):
        raise OptionError(
            f"{spec.title} of scores gives no other interval of the difference than its own: leave out ci (--ci), or "
            "use test 'bootstrap' (its percentile interval) or 'delong' (DeLong's interval of AUC differences)"
        )
    if not spec.random and test.ci is not None:
        raise OptionError(
            f"{spec.title} gives its own interval of the difference (d ± z·√Var): leave out ci (--ci), or use test "
            "'bootstrap' for the bootstrap's"
        )
    if test.exact_limit != type(test)().exact_limit:
        raise OptionError("randomization of scores draws its rounds; it does not enumerate arrangements (exact_limit)")
    if weighted and not spec.random:
        use = "test='bootstrap' or 'ar' (--test bootstrap, ar)"
        raise OptionError(WEIGHTED_DELONG.format(what="tests", use=use))


def _system_counts(
    classes: tuple[str, ...],
    columns: tuple[str, ...],
    codes: np.ndarray,
    scores: np.ndarray,
    weight: Any,
    order: np.ndarray | None = None,
) -> ScoreCounts:
    """One system's counts of its instances (gold codes or 0/1 rows, scores as given); ``order``: one score column's
    ``argsort``, where it is known (the rows are then counted without sorting them again)."""
    ones = np.ones(len(codes), dtype=np.int64)
    if order is not None and weight is None and codes.ndim == 1:
        from clfeval.count.scored import distinct_rows

        gold, rows, count = distinct_rows(codes, scores.reshape(len(codes), 1), ones, order=order)
        return ScoreCounts.of_distinct(classes, columns, gold, rows, count)
    return ScoreCounts(classes, columns, codes, scores.reshape(len(codes), -1), ones, weight)


def _compared(
    names: list[str],
    own: Mapping[str, ScoreCounts],
    held: Callable[[str, str], _PairRows],
    n_instances: int,
    metrics: list[str] | None,
    test: Any,
    conventions: Any,
    score_one: Callable[[ScoreCounts], Any],
    baseline: str | None,
    progress: Callable[[int, int], None] | None,
    orders: Mapping[str, np.ndarray] | None = None,
) -> ScoredComparison:
    """Each pair's test on its rows (``held``), Holm's adjustment over the pairs of a metric, each system's result of
    its own counts (``own``, scores as given); ``orders``: each system's rows in score order, where known."""
    from clfeval.infer.multiplicity import holm
    from clfeval.infer.pairtests import TESTS

    spec = TESTS[test.name]
    template = conventions.oriented_counts(own[names[0]])
    if metrics is None:
        metrics = ["auc" if template.binary else "macro.auc"]
    # every system's scores checked as probabilities; each round computes the metrics' groups alone
    measures = ScoredMeasures(conventions, not conventions.ranking_only, frozenset(metrics))

    seed = test.seed
    if seed is None and spec.random:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    pairs = (
        [(s, baseline) for s in names if s != baseline]
        if baseline is not None
        else [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    )
    total, done = len(pairs) * (test.rounds if spec.random else 0), 0
    progress = phase(progress, spec.title) if spec.random else None

    def advanced(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:  # each round scores both systems: a call is nothing beside it
            progress(done, total)

    raw = []
    distinct, n_blocks = 0, None
    for a, b in pairs:
        joint_gold, scores_a, scores_b, count, blocked, row_weight = held(a, b)
        distinct = max(distinct, len(count))
        n_blocks = None if blocked is None else blocked.n_blocks
        for found in paired_scored(
            joint_gold, scores_a, scores_b, count, template, measures, list(metrics), test,
            rng=pair_stream(seed, a, b), blocks=blocked, progress=advanced if spec.random else None,
            weight=row_weight, orders=None if orders is None else (orders[a], orders[b]),
        ):  # fmt: skip
            raw.append({"a": a, "b": b, **found})
    for m in metrics:
        mine = [p for p in raw if p["metric"] == m]
        adjusted = holm(np.array([p["p_value"] for p in mine], dtype=np.float64))
        for p, q in zip(mine, adjusted.tolist()):
            p["p_adjusted"] = q
            p["significant"] = bool(q < test.alpha)
    tested = tuple(
        PairTest(
            metric=p["metric"],
            a=p["a"],
            b=p["b"],
            score_a=p["score_a"],
            score_b=p["score_b"],
            difference=p["difference"],
            p_value=p["p_value"],
            p_adjusted=p["p_adjusted"],
            significant=p["significant"],
            ci=None if p["ci"] is None else (float(p["ci"][0]), float(p["ci"][1])),
            exact=False,
            rounds=p["rounds"],
            z=None if p["z"] is None else float(p["z"]),
        )
        for p in raw
    )
    return ScoredComparison(
        systems=tuple(names),
        metrics=tuple(metrics),
        test=test.name,
        rounds=test.rounds if spec.random else None,
        seed=seed if spec.random else None,
        confidence=test.confidence,
        alpha=test.alpha,
        alternative=test.alternative,
        baseline=baseline,
        pairs=tested,
        results=FrozenDict({s: score_one(own[s]) for s in names}),
        n_instances=n_instances,
        distinct_rows=distinct,
        n_blocks=n_blocks,
    )


def gold_codes(gold: np.ndarray, template: ScoreCounts) -> np.ndarray:
    """Each gold label's position among ``template``'s classes (labels named as :meth:`ScoreCounts.of_arrays` names
    them)."""
    from clfeval.count.labelnames import label_names
    from clfeval.count.scored import distinct_labels

    distinct, which = distinct_labels(np.asarray(gold))
    index = {c: i for i, c in enumerate(template.labels)}
    names = label_names(distinct.tolist())
    return np.asarray(np.array([index[v] for v in names], dtype=np.int64)[which.reshape(-1)])


#: The JSON contract of a cross-validation of scored predictions.
SCORED_CV_SCHEMA = "clfeval.scoredcv/2"


@dataclass(frozen=True, eq=False, repr=False)
class ScoredCV(Folded, Result):
    """The result of :func:`clfeval.cv` with ``scores=``: the folds' counts added and scored once (``pooled``: for
    AUC, every fold's scores ranked together, which assumes they are on one scale), and each fold scored alone, with
    the mean and sample sd of each score over the folds."""

    kind: ClassVar[str] = "cv"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.scored:scored_cv_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:scored_cv_figures"

    pooled: Any
    folds: tuple[Any, ...]
    fold_names: tuple[str, ...]

    def mean_of_folds(self) -> dict[str, tuple[float, float]]:
        """Each score (not per class) of the folds: its mean and sample sd (NaN with one fold)."""
        out: dict[str, tuple[float, float]] = {}
        for name in self.pooled.values:
            if name.startswith("per_label."):
                continue
            values = np.array([f.values.get(name, float("nan")) for f in self.folds], dtype=np.float64)
            sd = float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")
            out[name] = (float(np.mean(values)), sd)
        return out

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        out = {f"pooled{sep}{k}": v for k, v in self.pooled.flat(sep, per_label=per_label).items()}
        for name, (mean, sd) in self.mean_of_folds().items():
            key = name.replace(".", sep)
            out[f"mean_of_folds{sep}{key}"], out[f"sd{sep}{key}"] = mean, sd
        return out

    def signature_parts(self) -> list[tuple[str, str]]:
        return [*self.pooled.signature_parts(), ("folds", str(len(self.folds)))]

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        from clfeval._version import __version__

        means = self.mean_of_folds()
        return {
            "schema": SCORED_CV_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "n_folds": len(self.folds),
            "fold_names": list(self.fold_names),
            "pooled": self.pooled.to_dict(matrix=matrix),
            "folds": {n: {k: json_number(v) for k, v in f.values.items()} for n, f in zip(self.fold_names, self.folds)},
            "mean_of_folds": {k: json_number(m) for k, (m, _) in means.items()},
            "sd": {k: json_number(s) for k, (_, s) in means.items()},
        }
