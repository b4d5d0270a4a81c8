"""The installed ``clfeval`` command as a real process: what the in-process runner of the other CLI tests cannot show.

Every other CLI test runs :func:`clfeval.cli.main` in the test process (``tests.conftest.run_cli``); these start
the console script itself: its entry point, exit codes, standard input from a pipe, a reader that closes the
pipe early, and (in ``test_cli.py``) Ctrl-C and a file-size limit.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import clfeval_command, cli_error, run_cli_process


def test_the_console_script_runs_and_names_its_version() -> None:
    import clfeval

    out = run_cli_process("--version")
    assert out.returncode == 0 and out.stdout.decode().strip() == f"clfeval {clfeval.__version__}"
    assert run_cli_process().returncode == 2  # no command: usage on stderr


def test_standard_input_through_a_pipe_and_exit_codes(tmp_path: Path) -> None:
    out = run_cli_process("score", "-", "--format", "json", stdin=b"a a\nb a\nb b\n", cwd=tmp_path)
    assert out.returncode == 0 and b'"n_instances": 3' in out.stdout and out.stderr == b""
    cli_error(run_cli_process("score", "missing.txt", cwd=tmp_path), "missing.txt: no such file")
    cli_error(run_cli_process("score", "-", stdin=b"a\n", cwd=tmp_path), "<stdin>:1: the gold column -2 does not exist")
    cli_error(run_cli_process("score", "--no-such-option", cwd=tmp_path), "unrecognized arguments")


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path: Path) -> None:
    """``clfeval score big.txt | head -1``: the closed pipe is not an error and prints no traceback."""
    (tmp_path / "big.txt").write_text("".join(f"w a{i % 50} a{(i * 7) % 50}\n" for i in range(5000)))
    with subprocess.Popen(
        clfeval_command() + ["score", "big.txt", "--format", "csv"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # as head does
        err = process.stderr.read()
        process.wait(timeout=60)
    assert first == b"section,label,measure,value\n"
    assert process.returncode == 0 and b"Traceback" not in err, err
