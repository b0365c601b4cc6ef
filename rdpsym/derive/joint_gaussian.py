"""The Gaussian route for laws in several variables: log-densities quadratic on ℝ^d.

Two blocks that are multivariate normals, given as
:class:`~rdpsym.laws.multivariate.MultivariateNormal` or as any joint pdf of that
form, are read as C·exp(−½xᵀAx + bᵀx + c) (:class:`GaussianPair`).  D_α: the
moment is a Gaussian integral in d dimensions, done by completing the square
(:func:`rdpsym.engine.quadratic.gaussian_integral`), finite iff
Σ_α = αΣ₂ + (1−α)Σ₁ ≻ 0; the KL is the expectation of a quadratic under P; D_∞
the supremum of a quadratic.  Each result is rewritten in the form of
Gil–Alajaji–Linder 2013 and *proved* equal by rational identities (route 2 of
:mod:`rdpsym.derive.multivariate`).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.derive.joint_blocks import Part, _divergence
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.quadratic import (
    compact_det,
    gaussian_integral,
    leading_minors,
    log_quadratic,
    positive_condition,
    positive_definite,
    tidy_signs,
)
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.notation import (
    Coordinates,
    DensityAt,
    Det,
    IntegralOverSpace,
    JointMoment,
    KLExpectation,
    Linear,
    NormalLaw,
    QuadraticForm,
    SupLogRatio,
    Trace,
)
from rdpsym.foundations.record import (
    GIL_ALAJAJI_LINDER_2013,
    Definition,
    Diverges,
    GaussianExpectation,
    GaussianIntegral,
    Given,
    IdenticalLaws,
    LiteratureForm,
    NotShownEqual,
    ProvedEqual,
    QuadraticExponent,
    QuadraticSupremum,
    Simplified,
    Status,
    Step,
    TakeLogarithm,
)
from rdpsym.laws.multivariate import Law, dimension_of, variables_of
from rdpsym.laws.multivariate_normal import MultivariateNormal

oo = sp.oo


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
    a ratio of numbers, or with factors 1, is evaluated.  Numbers are split into logarithms of their factors
    (the determinants are positive): the quotient (24/25)^(1000001/1000000)/… made SymPy raise 24 to the power
    1000001, past Python's 4300-digit limit (a probe, a pair of normals at α = 1 + 10⁻⁶)."""
    if numerator.is_number and denominator.is_number:
        return coefficient * (sp.expand_log(sp.log(numerator), force=True)
                              - sp.expand_log(sp.log(denominator), force=True))
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
    try:
        value = sp.Piecewise((best, pd), (oo, not_psd), (boundary, True))
    except TypeError as exc:  # (SymPy comparing a NaN while it tidies the conditions: diag(s, 1) against I; a probe)
        raise NoClosedFormError(f"D_∞: the cases of the supremum could not be stated ({exc})") from exc
    steps.append(Step(D, "=", value, QuadraticSupremum("cases")))
    return Part(value, (), steps, Status.PROVED, hypotheses=hypotheses)


def _principal_minors(M: sp.Matrix) -> list[sp.Expr]:
    from itertools import combinations

    n = M.rows
    return [sp.factor(M.extract(list(idx), list(idx)).det()) for k in range(1, n + 1)
            for idx in combinations(range(n), k)]


def _not_semidefinite(M: sp.Matrix, hyp: Hypotheses) -> bool | None:
    """Whether M has a negative eigenvalue: some principal minor is provably negative; for a matrix of numbers
    False when every principal minor is shown ≥ 0 (M is positive semidefinite iff all its principal minors are
    ≥ 0).  Decided on the minors, not on eigenvalues: a 3×3 matrix's eigenvalues by Cardano's formula carried a
    spurious imaginary part 0.e-37·I that no comparison can order (a probe)."""
    minors = _principal_minors(M)
    if any(hyp.is_negative(m) for m in minors):
        return True
    if not M.free_symbols and all(m.is_nonnegative for m in minors):
        return False
    return None


def _sup_exact(M: sp.Matrix, beta: sp.Matrix, gamma: sp.Expr) -> sp.Expr:
    """sup −½xᵀMx + βᵀx + γ for a numeric positive semidefinite M: finite iff β is in the range of M."""
    pinv = M.pinv()
    if not _same(M * pinv * beta, beta):
        return oo
    # (No nsimplify: it returns a simpler number near the value, not an equal one: log(3/2)/2 + π·10⁻²⁰ became
    # log(√6/2).)
    return gamma + (beta.T * pinv * beta)[0, 0] / 2
