"""``rdpsym audit PEER``: sweep a grid through an installed peer, and run its catalogue of known defects.

Four peers: ``dp-accounting``, ``opacus``, ``autodp`` and ``prv-accountant``
(test-time dependencies: ``pip install dp-accounting opacus autodp
prv-accountant``; imported only when their audit runs).  Each audit has two parts:

* a **grid**: the peer's float64 value of a quantity (the per-step RDP of the
  Poisson-subsampled Gaussian for the RDP accountants; autodp's mechanisms'
  RDP and ε; prv_accountant's RDP functions) against rdpsym's certified ball
  *at the same inputs*: the floats the peer receives (0.1 is
  0.1000000000000000055…) are converted exactly to rationals, so every
  difference is the peer's arithmetic, not input rounding.  Differences
  not certainly within :data:`TOLERANCE` (relative; the peer's float read
  exactly and compared in Arb balls, never through a float) are findings,
  grouped by cause;
* a **defect catalogue**: the peer's known defects, each re-measured on the
  installed peer at stated inputs (a :class:`Defect`: inputs, the peer's value,
  the certified value, the direction and the cause), through
  :func:`rdpsym.verify`.  A defect the installed version has fixed shows as
  ``exact``/agreeing: nothing here is a recorded number.

prv_accountant is not an RDP accountant: its PRV accountant returns bounds
(ε_lower, ε_estimate, ε_upper) on the *optimal* ε(δ), computed from the privacy
loss distribution by FFT.  They are checked as bounds: against the exact ε(δ)
where one is known (the Gaussian: Balle–Wang 2018), ε_lower ≤ ε ≤ ε_upper must
hold; for the subsampled Gaussian the certified RDP ε is an upper bound on the
optimal ε, so ε_lower above it is a defect, and ε_upper below it is expected
(the PRV method is tighter than any RDP conversion).
"""

from __future__ import annotations

import logging
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, fmpq

from rdpsym.accounting import sampled_gaussian as sg
from rdpsym.accounting.conversions.composition import kov_epsilon
from rdpsym.accounting.conversions.gaussian import gaussian_epsilon
from rdpsym.foundations import operations
from rdpsym.foundations.balls import bits_for, precision, upper_decimal
from rdpsym.foundations.errors import ParameterError, RdpSymError, must, quoted
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.laws.mechanisms import pure_dp, sampled_gaussian
from rdpsym.peers.verify import ABOVE, BELOW, EXACT, INVALID, ROUNDING_Q, compare, exact_float, verify

#: Relative difference a float64 accountant is allowed (many-term sums lose a few ulps).
TOLERANCE = 1e-9

#: The direction of a peer's bounds (prv_accountant's ε_lower ≤ ε ≤ ε_upper) checked as bounds and found to hold:
#: not "exact", which says an answer equals the certified value (an ε_upper 8.5 % below the certified RDP ε was
#: labelled so).
BOUNDS_HOLD = "bounds hold"

#: :data:`TOLERANCE` as an exact rational (10^−9), for the comparisons of balls.
TOLERANCE_Q = fmpq(1, 10**9)

GRIDS = {
    "small": dict(q=[1e-5, 0.01, 0.1, 0.5], sigma=[0.7, 1.1, 5.0, 30.0],
                  orders=[1.1, 1.5, 2.0, 2.5, 10.0, 64.0, 1024.0]),
    "full": dict(q=[1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 0.99],
                 sigma=[0.5, 0.7, 1.0, 1.1, 2.0, 5.0, 10.0, 30.0, 100.0],
                 orders=[1.01, 1.1, 1.25, 1.5, 2.0, 2.5, 3.0, 5.5, 10.0, 32.0, 64.0, 256.0, 1024.0, 4096.0]),
}

#: The peers an audit knows, as the command line spells them.
PEERS = ("dp-accounting", "opacus", "autodp", "prv-accountant")

#: The package each peer is installed as.
PACKAGES = {"dp-accounting": "dp-accounting", "opacus": "opacus", "autodp": "autodp",
            "prv-accountant": "prv-accountant"}

