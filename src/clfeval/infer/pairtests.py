"""The paired tests by name (:data:`TESTS`): what each is, what it applies to, and the function that runs it on a pair.

A test is one :class:`TestMethod` entry: its title and definition, the metrics and kinds of counts it tests, whether
it runs on blocks, draws random rounds, enumerates every arrangement when they are few, or gives an interval of the
difference from its own draws; and its computation, a function of a :class:`PairRun` (one pair of systems, the
metrics' keys, the settings) that returns each metric's difference, p-value and what else the test knows. ``compare``
reads the entry, never the test's name.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from clfeval.count.blocks import Blocks
from clfeval.count.paired import PairedCounts
from clfeval.errors import OptionError
from clfeval.infer.arrangement import Arrangements
from clfeval.infer.significance import SignTest, mcnemar, paired_bootstrap, randomization_test, right_of
from clfeval.infer.statistic import Statistic
from clfeval.kinds import KINDS
from clfeval.kinds.kind import Kind
from clfeval.scoring.scores import Key

__all__ = ["COUNTED_QUANTITIES", "DIFFERENCE_INTERVALS", "TESTS", "PairRun", "Progress", "TestMethod"]


@dataclass(frozen=True)
class TestMethod:
    """A paired test of two systems on the same instances.

    Attributes
    ----------
    name, title, definition
        Its registry name, how reports name it, and what it does.
    computation
        ``"module:function"`` testing one pair (a :class:`PairRun` → one result per metric), imported when it runs;
        ``None`` for a test of kinds whose scores are no function of cell-type weights alone.
    kind_computations
        ``"module:function"`` testing one pair of such a kind, by kind (scored predictions:
        :class:`~clfeval.infer.scored.ScoredPair` → one result per metric).
    quantity
        What it tests, which is what its ``A − B``, its direction and the ranking it decides are of: ``metric``, the
        difference d = score(A) − score(B) of each metric asked (randomization, the bootstrap); ``counted``, the
        quantity its kind's counting tests test (:attr:`~clfeval.kinds.Kind.counted_metric`, of the instances each
        system gets right: accuracy, ``subset_accuracy`` for label sets, ``span_errors`` for spans), and no other
        metric: McNemar's and the sign test count instances (or units) right, so they test that and nothing else.
    metrics, scope
        The metrics a ``metric`` test takes (report names; ``None``: every score) and those in words.
    kinds
        The kinds of counts (:data:`clfeval.kinds.KINDS`) it applies to; ``None``: every one.
    no_blocks
        Why it does not run with blocks (sentences) as the units; empty when it does.
    random
        Whether it draws rounds (and so takes ``rounds`` and a ``seed``); exact tests draw nothing.
    enumerates
        Whether it enumerates every arrangement when they are few (``exact_limit`` applies).
    own_interval
        Whether its draws give the interval of the difference (another interval costs another ``rounds``).
    arrangements
        Whether its p-value is a probability over arrangements of the units where the systems differ (so at least
        2^−k with k of them: ``compare`` warns when no arrangement can reach α).
    counts_units
        Whether its p-value is the sign test on the units (reports give its counts as the pair's own columns). On
        blocks its statistic (the units where one system does better) can favour the other system than the
        difference of the counted quantity does; a difference then does not hold (the comparison says so).
    extreme
        Alternative → when a draw counts as at least as extreme as the observed difference, in words.
    references
        Where the test is defined (author, year), for ``clfeval explain``.
    """

    __test__ = False  # not a pytest test class

    name: str
    title: str
    definition: str
    computation: str | None
    quantity: str = "metric"
    metrics: frozenset[str] | None = None
    scope: str = "every score"
    kinds: frozenset[str] | None = None
    no_blocks: str = ""
    random: bool = True
    enumerates: bool = False
    own_interval: bool = False
    arrangements: bool = False
    counts_units: bool = False
    extreme: Mapping[str, str] | None = None
    references: tuple[str, ...] = ()
    kind_computations: Mapping[str, str] = field(default_factory=dict)

    def run_for(self, kind: str, pair: Any) -> list[dict[str, Any]]:
        """Each metric's test of a pair of ``kind``, by this test's computation for the kind
        (:attr:`kind_computations`: scored predictions, whose scores are no function of cell-type weights)."""
        if kind not in self.kind_computations:
            raise OptionError(f"{self.title} has no computation for {kind} counts")
        module, _, function = self.kind_computations[kind].partition(":")
        result: list[dict[str, Any]] = getattr(importlib.import_module(module), function)(pair)
        return result

    def run(self, pair: PairRun) -> list[dict[str, Any]]:
        """Each metric's test on ``pair``: difference, p-value, exactness, rounds, interval … (:class:`PairTest`'s
        fields)."""
        if self.computation is None:
            raise OptionError(f"{self.title} tests {', '.join(sorted(self.kind_computations))} counts only")
        module, _, function = self.computation.partition(":")
        result: list[dict[str, Any]] = getattr(importlib.import_module(module), function)(pair)
        return result

    def tests(self, metric: str, kind: str | None = None) -> bool:
        """Whether the test applies to ``metric`` (a report name) of counts of ``kind`` (``None``: labels, not yet
        read): a ``counted`` test to its kind's counted quantity only, a ``metric`` test to :attr:`metrics`."""
        if self.quantity == "counted":
            return _kind(kind).counts_metric(metric)
        return self.metrics is None or metric in self.metrics

    def applies_to(self, kind: str) -> bool:
        """Whether the test runs on counts of ``kind``: its :attr:`kinds` admit the kind (``None``: every kind) and the
        kind takes it (:attr:`clfeval.kinds.Kind.paired_tests`)."""
        taken = KINDS[kind].paired_tests if kind in KINDS else None
        return (self.kinds is None or kind in self.kinds) and (taken is None or self.name in taken)

    def scope_of(self, kind: str | None = None) -> str:
        """What the test compares, for counts of ``kind``: its kind's counted quantity, or :attr:`scope`."""
        return _kind(kind).counted_metric if self.quantity == "counted" else self.scope


