"""Figures as inline SVG, for the self-contained HTML report: no script or font is fetched to draw them.

Every piece of text goes through :func:`html.escape`, so a label such as ``<b>&"x"`` is shown as written.
The heat map carries each cell's colour and text for the three views (count, row, column) as data
attributes; the report's few lines of script switch between them, and without script the count view shows.
"""

from __future__ import annotations

import math
from html import escape

import numpy as np

from clfeval.render.text import visible
from clfeval.report.figures import DotPlot, HeatMap, LinePlot, Point, Series

__all__ = [
    "MUTED",
    "PALETTE",
    "VIEWS",
    "blues",
    "cell_texts",
    "compact",
    "dot_plot_svg",
    "heat_map_svg",
    "line_plot_svg",
    "markup_text",
    "nice_ticks",
    "series_colours",
    "short",
]

#: The heat map's views: name → what a cell shows. A row (column) that adds up to 0 has no shares: "–".
VIEWS = {
    "count": "counts",
    "row": "% of the gold row (recall view)",
    "column": "% of the predicted column (precision view)",
}

#: Marker colours (Okabe and Ito's colour-blind-safe palette), in series order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
MUTED = "#8a8a8a"


def markup_text(text: object) -> str:
    r"""``text`` as HTML or SVG character data or an attribute value: control characters shown as escapes, then
    ``& < > " '`` as entities.

    >>> print(markup_text('<b>&"x"\t'))
    &lt;b&gt;&amp;&quot;x&quot;\t
    """
    return escape(visible(str(text)), quote=True)


_e = markup_text


def short(label: str, width: int) -> str:
    r"""``label`` cut to ``width`` characters with an ellipsis, so a long name cannot push a figure apart; control
    characters shown as escapes (:func:`~clfeval.render.text.visible`).

    >>> short("a-very-long-label-name", 10), short("tab\there", 10)
    ('a-very-lo…', 'tab\\there')
    """
    label = visible(label)
    return label if len(label) <= width else label[: width - 1] + "…"


def compact(value: float) -> str:
    """A count in at most four characters: ``987``, ``12.5`` (split counts), ``1.2k``, ``34k``, ``5.6M``.

    >>> [compact(v) for v in (0, 987, 12.5, 1234, 34_000, 5_600_000)]
    ['0', '987', '12.5', '1.2k', '34k', '5.6M']
    """
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            scaled = value / size
            return f"{scaled:.1f}{suffix}" if scaled < 10 else f"{scaled:.0f}{suffix}"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.1f}" if abs(value) >= 1 else f"{value:.2f}"


def blues(shade: float) -> str:
    """A colour from white (0) to dark blue (1), as ``#rrggbb``.

    >>> blues(0.0), blues(1.0)
    ('#f7fbff', '#08306b')
    """
    light, dark = np.array([247, 251, 255]), np.array([8, 48, 107])
    r, g, b = np.rint(light + (dark - light) * min(max(shade, 0.0), 1.0)).astype(int)
    return f"#{r:02x}{g:02x}{b:02x}"


def _ink(shade: float) -> str:
    return "#ffffff" if shade > 0.5 else "#1a1a1a"


def cell_texts(heat: HeatMap, view: str) -> list[list[str]]:
    """What each cell shows in ``view``: its count (:func:`compact`), or its share as a whole percentage ("–" where
    it has none)."""
    if view == "count":
        return [[compact(float(x)) for x in row] for row in heat.cells]
    defined = heat.defined(view)
    return [
        [f"{100 * x:.0f}" if ok else "–" for x, ok in zip(row, oks)] for row, oks in zip(heat.shares(view), defined)
    ]


