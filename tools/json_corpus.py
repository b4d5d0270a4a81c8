#!/usr/bin/env python3
"""Record a corpus of clfeval CLI outputs, and compare two corpora: proof that a refactor changed no number or key.

Usage::

    python tools/json_corpus.py generate OUTDIR [--src SRCDIR] [--python PYTHON] [--jobs N] [--force]
    python tools/json_corpus.py compare OLDDIR NEWDIR [--rel-tol X] [--abs-tol X] [--max-diffs N] [--max-added N]
    python tools/json_corpus.py list                      # the corpus's command lines

``generate`` writes a deterministic set of small input files into ``OUTDIR/inputs`` (single-label text, TSV, CSV,
JSON Lines and Parquet tables; gold and prediction files of three systems; multi-label files; sentence blocks
separated by blank lines or ``<utt>`` lines and a block column; confusion matrices; training data and label files;
folds as files and as a column; TiMBL-style distances and confidences for finagle; paper tables for audit and
convert; count files made by ``clfeval count``; a few bad files), then runs the corpus (every command, option and
interval method and test; ``list`` prints it) with ``OUTDIR`` as the working directory, so every path in an output
is relative. Per run it stores ``OUTDIR/runs/NAME.EXT`` (standard output, or the ``-o`` file; EXT from the format)
and ``OUTDIR/runs/NAME.meta.json`` (argv, exit code, stderr). ``OUTDIR/manifest.json`` records the source
directory and a digest of it, the clfeval, Python, numpy and polars versions, the inputs' hashes and the options no
run uses. The CLI runs as ``PYTHON -c "import sys; from clfeval.cli import main; sys.exit(main(sys.argv[1:]))"``
with ``PYTHONPATH=SRCDIR`` (default: this checkout's ``src``; PYTHON: this checkout's ``.venv/bin/python``), in a
fixed environment (locale, terminal width, one BLAS thread; bytecode in ``OUTDIR/.pycache``, removed at the end,
so SRCDIR is only read). Every bootstrap and test has a fixed ``--seed``. Generate warns about runs whose exit code
is not the expected one, and fails when SRCDIR changed while it ran.

``compare`` matches the runs of two corpora by name. For JSON outputs every key of OLD must exist in NEW with an
equal value: numbers within a relative ``--rel-tol`` (default 1e-9; the largest relative difference seen is
reported), an int must stay an int and a float a float, lists keep their length, strings are equal after
normalisation; keys only in NEW are listed as added and allowed; key order is not compared. Normalisation: the
``clfeval_version`` values are not compared, the version is replaced where clfeval writes it (``clfeval:V`` of a
signature, ``clfeval V``), and the corpus and source directories are replaced by placeholders. Other outputs
(text, Markdown, CSV, LaTeX, HTML) and stderr must be equal as text after the same normalisation, and exit codes
equal. It prints a summary (the first differences of each run, as JSON paths) and exits 1 on any difference
(or a run missing in NEW, or different inputs), 0 otherwise.

Baseline and check, as recorded for the refactor (a private export: /tmp/base is shared with other sessions)::

    git archive 2c2e1ca src | tar -x -C /tmp/json-corpus-src-2c2e1ca
    python tools/json_corpus.py generate /tmp/corpus-base --src /tmp/json-corpus-src-2c2e1ca/src
    python tools/json_corpus.py generate /tmp/corpus-new                      # this checkout's src
    python tools/json_corpus.py compare /tmp/corpus-base /tmp/corpus-new

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
    # Parquet, written by the CLI's interpreter (polars), from the JSON Lines above
    parquet = f"""
