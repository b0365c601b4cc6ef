"""Files written whole or not at all: a failed or interrupted write leaves the previous file as it was.

Every file rdpsym writes (a command's ``--json``, ``--latex``, ``--pdf``, ``--markdown``, ``--output``, the
reference tables) goes through :func:`replace_together`: each new content is written to a temporary file in
the destination's own folder (so that the final rename stays on one file system), flushed to the disk, and
only when *every* file of the set is written are they renamed over the old ones (``os.replace``, atomic on
POSIX and Windows).  A full disk, a file-size limit, an exception or a signal in the middle leaves the old
files intact and no temporary file behind; files written together (the reference's JSON and CSV) are
replaced as a set.  (Before, ``rdpsym reference --dps 40`` under ``ulimit -f 4`` replaced a good JSON by a
truncated one beside the old CSV.)

A destination that is a character device or a FIFO (``--json /dev/null``, ``/dev/stdout``, a pipe), or a link to
one, is written *into*, never replaced, once every regular file of the set is in place: renaming over them, run
as root, turned ``/dev/null`` into a regular file for every process on the machine.  A link to anything else is
replaced like a file, never its target: following it would let a link planted in a shared folder such as /tmp
choose which file is overwritten, past the kernel's protected_symlinks (a reviewer did so as root).  An output
option's checks, :func:`rdpsym.cli.output.check_path`, refuse block devices and sockets before any work.

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
import stat
import tempfile
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


def is_special(path: Path | str) -> bool:
    """Whether ``path`` exists and is not a regular file or a folder (a device, a FIFO, a socket), links
    followed: such a destination is written into, never renamed over.

    >>> is_special("/dev/null"), is_special(__file__)
    (True, False)
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _as_bytes(path: Path, content: Content) -> bytes:
    """The bytes ``content`` makes, a function's written to a private temporary folder (named like ``path``:
    a writer may read the format from the name)."""
    if not callable(content):
        return content.encode("utf-8") if isinstance(content, str) else bytes(content)
    with tempfile.TemporaryDirectory(prefix="rdpsym-") as folder:
        temporary = Path(folder) / path.name
        _write(temporary, content)
        return temporary.read_bytes()


def replace_together(contents: Mapping[Path | str, Content], *, follow: bool = True) -> list[Path]:
    """Write every file of ``contents`` (path → content) to a temporary file beside it, then replace the
    old files by the new ones; return the paths.  If any write fails, nothing is replaced, every temporary
    file is removed and the error is raised.  With ``follow`` (the outputs a user names), a device or FIFO, or a
    link to one, is written into after the regular files are replaced (opened by its path: the kernel follows the
    link, with its protections); without (rdpsym's own files: the cache), whatever is at the path is replaced."""
    paths = [Path(p) for p in contents]
    written: list[tuple[Path, Path]] = []
    into: list[tuple[Path, bytes]] = []
    try:
        for path, content in zip(paths, contents.values()):
            if follow and is_special(path):
                into.append((path, _as_bytes(path, content)))
                continue
            temporary = _temporary(path)
            written.append((temporary, path))
            _write(temporary, content)
        for temporary, target in written:
            os.replace(temporary, target)
        for target, data in into:
            with open(target, "wb") as fh:
                fh.write(data)
        return paths
    finally:
        for temporary, _ in written:
            if temporary.exists():
                temporary.unlink()


def replace_file(path: Path | str, content: Content, *, follow: bool = True) -> Path:
    """One file, written whole or not at all (:func:`replace_together` of one)."""
    return replace_together({path: content}, follow=follow)[0]


__all__ = ["Content", "is_special", "replace_file", "replace_together"]
