"""The ``clfeval`` command (and ``python -m clfeval``): Ctrl-C is quiet from the first instant.

Importing the command's modules takes a few tenths of a second; a Ctrl-C meanwhile exits with 130 and no
traceback, as one later does (:func:`clfeval.cli.main` takes over the signal once it runs).
"""

from __future__ import annotations

import gc
import signal
import sys
from types import FrameType

__all__ = ["run"]


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(130)


def run() -> int:
    """Start the command line: install the quiet Ctrl-C handler, then import and run :func:`clfeval.cli.main`.

    The objects made by importing (modules, classes, registries) live as long as the process: ``gc.freeze`` moves
    them out of the collector's sight, so neither a collection during the run nor the one at exit walks them again
    (about 25 ms of a short run's start-up; issue 30)."""
    signal.signal(signal.SIGINT, _interrupted_while_starting)
    from clfeval.cli import main

    gc.freeze()
    return main()


if __name__ == "__main__":
    sys.exit(run())
