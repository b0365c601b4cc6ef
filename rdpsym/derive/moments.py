"""Derivation layer: the moment I(α) = ∫ P^α Q^{1−α} (or Σ) of two densities, piece by piece.

It applies the engine's rules (pure SymPy, in :mod:`rdpsym.engine`) to the
common refinement of two densities (:mod:`rdpsym.laws.densities`).

Also the supremum of log(P/Q) (the order ∞), piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.derive.cases import parametrise
from rdpsym.derive.critical_points import sup_at_critical_points
from rdpsym.engine import periodic, quadratic_logs
from rdpsym.engine.context import SYMPY_FAILURES, Hypotheses
from rdpsym.engine.integrals import log_shape, positive_variable
from rdpsym.engine.piece_value import PieceValue
from rdpsym.engine.pieces import log_of
from rdpsym.engine.steps import integrate_exp_steps
from rdpsym.engine.sums import sum_exp
from rdpsym.engine.transform import substitute
from rdpsym.foundations.budget import budgeted, time_budget
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.precision import private_context, sympy_evalf_guard
from rdpsym.foundations.record import Diverges
from rdpsym.laws.densities import Density, Discrete, PiecePair, common_refinement, piece_point
from rdpsym.quadrature.compile import to_mpf
from rdpsym.quadrature.divergent import does_not_vanish, limit_at_an_end

oo = sp.oo


@dataclass(frozen=True)
class Moment:
    """I(order) as a sum over pieces, with the convergence conditions.

    ``value`` is ``oo`` when the moment diverges for every parameter value
    (then ``divergence`` says why).
    """

    value: sp.Expr
    conditions: tuple
    pieces: tuple[tuple[PiecePair, sp.Expr, PieceValue], ...]
    divergence: Diverges | None = None
    var: sp.Symbol | None = None

    @property
    def positive_factors(self) -> frozenset:
        """The parameters' expressions the log-densities took logarithms of (1 − p in a binomial pmf).

        A law is positive on its support, so each such factor is positive wherever the laws are
        valid; the tidying of the result may use that.
        """
        return frozenset(g.args[0] for _, L, _ in self.pieces for g in L.atoms(sp.log)
                         if self.var not in g.free_symbols)

    @property
    def support_mismatch(self) -> bool:
        return self.divergence is not None and self.divergence.kind == "support"


def moment(P: Density, Q: Density, order: sp.Expr, hyp: Hypotheses) -> Moment:
    """∫ P^order Q^{1−order} piece by piece, by the closed-form rules."""
    var = P.var
    rule = sum_exp if isinstance(P, Discrete) else integrate_exp_steps
    total, conditions, parts = sp.S.Zero, [], []
    pairs = common_refinement(P, Q)
    if hyp.holds(order > 1) is not False:
        # P > 0 = Q on a piece decides ∞ before any piece is integrated: a mixture at α = 50 on the other
        # pieces is a long expansion, and its answer does not matter (fuzz seed 20, case 9).
        for pair in pairs:
            if pair.p != 0 and pair.q == 0:
                return Moment(oo, (), (), _outside(pair))
    for pair in pairs:
        if pair.p == 0:
            continue  # P^α·Q^{1−α} = 0 there, for every α > 0.
        if pair.q == 0:
            if hyp.holds(order > 1) is not False:
                return Moment(oo, (), (), _outside(pair))
            continue
        at = piece_point(pair.lo, pair.hi, isinstance(P, Discrete))
        L = sp.expand(order * log_of(pair.p, var, at) + (1 - order) * log_of(pair.q, var, at))
        try:
            piece = _as_condition(rule(L, var, pair.lo, pair.hi, hyp))
        except NoClosedFormError:
            if not (hyp.holds(order > 1) is True and (
                    any(_never_vanishes_at_an_end(L_i, var, order, pair.lo, pair.hi)
                        for L_i in _component_logs(pair, var, at, order))
                    or _never_vanishes_at_an_end(L, var, order, pair.lo, pair.hi))):
                raise
            return Moment(oo, (), tuple(parts), Diverges("integrand", pair.lo, pair.hi, sp.exp(L)))
        parts.append((pair, L, piece))
        if piece.value == oo:
            return Moment(oo, (), tuple(parts), Diverges("integrand", pair.lo, pair.hi, sp.exp(L)))
        total += piece.value
        if piece.condition is not sp.true:
            conditions.append(piece.condition)
    return Moment(total, tuple(dict.fromkeys(conditions)), tuple(parts), var=var)


#: The most terms of a mixture :func:`_component_logs` reads one by one.
_MOST_COMPONENTS = 4


def _component_logs(pair: PiecePair, var: sp.Symbol, at, order: sp.Expr) -> list:
    """log(t_i^α·Q^{1−α}) for each term t_i of P's piece when P is a sum of two to four terms, each nonnegative (a
    mixture), else none.

    For α > 0, P ≥ t_i makes P^α Q^{1−α} ≥ t_i^α Q^{1−α}: an integrand that one component keeps away from 0 at an
    infinite end is kept there by the mixture too, and the moment is +∞ for α > 1.  A component's logarithm has no
    logarithm of a sum in it, and SymPy's limit takes it at once where the mixture's defeats it: ⁹⁄₁₀ of a Laplace law
    of scale 10⁻³⁰ beside ¹⁄₁₀ of a logistic law of scale 10³⁰, against Λ(3, ⅓) at α = 50, spent the limit's whole
    budget at each end (2 s, stretched on a slow machine), where the logistic component's limit is +∞ in 0.2 s."""
    terms = sp.Add.make_args(sp.expand(pair.p))
    if not 2 <= len(terms) <= _MOST_COMPONENTS or not all(t.is_nonnegative for t in terms):
        return []
    rest = (1 - order) * log_of(pair.q, var, at)
    return [sp.expand(order * log_of(t, var, at) + rest) for t in terms]


