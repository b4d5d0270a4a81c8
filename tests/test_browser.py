"""The HTML report in a real browser: Debian's headless Chromium, driven by Playwright, network off.

`make test` installs Debian's ``chromium`` where it can (root with apt-get); where it cannot, these tests are
skipped and say why. Screenshots land in build/browser/ for a person to look at.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "build" / "browser"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: As the machine's own probe starts it: no sandbox as root, and no background calls to the (closed) network.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Debian's chromium is not installed and `make test` could not install it here (needs "
        "root and apt-get; see build/chromium.log): the HTML report's browser test is skipped",
    ),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (a test extra) is not installed")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


def _open(browser: object, path: Path, width: int, height: int) -> tuple[object, object, list[str]]:
    """A page on ``path`` with the network off; the URLs of every request it made."""
    context = browser.new_context(offline=True, viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return context, page, requests


def _report(tmp_path: Path, *args: str) -> Path:
    out = run_cli(*args, "--format", "html", "-o", "report.html", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    return tmp_path / "report.html"


def test_score_report_renders_offline_with_its_heat_map_and_views(browser: object, tmp_path: Path) -> None:
    path = _report(
        tmp_path,
        "score",
        str(ROOT / "examples/pos-tagger.txt"),
        "--train",
        str(ROOT / "examples/pos-train.txt"),
        "--ci",
        "delta",
    )
    context, page, requests = _open(browser, path, 1280, 900)
    assert requests == [path.as_uri()]  # the page loaded nothing else, from anywhere
    text = page.inner_text("body")
    for average, f1 in (
        ("micro (summed tp, fp, fn, tn)", "0.8467"),
        ("macro (AF: mean of per-label F1)", "0.6620"),
        ("macro_fa (FA: F1 of macro P and macro R)", "0.6640"),
        ("weighted (mean weighted by gold support)", "0.8420"),
        ("lfb (mean weighted by training label frequencies)", "0.8294"),
    ):
        assert average in text and f1 in text
    assert "[0.8059, 0.8874]" in text and "95% delta" in text
    cells = page.locator("svg.heatmap rect.cell")
    assert cells.count() == 10 * 10
    assert page.locator("svg.heatmap").bounding_box()["width"] > 200  # drawn, not collapsed
    first = page.locator("svg.heatmap text.count").first
    assert first.text_content() == "86"  # NN → NN, the most frequent label first
    page.get_by_role("button", name="row").click()
    assert first.text_content() == "89"  # 86 of NN's 97 gold instances: its recall, in percent
    page.get_by_role("button", name="column").click()
    assert first.text_content() == "90"  # 86 of the 96 predicted NN: its precision
    assert page.locator("svg.dotplot g.point").count() > 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.get_by_role("button", name="counts").click()
    page.screenshot(path=str(SHOTS / "score-laptop.png"), full_page=True)
    context.close()


def test_score_report_fits_a_phone(browser: object, tmp_path: Path) -> None:
    path = _report(tmp_path, "score", str(ROOT / "examples/pos-tagger.txt"), "--ci", "delta")
    context, page, requests = _open(browser, path, 390, 844)
    assert requests == [path.as_uri()]
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner  # wide tables and figures scroll inside their box; the page does not
    assert page.locator("svg.heatmap rect.cell").count() == 9 * 9  # no --train: the 9 labels seen, not the 10 trained
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "score-phone.png"), full_page=True)
    context.close()


def test_compare_and_cv_reports_render_offline(browser: object, tmp_path: Path) -> None:
    lines = (ROOT / "examples/pos-tagger.txt").read_text(encoding="utf-8").splitlines()
    gold = [line.split()[-2] for line in lines if line.strip()]
    pred = [line.split()[-1] for line in lines if line.strip()]
    other = [g if k % 7 == 0 else p for k, (g, p) in enumerate(zip(gold, pred))]
    (tmp_path / "gold.txt").write_text("\n".join(gold) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(pred) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(other) + "\n", encoding="utf-8")
    path = _report(
        tmp_path,
        "compare",
        "gold.txt",
        "a.txt",
        "b.txt",
        "--metric",
        "macro.f1,accuracy",
        "--seed",
        "7",
        "--rounds",
        "2000",
        "--ci",
        "bootstrap",
    )
    context, page, requests = _open(browser, path, 1280, 900)
    assert requests == [path.as_uri()]
    text = page.inner_text("body")
    assert "approximate randomization" in text and "p (Holm)" in text and "A − B" in text
    assert page.locator("svg.dotplot").count() == 2  # the differences, and the per-label differences
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "compare.png"), full_page=True)
    context.close()
    (tmp_path / "folds.txt").write_text(
        "".join(f"{k % 3} {g} {p}\n" for k, (g, p) in enumerate(zip(gold, pred))), encoding="utf-8"
    )
    path = _report(tmp_path, "cv", "folds.txt", "--fold-col", "1", "--gold-col", "2", "--pred-col", "3")
    context, page, requests = _open(browser, path, 1280, 900)
    assert requests == [path.as_uri()]
    text = page.inner_text("body")
    assert "mean of folds" in text and "pooled" in text
    assert page.locator("svg.heatmap rect.cell").count() == 9 * 9  # the pooled matrix
    assert page.locator("svg.dotplot").count() == 2  # the folds, and the pooled per-label scores
    page.screenshot(path=str(SHOTS / "cv.png"), full_page=True)
    context.close()
