"""Scored predictions with sample weights: empirical coverage of the weighted bootstrap's 95% intervals of ROC AUC,
log loss and Brier (issue 38).

    .venv/bin/python benchmarks/scored_weighted_coverage.py --workers 2   # full run (writes the .md beside it)
    .venv/bin/python benchmarks/scored_weighted_coverage.py --quick       # tiny T and R: a smoke test, prints only

Design. The binormal model of ``scored_coverage.py``: negatives' latent score x ~ N(0, 1), positives' x ~ N(mu, 1),
mu = √2 Φ⁻¹(A) for an unweighted AUC A of 0.75 or 0.95, gold labels i.i.d. Bernoulli(π), and the calibrated
probability p = sigmoid(logit π − mu²/2 + mu x) as the scores. Each instance has a weight: positives 1, negatives
exp(γ x − γ²/2) (γ = 0.5: an importance weight that tilts the negatives' scores to N(γ, 1)), each times an
independent u, 0 with probability 0.1 and otherwise Exp(1)/0.9 (E u = 1; zero weights and ties in weight-free noise).
The weighted scores estimate the scores of the tilted population, whose values are known:

- weighted AUC: Σ_i Σ_j w_i w_j 1(x_i > x_j) / (Σ_i w_i Σ_j w_j) over positives i and negatives j → P(X⁺ > X̃⁻) with
  X̃⁻ ~ N(γ, 1): Φ((mu − γ)/√2) (u is independent of x, so it leaves the limit alone);
- weighted log loss and Brier (scikit-learn's binary (p − y)²): Σ w ℓ / Σ w → E[w ℓ] / E[w], E[w] = 1, by
  quadrature: π E⁺[ℓ(1, p)] + (1 − π) E⁻[exp(γ x − γ²/2) ℓ(0, p)].

Cells: A in (0.75, 0.95), π in (0.5, 0.2), n in (200, 1000). Replication t of a cell draws from
default_rng(SeedSequence([SEED, cell, t])) and is scored with ``clfeval.score(y, scores=p, sample_weight=w,
ci="bootstrap", resamples=R, seed=...)``: the count bootstrap draws instances (a multinomial over the distinct rows'
instance counts) that keep their weights. Coverage is the share of T replications whose interval holds the true
value (a score without an interval is a miss), ± sqrt(c(1 − c)/T).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from coverage import machine  # noqa: E402  (benchmarks/coverage.py, beside this script)
from scipy import integrate, special, stats  # noqa: E402
from scored_coverage import interval, mu_of  # noqa: E402

import clfeval  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "scored_weighted_coverage.md"
SEED = 20261128
GAMMA = 0.5
ZERO = 0.1
AUCS = (0.75, 0.95)
PREVALENCES = (0.5, 0.2)
SIZES = (200, 1000)
SCORES = {"AUC": "auc", "log loss": "log_loss", "Brier": "brier"}
FULL = {"t": 300, "resamples": 400}
QUICK = {"t": 20, "resamples": 99}


def cells() -> list[tuple[int, float, float, int]]:
    return [(i, a, p, n) for i, (a, p, n) in enumerate((a, p, n) for a in AUCS for p in PREVALENCES for n in SIZES)]


def truth(auc: float, prev: float) -> dict[str, float]:
    """The weighted scores' limits (see the module)."""
    mu = mu_of(auc)
    a = math.log(prev / (1 - prev)) - mu * mu / 2

    def p(x: float) -> float:
        return float(special.expit(a + mu * x))

    def tilt(x: float) -> float:
        return math.exp(GAMMA * x - GAMMA * GAMMA / 2)

    def quad(f: object) -> float:
        return float(integrate.quad(f, -12.0, mu + 12.0, limit=200, epsabs=1e-13, epsrel=1e-12)[0])  # type: ignore[arg-type]

    loss = prev * quad(lambda x: -math.log(p(x)) * stats.norm.pdf(x - mu)) + (1 - prev) * quad(
        lambda x: tilt(x) * -math.log(1 - p(x)) * stats.norm.pdf(x)
    )
    brier = prev * quad(lambda x: (1 - p(x)) ** 2 * stats.norm.pdf(x - mu)) + (1 - prev) * quad(
        lambda x: tilt(x) * p(x) ** 2 * stats.norm.pdf(x)
    )
    return {"AUC": float(stats.norm.cdf((mu - GAMMA) / math.sqrt(2))), "log loss": loss, "Brier": brier}


def draw(rng: np.random.Generator, auc: float, prev: float, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gold labels, calibrated probabilities and sample weights of n instances (see the module)."""
    mu = mu_of(auc)
    y = (rng.random(n) < prev).astype(np.int64)
    x = rng.standard_normal(n) + mu * y
    p = special.expit(math.log(prev / (1 - prev)) - mu * mu / 2 + mu * x)
    u = np.where(rng.random(n) < ZERO, 0.0, rng.exponential(1.0, n) / (1 - ZERO))
    w = np.where(y == 1, 1.0, np.exp(GAMMA * x - GAMMA * GAMMA / 2)) * u
    return y, p, w


def job(args: tuple[int, float, float, int, int, int]) -> dict[str, tuple[float, float] | None]:
    cell, auc, prev, n, t, resamples = args
    rng = np.random.default_rng(np.random.SeedSequence([SEED, cell, t]))
    y, p, w = draw(rng, auc, prev, n)
    seed = int(np.random.SeedSequence([SEED, cell, t, 1]).generate_state(1)[0])
    try:
        r = clfeval.score(y, scores=p, sample_weight=w, ci="bootstrap", seed=seed, resamples=resamples)
    except Exception:  # no positive or no weighted negative: no interval
        return dict.fromkeys(SCORES)
    return {name: interval(r, key) for name, key in SCORES.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny T and R; prints, writes nothing")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    start = time.time()
    truths = {(a, p): truth(a, p) for a in AUCS for p in PREVALENCES}
    jobs = [(c, a, p, n, t, cfg["resamples"]) for c, a, p, n in cells() for t in range(cfg["t"])]
    with mp.get_context("fork").Pool(args.workers) as pool:
        found = pool.map(job, jobs, chunksize=10)
    wall = time.time() - start
    lines = [
        "# Weighted bootstrap coverage of scored predictions",
        "",
        f"Produced by `benchmarks/scored_weighted_coverage.py{' --quick' if args.quick else ''}` "
        f"(T = {cfg['t']} replications per cell, R = {cfg['resamples']} resamples, γ = {GAMMA}, "
        f"{ZERO:.0%} zero weights; {machine()}; {args.workers} worker(s); {wall:.0f} s).",
        "",
        "Coverage of the 95% percentile bootstrap interval (± its s.e.) of the weighted AUC / log loss / Brier; "
        "true values in brackets.",
        "",
        "| unweighted AUC | π | n | " + " | ".join(SCORES) + " |",
        "|---:|---:|---:|" + "---|" * len(SCORES),
    ]
    at = 0
    for _cell, auc, prev, n in cells():
        mine = found[at : at + cfg["t"]]
        at += cfg["t"]
        row = []
        for name in SCORES:
            true = truths[(auc, prev)][name]
            hit = [iv is not None and iv[0] <= true <= iv[1] for iv in (m[name] for m in mine)]
            c = float(np.mean(hit))
            row.append(f"{c:.3f} ± {math.sqrt(c * (1 - c) / len(hit)):.3f} ({true:.4f})")
        lines.append(f"| {auc} | {prev} | {n} | " + " | ".join(row) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        (args.out or DEFAULT_OUT).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
