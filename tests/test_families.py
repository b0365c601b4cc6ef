"""Independent cross-check of the engine against published closed forms.

Every expected value in this file comes from a closed form written out by hand
from the literature, not from rdpsym:

* Gil, Alajaji & Linder (2013), "Rényi divergence measures for commonly used
  univariate continuous distributions", Information Sciences 249 -- normal,
  exponential, gamma, beta, Laplace;
* van Erven & Harremoës (2014), "Rényi divergence and Kullback-Leibler
  divergence", IEEE Trans. Inf. Theory 60 -- the limits D_1 = KL and
  D_oo = log ess-sup P/Q, additivity (binomial = n x Bernoulli);
* Mironov (2017), "Rényi differential privacy", Table II -- the Laplace
  mechanism (used only as a cross-check of the general Laplace form);
* the standard KL formulas for each family.

The closed forms are evaluated with mpmath at 70 digits; the engine's result
is evaluated with SymPy ``evalf`` at 70 digits (parameters and the order
substituted); the two must agree to 40 significant digits.  Before the
forms are trusted, ``test_reference_forms_against_definition`` re-derives a
sample of them from the definition by mpmath quadrature / summation, so the
file does not rely on the engine to validate its own oracle.

For every closed form the derivation's status must be "proved" or "checked".
Where a divergence is infinite, the engine must return ``oo``.
"""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp

import rdpsym

R = sp.Rational
oo = sp.oo
ALPHA = rdpsym.alpha
WORK_DPS = 70  # working precision of both sides of every comparison
DIGITS = 40  # significant digits that must agree

x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True)


# ---------------------------------------------------------------------------
# Comparison machinery
# ---------------------------------------------------------------------------


def _mp(value) -> mpmath.mpf:
    """An exact SymPy/Python rational (or an mpf, or a SymPy Float) as an mpf."""
    if isinstance(value, mpmath.mpf):
        return value
    if isinstance(value, sp.Float):
        return mpmath.mpf(value._mpf_)
    value = sp.Rational(value)
    return mpmath.mpf(int(value.p)) / int(value.q)


def _is_inf_order(order) -> bool:
    return order is oo or order == oo


def engine_value(result, values: dict | None):
    """The engine's result at ``values`` as an mpmath number (or +inf)."""
    if isinstance(result, (mpmath.mpf, mpmath.mpc)):
        return result
    expr = sp.sympify(result)
    if values:
        expr = expr.subs(values)
    left = expr.free_symbols
    assert not left, f"result still has free symbols {left} after substituting {values}: {expr}"
    if expr == oo:
        return mpmath.inf
    value = sp.N(expr, WORK_DPS)
    if value == oo:
        return mpmath.inf
    assert value.is_finite is not False and not value.has(sp.nan, sp.zoo, -oo), (
        f"engine result evaluates to {value} (from {expr})"
    )
    re_part, im_part = value.as_real_imag()
    re_mp = _mp(sp.Float(re_part, WORK_DPS))
    if im_part == 0:
        return re_mp
    # A real quantity written with complex intermediates (log of a negative
    # number plus i*pi): compared as a complex number, the imaginary part
    # must vanish to the same 40 digits.
    return mpmath.mpc(re_mp, _mp(sp.Float(im_part, WORK_DPS)))


def assert_agree(got, want, what: str) -> None:
    """``got`` (engine) equals ``want`` (reference) to DIGITS significant digits."""
    if want == mpmath.inf:
        assert got == mpmath.inf, f"{what}: expected oo, engine gave {mpmath.nstr(got, 30)}"
        return
    assert got != mpmath.inf and mpmath.isfinite(got), f"{what}: expected {mpmath.nstr(want, 30)}, engine gave {got}"
    tol = mpmath.mpf(10) ** (-DIGITS) * abs(want) if want != 0 else mpmath.mpf(10) ** (-DIGITS - 10)
    err = abs(got - want)
    assert err <= tol, (
        f"{what}: engine {mpmath.nstr(got, 45)} vs reference {mpmath.nstr(want, 45)} "
        f"(|diff| = {mpmath.nstr(err, 5)})"
    )


_DERIVATIONS: dict = {}


def derive(key: str, build, order):
    """``renyi_divergence(*build(), order)``, cached per (key, order); errors re-raised."""
    cache_key = (key, sp.srepr(sp.sympify(order)))
    if cache_key not in _DERIVATIONS:
        P, Q = build()
        try:
            _DERIVATIONS[cache_key] = ("ok", rdpsym.renyi_divergence(P, Q, order))
        except Exception as exc:  # noqa: BLE001 - re-raised below, for every point
            _DERIVATIONS[cache_key] = ("error", exc)
    kind, payload = _DERIVATIONS[cache_key]
    if kind == "error":
        raise payload
    return payload


def check(key, build, order, values, reference, *, allow_numeric=False):
    """Derive D_order for the pair, evaluate at ``values``, compare with ``reference()``.

    ``order`` is what the engine is asked for (ALPHA, a number, 1 or oo);
    when it is ALPHA, ``values`` must contain the order to evaluate at.
    """
    d = derive(key, build, order)
    status = str(d.status)
    if allow_numeric and status == "numeric":
        pass
    else:
        assert status in ("proved", "checked"), f"{key} at order {order}: status {status!r}, result {d.result}"
    with mpmath.workdps(WORK_DPS):
        want = reference()
        got = engine_value(d.result, values)
        assert_agree(got, want, f"{key}, order {order}, values {values}")


def _pid(values: dict) -> str:
    return ",".join(f"{s}={v}" for s, v in values.items())


# ---------------------------------------------------------------------------
# Reference closed forms (mpmath).  Parameters are exact rationals, so the
# convergence conditions are decided exactly; values are computed in mpmath.
# ``a`` is the order: a rational > 0, 1 (KL) or oo.
# ---------------------------------------------------------------------------


def ref_normal(a, m1, s1, m2, s2):
    """N(m1, s1^2) || N(m2, s2^2), s = standard deviation (Gil et al. 2013, Table 2)."""
    M1, S1, M2, S2 = map(_mp, (m1, s1, m2, s2))
    d2 = (M1 - M2) ** 2
    if a == 1:
        return mpmath.log(S2 / S1) + (S1**2 + d2) / (2 * S2**2) - mpmath.mpf(1) / 2
    if _is_inf_order(a):
        # log P/Q is a quadratic in x with leading coefficient 1/(2 s2^2) - 1/(2 s1^2).
        if s1 < s2:
            return mpmath.log(S2 / S1) + d2 / (2 * (S2**2 - S1**2))
        if s1 == s2 and m1 == m2:
            return mpmath.mpf(0)
        return mpmath.inf
    sa2 = a * s2**2 + (1 - a) * s1**2  # exact
    if sa2 <= 0:
        return mpmath.inf
    A, SA2 = _mp(a), _mp(sa2)
    return mpmath.log(S2 / S1) + mpmath.log(S2**2 / SA2) / (2 * (A - 1)) + A * d2 / (2 * SA2)


