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


def _modules_after(tmp_path: Path, *args: str) -> set[str]:
    """The clfeval modules a fresh interpreter has loaded after running ``clfeval ARGS`` (in process, output to a
    file)."""
    import sys

    script = (
        "import sys\nfrom clfeval.cli import main\n"
        f"code = main({list(args)!r})\n"
        "print(code, *sorted(m for m in sys.modules if m.startswith('clfeval')))"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, check=True)
    code, *modules = out.stdout.decode().split()
    assert code == "0", out.stderr.decode()
    return set(modules)


def test_a_command_imports_what_it_runs_and_not_the_other_commands(tmp_path: Path) -> None:
    """Start-up (issues 20 and 30): ``score`` does not load compare's tests, convert's and audit's inverse problems,
    the finagle, the HTML page or the intervals it was not asked for, and a delimited file does not load the readers
    of JSON Lines and Parquet, of files read in step or of the Dask engine, nor the counters of labels in memory and
    of blocks; asking for them loads them."""
    (tmp_path / "tiny.tsv").write_text("a\tb\nb\tb\na\ta\n")
    others = {
        "clfeval.infer.comparison",
        "clfeval.infer.significance",
        "clfeval.infer.crossvalidation",
        "clfeval.inverse.audit",
        "clfeval.inverse.conversion",
        "clfeval.scoring.finagle",
        "clfeval.report.page",
        "clfeval.render.html",
        "clfeval.render.plot",
        "clfeval.inputs.typed",  # JSON Lines and Parquet
        "clfeval.inputs.pairing",  # a gold file and prediction files read line by line, in step
        "clfeval.inputs.cluster",  # --engine dask
        "clfeval.inputs.arrays",  # labels in memory
        "clfeval.count.blocks",  # --blocks, --block-col
    }
    for fmt in ("json", "text"):
        loaded = _modules_after(tmp_path, "score", "tiny.tsv", "--format", fmt, "-o", f"out.{fmt}")
        assert "clfeval.scoring.computation" in loaded and not loaded & (others | {"clfeval.infer.intervals"}), loaded
    assert "clfeval.infer.intervals" in _modules_after(tmp_path, "score", "tiny.tsv", "--ci", "delta", "-o", "ci.txt")
    assert "clfeval.report.page" in _modules_after(tmp_path, "score", "tiny.tsv", "--format", "html", "-o", "r.html")
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    (tmp_path / "gold.txt").write_text("a\nb\na\n")
    (tmp_path / "pred.txt").write_text("b\nb\na\n")
    in_step = _modules_after(tmp_path, "score", "gold.txt", "pred.txt", "-o", "gp.txt")
    assert "clfeval.inputs.pairing" in in_step and "clfeval.inputs.typed" not in in_step
    (tmp_path / "tiny.jsonl").write_text('{"g": "a", "p": "b"}\n{"g": "b", "p": "b"}\n')
    assert "clfeval.inputs.typed" in _modules_after(
        tmp_path, "score", "tiny.jsonl", "--gold-col", "g", "--pred-col", "p", "-o", "j.txt"
    )
    (tmp_path / "three.tsv").write_text("a\tb\ta\nb\tb\ta\na\ta\tb\n")
    assert "clfeval.count.blocks" in _modules_after(
        tmp_path, "score", "three.tsv", "--block-col", "1", "--gold-col", "2", "--pred-col", "3", "-o", "b.txt"
    )
    compare = _modules_after(
        tmp_path, "compare", "three.tsv", "--gold-col", "1", "--pred-col", "2", "--pred-col", "3", "-o", "c.txt"
    )
    assert "clfeval.infer.comparison" in compare and "clfeval.inverse.audit" not in compare


def test_every_command_still_has_its_whole_help() -> None:
    """Only the command being run has its options built; each command's help is still whole, and the top-level
    help lists every command with its purpose."""
    top = run_cli_process("--help").stdout.decode()
    for command in ("score", "compare", "cv", "count", "convert", "audit", "finagle"):
        assert f"    {command}" in top
    assert "--test {ar,bootstrap,mcnemar,sign,delong}" in run_cli_process("compare", "--help").stdout.decode()
    assert "--precision X" in run_cli_process("convert", "--help").stdout.decode()
