"""Subsampling: a mechanism run on a random sample of the records, and DP-SGD's subsampled Gaussian.

:func:`poisson_sampled` (each record in the sample independently with
probability q) and :func:`sampled_without_replacement` (a sample of fixed size)
wrap any built-in mechanism or guarantee; :func:`sampled_gaussian` is the
Poisson-subsampled Gaussian, which :func:`poisson_sampled` of a Gaussian
delegates to.  Their curves are computed by accounting
(:mod:`rdpsym.accounting.subsampling`, :mod:`rdpsym.accounting.sampled_gaussian`),
not derived from densities.
"""

from __future__ import annotations

from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import positive_parameter, probability_parameter
from rdpsym.foundations.record import Citation
from rdpsym.laws.additive_noise import gaussian
from rdpsym.laws.mechanism_types import Guarantee, LazyPair, Mechanism
from rdpsym.laws.pairs import _poisson_pair, _sampled_gaussian_pair

#: Sources cited by the declarations (Mironov 2017 is in rdpsym.foundations.record).
MTZ_2019 = Citation("Mironov, Talwar, Zhang 2019", "", "arXiv:1908.10530")
#: Poisson-subsampled RDP of any mechanism (Zhu, Wang, ICML 2019).
ZHU_WANG_2019 = Citation("Zhu, Wang 2019", "", "http://proceedings.mlr.press/v97/zhu19c.html")
#: Subsampling without replacement, the substitution relation (Wang, Balle, Kasiviswanathan, AISTATS 2019).
WBK_2019 = Citation("Wang, Balle, Kasiviswanathan 2019", "", "arXiv:1808.00087")


def sampled_gaussian(q: object, sigma: object) -> Mechanism:
    """DP-SGD's Poisson-subsampled Gaussian: sampling rate q, noise multiplier σ (sensitivity 1).

    Worst case (Mironov, Talwar, Zhang 2019, Thm 4 and Sec. 3): the pair
    (1−q)·N(0,σ²) + q·N(1,σ²) against N(0,σ²).  Its curve is not derived from
    the pair (the mixture has no closed form) but computed by
    :mod:`rdpsym.accounting.sampled_gaussian`.

    At order 2 the curve is log(1 + q²(e^{1/σ²} − 1)) (MTZ 2019, Sec. 3.3), which
    the computed value matches:

    >>> import mpmath, rdpsym, sympy as sp
    >>> c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve()
    >>> print(c.value(2, dps=20))
    0.00012851008160516182805
    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(mpmath.log(1 + mpmath.mpf("0.01")**2 * mpmath.expm1(1 / mpmath.mpf("1.21"))), 20))
    0.00012851008160516182805
    """
    qq = probability_parameter(q, "q", closed=True)
    s = positive_parameter(sigma, "sigma")
    pair = LazyPair(_sampled_gaussian_pair, qq, s)
    # symmetric: MTZ 2019 (Sec. 3.3) show this direction dominates the reverse one, the
    # convention of every accountant built on it.
    return Mechanism("sampled-gaussian", {"q": qq, "sigma": s}, pair, None,
                     "(1−q)N(0,σ²) + qN(1,σ²) vs N(0,σ²) (Mironov–Talwar–Zhang 2019)", True,
                     "add or remove one record, each sampled with probability q, of a sum of terms of ℓ₂ norm "
                     "≤ 1", MTZ_2019.at("Theorem 4 and Section 3.3"))


def _inner(mechanism: object, what: str) -> Mechanism | Guarantee:
    if not isinstance(mechanism, (Mechanism, Guarantee)):
        valid = "an rdpsym Mechanism or Guarantee (e.g. rdpsym.laplace(1))"
        raise ParameterError(must(f"the mechanism of {what}", valid, type(mechanism).__name__))
    return mechanism


#: The neighbouring relations subsampling fixes, as "inputs that …" reads them.
ADDED_OR_REMOVED, REPLACED = "differ by adding or removing one record", "differ in one replaced record"
#: The relation each subsampled mechanism's curve holds for, by the mechanism's name (which its curve's component
#: names start with: :func:`rdpsym.accounting.curve` refuses to compose two relations by it).
SAMPLING_RELATIONS = {"poisson-sampled": ADDED_OR_REMOVED, "sampled-gaussian": ADDED_OR_REMOVED,
                      "sampled-without-replacement": REPLACED}
_ADD_REMOVE = tuple(name for name, relation in SAMPLING_RELATIONS.items() if relation == ADDED_OR_REMOVED)
_SUBSTITUTION = tuple(name for name, relation in SAMPLING_RELATIONS.items() if relation == REPLACED)


def _same_relation(inner: Mechanism | Guarantee, what: str, needed: str, other: tuple) -> None:
    """Refuse an inner mechanism whose curve holds for the other neighbouring relation: a Poisson-subsampled curve
    (add or remove one record) under sampling without replacement, which needs the inner curve for a replaced
    record, was accepted and called exact (a probe); and the reverse."""
    if inner.name in other:
        raise ParameterError(must(f"the mechanism of {what}", f"one whose curve holds for inputs that {needed}",
                                  f"{inner.name} (its curve holds for the other relation: {_relation(inner)})"))


def _relation(mechanism: Mechanism | Guarantee) -> str:
    return getattr(mechanism, "neighbouring", "") or "the relation of its guarantee"


