"""The installed ``clfeval`` command on real files: formats, standard input, outputs, exit codes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.conftest import cli_error, run_cli, signature_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "run.txt"
    path.write_text("w1 A A\nw2 A B\nw3 B B\nw4 C A\nw5 B B\n")
    return path


def test_text_report_names_every_average(run_file: Path) -> None:
    out = run_cli("score", str(run_file))
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    for needle in (
        "macro (AF: mean of per-label F1)",
        "macro_fa (FA: F1 of macro P and macro R)",
        "micro (summed tp, fp, fn, tn)",
        "weighted (mean weighted by gold support)",
        "lfb (mean weighted by test gold label frequencies)",
        "confusion matrix (rows: gold, columns: predicted)",
        "label set L (union): every label that occurs in the gold or predicted data",
        "signature: clfeval:",
    ):
        assert needle in text, needle
    assert "N = 5 instances" not in text and "micro: the measure on" not in text  # definitions: --verbose
    assert out.stderr == b""
    verbose = run_cli("score", str(run_file), "--verbose").stdout.decode()
    for needle in (
        "N = 5 instances",
        "source 'union'",
        "zero division: a 0/0 ratio is set to 0",
        "micro: the measure on tp, fp, fn and tn summed over the label set",
        "mcc: Matthews correlation coefficient",
        "inputs: file=",
    ):
        assert needle in verbose, needle
    assert "kappa_linear" not in verbose  # no order declared: weighted κ and its definition stay out


def test_the_demo_fits_a_terminal() -> None:
    """Issue 30: `make demo`'s report fits 100 columns and about 45 lines for its 10 labels (it was 76 lines and 326
    columns): per label support, precision, recall and F; the named averages; accuracy, balanced accuracy, MCC and
    κ; the matrix; the warnings; one note per choice, then the signature."""
    out = run_cli("score", str(EXAMPLES / "pos-tagger.txt"), "--train", str(EXAMPLES / "pos-train.txt"))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.decode().splitlines()
    assert max(len(line) for line in lines) <= 100
    assert len(lines) <= 60
    text = "\n".join(lines)
    assert "label  support  precision  recall      F1" in text
    for absent in ("specificity", "Jaccard", "NPV", "Hamming", "micro FPR", "κ, linear", "κ, quadratic", "tp  fp"):
        assert absent not in text, absent
    for shown in ("accuracy (correct / N)", "balanced accuracy (", "MCC (", "Cohen's κ (", "lfb (mean weighted by"):
        assert shown in text, shown
    notes = text.split("\nnotes:\n", 1)[1].splitlines()
    assert len(notes) <= 6 and notes[-1].startswith("signature: clfeval:")


@pytest.mark.parametrize("ci", ["delta", "bootstrap-bca"])
def test_the_demo_with_intervals_fits_a_terminal_signature_and_all(ci: str) -> None:
    """The signature line wraps too (it made the demo 105 columns wide with --ci delta, 126 with bootstrap-bca):
    broken after its '|' separators, its lines join back into the JSON's signature, which stays one line."""
    args = ("score", str(EXAMPLES / "pos-tagger.txt"), "--train", str(EXAMPLES / "pos-train.txt"), "--ci", ci,
            "--resamples", "200", "--seed", "1")  # fmt: skip
    text = run_cli(*args).stdout.decode()
    assert max(len(line) for line in text.splitlines()) <= 100
    signature = json.loads(run_cli(*args, "--format", "json").stdout)["signature"]
    assert signature_of(text) == signature and len(f"signature: {signature}") > 100 and "\n" not in signature


