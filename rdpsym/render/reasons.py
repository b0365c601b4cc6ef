"""Rules, evidence and citations of the record (:mod:`rdpsym.foundations.record`) in words.

Each kind of :class:`~rdpsym.foundations.record.Rule` and
:class:`~rdpsym.foundations.record.Evidence` is said here, once, twice over:
as plain text for a terminal (``str()`` of a record) and as LaTeX for a
document, where its mathematics is typeset in the document's notation
(``symbol_names``: Laplace's scale printed as the paper's λ).

>>> from rdpsym.foundations.record import PieceRule, TakeLogarithm
>>> import sympy as sp
>>> a = sp.Symbol("alpha", positive=True)
>>> rule_text(TakeLogarithm(a)), rule_latex(TakeLogarithm(a))
('take the logarithm and divide by alpha - 1', 'take the logarithm and divide by $\\\\alpha - 1$')
>>> rule_text(PieceRule("exponential", a < 2))
'exponential rule, converges iff alpha < 2'
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.record import (
    Additivity,
    AgreesByRoute,
    AgreesWithDefinition,
    AtTheOrder,
    Because,
    ByCases,
    ByIdentity,
    Case,
    ChangeOfVariables,
    CheckedOn,
    Citation,
    Contradiction,
    ConvexCost,
    Counterexample,
    Definition,
    DifferentiateMoment,
    Diverges,
    DontKnow,
    Evidence,
    ExpectationOfLogRatio,
    Failure,
    FiniteSum,
    FromDefinition,
    GaussianExpectation,
    GaussianIntegral,
    Given,
    IdenticalLaws,
    Largest,
    LHopital,
    LiteratureForm,
    NoClosedForm,
    NoPoints,
    NotChecked,
    NotShownEqual,
    Numeric,
    OnInterval,
    PieceRule,
    PieceSuprema,
    Proof,
    ProvedEqual,
    Published,
    QuadraticExponent,
    QuadraticSupremum,
    Rule,
    Sampled,
    Separates,
    ShiftCoordinates,
    Simplified,
    Specialised,
    SplitAtKinks,
    SumOfCoordinates,
    SumOfPieces,
    SumOfSquares,
    TakeLogarithm,
    WorstCaseChecked,
    WorstCaseOverBall,
)
from rdpsym.render.latex import paper_latex
from rdpsym.render.prose import reason_latex, text
from rdpsym.render.values import value_text


def citation_text(c: Citation) -> str:
    """``Mironov 2017 (arXiv:1702.07476v3), Proposition 6``."""
    where = f"{c.source} ({c.locator})" if c.locator else c.source
    return f"{where}, {c.item}" if c.item else where


# --------------------------------------------------------------------------- one vocabulary, two typesetters


class _Words:
    """How a reason's mathematics is set: plain text (``math`` = SymPy's str) or LaTeX (``$...$``)."""

    def __init__(self, latex: bool, settings: dict | None = None):
        self.latex = latex
        self.settings = settings or {}

    def math(self, expr: object) -> str:
        if self.latex:
            return f"${paper_latex(expr, **self.settings)}$" if not isinstance(expr, str) else f"${expr}$"
        return sp.sstr(expr) if not isinstance(expr, str) else expr

    def words(self, s: str) -> str:
        return text(s) if self.latex else s

    def interval(self, lo: object, hi: object) -> str:
        if self.latex:
            return self.math(sp.Interval.open(lo, hi))
        shown = ("-oo" if lo is -sp.oo else sp.sstr(lo), "oo" if hi is sp.oo else sp.sstr(hi))
        return f"({shown[0]}, {shown[1]})"

    def citation(self, c: Citation) -> str:
        return self.words(citation_text(c))


def _rule(rule: Rule, w: _Words) -> str:  # noqa: C901 - one sentence per kind of rule
    a = sp.Symbol("alpha")
    if isinstance(rule, Given):
        if rule.what in _GIVEN:
            words, tex, plain = _GIVEN[rule.what]
            out = w.words(words) + ((w.math(tex) if w.latex else plain) if tex else "")
            return out + (w.words(", on ") + w.math(rule.supports[0]) if rule.supports else "")
        if rule.what == "laws":
            return w.words("the two output laws (outcome: probability)")
        if len(rule.supports) == 2:
            return (w.words("the density of P, on ") + w.math(rule.supports[0])
                    + w.words(", and of Q, on ") + w.math(rule.supports[1]))
        return w.words("the two densities, on ") + w.math(rule.supports[0]) if rule.supports else \
            w.words("the two densities")
    if isinstance(rule, Definition):
        limit = "" if rule.limit is None else w.words(" (the limit ") + w.math(
            r"\alpha \to \infty" if rule.limit is sp.oo and w.latex else r"\alpha \to 1" if w.latex else
            f"alpha -> {'oo' if rule.limit is sp.oo else rule.limit}") + w.words(")")
        return w.citation(rule.citation) + limit
    if isinstance(rule, SplitAtKinks):
        return w.words("log-densities; split at the non-smooth points of P and Q")
    if isinstance(rule, PieceRule):
        name = (f"SymPy's {rule.name.removeprefix('sympy.')} (a time-budgeted fallback)" if rule.fallback
                else f"{rule.name} rule")
        converges = "" if rule.condition is sp.true else w.words(", converges iff ") + w.math(rule.condition)
        return w.words(name) + converges
    if isinstance(rule, ChangeOfVariables):
        t = rule.variable
        mapping = w.math(sp.Eq(t, rule.forward, evaluate=False)) if w.latex else f"{t} = {sp.sstr(rule.forward)}"
        onto = w.words(", monotone from the piece onto ") + w.interval(rule.lo, rule.hi)
        invariant = (w.math(r"D_{\alpha}") if w.latex else "D_α") + w.words(
            " is invariant under a bijection applied to both laws, ") + w.citation(rule.citation)
        jacobian = w.words("; the Jacobian enters once" if rule.jacobian else "; the Jacobians of P and Q cancel")
        return w.words("substitute ") + mapping + onto + w.words(" (") + invariant + w.words(")") + jacobian
    if isinstance(rule, Case):
        return w.words("in the case ") + w.math(rule.condition) + w.words(
            " (the assumptions do not decide the sign of ") + w.math(rule.quantity) + w.words(")")
    if isinstance(rule, ByIdentity):
        identity = rule.identity
        shown = w.math(identity) if w.latex else f"{sp.sstr(identity.lhs)} = {sp.sstr(identity.rhs)}"
        return w.words("by the identity ") + shown
    if isinstance(rule, ByCases):
        return w.words("the cases together (cases with one formula merged)")
    if isinstance(rule, SumOfPieces):
        return w.words("sum of the pieces, grouped by exponential")
    if isinstance(rule, FiniteSum):
        if rule.kl:
            return w.words("finite sum of ") + w.math(r"P \log(P/Q)" if w.latex else "P log(P/Q)")
        return w.words("finite sum over the outcomes")
    if isinstance(rule, TakeLogarithm):
        if rule.order == 2:
            return w.words("take the logarithm")
        return w.words("take the logarithm and divide by ") + w.math(rule.order - 1)
    if isinstance(rule, LHopital):
        return (w.words("l'Hôpital's rule, since ") + w.math("I(1) = 1") + w.words(" (P normalises)"))
    if isinstance(rule, DifferentiateMoment):
        return w.words("differentiate the moment at ") + w.math(sp.Eq(a, 1, evaluate=False) if w.latex else "alpha = 1")
    if isinstance(rule, ExpectationOfLogRatio):
        return w.words("the expectation under P of ") + w.math(r"\log P - \log Q" if w.latex else "log P − log Q") + \
            w.words(", term by term on each piece")
    if isinstance(rule, OnInterval):
        return w.words("on ") + w.interval(rule.lo, rule.hi)
    if isinstance(rule, PieceSuprema):
        return w.words("the supremum of each piece (a constant, or a linear or quadratic function at its vertex "
                       "or an end of the interval)")
    if isinstance(rule, Largest):
        return w.words({"suprema": "the largest of the suprema", "log-ratios": "the larger of the log-ratios",
                        "outcomes": "maximum over the outcomes",
                        "directions": "the larger of the two directions (adjacent inputs come in either order)",
                        }.get(rule.of, f"the largest of the {rule.of}"))
    if isinstance(rule, Diverges):
        return _diverges(rule, w)
    if isinstance(rule, Simplified):
        return w.words("simplified")
    if isinstance(rule, Specialised):
        # the family's symbols shown by their names (c0, not SymPy's _c0 for a Dummy)
        named = {s: sp.Symbol(s.name, positive=True) for s, _ in rule.values}
        numbers = ", ".join(w.math(sp.Eq(named[s], v, evaluate=False)) if w.latex else f"{s.name} = {sp.sstr(v)}"
                            for s, v in rule.values)
        return (w.words("the closed form of the laws' family, ") + w.math(rule.general.xreplace(named))
                + w.words(", at the laws' numbers (") + numbers
                + w.words("); the laws as written had none of their own"))
    if isinstance(rule, AtTheOrder):
        # (the form for every order is the line above; why the order itself was not read is in the evidence)
        return w.words("the result for every order, at this order: the definition could not be evaluated at the "
                       "order itself")
    if isinstance(rule, Published):
        return w.citation(rule.citation)
    if isinstance(rule, Numeric):
        why = f" (no closed form: {rule.why})" if rule.why else ""
        return w.words(f"numeric, from the definition at {rule.dps} digits{why}")
    several = _several_variables(rule, w)
    if several is not None:
        return several
    if isinstance(rule, Because):
        return reason_latex(rule.reason) if w.latex else rule.reason
    if isinstance(rule, DontKnow):
        return w.words("not justified" + (f": {rule.why}" if rule.why else ""))
    return w.words(type(rule).__name__)


#: How the setting of a derivation in several variables is introduced (``Given.what``): words, then math.
_GIVEN = {
    "normal": ("the two multivariate normal laws, with densities ",
               r"(2\pi)^{-d/2} |\Sigma|^{-1/2} e^{-(x - \mu)^{\top} \Sigma^{-1} (x - \mu)/2}",
               "(2 pi)^(-d/2) det(Sigma)^(-1/2) exp(-(x - mu)' Sigma^-1 (x - mu)/2)"),
    "product": ("independent coordinates: a product measure", "", ""),
    "noise": ("the noise Z of one coordinate", "", ""),
    "alpha-covariance": ("by definition, ", r"\Sigma_{\alpha} = \alpha \Sigma_{2} + (1 - \alpha) \Sigma_{1}",
                         "Sigma_alpha = alpha Sigma_2 + (1 - alpha) Sigma_1"),
}


def _several_variables(rule: Rule, w: _Words) -> str | None:  # noqa: C901 - one sentence per kind of rule
    """The rules of derivations in several variables (rdpsym.derive.multivariate), or None."""
    if isinstance(rule, Separates):
        return w.words("the joint density is a constant times a product of per-coordinate factors: the coordinates "
                       "are independent")
    if isinstance(rule, Additivity):
        return w.words("additivity over independent coordinates, ") + w.citation(rule.citation)
    if isinstance(rule, IdenticalLaws):
        return w.words("the two laws are the same, so the divergence is 0 (Mironov 2017, Proposition 8)")
    if isinstance(rule, SumOfCoordinates):
        return w.words("the coordinates' divergences added (n identical coordinates: n times one)")
    if isinstance(rule, QuadraticExponent):
        what = "log P − log Q" if rule.kl else "α log P + (1 − α) log Q"
        if w.latex:
            what = r"$\log P - \log Q$" if rule.kl else r"$\alpha \log P + (1 - \alpha) \log Q$"
            return what + w.words(" is a constant plus a quadratic polynomial ") + w.math(
                r"-\tfrac{1}{2} x^{\top} A x + b^{\top} x + c") + w.words(" in x")
        return what + " is a constant plus a quadratic polynomial -x'Ax/2 + b'x + c in x"
    if isinstance(rule, GaussianIntegral):
        d = rule.dimension
        name = w.words("the Gaussian integral in ") + w.math(d) + w.words(" dimensions, completing the square")
        if w.latex:
            cond = r"A \succ 0" + (r" \iff \Sigma_{\alpha} = \alpha \Sigma_{2} + (1 - \alpha) \Sigma_{1} \succ 0"
                                   if rule.covariances else "")
            out = name + w.words("; it converges iff ") + w.math(cond)
        else:
            out = name + "; it converges iff A > 0" + (
                " (positive definite), i.e. Sigma_alpha = alpha Sigma_2 + (1 - alpha) Sigma_1 > 0"
                if rule.covariances else " (positive definite)")
        if rule.condition is not sp.true:
            out += w.words(", here iff ") + w.math(rule.condition)
        return out
    if isinstance(rule, GaussianExpectation):
        return w.words("the expectation under P = N(μ₁, Σ₁): ") + (
            w.math(r"\mathbb{E}[x^{\top} M x] = \operatorname{tr}(M \Sigma_{1}) + \mu_{1}^{\top} M \mu_{1}")
            if w.latex else "E[x'Mx] = tr(M Sigma_1) + mu_1' M mu_1")
    if isinstance(rule, QuadraticSupremum):
        return w.words({
            "vertex": "the supremum of a concave quadratic, at its vertex (M = Σ₁⁻¹ − Σ₂⁻¹ is positive definite)",
            "constant": "log(P/Q) is constant",
            "affine": "equal covariances: log(P/Q) is affine in x, unbounded above unless the means are equal "
                      "(then P = Q)",
            "boundary": "M = Σ₁⁻¹ − Σ₂⁻¹ is positive semidefinite and singular: finite iff the linear term lies "
                        "in its range",
            "cases": "by the sign of M = Σ₁⁻¹ − Σ₂⁻¹: positive definite (the vertex), not semidefinite (+∞), "
                     "or on the boundary (the limit of the vertex for M + εI)",
        }.get(rule.kind, rule.kind))
    if isinstance(rule, LiteratureForm):
        return w.words("rewritten in the form of ") + w.citation(rule.citation) + w.words(
            ", each piece proved equal by a rational identity")
    if isinstance(rule, ShiftCoordinates):
        if w.latex:
            return (w.words("adjacent outputs are ") + w.math(r"P = Z^{\otimes d}") + w.words(" and ")
                    + w.math(r"Q_{v} = \bigotimes_{i} Z_{v_{i}}") + w.words(", the noise shifted by ")
                    + w.math(rf"v = f(D') - f(D),\ \lVert v \rVert_{{{rule.norm}}} \le "
                             rf"{paper_latex(rule.radius, **w.settings)}")
                    + w.words(" (translation invariance); additivity over the independent coordinates"))
        return (f"adjacent outputs are P = Z^d and Q_v, the noise shifted by v = f(D') - f(D), "
                f"||v||_{rule.norm} <= {sp.sstr(rule.radius)} (translation invariance); additivity over the "
                "independent coordinates")
    if isinstance(rule, SumOfSquares):
        return w.words("a sum of squares: the cost depends on v through its Euclidean norm only (rotation invariance)")
    if isinstance(rule, ConvexCost):
        how = "" if rule.proved else " (checked numerically, not proved)"
        if w.latex:
            return (w.words("the cost ") + w.math(r"f(t) = D(Z \,\|\, Z_{t})") + w.words(" is convex in t with ")
                    + w.math("f(0) = 0") + w.words(f" ({rule.why}){how}, so ")
                    + w.math(r"f(t) \le \tfrac{t}{\Delta} f(\Delta)") + w.words(" on ") + w.math(r"[0, \Delta]")
                    + w.words("; f is even (Z is symmetric)"))
        return (f"the cost f(t) = D(Z||Z_t) is convex in t with f(0) = 0 ({rule.why}){how}, so "
                "f(t) <= (t/Delta) f(Delta) on [0, Delta]; f is even (Z is symmetric)")
    if isinstance(rule, WorstCaseOverBall):
        if rule.argument == "sphere":
            return (w.words("largest where the norm is largest: on the sphere ")
                    + w.math(r"\lVert v \rVert_{2} = \Delta" if w.latex else "||v||_2 = Delta")
                    + w.words(", attained by every v on it, e.g. ") + w.math(r"v = \Delta e_{1}" if w.latex
                                                                           else "v = Delta e_1"))
        if rule.argument == "one coordinate":
            return (w.math(r"\sum_{i} |v_{i}| \le \Delta" if w.latex else "sum |v_i| <= Delta")
                    + w.words(" and f(Δ) ≥ 0: attained with all of Δ on one coordinate, ")
                    + w.math(r"v = \Delta e_{1}" if w.latex else "v = Delta e_1"))
        return (w.words("the maximum over the ball ") + w.math(
            rf"\lVert v \rVert_{{{rule.norm}}} \le \Delta" if w.latex else f"||v||_{rule.norm} <= Delta")
            + w.words(", attained at ") + w.math(r"v = \Delta e_{1}" if w.latex else "v = Delta e_1")
            + w.words(": the mechanism's worst-case pair"))
    return None


def _diverges(rule: Diverges, w: _Words) -> str:
    if rule.kind == "support":
        out = w.words("P has mass where Q has none, on ") + w.interval(rule.lo, rule.hi)
        if rule.for_orders_above_one:
            out += w.words(", so ") + w.math(r"P^{\alpha} Q^{1 - \alpha}" if w.latex else "P^α Q^(1−α)") + \
                w.words(" is infinite there for ") + w.math(r"\alpha > 1" if w.latex else "α > 1")
        return out
    if rule.kind == "integrand":
        return w.words("the integrand ") + w.math(rule.expression) + w.words(" is not integrable on ") + \
            w.interval(rule.lo, rule.hi)
    if rule.kind == "unbounded":
        ratio = r"\log(P/Q)" if w.latex else "log(P/Q)"
        shown = w.math(ratio) if rule.expression is None else (
            w.math(rf"{ratio} = {paper_latex(rule.expression, **w.settings)}") if w.latex
            else f"log(P/Q) = {sp.sstr(rule.expression)}")
        return shown + w.words(" is unbounded above on ") + w.interval(rule.lo, rule.hi)
    if rule.kind == "outcome":
        at = rule.at
        if w.latex:
            k = paper_latex(at, **w.settings) if isinstance(at, sp.Basic) else text(str(at))
            return w.math(rf"P({k}) = {paper_latex(rule.expression, **w.settings)} > 0 = Q({k})")
        return f"P({at}) = {sp.sstr(rule.expression)} > 0 = Q({at})"
    if rule.kind == "singular":
        return (w.words("P and Q have no mass in common: ") + w.math(r"\int P^{\alpha} Q^{1 - \alpha} = 0"
                                                                       if w.latex else "∫ P^α Q^(1−α) = 0")
                + w.words(", so log of it over α − 1 is +∞ below 1 too"))
    if rule.kind == "not-positive-definite":
        return (w.words("Σ_α = αΣ₂ + (1 − α)Σ₁ = ") + w.math(rule.expression)
                + w.words(" is not positive definite: the integrand does not decay along an eigenvector of a "
                          "nonpositive eigenvalue, so the moment is infinite"))
    if rule.kind == "affine":
        return (w.words("equal covariances: log(P/Q) = ") + w.math(rule.expression)
                + w.words(" + const is a nonconstant affine function of x, unbounded above on ℝ^d"))
    if rule.kind == "direction":
        return (w.words("Σ₁⁻¹ − Σ₂⁻¹ = ") + w.math(rule.expression)
                + w.words(" has a negative eigenvalue: log(P/Q) grows without bound along its eigenvector"))
    return w.words(f"infinite ({rule.kind})")


def rule_text(rule: Rule) -> str:
    """Why a step holds, in plain text."""
    return _rule(rule, _Words(latex=False))


def rule_latex(rule: Rule, symbol_names: dict | None = None, settings: dict | None = None) -> str:
    """Why a step holds, as LaTeX text with ``$...$`` math (``symbol_names`` as for :func:`paper_latex`;
    ``settings``, all of the printer's, a document's :func:`~rdpsym.render.derivation.printing_settings`)."""
    return _rule(rule, _Words(latex=True, settings=settings or {"symbol_names": symbol_names or {}}))


# --------------------------------------------------------------------------- evidence


def _point(point: tuple, w: _Words) -> str:
    if not point:
        return w.words("the given values")
    if w.latex:
        return "$" + ", ".join(f"{paper_latex(k, **w.settings)} = {paper_latex(v)}" for k, v in point) + "$"
    return ", ".join(f"{sp.pretty(k, use_unicode=True) if isinstance(k, sp.Symbol) else k} = {v}" for k, v in point)


def _evidence(e: Evidence, w: _Words) -> str:  # noqa: C901 - one sentence per kind of evidence
    if isinstance(e, ProvedEqual):
        if e.how == "both infinite":
            return w.words(f"equal to {citation_text(e.citation)} (both infinite)")
        if e.how == "moments":
            return w.words(f"proved equal to {citation_text(e.citation)}: the moments ") + (
                w.math(r"E_{Q}[(P/Q)^{\alpha}]") if w.latex else "E_Q[(P/Q)^α]") + w.words(" agree symbolically")
        return w.words(f"proved equal to {citation_text(e.citation)}")
    if isinstance(e, NotShownEqual):
        return w.words(f"not shown symbolically equal to {citation_text(e.citation)}")
    if isinstance(e, AgreesByRoute):
        how = "(both infinite)" if e.digits is None else f"to {e.digits} digits"
        route = _ROUTES.get(e.route, e.route)
        return w.words(f"agrees with the definition {how} ({route}) at ") + _point(e.point, w)
    if isinstance(e, WorstCaseChecked):
        if not e.shifts:
            return w.words("the worst case was not checked numerically (no sample point)")
        return w.words(f"worst case checked numerically: {e.shifts} other shifts in the ball cost no more, at ") + \
            _point(e.point, w)
    if isinstance(e, AgreesWithDefinition):
        how = "(both infinite)" if e.digits is None else f"to {e.digits} digits"
        out = w.words(f"agrees with the definition {how} at ") + _point(e.point, w)
        if e.integrated_in is not None:
            change = e.integrated_in
            out += w.words(" (integrated in ") + (w.math(change) if w.latex else
                                                  f"{sp.sstr(change.lhs)} = {sp.sstr(change.rhs)}") + w.words(")")
        if e.method is not None:
            out += w.words(f" by {e.method}")
        return out
    if isinstance(e, CheckedOn):
        return _checked_on(e, w)
    if isinstance(e, NoClosedForm):
        return w.words(f"no closed form: {e.why}")
    if isinstance(e, NotChecked):
        return w.words(f"not checked: {e.what}" + (f" ({e.why})" if e.why else ""))
    if isinstance(e, FromDefinition):
        if e.method:
            return w.words(f"value from the definition by {e.method}, a ball narrower than its {e.dps} digits")
        return w.words("value from the definition, agreeing at two precisions")
    if isinstance(e, Proof):
        return w.words(f"sympy: {e.method}")
    if isinstance(e, Sampled):
        n = e.points
        out = f"arb balls at {n} point{'' if n == 1 else 's'} incl. edges"
        if e.undecided:
            kind = (f"{e.undefined} of them undefined (outside a function's domain)" if e.undefined
                    else "all tight")
            out += f"; {e.undecided} points undecided at {e.bits} bits ({kind}), e.g. {point_text(e.example)}"
        return w.words(out)
    if isinstance(e, Counterexample):
        return w.words(f"counterexample {point_text(e.point)}")
    if isinstance(e, Contradiction):
        return w.words(f"a symbolic proof ({e.proof}) was contradicted numerically: a bug in rdpsym")
    if isinstance(e, Failure):
        return w.words(f"error: {e.error}")
    if isinstance(e, NoPoints):
        return w.words("the domain's constraints left no sample point")
    return w.words(type(e).__name__)


def _checked_on(e: CheckedOn, w: _Words) -> str:
    """Where a closed form was checked: its orders by part of the claimed set, its branches, its boundaries."""
    def number(v) -> str:
        return w.math(v) if w.latex else sp.sstr(v)

    parts = []
    if e.orders:
        parts.append(w.words("orders ") + "; ".join(
            w.words(f"{name}: ") + ", ".join(number(v) for v in values) if values else w.words(f"{name}: none")
            for name, values in e.orders))
    parts.append(w.words(f"{e.points} point{'' if e.points == 1 else 's'}"))
    if e.branches:
        counts = ", ".join(str(n) for _, n in e.branches)
        parts.append(w.words(f"the result's {len(e.branches)} branches at {counts} of them"))
    if e.boundaries:
        parts.append(w.words("next to boundaries at orders ") + ", ".join(number(v) for v in e.boundaries))
    return w.words("checked on ") + ", ".join(parts)


#: The numeric routes of :class:`~rdpsym.foundations.record.AgreesByRoute`, said in words.
_ROUTES = {
    "coordinates": "each coordinate by one-dimensional quadrature of its definition, moments multiplied",
    "diagonalised": "the d-dimensional Gaussian integral in the frame of a numeric eigen-decomposition of the "
                    "integrand's Hessian, read off the raw densities at points",
    "coordinates and diagonalised": "coordinates by one-dimensional quadrature, Gaussian blocks in a numerically "
                                    "diagonalised frame",
    "nested": "nested one-dimensional quadrature",
}


def point_text(point: tuple | dict) -> str:
    """``{alpha=3/2, eps=1e-30}`` as a claim's sample point reads in a report (``((key, value), ...)`` or a dict)."""
    items = point.items() if isinstance(point, dict) else point
    parts = [f"{k.name if isinstance(k, sp.Symbol) else k}={value_text(v)}" for k, v in items]
    return "{" + ", ".join(parts) + "}"


def evidence_text(e: Evidence) -> str:
    """What established a status, in plain text."""
    return _evidence(e, _Words(latex=False))


def evidence_latex(e: Evidence, symbol_names: dict | None = None, settings: dict | None = None) -> str:
    """What established a status, as LaTeX text with ``$...$`` math."""
    return _evidence(e, _Words(latex=True, settings=settings or {"symbol_names": symbol_names or {}}))
