"""Progress on every long run: the library's ``progress(done, total)`` callable for every kind and task, phase by
phase, and the command line's one bar, drawn on a terminal (a real pseudo-terminal here), named by its phase, never in
a pipe nor with ``--no-progress``; Ctrl-C under a bar exits 130 with no traceback and no output file.

The bars are made to appear at once with ``CLFEVAL_PROGRESS_DELAY=0`` (:data:`clfeval.progress.DELAY_VARIABLE`, a
testing aid), so the runs stay small."""

from __future__ import annotations

import itertools
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.progress import DELAY_VARIABLE, ProgressBar, phase, steps

# ---------------------------------------------------------------------------------------------- the library's callable


class Recorder:
    """A progress callable that listens to phases: every call and phase, in order."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def phase(self, name: str) -> None:
        self.events.append(name)

    def __call__(self, done: int, total: int) -> None:
        self.events.append((done, total))

    def phases(self) -> list[tuple[str | None, list[tuple[int, int]]]]:
        """The phases in order, each with its calls (a phase that made none is kept: it was announced)."""
        out: list[tuple[str | None, list[tuple[int, int]]]] = []
        for event in self.events:
            if isinstance(event, str):
                out.append((event, []))
            else:
                if not out:
                    out.append((None, []))
                out[-1][1].append(event)
        return out


def _check_rises_to_total(calls: list[tuple[int, int]], where: str) -> None:
    """Within one phase: one total, done strictly increasing, the last call at the total."""
    assert calls, f"{where}: no call"
    totals = {t for _, t in calls}
    assert len(totals) == 1, f"{where}: totals {totals}"
    done = [d for d, _ in calls]
    assert all(b > a for a, b in itertools.pairwise(done)), f"{where}: done {done[:20]}…"
    assert done[0] > 0 and done[-1] == calls[-1][1], f"{where}: done {done[:3]}…{done[-3:]} of {calls[-1][1]}"


def _data(kind: str, rng: np.random.Generator, n: int = 240) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Gold, two systems' predictions (pred= or scores=) and the keywords of the kind."""
    if kind == "labels":
        gold = rng.choice(list("abc"), n)
        systems = [np.where(rng.random(n) < q, gold, rng.choice(list("abc"), n)) for q in (0.7, 0.5)]
        return gold, {"pred": systems}, {}
    if kind == "label sets":
        gold = [set(rng.choice(list("abcd"), rng.integers(1, 3), replace=False)) for _ in range(n)]
        systems = [[g if rng.random() < q else {"a"} for g in gold] for q in (0.7, 0.5)]
        return gold, {"pred": systems}, {"multilabel": True}
    if kind == "spans":
        gold = [_sentence(rng) for _ in range(n // 4)]
        systems = [[s if rng.random() < q else ["O"] * len(s) for s in gold] for q in (0.7, 0.5)]
        return gold, {"pred": systems}, {"spans": "iob2"}
    gold = rng.integers(0, 2, n)
    systems = [np.clip(rng.normal(0.3 + q * gold, 0.25), 0, 1).round(3) for q in (0.4, 0.2)]
    return gold, {"scores": systems}, {"labels": [0, 1]}


def _sentence(rng: np.random.Generator) -> list[str]:
    tags: list[str] = []
    for _ in range(int(rng.integers(3, 9))):
        if rng.random() < 0.5:
            tags.append("O")
        else:
            kind = str(rng.choice(["PER", "LOC"]))
            tags += [f"B-{kind}"] + [f"I-{kind}"] * int(rng.integers(0, 2))
    return tags


KINDS = ["labels", "label sets", "spans", "scored"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("method", ["bootstrap", "bootstrap-bca"])
def test_score_reports_each_phase_rising_to_its_total(kind: str, method: str) -> None:
    rng = np.random.default_rng(KINDS.index(kind) * 7 + len(method))
    gold, given, options = _data(kind, rng)
    first = {k: v[0] for k, v in given.items()}
    rec = Recorder()
    clfeval.score(gold, **first, **options, ci=method, resamples=120, seed=1, progress=rec)
    phases = rec.phases()
    names = [name for name, _ in phases]
    assert names[0] == "bootstrap", names
    _check_rises_to_total(phases[0][1], f"{kind} {method} bootstrap")
    assert phases[0][1][-1][1] == 120  # resamples
    if method == "bootstrap-bca":
        assert names == ["bootstrap", "BCa jackknife"], names
        if kind in ("spans", "scored"):  # a jackknife by blocks or distinct rows: a loop, reported
            _check_rises_to_total(phases[1][1], f"{kind} BCa jackknife")
        else:  # the instance jackknife from each label's parts: one vectorised computation, without calls
            assert phases[1][1] == [], phases[1][1][:5]
    else:
        assert names == ["bootstrap"], names


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("test", ["ar", "bootstrap"])
def test_compare_reports_its_rounds(kind: str, test: str) -> None:
    rng = np.random.default_rng(KINDS.index(kind) + 100)
    gold, given, options = _data(kind, rng)
    (key, systems), rec = next(iter(given.items())), Recorder()
    named = {"A": systems[0], "B": systems[1]}
    where = {"preds": named} if key == "pred" else {"scores": named}
    clfeval.compare(gold, **where, **options, test=test, rounds=150, seed=3, progress=rec)
    phases = rec.phases()
    title = {"ar": "approximate randomization", "bootstrap": "paired bootstrap"}[test]
    assert [name for name, _ in phases] == [title], phases[:1]
    _check_rises_to_total(phases[0][1], f"{kind} {test}")


@pytest.mark.parametrize("kind", KINDS)
def test_cv_reports_its_folds_then_the_pooled_interval(kind: str) -> None:
    rng = np.random.default_rng(KINDS.index(kind) + 200)
    gold, given, options = _data(kind, rng)
    folds = np.arange(len(gold)) % 4
    first = {k: v[0] for k, v in given.items()}
    rec = Recorder()
    # spans: the pooled counts of folds carry no sentences, and cv refuses their intervals (a limitation of its own)
    interval = {} if kind == "spans" else {"ci": "bootstrap", "resamples": 90, "seed": 2}
    clfeval.cv(gold, **first, folds=folds, **options, **interval, progress=rec)
    phases = rec.phases()
    assert [name for name, _ in phases] == ["folds", "bootstrap"][: 1 + bool(interval)], phases
    _check_rises_to_total(phases[0][1], f"{kind} folds")
    assert phases[0][1][-1] == (4, 4)
    if interval:
        _check_rises_to_total(phases[1][1], f"{kind} cv bootstrap")


def test_a_plain_callable_sees_each_phase_rise_to_its_total() -> None:
    """A callable without a ``phase`` method is not told the names: it sees each phase's calls, one after another."""
    rng = np.random.default_rng(5)
    gold, given, _ = _data("scored", rng)
    calls: list[tuple[int, int]] = []
    clfeval.score(gold, scores=given["scores"][0], ci="bootstrap-bca", resamples=80, seed=1,
                  progress=lambda d, t: calls.append((d, t)))  # fmt: skip
    # the jackknife starts again: its total, or a count that falls (draws are scored a batch at a time: few calls)
    cut = next(i for i in range(1, len(calls)) if calls[i][1] != calls[i - 1][1] or calls[i][0] <= calls[i - 1][0])
    _check_rises_to_total(calls[:cut], "bootstrap")
    _check_rises_to_total(calls[cut:], "jackknife")
    assert calls[cut - 1] == (80, 80)


def test_delong_reports_its_columns() -> None:
    """DeLong's variance is one vectorised computation per score column: multi-class, the columns are the steps."""
    rng = np.random.default_rng(9)
    gold = rng.integers(0, 4, 300)
    scores = rng.dirichlet(np.ones(4), 300)
    rec = Recorder()
    clfeval.score(gold, scores=scores, labels=[0, 1, 2, 3], ci="delong", progress=rec)
    assert [name for name, _ in rec.phases()] == ["DeLong"]
    _check_rises_to_total(rec.phases()[0][1], "DeLong")
    assert rec.phases()[0][1][-1] == (4, 4)


def test_phase_and_steps_leave_a_plain_callable_and_none_alone() -> None:
    calls: list[Any] = []
    plain = calls.append
    assert phase(None, "x") is None and phase(plain, "x") is plain and calls == []
    assert list(steps(None, "folds", [1, 2])) == [1, 2]


def test_the_bar_names_its_phase_and_restarts_its_rate() -> None:
    class Terminal:
        def __init__(self) -> None:
            self.text = ""

        def isatty(self) -> bool:
            return True

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    stream = Terminal()
    bar = ProgressBar("clfeval: bootstrap", stream, delay=0, interval=0)  # type: ignore[arg-type]
    bar(5, 10)
    bar.phase("BCa jackknife")
    bar(1, 4)
    bar.close()
    assert "\rclfeval: bootstrap   50%  5/10" in stream.text
    assert "\rclfeval: BCa jackknife   25%  1/4" in stream.text
    assert stream.text.endswith("\r\033[K")
    quiet = ProgressBar("clfeval: x", stream, delay=0, enabled=False)  # type: ignore[arg-type]
    assert not quiet.enabled


# ---------------------------------------------------------------------------------------- the command line, on a pty


def _files(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    n = 600
    y = rng.integers(0, 2, n)
    a = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1).round(3)
    b = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(3)
    (tmp_path / "s.csv").write_text("y,a,b\n" + "".join(f"{u},{v},{w}\n" for u, v, w in zip(y, a, b)))
    labels = rng.choice(list("abc"), n)
    pred = np.where(rng.random(n) < 0.7, labels, rng.choice(list("abc"), n))
    other = np.where(rng.random(n) < 0.6, labels, rng.choice(list("abc"), n))
    (tmp_path / "folds.txt").write_text("".join(f"{g} {p} {i % 4}\n" for i, (g, p) in enumerate(zip(labels, pred))))
    (tmp_path / "sys.tsv").write_text(
        "gold\ta\tb\n" + "".join(f"{g}\t{p}\t{q}\n" for g, p, q in zip(labels, pred, other))
    )
    sentences = [_sentence(rng) for _ in range(150)]
    (tmp_path / "s.conll").write_text(
        "\n".join("\n".join(f"w {t} {t if rng.random() < 0.8 else 'O'}" for t in tags) + "\n" for tags in sentences)
    )


def _env(delay: str = "0") -> dict[str, str]:
    return {**os.environ, DELAY_VARIABLE: delay}


def _on_pty(args: list[str], cwd: Path, until: bytes | None = None) -> tuple[int, bytes, bytes]:
    """Run ``python -m clfeval ARGS`` with standard error on a pseudo-terminal (standard output piped); the exit code,
    what was drawn on the terminal and what was written to standard output. With ``until``, SIGINT is sent to the
    process group once the terminal shows it."""
    import pty

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "clfeval", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=_env(),
        start_new_session=True,  # its own process group, as a shell's job: Ctrl-C goes to the group
    )
    os.close(slave)
    drawn = b""
    interrupted = False
    deadline = time.monotonic() + 120
    assert process.stdout is not None
    out_fd = process.stdout.fileno()
    out = b""
    open_fds = {master, out_fd}
    while open_fds and time.monotonic() < deadline:
        ready, _, _ = select.select(list(open_fds), [], [], 0.1)
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal's other end closed (Linux: EIO)
                chunk = b""
            if not chunk:
                open_fds.discard(fd)
            elif fd == master:
                drawn += chunk
            else:
                out += chunk
        if until is not None and not interrupted and until in drawn:
            os.killpg(process.pid, signal.SIGINT)
            interrupted = True
        if not ready and process.poll() is not None and master in open_fds and out_fd not in open_fds:
            break
    code = process.wait(timeout=60)
    os.close(master)
    process.stdout.close()
    return code, drawn, out


def _piped(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "clfeval", *args], cwd=cwd, capture_output=True,
                          env={**_env(), **env}, timeout=120)  # fmt: skip


def _labels(drawn: bytes) -> set[str]:
    """The phases the bar named: ``clfeval: <phase>  NN%`` after a carriage return."""
    return set(re.findall(r"\r(clfeval: [^\r\x1b]*?)\s+\d+%", drawn.decode("utf-8", "replace")))


RUNS = {
    "scored bootstrap": (["score", "s.csv", "--gold-col", "y", "--scores", "a", "--ci", "bootstrap",
                          "--resamples", "200"], {"clfeval: reading", "clfeval: bootstrap"}),
    "scored BCa": (["score", "s.csv", "--gold-col", "y", "--scores", "a", "--ci", "bootstrap-bca",
                    "--resamples", "200"], {"clfeval: bootstrap", "clfeval: BCa jackknife"}),
    "span bootstrap": (["score", "s.conll", "--spans", "--ci", "bootstrap", "--resamples", "300"],
                       {"clfeval: reading", "clfeval: bootstrap"}),
    "span BCa": (["score", "s.conll", "--spans", "--ci", "bootstrap-bca", "--resamples", "300"],
                 {"clfeval: bootstrap", "clfeval: BCa jackknife"}),
    "cv": (["cv", "folds.txt", "--fold-col", "-1", "--ci", "bootstrap", "--resamples", "300"],
           {"clfeval: reading", "clfeval: folds", "clfeval: bootstrap"}),
    "randomization": (["compare", "sys.tsv", "--gold-col", "gold", "--pred-col", "a", "--pred-col", "b",
                       "--rounds", "500"], {"clfeval: approximate randomization"}),
    "count scored": (["count", "s.csv", "--gold-col", "y", "--scores", "a"], {"clfeval: reading"}),
    "scored compare": (["compare", "s.csv", "--gold-col", "y", "--scores", "A=a", "--scores", "B=b",
                        "--test", "bootstrap", "--rounds", "100"], {"clfeval: paired bootstrap"}),
}  # fmt: skip


@pytest.mark.parametrize("name", list(RUNS))
def test_the_bar_shows_its_phases_on_a_terminal_and_never_in_a_pipe(name: str, tmp_path: Path) -> None:
    _files(tmp_path)
    args, phases = RUNS[name]
    args = [*args] if args[0] == "count" else [*args, "--seed", "4", "--format", "json"]
    code, drawn, out = _on_pty(args, tmp_path)
    assert code == 0, drawn.decode()
    assert phases <= _labels(drawn), (phases, _labels(drawn), drawn[-300:])
    assert drawn.endswith(b"\r\x1b[K"), drawn[-80:]  # the line cleared: nothing left over the prompt
    piped = _piped(args, tmp_path)
    assert piped.returncode == 0 and piped.stderr == b"", piped.stderr.decode()  # no bar, no escape in a pipe
    assert out == piped.stdout  # the output intact, byte for byte
    assert "Traceback" not in drawn.decode()
    code, quiet, out = _on_pty([*args, "--no-progress"], tmp_path)
    assert code == 0 and b"clfeval:" not in quiet and b"\r" not in quiet.replace(b"\r\n", b""), quiet[-200:]
    assert out == piped.stdout


def test_no_bar_before_the_delay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Short runs stay quiet: nothing is drawn before the delay (here a minute, so that a loaded machine cannot make
    the run outlast it); the delay is half a second unless the testing aid says otherwise."""
    import pty

    _files(tmp_path)
    master, slave = pty.openpty()
    run = subprocess.run([sys.executable, "-m", "clfeval", "score", "folds.txt", "--ci", "bootstrap",
                          "--resamples", "50", "--seed", "1"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=slave,
                         env=_env("60"), timeout=120)  # fmt: skip
    os.close(slave)
    try:
        drawn = os.read(master, 65536)
    except OSError:  # nothing was written and the other end is closed (Linux: EIO)
        drawn = b""
    os.close(master)
    assert run.returncode == 0 and b"clfeval:" not in drawn, drawn
    for value, delay in ((None, 0.5), ("0", 0.0), ("2.5", 2.5), ("soon", 0.5), ("-1", 0.0)):
        if value is None:
            monkeypatch.delenv(DELAY_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(DELAY_VARIABLE, value)
        assert ProgressBar("clfeval: x", sys.stderr).delay == delay, value


def test_ctrl_c_under_a_bar_exits_130_quietly_and_writes_nothing(tmp_path: Path) -> None:
    _files(tmp_path)
    args = ["score", "s.csv", "--gold-col", "y", "--scores", "a", "--ci", "bootstrap", "--resamples", "1000000",
            "--seed", "1", "-o", "out.json", "--format", "json"]  # fmt: skip
    code, drawn, out = _on_pty(args, tmp_path, until=b"clfeval: bootstrap ")
    text = drawn.decode("utf-8", "replace")
    assert code == 130, text[-300:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text[-500:]
    assert text.endswith("\r\x1b[K"), text[-120:]  # the bar's line cleared
    assert out == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folds.txt", "s.conll", "s.csv", "sys.tsv"]
