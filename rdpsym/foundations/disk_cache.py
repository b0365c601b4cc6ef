"""What rdpsym derived and checked, kept on disk between processes: derived once per machine, not once per
process.

A fresh process used to derive every built-in again before its first value (the Laplace curve's first value
cost 0.95 s of CPU after the imports, a cold ``rdpsym table2`` 1.9 s, every Dask worker the same work again).
:func:`persistent` wraps a function whose result depends only on its arguments and on rdpsym's code; four
are wrapped, each keeping only what was established:

* ``renyi_divergence`` (:mod:`rdpsym.derive.divergence`): closed forms (status ``proved`` or ``checked``),
  each kept after its own verification against the definition; numeric answers and errors are not kept;
* a density's check at construction (:func:`rdpsym.laws.validation.check_pieces`): a mass shown to be 1;
* whether a curve's closed form is identically 0 (:mod:`rdpsym.accounting.components`);
* a claim step's proof attempt (:mod:`rdpsym.claims.claim`): a proof, or a "no proof" reached with no SymPy step
  cut short by its time budget; the step's numeric check at its sample points is never kept.

An entry replays a result that was established; it never stands in for establishing a new one.

* **The key is everything the result depends on** (:mod:`rdpsym.foundations.cache_keys`): the arguments, read
  structurally (every SymPy node by its class and hashable content, so a parameter declared in (0, 1) and one
  declared in (0, 2) are different keys though they print alike; a law by its expression, variable and support),
  and a fingerprint of the code: rdpsym's own source files, byte for byte, and the versions of SymPy, mpmath and
  python-flint.  Editing one line of rdpsym, or upgrading SymPy, starts afresh.  Arguments that cannot be read so
  (a Dummy, a Wild, a float, an object of another library) are computed as before and not kept.
* **Integrity on read**: every entry carries an HMAC-SHA256 of its key and content under a random key kept in
  the cache folder (created once, readable by its owner only).  A truncated, corrupted, renamed or foreign
  entry (written by another installation, copied from elsewhere) fails the check and is ignored: the work is
  done again and the entry replaced.  A valid entry is unpickled by an unpickler that builds only SymPy,
  mpmath and rdpsym types, with SymPy's text parser switched off while it runs, and the value must be what
  the function returns (defence in depth behind the HMAC, for a folder copied or shared with its key: a SymPy
  class given a string sympifies it, and ``Tuple("__import__('os').system(...)")`` ran the text; a probe).
* **Shipped with the wheel**: the built-ins' derivations, made by :mod:`rdpsym.cli.shipping` when the wheel was
  built, are read from :data:`SHIPPED` after the user's folder and before any derivation; never written.  They
  are used only where the index's fingerprint is this code's (so this installation's SymPy, mpmath,
  python-flint and Python are the build's), an entry only if its bytes have the SHA-256 the index gives it, and
  through the same unpickler.  A fresh installation's first Laplace value reads them instead of deriving (0.46 s
  of CPU before, in the hour that measured 0.11 s after).
* **Concurrent processes** (pools, Dask workers, several terminals): every entry is written whole to a
  temporary file and renamed (:mod:`rdpsym.foundations.files`); two processes computing the same thing at
  once write the same entry, and a reader sees the old file, the new one or none.

The folder is ``platformdirs.user_cache_dir("rdpsym")`` (``~/.cache/rdpsym`` on Linux), or the environment
variable ``RDPSYM_CACHE_DIR``; ``RDPSYM_CACHE_DIR=off`` turns the cache off, the in-memory one with it (the
test suite runs so: a test sees the work done, not a replay).  ``rdpsym cache`` shows it, ``rdpsym cache
--clear`` empties it.

>>> import tempfile, os, sympy as sp
>>> os.environ["RDPSYM_CACHE_DIR"] = tempfile.mkdtemp()
>>> @persistent("example", keep=lambda value: value != 0)
... def slow_square(x):
...     return x**2
>>> slow_square(sp.Rational(1, 3)), describe()["entries"]
(1/9, 1)
>>> slow_square(sp.Rational(1, 3))  # read back (from memory here; from the disk in a new process)
1/9
>>> clear()
1
>>> os.environ["RDPSYM_CACHE_DIR"] = "off"
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import hmac
import inspect
import io
import json
import os
import pickle
import secrets
import shutil
import stat
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path

import flint
import mpmath
import platformdirs
import sympy as sp
import sympy.parsing.sympy_parser as sympy_parser

from rdpsym.foundations.cache_keys import NotReadable, fingerprint, libraries
from rdpsym.foundations.cache_keys import key as cache_key
from rdpsym.foundations.files import replace_file

#: The environment variable naming the cache folder (``off``: no cache).
ENVIRONMENT = "RDPSYM_CACHE_DIR"
#: The layout of an entry; a new layout is a new subfolder, the old one is never read.
FORMAT = 1
#: An entry larger than this is not written (a derivation of a table of thousands of outcomes).
MAX_ENTRY_BYTES = 4_000_000
#: How many results one process keeps in memory besides the disk (the most recently used).
MEMORY_ENTRIES = 1024

#: The derivations shipped with rdpsym: the built-ins', derived and checked when the wheel was built
#: (:mod:`rdpsym.cli.shipping`, run by build_support/shipping_backend.py); read only; absent from a checkout.
SHIPPED = Path(__file__).resolve().parent.parent / "shipped"

_MAGIC = b"rdpsym cache entry\n"
_OFF = ("off", "none", "0", "false", "no")
_memory: OrderedDict[str, object] = OrderedDict()
_lock = threading.Lock()


def folder() -> Path | None:
    """The cache folder for this process, or None when ``RDPSYM_CACHE_DIR=off``."""
    chosen = os.environ.get(ENVIRONMENT, "").strip()
    if chosen.lower() in _OFF:
        return None
    if chosen:
        return Path(chosen).expanduser()
    return Path(platformdirs.user_cache_dir("rdpsym", appauthor=False))


def persistent(kind: str, keep: Callable[[object], bool], returns: type | tuple[type, ...] = object) -> Callable:
    """Decorate a function of its arguments alone: its result is read back when an entry for the same
    arguments (bound to its signature, defaults applied) and the same code is there and valid; else computed,
    and kept when ``keep(result)`` says it was established.  Exceptions are never kept.  An entry read back
    must be an instance of ``returns`` that ``keep`` accepts, or it is computed again."""

    def decorate(function: Callable) -> Callable:
        signature = inspect.signature(function)

        @functools.wraps(function)
        def run(*args, **kwargs):
            root = folder()
            if root is None:
                return function(*args, **kwargs)
            try:
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                key = cache_key(kind, function, bound.arguments)
            # (ValueError: an integer of over 4 300 digits has no repr; the function refuses it by its own ceilings)
            except (NotReadable, TypeError, ValueError):
                return function(*args, **kwargs)
            found, value = _recall(root, key)
            if found and _replayable(value, returns, keep):
                return value
            value = function(*args, **kwargs)
            if keep(value):
                _keep(root, key, value)
            return value

        return run

    return decorate


def _replayable(value: object, returns: type | tuple[type, ...], keep: Callable[[object], bool]) -> bool:
    """Whether an entry read back is a result the function could have kept (a sealed entry of another shape is
    work to do again, not a traceback)."""
    try:
        return isinstance(value, returns) and bool(keep(value))
    except Exception:  # noqa: BLE001 - keep() of a value of the wrong shape
        return False


def describe() -> dict:
    """Where the cache is and what it holds: ``{"folder", "entries", "bytes", "shipped", "shipped_note", "key"}``
    (folder None: turned off; ``shipped``: how many derivations shipped with the wheel this installation uses, and
    ``shipped_note`` what is said of them; ``key``: None, or why the folder's key keeps the cache from working)."""
    root = folder()
    entries = list(_entries(root)) if root is not None else []
    size = 0
    for path in entries:
        try:
            size += path.stat().st_size
        except FileNotFoundError:  # cleared by another process meanwhile
            pass
    shipped, said = _shipped() if root is not None else ({}, "off")
    return {"folder": None if root is None else str(root), "entries": len(entries), "bytes": size,
            "shipped": len(shipped), "shipped_note": said, "key": _key_state(root)}


def _key_state(root: Path | None) -> str | None:
    """What :func:`describe` says of the folder's HMAC key: None where all is well (or nothing is kept), else why
    nothing is read or written there (a damaged key turned the cache off without a word: a probe)."""
    if root is None or not root.is_dir():
        return None
    path = root / "secret"
    try:
        if len(_read_regular(path, 32)) == 32:
            return None
    except FileNotFoundError:
        return None  # made by the first process that keeps an entry
    except OSError:
        pass
    if _cut_short(path):
        return f"the key {path} is damaged: nothing is kept or read until it is replaced (--clear replaces it)"
    return (f"{path} is not the cache's key (rdpsym writes 32 bytes there): nothing is kept or read until it is "
            "moved away (--clear does not remove what rdpsym did not write)")


def _cut_short(key: Path) -> bool:
    """Whether the key file is a regular file shorter than a key (cut short as it was written, or a user's): the one
    damage --clear mends, by setting it aside."""
    return key.is_file() and not key.is_symlink() and key.stat().st_size < 32


def clear() -> int:
    """Remove every entry (of every format and code version) and the drafts of writers that were stopped, set a key
    cut short aside, and forget those in memory; how many entries went.  Nothing else: a folder or a longer file
    named ``secret`` is not rdpsym's (a folder given as RDPSYM_CACHE_DIR may hold one: --clear removed it, a
    review)."""
    with _lock:
        _memory.clear()
    root = folder()
    removed = 0
    for path in list(_entries(root)) if root is not None else []:
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)  # (not an entry rdpsym wrote: --clear raised IsADirectoryError on it, a probe)
            else:
                path.unlink()
            removed += 1
        except FileNotFoundError:  # another process cleared it first
            pass
    if root is not None and root.is_dir():
        for draft in [*root.glob("entries-*/*/.*.entry.*.tmp"), *root.glob(".secret.*")]:  # (a writer killed)
            draft.unlink(missing_ok=True)
        # a key cut short is set aside, never deleted (rdpsym cannot tell it from a short file of the user's); the
        # next entry kept makes a new key
        if _key_state(root) is not None and _cut_short(root / "secret"):
            (root / "secret").replace(root / f"secret.damaged.{secrets.token_hex(4)}")
    return removed


