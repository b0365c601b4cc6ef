"""SymPy expressions as programs of Arb operations: read once, run at every point.

A claim's side is evaluated in balls at a hundred sample points and two precisions, a closed form at every order of
a grid.  Walking the SymPy tree at each point asked each node what it is (a chain of ``isinstance`` tests) and built
``lhs − rhs`` of every Piecewise condition again; reading the tree once into nested Python functions leaves only the
Arb operations to each run: ``to_arb`` of a Laplace closed form at 256 bits took 29–34 µs a point by the walk and
16 µs by its program.  :func:`program` keeps the programs of expressions with free symbols (the ones run at many
points); :func:`run_once` reads and runs a constant without keeping it.

A program computes exactly what the walk did, in the same order, and raises the same errors at the same nodes:
a part no ball can evaluate raises :class:`~rdpsym.foundations.errors.NotCertifiable` only when it is reached (an
untaken Piecewise branch never is), at the current precision of :class:`rdpsym.foundations.balls.precision` -- the
constants are made when the program runs, not when it is read, so a program read at 256 bits runs correctly at
1 024.  The values of the free symbols come as a dict of balls; a symbol without one raises NotCertifiable.

>>> import sympy as sp
>>> from flint import arb
>>> x = sp.Symbol("x")
>>> run = program(sp.exp(x) / 2 + sp.Rational(1, 3))
>>> run({x: arb(0)}).overlaps(arb(5) / 6), run({x: arb(0)}).rel_accuracy_bits() > 45
(True, True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp
from flint import arb, fmpq

from rdpsym.foundations.errors import InfiniteValue, NotCertifiable, OutsideDomain, Undecided, shorten
from rdpsym.foundations.legendre import legendre_p_above_one

#: A compiled expression: the values of its free symbols (balls) to its ball.
Program = Callable[[dict], arb]
#: A compiled condition: the values of its free symbols to whether it holds (Undecided where the balls overlap).
Decision = Callable[[dict], bool]

#: Programs kept (the most recently used): a catalogue run (``rdpsym check``) reads 341 distinct expressions and runs
#: them 44 707 times.
KEPT_PROGRAMS = 4096


@functools.lru_cache(maxsize=KEPT_PROGRAMS)
def program(expr: sp.Basic) -> Program:
    """The program of ``expr``, kept for the next call with an equal expression (SymPy's structural equality: equal
    expressions are the same tree, so the same program)."""
    return _read(expr)


def run_once(expr: sp.Basic, values: dict | None = None) -> arb:
    """``expr`` in balls at ``values``, its program read for this call only (a constant, a one-off form)."""
    return _read(expr)(values or {})


def decision_once(condition: object, values: dict | None = None) -> bool:
    """Whether ``condition`` holds at ``values``, its test read for this call only."""
    return _read_condition(condition)(values or {})


@functools.lru_cache(maxsize=KEPT_PROGRAMS)
def decision(condition: object) -> Decision:
    """The compiled test of a condition (relations joined by And, Or, Not), kept like :func:`program`'s."""
    return _read_condition(condition)


def power(b: arb, n: int) -> arb:
    """b^n for an integer n ≥ 0: python-flint's ``b ** n`` is NaN for a ball that contains 0 ((x − y)² at x = y, a
    probe of the claims engine: a true identity was "undefined" there), so such a ball is raised by squaring, |b| for
    an even power."""
    if b > 0 or b < 0 or n == 0:
        return b ** n
    out, square = arb(1), abs(b) if n % 2 == 0 else b
    while n:
        if n & 1:
            out *= square
        square *= square
        n >>= 1
    return out


#: Functions of one argument whose ball is Arb's function of the argument's ball.
_ONE_ARGUMENT = ((sp.erf, arb.erf), (sp.erfc, arb.erfc), (sp.sinh, arb.sinh), (sp.cosh, arb.cosh),
                 (sp.tanh, arb.tanh), (sp.sin, arb.sin), (sp.cos, arb.cos), (sp.tan, arb.tan), (sp.atan, arb.atan),
                 (sp.Abs, abs), (sp.Ei, arb.ei))


