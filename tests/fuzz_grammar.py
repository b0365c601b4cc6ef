"""A differential fuzzer of the engine (Csmith-style): a grammar of pairs of laws, and the oracle glue.

Every generated law carries two descriptions built from the grammar's own knowledge of it:

* the SymPy law handed to rdpsym (:class:`rdpsym.Continuous` / :class:`rdpsym.Discrete`), written the
  way a user writes it: a family's textbook pdf/pmf in ``z = R·(x − loc)/scale`` (R = ±1: reflected),
  divided by the scale and, when truncated, by the mass kept (a SymPy number: erf, lowergamma, a finite
  sum, ...), or a mixture ``w·f1 + (1 − w)·f2``;
* an independent mpmath log-density of the same law: the family formula coded again in mpmath (loggamma,
  log1p, erfc, gammainc, ...), the same affine map done in exact rationals, the truncation's mass from
  the family's CDF or survival function coded in mpmath (or a sum of mpmath terms), the mixture's
  weights.  Nothing is lambdified from rdpsym's or the law's SymPy expression.

The oracle is tests/textbook_oracle.py (plain mpmath, the definition of D_α), fed by :func:`oracle`:

* continuous laws are integrated in a frame t = (x − m)/s of exact rationals (the integration range's
  finite end at t = 0, a finite range mapped onto [0, 1]) -- D_α is invariant under a bijection applied
  to both laws -- so a law with scale 10^-30 or location 10^30 is integrated where mpmath keeps its
  digits, and a density singular at a support end is evaluated from the exact distance to that end;
* α < 1: ∫ P^α Q^{1−α} over the intersection of the supports (∞ only when it is empty);
  α ≥ 1 and ∞: ∞ is witnessed exactly when P's support is not inside Q's (known from the grammar), or
  by the oracle's tail witnesses (``diverges``, ``sup_is_infinite``); otherwise quadrature / summation /
  supremum, settled to the oracle's 40 digits (a second evaluation at other cuts or a finer grid before
  any disagreement is called wrong);
* where the oracle cannot decide (an assertion of the oracle, a value it cannot resolve to 30 digits,
  two evaluations that disagree, a CPU limit) the point is *inconclusive*, never a pass.

:func:`run_case` derives one case with rdpsym, evaluates every answer with a status at points in each
branch of a Piecewise result (and, for a symbolic order, at orders on both sides of 1 and next to each
condition boundary), and compares with the oracle at 30 significant digits.  Used by tests/test_fuzz.py
(CI, with hypothesis: :func:`cases`) and benchmarks/fuzz_engine.py (the long run: :func:`random_case`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

import mpmath
import sympy as sp
import textbook_oracle as tor

import rdpsym

R = sp.Rational
oo = sp.oo
ALPHA = rdpsym.alpha
X = sp.Symbol("x", real=True)
K = sp.Symbol("k", integer=True)

#: significant digits on which rdpsym and the oracle must agree; rdpsym is asked for a few more
DIGITS = 30
ASK_DPS = 36
#: a log-density where the law has no mass (finite, so that 0·∞ never makes a NaN in the oracle's integrands:
#: a·LOG0 + (1−a)·LOG0 = LOG0, and exp of it is 0 to the oracle, below its e^{-10^6} cut)
LOG0 = mpmath.mpf(-(10**9))

ORDERS_BELOW = (R(1, 4), R(1, 2), R(9, 10))
ORDERS_NEAR_ONE = (R(999, 1000), R(1001, 1000))
ORDERS_MODERATE = (R(3, 2), 2, R(5, 2), 4)
ORDERS_LARGE = (50, 1000)
#: every order the grammar draws (the symbolic order is evaluated at orders on both sides of 1)
ORDERS = (2, R(1, 2), 1, oo, ALPHA, *ORDERS_BELOW, *ORDERS_NEAR_ONE, *ORDERS_MODERATE, *ORDERS_LARGE)
#: the orders a symbolic order is evaluated at (at least two below 1 and two above, plus the boundaries)
ALPHA_GRID = (R(1, 4), R(1, 2), R(9, 10), R(999, 1000), R(1001, 1000), R(3, 2), 2, R(5, 2), 4, 50)


def mpq(value) -> mpmath.mpf:
    """An exact number (Rational, Integer, int, ±oo) as an mpf at the current precision."""
    if value is oo or value == oo:
        return mpmath.inf
    if value is -oo or value == -oo:
        return -mpmath.inf
    value = sp.Rational(value)
    return mpmath.mpf(int(value.p)) / int(value.q)


def _exact(value, point: dict):
    """A parameter (Rational or positive Symbol) at a point {symbol: Rational}."""
    if isinstance(value, sp.Symbol):
        return point.get(value, value)  # a range's ends never depend on a symbolic parameter
    return value


def _show(value) -> str:
    if isinstance(value, sp.Symbol):
        return value.name
    if value in (oo, -oo):
        return "oo" if value == oo else "-oo"
    v = sp.Rational(value)
    if v.q == 1 and abs(v.p) >= 10**6:
        e = len(str(abs(v.p))) - 1
        if abs(v.p) == 10**e:
            return ("-" if v.p < 0 else "") + f"10**{e}"
    if v.p == 1 and v.q >= 10**6:
        e = len(str(v.q)) - 1
        if v.q == 10**e:
            return f"10**-{e}"
    return str(v)


# ------------------------------------------------------------------------------------------------
# Continuous families, each in its standard variable z: SymPy pdf, mpmath log-pdf, CDF and survival
# ------------------------------------------------------------------------------------------------

LOG2PI = lambda: mpmath.log(2 * mpmath.pi)


@dataclass(frozen=True)
class CFamily:
    name: str
    shapes: tuple  # candidate shape tuples (exact)
    zlo: object
    zhi: object
    #: z-points where cuts help the quadrature (modes, kinks, centres)
    centres: tuple
    sym: Callable  # (z, shape) -> SymPy pdf in z
    #: (z, d_lo, d_hi, shape) -> mpmath log-pdf; d_lo = z − zlo and d_hi = zhi − z computed exactly
    mp_log: Callable
    sym_cdf: Callable | None = None  # (z exact number, shape) -> SymPy number
    sym_sf: Callable | None = None
    mp_cdf: Callable | None = None  # (z mpf, shape) -> mpf
    mp_sf: Callable | None = None
    #: a z from which the survival function is the stable one to subtract
    median: object = 0


def _lognormal_log(z, dlo, dhi, sh):
    (s,) = sh
    S = mpq(s)
    lz = mpmath.log(dlo)
    return -lz**2 / (2 * S**2) - lz - mpmath.log(S) - LOG2PI() / 2


def _laplace_cdf_sym(z, sh):
    return sp.exp(z) / 2 if z < 0 else 1 - sp.exp(-z) / 2


def _laplace_sf_sym(z, sh):
    return 1 - sp.exp(z) / 2 if z < 0 else sp.exp(-z) / 2


def _laplace_cdf_mp(z, sh):
    return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2


def _laplace_sf_mp(z, sh):
    return 1 - mpmath.exp(z) / 2 if z < 0 else mpmath.exp(-z) / 2


def _t_log(z, dlo, dhi, sh):
    (nu,) = sh
    N = mpq(nu)
    return (mpmath.loggamma((N + 1) / 2) - mpmath.log(N * mpmath.pi) / 2 - mpmath.loggamma(N / 2)
            - (N + 1) / 2 * mpmath.log1p(z**2 / N))


def _beta_log(z, dlo, dhi, sh):
    a, b = (mpq(v) for v in sh)
    return ((a - 1) * mpmath.log(dlo) + (b - 1) * mpmath.log(dhi)
            - (mpmath.loggamma(a) + mpmath.loggamma(b) - mpmath.loggamma(a + b)))


C_FAMILIES = {
    f.name: f for f in (
        CFamily("normal", ((),), -oo, oo, (-1, 0, 1),
                lambda z, sh: sp.exp(-z**2 / 2) / sp.sqrt(2 * sp.pi),
                lambda z, dlo, dhi, sh: -z**2 / 2 - LOG2PI() / 2,
                lambda z, sh: sp.erfc(-z / sp.sqrt(2)) / 2, lambda z, sh: sp.erfc(z / sp.sqrt(2)) / 2,
                lambda z, sh: mpmath.erfc(-z / mpmath.sqrt(2)) / 2, lambda z, sh: mpmath.erfc(z / mpmath.sqrt(2)) / 2),
        CFamily("laplace", ((),), -oo, oo, (-1, 0, 1),
                lambda z, sh: sp.exp(-sp.Abs(z)) / 2,
                lambda z, dlo, dhi, sh: -abs(z) - mpmath.log(2),
                _laplace_cdf_sym, _laplace_sf_sym, _laplace_cdf_mp, _laplace_sf_mp),
        CFamily("exponential", ((),), 0, oo, (0, 1),
                lambda z, sh: sp.exp(-z),
                lambda z, dlo, dhi, sh: -dlo,
                lambda z, sh: 1 - sp.exp(-z), lambda z, sh: sp.exp(-z),
                lambda z, sh: -mpmath.expm1(-z), lambda z, sh: mpmath.exp(-z), median=R(7, 10)),
        CFamily("gamma", ((R(1, 2),), (2,), (3,), (R(5, 2),)), 0, oo, (0, 1, 2),
                lambda z, sh: z**(sh[0] - 1) * sp.exp(-z) / sp.gamma(sh[0]),
                lambda z, dlo, dhi, sh: (mpq(sh[0]) - 1) * mpmath.log(dlo) - dlo - mpmath.loggamma(mpq(sh[0])),
                lambda z, sh: sp.lowergamma(sh[0], z) / sp.gamma(sh[0]),
                lambda z, sh: sp.uppergamma(sh[0], z) / sp.gamma(sh[0]),
                lambda z, sh: mpmath.gammainc(mpq(sh[0]), 0, z, regularized=True),
                lambda z, sh: mpmath.gammainc(mpq(sh[0]), z, mpmath.inf, regularized=True), median=1),
        CFamily("halfnormal", ((),), 0, oo, (0, 1),
                lambda z, sh: sp.sqrt(2) * sp.exp(-z**2 / 2) / sp.sqrt(sp.pi),
                lambda z, dlo, dhi, sh: mpmath.log(2 / mpmath.pi) / 2 - z**2 / 2,
                lambda z, sh: sp.erf(z / sp.sqrt(2)), lambda z, sh: sp.erfc(z / sp.sqrt(2)),
                lambda z, sh: mpmath.erf(z / mpmath.sqrt(2)), lambda z, sh: mpmath.erfc(z / mpmath.sqrt(2)),
                median=R(2, 3)),
        CFamily("logistic", ((),), -oo, oo, (-1, 0, 1),
                lambda z, sh: sp.exp(-z) / (1 + sp.exp(-z))**2,
                lambda z, dlo, dhi, sh: -abs(z) - 2 * mpmath.log1p(mpmath.exp(-abs(z))),
                lambda z, sh: 1 / (1 + sp.exp(-z)), lambda z, sh: 1 / (1 + sp.exp(z)),
                lambda z, sh: 1 / (1 + mpmath.exp(-z)), lambda z, sh: 1 / (1 + mpmath.exp(z))),
        CFamily("uniform", ((),), 0, 1, (0, 1),
                lambda z, sh: sp.Integer(1),
                lambda z, dlo, dhi, sh: mpmath.mpf(0),
                lambda z, sh: z, lambda z, sh: 1 - z,
                lambda z, sh: z, lambda z, sh: 1 - z, median=R(1, 2)),
        CFamily("cauchy", ((),), -oo, oo, (-1, 0, 1),
                lambda z, sh: 1 / (sp.pi * (1 + z**2)),
                lambda z, dlo, dhi, sh: -mpmath.log(mpmath.pi) - mpmath.log1p(z**2),
                lambda z, sh: R(1, 2) + sp.atan(z) / sp.pi, lambda z, sh: R(1, 2) - sp.atan(z) / sp.pi,
                lambda z, sh: mpmath.mpf(1) / 2 + mpmath.atan(z) / mpmath.pi,
                lambda z, sh: mpmath.mpf(1) / 2 - mpmath.atan(z) / mpmath.pi),
        CFamily("student_t", ((2,), (3,), (4,), (R(5, 2),)), -oo, oo, (-1, 0, 1),
                lambda z, sh: (sp.gamma((sh[0] + 1) / 2) / (sp.sqrt(sh[0] * sp.pi) * sp.gamma(sh[0] / 2))
                               * (1 + z**2 / sh[0]) ** (-(sh[0] + 1) / 2)),
                _t_log),
        CFamily("beta", ((2, 2), (2, 3), (R(1, 2), R(1, 2)), (R(3, 2), 2), (1, 2), (3, 1)), 0, 1, (0, R(1, 2), 1),
                lambda z, sh: (z**(sh[0] - 1) * (1 - z)**(sh[1] - 1)
                               * sp.gamma(sh[0] + sh[1]) / (sp.gamma(sh[0]) * sp.gamma(sh[1]))),
                _beta_log),
        CFamily("weibull", ((R(1, 2),), (R(3, 2),), (2,), (3,)), 0, oo, (0, 1),
                lambda z, sh: sh[0] * z**(sh[0] - 1) * sp.exp(-z**sh[0]),
                lambda z, dlo, dhi, sh: (mpmath.log(mpq(sh[0])) + (mpq(sh[0]) - 1) * mpmath.log(dlo)
                                         - dlo ** mpq(sh[0])),
                lambda z, sh: 1 - sp.exp(-z**sh[0]), lambda z, sh: sp.exp(-z**sh[0]),
                lambda z, sh: -mpmath.expm1(-z ** mpq(sh[0])), lambda z, sh: mpmath.exp(-z ** mpq(sh[0])),
                median=R(7, 10)),
        CFamily("pareto", ((R(1, 2),), (1,), (2,), (3,), (R(5, 2),)), 1, oo, (1, 2),
                lambda z, sh: sh[0] * z**(-sh[0] - 1),
                lambda z, dlo, dhi, sh: mpmath.log(mpq(sh[0])) - (mpq(sh[0]) + 1) * mpmath.log(z),
                lambda z, sh: 1 - z**(-sh[0]), lambda z, sh: z**(-sh[0]),
                lambda z, sh: 1 - z ** (-mpq(sh[0])), lambda z, sh: z ** (-mpq(sh[0])), median=R(3, 2)),
        CFamily("lognormal", ((R(1, 2),), (1,), (2,)), 0, oo, (0, 1),
                lambda z, sh: sp.exp(-sp.log(z)**2 / (2 * sh[0]**2)) / (z * sh[0] * sp.sqrt(2 * sp.pi)),
                _lognormal_log,
                lambda z, sh: sp.erfc(-sp.log(z) / (sh[0] * sp.sqrt(2))) / 2,
                lambda z, sh: sp.erfc(sp.log(z) / (sh[0] * sp.sqrt(2))) / 2,
                lambda z, sh: mpmath.erfc(-mpmath.log(z) / (mpq(sh[0]) * mpmath.sqrt(2))) / 2,
                lambda z, sh: mpmath.erfc(mpmath.log(z) / (mpq(sh[0]) * mpmath.sqrt(2))) / 2, median=1),
    )
}
#: families on the whole line (mixable with each other), and on [0, ∞) (mixable with each other at loc 0)
LINE = ("normal", "laplace", "logistic", "cauchy", "student_t")
HALF = ("exponential", "gamma", "halfnormal", "weibull", "lognormal")


@dataclass(frozen=True)
class CComp:
    """One component: Z ~ family(shape), X = loc + scale·R·Z."""

    fam: str
    shape: tuple
    loc: object = 0
    scale: object = 1
    refl: int = 1

    def __post_init__(self):  # exact SymPy numbers throughout (a Python 3/2 would be a float in the pdf)
        num = lambda v: v if isinstance(v, sp.Symbol) else sp.Rational(v)
        object.__setattr__(self, "shape", tuple(num(v) for v in self.shape))
        object.__setattr__(self, "loc", num(self.loc))
        object.__setattr__(self, "scale", num(self.scale))

    @property
    def family(self) -> CFamily:
        return C_FAMILIES[self.fam]

    def z_of_x(self, x):
        return self.refl * (x - self.loc) / self.scale

    def x_of_z(self, z, point):
        """z (exact, or ±oo) as x at a point (exact)."""
        if z in (oo, -oo):
            return z * self.refl
        return _exact(self.loc, point) + _exact(self.scale, point) * self.refl * z

    def x_of_z_sym(self, z):
        if z in (oo, -oo):
            return z * self.refl
        return self.loc + self.scale * self.refl * z

    def describe(self) -> str:
        shape = ", ".join(_show(s) for s in self.shape)
        args = [a for a in (shape,) if a]
        if self.loc != 0:
            args.append(f"loc={_show(self.loc)}")
        if self.scale != 1:
            args.append(f"scale={_show(self.scale)}")
        text = f"{self.fam}({', '.join(args)})"
        return f"reflect({text})" if self.refl == -1 else text


@dataclass(frozen=True)
class CLaw:
    """A continuous law: one component, possibly truncated to z ∈ [za, zb], or a mixture of components
    with the same support (weights exact)."""

    comps: tuple
    weights: tuple = (1,)
    trunc: tuple | None = None  # (za, zb) in the single component's z, exact (±oo allowed)
    discrete = False

    def describe(self) -> str:
        if len(self.comps) == 1:
            text = self.comps[0].describe()
            if self.trunc is not None:
                text += f" truncated to z in [{_show(self.trunc[0])}, {_show(self.trunc[1])}]"
            return text
        return " + ".join(f"{_show(w)}*{c.describe()}" for w, c in zip(self.weights, self.comps))

    @property
    def symbols(self) -> set:
        out = set()
        for c in self.comps:
            out |= {v for v in (c.loc, c.scale) if isinstance(v, sp.Symbol)}
        return out

    def _zrange(self):
        c = self.comps[0]
        zlo, zhi = c.family.zlo, c.family.zhi
        if self.trunc is not None:
            ta, tb = self.trunc
            zlo = ta if zlo == -oo else zlo if ta == -oo else max(zlo, ta)
            zhi = tb if zhi == oo else zhi if tb == oo else min(zhi, tb)
        return zlo, zhi

    def support(self, point: dict) -> tuple:
        """(lo, hi) in x at a point: exact numbers or ±oo."""
        c = self.comps[0]
        zlo, zhi = self._zrange()
        ends = (c.x_of_z(zlo, point), c.x_of_z(zhi, point))
        return (ends[0], ends[1]) if c.refl == 1 else (ends[1], ends[0])

    def support_sym(self) -> sp.Interval:
        c = self.comps[0]
        zlo, zhi = self._zrange()
        ends = (c.x_of_z_sym(zlo), c.x_of_z_sym(zhi))
        lo, hi = (ends[0], ends[1]) if c.refl == 1 else (ends[1], ends[0])
        return sp.Interval(lo, hi)

    def mass_sym(self):
        """The mass the truncation keeps, a SymPy number (1 untruncated)."""
        if self.trunc is None:
            return sp.Integer(1)
        c = self.comps[0]
        f = c.family
        za, zb = self._zrange()
        F = lambda z: sp.Integer(0) if z == f.zlo or z == -oo else sp.Integer(1) if z == f.zhi or z == oo \
            else f.sym_cdf(z, c.shape)
        S = lambda z: sp.Integer(1) if z == f.zlo or z == -oo else sp.Integer(0) if z == f.zhi or z == oo \
            else f.sym_sf(z, c.shape)
        return S(za) - S(zb) if za >= f.median else F(zb) - F(za)

    def mass_mp(self) -> mpmath.mpf:
        if self.trunc is None:
            return mpmath.mpf(1)
        c = self.comps[0]
        f = c.family
        za, zb = self._zrange()
        F = lambda z: mpmath.mpf(0) if z == f.zlo or z == -oo else mpmath.mpf(1) if z == f.zhi or z == oo \
            else f.mp_cdf(mpq(z), c.shape)
        S = lambda z: mpmath.mpf(1) if z == f.zlo or z == -oo else mpmath.mpf(0) if z == f.zhi or z == oo \
            else f.mp_sf(mpq(z), c.shape)
        return S(za) - S(zb) if za >= f.median else F(zb) - F(za)

    def sympy_args(self) -> tuple:
        pdf = sp.Integer(0)
        for w, c in zip(self.weights, self.comps):
            pdf += w * c.family.sym(c.z_of_x(X), c.shape) / c.scale
        return pdf / self.mass_sym(), self.support_sym()

    def sympy(self):
        pdf, support = self.sympy_args()
        return rdpsym.Continuous(pdf, X, support=support)

    def source(self) -> str:
        """Python source building the SymPy law (see :func:`reproduction`)."""
        pdf, support = self.sympy_args()
        return (f"rdpsym.Continuous(sp.sympify({str(pdf)!r}, locals=NS), x, "
                f"support=sp.Interval(sp.sympify({str(support.start)!r}, locals=NS), "
                f"sp.sympify({str(support.end)!r}, locals=NS)))")

    def x_points(self, point: dict) -> list:
        """Exact x-points where the oracle should cut (centres, kinks, truncation ends)."""
        out = []
        for c in self.comps:
            for z in (*c.family.centres, *(self.trunc or ())):
                if z not in (oo, -oo):
                    out.append(c.x_of_z(z, point))
        return out

    def log_density(self, point: dict, m, s) -> Callable:
        """The log-density in the frame x = m + s·(anchor + offset), as a function of (anchor, offset):
        anchor exact, offset an mpf, each component's z and its distances to the support ends computed from
        exact rationals (a singular end stays resolved at any distance)."""
        cache: dict = {}

        def consts(anchor):
            key = (anchor, mpmath.mp.prec)
            if key not in cache:
                rows = []
                zr = self._zrange()
                for w, c in zip(self.weights, self.comps):
                    f = c.family
                    loc, scale = _exact(c.loc, point), _exact(c.scale, point)
                    C = c.refl * (m + s * anchor - loc) / scale  # exact
                    B = c.refl * s / scale
                    zlo, zhi = (zr if self.trunc is not None else (f.zlo, f.zhi))
                    rows.append(dict(
                        C=mpq(C), B=mpq(B),
                        Clo=None if f.zlo == -oo else mpq(C - f.zlo),
                        Chi=None if f.zhi == oo else mpq(f.zhi - C),
                        Tlo=None if zlo == -oo else mpq(C - zlo),
                        Thi=None if zhi == oo else mpq(zhi - C),
                        base=mpmath.log(mpq(w)) + mpmath.log(mpq(s)) - mpmath.log(mpq(scale)), comp=c))
                cache[key] = (rows, mpmath.log(self.mass_mp()))
            return cache[key]

        def logp(anchor, offset):
            rows, logmass = consts(anchor)
            terms = []
            for r in rows:
                bo = r["B"] * offset
                if (r["Tlo"] is not None and r["Tlo"] + bo <= 0) or (r["Thi"] is not None and r["Thi"] - bo <= 0):
                    continue
                z = r["C"] + bo
                dlo = r["Clo"] + bo if r["Clo"] is not None else None
                dhi = r["Chi"] - bo if r["Chi"] is not None else None
                c = r["comp"]
                v = c.family.mp_log(z, dlo, dhi, c.shape)
                if mpmath.isnan(v) or v == -mpmath.inf:
                    continue
                terms.append(r["base"] + v)
            if not terms:
                return LOG0
            top = max(terms)
            if top == mpmath.inf:
                return top
            return top + mpmath.log(mpmath.fsum(mpmath.exp(t - top) for t in terms)) - logmass

        return logp


# ------------------------------------------------------------------------------------------------
# Discrete families, in their standard outcome j: SymPy pmf, mpmath log-pmf
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DFamily:
    name: str
    params: tuple  # candidate parameter tuples (exact, or symbols where the grammar allows)
    lo: Callable  # params -> first outcome
    hi: Callable  # params -> last outcome (oo)
    sym: Callable  # (j, params) -> SymPy pmf
    mp_log: Callable  # (j int, params mpf) -> mpf
    centre: Callable  # params (exact) -> an outcome near the mass


def _mp_logbinom(n, j):
    return mpmath.loggamma(n + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(n - j + 1)


D_FAMILIES = {
    f.name: f for f in (
        DFamily("geometric", ((R(1, 2),), (R(1, 3),), (R(9, 10),), (R(1, 100),)), lambda p: 0, lambda p: oo,
                lambda j, p: p[0] * (1 - p[0]) ** j,
                lambda j, p: mpmath.log(p[0]) + j * mpmath.log1p(-p[0]),
                lambda p: int(1 / p[0])),
        DFamily("poisson", ((R(1, 2),), (1,), (3,), (10,), (R(1, 10**30),)), lambda p: 0, lambda p: oo,
                lambda j, p: sp.exp(-p[0]) * p[0] ** j / sp.factorial(j),
                lambda j, p: -p[0] + j * mpmath.log(p[0]) - mpmath.loggamma(j + 1),
                lambda p: int(p[0])),
        DFamily("binomial", ((3, R(1, 2)), (5, R(1, 3)), (10, R(3, 4)), (1, R(1, 4))), lambda p: 0, lambda p: p[0],
                lambda j, p: sp.binomial(p[0], j) * p[1] ** j * (1 - p[1]) ** (p[0] - j),
                lambda j, p: _mp_logbinom(p[0], j) + j * mpmath.log(p[1]) + (p[0] - j) * mpmath.log1p(-p[1]),
                lambda p: int(p[0] * p[1])),
        DFamily("negbinomial", ((2, R(1, 2)), (3, R(1, 3)), (1, R(2, 3))), lambda p: 0, lambda p: oo,
                lambda j, p: sp.binomial(j + p[0] - 1, j) * p[1] ** j * (1 - p[1]) ** p[0],
                lambda j, p: (_mp_logbinom(j + p[0] - 1, j) + j * mpmath.log(p[1]) + p[0] * mpmath.log1p(-p[1])),
                lambda p: int(p[0] * p[1] / (1 - p[1]))),
        DFamily("duniform", ((2,), (3,), (5,), (10,)), lambda p: 0, lambda p: p[0] - 1,
                lambda j, p: sp.Integer(1) / p[0],
                lambda j, p: -mpmath.log(p[0]),
                lambda p: int(p[0] // 2)),
        DFamily("dlaplace", ((R(1, 2),), (R(1, 3),), (R(9, 10),)), lambda p: -oo, lambda p: oo,
                lambda j, p: (1 - p[0]) / (1 + p[0]) * p[0] ** sp.Abs(j),
                lambda j, p: mpmath.log((1 - p[0]) / (1 + p[0])) + abs(j) * mpmath.log(p[0]),
                lambda p: 0),
    )
}
#: symbolic parameters a discrete family may take (positive symbols): Poisson's rate
D_SYMBOLIC = {"poisson": 0}


@dataclass(frozen=True)
class DComp:
    """Outcome = shift + R·J, J ~ family(params)."""

    fam: str
    params: tuple
    shift: int = 0
    refl: int = 1

    def __post_init__(self):
        object.__setattr__(self, "params", tuple(v if isinstance(v, sp.Symbol) else sp.Rational(v)
                                                 for v in self.params))

    @property
    def family(self) -> DFamily:
        return D_FAMILIES[self.fam]

    def describe(self) -> str:
        args = [", ".join(_show(p) for p in self.params)]
        if self.shift:
            args.append(f"shift={self.shift}")
        text = f"{self.fam}({', '.join(args)})"
        return f"reflect({text})" if self.refl == -1 else text

    def std_range(self, point) -> tuple:
        ps = tuple(_exact(p, point) for p in self.params)
        return self.family.lo(ps), self.family.hi(ps)

    def range_at(self, point) -> tuple:
        lo, hi = self.std_range(point)
        ends = [self.shift + self.refl * v if v not in (oo, -oo) else v * self.refl for v in (lo, hi)]
        return tuple(sorted(ends, key=lambda v: mpq(v)))

    def std_range_sym(self) -> tuple:
        return self.family.lo(self.params), self.family.hi(self.params)


@dataclass(frozen=True)
class DLaw:
    """A discrete law: a finite table, one component (possibly truncated to [ta, tb], inclusive, in outcomes),
    or a mixture of components on the same support."""

    comps: tuple = ()
    weights: tuple = (1,)
    trunc: tuple | None = None
    table: tuple | None = None  # ((outcome, probability), ...)
    discrete = True

    def describe(self) -> str:
        if self.table is not None:
            return "table{" + ", ".join(f"{k}: {_show(v)}" for k, v in self.table) + "}"
        if len(self.comps) == 1:
            text = self.comps[0].describe()
            if self.trunc is not None:
                text += f" truncated to [{_show(self.trunc[0])}, {_show(self.trunc[1])}]"
            return text
        return " + ".join(f"{_show(w)}*{c.describe()}" for w, c in zip(self.weights, self.comps))

    @property
    def symbols(self) -> set:
        return {p for c in self.comps for p in c.params if isinstance(p, sp.Symbol)}

    def support(self, point: dict) -> tuple:
        if self.table is not None:
            keys = [k for k, _ in self.table]
            return min(keys), max(keys)
        lo, hi = self.comps[0].range_at(point)
        if self.trunc is not None:
            lo = self.trunc[0] if lo == -oo else max(lo, self.trunc[0])
            hi = self.trunc[1] if hi == oo else min(hi, self.trunc[1])
        return lo, hi

    def outcomes(self, point) -> set | None:
        """The set of outcomes with mass when finite and not a whole range (a table), else None."""
        if self.table is not None:
            return {k for k, _ in self.table}
        lo, hi = self.support(point)
        if lo != -oo and hi != oo:
            return set(range(int(lo), int(hi) + 1))
        return None

    def _sym_term(self, c: DComp, k):
        return c.family.sym(c.refl * (k - c.shift), c.params)

    def _removed_or_kept(self, point=None):
        """('kept', [outcomes]) when the truncation keeps a finite set, ('removed', [outcomes]) when it removes
        a finite set from the component's range (the other is infinite)."""
        c = self.comps[0]
        lo, hi = c.range_at(point) if point is not None else c.range_at({})
        ta, tb = self.trunc
        a = ta if lo == -oo else max(lo, ta)
        b = tb if hi == oo else min(hi, tb)
        if a != -oo and b != oo:
            return "kept", list(range(int(a), int(b) + 1))
        removed = []
        if lo != -oo and a > lo:
            removed += list(range(int(lo), int(a)))
        if hi != oo and b < hi:
            removed += list(range(int(b) + 1, int(hi) + 1))
        return "removed", removed

    def mass_sym(self):
        if self.trunc is None:
            return sp.Integer(1)
        kind, ks = self._removed_or_kept()
        total = sp.Add(*(self._sym_term(self.comps[0], sp.Integer(k)) for k in ks))
        return total if kind == "kept" else 1 - total

    def mass_mp(self, point) -> mpmath.mpf:
        if self.trunc is None:
            return mpmath.mpf(1)
        kind, ks = self._removed_or_kept(point)
        c = self.comps[0]
        ps = tuple(mpq(_exact(p, point)) if not isinstance(_exact(p, point), int) else _exact(p, point)
                   for p in c.params)
        total = mpmath.fsum(mpmath.exp(c.family.mp_log(c.refl * (k - c.shift), ps)) for k in ks)
        return total if kind == "kept" else 1 - total

    def sympy_args(self) -> tuple:
        pmf = sp.Integer(0)
        for w, c in zip(self.weights, self.comps):
            pmf += w * self._sym_term(c, K)
        lo, hi = self.comps[0].range_at({})  # the ends of a range are numeric
        if self.trunc is not None:
            lo = self.trunc[0] if lo == -oo else max(lo, self.trunc[0])
            hi = self.trunc[1] if hi == oo else min(hi, self.trunc[1])
        return pmf / self.mass_sym(), sp.Range(lo, hi + 1 if hi != oo else oo)

    def sympy(self):
        if self.table is not None:
            return rdpsym.Discrete({k: v for k, v in self.table})
        pmf, support = self.sympy_args()
        return rdpsym.Discrete(pmf, K, support=support)

    def source(self) -> str:
        if self.table is not None:
            return "rdpsym.Discrete({" + ", ".join(f"{k}: sp.Rational({str(v)!r})" for k, v in self.table) + "})"
        pmf, support = self.sympy_args()
        return (f"rdpsym.Discrete(sp.sympify({str(pmf)!r}, locals=NS), k, "
                f"support=sp.Range(sp.sympify({str(support.start)!r}), sp.sympify({str(support.stop)!r})))")

    def log_pmf(self, point: dict) -> Callable:
        if self.table is not None:
            logs = {k: mpmath.log(mpq(v)) for k, v in self.table}
            return lambda k: logs.get(int(k), LOG0)
        lo, hi = self.support(point)
        cache: dict = {}

        def consts():
            if mpmath.mp.prec not in cache:
                rows = []
                for w, c in zip(self.weights, self.comps):
                    ps = tuple(mpq(_exact(p, point)) if isinstance(_exact(p, point), sp.Rational) and
                               _exact(p, point).q != 1 else int(_exact(p, point)) for p in c.params)
                    rows.append((mpmath.log(mpq(w)), c, ps, c.std_range(point)))
                cache[mpmath.mp.prec] = (rows, mpmath.log(self.mass_mp(point)))
            return cache[mpmath.mp.prec]

        def logp(k):
            k = int(k)
            if (lo != -oo and k < lo) or (hi != oo and k > hi):
                return LOG0
            rows, logmass = consts()
            terms = []
            for lw, c, ps, (slo, shi) in rows:
                j = c.refl * (k - c.shift)
                if (slo != -oo and j < slo) or (shi != oo and j > shi):
                    continue
                terms.append(lw + c.family.mp_log(j, ps))
            if not terms:
                return LOG0
            top = max(terms)
            return top + mpmath.log(mpmath.fsum(mpmath.exp(t - top) for t in terms)) - logmass

        return logp

    def centre(self, point) -> int:
        if self.table is not None:
            return self.table[0][0]
        c = self.comps[0]
        ps = tuple(_exact(p, point) for p in c.params)
        j = c.family.centre(ps)
        k = c.shift + c.refl * j
        lo, hi = self.support(point)
        if lo != -oo:
            k = max(k, lo)
        if hi != oo:
            k = min(k, hi)
        return int(k)


