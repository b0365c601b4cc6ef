"""The k-fold composition of ε-DP mechanisms: optimal (exact) and advanced composition.

* :func:`kov_delta`, :func:`kov_epsilon`: the exact (ε', δ) curve of k composed ε-DP
  mechanisms, adaptively or not; P. Kairouz, S. Oh, P. Viswanath, "The composition
  theorem for differential privacy", ICML 2015 (arXiv:1311.0776), Theorem 3.3, at
  every ε' as J. Murtagh, S. Vadhan, "The complexity of computing the optimal
  composition of differential privacy", TCC 2016 (arXiv:1507.03113), state it
  (Theorem 1.5, homogeneous case with δ = 0);
* :func:`advanced_composition`: C. Dwork, G. Rothblum, S. Vadhan, "Boosting and
  differential privacy", FOCS 2010, Theorem III.3 (Dwork–Roth 2014, Theorem 3.20);
* :func:`advanced_composition_zcdp`: the same through zCDP; M. Bun, T. Steinke,
  "Concentrated differential privacy: simplifications, extensions, and lower bounds",
  TCC 2016 (arXiv:1605.02065), Propositions 1.3 and 1.4 and Lemma 1.7.

The exact curve is the reference the two closed-form bounds are measured against.
"""

from __future__ import annotations

from flint import arb

from rdpsym.accounting.conversions._inputs import (
    Real,
    _adaptive,
    _bisect_decreasing,
    _checked,
    _count,
    _delta,
    _is_exact,
    _nonnegative,
    _probability,
    _rational,
)

#: The largest k of the exact curve: it sums up to k + 1 terms C(k, l)·… at every step of a bisection: ε' of
#: kov_epsilon in 0.1 s of CPU at k = 2000 and 0.6–1.1 s at 10 000 (ε from 10⁻³ to 5, δ down to 10⁻³⁰), 2–2.6 s
#: at 20 000.  Beyond it, advanced composition or RDP accounting are the tools.
KOV_MAX_K = 10_000
KOV_WHY = "the exact curve sums k + 1 terms at every bisection step; for larger k use advanced composition"

__all__ = [
    "advanced_composition",
    "advanced_composition_zcdp",
    "kov_delta",
    "kov_epsilon",
]


# --------------------------------------------------------------------------- optimal composition


def kov_delta(epsilon: Real, k: int, epsilon_total: Real) -> arb:
    """The exact δ(ε') of the k-fold composition of ε-DP mechanisms.

    Formula: δ(ε') = Σ_{l=0}^{k} C(k, l) (e^{(k−l)ε} − e^{ε'} e^{lε})₊ / (1 + e^ε)^k.
    Source: P. Kairouz, S. Oh, P. Viswanath, "The composition theorem for
    differential privacy", ICML 2015 (arXiv:1311.0776), Theorem 3.3: k-fold
    randomized response dominates every k-fold (adaptive) composition of ε-DP
    mechanisms, and the theorem states δ at the corners ε' = (k − 2i)ε; J. Murtagh,
    S. Vadhan, "The complexity of computing the optimal composition of differential
    privacy", TCC 2016 (arXiv:1507.03113), give the formula at every ε' (their
    homogeneous case with δ = 0).  Derivation: it is the hockey-stick divergence
    Σ_y (P(y) − e^ε' Q(y))₊ of the k-fold product of randomized response, where an
    outcome with l disagreements has P = e^{(k−l)ε}/(1 + e^ε)^k, Q = e^{lε}/(1 + e^ε)^k,
    and there are C(k, l) of them (checked against enumeration in the tests).
    The composition is (ε', δ)-DP if and only if δ ≥ δ(ε'), for every k ε-DP
    mechanisms composed (adaptively or not); it is the exact reference for
    advanced-composition bounds.  Each term is written e^{ε'} e^{lε} expm1((k − 2l)ε − ε')₊
    (no subtraction of two large exponentials), with guard bits as needed.
    Hypotheses: ε ≥ 0, k a positive integer, ε' ≥ 0.

    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(kov_delta(1, 1, 0), 8), kov_delta(1, 3, 3) == 0
    ('0.46211716', True)
    """
    _nonnegative("epsilon", epsilon)
    _nonnegative("epsilon_total", epsilon_total)
    n = _count(k, KOV_MAX_K, KOV_WHY)

    rational = not isinstance(epsilon, arb) and not isinstance(epsilon_total, arb)
    if rational:  # decide the sign of each (k − 2l)ε − ε' exactly
        eq, etq = _rational("epsilon", epsilon), _rational("epsilon_total", epsilon_total)

    def compute() -> arb:
        e, et = _nonnegative("epsilon", epsilon), _nonnegative("epsilon_total", epsilon_total)
        total = arb(0)
        # C(k, l) and e^{lε} carried from one term to the next: an integer division and a product, where an
        # exponential and a binomial of its own for each term were two thirds of the sum's time.
        binomial, growth, rate = 1, arb(1), e.exp()
        for l in range(n + 1):
            if rational:
                exact_arg = (n - 2 * l) * eq - etq
                if exact_arg <= 0:
                    break  # the argument decreases in l: no later term is positive
                arg = arb(exact_arg)
            else:
                arg = (n - 2 * l) * e - et
                if arg < 0:
                    break
            total += binomial * growth * arg.expm1().nonnegative_part()
            binomial, growth = binomial * (n - l) // (l + 1), growth * rate
        if total.is_zero():
            return arb(0)  # ε' ≥ kε: no outcome has a larger privacy loss (and e^{ε'} may overflow)
        return total * et.exp() / (1 + rate) ** n

    return _probability("delta", _adaptive("delta", compute, _is_exact(epsilon, epsilon_total)))