def _read(e: sp.Basic) -> Program:  # noqa: C901 - one dispatch table
    if e.is_Symbol:
        return _symbol(e)
    if e.is_Integer:
        n = int(e)
        return lambda v: arb(n)
    if e.is_Rational:
        q = fmpq(int(e.p), int(e.q))
        return lambda v: arb(q)  # (rounded at the precision the program runs at)
    if e.is_Float:
        negative, m, x, _ = e._mpf_
        mantissa = -int(m) if negative else int(m)
        return (lambda v: arb(mantissa) * arb(2) ** x) if m else (lambda v: arb(0))
    if e is sp.oo:
        return _raising(InfiniteValue, "the closed form is +oo here")
    if e is sp.nan or e is sp.zoo:
        return _raising(NotCertifiable, f"no certified evaluation for {e} (not a number)")
    if e is sp.pi:
        return lambda v: arb.pi()
    if e is sp.E:
        return lambda v: arb.const_e()
    if e.is_Add:
        return _sum([_read(a) for a in e.args])
    if e.is_Mul:
        return _product([_read(a) for a in e.args])
    if e.is_Pow:
        return _power_of(e)
    if isinstance(e, sp.exp):
        return _unary(_read(e.args[0]), arb.exp)
    if isinstance(e, sp.log):
        return _log(e)
    for cls, f in _ONE_ARGUMENT:
        if isinstance(e, cls):
            return _unary(_read(e.args[0]), f)
    if isinstance(e, sp.gamma):
        return _unary(_read(e.args[0]), arb.gamma)  # (a pole in the ball gives a non-finite ball)
    if isinstance(e, (sp.uppergamma, sp.lowergamma, sp.expint)):  # Γ(s, z), γ(s, z), E_s(z): the engine's
        return _incomplete(e)  # incomplete gamma and exponential integral rules
    if isinstance(e, sp.beta):  # B(a, b) = Γ(a)Γ(b)/Γ(a + b) (one argument: B(a, a)); a Beta law's constant
        return _beta([_read(a) for a in (e.args if len(e.args) == 2 else e.args * 2)])
    if isinstance(e, sp.loggamma):
        return _checked(e, arb.lgamma, outside=None,
                        undecided=(lambda a: not a > 0, "loggamma of an argument not certified positive"))
    if isinstance(e, sp.acosh):
        return _checked(e, arb.acosh, outside=(lambda a: a < 1, "arccosh of a number < 1"),
                        undecided=(lambda a: not a >= 1, "arccosh of an argument not certified >= 1"))
    if isinstance(e, (sp.besseli, sp.besselk)):  # I_ν(z), K_ν(z) (von Mises, generalised inverse Gaussian)
        return _bessel(e)
    if isinstance(e, sp.hyper) and len(e.ap) <= len(e.bq):
        return _hypergeometric(e)
    if isinstance(e, sp.legendre):
        return _legendre(e)
    if isinstance(e, (sp.Min, sp.Max)):
        return _extreme([_read(a) for a in e.args], arb.min if isinstance(e, sp.Min) else arb.max)
    if isinstance(e, sp.Piecewise):
        return _piecewise(e)
    return _raising(NotCertifiable, f"no certified evaluation for {type(e).__name__}: {_short(e)}")


def _raising(error: type, message: str) -> Program:
    def fail(v):
        raise error(message)
    return fail


def _symbol(s: sp.Symbol) -> Program:
    def value(v):
        try:
            return v[s]
        except KeyError:
            raise NotCertifiable(f"no certified evaluation for {type(s).__name__}: {_short(s)}") from None
    return value


def _sum(parts: list[Program]) -> Program:
    def add(v):
        out = arb(0)
        for part in parts:
            out += part(v)
        return out
    return add


def _product(parts: list[Program]) -> Program:
    def multiply(v):
        out = arb(1)
        for part in parts:
            out *= part(v)
        return out
    return multiply


def _unary(argument: Program, f: Callable[[arb], arb]) -> Program:
    return lambda v: f(argument(v))