# ------------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    P: object
    Q: object
    order: object
    #: parameter points {symbol: Rational} for symbolic parameters (one empty dict when there are none)
    points: tuple = ({},)
    #: orders a symbolic order is evaluated at (besides those the Piecewise analysis adds)
    alphas: tuple = ()
    #: the grammar knows D = 0 (P and Q are the same law)
    same: bool = False

    @property
    def symbols(self) -> set:
        return self.P.symbols | self.Q.symbols

    def describe(self) -> str:
        pts = "" if self.points == ({},) else f", parameter points {[_pt(p) for p in self.points]}"
        als = f", evaluated at alpha in {[str(a) for a in self.alphas]}" if self.order == ALPHA else ""
        return f"P = {self.P.describe()}\nQ = {self.Q.describe()}\norder = {self.order}{pts}{als}"


def _pt(point: dict) -> dict:
    return {str(k): str(v) for k, v in point.items()}


# ------------------------------------------------------------------------------------------------
# The grammar: a ``Draw`` (hypothesis or a seeded random.Random) makes every choice
# ------------------------------------------------------------------------------------------------


class Draw:
    """Choices for the grammar. ``choice`` prefers the first items when shrinking (hypothesis)."""

    def choice(self, seq):
        raise NotImplementedError

    def coin(self, p: float = 0.5) -> bool:
        raise NotImplementedError