def test_json_contract(run_file: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    out = run_cli("score", str(run_file), "--format", "json", "-o", str(target))
    assert out.returncode == 0 and out.stdout == b""
    data = json.loads(target.read_text())
    assert data["schema"] == "clfeval.score/2"
    assert data["task"] == "single-label" and data["n_instances"] == 5 and data["beta"] == 1.0
    assert data["labels"] == ["A", "B", "C"] and data["label_source"] == "union"
    assert set(data["per_label"]["A"]) == {
        "support",
        "predicted",
        "tp",
        "fp",
        "fn",
        "tn",
        "precision",
        "recall",
        "f1",
        "specificity",
        "npv",
        "fpr",
        "fnr",
        "jaccard",
    }
    assert set(data["averages"]["macro"]) == {"precision", "recall", "f1", "specificity", "jaccard"}
    overall = (
        "accuracy",
        "hamming_loss",
        "micro_fpr",
        "balanced_accuracy",
        "balanced_accuracy_adjusted",
        "mcc",
        "kappa",
    )
    assert all(isinstance(data[name], float) for name in overall)
    # weighted κ: its keys kept, null without a declared order (issue 38), with the reason
    assert data["kappa_linear"] is None and data["kappa_quadratic"] is None
    assert data["label_order"]["order"] is None and data["label_order"]["withheld"] == [
        "kappa_linear",
        "kappa_quadratic",
    ]
    assert set(data["averages"]) == {"micro", "macro", "macro_fa", "weighted", "lfb"}
    assert data["averages"]["lfb"]["frequencies"] == "test"
    assert data["confusion_matrix"] == {
        "labels": ["A", "B", "C"],
        "layout": "dense",
        "counts": [[1, 1, 0], [0, 2, 0], [1, 0, 0]],
    }
    assert data["accuracy"] == pytest.approx(3 / 5)
    assert data["zero_division"]["affected"]["precision"] == ["C"]
    assert data["inputs"] == {"file": str(run_file)}


def test_beta_names_the_f_key(run_file: Path) -> None:
    data = json.loads(run_cli("score", str(run_file), "--format", "json", "--beta", "0.5").stdout)
    assert "f0.5" in data["averages"]["macro"] and "f1" not in data["averages"]["macro"]


def test_markdown_and_csv(run_file: Path) -> None:
    md = run_cli("score", str(run_file), "--format", "markdown", "--no-matrix").stdout.decode()
    assert "| macro (AF: mean of per-label F1) |" in md and "rows: gold, columns: predicted" not in md
    rows = list(csv.DictReader(io.StringIO(run_cli("score", str(run_file), "--format", "csv").stdout.decode())))
    macro_f = next(r for r in rows if r["section"] == "average" and r["label"] == "macro" and r["measure"] == "f1")
    data = json.loads(run_cli("score", str(run_file), "--format", "json").stdout)
    assert float(macro_f["value"]) == pytest.approx(data["averages"]["macro"]["f1"])
    cells = [r for r in rows if r["section"] == "confusion_matrix"]
    assert sum(int(r["value"]) for r in cells) == 5


def test_standard_input(run_file: Path) -> None:
    out = run_cli("score", "-", "--format", "json", stdin=run_file.read_bytes())
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["n_instances"] == 5


def test_two_files_and_labels_file(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("A\nB\nB\n")
    (tmp_path / "pred.txt").write_text("A\nA\nB\n")
    (tmp_path / "labels.txt").write_text("A\nB\nZ\n")
    out = run_cli("score", "gold.txt", "pred.txt", "--labels", "labels.txt", "--format", "json", cwd=tmp_path)
    data = json.loads(out.stdout)
    assert data["labels"] == ["A", "B", "Z"] and data["label_source"] == "given"
    assert data["per_label"]["Z"]["support"] == 0


def test_matrix_input(tmp_path: Path) -> None:
    (tmp_path / "cm.csv").write_text(",1,2,3\n1,2,3,1\n2,4,70,3\n3,1,1,15\n")  # Takahashi, rows predicted
    data = json.loads(
        run_cli("score", "--matrix", str(tmp_path / "cm.csv"), "--matrix-rows", "predicted", "--format", "json").stdout
    )
    assert round(data["averages"]["micro"]["f1"], 3) == 0.870
    assert round(data["averages"]["macro"]["f1"], 3) == 0.689
    assert round(data["averages"]["macro_fa"]["f1"], 3) == 0.691


def test_multilabel_options(tmp_path: Path) -> None:
    (tmp_path / "ml.tsv").write_text("A\tB_C\nA\tA\n\tA\n")
    data = json.loads(
        run_cli(
            "score",
            str(tmp_path / "ml.tsv"),
            "--multilabel",
            "--label-sep",
            "_",
            "--empty",
            "label",
            "--format",
            "json",
        ).stdout
    )
    assert data["task"] == "multi-label" and "NONE" in data["labels"]
    assert data["options"]["empty"] == "label" and data["options"]["duplicates"] == "keep"
    assert data["confusion_matrix"]["counts"][0][1] == 0.5  # A→B, gold-row view
    assert "samples" in data["averages"] and data["subset_accuracy"] == pytest.approx(1 / 3)


def test_demo_example_runs_with_training_file() -> None:
    out = run_cli(
        "score", str(EXAMPLES / "pos-tagger.txt"), "--train", str(EXAMPLES / "pos-train.txt"), "--format", "json"
    )
    data = json.loads(out.stdout)
    assert out.returncode == 0
    assert data["label_source"] == "train" and data["averages"]["lfb"]["frequencies"] == "train"
    assert "FW" in data["labels"] and data["per_label"]["FW"]["support"] == 0


@pytest.mark.parametrize(
    "args,message",
    [
        (["score", "missing.txt"], "clfeval: error: missing.txt: no such file"),
        (["score"], "give an INPUT file"),
        (["score", "run.txt", "--format", "yaml"], "invalid choice: 'yaml'"),
        (["score", "run.txt", "--gold-col", "0"], "column numbers start at 1"),
        (["score", "run.txt", "--labels-from", "train"], "needs training data"),
        (["score", "run.txt", "-o", "no/such/dir/out.txt"], "cannot write no/such/dir/out.txt"),
    ],
)
def test_usage_errors_are_one_line_with_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "run.txt").write_text("A A\nA B\n")
    out = run_cli(*args, cwd=tmp_path)
    assert out.returncode == 2
    err = out.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_input_error_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "bad.txt").write_text("A A\nA\n")
    out = run_cli("score", "bad.txt", cwd=tmp_path)
    assert out.returncode == 2
    assert (
        out.stderr.decode() == "clfeval: error: bad.txt:2: expected at least 2 fields (for the gold and "
        "predicted labels), found 1\n"
    )
    assert out.stdout == b""


