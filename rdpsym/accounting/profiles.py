"""Exact privacy profiles beside the RDP conversions: a curve that *is* a Gaussian mechanism.

An RDP curve forgets everything about a mechanism but its Rényi divergences, and every RDP → (ε, δ)
conversion pays for that.  When the curve is known to be a composition of Gaussian mechanisms (made by
:func:`rdpsym.gaussian`, k-fold or added to one another) nothing is forgotten: N(0, σ²) vs N(Δ, σ²) is
(Δ/σ)-GDP, their adaptive composition is exactly μ-GDP with μ² = Σ kᵢΔᵢ²/σᵢ² (Dong, Roth, Su 2019,
arXiv:1905.02383, Cor 3.3), i.e. the pair N(0, 1) vs N(μ, 1), and its exact (ε, δ) curve is Balle–Wang 2018
(arXiv:1805.06530), Theorem 8: the least ε any accountant can certify.  ``rdpsym.epsilon`` and
``rdpsym.delta`` with their defaults (``conversion="best"``, ``orders=None``) use it when it is tighter (it
always is, or ties) and name it ``"balle-wang"``; naming orders or a conversion asks for the RDP route.  A
curve that is only *bounded* by ρα (a zCDP guarantee) is not a Gaussian and does not qualify.

A single use of the Laplace mechanism or of randomized response, as their factories make them, has its exact
profile too, the hockey-stick divergence δ(ε) = Σ (P − e^ε Q)₊ of its worst-case pair in closed form (named
``"exact-profile"``):

* Laplace, ε₀ = Δ/b: the privacy loss of Λ(0, b) vs Λ(Δ, b) is ε₀ on x ≤ 0, (Δ − 2x)/b between, and
  δ(ε) = 1 − e^{(ε − ε₀)/2} for 0 ≤ ε ≤ ε₀, so ε(δ) = ε₀ + 2·log(1 − δ);
* randomized response, p′ = max(p, 1 − p): δ(ε) = p′ − e^ε(1 − p′) for ε below ε₀ = log(p′/(1 − p′)), so
  ε(δ) = log((p′ − δ)/(1 − p′));

both 0 where the formula goes below 0.  Every RDP conversion ends at the order-∞ bound ε₀ + log(1 − δ) at best,
above these (autodp's exact Laplace ε at δ = 10⁻⁵, 0.66664666…, was "unsafe" in ``rdpsym verify``; a probe).
Their composition has no such closed form, and keeps the RDP route.

>>> import rdpsym
>>> e = exact_value(rdpsym.laplace(scale=sp.Rational(3, 2)).curve(), "epsilon", fmpq(1, 10**5), 20)
>>> e.conversion, upper_decimal(e.ball, 12)
('exact-profile', '0.666646666567')

>>> import rdpsym
>>> gaussian_shift(rdpsym.gaussian(sigma=2).curve() * 4 + rdpsym.gaussian(sigma=1).curve())
sqrt(2)
>>> gaussian_shift(rdpsym.zcdp(rho=1).curve()) is None
True
"""

from __future__ import annotations

import dataclasses

import sympy as sp
from flint import arb, fmpq

from rdpsym.accounting.conversions import gaussian_delta, gaussian_epsilon
from rdpsym.accounting.conversions._inputs import log1m
from rdpsym.accounting.curve import RdpCurve
from rdpsym.foundations.balls import bits_for, holds_digits, precision, to_arb, upper_decimal
from rdpsym.foundations.errors import ConvergenceError
from rdpsym.foundations.precision import arb_rungs, climb

#: The name results give the exact Gaussian curve as their conversion.
BALLE_WANG = "balle-wang"
#: The name results give the exact profile of a single Laplace mechanism or randomized response.
EXACT_PROFILE = "exact-profile"


@dataclasses.dataclass(frozen=True)
class Exact:
    """An exact profile's value: its certified ``ball``, the ``conversion`` name results give it, and what the
    curve was found to be (for the note of :func:`note`)."""

    ball: arb
    conversion: str
    what: str


def gaussian_shift(curve: RdpCurve) -> sp.Expr | None:
    """μ when ``curve`` is exactly the pair N(0, 1) vs N(μ, 1) (a composition of Gaussian mechanisms), else None."""
    total = sp.S.Zero
    for weight, component in curve.merged_terms:
        shift = getattr(component, "gaussian_shift", None)
        if shift is None or not isinstance(weight, (int, sp.Integer)):
            return None
        total += weight * shift**2
    if not total.is_positive:
        return None
    if total.is_Rational and max(int(total.p).bit_length(), int(total.q).bit_length()) > 256:
        # (Σ 1/σᵢ² over a hundred floats σᵢ held at their binary values is a rational of thousands of digits, whose
        # square root SymPy tries to simplify by extracting squares: 4 s for 100 events; Arb takes the root as it is)
        return sp.Pow(total, sp.S.Half, evaluate=False)
    try:
        return sp.sqrt(total)
    except (OverflowError, ValueError):  # SymPy's root of a rational of thousands of digits (500 distinct σ's)
        return sp.Pow(total, sp.S.Half, evaluate=False)


@dataclasses.dataclass(frozen=True)
class Unreached:
    """A curve with an exact profile whose value the precisions tried did not give (the RDP route answers, and says
    so: 10⁹⁹⁹ Gaussian steps were answered by Mironov's conversion, 10 % above the exact ε, without a word; a probe)."""

    reason: str


