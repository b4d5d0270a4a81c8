"""The public surface is small, curated and importable; private modules stay behind ``clfeval``."""

from __future__ import annotations

import clfeval

EXPECTED = {
    "ALTERNATIVES",
    "AVERAGES",
    "COUNTS_SCHEMA",
    "ClfevalError",
    "Comparison",
    "ConfusionCounts",
    "CrossValidation",
    "ENGINES",
    "FORMATS",
    "INTERVAL_METHODS",
    "InputError",
    "Intervals",
    "JointCounts",
    "LABEL_SOURCES",
    "LabelCounts",
    "LabelFrequencies",
    "LabelScores",
    "MEASURES",
    "LabelSetCounts",
    "MatrixError",
    "OptionError",
    "PairTest",
    "PairedCounts",
    "Scores",
    "SplitMatrix",
    "TESTS",
    "__version__",
    "compare",
    "compare_counts",
    "compare_files",
    "count_label_sets",
    "count_labels",
    "count_systems",
    "cv",
    "cv_counts",
    "cv_files",
    "score",
    "score_counts",
    "score_file",
    "score_matrix",
    "with_intervals",
    "compare_count_files",
    "counts_from_dict",
    "counts_of_files",
    "counts_of_frame",
    "counts_to_dict",
    "cv_count_files",
    "load_counts",
    "save_counts",
    "score_count_files",
    "Conversion",
    "LabelConversion",
    "convert",
    "convert_labels",
    "Audit",
    "audit",
    "audit_file",
    "Finagle",
    "finagle",
    "finagle_file",
    "precision_shift",
    "recall_shift",
}


def test_all_is_exactly_the_curated_surface() -> None:
    assert set(clfeval.__all__) == EXPECTED
    for name in clfeval.__all__:
        assert hasattr(clfeval, name), name


def test_exception_tree() -> None:
    assert issubclass(clfeval.InputError, clfeval.ClfevalError)
    assert issubclass(clfeval.MatrixError, clfeval.InputError)
    assert issubclass(clfeval.OptionError, clfeval.ClfevalError)
    assert issubclass(clfeval.InputError, ValueError)


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
    assert list(clfeval.TESTS) == ["ar", "bootstrap", "mcnemar", "sign"]
    assert all(t.title and t.definition for t in clfeval.TESTS.values())
    assert list(clfeval.ALTERNATIVES) == ["two-sided", "greater", "less"]
    assert list(clfeval.ENGINES) == ["polars", "dask"] and all(clfeval.ENGINES.values())


def test_docstring_references_to_clfeval_resolve() -> None:
    """Every :data:/:func:/:class:/:mod: reference to ``clfeval.…`` in the sources names something that exists
    (score/result.py once documented a ``clfeval.RENDERERS`` that did not)."""
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
            "overflow encountered in scalar add", RuntimeWarning, "averages.py", 1, module="clfeval.score.averages"
        )
    with warnings.catch_warnings(record=True):
        warnings.warn_explicit("a single label", UserWarning, "_classification.py", 1, module="sklearn.metrics")
