"""Files of scored predictions counted chunk by chunk (``count_scored``): the same counts as reading the whole file,
errors naming the right line in any chunk, the probability check over the whole file, and the CLI's use of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.count.scored import ScoreCounts
from clfeval.errors import InputError
from clfeval.inputs.scoredfile import count_scored, read_scored


def _write(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


def _same(a: ScoreCounts, b: ScoreCounts) -> None:
    """The same distinct rows and counts, whatever their order within a score."""
    assert (a.labels, a.columns) == (b.labels, b.columns)

    def rows(c: ScoreCounts) -> np.ndarray:
        table = np.column_stack([c.gold, c.scores, c.count])
        return table[np.lexsort(table.T[::-1])]

    np.testing.assert_array_equal(rows(a), rows(b))


@pytest.mark.parametrize("size", [64, 1000, 1 << 20])
@pytest.mark.parametrize("seed", range(3))
def test_chunks_count_what_the_whole_file_holds(tmp_path: Path, size: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 400))
    y = rng.choice(["neg", "pos"], n)
    s = np.round(rng.random(n), int(rng.integers(1, 4)))
    binary = _write(tmp_path / "b.csv", "gold,score", [f"{a},{b}" for a, b in zip(y, s)])
    whole = read_scored(str(binary), "score", gold_col="gold")
    for positive in (None, "neg"):
        counted, inputs = count_scored(str(binary), "score", gold_col="gold", positive=positive, size=size)
        _same(counted, ScoreCounts.of_arrays(whole.gold, whole.scores, None, positive=positive))
        assert inputs["read"] == "in chunks"
    k = 3
    p = rng.dirichlet(np.ones(k), n).round(2)
    p[:, -1] = np.round(1 - p[:, :-1].sum(axis=1), 2)
    g = rng.choice(["a", "b", "c"], n)
    multi = _write(tmp_path / "m.tsv", "gold\tp_a\tp_b\tp_c", ["\t".join([a, *map(str, r)]) for a, r in zip(g, p)])
    whole = read_scored(str(multi), "p_*", gold_col="gold")
    counted, _ = count_scored(str(multi), "p_*", gold_col="gold", size=size)
    _same(counted, ScoreCounts.of_arrays(whole.gold, whole.scores, whole.classes))


def test_an_error_in_a_later_chunk_names_its_line(tmp_path: Path) -> None:
    rows = [f"{'pos' if i % 3 else 'neg'},0.{i % 10}" for i in range(500)]
    rows[437] = "pos,zero"
    path = _write(tmp_path / "e.csv", "gold,score", rows)
    with pytest.raises(InputError, match=r"e\.csv:439: the score 'zero'"):
        count_scored(str(path), "score", gold_col="gold", size=128)
    rows[437] = ",0.5"
    path = _write(tmp_path / "e.csv", "gold,score", rows)
    with pytest.raises(InputError, match=r"e\.csv:439: the gold label .* is missing"):
        count_scored(str(path), "score", gold_col="gold", size=128)


def test_the_probability_check_is_over_the_whole_file(tmp_path: Path) -> None:
    """Scores are probabilities unless said otherwise: a row that does not sum to 1, or a score outside [0, 1] beyond
    round-off, is an error naming its line, whichever chunk holds it (as reading the whole file); round-off is
    clipped and counted; ``probabilities=False`` (--not-probabilities) reads margins."""
    rows = ["a,0.5,0.5" for _ in range(300)]
    rows[10] = "a,0.5,0.4"
    path = _write(tmp_path / "p.csv", "gold,p_a,p_b", rows)
    with pytest.raises(InputError, match=r"p\.csv:12: the class probabilities"):
        count_scored(str(path), "p_*", gold_col="gold", size=100)
    rows[10] = "a,0.5,0.5"
    rows[250] = "b,2.0,-1.0"  # margins, in a later chunk
    path = _write(tmp_path / "p.csv", "gold,p_a,p_b", rows)
    with pytest.raises(InputError, match=r"p\.csv:252: the score \[2\.0, -1\.0\] is not a probability"):
        count_scored(str(path), "p_*", gold_col="gold", size=100)
    with pytest.raises(InputError, match=r"p\.csv:252: the score"):
        read_scored(str(path), "p_*", gold_col="gold")
    counted, _ = count_scored(str(path), "p_*", gold_col="gold", probabilities=False, size=100)
    assert counted.n_instances == 300
    rows[250] = "b,1.0000000000000002,-2e-16"  # round-off: clipped, and said
    path = _write(tmp_path / "p.csv", "gold,p_a,p_b", rows)
    counted, inputs = count_scored(str(path), "p_*", gold_col="gold", size=100)
    assert inputs["clipped"].startswith("2 probabilities") and counted.scores.min() == 0.0  # p_b: -2e-16 → 0
    assert read_scored(str(path), "p_*", gold_col="gold").inputs["clipped"].startswith("2 probabilities")


def test_the_command_line_counts_in_chunks_and_scores_the_same(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 3000)
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=3000) + y))), 3)
    path = _write(tmp_path / "s.csv", "gold,score", [f"{a},{b}" for a, b in zip(y, s)])
    env = {"CLFEVAL_CHUNK_BYTES": "2000", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "clfeval", "score", str(path), "--scores", "score", "--gold-col",
                           "gold", "--positive", "1", "--ci", "delong", "--format", "json"],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    direct = clfeval.score(y, scores=s, labels=[0, 1], ci="delong")
    assert out["scores"]["auc"] == pytest.approx(direct["auc"], abs=1e-15)
    assert out["scores"]["auc_ci"] == pytest.approx(list(direct.interval("auc")), abs=1e-15)
    assert out["inputs"]["read"] == "in chunks" and out["distinct_rows"] == len(direct.counts.count)
    done = subprocess.run([sys.executable, "-m", "clfeval", "count", str(path), "--scores", "score", "--gold-col",
                           "gold", "--positive", "1"], capture_output=True, text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["n_instances"] == 3000


# --- binned scores ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_binned_scores_keep_the_exact_auc_within_the_stated_bound(seed: int) -> None:
    from sklearn.metrics import roc_auc_score

    from clfeval.scoring.scored import Conventions

    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 5000))
    y = (rng.random(n) < rng.uniform(0.05, 0.6)).astype(int)
    y[:2] = [0, 1]
    s = 1 / (1 + np.exp(-(rng.normal(size=n) * rng.uniform(0.3, 3) + y)))
    exact = roc_auc_score(y, s)
    for bins in (2, 10, 100, 1000):
        r = clfeval.score(y, scores=s, labels=[0, 1], conventions=Conventions(score_bins=bins))
        bound = r.to_dict()["auc_bin_bound"]["auc"]
        assert abs(r["auc"] - exact) <= bound + 1e-12
        assert len(r.counts.count) <= 2 * bins and not r.probabilities
        assert f"score_bins:{bins}" in r.signature
        binned = np.minimum(np.floor(s * bins), bins - 1) / bins
        assert r["auc"] == pytest.approx(roc_auc_score(y, binned), abs=1e-12)


def test_a_file_of_distinct_scores_counts_into_bins(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 5000)
    s = 1 / (1 + np.exp(-(rng.normal(size=5000) + y)))
    path = _write(tmp_path / "d.csv", "gold,score", [f"{a},{b!r}" for a, b in zip(y.tolist(), s.tolist())])
    env = {"CLFEVAL_CHUNK_BYTES": "4000", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "clfeval", "score", str(path), "--scores", "score", "--gold-col",
                           "gold", "--positive", "1", "--score-bins", "100", "--format", "json"],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["distinct_rows"] <= 200 and out["inputs"]["score_bins"] == 100
    assert out["conventions"]["score_bins"] == 100
    from sklearn.metrics import roc_auc_score

    assert abs(out["scores"]["auc"] - roc_auc_score(y, s)) <= out["auc_bin_bound"]["auc"]
    bad = _write(tmp_path / "bad.csv", "gold,score", ["1,0.5", "0,0.2", "1,1.7"])
    command = ["score", str(bad), "--scores", "score", "--gold-col", "gold", "--positive", "1", "--score-bins", "10"]
    done = subprocess.run([sys.executable, "-m", "clfeval", *command], capture_output=True, text=True)
    assert done.returncode == 2 and "bad.csv:4:" in done.stderr and "is not a probability" in done.stderr


def test_a_gold_label_outside_the_declared_classes_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.csv", "gold,s", ["a,0.1", "b,0.9", "c,0.3"])
    with pytest.raises(InputError, match=r"x\.csv: the gold label 'c' is not one of the classes \['a', 'b'\]"):
        count_scored(str(path), "s", gold_col="gold", labels=["a", "b"], size=8)


@pytest.mark.parametrize(
    "options",
    [["--beta", "2"], ["--zero-division", "1", "--undefined", "exclude"], ["--ordinal"]],
)
def test_the_measure_options_reach_the_label_report_of_scores(tmp_path: Path, options: list[str]) -> None:
    """--beta, --zero-division, --undefined and --ordinal with --scores were accepted and dropped: the label report at
    the threshold kept β 1, 0/0 = 0 and no order. score, cv and compare now pass them as Python's keywords."""
    rng = np.random.default_rng(4)
    rows = [f"{y}\t{p:.3f}" for y, p in zip(rng.integers(0, 2, 60), rng.random(60))]
    for name in ("a.tsv", "b.tsv"):
        _write(tmp_path / name, "y\tp", rows)
    keywords = {"beta": 2.0} if options[0] == "--beta" else {"ordinal": True} if options[0] == "--ordinal" else {
        "zero_division": 1, "undefined": "exclude"}  # fmt: skip
    y = np.array([int(r.split("\t")[0]) for r in rows])
    s = np.array([float(r.split("\t")[1]) for r in rows])
    expected = clfeval.score(y.astype(str), scores=s, **keywords).labels_at_threshold.to_dict()

    def report(*command: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "clfeval", *command, *options, "--format", "json"],
                              capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    def same(got: dict) -> None:
        for key in ("beta", "zero_division", "label_order", "averages"):
            assert got[key] == expected[key], key

    same(report("score", "a.tsv", "--gold-col", "y", "--scores", "p")["labels_at_threshold"])
    same(
        report("cv", "a.tsv", "b.tsv", "--gold-col", "y", "--scores", "p")["pooled"]["labels_at_threshold"]
    )  # twice: ratios as once
    if options[0] != "--ordinal":  # compare with scores= takes no order (refused)
        got = report("compare", "a.tsv", "--gold-col", "y", "--scores", "A=p", "--scores", "B=p", "--rounds", "20")
        same(got["results"]["A"]["labels_at_threshold"])


@pytest.mark.parametrize(
    "command",
    [
        ["score", "a.tsv", "--gold-col", "y", "--scores", "p"],
        ["count", "a.tsv", "--gold-col", "y", "--scores", "p", "-o", "out.json"],
        ["cv", "a.tsv", "a.tsv", "--gold-col", "y", "--scores", "p"],
        ["compare", "a.tsv", "--gold-col", "y", "--scores", "A=p", "--scores", "B=p"],
    ],
)
def test_a_scheduler_without_the_dask_engine_is_refused_not_dropped(tmp_path: Path, command: list[str]) -> None:
    """--engine dask with --scores was read past: the file was read locally by polars and the report printed, as if
    the cluster had counted it. Scores now count on the cluster (tests/test_scored_cluster.py); a --scheduler
    without --engine dask is refused by name, before anything is read."""
    _write(tmp_path / "a.tsv", "y\tp", ["0\t0.2", "1\t0.7", "1\t0.4"])
    done = subprocess.run([sys.executable, "-m", "clfeval", *command, "--scheduler", "tcp://127.0.0.1:1"],
                          capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "clfeval: error: --scheduler applies to the dask engine only (--engine dask)\n"
    assert not (tmp_path / "out.json").exists()
