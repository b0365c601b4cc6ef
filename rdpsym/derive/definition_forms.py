"""The definition's integrand at one working precision: the direct form and the near form.

:mod:`rdpsym.derive.definition` decides the working precisions and when the
value is settled; here is what one evaluation at one precision computes, in a
private mpmath context: the laws compiled for that context (:class:`_Setting`,
log-densities and log-ratios per region), the direct form (log ∫ P^α Q^{1−α},
∫ P log(P/Q), sup log(P/Q): :func:`_direct`), the near form without
cancellation (:func:`_near_at_precision`), and finite tables.  The regions are
this route's own reading of the supports (:func:`definition_regions`,
:mod:`rdpsym.quadrature.regions`), never the derivation's.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import mpmath
import sympy as sp

from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError
from rdpsym.foundations.exact_size import exact_at
from rdpsym.foundations.numbers import Infinity, exact_mpf
from rdpsym.foundations.precision import private_context, sympy_evalf_guard
from rdpsym.laws.densities import Density, Discrete
from rdpsym.quadrature.compile import (
    agrees_at_probes,
    compile_expr,
    fast_log,
    log_expression,
    log_function,
    log_ratio_function,
    to_mpf,
)
from rdpsym.quadrature.divergent import end_power
from rdpsym.quadrature.integrands import LogForm, NumericLogForm
from rdpsym.quadrature.integrate import integrate_pieces
from rdpsym.quadrature.log_expressions import combined_log_expression
from rdpsym.quadrature.near import log_psi, near_one, psi_near
from rdpsym.quadrature.recentring import recentred_log, shifted_log
from rdpsym.quadrature.regions import Law, lattice_sup, law_probes, probe_points, read_regions, read_tables
from rdpsym.quadrature.supremum import sup_log_ratio

oo = sp.oo


def _direct(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, ctx, reasons: list):
    a = to_mpf(order, ctx)
    if tables is not None:
        return _table_divergence(*tables, a, ctx, reasons)
    setting = _Setting(P, Q, ctx)
    setting.reasons = reasons
    pairs = setting.pairs
    if a == ctx.inf:
        return _sup(setting, ctx, setting.reasons)

    def integrand_at(reflect_at=None, direction=-1):
        """The integrand in t, or in t = e − x when reflected at e (t = x − e with ``direction`` +1), by its
        logarithm (a LogForm)."""
        lp_, lq_ = (setting.lP, setting.lQ) if reflect_at is None else setting.logs(reflect_at, direction)
        if a == 1:
            def parts(t):  # P·log(P/Q)
                lp = lp_(t)
                if lp == ctx.ninf:
                    return ctx.ninf, 0
                d = lp - lq_(t)
                if d == 0:
                    return ctx.ninf, 0
                if type(d) is not ctx.mpf:  # a log-density not real at a node rounded past an irrational end
                    return d, 1  # (not an mpf: the caller's "not a real number" ConvergenceError, not a TypeError)
                return lp + ctx.log(abs(d)), (1 if d > 0 else -1)
        else:
            combined = _combined_log(lp_, lq_, a, ctx, setting.combined_exactly(order) if reflect_at is None else None)

            def parts(t):  # P^α·Q^(1−α)
                return combined(t), 1
        return LogForm(parts, ctx)

    if a == 1:  # P·log(P/Q) is exactly 0 on a piece where the two branches are one expression: a series of
        # such terms, all 0, never falls below the level its summation stops at (a pmf equal to Q on an
        # infinite tail: "the terms do not tend to 0", a probe)
        pairs = [pair for pair in pairs if pair.p == 0 or pair.p != pair.q]
    value = integrate_pieces(pairs, P.var, integrand_at(), ctx, discrete=setting.discrete, order=order,
                             check_support=a >= 1, reflected=integrand_at, reasons=setting.reasons,
                             recentred=setting.recentred("KL" if a == 1 else order))
    if a == 1:
        if value != ctx.inf and not setting.discrete:
            _mass_where_read(P)
        return value
    if value == ctx.inf:
        return ctx.inf
    if value == 0 and any(pair.p != 0 and pair.q != 0 for pair in pairs):
        # P^α Q^(1−α) > 0 where both laws live: a 0 is mass the quadrature missed, never D = −∞ (α > 1) or a
        # +∞ that only disjoint supports give (α < 1).
        raise ConvergenceError("the quadrature found no mass where P and Q are both positive")
    return ctx.log(value) / (a - 1)


def _mass_where_read(P: Density) -> None:
    """Refuse a KL whose P has mass where the quadrature does not read: ∫ P·log(P/Q) then misses the constant part
    of log(P/Q) on that mass.  Two gamma laws of shape 10⁻⁵⁰ (rates 1 and 2) hold all but 10⁻⁴⁷ of P's mass below
    x = e⁻¹⁰⁰⁰, where P·log(P/Q) ~ (a·log ½)·P; the integrand read nothing singular at 0, and the KL came out
    E_P[x] = 10⁻⁵⁰ at every precision, where it is 10⁻⁵⁰·(1 − log 2) (a probe).  P's own mass, by the definition's
    reading of its support, shows it: that reading refuses such an end (a power within 10⁻³ of −1), and a mass read
    far from 1 is refused too.  Only far: a heavy tail where P = Q, or where log(P/Q) → 0, holds mass the reading
    misses and the KL does not need (Student-t laws of ν = 1/10: 1 − 2·10⁻⁸; a shared tail x^{−1.01}: 0.91; a
    review).  Mass the quadrature cannot see is missing at any precision: it is read once per law, at
    :data:`_MASS_DIGITS` digits."""
    verdict = _mass_verdict(P)
    if verdict is not None:
        raise ConvergenceError(verdict)


#: Digits P's mass is read at by :func:`_mass_where_read`, and how far from 1 a mass read may lie.
_MASS_DIGITS = 20
_MASS_MISSED = mpmath.mpf(1) / 2


@functools.lru_cache(maxsize=256)
def _mass_verdict(P: Density) -> str | None:
    """Why P's mass as read refuses its KL (see :func:`_mass_where_read`), or None; kept per law, refusal included
    (read again at each precision of each call, a law whose mass reading refuses cost a quarter more in the suite)."""
    try:
        mass = law_mass(P, _MASS_DIGITS)
    except ConvergenceError as exc:
        # The mass's own reading refuses a finite end where P's power is within 10⁻³ of −1; the KL's reaches further
        # (a·x^(a − 1) at a = 10⁻³: its KL 1 − log 2 is computed).  Refused only where P's exact power there is
        # within 10⁻⁶ of −1: mass no substitution reaches (10⁻⁵⁰ − 1 for the gamma laws above).
        return str(exc) if _mass_beyond_reach(P) else None
    if not abs(mass - 1) <= _MASS_MISSED:
        return (f"P's mass as the quadrature reads it is {mpmath.nstr(mass, 8)}, not 1: P has mass closer to an end "
                "than the quadrature resolves, and ∫P·log(P/Q) would miss log(P/Q) on it")
    return None


def _mass_beyond_reach(P: Density) -> bool:
    """Whether P behaves like |x − e|^c with −1 < c < −1 + 10⁻⁶ at a finite end e of a piece of its support."""
    for pair in definition_regions(P, P):
        if pair.p == 0:
            continue
        for end, inward in ((pair.lo, 1), (pair.hi, -1)):
            c = end_power(pair.p, P.var, end, inward) if end.is_finite else None
            if c is not None and c.is_number and c.is_extended_real and -1 < c < -1 + sp.Rational(1, 10**6):
                return True
    return False


def _combined_log(lp, lq, a, ctx, exactly=None):
    """t -> α·log P(t) + (1 − α)·log Q(t) to the working precision, whatever the two terms cancel: at α = 10¹² the
    terms of a Gaussian pair near the mass are ~10³⁶ and their sum ~10²⁴, so at 30 digits the sum would be off
    by 10⁶ e-folds and the mass not found (the definition came out −∞).  Recomputed with the digits the
    terms lost (t is an exact binary number: the logarithms are evaluated again, not just added); where they lost
    more than 4× the working bits (far in a tail), ``exactly(t)``, the sum expanded symbolically
    (:meth:`_Setting.combined_exactly`), where there is one.

    This runs at every node of every quadrature of the definition (about 5 000 for a Gaussian pair at 50
    digits), so the bits lost are read off the terms' binary (mantissa, exponent, bit count) rather than by
    ``ctx.mag`` of their absolute values, and 1 − α is kept per working precision: the same numbers, at two
    thirds of the cost (40 → 27 µs a node at 206 bits).  ``a`` is an mpf of ``ctx`` (``to_mpf(order, ctx)``) or an
    int, so that ``1 - a`` depends on ``ctx.prec`` alone; the fast path is for terms that are mpfs of ``ctx``."""
    mpf, isfinite, mag = ctx.mpf, ctx.isfinite, ctx.mag
    one_minus_a: dict = {}  # working precision -> 1 − α rounded to it (what ``1 - a`` gives at each node)

    def combined(t):
        prec = ctx.prec
        b = one_minus_a.get(prec)
        if b is None:
            b = one_minus_a[prec] = 1 - a
        u, v = a * lp(t), b * lq(t)
        total = u + v
        if type(u) is mpf and type(v) is mpf:
            _, man_u, exp_u, bits_u = u._mpf_
            _, man_v, exp_v, bits_v = v._mpf_
            if not (man_u and man_v):  # a term 0, ±∞ or NaN: nothing to recover
                return total
            _, man_t, exp_t, bits_t = total._mpf_
            lost = max(exp_u + bits_u, exp_v + bits_v) - (exp_t + bits_t if man_t else -prec)
        else:  # a term that is not an mpf of ctx (complex: the log of a negative value): read as before
            if not (isfinite(u) and isfinite(v)) or not (u or v):
                return total
            lost = max(mag(abs(u)), mag(abs(v))) - (mag(total) if total != 0 else -prec)
        if lost <= _CANCELLED_BITS:
            return total
        if lost > 4 * prec:
            # (Beyond 4× the working bits, far in a tail: a logistic pair's P²/Q tends to a constant, and at
            # x = 10⁴⁰⁰⁰ its terms cancel in 13 000 bits.  The scan there needs the sum's size, not its digits,
            # and where the mass itself is that ill-conditioned, the integration recentres symbolically.  The
            # rounded sum is not even the size where the terms cancel exactly, as Laplace(1) against
            # Q ∝ (1 + x²)·e^(−2|x|) at α = 2 do: it read 0, a far mass of P²/Q ~ 1 at 10⁴⁰⁰⁰, and D₂ = log(3π/8)
            # was +∞ ("decays like |x|^0.0"): the expanded sum says −log(1 + x²) + log(3/8) there.)
            exact = exactly(t) if exactly is not None else None
            return total if exact is None else exact
        with ctx.extraprec(int(lost) + 20):
            total = a * lp(t) + (1 - a) * lq(t)  # (1 − α at this higher precision, not the kept b)
        return +total

    return combined


#: Bits that α·log P and (1 − α)·log Q may cancel before they are recomputed at a higher precision.
_CANCELLED_BITS = 10


def _exact_zeros(log_f, D: Discrete, ctx):
    """``log_f``, the log of D's pmf, with a value that is not real at an outcome k (the pmf rounded below 0 there)
    read again from the exact pmf: −∞ where it is exactly 0.  A sum that cancels at some outcomes rounds to noise
    of either sign there: (1 + (−1)^k)/2 · 8/9 · (1/3)^k, a geometric law on the even numbers, is ±10⁻³³ at odd k,
    and its D₂ raised a raw TypeError from the sum's scan (a probe).  Any other value is left as it is (the sum
    refuses a term that is not real)."""
    mpf = ctx.mpf

    def log_at(k):
        value = log_f(k)
        if type(value) is mpf or not isinstance(k, int):
            return value
        exact_value = exact_at(D.expr, D.var, sp.Integer(k), seconds=0.5)
        return ctx.ninf if exact_value is not None and exact_value.is_zero is True else value

    return log_at


class _Setting:
    """P and Q compiled for one context: log-densities (checked fast forms), log-ratios per piece."""

    @sympy_evalf_guard.serialized
    def __init__(self, P: Density, Q: Density, ctx):
        self.P, self.Q, self.ctx = P, Q, ctx
        self.pairs = definition_regions(P, Q)  # the numeric route's own reading of the supports
        self.discrete = isinstance(P, Discrete)
        self.fP, self.fQ = compile_expr(P.expr, P.var, ctx), compile_expr(Q.expr, Q.var, ctx)
        self.probes_P, self.probes_Q = (law_probes(self.pairs, side, self.discrete) for side in ("p", "q"))
        self.lP, self.lQ = self.logs()
        self.trusted = all(fast_log(D.expr, D.var, f, probes, self.discrete, ctx) is not None
                           for D, f, probes in ((P, self.fP, self.probes_P), (Q, self.fQ, self.probes_Q)))
        self._ratios: dict = {}
        self._combined: dict = {}  # order -> combined_exactly(order)
        self.reasons: list[str] = []  # why a value is +∞, as found

    def logs(self, reflect_at=None, direction=-1):
        """log P and log Q in t, or in t = e − x when reflected at e (t = x − e with ``direction`` +1)."""
        P, Q, ctx = self.P, self.Q, self.ctx
        logs = (log_function(P.expr, P.var, self.fP, self.probes_P, self.discrete, ctx, reflect_at, direction),
                log_function(Q.expr, Q.var, self.fQ, self.probes_Q, self.discrete, ctx, reflect_at, direction))
        if self.discrete and reflect_at is None:
            return tuple(_exact_zeros(log_f, D, ctx) for log_f, D in zip(logs, (P, Q)))
        return logs

    def combined_exactly(self, order: sp.Expr):
        """t -> α·log p(t) + (1 − α)·log q(t) from the branches' logarithms expanded as one sum on each region with
        an infinite end (:func:`~rdpsym.quadrature.log_expressions.combined_log_expression`), checked against the two
        logarithms at the region's probe points; None (at t) on the other regions, where no sum is written, or it is
        not trusted.  What :func:`_combined_log` reads where the two terms cancel past any precision: far in a tail."""
        ctx, var = self.ctx, self.P.var
        if order in self._combined:
            return self._combined[order]
        reference = _combined_log(self.lP, self.lQ, to_mpf(order, ctx), ctx)
        tails = []  # (lo, hi, compiled sum) as mpfs, on the regions with an infinite end
        for pair in self.pairs:
            if pair.p == 0 or pair.q == 0 or getattr(pair, "lattice", None) is not None \
                    or (pair.lo is not -oo and pair.hi is not oo):
                continue
            expr = combined_log_expression(pair.p, pair.q, var, order)
            if expr is None:
                continue
            try:
                fast = compile_expr(expr, var, ctx)
            except (TypeError, ValueError, NotImplementedError, NameError, NoClosedFormError):
                continue
            if agrees_at_probes(fast, reference, probe_points(pair, self.discrete), self.discrete, ctx):
                tails.append((to_mpf(pair.lo, ctx), to_mpf(pair.hi, ctx), fast))

        def exactly(t):
            for lo, hi, fast in tails:
                if lo < t < hi or (self.discrete and lo <= t <= hi):
                    value = fast(t)
                    return value if type(value) is ctx.mpf else None
            return None

        self._combined[order] = found = exactly if tails else None
        return found

    def recentred(self, kind):
        """The integrand of ``kind`` (an order α ≠ 1, "KL", or ("near", α)) about an exact centre c, as the
        ``recentred(pair, c)`` of :func:`~rdpsym.quadrature.integrate.integrate_pieces`: the logarithms
        are substituted x = c + u and expanded symbolically, their value at c taken out exactly.  None
        (no recentring) where the compiled logarithms were not trusted."""
        if self.discrete or not self.trusted:
            return None
        ctx, var = self.ctx, self.P.var
        if kind != "KL" and not isinstance(kind, tuple):
            return recentred_log(lambda pair: kind * log_expression(pair.p) + (1 - kind) * log_expression(pair.q),
                                 var, ctx)

        @sympy_evalf_guard.serialized
        def factory(pair, centre):
            lp_e, lq_e = log_expression(pair.p), log_expression(pair.q)
            a = kind[1] if isinstance(kind, tuple) else None
            base = shifted_log(lp_e if a is None else lq_e, var, centre, ctx)
            ratio = shifted_log(lp_e - lq_e, var, centre, ctx, relative=False)
            if base is None or ratio is None:
                return None
            (lb, at), (r, _) = base, ratio
            if a is None:
                def parts(u):  # P·log(P/Q) / P(c)
                    d = r(u)
                    return (lb(u) + ctx.log(abs(d)), (1 if d > 0 else -1)) if d != 0 else (ctx.ninf, 0)
            else:
                near = psi_near(lb, r, a, ctx)

                def parts(u):  # Q·ψ(r) / Q(c)
                    return near(u)
            numeric = getattr(lb, "numeric", False) or getattr(r, "numeric", False)
            return (NumericLogForm if numeric else LogForm)(parts, ctx), at

        return factory

    def ratio_digits_lost(self) -> int:
        """The most digits log(p/q) loses to rounding on any piece: the working digits less those on which its values
        at the piece's probe points, at the working precision and at twice it, agree, relative to its largest value
        there (where r crosses 0, its own digits are not the integrand's: ψ(r) ~ r² is 0 there)."""
        ctx, lost = self.ctx, 0
        for pair in self.pairs:
            if pair.p == 0 or pair.q == 0 or pair.p == pair.q:
                continue
            r, reads = self.ratio(pair), []
            for point in probe_points(pair, self.discrete):
                try:
                    t = to_mpf(point, ctx)
                    value = r(t)
                    with ctx.workprec(2 * ctx.prec):
                        again = r(t)
                except (ArithmeticError, ValueError, TypeError):
                    continue
                if type(value) is ctx.mpf and type(again) is ctx.mpf and ctx.isfinite(value) and ctx.isfinite(again):
                    reads.append((value, again))
            scale = max((abs(again) for _, again in reads), default=ctx.zero)
            if scale > 0:
                error = max(abs(value - again) for value, again in reads) / scale
                if error > 0:
                    lost = max(lost, ctx.dps + int(ctx.log10(error)))
        return lost

    @sympy_evalf_guard.serialized
    def ratio(self, pair):
        """t -> log(p/q) on one region (:mod:`rdpsym.quadrature.regions`), without cancellation where SymPy can
        expand it."""
        key = (pair.lo, pair.hi, pair.p, pair.q)
        if key not in self._ratios:
            self._ratios[key] = log_ratio_function(pair.p, pair.q, self.P.var, self.lP, self.lQ,
                                                   probe_points(pair, self.discrete), self.discrete, self.ctx)
        return self._ratios[key]


#: Digits of a log-ratio lost to rounding beyond the covered ones that are let pass (see _near_at_precision).
_LOST_SLACK = 5


def _near_at_precision(P: Density, Q: Density, tables: tuple | None, order: sp.Expr, wp: int, *, covered: int = 0,
                       raised: bool = False):
    """The definition in its *near form* at ``wp`` digits (a global-context ``mpf``), or None where it does
    not apply (α = ∞, a table, laws not normalised to the working precision).

    With r = log(P/Q), S the pieces where both are positive, and P, Q probability laws,

        ∫ P^α Q^{1−α} − 1 = ∫_S Q·ψ_α(r) − α·P(S^c) + (α − 1)·Q(S^c),   ψ_α(r) = e^{αr} − 1 − α(e^r − 1),
        KL(P‖Q)           = ∫_S Q·φ(r) + Q(S^c),                         φ(r) = 1 + (r − 1)·e^r,

    and D_α = log1p(·)/(α − 1).  ψ_α has one sign (that of α − 1) and φ ≥ 0, so
    no term cancels another, and r, expanded symbolically per piece, is free of
    the cancellation of log P − log Q: at σ = 10³⁰⁰ a Gaussian pair's D_2 = 10⁻⁶⁰⁰
    comes out at the working precision, where the direct form would need 600
    more digits.  Used when the direct value is small (:func:`~rdpsym.derive.definition._near_value`).

    Where r itself cancels past what SymPy's expansion removes, the digits it loses beyond the ``covered`` ones
    (the working digits past those the caller needs) are added to ``wp`` first (:meth:`_Setting.ratio_digits_lost`):
    at scale 10⁴⁰ the log-ratio of two logistic laws one apart is a difference of logarithms near log 2 that are
    10⁻⁴⁰ apart, and its quadrature at 50 and 70 digits spun on rounding noise (6.5 and 5.8 s for 8 and 9 right
    digits of the KL; 1.8 s for all of them at 107 digits).  (Adding every digit lost, uncovered or not, tripled the
    time of Cauchy laws 10⁻²⁰ apart, which the guard digits already covered: a review.)
    """
    with private_context(wp) as ctx:
        if tables is not None:
            return _near_table(*tables, order, ctx)
        setting = _Setting(P, Q, ctx)
        lost = 0 if raised or order is oo else setting.ratio_digits_lost() - covered
        if lost > _LOST_SLACK:
            return _near_at_precision(P, Q, tables, order, wp + lost, covered=covered, raised=True)
        if order is oo:
            # The supremum of the log-ratio expanded symbolically piece by piece has no cancellation at all.
            if not all(getattr(setting.ratio(pair), "expanded", False)
                       for pair in setting.pairs if pair.p != 0 and pair.q != 0):
                return None
            reasons: list[str] = []
            value = _sup(setting, ctx, reasons)
            return Infinity(reasons[0] if reasons else None) if value == ctx.inf else exact_mpf(value)
        a = to_mpf(order, ctx)
        discrete = setting.discrete
        masses = {"P": ctx.mpf(0), "Q": ctx.mpf(0), "P only": ctx.mpf(0), "Q only": ctx.mpf(0)}
        shared = ctx.mpf(0)
        for pair in setting.pairs:
            if pair.p == 0 and pair.q == 0:
                continue
            fP, fQ = (LogForm(lambda t, f=f: (f(t), 1), ctx) for f in (setting.lP, setting.lQ))
            # Each law's mass on the piece, as a pair of that law with itself: integrate_pieces passes over a
            # piece where either branch is 0, so Q's mass where P = 0 was read as 0 (a Q-only piece (0, 10⁻⁴⁰) of
            # a shifted exponential: D_2 came out 10⁻⁸⁰ where it is 10⁻⁴⁰; a probe).
            if pair.p != 0:
                mass = integrate_pieces([replace(pair, q=pair.p)], P.var, fP, ctx, discrete=discrete,
                                        order=sp.S.One)
                masses["P"] += mass
                if pair.q == 0:
                    masses["P only"] += mass
            if pair.q != 0:
                mass = integrate_pieces([replace(pair, p=pair.q)], P.var, fQ, ctx, discrete=discrete,
                                        order=sp.S.One)
                masses["Q"] += mass
                if pair.p == 0:
                    masses["Q only"] += mass
            if pair.p != 0 and pair.q != 0 and pair.p != pair.q:  # (where they are equal, r = 0 and ψ(r) = φ(r) = 0)
                r = setting.ratio(pair)
                shared += integrate_pieces([pair], P.var, LogForm(psi_near(setting.lQ, r, a, ctx), ctx), ctx,
                                           discrete=discrete, order=order, recentred=setting.recentred(("near", a)))
        tolerance = ctx.mpf(10) ** (10 - wp)
        if any(abs(masses[k] - 1) > tolerance for k in ("P", "Q")):
            return None  # not probability laws to this precision: the identity does not hold
        if a >= 1 and masses["P only"] > 0:
            return Infinity("P > 0 = Q on part of P's support")
        if a == 1:
            return exact_mpf(shared + masses["Q only"])
        excess = shared - a * masses["P only"] + (a - 1) * masses["Q only"]
        return exact_mpf(near_one(excess, a, ctx))


def _near_table(tp: dict, tq: dict, order: sp.Expr, ctx):
    """The near form on two tables: r = log1p((p − q)/q) from the exact difference of the probabilities."""
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: tp.get(k, sp.S.Zero) for k in keys}
    q = {k: tq.get(k, sp.S.Zero) for k in keys}
    shared = [k for k in keys if p[k] != 0 and q[k] != 0]
    only_p = sum((p[k] for k in keys if q[k] == 0), sp.S.Zero)
    only_q = sum((q[k] for k in keys if p[k] == 0), sp.S.Zero)
    if sum(p.values()) != 1 or sum(q.values()) != 1:
        return None  # not probability tables exactly
    ratios = {k: ctx.log1p(to_mpf((p[k] - q[k]) / q[k], ctx)) for k in shared}
    if order is oo:
        return Infinity(f"P > 0 = Q at {next(k for k in keys if q[k] == 0)}") if only_p else \
            exact_mpf(max(ratios.values()))
    a = to_mpf(order, ctx)
    if a >= 1 and only_p:
        return Infinity(f"P > 0 = Q at {next(k for k in keys if q[k] == 0)}")
    parts = [log_psi(ratios[k], a, ctx) for k in shared]
    total = ctx.fsum(to_mpf(q[k], ctx) * sign * ctx.exp(log_value)
                     for k, (log_value, sign) in zip(shared, parts) if sign)
    if a == 1:
        return exact_mpf(total + to_mpf(only_q, ctx))
    return exact_mpf(near_one(total - a * to_mpf(only_p, ctx) + (a - 1) * to_mpf(only_q, ctx), a, ctx))


