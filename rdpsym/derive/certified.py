"""The definition's integral as a certified Arb ball: the fast path of the 40-digit check.

:func:`~rdpsym.derive.verify.check_against_definition` compares every closed form
with D_α(P‖Q) = log(∫ P^α Q^{1−α})/(α − 1) at sampled points.  Here that integral
is computed with python-flint's ``acb.integral`` (Arb's rigorous Gauss–Legendre
integration of holomorphic functions: the answer is a ball certain to contain it),
piece by piece on the numeric routes' own reading of the supports
(:func:`rdpsym.quadrature.regions.read_regions`, never the derivation's common
refinement), where both densities are smooth.  The integrand is compiled by its
logarithm, exp(α·log p + (1 − α)·log q), from the same expanded log-densities as the mpmath route
(:func:`~rdpsym.quadrature.compile.log_expression`), into ``acb`` arithmetic that
refuses (a non-finite ball) wherever a branch cut or a kink could be touched.

An infinite end is cut at a finite T with a rigorous bound on the tail: on the last
piece the log-integrand must be a polynomial in x plus terms c·log(g), g a polynomial;
for large x, c·log g ≤ c·m·log x + const, so L(x) ≤ poly(x) + K·log x + C.  With a
polynomial of degree d ≥ 1 and negative leading coefficient, for x ≥ T ≥ 1 (log y ≤ √y)

    L(x) ≤ x^d·(c_d + A/T + B/√T) + C ≤ −(|c_d|/2)·T^{d−1}·x + C,

once A/T + B/√T ≤ |c_d|/2, and ∫_T^∞ e^L ≤ e^{C − kT}/k with k = |c_d|·T^{d−1}/2; with a
constant polynomial and K < −1 (a power-law tail: Pareto, Cauchy, Student's t),
∫_T^∞ e^L ≤ e^C·T^{K+1}/(−K−1).  T is chosen so that the bound is below
10^−(digits + 20) (and the mass ∫ P^α Q^{1−α} is ≥ 1 for α > 1).  The tail is added
as a ball [−bound, bound].

A finite end where e^L has a non-integer power c > −1 of the distance to it (Gamma and
Beta shapes, x^{−1/2}) is cut at a dyadic ε with the bound of that segment (:func:`_end_cut`);
integer powers are computed as powers, holomorphic up to the end.  At α = 1 the integrand
is P·log(P/Q) (the KL divergence).

Anything else -- a discrete law, α = ∞, an unsupported function, a logarithm whose
argument is not shown positive on the piece, a density that vanishes on part of the
other's support, a tail of another shape (e^{−√x}, e^{−e^x}) or too slow to reach (x^{−1.01}),
an integrand Arb cannot bound, a ball too wide for the digits asked -- gives None, and the
caller uses the mpmath route unchanged.  Thread-safe: the work runs in
one :class:`~rdpsym.foundations.balls.precision` block (python-flint's precision is
process-wide; the block holds the lock).

>>> import sympy as sp, rdpsym
>>> P, Q = rdpsym.gaussian(sigma=2).pair
>>> ball = certified_divergence(P, Q, sp.Integer(3), 40)
>>> ball.overlaps(arb(3) / 8), ball.rad() < arb(10) ** -42   # α/(2σ²), certified
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp
from flint import acb, arb

from rdpsym.foundations.balls import precision, to_arb
from rdpsym.foundations.errors import NotCertifiable, SymbolicTimeout
from rdpsym.foundations.precision import bits_for, sympy_evalf_guard
from rdpsym.laws.densities import Continuous, Density
from rdpsym.quadrature.compile import log_expression
from rdpsym.quadrature.regions import Law, read_regions

#: How the evidence names this route (:class:`~rdpsym.foundations.record.AgreesWithDefinition`.method).
METHOD = "certified quadrature (Arb)"

#: Work ceilings of one ``acb.integral`` call (Arb's own limits: integrand evaluations, bisection depth).
_EVAL_LIMIT = 40_000
_DEPTH_LIMIT = 400
#: The farthest cut of a power-law tail, in bits of T: beyond |x| = 2^8 the range is integrated in
#: u = log|x| (see :func:`_piece_integral`), where the tail decays like e^{(K+1)u}, so a cut at
#: T = 2^4096 (u ≈ 2840) costs Arb a few subdivisions (Pareto laws of shape 1/3 need T ≈ 10^180).
_FARTHEST_CUT_BITS = 4096
#: Doublings of the cut T at an infinite end before giving up.
_DOUBLINGS = 80

_NaN = acb(arb("nan"))

#: A compiled expression: f(z, analytic) -> acb (see :func:`_compile`).
Compiled = Callable[[acb, bool], acb]


def certified_divergence(P: Density, Q: Density, order: sp.Expr, digits: int) -> arb | None:
    """D_order(P‖Q) as an Arb ball of relative radius below 10^−(digits+1), or None where this route
    does not apply (the caller then uses :func:`~rdpsym.derive.numeric.renyi_divergence_mp`).

    P and Q are one-dimensional continuous laws with every parameter given; ``order`` a
    positive rational (α = ∞ is not an integral).  At α = 1 the integral is the KL
    divergence ∫ P·r with r = log P − log Q; its tails are bounded through
    |r| ≤ (e^{εr} + e^{−εr})/ε with ε = 1/4, that is |P·r| ≤ e^{log 4 + (5/4)·log P − (1/4)·log Q}
    + e^{log 4 + (3/4)·log P + (1/4)·log Q}.
    """
    try:
        return _certified(P, Q, order, digits)
    except SymbolicTimeout:
        raise  # a caller's time budget ran out: not this route's failure
    except Exception:  # noqa: BLE001 - an optional fast path: anything it cannot do, the mpmath route does
        return None


def _certified(P: Density, Q: Density, order: sp.Expr, digits: int) -> arb | None:
    order = sp.S(order)
    if not (isinstance(P, Continuous) and isinstance(Q, Continuous)) or getattr(P, "table", None) is not None:
        return None
    if not isinstance(P.var, sp.Symbol):
        return None  # laws in several variables: rdpsym.derive.multivariate
    if not (order.is_Rational and order.is_positive):
        return None
    if P.parameters or Q.parameters or P.var != Q.var:
        return None
    x = P.var
    pieces = []
    with sympy_evalf_guard():  # the numeric routes' own reading of the supports, never the derivation's
        regions = read_regions(Law(P.expr, x, P.support), Law(Q.expr, x, Q.support))
    for pair in regions:
        if pair.lattice is not None:
            return None  # infinitely many cells between the jumps of a floor: the mpmath route sums them
        if pair.p == 0 and pair.q == 0:
            continue
        if pair.p == 0 or pair.q == 0:
            return None  # mass of one law only: the mpmath route says ∞ (α ≥ 1) or integrates the rest
        lp, lq = log_expression(pair.p), log_expression(pair.q)
        if (lp.free_symbols | lq.free_symbols) - {x}:
            return None
        # log_expression expands with force=True: log((x − 1)²) becomes 2·log(x − 1), true only where
        # x > 1.  Every logarithm's argument must be positive on the piece, or the route is not taken.
        if not all(_positive_on(g.args[0], x, pair.lo, pair.hi) for g in (lp + lq).atoms(sp.log)):
            return None
        if order == 1 and _log_vanishes_at_an_end(sp.expand(lp - lq), x, pair.lo, pair.hi):
            return None  # log(P/Q) singular at an end: not holomorphic up to it (no end cut for P·r)
        if order == 1:  # |r| ≤ (e^{εr} + e^{−εr})/ε, ε = 1/4: |P·r| ≤ 4·(P^{5/4}Q^{−1/4} + P^{3/4}Q^{1/4})
            # A smaller ε where that bound's tail is too heavy (Pareto laws with g₂ > 5g₁: x^{−(5/4)(g₁+1) +
            # (g₂+1)/4} is not integrable); the first ε whose bounds give a cut is used.
            options = tuple(tuple(sp.expand((1 + s * eps) * lp - s * eps * lq + sp.log(1 / eps)) for s in (1, -1))
                            for eps in (sp.Rational(1, 4), sp.Rational(1, 32), sp.Rational(1, 256)))
            pieces.append((pair.lo, pair.hi, ("KL", lp, lq), options))
        else:
            L = sp.expand(order * lp + (1 - order) * lq)
            pieces.append((pair.lo, pair.hi, ("exp", L), ((L,),)))
    if not pieces:
        return None
    with precision(bits_for(digits + 15)):
        total = arb(0)
        for lo, hi, integrand, options in pieces:
            ends = integrand[1] if integrand[0] == "exp" else None
            infinite = lo is -sp.oo or hi is sp.oo  # (the far-tail form is used in infinite tails only)
            far = _exp_of(integrand[1], x, powers=False) if integrand[0] == "exp" and infinite else None
            f = _integrand(integrand, x)
            piece = None
            for bounds in options:
                piece = _piece_integral(f, bounds, x, lo, hi, digits, ends, far)
                if piece is not None:
                    break
            if piece is None:
                return None
            total += piece
        if order == 1:
            value = total
        else:
            if not total > 0:
                return None
            value = total.log() / to_arb(order - 1)
        if not value.is_finite() or not value.rad() <= abs(value.mid()) * arb(10) ** -(digits + 1):
            return None  # too wide to decide the digits compared (a value that cancels): the mpmath route
        return value


def _positive_on(g: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether g > 0 on the open interval (lo, hi), decided exactly (False when undecided).

    A constant by its sign; a polynomial with numeric coefficients by Sturm's count of its real
    roots there (none inside) and its sign at one inside point; anything else only when SymPy
    knows it positive for every real x (e^x, x² + 1)."""
    if x not in g.free_symbols:
        return g.is_positive is True
    if g.is_positive is True:
        return True
    try:
        poly = sp.Poly(g, x)
    except sp.PolynomialError:
        return False
    if not all(c.is_Rational for c in poly.all_coeffs()):
        return False
    inside_lo = None if lo is -sp.oo else lo
    inside_hi = None if hi is sp.oo else hi
    if any(e is not None and not e.is_Rational for e in (inside_lo, inside_hi)):
        return False
    roots = poly.count_roots(inside_lo, inside_hi)  # on the closed interval: roots at its ends do not count
    roots -= sum(1 for e in (inside_lo, inside_hi) if e is not None and poly.eval(e) == 0)
    if roots:
        return False
    inside = (lo + hi) / 2 if inside_lo is not None and inside_hi is not None else (
        inside_lo + 1 if inside_lo is not None else (inside_hi - 1 if inside_hi is not None else sp.S.Zero))
    return bool(poly.eval(inside) > 0)


