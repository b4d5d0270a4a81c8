"""Blocks of dependent instances (sentences) and the sign test.

On the command line: ``--blocks blank-line`` and ``--block-col`` for compare and for score's
intervals, and what is refused. In the library: block randomization against a plain per-block
reference (Monte Carlo and exact), blocks of one instance against the instance-level tests and
intervals, the sign test against McNemar and a hand count, and the building blocks
(:class:`Blocks`, :func:`signatures`, :func:`weighted_rows`) against simple loops.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import clfeval
from clfeval.count.blocks import Blocks
from clfeval.count.joint import JointCounts
from clfeval.count.paired import PairedCounts
from clfeval.infer.comparison import compare_counts
from clfeval.infer.delta import block_delta_variances, delta_variances
from clfeval.infer.intervals import block_units, with_intervals
from clfeval.infer.significance import mcnemar, sign_test
from clfeval.infer.units import signatures, weighted_rows
from clfeval.scoring.statistics import ScoreFunction
from tests.conftest import cli_error, cli_json, run_cli

LABELS = ("L0", "L1", "L2", "L3")
Sentence = list[tuple[str, str, str]]  # (gold, A, B) per token


# --------------------------------------------------------------------------- data and references


def _sentences(n: int, seed: int, acc_a: float = 0.8, acc_b: float = 0.7, longest: int = 7) -> list[Sentence]:
    """n sentences of 1…longest tokens: gold, system A's and system B's tags."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        gold = [LABELS[i] for i in rng.integers(0, len(LABELS), int(rng.integers(1, longest + 1)))]
        a = [g if rng.random() < acc_a else LABELS[int(rng.integers(0, len(LABELS)))] for g in gold]
        b = [g if rng.random() < acc_b else LABELS[int(rng.integers(0, len(LABELS)))] for g in gold]
        out.append(list(zip(gold, a, b)))
    return out


def _hard_and_easy_sentences(n: int, seed: int) -> list[Sentence]:
    """n sentences of 2…8 tokens whose errors hang together: each system finds each sentence easy (95% right)
    or hard (30% right), so a sentence's tokens are not independent."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        gold = [LABELS[i] for i in rng.integers(0, len(LABELS), int(rng.integers(2, 9)))]
        acc_a = 0.95 if rng.random() < 0.6 else 0.3
        acc_b = 0.95 if rng.random() < 0.5 else 0.3
        a = [g if rng.random() < acc_a else LABELS[int(rng.integers(0, len(LABELS)))] for g in gold]
        b = [g if rng.random() < acc_b else LABELS[int(rng.integers(0, len(LABELS)))] for g in gold]
        out.append(list(zip(gold, a, b)))
    return out


def _joint(sentences: list[Sentence]) -> tuple[JointCounts, Blocks]:
    rows = [t for s in sentences for t in s]
    block = [i for i, s in enumerate(sentences) for _ in s]
    return JointCounts(("A", "B"), Counter(rows)), Blocks.of_instances(rows, block, unit="sentences")


def _arrays(sentences: list[Sentence]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Label codes of gold, A, B and each token's sentence; the number of labels (the union of all three)."""
    rows = [t for s in sentences for t in s]
    labels = sorted({x for r in rows for x in r})
    code = {lab: i for i, lab in enumerate(labels)}
    g, a, b = (np.array([code[r[k]] for r in rows]) for k in range(3))
    block = np.array([i for i, s in enumerate(sentences) for _ in s])
    return g, a, b, block, len(labels)


def _accuracy_and_macro_f1(g: np.ndarray, p: np.ndarray, k: int) -> tuple[float, float]:
    """From scratch: accuracy, and the mean over the k labels of F1 = 2tp/(2tp + fp + fn) (0 when 0/0)."""
    right = g == p
    tp = np.bincount(g[right], minlength=k)
    gold_n, pred_n = np.bincount(g, minlength=k), np.bincount(p, minlength=k)
    denominator = gold_n + pred_n  # 2tp + fp + fn
    f1 = np.where(denominator > 0, 2 * tp / np.maximum(denominator, 1), 0.0)
    return float(right.mean()), float(f1.mean())


def _differences(g: np.ndarray, a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    acc_a, f_a = _accuracy_and_macro_f1(g, a, k)
    acc_b, f_b = _accuracy_and_macro_f1(g, b, k)
    return np.array([acc_a - acc_b, f_a - f_b])


def _at_least_as_extreme(d: np.ndarray, observed: np.ndarray) -> np.ndarray:
    return np.abs(d) >= np.abs(observed) - 1e-12 * np.maximum(1.0, np.abs(observed))


def _mc_tolerance(p: float, rounds: int) -> float:
    return 4 * math.sqrt(2 * p * (1 - p) / rounds) + 1e-9


def _p_values(result: Any) -> dict[str, float]:
    return {p.metric: p.p_value for p in result.pairs}


# --------------------------------------------------------------------------- the command line


def _write_sentences(tmp_path: Path, sentences: list[Sentence]) -> None:
    """gold.txt, sysa.txt, sysb.txt (one label per line, a blank line after each sentence), ga.txt (gold and A),
    table.tsv and ga.tsv (a sentence-id column)."""
    for name, k in (("gold", 0), ("sysa", 1), ("sysb", 2)):
        (tmp_path / f"{name}.txt").write_text("\n".join("".join(t[k] + "\n" for t in s) for s in sentences))
    (tmp_path / "ga.txt").write_text("\n".join("".join(f"w {t[0]} {t[1]}\n" for t in s) for s in sentences))
    (tmp_path / "table.tsv").write_text(
        "sent\tgold\tsysa\tsysb\n" + "".join(f"s{i}\t{g}\t{a}\t{b}\n" for i, s in enumerate(sentences) for g, a, b in s)
    )
    (tmp_path / "ga.tsv").write_text(
        "word\tgold\tpred\tsent\n" + "".join(f"w\t{g}\t{a}\ts{i}\n" for i, s in enumerate(sentences) for g, a, _ in s)
    )


def _hand_sign(sentences: list[Sentence]) -> tuple[int, int, int]:
    """Sentences where A gets more tokens right than B, fewer, and as many."""
    better = worse = ties = 0
    for s in sentences:
        margin = sum(g == a for g, a, _ in s) - sum(g == b for g, _, b in s)
        better, worse, ties = better + (margin > 0), worse + (margin < 0), ties + (margin == 0)
    return better, worse, ties


def _two_sided_sign_p(wins: int, losses: int) -> float:
    n = wins + losses
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2**n)