def ref_exponential(a, l1, l2):
    """Exp(rate l1) || Exp(rate l2) on (0, oo) (Gil et al. 2013)."""
    L1, L2 = _mp(l1), _mp(l2)
    if a == 1:
        return mpmath.log(L1 / L2) + L2 / L1 - 1
    if _is_inf_order(a):
        return mpmath.log(L1 / L2) if l1 >= l2 else mpmath.inf
    la = a * l1 + (1 - a) * l2
    if la <= 0:
        return mpmath.inf
    return mpmath.log(L1 / L2) + mpmath.log(L1 / _mp(la)) / (_mp(a) - 1)


def ref_shifted_exponential(a, l1, l2, s):
    """Exp(l2) shifted to (s, oo)  ||  Exp(l1) on (0, oo), s >= 0."""
    L1, L2, S = map(_mp, (l1, l2, s))
    if a == 1:
        return mpmath.log(L2 / L1) + L1 / L2 - 1 + L1 * S
    if _is_inf_order(a):
        return mpmath.log(L2 / L1) + L1 * S if l2 >= l1 else mpmath.inf
    la = a * l2 + (1 - a) * l1
    if la <= 0:
        return mpmath.inf
    return mpmath.log(L2 / L1) + mpmath.log(L2 / _mp(la)) / (_mp(a) - 1) + L1 * S


def ref_laplace(a, m1, b1, m2, b2):
    """Laplace(m1, b1) || Laplace(m2, b2), pdf exp(-|x-m|/b)/(2b).

    With D = |m1 - m2|, A = a/b1, B = (1-a)/b2 the integral of P^a Q^(1-a) is
    (2b1)^-a (2b2)^(a-1) [ (e^{-BD} + e^{-AD})/(A+B) + (e^{-AD} - e^{-BD})/(B-A) ]
    for A + B > 0 (three pieces: x < 0, 0 < x < D, x > D), else it diverges.
    """
    M1, B1, M2, B2 = map(_mp, (m1, b1, m2, b2))
    D = abs(M1 - M2)
    if a == 1:
        return mpmath.log(B2 / B1) + D / B2 + (B1 / B2) * mpmath.exp(-D / B1) - 1
    if _is_inf_order(a):
        return mpmath.log(B2 / B1) + D / B2 if b1 <= b2 else mpmath.inf
    if a / b1 + (1 - a) / b2 <= 0:
        return mpmath.inf
    Aa = _mp(a)
    A, B = Aa / B1, (1 - Aa) / B2
    integral = (mpmath.exp(-B * D) + mpmath.exp(-A * D)) / (A + B)
    if a / b1 == (1 - a) / b2:
        integral += D * mpmath.exp(-A * D)
    else:
        integral += (mpmath.exp(-A * D) - mpmath.exp(-B * D)) / (B - A)
    return (mpmath.log(integral) - Aa * mpmath.log(2 * B1) - (1 - Aa) * mpmath.log(2 * B2)) / (Aa - 1)


def ref_laplace_mechanism(a, delta, b):
    """Mironov 2017, Table II: Laplace(0, b) || Laplace(delta, b), a > 1."""
    A, D, B = map(_mp, (a, delta, b))
    return mpmath.log(A / (2 * A - 1) * mpmath.exp((A - 1) * D / B) + (A - 1) / (2 * A - 1) * mpmath.exp(-A * D / B)) / (A - 1)


def ref_gamma(a, shape, r1, r2):
    """Gamma(shape, rate r1) || Gamma(shape, rate r2) (Gil et al. 2013, same shape)."""
    K, R1, R2 = map(_mp, (shape, r1, r2))
    if a == 1:
        return K * (mpmath.log(R1 / R2) + R2 / R1 - 1)
    if _is_inf_order(a):
        return K * mpmath.log(R1 / R2) if r1 >= r2 else mpmath.inf
    ra = a * r1 + (1 - a) * r2
    if ra <= 0:
        return mpmath.inf
    return K * mpmath.log(R1 / R2) + K * mpmath.log(R1 / _mp(ra)) / (_mp(a) - 1)


def ref_beta(a, a1, b1, a2, b2):
    """Beta(a1, b1) || Beta(a2, b2) (Gil et al. 2013): B(a_a, b_a) with a_a = a a1 + (1-a) a2."""
    A1, B1, A2, B2 = map(_mp, (a1, b1, a2, b2))

    def lbeta(p, q):
        return mpmath.log(mpmath.beta(p, q))

    if a == 1:
        return (
            lbeta(A2, B2) - lbeta(A1, B1)
            + (A1 - A2) * mpmath.digamma(A1) + (B1 - B2) * mpmath.digamma(B1)
            + (A2 - A1 + B2 - B1) * mpmath.digamma(A1 + B1)
        )
    aa, ba = a * a1 + (1 - a) * a2, a * b1 + (1 - a) * b2
    if aa <= 0 or ba <= 0:
        return mpmath.inf
    A = _mp(a)
    return lbeta(_mp(aa), _mp(ba)) / (A - 1) - A * lbeta(A1, B1) / (A - 1) + lbeta(A2, B2)


def ref_poisson(a, l1, l2):
    """Poisson(l1) || Poisson(l2) (van Erven & Harremoës 2014 / Gil et al.)."""
    L1, L2 = _mp(l1), _mp(l2)
    if a == 1:
        return L1 * mpmath.log(L1 / L2) + L2 - L1
    if _is_inf_order(a):
        # P/Q = (l1/l2)^k e^{l2-l1}: bounded iff l1 <= l2, maximal at k = 0.
        return L2 - L1 if l1 <= l2 else mpmath.inf
    A = _mp(a)
    return (L1**A * L2 ** (1 - A) - A * L1 - (1 - A) * L2) / (A - 1)


def ref_geometric(a, p1, p2):
    """Geometric pmf p (1-p)^k, k = 0, 1, ... (p may be any real in (0, 1))."""
    P1, P2 = _mp(p1), _mp(p2)
    if a == 1:
        return mpmath.log(P1 / P2) + (1 - P1) / P1 * mpmath.log((1 - P1) / (1 - P2))
    if _is_inf_order(a):
        return mpmath.log(P1 / P2) if P1 >= P2 else mpmath.inf
    A = _mp(a)
    r = (1 - P1) ** A * (1 - P2) ** (1 - A)
    if r >= 1:
        return mpmath.inf
    return mpmath.log(P1**A * P2 ** (1 - A) / (1 - r)) / (A - 1)


