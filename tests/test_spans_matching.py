"""The partial-match modes and the span confusion, computed with array operations for all sentences at once, against
the rule span by span (``mode_counts``, ``pair_spans``: the reference, one sentence at a time); and computed only where
shown: ``--format conlleval`` does not compute them, ``--format json`` shows the same numbers as the Python API.

Random cases: entity lists with spans that overlap within a column and repeat (every rule of the greedy matching
meets ties and chains), and random tags under every scheme, read from CoNLL files by the real command line.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import clfeval
from clfeval.spans import MODES, NO_SPAN, SCHEMES
from clfeval.spans.matching import MODE_COUNTS, mode_counts, pair_spans

Span = tuple[int, int, str]


def _reference(gold: list[list[Span]], pred: list[list[Span]]) -> tuple[dict, dict]:
    """The modes (mode → type → counts, ``*`` for every type) and the confusion, sentence by sentence."""
    names = sorted({t for col in (gold, pred) for sentence in col for _, _, t in sentence})
    code = {t: i + 1 for i, t in enumerate(names)}
    modes: dict[str, dict[str, np.ndarray]] = {m: {} for m in MODES}
    confusion: Counter[tuple[str, str, str]] = Counter()
    label = [NO_SPAN, *names]
    for gs, ps in zip(gold, pred):
        g = sorted((a, b, code[t]) for a, b, t in gs)
        p = sorted((a, b, code[t]) for a, b, t in ps)
        for mode in MODES:
            per = modes[mode]
            per["*"] = per.get("*", np.zeros(5, np.int64)) + mode_counts(g, p, mode)
            for t in {s[2] for s in g} | {s[2] for s in p}:
                counts = mode_counts([s for s in g if s[2] == t], [s for s in p if s[2] == t], mode)
                per[label[t]] = per.get(label[t], np.zeros(5, np.int64)) + counts
        for a, b, boundary in pair_spans(g, p):
            confusion[(label[a], label[b], ("exact", "overlap")[boundary])] += 1
    out = {m: {t: tuple(int(x) for x in v) for t, v in per.items() if t == "*" or any(v)} for m, per in modes.items()}
    for m in MODES:
        out[m].setdefault("*", (0,) * len(MODE_COUNTS))
    return out, dict(confusion)


def _random_spans(rng: random.Random, width: int, n: int, types: str) -> list[Span]:
    return [(a, a + rng.randint(1, 4), rng.choice(types)) for a in (rng.randrange(width) for _ in range(n))]


@pytest.mark.parametrize("seed", range(6))
def test_the_array_rule_equals_the_rule_span_by_span_on_overlapping_entity_lists(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        n_sentences = rng.randint(1, 12)
        types = "XYZ"[: rng.randint(1, 3)]
        gold = [_random_spans(rng, rng.randint(1, 12), rng.randint(0, 6), types) for _ in range(n_sentences)]
        pred = [_random_spans(rng, rng.randint(1, 12), rng.randint(0, 6), types) for _ in range(n_sentences)]
        if rng.random() < 0.3:  # repeated spans: ties between equal spans
            pred = [s + s[: rng.randint(0, len(s))] for s in pred]
        if not any(gold) and not any(pred):
            continue
        counts = clfeval.score(gold, pred, spans=True).counts
        modes, confusion = _reference(gold, pred)
        assert {m: dict(per) for m, per in counts.modes.items()} == modes, (gold, pred)
        assert dict(counts.confusion) == confusion, (gold, pred)


def test_chains_of_overlapping_spans_are_matched_in_position_order() -> None:
    """Each predicted span overlaps two gold spans, each gold span two predicted ones: the first takes the first."""
    gold = [[(2 * i, 2 * i + 2, "X") for i in range(6)]]
    pred = [[(2 * i + 1, 2 * i + 3, "X") for i in range(6)]]
    counts = clfeval.score(gold, pred, spans=True).counts
    assert counts.modes["partial"]["*"] == (0, 0, 6, 0, 0)
    assert counts.modes["strict"]["*"] == (0, 6, 0, 0, 0)
    assert dict(counts.confusion) == {("X", "X", "overlap"): 6}
    assert _reference(gold, pred) == ({m: dict(v) for m, v in counts.modes.items()}, dict(counts.confusion))


# -- random tags under every scheme, through the command line -------------------------------------------------------

PREFIXES = {
    "conlleval": "BIES",
    "iob1": "BI",
    "iob2": "BI",
    "ioe1": "IE",
    "ioe2": "IE",
    "iobes": "BIES",
    "bilou": "BILU",
}


def _tag_sentences(rng: random.Random, prefixes: str, n_sentences: int) -> tuple[list[list[str]], list[list[str]]]:
    """Random tags (invalid transitions included) and a tagger's: each tag kept with probability 0.6."""
    tags = ["O", "O", *(f"{p}-{t}" for p in prefixes for t in "XY")]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 9))] for _ in range(n_sentences)]
    pred = [[t if rng.random() < 0.6 else rng.choice(tags) for t in sentence] for sentence in gold]
    return gold, pred


def _cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "clfeval", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_the_json_report_shows_the_modes_of_the_python_api_and_conlleval_s_report_is_unchanged(
    scheme: str, tmp_path: Path
) -> None:
    rng = random.Random(sorted(SCHEMES).index(scheme))
    gold, pred = _tag_sentences(rng, PREFIXES.get(scheme, "BI"), 80)
    path = tmp_path / "tags.conll"
    path.write_text("\n\n".join("\n".join(f"w {g} {p}" for g, p in zip(*pair)) for pair in zip(gold, pred)) + "\n")
    api = clfeval.score(gold, pred, spans=scheme)
    report = json.loads(_cli("score", str(path), "--spans", scheme, "--format", "json"))
    details = report["spans"]
    shown = {m: {t: [v[k] for k in MODE_COUNTS] for t, v in per.items()} for m, per in details["modes"].items()}
    assert shown == {m: {t: list(v) for t, v in per.items()} for m, per in api.counts.modes.items()}
    confusion = {(c["gold"], c["predicted"], c["boundaries"]): c["count"] for c in details["confusion"]}
    assert confusion == dict(api.counts.confusion)
    if scheme == "conlleval":  # conlleval.pl's report: the same bytes as from the counts with every detail
        from clfeval.render.conlleval import render_conlleval

        assert _cli("score", str(path), "--spans", "--format", "conlleval") == render_conlleval(api.counts)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_counts_without_details_are_the_counts_with_them_less_the_modes_and_the_confusion(scheme: str) -> None:
    rng = random.Random(100 + sorted(SCHEMES).index(scheme))
    gold, pred = _tag_sentences(rng, PREFIXES.get(scheme, "BI"), 60)
    full = clfeval.score(gold, pred, spans=clfeval.Spans(scheme))
    bare = clfeval.score(gold, pred, spans=clfeval.Spans(scheme, details=False))
    assert bare.counts.modes is None and bare.counts.confusion is None
    assert full.counts.modes is not None and full.counts.confusion is not None
    assert bare.counts.pairs == full.counts.pairs and bare.counts.transitions == full.counts.transitions
    assert bare.counts.blocks is not None and full.counts.blocks is not None
    assert bare.counts.blocks.totals() == full.counts.blocks.totals()
    assert bare.averages == full.averages and bare.per_label == full.per_label
    assert json.loads(bare.to_json())["spans"]["modes"] is None