def _entries(root: Path):
    return root.glob("entries-*/*/*.entry") if root.is_dir() else iter(())


# -- the entries --------------------------------------------------------------------------------------------

def _path(root: Path, key: str) -> Path:
    return root / f"entries-{FORMAT}" / key[:2] / f"{key}.entry"


def _secret(root: Path) -> bytes:
    """The cache's HMAC key: 32 random bytes in ``root/secret``, created once (by whichever process comes
    first: the file is linked into place, never overwritten) and readable by its owner only."""
    path = root / "secret"
    try:
        secret = _read_regular(path, 32)
        if len(secret) == 32:
            return secret
    except FileNotFoundError:
        pass
    root.mkdir(parents=True, exist_ok=True)
    draft = root / f".secret.{os.getpid()}.{secrets.token_hex(4)}"
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(descriptor, secrets.token_bytes(32))
    finally:
        os.close(descriptor)
    try:
        os.link(draft, path)  # fails if another process put its key there first: that key is the one
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    secret = _read_regular(path, 32)
    if len(secret) != 32:
        raise OSError(f"the cache's key {path} is damaged")
    return secret


def _read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link) of at most ``limit`` bytes, else OSError: a
    FIFO, a device or a link to /dev/zero put in the folder would block or never end a plain read."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode) or status.st_size > limit:
            raise OSError(f"{path} is not a regular file of at most {limit} bytes")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            return file.read(limit + 1)
    finally:
        os.close(descriptor)


