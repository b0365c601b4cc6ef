"""Mechanisms with integer or finite outputs: randomized response (binary and k-ary), discrete Gaussian and Laplace.

Each worst case is one pair of finite or integer laws: the two rows of
randomized response (Mironov 2017, Proposition 5; Kairouz, Oh, Viswanath 2016
for k values), and for the discrete Gaussian and Laplace noise of Canonne,
Kamath, Steinke 2020 the largest integer shift Δ (their pmfs are log-concave,
so the shifts are ordered).  Their pairs are built by :mod:`rdpsym.laws.pairs`.
"""

from __future__ import annotations

import sympy as sp

from rdpsym.foundations.errors import ParameterError, must
from rdpsym.foundations.reading import (
    MAX_EXPONENTIATED,
    exact,
    exponentiated_parameter,
    integer,
    positive_parameter,
    probability_parameter,
)
from rdpsym.foundations.record import MIRONOV_2017, Citation
from rdpsym.foundations.symbols import alpha
from rdpsym.laws.mechanism_types import Guarantee, LazyPair, Mechanism
from rdpsym.laws.pairs import (
    _discrete_gaussian_pair,
    _discrete_laplace_pair,
    _k_randomized_response_pair,
    _randomized_response_pair,
)
from rdpsym.laws.references import randomized_response_reference

#: The discrete Gaussian N_ℤ(μ, σ²) and the discrete Laplace Lap_ℤ(t) (Canonne, Kamath, Steinke, NeurIPS 2020).
CKS_2020 = Citation("Canonne, Kamath, Steinke 2020", "", "arXiv:2004.00010")
#: k-ary randomized response, and the dominance of randomized response among ε-DP pairs.
KAIROUZ_OH_VISWANATH_2016 = Citation("Kairouz, Oh, Viswanath 2016", "", "arXiv:1407.1338")


def randomized_response(p: object) -> Mechanism:
    """Binary randomized response: report the true bit with probability p.

    Worst case: there are only two inputs, whose outputs are (p, 1−p) and
    (1−p, p); the divergence is the same in both directions by symmetry
    (Mironov 2017, Proposition 5).
    """
    q = probability_parameter(p, "p")
    return Mechanism("randomized-response", {"p": q}, LazyPair(_randomized_response_pair, q),
                     randomized_response_reference(q),
                     "the two inputs' output laws (p, 1−p) and (1−p, p)", True,
                     "the two inputs of one bit, 0 and 1", MIRONOV_2017.at("Proposition 5"))


def _positive_integer(value: object, name: str, why: str) -> sp.Expr:
    """A positive integer, or a Symbol declared integer and positive (``why``: what needs the integer)."""
    v = exact(value, name)
    if v.is_number:
        if not (v.is_Integer and v >= 1):
            raise ParameterError(must(name, f"a positive integer ({why})", v))
        return v
    if not (v.is_integer and v.is_positive):
        raise ParameterError(must(name, f"a positive integer ({why}), or a Symbol declared integer and positive", v))
    return v


def discrete_gaussian(sigma: object, sensitivity: object = 1, bound: str = "exact") -> Mechanism | Guarantee:
    """The discrete Gaussian mechanism f(D) + N_ℤ(0, σ²) for an integer-valued f with sensitivity Δ.

    N_ℤ(μ, σ²) has pmf ∝ exp(−(k − μ)²/(2σ²)) on ℤ (Canonne, Kamath, Steinke
    2020).  With θ(t) = Σ_{k∈ℤ} exp(−(k − t)²/(2σ²)) the shift k → k − μ
    leaves the normaliser θ(0) unchanged, and completing the square gives

        D_α(N_ℤ(0,σ²) ‖ N_ℤ(Δ,σ²)) = αΔ²/(2σ²) + log(θ((1−α)Δ)/θ(0))/(α − 1),

    exactly: θ(t) ≤ θ(0), so it is at most the continuous Gaussian's αΔ²/(2σ²),
    with equality when (α − 1)Δ is an integer (every integer order).  D_1 =
    Δ²/(2σ²); D_∞ = ∞.

    ``bound="exact"`` (default) is this Mechanism: its curve evaluates the
    theta sums in certified balls (:mod:`rdpsym.accounting.discrete`).
    ``bound="continuous"`` is the Guarantee αΔ²/(2σ²), the bound CKS 2020 prove
    (½(Δ/σ)²-concentrated DP), which the exact curve never exceeds.

    Worst case: adjacent inputs give N_ℤ(c, σ²) and N_ℤ(c + μ, σ²) with an
    integer |μ| ≤ Δ; by translation and reflection the pair is (N_ℤ(0), N_ℤ(μ)).
    The pmf is log-concave, so the shifts have monotone likelihood ratios and
    (N_ℤ(0), N_ℤ(μ)) is a post-processing of (N_ℤ(0), N_ℤ(Δ)) (their trade-off
    functions are ordered): μ = Δ dominates every adjacent pair, for every
    divergence, subsampled ones included.
    """
    s = positive_parameter(sigma, "sigma")
    d = _positive_integer(sensitivity, "sensitivity", "the discrete Gaussian adds integer noise to an integer query")
    if bound == "continuous":
        return Guarantee("discrete-gaussian", {"sigma": s, "sensitivity": d}, alpha * d**2 / (2 * s**2), sp.oo,
                         CKS_2020.at("concentrated DP of the discrete Gaussian"), True,
                         f"discrete Gaussian(σ={s}, Δ={d}), continuous bound")
    if bound != "exact":
        raise ParameterError(must("bound", "'exact' or 'continuous'", repr(bound)))
    return Mechanism("discrete-gaussian", {"sigma": s, "sensitivity": d}, LazyPair(_discrete_gaussian_pair, s, d),
                     None, "N_ℤ(0, σ²) vs N_ℤ(Δ, σ²): the shifts are ordered (log-concave pmf), Δ is the largest",
                     True, "inputs D, D' with |f(D) − f(D')| ≤ Δ for an integer-valued f (Δ a positive integer)",
                     CKS_2020.at("the discrete Gaussian N_ℤ(μ, σ²)"))


