"""Progress of long computations: what library code reports, and the bar the command line draws from it.

Library code reports through a plain callable ``progress(done, total)``, phase by phase: within a phase ``done``
rises to ``total``; a new phase (the BCa jackknife after the bootstrap) starts again from its own start. Before a
phase starts, library code calls :func:`phase`, which tells a callable that has a ``phase`` method (the command
line's :class:`ProgressBar`) the phase's name; a plain callable is not told. Only the command line decides to draw
(on standard error, when that is a terminal and ``--no-progress`` is not given).

This module imports nothing of clfeval's (the standard library alone), so every layer may report through it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO, TypeVar

__all__ = ["DELAY_VARIABLE", "Progress", "ProgressBar", "ReadingBar", "phase", "steps"]

T = TypeVar("T")

#: A progress callback: ``progress(done, total)``.
Progress = Callable[[int, int], None]

#: The environment variable that sets the seconds before a bar first draws (default 0.5): a testing aid, so that a
#: test sees a bar on a run of a second or less without making its runs slow.
DELAY_VARIABLE = "CLFEVAL_PROGRESS_DELAY"


def phase(progress: Progress | None, name: str) -> Progress | None:
    """``progress`` told that the phase ``name`` starts, when it listens (has a ``phase`` method); returned as given,
    for the phase's own ``(done, total)`` calls.

    >>> calls = []
    >>> class Listener:
    ...     def phase(self, name): calls.append(name)
    ...     def __call__(self, done, total): calls.append((done, total))
    >>> phase(Listener(), "BCa jackknife")(1, 2)
    >>> calls
    ['BCa jackknife', (1, 2)]
    """
    if progress is not None:
        announce = getattr(progress, "phase", None)
        if callable(announce):
            announce(name)
    return progress


def steps(progress: Progress | None, name: str, items: Sequence[T]) -> Iterator[T]:
    """``items`` one at a time, as the phase ``name`` (:func:`phase`): ``progress(i, len(items))`` once the i-th is
    done (the folds of cross-validation, each scored in turn).

    >>> calls = []
    >>> [x for x in steps(lambda d, t: calls.append((d, t)), "folds", "ab")], calls
    (['a', 'b'], [(1, 2), (2, 2)])
    """
    told = phase(progress, name)
    for i, item in enumerate(items, 1):
        yield item
        if told is not None:
            told(i, len(items))


def _delay() -> float:
    """The seconds before a bar first draws: :data:`DELAY_VARIABLE` from the environment, else 0.5."""
    value = os.environ.get(DELAY_VARIABLE)
    try:
        return max(float(value), 0.0) if value else 0.5
    except ValueError:
        return 0.5


class ProgressBar:
    """Draws ``clfeval: bootstrap  45%  4500/10000  1.2k/s  ETA 3s`` on one line of ``stream``.

    Nothing is drawn before ``delay`` seconds have passed since the bar was made (short runs stay quiet; default:
    :data:`DELAY_VARIABLE`, else 0.5 s), nor when the stream is not a terminal or ``enabled`` is false. A phase
    (:meth:`phase`) names what runs now — ``clfeval: BCa jackknife …`` — and restarts the rate and the ETA. Call
    :meth:`close` when done to clear the line.
    """

    def __init__(
        self,
        label: str,
        stream: TextIO,
        *,
        delay: float | None = None,
        interval: float = 0.1,
        enabled: bool = True,
    ) -> None:
        self.label = label
        self.stream = stream
        self.delay = _delay() if delay is None else delay
        self.interval = interval
        self.born = self.start = time.monotonic()
        self._last = 0.0
        self._drawn = False
        self.enabled = enabled and bool(getattr(stream, "isatty", lambda: False)())

    def phase(self, name: str) -> None:
        """Name the phase that starts now (``clfeval: <name>``); its rate and ETA are its own."""
        self.label = f"clfeval: {name}"
        self.start = time.monotonic()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        elapsed = self._due(done < total)
        if elapsed is None:
            return
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        self._draw(f"{self.label}  {100 * done / max(total, 1):3.0f}%  {done}/{total}  {_si(rate)}/s  ETA {eta:.0f}s")

    def _due(self, running: bool) -> float | None:
        """Seconds since the phase started when it is time to draw, else ``None``."""
        if not self.enabled:
            return None
        now = time.monotonic()
        if now - self.born < self.delay or (now - self._last < self.interval and running):
            return None
        self._last = now
        return now - self.start

    def _draw(self, line: str) -> None:
        self._drawn = True  # first: a Ctrl-C between the write and this line still has the line cleared
        self.stream.write("\r" + line + "\033[K")
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar's line, if one was drawn."""
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._drawn = False


class ReadingBar(ProgressBar):
    """The :class:`ProgressBar` of reading: ``clfeval: reading  45%  72.0/160.0 MB  4.5M rows  120.0 MB/s  ETA 1s``.

    Called as ``bar(bytes_done, bytes_total, rows_done)`` (a reader's ``ReadProgress``); with no total (standard
    input) it shows what was read and the rate, without a percentage or ETA.
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