def _seal(secret: bytes, key: str, payload: bytes) -> bytes:
    return hmac.new(secret, key.encode() + b"\0" + payload, hashlib.sha256).digest()


def _recall(root: Path, key: str) -> tuple[bool, object]:
    """(found, value): from this process's memory, else the user's folder, else the derivations shipped with
    rdpsym; an entry that fails its check in one place is looked for in the next, then computed again."""
    with _lock:
        if key in _memory:
            _memory.move_to_end(key)
            return True, _memory[key]
    payload = _sealed_payload(root, key)
    if payload is None:
        payload = _shipped_payload(key)
    if payload is None:
        return False, None
    token = _READING_AN_ENTRY.set(True)
    try:
        value = _Restricted(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 - whatever a stale entry raises while rebuilt: computed again
        return False, None
    finally:
        _READING_AN_ENTRY.reset(token)
    _remember(key, value)
    return True, value


def _sealed_payload(root: Path, key: str) -> bytes | None:
    """The pickled value of the user's entry for ``key`` if its seal holds; None if absent, unreadable, damaged or
    foreign (computed again, and replaced)."""
    try:
        data = _read_regular(_path(root, key), len(_MAGIC) + 32 + MAX_ENTRY_BYTES)
        secret = _secret(root)
    except OSError:  # no entry, or a folder this process cannot read
        return None
    head, seal, payload = data[:len(_MAGIC)], data[len(_MAGIC):len(_MAGIC) + 32], data[len(_MAGIC) + 32:]
    if head != _MAGIC or not hmac.compare_digest(seal, _seal(secret, key, payload)):
        return None
    return payload


# -- the derivations shipped with rdpsym ----------------------------------------------------------------------

#: Set while :func:`ship` runs its workload: what it ships is derived there, never read from an earlier shipment
#: (a second build in the same tree found the first one's folder, derived nothing, and shipped 0 entries; a review).
_shipping = threading.Event()


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[dict[str, str], str]:
    """(key → SHA-256 of its pickled value, what is said of them) for the entries shipped in :data:`SHIPPED`;
    none where the folder is absent (a checkout) or was built from other code, libraries or Python (the keys
    would not match anyway: the index says why)."""
    try:
        index = json.loads(_read_regular(SHIPPED / "index.json", 4_000_000))
    except (OSError, ValueError):
        return {}, "none (a wheel ships them; a checkout does not)"
    entries = index.get("entries") if isinstance(index, dict) else None
    if not isinstance(entries, dict) or index.get("format") != FORMAT:
        return {}, "not read: its index is not one this version writes"
    if index.get("fingerprint") != fingerprint():
        built, here = index.get("libraries"), libraries()
        if built == here:
            return {}, f"not used: derived from other rdpsym code than this installation's (with {here})"
        return {}, f"not used: derived with {built}; this installation has {here}"
    usable = {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, str)}
    return usable, f"{len(usable)} derivations, derived and checked when this wheel was built"


