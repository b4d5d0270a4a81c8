"""Scored predictions in blocks: Obuchowski's clustered DeLong against a direct O(n²) implementation, block
resampling and randomization against the same data without its duplicates, and blocks from files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.infer.delong import delong, delong_paired
from clfeval.scoring.scored import Conventions

MARGINS = Conventions(not_probabilities=True)  # normal scores and margins are no probabilities


def _obuchowski(y: np.ndarray, a: np.ndarray, b: np.ndarray, cluster: np.ndarray) -> tuple[float, float, float]:
    """Obuchowski (1997) as she writes it, pair by pair: Var(A_a), Var(A_b) and Cov(A_a, A_b), with
    S10 = I10/((I10−1)M) Σ_c (V10_c − m_c A)² (I10: the clusters with a positive), S01 likewise with I01 (with a
    negative), S11 = I/(I−1) Σ_c (V10_c − m_c A)(V01_c − n_c A) and Var = S10/M + S01/N + 2 S11/(MN); the covariance
    takes cross products (S11 both ways)."""
    pos, neg = y == 1, y == 0
    m, n = pos.sum(), neg.sum()
    ids = np.unique(cluster)
    k = len(ids)
    k10, k01 = len(np.unique(cluster[pos])), len(np.unique(cluster[neg]))

    def parts(s: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        psi = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
        v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
        auc = float(psi.mean())
        c10 = np.array([v10[cluster[pos] == c].sum() - (cluster[pos] == c).sum() * auc for c in ids])
        c01 = np.array([v01[cluster[neg] == c].sum() - (cluster[neg] == c).sum() * auc for c in ids])
        return auc, c10, c01

    _, a10, a01 = parts(a)
    _, b10, b01 = parts(b)

    def cov(x10: np.ndarray, x01: np.ndarray, z10: np.ndarray, z01: np.ndarray) -> float:
        s10 = k10 / ((k10 - 1) * m) * np.sum(x10 * z10)
        s01 = k01 / ((k01 - 1) * n) * np.sum(x01 * z01)
        s11 = k / (k - 1) * np.sum(x10 * z01)
        s11b = k / (k - 1) * np.sum(z10 * x01)
        return float(s10 / m + s01 / n + (s11 + s11b) / (m * n))

    return cov(a10, a01, a10, a01), cov(b10, b01, b10, b01), cov(a10, a01, b10, b01)


def _clustered_sample(seed: int, blocks: int = 40) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    size = rng.integers(1, 7, blocks)
    cluster = np.repeat(np.arange(blocks), size)
    effect = rng.normal(size=blocks)[cluster]
    y = (rng.random(len(cluster)) < 1 / (1 + np.exp(-effect))).astype(int)
    y[:2] = [0, 1]
    a = np.round(effect + rng.normal(size=len(y)) + y, 1)  # rounded: ties
    b = np.round(0.5 * effect + rng.normal(size=len(y)) + 0.7 * y, 1)
    return y, a, b, cluster


@pytest.mark.parametrize("seed", range(8))
def test_clustered_delong_equals_obuchowskis_definition(seed: int) -> None:
    y, a, b, cluster = _clustered_sample(seed)
    var_a, var_b, cov = _obuchowski(y, a, b, cluster)
    assert delong(y == 1, a, cluster=cluster).variance == pytest.approx(var_a, abs=1e-12)
    assert delong(y == 1, b, cluster=cluster).variance == pytest.approx(var_b, abs=1e-12)
    pair = delong_paired(y == 1, a, b, cluster=cluster)
    assert pair.variance == pytest.approx(var_a + var_b - 2 * cov, abs=1e-12)


def test_clustered_delong_from_weighted_rows_equals_it_from_instances() -> None:
    """Rows distinct within a cluster, with counts, give the instances' variance."""
    y, a, b, cluster = _clustered_sample(3)
    a, b = np.round(a), np.round(b)  # few values: rows repeat within clusters
    table, count = np.unique(np.column_stack([cluster, y, a, b]), axis=0, return_counts=True)
    assert len(table) < len(y)
    rows = delong_paired(table[:, 1] == 1, table[:, 2], table[:, 3], count, cluster=table[:, 0])
    assert rows.variance == pytest.approx(delong_paired(y == 1, a, b, cluster=cluster).variance, abs=1e-14)


