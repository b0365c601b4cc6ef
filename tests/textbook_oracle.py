"""The definition of the Rényi divergence, evaluated by plain mpmath: the independent oracle of the textbook table.

Nothing here imports rdpsym.  Each function takes the two laws as mpmath
callables and returns D_a(P‖Q) = 1/(a−1) · log ∫ P^a Q^{1−a} (a ≠ 1),
∫ P log(P/Q) (a = 1, the KL divergence) or log sup P/Q (a = ∞), computed
from the definition alone, at ``ORACLE_DPS`` digits:

* one-dimensional integrals piece by piece between the points a family names
  (support ends, kinks, centres).  Each piece is mapped onto the real line by
  x = c ± e^u (an infinite end, or a finite end where the density may be
  singular), so algebraic tails and end singularities become exponential
  decay in u; the u-range is cut where the integrand has fallen 10^-80 below
  its peak (found by walking outward in doubling steps, which also keeps
  e^{e^u}-type integrands from being evaluated where they cannot be), and the
  range is integrated by tanh-sinh (``mpmath.quad``) on segments that double
  in length away from the peak.  The quadrature's error estimate must be
  negligible;
* laws that are products of independent coordinates by the tensor product of
  the one-dimensional rule (Fubini: for a product integrand the tensor rule
  *is* the product of the one-dimensional sums; for KL, log P/Q is a sum);
* other two-dimensional integrals (the correlated bivariate normal, whose
  integrand is entire) by the trapezoid rule on a box, halving the step until
  two results agree to the digits asked for (spectral accuracy for analytic,
  rapidly decaying integrands);
* sums directly, term by term outward from the centre until 50 terms in a row
  are negligible (exponential tails), or by ``mpmath.nsum`` (algebraic
  tails, Euler–Maclaurin);
* the supremum by a scan of log P/Q on a compactified grid refined by golden
  section (a smooth log-ratio has one hill per piece in every family here).

An infinite divergence is not "computed"; it is *witnessed*: P puts mass
where Q has none, or the integrand (or term) times the distance to an end
does not decay towards that end (for an eventually monotone integrand,
convergence would force it to 0), or log P/Q keeps growing towards an end.
The witness is only asked for where the literature formula says ∞: a
formula that says ∞ wrongly fails for want of a witness, and one that says
"finite" wrongly makes the quadrature disagree or not settle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath

#: Working precision of the oracle: the definition is evaluated at 50 digits plus guard digits.
ORACLE_DPS = 60
#: Significant digits on which two values must agree (the engine's own bar is 40).
DIGITS = 40

inf = mpmath.inf

#: Below e^{-10^6} an integrand is 0 to any precision used here (and computing it would cost ~10^6 bits).
_NEGLIGIBLE_EXPONENT = -(10**6)


@dataclass(frozen=True)
class Laws:
    """Two laws as mpmath callables on P's support.

    ``cuts`` are the points of P's support where quadrature should split
    (its ends first and last, ±inf allowed) for a continuous pair; for a
    discrete pair ``cuts`` is ``(lo, hi)``, the integer range of P's
    support (±inf allowed).  ``dim`` = 2: ``p`` and ``q`` take two
    arguments and ``cuts`` is one list per coordinate.  ``factors``: the
    laws are products of independent coordinates, each a :class:`Laws`.
    """

    p: Callable | None
    q: Callable | None
    cuts: tuple = ()
    discrete: bool = False
    dim: int = 1
    #: A point in the middle of P's mass (where the discrete scan starts).
    centre: object = 0
    #: How far towards each end the divergence witnesses look (10^-depth from a finite end, ±10^depth
    #: towards an infinite one).  A double exponential (e^{-e^{-x}}) needs shallow depths: e^{e^{100}}
    #: already has a 44-digit exponent.
    depths: tuple = (20, 40, 80)
    #: Working digits of the witnesses (default: ORACLE_DPS + 4·depth, enough for a Gaussian's exponent).
    witness_dps: int | None = None
    #: log P and log Q, where computing P itself would build e^{e^{...}}: the integrand is then
    #: exp(a log P + (1−a) log Q), 0 once that exponent is below −10^6.
    logp: Callable | None = None
    logq: Callable | None = None
    #: P and Q as functions of y = hi − x near the upper end hi of a finite support, for densities
    #: singular there (1 − x would lose the digits of a tiny y).
    reflected: tuple | None = None
    #: independent coordinates: the pair is the product of these pairs
    factors: tuple = ()


def product(*factors: Laws) -> Laws:
    """Laws of independent coordinates: P = P1 × P2 × …, Q = Q1 × Q2 × …."""
    return Laws(None, None, factors=factors, dim=len(factors))


# --------------------------------------------------------------------------------------------
# Integrands
# --------------------------------------------------------------------------------------------


def _integrand(p, q, a, logp=None, logq=None):
    """P^a Q^{1−a} (a ≠ 1) or P log(P/Q) (a = 1), from the densities or from their logarithms."""
    if logp is not None:
        if a == 1:
            def kl_from_logs(*t):
                e = logp(*t)
                return mpmath.mpf(0) if e < _NEGLIGIBLE_EXPONENT else mpmath.exp(e) * (e - logq(*t))
            return kl_from_logs

        def power_from_logs(*t):
            e = a * logp(*t) + (1 - a) * logq(*t)
            return mpmath.mpf(0) if e < _NEGLIGIBLE_EXPONENT else mpmath.exp(e)
        return power_from_logs
    if a == 1:
        def kl(*t):
            pv = p(*t)
            return mpmath.mpf(0) if pv == 0 else pv * (mpmath.log(pv) - mpmath.log(q(*t)))
        return kl
    return lambda *t: p(*t) ** a * q(*t) ** (1 - a)


def _envelope(p, q, a, logp=None, logq=None):
    """A positive bound of the integrand's size, to decide where its tails end (KL's integrand changes sign)."""
    if a != 1:
        f = _integrand(p, q, a, logp, logq)
        return lambda t: abs(f(t))
    if logp is not None:
        def env_from_logs(t):
            e = logp(t)
            return mpmath.mpf(0) if e < _NEGLIGIBLE_EXPONENT else mpmath.exp(e) * (1 + abs(e - logq(t)))
        return env_from_logs

    def env(t):
        pv = p(t)
        return mpmath.mpf(0) if pv == 0 else pv * (1 + abs(mpmath.log(pv) - mpmath.log(q(t))))
    return env


def _log_ratio(laws: Laws):
    if laws.logp is not None:
        return lambda x: laws.logp(x) - laws.logq(x)
    return lambda x: mpmath.log(laws.p(x)) - mpmath.log(laws.q(x))


# --------------------------------------------------------------------------------------------
# One-dimensional integrals
# --------------------------------------------------------------------------------------------

#: How far below its peak (natural log) an integrand's tail is cut: 10^-(ORACLE_DPS + 20).
_TAIL = mpmath.log(10) * (ORACLE_DPS + 20)


def _log_abs(v) -> mpmath.mpf:
    return mpmath.log(abs(v)) if v != 0 else -inf


def _settled(parts: list) -> mpmath.mpf:
    """The sum of (value, error estimate) parts, whose errors together must be negligible against it."""
    value = mpmath.fsum(v for v, _ in parts)
    err = mpmath.fsum(e for _, e in parts)
    assert err <= abs(value) * mpmath.mpf(10) ** (-(DIGITS + 5)), (
        f"oracle quadrature did not settle: {mpmath.nstr(value, 20)} ± {mpmath.nstr(err, 5)}")
    return value


def _tail(g, env, u0, direction: int) -> tuple:
    """∫ g from u0 to ±∞, where g decays (in u) at least exponentially: cut where ``env`` has fallen
    10^-80 below its running peak (walked out in doubling steps), integrated by Gauss–Legendre on
    segments that double in length."""
    points, peak, step, u = [u0], _log_abs(env(u0)), mpmath.mpf(1), u0
    for _ in range(40):
        u = u + direction * step
        points.append(u)
        level = _log_abs(env(u))
        peak = max(peak, level)
        if level < peak - _TAIL:
            break
        step *= 2
    else:
        raise AssertionError("oracle: the integrand does not decay towards an end of its support")
    return mpmath.quad(g, sorted(points), error=True, method="gauss-legendre", maxdegree=8)


def _regular(f, lo, hi) -> tuple:
    """∫_lo^hi f for f smooth inside and at most kinked at the ends (tanh-sinh), with its error estimate."""
    return mpmath.quad(f, [lo, hi], error=True)


def _singular_at(env, end, direction: int, reflected_env=None) -> bool:
    """Whether the region within 10^-50 of a finite support end matters at 10^-45 (an integrable
    singularity there): tanh-sinh at 60 digits does not sample closer than about 10^-60."""
    d = mpmath.mpf(10) ** -50
    if reflected_env is not None:
        return d * reflected_env(d) > mpmath.mpf(10) ** -45
    with mpmath.workdps(ORACLE_DPS + 60):
        return d * env(end + direction * d) > mpmath.mpf(10) ** -45


def _piece_integral(laws: Laws, a, lo, hi, first: bool, last: bool) -> list:
    """One piece between cuts: regular in x, with x = c ± e^u towards an infinite end and towards a
    singular support end (in y = hi − x there when the family gives reflected densities)."""
    f = _integrand(laws.p, laws.q, a, laws.logp, laws.logq)
    env = _envelope(laws.p, laws.q, a, laws.logp, laws.logq)
    exp = mpmath.exp
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)  # exact ends: a float end would open a 10^-17 gap between pieces
    if lo == -inf and hi == inf:
        raise AssertionError("oracle: cut the real line at a finite point")
    total = []
    if hi == inf:  # [lo, lo + 1] regular (or singular below), then x = lo + 1 + (e^u − 1), u ≥ 0
        total.append(_tail(lambda u: f(lo + exp(u)) * exp(u), lambda u: env(lo + exp(u)) * exp(u), mpmath.mpf(0), 1))
        hi = lo + 1
    if lo == -inf:
        total.append(_tail(lambda u: f(hi - exp(u)) * exp(u), lambda u: env(hi - exp(u)) * exp(u), mpmath.mpf(0), 1))
        lo = hi - 1
    width = min(mpmath.mpf(1), (hi - lo) / 3)
    if first and _singular_at(env, lo, 1):
        total.append(_tail(lambda u: f(lo + width * exp(u)) * width * exp(u),
                           lambda u: env(lo + width * exp(u)) * width * exp(u), mpmath.mpf(0), -1))
        lo = lo + width
    if last and laws.reflected is not None:
        pr, qr = laws.reflected
        fr, er = _integrand(pr, qr, a), _envelope(pr, qr, a)
        if _singular_at(er, hi, -1, reflected_env=er):
            total.append(_tail(lambda u: fr(width * exp(u)) * width * exp(u),
                               lambda u: er(width * exp(u)) * width * exp(u), mpmath.mpf(0), -1))
            hi = hi - width
    elif last and _singular_at(env, hi, -1):
        total.append(_tail(lambda u: f(hi - width * exp(u)) * width * exp(u),
                           lambda u: env(hi - width * exp(u)) * width * exp(u), mpmath.mpf(0), -1))
        hi = hi - width
    total.append(_regular(f, lo, hi))
    return total


def _integral_1d(laws: Laws, a) -> mpmath.mpf:
    cuts = list(laws.cuts)
    pieces = list(zip(cuts, cuts[1:]))
    return _settled([part for i, (lo, hi) in enumerate(pieces)
                     for part in _piece_integral(laws, a, lo, hi, i == 0, i == len(pieces) - 1)])


# --------------------------------------------------------------------------------------------
# Two dimensions (correlated laws): the trapezoid rule
# --------------------------------------------------------------------------------------------


def _trapezoid_2d(f, box, digits: int) -> mpmath.mpf:
    """∫∫ f over ``box`` = ((x0, x1), (y0, y1)) by the trapezoid rule, halving the step (and reusing the
    points already summed) until it settles.  For an entire integrand negligible at the box's edges the
    error falls like e^{-c/h²}: halving h raises it to the fourth power, so a change of 10^-(digits/3)
    between two steps leaves the finer one right to far more than ``digits``.  The ladder starts at 24
    steps (24, 48, 96, ...): its last rung is the cost, and on the Gaussian pairs here 96 steps settle where
    a ladder of 32, 64 needed 128 (1.8 times the points)."""
    (x0, x1), (y0, y1) = box
    n = 24
    hx, hy = (x1 - x0) / n, (y1 - y0) / n
    total = mpmath.fsum(f(x0 + i * hx, y0 + j * hy) for i in range(n + 1) for j in range(n + 1))
    value = total * hx * hy
    for _ in range(5):
        n, hx, hy = 2 * n, hx / 2, hy / 2
        total += mpmath.fsum(f(x0 + i * hx, y0 + j * hy) for i in range(n + 1) for j in range(n + 1)
                             if i % 2 or j % 2)
        previous, value = value, total * hx * hy
        if abs(value - previous) <= abs(value) * mpmath.mpf(10) ** (-(digits + 3) / 3):
            return value
    raise AssertionError("oracle: the trapezoid rule did not settle")


#: Where the two-dimensional integrand is cut (natural log below its peak): 10^-(DIGITS + 15), 10 digits past
#: those the trapezoid rule must settle (the one-dimensional rule's 10^-80 would widen the box by a quarter
#: on each axis, and the grid by half again, for digits no comparison reads).
_TAIL_2D = mpmath.log(10) * (DIGITS + 15)


def _box(laws: Laws, a) -> tuple:
    """A box outside which the two-dimensional integrand is negligible (walked out along each axis from
    the cuts' finite points)."""
    f = _integrand(laws.p, laws.q, a if a != 1 else mpmath.mpf(1) + mpmath.mpf(1) / 8)
    centre = [mpmath.fsum(c for c in cuts if c not in (inf, -inf)) / sum(c not in (inf, -inf) for c in cuts)
              for cuts in laws.cuts]
    peak = _log_abs(f(*centre))
    box = []
    for axis in range(2):
        ends = []
        for direction in (-1, 1):
            def along(u, axis=axis, direction=direction):
                point = list(centre)
                point[axis] += direction * u
                # the integrand's largest value across the other axis, on a coarse line
                others = [centre[1 - axis] + s for s in range(-30, 31)]
                vals = []
                for o in others:
                    point[1 - axis] = o
                    vals.append(abs(f(*point)))
                return max(vals)
            u = mpmath.mpf(1)
            while _log_abs(along(u)) > peak - _TAIL_2D:
                u *= 2
                assert u < 10**4, "oracle: the two-dimensional integrand does not decay"
            inside = u / 2  # bisect down to the cut: a box no wider than it must be
            for _ in range(6):
                middle = (inside + u) / 2
                if _log_abs(along(middle)) > peak - _TAIL_2D:
                    inside = middle
                else:
                    u = middle
            ends.append(centre[axis] + direction * u)
        box.append(tuple(ends))
    return tuple(box)


# --------------------------------------------------------------------------------------------
# Sums
# --------------------------------------------------------------------------------------------


def _direct_sum(term, lo, hi, centre) -> mpmath.mpf:
    """Σ term(k) over lo ≤ k ≤ hi, outward from ``centre`` until the terms are negligible.

    Used where the terms fall at least geometrically away from the centre; 50 terms in a row
    below 10^-(ORACLE_DPS+10) of the running total end each side."""
    total = mpmath.mpf(0)
    tiny = mpmath.mpf(10) ** (-(ORACLE_DPS + 10))
    c = int(mpmath.floor(centre))
    c = min(max(c, lo), hi) if hi != inf else max(c, lo)
    for step in (1, -1):
        k, quiet, limit = (c if step == 1 else c - 1), 0, 10**6
        while quiet < 50 and limit:
            if (step == 1 and hi != inf and k > hi) or (step == -1 and lo != -inf and k < lo):
                break
            t = term(k)
            total += t
            quiet = quiet + 1 if abs(t) <= tiny * abs(total) else 0
            k += step
            limit -= 1
        assert limit, "oracle sum did not settle within 10^6 terms"
    return total


def _euler_maclaurin(f, env, lo, n: int = 1000, terms: int = 12) -> mpmath.mpf:
    """Σ_{k ≥ lo} f(k) for terms with an algebraic tail (f smooth in a real k): the first terms summed,
    the rest by the Euler–Maclaurin formula Σ_{k ≥ N} f(k) = ∫_N^∞ f + f(N)/2 − Σ_j B_{2j}/(2j)! f^{(2j−1)}(N);
    with N = 1000 and 12 terms the remainder is below 10^-58 relative for the power laws here."""
    head = mpmath.fsum(f(k) for k in range(int(lo), n))
    exp = mpmath.exp
    tail_integral = _settled([_tail(lambda u: f(n - 1 + exp(u)) * exp(u), lambda u: env(n - 1 + exp(u)) * exp(u),
                                    mpmath.mpf(0), 1)])
    with mpmath.workdps(ORACLE_DPS + 40):
        derivatives = list(mpmath.diffs(f, mpmath.mpf(n), 2 * terms))
    correction = mpmath.fsum(mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * derivatives[2 * j - 1]
                             for j in range(1, terms + 1))
    return head + tail_integral + derivatives[0] / 2 - correction


# --------------------------------------------------------------------------------------------
# The definition
# --------------------------------------------------------------------------------------------


def integral(laws: Laws, a, algebraic_tail: bool = False) -> mpmath.mpf:
    """∫ P^a Q^{1−a} (a ≠ 1) or ∫ P log(P/Q) (a = 1) over P's support, from the definition."""
    if laws.factors:
        parts = [integral(f, a, algebraic_tail) for f in laws.factors]
        if a != 1:
            return mpmath.fprod(parts)
        # ∫∫ P1 P2 (log P1/Q1 + log P2/Q2) with ∫ P_i = 1
        return mpmath.fsum(parts)
    if laws.discrete:
        f = _integrand(laws.p, laws.q, a, laws.logp, laws.logq)
        lo, hi = laws.cuts
        if algebraic_tail:
            return _euler_maclaurin(f, _envelope(laws.p, laws.q, a, laws.logp, laws.logq), lo)
        return _direct_sum(f, lo, hi, laws.centre)
    if laws.dim == 2:
        f = _integrand(laws.p, laws.q, a, laws.logp, laws.logq)
        return _trapezoid_2d(f, _box(laws, a), DIGITS + 5)
    return _integral_1d(laws, a)


def divergence(laws: Laws, a, *, algebraic_tail: bool = False) -> mpmath.mpf:
    """D_a(P‖Q) from the definition (a ≠ ∞); the caller has ruled out divergence (see :func:`diverges`)."""
    value = integral(laws, a, algebraic_tail)
    if a == 1:
        return value
    return mpmath.log(value) / (a - 1)


# --------------------------------------------------------------------------------------------
# The supremum of log P/Q
# --------------------------------------------------------------------------------------------


def _compactified(lo, hi):
    """A map from (0, 1) onto (lo, hi) that reaches infinite ends geometrically."""
    if lo == -inf and hi == inf:
        return lambda t: mpmath.tan(mpmath.pi * (t - mpmath.mpf(1) / 2))
    if hi == inf:
        return lambda t: lo + t / (1 - t)
    if lo == -inf:
        return lambda t: hi - (1 - t) / t
    return lambda t: lo + (hi - lo) * t


def _golden_max(h, a, b, iterations: int = 260):
    """The maximum of a unimodal ``h`` on [a, b] (golden section; 260 steps narrow the bracket 10^54-fold)."""
    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    hc, hd = h(c), h(d)
    for _ in range(iterations):
        if hc >= hd:
            b, d, hd = d, c, hc
            c = b - g * (b - a)
            hc = h(c)
        else:
            a, c, hc = c, d, hd
            d = a + g * (b - a)
            hd = h(d)
    return max(hc, hd)


def sup_log_ratio(laws: Laws, grid: int = 400) -> mpmath.mpf:
    """log sup P/Q over P's support: every piece scanned and refined (a product: the sum over coordinates)."""
    if laws.factors:
        return mpmath.fsum(sup_log_ratio(f, grid) for f in laws.factors)
    h = _log_ratio(laws)
    if laws.discrete:
        lo, hi = laws.cuts
        c = int(mpmath.floor(laws.centre))
        ks = [k for k in range(c - 2000, c + 2001) if (lo == -inf or k >= lo) and (hi == inf or k <= hi)]
        return max(h(k) for k in ks)
    if laws.dim == 2:
        return _sup_2d(laws)
    with mpmath.workdps(2 * ORACLE_DPS):
        # twice the digits: a supremum reached at an end is approached where log P and log Q are both
        # huge (e^{-1/x} at x = 10^-50), and their difference must keep its 50 digits
        return +_sup_1d(laws, h, grid)


def _sup_2d(laws: Laws) -> mpmath.mpf:
    """The maximum of a smooth, concave log P/Q in two variables: the best point of a coarse grid around
    the cuts' centre, then Newton's method on the gradient (numerical derivatives, ``mpmath.findroot``)."""
    h = (lambda t, z: laws.logp(t, z) - laws.logq(t, z)) if laws.logp is not None else \
        (lambda t, z: mpmath.log(laws.p(t, z)) - mpmath.log(laws.q(t, z)))
    grid = [mpmath.mpf(i) / 2 for i in range(-40, 41)]
    start = max(((t, z) for t in grid for z in grid), key=lambda p: h(*p))

    def gradient(t, z):
        return [mpmath.diff(lambda u: h(u, z), t), mpmath.diff(lambda u: h(t, u), z)]

    best = mpmath.findroot(gradient, start)
    return h(best[0], best[1])


def _sup_1d(laws: Laws, h, grid: int) -> mpmath.mpf:
    best = -inf
    cuts = list(laws.cuts)
    for lo, hi in zip(cuts, cuts[1:]):
        x_of = _compactified(lo, hi)
        ts = [mpmath.mpf(i) / grid for i in range(1, grid)]
        values = [h(x_of(t)) for t in ts]
        i = max(range(len(ts)), key=values.__getitem__)
        left = ts[i - 1] if i > 0 else mpmath.mpf(0)
        right = ts[i + 1] if i + 1 < len(ts) else mpmath.mpf(1)
        best = max(best, _golden_max(lambda t, x_of=x_of: h(x_of(t)), left, right))
    return best


# --------------------------------------------------------------------------------------------
# Witnesses of an infinite divergence
# --------------------------------------------------------------------------------------------


def _towards_ends(laws: Laws, depth):
    """Points of P's support at distance 10^-depth from each finite end, or at ±10^depth (infinite ends),
    each with its distance-weight (the distance to a finite end, |x| towards an infinite one)."""
    big, eps = mpmath.mpf(10) ** depth, mpmath.mpf(10) ** (-depth)
    if laws.discrete:
        lo, hi = laws.cuts
        out = []
        if hi == inf:
            out.append((int(big), big))
        if lo == -inf:
            out.append((-int(big), big))
        return out
    lo, hi = laws.cuts[0], laws.cuts[-1]
    return [(lo + eps, eps) if lo != -inf else (-big, big), (hi - eps, eps) if hi != inf else (big, big)]


def mass_where_q_vanishes(laws: Laws, samples: int = 64) -> bool:
    """P puts mass where Q is 0 (checked on a grid of each piece of P's support; p > 0 there)."""
    if laws.factors:
        return any(mass_where_q_vanishes(f, samples) for f in laws.factors)
    if laws.dim == 2:
        return False
    if laws.discrete:
        lo, hi = laws.cuts
        ks = range(int(lo) if lo != -inf else -50, (int(hi) if hi != inf else 50) + 1)
        return any(laws.p(k) > 0 and laws.q(k) == 0 for k in ks)
    cuts = list(laws.cuts)
    for lo, hi in zip(cuts, cuts[1:]):
        x_of = _compactified(lo, hi)
        if any(laws.p(x) > 0 and laws.q(x) == 0 for x in (x_of(mpmath.mpf(i) / samples) for i in range(1, samples))):
            return True
    return False


def _at_depth(depth, laws: Laws, g) -> list:
    """``g(x, w)`` at each end's point at ``depth`` (see :func:`_towards_ends`), at enough precision
    for a point 10^-depth from an end or 10^depth from the origin (a Gaussian's exponent there has
    2·depth digits before the point)."""
    with mpmath.workdps(laws.witness_dps or ORACLE_DPS + 4 * int(depth)):
        return [g(x, w) for x, w in _towards_ends(laws, depth)]


def diverges(laws: Laws, a) -> bool:
    """A witness that ∫ P^a Q^{1−a} (or the KL integral, or the sum) is infinite.

    Either P has mass where Q vanishes, or towards some end of the support the
    integrand times the distance-weight does not decay from the first depth to
    the last (for an eventually monotone integrand, convergence forces it to 0).
    A product diverges when a coordinate does (every factor's integral is positive)."""
    if laws.factors:
        return any(diverges(f, a) for f in laws.factors)
    if mass_where_q_vanishes(laws):
        return True
    if laws.dim == 2:
        return False
    f = _integrand(laws.p, laws.q, a, laws.logp, laws.logq)
    near = _at_depth(laws.depths[0], laws, lambda x, w: abs(w * f(x)))
    far = _at_depth(laws.depths[-1], laws, lambda x, w: abs(w * f(x)))
    return any(v2 > 0 and v2 >= v1 / 2 for v1, v2 in zip(near, far))


def sup_is_infinite(laws: Laws) -> bool:
    """A witness that log P/Q is unbounded on P's support: mass where Q = 0, or log P/Q growing by more
    than 1 at each of the three depths towards an end."""
    if laws.factors:
        return any(sup_is_infinite(f) for f in laws.factors)
    if mass_where_q_vanishes(laws):
        return True
    if laws.dim == 2:
        # along each axis direction from the centre of the cuts' finite points
        centre = [mpmath.fsum(c for c in cuts if c not in (inf, -inf)) for cuts in laws.cuts]
        for axis in range(2):
            for direction in (-1, 1):
                values = []
                for d in laws.depths:
                    with mpmath.workdps(ORACLE_DPS + 4 * int(d)):
                        point = list(centre)
                        point[axis] += direction * mpmath.mpf(10) ** d
                        values.append(mpmath.log(laws.p(*point)) - mpmath.log(laws.q(*point)))
                if values[1] > values[0] + 1 and values[2] > values[1] + 1:
                    return True
        return False
    ratio = _log_ratio(laws)

    def h(x, w):
        return ratio(x)

    v0, v1, v2 = (_at_depth(d, laws, h) for d in laws.depths)
    return any(b > a + 1 and c > b + 1 for a, b, c in zip(v0, v1, v2))


def agree(got, want, digits: int = DIGITS) -> bool:
    """``got`` equals ``want`` to ``digits`` significant digits (both infinite counts as equal)."""
    if want == inf or got == inf:
        return want == got
    if want == 0:
        return abs(got) <= mpmath.mpf(10) ** (-digits - 5)
    return abs(got - want) <= mpmath.mpf(10) ** (-digits) * abs(want)
