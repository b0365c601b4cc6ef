"""Certified arithmetic: python-flint's Arb balls, and SymPy expressions evaluated in them.

An ``arb`` is a midpoint and a radius; every operation returns a ball that is
guaranteed to contain the exact result.  The accounting layer computes in balls
and reads both its decimal values (the midpoint, once the radius is below the
requested digits) and its certified enclosures from the same computation.

Arb's working precision is global state (``flint.ctx.prec``): python-flint 0.9
has one precision per process and no per-call precision.  :func:`precision`
sets it for a block and restores it, like ``mpmath.workprec``, under one
process-wide lock: see there what that guarantees across threads.
"""

from __future__ import annotations

import math
import os
import threading
from decimal import Decimal
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from rdpsym.foundations.budget import protect
from rdpsym.foundations.errors import InfiniteValue, OutsideDomain, Undecided  # noqa: F401 - raised here
from rdpsym.foundations.precision import BITS_PER_DIGIT, bits_for  # noqa: F401 - re-exported with the balls
from rdpsym.foundations.reading import exact, rational

#: Held by the thread inside a :func:`precision` block (re-entrant: blocks nest).
PRECISION_LOCK = threading.RLock()
if hasattr(os, "register_at_fork"):  # a child starts with one thread: a lock held by another stays held
    os.register_at_fork(after_in_child=lambda: globals().update(PRECISION_LOCK=threading.RLock()))


class precision:  # noqa: N801 - used like mpmath.workprec
    """Run a block at ``bits`` of Arb working precision.

    >>> with precision(200):
    ...     arb.pi().rel_accuracy_bits() > 190
    True

    Across threads: the block holds :data:`PRECISION_LOCK`, so two rdpsym
    computations never run at once at each other's precision, and each block
    restores the precision it found, inside the lock: after any rdpsym call a
    thread finds ``flint.ctx.prec`` as it was.  Since python-flint has one
    precision per process, a thread that uses python-flint directly *while* an
    rdpsym call runs in another thread computes at that call's precision until
    the block ends (hold ``PRECISION_LOCK``, or use a ``precision`` block, to
    wait for it); if it sets ``ctx.prec`` meanwhile, its setting is kept (the
    block restores only a precision it still finds at its own value), and
    rdpsym's balls stay certified -- an Arb ball contains the truth at any
    precision -- they may only be wider, which rdpsym's precision ladder
    notices as a radius too large.
    """

    def __init__(self, bits: int):
        self.bits = int(bits)

    @protect
    def __enter__(self):
        PRECISION_LOCK.acquire()
        self.saved = ctx.prec
        ctx.prec = self.bits
        return self

    @protect
    def __exit__(self, *exc) -> bool:
        try:
            if ctx.prec == self.bits:
                ctx.prec = self.saved
        finally:
            PRECISION_LOCK.release()
        return False


def to_fmpq(value: object, name: str = "value") -> fmpq:
    """An exact rational as ``fmpq``, read by :func:`rdpsym.foundations.reading.rational`.

    A Python float is read as the decimal it prints as (``1.1`` is 11/10), the
    rule of the whole package.

    >>> to_fmpq(sp.Rational(11, 10)), to_fmpq(3), to_fmpq(3.141592653589793)
    (11/10, 3, 3141592653589793/1000000000000000)
    """
    if isinstance(value, fmpq):
        return value
    if type(value) is float and math.isfinite(value):  # (a NumPy float subclass goes to the reader)
        value = Fraction(repr(value))  # exact decimal parse, without SymPy (conversions call this per input)
    if isinstance(value, Fraction):
        return fmpq(value.numerator, value.denominator)
    if isinstance(value, sp.Rational):
        return fmpq(int(value.p), int(value.q))
    return rational(value, name)