def _duplicated(k: int = 5, n: int = 300, seed: int = 4) -> tuple[np.ndarray, ...]:
    """A sample, and the same sample with each instance copied k times into its own block."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + 1.2 * y, 2)
    b = np.round(rng.normal(size=n) + 1.0 * y, 2)
    return y, a, b, np.repeat(y, k), np.repeat(a, k), np.repeat(b, k), np.repeat(np.arange(n), k)


def test_blocks_of_copies_give_the_interval_of_the_sample_itself() -> None:
    """Copying each instance k times into one block must not narrow the interval: by blocks it is the sample's own
    (DeLong exactly: Obuchowski's I10 and I01 are the sample's P and N; the bootstrap: up to Monte Carlo error);
    ignoring the blocks, about √k narrower."""
    y, a, _, yk, ak, _, blocks = _duplicated()
    own = clfeval.score(y, scores=a, labels=[0, 1], ci="delong", conventions=MARGINS).interval("auc")
    clustered = clfeval.score(yk, scores=ak, labels=[0, 1], ci="delong", blocks=blocks, conventions=MARGINS).interval(
        "auc"
    )
    naive = clfeval.score(yk, scores=ak, labels=[0, 1], ci="delong", conventions=MARGINS).interval("auc")
    width = own[1] - own[0]
    assert clustered == pytest.approx(own, abs=1e-12)
    assert naive[1] - naive[0] < 0.5 * width
    boot = clfeval.score(
        y, scores=a, labels=[0, 1], ci="bootstrap", seed=1, resamples=2000, conventions=MARGINS
    ).interval("auc")
    kboot = clfeval.score(
        yk, scores=ak, labels=[0, 1], ci="bootstrap", seed=2, resamples=2000, blocks=blocks, conventions=MARGINS
    )
    low, high = kboot.interval("auc")
    assert high - low == pytest.approx(boot[1] - boot[0], rel=0.12)
    assert kboot.interval_method["n_blocks"] == len(y)
    assert "blocks=300" in kboot.signature


@pytest.mark.parametrize("test", ["delong", "bootstrap", "ar"])
def test_paired_tests_in_blocks_of_copies_agree_with_the_sample_itself(test: str) -> None:
    y, a, b, yk, ak, bk, blocks = _duplicated(n=200, seed=7)
    own = clfeval.compare(
        y, scores={"a": a, "b": b}, labels=[0, 1], test=test, seed=1, rounds=4000, conventions=MARGINS
    ).pair("a", "b")
    by_block = clfeval.compare(
        yk, scores={"a": ak, "b": bk}, labels=[0, 1], test=test, seed=2, rounds=4000, blocks=blocks, conventions=MARGINS
    )
    p = by_block.pair("a", "b")
    naive = clfeval.compare(
        yk, scores={"a": ak, "b": bk}, labels=[0, 1], test=test, seed=3, rounds=4000, conventions=MARGINS
    ).pair("a", "b")
    assert p["difference"] == pytest.approx(own["difference"], abs=1e-12)
    assert p["p_value"] == pytest.approx(own["p_value"], abs=0.03 if test != "delong" else 1e-12)
    assert naive["p_value"] < own["p_value"] - 0.02  # copies taken as independent overstate the evidence
    d = by_block.to_dict()
    assert (d["unit"], d["n_blocks"]) == ("block", 200)
    assert "in blocks" in d["test_definition"]


def test_blocks_must_be_one_per_instance() -> None:
    with pytest.raises(clfeval.ClfevalError, match="blocks gives each instance its block"):
        clfeval.score([0, 1, 1], scores=[0.1, 0.5, 0.7], labels=[0, 1], ci="delong", blocks=[1, 2], conventions=MARGINS)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True)


@pytest.fixture
def block_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(11)
    by_col = ["doc,gold,a,b"]
    blank = ["gold\ta\tb"]
    utt = ["gold\ta\tb"]
    for d in range(30):
        e = rng.normal()
        for _ in range(int(rng.integers(1, 5))):
            y = int(rng.random() < 1 / (1 + np.exp(-e)))
            a, b = round(e + rng.normal() + y, 2), round(0.5 * e + rng.normal() + 0.7 * y, 2)
            by_col.append(f"d{d},{y},{a},{b}")
            blank.append(f"{y}\t{a}\t{b}")
            utt.append(f"{y}\t{a}\t{b}")
        blank += ["", ""] if d % 7 == 0 else [""]  # runs of blank lines end one block
        utt.append("<utt>")
    (tmp_path / "col.csv").write_text("\n".join(by_col) + "\n")
    (tmp_path / "blank.tsv").write_text("\n".join(blank) + "\n")
    (tmp_path / "utt.tsv").write_text("\n".join(utt) + "\n")
    return tmp_path / "col.csv", tmp_path / "blank.tsv", tmp_path / "utt.tsv"


def test_blocks_from_a_column_blank_lines_and_block_ends_agree(block_files: tuple[Path, Path, Path]) -> None:
    col, blank, utt = block_files
    found = []
    ways = ((col, ["--block-col", "doc"]), (blank, ["--blocks", "blank-line"]), (utt, ["--block-end", "^<utt>"]))
    for path, how in ways:
        for command in (
            ["score", str(path), "--scores", "a", "--positive", "1", "--ci", "delong"],
            ["compare", str(path), "--scores", "A=a", "--scores", "B=b", "--positive", "1", "--test", "ar",
             "--seed", "3", "--rounds", "999"],
        ):  # fmt: skip
            done = _cli(*command, "--gold-col", "gold", *how, "--not-probabilities", "--format", "json")
            assert done.returncode == 0, done.stderr
            found.append(json.loads(done.stdout))
    singles, pairs = found[0::2], found[1::2]
    assert all(s["ci"]["n_blocks"] == 30 for s in singles)
    assert {tuple(s["scores"]["auc_ci"]) for s in singles} == {tuple(singles[0]["scores"]["auc_ci"])}
    assert len({p["pairs"][0]["p_value"] for p in pairs}) == 1
    assert singles[0]["inputs"]["blocks"] == "column doc" and singles[1]["inputs"]["blocks"] == "blank lines"
    text = _cli(
        "score", str(col), "--scores", "a", "--positive", "1", "--ci", "delong", "--gold-col", "gold",
        "--block-col", "doc", "--not-probabilities",
    )  # fmt: skip
    assert "30 blocks, the independent units" in " ".join(text.stdout.split())  # notes wrap at the width


def test_errors_in_blocked_files_name_the_line(block_files: tuple[Path, Path, Path], tmp_path: Path) -> None:
    _, blank, _ = block_files
    lines = blank.read_text().splitlines()
    at = next(i for i in range(10, len(lines)) if lines[i] and not lines[i - 1])  # a row after a blank line
    lines[at] = lines[at].replace("\t", "\tx", 1)
    bad = tmp_path / "bad.tsv"
    bad.write_text("\n".join(lines) + "\n")
    done = _cli("score", str(bad), "--scores", "a", "--gold-col", "gold", "--positive", "1", "--blocks", "blank-line")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"bad.tsv:{at + 1}:" in done.stderr and "is not a number" in done.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--block-col", "doc", "--blocks", "blank-line"], "not both"),
        (["--block-col", "nothere"], "nothere"),
    ],
)
def test_block_options_that_cannot_apply_are_refused(
    block_files: tuple[Path, Path, Path], extra: list[str], message: str
) -> None:
    col = block_files[0]
    done = _cli("score", str(col), "--scores", "a", "--gold-col", "gold", "--positive", "1", *extra)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_blank_line_blocks_are_for_delimited_text(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"gold": 1, "s": 0.9}\n{"gold": 0, "s": 0.2}\n')
    done = _cli("score", str(path), "--scores", "s", "--gold-col", "gold", "--positive", "1", "--blocks", "blank-line")
    assert done.returncode == 2 and "--block-col" in done.stderr


# --- lower is more confident (distances) ------------------------------------------------------------------------


def test_distances_score_as_their_negatives_and_say_so() -> None:
    from clfeval.scoring.scored import Conventions

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400)
    distance = np.round(rng.gamma(2.0, 1.0, 400) - 0.8 * y, 2)  # positives nearer
    lower = Conventions(lower_is_more_confident=True)
    r = clfeval.score(y, scores=distance, labels=[0, 1], conventions=lower, ci="delong", threshold=1.0)
    negated = clfeval.score(y, scores=-distance, labels=[0, 1], ci="delong", threshold=-1.0, conventions=MARGINS)
    assert r["auc"] == negated["auc"] > 0.6 and r.interval("auc") == negated.interval("auc")
    assert r["average_precision"] == negated["average_precision"]
    assert not r.probabilities and "log_loss" not in r
    assert r.threshold == "score <= 1"
    assert r.labels_at_threshold.to_dict() == negated.labels_at_threshold.to_dict()
    d = r.to_dict()
    assert d["conventions"]["direction"] == "lower is more confident (negated)" and "direction:lower" in r.signature
    shown = [t for t in d["curves"]["1"]["roc"]["threshold"] if t is not None]
    assert min(shown) >= distance.min() and max(shown) <= distance.max()  # in the distances' own units
    assert shown == sorted(shown)  # the threshold rises as the curve goes on (more instances called positive)
    c = clfeval.compare(y, scores={"a": distance, "b": distance[::-1].copy()}, labels=[0, 1], test="delong",
                        conventions=lower)  # fmt: skip
    assert c.pair("a", "b")["score_a"] == pytest.approx(r["auc"], abs=1e-15)
    assert c.results["a"]["auc"] == pytest.approx(r["auc"], abs=1e-15)
    folds = np.arange(400) % 4
    cv = clfeval.cv(y, scores=distance, folds=folds, labels=[0, 1], conventions=lower)
    assert cv.pooled["auc"] == pytest.approx(r["auc"], abs=1e-15)


def test_the_command_line_reads_distances(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 300)
    d = np.round(rng.gamma(2.0, 1.0, 300) - 0.8 * y, 3)
    path = tmp_path / "d.csv"
    path.write_text("gold,dist\n" + "".join(f"{a},{b}\n" for a, b in zip(y, d)))
    done = _cli("score", str(path), "--scores", "dist", "--gold-col", "gold", "--positive", "1",
                "--lower-is-more-confident", "--format", "json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = clfeval.score(y, scores=-d, labels=[0, 1], conventions=MARGINS)["auc"]
    assert json.loads(done.stdout)["scores"]["auc"] == pytest.approx(expected, abs=1e-15)
    folds = [tmp_path / f"f{i}.csv" for i in range(3)]
    for i, f in enumerate(folds):
        f.write_text("gold,dist\n" + "".join(f"{a},{b}\n" for a, b in list(zip(y, d))[i::3]))
    done = _cli("cv", *map(str, folds), "--scores", "dist", "--gold-col", "gold", "--positive", "1",
                "--lower-is-more-confident", "--format", "json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    pooled = json.loads(done.stdout)["pooled"]
    assert pooled["scores"]["auc"] == pytest.approx(expected, abs=1e-15)
    assert pooled["conventions"]["direction"].startswith("lower")


def test_the_roc_band_draws_whole_blocks() -> None:
    """Copies in blocks give about the band of the sample itself; ignoring the blocks, a narrower one."""
    from clfeval.report.figures import _roc_band

    y, a, _, yk, ak, _, blocks = _duplicated(k=6, n=250, seed=9)

    def width(r: object) -> float:
        band = _roc_band(r, 0)
        assert band is not None
        return float(np.mean(np.array(band[2]) - np.array(band[1])))

    own = width(clfeval.score(y, scores=a, labels=[0, 1], ci="bootstrap", seed=1, resamples=50, conventions=MARGINS))
    by_block = width(
        clfeval.score(
            yk, scores=ak, labels=[0, 1], ci="bootstrap", seed=1, resamples=50, blocks=blocks, conventions=MARGINS
        )
    )
    naive = width(
        clfeval.score(yk, scores=ak, labels=[0, 1], ci="bootstrap", seed=1, resamples=50, conventions=MARGINS)
    )
    assert by_block == pytest.approx(own, rel=0.15)
    assert naive < 0.6 * own


# --- edges found in review -------------------------------------------------------------------------------------


def test_one_block_is_refused_not_reported_as_significant(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 60)
    s = rng.normal(size=60) + y
    with pytest.raises(clfeval.ClfevalError, match="in 1 block"):
        clfeval.score(y, scores=s, labels=[0, 1], ci="bootstrap", blocks=np.zeros(60), conventions=MARGINS)
    with pytest.raises(clfeval.ClfevalError, match="in 1 block"):
        clfeval.compare(
            y, scores={"a": s, "b": -s}, labels=[0, 1], test="delong", blocks=["d"] * 60, conventions=MARGINS
        )
    path = tmp_path / "noblank.tsv"
    path.write_text("gold\ta\tb\n" + "".join(f"{g}\t{a:.3f}\t{b:.3f}\n" for g, a, b in zip(y, s, s[::-1])))
    done = _cli("compare", str(path), "--gold-col", "gold", "--scores", "A=a", "--scores", "B=b", "--positive", "1",
                "--test", "bootstrap", "--blocks", "blank-line", "--not-probabilities")  # fmt: skip
    assert done.returncode == 2 and "in 1 block" in done.stderr and "Traceback" not in done.stderr


def test_delongs_test_without_a_variance_gives_no_p_value() -> None:
    """One positive: DeLong's variance does not exist, so the test has no p-value (not p = 0)."""
    y = np.zeros(30, dtype=int)
    y[0] = 1
    s = np.random.default_rng(2).normal(size=30)
    pair = clfeval.compare(
        y, scores={"a": s, "b": s[::-1].copy()}, labels=[0, 1], test="delong", conventions=MARGINS
    ).pair("a", "b")
    assert np.isnan(pair["p_value"]) and not pair["significant"]