def kov_epsilon(epsilon: Real, k: int, delta: Real) -> arb:
    """The least ε' with the k-fold composition of ε-DP mechanisms (ε', δ)-DP.

    Formula: ε'(δ) = min{ε' ≥ 0 : δ(ε') ≤ δ} with δ(ε') of :func:`kov_delta`
    (Kairouz–Oh–Viswanath 2015, Thm 3.3; Murtagh–Vadhan 2016, Thm 1.5), by certified
    bisection: the ball [ε'_lo, ε'_hi] with δ(ε'_lo) > δ (or ε'_lo = 0) and
    δ(ε'_hi) ≤ δ certified.  At most kε (where δ(ε') = 0).
    Hypotheses: ε ≥ 0, k a positive integer, 0 < δ < 1.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(kov_epsilon(fmpq(1, 10), 100, fmpq(1, 10**5)), 8)
    '4.3067914'
    """
    _nonnegative("epsilon", epsilon)
    _count(k, KOV_MAX_K, KOV_WHY)
    d = _delta(delta)
    return _bisect_decreasing("epsilon", lambda x: kov_delta(epsilon, k, x), d)


# --------------------------------------------------------------------------- advanced composition


def advanced_composition(epsilon: Real, k: int, delta: Real) -> arb:
    """ε' of the advanced composition theorem for k ε-DP mechanisms.

    Formula: ε' = sqrt(2k log(1/δ')) ε + k ε (e^ε − 1).
    Source: C. Dwork, G. Rothblum, S. Vadhan, "Boosting and differential privacy",
    FOCS 2010, Theorem III.3 (Dwork–Roth 2014, Theorem 3.20): the k-fold adaptive
    composition of (ε, δ)-DP mechanisms is (ε', kδ + δ')-DP; here the mechanisms
    are pure (δ = 0), so the result is (ε', δ')-DP.
    Hypotheses: ε ≥ 0, k a positive integer, 0 < δ' < 1.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(advanced_composition(fmpq(1, 10), 100, fmpq(1, 10**5)), 8)
    '5.8502351'
    """
    e, n, d = _nonnegative("epsilon", epsilon), _count(k), _delta(delta)
    return _checked("epsilon", (2 * n * -d.log()).sqrt() * e + n * e * e.expm1())


def advanced_composition_zcdp(epsilon: Real, k: int, delta: Real) -> arb:
    """ε' of k-fold composition of ε-DP mechanisms through zCDP.

    Formula: ε' = ε sqrt(2k log(1/δ')) + k ε²/2.
    Source: M. Bun, T. Steinke, "Concentrated differential privacy: simplifications,
    extensions, and lower bounds", TCC 2016 (arXiv:1605.02065): ε-DP ⇒ ε²/2-zCDP
    (Prop. 1.4), ρ_i-zCDP compose to Σρ_i-zCDP (Lemma 1.7), and ρ-zCDP ⇒
    (ρ + 2 sqrt(ρ log(1/δ')), δ')-DP (Prop. 1.3) with ρ = kε²/2.
    Hypotheses: ε ≥ 0, k a positive integer, 0 < δ' < 1.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision, upper_decimal
    >>> with precision(64):
    ...     upper_decimal(advanced_composition_zcdp(fmpq(1, 10), 100, fmpq(1, 10**5)), 8)
    '5.2985260'
    """
    e, n, d = _nonnegative("epsilon", epsilon), _count(k), _delta(delta)
    return _checked("epsilon", e * (2 * n * -d.log()).sqrt() + n * e * e / 2)
