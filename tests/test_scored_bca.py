"""BCa intervals of scored predictions (``ci="bootstrap-bca"``): against scipy's BCa on the instances, and the
grouped and block jackknives against the exact one."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import log_loss, roc_auc_score

import clfeval
from clfeval.infer import scored as scored_infer
from clfeval.scoring.scored import Conventions

MARGINS = Conventions(not_probabilities=True)  # normal scores and margins are no probabilities


def _sample(seed: int, n: int = 120) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    y[:2] = [0, 1]
    return y, np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y))), 2)


def _auc(y: np.ndarray, s: np.ndarray, axis: int = -1) -> np.ndarray:
    """ROC AUC of each row (Mann–Whitney with midranks): scikit-learn's roc_auc_score, row by row at once."""
    ranks = stats.rankdata(s, axis=axis)
    positives = y.sum(axis=axis)
    return ((ranks * y).sum(axis=axis) - positives * (positives + 1) / 2) / (positives * (y.shape[axis] - positives))


def _log_loss(y: np.ndarray, s: np.ndarray, axis: int = -1) -> np.ndarray:
    """scikit-learn's log_loss (probabilities clipped to [ε, 1 − ε]) of each row at once."""
    eps = np.finfo(np.float64).eps
    p = np.clip(s, eps, 1 - eps)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p), axis=axis)


@pytest.mark.parametrize("seed", range(3))
def test_bca_agrees_with_scipy_on_the_instances(seed: int) -> None:
    """scipy.stats.bootstrap(method="BCa") resamples the instances and leaves each one out for the acceleration, as
    clfeval's count bootstrap does over distinct rows: the intervals agree up to Monte Carlo error (B = 4000). scipy
    scores its resamples with row-wise forms of scikit-learn's AUC and log loss (equal to them on the data: checked
    here; as scipy's intervals with scikit-learn's own functions, 100 times faster)."""
    y, s = _sample(seed)
    assert _auc(y, s) == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert _log_loss(y, s) == pytest.approx(log_loss(y, s, labels=[0, 1]), abs=1e-12)
    r = clfeval.score(y, scores=s, labels=[0, 1], ci="bootstrap-bca", seed=seed, resamples=4000)
    assert r.interval_method["method"] == "bootstrap-bca" and r.interval_method["jackknife"].startswith("instances")
    for name, statistic in (("auc", _auc), ("log_loss", _log_loss)):
        theirs = stats.bootstrap((y, s), statistic, paired=True, vectorized=True, method="BCa", n_resamples=4000,
                                 random_state=seed + 10).confidence_interval  # fmt: skip
        low, high = r.interval(name)
        assert low == pytest.approx(theirs.low, abs=0.012) and high == pytest.approx(theirs.high, abs=0.012)
        assert low <= r[name] <= high


def test_bca_moves_a_skewed_interval_where_the_percentile_does_not() -> None:
    """An AUC near 1 has a left-skewed bootstrap distribution: BCa reaches lower than the percentile interval."""
    rng = np.random.default_rng(5)
    y = (rng.random(150) < 0.4).astype(int)
    s = np.round(rng.normal(size=150) + 3.0 * y, 1)
    pct = clfeval.score(
        y, scores=s, labels=[0, 1], ci="bootstrap", seed=1, resamples=3000, conventions=MARGINS
    ).interval("auc")
    bca = clfeval.score(
        y, scores=s, labels=[0, 1], ci="bootstrap-bca", seed=1, resamples=3000, conventions=MARGINS
    ).interval("auc")
    assert bca[0] < pct[0] and bca[1] <= pct[1]


def test_the_grouped_jackknife_is_close_to_the_exact_one(monkeypatch: pytest.MonkeyPatch) -> None:
    y, s = _sample(8, n=400)
    exact = clfeval.score(y, scores=s, labels=[0, 1], ci="bootstrap-bca", seed=3, resamples=3000)
    monkeypatch.setattr(scored_infer, "JACKKNIFE_UNITS", 10)  # more distinct rows than this: groups of rows
    grouped = clfeval.score(y, scores=s, labels=[0, 1], ci="bootstrap-bca", seed=3, resamples=3000)
    assert grouped.interval_method["jackknife"] == "200 groups of instances"
    for name in ("auc", "log_loss", "brier"):
        assert grouped.interval(name) == pytest.approx(exact.interval(name), abs=0.01)


def test_bca_in_blocks_leaves_blocks_out() -> None:
    y, s = _sample(9, n=300)
    blocks = np.arange(300) // 5
    r = clfeval.score(y, scores=s, labels=[0, 1], ci="bootstrap-bca", seed=1, resamples=500, blocks=blocks)
    assert r.interval_method["jackknife"] == "blocks (60)" and r.interval_method["n_blocks"] == 60
    low, high = r.interval("auc")
    assert low < r["auc"] < high
