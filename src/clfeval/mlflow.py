"""The short name of :mod:`clfeval.integrations.mlflow`, where the code is: the two names are one module."""

import sys

from clfeval.integrations import mlflow as _module
from clfeval.integrations.mlflow import *  # noqa: F403  (the names, for type checkers and for a copy of this module)

sys.modules[__name__] = _module  # ``import clfeval.mlflow`` gives the module itself
