"""Published closed forms: the reference each derivation is *proved* equal to.

Every formula is written as its source prints it and cites source, item and
arXiv version.  They are used only to prove a derived result equal (never to
produce one): a derivation that disagrees is an error, not a correction.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from rdpsym.foundations.logs import expand_logs
from rdpsym.foundations.record import MIRONOV_2017, Citation
from rdpsym.foundations.symbols import alpha


@dataclass(frozen=True)
class Reference:
    """A published Rényi divergence: the moment at α > 1, the KL and D_∞.

    ``moment`` is E_Q[(P/Q)^α] = exp((α−1)·D_α): equalities are proved on
    moments, not on logs (SymPy proves the former in milliseconds and often
    fails on differences of logarithms).
    """

    source: Citation | str
    item: str
    moment: sp.Expr  # in the canonical symbol ``alpha``
    kl: sp.Expr
    dinf: sp.Expr
    kl_item: str = "Table II"
    dinf_item: str = "Table II"

    def moment_at(self, order: sp.Expr) -> sp.Expr:
        return self.moment.xreplace({alpha: order})

    def divergence_at(self, order: sp.Expr) -> sp.Expr:
        """The published D_order, as printed: 1/(α−1)·log(moment) or its simple form."""
        if order == 1:
            return self.kl
        if order is sp.oo:
            return self.dinf
        m = self.moment_at(order)
        if order.is_number:
            # At order 10⁴ expanding the log of a 10⁴-digit rational takes a minute.
            log_m = sp.log(m)
            if not log_m.has(sp.log):
                return sp.factor(log_m / (order - 1))
            return sp.Mul(1 / (order - 1), log_m, evaluate=False)
        simple = expand_logs(sp.log(m))
        if not simple.has(sp.log):
            return sp.factor(simple / (order - 1))
        return sp.Mul(1 / (order - 1), sp.log(m), evaluate=False)

    def citation(self, order: sp.Expr) -> Citation:
        """Where the form at ``order`` is printed (the KL and D_∞ entries may be another item)."""
        item = self.kl_item if order == 1 else self.dinf_item if order is sp.oo else self.item
        return self.source.at(item) if isinstance(self.source, Citation) else Citation(str(self.source), item)


def gaussian_reference(sigma: sp.Expr, sensitivity: sp.Expr) -> Reference:
    """Mironov 2017 Proposition 7: D_α(N(0,σ²)‖N(μ,σ²)) = αμ²/(2σ²); D_∞ = ∞ (Table II)."""
    rate = sensitivity**2 / (2 * sigma**2)
    return Reference(MIRONOV_2017, "Proposition 7", sp.exp(alpha * (alpha - 1) * rate), rate, sp.oo)


def laplace_reference(scale: sp.Expr, sensitivity: sp.Expr) -> Reference:
    """Mironov 2017 Proposition 6 and Table II, with λ = scale/sensitivity.

    D_α = 1/(α−1)·log(α/(2α−1)·exp((α−1)/λ) + (α−1)/(2α−1)·exp(−α/λ));
    D_1 = 1/λ + exp(−1/λ) − 1;  D_∞ = 1/λ.
    """
    lam = scale / sensitivity
    a = alpha
    moment = a / (2 * a - 1) * sp.exp((a - 1) / lam) + (a - 1) / (2 * a - 1) * sp.exp(-a / lam)
    return Reference(MIRONOV_2017, "Proposition 6", moment, 1 / lam + sp.exp(-1 / lam) - 1, 1 / lam)


def randomized_response_reference(p: sp.Expr) -> Reference:
    """Mironov 2017 Proposition 5 and Table II.

    D_α = 1/(α−1)·log(p^α(1−p)^{1−α} + (1−p)^α p^{1−α});
    D_1 = (2p−1)·log(p/(1−p));  D_∞ = |log(p/(1−p))|.
    """
    a = alpha
    moment = p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)
    return Reference(
        MIRONOV_2017, "Proposition 5", moment, (2 * p - 1) * sp.log(p / (1 - p)), sp.Abs(sp.log(p / (1 - p)))
    )