def ref_geometric_theta(a, t1, t2):
    """Geometric with 1 - p = e^{-theta}: the series ratio is exp(-(a t1 + (1-a) t2)),
    so the exact convergence condition is a t1 + (1-a) t2 > 0."""
    T1, T2 = _mp(t1), _mp(t2)
    P1, P2 = -mpmath.expm1(-T1), -mpmath.expm1(-T2)
    if a == 1:
        return mpmath.log(P1 / P2) + (1 - P1) / P1 * (T2 - T1)
    if _is_inf_order(a):
        return mpmath.log(P1 / P2) if t1 >= t2 else mpmath.inf
    if a * t1 + (1 - a) * t2 <= 0:
        return mpmath.inf
    A = _mp(a)
    return (A * mpmath.log(P1) + (1 - A) * mpmath.log(P2) - mpmath.log(-mpmath.expm1(-(A * T1 + (1 - A) * T2)))) / (A - 1)


def ref_discrete_laplace(a, eps):
    """pmf ∝ exp(-eps|k|) on Z  ||  the same shifted by 1."""
    E = _mp(eps)
    if a == 1:
        return E * mpmath.tanh(E / 2)
    if _is_inf_order(a):
        return E
    A = _mp(a)
    return mpmath.log((mpmath.exp((A - 1) * E) + mpmath.exp(-A * E)) / (1 + mpmath.exp(-E))) / (A - 1)


def ref_categorical(a, p, q):
    """Finite distributions given as aligned lists of exact probabilities."""
    pairs = [(_mp(pi), _mp(qi)) for pi, qi in zip(p, q) if pi != 0]
    if any(qi == 0 for _, qi in pairs):
        return mpmath.inf
    if a == 1:
        return mpmath.fsum(pi * mpmath.log(pi / qi) for pi, qi in pairs)
    if _is_inf_order(a):
        return max(mpmath.log(pi / qi) for pi, qi in pairs)
    A = _mp(a)
    return mpmath.log(mpmath.fsum(pi**A * qi ** (1 - A) for pi, qi in pairs)) / (A - 1)


def ref_binomial(a, n, p, q):
    """Binomial(n, p) || Binomial(n, q) = n x Bernoulli (additivity, van Erven & Harremoës)."""
    return _mp(n) * ref_categorical(a, [p, 1 - p], [q, 1 - q])


# ---------------------------------------------------------------------------
# Densities
# ---------------------------------------------------------------------------


def normal(m, s):
    return rdpsym.Continuous(sp.exp(-((x - m) ** 2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi)), x)


def exponential(lam, shift=0):
    return rdpsym.Continuous(lam * sp.exp(-lam * (x - shift)), x, support=sp.Interval(shift, oo))


def laplace(m, b):
    return rdpsym.Continuous(sp.exp(-sp.Abs(x - m) / b) / (2 * b), x)


def gamma_rate(shape, rate):
    return rdpsym.Continuous(
        rate**shape * x ** (shape - 1) * sp.exp(-rate * x) / sp.gamma(shape), x, support=sp.Interval(0, oo)
    )


def beta_dist(p, q):
    return rdpsym.Continuous(x ** (p - 1) * (1 - x) ** (q - 1) / sp.beta(p, q), x, support=sp.Interval(0, 1))


def uniform(lo, hi):
    return rdpsym.Continuous(1 / (sp.sympify(hi) - lo), x, support=sp.Interval(lo, hi))


def poisson(lam):
    return rdpsym.Discrete(sp.exp(-lam) * lam**k / sp.factorial(k), k, support=sp.Range(0, oo))


def geometric(p):
    return rdpsym.Discrete(p * (1 - p) ** k, k, support=sp.Range(0, oo))


def geometric_theta(theta):
    """Geometric with success probability 1 - e^{-theta}: a symbolic p in (0, 1)."""
    return rdpsym.Discrete((1 - sp.exp(-theta)) * sp.exp(-theta * k), k, support=sp.Range(0, oo))


def discrete_laplace(eps, centre):
    norm = (1 - sp.exp(-eps)) / (1 + sp.exp(-eps))
    return rdpsym.Discrete(norm * sp.exp(-eps * sp.Abs(k - centre)), k, support=sp.Range(-oo, oo))


def binomial(n, p):
    return rdpsym.Discrete(sp.binomial(n, k) * p**k * (1 - p) ** (n - k), k, support=sp.Range(0, n + 1))


# Symbols of the symbolic-parameter families.
mu1, mu2 = sp.symbols("mu1 mu2", real=True)
sigma1, sigma2 = sp.symbols("sigma1 sigma2", positive=True)
lam1, lam2 = sp.symbols("lambda1 lambda2", positive=True)
b_, delta_, b1_, b2_ = sp.symbols("b delta b1 b2", positive=True)
r1_, r2_ = sp.symbols("r1 r2", positive=True)
theta1, theta2 = sp.symbols("theta1 theta2", positive=True)
eps_ = sp.Symbol("epsilon", positive=True)
shift_ = sp.Symbol("s", positive=True)

_RNG = random.Random(20240617)  # fixed seed: the "random" points are the same every run


def _rand_rat(lo: int, hi: int, den: int) -> sp.Rational:
    return R(_RNG.randint(lo * den, hi * den), den)


def _params(cases):
    """pytest params with readable ids from (order, values) pairs."""
    return [pytest.param(order, values, id=f"order={order}-{_pid(values)}") for order, values in cases]


# ---------------------------------------------------------------------------
# 1. Normal
# ---------------------------------------------------------------------------


def _normal_pair():
    return normal(mu1, sigma1), normal(mu2, sigma2)


def _npt(m1, s1, m2, s2):
    return {mu1: R(m1), sigma1: R(s1), mu2: R(m2), sigma2: R(s2)}


NORMAL_POINTS = [
    (_npt(0, 1, 1, 1), [R(3, 2), 2, R(7, 2), 11]),
    (_npt(R(1, 3), R(3, 2), R(-1, 2), 2), [R(3, 2), 2, R(7, 2), 11]),
    # sigma_alpha^2 = 4 - 3 alpha: finite at 5/4, zero at 4/3 (-> oo), negative at 2.
    (_npt(1, 2, 0, 1), [R(5, 4), R(4, 3), 2]),
    # sigma1 > sigma2: sigma_alpha^2 = 9/16 - 5 alpha/16: finite at 3/2, zero at 9/5, negative at 3.
    (_npt(-2, R(3, 4), R(1, 2), R(1, 2)), [R(3, 2), R(9, 5), 3]),
    # identical distributions: D = 0 at every order.
    (_npt(R(1, 2), 1, R(1, 2), 1), [R(3, 2), 5]),
]
NORMAL_POINTS += [
    (_npt(_rand_rat(-3, 3, 7), _rand_rat(1, 3, 4), _rand_rat(-3, 3, 7), _rand_rat(1, 3, 4)), [R(3, 2), 2, 3])
    for _ in range(3)
]
NORMAL_ALPHA_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in NORMAL_POINTS for a in orders]
NORMAL_LIMIT_POINTS = [pt for pt, _ in NORMAL_POINTS] + [_npt(0, 1, 2, 1)]  # last: equal variances, D_oo = oo
NORMAL_LIMIT_CASES = [(o, pt) for o in (1, oo) for pt in NORMAL_LIMIT_POINTS]


