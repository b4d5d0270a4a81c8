#!/usr/bin/env python3
"""Golden fixtures of conlleval.pl (CoNLL-2000 chunking evaluation, version 2004-01-26, Erik Tjong Kim Sang).

The fixtures let the test suite check a reimplementation of conlleval byte for byte. Only the script's *outputs* on
inputs made here are committed; the script itself is not ours and is never copied into the repository. This tool

* generates ~160 random CoNLL files with a seeded ``numpy.random.Generator``: lines ``word gold pred`` or
  ``word POS gold pred`` (single spaces, the field count constant within a file), sentences separated by blank lines.
  Gold tags are rendered from random chunks in IOB1, IOB2, IOBES, IOE1, IOE2 or a per-chunk mixture, sometimes with
  invalid transitions (I-X after O, I-X after B-Y, E-X after O, B-X E-Y, …) and type switches inside chunks, or are
  random tags outright. About half the predictions derive from gold with random errors (chunks dropped, retyped,
  shrunk, extended, split or merged, spurious chunks, a few tokens replaced; sometimes rendered in another scheme),
  the rest are fully random. Edge cases: empty sentences (several blank lines in a row), blank lines at the start or
  end of a file, a file without a final newline, one-token sentences, files without chunks, a file of blank lines
  only, ``-DOCSTART-`` lines (``-DOCSTART- O O`` or ``-DOCSTART- -X- O O``) followed by a blank line, types with
  hyphens, type ``0`` (which conlleval reads as the empty type), single-letter, non-ASCII and up to 20-character
  types. Tag prefixes are only B, I, E and S, plus the tag O. No CRLF, tabs, ragged lines or ``-X-`` first fields:
  those are error cases tested elsewhere;
* adds hand-written cases ``case-9NN``, each isolating one rule;
* runs ``perl SCRIPT < case-NNN.txt`` for each case (``LC_ALL=C``; the exit code must be 0 and stderr empty) and
  writes ``tests/data/conlleval/case-NNN.txt`` (input) and ``case-NNN.out`` (the script's stdout, exact bytes);
* writes ``tests/data/conlleval/MANIFEST.json``: the script's name, version line and sha256, the repositories whose
  copies were compared, perl's version, the seed and command, and per case a one-line description, the features
  found in it and the sha256 of both files.

The script is expected at ``benchmarks/data/conlleval.pl`` (git-ignored). The canonical text (12,728 bytes, sha256
``c025ea00…df7bc``) is the one that several repositories' histories share byte for byte, for example::

    git -C ATIS.keras show 1ddeae0c98d7f4bc0a4bd35d110027966f6aff62:conlleval.pl > benchmarks/data/conlleval.pl

(jageshmaharjan/ATIS.keras; kyzhouhzau/BERT-NER at 0b89db06f64243466997199c5463ada4ebd06842 holds the same bytes.)
The tool refuses another script unless ``--any-script`` is given.

Rerun (rewrites the directory's case files and manifest; stale ``case-*`` files are removed)::

    .venv/bin/python tools/conlleval_fixtures.py [--script benchmarks/data/conlleval.pl] [--seed 20040126]
        [--count 160] [--out tests/data/conlleval]

With the same seed, numpy version and script the files come out identical. The inputs depend on numpy's
``Generator`` streams, which numpy does not promise to keep across versions; the committed files are the fixtures,
so a regeneration is only needed when the cases should change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCRIPT = "benchmarks/data/conlleval.pl"
DEFAULT_OUT = "tests/data/conlleval"
DEFAULT_SEED = 20040126
DEFAULT_COUNT = 160
MAX_DIR_BYTES = 1_500_000

SCRIPT_NAME = "conlleval.pl"
SCRIPT_VERSION_LINE = "# version:   2004-01-26"
SCRIPT_SHA256 = "c025ea007db5162a130f83dbb6818c6bc69b77ec14ba786efed3c538de6df7bc"
SCRIPT_BYTES = 12728
# Where the canonical text was found, and how the other copies differ from it (compared 2026, by sha256 of the
# text and by diff; the differing copies are at each repository's default branch).
SCRIPT_PROVENANCE = {
    "agreed": [
        {
            "repo": "jageshmaharjan/ATIS.keras",
            "path": "conlleval.pl",
            "commit": "1ddeae0c98d7f4bc0a4bd35d110027966f6aff62",
            "note": "the repository's first commit; its default branch later replaced 'output' by 'output_embed' "
            "in two comments",
        },
        {
            "repo": "kyzhouhzau/BERT-NER",
            "path": "conlleval.pl",
            "commit": "0b89db06f64243466997199c5463ada4ebd06842",
            "note": "later commits added '#   @features = split(/\\t/,$line);', a 'feature length is %d.' "
            "message to STDERR before the die, CRLF line ends and dropped the final newline",
        },
        {
            "repo": "(code search index)",
            "path": "conlleval.pl",
            "commit": None,
            "note": "the search index's deduplicated copy of conlleval.pl with the 2004-01-26 header has the same "
            "12,728 characters",
        },
    ],
    "differing": {
        "leodotnet/neural-chinese-address-parsing": "tab as the default delimiter (one line)",
        "mariask2/PAL-A-tool-for-Pre-annotation-and-Active-Learning": "per-type line prints foundGuessed and "
        "foundCorrect",
        "PierfrancescoArdino/LUS-MidTerm-Project": "two comment lines indented",
        "yh1008/MEMM": "overall accuracy/precision/recall/FB1 line commented out; extra final newline",
        "kyzhouhzau/2019SpringTextM": "commented-out split(/\\t/...) line, STDERR 'feature length' line, CRLF",
        "kyzhouhzau/BERT-NER (default branch)": "as 2019SpringTextM, and no final newline",
        "teghub/TurkishNER-BERT": "as 2019SpringTextM, plus an extra foundGuessed count (changes results)",
        "soutsios/pos-tagger-bert-tensorflow": "as 2019SpringTextM, plus a rewritten LaTeX (-l) table",
        "jageshmaharjan/ATIS.keras (default branch)": "'output_embed' for 'output' in two comments",
        "HadoopIt/rnn-nlu": "commented-out debug printfs; chunk counts added to the overall and per-type lines",
        "chernovsergey/spacy_ner": "as HadoopIt/rnn-nlu, the per-type counts commented out",
        "dtk0528/joint-slu-lm": "as HadoopIt/rnn-nlu, plus 'no warnings;'",
        "anji2727/TF_seq2seq": "as HadoopIt/rnn-nlu, with the debug printfs active",
        "magicGo/intent-sloting-multi-task": "as HadoopIt/rnn-nlu, with a UTF-8 BOM before the shebang",
        "Ambitioner-c/rnn-nlu": "trailing whitespace stripped; commented-out debug printfs; counts on the overall line",
        "justinpayan/StackOverflowNER-NS": "trailing whitespace stripped; IOBES rules added to endOfChunk and "
        "startOfChunk (S-, E-X B-X): changes results",
        "sondoan/RandomizationTest": "tab delimiter; %6.6f instead of %6.2f",
        "tutybukuny/Do-your-job": "tab-separated output lines",
        "goxdve/BiLSTM-CRF": "re-indented to two spaces; clips.uantwerpen.be URLs",
        "ryosukee/CrossValidation": "two URLs in comments changed",
        "betoesquivel/WiKiNER_Essex": "adapted: '/usr/bin/env perl', split on /\\s+/, boundary '', 'entities'",
        "Hongtao-Lin/NER": "conlleval_rev.perl, SIGHAN adaptation (version 2006-04-26)",
        "iofu728/Chinese_T-Sequence-annotation": "conlleval_rev.perl, SIGHAN adaptation (version 2006-04-26), CRLF",
    },
}

SCHEMES = ("iob1", "iob2", "iobes", "ioe1", "ioe2")
PREFIXES = ("B", "I", "E", "S")
TYPE_POOLS: dict[str, tuple[str, ...]] = {
    "conll": ("PER", "LOC", "ORG", "MISC"),
    "chunk": ("NP", "VP", "PP", "ADJP", "ADVP", "SBAR", "PRT"),
    "hyphen": ("MISC-X", "NP-SBJ", "A-B-C", "LOC-"),
    "zero": ("0", "00", "LOC"),
    "letter": ("X", "Y", "a", "Z"),
    "utf8": ("ORTÉ", "PERSÖN", "地名", "ΟΡΓ", "Ñ", "ÉVÉNEMENT_CULTUREL"),
    "long": (
        "ORGANIZATION_UNIT",
        "GEOPOLITICAL_ENTITY",
        "FACILITY-BUILDING-X",
        "WORK_OF_ART_PRODUCTS",
        "SIXTEEN_CHARS_XY",
    ),
    "case": ("LOC", "loc", "Loc", "_x", "z"),
}
WORDS = (
    "the", "of", "and", "to", "in", "a", "said", "Mr.", "Smith", "Paris", "U.S.", "company", "shares", "1998",
    "3.5", "%", ",", ".", "(", ")", "--", "'s", "``", "''", "O", "B-X", "I", "-", "EU", "rejects", "German", "call",
    "Zürich", "São", "naïve", "東京", "€", "Ärger", "año",
)  # fmt: skip
POS_TAGS = ("NN", "NNP", "NNS", "VB", "VBD", "VBZ", "DT", "JJ", "IN", "CD", "PRP", ",", ".", ":", "-X-", "O")


@dataclass
class Case:
    name: str
    text: str
    description: str
    recipe: dict[str, object] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------------- generation


def _choice(rng: np.random.Generator, items: Sequence[str]) -> str:
    return items[int(rng.integers(len(items)))]


def make_spans(
    rng: np.random.Generator, n: int, types: Sequence[str], density: float, adjacent: float
) -> list[tuple[int, int, str]]:
    """Random non-overlapping chunks (start, end exclusive, type) over n tokens."""
    spans: list[tuple[int, int, str]] = []
    i = 0
    prev_chunk = False
    while i < n:
        if rng.random() < (adjacent if prev_chunk else density):
            length = min(n - i, int(rng.geometric(0.5)))
            # half the chunks right after a chunk repeat its type: IOB1's B-, IOBES's E-X B-X
            kind = spans[-1][2] if prev_chunk and rng.random() < 0.5 else _choice(rng, types)
            spans.append((i, i + length, kind))
            prev_chunk = True
        else:
            length = min(n - i, int(rng.geometric(0.4)))
            prev_chunk = False
        i += length
    return spans


def render(rng: np.random.Generator, spans: Sequence[tuple[int, int, str]], n: int, scheme: str) -> list[str]:
    """Tags of the chunks in a scheme (``mixed``: a random scheme per chunk)."""
    tags = ["O"] * n
    for k, (s, e, kind) in enumerate(spans):
        sch = _choice(rng, SCHEMES) if scheme == "mixed" else scheme
        prev_same = k > 0 and spans[k - 1][1] == s and spans[k - 1][2] == kind
        next_same = k + 1 < len(spans) and spans[k + 1][0] == e and spans[k + 1][2] == kind
        length = e - s
        if sch == "iob1":
            pre = ["B" if prev_same else "I"] + ["I"] * (length - 1)
        elif sch == "iob2":
            pre = ["B"] + ["I"] * (length - 1)
        elif sch == "iobes":
            pre = ["S"] if length == 1 else ["B"] + ["I"] * (length - 2) + ["E"]
        elif sch == "ioe1":
            pre = ["I"] * (length - 1) + ["E" if next_same else "I"]
        else:  # ioe2
            pre = ["I"] * (length - 1) + ["E"]
        for j, p in enumerate(pre):
            tags[s + j] = f"{p}-{kind}"
    return tags


def random_tag(rng: np.random.Generator, types: Sequence[str], p_outside: float) -> str:
    if rng.random() < p_outside:
        return "O"
    return f"{_choice(rng, PREFIXES)}-{_choice(rng, types)}"


def add_noise(rng: np.random.Generator, tags: list[str], types: Sequence[str], rate: float) -> list[str]:
    """Replace tokens' tags by random ones (invalid transitions)."""
    return [random_tag(rng, types, 0.3) if rng.random() < rate else t for t in tags]