def _kind(name: str | None) -> Kind:
    """The kind of counts ``name``; ``None``, labels not read yet: what every label kind shares."""
    return KINDS[name] if name is not None else Kind()


#: The paired tests, by name.
TESTS: Mapping[str, TestMethod] = {
    t.name: t
    for t in (
        TestMethod(
            "ar",
            "approximate randomization",
            "each instance's two predictions are swapped with probability ½ and the metric recomputed on every "
            "arrangement (Noreen 1989; Yeh 2000); p = (r + 1)/(R + 1), or the exact probability when every "
            "arrangement is enumerated",
            "clfeval.infer.pairtests:randomization_pair",
            kind_computations={"scored": "clfeval.infer.scored:randomization_pair"},
            enumerates=True,
            arrangements=True,
            extreme={"two-sided": "|d*| ≥ |d|", "greater": "d* ≥ d", "less": "d* ≤ d"},
            references=("Noreen 1989", "Yeh 2000", "Van Asch 2013 §8 (art.py)"),
        ),
        TestMethod(
            "bootstrap",
            "paired bootstrap",
            "instances are resampled with replacement, both systems' predictions together; the percentile "
            "interval of the difference, and p from the bootstrap distribution shifted to a zero "
            "difference (Berg-Kirkpatrick et al. 2012)",
            "clfeval.infer.pairtests:bootstrap_pair",
            kind_computations={"scored": "clfeval.infer.scored:bootstrap_pair"},
            own_interval=True,
            extreme={"two-sided": "|d* − d| ≥ |d|", "greater": "d* − d ≥ d", "less": "d* − d ≤ d"},
            references=("Berg-Kirkpatrick et al. 2012 (the paired bootstrap, shifted to a zero difference)",),
        ),
        TestMethod(
            "mcnemar",
            "McNemar's exact test",
            "of accuracy: an exact binomial test of the instances only A gets right against those only B "
            "gets right (multi-label: the whole label set right); A − B is the difference in accuracy",
            "clfeval.infer.pairtests:mcnemar_pair",
            quantity="counted",
            scope="accuracy",
            no_blocks="McNemar's test counts instances as independent; with blocks use the sign test on blocks "
            "(--test sign), randomization or the bootstrap",
            random=False,
            references=("McNemar 1947",),
        ),
        TestMethod(
            "sign",
            "sign test",
            "of the kind's counted quantity (accuracy; span errors per sentence for spans): an exact binomial test "
            "of the units where A does better on it than B against those where B does (ties left out); on "
            "instances it is McNemar's test, on blocks (sentences) it respects their dependence; A − B is the "
            "difference of that quantity, and a difference holds only when the units favour the same system",
            "clfeval.infer.pairtests:sign_pair",
            quantity="counted",
            scope="the counted quantity (accuracy; span_errors)",
            random=False,
            arrangements=True,
            counts_units=True,
            references=("McNemar 1947 (on instances the sign test is McNemar's exact test)",),
        ),
        TestMethod(
            "delong",
            "DeLong's test",
            "DeLong's paired test of two AUCs on the same instances: z = (A₁ − A₂)/√(Var A₁ + Var A₂ − 2 Cov) "
            "(Sun & Xu's midrank algorithm), p = 2Φ(−|z|) two-sided, Φ(−z) for greater, Φ(z) for less; averaged AUCs "
            "(macro, weighted, micro) from the difference of the systems' per-instance DeLong terms, their variance "
            "as the interval's (Bessel's correction per sample); its interval of the difference is d ± z·√Var",
            None,
            metrics=frozenset({"auc", "macro.auc", "weighted.auc", "micro.auc"}),
            scope="AUCs (auc, macro.auc, weighted.auc, micro.auc, per_label.<class>.auc)",
            kinds=frozenset({"scored"}),
            random=False,
            own_interval=True,
            kind_computations={"scored": "clfeval.infer.scored:delong_pair"},
            references=(
                "DeLong, DeLong & Clarke-Pearson 1988",
                "Sun & Xu 2014 (the midrank algorithm)",
                "Obuchowski 1997 (clustered data)",
            ),
        ),
    )
}