def _shipped_payload(key: str) -> bytes | None:
    """The pickled value shipped for ``key`` if its bytes have the SHA-256 the index holds for it, else None."""
    digest = None if _shipping.is_set() else _shipped()[0].get(key)
    if digest is None:
        return None
    try:
        payload = _read_regular(SHIPPED / f"{key}.entry", MAX_ENTRY_BYTES)
    except OSError:
        return None
    return payload if hmac.compare_digest(hashlib.sha256(payload).hexdigest(), digest) else None


def ship(workload: Callable[[], object], target: Path) -> int:
    """Run ``workload`` in a fresh cache folder, nothing in memory and no shipped entry read, and write every entry
    it kept into ``target`` as derivations shipped with rdpsym: each value's pickle, and ``index.json`` with its
    SHA-256, this code's fingerprint and the libraries' versions.  ``target`` must be new, empty, or a shipment
    (its old entries are removed first).  How many were written (``python -m rdpsym.cli.shipping DIR``, run by the
    wheel's build)."""
    _clear_shipment(target)
    with tempfile.TemporaryDirectory(prefix="rdpsym-ship-") as scratch:
        before = os.environ.get(ENVIRONMENT)
        os.environ[ENVIRONMENT] = scratch
        _shipping.set()
        with _lock:
            _memory.clear()
        try:
            workload()
        finally:
            _shipping.clear()
            with _lock:
                _memory.clear()
            if before is None:
                os.environ.pop(ENVIRONMENT, None)
            else:
                os.environ[ENVIRONMENT] = before
        entries = {}
        for path in sorted(_entries(Path(scratch))):
            payload = _sealed_payload(Path(scratch), path.stem)
            if payload is not None:
                (target / path.name).write_bytes(payload)
                entries[path.stem] = hashlib.sha256(payload).hexdigest()
    index = {"format": FORMAT, "fingerprint": fingerprint(), "libraries": libraries(), "entries": entries}
    (target / "index.json").write_text(json.dumps(index, indent=0, sort_keys=True) + "\n")
    return len(entries)


def _clear_shipment(target: Path) -> None:
    """Make ``target`` an empty folder to ship into: created if new; an earlier shipment's files removed; any other
    folder with files in it refused (OSError), so that nothing else is overwritten."""
    target.mkdir(parents=True, exist_ok=True)
    present = list(target.iterdir())
    ours = {p for p in present if p.suffix == ".entry" or p.name == "index.json"}
    if present and (ours != set(present) or not (target / "index.json").is_file()):
        raise OSError(f"{target} holds files that are not a shipment of rdpsym's derivations")
    for path in ours:
        path.unlink()