#: The standard DP-SGD setting of the defect catalogues (benchmarks/bench_accounting.py).
DPSGD = dict(q=0.01, sigma=1.1, steps=10_000, delta=1e-5)
#: TensorFlow Privacy issue #166: one step, q = 105/100000, σ = 1, δ = 1e-3, and the order 1 + 1e-8.
TFP_166 = dict(q=105 / 100_000, sigma=1.0, steps=1, delta=1e-3)


@dataclass(frozen=True)
class Finding:
    """One grid value where the peer differs from the certified value by more than :data:`TOLERANCE` (not certainly
    within it, decided in balls).  ``relative_error`` is for display: the upper end of the relative error's ball as a
    float (∞ when unbounded or beyond float64; never NaN)."""

    quantity: str
    inputs: tuple  # (name, value) pairs, the peer's floats
    peer: float
    ours: str  # the certified value, as text
    relative_error: float
    cause: str
    direction: str = ""

    def input(self, name: str) -> object:
        return dict(self.inputs).get(name)

    @property
    def q(self) -> object:
        return self.input("q")

    @property
    def sigma(self) -> object:
        return self.input("sigma")

    @property
    def order(self) -> object:
        return self.input("order")


@dataclass(frozen=True)
class Defect:
    """A known defect of a peer, measured now: what it was asked, what it answered, the certified value, why.

    ``relative_error`` is for display (a float, never NaN); ``within_rounding`` is the certified fact (in balls)
    that the answer is within 64 ulp relative of the certified value.
    """

    title: str
    inputs: tuple  # (name, value) pairs
    peer: float
    certified: str
    relative_error: float
    direction: str
    cause: str
    note: str = ""
    within_rounding: bool = False
    #: The claim of the atlas (proofs/peers/, ``rdpsym check proofs/peers``) that proves or refutes the
    #: formula behind the defect, or "".
    atlas: str = ""

    @property
    def unsafe(self) -> bool:
        """Invalid, or below the certified value and not certainly within float64 rounding (as
        :attr:`rdpsym.peers.verify.OrderCheck.unsafe`)."""
        return self.direction == INVALID or (self.direction == BELOW and not self.within_rounding)


@dataclass
class AuditReport:
    peer: str
    checked: int
    findings: list[Finding] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)
    quantity: str = "values of the Poisson-subsampled Gaussian RDP"
    version: str = ""

    def by_cause(self) -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = {}
        for f in self.findings:
            out.setdefault(f.cause, []).append(f)
        return out

    def __str__(self) -> str:
        return operations.text(self)

    def as_dict(self) -> dict:
        return operations.json(self)


def _exact(x: float) -> fmpq:
    f = Fraction(x)
    return fmpq(f.numerator, f.denominator)


def _judge(peer: float, ours: arb) -> tuple[str | None, float, str, bool]:
    """(cause or None when within :data:`TOLERANCE`, relative error for display, direction, certainly within
    float64 rounding): the peer's float read exactly and compared with the ball ``ours`` in balls.  Where a ball
    straddles the tolerance, the answer is a finding (the verdict that warns)."""
    if math.isnan(peer):
        return "NaN", math.inf, INVALID, False
    if peer < 0:
        return "negative RDP", math.inf, INVALID, False
    if peer == math.inf:
        return "infinite where the value is finite", math.inf, ABOVE, False
    if not ours.is_finite():  # (not expected: the grid's balls are finite)
        return "the certified ball is not finite: the answer cannot be placed", math.inf, BELOW, False
    c = compare(peer, ours)
    within = c.within(ROUNDING_Q)
    if c.direction == EXACT or c.within(TOLERANCE_Q):
        return None, c.relative_float, c.direction, within
    if peer == 0 and ours > 0:
        return "zero where the value is positive", c.relative_float, c.direction, within
    digits_lost = c.relative is None or not c.within(fmpq(1, 10**6))
    return ("digits lost (relative error > 1e-6)" if digits_lost else "inaccurate beyond float tolerance",
            c.relative_float, c.direction, within)


