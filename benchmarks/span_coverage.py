"""Empirical coverage of clfeval's 95% confidence intervals of span scores (NER), with the sentence as the
resampling unit, against a naive interval that treats every span as independent.

    .venv/bin/python benchmarks/span_coverage.py --workers 2   # full run (writes benchmarks/span_coverage.md)
    .venv/bin/python benchmarks/span_coverage.py --quick       # T=40, R=200, a 20,000-sentence truth: a smoke test

Design. A generative model of tagged sentences and of a tagger whose errors are correlated within a sentence:

- Sentence length: 1 + NegBinomial(4, 4/17), mean 14 tokens.
- Gold spans: a sentence holds no span with probability ``P_EMPTY`` (0.35); otherwise 1 + Poisson(L/14) spans
  (L its length), so that some sentences hold several. Types PER, LOC, ORG with probabilities ``TYPE_P``
  (0.35, 0.45, 0.20), lengths 1–4 tokens with probabilities ``LEN_P`` (0.45, 0.35, 0.15, 0.05). Spans that do
  not fit are dropped; the O tokens left are spread over the gaps between and around the spans uniformly
  (a random composition), so spans may touch (``B-PER B-LOC``).
- The tagger: every sentence draws a difficulty d ~ Beta(0.6, 2.4) (mean 0.2; a few sentences are very hard). Each
  gold span of type k is wrong with probability min(1, d × ``TYPE_HARD[k]``) (PER 0.6, LOC 1.0, ORG 1.8); a wrong
  span is missed (probability 0.4), given another type (0.3) or has one boundary moved by one token (0.3, the start
  or the end, inwards or outwards, as the sentence allows; in a one-token sentence it is missed). Spurious spans:
  Poisson(d × L × 0.06) of them, 1–2 tokens, of a random type, at random places. A predicted span that overlaps one
  already placed is dropped (so predictions are valid IOB2). All errors of a sentence share its d: hard sentences
  get many.

Scores: span micro F1, macro F1 (mean of the per-type F1 over the declared types PER, LOC, ORG) and ORG's F1
(the rarest, hardest type), seqeval's strict IOB2 (``spans="iob2"``, exact matching of type and boundaries).

True values: the scores of one sample of ``TRUTH_SENTENCES`` (200,000) sentences (seed SeedSequence([SEED, 0])),
computed from its span counts here and checked against clfeval. Their Monte Carlo error is estimated by batch
means (40 batches of 5,000 sentences) and compared with the half-widths of the intervals at the largest n.

For n in ``SIZES`` (50, 200, 1000) sentences, T replications (``T_FULL``, 1000) each draw n sentences and score
them four ways, each with a 95% interval of each score:

- ``sentences, bootstrap``: ``clfeval.score(gold_tags, pred_tags, spans="iob2", labels=TYPES, ci="bootstrap",
  seed=s, resamples=R)`` (percentile bootstrap over sentences, R = 1000);
- ``sentences, delta``: the same with ``ci="delta"`` (variance over sentences);
- ``spans, bootstrap`` and ``spans, delta`` (naive): the same data as entity lists (``spans=True``) in which every
  span is its own "sentence": a correct span (gold and predicted alike) is one unit holding it on both sides, a
  missed or wrongly predicted gold span is a unit with it on the gold side only, and a spurious or wrong
  predicted span is a unit with it on the predicted side only. Span-less sentences leave no unit. The point
  estimates are those of the sentence run (checked); only the unit of resampling differs, so the spans are taken
  as independent.

Coverage is the share of replications whose interval contains the true value, with its binomial standard error
sqrt(c(1 − c)/T); an interval that is not estimable (a call that raises, None or NaN) counts as a miss, and the
share of such replications is reported separately. Mean widths are over estimable intervals. Misses are split
into those below (interval under the truth) and above.

Reproducibility: replication t at size n draws its sentences from numpy's default_rng seeded with
SeedSequence([SEED, n, t]); its bootstrap seed is SeedSequence([SEED, n, t, 1]).generate_state(1)[0] (the same for
both units). Results therefore do not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from coverage import machine  # noqa: E402  (benchmarks/coverage.py, beside this script)

import clfeval  # noqa: E402

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "span_coverage.md"
SEED = 20261126
TYPES = ("PER", "LOC", "ORG")
TYPE_P = (0.35, 0.45, 0.20)
TYPE_HARD = {"PER": 0.6, "LOC": 1.0, "ORG": 1.8}
LEN_P = (0.45, 0.35, 0.15, 0.05)
P_EMPTY = 0.35
DIFFICULTY = (0.6, 2.4)  # Beta(a, b) of a sentence's difficulty
ERROR_KIND_P = (0.4, 0.3, 0.3)  # missed, wrong type, boundary off by one
SPURIOUS_RATE = 0.06  # spurious spans per token, times the difficulty
FOCUS = "ORG"
SIZES = (50, 200, 1000)
T_FULL, R_FULL, TRUTH_SENTENCES = 1000, 1000, 200_000
T_QUICK, R_QUICK, TRUTH_QUICK = 40, 200, 20_000
BATCHES = 40
CONFIDENCE = 0.95
SCORES = {"micro F1": "micro.f1", "macro F1": "macro.f1", f"{FOCUS} F1": f"per_label.{FOCUS}.f1"}
METHODS = (("sentences", "bootstrap"), ("sentences", "delta"), ("spans", "bootstrap"), ("spans", "delta"))
CHUNK = 20
TOL = 1e-12

Span = tuple[int, int, str]  # start, end (exclusive), type


# --- the generative model -------------------------------------------------------------------------------------


def sentence(rng: np.random.Generator) -> tuple[int, list[Span], list[Span]]:
    """One sentence: its length, gold spans and predicted spans (each sorted, non-overlapping)."""
    length = 1 + int(rng.negative_binomial(4, 4 / 17))
    gold: list[Span] = []
    if rng.random() >= P_EMPTY:
        k = 1 + int(rng.poisson(length / 14))
        lens = list(1 + rng.choice(4, size=k, p=LEN_P))
        while lens and sum(lens) > length:
            lens.pop()
        if lens:
            types = rng.choice(len(TYPES), size=len(lens), p=TYPE_P)
            free = length - sum(lens)
            # a random composition of the free O tokens into len(lens) + 1 gaps
            cuts = np.sort(rng.integers(0, free + 1, size=len(lens)))
            gaps = np.diff(np.concatenate(([0], cuts, [free])))
            pos = 0
            for ln, ty, gap in zip(lens, types, gaps[:-1]):
                pos += int(gap)
                gold.append((pos, pos + int(ln), TYPES[ty]))
                pos += int(ln)
    d = rng.beta(*DIFFICULTY)
    proposed: list[Span] = []
    for start, end, ty in gold:
        if rng.random() >= min(1.0, d * TYPE_HARD[ty]):
            proposed.append((start, end, ty))
            continue
        kind = rng.choice(3, p=ERROR_KIND_P)
        if kind == 0:  # missed
            continue
        if kind == 1:  # wrong type
            others = [t for t in TYPES if t != ty]
            proposed.append((start, end, others[rng.integers(2)]))
            continue
        moves = [(start + dx, end) for dx in (-1, 1) if 0 <= start + dx < end]
        moves += [(start, end + dx) for dx in (-1, 1) if start < end + dx <= length]
        if moves:  # (a one-token sentence allows none: the span is missed)
            s, e = moves[rng.integers(len(moves))]
            proposed.append((s, e, ty))
    for _ in range(int(rng.poisson(d * length * SPURIOUS_RATE))):
        ln = 1 + int(rng.integers(2))
        if ln > length:
            ln = length
        s = int(rng.integers(0, length - ln + 1))
        proposed.append((s, s + ln, TYPES[rng.integers(3)]))
    pred: list[Span] = []
    taken = np.zeros(length, dtype=bool)
    for s, e, ty in proposed:  # gold-derived spans first, then spurious ones; an overlapping span is dropped
        if not taken[s:e].any():
            taken[s:e] = True
            pred.append((s, e, ty))
    pred.sort()
    return length, gold, pred


def sample(rng: np.random.Generator, n: int) -> list[tuple[int, list[Span], list[Span]]]:
    return [sentence(rng) for _ in range(n)]


def tags(length: int, spans: list[Span]) -> list[str]:
    out = ["O"] * length
    for s, e, ty in spans:
        out[s] = "B-" + ty
        for i in range(s + 1, e):
            out[i] = "I-" + ty
    return out


def counts(data: list[tuple[int, list[Span], list[Span]]]) -> np.ndarray:
    """Per sentence and type: (tp, fp, fn), shape (n, types, 3)."""
    out = np.zeros((len(data), len(TYPES), 3), dtype=np.int64)
    idx = {t: i for i, t in enumerate(TYPES)}
    for j, (_, gold, pred) in enumerate(data):
        g, p = set(gold), set(pred)
        for s in g & p:
            out[j, idx[s[2]], 0] += 1
        for s in p - g:
            out[j, idx[s[2]], 1] += 1
        for s in g - p:
            out[j, idx[s[2]], 2] += 1
    return out


def scores_of(c: np.ndarray) -> dict[str, float]:
    """micro F1, macro F1 and the focus type's F1 of summed (types, 3) counts (0/0 = 0)."""
    tp, fp, fn = c[:, 0].astype(float), c[:, 1].astype(float), c[:, 2].astype(float)
    den = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, den, out=np.zeros_like(tp), where=den > 0)
    micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
    return {"micro F1": float(micro), "macro F1": float(f1.mean()), f"{FOCUS} F1": float(f1[TYPES.index(FOCUS)])}


