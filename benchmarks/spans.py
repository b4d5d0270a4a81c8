"""clfeval span benchmark (NER, chunking): scoring a CoNLL file of IOB2 tags against conlleval.pl, seqeval and
nervaluate, side by side, with peak memory; sentence-level approximate randomization against per-sentence loops.

    python benchmarks/spans.py                      # 10^5 and 10^6 sentences (1.5·10^6, 1.5·10^7 tokens)
    python benchmarks/spans.py --quick              # 10^5 sentences, one run a row, fewer rounds: a check
    python benchmarks/spans.py --sentences 300000   # the large file's size (default 10^6)
    python benchmarks/spans.py --repeats 5          # runs of a fast row (default 3; a slow row runs once)
    python benchmarks/spans.py --limit 240          # a row predicted slower than this at a size is extrapolated
    python benchmarks/spans.py --profile            # add where clfeval's time goes (cProfile, in process)

Prints Markdown tables and writes the same text to ``benchmarks/spans.md``.

1. Scoring ``word POS gold pred`` CoNLL files (IOB2 tags, a tagger's errors; see the data section) of 10^5 and
   10^6 sentences. Every row is one fresh child process started by common.py's launcher: wall time of the whole
   child (interpreter start-up, imports and reading the file included), peak RSS from ``os.wait4``'s rusage of
   that child. Rows, by the span rules they follow:
   - conlleval.pl's rules: ``clfeval score FILE --spans --format json`` (the default scheme, conlleval) and
     ``--format conlleval`` (conlleval.pl's report); ``perl conlleval.pl < FILE``; in memory, after reading the
     file into one list of tags per sentence (Hugging Face style, -DOCSTART- lines left out):
     ``clfeval.score(gold, pred, spans="conlleval")``, seqeval's default mode (``f1_score``, and
     ``classification_report(output_dict=True)``, each its own row) and nervaluate
     (``Evaluator(gold, pred, tags=[…], loader="list").evaluate()``, its strict mode).
   - seqeval's strict IOB2: ``clfeval score FILE --spans iob2 --format json``,
     ``clfeval.score(gold, pred, spans="iob2")``, seqeval ``mode="strict", scheme=IOB2`` (``f1_score``, and
     ``classification_report``).
   - reading alone: the in-memory rows' reader without scoring (the floor of every in-memory row).
   The in-memory children (``PY_CHILD``) time the reading and the call apart (``time.perf_counter``, first timed
   run); the table has both beside the whole child's time.
   Each row runs once, untimed, on the 10^5 file first, and its numbers are checked (below). A row whose time
   at a size, predicted linearly from the smaller file, is at most ``FAST`` seconds runs ``--repeats`` times
   (median reported), a slower one once, round-robin; a row predicted slower than ``--limit`` is not run at
   that size: its time is extrapolated linearly in sentences, and the table says so.
2. Sentence-level approximate randomization of span micro F1 (seqeval's strict IOB2) between two taggers on
   10^5 sentences, 10^4 rounds: ``clfeval.compare(gold, {"A": a, "B": b}, spans="iob2", metrics="micro.f1",
   test="ar", rounds=10000, seed=0)`` end to end on tag lists (best of ``--repeats``), and
   ``clfeval compare GOLD A B --spans iob2 --unit sentences --test ar …`` (reported when it fails); against the
   straightforward loops, given per-sentence span counts (found once in Python, timed as their set-up): numpy
   per round over the sentence count vectors, and a pure Python loop over the sentences, each run for fewer
   rounds and scaled to 10^4. The statistic everywhere: d = micro F1(A) − micro F1(B) with each sentence's two
   predictions swapped with probability ½, p = (r + 1)/(R + 1) with r of R rounds having |d*| ≥ |d|.

Checks (on the untimed check runs, and again on the larger files' first timed runs): within each set of rules
every row gives the same numbers as clfeval's JSON — span counts (gold, predicted, correct) and per-type tp and
predicted counts equal, overall precision, recall and F1 within 1e-12 (conlleval.pl prints percentages with two
decimals: within 0.005 points) — the sentences and tokens read agree (conlleval.pl counts -DOCSTART- lines as
tokens), and ``--format conlleval`` is conlleval.pl's output byte for byte. For the randomization: the loops'
micro F1 of both taggers equal clfeval's, and their p-values agree with clfeval's within Monte Carlo error.

Data: seeded synthetic NER (generated once into benchmarks/data/, git-ignored, and reused): gold IOB2 tags over
PER, LOC, ORG, MISC (CoNLL-2003's shares, spans of 1–5 tokens) in sentences of 1 + a negative binomial of mean
14 tokens; a tagger's errors per gold span (missed, wrong type, one token short or long, B- written as I-) and
per O token (spurious one-token spans, stray I- tags), see ``TAGGER``. conlleval.pl is not in the repository: it
is read from benchmarks/data/conlleval.pl (the tests' MANIFEST.json holds its sha256).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from common import (
    CLFEVAL,
    DATA,
    MIB,
    PYTHON,
    ChildRow,
    commands_section,
    data_files,
    log,
    md_table,
    measure,
    ratio_text,
    start,
    time_child,
    warm,
    write_report,
)

RESULTS = Path(__file__).resolve().parent / "spans.md"
SEED = 20240607
TYPES = ("PER", "LOC", "ORG", "MISC")
TYPE_SHARES = (0.28, 0.30, 0.27, 0.15)  # about CoNLL-2003's
#: tag codes: 0 is O, 1–4 B-TYPE, 5–8 I-TYPE
TAGS = ("O", *(f"B-{t}" for t in TYPES), *(f"I-{t}" for t in TYPES))
BLOCK = 10**5  # sentences a generated block (each seeded with its number: the 10^5 file is the 10^6 file's start)
DOCSTART_EVERY = 25_000  # sentences: a -DOCSTART- line (and a blank line) before sentence 0, 25,000, …
ENTITY_LENGTHS = (0.55, 0.30, 0.10, 0.03, 0.02)  # P(span of 1, 2, 3, 4, 5 tokens)
ENTITY_UNIT = 0.12  # share of the stream's units that are spans (the others are O tokens): ~11% tokens start one

#: a tagger's errors: per gold span (missed, wrong type, one token short, one token long, B- written as I-), then
#: per O token (a spurious one-token span, a stray I- tag)
TAGGER = {"missed": 0.04, "type": 0.03, "short": 0.02, "long": 0.02, "b_as_i": 0.01, "spurious": 0.004, "stray": 0.001}
#: the second tagger of the randomization test: a little worse (more missed spans and wrong types)
TAGGER_B = {**TAGGER, "missed": 0.041, "type": 0.031}

SENTENCES = 10**6  # the large file (--sentences)
CHECK = 10**5  # sentences: the file every row is checked on first (and the smaller timed size)
REPEATS = 3  # runs of a fast row (--repeats)
FAST = 20.0  # seconds: a row predicted at most this long at a size runs REPEATS times, a slower one once
LIMIT = 240.0  # seconds: a row predicted longer at a size is not run there but extrapolated (--limit)
TOLERANCE = 1e-12  # overall and per-type precision, recall, F1 between exact contenders
COARSE = 0.005 / 100 + 1e-12  # … and against conlleval.pl's percentages with two decimals
CONLLEVAL = DATA / "conlleval.pl"
CONLLEVAL_SHA256 = "c025ea007db5162a130f83dbb6818c6bc69b77ec14ba786efed3c538de6df7bc"  # tests/data/conlleval

AR_SENTENCES = 10**5  # the randomization test's data
AR_STREAM = 10**6  # its seed: SeedSequence([SEED, AR_STREAM]), beyond every file block's number
ROUNDS = 10_000  # what every randomization time is stated for
NP_ROUNDS, PY_ROUNDS = 2_000, 200  # rounds the loops run (scaled to ROUNDS); --quick: a tenth
TIE = 1e-12  # relative tolerance of |d*| >= |d| (clfeval's own)
METRIC = "micro.f1"


# --------------------------------------------------------------------------- data


def gold_tags(rng: np.random.Generator, n_sentences: int) -> tuple[np.ndarray, np.ndarray]:
    """Gold IOB2 tag codes (int8, all sentences end to end) and the sentence lengths: lengths 1 + a negative
    binomial of mean 14 (CoNLL-2003's spread: many short lines, a long tail); a stream of units, each an O token or
    a span of a type and 1–5 tokens, cut into the sentences (a span cut by a sentence end starts again with B-)."""
    lengths = 1 + rng.negative_binomial(2, 2 / 16, n_sentences)
    n = int(lengths.sum())
    mean_unit = 1 + ENTITY_UNIT * (np.dot(np.arange(1, 6), ENTITY_LENGTHS) - 1)
    units = int(n / mean_unit * 1.05) + 1000
    kind = np.where(rng.random(units) < ENTITY_UNIT, rng.choice(4, units, p=TYPE_SHARES) + 1, 0)
    size = np.where(kind > 0, rng.choice(5, units, p=ENTITY_LENGTHS) + 1, 1)
    while size.sum() < n:  # (never, with the 5% margin; kept for safety)
        kind, size = np.concatenate([kind, kind]), np.concatenate([size, size])
    unit = np.repeat(np.arange(len(size)), size)[:n]
    first = np.concatenate([[True], unit[1:] != unit[:-1]])
    tags = np.where(kind[unit] == 0, 0, np.where(first, kind[unit], kind[unit] + 4)).astype(np.int8)
    starts = np.cumsum(lengths) - lengths
    tags[starts] = np.where(tags[starts] > 4, tags[starts] - 4, tags[starts])
    return tags, lengths


def predicted_tags(
    rng: np.random.Generator, gold: np.ndarray, lengths: np.ndarray, errors: dict[str, float]
) -> np.ndarray:
    """A tagger's output derived from the gold codes with ``errors``' rates (see ``TAGGER``)."""
    n = len(gold)
    sentence = np.repeat(np.arange(len(lengths)), lengths)
    starts = np.flatnonzero((gold >= 1) & (gold <= 4))
    not_inside = np.flatnonzero(gold <= 4)
    ends = np.append(not_inside, n)[np.searchsorted(not_inside, starts, side="right")]  # exclusive
    kind = gold[starts].astype(np.int64)
    size = ends - starts
    names = ["missed", "type", "short", "long", "b_as_i"]
    shares = [errors[k] for k in names]
    error = rng.choice(len(names) + 1, len(starts), p=[*shares, 1 - sum(shares)])
    pred = gold.copy()
    inside = np.flatnonzero(gold > 0)  # every span's tokens, span after span
    of = np.repeat(error, size)
    pred[inside[of == 0]] = 0  # missed
    other = (kind - 1 + rng.integers(1, 4, len(starts))) % 4 + 1  # wrong type
    at = inside[of == 1]
    new = np.repeat(other, size)[of == 1]
    pred[at] = np.where(gold[at] <= 4, new, new + 4)
    short = (error == 2) & (size >= 2)  # one token short: the last, or the first (the next becomes B-)
    last = short & (rng.random(len(starts)) < 0.5)
    pred[ends[last] - 1] = 0
    front = short & ~last
    pred[starts[front]] = 0
    pred[starts[front] + 1] = kind[front]
    long = error == 3  # one token long: into the O token after it, else before it
    room_after = np.zeros(len(starts), dtype=bool)
    ok = ends < n
    room_after[ok] = (gold[ends[ok]] == 0) & (sentence[ends[ok]] == sentence[starts[ok]])
    after = long & room_after
    pred[ends[after]] = kind[after] + 4
    room_before = np.zeros(len(starts), dtype=bool)
    ok = starts > 0
    room_before[ok] = (gold[starts[ok] - 1] == 0) & (sentence[starts[ok] - 1] == sentence[starts[ok]])
    before = long & ~room_after & room_before
    pred[starts[before] - 1] = kind[before]
    pred[starts[before]] = kind[before] + 4
    b_as_i = error == 4
    pred[starts[b_as_i]] = kind[b_as_i] + 4
    outside = np.flatnonzero((gold == 0) & (pred == 0))
    draw = rng.random(len(outside))
    spurious = outside[draw < errors["spurious"]]
    pred[spurious] = rng.choice(4, len(spurious), p=TYPE_SHARES) + 1
    stray = outside[(draw >= errors["spurious"]) & (draw < errors["spurious"] + errors["stray"])]
    pred[stray] = rng.choice(4, len(stray), p=TYPE_SHARES) + 5
    return pred


def vocabulary(rng: np.random.Generator) -> tuple[list[bytes], list[bytes]]:
    """Line starts ``word POS `` for O tokens (4,000 lower-case words) and for span tokens (2,000 capitalised, NNP)."""
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)
    pos = [b"NN", b"NNS", b"VBZ", b"VBD", b"IN", b"DT", b"JJ", b"RB", b"CD", b"PRP"]

    def word(capital: bool) -> bytes:
        w = bytes(letters[rng.integers(0, 26, int(rng.integers(2, 11)))])
        return w.capitalize() if capital else w

    plain = [word(False) + b" " + pos[int(rng.integers(0, len(pos)))] + b" " for _ in range(4000)]
    plain[:3] = [b". . ", b", , ", b"the DT "]
    names = [word(True) + b" NNP " for _ in range(2000)]
    return plain, names


def ragged(table: list[bytes], segments: np.ndarray) -> bytes:
    """The concatenation of ``table[s]`` for every s in ``segments``, in numpy (one gather)."""
    flat = np.frombuffer(b"".join(table), dtype=np.uint8)
    size = np.array([len(t) for t in table], dtype=np.int64)
    offset = np.cumsum(size) - size
    seg_size = size[segments]
    out_offset = np.cumsum(seg_size) - seg_size
    total = int(seg_size.sum())
    source = np.repeat(offset[segments] - out_offset, seg_size) + np.arange(total, dtype=np.int64)
    return flat[source].tobytes()


def conll_text(
    rng: np.random.Generator,
    first_sentence: int,
    lengths: np.ndarray,
    columns: list[np.ndarray],
    docstart_every: int = DOCSTART_EVERY,
) -> bytes:
    """CoNLL lines ``word POS tag …`` (one tag column per code array), a blank line after each sentence and
    ``-DOCSTART- -X- O …`` plus a blank line before every ``docstart_every``-th sentence (counted from the file's
    start; 0: none)."""
    vocab_rng = np.random.default_rng(SEED)  # the same words in every block and file
    plain, names = vocabulary(vocab_rng)
    k = len(columns)
    n = len(columns[0])
    tails = [b" ".join(TAGS[c].encode() for c in combo) + b"\n" for combo in np.ndindex(*(9,) * k)]
    docstart = b"-DOCSTART- -X-" + b" O" * k + b"\n\n"
    table = [*plain, *names, *tails, b"\n", docstart]
    n_plain, n_names, n_tails = len(plain), len(names), len(tails)
    blank, doc = n_plain + n_names + n_tails, n_plain + n_names + n_tails + 1
    in_span = columns[0] > 0
    zipf = np.minimum(rng.zipf(1.3, n), n_plain) - 1
    word = np.where(in_span, n_plain + rng.integers(0, n_names, n), zipf)
    tail = np.zeros(n, dtype=np.int64)
    for c in columns:
        tail = tail * 9 + c
    sentence_index = first_sentence + np.arange(len(lengths))
    has_doc = (sentence_index % docstart_every) == 0 if docstart_every else np.zeros(len(lengths), dtype=bool)
    # segment positions: token j of sentence s sits after s blank lines and the DOCSTART lines up to s
    tokens_before = np.cumsum(lengths) - lengths
    docs_through = np.cumsum(has_doc)
    sentence = np.repeat(np.arange(len(lengths)), lengths)
    token_pos = 2 * np.arange(n) + sentence + docs_through[sentence]
    segments = np.empty(2 * n + len(lengths) + int(has_doc.sum()), dtype=np.int64)
    segments[token_pos] = word
    segments[token_pos + 1] = n_plain + n_names + tail
    segments[2 * (tokens_before + lengths) + np.arange(len(lengths)) + docs_through] = blank
    doc_sentences = np.flatnonzero(has_doc)
    segments[2 * tokens_before[doc_sentences] + doc_sentences + docs_through[doc_sentences] - 1] = doc
    return ragged(table, segments)


def conll_file(n_sentences: int, log_: callable = log) -> Path:
    """The seeded ``word POS gold pred`` CoNLL file of ``n_sentences`` sentences (blocks of BLOCK sentences, block b
    drawn from SeedSequence([SEED, b])), generated once into benchmarks/data/ and reused."""
    path = DATA / f"spans-{n_sentences}-seed{SEED}.conll"
    if path.exists():
        return path
    log_(f"generating {path.name}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        for number, first in enumerate(range(0, n_sentences, BLOCK)):
            rng = np.random.default_rng(np.random.SeedSequence([SEED, number]))
            gold, lengths = gold_tags(rng, min(BLOCK, n_sentences - first))
            pred = predicted_tags(rng, gold, lengths, TAGGER)
            out.write(conll_text(rng, first, lengths, [gold, pred]))
    tmp.replace(path)
    return path


# --------------------------------------------------------------------------- the contenders

#: The in-memory rows' child: ``python -c PY_CHILD CONTENDER FILE``. Imports first, then the file read into one
#: list of tags per sentence (gold and predicted; -DOCSTART- lines left out, as Hugging Face's conll2003 has it),
#: then one call; prints a JSON line: the seconds of the read and of the call, and the numbers the call gave.
PY_CHILD = """
import json, sys, time

contender, path = sys.argv[1], sys.argv[2]
if contender.startswith("clfeval"):
    import clfeval
elif contender.startswith("seqeval"):
    from seqeval.metrics import classification_report, f1_score
    from seqeval.scheme import IOB2
elif contender == "nervaluate":
    from nervaluate import Evaluator

t0 = time.perf_counter()
gold, pred, g, p = [], [], [], []
with open(path, encoding="utf-8") as lines:
    for line in lines:
        fields = line.split()
        if not fields:
            if g:
                gold.append(g)
                pred.append(p)
                g, p = [], []
        elif fields[0] != "-DOCSTART-":
            g.append(fields[-2])
            p.append(fields[-1])
if g:
    gold.append(g)
    pred.append(p)
t1 = time.perf_counter()
if contender == "clfeval-conlleval":
    out = clfeval.score(gold, pred, spans="conlleval")
elif contender == "clfeval-iob2":
    out = clfeval.score(gold, pred, spans="iob2")
elif contender == "seqeval-f1":
    out = f1_score(gold, pred)
elif contender == "seqeval-report":
    out = classification_report(gold, pred, output_dict=True)
elif contender == "seqeval-strict-f1":
    out = f1_score(gold, pred, mode="strict", scheme=IOB2)
elif contender == "seqeval-strict-report":
    out = classification_report(gold, pred, mode="strict", scheme=IOB2, output_dict=True)
elif contender == "nervaluate":
    out = Evaluator(gold, pred, tags=["PER", "LOC", "ORG", "MISC"], loader="list").evaluate()
else:  # "read": the reader alone
    out = None
t2 = time.perf_counter()

res = {"sentences": len(gold), "tokens": sum(map(len, gold))}
if contender.startswith("clfeval"):
    micro, rows = out.averages["micro"], out.per_label
    tp = {t: int(r.tp) for t, r in rows.items()}
    found = {t: int(r.tp + r.fp) for t, r in rows.items()}
    res.update(gold=sum(int(r.tp + r.fn) for r in rows.values()), predicted=sum(found.values()),
               correct=sum(tp.values()), precision=micro["precision"], recall=micro["recall"], f1=micro["f"],
               tp=tp, found=found)
elif contender.endswith("-f1"):
    res["f1"] = float(out)
elif contender.endswith("-report"):  # counts back from the ratios: tp = recall × support, found = tp / precision
    types = {t: r for t, r in out.items() if not t.endswith(" avg")}
    tp = {t: round(float(r["recall"]) * int(r["support"])) for t, r in types.items()}
    found = {t: round(tp[t] / float(r["precision"])) for t, r in types.items() if r["precision"] > 0}
    micro = out["micro avg"]
    gold_n = int(micro["support"])
    correct = round(float(micro["recall"]) * gold_n)
    res.update(gold=gold_n, predicted=round(correct / float(micro["precision"])), correct=correct,
               precision=float(micro["precision"]), recall=float(micro["recall"]), f1=float(micro["f1-score"]),
               tp=tp, found=found)
elif contender == "nervaluate":
    strict = out["overall"]["strict"]
    res.update(gold=strict.possible, predicted=strict.actual, correct=strict.correct, precision=strict.precision,
               recall=strict.recall, f1=strict.f1,
               tp={t: r["strict"].correct for t, r in out["entities"].items()},
               found={t: r["strict"].actual for t, r in out["entities"].items()})
print(json.dumps({"read_s": t1 - t0, "call_s": t2 - t1, "result": res}))
"""


@dataclass(frozen=True)
class Contender:
    """A way to score the file: its row name, the span rules it follows (its numbers are checked against clfeval's
    JSON under the same rules) and how its command line is built."""

    key: str
    name: str
    rules: str  # "conlleval" (conlleval.pl's), "iob2" (seqeval's strict IOB2) or "" (reading only)
    kind: str  # "cli" (clfeval's JSON), "text" (conlleval.pl's report) or "python" (PY_CHILD)

    def argv(self, path: Path) -> list[str]:
        if self.key == "perl":  # conlleval.pl reads standard input; exec: the measured process is perl itself
            return ["/bin/sh", "-c", 'exec perl "$0" < "$1"', str(CONLLEVAL), str(path)]
        if self.kind == "python":
            return [PYTHON, "-c", PY_CHILD, self.key, str(path)]
        return [CLFEVAL, "score", str(path), *CLI_OPTIONS[self.key]]

    @property
    def command(self) -> str:
        if self.key == "perl":
            return "perl benchmarks/data/conlleval.pl < FILE"
        if self.kind == "python":
            return f"python -c PY_CHILD {self.key} FILE"
        return " ".join(["clfeval score FILE", *CLI_OPTIONS[self.key]])


CLI_OPTIONS = {
    "cli": ["--spans", "--format", "json"],
    "cli-iob2": ["--spans", "iob2", "--format", "json"],
    "cli-conlleval": ["--spans", "--format", "conlleval"],
}
CONTENDERS = [
    Contender("cli", "clfeval score FILE --spans --format json", "conlleval", "cli"),
    Contender("cli-conlleval", "clfeval score FILE --spans --format conlleval", "conlleval", "text"),
    Contender("perl", "perl conlleval.pl < FILE", "conlleval", "text"),
    Contender("cli-iob2", "clfeval score FILE --spans iob2 --format json", "iob2", "cli"),
    Contender("read", "Python: read FILE into tag lists (no scoring)", "", "python"),
    Contender("clfeval-conlleval", 'clfeval.score(gold, pred, spans="conlleval")', "conlleval", "python"),
    Contender("seqeval-f1", "seqeval f1_score (default mode)", "conlleval", "python"),
    Contender("seqeval-report", "seqeval classification_report (default mode)", "conlleval", "python"),
    Contender("nervaluate", 'nervaluate Evaluator(loader="list").evaluate()', "conlleval", "python"),
    Contender("clfeval-iob2", 'clfeval.score(gold, pred, spans="iob2")', "iob2", "python"),
    Contender("seqeval-strict-f1", "seqeval f1_score (strict, IOB2)", "iob2", "python"),
    Contender("seqeval-strict-report", "seqeval classification_report (strict, IOB2)", "iob2", "python"),
]
ESSENTIAL = ("cli", "cli-iob2", "cli-conlleval", "perl")  # a failure of these stops the benchmark
REFERENCE = {"conlleval": "cli", "iob2": "cli-iob2", "": "cli"}  # the row every row of those rules is checked on
API = {"conlleval": "clfeval-conlleval", "iob2": "clfeval-iob2"}  # the in-memory rows' clfeval


@dataclass(kw_only=True)
class Row(ChildRow):
    """A contender at one file size: the child runs (ChildRow), what its first kept run printed, or the time
    extrapolated from the smaller file when it was not run."""

    who: Contender
    read_s: float | None = None
    call_s: float | None = None
    result: dict[str, Any] = field(default_factory=dict)
    estimate: float | None = None  # seconds, extrapolated (the row was not run at this size)
    from_n: int = 0  # … from this size

    @property
    def seconds(self) -> float:
        return self.median if self.times else float(self.estimate or "nan")


def make_row(who: Contender, n: int, path: Path, out: Path, repeats: int) -> Row:
    return Row(who.name, n, who.argv(path), repeats=repeats, stdout=out / f"{who.key}-{n}.out", who=who)


# --------------------------------------------------------------------------- reading what the rows printed

CONLL_TOTAL = re.compile(r"processed (\d+) tokens with (\d+) phrases; found: (\d+) phrases; correct: (\d+)\.")
CONLL_OVERALL = re.compile(r"accuracy:\s+([\d.]+)%; precision:\s+([\d.]+)%; recall:\s+([\d.]+)%; FB1:\s+([\d.]+)")
CONLL_TYPE = re.compile(r"^\s*(\S+): precision:\s+([\d.]+)%; recall:\s+([\d.]+)%; FB1:\s+([\d.]+)\s+(\d+)$", re.M)


def from_conlleval(text: str) -> dict[str, Any]:
    """conlleval.pl's report as numbers (its percentages as fractions: two decimals, ``coarse``)."""
    total, overall = CONLL_TOTAL.search(text), CONLL_OVERALL.search(text)
    if total is None or overall is None:
        raise SystemExit(f"CHECK FAILED: not a conlleval report: {text[:300]!r}")
    types = CONLL_TYPE.findall(text)
    return {
        "coarse": True,
        "tokens_with_docstart": int(total[1]),
        "gold": int(total[2]),
        "predicted": int(total[3]),
        "correct": int(total[4]),
        "precision": float(overall[2]) / 100,
        "recall": float(overall[3]) / 100,
        "f1": float(overall[4]) / 100,
        "found": {t: int(n) for t, _, _, _, n in types},
        "type_precision": {t: float(p) / 100 for t, p, _, _, _ in types},
        "type_recall": {t: float(r) / 100 for t, _, r, _, _ in types},
        "type_f1": {t: float(f) / 100 for t, _, _, f, _ in types},
        "text": text,
    }


def from_json(text: str) -> dict[str, Any]:
    """clfeval's JSON (clfeval.score/2) as the numbers the rows are checked on."""
    data = json.loads(text)
    spans, rows, micro = data["spans"], data["per_label"], data["averages"]["micro"]
    return {
        "sentences": spans["n_sentences"],
        "tokens": spans["tokens"]["tokens"],
        "tokens_with_docstart": spans["tokens"]["tokens"] + spans["tokens"]["docstart_lines"],
        "docstart_lines": spans["tokens"]["docstart_lines"],
        "gold": spans["n_spans"]["gold"],
        "predicted": spans["n_spans"]["predicted"],
        "correct": spans["n_spans"]["correct"],
        "precision": micro["precision"],
        "recall": micro["recall"],
        "f1": micro["f1"],
        "tp": {t: r["tp"] for t, r in rows.items()},
        "found": {t: r["predicted"] for t, r in rows.items()},
        "type_precision": {t: r["precision"] for t, r in rows.items()},
        "type_recall": {t: r["recall"] for t, r in rows.items()},
        "type_f1": {t: r["f1"] for t, r in rows.items()},
        "invalid": sum(x["count"] for x in spans.get("invalid_transitions", []) if x["column"] != "gold"),
        "invalid_gold": sum(x["count"] for x in spans.get("invalid_transitions", []) if x["column"] == "gold"),
    }


def read_output(row: Row) -> None:
    """What the row's kept run printed, into ``row.result`` (and the in-process seconds of a Python row)."""
    assert row.stdout is not None
    text = row.stdout.read_text(encoding="utf-8")
    if row.who.kind == "cli":
        row.result = from_json(text)
    elif row.who.kind == "text":
        row.result = from_conlleval(text)
    else:
        data = json.loads(text.strip().splitlines()[-1])
        row.read_s, row.call_s, row.result = data["read_s"], data["call_s"], data["result"]


INTS = ("sentences", "tokens", "tokens_with_docstart", "gold", "predicted", "correct")
FLOATS = ("precision", "recall", "f1")
PER_TYPE_INTS = ("tp", "found")
PER_TYPE_FLOATS = ("type_precision", "type_recall", "type_f1")
SHOWN = {
    "tokens_with_docstart": "tokens with -DOCSTART- lines",
    "gold": "gold spans",
    "predicted": "predicted spans",
    "correct": "correct spans",
    "found": "predicted",
    "type_precision": "precision",
    "type_recall": "recall",
    "type_f1": "F1",
}


def differences(theirs: dict[str, Any], ours: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(what differs, what was compared) between a row's numbers and clfeval's JSON under the same rules."""
    tol = COARSE if theirs.get("coarse") else TOLERANCE
    differ, compared = [], []
    for key in INTS:
        if key in theirs and key in ours:
            compared.append(SHOWN.get(key, key))
            if theirs[key] != ours[key]:
                differ.append(f"{key} {theirs[key]:,} ≠ {ours[key]:,}")
    for key in FLOATS:
        if key in theirs and key in ours:
            compared.append(SHOWN.get(key, key))
            if abs(theirs[key] - ours[key]) > tol:
                differ.append(f"{key} {theirs[key]!r} ≠ {ours[key]!r}")
    for key in PER_TYPE_INTS + PER_TYPE_FLOATS:
        if key in theirs and key in ours:
            compared.append(f"per-type {SHOWN.get(key, key)}")
            a, b = theirs[key], ours[key]
            if set(a) != set(b):
                differ.append(f"{key}: types {sorted(a)} ≠ {sorted(b)}")
                continue
            for t in sorted(a):
                exact = key in PER_TYPE_INTS
                if (a[t] != b[t]) if exact else abs(a[t] - b[t]) > tol:
                    differ.append(f"{key}[{t}] {a[t]!r} ≠ {b[t]!r}")
    return differ, compared


def check_rows(rows: list[Row], n: int, checks: list[str], disagreements: list[str]) -> None:
    """Every run row at size n against clfeval's JSON under its rules; --format conlleval against conlleval.pl."""
    by_key = {r.who.key: r for r in rows if r.result}
    for row in rows:
        if not row.result or (row.who.key in REFERENCE.values() and row.who.rules):
            continue
        ours = by_key[REFERENCE[row.who.rules]].result
        differ, compared = differences(row.result, ours)
        rules = {"conlleval": "conlleval.pl's rules", "iob2": "strict IOB2", "": "reading"}[row.who.rules]
        reference = CONTENDERS[[c.key for c in CONTENDERS].index(REFERENCE[row.who.rules])].name
        if differ:
            text = f"N={n:,} sentences, {rules}: `{row.who.name}` DIFFERS from `{reference}`: " + "; ".join(differ)
            disagreements.append(text)
            checks.append(text)
            log(f"  CHECK FAILED: {text}")
        else:
            checks.append(
                f"N={n:,} sentences, {rules}: `{row.who.name}` equals `{reference}` on "
                + ", ".join(compared)
                + (" (its percentages to their two decimals)" if row.result.get("coarse") else "")
            )
    perl, text = by_key.get("perl"), by_key.get("cli-conlleval")
    if perl is not None and text is not None:
        same = perl.result["text"] == text.result["text"]
        line = (
            f"N={n:,} sentences: `clfeval score FILE --spans --format conlleval` is conlleval.pl's output byte "
            f"for byte: {'yes' if same else 'NO'} ({len(perl.result['text'].encode()):,} bytes)"
        )
        checks.append(line)
        if not same:
            disagreements.append(line)
    cli = by_key.get("cli")
    if cli is not None and perl is not None:
        r = cli.result
        checks.append(
            f"N={n:,} sentences: conlleval.pl processed {perl.result['tokens_with_docstart']:,} tokens = "
            f"clfeval's {r['tokens']:,} tokens + {r['docstart_lines']} -DOCSTART- lines (conlleval.pl "
            "counts them as tokens; the span counts are unaffected)"
        )


# --------------------------------------------------------------------------- section 1: measuring


def planned(n: int, base: Row, repeats: int, limit: float) -> tuple[int, float | None]:
    """(runs, estimate): runs at size n from the row's time at the largest smaller size it ran at (linear in
    sentences); 0 runs and the extrapolated seconds when over ``limit`` (never at the check run's own size)."""
    predicted = base.median * n / base.n
    if predicted > limit and n > base.n:
        return 0, predicted
    return (repeats if predicted <= FAST else 1), None


def score_section(
    sizes: list[int],
    paths: dict[int, Path],
    out: Path,
    repeats: int,
    limit: float,
    checks: list[str],
    disagreements: list[str],
) -> list[Row]:
    """Check every contender on the smallest file (one untimed run), then time them at each size."""
    n0 = sizes[0]
    log(f"checks: one untimed run of every row on {paths[n0].name}")
    warm(paths[n0])
    first = []
    for who in CONTENDERS:
        row = make_row(who, n0, paths[n0], out, 1)
        try:
            time_child(row)
            read_output(row)
        except (RuntimeError, ValueError, KeyError, SystemExit) as exc:
            if who.key in ESSENTIAL:
                raise
            lines = [x for x in str(exc).strip().splitlines() if x.strip()]
            text = f"N={n0:,} sentences: `{who.name}` failed and is left out: {lines[-1] if lines else exc!r}"
            log(f"  {text}")
            checks.append(text)
            disagreements.append(text)
            continue
        first.append(row)
        log(f"  check run: {row.contender:<52} {row.times[-1]:8.2f} s {row.rss[-1] / MIB:7,.0f} MiB")
    check_rows(first, n0, checks, disagreements)
    all_rows: list[Row] = []
    previous = {r.who.key: r for r in first}
    for n in sizes:
        log(f"timing on {paths[n].name}")
        warm(paths[n])
        rows = []
        for who in (r.who for r in first):
            base = previous[who.key]
            runs, estimate = planned(n, base, repeats, limit)
            row = make_row(who, n, paths[n], out, max(runs, 1))
            if runs == 0:
                row.estimate, row.from_n = estimate, base.n
                log(f"  {who.name:<52} not run: predicted {estimate:,.0f} s > --limit {limit:,.0f} s")
            rows.append(row)
        measure([r for r in rows if r.estimate is None], log, width=52)
        for row in rows:
            if row.estimate is None:
                read_output(row)
        if n != n0:
            check_rows(rows, n, checks, disagreements)
        all_rows += rows
        previous.update({r.who.key: r for r in rows if r.times})
    return all_rows


def seconds_text(x: float) -> str:
    return f"{x:,.2f}" if x < 100 else f"{x:,.0f}"


def shown(row: Row) -> str:
    """A row's seconds, ``≈`` when extrapolated."""
    return seconds_text(row.seconds) if row.times else f"≈ {seconds_text(row.seconds)}"


def goal_section(rows: list[Row], sizes: list[int]) -> list[str]:
    """The issue's goal: ``clfeval score FILE --spans`` faster than conlleval.pl, at each size."""
    body = []
    for n in sizes:
        by = {r.who.key: r for r in rows if r.n == n}
        cli, text, perl = by["cli"], by["cli-conlleval"], by["perl"]
        rough = "≈ " if not (cli.times and perl.times) else ""
        body.append(
            [
                f"{n:,}",
                f"{cli.result['tokens']:,}",
                shown(cli),
                shown(text),
                shown(perl),
                rough + ratio_text(perl.seconds / cli.seconds),
                "yes" if cli.seconds < perl.seconds else "**no**",
            ]
        )
    head = [
        "N sentences",
        "tokens",
        "clfeval score FILE --spans (JSON) s",
        "… --format conlleval s",
        "perl conlleval.pl s",
        "conlleval.pl ÷ clfeval",
        "met",
    ]
    by = {r.who.key: r for r in rows if r.n == sizes[-1]}
    cli, perl = by["cli"], by["perl"]
    faster = cli.seconds < perl.seconds
    rss = f"{max(cli.rss) / MIB:,.0f} MiB against {max(perl.rss) / MIB:,.0f} MiB" if cli.rss and perl.rss else "—"
    return [
        "### The goal: clfeval faster than conlleval.pl on the same file",
        "",
        *md_table(head, body, right={0, 1, 2, 3, 4, 5}),
        f"At {sizes[-1]:,} sentences clfeval {'is' if faster else 'is NOT'} faster than conlleval.pl: "
        f"{shown(cli)} s against {shown(perl)} s (whole processes, medians; peak RSS {rss}).",
        "",
    ]


def rules_note(rows: list[Row], n: int) -> list[str]:
    """Why the two rule sets give different numbers on the same file."""
    by = {r.who.key: r for r in rows if r.n == n}
    lenient, strict = by["cli"].result, by["cli-iob2"].result
    return [
        f"The two rule sets read the same file differently only where a tag sequence breaks IOB2: the "
        f"{n:,}-sentence file's predicted column has {lenient['invalid']:,} invalid transitions (I- after O, "
        f"after another type, or at a sentence start: the tagger's B- written as I- and its stray I- tags). "
        f"conlleval.pl (and seqeval's default mode, nervaluate) open a span there, strict IOB2 drops the tag: "
        f"{lenient['predicted']:,} predicted spans against {strict['predicted']:,}, micro F1 "
        f"{lenient['f1']:.4f} against {strict['f1']:.4f}; the gold column has {lenient['invalid_gold']:,} "
        f"invalid transitions ({lenient['gold']:,} and {strict['gold']:,} gold spans). Smallest case: gold "
        "`B-PER I-PER`, predicted `O I-PER` — conlleval.pl: one predicted PER span (token 2, wrong), strict IOB2: "
        "no predicted span.",
        "",
    ]


def score_table(rows: list[Row], n: int) -> list[str]:
    at = [r for r in rows if r.n == n]
    by_key = {r.who.key: r for r in at}
    body = []
    for row in at:
        cli = by_key[REFERENCE[row.who.rules]]
        api = by_key.get(API.get(row.who.rules, ""))
        if row.times:
            secs = seconds_text(row.median)
            how = f"{len(row.times)}"
            rss = f"{max(row.rss) / MIB:,.0f}"
        else:
            secs = f"≈ {seconds_text(row.seconds)}"
            how = f"0 (×{n / row.from_n:g} of N={row.from_n:,})"
            rss = "—"
        rough = "≈ " if row.estimate is not None or cli.estimate is not None else ""
        versus_cli = rough + ratio_text(row.seconds / cli.seconds)
        versus_api = "—"
        if row.who.kind == "python" and api is not None and row.call_s is not None and api.call_s:
            versus_api = ratio_text(row.call_s / api.call_s)
        body.append(
            [
                row.who.name,
                {"conlleval": "conlleval", "iob2": "strict IOB2", "": "—"}[row.who.rules],
                how,
                secs,
                "—" if row.read_s is None else f"{row.read_s:.2f}",
                "—" if row.call_s is None or row.who.key == "read" else f"{row.call_s:.2f}",
                versus_cli,
                versus_api,
                rss,
            ]
        )
    head = [
        "contender",
        "rules",
        "runs",
        "seconds",
        "read s",
        "call s",
        "× clfeval CLI",
        "× clfeval.score call",
        "peak MiB",
    ]
    return md_table(head, body, right={2, 3, 4, 5, 6, 7, 8})


# --------------------------------------------------------------------------- section 2: randomization


def tag_lists(codes: np.ndarray, lengths: np.ndarray) -> list[list[str]]:
    """One list of tag strings per sentence (the strings shared, as a dataset's id2label gives them)."""
    names = list(TAGS)
    flat = [names[c] for c in codes.tolist()]
    out, at = [], 0
    for k in lengths.tolist():
        out.append(flat[at : at + k])
        at += k
    return out


def ar_data(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(lengths, gold, A, B) tag codes of the randomization test: A with TAGGER's errors, B with TAGGER_B's."""
    rng = np.random.default_rng(np.random.SeedSequence([SEED, AR_STREAM]))
    gold, lengths = gold_tags(rng, n)
    a = predicted_tags(rng, gold, lengths, TAGGER)
    b = predicted_tags(rng, gold, lengths, TAGGER_B)
    return lengths, gold, a, b


def ar_files(n: int, lengths: np.ndarray, gold: np.ndarray, a: np.ndarray, b: np.ndarray) -> list[Path]:
    """GOLD, A, B as CoNLL files ``word POS tag`` (the same words; no -DOCSTART- lines: the unit is the sentence),
    for ``clfeval compare GOLD A B --spans``; written once into benchmarks/data/."""
    paths = [DATA / f"spans-ar-{n}-seed{SEED}-{part}.conll" for part in ("gold", "A", "B")]
    if all(p.exists() for p in paths):
        return paths
    log(f"generating {', '.join(p.name for p in paths)}")
    text = conll_text(np.random.default_rng([SEED, AR_STREAM, 1]), 0, lengths, [gold, a, b], docstart_every=0)
    for path, keep in zip(paths, [rb"\1 \2", rb"\1 \3", rb"\1 \4"]):  # word POS, then one tag column
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(re.sub(rb"^(\S+ \S+) (\S+) (\S+) (\S+)$", keep, text, flags=re.M))
        tmp.replace(path)
    return paths


def iob2_spans(tags: list[str]) -> set[tuple[str, int, int]]:
    """A sentence's spans (type, start, end) under seqeval's strict IOB2: a span opens with B-, goes on with I- of
    its type; an I- after O or another type belongs to no span."""
    out = set()
    start, kind = -1, ""
    for i, tag in enumerate(tags):
        if tag[0] == "B":
            if start >= 0:
                out.add((kind, start, i))
            start, kind = i, tag[2:]
        elif tag[0] == "I" and start >= 0 and tag[2:] == kind:
            continue
        elif start >= 0:
            out.add((kind, start, i))
            start = -1
    if start >= 0:
        out.add((kind, start, len(tags)))
    return out


def sentence_counts(gold: list[list[str]], a: list[list[str]], b: list[list[str]]) -> np.ndarray:
    """(5, sentences) int64: per sentence gold spans, A's correct and found spans, B's correct and found spans."""
    rows = []
    for g, x, y in zip(gold, a, b):
        sg, sx, sy = iob2_spans(g), iob2_spans(x), iob2_spans(y)
        rows.append((len(sg), len(sx & sg), len(sx), len(sy & sg), len(sy)))
    return np.array(rows, dtype=np.int64).T


def micro_f1(tp: float, found: float, gold: float) -> float:
    return 2 * tp / (gold + found) if gold + found else 0.0


def observed(counts: np.ndarray) -> tuple[float, float]:
    ng, atp, an, btp, bn = (int(x) for x in counts.sum(axis=1))
    return micro_f1(atp, an, ng), micro_f1(btp, bn, ng)


def numpy_rounds(counts: np.ndarray, rounds: int, seed: int) -> float:
    """Per round: a swap mask over the sentences, both taggers' summed counts by np.where, micro F1."""
    ng, atp, an, btp, bn = counts
    gold = int(ng.sum())
    fa, fb = observed(counts)
    d = abs(fa - fb)
    tol = TIE * max(1.0, d)
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(rounds):
        swap = rng.integers(0, 2, len(ng), dtype=np.bool_)
        star = micro_f1(np.where(swap, btp, atp).sum(), np.where(swap, bn, an).sum(), gold) - micro_f1(
            np.where(swap, atp, btp).sum(), np.where(swap, an, bn).sum(), gold
        )
        hits += abs(star) >= d - tol
    return (hits + 1) / (rounds + 1)


def python_rounds(counts: np.ndarray, rounds: int, seed: int) -> float:
    """Per round: the sentences one by one, each swapped when random.random() < ½, the sums, micro F1."""
    gold = int(counts[0].sum())
    fa, fb = observed(counts)
    d = abs(fa - fb)
    tol = TIE * max(1.0, d)
    rnd = random.Random(seed)
    sentences = list(zip(*(c.tolist() for c in counts[1:])))
    hits = 0
    for _ in range(rounds):
        ta = na = tb = nb = 0
        for x_tp, x_n, y_tp, y_n in sentences:
            if rnd.random() < 0.5:
                x_tp, x_n, y_tp, y_n = y_tp, y_n, x_tp, x_n
            ta += x_tp
            na += x_n
            tb += y_tp
            nb += y_n
        hits += abs(micro_f1(ta, na, gold) - micro_f1(tb, nb, gold)) >= d - tol
    return (hits + 1) / (rounds + 1)


@dataclass
class ArRow:
    """One randomization contender: seconds for the rounds it ran (set-up apart), its p-value and micro F1s."""

    name: str
    rounds: int
    seconds: float
    setup: float = 0.0
    p: float | None = None
    score_a: float | None = None
    score_b: float | None = None
    runs: int = 1
    rss: int | None = None
    note: str = ""

    @property
    def per_rounds(self) -> float:
        """Seconds for ROUNDS rounds, set-up included."""
        return self.setup + self.seconds * ROUNDS / self.rounds


def agreement(p: float, rounds: int, p_ref: float) -> tuple[bool, float]:
    """|p − p_clfeval| within 4 Monte Carlo standard errors of the difference (binomial at clfeval's p, both
    sides' rounds) plus one count of the smaller side (compare.py's rule)."""
    q = min(max(p_ref, 1.0 / ROUNDS), 1 - 1.0 / ROUNDS)
    tol = 4 * np.sqrt(q * (1 - q) * (1 / rounds + 1 / ROUNDS)) + 1 / (rounds + 1)
    return abs(p - p_ref) <= tol, float(tol)


def clfeval_compare(gold: list, a: list, b: list, repeats: int) -> ArRow:
    """``clfeval.compare`` end to end on the tag lists, best of ``repeats``; a row with the reason when the API
    fails (it is new)."""
    import clfeval

    best, pair = float("inf"), None
    try:
        for _ in range(repeats):
            gc.collect()
            t0 = time.perf_counter()
            result = clfeval.compare(
                gold, {"A": a, "B": b}, spans="iob2", metrics=METRIC, test="ar", rounds=ROUNDS, seed=0
            )
            best = min(best, time.perf_counter() - t0)
            pair = result.pair("A", "B", METRIC)
    except Exception as exc:  # the API is being built: report a failure, do not stop the benchmark
        reason = f"{type(exc).__name__}: {exc}"
        log(f"  clfeval.compare failed: {reason}")
        return ArRow(
            'clfeval.compare(gold, {"A": a, "B": b}, spans="iob2", …)', ROUNDS, float("nan"), note=f"failed: {reason}"
        )
    return ArRow(
        'clfeval.compare(gold, {"A": a, "B": b}, spans="iob2", …)',
        ROUNDS,
        best,
        p=float(pair.p_value),
        score_a=float(pair.score_a),
        score_b=float(pair.score_b),
        runs=repeats,
        note="end to end: tag lists in, span counts, randomization",
    )


def clfeval_compare_cli(paths: list[Path], n: int, out: Path, repeats: int) -> ArRow:
    """``clfeval compare GOLD A B --spans iob2 --test ar …`` in a child (wall time, peak RSS), or the reason it
    failed (the command may not take --spans yet)."""
    name = "clfeval compare GOLD A B --spans iob2 --test ar"
    argv = [
        CLFEVAL,
        "compare",
        *map(str, paths),
        "--spans",
        "iob2",
        "--unit",
        "sentences",
        "--metric",
        METRIC,
        "--test",
        "ar",
        "--rounds",
        str(ROUNDS),
        "--seed",
        "0",
        "--format",
        "json",
    ]
    row = ChildRow(name, n, argv, repeats=1, stdout=out / "compare-cli.json", limit=600)
    try:
        time_child(row)
        data = json.loads(row.stdout.read_text(encoding="utf-8"))  # type: ignore[union-attr]
        pair = next(p for p in data["pairs"] if p["metric"] == METRIC)
    except (RuntimeError, ValueError, KeyError, StopIteration) as exc:
        lines = [x for x in str(exc).strip().splitlines() if x.strip()]
        reason = lines[-1] if lines else type(exc).__name__
        log(f"  {name}: not measured: {reason}")
        return ArRow(name, ROUNDS, float("nan"), note=f"not measured: {reason}")
    row.repeats = repeats
    if repeats > 1:
        measure_more = ChildRow(name, n, argv, repeats=repeats - 1, limit=600)
        measure([measure_more], log, width=52)
        row.times += measure_more.times
        row.rss += measure_more.rss
    return ArRow(
        name,
        ROUNDS,
        min(row.times),
        p=float(pair["p_value"]),
        score_a=float(pair["score_a"]),
        score_b=float(pair["score_b"]),
        runs=len(row.times),
        rss=max(row.rss),
        note="whole process: reading 3 files included",
    )


def randomization_section(
    n: int, repeats: int, quick: bool, out: Path, checks: list[str], disagreements: list[str]
) -> list[str]:
    log(f"randomization: {n:,} sentences, {ROUNDS:,} rounds")
    lengths, gold_codes, a_codes, b_codes = ar_data(n)
    gold, a, b = (tag_lists(c, lengths) for c in (gold_codes, a_codes, b_codes))
    paths = ar_files(n, lengths, gold_codes, a_codes, b_codes)
    rows = [clfeval_compare(gold, a, b, repeats)]
    log(f"  {rows[0].name}: {rows[0].seconds:.3f} s, p = {rows[0].p}")
    rows.append(clfeval_compare_cli(paths, n, out, repeats))
    t0 = time.perf_counter()
    counts = sentence_counts(gold, a, b)
    setup = time.perf_counter() - t0
    fa, fb = observed(counts)
    np_rounds, py_rounds = (NP_ROUNDS // 10, PY_ROUNDS // 10) if quick else (NP_ROUNDS, PY_ROUNDS)
    for name, fn, rounds in (
        ("numpy per round: swap mask over the sentences, np.where sums", numpy_rounds, np_rounds),
        ("pure Python: the sentences one by one, random.random() < ½", python_rounds, py_rounds),
    ):
        gc.collect()
        t0 = time.perf_counter()
        p = fn(counts, rounds, SEED)
        rows.append(
            ArRow(
                name,
                rounds,
                time.perf_counter() - t0,
                setup=setup,
                p=p,
                score_a=fa,
                score_b=fb,
                note=f"+ {setup:.2f} s set-up: per-sentence span sets in Python",
            )
        )
        log(f"  {name}: {rows[-1].seconds:.2f} s for {rounds:,} rounds, p = {p:.4f}")

    clf = rows[0]
    base = clf.seconds if clf.p is not None else float("nan")
    body = []
    for row in rows:
        ran = row.p is not None
        scaled = row.rounds != ROUNDS
        body.append(
            [
                row.name,
                f"{row.rounds:,}" if ran else "—",
                str(row.runs) if ran else "—",
                f"{row.seconds:.2f}" if ran else "—",
                f"{row.setup:.2f}" if row.setup else "—",
                (f"≈ {row.per_rounds:,.1f}" if scaled else f"{row.per_rounds:,.2f}") if ran else "—",
                ratio_text(row.per_rounds / base) if ran and clf.p is not None else "—",
                f"{row.p:.4f}" if ran else "—",
                "—" if row.rss is None else f"{row.rss / MIB:,.0f}",
                row.note,
            ]
        )
    head = [
        "contender",
        "rounds run",
        "runs",
        "seconds (rounds)",
        "set-up s",
        f"s per {ROUNDS:,} rounds",
        "× clfeval.compare",
        "p",
        "peak MiB",
        "note",
    ]
    lines = [
        f"### 2. Sentence-level approximate randomization of span micro F1: {n:,} sentences, {ROUNDS:,} rounds",
        "",
        f"Two taggers on the same gold ({int(counts[0].sum()):,} gold spans, strict IOB2): A with `TAGGER`'s "
        f"errors, B with `TAGGER_B`'s (a little more missed and mistyped spans): micro F1 {fa:.4f} and "
        f"{fb:.4f}, d = {fa - fb:+.4f}. In this process (tag lists built beforehand, not timed), except the "
        "command, a child process. The loops are given per-sentence span counts (found once in Python: "
        "set-up s) and run for fewer rounds; s per 10,000 rounds = set-up + their rounds' seconds scaled "
        f"to {ROUNDS:,} (≈). Ratio: over clfeval.compare's best time.",
        "",
    ]
    lines += md_table(head, body, right={1, 2, 3, 4, 5, 6, 7, 8})
    for row in rows[:2]:  # clfeval's micro F1 of both taggers against the loops' (per-sentence span sets)
        if row.score_a is None or row.score_b is None:
            continue
        ok_f = abs(row.score_a - fa) <= TOLERANCE and abs(row.score_b - fb) <= TOLERANCE
        line = (
            f"randomization: {row.name}: micro F1 of A and B {row.score_a:.12f}, {row.score_b:.12f}: "
            f"{'equal' if ok_f else 'DIFFER from'} the loops' ({fa:.12f}, {fb:.12f}, from per-sentence span sets)"
        )
        checks.append(line)
        if not ok_f:
            disagreements.append(line)
    if clf.p is not None:
        for row in rows[1:]:
            if row.p is None:
                continue
            ok, tol = agreement(row.p, row.rounds, clf.p)
            line = (
                f"randomization p-value: {row.name} ({row.rounds:,} rounds) p = {row.p:.4f} vs clfeval.compare "
                f"({ROUNDS:,} rounds) p = {clf.p:.4f}: {'agree' if ok else 'DIFFER'} within ±{tol:.3f}"
            )
            checks.append(line)
            if not ok:
                disagreements.append(line)
    missing = [r for r in rows if r.p is None]
    for row in missing:
        lines.append(f"`{row.name}`: {row.note}.")
    if missing:
        lines.append("")
    return lines


# --------------------------------------------------------------------------- --profile


def profile_section(path: Path, list_path: Path) -> list[str]:
    """cProfile of the command (in process, output dropped) on ``path`` and of ``clfeval.score`` on tag lists read
    from ``list_path``: the functions with the largest own time, and the cumulative time of the largest clfeval
    ones."""
    import cProfile
    import io
    import os
    import pstats

    import clfeval
    from clfeval.cli import main as cli_main

    def top(profile: cProfile.Profile, title: str) -> list[str]:
        stats = pstats.Stats(profile)
        total = stats.total_tt  # type: ignore[attr-defined]
        rows = []
        for (file, line, func), (_, _, tt, ct, _) in stats.stats.items():  # type: ignore[attr-defined]
            rows.append((file, line, func, tt, ct))
        own = sorted(rows, key=lambda r: -r[3])[:8]
        mine = sorted((r for r in rows if "/clfeval/" in r[0]), key=lambda r: -r[4])[:8]

        def where(r: tuple) -> str:
            file = r[0].split("/src/")[-1] if "/clfeval/" in r[0] else Path(r[0]).name
            return f"`{file}:{r[1]}({r[2]})`" if r[1] else f"`{r[2]}`"

        out = [f"{title}: {total:.2f} s under cProfile.", ""]
        out += md_table(
            ["largest own time", "own s", "cumulative s"],
            [[where(r), f"{r[3]:.2f}", f"{r[4]:.2f}"] for r in own],
            right={1, 2},
        )
        out += md_table(
            ["largest clfeval functions (cumulative)", "own s", "cumulative s"],
            [[where(r), f"{r[3]:.2f}", f"{r[4]:.2f}"] for r in mine],
            right={1, 2},
        )
        return out

    log(f"profile: clfeval score {path.name} --spans")
    profile = cProfile.Profile()
    stdout = sys.stdout
    sys.stdout = io.StringIO()
    try:
        profile.runcall(cli_main, ["score", str(path), "--spans", "--format", "json", "-o", os.devnull])
    finally:
        sys.stdout = stdout
    lines = ["### 3. Where clfeval's time goes (--profile)", ""]
    lines += top(profile, f"`clfeval score {path.name} --spans --format json`, in process")
    log(f"profile: clfeval.score on tag lists of {list_path.name}")
    gold: list[list[str]] = []
    pred: list[list[str]] = []
    g: list[str] = []
    p: list[str] = []
    with open(list_path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if not fields:
                if g:
                    gold.append(g)
                    pred.append(p)
                    g, p = [], []
            elif fields[0] != "-DOCSTART-":
                g.append(fields[-2])
                p.append(fields[-1])
    profile = cProfile.Profile()
    profile.runcall(clfeval.score, gold, pred, spans="iob2")
    lines += top(profile, f'`clfeval.score(gold, pred, spans="iob2")` on the tag lists of {list_path.name}')
    return lines


# --------------------------------------------------------------------------- the report


def tool_versions() -> str:
    perl = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True, check=True).stdout.strip()
    script = CONLLEVAL.read_bytes()
    digest = hashlib.sha256(script).hexdigest()
    version = next(
        (x.split(":", 1)[1].strip() for x in script.decode("latin-1").splitlines() if x.startswith("# version:")), "?"
    )
    known = "the tests' copy" if digest == CONLLEVAL_SHA256 else "NOT the tests' copy"
    return f"perl {perl}, conlleval.pl version {version} (sha256 {digest[:12]}…, {known})"


def main() -> int:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--sentences",
            type=int,
            default=SENTENCES,
            metavar="N",
            help="sentences of the large file (default %(default)s; the check file has 10^5)",
        )
        parser.add_argument(
            "--repeats",
            type=int,
            default=REPEATS,
            metavar="R",
            help=f"runs of a row predicted at most {FAST:.0f} s (default %(default)s)",
        )
        parser.add_argument(
            "--limit",
            type=float,
            default=LIMIT,
            metavar="S",
            help="a row predicted slower than S seconds at a size is extrapolated (default %(default)s)",
        )
        parser.add_argument("--profile", action="store_true", help="add cProfile tables of clfeval (in process)")

    session = start(__doc__, RESULTS, extra)
    args = session.args
    if not CONLLEVAL.exists():
        raise SystemExit(f"{CONLLEVAL} is missing: conlleval.pl is not in the repository (see the tests' MANIFEST)")
    check_n = min(CHECK, args.sentences)
    sizes = [check_n] if args.quick else sorted({check_n, args.sentences})
    repeats = 1 if args.quick else args.repeats
    out = DATA / "spans-out"
    out.mkdir(parents=True, exist_ok=True)
    paths = data_files(sizes, lambda n, log_: conll_file(n, log_))
    checks: list[str] = []
    disagreements: list[str] = []

    rows = score_section(sizes, paths, out, repeats, args.limit, checks, disagreements)
    n_max = sizes[-1]
    sections = goal_section(rows, sizes)
    for n in sizes:
        tokens = next(r for r in rows if r.n == n and r.who.key == "cli").result["tokens"]
        sections += [
            f"### 1. Scoring a CoNLL file: {n:,} sentences, {tokens:,} tokens "
            f"({paths[n].stat().st_size / 1e6:,.0f} MB)",
            "",
            *score_table(rows, n),
        ]
    sections += [
        "seconds: wall time of the whole child process (start-up, imports, reading the file included), median "
        "of the runs (≈: not run at this size, extrapolated linearly in sentences from the size named); "
        "read s and call s: the in-memory rows' own clocks around reading the file into tag lists and "
        "around the one call (first run); × clfeval CLI: seconds over `clfeval score FILE --spans … "
        "--format json`'s under the same rules (reading only and conlleval.pl: the conlleval scheme); × "
        "clfeval.score call: call s over clfeval.score's under the same rules; peak MiB: the child's peak "
        "RSS (`os.wait4`), the highest of its runs (the in-memory rows hold the tag lists: see the reading "
        "row).",
        "",
        *rules_note(rows, n_max),
    ]
    sections += randomization_section(
        CHECK // 10 if args.quick else AR_SENTENCES, repeats, args.quick, out, checks, disagreements
    )
    if args.profile:
        sections += profile_section(paths[n_max], paths[check_n])
    if disagreements:
        sections += ["### Disagreements", "", *[f"- {d}" for d in disagreements], ""]
    sections += commands_section(
        [c.command for c in CONTENDERS]
        + [
            "clfeval compare GOLD A B --spans iob2 --unit sentences --metric micro.f1 --test ar --rounds 10000 "
            "--seed 0 --format json"
        ],
        [("PY_CHILD, the in-memory rows' child (`python -c PY_CHILD CONTENDER FILE`)", PY_CHILD)],
    )
    options = "".join(
        f" {flag} {value:g}" if isinstance(value, float) else f" {flag} {value}"
        for flag, value, default in (
            ("--sentences", args.sentences, SENTENCES),
            ("--repeats", args.repeats, REPEATS),
            ("--limit", args.limit, LIMIT),
        )
        if value != default and not args.quick
    )
    write_report(
        session,
        "clfeval span benchmark: scoring CoNLL spans, and sentence-level randomization",
        f"spans.py{options}{' --profile' if args.profile else ''}",
        ["numpy", "polars", "seqeval", "nervaluate"],
        f"Tools: {tool_versions()}. Data: the seeded files "
        + ", ".join(f"`benchmarks/data/{paths[n].name}`" for n in sizes)
        + " (gold IOB2 tags and one tagger's, `word POS gold pred`, -DOCSTART- every "
        f"{DOCSTART_EVERY:,} sentences; the smaller file is the larger one's start); generated once, "
        f"git-ignored. Runs: one untimed check run of every row on the {check_n:,}-sentence file, then "
        f"round-robin at each size: {repeats} run{'s' if repeats != 1 else ''} of a row predicted at most "
        f"{FAST:.0f} s, one of a slower row; a row predicted over {args.limit:,.0f} s is extrapolated.",
        sections,
        checks,
    )
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