def _log_vanishes_at_an_end(r: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether some log(g) in r has g = 0 at a finite end of the piece."""
    return any(end not in (sp.oo, -sp.oo) and sp.expand(g.args[0].subs(x, end)) == 0
               for g in r.atoms(sp.log) for end in (lo, hi))


def _integrand(kind: tuple, x: sp.Symbol) -> Compiled:
    """The integrand in acb arithmetic: e^L (``("exp", L)``) or e^{lp}·(lp − lq) (``("KL", lp, lq)``)."""
    if kind[0] == "exp":
        return _exp_of(kind[1], x)
    _, lp, lq = kind
    density, ratio = _exp_of(lp, x), _compile(sp.expand(lp - lq), x)  # (log x terms of the same power cancel)
    return lambda z, analytic: density(z, analytic) * ratio(z, analytic)


def _exp_of(L: sp.Expr, x: sp.Symbol, powers: bool = True) -> Compiled:
    """e^L, with each term n·log(g) (n a nonzero integer) taken out as the power g^n: holomorphic where g is,
    so x^2·e^{−x²} integrates up to its end at 0, where log x would touch the branch cut.

    With ``powers`` False everything stays in the exponent: far out (the tails integrated in u = log|x|,
    where no g vanishes) Arb bounds e^{n·log g} on a wide complex ball far better than g^n, and so
    needs far fewer evaluations (a Cauchy pair at α = 3: within 4·10⁴ evaluations, where the powers
    exceeded them)."""
    taken, rest = [], sp.S.Zero
    for term in sp.Add.make_args(L):
        coeff, factor = term.as_independent(x, as_Add=False)
        if powers and isinstance(factor, sp.log) and coeff.is_Integer:
            taken.append((_compile(factor.args[0], x), int(coeff)))
        else:
            rest += term
    e = _compile(rest, x)

    def f(z, analytic):
        out = e(z, analytic).exp()
        for g, n in taken:
            out *= g(z, analytic) ** n if n > 0 else 1 / g(z, analytic) ** (-n)
        return out
    return f


def _piece_integral(f: Compiled, bounds: tuple, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, digits: int,
                    L: sp.Expr | None = None, far: Compiled | None = None) -> arb | None:
    """∫_lo^hi f as a real ball, or None.  At an infinite end the range is cut at T and the tail,
    where |f| ≤ Σ e^B over ``bounds``, added as a ball [−Σ, Σ] (see :func:`_tail_cut`).  At a finite
    end where f = e^L has a non-integer power of the distance to the end (``L`` given), a segment
    is cut off with a bound of its integral (:func:`_end_cut`)."""
    tail = arb(0)
    lo0, hi0 = lo, hi  # (the ends as SymPy numbers, for the tail cuts)
    if L is not None:
        for end, inward in ((lo, 1), (hi, -1)):
            if end in (sp.oo, -sp.oo):
                continue
            cut = _end_cut(L, x, end, inward, (lo0, hi0), digits)
            if cut is None:
                return None
            if cut is not True:
                moved, bound = cut
                lo, hi = (moved, hi) if inward == 1 else (lo, moved)
                tail += bound
    if hi is sp.oo:
        start = lo0 if lo0 is not -sp.oo else sp.S.Zero
        cuts = [_tail_cut(B, x, start, digits) for B in bounds]
        if None in cuts:
            return None
        b = max((T for T, _ in cuts), key=lambda T: T.mid())
        tail += sum((_tail_at(B, x, b) for B in bounds), arb(0))
    else:
        b = hi if isinstance(hi, arb) else to_arb(hi)
    if lo is -sp.oo:
        start = -hi0 if hi0 is not sp.oo else sp.S.Zero
        reflected = [B.xreplace({x: -x}) for B in bounds]
        cuts = [_tail_cut(B, x, start, digits) for B in reflected]
        if None in cuts:
            return None
        T = max((T for T, _ in cuts), key=lambda T: T.mid())
        a = -T
        tail += sum((_tail_at(B, x, T) for B in reflected), arb(0))
    else:
        a = lo if isinstance(lo, arb) else to_arb(lo)
    if not a < b:
        return None
    # A far cut (a power-law tail: T ≈ 10^60) is reached in u = log|x| over the part beyond |x| = 2^8:
    # ∫ f(x) dx = ∫ f(±e^u)·e^u du, where the tail decays like e^{(K+1)u}, not like x^K.
    parts = []
    near = arb(2) ** 8
    if b > near and b > 2 ** 16 * a.max(near):
        cut = a.max(near)
        g = far if far is not None and hi0 is sp.oo else f  # (e^{L} throughout in an infinite tail: see _exp_of;
        # at a far finite end a factor of L may vanish, where its power, not its log, is holomorphic)
        parts.append((lambda w, analytic, g=g: g(w.exp(), analytic) * w.exp(), cut.log(), b.log()))
        b = cut
    if a < -near and a < 2 ** 16 * b.min(-near):
        cut = b.min(-near)
        g = far if far is not None and lo0 is -sp.oo else f
        parts.append((lambda w, analytic, g=g: g(-w.exp(), analytic) * w.exp(), (-cut).log(), (-a).log()))
        a = cut
    parts.append((f, a, b))
    total = arb(0)
    for g, left, right in parts:
        def integrand(z, analytic, g=g):
            try:
                return g(z, analytic)
            except (ZeroDivisionError, ValueError, ArithmeticError):
                return _NaN

        result = acb.integral(integrand, left, right, eval_limit=_EVAL_LIMIT, depth_limit=_DEPTH_LIMIT)
        if not result.is_finite() or not result.imag.contains(0):
            return None
        total += result.real
    return total + arb(0, tail.upper()) if tail != 0 else total


def _end_cut(L: sp.Expr, x: sp.Symbol, end: sp.Expr, inward: int, piece: tuple, digits: int):
    """True when e^L is holomorphic up to the finite ``end`` (no non-integer power of the distance to it);
    else (end ± ε, bound) with ∫ e^L over the ε-segment at the end ≤ bound ≤ 10^−(digits+20); None when
    no such bound is found (a power ≤ −1, or e^{rest} unbounded there).

    With L = Σ c_j·log(u_j·(x − end)) + rest, c = Σ c_j > −1:
    ∫_segment e^L ≤ sup_segment e^{rest} · Π|u_j|^{c_j} · ε^{c+1}/(c+1).
    """
    singular, rest, scale = sp.S.Zero, sp.S.Zero, sp.S.One
    for term in sp.Add.make_args(sp.expand(L)):
        coeff, factor = term.as_independent(x, as_Add=False)
        if isinstance(factor, sp.log) and not coeff.is_Integer:
            g = factor.args[0]
            u = sp.diff(g, x)
            if x not in u.free_symbols and sp.expand(g.subs(x, end)) == 0:
                singular += coeff
                scale *= abs(u) ** coeff
                continue
        rest += term
    if singular == 0:
        return True
    if not singular > -1:
        return None
    if (digits + 20) * math.log2(10) / float(singular + 1) > _DEPTH_LIMIT:
        return None  # ε = 10^{−(digits+20)/(c+1)}: more bisections toward the end than Arb is allowed
    width = abs(to_arb(piece[1] - piece[0])) if all(e not in (sp.oo, -sp.oo) for e in piece) else arb(1)
    eps = arb(1) if not width < 4 else width / 4
    e = to_arb(end)
    exp_rest = _exp_of(rest, x)
    power = to_arb(singular) + 1
    target = arb(10) ** -(digits + 20)
    for _ in range(_DOUBLINGS):
        eps = _dyadic_below(eps)
        segment = e.union(e + inward * eps)  # ⊇ [end, end + ε] (or [end − ε, end])
        try:
            top = exp_rest(acb(segment), False).abs_upper()
        except (ZeroDivisionError, ValueError, ArithmeticError):
            return None
        if top.is_finite():
            bound = top * to_arb(scale) * eps ** power / power
            if bound <= target:
                return e + inward * eps, bound
        eps /= 256
    return None


def _dyadic_below(v: arb) -> arb:
    """A power of two at most v's lower end (v > 0): an exact cut point."""
    return arb(2) ** int(math.floor(float(v.lower().log() / arb(2).log())) - 1)


def _tail_at(L: sp.Expr, x: sp.Symbol, T: arb) -> arb:
    """The bound of :func:`_tail_cut` for ∫_T^∞ e^L at a given T (already known to be valid there)."""
    return _tail_bound(L, x, sp.S.Zero, T)[1]


def _tail_cut(L: sp.Expr, x: sp.Symbol, start: sp.Expr, digits: int) -> tuple[arb, arb] | None:
    """(T, bound) with T ≥ max(1, start) and ∫_T^∞ e^L ≤ bound ≤ 10^−(digits+20), or None when no bound of
    the shapes of :func:`_tail_shape` holds (or the cut would be too far for Arb's bisection to reach)."""
    shape = _tail_shape(L, x, start)
    if shape is None:
        return None
    target = arb(10) ** -(digits + 20)
    T = shape[-1]
    if shape[0] == "power":  # e^C·T^{K+1}/(−K−1) ≤ target: T = (e^C/((−K−1)·target))^{1/(−K−1)}
        _, K, C, _ = shape
        s = -K - 1
        need = ((C - (s * target).log()) / s).exp()
        if not need.is_finite() or need.upper() > arb(2) ** _FARTHEST_CUT_BITS:
            return None  # a tail so slow that its cut is beyond even the log-scale range (x^{−1.01})
        T = T.max(arb(2) ** int(math.ceil(float((need.upper().log() / arb(2).log()).upper()))))
    for _ in range(_DOUBLINGS):
        bound = _bound(shape, T)
        if bound is not None and bound <= target:
            return T, bound
        T *= 2
    return None


def _tail_bound(L: sp.Expr, x: sp.Symbol, start: sp.Expr, T: arb) -> tuple[arb, arb]:
    shape = _tail_shape(L, x, start)
    bound = None if shape is None or not T >= shape[-1] else _bound(shape, T)
    if bound is None:
        raise ValueError("no tail bound at this cut")
    return T, bound


def _bound(shape: tuple, T: arb) -> arb | None:
    """∫_T^∞ e^L for x ≥ T ≥ T₀ (else None):
    ``("power", K, C, T₀)``: L ≤ K·log x + C, K < −1, so ≤ e^C·T^{K+1}/(−K−1);
    ``("exp", d, |c_d|, A, B, C, T₀)``: L ≤ c_d·x^d + A·x^{d−1} + B·√x + C, so ≤ e^{C − kT}/k with
    k = |c_d|·T^{d−1}/2, once A/T + B/√T ≤ |c_d|/2."""
    if shape[0] == "power":
        _, K, C, _ = shape
        return C.exp() * T ** (K + 1) / (-K - 1)
    _, d, lead, A, B, C, _ = shape
    if not A / T + B / T.sqrt() <= lead / 2:
        return None
    k = lead * T ** (d - 1) / 2
    return (C - k * T).exp() / k


def _tail_shape(L: sp.Expr, x: sp.Symbol, start: sp.Expr) -> tuple | None:
    """A bound of L on [T₀, ∞) (see :func:`_bound`), or None.

    L must be a polynomial in x plus terms c·log(g), g a polynomial with positive leading coefficient ℓ,
    of degree m.  For x ≥ T₀ ≥ max(1, 2·Σ_{i<m}|g_i|/ℓ), g/(ℓx^m) lies in [1/2, 3/2], so
    c·log g ≤ c·m·log x + c·log ℓ + |c|·log 2: L ≤ poly(x) + K·log x + C.  Then either the
    polynomial has degree d ≥ 1 and a negative leading coefficient (K·log x ≤ K·√x when K > 0, ≤ 0
    otherwise), or it is constant and K < −1 (a power-law tail).
    """
    poly = sp.S.Zero
    K, C = arb(0), arb(0)
    floor = max(1.0, float(start) if start.is_number else 1.0)
    for term in sp.Add.make_args(sp.expand(L)):
        if x not in term.free_symbols:
            poly += term
            continue
        coeff, rest = term.as_independent(x, as_Add=False)
        if not isinstance(rest, sp.log):
            poly += term
            continue
        if x in coeff.free_symbols or not coeff.is_number:
            return None
        try:
            g = sp.Poly(rest.args[0], x)
        except sp.PolynomialError:
            mixture = _log_sum_of_exponentials(to_arb(coeff), rest.args[0], x)
            if mixture is None:
                return None
            dominant, constant, reach = mixture
            poly += coeff * dominant
            C += constant
            floor = max(floor, reach)
            continue
        gs = [to_arb(v) for v in g.all_coeffs()]
        if g.degree() < 1 or not gs[0] > 0:
            return None
        c = to_arb(coeff)
        K += c * g.degree()
        C += c * gs[0].log() + abs(c) * arb(2).log()
        spread = sum((abs(v) for v in gs[1:]), arb(0)) / gs[0]
        floor = max(floor, float((2 * spread).upper()))
    try:
        p = sp.Poly(poly, x)
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return None
    if any(not v.is_number for v in p.all_coeffs()):
        return None
    coeffs = [to_arb(v) for v in p.all_coeffs()]  # leading first
    d = p.degree()
    C += coeffs[-1]
    if not math.isfinite(floor):
        return None
    T0 = arb(math.ceil(floor))
    if d < 1:
        return ("power", K, C, T0) if K < -1 else None
    if not coeffs[0] < 0:
        return None
    A = sum((abs(v) for v in coeffs[1:-1]), arb(0))  # x^i, 1 ≤ i < d: ≤ x^(d−1) for x ≥ 1
    B = K if K > 0 else arb(0)  # K·log x ≤ K·√x  (log y ≤ √y); ≤ 0 when K ≤ 0, x ≥ 1
    if not (K > 0 or K <= 0):
        return None
    return "exp", d, -coeffs[0], A, B, C, T0


def _log_sum_of_exponentials(c: arb, S: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, arb, float] | None:
    """A bound of c·log S for large x, S = Σ a_i·e^{h_i} (a mixture's density: a_i > 0 constants, h_i
    polynomials), as (h, C, T₀) with c·log S ≤ c·h + C for x ≥ T₀; None for any other S.

    h is the exponent that dominates as x → ∞ (the largest h_i, compared by their differences).
    For c < 0, S ≥ a·e^{h} everywhere, so c·log S ≤ c·h + c·log a.  For c > 0, each other
    difference d_i = h_i − h is a constant (a_i e^{h_i} = a_i e^{d_i}·e^{h}, exactly) or a polynomial with a
    negative leading coefficient, negative beyond Cauchy's bound on its roots (1 + max|d_k/d_lead|);
    beyond all of them S ≤ (Σ a_i·e^{d_i} over the constant d_i + Σ a_i over the others)·e^{h},
    so c·log S ≤ c·h + c·log Σ.
    """
    terms = []
    for term in sp.Add.make_args(S):
        a, rest = term.as_independent(x, as_Add=False)
        h = sp.S.Zero
        for factor in sp.Mul.make_args(rest):
            if isinstance(factor, sp.exp):
                h += factor.args[0]
            elif factor is not sp.S.One:
                return None
        try:
            h = sp.Poly(sp.expand(h), x)
        except sp.PolynomialError:
            return None
        if not a.is_number or not all(v.is_number for v in h.all_coeffs()) or not to_arb(a) > 0:
            return None
        terms.append((to_arb(a), h))
    if len(terms) < 2:
        return None

    def eventually_below(d: sp.Poly) -> bool | None:  # d(x) < 0 for all large x (None: undecided)
        if d.is_zero:
            return False
        lead = to_arb(d.LC())
        return True if lead < 0 else (False if lead > 0 else None)

    dominant = terms[0]
    for a, h in terms[1:]:
        below = eventually_below(h - dominant[1])
        if below is None:
            return None
        if not below and not (h - dominant[1]).is_zero:
            dominant = (a, h)
    a_dom, h_dom = dominant
    if c < 0:
        return h_dom.as_expr(), c * a_dom.log(), 1.0
    if not c > 0:
        return None
    total, reach = arb(0), 1.0
    for a, h in terms:
        d = h - h_dom
        if d.degree() < 1:  # a constant difference (0 for the dominant term itself)
            total += a * to_arb(d.as_expr()).exp()
            continue
        coeffs = [to_arb(v) for v in d.all_coeffs()]
        reach = max(reach, float((1 + max(abs(v) for v in coeffs[1:]) / abs(coeffs[0])).upper()))
        total += a
    return h_dom.as_expr(), c * total.log(), reach


# --------------------------------------------------------------------------
# SymPy -> acb, with the analytic flag of acb.integral honoured
# --------------------------------------------------------------------------

def _compile(e: sp.Expr, x: sp.Symbol) -> Compiled:
    """``e`` (free in ``x`` only) as f(z, analytic) in ``acb`` arithmetic, for the current precision.

    With ``analytic`` set, a branch cut (log, non-integer powers, √) or a kink (|·|) that the
    ball z could touch gives a non-finite ball, as ``acb.integral`` requires.  An unsupported
    function raises :class:`~rdpsym.foundations.errors.NotCertifiable`.
    """
    if x not in e.free_symbols:
        try:
            c = acb(to_arb(e))
        except NotCertifiable:  # a constant to_arb does not know (Γ(1/3)): evaluated once, by the table below
            c = _compile_structure(e, x)(acb(0), False)
        return lambda z, analytic: c
    return _compile_structure(e, x)


def _compile_structure(e: sp.Expr, x: sp.Symbol) -> Compiled:  # noqa: C901 - one dispatch table
    """:func:`_compile` by the expression's head."""
    if e == x:
        return lambda z, analytic: z
    if e.is_Add or e.is_Mul:
        # The x-free arguments folded into one ball, once: the integrand is evaluated ~10⁴ times a piece.
        # (An x-free e comes here only when to_arb could not evaluate it whole, B(5/2, 7/3) say: then its
        # arguments one by one, or the fold would hand the same e back to _compile for ever.)
        if e.has(x):
            constant, varying = e.as_independent(x, as_Add=e.is_Add)
            parts = [_compile(a, x) for a in e.func.make_args(varying)]
            c = _compile(constant, x)(acb(0), False)
        else:
            parts = [_compile(a, x) for a in e.args]
            c = acb(0) if e.is_Add else acb(1)
        if e.is_Add:
            def add(z, analytic):
                out = c
                for g in parts:
                    out += g(z, analytic)
                return out
            return add

        def mul(z, analytic):
            out = c
            for g in parts:
                out *= g(z, analytic)
            return out
        return mul
    if e.is_Pow:
        base, ex = e.args
        g = _compile(base, x)
        if ex.is_Integer:
            n = int(ex)
            return (lambda z, analytic: g(z, analytic) ** n) if n >= 0 else \
                (lambda z, analytic: 1 / g(z, analytic) ** (-n))
        if ex == sp.S.Half:
            return lambda z, analytic: g(z, analytic).sqrt(analytic=analytic)
        if x in ex.free_symbols:
            h = _compile(ex, x)
            return lambda z, analytic: (h(z, analytic) * g(z, analytic).log(analytic=analytic)).exp()
        c = acb(to_arb(ex))
        return lambda z, analytic: (c * g(z, analytic).log(analytic=analytic)).exp()
    if isinstance(e, sp.exp):
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).exp()
    if isinstance(e, sp.log):
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).log(analytic=analytic)
    if isinstance(e, sp.Abs):
        g = _compile(e.args[0], x)

        # Arb's real_abs: non-finite with ``analytic`` where the kink may lie in the ball.
        return lambda z, analytic: g(z, analytic).real_abs(analytic=analytic)
    entire = {sp.erf: acb.erf, sp.erfc: acb.erfc, sp.sin: acb.sin, sp.cos: acb.cos, sp.sinh: acb.sinh,
              sp.cosh: acb.cosh}
    for cls, fn in entire.items():
        if isinstance(e, cls):
            g = _compile(e.args[0], x)
            return lambda z, analytic, fn=fn, g=g: fn(g(z, analytic))
    if isinstance(e, sp.gamma):  # meromorphic: a pole in the ball gives a non-finite ball by itself
        g = _compile(e.args[0], x)
        return lambda z, analytic: g(z, analytic).gamma()
    if isinstance(e, sp.beta) and len(e.args) == 2:
        g, h = (_compile(a, x) for a in e.args)

        def beta(z, analytic):
            u, v = g(z, analytic), h(z, analytic)
            return u.gamma() * v.gamma() * (u + v).rgamma()
        return beta
    if isinstance(e, sp.loggamma):
        g = _compile(e.args[0], x)
        def loggamma(z, analytic):  # holomorphic off the cut (−∞, 0]
            w = g(z, analytic)
            return w.lgamma() if not analytic or w.real > 0 else _NaN
        return loggamma
    raise NotCertifiable(f"no certified integrand for {type(e).__name__}")
