"""Ball helpers shared by the Mironov 2017 claim files (not a claim file).

Laws here have *ball* probabilities (Gaussian tail masses), unlike the exact
rational laws of :mod:`rdpsym.claims.finite`.  Tails are computed with
``erfc`` on the side where they are small, so probabilities like 1e-10^40 keep
their relative accuracy instead of becoming 1 − (1 − tiny).
"""

import sympy as sp
from flint import arb

from rdpsym.claims.finite import ball, probability, renyi


def upper_tail(z: arb) -> arb:
    """Pr[N(0,1) > z] = erfc(z/√2)/2.

    Arb's erfc at huge arguments (z ≳ 1e19) returns an upper bound only, a ball
    containing 0; there the tail is enclosed by the Mills-ratio bounds
    φ(z)·z/(1+z²) ≤ Pr[N(0,1) > z] ≤ φ(z)/z (z > 0), relative width 1/z².
    """
    if z < 0:
        return 1 - upper_tail(-z)  # 1 − (a small tail): erfc at a large negative argument is loose in Arb
    tail = (z / arb(2).sqrt()).erfc() / 2
    if tail > 0 or not z > 1:
        return tail
    density = (-(z**2) / 2).exp() / (2 * arb.pi()).sqrt()
    return (density * z / (1 + z**2)).union(density / z)


def threshold_law(shift: arb, threshold: arb, sigma: arb) -> tuple:
    """The law of 1{shift + N(0,σ²) > threshold} as (Pr[0], Pr[1]), each tail computed directly."""
    z = (threshold - shift) / sigma
    return upper_tail(-z), upper_tail(z)


def renyi_balls(p, q, order: arb) -> arb:
    """D_order(p‖q) for laws with ball probabilities, all positive, order > 1."""
    s = arb(0)
    for x, y in zip(p, q):
        s += (order * x.log() + (1 - order) * y.log()).exp()
    return s.log() / (order - 1)


def triangle_residual(P, R, Q, order, p_exp):
    """Proposition 11's inequality at (order α, exponent p), rearranged for when it is tight to e^{−α·gap}.

    For laws with positive probabilities and any outcome x*, write each
    D_β(A‖B) = [log t* + log1p(ρ)]/(β−1), t* = A(x*)^β B(x*)^{1−β}, ρ = Σ_{x≠x*} t_x/t*.
    The t* parts of  D_α(P‖Q) − (α−1/p)/(α−1)·D_{pα}(P‖R) − D_{q(α−1/p)}(R‖Q)  cancel
    exactly (the single-outcome equality case; proved symbolically in prop11_triangle),
    leaving  [log1p(ρ_PQ) − log1p(ρ_PR)/p − log1p(ρ_RQ)/q]/(α−1).  With x* the dominant
    outcome the ρ's are small and computed without cancellation.

    Returns ``(lhs, rhs, consistent)``: the inequality is lhs ≤ rhs, and ``consistent``
    says the decomposition reproduces the three divergences as balls.
    """
    p_exp = sp.Rational(p_exp)  # exact: p/(p − 1) with Python ints would be a float
    a, pe = ball(order), ball(p_exp)
    qe = pe / (pe - 1)
    orders = {"PQ": (P, Q, a), "PR": (P, R, pe * a), "RQ": (R, Q, qe * (a - 1 / pe))}
    star = max(range(len(P)), key=lambda x: (a * arb(P[x]).log() + (1 - a) * arb(Q[x]).log()).mid())
    rho, consistent = {}, True
    for key, (A, B, beta) in orders.items():
        lead = beta * arb(A[star]).log() + (1 - beta) * arb(B[star]).log()
        rest = arb(0)
        for x in range(len(A)):
            if x != star:
                rest += (beta * arb(A[x] / A[star]).log() + (1 - beta) * arb(B[x] / B[star]).log()).exp()
        rho[key] = rest.log1p()
        if key == "PQ":
            exact = order
        elif key == "PR":
            exact = p_exp * order
        else:
            exact = p_exp / (p_exp - 1) * (order - sp.Rational(1) / p_exp)
        consistent = consistent and ((lead + rho[key]) / (beta - 1)).overlaps(renyi(A, B, sp.Rational(exact)))
    return rho["PQ"], rho["PR"] / pe + rho["RQ"] / qe, consistent


def probability_slack(P, Q, S, a, ps):
    """log(bound/P(S)) for Proposition 10's bound with ε = D_α(P‖Q), when the bound is tight to e^{−α·gap}.

    At large α and S = {x*} (the argmax of P/Q), bound/P(S) − 1 is about
    Σ_{x∉S} P(x)(r_x/r*)^{α−1}/α: far below any working precision, so the bound
    and P(S) overlap as balls.  The slack is then computed in pieces, each a
    certified nonnegative ball (tiny numbers are fine in Arb, differences of
    nearly equal ones are not):

        log(bound/P(S)) = (1/α)·log1p(M_out/M_S)                        ≥ 0
                        + (1/α)·log M_S + (1−1/α)·log Q(S) − log P(S)    ≥ 0 (Hölder on S; 0 on a singleton)

    with M_S, M_out the sums of P^α Q^{1−α} over S and its complement (a larger
    ε only adds ((α−1)/α)(ε − D_α(P‖Q)) ≥ 0).  Returns ``(slack, total)``:
    ``total`` = log P(S) + slack must reproduce log of the bound at ε = D_α(P‖Q).
    """
    def term(k):
        return (a * arb(P[k]).log() + (1 - a) * arb(Q[k]).log()).exp()

    m_in = sum((term(k) for k in S), arb(0))
    m_out = sum((term(k) for k in range(len(P)) if k not in S), arb(0))
    head = (m_out / m_in).log1p() / a
    if len(S) == 1:
        holder = arb(0)  # (p^α q^{1−α})^{1/α} q^{1−1/α} = p exactly
    else:
        holder = m_in.log() / a + (1 - 1 / a) * probability(Q, S).log() - ps.log()
    slack = head + holder
    bound_log = (m_in + m_out).log() / a + (1 - 1 / a) * probability(Q, S).log()
    return slack, ps.log() + slack, bound_log
