"""The Hugging Face integration against the real ``transformers.EvalPrediction`` (built locally, nothing downloaded)
and scikit-learn as the oracle."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import accuracy_score, f1_score

import clfeval
from clfeval.errors import ClfevalWarning, InputError, OptionError
from clfeval.hf import compute, compute_metrics

transformers = pytest.importorskip("transformers")
EvalPrediction = transformers.EvalPrediction

RNG = np.random.default_rng(11)
K = 4
NAMES = ["neg", "neu", "pos", "mixed"]
LOGITS = RNG.normal(size=(300, K))
LABELS = np.where(RNG.random(300) < 0.7, LOGITS.argmax(axis=1), RNG.integers(0, K, 300))


def test_trainer_style_compute_metrics_matches_scikit_learn() -> None:
    metrics = compute_metrics(["macro.f1", "micro.f1", "weighted.f1", "accuracy"], id2label=dict(enumerate(NAMES)))
    out = metrics(EvalPrediction(predictions=LOGITS, label_ids=LABELS))
    pred = LOGITS.argmax(axis=1)
    assert out["macro.f1"] == pytest.approx(f1_score(LABELS, pred, average="macro"), rel=1e-12)
    assert out["micro.f1"] == pytest.approx(f1_score(LABELS, pred, average="micro"), rel=1e-12)
    assert out["weighted.f1"] == pytest.approx(f1_score(LABELS, pred, average="weighted"), rel=1e-12)
    assert out["accuracy"] == pytest.approx(accuracy_score(LABELS, pred), rel=1e-12)
    assert set(out) == {"macro.f1", "micro.f1", "weighted.f1", "accuracy"}


def test_every_evaluation_averages_over_the_stated_labels_not_the_batchs() -> None:
    """A batch without the label ``mixed`` still averages over four labels (F1 0 for it), as the Trainer's
    evaluations of one model must be comparable; scikit-learn's default would average over three."""
    keep = LABELS != 3
    logits = LOGITS[keep][:, :3]
    logits = np.column_stack([logits, np.full(len(logits), -9.0)])  # the model never predicts 'mixed' either
    with pytest.warns(ClfevalWarning, match="'mixed'"):  # F = 0/0 = 0 for it, said
        out = compute(predictions=logits, references=LABELS[keep], metrics="macro.f1", labels=NAMES)
    pred = logits.argmax(axis=1)
    stated = f1_score(LABELS[keep], pred, labels=[0, 1, 2, 3], average="macro", zero_division=0)
    batch = f1_score(LABELS[keep], pred, average="macro")
    assert out["macro.f1"] == pytest.approx(stated, rel=1e-12) and not math.isclose(stated, batch)


def test_default_is_the_flat_dict_with_intervals_when_asked() -> None:
    out = compute_metrics(labels=NAMES, ci="delta")(EvalPrediction(predictions=LOGITS, label_ids=LABELS))
    result = clfeval.score(
        np.array(NAMES)[LABELS], np.array(NAMES)[LOGITS.argmax(axis=1)], scoring=clfeval.Scoring(labels=NAMES),
        ci="delta",
    )  # fmt: skip
    assert out == pytest.approx(result.flat(), rel=1e-12)  # the same counts; delta steps may differ in the last bit
    assert out["macro_fa/f1_ci_low"] < out["macro_fa/f1"] < out["macro_fa/f1_ci_high"]


def test_the_warnings_of_the_returned_scores_are_issued_at_the_callers_line() -> None:
    """A dict of numbers cannot say that a 0/0 was set to 0, so the warnings that bear on the returned scores are
    issued as ClfevalWarning (as scikit-learn's f1_score issues UndefinedMetricWarning), at the line that called
    the metrics (the Trainer's, here this file's), not inside clfeval; scores they do not bear on stay quiet."""
    keep = LABELS != 3
    logits = np.column_stack([LOGITS[keep][:, :3], np.full(int(keep.sum()), -9.0)])  # 'mixed' never occurs
    prediction = EvalPrediction(predictions=logits, label_ids=LABELS[keep])
    with pytest.warns(ClfevalWarning) as caught:
        compute_metrics(["macro.f1", "accuracy"], labels=NAMES)(prediction)
    assert [str(w.message) for w in caught] == [
        "F is 0/0 for 1 label(s) neither in gold nor predicted: 'mixed'; set to 0 and included in averages"
    ]
    assert caught[0].filename == __file__
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):  # the oracle warns too
        f1_score(LABELS[keep], logits.argmax(axis=1), labels=[0, 1, 2, 3], average="macro")
    with pytest.warns(ClfevalWarning, match="'mixed'") as caught:
        compute(predictions=logits, references=LABELS[keep], labels=NAMES)  # every score: precision, recall, F
    assert [str(w.message).split(" is 0/0")[0] for w in caught] == ["precision", "recall", "F"]
    assert {w.filename for w in caught} == {__file__}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = compute_metrics(["accuracy", "micro.f1", "per_label.neg.f1", "weighted.f1"], labels=NAMES)
        assert set(quiet(prediction)) == {"accuracy", "micro.f1", "per_label.neg.f1", "weighted.f1"}