class RandomDraw(Draw):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choice(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def coin(self, p: float = 0.5) -> bool:
        return self.rng.random() < p


class HypothesisDraw(Draw):
    def __init__(self, draw):
        from hypothesis import strategies as st

        self.draw, self.st = draw, st

    def choice(self, seq):
        return self.draw(self.st.sampled_from(list(seq)))

    def coin(self, p: float = 0.5) -> bool:
        # integers shrink towards 0: "False" is the simple choice
        return self.draw(self.st.integers(0, 99)) >= 100 - int(100 * p)


LOCS = (0, 1, -1, R(1, 2), 3, -2, R(1, 3))
SCALES = (1, 2, R(1, 2), 3, R(1, 3))
EXTREME = (R(1, 10**30), 10**30)
POINT_VALUES = (1, 2, R(1, 2), 3, R(5, 4), 7, R(1, 3))
SYMS = {name: sp.Symbol(name, positive=True) for name in ("s1", "s2", "m1", "m2", "l1", "l2")}
NS = {"x": X, "k": K, **SYMS, "pi": sp.pi, "E": sp.E}


def _number(d: Draw, pool, extreme: bool):
    if extreme and d.coin(0.15):
        return d.choice(EXTREME)
    return d.choice(pool)


def _ccomp(d: Draw, fams, symbolic: bool, extreme: bool, refl_ok: bool = True, loc=None, force_refl=None) -> CComp:
    name = d.choice(fams)
    f = C_FAMILIES[name]
    shape = tuple(sp.Rational(v) for v in d.choice(f.shapes))  # exact: (ν + 1)/2 must not become a float
    if loc is None:
        if symbolic and d.coin(0.2):
            loc = d.choice((SYMS["m1"], SYMS["m2"]))
        else:
            loc = _number(d, LOCS, extreme) * (d.choice((1, -1)) if extreme else 1)
    if symbolic and d.coin(0.6):
        scale = d.choice((SYMS["s1"], SYMS["s2"]))
    else:
        scale = _number(d, SCALES, extreme)
    refl = force_refl if force_refl is not None else (-1 if refl_ok and d.coin(0.15) else 1)
    return CComp(name, shape, loc, scale, refl)


def _trunc(d: Draw, f: CFamily):
    """A truncation in z: both ends finite, or one end cut (keeping an infinite side)."""
    pool = [z for z in (-2, -1, R(-1, 2), 0, R(1, 2), 1, R(3, 2), 2, 3) if (f.zlo == -oo or z > f.zlo)
            and (f.zhi == oo or z < f.zhi)]
    if f.zhi != oo:  # finite families (uniform): a sub-interval
        pool = [z for z in (R(1, 10), R(1, 4), R(1, 2), R(3, 4), R(9, 10))]
    a = d.choice(pool)
    kind = d.choice(("both", "below", "above"))
    if kind == "both" or (f.zhi != oo and f.zlo != -oo):
        later = [z for z in pool if z > a]
        if not later:
            return (f.zlo if f.zlo != -oo else -oo, a)
        return (a, d.choice(later))
    return (a, oo) if kind == "below" else (-oo, a)


def c_law(d: Draw, symbolic: bool, extreme: bool, like: CLaw | None = None) -> CLaw:
    """A continuous law; ``like``: a law to relate to (the same family, support or transformation)."""
    kind = d.choice(("plain", "plain", "truncated", "mixture"))
    if like is not None and d.coin(0.5):
        c0 = like.comps[0]
        # the same family (new parameters, sometimes the same), maybe the same location and orientation
        fams = (c0.fam,)
        c = _ccomp(d, fams, symbolic, extreme, loc=c0.loc if d.coin(0.5) else None, force_refl=c0.refl)
        if d.coin(0.5) and like.trunc is None and kind == "truncated":
            kind = "plain"
        if kind == "mixture":
            kind = "plain"
    else:
        c = _ccomp(d, tuple(C_FAMILIES), symbolic, extreme)
    if kind == "mixture":
        group = LINE if c.fam in LINE else HALF if c.fam in HALF else None
        if group is None:
            return CLaw((c,))
        other = _ccomp(d, group, symbolic, extreme, loc=c.loc if c.fam in HALF else None, force_refl=c.refl)
        if other.fam in HALF and c.fam in HALF:
            other = dataclasses.replace(other, loc=c.loc)
        w = d.choice((R(1, 2), R(1, 3), R(1, 10), R(9, 10)))
        return CLaw((c, other), (w, 1 - w))
    if kind == "truncated" and c.family.sym_cdf is not None:
        return CLaw((c,), trunc=_trunc(d, c.family))
    return CLaw((c,))


def _table(d: Draw, start: int) -> tuple:
    n = d.choice((2, 3, 4))
    keys = sorted({start + d.choice((0, 1, 2, 3, 5)) for _ in range(n)} | {start})
    raw = [d.choice((1, 2, 3, 5, 7)) for _ in keys]
    total = sum(raw)
    return tuple((k, R(v, total)) for k, v in zip(keys, raw))


def d_law(d: Draw, symbolic: bool, extreme: bool, like: DLaw | None = None) -> DLaw:
    if d.coin(0.15):
        start = like.support({})[0] if (like is not None and like.support({})[0] != -oo and d.coin(0.5)) else \
            d.choice((0, 1, -1))
        return DLaw(table=_table(d, int(start)))
    if like is not None and like.comps and d.coin(0.5):
        base = like.comps[0]
        name, shift, refl = base.fam, base.shift, base.refl
    else:
        name = d.choice(tuple(D_FAMILIES))
        shift = d.choice((0, 0, 1, -1, 2)) if not (extreme and d.coin(0.1)) else 10**30
        refl = -1 if d.coin(0.1) else 1
    f = D_FAMILIES[name]
    params = tuple(sp.Rational(v) for v in d.choice(f.params))
    if symbolic and name in D_SYMBOLIC and d.coin(0.7):
        i = D_SYMBOLIC[name]
        params = tuple(d.choice((SYMS["l1"], SYMS["l2"])) if j == i else p for j, p in enumerate(params))
    c = DComp(name, params, shift, refl)
    kind = d.choice(("plain", "plain", "truncated", "mixture"))
    if kind == "mixture" and name in ("geometric", "poisson", "negbinomial"):
        other_name = d.choice(("geometric", "poisson", "negbinomial"))
        other = DComp(other_name, tuple(sp.Rational(v) for v in d.choice(D_FAMILIES[other_name].params)), shift, refl)
        w = d.choice((R(1, 2), R(1, 3), R(9, 10)))
        return DLaw((c, other), (w, 1 - w))
    if kind == "truncated":
        lo, hi = c.range_at({SYMS["l1"]: 1, SYMS["l2"]: 1})
        # around the component's mode when the range is unbounded below (a window far from it keeps a mass like
        # (1/2)^(10³⁰), which the oracle's own exact arithmetic cannot build: seed 20, case 73)
        first = lo if lo != -oo else c.shift + d.choice((-3, -1, 0))
        a = first + d.choice((0, 1, 2))
        if hi != oo:
            a = min(a, hi)
        if hi == oo and lo != -oo and d.coin(0.5):
            return DLaw((c,), trunc=(a, oo))
        b = a + d.choice((0, 1, 2, 4))
        if hi != oo:
            b = min(b, hi)
        return DLaw((c,), trunc=(a, b))
    return DLaw((c,))


def _points(d: Draw, symbols: set) -> tuple:
    if not symbols:
        return ({},)
    ordered = sorted(symbols, key=lambda s: s.name)
    n = d.choice((1, 2, 2))
    pts = []
    for _ in range(n):
        pts.append({s: sp.Rational(d.choice(POINT_VALUES)) for s in ordered})
    return tuple(pts)


def case(d: Draw) -> Case:
    """One case of the grammar: a pair of laws, an order, parameter points, orders for a symbolic order."""
    discrete = d.coin(0.3)
    symbolic = d.coin(0.35)
    extreme = d.coin(0.2)
    make = d_law if discrete else c_law
    P = make(d, symbolic, extreme)
    if d.coin(0.06):
        Q = P
    else:
        Q = make(d, symbolic, extreme, like=P if d.coin(0.7) else None)
    same = Q == P
    order = d.choice(ORDERS)
    points = _points(d, P.symbols | Q.symbols)
    alphas = ()
    if order == ALPHA:
        below = [a for a in ALPHA_GRID if a < 1]
        above = [a for a in ALPHA_GRID if a > 1]
        alphas = tuple(sorted({d.choice(below), d.choice(below), d.choice(above), d.choice(above)}))
    return Case(P, Q, order, points, alphas, same)


def cases():
    """The hypothesis strategy of cases."""
    from hypothesis import strategies as st

    @st.composite
    def strategy(draw):
        return case(HypothesisDraw(draw))

    return strategy()


def random_case(seed: int, index: int) -> Case:
    """Case ``index`` of the long run with ``seed`` (reproducible: each case has its own generator)."""
    return case(RandomDraw(random.Random(f"fuzz:{seed}:{index}")))


# ------------------------------------------------------------------------------------------------
# The oracle glue
# ------------------------------------------------------------------------------------------------


class Inconclusive(Exception):
    """The oracle could not settle this point."""


class _CpuLimit(BaseException):
    pass


@contextlib.contextmanager
def cpu_limit(seconds: float):
    """Raise _CpuLimit after ``seconds`` of process CPU (SIGPROF; main thread only; else unbounded)."""
    def expire(signum, frame):
        raise _CpuLimit

    try:
        previous = signal.signal(signal.SIGPROF, expire)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _lt(a, b) -> bool:
    return mpq(a) < mpq(b)


def _intersection(P, Q, point):
    plo, phi = P.support(point)
    qlo, qhi = Q.support(point)
    lo = plo if qlo == -oo or (plo != -oo and not _lt(plo, qlo)) else qlo
    hi = phi if qhi == oo or (phi != oo and not _lt(qhi, phi)) else qhi
    return lo, hi


def _contained(P, Q, point) -> bool:
    """P's support inside Q's (the grammar's exact knowledge of both)."""
    plo, phi = P.support(point)
    qlo, qhi = Q.support(point)
    if qlo != -oo and (plo == -oo or _lt(plo, qlo)):
        return False
    if qhi != oo and (phi == oo or _lt(qhi, phi)):
        return False
    if P.discrete:
        po, qo = P.outcomes(point), Q.outcomes(point)
        if qo is not None:
            if po is None:
                return False
            return po <= qo
    return True


def _disjoint(P, Q, point) -> bool:
    lo, hi = _intersection(P, Q, point)
    if lo == -oo or hi == oo:
        return False
    if P.discrete:
        if _lt(hi, lo):
            return True
        po, qo = P.outcomes(point), Q.outcomes(point)
        ks = set(range(int(lo), int(hi) + 1))
        if po is not None:
            ks &= po
        if qo is not None:
            ks &= qo
        return not ks
    return not _lt(lo, hi)


def _laws(P, Q, point, lo, hi, extra_cuts: int = 0, a=None) -> tor.Laws:
    """The oracle's Laws for integrating/summing over [lo, hi] (exact ends)."""
    if P.discrete:
        lp, lq = P.log_pmf(point), Q.log_pmf(point)
        lo_i = -mpmath.inf if lo == -oo else int(lo)
        hi_i = mpmath.inf if hi == oo else int(hi)
        return tor.Laws(lambda k: mpmath.exp(lp(k)), lambda k: mpmath.exp(lq(k)), (lo_i, hi_i), discrete=True,
                        centre=P.centre(point), logp=lp, logq=lq)
    # the frame: x = m + s·t, with a finite end at t = 0 and a finite range onto [0, 1]; the unit is P's
    # scale (Q's at a second look: the tail witnesses look 10^-20..10^-80 units from an end)
    c = Q.comps[0] if (extra_cuts and not Q.discrete) else P.comps[0]
    if lo != -oo and hi != oo:
        m, s = lo, hi - lo
    elif lo != -oo:
        m, s = lo, _exact(c.scale, point)
    elif hi != oo:
        m, s = hi, _exact(c.scale, point)
    else:
        m, s = _exact(c.loc, point), _exact(c.scale, point)
    m, s = sp.Rational(m), sp.Rational(s)
    tlo = -oo if lo == -oo else (lo - m) / s
    thi = oo if hi == oo else (hi - m) / s
    cuts = set()
    for law in (P, Q):
        for xpt in law.x_points(point):
            t = (sp.Rational(xpt) - m) / s
            if (tlo == -oo or t > tlo) and (thi == oo or t < thi):
                cuts.add(t)
        for e in law.support(point):
            if e not in (oo, -oo):
                t = (sp.Rational(e) - m) / s
                if (tlo == -oo or t > tlo) and (thi == oo or t < thi):
                    cuts.add(t)
    if tlo == -oo and thi == oo and not cuts:
        cuts.add(sp.Integer(0))
    inner = sorted(cuts)
    if extra_cuts:  # a second evaluation at other cuts: midpoints, and a point beyond each side
        mids = [(a + b) / 2 for a, b in zip(inner, inner[1:])]
        edge = []
        if inner:
            if tlo != -oo:
                edge.append((tlo + inner[0]) / 3)
            if thi != oo:
                edge.append((thi + 2 * inner[-1]) / 3)
            if tlo == -oo:
                edge.append(inner[0] - 3)
            if thi == oo:
                edge.append(inner[-1] + 3)
        inner = sorted(set(inner) | set(mids) | set(edge))
    # Between cuts far apart (laws of scales 10^30 apart), points at 10^j from each end, so that every
    # piece holds features of one scale only.
    finite = [t for t in ([tlo] if tlo != -oo else []) + inner + ([thi] if thi != oo else [])]
    spread = set()
    for u, v in zip(finite, finite[1:]):
        for j in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64):
            step = sp.Integer(10) ** j
            if 2 * step >= v - u:
                break
            spread |= {u + step, v - step}
    inner = sorted(set(inner) | spread)
    lp_at, lq_at = P.log_density(point, m, s), Q.log_density(point, m, s)
    # Q is rescaled by e^{-c}, c = log Q where P has its mass, when |c| is large (a law 10^30 away, whose
    # density is below e^{-10^6} everywhere P lives): D_a(P‖e^{-c}Q) = D_a(P‖Q) + c at every order
    # (α ≠ 1, KL and ∞ alike), and the caller subtracts c again.
    # log Q − c is computed with the digits of c to spare.
    t_ref = mpq(sorted(cuts, key=abs)[0]) if cuts else mpq(tlo if tlo != -oo else thi)
    c = lq_at(0, t_ref)
    extra = int(mpmath.log10(abs(c))) + 10 if (abs(c) > 1000 and c != LOG0) else 0
    if extra:
        with mpmath.workdps(mpmath.mp.dps + extra):
            c = lq_at(0, t_ref)
    else:
        c = mpmath.mpf(0)

    def q_shifted(anchor, t):
        if not extra:
            return lq_at(anchor, t)
        with mpmath.workdps(mpmath.mp.dps + extra):
            v = lq_at(anchor, t) - c
        return +v
    if a is not None:
        # A cut far out in a tail where the integrand is already below e^{-10^6} (another law's centre 10^30
        # away) would start the oracle's tail walk where there is nothing to walk down from: dropped.
        def zero(t):
            e = lp_at(0, mpq(t)) if a == 1 else a * lp_at(0, mpq(t)) + (1 - a) * q_shifted(0, mpq(t))
            return e < -(10**6)

        while thi == oo and len(inner) > 1 and zero(inner[-1]):
            inner.pop()
        while tlo == -oo and len(inner) > 1 and zero(inner[0]):
            inner.pop(0)
    ends_t = [mpq(tlo), *[mpq(t) for t in inner], mpq(thi)]
    cut_list = [ends_t[0]]
    for t in ends_t[1:]:
        if t > cut_list[-1]:
            cut_list.append(t)
    logp = lambda t: lp_at(0, t)
    logq = lambda t: q_shifted(0, t)
    reflected = None
    if thi != oo:
        reflected = (lambda y: mpmath.exp(lp_at(thi, -y)), lambda y: mpmath.exp(q_shifted(thi, -y)))
    laws = tor.Laws(lambda t: mpmath.exp(logp(t)), lambda t: mpmath.exp(logq(t)), tuple(cut_list),
                    logp=logp, logq=logq, reflected=reflected)
    object.__setattr__(laws, "_offset", c)  # read by :func:`_offset`
    return laws


