"""Scored predictions in blocks: coverage of clfeval's 95% AUC intervals and the calibration of its paired AUC tests
when instances come in correlated blocks, with the blocks given (clustered DeLong, block bootstrap, block
randomization) and ignored (the instance-level methods).

    .venv/bin/python benchmarks/scored_block_coverage.py --workers 2   # full run (writes scored_block_coverage.md)
    .venv/bin/python benchmarks/scored_block_coverage.py --quick       # tiny T and R: a smoke test, prints only

Design. B blocks (documents, patients) of 1 + Poisson(9) instances each (mean 10). Block b has an effect
u_b ~ N(0, 1) that moves both the gold label and the scores: y ~ Bernoulli(sigmoid(−0.5 + 1.5 u_b)) (about 42%
positives, strongly correlated within a block), and a system's score is s = 1.2 y + 0.8 u_b + v_b + e, with a
system-specific block effect v_b ~ N(0, 1) and instance noise e ~ N(0, 0.6²). Ignoring the blocks, DeLong's interval
is about 1.5 times too narrow here (a design effect of about 2.3 on the variance).
The estimand is the population AUC, P(s⁺ > s⁻) + ½ P(s⁺ = s⁻) for a
positive and a negative drawn independently from the whole population; its true value comes from one sample of
TRUTH_BLOCKS blocks (s.e. below 10⁻³, reported).

Part 1 (coverage), per B in (30, 100, 300): T replications, each scored with ``clfeval.score(y, scores=a,
labels=[0, 1], ci="delong")`` with and without ``blocks=``, and the first T_BOOT also with ``ci="bootstrap"``
(R resamples) with and without blocks.

Part 2 (paired tests under the null), per B: two systems A and B drawn alike (independent v_b and e: exchangeable,
equal AUCs), tested with ``clfeval.compare(..., test=...)`` with and without blocks: DeLong on all M data sets,
the paired bootstrap and randomization (``rounds``) on the first M_RESAMPLE. Reported: the share of p ≤ 0.05.

Replication t of cell c uses default_rng(SeedSequence([SEED, part, c, t])); results do not depend on the number of
workers.
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
from scored_coverage import source_state  # noqa: E402

import clfeval  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "scored_block_coverage.md"
SEED = 20261126
BLOCKS = (30, 100, 300)
FULL = {"t": 1000, "t_boot": 300, "resamples": 400, "m": 1000, "m_resample": 300, "rounds": 399}
QUICK = {"t": 40, "t_boot": 10, "resamples": 99, "m": 40, "m_resample": 10, "rounds": 99}
TRUTH_BLOCKS = 200_000
TESTS = ("delong", "bootstrap", "ar")
CHUNK = 10


def draw(rng: np.random.Generator, blocks: int, systems: int = 1) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Gold labels, each instance's block and ``systems`` score vectors (see the module)."""
    size = 1 + rng.poisson(9, blocks)
    block = np.repeat(np.arange(blocks), size)
    u = rng.normal(size=blocks)[block]
    y = (rng.random(len(block)) < 1 / (1 + np.exp(-(-0.5 + 1.5 * u)))).astype(np.int64)
    scores = [
        1.2 * y + 0.8 * u + rng.normal(0, 1.0, blocks)[block] + rng.normal(0, 0.6, len(block)) for _ in range(systems)
    ]
    return y, block, scores


def true_auc() -> tuple[float, float]:
    """The population AUC from one large sample (each positive against each negative, by ranks), with a rough s.e.
    from ten sub-samples."""
    rng = np.random.default_rng([SEED, 99])
    y, _, (s,) = draw(rng, TRUTH_BLOCKS)
    parts = np.array_split(rng.permutation(len(y)), 10)

    def auc(i: np.ndarray) -> float:
        return float(clfeval.score(y[i], scores=s[i], labels=[0, 1])["auc"])

    each = [auc(i) for i in parts]
    return auc(np.arange(len(y))), float(np.std(each, ddof=1) / math.sqrt(10))


