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
