"""Write the bundled NER example (examples/ner-*.conll): invented sentences with person, location and organisation
names, gold IOB2 tags, and two taggers' outputs with typical errors (a missed or spurious name, a wrong type, a
boundary one token off, I- where B- belongs). Deterministic (seeded); run from the repository root:

    .venv/bin/python tools/ner_example.py
"""

from __future__ import annotations

import random
from pathlib import Path

FIRST = ["Anna", "Pieter", "Maria", "Jan", "Sofia", "Walter", "Ines", "Karel", "Lotte", "Tomas"]
LAST = ["de Vries", "Janssens", "Peeters", "Maes", "Smit", "Claes", "Visser", "Wouters"]
PLACES = ["Antwerp", "Tilburg", "Ghent", "Utrecht", "Leuven", "New York", "Rotterdam", "Buenos Aires"]
ORGS = ["Acme Shipping", "the University of Antwerp", "Nordic Rail", "Volta Energy", "the Tilburg Council"]
VERBS = ["met", "called", "visited", "left", "joined", "praised", "criticised"]
FILLER = ["on", "Monday", "after", "the", "meeting", "in", "a", "statement", "said", "that", "it", "would", "grow"]


def _name(rng: random.Random) -> tuple[list[str], str]:
    kind = rng.choice(["PER", "PER", "LOC", "ORG"])
    if kind == "PER":
        words = [rng.choice(FIRST), *rng.choice(LAST).split()] if rng.random() < 0.7 else [rng.choice(FIRST)]
    elif kind == "LOC":
        words = rng.choice(PLACES).split()
    else:
        words = rng.choice(ORGS).split()
        if words[0] == "the":
            return words, kind  # "the" is tagged as part of the organisation's name
    return words, kind


def sentence(rng: random.Random) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for _ in range(rng.randint(1, 3)):
        words, kind = _name(rng)
        out += [(w, ("B-" if i == 0 else "I-") + kind) for i, w in enumerate(words)]
        out.append((rng.choice(VERBS), "O"))
        out += [(w, "O") for w in rng.sample(FILLER, rng.randint(1, 4))]
    out.append((".", "O"))
    return out


def tagger(rng: random.Random, gold: list[str], error: float) -> list[str]:
    tags = list(gold)
    for i, tag in enumerate(gold):
        if tag.startswith("B-") and rng.random() < error:
            kind = tag[2:]
            what = rng.choice(["missed", "type", "short", "i-for-b"])
            end = i + 1
            while end < len(gold) and gold[end] == "I-" + kind:
                end += 1
            if what == "missed":
                tags[i:end] = ["O"] * (end - i)
            elif what == "type":
                other = rng.choice([k for k in ("PER", "LOC", "ORG") if k != kind])
                tags[i:end] = ["B-" + other] + ["I-" + other] * (end - i - 1)
            elif what == "short" and end - i > 1:
                tags[end - 1] = "O"
            else:
                tags[i] = "I-" + kind
        elif tag == "O" and rng.random() < error / 8:
            tags[i] = "B-" + rng.choice(["PER", "LOC", "ORG"])
    return tags


def main() -> None:
    rng = random.Random(2026)
    sentences = [sentence(rng) for _ in range(400)]
    files = {"gold": [[t for _, t in s] for s in sentences]}
    files["tagger-a"] = [tagger(rng, g, 0.08) for g in files["gold"]]
    files["tagger-b"] = [tagger(rng, g, 0.12) for g in files["gold"]]
    for name, tags in files.items():
        lines = []
        for i, (s, t) in enumerate(zip(sentences, tags)):
            if i % 20 == 0:
                lines += ["-DOCSTART- O", ""]
            lines += [f"{w} {tag}" for (w, _), tag in zip(s, t)] + [""]
        Path("examples", f"ner-{name}.conll").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
