"""docs/slices.md pastes real runs: the fairness audit's command prints what the page shows, its Python equals
fairlearn's functions, and the error analysis by domain prints the table shown."""

from __future__ import annotations

from pathlib import Path

import pytest

import clfeval
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "slices.md").read_text(encoding="utf-8")


def _block_after(head: str) -> str:
    """The text of the fenced block that starts with the line ``head``, without it."""
    start = PAGE.index(head + "\n") + len(head) + 1
    return PAGE[start : PAGE.index("```", start)]


def _python_blocks() -> list[str]:
    return [part.split("```", 1)[0] for part in PAGE.split("```python\n")[1:]]


def test_the_fairness_audit_is_a_real_run() -> None:
    command = next(line for line in PAGE.splitlines() if line.startswith("$ clfeval score examples/loans.tsv"))
    out = run_cli(*command.split()[2:], cwd=ROOT)
    pasted = _block_after(command).replace("clfeval:0.2.0|", f"clfeval:{clfeval.__version__}|")
    assert out.returncode == 0 and out.stdout.decode() == pasted


def test_the_fairness_audit_in_python_is_fairlearns(monkeypatch: pytest.MonkeyPatch) -> None:
    from fairlearn.metrics import equal_opportunity_difference

    monkeypatch.chdir(ROOT)
    scope: dict[str, object] = {}
    exec(next(b for b in _python_blocks() if "loans.tsv" in b), scope)
    r = scope["r"]
    loans = scope["loans"]
    want = equal_opportunity_difference(loans["repaid"], loans["approved"], sensitive_features=loans["age"])
    assert r["fairness.equal_opportunity_difference"] == pytest.approx(want, abs=1e-12)  # type: ignore[index]


def test_the_error_analysis_by_domain_prints_the_table_shown(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.chdir(ROOT)
    exec(next(b for b in _python_blocks() if "ner-gold.conll" in b), {})
    shown = capsys.readouterr().out
    pasted = PAGE.split("print(r)\n```\n\n```\n", 1)[1].split("```", 1)[0]
    for part in pasted.split("...\n"):
        assert part in shown
