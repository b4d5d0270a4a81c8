"""Counting engines: who reads the files and counts their label rows, this process or a Dask cluster.

Every engine returns the same :class:`~clfeval.inputs.embedded.Cells` (unique label rows with
counts); parsing label sets, scoring, intervals and tests then run here on the counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clfeval.errors import OptionError, unknown_name
from clfeval.inputs.chunks import ReadProgress, expand_paths
from clfeval.inputs.columns import Column
from clfeval.inputs.embedded import Cells, read_cells
from clfeval.inputs.formats import TableOptions

__all__ = ["ENGINES", "Engine"]

#: Counting engines, by name.
ENGINES: Mapping[str, str] = {
    "polars": "the embedded reader: polars on this machine, a chunk at a time, in bounded memory (default)",
    "dask": "a Dask cluster (--scheduler ADDRESS, default: a local one) counts each partition and the sums come "
    "back; Parquet and CSV/TSV/text, local paths, globs and any fsspec URL; needs clfeval[dask]",
}


@dataclass(frozen=True)
class Engine:
    """Which engine counts, where, and whom it tells about its progress.

    Attributes
    ----------
    name
        A name from :data:`ENGINES`.
    scheduler
        The Dask scheduler: an address (``tcp://host:8786``), a ``distributed.Client``, or
        ``None`` for a local cluster started for the call. Dask only.
    progress
        Called as ``progress(bytes_done, bytes_total, rows_done)`` while reading (the embedded engine).
    """

    name: str = "polars"
    scheduler: Any = None
    progress: ReadProgress | None = None

    def __post_init__(self) -> None:
        if self.name not in ENGINES:
            raise unknown_name("engine", self.name, ENGINES)
        if self.scheduler is not None and self.name != "dask":
            raise OptionError("--scheduler applies to the dask engine only (--engine dask)")

    def cells(
        self,
        paths: str | Sequence[str],
        columns: Sequence[Column],
        roles: Sequence[str],
        options: TableOptions = TableOptions(),
        *,
        empty_ok: bool = False,
    ) -> Cells:
        """Count the unique rows of ``columns`` across ``paths`` (paths, globs; remote URLs with Dask)."""
        specs = [paths] if isinstance(paths, str) else list(paths)
        if self.name == "dask":
            from clfeval.inputs.cluster import cluster_cells

            return cluster_cells(specs, columns, roles, options, scheduler=self.scheduler, empty_ok=empty_ok)
        return read_cells(expand_paths(specs), columns, roles, options, empty_ok=empty_ok, progress=self.progress)

    def line_order(self) -> None:
        """Refuse line-by-line pairing of separate files on engines that cannot keep line order."""
        if self.name != "polars":
            raise OptionError(
                f"the {self.name} engine counts tables that hold every label column (one file or "
                "many parts with the same columns); pairing a gold file with prediction files line by "
                "line needs the embedded engine (--engine polars)"
            )