@pytest.fixture()
def sentence_files(tmp_path: Path) -> list[Sentence]:
    sentences = _sentences(25, 3, acc_a=0.85, acc_b=0.6, longest=5)
    _write_sentences(tmp_path, sentences)
    return sentences


def test_compare_prediction_files_with_blank_line_blocks(tmp_path: Path, sentence_files: list[Sentence]) -> None:
    n_tokens = sum(map(len, sentence_files))
    data = cli_json(
        "compare",
        "gold.txt",
        "sysa.txt",
        "sysb.txt",
        "--blocks",
        "blank-line",
        "--seed",
        "1",
        "--metric",
        "macro.f1,accuracy",
        cwd=tmp_path,
    )
    assert data["unit"] == "blocks delimited by blank lines" and data["n_units"] == 25
    assert data["n_instances"] == n_tokens
    assert data["notes"][0].startswith(
        "units: blocks delimited by blank lines (25 blocks): randomization swaps whole blocks"
    )
    assert data["results"]["sysa"]["options"]["blocks"] == "blank-line"
    better, worse, ties = _hand_sign(sentence_files)
    sign = data["pairs"][0]["sign_test"]
    assert (sign["a_better"], sign["b_better"], sign["ties"]) == (better, worse, ties)
    assert sign["unit"] == "blocks delimited by blank lines"
    assert sign["p_value"] == pytest.approx(_two_sided_sign_p(better, worse), abs=1e-12)
    # the same data without blocks: instances are the units
    plain = cli_json(
        "compare",
        "gold.txt",
        "sysa.txt",
        "sysb.txt",
        "--seed",
        "1",
        "--rounds",
        "200",
        "--exact-limit",
        "0",
        cwd=tmp_path,
    )
    assert plain["unit"] == "instances" and plain["n_units"] == n_tokens
    assert plain["scores"]["sysa"]["macro.f1"] == data["scores"]["sysa"]["macro.f1"]
    assert not any(n.startswith("units:") for n in plain["notes"])

    # the same blocks from a column of one table, and from blank lines, give the same exact test
    table = cli_json(
        "compare",
        "table.tsv",
        "--gold-col",
        "gold",
        "--pred-col",
        "sysa",
        "--pred-col",
        "sysb",
        "--block-col",
        "sent",
        "--seed",
        "1",
        "--metric",
        "macro.f1,accuracy",
        cwd=tmp_path,
    )
    assert table["unit"] == "blocks of column sent" and table["n_units"] == 25
    assert table["results"]["sysa"]["options"]["blocks"] == {"column": "sent"}
    assert all(p["exact"] for p in data["pairs"] + table["pairs"])
    for by_lines, by_column in zip(data["pairs"], table["pairs"]):
        assert by_lines["metric"] == by_column["metric"]
        assert by_column["p_value"] == pytest.approx(by_lines["p_value"], abs=1e-12)
        assert by_column["sign_test"]["a_better"] == better


def test_compare_prediction_files_with_a_block_column_of_the_gold_file(tmp_path: Path) -> None:
    (tmp_path / "gold.txt").write_text("s1 A\ns1 B\ns2 A\ns3 B\ns3 B\n")
    (tmp_path / "sysa.txt").write_text("A\nA\nA\nB\nA\n")
    (tmp_path / "sysb.txt").write_text("B\nB\nA\nB\nB\n")
    data = cli_json(
        "compare",
        "gold.txt",
        "sysa.txt",
        "sysb.txt",
        "--block-col",
        "1",
        "--metric",
        "accuracy",
        "--seed",
        "4",
        cwd=tmp_path,
    )
    assert data["unit"] == "blocks of column 1" and data["n_units"] == 3 and data["n_instances"] == 5
    assert data["scores"] == {"sysa": {"accuracy": 0.6}, "sysb": {"accuracy": 0.8}}
    # s1: one right each (a tie); s2: both right (a tie); s3: A one right, B two (B better)
    sign = data["pairs"][0]["sign_test"]
    assert (sign["a_better"], sign["b_better"], sign["ties"], sign["p_value"]) == (0, 1, 2, 1.0)
    # one block where they differ in accuracy terms (s3) and one (s1) that swaps without changing accuracy:
    # the 4 swap patterns give d = -0.2, -0.2, +0.2, +0.2 (s3 swapped or not), so p = 1
    assert data["pairs"][0]["exact"] is True and data["pairs"][0]["p_value"] == pytest.approx(1.0)