def switch_types(
    rng: np.random.Generator, tags: list[str], spans: Sequence[tuple[int, int, str]], types: Sequence[str], rate: float
) -> list[str]:
    """Change the type of one non-first token of some multi-token chunks, keeping its prefix (I-X I-Y, B-X E-Y)."""
    out = list(tags)
    for s, e, kind in spans:
        others = [t for t in types if t != kind]
        if e - s >= 2 and others and rng.random() < rate:
            j = int(rng.integers(s + 1, e))
            prefix = out[j].split("-", 1)[0]
            out[j] = f"{prefix}-{_choice(rng, others)}"
    return out


def perturb(
    rng: np.random.Generator, spans: Sequence[tuple[int, int, str]], n: int, types: Sequence[str], rate: float
) -> list[tuple[int, int, str]]:
    """Predicted chunks: gold's with random errors (drop, retype, shrink, extend, split, merge, spurious)."""
    covered = [False] * n
    for s, e, _ in spans:
        for j in range(s, e):
            covered[j] = True
    out: list[tuple[int, int, str]] = []
    for s, e, kind in spans:
        if rng.random() >= rate:
            out.append((s, e, kind))
            continue
        op = _choice(rng, ("drop", "retype", "shrink", "extend", "split"))
        if op == "drop":
            for j in range(s, e):
                covered[j] = False
        elif op == "retype":
            out.append((s, e, _choice(rng, types)))
        elif op == "shrink" and e - s >= 2:
            if rng.random() < 0.5:
                covered[s] = False
                out.append((s + 1, e, kind))
            else:
                covered[e - 1] = False
                out.append((s, e - 1, kind))
        elif op == "extend" and s > 0 and not covered[s - 1]:
            covered[s - 1] = True
            out.append((s - 1, e, kind))
        elif op == "extend" and e < n and not covered[e]:
            covered[e] = True
            out.append((s, e + 1, kind))
        elif op == "split" and e - s >= 2:
            cut = int(rng.integers(s + 1, e))
            out.append((s, cut, kind))
            out.append((cut, e, kind if rng.random() < 0.5 else _choice(rng, types)))
        else:
            out.append((s, e, kind))
    merged: list[tuple[int, int, str]] = []
    for span in out:
        if merged and span[0] - merged[-1][1] <= 1 and rng.random() < rate / 2:
            merged[-1] = (merged[-1][0], span[1], merged[-1][2])
            for j in range(merged[-1][0], span[1]):
                covered[j] = True
        else:
            merged.append(span)
    for j in range(n):
        if not covered[j] and rng.random() < rate / 4:
            covered[j] = True
            merged.append((j, j + 1, _choice(rng, types)))
    return sorted(merged)


