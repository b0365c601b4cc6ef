"""``rdpsym audit dp-accounting``: sweep a grid through an installed peer and report its errors.

For each (q, σ, α) the peer's float64 RDP of the Poisson-subsampled Gaussian
is compared with rdpsym's certified ball *at the same inputs*: the floats the
peer receives (0.1 is 0.1000000000000000055…) are converted exactly to
rationals for rdpsym, so every difference is the peer's arithmetic, not input
rounding.  Differences beyond ``TOLERANCE`` are grouped by cause.

The peer is a test-time dependency (``pip install dp-accounting``); its
private ``_compute_rdp_poisson_subsampled_gaussian`` is what its
``RdpAccountant`` calls for a ``PoissonSampledDpEvent`` of a Gaussian.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, fmpq

from rdpsym.accounting import sampled_gaussian as sg
from rdpsym.foundations import operations
from rdpsym.foundations.balls import bits_for, precision
from rdpsym.foundations.errors import ParameterError, RdpSymError, must, quoted
from rdpsym.foundations.reading import dps as read_dps

#: Relative difference a float64 accountant is allowed (many-term sums lose a few ulps).
TOLERANCE = 1e-9

GRIDS = {
    "small": dict(q=[1e-5, 0.01, 0.1, 0.5], sigma=[0.7, 1.1, 5.0, 30.0],
                  orders=[1.1, 1.5, 2.0, 2.5, 10.0, 64.0, 1024.0]),
    "full": dict(q=[1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 0.99],
                 sigma=[0.5, 0.7, 1.0, 1.1, 2.0, 5.0, 10.0, 30.0, 100.0],
                 orders=[1.01, 1.1, 1.25, 1.5, 2.0, 2.5, 3.0, 5.5, 10.0, 32.0, 64.0, 256.0, 1024.0, 4096.0]),
}


@dataclass(frozen=True)
class Finding:
    q: float
    sigma: float
    order: float
    peer: float
    ours: str  # the certified value, as text
    relative_error: float
    cause: str


@dataclass
class AuditReport:
    peer: str
    checked: int
    findings: list[Finding] = field(default_factory=list)

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


def classify(peer: float, ours: arb) -> tuple[str | None, float]:
    """The cause of a disagreement (None if within tolerance) and the relative error."""
    if math.isnan(peer):
        return "NaN", math.inf
    if math.isinf(peer):
        return "infinite where the value is finite", math.inf
    truth = float(ours.mid())
    if peer < 0:
        return "negative RDP", math.inf
    if peer == 0 and truth > 0:
        return "zero where the value is positive", 1.0
    rel = abs(peer - truth) / abs(truth) if truth else abs(peer)
    if rel <= TOLERANCE:
        return None, rel
    return ("digits lost (relative error > 1e-6)" if rel > 1e-6 else "inaccurate beyond float tolerance"), rel


def audit_dp_accounting(grid: str = "small", dps: int = 40) -> AuditReport:
    """The peer's RDP of the subsampled Gaussian on ``grid`` (``"small"`` or ``"full"``), against balls at ``dps``."""
    if grid not in GRIDS:
        raise ParameterError(must("grid", " or ".join(map(repr, GRIDS)), quoted(grid)))
    dps = read_dps(dps)
    try:
        from dp_accounting.rdp import rdp_privacy_accountant as peer
    except ImportError as exc:
        raise RdpSymError("the audit needs the peer installed: pip install dp-accounting") from exc
    g = GRIDS[grid]
    report = AuditReport("dp-accounting", 0)
    # The peer logs a warning for each order it gives up on (and returns inf): counted below instead.
    logging.getLogger("absl").setLevel(logging.ERROR)
    for q in g["q"]:
        for s in g["sigma"]:
            values = peer._compute_rdp_poisson_subsampled_gaussian(q, s, g["orders"])
            with precision(bits_for(dps)):
                balls = sg.log_moments(_exact(q), _exact(s), [_exact(a) for a in g["orders"]])
                ours = [b / (arb(_exact(a)) - 1) for a, b in zip(g["orders"], balls)]
                for a, v, b in zip(g["orders"], values, ours):
                    report.checked += 1
                    cause, rel = classify(float(v), b)
                    if cause:
                        report.findings.append(Finding(q, s, a, float(v), b.str(12, radius=False), rel, cause))
    return report