def _law(density: Density) -> Law:
    """A density's raw data (expression, variable, support as given; or its table) for the numeric reading."""
    if isinstance(density, Discrete) and density.table is not None:
        return Law(None, None, None, table=density.table)
    return Law(density.expr, density.var, density.support)


@functools.lru_cache(maxsize=128)
def _read(P: Density, Q: Density) -> tuple:
    return tuple(read_regions(_law(P), _law(Q)))


@sympy_evalf_guard.serialized
def definition_regions(P: Density, Q: Density) -> list:
    """The regions of P and Q (:func:`rdpsym.quadrature.regions.read_regions`), read once per pair of laws:
    the numeric routes' own reading of the supports, never the derivation's."""
    return list(_read(P, Q))


def law_mass(D: Density, dps: int) -> mpmath.mpf:
    """∫ D (Σ for a pmf) to ``dps`` digits, by the definition's own reading of its support (a law with every
    parameter given): how a check makes sure an image of a law under a change of variables is still one."""
    regions = [r for r in definition_regions(D, D) if r.p != 0]
    with private_context(dps + 10) as ctx:
        setting = _Setting(D, D, ctx)
        mass = integrate_pieces(regions, D.var, LogForm(lambda t: (setting.lP(t), 1), ctx), ctx,
                                discrete=setting.discrete, order=sp.S.One)
        return exact_mpf(mass)


