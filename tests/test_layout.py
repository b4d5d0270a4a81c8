"""The shape of the code base: renderers read reports, not results; each result names its report, formats, figures;
docs/layout.md draws the source tree as it is.

Nothing here is a hand-written list of what the tree holds: the results are the subclasses of
:class:`clfeval.result.Result` found by importing every module of the package, the result modules are the modules
that define them, and the modules docs/layout.md must name are the files under src/clfeval.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

import clfeval

if TYPE_CHECKING:
    from clfeval.result import Result

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "clfeval"
LAYOUT = ROOT / "docs" / "layout.md"


@functools.cache
def _every_module() -> tuple[tuple[ModuleType, ...], tuple[str, ...]]:
    """Every module of clfeval, imported, and the ones skipped: a ``__main__`` (importing one runs the command) and
    any module whose optional library is not installed (none is today: each imports its library when called)."""
    modules, skipped = [], []
    for info in pkgutil.walk_packages(clfeval.__path__, "clfeval."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            skipped.append(info.name)
            continue
        try:
            modules.append(importlib.import_module(info.name))
        except ModuleNotFoundError as error:  # an optional library (dask, matplotlib …), never a module of clfeval
            if (error.name or "clfeval").split(".")[0] == "clfeval":
                raise
            skipped.append(info.name)
    return tuple(modules), tuple(skipped)


def _subclasses(cls: type[Result]) -> list[type[Result]]:
    found: list[type[Result]] = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


@functools.cache
def _result_types() -> tuple[type[Result], ...]:
    """Every kind of result: the subclasses of Result defined in clfeval, in a stable order."""
    from clfeval.result import Result

    _every_module()
    found = {c for c in _subclasses(Result) if c.__module__.startswith("clfeval.")}
    return tuple(sorted(found, key=lambda c: (c.__module__, c.__qualname__)))


def _result_modules() -> set[str]:
    """The modules that define a result (``clfeval.scoring.scores`` …)."""
    return {c.__module__ for c in _result_types()}


def _module_file(module: str) -> Path:
    """The source file of a dotted clfeval module name (a package: its ``__init__.py``)."""
    path = SRC.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _modules(package: str) -> list[Path]:
    return sorted((SRC / package).glob("*.py"))


def test_the_results_are_found() -> None:
    """The guards below read the derived results: they hold only if the derivation finds results (the score, which
    every other result builds on, among them) in modules that are files of the tree."""
    names = {c.__name__ for c in _result_types()}
    assert {"Scores", "Scored", "Comparison", "CrossValidation"} <= names, names
    for module in _result_modules():
        assert _module_file(module).is_file(), module
    modules, skipped = _every_module()
    assert len(modules) + len(skipped) == len(_module_files()) - 1, skipped  # every file but clfeval/__init__.py


@pytest.mark.parametrize("path", _modules("render") + _modules("report"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_renderer_or_report_switches_on_a_result_type(path: Path) -> None:
    result_names = {c.__name__ for c in _result_types()}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("isinstance", "issubclass"):
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            assert not names & result_names, f"{path.name}:{node.lineno} switches on {names & result_names}"


def _imported(path: Path) -> list[tuple[int, str]]:
    """Every clfeval module ``path`` imports, at any depth (functions and ``TYPE_CHECKING`` included), with its line:
    ``from clfeval.x import y`` gives ``clfeval.x`` and ``clfeval.x.y`` (``y`` may be a module)."""
    package = "clfeval." + ".".join(path.relative_to(SRC).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package up
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found += [(node.lineno, base)] + [(node.lineno, f"{base}.{a.name}") for a in node.names]
    return [(line, name) for line, name in found if name.startswith("clfeval.")]


@pytest.mark.parametrize("path", [p for p in _modules("render") if p.name != "__init__.py"], ids=lambda p: p.name)
def test_renderers_import_reports_not_results(path: Path) -> None:
    results = _result_modules()
    imported = [f"{name} (line {line})" for line, name in _imported(path) if name in results]
    assert not imported, f"{path.name} imports result modules: {imported}"


@pytest.mark.parametrize("cls", _result_types(), ids=lambda c: f"{c.__module__}:{c.__qualname__}")
def test_every_result_names_its_report_formats_and_figures(cls: type[Result]) -> None:
    from clfeval.render import RENDERERS

    assert cls.kind != "result" and cls.report_builder, cls
    assert set(cls.formats) >= {"text", "json", "markdown", "csv", "latex"}, cls.formats
    assert set(cls.formats) <= set(RENDERERS), cls.formats
    assert ("html" in cls.formats) == (cls.figures_builder is not None), cls
    for builder in (cls.report_builder, cls.figures_builder):
        if builder is not None:  # "module:function", imported on use: the function exists
            module, _, function = builder.partition(":")
            assert module.startswith("clfeval.report."), builder
            assert callable(getattr(importlib.import_module(module), function, None)), builder


def _tree_section() -> str:
    """The code block of docs/layout.md's "The source tree"."""
    text = LAYOUT.read_text(encoding="utf-8")
    section = text.split("\n## The source tree\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```\n", 1)[1].split("```", 1)[0]