def _offset(laws) -> mpmath.mpf:
    """The constant c by which :func:`_laws` rescaled Q (0 for sums: a pmf is at most 1)."""
    return getattr(laws, "_offset", mpmath.mpf(0))


def _settled_divergence(laws: tor.Laws, a) -> mpmath.mpf:
    """D_a from the definition (a ≠ ∞), with its resolution checked: log I is known to 10^-45 relative to I,
    so D = log(I)/(a − 1) keeps 31 digits only while |log I| > 10^-14; a near-zero divergence is computed
    again at higher precision and must agree."""
    value = tor.integral(laws, a)
    if a == 1:
        return value
    logI = mpmath.log(value)
    if abs(logI) > mpmath.mpf(10) ** -13:
        return logI / (a - 1)
    lost = int(-mpmath.log10(abs(logI))) + 5 if logI != 0 else 60
    if lost > 80:
        raise Inconclusive(f"D is below the oracle's resolution (log I = {mpmath.nstr(logI, 5)})")
    results = []
    for extra in (lost, lost + 10):
        with mpmath.workdps(tor.ORACLE_DPS + extra):
            results.append(mpmath.log(tor.integral(laws, a)) / (a - 1))
    if not tor.agree(results[0], results[1], DIGITS + 2):
        raise Inconclusive(f"a near-zero divergence did not settle: {mpmath.nstr(results[0], 10)} "
                           f"vs {mpmath.nstr(results[1], 10)}")
    return results[1]