def classify(peer: float, ours: arb) -> tuple[str | None, float]:
    """The cause of a disagreement (None if certainly within :data:`TOLERANCE`) and the relative error (a float for
    display: the upper end of its ball; ∞ when unbounded or beyond float64, never NaN).  Decided in balls: the
    peer's float is read exactly, at any magnitude.

    >>> from flint import arb
    >>> classify(1e308, arb(10) ** 600), classify(0.0, arb(2) ** -3000)[0]
    (('digits lost (relative error > 1e-6)', 1.0), 'zero where the value is positive')
    """
    cause, rel, _, _ = _judge(peer, ours)
    return cause, rel


def _against(peer: float, exact: arb) -> tuple[str, float, bool]:
    """(direction, relative error for display, certainly within float64 rounding) of a peer's float against a
    certified ball: in balls, with NaN and negative answers invalid and ∞ above a finite value."""
    if math.isnan(peer) or peer < 0:
        return INVALID, math.inf, False
    if peer == math.inf:
        return ABOVE, math.inf, False
    c = compare(peer, exact)
    return c.direction, c.relative_float, c.within(ROUNDING_Q)


def _at_most(peer: float, ball: arb) -> bool:
    """Whether the float ``peer`` (exactly) is certainly ≤ every point of ``ball`` (NaN and non-finite balls: no)."""
    if math.isnan(peer) or not ball.is_finite():
        return peer == -math.inf
    return peer == -math.inf or (peer != math.inf and exact_float(peer) <= ball.lower())


def _at_least(peer: float, ball: arb) -> bool:
    """Whether the float ``peer`` (exactly) is certainly ≥ every point of ``ball``."""
    if math.isnan(peer) or not ball.is_finite():
        return peer == math.inf
    return peer == math.inf or (peer != -math.inf and exact_float(peer) >= ball.upper())


def _grid(grid: str) -> dict:
    if grid not in GRIDS:
        raise ParameterError(must("grid", " or ".join(map(repr, GRIDS)), quoted(grid)))
    return GRIDS[grid]


#: What an audit of a peer that is not installed says.
_NEEDS_PEER = "the audit needs the peer installed: pip install 'rdpsym[peers]' (or: pip install {})"


def _version(package: str) -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _sampled_gaussian_grid(report: AuditReport, g: dict, dps: int, peer_rdp) -> None:
    """The grid of the subsampled Gaussian's per-step RDP: ``peer_rdp(q, sigma, orders)`` against the balls."""
    for q in g["q"]:
        for s in g["sigma"]:
            values = peer_rdp(q, s, g["orders"])
            with precision(bits_for(dps)):
                balls = sg.log_moments(_exact(q), _exact(s), [_exact(a) for a in g["orders"]])
                ours = [b / (arb(_exact(a)) - 1) for a, b in zip(g["orders"], balls)]
                for a, v, b in zip(g["orders"], values, ours):
                    report.checked += 1
                    cause, rel, direction, _ = _judge(float(v), b)
                    if cause:
                        report.findings.append(Finding("RDP of the Poisson-subsampled Gaussian",
                                                       (("q", q), ("sigma", s), ("order", a)), float(v),
                                                       b.str(12, radius=False), rel, cause, direction))


def _peer_error(exc: Exception) -> float:
    """A peer that raises instead of answering: recorded as NaN (an invalid answer) with its message kept."""
    return math.nan


def _defect(title: str, inputs: dict, told, peer_name: str, *, rdp=None, orders=None, epsilon=None, delta=None,
            dps: int = 30, note: str = "", cause: str = "", atlas: str = "") -> Defect:
    """A catalogue entry: ``verify`` on what the peer answered, the worst check reported (``cause``: the known
    cause, stated when the peer still differs)."""
    v = verify(told, orders=orders, rdp=rdp, epsilon=epsilon, delta=delta, peer=peer_name, dps=dps)
    check = v.epsilon if v.epsilon is not None else max(v.orders, key=lambda c: (c.unsafe, not c.safe, c.relative))
    with precision(bits_for(dps + 10)):
        certified = check.certified
        shown = "none" if certified is None else "inf" if certified == math.inf or not isinstance(certified, arb) \
            else upper_decimal(certified, 16)
    why = cause if cause and check.direction not in (EXACT,) else check.cause
    return Defect(title, tuple(inputs.items()), float(check.peer), shown, check.relative, check.direction, why, note,
                  check.within_rounding, atlas)


