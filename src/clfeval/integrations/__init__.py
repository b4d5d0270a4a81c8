"""Where people already work: scikit-learn (:mod:`~clfeval.integrations.sklearn`: any score as a scorer, cv from
``cross_val_predict``), Hugging Face (:mod:`~clfeval.integrations.hf`: ``compute_metrics`` for a ``Trainer``) and
MLflow (:mod:`~clfeval.integrations.mlflow`: ``log``).

Each module imports its library only when called, and goes by a short name too: ``clfeval.sklearn``,
``clfeval.hf`` and ``clfeval.mlflow`` are these modules (found as attributes of ``clfeval``, or imported by those
names).
"""
