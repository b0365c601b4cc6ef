"""Float estimates and lower bounds of the optimal conversion: for choosing orders, never for a published number.

:func:`estimate` (and :func:`estimate_epsilon`, :func:`estimate_log_delta`) solve the optimal pair in
float64 (:mod:`rdpsym.accounting.conversions.optimal_pairs`); :func:`float_solution` is that solve, which the
certified conversion (:mod:`rdpsym.accounting.conversions.optimal`) takes as its start so that an order
estimated and then certified is solved once.  :func:`witness_epsilon` (from :func:`witness_terms` and
:func:`witness_from`) is a proved lower bound on the optimal ε in a few float operations, from an explicit
witness pair; :func:`quick_epsilon` and :func:`quick_log_delta` are cheaper estimates still.  They let
:mod:`rdpsym.accounting.conversions.tightest` discard the orders that cannot win before anything is certified.
"""

from __future__ import annotations

import math

from flint import arb, fmpq

from rdpsym.accounting.conversions._inputs import Order, Real
from rdpsym.accounting.conversions.optimal_pairs import FLOAT, _family, _log_expm1, _lse, _solve_float, _solve_newton
from rdpsym.foundations.errors import ConvergenceError

__all__ = ["estimate", "estimate_epsilon", "estimate_log_delta", "float_solution", "quick_epsilon", "quick_log_delta",
           "witness_epsilon", "witness_from", "witness_terms"]


def estimate_epsilon(order: Order, r: Real, delta: Real) -> float | None:
    """The optimal conversion's ε in float64 (not certified; None where the float solver fails): for choosing
    the orders worth certifying, never for a published number."""
    return estimate(order, r, delta, "delta")[0]


def estimate(order: Order, r: Real, target: Real, given: str) -> tuple[float | None, tuple | None]:
    """(the float estimate, the float solution) of the optimal conversion at (α, r): ε given δ (``given =
    "delta"``) or log δ given ε (``"gamma"``).  The solution (None in the closed-form regimes or on failure)
    is what :func:`optimal_epsilon` / :func:`optimal_delta` take as ``start``, so an order that is estimated
    and then certified is solved in floats once.  Not certified: it chooses, it never decides."""
    try:
        a = _as_float(order)
        rf, tf = float(arb(r).upper()), float(arb(target).mid())
        if given == "delta":
            if tf >= 1 / a:
                return rf + math.log1p(-tf), None
        elif tf <= rf + math.log1p(-1 / a):
            return math.log(-math.expm1(tf - rf)), None
        start = float_solution(order, r, target, given)
        return start[2 if given == "delta" else 3], start
    except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError, TypeError):
        return None, None