def poisson_sampled(mechanism: Mechanism | Guarantee, q: object) -> Mechanism | Guarantee:
    """The mechanism run on a Poisson sample: each record enters independently with probability q.

    Relation: add or remove one record.  If the inner mechanism's adjacent
    outputs (on a sample with and without the record) are the pair (P, Q),
    the two outputs of the subsampled mechanism are (1−q)Q + qP and Q, in
    both orders.  The curve (:mod:`rdpsym.accounting.subsampling`) is, order
    by order, an exact value or a certified upper bound, and says which:

    * the Gaussian is delegated to :func:`sampled_gaussian` (Mironov, Talwar,
      Zhang 2019: exact at every order), with σ/Δ as its noise multiplier;
    * integer orders, removal direction D_α((1−q)Q + qP ‖ Q): the binomial
      expansion E_Q[((1−q) + qP/Q)^α] = Σ_l C(α,l)(1−q)^{α−l} q^l E_Q[(P/Q)^l]
      with the moments from the inner curve, e^{(l−1)ε(l)}: exact when one pair
      attains the inner curve at every order, and an upper bound for every
      adjacent pair otherwise (the coefficients are positive; Zhu–Wang 2019);
    * the addition direction D_α(Q ‖ (1−q)Q + qP): exact where the inner pair
      has finitely many likelihood ratios and dominates (randomized response,
      k-ary randomized response, discrete Laplace, ε-DP) and for the discrete
      Gaussian (a sum over ℤ), not above the removal direction for the Laplace
      mechanism (Zhu–Wang 2019, Theorem 8's condition), and otherwise bounded
      (see the module);
    * fractional orders: exact where the loss law is finite and for the
      discrete Gaussian; otherwise the
      chord of the convex (α − 1)·ε(α) between neighbouring integers (Zhu–Wang
      2019; Wang–Balle–Kasiviswanathan 2019, Corollary 10);
    * every order is also capped by ε-DP amplification, log(1 + q(e^{ε_∞} − 1)).

    A :class:`Guarantee` (a curve without a pair) is accepted too and gets the
    bounds that hold for every mechanism with its curve; an ε-DP guarantee is
    subsampled as randomized response with p = e^ε/(1 + e^ε), which dominates
    every ε-DP pair (Kairouz, Oh, Viswanath).
    """
    inner = _inner(mechanism, "poisson_sampled")
    _same_relation(inner, "poisson_sampled", ADDED_OR_REMOVED, _SUBSTITUTION)
    qq = probability_parameter(q, "q", closed=True)
    if isinstance(inner, Mechanism) and inner.name == "gaussian" and inner == gaussian(**inner.parameters):
        # MTZ's analysis is for sensitivity 1; σ/Δ is the same mechanism up to scaling the output.
        return sampled_gaussian(qq, inner.parameters["sigma"] / inner.parameters["sensitivity"])
    relation = (f"add or remove one record; each record is in the sample independently with probability q, and "
                f"the inner mechanism runs on the sample (inner relation: {_relation(inner)})")
    parameters = {"q": qq, "mechanism": inner}
    if isinstance(inner, Guarantee):
        return Guarantee("poisson-sampled", parameters, None, None, ZHU_WANG_2019, True,
                         f"Poisson-sampled {inner.title or inner.name}, q={qq}", relation)
    return Mechanism("poisson-sampled", parameters, LazyPair(_poisson_pair, qq, inner), None,
                     "(1−q)Q + qP vs Q and its reverse, for the inner pair (P, Q); the curve is computed, not derived",
                     False, relation, ZHU_WANG_2019)


def sampled_without_replacement(mechanism: Mechanism | Guarantee, q: object) -> Guarantee:
    """The mechanism run on a uniformly random sample of m = q·n of the n records (without replacement).

    Relation: substitution (replace one record; n is public), the relation of
    fixed-size batches.  The inner mechanism's curve must hold for inputs that
    differ in one record (its own relation must be replace-one).  The curve
    (:mod:`rdpsym.accounting.subsampling`), order by order:

    * integer α ≥ 2: Wang–Balle–Kasiviswanathan 2019, Theorem 9 (an upper
      bound from the inner curve at 2, …, α and at ∞), tightened by their
      Theorem 27 where one symmetric pair dominates every adjacent pair (the
      Gaussian, Laplace, their discrete forms, randomized response: the bound
      dp_accounting computes for the Gaussian), and never above the inner
      curve itself (subsampling is a mixture of adjacent or equal pairs);
    * fractional α: the chord of the convex (α − 1)·ε(α) between the
      neighbouring integers (their Corollary 10), below 2 the value at 2;
    * every order is capped by the ε-DP amplification log(1 + q(e^{ε_∞} − 1));
    * exact values: q = 1 is the inner curve, q = 0 is 0 (no general exact
      value is known for 0 < q < 1).

    No pair of output laws represents it (a third output law, the sample
    without the record, enters), so it is a :class:`Guarantee`.
    """
    inner = _inner(mechanism, "sampled_without_replacement")
    _same_relation(inner, "sampled_without_replacement", REPLACED, _ADD_REMOVE)
    qq = probability_parameter(q, "q", closed=True)
    relation = (f"replace one record (substitution; the dataset size n is public); a sample of m = q·n records "
                f"is drawn uniformly without replacement and the inner mechanism runs on it (inner relation: "
                f"{_relation(inner)})")
    return Guarantee("sampled-without-replacement", {"q": qq, "mechanism": inner}, None, None,
                     WBK_2019.at("Theorems 9 and 27, Corollary 10"), True,
                     f"sampled without replacement {getattr(inner, 'title', '') or inner.name}, q={qq}", relation)


__all__ = ["poisson_sampled", "sampled_gaussian", "sampled_without_replacement"]
