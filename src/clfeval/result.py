"""What every result is: a frozen record with a versioned JSON contract, its report, its formats and its figures.

Each kind of result (a score, a comparison, a cross-validation, a conversion, an audit, a finagle) subclasses
:class:`Result` and names, as class attributes, the formats it renders to, the function that builds its report
and the one that builds its figures (``"module:function"``, imported on use: the report and render layers sit
above every result). Renderers read the report; nothing switches on a result's type.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeVar, overload

from clfeval.errors import OptionError

if TYPE_CHECKING:  # the report layer sits above the results; imported on use only
    import pandas as pd
    import polars as pl

    from clfeval.report.figures import Figure
    from clfeval.report.tables import Report

__all__ = [
    "TEXT_FORMATS",
    "FlatScores",
    "FrozenDict",
    "IntegerRows",
    "NumberTable",
    "Result",
    "flat_name",
    "json_number",
    "json_safe",
    "json_text",
    "signature_digest",
    "signature_number",
]

_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A read-only dict: what a result holds its tables in (per-label rows, averages, options …).

    Unlike :class:`types.MappingProxyType` it pickles, deep-copies and compares as the dict it is, so a result goes
    through ``copy.deepcopy``, ``pickle``, joblib, a multiprocessing return or a cache and equals itself after; any
    change (``d[k] = v``, ``update``, ``del`` …) is a ``TypeError``.
    """

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self:  # made once, as a dict is; calling __init__ again would change it
            self._read_only()
        super().__init__(*args, **kwargs)

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{type(self).__name__} is read-only: a result's tables do not change")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = __ior__ = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict[_K, _V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict[_K, _V]:
        import copy

        return type(self)({copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict.__repr__(self)})"


#: The formats every result renders to (a report's tables and notes); ``html`` is for results with figures.
TEXT_FORMATS: tuple[str, ...] = ("text", "json", "markdown", "csv", "latex")


def json_number(x: float) -> float | None:
    """``x``, or ``None`` for NaN (JSON has no NaN)."""
    return None if isinstance(x, float) and math.isnan(x) else x