def _audited(name: str, grid: str, dps: int, load: Callable[[], tuple], rdp: Callable,
             defects: Callable) -> AuditReport:
    """One peer's audit: ``grid`` and ``dps`` read (an error names them before the peer is imported), the peer's
    modules from ``load()`` (an ImportError says how to install it), its RDP of the subsampled Gaussian on the grid
    (``rdp(*modules)(q, σ, orders)``) against certified balls, then its defect catalogue ``defects(*modules)``; the
    peer's own warnings silenced (its failures are findings)."""
    g, dps = _grid(grid), read_dps(dps)
    try:
        modules = load()
    except ImportError as exc:
        raise RdpSymError(_NEEDS_PEER.format(name)) from exc
    report = AuditReport(name, 0, version=_version(name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _sampled_gaussian_grid(report, g, dps, rdp(*modules))
        report.defects.extend(defects(*modules))
    return report


def _order_by_order(mechanism: Callable[[float, float], Callable[[float], object]], errors: tuple) -> Callable:
    """A peer's RDP asked one order at a time, as the grid asks it (``rdp(q, σ, orders)``): ``mechanism(q, σ)`` gives
    the order → RDP function, and a failure in ``errors`` at an order is that order's finding, not the audit's end."""
    def rdp(q, s, orders):
        at = mechanism(q, s)
        out = []
        for a in orders:
            try:
                out.append(float(at(a)))
            except errors as exc:
                out.append(_peer_error(exc))
        return out
    return rdp


# ---------------------------------------------------------------- dp_accounting
def audit_dp_accounting(grid: str = "small", dps: int = 40) -> AuditReport:
    """The peer's RDP of the subsampled Gaussian on ``grid`` (``"small"`` or ``"full"``), against balls at ``dps``,
    and dp_accounting's defect catalogue."""
    def load():
        import dp_accounting as dpa
        from dp_accounting.rdp import rdp_privacy_accountant as peer

        # The peer logs a warning for each order it gives up on (and returns inf): counted by the audit instead.
        logging.getLogger("absl").setLevel(logging.ERROR)
        return dpa, peer

    def rdp(dpa, peer):
        def at(q, s, orders):
            accountant = peer.RdpAccountant(orders=orders)
            accountant.compose(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)))
            return accountant.rdp
        return at

    return _audited("dp-accounting", grid, dps, load, rdp, _dp_accounting_defects)


def _dp_accounting_defects(dpa, peer) -> list[Defect]:
    out = []
    q, s, k, d = DPSGD["q"], DPSGD["sigma"], DPSGD["steps"], DPSGD["delta"]
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)), k)
    accountant = peer.RdpAccountant()
    accountant.compose(event)
    eps = accountant.get_epsilon(d)
    orders = [float(a) for a in accountant.orders]
    out.append(_defect("DP-SGD ε (q = 0.01, σ = 1.1, 10⁴ steps, δ = 1e-5)", dict(q=q, sigma=s, steps=k, delta=d),
                       event, "dp-accounting", rdp=list(accountant.rdp), orders=orders, epsilon=eps, delta=d))
    one = peer.RdpAccountant(orders=[1.1])
    one.compose(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)))
    out.append(_defect("per-step RDP at the fractional order 1.1", dict(q=q, sigma=s, order=1.1),
                       dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)), "dp-accounting",
                       rdp=list(one.rdp), orders=[1.1], atlas="dpa-sampled-gaussian-fractional"))
    q166, s166, d166 = TFP_166["q"], TFP_166["sigma"], TFP_166["delta"]
    orders166 = [1 + 1e-8] + [1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64))
    acc166 = peer.RdpAccountant(orders=orders166)
    ev166 = dpa.PoissonSampledDpEvent(q166, dpa.GaussianDpEvent(s166))
    acc166.compose(ev166)
    out.append(_defect("ε = 0 on TensorFlow Privacy issue #166's inputs", dict(q=q166, sigma=s166, steps=1,
                                                                               delta=d166, orders="1+1e-8, 1.1, …"),
                       ev166, "dp-accounting", rdp=list(acc166.rdp), orders=orders166,
                       epsilon=acc166.get_epsilon(d166), delta=d166,
                       note="valid: a different conversion (the TV/KL branch), not a disagreement"))
    big = peer.RdpAccountant(orders=[1.5])
    big.compose(dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(0.7)))
    out.append(_defect("fractional order with q ≥ 0.1: ∞ ('failed to converge')", dict(q=0.5, sigma=0.7, order=1.5),
                       dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(0.7)), "dp-accounting",
                       rdp=list(big.rdp), orders=[1.5]))
    return out


