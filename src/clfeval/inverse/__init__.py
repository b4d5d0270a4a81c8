"""Reading other people's numbers: reported scores back into counts (convert); which average a table reports (audit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval._lazy import lazy_names

if TYPE_CHECKING:
    from clfeval.inverse.audit import AUDIT_SCHEMA, CANDIDATES, Audit, AverageAudit, LabelAudit, audit_table
    from clfeval.inverse.conversion import (
        COUNT_QUANTITIES,
        QUANTITIES,
        BinaryTable,
        Conversion,
        LabelConversion,
        Reported,
        convert,
        convert_labels,
        reported,
    )


__all__ = [
    "AUDIT_SCHEMA",
    "CANDIDATES",
    "COUNT_QUANTITIES",
    "QUANTITIES",
    "Audit",
    "AverageAudit",
    "BinaryTable",
    "Conversion",
    "LabelAudit",
    "LabelConversion",
    "Reported",
    "audit_table",
    "convert",
    "convert_labels",
    "reported",
]

#: Each public name and the module that defines it (loaded on first use: clfeval/_lazy.py).
_HOMES: dict[str, str] = {
    "AUDIT_SCHEMA": "clfeval.inverse.audit",
    "CANDIDATES": "clfeval.inverse.audit",
    "Audit": "clfeval.inverse.audit",
    "AverageAudit": "clfeval.inverse.audit",
    "LabelAudit": "clfeval.inverse.audit",
    "audit_table": "clfeval.inverse.audit",
    "COUNT_QUANTITIES": "clfeval.inverse.conversion",
    "QUANTITIES": "clfeval.inverse.conversion",
    "BinaryTable": "clfeval.inverse.conversion",
    "Conversion": "clfeval.inverse.conversion",
    "LabelConversion": "clfeval.inverse.conversion",
    "Reported": "clfeval.inverse.conversion",
    "convert": "clfeval.inverse.conversion",
    "convert_labels": "clfeval.inverse.conversion",
    "reported": "clfeval.inverse.conversion",
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES)
