"""Output files written whole or not at all: a temporary file beside the target, then a rename.

A full disk, a file-size limit or Ctrl-C in the middle of writing a report, a count file or a
figure leaves the target as it was (absent, or its earlier content) and no temporary file behind.
Targets that are not regular files (``/dev/stdout``, a named pipe) are written directly: they
cannot be renamed over.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress

__all__ = ["atomic_path", "write_text"]


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """A temporary path beside ``path`` to write to; on leaving the block without an error it replaces ``path``,
    on an error (or an interrupt) it is removed and ``path`` is left as it was."""
    target = os.fspath(path)
    try:
        special = not stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        special = False
    if special:
        yield target
        return
    directory, name = os.path.split(os.path.abspath(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=directory)
    os.close(handle)
    try:
        yield temporary
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it
        os.replace(temporary, target)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
