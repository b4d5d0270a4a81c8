"""The report's figures as PNG and SVG files for papers, drawn with matplotlib (the optional extra ``plot``).

The figures are those of the HTML report (:func:`clfeval.report.figures.figures_of`): the confusion heat map
in its three views (counts, row shares, column shares), the per-label dot plot, and for comparisons and
cross-validation their own plots. Labels are drawn as written: matplotlib's math mode is off, so ``$x$``
stays ``$x$``. SVG files keep text as text and carry no date, so the same result gives the same file.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.errors import ClfevalError
from clfeval.output import atomic_path
from clfeval.render.svg import PALETTE, VIEWS, blues, cell_texts, nice_ticks, series_colours, short
from clfeval.render.text import visible
from clfeval.report.figures import DotPlot, HeatMap, LinePlot, figures_of
from clfeval.result import Result

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["INSTALL_HINT", "write_plots"]

#: What to do when matplotlib is missing.
INSTALL_HINT = "--plot needs matplotlib, an optional extra: pip install 'clfeval[plot]' (or pip install matplotlib)"

_MARKERS = {"circle": "o", "square": "s", "diamond": "D", "triangle": "^", "tick": "|"}
_RC: dict[RcKeyType, Any] = {
    "text.parse_math": False,
    "svg.fonttype": "none",
    "svg.hashsalt": "clfeval",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ClfevalError(INSTALL_HINT) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _heat_map(plt: Any, heat: HeatMap, view: str) -> Any:
    from matplotlib.colors import LinearSegmentedColormap

    n = len(heat.labels)
    side = min(max(3.2, 0.42 * n + 1.6), 16.0)
    fig, ax = plt.subplots(figsize=(side, side))
    shade = heat.shade(view)
    cmap = LinearSegmentedColormap.from_list("clfeval_blues", [blues(0.0), blues(1.0)])
    # cells as vector rectangles (sharp in SVG, at any zoom), not an image
    ax.pcolormesh(np.arange(n + 1) - 0.5, np.arange(n + 1) - 0.5, shade, cmap=cmap, vmin=0.0, vmax=1.0)
    ax.set_xlim(-0.5, n - 0.5)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_aspect("equal")
    texts = cell_texts(heat, view)
    size = 9 if n <= 12 else 7 if n <= 24 else 5
    for i in range(n):
        for j in range(n):
            ax.text(
                j,
                i,
                texts[i][j],
                ha="center",
                va="center",
                fontsize=size,
                color="white" if shade[i, j] > 0.5 else "#1a1a1a",
            ).set_in_layout(False)  # inside the axes
    names = [short(lab, 18) for lab in heat.labels]
    ax.set_xticks(range(n), names, rotation=55, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(f"{heat.title}: {VIEWS[view]}", fontsize=10)
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig.tight_layout()
    return fig


def _dot_plot(plt: Any, plot: DotPlot) -> Any:
    rows = len(plot.rows)
    fig, ax = plt.subplots(figsize=(7.0, 0.9 + 0.26 * max(rows, 2)))
    shown = [s for s in plot.series if not s.muted]
    offsets = {id(s): (k - (len(shown) - 1) / 2) * 0.16 for k, s in enumerate(shown)}
    handles, names = [], []
    for s, colour in zip(plot.series, series_colours(plot)):
        drawn = [
            (i + offsets.get(id(s), 0.0), p)
            for i, p in enumerate(s.points)
            if p is not None and not math.isnan(p.value)
        ]
        bars = [(y, p.low, p.high) for y, p in drawn if p.low is not None and p.high is not None]
        if bars:  # from the low end to the high end: a percentile interval need not hold its estimate
            ax.hlines(
                [y for y, _, _ in bars],
                [lo for _, lo, _ in bars],
                [hi for _, _, hi in bars],
                color=colour,
                lw=1.2,
                alpha=0.75 if s.muted else 1.0,
            )
        (line,) = ax.plot(
            [p.value for _, p in drawn],
            [y for y, _ in drawn],
            _MARKERS[s.marker],
            color=colour,
            ms=3.5 if s.muted else 5,
            alpha=0.75 if s.muted else 1.0,
            mew=2 if s.marker == "tick" else 1,
            ls="none",
        )
        if not (s.muted and "folds" in names):  # one legend entry for all the folds
            handles.append(line)
            names.append("folds" if s.muted else visible(s.name))
    if plot.reference is not None:
        ax.axvline(plot.reference, color="#444444", lw=1, ls="--")
    ax.set_yticks(range(rows), [short(r, 26) for r in plot.rows])
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_xlim(plot.low, plot.high)
    ticks = nice_ticks(plot.low, plot.high)
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.grid(axis="x", color="#e3e3e3", lw=0.8)
    ax.set_axisbelow(True)
    for i, note in enumerate(plot.notes):
        if note:
            ax.annotate(
                note,
                (1.0, i),
                xycoords=("axes fraction", "data"),
                xytext=(6, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
    ax.legend(
        handles,
        names,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncol=min(len(names), 5),
        frameon=False,
        fontsize=8,
    )  # names given with their handles: a name starting with "_" is not hidden
    fig.tight_layout()
    return fig


def _line_plot(plt: Any, plot: LinePlot) -> Any:
    fig, ax = plt.subplots(figsize=(4.8, 4.8))
    colour = PALETTE[0]
    k = 0
    for curve in plot.curves:
        if curve.low is not None and curve.high is not None:
            ax.fill_between(curve.x, curve.low, curve.high, color=colour, alpha=0.15, lw=0)
            continue
        colour = PALETTE[k % len(PALETTE)]
        k += 1
        if curve.sizes is None:
            ax.plot(curve.x, curve.y, color=colour, lw=1.6, label=visible(curve.name))
        else:
            biggest = max(curve.sizes) or 1
            ax.plot(curve.x, curve.y, color=colour, lw=1.0)
            ax.scatter(
                curve.x, curve.y, s=[12 + 80 * (n / biggest) ** 0.5 for n in curve.sizes], color=colour, alpha=0.7,
                label=visible(curve.name),
            )  # fmt: skip
    if plot.diagonal:
        ax.plot([0, 1], [0, 1], color="#444444", lw=1, ls="--")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(plot.x_label)
    ax.set_ylabel(plot.y_label)
    ax.grid(color="#e3e3e3", lw=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="lower right", frameon=False, fontsize=8)
    fig.tight_layout()
    return fig


def write_plots(result: Result, directory: str | Path) -> list[Path]:
    """Draw the result's figures into ``directory`` (made if missing) as ``<name>.png`` and ``<name>.svg``.

    A heat map gives three figures, ``<key>``, ``<key>-row`` and ``<key>-column`` (its count, recall and
    precision views). Returns the paths written. Raises :class:`ClfevalError` with an install hint when
    matplotlib is missing.
    """
    plt = _pyplot()
    import matplotlib

    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ClfevalError(f"cannot make the --plot directory {directory}: {exc.strerror or exc}") from None
    written: list[Path] = []
    with matplotlib.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph .* missing from")  # CJK labels in a Latin font
        for fig_data in figures_of(result):
            if isinstance(fig_data, HeatMap):
                drawn = [
                    (fig_data.key if v == "count" else f"{fig_data.key}-{v}", _heat_map(plt, fig_data, v))
                    for v in VIEWS
                ]
            elif isinstance(fig_data, LinePlot):
                drawn = [(fig_data.key, _line_plot(plt, fig_data))]
            else:
                drawn = [(fig_data.key, _dot_plot(plt, fig_data))]
            for name, fig in drawn:
                for ext in ("png", "svg"):
                    path = out / f"{name}.{ext}"
                    try:
                        with atomic_path(path) as temporary:  # a full disk leaves no half-written figure
                            fig.savefig(
                                temporary,
                                dpi=200,
                                bbox_inches="tight",
                                format=ext,
                                metadata={"Date": None} if ext == "svg" else {"Software": "clfeval"},
                            )
                    except OSError as exc:
                        raise ClfevalError(f"cannot write {path}: {exc.strerror or exc}") from None
                    written.append(path)
                plt.close(fig)
    return written