def float_solution(order: Order, r: Real, target: Real, given: str) -> tuple:
    """(s, u, log γ, log δ) of the optimal pair in float64, from the inputs as :func:`_interior` reads them
    (r's upper end; δ's or ε's midpoint).  Raises on failure (ConvergenceError and the float errors)."""
    af, rf = _as_float(order), float(arb(r).upper())
    tm = float(arb(target).mid())
    tf = math.log(tm) if given == "delta" else tm
    log_m = (af - 1) * rf
    try:
        found = _solve_newton(af, log_m, tf) if given == "delta" else None
    except (ConvergenceError, ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        found = None
    s_f, u_f = found if found is not None else _solve_float(af, log_m, tf, given)
    _, lg_f, ld_f = _family(FLOAT, af, log_m, s_f, u_f)
    return s_f, u_f, lg_f, ld_f


def witness_epsilon(order: Order, r: float, d: float) -> float | None:
    """A lower bound on the optimal conversion's ε of (α, r)-RDP at δ, in a few float operations, from an
    explicit witness pair: no conversion of (α, r) can certify less.  For discarding orders that cannot win
    before anything is solved (:mod:`~rdpsym.accounting.conversions.tightest`); None where it gives nothing
    (an order that is not an exact rational, r ≤ 0, or the pair below does not exist).

    Proof.  At δ ≥ 1/α the optimum is r + log(1 − δ) (module ``optimal``).  Otherwise take v = αδ < 1,
    L₀ = 1 − v, K = (M − e^{−αv})/v with M = e^{(α−1)r}, L_min = (K/2)^{1/(α−1)}, assume L_min ≥ max(1, 2L₀),
    and put θ = 1 − L₀/L_min ∈ [1/2, 1), L₁ = (θK)^{1/(α−1)} ≥ L_min, w = v/(L₁ − L₀), P = (wL₁, 1 − wL₁),
    Q = (w, 1 − w) (probabilities, as L₁ ≥ 1).  Then E_Q[(dP/dQ)^α] = wL₁^α + (1 − w)L₀^α ≤ M: the second
    term is ≤ (1 − v)^α ≤ e^{−αv}, and wL₁^α ≤ vK ⟺ L₁^α ≤ K(L₁ − L₀) ⟺ θL₁ ≤ L₁ − L₀ ⟺ L₁ ≥ L₀/(1 − θ) = L_min.
    So D_α(P‖Q) ≤ r, and with γ = L₁ − δ/w, P(S) − γQ(S) = δ on the first atom: every γ' < γ leaves
    E_{γ'}(P‖Q) > δ, so every valid ε is ≥ log γ ≥ log L₁ + log(1 − δ/v) = (log θ + log K)/(α − 1) +
    log(1 − 1/α): Balle et al.'s ε (Thm 21) plus (log θ + log(1 − e^{−αv − (α−1)r}))/(α − 1) < 0.

    Evaluated in float64 from the exact α and α − 1 (each rounded once) and r rounded to nearest, then lowered
    by 10⁻¹¹ times the sum of the magnitudes of every term, some thousand times the rounding of these few
    operations (each correctly rounded or within an ulp, and the bound is increasing in r), so the float
    returned is below the exact bound.

    >>> from flint import fmpq
    >>> from rdpsym.foundations.balls import precision
    >>> from rdpsym.accounting.conversions.optimal import optimal_epsilon
    >>> from rdpsym.accounting.conversions.rdp_dp import balle_epsilon
    >>> with precision(128):
    ...     exact = float(optimal_epsilon(fmpq(47, 10), fmpq(5, 2), fmpq(1, 10**5)).value.mid())
    ...     balle = float(balle_epsilon(fmpq(47, 10), fmpq(5, 2), fmpq(1, 10**5)).mid())
    >>> w = witness_epsilon(fmpq(47, 10), 2.5, 1e-5)
    >>> w < exact < balle, f"{exact - w:.1e}", f"{balle - exact:.1e}"   # below the optimum by less than 0.04 %
    (True, '1.8e-03', '2.6e-05')
    """
    return witness_from(witness_terms(order, d), r)


def witness_terms(order: Order, d: float) -> tuple | None:
    """What :func:`witness_epsilon` needs of (α, δ) alone (kept per order by the callers that ask many r):
    (α, α − 1, v = αδ, log v, log(1 − 1/α), log(1 − δ)), or None (not an exact rational order, or δ not in
    (0, 1))."""
    try:
        if isinstance(order, fmpq):
            a, h = int(order.p) / int(order.q), int(order.p - order.q) / int(order.q)
        elif isinstance(order, int) and not isinstance(order, bool):
            a, h = float(order), float(order - 1)
        else:
            return None
        if not (h > 0 and 0 < d < 1):
            return None
        v = a * d
        last = math.log1p(-1 / a)
        balle = last - (math.log(d) + math.log(a)) / h  # Balle et al.'s ε is r plus this
        return a, h, v, (math.log(v) if v < 1 else 0.0), last, math.log1p(-d), balle
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def witness_from(terms: tuple | None, r: float, above: float | None = None) -> float | None:
    """:func:`witness_epsilon` from :func:`witness_terms` and r (the proof is there).  With ``above``, a
    looser bound in a few operations is returned instead when it already exceeds ``above``: where
    (α − 1)r ≥ log 2 and (α − 1)r − log v ≥ (α + 1) log 2, both θ and 1 − e^{−αv − (α−1)r} are ≥ 1/2 and
    L_min ≥ 2, so the bound is at least Balle et al.'s ε − 2 log 2/(α − 1)."""
    if not terms or not r > 0:
        return None
    a, h, v, lv, last, log1m_d, balle = terms
    try:
        if v >= 1:  # δ ≥ 1/α: the optimum itself
            value = r + log1m_d
            return value - 1e-11 * (1 + abs(r) + abs(value))
        lm = h * r
        if above is not None and lm >= _LOG2 + 1e-9 and lm - lv >= (h + 2) * _LOG2 + 1e-9:
            # log_k = lm + tail − log v ≥ lm − log 2 − log v ≥ (h + 1) log 2, so log L_min ≥ log 2.
            loose = r + balle - 2 * _LOG2 / h
            loose -= 1e-11 * (1 + abs(r) + abs(balle) + abs(loose) + (abs(lm) + abs(lv) + 1) / h)
            if loose > above:
                return loose
        tail = math.log(-math.expm1(-a * v - lm))  # log(1 − e^{−αv−(α−1)r}) < 0
        log_k = lm + tail - lv
        log_lmin = (log_k - _LOG2) / h
        # L_min ≥ max(1, 2(1 − v)), with a margin far above the rounding.
        if log_lmin < 1e-9 or (v < 0.5 and log_lmin < _LOG2 + math.log1p(-v) + 1e-9):
            return None
        log_theta = math.log1p(-(1 - v) * math.exp(-log_lmin))
        value = (log_theta + log_k) / h + last
        size = abs(r) + (abs(lm) + abs(tail) + abs(lv) + abs(log_lmin) + abs(log_theta)) / h + abs(last)
        return value - 1e-11 * (1 + size + abs(value))
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


_LOG2 = math.log(2)


def quick_epsilon(a: float, r: float, d: float) -> float | None:
    """A float estimate of the optimal ε from below, in a few operations: the pair with v = 1 − L₀ = αδ (the
    optimum's v to first order for small δ), L₁ by four Newton steps on E_Q[L^α] = e^{(α−1)r}, and
    ε = log(L₁ − δ/w).  For choosing which orders to certify only (None when it fails)."""
    try:
        v = min(a * d, 0.999)
        if not v > 0 or r <= 0:
            return None
        s, log_m = math.log(v), (a - 1) * r
        log_l0 = math.log1p(-v)
        u = max((math.log(math.expm1(log_m)) - s) / (a - 1), 1e-300) if log_m < 700 else (log_m - s) / (a - 1)
        for _ in range(4):
            lden = u + math.log1p(-(1 - v) * math.exp(-u))
            lx, ly = s - lden + a * u, _log_expm1(FLOAT, u) - lden + a * log_l0
            rho = 1 / (1 + math.exp(ly - lx)) if ly - lx < 700 else 0.0
            slope = rho * (a + math.expm1(a * (log_l0 - u)) / -math.expm1(log_l0 - u))
            if not slope > 0:
                return None
            u = max(u - (_lse(FLOAT, lx, ly) - log_m) / slope, u / 2)
        lden = u + math.log1p(-(1 - v) * math.exp(-u))
        ratio = d * math.exp(lden - s - u)  # (δ/w)/L₁
        return u + math.log1p(-ratio) if ratio < 1 else None  # log(L₁ − δ/w), without forming L₁
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def quick_log_delta(a: float, r: float, e: float) -> float | None:
    """A float estimate from below of log δ of the optimal conversion at ε (the δ-direction twin of
    :func:`quick_epsilon`): v from γ ≈ (α − 1)L₁/α with L₁ ≈ ((M − 1)/v)^{1/(α−1)}, L₁ by Newton steps, and
    δ = w·(L₁ − e^ε).  None when it fails."""
    try:
        log_m = (a - 1) * r
        log_mm1 = math.log(math.expm1(log_m)) if log_m < 700 else log_m
        s = min(log_mm1 - (a - 1) * (e + math.log(a / (a - 1))), math.log(0.999))
        v = math.exp(s)
        if not v > 0:
            return None
        log_l0 = math.log1p(-v)
        u = max((log_mm1 - s) / (a - 1), 1e-300)
        for _ in range(4):
            lden = u + math.log1p(-(1 - v) * math.exp(-u))
            lx, ly = s - lden + a * u, _log_expm1(FLOAT, u) - lden + a * log_l0
            rho = 1 / (1 + math.exp(ly - lx)) if ly - lx < 700 else 0.0
            slope = rho * (a + math.expm1(a * (log_l0 - u)) / -math.expm1(log_l0 - u))
            if not slope > 0:
                return None
            u = max(u - (_lse(FLOAT, lx, ly) - log_m) / slope, u / 2)
        if not u > e:
            return None
        lden = u + math.log1p(-(1 - v) * math.exp(-u))
        return s - lden + u + math.log1p(-math.exp(e - u))  # log(w·(L₁ − γ))
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError):
        return None


def estimate_log_delta(order: Order, r: Real, epsilon: Real) -> float | None:
    """The optimal conversion's log δ at ε in float64 (not certified; None where the float solver fails): the
    δ-direction twin of :func:`estimate_epsilon`."""
    return estimate(order, r, epsilon, "gamma")[0]


def _as_float(order) -> float:
    if isinstance(order, arb):
        return float(order.mid())
    if isinstance(order, fmpq):
        return int(order.p) / int(order.q)
    return float(order)