def test_token_classification_leaves_the_padding_out() -> None:
    logits = RNG.normal(size=(6, 9, 3))
    labels = RNG.integers(0, 3, size=(6, 9))
    labels[:, 7:] = -100  # padding
    labels[2, 5:] = -100
    out = compute_metrics(["macro.f1", "accuracy"], labels=["O", "B", "I"])((logits, labels))
    keep = labels != -100
    gold, pred = labels[keep], logits.argmax(axis=-1)[keep]
    assert out["accuracy"] == pytest.approx(accuracy_score(gold, pred), rel=1e-12)
    assert out["macro.f1"] == pytest.approx(f1_score(gold, pred, average="macro", labels=[0, 1, 2]), rel=1e-12)


def test_multi_label_logits_against_scikit_learn() -> None:
    rng = np.random.default_rng(3)  # its own draws: the module's generator depends on which tests ran before
    logits = rng.normal(size=(200, 5))
    targets = (rng.random((200, 5)) < 0.3).astype(np.int64)
    names = list("ABCDE")
    metrics = compute_metrics(["macro.f1", "micro.f1", "samples.f1"], labels=names, multilabel=True, threshold=0.6)
    with pytest.warns(ClfevalWarning) as caught:  # both label sets empty: samples F1 says how it scored them
        out = metrics(EvalPrediction(predictions=logits, label_ids=targets))
    pred = (1 / (1 + np.exp(-logits)) > 0.6).astype(np.int64)
    both_empty = int(((targets.sum(axis=1) == 0) & (pred.sum(axis=1) == 0)).sum())
    assert both_empty > 0
    start = f"samples F is 0/0 for {both_empty} instance(s) with empty gold and predicted sets"
    assert [str(w.message)[: len(start)] for w in caught] == [start]
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined .* no true nor predicted labels"):
        f1_score(targets, pred, average="samples")  # the oracle warns about the same instances
    for average in ("macro", "micro", "samples"):
        expected = f1_score(targets, pred, average=average, zero_division=0)
        assert out[f"{average}.f1"] == pytest.approx(expected, rel=1e-12), average


def test_class_ids_as_predictions_and_tensor_like_inputs() -> None:
    class Tensor:  # what a framework's CPU tensor offers numpy
        def __init__(self, values: np.ndarray) -> None:
            self._values = values

        def __array__(self, dtype=None, copy=None) -> np.ndarray:
            return self._values if dtype is None else self._values.astype(dtype)

    pred = LOGITS.argmax(axis=1)
    out = compute(predictions=Tensor(pred), references=Tensor(LABELS), metrics="accuracy", labels=NAMES)
    assert out["accuracy"] == pytest.approx(accuracy_score(LABELS, pred), rel=1e-12)
    outputs = (LOGITS, RNG.normal(size=(300, 2)))  # a model's outputs: logits first
    assert compute_metrics("accuracy", labels=NAMES)(EvalPrediction(predictions=outputs, label_ids=LABELS)) == out


def test_clear_errors() -> None:
    with pytest.raises(OptionError, match=r"unknown metric 'macro\.f3'"):
        compute_metrics("macro.f3")
    with pytest.raises(OptionError, match="threshold must be strictly between 0 and 1"):
        compute_metrics(multilabel=True, threshold=1.0)
    with pytest.raises(OptionError, match="do not say how many labels there are"):
        compute(predictions=np.array([0, 1]), references=np.array([0, 1]))
    with pytest.raises(InputError, match="class id 7 is outside 0 … 3"):
        compute(predictions=LOGITS[:2], references=np.array([0, 7]), labels=NAMES)
    with pytest.raises(InputError, match=r"predictions of shape \(3,\) do not match references of shape \(2,\)"):
        compute(predictions=np.array([0, 1, 1]), references=np.array([0, 1]), labels=NAMES)
    with pytest.raises(OptionError, match="give labels or id2label, not both"):
        compute_metrics(labels=NAMES, id2label=dict(enumerate(NAMES)))
    with pytest.raises(InputError, match="multi-label references must be 0/1"):
        compute(predictions=np.zeros((2, 2)), references=np.array([[0, 2], [1, 0]]), multilabel=True, labels="ab")


