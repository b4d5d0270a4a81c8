"""Write examples/loans.tsv: a synthetic credit-approval audit set for docs/slices.md (deterministic, seed 39).

1,500 applicants with a sex and an age band; ``repaid`` is the gold label (1: the loan would be repaid), ``approved``
a model's decision. The model is built to be worse for applicants under 30: it approves fewer of those who would
repay (a lower true positive rate), the harm an equal-opportunity audit looks for.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def main() -> None:
    rng = np.random.default_rng(39)
    n = 1500
    sex = rng.choice(["female", "male"], n, p=[0.45, 0.55])
    age = rng.choice(["under-30", "30-50", "over-50"], n, p=[0.3, 0.45, 0.25])
    repaid = (rng.random(n) < np.where(age == "under-30", 0.55, 0.65)).astype(int)
    tpr = np.where(age == "under-30", 0.68, 0.84)
    fpr = np.where(age == "under-30", 0.18, 0.22)
    approved = np.where(repaid == 1, rng.random(n) < tpr, rng.random(n) < fpr).astype(int)
    lines = ["sex\tage\trepaid\tapproved"] + [f"{s}\t{a}\t{g}\t{p}" for s, a, g, p in zip(sex, age, repaid, approved)]
    out = Path(__file__).resolve().parent.parent / "examples" / "loans.tsv"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
