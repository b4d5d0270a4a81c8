"""clfeval.Accumulator in a training or evaluation loop, against what users of the peers write, as ratios.

    python benchmarks/accumulator.py            # 10 batches of 10^6 labels at K = 20, 1,000 and 10^4
    python benchmarks/accumulator.py --quick    # 3 batches of 10^5 labels: a check that everything runs

Prints Markdown tables and writes the same text to ``benchmarks/accumulator.md``.

What is measured, in this one process (the imports are done before): the wall time of each batch's update, the
median over the batches, for

- single-label, int64 class ids 0 … K−1 (what ``logits.argmax(1)`` gives), K = 20, 1,000 and 10⁴:
  - ``clfeval.Accumulator(labels=range(K)).update(gold, pred)``: one bincount a batch (sparse keys above 2²² cells);
  - scikit-learn: ``total += confusion_matrix(gold, pred, labels=range(K))`` (its streaming idiom; a dense K×K
    array a batch, so it is left out at 10⁴ labels: 10⁸ cells a batch);
  - torchmetrics (where torch and torchmetrics are installed: ``make bench`` adds torchmetrics where ``make test``
    could install PyTorch's CPU build): ``MulticlassConfusionMatrix(K).update`` and
    ``MulticlassF1Score(K, average="macro").update`` on CPU tensors, with ``validate_args=False`` (the fast setting;
    the default also checks every batch's values).
- multi-label, 0/1 indicator batches of 10⁵ × K, K = 20 and 200, about 3 labels a row:
  ``Accumulator("multi-label", labels).update``, scikit-learn's ``total += multilabel_confusion_matrix(...)``
  and torchmetrics' ``MultilabelF1Score(K).update``.

Checks (before the timings): each contender's counts after every batch equal clfeval's (confusion matrices cell for
cell, per-label tp/fp/fn for multi-label), and clfeval's macro F1 equals scikit-learn's ``f1_score`` on the whole
data.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from common import log, md_table, ratio_text, start, write_report
from sklearn.metrics import confusion_matrix, f1_score, multilabel_confusion_matrix

import clfeval

RESULTS = Path(__file__).resolve().parent / "accumulator.md"
SINGLE_K = [20, 1_000, 10_000]
MULTI_K = [20, 200]
SKLEARN_MAX_K = 2_000  # above, confusion_matrix builds K^2 cells a batch

try:
    import torch
    import torchmetrics.classification as tmc
except ImportError:  # torch is installed only where its CPU build is on disk (make test's torch step)
    torch = None
    tmc = None


def timed(batches: list[tuple[np.ndarray, np.ndarray]], update: Callable[[np.ndarray, np.ndarray], None]) -> float:
    """The median wall time of ``update`` over the batches, in seconds."""
    times = []
    for gold, pred in batches:
        t = time.perf_counter()
        update(gold, pred)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def single_batches(k: int, n: int, count: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for _ in range(count):
        gold = rng.integers(0, k, n)
        pred = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
        out.append((gold, pred))
    return out


def multi_batches(k: int, n: int, count: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for _ in range(count):
        gold = rng.random((n, k)) < 3 / k
        flip = rng.random((n, k)) < 0.5 / k
        out.append((gold.astype(np.int64), (gold ^ flip).astype(np.int64)))
    return out


def single_section(k: int, batches: list[tuple[np.ndarray, np.ndarray]], checks: list[str]) -> list[list[str]]:
    acc = clfeval.Accumulator(labels=range(k))
    rows: list[tuple[str, float | None, str]] = []
    clf = timed(batches, acc.update)
    cells = acc.counts
    gold_all = np.concatenate([g for g, _ in batches])
    pred_all = np.concatenate([p for _, p in batches])
    macro = acc.score().averages["macro"]["f"]
    assert np.isclose(macro, f1_score(gold_all, pred_all, average="macro"), rtol=1e-12, atol=0), "macro F1"
    checks.append(f"K = {k:,}: clfeval's macro F1 equals scikit-learn's f1_score on the {len(gold_all):,} labels")
    dense = np.zeros((k, k), dtype=np.int64)
    np.add.at(dense, (cells.gold, cells.pred), cells.count)
    rows.append(("clfeval.Accumulator.update", clf, f"{len(cells.count):,} non-zero cells held"))
    if k <= SKLEARN_MAX_K:
        total = np.zeros((k, k), dtype=np.int64)
        labels = np.arange(k)

        def sklearn_update(g: np.ndarray, p: np.ndarray) -> None:
            nonlocal total
            total += confusion_matrix(g, p, labels=labels)

        rows.append(("scikit-learn: total += confusion_matrix(...)", timed(batches, sklearn_update), "K×K a batch"))
        assert np.array_equal(total, dense), "scikit-learn's confusion matrix"
        checks.append(f"K = {k:,}: scikit-learn's summed confusion matrices equal clfeval's cell for cell")
    else:
        rows.append(("scikit-learn: total += confusion_matrix(...)", None, f"left out: {k * k:,} cells a batch"))
    if tmc is not None:
        matrix = tmc.MulticlassConfusionMatrix(k, validate_args=False)
        f1 = tmc.MulticlassF1Score(k, average="macro", validate_args=False)
        tensors = [(torch.from_numpy(g), torch.from_numpy(p)) for g, p in batches]
        rows.append(("torchmetrics: MulticlassConfusionMatrix.update", timed(tensors, lambda g, p: matrix.update(p, g)),
                     "K×K state"))
        rows.append(("torchmetrics: MulticlassF1Score.update", timed(tensors, lambda g, p: f1.update(p, g)),
                     "per-label tp/fp/fn state"))
        assert np.array_equal(matrix.compute().numpy(), dense), "torchmetrics' confusion matrix"
        assert np.isclose(float(f1.compute()), macro, rtol=1e-6), "torchmetrics' macro F1"
        checks.append(f"K = {k:,}: torchmetrics' confusion matrix equals clfeval's; its macro F1 (float32) agrees "
                      "to 1e-6")
    return [[name, "—" if t is None else f"{t * 1e3:.1f}", "—" if t is None else ratio_text(t / clf), note]
            for name, t, note in rows]


def multi_section(k: int, batches: list[tuple[np.ndarray, np.ndarray]], checks: list[str]) -> list[list[str]]:
    labels = [f"L{j}" for j in range(k)]
    acc = clfeval.Accumulator("multi-label", labels=labels)
    clf = timed(batches, acc.update)
    rows: list[tuple[str, float, str]] = [("clfeval.Accumulator.update", clf,
                                          f"{len(acc.counts.pairs):,} distinct (gold set, predicted set) pairs")]
    total = np.zeros((k, 2, 2), dtype=np.int64)

    def sklearn_update(g: np.ndarray, p: np.ndarray) -> None:
        nonlocal total
        total += multilabel_confusion_matrix(g, p)

    rows.append(("scikit-learn: total += multilabel_confusion_matrix(...)", timed(batches, sklearn_update),
                 "2×2 per label"))
    result = acc.score()
    for j, lab in enumerate(labels):
        row = result.per_label[lab]
        assert (row.tp, row.fp, row.fn) == (total[j, 1, 1], total[j, 0, 1], total[j, 1, 0]), lab
    checks.append(f"multi-label K = {k}: scikit-learn's per-label tp, fp, fn equal clfeval's")
    if tmc is not None:
        f1 = tmc.MultilabelF1Score(k, average="macro", validate_args=False)
        tensors = [(torch.from_numpy(g), torch.from_numpy(p)) for g, p in batches]
        rows.append(("torchmetrics: MultilabelF1Score.update", timed(tensors, lambda g, p: f1.update(p, g)),
                     "per-label tp/fp/fn state"))
        assert np.isclose(float(f1.compute()), result.averages["macro"]["f"], rtol=1e-6), "torchmetrics' macro F1"
        checks.append(f"multi-label K = {k}: torchmetrics' macro F1 (float32) agrees with clfeval's to 1e-6")
    return [[name, f"{t * 1e3:.1f}", ratio_text(t / clf), note] for name, t, note in rows]


def main() -> None:
    session = start(__doc__, RESULTS)
    quick = session.args.quick
    n, count = (10**5, 3) if quick else (10**6, 10)
    n_multi = 10**4 if quick else 10**5
    rng = np.random.default_rng(20261125)
    checks: list[str] = []
    sections: list[str] = []
    head = ["update", "ms a batch", "× clfeval", "state"]
    for k in SINGLE_K:
        log(f"single-label K = {k:,}")
        body = single_section(k, single_batches(k, n, count, rng), checks)
        sections += [f"### Single-label, K = {k:,}: batches of {n:,} class ids", "",
                     *md_table(head, body, {1, 2}), ""]
    for k in MULTI_K:
        log(f"multi-label K = {k}")
        body = multi_section(k, multi_batches(k, n_multi, count, rng), checks)
        sections += [f"### Multi-label, K = {k}: batches of {n_multi:,} × {k} indicator rows", "",
                     *md_table(head, body, {1, 2}), ""]
    sections.append("Median wall time of one update over the batches, in one process (imports done); ratio over "
                    "clfeval's update. torchmetrics rows appear where torch and torchmetrics are installed.")
    packages = ["numpy", "scikit-learn"] + (["torch", "torchmetrics"] if tmc is not None else [])
    write_report(session, "clfeval.Accumulator against the streaming idioms of scikit-learn and torchmetrics",
                 "accumulator.py", packages,
                 f"Data: seeded random class ids (70% right), {count} batches a row; multi-label rows hold about 3 "
                 "labels.", sections, checks)


if __name__ == "__main__":
    main()
