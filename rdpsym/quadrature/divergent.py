"""Divergent integrals recognised as +∞, never inferred from a failure to converge.

A divergent integral has no settled quadrature value.  So before (or instead
of) integrating a piece, :func:`rdpsym.quadrature.integrate.integrate_pieces`
and :func:`rdpsym.quadrature.piece._piece` ask here whether it is +∞, three ways:

- exactly, when the logarithm of p^α q^(1−α) is a polynomial that does not tend
  to −∞ toward an infinite end (:func:`_diverges_exactly`);
- by SymPy's limit of that logarithm at an infinite end, within a time budget
  (:func:`_diverges_by_limit`: integrands that grow faster than any scan follows);
- by the integrand's power law at an end, read numerically at two distances and
  confirmed farther out (:func:`_diverges`).

Each gives the reason in words; :func:`_say` appends it to the caller's ``reasons``.
"""

from __future__ import annotations

import functools

import sympy as sp

from rdpsym.foundations.budget import Unsettled, settled_cache, time_budget
from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.locate import Locus

oo = sp.oo


def _say(reasons: list | None, why: str) -> None:
    if reasons is not None:
        reasons.append(why)


@functools.lru_cache(maxsize=1024)
def _diverges_exactly(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether ∫ p^α q^(1−α) over (lo, hi) is +∞ by its logarithm, a polynomial in the
    variable that does not tend to −∞ toward an infinite end (False when undecided).

    Exact where numbers cannot be: N(1, 2²) vs N(0, 1) at α = 4/3 has a log-integrand
    whose x² coefficient −α/8 + (α − 1)/2 is exactly 0, so it grows like x/3; at any
    finite precision the rounded coefficient is ±10^−wp, and a scan far enough out
    would see a false maximum (at 10²² with 20 digits) instead of the divergence.
    """
    if order is None or order == 1 or order is oo or (lo is not -oo and hi is not oo):
        return False
    with sympy_evalf_guard():
        return _log_polynomial_diverges(p, q, var, order, lo, hi)


def _log_polynomial_diverges(p, q, var, order, lo, hi) -> bool:
    try:
        L = sp.expand(order * expand_logs(sp.log(p)) + (1 - order) * expand_logs(sp.log(q)))
        poly = sp.Poly(L, var)
        if any(c.has(var) for c in poly.coeffs()):
            return False
        for end, sign in ((hi, 1), (lo, -1)):
            if end not in (oo, -oo):
                continue
            for k in range(poly.degree(), 0, -1):
                c = poly.coeff_monomial(var**k)
                if c.is_zero is None:
                    return False
                if c.is_zero:
                    continue
                toward = c * sign**k
                if toward.is_positive:
                    return True  # log f → +∞
                if toward.is_negative:
                    break  # log f → −∞ on this side
                return False
            else:
                return True  # log f constant: a nonzero constant integrand on an infinite piece
    except (sp.PolynomialError, sp.GeneratorsNeeded, NotImplementedError, TypeError, ValueError):
        return False
    return False


def _diverges_by_limit(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr | None, lo: sp.Expr,
                       hi: sp.Expr) -> str | None:
    """Why ∫ p^α q^(1−α) over (lo, hi) is +∞ by the limit of its logarithm at an infinite end, or None.

    If α·log p + (1 − α)·log q tends to +∞ or to a finite value toward an infinite end,
    the integrand does not vanish there and the integral is +∞: e^(−αx − αe^(−x)) ×
    e^((α−1)(x − 1) + (α−1)e^(1−x)) (Gumbel laws at α = 2) grows like e^(0.7·e^(−x)) as
    x → −∞, faster than any scan could follow.  SymPy's limit, within a time budget;
    None when it cannot tell.
    """
    if order is None or order == 1 or order is oo or (lo is not -oo and hi is not oo):
        return None
    found = limit_at_an_end(
        lambda: order * expand_logs(sp.log(p)) + (1 - order) * expand_logs(sp.log(q)),
        var, lo, hi, does_not_vanish,
        "the limit of the integrand")
    if found is None:
        return None
    end, limit = found
    return f"the integrand's logarithm tends to {limit} as {var} → {end}: it does not vanish there"


def _series_diverges_by_limit(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr, lo: sp.Expr,
                              hi: sp.Expr) -> str | None:
    """Why Σ of the definition's terms over [lo, hi] is +∞ by comparison with the harmonic series, or None.

    The term t_k is p^α q^(1−α), or p·log(p/q) at α = 1.  If |k|·t_k tends to a positive limit (or +∞) toward
    an infinite end, the terms are eventually positive and at least c/|k|: the series diverges (limit
    comparison).  The KL of 6/(π²k²) against 2^(−k) has terms ~ (6 log 2/π²)/k: +∞, where a summation only
    sees 10⁷⁰ terms that matter.  SymPy's limit, within a time budget; None when it cannot tell.
    """
    if order is None or order is oo or order < 1 or (lo is not -oo and hi is not oo):
        return None
    term = p * sp.log(p / q) if order == 1 else p**order * q ** (1 - order)
    found = limit_at_an_end(lambda: sp.Abs(var) * term, var, lo, hi,
                             lambda limit: limit is oo or (limit.is_extended_real and limit.is_finite
                                                           and limit.is_positive),
                             "the limit of the series' terms")
    if found is None:
        return None
    end, limit = found
    return (f"|{var}|·(the term) tends to {limit} as {var} → {end}: the terms are at least c/|{var}| there and "
            "the series diverges (limit comparison with the harmonic series)")


#: Outcomes of a series' range searched for one where P > 0 = Q exactly (:func:`_outcome_only_p_has`).
_OUTCOMES_SEARCHED = 64


def _outcome_only_p_has(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> str | None:
    """Why Σ of the definition's terms over [lo, hi] is +∞ at an order ≥ 1: an outcome k among the range's first
    :data:`_OUTCOMES_SEARCHED` where P(k) > 0 = Q(k), each decided exactly by SymPy (a Poisson law against the even
    outcomes of one, (1 + (−1)^k)/2·…: Q = 0 at every odd k, where a summation saw terms of +∞ "far apart"); None
    when none is found within a time budget."""
    if order is None or order is oo or order < 1:
        return None
    start = lo if lo is not -oo else (hi - _OUTCOMES_SEARCHED + 1 if hi is not oo else -(_OUTCOMES_SEARCHED // 2))
    with sympy_evalf_guard(), time_budget(2.0, "an outcome where only P has mass", absorb=True):
        for k in range(int(start), int(start) + _OUTCOMES_SEARCHED):
            if hi is not oo and k > hi:
                break
            if q.subs(var, k) == 0 and p.subs(var, k).is_positive is True:
                return f"P > 0 = Q at {var} = {k}: the term there is +∞ at every order ≥ 1"
    return None


def does_not_vanish(limit: sp.Expr) -> bool:
    """Whether a limit of log f is +∞ or a finite real: f does not tend to 0 there."""
    return limit is oo or bool(limit.is_extended_real and limit.is_finite)


#: What SymPy's limit raises where it cannot tell (the heuristic gcd at a scale of 10³⁰ overflows): no decision.
LIMIT_FAILURES = (NotImplementedError, ValueError, TypeError, RecursionError, sp.PolynomialError, sp.PoleError,
                  OverflowError, NoClosedFormError)


def limit_at_an_end(build, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, decisive, what: str) -> tuple | None:
    """(end, limit) for the first infinite end of (lo, hi) where SymPy's limit of ``build()`` is ``decisive``,
    all within 2 s of CPU time (``what`` names the budget); None when none is, or SymPy cannot tell."""
    with sympy_evalf_guard(), time_budget(2.0, what, absorb=True):
        expr = build()
        for end in (e for e in (lo, hi) if e in (oo, -oo)):
            try:
                limit = sp.limit(expr, var, end)
            except LIMIT_FAILURES:
                continue
            if decisive(limit):
                return end, limit
    return None


@settled_cache(maxsize=1024)
def integrable_at_end(p: sp.Expr, q: sp.Expr, var: sp.Symbol, order: sp.Expr, end: sp.Expr, inward: int) -> bool | None:
    """Whether p^α q^(1−α) (p·log(p/q) at α = 1) is integrable at the finite ``end`` of a piece (``inward`` = +1 at
    its lower end), by the exact power c of |x − end| it behaves like there: SymPy's limit of log(f)/log|x − end|,
    within a time budget.  True for c > −1 (whatever logarithms multiply the power), False for c < −1, and for
    c = −1 where f·|x − end| tends to a positive constant or +∞ (α ≠ 1); None when c = −1 otherwise (a logarithm
    then decides) or SymPy cannot tell.  At α = 1 the power is p's, and a verdict is given only
    where q has a finite power too, so that log(p/q) is a logarithm (against e^{−1/t}, log(p/q) ~ 1/t is a power).

    The numeric reads of :func:`_diverges` call an exponent within 10⁻⁶ of −1 "−1": a power-function law
    10⁻⁸·x^(10⁻⁸ − 1) against 2·10⁻⁸·x^(2·10⁻⁸ − 1) has the KL 1 − log 2, its integrand ~ x^(−1 + 10⁻⁸)·log x at 0
    with all its mass below x = e^(−10⁷), and it was said +∞."""
    if order is None or order is oo or end in (oo, -oo):
        # (An infinite end is the reads' to decide, _diverges: SymPy's limit there factors the laws' coefficients,
        # Wang's algorithm testing numbers of a thousand digits for primality in calls no budget interrupts, 9.5 s
        # against a budget of 2 s for ⅔N(0, 1) + ⅓N(10⁵⁰⁰, (10⁴⁹⁰)²); asked 40 times in 3 587 of the suite's tests, it
        # decided nothing.)
        return None
    t = sp.Dummy("t", positive=True)
    found = None
    budget = time_budget(2.0, "the power of the integrand at an end", absorb=True)
    with sympy_evalf_guard(), budget:
        try:
            def log_at(f):
                return _log_at_end(f, var, end, inward, t)

            def power(f):
                return _power_at_end(f, var, end, inward, t)

            if order == 1:
                c, of_q = power(p), power(q)
                if not (of_q.is_extended_real and of_q.is_finite):
                    c = None  # q vanishes (or grows) faster than any power: log(p/q) is not a logarithm
            else:
                c = order * power(p) + (1 - order) * power(q)
            if c is oo or (c is not None and c.is_extended_real and c.is_finite and c > -1):
                found = True
            elif c is -oo or (c is not None and c.is_extended_real and c.is_finite and c < -1):
                found = False
            elif c == -1 and order != 1:
                # f ~ C/t exactly when log f + log t has a finite limit (or +∞): ∫ C/t diverges.  A limit of −∞ is
                # a logarithm that may make it integrable (1/(t·log²t)): undecided.  (P²/Q of a semicircle law
                # against a raised-cosine one at x = ±1: (32/π⁴)/t, refused as "too close to −1" before.)
                rest = order * log_at(p) + (1 - order) * log_at(q) + sp.log(t)
                if power_of_t(sp.expand(rest), t) == 0:
                    found = False  # the rest has a finite limit
                else:
                    rest = sp.limit(rest, t, 0, "+")
                    if rest is oo or (rest.is_extended_real and rest.is_finite):
                        found = False
        except LIMIT_FAILURES:
            found = None
    if budget.spent and found is None:
        raise Unsettled(None)  # out of time: not remembered
    return found


def end_power(f: sp.Expr, var: sp.Symbol, end: sp.Expr, inward: int) -> sp.Expr | None:
    """The exact power c of |x − end| that ``f`` behaves like at the finite ``end`` (log f / log|x − end| → c, read
    as :func:`integrable_at_end` reads it, within a time budget), or None where SymPy cannot tell."""
    with sympy_evalf_guard(), time_budget(2.0, "the power of a density at an end", absorb=True):
        try:
            return _power_at_end(f, var, end, inward, sp.Dummy("t", positive=True))
        except LIMIT_FAILURES:
            return None
    return None


def _log_at_end(f: sp.Expr, var: sp.Symbol, end: sp.Expr, inward: int, t: sp.Symbol) -> sp.Expr:
    """log f at end ± t, as a sum of logarithms."""
    return expand_logs(sp.log(f.subs(var, end + inward * t)))


def _power_at_end(f: sp.Expr, var: sp.Symbol, end: sp.Expr, inward: int, t: sp.Symbol) -> sp.Expr:
    """The limit of log f / log t as t → 0⁺ at end ± t: read term by term (:func:`power_of_t`), else SymPy's limit."""
    log_f = _log_at_end(f, var, end, inward, t)
    read = power_of_t(log_f, t)
    return read if read is not None else sp.limit(log_f / sp.log(t), t, 0, "+")


def power_of_t(log_f: sp.Expr, t: sp.Symbol) -> sp.Expr | None:
    """c when ``log_f`` = c·log t + R(t) with R tending to a finite real limit as t → 0⁺, read term by term; else None.

    The terms it reads: c·log t; a constant; a polynomial in t; k·log g(t) with g a rational function of t whose value
    at 0 is a positive number (log(1 − t), the other end of a Beta law's piece).  Then log f / log t → c, which is
    what SymPy's limit of that quotient finds by gruntz's expansions (a third of a Beta law's check at α).  Anything
    else (log t squared, e^{1/t}, a log of a function that vanishes at 0 other than t) is None: SymPy's limit decides.

    >>> t = sp.Symbol("t", positive=True)
    >>> power_of_t(sp.log(t) / 2 + 3 * sp.log(1 - t) / 2 - 2 * sp.log(2), t), power_of_t(sp.log(t) ** 2, t)
    (1/2, None)
    """
    c = sp.S.Zero
    for term in sp.Add.make_args(log_f):
        k, factor = term.as_independent(t, as_Add=False)
        if not factor.has(t):
            if term.has(oo, -oo, sp.zoo, sp.nan):
                return None
            continue
        if not (k.is_extended_real and k.is_finite):
            return None
        if factor == sp.log(t):
            c += k
        elif isinstance(factor, sp.log) and factor.args[0].is_rational_function(t):
            n, d = (part.subs(t, 0) for part in sp.fraction(sp.together(factor.args[0])))
            if d == 0 or (n / d).is_positive is not True or not (n / d).is_finite:
                return None
        elif not term.is_polynomial(t):
            return None
    return c


def _scale_free_length(lo: sp.Expr, hi: sp.Expr, end: sp.Expr, ctx):
    """The length scale of a singular finite ``end`` of (lo, hi): the piece's length, at most 1 + |end|."""
    reach = 1 + abs(to_mpf(end, ctx))
    if lo in (oo, -oo) or hi in (oo, -oo):
        return reach
    return min(reach, to_mpf(hi, ctx) - to_mpf(lo, ctx))


#: CPU seconds one read of the integrand far in a tail may take (else the read is not made).
_PROBE_SECONDS = 1.0


#: A power-law exponent read this close to −1 is −1 (divergent at either kind of end).
_BORDERLINE = 1e-6
#: How closely (relative to its size, or absolutely below 1) a farther read of the exponent must agree with itself
#: at twice the digits to count.
_REREAD_AGREEMENT = 1e-3


def _held(c, read_at):
    """The exponent ``c`` read at the working precision, if a read at twice the digits (``read_at(2)``) agrees with it;
    else that read, if one at four times the digits agrees with it; else None.  Decades out, a log-density whose
    terms cancel past what the working precision recovers reads as noise: the inverse Gaussian pair's P²/Q ∝ x^{−3/2}
    read 0 at x = 10⁻¹⁴⁰, "integrable", at 30 digits and not at 40, so D₂ was refused, with the wrong reason, at some
    precisions and +∞ at others (a probe).  A read that no precision settles confirms nothing, either way (a review:
    dropped, it let the reads before it confirm a divergence that the dropped one, a tail 10⁴⁵ out, vetoed)."""
    def agree(a, b) -> bool:
        return a is not None and b is not None and abs(a - b) <= _REREAD_AGREEMENT * max(1, abs(a))

    again = read_at(2)
    if agree(c, again):
        return c
    return again if agree(again, read_at(4)) else None


def _reread(ctx, exponent_at, where: tuple, factor: int):
    """``exponent_at(*where)`` at ``factor`` times the working precision."""
    with ctx.workprec(factor * ctx.prec):
        return exponent_at(*where)


#: Decades beyond the first reads of a tail beyond a far hill at which it is read again (the far-mass scan reaches
#: 4 000 decades, rdpsym.quadrature.far_mass, and an exact number of rdpsym's input ceilings has at most 4 000 digits).
_FAR_SHIFTS = (1000, 4000)


def _far_verdict(exponent_at, log_mass_at, integrable, end, sign: int, length, threshold, ctx) -> str | None:
    """Why a tail that reads integrable beyond a far hill is not, read again :data:`_FAR_SHIFTS` decades farther out,
    or None.  10⁻³⁰⁰ of a Cauchy law in P against a Student-t₃ in Q beside a plateau N(0, (10¹⁹⁰⁰)²) gives P²/Q ~ x⁻⁴
    out to 10¹⁹⁰⁰ and a constant beyond (a review: 262.6 for +∞).  The outermost read decides, confirmed 8 and 16
    decades beyond it; a read that says "not integrable" farther in but not outermost is a plateau that ends: mass
    the far-mass scan did not reach.  ``log_mass_at(k)``, log(f·|x − mode|) at 10^k times the first reads' distance,
    is then read every 4 decades out to the outermost read, and a hill above ``threshold`` (the negligible level)
    refuses the value (:func:`_far_hill`).

    Only beyond a far hill: read past every tail, the reads 10⁴⁰⁰⁰ times out met terms that cancel past any working
    precision there (P = Laplace against Q ∝ (1 + x²)·e^(−2|x|) at order 2: α·log P + (1 − α)·log Q read 0, and
    D₂ = log(3π/8) came out +∞; a review), and special functions whose evaluation there took 20 s a read."""
    reads = {}
    for shift in _FAR_SHIFTS:
        c = exponent_at(end, sign, length, shift)
        confirmed = c is not None and not integrable(c, True) and all(
            c2 is not None and not integrable(c2, True)
            for c2 in (exponent_at(end, sign, length, shift + k) for k in (8, 16)))
        reads[shift] = (c, confirmed)
    outermost = _FAR_SHIFTS[-1]
    c, confirmed = reads[outermost]
    if confirmed:
        return (f"the integrand decays like |x|^{ctx.nstr(c, 3)} toward {end} (read 10^{outermost} times beyond its "
                "first reads), too slowly to be integrable")
    inner = [shift for shift in _FAR_SHIFTS[:-1] if reads[shift][1]]
    if inner and _far_hill(list(map(log_mass_at, range(0, outermost + 17, 4))), threshold):
        raise ConvergenceError(
            f"the integrand's tail toward {end} reads integrable near its mass and 10^{outermost} times farther out, "
            f"but like |x|^{ctx.nstr(reads[inner[0]][0], 3)} 10^{inner[0]} times beyond its first reads: mass out "
            "there that the quadrature did not locate")
    return None


def _a_negligible_plateau(exponent_at, log_mass_at, integrable, end, sign: int, length, farthest: int,
                          threshold) -> bool:
    """Whether a tail that reads "not integrable" out to the farthest of its reads (``farthest`` decades beyond the
    first) is a plateau that ends: its mass so far is negligible (log(f·|x|) there below ``threshold``) and it reads
    integrable at each of :data:`_FAR_SHIFTS` decades farther out.
    ⅔N(0, 1) + ⅓Cauchy(10³⁰⁰, 1) against ⅓/⅔ at α = 2: toward
    −∞ the integrand is the Cauchy component's tail, flat at e^(−1384) out to |x| ~ 10³⁰⁰ and ~ x⁻² beyond; read flat
    over 137 decades it was said +∞ (D₂ = log(3/2); a review).  A flat read whose mass is already significant stays
    a divergence: the integral there would be that large whatever lies beyond; and a plateau whose mass, read every 4
    decades out to where it reads integrable, rises above ``threshold`` on the way is mass the quadrature did not
    locate (a :class:`ConvergenceError`)."""
    level = log_mass_at(farthest)
    if level is None or not level < threshold:
        return False
    for shift in _FAR_SHIFTS:
        # integrable at each far read, each confirmed 8 and 16 decades beyond it (as _far_verdict confirms): a single
        # read 10¹⁰⁰⁰ out said x⁻⁴ where Q's Laplace component of scale 10¹⁰⁵⁰ makes P²/Q grow like e^{|x|/σ} farther
        # out, and D₂ = log 2 came out for +∞ (a review); the outermost read is past every scale an input may have
        reads = [exponent_at(end, sign, length, shift + k) for k in (0, 8, 16)]
        if not all(c is not None and integrable(c, True) for c in reads):
            return False
    sizes = [log_mass_at(k) for k in range(farthest, _FAR_SHIFTS[-1] + 17, 4)]
    if any(m is not None and m > threshold for m in sizes):
        raise ConvergenceError(f"the integrand's tail toward {end} is a plateau whose mass grows past what the "
                               "quadrature located before it ends: mass out there that was not integrated")
    return True


def _far_hill(sizes: list, threshold) -> bool:
    """Whether the masses per unit of log-distance ``sizes`` (every 4 decades outward; None where unread) hold a hill
    that matters: a point above ``threshold`` that has risen by more than an e-fold from the lowest before it (as
    far_mass reads one).  The tail falling from the located mass is the quadrature's own, however large."""
    read = [m for m in sizes if m is not None]  # (a read that fails is no mass: log f = −∞, or a probe out of time)
    lowest = read[0] if read else None
    for m in read[1:]:
        if m > threshold and m > lowest + 1:
            return True
        lowest = min(lowest, m)
    return False


def _diverges(log_f, lo: sp.Expr, hi: sp.Expr, where: Locus, ctx, end_integrable=None, interior=()) -> str | None:
    """Why ∫ f over (lo, hi) is +∞ by the integrand's power law at an end, or None.

    Toward an infinite end, f ~ t^c is integrable iff c < −1; toward a finite
    end e, f ~ |t − e|^c is integrable iff c > −1.  The exponent c is read
    from log|f| at 10⁷ and 10⁸ times :meth:`Locus.outside` from the mode (or at distances 10⁻¹²
    and 10⁻¹⁶ of the end's length scale from e).  A divergent integral has no
    settled quadrature value, so without this test "∞" could only be inferred
    from a failure to converge.  ``end_integrable(end, inward)``, if given, is the exact verdict at a finite end
    (:func:`integrable_at_end`): a read that says "not integrable" where the exact power says integrable is a
    :class:`ConvergenceError` (the mass is beyond what the reads resolve), never ∞.  ``interior``: ends that are no
    ends of the integrand's piece, only of the stretch read (a window about a far hill,
    :mod:`rdpsym.quadrature.hidden_hills`), where the integrand is finite: nothing is read there.  Gumbel components at
    0 and 10³⁰: the window about the far hill ends 10²⁵ from it, where N(0, 1)'s tail e^(−5·10⁵⁹) rises toward the
    bulk at 0 by 10³⁰ e-folds a unit; read as |x − e|^(−8·10⁴¹), "too fast to be integrable", D₂ was +∞ for log(3/2)
    (a probe).
    """
    def at(t):
        value = None
        # Bounded: far out, an integrand in a new variable can be exp(−10³⁰·e^t), whose value at t = 10¹³⁵
        # mpmath would reduce modulo log 2 to 10¹³⁵ bits.
        with time_budget(_PROBE_SECONDS, "a probe of the integrand's tail", absorb=True):
            try:
                v = log_f(t)
            except (ZeroDivisionError, ValueError, OverflowError):
                v = None
            value = v if isinstance(v, ctx.mpf) and ctx.isfinite(v) else None
        return value

    resolved = ctx.ldexp(1, 24 - ctx.prec)  # the working precision less 24 bits (about 7 digits)
    centre = where.mode if where.mode is not None else ctx.mpf(0)

    def outside(sign):
        """How far from the mode the mass ends toward ``sign``, but no closer than the working precision resolves at
        the mode: where the mode is a far component's (10³⁰⁰ at 30 digits), reads 10⁷ and 10⁸ widths of 1 from it
        would round onto the mode, one number read twice, a flat "|x|^0" whatever the tail does.  (A guard: the
        Cauchy plateau of :func:`_a_negligible_plateau` was read from the mode at 0, and mended there.)"""
        return max(where.outside(sign), abs(centre) * resolved)

    def log_mass_at(sign, decades):
        """log(f·d) at the distance d = 10^decades times that of the first reads toward an infinite end."""
        d = outside(sign) * ctx.mpf(10) ** (7 + decades)
        value = at(centre + sign * d)
        return None if value is None else value + ctx.log(d)

    def exponent_at(end, sign, length, shift):
        """The power-law exponent of f read at two distances from ``end``, ``shift`` decades beyond the first."""
        if end in (oo, -oo):
            d1, d2 = (outside(sign) * ctx.mpf(10) ** (j + shift) for j in (7, 8))
            t1, t2 = centre + sign * d1, centre + sign * d2
        else:
            base = to_mpf(end, ctx)
            d1, d2 = (ctx.mpf(10) ** -(j + shift) * length for j in (12, 16))
            if d2 < abs(base) * resolved:
                # Closer to e than the working precision resolves there: t − e would be the rounding of e (the
                # compiled constant carries 20 more bits than t), a constant whose flat read says "integrable".
                return None
            t1, t2 = base - sign * d1, base - sign * d2
        l1, l2 = at(t1), at(t2)
        if l1 is None or l2 is None:
            return None
        return (l2 - l1) / (ctx.log(d2) - ctx.log(d1))

    def integrable(c, infinite: bool) -> bool:
        # An exponent read within _BORDERLINE of −1 is −1 (1/x at 0: log-divergent); the reads carry corrections
        # like (1 − x)⁴ ≈ 1 − 4·10⁻¹², on either side of −1.
        return c < -1 - _BORDERLINE if infinite else c > -1 + _BORDERLINE

    shifts = (8, 16, 32, 64, 128)
    with ctx.workdps(max(30, ctx.dps)):
        for end, sign, length in ((lo, -1, where.lengths[0]), (hi, 1, where.lengths[1])):
            infinite = end in (oo, -oo)
            if end in interior:
                continue
            singular_here = not infinite and where.singular is not None and where.singular.low == (sign < 0)
            if singular_here:
                # A power law has no scale of its own: the "mass" of |t − e|^−2 is within 10⁻¹⁹ of e at 40 digits
                # (where it has fallen by 10⁻⁴⁵ from its value at the mode, 10⁻⁴⁰ from e), and reads at 10⁻¹² and
                # 10⁻¹⁶ of that, then decades closer, fell below the precision e is resolved at (an interior zero
                # of Q at 1/3: never confirmed, and D₂ "did not settle").  Read at the piece's own scale instead.
                length = max(length, _scale_free_length(lo, hi, end, ctx))
            exponent = exponent_at(end, sign, length, 0)
            exact = end_integrable is not None and not infinite
            if (exponent is None or singular_here or not integrable(exponent, infinite)) and exact \
                    and end_integrable(end, -sign) is False:
                # The exact power says it where the reads cannot: an end the working precision cannot read at all
                # (9·(x − 1/3)² at 10 digits), or one the mass was recentred next to (|x − 1/√2|^{1−α} at α = 10 to
                # 100: "did not settle", "a power this close to −1" for −31.5, "e^1236 times its largest value";
                # a probe)
                return f"the integrand's exact power at {end} is below −1: it is not integrable there"
            if exponent is None or integrable(exponent, infinite):
                if infinite and where.beyond_far(sign):
                    far = _far_verdict(exponent_at, functools.partial(log_mass_at, sign), integrable, end, sign,
                                       length, where.log_size - (ctx.dps + 5) * ctx.ln10, ctx)
                    if far is not None:
                        return far
                continue
            # Confirmed farther out (closer in, at a finite end): the mode and its width are read from the
            # integrand's largest component, and a mixture with one 10³⁰ times narrower than another (at 10⁻²³,
            # inside the wide one's mass, the integrand is flat) is not yet in its tail there.  A power law keeps
            # its exponent at every scale; a tail that is not one shows it decades on.  Divergence is said only
            # if the first two farther reads can be made and confirm it.
            farther, confirmed = [], True
            for shift in shifts:
                c = exponent_at(end, sign, length, shift)
                if c is None:
                    break
                c = _held(c, functools.partial(_reread, ctx, exponent_at, (end, sign, length, shift)))
                if c is None:  # (a read no precision settles: this end's divergence is not confirmed)
                    confirmed = False
                    break
                farther.append(c)
            if not confirmed:
                # Unsettled reads: divergence is said, or the mass refused, only by the exact power at a finite end
                # (below), and only where every read made says "not integrable" (a review: the refusal was skipped)
                if any(integrable(c, infinite) for c in farther) or not exact or end_integrable(end, -sign) is None:
                    continue
            else:
                if len(farther) < 2 and exact and end_integrable(end, -sign) is False:
                    # Too close to e for the working precision to read twice more (an interior zero of Q at 1/3 read
                    # at 15 digits): the exact power says it, or nothing does
                    farther = [exponent, exponent]
                if len(farther) < 2 or any(integrable(c, infinite) for c in farther):
                    continue
            shown = ctx.nstr(exponent, 3)
            if infinite:
                if _a_negligible_plateau(exponent_at, functools.partial(log_mass_at, sign), integrable, end, sign,
                                         length, shifts[-1], where.log_size - (ctx.dps + 5) * ctx.ln10):
                    continue
                return f"the integrand decays like |x|^{shown} toward {end}, too slowly to be integrable"
            if exact and end_integrable(end, -sign) is True:
                raise ConvergenceError(
                    f"the integrand reads like |x − {end}|^{shown} at {end}, but its exact power there is above −1 "
                    "(integrable): its mass lies closer to the end than the quadrature resolves")
            return f"the integrand grows like |x − {end}|^{shown} at {end}, too fast to be integrable"
    return None
