"""Comparing systems on one test set: every pair (or each against a baseline), one paired test per metric.

Each system is scored over one common label set; each pair's unique (gold, A, B) triples feed the
test (:mod:`clfeval.infer.significance`), several metrics at once from the same arrangements; the
p-values of each metric are Holm-adjusted over its pairs.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from clfeval._version import __version__
from clfeval.count.blocks import Blocks
from clfeval.count.invalid import InvalidOutputs
from clfeval.count.joint import JointCounts
from clfeval.count.paired import PairedCounts
from clfeval.errors import OptionError, unknown_name
from clfeval.infer.multiplicity import holm
from clfeval.infer.pairtests import DIFFERENCE_INTERVALS, TESTS, PairRun, Progress, TestMethod
from clfeval.infer.significance import (
    ALTERNATIVES,
    SignTest,
    sign_test,
)
from clfeval.kinds import KINDS
from clfeval.progress import phase
from clfeval.result import TEXT_FORMATS, FlatScores, FrozenDict, Result, flat_name, json_safe, signature_number
from clfeval.scoring.computation import score_counts
from clfeval.scoring.metrics import higher_is_better, metric_key, metric_path
from clfeval.scoring.options import Scoring
from clfeval.scoring.scores import Key, Scores
from clfeval.scoring.sklearnnames import binary_measure

__all__ = [
    "Test",
    "COMPARE_SCHEMA",
    "Comparison",
    "PairTest",
    "Paired",
    "TESTS",
    "check_test_options",
    "compare_counts",
    "pair_stream",
]

#: The JSON schema name and version of a comparison.
COMPARE_SCHEMA = "clfeval.compare/2"
#: Relative tolerance under which two scores tie in a ranking (the same as the tests' tie tolerance).
_TIE = 1e-12


@dataclass(frozen=True)
class PairTest:
    """One metric's test of d = score(a) − score(b).

    Attributes
    ----------
    p_value, p_adjusted
        The test's p-value and its Holm adjustment over the pairs of the same metric (NaN when
        the difference is undefined).
    ci
        The interval of d (paired bootstrap), when asked for.
    exact, rounds
        Whether the p-value is exact rather than a Monte Carlo estimate: McNemar, or randomization
        with every arrangement enumerated (then ``rounds`` counts the swap patterns weighed);
        otherwise ``rounds`` is the number of randomization or bootstrap rounds (``None`` for McNemar).
    discordant
        McNemar only: instances only ``a`` got right, only ``b``, both, neither.
    sign
        The sign test of the pair on its units (instances or blocks), reported beside every test: a test of its
        kind's counted quantity (accuracy; span errors for spans), whatever the metric, oriented like it (its
        ``a_better`` counts the units where A does better on that quantity).
    undefined_rounds
        Bootstrap resamples in which a score was undefined (NaN): left out of the interval, counted as at
        least as extreme in p.
    """

    metric: str
    a: str
    b: str
    score_a: float
    score_b: float
    difference: float
    p_value: float
    p_adjusted: float
    significant: bool
    ci: tuple[float, float] | None = None
    exact: bool = False
    rounds: int | None = None
    discordant: Mapping[str, int] | None = None
    undefined_rounds: int = 0
    sign: SignTest | None = None
    z: float | None = None

    def __getitem__(self, name: str) -> Any:
        """A field by name (``p["p_value"]`` as ``p.p_value``): the pairs of every kind are this one type, read
        either way."""
        if name not in self.__dataclass_fields__:
            raise KeyError(f"a pair has no {name!r}; it has {', '.join(self.__dataclass_fields__)}")
        return getattr(self, name)


class Paired:
    """What every comparison of systems answers, whatever its kind: :meth:`pair`, :meth:`winner` and
    :meth:`ranking`, from its ``systems``, ``metrics``, ``pairs`` (:class:`PairTest`) and its own :meth:`score` and
    :meth:`higher_is_better`."""

    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    pairs: tuple[PairTest, ...]

    def score(self, system: str, metric: str) -> float:
        """The value of ``metric`` for ``system``."""
        raise NotImplementedError

    def higher_is_better(self, metric: str) -> bool:
        """Whether a higher value of ``metric`` is the better one: the direction of its ranking."""
        raise NotImplementedError

    def winner(self, p: PairTest) -> str | None:
        """The system ``p``'s difference (A − B of the quantity tested) favours, in its metric's direction; ``None``
        when it is 0 (up to rounding) or undefined."""
        return _favoured(p, self.higher_is_better(p.metric))

    def pair(self, a: str, b: str, metric: str | None = None) -> PairTest:
        """The test of ``a`` against ``b`` on ``metric`` (default: the first), found in either order: it is the
        test as run, so check its ``a`` and ``b`` (its difference is score(a) − score(b) of those)."""
        metric = metric or self.metrics[0]
        for p in self.pairs:
            if p.metric == metric and {p.a, p.b} == {a, b}:
                return p
        raise OptionError(
            f"no comparison of {a!r} with {b!r} on {metric!r}; systems {list(self.systems)}, metrics "
            f"{list(self.metrics)}"
        )

    def ranking(self, metric: str) -> list[dict[str, Any]]:
        """Systems from best to worst on ``metric``, each with the systems it beats, and is beaten by, significantly.

        Ties in score (equal up to rounding, 1e-12 relative) share a rank; a system whose score is
        undefined (NaN) comes last with rank ``None``. "Beats" means the pair's difference holds (its adjusted
        p-value is below ``alpha``) and favours it: the pair's A − B, the difference of the quantity its test
        tests, is in the better direction for it (higher, or lower for Hamming loss, micro FPR, span errors, log loss,
        Brier and calibration error).
        """
        sign = 1.0 if self.higher_is_better(metric) else -1.0
        values = {s: self.score(s, metric) for s in self.systems}

        def ahead(s: str, o: str) -> bool:  # s strictly better than o, beyond rounding
            x, y = values[s], values[o]
            return not (math.isnan(x) or math.isnan(y)) and sign * (x - y) > _TIE * max(1.0, abs(x), abs(y))

        order = sorted(self.systems, key=lambda s: math.inf if math.isnan(values[s]) else -sign * values[s])
        out = []
        for s in order:
            wins: list[str] = []
            losses: list[str] = []
            for p in self.pairs:
                if p.metric != metric or s not in (p.a, p.b) or not p.significant:
                    continue
                other = p.b if s == p.a else p.a
                winner = self.winner(p)
                if winner is not None:
                    (wins if winner == s else losses).append(other)
            rank = None if math.isnan(values[s]) else 1 + sum(ahead(o, s) for o in self.systems)
            out.append({"system": s, "score": values[s], "rank": rank, "better_than": wins, "worse_than": losses})
        return out


@dataclass(frozen=True, eq=False, repr=False)
class Comparison(Paired, Result):
    """The result of :func:`clfeval.compare`: every system's scores and the test of each pair, per metric.

    ``results[name]`` is each system's full :class:`Scores` over the common label set.
    """

    kind: ClassVar[str] = "compare"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.comparison:comparison_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:comparison_figures"
    frames_builder: ClassVar[str] = "clfeval.report.frames:comparison_frames"

    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    keys: tuple[Key, ...]
    test: str
    alternative: str
    rounds: int | None
    seed: int | None
    exact_limit: int
    alpha: float
    baseline: str | None
    ci: str
    confidence: float
    results: Mapping[str, Scores]
    pairs: tuple[PairTest, ...]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    unit: str = "instances"
    n_units: int | None = None
    own_scores: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    invalid: InvalidOutputs | None = None

    @property
    def first(self) -> Scores:
        """The first system's result (for what all results share: N, labels, β, options)."""
        return self.results[self.systems[0]]

    def score(self, system: str, metric: str) -> float:
        """The value of ``metric`` for ``system``: one of its scores, or the quantity a counting test defines
        (``span_errors``, :attr:`own_scores`)."""
        if metric in self.own_scores:
            return self.own_scores[metric][system]
        return self.results[system].value_at(self.keys[self.metrics.index(metric)])

    def higher_is_better(self, metric: str) -> bool:
        """Whether a higher value of ``metric`` is the better one (false for losses, error rates, span errors): the
        direction of its ranking."""
        if metric in self.own_scores:
            return KINDS[self.joint_kind].counted_higher_is_better
        return higher_is_better(self.keys[self.metrics.index(metric)])

    def definition(self, metric: str) -> str | None:
        """The definition of a quantity a counting test defines (``span_errors``), ``None`` for a score."""
        if metric in self.own_scores:
            return KINDS[self.joint_kind].counted_definition
        return None

    @property
    def joint_kind(self) -> str:
        """The kind of each system's counts (``single-label``, ``spans`` …)."""
        return self.first.task

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        """The comparison as one flat mapping for an experiment tracker: each system's score of each metric
        (``<system>/macro/f1``) and each pair's test (``macro/f1/<a>_vs_<b>/difference``, ``…/p_value``,
        ``…/p_adjusted``, ``…/significant`` as 1 or 0, and ``…/ci_low``, ``…/ci_high`` with an interval of the
        difference); an undefined value is NaN. ``per_label`` adds each system's per-label scores
        (``<system>/per_label/<label>/f1`` …)."""
        beta = self.first.beta
        paths = {m: [m] if m in self.own_scores else metric_path(k, beta) for m, k in zip(self.metrics, self.keys)}
        out = FlatScores(sep)
        weighed = self.first.inputs.get("sample_weight")
        if weighed is not None:  # the instances' total weight, as every weighted result names it
            out["sample_weight_sum"] = float(weighed["sum"])
        if self.invalid is not None:  # the shared n_invalid and coverage, and each system's invalid predictions
            for name, value in self.invalid.flat().items():
                out[flat_name([name], sep)] = value
            for system, k in self.invalid.by_system.items():
                out[flat_name([system, "n_invalid"], sep)] = float(k)
        for system in self.systems:
            for metric in self.metrics:
                out[flat_name([system, *paths[metric]], sep)] = float(self.score(system, metric))
        for p in self.pairs:
            head = [*paths[p.metric], f"{p.a}_vs_{p.b}"]
            values = {"difference": p.difference, "p_value": p.p_value, "p_adjusted": p.p_adjusted}
            values["significant"] = float(p.significant)
            if p.ci is not None:
                values["ci_low"], values["ci_high"] = p.ci
            for name, value in values.items():
                out[flat_name([*head, name], sep)] = float(value)
        if per_label:
            for system in self.systems:
                start = flat_name([system, "per_label", ""], sep)
                scores = self.results[system].flat(sep, per_label=True, prefix=(system,))
                out.update((name, value) for name, value in scores.items() if name.startswith(start))
        return dict(out)

    def signature_parts(self) -> list[tuple[str, str]]:
        """What decides these numbers (see :attr:`~clfeval.result.Result.signature`): the scoring choices shared by
        every system, the baseline when pairs are each system against it (Holm adjusts over those pairs), the test
        (alternative, rounds, seed, the exact-enumeration limit of randomization, α, Holm's adjustment, the number
        of blocks when blocks are the unit) and the difference's interval."""
        test = [self.test, self.alternative]
        if self.rounds is not None:
            test += [f"n={self.rounds}", f"seed={self.seed}"]
        if TESTS[self.test].enumerates:
            test.append(f"exact_limit={self.exact_limit}")
        test += [f"alpha={signature_number(self.alpha)}", "holm"]
        if self.unit != "instances":
            test.append(f"blocks={self.n_units}")
        ci = self.ci if self.ci == "none" else f"{self.ci},{signature_number(self.confidence)}"
        systems = [("systems", str(len(self.systems)))]
        if self.baseline is not None:
            systems.append(("baseline", self.baseline))
        return [*self.first.scoring_parts(), *systems, ("test", ",".join(test)), ("ci", ci)]

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The JSON contract ``clfeval.compare/2`` (docs/json.md); NaN becomes ``null``; ``matrix=False`` leaves
        the systems' confusion matrices out."""
        first = self.first
        zd = first.zero_division
        pairs = []
        for p in self.pairs:
            entry: dict[str, Any] = json_safe(
                {
                    "metric": p.metric,
                    "a": p.a,
                    "b": p.b,
                    "score_a": p.score_a,
                    "score_b": p.score_b,
                    "difference": p.difference,
                    "p_value": p.p_value,
                    "p_adjusted": p.p_adjusted,
                    "significant": p.significant,
                    "ci": None if p.ci is None else list(p.ci),
                    "exact": p.exact,
                    "rounds": p.rounds,
                }
            )
            if p.discordant is not None:
                entry["mcnemar"] = dict(p.discordant)
            if p.sign is not None:
                entry["sign_test"] = {
                    "metric": KINDS[self.joint_kind].counted_metric,
                    "unit": p.sign.unit,
                    "a_better": p.sign.a_better,
                    "b_better": p.sign.b_better,
                    "ties": p.sign.ties,
                    "p_value": json_safe(p.sign.p_value),
                }
            pairs.append(entry)
        return {
            "schema": COMPARE_SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "task": first.task,
            "n_instances": first.n_instances,
            "systems": list(self.systems),
            "metric": list(self.metrics),
            "test": self.test,
            "test_definition": TESTS[self.test].definition,
            "alternative": self.alternative,
            "rounds": self.rounds,
            "seed": self.seed,
            "exact_limit": self.exact_limit if TESTS[self.test].enumerates else None,
            "unit": self.unit,
            "n_units": self.n_units,
            "alpha": self.alpha,
            "adjustment": "holm",
            "comparisons": "baseline" if self.baseline is not None else "all-pairs",
            "baseline": self.baseline,
            "ci": {"method": self.ci, "confidence": self.confidence if self.ci != "none" else None},
            "labels": list(first.labels),
            "label_source": first.label_source,
            "beta": first.beta,
            "zero_division": {"value": "nan" if math.isnan(zd) else int(zd), "in_average": first.undefined_policy},
            "scores": {s: {m: json_safe(self.score(s, m)) for m in self.metrics} for s in self.systems},
            "higher_is_better": {m: self.higher_is_better(m) for m in self.metrics},
            "pairs": pairs,
            "ranking": {m: [{**r, "score": json_safe(r["score"])} for r in self.ranking(m)] for m in self.metrics},
            "results": {s: r.to_dict(matrix=matrix) for s, r in self.results.items()},
            **({"invalid": {**self.invalid.to_dict(), "tests": self.invalid.tests_note()}} if self.invalid else {}),
            "inputs": dict(self.inputs),
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }


def check_test_options(
    test: str,
    alternative: str,
    rounds: int,
    seed: int | None,
    alpha: float,
    ci: str,
    confidence: float,
    exact_limit: int,
) -> None:
    """Refuse an unknown test, alternative or interval of the difference, or settings out of their range."""
    if test not in TESTS:
        raise unknown_name("test", test, {k: t.title for k, t in TESTS.items()})
    if alternative not in ALTERNATIVES:
        raise unknown_name("alternative", alternative, ALTERNATIVES)
    if ci not in DIFFERENCE_INTERVALS:
        raise unknown_name("interval of the difference", ci, DIFFERENCE_INTERVALS)
    if isinstance(rounds, bool) or not (isinstance(rounds, (int, np.integer)) and rounds >= 1):
        raise OptionError(f"rounds must be a positive integer, not {rounds!r}")
    if seed is not None and not (isinstance(seed, (int, np.integer)) and seed >= 0):
        raise OptionError(f"seed must be a non-negative integer, not {seed!r}")
    if not 0 < alpha < 1:
        raise OptionError(f"alpha must be between 0 and 1, not {alpha!r}")
    if not 0 < confidence < 1:
        raise OptionError(f"confidence must be between 0 and 1, not {confidence!r}")
    if not (isinstance(exact_limit, (int, np.integer)) and exact_limit >= 0):
        raise OptionError(f"the exact limit (--exact-limit) must be a non-negative integer, not {exact_limit!r}")
    if not TESTS[test].random and not TESTS[test].own_interval and ci != "none":
        raise OptionError(
            f"{TESTS[test].title} has no interval of the difference: leave out --ci (ci=None), or use --test bootstrap"
        )