import json, polars as pl
rows = [json.loads(x) for x in open({str(inputs / "run.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(rows).write_parquet({str(inputs / "run.parquet")!r}, statistics=False)
ml = [json.loads(x) for x in open({str(inputs / "ml.jsonl")!r}, encoding="utf-8")]
pl.DataFrame(ml, schema={{"gold": pl.List(pl.String), "pred": pl.List(pl.String)}}).write_parquet(
    {str(inputs / "ml.parquet")!r}, statistics=False)
"""
    subprocess.run([python, "-c", parquet], check=True)


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
        "accuracy", "hamming_loss", "mcc", "kappa", "kappa_quadratic", "balanced_accuracy", "per_label.NN.f1",
        "per_label.UH.precision", "macro.f1,macro_fa.f1,mcc",
    ]  # fmt: skip
    runs += [
        run(f"compare-metric-{m.replace(',', '+')}", f"compare {SYSTEMS3} --metric {m} {ROUNDS} {J}") for m in metrics
    ]
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


def corpus() -> tuple[list[Run], list[Run]]:
    """(the runs that make count files, every other run); names are unique."""
    first = count_runs()
    rest = score_runs() + compare_runs() + cv_runs() + convert_runs() + audit_runs() + finagle_runs()
    rest += other_count_runs() + bad_runs()
    names = [r.name for r in first + rest]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"duplicate run names: {duplicates}"
    return first, rest


# ---------------------------------------------------------------------------------------------------------------
# generate
# ---------------------------------------------------------------------------------------------------------------


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
    env.update(extra)
    return env


def execute(run: Run, outdir: Path, python: str, src: Path) -> dict[str, Any]:
    stdin = (outdir / run.stdin).read_bytes() if run.stdin else None
    target = outdir / run.output_file if run.output_file else None
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
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
    meta = {
        "name": run.name,
        "argv": ["clfeval", *run.args],
        "stdin": run.stdin,
        "env": run.env,
        "format": run.format,
        "output": f"{run.name}.{run.extension}",
        "output_file": run.output_file,
        "stdout_with_output_file": proc.stdout.decode("utf-8", "replace") if target is not None else None,
        "exit_code": proc.returncode,
        "expected_exit_code": run.expect,
        "stderr": proc.stderr.decode("utf-8", "replace"),
    }
    write(outdir / "runs" / f"{run.name}.meta.json", json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    return {
        "name": run.name,
        "exit_code": proc.returncode,
        "expect": run.expect,
        "seconds": seconds,
        "stderr": meta["stderr"],
    }


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
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for batch in (first, rest):
            results += list(pool.map(lambda r: execute(r, outdir, python, src), batch))
            print(f"json_corpus: {len(results)} runs done ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    shutil.rmtree(outdir / "out", ignore_errors=True)  # -o targets, already copied into runs/
    coverage = option_coverage(python, src, cache, first + rest)
    shutil.rmtree(cache, ignore_errors=True)
    seconds = time.monotonic() - started
    changed = tree_digest(src) != digest

    inputs = sorted(p for p in (outdir / "inputs").rglob("*") if p.is_file())
    per_command: dict[str, int] = {}
    for run in first + rest:
        key = run.args[0] if run.expect == 0 and run.args else "bad input (exit 2)"
        per_command[key] = per_command.get(key, 0) + 1
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
class Findings:
    """What one run's comparison found."""

    differences: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    numbers: int = 0
    max_rel: float = 0.0
    max_rel_at: str = ""


def pointer(path: str, key: object) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


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
            out.differences.append(f"{path or '/'}: an object became {show(new)}")
            return
        for key, value in old.items():
            if key not in new:
                out.differences.append(f"{pointer(path, key)}: missing in NEW (OLD {show(value)})")
            elif key == "clfeval_version":
                continue
            else:
                compare_json(value, new[key], pointer(path, key), ctx, tol, out)
        out.added += [pointer(path, key) for key in new if key not in old]
    elif isinstance(old, list):
        if not isinstance(new, list):
            out.differences.append(f"{path}: a list became {show(new)}")
            return
        if len(old) != len(new):
            out.differences.append(f"{path}: {len(old)} items became {len(new)}")
        for i, (a, b) in enumerate(zip(old, new)):
            compare_json(a, b, pointer(path, i), ctx, tol, out)
    elif is_number(old):
        if not is_number(new) or isinstance(old, int) != isinstance(new, int):
            out.differences.append(f"{path}: {show(old)} became {show(new)} (a different type)")
            return
        out.numbers += 1
        if old == new or (isinstance(old, float) and math.isnan(old) and math.isnan(new)):
            return
        scale = max(abs(old), abs(new))
        rel = abs(old - new) / scale if math.isfinite(scale) else math.inf
        if rel > out.max_rel:
            out.max_rel, out.max_rel_at = rel, path
        if rel > tol[0] and abs(old - new) > tol[1]:
            out.differences.append(f"{path}: {old!r} became {new!r} (relative difference {rel:.3g})")
    elif isinstance(old, str):
        if not isinstance(new, str):
            out.differences.append(f"{path}: {show(old)} became {show(new)}")
        elif ctx[0].normalise(old) != ctx[1].normalise(new):
            out.differences.append(f"{path}: {show_strings(ctx[0].normalise(old), ctx[1].normalise(new))}")
    elif old != new or type(old) is not type(new):  # None, booleans
        out.differences.append(f"{path}: {show(old)} became {show(new)}")


def compare_text(what: str, old: str, new: str, ctx: tuple[Corpus, Corpus], out: Findings) -> None:
    a, b = ctx[0].normalise(old).splitlines(), ctx[1].normalise(new).splitlines()
    if a == b and ctx[0].normalise(old).endswith("\n") == ctx[1].normalise(new).endswith("\n"):
        return
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            out.differences.append(f"{what} line {i + 1}: {show_strings(x, y)}")
            return
    out.differences.append(f"{what}: {len(a)} lines became {len(b)}")


def load_json(data: bytes) -> tuple[bool, Any]:
    try:
        return True, json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False, None


def compare_run(name: str, ctx: tuple[Corpus, Corpus], tol: tuple[float, float]) -> Findings:
    out = Findings()
    old_meta, new_meta = ctx[0].meta(name), ctx[1].meta(name)
    if old_meta["argv"] != new_meta["argv"] or old_meta.get("env") != new_meta.get("env"):
        out.differences.append(f"the command differs: {shlex.join(old_meta['argv'])} | {shlex.join(new_meta['argv'])}")
        return out
    if old_meta["exit_code"] != new_meta["exit_code"]:
        out.differences.append(f"exit code {old_meta['exit_code']} became {new_meta['exit_code']}")
    compare_text("stderr", old_meta["stderr"], new_meta["stderr"], ctx, out)
    if old_meta.get("stdout_with_output_file") or new_meta.get("stdout_with_output_file"):
        compare_text(
            "stdout",
            old_meta.get("stdout_with_output_file") or "",
            new_meta.get("stdout_with_output_file") or "",
            ctx,
            out,
        )
    old_out, new_out = ctx[0].output(old_meta), ctx[1].output(new_meta)
    old_ok, old_doc = load_json(old_out) if old_meta["format"] == "json" and old_out.strip() else (False, None)
    if old_ok:
        new_ok, new_doc = load_json(new_out)
        if new_ok:
            compare_json(old_doc, new_doc, "", ctx, tol, out)
        else:
            out.differences.append("output: OLD is JSON, NEW is not")
    else:
        compare_text("output", old_out.decode("utf-8", "replace"), new_out.decode("utf-8", "replace"), ctx, out)
    return out


def compare(args: argparse.Namespace) -> int:
    old, new = Corpus.load(args.old), Corpus.load(args.new)
    ctx = (old, new)
    tol = (args.rel_tol, args.abs_tol)
    print(f"OLD {old.root}: clfeval {old.manifest['clfeval_version']} from {old.manifest['src']}")
    print(f"NEW {new.root}: clfeval {new.manifest['clfeval_version']} from {new.manifest['src']}")
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
    old_runs, new_runs = old.manifest["runs"], new.manifest["runs"]
    missing = [r for r in old_runs if r not in set(new_runs)]
    extra = [r for r in new_runs if r not in set(old_runs)]
    common = [r for r in old_runs if r in set(new_runs)]

    identical, with_added, differing = 0, [], []
    added_paths: dict[str, int] = {}
    numbers, max_rel, max_rel_at = 0, 0.0, ""
    for name in common:
        found = compare_run(name, ctx, tol)
        numbers += found.numbers
        if found.max_rel > max_rel:
            max_rel, max_rel_at = found.max_rel, f"{name}: {found.max_rel_at}"
        for p in found.added:
            added_paths[p] = added_paths.get(p, 0) + 1
        if found.differences:
            differing.append((name, found))
        elif found.added:
            with_added.append(name)
        else:
            identical += 1

    print(f"runs compared: {len(common)}")
    print(f"  identical: {identical}")
    print(f"  equal except for added keys: {len(with_added)}")
    print(f"  differing: {len(differing)}")
    if missing:
        print(f"  runs missing in NEW: {len(missing)}: {', '.join(missing)}")
    if extra:
        print(f"  runs only in NEW (not compared): {len(extra)}: {', '.join(extra)}")
    print(
        f"numbers compared: {numbers}; largest relative difference: {max_rel:.3g}"
        + (f" ({max_rel_at})" if max_rel else "")
    )
    for name, found in differing:
        print(f"DIFFERS {name} ({len(found.differences)} difference{'s' if len(found.differences) > 1 else ''})")
        for line in found.differences[: args.max_diffs]:
            print(f"    {line}")
        if len(found.differences) > args.max_diffs:
            print(f"    … {len(found.differences) - args.max_diffs} more")
    if added_paths:
        by_key: dict[str, int] = {}
        for p in added_paths:
            key = p.rsplit("/", 1)[-1]
            by_key[key] = by_key.get(key, 0) + 1
        print(f"added keys (allowed): {len(added_paths)} distinct JSON paths, by key name:")
        print("    " + ", ".join(f"{k} ({n} path{'s' if n > 1 else ''})" for k, n in sorted(by_key.items())))
        for p, n in sorted(added_paths.items())[: args.max_added]:
            print(f"    {p}  ({n} run{'s' if n > 1 else ''})")
        if len(added_paths) > args.max_added:
            print(f"    … {len(added_paths) - args.max_added} more (--max-added)")
    else:
        print("added keys: none")
    failed = failed or bool(differing) or bool(missing)
    print("RESULT: " + ("DIFFERENT" if failed else "SAME (no number or key of OLD changed)"))
    return 1 if failed else 0


def list_runs(args: argparse.Namespace) -> int:
    first, rest = corpus()
    for run in first + rest:
        print(f"{run.name}: {shlex.join(['clfeval', *run.args])}" + (f" < {run.stdin}" if run.stdin else ""))
    print(f"{len(first) + len(rest)} runs", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    venv = REPO / ".venv" / "bin" / "python"
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="write the inputs and run the corpus into OUTDIR")
    g.add_argument("outdir")
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
    g.set_defaults(func=generate)
    c = sub.add_parser("compare", help="compare two corpora: exit 1 on any difference")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--rel-tol", type=float, default=1e-9, help="relative tolerance of numbers (default: %(default)s)")
    c.add_argument("--abs-tol", type=float, default=0.0, help="differences up to this are tolerated too (default: 0)")
    c.add_argument("--max-diffs", type=int, default=10, help="differences shown per run (default: %(default)s)")
    c.add_argument("--max-added", type=int, default=50, help="added JSON paths shown (default: %(default)s)")
    c.set_defaults(func=compare)
    ls = sub.add_parser("list", help="print the corpus's runs")
    ls.set_defaults(func=list_runs)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
