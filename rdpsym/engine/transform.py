"""Changes of variables that bring a piece's integrand to a form the rules integrate.

D_α is invariant under a bijection applied to both laws (the data-processing
inequality holds both ways for an invertible map; van Erven & Harremoës 2014,
arXiv:1206.2459): if
t = g(x) is monotone on a piece, then

    ∫_l^h P(x)^α Q(x)^{1−α} dx = ∫_{g(l)}^{g(h)} P_t(t)^α Q_t(t)^{1−α} dt,
    P_t(t) = P(g⁻¹(t))·|(g⁻¹)′(t)|,

so in the exponent L = α log P + (1−α) log Q the Jacobian enters once:
L_t(t) = L(g⁻¹(t)) + log|(g⁻¹)′(t)|.  The supremum of log(P/Q) is unchanged
(the Jacobians cancel).  The candidates g are read off the integrand itself:
the powers (x − r)^c (c a number or a symbol: Weibull's x^k, Rayleigh's x²,
the inverse gamma's 1/x, Fréchet's x^{−c}), the logarithms log(x − r)
(log-normal) and the exponentials e^{cx} (Gumbel), and compositions of two of
them; a candidate is kept only when a closed-form rule finishes the integral
in t (no SymPy fallback is tried inside), so a substitution never makes a
derivation worse.

This module only finds and applies the change of variables; what is done in t
is the caller's ``finish`` (:func:`substitute`): the integral rule
(:func:`rdpsym.engine.integrals.integrate_by_substitution`) and the supremum
(:mod:`rdpsym.derive.moments`) pass their own, so neither is imported here and
the rules depend on this module, not the reverse.

>>> import sympy as sp
>>> from rdpsym.engine.context import Hypotheses
>>> from rdpsym.engine.integrals import integrate_exp
>>> x = sp.Symbol("x", positive=True)
>>> k = sp.Symbol("k", positive=True)
>>> v = integrate_exp(sp.log(k) + (k - 1)*sp.log(x) - x**k, x, 0, sp.oo, Hypotheses())  # Weibull(k, 1)
>>> v.value, v.rule, v.substitution.forward
(1, 'exponential', x**k)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.foundations.errors import NoClosedFormError

oo = sp.oo


@dataclass(frozen=True)
class Substitution:
    """t = ``forward`` (a function of the piece's variable), monotone on the piece, onto (``lo``, ``hi``).

    ``exponent`` is the integrand's exponent in t (the Jacobian log|dx/dt| included
    for an integral, not for a supremum); ``then`` a further substitution made in t.
    """

    variable: sp.Symbol
    forward: sp.Expr
    lo: sp.Expr
    hi: sp.Expr
    exponent: sp.Expr
    then: Substitution | None = None
    inverse: sp.Expr | None = None  # the piece's variable as a function of t
    source: sp.Symbol | None = None  # the piece's variable (a positive twin of the density's on a half-line)


@dataclass(frozen=True)
class _Candidate:
    forward: sp.Expr
    inverse: sp.Expr  # x as a function of t
    log_jacobian: sp.Expr  # log|dx/dt|
    lo: sp.Expr
    hi: sp.Expr
    t: sp.Symbol


def _fresh(expr: sp.Expr, positive: bool) -> sp.Symbol:
    """The new variable: t (or u, v, w, y, z if taken), positive or real."""
    names = {s.name for s in expr.free_symbols}
    name = next((n for n in ("t", "u", "v", "w", "y", "z") if n not in names), "t_")
    return sp.Symbol(name, positive=True) if positive else sp.Symbol(name, real=True)


def _linear_root(u: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    """(slope s, root r) when u = s·(x − r), else None."""
    if not u.is_polynomial(x) or sp.Poly(u, x).degree() != 1:
        return None
    s, u0 = sp.Poly(u, x).all_coeffs()
    return s, sp.cancel(-u0 / s)


def _side(r: sp.Expr, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> int:
    """+1 when the piece lies right of r, −1 when left of it, 0 when neither is known."""
    if lo is not -oo and (r == lo or hyp.is_positive(lo - r) or hyp.is_zero(lo - r)):
        return 1
    if hi is not oo and (r == hi or hyp.is_positive(r - hi) or hyp.is_zero(r - hi)):
        return -1
    return 0


def _end(value: sp.Expr) -> sp.Expr:
    """A substituted end: 0^c, log 0, e^{−∞} evaluated to their limits."""
    return value if value.is_finite is not False else (oo if value.is_extended_positive else -oo)


def _power(r, side, e, x, lo, hi, hyp, expr) -> _Candidate | None:
    """t = (±(x − r))^e, e ≠ 0 of known sign."""
    increasing = hyp.is_positive(e)
    if increasing is None or hyp.is_zero(e) is not False:
        return None
    t = _fresh(expr, positive=True)
    d = x - r if side > 0 else r - x
    inverse = r + side * t ** (1 / e)
    log_jacobian = -sp.log(sp.Abs(e)) + (1 / e - 1) * sp.log(t)

    def image(end):
        if end in (oo, -oo):
            return oo if increasing else sp.S.Zero
        dist = sp.expand(side * (end - r))
        if dist == 0:
            return sp.S.Zero if increasing else oo
        return dist**e

    a, b = image(lo if side > 0 else hi), image(hi if side > 0 else lo)
    t_lo, t_hi = (a, b) if increasing else (b, a)
    return _Candidate(d**e, inverse, log_jacobian, t_lo, t_hi, t)


def _logarithm(r, side, x, lo, hi, expr) -> _Candidate:
    """t = log(±(x − r)), increasing in the distance to r."""
    t = _fresh(expr, positive=False)
    d = x - r if side > 0 else r - x
    near, far = (lo, hi) if side > 0 else (hi, lo)

    def image(end):
        if end in (oo, -oo):
            return oo
        dist = sp.expand(side * (end - r))
        return -oo if dist == 0 else sp.log(dist)

    return _Candidate(sp.log(d), r + side * sp.exp(t), t, image(near), image(far), t)


def _normal_cdf(u, x, lo, hi, hyp, expr) -> _Candidate | None:
    """t = (1 + erf u)/2, u = s·x + d with s ≠ 0 of known sign: the normal law's distribution function Φ(√2·u).

    dx/dt = √π·e^{u²}/s, so a Gaussian factor e^{−u²} cancels the Jacobian and erf u = 2t − 1, erfc u = 2 − 2t
    are left as powers of t and 1 − t: a skew-normal law against the normal one, 2φ(x)Φ(x) against φ(x), has
    ∫ φ·(2Φ)^α = 2^α/(α + 1) (Azzalini's skew-normal family at λ = 1).
    """
    s = sp.Poly(u, x).coeff_monomial(x)
    increasing = hyp.is_positive(s)
    if increasing is None:
        return None
    t = _fresh(expr, positive=True)
    root = sp.erfinv(2 * t - 1)
    inverse = (root - (u - s * x)) / s
    log_jacobian = sp.log(sp.sqrt(sp.pi) / sp.Abs(s)) + root**2

    def image(end):
        if end in (oo, -oo):
            return sp.S.One if (end is oo) == increasing else sp.S.Zero
        return (1 + sp.erf(u.subs(x, end))) / 2

    t_lo, t_hi = (image(lo), image(hi)) if increasing else (image(hi), image(lo))
    return _Candidate((1 + sp.erf(u)) / 2, inverse, log_jacobian, t_lo, t_hi, t)


def _exponential(c, x, lo, hi, hyp, expr) -> _Candidate | None:
    """t = e^{c x}, c ≠ 0 of known sign."""
    increasing = hyp.is_positive(c)
    if increasing is None:
        return None
    t = _fresh(expr, positive=True)
    ends = [sp.S.Zero if (e is -oo) == increasing and e in (oo, -oo) else (oo if e in (oo, -oo) else sp.exp(c * e))
            for e in (lo, hi)]
    t_lo, t_hi = ends if increasing else ends[::-1]
    return _Candidate(sp.exp(c * x), sp.log(t) / c, -sp.log(sp.Abs(c)) - sp.log(t), t_lo, t_hi, t)


def candidates(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses) -> list[_Candidate]:
    """The monotone substitutions suggested by the atoms of ``L`` on (lo, hi): powers, then exponentials, then logs."""
    powers, exponentials, logs, normals = [], [], [], []
    seen: set = set()
    for atom in sorted(L.atoms(sp.Pow, sp.exp, sp.log, sp.erf, sp.erfc), key=sp.default_sort_key):
        if not atom.has(x):
            continue
        if isinstance(atom, (sp.erf, sp.erfc)):
            u = sp.expand(atom.args[0])
            if _linear_root(u, x) is not None and ("normal", u) not in seen:
                seen.add(("normal", u))
                normals.append(lambda u=u: _normal_cdf(u, x, lo, hi, hyp, L))
            continue
        if isinstance(atom, sp.exp):
            u = sp.expand(atom.args[0])
            if u.is_polynomial(x) and sp.Poly(u, x).degree() == 1:
                c = sp.Poly(u, x).coeff_monomial(x)
                key = ("exp", c)
                if key not in seen:
                    seen.add(key)
                    exponentials.append(lambda c=c: _exponential(c, x, lo, hi, hyp, L))
            continue
        base = atom.args[0] if isinstance(atom, sp.log) else atom.base
        linear = _linear_root(base, x)
        if linear is None:
            continue
        r = linear[1]
        side = _side(r, lo, hi, hyp)
        if side == 0:
            continue
        if isinstance(atom, sp.log):
            key = ("log", r, side)
            if key not in seen:
                seen.add(key)
                logs.append(lambda r=r, side=side: _logarithm(r, side, x, lo, hi, L))
        elif not atom.exp.has(x) and atom.exp != 1:
            key = ("pow", r, side, atom.exp)
            if key not in seen:
                seen.add(key)
                powers.append(lambda r=r, side=side, e=atom.exp: _power(r, side, e, x, lo, hi, hyp, L))
    out = []
    for make in (*powers, *exponentials, *logs, *normals):
        candidate = make()
        if candidate is not None:
            out.append(candidate)
    return out


def in_new_variable(L: sp.Expr, x: sp.Symbol, candidate: _Candidate, jacobian: bool) -> sp.Expr:
    """L(x(t)) (+ log|dx/dt|), expanded so the rules can read it."""
    t = candidate.t
    out = L.xreplace({x: candidate.inverse})
    if jacobian:
        out = out + candidate.log_jacobian
    out = sp.expand(out)
    out = sp.expand_log(sp.powdenest(out), force=False)
    return sp.expand(out) if out.has(t) else out


def substitute(L: sp.Expr, x: sp.Symbol, lo: sp.Expr, hi: sp.Expr, hyp: Hypotheses, jacobian: bool,
               finish: Callable[[sp.Expr, sp.Symbol, sp.Expr, sp.Expr], object]):
    """The first candidate substitution whose result ``finish(L_t, t, t_lo, t_hi)`` completes (not None).

    Returns (Substitution, finish's result), or None when no candidate works.
    ``finish`` may raise :class:`NoClosedFormError` for "no".
    """
    for candidate in candidates(L, x, lo, hi, hyp):
        try:
            Lt = in_new_variable(L, x, candidate, jacobian)
        except NoClosedFormError:  # e.g. t = e^{x/10³⁰} turns e^{−2x} into t^(−2·10³⁰): another candidate may do
            continue
        if Lt.has(x) or Lt.has(sp.nan, sp.zoo):
            continue
        try:
            done = finish(Lt, candidate.t, _end(candidate.lo), _end(candidate.hi))
        except NoClosedFormError:
            continue
        if done is not None:
            inner = getattr(done, "substitution", None)
            return Substitution(candidate.t, candidate.forward, _end(candidate.lo), _end(candidate.hi), Lt,
                                inner, candidate.inverse, x), done
    return None


__all__ = ["Substitution", "candidates", "in_new_variable", "substitute"]
