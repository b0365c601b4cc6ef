"""Load claim files, check them, and report: the engine behind ``rdpsym check``.

A claim file is a Python file that defines ``CLAIMS`` (a list of
:class:`~rdpsym.claims.Claim`) or ``CLAIM`` (one).  Loading it must do no work
beyond building those objects.  A file that does not load, or defines no
claims, becomes a :class:`LoadFailure` naming the file and the problem; the
other files still run.
"""

from __future__ import annotations

import importlib.util
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from rdpsym.claims.claim import Claim, ClaimResult, Verdict
from rdpsym.foundations import operations
from rdpsym.foundations.errors import ParameterError, must


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
    name = _catalogue_module(path)
    try:
        module = _exec_catalogue_module(name) if name else _exec_file(path)
    except _NotPython:
        return LoadFailure(path, "not a Python file")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any error in a user's file, even sys.exit, is reported
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return LoadFailure(path, f"{type(exc).__name__} at line {where.lineno}: {exc}")
    claims = getattr(module, "CLAIMS", None)
    if claims is None and hasattr(module, "CLAIM"):
        claims = [module.CLAIM]
    if claims is None:
        return LoadFailure(path, "defines neither CLAIMS (a list of Claim) nor CLAIM")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad or not claims:
        found = type(bad[0]).__name__ if bad else "an empty list"
        return LoadFailure(path, f"CLAIMS must be a non-empty list of Claim, found {found}")
    return list(claims)


class _NotPython(Exception):
    pass


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


@dataclass
class Report:
    """Checked claims, the files that failed to load, and where each claim came from.

    ``str(report)`` is the text table ``rdpsym check`` prints; Jupyter shows it
    as Markdown; :mod:`rdpsym.render.claims` writes it as JSON and LaTeX.
    """

    results: list[ClaimResult]
    failures: list[LoadFailure]
    seconds: float
    #: claim id -> the file it came from (relative to the folder given)
    paths: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures and all(r.ok for r in self.results)

    def counts(self) -> dict[str, int]:
        out = {v.value: 0 for v in Verdict if v is not Verdict.NUMERIC}
        for r in self.results:
            out[r.verdict.value] += 1
        return out

    def __str__(self) -> str:
        return operations.text(self)

    def _repr_markdown_(self) -> str:
        return operations.markdown(self)


def load_all(paths: Iterable[Path] | None = None) -> tuple[list[Claim], list[LoadFailure], dict, float]:
    """Every claim under ``paths`` (default: the built-in catalogue), the files that failed to load, each
    claim's file (relative), and the seconds loading took.  Loading runs no check."""
    started = time.perf_counter()
    files = claim_files(paths or [catalogue_path()])
    loaded: list[Claim] = []
    failures: list[LoadFailure] = []
    where: dict = {}
    for f in files:
        got = load(f)
        if isinstance(got, LoadFailure):
            failures.append(got)
        else:
            clash = [c.id for c in got if c.id in where]
            if clash:
                failures.append(LoadFailure(f, f"claim id {clash[0]!r} is already defined in {where[clash[0]]}"))
                got = [c for c in got if c.id not in where]
            loaded += got
            where.update({c.id: _relative(f) for c in got})
    return loaded, failures, where, time.perf_counter() - started


def run(paths: Iterable[Path] | None = None, progress=None) -> Report:
    """Load and check every claim under ``paths`` (default: the built-in catalogue)."""
    claims, failures, where, seconds = load_all(paths)
    report = check(claims, progress)
    return Report(report.results, failures, report.seconds + seconds, where)


def check(claims: Iterable[Claim], progress=None) -> Report:
    """Check claims held in memory, as :func:`run` checks the claims of files.

    >>> import sympy as sp
    >>> from rdpsym.claims import AtMost, Claim, Domain, Verdict
    >>> a = sp.Symbol("alpha")
    >>> mine = Claim("mine", "α ≤ α²", "example", r"\\alpha \\le \\alpha^2",
    ...              (AtMost(a, a**2, "α ≥ 1"),), Verdict.PROVED, Domain({a: sp.Interval(1, sp.oo)}))
    >>> report = check([mine])
    >>> report.ok, report.counts()["proved"]
    (True, 1)
    """
    claims = list(claims)
    bad = next((c for c in claims if not isinstance(c, Claim)), None)
    if bad is not None:
        raise ParameterError(must("claims", "an iterable of Claim", type(bad).__name__))
    seen: set[str] = set()
    for c in claims:
        if c.id in seen:
            raise ParameterError(must("claims", "claims with distinct ids", f"{c.id!r} twice"))
        seen.add(c.id)
    started = time.perf_counter()
    results = []
    for i, claim in enumerate(claims):
        if progress:
            progress(i, len(claims), claim.id)
        results.append(claim.check())
    if progress:
        progress(len(claims), len(claims), "")
    return Report(results, [], time.perf_counter() - started)


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