def _ref_normal_at(order, values):
    a = values.get(ALPHA, order)
    return lambda: ref_normal(a, values[mu1], values[sigma1], values[mu2], values[sigma2])


@pytest.mark.parametrize("order, values", _params(NORMAL_ALPHA_CASES + NORMAL_LIMIT_CASES))
def test_normal_symbolic_parameters(order, values):
    check("normal-symbolic", _normal_pair, order, values, _ref_normal_at(order, values))


NORMAL_NUMERIC = [
    ((0, 1, R(1, 2), 2), [R(3, 2), 5, 1, oo]),
    ((R(1, 3), R(5, 4), -1, R(3, 2)), [3, 1, oo]),
    # sigma1 = 2 > sigma2 = 1: finite only for alpha < 4/3.
    ((1, 2, 0, 1), [R(5, 4), R(4, 3), R(3, 2), 2, 1, oo]),
    # equal variances, different means: finite for every finite order, D_oo = oo.
    ((R(1, 3), 1, -1, 1), [2, 1, oo]),
]


@pytest.mark.parametrize(
    "params, order",
    [pytest.param(p, o, id=f"{p}-order={o}") for p, orders in NORMAL_NUMERIC for o in orders],
)
def test_normal_numeric_parameters(params, order):
    m1, s1, m2, s2 = map(sp.sympify, params)
    check(f"normal-{params}", lambda: (normal(m1, s1), normal(m2, s2)), order, {}, lambda: ref_normal(order, m1, s1, m2, s2))


# ---------------------------------------------------------------------------
# 2. Exponential
# ---------------------------------------------------------------------------


def _ept(l1, l2):
    return {lam1: R(l1), lam2: R(l2)}


EXP_POINTS = [
    # alpha l1 + (1 - alpha) l2 = 2 - alpha: finite at 3/2, zero at 2, negative at 3.
    (_ept(1, 2), [R(3, 2), 2, 3]),
    (_ept(3, R(1, 2)), [R(3, 2), 2, 5]),
    (_ept(R(5, 2), R(7, 3)), [R(3, 2), 20]),
    (_ept(R(2, 7), R(9, 7)), [R(11, 10), R(6, 5), R(13, 10)]),  # finite only for alpha < 9/7
]
EXP_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in EXP_POINTS for a in orders]
EXP_CASES += [(o, pt) for o in (1, oo) for pt, _ in EXP_POINTS]


@pytest.mark.parametrize("order, values", _params(EXP_CASES))
def test_exponential_symbolic_parameters(order, values):
    a = values.get(ALPHA, order)
    check(
        "exponential-symbolic",
        lambda: (exponential(lam1), exponential(lam2)),
        order,
        values,
        lambda: ref_exponential(a, values[lam1], values[lam2]),
    )


@pytest.mark.parametrize(
    "params, order",
    [pytest.param(p, o, id=f"{p}-order={o}") for p in [(1, 2), (3, R(1, 2))] for o in [R(3, 2), 2, 3, 1, oo]],
)
def test_exponential_numeric_parameters(params, order):
    l1, l2 = map(sp.sympify, params)
    check(f"exp-{params}", lambda: (exponential(l1), exponential(l2)), order, {}, lambda: ref_exponential(order, l1, l2))


# ---------------------------------------------------------------------------
# 3. Laplace, gamma, beta
# ---------------------------------------------------------------------------

LAPLACE_NUMERIC = [
    (0, 1, 1, 1),
    (0, 1, R(3, 2), 2),
    (R(1, 2), R(3, 2), -1, R(5, 4)),
    (1, 2, 0, 1),  # b1 > b2: finite only for alpha < 2
]


@pytest.mark.parametrize(
    "params, order, at",
    [
        pytest.param(p, o, at, id=f"{p}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for p in LAPLACE_NUMERIC
        for o, at in [(ALPHA, R(3, 2)), (ALPHA, 2), (ALPHA, 3), (2, None), (1, None), (oo, None)]
    ],
)
def test_laplace_numeric_parameters(params, order, at):
    m1, b1, m2, b2 = map(sp.sympify, params)
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(
        f"laplace-{params}",
        lambda: (laplace(m1, b1), laplace(m2, b2)),
        order,
        values,
        lambda: ref_laplace(a, m1, b1, m2, b2),
    )


LAPLACE_MECH_POINTS = [{b_: R(1), delta_: R(1)}, {b_: R(3, 2), delta_: R(1, 3)}, {b_: R(1, 2), delta_: R(2)}]
LAPLACE_MECH_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt in LAPLACE_MECH_POINTS for a in (R(3, 2), 2, 5)]
LAPLACE_MECH_CASES += [(o, pt) for o in (1, oo) for pt in LAPLACE_MECH_POINTS]


@pytest.mark.parametrize("order, values", _params(LAPLACE_MECH_CASES))
def test_laplace_mechanism_symbolic(order, values):
    """Laplace(0, b) || Laplace(delta, b), b and delta symbols."""
    a = values.get(ALPHA, order)
    b, dl = values[b_], values[delta_]

    def reference():
        general = ref_laplace(a, 0, b, dl, b)
        if a != 1 and not _is_inf_order(a):
            # Two independent routes to the same number: general form vs Mironov's table.
            assert abs(general - ref_laplace_mechanism(a, dl, b)) <= mpmath.mpf(10) ** -60 * abs(general)
        return general

    check("laplace-mechanism", lambda: (laplace(0, b_), laplace(delta_, b_)), order, values, reference)


LAPLACE_SCALE_POINTS = [
    ({b1_: R(1), b2_: R(2)}, [R(3, 2), 5]),
    # alpha/b1 + (1 - alpha)/b2 = 2/3 - alpha/6: finite at 3/2, zero at 4 (-> oo), negative at 5.
    ({b1_: R(2), b2_: R(3, 2)}, [R(3, 2), 4, 5]),
]
LAPLACE_SCALE_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in LAPLACE_SCALE_POINTS for a in orders]
LAPLACE_SCALE_CASES += [(o, pt) for o in (1, oo) for pt, _ in LAPLACE_SCALE_POINTS]


@pytest.mark.parametrize("order, values", _params(LAPLACE_SCALE_CASES))
def test_laplace_scales_symbolic(order, values):
    """Laplace(0, b1) || Laplace(0, b2), b1 and b2 symbols."""
    a = values.get(ALPHA, order)
    check(
        "laplace-scales",
        lambda: (laplace(0, b1_), laplace(0, b2_)),
        order,
        values,
        lambda: ref_laplace(a, 0, values[b1_], 0, values[b2_]),
    )