def _power_of(e: sp.Pow) -> Program:
    base, ex = e.args
    b = _read(base)
    if ex.is_Integer:
        n = int(ex)
        return (lambda v: power(b(v), n)) if n >= 0 else (lambda v: 1 / power(b(v), -n))
    if ex == sp.S.Half:
        def root(v):
            r = b(v)
            if r < 0:
                raise OutsideDomain(_Quoted("square root of a negative number", e))
            if not r >= 0:
                raise Undecided(_Quoted("square root of a number not certified nonnegative", e))
            return r.sqrt()
        return root
    x = _read(ex)

    def general(v):
        r, y = b(v), x(v)
        if y.is_exact() and y.is_integer():
            # An exponent that is an integer at this point (a variable n): exact powers.
            n = int(y.unique_fmpz())
            return power(r, n) if n >= 0 else 1 / power(r, -n)
        if r < 0 and not y.contains_integer():
            raise OutsideDomain(_Quoted("non-integer power of a negative number", e))
        if r < 0:  # an integer exponent whose ball is not exact yet (k + 1 at k = 10¹⁰⁰ at 256 bits): more bits
            raise Undecided(_Quoted("power of a negative number, its exponent not certified an integer", e))
        if not r > 0:
            raise Undecided(_Quoted("power of a base not certified positive", e))
        return (y * r.log()).exp()
    return general


def _log(e: sp.log) -> Program:
    argument = _read(e.args[0])

    def log(v):
        a = argument(v)
        if a <= 0:
            raise OutsideDomain(_Quoted("log of a number <= 0", e))
        if not a > 0:
            raise Undecided(_Quoted("log of an argument not certified positive", e))
        return a.log()
    return log


def _checked(e: sp.Function, f: Callable[[arb], arb], outside, undecided) -> Program:
    """``f`` of the one argument, after ``outside`` (a test, a message: certainly outside f's domain) and
    ``undecided`` (not certainly inside it)."""
    argument = _read(e.args[0])

    def value(v):
        a = argument(v)
        if outside is not None and outside[0](a):
            raise OutsideDomain(_Quoted(outside[1], e))
        if undecided[0](a):
            raise Undecided(_Quoted(undecided[1], e))
        return f(a)
    return value


def _incomplete(e: sp.Function) -> Program:
    s, z = (_read(a) for a in e.args)
    if isinstance(e, sp.uppergamma):
        return lambda v: _method_of_the_last(s, z, v, arb.gamma_upper)
    if isinstance(e, sp.lowergamma):
        return lambda v: _method_of_the_last(s, z, v, arb.gamma_lower)
    return lambda v: _method_of_the_last(s, z, v, arb.expint)


def _method_of_the_last(first: Program, last: Program, v: dict, method: Callable) -> arb:
    """``last.method(first)`` (Γ(s, z) is ``z.gamma_upper(s)``), the arguments run in SymPy's order, first then last,
    as the walk ran them: where both fail, the first one's error is the one raised."""
    a = first(v)
    return method(last(v), a)


def _beta(parts: list[Program]) -> Program:
    def beta(v):
        a, b = parts[0](v), parts[1](v)
        return a.gamma() * b.gamma() / (a + b).gamma()
    return beta


def _bessel(e: sp.Function) -> Program:
    nu, z = (_read(a) for a in e.args)
    return lambda v: _method_of_the_last(nu, z, v, arb.bessel_i if isinstance(e, sp.besseli) else arb.bessel_k)


def _hypergeometric(e: sp.hyper) -> Program:
    # ₚF_q(a; b; z), p ≤ q: a series converging for every z (₀F₁ is log I_ν's, quadrature.compile); a parameter b at
    # a pole gives a non-finite ball.  (p = q + 1 converges only for |z| < 1: not here.)
    tops, bottoms, argument = [_read(t) for t in e.ap], [_read(t) for t in e.bq], _read(e.argument)

    def value(v):
        a, b = [t(v) for t in tops], [t(v) for t in bottoms]
        out = argument(v).hypgeom(a, b)
        if not out.is_finite():
            raise Undecided(_Quoted("no finite ball for", e))
        return out
    return value


def _legendre(e: sp.legendre) -> Program:
    # P_ν(z), z ≥ 1 (the Cauchy laws' A): Arb's type 3, real there; −1 < z < 1: type 2.
    degree, argument = (_read(a) for a in e.args)

    def value(v):
        n, z = degree(v), argument(v)
        if z >= 1:
            return legendre_p_above_one(n, z)
        if z > -1 and z < 1:
            return z.legendre_p(n, 0, type=2)
        raise Undecided(_Quoted("Legendre function at an argument not certified on one side of 1", e))
    return value


