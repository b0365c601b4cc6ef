"""Canonical symbols.

``alpha`` is the Rényi order.  SymPy cannot attach "alpha > 1" to a symbol,
so it is declared positive and "alpha > 1" is a *stated hypothesis* of every
symbolic derivation: sign decisions substitute alpha = 1 + beta with beta > 0
(see :mod:`rdpsym.engine.context`).
"""

from __future__ import annotations

import sympy as sp

#: The Rényi order; every symbolic-order derivation assumes ``alpha > 1``.
alpha = sp.Symbol("alpha", positive=True)

__all__ = ["alpha"]
