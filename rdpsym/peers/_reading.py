"""Reading a peer's objects: by class name and public fields, never by importing the peer.

A peer's object (a dp_accounting ``DpEvent``, an Opacus accountant, an autodp
mechanism) is recognised by the name of its class and read through the fields
its library documents, so rdpsym needs none of those libraries installed to
accept their objects, and imports none of them at ``import rdpsym``.  Every
number read goes through the one reader (:mod:`rdpsym.foundations.reading`).
Every float of a peer's object -- a probability, a sampling rate, a noise scale
σ, b, ρ or ε -- is read as the binary value it holds (:func:`held`), which the
peer computes with: the question rdpsym certifies is the one the peer was asked.
A user's typed 1.1 means 11/10; a peer's σ = 1.1 is 1.100000000000000088…, and
RDP magnifies the difference: autodp's ``RandresponseMechanism(p=0.999999999999)``
holds 1 − p = 9.99977…·10⁻¹³, and read as 10⁻¹² its certified RDP was 2·10⁻⁵
relative off; a sampled Gaussian at σ = 1.1, q = 2.6·10⁻¹⁸⁴, α = 1024 moves by
9.4·10⁻¹² relative between the two readings of σ, and dp_accounting's correctly
rounded value was called unsafe (probes).

The factories of the mechanisms a peer's vocabulary names are looked up on the
public API (``rdpsym.<name>``) when they are used, by :func:`public`: the
adapters then depend only on the published names, not on the module that
defines each one, and a factory that this version of rdpsym does not have is
a clear error naming it.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import os
import sys
import sysconfig
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import sympy as sp

from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.reading import _shown, integer, nonnegative_parameter, number


class UnsupportedPeerObject(ParameterError):
    """A peer's object rdpsym cannot read soundly (an unsupported event type, an opaque mechanism)."""


def kind(obj: object) -> str:
    """The peer's name for the object's type: its class name (or the ``class_name`` a
    ``DpEvent.to_named_tuple()`` carries).  Read defensively: an attribute that raises counts as absent."""
    try:
        name = getattr(obj, "class_name", None) if hasattr(obj, "_fields") else None
    except Exception:  # noqa: BLE001 - a foreign object's property may raise anything
        name = None
    if isinstance(name, bytes):
        name = name.decode(errors="replace")
    return name if isinstance(name, str) else type(obj).__name__


def read_field(obj: object, name: str, where: str) -> object:
    """``obj.name``, or a clear error naming the field: missing, or raising when read.

    A peer's object is foreign code: its property may raise anything (a ``RuntimeError``, a ``KeyError``, a
    ``RecursionError``), and that is reported as an rdpsym error naming the object and the field, never
    passed through raw.

    >>> class Event:
    ...     @property
    ...     def noise_multiplier(self):
    ...         raise RuntimeError("boom")
    >>> read_field(Event(), "noise_multiplier", "GaussianDpEvent")
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: GaussianDpEvent.noise_multiplier must be readable (a public field of
    the peer's object); got an object of type Event whose field raised RuntimeError: boom.
    """
    try:
        return getattr(obj, name)
    except AttributeError:
        raise ParameterError(must(f"{where}.{name}", "present (a public field of the peer's object)",
                                  f"an object of type {type(obj).__name__} without it")) from None
    except Exception as exc:  # noqa: BLE001 - any exception of foreign code becomes an rdpsym error naming the field
        raise ParameterError(must(f"{where}.{name}", "readable (a public field of the peer's object)",
                                  f"an object of type {type(obj).__name__} whose field raised "
                                  f"{type(exc).__name__}: {exc}")) from None


#: The packages rdpsym's own dependencies import as (pyproject.toml's ``dependencies``; gmpy2 is C code only): an
#: exception raised in them while rdpsym reads an object is rdpsym's (``rdpsym.no_such`` raises in lazy_loader).
_DEPENDENCIES = ("sympy", "mpmath", "flint", "matplotlib", "rich", "lazy_loader", "platformdirs")
#: Where rdpsym's own code and its dependencies lie (found without importing them: ``find_spec`` of a top-level
#: package only locates it), and the standard library's folder (whose site-packages are not ours).
_OUR_PACKAGES = tuple(os.path.realpath(p) + os.sep for p in (
    Path(__file__).resolve().parents[1],
    *(Path(spec.origin).parent for spec in map(importlib.util.find_spec, _DEPENDENCIES)
      if spec is not None and spec.origin)))
_STANDARD_LIBRARY = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


