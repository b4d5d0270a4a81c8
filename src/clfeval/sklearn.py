"""The short name of :mod:`clfeval.integrations.sklearn`, where the code is: the two names are one module."""

import sys

from clfeval.integrations import sklearn as _module
from clfeval.integrations.sklearn import *  # noqa: F403  (the names, for type checkers and for a copy of this module)

sys.modules[__name__] = _module  # ``import clfeval.sklearn`` gives the module itself
