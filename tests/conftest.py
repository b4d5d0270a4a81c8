"""Shared test helpers: the seed vectors, and running the ``clfeval`` command on real files (in this process, or as
the installed console script in a subprocess where only a real process will do)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def dask_client() -> Any:
    """A real local Dask cluster of two worker processes, started once for the session (each pytest worker) and
    shared by every module that counts on it (tests/daskcluster.py)."""
    pytest.importorskip("distributed", reason="the dask engine needs the optional dask extra (dask, distributed)")
    from tests.daskcluster import local_cluster

    with local_cluster() as client:
        yield client


@pytest.fixture(scope="session")
def seed_vectors() -> dict:
    return json.loads((DATA / "seed_vectors.json").read_text(encoding="utf-8"))


def clfeval_command() -> list[str]:
    """The installed console script (next to the running interpreter), as a user would run it."""
    script = Path(sys.executable).with_name("clfeval")
    if script.exists():
        return [str(script)]
    found = shutil.which("clfeval")
    if found is None:
        raise RuntimeError("the clfeval command is not installed: run `make test`, which installs it")
    return [found]


def run_cli_process(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``clfeval ARGS`` as a subprocess and capture its output: for what only a real process
    shows (the entry point, signals, resource limits, pipes, a worker cluster)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run(
        clfeval_command() + list(args), input=stdin, capture_output=True, cwd=cwd, env=env, timeout=120
    )


#: Warnings Python shows by default (the others are ignored outside __main__), as a ``clfeval`` process shows them.
_HIDDEN_BY_DEFAULT = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)


def _module_of(filename: str) -> str | None:
    """The dotted module name of a clfeval source file (what warning filters match), or None."""
    parts = Path(filename).with_suffix("").parts
    return ".".join(parts[parts.index("clfeval") :]) if "clfeval" in parts else None


def run_cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``clfeval ARGS`` in this process through :func:`clfeval.cli.main`, as the console script does: standard
    input, output and error as bytes, the exit code (argparse's ``SystemExit`` included), the working directory,
    and Python warnings written to standard error as a process would print them (then raised again here, where the
    test suite's warning filters make a warning clfeval raises by mistake an error). About 1 s faster per call than
    a subprocess (:func:`run_cli_process`), which the few tests that need a real process use."""
    from clfeval.cli import main

    streams = {name: io.BytesIO() for name in ("stdout", "stderr")}
    wrapped = (
        io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"),
        io.TextIOWrapper(streams["stdout"], encoding="utf-8", write_through=True),
        io.TextIOWrapper(streams["stderr"], encoding="utf-8", write_through=True),
    )
    saved = (sys.stdin, sys.stdout, sys.stderr, os.getcwd())
    sys.stdin, sys.stdout, sys.stderr = wrapped
    try:
        if cwd is not None:
            os.chdir(cwd)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            for category in _HIDDEN_BY_DEFAULT:
                warnings.simplefilter("ignore", category)
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: --help, --version, usage errors
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
                if exc.code is not None and not isinstance(exc.code, int):
                    print(exc.code, file=sys.stderr)
        for w in caught:
            sys.stderr.write(warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line))
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr, cwd_before = saved
        os.chdir(cwd_before)
    out, err = streams["stdout"].getvalue(), streams["stderr"].getvalue()
    for stream in wrapped:
        stream.detach()  # the byte buffers outlive their text wrappers
    for w in caught:  # and to the test's own filters: a warning clfeval raises by mistake fails the test
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, module=_module_of(w.filename))
    return subprocess.CompletedProcess(["clfeval", *args], code, out, err)


def cli_json(*args: str, cwd: Path) -> dict:
    """Run ``clfeval ARGS --format json`` in ``cwd``; it must succeed. Its JSON output."""
    out = run_cli(*args, "--format", "json", cwd=cwd)
    assert out.returncode == 0, out.stderr.decode()
    return json.loads(out.stdout)


def cli_error(out: subprocess.CompletedProcess, *needles: str) -> str:
    """A usage or input error: exit code 2, nothing on stdout, one line on stderr holding every needle."""
    err = out.stderr.decode()
    assert out.returncode == 2, (out.returncode, err)
    assert out.stdout == b""
    assert err.startswith("clfeval: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def signature_of(text: str) -> str:
    """The signature a text report closes with (``signature: …`` and the indented lines after it, broken after
    its '|' separators), joined back into one line."""
    from clfeval.render.text import SIGNATURE_INDENT

    lines = text.splitlines()
    first = max(i for i, line in enumerate(lines) if line.startswith("signature: "))
    rest = lines[first + 1 :]
    indent = len(SIGNATURE_INDENT)
    assert all(line.startswith(SIGNATURE_INDENT) and not line[indent:].startswith(" ") for line in rest), rest
    return (lines[first] + "".join(line[indent:] for line in rest))[len("signature: ") :]
