"""Golden files for the text, Markdown and CSV renderings; JSON round-trips.

Set ``CLFEVAL_UPDATE_GOLDEN=1`` to rewrite the golden files after an intended change (then read the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import clfeval

GOLDEN = Path(__file__).parent / "data" / "golden"


def _example() -> clfeval.Scores:
    # Sefidian's 9-instance scikit-learn example, with a declared label that never occurs
    return clfeval.score([1, 2, 3, 2, 3, 3, 1, 2, 2], [2, 2, 1, 2, 1, 3, 2, 3, 2], labels=["1", "2", "3", "4"])


def _multilabel() -> clfeval.Scores:
    return clfeval.score([["A"], ["A"], ["A", "B"], []], [["B", "C"], ["A"], ["A"], ["C"]], multilabel=True)


def _comparison() -> clfeval.Comparison:
    # few differing instances: every arrangement is enumerated, so the p-values do not depend on a random stream
    gold = list("abcabcabcaab")
    return clfeval.compare(gold, {"X": list("abcabbaacaab"), "Y": list("abccbcabbaab"), "Z": list("abcabcabcabb")},
                           metrics=["macro.f1", "accuracy"], seed=1)


CASES = {
    "single.txt": lambda: _example().render("text"),
    "single-ci.txt": lambda: clfeval.with_intervals(_example(), "delta").render("text"),
    "single-ci.md": lambda: clfeval.with_intervals(_example(), "delta").render("markdown"),
    "single-ci.csv": lambda: clfeval.with_intervals(_example(), "delta").render("csv"),
    "single.md": lambda: _example().render("markdown"),
    "single.csv": lambda: _example().render("csv"),
    "multi.txt": lambda: _multilabel().render("text"),
    "compare.txt": lambda: _comparison().render("text"),
    "compare.md": lambda: _comparison().render("markdown"),
    "compare.csv": lambda: _comparison().render("csv"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    actual = CASES[name]().replace(clfeval.__version__, "<version>")
    path = GOLDEN / name
    if os.environ.get("CLFEVAL_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert actual == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("make", [_example, _multilabel,
                                  lambda: clfeval.with_intervals(_example(), "bootstrap", resamples=200, seed=1)])
def test_json_round_trips(make) -> None:
    result = make()
    text = result.render("json")
    data = json.loads(text)
    assert json.loads(json.dumps(data)) == data == result.to_dict()
    assert data["schema"] == "clfeval.score/1"


def test_comparison_json_round_trips() -> None:
    result = _comparison()
    data = json.loads(result.render("json"))
    assert json.loads(json.dumps(data)) == data == result.to_dict()
    assert data["schema"] == "clfeval.compare/1" and all(p["exact"] for p in data["pairs"])


def test_nan_is_null_in_json_and_said_in_words() -> None:
    r = clfeval.score(["a", "b"], ["a", "a"], zero_division="nan")
    data = r.to_dict()
    assert data["per_label"]["b"]["precision"] is None
    assert data["averages"]["macro"]["precision"] is None
    assert any("macro precision is undefined (NaN)" in w for w in r.warnings)
    assert "undefined" in r.render("text")
    excluded = clfeval.score(["a", "b"], ["a", "a"], zero_division="nan", undefined="exclude")
    assert excluded.averages["macro"]["precision"] == pytest.approx(0.5)
