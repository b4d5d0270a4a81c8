"""A progress bar for long computations, drawn on a terminal and silent everywhere else.

Library code reports progress through a plain callable ``progress(done, total)``; only the command
line decides to draw it (on standard error, when that is a terminal).
"""

from __future__ import annotations

import time
from typing import TextIO

__all__ = ["ProgressBar", "ReadingBar"]


class ProgressBar:
    """Draws ``label  45%  4500/10000  1.2k/s  ETA 3s`` on one line of ``stream``.

    Nothing is drawn before ``delay`` seconds have passed (short runs stay quiet), nor when the
    stream is not a terminal. Call :meth:`close` when done to clear the line.
    """

    def __init__(self, label: str, stream: TextIO, *, delay: float = 0.5, interval: float = 0.1) -> None:
        self.label = label
        self.stream = stream
        self.delay = delay
        self.interval = interval
        self.start = time.monotonic()
        self._last = 0.0
        self._drawn = False
        self.enabled = bool(getattr(stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        elapsed = self._due(done < total)
        if elapsed is None:
            return
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        self._draw(f"{self.label}  {100 * done / max(total, 1):3.0f}%  {done}/{total}  {_si(rate)}/s  ETA {eta:.0f}s")

    def _due(self, running: bool) -> float | None:
        """Seconds since the start when it is time to draw, else ``None``."""
        if not self.enabled:
            return None
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or (now - self._last < self.interval and running):
            return None
        self._last = now
        return elapsed

    def _draw(self, line: str) -> None:
        self.stream.write("\r" + line + "\033[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Clear the bar's line, if one was drawn."""
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False


class ReadingBar(ProgressBar):
    """Draws ``clfeval: reading  45%  72.0/160.0 MB  4.5M rows  120.0 MB/s  ETA 1s`` while files are read.

    Called as ``bar(bytes_done, bytes_total, rows_done)``; with no total (standard input) it shows
    what was read and the rate, without a percentage or ETA.
    """

    def __call__(self, done: int, total: int | None, rows: int = 0) -> None:
        elapsed = self._due(total is None or done < total)
        if elapsed is None:
            return
        rate = done / elapsed if elapsed > 0 else 0.0
        if total:
            eta = (total - done) / rate if rate > 0 else 0.0
            self._draw(
                f"{self.label}  {100 * done / total:3.0f}%  {_si(done)}B/{_si(total)}B  {_si(rows)} rows  "
                f"{_si(rate)}B/s  ETA {eta:.0f}s"
            )
        else:
            self._draw(f"{self.label}  {_si(done)}B  {_si(rows)} rows  {_si(rate)}B/s")


def _si(x: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= size:
            return f"{x / size:.1f}{unit}"
    return f"{x:.0f}"