def raised_by_foreign_code(exc: BaseException) -> bool:
    """Whether ``exc`` was raised in code outside rdpsym, its dependencies and the standard library: a peer object's
    property, iterator or ``__len__``, its library, or code typed at a prompt, in a doctest or through ``exec``.
    (Raised in rdpsym's own frames, it is rdpsym's, and passes.  An object's method that fails inside the standard
    library, ``json`` or ``Fraction`` called from it, is read as the standard library's, and passes too.)"""
    tb, last = exc.__traceback__, None
    while tb is not None:
        last, tb = tb, tb.tb_next
    if last is None:
        return False
    filename = last.tb_frame.f_code.co_filename
    if filename.startswith("<"):  # the interpreter's frozen modules; else a prompt's, a doctest's, exec'd code
        return not filename.startswith("<frozen")
    path = os.path.realpath(filename)
    if path.startswith(_OUR_PACKAGES):
        return False
    installed = {"site-packages", "dist-packages"} & set(Path(path).parts)
    return bool(installed) or not path.startswith(_STANDARD_LIBRARY)


def reads_peer_objects(what: str) -> Callable:
    """Decorator of an entry point that reads a peer's object (its first argument): an exception the object's own
    code raises anywhere in the reading (an ``events`` iterator, a ``history`` whose ``__len__`` raises, a
    ``params`` mapping whose ``__getitem__`` does) becomes a :class:`ParameterError` naming the object, as
    :func:`read_field` does for one field.  rdpsym's own errors, and exceptions raised in rdpsym's frames, pass
    unchanged.

    >>> class Events:
    ...     def __iter__(self):
    ...         raise RuntimeError("boom")
    >>> @reads_peer_objects("reading the events")
    ... def first(obj):
    ...     return next(iter(obj))
    >>> first(Events())
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.ParameterError: reading the events: the Events object's own code raised RuntimeError: boom
    """
    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def reading(obj, *args, **kwargs):
            try:
                return fn(obj, *args, **kwargs)
            except RdpSymError:
                raise
            except Exception as exc:  # noqa: BLE001 - foreign code may raise anything; rdpsym's own errors pass
                if not raised_by_foreign_code(exc):
                    raise
                raise ParameterError(f"{what}: the {kind(obj)} object's own code raised {type(exc).__name__}: "
                                     f"{_text(exc)}") from None
        return reading
    return decorate


def _text(exc: BaseException) -> str:
    """str(exc), for a foreign exception whose ``__str__`` may itself raise."""
    try:
        return str(exc)
    except Exception:  # noqa: BLE001
        return f"(its message could not be read: {type(exc).__name__}.__str__ raised)"


def read_optional(obj: object, name: str, where: str, default: object = None) -> object:
    """``obj.name`` where the field may be absent (``default`` then); a field that raises is an rdpsym error
    naming it, as in :func:`read_field`."""
    try:
        return getattr(obj, name)
    except AttributeError:
        return default
    except Exception:  # noqa: BLE001 - read_field words the error
        return read_field(obj, name, where)


def call_method(obj: object, name: str, where: str) -> object:
    """``obj.name()`` (a peer's ``build()``), any exception of foreign code an rdpsym error naming the call."""
    method = read_field(obj, name, where)
    try:
        return method()
    except Exception as exc:  # noqa: BLE001
        raise ParameterError(f"{where}.{name}() raised {type(exc).__name__}: {exc}") from None


def held(value: object) -> object:
    """A finite float of a peer's object (Python's, or NumPy's of any width) as the exact rational it holds;
    anything else unchanged (NaN and ±∞ too: the reader refuses or reads them, naming the field).

    >>> held(0.1), held(0.5), held("0.1"), held(float("inf"))
    (Fraction(3602879701896397, 36028797018963968), Fraction(1, 2), '0.1', inf)
    """
    value = _torch_float(value)
    if not (isinstance(value, float) or numpy_kind(value) == "f"):
        return value
    try:
        numerator, denominator = value.as_integer_ratio()  # exact, for float16 … long double alike
    except (AttributeError, OverflowError, ValueError):  # ±∞, NaN (or a 0-d array without the method)
        return value if math.isnan(float(value)) or math.isinf(float(value)) else Fraction(float(value))
    return Fraction(numerator, denominator)


def _torch_float(value: object) -> object:
    """A PyTorch 0-d floating tensor as the Python float it holds exactly (``item()`` widens float32 and float16
    exactly), anything else unchanged; read by its module's name, without importing torch.  A tensor was read as the
    decimal it prints: σ = tensor(0.7, float64), 0.69999999999999995559…, as 7/10, and its certified ε came out 4 ulp
    below the float's (a review: an optimizer's noise_multiplier may be a tensor)."""
    if type(value).__module__.split(".")[0] != "torch" or getattr(value, "ndim", None) != 0:
        return value
    try:
        return value.item() if value.is_floating_point() else value
    except Exception:  # noqa: BLE001 - a foreign object's method may raise anything: read as it is
        return value


