"""Names of a package that load their module on first use (PEP 562), so importing one module of a package does not
import all of its siblings (the command's start-up imports what the command runs)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for ``homes``: each public name and the module that defines it."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            if not name.startswith("_") and importlib.util.find_spec(f"{package}.{name}") is not None:
                return importlib.import_module(f"{package}.{name}")  # a module of the package, as an eager one had
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)  # found once; later lookups are plain attributes
        return value

    def __dir__() -> list[str]:
        return sorted(set(homes) | set(vars(sys.modules[package])))

    return __getattr__, __dir__
