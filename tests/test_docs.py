"""The documentation: the README is a front page, the reference in docs/ is reachable from it, and what the pages
point at (links, repository paths, JSON contracts, the quick start's commands) exists."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _pages() -> list[Path]:
    """Every Markdown page a reader is sent to: the README, the changelog and everything under docs/."""
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]


def _links(text: str) -> list[str]:
    """Relative link targets of Markdown links and images, without their #fragment."""
    return [t for t in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) if "://" not in t]


def test_relative_links_in_the_readme_and_docs_resolve() -> None:
    """The README once sent readers to ../shared/ORIGINAL-SCRIPTS.md and a DESIGN.md outside the repository; the
    reference moved from the README to docs/, so every page's links are checked from where that page lives."""
    pages = _pages()
    assert len(pages) > 10 and (DOCS / "README.md") in pages
    for doc in pages:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "DESIGN.md" not in text, doc
        for target in _links(text):
            resolved = (doc.parent / target).resolve()
            assert resolved.exists(), f"{doc.relative_to(ROOT)} links to {target}, which does not exist"
            assert resolved.is_relative_to(ROOT), f"{doc.relative_to(ROOT)} links outside the repository: {target}"


def test_the_readme_is_a_front_page_with_the_two_commands() -> None:
    """Issue 19: at most ~250 lines; its quick start is exactly `make demo` and `make test`, the targets exist, and
    CI runs the same test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 251  # issue 38: the tour shows sample_weight= in one line
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = quick.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [line for line in ci.splitlines() if line.startswith("make ")] == ["make test"]
    # `make demo` scores the bundled example that the README names (tests/test_cli.py runs the same command)
    demo = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "clfeval score examples/pos-tagger.txt --train examples/pos-train.txt" in demo
    assert "examples/pos-tagger.txt" in quick and (ROOT / "examples" / "pos-tagger.txt").exists()


def test_every_page_of_the_reference_is_reachable_from_the_readme() -> None:
    """A newcomer finds the reference from the front page: the README links docs/README.md, which links every
    page in docs/ (and the README links each reference page directly too)."""
    readme_links = {(ROOT / t).resolve() for t in _links((ROOT / "README.md").read_text(encoding="utf-8"))}
    index_links = {(DOCS / t).resolve() for t in _links((DOCS / "README.md").read_text(encoding="utf-8"))}
    assert (DOCS / "README.md").resolve() in readme_links
    for page in sorted(DOCS.glob("*.md")):
        if page.name != "README.md":
            assert page.resolve() in index_links, f"docs/README.md does not link {page.name}"
            assert page.resolve() in readme_links, f"README.md does not link docs/{page.name}"


def test_repository_paths_named_in_the_docs_exist() -> None:
    """Pages name tests, benchmarks and results files as evidence (`tests/test_crossvalidation.py has such a case`);
    each must exist, and a named test function must be in its file."""
    pattern = re.compile(r"(?<![\w./-])((?:tests|benchmarks|docs|examples|src)/[\w./-]*\w)(?:::(\w+))?")
    named = 0
    for doc in _pages():
        for path, function in pattern.findall(doc.read_text(encoding="utf-8")):
            named += 1
            assert (ROOT / path).exists(), f"{doc.relative_to(ROOT)} names {path}, which does not exist"
            if function:
                assert f"def {function}(" in (ROOT / path).read_text(encoding="utf-8"), (doc.name, path, function)
    assert named > 20


def test_every_json_contract_is_documented() -> None:
    """docs/json.md holds every versioned contract the package writes, each under its own heading."""
    schemas = set()
    for source in (ROOT / "src").rglob("*.py"):
        schemas |= set(re.findall(r"clfeval\.[a-z]+/\d+", source.read_text(encoding="utf-8")))
    assert {"clfeval.score/2", "clfeval.compare/2", "clfeval.cv/2", "clfeval.counts/1"} <= schemas
    headings = [line for line in (DOCS / "json.md").read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    for schema in sorted(schemas):
        assert any(f"`{schema}`" in h for h in headings), f"docs/json.md has no section for {schema}"


def _python_blocks() -> list[tuple[str, str]]:
    out = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for i, code in enumerate(re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)):
            out.append((f"{page.relative_to(ROOT)}#{i + 1}", code))
    return out


@pytest.mark.parametrize(("where", "code"), _python_blocks(), ids=[w for w, _ in _python_blocks()])
def test_every_python_example_in_the_docs_runs(where: str, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's and the reference's Python examples are run as written (from the repository's root, where
    the bundled examples are), so none of them names a function or option the API no longer has."""
    monkeypatch.chdir(ROOT)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, where, "exec"), {"__name__": "__docs__"})