def held_float(exact: Fraction) -> float | None:
    """The float whose exact binary value ``exact`` is, where it is one a report should show as that float (a peer's
    float read as the value it holds: a denominator a power of two past 2²⁰, which no short decimal has), else None.

    >>> held_float(Fraction(18.4)), held_float(Fraction(3, 2)), held_float(Fraction(1, 3))
    (18.4, None, None)
    """
    d = exact.denominator
    if d <= 2**20 or d & (d - 1):
        return None
    held = float(exact)
    return held if Fraction(held) == exact else None


def held_as_typed(value: object) -> object:
    """A number a user typed for one a float64 peer held (``rdpsym verify``'s orders, δ and parameters, copied from
    the peer's call): decimal text at the exact rational of the float nearest to it, as Python's ``float()`` would
    have made it; text written as a fraction ('92/5'), ∞, unreadable text (for the reader to name) and exact numbers
    unchanged; a float as :func:`held` reads it.  Elsewhere a typed 1.1 means 11/10; here it is the peer's 1.1: the
    order '18.4' read as 92/5 moved the sampled Gaussian's RDP at q = 10⁻⁴ by 107 ulp, and a correctly rounded
    value of the peer's was called unsafe (a review).

    >>> held_as_typed("18.4") == Fraction(18.4), held_as_typed("92/5"), held_as_typed("2"), held_as_typed("oo")
    (True, '92/5', Fraction(2, 1), 'oo')
    """
    if not isinstance(value, str) or "/" in value:
        return held(value)
    try:
        exact = number(value, "a number")
    except ParameterError:
        return value
    if not exact.is_Rational:
        return value
    nearest = float(Fraction(int(exact.p), int(exact.q)))  # (correctly rounded, as float() of the text)
    if math.isinf(nearest) or (nearest == 0 and exact != 0):
        return value  # (no float holds it: the reader refuses or reads it as typed)
    return Fraction(nearest)


def noise_scale(value: object, name: str) -> sp.Expr:
    """A peer's noise scale (a Gaussian's or Laplace's noise multiplier): a number ≥ 0 as :func:`held` reads it, or
    +∞ -- infinite noise, which releases nothing about the data, and which dp_accounting accounts as RDP 0 at every
    order (it was refused, so a ledger the peer reads could not be verified: a review).

    >>> noise_scale(float("inf"), "sigma"), noise_scale(0.5, "sigma")
    (oo, 1/2)
    """
    value = _torch_float(value)
    if (isinstance(value, float) or numpy_kind(value) == "f") and math.isinf(float(value)) and float(value) > 0:
        return sp.oo  # (floats only: float() of an integer of 400 digits overflows, and integers are never ∞)
    return nonnegative_parameter(held(value), name)


def numpy_kind(value: object) -> str | None:
    """The dtype kind ("f", "b", "i", ...) of a NumPy scalar or 0-d array, else None; read by its module's name,
    without importing NumPy.

    >>> numpy_kind(0.5), numpy_kind("0.5")
    (None, None)
    """
    if type(value).__module__.split(".")[0] != "numpy" or getattr(value, "ndim", 0) != 0:
        return None
    return getattr(getattr(value, "dtype", None), "kind", None)


def read_number(obj: object, name: str, where: str) -> object:
    """``obj.name`` as :func:`read_field` reads it, a float as the value it holds (:func:`held`), as every float of a
    peer's object is read (the module's docstring says why)."""
    return held(read_field(obj, name, where))


def count(value: object, name: str) -> int:
    """A composition count: an integer ≥ 0 (NumPy integers too; ``3.0`` is refused)."""
    return integer(value, name, minimum=0)


def public(name: str) -> Callable:
    """The factory ``rdpsym.<name>`` of the public API, looked up when used.

    The adapters sit below the package's top (which imports every layer), so
    they read the factory from the imported package instead of importing it
    upward; importing any ``rdpsym.*`` module has imported the package first.
    """
    package = sys.modules.get("rdpsym")
    factory = getattr(package, name, None)
    if factory is None:
        raise RdpSymError(f"reading this object needs rdpsym.{name}, which this version of rdpsym does not have")
    return factory


def shown(value: object) -> str:
    """A value as an error message shows it."""
    return _shown(value)


__all__ = ["UnsupportedPeerObject", "call_method", "count", "held", "held_as_typed", "held_float", "kind",
           "noise_scale", "numpy_kind", "public", "raised_by_foreign_code", "read_field", "read_number",
           "read_optional", "reads_peer_objects", "shown"]