def oracle(c: Case, point: dict, order, seconds: float = 120.0, second_look: bool = False) -> tuple:
    """(value, how) for D_order(P‖Q) at a parameter point: an mpf, mpmath.inf (with its witness in ``how``),
    or raises Inconclusive.  ``second_look``: evaluate again at other cuts / a finer grid."""
    P, Q = c.P, c.Q
    try:
        with cpu_limit(seconds), mpmath.workdps(tor.ORACLE_DPS):
            if c.same:
                return mpmath.mpf(0), "P = Q (the same law)"
            if order == oo:
                if not _contained(P, Q, point):
                    return mpmath.inf, "P has mass outside Q's support"
                lo, hi = P.support(point)
                laws = _laws(P, Q, point, lo, hi, extra_cuts=int(second_look))
                if tor.sup_is_infinite(laws):
                    return mpmath.inf, "log P/Q grows without bound towards an end (witnessed at three depths)"
                return (tor.sup_log_ratio(laws, grid=2000 if second_look else 400) - _offset(laws),
                        "sup of log P/Q (scan + golden)")
            a = mpq(order)
            if a < 1:
                if _disjoint(P, Q, point):
                    return mpmath.inf, "the supports are disjoint: ∫ P^a Q^(1-a) = 0"
                lo, hi = _intersection(P, Q, point)
                laws = _laws(P, Q, point, lo, hi, extra_cuts=int(second_look), a=a)
                value = _settled_divergence(laws, a) - _offset(laws)
                if value == mpmath.inf or mpmath.isnan(value):
                    raise Inconclusive(f"the integral over the common support came out as {value}")
                return value, "quadrature/summation of P^a Q^(1-a) over the common support"
            if not _contained(P, Q, point):
                return mpmath.inf, "P has mass outside Q's support"
            lo, hi = P.support(point)
            laws = _laws(P, Q, point, lo, hi, extra_cuts=int(second_look), a=a)
            if tor.diverges(laws, a):
                if second_look:  # the quadrature too: a witness contradicted by a settled quadrature is no witness
                    try:
                        return _settled_divergence(laws, a) - _offset(laws), "quadrature (a tail witness said ∞)"
                    except (AssertionError, Inconclusive, ZeroDivisionError, ValueError):
                        pass
                return mpmath.inf, "the integrand times the distance to an end does not decay (witness)"
            return _settled_divergence(laws, a) - _offset(laws), "quadrature/summation of the definition"
    except _CpuLimit:
        raise Inconclusive(f"the oracle did not finish within {seconds} s of CPU") from None
    except AssertionError as exc:
        raise Inconclusive(f"oracle: {str(exc)[:200]}") from None
    except (ZeroDivisionError, ValueError, OverflowError) as exc:
        raise Inconclusive(f"oracle: {type(exc).__name__}: {str(exc)[:200]}") from None