def _pairs_of(systems: Sequence[str], baseline: str | None) -> list[tuple[str, str]]:
    if baseline is not None:
        return [(s, baseline) for s in systems if s != baseline]
    return [(a, b) for i, a in enumerate(systems) for b in systems[i + 1 :]]


@dataclass(frozen=True)
class Test:
    """Which paired test compares two systems, and its settings, in one group.

    ``test="bootstrap"`` anywhere means ``Test("bootstrap")``; give a ``Test`` to change a setting.
    Validated when built.

    Attributes
    ----------
    name
        A name from :data:`TESTS`: ``ar`` (approximate randomization, default), ``bootstrap`` (paired
        bootstrap), ``mcnemar`` or ``sign`` (exact, accuracy only).
    rounds, seed
        Randomization or bootstrap rounds, and the seed (drawn and recorded when ``None``).
    alternative
        On d = score(A) − score(B): ``two-sided`` (default), ``greater`` or ``less``.
    alpha
        The level at which a Holm-adjusted p-value marks a difference as significant.
    ci, confidence
        The interval of each difference: ``bootstrap`` (the paired bootstrap's percentile interval; the
        default with the bootstrap test, another ``rounds`` rounds with ``ar``) or ``none``; its coverage.
    exact_limit
        Randomization enumerates every swap pattern when there are at most this many (Π (c_t + 1) over
        the differing triples); 0 never does.

    Examples
    --------
    >>> Test("bootstrap", rounds=2000, seed=1).interval
    'bootstrap'
    """

    __test__: ClassVar[bool] = False  # not a pytest test class

    name: str = "ar"
    rounds: int = 10_000
    seed: int | None = None
    alternative: str = "two-sided"
    alpha: float = 0.05
    ci: str | None = None
    confidence: float = 0.95
    exact_limit: int = 100_000

    def __post_init__(self) -> None:
        check_test_options(
            self.name,
            self.alternative,
            self.rounds,
            self.seed,
            self.alpha,
            self.interval,
            self.confidence,
            self.exact_limit,
        )

    @classmethod
    def of(cls, value: str | Test | None) -> Test:
        """A test's name → its group with the default settings; ``None`` → approximate randomization."""
        if isinstance(value, Test):
            return value
        if value is None:
            return cls()
        if not isinstance(value, str):
            raise OptionError(f"test is a test's name or a clfeval.Test, not {value!r}")
        return cls(value)

    @property
    def interval(self) -> str:
        """The interval of each difference: ``ci``, else ``bootstrap`` for the bootstrap test and ``none``."""
        own = self.name in TESTS and TESTS[self.name].own_interval  # an unknown name is refused after this
        return self.ci if self.ci is not None else ("bootstrap" if own else "none")

    @property
    def title(self) -> str:
        """The test's name in words."""
        return TESTS[self.name].title

    @property
    def method(self) -> TestMethod:
        """The test's registry entry."""
        return TESTS[self.name]

    def default_metric(self, beta: float, kind: str | None = None) -> str:
        """The metric compared when none is named: a counting test's counted quantity (accuracy for McNemar's and
        the sign test; span errors per sentence for spans: :attr:`~clfeval.kinds.Kind.counted_metric`), the first
        metric a test restricted to some takes, else the kind's headline average of F_β (macro; micro for spans)."""
        known = KINDS.get(kind) if kind is not None else None
        if self.method.quantity == "counted":
            return self.method.scope_of(kind)
        if self.method.metrics is not None:
            return min(self.method.metrics)
        headline = known.headline if known is not None else "macro"
        return f"{headline}.f1" if beta == 1 else f"{headline}.f{beta:g}"


