"""Issue 40, an outside recheck: the same scored predictions through every path give the same numbers.

Each test holds a defect the recheck found (a silent wrong number), checked against scikit-learn and against the
same data as a pandas frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import clfeval
from tests.conftest import cli_json


def _frame(seed: int, n: int = 120, typed: bool = True) -> pd.DataFrame:
    """Gold labels 9 and 10 (as numbers, or as their text), a score of class 10, a second system and blocks."""
    rng = np.random.default_rng(seed)
    gold = rng.choice([9, 10], n)
    score = np.clip(rng.normal(0.35 + 0.3 * (gold == 10), 0.2), 0, 1).round(2)
    return pd.DataFrame({
        "gold": gold if typed else gold.astype(str), "score": score, "s2": (score * 0.5 + 0.25).round(3),
        "blk": np.arange(n) // 4,
    })  # fmt: skip


def _write(frame: pd.DataFrame, path: Path) -> str:
    if path.suffix == ".parquet":
        frame.to_parquet(path)
    elif path.suffix == ".jsonl":
        frame.to_json(path, orient="records", lines=True)
    else:
        frame.to_csv(path, index=False, sep="\t" if path.suffix == ".tsv" else ",")
    return path.name


@pytest.mark.parametrize(("fmt", "seed"), [("csv", 1), ("tsv", 2), ("jsonl", 3), ("parquet", 4)])
def test_numeric_gold_labels_order_by_value_on_every_path(tmp_path: Path, fmt: str, seed: int) -> None:
    """Gold labels typed as the numbers 9 and 10 (a JSON Lines or Parquet column of integers, or CSV text that
    spells them) order by value, as the same column in a pandas frame does: one score column is class 10's. It was
    class 9's (every AUC 1 − AUC) for JSON Lines and Parquet files, in `compare --scores` of every format, and on
    every path that reads the instances (--block-col), while `score` of a CSV and the frame said 10."""
    frame = _frame(seed)
    name = _write(frame, tmp_path / f"s.{fmt}")
    want = roc_auc_score(frame.gold == 10, frame.score)
    assert clfeval.score(frame.gold, scores=frame.score)["auc"] == pytest.approx(want, abs=1e-12)
    runs = [
        cli_json("score", name, "--gold-col", "gold", "--scores", "score", cwd=tmp_path),
        cli_json("score", name, "--gold-col", "gold", "--scores", "score", "--block-col", "blk", cwd=tmp_path),
    ]
    for blocks in ([], ["--block-col", "blk"]):
        got = cli_json("compare", name, "--gold-col", "gold", "--scores", "A=score", "--scores", "B=s2", *blocks,
                       "--test", "bootstrap", "--rounds", "20", "--seed", "1", cwd=tmp_path)  # fmt: skip
        runs += list(got["results"].values())
    for run in runs:
        assert run["positive"] == "10"
        assert run["scores"]["auc"] == pytest.approx(want, abs=1e-12)


def test_text_gold_in_a_typed_file_orders_as_text_in_cv_too(tmp_path: Path) -> None:
    """Gold labels stored as text ('9', '10') in Parquet order as text (scikit-learn's order of string labels), in
    `score` and in `cv` alike (cv ordered them by value: class 10's scores where `score` of each fold said 9's)."""
    frame = _frame(5, typed=False)
    one = _write(frame[:60], tmp_path / "f1.parquet")
    two = _write(frame[60:], tmp_path / "f2.parquet")
    scored = cli_json("score", one, "--gold-col", "gold", "--scores", "score", cwd=tmp_path)
    pooled = cli_json("cv", one, two, "--gold-col", "gold", "--scores", "score", cwd=tmp_path)["pooled"]
    assert scored["positive"] == pooled["positive"] == "9"
    assert pooled["scores"]["auc"] == pytest.approx(roc_auc_score(frame.gold == "9", frame.score), abs=1e-12)


def test_a_malformed_scheduler_address_is_one_line_at_once(tmp_path: Path) -> None:
    """A --scheduler without a port was the one-line error, then a 60 s wait and the traceback of the half-built
    Client's __del__ (``Exception ignored in``, ``TimeoutError``) as the process ended; now the error alone, at once."""
    import os
    import subprocess
    import sys
    import time

    from tests.conftest import cli_error

    name = _write(_frame(6), tmp_path / "s.csv")
    env = {**os.environ, "PYTHONPATH": str(Path(clfeval.__file__).parents[1])}
    started = time.monotonic()
    args = ["score", name, "--gold-col", "gold", "--scores", "score", "--engine", "dask", "--scheduler", "localhost"]
    out = subprocess.run(
        [sys.executable, "-m", "clfeval", *args], capture_output=True, cwd=tmp_path, env=env, timeout=120
    )
    cli_error(out, "could not connect to the dask scheduler at localhost", "missing port")
    assert time.monotonic() - started < 30
