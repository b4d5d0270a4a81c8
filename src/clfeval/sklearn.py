"""The short name of :mod:`clfeval.integrations.sklearn`, where the code is: the two names are one module."""

import sys
from typing import TYPE_CHECKING

from clfeval.integrations import sklearn as _module

if TYPE_CHECKING:  # what a type checker sees of the short name
    from clfeval.integrations.sklearn import *  # noqa: F403

sys.modules[__name__] = _module  # ``clfeval.sklearn`` and ``clfeval.integrations.sklearn`` are one module