GAMMA_POINTS = [
    ({r1_: R(1), r2_: R(2)}, [R(3, 2), 2, 3]),  # alpha r1 + (1-alpha) r2 = 2 - alpha
    ({r1_: R(2), r2_: R(3, 2)}, [R(3, 2), 3, 9]),
]
GAMMA_CASES = [
    (shape, ALPHA, {**pt, ALPHA: R(a)}) for shape in (3, R(5, 2)) for pt, orders in GAMMA_POINTS for a in orders
]
GAMMA_CASES += [(shape, o, pt) for shape in (3, R(5, 2)) for o in (1, oo) for pt, _ in GAMMA_POINTS]


@pytest.mark.parametrize(
    "shape, order, values",
    [pytest.param(s, o, v, id=f"shape={s}-order={o}-{_pid(v)}") for s, o, v in GAMMA_CASES],
)
def test_gamma_same_shape(shape, order, values):
    shape = sp.sympify(shape)
    a = values.get(ALPHA, order)
    check(
        f"gamma-shape-{shape}",
        lambda: (gamma_rate(shape, r1_), gamma_rate(shape, r2_)),
        order,
        values,
        lambda: ref_gamma(a, shape, values[r1_], values[r2_]),
    )


BETA_CASES = [
    # a_alpha = 3 - alpha: finite for alpha < 3
    ((2, 3, 3, 2), [(R(3, 2), None), (2, None), (3, None), (1, None), (ALPHA, R(5, 2)), (ALPHA, 2), (ALPHA, 4)]),
    ((2, 3, 1, 1), [(R(3, 2), None), (2, None), (1, None), (ALPHA, 7)]),
    ((R(5, 2), R(3, 2), 2, 2), [(2, None), (3, None), (1, None)]),
]


@pytest.mark.parametrize(
    "params, order, at",
    [
        pytest.param(p, o, at, id=f"{p}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for p, orders in BETA_CASES
        for o, at in orders
    ],
)
def test_beta(params, order, at):
    """Closed form if the engine has one; otherwise status "numeric" with the right value."""
    a1, b1, a2, b2 = map(sp.sympify, params)
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(
        f"beta-{params}",
        lambda: (beta_dist(a1, b1), beta_dist(a2, b2)),
        order,
        values,
        lambda: ref_beta(a, a1, b1, a2, b2),
        allow_numeric=True,
    )


# ---------------------------------------------------------------------------
# 4. Discrete families
# ---------------------------------------------------------------------------

POISSON_POINTS = [
    ({lam1: R(1), lam2: R(2)}, [R(3, 2), 2, R(7, 2)]),
    ({lam1: R(3), lam2: R(1, 2)}, [R(3, 2), 4]),
    ({lam1: R(5, 2), lam2: R(7, 3)}, [2, 10]),
]
POISSON_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in POISSON_POINTS for a in orders]
POISSON_CASES += [(o, pt) for o in (1, oo) for pt, _ in POISSON_POINTS]


@pytest.mark.parametrize("order, values", _params(POISSON_CASES))
def test_poisson_symbolic_parameters(order, values):
    a = values.get(ALPHA, order)
    check(
        "poisson-symbolic",
        lambda: (poisson(lam1), poisson(lam2)),
        order,
        values,
        lambda: ref_poisson(a, values[lam1], values[lam2]),
    )


@pytest.mark.parametrize(
    "params, order",
    [pytest.param(p, o, id=f"{p}-order={o}") for p, orders in [((1, 2), [R(3, 2), 3, 1, oo]), ((R(5, 2), R(7, 3)), [2, oo])]
     for o in orders],
)
def test_poisson_numeric_parameters(params, order):
    l1, l2 = map(sp.sympify, params)
    check(f"poisson-{params}", lambda: (poisson(l1), poisson(l2)), order, {}, lambda: ref_poisson(order, l1, l2))


GEOMETRIC_NUMERIC = [
    ((R(1, 2), R(1, 3)), [R(3, 2), 2, 1, oo], [R(3, 2), 3]),
    # (4/5)^alpha 4^(alpha-1) < 1 only for alpha < log 4 / log 5 = 1.19...: oo at 2 and 6/5.
    ((R(1, 5), R(3, 4)), [R(11, 10), R(6, 5), 2, 1, oo], [R(11, 10), 2]),
    ((R(2, 3), R(1, 4)), [R(3, 2), 4, 1, oo], [2, 7]),
]


@pytest.mark.parametrize(
    "params, order, at",
    [
        pytest.param(p, o, at, id=f"{p}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for p, orders, ats in GEOMETRIC_NUMERIC
        for o, at in [(o, None) for o in orders] + [(ALPHA, at) for at in ats]
    ],
)
def test_geometric_numeric_parameters(params, order, at):
    p1, p2 = params
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(f"geometric-{params}", lambda: (geometric(p1), geometric(p2)), order, values, lambda: ref_geometric(a, p1, p2))


GEOM_THETA_POINTS = [
    ({theta1: R(1), theta2: R(2)}, [R(3, 2), 2, 6]),  # q1 = e^-1 > q2 = e^-2
    ({theta1: R(1, 2), theta2: R(3, 2)}, [R(6, 5), R(3, 2), 3]),  # (1-p1)^a (1-p2)^(1-a) = e^{a-3/2}: oo for a >= 3/2
    ({theta1: R(3), theta2: R(1, 3)}, [2, 5]),
]
GEOM_THETA_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in GEOM_THETA_POINTS for a in orders]
GEOM_THETA_CASES += [(o, pt) for o in (1, oo) for pt, _ in GEOM_THETA_POINTS]


@pytest.mark.parametrize("order, values", _params(GEOM_THETA_CASES))
def test_geometric_symbolic_parameters(order, values):
    """Geometric with p = 1 - e^{-theta}, theta a positive symbol."""
    a = values.get(ALPHA, order)

    def reference():
        return ref_geometric_theta(a, values[theta1], values[theta2])

    check("geometric-theta", lambda: (geometric_theta(theta1), geometric_theta(theta2)), order, values, reference)


DLAP_CASES = [(ALPHA, {eps_: R(e), ALPHA: R(a)}) for e in (1, R(1, 3), R(5, 2)) for a in (R(3, 2), 2, 5)]
DLAP_CASES += [(o, {eps_: R(e)}) for o in (1, oo) for e in (1, R(1, 3), R(5, 2))]


@pytest.mark.parametrize("order, values", _params(DLAP_CASES))
def test_discrete_laplace_shift_one(order, values):
    """Two-sided geometric pmf ∝ e^{-eps|k|} vs its shift by 1 (symbolic eps)."""
    a = values.get(ALPHA, order)
    check(
        "discrete-laplace",
        lambda: (discrete_laplace(eps_, 0), discrete_laplace(eps_, 1)),
        order,
        values,
        lambda: ref_discrete_laplace(a, values[eps_]),
    )


