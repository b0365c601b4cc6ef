"""The key of a result kept by :mod:`rdpsym.foundations.disk_cache`: everything the result depends on.

The arguments, read structurally (every SymPy node by its class and hashable content, so a parameter declared in
(0, 1) and one declared in (0, 2) are different keys though they print alike; a law by its expression, variable and
support), and a fingerprint of the code: rdpsym's own source files, byte for byte, and the versions of SymPy, mpmath
and python-flint.  An argument that cannot be read so (a Dummy, a Wild, a float, an object of another library)
raises :class:`NotReadable`: the result is computed and not kept.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> canonical(x + 1) == canonical(1 + sp.Symbol("x", positive=True)), canonical(x) == canonical(sp.Symbol("x"))
(True, False)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

import flint
import mpmath
import sympy as sp
from sympy.core.function import UndefinedFunction


class NotReadable(Exception):
    """An argument the key cannot describe structurally: the result is not kept."""


def key(kind: str, function: Callable, arguments: dict) -> str:
    """The SHA-256 of the code's :func:`fingerprint`, the kind of result, the function's name and its arguments'
    :func:`canonical` forms."""
    material = repr((fingerprint(), kind, function.__module__, function.__qualname__, canonical(arguments)))
    return hashlib.sha256(material.encode()).hexdigest()


def canonical(obj) -> object:
    """``obj`` as nested tuples of strings and numbers, equal exactly when the objects are equal as inputs:
    every SymPy node by its class and its hashable content (which holds a Parameter's interval, a Symbol's
    assumptions, a Float's precision), sets in a sorted order (not the order of this process's hashes)."""
    if isinstance(obj, (sp.Dummy, sp.Wild)):
        raise NotReadable(obj)  # named by a counter of this process
    if isinstance(obj, sp.Symbol):
        return _canonical_symbol(obj)
    if isinstance(obj, sp.Basic):
        return _canonical_expression(_Same(obj)) if obj.args else \
            (_canonical_class(type(obj)), canonical(obj._hashable_content()))
    if isinstance(obj, type) and issubclass(obj, sp.Basic):  # an undefined function's class, f in f(x)
        return ("class", _canonical_class(obj))
    if obj is None or isinstance(obj, (bool, int, str)):
        return (type(obj).__name__, obj)
    if hasattr(type(obj), "__index__") and not isinstance(obj, float):  # gmpy's mpz in a Float's mantissa
        return ("int", int(obj))
    if isinstance(obj, enum.Enum):
        return (_class_name(type(obj)), obj.name)
    if isinstance(obj, (tuple, list)):
        return (type(obj).__name__, tuple(canonical(item) for item in obj))
    if isinstance(obj, (frozenset, set)):
        return ("set", tuple(sorted((canonical(item) for item in obj), key=repr)))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted(((canonical(k), canonical(v)) for k, v in obj.items()), key=repr)))
    # (a law or a record by its class as _canonical_class reads it: SymPy's and rdpsym's, whose code is in the
    # fingerprint; a user's subclass, whose methods are not, is not kept -- its redefinition was served the first
    # definition's result, a published form wrong by a factor 2 'proved'; a review)
    law_key = getattr(obj, "_key", None)
    if callable(law_key):  # a law: its expression(s), variable(s) and support, as its own equality reads them
        return (_canonical_class(type(obj)), canonical(law_key()), canonical(_plain_fields(obj)))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):  # a reference, its citation, a piece
        return (_canonical_class(type(obj)),
                tuple((f.name, canonical(getattr(obj, f.name))) for f in dataclasses.fields(obj)))
    raise NotReadable(obj)


class _Same:
    """An object as a key of its own identity, equal only to itself: a kept form is then exactly the one this object
    reads as (SymPy's ``==`` is each class's own rule, and x + 0.5 at 10 digits and at 30 share a hash).  Held by the
    cache below, the object keeps its id."""

    __slots__ = ("obj",)

    def __init__(self, obj: object):
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


@functools.lru_cache(maxsize=1024)
def _canonical_expression(same: _Same) -> tuple:
    """An expression's :func:`canonical` form, kept for the expression itself (the very object): one claim step's
    sides are read by the keys of its proof attempt, its singular values and its tight values, each walking the whole
    tree again (6 % of a shipped ``rdpsym check``).  SymPy's expressions are immutable, so the object's form cannot
    change while it is kept."""
    obj = same.obj
    return (_canonical_class(type(obj)), canonical(obj._hashable_content()))


@functools.lru_cache(maxsize=4096)
def _canonical_symbol(symbol: sp.Symbol) -> tuple:
    """A symbol's :func:`canonical` form, kept: its twenty assumptions sorted and spelt out took 75 µs, for each
    of the ~20 symbols of a proof attempt's key (3/4 of the key's time).  Equal symbols (same class, name and
    assumptions: SymPy compares a Symbol by exactly the content read here) have the same form."""
    return (_canonical_class(type(symbol)), canonical(symbol._hashable_content()))


@functools.lru_cache(maxsize=1024)
def _canonical_class(cls: type) -> object:
    """A SymPy class as a key reads it: SymPy's and rdpsym's by their qualified names (their code is in the
    fingerprint); an undefined function (``Function("f", positive=True)``) by its name and everything it was
    declared with, assumptions included -- SymPy's f(x) with and without them are different expressions, and a
    proof that f(x) ≥ 0 made for the positive f was replayed for the plain one (a probe); any other class (a user's
    ``class h(Function)`` with its own ``eval``) is code no key can read: such a call is not kept."""
    if isinstance(cls, UndefinedFunction):
        declared = {**getattr(cls, "_kwargs", {}), **getattr(cls, "_extra_kwargs", {})}
        return ("undefined function", cls.__name__, canonical(declared), repr(cls.nargs))
    if not (cls.__module__ or "").startswith(("sympy.", "rdpsym.")):
        raise NotReadable(cls)
    return _class_name(cls)


def _plain_fields(law) -> tuple:
    """The plain fields of a law beyond its equality key (a name, a flag), so that two laws equal as laws
    but built differently are not confused."""
    if not dataclasses.is_dataclass(law):
        return ()
    return tuple((f.name, getattr(law, f.name)) for f in dataclasses.fields(law)
                 if isinstance(getattr(law, f.name), (bool, int, str, type(None))))


def libraries() -> str:
    """What a result depends on besides rdpsym's code: the libraries' versions, mpmath's integer backend and the
    Python it ran on (a wheel is built under one Python and may be installed under another)."""
    return (f"sympy {sp.__version__} mpmath {mpmath.__version__} ({mpmath.libmp.BACKEND}) flint {flint.__version__}"
            f" {sys.implementation.name} {sys.version_info.major}.{sys.version_info.minor}")


def _class_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


@functools.lru_cache(maxsize=1)
def fingerprint() -> str:
    """The code a result came from: rdpsym's source files byte for byte, and :func:`libraries`.  The claim
    files (``rdpsym/catalogue``, in a wheel only: ``proofs/`` in a checkout) derive nothing a key stands for and
    are left out, so a checkout and the wheel built from it share their entries."""
    digest = hashlib.sha256(f"{libraries()}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if relative.parts[0] != "catalogue":
            digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


__all__ = ["NotReadable", "canonical", "fingerprint", "key", "libraries"]