def discrete_laplace(scale: object, sensitivity: object = 1) -> Mechanism:
    """The discrete Laplace mechanism f(D) + Lap_ℤ(t), pmf ∝ exp(−|k|/t) on ℤ (CKS 2020's Lap_ℤ(t)).

    With r = e^{−1/t} the normaliser is (1 + r)/(1 − r).  The likelihood ratio
    P/Q of the pair (Lap_ℤ(0), Lap_ℤ(Δ)) is e^{−Δ/t} for k ≤ 0, e^{Δ/t} for
    k ≥ Δ and e^{(2k−Δ)/t} in between: finitely many values, so every
    divergence of the pair (and of its subsampled mixtures) is a finite sum,
    evaluated exactly in balls (:mod:`rdpsym.accounting.discrete`).  It is
    Δ/t-DP (D_∞ = Δ/t).

    Worst case: the pmf is log-concave, so as for :func:`discrete_gaussian`
    the shift Δ dominates every smaller integer shift, for every divergence.
    """
    t = positive_parameter(scale, "scale")
    d = _positive_integer(sensitivity, "sensitivity", "the discrete Laplace adds integer noise to an integer query")
    return Mechanism("discrete-laplace", {"scale": t, "sensitivity": d}, LazyPair(_discrete_laplace_pair, t, d),
                     None, "Lap_ℤ(0, t) vs Lap_ℤ(Δ, t): the shifts are ordered (log-concave pmf), Δ is the largest",
                     True, "inputs D, D' with |f(D) − f(D')| ≤ Δ for an integer-valued f (Δ a positive integer)",
                     CKS_2020.at("the discrete Laplace Lap_ℤ(t)"))


def k_randomized_response(k: object, epsilon: object = None, *, noise: object = None,
                          relation: str = "replace-one") -> Mechanism:
    """k-ary randomized response: report the true value with probability p = e^ε/(e^ε + k − 1), else each
    other value with probability 1/(e^ε + k − 1) (Kairouz, Oh, Viswanath 2016).

    ``noise=r`` is dp_accounting's convention instead of ``epsilon``: with
    probability r answer uniformly at random among the k values, so the true
    value has probability 1 − r + r/k and e^ε = k/r − k + 1 (r = 0 is no noise,
    ε = ∞; r = 1 is no information, ε = 0).  The mechanism is stored by ε.

    ``relation="replace-one"``: the adjacent inputs are two of the k values; the
    pair is their two rows.  Outputs other than the two values have likelihood
    ratio 1 and are merged into one outcome (a sufficient statistic: no
    divergence changes).  Every pair of distinct values is this pair up to a
    relabelling, so it dominates.  k = 2 is :func:`randomized_response` with
    p = e^ε/(1 + e^ε).  ``relation="replace-special"`` (dp_accounting's
    REPLACE_SPECIAL): one input is a special value answered uniformly at
    random; the pair is a row against the uniform law, not symmetric (the curve
    takes the larger direction).  k = 1 has a single value: nothing to hide, ε(α) = 0.
    """
    kk = integer(k, "k", minimum=1)
    if (epsilon is None) == (noise is None):
        raise ParameterError(must("k_randomized_response", "given exactly one of epsilon and noise",
                                  "both" if epsilon is not None else "neither"))
    if noise is not None:
        r = probability_parameter(noise, "noise", closed=True)
        e = sp.oo if r == 0 else sp.log(kk / r - kk + 1)
        if e != sp.oo and e.is_number and e > MAX_EXPONENTIATED:
            valid = f"large enough that ε = log(k/noise − k + 1) is at most {MAX_EXPONENTIATED}"
            raise ParameterError(must("noise", valid + " (e^ε within 10^1000; README: Ceilings)", r))
    else:
        e = exact(epsilon, "epsilon")
        if e != sp.oo:
            e = exponentiated_parameter(e, "epsilon", nonnegative=True)
    if relation not in ("replace-one", "replace-special"):
        raise ParameterError(must("relation", "'replace-one' or 'replace-special'", repr(relation)))
    one = relation == "replace-one"
    special = "replace one value by a special value whose answer is uniform (dp_accounting's REPLACE_SPECIAL)"
    # (named apart: the two relations' curves differ, and a report on either names the one it is about)
    return Mechanism("k-randomized-response" if one else "k-randomized-response-vs-special",
                     {"k": sp.Integer(kk), "epsilon": e},
                     LazyPair(_k_randomized_response_pair, sp.Integer(kk), e, relation), None,
                     "the rows of two distinct values" if one else "a value's row vs the special value's uniform row",
                     one, "replace one value by another (any two of the k values)" if one else special,
                     KAIROUZ_OH_VISWANATH_2016.at("k-ary randomized response"))


__all__ = ["discrete_gaussian", "discrete_laplace", "k_randomized_response", "randomized_response"]
