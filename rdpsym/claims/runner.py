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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from rdpsym.claims.claim import Claim, ClaimResult, Verdict
from rdpsym.foundations import operations
from rdpsym.foundations.errors import ParameterError, must


@dataclass(frozen=True)
class LoadFailure:
    path: Path
    problem: str


def catalogue_path() -> Path:
    """The built-in catalogue: the repository's ``proofs/`` folder."""
    return Path(__file__).resolve().parents[2] / "proofs"


def claim_files(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.py`` claim file under ``paths`` (files or folders), sorted, skipping ``_*.py``."""
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*.py") if not f.name.startswith("_"))
        else:
            out.append(p)
    return out


def load(path: Path) -> list[Claim] | LoadFailure:
    """The claims a file defines, or the reason it defines none."""
    path = Path(path)
    if not path.exists():
        return LoadFailure(path, "no such file")
    name = "rdpsym_claimfile_" + "_".join(path.resolve().with_suffix("").parts[-3:]).replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return LoadFailure(path, "not a Python file")
    module = importlib.util.module_from_spec(spec)
    # A claim file may import helpers that sit beside it (files named _*.py).  A helper of the
    # same name cached from another folder is dropped first, so each folder gets its own.
    folder = path.resolve().parent
    for helper in folder.glob("_*.py"):
        cached = sys.modules.get(helper.stem)
        if cached is not None and Path(getattr(cached, "__file__", "") or "").resolve().parent != folder:
            del sys.modules[helper.stem]
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - any error in a user's file is reported, not raised
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return LoadFailure(path, f"{type(exc).__name__} at line {where.lineno}: {exc}")
    finally:
        sys.path.remove(str(folder))
    claims = getattr(module, "CLAIMS", None)
    if claims is None and hasattr(module, "CLAIM"):
        claims = [module.CLAIM]
    if claims is None:
        return LoadFailure(path, "defines neither CLAIMS (a list of Claim) nor CLAIM")
    bad = [c for c in claims if not isinstance(c, Claim)]
    if bad or not claims:
        return LoadFailure(path, f"CLAIMS must be a non-empty list of Claim, found {type(bad[0]).__name__ if bad else 'an empty list'}")
    return list(claims)


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


def run(paths: Iterable[Path] | None = None, progress=None) -> Report:
    """Load and check every claim under ``paths`` (default: the built-in catalogue)."""
    started = time.perf_counter()
    files = claim_files(paths or [catalogue_path()])
    loaded: list[Claim] = []
    failures: list[LoadFailure] = []
    paths: dict = {}
    for f in files:
        got = load(f)
        if isinstance(got, LoadFailure):
            failures.append(got)
        else:
            clash = [c.id for c in got if c.id in paths]
            if clash:
                failures.append(LoadFailure(f, f"claim id {clash[0]!r} is already defined in {paths[clash[0]]}"))
                got = [c for c in got if c.id not in paths]
            loaded += got
            paths.update({c.id: _relative(f) for c in got})
    report = check(loaded, progress)
    return Report(report.results, failures, time.perf_counter() - started, paths)


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


def progress_bar(stream=sys.stderr):
    """A one-line progress bar for :func:`run`."""
    def show(done: int, total: int, current: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {current[:40]:<40}")
        if done == total:
            stream.write("\n")
        stream.flush()
    return show


def _relative(f: Path) -> str:
    f = f.resolve()
    for base in (catalogue_path().parent, Path.cwd()):
        try:
            return str(f.relative_to(base))
        except ValueError:
            continue
    return str(f)
