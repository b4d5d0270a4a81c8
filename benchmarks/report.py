"""clfeval report benchmark: ``clfeval score --format html`` (and ``--plot``) against the pandas + scikit-learn +
matplotlib script a user would write for comparable output.

    python benchmarks/report.py            # 10^5 and 10^6 lines (about 6-7 minutes on 2 cores)
    python benchmarks/report.py --quick    # 10^5 lines only (under 2 minutes): a check that everything runs

Prints one Markdown table (contender, N, repeats, median and min seconds, ratio vs the plain
``--format html`` row at the same N, peak RSS, bytes of report.html, bytes of all files written) and writes
the same text to ``benchmarks/report.md``.

What is measured: the whole job end to end, each contender as its own subprocess (wall time includes
interpreter start-up and imports), from a TiMBL-style text file to the files a user would keep, each
contender writing into its own output directory (emptied, untimed, before every run):

1. ``clfeval score FILE --format html -o OUT/report.html``: one self-contained HTML page (summary with
   definitions, confusion heat map with count/row/column views, per-label dot plot, all tables);
2. the same plus ``--ci bootstrap --seed 1 --resamples 1000`` (an interval for every score, drawn in the
   report's tables and dot plot);
3. 1 plus ``--plot OUT/figs``: the report's 4 figures (heat map in its count, row and column views, and the
   per-label dot plot) drawn with matplotlib as PNG (200 dpi) and SVG, 8 files;
4. a pandas + scikit-learn + matplotlib script (``SKLEARN_SCRIPT`` below, run with ``python -c``):
   ``pandas.read_csv`` of the file, ``classification_report(gold, pred, digits=4, zero_division=0)`` written
   to a text file, and ``ConfusionMatrixDisplay.from_predictions`` drawn twice on a 16 × 16 inch figure
   (counts, and ``normalize="true"``: the row-normalised recall view), each saved as PNG (200 dpi, as
   clfeval's) and SVG: a text report and the count and row-normalised heat maps, 5 files. The labels stay
   strings, as ``read_csv`` gives them.

Median of 3 repeats, round-robin (so drift hits every contender alike); the scikit-learn script at 10^6
lines takes about a minute a run (most of it ``np.unique`` sorting a million Python strings, which
scikit-learn does again in every metric call), so the full run takes 6-7 minutes. Peak RSS: of that one
child process, from ``os.wait4``'s rusage via a tiny launcher process, as in run.py and finagle.py (start-up
and imports included); the highest over the repeats. Output size: of the last run (the outputs are
deterministic).

Check (outside the timings), per N, on the files the last timed runs left: scikit-learn's
``confusion_matrix`` and ``f1_score(average="macro", zero_division=0)`` computed here on the same file, against
each clfeval HTML report (contenders 1-3): the heat map's cells (``<rect class="cell …" … data-text-count="…">``)
must hold the same multiset of counts, and the same counts cell by cell in the report's row/column order,
and the macro F1 in the summary table (the row starting "macro (AF", 4 decimals) must equal scikit-learn's
rounded to 4 decimals; the "macro avg" F1 in contender 4's classification report must be the same number;
contender 3 must have written its 8 figure files and contender 4 its 5 files. The heat map shows at most 40
labels: with 45, clfeval folds the 6 with the least gold support into one "other" row and column, and it
prints counts compactly (``987``, ``1.2k``, ``34k``: a count above 999 is checked to the digits shown); the
check folds and prints scikit-learn's matrix the same way (support order, ties in label order) before
comparing. The script stops with an error when
anything disagrees.

Data: seeded, generated once into ``benchmarks/data/`` (git-ignored) and reused: one instance per line,
``feature gold predicted`` (10 bytes, e.g. ``q T12 T03``): a feature letter, 45 tags T00..T44 with
p ∝ 1/rank (Zipf), correct with probability 0.85, a wrong prediction drawn from the tag distribution, never
the gold tag. Drawn in blocks of 10^6 rows, each seeded with (SEED, block number) (the 10^5 file is a
short block of its own, not a prefix of the 10^6 one).
"""

from __future__ import annotations

import html
import re
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from common import (CLFEVAL, DATA, MIB, PYTHON, ChildRow, commands_section, data_files, log, md_table, measure,
                    ratio_text, seeded_file, start, tag_lines, timing_section, warmed, write_report, wrong_tags,
                    zipf_weights)

OUT = DATA / "report-out"
RESULTS = Path(__file__).resolve().with_suffix(".md")
K = 45  # tags
SEED = 20240607
LINE = 10  # bytes a line
ZIPF = 1.0  # p ∝ 1 / rank^ZIPF
P_CORRECT = 0.85
REPEATS = 3
SIZES = [10**5, 10**6]
CI = ["--ci", "bootstrap", "--seed", "1", "--resamples", "1000"]