def _never_vanishes_at_an_end(L: sp.Expr, var: sp.Symbol, order: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether e^L, the integrand (or term) of a piece with no closed form, does not tend to 0 toward an infinite end
    for any order above 1: then the moment is +∞ there, whatever the rules could not integrate.

    SymPy's limit of L, with a symbolic order written 1 + t (t > 0): a logistic law against a Gaussian one has
    L ~ (α − 1)·x²/2 at ±∞, Weibull laws of shapes 2 and 3 L ~ (α − 1)·x³, a geometric law against a Poisson one
    L ~ (α − 1)·k·log k, each +∞ for every α > 1 (they were "no closed form" at a symbolic order).  Only for laws
    with numbers (no parameter whose value the limit would depend on), within 2 s of CPU time per piece; the ∞
    is then checked against the definition at sampled orders like every result."""
    if (lo not in (oo, -oo) and hi not in (oo, -oo)) or L.free_symbols - {var, order}:
        return False
    if isinstance(order, sp.Symbol):
        L = L.xreplace({order: 1 + sp.Dummy("t", positive=True)})
    else:  # a number order: an end where e^L is seen falling away cannot decide, and SymPy's limit is not asked
        lo, hi = (sp.S.Zero if end in (oo, -oo) and _falling_away(L, var, end, lo, hi) else end for end in (lo, hi))
    found = limit_at_an_end(lambda: L, var, lo, hi, does_not_vanish, "the integrand's limit at an infinite end")
    return found is not None


#: Where :func:`_falling_away` reads the integrand's logarithm (|x| = 10³, then 10⁶), and how small e^L must be at the
#: first point (e^{−200}) to count as already vanishing.
_FAR_OUT = (10**3, 10**6)
_NEGLIGIBLE_LOG = -200


def _falling_away(L: sp.Expr, var: sp.Symbol, end: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether the logarithm L of a piece's integrand, free of symbols but ``var``, is below −200 at 10³ toward the
    infinite ``end`` and lower still at 10⁶ (both inside (lo, hi), read at 30 digits).

    Then e^L is seen vanishing toward that end, and SymPy's limit of L could only confirm it, which decides nothing
    for :func:`_never_vanishes_at_an_end`: it is not asked.  For a Skellam pmf against its shift the limit of
    2·log I_k(3) − log I_{k−1}(3) came back unevaluated after about 1 s of CPU per end.  A log-integrand that comes
    back up past 10⁶ would lose only this proof of ∞: the definition still answers, with its own divergence tests.
    An L that cannot be read as a real number there is left to SymPy's limit."""
    sign = 1 if end == oo else -1
    values = []
    with sympy_evalf_guard(), private_context(30) as ctx, time_budget(0.5, "the integrand far out", absorb=True):
        for far in _FAR_OUT:
            x = sp.Integer(sign * far)
            if (lo < x) is not sp.true or (x < hi) is not sp.true:  # (an end with a symbol: not decided)
                return False
            try:
                v = to_mpf(L.xreplace({var: x}), ctx)
            except (*SYMPY_FAILURES, ArithmeticError, TypeError, ValueError):
                return False
            if not isinstance(v, ctx.mpf) or not ctx.isfinite(v):
                return False
            values.append(v)
    return len(values) == len(_FAR_OUT) and values[0] < _NEGLIGIBLE_LOG and values[1] < values[0]


def _as_condition(piece: PieceValue) -> PieceValue:
    """Piecewise((v, c), (oo, True)) as the value v under the condition c."""
    v = piece.value
    if isinstance(v, sp.Piecewise) and len(v.args) == 2 and v.args[1] == (oo, sp.true) and piece.condition is sp.true:
        return PieceValue(v.args[0][0], v.args[0][1], piece.rule)
    return piece


def _outside(pair: PiecePair, for_orders_above_one: bool = True) -> Diverges:
    """P has mass on the piece where Q has none: P^α Q^{1−α} is infinite there for α > 1 (D_∞, KL: always)."""
    return Diverges("support", pair.lo, pair.hi, for_orders_above_one=for_orders_above_one)


def sup_log_ratio(P: Density, Q: Density) -> tuple[list | sp.Expr, Diverges | None, list]:
    """sup over supp P of log(P/Q) per piece (or ``oo``), why it is infinite (else None), and the pieces.

    The pieces are ``(log_ratio, lo, hi, supremum, substitution)`` per interval of the
    common support, for the derivation's steps (``substitution``: the change of
    variables the supremum was found in, or None).
    """
    values, pieces = [], []
    var = P.var
    hyp = Hypotheses()
    for pair in common_refinement(P, Q):
        if pair.p == 0:
            continue
        if pair.q == 0:
            return oo, _outside(pair, for_orders_above_one=False), pieces
        at = piece_point(pair.lo, pair.hi, isinstance(P, Discrete))
        R = sp.expand(log_of(pair.p, var, at) - log_of(pair.q, var, at))
        value, substitution = sup_piece(R, var, pair.lo, pair.hi, hyp, isinstance(P, Discrete))
        pieces.append((R, pair.lo, pair.hi, value, substitution))
        if value == oo:
            shown = R if substitution is None else substitution.exponent
            return oo, Diverges("unbounded", pair.lo, pair.hi, shown, for_orders_above_one=False), pieces
        values.append(value)
    if not values:
        raise NoClosedFormError("P has no mass on the common support")
    return values, None, pieces


def sup_piece(R, var, lo, hi, hyp: Hypotheses, discrete: bool):
    """(sup of R over (lo, hi), the substitution used or None), as a Piecewise on undecided signs.

    R = A·x² + B·x + C (quadratic rule), or c·log|x − r| + B·x + C (log-linear rule),
    or either after a change of variables t = g(x) (monotone, so the supremum is unchanged).
    """
    if not R.has(var):
        return R, None
    x, R = (var, R) if discrete else positive_variable(var, R, lo)
    shape = log_shape(R, x, lo, hi, hyp)
    if shape is not None and not shape.logs:
        return _sup_quadratic(R, x, lo, hi, hyp, discrete), None
    # (On integers too when B = 0: c·log|k − r| is monotone there, so its supremum is at an end, an integer.)
    if shape is not None and len(shape.logs) == 1 and hyp.is_zero(shape.A) and (
            not discrete or hyp.is_zero(shape.B)):
        c, r, side = shape.logs[0]
        return _sup_log_linear(c, r, side, shape.B, shape.C, lo, hi, hyp), None
    if shape is not None and len(shape.logs) == 2 and hyp.is_zero(shape.A) and hyp.is_zero(shape.B) and not discrete:
        (c1, a, s1), (c2, b, s2) = sorted(shape.logs, key=lambda t: -t[2])
        if s1 > 0 > s2:
            return _sup_two_logs(c1, a, c2, b, shape.C, lo, hi, hyp), None
    if not discrete and lo is -oo and hi is oo:
        ratio = _sup_quadratic_ratio(R, x, hyp)
        if ratio is not None:
            return ratio, None
    if not discrete and periodic.full_period(lo, hi):
        trigonometric = periodic.read(R, x)
        if trigonometric is not None:
            return periodic.supremum(*trigonometric), None
    if not discrete and hyp.substitutions > 0:
        inner = hyp.inside_substitution()
        def finish(Rt, t, a, b):
            return PieceValue(*_pair_as(sup_piece(Rt, t, a, b, inner, False)))

        found = substitute(R, x, lo, hi, hyp, False, finish)
        if found is not None:
            substitution, value = found
            return value.value, substitution
    if not discrete:
        monotone = _sup_monotone(R, x, lo, hi, hyp)
        if monotone is not None:
            return monotone, None
        critical = sup_at_critical_points(R, x, lo, hi)
        if critical is not None:
            return critical, None
    raise NoClosedFormError(f"no closed-form supremum rule for log(P/Q) = {R}")


def _sup_quadratic_ratio(R, x, hyp: Hypotheses):
    """sup over ℝ of C + c·log(Q₂/Q₁), Q positive-definite quadratics (Cauchy, Student t laws of one
    shape): C + c·log λ, λ the larger (c > 0) or smaller (c < 0) root of det(M₂ − λM₁) = 0
    (:func:`rdpsym.engine.quadratic_logs.sup_log_ratio`); None for any other R."""
    read = quadratic_logs.read(R, x, hyp)
    if read is None or len(read.factors) != 2 or hyp.is_zero(read.factors[0][0] + read.factors[1][0]) is not True:
        return None
    (_, mu1, g1), (c2, mu2, g2) = read.factors  # (c₁ = −c₂)
    return read.C + quadratic_logs.sup_log_ratio(c2, (mu1, g1), (mu2, g2), hyp)


def _sup_monotone(R, x, lo, hi, hyp: Hypotheses):
    """sup of a log-ratio that is monotone on (lo, hi): its limit at the end it rises toward, or None.

    Monotone when R′, factored, is a product of factors whose signs are decided (e^{−x}, 1 + e^{−x}, …)
    and at most one factor f free of x whose sign is not: then the supremum is the limit at hi where
    f > 0 (R′ > 0) and at lo where not, a Piecewise.  Two logistic laws a shift apart meet this:
    R′ = 2(1 − e^δ)e^{−x}/((1 + e^{−x})(1 + e^δ e^{−x})).  The limits are ``sympy.limit`` under a time budget.
    """
    def end(point, side):
        value = budgeted(lambda: sp.limit(R, x, point, side), "sympy.limit", seconds=2.0)
        if value.has(sp.Limit) or value is sp.nan or value.has(sp.zoo):
            raise NoClosedFormError(f"sympy.limit left lim log(P/Q) at {point} unevaluated")
        return value

    derivative = budgeted(lambda: sp.factor(sp.together(sp.diff(R, x))), "the log-ratio's derivative", seconds=2.0)
    sign, undecided = 1, None
    for factor in sp.Mul.make_args(derivative):
        base, exponent = factor.as_base_exp() if factor.is_Pow and factor.exp.is_integer else (factor, 1)
        if exponent % 2 == 0:
            continue  # ≥ 0 everywhere: R stays monotone
        if _positive(base, x, hyp):
            continue
        if _positive(-base, x, hyp):
            sign = -sign
            continue
        if base.has(x) or undecided is not None:
            return None
        undecided = base
    if undecided is None:  # R′ of one sign (or R′ ≡ 0: both ends give the constant)
        return end(hi, "-") if sign > 0 else end(lo, "+")
    rising = _in_exponents(undecided > 0 if sign > 0 else undecided < 0)
    decided = hyp.holds(rising)
    if decided is not None:
        return end(hi, "-") if decided else end(lo, "+")
    return sp.Piecewise((end(hi, "-"), rising), (end(lo, "+"), True))


def _in_exponents(condition):
    """e^a > e^b written a > b, e^a > 1 written a > 0 (both sides positive: log is increasing)."""
    if not isinstance(condition, sp.core.relational.Relational):
        return condition
    terms = sp.Add.make_args(sp.expand(condition.lhs - condition.rhs))
    if len(terms) != 2:
        return condition
    plus = [t for t in terms if not t.could_extract_minus_sign()]
    minus = [-t for t in terms if t.could_extract_minus_sign()]
    if len(plus) != 1 or len(minus) != 1:
        return condition
    lhs, rhs = plus[0], minus[0]
    if all(isinstance(side, sp.exp) or (side.is_number and side.is_positive) for side in (lhs, rhs)):
        return condition.func(sp.log(lhs), sp.log(rhs))
    return condition


def _positive(f, x, hyp: Hypotheses) -> bool:
    """Whether f > 0: by the hypotheses for a parameter factor; for a function of x at every real x, as a
    sum of products of positive numbers, positive symbols and exponentials of real arguments (1 + e^{−x})."""
    if not f.has(x):
        return hyp.is_positive(f) is True
    return f.is_positive is True or all(
        all(g.is_positive or (isinstance(g, sp.exp) and g.args[0].is_extended_real) for g in sp.Mul.make_args(t))
        for t in sp.Add.make_args(f))


def _pair_as(found: tuple) -> tuple:
    """(value, substitution) as the fields of a PieceValue, which carries the substitution along."""
    value, substitution = found
    return value, sp.true, "supremum", substitution


def _sup_quadratic(R, var, lo, hi, hyp: Hypotheses, discrete: bool):
    """sup of R = A·x² + B·x + C over (lo, hi), as a Piecewise on undecided signs.

    A polynomial of higher degree is +∞ when it grows toward an infinite end of the piece
    (−4x³ + … toward −∞: two quartic laws with different centres).
    """
    poly = sp.Poly(R, var)
    if poly.degree() > 2:
        lead, n = poly.LC(), poly.degree()
        toward = [end for end in (lo, hi) if end in (oo, -oo)]
        if any(hyp.is_positive(lead * (1 if end is oo or n % 2 == 0 else -1)) for end in toward):
            return oo
        raise NoClosedFormError(f"no closed-form supremum for the polynomial log-ratio {R}")
    A, B = poly.coeff_monomial(var**2), poly.coeff_monomial(var)
    finite_ends = [R.subs(var, e) for e in (lo, hi) if e not in (oo, -oo)]
    ends_max = sp.Max(*finite_ends) if finite_ends else None

    def linear_case():
        # sup of B·x + C: ∞ towards an infinite end it grows to, else the larger finite end.
        cases = []
        if hi is oo:
            cases.append((oo, B > 0))
        if lo is -oo:
            cases.append((oo, B < 0))
        if ends_max is None:
            cases.append((R.subs(var, 0), sp.Eq(B, 0)))
        else:
            cases.append((ends_max, True))
        return _piecewise(cases, hyp)

    if hyp.is_zero(A):
        return linear_case()
    if discrete:
        raise NoClosedFormError("discrete quadratic log-ratio: the supremum is at an integer near the vertex")
    v = -B / (2 * A)
    vertex = R.subs(var, v)
    if lo is -oo and hi is oo:
        concave = vertex
    else:
        inside = sp.And(*[c for c in ((v > lo) if lo is not -oo else sp.true,
                                      (v < hi) if hi is not oo else sp.true)])
        concave = _piecewise([(vertex, inside), (ends_max, True)], hyp)
    convex = oo if (lo is -oo or hi is oo) else ends_max
    linear = linear_case()
    # The three cases exclude one another: one that gives the "otherwise" value is that value.
    cases = [(value, cond) for value, cond in ((concave, A < 0), (convex, A > 0)) if value != linear]
    return _piecewise([*cases, (linear, True)], hyp)


def _sup_log_linear(c, r, side, B, C, lo, hi, hyp: Hypotheses):
    """sup of c·log|x − r| + B·x + C over (lo, hi), r outside the piece (at or beyond an end).

    In u = |x − r| ∈ (u_l, u_h): c·log u + B u + C′.  It is +∞ at u → 0⁺ when c < 0
    (log P/Q blows up at a finite end of the support), and at u → ∞ when B > 0, or
    B = 0 and c > 0; otherwise the largest of the finite ends and, when c > 0 and
    B < 0, the interior maximum at u* = −c/B.
    """
    if side < 0:  # reflect x ↦ −x: c·log(r − x) + B x = c·log(y + r) − B y
        return _sup_log_linear(c, -r, 1, -B, C, -hi, -lo, hyp)
    ul = sp.S.Zero if sp.expand(lo - r) == 0 else sp.expand(lo - r)
    uh = oo if hi is oo else sp.expand(hi - r)
    C0 = C + B * r

    def at(u):
        return c * sp.log(u) + B * u + C0

    infinite, finite = [], []
    if ul == 0:
        infinite.append(c < 0)
        finite.append((C0, sp.Eq(c, 0)))
    else:
        finite.append((at(ul), sp.true))
    if uh is oo:
        infinite += [B > 0, sp.And(sp.Eq(B, 0), c > 0)]
        finite.append((C0, sp.And(sp.Eq(B, 0), sp.Eq(c, 0))))
    else:
        finite.append((at(uh), sp.true))
    u_star = -c / B if hyp.is_zero(B) is not True else None
    if u_star is not None:
        inside = [c > 0, B < 0] + ([u_star > ul] if ul != 0 else []) + ([u_star < uh] if uh is not oo else [])
        finite.append((at(u_star), sp.And(*inside)))
    return _assemble(infinite, finite, hyp)


def _sup_two_logs(c1, a, c2, b, C, lo, hi, hyp: Hypotheses):
    """sup of c₁·log(x − a) + c₂·log(b − x) + C over (lo, hi) = (a, b): the beta family's log-ratio.

    +∞ at an end whose coefficient is negative; for c₁, c₂ > 0 the maximum at
    x* = (c₁b + c₂a)/(c₁ + c₂); with one coefficient 0 the other end's limit.
    """
    if not (_close(lo, a) and _close(hi, b)):
        raise NoClosedFormError("a beta-type log-ratio on a piece that does not span its roots")
    w = b - a
    star = c1 * sp.log(c1 * w / (c1 + c2)) + c2 * sp.log(c2 * w / (c1 + c2)) + C
    infinite = [c1 < 0, c2 < 0]
    finite = [(star, sp.And(c1 > 0, c2 > 0)), (c1 * sp.log(w) + C, sp.And(sp.Eq(c2, 0), c1 > 0)),
              (c2 * sp.log(w) + C, sp.And(sp.Eq(c1, 0), c2 > 0)), (C, sp.And(sp.Eq(c1, 0), sp.Eq(c2, 0)))]
    return _assemble(infinite, finite, hyp)


def _close(u, v) -> bool:
    return u == v or (u not in (oo, -oo) and v not in (oo, -oo) and sp.expand(u - v) == 0)


def _assemble(infinite: list, finite: list, hyp: Hypotheses):
    """sup from candidates: +∞ when one of ``infinite`` holds, else the largest of the ``finite``
    (value, condition) pairs whose condition holds; as a Piecewise where the hypotheses do not decide."""
    open_infinite = []
    for cond in infinite:
        truth = hyp.holds(cond)
        if truth is True:
            return oo
        if truth is None:
            open_infinite.append(cond)
    kept = []
    certain = [value for value, cond in finite if hyp.holds(cond) is True]
    for value, cond in finite:
        truth = hyp.holds(cond)
        if truth is False:
            continue
        if truth is None and _dominated(value, cond, certain):
            continue  # at c = 0 this candidate is one that is always there (an end's value)
        if truth is True:
            if value not in kept:
                kept.append(value)
            continue
        same = next((i for i, e in enumerate(kept) if isinstance(e, sp.Piecewise) and e.args[0][0] == value), None)
        if same is not None:  # one value under two conditions: under either
            either = sp.simplify_logic(sp.Or(kept[same].args[0][1], cond))
            kept[same] = sp.Piecewise((value, either), (-oo, True))
        elif value not in kept:
            kept.append(sp.Piecewise((value, cond), (-oo, True)))
    if not kept:
        if not open_infinite:
            raise NoClosedFormError("no case of the supremum applies")
        return oo
    if open_infinite and len(kept) == 1 and isinstance(kept[0], sp.Piecewise) and _exhaustive(
            [*open_infinite, kept[0].args[0][1]]):
        # c < 0 or c > 0 gives ∞, and the one finite case is c = 0: "otherwise" (log-normal laws, D_∞),
        # where the value is read with c = 0 (μ₁ = μ₂: 0, not (μ₂² − μ₁²)/(2σ²)).
        value, cond = kept[0].args[0]
        if isinstance(cond, sp.Equality):
            case = parametrise(cond.lhs - cond.rhs, 0, set())
            if case is not None:
                value = sp.factor(value.xreplace({case.symbol: case.value}))
        return sp.Piecewise((oo, sp.Or(*open_infinite)), (value, True))
    best = kept[0] if len(kept) == 1 else sp.Max(*kept)
    return sp.Piecewise((oo, sp.Or(*open_infinite)), (best, True)) if open_infinite else best


def _dominated(value: sp.Expr, cond: sp.Basic, certain: list) -> bool:
    """Whether a candidate that applies only when ``cond`` (an equation) holds equals an unconditional one there."""
    if not isinstance(cond, sp.Equality) or not certain:
        return False
    case = parametrise(cond.lhs - cond.rhs, 0, set())
    if case is None:
        return False
    at = {case.symbol: case.value}
    return any(sp.expand(expand_logs((value - other).xreplace(at))) == 0 for other in certain)


def _exhaustive(conditions: list) -> bool:
    """Whether the conditions cover every sign of one quantity (E < 0, E > 0 and E = 0 among them)."""
    signs: dict = {}
    for cond in conditions:
        for part in (cond.args if isinstance(cond, sp.Or) else (cond,)):
            if not isinstance(part, (sp.StrictLessThan, sp.StrictGreaterThan, sp.Equality, sp.Unequality)):
                return False
            E = sp.expand(part.lhs - part.rhs)
            lead = E.as_coeff_Mul()[0] if not E.is_Number else E
            E = sp.expand(E / lead) if lead.is_Number and lead != 0 else E
            flip = bool(lead.is_Number and lead < 0)
            if E.could_extract_minus_sign():  # one sign convention: −k₁ + k₂ < 0 is k₁ − k₂ > 0
                E, flip = sp.expand(-E), not flip
            kind = {sp.StrictLessThan: {"<"}, sp.StrictGreaterThan: {">"}, sp.Equality: {"="},
                    sp.Unequality: {"<", ">"}}[type(part)]
            if flip:
                kind = {{"<": ">", ">": "<"}.get(k, k) for k in kind}
            signs.setdefault(E, set()).update(kind)
    return len(signs) == 1 and next(iter(signs.values())) == {"<", ">", "="}


def _piecewise(cases, hyp: Hypotheses):
    """Piecewise with the cases decided by the hypotheses dropped or taken."""
    kept = []
    for value, cond in cases:
        truth = hyp.holds(cond) if cond is not True else True
        if truth is False:
            continue
        if truth is True:
            if not kept:
                return value
            kept.append((value, True))
            break
        kept.append((value, cond))
    if not kept:
        raise NoClosedFormError("no case of the supremum applies")
    if kept[-1][1] is not True:
        kept.append((oo, True))  # unreachable under the cases' hypotheses; keeps Piecewise total
    return sp.Piecewise(*kept)