def _extreme(parts: list[Program], pick: Callable[[arb, arb], arb]) -> Program:
    def value(v):
        values = [part(v) for part in parts]
        out = values[0]
        for other in values[1:]:
            out = pick(out, other)
        return out
    return value


def _piecewise(e: sp.Piecewise) -> Program:
    branches = []
    for piece, cond in e.args:
        if piece is sp.oo:
            message = f"the closed form is +oo where {cond}" if cond is not sp.true else "the closed form is +oo here"
            branches.append((_read_condition(cond), _raising(InfiniteValue, message)))
        else:
            branches.append((_read_condition(cond), _read(piece)))

    def value(v):
        for holds, branch in branches:
            if holds(v):
                return branch(v)
        raise Undecided(_Quoted("no Piecewise branch applies", e))
    return value


def _read_condition(cond: object) -> Decision:
    if cond is sp.true or cond is True:
        return lambda v: True
    if cond is sp.false or cond is False:
        return lambda v: False
    if isinstance(cond, sp.And):
        parts = [_read_condition(c) for c in cond.args]
        return lambda v: all(part(v) for part in parts)
    if isinstance(cond, sp.Or):
        parts = [_read_condition(c) for c in cond.args]
        return lambda v: any(part(v) for part in parts)
    if isinstance(cond, sp.Not):
        part = _read_condition(cond.args[0])
        return lambda v: not part(v)
    if isinstance(cond, sp.core.relational.Relational):
        return _relation(cond)
    return _raising(NotCertifiable, f"no certified decision for {_short(cond)}")


def _relation(cond: sp.core.relational.Relational) -> Decision:
    difference, op = _read(cond.lhs - cond.rhs), cond.rel_op

    def holds(v):
        d = difference(v)
        if op in (">", ">=") and (d > 0 or (op == ">=" and d >= 0)):
            return True
        if op in ("<", "<=") and (d < 0 or (op == "<=" and d <= 0)):
            return True
        if op in (">", ">=") and (d < 0 or (op == ">" and d <= 0)):
            return False
        if op in ("<", "<=") and (d > 0 or (op == "<" and d >= 0)):
            return False
        if op in ("==", "!=") and (d.is_exact() or d > 0 or d < 0):  # (a ball that excludes 0 decides too: Ne(x, 0) at
            return (d == 0) == (op == "==")  # x = −1 + 10⁻³⁰ was undecided, and a true claim unknown: a probe)
        raise Undecided(_Quoted("cannot decide with balls of this precision", cond))
    return holds


class _Quoted:
    """An error message quoting an expression, printed only when it is read.

    A program raises :class:`Undecided` and :class:`OutsideDomain` as answers (a claim's sample point where a log's
    argument is negative is undefined, not an error), and printing the expression into every such message was a
    seventh of a claim check's certified evaluations.

    >>> str(OutsideDomain(_Quoted("log of a number <= 0", sp.log(-sp.Symbol("x")))))
    'log of a number <= 0: log(-x)'
    >>> str(OutsideDomain(_Quoted("log of a number <= 0", sp.log(sp.Symbol("x") - sp.Rational(10**40 + 1, 3)))))
    'log of a number <= 0: log(x - 3.33333…e+39)'
    """

    __slots__ = ("text", "expr")

    def __init__(self, text: str, expr: object):
        self.text, self.expr = text, expr

    def __str__(self) -> str:
        try:
            quoted = _short(self.expr)
        except ValueError:  # (an integer past Python's 4 300 digits of str())
            quoted = f"an expression of {type(self.expr).__name__}"
        return shorten(f"{self.text}: {quoted}")

    def __reduce__(self):
        return str, (str(self),)  # across processes, the message as text (the expression is not sent along)

    __repr__ = __str__


def _short(e: object) -> str:
    """An expression as an error quotes it: cut short."""
    text = str(e)
    return text if len(text) <= 200 else text[:197] + "..."


__all__ = ["KEPT_PROGRAMS", "Decision", "Program", "decision", "decision_once", "power", "program", "run_once"]
