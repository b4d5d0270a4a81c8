"""Spans by group (score(gold_tags, pred_tags, spans="iob2", groups=G), one group per sentence): each group equals
seqeval (strict mode) on its sentences, by a column or by document; the group-stratified bootstrap and the permutation
of groups resample sentences, not tokens or spans; labels in blocks within groups resample whole blocks."""

from __future__ import annotations

import numpy as np
import pytest
from seqeval.metrics import classification_report, f1_score
from seqeval.scheme import IOB2

import clfeval
from clfeval.errors import InputError

TYPES = ("PER", "LOC", "ORG")


def _sentence(rng: np.random.Generator, n: int) -> list[str]:
    tags: list[str] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.55:
            tags.append("O")
        elif r < 0.8 or not tags or tags[-1] == "O":
            tags.append(f"B-{rng.choice(TYPES)}")
        else:
            tags.append(f"I-{tags[-1][2:]}")
    return tags


def _noisy(rng: np.random.Generator, tags: list[str], error: float) -> list[str]:
    out = list(tags)
    for i in range(len(out)):
        if rng.random() < error:
            out[i] = "O" if out[i] != "O" else f"B-{rng.choice(TYPES)}"
    return out


def _corpus(seed: int, n: int = 240, groups: int = 3) -> tuple[list[list[str]], list[list[str]], np.ndarray]:
    rng = np.random.default_rng(seed)
    gold = [_sentence(rng, int(rng.integers(1, 14))) for _ in range(n)]
    domain = rng.choice([f"d{i}" for i in range(groups)], n)
    pred = [_noisy(rng, s, 0.08 if d == "d0" else 0.25) for s, d in zip(gold, domain)]
    return gold, pred, domain


@pytest.mark.parametrize("seed", range(5))
def test_each_group_equals_seqeval_strict_on_its_sentences(seed: int) -> None:
    gold, pred, domain = _corpus(seed, groups=2 + seed % 3)
    r = clfeval.score(gold, pred, spans="iob2", groups=domain, test="none")
    assert r.task == "spans"
    for name in r.names:
        idx = np.flatnonzero(domain == name)
        g, p = [gold[i] for i in idx], [pred[i] for i in idx]
        report = classification_report(g, p, mode="strict", scheme=IOB2, output_dict=True, zero_division=0)
        for average in ("micro", "macro", "weighted"):
            assert r[f"by_group.{name}.{average}.f1"] == pytest.approx(report[f"{average} avg"]["f1-score"], abs=1e-12)
            assert r[f"by_group.{name}.{average}.precision"] == pytest.approx(
                report[f"{average} avg"]["precision"], abs=1e-12
            )
        for t in TYPES:
            if t in report:
                assert r[f"by_group.{name}.per_label.{t}.f1"] == pytest.approx(report[t]["f1-score"], abs=1e-12)
                assert r.by_group[name].per_label[t].support == report[t]["support"]
        assert r.by_group[name].counts.n_sentences == len(idx)
    whole = f1_score(gold, pred, mode="strict", scheme=IOB2, average="micro")
    assert r["micro.f1"] == pytest.approx(whole, abs=1e-12)
    f1s = [f1_score([gold[i] for i in np.flatnonzero(domain == n)], [pred[i] for i in np.flatnonzero(domain == n)],
                    mode="strict", scheme=IOB2) for n in r.names]  # fmt: skip
    assert r.gap("micro.f1").difference == pytest.approx(max(f1s) - min(f1s), abs=1e-12)