def exact_value(curve: RdpCurve, kind: str, given: fmpq, dps: int) -> Exact | Unreached | None:
    """The certified least ε at δ = ``given`` (``kind`` "epsilon") or least δ at ε = ``given`` ("delta") of a curve
    whose exact profile is known (a composition of Gaussians; one Laplace mechanism or randomized response), to
    ``dps`` digits; None for any other curve, :class:`Unreached` where the precision rdpsym tries does not give
    those digits (the RDP route answers then).  The profiles' terms cancel: Balle–Wang's two Φ's at σ = 10⁶,
    ε = 10¹², where one precision gave a ball [−3.9·10⁻ᴺ, 4.7·10⁻ᴺ] reported as 40 digits, 3.9·10⁴ times the truth
    (a probe)."""
    mu = gaussian_shift(curve)
    pure = _pure_pair(curve) if mu is None else None
    if mu is None and pure is None:
        return None

    def at(bits: int) -> Exact:
        with precision(bits):
            return _profile(mu, pure, kind, given)

    # ε of μ = 10⁵⁰⁰ is about μ²/2, and e^ε·Φ(…) needs ε to units: the digits of μ² besides those asked for (10⁶⁰⁰
    # Gaussian steps were not resolved within 688 bits, and Mironov's conversion answered, 10 % above; a probe)
    extra = 0 if mu is None else _digits_of_square(mu)
    try:
        return climb(at, lambda e: holds_digits(e.ball, dps), arb_rungs(dps + 10 + extra),
                     f"the exact {kind} to {dps} digits")
    except ConvergenceError as exc:
        return Unreached(f"the curve's exact profile ({'Balle–Wang' if mu is not None else pure[0]}) was not resolved "
                         f"to {dps} digits ({exc}); the RDP route answers")


def _digits_of_square(mu: sp.Expr) -> int:
    """The decimal digits of μ² above the units (0 for μ ≤ 1)."""
    with precision(64):
        square = to_arb(mu) ** 2
        return 0 if not square > 10 else int(float((square.log() / arb(10).log()).upper())) + 1


def _profile(mu, pure, kind: str, given: fmpq) -> Exact:
    """The exact profile at the working precision (see :func:`exact_value`)."""
    if mu is not None:
        ball = gaussian_epsilon(given, 1, to_arb(mu)) if kind == "epsilon" else \
            gaussian_delta(given, 1, to_arb(mu)).nonnegative_part()
        # (μ² of a hundred floats' σᵢ is a rational of thousands of digits: written as its value, not its digits)
        long = any(max(int(r.p).bit_length(), int(r.q).bit_length()) > 256 for r in mu.atoms(sp.Rational))
        shown = f"{to_arb(mu).mid().str(20, radius=False)}…" if long else str(mu)
        return Exact(ball, BALLE_WANG, f"exactly the Gaussian pair N(0, 1) vs N(μ, 1), μ = {shown}: its exact "
                                       "(ε, δ) curve (Balle–Wang 2018, Thm 8)")
    name, value = pure
    g = arb(given)
    if name == "laplace":
        e0 = to_arb(value)
        ball = e0 + 2 * log1m(g) if kind == "epsilon" else -((g - e0) / 2).expm1()
        what = f"one Laplace mechanism, ε₀ = Δ/b = {value}: its exact profile δ(ε) = 1 − e^((ε − ε₀)/2)"
    else:
        p = to_arb(max(value, 1 - value))
        if kind == "delta":
            ball = p - g.exp() * (1 - p)
        elif _at_least(given, 2 * max(value, 1 - value) - 1):
            # δ ≥ 2p′ − 1 is reached at ε = 0, decided exactly: at δ = 2p′ − 1 the logarithm below is a ball around 0
            # that no precision narrows, and the exact profile was passed over for a looser bound (a probe)
            ball = arb(0)
        else:  # (above p′, where p′ − δ ≤ 0, ε = 0 too)
            ball = ((p - g) / (1 - p)).log() if g < p else arb(0)
        what = (f"one randomized response, p = {value}: its exact profile δ(ε) = p′ − e^ε·(1 − p′), "
                "p′ = max(p, 1 − p)")
    return Exact(_clamped(ball), EXACT_PROFILE, what)


def _at_least(given: fmpq, bound) -> bool:
    """``given`` ≥ ``bound``, exactly (a SymPy rational, or anything else: then False, and the balls decide)."""
    if not isinstance(bound, sp.Rational):
        return False
    return given >= fmpq(int(bound.p), int(bound.q))


def _pure_pair(curve: RdpCurve) -> tuple | None:
    terms = curve.merged_terms
    if len(terms) != 1:
        return None
    weight, component = terms[0]
    pure = getattr(component, "pure_pair", None)
    return pure if pure is not None and weight == 1 else None


def _clamped(ball: arb) -> arb:
    """max(0, ball): the formulas go below 0 where the least value is 0 (δ past ε₀; ε where δ is large)."""
    if ball.upper() <= 0:
        return arb(0)
    if ball.lower() >= 0:
        return ball
    return arb(0).union(ball.upper())


def note(kind: str, exact: Exact, rdp_value: arb, rdp_conversion: str, rdp_order: object, dps: int) -> str:
    """Why the exact curve was taken, with what the RDP conversions give."""
    name = "ε" if kind == "epsilon" else "δ"
    with precision(bits_for(dps + 10)):
        shown = upper_decimal(rdp_value, min(dps, 12)) if isinstance(rdp_value, arb) else "∞"
    return (f"the curve is {exact.what} gives the least {name}; the best RDP conversion gives {shown} "
            f"({rdp_conversion} at order {rdp_order})")


__all__ = ["BALLE_WANG", "EXACT_PROFILE", "Exact", "exact_value", "gaussian_shift", "note"]
