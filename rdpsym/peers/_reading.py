"""Reading a peer's objects: by class name and public fields, never by importing the peer.

A peer's object (a dp_accounting ``DpEvent``, an Opacus accountant, an autodp
mechanism) is recognised by the name of its class and read through the fields
its library documents, so rdpsym needs none of those libraries installed to
accept their objects, and imports none of them at ``import rdpsym``.  Every
number read goes through the one reader (:mod:`rdpsym.foundations.reading`): a
float is the decimal it prints as (``1.1`` is 11/10), like every other input of
rdpsym.

The factories of the mechanisms a peer's vocabulary names are looked up on the
public API (``rdpsym.<name>``) when they are used, by :func:`public`: the
adapters then depend only on the published names, not on the module that
defines each one, and a factory that this version of rdpsym does not have is
a clear error naming it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from rdpsym.foundations.errors import ParameterError, RdpSymError, must
from rdpsym.foundations.reading import _shown, integer


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


__all__ = ["UnsupportedPeerObject", "call_method", "count", "kind", "public", "read_field", "read_optional", "shown"]
