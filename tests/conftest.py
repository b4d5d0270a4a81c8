"""Shared test helpers: the seed vectors, and running the installed ``clfeval`` command on real files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


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


def run_cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``clfeval ARGS`` as a subprocess and capture its output (text)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run(clfeval_command() + list(args), input=stdin, capture_output=True, cwd=cwd, env=env,
                          timeout=120)


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