def entity_units(data: list[tuple[int, list[Span], list[Span]]]) -> tuple[list[list[dict]], list[list[dict]]]:
    """The naive units: every span its own "sentence" (see the module's docstring)."""
    gold_u: list[list[dict]] = []
    pred_u: list[list[dict]] = []
    for _, gold, pred in data:
        g, p = set(gold), set(pred)
        for s, e, ty in sorted(g | p):
            ent = [{"start": s, "end": e, "type": ty}]
            gold_u.append(ent if (s, e, ty) in g else [])
            pred_u.append(ent if (s, e, ty) in p else [])
    return gold_u, pred_u


# --- the truth ----------------------------------------------------------------------------------------------


def truth(sentences: int) -> tuple[dict[str, float], dict[str, float], dict]:
    """The true values, their batch-means Monte Carlo standard errors and a description of the sample."""
    rng = np.random.default_rng(np.random.SeedSequence([SEED, 0]))
    data = sample(rng, sentences)
    c = counts(data)
    true = scores_of(c.sum(axis=0))
    batches = [scores_of(b.sum(axis=0)) for b in np.array_split(c, BATCHES)]
    mc_se = {k: float(np.std([b[k] for b in batches], ddof=1) / math.sqrt(BATCHES)) for k in true}
    # clfeval on the whole sample must agree with the counts computed here
    r = clfeval.score(
        [tags(ln, g) for ln, g, _ in data], [tags(ln, p) for ln, _, p in data], spans="iob2", labels=list(TYPES)
    )
    for name, key in SCORES.items():
        assert abs(r[key] - true[name]) < 1e-9, f"truth: clfeval {key} = {r[key]}, counted {true[name]}"
    n_spans = (c[:, :, 0] + c[:, :, 2]).sum(axis=1)
    lengths = np.array([ln for ln, _, _ in data])
    desc = {
        "sentences": sentences,
        "mean length": float(lengths.mean()),
        "gold spans per sentence": float(n_spans.mean()),
        "share without a gold span": float((n_spans == 0).mean()),
        "share with 3+ gold spans": float((n_spans >= 3).mean()),
        "gold spans by type": {t: int(c[:, i, 0].sum() + c[:, i, 2].sum()) for i, t in enumerate(TYPES)},
        "predicted spans": int((c[:, :, 0] + c[:, :, 1]).sum()),
        "share of sentences with an error": float(((c[:, :, 1] + c[:, :, 2]).sum(axis=1) > 0).mean()),
    }
    return true, mc_se, desc


