"""``clfeval explain``: every entry of every registry is explained, from the registry itself (issue 30, item 3).

The registries are walked programmatically: every name of every registry :data:`clfeval.explain.REGISTRIES` reads
gets an explanation with a definition, every measure its 0/0 rule, and every measure, average, interval method and
test its references; the package's source is scanned for registries (module-level ``Mapping`` constants and
``KINDS``) so that a new one is either explained or named here as not a user's choice. The command runs on several
names: one registry, several registries (``bootstrap``), other names (``f1``, ``subset_accuracy``), an unknown name.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import clfeval
from clfeval.errors import OptionError
from clfeval.explain import DETAIL_LABELS, EXPLAIN_SCHEMA, REGISTRIES, WIDTH, explain, explain_all, registry_names
from tests.conftest import cli_error, run_cli

SRC = Path(__file__).resolve().parent.parent / "src" / "clfeval"

#: Registries of the package that ``clfeval explain`` leaves out, and why: none is a name a user chooses or reads.
NOT_EXPLAINED = {
    "SKLEARN_KEYWORDS": "scikit-learn's keywords a task refuses, each error naming clfeval's way (shorthands.py)",
    "_OTHER_TASKS": "another task's keywords a task refuses, each error naming the keyword it takes (shorthands.py)",
    "AVERAGE_ROWS": "audit's reading of a paper's row labels (macro avg …) as averages, which AVERAGES explains",
    "CANDIDATES": "audit's verdicts, named after the averages AVERAGES explains",
    "QUANTITIES": "convert's options, each defined in its --help",
    "SHIFT_WEIGHTS": "finagle's closed forms, internal",
    "RENDER_OPTIONS": "the renderers' keyword arguments (--digits, --no-matrix, --raw-csv), defined in --help",
    "SHORTHANDS": "the tasks' keywords for their option groups, in the API's docstrings",
    "TASKS": "the Accumulator's tasks, the kinds KINDS explains",
    "LABEL_ORIGINS": "where an Accumulator's labels came from, a provenance field",
    "DEFAULT_OVERALL": "the overall measures a default report shows, by family",
    "MEASURE_GROUPS": "--measures' groups (report/view.py, being written for issue 30 item 1): explain once it lands",
    "DETAIL_LABELS": "explain's own labels of its details",
    "SUMS": "the sums a measure's entry declares it reads (reads=), for whoever adds a measure: docs/measures.md",
}

#: The registries whose every entry carries references (``none``, no interval, has none to carry).
WITH_REFERENCES = ("MEASURES", "AVERAGES", "INTERVAL_METHODS", "TESTS")


def _registries_in_source() -> set[str]:
    """Every module-level ``NAME: Mapping[...] = ...`` of the package, and ``KINDS``: the registries it defines."""
    found = set()
    for path in SRC.rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and ast.unparse(node.annotation).startswith("Mapping[")
            ):
                found.add(node.target.id)
            elif isinstance(node, ast.Assign) and ast.unparse(node.value) == "_Registry()":
                found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return found


def test_every_registry_of_the_package_is_walked_or_said_not_to_be() -> None:
    explained = {r.name for r in REGISTRIES}
    in_source = _registries_in_source()
    assert explained <= in_source, explained - in_source
    assert in_source - explained <= set(NOT_EXPLAINED), f"explain these, or say why not: {in_source - explained}"
    assert not explained & set(NOT_EXPLAINED)
    for must in ("MEASURES", "AVERAGES", "INTERVAL_METHODS", "TESTS", "LABEL_SOURCES", "ALTERNATIVES", "KINDS"):
        assert must in explained
    for must in ("ENGINES", "FORMATS", "DIFFERENCE_INTERVALS", "UNDEFINED_POLICIES", "RENDERERS"):
        assert must in explained
    assert {"DUPLICATE_POLICIES", "EMPTY_POLICIES"} <= explained


@pytest.mark.parametrize("registry", REGISTRIES, ids=[r.name for r in REGISTRIES])
def test_every_entry_of_every_registry_is_explained(registry) -> None:
    entries = registry.entries()
    assert len(entries) > 0
    for name, entry in entries.items():
        mine = [e for e in explain(name) if e.registry == registry.name]
        assert len(mine) == 1, (registry.name, name)
        e = mine[0]
        assert e.name == name and e.definition.strip() and e.home.endswith(registry.name), e
        assert all(key in DETAIL_LABELS and text.strip() for key, text in e.details), e.details
        if registry.chosen_by:
            assert e.detail("chosen_by") == registry.chosen_by
        if registry.name == "MEASURES":
            assert e.detail("undefined_when") and e.detail("undefined_value"), name
            assert e.detail("tasks") and e.detail("range") and e.detail("direction") and e.detail("names")
            assert e.detail("order").split(":")[0] == ("yes" if entry.ordered else "no")
            assert entry.definition in e.definition  # the registry's own words, the formula among them
        if registry.name in WITH_REFERENCES and getattr(entry, "computation", "") is not None:
            assert entry.references and e.references == entry.references, (registry.name, name)
        if registry.name in ("AVERAGES", "INTERVAL_METHODS", "TESTS") and name != "none":
            assert e.detail("undefined"), (registry.name, name)  # the 0/0 rule
        text = e.text()
        assert text.startswith(f"{registry.name}: {name}") and max(map(len, text.splitlines())) <= WIDTH, text


def test_explain_all_is_every_entry_once() -> None:
    every = explain_all()
    assert [(e.registry, e.name) for e in every] == [(r, n) for r, names in registry_names().items() for n in names]


def test_the_references_are_filled_in() -> None:
    assert "Sokolova & Lapalme 2009" in " ".join(clfeval.AVERAGES["macro_fa"].references)
    assert any("Gorodkin 2004" in r for r in clfeval.MEASURES["mcc"].references)
    assert any("Takahashi et al. 2022" in r for r in clfeval.INTERVAL_METHODS["delta"].references)
    assert clfeval.TESTS["ar"].references[:2] == ("Noreen 1989", "Yeh 2000")
    assert clfeval.INTERVAL_METHODS["none"].references == ()


def test_the_zero_division_rule_stated_is_the_value_computed() -> None:
    """What ``explain`` says a measure is at 0/0 is what scoring gives it: chance level 0 for MCC, κ and adjusted
    balanced accuracy whatever --zero-division (NaN with nan), the --zero-division value for the others."""
    chance = {
        e.name for e in explain_all() if e.registry == "MEASURES" and "chance level" in e.detail("undefined_value")
    }
    assert {"mcc", "kappa", "balanced_accuracy_adjusted", "kappa_linear", "kappa_quadratic"} == chance
    one_label = clfeval.score(["a", "a", "a"], ["a", "a", "a"], scoring=clfeval.Scoring(zero_division=1))
    for name in ("mcc", "kappa", "balanced_accuracy_adjusted"):
        assert one_label.overall[name] == 0.0, name
    nan = clfeval.score(["a", "a"], ["a", "a"], scoring=clfeval.Scoring(zero_division="nan"))
    assert all(nan.overall[name] != nan.overall[name] for name in ("mcc", "kappa"))  # NaN
    never_predicted = clfeval.score(["a", "b"], ["a", "a"], scoring=clfeval.Scoring(zero_division=1))
    assert never_predicted.per_label["b"].precision == 1.0
    assert "never predicted" in explain("precision")[0].detail("undefined_when")


def test_other_names_lead_to_their_entry() -> None:
    assert [(e.registry, e.name, e.asked) for e in explain("f1")] == [("MEASURES", "f", "f1")]
    assert explain("f0.5")[0].name == "f" and explain("F2")[0].name == "f"
    assert [(e.registry, e.name) for e in explain("subset_accuracy")] == [("MEASURES", "accuracy")]
    assert [(e.registry, e.name) for e in explain("macro_fa.f1")] == [("AVERAGES", "macro_fa"), ("MEASURES", "f")]
    assert [(e.registry, e.name) for e in explain("per_label.B.recall")] == [("MEASURES", "recall")]
    assert [e.registry for e in explain("MCC")] == ["MEASURES"]
    with pytest.raises(OptionError, match=r"close matches: .*macro_fa"):
        explain("macro_f1")


def test_the_command_lists_every_registry_and_name() -> None:
    out = run_cli("explain")
    assert out.returncode == 0 and out.stderr == b""
    text = out.stdout.decode()
    assert max(map(len, text.splitlines())) <= WIDTH
    for registry, names in registry_names().items():
        assert f"\n{registry} (" in text, registry
        for name in names:
            assert name in text, (registry, name)
    listing = json.loads(run_cli("explain", "--format", "json").stdout)
    assert listing["schema"] == EXPLAIN_SCHEMA and listing["query"] is None
    assert {r["registry"]: r["names"] for r in listing["registries"]} == {
        k: list(v) for k, v in registry_names().items()
    }


@pytest.mark.parametrize(
    ("name", "heading", "needles"),
    [
        ("macro_fa", "AVERAGES: macro_fa — macro (FA)", ["F of macro precision and macro recall", "Sokolova"]),
        ("mcc", "MEASURES: mcc — MCC", ["0/0 value    0, chance level", "Gorodkin 2004", "single-label data"]),
        ("delta", "INTERVAL_METHODS: delta", ["Takahashi et al. 2022", "not estimable"]),
        ("ar", "TESTS: ar — approximate randomization", ["Noreen 1989", "--exact-limit"]),
        ("f1", "MEASURES: f — F (asked as f1)", ["(1 + β²)·tp", "tp + fp + fn = 0", "macro.f1"]),
        ("subset_accuracy", "MEASURES: accuracy", ["whole label set right / N", "subset_accuracy"]),
        ("kappa_quadratic", "MEASURES: kappa_quadratic", ["label order  yes", "Cohen 1968"]),
        ("union", "LABEL_SOURCES: union", ["--labels-from"]),
        ("jsonl", "FORMATS: jsonl", ["JSON Lines"]),
        ("single-label", "KINDS: single-label", ['"kind": "confusion"']),
    ],
)
def test_the_command_explains_a_name(name: str, heading: str, needles: list[str]) -> None:
    out = run_cli("explain", name)
    assert out.returncode == 0 and out.stderr == b""
    text = out.stdout.decode()
    assert text.startswith(heading) and max(map(len, text.splitlines())) <= WIDTH, text
    for needle in needles:
        assert needle in " ".join(text.split()) or needle in text, (needle, text)


def test_a_name_in_several_registries_is_explained_under_each() -> None:
    text = run_cli("explain", "bootstrap").stdout.decode()
    headings = [line.split(":")[0] for line in text.splitlines() if line and not line.startswith(" ")]
    assert headings == ["INTERVAL_METHODS", "TESTS", "DIFFERENCE_INTERVALS", "GROUP_TESTS"]
    assert "Efron 1987" in text and "Berg-Kirkpatrick et al. 2012" in text
    doc = json.loads(run_cli("explain", "bootstrap", "--format", "json").stdout)
    assert doc["schema"] == EXPLAIN_SCHEMA and doc["query"] == "bootstrap"
    assert [e["registry"] for e in doc["entries"]] == headings
    first = doc["entries"][0]
    assert set(first) == {"registry", "home", "name", "asked", "title", "definition", "details", "references"}
    assert first["details"]["resampling"].startswith("yes") and first["references"][0].startswith("Efron 1987")


def test_an_unknown_name_is_a_one_line_error_with_the_close_matches() -> None:
    cli_error(run_cli("explain", "macro_f1"), "'macro_f1' is in no registry", "macro_fa", "macro.f1")
    cli_error(run_cli("explain", "bootstrap_bca"), "close matches: bootstrap-bca")
    cli_error(run_cli("explain", "zzzz"), "'zzzz' is in no registry", "clfeval explain lists every name")


def test_the_output_file_and_the_help(tmp_path: Path) -> None:
    out = run_cli("explain", "mcc", "-o", str(tmp_path / "mcc.txt"))
    assert out.returncode == 0 and out.stdout == b""
    assert (tmp_path / "mcc.txt").read_text(encoding="utf-8").startswith("MEASURES: mcc")
    assert b"explain" in run_cli("--help").stdout + run_cli("--help").stderr


def test_explaining_imports_the_registries_only() -> None:
    """Explaining every entry loads the registries' modules, not the readers' polars, the tasks or the intervals."""
    script = (
        "import sys\nfrom clfeval.explain import explain_all, render_listing\nexplain_all(); render_listing()\n"
        "print(*sorted(m for m in sys.modules if m.startswith(('clfeval', 'polars', 'pandas', 'scipy'))))"
    )
    loaded = set(
        subprocess.run([sys.executable, "-c", script], capture_output=True, check=True).stdout.decode().split()
    )
    assert "clfeval.explain" in loaded
    assert not loaded & {"polars", "pandas", "scipy", "clfeval.api", "clfeval.infer.intervals", "clfeval.report.tables"}


def _flat_results() -> dict[str, object]:
    """A result of every kind and task, with intervals: what the walk of flat names reads."""
    import numpy as np

    rng = np.random.default_rng(0)
    gold, pred = list("abcab" * 4), list("abcba" * 4)
    y, p = rng.integers(0, 3, 60), rng.dirichlet(np.ones(3), 60)
    sets = rng.random((60, 3)) < 0.4
    tags = [["B-PER", "O"], ["B-LOC", "I-LOC"]] * 10, [["B-PER", "O"], ["B-LOC", "O"]] * 10
    boot = {"ci": "bootstrap", "seed": 1, "resamples": 30}
    invalid = [None, *pred[1:6], "no idea", *pred[7:]]  # an LLM's failed parse and refusal (issue 38, 4)
    return {
        "single-label": clfeval.score(gold, pred, ci="delta"),
        "multi-label": clfeval.score([["a"], ["a", "b"], []] * 5, [["a"], ["b"], ["a"]] * 5, multilabel=True, **boot),
        "spans": clfeval.score(*tags, spans=True, **boot),
        "scored binary": clfeval.score(y % 2, scores=p[:, 0], ci="delong"),
        "scored multi-class": clfeval.score(y, scores=p, **boot),
        "scored multi-label": clfeval.score(sets.astype(int), scores=rng.random((60, 3)), multilabel=True, **boot),
        "compare": clfeval.compare(gold, {"A": pred, "B": gold}, test=clfeval.Test(rounds=30, seed=1)),
        "compare spans": clfeval.compare(tags[0], {"A": tags[1], "B": tags[0]}, spans=True, test="sign"),
        "compare scores": clfeval.compare(y % 2, scores={"A": p[:, 0], "B": p[:, 1]}, test="delong"),
        "cv": clfeval.cv(gold, pred, folds=[0, 1] * 10, ci="delta"),
        "cv scores": clfeval.cv(y, scores=p, folds=np.arange(60) % 2),
        "weighted": clfeval.score(gold, pred, sample_weight=np.arange(20) % 3 + 0.5, ci="delta"),
        "weighted scores": clfeval.score(y % 2, scores=p[:, 0], sample_weight=rng.random(60), **boot),
        "invalid omit": clfeval.score(gold, invalid, labels=list("abc"), invalid="omit", ci="delta"),
        "invalid wrong": clfeval.score(gold, invalid, labels=list("abc"), invalid="wrong"),
        "compare invalid": clfeval.compare(
            gold, {"A": invalid, "B": pred}, labels=list("abc"), invalid="omit", test=clfeval.Test(rounds=30, seed=1)
        ),
        "cv weighted": clfeval.cv(gold, pred, folds=[0, 1] * 10, sample_weight=np.arange(20) % 3 + 0.5),
    }


def test_explain_knows_every_name_every_kind_reports() -> None:
    """Issue 37, 6: ``clfeval explain`` knew none of the scored names (auc, log_loss …); issue 38 added
    ``sample_weight_sum``, ``n_invalid`` and ``coverage`` to flat() and none was explained. Every name of every kind's
    flat() — the names of the JSON, the reports and the trackers — is explained: the score's report name, after the
    structure flat() adds around it (a system's name, a pair's ``<a>_vs_<b>.<field>``, a fold's name)."""
    walked = 0
    for kind, result in _flat_results().items():
        systems = getattr(result, "systems", ())
        for name in result.flat(".", per_label=True):  # type: ignore[attr-defined]
            core = name
            for system in systems:
                core = core.removeprefix(f"{system}.")
            core = re.sub(r"\.[^.]+_vs_[^.]+\.(difference|p_value|p_adjusted|significant|ci_low|ci_high)$", "", core)
            found = explain(core)
            assert found, (kind, name)
            walked += 1
    assert walked > 500
    with pytest.raises(OptionError, match="close matches"):
        explain("macro.auk")
