"""A pair of laws written with numbers, derived as the family its numbers sit in.

SymPy's algorithms are not uniform in their inputs: an integral can finish for a
symbolic exponent and not for the number 4 (its conditions then hold expressions
like ``Ne(alpha*s1**4/(alpha*s2**4 + s1**4), 1)`` that the integrator cannot
decide), a series for a symbolic r and not for r = 3.  Where two laws with no
free parameter get no closed form, the numbers at *shape positions* (beside the
variable: the 4 of |x|^4, the 1/3 of (1/3)^k, the 3 of Γ(k + 3), the rate of
e^{−2x}) become symbols, equal numbers one symbol; the family is derived; its
result is specialised back at the numbers and checked there against the
definition like every closed form (the laws as written, not the family, are
what is verified, so a family that is no law away from the numbers costs
nothing but time).  ±1 and 0 stay: they are structure, not parameters, and so do
the squares inside an exponential (abstracting the 2 of e^{−x²/2} turns a
Gaussian into a generalised Gaussian, a harder family).

The entry point, :func:`by_abstraction`, takes the derivation to run on the
family as an argument: the univariate route calls it on its own failure, and this
module sits below that route.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from rdpsym.engine.context import SYMPY_FAILURES
from rdpsym.foundations.budget import budgeted
from rdpsym.foundations.errors import NotVerified, RdpSymError
from rdpsym.laws.densities import Continuous, Density, Discrete, _as_checked

#: Numbers that are structure, never a parameter.
_STRUCTURE = (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
#: Exponents kept inside an exponential: the squares of the Gaussian shape.
_SQUARES = (sp.Integer(2), sp.Integer(-2))
#: CPU seconds the family's derivation may take.
FAMILY_SECONDS = 2.0


def shape_numbers(expr: sp.Expr, var: sp.Symbol, symbol_for: Callable[[sp.Rational], sp.Expr],
                  in_exponent: bool = False) -> sp.Expr:
    """``expr`` with each number at a shape position replaced by ``symbol_for(number)``: a rational argument of a
    node whose other arguments hold ``var``, except 0, ±1 and the squares inside an exponential (the Gaussian
    shape e^{−(x − μ)²/2}, whose 2 made into a symbol asks for a harder family).

    >>> x = sp.Symbol("x", positive=True)
    >>> names = {}
    >>> symbol_for = lambda n: sp.sign(n) * names.setdefault(abs(n), sp.Symbol(f"c{len(names)}", positive=True))
    >>> shape_numbers(x ** 3 * sp.exp(-x ** 2 / 5), x, symbol_for)
    x**c0*exp(-c1*x**2)
    """
    if expr.is_Atom or not expr.has(var):
        return expr
    args = expr.args
    out = []
    for i, arg in enumerate(args):
        beside_var = any(other.has(var) for j, other in enumerate(args) if j != i)
        square = in_exponent and isinstance(expr, sp.Pow) and i == 1 and arg in _SQUARES
        if arg.is_Rational and arg not in _STRUCTURE and beside_var and not square:
            out.append(symbol_for(arg))
        else:
            out.append(shape_numbers(arg, var, symbol_for, in_exponent or isinstance(expr, sp.exp)))
    return expr.func(*out)


def abstracted(P: Density, Q: Density) -> tuple[Density, Density, dict] | None:
    """P and Q with their shape numbers as symbols (one positive symbol per absolute value, shared by the two laws;
    a negative number is its negative), and the values ``{symbol: number}``; None when there is nothing to abstract
    (a table, or no shape number)."""
    if getattr(P, "table", None) is not None or getattr(Q, "table", None) is not None:
        return None
    symbols: dict = {}  # |number| ↦ its symbol

    def symbol_for(number: sp.Rational) -> sp.Expr:
        # −c for a negative number: the rate of e^{−x/2} and the 1/2 in front of it are one parameter
        s = symbols.setdefault(abs(number), sp.Dummy(f"c{len(symbols)}", positive=True))
        return s if number > 0 else -s

    exprs = [shape_numbers(law.expr, law.var, symbol_for) for law in (P, Q)]
    if not symbols:
        return None
    kind = {True: Discrete, False: Continuous}
    # each a law at the numbers, which is where its result is used
    laws = [_as_checked(law, kind[isinstance(law, Discrete)](expr, law.var, law.support, check=False))
            for law, expr in zip((P, Q), exprs)]
    return laws[0], laws[1], {s: size for size, s in symbols.items()}


def by_abstraction(P: Density, Q: Density, order, derive: Callable, verify: Callable,
                   written: Callable = lambda value: value):
    """The family's closed form at the numbers, verified, as (value, family result, values, evidence); None when the
    family has no closed form in :data:`FAMILY_SECONDS`, its result does not specialise to a real number, or the
    specialised value, as ``written`` writes it, is not verified by ``verify(value)`` (a :class:`NotVerified` is
    read as no answer here: the caller goes on to the definition's own value)."""
    found = abstracted(P, Q)
    if found is None:
        return None
    family_P, family_Q, values = found
    try:
        derived = budgeted(lambda: derive(family_P, family_Q, order), "the family of the numbers",
                           seconds=FAMILY_SECONDS)
    except (RdpSymError, *SYMPY_FAILURES):  # no closed form, out of time, or SymPy failing on the family
        return None
    if not isinstance(derived.result, sp.Basic):  # the family's own numeric fallback: nothing gained
        return None
    if any(h.xreplace(values) is not sp.true for h in derived.hypotheses
           if isinstance(h, sp.Basic) and h.free_symbols & set(values)):
        return None  # the family's result holds where the numbers are not
    value = written(derived.result.xreplace(values))
    if value.free_symbols or value.has(sp.nan, sp.zoo) or (value != sp.oo and value.is_extended_real is False):
        return None
    try:
        evidence = verify(value)
    except NotVerified:
        return None
    return value, derived.result, values, evidence