# --- the replications -------------------------------------------------------------------------------------------


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


def replicate(job: tuple[int, int, int]) -> dict:
    """Replication t at size n: the point estimates and every method's interval of every score."""
    n, t, resamples = job
    rng = np.random.default_rng(np.random.SeedSequence([SEED, n, t]))
    data = sample(rng, n)
    seed = int(np.random.SeedSequence([SEED, n, t, 1]).generate_state(1)[0])
    gold_t = [tags(ln, g) for ln, g, _ in data]
    pred_t = [tags(ln, p) for ln, _, p in data]
    gold_e, pred_e = entity_units(data)
    est = scores_of(counts(data).sum(axis=0))
    out: dict = {"est": est, "iv": {}, "raised": {}, "units": len(gold_e)}
    for unit, method in METHODS:
        try:
            if unit == "sentences":
                r = clfeval.score(
                    gold_t, pred_t, spans="iob2", labels=list(TYPES), ci=method, seed=seed, resamples=resamples
                )
            else:
                r = clfeval.score(
                    gold_e, pred_e, spans=True, labels=list(TYPES), ci=method, seed=seed, resamples=resamples
                )
        except Exception as exc:
            out["raised"][(unit, method)] = f"{type(exc).__name__}: {exc}"
            for name in SCORES:
                out["iv"][(unit, method, name)] = None
            continue
        for name, key in SCORES.items():
            assert abs(r[key] - est[name]) < 1e-9, f"n={n} t={t} {unit}: clfeval {key} = {r[key]}, counted {est}"
            out["iv"][(unit, method, name)] = interval(r, key)
    return out


