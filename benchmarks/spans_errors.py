"""clfeval span benchmark by error rate: ``clfeval score FILE --spans`` (conlleval.pl's report and the JSON report)
against ``perl conlleval.pl < FILE`` and a bare ``polars.read_csv`` of the same file, from a perfect tagger to a
bad one, and at 10^5 and 10^6 sentences, with peak memory.

    python benchmarks/spans_errors.py              # six error rates at 2·10^5 sentences; 10^5 and 10^6 at FB1 ~50
    python benchmarks/spans_errors.py --quick      # 2·10^4 sentences, 10^4 / 10^5: a check that everything runs
    python benchmarks/spans_errors.py --repeats 3  # runs of each row (median reported; default 3)

Prints Markdown tables and writes the same text to ``benchmarks/spans_errors.md``.

Data: benchmarks/spans.py's seeded synthetic NER (gold IOB2 tags over PER, LOC, ORG, MISC in sentences of 1 + a
negative binomial of mean 14 tokens, ``word POS gold pred`` lines, a ``-DOCSTART-`` line every 25,000 sentences);
the tagger replaces each token's tag, with probability q, by one of the nine tags drawn uniformly (the errors that
split, merge and retype spans, where partial matching has the most to resolve). q = 0, 0.025, 0.055, 0.12, 0.16 and
0.23 give FB1 near 100, 88, 77, 60, 50 and 40 (the FB1 column is conlleval.pl's own). Files are generated once into
benchmarks/data/ (git-ignored) and reused.

Rows, each one fresh child process started by common.py's launcher (wall time of the whole child, interpreter
start-up and imports included; peak RSS from ``os.wait4``'s rusage of that child):

- ``clfeval score FILE --spans --format conlleval`` (exact matching alone: the partial-match modes are not counted);
- ``clfeval score FILE --spans --format json`` (everything: the modes and the span confusion too);
- ``perl conlleval.pl < FILE`` (benchmarks/data/conlleval.pl, sha256 checked);
- ``python -c "pl.read_csv(FILE, separator=' ', has_header=False, quote_char=None, infer_schema=False)"``: polars
  reading the file's fields as clfeval's reader does, and nothing else.

Checks: ``--format conlleval`` prints conlleval.pl's report byte for byte, and the JSON's span counts (gold,
predicted, correct) equal conlleval.pl's, its micro precision, recall and F1 within conlleval.pl's two decimals.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
from common import DATA, MIB, PYTHON, ChildRow, log, md_table, measure, start, write_report
from spans import BLOCK, CONLLEVAL, CONLLEVAL_SHA256, SEED, conll_text, from_conlleval, gold_tags

RESULTS = Path(__file__).resolve().parent / "spans_errors.md"
#: token error rates q and the FB1 they give (about)
RATES = {0.0: 100, 0.025: 88, 0.055: 77, 0.12: 60, 0.16: 50, 0.23: 40}
SIZE = 200_000  # sentences of the error-rate files
SIZES = (100_000, 1_000_000)  # the memory rows: sentences, at SIZES_RATE
SIZES_RATE = 0.16
QUICK = 10  # --quick divides every size by this
NOISE_STREAM = 7_000_000  # the tagger's seed: SeedSequence([SEED, NOISE_STREAM, block]), apart from spans.py's
N_TAGS = 9  # O, B-/I- of the four types

POLARS = (
    "import sys, polars as pl; "
    "pl.read_csv(sys.argv[1], separator=' ', has_header=False, quote_char=None, infer_schema=False)"
)
ROWS = {
    "conlleval": "clfeval score FILE --spans --format conlleval",
    "json": "clfeval score FILE --spans --format json",
    "perl": "perl conlleval.pl < FILE",
    "polars": "polars.read_csv(FILE, separator=' ', …)",
}


def noisy_file(n_sentences: int, q: float) -> Path:
    """The seeded CoNLL file of ``n_sentences`` sentences whose predicted tags are gold's with token noise ``q``."""
    path = DATA / f"spans-errors-{n_sentences}-q{q:g}-seed{SEED}.conll"
    if path.exists():
        return path
    log(f"generating {path.name}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as out:
        for number, first in enumerate(range(0, n_sentences, BLOCK)):
            rng = np.random.default_rng(np.random.SeedSequence([SEED, number]))
            gold, lengths = gold_tags(rng, min(BLOCK, n_sentences - first))
            noise = np.random.default_rng(np.random.SeedSequence([SEED, NOISE_STREAM, number]))
            pred = gold.copy()
            hit = noise.random(len(gold)) < q
            pred[hit] = noise.integers(0, N_TAGS, int(hit.sum()))
            out.write(conll_text(rng, first, lengths, [gold, pred]))
    tmp.replace(path)
    return path


def argv(row: str, path: Path) -> list[str]:
    if row == "perl":  # conlleval.pl reads standard input; exec: the measured process is perl itself
        return ["/bin/sh", "-c", 'exec perl "$0" < "$1"', str(CONLLEVAL), str(path)]
    if row == "polars":
        return [PYTHON, "-c", POLARS, str(path)]
    return [PYTHON, "-m", "clfeval", "score", str(path), "--spans", "--format", row]


def check(rows: dict[str, ChildRow], label: str, checks: list[str]) -> float:
    """The rows' outputs against conlleval.pl's; its FB1."""
    perl_text = Path(rows["perl"].stdout).read_text()  # type: ignore[arg-type]
    perl = from_conlleval(perl_text)
    if Path(rows["conlleval"].stdout).read_text() != perl_text:  # type: ignore[arg-type]
        raise SystemExit(f"CHECK FAILED: {label}: --format conlleval differs from conlleval.pl's report")
    data = json.loads(Path(rows["json"].stdout).read_text())  # type: ignore[arg-type]
    spans, micro = data["spans"]["n_spans"], data["averages"]["micro"]
    for key in ("gold", "predicted", "correct"):
        if spans[key] != perl[key]:
            raise SystemExit(f"CHECK FAILED: {label}: JSON {key} {spans[key]} != conlleval.pl's {perl[key]}")
    for key, ours in (("precision", micro["precision"]), ("recall", micro["recall"]), ("f1", micro["f1"])):
        if abs(ours - perl[key]) > 0.005 / 100 + 1e-12:
            raise SystemExit(f"CHECK FAILED: {label}: JSON {key} {ours} vs conlleval.pl's {perl[key]}")
    checks.append(
        f"{label}: `--format conlleval` equals conlleval.pl's report byte for byte; the JSON's gold, predicted and "
        f"correct spans ({perl['gold']:,}, {perl['predicted']:,}, {perl['correct']:,}) equal conlleval.pl's, its "
        "micro P, R, F1 within its two decimals"
    )
    return perl["f1"] * 100


def table(results: list[tuple[str, float, dict[str, ChildRow]]], first: str) -> list[str]:
    head = [first, "FB1", *(f"{ROWS[r]}" for r in ROWS), "perl ÷ conlleval", "perl ÷ json", "json ÷ polars"]
    body = []
    for label, f1, rows in results:
        cells = [f"{rows[r].median:.2f} s, {max(rows[r].rss) / MIB:.0f} MiB" for r in ROWS]
        perl, conll, js, pol = (rows[r].median for r in ("perl", "conlleval", "json", "polars"))
        body.append([label, f"{f1:.2f}", *cells, f"{perl / conll:.1f}×", f"{perl / js:.1f}×", f"{js / pol:.1f}×"])
    return md_table(head, body, set(range(1, len(head))))


def main() -> None:
    def extra(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--repeats", type=int, default=3, help="runs of each row (default %(default)s)")

    session = start(__doc__, RESULTS, extra)
    args = session.args
    if not CONLLEVAL.exists() or hashlib.sha256(CONLLEVAL.read_bytes()).hexdigest() != CONLLEVAL_SHA256:
        raise SystemExit(f"put conlleval.pl (sha256 {CONLLEVAL_SHA256[:8]}…) at {CONLLEVAL}: see spans.py")
    scale = QUICK if args.quick else 1
    out_dir = DATA / "spans-errors-out"
    out_dir.mkdir(parents=True, exist_ok=True)
    checks: list[str] = []

    def repeats(row: str, n: int) -> int:  # conlleval.pl on the largest file (a minute or more): once
        return 1 if row == "perl" and n > SIZE // scale else args.repeats

    def run(path: Path, n: int, tag: str) -> dict[str, ChildRow]:
        rows = {
            r: ChildRow(f"{ROWS[r]} [{tag}]", n, argv(r, path), repeats=repeats(r, n), stdout=out_dir / f"{tag}.{r}")
            for r in ROWS
        }
        measure(list(rows.values()), log, width=70)
        return rows

    by_rate = []
    for q in RATES:
        n = SIZE // scale
        rows = run(noisy_file(n, q), n, f"q{q:g}")
        by_rate.append((f"q = {q:g}", check(rows, f"{n:,} sentences, q = {q:g}", checks), rows))
    by_size = []
    for size in SIZES:
        n = size // scale
        rows = run(noisy_file(n, SIZES_RATE), n, f"n{n}")
        by_size.append((f"{n:,} sentences", check(rows, f"{n:,} sentences, q = {SIZES_RATE:g}", checks), rows))
    growth = {r: max(by_size[1][2][r].rss) / max(by_size[0][2][r].rss) for r in ROWS}
    sections = [
        f"### By error rate ({SIZE // scale:,} sentences)",
        "",
        *table(by_rate, "tagger"),
        "Wall time of the whole child process (interpreter start-up and imports included), median of "
        f"{args.repeats} runs (conlleval.pl on the largest file: one), and its peak RSS (the largest of the runs); "
        "the ratios are of the medians.",
        "",
        f"### By size (q = {SIZES_RATE:g})",
        "",
        *table(by_size, "file"),
        "Peak RSS from the smaller file to the larger: "
        + ", ".join(f"{ROWS[r]} {growth[r]:.2f}×" for r in ROWS)
        + ".",
        "",
        "### Commands",
        "",
        "```",
        *(ROWS[r] if r != "polars" else f'python -c "{POLARS}" FILE' for r in ROWS),
        "```",
        "",
    ]
    data = (
        "Data: " + __doc__.split("Data: ")[1].split("\n\n")[0].replace("\n", " ") + " Sizes: "
        f"{SIZE // scale:,} sentences by error rate; {', '.join(f'{s // scale:,}' for s in SIZES)} sentences at "
        f"q = {SIZES_RATE:g}."
    )
    write_report(session, "Spans by error rate: clfeval, conlleval.pl and polars", "spans_errors.py", ["polars"],
                 data, sections, checks)  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
