"""The public surface is small, curated and importable; private modules stay behind ``clfeval``."""

from __future__ import annotations

import pytest

import clfeval

EXPECTED = {
    # the tasks: one entry point each, taking arrays, counts or what a reader returned
    "score",
    "compare",
    "cv",
    "finagle",
    "audit_file",
    # the readers and what they return
    "Counted",
    "read",
    "read_folds",
    "read_confidences",
    "read_matrix",
    "load_counts",
    "save_counts",
    "counts_of_frame",
    # the option groups
    "Reading",
    "Training",
    "MultiLabel",
    "Scoring",
    "SCHEMES",
    "SpanCounts",
    "Spans",
    "CI",
    "Test",
    # registries
    "ALTERNATIVES",
    "AVERAGES",
    "ENGINES",
    "FORMATS",
    "INTERVAL_METHODS",
    "KINDS",
    "LABEL_SOURCES",
    "INVALID_POLICIES",
    "MEASURES",
    "TESTS",
    "COUNTS_SCHEMA",
    # counts
    "ConfusionCounts",
    "JointCounts",
    "LabelCounts",
    "LabelFrequencies",
    "LabelSetCounts",
    "PairedCounts",
    "SplitMatrix",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "counts_from_dict",
    "counts_to_dict",
    # results
    "Scores",
    "LabelScores",
    "Intervals",
    "Comparison",
    "PairTest",
    "CrossValidation",
    "Finagle",
    "Audit",
    # a streaming accumulator for training and evaluation loops
    "Accumulator",
    "Conversion",
    "LabelConversion",
    "with_intervals",
    "convert",
    "convert_labels",
    "audit",
    "precision_shift",
    "recall_shift",
    # scores by group (issue 39): the option group, its registries, the result
    "Slicing",
    "GROUP_TESTS",
    "FAIRNESS",
    "Sliced",
    # measures of one's own
    "register_measure",
    "unregister_measure",
    # errors and the warning where only numbers come back
    "ClfevalError",
    "ClfevalWarning",
    "InputError",
    "MatrixError",
    "OptionError",
    "__version__",
}

#: The most parameters a public function takes (issue 19: options come in groups, not one keyword each).
MOST_PARAMETERS = 12


def test_all_is_exactly_the_curated_surface() -> None:
    assert set(clfeval.__all__) == EXPECTED
    for name in clfeval.__all__:
        assert hasattr(clfeval, name), name


def test_exception_tree() -> None:
    assert issubclass(clfeval.InputError, clfeval.ClfevalError)
    assert issubclass(clfeval.MatrixError, clfeval.InputError)
    assert issubclass(clfeval.OptionError, clfeval.ClfevalError)
    assert issubclass(clfeval.InputError, ValueError)
    assert issubclass(clfeval.ClfevalWarning, UserWarning)
    assert not issubclass(clfeval.ClfevalWarning, clfeval.ClfevalError)  # `except ClfevalError` never catches it


def test_result_is_frozen() -> None:
    import dataclasses

    import pytest

    r = clfeval.score(["a", "b"], ["a", "a"])
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.accuracy = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.averages["macro"]["f"] = 1.0  # type: ignore[index]
    with pytest.raises(ValueError):
        r.confusion.cells[0, 0] = 5


def test_registries_have_definitions() -> None:
    assert list(clfeval.AVERAGES) == ["micro", "macro", "macro_fa", "weighted", "lfb", "samples"]
    for average in clfeval.AVERAGES.values():
        assert average.definition and average.short
    assert set(clfeval.LABEL_SOURCES) == {"union", "gold", "train", "given"}
    assert list(clfeval.TESTS) == ["ar", "bootstrap", "mcnemar", "sign", "delong"]
    assert all(t.title and t.definition for t in clfeval.TESTS.values())
    assert list(clfeval.ALTERNATIVES) == ["two-sided", "greater", "less"]
    assert list(clfeval.ENGINES) == ["polars", "dask"] and all(clfeval.ENGINES.values())
    assert list(clfeval.KINDS) == [
        "single-label",
        "multi-label",
        "joint",
        "confidences",
        "spans",
        "scored",
        "weighted-single-label",
        "weighted-multi-label",
    ]
    assert list(clfeval.SCHEMES) == ["conlleval", "iob1", "iob2", "ioe1", "ioe2", "iobes", "bilou"]
    assert all(k.title and k.tasks for k in clfeval.KINDS.values())


