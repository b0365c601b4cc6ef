"""D_α at a finite order α ≠ 1, through the moment ∫ P^α Q^{1−α} (Mironov 2017, Definition 3).

The moment is computed piece by piece by the engine's rules (:mod:`rdpsym.derive.moments`),
by the binomial theorem for a mixture at an integer order (:mod:`rdpsym.derive.binomial`),
as a finite sum for two tables, or by the overlap of two uniform laws; then
D_α = log(moment)/(α − 1) with the logarithm split where its factors are shown
positive.  The limits α = 1 (KL) and α = ∞ are :mod:`rdpsym.derive.limit_orders`.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.derive.binomial import binomial_moment
from rdpsym.derive.moments import moment
from rdpsym.derive.steps import _equals, _moment_steps, _whole_support
from rdpsym.engine.context import Hypotheses
from rdpsym.engine.tidy import collect_exp, divergence_from_moment, erf_identities, powers_from_logs
from rdpsym.foundations.arithmetic import MAX_DERIVED_POWER_DIGITS, power_problem
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.foundations.notation import P as P_
from rdpsym.foundations.notation import Q as Q_
from rdpsym.foundations.notation import RenyiMoment, omega
from rdpsym.foundations.record import Because, ByIdentity, Diverges, FiniteSum, Step, TakeLogarithm
from rdpsym.laws.densities import Continuous, Density

oo = sp.oo


def _uniform_ends(P: Density, Q: Density) -> tuple | None:
    """(a₁, b₁, a₂, b₂) when P and Q are uniform laws on finite intervals (pdfs free of the variable), else None."""
    if not (isinstance(P, Continuous) and isinstance(Q, Continuous)) or not isinstance(P.var, sp.Symbol):
        return None
    ends = (P.lo, P.hi, Q.lo, Q.hi)
    if P.pdf.has(P.var) or Q.pdf.has(Q.var) or any(e in (oo, -oo) for e in ends):
        return None
    return ends


def _uniform(P: Density, Q: Density, order, hyp: Hypotheses) -> tuple:
    """D_order of two uniform laws, p = 1/(b₁ − a₁) on [a₁, b₁] and q = 1/(b₂ − a₂) on [a₂, b₂], by their overlap.

    P^α Q^{1−α} is p^α q^{1−α} on [a₁, b₁] ∩ [a₂, b₂] and 0 elsewhere.  For α ≥ 1 (α = ∞ and the KL
    included) a part of [a₁, b₁] outside [a₂, b₂] has positive length, where P > 0 = Q: the divergence
    is finite exactly when a₂ ≤ a₁ and b₁ ≤ b₂, and is then log(p/q) = log((b₂ − a₂)/(b₁ − a₁)) at every
    order (van Erven–Harremoës 2014; Gil et al. 2013, uniform laws).  For 0 < α < 1 it is
    log(L·p^α q^{1−α})/(α − 1), L = min(b₁, b₂) − max(a₁, a₂), finite exactly when L > 0.
    """
    a1, b1, a2, b2 = _uniform_ends(P, Q)
    p, q = P.pdf, Q.pdf
    if order is oo or order == 1 or hyp.holds(order > 1):
        closed = sp.log(sp.factor((b2 - a2) / (b1 - a1)))
        conditions = (a2 <= a1, b1 <= b2)
        reason = (r"uniform laws: for $\alpha \ge 1$, finite exactly when the support of $P$ lies in that of $Q$, "
                  r"and then $\log(p/q)$ at every order")
        moment = (p / q) ** (order - 1) if order not in (1, oo) else None
    else:
        overlap = sp.Min(b1, b2) - sp.Max(a1, a2)
        moment = overlap * p**order * q ** (1 - order)
        closed = sp.log(moment) / (order - 1)
        conditions = (overlap > 0,)
        reason = (r"uniform laws: $P^\alpha Q^{1-\alpha} = p^\alpha q^{1-\alpha}$ on the overlap of the supports, "
                  "0 elsewhere")
    return closed, conditions, [_equals(order, closed, Because(reason))], moment


def _finite(P, Q, order, hyp, tables, changes: list | None = None) -> tuple:
    if tables is not None:
        I, diverges = _table_moment(*tables, order, hyp)
        steps = [Step(RenyiMoment(P_, Q_, order, omega, discrete=True), "=", I, FiniteSum())]
        if I == 0:  # no outcome where both are positive (α < 1 here: above 1 an outcome of P alone is ∞)
            diverges = Diverges("singular", for_orders_above_one=False)
        if I in (oo, 0):
            return oo, (), steps + [_equals(order, oo, diverges)], I
        D = divergence_from_moment(I, order)
        return D, (), steps + [_equals(order, D, TakeLogarithm(order))], I
    expanded = binomial_moment(P, Q, order)  # a mixture with Q at an integer order n: Σ_k C(n,k)…
    if expanded is not None:
        M, steps = expanded
    else:
        M = moment(P, Q, order, hyp)
        steps = _moment_steps(P, M, order)
    if changes is not None:
        changes.extend(_whole_support([(pair, piece.substitution) for pair, _, piece in M.pieces]))
    if M.value == oo:
        steps.append(_equals(order, oo, M.divergence))
        return oo, (), steps, oo
    if M.value == 0:  # no piece where both are positive (below 1: pieces of one law alone contribute 0)
        steps.append(_equals(order, oo, Diverges("singular", for_orders_above_one=False)))
        return oo, (), steps, M.value
    I = collect_exp(M.value) if isinstance(M.value, sp.Add) else M.value
    I, conditions = _finiteness_lifted(I, M.conditions)
    tidied = erf_identities(I)
    if tidied is not I:  # erfc z + erfc(−z) = 2: two half-line pieces of one Gaussian
        z = sp.Symbol("z")
        steps.append(Step(RenyiMoment(P_, Q_, order, P.var, discrete=False, pointwise=False), "=", tidied,
                          ByIdentity(sp.Eq(sp.erfc(z), 1 - sp.erf(z), evaluate=False))))
        I = tidied
    D = powers_from_logs(divergence_from_moment(I, order, _positive_under(conditions, hyp, M.positive_factors)))
    lifted = conditions[len(M.conditions):]  # (the moment's own finiteness, said with the logarithm's step)
    shown = sp.Piecewise((D, sp.And(*lifted)), (oo, True)) if lifted else D
    steps.append(_equals(order, shown, TakeLogarithm(order)))
    return D, conditions, steps, I


def _finiteness_lifted(I: sp.Expr, conditions: tuple) -> tuple[sp.Expr, tuple]:
    """A moment written Piecewise((v₁, c₁), …, (vₙ, cₙ), (∞, True)) as the moment where it is finite, with
    c₁ ∨ … ∨ cₙ among the conditions: they are where the divergence is finite (an inverse-gamma pair's Bessel-K
    rule gave log(Piecewise((…, α < 2), (∞, True)))/(α − 1) under the condition α ≠ 2 alone, so ``conditions``
    said "finite for every α ≠ 2"; a probe).  Any other moment is returned as it is."""
    if not isinstance(I, sp.Piecewise) or len(I.args) < 2 or I.args[-1].expr != oo or I.args[-1].cond != sp.true:
        return I, conditions
    finite = I.args[:-1]
    where = sp.Or(*(branch.cond for branch in finite))
    value = finite[0].expr if len(finite) == 1 else sp.Piecewise(*finite[:-1], (finite[-1].expr, True))
    return value, (*conditions, where) if where is not sp.true else conditions


def _positive_under(conditions: tuple, hyp: Hypotheses, factors: frozenset = frozenset()):
    """A positivity test that also knows what the convergence conditions imply, and the laws' positive ``factors``."""
    known = [c.gts - c.lts for c in conditions if isinstance(c, (sp.StrictGreaterThan, sp.StrictLessThan))]

    def positive(e: sp.Expr) -> bool:
        if e in factors or hyp.is_positive(e):
            return True
        if isinstance(e, sp.Pow) and e.exp.is_real:
            return positive(e.base)
        if isinstance(e, sp.exp):
            return True
        if isinstance(e, (sp.Add, sp.Mul)) and all(positive(t) for t in e.args):
            return True  # a sum or product of positive terms (the binomial theorem's two exponentials)
        if isinstance(e, sp.Sum) and positive(e.function):
            return True  # a series of positive terms (a theta-type normaliser)
        # 1 − e^u > 0 iff u < 0, and e^u − 1 > 0 iff u > 0 (geometric-series denominators).
        c, rest = e.as_coeff_Add()
        if c == 1 and isinstance(-rest, sp.exp):
            return positive(-(-rest).args[0])
        if c == -1 and isinstance(rest, sp.exp):
            return positive(rest.args[0])
        for k in known:
            ratio = sp.cancel(sp.together(e / k))
            if hyp.is_positive(ratio):
                return True
        return False

    return positive