def compare_counts(
    joint: JointCounts,
    *,
    metrics: str | Sequence[str] | None = None,
    test: Test | None = None,
    baseline: str | None = None,
    scoring: Scoring | None = None,
    progress: Callable[[int, int], None] | None = None,
    inputs: Mapping[str, Any] | None = None,
    warnings: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    blocks: Blocks | None = None,
    invalid: InvalidOutputs | None = None,
) -> Comparison:
    """Compare the systems of ``joint`` pairwise on ``metrics`` with the paired ``test``.

    Parameters are those of :func:`clfeval.compare`; ``joint`` holds the counted rows and
    ``scoring.train`` is read (label frequencies or ``None``). With ``blocks`` (whose keys are
    ``joint``'s rows), randomization swaps whole blocks, the bootstrap resamples whole blocks and the
    sign test counts blocks. ``invalid``: how invalid predictions entered ``joint``
    (:func:`clfeval.count.invalid.screen_joint`), recorded in the result and in each system's scores.

    Notes
    -----
    Every system is scored over one label set, chosen by the label-set policy from the gold
    labels and every system's predictions, so that no system's macro average runs over labels
    the others' do not. Each pair draws from its own random stream, the seed's keyed by the two
    systems' names, so a pair's result does not depend on which other systems are compared.
    """
    test, scoring = test or Test(), scoring or Scoring()
    name, rounds, seed, alternative, alpha = test.name, test.rounds, test.seed, test.alternative, test.alpha
    ci, confidence, exact_limit, beta = test.interval, test.confidence, test.exact_limit, scoring.beta
    systems = joint.systems
    if len(systems) < 2:
        raise OptionError(f"compare needs at least two systems, got {len(systems)}")
    if baseline is not None and baseline not in systems:
        raise OptionError(f"unknown baseline {baseline!r}; the systems are {', '.join(map(repr, systems))}")
    method = TESTS[name]
    if blocks is not None and method.no_blocks:
        raise OptionError(method.no_blocks)
    if not method.applies_to(joint.kind):
        raise OptionError(
            f"{method.title} compares {', '.join(sorted(method.kinds or ()))} counts, not {joint.kind}"
            if method.kinds is not None
            else f"{method.title} does not compare {joint.kind} counts{KINDS[joint.kind].refused_tests_note}"
        )
    if blocks is None and KINDS[joint.kind].needs_units:
        raise OptionError(
            "tests of span counts need their units (sentences or documents): spans of one sentence are not "
            "independent; count them with --spans or spans=..., whose counts and count files keep the units"
        )
    if blocks is not None and blocks.n_instances != joint.n_instances:
        raise ValueError("the blocks must hold every counted instance")
    if metrics is None:
        metrics = [test.default_metric(beta, joint.kind)]
    metrics = [metrics] if isinstance(metrics, str) else list(dict.fromkeys(metrics))
    if not metrics:
        raise OptionError("no metric to compare: give at least one (e.g. macro.f1)")
    seen = joint.seen_labels()
    results = {
        s: score_counts(
            joint.system(s),
            scoring,
            seen=seen,
            options={
                **joint.options,
                **(options or {}),
            },  # the systems' counting options (a span scheme), then the reading's
            inputs=inputs,
            invalid=None if invalid is None else invalid.of_system(s),
        )
        for s in systems
    }
    first = results[systems[0]]
    kind = KINDS[joint.kind]
    own = [m for m in metrics if kind.counts_metric(m) and not kind.counted_in_scores]  # span_errors: no score
    if own and method.quantity != "counted":
        raise OptionError(
            f"{own[0]} is what the sign test counts (--test sign, test='sign'); {method.title} compares scores "
            f"(e.g. {kind.headline}.f1)"
        )
    if not all(method.tests(m, joint.kind) for m in metrics):
        scope = method.scope_of(joint.kind)
        raise OptionError(f"{method.title} compares {scope} only: use --metric {scope} (or another --test)")
    keys = [
        ("counted", m)
        if m in own
        else first.key_of(m)  # a binary problem's f1 (pos_label), weighted κ without an order: the result's rule
        if binary_measure(m, first.beta) is not None or m in first.withheld()
        else metric_key(m, labels=first.labels, task=first.family, beta=first.beta)
        for m in metrics
    ]
    n_units = blocks.n_blocks if blocks is not None else joint.n_instances
    own_scores: dict[str, dict[str, float]] = {}
    if own:
        values = {}
        for s in systems:
            counts = joint.system(s)
            values[s] = kind.counted_value(kind.right(counts), counts.n_instances, n_units)
        own_scores = dict.fromkeys(own, values)
    if not method.random:
        seed = None  # an exact test: nothing random to seed
    elif seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    pairs = _pairs_of(systems, baseline)
    per_pair_rounds = rounds * (1 + (ci == "bootstrap" and not method.own_interval)) if method.random else 0
    bar = Progress(phase(progress, method.title) if method.random else None, per_pair_rounds * len(pairs))
    template = first.statistic()  # the label set, β and zero-division choices every system shares
    raw: list[list[dict[str, Any]]] = []
    for a, b in pairs:
        paired = joint.paired(a, b)
        pair_blocks = _pair_blocks(joint, a, b, paired, blocks) if blocks is not None else None
        # the sign test's alternative is on d of the counted quantity: flipped where less of it is better
        # weighted instances: no sign test beside the test (it would count instances, not their weights)
        sign = (
            None
            if kind.sample_weights
            else sign_test(paired, alternative if kind.counted_higher_is_better else _FLIPPED[alternative], pair_blocks)
        )
        run = PairRun(
            paired, pair_blocks, template, keys, rounds, pair_stream(seed, a, b), alternative, confidence, ci,
            exact_limit, bar, sign,
        )  # fmt: skip
        raw.append([{**found, "sign": sign} for found in method.run(run)])
    tests = []
    against: list[str] = []
    for i, (metric, key) in enumerate(zip(metrics, keys)):
        p_values = np.array([r[i]["p_value"] for r in raw])
        adjusted = holm(p_values)
        higher = kind.counted_higher_is_better if metric in own else higher_is_better(key)
        for (a, b), r, p_adj in zip(pairs, raw, adjusted):
            found = dict(r[i])
            favours = found.pop("favours", False)  # the system the test's own statistic favours, when it says
            score_a, score_b = (own_scores[metric][x] if metric in own else results[x].value_at(key) for x in (a, b))
            tested = PairTest(
                metric, a, b, score_a, score_b, p_adjusted=float(p_adj), significant=bool(p_adj < alpha), **found
            )
            if favours is not False:  # a difference holds only where the test's statistic favours the same system
                side = {"a": a, "b": b}.get(favours) if favours is not None else None
                if tested.significant and side != _favoured(tested, higher):
                    tested = replace(tested, significant=False)
                    against.append(f"{metric} ({a} vs {b})")
            tests.append(tested)
    notes = _notes(tests, "instances" if blocks is None else "blocks")
    if against:
        notes.append(
            f"{method.title}: the units favour one system and the difference the other, so no difference holds: "
            f"{', '.join(against)}"
        )
    shared_warnings = _system_warnings(results)
    if blocks is not None:
        shared_warnings += blocks.cautions()
        if method.arrangements:
            shared_warnings += _few_differing_blocks(joint, pairs, blocks, alternative, alpha)
        notes.insert(
            0,
            f"units: {blocks.unit} ({blocks.n_blocks} blocks): randomization swaps whole blocks, the "
            "bootstrap resamples whole blocks and the sign test counts blocks, because the instances "
            "of a block are not independent",
        )
    if invalid is not None:
        notes += [invalid.describe(), invalid.tests_note()]
    return Comparison(
        tuple(systems),
        tuple(metrics),
        tuple(keys),
        name,
        alternative,
        rounds if method.random else None,
        seed,
        exact_limit,
        alpha,
        baseline,
        ci,
        confidence,
        FrozenDict(results),
        tuple(tests),
        FrozenDict(inputs or {}),
        tuple(dict.fromkeys([*warnings, *shared_warnings])),
        tuple(notes),
        "instances" if blocks is None else blocks.unit,
        joint.n_instances if blocks is None else blocks.n_blocks,
        FrozenDict({m: FrozenDict(v) for m, v in own_scores.items()}),
        invalid,
    )


