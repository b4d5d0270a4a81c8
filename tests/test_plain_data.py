"""Results are plain data (they pickle, deep-copy and go through another process, and equal themselves after), and the
public names carry their types to a type checker."""

from __future__ import annotations

import ast
import copy
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import clfeval

ROOT = Path(__file__).parents[1]


def _results() -> dict[str, Any]:
    """One result of every kind: scores (single-label, multi-label, with intervals of each method, with blocks), a
    comparison, a cross-validation, a finagle, a conversion and an audit; and the counts and readers' results."""
    gold = list("aabbccabcabcaabbcc")
    pred = list("abbbccaacabcbabbca")
    other = list("aabbcbabcabccabbcc")
    out: dict[str, Any] = {
        "score": clfeval.score(gold, pred),
        "multi-label": clfeval.score([["a"], ["a", "b"], []], [["a"], ["b"], ["c"]], multilabel=True),
        "blocks": clfeval.score(gold, pred, blocks=[i // 3 for i in range(len(gold))], ci="delta"),
        "compare": clfeval.compare(gold, {"A": pred, "B": other}, test=clfeval.Test("ar", rounds=200, seed=1)),
        "cv": clfeval.cv(gold, pred, [i % 3 for i in range(len(gold))], ci="delta"),
        "finagle": clfeval.finagle(gold, pred, [0.1 * (i % 10) for i in range(len(gold))], threshold=0.5),
        "convert": clfeval.convert(precision=0.75, recall=0.6, support=50, n=100),
        "counts": clfeval.count_labels(gold, pred),
        "joint": clfeval.count_systems(gold, {"A": pred, "B": other}),
        "accumulator": clfeval.Accumulator(labels=["a", "b", "c"]),
    }
    for method, spec in clfeval.INTERVAL_METHODS.items():
        if method != "none" and spec.applies_to("single-label"):
            ci = clfeval.CI(method, resamples=100, seed=2) if method.startswith("bootstrap") else method
            out[f"ci-{method}"] = clfeval.score(gold, pred, ci=ci)
    out["accumulator"].update(gold, pred)
    return out


def _same(before: Any, after: Any) -> None:
    if hasattr(before, "to_dict"):
        assert after.to_dict() == before.to_dict()
    if hasattr(before, "to_json"):
        assert after.to_json() == before.to_json()
    if isinstance(before, clfeval.Accumulator):
        assert after.score().to_dict() == before.score().to_dict()
    if hasattr(before, "n_instances"):
        assert after.n_instances == before.n_instances


@pytest.mark.parametrize("name", list(_results()))
def test_every_result_pickles_and_deep_copies_and_equals_itself_after(name: str) -> None:
    before = _results()[name]
    for after in (pickle.loads(pickle.dumps(before)), copy.deepcopy(before), copy.copy(before)):
        assert type(after) is type(before)
        _same(before, after)
    if hasattr(before, "render"):
        assert pickle.loads(pickle.dumps(before)).render("text") == before.render("text")


def _score_in_a_worker(seed: int) -> clfeval.Scores:
    gold = [("a", "b", "c")[(seed * i) % 3] for i in range(30)]
    return clfeval.score(gold, gold[::-1], ci=clfeval.CI("bootstrap", resamples=50, seed=seed))


def test_a_result_comes_back_from_another_process() -> None:
    """Results returned by multiprocessing workers (joblib, concurrent.futures) arrive whole."""
    with ProcessPoolExecutor(max_workers=1) as pool:
        got = pool.submit(_score_in_a_worker, 3).result()
    assert got.to_dict() == _score_in_a_worker(3).to_dict()


def test_a_results_tables_stay_read_only_after_a_copy() -> None:
    r = copy.deepcopy(clfeval.score(["a", "b"], ["a", "a"]))
    with pytest.raises(TypeError, match="read-only"):
        r.averages["macro"]["f"] = 1.0  # type: ignore[index]
    with pytest.raises(TypeError, match="read-only"):
        r.per_label.clear()  # type: ignore[attr-defined]


# -- typed public names ---------------------------------------------------------------------------------------------


def test_every_public_name_is_imported_for_type_checkers_from_its_home() -> None:
    """``clfeval/__init__.py`` loads its names lazily; under ``TYPE_CHECKING`` it imports each from the module
    ``_HOMES`` says, so a type checker sees every name's own type (not ``Any``), and ``__all__`` lists them."""
    source = (ROOT / "src" / "clfeval" / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    guarded = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    imported = {alias.name: node.module for node in guarded.body if isinstance(node, ast.ImportFrom)
                for alias in node.names}  # fmt: skip
    homes = clfeval._HOMES  # type: ignore[attr-defined]
    assert imported == homes
    assert sorted(clfeval.__all__) == sorted([*homes, "__version__"])


def test_the_package_ships_its_types() -> None:
    """The package ships ``py.typed`` (PEP 561), so a user's type checker reads its signatures; what it sees of them
    is checked by mypy in ``make lint`` on tests/typing/user_api.py (not by running mypy again here)."""
    root = Path(__file__).parents[1]
    assert (root / "src" / "clfeval" / "py.typed").is_file()
    project = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert 'clfeval = ["py.typed"]' in project  # packaged with the wheel
    assert '"tests/typing/user_api.py"' in project and (root / "tests" / "typing" / "user_api.py").is_file()
