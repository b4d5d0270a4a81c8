"""The short name of :mod:`clfeval.integrations.mlflow`, where the code is: the two names are one module."""

import sys
from typing import TYPE_CHECKING

from clfeval.integrations import mlflow as _module

if TYPE_CHECKING:  # what a type checker sees of the short name
    from clfeval.integrations.mlflow import *  # noqa: F403

sys.modules[__name__] = _module  # ``clfeval.mlflow`` and ``clfeval.integrations.mlflow`` are one module
