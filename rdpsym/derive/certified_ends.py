"""The ends of a piece cut off with rigorous bounds, for the certified quadrature.

``acb.integral`` integrates over a finite interval where the integrand is
holomorphic.  :mod:`rdpsym.derive.certified` therefore cuts an infinite end at a
finite T, and a finite end where the integrand has a non-integer power of the
distance to it at a dyadic ε, and adds what was cut off as a ball; the bounds are these.

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
integer powers are computed as powers, holomorphic up to the end.  A finite end where e^L vanishes
faster than any power (e^{−b/x} at 0: inverse gamma, Lévy laws), which no power of the distance
bounds, becomes an infinite tail instead: x = end ± 1/u (:func:`_reciprocal`), where e^{−b/x} is
e^{−b·u}.  At α = 1 the integrand is P·log(P/Q) (the KL divergence).
"""

from __future__ import annotations

import functools
import math

import sympy as sp
from flint import acb, arb, ctx

from rdpsym.derive.certified_compile import _exp_of, dominant_term, exponential_terms
from rdpsym.foundations.balls import to_arb
from rdpsym.foundations.logs import expand_logs, expanded

#: Bisection depth of one ``acb.integral`` call (Arb's own limit): an end cut is made only where the
#: bisections toward the end stay within it.
_DEPTH_LIMIT = 400
#: The farthest cut of a power-law tail, in bits of T: beyond |x| = 2^8 the range is integrated in
#: u = log|x| (see :func:`~rdpsym.derive.certified._piece_integral`), where the tail decays like e^{(K+1)u},
#: so a cut at T = 2^4096 (u ≈ 2840) costs Arb a few subdivisions (Pareto laws of shape 1/3 need T ≈ 10^180).
_FARTHEST_CUT_BITS = 4096
#: Doublings of the cut T at an infinite end before giving up.
_DOUBLINGS = 80