# ------------------------------------------------------------------------------------------------
# Running a case
# ------------------------------------------------------------------------------------------------


@dataclass
class PointResult:
    point: dict
    at: object  # the order evaluated (a number; for a symbolic order, the α value)
    claimed: object = None  # rdpsym's value (mpf, inf) or an error text
    truth: object = None
    how: str = ""
    verdict: str = ""  # agree | WRONG | inconclusive | refused:<Error> | crash:<Error>
    note: str = ""


@dataclass
class CaseResult:
    case: Case
    outcome: str = ""  # agree | WRONG | inconclusive | refused:<Error> | crash:<Error> | law-refused:<Error>
    status: str = ""
    result: str = ""
    error: str = ""
    hypotheses: str = ""
    points: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def wrong(self) -> list:
        return [p for p in self.points if p.verdict == "WRONG"]

    def report(self) -> str:
        lines = [self.case.describe(), f"outcome: {self.outcome}  status: {self.status}  ({self.seconds:.1f} s)"]
        if self.error:
            lines.append(f"error: {self.error}")
        if self.result:
            lines.append(f"result: {self.result[:600]}")
        if self.hypotheses:
            lines.append(f"hypotheses: {self.hypotheses}")
        for p in self.points:
            lines.append(f"  at {_pt(p.point)} order {p.at}: rdpsym {_num(p.claimed)} vs oracle {_num(p.truth)} "
                         f"-> {p.verdict} {p.note} [{p.how}]")
        return "\n".join(lines)