def heat_map_svg(heat: HeatMap) -> str:
    """The heat map as an SVG element: one ``rect.cell`` and one ``text`` per cell, rows and columns named.

    Each cell's ``data-fill-<view>``, ``data-ink-<view>`` and ``data-text-<view>`` hold its colour, text
    colour and text in each of :data:`VIEWS`; its tooltip gives the count and both shares.
    """
    n = len(heat.labels)
    size = 40 if n <= 12 else 30 if n <= 24 else 24
    font = 12 if n <= 12 else 10 if n <= 24 else 8.5
    names = [short(lab, 18) for lab in heat.labels]
    left = 22 + 7 * max([len(s) for s in names] + [4])
    top = 26 + int(5.2 * max([len(s) for s in names] + [4]))
    width, height = left + n * size + 8, top + n * size + 8
    shades = {v: heat.shade(v) for v in VIEWS}
    shares = {v: heat.shares(v) for v in ("row", "column")}
    texts = {v: cell_texts(heat, v) for v in VIEWS}
    out = [
        f'<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{_e(heat.title)}" font-size="{font}">',
        f'<text x="{left + n * size / 2}" y="12" text-anchor="middle" class="axis">predicted →</text>',
        f'<text x="10" y="{top + n * size / 2}" text-anchor="middle" class="axis" '
        f'transform="rotate(-90 10 {top + n * size / 2})">gold →</text>',
    ]
    for i, (label, name) in enumerate(zip(heat.labels, names)):
        y = top + i * size + size / 2
        out.append(
            f'<text x="{left - 6}" y="{y}" text-anchor="end" dominant-baseline="central" class="label">'
            f"<title>{_e(label)}</title>{_e(name)}</text>"
        )
        x = left + i * size + size / 2
        out.append(
            f'<text x="{x}" y="{top - 6}" class="label" transform="rotate(-55 {x} {top - 6})">'
            f"<title>{_e(label)}</title>{_e(name)}</text>"
        )
    for i, gold in enumerate(heat.labels):
        for j, pred in enumerate(heat.labels):
            x, y = left + j * size, top + i * size
            data = " ".join(
                f'data-fill-{v}="{blues(shades[v][i, j])}" data-ink-{v}="{_ink(shades[v][i, j])}" '
                f'data-text-{v}="{texts[v][i][j]}"'
                for v in VIEWS
            )
            tip = (
                f"gold {gold} → predicted {pred}: {compact(float(heat.cells[i, j]))} "
                f"({100 * shares['row'][i, j]:.1f}% of the row, {100 * shares['column'][i, j]:.1f}% of the column)"
            )
            diagonal = " diagonal" if i == j else ""
            out.append(
                f'<rect class="cell{diagonal}" x="{x}" y="{y}" width="{size - 1}" height="{size - 1}" '
                f'fill="{blues(shades["count"][i, j])}" {data}><title>{_e(tip)}</title></rect>'
            )
            out.append(
                f'<text class="count" x="{x + (size - 1) / 2}" y="{y + (size - 1) / 2}" text-anchor="middle" '
                f'dominant-baseline="central" fill="{_ink(shades["count"][i, j])}" pointer-events="none">'
                f"{texts['count'][i][j]}</text>"
            )
    out.append("</svg>")
    return "\n".join(out)


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high], about ``count`` of them.

    >>> nice_ticks(0, 1)
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> nice_ticks(-0.034, 0.034)
    [-0.02, 0.0, 0.02]
    """
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = min((m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw), default=10 * power)
    first = math.ceil(low / step - 1e-9)
    ticks = []
    k = first
    while k * step <= high + 1e-9 * step:
        ticks.append(round(k * step, 12) + 0.0)
        k += 1
    return ticks


def _marker(kind: str, x: float, y: float, colour: str, small: bool) -> str:
    r = 3.0 if small else 4.5
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if kind == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    if kind == "diamond":
        d = r * 1.3
        return (
            f'<polygon points="{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}" '
            f'fill="{colour}"/>'
        )
    if kind == "triangle":
        return (
            f'<polygon points="{x:.1f},{y - r:.1f} {x + r:.1f},{y + r:.1f} {x - r:.1f},{y + r:.1f}" fill="{colour}"/>'
        )
    return f'<line x1="{x:.1f}" y1="{y - 7:.1f}" x2="{x:.1f}" y2="{y + 7:.1f}" stroke="{colour}" stroke-width="2.5"/>'


def _fmt(x: float) -> str:
    return "undefined" if math.isnan(x) else f"{x:.4f}"


def _tip(row: str, series: Series, point: Point) -> str:
    bounds = "" if point.low is None or point.high is None else f" [{_fmt(point.low)}, {_fmt(point.high)}]"
    return f"{row} — {series.name}: {_fmt(point.value)}{bounds}"


def series_colours(plot: DotPlot) -> list[str]:
    """Each series' colour: grey for muted series, else the palette in order."""
    out, k = [], 0
    for s in plot.series:
        out.append(MUTED if s.muted else PALETTE[k % len(PALETTE)])
        k += 0 if s.muted else 1
    return out


