#!/usr/bin/env python3
"""Record a corpus of clfeval outputs, and compare two corpora: proof that a change changed no number or key.

Usage::

    python tools/json_corpus.py generate OUTDIR [--src SRCDIR] [--python PYTHON] [--jobs N] [--force] [--hash-seed N]
    python tools/json_corpus.py compare OLDDIR NEWDIR [--rel-tol X] [--abs-tol X] [--rerun DIR] [--report FILE]
                                                      [--max-diffs N] [--max-added N]
    python tools/json_corpus.py check OLDDIR [--new NEWDIR] [--src SRCDIR] [compare's options]  # generate, compare
    python tools/json_corpus.py list                      # the corpus's command lines and Python calls

``generate`` writes a deterministic set of small input files into ``OUTDIR/inputs`` (single-label text, TSV, CSV,
JSON Lines and Parquet tables; gold and prediction files of three systems; multi-label files; sentence blocks
separated by blank lines or ``<utt>`` lines and a block column; confusion matrices; training data and label files;
folds as files and as a column; TiMBL-style distances and confidences for finagle; paper tables for audit and
convert; count files made by ``clfeval count``; a few bad files; for spans, ``inputs/spans``: CoNLL files of a gold
column and two taggers with -DOCSTART- documents, invalid transitions, adjacent spans of one type, the files of each
scheme, gold and prediction files, JSON Lines of tags and of entities, ``<utt>`` blocks, folds, tokens a spreadsheet
would run; for scored predictions, ``inputs/scored``: binary, multi-class (3 and 12 classes) and multi-label scores of
two or three systems as CSV, JSON Lines, Parquet and TiMBL output, with documents as blocks (a column, blank lines,
``<utt>`` lines), folds, parts, margins and distances, classes 9 and 10, a probability of 1 + 2⁻⁵²; and
``inputs/api.json``, the same data for the Python API), then runs the corpus with ``OUTDIR`` as the working
directory, so every path in an output is relative: every command, option, interval method and test of labels, spans
(``--spans`` in each scheme, units, ``--errors``, ``--format conlleval``, count files, sentence- and document-level
tests) and scored predictions (``--scores``: DeLong, DeLong-logit, bootstrap and BCa intervals, the DeLong, bootstrap
and randomization tests, blocks, ``--lower-is-more-confident``, ``--score-bins``, count files, cv), and the Python
API's ``to_json()`` of ``score``, ``compare`` and ``cv`` for each kind (``list`` prints it all). The runs whose
names start with ``spans-``, ``scored-`` and ``api-`` were added for issue 37; every run has a kind (labels, spans,
scores; convert, audit and finagle by their command), which ``compare`` groups by.

Per run it stores ``OUTDIR/runs/NAME.EXT`` (standard output, or the ``-o`` file; EXT from the format; a file of
``--errors`` as ``NAME.FILE``) and ``OUTDIR/runs/NAME.meta.json`` (argv, kind, exit code, stderr, seconds).
``OUTDIR/manifest.json`` records the source directory and a digest of it, the clfeval, Python, numpy and polars
versions, the inputs' hashes, each run's kind and the options no run uses. The CLI runs as ``PYTHON -c "import sys;
from clfeval.cli import main; sys.exit(main(sys.argv[1:]))"`` with ``PYTHONPATH=SRCDIR`` (default: this checkout's
``src``; PYTHON: this checkout's ``.venv/bin/python``), in a fixed environment (locale, terminal width, one BLAS
thread; bytecode in ``OUTDIR/.pycache``, removed at the end, so SRCDIR is only read; ``PYTHONHASHSEED`` unset, so
each process draws its own as a user's would, unless ``--hash-seed``). The Python API's cases run in one interpreter
per kind (``API_DRIVER``): a case's argv is its code, its output its result's ``to_json()``, its stderr the warnings
it raised and, exit code 1, the exception. Every bootstrap and test has a fixed seed. Generate warns about runs whose
exit code is not the expected one, and fails when SRCDIR changed while it ran.

``compare`` matches the runs of two corpora by name. For JSON outputs every key of OLD must exist in NEW with an
equal value: numbers within a relative ``--rel-tol`` (default 1e-12; the largest relative difference seen is
reported), an int must stay an int and a float a float, lists keep their length, strings are equal after
normalisation; keys only in NEW are listed as added and allowed; key order is not compared. Normalisation: the
``clfeval_version`` values are not compared, the version is replaced where clfeval writes it (``clfeval:V`` of a
signature, ``clfeval V``), and the corpus and source directories are replaced by placeholders. Other outputs
(text, Markdown, CSV, LaTeX, HTML, conlleval), ``--errors`` files and stderr must be equal as text after the same
normalisation, and exit codes equal. It prints, per kind, how many runs are identical, equal but for added keys, or
differ; each differing run's first differences, each named by its category (value, string, type, length, removed,
exit code, stderr, output, …) and JSON pointer; then every changed field across runs, by kind, category and JSON
pointer with list indices as ``*`` (``[scores] value /pairs/*/p_value: 3 runs: …``), and the added fields likewise:
the list a closing note needs. ``--report FILE`` writes all of it, unabridged, as JSON. ``--rerun DIR`` names a
second corpus of OLD's source (``generate`` run twice): the paths that differ between OLD and DIR are not
reproducible, and their differences from NEW are reported apart, without making the result DIFFERENT. It exits 1
on any other difference (or a run missing in NEW, or different inputs), 0 otherwise. ``check OLD`` is ``generate``
into ``--new`` (default: a new directory under /tmp) followed by ``compare``.

Baseline and check (issue 37: the baseline of 8b1fb06 is /work/wt/corpus-baseline, its second run
/work/wt/corpus-baseline-rerun; a corpus is only comparable with one whose inputs this same version of the tool
wrote)::

    python tools/json_corpus.py generate /work/wt/corpus-baseline --src /path/to/tree-at-8b1fb06/src
    python tools/json_corpus.py generate /work/wt/corpus-baseline-rerun --src /path/to/tree-at-8b1fb06/src
    python tools/json_corpus.py check /work/wt/corpus-baseline --rerun /work/wt/corpus-baseline-rerun \
        --src /path/to/changed/src --new /tmp/corpus-new --report /tmp/corpus-new.report.json

The tool itself needs only the standard library (the Parquet inputs are written by PYTHON, with polars).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BOOT = "import sys; from clfeval.cli import main; sys.exit(main(sys.argv[1:]))"
CORPUS_SCHEMA = "clfeval-json-corpus/1"
COMMANDS = ("score", "count", "compare", "cv", "convert", "audit", "finagle")
EXTENSIONS = {"json": "json", "csv": "csv", "markdown": "md", "text": "txt", "latex": "tex", "html": "html"}
SEED = 20240601  # the inputs' seed: change it and every corpus changes
CACHE = ".pycache"  # under OUTDIR while generating (PYTHONPYCACHEPREFIX), removed at the end
NOT_COVERED = {
    "--plot": "writes PNG and SVG figures (matplotlib), not numbers",
    "--scheduler": "needs a running Dask scheduler (--engine dask runs use a local cluster)",
}

# ---------------------------------------------------------------------------------------------------------------
# Inputs: a small synthetic POS tagger, three systems, multi-label topics, many labels, paper tables
# ---------------------------------------------------------------------------------------------------------------

TAGS = ["NN", "VB", "DT", "JJ", "IN", "RB", "PRP", "CC", "UH"]
TAG_WEIGHTS = [30, 18, 14, 10, 10, 7, 6, 4, 1]
WORDS = {
    "NN": ["time", "dog", "park", "idea", "house", "car"],
    "VB": ["sees", "runs", "takes", "is", "goes"],
    "DT": ["the", "a", "this", "that"],
    "JJ": ["old", "big", "red", "quick"],
    "IN": ["in", "on", "of", "at"],
    "RB": ["quickly", "very", "often"],
    "PRP": ["she", "they", "he", "it"],
    "CC": ["and", "or", "but"],
    "UH": ["oh", "wow"],
}
CONFUSIONS = {  # what a wrong prediction of each gold tag is
    "NN": ["JJ", "VB"],
    "VB": ["NN"],
    "DT": ["PRP"],
    "JJ": ["NN", "RB"],
    "IN": ["RB", "CC"],
    "RB": ["JJ", "IN"],
    "PRP": ["DT"],
    "CC": ["IN"],
    "UH": ["NN", "RB"],
}
SYSTEMS = {"A": 0.88, "B": 0.80, "C": 0.66}  # about the accuracy of each system
TOPICS = ["sports", "politics", "tech", "arts", "health"]
N_SENTENCES = 64
N_FOLDS = 4


class Rng:
    """Deterministic draws from :class:`random.Random`'s ``random()`` alone (stable across Python versions)."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def random(self) -> float:
        return self._r.random()

    def below(self, n: int) -> int:
        return min(int(self.random() * n), n - 1)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[Any], weights: Sequence[float]) -> Any:
        x = self.random() * sum(weights)
        for item, w in zip(items, weights):
            x -= w
            if x < 0:
                return item
        return items[-1]


@dataclass
class Token:
    word: str
    gold: str
    pred: dict[str, str]
    sent: int
    fold: int
    conf: float  # system A's confidence (higher is surer)
    dist: float  # system A's distance (lower is surer), as TiMBL +v di writes it


def make_tokens(rng: Rng) -> list[Token]:
    tokens = []
    for sent in range(N_SENTENCES):
        for _ in range(3 + rng.below(7)):
            gold = rng.weighted(TAGS, TAG_WEIGHTS)
            difficulty = rng.random()
            pred = {}
            for name, accuracy in SYSTEMS.items():
                if 0.6 * difficulty + 0.4 * rng.random() < accuracy:
                    pred[name] = gold
                elif name == "C" and rng.random() < 0.15:
                    pred[name] = "FW"  # a label only system C predicts
                else:
                    pred[name] = rng.choice(CONFUSIONS[gold])
                if name == "B" and pred[name] == "UH":
                    pred[name] = "NN"  # B never predicts UH: its precision of UH is 0/0
            right = pred["A"] == gold
            conf = round(0.35 + 0.65 * rng.random() ** (0.5 if right else 2.0), 4)
            dist = round(3.0 * (1.0 - conf) + 0.01 * rng.below(5), 4)
            word = rng.choice(WORDS[gold])
            tokens.append(Token(word, gold, pred, sent + 1, sent % N_FOLDS + 1, conf, dist))
    return tokens


def sentences(tokens: list[Token]) -> Iterator[list[Token]]:
    current: list[Token] = []
    for t in tokens:
        if current and t.sent != current[0].sent:
            yield current
            current = []
        current.append(t)
    if current:
        yield current


@dataclass
class LabelSets:
    gold: list[list[str]]
    pred: dict[str, list[list[str]]]
    fold: list[int]


def make_label_sets(rng: Rng, n: int = 150) -> LabelSets:
    gold, fold = [], []
    pred: dict[str, list[list[str]]] = {"A": [], "B": []}
    for i in range(n):
        g = sorted({rng.weighted(TOPICS, [5, 4, 3, 2, 1]) for _ in range(rng.below(4))})
        gold.append(g)
        fold.append(i % 3 + 1)
        for name, keep in (("A", 0.85), ("B", 0.7)):
            p = [t for t in g if rng.random() < keep]
            if rng.random() < 0.3:
                p.append(rng.choice(TOPICS))  # maybe a duplicate of a kept label
            pred[name].append(p)
    return LabelSets(gold, pred, fold)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def lines(rows: Sequence[Sequence[object]], sep: str = " ", end: str = "\n") -> str:
    return "".join(sep.join(str(x) for x in row) + end for row in rows)


def csv_cell(value: str) -> str:
    return '"' + value.replace('"', '""') + '"' if any(c in value for c in ',"\n') else value


