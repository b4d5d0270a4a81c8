"""What a type checker sees of the public API, as a user's script would: checked by mypy in ``make lint`` (the
``files`` of ``[tool.mypy]``), never run. It replaces a test that ran mypy a second time inside pytest.

Each task's overloads give the result type of its input: labels give ``Scores``, ``scores=`` gives ``Scored``;
``compare`` gives ``Comparison`` or ``ScoredComparison``; ``cv`` ``CrossValidation`` or ``ScoredCV``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import ModuleType

    from typing_extensions import assert_type

    import clfeval
    import clfeval.inputs.typed as typed
    import clfeval.scoring.measures as measures
    from clfeval.infer.comparison import Comparison
    from clfeval.infer.crossvalidation import CrossValidation
    from clfeval.infer.scored import ScoredComparison, ScoredCV
    from clfeval.scoring.scored import Scored

    def _a_user() -> None:
        r = clfeval.score(["a", "b"], ["a", "a"])
        assert_type(r, clfeval.Scores)
        assert_type(r.averages, Mapping[str, Mapping[str, float]])
        assert_type(clfeval.score([0, 1], scores=[0.2, 0.8]), Scored)
        assert_type(clfeval.compare(["a"], {"A": ["a"], "B": ["b"]}), Comparison)
        assert_type(clfeval.compare([0, 1], scores={"A": [0.2, 0.8], "B": [0.3, 0.7]}), ScoredComparison)
        test = clfeval.Test("delong", alternative="greater", alpha=0.01)  # the one test group of every kind
        assert_type(clfeval.compare([0, 1], scores={"A": [0.2], "B": [0.3]}, test=test, baseline="B"), ScoredComparison)
        assert_type(clfeval.score([0, 1], scores=[0.2, 0.8], ci=clfeval.CI("delong")), Scored)
        assert_type(clfeval.cv(["a", "b"], ["a", "a"], [0, 1]), CrossValidation)
        assert_type(clfeval.cv([0, 1], scores=[0.2, 0.8], folds=[0, 1]), ScoredCV)
        assert_type(clfeval.Scoring(labels=["a"]), clfeval.Scoring)
        # issue 38: scikit-learn's binary habits, a declared order, indicator matrices (an array of 0/1 rows)
        assert_type(clfeval.score([0, 1], [1, 1], pos_label=1), clfeval.Scores)
        assert_type(clfeval.score(["a", "b"], ["a", "a"], ordinal=["b", "a"]), clfeval.Scores)
        assert_type(clfeval.score([0, 1], scores=[0.2, 0.8], pos_label=1), Scored)
        assert_type(clfeval.compare(["a"], {"A": ["a"], "B": ["b"]}, ordinal=True, pos_label="a"), Comparison)
        assert_type(clfeval.cv(["a", "b"], ["a", "a"], [0, 1], ordinal=["a", "b"], pos_label="a"), CrossValidation)
        assert_type(typed, ModuleType)
        assert_type(measures.MEASURES, Mapping[str, measures.Measure])