def dot_plot_svg(plot: DotPlot) -> str:
    """The dot plot as an SVG element: a row per name, each series a marker with its interval bar."""
    names = [short(r, 26) for r in plot.rows]
    left = 16 + int(7.6 * max([len(s) for s in names] + [6]))
    right = 16 + int(7.2 * max([len(s) for s in plot.notes] + [0]))
    inner = 480
    width = left + inner + right
    row_h = 14 + 5 * min(len([s for s in plot.series if not s.muted]), 4)
    top, legend_h = 44, 22
    height = top + legend_h + row_h * len(plot.rows) + 26
    span = plot.high - plot.low or 1.0

    def x_of(v: float) -> float:
        return left + inner * (min(max(v, plot.low), plot.high) - plot.low) / span

    colours = series_colours(plot)
    out = [
        f'<svg class="dotplot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="img" aria-label="{_e(plot.title)}" font-size="12">'
    ]
    lx = left
    seen_muted = False
    for s, colour in zip(plot.series, colours):  # the legend: one entry for all muted series (the folds)
        if s.muted and seen_muted:
            continue
        name = "folds" if s.muted else s.name
        seen_muted = seen_muted or s.muted
        out.append(_marker(s.marker, lx + 5, 16, colour, s.muted))
        out.append(f'<text x="{lx + 14}" y="16" dominant-baseline="central" class="legend">{_e(name)}</text>')
        lx += 30 + int(6.8 * len(name))
    y0 = top + legend_h
    y1 = y0 + row_h * len(plot.rows)
    for t in nice_ticks(plot.low, plot.high):
        x = x_of(t)
        out.append(f'<line x1="{x:.1f}" y1="{y0 - 4}" x2="{x:.1f}" y2="{y1}" class="grid"/>')
        out.append(f'<text x="{x:.1f}" y="{y1 + 14}" text-anchor="middle" class="tick">{t:g}</text>')
        out.append(f'<text x="{x:.1f}" y="{y0 - 8}" text-anchor="middle" class="tick">{t:g}</text>')
    if plot.reference is not None:
        x = x_of(plot.reference)
        out.append(f'<line x1="{x:.1f}" y1="{y0 - 4}" x2="{x:.1f}" y2="{y1}" class="reference"/>')
    shown = [s for s in plot.series if not s.muted]
    offsets = {id(s): (k - (len(shown) - 1) / 2) * 5 for k, s in enumerate(shown)}
    for i, (row, name) in enumerate(zip(plot.rows, names)):
        yc = y0 + row_h * i + row_h / 2
        band = ' class="band"' if i % 2 == 0 else ' class="band odd"'
        out.append(f'<rect x="{left}" y="{y0 + row_h * i}" width="{inner}" height="{row_h}"{band}/>')
        out.append(
            f'<text x="{left - 8}" y="{yc}" text-anchor="end" dominant-baseline="central" class="label">'
            f"<title>{_e(row)}</title>{_e(name)}</text>"
        )
        if plot.notes and plot.notes[i]:
            out.append(
                f'<text x="{left + inner + 8}" y="{yc}" dominant-baseline="central" class="note">'
                f"{_e(plot.notes[i])}</text>"
            )
        for s, colour in zip(plot.series, colours):
            point = s.points[i]
            if point is None or math.isnan(point.value):
                continue
            y = yc + offsets.get(id(s), 0.0)
            parts = [f'<g class="point"><title>{_e(_tip(row, s, point))}</title>']
            if point.low is not None and point.high is not None:
                parts.append(
                    f'<line x1="{x_of(point.low):.1f}" y1="{y:.1f}" x2="{x_of(point.high):.1f}" '
                    f'y2="{y:.1f}" stroke="{colour}" stroke-width="1.6"/>'
                )
            parts.append(_marker(s.marker, x_of(point.value), y, colour, s.muted))
            parts.append("</g>")
            out.append("".join(parts))
    out.append("</svg>")
    return "\n".join(out)


