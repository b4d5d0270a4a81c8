"""The frozen result of scoring: per-label rows, named averages, the confusion matrix and every choice made."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from clfeval._version import __version__
from clfeval.count.confusion import ConfusionCounts
from clfeval.count.invalid import InvalidOutputs
from clfeval.count.labelsets import SplitMatrix
from clfeval.errors import OptionError, UnknownName
from clfeval.result import (
    TEXT_FORMATS,
    FlatScores,
    IntegerRows,
    NumberTable,
    Result,
    flat_name,
    json_number,
    json_safe,
    json_text,
    signature_digest,
    signature_number,
)
from clfeval.scoring.measures import averaged_measures, count_names, label_measures, overall_measures
from clfeval.scoring.ratios import f_key

if TYPE_CHECKING:
    from clfeval.scoring.statistics import ScoreFunction

__all__ = ["SCHEMA", "Intervals", "Key", "LabelScores", "Scores", "json_pointer", "json_safe"]

#: The JSON schema name and version of a score result.
SCHEMA = "clfeval.score/2"
#: The most labels whose confusion matrix the JSON writes as a dense table (``"layout": "dense"``); above this,
#: its non-zero cells (``"layout": "sparse"``): 10⁴ labels would be 10⁸ cells, nearly all zero.
DENSE_JSON_LABELS = 100

#: A score's address: ("per_label", label, measure), ("averages", name, measure) or (overall measure,).
Key = tuple[str, ...]


@dataclass(frozen=True)
class LabelScores:
    """One label's counts and the value of every per-label measure (see :data:`clfeval.MEASURES`).

    ``row.precision``, ``row.f`` (F_β for the result's β), ``row.jaccard`` … or ``row["npv"]``: each per-label
    measure by its name.
    """

    support: int
    predicted: int
    tp: int
    fp: int
    fn: int
    tn: int
    values: Mapping[str, float]

    def __getattr__(self, name: str) -> float:
        values = self.__dict__.get("values")
        if values is not None and name in values:
            return float(values[name])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getitem__(self, measure: str) -> float:
        """The value of the per-label measure ``measure`` (``f`` for F_β)."""
        return float(self.values[measure])


@dataclass(frozen=True)
class Intervals:
    """Confidence intervals of a result's scores, and how they were made.

    Attributes
    ----------
    method, definition
        The interval method's name (see :data:`clfeval.INTERVAL_METHODS`) and what it does.
    confidence
        The nominal coverage, e.g. 0.95.
    resamples, seed
        The bootstrap's number of resamples and its seed (``None`` for analytic methods).
    bounds
        Score key → (low, high), for every score that has an interval. Per-label precision and
        recall also have Wilson intervals, under the measures ``precision_wilson`` and ``recall_wilson``.
    not_estimable
        Score key → why it has no interval, in words.
    remarks
        Score key → what to know about its interval (clipped to [0, 1], zero width, …).
    notes
        Remarks that concern every interval.
    unit, n_units
        What the bootstrap resamples and the delta method treats as independent: ``instances``, or
        blocks of them (sentences, in words), and how many there are.
    """

    method: str
    definition: str
    confidence: float
    resamples: int | None
    seed: int | None
    bounds: Mapping[Key, tuple[float, float]]
    not_estimable: Mapping[Key, str]
    remarks: Mapping[Key, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    unit: str = "instances"
    n_units: int | None = None

    def get(self, key: Key) -> tuple[float, float] | None:
        """The interval of ``key``, or ``None`` when it has none."""
        return self.bounds.get(tuple(key))


def json_pointer(key: Key, f_name: str) -> str:
    """The JSON Pointer (RFC 6901) of a score's ``_ci`` entry in the ``clfeval.score/2`` JSON."""
    parts = list(key[:-1]) + [_json_name(key[-1], f_name) + "_ci"]
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


def _by_pointer(by_key: Mapping[Key, str], f_name: str) -> dict[str, str]:
    """``by_key`` keyed by :func:`json_pointer`, each label and measure escaped once (10⁵ labels have up to 10⁶
    scores with no interval)."""
    parts: dict[str, str] = {}

    def part(name: str) -> str:
        if name not in parts:
            parts[name] = "/" + name.replace("~", "~0").replace("/", "~1")
        return parts[name]

    names: dict[str, str] = {}
    out = {}
    for key, value in by_key.items():
        last = key[-1]
        if last not in names:
            names[last] = part(_json_name(last, f_name) + "_ci")
        out["".join(part(p) for p in key[:-1]) + names[last]] = value
    return out


def _close_names(name: str, names: Sequence[str], n: int = 6) -> list[str]:
    """The names of ``names`` closest to the unknown ``name``, best first: those equal to it but for case; for a
    bare measure (``f1``, ``Recall``), the averages of it (``micro.f1``, ``macro.f1`` …); then the names most like
    it, case aside (:func:`difflib.get_close_matches`)."""
    import difflib

    folded = name.casefold()
    by_folded: dict[str, list[str]] = {}
    for known in names:
        by_folded.setdefault(known.casefold(), []).append(known)
    averages = [
        known
        for known in names
        if "." in known and not known.startswith("per_label.") and known.partition(".")[2].casefold() == folded
    ]
    like = difflib.get_close_matches(folded, list(by_folded), n=n, cutoff=0.6)
    close = [*by_folded.get(folded, []), *averages, *(known for key in like for known in by_folded[key])]
    return [known for known in dict.fromkeys(close) if known != name][:n]


def _json_name(measure: str, f_name: str) -> str:
    return {"f": f_name, "f_wilson": f"{f_name}_wilson"}.get(measure, measure)


@dataclass(frozen=True, eq=False, repr=False)
class Scores(Result):
    """Everything one scoring pass found. Build with :func:`clfeval.score`.

    Attributes
    ----------
    task
        The kind of the counts (:data:`clfeval.kinds.KINDS`): ``"single-label"``, ``"multi-label"``, or a registered
        kind's name; :attr:`family` says whose measures apply.
    labels, label_source
        The label set L (report order) and the policy that chose it.
    per_label
        Label → :class:`LabelScores`, for each label in L.
    averages
        Average name → measure → value; averages as in :data:`clfeval.AVERAGES`, measures the averaged
        ones of :data:`clfeval.MEASURES` (precision, recall, ``f`` for F_β, specificity, Jaccard).
    overall
        Overall measure → value, for every overall measure of :data:`clfeval.MEASURES` that applies to the
        task (accuracy, Hamming loss, micro FPR; single-label data also balanced accuracy, MCC and κ).
    confusion
        The kind's confusion-matrix view: single-label, the :class:`ConfusionCounts`; multi-label, the
        :class:`SplitMatrix`; ``None`` for a kind without one.
    counts
        The counts scored (of the kind :attr:`task`).
    lfb_frequencies, lfb_source
        The relative frequencies the lfb average used and where they came from (``train``/``test``).
    zero_division, undefined_policy, undefined
        The value used for 0/0, whether such labels stay in averages, and which labels (per
        measure) and averages were affected.
    intervals
        Confidence intervals of the scores (:class:`Intervals`), when asked for.
    warning_scopes
        Warning → which scores it bears on (see :meth:`warnings_about`); not part of the JSON.
    table
        The labels of the matrix in its order (the label set, then every other label the label-set policy saw): the
        order weighted κ reads; not part of the JSON.
    invalid
        How predictions that are not labels entered the scores (``invalid=``; :class:`~clfeval.count.invalid.
        InvalidOutputs`: the policy, how many, the coverage under ``omit``), or ``None`` when no policy was chosen.
    order, order_rule
        The declared order of the labels that weighted κ reads (``Scoring.ordinal``), and how it was declared; or
        ``None`` and why there is none: weighted κ is then withheld (:meth:`withheld`). JSON: ``label_order``.
    positive, positive_rule
        A binary problem's positive class (``result["f1"]`` is its F1, as scikit-learn's ``average="binary"``) and
        the rule that chose it (``pos_label=``, or the label 1); or ``None`` and why there is none. JSON:
        ``pos_label``.
    """

    kind: ClassVar[str] = "score"
    formats: ClassVar[tuple[str, ...]] = (*TEXT_FORMATS, "html")
    report_builder: ClassVar[str] = "clfeval.report.tables:score_report"
    figures_builder: ClassVar[str | None] = "clfeval.report.figures:score_figures"
    frames_builder: ClassVar[str] = "clfeval.report.frames:score_frames"

    def renders_to(self) -> tuple[str, ...]:
        from clfeval.kinds import KINDS

        kind = KINDS.get(self.task)
        return (*self.formats, *(kind.formats if kind is not None else ()))

    task: str
    n_instances: int
    beta: float
    labels: tuple[str, ...]
    label_source: str
    per_label: Mapping[str, LabelScores]
    averages: Mapping[str, Mapping[str, float]]
    overall: Mapping[str, float]
    confusion: ConfusionCounts | SplitMatrix | None
    counts: Any
    lfb_frequencies: Mapping[str, float]
    lfb_source: str
    zero_division: float
    undefined_policy: str
    undefined: Mapping[str, tuple[str, ...]]
    options: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)
    intervals: Intervals | None = None
    warning_scopes: Mapping[str, str] = field(default_factory=dict)
    table: tuple[str, ...] = ()
    invalid: InvalidOutputs | None = None
    order: tuple[str, ...] | None = None
    order_rule: str = ""
    positive: str | None = None
    positive_rule: str = ""

    def withheld(self) -> frozenset[str]:
        """The overall measures that read an order of the labels (weighted κ) when none was declared: ``null`` in
        the JSON (``label_order`` says why), absent from ``flat()``, frames and every report, an error by name."""
        if self.order is not None:
            return frozenset()
        from clfeval.scoring.measures import overall_measures

        return frozenset(m.name for m in overall_measures(self.family) if m.ordered)

    def given_overall(self) -> list[Any]:
        """The overall measures of this result's family that it gives (:data:`clfeval.MEASURES` entries): all but the
        :meth:`withheld` ones; what ``flat()``, frames and tidy rows list."""
        withheld = self.withheld()
        return [m for m in overall_measures(self.family) if m.name not in withheld]

    @property
    def family(self) -> str:
        """Whose measures and averages apply (``single-label`` or ``multi-label``): the kind's
        (:attr:`clfeval.kinds.Kind.family`)."""
        from clfeval.kinds import KINDS

        family = KINDS[self.task].family
        assert family is not None
        return family

    def statistic(self) -> ScoreFunction:
        """These scores as a function of the weights of their kinds of instance: what intervals and tests resample,
        rearrange and differentiate (:class:`~clfeval.infer.statistic.Statistic`)."""
        from clfeval.scoring.statistics import ScoreFunction

        return ScoreFunction.of(self)

    def value_at(self, key: Key) -> float:
        """The value reported at ``key`` (``("averages", "macro", "f")``, ``("per_label", label, "recall")``,
        ``("mcc",)``; NaN for an overall measure this kind does not have)."""
        if key[0] == "per_label":
            return float(self.per_label[key[1]][key[2]])
        if key[0] == "averages":
            return float(self.averages[key[1]][key[2]])
        value = self.overall.get(key[0])
        return float("nan") if value is None else float(value)

    def warnings_about(self, key: Key) -> tuple[str, ...]:
        """The warnings that bear on the score at ``key`` (a :data:`Key`, as ``metric_key`` gives it).

        Each warning of a 0/0 has a scope in :attr:`warning_scopes`:

        * ``per_label:<measures>``: those measures (recall and FNR together, F and Jaccard …) were 0/0 for the
          labels :attr:`undefined` lists. It bears on those labels' values of them; on the macro averages of them
          (and macro_fa's F, the F of the macro precision and recall, when they are precision or recall); on the
          weighted and lfb averages of them when one of those labels has a weight above 0; on micro only when every
          label of the set is among them (the sums are then 0/0); never on samples. F counted from tp, fp and fn is
          defined for a label that is never predicted, so a precision 0/0 does not bear on F.
        * ``average:<name>`` or ``average:<name>:<measures>``: that average (of those measures) only.
        * ``overall:<name>``: that overall measure only.

        A warning without a scope (about the data or the label set, or added after scoring) bears on every score.

        >>> import clfeval
        >>> r = clfeval.score(["a", "a", "b"], ["a", "a", "a"])
        >>> r.warnings_about(("averages", "macro", "precision"))
        ("precision is 0/0 for 1 label(s) never predicted: 'b'; set to 0 and included in averages",)
        >>> r.warnings_about(("averages", "macro", "f")), r.warnings_about(("accuracy",))
        ((), ())
        """

        shapes = (("averages", 3), ("per_label", 3))
        if not (isinstance(key, tuple) and key and all(isinstance(part, str) for part in key)) or (
            len(key) != dict(shapes).get(key[0], 1)
        ):
            raise OptionError(
                f"a score's key is ('averages', <average>, <measure>), ('per_label', <label>, <measure>) or "
                f"(<overall measure>,), as metric_key gives it; not {key!r}"
            )

        def bears(scope: str) -> bool:
            if not scope:
                return True
            kind, _, rest = scope.partition(":")
            if kind == "overall":
                return key == (rest,)
            if kind == "average":
                name, _, measure = rest.partition(":")
                return key[0] == "averages" and key[1] == name and (not measure or key[2] in measure.split(","))
            measures = set(rest.split(","))
            labels = {lab for m in measures for lab in self.undefined.get(m, ())}
            if key[0] == "per_label":
                return key[2] in measures and key[1] in labels
            if key[0] != "averages" or key[1] == "samples":
                return False
            if key[1] == "macro_fa" and key[2] == "f":  # F of the macro precision and recall
                return bool(measures & {"precision", "recall"})
            if key[2] not in measures:
                return False
            if key[1] == "micro":  # a sum of denominators is 0 only when every label's is
                return set(self.labels) <= labels
            if key[1] == "weighted":  # a label of support 0 has weight 0
                return any(self.per_label[lab].support for lab in labels)
            if key[1] == "lfb":
                return any(self.lfb_frequencies.get(lab, 0.0) for lab in labels)
            return True

        return tuple(w for w in self.warnings if bears(self.warning_scopes.get(w, "")))

    @property
    def f_name(self) -> str:
        """The report name of F for this β: ``f1``, ``f2``, ``f0.5`` …"""
        return f_key(self.beta)

    @property
    def accuracy(self) -> float:
        """Single-label: correct / N. Multi-label: subset accuracy (whole label set right) / N."""
        return self.overall["accuracy"]

    @property
    def hamming_loss(self) -> float:
        """Multi-label: Σ_L (fp + fn) / (N·|L|); single-label: 1 − accuracy."""
        return self.overall["hamming_loss"]

    @property
    def micro_fpr(self) -> float:
        """Σ fp / Σ (fp + tn) over L."""
        return self.overall["micro_fpr"]

    def __getitem__(self, name: str) -> float:
        """One number by its name, as :meth:`flat` (with ``sep="."``) and the scikit-learn scorer name it:
        ``r["macro_fa.f1"]``, ``r["mcc"]``, ``r["subset_accuracy"]``, ``r["per_label.B.recall"]``, ``r["n_instances"]``.

        Raises
        ------
        UnknownName
            For a name the result does not hold (an :class:`~clfeval.OptionError` and a ``KeyError``), listing the
            close names.

        >>> import clfeval
        >>> r = clfeval.score(["a", "b", "b"], ["a", "b", "a"], ci="delta")
        >>> r["macro_fa.f1"] == r.averages["macro_fa"]["f"], r["per_label.b.recall"]
        (True, 0.5)
        >>> [round(x, 3) for x in r.interval("micro.f1")]
        [0.133, 1.0]
        """
        if name == "n_instances":
            return float(self.n_instances)
        return self.value_at(self.key_of(name))

    def __contains__(self, name: object) -> bool:
        """Whether ``result[name]`` gives a number: ``"macro.f1" in r``."""
        if not isinstance(name, str):
            return False
        if name == "n_instances":
            return True
        try:
            self.key_of(name)
        except UnknownName:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        """The names :meth:`names` lists, as a mapping's keys: ``for name in r: r[name]``."""
        return iter(self.names())

    def interval(self, name: str) -> tuple[float, float] | None:
        """The interval of the score named ``name`` (as for ``result[name]``), or ``None`` when it has none (the
        reason is in ``intervals.not_estimable``).

        Raises
        ------
        OptionError
            When the result has no intervals (score with ``ci=...``), or for ``n_instances``, a count with no
            interval; :class:`~clfeval.errors.UnknownName` for an unknown name.
        """
        if name == "n_instances":
            raise OptionError("n_instances is a count of the data, not an estimate: it has no interval")
        key = self.key_of(name)
        if self.intervals is None:
            raise OptionError(f"no intervals were asked for: score with ci='delta' (or another method) for {name!r}'s")
        return self.intervals.get(key)

    def key_of(self, name: str) -> Key:
        """The key (``("averages", "macro", "f")`` …) of the score named ``name``: the name of :meth:`__getitem__`."""
        from clfeval.scoring.metrics import metric_key
        from clfeval.scoring.sklearnnames import binary_measure, report_name_hint

        if not isinstance(name, str):
            raise UnknownName(f"a score's name is a string such as 'macro.f1', not {name!r}")
        if name == "n_instances":
            raise OptionError("n_instances is a count of the data (result['n_instances']), not a score: it has no key")
        measure = binary_measure(name, self.beta)
        if measure is not None:
            if self.positive is None:
                raise UnknownName(self._binary_refusal(name))
            return ("per_label", self.positive, measure)
        hint = report_name_hint(name, self.f_name)
        if hint is not None:
            raise UnknownName(hint)
        if name in self.withheld():
            raise UnknownName(f"{name} is not given: {self.order_rule}")
        try:
            return metric_key(name, labels=self.labels, task=self.family, beta=self.beta)
        except OptionError:
            close = _close_names(name, self.names())
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            examples = f"macro.{self.f_name}, micro.precision, accuracy, per_label.<label>.recall"
            raise UnknownName(f"this result holds no score named {name!r}{hint} (names: {examples} …)") from None

    def _binary_refusal(self, name: str) -> str:
        """Why ``result[name]``, a binary problem's name (``f1``), names no score here, and what to read instead."""
        fk = self.f_name
        measure = name if name != fk else fk
        if self.family == "single-label" and len(self.labels) == 2:
            return f"{name!r} is the positive class's {measure}, but {self.positive_rule}"
        return (
            f"{name!r} is a binary problem's {measure} of its positive class (scikit-learn's average='binary'), and "
            f"this result has {len(self.labels)} labels{' in sets' if self.family != 'single-label' else ''}: read "
            f"result['macro.{measure}'] (scikit-learn's average='macro'; clfeval's macro_fa is another average), "
            f"result['micro.{measure}'], result['weighted.{measure}'] or result['per_label.<label>.{measure}']"
        )

    def names(self) -> list[str]:
        """Every name ``result[...]`` takes: those of :meth:`flat` with ``sep="."``, per-label scores included."""
        return [name for name in self.flat(".", per_label=True) if not name.endswith(("_ci_low", "_ci_high"))]

    def flat(self, sep: str = "/", *, per_label: bool = False, prefix: tuple[str, ...] = ()) -> dict[str, float]:
        """The scores as one flat mapping for an experiment tracker: each average's measures (``macro/f1``,
        ``macro_fa/f1``, ``micro/precision`` …), the overall measures (``accuracy``, ``mcc`` …; multi-label
        ``subset_accuracy``), ``n_instances``, and with intervals ``<name>_ci_low`` and ``<name>_ci_high`` (NaN when
        not estimable). ``per_label`` adds ``per_label/<label>/<measure>`` for every label and measure (8 numbers a
        label, 24 with intervals: off by default, as 10⁴ labels would be 10⁵ metrics); ``prefix`` is put before every
        name.

        >>> import clfeval
        >>> flat = clfeval.score(["a", "b", "b"], ["a", "b", "a"]).flat()
        >>> flat["macro/f1"], flat["accuracy"], flat["n_instances"]
        (0.6666666666666666, 0.6666666666666666, 3.0)
        """
        fk, iv = self.f_name, self.intervals
        out = FlatScores(sep)
        out[flat_name([*prefix, "n_instances"], sep)] = float(self.n_instances)
        if self.invalid is not None:  # n_invalid, and the coverage under omit
            for name, value in self.invalid.flat().items():
                out[flat_name([*prefix, name], sep)] = value
        weighed = self.inputs.get("sample_weight")
        if weighed is not None:  # the instances' total weight, beside their number
            out[flat_name([*prefix, "sample_weight_sum"], sep)] = float(weighed["sum"])

        def put(path: list[str], value: float, key: Key) -> None:
            name = flat_name([*prefix, *path], sep)
            out[name] = float(value)
            if iv is not None:
                bounds = iv.get(key)
                out[name + "_ci_low"], out[name + "_ci_high"] = (math.nan, math.nan) if bounds is None else bounds

        for average, values in self.averages.items():
            for m in averaged_measures(self.family):
                put([average, _json_name(m, fk)], values[m], ("averages", average, m))
        for measure in self.given_overall():
            put([measure.name_for(self.family)], self.overall[measure.name], (measure.name,))
        if self.positive is not None:  # a binary problem's own names: the positive class's values (pos_label)
            positive = self.per_label[self.positive].values
            for m in ("precision", "recall", "f"):
                put([_json_name(m, fk)], positive[m], ("per_label", self.positive, m))
        if per_label:
            names = [(m.name, _json_name(m.name, fk)) for m in label_measures(self.family)]
            for lab, row in self.per_label.items():
                for m, name in names:
                    put(["per_label", lab, name], row.values[m], ("per_label", lab, m))
        return dict(out)

    def signature_parts(self) -> list[tuple[str, str]]:
        """What decides these numbers (see :attr:`~clfeval.result.Result.signature`): the scoring choices, then the
        interval method."""
        return [*self.scoring_parts(), self.interval_part()]

    def scoring_parts(self) -> list[tuple[str, str]]:
        """The task, the label set's source and size (a declared set also its digest, as the declared labels are an
        option: :func:`~clfeval.result.signature_digest`), β, 0/0's value and average membership, the multi-label
        counting options and the lfb weights' source, as signature pairs."""
        zd = self.zero_division
        size = (
            f"{len(self.labels)},#{signature_digest(self.labels)}" if self.label_source == "given" else len(self.labels)
        )
        parts = [
            ("task", self.task),
            ("labels", f"{self.label_source}({size})"),
            ("beta", signature_number(self.beta)),
            ("zero", f"{signature_number(zd)},{self.undefined_policy}"),
        ]
        from clfeval.kinds import KINDS

        parts += [(key, str(self.options.get(key, ""))) for key in KINDS[self.task].option_names]
        parts.append(("lfb", self.lfb_source))
        return parts + ([("invalid", self.invalid.policy)] if self.invalid is not None else [])

    def interval_part(self) -> tuple[str, str]:
        """The interval method as a signature pair: ``none``, or the method, confidence, resamples, seed and, when
        blocks of instances are the unit, their number."""
        iv = self.intervals
        if iv is None:
            return ("ci", "none")
        parts = [iv.method, signature_number(iv.confidence)]
        if iv.resamples is not None:
            parts += [f"n={iv.resamples}", f"seed={iv.seed}"]
        if iv.unit != "instances":
            parts.append(f"blocks={iv.n_units}")
        return ("ci", ",".join(parts))

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:
        """The JSON contract ``clfeval.score/2`` (docs/json.md); NaN becomes ``null``; ``matrix=False`` writes
        ``"confusion_matrix": null``."""
        fk = self.f_name
        names = [(m.name, _json_name(m.name, fk)) for m in label_measures(self.family)]  # once, not once per label
        counted = count_names(self.family)
        per_label = {
            lab: {
                **{c: getattr(r, c) for c in counted},
                **{key: json_number(float(r.values[m])) for m, key in names},
            }
            for lab, r in self.per_label.items()
        }
        averages: dict[str, dict[str, Any]] = {}
        for name, values in self.averages.items():
            averages[name] = {_json_name(m, fk): json_number(values[m]) for m in averaged_measures(self.family)}
        if "lfb" in averages:
            averages["lfb"]["frequencies"] = self.lfb_source
            averages["lfb"]["weights"] = dict(self.lfb_frequencies)
        overall: dict[str, Any] = {}
        withheld = self.withheld()
        for m in overall_measures(self.family):
            overall[m.name] = None if m.name in withheld else json_number(self.overall[m.name])
            if self.family in m.aliases:
                overall[m.aliases[self.family]] = overall[m.name]
        if self.intervals is not None:
            self._add_intervals(per_label, averages, overall)
        zd = self.zero_division
        out: dict[str, Any] = {
            "schema": SCHEMA,
            "clfeval_version": __version__,
            "signature": self.signature,
            "task": self.task,
            "n_instances": self.n_instances,
            "beta": self.beta,
            "labels": list(self.labels),
            "label_source": self.label_source,
            "per_label": per_label,
            "averages": averages,
            **overall,
            "ci": self._ci_dict(),
            "confusion_matrix": self._matrix_dict() if matrix else None,
        }
        out["zero_division"] = {
            "value": "nan" if math.isnan(zd) else int(zd),
            "in_average": self.undefined_policy,
            "affected": {k: list(v) for k, v in self.undefined.items()},
        }
        from clfeval.kinds import KINDS

        kind = KINDS.get(self.task)
        details = kind.details(self.counts) if kind is not None else None
        if details is not None:
            out[kind.name] = details
        if self.invalid is not None:
            out["invalid"] = self.invalid.to_dict()
        out["options"] = dict(self.options)
        out["inputs"] = dict(self.inputs)
        out["warnings"] = list(self.warnings)
        out["notes"] = list(self.notes)
        registered = registered_of(self.family)
        if registered:  # only then: a document of built-in measures alone is as before
            out["registered_measures"] = registered
        out["label_order"] = {
            "order": None if self.order is None else list(self.order),
            "rule": self.order_rule,
            "withheld": sorted(withheld),
        }
        out["pos_label"] = {"label": self.positive, "rule": self.positive_rule}
        return out

    def to_json(self, indent: int | None = 2, *, matrix: bool = True) -> str:
        """:meth:`to_dict` as JSON text; a sparse matrix's cells are written straight from the counts' arrays."""
        data = self.to_dict(matrix=False)
        if matrix:
            data["confusion_matrix"] = self._matrix_dict(arrays=True)
        return json_text(data, indent)

    def _matrix_dict(self, arrays: bool = False) -> dict[str, Any] | None:
        """The confusion matrix: dense up to :data:`DENSE_JSON_LABELS` labels, else its non-zero cells (``arrays``:
        single-label cells as :class:`~clfeval.result.IntegerRows`, for :meth:`to_json`); ``None`` for a kind
        without one."""
        confusion = self.confusion
        if confusion is None:
            return None
        labels = list(confusion.labels)
        dense = len(labels) <= DENSE_JSON_LABELS
        out: dict[str, Any] = {"labels": labels, "layout": "dense" if dense else "sparse"}
        if isinstance(confusion, SplitMatrix):
            out["empty"] = labels[-1]
            if dense:
                out["counts"] = NumberTable(confusion.gold_view.tolist())
                out["counts_predicted_view"] = NumberTable(confusion.predicted_view.tolist())
            else:
                out["cells"] = NumberTable(
                    list(cell)
                    for cell in zip(
                        confusion.gold.tolist(),
                        confusion.pred.tolist(),
                        confusion.gold_counts.tolist(),
                        confusion.predicted_counts.tolist(),
                    )
                )
        elif dense:
            out["counts"] = NumberTable(confusion.cells.tolist())
        elif arrays:
            out["cells"] = IntegerRows(np.column_stack([confusion.gold, confusion.pred, confusion.count]))
        else:
            out["cells"] = NumberTable(
                list(cell) for cell in zip(confusion.gold.tolist(), confusion.pred.tolist(), confusion.count.tolist())
            )
        return out

    def _add_intervals(self, per_label: dict[str, Any], averages: dict[str, Any], overall: dict[str, Any]) -> None:
        """Put each score's ``<name>_ci`` beside it (``null`` when not estimable)."""
        iv = self.intervals
        assert iv is not None
        fk = self.f_name

        def ci(key: Key) -> list[float] | None:
            bounds = iv.get(key)
            return None if bounds is None else [float(bounds[0]), float(bounds[1])]

        measures = [m.name for m in label_measures(self.family)] + ["precision_wilson", "recall_wilson"]
        for lab, row in per_label.items():
            for m in measures:
                row[_json_name(m, fk) + "_ci"] = ci(("per_label", lab, m))
        for name, row in averages.items():
            for m in averaged_measures(self.family):
                row[_json_name(m, fk) + "_ci"] = ci(("averages", name, m))
        names = {alias: m.name for m in overall_measures(self.family) for alias in m.aliases.values()}
        withheld = self.withheld()
        for name in list(overall):
            key = names.get(name, name)
            overall[name + "_ci"] = None if key in withheld else ci((key,))

    def _ci_dict(self) -> dict[str, Any]:
        iv = self.intervals
        if iv is None:
            return {"method": "none", "confidence": None, "resamples": None, "seed": None}
        fk = self.f_name
        return {
            "method": iv.method,
            "definition": iv.definition,
            "confidence": iv.confidence,
            "resamples": iv.resamples,
            "seed": iv.seed,
            "unit": iv.unit,
            "n_units": iv.n_units,
            "not_estimable": _by_pointer(iv.not_estimable, fk),
            "remarks": _by_pointer(iv.remarks, fk),
            "notes": list(iv.notes),
        }


def registered_of(family: str) -> dict[str, dict[str, Any]]:
    """The measures of ``family`` registered with :func:`clfeval.register_measure`, as the JSON describes them
    (``registered_measures``: each one's scope, whether averaged, definition, sums read, direction and range)."""
    from clfeval.scoring.measures import MEASURES

    return {
        m.name: {
            "scope": m.scope,
            "averaged": m.averaged,
            "definition": m.definition,
            "reads": sorted(m.reads),
            "higher_is_better": m.higher_is_better,
            "range": [json_number(m.low), json_number(m.high)],
        }
        for m in MEASURES.values()
        if m.registered and family in m.tasks
    }