def job(task: tuple) -> dict:
    part, c, t, cfg = task
    blocks = BLOCKS[c]
    rng = np.random.default_rng([SEED, part, c, t])
    out: dict = {"part": part, "c": c, "t": t}
    if part == 0:
        y, block, (a,) = draw(rng, blocks)
        if y.min() == y.max():
            return {**out, "iv": None}
        ivs = {}
        for name, given in (("blocks", block), ("instances", None)):
            ivs[("delong", name)] = clfeval.score(y, scores=a, labels=[0, 1], ci="delong", blocks=given).interval("auc")
            if t < cfg["t_boot"]:
                r = clfeval.score(y, scores=a, labels=[0, 1], ci="bootstrap", resamples=cfg["resamples"],
                                  seed=int(rng.integers(2**31)), blocks=given)  # fmt: skip
                ivs[("bootstrap", name)] = r.intervals.get("auc")
        return {**out, "iv": ivs}
    y, block, (a, b) = draw(rng, blocks, systems=2)
    if y.min() == y.max():
        return {**out, "p": None}
    ps = {}
    for test in TESTS:
        if test != "delong" and t >= cfg["m_resample"]:
            continue
        for name, given in (("blocks", block), ("instances", None)):
            c_ = clfeval.compare(y, scores={"A": a, "B": b}, labels=[0, 1], test=test, rounds=cfg["rounds"],
                                 seed=int(rng.integers(2**31)), blocks=given)  # fmt: skip
            ps[(test, name)] = c_.pair("A", "B")["p_value"]
    return {**out, "p": ps}


def run_chunk(tasks: list[tuple]) -> list[dict]:
    return [job(t) for t in tasks]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny T and R; prints, writes nothing")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    start = time.time()
    truth, truth_se = true_auc()
    tasks = [(0, c, t, cfg) for c in range(len(BLOCKS)) for t in range(cfg["t"])]
    tasks += [(1, c, t, cfg) for c in range(len(BLOCKS)) for t in range(cfg["m"])]
    chunks = [tasks[i : i + CHUNK] for i in range(0, len(tasks), CHUNK)]
    with mp.Pool(args.workers) as pool:
        done = [r for part in pool.map(run_chunk, chunks) for r in part]
    wall = time.time() - start
    lines = [
        "# Scored predictions in blocks: AUC interval coverage and paired-test calibration",
        "",
        "Written by `benchmarks/scored_block_coverage.py` (its docstring has the design). Reproduce with",
        "",
        "```sh",
        ".venv/bin/python benchmarks/scored_block_coverage.py --workers 2",
        "```",
        "",
        f"- Blocks of 1 + Poisson(9) instances sharing an effect on the gold label and the scores; true AUC "
        f"{truth:.4f} (s.e. {truth_se:.4f}, from {TRUTH_BLOCKS:,} blocks).",
        f"- Coverage: T = {cfg['t']} replications per B for DeLong, the first {cfg['t_boot']} also with the "
        f"bootstrap (R = {cfg['resamples']}); tests: M = {cfg['m']} null data sets per B for DeLong, the first "
        f"{cfg['m_resample']} also for the bootstrap and randomization (rounds = {cfg['rounds']}).",
        f"- Machine: {machine()}; {args.workers} worker process(es); wall time {wall:.0f} s "
        f"({time.strftime('%Y-%m-%d')}); clfeval {clfeval.__version__}, {source_state()}.",
        "",
        "## Coverage of 95% AUC intervals",
        "",
        "| blocks B | instances (mean) | method | blocks given | blocks ignored | width given / ignored |",
        "|---:|---:|---|---:|---:|---:|",
    ]
    for c, blocks in enumerate(BLOCKS):
        reps = [r for r in done if r["part"] == 0 and r["c"] == c]
        for method in ("delong", "bootstrap"):
            cells = []
            widths = []
            for name in ("blocks", "instances"):
                ivs = [r["iv"].get((method, name)) if r["iv"] is not None else None for r in reps]
                ivs = [iv for i, iv in enumerate(ivs) if method == "delong" or reps[i]["t"] < cfg["t_boot"]]
                T = len(ivs)
                hit = sum(iv is not None and iv[0] <= truth <= iv[1] for iv in ivs) / T
                cells.append(f"{hit:.3f} ± {math.sqrt(hit * (1 - hit) / T):.3f}")
                widths.append(float(np.mean([iv[1] - iv[0] for iv in ivs if iv is not None])))
            lines.append(f"| {blocks} | {10 * blocks} | {method} | {cells[0]} | {cells[1]} | "
                         f"{widths[0]:.3f} / {widths[1]:.3f} |")  # fmt: skip
    lines += [
        "",
        "## Paired AUC tests under the null (two exchangeable systems): share of p ≤ 0.05",
        "",
        "| blocks B | test | blocks given | blocks ignored |",
        "|---:|---|---:|---:|",
    ]
    for c, blocks in enumerate(BLOCKS):
        reps = [r for r in done if r["part"] == 1 and r["c"] == c and r["p"] is not None]
        for test in TESTS:
            cells = []
            for name in ("blocks", "instances"):
                ps = [r["p"][(test, name)] for r in reps if (test, name) in r["p"]]
                rate = sum(p <= 0.05 for p in ps) / len(ps)
                cells.append(f"{rate:.3f} ± {math.sqrt(rate * (1 - rate) / len(ps)):.3f}")
            lines.append(f"| {blocks} | {test} | {cells[0]} | {cells[1]} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        (args.out or DEFAULT_OUT).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