@overload
def json_safe(value: dict[str, Any]) -> dict[str, Any]: ...
@overload
def json_safe(value: Any) -> Any: ...
def json_safe(value: Any) -> Any:
    """``value`` with every NaN replaced by ``None``, through dicts and lists (JSON has no NaN)."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return json_number(value)


class NumberTable(list[Any]):
    """A list of rows of numbers (a dense matrix, a sparse matrix's cells) that :func:`json_text` writes a row per
    line, at C speed; it is a plain list to everything else."""


class IntegerRows:
    """Rows of whole numbers held as an (R, C) int64 array, which :func:`json_text` writes a row per line straight
    from the array (no Python list per row): a sparse confusion matrix's millions of cells."""

    def __init__(self, array: Any) -> None:
        self.array = array

    def text(self, inner: str) -> str:
        """The rows as JSON arrays, joined by ``,`` + ``inner`` (a newline and the indentation)."""
        import polars as pl

        columns = {f"c{i}": self.array[:, i] for i in range(self.array.shape[1])}
        rows = pl.DataFrame(columns).select(
            pl.format("[" + ", ".join("{}" for _ in columns) + "]", *columns).str.join("," + inner)
        )
        text: str = rows.item()
        return text


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON: with ``indent``, objects and lists of lists one entry per line, a list of scalars (numbers,
    strings, null) on one line, and :class:`NumberTable` and :class:`IntegerRows` a row per line; with ``indent``
    None, on one line."""
    out: list[str] = []
    _write_json(value, indent, 0, out)
    return "".join(out)


def _write_json(value: Any, indent: int | None, level: int, out: list[str]) -> None:
    def newline(depth: int) -> str:
        return "" if indent is None else "\n" + " " * (indent * depth)

    inner, close = newline(level + 1), newline(level)
    if isinstance(value, IntegerRows):
        out.append("[" + (inner + value.text(inner or " ") + close if len(value.array) else "") + "]")
    elif isinstance(value, NumberTable) and value:
        text = json.dumps(value)
        out.append("[" + inner + text[1:-1].replace("], [", "]," + (inner or " ") + "[") + close + "]")
    elif isinstance(value, dict) and value and (line := _flat_object(value, inner, close)) is not None:
        out.append(line)
    elif isinstance(value, dict) and value:
        out.append("{")
        for n, (key, item) in enumerate(value.items()):
            out.append(
                ("," if n else "") + (inner or ("" if not n else " ")) + json.dumps(str(key), ensure_ascii=False) + ": "
            )
            _write_json(item, indent, level + 1, out)
        out.append(close + "}")
    elif isinstance(value, (list, tuple)) and value and any(isinstance(v, (dict, list, tuple)) for v in value):
        out.append("[")
        for n, item in enumerate(value):
            out.append(("," if n else "") + (inner or ("" if not n else " ")))
            _write_json(item, indent, level + 1, out)
        out.append(close + "]")
    else:
        out.append(json.dumps(value, ensure_ascii=False))


def _flat_object(value: dict[Any, Any], inner: str, close: str) -> str | None:
    """An object of scalars and intervals (a per-label row, the reasons of the scores with no interval) one entry per
    line, through the C encoder (``json.dumps`` with an indent is pure Python); ``None`` when a value is an object or
    a nested list, or a key or string holds the separator ``, "`` itself (a label ``a, ``), which the split would
    cut."""
    if not all(map(_flat, value.values())):
        return None
    text = json.dumps(value, ensure_ascii=False)[1:-1]
    if text.count(', "') != len(value) - 1:
        return None
    return "{" + inner + text.replace(', "', "," + (inner or " ") + '"') + close + "}"


#: The types of a JSON scalar (numpy's float64 is a float too, found by the isinstance below).
_SCALARS = frozenset({int, float, str, bool, type(None)})


def _flat(value: Any) -> bool:
    """Whether ``value`` is a scalar (number, string, boolean, null) or a list of scalars (an interval): JSON text
    with no object or nested list in it."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is list:
        return all(type(v) in _SCALARS or isinstance(v, (int, float, str)) for v in value)
    return isinstance(value, (int, float, str))


class FlatScores(dict[str, float]):
    """The mapping :meth:`Result.flat` builds: a name given twice (a system or label name that holds the separator,
    ``a_vs_b`` systems) is an error, not a number silently overwritten."""

    def __init__(self, sep: str) -> None:
        super().__init__()
        self.sep = sep

    def __setitem__(self, name: str, value: float) -> None:
        if name in self:
            raise OptionError(
                f"two numbers would share the flat name {name!r}: label or system names that hold the separator "
                f"{self.sep!r} (or a system name with '_vs_') run into each other's; give flat() another sep or "
                "rename them"
            )
        super().__setitem__(name, value)

    def update(self, *others: Any, **named: float) -> None:
        for other in others:
            for name, value in other.items() if hasattr(other, "items") else other:
                self[name] = value
        for name, value in named.items():
            self[name] = value


def signature_number(value: float) -> str:
    """A number as the signature writes it: short (``0.5``, ``1``) unless that would hide a digit that decides the
    numbers (``0.5000004`` stays whole), so two runs with different options never share a signature."""
    short = f"{value:g}"
    return short if math.isnan(value) or float(short) == value else repr(float(value))


def signature_digest(names: Sequence[str]) -> str:
    """Eight hex digits of the SHA-256 of ``names`` in order as a JSON array (UTF-8, ``json.dumps`` with
    ``ensure_ascii=False``): two declared label sets of one size get different signatures, whatever characters
    (newlines, commas) the labels hold."""
    text = json.dumps(list(names), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def flat_name(parts: Any, sep: str) -> str:
    """A flat name (:meth:`Result.flat`): the path's parts joined by ``sep``, which must be a non-empty string."""
    if not isinstance(sep, str) or not sep:
        raise OptionError(f"the separator of flat names must be a non-empty string, not {sep!r}")
    return sep.join(parts)


def _builder(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Result:
    """What every result offers on top of its ``to_dict()`` contract: JSON text, its report, the renderers, its
    figures, ``str``.

    Attributes
    ----------
    kind
        What the result is, in words (``score``, ``compare`` …), for messages.
    formats
        The names of :data:`clfeval.render.RENDERERS` it renders to.
    report_builder, figures_builder
        ``"module:function"`` of the function that builds its :class:`~clfeval.report.tables.Report` and its
        figures (``None``: it has none).
    """

    kind: ClassVar[str] = "result"
    formats: ClassVar[tuple[str, ...]] = TEXT_FORMATS
    report_builder: ClassVar[str] = ""
    figures_builder: ClassVar[str | None] = None
    frames_builder: ClassVar[str] = "clfeval.report.frames:report_frames"

    def to_dict(self, *, matrix: bool = True) -> dict[str, Any]:  # pragma: no cover - every result defines its own
        """The versioned JSON contract; ``matrix=False`` leaves confusion matrices out (``null``)."""
        raise NotImplementedError

    def to_json(self, indent: int | None = 2, *, matrix: bool = True) -> str:
        """:meth:`to_dict` as JSON text: objects indented, a list of numbers or strings on one line (a matrix row,
        a cell of a sparse matrix), so the text grows with the cells written, not with their digits' lines."""
        return json_text(self.to_dict(matrix=matrix), indent)

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        """The result's numbers as one flat mapping name → value, for an experiment tracker (MLflow, W&B,
        TensorBoard …): ``{"macro/f1": …, "macro/f1_ci_low": …, "accuracy": …}``. Names are the report's paths
        (``macro.f1``, ``per_label.<label>.f1``) joined by ``sep``; an undefined value is NaN. Scores, comparisons,
        cross-validations and finagles have them; ``per_label=True`` adds each label's scores (off by default: 10⁴
        labels would be 10⁵ numbers)."""
        raise OptionError(f"a {self.kind} result has no scores to log (score, compare, cv and finagle results have)")

    def signature_parts(self) -> list[tuple[str, str]]:
        """The (key, value) pairs of :attr:`signature` after the version: what decides this result's numbers."""
        return []

    @property
    def signature(self) -> str:
        """One short line recording what decides the numbers, for a paper to cite (as sacreBLEU's signature does
        for MT): ``key:value`` pairs joined by ``|``, the clfeval version first, then the task, the label set's
        source and size, β, the value of 0/0 and whether such labels stay in averages, the lfb weights' source,
        the interval method (confidence, resamples, seed, unit) or the test (alternative, rounds, seed, α).

        >>> import clfeval
        >>> clfeval.score(["a", "b", "b"], ["a", "b", "a"]).signature  # doctest: +ELLIPSIS
        'clfeval:...|task:single-label|labels:union(2)|beta:1|zero:0,include|lfb:test|ci:none'
        """
        from clfeval._version import __version__

        return "|".join(f"{key}:{value}" for key, value in [("clfeval", __version__), *self.signature_parts()])

    def report(self, *, matrix: bool = True) -> Report:
        """This result's report: titled tables, notes and warnings, its figures and its tidy rows, for every
        renderer (``matrix=False`` leaves the confusion matrix out); its last note is the :attr:`signature`."""
        from dataclasses import replace

        report: Report = _builder(self.report_builder)(self, matrix=matrix)
        return replace(report, notes=(*report.notes, f"signature: {self.signature}"))

    def table_names(self) -> tuple[str, ...]:
        """The names of this result's tidy tables (:meth:`to_polars`, :meth:`to_pandas`), the default one first."""
        frames = _builder(self.frames_builder)(self)
        return (frames.default, *(n for n in frames.names if n != frames.default))

    def to_polars(self, table: str | None = None) -> pl.DataFrame:
        """One of this result's tidy tables as a polars DataFrame: a row per label, average, pair or fold, a column
        per number, intervals as ``_ci_low`` / ``_ci_high`` columns. ``table`` is one of :meth:`table_names` (default:
        the first: a score's ``per_label``, a comparison's ``pairs``, a cross-validation's ``folds``); the columns
        are documented in docs/integrations.md and :mod:`clfeval.report.frames`.

        >>> import clfeval
        >>> r = clfeval.score(["a", "b", "b"], ["a", "b", "a"])
        >>> r.to_polars("averages").select("average", "f1").row(1)
        ('macro', 0.6666666666666666)
        """
        import polars as pl

        columns = _builder(self.frames_builder)(self).columns(table)
        return pl.DataFrame(columns, strict=False, nan_to_null=False)

    def to_pandas(self, table: str | None = None) -> pd.DataFrame:
        """As :meth:`to_polars`, a pandas DataFrame (pandas is imported here, and only here: it is not a
        dependency of clfeval; ``pip install pandas``)."""
        try:
            import pandas as pd
        except ImportError:
            raise OptionError("to_pandas needs pandas (pip install pandas); to_polars needs nothing more") from None
        columns = _builder(self.frames_builder)(self).columns(table)
        return pd.DataFrame(columns)

    def figures(self) -> list[Figure]:
        """This result's figures (heat maps, dot plots) as data; an :class:`OptionError` for a result without."""
        if self.figures_builder is None:
            raise OptionError(f"a {self.kind} result has no figures (score, compare and cv results have)")
        figures: list[Figure] = _builder(self.figures_builder)(self)
        return figures

    def renders_to(self) -> tuple[str, ...]:
        """The formats this result renders to: :attr:`formats`, and those of its kind of data (``conlleval`` for
        spans)."""
        return self.formats

    def render(self, fmt: str = "text", **options: Any) -> str:
        """This result rendered in the format ``fmt``, one of :meth:`renders_to` (see :data:`clfeval.render.RENDERERS`;
        ``options`` from :data:`clfeval.render.RENDER_OPTIONS`)."""
        from clfeval.render import render  # render sits above every result; imported on use only

        return render(self, fmt, **options)

    def plot(self, directory: str) -> list[Any]:
        """Draw this result's figures into ``directory`` as PNG and SVG files; returns their paths. For results with
        figures (score, compare and cv); needs matplotlib (``pip install 'clfeval[plot]'``). See
        :func:`clfeval.render.plot.write_plots`."""
        self.figures()  # a result without figures says so before matplotlib is looked for
        from clfeval.render.plot import write_plots  # render sits above every result; imported on use only

        return write_plots(self, directory)

    def __str__(self) -> str:
        return self.render("text")

    def __repr__(self) -> str:
        """A compact summary that fits a notebook cell or a REPL line: the kind, its size and its headline scores
        (:func:`clfeval.render.notebook.compact_text`); ``str()`` gives the whole text report."""
        from clfeval.render.notebook import compact_text  # render sits above every result; imported on use only

        return compact_text(self)

    def _repr_html_(self) -> str:
        """The notebook display (Jupyter calls it): a self-contained HTML fragment with the report's summary, the
        confusion matrix and the per-label plot where the result has them (:func:`clfeval.render.notebook.fragment`);
        no script or style from the network."""
        from clfeval.render.notebook import fragment  # render sits above every result; imported on use only

        return fragment(self)


#: The counts every result reports beside its scores, by flat name.
COUNT_NAMES: Mapping[str, str] = {
    "n_instances": "the number of instances counted: predictions (single-label), instances with their label sets "
    "(multi-label), scored instances (scored predictions); for spans, the entries of the span confusion (each matched "
    "pair, missed gold span and spurious predicted span)",
    "sample_weight_sum": "the total weight Σw of the instances counted with sample weights (sample_weight=, "
    "--weight-col): every count is a sum of weights, and n_instances stays the number of instances",
    "n_invalid": "the number of invalid predictions (missing, or outside the declared labels) under invalid='wrong' "
    "or 'omit' (--invalid); in compare, system.n_invalid is one system's and n_invalid the instances where any "
    "system's was invalid",
    "n_groups": "the number of groups of a result by group (score(..., groups=), --group-col): each distinct value of "
    "the group column, or each combination of the values of several columns present in the data",
    "coverage": "under invalid='omit' (--invalid omit): the share of instances kept, kept / n, with its Wilson "
    "interval in the JSON; the scores are those of the kept instances",
}


def unknown_name(name: str, names: Sequence[str], what: str = "score") -> Exception:
    """The error for a name ``r[name]`` does not know: :class:`~clfeval.errors.UnknownName` naming the known names
    closest to it (:func:`difflib.get_close_matches`)."""
    import difflib

    from clfeval.errors import UnknownName

    close = difflib.get_close_matches(name, list(names), n=5)
    return UnknownName(f"unknown {what} {name!r}" + (f"; did you mean {', '.join(map(repr, close))}?" if close else ""))


def flat_number(flat: Mapping[str, float], name: str, whole: str, what: str = "score") -> float:
    """The number of a result's :meth:`~Result.flat` (joined by dots) named ``name``, or ``<whole>.<name>`` (the
    whole data's, or the pooled folds', read bare), else :func:`unknown_name`'s error over the names it has."""
    if name in flat:
        return flat[name]
    if f"{whole}.{name}" in flat:
        return flat[f"{whole}.{name}"]
    prefix = f"{whole}."
    raise unknown_name(name, [*(n[len(prefix) :] for n in flat if n.startswith(prefix)), *flat], what)


class Folded:
    """What a cross-validation answers, of every kind, in the naming scheme of a score: ``r["macro.f1"]`` is the
    pooled score (the folds' counts added, then scored: the recommended summary), ``r["pooled.macro.f1"]`` the same,
    ``r["mean_of_folds.macro.f1"]`` and ``r["sd.macro.f1"]`` the folds' mean and sd; ``r.interval(name)`` the pooled
    score's interval; :meth:`names` every name (its :meth:`flat` names joined by ``.``)."""

    pooled: Any

    def flat(self, sep: str = "/", *, per_label: bool = False) -> dict[str, float]:
        raise NotImplementedError

    def names(self) -> list[str]:
        """Every name :meth:`__getitem__` answers: the pooled scores bare and as ``pooled.…``, and the folds' mean
        and sd."""
        flat = self.flat(".", per_label=True)
        bare = [n[len("pooled.") :] for n in flat if n.startswith("pooled.")]
        return [*bare, *flat]

    def __getitem__(self, name: str) -> float:
        flat = self.flat(".", per_label=True)
        if name in flat or f"pooled.{name}" in flat:
            return flat_number(flat, name, "pooled")
        from clfeval.errors import UnknownName
        from clfeval.scoring.scored import renamed

        new = renamed(name)
        if new is not None and new in self:
            raise UnknownName(f"unknown score {name!r}: it is named {new!r} (every average before its measure)")
        return flat_number(flat, name, "pooled")

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def interval(self, name: str) -> Any:
        """The pooled score's interval (the one the pooled counts give, with ``ci=``)."""
        return self.pooled.interval(name[len("pooled.") :] if name.startswith("pooled.") else name)