class _Counted(Mapping[str, str]):
    """The quantities counting tests test that are not scores, by name (from :data:`~clfeval.kinds.KINDS`, read when
    used, so a registered kind's shows too)."""

    def _entries(self) -> dict[str, str]:
        return {k.counted_metric: k.counted_definition for k in KINDS.values() if not k.counted_in_scores}

    def __getitem__(self, name: str) -> str:
        return self._entries()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())


#: What the counting tests (McNemar's, the sign test) test where it is not a score, by name: ``span_errors``.
COUNTED_QUANTITIES: Mapping[str, str] = _Counted()

#: Confidence intervals of the differences, by name.
DIFFERENCE_INTERVALS: Mapping[str, str] = {
    "none": "no interval of the difference",
    "bootstrap": "the paired bootstrap's percentile interval of the difference",
}


class Progress:
    """Progress over every pair's rounds, for a (done, total) callback."""

    def __init__(self, callback: Callable[[int, int], None] | None, total: int) -> None:
        self.callback, self.total, self.offset = callback, total, 0

    def part(self, size: int) -> Callable[[int, int], None] | None:
        """The callback of the next ``size`` rounds."""
        if self.callback is None:
            return None
        offset, callback, total = self.offset, self.callback, self.total
        self.offset += size
        return lambda done, _: callback(offset + done, total)


@dataclass(eq=False)
class PairRun:
    """One pair of systems to test: what a test's computation reads.

    Attributes
    ----------
    paired, blocks
        The pair's (gold, A, B) triples, and the blocks over them (``None``: instances are the units).
    template, keys
        The scores as a function of type weights (label set, β, 0/0 choices every system shares) and the keys of the
        metrics tested.
    rounds, rng, alternative, confidence, ci, exact_limit
        The test's settings: rounds and their random stream, the alternative, the difference interval's confidence
        and method (``bootstrap`` or ``none``), the exact-enumeration limit.
    bar
        Progress over every pair's rounds.
    sign
        The sign test of the pair on its units, reported beside every test.
    """

    paired: PairedCounts
    blocks: Blocks | None
    template: Statistic
    keys: Sequence[Key]
    rounds: int
    rng: np.random.Generator
    alternative: str
    confidence: float
    ci: str
    exact_limit: int
    bar: Progress
    sign: SignTest | None

    def arrangements(self) -> tuple[Arrangements, list[int]]:
        """Both systems' scores of the metrics under re-arrangements of the pair, and each metric's column."""
        arr = Arrangements.of(self.paired, self.template, self.blocks, keys=list(dict.fromkeys(self.keys)))
        return arr, [arr.f.index(k) for k in self.keys]