def test_every_score_tied_has_no_delong_interval() -> None:
    y = np.array([0, 1] * 10)
    for method in ("delong", "delong-logit"):
        r = clfeval.score(y, scores=np.full(20, 0.5), labels=[0, 1], ci=method, conventions=MARGINS)
        assert r["auc"] == 0.5
        with pytest.raises(clfeval.ClfevalError, match="has no delong"):
            r.interval("auc")


def test_boolean_gold_labels_work_with_blocks() -> None:
    rng = np.random.default_rng(3)
    y = rng.random(100) < 0.4
    s = rng.normal(size=100) + y
    blocks = np.arange(100) // 5
    r = clfeval.score(y, scores=s, ci="delong", blocks=blocks, conventions=MARGINS)
    same = clfeval.score(y.astype(int), scores=s, ci="delong", blocks=blocks, conventions=MARGINS)
    assert r.interval("auc") == same.interval("auc")
    c = clfeval.compare(
        y, scores={"a": s, "b": s[::-1].copy()}, test="bootstrap", seed=1, rounds=99, blocks=blocks, conventions=MARGINS
    )
    assert 0 < c.pair("a", "b")["p_value"] <= 1


def test_rows_of_zeros_and_ones_are_an_indicator_matrix() -> None:
    rng = np.random.default_rng(4)
    y = (rng.random((50, 2)) < 0.5).astype(int)
    s = rng.random((50, 2))
    as_array = clfeval.score(y, scores=s, multilabel=True, conventions=MARGINS)
    as_lists = clfeval.score(y.tolist(), scores=s, multilabel=True, conventions=MARGINS)
    assert as_lists.to_dict()["scores"] == as_array.to_dict()["scores"]


def test_declared_scores_and_distances_are_ranking_only_on_the_command_line(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 100)
    p = np.round(rng.random(100) * 0.6 + 0.3 * y, 3)
    path = tmp_path / "p.csv"
    path.write_text("gold,p\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p)))
    done = _cli("score", str(path), "--scores", "p", "--gold-col", "gold", "--positive", "1", "--not-probabilities",
                "--format", "json")  # fmt: skip
    out = json.loads(done.stdout)
    assert not out["probabilities"] and "log_loss" not in out["scores"] and out["conventions"]["not_probabilities"]
    d = rng.dirichlet(np.ones(3), 90) * 0.8  # distances in [0, 1] that do not sum to 1
    g = rng.choice(["a", "b", "c"], 90)
    path = tmp_path / "d.csv"
    path.write_text("gold,d_a,d_b,d_c\n" + "".join(f"{x},{r[0]:.4f},{r[1]:.4f},{r[2]:.4f}\n" for x, r in zip(g, d)))
    done = _cli("score", str(path), "--scores", "d_*", "--gold-col", "gold", "--lower-is-more-confident",
                "--format", "json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["threshold"] == "argmin"