# ---------------------------------------------------------------- Opacus
def audit_opacus(grid: str = "small", dps: int = 40) -> AuditReport:
    """Opacus's RDP of the subsampled Gaussian (``opacus.accountants.analysis.rdp.compute_rdp``) on ``grid``, and
    its defect catalogue (its ``RDPAccountant``)."""
    def load():
        from opacus.accountants import RDPAccountant
        from opacus.accountants.analysis import rdp as peer
        return RDPAccountant, peer

    def rdp(RDPAccountant, peer):
        return _order_by_order(lambda q, s: lambda a: peer.compute_rdp(q=q, noise_multiplier=s, steps=1, orders=[a])[0],
                               (ValueError, OverflowError))

    return _audited("opacus", grid, dps, load, rdp, _opacus_defects)


def _opacus_defects(RDPAccountant, peer) -> list[Defect]:
    q, s, k, d = DPSGD["q"], DPSGD["sigma"], DPSGD["steps"], DPSGD["delta"]
    accountant = RDPAccountant()
    accountant.history = [(s, q, k)]
    eps = accountant.get_epsilon(delta=d)
    orders = list(RDPAccountant.DEFAULT_ALPHAS)
    rdp = list(peer.compute_rdp(q=q, noise_multiplier=s, steps=k, orders=orders))
    out = [_defect("DP-SGD ε (q = 0.01, σ = 1.1, 10⁴ steps, δ = 1e-5)", dict(q=q, sigma=s, steps=k, delta=d),
                   accountant, "opacus", rdp=rdp, orders=orders, epsilon=eps, delta=d,
                   atlas="opacus-sampled-gaussian-fractional")]
    one = list(peer.compute_rdp(q=q, noise_multiplier=s, steps=1, orders=[1.1]))
    out.append(_defect("per-step RDP at the fractional order 1.1", dict(q=q, sigma=s, order=1.1),
                       [(s, q, 1)], "opacus", rdp=one, orders=[1.1], atlas="opacus-sampled-gaussian-fractional"))
    # One noiseless-ish step at δ = 0.1: Balle et al.'s bound goes below 0 and Opacus returns it unclamped.
    neg = RDPAccountant()
    neg.history = [(50.0, 1.0, 1)]
    out.append(_defect("negative ε (σ = 50, q = 1, one step, δ = 0.1)", dict(q=1.0, sigma=50.0, steps=1, delta=0.1),
                       neg, "opacus", epsilon=neg.get_epsilon(delta=0.1), delta=0.1, orders=orders,
                       atlas="opacus-get-privacy-spent"))
    return out


# ---------------------------------------------------------------- autodp
def audit_autodp(grid: str = "small", dps: int = 40) -> AuditReport:
    """autodp's mechanism zoo: the subsampled Gaussian's RDP on ``grid``, and its defect catalogue."""
    def load():
        from autodp import mechanism_zoo as zoo
        return (zoo,)

    def rdp(zoo):
        return _order_by_order(lambda q, s: zoo.SubsampleGaussianMechanism({"prob": q, "sigma": s, "coeff": 1}).get_RDP,
                               (ValueError, OverflowError, ZeroDivisionError))

    return _audited("autodp", grid, dps, load, rdp, _autodp_defects)


