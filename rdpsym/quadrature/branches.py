"""Where two laws switch branch, and which branch they take on a piece: the numeric reading's own search.

- the switch points (:func:`_switch_points`) are searched for at the numbers the
  parameters were given: the real zeros of the arguments of ``Abs``, ``sign`` and
  ``Heaviside``, of the differences of the arguments of ``Max``/``Min``, of both
  sides of the relations in ``Piecewise`` conditions, and of the polynomial
  factors of the expression, by exact real-root isolation for polynomials
  (:func:`_polynomial_zeros`), by ``solveset`` on the support otherwise
  (:func:`_zeros`, within :data:`_SOLVE_SECONDS`), and numerically where SymPy
  cannot say (:func:`_scanned_zeros`: sign changes on a scan, bisected to
  :data:`_ROOT_DIGITS` digits).
- each piece's branch is resolved by evaluating the switching atoms at a
  rational point inside it (:func:`_resolve`, :func:`_holds`).

Floors, ceilings and fracs are not switch points here: their jumps are lattices
(:mod:`rdpsym.quadrature.lattices`).
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.budget import time_budget
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.numbers import exact_rational
from rdpsym.foundations.precision import private_context
from rdpsym.quadrature.compile import compile_expr, to_mpf
from rdpsym.quadrature.real_order import _DIGITS, _le, _sign
from rdpsym.quadrature.region_records import _STEPS

#: Digits of the numeric zeros found by bisection.
_ROOT_DIGITS = 120


#: CPU seconds SymPy may take to solve for the zeros of one switching argument.
_SOLVE_SECONDS = 2.0


def _switch_points(expr: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The real points in [lo, hi] where ``expr`` may switch branch (floors aside: see
    :func:`rdpsym.quadrature.lattices._split_steps`)."""
    if (expr.free_symbols - {x}):
        names = ", ".join(sorted(str(s) for s in expr.free_symbols - {x}))
        raise NoClosedFormError(f"the numeric reading needs every parameter given; {expr} has {names}")
    arguments: list[sp.Expr] = []
    for atom in expr.atoms(sp.Abs, sp.sign, sp.Heaviside):
        if atom.args[0].has(x):
            arguments.append(atom.args[0])
    for atom in expr.atoms(sp.Max, sp.Min):
        terms = list(atom.args)
        arguments += [u - v for i, u in enumerate(terms) for v in terms[i + 1:] if (u - v).has(x)]
    for piecewise in expr.atoms(sp.Piecewise):
        for _, condition in piecewise.args:
            if isinstance(condition, sp.logic.boolalg.Boolean) and condition not in (sp.true, sp.false):
                for relation in condition.atoms(sp.core.relational.Relational):
                    if relation.has(x):
                        arguments.append(relation.lhs - relation.rhs)
    for factor in sp.Mul.make_args(expr):  # zeros of polynomial factors: where log|factor| changes branch
        base = factor.base if isinstance(factor, sp.Pow) and not factor.exp.has(x) else factor
        if base.has(x) and (base.is_polynomial(x) or _may_vanish(base, x, lo)):
            # (and of any sum that may vanish: (1 + cos 3x)/(2π) is 0 at ±π/3 and 1 − e^{−(x − 1/3)²} at 1/3, where
            # √(PQ) has a kink; unsplit, D_{1/2} settled 10⁻²⁸ from the truth and was called 40 digits (probes))
            arguments.append(base)
    points: list[sp.Expr] = []
    for u in arguments:
        points += _zeros(u, x, lo, hi)
    return points