def _end_cut(L: sp.Expr, x: sp.Symbol, end: sp.Expr, inward: int, piece: tuple, digits: int):
    """True when e^L is holomorphic up to the finite ``end`` (no non-integer power of the distance to it);
    else (end ± ε, bound) with ∫ e^L over the ε-segment at the end ≤ bound ≤ 10^−(digits+20); None when
    no such bound is found (a power ≤ −1, or e^{rest} unbounded there).

    With L = Σ c_j·log(u_j·(x − end)) + rest, c = Σ c_j > −1:
    ∫_segment e^L ≤ sup_segment e^{rest} · Π|u_j|^{c_j} · ε^{c+1}/(c+1).
    """
    singular, rest, scale = sp.S.Zero, sp.S.Zero, sp.S.One
    for term in sp.Add.make_args(expanded(L)):
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
    ``("exp", d, |c_d|, A, e, B, C, T₀)``: L ≤ c_d·x^d + A·x^e + B·√x + C with rational d ≥ 1 and e < d (every
    lower power of x is at most x^e for x ≥ 1), so ≤ e^{C − kT}/k with k = |c_d|·T^{d−1}/2, once
    A/T^{d−e} + B/√T ≤ |c_d|/2 (then L ≤ −|c_d|·x^d/2 + C, and x^d ≥ T^{d−1}·x on [T, ∞))."""
    if shape[0] == "power":
        _, K, C, _ = shape
        return C.exp() * T ** (K + 1) / (-K - 1)
    _, d, lead, A, e, B, C, _ = shape
    if not A / T ** (d - e) + B / T.sqrt() <= lead / 2:
        return None
    k = lead * T ** (d - 1) / 2
    return (C - k * T).exp() / k


def _tail_shape(L: sp.Expr, x: sp.Symbol, start: sp.Expr) -> tuple | None:
    """A bound of L on [T₀, ∞) (see :func:`_bound`), or None: :func:`_tail_shape_at` at Arb's working precision.

    Kept per precision: a tail is cut (:func:`_tail_cut`) and then bounded again at the cut chosen among the
    bounds (:func:`_tail_at`), and its shape, read from the expanded log-integrand, is the same both times.
    """
    return _tail_shape_at(L, x, start, ctx.prec)


@functools.lru_cache(maxsize=256)
def _tail_shape_at(L: sp.Expr, x: sp.Symbol, start: sp.Expr, bits: int) -> tuple | None:
    """A bound of L on [T₀, ∞) (see :func:`_bound`), its numbers balls at ``bits`` of precision, or None.

    L must be a polynomial in x (or a sum of rational powers c·x^r, r ≥ 0: a Fréchet law's e^{−c·x^{−5/2}}
    read in u = 1/x) plus terms c·log(g), g a polynomial with positive leading coefficient ℓ,
    of degree m, terms c·x^{−j} (j > 0: at most max(c, 0) on the tail, where x ≥ 1), and terms c·e^h with
    c < 0 and h real (at most 0).  For
    x ≥ T₀ ≥ max(1, 2·Σ_{i<m}|g_i|/ℓ), g/(ℓx^m) lies in [1/2, 3/2], so
    c·log g ≤ c·m·log x + c·log ℓ + |c|·log 2: L ≤ poly(x) + K·log x + C.  Then either the
    polynomial has degree d ≥ 1 and a negative leading coefficient (K·log x ≤ K·√x when K > 0, ≤ 0
    otherwise), or it is constant and K < −1 (a power-law tail).
    """
    poly = sp.S.Zero
    K, C = arb(0), arb(0)
    floor = max(1.0, float(start) if start.is_number else 1.0)
    for term in sp.Add.make_args(expanded(L)):
        if x not in term.free_symbols:
            poly += term
            continue
        coeff, rest = term.as_independent(x, as_Add=False)
        if rest.is_Pow and rest.base == x and rest.exp.is_number and rest.exp.is_negative and coeff.is_number:
            # c·x^{−m}, m > 0: at most max(c, 0) for x ≥ 1 (the −b/x of an inverse gamma: at most 0)
            C += to_arb(coeff).max(arb(0))
            continue
        if coeff.is_number and coeff.is_negative and isinstance(rest, sp.exp) and rest.args[0].is_extended_real:
            # c·e^h with c < 0 (e^{−u}: a power of x near 0 read in u = log x): at most 0.  (Only an exponential:
            # a log's own bound below keeps the decay it gives, −2·log(1 + e^{−x}) of a logistic law's far side.)
            continue
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
    powers = _powers_of(poly, x)  # a polynomial, or on the tail a sum of rational powers (e^{−c·u^{5/2}})
    if powers is None:
        return None
    C += powers.pop(sp.S.Zero, arb(0))
    if not math.isfinite(floor):
        return None
    T0 = arb(math.ceil(floor))
    d = max(powers, default=sp.S.Zero)
    if d == 0:
        return ("power", K, C, T0) if K < -1 else None
    if d < 1 or not powers[d] < 0:
        return None  # (a leading power below 1, e^{−√x}: no bound of these shapes)
    lower = [r for r in powers if r < d]
    e = max([d - 1, *lower])  # every lower power x^r ≤ x^e for x ≥ 1
    A = sum((abs(powers[r]) for r in lower), arb(0))
    B = K if K > 0 else arb(0)  # K·log x ≤ K·√x  (log y ≤ √y); ≤ 0 when K ≤ 0, x ≥ 1
    if not (K > 0 or K <= 0):
        return None
    return "exp", to_arb(d), -powers[d], A, to_arb(e), B, C, T0


def _powers_of(poly: sp.Expr, x: sp.Symbol) -> dict | None:
    """{r: c_r}: ``poly`` as Σ c_r·x^r with rational r ≥ 0 and numeric c_r (as balls), or None.

    >>> x = sp.Symbol("x", positive=True)
    >>> sorted(_powers_of(3 - 2 * x ** sp.Rational(5, 2) + x ** sp.Rational(5, 2) / 2 + x, x).items())
    [(0, 3.00000000000000), (1, 1.00000000000000), (5/2, -1.50000000000000)]
    """
    powers = rational_powers(poly, x)
    if powers is None or not all(c.is_number for c in powers.values()):
        return None
    return {r: to_arb(c) for r, c in powers.items()}


def rational_powers(g: sp.Expr, x: sp.Symbol) -> dict | None:
    """{r: c_r}: ``g`` as Σ c_r·x^r with rational powers r ≥ 0 and coefficients c_r free of x (zeros dropped),
    or None for any other expression (a log, an exponential of x, a negative power).

    >>> x, c = sp.Symbol("x", positive=True), sp.Symbol("c", positive=True)
    >>> rational_powers(1 + c * x ** sp.Rational(5, 2) - x + x, x)
    {0: 1, 5/2: c}
    """
    powers: dict = {}
    for term in sp.Add.make_args(expanded(g)):
        c, power = term.as_independent(x, as_Add=False)
        r = sp.S.Zero if power == 1 else sp.S.One if power == x else \
            power.exp if power.is_Pow and power.base == x and power.exp.is_Rational else None
        if r is None or r < 0:
            return None
        powers[r] = powers.get(r, sp.S.Zero) + c
    return {r: c for r, c in powers.items() if c != 0}


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
    parsed = exponential_terms(S, x)
    k = None if parsed is None else dominant_term(parsed)
    if k is None:
        return None
    terms = [(to_arb(a), h) for a, h in parsed]
    a_dom, h_dom = terms[k]
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


def _reciprocal(L: sp.Expr, x: sp.Symbol, end: sp.Expr, inward: int, u: sp.Symbol) -> sp.Expr:
    """A log-integrand in x next to a finite ``end`` as one in u, x = end + inward/u, Jacobian included:
    L(end ± 1/u) − 2·log u, with each log(g) read as a log of a quotient of polynomials in u and split.

    The split is forced (log(a/b) = log a − log b): the caller must check every log's argument positive on
    the u-range, which makes each split true (a, b > 0).  For e^{−b/x} at 0 the end becomes the tail
    e^{−b·u}, of the shape :func:`_tail_cut` bounds.

    >>> x, u = sp.Symbol("x", real=True), sp.Symbol("u", positive=True)
    >>> _reciprocal(-2 * sp.log(x) - 3 / x, x, sp.S.Zero, 1, u)
    -3*u
    """
    moved = L.xreplace({x: end + sp.Integer(inward) / u})
    moved = moved.replace(lambda e: isinstance(e, sp.log), lambda e: sp.log(sp.together(e.args[0])))
    return sp.expand(expand_logs(sp.expand(moved)) - 2 * sp.log(u))