@pytest.mark.parametrize("order", [R(3, 2), 2, 1, oo])
def test_discrete_laplace_numeric_eps(order):
    check(
        "discrete-laplace-eps=3/4",
        lambda: (discrete_laplace(R(3, 4), 0), discrete_laplace(R(3, 4), 1)),
        order,
        {},
        lambda: ref_discrete_laplace(order, R(3, 4)),
    )


TABLES = {
    "bernoulli-2/3-vs-1/2": ({0: R(1, 3), 1: R(2, 3)}, {0: R(1, 2), 1: R(1, 2)}),
    "bernoulli-9/10-vs-1/4": ({0: R(1, 10), 1: R(9, 10)}, {0: R(3, 4), 1: R(1, 4)}),
    "categorical-3": ({"a": R(1, 2), "b": R(1, 3), "c": R(1, 6)}, {"a": R(1, 5), "b": R(1, 5), "c": R(3, 5)}),
    # P puts no mass where Q does: finite one way ...
    "categorical-P-zero": ({0: R(1, 2), 1: R(1, 2), 2: 0}, {0: R(1, 4), 1: R(1, 4), 2: R(1, 2)}),
    # ... and infinite the other way (Q(2) = 0 < P(2)).
    "categorical-Q-zero": ({0: R(1, 4), 1: R(1, 4), 2: R(1, 2)}, {0: R(1, 2), 1: R(1, 2), 2: 0}),
}