def chunk_of(spans: Sequence[tuple[int, int, str]], n: int) -> list[tuple[int, int, str] | None]:
    """Each token's chunk (None outside chunks)."""
    out: list[tuple[int, int, str] | None] = [None] * n
    for span in spans:
        for j in range(span[0], span[1]):
            out[j] = span
    return out


def _scheme_name(scheme: str) -> str:
    return {"iob1": "IOB1", "iob2": "IOB2", "iobes": "IOBES", "ioe1": "IOE1", "ioe2": "IOE2"}.get(scheme, scheme)


def random_case(rng: np.random.Generator, index: int, special: str | None) -> Case:
    """One generated file; ``special`` forces an edge case."""
    n_lines = int(rng.integers(5, 31)) if rng.random() < 0.3 else int(rng.integers(31, 301))
    fields = 4 if rng.random() < 0.35 else 3
    pool_names = list(rng.choice(sorted(TYPE_POOLS), size=int(rng.integers(1, 3)), replace=False))
    if rng.random() < 0.5:
        pool_names.insert(0, "conll" if rng.random() < 0.5 else "chunk")
    pool = sorted({t for name in pool_names for t in TYPE_POOLS[name]})
    types = sorted(rng.choice(pool, size=int(rng.integers(1, min(5, len(pool)) + 1)), replace=False).tolist())
    gold_scheme = _choice(rng, (*SCHEMES, "mixed", "mixed", "random"))
    gold_noise = 0.0 if rng.random() < 0.6 else float(rng.uniform(0.01, 0.08))
    switch_rate = 0.0 if rng.random() < 0.7 else float(rng.uniform(0.05, 0.3))
    density = float(rng.uniform(0.1, 0.5))
    adjacent = float(rng.uniform(0.0, 0.4))
    p_outside = float(rng.uniform(0.3, 0.85))
    random_kind = _choice(rng, ("random-chunks", "random-tags"))
    pred_kind = "derived" if index % 2 == 0 else random_kind  # half the files
    span_error = float(rng.uniform(0.02, 0.15))
    pred_noise = 0.0 if rng.random() < 0.5 else float(rng.uniform(0.005, 0.03))
    pred_scheme = gold_scheme if rng.random() < 0.8 else _choice(rng, (*SCHEMES, "mixed"))
    max_len = int(rng.integers(3, 31))
    p_one = 0.0 if rng.random() < 0.7 else float(rng.uniform(0.1, 0.5))
    leading = int(rng.integers(1, 4)) if rng.random() < 0.1 else 0
    trailing = int(rng.integers(1, 4)) if rng.random() < 0.1 else 0
    empty_sentences = rng.random() < 0.15
    docs = int(rng.integers(1, 4)) if rng.random() < 0.15 else 0
    no_final_newline = trailing == 0 and rng.random() < 0.08
    no_chunks_gold = no_chunks_pred = False

    if special == "blank-only":
        n = int(rng.integers(5, 12))
        return Case(f"case-{index:03d}", "\n" * n, f"only blank lines ({n}): no token at all")
    if special == "no-chunks":
        no_chunks_gold = no_chunks_pred = True
    elif special == "gold-no-chunks":
        no_chunks_gold = True
        pred_kind = "random-chunks"
    elif special == "pred-no-chunks":
        no_chunks_pred = True
    elif special == "docstart":
        fields, docs, leading, trailing, no_final_newline = 4, 3, 2, 2, False
        n_lines = max(n_lines, 60)
    elif special == "no-final-newline":
        trailing, no_final_newline, p_one = 0, True, 0.5
    elif special == "one-token-sentences":
        p_one, max_len, empty_sentences = 0.9, 3, True
    if pred_kind != "derived":
        pred_scheme = _choice(rng, (*SCHEMES, "mixed"))

    def sentence(n: int) -> tuple[list[str], list[str]]:
        spans = [] if no_chunks_gold else make_spans(rng, n, types, density, adjacent)
        if no_chunks_gold:
            gold = ["O"] * n
        elif gold_scheme == "random":
            gold = [random_tag(rng, types, p_outside) for _ in range(n)]
        else:
            gold = render(rng, spans, n, gold_scheme)
            gold = switch_types(rng, gold, spans, types, switch_rate)
            gold = add_noise(rng, gold, types, gold_noise)
        if no_chunks_pred:
            pred = ["O"] * n
        elif pred_kind == "derived" and gold_scheme == "random":
            pred = add_noise(rng, gold, types, span_error)
        elif pred_kind == "derived":
            pred_spans = perturb(rng, spans, n, types, span_error)
            pred = render(rng, pred_spans, n, pred_scheme)
            if pred_scheme == gold_scheme:  # gold's own tags (its type switches, invalid tags) where no error hit
                same = [g == p for g, p in zip(chunk_of(spans, n), chunk_of(pred_spans, n))]
                pred = [g if keep else p for g, p, keep in zip(gold, pred, same)]
            pred = add_noise(rng, pred, types, pred_noise)
        elif pred_kind == "random-chunks":
            pred = render(rng, make_spans(rng, n, types, float(rng.uniform(0.1, 0.5)), adjacent), n, pred_scheme)
        else:
            pred = [random_tag(rng, types, p_outside) for _ in range(n)]
        return gold, pred

    def token_line(gold: str, pred: str) -> str:
        word = _choice(rng, WORDS)
        return f"{word} {_choice(rng, POS_TAGS)} {gold} {pred}" if fields == 4 else f"{word} {gold} {pred}"

    docstart = "-DOCSTART- -X- O O" if fields == 4 else "-DOCSTART- O O"
    lines: list[str] = [""] * leading
    budget = n_lines - leading - trailing
    per_doc = [budget] if docs == 0 else [budget // docs + (1 if k < budget % docs else 0) for k in range(docs)]
    for doc_budget in per_doc:
        used = 0
        if docs:
            lines += [docstart, ""]
            used = 2
        while used < doc_budget:
            n = 1 if rng.random() < p_one else int(rng.integers(2, max_len + 1))
            n = max(1, min(n, doc_budget - used))
            gold, pred = sentence(n)
            lines += [token_line(g, p) for g, p in zip(gold, pred)]
            blanks = int(rng.integers(2, 5)) if empty_sentences and rng.random() < 0.3 else 1
            blanks = min(blanks, max(1, doc_budget - used - n))
            lines += [""] * blanks
            used += n + blanks
    while lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 5:  # a very small budget: make sure of 5 lines
        gold, pred = sentence(5 - len(lines))
        lines += [token_line(g, p) for g, p in zip(gold, pred)]
    lines += [""] * trailing
    text = "\n".join(lines) + ("" if no_final_newline else "\n")

    if no_chunks_gold and no_chunks_pred:
        gold_desc, pred_desc = "gold all O", "pred all O"
    else:
        if no_chunks_gold:
            gold_desc = "gold all O"
        elif gold_scheme == "random":
            gold_desc = f"gold random tags (P(O)={p_outside:.2f})"
        else:
            flaws = [f"type switches in {switch_rate:.0%} of chunks"] if switch_rate else []
            flaws += [f"{gold_noise:.1%} invalid tags"] if gold_noise else []
            gold_desc = f"{_scheme_name(gold_scheme)} gold" + (" with " + " and ".join(flaws) if flaws else "")
        if no_chunks_pred:
            pred_desc = "pred all O"
        elif pred_kind == "derived":
            via = "token errors" if gold_scheme == "random" else f"chunk errors rendered {_scheme_name(pred_scheme)}"
            pred_desc = f"pred derived from gold ({span_error:.0%} {via}"
            pred_desc += f", {pred_noise:.1%} token noise)" if pred_noise and gold_scheme != "random" else ")"
        elif pred_kind == "random-chunks":
            pred_desc = f"pred random chunks rendered {_scheme_name(pred_scheme)}"
        else:
            pred_desc = "pred random tags"
    extras = []
    if docs:
        extras.append(f"{docs} -DOCSTART- document{'s' if docs > 1 else ''}")
    if leading:
        extras.append(f"{leading} leading blank lines")
    if trailing:
        extras.append(f"{trailing} trailing blank lines")
    if empty_sentences:
        extras.append("empty sentences")
    if p_one:
        extras.append(f"one-token sentences ({p_one:.0%})")
    if no_final_newline:
        extras.append("no final newline")
    description = f"{gold_desc}; {pred_desc}"
    if not (no_chunks_gold and no_chunks_pred):
        description += f"; types {' '.join(types)}"
    description += f"; {fields} fields"
    if extras:
        description += "; " + ", ".join(extras)
    recipe = {
        "special": special,
        "types": types,
        "fields": fields,
        "gold_scheme": "O" if no_chunks_gold else gold_scheme,
        "pred": "O" if no_chunks_pred else pred_kind,
        "pred_scheme": pred_scheme if pred_kind != "random-tags" and not no_chunks_pred else None,
    }
    return Case(f"case-{index:03d}", text, description, recipe)


SPECIALS = {
    0: "blank-only",
    1: "no-chunks",
    2: "gold-no-chunks",
    3: "pred-no-chunks",
    4: "docstart",
    5: "no-final-newline",
    6: "one-token-sentences",
}


def generated_cases(seed: int, count: int) -> list[Case]:
    rng = np.random.default_rng(seed)
    return [random_case(rng, i, SPECIALS.get(i)) for i in range(count)]


# ------------------------------------------------------------------------------------------ hand-written cases


def _rounding_case() -> str:
    # X: 32 gold one-token chunks; pred finds 3 of them and 5 spurious ones -> precision 3/8 = 37.5%, recall
    # 100*3/32 = 9.375 (exact in binary: %6.2f rounds half to even, "9.38"). Y: 32 gold chunks, 1 found correctly ->
    # recall 100*1/32 = 3.125 ("3.12").
    lines = []
    for k in range(32):
        lines.append(f"x{k} B-X {'B-X' if k < 3 else 'O'}")
        lines.append(f"o{k} O {'B-X' if k < 5 else 'O'}")
    lines.append("")
    for k in range(32):
        lines.append(f"y{k} B-Y {'B-Y' if k == 0 else 'O'}")
        lines.append(f"p{k} O O")
    return "\n".join(lines) + "\n"


HAND_CASES: tuple[tuple[str, str, str], ...] = (
    (
        "case-901",
        "w1 B-LOC B-LOC\nw2 E-LOC I-LOC\nw3 B-LOC I-LOC\nw4 E-LOC E-LOC\nw5 O O\n",
        "E-X followed by B-X of the same type does not end a chunk: gold B-LOC E-LOC B-LOC E-LOC is one chunk, "
        "equal to pred B-LOC I-LOC I-LOC E-LOC (100%)",
    ),
    (
        "case-902",
        "w1 S-PER B-PER\nw2 S-PER E-PER\nw3 O O\nw4 S-PER S-PER\nw5 O O\n",
        "S- is not a prefix conlleval knows: S-PER S-PER is one chunk (like B-PER E-PER); S-PER after O starts one "
        "by the change of type",
    ),
    (
        "case-903",
        "w1 I-NP I-NP\nw2 I-NP I-VP\nw3 I-VP I-VP\nw4 O O\n",
        "a type switch I-X I-Y ends one chunk and starts another: gold NP(w1-w2) VP(w3), pred NP(w1) VP(w2-w3)",
    ),
    (
        "case-904",
        "-DOCSTART- -X- O O\n\nEU NNP B-ORG B-ORG\nrejects VBZ O O\nGerman JJ B-MISC B-MISC\ncall NN O O\n",
        "a -DOCSTART- line is an ordinary token (5 tokens, not 4); only a first field -X- or a blank line is a "
        "boundary",
    ),
    (
        "case-905",
        "w1 B-0 B-0\nw2 I-0 O\nw3 O B-00\nw4 B-LOC B-0\n",
        'type "0" is false in Perl and becomes the empty type; "00" stays a type; the empty type, found in gold '
        "and pred, is printed twice (its name right-aligned in 17 spaces)",
    ),
    ("case-906", "\n\n\n\n", "blank lines only: 0 tokens, the accuracy line and per-type lines are omitted"),
    (
        "case-907",
        "w1 B-ORGANIZATION_UNIT B-ORGANIZATION_UNIT\nw2 O O\nw3 B-WORK_OF_ART_PRODUCTS O\n",
        "type names of exactly 17 bytes (no padding) and of 20 bytes (%17s does not truncate)",
    ),
    (
        "case-908",
        "w1 B-ORTÉ B-ORTÉ\nw2 I-ORTÉ O\nw3 B-地名 B-地名\nw4 O O\n",
        "UTF-8 types: %17s pads by bytes, so ORTÉ (4 characters, 5 bytes) gets 12 spaces and 地名 (2 characters, "
        "6 bytes) 11; types sort by bytes",
    ),
    ("case-909", "", "an empty file (0 bytes): only the first line"),
    (
        "case-910",
        _rounding_case(),
        "ties in %6.2f: recall 100*3/32 = 9.375 prints 9.38, 100*1/32 = 3.125 prints 3.12 (the exact binary value "
        "rounded half to even)",
    ),
    (
        "case-911",
        "w1 O O\nw2 S-0 S-0\nw3 O S-0\nw4 B-0 S-0\n",
        "S-0 after O starts nothing (S is unknown and the empty type equals O's), B-0 after O does; equal S-0 tags "
        "still count for accuracy",
    ),
    (
        "case-912",
        "w1 B-loc B-loc\nw2 B-LOC B-Loc\nw3 B-_x B-Z\nw4 B-ÉTAT B-a-b\nw5 O O\n",
        "per-type lines sort by bytes: LOC Loc Z _x a-b loc ÉTAT",
    ),
    (
        "case-913",
        "w1 I-NP B-NP\nw2 I-NP I-NP\nw3 B-NP B-NP\nw4 O O\nw5 I-VP B-VP\n",
        "IOB1 gold against IOB2 pred: the same chunks (FB1 100) but different tags (accuracy 60%)",
    ),
    ("case-914", "-DOCSTART- O O\n", "a file of one -DOCSTART- line: 1 token, accuracy 100%"),
    (
        "case-915",
        "a O O\n\n-DOCSTART- O O",
        "a -DOCSTART- line after the last sentence, with no final newline: still a token (2)",
    ),
    (
        "case-916",
        "a O O\n-DOCSTART- O O\n-DOCSTART- O O",
        "two -DOCSTART- lines at the end, the last without a newline: 3 tokens",
    ),
    ("case-917", "-X- O O\n", "a line whose first field is -X- is a sentence boundary, not a token: 0 tokens"),
    (
        "case-918",
        "a B-X B-X\n-X- B-X I-X\nb I-X I-X\n",
        "the -X- boundary line's tags are read as O O: it ends the gold and the predicted chunk, and I-X after it "
        "starts new ones (found 2, correct 2)",
    ),
)


def hand_cases() -> list[Case]:
    return [Case(name, text, description, {"special": "hand-written"}) for name, text, description in HAND_CASES]


# ------------------------------------------------------------------------------------------------ features


def features(text: str) -> list[str]:
    """What a case's text holds, found in the text itself (for the manifest's coverage)."""
    found: set[str] = set()
    body = text.split("\n")
    if text.endswith("\n"):
        body.pop()
    elif text:
        found.add("no final newline")
    tokens = [line.split(" ") for line in body if line]
    if not tokens:
        return sorted(found | {"no tokens"})
    if body[0] == "":
        found.add("leading blank line")
    if body[-1] == "":
        found.add("trailing blank line")
    for column in (-2, -1):  # transitions in gold, then in pred; a blank line reads as O
        prev = "O"
        for line in body:
            tag = line.split(" ")[column] if line else "O"
            pre, _, kind = tag.partition("-")
            ppre, _, pkind = prev.partition("-")
            if pre in {"I", "E"} and ppre == "O":
                found.add(f"{pre}-X after O")
            if pre == "I" and ppre == "B" and kind != pkind:
                found.add("I-X after B-Y")
            if pre == "E" and ppre == "B" and kind != pkind:
                found.add("B-X E-Y")
            if pre in {"I", "E"} and ppre in {"B", "I"} and kind != pkind:
                found.add("type switch inside a chunk")
            if pre == "B" and ppre == "E" and kind == pkind:
                found.add("E-X B-X")
            if pre == "S" and ppre == "S" and kind == pkind:
                found.add("S-X S-X")
            if pre == "B" and ppre == "I" and kind == pkind:
                found.add("I-X B-X")
            prev = tag
    blank_run = 0
    sentence_len = 0
    for line in [*body, ""]:
        if not line:
            blank_run += 1
            if blank_run >= 2:
                found.add("empty sentence")
            if sentence_len == 1:
                found.add("one-token sentence")
            sentence_len = 0
            continue
        blank_run = 0
        cols = line.split(" ")
        if cols[0] == "-DOCSTART-":
            found.add("-DOCSTART-")
        else:
            sentence_len += 1
        if len(cols) == 4:
            found.add("POS column")
        for tag in cols[-2:]:
            pre, _, kind = tag.partition("-")
            if pre != "O":
                found.add(f"prefix {pre}")
            if kind == "0":
                found.add('type "0"')
            if "-" in kind:
                found.add("hyphen in type")
            if len(kind) == 1 and kind != "0":
                found.add("single-letter type")
            if not kind.isascii():
                found.add("non-ASCII type")
            if len(kind.encode()) > 17:
                found.add("type over 17 bytes")
    if all(tag == "O" for cols in tokens for tag in cols[-2:]):
        found.add("no chunks")
    return sorted(found)


# ------------------------------------------------------------------------------------------------------ run


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def run_script(script: Path, data: bytes, env: dict[str, str]) -> bytes:
    proc = subprocess.run(["perl", str(script)], input=data, capture_output=True, env=env, check=False)
    if proc.returncode != 0 or proc.stderr:
        raise SystemExit(f"conlleval exited {proc.returncode}: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


_BOUNDARY_CASES = frozenset({"case-917", "case-918"})


def check_input(case: Case) -> None:
    """The generator's promises: no CRLF, no tab, a constant field count, known prefixes, and no -X- first field
    but in the hand-written cases of that boundary rule."""
    data = case.text
    assert "\r" not in data and "\t" not in data, case.name
    counts = {len(line.split(" ")) for line in data.split("\n") if line}
    assert len(counts) <= 1 and counts <= {3, 4}, (case.name, counts)
    for line in data.split("\n"):
        if not line:
            continue
        cols = line.split(" ")
        assert (cols[0] != "-X-" or case.name in _BOUNDARY_CASES) and all(cols), (case.name, line)
        for tag in cols[-2:]:
            assert tag == "O" or tag[:2] in {"B-", "I-", "E-", "S-"}, (case.name, line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--script", default=DEFAULT_SCRIPT, help=f"conlleval.pl (default {DEFAULT_SCRIPT})")
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help="generated cases")
    parser.add_argument("--any-script", action="store_true", help="accept a script other than the canonical one")
    args = parser.parse_args(argv)

    script = (ROOT / args.script).resolve() if not Path(args.script).is_absolute() else Path(args.script)
    out = (ROOT / args.out).resolve() if not Path(args.out).is_absolute() else Path(args.out)
    script_bytes = script.read_bytes()
    script_sha = sha256(script_bytes)
    if script_sha != SCRIPT_SHA256 and not args.any_script:
        raise SystemExit(f"{script}: sha256 {script_sha}, not the canonical {SCRIPT_SHA256} (see --any-script)")
    version_line = next((ln for ln in script_bytes.decode().splitlines() if ln.startswith("# version:")), None)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    perl_version = subprocess.run(
        ["perl", "-e", "print $^V"], capture_output=True, env=env, check=True, text=True
    ).stdout.strip()

    cases = generated_cases(args.seed, args.count) + hand_cases()
    out.mkdir(parents=True, exist_ok=True)
    keep = {f"{c.name}{ext}" for c in cases for ext in (".txt", ".out")}
    for stale in out.glob("case-*"):
        if stale.name not in keep:
            stale.unlink()
    entries = []
    coverage: Counter[str] = Counter()
    for case in cases:
        check_input(case)
        data = case.text.encode()
        result = run_script(script, data, env)
        (out / f"{case.name}.txt").write_bytes(data)
        (out / f"{case.name}.out").write_bytes(result)
        found = features(case.text)
        coverage.update(found)
        entries.append(
            {
                "name": case.name,
                "description": case.description,
                "features": found,
                "lines": case.text.count("\n") + (0 if case.text.endswith("\n") or not case.text else 1),
                "input_sha256": sha256(data),
                "output_sha256": sha256(result),
            }
        )

    command = ["python", "tools/conlleval_fixtures.py", "--seed", str(args.seed), "--count", str(args.count)]
    if args.script != DEFAULT_SCRIPT:
        command += ["--script", args.script]
    if args.out != DEFAULT_OUT:
        command += ["--out", args.out]
    manifest = {
        "about": "Inputs (case-NNN.txt) and the exact standard output (case-NNN.out) of conlleval.pl run as "
        "`perl conlleval.pl < case-NNN.txt` with LC_ALL=C (exit code 0, empty stderr). case-000..: generated; "
        "case-9NN: hand-written, one rule each. The script itself is not in this repository.",
        "script": {
            "name": SCRIPT_NAME,
            "version_line": version_line,
            "author": "Erik Tjong Kim Sang",
            "sha256": script_sha,
            "bytes": len(script_bytes),
            "canonical": script_sha == SCRIPT_SHA256,
            "copies": SCRIPT_PROVENANCE,
        },
        "perl": perl_version,
        "generator": {
            "tool": "tools/conlleval_fixtures.py",
            "seed": args.seed,
            "count": args.count,
            "command": shlex.join(command),
            "python": platform.python_version(),
            "numpy": np.__version__,
        },
        "coverage": dict(sorted(coverage.items())),
        "cases": entries,
    }
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    total = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    print(f"{len(cases)} cases, {total:,} bytes in {out}")
    if total > MAX_DIR_BYTES:
        print(f"warning: over {MAX_DIR_BYTES:,} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
