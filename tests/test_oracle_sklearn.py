"""scikit-learn as an oracle for everything it computes the same way (hypothesis-generated data)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    confusion_matrix,
    hamming_loss,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
)
from sklearn.preprocessing import MultiLabelBinarizer

import clfeval

LABELS = ["a", "b", "c", "d", "e"]
labels = st.sampled_from(LABELS)
pairs = st.lists(st.tuples(labels, labels), min_size=1, max_size=60)
betas = st.sampled_from([0.5, 1.0, 2.0])
zero_divisions = st.sampled_from([0, 1])


def _sk(gold, pred, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return precision_recall_fscore_support(gold, pred, **kw)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(pairs, betas, zero_divisions)
def test_single_label_matches_sklearn(data, beta, zd) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    result = clfeval.score(gold, pred, scoring=clfeval.Scoring(beta=beta, zero_division=zd))
    labs = list(result.labels)
    p, r, f, s = _sk(gold, pred, labels=labs, average=None, beta=beta, zero_division=zd)
    for i, lab in enumerate(labs):
        row = result.per_label[lab]
        assert (row.precision, row.recall, row.f, row.support) == pytest.approx((p[i], r[i], f[i], s[i]))
    for name in ("micro", "macro", "weighted"):
        p, r, f, _ = _sk(gold, pred, labels=labs, average=name, beta=beta, zero_division=zd)
        got = result.averages[name]
        assert (got["precision"], got["recall"], got["f"]) == pytest.approx((p, r, f)), name
    assert result.accuracy == pytest.approx(accuracy_score(gold, pred))
    np.testing.assert_array_equal(result.confusion.with_labels(labs).cells, confusion_matrix(gold, pred, labels=labs))


@settings(max_examples=100, deadline=None)
@given(pairs, st.sets(labels, min_size=1))
def test_given_label_subset_matches_sklearn(data, chosen) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    labs = sorted(chosen)
    result = clfeval.score(gold, pred, scoring=clfeval.Scoring(labels=labs))
    for name in ("micro", "macro", "weighted"):
        got = result.averages[name]
        if name == "weighted" and all(g not in labs for g in gold):
            assert (got["precision"], got["recall"], got["f"]) == (0, 0, 0)  # undefined: the zero-division value
            continue
        p, r, f, _ = _sk(gold, pred, labels=labs, average=name, zero_division=0)
        assert (got["precision"], got["recall"], got["f"]) == pytest.approx((p, r, f)), name


label_sets = st.lists(st.sampled_from(LABELS), max_size=4, unique=True)
ml_pairs = st.lists(st.tuples(label_sets, label_sets), min_size=1, max_size=40)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(ml_pairs, betas, zero_divisions)
def test_multilabel_matches_sklearn(data, beta, zd) -> None:
    gold, pred = [g for g, _ in data], [p for _, p in data]
    result = clfeval.score(
        gold, pred, multilabel=True, scoring=clfeval.Scoring(beta=beta, zero_division=zd, labels=LABELS)
    )
    mlb = MultiLabelBinarizer(classes=LABELS).fit([LABELS])
    yg, yp = mlb.transform(gold), mlb.transform(pred)
    p, r, f, s = _sk(yg, yp, average=None, beta=beta, zero_division=zd)
    mcm = multilabel_confusion_matrix(yg, yp)
    for i, lab in enumerate(LABELS):
        row = result.per_label[lab]
        assert (row.precision, row.recall, row.f, row.support) == pytest.approx((p[i], r[i], f[i], s[i]))
        assert (row.tn, row.fp, row.fn, row.tp) == tuple(mcm[i].ravel())
    for name in ("micro", "macro", "weighted", "samples"):
        got = result.averages[name]
        if name == "weighted" and yg.sum() == 0:
            # all weights 0: undefined, so the stated zero-division value (scikit-learn falls back to macro)
            assert (got["precision"], got["recall"], got["f"]) == (zd, zd, zd)
            assert any("support-weighted average is undefined" in w for w in result.warnings)
            continue
        p, r, f, _ = _sk(yg, yp, average=name, beta=beta, zero_division=zd)
        assert (got["precision"], got["recall"], got["f"]) == pytest.approx((p, r, f)), name
    assert result.accuracy == pytest.approx(accuracy_score(yg, yp))
    assert result.hamming_loss == pytest.approx(hamming_loss(yg, yp))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 40), st.integers(-3, 40)), min_size=1, max_size=80))
def test_integer_fast_path_matches_sklearn(data) -> None:
    gold = np.array([g for g, _ in data])
    pred = np.array([p for _, p in data])
    result = clfeval.score(gold, pred)
    labs = sorted(set(gold.tolist()) | set(pred.tolist()))
    assert list(result.labels) == [str(x) for x in labs]
    np.testing.assert_array_equal(result.confusion.cells, confusion_matrix(gold, pred, labels=labs))
    _, _, f, _ = _sk(gold, pred, labels=labs, average="macro", zero_division=0)
    assert result.averages["macro"]["f"] == pytest.approx(f)