def per_label_stats(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per-label tp, fp, fn, P, R, F1 (None for 0/0), as a paper would compute them."""
    stats = {}
    for lab in labels:
        tp = sum(g == lab and p == lab for g, p in zip(gold, pred))
        fp = sum(g != lab and p == lab for g, p in zip(gold, pred))
        fn = sum(g == lab and p != lab for g, p in zip(gold, pred))
        pr = tp / (tp + fp) if tp + fp else None
        rc = tp / (tp + fn) if tp + fn else None
        f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None
        stats[lab] = {"tp": tp, "fp": fp, "fn": fn, "support": tp + fn, "p": pr, "r": rc, "f": f1}
    return stats


def fmt(x: float | None, decimals: int) -> str:
    return "" if x is None else f"{x:.{decimals}f}"


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def paper_tables(tokens: list[Token], inputs: Path) -> None:
    """Per-label tables of system A as papers print them, with averaged rows for audit and convert --table."""
    gold = [t.gold for t in tokens]
    pred = [t.pred["A"] for t in tokens]
    st = per_label_stats(gold, pred, TAGS)
    p = [s["p"] or 0.0 for s in st.values()]
    r = [s["r"] or 0.0 for s in st.values()]
    f = [s["f"] or 0.0 for s in st.values()]
    n = len(gold)
    w = [s["support"] / n for s in st.values()]
    macro_p, macro_r, macro_f = mean(p), mean(r), mean(f)
    fa = 2 * macro_p * macro_r / (macro_p + macro_r)
    acc = sum(g == q for g, q in zip(gold, pred)) / n
    weighted = [sum(a * b for a, b in zip(w, xs)) for xs in (p, r, f)]

    rows: list[list[object]] = [["label", "precision", "recall", "f1", "support"]]
    rows += [[lab, fmt(s["p"], 2), fmt(s["r"], 2), fmt(s["f"], 2), s["support"]] for lab, s in st.items()]
    rows += [["accuracy", "", "", fmt(acc, 2), n]]
    rows += [["macro avg", fmt(macro_p, 2), fmt(macro_r, 2), fmt(macro_f, 2), n]]
    rows += [["weighted avg", *(fmt(x, 2) for x in weighted), n]]
    write(inputs / "paper.csv", lines(rows, ","))
    # the same labels with an FA "macro F1" and a micro row, as a Markdown table without supports
    md = ["| Class | P | R | F1 |", "|---|---|---|---|"]
    md += [f"| {lab} | {fmt(s['p'], 2)} | {fmt(s['r'], 2)} | {fmt(s['f'], 2)} |" for lab, s in st.items()]
    md += [f"| macro | {fmt(macro_p, 2)} | {fmt(macro_r, 2)} | {fmt(fa, 2)} |", f"| micro | | | {fmt(acc, 2)} |"]
    write(inputs / "paper-fa.md", "\n".join(md) + "\n")
    md = ["| class | precision | recall | f1-score | support |", "|---|---:|---:|---:|---:|"]
    md += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows[1 : len(st) + 1]]
    write(inputs / "paper-support.md", "\n".join([*md, f"| macro avg | | | {fmt(macro_f, 2)} | {n} |"]) + "\n")
    # a macro F1 over every label but UH: the label set nobody stated
    kept = [s["f"] or 0.0 for lab, s in st.items() if lab != "UH"]
    rows = [["label", "f1", "support"], *([lab, fmt(s["f"], 3), s["support"]] for lab, s in st.items())]
    write(inputs / "paper-omit.csv", lines([*rows, ["macro", fmt(mean(kept), 3), n]], ","))
    # scikit-learn's classification_report text, four decimals
    report = [f"{'':>14}{'precision':>10}{'recall':>10}{'f1-score':>10}{'support':>10}", ""]
    for lab, s in st.items():
        report.append(f"{lab:>14}{s['p'] or 0:>10.4f}{s['r'] or 0:>10.4f}{s['f'] or 0:>10.4f}{s['support']:>10}")
    report += ["", f"{'accuracy':>14}{'':>10}{'':>10}{acc:>10.4f}{n:>10}"]
    report.append(f"{'macro avg':>14}{macro_p:>10.4f}{macro_r:>10.4f}{macro_f:>10.4f}{n:>10}")
    report.append(f"{'weighted avg':>14}" + "".join(f"{x:>10.4f}" for x in weighted) + f"{n:>10}")
    write(inputs / "paper-report.txt", "\n".join(report) + "\n")
    # Van Asch's Table 8: a results table, one system per row (--all-averages)
    write(
        inputs / "table8.tsv",
        "\tPrecision\tRecall\tF1-score\tAccuracy\n"
        "NORMAL\t78.11%\t71.77%\t73.05%\t92.60%\n"
        "CHANGED\t78.87%\t71.02%\t73.16%\t91.58%\n"
        "UPPER\t90.44%\t71.83%\t76.33%\t93.32%\n",
    )
    write(inputs / "convert-table.csv", "label,precision,recall,f1,support\nA,0.80,0.67,0.73,6\nB,0.60,0.75,0.67,4\n")


def make_inputs(inputs: Path, python: str) -> None:
    """Every input file of the corpus, from :data:`SEED` alone."""
    rng = Rng(SEED)
    tokens = make_tokens(rng)
    sys_names = list(SYSTEMS)

    # one table in every format: id, word, gold, A, B, C, sent, fold (+ conf in JSON Lines and Parquet)
    header = ["id", "word", "gold", *sys_names, "sent", "fold"]
    table = [[i + 1, t.word, t.gold, *(t.pred[s] for s in sys_names), t.sent, t.fold] for i, t in enumerate(tokens)]
    write(inputs / "run.txt", lines([[t.word, t.gold, t.pred["A"]] for t in tokens]))
    write(inputs / "run.tsv", lines([header, *table], "\t"))
    write(inputs / "run.csv", lines([header, *table], ","))
    write(inputs / "run-noheader.csv", lines([[t.gold, t.pred["B"]] for t in tokens], ","))
    write(inputs / "run-semicolon.dat", lines([[t.word, t.gold, t.pred["C"]] for t in tokens], ";"))
    jsonl = [dict(zip(header, row), conf=t.conf) for row, t in zip(table, tokens)]
    write(inputs / "run.jsonl", "".join(json.dumps(obj) + "\n" for obj in jsonl))
    # line ends: \r\n, with a lone \r (old Mac) now and then
    crlf = "".join(f"{t.word} {t.gold} {t.pred['B']}" + ("\r" if i % 17 == 5 else "\r\n") for i, t in enumerate(tokens))
    write(inputs / "crlf.txt", crlf)
    # comment lines and blank lines that are not instances (--skip '^#'), and a TiMBL class distribution
    for name, system in (("comments.txt", "A"), ("comments-B.txt", "B")):
        commented = []
        for i, t in enumerate(tokens):
            if i % 25 == 0:
                commented.append(f"# block {i // 25}")
            if i % 40 == 39:
                commented.append("")
            commented.append(f"{t.word} {t.gold} {t.pred[system]}")
        write(inputs / name, "\n".join(commented) + "\n")
    distributions = [
        f"{t.word} {t.gold} {t.pred['A']} {{ {t.pred['A']} {t.conf:.4f}, {t.gold} {1 - t.conf:.4f} }}" for t in tokens
    ]
    write(inputs / "run-distribution.txt", "\n".join(distributions) + "\n")
    # a gold file and one prediction file per system, one label per line
    write(inputs / "gold.txt", lines([[t.gold] for t in tokens]))
    for s in sys_names:
        write(inputs / f"sys{s}.txt", lines([[t.pred[s]] for t in tokens]))
    write(inputs / "sysA-copy.txt", lines([[t.pred["A"]] for t in tokens]))  # a system identical to A
    near = [t.pred["A"] if i % 45 != 3 else t.gold if t.pred["A"] != t.gold else "NN" for i, t in enumerate(tokens)]
    write(inputs / "sysA-near.txt", lines([[x] for x in near]))  # A, but for 8 instances: an exact test
    # sentences: blank lines between them, or <utt> lines ending them (MBT, TiMBL taggers)
    sents = list(sentences(tokens))
    blank = "\n".join(lines([[t.word, t.gold, t.pred["A"]] for t in s]) for s in sents)
    write(inputs / "sents.txt", blank)
    write(inputs / "utt.txt", "".join(lines([[t.word, t.gold, t.pred["A"]] for t in s]) + "<utt>\n" for s in sents))
    for key, get in [("gold", lambda t: t.gold), *((s, lambda t, s=s: t.pred[s]) for s in sys_names)]:
        write(inputs / f"sents-{key}.txt", "\n".join(lines([[t.word, get(t)] for t in s]) for s in sents))
        write(inputs / f"utt-{key}.txt", "".join(lines([[get(t)] for t in s]) + "<utt>\n" for s in sents))
    # folds as files
    for k in range(1, N_FOLDS + 1):
        write(inputs / f"folds/fold{k}.txt", lines([[t.word, t.gold, t.pred["A"]] for t in tokens if t.fold == k]))
    # parts of one table, each with its own header
    for k in range(3):
        part = [["gold", "pred"], *([t.gold, t.pred["A"]] for t in tokens[k::3])]
        write(inputs / f"parts/part-{k + 1}.csv", lines(part, ","))
    # training data: a label only seen in training (FW)
    train = [
        (rng.choice(WORDS[tag]) if tag != "FW" else "etc", tag)
        for tag in (rng.weighted([*TAGS, "FW"], [*TAG_WEIGHTS, 3]) for _ in range(600))
    ]
    write(inputs / "train.txt", lines(train))
    write(inputs / "train.csv", lines([("word", "label"), *train], ","))
    write(inputs / "train-semicolon.dat", lines(train, ";"))
    write(inputs / "labels.txt", "VB\nNN\nDT\nJJ\nIN\nRB\nPRP\nCC\nUH\nFW\nZZ\n")  # ZZ never occurs
    write(inputs / "labels-few.txt", "NN\nVB\nDT\n")
    write(inputs / "translate.txt", "# coarse tags\nJJ > ADJ\nRB > ADV\n\nXX > YY\n")  # XX > YY is never used
    # real-valued predictions (an SVM's decision values) for --cutoff; one exactly at the cut-off
    svm, svm_named = [], []
    for i in range(120):
        gold = "+1" if rng.random() < 0.4 else "-1"
        value = 0.0 if i == 7 else round((0.8 if gold == "+1" else -0.6) + 1.4 * (rng.random() - 0.5), 3)
        svm.append((f"x{i}", gold, value))
        svm_named.append(("POS" if gold == "+1" else "NEG", round(value + 0.5, 3)))
    write(inputs / "svm.txt", lines(svm))
    write(inputs / "svm-named.txt", lines(svm_named))
    # confusion matrices: rows gold; and Takahashi et al.'s, rows predicted
    matrix_labels = ["NN", "VB", "DT", "JJ"]
    cells = [[sum(t.gold == g and t.pred["A"] == p for t in tokens) for p in matrix_labels] for g in matrix_labels]
    write(
        inputs / "matrix.csv", lines([["", *matrix_labels], *([g, *row] for g, row in zip(matrix_labels, cells))], ",")
    )
    write(inputs / "matrix-predicted.csv", ",1,2,3\n1,2,3,1\n2,4,70,3\n3,1,1,15\n")
    # finagle: TiMBL +v di output (features, gold, predicted, distance) and a CSV with confidences
    write(inputs / "timbl.out", lines([[t.word, t.sent % 5, t.gold, t.pred["A"], f"{t.dist:.4f}"] for t in tokens]))
    conf_rows = [["gold", "pred", "conf"], *([t.gold, t.pred["B"], f"{t.conf:.4f}"] for t in tokens)]
    write(inputs / "conf.csv", lines(conf_rows, ","))
    # multi-label: comma-separated label sets (empty cells, duplicates), '|'-separated, JSON lists
    ml = make_label_sets(rng)
    ml_rows: list[list[object]] = [["gold", "A", "B", "fold"]]
    ml_rows += [
        [",".join(g), ",".join(a), ",".join(b), f] for g, a, b, f in zip(ml.gold, ml.pred["A"], ml.pred["B"], ml.fold)
    ]
    write(inputs / "ml.tsv", lines(ml_rows, "\t"))
    for name, system in (("ml-pipe.csv", "A"), ("ml-pipe-B.csv", "B")):
        pipe = [["gold", "pred"], *(["|".join(g), "|".join(p)] for g, p in zip(ml.gold, ml.pred[system]))]
        write(inputs / name, lines(pipe, ","))
    ml_jsonl = "".join(json.dumps({"gold": g, "pred": a}) + "\n" for g, a in zip(ml.gold, ml.pred["A"]))
    write(inputs / "ml.jsonl", ml_jsonl)
    write(inputs / "ml-train.txt", lines([[",".join(g) if g else "sports"] for g in ml.gold[::2]]))
    write(inputs / "ml-labels.txt", "\n".join([*TOPICS, "science"]) + "\n")
    # many labels (more than 100: sparse JSON matrix, counts/2)
    many_labels = [f"L{i:03d}" for i in range(150)]
    many = [["gold", "pred"]]
    for _ in range(1500):
        g = many_labels[min(int(150 * rng.random() ** 2), 149)]
        many.append([g, g if rng.random() < 0.7 else rng.choice(many_labels)])
    write(inputs / "many.tsv", lines(many, "\t"))
    # labels a spreadsheet or LaTeX would take for code
    hostile = ["=SUM(A1)", "+1", "-x", "@home", "a,b", 'say "hi"', "R&D 50%", "naïve_#1"]
    special = [["gold", "pred"]]
    for i in range(60):
        g = hostile[i % len(hostile)]
        special.append([csv_cell(g), csv_cell(g if i % 3 else hostile[(i * 5) % len(hostile)])])
    write(inputs / "special.csv", lines(special, ","))
    paper_tables(tokens, inputs)
    write(
        inputs / "paper-ml.csv",
        "label,precision,recall,f1,support\nsports,0.80,0.75,0.77,40\ntech,0.60,0.50,0.55,20\n"
        "arts,0.50,0.40,0.44,10\nmicro avg,0.71,0.64,0.67,70\nmacro avg,0.63,0.55,0.59,70\n",
    )
    # bad inputs
    write(inputs / "bad/short.txt", "w1 A A\nw2 B\nw3\n")
    write(inputs / "bad/conf.txt", "A A 0.9\nA B 0.2\nB B high\nB B 0.7\n")
    write(inputs / "bad/noaverages.csv", "label,precision,recall,f1\nA,0.5,0.5,0.5\n")
    write(inputs / "bad/nulls.jsonl", '{"gold": ["a", null], "pred": ["a"]}\n')
    write(inputs / "bad/translate.txt", "JJ > ADJ\nJJ > NN\n")
    write(inputs / "bad/matrix.csv", ",A,B\nA,1,x\nB,2,3\n")
    write(inputs / "bad/table.csv", "label,precision,recall\nA,0.8,x\n")
    make_kind_inputs(inputs, tokens, ml)
    # Parquet, written by the CLI's interpreter (polars), from the JSON Lines above
    parquet = f"""
import json, polars as pl
rows = [json.loads(x) for x in open({str(inputs / "run.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(rows).write_parquet({str(inputs / "run.parquet")!r}, statistics=False)
ml = [json.loads(x) for x in open({str(inputs / "ml.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(ml, schema={{"gold": pl.List(pl.String), "pred": pl.List(pl.String)}}).write_parquet(
    {str(inputs / "ml.parquet")!r}, statistics=False)
binary = [json.loads(x) for x in open({str(inputs / "scored/bin.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(binary).write_parquet({str(inputs / "scored/bin.parquet")!r}, statistics=False)
mc = [json.loads(x) for x in open({str(inputs / "scored/mc.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(mc, schema={{"gold": pl.String, "probs": pl.List(pl.Float64)}}).write_parquet(
    {str(inputs / "scored/mc.parquet")!r}, statistics=False)
"""
    subprocess.run([python, "-c", parquet], check=True)


# ---------------------------------------------------------------------------------------------------------------
# Inputs of spans (taggers, NER) and of scored predictions (probabilities, scores), and the Python API's data
# ---------------------------------------------------------------------------------------------------------------

SPAN_SEED = SEED + 1  # the span inputs' own stream: the label inputs above stay as they were
SCORED_SEED = SEED + 2
SPAN_TYPES = ["PER", "LOC", "ORG", "MISC"]
SPAN_TYPE_WEIGHTS = [4, 3, 2, 1]
SPAN_WORDS = ["Ann", "Paris", "ACME", "Euro", "the", "met", "in", "and", "said", "of", "big", "news", "Bo", "Oslo"]
SPAN_SYSTEMS = {"A": 0.8, "B": 0.6}  # the share of gold spans each tagger gets exactly right
SCHEMES = ("iob1", "iob2", "ioe1", "ioe2", "iobes", "bilou")
N_SPAN_SENTENCES = 96  # 24 documents of 4 sentences: --unit auto takes documents (20 or more)
SPAN_DOC_EVERY = 4
CLASSES = ["cat", "dog", "owl"]
ML_LABELS = ["L1", "L2", "L3", "L4"]

Span = tuple[int, int, str]  # start, end (one past the last token), type


@dataclass
class SpanSentence:
    words: list[str]
    gold: list[Span]
    pred: dict[str, list[Span]]


def other_type(rng: Rng, typ: str) -> str:
    return str(rng.choice([t for t in SPAN_TYPES if t != typ]))


def tagger_spans(rng: Rng, gold: list[Span], n: int, keep: float) -> list[Span]:
    """A tagger's spans: gold spans kept, missed, retyped or moved at a boundary, and spurious ones."""
    spans: list[Span] = []
    for start, end, typ in gold:
        x = rng.random()
        if x < keep:
            spans.append((start, end, typ))
        elif x < keep + 0.25 * (1 - keep):
            continue  # missed
        elif x < keep + 0.55 * (1 - keep):
            spans.append((start, end, other_type(rng, typ)))
        else:  # wrong boundaries (and now and then the type too)
            if end - start > 1 and rng.random() < 0.5:
                end -= 1
            elif end < n:
                end += 1
            elif start > 0:
                start -= 1
            spans.append((start, end, typ if rng.random() < 0.7 else other_type(rng, typ)))
    for i in range(n):
        if rng.random() < 0.04:
            spans.append((i, i + 1, rng.weighted(SPAN_TYPES, SPAN_TYPE_WEIGHTS)))  # spurious
    taken = [False] * n
    kept = []
    for start, end, typ in spans:
        if not any(taken[start:end]):
            kept.append((start, end, typ))
            taken[start:end] = [True] * (end - start)
    return sorted(kept)


def make_span_sentences(rng: Rng) -> list[SpanSentence]:
    out = []
    for _ in range(N_SPAN_SENTENCES):
        n = 2 + rng.below(11)
        words = [rng.choice(SPAN_WORDS) for _ in range(n)]
        gold: list[Span] = []
        i = 0
        while i < n:
            if rng.random() < 0.22:
                typ = rng.weighted(SPAN_TYPES, SPAN_TYPE_WEIGHTS)
                length = min(1 + rng.below(3), n - i)
                gold.append((i, i + length, typ))
                i += length
                if i < n and rng.random() < 0.25:  # an adjacent span of the same type: IOB1's B-, IOE1's E-
                    length = min(1 + rng.below(2), n - i)
                    gold.append((i, i + length, typ))
                    i += length
            else:
                i += 1
        pred = {name: tagger_spans(rng, gold, n, keep) for name, keep in SPAN_SYSTEMS.items()}
        out.append(SpanSentence(words, gold, pred))
    return out


def encode(spans: Sequence[Span], n: int, scheme: str) -> list[str]:
    """The tags of ``spans`` under ``scheme`` (one of :data:`SCHEMES`)."""
    tags = ["O"] * n
    ends = {end: typ for _, end, typ in spans}
    starts = {start: typ for start, _, typ in spans}
    for start, end, typ in spans:
        for i in range(start, end):
            first, last = i == start, i == end - 1
            if scheme == "iob2":
                prefix = "B" if first else "I"
            elif scheme == "iob1":
                prefix = "B" if first and ends.get(start) == typ else "I"
            elif scheme == "ioe2":
                prefix = "E" if last else "I"
            elif scheme == "ioe1":
                prefix = "E" if last and starts.get(end) == typ else "I"
            elif scheme == "iobes":
                prefix = "S" if first and last else "B" if first else "E" if last else "I"
            else:  # bilou
                prefix = "U" if first and last else "B" if first else "L" if last else "I"
            tags[i] = f"{prefix}-{typ}"
    return tags


def with_invalid_transitions(rng: Rng, tags: list[str]) -> list[str]:
    """IOB2 tags with now and then an invalid transition: ``O I-X`` (a B- made I-) or ``I-X I-Y``."""
    tags = list(tags)
    if rng.random() < 0.15:
        for i, tag in enumerate(tags):
            if tag.startswith("B-"):
                tags[i] = "I-" + tag[2:]
                break
    if rng.random() < 0.1:
        for i in range(1, len(tags)):
            if tags[i].startswith("I-") and tags[i - 1][2:] == tags[i][2:]:
                tags[i] = "I-" + other_type(rng, tags[i][2:])
                break
    return tags


def conll(sentences: Sequence[Sequence[Sequence[str]]], docstart_every: int = 0, columns: int = 1) -> str:
    """CoNLL text: a line of fields per token, a blank line after each sentence, -DOCSTART- lines if asked."""
    out = []
    for k, sentence in enumerate(sentences):
        if docstart_every and k % docstart_every == 0:
            out.append(" ".join(["-DOCSTART-", *(["O"] * columns)]) + "\n\n")
        out.append("".join(" ".join(fields) + "\n" for fields in sentence) + "\n")
    return "".join(out)


def make_span_inputs(inputs: Path) -> dict[str, Any]:
    """CoNLL files, JSON Lines and fold files of a gold column and two taggers; returns the API's span data."""
    rng = Rng(SPAN_SEED)
    sents = make_span_sentences(rng)
    d = inputs / "spans"
    gold = [encode(s.gold, len(s.words), "iob2") for s in sents]
    pred = {
        name: [with_invalid_transitions(rng, encode(s.pred[name], len(s.words), "iob2")) for s in sents]
        for name in SPAN_SYSTEMS
    }
    rows = [list(zip(s.words, g, a, b)) for s, g, a, b in zip(sents, gold, pred["A"], pred["B"])]
    write(d / "ner.conll", conll(rows, SPAN_DOC_EVERY, 3))  # word gold A B, 24 documents
    write(d / "ner-nodoc.conll", conll([[r[:3] for r in s] for s in rows]))  # word gold A, sentences only
    for col, name in ((1, "gold"), (2, "A"), (3, "B")):
        write(d / f"{name}.conll", conll([[(r[0], r[col]) for r in s] for s in rows], SPAN_DOC_EVERY))
    write(d / "utt.conll", "".join("".join(" ".join(r[:3]) + "\n" for r in s) + "<utt>\n" for s in rows))
    for scheme in SCHEMES:  # each scheme's own valid tags: word gold A
        tagged = [
            list(zip(s.words, encode(s.gold, len(s.words), scheme), encode(s.pred["A"], len(s.words), scheme)))
            for s in sents
        ]
        write(d / f"{scheme}.conll", conll(tagged))
    for k in range(3):
        write(d / f"fold{k + 1}.conll", conll([[r[:3] for r in s] for s in rows[k::3]]))
    jsonl = [{"tokens": s.words, "gold": g, "A": a, "B": b} for s, g, a, b in zip(sents, gold, pred["A"], pred["B"])]
    write(d / "ner.jsonl", "".join(json.dumps(x) + "\n" for x in jsonl))

    def entities(spans: Sequence[Span]) -> list[dict[str, Any]]:
        return [{"start": s, "end": e, "type": t} for s, e, t in spans]

    ents = [{"gold": entities(s.gold), "pred": entities(s.pred["A"])} for s in sents]
    write(d / "entities.jsonl", "".join(json.dumps(x) + "\n" for x in ents))
    write(d / "types.txt", "PER\nLOC\nORG\nMISC\nEVENT\n")  # EVENT never occurs
    # issue 37's sign-test case: A misses PER in 10 of 15 sentences, B finds it and adds two LOC spans there
    sign = {
        "gold": [["B-PER", "O", "O"]] * 15,
        "A": [["O", "O", "O"]] * 10 + [["B-PER", "O", "O"]] * 5,
        "B": [["B-PER", "B-LOC", "B-LOC"]] * 10 + [["B-PER", "O", "O"]] * 5,
    }
    for name, tags in sign.items():
        write(d / f"sign-{name}.conll", conll([[(f"w{j}", t) for j, t in enumerate(s)] for s in tags]))
    # tokens and types a spreadsheet would run as formulas (--format csv, --errors)
    hostile = [
        [("=cmd|'/Ccalc'!A0", "B-=2+2", "B-=2+2"), ("x", "O", "B-@SUM")],
        [("+1", "B-PER", "B-LOC"), ("-2", "I-PER", "I-LOC"), ("@x", "O", "O")],
        [("y", "B-a,b", "B-a,b"), ('"q"', "I-a,b", "O")],
    ]
    write(d / "hostile.conll", conll(hostile))
    write(d / "bad-prefix.conll", "a PER PER\nb O O\n")
    return {
        "gold": gold,
        "A": pred["A"],
        "B": pred["B"],
        "folds": [k % 3 for k in range(len(sents))],
        "entities_gold": [entities(s.gold) for s in sents],
        "entities_A": [[[st, en, ty] for st, en, ty in s.pred["A"]] for s in sents],
        "sign": sign,
    }


def normal(rng: Rng) -> float:
    """A standard normal draw (Box–Muller) from :meth:`Rng.random` alone."""
    return math.sqrt(-2.0 * math.log(1.0 - rng.random())) * math.cos(2.0 * math.pi * rng.random())


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def distribution(logits: Sequence[float], total: int) -> list[int]:
    """Softmax probabilities as whole parts of ``total`` that sum to ``total`` exactly (the largest takes the rest)."""
    m = max(logits)
    e = [math.exp(x - m) for x in logits]
    parts = [round(total * x / sum(e)) for x in e]
    top = parts.index(max(parts))
    parts[top] += total - sum(parts)
    return parts


def decimals(parts: Sequence[int], total: int) -> list[str]:
    places = len(str(total)) - 1
    return [f"{p / total:.{places}f}" for p in parts]


def make_scored_inputs(inputs: Path) -> dict[str, Any]:
    """Binary, multi-class and multi-label scores of two or three systems, in blocks and folds; the API's data."""
    rng = Rng(SCORED_SEED)
    d = inputs / "scored"
    # binary: 200 instances in 40 documents of 5 (a document effect: blocks matter), three probability columns
    # (4, 2 and 3 decimals: ties), a margin and two distances (lower is more confident)
    head = ["id", "gold", "doc", "fold", "a", "b", "c", "m", "dist", "dist_b"]
    binary: list[list[object]] = []
    effect = 0.0
    for i in range(200):
        positive = rng.random() < 0.4
        sign = 1.0 if positive else -1.0
        doc = i // 5 + 1
        if i % 5 == 0:
            effect = 0.6 * normal(rng)
        la = 1.2 * sign + effect + normal(rng)
        lb = 0.6 * sign + effect + normal(rng)
        lc = 0.9 * sign + normal(rng)
        binary.append([
            i + 1, "pos" if positive else "neg", doc, i % 3 + 1, f"{sigmoid(la):.4f}", f"{sigmoid(lb):.2f}",
            f"{sigmoid(lc):.3f}", f"{la:.3f}", f"{math.exp(-la):.4f}", f"{math.exp(-lb):.4f}",
        ])  # fmt: skip
    write(d / "bin.csv", lines([head, *binary], ","))
    write(d / "bin.jsonl", "".join(json.dumps(dict(zip(head, row))) + "\n" for row in binary))
    short = [[r[1], r[4], r[5]] for r in binary]
    blank = "gold,a,b\n" + "\n".join(lines(short[k : k + 5], ",") for k in range(0, 200, 5))
    write(d / "bin-blank.csv", blank)
    write(d / "bin-utt.csv", "gold,a,b\n" + "".join(lines(short[k : k + 5], ",") + "<utt>\n" for k in range(0, 200, 5)))
    write(d / "bin-part1.csv", lines([head, *binary[:120]], ","))
    write(d / "bin-part2.csv", lines([head, *binary[120:]], ","))
    for k in range(3):
        write(d / f"bin-fold{k + 1}.csv", lines([head, *(r for r in binary if r[3] == k + 1)], ","))
    # issue 37's seams: classes 9 and 10 (numbers, not strings); a probability just above 1 (float round-off)
    nine = []
    for _ in range(40):
        ten = rng.random() < 0.5
        nine.append([10 if ten else 9, f"{sigmoid((1.5 if ten else -1.5) + normal(rng)):.3f}"])
    write(d / "bin-9-10.csv", lines([["gold", "s"], *nine], ","))
    roundoff: list[list[object]] = [["gold", "p"], *([r[1], r[4]] for r in binary[:30])]
    roundoff[5][1] = "1.0000000000000002"
    write(d / "bin-roundoff.csv", lines(roundoff, ","))

    # multi-class: 180 instances of cat, dog, owl; system A in millionths, system B in hundredths (ties, zeros)
    mc_head = ["id", "gold", "doc", "fold", *(f"p_{c}" for c in CLASSES), *(f"q_{c}" for c in CLASSES)]
    mc, mc_gold, mc_p, mc_q = [], [], [], []
    effect = 0.0
    for i in range(180):
        y = rng.weighted([0, 1, 2], [3, 2, 1])
        if i % 6 == 0:
            effect = 0.5 * normal(rng)
        p = distribution([normal(rng) + (1.6 + effect) * (k == y) for k in range(3)], 1_000_000)
        q = distribution([1.3 * normal(rng) + 1.0 * (k == y) for k in range(3)], 100)
        mc.append([i + 1, CLASSES[y], i // 6 + 1, i % 3 + 1, *decimals(p, 1_000_000), *decimals(q, 100)])
        mc_gold.append(CLASSES[y])
        mc_p.append([float(x) for x in decimals(p, 1_000_000)])
        mc_q.append([float(x) for x in decimals(q, 100)])
    write(d / "mc.csv", lines([mc_head, *mc], ","))
    write(d / "mc-part1.csv", lines([mc_head, *mc[:100]], ","))
    write(d / "mc-part2.csv", lines([mc_head, *mc[100:]], ","))
    for k in range(3):
        write(d / f"mc-fold{k + 1}.csv", lines([mc_head, *(r for r in mc if r[3] == k + 1)], ","))
    write(d / "mc.jsonl", "".join(json.dumps({"gold": g, "probs": ps}) + "\n" for g, ps in zip(mc_gold, mc_p)))
    write(d / "classes.txt", "\n".join(CLASSES) + "\n")
    write(d / "classes-reordered.txt", "owl\ncat\ndog\n")  # issue 37: columns are matched by name, not position
    timbl = []
    for i, (g, row) in enumerate(zip(mc_gold, mc_q)):
        shown = ", ".join(f"{c} {v:g}" for c, v in zip(CLASSES, row) if v > 0)  # TiMBL leaves zeros out
        timbl.append(f"f{i % 7} f{i % 3} {g} {CLASSES[row.index(max(row))]} {{ {shown} }}")
    write(d / "mc-timbl.txt", "\n".join(timbl) + "\n")
    # twelve classes named 0 … 11: ordered as numbers, not as strings (issue 37)
    twelve, twelve_gold, twelve_p = [], [], []
    for i in range(72):
        y = i % 12
        p = distribution([normal(rng) + 2.5 * (k == y) for k in range(12)], 10_000)
        twelve.append([y, *decimals(p, 10_000)])
        twelve_gold.append(y)
        twelve_p.append([float(x) for x in decimals(p, 10_000)])
    write(d / "mc12.csv", lines([["gold", *(f"p_{k}" for k in range(12))], *twelve], ","))

    # multi-label: 150 instances, four labels (empty gold sets, and one instance with every label)
    ml_head = ["gold", *(f"a_{x}" for x in ML_LABELS), *(f"b_{x}" for x in ML_LABELS)]
    ml, ml_gold, ml_a, ml_b = [], [], [], []
    for i in range(150):
        has = [i == 0 or rng.random() < w for w in (0.5, 0.35, 0.25, 0.15)]
        a = [f"{sigmoid((1.4 if h else -1.4) + normal(rng)):.3f}" for h in has]
        b = [f"{sigmoid((0.7 if h else -0.7) + normal(rng)):.2f}" for h in has]
        gold_set = [x for x, h in zip(ML_LABELS, has) if h]
        ml.append([";".join(gold_set), *a, *b])
        ml_gold.append(gold_set)
        ml_a.append([float(x) for x in a])
        ml_b.append([float(x) for x in b])
    write(d / "ml.csv", lines([ml_head, *ml], ","))
    for k in range(2):
        write(d / f"ml-fold{k + 1}.csv", lines([ml_head, *ml[k::2]], ","))
    return {
        "binary": {
            "gold": [r[1] for r in binary],
            "gold01": [int(r[1] == "pos") for r in binary],
            **{key: [float(str(r[head.index(key)])) for r in binary] for key in ("a", "b", "c", "m", "dist", "dist_b")},
            "blocks": [r[2] for r in binary],
            "folds": [r[3] for r in binary],
        },
        "nine_ten": {"gold": [r[0] for r in nine], "s": [float(r[1]) for r in nine]},
        "multiclass": {
            "gold": mc_gold,
            "classes": CLASSES,
            "P": mc_p,
            "Q": mc_q,
            "blocks": [r[2] for r in mc],
            "folds": [r[3] for r in mc],
        },
        "twelve": {"gold": twelve_gold, "P": twelve_p},
        "multilabel": {
            "gold": ml_gold,
            "labels": ML_LABELS,
            "A": ml_a,
            "B": ml_b,
            "folds": [i % 2 for i in range(150)],
        },
    }


def make_kind_inputs(inputs: Path, tokens: list[Token], ml: LabelSets) -> None:
    """The span and scored inputs, and ``inputs/api.json``: the data every Python API case reads."""
    data = {
        "labels": {
            "gold": [t.gold for t in tokens],
            **{s: [t.pred[s] for t in tokens] for s in SYSTEMS},
            "blocks": [t.sent for t in tokens],
            "folds": [t.fold for t in tokens],
        },
        "labelsets": {"gold": ml.gold, "A": ml.pred["A"], "B": ml.pred["B"], "folds": ml.fold},
        "spans": make_span_inputs(inputs),
        **make_scored_inputs(inputs),
    }
    write(inputs / "api.json", json.dumps(data, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------------------------------------------
# The corpus: one command line per run (shell quoting, without the leading "clfeval"), paths relative to OUTDIR
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Run:
    name: str
    args: list[str]
    expect: int = 0  # the exit code the run should have (generate warns otherwise)
    stdin: str | None = None  # a file under OUTDIR fed to standard input
    env: dict[str, str] = field(default_factory=dict)  # added to the fixed environment

    @property
    def output_file(self) -> str | None:
        """The -o target, if the run writes one (its content is stored as the run's output)."""
        for flag in ("-o", "--output"):
            if flag in self.args[:-1]:
                return self.args[self.args.index(flag) + 1]
        return None

    @property
    def format(self) -> str:
        if self.args[:1] == ["count"]:
            return "json"
        return self.args[self.args.index("--format") + 1] if "--format" in self.args[:-1] else "text"

    @property
    def extension(self) -> str:
        return EXTENSIONS.get(self.format, "out")

    @property
    def kind(self) -> str:
        """What the run evaluates: labels, spans or scores (convert, audit and finagle: the command)."""
        text = " ".join(self.args)
        if self.name.startswith("spans-") or "--spans" in self.args or "counts/spans-" in text:
            return "spans"
        if self.name.startswith("scored-") or "--scores" in self.args or "counts/scored-" in text:
            return "scores"
        return self.args[0] if self.args and self.args[0] in ("convert", "audit", "finagle") else "labels"

    @property
    def extra_outputs(self) -> list[str]:
        """Files the run writes besides its output (``--errors FILE``), stored and compared as text."""
        return [self.args[i + 1] for i, a in enumerate(self.args[:-1]) if a == "--errors"]


def run(name: str, command: str, expect: int = 0, stdin: str | None = None, **env: str) -> Run:
    return Run(name, shlex.split(command), expect, stdin, env)


J = "--format json"
RESAMPLES = "--resamples 200 --seed 7"  # bootstrap intervals: a fixed seed and few resamples, fast and repeatable
ROUNDS = "--rounds 500 --seed 11"  # randomization and bootstrap tests
CI_METHODS = ("none", "delta", "delta-logit", "bootstrap", "bootstrap-bca")
RUN = "inputs/run.txt"  # word, gold, system A: TiMBL's layout
TSV = "inputs/run.tsv --gold-col gold --pred-col A"
GB = "inputs/gold.txt inputs/sysB.txt"  # system B never predicts UH: a 0/0 precision
ML = "inputs/ml.tsv --multilabel --gold-col gold --pred-col A"
SYSTEMS3 = "inputs/gold.txt inputs/sysA.txt inputs/sysB.txt inputs/sysC.txt"
SYSTEMS2 = "inputs/gold.txt inputs/sysA.txt inputs/sysB.txt"
FOLDS = " ".join(f"inputs/folds/fold{k}.txt" for k in range(1, N_FOLDS + 1))
FOLD_COL = "inputs/run.tsv --fold-col fold --gold-col gold --pred-col A"
FOLD_COUNTS = "--counts " + " ".join(f"inputs/counts/fold{k}.json" for k in range(1, N_FOLDS + 1))
TIMBL = "inputs/timbl.out --lower-is-more-confident"
CONF = "inputs/conf.csv --gold-col gold --pred-col pred --conf-col conf"
SPECIAL = "inputs/special.csv --gold-col gold --pred-col pred"
MANY = "inputs/many.tsv --gold-col gold --pred-col pred"


def count_runs() -> list[Run]:
    """``clfeval count`` runs whose count files later runs read (they run first)."""
    c = "-o inputs/counts"
    return [
        *(run(f"count-part-{k}", f"count inputs/parts/part-{k}.csv --gold-col gold --pred-col pred {c}/part-{k}.json")
          for k in (1, 2, 3)),
        *(run(f"count-fold{k}", f"count inputs/folds/fold{k}.txt {c}/fold{k}.json") for k in range(1, N_FOLDS + 1)),
        run("count-joint", "count inputs/run.tsv --header --gold-col gold --pred-col A --pred-col B --pred-col C "
            f"{c}/joint.json"),
        run("count-joint-named", "count inputs/run.parquet --gold-col gold --pred-col A --pred-col B --name alpha "
            f"--name beta {c}/joint-named.json"),
        run("count-multilabel", f"count {ML} {c}/ml.json"),
        run("count-multilabel-joint", f"count {ML} --pred-col B {c}/ml-joint.json"),
        run("count-many", f"count {MANY} {c}/many.json"),
        run("count-gold-pred", f"count {GB} {c}/gold-B.json"),
        run("count-translate", f"count {RUN} --translate inputs/translate.txt {c}/translated.json"),
    ]  # fmt: skip


def score_runs() -> list[Run]:
    runs = [
        # inputs and layouts
        run("score-text", f"score {RUN} {J}"),
        run("score-tsv", f"score {TSV} {J}"),
        run("score-tsv-col-numbers", f"score inputs/run.tsv --header --gold-col 3 --pred-col -4 {J}"),
        run("score-csv", f"score inputs/run.csv --gold-col gold --pred-col B {J}"),
        run("score-csv-no-header", f"score inputs/run-noheader.csv --no-header {J}"),
        run("score-semicolon", f"score inputs/run-semicolon.dat --input-format csv --sep ';' --no-header {J}"),
        run("score-jsonl", f"score inputs/run.jsonl --gold-col gold --pred-col C {J}"),
        run("score-parquet", f"score inputs/run.parquet --input-format parquet --gold-col gold --pred-col A {J}"),
        run("score-gold-pred", f"score inputs/gold.txt inputs/sysA.txt {J}"),
        run("score-stdin", f"score - {J}", stdin=RUN),
        run("score-glob", f"score 'inputs/parts/part-*.csv' --gold-col gold --pred-col pred {J}"),
        run("score-parts", "score --parts inputs/parts/part-1.csv inputs/parts/part-2.csv --gold-col gold "
            f"--pred-col pred {J}"),
        run("score-crlf", f"score inputs/crlf.txt {J}"),
        run("score-skip", f"score inputs/comments.txt --skip '^#' {J}"),
        run("score-distribution", f"score inputs/run-distribution.txt {J}"),
        run("score-keep-trailing", f"score inputs/run-distribution.txt --keep-trailing --gold-col 2 --pred-col 3 {J}"),
        run("score-translate", f"score {RUN} --translate inputs/translate.txt --train inputs/train.txt {J}"),
        run("score-cutoff", f"score inputs/svm.txt --cutoff 0 {J}"),
        run("score-cutoff-labels", f"score inputs/svm-named.txt --cutoff 0.5 --above POS --below NEG --ci delta {J}"),
        run("score-small-chunks", f"score inputs/run.tsv --gold-col gold --pred-col B {J}", CLFEVAL_CHUNK_BYTES="97"),
        run("score-small-chunks-blocks", f"score inputs/sents.txt --blocks blank-line --ci bootstrap {RESAMPLES} {J}",
            CLFEVAL_CHUNK_BYTES="64"),
        run("score-special-labels", f"score {SPECIAL} {J}"),
        run("score-many-labels", f"score {MANY} {J}"),
        run("score-many-labels-delta", f"score {MANY} --ci delta --no-matrix {J}"),
        run("score-engine-dask", f"score {TSV} --engine dask {J}"),
        # output formats
        run("score-text-default", f"score {RUN} --train inputs/train.txt"),
        run("score-format-text", f"score {RUN} --ci delta --format text --digits 6"),
        run("score-format-markdown", f"score {RUN} --ci delta --format markdown"),
        run("score-format-csv", f"score {RUN} --ci bootstrap {RESAMPLES} --format csv"),
        run("score-format-latex", f"score {RUN} --ci delta-logit --format latex --digits 3"),
        run("score-format-html", f"score {RUN} --ci delta --format html"),
        run("score-special-csv", f"score {SPECIAL} --format csv"),
        run("score-special-raw-csv", f"score {SPECIAL} --format csv --raw-csv"),
        run("score-special-latex", f"score {SPECIAL} --format latex"),
        run("score-no-matrix", f"score {RUN} --no-matrix {J}"),
        run("score-output-file", f"score {RUN} --ci delta {J} -o out/score.json"),
        # label sets and training data
        run("score-labels-file", f"score {RUN} --labels inputs/labels.txt {J}"),
        run("score-labels-few", f"score {RUN} --labels inputs/labels-few.txt {J}"),
        run("score-labels-from-gold", f"score inputs/run.tsv --gold-col gold --pred-col C --labels-from gold {J}"),
        run("score-labels-from-train", f"score {RUN} --train inputs/train.txt --labels-from train {J}"),
        run("score-labels-from-file", f"score {RUN} --labels inputs/labels.txt --labels-from file "
            f"--train inputs/train.txt {J}"),
        run("score-train", f"score {RUN} --train inputs/train.txt {J}"),
        run("score-train-col-name", f"score {TSV} --train inputs/train.csv --train-col label {J}"),
        run("score-train-header", f"score {RUN} --train inputs/train.csv --train-header --train-col 2 {J}"),
        run("score-train-format", f"score {RUN} --train inputs/train-semicolon.dat --train-format csv --train-sep ';' "
            f"--no-train-header {J}"),
        # β, 0/0 and undefined ratios
        run("score-beta-0.5", f"score {RUN} --beta 0.5 {J}"),
        run("score-beta-2", f"score {RUN} --beta 2 --ci delta {J}"),
        run("score-zero-division-0", f"score inputs/sysB.txt inputs/gold.txt --zero-division 0 {J}"),
        run("score-zero-division-1", f"score {GB} --labels inputs/labels.txt --zero-division 1 {J}"),
        run("score-zero-division-nan", f"score {GB} --labels inputs/labels.txt --zero-division nan {J}"),
        run("score-zero-division-nan-ci", f"score {GB} --labels inputs/labels.txt --zero-division nan --ci delta {J}"),
        run("score-undefined-exclude", f"score {GB} --labels inputs/labels.txt --undefined exclude {J}"),
        run("score-undefined-exclude-nan", f"score {GB} --labels inputs/labels.txt --zero-division nan "
            f"--undefined exclude --ci bootstrap {RESAMPLES} {J}"),
        run("score-undefined-exclude-text", f"score {GB} --labels inputs/labels.txt --zero-division nan "
            "--undefined exclude"),
        # a confusion matrix as input
        run("score-matrix-gold", "score --matrix inputs/matrix.csv --matrix-rows gold --ci bootstrap-bca "
            f"{RESAMPLES} {J}"),
        run("score-matrix-predicted", "score --matrix inputs/matrix-predicted.csv --matrix-rows predicted "
            f"--ci delta {J}"),
        run("score-matrix-predicted-text", "score --matrix inputs/matrix-predicted.csv --matrix-rows predicted "
            "--ci delta"),
        # count files
        run("score-counts-parts", f"score --counts inputs/counts/part-1.json inputs/counts/part-2.json "
            f"inputs/counts/part-3.json {J}"),
        run("score-counts-glob", f"score --counts 'inputs/counts/part-*.json' --ci bootstrap {RESAMPLES} {J}"),
        run("score-counts-labels", f"score {FOLD_COUNTS} --labels inputs/labels.txt --ci delta {J}"),
        run("score-counts-train", f"score --counts inputs/counts/gold-B.json --train inputs/train.txt {J}"),
        run("score-counts-multilabel", f"score --counts inputs/counts/ml.json --ci delta {J}"),
        run("score-counts-many", f"score --counts inputs/counts/many.json {J}"),
        # multi-label
        run("score-ml", f"score {ML} {J}"),
        run("score-ml-empty-label", f"score {ML} --empty label {J}"),
        run("score-ml-collapse", f"score {ML} --duplicates collapse {J}"),
        run("score-ml-keep-empty-label", f"score inputs/ml.tsv --multilabel --gold-col gold --pred-col B "
            f"--duplicates keep --empty label {J}"),
        run("score-ml-pipe", "score inputs/ml-pipe.csv --gold-col gold --pred-col pred --multilabel "
            f"--label-sep '|' {J}"),
        run("score-ml-jsonl", f"score inputs/ml.jsonl --gold-col gold --pred-col pred --multilabel {J}"),
        run("score-ml-parquet", "score inputs/ml.parquet --gold-col gold --pred-col pred --multilabel "
            f"--duplicates collapse {J}"),
        run("score-ml-labels", f"score {ML} --labels inputs/ml-labels.txt --zero-division nan {J}"),
        run("score-ml-train", f"score {ML} --train inputs/ml-train.txt --train-col -1 {J}"),
        run("score-ml-beta", f"score {ML} --beta 2 --undefined exclude {J}"),
        run("score-ml-csv", f"score {ML} --format csv"),
        run("score-ml-markdown", f"score {ML} --ci delta --format markdown"),
        # intervals: other confidence levels and seeds, and text reports
        run("score-ci-bootstrap-confidence", f"score {RUN} --ci bootstrap --confidence 0.9 {RESAMPLES} {J}"),
        run("score-ci-bca-confidence", f"score {RUN} --ci bootstrap-bca --confidence 0.8 --resamples 300 --seed 3 {J}"),
        run("score-ci-delta-confidence", f"score {RUN} --ci delta --confidence 0.99 {J}"),
        run("score-ci-bca-blocks-text", f"score inputs/sents.txt --blocks blank-line --ci bootstrap-bca {RESAMPLES}"),
    ]  # fmt: skip
    # every interval method: single-label, with a training file, multi-label, and three kinds of blocks
    for ci in CI_METHODS:
        extra = RESAMPLES if ci.startswith("bootstrap") else ""
        runs += [
            run(f"score-ci-{ci}", f"score {RUN} --ci {ci} {extra} {J}"),
            run(f"score-ci-{ci}-multilabel", f"score {ML} --ci {ci} {extra} {J}"),
            run(f"score-ci-{ci}-blank-line", f"score inputs/sents.txt --blocks blank-line --ci {ci} {extra} {J}"),
            run(f"score-ci-{ci}-block-col", f"score {TSV} --block-col sent --ci {ci} {extra} {J}"),
        ]
        if ci in ("delta", "bootstrap", "bootstrap-bca"):
            runs += [
                run(f"score-ci-{ci}-train", f"score {RUN} --train inputs/train.txt --ci {ci} {extra} {J}"),
                run(f"score-ci-{ci}-block-end", f"score inputs/utt.txt --block-end '^<utt>' --ci {ci} {extra} {J}"),
            ]
    return runs


def compare_runs() -> list[Run]:
    table = "inputs/run.tsv --gold-col gold --pred-col A --pred-col B"
    ml = f"{ML} --pred-col B"
    runs = [
        run("compare-ar", f"compare {SYSTEMS3} {ROUNDS} {J}"),
        run("compare-ar-ci", f"compare {SYSTEMS2} {ROUNDS} --ci bootstrap --confidence 0.9 {J}"),
        run("compare-ar-identical", f"compare inputs/gold.txt inputs/sysA.txt inputs/sysA-copy.txt {ROUNDS} {J}"),
        run("compare-ar-exact-limit-0", f"compare {SYSTEMS2} {ROUNDS} --exact-limit 0 {J}"),
        run("compare-ar-exact-few", f"compare inputs/gold.txt inputs/sysA.txt inputs/sysA-near.txt {ROUNDS} {J}"),
        run("compare-ar-exact-limit-big", f"compare {SYSTEMS2} --rounds 100 --seed 2 --exact-limit 1000000 "
            f"--metric accuracy {J}"),
        run("compare-bootstrap", f"compare {SYSTEMS3} --test bootstrap {ROUNDS} {J}"),
        run("compare-bootstrap-ci-none", f"compare {SYSTEMS2} --test bootstrap --ci none {ROUNDS} {J}"),
        run("compare-mcnemar", f"compare {SYSTEMS3} --test mcnemar --seed 1 {J}"),
        run("compare-sign", f"compare {SYSTEMS3} --test sign --seed 1 {J}"),
        run("compare-baseline", f"compare {SYSTEMS3} --baseline sysB {ROUNDS} {J}"),
        run("compare-names", f"compare {SYSTEMS3} --name alpha --name beta --name gamma --baseline gamma --alpha 0.01 "
            f"{ROUNDS} {J}"),
        run("compare-greater", f"compare {SYSTEMS2} --alternative greater {ROUNDS} {J}"),
        run("compare-less", f"compare {SYSTEMS2} --alternative less --test bootstrap {ROUNDS} {J}"),
        run("compare-table", f"compare {table} {ROUNDS} {J}"),
        run("compare-table-parquet", "compare inputs/run.parquet --gold-col gold --pred-col A --pred-col C "
            f"{ROUNDS} {J}"),
        run("compare-table-jsonl", f"compare inputs/run.jsonl --gold-col gold --pred-col A --pred-col B --pred-col C "
            f"--test bootstrap {ROUNDS} {J}"),
        run("compare-header-col-numbers", "compare inputs/run.tsv --header --gold-col 3 --pred-col 4 "
            f"--pred-col 5 {ROUNDS} {J}"),
        run("compare-sep", "compare inputs/run-semicolon.dat inputs/run-semicolon.dat inputs/crlf.txt "
            f"--input-format csv --sep ';' --no-header --gold-col 2 --pred-col -1 {ROUNDS} {J}"),
        run("compare-labels", f"compare {SYSTEMS2} --labels inputs/labels.txt {ROUNDS} {J}"),
        run("compare-labels-from-gold", f"compare {SYSTEMS3} --labels-from gold {ROUNDS} {J}"),
        run("compare-train", f"compare {SYSTEMS2} --train inputs/train.txt --metric lfb.f1 {ROUNDS} {J}"),
        run("compare-train-col", f"compare {SYSTEMS2} --train inputs/train.csv --train-header --train-col label "
            f"--metric lfb.precision {ROUNDS} {J} -o out/compare.json"),
        run("compare-train-format", f"compare {SYSTEMS2} --train inputs/train-semicolon.dat --train-format csv "
            f"--train-sep ';' --no-train-header --train-col 2 --labels-from train {ROUNDS} {J}"),
        run("compare-beta", f"compare {SYSTEMS2} --beta 2 --metric macro.f2 {ROUNDS} {J}"),
        run("compare-zero-division-nan", f"compare {SYSTEMS3} --zero-division nan --metric macro.precision "
            f"{ROUNDS} {J}"),
        run("compare-zero-division-1", f"compare {SYSTEMS2} --zero-division 1 --undefined exclude {ROUNDS} {J}"),
        run("compare-undefined-exclude", f"compare {SYSTEMS3} --labels inputs/labels.txt --undefined exclude "
            f"{ROUNDS} {J}"),
        run("compare-translate", f"compare {SYSTEMS2} --translate inputs/translate.txt {ROUNDS} {J}"),
        run("compare-skip", f"compare inputs/comments.txt inputs/comments.txt inputs/comments-B.txt --skip '^#' "
            f"--gold-col 2 --pred-col 3 {ROUNDS} {J}"),
        run("compare-keep-trailing", f"compare inputs/run-distribution.txt inputs/run-distribution.txt inputs/run.txt "
            f"--keep-trailing --gold-col 2 --pred-col 3 {ROUNDS} {J}"),
        run("compare-cutoff", f"compare inputs/svm.txt inputs/svm.txt inputs/svm-named.txt --cutoff 0.2 --above +1 "
            f"--below -1 --gold-col 2 --pred-col -1 {ROUNDS} {J}"),
        run("compare-counts-joint", f"compare --counts inputs/counts/joint.json {ROUNDS} {J}"),
        run("compare-counts-joint-named", "compare --counts inputs/counts/joint-named.json --test mcnemar "
            f"--metric accuracy {J}"),
        run("compare-counts-ml-joint", "compare --counts inputs/counts/ml-joint.json --metric samples.f1 "
            f"{ROUNDS} {J}"),
        run("compare-engine-dask", f"compare {table} --engine dask {ROUNDS} {J}"),
        run("compare-small-chunks", f"compare {SYSTEMS3} {ROUNDS} {J}", CLFEVAL_CHUNK_BYTES="50"),
        # multi-label
        run("compare-ml", f"compare {ml} {ROUNDS} {J}"),
        run("compare-ml-samples-micro", f"compare {ml} --metric samples.f1 --metric micro.f1 {ROUNDS} {J}"),
        run("compare-ml-bootstrap", f"compare {ml} --test bootstrap --metric macro.jaccard,hamming_loss "
            f"--duplicates collapse {ROUNDS} {J}"),
        run("compare-ml-empty-label", f"compare {ml} --empty label --metric accuracy {ROUNDS} {J}"),
        run("compare-ml-sign", f"compare {ml} --test sign --metric accuracy --seed 1 {J}"),
        run("compare-ml-pipe", f"compare inputs/ml-pipe.csv inputs/ml-pipe.csv inputs/ml-pipe-B.csv --multilabel "
            f"--label-sep '|' --empty label --duplicates keep --gold-col gold --pred-col pred {ROUNDS} {J}"),
        # other formats
        run("compare-text", f"compare {SYSTEMS3} {ROUNDS}"),
        run("compare-markdown", f"compare {SYSTEMS3} --test bootstrap {ROUNDS} --format markdown"),
        run("compare-csv", f"compare {SYSTEMS3} --metric macro.f1,mcc {ROUNDS} --format csv --digits 2"),
        run("compare-csv-raw", f"compare {SYSTEMS2} {ROUNDS} --format csv --raw-csv"),
        run("compare-latex", f"compare {SYSTEMS3} {ROUNDS} --format latex"),
        run("compare-html", f"compare {SYSTEMS2} {ROUNDS} --format html"),
        run("compare-blocks-text", f"compare inputs/sents-gold.txt inputs/sents-A.txt inputs/sents-B.txt "
            f"--blocks blank-line {ROUNDS}"),
    ]  # fmt: skip
    metrics = [
        "macro.f1", "macro_fa.f1", "micro.f1", "weighted.recall", "lfb.precision",
        "accuracy", "hamming_loss", "mcc", "kappa", "balanced_accuracy", "per_label.NN.f1",
        "per_label.UH.precision", "macro.f1,macro_fa.f1,mcc",
    ]  # fmt: skip
    runs += [
        run(f"compare-metric-{m.replace(',', '+')}", f"compare {SYSTEMS3} --metric {m} {ROUNDS} {J}") for m in metrics
    ]
    # weighted κ reads a declared order (issue 38): given with --ordinal, refused without one
    runs.append(run("compare-metric-kappa_quadratic", f"compare {SYSTEMS3} --metric kappa_quadratic "
                    f"--labels inputs/labels.txt --ordinal {ROUNDS} {J}"))  # fmt: skip
    runs.append(run("compare-metric-kappa_quadratic-no-order", f"compare {SYSTEMS3} --metric kappa_quadratic {J}", 2))
    blocks = {
        "blank-line": "inputs/sents-gold.txt inputs/sents-A.txt inputs/sents-B.txt inputs/sents-C.txt "
        "--blocks blank-line",
        "block-end": "inputs/utt-gold.txt inputs/utt-A.txt inputs/utt-B.txt inputs/utt-C.txt --block-end '^<utt>'",
        "block-col": f"{table} --pred-col C --block-col sent",
    }
    for kind, args in blocks.items():
        for test in ("ar", "bootstrap", "sign"):
            how = "--seed 5" if test == "sign" else ROUNDS
            runs.append(run(f"compare-{test}-{kind}", f"compare {args} --test {test} {how} {J}"))
    # McNemar counts instances as independent: refused with blocks
    runs.append(run("compare-mcnemar-blank-line", f"compare {blocks['blank-line']} --test mcnemar {J}", 2))
    runs.append(run("compare-bootstrap-block-col-ci", f"compare {blocks['block-col']} --test bootstrap --ci bootstrap "
                    f"--confidence 0.8 {ROUNDS} --metric macro.f1,accuracy {J}"))  # fmt: skip
    return runs


def cv_runs() -> list[Run]:
    runs = [
        run("cv-files", f"cv {FOLDS} {J}"),
        run("cv-files-glob", f"cv 'inputs/folds/fold[12].txt' 'inputs/folds/fold[34].txt' {J}"),
        run("cv-fold-col", f"cv {FOLD_COL} {J}"),
        run("cv-fold-col-last", f"cv inputs/run.tsv --header --fold-col -1 --gold-col gold --pred-col B {J}"),
        run("cv-fold-col-parquet", f"cv inputs/run.parquet --fold-col fold --gold-col gold --pred-col C {J}"),
        run("cv-fold-col-csv", "cv inputs/run.csv --input-format csv --sep , --fold-col 8 --gold-col 3 "
            f"--pred-col 6 {J}"),
        run("cv-counts", f"cv {FOLD_COUNTS} {J}"),
        run("cv-counts-ci", f"cv {FOLD_COUNTS} --ci delta --labels inputs/labels.txt {J}"),
        run("cv-train", f"cv {FOLDS} --train inputs/train.txt {J}"),
        run("cv-labels", f"cv {FOLDS} --labels inputs/labels.txt --labels-from file --zero-division nan {J}"),
        run("cv-labels-from-gold", f"cv {FOLD_COL} --labels-from gold {J} -o out/cv.json"),
        run("cv-undefined-exclude", f"cv {FOLDS} --labels inputs/labels.txt --undefined exclude --zero-division 1 {J}"),
        run("cv-beta", f"cv {FOLDS} --beta 0.5 {J}"),
        run("cv-warn-above-small", f"cv {FOLDS} --warn-above 0.001 {J}"),
        run("cv-no-matrix", f"cv {FOLDS} --no-matrix {J}"),
        run("cv-translate", f"cv {FOLDS} --translate inputs/translate.txt {J}"),
        run("cv-skip", f"cv inputs/comments.txt inputs/run.txt --skip '^#' {J}"),
        run("cv-keep-trailing", f"cv inputs/run-distribution.txt inputs/run.txt --keep-trailing --gold-col 2 "
            f"--pred-col 3 {J}"),
        run("cv-no-header-train-format", f"cv inputs/run-noheader.csv inputs/run-noheader.csv --no-header "
            f"--train inputs/train-semicolon.dat --train-format csv --train-sep ';' --no-train-header {J}"),
        run("cv-train-header", f"cv {FOLDS} --train inputs/train.csv --train-header --train-col 2 {J}"),
        run("cv-cutoff", f"cv inputs/svm-named.txt inputs/svm-named.txt --cutoff 0.5 --above POS --below NEG {J}"),
        run("cv-ml", f"cv {ML} --fold-col fold {J}"),
        run("cv-ml-ci", f"cv inputs/ml.tsv --multilabel --fold-col fold --gold-col gold --pred-col B --empty label "
            f"--duplicates collapse --label-sep , --ci bootstrap {RESAMPLES} {J}"),
        run("cv-engine-dask", f"cv {FOLD_COL} --engine dask {J}"),
        run("cv-text", f"cv {FOLDS} --ci delta"),
        run("cv-markdown", f"cv {FOLDS} --format markdown"),
        run("cv-csv", f"cv {FOLD_COL} --format csv --raw-csv"),
        run("cv-latex", f"cv {FOLDS} --format latex"),
        run("cv-html", f"cv {FOLDS} --format html --digits 2"),
    ]  # fmt: skip
    for ci in CI_METHODS:
        extra = RESAMPLES if ci.startswith("bootstrap") else ""
        runs.append(run(f"cv-ci-{ci}", f"cv {FOLDS} --ci {ci} {extra} {J}"))
        if ci != "none":
            runs.append(run(f"cv-ci-{ci}-fold-col", f"cv {FOLD_COL} --ci {ci} --confidence 0.9 {extra} {J}"))
    return runs


def convert_runs() -> list[Run]:
    pr = "--precision 0.75 --recall 0.6"
    return [
        run("convert-unique", f"convert {pr} --support 50 --n 100 {J}"),
        run("convert-several", f"convert {pr} --n 100 {J}"),
        run("convert-percent-many", f"convert --precision 78.11% --recall 71.77% --n 1000 {J}"),
        run("convert-limit", f"convert --precision 0.7 --recall 0.5 --n 200 --limit 3 {J}"),
        run("convert-insufficient", f"convert {pr} --support 50 {J}"),
        run("convert-none", f"convert --precision 0.9 --support 10 --predicted 3 {J}"),
        run("convert-counts", f"convert --tp 30 --fp 10 --fn 20 --tn 40 {J} -o out/convert.json"),
        run("convert-f", f"convert --f 0.667 --tp 30 --n 100 --accuracy 0.7 {J}"),
        run("convert-f1-beta", f"convert --f1 0.5 --beta 2 --precision 0.4 --support 20 --n 100 {J}"),
        run("convert-decimals", f"convert --precision 0.4 --recall 0.5 --decimals 2 --n 50 {J}"),
        run("convert-specificity", f"convert --specificity 0.8 --prevalence 0.5 --recall 0.6 --n 100 {J}"),
        run("convert-accuracy", f"convert --accuracy 90% --precision 0.8 --support 20 --n 100 {J}"),
        run("convert-table", f"convert --table inputs/convert-table.csv {J}"),
        run("convert-table-paper", f"convert --table inputs/paper.csv --limit 5 {J}"),
        run("convert-table-report", f"convert --table inputs/paper-report.txt --limit 2 {J}"),
        run("convert-table-md", f"convert --table inputs/paper-support.md --limit 2 {J}"),
        run("convert-text", f"convert {pr} --n 100"),
        run("convert-markdown", f"convert {pr} --support 50 --n 100 --format markdown"),
        run("convert-csv", f"convert {pr} --n 100 --format csv"),
        run("convert-latex", f"convert {pr} --n 100 --format latex --digits 2"),
        run("convert-table-csv", "convert --table inputs/convert-table.csv --format csv --raw-csv"),
    ]


def audit_runs() -> list[Run]:
    return [
        run("audit-csv", f"audit inputs/paper.csv {J}"),
        run("audit-csv-decimals", f"audit inputs/paper.csv --decimals 2 {J}"),
        run("audit-md-fa", f"audit inputs/paper-fa.md {J} -o out/audit.json"),
        run("audit-beta", f"audit inputs/paper-omit.csv --beta 2 {J}"),
        run("audit-md-train", f"audit inputs/paper-fa.md --train inputs/train.txt {J}"),
        run("audit-train-col", f"audit inputs/paper.csv --train inputs/train.csv --train-col 2 {J}"),
        run("audit-omit", f"audit inputs/paper-omit.csv {J}"),
        run("audit-report", f"audit inputs/paper-report.txt {J}"),
        run("audit-table8", f"audit inputs/table8.tsv --all-averages {J}"),
        run("audit-multilabel", f"audit inputs/paper-ml.csv --multilabel {J}"),
        run("audit-text", "audit inputs/paper.csv"),
        run("audit-markdown", "audit inputs/paper-report.txt --format markdown"),
        run("audit-csv-output", "audit inputs/table8.tsv --all-averages --format csv --raw-csv"),
        run("audit-latex", "audit inputs/paper.csv --format latex --digits 3"),
    ]


def finagle_runs() -> list[Run]:
    return [
        run("finagle-expected-accuracy", f"finagle {TIMBL} --expected-accuracy 0.35 {J}"),
        run("finagle-expected-accuracy-train", f"finagle {TIMBL} --expected-accuracy 0.9 --train inputs/train.txt {J}"),
        run("finagle-threshold", f"finagle {TIMBL} --threshold 1.2 {J}"),
        run("finagle-threshold-to", f"finagle {TIMBL} --threshold 0.8 --to NN {J}"),
        run("finagle-to-outside", f"finagle {TIMBL} --threshold 0.8 --to XX {J}"),
        run("finagle-bins", f"finagle {TIMBL} --expected-accuracy 0.8 --bins 10 {J} -o out/finagle.json"),
        run("finagle-header-col-numbers", f"finagle inputs/conf.csv --header --sep , --gold-col 1 --pred-col 2 "
            f"--conf-col 3 --threshold 0.5 {J}"),
        run("finagle-conf", f"finagle {CONF} --threshold 0.6 {J}"),
        run("finagle-jsonl", "finagle inputs/run.jsonl --gold-col gold --pred-col A --conf-col conf "
            f"--threshold 0.5 {J}"),
        run("finagle-parquet", f"finagle inputs/run.parquet --input-format parquet --gold-col gold --pred-col A "
            f"--conf-col conf --expected-accuracy 0.9 --bins 6 {J}"),
        run("finagle-no-header", f"finagle {TIMBL} --no-header --gold-col 3 --pred-col 4 --conf-col 5 "
            f"--threshold 1.0 {J}"),
        run("finagle-labels", f"finagle {TIMBL} --threshold 1.0 --labels inputs/labels.txt --zero-division nan {J}"),
        run("finagle-labels-from-gold", f"finagle {TIMBL} --threshold 1.0 --labels-from gold --undefined exclude {J}"),
        run("finagle-train-csv", f"finagle {CONF} --threshold 0.6 --train inputs/train.csv --train-header "
            f"--train-col label --beta 0.5 {J}"),
        run("finagle-train-format", f"finagle {TIMBL} --threshold 1.0 --train inputs/train-semicolon.dat "
            "--train-format csv "
            f"--train-sep ';' --no-train-header --train-col -1 --zero-division 1 {J}"),
        run("finagle-engine-dask", f"finagle {CONF} --threshold 0.6 --engine dask {J}"),
        run("finagle-text", f"finagle {TIMBL} --expected-accuracy 0.35"),
        run("finagle-markdown", f"finagle {TIMBL} --threshold 1.2 --format markdown"),
        run("finagle-csv", f"finagle {TIMBL} --threshold 1.2 --format csv --raw-csv"),
        run("finagle-latex", f"finagle {TIMBL} --threshold 1.2 --format latex --digits 2"),
    ]  # fmt: skip


def other_count_runs() -> list[Run]:
    """``clfeval count`` to standard output, in other layouts (nothing reads these)."""
    return [
        run("count-stdout-text", f"count {RUN}"),
        run("count-parts", "count --parts inputs/parts/part-1.csv inputs/parts/part-3.csv --gold-col gold "
            "--pred-col pred"),
        run("count-skip", "count inputs/comments.txt --skip '^#'"),
        run("count-cutoff", "count inputs/svm-named.txt --cutoff 0.5 --above POS --below NEG"),
        run("count-keep-trailing", "count inputs/run-distribution.txt --keep-trailing --gold-col 2 --pred-col 3"),
        run("count-semicolon", "count inputs/run-semicolon.dat --input-format csv --sep ';' --no-header"),
        run("count-ml-pipe", "count inputs/ml-pipe.csv --gold-col gold --pred-col pred --multilabel --label-sep '|' "
            "--empty label --duplicates collapse"),
        run("count-stdin", "count -", stdin=RUN),
        run("count-engine-dask", f"count {TSV} --engine dask"),
        run("count-engine-polars", f"count {TSV} --engine polars -o out/count.json"),
    ]  # fmt: skip


def bad_runs() -> list[Run]:
    """Bad input and bad options: exit code 2 and one line on stderr."""
    s2 = f"compare {SYSTEMS2}"
    return [
        run("bad-missing-file", f"score inputs/nosuch.txt {J}", 2),
        run("bad-short-line", f"score inputs/bad/short.txt {J}", 2),
        run("bad-gold-pred-lengths", f"score inputs/gold.txt inputs/folds/fold1.txt {J}", 2),
        run("bad-column-name", f"score inputs/run.tsv --gold-col nosuch --pred-col A {J}", 2),
        run("bad-ci-choice", f"score {RUN} --ci wald {J}", 2),
        run("bad-confidence", f"score {RUN} --ci delta --confidence 95 {J}", 2),
        run("bad-beta", f"score {RUN} --beta -1 {J}", 2),
        run("bad-labels-from-train", f"score {RUN} --labels-from train {J}", 2),
        run("bad-translate", f"score {RUN} --translate inputs/bad/translate.txt {J}", 2),
        run("bad-matrix", f"score --matrix inputs/bad/matrix.csv {J}", 2),
        run("bad-label-sep", f"score {ML} --label-sep '\\t' {J}", 2),
        run("bad-ml-null", f"score inputs/bad/nulls.jsonl --multilabel --gold-col gold --pred-col pred {J}", 2),
        run("bad-counts-mixed", f"score --counts inputs/counts/part-1.json inputs/counts/ml.json {J}", 2),
        run("bad-compare-metric", f"{s2} --metric macro.f7 {J}", 2),
        run("bad-compare-mcnemar-metric", f"{s2} --test mcnemar --metric macro.f1 {J}", 2),
        run("bad-compare-baseline", f"{s2} --baseline nosuch {J}", 2),
        run("bad-compare-one-system", f"compare inputs/gold.txt inputs/sysA.txt {J}", 2),
        run("bad-cv-resamples", f"cv {FOLDS} --ci bootstrap --resamples 1 {J}", 2),
        run("bad-finagle-confidence", f"finagle inputs/bad/conf.txt --threshold 0.5 {J}", 2),
        run("bad-finagle-expected", f"finagle inputs/timbl.out --expected-accuracy 2 {J}", 2),
        run("bad-finagle-no-rule", f"finagle inputs/timbl.out {J}", 2),
        run("bad-audit-no-averages", f"audit inputs/bad/noaverages.csv {J}", 2),
        run("bad-convert-number", f"convert --precision high {J}", 2),
        run("bad-convert-table", f"convert --table inputs/bad/table.csv {J}", 2),
        run("bad-convert-table-no-support", f"convert --table inputs/paper-fa.md {J}", 2),
        run("bad-digits", f"score {RUN} --digits -3", 2),
        run("bad-no-command", "", 2),
    ]


# ---------------------------------------------------------------------------------------------------------------
# Spans and scored predictions (issue 37: every JSON output of labels, spans and scores)
# ---------------------------------------------------------------------------------------------------------------

SP = "inputs/spans"
NER = f"{SP}/ner.conll --gold-col 2 --pred-col 3"  # 24 documents: --unit auto takes documents
NER_B = f"{SP}/ner.conll --gold-col 2 --pred-col 4"
SPAN_FILES = f"{SP}/gold.conll {SP}/A.conll {SP}/B.conll"
SPAN_FOLDS = " ".join(f"{SP}/fold{k}.conll" for k in (1, 2, 3))
SC = "inputs/scored"
BIN = f"{SC}/bin.csv --gold-col gold"  # columns a, b, c (probabilities), m (a margin), dist, dist_b (distances)
MC = f"{SC}/mc.csv --gold-col gold"  # p_* (system A), q_* (system B): cat, dog, owl
ML_SCORES = f"{SC}/ml.csv --gold-col gold --multilabel --label-sep ';'"  # a_* and b_*: L1 … L4
BIN_FOLDS = " ".join(f"{SC}/bin-fold{k}.csv" for k in (1, 2, 3)) + " --gold-col gold"
MC_FOLDS = " ".join(f"{SC}/mc-fold{k}.csv" for k in (1, 2, 3)) + " --gold-col gold"
SCORED_RESAMPLES = "--resamples 200 --seed 7"
SCORED_ROUNDS = "--rounds 300 --seed 11"


def span_count_runs() -> list[Run]:
    """Span count files that later runs read (made first)."""
    c = "-o inputs/counts"
    return [
        run("spans-count-A", f"count {NER} --spans {c}/spans-A.json"),
        run("spans-count-joint", f"count {SP}/ner.conll --spans --gold-col 2 --pred-col 3 --pred-col 4 --name A "
            f"--name B {c}/spans-joint.json"),
        run("spans-count-iob1", f"count {SP}/iob1.conll --spans iob1 {c}/spans-iob1.json"),
        run("spans-count-sentences", f"count {NER} --spans iob2 --unit sentences {c}/spans-sentences.json"),
        *(run(f"spans-count-fold{k}", f"count {SP}/fold{k}.conll --spans iob2 {c}/spans-fold{k}.json")
          for k in (1, 2, 3)),
    ]  # fmt: skip


def span_runs() -> list[Run]:
    runs = [
        # schemes and inputs
        run("spans-score-conlleval", f"score {NER} --spans {J}"),
        run("spans-score-conlleval-named", f"score {NER_B} --spans conlleval {J}"),
        run("spans-score-iob2-invalid", f"score {NER} --spans iob2 {J}"),
        run("spans-score-iobes-under-conlleval", f"score {SP}/iobes.conll --spans {J}"),  # merged spans, a warning
        run("spans-score-gold-pred", f"score {SP}/gold.conll {SP}/A.conll --spans iob2 {J}"),
        run("spans-score-nodoc", f"score {SP}/ner-nodoc.conll --spans {J}"),
        run("spans-score-jsonl", f"score {SP}/ner.jsonl --spans iob2 --gold-col gold --pred-col B {J}"),
        run("spans-score-entities", f"score {SP}/entities.jsonl --spans {J}"),
        run("spans-score-block-end", f"score {SP}/utt.conll --spans --block-end '^<utt>' {J}"),
        run("spans-score-types", f"score {NER} --spans --labels {SP}/types.txt {J}"),
        run("spans-score-beta", f"score {NER} --spans iob2 --beta 0.5 --zero-division nan {J}"),
        run("spans-score-chunks", f"score {NER} --spans iob2 --ci bootstrap {RESAMPLES} {J}", CLFEVAL_CHUNK_BYTES="97"),
        # intervals over sentences and documents
        run("spans-ci-bootstrap", f"score {NER} --spans --ci bootstrap {RESAMPLES} {J}"),
        run("spans-ci-bootstrap-sentences", f"score {NER} --spans iob2 --unit sentences --ci bootstrap "
            f"{RESAMPLES} {J}"),
        run("spans-ci-bootstrap-documents-nodoc", f"score {SP}/ner-nodoc.conll --spans --unit sentences "
            f"--ci bootstrap --confidence 0.9 {RESAMPLES} {J}"),
        run("spans-ci-bca", f"score {NER} --spans iob2 --unit sentences --ci bootstrap-bca {RESAMPLES} {J}"),
        run("spans-ci-delta", f"score {NER} --spans --ci delta {J}"),
        run("spans-ci-delta-logit", f"score {NER_B} --spans iob2 --unit sentences --ci delta-logit {J}"),
        run("spans-ci-delta-documents", f"score {NER} --spans iob2 --unit documents --ci delta --confidence 0.8 {J}"),
        run("spans-ci-bootstrap-jsonl", f"score {SP}/ner.jsonl --spans iob2 --gold-col gold --pred-col A "
            f"--ci bootstrap {RESAMPLES} {J}"),
        # other outputs: conlleval.pl's report, text, CSV (formula cells), the list of errors
        run("spans-format-conlleval", f"score {NER} --spans --format conlleval"),
        run("spans-format-conlleval-iobes", f"score {SP}/iobes.conll --spans --format conlleval"),
        run("spans-format-text", f"score {NER} --spans --ci delta"),
        run("spans-format-text-verbose", f"score {NER} --spans iob2 --verbose --measures all"),
        run("spans-format-markdown", f"score {NER} --spans --format markdown"),
        run("spans-format-csv", f"score {NER} --spans iob2 --ci delta --format csv"),
        run("spans-format-latex", f"score {NER} --spans --format latex"),
        run("spans-format-html", f"score {NER} --spans --ci delta --format html"),
        run("spans-errors", f"score {NER} --spans --errors out/spans-errors.tsv {J}"),
        run("spans-hostile-csv", f"score {SP}/hostile.conll --spans --format csv"),
        run("spans-hostile-errors", f"score {SP}/hostile.conll --spans --errors out/hostile-errors.tsv {J}"),
        # count files
        run("spans-counts-score", f"score --counts inputs/counts/spans-A.json {J}"),
        run("spans-counts-bootstrap", f"score --counts inputs/counts/spans-A.json --ci bootstrap {RESAMPLES} {J}"),
        run("spans-counts-unit-sentences", f"score --counts inputs/counts/spans-A.json --unit sentences "
            f"--ci bootstrap {RESAMPLES} {J}", 2),  # issue 37: --unit contradicting the count file is refused
        run("spans-counts-sentences", f"score --counts inputs/counts/spans-sentences.json --ci delta {J}"),
        run("spans-counts-conlleval", "score --counts inputs/counts/spans-A.json --format conlleval"),
        run("spans-counts-iob1-as-conlleval", "score --counts inputs/counts/spans-iob1.json --spans conlleval "
            "--format conlleval", 2),  # issue 37: a scheme contradicting the count file is refused
        run("spans-counts-iob1-json", f"score --counts inputs/counts/spans-iob1.json --spans conlleval {J}", 2),
        run("spans-count-stdout", f"count {SP}/ner-nodoc.conll --spans iob2"),
        run("spans-count-jsonl", f"count {SP}/ner.jsonl --spans iob2 --gold-col gold --pred-col A"),
        # compare: sentence- and document-level tests
        run("spans-compare-ar", f"compare {SPAN_FILES} --spans {ROUNDS} {J}"),
        run("spans-compare-ar-sentences", f"compare {SPAN_FILES} --spans iob2 --unit sentences "
            f"--metric micro.f1,macro.f1,per_label.PER.f1 {ROUNDS} {J}"),
        run("spans-compare-bootstrap", f"compare {SPAN_FILES} --spans --test bootstrap {ROUNDS} {J}"),
        run("spans-compare-bootstrap-ci", f"compare {SPAN_FILES} --spans iob2 --unit sentences --test bootstrap "
            f"--ci bootstrap --confidence 0.9 {ROUNDS} {J}"),
        run("spans-compare-sign", f"compare {SPAN_FILES} --spans --test sign --seed 5 {J}"),
        run("spans-compare-sign-sentences", f"compare {SPAN_FILES} --spans iob2 --unit sentences --test sign "
            f"--seed 5 {J}"),
        run("spans-compare-sign-issue", f"compare {SP}/sign-gold.conll {SP}/sign-A.conll {SP}/sign-B.conll --spans "
            f"--test sign --seed 5 {J}"),  # issue 37: the sign test's winner
        run("spans-compare-sign-issue-text", f"compare {SP}/sign-gold.conll {SP}/sign-A.conll {SP}/sign-B.conll "
            "--spans --test sign --seed 5"),
        run("spans-compare-one-file", f"compare {SP}/ner.conll --spans --gold-col 2 --pred-col 3 --pred-col 4 "
            f"--name A --name B --alternative greater --alpha 0.01 {ROUNDS} {J}"),
        run("spans-compare-baseline", f"compare {SPAN_FILES} --spans --name alpha --name beta --baseline beta "
            f"--alternative less {ROUNDS} {J}"),
        run("spans-compare-counts", f"compare --counts inputs/counts/spans-joint.json {ROUNDS} {J}"),
        run("spans-compare-counts-bootstrap", "compare --counts inputs/counts/spans-joint.json --test bootstrap "
            f"--metric micro.f1,macro.f1 {ROUNDS} {J}"),
        run("spans-compare-text", f"compare {SPAN_FILES} --spans {ROUNDS}"),
        run("spans-compare-markdown", f"compare {SPAN_FILES} --spans --test bootstrap {ROUNDS} --format markdown"),
        # cv: one CoNLL file per fold, or one count file per fold
        run("spans-cv", f"cv {SPAN_FOLDS} --spans {J}"),
        run("spans-cv-iob2", f"cv {SPAN_FOLDS} --spans iob2 --beta 2 {J}"),
        run("spans-cv-counts", f"cv --counts inputs/counts/spans-fold1.json inputs/counts/spans-fold2.json "
            f"inputs/counts/spans-fold3.json {J}"),
        run("spans-cv-text", f"cv {SPAN_FOLDS} --spans iob2"),
        run("spans-cv-unit", f"cv {SPAN_FOLDS} --spans iob2 --unit sentences {J}"),
        run("spans-cv-ci", f"cv {SPAN_FOLDS} --spans iob2 --ci bootstrap {RESAMPLES} {J}", 2),  # refused today
        # refused input
        run("spans-bad-prefix", f"score {SP}/bad-prefix.conll --spans {J}", 2),
        run("spans-bad-scheme", f"score {NER} --spans iob9 {J}", 2),
        run("spans-bad-lengths", f"compare {SP}/gold.conll {SP}/A.conll {SP}/fold1.conll --spans {J}", 2),
        run("spans-bad-mcnemar", f"compare {SPAN_FILES} --spans --test mcnemar {J}", 2),
        run("spans-bad-fold-col", f"cv {SP}/ner.conll --spans --fold-col 2 {J}", 2),
    ]  # fmt: skip
    for scheme in SCHEMES:
        runs.append(run(f"spans-scheme-{scheme}", f"score {SP}/{scheme}.conll --spans {scheme} {J}"))
    return runs


def scored_count_runs() -> list[Run]:
    """Count files of scored predictions that later runs read (made first)."""
    c = "-o inputs/counts"
    return [
        run("scored-count-bin-1", f"count {SC}/bin-part1.csv --gold-col gold --scores a {c}/scored-bin-1.json"),
        run("scored-count-bin-2", f"count {SC}/bin-part2.csv --gold-col gold --scores a {c}/scored-bin-2.json"),
        run("scored-count-mc-1", f"count {SC}/mc-part1.csv --gold-col gold --scores 'p_*' {c}/scored-mc-1.json"),
        run("scored-count-mc-2", f"count {SC}/mc-part2.csv --gold-col gold --scores 'p_*' {c}/scored-mc-2.json"),
        run("scored-count-dist", f"count {BIN} --scores dist --positive pos {c}/scored-dist.json"),
    ]


def scored_runs() -> list[Run]:
    runs = [
        # binary: inputs, conventions
        run("scored-bin", f"score {BIN} --scores a {J}"),
        run("scored-bin-positive-neg", f"score {BIN} --scores a --positive neg {J}"),
        run("scored-bin-threshold", f"score {BIN} --scores b --threshold 0.3 --curve-points 20 {J}"),
        run("scored-bin-curve-points-all", f"score {BIN} --scores b --curve-points all {J}"),
        run("scored-bin-calibration", f"score {BIN} --scores a --bins 5 --binning equal-mass --brier half {J}"),
        run("scored-bin-brier-mean", f"score {BIN} --scores c --brier mean --bins 10 {J}"),
        run("scored-bin-not-probabilities", f"score {BIN} --scores m --not-probabilities --threshold 0 {J}"),
        run("scored-bin-lower", f"score {BIN} --scores dist --lower-is-more-confident --threshold 1.0 {J}"),
        run("scored-bin-score-bins", f"score {BIN} --scores a --score-bins 10 {J}"),
        run("scored-bin-jsonl", f"score {SC}/bin.jsonl --gold-col gold --scores a {J}"),
        run("scored-bin-parquet", f"score {SC}/bin.parquet --gold-col gold --scores b {J}"),
        run("scored-bin-chunks", f"score {BIN} --scores a --ci delong {J}", CLFEVAL_CHUNK_BYTES="97"),
        run("scored-bin-9-10", f"score {SC}/bin-9-10.csv --gold-col gold --scores s {J}"),  # issue 37: 9 < 10
        run("scored-bin-roundoff", f"score {SC}/bin-roundoff.csv --gold-col gold --scores p {J}"),  # issue 37: 1 + ε
        # binary: intervals
        run("scored-bin-delong", f"score {BIN} --scores a --ci delong {J}"),
        run("scored-bin-delong-logit", f"score {BIN} --scores a --ci delong-logit --confidence 0.9 {J}"),
        run("scored-bin-bootstrap", f"score {BIN} --scores a --ci bootstrap {SCORED_RESAMPLES} {J}"),
        run("scored-bin-bootstrap-seed4", f"score {BIN} --scores b --ci bootstrap --seed 4 --resamples 200 {J}"),
        run("scored-bin-bca", f"score {BIN} --scores a --ci bootstrap-bca {SCORED_RESAMPLES} {J}"),
        run("scored-bin-delong-score-bins", f"score {BIN} --scores a --score-bins 10 --ci delong {J}"),
        run("scored-bin-delong-lower", f"score {BIN} --scores dist --lower-is-more-confident --ci delong {J}"),
        run("scored-bin-bootstrap-not-probabilities", f"score {BIN} --scores m --not-probabilities --ci bootstrap "
            f"{SCORED_RESAMPLES} {J}"),
        # binary: blocks
        run("scored-bin-block-col-delong", f"score {BIN} --scores a --block-col doc --ci delong {J}"),
        run("scored-bin-block-col-bootstrap", f"score {BIN} --scores a --block-col doc --ci bootstrap "
            f"{SCORED_RESAMPLES} {J}"),
        run("scored-bin-block-col-bca", f"score {BIN} --scores a --block-col doc --ci bootstrap-bca "
            f"{SCORED_RESAMPLES} {J}"),
        run("scored-bin-blank-line-delong", f"score {SC}/bin-blank.csv --gold-col gold --scores a --blocks blank-line "
            f"--ci delong-logit {J}"),
        run("scored-bin-block-end-bootstrap", f"score {SC}/bin-utt.csv --gold-col gold --scores b "
            f"--block-end '^<utt>' --ci bootstrap {SCORED_RESAMPLES} {J}"),
        # multi-class
        run("scored-mc", f"score {MC} --scores 'p_*' {J}"),
        run("scored-mc-ties", f"score {MC} --scores 'q_*' --top-k-ties optimistic {J}"),
        run("scored-mc-ties-pessimistic", f"score {MC} --scores 'q_*' --top-k-ties pessimistic --brier mean {J}"),
        run("scored-mc-list", f"score {MC} --scores p_cat,p_dog,p_owl {J}", 2),  # classes named p_cat …: refused
        run("scored-mc-list-labels", f"score {MC} --scores p_cat,p_dog,p_owl --labels {SC}/classes.txt {J}"),
        run("scored-mc-labels", f"score {MC} --scores 'p_*' --labels {SC}/classes.txt {J}"),
        run("scored-mc-labels-reordered", f"score {MC} --scores 'p_*' --labels {SC}/classes-reordered.txt {J}"),
        run("scored-mc-jsonl", f"score {SC}/mc.jsonl --gold-col gold --scores probs --labels {SC}/classes.txt {J}"),
        run("scored-mc-parquet", f"score {SC}/mc.parquet --gold-col gold --scores probs --labels {SC}/classes.txt "
            f"--ci delong {J}"),
        run("scored-mc-timbl", f"score {SC}/mc-timbl.txt --scores timbl {J}"),
        run("scored-mc-twelve", f"score {SC}/mc12.csv --gold-col gold --scores 'p_*' {J}"),  # issue 37: 0 … 11
        run("scored-mc-not-probabilities", f"score {MC} --scores 'p_*' --not-probabilities {J}"),
        run("scored-mc-score-bins", f"score {MC} --scores 'p_*' --score-bins 20 --ci delong {J}"),
        run("scored-mc-equal-mass", f"score {MC} --scores 'q_*' --bins 8 --binning equal-mass {J}"),
        run("scored-mc-delong", f"score {MC} --scores 'p_*' --ci delong {J}"),
        run("scored-mc-delong-logit", f"score {MC} --scores 'q_*' --ci delong-logit {J}"),
        run("scored-mc-bootstrap", f"score {MC} --scores 'p_*' --ci bootstrap {SCORED_RESAMPLES} {J}"),
        run("scored-mc-bca", f"score {MC} --scores 'q_*' --ci bootstrap-bca {SCORED_RESAMPLES} {J}"),
        run("scored-mc-block-col-delong", f"score {MC} --scores 'p_*' --block-col doc --ci delong {J}"),
        run("scored-mc-block-col-bootstrap", f"score {MC} --scores 'q_*' --block-col doc --ci bootstrap "
            f"{SCORED_RESAMPLES} {J}"),
        # multi-label
        run("scored-ml", f"score {ML_SCORES} --scores 'a_*' {J}"),
        run("scored-ml-threshold", f"score {ML_SCORES} --scores 'b_*' --threshold 0.4 {J}"),
        run("scored-ml-delong", f"score {ML_SCORES} --scores 'a_*' --ci delong {J}"),
        run("scored-ml-bootstrap", f"score {ML_SCORES} --scores 'b_*' --ci bootstrap {SCORED_RESAMPLES} {J}"),
        run("scored-ml-bca", f"score {ML_SCORES} --scores 'a_*' --ci bootstrap-bca {SCORED_RESAMPLES} {J}"),
        # other outputs
        run("scored-bin-text", f"score {BIN} --scores a --ci delong"),
        run("scored-mc-text", f"score {MC} --scores 'p_*' --ci delong --verbose"),
        run("scored-ml-text", f"score {ML_SCORES} --scores 'a_*'"),
        run("scored-mc-markdown", f"score {MC} --scores 'p_*' --format markdown --measures all"),
        run("scored-mc-csv", f"score {MC} --scores 'p_*' --ci delong --format csv"),
        run("scored-bin-latex", f"score {BIN} --scores a --ci delong --format latex --digits 3"),
        run("scored-mc-html", f"score {MC} --scores 'p_*' --format html"),
        # count files
        run("scored-counts-bin", f"score --counts inputs/counts/scored-bin-1.json inputs/counts/scored-bin-2.json "
            f"--ci delong {J}"),
        run("scored-counts-bin-bootstrap", "score --counts 'inputs/counts/scored-bin-*.json' --ci bootstrap "
            f"{SCORED_RESAMPLES} {J}"),
        run("scored-counts-mc", "score --counts inputs/counts/scored-mc-1.json inputs/counts/scored-mc-2.json "
            f"--ci delong-logit {J}"),
        run("scored-counts-mc-bca", "score --counts 'inputs/counts/scored-mc-*.json' --ci bootstrap-bca "
            f"{SCORED_RESAMPLES} {J}"),
        run("scored-counts-lower", f"score --counts inputs/counts/scored-dist.json --lower-is-more-confident {J}"),
        run("scored-count-stdout", f"count {MC} --scores 'q_*'"),
        run("scored-count-timbl", f"count {SC}/mc-timbl.txt --scores timbl"),
        run("scored-count-ml", f"count {ML_SCORES} --scores 'a_*'", 2),  # count --scores does not read label sets
        # compare: DeLong, the paired bootstrap, randomization
        run("scored-compare-delong", f"compare {BIN} --scores A=a --scores B=b --test delong {J}"),
        run("scored-compare-delong-greater", f"compare {BIN} --scores A=a --scores B=b --test delong "
            f"--alternative greater --alpha 0.001 {J}"),  # issue 37: options dropped
        run("scored-compare-bootstrap", f"compare {BIN} --scores A=a --scores B=b --scores C=c --test bootstrap "
            f"{SCORED_ROUNDS} {J}"),
        run("scored-compare-bootstrap-baseline", f"compare {BIN} --scores A=a --scores B=b --scores C=c "
            f"--test bootstrap --baseline C --alternative less {SCORED_ROUNDS} {J}"),
        run("scored-compare-bootstrap-ci", f"compare {BIN} --scores A=a --scores B=b --test bootstrap --ci bootstrap "
            f"--confidence 0.9 {SCORED_ROUNDS} {J}"),
        run("scored-compare-ar", f"compare {BIN} --scores A=a --scores B=b --test ar {SCORED_ROUNDS} "
            f"--metric auc,average_precision,log_loss,brier,ece {J}"),
        run("scored-compare-ar-three", f"compare {BIN} --scores A=a --scores B=b --scores C=c --test ar "
            f"{SCORED_ROUNDS} {J}"),
        run("scored-compare-lower", f"compare {BIN} --scores A=dist --scores B=dist_b --lower-is-more-confident "
            f"--test delong {J}"),
        run("scored-compare-score-bins", f"compare {BIN} --scores A=a --scores B=b --score-bins 10 --test delong {J}"),
        run("scored-compare-not-probabilities", f"compare {BIN} --scores A=m --scores B=b --not-probabilities "
            f"--test bootstrap {SCORED_ROUNDS} {J}"),
        run("scored-compare-block-col-delong", f"compare {BIN} --scores A=a --scores B=b --block-col doc "
            f"--test delong {J}"),
        run("scored-compare-block-col-bootstrap", f"compare {BIN} --scores A=a --scores B=b --block-col doc "
            f"--test bootstrap {SCORED_ROUNDS} {J}"),
        run("scored-compare-block-col-ar", f"compare {BIN} --scores A=a --scores B=b --block-col doc --test ar "
            f"{SCORED_ROUNDS} {J}"),
        run("scored-compare-blank-line-ar", f"compare {SC}/bin-blank.csv --gold-col gold --scores A=a --scores B=b "
            f"--blocks blank-line --test ar {SCORED_ROUNDS} {J}"),
        run("scored-compare-mc-delong", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --test delong "
            f"--metric macro.auc,micro.auc,weighted.auc {J}"),
        run("scored-compare-mc-bootstrap", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --test bootstrap "
            f"--metric macro.auc,log_loss,top_1_accuracy {SCORED_ROUNDS} {J}"),
        run("scored-compare-mc-ar", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --test ar --bins 10 "
            f"--brier mean {SCORED_ROUNDS} {J}"),
        run("scored-compare-mc-block-col", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --block-col doc "
            f"--test delong {J}"),
        run("scored-compare-ml-delong", f"compare {ML_SCORES} --scores 'A=a_*' --scores 'B=b_*' --test delong {J}"),
        run("scored-compare-ml-bootstrap", f"compare {ML_SCORES} --scores 'A=a_*' --scores 'B=b_*' --test bootstrap "
            f"--metric macro.auc,lrap {SCORED_ROUNDS} {J}"),
        run("scored-compare-conventions", f"compare {BIN} --scores A=a --scores B=c --positive neg --bins 5 "
            f"--binning equal-mass --top-k-ties pessimistic --curve-points 20 --test bootstrap {SCORED_ROUNDS} {J}"),
        run("scored-compare-text", f"compare {BIN} --scores A=a --scores B=b --test delong"),
        run("scored-compare-text-verbose", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --test delong --verbose"),
        run("scored-compare-markdown", f"compare {MC} --scores 'A=p_*' --scores 'B=q_*' --test bootstrap "
            f"{SCORED_ROUNDS} --format markdown"),
        # cv: one file per fold
        run("scored-cv-bin", f"cv {BIN_FOLDS} --scores a {J}"),
        run("scored-cv-bin-delong", f"cv {BIN_FOLDS} --scores a --ci delong {J}"),
        run("scored-cv-bin-bootstrap", f"cv {BIN_FOLDS} --scores b --ci bootstrap {SCORED_RESAMPLES} {J}"),
        run("scored-cv-bin-lower", f"cv {BIN_FOLDS} --scores dist --lower-is-more-confident --positive pos {J}"),
        run("scored-cv-bin-score-bins", f"cv {BIN_FOLDS} --scores a --score-bins 10 --top-k-ties pessimistic {J}"),
        run("scored-cv-mc", f"cv {MC_FOLDS} --scores 'p_*' --ci delong-logit {J}"),
        run("scored-cv-mc-bca", f"cv {MC_FOLDS} --scores 'q_*' --ci bootstrap-bca {SCORED_RESAMPLES} {J}"),
        run("scored-cv-ml", f"cv {SC}/ml-fold1.csv {SC}/ml-fold2.csv --gold-col gold --multilabel --label-sep ';' "
            f"--scores 'a_*' --ci delong {J}"),
        run("scored-cv-not-probabilities", f"cv {BIN_FOLDS} --scores m --not-probabilities {J}"),
        run("scored-cv-conventions", f"cv {MC_FOLDS} --scores 'q_*' --bins 5 --binning equal-mass --brier half "
            f"--curve-points 10 {J}"),
        run("scored-cv-text", f"cv {MC_FOLDS} --scores 'p_*'"),
        run("scored-cv-text-verbose", f"cv {BIN_FOLDS} --scores a --ci delong --verbose --measures all"),
        # refused
        run("scored-bad-delong-without-scores", f"score {RUN} --ci delong {J}", 2),
        run("scored-bad-delta", f"score {BIN} --scores a --ci delta {J}", 2),
        run("scored-bad-mcnemar", f"compare {BIN} --scores A=a --scores B=b --test mcnemar {J}", 2),
        run("scored-bad-column", f"score {BIN} --scores nosuch {J}", 2),
        run("scored-bad-cv-counts", "cv --counts inputs/counts/scored-bin-1.json inputs/counts/scored-bin-2.json "
            f"{J}", 2),
    ]  # fmt: skip
    return runs


def corpus() -> tuple[list[Run], list[Run]]:
    """(the runs that make count files, every other run); names are unique."""
    first = count_runs() + span_count_runs() + scored_count_runs()
    rest = score_runs() + compare_runs() + cv_runs() + convert_runs() + audit_runs() + finagle_runs()
    rest += other_count_runs() + bad_runs() + span_runs() + scored_runs()
    names = [r.name for r in first + rest] + [c.name for c in api_cases()]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"duplicate run names: {duplicates}"
    return first, rest


# ---------------------------------------------------------------------------------------------------------------
# generate
# ---------------------------------------------------------------------------------------------------------------


HASH_SEED: list[str] = []  # generate --hash-seed N: PYTHONHASHSEED of every run (default: Python's random one)


def run_env(src: Path, cache: Path, extra: dict[str, str]) -> dict[str, str]:
    """A fixed environment: the source on PYTHONPATH, a fixed locale and terminal width, one BLAS thread.

    Bytecode goes to ``cache`` (PYTHONPYCACHEPREFIX), so the source tree is only read, never written.
    """
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": str(src),
        "PYTHONPYCACHEPREFIX": str(cache),
        "LC_ALL": "C.UTF-8",
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "COLUMNS": "100",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    if HASH_SEED:
        env["PYTHONHASHSEED"] = HASH_SEED[0]
    env.update(extra)
    return env


def execute(run: Run, outdir: Path, python: str, src: Path) -> dict[str, Any]:
    stdin = (outdir / run.stdin).read_bytes() if run.stdin else None
    target = outdir / run.output_file if run.output_file else None
    for path in [run.output_file, *run.extra_outputs]:
        if path is not None:
            (outdir / path).parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    proc = subprocess.run(
        [python, "-c", BOOT, *run.args],
        cwd=outdir,
        env=run_env(src, outdir / CACHE, run.env),
        input=stdin,
        capture_output=True,
    )
    seconds = time.monotonic() - started
    output = proc.stdout
    if target is not None and target.exists():
        output = target.read_bytes()
    (outdir / "runs" / f"{run.name}.{run.extension}").write_bytes(output)
    extra = {}
    for path in run.extra_outputs:
        stored = f"{run.name}.{Path(path).name}"
        written = outdir / path
        (outdir / "runs" / stored).write_bytes(written.read_bytes() if written.exists() else b"")
        extra[path] = stored
    meta = {
        "name": run.name,
        "kind": run.kind,
        "argv": ["clfeval", *run.args],
        "stdin": run.stdin,
        "env": run.env,
        "format": run.format,
        "output": f"{run.name}.{run.extension}",
        "output_file": run.output_file,
        "stdout_with_output_file": proc.stdout.decode("utf-8", "replace") if target is not None else None,
        "extra_outputs": extra,
        "exit_code": proc.returncode,
        "expected_exit_code": run.expect,
        "stderr": proc.stderr.decode("utf-8", "replace"),
        "seconds": round(seconds, 2),
    }
    write(outdir / "runs" / f"{run.name}.meta.json", json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    return {
        "name": run.name,
        "exit_code": proc.returncode,
        "expect": run.expect,
        "seconds": seconds,
        "stderr": meta["stderr"],
    }


# ---------------------------------------------------------------------------------------------------------------
# The Python API: to_json() of score, compare and cv for every kind, in one interpreter per kind
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class ApiCase:
    """One Python call whose result's ``to_json()`` is stored: ``code`` is an expression, or statements that set
    ``result``; it reads the data of ``inputs/api.json`` by kind (``lab``, ``lset``, ``spn``, ``binr``, ``mc``,
    ``twelve``, ``nine_ten``, ``mlab``)."""

    name: str
    kind: str
    code: str
    expect: int = 0  # 1: the call raises today (its error message is then the output)


# Run as PYTHON -c API_DRIVER OUTDIR, the cases as JSON on standard input; prints one JSON line per case.
API_DRIVER = r"""
import ast, json, sys, time, traceback, warnings
import numpy as np
import clfeval
from clfeval import CI, Test
from clfeval.scoring.scored import Conventions
outdir = sys.argv[1]
with open(outdir + "/inputs/api.json", encoding="utf-8") as f:
    data = json.load(f)
names = {"labels": "lab", "labelsets": "lset", "spans": "spn", "binary": "binr", "multiclass": "mc",
         "twelve": "twelve", "nine_ten": "nine_ten", "multilabel": "mlab"}
base = {"np": np, "clfeval": clfeval, "CI": CI, "Test": Test, "Conventions": Conventions}
base.update({short: data[key] for key, short in names.items()})
for case in json.load(sys.stdin):
    started = time.monotonic()
    ns = dict(base)
    out, err, code = "", "", 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            try:
                tree = compile(case["code"], "<" + case["name"] + ">", "eval")
                result = eval(tree, ns)
            except SyntaxError:
                exec(compile(case["code"], "<" + case["name"] + ">", "exec"), ns)
                result = ns["result"]
            out = result.to_json()
            out = out if out.endswith("\n") else out + "\n"
        except Exception as e:  # the case's error is its output, as a CLI run's exit code and stderr
            code = 1
            err = "".join(traceback.format_exception_only(type(e), e))
    lines = [f"warning: {w.category.__name__}: {w.message}\n" for w in caught]
    with open(outdir + "/runs/" + case["name"] + ".json", "w", encoding="utf-8") as f:
        f.write(out)
    print(json.dumps({"name": case["name"], "exit_code": code, "stderr": "".join(lines) + err,
                      "seconds": time.monotonic() - started}), flush=True)
"""


def api(name: str, kind: str, code: str, expect: int = 0) -> ApiCase:
    return ApiCase(f"api-{name}", kind, code, expect)


def api_cases() -> list[ApiCase]:
    abc = '{"A": lab["A"], "B": lab["B"], "C": lab["C"]}'
    ab_sets = '{"A": lset["A"], "B": lset["B"]}'
    ab_spans = '{"A": spn["A"], "B": spn["B"]}'
    bin_ab = 'scores={"A": binr["a"], "B": binr["b"]}'
    bin_abc = 'scores={"A": binr["a"], "B": binr["b"], "C": binr["c"]}'
    mc_ab = 'scores={"A": np.array(mc["P"]), "B": np.array(mc["Q"])}, labels=mc["classes"]'
    ml_ab = 'scores={"A": np.array(mlab["A"]), "B": np.array(mlab["B"])}, labels=mlab["labels"], multilabel=True'
    mcp = 'mc["gold"], scores=np.array(mc["P"]), labels=mc["classes"]'
    mcq = 'mc["gold"], scores=np.array(mc["Q"]), labels=mc["classes"]'
    mla = 'mlab["gold"], scores=np.array(mlab["A"]), labels=mlab["labels"], multilabel=True'
    boot = "seed=7, resamples=200"
    rounds = "seed=11, rounds=300"
    return [
        # labels and label sets
        api("labels-score", "labels", 'clfeval.score(lab["gold"], lab["A"])'),
        api("labels-score-bootstrap", "labels", f'clfeval.score(lab["gold"], lab["A"], ci="bootstrap", {boot})'),
        api("labels-score-delta-blocks", "labels", 'clfeval.score(lab["gold"], lab["B"], ci="delta", '
            'blocks=lab["blocks"])'),
        api("labels-score-CI-bca", "labels", 'clfeval.score(lab["gold"], lab["C"], ci=CI("bootstrap-bca", '
            'confidence=0.9, resamples=200, seed=3))'),
        api("labels-compare-ar", "labels", f'clfeval.compare(lab["gold"], {abc}, {rounds})'),
        api("labels-compare-bootstrap-blocks", "labels", f'clfeval.compare(lab["gold"], {abc}, test="bootstrap", '
            f'blocks=lab["blocks"], {rounds})'),
        api("labels-compare-Test-baseline", "labels", f'clfeval.compare(lab["gold"], {abc}, test=Test("ar", '
            'rounds=300, seed=11, alternative="greater", alpha=0.01), baseline="C", metrics=["macro.f1", "accuracy"])'),
        api("labels-compare-mcnemar", "labels", f'clfeval.compare(lab["gold"], {abc}, test="mcnemar", '
            'metrics="accuracy")'),
        api("labels-cv", "labels", 'clfeval.cv(lab["gold"], lab["A"], lab["folds"])'),
        api("labels-cv-delta", "labels", 'clfeval.cv(lab["gold"], lab["B"], lab["folds"], ci="delta")'),
        api("labelsets-score", "labels", 'clfeval.score(lset["gold"], lset["A"], multilabel=True, ci="delta")'),
        api("labelsets-compare", "labels", f'clfeval.compare(lset["gold"], {ab_sets}, multilabel=True, {rounds})'),
        api("labelsets-cv", "labels", 'clfeval.cv(lset["gold"], lset["A"], lset["folds"], multilabel=True)'),
        # spans
        api("spans-score", "spans", 'clfeval.score(spn["gold"], spn["A"], spans=True)'),
        api("spans-score-iob2-bootstrap", "spans", f'clfeval.score(spn["gold"], spn["A"], spans="iob2", '
            f'ci="bootstrap", {boot})'),
        api("spans-score-iob2-delta", "spans", 'clfeval.score(spn["gold"], spn["B"], spans="iob2", ci="delta")'),
        api("spans-score-entities", "spans", 'clfeval.score(spn["entities_gold"], [[tuple(e) for e in s] '
            'for s in spn["entities_A"]], spans=True)'),
        api("spans-compare-ar", "spans", f'clfeval.compare(spn["gold"], {ab_spans}, spans="iob2", {rounds})'),
        api("spans-compare-bootstrap", "spans", f'clfeval.compare(spn["gold"], {ab_spans}, spans="iob2", '
            f'test="bootstrap", metrics=["micro.f1", "macro.f1"], {rounds})'),
        api("spans-compare-sign", "spans", f'clfeval.compare(spn["gold"], {ab_spans}, test="sign", seed=5, '
            'spans=True)'),
        api("spans-compare-sign-issue", "spans", 'clfeval.compare(spn["sign"]["gold"], {"A": spn["sign"]["A"], '
            '"B": spn["sign"]["B"]}, test="sign", seed=5, spans=True)'),
        api("spans-compare-baseline", "spans", 'clfeval.compare(spn["gold"], {"A": spn["A"], "B": spn["B"], '
            '"G": spn["gold"]}, spans="iob2", baseline="G", alternative="less", seed=11, rounds=300)'),
        api("spans-cv", "spans", 'clfeval.cv(spn["gold"], spn["A"], spn["folds"], spans="iob2")'),
        api("spans-accumulator", "spans", 'acc = clfeval.Accumulator("spans", spans="iob2")\n'
            'for k in range(0, len(spn["gold"]), 25):\n'
            '    acc.update(spn["gold"][k:k + 25], spn["A"][k:k + 25])\n'
            'result = acc.score(ci="bootstrap", seed=2, resamples=200)'),
        # scored predictions: binary
        api("scored-bin", "scores", 'clfeval.score(binr["gold"], scores=binr["a"])'),
        api("scored-bin-array01", "scores", 'clfeval.score(np.array(binr["gold01"]), scores=np.array(binr["a"]))'),
        api("scored-bin-delong", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], ci="delong")'),
        api("scored-bin-delong-logit", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], ci="delong-logit", '
            'confidence=0.9)'),
        api("scored-bin-bootstrap", "scores", f'clfeval.score(binr["gold"], scores=binr["a"], ci="bootstrap", {boot})'),
        api("scored-bin-bootstrap-seed4", "scores", 'clfeval.score(binr["gold"], scores=binr["b"], ci="bootstrap", '
            'seed=4, resamples=200)'),
        api("scored-bin-CI-bootstrap", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], '
            'ci=CI("bootstrap", resamples=200, seed=7))'),
        api("scored-bin-CI-delong", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], ci=CI("delong"))'),
        # issue 37: one interval registry, CI("delong") as ci="delong"
        api("scored-bin-bca", "scores", f'clfeval.score(binr["gold"], scores=binr["a"], ci="bootstrap-bca", {boot})'),
        api("scored-bin-positive", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], positive="neg")'),
        api("scored-bin-threshold", "scores", 'clfeval.score(binr["gold"], scores=binr["b"], threshold=0.3)'),
        api("scored-bin-blocks-delong", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], ci="delong", '
            'blocks=binr["blocks"])'),
        api("scored-bin-blocks-bootstrap", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], '
            f'ci="bootstrap", blocks=binr["blocks"], {boot})'),
        api("scored-bin-lower", "scores", 'clfeval.score(binr["gold"], scores=binr["dist"], ci="delong", '
            'conventions=Conventions(lower_is_more_confident=True))'),
        api("scored-bin-score-bins", "scores", 'clfeval.score(binr["gold"], scores=binr["a"], ci="delong", '
            'conventions=Conventions(score_bins=10))'),
        api("scored-bin-not-probabilities", "scores", 'clfeval.score(binr["gold"], scores=binr["m"], '
            'conventions=Conventions(not_probabilities=True))'),
        api("scored-bin-conventions", "scores", 'clfeval.score(binr["gold"], scores=binr["c"], '
            'conventions=Conventions(bins=5, binning="equal-mass", brier="half", curve_points=20))'),
        api("scored-nine-ten", "scores", 'clfeval.score(nine_ten["gold"], scores=nine_ten["s"])'),
        api("scored-nine-ten-issue", "scores", "clfeval.score([9, 10, 9, 10, 9, 10], scores=[.1, .9, .2, .8, .3, .7])"),
        api("scored-roundoff", "scores", 'clfeval.score(binr["gold"][:30], scores=binr["a"][:29] + '
            '[1.0000000000000002])'),
        api("scored-bin-compare-delong", "scores", f'clfeval.compare(binr["gold"], {bin_ab}, test="delong")'),
        api("scored-bin-compare-delong-greater", "scores", f'clfeval.compare(binr["gold"], {bin_ab}, test="delong", '
            'alternative="greater")'),  # issue 37: one-sided DeLong, as pROC's
        api("scored-bin-compare-bootstrap", "scores", f'clfeval.compare(binr["gold"], {bin_abc}, test="bootstrap", '
            f'{rounds})'),
        api("scored-bin-compare-baseline", "scores", f'clfeval.compare(binr["gold"], {bin_abc}, test="bootstrap", '
            f'baseline="C", {rounds})'),
        api("scored-bin-compare-Test", "scores", f'clfeval.compare(binr["gold"], {bin_ab}, test=Test("bootstrap", '
            'rounds=300, seed=11, alpha=0.001, alternative="less"))'),
        api("scored-bin-compare-ar", "scores", f'clfeval.compare(binr["gold"], {bin_ab}, test="ar", '
            f'metrics=["auc", "log_loss", "brier"], {rounds})'),
        api("scored-bin-compare-blocks", "scores", f'clfeval.compare(binr["gold"], {bin_ab}, test="delong", '
            'blocks=binr["blocks"])'),
        api("scored-bin-cv", "scores", 'clfeval.cv(binr["gold"], scores=binr["a"], folds=binr["folds"])'),
        api("scored-bin-cv-delong", "scores", 'clfeval.cv(binr["gold"], scores=binr["a"], folds=binr["folds"], '
            'ci="delong")'),
        api("scored-bin-cv-bootstrap", "scores", 'clfeval.cv(binr["gold"], scores=binr["b"], folds=binr["folds"], '
            f'ci="bootstrap", {boot})'),
        # scored predictions: multi-class
        api("scored-mc", "scores", f"clfeval.score({mcp})"),
        api("scored-mc-no-labels", "scores", 'clfeval.score(mc["gold"], scores=np.array(mc["P"]))'),
        api("scored-mc-delong", "scores", f'clfeval.score({mcp}, ci="delong")'),
        api("scored-mc-bootstrap", "scores", f'clfeval.score({mcp}, ci="bootstrap", {boot})'),
        api("scored-mc-bca", "scores", f'clfeval.score({mcq}, ci="bootstrap-bca", {boot})'),
        api("scored-mc-blocks-delong", "scores", f'clfeval.score({mcp}, ci="delong", blocks=mc["blocks"])'),
        api("scored-mc-ties", "scores", f'clfeval.score({mcq}, conventions=Conventions(ties="optimistic"))'),
        api("scored-mc-pandas-reordered", "scores", 'import pandas as pd\n'
            'frame = pd.DataFrame(mc["P"], columns=mc["classes"])[["owl", "cat", "dog"]]\n'
            'result = clfeval.score(mc["gold"], scores=frame, labels=mc["classes"])'),
        api("scored-mc-polars-reordered", "scores", 'import polars as pl\n'
            'frame = pl.DataFrame(np.array(mc["P"]), schema=mc["classes"]).select(["owl", "cat", "dog"])\n'
            'result = clfeval.score(mc["gold"], scores=frame, labels=mc["classes"])'),
        api("scored-mc-rows-not-summing", "scores", 'clfeval.score(mc["gold"], scores=np.array(mc["P"]) * 1.1, '
            'labels=mc["classes"])', 1),  # issue 37: an error naming the row, no longer silently ranking only
        api("scored-twelve", "scores", 'clfeval.score(np.array(twelve["gold"]), scores=np.array(twelve["P"]))'),
        api("scored-twelve-issue", "scores", "y = np.arange(12).repeat(5)\n"
            "result = clfeval.score(y, scores=(np.eye(12)[y] * 0.89 + 0.01) / 1.01)"),
        api("scored-mc-compare-delong", "scores", f'clfeval.compare(mc["gold"], {mc_ab}, test="delong")'),
        api("scored-mc-compare-bootstrap", "scores", f'clfeval.compare(mc["gold"], {mc_ab}, test="bootstrap", '
            f'metrics=["macro.auc", "log_loss"], {rounds})'),
        api("scored-mc-cv", "scores", 'clfeval.cv(mc["gold"], scores=np.array(mc["P"]), folds=mc["folds"], '
            'labels=mc["classes"], ci="delong")'),
        api("scored-mc-accumulator", "scores", 'acc = clfeval.Accumulator("scored", labels=mc["classes"])\n'
            'for k in range(0, len(mc["gold"]), 50):\n'
            '    acc.update(mc["gold"][k:k + 50], np.array(mc["P"][k:k + 50]))\n'
            'result = acc.score(ci="delong")'),
        # scored predictions: multi-label
        api("scored-ml", "scores", f"clfeval.score({mla})"),
        api("scored-ml-delong", "scores", f'clfeval.score({mla}, ci="delong")'),
        api("scored-ml-bootstrap", "scores", f'clfeval.score({mla}, ci="bootstrap", {boot})'),
        api("scored-ml-compare-delong", "scores", f'clfeval.compare(mlab["gold"], {ml_ab}, test="delong")'),
        api("scored-ml-compare-bootstrap", "scores", f'clfeval.compare(mlab["gold"], {ml_ab}, test="bootstrap", '
            f'{rounds})'),
        api("scored-ml-cv", "scores", 'clfeval.cv(mlab["gold"], scores=np.array(mlab["A"]), folds=mlab["folds"], '
            'labels=mlab["labels"], multilabel=True)'),
    ]  # fmt: skip


def execute_api(cases: list[ApiCase], outdir: Path, python: str, src: Path) -> list[dict[str, Any]]:
    """Run ``cases`` in one interpreter; write each case's meta file as a CLI run's."""
    payload = json.dumps([{"name": c.name, "code": c.code} for c in cases]).encode("utf-8")
    proc = subprocess.run(
        [python, "-c", API_DRIVER, str(outdir)],
        cwd=outdir,
        env=run_env(src, outdir / CACHE, {}),
        input=payload,
        capture_output=True,
    )
    done = {}
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("{"):
            item = json.loads(line)
            done[item["name"]] = item
    results = []
    for case in cases:
        item = done.get(case.name)
        if item is None:  # the interpreter died before this case: its stderr is the case's
            item = {"exit_code": proc.returncode or 1, "stderr": proc.stderr.decode("utf-8", "replace"), "seconds": 0}
            (outdir / "runs" / f"{case.name}.json").write_bytes(b"")
        meta = {
            "name": case.name,
            "kind": case.kind,
            "argv": ["python", "-c", case.code],
            "stdin": None,
            "env": {},
            "format": "json",
            "output": f"{case.name}.json",
            "output_file": None,
            "stdout_with_output_file": None,
            "extra_outputs": {},
            "exit_code": item["exit_code"],
            "expected_exit_code": case.expect,
            "stderr": item["stderr"],
            "seconds": round(item["seconds"], 2),
        }
        write(outdir / "runs" / f"{case.name}.meta.json", json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
        results.append(
            {
                "name": case.name,
                "exit_code": item["exit_code"],
                "expect": case.expect,
                "seconds": item["seconds"],
                "stderr": item["stderr"],
            }
        )
    return results


def cli_probe(python: str, src: Path, code: str, cache: Path) -> str:
    env = run_env(src, cache, {})
    proc = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, cwd="/")
    if proc.returncode:
        sys.exit(f"json_corpus: cannot run clfeval from {src} with {python}:\n{proc.stderr}")
    return proc.stdout.strip()


def option_coverage(python: str, src: Path, cache: Path, runs: list[Run]) -> dict[str, list[str]]:
    """Each command's options (from its usage line) that no run of the corpus uses, but those of :data:`NOT_COVERED`."""
    used: dict[str, set[str]] = {cmd: set() for cmd in COMMANDS}
    for run in runs:
        if run.args and run.args[0] in used:
            used[run.args[0]].update("--output" if a == "-o" else a.split("=")[0] for a in run.args if a[:1] == "-")
    missing = {}
    for cmd in COMMANDS:
        env = run_env(src, cache, {})
        proc = subprocess.run([python, "-c", BOOT, cmd, "--help"], env=env, capture_output=True, text=True, cwd="/")
        usage = proc.stdout.split("\n\n")[0]
        options = sorted(set(re.findall(r"(?<![\w-])--[a-z][\w-]*", usage)) - {"--help", *NOT_COVERED})
        missing[cmd] = [o for o in options if o not in used[cmd]]
    return missing


def tree_digest(src: Path) -> str:
    """One hash of every file under ``src`` (bytecode caches left out): what the corpus was made from."""
    digest = hashlib.sha256()
    for path in sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(src)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def generate(args: argparse.Namespace) -> int:
    outdir = Path(args.outdir).resolve()
    src = Path(args.src).resolve()
    python = args.python
    if not (src / "clfeval" / "__init__.py").is_file():
        sys.exit(f"json_corpus: {src} holds no clfeval package")
    if outdir.exists() and any(outdir.iterdir()):
        if not args.force:
            sys.exit(f"json_corpus: {outdir} is not empty (--force replaces a corpus)")
        if not (outdir / "manifest.json").exists() and not (outdir / "inputs").exists():
            sys.exit(f"json_corpus: {outdir} does not look like a corpus; not removing it")
        shutil.rmtree(outdir)
    (outdir / "runs").mkdir(parents=True)
    if args.hash_seed is not None:
        HASH_SEED[:] = [str(args.hash_seed)]
    started = time.monotonic()
    digest = tree_digest(src)
    cache = outdir / CACHE

    imported = cli_probe(python, src, "import clfeval; print(clfeval.__file__)", cache)
    if not Path(imported).resolve().is_relative_to(src):
        sys.exit(f"json_corpus: PYTHONPATH={src} imports clfeval from {imported}")
    version = cli_probe(python, src, "import clfeval; print(clfeval.__version__)", cache)
    code = "import sys, numpy, polars; print(sys.version.split()[0], numpy.__version__, polars.__version__)"
    versions = cli_probe(python, src, code, cache).split()
    make_inputs(outdir / "inputs", python)

    first, rest = corpus()
    cases = api_cases()
    groups = [[c for c in cases if c.kind == kind] for kind in dict.fromkeys(c.kind for c in cases)]
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results += list(pool.map(lambda r: execute(r, outdir, python, src), first))
        print(f"json_corpus: {len(results)} runs done ({time.monotonic() - started:.0f} s)", file=sys.stderr)
        # the Python API's cases, an interpreter per kind, start first: they take longest
        tasks = [lambda g=g: execute_api(g, outdir, python, src) for g in groups]
        tasks += [lambda r=r: [execute(r, outdir, python, src)] for r in rest]
        for done in pool.map(lambda task: task(), tasks):
            results += done
        print(f"json_corpus: {len(results)} runs done ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    shutil.rmtree(outdir / "out", ignore_errors=True)  # -o targets, already copied into runs/
    coverage = option_coverage(python, src, cache, first + rest)
    shutil.rmtree(cache, ignore_errors=True)
    seconds = time.monotonic() - started
    changed = tree_digest(src) != digest

    inputs = sorted(p for p in (outdir / "inputs").rglob("*") if p.is_file())
    per_command: dict[str, int] = {}
    per_kind: dict[str, int] = {}
    for run in first + rest:
        key = run.args[0] if run.expect == 0 and run.args else "bad input (exit 2)"
        per_command[key] = per_command.get(key, 0) + 1
        per_kind[run.kind] = per_kind.get(run.kind, 0) + 1
    per_command["python API"] = len(cases)
    for case in cases:
        per_kind[case.kind] = per_kind.get(case.kind, 0) + 1
    manifest = {
        "schema": CORPUS_SCHEMA,
        "outdir": str(outdir),
        "src": str(src),
        "src_digest": digest,
        "src_changed_during_generate": changed,
        "python": python,
        "clfeval_version": version,
        "python_version": versions[0],
        "numpy_version": versions[1],
        "polars_version": versions[2],
        "input_seed": SEED,
        "seconds": round(seconds, 1),
        "runs": [r["name"] for r in results],
        "runs_per_command": per_command,
        "runs_per_kind": per_kind,
        "kinds": {r.name: r.kind for r in first + rest} | {c.name: c.kind for c in cases},
        "pythonhashseed": args.hash_seed if args.hash_seed is not None else "random (a new one per process)",
        "inputs": {str(p.relative_to(outdir)): file_digest(p) for p in inputs},
        "options_not_covered": coverage,
        "options_left_out_on_purpose": NOT_COVERED,
    }
    write(outdir / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")

    unexpected = [r for r in results if r["exit_code"] != r["expect"]]
    tracebacks = [r["name"] for r in results if "Traceback" in r["stderr"]]
    with_stderr = [r["name"] for r in results if r["stderr"] and r["expect"] == 0]
    print(f"json_corpus: {len(results)} runs of clfeval {version} from {src} into {outdir} in {seconds:.1f} s")
    slowest = sorted(results, key=lambda r: -r["seconds"])[:5]
    print("  runs: " + ", ".join(f"{cmd} {n}" for cmd, n in per_command.items()))
    print("  by kind: " + ", ".join(f"{kind} {n}" for kind, n in per_kind.items()))
    print("  slowest: " + ", ".join(f"{r['name']} {r['seconds']:.1f} s" for r in slowest))
    for r in unexpected:
        last_line = (r["stderr"].strip().splitlines() or [""])[-1]
        print(f"  UNEXPECTED exit {r['exit_code']} (expected {r['expect']}): {r['name']}: {last_line[:200]}")
    if tracebacks:
        print(f"  tracebacks on stderr: {', '.join(tracebacks)}")
    print(f"  {len(with_stderr)} successful runs wrote warnings to stderr")
    for cmd, missing in coverage.items():
        if missing:
            print(f"  options of {cmd} no run uses: {' '.join(missing)}")
    if changed:
        print(f"  THE SOURCE TREE {src} CHANGED WHILE THE CORPUS WAS MADE: the corpus is not of one source")
        return 1
    return 0


# ---------------------------------------------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class Corpus:
    root: Path
    manifest: dict[str, Any]

    @classmethod
    def load(cls, root: str) -> Corpus:
        path = Path(root).resolve()
        try:
            manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            sys.exit(f"json_corpus: {path} has no manifest.json (not a corpus, or generate did not finish)")
        if manifest.get("schema") != CORPUS_SCHEMA:
            sys.exit(f"json_corpus: {path}: unknown corpus schema {manifest.get('schema')!r}")
        return cls(path, manifest)

    def normalise(self, text: str) -> str:
        """Placeholders for what may differ between two corpora of the same numbers: directories and version.

        The version is replaced only where clfeval writes it (``clfeval:V`` starts a signature, ``clfeval V`` heads
        reports, the HTML provenance has ``<dt>clfeval</dt><dd>V</dd>``), never as a bare string that could be a
        number of a report.
        """
        for directory, placeholder in ((self.manifest["outdir"], "<OUTDIR>"), (self.manifest["src"], "<SRC>")):
            text = text.replace(directory, placeholder)
        version = re.escape(self.manifest["clfeval_version"])
        text = re.sub(rf"\bclfeval([: ]){version}(?![\w.])", r"clfeval\1<VERSION>", text)
        return text.replace(
            f"<dt>clfeval</dt><dd>{self.manifest['clfeval_version']}</dd>", "<dt>clfeval</dt><dd><VERSION></dd>"
        )

    def meta(self, name: str) -> dict[str, Any]:
        return json.loads((self.root / "runs" / f"{name}.meta.json").read_text(encoding="utf-8"))

    def output(self, meta: dict[str, Any]) -> bytes:
        return (self.root / "runs" / meta["output"]).read_bytes()


@dataclass
class Diff:
    """One difference of a run: what changed (a category below), where (a JSON pointer, or a part of the run) and
    how (the values)."""

    what: str  # value, string, type, length, removed, exit code, stderr, stdout, output, extra output, command
    path: str  # a JSON pointer into the output, or the part of the run ("stderr", "output line 3", …)
    detail: str
    rel: float | None = None  # value: the relative difference

    def line(self) -> str:
        return f"{self.path}: {self.detail}" if self.path else self.detail


CATEGORIES = {
    "value": "a number changed beyond the tolerance",
    "string": "a string changed",
    "type": "a value changed its type (int ↔ float, number ↔ null, …)",
    "length": "a list changed its length",
    "removed": "a key of OLD is missing in NEW",
    "exit code": "the exit code changed",
    "stderr": "standard error changed (warnings, errors)",
    "stdout": "standard output changed (with -o FILE)",
    "output": "a text output (text, Markdown, CSV, LaTeX, HTML, conlleval) changed",
    "extra output": "a file the run writes besides its output changed (--errors FILE)",
    "command": "the command differs (not compared further)",
}


@dataclass
class Findings:
    """What one run's comparison found."""

    diffs: list[Diff] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    numbers: int = 0
    max_rel: float = 0.0
    max_rel_at: str = ""

    def add(self, what: str, path: str, detail: str, rel: float | None = None) -> None:
        self.diffs.append(Diff(what, path, detail, rel))


def pointer(path: str, key: object) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def general(path: str) -> str:
    """A JSON pointer with its list indices as ``*``: one field of every item of a list (``/pairs/*/p_value``)."""
    return re.sub(r"(?<=/)\d+(?=/|$)", "*", path)


def show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def show_strings(old: str, new: str, width: int = 70) -> str:
    """Two strings that differ, each cut to a window around where they start to differ."""
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    lo = max(0, start - width // 2)

    def cut(text: str) -> str:
        part = json.dumps(text[lo : lo + width], ensure_ascii=False)
        return ("…" if lo else "") + part + ("…" if lo + width < len(text) else "")

    return f"{cut(old)} became {cut(new)}"


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def compare_json(
    old: Any, new: Any, path: str, ctx: tuple[Corpus, Corpus], tol: tuple[float, float], out: Findings
) -> None:
    """Every key of OLD in NEW with an equal value (keys only in NEW are recorded as added)."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            out.add("type", path or "/", f"an object became {show(new)}")
            return
        for key, value in old.items():
            if key not in new:
                out.add("removed", pointer(path, key), f"missing in NEW (OLD {show(value)})")
            elif key == "clfeval_version":
                continue
            else:
                compare_json(value, new[key], pointer(path, key), ctx, tol, out)
        out.added += [pointer(path, key) for key in new if key not in old]
    elif isinstance(old, list):
        if not isinstance(new, list):
            out.add("type", path or "/", f"a list became {show(new)}")
            return
        if len(old) != len(new):
            out.add("length", path or "/", f"{len(old)} items became {len(new)}")
        for i, (a, b) in enumerate(zip(old, new)):
            compare_json(a, b, pointer(path, i), ctx, tol, out)
    elif is_number(old):
        if not is_number(new) or isinstance(old, int) != isinstance(new, int):
            out.add("type", path, f"{show(old)} became {show(new)}")
            return
        out.numbers += 1
        if old == new or (isinstance(old, float) and math.isnan(old) and math.isnan(new)):
            return
        scale = max(abs(old), abs(new))
        rel = abs(old - new) / scale if math.isfinite(scale) else math.inf
        if rel > out.max_rel:
            out.max_rel, out.max_rel_at = rel, path
        if rel > tol[0] and abs(old - new) > tol[1]:
            out.add("value", path, f"{old!r} became {new!r} (relative difference {rel:.3g})", rel)
    elif isinstance(old, str):
        if not isinstance(new, str):
            out.add("type", path, f"{show(old)} became {show(new)}")
        elif ctx[0].normalise(old) != ctx[1].normalise(new):
            out.add("string", path, show_strings(ctx[0].normalise(old), ctx[1].normalise(new)))
    elif old != new or type(old) is not type(new):  # None, booleans
        out.add("type" if type(old) is not type(new) else "value", path, f"{show(old)} became {show(new)}")


def compare_text(what: str, old: str, new: str, ctx: tuple[Corpus, Corpus], out: Findings, part: str = "") -> None:
    a, b = ctx[0].normalise(old).splitlines(), ctx[1].normalise(new).splitlines()
    part = part or what
    if a == b and ctx[0].normalise(old).endswith("\n") == ctx[1].normalise(new).endswith("\n"):
        return
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            out.add(what, part, f"line {i + 1}: {show_strings(x, y)}")
            return
    out.add(what, part, f"{len(a)} lines became {len(b)}")


def load_json(data: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False, None


def compare_run(name: str, ctx: tuple[Corpus, Corpus], tol: tuple[float, float]) -> Findings:
    out = Findings()
    old_meta, new_meta = ctx[0].meta(name), ctx[1].meta(name)
    if old_meta["argv"] != new_meta["argv"] or old_meta.get("env") != new_meta.get("env"):
        out.add("command", "", f"the command differs: {shlex.join(old_meta['argv'])} | {shlex.join(new_meta['argv'])}")
        return out
    if old_meta["exit_code"] != new_meta["exit_code"]:
        out.add("exit code", "exit code", f"{old_meta['exit_code']} became {new_meta['exit_code']}")
    compare_text("stderr", old_meta["stderr"], new_meta["stderr"], ctx, out)
    if old_meta.get("stdout_with_output_file") or new_meta.get("stdout_with_output_file"):
        compare_text(
            "stdout",
            old_meta.get("stdout_with_output_file") or "",
            new_meta.get("stdout_with_output_file") or "",
            ctx,
            out,
        )
    for path, stored in (old_meta.get("extra_outputs") or {}).items():
        new_stored = (new_meta.get("extra_outputs") or {}).get(path)
        if new_stored is None:
            out.add("extra output", path, "missing in NEW")
            continue
        old_text = (ctx[0].root / "runs" / stored).read_bytes().decode("utf-8", "replace")
        new_text = (ctx[1].root / "runs" / new_stored).read_bytes().decode("utf-8", "replace")
        compare_text("extra output", old_text, new_text, ctx, out, path)
    old_out, new_out = ctx[0].output(old_meta), ctx[1].output(new_meta)
    old_ok, old_doc = load_json(old_out) if old_meta["format"] == "json" and old_out.strip() else (False, None)
    if old_ok:
        new_ok, new_doc = load_json(new_out)
        if new_ok:
            compare_json(old_doc, new_doc, "", ctx, tol, out)
        else:
            out.add("output", "output", "OLD is JSON, NEW is not" + (" (empty)" if not new_out.strip() else ""))
    else:
        compare_text("output", old_out.decode("utf-8", "replace"), new_out.decode("utf-8", "replace"), ctx, out)
    return out


def run_kind(corpus_: Corpus, name: str) -> str:
    """A run's kind (labels, spans, scores, convert, audit, finagle), as the corpus recorded it."""
    return (corpus_.manifest.get("kinds") or {}).get(name) or corpus_.meta(name).get("kind") or "labels"


def noise_of(old: Corpus, rerun: Corpus, tol: tuple[float, float]) -> dict[str, set[str]]:
    """What differs between two corpora of one source: per run, the paths that are not reproducible."""
    ctx = (old, rerun)
    noisy: dict[str, set[str]] = {}
    for name in old.manifest["runs"]:
        if name in set(rerun.manifest["runs"]):
            found = compare_run(name, ctx, tol)
            if found.diffs:
                noisy[name] = {d.path for d in found.diffs}
    return noisy


def names_list(names: Sequence[str], most: int = 6) -> str:
    shown = ", ".join(names[:most])
    return shown + (f", … {len(names) - most} more" if len(names) > most else "")


def compare(args: argparse.Namespace) -> int:
    old, new = Corpus.load(args.old), Corpus.load(args.new)
    ctx = (old, new)
    tol = (args.rel_tol, args.abs_tol)
    print(f"OLD {old.root}: clfeval {old.manifest['clfeval_version']} from {old.manifest['src']}")
    print(f"NEW {new.root}: clfeval {new.manifest['clfeval_version']} from {new.manifest['src']}")
    print(
        f"numbers equal within relative {args.rel_tol:g}" + (f" or absolute {args.abs_tol:g}" if args.abs_tol else "")
    )
    failed = False
    for key in ("python_version", "numpy_version", "polars_version", "input_seed"):
        if old.manifest.get(key) != new.manifest.get(key):
            print(f"note: {key} differs: {old.manifest.get(key)} | {new.manifest.get(key)}")
    old_inputs, new_inputs = old.manifest["inputs"], new.manifest["inputs"]
    changed_inputs = sorted(p for p in old_inputs.keys() | new_inputs.keys() if old_inputs.get(p) != new_inputs.get(p))
    if changed_inputs:
        failed = True
        print(f"INPUTS DIFFER ({len(changed_inputs)} files): {', '.join(changed_inputs[:10])}")
    for corpus_ in (old, new):
        if corpus_.manifest.get("src_changed_during_generate"):
            failed = True
            print(f"NOT OF ONE SOURCE: {corpus_.manifest['src']} changed while {corpus_.root} was made")
    noisy: dict[str, set[str]] = {}
    if args.rerun:
        rerun = Corpus.load(args.rerun)
        if rerun.manifest.get("src_digest") != old.manifest.get("src_digest"):
            sys.exit(f"json_corpus: --rerun {rerun.root} is not of OLD's source (another src_digest)")
        noisy = noise_of(old, rerun, tol)
        print(f"--rerun {rerun.root}: {len(noisy)} runs of OLD are not reproducible (differences on their paths are "
              "reported apart)")  # fmt: skip
    old_runs, new_runs = old.manifest["runs"], new.manifest["runs"]
    missing = [r for r in old_runs if r not in set(new_runs)]
    extra = [r for r in new_runs if r not in set(old_runs)]
    common = [r for r in old_runs if r in set(new_runs)]

    per_kind: dict[str, dict[str, int]] = {}
    with_added, differing, only_noise = [], [], []
    added_paths: dict[str, list[str]] = {}
    by_field: dict[tuple[str, str, str], list[str]] = {}  # (kind, category, general path) → runs
    numbers, max_rel, max_rel_at = 0, 0.0, ""
    report_runs = []
    for name in common:
        kind = run_kind(old, name)
        tally = per_kind.setdefault(kind, {"compared": 0, "identical": 0, "added only": 0, "differing": 0,
                                           "nondeterministic only": 0})  # fmt: skip
        tally["compared"] += 1
        found = compare_run(name, ctx, tol)
        numbers += found.numbers
        if found.max_rel > max_rel:
            max_rel, max_rel_at = found.max_rel, f"{name}: {found.max_rel_at}"
        for p in found.added:
            added_paths.setdefault(general(p), []).append(name)
        real = [d for d in found.diffs if d.path not in noisy.get(name, set())]
        noise = [d for d in found.diffs if d.path in noisy.get(name, set())]
        for d in real:
            runs_ = by_field.setdefault((kind, d.what, general(d.path)), [])
            if name not in runs_:
                runs_.append(name)
        if real:
            differing.append((name, kind, found, real, noise))
            tally["differing"] += 1
        elif noise:
            only_noise.append((name, kind, noise))
            tally["nondeterministic only"] += 1
        elif found.added:
            with_added.append(name)
            tally["added only"] += 1
        else:
            tally["identical"] += 1
        if found.diffs or found.added:
            report_runs.append({
                "name": name, "kind": kind, "argv": old.meta(name)["argv"],
                "differences": [{"what": d.what, "path": d.path, "detail": d.detail, "rel": d.rel,
                                 "nondeterministic_in_old": d in noise} for d in found.diffs],
                "added": found.added,
            })  # fmt: skip

    print(f"runs compared: {len(common)}")
    for kind, tally in sorted(per_kind.items()):
        parts = [f"{tally['identical']} identical", f"{tally['added only']} equal but for added keys",
                 f"{tally['differing']} differing"]  # fmt: skip
        if noisy:
            parts.append(f"{tally['nondeterministic only']} differing only where OLD is not reproducible")
        print(f"  {kind}: {tally['compared']} runs: " + ", ".join(parts))
    if missing:
        print(f"  runs missing in NEW: {len(missing)}: {names_list(missing, 20)}")
    if extra:
        print(f"  runs only in NEW (not compared): {len(extra)}: {names_list(extra, 20)}")
    print(
        f"numbers compared: {numbers}; largest relative difference: {max_rel:.3g}"
        + (f" ({max_rel_at})" if max_rel else "")
    )
    for name, kind, _, real, noise in differing:
        print(f"DIFFERS {name} [{kind}] ({len(real)} difference{'s' if len(real) > 1 else ''})")
        for d in real[: args.max_diffs]:
            print(f"    {d.what}: {d.line()}")
        if len(real) > args.max_diffs:
            print(f"    … {len(real) - args.max_diffs} more")
        if noise:
            print(f"    (and {len(noise)} where OLD is not reproducible)")
    if by_field:
        print("changed fields, by kind and category (list indices as *; runs):")
        for (kind, what, path), runs_ in sorted(by_field.items()):
            print(f"    [{kind}] {what} {path or '(whole run)'}: {len(runs_)} run{'s' if len(runs_) > 1 else ''}: "
                  f"{names_list(runs_)}")  # fmt: skip
    if only_noise:
        print(f"differing only where OLD is not reproducible (--rerun): {len(only_noise)} runs")
        for name, kind, noise in only_noise:
            print(f"    {name} [{kind}]: {', '.join(sorted({general(d.path) for d in noise})[:6])}")
    if added_paths:
        print(f"added keys (allowed): {len(added_paths)} JSON paths (list indices as *):")
        for p, runs_ in sorted(added_paths.items())[: args.max_added]:
            print(f"    {p}: {len(runs_)} run{'s' if len(runs_) > 1 else ''}: {names_list(runs_, 3)}")
        if len(added_paths) > args.max_added:
            print(f"    … {len(added_paths) - args.max_added} more (--max-added)")
    else:
        print("added keys: none")
    if args.report:
        document = {
            "old": str(old.root), "new": str(new.root), "rel_tol": args.rel_tol, "abs_tol": args.abs_tol,
            "rerun": args.rerun, "categories": CATEGORIES, "per_kind": per_kind, "missing_in_new": missing,
            "only_in_new": extra, "changed_fields": [
                {"kind": k, "what": w, "path": p, "runs": r} for (k, w, p), r in sorted(by_field.items())
            ],
            "added_fields": [{"path": p, "runs": r} for p, r in sorted(added_paths.items())],
            "runs": report_runs,
        }  # fmt: skip
        write(Path(args.report), json.dumps(document, indent=1, ensure_ascii=False) + "\n")
        print(f"the full report: {args.report}")
    failed = failed or bool(differing) or bool(missing)
    print("RESULT: " + ("DIFFERENT" if failed else "SAME (no number or key of OLD changed)"))
    return 1 if failed else 0


def check(args: argparse.Namespace) -> int:
    """generate into NEW (default: a new directory under /tmp), then compare OLD with it."""
    import tempfile

    new = args.new or tempfile.mkdtemp(prefix="json-corpus-")
    gen = argparse.Namespace(outdir=new, src=args.src, python=args.python, jobs=args.jobs, force=args.force,
                             hash_seed=args.hash_seed)  # fmt: skip
    code = generate(gen)
    if code:
        return code
    args.new = new
    return compare(args)


def list_runs(args: argparse.Namespace) -> int:
    first, rest = corpus()
    for run in first + rest:
        print(
            f"{run.name} [{run.kind}]: {shlex.join(['clfeval', *run.args])}" + (f" < {run.stdin}" if run.stdin else "")
        )
    cases = api_cases()
    for case in cases:
        print(f"{case.name} [{case.kind}]: python: {' ; '.join(case.code.splitlines())}")
    print(f"{len(first) + len(rest)} command-line runs, {len(cases)} Python API cases", file=sys.stderr)
    return 0


def generate_options(g: argparse.ArgumentParser) -> None:
    venv = REPO / ".venv" / "bin" / "python"
    g.add_argument(
        "--src", default=str(REPO / "src"), help="the source directory holding clfeval/ (default: %(default)s)"
    )
    g.add_argument(
        "--python",
        default=str(venv) if venv.exists() else sys.executable,
        help="the interpreter (default: %(default)s)",
    )
    g.add_argument("--jobs", type=int, default=2, help="runs at a time (default: %(default)s)")
    g.add_argument("--force", action="store_true", help="replace an existing corpus in OUTDIR")
    g.add_argument(
        "--hash-seed",
        type=int,
        help="PYTHONHASHSEED of every run (default: unset, so each process draws its own, as a user's would; "
        "fix it to tell hash-order nondeterminism from other kinds)",
    )


def compare_options(c: argparse.ArgumentParser) -> None:
    c.add_argument("--rel-tol", type=float, default=1e-12, help="relative tolerance of numbers (default: %(default)s)")
    c.add_argument("--abs-tol", type=float, default=0.0, help="differences up to this are tolerated too (default: 0)")
    c.add_argument(
        "--rerun",
        metavar="DIR",
        help="a second corpus of OLD's source: what differs between OLD and DIR is not reproducible, and its "
        "differences from NEW are reported apart (they do not make the result DIFFERENT)",
    )
    c.add_argument("--report", metavar="FILE", help="also write every difference and added key as JSON to FILE")
    c.add_argument("--max-diffs", type=int, default=10, help="differences shown per run (default: %(default)s)")
    c.add_argument("--max-added", type=int, default=50, help="added JSON paths shown (default: %(default)s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="write the inputs and run the corpus into OUTDIR")
    g.add_argument("outdir")
    generate_options(g)
    g.set_defaults(func=generate)
    c = sub.add_parser("compare", help="compare two corpora: exit 1 on any difference")
    c.add_argument("old")
    c.add_argument("new")
    compare_options(c)
    c.set_defaults(func=compare)
    k = sub.add_parser("check", help="generate a corpus of --src (into --new DIR, or a new directory), compare OLD")
    k.add_argument("old")
    k.add_argument("--new", metavar="DIR", help="where the new corpus goes (default: a new directory under /tmp)")
    generate_options(k)
    compare_options(k)
    k.set_defaults(func=check)
    ls = sub.add_parser("list", help="print the corpus's runs")
    ls.set_defaults(func=list_runs)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
