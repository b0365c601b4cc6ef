"""Claim files found and loaded: the first stage of ``rdpsym check``, run in a worker or in this process.

A claim file is a Python file that defines ``CLAIMS`` (a list of
:class:`~rdpsym.claims.Claim`) or ``CLAIM`` (one).  Loading it must do no work
beyond building those objects.  A file that does not load, or defines no
claims, becomes a :class:`LoadFailure` naming the file, the line and the problem
(a syntax error by its line in the file, not in Python's import machinery); the
other files still run.  A file of the built-in catalogue (:func:`catalogue_path`)
is imported as the module of :mod:`rdpsym.catalogue` it is; any other from its
path.  :class:`_Loader` collects the claims file by file (a claim id defined twice
is a failure of the second file).

Separate from the checking (:mod:`rdpsym.claims.runner`) and from the worker
processes (:mod:`rdpsym.claims.worker`), which call it: nothing here runs a check
or limits time.
"""

from __future__ import annotations

import importlib.util
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rdpsym.claims.claim import Claim
from rdpsym.foundations.errors import shorten


@dataclass(frozen=True)
class LoadFailure:
    path: Path
    problem: str


def catalogue_path() -> Path:
    """The built-in catalogue: the folder of the package :mod:`rdpsym.catalogue`, wherever rdpsym is installed.

    >>> (catalogue_path() / "CATALOGUE.md").is_file()
    True
    """
    return Path(str(resources.files("rdpsym.catalogue")))


