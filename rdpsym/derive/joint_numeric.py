"""The definition of D_α for laws in several variables, numerically: independent of every symbolic route.

Block by block (:func:`~rdpsym.derive.joint_blocks.align`): a coordinate by its
one-dimensional definition (:mod:`rdpsym.derive.definition`), a finite table by
its sum, a Gaussian block by its integral in the frame of a numeric (mpmath)
eigen-decomposition of the integrand's Hessian read off the raw densities, two
variables otherwise by nested quadrature; the blocks summed with their copies
(additivity over independent blocks).  :func:`rdpsym.renyi_divergence_mp` hands
laws in several variables here, and the check of a joint result
(:mod:`rdpsym.derive.joint_check`) compares with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import mpmath
import sympy as sp

from rdpsym.derive.definition import DEFINITION_SECONDS, numeric_order, univariate_divergence_mp
from rdpsym.derive.joint_blocks import _at, _Both, _laws_ok, _parameters, _tables, align
from rdpsym.foundations.budget import SymbolicTimeout, time_budget
from rdpsym.foundations.errors import ConvergenceError, NoClosedFormError, ParameterError
from rdpsym.foundations.numbers import Digits
from rdpsym.foundations.precision import agreed, digits_next_to_one, mpmath_function, sympy_evalf_guard
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.laws.densities import Density, parameter_values
from rdpsym.laws.joint import Joint, nested_quad
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo

__all__ = ["joint_divergence_mp", "numeric_block"]


def renyi_divergence_mp_1d(P, Q, order, dps: int) -> mpmath.mpf:
    return univariate_divergence_mp(P, Q, order, dps=dps)


def joint_divergence_mp(P: object, Q: object, order: object, dps: int = 50,
                        values: Mapping | None = None) -> mpmath.mpf:
    """D_order(P‖Q) from the definition, for laws in several variables (:func:`rdpsym.renyi_divergence_mp`).

    Block by block (:func:`~rdpsym.derive.joint_blocks.align`): a coordinate by its one-dimensional definition,
    a Gaussian block by its integral in a numerically diagonalised frame (:func:`numeric_block`), summed with
    their copies (additivity over independent blocks).  Never from a symbolic result.

    >>> import sympy as sp, rdpsym
    >>> from rdpsym.laws.multivariate_normal import MultivariateNormal
    >>> P, Q = MultivariateNormal([0, 0], sp.eye(2)), MultivariateNormal([1, 1], sp.eye(2))
    >>> print(rdpsym.renyi_divergence_mp(P, Q, 2, dps=20))  # α·|Δμ|²/2 = 2
    2.0000000000000000000
    """
    dps = read_dps(dps)
    order = numeric_order(order)
    _laws_ok(P, Q)
    if values:
        given = parameter_values(values, (_Both(P, Q),))
        P, Q = (_at(law, given) for law in (P, Q))
    missing = sorted(str(s) for s in _parameters(P) | _parameters(Q))
    if missing:
        raise ParameterError(f"values must give every parameter; missing: {', '.join(missing)}.")
    total = mpmath.mpf(0)
    for block in align(P, Q):
        if block.p == block.q:
            continue
        value = numeric_block(block.p, block.q, order, dps + 5)
        if mpmath.isinf(value):
            return mpmath.inf
        with mpmath.workdps(dps + 10):
            total += value * int(block.copies)
    return Digits(total, dps)


def numeric_block(p, q, order, dps: int) -> mpmath.mpf:
    """One block's divergence from the definition: a 1-D quadrature (summation), a Gaussian block in its
    numerically diagonalised frame, a finite table, or (two variables) nested quadrature."""
    if isinstance(p, Density):
        return renyi_divergence_mp_1d(p, q, order, dps)
    tables = _tables(p, q)
    if tables is not None:
        return renyi_divergence_mp_1d(*tables, order, dps)
    jp, jq = p.joint(), q.joint().renamed(p.joint().variables)
    value = None
    if not jp.discrete and all(s == sp.Interval(-oo, oo) for s in jp.support + jq.support) and \
            _log_quadratic(jp) and _log_quadratic(jq):
        try:
            value = _diagonalised(jp, jq, order, dps)
        except _NotQuadratic:
            pass
    if value is None and len(jp.variables) == 2:
        value = _within_ceiling(lambda: _nested(jp, jq, order, dps), order)
    if value is None:
        raise NoClosedFormError(f"no numeric route for a joint block of dimension {len(jp.variables)} that neither "
                                "separates nor is Gaussian")
    if value < 0:  # a divergence is ≥ 0: below it only by the rounding of a value that is 0 to the digits asked
        if value < -mpmath.mpf(10) ** -dps:
            raise ConvergenceError(f"D_{order} of a joint block from the definition came out negative "
                                   f"({mpmath.nstr(value, 15)}): not a value")
        value = mpmath.mpf(0)
    return value


def _log_quadratic(j: Joint) -> bool:
    """Whether log of the joint density is a polynomial of degree at most 2 in its variables, read from its
    expression (the Gaussian route's precondition): a density that is Gaussian on the grid the fit reads but not
    between (φ·(1 + sin(4π(x + y))/2), whose factor is 1 at every k/4) or only inside a ball (a Huber law) was
    integrated as a Gaussian, to values near 0 and below it (a probe)."""
    log = None
    with time_budget(2.0, "whether a joint density is log-quadratic", absorb=True):
        log = sp.expand(sp.expand_log(sp.log(j.pdf), force=True))
    if log is None or not log.is_polynomial(*j.variables):
        return False
    return sp.Poly(log, *j.variables).total_degree() <= 2


def _within_ceiling(compute, order) -> mpmath.mpf:
    """``compute()`` within the definition's CPU-time ceiling (:data:`~rdpsym.derive.definition.DEFINITION_SECONDS`),
    as a law of one variable has it: nested quadrature of a 2-D Gaussian mixture against a Gaussian ran for
    minutes without an answer (a probe)."""
    budget = time_budget(DEFINITION_SECONDS, "the definition")
    try:
        with budget:
            return compute()
    except SymbolicTimeout:
        if not budget.spent:
            raise
        raise ConvergenceError(f"D_{order} of a joint block from the definition (nested quadrature) did not finish "
                               f"within {DEFINITION_SECONDS:g} s of CPU time (the time ceiling)") from None


class _NotQuadratic(Exception):
    """The log-integrand is not a quadratic function (checked numerically)."""


def _log_density(j: Joint):
    f = mpmath_function(j.variables, j.pdf)

    def log(point):
        value = f(*point)
        if value <= 0:
            raise _NotQuadratic()
        return mpmath.log(value)

    return log


def _own_scale(L, d: int) -> list:
    """Steps h_i, each a power of ten at which L's second difference along e_i is about 1, for reading L in the
    coordinates u = x/h (:func:`_scaled`).  The fit reads L at unit steps; laws of scale σ = 10⁻³⁰⁰ put L near
    −10⁶⁰⁰ there, the slope 10³⁰⁰ of a mean σ away lost in its rounding, and σ = 10³⁰⁰ their curvature 10⁻⁶⁰⁰ below
    the digits of L(0): two normals of every scale have one D_α, and D_{1/3} came out 0.81 for 0.3186 at
    σ = 10⁻³⁰⁰ (labelled numeric), +∞ at 10³⁰⁰, and the KL a raw ZeroDivisionError at 10¹⁰⁰ (a review)."""
    zero = [mpmath.mpf(0)] * d
    c = L(zero)
    steps = []
    for i in range(d):
        h = mpmath.mpf(1)
        for _ in range(_SCALE_ROUNDS):
            at = [list(zero), list(zero)]
            at[0][i], at[1][i] = h, -h
            ahead, behind = L(at[0]), L(at[1])
            second = ahead + behind - 2 * c
            noise = (abs(c) + abs(ahead) + abs(behind)) * mpmath.mpf(10) ** (5 - mpmath.mp.dps)  # (their rounding)
            if abs(second) <= noise:
                h *= mpmath.mpf(10) ** 20  # too flat to be read at this step: much wider
                continue
            if mpmath.mpf(10) ** -2 <= abs(second) <= mpmath.mpf(10) ** 2:
                break
            h = mpmath.mpf(10) ** mpmath.nint(mpmath.log10(h / mpmath.sqrt(abs(second))))
        else:
            h = mpmath.mpf(1)  # (no step reads a curvature of about 1: the unit step, as the fit had it before)
        steps.append(h)
    return steps


def _scaled(L, steps: list):
    """``L`` in the coordinates u = x/h (x_i = h_i·u_i)."""
    return lambda u: L([h * v for h, v in zip(steps, u, strict=True)])


#: Rounds of :func:`_own_scale`'s search for a coordinate's step (a factor 10²⁰ wider, or its curvature's own step).
_SCALE_ROUNDS = 80


def _fit(L, d: int):
    """c, g, H with L(x) = c + gᵀx − ½xᵀHx, from values of L at 0, ±e_i and e_i + e_j (exact for a quadratic),
    then checked at three further points."""
    zero = [mpmath.mpf(0)] * d

    def e(*idx):
        v = list(zero)
        for i in idx:
            v[i] += 1
        return v

    def neg(i):
        v = list(zero)
        v[i] = -mpmath.mpf(1)
        return v

    c = L(zero)
    plus = [L(e(i)) for i in range(d)]
    minus = [L(neg(i)) for i in range(d)]
    g = mpmath.matrix([(plus[i] - minus[i]) / 2 for i in range(d)])
    H = mpmath.matrix(d, d)
    for i in range(d):
        H[i, i] = 2 * c - plus[i] - minus[i]
    for i in range(d):
        for j in range(i + 1, d):
            H[i, j] = H[j, i] = c + g[i] + g[j] - (H[i, i] + H[j, j]) / 2 - L(e(i, j))
    rng = random.Random(3)
    for _ in range(3):
        x = mpmath.matrix([mpmath.mpf(rng.randint(-9, 9)) / 4 for _ in range(d)])
        model = c + (g.T * x)[0] - (x.T * H * x)[0] / 2
        actual = L(list(x))
        if abs(actual - model) > mpmath.mpf(10) ** (-mpmath.mp.dps // 2) * max(1, abs(actual)):
            raise _NotQuadratic()
    return c, g, H


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _diagonalised(jp: Joint, jq: Joint, order, dps: int) -> mpmath.mpf:
    """The d-dimensional definition for log-quadratic densities, in the eigen-frame of a numeric Hessian.

    The integrand exp(L) with L = α log p + (1 − α) log q (read at points, from the raw densities)
    is fitted by c + gᵀx − ½xᵀHx and the fit checked at random points; H = VΛVᵀ by mpmath's
    symmetric eigen-solver, x* = H⁻¹g by an LU solve; in that frame the integral is
    e^{L(x*)} Π_i √(2π/λ_i) (+∞ when an eigenvalue is ≤ 0).  KL: E_P[log p − log q] = h(μ) − ½tr(H_h Σ)
    with P's mean and covariance from its own fit; D_∞: the vertex of log p − log q.  None of it
    uses the symbolic derivation (its determinant, inverse or completed square).
    """
    d = len(jp.variables)
    wp = dps + 20 + digits_next_to_one(order)  # log_total is (α − 1)·D next to 1 (MVN at α = 1 + 10⁻⁶⁰: 6 digits)
    if order not in (1, oo):
        # Eigenvalues of the fitted Hessian closer to 0 than its noise, relative to the largest, are resolved at more
        # digits: variances 10⁻²⁵ and 1 (or a correlation 1 − 10⁻³⁰) were read as a zero eigenvalue, ∞ with no
        # reason, even at α = 1/2 (a probe).  Never resolved: refused, never ∞.
        for digits in (wp, 2 * wp, 4 * wp, 8 * wp):
            value = _gaussian_integral(jp, jq, order, d, digits)
            if value is not None:
                return value
        raise ConvergenceError(f"D_{order} of a Gaussian block: its Hessian's eigenvalues are not resolved at "
                               f"{8 * wp} digits (condition number past 10^{4 * wp})")
    with mpmath.workdps(wp):  # (order 1 or ∞)
        # (the KL and the supremum of log p − log q are the same in any linear coordinates: read in P's own scale)
        lp_x, lq_x = _log_density(jp), _log_density(jq)
        steps = _own_scale(lp_x, d)
        lp, lq = _scaled(lp_x, steps), _scaled(lq_x, steps)
        ch, gh, Hh = _fit(lambda x: lp(x) - lq(x), d)
        if order is oo:
            return _vertex(ch, gh, Hh, wp)
        cp, gp, Hp = _fit(lp, d)
        try:
            Sigma = Hp ** -1
        except ZeroDivisionError:  # (mpmath: "matrix is numerically singular")
            raise _NotQuadratic() from None
        mu = Sigma * gp
        return +(ch + (gh.T * mu)[0] - (mu.T * Hh * mu)[0] / 2 - sum((Hh * Sigma)[i, i] for i in range(d)) / 2)


def _gaussian_integral(jp: Joint, jq: Joint, order, d: int, wp: int) -> mpmath.mpf | None:
    """:func:`_diagonalised` at a finite order other than 1, at ``wp`` digits; None where an eigenvalue of the fitted
    Hessian is within its noise (relative 10^(−wp/2)) of 0, so that its sign is not read at this precision."""
    with mpmath.workdps(wp):
        lp, lq = _log_density(jp), _log_density(jq)
        a = to_mpf(order, mpmath.mp)
        L_x = lambda x: a * lp(x) + (1 - a) * lq(x)  # noqa: E731
        steps = _own_scale(L_x, d)
        L, log_steps = _scaled(L_x, steps), mpmath.fsum(mpmath.log(h) for h in steps)
        c, g, H = _fit(L, d)
        E, V = mpmath.eigsy(H)
        scale = max(abs(E[i]) for i in range(d))
        noise = scale * mpmath.mpf(10) ** (-wp // 2)
        if any(E[i] < -noise for i in range(d)):
            return mpmath.inf  # (a direction along which the integrand grows: the integral diverges)
        if any(E[i] <= noise for i in range(d)):
            return None
        xs = mpmath.lu_solve(H, g)
        # In the eigen-frame centred at the vertex x* the integrand is e^{L(x*)} Π_i e^{−λ_i s_i²/2}: its
        # integral is e^{L(x*)} Π_i √(2π/λ_i), with L(x*) read off the raw densities at x*.
        log_det = mpmath.fsum(mpmath.log(E[i]) for i in range(d))
        log_total = L(list(xs)) + d * mpmath.log(2 * mpmath.pi) / 2 - log_det / 2 + log_steps  # (dx = Π h_i du)
        return log_total / (a - 1)


def _vertex(c, g, H, wp):
    """sup of c + gᵀx − ½xᵀHx: ∞ if H has a negative eigenvalue, or a zero one along which g does not vanish."""
    d = H.rows
    E, V = mpmath.eigsy(H)
    scale = max(max(abs(E[i]) for i in range(d)), mpmath.mpf(1))
    tiny = scale * mpmath.mpf(10) ** (-wp // 2)
    value = c
    for i in range(d):
        vi = mpmath.matrix([V[k, i] for k in range(d)])
        gi = (g.T * vi)[0]
        if E[i] < -tiny:
            return mpmath.inf
        if E[i] <= tiny:
            if abs(gi) > mpmath.mpf(10) ** (-wp // 2) * max(1, mpmath.norm(g)):
                return mpmath.inf
            continue
        value += gi**2 / (2 * E[i])
    return value


def _zero_factors(j: Joint) -> list[tuple[sp.Expr, int]]:
    """The density's polynomial factors g^m of degree at most 2 in each variable (g, m): where one vanishes inside
    the region, P^α Q^{1−α} has a kink or a singularity (|x − y| from Q = 6(x − y)² at α = 1/2), which the quadrature
    splits at as at a switch (its curves solved in closed form).  Unsplit, D_{1/2} of the uniform square against
    6(x − y)² settled at two precisions on 0.4054705…, where it is 0.4054651… (a probe)."""
    found: list[tuple[sp.Expr, int]] = []
    for f in sp.Mul.make_args(j.pdf):
        g, m = (f.base, f.exp) if f.is_Pow and f.exp.is_Integer and f.exp > 0 else (f, sp.S.One)
        g = g.args[0] if isinstance(g, sp.Abs) else g  # (|x − y| vanishes where x − y does, to the first order)
        if g.free_symbols & set(j.variables) and g.is_polynomial(*j.variables) and \
                all(sp.degree(g, v) <= 2 for v in j.variables):
            found.append((g, int(m)))
    return found


def _inside(support: tuple):
    """A test of whether a point (mpmath numbers) lies in the product of sets ``support`` (intervals or ranges)."""
    ends = [(to_mpf(s.inf, mpmath.mp), to_mpf(s.sup, mpmath.mp), bool(getattr(s, "left_open", False)),
             bool(getattr(s, "right_open", False))) for s in support]

    def test(*point) -> bool:
        return all((lo < v if lo_open else lo <= v) and (v < hi if hi_open else v <= hi)
                   for v, (lo, hi, lo_open, hi_open) in zip(point, ends))

    return test


class _Diverges(Exception):  # noqa: N818 - a signal inside this module, not an error
    """The integrand is infinite on a set the integral cannot ignore: the definition is +∞."""


def _vanishes_around(f, inside, x, y) -> bool:
    """Whether ``f`` is 0 at every one of eight points about 2⁻⁴⁰·(1 + |·|) from (x, y), in four directions of slopes
    ±1/3 and ±3, that lies ``inside`` P's support (at least two of them): a zero set with an interior there, not a
    curve through the point (no line holds more than two of them; the diagonal neighbours had stayed on x = y)."""
    hx, hy = (mpmath.ldexp(1 + abs(v), -40) for v in (x, y))
    steps = [(sx * hx, sy * hy / 3) for sx in (-1, 1) for sy in (-1, 1)] + \
        [(sx * hx / 3, sy * hy) for sx in (-1, 1) for sy in (-1, 1)]
    around = [(x + dx, y + dy) for dx, dy in steps if inside(x + dx, y + dy)]
    return len(around) >= 2 and all(f(*point) == 0 for point in around)


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _nested(jp: Joint, jq: Joint, order, dps: int) -> mpmath.mpf:
    """Two variables: the definition by nested one-dimensional quadrature (summation), at two precisions."""
    factors_p, factors_q = _zero_factors(jp), _zero_factors(jq)  # (SymPy's reading: once, not at each precision)

    def at(wp):
        with mpmath.workdps(wp):
            fp, raw_q = (mpmath_function(jp.variables, j.pdf) for j in (jp, jq))
            inside_p, inside_q = _inside(jp.support), _inside(jq.support)

            def fq(x, y):  # Q is 0 off its own support (its expression is not Q there: a probe found P's mass on
                return raw_q(x, y) if inside_q(x, y) else mpmath.mpf(0)  # [0, 2]² ∖ [0, 1]² read as finite)

            zeros = [*factors_p, *factors_q]
            split_at = [mpmath_function(jp.variables, g) for g, _ in zeros]
            of_q = [(mpmath_function(jp.variables, g), m) for g, m in factors_q]
            a = to_mpf(order, mpmath.mp) if order is not oo else mpmath.inf
            if a == mpmath.inf:
                raise NoClosedFormError("D_∞ of a joint block that neither separates nor is Gaussian")

            def integrand(x, y):
                p, q = fp(x, y), fq(x, y)
                if p == 0 or (q == 0 and a < 1):  # (P^α Q^{1−α} is 0 where Q is, below order 1)
                    return mpmath.mpf(0)
                if q == 0 and jp.discrete:  # (an outcome where Q has no mass and P has: ∞ from order 1 on; a review)
                    raise _Diverges
                if q == 0:  # ∞ where Q vanishes around the node (P has mass where Q has none); a zero of Q on a
                    # curve (6(x − y)² at a node on x = y) is only a singularity of the integrand: decided below
                    if _vanishes_around(fq, inside_p, x, y):
                        raise _Diverges
                    # On the zero set of a factor g^m of Q's, with P > 0 there: Q ≤ C·dist^m near it, so the integrand
                    # is at least c·dist^{−m(α−1)}, not integrable once m(α − 1) ≥ 1, on a curve (a tube) as at an
                    # isolated zero (where |g| ≤ C·r²).  Nested quadrature spent its whole minute there (a review).
                    if a > 1 and any(g(x, y) == 0 and m * (a - 1) >= 1 for g, m in of_q):
                        raise _Diverges
                    if not any(g(x, y) == 0 for g in split_at):  # (on a curve split at: a node next to an end of
                        null_zeros.append((x, y))                 # its piece, where the quadrature's weight is tiny)
                    return mpmath.mpf(0)
                return p * mpmath.log(p / q) if a == 1 else p**a * q ** (1 - a)

            null_zeros: list = []

            try:  # (∞ said at once: mpmath's sums and quadratures went on for 10 s with infinite terms)
                if jp.discrete:
                    ranges = [[to_mpf(s.inf, mpmath.mp), to_mpf(s.sup, mpmath.mp)] for s in jp.support]  # (no .end)
                    value = mpmath.nsum(lambda j, k: integrand(int(j), int(k)), *ranges)
                else:  # split where either density is not smooth (their sum has every kink of both) or vanishes
                    edges = sum(sp.Abs(v - end) for v, own, other in zip(jp.variables, jp.support, jq.support)
                                for end in (other.inf, other.sup) if end.is_finite and own.inf < end < own.sup)
                    value = nested_quad(integrand, jp.pdf + jq.pdf + sum(sp.Abs(g) for g, _ in zeros) + edges,
                                        jp.variables, jp.support)
            except _Diverges:
                return mpmath.inf
            if null_zeros and not mpmath.isinf(value):
                raise ConvergenceError(
                    f"D_{order} of a joint block: Q vanishes where P does not at the quadrature's node "
                    f"{tuple(mpmath.nstr(v, 10) for v in null_zeros[0])}, on a set of measure zero; whether the "
                    "singularity there is integrable is not decided by nested quadrature")
            return value if a == 1 else mpmath.log(value) / (a - 1)

    near = digits_next_to_one(order)  # the log of a moment 1 + (α − 1)·KL
    first, second = at(dps + 10 + near), at(dps + 30 + near)
    value = agreed(first, second, dps)
    if value is None:
        raise ConvergenceError(f"D_{order} of a joint block did not settle: {mpmath.nstr(first, 15)} vs "
                               f"{mpmath.nstr(second, 15)}")
    return value
