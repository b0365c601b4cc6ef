"""Numbers from outside Python's own types, and floats, as rdpsym reads them.

A peer's accountant hands over NumPy and PyTorch scalars (a float32 σ, an int64 count), and a user types floats;
:mod:`rdpsym.foundations.reading` reads every value through these two rules: a foreign scalar as the Python
number it stands for (:func:`numpy_scalar`), and a float as the decimal it prints as, except where that decimal is
not the number held (:func:`float_as_typed`).
"""

from __future__ import annotations

import sys
from decimal import Decimal
from fractions import Fraction


def float_as_typed(value: float) -> Fraction:
    """A finite float as the decimal it prints as (1.1 is 11/10: what a user who types 1.1 means); a subnormal one
    (nonzero, below 2.2·10⁻³⁰⁸) at its exact binary value, since it holds fewer digits than were typed and its
    shortest decimal is not the number used: 5e-324 holds 4.94·10⁻³²⁴, and a Gaussian of that σ read as 5·10⁻³²⁴
    had a published ε 2.4 % below the truth (a probe).

    >>> float_as_typed(1.1), float_as_typed(5e-324) == Fraction(5e-324) != Fraction("5e-324")
    (Fraction(11, 10), True)
    """
    if value != 0 and abs(value) < sys.float_info.min:
        return Fraction(value)
    return Fraction(repr(value))


def numpy_scalar(value: object) -> object:
    """A NumPy scalar (or 0-d array) as the Python number it stands for; anything else unchanged.

    NumPy is not imported: a value is recognised by its ``dtype``.  A float
    scalar is read like a Python float, as the shortest decimal of the float64 it
    equals: a float16 or float32 is first widened to float64, which holds it
    exactly.  ``numpy.float32(1.3)`` is then
    1.2999999523162842 (within 10⁻¹⁷ of the float it holds), the σ a peer
    accountant computes with and the noise its mechanism adds; read as the 1.3 NumPy prints, the RDP was 7·10⁻⁸
    relative below the event's and the certified ε below the truth (a probe).  A
    long double keeps the digits NumPy prints for it, which float64 would round.
    """
    dtype = getattr(value, "dtype", None)
    library = str(getattr(type(value), "__module__", None) or "").split(".")[0]  # (SymPy's f = Function("f"): None)
    if library == "torch" and type(value).__name__ in ("Tensor", "Parameter") and getattr(value, "ndim", None) == 0:
        # A PyTorch scalar (Opacus's accountants hold and return them): the Python number it holds, a float32
        # as the float64 it equals, as for NumPy below.  ("got tensor(2.)" was the message for a valid order.)
        return value.item()
    if dtype is None or library != "numpy" or getattr(value, "ndim", 0) != 0:
        return value
    kind = getattr(dtype, "kind", "")
    if kind == "b":
        return bool(value)
    if kind in "iu":
        return int(value)
    if kind == "f":
        if getattr(dtype, "itemsize", 16) <= 8:
            return float(value)  # exact: float16, float32 and float64 values are all float64 values
        shown = str(value[()] if hasattr(value, "shape") and value.shape == () else value)
        return Decimal(shown) if shown not in ("nan", "inf", "-inf") else float(shown)
    return value


__all__ = ["float_as_typed", "numpy_scalar"]
