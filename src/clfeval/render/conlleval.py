"""``--format conlleval``: a span result as conlleval.pl prints it, byte for byte, so scripts that parse it keep
working.

conlleval.pl (CoNLL-2000, version 2004-01-26) computes in percent: P = 100·correct/found, R = 100·correct/gold,
FB1 = 2PR/(P + R), each printed with ``%6.2f``; a type's last number is its count of *predicted* spans. Its own
quirks are kept: ``-DOCSTART-`` lines are counted as tokens (tagged right), the accuracy line is left out when there
is no token, a type named ``0`` is printed as an empty name (Perl's truth), and an empty name is printed once for the
gold column and once more for the predictions; names are right-aligned in 17 *bytes*.
"""

from __future__ import annotations

from typing import Any

from clfeval.errors import OptionError

__all__ = ["render_conlleval"]


def _name(kind: str) -> str:
    return "" if kind == "0" else kind


def _padded(name: str) -> str:
    return " " * max(0, 17 - len(name.encode("utf-8"))) + name


def render_conlleval(result: Any, **options: Any) -> str:
    """conlleval.pl's report of a span result (``clfeval score --spans … --format conlleval``), or of span counts
    themselves (a file without a span has no scores, but conlleval.pl reports it)."""
    from clfeval.kinds import kind_of

    counts: Any = result if kind_of(result) is not None else getattr(result, "counts", None)
    kind = kind_of(counts)
    if kind is None or "conlleval" not in kind.formats or counts.tokens is None:  # the spans of tags alone
        raise OptionError("--format conlleval prints conlleval.pl's report of spans read from tags (score --spans)")
    found_gold: dict[str, int] = {}
    found_pred: dict[str, int] = {}
    correct: dict[str, int] = {}
    for kind, (tp, fp, fn) in counts.type_counts().items():
        name = _name(kind)
        if tp + fn:
            found_gold[name] = found_gold.get(name, 0) + tp + fn
        if tp + fp:
            found_pred[name] = found_pred.get(name, 0) + tp + fp
        correct[name] = correct.get(name, 0) + tp
    n_gold, n_pred, n_correct = sum(found_gold.values()), sum(found_pred.values()), sum(correct.values())
    tokens = counts.tokens.tokens + counts.tokens.docstart
    right = counts.tokens.right + counts.tokens.docstart
    out = [f"processed {tokens} tokens with {n_gold} phrases; found: {n_pred} phrases; correct: {n_correct}.\n"]
    if tokens > 0:
        p = 100 * n_correct / n_pred if n_pred > 0 else 0.0
        r = 100 * n_correct / n_gold if n_gold > 0 else 0.0
        f = 2 * p * r / (p + r) if p + r > 0 else 0.0
        out.append(f"accuracy: {100 * right / tokens:6.2f}%; precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {f:6.2f}\n")
    last: str | None = None
    for name in sorted([*found_gold, *found_pred], key=lambda s: s.encode("utf-8")):
        if last and name == last:  # conlleval.pl keeps a repeat of a name Perl reads as false (the empty name)
            continue
        last = name
        tp, predicted, gold = correct.get(name, 0), found_pred.get(name, 0), found_gold.get(name, 0)
        p = 100 * tp / predicted if predicted else 0.0
        r = 100 * tp / gold if gold else 0.0
        f = 0.0 if p + r == 0.0 else 2 * p * r / (p + r)
        out.append(f"{_padded(name)}: precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {f:6.2f}  {predicted}\n")
    return "".join(out)