def _num(v) -> str:
    if isinstance(v, mpmath.mpf):
        return "oo" if v == mpmath.inf else mpmath.nstr(v, 32)
    return str(v)


# the exception types that are rdpsym refusals (an allowed outcome, counted)
REFUSALS = (rdpsym.RdpSymError,)


def _order_points(c: Case, d) -> list:
    """(point, order) pairs to evaluate: every parameter point at the case's order (at each α for a symbolic
    order), plus points in every branch of a Piecewise result and on both sides of each α-boundary."""
    pairs = []
    if c.order == ALPHA:
        for pt in c.points:
            for a in c.alphas:
                pairs.append((pt, a))
    else:
        pairs = [(pt, c.order) for pt in c.points]
    result = d.result
    if not isinstance(result, sp.Piecewise):
        return pairs
    syms = sorted(c.symbols, key=lambda s: s.name)
    free = result.free_symbols

    def branch(pt, a):
        values = dict(pt)
        if c.order == ALPHA:
            values[ALPHA] = sp.Rational(a)
        for i, (_, cond) in enumerate(result.args):
            try:
                v = cond.subs(values)
            except Exception:  # noqa: BLE001 - an undecidable condition: no branch
                return None
            if v is sp.true or v == sp.true:
                return i
            if v is not sp.false and v != sp.false:
                return None
        return None

    covered = {branch(pt, a) for pt, a in pairs}
    candidates = []
    base_pts = list(c.points)
    if syms:
        for v in POINT_VALUES:
            for w in (1, 3, R(1, 5)):
                pt = {s: sp.Rational(v) if i % 2 == 0 else sp.Rational(v * w) for i, s in enumerate(syms)}
                base_pts.append(pt)
    grid = ALPHA_GRID if c.order == ALPHA else (c.order,)
    for pt in base_pts:
        for a in grid:
            candidates.append((pt, a))
    extra = []
    for pt, a in candidates:
        if len(extra) >= 3:
            break
        b = branch(pt, a)
        if b is not None and b not in covered:
            covered.add(b)
            extra.append((pt, a))
    if c.order == ALPHA and ALPHA in free:
        # next to each boundary in α (between neighbours of the grid that take different branches)
        for pt in c.points[:1]:
            for a1, a2 in zip(ALPHA_GRID, ALPHA_GRID[1:]):
                b1, b2 = branch(pt, a1), branch(pt, a2)
                if b1 is None or b2 is None or b1 == b2 or (a1 < 1 < a2):
                    continue
                lo, hi = sp.Rational(a1), sp.Rational(a2)
                for _ in range(12):
                    mid = (lo + hi) / 2
                    if branch(pt, mid) == b1:
                        lo = mid
                    else:
                        hi = mid
                extra += [(pt, lo), (pt, hi)]
                break
    return pairs + extra