def test_sign_test_on_blocks_from_the_command_line(tmp_path: Path, sentence_files: list[Sentence]) -> None:
    data = cli_json(
        "compare", "gold.txt", "sysa.txt", "sysb.txt", "--blocks", "blank-line", "--test", "sign", cwd=tmp_path
    )
    better, worse, _ = _hand_sign(sentence_files)
    assert data["test"] == "sign" and data["metric"] == ["accuracy"]
    assert data["pairs"][0]["p_value"] == pytest.approx(_two_sided_sign_p(better, worse), abs=1e-12)
    assert data["pairs"][0]["exact"] is True and data["seed"] is None


def test_score_intervals_with_blocks(tmp_path: Path, sentence_files: list[Sentence]) -> None:
    data = cli_json(
        "score",
        "ga.txt",
        "--blocks",
        "blank-line",
        "--ci",
        "bootstrap",
        "--seed",
        "2",
        "--resamples",
        "400",
        cwd=tmp_path,
    )
    ci = data["ci"]
    assert ci["unit"] == "blocks delimited by blank lines" and ci["n_units"] == 25
    assert ci["definition"] == "percentile interval of resamples of whole blocks, drawn per kind of block"
    assert any(n.startswith("resampling units: blocks delimited by blank lines (25 blocks") for n in ci["notes"])
    assert data["inputs"]["n_blocks"] == 25 and data["options"]["blocks"] == "blank-line"
    assert data["n_instances"] == sum(map(len, sentence_files))
    # a column of sentence ids: the same blocks, here with the delta method's cluster-robust variance
    by_column = cli_json(
        "score",
        "ga.tsv",
        "--gold-col",
        "gold",
        "--pred-col",
        "pred",
        "--block-col",
        "sent",
        "--ci",
        "delta",
        cwd=tmp_path,
    )
    assert by_column["ci"]["unit"] == "blocks of column sent" and by_column["ci"]["n_units"] == 25
    assert any("cluster-robust" in n for n in by_column["ci"]["notes"])
    assert by_column["confusion_matrix"] == data["confusion_matrix"]
    # without blocks, instances
    plain = cli_json("score", "ga.txt", "--ci", "bootstrap", "--seed", "2", "--resamples", "400", cwd=tmp_path)
    assert plain["ci"]["unit"] == "instances" and plain["ci"]["n_units"] == data["n_instances"]


