"""Reading other people's numbers: reported scores back into counts (convert); which average a table reports (audit)."""

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