def claim_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.py`` claim file under ``paths`` (files or folders), sorted, skipping ``_*.py``.

    A folder's hidden folders (``.venv``, ``.git``), virtual environments and caches are not searched:
    ``rdpsym check .`` in a project runs the project's claims, not its installed packages.
    """
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*.py") if not f.name.startswith("_") and not _skipped(f.relative_to(p)))
        else:
            out.append(p)
    return out


#: Folders never searched for claim files (besides hidden ones).
_NOT_CLAIMS = {"__pycache__", "site-packages", "node_modules", "venv", "env", "build", "dist"}


def _skipped(relative: Path) -> bool:
    return any(part.startswith(".") or part in _NOT_CLAIMS for part in relative.parts[:-1])


def load(path: Path) -> list[Claim] | LoadFailure:
    """The claims a file defines, or the reason it defines none.

    A file of the built-in catalogue is imported as the module of :mod:`rdpsym.catalogue` it is
    (``mironov2017/prop01_composition.py`` as ``rdpsym.catalogue.mironov2017.prop01_composition``), so
    its relative imports of the folder's helpers work and tracebacks name it.  Any other file (a
    user's ``rdpsym check PATH``) is loaded from its path, see :func:`_exec_file`.  Either way the
    file runs afresh on every call.
    """
    path = Path(path)
    if not path.exists():
        return LoadFailure(path, "no such file")
    if not path.is_file():  # a FIFO named *.py blocked its reader until the backstop: 20 times the timeout (a probe)
        return LoadFailure(path, "not a regular file (a folder, a FIFO or a device): not read")
    name = _catalogue_module(path)
    try:
        module = _exec_catalogue_module(name) if name else _exec_file(path)
    except _NotPython:
        return LoadFailure(path, "not a Python file")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any error in a user's file, even sys.exit, is reported
        return LoadFailure(path, _located(exc, path))
    claims = getattr(module, "CLAIMS", None)
    if claims is None and hasattr(module, "CLAIM"):
        claims = [module.CLAIM]
    if claims is None:
        return LoadFailure(path, "defines neither CLAIMS (a list of Claim) nor CLAIM")
    if not isinstance(claims, (list, tuple)):
        # (a generator was read by the test below and the file then had no claims, silently; 5 ended the worker)
        return LoadFailure(path, f"CLAIMS must be a non-empty list of Claim, found {type(claims).__name__}")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad or not claims:
        found = type(bad[0]).__name__ if bad else "an empty list"
        return LoadFailure(path, f"CLAIMS must be a non-empty list of Claim, found {found}")
    return list(claims)


class _NotPython(Exception):
    pass


def _located(exc: BaseException, path: Path) -> str:
    """``"SyntaxError at line 3: invalid syntax"``: an error in a claim file, by its line in that file.

    A syntax error carries its own file and line (its traceback is Python's import machinery).  Any other
    error is placed at the deepest line of the user's own code in its traceback (not SymPy's, rdpsym's or
    Python's): a line of the claim file, or of a file it imported (then named, with the claim file's line).
    """
    if isinstance(exc, SyntaxError):
        where = f" at line {exc.lineno}" if exc.lineno else ""
        if exc.filename and not _same_file(exc.filename, path):
            where += f" of {exc.filename}"
        return shorten(f"SyntaxError{where}: {exc.msg}")
    # (file, line) of each frame, each file's place read once: a claim file recursing a million frames deep was
    # 120 CPU seconds of resolving the same path once per frame before its error could be named (a probe)
    frames = [(frame.f_code.co_filename, line) for frame, line in traceback.walk_tb(exc.__traceback__)]
    names = {name for name, _ in frames}
    claim_file = {name for name in names if _same_file(name, path)}
    libraries = {name for name in names if _library(name)}
    mine = [f for f in frames if f[0] in claim_file]
    users = [f for f in frames if f[0] not in libraries]
    deepest = users[-1] if users else (mine[-1] if mine else None)
    if deepest is None:
        where = ""
    elif deepest[0] in claim_file:
        where = f" at line {deepest[1]}"
    else:
        where = f" at line {deepest[1]} of {deepest[0]}" + (f" (line {mine[-1][1]})" if mine else "")
    return shorten(f"{type(exc).__name__}{where}: {exc}")


def _library(filename: str) -> bool:
    """Whether a traceback's file is a library's (Python's own, an installed package, rdpsym), not the user's."""
    try:
        resolved = Path(filename).resolve()
    except (OSError, ValueError):
        return True
    if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
        return True
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(__file__).resolve().parents[1]}
    return any(root.resolve() in resolved.parents for root in roots) and catalogue_path().resolve() not in \
        resolved.parents


def _same_file(filename: str | None, path: Path) -> bool:
    try:
        return filename is not None and Path(filename).resolve() == Path(path).resolve()
    except (OSError, ValueError):
        return False


def _catalogue_module(path: Path) -> str | None:
    """The dotted module name of a claim file of the built-in catalogue, or None for any other file.

    >>> _catalogue_module(catalogue_path() / "seeds" / "notes_003_cdp.py")
    'rdpsym.catalogue.seeds.notes_003_cdp'
    >>> _catalogue_module(Path("myproofs/notes_003_cdp.py")) is None
    True
    """
    try:
        parts = path.resolve().with_suffix("").relative_to(catalogue_path().resolve()).parts
    except ValueError:
        return None
    if path.suffix != ".py" or not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(("rdpsym.catalogue", *parts))


def _exec_catalogue_module(name: str):
    """Run the catalogue module ``name`` afresh and register it in ``sys.modules``, as ``import`` would.

    Not ``importlib.import_module``: that returns a module already imported without running it again.
    """
    spec = importlib.util.find_spec(name)  # imports the parent packages
    if spec is None or spec.loader is None:
        raise _NotPython
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        if previous is None:
            del sys.modules[name]
        else:
            sys.modules[name] = previous
        raise
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)
    return module


def _exec_file(path: Path):
    """Run a claim file from its path, as a module of no package (a user's claims, ``rdpsym check PATH``).

    A user's claim file may import helpers that sit beside it (``_helper.py``, imported as
    ``import _helper``): while it runs its folder is first on ``sys.path``, and a helper of the same
    name cached from another folder is dropped from ``sys.modules`` first, so each folder gets its own.
    This is the only place rdpsym touches ``sys.path``, and it is restored as it was afterwards.
    (The built-in catalogue needs none of it: its files are modules of :mod:`rdpsym.catalogue`.)
    """
    name = "rdpsym_claimfile_" + "_".join(path.resolve().with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise _NotPython
    module = importlib.util.module_from_spec(spec)
    folder = path.resolve().parent
    for helper in folder.glob("_*.py"):
        cached = sys.modules.get(helper.stem)
        if cached is not None and Path(getattr(cached, "__file__", "") or "").resolve().parent != folder:
            del sys.modules[helper.stem]
    saved = list(sys.path)
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def load_all(paths: Iterable[Path] | None = None) -> tuple[list[Claim], list[LoadFailure], dict, float]:
    """Every claim under ``paths`` (default: the built-in catalogue), the files that failed to load, each
    claim's file (relative), and the seconds loading took.  Loading runs no check, in this process and
    without a time limit (:func:`run` loads in a worker, with one)."""
    started = time.perf_counter()
    loader = _Loader()
    for f in claim_files(paths or [catalogue_path()]):
        loader.add(f, load(f))
    return loader.claims, loader.failures, loader.where, time.perf_counter() - started


class _Loader:
    """Claims collected file by file; a claim id defined twice is a failure of the second file."""

    def __init__(self) -> None:
        self.claims: list[Claim] = []
        self.failures: list[LoadFailure] = []
        self.where: dict = {}

    def add(self, f: Path, got: list[Claim] | LoadFailure) -> LoadFailure | None:
        """Add a file's claims (or its failure); the failure it was, if any."""
        failure = None
        if isinstance(got, LoadFailure):
            failure = got
            got = []
        clash = [c.id for c in got if c.id in self.where]
        if clash:
            failure = LoadFailure(f, f"claim id {clash[0]!r} is already defined in {self.where[clash[0]]}")
            got = [c for c in got if c.id not in self.where]
        if failure is not None:
            self.failures.append(failure)
        self.claims += got
        self.where.update({c.id: _relative(f) for c in got})
        return failure


def _relative(f: Path) -> str:
    """A catalogue file as ``folder/file.py`` (``mironov2017/prop01_composition.py``), any other relative to
    the working folder when it is under it, else in full."""
    f = f.resolve()
    for base in (catalogue_path().resolve(), Path.cwd()):
        try:
            return str(f.relative_to(base))
        except ValueError:
            continue
    return str(f)