def test_groups_by_document_and_by_two_columns() -> None:
    gold, pred, domain = _corpus(11, n=120)
    document = np.repeat(np.arange(30), 4).astype(str)
    r = clfeval.score(gold, pred, spans="iob2", groups={"document": document}, test="none")
    assert r.columns == ("document",) and len(r.names) == 30
    for name in r.names[:5]:
        idx = np.flatnonzero(document == name)
        want = f1_score([gold[i] for i in idx], [pred[i] for i in idx], mode="strict", scheme=IOB2)
        assert r[f"by_group.{name}.micro.f1"] == pytest.approx(want, abs=1e-12)
    both = clfeval.score(gold, pred, spans="iob2", groups={"domain": domain, "half": np.arange(120) < 60},
                         test="none")  # fmt: skip
    assert all("&" in n for n in both.names)
    with pytest.raises(InputError, match="one group per sentence"):
        clfeval.score(gold, pred, spans="iob2", groups=["x"] * 7)


def _width(r: clfeval.Sliced, metric: str) -> float:
    low, high = r.gap(metric, "d0", "d1").difference_ci
    return high - low


def test_bootstrap_and_permutation_resample_sentences_not_spans() -> None:
    """Each sentence repeated 5 times within itself (its tags concatenated): the same sentences, with 5 times the
    spans. Resampling sentences gives (nearly) the intervals and p-values of the sentences once; resampling spans or
    tokens would make them √5 times narrower and the p-values smaller."""
    gold, pred, domain = _corpus(3, n=300, groups=2)
    k = 5
    gold5 = [s * k for s in gold]
    pred5 = [s * k for s in pred]
    kw = {"ci": "bootstrap", "resamples": 1500, "seed": 2, "test": "permutation", "rounds": 1500}
    once = clfeval.score(gold, pred, spans="iob2", groups=domain, **kw)
    five = clfeval.score(gold5, pred5, spans="iob2", groups=domain, **kw)
    assert five["by_group.d0.micro.f1"] == pytest.approx(once["by_group.d0.micro.f1"], abs=1e-12)
    assert _width(five, "micro.f1") == pytest.approx(_width(once, "micro.f1"), rel=0.15)
    assert five.by_group["d0"].intervals.unit == "sentences"
    p_once = next(t.p_value for t in once.tests if t.between == "pair")
    p_five = next(t.p_value for t in five.tests if t.between == "pair")
    assert p_five == pytest.approx(p_once, abs=0.02)
    # the same spans as one sentence each (every span its own unit): much narrower
    tokens = clfeval.score([[t] for s in gold5 for t in s], [[t] for s in pred5 for t in s], spans="iob2",
                           groups=np.repeat(domain, [len(s) for s in gold5]), **kw)  # fmt: skip
    assert _width(tokens, "micro.f1") < 0.7 * _width(five, "micro.f1")


def test_labels_in_blocks_within_groups_resample_blocks() -> None:
    """Labels each copied 6 times into a block of their own: with blocks=, the group-stratified bootstrap and the
    permutation move whole blocks (the intervals and p of the labels once); without, the copies as instances."""
    rng = np.random.default_rng(8)
    n, k = 400, 6
    g = rng.choice(["d0", "d1"], n)
    y = rng.integers(0, 3, n)
    p = np.where(rng.random(n) < np.where(g == "d0", 0.7, 0.8), y, rng.integers(0, 3, n))
    kw = {"ci": "bootstrap", "resamples": 1500, "seed": 4, "test": "permutation", "rounds": 1500}
    once = clfeval.score(y, p, groups=g, **kw)
    blocks = np.repeat(np.arange(n), k)
    whole = clfeval.score(np.repeat(y, k), np.repeat(p, k), groups=np.repeat(g, k), blocks=blocks, **kw)
    loose = clfeval.score(np.repeat(y, k), np.repeat(p, k), groups=np.repeat(g, k), **kw)
    for metric in ("macro.f1", "accuracy"):
        assert whole["by_group.d1." + metric] == pytest.approx(once["by_group.d1." + metric], abs=1e-12)
        assert _width(whole, metric) == pytest.approx(_width(once, metric), rel=0.15)
        assert _width(loose, metric) < 0.6 * _width(whole, metric)
    p_once = [t.p_value for t in once.tests if t.between == "pair"]
    p_whole = [t.p_value for t in whole.tests if t.between == "pair"]
    assert p_whole == pytest.approx(p_once, abs=0.04)