# --------------------------------------------------------------------------- data

def _block(block: int, size: int) -> np.ndarray:
    """``size`` lines of block number ``block`` as a (size, 10) uint8 array."""
    rng = np.random.default_rng([SEED, block])
    weights = zipf_weights(K, ZIPF)
    gold = rng.choice(K, size=size, p=weights)
    wrong = wrong_tags(rng, gold, weights)
    pred = np.where(rng.random(size) < P_CORRECT, gold, wrong)
    return tag_lines(rng.integers(0, 26, size=size), gold, pred, LINE)


def timbl_file(n: int, log: Callable[[str], None]) -> Path:
    """The n-line TiMBL-style file (generated once, reused when present and whole)."""
    return seeded_file(DATA / f"report-{n}-seed{SEED}.txt", LINE, n, _block, log)


# the results file's sentence on the data
DATA_TEXT = (f"Data: seeded TiMBL-style text, `feature gold predicted` a line ({LINE} bytes, e.g. `q T12 T03`), "
             f"{K} tags with p ∝ 1/rank^{ZIPF:g}, {100 * P_CORRECT:.0f}% correct, a wrong prediction drawn from the "
             "tag distribution (never the gold tag).")


# --------------------------------------------------------------------------- contenders

# What a user would write for a text report and the count and recall heat maps: python -c SKLEARN_SCRIPT FILE OUT
SKLEARN_SCRIPT = """
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.metrics import ConfusionMatrixDisplay, classification_report

df = pd.read_csv(sys.argv[1], sep=" ", header=None)
gold, pred = df[1], df[2]
out = sys.argv[2]
with open(f"{out}/classification_report.txt", "w") as f:
    f.write(classification_report(gold, pred, digits=4, zero_division=0))
for name, normalize in (("confusion", None), ("confusion-recall", "true")):
    fig, ax = plt.subplots(figsize=(16, 16))  # 45 labels: about a third of an inch a cell
    ConfusionMatrixDisplay.from_predictions(gold, pred, normalize=normalize, xticks_rotation=90, ax=ax,
                                            values_format=".2f" if normalize else "d", text_kw={"fontsize": 6})
    for ext in ("png", "svg"):
        fig.savefig(f"{out}/{name}.{ext}", dpi=200, bbox_inches="tight")
    plt.close(fig)
"""


def clfeval_argv(path: Path, out: Path, extra: list[str]) -> list[str]:
    return [CLFEVAL, "score", str(path), "--format", "html", "-o", str(out / "report.html"), *extra]


# --------------------------------------------------------------------------- measuring

@dataclass(kw_only=True)
class Row(ChildRow):
    out: Path  # the contender's output directory
    repeats: int = REPEATS
    html: bool = True  # writes OUT/report.html
    html_bytes: int = 0
    all_bytes: int = 0
    files: int = 0


def _fresh(row: Row) -> None:
    """Untimed, before every run: an empty output directory."""
    shutil.rmtree(row.out, ignore_errors=True)
    row.out.mkdir(parents=True)


def _sizes(row: Row, rep: int) -> None:
    """After every run: what it wrote (the outputs are deterministic, so the last run's stand for all)."""
    files = [p for p in row.out.rglob("*") if p.is_file()]
    row.files, row.all_bytes = len(files), sum(p.stat().st_size for p in files)
    row.html_bytes = (row.out / "report.html").stat().st_size if row.html else 0


# --------------------------------------------------------------------------- check

def compact(value: float) -> str:
    """A count as the HTML heat map prints it: ``987``, ``1.2k``, ``34k``, ``5.6M`` (written out here, not
    imported from clfeval, so that the check does not take clfeval's word for it)."""
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            scaled = value / size
            return f"{scaled:.1f}{suffix}" if scaled < 10 else f"{scaled:.0f}{suffix}"
    return str(int(value))


def html_heat_map(text: str) -> tuple[list[str], list[str]]:
    """The heat map's row labels and its cells' count texts (row by row), from an HTML report."""
    start = text.index('<svg class="heatmap"')
    svg = text[start:text.index("</svg>", start)]
    labels = [html.unescape(x) for x in re.findall(r'<text [^>]*text-anchor="end"[^>]*class="label"><title>([^<]*)'
                                                   r"</title>", svg)]
    counts = [html.unescape(x) for x in re.findall(r'<rect class="cell[^"]*"[^>]*\bdata-text-count="([^"]*)"', svg)]
    return labels, counts


def html_macro_f1(text: str) -> str:
    """The macro (AF) F1 as the HTML summary prints it (the leading number of its cell)."""
    start = text.index('<section id="summary">')
    summary = text[start:text.index("</section>", start)]
    table = re.search(r'<table class="summary".*?</table>', summary, re.S).group(0)
    heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    column = heads.index("F1")
    for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        if cells and re.sub(r"<[^>]+>", "", cells[0]).startswith("macro (AF"):
            return re.match(r"\s*([-0-9.]+)", cells[column]).group(1)
    raise ValueError("no 'macro (AF' row in the HTML summary")