def to_arb(expr: object, values: dict | None = None) -> arb:
    """Evaluate a real SymPy expression as an Arb ball at the current precision.

    ``values`` maps free symbols to ``arb`` balls (or numbers).  Supported:
    rationals, Floats (their exact binary value), π, e, +, ×, powers, exp,
    log, sqrt, erf/erfc, sinh/cosh/tanh, sin/cos/tan/atan, Abs, Min/Max and Piecewise whose
    conditions the balls decide.  Anything else raises ``TypeError`` so a
    caller can fall back to a labelled non-certified value.

    >>> x = sp.Symbol("x")
    >>> with precision(100):
    ...     b = to_arb(sp.exp(x) / 2 + sp.Rational(1, 3), {x: 1})
    ...     b.overlaps(arb.const_e() / 2 + arb(1) / 3), b.rel_accuracy_bits() > 90
    (True, True)
    """
    return _Evaluator(values or {}).eval(expr if isinstance(expr, sp.Basic) else exact(expr, "expression"))


class _Evaluator:
    def __init__(self, values: dict):
        self.values = {k: (v if isinstance(v, arb) else _number(v)) for k, v in values.items()}

    def eval(self, e: sp.Expr) -> arb:  # noqa: C901 - one dispatch table
        if e in self.values:
            return self.values[e]
        if e.is_Integer:
            return arb(int(e))
        if e.is_Rational:
            return arb(fmpq(int(e.p), int(e.q)))
        if e.is_Float:
            m, x = sp.Float(e)._mpf_[1], sp.Float(e)._mpf_[2]
            sign = -1 if sp.Float(e)._mpf_[0] else 1
            return arb(sign * int(m)) * arb(2) ** x if m else arb(0)
        if e is sp.oo:
            raise InfiniteValue("the closed form is +oo here")
        if e is sp.pi:
            return arb.pi()
        if e is sp.E:
            return arb.const_e()
        if e.is_Add:
            out = arb(0)
            for a in e.args:
                out += self.eval(a)
            return out
        if e.is_Mul:
            out = arb(1)
            for a in e.args:
                out *= self.eval(a)
            return out
        if e.is_Pow:
            base, ex = e.args
            if ex.is_Integer:
                b = self.eval(base)
                return b ** int(ex) if int(ex) >= 0 else 1 / b ** (-int(ex))
            if ex == sp.S.Half:
                b = self.eval(base)
                if b < 0:
                    raise OutsideDomain(f"square root of a negative number: {e}")
                if not b >= 0:
                    raise Undecided(f"square root of a number not certified nonnegative: {e}")
                return b.sqrt()
            b, x = self.eval(base), self.eval(ex)
            if x.is_exact() and x.is_integer():
                # An exponent that is an integer at this point (a variable n): exact powers.
                n = int(x.unique_fmpz())
                return b ** n if n >= 0 else 1 / b ** (-n)
            if b < 0:
                raise OutsideDomain(f"non-integer power of a negative number: {e}")
            if not b > 0:
                raise Undecided(f"power of a base not certified positive: {e}")
            return (x * b.log()).exp()
        if isinstance(e, sp.exp):
            return self.eval(e.args[0]).exp()
        if isinstance(e, sp.log):
            a = self.eval(e.args[0])
            if a <= 0:
                raise OutsideDomain(f"log of a number <= 0: {e}")
            if not a > 0:
                raise Undecided(f"log of an argument not certified positive: {e}")
            return a.log()
        simple = {sp.erf: arb.erf, sp.erfc: arb.erfc, sp.sinh: arb.sinh, sp.cosh: arb.cosh,
                  sp.tanh: arb.tanh, sp.sin: arb.sin, sp.cos: arb.cos, sp.tan: arb.tan, sp.atan: arb.atan,
                  sp.Abs: abs}
        for cls, f in simple.items():
            if isinstance(e, cls):
                return f(self.eval(e.args[0]))
        if isinstance(e, (sp.Min, sp.Max)):
            vals = [self.eval(a) for a in e.args]
            out = vals[0]
            for v in vals[1:]:
                out = out.min(v) if isinstance(e, sp.Min) else out.max(v)
            return out
        if isinstance(e, sp.Piecewise):
            for value, cond in e.args:
                if self.decide(cond):
                    if value is sp.oo:
                        raise InfiniteValue(f"the closed form is +oo where {cond}" if cond is not sp.true
                                            else "the closed form is +oo here")
                    return self.eval(value)
            raise Undecided(f"no Piecewise branch applies: {e}")
        raise TypeError(f"no certified evaluation for {type(e).__name__}: {e}")

    def decide(self, cond) -> bool:
        if cond is sp.true or cond is True:
            return True
        if cond is sp.false or cond is False:
            return False
        if isinstance(cond, sp.And):
            return all(self.decide(c) for c in cond.args)
        if isinstance(cond, sp.Or):
            return any(self.decide(c) for c in cond.args)
        if isinstance(cond, sp.Not):
            return not self.decide(cond.args[0])
        if isinstance(cond, sp.core.relational.Relational):
            d = self.eval(cond.lhs - cond.rhs)
            op = cond.rel_op
            if op in (">", ">=") and (d > 0 or (op == ">=" and d >= 0)):
                return True
            if op in ("<", "<=") and (d < 0 or (op == "<=" and d <= 0)):
                return True
            if op in (">", ">=") and (d < 0 or (op == ">" and d <= 0)):
                return False
            if op in ("<", "<=") and (d > 0 or (op == "<" and d >= 0)):
                return False
            if op in ("==", "!=") and d.is_exact():
                return (d == 0) == (op == "==")
            raise Undecided(f"cannot decide {cond} with balls of this precision")
        raise TypeError(f"no certified decision for {cond}")