#: An alternative on d of a quantity read the other way round (d of its negative).
_FLIPPED = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


def _favoured(test: PairTest, higher: bool) -> str | None:
    """The system a pair's difference favours (``higher``: a higher value is better), ``None`` for no difference."""
    d = test.difference
    if math.isnan(d) or abs(d) <= _TIE * max(1.0, abs(test.score_a), abs(test.score_b)):
        return None
    return test.a if (d > 0) == higher else test.b


def _few_differing_blocks(
    joint: JointCounts, pairs: Sequence[tuple[str, str]], blocks: Blocks, alternative: str, alpha: float
) -> list[str]:
    """Warnings for pairs whose predictions differ in so few blocks that no arrangement of them reaches α.

    Notes
    -----
    Swapping whole blocks, only the k blocks where the two systems differ can change anything; of the
    2^k equally likely arrangements the observed one (and, two-sided, its mirror image) is always at least
    as extreme, so an exact p-value is at least 2^−k (one-sided) or 2^(1−k) (two-sided), and so is the
    exact sign test's on those blocks.
    """
    out = []
    kind = KINDS[joint.kind]
    for a, b in pairs:
        i, j = joint.systems.index(a) + 1, joint.systems.index(b) + 1
        differs = np.array([kind.system_row(row, i) != kind.system_row(row, j) for row in blocks.keys], dtype=bool)
        k = len(np.unique(blocks.block[differs[blocks.row]])) if len(blocks.row) else 0
        floor = 0.5**k * (2 if alternative == "two-sided" else 1)
        if floor > alpha:
            out.append(
                f"{a} vs {b}: their predictions differ in only {k} block(s), so no arrangement test on blocks "
                f"can give a p-value below {floor:.4g} ({alternative}), above α = {alpha:g}: this pair cannot "
                "show a difference at that level"
            )
    return out