def expected_heat_map(labels: list[str], matrix: np.ndarray, shown: int) -> tuple[list[str], list[str]]:
    """scikit-learn's matrix as the heat map shows it: labels by gold support (ties in label order); with more than
    ``shown`` labels the least frequent folded into one "other" row and column; counts printed compactly."""
    order = np.lexsort((np.arange(len(labels)), -matrix.sum(axis=1)))
    names = [labels[i] for i in order]
    cells = matrix[np.ix_(order, order)]
    if len(labels) > shown:
        keep, rest = shown - 1, len(labels) - (shown - 1)
        cells = np.vstack([cells[:keep], cells[keep:].sum(axis=0, keepdims=True)])
        cells = np.hstack([cells[:, :keep], cells[:, keep:].sum(axis=1, keepdims=True)])
        names = names[:keep] + [f"other ({rest} labels)"]
    return names, [compact(float(x)) for x in cells.ravel()]


def check(n: int, path: Path, rows: list[Row], log: Callable[[str], None]) -> tuple[str, int]:
    """Every clfeval HTML report's heat map and macro F1 against scikit-learn's on the same file; the
    scikit-learn script's macro F1 and everyone's files. Returns a sentence and the heat map's label count."""
    import pandas as pd
    from sklearn.metrics import confusion_matrix, f1_score

    df = pd.read_csv(path, sep=" ", header=None)
    gold, pred = df[1].to_numpy(dtype=object), df[2].to_numpy(dtype=object)
    labels = sorted(set(gold) | set(pred))
    matrix = confusion_matrix(gold, pred, labels=labels)
    macro = f"{f1_score(gold, pred, average='macro', zero_division=0):.4f}"
    problems = []
    shown = 0
    for row in rows:
        if not row.html:
            continue
        text = (row.out / "report.html").read_text(encoding="utf-8")
        got_labels, got = html_heat_map(text)
        shown = len(got_labels)
        want_labels, want = expected_heat_map(labels, matrix, shown)
        if Counter(got) != Counter(want):
            diff = (Counter(got) - Counter(want)) + (Counter(want) - Counter(got))
            problems.append(f"{row.contender}: heat-map counts differ as multisets ({len(got)} cells vs "
                            f"{len(want)}; e.g. {sorted(diff)[:8]})")
        elif got_labels != want_labels or got != want:
            problems.append(f"{row.contender}: the same counts, but not in the same cells (labels "
                            f"{got_labels[:5]}… vs {want_labels[:5]}…)")
        got_macro = html_macro_f1(text)
        if got_macro != macro:
            problems.append(f"{row.contender}: macro (AF) F1 {got_macro} in the HTML, scikit-learn {macro}")
        if "--plot" in row.argv and row.files != 9:
            problems.append(f"{row.contender}: {row.files} files written, expected report.html and 8 figures")
    sk = next(r for r in rows if not r.html)
    report = (sk.out / "classification_report.txt").read_text()
    sk_macro = re.search(r"^\s*macro avg\s+\S+\s+\S+\s+(\S+)", report, re.M).group(1)
    if sk_macro != macro:
        problems.append(f"{sk.contender}: macro avg F1 {sk_macro} in classification_report, f1_score {macro}")
    if sk.files != 5:
        problems.append(f"{sk.contender}: {sk.files} files written, expected 5")
    if problems:
        raise SystemExit(f"CHECK FAILED at N={n:,}:\n  " + "\n  ".join(problems))
    folded = len(labels) - (shown - 1) if len(labels) > shown else 0
    text = (f"N={n:,}: the heat maps of the {sum(r.html for r in rows)} clfeval reports hold scikit-learn's "
            f"`confusion_matrix` ({len(labels)} × {len(labels)}"
            + (f", the {folded} labels with least gold support folded into 'other': {shown} × {shown} cells"
               if folded else "") +
            f"): the same multiset of counts, and the same count in every cell; macro (AF) F1 {macro} in every "
            f"HTML summary, in `f1_score(average=\"macro\")` and in the classification report's macro avg row")
    log(f"check {text}")
    return text, shown


# --------------------------------------------------------------------------- report

def results_table(rows: list[Row]) -> list[str]:
    head = ["contender", "N", "reps", "median s", "min s", "× html", "peak RSS MiB", "report.html bytes",
            "all files bytes"]
    body = []
    for row in rows:
        base = next(r for r in rows if r.n == row.n and r.reference)
        body.append([row.contender, f"{row.n:,}", str(len(row.times)), f"{row.median:.2f}", f"{min(row.times):.2f}",
                     ratio_text(row.median / base.median), f"{max(row.rss) / MIB:,.0f}",
                     f"{row.html_bytes:,}" if row.html else "–", f"{row.all_bytes:,} ({row.files} files)"])
    return md_table(head, body, right={1, 2, 3, 4, 5, 6, 7, 8})


