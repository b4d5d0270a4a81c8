"""Entity F1 where NER is trained: ``clfeval.hf.compute_metrics(spans=...)`` and the span accumulator's tag ids,
against seqeval (strict mode with the scheme; its default mode for ``conlleval``) on random cases, with the real
``transformers.EvalPrediction`` (built locally, nothing downloaded) and real numpy arrays shaped as the Trainer hands
them over: (n, T, C) logits and (n, T) label ids, −100 on padding and a word's later sub-word pieces."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator

import numpy as np
import pytest

import clfeval
from clfeval.errors import ClfevalWarning, InputError, OptionError
from clfeval.hf import compute, compute_metrics

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")
transformers = pytest.importorskip("transformers")
EvalPrediction = transformers.EvalPrediction

TYPES = ["PER", "LOC", "ORG", "MISC"]
PREFIXES = {"iob2": "BI", "iob1": "BI", "iobes": "BIES", "bilou": "BILU", "conlleval": "BI"}


def tag_names(scheme: str) -> list[str]:
    return ["O"] + [f"{p}-{t}" for t in TYPES for p in PREFIXES[scheme]]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    """Random tags hold invalid transitions, which clfeval counts in a warning (the scores are seqeval's still)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ClfevalWarning)
        yield


def trainer_arrays(rng: np.random.Generator, n_tags: int, n: int = 60, t: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """(n, T, C) logits and (n, T) label ids as the Trainer pads them: each sentence a random length, then −100;
    within it, some positions −100 (a word's later sub-word pieces). Gold is O half the time; the logits favour
    gold, so predictions are right more often than not."""
    gold = np.where(rng.random((n, t)) < 0.5, 0, rng.integers(0, n_tags, (n, t)))
    logits = rng.normal(size=(n, t, n_tags))
    logits[np.arange(n)[:, None], np.arange(t)[None, :], gold] += rng.choice([0.0, 3.0], size=(n, t), p=[0.3, 0.7])
    lengths = rng.integers(0, t + 1, n)
    pad = np.arange(t)[None, :] >= lengths[:, None]
    pieces = rng.random((n, t)) < 0.15
    labels = np.where(pad | pieces, -100, gold)
    logits[pad] = rng.normal(size=(int(pad.sum()), n_tags))  # what the model says on padding is never read
    return logits, labels


def tag_lists(ids: np.ndarray, labels: np.ndarray, names: list[str]) -> list[list[str]]:
    """The Hugging Face token-classification example's conversion, token by token: the oracle's input."""
    return [[names[p] for p, g in zip(row, gold) if g != -100] for row, gold in zip(ids, labels)]


def seqeval_report(gold: list[list[str]], pred: list[list[str]], scheme: str) -> dict:
    if scheme == "conlleval":  # seqeval's default mode reads tags as conlleval.pl does
        return seqeval_metrics.classification_report(gold, pred, output_dict=True, zero_division=0)
    cls = getattr(seqeval_scheme, scheme.upper())
    return seqeval_metrics.classification_report(
        gold, pred, mode="strict", scheme=cls, output_dict=True, zero_division=0
    )


@pytest.mark.parametrize("scheme", ["iob2", "iob1", "iobes", "bilou", "conlleval"])
def test_compute_metrics_gives_seqeval_s_entity_scores_from_trainer_arrays(scheme: str) -> None:
    names = tag_names(scheme)
    for seed in range(6):
        rng = np.random.default_rng([seed, len(scheme)])
        logits, labels = trainer_arrays(rng, len(names))
        id2label = dict(enumerate(names)) if seed % 2 else {str(i): t for i, t in enumerate(names)}  # a JSON config
        out = compute_metrics(spans=scheme, label_names=id2label)(EvalPrediction(predictions=logits, label_ids=labels))
        gold, pred = tag_lists(labels, labels, names), tag_lists(logits.argmax(-1), labels, names)
        report = seqeval_report(gold, pred, scheme)
        for ours, theirs in (("micro", "micro avg"), ("macro", "macro avg"), ("weighted", "weighted avg")):
            for measure, name in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score")):
                assert out[f"{ours}/{measure}"] == pytest.approx(report[theirs][name], abs=1e-12), (seed, ours)
        types = sorted(t for t in report if not t.endswith(" avg"))
        assert types == sorted(TYPES)  # every type occurs, so seqeval's types are the stated ones
        for t in types:
            assert out[f"per_label/{t}/precision"] == pytest.approx(report[t]["precision"], abs=1e-12)
            assert out[f"per_label/{t}/recall"] == pytest.approx(report[t]["recall"], abs=1e-12)
            assert out[f"per_label/{t}/f1"] == pytest.approx(report[t]["f1-score"], abs=1e-12)
        assert out["token_accuracy"] == pytest.approx(seqeval_metrics.accuracy_score(gold, pred), abs=1e-15)
        support = report["micro avg"]["support"]
        correct = round(report["micro avg"]["recall"] * support)
        predicted = round(correct / report["micro avg"]["precision"]) if correct else None
        if predicted is not None:  # rows: gold spans, and predicted spans that match none
            assert out["n_instances"] == support + predicted - correct


def test_predicted_ids_logits_a_list_or_id2label_and_compute_give_one_answer() -> None:
    names = tag_names("iob2")
    logits, labels = trainer_arrays(np.random.default_rng(5), len(names))
    by_logits = compute_metrics(spans="iob2", label_names=names)((logits, labels))
    assert compute_metrics(spans="iob2", id2label=dict(enumerate(names)))((logits.argmax(-1), labels)) == by_logits
    assert compute_metrics(spans="iob2", labels=names)(EvalPrediction(logits, labels)) == by_logits
    assert compute(predictions=logits, references=labels, spans="iob2", label_names=names) == by_logits
    assert compute(predictions=logits.tolist(), references=labels.tolist(), spans="iob2", label_names=names) == (
        by_logits
    )


def test_chosen_metrics_intervals_and_the_flat_names() -> None:
    names = tag_names("iobes")
    logits, labels = trainer_arrays(np.random.default_rng(8), len(names), n=120)
    metrics = compute_metrics(
        ["micro.f1", "macro.f1", "per_label.PER.f1", "token_accuracy"], spans="iobes", label_names=names, ci="bootstrap"
    )
    out = metrics((logits, labels))
    everything = compute_metrics(spans="iobes", label_names=names)((logits, labels))
    assert out["micro.f1"] == everything["micro/f1"] and out["macro.f1"] == everything["macro/f1"]
    assert out["per_label.PER.f1"] == everything["per_label/PER/f1"]
    assert out["token_accuracy"] == everything["token_accuracy"]
    assert out["micro.f1_ci_low"] < out["micro.f1"] < out["micro.f1_ci_high"]
    assert set(out) == {
        "micro.f1", "micro.f1_ci_low", "micro.f1_ci_high", "macro.f1", "macro.f1_ci_low", "macro.f1_ci_high",
        "per_label.PER.f1", "per_label.PER.f1_ci_low", "per_label.PER.f1_ci_high", "token_accuracy",
    }  # fmt: skip


def test_every_evaluation_averages_over_the_types_the_tags_name() -> None:
    """An evaluation in which MISC occurs neither in gold nor in predictions still averages over four types (F 0/0
    = 0 for MISC, said in a warning), as the Trainer's evaluations of one model must be comparable; seqeval averages
    over the three types that occur. With every type present (above) the two agree."""
    names = tag_names("iob2")
    logits, labels = trainer_arrays(np.random.default_rng(3), len(names))
    misc = [i for i, t in enumerate(names) if t.endswith("MISC")]
    labels = np.where(np.isin(labels, misc), 0, labels)
    logits[..., misc] = -50.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ClfevalWarning)
        out = compute_metrics(["macro.f1", "per_label.MISC.f1"], spans="iob2", label_names=names)((logits, labels))
    assert any("'MISC'" in str(w.message) and "F is 0/0" in str(w.message) for w in caught)
    gold, pred = tag_lists(labels, labels, names), tag_lists(logits.argmax(-1), labels, names)
    report = seqeval_report(gold, pred, "iob2")
    three = [report[t]["f1-score"] for t in ("PER", "LOC", "ORG")]
    assert out["per_label.MISC.f1"] == 0.0
    assert out["macro.f1"] == pytest.approx(sum(three) / 4, abs=1e-12)
    assert report["macro avg"]["f1-score"] == pytest.approx(sum(three) / 3, abs=1e-12)


def test_the_span_accumulator_counts_batches_of_tag_ids_as_one_call_on_the_tag_lists() -> None:
    """An evaluation loop: batches of (n, T) label ids padded with −100 (each batch its own T) and logits, into
    one accumulator; its scores, per-sentence units (the bootstrap's interval with a seed) included, are
    ``clfeval.score`` of every sentence's tag lists at once."""
    names = tag_names("iob2")
    for seed in range(4):
        rng = np.random.default_rng(seed)
        acc = clfeval.Accumulator("spans", spans="iob2", id2label={str(i): t for i, t in enumerate(names)})
        gold: list[list[str]] = []
        pred: list[list[str]] = []
        for _ in range(int(rng.integers(1, 6))):
            logits, labels = trainer_arrays(rng, len(names), n=int(rng.integers(1, 30)), t=int(rng.integers(1, 25)))
            acc.update(labels, logits if rng.random() < 0.5 else logits.argmax(-1))
            gold += tag_lists(labels, labels, names)
            pred += tag_lists(logits.argmax(-1), labels, names)
        once = clfeval.score(
            gold, pred, spans="iob2", ci="bootstrap", seed=seed, scoring=clfeval.Scoring(labels=sorted(TYPES))
        )
        ours = acc.score(ci="bootstrap", seed=seed)
        assert acc.n_sentences == len(gold)
        assert ours.flat(per_label=True) == once.flat(per_label=True)
        assert ours.labels == tuple(sorted(TYPES))  # the types the tags name, declared


def test_tensors_and_lists_of_ids_update_the_span_accumulator() -> None:
    torch = pytest.importorskip("torch")
    names = tag_names("bilou")
    logits, labels = trainer_arrays(np.random.default_rng(2), len(names))
    a = clfeval.Accumulator("spans", spans="bilou", id2label=names)
    half = torch.from_numpy(logits).to(torch.bfloat16).float()  # as a model in bfloat16 gives them, on the CPU
    a.update(torch.from_numpy(labels), half)
    b = clfeval.Accumulator("spans", spans="bilou", id2label=names)
    b.update(labels.tolist(), half.numpy().argmax(-1).tolist())
    assert a.score().flat(per_label=True) == b.score().flat(per_label=True)


def test_tag_lists_without_spans_are_pointed_to_spans_never_to_multilabel() -> None:
    """Following a multilabel=True hint scored tokens as label sets (micro F1 0.90 where the entity F1 is 0.50)."""
    cases = {
        "iob2": ([["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "O", "O"], ["B-LOC"]]),
        "iobes": ([["S-PER", "O"], ["B-LOC", "E-LOC"]], [["S-PER", "O"], ["B-LOC", "I-LOC"]]),
        "bilou": ([["U-PER"], ["B-LOC", "L-LOC"]], [["U-PER"], ["O", "O"]]),
        "iob1": ([["I-PER", "I-PER", "O"]], [["I-PER", "O", "O"]]),
    }
    for scheme, (gold, pred) in cases.items():
        for g, p in ((gold, pred), (np.array(gold[:1]), np.array(pred[:1]))):
            with pytest.raises(InputError) as caught:
                clfeval.score(g, p)
            message = str(caught.value)
            assert f"spans={scheme!r}" in message and "multilabel" not in message, message
            assert "\n" not in message
        clfeval.score(gold, pred, spans=scheme)  # the hint works
    with pytest.raises(InputError) as caught:  # lists that are not tags: label sets, or tags of some other kind
        clfeval.score([["cat", "dog"], []], [["cat"], ["dog"]])
    assert "multilabel=True" in str(caught.value) and "spans=" in str(caught.value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compute_metrics(spans="iob2"), "give the tag of each id"),
        (lambda: compute_metrics(spans="iob2", multilabel=True, label_names=["O"]), "give one"),
        (lambda: compute_metrics(spans="iob9", label_names=["O"]), "tagging scheme"),
        (lambda: compute_metrics(spans="iob2", label_names=["O", "PER"]), "the tag 'PER' has no prefix"),
        (lambda: compute_metrics(spans="iob2", label_names=["O", "S-PER"]), "the prefix S-"),
        (lambda: compute_metrics(spans="iob2", label_names=["O"], labels=["O"]), "give one of label_names"),
        (lambda: compute_metrics(["micro.f1", "per_label.GPE.f1"], spans="iob2", label_names=["O", "B-PER"]), "GPE"),
        (lambda: clfeval.Accumulator("spans", spans="iob2", ignore_index=-1), "give id2label"),
    ],
)
def test_options_are_checked_before_any_evaluation(call: object, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        call()  # type: ignore[operator]


def test_bad_arrays_are_named() -> None:
    names = tag_names("iob2")
    metrics = compute_metrics(spans="iob2", label_names=names)
    labels = np.array([[0, 1, 2, -100], [3, 4, -100, -100]])
    with pytest.raises(InputError, match=r"update 1, pred\[1\]: tag id 9 is outside 0 … 8"):
        metrics((np.array([[0, 1, 2, 99], [3, 9, 0, 0]]), labels))  # 99 is padding: not read
    with pytest.raises(InputError, match="logits of 3 classes for 9 tag names"):
        metrics((np.zeros((2, 4, 3)), labels))
    with pytest.raises(InputError, match="NaN"):
        metrics((np.full((2, 4, 9), math.nan), labels))
    with pytest.raises(InputError, match=r"gold \(2, 4\), pred \(2, 3\)"):
        metrics((np.zeros((2, 3), dtype=int), labels))


@pytest.mark.parametrize(
    ("names", "scheme"),
    [({0: "O", 1: "B-PER", 2: "I-PER", 3: "B-LOC", 4: "I-LOC"}, "iob2"), (["O", "S-PER", "B-LOC", "E-LOC"], "iobes")],
)
def test_tag_names_without_spans_warn_that_the_scores_are_of_tokens(names: object, scheme: str) -> None:
    """Issue 38, 5: a Trainer given a tagger's tags without spans= logged token F1 silently, the number NER users do
    not want; as clfeval.score suggests spans= for tag lists, compute_metrics says so when it is made."""
    key = "label_names" if isinstance(names, dict) else "labels"
    with pytest.warns(ClfevalWarning, match=f"look like the tags of a tagger .*spans='{scheme}' scores entities"):
        compute_metrics(**{key: names})
    ids = np.array([[1, 2, 0, -100]])
    with pytest.warns(ClfevalWarning, match=f"look like the tags of a tagger .*spans='{scheme}' scores entities"):
        compute(predictions=np.eye(len(names))[ids.clip(0)], references=ids, **{key: names})  # evaluate's way
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compute_metrics(spans=scheme, **{key: names})  # entity F1: nothing to say
        compute_metrics(labels=["neg", "pos"])  # labels that are not tags
        compute_metrics(labels=["O", "B-PER"], multilabel=True)  # label sets: not a tagger's tags


def test_multilabel_on_tag_sentences_warns_that_it_scores_tokens() -> None:
    """Tag sentences with multilabel=True are scored as token label sets (the numbers asked for) with a warning that
    names the spans= that scores entities; label sets that are not tags get none."""
    gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "B-ORG"]]
    pred = [["B-PER", "O", "O"], ["B-LOC", "O", "B-PER"]]
    with pytest.warns(clfeval.ClfevalWarning, match="spans='iob2' scores entities"):
        clfeval.score(gold, pred, multilabel=True)
    with pytest.warns(clfeval.ClfevalWarning, match="spans='iob2'"):
        clfeval.compare(gold, {"A": pred, "B": gold}, multilabel=True, seed=1, rounds=99)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", clfeval.ClfevalWarning)
        clfeval.score([["cat", "dog"], ["dog"]], [["cat"], ["dog"]], multilabel=True)


def test_cv_with_multilabel_on_tag_sentences_warns_as_score_does() -> None:
    """cv with multilabel=True on tag sentences warns as score and compare do (it was silent, the folds scored as
    token label sets); label sets that are not tags and indicator matrices get none."""
    gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "B-ORG"]] * 3
    pred = [["B-PER", "O", "O"], ["B-LOC", "O", "B-PER"]] * 3
    folds = [1, 1, 2, 2, 3, 3]
    with pytest.warns(clfeval.ClfevalWarning, match="spans='iob2' scores entities"):
        clfeval.cv(gold, pred, folds=folds, multilabel=True)
    import warnings

    import numpy as np

    with warnings.catch_warnings():
        warnings.simplefilter("error", clfeval.ClfevalWarning)
        clfeval.cv([["cat", "dog"], ["dog"]] * 2, [["cat"], ["dog"]] * 2, folds=[1, 1, 2, 2], multilabel=True)
        clfeval.cv(np.eye(4, 2, dtype=int), np.eye(4, 2, dtype=int), folds=[1, 1, 2, 2], labels=["a", "b"])
