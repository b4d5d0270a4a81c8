"""The short name of :mod:`clfeval.integrations.hf`, where the code is: the two names are one module."""

import sys

from clfeval.integrations import hf as _module
from clfeval.integrations.hf import *  # noqa: F403  (the names, for type checkers and for a copy of this module)

sys.modules[__name__] = _module  # ``import clfeval.hf`` gives the module itself
