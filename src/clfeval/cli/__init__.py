"""The ``clfeval`` command line: the parser, the dispatch to a command, and the exit codes. The only package that
touches argv, stdout/stderr and exit codes.

Each command is a module of its own (:mod:`~clfeval.cli.score`, :mod:`~clfeval.cli.count`,
:mod:`~clfeval.cli.compare`, :mod:`~clfeval.cli.cv`, :mod:`~clfeval.cli.convert`, :mod:`~clfeval.cli.audit`,
:mod:`~clfeval.cli.finagle`, :mod:`~clfeval.cli.explain`) with its parser's ``add_…`` and its ``run_…``; the
options several share are in :mod:`~clfeval.cli.options`, the input handling score, count, compare and cv share
in :mod:`~clfeval.cli.inputs`. Only the command being run has its parser built, and a command's heavy modules are
imported when it runs.

Exit codes: 0 on success; 2 on bad input or usage, with one line on stderr naming the file,
the line and what was expected.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from clfeval._version import __version__
from clfeval.cli import audit, compare, convert, count, cv, explain, finagle, score
from clfeval.errors import ClfevalError
from clfeval.output import write_text
from clfeval.render import check_render_options

__all__ = ["main"]

EXIT_USAGE = 2
#: The exit code after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


#: The commands, in help order: what each does, in one line (the top-level help lists them), and what adds its
#: parser.
_COMMANDS: dict[str, tuple[str, Callable[[Any], None]]] = {
    "score": (score.HELP, score.add_score),
    "compare": (compare.HELP, compare.add_compare),
    "cv": (cv.HELP, cv.add_cv),
    "count": (count.HELP, count.add_count),
    "convert": (convert.HELP, convert.add_convert),
    "audit": (audit.HELP, audit.add_audit),
    "finagle": (finagle.HELP, finagle.add_finagle),
    "explain": (explain.HELP, explain.add_explain),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``clfeval`` command.

    With ``command``, only that command's options are built (the others are listed by name and purpose, which is
    all the top-level help shows): a command does not import what only another command's options name (compare's
    tests, convert's quantities)."""
    parser = _Parser(prog="clfeval", description="Evaluate classifiers with every averaged score named.")
    parser.add_argument("--version", action="version", version=f"clfeval {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (purpose, add) in _COMMANDS.items():
        if command is None or name == command:
            add(sub)
            sub.choices[name].add_argument(
                "--no-progress",
                action="store_true",
                help="draw no progress bar (one is drawn on standard error only when it is a terminal, for runs "
                "of more than half a second: reading, resampling, the jackknife, folds)",
            )
        else:
            sub.add_parser(name, help=purpose)
    return parser


def _check_writable(output: str | None, plot: str | None) -> None:
    """Refuse an output file (-o) or a figure directory (--plot) that cannot be written, before any input is read."""
    if output is not None and output != "-":
        parent = os.path.dirname(os.path.abspath(output))
        if os.path.isdir(output):
            raise ClfevalError(f"cannot write {output}: it is a directory (-o names a file)")
        if not os.path.isdir(parent):
            raise ClfevalError(f"cannot write {output}: no such directory {parent}")
        if not os.access(parent, os.W_OK):
            raise ClfevalError(f"cannot write {output}: permission denied in {parent}")
    if plot is not None:
        existing = os.path.abspath(plot)
        while not os.path.exists(existing):
            existing = os.path.dirname(existing)
        if not os.path.isdir(existing):
            raise ClfevalError(f"cannot make the --plot directory {plot}: {existing} is a file")
        if not os.access(existing, os.W_OK):
            raise ClfevalError(f"cannot make the --plot directory {plot}: permission denied in {existing}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 done, 2 bad input or usage, 130 interrupted)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C raises KeyboardInterrupt: cleanup runs
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: no traceback; nothing half-written (output files are written atomically)
        _quiet_from_now_on()
        return EXIT_INTERRUPTED
    except Exception as exc:
        if not _interrupted(exc):
            raise
        _quiet_from_now_on()
        return EXIT_INTERRUPTED


def _interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` was caused by Ctrl-C: an import interrupted in a class body becomes Python's ``RuntimeError``
    ("Error calling __set_name__"), whose cause is the ``KeyboardInterrupt``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _quiet_from_now_on() -> None:
    """After Ctrl-C, nothing more is printed: not the log records nor the exceptions of the interpreter's exit that
    libraries interrupted mid-way leave behind (a Dask cluster interrupted while it starts or works: asyncio's "Task
    exception was never retrieved", ``distributed``'s closing of its clusters at exit)."""
    import logging

    logging.disable(logging.CRITICAL)
    sys.unraisablehook = lambda unraisable: None
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while the interpreter exits: exit as asked


def _main(argv: Sequence[str] | None) -> int:
    """Parse the arguments, check the output options, run the command and write what it returns."""
    if os.environ.get("CLFEVAL_MEASURES"):  # measures of one's own (clfeval.register_measure), before any name is read
        from clfeval.scoring.registration import register_from_environment

        try:
            register_from_environment()
        except ClfevalError as exc:
            print(f"clfeval: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    given = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(given[0] if given and given[0] in _COMMANDS else None)
    args = parser.parse_args(argv)
    args.command_line = shlex.join(["clfeval", *(sys.argv[1:] if argv is None else argv)])
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        if hasattr(args, "digits"):  # output options are checked before any input is read
            check_render_options(args.format, digits=args.digits)
        _check_writable(getattr(args, "output", None), getattr(args, "plot", None))
        text = args.run(args)
    except ClfevalError as exc:
        print(f"clfeval: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"clfeval: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.output:
            write_text(args.output, text)
        else:
            _write_stdout(text)
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where, kept = (
            (args.output, " (nothing was written)")
            if args.output
            else ("standard output", " (the output is incomplete)")
        )
        print(f"clfeval: error: cannot write {where}: {exc.strerror or exc}{kept}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _write_stdout(text: str) -> None:
    """Write ``text`` to standard output, every byte or an ``OSError``: a short write (a full disk, a file-size
    limit) is retried until it fails, where Python's buffered stream could drop the rest without a word."""
    sys.stdout.flush()
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's captured stream)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data) :]
