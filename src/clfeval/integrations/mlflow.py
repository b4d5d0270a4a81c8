"""MLflow: log a result's scores as metrics, its signature as a tag, and its JSON, HTML report and confusion matrix
as artifacts.

mlflow is not a dependency of clfeval (``pip install 'clfeval[mlflow]'``); it is imported when :func:`log` runs.

In a run (or not: a new run is started and ended)::

    import clfeval, clfeval.mlflow, mlflow
    with mlflow.start_run():
        clfeval.mlflow.log(clfeval.score(gold, pred, ci="delta"), prefix="test/")

``tests/test_trackers.py`` logs into a real MLflow file store and reads everything back.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from clfeval.errors import OptionError
from clfeval.output import delimited_row
from clfeval.result import Result

__all__ = ["MAX_NAME", "SIGNATURE_TAG", "log", "metric_names"]

#: The run tag that holds the result's :attr:`~clfeval.result.Result.signature`.
SIGNATURE_TAG = "clfeval.signature"

#: What MLflow's stores accept in a metric name (alphanumerics, ``_ - . / :`` and space); anything else becomes ``_``.
_NOT_ALLOWED = re.compile(r"[^\w\-./: ]")
#: The longest metric name MLflow takes.
MAX_NAME = 250


def metric_names(flat: dict[str, float]) -> dict[str, float]:
    """``flat`` with each name made acceptable to every MLflow store (a character other than alphanumerics,
    ``_ - . / :`` and space becomes ``_``); two names that become one keep both, the second with ``_2``."""
    out: dict[str, float] = {}
    for name, value in flat.items():
        safe = _NOT_ALLOWED.sub("_", name)
        n = 1
        while safe in out:
            n += 1
            safe = f"{_NOT_ALLOWED.sub('_', name)}_{n}"
        out[safe] = value
    return out


def log(
    result: Result,
    *,
    prefix: str = "",
    sep: str = "/",
    per_label: bool = False,
    artifact_path: str = "clfeval",
    step: int | None = None,
) -> str:
    """Log ``result`` to the active MLflow run (or to a new one, ended after): its scores as metrics
    (:meth:`~clfeval.result.Result.flat`, names joined by ``sep``, each after ``prefix``), its signature as the
    tag ``clfeval.signature``, and as artifacts under ``artifact_path``: ``result.json`` (the versioned JSON
    contract), ``report.html`` (for results with a page: score, compare, cv), ``report.txt`` and, where the result has
    one (a score), ``confusion_matrix.csv`` (one row per non-zero cell: gold, pred, count).

    Parameters
    ----------
    result
        A score, compare, cv or finagle result.
    prefix
        Put before every metric name (``"test/"``, ``"val/"`` …).
    sep
        Joins the parts of a metric's name (``macro/f1``).
    per_label
        Also log every label's scores (12 a label; off by default: 10⁴ labels would be 10⁵ metrics).
    artifact_path
        The run's folder for the artifacts.
    step
        MLflow's step of the metrics (an epoch, say).

    Returns
    -------
    str
        The run's id.

    Raises
    ------
    OptionError
        Without mlflow, or when a metric name would be longer than MLflow takes (:data:`MAX_NAME`), before anything
        is logged.
    """
    try:
        import mlflow
    except ImportError:
        raise OptionError("clfeval.mlflow.log needs mlflow: pip install 'clfeval[mlflow]'") from None
    flat = result.flat(sep, per_label=per_label)
    metrics = metric_names({prefix + name: value for name, value in flat.items()})
    longest = max(metrics, key=len, default="")
    if len(longest) > MAX_NAME:
        raise OptionError(
            f"the metric name {longest[:60]!r}… has {len(longest)} characters, more than MLflow's {MAX_NAME}: a label "
            "that long is best logged with per_label=False (its scores are in the logged JSON)"
        )
    active = mlflow.active_run()
    run = active if active is not None else mlflow.start_run()
    failed = True
    try:
        mlflow.log_metrics(metrics, step=step)
        mlflow.set_tag(SIGNATURE_TAG, result.signature)
        with tempfile.TemporaryDirectory(prefix="clfeval-mlflow-") as folder:
            out = Path(folder)
            (out / "result.json").write_text(result.to_json(), encoding="utf-8")
            (out / "report.txt").write_text(result.render("text"), encoding="utf-8")
            if "html" in result.formats:
                (out / "report.html").write_text(result.render("html"), encoding="utf-8")
            if "matrix" in result.table_names():  # the one rule of every CSV written: labels safe for spreadsheets
                matrix = result.to_polars("matrix")
                rows = [delimited_row(matrix.columns), *(delimited_row(row) for row in matrix.iter_rows())]
                (out / "confusion_matrix.csv").write_text("".join(rows), encoding="utf-8", newline="")
            mlflow.log_artifacts(folder, artifact_path)
        run_id: str = run.info.run_id
        failed = False
        return run_id
    finally:
        if active is None:  # a run started here ends here, as FAILED when logging did not finish
            mlflow.end_run(status="FAILED" if failed else "FINISHED")