def test_docstring_references_to_clfeval_resolve() -> None:
    """Every :data:/:func:/:class:/:mod: reference to ``clfeval.…`` in the sources names something that exists
    (scoring/scores.py once documented a ``clfeval.RENDERERS`` that did not)."""
    import importlib
    import re
    from pathlib import Path

    root = Path(clfeval.__file__).parent
    pattern = re.compile(r":(?:data|func|class|mod|meth|attr):`~?(clfeval(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
    missing = []
    for path in root.rglob("*.py"):
        for name in set(pattern.findall(path.read_text(encoding="utf-8"))):
            parts = name.split(".")
            for cut in range(len(parts), 0, -1):  # the longest importable module, then attributes
                try:
                    obj = importlib.import_module(".".join(parts[:cut]))
                except ImportError:
                    continue
                try:
                    for attr in parts[cut:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    missing.append(f"{path.relative_to(root)}: {name}")
                break
            else:
                missing.append(f"{path.relative_to(root)}: {name}")
    assert not missing, missing


def test_a_warning_raised_in_clfeval_code_fails_the_suite() -> None:
    """pyproject's filterwarnings: numpy's floating-point warnings are attributed to the clfeval line that did the
    arithmetic, and an unexpected one is a bug; other libraries' warnings keep Python's defaults."""
    import warnings

    import pytest

    with pytest.raises(RuntimeWarning):
        warnings.warn_explicit(
            "overflow encountered in scalar add", RuntimeWarning, "averages.py", 1, module="clfeval.scoring.averages"
        )
    with warnings.catch_warnings(record=True):
        warnings.warn_explicit("a single label", UserWarning, "_classification.py", 1, module="sklearn.metrics")


def test_no_public_function_takes_more_than_a_dozen_parameters() -> None:
    """Options come in a few frozen groups (Reading, Scoring, CI, Test …), not one keyword per option at every
    layer: the widest public function stays within MOST_PARAMETERS, besides the shorthands of its groups (issue 30:
    ``labels=``, ``beta=``, ``seed=`` … each a field of its group under the same name, clfeval/shorthands.py) and
    ``sample_weight=``, ``groups=`` and ``strata=``, which are data (a weight, a group or a stratum per instance,
    issues 38 and 39), not options."""
    import dataclasses
    import inspect

    from clfeval.shorthands import SHORTHANDS

    groups = {
        "Scoring": clfeval.Scoring,
        "Test": clfeval.Test,
        "CI": clfeval.CI,
        "MultiLabel": clfeval.MultiLabel,
        "Slicing": clfeval.Slicing,
    }
    for group, names in SHORTHANDS.items():
        assert set(names) <= {f.name for f in dataclasses.fields(groups[group])}, group
    shorthands = {name for names in SHORTHANDS.values() for name in names} | {"sample_weight", "groups", "strata"}
    widths = {}
    for name in clfeval.__all__:
        value = getattr(clfeval, name)
        if inspect.isfunction(value):
            named = {  # **keywords (the tasks' catch of scikit-learn's spellings, refused by name) is no option
                p.name for p in inspect.signature(value).parameters.values() if p.kind is not p.VAR_KEYWORD
            }
            widths[name] = len(named - shorthands)
    assert widths and max(widths.values()) <= MOST_PARAMETERS, sorted(widths.items(), key=lambda kv: -kv[1])[:3]


def test_each_task_takes_arrays_counts_and_what_a_reader_returned(tmp_path) -> None:
    """One entry point per task: the arrays, the counts and the reader's Counted give one result."""
    (tmp_path / "out.txt").write_text("x a a\ny a b\nz b b\nw c b\n")
    gold, pred = ["a", "a", "b", "c"], ["a", "b", "b", "b"]
    scoring = clfeval.Scoring(labels=["a", "b", "c"], beta=2)
    from_arrays = clfeval.score(gold, pred, scoring=scoring)
    from_counts = clfeval.score(clfeval.count_labels(gold, pred), scoring=scoring)
    counted = clfeval.read(str(tmp_path / "out.txt"))
    from_file = clfeval.score(counted, scoring=scoring)
    for other in (from_counts, from_file):
        assert other.averages == from_arrays.averages and other.per_label == from_arrays.per_label
    assert from_file.inputs["file"].endswith("out.txt")
    with pytest.raises(clfeval.OptionError, match="belong"):
        clfeval.score(counted, pred)


@pytest.mark.parametrize("package", ["count", "infer", "inputs", "inverse", "report", "scoring"])
def test_every_name_of_a_lazy_package_resolves(package: str) -> None:
    """The subpackages load their names on first use (clfeval/_lazy.py): each of ``__all__`` is found, is listed by
    ``dir``, and an unknown name is an AttributeError, not an import of something else."""
    import importlib

    module = importlib.import_module(f"clfeval.{package}")
    for name in module.__all__:
        assert getattr(module, name) is not None and name in dir(module)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def test_the_integrations_are_modules_found_on_first_use_and_import_nothing_heavy() -> None:
    """``clfeval.sklearn``, ``clfeval.hf`` and ``clfeval.mlflow`` are found as attributes without an import of their
    own, and neither they nor ``import clfeval`` import scikit-learn, MLflow, pandas, transformers or a framework."""
    import subprocess
    import sys

    code = (
        "import sys, clfeval\n"
        "heavy = ('sklearn', 'mlflow', 'pandas', 'transformers', 'torch', 'jax', 'numpy', 'polars')\n"
        "assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]\n"
        "assert {'hf', 'mlflow', 'sklearn'} <= set(dir(clfeval))\n"
        "assert callable(clfeval.hf.compute_metrics) and callable(clfeval.mlflow.log)\n"
        "assert callable(clfeval.sklearn.scorer) and clfeval.Accumulator.__name__ == 'Accumulator'\n"
        "heavy = ('sklearn', 'mlflow', 'pandas', 'transformers', 'torch', 'jax')\n"
        "assert not [m for m in heavy if m in sys.modules], [m for m in heavy if m in sys.modules]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_version_is_one_string_in_the_command_the_json_the_signature_and_the_changelog() -> None:
    """``clfeval --version``, every JSON's ``clfeval_version``, the signature line and the CHANGELOG's newest
    version section say the same version."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    version = clfeval.__version__
    shown = subprocess.run(
        [sys.executable, "-c", "import sys; from clfeval.cli import main; sys.exit(main(['--version']))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert shown == f"clfeval {version}"
    r = clfeval.score(["a", "b"], ["a", "a"])
    assert r.to_dict()["clfeval_version"] == version and r.signature.startswith(f"clfeval:{version}|")
    changelog = (Path(__file__).parents[1] / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert sections and sections[0] == version, sections