def _keep(root: Path, key: str, value: object) -> None:
    _remember(key, value)
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if len(payload) > MAX_ENTRY_BYTES:
            return
        path = _path(root, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, _MAGIC + _seal(_secret(root), key, payload) + payload, follow=False)
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass  # a read-only or full disk, an unpicklable object: the cache is an optimisation, never an error


def _remember(key: str, value: object) -> None:
    with _lock:
        _memory[key] = value
        _memory.move_to_end(key)
        while len(_memory) > MEMORY_ENTRIES:
            _memory.popitem(last=False)


#: Set while an entry is unpickled: SymPy's text parser then refuses to run (see :func:`_no_text_while_reading`).
#: One per process, kept on the guard: a fresh import of this module finds the guard in place and must set the
#: flag that guard reads.
_READING_AN_ENTRY: ContextVar[bool] = getattr(sympy_parser.parse_expr, "_closed_while_reading", None) or \
    ContextVar("_READING_AN_ENTRY", default=False)


def _no_text_while_reading(parse: Callable) -> Callable:
    """SymPy's ``parse_expr``, refused while an entry is unpickled.  SymPy classes sympify their arguments, and
    sympify of a string parses and evaluates it: no class list can tell which constructor will, so the parser
    itself is closed for the duration of a read (an entry holds SymPy objects, never text to parse)."""
    if getattr(parse, "_closed_while_reading", None) is not None:
        return parse

    @functools.wraps(parse)
    def guarded(*args, **kwargs):
        if _READING_AN_ENTRY.get():
            raise pickle.UnpicklingError("a cache entry asked SymPy to parse text")
        return parse(*args, **kwargs)

    guarded._closed_while_reading = _READING_AN_ENTRY
    return guarded


# sympify imports parse_expr from this module at each call, so the guard is what it finds
sympy_parser.parse_expr = _no_text_while_reading(sympy_parser.parse_expr)


class _Restricted(pickle.Unpickler):
    """Builds only what rdpsym's results are made of: SymPy expressions (``Basic``), mpmath and python-flint
    numbers, rdpsym's records (dataclasses) and enums, builtin containers, and no function but the rebuilders of
    rdpsym's own pickling (a derivation's fields are an inner pickle, read by this unpickler too; see
    :meth:`rdpsym.derive.derivation.Derivation.__reduce__`).  A class must be *defined* in the module named (a
    dotted name such as ``subprocess.Popen`` reached through rdpsym.render.pdf, or ``Popen`` imported into a SymPy
    test module, is refused: a reviewer ran a command through each)."""

    _BUILTINS = {"tuple", "list", "dict", "set", "frozenset", "complex", "slice"}
    _REBUILDERS = (("sympy.core.function", "_rebuild_undef"), ("rdpsym.derive.derivation", "_as_built"))

    def find_class(self, module: str, name: str):
        if module.startswith("rdpsym.") and name == "_unpickled":
            return self._unpickled
        if module == "builtins" and name in self._BUILTINS or (module, name) in self._REBUILDERS:
            return super().find_class(module, name)
        parts = module.split(".")
        if parts[0] in ("sympy", "mpmath", "rdpsym", "flint") and "tests" not in parts and "." not in name \
                and not name.startswith("_"):
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__ == module and self._a_result_type(found):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of an rdpsym result")

    @staticmethod
    def _a_result_type(cls: type) -> bool:
        if issubclass(cls, (sp.Basic, mpmath.ctx_mp_python.mpnumeric, flint.arb, flint.acb, flint.fmpq, flint.fmpz)):
            return True
        return cls.__module__.startswith("rdpsym.") and (dataclasses.is_dataclass(cls) or issubclass(cls, enum.Enum))

    @staticmethod
    def _unpickled(cls: type, data: bytes):
        if not (dataclasses.is_dataclass(cls) and cls.__module__.startswith("rdpsym.")):
            raise pickle.UnpicklingError(f"{cls} is not an rdpsym record")
        return cls(**_Restricted(io.BytesIO(data)).load())


__all__ = ["ENVIRONMENT", "FORMAT", "MAX_ENTRY_BYTES", "MEMORY_ENTRIES", "SHIPPED", "clear", "describe", "folder",
           "persistent", "ship"]
