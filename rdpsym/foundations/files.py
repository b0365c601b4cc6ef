"""Files written whole or not at all: a failed or interrupted write leaves the previous file as it was.

Every file rdpsym writes (a command's ``--json``, ``--latex``, ``--pdf``, ``--markdown``, ``--output``, the
reference tables) goes through :func:`replace_together`: each new content is written to a temporary file in
the destination's own folder (so that the final rename stays on one file system), flushed to the disk, and
only when *every* file of the set is written are they renamed over the old ones (``os.replace``, atomic on
POSIX and Windows).  A full disk, a file-size limit, an exception or a signal in the middle leaves the old
files intact and no temporary file behind; files written together (the reference's JSON and CSV) are
replaced as a set.  (Before, ``rdpsym reference --dps 40`` under ``ulimit -f 4`` replaced a good JSON by a
truncated one beside the old CSV.)

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> replace_together({folder / "a.json": '{"x": 1}\\n', folder / "a.csv": "x\\n1\\n"})
[...a.json'), ...a.csv')]
>>> def broken(path):
...     path.write_text("half")
...     raise OSError(27, "File too large")
>>> replace_together({folder / "a.json": '{"x": 2}\\n', folder / "a.csv": broken})
Traceback (most recent call last):
...
OSError: [Errno 27] File too large
>>> (folder / "a.json").read_text(), sorted(p.name for p in folder.iterdir())
('{"x": 1}\\n', ['a.csv', 'a.json'])
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path

#: What :func:`replace_together` writes into a file: text (UTF-8), bytes, or a function that writes the file
#: at the temporary path it is given (a plotting library's ``savefig``, a CSV writer, a copy).
Content = str | bytes | Callable[[Path], object]


def _temporary(path: Path) -> Path:
    """A fresh name beside ``path``, hidden, that no other writer picks (its random part)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


def _write(temporary: Path, content: Content) -> None:
    if callable(content):
        # created first with the process's umask (0o666 & ~umask), as an ordinary open() would: a function
        # that writes by name (savefig) then keeps those permissions
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        content(temporary)
        if not temporary.exists():
            raise OSError(f"nothing was written to {temporary}")
    else:
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    with open(temporary, "rb+") as fh:  # flushed to the disk before it replaces anything
        os.fsync(fh.fileno())


def replace_together(contents: Mapping[Path | str, Content]) -> list[Path]:
    """Write every file of ``contents`` (path → content) to a temporary file beside it, then replace the
    old files by the new ones; return the paths.  If any write fails, nothing is replaced, every temporary
    file is removed and the error is raised."""
    paths = [Path(p) for p in contents]
    written: list[tuple[Path, Path]] = []
    try:
        for path, content in zip(paths, contents.values()):
            temporary = _temporary(path)
            written.append((temporary, path))
            _write(temporary, content)
        for temporary, path in written:
            os.replace(temporary, path)
        return paths
    finally:
        for temporary, _ in written:
            if temporary.exists():
                temporary.unlink()


def replace_file(path: Path | str, content: Content) -> Path:
    """One file, written whole or not at all (:func:`replace_together` of one)."""
    return replace_together({path: content})[0]


__all__ = ["Content", "replace_file", "replace_together"]