def _autodp_defects(zoo) -> list[Defect]:
    out = []
    m = zoo.GaussianMechanism(sigma=1.1)
    with precision(200):
        exact = gaussian_epsilon(_exact(1e-5), _exact(1.1))
        peer = float(m.get_approxDP(1e-5))
        direction, rel, within = _against(peer, exact)
        out.append(Defect("Gaussian ε(δ) (analytic Gaussian, Balle–Wang 2018), σ = 1.1, δ = 1e-5",
                          (("sigma", 1.1), ("delta", 1e-5)), peer, upper_decimal(exact, 17), rel, direction,
                          "float64 rounding (within 64 ulp)" if within else
                          "not a number" if direction == INVALID else
                          "float64 error in the analytic Gaussian's root finding", within_rounding=within))
    sub = zoo.SubsampleGaussianMechanism({"prob": 0.01, "sigma": 1.1, "coeff": 1})
    out.append(_defect("subsampled Gaussian RDP at the fractional order 1.5", dict(q=0.01, sigma=1.1, order=1.5),
                       sub, "autodp", rdp=[float(sub.get_RDP(1.5))], orders=[1.5]))
    lap = zoo.LaplaceMechanism(b=2.0)
    out.append(_defect("Laplace RDP (b = 2) at order 1.5", dict(b=2.0, order=1.5), lap, "autodp",
                       rdp=[float(lap.get_RDP(1.5))], orders=[1.5]))
    return out


# ---------------------------------------------------------------- prv_accountant
def audit_prv_accountant(grid: str = "small", dps: int = 40) -> AuditReport:
    """prv_accountant: its subsampled Gaussian RDP on ``grid``, its PRV bounds checked as bounds, and its catalogue."""
    def load():
        import prv_accountant as prv
        from prv_accountant.other_accountants import RDP
        return prv, RDP

    def rdp(prv, RDP):
        return _order_by_order(lambda q, s: prv.PoissonSubsampledGaussianMechanism(
            sampling_probability=q, noise_multiplier=s).rdp, (ValueError, OverflowError))

    return _audited("prv-accountant", grid, dps, load, rdp, lambda prv, RDP: _prv_defects(prv, RDP, read_dps(dps)))