def _table_moment(tp: dict, tq: dict, order, hyp) -> tuple[sp.Expr, Diverges | None]:
    terms = []
    for key in dict.fromkeys([*tp, *tq]):
        p, q = tp.get(key, sp.S.Zero), tq.get(key, sp.S.Zero)
        if p == 0:
            continue
        if q == 0:
            if hyp.holds(order > 1) is not False:
                return oo, Diverges("outcome", at=key, expression=p)
            continue
        if order.is_number and p.is_number and q.is_number:
            if _small_powers(p, q, order):
                terms.append(p**order * q ** (1 - order))  # an exact number: (3/10)²/(3/5) + … = 11/8
                continue
            # Kept as powers: at order 10⁴ the evaluated rational has 10⁴ digits; past a ceiling SymPy cannot
            # keep them unevaluated for long (its assumptions evaluate them): no closed form, say so.
            problem = power_problem(p, order, MAX_DERIVED_POWER_DIGITS) or \
                power_problem(q, 1 - order, MAX_DERIVED_POWER_DIGITS)
            if problem is not None:
                raise NoClosedFormError(f"the exact moment at order {order} holds {problem}")
            terms.append(sp.Mul(sp.Pow(p, order, evaluate=False), sp.Pow(q, 1 - order, evaluate=False), evaluate=False))
        else:
            terms.append(p**order * q ** (1 - order))
    return sp.Add(*terms), None


#: Digits up to which a finite law's p^α q^(1−α) is evaluated exactly (beyond: kept as powers).
_EXACT_DIGITS = 300


def _small_powers(p: sp.Expr, q: sp.Expr, order: sp.Expr) -> bool:
    """Whether p^order·q^(1−order) of two rationals is a short exact number (at most :data:`_EXACT_DIGITS` digits)."""
    if not (order.is_Rational and p.is_Rational and q.is_Rational):
        return False
    size = sum(len(str(abs(n))) for n in (p.p, p.q, q.p, q.q))
    return size * (abs(order.p) + abs(order.q)) <= _EXACT_DIGITS