def mcnemar_pair(pair: PairRun) -> list[dict[str, Any]]:
    """McNemar's exact test of accuracy on the instances only one system gets right: d = (only A − only B) / N, the
    difference in accuracy."""
    m = mcnemar(pair.paired, pair.alternative)
    discordant = {"only_a": m.only_a, "only_b": m.only_b, "both": m.both, "neither": m.neither}
    kind = KINDS[pair.paired.kind]
    n = pair.paired.n_instances
    difference = kind.counted_value(m.only_a + m.both, n, n) - kind.counted_value(m.only_b + m.both, n, n)
    return [
        {"difference": difference, "p_value": m.p_value, "rounds": None, "exact": True, "discordant": discordant}
        for _ in pair.keys
    ]


def sign_pair(pair: PairRun) -> list[dict[str, Any]]:
    """The sign test on the units (instances or blocks) where one system does better on its kind's counted quantity:
    d is the difference of that quantity (accuracy; span errors per unit), ``favours`` the system the units favour
    (``None`` on a tie), which a difference that holds must agree with."""
    kind = KINDS[pair.paired.kind]
    right = right_of(pair.paired)
    counts = list(pair.paired.triples.values())
    a_right, b_right = (sum(c for r, c in zip(right, counts) if r[k]) for k in (0, 1))
    n = pair.paired.n_instances
    units = pair.blocks.n_blocks if pair.blocks is not None else n
    difference = kind.counted_value(a_right, n, units) - kind.counted_value(b_right, n, units)
    sign = pair.sign
    assert sign is not None  # the kinds that take the sign test make it beside every test
    favours = "a" if sign.a_better > sign.b_better else "b" if sign.b_better > sign.a_better else None
    return [
        {"difference": difference, "p_value": sign.p_value, "rounds": None, "exact": True, "favours": favours}
        for _ in pair.keys
    ]


def randomization_pair(pair: PairRun) -> list[dict[str, Any]]:
    """Approximate randomization (exact when few arrangements exist), with the bootstrap's interval of the difference
    when asked for."""
    arr, columns = pair.arrangements()
    result = randomization_test(
        arr,
        columns,
        rounds=pair.rounds,
        rng=pair.rng,
        alternative=pair.alternative,
        exact_limit=pair.exact_limit,
        progress=pair.bar.part(pair.rounds),
    )
    interval = None
    if pair.ci == "bootstrap":
        rounds, rng, confidence, progress = pair.rounds, pair.rng, pair.confidence, pair.bar.part(pair.rounds)
        interval = paired_bootstrap(arr, columns, rounds=rounds, rng=rng, confidence=confidence, progress=progress).ci
    return _results(pair, result, interval)


def bootstrap_pair(pair: PairRun) -> list[dict[str, Any]]:
    """The paired bootstrap: p from the shifted distribution, and the percentile interval of the difference."""
    arr, columns = pair.arrangements()
    result = paired_bootstrap(
        arr,
        columns,
        rounds=pair.rounds,
        rng=pair.rng,
        confidence=pair.confidence,
        alternative=pair.alternative,
        progress=pair.bar.part(pair.rounds),
    )
    return _results(pair, result, result.ci if pair.ci == "bootstrap" else None)


def _results(pair: PairRun, result: Any, interval: np.ndarray | None) -> list[dict[str, Any]]:
    """Each metric's difference, p-value (NaN for an undefined difference), interval and undefined rounds."""
    out = []
    for i in range(len(pair.keys)):
        d = float(result.difference[i])
        p = float(result.p_values[i]) if math.isfinite(d) else math.nan
        bounds = (
            None if interval is None or np.isnan(interval[i]).any() else (float(interval[i][0]), float(interval[i][1]))
        )
        undefined = int(result.undefined[i]) if result.undefined is not None else 0
        out.append(
            {
                "difference": d,
                "p_value": p,
                "exact": result.exact,
                "rounds": result.rounds,
                "ci": bounds,
                "undefined_rounds": undefined,
            }
        )
    return out