@pytest.mark.parametrize(
    "name, order, at",
    [
        pytest.param(n, o, at, id=f"{n}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for n in TABLES
        for o, at in [(ALPHA, R(3, 2)), (ALPHA, 7), (R(3, 2), None), (2, None), (1, None), (oo, None)]
    ],
)
def test_finite_tables(name, order, at):
    tp, tq = TABLES[name]
    keys = list(tp)
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(
        f"table-{name}",
        lambda: (rdpsym.Discrete(dict(tp)), rdpsym.Discrete(dict(tq))),
        order,
        values,
        lambda: ref_categorical(a, [tp[key] for key in keys], [tq[key] for key in keys]),
    )


@pytest.mark.parametrize(
    "params, order, at",
    [
        pytest.param(p, o, at, id=f"{p}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for p in [(5, R(1, 3), R(1, 2)), (7, R(9, 10), R(1, 4))]
        for o, at in [(ALPHA, R(3, 2)), (ALPHA, 4), (2, None), (1, None), (oo, None)]
    ],
)
def test_binomial_numeric_n(params, order, at):
    n, p, q = params
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(f"binomial-{params}", lambda: (binomial(n, p), binomial(n, q)), order, values, lambda: ref_binomial(a, n, p, q))


# ---------------------------------------------------------------------------
# 5. Supports that differ
# ---------------------------------------------------------------------------

SUPPORT_ORDERS = [(ALPHA, R(3, 2)), (ALPHA, 4), (2, None), (1, None), (oo, None)]


@pytest.mark.parametrize(
    "direction, order, at",
    [
        pytest.param(dn, o, at, id=f"{dn}-order={o}" + (f"-alpha={at}" if at is not None else ""))
        for dn in ("U(0,1)||U(0,2)", "U(0,2)||U(0,1)", "U(0,1)||U(1/2,3/2)", "Exp(1)||Laplace(0,1)", "Laplace(0,1)||Exp(1)")
        for o, at in SUPPORT_ORDERS
    ],
)
def test_nested_and_disjoint_supports(direction, order, at):
    """P's support inside Q's: finite; otherwise oo (van Erven & Harremoës 2014, Thm 24 / def.)."""
    pairs = {
        # log(2) at every order: P/Q = 2 on P's support.
        "U(0,1)||U(0,2)": (lambda: (uniform(0, 1), uniform(0, 2)), lambda a: mpmath.log(2)),
        "U(0,2)||U(0,1)": (lambda: (uniform(0, 2), uniform(0, 1)), lambda a: mpmath.inf),
        "U(0,1)||U(1/2,3/2)": (lambda: (uniform(0, 1), uniform(R(1, 2), R(3, 2))), lambda a: mpmath.inf),
        # int_0^oo e^{-a x} (e^{-x}/2)^{1-a} dx = 2^{a-1}: log 2 at every order.
        "Exp(1)||Laplace(0,1)": (lambda: (exponential(1), laplace(0, 1)), lambda a: mpmath.log(2)),
        "Laplace(0,1)||Exp(1)": (lambda: (laplace(0, 1), exponential(1)), lambda a: mpmath.inf),
    }
    build, ref = pairs[direction]
    a = at if at is not None else order
    values = {ALPHA: at} if at is not None else {}
    check(f"support-{direction}", build, order, values, lambda: ref(a))


SHIFT_POINTS = [
    ({lam1: R(1), lam2: R(2), shift_: R(1)}, [R(3, 2), 4]),
    # alpha l2 + (1-alpha) l1 = 3 - 2 alpha: finite only for alpha < 3/2
    ({lam1: R(3), lam2: R(1), shift_: R(1, 2)}, [R(5, 4), R(3, 2), 2]),
]
SHIFT_CASES = [(ALPHA, {**pt, ALPHA: R(a)}) for pt, orders in SHIFT_POINTS for a in orders]
SHIFT_CASES += [(o, pt) for o in (1, oo) for pt, _ in SHIFT_POINTS]


@pytest.mark.parametrize("order, values", _params(SHIFT_CASES))
def test_shifted_exponential_inside(order, values):
    """Exp(l2) shifted by s || Exp(l1): Q's support contains P's, finite under a rate condition."""
    a = values.get(ALPHA, order)
    check(
        "shifted-exp-inside",
        lambda: (exponential(lam2, shift_), exponential(lam1)),
        order,
        values,
        lambda: ref_shifted_exponential(a, values[lam1], values[lam2], values[shift_]),
    )


@pytest.mark.parametrize("order", [ALPHA, R(3, 2), 2, 1, oo])
def test_shifted_exponential_outside(order):
    """Exp(l1) || Exp(l2) shifted by s > 0: P has mass on (0, s) where Q = 0, so D = oo for α ≥ 1 (below 1
    the divergence is finite: P^α Q^{1−α} vanishes where Q does)."""
    d = derive("shifted-exp-outside", lambda: (exponential(lam1), exponential(lam2, shift_)), order)
    assert str(d.status) in ("proved", "checked")
    if order is ALPHA:
        assert d.result.subs(ALPHA, 2) == oo and d.result.subs(ALPHA, R(3, 2)) == oo
        below = d.result.subs({ALPHA: R(1, 2), lam1: 1, lam2: 2, shift_: 1})
        # −2·log ∫_1^∞ e^{−x/2}·√2·e^{−(x−1)} dx = −2·log(√2·e^{−1/2}/(3/2))
        assert abs(sp.N(below - (-2 * sp.log(sp.sqrt(2) * sp.exp(-R(1, 2)) / R(3, 2))), 30)) < 1e-25
    else:
        assert d.result == oo, f"expected oo, got {d.result}"


# ---------------------------------------------------------------------------
# renyi_divergence_mp: the definition, evaluated numerically by the engine
# ---------------------------------------------------------------------------

MP_CASES = {
    "normal-o3": (_normal_pair, 3, _npt(R(1, 3), R(3, 2), R(-1, 2), 2),
                  lambda: ref_normal(3, R(1, 3), R(3, 2), R(-1, 2), 2)),
    "normal-kl": (_normal_pair, 1, _npt(R(1, 3), R(3, 2), R(-1, 2), 2),
                  lambda: ref_normal(1, R(1, 3), R(3, 2), R(-1, 2), 2)),
    "normal-inf": (_normal_pair, oo, _npt(R(1, 3), R(3, 2), R(-1, 2), 2),
                   lambda: ref_normal(oo, R(1, 3), R(3, 2), R(-1, 2), 2)),
    "exponential-o5/2": (lambda: (exponential(lam1), exponential(lam2)), R(5, 2), _ept(3, R(1, 2)),
                         lambda: ref_exponential(R(5, 2), 3, R(1, 2))),
    "laplace-o2": (lambda: (laplace(0, 1), laplace(R(3, 2), 2)), 2, {},
                   lambda: ref_laplace(2, 0, 1, R(3, 2), 2)),
    "laplace-inf": (lambda: (laplace(0, 1), laplace(R(3, 2), 2)), oo, {},
                    lambda: ref_laplace(oo, 0, 1, R(3, 2), 2)),
    "poisson-o3": (lambda: (poisson(lam1), poisson(lam2)), 3, {lam1: R(1), lam2: R(2)},
                   lambda: ref_poisson(3, 1, 2)),
    "bernoulli-o3/2": (lambda: (rdpsym.Discrete(TABLES["bernoulli-2/3-vs-1/2"][0]),
                                rdpsym.Discrete(TABLES["bernoulli-2/3-vs-1/2"][1])), R(3, 2), {},
                       lambda: ref_categorical(R(3, 2), [R(1, 3), R(2, 3)], [R(1, 2), R(1, 2)])),
    "discrete-laplace-o2": (lambda: (discrete_laplace(eps_, 0), discrete_laplace(eps_, 1)), 2, {eps_: R(1)},
                            lambda: ref_discrete_laplace(2, 1)),
    "beta-o2": (lambda: (beta_dist(2, 3), beta_dist(1, 1)), 2, {}, lambda: ref_beta(2, 2, 3, 1, 1)),
}


@pytest.mark.parametrize("name", list(MP_CASES))
def test_renyi_divergence_mp_matches_reference(name):
    build, order, values, reference = MP_CASES[name]
    P, Q = build()
    got = rdpsym.renyi_divergence_mp(P, Q, order, dps=50, values=values or None)
    with mpmath.workdps(WORK_DPS):
        assert_agree(got, reference(), f"renyi_divergence_mp {name}")


def test_renyi_divergence_mp_divergent_is_not_finite():
    """Exp(1) || Exp(2) at order 3 diverges: the definition must not yield a finite number."""
    try:
        got = rdpsym.renyi_divergence_mp(exponential(1), exponential(2), 3, dps=30)
    except rdpsym.ConvergenceError:
        return
    assert got == mpmath.inf, f"divergent integral returned {got}"


# ---------------------------------------------------------------------------
# The oracle itself: the reference forms against the definition (no rdpsym).
# ---------------------------------------------------------------------------


def _quad_renyi(p, q, a, points):
    f = (lambda t: p(t) ** a * q(t) ** (1 - a)) if a != 1 else (lambda t: p(t) * (mpmath.log(p(t)) - mpmath.log(q(t))))
    value = mpmath.quad(f, points, maxdegree=10)
    return value if a == 1 else mpmath.log(value) / (a - 1)


def _sum_renyi(p, q, a, ks):
    f = (lambda n: p(n) ** a * q(n) ** (1 - a)) if a != 1 else (lambda n: p(n) * (mpmath.log(p(n)) - mpmath.log(q(n))))
    value = mpmath.nsum(f, ks) if isinstance(ks, tuple) else mpmath.fsum(f(n) for n in ks)
    return value if a == 1 else mpmath.log(value) / (a - 1)


def _oracle_cases():
    """(name, definition, closed form): both thunks are evaluated inside the test's precision."""
    F = mpmath.mpf

    def npdf(m, s):
        return lambda t: mpmath.exp(-((t - m) ** 2) / (2 * s**2)) / (s * mpmath.sqrt(2 * mpmath.pi))

    def lpdf(m, b):
        return lambda t: mpmath.exp(-abs(t - m) / b) / (2 * b)

    def epdf(lam, shift=0):
        return lambda t: lam * mpmath.exp(-lam * (t - shift))

    def gampdf(s, r):
        return lambda t: r**s * t ** (s - 1) * mpmath.exp(-r * t) / mpmath.gamma(s)

    def ppmf(lam):
        return lambda n: mpmath.exp(-lam) * lam**n / mpmath.factorial(n)

    def gpmf(p):
        return lambda n: p * (1 - p) ** n

    def dlpmf(eps, c):  # normalised with tanh(eps/2), not the form used for the engine
        return lambda n: mpmath.tanh(eps / 2) * mpmath.exp(-eps * abs(n - c))

    def bnpmf(n, p):
        return lambda j: mpmath.binomial(n, j) * p**j * (1 - p) ** (n - j)

    def beta_renyi(a, p1, q1, p2, q2):
        # x = u^8 near 0 and 1 - x = u^8 near 1 remove the endpoint singularities.
        A = _mp(a)

        def g(t, one_minus_t):
            dp = t ** (p1 - 1) * one_minus_t ** (q1 - 1) / mpmath.beta(p1, q1)
            dq = t ** (p2 - 1) * one_minus_t ** (q2 - 1) / mpmath.beta(p2, q2)
            return dp**A * dq ** (1 - A)

        m, top = 8, mpmath.mpf(2) ** (-F(1) / 8)
        left = mpmath.quad(lambda u: g(u**m, 1 - u**m) * m * u ** (m - 1), [0, top])
        right = mpmath.quad(lambda u: g(1 - u**m, u**m) * m * u ** (m - 1), [0, top])
        return mpmath.log(left + right) / (A - 1)

    def sup(h, start):
        # the supremum of a smooth concave log-ratio: stationary point by Newton
        t = mpmath.findroot(lambda u: mpmath.diff(h, u), start)
        return h(t)

    cases = []
    for a in (R(3, 2), 3, 1):
        cases += [
            (f"normal-{a}",
             lambda a=a: _quad_renyi(npdf(F(1) / 3, F(3) / 2), npdf(-F(1) / 2, F(2)), _mp(a), [-mpmath.inf, 0, mpmath.inf]),
             lambda a=a: ref_normal(a, R(1, 3), R(3, 2), R(-1, 2), 2)),
            (f"exponential-{a}",
             lambda a=a: _quad_renyi(epdf(F(3)), epdf(F(1) / 2), _mp(a), [0, mpmath.inf]),
             lambda a=a: ref_exponential(a, 3, R(1, 2))),
            (f"laplace-{a}",
             lambda a=a: _quad_renyi(lpdf(F(1) / 2, F(3) / 2), lpdf(F(-1), F(5) / 4), _mp(a), [-mpmath.inf, -1, F(1) / 2, mpmath.inf]),
             lambda a=a: ref_laplace(a, R(1, 2), R(3, 2), -1, R(5, 4))),
            (f"gamma-{a}",
             lambda a=a: _quad_renyi(gampdf(F(5) / 2, F(2)), gampdf(F(5) / 2, F(3) / 2), _mp(a), [0, 1, mpmath.inf]),
             lambda a=a: ref_gamma(a, R(5, 2), 2, R(3, 2))),
            (f"shifted-exponential-{a}",
             lambda a=a: _quad_renyi(epdf(F(1), 1), epdf(F(1) / 2), _mp(a), [1, mpmath.inf]),
             lambda a=a: ref_shifted_exponential(a, R(1, 2), 1, 1)),
            (f"poisson-{a}",
             lambda a=a: _sum_renyi(ppmf(F(1)), ppmf(F(2)), _mp(a), range(200)),
             lambda a=a: ref_poisson(a, 1, 2)),
            (f"geometric-{a}",
             lambda a=a: _sum_renyi(gpmf(F(1) / 2), gpmf(F(1) / 3), _mp(a), (0, mpmath.inf)),
             lambda a=a: ref_geometric(a, R(1, 2), R(1, 3))),
            (f"geometric-theta-{a}",
             lambda a=a: _sum_renyi(gpmf(-mpmath.expm1(-F(3))), gpmf(-mpmath.expm1(-F(1) / 3)), _mp(a), (0, mpmath.inf)),
             lambda a=a: ref_geometric_theta(a, 3, R(1, 3))),
            (f"discrete-laplace-{a}",
             lambda a=a: _sum_renyi(dlpmf(F(1), 0), dlpmf(F(1), 1), _mp(a), (-mpmath.inf, mpmath.inf)),
             lambda a=a: ref_discrete_laplace(a, 1)),
            (f"binomial-{a}",
             lambda a=a: _sum_renyi(bnpmf(7, F(9) / 10), bnpmf(7, F(1) / 4), _mp(a), range(8)),
             lambda a=a: ref_binomial(a, 7, R(9, 10), R(1, 4))),
        ]
    for a in (R(3, 2), 2, 5):
        cases.append((f"laplace-mechanism-{a}", lambda a=a: ref_laplace(a, 0, R(3, 2), R(1, 3), R(3, 2)),
                      lambda a=a: ref_laplace_mechanism(a, R(1, 3), R(3, 2))))
    for a in (R(3, 2), R(5, 2)):
        cases.append((f"beta-{a}", lambda a=a: beta_renyi(a, F(5) / 2, F(3) / 2, F(2), F(2)),
                      lambda a=a: ref_beta(a, R(5, 2), R(3, 2), 2, 2)))
    cases.append(("beta-1", lambda: _quad_renyi(lambda t: 12 * t * (1 - t) ** 2, lambda t: 12 * t**2 * (1 - t), 1, [0, 1]),
                  lambda: ref_beta(1, 2, 3, 3, 2)))
    cases.append(("normal-sigma1>sigma2-5/4",
                  lambda: _quad_renyi(npdf(F(1), F(2)), npdf(F(0), F(1)), F(5) / 4, [-mpmath.inf, 0, 1, mpmath.inf]),
                  lambda: ref_normal(R(5, 4), 1, 2, 0, 1)))
    cases.append(("normal-inf",
                  lambda: sup(lambda t: mpmath.log(npdf(0, 1)(t) / npdf(F(1) / 2, 2)(t)), 0),
                  lambda: ref_normal(oo, 0, 1, R(1, 2), 2)))
    cases.append(("gamma-inf",  # log-ratio decreasing in t: the supremum is the limit at 0
                  lambda: mpmath.log(gampdf(F(3), F(2))(F(10) ** -40) / gampdf(F(3), F(3) / 2)(F(10) ** -40)),
                  lambda: ref_gamma(oo, 3, 2, R(3, 2))))
    return cases


@pytest.mark.parametrize("name, definition, closed", [pytest.param(*c, id=c[0]) for c in _oracle_cases()])
def test_reference_forms_against_definition(name, definition, closed):
    """The oracle's closed forms equal the definition (30-digit quadrature/summation)."""
    with mpmath.workdps(30):
        got = definition()
        want = closed()
        tol = mpmath.mpf(10) ** -20
        assert abs(got - want) <= tol * max(1, abs(want)), f"{name}: definition {got} vs closed form {want}"



def test_a_hypergeometric_pmf_with_a_symbolic_count_is_a_law_and_its_divergence_is_the_numbers():
    """Hypergeometric(N = 10, K, n = 3): binomial(K, k)·binomial(10 − K, 3 − k)/binomial(10, 3) sums to 1 for every K
    (Vandermonde).  SymPy 1.14 holds binomial(10 − K, 3) negative (it says so of binomial(n, k) for every odd k when
    n's sign is unknown): the factor was logged as log(−binomial(…)), and the law refused with a "total" that is
    identically −1 (a review).  D₂ at K = 4 against K = 5 is log Σ_k P(k)²/Q(k), summed here exactly."""
    k = sp.Symbol("k", integer=True)
    K = sp.Symbol("K", integer=True, positive=True)

    def hypergeometric(count):
        return sp.binomial(count, k) * sp.binomial(10 - count, 3 - k) / sp.binomial(10, 3)

    law = lambda count: rdpsym.Discrete(hypergeometric(count), k, support=sp.Range(0, 4))  # noqa: E731
    d = rdpsym.renyi_divergence(law(K), law(K + 1), 2)
    truth = sp.log(sum(hypergeometric(4).subs(k, j) ** 2 / hypergeometric(5).subs(k, j) for j in range(4)))
    with mpmath.workdps(40):
        assert abs(d.evalf({K: 4}, dps=30) - mpmath.mpf(str(sp.N(truth, 40)))) < mpmath.mpf(10) ** -28
