"""Reading other people's numbers: reported scores back into counts (convert)."""

from clfeval.inverse.tables import (COUNT_QUANTITIES, QUANTITIES, BinaryTable, Conversion, LabelConversion, Reported,
                                    convert, convert_labels, reported)

__all__ = ["COUNT_QUANTITIES", "QUANTITIES", "BinaryTable", "Conversion", "LabelConversion", "Reported", "convert",
           "convert_labels", "reported"]