def _named_in_layout() -> tuple[set[str], set[str]]:
    """What the source tree of docs/layout.md names: module files under src/clfeval (``spans/tags.py``; a package
    ``spans/`` names ``spans/__init__.py``), and paths outside it from the repository's root (``tools/json_corpus.py``).

    A line indented two spaces starts an entry of src/clfeval: a package (``count/``) or modules (``api.py``); the
    lines indented further continue it. In a package's entry a bare ``tags.py`` is that package's module; a name with a
    ``/`` is a path from src/clfeval. A line not indented starts an entry of the repository (``tools/``)."""
    inside, outside = set(), set()
    where: str | None = None  # the entry's package under src/clfeval ("" at the top); None: outside it
    folder = ""  # the repository's folder of an entry outside src/clfeval
    for line in _tree_section().splitlines():
        if line == "src/clfeval/":
            inside.add("__init__.py")
            where = ""
            continue
        starts = re.match(r"( *)(\S+)", line)
        if starts is None:
            continue
        indent, first = len(starts.group(1)), starts.group(2)
        if indent == 0:  # an entry of the repository: docs/, tests/, tools/ …
            outside.add(first)
            where = None
            folder = first
        elif indent == 2:
            where = first if first.endswith("/") else ""
            if where:
                inside.add(f"{where}__init__.py")
        for name in re.findall(r"[\w/]*\w\.py\b", line):
            if where is None:
                outside.add(name if "/" in name else f"{folder}{name}")
            else:
                inside.add(name if "/" in name else f"{where}{name}")
    return inside, outside


def _module_files() -> set[str]:
    return {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")}


def test_the_layout_names_every_module() -> None:
    """A newcomer finds where a thing lives from docs/layout.md: every module file under src/clfeval is named in its
    source tree (a package's ``__init__.py`` by the package)."""
    inside, _ = _named_in_layout()
    missing = sorted(_module_files() - inside)
    assert not missing, f"docs/layout.md's source tree does not name {missing}"


def test_every_file_the_layout_names_exists() -> None:
    """The source tree of docs/layout.md names no module that is gone (and no folder or file outside src/clfeval);
    every path to a module elsewhere in the page (``scoring/computation.py``) exists too."""
    inside, outside = _named_in_layout()
    gone = sorted(inside - _module_files())
    assert not gone, f"docs/layout.md's source tree names modules that do not exist: {gone}"
    assert not [p for p in outside if not (ROOT / p).exists()], outside
    text = LAYOUT.read_text(encoding="utf-8").replace(_tree_section(), "")
    paths = set(re.findall(r"(?<![\w/.])(?:\w+/)+\w+\.py\b", text))
    assert paths, "docs/layout.md names no module outside its source tree"
    gone = sorted(p for p in paths if not (SRC / p).is_file() and not (ROOT / p).is_file())
    assert not gone, f"docs/layout.md names files that do not exist: {gone}"
