"""The package version (one place)."""

__version__ = "0.2.0"