@pytest.mark.parametrize(
    "args, needles",
    [
        (
            ["score", "d.txt", "--labels", "latin1.txt"],
            ["latin1.txt:2: is not valid UTF-8: byte 0xe9 (--labels)", "expected one label per line"],
        ),
        (["score", "d.txt", "--labels", "folder"], ["folder: is a directory (--labels)"]),
        (["score", "d.txt", "--labels", "none.txt"], ["none.txt: no such file (--labels)"]),
        (
            ["score", "d.txt", "--translate", "latin1.txt"],
            ["latin1.txt:2: is not valid UTF-8: byte 0xe9 (--translate)", "expected lines 'old > new'"],
        ),
        (["audit", "latin1.txt"], ["latin1.txt:2: is not valid UTF-8: byte 0xe9", "a table of reported figures"]),
    ],
)
def test_small_files_read_whole_name_the_file_line_and_option(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    (tmp_path / "d.txt").write_text("x A A\n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes("A\ncaf\xe9\n".encode("latin-1"))
    (tmp_path / "folder").mkdir()
    cli_error(run_cli(*args, cwd=tmp_path), *needles)


def test_version() -> None:
    out = run_cli("--version")
    assert out.returncode == 0 and out.stdout.decode().startswith("clfeval ")


def test_intervals_from_a_papers_matrix(tmp_path: Path) -> None:
    """Takahashi et al.'s Table 1 as printed (rows predicted): the paper's intervals from the table alone."""
    matrix = tmp_path / "takahashi.csv"
    matrix.write_text("predicted \\ true,1,2,3\n1,2,3,1\n2,4,70,3\n3,1,1,15\n")
    out = run_cli("score", "--matrix", str(matrix), "--matrix-rows", "predicted", "--ci", "delta", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for name, expected in (("micro", [0.804, 0.936]), ("macro", [0.562, 0.817]), ("macro_fa", [0.563, 0.818])):
        assert [round(x, 3) for x in data["averages"][name]["f1_ci"]] == expected
    assert data["ci"]["method"] == "delta" and data["ci"]["confidence"] == 0.95 and data["ci"]["seed"] is None
    assert "recall_wilson_ci" in data["per_label"]["1"]


def test_bootstrap_on_the_command_line(run_file: Path) -> None:
    out = run_cli(
        "score", str(run_file), "--ci", "bootstrap-bca", "--resamples", "500", "--seed", "9", "--confidence", "0.9"
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    assert "90% CI" in text and "500 resamples, seed 9" in text
    assert out.stderr == b""  # no progress bar when stderr is not a terminal
    again = run_cli(
        "score", str(run_file), "--ci", "bootstrap-bca", "--resamples", "500", "--seed", "9", "--confidence", "0.9"
    )
    assert again.stdout == out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ci", "wald"], "argument --ci: invalid choice: 'wald'"),
        (["--ci", "delta", "--confidence", "95"], "confidence must be between 0 and 1"),
        (["--ci", "bootstrap", "--resamples", "0"], "resamples must be an integer of at least 2"),
    ],
)
def test_bad_interval_options(run_file: Path, args: list[str], message: str) -> None:
    out = run_cli("score", str(run_file), *args)
    assert out.returncode == 2
    err = out.stderr.decode()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


# --------------------------------------------------------------------------- outside checks: output, options, Ctrl-C


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(tmp_path: Path) -> None:
    labels = ["=cmd|' /C calc'!A0", "+SUM(1,2)", "@SUM(A1)", "-2+3", "-1", "+1", "-0.5"]
    (tmp_path / "hostile.jsonl").write_text(
        "".join(json.dumps({"g": g, "p": p, "q": g}) + "\n" for g, p in zip(labels, reversed(labels)))
    )
    out = run_cli("score", "hostile.jsonl", "--gold-col", "g", "--pred-col", "p", "--format", "csv", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    cells = {row[1] for row in csv.reader(io.StringIO(out.stdout.decode()))}
    for label in labels[:4]:
        assert label not in cells and "'" + label in cells
    assert {"-1", "+1", "-0.5"} <= cells  # plain numbers are read as numbers, not run
    raw = run_cli(
        "score", "hostile.jsonl", "--gold-col", "g", "--pred-col", "p", "--format", "csv", "--raw-csv", cwd=tmp_path
    )
    assert set(labels) <= {row[1] for row in csv.reader(io.StringIO(raw.stdout.decode()))}
    compared = run_cli(
        "compare",
        "hostile.jsonl",
        "--gold-col",
        "g",
        "--pred-col",
        "q",
        "--pred-col",
        "p",
        "--name",
        "=HYPERLINK(1)",
        "--name",
        "b",
        "--format",
        "csv",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    assert "'=HYPERLINK(1)" in compared.stdout.decode()


def test_no_matrix_is_honoured_by_csv(tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text("a a\na b\n")
    with_matrix = run_cli("score", "r.txt", "--format", "csv", cwd=tmp_path).stdout.decode()
    without = run_cli("score", "r.txt", "--format", "csv", "--no-matrix", cwd=tmp_path).stdout.decode()
    assert "confusion_matrix," in with_matrix and "confusion_matrix" not in without


def test_renderers_refuse_unknown_options_and_bad_digits() -> None:
    import clfeval

    r = clfeval.score(["a", "b"], ["a", "a"])
    with pytest.raises(clfeval.OptionError, match="unknown render option 'digts'; valid: command, digits"):
        r.render("text", digts=2)
    for fmt in ("text", "json", "csv", "markdown", "latex", "html"):
        with pytest.raises(clfeval.OptionError, match="digits must be a whole number from 0 to 15"):
            r.render(fmt, digits=-3)
        assert r.render(fmt, digits=0, matrix=False)


@pytest.mark.parametrize(
    "args,message",
    [
        (["score", "missing.txt", "--digits", "-3"], "digits must be a whole number from 0 to 15, not -3"),
        (["score", "missing.txt", "--confidence", "95", "--ci", "delta"], "confidence must be between 0 and 1"),
        (["score", "missing.txt", "--beta", "-1"], "beta must be a positive number"),
        (["compare", "missing.txt", "a.txt", "b.txt", "--alpha", "5"], "alpha must be between 0 and 1"),
        (["compare", "missing.txt", "a.txt", "b.txt", "--metric", "macro.f7"], "unknown metric 'macro.f7'"),
        (["cv", "missing.txt", "--resamples", "1", "--ci", "bootstrap"], "resamples must be an integer of at least 2"),
        (["finagle", "missing.txt", "--expected-accuracy", "2"], "expected accuracy is a proportion"),
        (["convert", "--precision", "0.5", "--decimals", "-2"], "decimals must be a whole number from 0 to 15"),
        (["convert", "--precision", "0.5", "--recall", "0.5", "--limit", "-1"], "limit must be a whole number ≥ 0"),
        (["audit", "missing.csv", "--decimals", "-1"], "decimals must be a whole number from 0 to 15"),
        (["compare", "missing.txt", "a.txt", "b.txt", "--baseline", "nosuch"], "unknown baseline 'nosuch'"),
        (["compare", "missing.txt", "a.txt", "b.txt", "--name", "x", "--name", "x"], "system names must be distinct"),
        (
            ["compare", "missing.txt", "a.txt", "b.txt", "--test", "mcnemar", "--metric", "macro.f1"],
            "McNemar's exact test compares accuracy only",
        ),
        (
            ["compare", "missing.txt", "a.txt", "b.txt", "--test", "sign", "--metric", "micro.f1"],
            "compares accuracy only",
        ),
        (["score", "missing.txt", "--labels-from", "train"], "the label source 'train' needs training data"),
        (["cv", "missing.txt", "--labels-from", "train"], "the label source 'train' needs training data"),
        (["score", "missing.txt", "--train", "nosuch.txt"], "nosuch.txt: no such file (--train)"),
        (["score", "missing.txt", "-o", "no/such/dir/x.json"], "cannot write no/such/dir/x.json: no such directory"),
        (["score", "missing.txt", "--plot", "a.txt/figures"], "cannot make the --plot directory a.txt/figures"),
    ],
)
def test_options_are_checked_before_any_input_is_read(tmp_path: Path, args: list[str], message: str) -> None:
    """The input files do not exist: the option, checked first, is what the error names."""
    (tmp_path / "a.txt").write_text("a\n")
    (tmp_path / "b.txt").write_text("b\n")
    cli_error(run_cli(*args, cwd=tmp_path), message)


def test_options_are_checked_before_reading_in_the_library(tmp_path: Path) -> None:
    """The option groups check themselves when built, so a bad option stops a run before a reader is called; the
    task options that are not in a group are checked before the task looks at its input."""
    import clfeval

    for call, message in (
        (lambda: clfeval.Scoring(beta=-1), "beta"),
        (lambda: clfeval.CI("bootstrap", confidence=95), "confidence"),
        (lambda: clfeval.Test("x"), "unknown test"),
        (lambda: clfeval.cv(clfeval.Counted(None, folds={}), warn_above=-1), "warn_above"),
        (lambda: clfeval.Scoring(undefined="skip"), "undefined policy"),
        (lambda: clfeval.Reading(input_format="xls"), "input format"),
        (lambda: clfeval.Training(str(tmp_path / "missing.txt")), "no such file"),
        (lambda: clfeval.finagle(clfeval.Counted(None), threshold=None), "threshold"),
    ):
        with pytest.raises(clfeval.ClfevalError, match=message):
            call()


def test_a_two_file_length_mismatch_says_where_each_file_is(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("a\nb\n\nc\nd\n")
    (tmp_path / "pred.txt").write_text("a\nb\n\nc\n")
    cli_error(
        run_cli("score", "gold.txt", "pred.txt", cwd=tmp_path),
        "gold.txt has 4 instances but pred.txt has 3: pred.txt ends early, after line 4, where gold.txt goes on "
        "at line 5",
    )


def test_a_label_declared_twice_names_the_labels_file(tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text("a a\n")
    (tmp_path / "labels.txt").write_text("a\nb\na\n")
    cli_error(
        run_cli("score", "r.txt", "--labels", "labels.txt", cwd=tmp_path),
        "labels.txt:3: label 'a' is declared twice (--labels), first on line 1",
    )


def _limit_file_size(size: int) -> object:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


@pytest.mark.parametrize("fmt", ["json", "html"])
def test_an_output_that_cannot_be_written_whole_leaves_nothing_behind(tmp_path: Path, fmt: str) -> None:
    """A file-size limit stands in for a full disk: writing fails part-way (EFBIG, as ENOSPC would)."""
    import subprocess

    from tests.conftest import clfeval_command

    (tmp_path / "r.txt").write_text("".join(f"w{i} a{i % 7} a{i % 5}\n" for i in range(300)))
    for before in (None, "the earlier report\n"):
        target = tmp_path / f"report.{fmt}"
        if before is not None:
            target.write_text(before)
        out = subprocess.run(
            clfeval_command() + ["score", "r.txt", "--format", fmt, "-o", target.name],
            cwd=tmp_path,
            capture_output=True,
            preexec_fn=_limit_file_size(2000),
            timeout=120,
        )
        err = out.stderr.decode()
        assert (
            out.returncode == 2
            and err.startswith(f"clfeval: error: cannot write {target.name}: ")
            and "nothing was written" in err
            and "Traceback" not in err
        ), err
        assert (target.read_text() if target.exists() else None) == before
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r.txt"] + ([target.name] if before else []))


def test_count_files_and_figures_are_written_whole(tmp_path: Path) -> None:
    import clfeval

    counts = clfeval.count_labels(["a", "b"], ["a", "a"])
    clfeval.save_counts(counts, str(tmp_path / "c.json"))
    assert clfeval.load_counts(str(tmp_path / "c.json")).counts.n_instances == 2
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]  # no temporary file left


def test_ctrl_c_exits_quietly_with_130(tmp_path: Path) -> None:
    import signal
    import subprocess
    import time

    from tests.conftest import clfeval_command

    with subprocess.Popen(
        clfeval_command() + ["score", "-", "-o", "out.json", "--format", "json"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None
        process.stdin.write(b"a a\nb a\n")
        process.stdin.flush()
        time.sleep(1.5)  # started (a Ctrl-C while starting is quiet too), and waiting for more of standard input
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert not (tmp_path / "out.json").exists()


def test_a_repeated_system_name_says_so(tmp_path: Path) -> None:
    for name in ("g.txt", "a.txt", "b.txt"):
        (tmp_path / name).write_text("x\ny\n")
    cli_error(
        run_cli("compare", "g.txt", "a.txt", "b.txt", "--name", "s", "--name", "s", cwd=tmp_path),
        "system names must be distinct; repeated: 's'",
    )


def test_the_skip_pattern_is_shown_as_typed(tmp_path: Path) -> None:
    (tmp_path / "r.tsv").write_text("0\tcomment\na\ta\nb\ta\n")
    out = run_cli("score", "r.tsv", "--skip", "^0\\t", "--format", "json", cwd=tmp_path)
    warnings = json.loads(out.stdout)["warnings"]
    assert any("matching --skip '^0\\t'" in w for w in warnings), warnings  # one backslash, as typed


def test_standard_output_that_cannot_take_the_output_is_an_error(tmp_path: Path) -> None:
    """A file-size limit (as a full disk) on redirected standard output: Python's buffered stream dropped the rest
    without a word and the run exited 0."""
    import subprocess

    from tests.conftest import clfeval_command

    (tmp_path / "r.txt").write_text("".join(f"w{i} a{i % 7} a{i % 5}\n" for i in range(300)))
    with open(tmp_path / "out.json", "wb") as out:
        run = subprocess.run(
            clfeval_command() + ["score", "r.txt", "--format", "json"],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=_limit_file_size(2000),
            timeout=120,
        )
    err = run.stderr.decode()
    assert run.returncode == 2 and "cannot write standard output: File too large (the output is incomplete)" in err


def test_ctrl_c_while_the_command_starts_is_quiet(tmp_path: Path) -> None:
    """The console script imports the command's modules before main() runs: a Ctrl-C then printed a
    KeyboardInterrupt traceback. The interrupt is sent as clfeval.cli is imported."""
    import subprocess
    import sys

    code = """
import importlib.abc, os, signal, sys
class Interrupt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "clfeval.cli":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupt())
from clfeval.__main__ import run
sys.exit(run())
"""
    out = subprocess.run([sys.executable, "-c", code, "score", "x.txt"], cwd=tmp_path, capture_output=True, timeout=60)
    assert out.returncode == 130 and out.stderr == b"", out.stderr.decode()