def run_chunk(jobs: list[tuple[int, int, int]]) -> list[dict]:
    return [replicate(j) for j in jobs]


@dataclass
class Cell:
    coverage: float
    se: float
    not_estimable: float
    width: float
    below: float  # share of replications whose interval lies below the truth
    above: float


def summarise(reps: list[dict], true: dict[str, float]) -> dict[tuple[str, str, str], Cell]:
    out = {}
    T = len(reps)
    for unit, method in METHODS:
        for name in SCORES:
            ivs = [rep["iv"][(unit, method, name)] for rep in reps]
            ok = [iv for iv in ivs if iv is not None]
            hit = sum(iv[0] - TOL <= true[name] <= iv[1] + TOL for iv in ok)
            below = sum(iv[1] + TOL < true[name] for iv in ok)
            cov = hit / T
            out[(unit, method, name)] = Cell(
                cov,
                math.sqrt(cov * (1 - cov) / T),
                1 - len(ok) / T,
                float(np.mean([iv[1] - iv[0] for iv in ok])) if ok else math.nan,
                below / T,
                (len(ok) - hit - below) / T,
            )
    return out


# --- the report ---------------------------------------------------------------------------------------------


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


def report(results: dict[int, list[dict]], true: dict, mc_se: dict, desc: dict, settings: dict) -> str:
    T, R = settings["T"], settings["R"]
    out = [
        "# Coverage of span-score intervals: sentences as the unit",
        "",
        "Written by `benchmarks/span_coverage.py` (its docstring has the full design). Reproduce with",
        "",
        "```sh",
        settings["command"],
        "```",
        "",
        f"- T = {T} replications per n, bootstrap resamples R = {R}, 95% intervals; true values from "
        f"{desc['sentences']:,} sentences.",
        f"- Machine: {settings['machine']}; {settings['workers']} worker process(es); wall time "
        f"{settings['wall']:.0f} s ({settings['date']}); clfeval {clfeval.__version__}, {settings['source']}.",
        f"- Binomial standard error of a coverage near 0.95 at T = {T}: {math.sqrt(0.95 * 0.05 / T):.3f}.",
        "",
        "## The data",
        "",
        f"Sentences of mean length {desc['mean length']:.1f} tokens, {desc['gold spans per sentence']:.2f} gold spans "
        f"per sentence, {desc['share without a gold span']:.0%} without any and {desc['share with 3+ gold spans']:.0%} "
        "with three or more; gold spans by type "
        + ", ".join(f"{t} {v:,}" for t, v in desc["gold spans by type"].items())
        + f" (in the truth sample); {desc['predicted spans']:,} predicted spans; "
        f"{desc['share of sentences with an error']:.0%} of sentences have at least one error. A sentence's "
        "difficulty (Beta(0.6, 2.4)) drives all its errors: missed spans, wrong types, boundaries off by one "
        "token and spurious spans.",
        "",
        "True values (the scores of the truth sample) and their Monte Carlo standard error (batch means):",
        "",
        "| score | true value | MC s.e. | MC s.e. / smallest half-width at n = " + str(max(SIZES)) + " |",
        "|---|---:|---:|---:|",
    ]
    big = max(results)
    for name in SCORES:
        half = min(s.width for (u, m, nm), s in settings["summary"][big].items() if nm == name) / 2
        out.append(f"| {name} | {true[name]:.4f} | {mc_se[name]:.5f} | {mc_se[name] / half:.3f} |")
    out += [
        "",
        "## Coverage",
        "",
        "Coverage of the 95% interval ± its binomial standard error, and the mean width. *sentences*: clfeval's "
        'intervals with the sentence as the unit (`spans="iob2"` on tag lists). *spans (naive)*: the same scores '
        'with every span its own unit (entity lists, one span per "sentence"), i.e. spans taken as independent.',
        "",
        "| n | score | sentences, bootstrap | sentences, delta | spans (naive), bootstrap | spans (naive), delta |",
        "|---:|---|---|---|---|---|",
    ]
    for n in results:
        summ = settings["summary"][n]
        for name in SCORES:
            row = [str(n), name]
            for unit, method in METHODS:
                c = summ[(unit, method, name)]
                row.append(f"{c.coverage:.3f} ± {c.se:.3f} (w {c.width:.3f})")
            out.append("| " + " | ".join(row) + " |")
    out += [
        "",
        "Misses below / above the truth (share of replications), and intervals not estimable (counted as misses):",
        "",
        "| n | score | sentences, bootstrap | sentences, delta | spans (naive), bootstrap | spans (naive), delta |",
        "|---:|---|---|---|---|---|",
    ]
    for n in results:
        summ = settings["summary"][n]
        for name in SCORES:
            row = [str(n), name]
            for unit, method in METHODS:
                c = summ[(unit, method, name)]
                row.append(
                    f"{c.below:.3f} / {c.above:.3f}" + (f"; n.e. {c.not_estimable:.3f}" if c.not_estimable else "")
                )
            out.append("| " + " | ".join(row) + " |")
    out += [
        "",
        "How much the naive unit understates the variance: (mean width with sentences as the unit / mean width "
        "with spans as the unit)², by method (a design effect; 1 = no clustering):",
        "",
        "| n | score | bootstrap | delta |",
        "|---:|---|---:|---:|",
    ]
    for n in results:
        summ = settings["summary"][n]
        for name in SCORES:
            ratios = [
                (summ[("sentences", m, name)].width / summ[("spans", m, name)].width) ** 2
                for m in ("bootstrap", "delta")
            ]
            out.append(f"| {n} | {name} | {ratios[0]:.2f} | {ratios[1]:.2f} |")
    raised: dict[tuple[int, str, str], list[str]] = {}
    for n, reps in results.items():
        for rep in reps:
            for (unit, method), msg in rep["raised"].items():
                raised.setdefault((n, unit, method), []).append(msg)
    out += ["", "Calls that raised: " + ("none." if not raised else "")]
    for (n, unit, method), msgs in raised.items():
        out.append(f"- n = {n}, {unit}, {method}: {len(msgs)} (first: `{msgs[0][:200]}`)")
    units = {n: np.mean([rep["units"] for rep in reps]) for n, reps in results.items()}
    out += [
        "",
        "Mean number of naive units (spans) per replication: "
        + ", ".join(f"n = {n}: {u:.0f}" for n, u in units.items())
        + ". Mean point estimates over replications (their bias against the truth):",
        "",
        "| n | " + " | ".join(SCORES) + " |",
        "|---:|" + "---:|" * len(SCORES),
    ]
    for n, reps in results.items():
        means = {k: float(np.mean([rep["est"][k] for rep in reps])) for k in SCORES}
        out.append(f"| {n} | " + " | ".join(f"{means[k]:.4f} ({means[k] - true[k]:+.4f})" for k in SCORES) + " |")
    out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick",
        action="store_true",
        help=f"T={T_QUICK}, {R_QUICK} resamples, {TRUTH_QUICK:,}-sentence truth; prints, writes nothing",
    )
    ap.add_argument("--replications", type=int, default=None, help=f"T per n (default {T_FULL})")
    ap.add_argument("--resamples", type=int, default=None, help=f"bootstrap resamples (default {R_FULL})")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default %(default)s)")
    ap.add_argument("--out", type=Path, default=None, help=f"Markdown output (default {DEFAULT_OUT}; not with --quick)")
    args = ap.parse_args(argv)
    T = args.replications or (T_QUICK if args.quick else T_FULL)
    R = args.resamples or (R_QUICK if args.quick else R_FULL)
    truth_n = TRUTH_QUICK if args.quick else TRUTH_SENTENCES
    parts = [".venv/bin/python benchmarks/span_coverage.py"]
    if args.quick:
        parts.append("--quick")
    if args.replications:
        parts.append(f"--replications {args.replications}")
    if args.resamples:
        parts.append(f"--resamples {args.resamples}")
    parts.append(f"--workers {args.workers}")
    t0 = time.perf_counter()
    true, mc_se, desc = truth(truth_n)
    print(
        f"truth from {truth_n} sentences ({time.perf_counter() - t0:.1f} s): "
        + ", ".join(f"{k} {v:.4f} ± {mc_se[k]:.4f}" for k, v in true.items()),
        file=sys.stderr,
    )
    results: dict[int, list[dict]] = {}
    for n in SIZES:
        t1 = time.perf_counter()
        jobs = [(n, t, R) for t in range(T)]
        chunks = [jobs[i : i + CHUNK] for i in range(0, T, CHUNK)]
        if args.workers > 1:
            with mp.get_context("fork").Pool(args.workers) as pool:
                reps = [rep for part in pool.map(run_chunk, chunks) for rep in part]
        else:
            reps = [rep for part in map(run_chunk, chunks) for rep in part]
        results[n] = reps
        print(f"n={n}: {T} replications in {time.perf_counter() - t1:.1f} s", file=sys.stderr)
    wall = time.perf_counter() - t0
    summary = {n: summarise(reps, true) for n, reps in results.items()}
    settings = {
        "T": T,
        "R": R,
        "command": " ".join(parts),
        "machine": machine(),
        "workers": args.workers,
        "wall": wall,
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "source": source_state(),
        "summary": summary,
    }
    text = report(results, true, mc_se, desc, settings)
    if args.quick and args.out is None:
        print(text)
    else:
        path = args.out or DEFAULT_OUT
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({wall:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