def _claimed(d, c: Case, pt: dict, at) -> tuple:
    """rdpsym's value at a point (its own evalf), and a note.  A point outside the derivation's hypotheses
    (a result derived for α > 1 only, asked at α = 1/2) is refused by evalf (a DomainError, counted as a
    refusal): the result does not claim it."""
    values = dict(pt)
    if c.order == ALPHA:
        values[ALPHA] = sp.Rational(at)
    with mpmath.workdps(tor.ORACLE_DPS):  # the value converted at the oracle's precision, not rounded to 15 digits
        v = d.evalf(values, dps=ASK_DPS)
        return (mpmath.inf if v == mpmath.inf else mpmath.mpf(v)), ""


def compare(claimed, truth) -> str:
    if mpmath.isnan(claimed):
        return "WRONG"
    if truth == mpmath.inf or claimed == mpmath.inf:
        return "agree" if truth == claimed else "WRONG"
    if truth == 0:
        return "agree" if claimed == 0 else "WRONG"
    if claimed == 0 and abs(truth) < mpmath.mpf(10) ** (5 - tor.ORACLE_DPS):
        # the oracle's own rounding at its working precision (a supremum of log P − log Q over identical laws
        # read 1.6·10⁻⁵⁸ at 60 digits: seed 20, case 37): it cannot tell such a truth from 0
        return "inconclusive"
    return "agree" if tor.agree(claimed, truth, DIGITS) else "WRONG"


def run_case(c: Case, *, oracle_seconds: float = 60.0, derive=None, progress=None) -> CaseResult:
    """Derive the case with rdpsym and compare every answer with the oracle.  ``derive``: a callable
    (P, Q, order) -> Derivation (default rdpsym.renyi_divergence); ``progress(phase)`` is told each phase
    (``rdpsym: building the laws``, ``rdpsym: deriving``, ``rdpsym: evaluating``, ``oracle``), so that a
    caller that stops a case that does not return knows whose it was."""
    out = CaseResult(c)
    progress = progress or (lambda phase: None)
    start = time.process_time()
    try:
        for law in (c.P, c.Q):  # the grammar's own expressions first: a fault of the harness raises here
            if getattr(law, "table", None) is None:
                law.sympy_args()
        progress("rdpsym: building the laws")
        try:
            P, Q = c.P.sympy(), c.Q.sympy()
        except REFUSALS as exc:
            out.outcome, out.error = f"law-refused:{type(exc).__name__}", str(exc)[:400]
            return out
        except Exception as exc:  # noqa: BLE001 - a crash building a law is reported as such
            out.outcome, out.error = f"crash:{type(exc).__name__}", _tb(exc)
            return out
        progress("rdpsym: deriving")
        try:
            d = (derive or rdpsym.renyi_divergence)(P, Q, c.order)
        except REFUSALS as exc:
            out.outcome, out.error = f"refused:{type(exc).__name__}", str(exc)[:400]
            return out
        except Exception as exc:  # noqa: BLE001 - a non-rdpsym exception is a defect
            out.outcome, out.error = f"crash:{type(exc).__name__}", _tb(exc)
            return out
        out.status = str(getattr(d.status, "value", d.status))
        out.result = str(d.result)
        out.hypotheses = str(d.hypotheses)
        if out.status not in ("proved", "checked", "numeric"):
            out.outcome = f"no-status:{out.status}"
            return out
        for pt, at in _order_points(c, d):
            pr = PointResult(pt, at)
            out.points.append(pr)
            progress("rdpsym: evaluating")
            try:
                pr.claimed, pr.note = _claimed(d, c, pt, at)
            except REFUSALS as exc:
                pr.verdict, pr.claimed = f"refused:{type(exc).__name__}", str(exc)[:300]
                continue
            except Exception as exc:  # noqa: BLE001
                pr.verdict, pr.claimed = f"crash:{type(exc).__name__}", _tb(exc)
                continue
            order = at if c.order == ALPHA else c.order
            progress("oracle")
            try:
                pr.truth, pr.how = oracle(c, pt, order, oracle_seconds)
                pr.verdict = compare(pr.claimed, pr.truth)
                if pr.verdict == "WRONG" and not c.same:
                    # a second look (other cuts, a finer grid) before a disagreement is called wrong
                    again, how2 = oracle(c, pt, order, oracle_seconds, second_look=True)
                    if compare(again, pr.truth) != "agree":
                        pr.verdict, pr.how = "inconclusive", f"the oracle's two evaluations disagree: " \
                            f"{_num(pr.truth)} vs {_num(again)}"
                    elif compare(pr.claimed, again) == "agree":
                        pr.verdict = "inconclusive"
                        pr.how = f"the oracle's second look agrees with rdpsym: {_num(again)}"
            except Inconclusive as exc:
                pr.verdict, pr.how = "inconclusive", str(exc)
                try:  # a second look (other cuts, Q's scale as the unit, a finer grid) may settle an agreement;
                    # a disagreement it finds alone is not confirmed, and stays inconclusive
                    truth, how = oracle(c, pt, order, oracle_seconds, second_look=True)
                    if compare(pr.claimed, truth) == "agree":
                        pr.truth, pr.verdict, pr.how = truth, "agree", how + " (second look)"
                    else:
                        pr.how += f"; a second look alone gives {_num(truth)} ({how})"
                except Inconclusive:
                    pass
            if pr.verdict == "agree" and pr.claimed != mpmath.inf and pr.claimed < 0:
                pr.verdict = "WRONG"
        verdicts = [p.verdict for p in out.points]
        for kind in ("WRONG", "crash", "inconclusive", "refused", "agree"):
            hit = [v for v in verdicts if v.startswith(kind)]
            if hit:
                out.outcome = hit[0] if kind in ("crash", "refused") else kind
                if kind in ("crash", "refused"):
                    out.outcome = "eval-" + out.outcome
                break
        else:
            out.outcome = "inconclusive"
        return out
    finally:
        out.seconds = time.process_time() - start


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-6))[-2000:]


def reproduction(c: Case, point: dict | None = None, at=None) -> str:
    """A self-contained Python snippet that rebuilds the case and prints rdpsym's answer."""
    lines = [
        "import sympy as sp, rdpsym",
        'x = sp.Symbol("x", real=True); k = sp.Symbol("k", integer=True)',
        "NS = {'x': x, 'k': k, 'pi': sp.pi, 'E': sp.E, "
        + ", ".join(f"'{n}': sp.Symbol('{n}', positive=True)" for n in sorted(SYMS)) + "}",
        f"P = {c.P.source()}",
        f"Q = {c.Q.source()}",
        f"d = rdpsym.renyi_divergence(P, Q, {'rdpsym.alpha' if c.order == ALPHA else _src(c.order)})",
        "print(d.result, d.status, d.hypotheses)",
    ]
    if point is not None:
        values = ", ".join(f"NS['{s.name}']: sp.Rational('{v}')" for s, v in point.items())
        if c.order == ALPHA:
            values = (values + ", " if values else "") + f"rdpsym.alpha: sp.Rational('{at}')"
        lines.append(f"print(d.evalf({{{values}}}, dps=36))")
    return "\n".join(lines)


def _src(order) -> str:
    if order == oo:
        return "sp.oo"
    return f"sp.Rational('{order}')"
