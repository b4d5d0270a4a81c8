"""Helpers the benchmark scripts share: Markdown tables, ratio text, package versions, writing the results file."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def md_table(head: list[str], body: list[list[str]], right: set[int]) -> list[str]:
    """A Markdown pipe table with aligned columns; columns in ``right`` are right-aligned."""
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]

    def fmt(cells: list[str]) -> str:
        return "| " + " | ".join(c.rjust(w) if i in right else c.ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else "-" * (w + 2) for i, w in enumerate(widths)) + "|"
    return [fmt(head), rule] + [fmt(b) for b in body] + [""]


def ratio_text(x: float) -> str:
    """A speed ratio: one decimal below 10×, none above."""
    return f"{x:,.1f}×" if x < 10 else f"{x:,.0f}×"


def pkg_version(name: str) -> str:
    """An installed package's version, or ``not installed``."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def write_results(header: list[str], sections: list[str], footer: list[str], started: float, output: str,
                  log: Callable[[str], None]) -> None:
    """Print the report and write it to ``output``, with the total benchmark time at the end."""
    text = "\n".join(header + sections + footer + ["", f"Total benchmark time: {time.perf_counter() - started:.0f} s",
                                                   ""])
    print(text)
    Path(output).write_text(text, encoding="utf-8")
    log(f"wrote {output}")
