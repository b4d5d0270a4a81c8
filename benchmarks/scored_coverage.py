"""Scored predictions: empirical coverage of clfeval's 95% intervals of ROC AUC, log loss and Brier (DeLong and the
bootstrap), and the calibration and power of its paired tests of AUC (DeLong, paired bootstrap, randomization).

    .venv/bin/python benchmarks/scored_coverage.py --workers 2   # full run (writes benchmarks/scored_coverage.md)
    .venv/bin/python benchmarks/scored_coverage.py --quick       # tiny T, M and R: a smoke test, prints only

Design, part 1 (coverage). The binormal model: negatives' latent score x ~ N(0, 1), positives' x ~ N(mu, 1), with
mu = √2 Φ⁻¹(AUC) for a true AUC of 0.75 or 0.95 (the AUC of x is Φ(mu/√2)). Under this model the posterior
probability of the positive class is exactly logistic in x: p = sigmoid(a + mu x) with a = logit(π) − mu²/2, π the
prevalence. The scores handed to clfeval are these p, so one data set has a known AUC (p is monotone in x) and
calibrated probabilities whose true log loss and Brier are known:

- log loss: E[H(p(x))], H the binary entropy, x from the mixture (1 − π) N(0, 1) + π N(mu, 1);
- Brier: scored as the sum over both classes' probabilities (``Conventions(brier="sum")``, twice the default,
  scikit-learn's binary (p − y)²; the study ran with it as clfeval's default then, and coverage does not depend on
  the scale), so its true value is 2 E[p(x)(1 − p(x))].

Both expectations are computed by adaptive quadrature (scipy.integrate.quad) and checked against a Monte Carlo
sample of 10⁶ instances (its s.e. reported). Cells: true AUC in (0.75, 0.95), prevalence π in (0.5, 0.1), n in
(50, 200, 1000). Gold labels are i.i.d. Bernoulli(π), so the number of positives varies (a sample without
positives or without negatives has no AUC: its intervals count as not estimable). (A first run fixed the positives
at πn; the bootstrap, which resamples instances i.i.d., then over-covered log loss and Brier at π = 0.1, coverage
1.000, because the class mix, which drives most of their variance there, did not vary.)
Replication t of a cell draws its data from default_rng(SeedSequence([SEED, cell, t])) and is scored

- with ``clfeval.score(y, scores=p, ci="delong")`` and ``ci="delong-logit"`` (T_DELONG = 1000 replications; AUC
  only), and
- for the first T_BOOT = 300 of them, with ``ci="bootstrap", resamples=500`` and the seed
  SeedSequence([SEED, cell, t, 1]).generate_state(1)[0] (percentile intervals of AUC, log loss and Brier).

Coverage is the share of replications whose interval contains the true value, ± its binomial s.e.
sqrt(c(1 − c)/T); a score without an interval (an exception such as clfeval.errors.OptionError, None or NaN) counts
as a miss and is reported as not estimable. Mean widths are over estimable intervals; misses are split into
intervals below the truth and above it.

Design, part 2 (paired tests of AUC). A latent score z (negatives N(0, 1), positives N(m, 1)) and two systems that
see it through independent noise, A = z + σ_A e_A and B = z + σ_B e_B, e ~ N(0, 1); their AUCs are
Φ(m / sqrt(2(1 + σ²))) and, within a class, corr(A, B) = 1 / sqrt((1 + σ_A²)(1 + σ_B²)). With m = 1.6:

- null scenarios: σ_A = σ_B, both AUCs Φ(1.6/√(2 · 1.807)) ≈ 0.80, within-class correlation ≈ 0.55, at
  (n = 200, π = 0.5) and (n = 500, π = 0.1), A and B exchangeable per instance; and a third null at (200, 0.5) in
  which B's scores are put through Φ (the same ranks, so the same AUC, but on a [0, 1] scale while A's are on the
  real line): equal AUCs, but A and B are no longer exchangeable;
- power: n = 500, π = 0.5, σ_A² = 1.807 (AUC 0.80) and σ_B² = 0.190 (AUC 0.85), correlation ≈ 0.68.

Each data set (number of positives fixed at πn) is tested with ``clfeval.compare(y, scores={"A": a, "B": b},
test=...)``: "delong" on all M_DELONG = 2000 data sets, "bootstrap" and "ar" (``rounds=499``, ``metrics=["auc"]``,
seed from SeedSequence([SEED, 100 + scenario, i, 1])) on the first M_RESAMPLE = 500. Reported: the share of
p ≤ 0.05 and p ≤ 0.01, with its binomial s.e. Results do not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from coverage import machine  # noqa: E402  (benchmarks/coverage.py, beside this script)
from scipy import integrate, special, stats  # noqa: E402

import clfeval  # noqa: E402
from clfeval.scoring.scored import Conventions  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "scored_coverage.md"
SEED = 20261201
AUCS = (0.75, 0.95)
PREVALENCES = (0.5, 0.1)
SIZES = (50, 200, 1000)
SCORES = {"AUC": "auc", "log loss": "log_loss", "Brier": "brier"}
#: The Brier score as the study scores it: both classes' squared errors (twice scikit-learn's binary Brier).
TWO_CLASS_SUM = Conventions(brier="sum")
FULL = {"t_delong": 1000, "t_boot": 300, "resamples": 500, "m_delong": 2000, "m_resample": 500, "rounds": 499}
QUICK = {"t_delong": 60, "t_boot": 20, "resamples": 99, "m_delong": 60, "m_resample": 20, "rounds": 99}
MC_TRUTH = 1_000_000
LATENT_M = 1.6
POWER_VAR_B = (LATENT_M / stats.norm.ppf(0.85)) ** 2 / 2 - 1
NULL_VAR = (LATENT_M / stats.norm.ppf(0.80)) ** 2 / 2 - 1  # σ² for AUC 0.80: m / sqrt(2(1 + σ²)) = Φ⁻¹(0.80)
# (sid, part, name, n, prevalence, σ_A², σ_B², B through Φ)
TEST_SCENARIOS = (
    (0, "null", "(a) n = 200, π = 0.5", 200, 0.5, NULL_VAR, NULL_VAR, False),
    (1, "null", "(b) n = 500, π = 0.1", 500, 0.1, NULL_VAR, NULL_VAR, False),
    (2, "null", "(c) n = 200, π = 0.5, B on Φ scale", 200, 0.5, NULL_VAR, NULL_VAR, True),
    (3, "power", "AUC 0.80 vs 0.85, n = 500, π = 0.5", 500, 0.5, NULL_VAR, POWER_VAR_B, False),
)
TESTS = ("delong", "bootstrap", "ar")
ALPHAS = (0.05, 0.01)
CHUNK = 20
TOL = 1e-12


def cells() -> list[tuple[int, float, float, int]]:
    out = []
    for auc in AUCS:
        for prev in PREVALENCES:
            for n in SIZES:
                out.append((len(out), auc, prev, n))
    return out


def mu_of(auc: float) -> float:
    return math.sqrt(2) * float(stats.norm.ppf(auc))


# --- the truth ------------------------------------------------------------------------------------------------


def truth(auc: float, prev: float) -> dict[str, float]:
    """True AUC, log loss and Brier (clfeval's two-class sum) of the calibrated p, by quadrature."""
    mu = mu_of(auc)
    a = math.log(prev / (1 - prev)) - mu * mu / 2

    def dens(x: float) -> float:
        return (1 - prev) * stats.norm.pdf(x) + prev * stats.norm.pdf(x - mu)

    def entropy(x: float) -> float:
        p = float(special.expit(a + mu * x))
        return float(-special.xlogy(p, p) - special.xlogy(1 - p, 1 - p)) * dens(x)

    def brier(x: float) -> float:
        p = float(special.expit(a + mu * x))
        return 2 * p * (1 - p) * dens(x)

    lo, hi = -12.0, mu + 12.0
    ll = integrate.quad(entropy, lo, hi, limit=200, epsabs=1e-13, epsrel=1e-12)[0]
    br = integrate.quad(brier, lo, hi, limit=200, epsabs=1e-13, epsrel=1e-12)[0]
    return {"AUC": auc, "log loss": ll, "Brier": br, "mu": mu, "a": a}


def mc_check(auc: float, prev: float, size: int) -> dict[str, tuple[float, float]]:
    """A Monte Carlo estimate (and s.e.) of log loss and Brier from `size` instances drawn from the model."""
    rng = np.random.default_rng(np.random.SeedSequence([SEED, 999, int(auc * 100), int(prev * 100)]))
    y, p = draw(rng, auc, prev, size)
    loss = -np.log(np.where(y == 1, p, 1 - p))
    br = 2 * (p - y) ** 2
    return {
        k: (float(v.mean()), float(v.std(ddof=1) / math.sqrt(size))) for k, v in (("log loss", loss), ("Brier", br))
    }


def draw(rng: np.random.Generator, auc: float, prev: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n instances with i.i.d. Bernoulli(prev) gold labels, and their calibrated probabilities."""
    mu = mu_of(auc)
    a = math.log(prev / (1 - prev)) - mu * mu / 2
    y = (rng.random(n) < prev).astype(np.int64)
    x = rng.standard_normal(n) + mu * y
    return y, special.expit(a + mu * x)


# --- the replications -----------------------------------------------------------------------------------------


def interval(r: object, key: str) -> tuple[float, float] | None:
    try:
        iv = r.interval(key)  # type: ignore[attr-defined]
    except Exception:
        return None
    if iv is None:
        return None
    lo, hi = float(iv[0]), float(iv[1])
    if math.isnan(lo) or math.isnan(hi):
        return None
    return lo, hi


def coverage_job(job: tuple) -> dict:
    _, cell, auc, prev, n, t, boot, resamples = job
    rng = np.random.default_rng(np.random.SeedSequence([SEED, cell, t]))
    y, p = draw(rng, auc, prev, n)
    out: dict = {"iv": {}, "raised": []}
    for method in ("delong", "delong-logit"):
        try:
            out["iv"][(method, "AUC")] = interval(clfeval.score(y, scores=p, ci=method), "auc")
        except Exception as exc:
            out["raised"].append(f"{method}: {type(exc).__name__}: {exc}")
            out["iv"][(method, "AUC")] = None
    if boot:
        seed = int(np.random.SeedSequence([SEED, cell, t, 1]).generate_state(1)[0])
        try:
            r = clfeval.score(y, scores=p, ci="bootstrap", seed=seed, resamples=resamples, conventions=TWO_CLASS_SUM)
            for name, key in SCORES.items():
                out["iv"][("bootstrap", name)] = interval(r, key)
        except Exception as exc:
            out["raised"].append(f"bootstrap: {type(exc).__name__}: {exc}")
            for name in SCORES:
                out["iv"][("bootstrap", name)] = None
    return out


def test_data(sid: int, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _, _, _, n, prev, va, vb, phi = TEST_SCENARIOS[sid]
    rng = np.random.default_rng(np.random.SeedSequence([SEED, 100 + sid, i]))
    n1 = round(prev * n)
    y = np.zeros(n, dtype=np.int64)
    y[:n1] = 1
    rng.shuffle(y)
    z = rng.standard_normal(n) + LATENT_M * y
    a = z + math.sqrt(va) * rng.standard_normal(n)
    b = z + math.sqrt(vb) * rng.standard_normal(n)
    if phi:
        b = special.ndtr(b)
    return y, a, b


def test_job(job: tuple) -> dict:
    _, sid, i, resample, rounds = job
    y, a, b = test_data(sid, i)
    out: dict = {"p": {}, "raised": []}
    for test in TESTS:
        if test != "delong" and not resample:
            continue
        kw = {} if test == "delong" else {"rounds": rounds, "metrics": ["auc"]}
        if test != "delong":
            kw["seed"] = int(np.random.SeedSequence([SEED, 100 + sid, i, 1]).generate_state(1)[0])
        try:
            pair = clfeval.compare(y, scores={"A": a, "B": b}, test=test, **kw).pair("A", "B")
            out["p"][test] = float(pair["p_value"])
            out["d"] = float(pair["difference"])
        except Exception as exc:
            out["raised"].append(f"{test}: {type(exc).__name__}: {exc}")
            out["p"][test] = None
    return out


def run_chunk(jobs: list[tuple]) -> list[dict]:
    return [coverage_job(j) if j[0] == "cov" else test_job(j) for j in jobs]


# --- summaries ------------------------------------------------------------------------------------------------


def summarise_cov(reps: list[dict], method: str, name: str, true: float) -> dict:
    ivs = [rep["iv"][(method, name)] for rep in reps if (method, name) in rep["iv"]]
    T = len(ivs)
    ok = [iv for iv in ivs if iv is not None]
    hit = sum(iv[0] - TOL <= true <= iv[1] + TOL for iv in ok)
    below = sum(iv[1] + TOL < true for iv in ok)
    c = hit / T
    return {
        "T": T,
        "coverage": c,
        "se": math.sqrt(c * (1 - c) / T),
        "width": float(np.mean([iv[1] - iv[0] for iv in ok])) if ok else math.nan,
        "below": below / T,
        "above": (len(ok) - hit - below) / T,
        "ne": 1 - len(ok) / T,
    }


def summarise_test(reps: list[dict], test: str) -> dict:
    ps = [rep["p"][test] for rep in reps if test in rep["p"]]
    M = len(ps)
    out: dict = {"M": M, "ne": sum(p is None for p in ps) / M}
    for alpha in ALPHAS:
        r = sum(p is not None and p <= alpha for p in ps) / M
        out[alpha] = (r, math.sqrt(r * (1 - r) / M))
    return out


def source_state() -> str:
    root = HERE.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "source state unknown"
    return f"commit {commit}" + (" with uncommitted changes under src/" if dirty else "")


def report(cov: dict, tests: dict, truths: dict, mc: dict, cfg: dict, settings: dict) -> str:
    out = [
        "# Scored predictions: coverage of AUC, log loss and Brier intervals; calibration of the paired AUC tests",
        "",
        "Written by `benchmarks/scored_coverage.py` (its docstring has the full design). Reproduce with",
        "",
        "```sh",
        settings["command"],
        "```",
        "",
        f"- Coverage: T = {cfg['t_delong']} replications per cell for DeLong, the first {cfg['t_boot']} of them also "
        f"with the bootstrap (R = {cfg['resamples']} resamples); 95% intervals.",
        f"- Tests: M = {cfg['m_delong']} data sets per scenario for DeLong, the first {cfg['m_resample']} of them also "
        f"for the paired bootstrap and randomization (rounds = {cfg['rounds']}).",
        f"- Machine: {settings['machine']}; {settings['workers']} worker process(es); wall time "
        f"{settings['wall']:.0f} s ({settings['date']}); clfeval {clfeval.__version__}, {settings['source']}.",
        f"- Binomial s.e. of a coverage near 0.95: {math.sqrt(0.95 * 0.05 / cfg['t_delong']):.3f} at "
        f"T = {cfg['t_delong']}, {math.sqrt(0.95 * 0.05 / cfg['t_boot']):.3f} at T = {cfg['t_boot']}.",
        "",
        "## True values",
        "",
        "Binormal model with unit variances, calibrated probabilities p = sigmoid(a + mu x). Log loss and Brier "
        '(the sum over both classes, `brier="sum"`, twice the binary Brier that is clfeval\'s default since issue 37) '
        "by quadrature; the Monte Carlo check uses "
        f"{MC_TRUTH:,} instances.",
        "",
        "| true AUC | π | mu | a | log loss | MC check (s.e.) | Brier | MC check (s.e.) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (auc, prev), tr in truths.items():
        m = mc[(auc, prev)]
        out.append(
            f"| {auc} | {prev} | {tr['mu']:.4f} | {tr['a']:.4f} | {tr['log loss']:.5f} | "
            f"{m['log loss'][0]:.5f} ({m['log loss'][1]:.5f}) | {tr['Brier']:.5f} | "
            f"{m['Brier'][0]:.5f} ({m['Brier'][1]:.5f}) |"
        )
    out += [
        "",
        "## Coverage",
        "",
        "Coverage ± binomial s.e. (mean width); below / above: share of replications whose interval lies wholly below "
        "/ above the truth; n.e.: share not estimable (counted as misses).",
        "",
        "| true AUC | π | n | E positives | score | method | T | coverage | mean width | below / above | n.e. |",
        "|---:|---:|---:|---:|---|---|---:|---|---:|---|---:|",
    ]
    for (_cell, auc, prev, n), reps in cov.items():
        tr = truths[(auc, prev)]
        for method, name in (
            ("delong", "AUC"),
            ("delong-logit", "AUC"),
            ("bootstrap", "AUC"),
            ("bootstrap", "log loss"),
            ("bootstrap", "Brier"),
        ):
            s = summarise_cov(reps, method, name, tr[name])
            out.append(
                f"| {auc} | {prev} | {n} | {round(prev * n)} | {name} | {method} | {s['T']} | "
                f"{s['coverage']:.3f} ± {s['se']:.3f} | {s['width']:.4f} | {s['below']:.3f} / {s['above']:.3f} | "
                f"{s['ne']:.3f} |"
            )
    raised = [(key, msg) for key, reps in cov.items() for rep in reps for msg in rep["raised"]]
    out += ["", "Calls that raised: " + ("none." if not raised else f"{len(raised)}; the first: `{raised[0][1]}`.")]
    out += [
        "",
        "## Paired tests of AUC",
        "",
        f"Latent score with m = {LATENT_M}; null σ² = {NULL_VAR:.4f} for both systems (AUC "
        f"{stats.norm.cdf(LATENT_M / math.sqrt(2 * (1 + NULL_VAR))):.4f}, within-class correlation "
        f"{1 / (1 + NULL_VAR):.3f}); power: σ_B² = {POWER_VAR_B:.4f} (AUC "
        f"{stats.norm.cdf(LATENT_M / math.sqrt(2 * (1 + POWER_VAR_B))):.4f}), correlation "
        f"{1 / math.sqrt((1 + NULL_VAR) * (1 + POWER_VAR_B)):.3f}. Share of p ≤ α ± binomial s.e.",
        "",
        "| scenario | test | M | p ≤ 0.05 | p ≤ 0.01 | n.e. |",
        "|---|---|---:|---|---|---:|",
    ]
    for sid, reps in tests.items():
        for test in TESTS:
            s = summarise_test(reps, test)
            out.append(
                f"| {TEST_SCENARIOS[sid][2]} | {test} | {s['M']} | {s[0.05][0]:.3f} ± {s[0.05][1]:.3f} | "
                f"{s[0.01][0]:.3f} ± {s[0.01][1]:.3f} | {s['ne']:.3f} |"
            )
    diffs = {sid: float(np.mean([rep["d"] for rep in reps if "d" in rep])) for sid, reps in tests.items()}
    out += [
        "",
        "Mean observed AUC(A) − AUC(B): " + "; ".join(f"{TEST_SCENARIOS[s][2]}: {d:+.4f}" for s, d in diffs.items()),
    ]
    raised = [msg for reps in tests.values() for rep in reps for msg in rep["raised"]]
    out += ["", "Calls that raised: " + ("none." if not raised else f"{len(raised)}; the first: `{raised[0]}`."), ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny T, M and R; prints, writes nothing")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT}; not with --quick)")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    command = ".venv/bin/python benchmarks/scored_coverage.py" + (" --quick" if args.quick else "")
    command += f" --workers {args.workers}"
    t0 = time.perf_counter()
    truths = {(auc, prev): truth(auc, prev) for auc in AUCS for prev in PREVALENCES}
    mc = {key: mc_check(*key, MC_TRUTH if not args.quick else 100_000) for key in truths}
    print(f"truths in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    jobs: list[tuple] = []
    for cell, auc, prev, n in cells():
        for t in range(cfg["t_delong"]):
            jobs.append(("cov", cell, auc, prev, n, t, t < cfg["t_boot"], cfg["resamples"]))
    for sid, *_ in TEST_SCENARIOS:
        for i in range(cfg["m_delong"]):
            jobs.append(("test", sid, i, i < cfg["m_resample"], cfg["rounds"]))
    chunks = [jobs[i : i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    results: list[dict] = []
    if args.workers > 1:
        with mp.get_context("fork").Pool(args.workers) as pool:
            for k, part in enumerate(pool.imap(run_chunk, chunks)):
                results.extend(part)
                if k % 100 == 0:
                    print(f"{k}/{len(chunks)} chunks, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    else:
        for part in map(run_chunk, chunks):
            results.extend(part)
    wall = time.perf_counter() - t0
    cov: dict = {}
    tests: dict = {}
    for job, rep in zip(jobs, results):
        if job[0] == "cov":
            cov.setdefault(job[1:5], []).append(rep)
        else:
            tests.setdefault(job[1], []).append(rep)
    settings = {
        "command": command,
        "machine": machine(),
        "workers": args.workers,
        "wall": wall,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "source": source_state(),
    }
    text = report(cov, tests, truths, mc, cfg, settings)
    if args.quick and args.out is None:
        print(text)
    else:
        path = args.out or DEFAULT_OUT
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({wall:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