def reading(rows: list[Row], sizes: list[int], shown: int) -> str:
    """A few sentences on the table."""
    at = {n: [r for r in rows if r.n == n] for n in sizes}  # [html, ci, plot, sklearn]

    def each(f: Callable[[list[Row]], str]) -> str:
        return " and ".join(f"{f(at[n])} ({n:,} lines)" for n in sizes)

    # what the sentences say of N is read off the table: --plot's added seconds within 25% of each other at every
    # N; the scikit-learn script's time growing by more than half from the smallest N to the largest
    added = [at[n][2].median - at[n][0].median for n in sizes]
    steady = len(sizes) > 1 and max(added) <= 1.25 * min(added)
    grows = len(sizes) > 1 and at[sizes[-1]][3].median > 1.5 * at[sizes[0]][3].median
    text = (f"The HTML report alone takes {each(lambda r: f'{r[0].median:.2f} s')}; 1,000 bootstrap resamples add "
            f"{each(lambda r: f'{r[1].median - r[0].median:.2f} s')}. `--plot` (the same page plus 8 matplotlib "
            f"files) adds {each(lambda r: f'{r[2].median - r[0].median:.1f} s')}, "
            f"{each(lambda r: ratio_text(r[2].median / r[0].median))} the page's time"
            + (", about the same seconds at every N" if steady else "") +
            f": matplotlib drawing three heat maps of {shown} × {shown} numbered cells and a dot plot, each as PNG "
            "and SVG" + (", work that does not grow with the file" if steady else "") + ". The "
            "pandas + scikit-learn + matplotlib script (two heat maps of "
            f"{K} × {K} cells and a text report) takes {each(lambda r: ratio_text(r[3].median / r[0].median))} the "
            f"HTML page's time and {each(lambda r: ratio_text(r[3].median / r[2].median))} that of `--plot`, at "
            f"{each(lambda r: f'{max(r[3].rss) / max(r[0].rss):.1f}×')} the page's peak RSS"
            + ("; its time grows with N because scikit-learn sorts the string labels (`np.unique` on an object "
               "array) again in every metric call." if grows else "."))
    return text


def main() -> int:
    session = start(__doc__, RESULTS)
    sizes = SIZES[:1] if session.args.quick else SIZES

    paths = data_files(sizes, timbl_file)

    all_rows: list[Row] = []
    checks: list[str] = []
    for n, path in warmed(paths):
        out = {key: OUT / f"{key}-{n}" for key in ("html", "ci", "plot", "sklearn")}
        rows = [
            Row("clfeval score --format html", n, clfeval_argv(path, out["html"], []), out=out["html"],
                reference=True),
            Row("… --ci bootstrap --resamples 1000", n, clfeval_argv(path, out["ci"], CI), out=out["ci"]),
            Row("… --plot OUT/figs", n, clfeval_argv(path, out["plot"], ["--plot", str(out["plot"] / "figs")]),
                out=out["plot"]),
            Row("pandas + sklearn + matplotlib", n, [PYTHON, "-c", SKLEARN_SCRIPT, str(path), str(out["sklearn"])],
                out=out["sklearn"], html=False),
        ]
        log(f"N={n:,}: {path.name} ({path.stat().st_size / 1e6:,.0f} MB), round-robin repeats")
        measure(rows, log, width=44, before=_fresh, after=_sizes)
        text, shown = check(n, path, rows, log)
        checks.append(text)
        all_rows += rows

    sections = timing_section("HTML report vs pandas + scikit-learn + matplotlib, end to end (one subprocess each)",
                              results_table(all_rows),
                              "× html: median / the plain `--format html` row's median at the same N; peak RSS: the "
                              "highest over the repeats; bytes: the files the last run wrote (report.html; everything "
                              "in its output directory).")
    sections += [reading(all_rows, sizes, shown), ""]
    sections += commands_section(["clfeval score FILE --format html -o OUT/report.html",
                                  "clfeval score FILE --format html -o OUT/report.html " + " ".join(CI),
                                  "clfeval score FILE --format html -o OUT/report.html --plot OUT/figs",
                                  "python -c \"$SKLEARN_SCRIPT\" FILE OUT   # below"],
                                 [("`SKLEARN_SCRIPT`", SKLEARN_SCRIPT)])
    write_report(session, "clfeval HTML report benchmark", "report.py",
                 ["numpy", "polars", "pandas", "scikit-learn", "matplotlib"], DATA_TEXT, sections, checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
