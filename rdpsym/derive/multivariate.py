"""Rényi divergences of laws in several variables (:mod:`rdpsym.laws.multivariate`), derived and checked.

:func:`rdpsym.renyi_divergence` hands every pair with a multivariate law here
(:func:`joint_divergence`); :func:`rdpsym.renyi_divergence_mp` hands the
numeric definition here (:func:`joint_divergence_mp`).  The routes, tried in
this order on the blocks the two laws are aligned into:

1. **Independent coordinates** (a product measure, or a joint density that
   separates): D_α(⊗P_i‖⊗Q_i) = Σ_i D_α(P_i‖Q_i) at every order, KL and D_∞
   included (additivity: van Erven–Harremoës 2014, Theorem 28).  Each
   coordinate is derived by the one-dimensional engine, as a step of the
   derivation; n identical coordinates give n·D, kept in that compact form;
   a coordinate whose two laws coincide contributes 0 (Mironov 2017, Prop 8).
2. **Gaussian blocks** (log-densities quadratic on ℝ^d: the multivariate
   normal, written as a :class:`~rdpsym.laws.multivariate.MultivariateNormal`
   or as any joint pdf of that form): the moment is a Gaussian integral in d
   dimensions, done by completing the square
   (:func:`rdpsym.engine.quadratic.gaussian_integral`), finite iff
   Σ_α = αΣ₂ + (1−α)Σ₁ ≻ 0; the KL is the expectation of a quadratic under
   P; D_∞ the supremum of a quadratic.  Each result is then rewritten in the
   form of Gil–Alajaji–Linder 2013 and *proved* equal by rational identities.
3. **Finite discrete blocks**: the table of joint outcomes (the 1-D engine's
   finite sums).
4. Anything else: a labelled numeric value from the definition when no
   parameters are left, else :class:`~rdpsym.foundations.errors.NoClosedFormError`.

Every closed form is checked against the definition at sampled parameter
points, to 40 digits, by a numeric route independent of the symbolic one:
coordinates by one-dimensional quadrature of their definitions (moments
multiplied), Gaussian blocks by the d-dimensional integral in the frame of a
numeric (mpmath) eigen-decomposition of the integrand's Hessian, read off the
raw densities.  A mechanism whose reference carries a sensitivity ball
(``rdpsym.gaussian(σ, Δ, dimension=d)``, ``rdpsym.laplace(b, Δ, dimension=d)``)
has its worst case over the ball derived as steps, and checked at other shifts.

>>> import sympy as sp, rdpsym
>>> s = sp.Symbol("sigma", positive=True)
>>> d = sp.Symbol("d", integer=True, positive=True)
>>> r = rdpsym.gaussian(s, 1, dimension=d).rdp()
>>> r.result, r.status
(alpha/(2*sigma**2), <Status.PROVED: 'proved'>)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from rdpsym.derive.definition import numeric_order, univariate_divergence_mp
from rdpsym.derive.derivation import Derivation
from rdpsym.derive.sampling import sample_points
from rdpsym.derive.univariate import univariate_divergence
from rdpsym.derive.values import branch_at, closed_value, shown
from rdpsym.derive.verify import AGREE_DIGITS, POINTS, Check
from rdpsym.engine.context import Hypotheses, simplify_condition
from rdpsym.engine.quadratic import (
    compact_det,
    gaussian_integral,
    leading_minors,
    log_quadratic,
    positive_condition,
    positive_definite,
    tidy_signs,
)
from rdpsym.foundations.errors import (
    ConvergenceError,
    DensityError,
    DomainError,
    NoClosedFormError,
    ParameterError,
    VerificationError,
    must,
)
from rdpsym.foundations.notation import (
    Coordinates,
    DensityAt,
    Det,
    IntegralOverSpace,
    JointMoment,
    KLExpectation,
    Linear,
    Norm,
    NormalLaw,
    ProductLaw,
    QuadraticForm,
    RenyiDivergence,
    Shifted,
    SupLogRatio,
    Trace,
)
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.numbers import Digits
from rdpsym.foundations.precision import sympy_evalf_guard
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import parse_order
from rdpsym.foundations.record import (
    GIL_ALAJAJI_LINDER_2013,
    Additivity,
    AgreesByRoute,
    ConvexCost,
    Definition,
    Diverges,
    FromDefinition,
    GaussianExpectation,
    GaussianIntegral,
    Given,
    IdenticalLaws,
    LiteratureForm,
    NoClosedForm,
    NotShownEqual,
    Numeric,
    ProvedEqual,
    Published,
    QuadraticExponent,
    QuadraticSupremum,
    Separates,
    ShiftCoordinates,
    Simplified,
    Status,
    Step,
    SumOfCoordinates,
    SumOfSquares,
    TakeLogarithm,
    WorstCaseChecked,
    WorstCaseOverBall,
    point_items,
    weakest,
)
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.densities import Continuous, Density, Discrete, parameter_values
from rdpsym.laws.multivariate import (
    Independent,
    Joint,
    Law,
    MultivariateNormal,
    SensitivityBall,
    ball_of,
    dimension_of,
    product_outcomes,
    variables_of,
)
from rdpsym.quadrature.compile import to_mpf

oo = sp.oo

__all__ = ["Block", "align", "joint_divergence", "joint_divergence_mp", "numeric_block"]


# =========================================================================== alignment into blocks


@dataclass(frozen=True)
class Block:
    """Coordinates on which P and Q are ``p`` and ``q`` (laws of the same dimension, Q written in P's
    variables), repeated ``copies`` times (a number or a symbol)."""

    p: object
    q: object
    copies: sp.Expr


def _segments(law: object) -> list[list]:
    """The law as ``[[coordinate law, copies], ...]``: products flattened, separable joints split."""
    if isinstance(law, Density):
        return [[law, sp.S.One]]
    if isinstance(law, Independent):
        out: list[list] = []
        for part, copies in law.blocks():
            inner = _segments(part)
            if len(inner) == 1:
                out.append([inner[0][0], inner[0][1] * copies])
            elif copies.is_number:
                out += [[lw, c] for _ in range(int(copies)) for lw, c in inner]
            else:
                out.append([part, copies])
        return out
    if isinstance(law, Joint):
        parts = law.coordinates()
        flat = [v for variables, _ in parts for v in variables]
        if len(parts) > 1 and tuple(flat) == law.variables:
            return [[_one_dimensional(lw), sp.S.One] for _, lw in parts]
        return [[_one_dimensional(law), sp.S.One]]
    if isinstance(law, MultivariateNormal):
        return [[_one_dimensional(law), sp.S.One]]
    raise DensityError(must("P and Q", "rdpsym laws (Continuous, Discrete, Joint, MultivariateNormal, Independent)",
                            type(law).__name__))


def _one_dimensional(law: object) -> object:
    """A law of dimension 1 as a 1-D density (the one-dimensional engine's input); others unchanged."""
    if isinstance(law, Density) or dimension_of(law) != 1:
        return law
    j = law.joint()
    kind = Discrete if j.discrete else Continuous
    return kind(j.pdf, j.variables[0], j.support[0], check=False)


def _smaller(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a == b:
        return a
    diff = sp.simplify(a - b)
    if diff.is_nonnegative:
        return b
    if diff.is_nonpositive:
        return a
    raise NoClosedFormError(f"cannot align {a} coordinates of P with {b} coordinates of Q")


def _renamed(q: object, p: object) -> object:
    """``q`` written in ``p``'s variables."""
    if isinstance(q, Density):
        if isinstance(p, Density) and p.var is not None and q.var is not None and q.var != p.var:
            return q.renamed(p.var)
        return q
    target = variables_of(p)
    return q if variables_of(q) == target else q.renamed(target)


def _take(segments: list[list], i: int) -> object:
    """One coordinate unit from ``segments[i]`` (its count must be a number)."""
    law, copies = segments[i]
    if not copies.is_number:
        raise NoClosedFormError("cannot align a symbolic number of coordinates with blocks of another dimension")
    segments[i][1] = copies - 1
    return law


def _product(laws: list) -> object:
    return laws[0] if len(laws) == 1 else Independent(*laws).joint()


def align(P: object, Q: object) -> list[Block]:
    """P and Q as aligned blocks of equal dimension (equal neighbours grouped, Q in P's variables).

    >>> import sympy as sp, rdpsym
    >>> x = sp.Symbol("x", real=True)
    >>> d = sp.Symbol("d", integer=True, positive=True)
    >>> Z = rdpsym.Continuous(sp.exp(-x**2/2)/sp.sqrt(2*sp.pi), x)
    >>> Z1 = rdpsym.Continuous(sp.exp(-(x - 1)**2/2)/sp.sqrt(2*sp.pi), x)
    >>> [b.copies for b in align(Z ** d, Independent(Z1, Z ** (d - 1)))]
    [1, d - 1]
    """
    sp_, sq = _segments(P), _segments(Q)
    i = j = 0
    out: list[Block] = []
    while i < len(sp_) and j < len(sq):
        if sp_[i][1] == 0:
            i += 1
            continue
        if sq[j][1] == 0:
            j += 1
            continue
        lp, cp = sp_[i]
        lq, cq = sq[j]
        if dimension_of(lp) == dimension_of(lq):
            m = _smaller(cp, cq)
            out.append(Block(lp, _renamed(lq, lp), m))
            sp_[i][1] = sp.expand(cp - m)
            sq[j][1] = sp.expand(cq - m)
            continue
        units_p, units_q = [_take(sp_, i)], [_take(sq, j)]
        while sum(int(dimension_of(u)) for u in units_p) != sum(int(dimension_of(u)) for u in units_q):
            short_p = sum(int(dimension_of(u)) for u in units_p) < sum(int(dimension_of(u)) for u in units_q)
            segments, k = (sp_, i) if short_p else (sq, j)
            while k < len(segments) and segments[k][1] == 0:
                k += 1
            if k == len(segments):
                break
            (units_p if short_p else units_q).append(_take(segments, k))
            if short_p:
                i = k
            else:
                j = k
        bp, bq = _product(units_p), _product(units_q)
        out.append(Block(bp, _renamed(bq, bp), sp.S.One))
    rest = [c for _, c in sp_[i:] + sq[j:] if c != 0]
    if rest or dimension_of_blocks(out) is None:
        raise DensityError(must("P and Q", "laws of the same dimension",
                                f"dimensions {dimension_of(P)} and {dimension_of(Q)}"))
    return _grouped(out)


def dimension_of_blocks(blocks: list[Block]) -> sp.Expr | None:
    return sp.Add(*[dimension_of(b.p) * b.copies for b in blocks]) if blocks else None


def _grouped(blocks: list[Block]) -> list[Block]:
    out: dict[tuple, sp.Expr] = {}
    for b in blocks:
        out[(b.p, b.q)] = out.get((b.p, b.q), sp.S.Zero) + b.copies
    return [Block(p, q, c) for (p, q), c in out.items() if c != 0]


# =========================================================================== one block's divergence


@dataclass
class Part:
    """One block's divergence: ``value`` (under ``conditions``; oo; or an mpf when numeric) and its steps."""

    value: object
    conditions: tuple
    steps: list
    status: Status
    evidence: list = field(default_factory=list)
    hypotheses: tuple = ()
    numeric: bool = False


def _rename_steps(steps, mapping: dict) -> list[Step]:
    def sub(e):
        return e.xreplace(mapping) if isinstance(e, sp.Basic) else e
    return [Step(sub(s.lhs), s.relation, sub(s.rhs), s.rule, s.status) for s in steps]


def _divergence(first, second, order) -> RenyiDivergence:
    return RenyiDivergence(first, second, order)


def _derive_block(block: Block, order, hyp: Hypotheses, names: tuple) -> Part:
    p, q = block.p, block.q
    Pn, Qn = names
    if p == q:
        return Part(sp.S.Zero, (), [Step(_divergence(Pn, Qn, order), "=", 0, IdenticalLaws())], Status.PROVED)
    if isinstance(p, Density) and isinstance(q, Density):
        d1 = univariate_divergence(p, q, order)
        steps = _rename_steps(d1.steps, {P_: Pn, Q_: Qn})
        numeric = d1.status == Status.NUMERIC
        value = d1.result if numeric or d1.closed_form is None else d1.closed_form
        return Part(value, d1.conditions, steps, d1.status, list(d1.evidence), numeric=numeric)
    if isinstance(p, Density) != isinstance(q, Density):
        raise DensityError("P and Q must both be Continuous or both Discrete on each coordinate; got one of each.")
    pair = gaussian_pair(p, q)
    if pair is not None:
        return _gaussian_part(pair, order, hyp, names)
    table = _tables(p, q)
    if table is not None:
        d1 = univariate_divergence(*table, order)
        return Part(d1.closed_form if d1.closed_form is not None else d1.result, d1.conditions,
                    _rename_steps(d1.steps, {P_: Pn, Q_: Qn}), d1.status, list(d1.evidence))
    free = _free(p) | _free(q)
    if free or isinstance(order, sp.Symbol):
        shown = ", ".join(sorted(map(str, free | ({order} if isinstance(order, sp.Symbol) else set()))))
        raise NoClosedFormError(f"no closed form for a block of dimension {dimension_of(p)} that neither separates "
                                f"nor is Gaussian; for a numeric value give {shown} values: "
                                "renyi_divergence_mp(P, Q, order, values={...}).")
    value = numeric_block(p, q, order, 50)
    value = Digits(value, 50) if mpmath.isfinite(value) else value
    why = "a joint block that neither separates nor is Gaussian"
    return Part(value, (), [Step(_divergence(Pn, Qn, order), "=", sp.Float(value, 50) if value != mpmath.inf
                                 else oo, Numeric(50, why), Status.NUMERIC)], Status.NUMERIC,
                [NoClosedForm(why)], numeric=True)


def _free(law) -> set:
    return set(law.parameters)


def _tables(p, q):
    """Finite discrete joint blocks as 1-D tables of their outcomes (tuples), or None."""
    if not (getattr(p, "discrete", False) and getattr(q, "discrete", False)):
        return None
    jp, jq = p.joint(), q.joint().renamed(p.joint().variables)
    points = product_outcomes(jp.support)
    points_q = product_outcomes(jq.support)
    if points is None or points_q is None:
        return None
    table_p = {pt: jp.pdf.subs(dict(zip(jp.variables, pt))) for pt in points}
    table_q = {pt: jq.pdf.subs(dict(zip(jq.variables, pt))) for pt in points_q}
    return Discrete(table_p, check=False), Discrete(table_q, check=False)


# --------------------------------------------------------------------------- Gaussian blocks


@dataclass(frozen=True)
class GaussianPair:
    """Two Gaussian densities on ℝ^d read off their expressions: P = C_p·exp(−½xᵀA_p x + b_pᵀx + c_p), same for Q;
    their covariances Σ = A⁻¹ and means μ = Σb."""

    variables: tuple
    cp: sp.Expr
    Ap: sp.Matrix
    bp: sp.Matrix
    c0p: sp.Expr
    cq: sp.Expr
    Aq: sp.Matrix
    bq: sp.Matrix
    c0q: sp.Expr
    S1: sp.Matrix
    m1: sp.Matrix
    S2: sp.Matrix
    m2: sp.Matrix
    normals: bool  # both given as MultivariateNormal

    @property
    def d(self) -> int:
        return len(self.variables)


def _tidy(M: sp.Matrix) -> sp.Matrix:
    return M.applyfunc(lambda e: tidy_signs(sp.factor(sp.cancel(e))))


def _inverse(A: sp.Matrix) -> sp.Matrix:
    return _tidy(A.adjugate(method="berkowitz") / sp.factor(A.det(method="berkowitz")))


def _gaussian_of(law) -> tuple | None:
    """(C, A, b, c, Σ, μ) of a Gaussian law, or None."""
    if isinstance(law, MultivariateNormal):
        S = sp.Matrix(law.covariance)
        m = sp.Matrix(law.mean)
        A = sp.Matrix(law.precision)
        d = S.rows
        C = 1 / sp.sqrt((2 * sp.pi) ** d * sp.factor(S.det(method="berkowitz")))
        return C, A, _tidy(A * m), sp.factor(-(m.T * A * m)[0, 0] / 2), S, m
    j = law.joint() if isinstance(law, Law) else None
    if j is None or j.discrete or any(s != sp.Interval(-oo, oo) for s in j.support):
        return None
    read = log_quadratic(j.pdf, j.variables)
    if read is None:
        return None
    C, A, b, c = read
    S = _inverse(A)
    return C, A, b, c, S, _tidy(S * b)


def gaussian_pair(p, q) -> GaussianPair | None:
    """The two blocks as Gaussians (in p's variables), or None when either is not one."""
    if dimension_of(p) == 1 or not isinstance(p, Law) or not isinstance(q, Law):
        return None
    gp, gq = _gaussian_of(p), _gaussian_of(q)
    if gp is None or gq is None:
        return None
    return GaussianPair(variables_of(p), *gp[:4], *gq[:4], gp[4], gp[5], gq[4], gq[5],
                        isinstance(p, MultivariateNormal) and isinstance(q, MultivariateNormal))


def _det(M: sp.Matrix) -> sp.Expr:
    return sp.factor(M.det(method="berkowitz"))


def _shown_det(M: sp.Matrix) -> sp.Expr:
    """det M as the result prints it (ad − bc for 2×2)."""
    return compact_det(M)


def _shown_quad(v: sp.Matrix, M: sp.Matrix) -> sp.Expr:
    """vᵀ adj(M) v as the result prints it: v₁²M₂₂ − 2v₁v₂M₁₂ + v₂²M₁₁ for 2×2, else factored."""
    if M.rows == 2:
        return v[0] ** 2 * M[1, 1] - 2 * v[0] * v[1] * M[0, 1] + v[1] ** 2 * M[0, 0]
    return sp.factor(sp.cancel((v.T * M.adjugate(method="berkowitz") * v)[0, 0]))


def _quad(v: sp.Matrix, M_inverse: sp.Matrix) -> sp.Expr:
    return sp.factor(sp.cancel((v.T * M_inverse * v)[0, 0]))


def _same(A: sp.Matrix, B: sp.Matrix) -> bool:
    return all(sp.cancel(a - b) == 0 for a, b in zip(A, B))


def _symbols(d: int) -> dict:
    """The generic matrices of the steps: A, b, x, c, Σ₁, Σ₂, Σ_α and Δμ = μ₁ − μ₂ (SymPy matrix symbols)."""
    return {"A": sp.MatrixSymbol("A", d, d), "b": sp.MatrixSymbol("b", d, 1), "x": sp.MatrixSymbol("x", d, 1),
            "c": sp.Symbol("c"), "S1": sp.MatrixSymbol("Sigma_1", d, d), "S2": sp.MatrixSymbol("Sigma_2", d, d),
            "Sa": sp.MatrixSymbol("Sigma_alpha", d, d), "M": sp.MatrixSymbol("M", d, d),
            "dmu": sp.MatrixSymbol(r"\Delta\mu", d, 1), "beta": sp.MatrixSymbol("beta", d, 1)}


def _gaussian_part(g: GaussianPair, order, hyp: Hypotheses, names: tuple) -> Part:
    """D_order of two Gaussian blocks: the d-dimensional integral, its literature form, proved equal."""
    Pn, Qn = names
    X = Coordinates(*g.variables)
    steps = []
    if not g.normals:
        steps.append(Step(Pn, "=", _normal(g.S1, g.m1), Given("normal")))
        steps.append(Step(Qn, "=", _normal(g.S2, g.m2), Given("normal")))
    hypotheses = tuple(c for S in (g.S1, g.S2) for c in positive_definite(S, Hypotheses())[1])
    if order is oo:
        return _gaussian_sup(g, hyp, names, steps, hypotheses)
    if order == 1:
        return _gaussian_kl(g, names, steps, hypotheses)
    a = order
    d = g.d
    G = _symbols(d)
    dmu = _tidy(g.m1 - g.m2)
    S_alpha = _tidy(a * g.S2 + (1 - a) * g.S1)
    # Convergence: A = αΣ₁⁻¹ + (1−α)Σ₂⁻¹ = Σ₁⁻¹Σ_αΣ₂⁻¹ is positive definite iff Σ_α is (simultaneous
    # diagonalisation of Σ₁ and Σ₂), so the condition is stated on Σ_α, as the literature states it.
    definite, found = positive_definite(S_alpha, hyp)
    conditions = () if definite is not None else tuple(c for c in found if not _implied(c, hypotheses, hyp))
    A = _tidy(a * g.Ap + (1 - a) * g.Aq)
    b = _tidy(a * g.bp + (1 - a) * g.bq)
    c0 = tidy_signs(sp.factor(a * g.c0p + (1 - a) * g.c0q))
    C = sp.powsimp(g.cp ** a * g.cq ** (1 - a)) if g.cp != g.cq else g.cp
    moment = JointMoment(Pn, Qn, a, X)
    D = _divergence(Pn, Qn, a)
    steps.append(Step(D, "=", _log_over(moment, a), Definition()))
    exponent = -QuadraticForm(G["x"], G["A"]) / 2 + Linear(G["b"], G["x"]) + G["c"]
    integral = IntegralOverSpace(sp.exp(exponent), G["x"], d)
    steps.append(Step(moment, "=", sp.Mul(C, integral, evaluate=False), QuadraticExponent()))
    steps.append(Step(G["A"], "=", A, QuadraticExponent()))
    if any(b):
        steps.append(Step(G["b"], "=", b, QuadraticExponent()))
    steps.append(Step(G["c"], "=", c0, QuadraticExponent()))
    rule = GaussianIntegral(sp.Integer(d), sp.And(*conditions) if conditions else sp.true)
    generic = (2 * sp.pi) ** sp.Rational(d, 2) * Det(G["A"]) ** sp.Rational(-1, 2) * sp.exp(
        G["c"] + QuadraticForm(G["b"], G["A"].I) / 2)
    steps.append(Step(integral, "=", generic, rule))
    if definite is False:
        steps.append(Step(G["Sa"], "=", S_alpha, Given("alpha-covariance")))
        steps.append(Step(D, "=", oo, Diverges("not-positive-definite", expression=S_alpha)))
        return Part(oo, (), steps, Status.PROVED, hypotheses=hypotheses)
    value = gaussian_integral(A, b, c0, hyp, decided=(definite, conditions))
    det1, det2, det_a = _det(g.S1), _det(g.S2), _det(S_alpha)
    adj_a = S_alpha.adjugate(method="berkowitz")
    proved = _gal_identities(g, a, value, det1, det2, det_a, dmu, adj_a)
    if not proved:  # the derived value, as derived (verified against the definition below)
        I = C * value.value
        steps.append(Step(moment, "=", I, rule))
        raw = sp.log(I) / (a - 1)
        steps.append(Step(D, "=", raw, TakeLogarithm(a)))
        return Part(raw, conditions, steps, Status.CHECKED, [NotShownEqual(GIL_ALAJAJI_LINDER_2013)], hypotheses)
    # The literature's form (Gil, Alajaji, Linder 2013): det A = det Σ_α/(det Σ₁ det Σ₂), the normalisers
    # C² = ((2π)^d det Σ)^{-1}, and c + ½bᵀA⁻¹b = −½α(1−α)·ΔμᵀΣ_α⁻¹Δμ, each a rational identity (checked).
    gal_moment = Det(G["Sa"]) ** sp.Rational(-1, 2) * Det(G["S1"]) ** ((1 - a) / 2) * Det(G["S2"]) ** (a / 2) * \
        sp.exp(-a * (1 - a) / 2 * QuadraticForm(G["dmu"], G["Sa"].I))
    steps.append(Step(moment, "=", gal_moment, LiteratureForm(GIL_ALAJAJI_LINDER_2013), Status.PROVED))
    generic_gal = a / 2 * QuadraticForm(G["dmu"], G["Sa"].I) - _log_term(
        1 / (2 * (a - 1)), Det(G["Sa"]), sp.Mul(Det(G["S1"]) ** (1 - a), Det(G["S2"]) ** a, evaluate=False))
    steps.append(Step(D, "=", generic_gal, TakeLogarithm(a)))
    steps.append(Step(G["Sa"], "=", S_alpha, Given("alpha-covariance")))
    shown_a = det_a if det_a.is_number else _shown_det(S_alpha)
    if not any(dmu):
        quadratic = sp.S.Zero
    elif det_a.is_number or _same(g.S1, g.S2):  # a number, or Σ_α = Σ: one fraction, as the literature has it
        quadratic = tidy_signs(sp.factor(sp.cancel(a * (dmu.T * adj_a * dmu)[0, 0] / (2 * det_a))))
    else:
        quadratic = a * _shown_quad(dmu, S_alpha) / (2 * shown_a)
    log_part = sp.S.Zero if _same(g.S1, g.S2) else _log_term(
        1 / (2 * (a - 1)), shown_a * tidy_signs(det1) ** (a - 1), tidy_signs(det2) ** a)
    result = quadratic - log_part
    steps.append(Step(D, "=", result, Simplified()))
    return Part(result, conditions, steps, Status.PROVED, [ProvedEqual(GIL_ALAJAJI_LINDER_2013, "moments")],
                hypotheses)


def _log_term(coefficient: sp.Expr, numerator: sp.Expr, denominator: sp.Expr) -> sp.Expr:
    """coefficient·log(numerator/denominator), the fraction kept as written (a ratio of determinants);
    a ratio of numbers, or with factors 1, is evaluated."""
    if numerator.is_number and denominator.is_number:
        return coefficient * sp.log(numerator / denominator)
    if numerator == 1:
        return -coefficient * sp.log(denominator)
    if denominator == 1:
        return coefficient * sp.log(numerator)
    ratio = sp.Mul(numerator, sp.Pow(denominator, -1, evaluate=False), evaluate=False)
    return sp.Mul(coefficient, sp.log(ratio, evaluate=False), evaluate=False)


def _implied(condition: sp.Basic, hypotheses: tuple, hyp: Hypotheses) -> bool:
    """Whether ``minor > 0`` follows from a hypothesis ``h > 0`` on the laws (minor = h times a positive factor):
    with Σ₁ = Σ₂, Σ_α ≻ 0 is the laws' own Σ ≻ 0, a hypothesis, not a condition of convergence."""
    for h in hypotheses:
        if not isinstance(h, sp.StrictGreaterThan) or not isinstance(condition, sp.StrictGreaterThan):
            continue
        ratio = sp.cancel(sp.together(condition.lhs / h.lhs))
        if ratio.is_positive or hyp.is_positive(ratio):
            return True
    return False


def _normal(S: sp.Matrix, m: sp.Matrix) -> NormalLaw:
    return NormalLaw(m, S)


def _log_over(moment, order):
    log = sp.log(moment, evaluate=False)
    return log if order == 2 else sp.Mul(1 / (order - 1), log, evaluate=False)


def _zero(e: sp.Expr) -> bool:
    return sp.cancel(sp.together(sp.expand(e))) == 0


def _gal_identities(g: GaussianPair, a, value, det1, det2, det_a, dmu, adj_a) -> bool:
    """The derived moment equals the literature's, by three rational identities (no logarithm is expanded):

    C_p² (2π)^d det Σ₁ = 1 (and for Q: the normalisers), det A · det Σ₁ · det Σ₂ = det Σ_α, and
    c + ½bᵀA⁻¹b = −½α(1−α)·ΔμᵀΣ_α⁻¹Δμ − ½α μ... (the exponent, with the normalisers' parts removed).
    """
    d = g.d
    try:
        normalisers = all(_zero(c**2 * (2 * sp.pi) ** d * dt - 1) for c, dt in ((g.cp, det1), (g.cq, det2)))
        determinant = _zero(value.determinant * det1 * det2 - det_a)
        target = -a * (1 - a) / 2 * (dmu.T * adj_a * dmu)[0, 0] / det_a if any(dmu) else 0
        exponent = _zero(value.exponent - target)
    except (TypeError, ValueError):
        return False
    return normalisers and determinant and exponent


def _gaussian_kl(g: GaussianPair, names: tuple, steps: list, hypotheses: tuple) -> Part:
    """KL = E_P[log P − log Q]: the expectation of a quadratic under P = N(μ₁, Σ₁)."""
    Pn, Qn = names
    X = Coordinates(*g.variables)
    d = g.d
    G = _symbols(d)
    mu1 = sp.MatrixSymbol("mu_1", d, 1)
    M = _tidy(g.Ap - g.Aq)
    beta = _tidy(g.bp - g.bq)
    gamma = tidy_signs(sp.factor(g.c0p - g.c0q))
    logC = sp.log(g.cp / g.cq)
    D = _divergence(Pn, Qn, 1)
    steps.append(Step(D, "=", KLExpectation(Pn, Qn, X), Definition(limit=sp.S.One)))
    ratio = sp.log(DensityAt(Pn, X) / DensityAt(Qn, X), evaluate=False)
    generic = logC - QuadraticForm(G["x"], G["M"]) / 2 + Linear(G["beta"], G["x"]) + G["c"]
    steps.append(Step(ratio, "=", generic, QuadraticExponent(kl=True)))
    steps.append(Step(G["M"], "=", M, QuadraticExponent(kl=True)))
    if any(beta):
        steps.append(Step(G["beta"], "=", beta, QuadraticExponent(kl=True)))
    steps.append(Step(G["c"], "=", gamma, QuadraticExponent(kl=True)))
    expectation = logC - (Trace(G["M"] * G["S1"]) + QuadraticForm(mu1, G["M"])) / 2 + Linear(G["beta"], mu1) + G["c"]
    steps.append(Step(D, "=", expectation, GaussianExpectation()))
    trace = sp.cancel((M * g.S1).trace())
    rational = sp.factor(sp.cancel(-(trace + (g.m1.T * M * g.m1)[0, 0]) / 2 + (beta.T * g.m1)[0, 0] + gamma))
    det1, det2 = _det(g.S1), _det(g.S2)
    S2inv = _inverse(g.S2)
    dmu = _tidy(g.m1 - g.m2)
    gal_rational = tidy_signs(sp.factor(sp.cancel(((S2inv * g.S1).trace() - d + (dmu.T * S2inv * dmu)[0, 0]) / 2)))
    proved = _zero(rational - gal_rational) and _zero((g.cp / g.cq) ** 2 * det1 / det2 - 1)
    if not proved:
        raw = rational + logC
        steps.append(Step(D, "=", raw, Simplified()))
        return Part(raw, (), steps, Status.CHECKED, [NotShownEqual(GIL_ALAJAJI_LINDER_2013)], hypotheses)
    generic_gal = sp.Mul(sp.Rational(1, 2), sp.Add(Trace(G["S2"].I * G["S1"]), -d, QuadraticForm(G["dmu"], G["S2"].I),
                                                    sp.log(sp.Mul(Det(G["S2"]), sp.Pow(Det(G["S1"]), -1),
                                                                  evaluate=False), evaluate=False)),
                         evaluate=False)
    steps.append(Step(D, "=", generic_gal, LiteratureForm(GIL_ALAJAJI_LINDER_2013), Status.PROVED))
    log_part = sp.S.Zero if _zero(det1 - det2) else _log_term(sp.Rational(1, 2), tidy_signs(det2), tidy_signs(det1))
    result = gal_rational + log_part
    steps.append(Step(D, "=", result, Simplified()))
    return Part(result, (), steps, Status.PROVED, [ProvedEqual(GIL_ALAJAJI_LINDER_2013, "expressions")], hypotheses)


def _gaussian_sup(g: GaussianPair, hyp: Hypotheses, names: tuple, steps: list, hypotheses: tuple) -> Part:
    """D_∞ = sup log P/Q with log P/Q = log C − ½xᵀMx + βᵀx + γ, M = Σ₁⁻¹ − Σ₂⁻¹."""
    Pn, Qn = names
    X = Coordinates(*g.variables)
    x = sp.Matrix(g.variables)
    M = _tidy(g.Ap - g.Aq)
    beta = _tidy(g.bp - g.bq)
    gamma = sp.factor(g.c0p - g.c0q) + sp.log(g.cp / g.cq)
    steps.append(Step(_divergence(Pn, Qn, oo), "=", SupLogRatio(Pn, Qn, X), Definition(limit=oo)))
    ratio = sp.expand(-(x.T * M * x)[0, 0] / 2 + (beta.T * x)[0, 0]) + gamma
    steps.append(Step(sp.log(DensityAt(Pn, X) / DensityAt(Qn, X), evaluate=False), "=", ratio,
                      QuadraticExponent(kl=True)))
    D = _divergence(Pn, Qn, oo)
    if all(e == 0 for e in M):
        # Equal covariances: log P/Q = βᵀx + γ with β = Σ⁻¹(μ₁ − μ₂) is affine on ℝ^d, unbounded above
        # along β unless β = 0, i.e. unless the means are equal too, and then P = Q and D_∞ = 0.
        dmu = [sp.factor(e) for e in _tidy(g.m1 - g.m2)]
        nonzero = [e for e in dmu if e != 0]
        if not nonzero:
            steps.append(Step(D, "=", 0, IdenticalLaws()))
            return Part(sp.S.Zero, (), steps, Status.PROVED, hypotheses=hypotheses)
        if any(hyp.is_zero(e) is False for e in nonzero):
            why = Diverges("affine", expression=(beta.T * x)[0, 0])
            steps.append(Step(D, "=", oo, why))
            return Part(oo, (), steps, Status.PROVED, hypotheses=hypotheses)
        value = sp.Piecewise((oo, sp.Or(*[sp.Ne(e, 0) for e in nonzero])), (0, True))
        steps.append(Step(D, "=", value, QuadraticSupremum("affine")))
        return Part(value, (), steps, Status.PROVED, hypotheses=hypotheses)
    definite, conditions = positive_definite(M, hyp)
    vertex = sp.factor(sp.cancel(sp.together((beta.T * _inverse(M) * beta)[0, 0] / 2 + sp.factor(g.c0p - g.c0q))))
    vertex = vertex + sp.log(g.cp / g.cq)
    # The literature's form: ½ log(det Σ₂/det Σ₁) + ½ Δμᵀ(Σ₂ − Σ₁)⁻¹Δμ, for Σ₂ − Σ₁ ≻ 0.
    dmu = _tidy(g.m1 - g.m2)
    gap = _tidy(g.S2 - g.S1)
    det1, det2 = _det(g.S1), _det(g.S2)
    nice = _log_term(sp.Rational(1, 2), tidy_signs(det2), tidy_signs(det1)) + (
        tidy_signs(_quad(dmu, _inverse(gap))) / 2 if any(dmu) else 0)
    proved = _zero(vertex - sp.log(g.cp / g.cq) - (_quad(dmu, _inverse(gap)) / 2 if any(dmu) else 0)) and \
        _zero((g.cp / g.cq) ** 2 * det1 / det2 - 1)
    best = nice if proved else vertex
    if definite is True:
        steps.append(Step(D, "=", best, QuadraticSupremum("vertex")))
        return Part(best, (), steps, Status.PROVED, hypotheses=hypotheses)
    negative = _not_semidefinite(M, hyp)
    if definite is False and negative is True:
        why = Diverges("direction", expression=M)
        steps.append(Step(D, "=", oo, why))
        return Part(oo, (), steps, Status.PROVED, hypotheses=hypotheses)
    if not M.free_symbols:
        value = _sup_exact(M, beta, gamma)
        steps.append(Step(D, "=", value, QuadraticSupremum("boundary")))
        return Part(value, (), steps, Status.PROVED, hypotheses=hypotheses)
    eps = sp.Dummy("epsilon", positive=True)
    shifted = M + eps * sp.eye(M.rows)
    boundary = sp.Limit(sp.cancel((beta.T * shifted.adjugate() * beta)[0, 0] / shifted.det()) / 2 + gamma, eps, 0,
                        "+")
    pd = sp.And(*[positive_condition(m, hyp) for m in leading_minors(M)])
    not_psd = sp.Or(*[positive_condition(-m, hyp) for m in _principal_minors(M)])
    value = sp.Piecewise((best, pd), (oo, not_psd), (boundary, True))
    steps.append(Step(D, "=", value, QuadraticSupremum("cases")))
    return Part(value, (), steps, Status.PROVED, hypotheses=hypotheses)


def _principal_minors(M: sp.Matrix) -> list[sp.Expr]:
    from itertools import combinations

    n = M.rows
    return [sp.factor(M.extract(list(idx), list(idx)).det()) for k in range(1, n + 1)
            for idx in combinations(range(n), k)]


def _not_semidefinite(M: sp.Matrix, hyp: Hypotheses) -> bool | None:
    """Whether M has a negative eigenvalue: some principal minor is provably negative (numbers: exactly)."""
    if not M.free_symbols:
        return any(sp.N(ev, 30) < 0 for ev in M.eigenvals())
    if any(hyp.is_negative(m) for m in _principal_minors(M)):
        return True
    return None


def _sup_exact(M: sp.Matrix, beta: sp.Matrix, gamma: sp.Expr) -> sp.Expr:
    """sup −½xᵀMx + βᵀx + γ for a numeric positive semidefinite M: finite iff β is in the range of M."""
    pinv = M.pinv()
    if not _same(M * pinv * beta, beta):
        return oo
    return sp.nsimplify(gamma + (beta.T * pinv * beta)[0, 0] / 2) if gamma.is_number else \
        gamma + (beta.T * pinv * beta)[0, 0] / 2


# =========================================================================== the derivation


def _laws_ok(P, Q) -> None:
    for name, law in (("P", P), ("Q", Q)):
        if not isinstance(law, (Density, Law)):
            raise DensityError(must(name, "an rdpsym law (Continuous, Discrete, Joint, MultivariateNormal, "
                                          "Independent)", type(law).__name__))


def _parameters(law) -> set:
    return set(law.parameters)


def joint_divergence(P: object, Q: object, order: object = alpha, *, reference=None,
                     below_one: bool = False) -> Derivation:
    """D_order(P‖Q) for laws in several variables (:func:`rdpsym.renyi_divergence` calls this).

    Parameters and result as :func:`rdpsym.renyi_divergence`, but a symbolic order stands for the
    orders above 1 only (with ``below_one``, for those in (0, 1)): :func:`rdpsym.renyi_divergence`
    joins the two.  ``reference`` may carry a sensitivity ball (a built-in mechanism in d
    dimensions): the worst case over it is then derived too.

    >>> import sympy as sp, rdpsym
    >>> from rdpsym.laws.multivariate import MultivariateNormal
    >>> m = sp.Symbol("m", real=True)
    >>> P = MultivariateNormal([0, 0], sp.eye(2))
    >>> Q = MultivariateNormal([m, 0], sp.Matrix([[1, 0], [0, 2]]))
    >>> rdpsym.renyi_divergence(P, Q, 1).result
    (2*m**2 - 1)/4 + log(2)/2
    """
    _laws_ok(P, Q)
    order = parse_order(order)
    params = _parameters(P) | _parameters(Q)
    if isinstance(order, sp.Symbol) and order in params:
        raise DomainError(must("order", f"a symbol that is not a parameter of P or Q (rename {order} in the laws)",
                               order))
    hyp = Hypotheses(order if isinstance(order, sp.Symbol) else None, below_one=below_one)
    ball = ball_of(reference)
    if ball is not None:
        return _ball_derivation(P, Q, order, hyp, reference, ball)
    blocks = align(P, Q)
    steps = _setting_steps(P, Q, blocks)
    try:
        parts, names = _parts(blocks, order, hyp)
    except NoClosedFormError:
        if params or isinstance(order, sp.Symbol):
            raise
        return _numeric_derivation(P, Q, order, steps, "no closed form for a block")
    total, conditions, more = _combine(blocks, parts, names, order)
    steps += more
    hypotheses = hyp.stated + tuple(
        dict.fromkeys(h for part in parts for h in part.hypotheses))
    if any(part.numeric for part in parts):
        if params:
            raise NoClosedFormError("a block has no closed form; give the parameters values for a numeric value")
        value = total if isinstance(total, mpmath.mpf) else _mpf(total)
        return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                          evidence=tuple(e for part in parts for e in part.evidence), hypotheses=hypotheses)
    result = total if not conditions or total == oo else sp.Piecewise((total, sp.And(*conditions)), (oo, True))
    # One-dimensional coordinates were each checked against their own definition by the 1-D engine
    # (at its sample points); the sum is then checked once more as a whole, at one point, to catch an
    # assembly error (alignment, copies, renaming).  Blocks in several variables are checked in full here.
    one_d = all(isinstance(b.p, Density) or b.p == b.q for b in blocks)
    evidence = _check(P, Q, order, result, conditions, hyp, blocks, points=1 if one_d else POINTS)
    status = weakest([Status.CHECKED, *[_best(part.status) for part in parts]])
    inner = [e for part in parts for e in part.evidence if isinstance(e, (ProvedEqual, NotShownEqual))]
    if reference is not None:
        citation = reference.citation(order)
        ok = _equal_to_reference(total, reference, order, hyp)
        evidence.insert(0, ProvedEqual(citation, "expressions") if ok else NotShownEqual(citation))
        steps.append(Step(_divergence(P_, Q_, order), "=", reference.divergence_at(order), Published(citation),
                          Status.PROVED if ok else Status.CHECKED))
        if ok and all(part.status == Status.PROVED or part.status == Status.CHECKED for part in parts):
            status = Status.PROVED
    elif inner and all(part.status == Status.PROVED for part in parts):
        status = Status.PROVED
    return Derivation(order=order, result=result, status=status, steps=tuple(steps), closed_form=total,
                      conditions=conditions, hypotheses=hypotheses, evidence=tuple(inner + evidence),
                      reference=reference, moment=None)


def _best(status: Status) -> Status:
    """A part's status as it bounds the whole (proved parts do not lower a checked whole)."""
    return Status.CHECKED if status == Status.PROVED else status


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _mpf(value) -> mpmath.mpf:
    if value == oo:
        return mpmath.inf
    with mpmath.workdps(60):
        return Digits(+mpmath.mpf(sp.N(value, 60)._to_mpmath(mpmath.mp.prec)), 50)


def _parts(blocks: list[Block], order, hyp: Hypotheses) -> tuple[list[Part], list[tuple]]:
    single = len(blocks) == 1 and blocks[0].copies == 1
    names = [(P_, Q_)] if single else [(sp.Symbol(f"P_{k + 1}"), sp.Symbol(f"Q_{k + 1}")) for k in range(len(blocks))]
    return [_derive_block(b, order, hyp, n) for b, n in zip(blocks, names)], names


def _setting_steps(P, Q, blocks: list[Block]) -> list[Step]:
    """The laws compared, as the derivation's first lines."""
    steps = []
    for name, law in ((P_, P), (Q_, Q)):
        if isinstance(law, MultivariateNormal):
            steps.append(Step(name, "=", NormalLaw(law.mean, law.covariance), Given("normal")))
        elif isinstance(law, Joint):
            steps.append(Step(DensityAt(name, Coordinates(*law.variables)), "=", law.pdf,
                              Given("densities", (sp.ProductSet(*law.support),))))
    if len(blocks) > 1 or blocks[0].copies != 1:
        for name, side in ((P_, "p"), (Q_, "q")):
            product = ProductLaw(*[(sp.Symbol(f"{name}_{i + 1}"), b.copies) for i, b in enumerate(blocks)])
            law = P if side == "p" else Q
            rule = Separates() if isinstance(law, Joint) else Given("product")
            steps.append(Step(name, "=", product, rule))
    return steps


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _combine(blocks, parts, names, order) -> tuple:
    """Σ copies·D of the blocks, with the additivity step and each block's own derivation."""
    steps: list[Step] = []
    conditions: list = []
    single = len(blocks) == 1 and blocks[0].copies == 1
    if not single:
        terms = [sp.Mul(b.copies, _divergence(*n, order), evaluate=False) if b.copies != 1 else _divergence(*n, order)
                 for b, n in zip(blocks, names)]
        steps.append(Step(_divergence(P_, Q_, order), "=", sp.Add(*terms, evaluate=False) if len(terms) > 1
                          else terms[0], Additivity()))
    for part in parts:
        steps += part.steps
        conditions += list(part.conditions)
    if any(part.numeric for part in parts):
        with mpmath.workdps(60):
            total = mpmath.fsum((part.value if isinstance(part.value, mpmath.mpf) else _mpf(part.value)) * int(b.copies)
                                for b, part in zip(blocks, parts))
        return Digits(total, 50) if mpmath.isfinite(total) else total, (), steps
    values = [part.value for part in parts]
    infinite = [b for b, v in zip(blocks, values) if v == oo]
    if infinite and all(b.copies.is_positive for b in infinite):
        total = oo
        conditions = []
    else:
        total = sp.Add(*[b.copies * v for b, v in zip(blocks, values)])
        if total.has(sp.Piecewise):  # a coordinate's D_∞ by cases: the cases of the sum
            total = sp.piecewise_fold(total)
    if not single:
        steps.append(Step(_divergence(P_, Q_, order), "=", total, SumOfCoordinates()))
    return total, tuple(dict.fromkeys(conditions)), steps


def _equal_to_reference(total, reference, order, hyp: Hypotheses) -> bool:
    from rdpsym.derive.verify import is_zero

    ref = reference.divergence_at(order)
    if total == oo or ref == oo:
        return total == ref
    try:
        if is_zero(total - ref, hyp):
            return True
        if order is not oo and order != 1:
            return is_zero(sp.exp((order - 1) * total) - reference.moment_at(order), hyp)
    except (TypeError, ValueError):
        return False
    return False


def _numeric_derivation(P, Q, order, steps, why: str) -> Derivation:
    value = joint_divergence_mp(P, Q, order, dps=50)
    steps = list(steps) + [Step(_divergence(P_, Q_, order), "=", sp.Float(value, 50) if value != mpmath.inf else oo,
                                Numeric(50, why), Status.NUMERIC)]
    return Derivation(order=order, result=value, status=Status.NUMERIC, steps=tuple(steps),
                      evidence=(NoClosedForm(why), FromDefinition(50)))


# =========================================================================== the worst case over a sensitivity ball


def _ball_derivation(P, Q, order, hyp: Hypotheses, reference, ball: SensitivityBall) -> Derivation:
    """The mechanism's RDP: the divergence of a shift, maximised over the sensitivity ball, as steps."""
    Z = ball.noise
    x = Z.var
    t = ball.shift
    Zt = Continuous(Z.expr.xreplace({x: x - t}), x, sp.Interval(Z.lo + t, Z.hi + t), check=False)
    Zs = sp.Symbol("Z")
    d1 = univariate_divergence(Z, Zt, order)
    if not d1.is_closed_form:
        raise NoClosedFormError("the divergence of a shifted coordinate has no closed form")
    f = d1.closed_form
    i = sp.Symbol("i", integer=True, positive=True)
    v = sp.IndexedBase("v")
    d, delta = ball.dimension, ball.radius
    Qv = sp.Symbol("Q_v")
    D = _divergence(P_, Qv, order)
    steps = [Step(DensityAt(Zs, x), "=", Z.expr, Given("noise", (Z.support,)))]
    steps.append(Step(D, "=", sp.Sum(_divergence(Zs, Shifted(Zs, v[i]), order), (i, 1, d)),
                      ShiftCoordinates(ball.norm, delta)))
    steps += _rename_steps(d1.steps, {P_: Zs, Q_: Shifted(Zs, t)})
    conditions = d1.conditions
    checked_convexity = None
    if f == oo:
        steps.append(Step(D, "=", oo, SumOfCoordinates()))
        worst = oo
    elif ball.norm == 2:
        c = _square_coefficient(f, t)
        if c is None:
            raise NoClosedFormError("an ℓ₂ ball needs a coordinate cost c·t² (Gaussian noise); this noise's is "
                                    f"{f}")
        steps.append(Step(D, "=", sp.Sum(c * v[i] ** 2, (i, 1, d)), SumOfCoordinates()))
        steps.append(Step(D, "=", c * Norm(v, 2) ** 2, SumOfSquares()))
        worst = sp.factor(c * delta**2)
        steps.append(Step(D, "<=", worst, WorstCaseOverBall(2, "sphere")))
    else:
        why = _convexity(f, t, hyp)
        checked_convexity = why is None
        at_zero = sp.simplify(f.subs(t, 0))
        if at_zero != 0:
            raise NoClosedFormError(f"the coordinate cost at t = 0 is {at_zero}, not 0")
        if why is None:
            _check_convex_numerically(f, t, order, delta, hyp)
        steps.append(Step(D, "=", sp.Sum(f.subs(t, sp.Abs(v[i])), (i, 1, d)), SumOfCoordinates()))
        fdelta = f.subs(t, delta)
        steps.append(Step(D, "<=", sp.Sum(sp.Abs(v[i]) / delta * fdelta, (i, 1, d)),
                          ConvexCost(why or "f'' >= 0 checked numerically", proved=why is not None),
                          Status.CHECKED if why is None else None))
        worst = fdelta
        steps.append(Step(D, "<=", worst, WorstCaseOverBall(1, "one coordinate")))
    result = worst
    conditions = tuple(simplify_condition(cc.subs(t, delta), hyp) for cc in conditions)
    steps.append(Step(_divergence(P_, Q_, order), "=", result, WorstCaseOverBall(ball.norm, "attained")))
    full = result if not conditions or result == oo else sp.Piecewise((result, sp.And(*conditions)), (oo, True))
    # f(t) was checked against its definition by the 1-D engine; the worst-case value is checked against
    # the worst-case pair's definition at one point, and the maximisation at other shifts in the ball.
    evidence = _check(P, Q, order, full, conditions, hyp, align(P, Q), points=1)
    evidence.append(_check_worst_case(Z, ball, order, full, hyp))
    citation = reference.citation(order)
    ok = _equal_to_reference(result, reference, order, hyp)
    evidence.insert(0, ProvedEqual(citation, "expressions") if ok else NotShownEqual(citation))
    steps.append(Step(_divergence(P_, Q_, order), "=", reference.divergence_at(order), Published(citation),
                      Status.PROVED if ok else Status.CHECKED))
    status = Status.PROVED if ok and not checked_convexity else Status.CHECKED
    return Derivation(order=order, result=full, status=status, steps=tuple(steps), closed_form=result,
                      conditions=conditions, hypotheses=hyp.stated, evidence=tuple(evidence), reference=reference)


def _square_coefficient(f: sp.Expr, t: sp.Symbol) -> sp.Expr | None:
    """c when f = c·t² (c free of t), else None."""
    c = sp.simplify(f / t**2)
    return c if not c.has(t) else None


def _affine(u: sp.Expr, t: sp.Symbol) -> bool:
    return u.is_polynomial(t) and sp.degree(u, t) <= 1


def _convexity(f: sp.Expr, t: sp.Symbol, hyp: Hypotheses) -> str | None:
    """Why f is convex in t ≥ 0, read from its form, or None (then it is checked numerically).

    f must be a nonnegative combination of terms that are affine in t, c·t², c·e^{affine}, or
    κ·log Σ_j w_j e^{affine_j} with w_j > 0 (a log-sum-exp of affine functions, convex); signs are
    decided under the hypotheses (κ = 1/(α − 1) > 0 for α > 1).
    """
    reasons: set[str] = set()

    def positive(c: sp.Expr) -> bool:
        return bool(c.is_positive or hyp.is_positive(c))

    def convex(term: sp.Expr) -> bool:
        if _affine(term, t):
            return True
        c, rest = term.as_independent(t, as_Add=False)
        if c != 1:
            return positive(c) and convex(rest)
        if isinstance(rest, sp.Add):
            return all(convex(u) for u in rest.args)
        if rest.is_polynomial(t) and sp.Poly(rest, t).degree() == 2 and positive(sp.Poly(rest, t).LC()):
            reasons.add("a square")
            return True
        if isinstance(rest, sp.exp) and _affine(rest.args[0], t):
            reasons.add("an exponential of an affine function of t")
            return True
        if isinstance(rest, sp.log) and _log_sum_exp(rest.args[0]):
            reasons.add("a log-sum-exp of affine functions of t")
            return True
        return False

    def _log_sum_exp(inner: sp.Expr) -> bool:
        numerator, denominator = sp.fraction(sp.together(inner))
        # A denominator c·e^{affine} only adds an affine function of t to the logarithm.
        constant, moving = denominator.as_independent(t, as_Add=False)
        if not positive(constant) or not all(isinstance(e, sp.exp) and _affine(e.args[0], t)
                                             for e in sp.Mul.make_args(moving) if e != 1):
            return False
        terms = sp.Add.make_args(sp.expand(sp.powsimp(numerator), power_exp=False))
        constant = sp.factor(sp.Add(*[w for w in terms if not w.has(t)]))  # e^{0·t}, one weight
        if constant != 0 and not positive(constant):
            return False
        for w in (w for w in terms if w.has(t)):
            wc, we = w.as_independent(t, as_Add=False)
            factors = sp.Mul.make_args(we)
            if not all(isinstance(e, sp.exp) and _affine(e.args[0], t) for e in factors if e != 1):
                return False
            if not positive(wc):
                return False
        return True

    if not convex(f):
        return None
    return "; ".join(sorted(reasons)) or "affine"


def _check_convex_numerically(f: sp.Expr, t: sp.Symbol, order, delta, hyp: Hypotheses) -> None:
    """f'' ≥ 0 at sampled points of (0, Δ] (parameters and order sampled too): a counterexample is an error."""
    second = sp.diff(f, t, 2)
    free = sorted(second.free_symbols - {t, hyp.order_symbol}, key=lambda s: s.name)
    for n, point in enumerate(_sample(free, hyp.order_symbol, 20140612)):
        if n >= 12:
            break
        for k in (1, 3, 7):
            at = dict(point)
            at[t] = sp.S(delta).subs(point) * sp.Rational(k, 8)
            value = sp.N(second.subs(at), 30)
            if value.is_number and value.is_extended_real and value < 0:
                raise VerificationError(f"the coordinate cost is not convex: f'' = {sp.N(value, 5)} at {at}")


# =========================================================================== verification against the definition


def _sample(params: list, order_symbol, seed: int):
    return (point for point, _ in sample_points(params, order_symbol, seed))


def _route(blocks: list[Block]) -> str:
    kinds = {"coordinates" if dimension_of(b.p) == 1 or b.p == b.q else "diagonalised" for b in blocks}
    return " and ".join(sorted(kinds))


def check_joint(P, Q, order, result, hyp: Hypotheses) -> list:
    """:func:`_check` of a result (its conditions in its Piecewise) on the laws' own blocks, at every point."""
    return _check(P, Q, order, result, (), hyp, align(P, Q))


def _check(P, Q, order, closed_form, conditions, hyp: Hypotheses, blocks: list[Block],
           seed: int = 20170224, points: int = POINTS) -> list:
    """Compare the result with the numeric definition at sampled points; return the evidence.

    The sampling, its coverage (every part of the orders, every branch, the boundaries in the
    order) and the comparison are those of :class:`~rdpsym.derive.verify.Check`.  The numeric
    route (:func:`joint_divergence_mp`) works from the raw laws, block by block: one-dimensional
    quadrature of each coordinate's definition, or the d-dimensional integral in a numerically
    diagonalised frame, never from a symbolic result.  A separated joint density is also compared
    with the product of its coordinates at random points.
    """
    claimed = closed_form
    if conditions and not isinstance(closed_form, sp.Piecewise) and closed_form != oo:
        claimed = sp.Piecewise((closed_form, sp.And(*conditions)), (oo, True))
    return _JointCheck(P, Q, order, claimed, hyp, seed, blocks, points).run()


class _JointCheck(Check):
    """The check of a result for laws in several variables (see :func:`_check`)."""

    def __init__(self, P, Q, order, claimed, hyp: Hypotheses, seed: int, blocks: list[Block], points: int):
        super().__init__(P, Q, order, claimed, hyp, seed, _parameters(P) | _parameters(Q), points)
        self.route = _route(blocks)

    def laws_at(self, point: dict):
        try:
            return tuple(_at(law, point) for law in (self.P, self.Q))
        except (DensityError, ParameterError):
            if not self.params:
                raise
            return None

    def definition(self, Pp, Qp, at, closed, point: dict, where):
        try:
            return joint_divergence_mp(Pp, Qp, at, dps=AGREE_DIGITS + 5), None
        except ConvergenceError as exc:
            return self.skip(exc, point, at, Pp, Qp, where)

    def agreed(self, items: tuple, digits, integrated_in, method=None):
        return AgreesByRoute(items, digits, None, None, self.route)

    def after(self, Pp, Qp) -> None:
        _check_separation(Pp)
        _check_separation(Qp)

    def where(self, point: dict, at, Pp, Qp, sampled: bool) -> str:
        return shown(point) + ("" if self.order_symbol is not None else f", order {at}")


def _at(law, point: dict):
    mine = {s: v for s, v in point.items() if s in law.parameters}
    return law.subs(mine) if mine else law


def _check_separation(law) -> None:
    """A joint density that was split into coordinates equals their product (30 digits, random points)."""
    if not isinstance(law, Joint) or len(law.coordinates()) == 1:
        return
    rng = random.Random(7)
    parts = law.coordinates()
    for _ in range(3):
        point = {}
        for v, s in zip(law.variables, law.support):
            lo, hi = (s.inf, s.sup) if law.discrete else (s.start, s.end)
            lo = lo if lo.is_finite else (hi - 4 if hi.is_finite else -2)
            hi = hi if hi.is_finite else lo + 4
            point[v] = sp.Integer(rng.randint(int(lo), int(hi))) if law.discrete else \
                lo + (hi - lo) * sp.Rational(rng.randint(1, 99), 100)
        joint = sp.N(law.pdf.subs(point), 30)
        product = sp.N(sp.Mul(*[lw.expr.subs(point) for _, lw in parts]), 30)
        if abs(joint - product) > sp.Float("1e-25") * max(abs(joint), sp.Float("1e-300")):
            raise VerificationError(f"the joint density does not equal the product of its coordinates at {point}")


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _check_worst_case(Z: Density, ball: SensitivityBall, order, closed_form, hyp: Hypotheses) -> WorstCaseChecked:
    """No sampled shift in the ball costs more than the closed form (the worst case), at one sampled point."""
    params = sorted((Z.parameters | closed_form.free_symbols | ball.radius.free_symbols) - {hyp.order_symbol},
                    key=lambda s: s.name)
    order_symbol = order if isinstance(order, sp.Symbol) else None
    # Two other shifts: one on the boundary that is not an axis, one inside the ball.
    fractions = ([(sp.Rational(3, 5), sp.Rational(4, 5)), (sp.Rational(1, 2), sp.Rational(1, 2))] if ball.norm == 2
                 else [(sp.Rational(1, 3), sp.Rational(2, 3)), (sp.Rational(1, 4), sp.Rational(1, 4))])
    for point in _sample(params, order_symbol, 1):
        at = point.get(order_symbol, order)
        branch = branch_at(closed_form, point)
        if branch is None:
            continue
        expr = closed_form.args[branch][0] if isinstance(closed_form, sp.Piecewise) else closed_form
        limit = closed_value(expr, point, 50, order_symbol=order_symbol)
        radius = ball.radius.subs(point)
        Zp = _at(Z, point)
        for shares in fractions:
            costs = [renyi_divergence_mp_1d(Zp, Continuous(Zp.expr.xreplace({Zp.var: Zp.var - share * radius}),
                                                           Zp.var, Zp.support), at, 25) for share in shares]
            with mpmath.workdps(30):
                total = mpmath.fsum(costs)
                if total > limit * (1 + mpmath.mpf(10) ** -20) and not mpmath.isinf(limit):
                    raise VerificationError(f"a shift {shares} of the radius costs {mpmath.nstr(total, 20)}, more "
                                            f"than the claimed worst case {mpmath.nstr(limit, 20)} at {point}")
        return WorstCaseChecked(len(fractions), point_items(point, sort=True))
    return WorstCaseChecked(0)


# =========================================================================== the numeric definition


def renyi_divergence_mp_1d(P, Q, order, dps: int) -> mpmath.mpf:
    return univariate_divergence_mp(P, Q, order, dps=dps)


def joint_divergence_mp(P: object, Q: object, order: object, dps: int = 50,
                        values: Mapping | None = None) -> mpmath.mpf:
    """D_order(P‖Q) from the definition, for laws in several variables (:func:`rdpsym.renyi_divergence_mp`).

    Block by block (:func:`align`): a coordinate by its one-dimensional definition, a Gaussian block by
    its integral in a numerically diagonalised frame (:func:`numeric_block`), summed with their copies
    (additivity over independent blocks).  Never from a symbolic result.

    >>> import sympy as sp, rdpsym
    >>> from rdpsym.laws.multivariate import MultivariateNormal
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


@dataclass(frozen=True)
class _Both:
    """Two laws' parameters together (to read ``values`` once)."""

    P: object
    Q: object

    @property
    def parameters(self) -> set:
        return _parameters(self.P) | _parameters(self.Q)


def numeric_block(p, q, order, dps: int) -> mpmath.mpf:
    """One block's divergence from the definition: a 1-D quadrature (summation), a Gaussian block in its
    numerically diagonalised frame, a finite table, or (two variables) nested quadrature."""
    if isinstance(p, Density):
        return renyi_divergence_mp_1d(p, q, order, dps)
    tables = _tables(p, q)
    if tables is not None:
        return renyi_divergence_mp_1d(*tables, order, dps)
    jp, jq = p.joint(), q.joint().renamed(p.joint().variables)
    if not jp.discrete and all(s == sp.Interval(-oo, oo) for s in jp.support + jq.support):
        try:
            return _diagonalised(jp, jq, order, dps)
        except _NotQuadratic:
            pass
    if len(jp.variables) == 2:
        return _nested(jp, jq, order, dps)
    raise NoClosedFormError(f"no numeric route for a joint block of dimension {len(jp.variables)} that neither "
                            "separates nor is Gaussian")


class _NotQuadratic(Exception):
    """The log-integrand is not a quadratic function (checked numerically)."""


def _log_density(j: Joint):
    f = sp.lambdify(j.variables, j.pdf, modules="mpmath")

    def log(point):
        value = f(*point)
        if value <= 0:
            raise _NotQuadratic()
        return mpmath.log(value)

    return log


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
    wp = dps + 20
    with mpmath.workdps(wp):
        lp, lq = _log_density(jp), _log_density(jq)
        a = to_mpf(order, mpmath.mp) if order is not oo else mpmath.inf
        if a == 1 or a == mpmath.inf:
            cp, gp, Hp = _fit(lp, d)
            ch, gh, Hh = _fit(lambda x: lp(x) - lq(x), d)
            if a == 1:
                Sigma = Hp ** -1
                mu = Sigma * gp
                value = ch + (gh.T * mu)[0] - (mu.T * Hh * mu)[0] / 2 - sum((Hh * Sigma)[i, i] for i in range(d)) / 2
                return +value
            return _vertex(ch, gh, Hh, wp)
        L = lambda x: a * lp(x) + (1 - a) * lq(x)  # noqa: E731
        c, g, H = _fit(L, d)
        E, V = mpmath.eigsy(H)
        scale = max(abs(E[i]) for i in range(d))
        if any(E[i] <= scale * mpmath.mpf(10) ** (-wp // 2) for i in range(d)):
            return mpmath.inf
        xs = mpmath.lu_solve(H, g)
        # In the eigen-frame centred at the vertex x* the integrand is e^{L(x*)} Π_i e^{−λ_i s_i²/2}: its
        # integral is e^{L(x*)} Π_i √(2π/λ_i), with L(x*) read off the raw densities at x*.
        log_det = mpmath.fsum(mpmath.log(E[i]) for i in range(d))
        log_total = L(list(xs)) + d * mpmath.log(2 * mpmath.pi) / 2 - log_det / 2
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


@sympy_evalf_guard.serialized  # mpmath's global precision: one thread at a time
def _nested(jp: Joint, jq: Joint, order, dps: int) -> mpmath.mpf:
    """Two variables: the definition by nested one-dimensional quadrature (summation), at two precisions."""
    def at(wp):
        with mpmath.workdps(wp):
            fp = sp.lambdify(jp.variables, jp.pdf, modules="mpmath")
            fq = sp.lambdify(jp.variables, jq.pdf, modules="mpmath")
            a = to_mpf(order, mpmath.mp) if order is not oo else mpmath.inf
            if a == mpmath.inf:
                raise NoClosedFormError("D_∞ of a joint block that neither separates nor is Gaussian")

            def integrand(x, y):
                p, q = fp(x, y), fq(x, y)
                if p == 0:
                    return mpmath.mpf(0)
                if q == 0:
                    return mpmath.inf
                return p * mpmath.log(p / q) if a == 1 else p**a * q ** (1 - a)

            ranges = [[to_mpf(s.start, mpmath.mp), to_mpf(s.end, mpmath.mp)] for s in jp.support]
            if jp.discrete:
                value = mpmath.nsum(lambda j, k: integrand(int(j), int(k)), *ranges)
            else:
                value = mpmath.quad(integrand, *ranges)
            return value if a == 1 else mpmath.log(value) / (a - 1)

    first, second = at(dps + 10), at(dps + 30)
    from rdpsym.foundations.precision import agreed

    value = agreed(first, second, dps)
    if value is None:
        raise ConvergenceError(f"D_{order} of a joint block did not settle: {mpmath.nstr(first, 15)} vs "
                               f"{mpmath.nstr(second, 15)}")
    return value