def _pair_blocks(joint: JointCounts, a: str, b: str, paired: PairedCounts, blocks: Blocks) -> Blocks:
    """The blocks over the pair's (gold, a, b) triples instead of the joint rows."""
    i, j = joint.systems.index(a) + 1, joint.systems.index(b) + 1
    triples = list(paired.triples)
    index = {t: k for k, t in enumerate(triples)}
    return blocks.regrouped(np.array([index[joint.triple(row, i, j)] for row in blocks.keys], dtype=np.int64), triples)


def pair_stream(seed: int | None, a: str, b: str) -> np.random.Generator:
    """The random stream of the pair (a, b): the seed's, keyed by the two names, so a pair draws the same numbers
    whichever other systems are compared."""
    key = tuple(zlib.crc32(name.encode("utf-8")) for name in (a, b))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key) if seed is not None else None)


def _system_warnings(results: Mapping[str, Scores]) -> list[str]:
    """Each system's scoring warnings, once, saying which systems they concern."""
    owners: dict[str, list[str]] = {}
    for name, r in results.items():
        for w in r.warnings:
            owners.setdefault(w, []).append(name)
    return [w if len(names) == len(results) else f"{', '.join(names)}: {w}" for w, names in owners.items()]


def _notes(tests: Sequence[PairTest], word: str = "instances") -> list[str]:
    notes = []
    shaky = sorted({f"{t.metric} ({t.a} vs {t.b}: {t.undefined_rounds})" for t in tests if t.undefined_rounds})
    if shaky:
        notes.append(
            "bootstrap resamples where a score was undefined (0/0 with zero division 'nan'), left out of "
            f"the interval and counted as extreme in p: {', '.join(shaky)}"
        )
    undefined = sorted({t.metric for t in tests if math.isnan(t.difference)})
    if undefined:
        notes.append(
            f"no test where the difference is undefined (a 0/0 score with zero division 'nan'): {', '.join(undefined)}"
        )
    exact = sorted({f"{t.a} vs {t.b}" for t in tests if t.exact and t.rounds is not None})
    if exact:
        notes.append(f"exact enumeration of every arrangement (few differing {word}): {', '.join(exact)}")
    return notes