def _prv_defects(prv, RDP, dps: int) -> list[Defect]:
    out = []
    # Its RDP of a pure ε-DP mechanism, (α − 1)ε/α, is below the RDP of the ε-DP pair it describes
    # (randomized response with p = e^ε/(1+e^ε), the PRV its cdf defines): at α = 2, ε = 1.
    m = prv.PureDPMechanism(1.0)
    wrong = ("(α − 1)ε/α is not the RDP of the ε-DP pair its PRV describes (randomized response with "
             "p = e^ε/(1+e^ε), whose divergence is Bun–Steinke's sinh form): it tends to 0 as α → 1, where that "
             "pair's KL divergence is ε·tanh(ε/2)")
    out.append(_defect("RDP of a pure 1-DP mechanism at order 2 ((α − 1)ε/α)", dict(eps=1.0, order=2.0),
                       pure_dp(1), "prv-accountant", rdp=[float(m.rdp(2.0))], orders=[2.0], cause=wrong,
                       atlas="prv-pure-dp"))
    # Its RDP accountant on 20 compositions of that mechanism claims an ε below the *optimal* ε of 20
    # composed 1-DP mechanisms (Kairouz–Oh–Viswanath 2015, exact): no method can certify it.
    k, delta = 20, 1e-5
    rdp_acc = RDP(prvs=[m])
    _, _, eps = rdp_acc.compute_epsilon(delta=delta, num_self_compositions=[k])
    with precision(200):
        optimal = kov_epsilon(fmpq(1), k, _exact(delta))
        direction, rel, within = _against(float(eps), optimal)
        out.append(Defect(f"its RDP accountant's ε for {k} composed pure 1-DP mechanisms at δ = {delta}",
                          (("eps", 1.0), ("compositions", k), ("delta", delta)), float(eps),
                          upper_decimal(optimal, 17), rel, direction,
                          "below the optimal ε of the composition (Kairouz–Oh–Viswanath 2015, exact): its RDP of "
                          "pure DP, (α − 1)ε/α, is below the truth at every order" if direction == BELOW else
                          "not a number, or negative" if direction == INVALID else
                          "at or above the optimal ε of the composition (Kairouz–Oh–Viswanath 2015)",
                          within_rounding=within))
    # The PRV accountant's bounds on the Gaussian: the exact ε(δ) (Balle–Wang 2018) must lie between them.
    sigma, k, delta = 10.0, 100, 1e-5
    acc = prv.PRVAccountant(prvs=[prv.GaussianMechanism(noise_multiplier=sigma)], max_self_compositions=[k],
                            eps_error=0.01, delta_error=delta / 1000)
    low, est, high = acc.compute_epsilon(delta=delta, num_self_compositions=[k])
    with precision(200):
        exact = gaussian_epsilon(_exact(delta), _exact(sigma) / arb(k).sqrt())
        # The bounds contain the exact ε(δ): the peer's floats read exactly, against the ball's ends (certainly).
        inside = _at_most(low, exact) and _at_least(high, exact)
        _, rel, _ = _against(float(est), exact)
        out.append(Defect(f"PRV bounds on {k} composed Gaussians (σ = {sigma}), δ = {delta}",
                          (("sigma", sigma), ("steps", k), ("delta", delta), ("eps_error", 0.01)), est,
                          upper_decimal(exact, 17), rel, BOUNDS_HOLD if inside else BELOW,
                          f"its bounds [{low:.6g}, {high:.6g}] {'contain' if inside else 'MISS'} the exact ε(δ) "
                          f"(Balle–Wang 2018); the estimate is {rel:.2g} relative off, within its stated eps_error"
                          if inside else "the exact ε(δ) is outside the peer's stated bounds (or not certainly "
                          "inside them)"))
    # Subsampled Gaussian: the certified RDP ε bounds the optimal ε from above, so ε_lower must not exceed it.
    q, s, steps, d = 0.01, 1.1, 1000, 1e-5
    acc = prv.PRVAccountant(prvs=[prv.PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=s)],
                            max_self_compositions=[steps], eps_error=0.05, delta_error=d / 1000)
    low, est, high = acc.compute_epsilon(delta=d, num_self_compositions=[steps])
    v = verify(sampled_gaussian(q=q, sigma=s), steps=steps, epsilon=high, delta=d, peer="prv-accountant",
               orders="continuous", dps=dps)
    with precision(bits_for(dps + 10)):
        rdp_eps = v.epsilon.certified
        # ε_lower ≤ the certified RDP ε, at every point of its ball (a ball that straddles ε_lower is a finding).
        ok = _at_most(low, rdp_eps) if isinstance(rdp_eps, arb) else not math.isnan(low)
        out.append(Defect(f"PRV bounds on DP-SGD (q = {q}, σ = {s}, {steps} steps, δ = {d})",
                          (("q", q), ("sigma", s), ("steps", steps), ("delta", d), ("eps_error", 0.05)), high,
                          upper_decimal(rdp_eps, 16), v.epsilon.relative, BOUNDS_HOLD if ok else INVALID,
                          f"ε_lower = {low:.6g} ≤ the certified RDP ε (an upper bound on the optimal ε), as it must; "
                          f"ε_upper = {high:.6g} is below it: the PRV method is tighter than any RDP conversion"
                          if ok else "ε_lower exceeds a certified upper bound on ε (or is not certainly below it)"))
    return out


#: Each peer's audit.
AUDITS = {"dp-accounting": audit_dp_accounting, "opacus": audit_opacus, "autodp": audit_autodp,
          "prv-accountant": audit_prv_accountant}


def audit(peer: str, grid: str = "small", dps: int = 40) -> AuditReport:
    """The audit of ``peer`` (one of :data:`PEERS`) on ``grid``, certified at ``dps`` digits."""
    if peer not in AUDITS:
        raise ParameterError(must("peer", " or ".join(map(repr, PEERS)), repr(peer)))
    return AUDITS[peer](grid=grid, dps=dps)


__all__ = ["AUDITS", "PEERS", "TOLERANCE", "AuditReport", "Defect", "Finding", "audit", "audit_autodp",
           "audit_dp_accounting", "audit_opacus", "audit_prv_accountant", "classify"]