def test_real_torch_tensors_from_a_trainer() -> None:
    """What a Trainer on PyTorch hands over when it does not convert to numpy itself: CPU tensors."""
    torch = pytest.importorskip(
        "torch",
        reason="PyTorch's CPU build is not installed: make test installs it where this machine keeps it on disk "
        "(torch==2.13.0+cpu; see build/torch.log), and downloads nothing elsewhere",
    )
    logits, labels = torch.from_numpy(LOGITS), torch.from_numpy(LABELS)
    out = compute_metrics(["macro.f1", "accuracy"], labels=NAMES)(EvalPrediction(predictions=logits, label_ids=labels))
    assert out["macro.f1"] == pytest.approx(f1_score(LABELS, LOGITS.argmax(axis=1), average="macro"), rel=1e-12)
    assert out["accuracy"] == pytest.approx(accuracy_score(LABELS, LOGITS.argmax(axis=1)), rel=1e-12)
    half = torch.from_numpy(LOGITS).to(torch.bfloat16)  # mixed-precision logits: numpy has no bfloat16
    got = compute(predictions=half, references=labels, metrics="accuracy", labels=NAMES)
    assert got["accuracy"] == pytest.approx(accuracy_score(LABELS, half.float().numpy().argmax(axis=1)), rel=1e-12)


def test_options_that_would_fail_mid_training_fail_when_built() -> None:
    """A Trainer calls compute_metrics after an epoch: what can be checked before is checked then."""
    assert callable(compute_metrics(["macro.f2"], scoring=clfeval.Scoring(beta=2)))
    with pytest.raises(OptionError, match=r"unknown metric 'macro\.f1'"):
        compute_metrics(["macro.f1"], scoring=clfeval.Scoring(beta=2))  # F is f2 with β = 2
    with pytest.raises(OptionError, match="label 'dog' is not in the label set"):
        compute_metrics(["per_label.dog.f1"], labels=["neg", "pos"])
    with pytest.raises(OptionError, match="3 label names for logits of 4 classes"):
        compute(predictions=LOGITS, references=LABELS, labels=NAMES[:3])
    with pytest.raises(OptionError, match="unknown interval method 'nope'"):
        compute_metrics("accuracy", labels=NAMES, ci="nope")
    with pytest.raises(OptionError, match=r"id2label's keys are class ids .*, not 'O'"):
        compute_metrics("accuracy", id2label={"O": "O", "B-PER": "B-PER"})  # label → id given the wrong way round
    with pytest.raises(OptionError, match="not '²'"):
        compute_metrics("accuracy", id2label={"²": "a", 1: "b"})  # a digit int() does not read
    with pytest.raises(OptionError, match=r"not 1\.7"):
        compute_metrics("accuracy", id2label={0: "a", 1.7: "b"})  # was truncated to id 1
    with pytest.raises(OptionError, match="'O' name several ids"):
        compute_metrics("accuracy", id2label={0: "O", 1: "O"})
    with pytest.raises(OptionError, match="labels is a list of label names by class id, not 'neg'"):
        compute_metrics("accuracy", labels="neg")  # was the labels 'n', 'e', 'g'
    with pytest.raises(OptionError, match="each once"):
        compute_metrics("accuracy", id2label={0: "a", "0": "b"})
    assert compute_metrics("accuracy", id2label={"0": "neg", "1": "pos"})((LOGITS[:, :2], LABELS % 2)) == {
        "accuracy": pytest.approx(accuracy_score(LABELS % 2, LOGITS[:, :2].argmax(axis=1)), rel=1e-12)
    }  # keys as a JSON config holds them
    with pytest.raises(InputError, match="the logits hold NaN"):
        compute(predictions=np.where(LOGITS > 2, np.nan, LOGITS), references=LABELS, labels=NAMES)


def test_a_list_of_class_ids_per_instance_is_not_a_models_outputs() -> None:
    """Only a tuple is the Trainer's (logits, …); a list of arrays is the predictions themselves."""
    out = compute(predictions=[np.array([1, 0]), np.array([0, 1])], references=[0, 1], labels=["a", "b"])
    assert out["accuracy"] == 1.0
