"""The short name of :mod:`clfeval.integrations.hf`, where the code is: the two names are one module."""

import sys
from typing import TYPE_CHECKING

from clfeval.integrations import hf as _module

if TYPE_CHECKING:  # what a type checker sees of the short name
    from clfeval.integrations.hf import *  # noqa: F403

sys.modules[__name__] = _module  # ``clfeval.hf`` and ``clfeval.integrations.hf`` are one module