def line_plot_svg(plot: LinePlot) -> str:
    """The line plot as an SVG element: the unit square with grid lines, each curve a line (a band: a shaded area
    between its low and high), the diagonal dashed, a legend above."""
    size, left, top, bottom = 320, 52, 40, 40
    named = [c for c in plot.curves if c.low is None]
    legend_rows = (len(named) + 1) // 2
    width, height = left + size + 24, top + 18 * legend_rows + size + bottom

    y0 = top + 18 * legend_rows

    def px(x: float) -> float:
        return left + size * min(max(x, 0.0), 1.0)

    def py(y: float) -> float:
        return y0 + size * (1 - min(max(y, 0.0), 1.0))

    out = [
        f'<svg class="lineplot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" role="img" aria-label="{_e(plot.title)}" font-size="12">'
    ]
    for t in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{px(t):.1f}" y1="{y0}" x2="{px(t):.1f}" y2="{y0 + size}" class="grid"/>')
        out.append(f'<line x1="{left}" y1="{py(t):.1f}" x2="{left + size}" y2="{py(t):.1f}" class="grid"/>')
        out.append(f'<text x="{px(t):.1f}" y="{y0 + size + 14}" text-anchor="middle" class="tick">{t:g}</text>')
        out.append(
            f'<text x="{left - 6}" y="{py(t):.1f}" text-anchor="end" dominant-baseline="central" '
            f'class="tick">{t:g}</text>'
        )
    out.append(
        f'<text x="{left + size / 2}" y="{y0 + size + 32}" text-anchor="middle" class="label">{_e(plot.x_label)}</text>'
    )
    out.append(
        f'<text x="14" y="{y0 + size / 2}" text-anchor="middle" class="label" '
        f'transform="rotate(-90 14 {y0 + size / 2})">{_e(plot.y_label)}</text>'
    )
    if plot.diagonal:
        out.append(f'<line x1="{px(0)}" y1="{py(0)}" x2="{px(1)}" y2="{py(1)}" class="reference"/>')
    colours: dict[str, str] = {}
    for k, curve in enumerate(named):
        colours[curve.name] = PALETTE[k % len(PALETTE)]
        x, y = 8 + (k % 2) * (size // 2 + 20), 14 + 18 * (k // 2)
        out.append(f'<rect x="{left + x}" y="{y - 5}" width="14" height="3" fill="{colours[curve.name]}"/>')
        out.append(
            f'<text x="{left + x + 20}" y="{y}" dominant-baseline="central" class="legend">{_e(curve.name)}</text>'
        )
    last = PALETTE[0]
    for curve in plot.curves:
        if curve.low is not None and curve.high is not None:  # a band: the area between low and high
            upper = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(curve.x, curve.high))
            lower = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(reversed(curve.x), reversed(curve.low)))
            out.append(f'<polygon points="{upper} {lower}" fill="{last}" fill-opacity="0.15" stroke="none"/>')
            continue
        last = colours[curve.name]
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(curve.x, curve.y) if not math.isnan(y))
        if curve.sizes is None:
            out.append(f'<polyline points="{points}" fill="none" stroke="{last}" stroke-width="1.8"/>')
            continue
        out.append(f'<polyline points="{points}" fill="none" stroke="{last}" stroke-width="1.2"/>')
        biggest = max(curve.sizes) or 1
        for cx, cy, n in zip(curve.x, curve.y, curve.sizes):
            radius = 2.5 + 5.5 * math.sqrt(n / biggest)
            out.append(
                f'<circle cx="{px(cx):.1f}" cy="{py(cy):.1f}" r="{radius:.1f}" fill="{last}" fill-opacity="0.7">'
                f"<title>{_e(f'confidence {cx:.3f}, share right {cy:.3f}, {n} instances')}</title></circle>"
            )
    out.append("</svg>")
    return "\n".join(out)