def _may_vanish(factor: sp.Expr, x: sp.Symbol, lo: sp.Expr = -sp.oo) -> bool:
    """Whether a factor that is a sum may be 0 somewhere above ``lo``: a term not positive by SymPy's assumptions
    there (1 − e^{−x²}, 1 + cos 3x); a mixture's sum of positive terms never is, and costs no search.  A sum holding
    a floor, ceiling or frac is not one: its jumps are lattices (:mod:`rdpsym.quadrature.lattices`).

    The terms are read with x ≥ lo known (x − lo a nonnegative symbol, k! as Γ(k + 1)): a Poisson pmf's
    3000^k e^{−3000}/k! is positive for k ≥ 0, not for every k, and 10⁻²⁹·Poisson(3000) + (1 − 10⁻²⁹)·Geometric(9/100)
    was searched for zeros until the search's budget ran out (2 s, stretched on a slow machine; its KL 5.1 → 0.9 s).

    >>> x, k = sp.Symbol("x", real=True), sp.Symbol("k", integer=True)
    >>> _may_vanish(1 - sp.exp(-x**2), x), _may_vanish(1 + sp.cos(3 * x), x)
    (True, True)
    >>> _may_vanish(sp.exp(-x) / 3 + sp.exp(-x**2), x), _may_vanish(3**k / sp.factorial(k) + 2**-k, k, sp.S.Zero)
    (False, False)
    """
    if not isinstance(factor, sp.Add) or factor.has(sp.floor, sp.ceiling, sp.frac):
        return False
    if all(term.is_positive for term in factor.args):
        return False
    if lo in (-sp.oo, sp.oo) or not lo.is_number:
        return True
    above = sp.Dummy("above", nonnegative=True)  # x = lo + above; k! = Γ(k + 1), positive for every real k > −1
    return not all(term.xreplace({x: lo + above}).replace(sp.factorial, lambda n: sp.gamma(n + 1)).is_positive
                   for term in factor.args)