def _number(v: object) -> arb:
    if isinstance(v, (int, fmpq)):
        return arb(v)
    if isinstance(v, Fraction):
        return arb(fmpq(v.numerator, v.denominator))
    return _Evaluator({}).eval(exact(v, "value"))


def upper_decimal(ball: arb, digits: int) -> str:
    """A decimal string of ``digits`` significant digits that is ≥ every point of ``ball``.

    This is how a published ε is rounded: upward, so the printed guarantee is
    never stronger than the certified one.

    >>> with precision(100):
    ...     upper_decimal(arb(1) / 3, 5), upper_decimal(-arb(1) / 3, 5), upper_decimal(arb(2) ** -2000, 3)
    ('0.33334', '-0.33333', '8.71E-603')
    >>> with precision(100):   # a carry into the next power of ten keeps the digits asked for
    ...     upper_decimal(1 - arb(10) ** -10, 6), lower_decimal(-1 + arb(10) ** -10, 3)
    ('1.00000', '-1.00')
    """
    return _round_decimal(ball.upper(), digits, up=True)


def lower_decimal(ball: arb, digits: int) -> str:
    """A decimal string of ``digits`` significant digits that is ≤ every point of ``ball``."""
    return _round_decimal(ball.lower(), digits, up=False)


def _round_decimal(x: arb, digits: int, up: bool) -> str:
    m, e = x.mid().man_exp()  # an endpoint is exact: m·2^e
    value = Fraction(int(m)) * Fraction(2) ** int(e)
    if value == 0:
        return "0"
    shift = digits - 1 - floor_log10(abs(value))
    scaled = value * Fraction(10) ** shift
    n = math.ceil(scaled) if up else math.floor(scaled)
    if abs(n) == 10**digits:  # the rounding carried into the next power of ten (0.9999999 → 1.00000)
        n, shift = n // 10, shift - 1
    # Built from its digits: exact, whatever the decimal module's context precision.
    d = Decimal((0 if n >= 0 else 1, tuple(int(c) for c in str(abs(n))), -shift))
    return format(d, "f") if -20 <= digits - 1 - shift <= 20 else str(d)


def floor_log10(v: Fraction) -> int:
    """floor(log10(v)) for a positive rational, exactly (no float underflow at 1e-400)."""
    k = len(str(v.numerator)) - len(str(v.denominator))
    while Fraction(10) ** k > v:
        k -= 1
    while Fraction(10) ** (k + 1) <= v:
        k += 1
    return k