@sympy_evalf_guard.serialized
def _tables(P: Density, Q: Density) -> tuple[dict, dict] | None:
    """Two finite pmfs as tables, their outcomes enumerated here (start … stop − 1 of a Range), else None."""
    if not (isinstance(P, Discrete) and isinstance(Q, Discrete)):
        return None
    return read_tables(_law(P), _law(Q))


def _sup(setting: _Setting, ctx, reasons: list):
    """sup log(P/Q) over the regions: the plain ones by :func:`sup_log_ratio`, a lattice's block by block
    (:func:`~rdpsym.quadrature.regions.lattice_sup`), each block's cells as plain pieces."""
    var = setting.P.var

    def sup_over(pieces):
        # A cell between jumps of floors where both branches are constants: log(p/q) is that constant.
        constant = [c for c in pieces if getattr(c, "cell", False) and c.p != 0 and c.q != 0
                    and not c.p.has(var) and not c.q.has(var)]
        rest = [c for c in pieces if c not in constant]
        best = sup_log_ratio(rest, var, setting.lP, setting.lQ, ctx, discrete=setting.discrete,
                             ratio_for=setting.ratio, reasons=reasons) if rest else ctx.ninf
        if constant and best != ctx.inf:
            with sympy_evalf_guard():
                best = max(best, *(to_mpf(sp.log(c.p / c.q), ctx) for c in constant))
        return best

    plain = [r for r in setting.pairs if r.lattice is None]
    best = sup_over(plain) if plain else ctx.ninf
    if best == ctx.inf:
        return best
    for region in setting.pairs:
        if region.lattice is None or region.p == 0:
            continue
        if region.q == 0:
            reasons.append(f"P > 0 = Q on ({region.lo}, {region.hi})")
            return ctx.inf
        value = lattice_sup(region, sup_over, ctx, reasons)
        if value == ctx.inf:
            return value
        best = max(best, value)
    return best


def _table_divergence(tp: dict, tq: dict, a, ctx, reasons: list):
    keys = list(dict.fromkeys([*tp, *tq]))
    p = {k: to_mpf(tp.get(k, sp.S.Zero), ctx) for k in keys}  # table values are SymPy numbers, read at construction
    q = {k: to_mpf(tq.get(k, sp.S.Zero), ctx) for k in keys}
    if a >= 1 and any(p[k] > 0 and q[k] == 0 for k in keys):
        reasons.append(f"P > 0 = Q at {next(k for k in keys if p[k] > 0 and q[k] == 0)}")
        return ctx.inf
    if a == ctx.inf:
        return max(ctx.log(p[k] / q[k]) for k in keys if p[k] > 0)
    if a == 1:
        return ctx.fsum(p[k] * ctx.log(p[k] / q[k]) for k in keys if p[k] > 0)
    total = ctx.fsum(ctx.power(p[k], a) * ctx.power(q[k], 1 - a) for k in keys if p[k] > 0 and q[k] > 0)
    return ctx.log(total) / (a - 1)