def _zeros(u: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """The real zeros of ``u`` in [lo, hi] (exact where SymPy finds them, else 120-digit rationals)."""
    if u.has(*_STEPS):
        raise NoClosedFormError(f"cannot locate where {u} changes sign (it holds a floor/ceiling/frac of {x})")
    if u.is_polynomial(x):
        return [r for r in _polynomial_zeros(sp.Poly(u, x)) if _le(lo, r) and _le(r, hi)]
    found = None
    with time_budget(_SOLVE_SECONDS, f"the zeros of {u}", absorb=True):
        try:
            solved = sp.solveset(u, x, domain=sp.Interval(lo, hi))
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            solved = None
        if isinstance(solved, sp.FiniteSet) and all(r.is_number for r in solved):
            found = [r for r in solved if _is_real(r)]
    if found is not None:
        return found
    return _scanned_zeros(u, x, lo, hi)


def _polynomial_zeros(poly: sp.Poly) -> list[sp.Expr]:
    if poly.degree() < 1:
        return []
    coeffs = poly.all_coeffs()
    if not all(c.is_number for c in coeffs):
        raise NoClosedFormError(f"the numeric reading needs every parameter given; got {poly.as_expr()}")
    if all(c.is_Rational for c in coeffs):
        return list(dict.fromkeys(sp.real_roots(poly)))  # exact: rationals and isolated CRootOf's
    if poly.degree() == 1:
        return [-coeffs[1] / coeffs[0]]
    if poly.degree() == 2:
        return [r for r in sp.roots(poly) if _is_real(r)]
    with private_context(_ROOT_DIGITS + 20) as ctx:
        values = [to_mpf(c, ctx) for c in coeffs]
        try:
            roots = ctx.polyroots(values, maxsteps=400, extraprec=2 * ctx.prec)
        except ctx.NoConvergence as exc:
            raise NoClosedFormError(f"the real zeros of {poly.as_expr()} were not found") from exc
        tiny = ctx.mpf(10) ** (-_ROOT_DIGITS // 2)
        return [exact_rational(ctx.re(r)) for r in roots if abs(ctx.im(r)) <= tiny * (1 + abs(r))]


def _is_real(r: sp.Expr) -> bool:
    if r.is_extended_real is not None:
        return bool(r.is_extended_real)
    with private_context(_DIGITS) as ctx:
        try:
            value = ctx.mpc(complex(sp.N(r, 30)))
        except (TypeError, ValueError):
            return False
        return abs(value.imag) <= ctx.mpf(10) ** -25 * (1 + abs(value))


def _scanned_zeros(u: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """Sign changes of ``u`` on a scan of [lo, hi] (4096 even points, or a geometric grid out to 10³⁰ toward an
    infinite end), each bisected to :data:`_ROOT_DIGITS` digits."""
    with private_context(_ROOT_DIGITS + 10) as ctx:
        f = compile_expr(u, x, ctx)

        def at(t):
            try:
                v = f(t)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                return None
            return v if isinstance(v, ctx.mpf) and ctx.isfinite(v) else None

        a, b = to_mpf(lo, ctx), to_mpf(hi, ctx)
        if ctx.isfinite(a) and ctx.isfinite(b):
            grid = [a + (b - a) * ctx.mpf(j) / 4096 for j in range(1, 4096)]
        else:
            steps = [ctx.mpf(10) ** (ctx.mpf(e) / 16) for e in range(-96, 481)]
            if ctx.isfinite(a):
                grid = [a + s for s in steps]
            elif ctx.isfinite(b):
                grid = [b - s for s in reversed(steps)]
            else:
                grid = [-s for s in reversed(steps)] + [ctx.zero] + steps
        found = []
        previous = None
        for t in grid:
            v = at(t)
            if v is None:
                previous = None
                continue
            if v == 0:
                found.append(exact_rational(t))
            elif previous is not None and (previous[1] > 0) != (v > 0):
                left, right = previous[0], t
                for _ in range(4 * ctx.prec):
                    mid = (left + right) / 2
                    w = at(mid)
                    if w is None or mid in (left, right):
                        break
                    if w == 0:
                        left = right = mid
                        break
                    if (w > 0) == (previous[1] > 0):
                        left = mid
                    else:
                        right = mid
                found.append(exact_rational((left + right) / 2))
            previous = (t, v) if v != 0 else None
        return found


def _resolve(e: sp.Expr, x: sp.Symbol, t: sp.Expr) -> sp.Expr:
    """``e`` with every Abs, sign, Heaviside, Max, Min and Piecewise replaced by the branch it takes at x = t
    (a rational point strictly between two switch points: the branch of the whole piece).  Floors stay."""
    if not isinstance(e, sp.Basic) or not e.has(x):
        return e
    if isinstance(e, sp.Piecewise):
        for value, condition in e.args:
            if _holds(condition, x, t):
                return _resolve(value, x, t)
        raise NoClosedFormError(f"no branch of {e} applies at {x} = {t}")
    if isinstance(e, (sp.Abs, sp.sign, sp.Heaviside)):
        u = _resolve(e.args[0], x, t)
        s = _sign(u.xreplace({x: t}))
        if isinstance(e, sp.Abs):
            return u if s >= 0 else -u
        if isinstance(e, sp.sign):
            return sp.Integer(s)
        if s == 0:
            return e.func(sp.S.Zero, *e.args[1:])
        return sp.S.One if s > 0 else sp.S.Zero
    if isinstance(e, (sp.Max, sp.Min)):
        terms = [_resolve(a, x, t) for a in e.args]
        best = terms[0]
        for term in terms[1:]:
            s = _sign((term - best).xreplace({x: t}))
            if (s > 0 and isinstance(e, sp.Max)) or (s < 0 and isinstance(e, sp.Min)):
                best = term
        return best
    if e.is_Atom:
        return e
    args = [_resolve(a, x, t) for a in e.args]
    if all(new is old for new, old in zip(args, e.args)):
        return e  # (no branch below: rebuilt, a Gaussian's density was evaluated again, a tenth of a certified check)
    return e.func(*args)


def _holds(condition, x: sp.Symbol, t: sp.Expr) -> bool:
    """Whether a Piecewise condition holds at x = t (relations decided by their sides' difference)."""
    if condition in (sp.true, sp.false):
        return condition is sp.true
    value = condition.xreplace({x: t})
    if value not in (sp.true, sp.false):
        value = value.replace(lambda r: isinstance(r, sp.core.relational.Relational),
                              lambda r: sp.true if _relation_holds(r) else sp.false)
    if value not in (sp.true, sp.false):
        raise NoClosedFormError(f"cannot decide the condition {condition} at {x} = {t}")
    return value is sp.true


def _relation_holds(r) -> bool:
    s = _sign(r.lhs - r.rhs)
    return {sp.Lt: s < 0, sp.Le: s <= 0, sp.Gt: s > 0, sp.Ge: s >= 0, sp.Eq: s == 0, sp.Ne: s != 0}[type(r)]