def test_what_blocks_refuse(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text('{"g": "A", "a": "A", "b": "B"}\n{"g": "B", "a": "B", "b": "B"}\n')
    (tmp_path / "run.txt").write_text("A A\nB A\n\nA A\n")
    (tmp_path / "gold.txt").write_text("A\nB\n\nA\n")
    (tmp_path / "a.txt").write_text("A\nA\n\nA\n")
    (tmp_path / "b.txt").write_text("B\nB\n\nA\n")
    cli_error(
        run_cli(
            "compare",
            "t.jsonl",
            "--gold-col",
            "g",
            "--pred-col",
            "a",
            "--pred-col",
            "b",
            "--blocks",
            "blank-line",
            cwd=tmp_path,
        ),
        "jsonl records have no blank lines",
        "--block-col",
    )
    cli_error(
        run_cli(
            "score",
            "t.jsonl",
            "--gold-col",
            "g",
            "--pred-col",
            "a",
            "--blocks",
            "blank-line",
            "--ci",
            "bootstrap",
            cwd=tmp_path,
        ),
        "jsonl records have no blank lines",
    )
    import polars as pl

    pl.DataFrame({"g": ["A", "B"], "a": ["A", "B"], "b": ["B", "B"]}).write_parquet(tmp_path / "t.parquet")
    cli_error(
        run_cli(
            "compare",
            "t.parquet",
            "--gold-col",
            "g",
            "--pred-col",
            "a",
            "--pred-col",
            "b",
            "--blocks",
            "blank-line",
            cwd=tmp_path,
        ),
        "parquet records have no blank lines",
    )
    cli_error(
        run_cli("score", "run.txt", "--blocks", "blank-line", "--block-col", "1", "--ci", "bootstrap", cwd=tmp_path),
        "--blocks blank-line",
        "--block-col",
        "not both",
    )
    cli_error(
        run_cli("compare", "gold.txt", "a.txt", "b.txt", "--blocks", "blank-line", "--test", "mcnemar", cwd=tmp_path),
        "McNemar's test counts instances as independent",
        "--test sign",
    )
    clfeval.save_counts(clfeval.read(str(tmp_path / "run.txt")), str(tmp_path / "counts.json"))
    cli_error(
        run_cli("score", "--counts", "counts.json", "--blocks", "blank-line", cwd=tmp_path),
        "--blocks",
        "not to count files",
    )
    with pytest.raises(clfeval.ClfevalError, match="not both"):
        clfeval.compare(
            clfeval.read(
                str(tmp_path / "gold.txt"),
                *[str(tmp_path / "a.txt"), str(tmp_path / "b.txt")],
                reading=clfeval.Reading(blocks="blank-line", block_col=1),
            )
        )
    with pytest.raises(clfeval.ClfevalError, match="blank-line"):
        clfeval.score(clfeval.read(str(tmp_path / "run.txt"), reading=clfeval.Reading(blocks="blank-lines")))


# --------------------------------------------------------------------------- block randomization against a reference


def test_block_randomization_agrees_with_a_per_block_reference() -> None:
    sentences = _hard_and_easy_sentences(60, 8)
    joint, blocks = _joint(sentences)
    rounds = 3000
    result = compare_counts(
        joint, metrics=["accuracy", "macro.f1"], test=clfeval.Test(rounds=rounds, seed=1, exact_limit=0), blocks=blocks
    )
    assert result.unit == "sentences" and result.n_units == 60 and not any(p.exact for p in result.pairs)

    g, a, b, block, k = _arrays(sentences)
    observed = _differences(g, a, b, k)
    assert [p.difference for p in result.pairs] == pytest.approx(list(observed), abs=1e-12)
    rng = np.random.default_rng(2024)
    hits = np.zeros(2)
    for _ in range(rounds):
        swap = (rng.random(60) < 0.5)[block]  # one fair coin per sentence, for all its tokens
        hits += _at_least_as_extreme(_differences(g, np.where(swap, b, a), np.where(swap, a, b), k), observed)
    reference = (hits + 1) / (rounds + 1)
    got = _p_values(result)
    by_instance = _p_values(
        compare_counts(joint, metrics=["accuracy", "macro.f1"], test=clfeval.Test(rounds=rounds, seed=1, exact_limit=0))
    )
    for metric, p in zip(("accuracy", "macro.f1"), reference):
        assert 0.02 < p < 0.98  # a p-value the comparison can tell apart
        assert abs(got[metric] - p) <= _mc_tolerance(p, rounds), (metric, got[metric], p)
        # swapping tokens instead of sentences would not pass: the errors hang together within sentences
        assert p - by_instance[metric] > 2 * _mc_tolerance(p, rounds), (metric, by_instance[metric], p)


def test_exact_block_randomization_equals_the_enumerated_reference() -> None:
    sentences = _sentences(30, 11, acc_a=0.9, acc_b=0.9, longest=4)
    # make all but a few sentences agree between A and B (both take A's tags)
    differing = [i for i, s in enumerate(sentences) if any(a != b for _, a, b in s)]
    keep = set(differing[:9])
    sentences = [s if i in keep else [(g, a, a) for g, a, _ in s] for i, s in enumerate(sentences)]
    joint, blocks = _joint(sentences)
    result = compare_counts(joint, metrics=["accuracy", "macro.f1"], test=clfeval.Test(seed=1), blocks=blocks)
    assert all(p.exact for p in result.pairs)

    g, a, b, block, k = _arrays(sentences)
    observed = _differences(g, a, b, k)
    moving = sorted(keep)
    mass = np.zeros(2)
    for pattern in itertools.product((False, True), repeat=len(moving)):
        swapped = {i for i, s in zip(moving, pattern) if s}
        swap = np.isin(block, list(swapped))
        mass += _at_least_as_extreme(_differences(g, np.where(swap, b, a), np.where(swap, a, b), k), observed)
    reference = mass / 2 ** len(moving)
    got = _p_values(result)
    assert got["accuracy"] == pytest.approx(reference[0], abs=1e-12)
    assert got["macro.f1"] == pytest.approx(reference[1], abs=1e-12)
    assert reference.min() > 0 and reference.max() < 1


# --------------------------------------------------------------------------- blocks of one instance


def _one_per_block(n: int, seed: int, acc_a: float = 0.75, acc_b: float = 0.7) -> list[tuple[str, str, str]]:
    return [s[0] for s in _sentences(n, seed, acc_a, acc_b, longest=1)]


def test_blocks_of_one_instance_give_the_exact_instance_level_p_value() -> None:
    rows = _one_per_block(40, 21, acc_a=0.95, acc_b=0.95)
    joint = JointCounts(("A", "B"), Counter(rows))
    blocks = Blocks.of_instances(rows, list(range(len(rows))))
    assert sum(a != b for _, a, b in rows) <= 14  # few differing instances: enumerated either way
    metrics = ["accuracy", "macro.f1", "micro.f1"]
    by_instance = compare_counts(joint, metrics=metrics, test=clfeval.Test(seed=1))
    by_block = compare_counts(joint, metrics=metrics, test=clfeval.Test(seed=1), blocks=blocks)
    assert all(p.exact for p in by_instance.pairs + by_block.pairs)
    for x, y in zip(by_instance.pairs, by_block.pairs):
        assert x.metric == y.metric and y.p_value == pytest.approx(x.p_value, abs=1e-12)
    assert 0 < by_instance.pairs[1].p_value < 1


def test_blocks_of_one_instance_monte_carlo() -> None:
    """Not the same random stream as the instance-level test in general (the kinds of block come in the order of
    their first block, the instance-level swap units in the order of the sorted triples); the same p-value when the
    instances are given in the sorted order of their triples, and within Monte Carlo error otherwise."""
    rows = _one_per_block(300, 11, 0.75, 0.72)
    joint = JointCounts(("A", "B"), Counter(rows))
    rounds = 2000
    metrics = ["macro.f1", "accuracy"]
    by_instance = _p_values(
        compare_counts(joint, metrics=metrics, test=clfeval.Test(rounds=rounds, seed=1, exact_limit=0))
    )
    in_order = sorted(rows)
    same_stream = _p_values(
        compare_counts(
            joint,
            metrics=metrics,
            test=clfeval.Test(rounds=rounds, seed=1, exact_limit=0),
            blocks=Blocks.of_instances(in_order, list(range(len(rows)))),
        )
    )
    assert same_stream == by_instance
    shuffled = _p_values(
        compare_counts(
            joint,
            metrics=metrics,
            test=clfeval.Test(rounds=rounds, seed=1, exact_limit=0),
            blocks=Blocks.of_instances(rows, list(range(len(rows)))),
        )
    )
    for metric in metrics:
        assert abs(shuffled[metric] - by_instance[metric]) <= _mc_tolerance(by_instance[metric], rounds)
        assert 0.05 < by_instance[metric] < 0.95


# --------------------------------------------------------------------------- the sign test


def test_sign_test_on_instances_is_mcnemar() -> None:
    rows = _one_per_block(200, 31, acc_a=0.8, acc_b=0.65)
    paired = PairedCounts(Counter(rows))
    only_a = sum(g == a and g != b for g, a, b in rows)
    only_b = sum(g == b and g != a for g, a, b in rows)
    for alternative in ("two-sided", "greater", "less"):
        s, m = sign_test(paired, alternative), mcnemar(paired, alternative)
        assert (s.unit, s.a_better, s.b_better, s.ties) == ("instances", only_a, only_b, 200 - only_a - only_b)
        assert s.p_value == m.p_value
    assert sign_test(paired).p_value == pytest.approx(_two_sided_sign_p(only_a, only_b), abs=1e-15)
    joint = JointCounts(("A", "B"), Counter(rows))
    by_sign = compare_counts(joint, test=clfeval.Test("sign")).pairs[0]
    by_mcnemar = compare_counts(joint, test=clfeval.Test("mcnemar")).pairs[0]
    assert by_sign.p_value == by_mcnemar.p_value and by_sign.difference == by_mcnemar.difference


def test_sign_test_on_blocks_counts_blocks() -> None:
    sentences = [
        [("A", "A", "A"), ("B", "B", "A")],  # A 2 right, B 1: A better
        [("A", "B", "A")],  # B better
        [("A", "A", "B"), ("B", "C", "B"), ("C", "C", "C")],  # 2 each (two discordant tokens): a tie
        [("B", "B", "A"), ("B", "A", "A")],  # A 1, B 0: A better
        [("C", "C", "C")],  # a tie
    ]
    better, worse, ties = _hand_sign(sentences)
    assert (better, worse, ties) == (2, 1, 2)
    joint, blocks = _joint(sentences)
    paired = joint.paired("A", "B")
    pair_blocks = blocks.regrouped(np.array([list(paired.triples).index(k) for k in blocks.keys]), list(paired.triples))
    expected = {"two-sided": 1.0, "greater": 4 / 8, "less": 7 / 8}  # X ~ Binomial(3, ½), X = 2
    for alternative, p in expected.items():
        s = sign_test(paired, alternative, pair_blocks)
        assert (s.unit, s.a_better, s.b_better, s.ties) == ("sentences", 2, 1, 2)
        assert s.p_value == pytest.approx(p, abs=1e-15)
    on_instances = sign_test(paired)
    assert (on_instances.a_better, on_instances.b_better) == (3, 2)  # tokens: A right only 3 times, B only 2
    result = compare_counts(joint, test=clfeval.Test("sign", alternative="greater"), blocks=blocks)
    assert result.pairs[0].p_value == pytest.approx(0.5, abs=1e-15) and result.pairs[0].sign.a_better == 2
    assert result.unit == "sentences" and result.n_units == 5
    with pytest.raises(clfeval.ClfevalError, match="--test sign"):
        compare_counts(joint, test=clfeval.Test("mcnemar"), blocks=blocks)


# --------------------------------------------------------------------------- block intervals


def _scores(rows: list[tuple[str, str, str]], beta: float = 1.0) -> clfeval.Scores:
    return clfeval.score([g for g, _, _ in rows], [a for _, a, _ in rows], scoring=clfeval.Scoring(beta=beta))


def test_block_bootstrap_with_blocks_of_one_instance_is_the_instance_bootstrap() -> None:
    rows = _one_per_block(400, 41)
    scores = _scores(rows)
    blocks = Blocks.of_instances([(g, a) for g, a, _ in rows], list(range(len(rows))))
    by_instance = clfeval.with_intervals(scores, clfeval.CI("bootstrap", resamples=3000, seed=1))
    by_block = clfeval.with_intervals(scores, clfeval.CI("bootstrap", resamples=3000, seed=1), blocks=blocks)
    assert by_block.intervals.unit == "blocks" and by_block.intervals.n_units == 400
    assert by_instance.intervals.unit == "instances"
    for key in (("averages", "macro", "f"), ("accuracy",), ("averages", "weighted", "f")):
        low, high = by_instance.intervals.get(key)
        block_low, block_high = by_block.intervals.get(key)
        assert abs(block_low - low) < 0.01 and abs(block_high - high) < 0.01, (
            key,
            (low, high),
            (block_low, block_high),
        )
        assert high - low > 0.05


def _multilabel_pairs(n: int, seed: int) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        gold = tuple(sorted({str(x) for x in rng.choice(["a", "b", "c"], int(rng.integers(1, 3)))}))
        pred = gold if rng.random() < 0.6 else tuple(sorted({str(rng.choice(["a", "b", "c"])), *gold[:1]}))
        out.append((gold, pred))
    return out


@pytest.mark.parametrize("case", ["beta 2", "beta 1", "multi-label"])
def test_block_delta_with_blocks_of_one_instance_is_the_generic_delta_method(case: str) -> None:
    if case == "multi-label":
        pairs = _multilabel_pairs(300, 52)
        scores = clfeval.score([g for g, _ in pairs], [p for _, p in pairs], multilabel=True)
    else:
        rows = _one_per_block(300, 51)
        pairs = [(g, a) for g, a, _ in rows]
        scores = _scores(rows, 2.0 if case == "beta 2" else 1.0)
    blocks = Blocks.of_instances(pairs, list(range(len(pairs))))
    f = ScoreFunction.of(scores)
    generic = delta_variances(f)
    clustered = block_delta_variances(f, block_units(f, scores.counts, blocks))
    assert np.isfinite(generic).all() and (generic > 0).sum() > 20
    np.testing.assert_allclose(clustered, generic, rtol=1e-9, atol=1e-12)
    by_instance = clfeval.with_intervals(scores, "delta")
    by_block = clfeval.with_intervals(scores, "delta", blocks=blocks)
    # the generic method everywhere, except β = 1 single-label averaged F1 (Takahashi's closed forms): per-label there
    keys = [k for k in f.keys if case != "beta 1" or k[0] == "per_label"]
    compared = 0
    for key in keys:
        if by_instance.intervals.get(key) is not None:
            assert by_block.intervals.get(key) == pytest.approx(by_instance.intervals.get(key), abs=1e-9), key
            compared += 1
    assert compared >= 12


@pytest.mark.simulation
def test_block_intervals_are_wider_when_errors_hang_together() -> None:
    """40 sentences of 5 tokens, each sentence all right or all wrong: the effective sample is 40, not 200."""
    rng = np.random.default_rng(61)
    gold, pred, block = [], [], []
    for s in range(40):
        right = rng.random() < 0.7
        for _ in range(5):
            g = "pos" if rng.random() < 0.5 else "neg"
            gold.append(g)
            pred.append(g if right else ("neg" if g == "pos" else "pos"))
            block.append(s)
    scores = clfeval.score(gold, pred)
    blocks = Blocks.of_instances(list(zip(gold, pred)), block, unit="sentences")
    for method in ("bootstrap", "delta"):
        by_instance = clfeval.with_intervals(scores, clfeval.CI(method, resamples=2000, seed=3))
        by_block = clfeval.with_intervals(scores, clfeval.CI(method, resamples=2000, seed=3), blocks=blocks)
        for key in (("accuracy",), ("averages", "macro", "f")):
            low, high = by_instance.intervals.get(key)
            block_low, block_high = by_block.intervals.get(key)
            ratio = (block_high - block_low) / (high - low)
            assert 1.6 < ratio < 3.2, (method, key, ratio)  # about √5 ≈ 2.24


# --------------------------------------------------------------------------- the building blocks


def test_blocks_of_instances_against_a_loop() -> None:
    rng = np.random.default_rng(71)
    rows = [(f"g{rng.integers(3)}", f"p{rng.integers(3)}") for _ in range(120)]
    names = [f"s{rng.integers(15)}" for _ in range(120)]
    blocks = Blocks.of_instances(rows, names, unit="sentences")
    assert blocks.n_instances == 120 and blocks.unit == "sentences"
    assert blocks.n_blocks == len(set(names))
    assert list(blocks.keys) == list(dict.fromkeys(rows))  # in order of first appearance
    order = list(dict.fromkeys(names))
    got = {(order[b], blocks.keys[r]): c for b, r, c in zip(blocks.block, blocks.row, blocks.count)}
    assert len(got) == len(blocks.count)  # one entry per (block, row)
    assert got == dict(Counter(zip(names, rows)))
    assert blocks.totals() == dict(Counter(rows))
    with pytest.raises(ValueError):
        Blocks.of_instances(rows, names[:-1])


def test_regrouped_blocks_against_a_loop() -> None:
    rng = np.random.default_rng(72)
    rows = [(f"g{rng.integers(3)}", f"a{rng.integers(3)}", f"b{rng.integers(2)}") for _ in range(150)]
    names = list(rng.integers(0, 20, 150))
    blocks = Blocks.of_instances(rows, names)
    # regroup onto (gold, b): rows that differ only in a merge
    keys = sorted({(g, b) for g, _, b in rows})
    index = np.array([keys.index((g, b)) for g, _, b in blocks.keys])
    regrouped = blocks.regrouped(index, keys)
    assert regrouped.keys == tuple(keys) and regrouped.n_blocks == blocks.n_blocks
    order = list(dict.fromkeys(names))
    got = {(order[b], regrouped.keys[r]): int(c) for b, r, c in zip(regrouped.block, regrouped.row, regrouped.count)}
    assert len(got) == len(regrouped.count)
    assert got == dict(Counter((n, (g, b)) for n, (g, _, b) in zip(names, rows)))
    assert regrouped.totals() == dict(Counter((g, b) for g, _, b in rows))


def test_signatures_against_a_loop() -> None:
    rng = np.random.default_rng(73)
    entries: dict[tuple[int, int], int] = {}
    contents = [
        ((0, 1), (2, 1)),
        ((1, 3),),
        ((0, 1), (2, 1)),
        ((4, 2), (1, 1)),
        ((1, 3),),
        ((0, 1), (2, 1)),
        ((2, 1), (0, 1)),
    ]
    for b, entry in enumerate(contents):
        for item, count in entry:
            entries[(b, item)] = count
    for b in range(len(contents), 60):  # and random blocks
        for item in rng.choice(6, size=int(rng.integers(1, 4)), replace=False):
            entries[(b, int(item))] = int(rng.integers(1, 3))
    keys = list(entries)
    rng.shuffle(keys)  # entries in any order
    block = np.array([b for b, _ in keys])
    item = np.array([i for _, i in keys])
    count = np.array([entries[k] for k in keys])
    unit, rep_item, rep_count, multiplicity = signatures(block, item, count)

    content: dict[int, frozenset[tuple[int, int]]] = {}
    for (b, i), c in entries.items():
        content[b] = content.get(b, frozenset()) | {(i, c)}
    groups: dict[frozenset[tuple[int, int]], list[int]] = {}
    for b in sorted(content):
        groups.setdefault(content[b], []).append(b)
    # in the order of the groups' contents (sorted entries, compared as sequences), not of their blocks
    expected = sorted(groups.items(), key=lambda kv: sorted(kv[0]))
    assert list(multiplicity) == [len(bs) for _, bs in expected]
    for j, (signature, _) in enumerate(expected):
        mine = unit == j
        assert set(zip(rep_item[mine].tolist(), rep_count[mine].tolist())) == set(signature)
    first = [bs for _, bs in expected]
    assert [0, 2, 5, 6] in first and [1, 4] in first
    assert [len(x) for x in signatures(np.zeros(0), np.zeros(0), np.zeros(0))] == [0, 0, 0, 0]


def test_weighted_rows_against_a_loop() -> None:
    rng = np.random.default_rng(74)
    rows = rng.integers(-2, 3, size=(12, 5)).astype(float) * (rng.random((12, 5)) < 0.4)
    unit = rng.integers(0, 7, 40)
    item = rng.integers(0, 12, 40)
    count = rng.integers(1, 4, 40)
    expected = np.zeros((7, 5))
    for u, i, c in zip(unit, item, count):
        expected[u] += c * rows[i]
    np.testing.assert_array_equal(weighted_rows(rows, 5, unit, item, count, 7), expected)
    np.testing.assert_array_equal(weighted_rows(lambda chosen: rows[chosen], 5, unit, item, count, 7), expected)
    np.testing.assert_array_equal(weighted_rows(rows, 5, unit[:0], item[:0], count[:0], 3), np.zeros((3, 5)))


# --------------------------------------------------------------------------- sentence ends marked by lines (<utt>)


def _tagger_output(sentences: list[Sentence], k: int, ends: list[str]) -> str:
    """TiMBL/MBT tagger output: 'word gold predicted' per token, each sentence followed by ``ends[i % len(ends)]``
    (an '<utt>' line, a blank line, or both)."""
    return "".join(
        "".join(f"w{j} {t[0]} {t[k]}\n" for j, t in enumerate(s)) + ends[i % len(ends)] for i, s in enumerate(sentences)
    )


@pytest.mark.parametrize("ends", [["<utt>\n"], ["<utt>\n", "\n", "<utt>\n\n"]])
def test_utt_lines_end_sentences_and_the_p_value_is_the_enumeration_over_sentences(
    tmp_path: Path, ends: list[str]
) -> None:
    sentences = _sentences(12, 5, acc_a=0.85, acc_b=0.75, longest=5)
    differing = [i for i, s in enumerate(sentences) if any(a != b for _, a, b in s)]
    keep = set(differing[:8])  # few enough for exact enumeration
    sentences = [s if i in keep else [(g, a, a) for g, a, _ in s] for i, s in enumerate(sentences)]
    (tmp_path / "a.out").write_text(_tagger_output(sentences, 1, ends))
    (tmp_path / "b.out").write_text(_tagger_output(sentences, 2, ends))
    data = cli_json(
        "compare",
        "a.out",
        "a.out",
        "b.out",
        "--gold-col",
        "-2",
        "--block-end",
        "^<utt>",
        "--metric",
        "accuracy,macro.f1",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    assert data["unit"].startswith("blocks delimited by blank lines and lines matching '^<utt>'")
    assert data["n_units"] == len(sentences) and data["n_instances"] == sum(map(len, sentences))
    assert all(p["exact"] for p in data["pairs"])

    g, a, b, block, k = _arrays(sentences)
    observed = _differences(g, a, b, k)
    moving = sorted(keep)
    mass = np.zeros(2)
    for pattern in itertools.product((False, True), repeat=len(moving)):
        swap = np.isin(block, [i for i, s in zip(moving, pattern) if s])
        mass += _at_least_as_extreme(_differences(g, np.where(swap, b, a), np.where(swap, a, b), k), observed)
    reference = mass / 2 ** len(moving)
    got = {p["metric"]: p["p_value"] for p in data["pairs"]}
    assert got["accuracy"] == pytest.approx(reference[0], abs=1e-12)
    assert got["macro.f1"] == pytest.approx(reference[1], abs=1e-12)
    assert reference.min() < 1


def test_utt_lines_removed_by_skip_leave_one_block_and_a_warning_says_so(tmp_path: Path) -> None:
    sentences = _sentences(10, 2, acc_a=0.9, acc_b=0.6, longest=4)
    (tmp_path / "a.out").write_text(_tagger_output(sentences, 1, ["<utt>\n"]))
    (tmp_path / "b.out").write_text(_tagger_output(sentences, 2, ["<utt>\n"]))
    data = cli_json(
        "compare",
        "a.out",
        "a.out",
        "b.out",
        "--gold-col",
        "-2",
        "--blocks",
        "blank-line",
        "--skip",
        "^<utt>",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    assert data["n_units"] == 1
    warned = " ".join(data["warnings"])
    assert "all " in warned and "in one block" in warned
    assert "do not end blocks" in warned and "--block-end" in warned
    # score's block intervals say the same
    data = cli_json(
        "score", "a.out", "--blocks", "blank-line", "--skip", "^<utt>", "--ci", "bootstrap", "--seed", "1", cwd=tmp_path
    )
    assert any("in one block" in w for w in data["warnings"])


def test_few_or_uneven_blocks_are_warned_about() -> None:
    few = _sentences(5, 4, acc_a=0.9, acc_b=0.5, longest=6)
    joint, blocks = _joint(few)
    result = compare_counts(joint, metrics=["accuracy"], test=clfeval.Test(seed=1), blocks=blocks)
    warned = " ".join(result.warnings)
    assert "only 5 blocks" in warned and "2^5 arrangements" in warned
    differ = sum(any(a != b for _, a, b in s) for s in few)
    assert f"differ in only {differ} block(s)" in warned and f"{0.5**differ * 2:.4g}" in warned
    # one block holding most instances
    uneven = [[("L0", "L0", "L1")] * 40] + [[("L1", "L1", "L1")]] * 30
    joint, blocks = _joint(uneven)
    result = compare_counts(joint, metrics=["accuracy"], test=clfeval.Test(seed=1), blocks=blocks)
    assert any("one block holds 40 of the 70 instances (57%)" in w for w in result.warnings)
    scores = with_intervals(
        clfeval.score(joint.system("A")),
        clfeval.CI("bootstrap", resamples=50, seed=1),
        blocks=Blocks.of_instances(
            [(g, a) for s in uneven for g, a, _ in s], [i for i, s in enumerate(uneven) for _ in s]
        ),
    )
    assert any("one block holds 40" in w for w in scores.warnings)
    # many even blocks: no warning
    many = _sentences(40, 6, longest=3)
    joint, blocks = _joint(many)
    result = compare_counts(joint, metrics=["accuracy"], test=clfeval.Test(seed=1), blocks=blocks)
    assert not any("block" in w for w in result.warnings)


# --------------------------------------------------------------------------- blocks from the arrays API


def test_the_arrays_api_takes_blocks_as_the_files_do(tmp_path: Path) -> None:
    sentences = _sentences(30, 11, acc_a=0.9, acc_b=0.9, longest=4)
    differing = [i for i, s in enumerate(sentences) if any(a != b for _, a, b in s)]
    keep = set(differing[:9])
    sentences = [s if i in keep else [(g, a, a) for g, a, _ in s] for i, s in enumerate(sentences)]
    gold = [t[0] for s in sentences for t in s]
    sys_a = [t[1] for s in sentences for t in s]
    sys_b = [t[2] for s in sentences for t in s]
    ids = [f"s{i}" for i, s in enumerate(sentences) for _ in s]
    result = clfeval.compare(
        gold, {"A": sys_a, "B": sys_b}, metrics=["accuracy", "macro.f1"], test=clfeval.Test(seed=1), blocks=ids
    )
    assert result.unit == "blocks given with the instances" and result.n_units == len(sentences)
    g, a, b, block, k = _arrays(sentences)
    observed = _differences(g, a, b, k)
    mass = np.zeros(2)
    moving = sorted(keep)
    for pattern in itertools.product((False, True), repeat=len(moving)):
        swap = np.isin(block, [i for i, s in zip(moving, pattern) if s])
        mass += _at_least_as_extreme(_differences(g, np.where(swap, b, a), np.where(swap, a, b), k), observed)
    got = _p_values(result)
    assert got["accuracy"] == pytest.approx(mass[0] / 2 ** len(moving), abs=1e-12)
    assert got["macro.f1"] == pytest.approx(mass[1] / 2 ** len(moving), abs=1e-12)
    # score: the cluster-robust delta method equals the file path with a block column
    (tmp_path / "ga.tsv").write_text(
        "word\tgold\tpred\tsent\n" + "".join(f"w\t{x}\t{y}\t{z}\n" for x, y, z in zip(gold, sys_a, ids))
    )
    from_file = clfeval.score(
        clfeval.read(
            str(tmp_path / "ga.tsv"), gold_col="gold", pred_col="pred", reading=clfeval.Reading(block_col="sent")
        ),
        ci="delta",
    )
    for labels in (gold, np.array(gold)):
        from_arrays = clfeval.score(
            labels, sys_a, ci="delta", blocks=np.array(ids) if isinstance(labels, np.ndarray) else ids
        )
        assert from_arrays.intervals.n_units == from_file.intervals.n_units == len(sentences)
        for key, bounds in from_file.intervals.bounds.items():
            assert from_arrays.intervals.get(key) == pytest.approx(bounds, abs=1e-12), key
    assert clfeval.score(gold, sys_a, blocks=ids).to_dict()["options"]["blocks"] == "given"
    sets = clfeval.score([[x] for x in gold], [[y] for y in sys_a], multilabel=True, ci="delta", blocks=ids)
    assert sets.intervals.n_units == len(sentences)
    with pytest.raises(clfeval.InputError, match="gold has 64 entries but blocks has 3: one per instance"):
        clfeval.score(gold, sys_a, blocks=["a", "b", "c"])
    with pytest.raises(clfeval.InputError, match=r"blocks\[1\]: is None: a missing block id"):
        clfeval.score(gold[:3], sys_a[:3], blocks=["a", None, "c"])


def test_unhashable_block_ids_are_a_clear_error() -> None:
    with pytest.raises(clfeval.InputError, match=r"blocks\[0\]: is \[1\]: a block id must be a number or a string"):
        clfeval.score(["a", "b"], ["a", "b"], blocks=[[1], [2]])


def test_utt_lines_at_other_places_in_two_files_are_named_as_block_ends(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text("a\nb\n<utt>\na\n")
    (tmp_path / "p.txt").write_text("a\n<utt>\nb\na\n")
    cli_error(
        run_cli("score", "g.txt", "p.txt", "--block-end", "^<utt>", "--ci", "bootstrap", cwd=tmp_path),
        "block end(s) (blank lines or lines matching --block-end) before this line",
    )
