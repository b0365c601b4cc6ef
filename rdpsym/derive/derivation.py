"""A derivation is data: ordered steps, a result, a status and its evidence.

Modelled on SymPy's ``manualintegrate`` rule trees: each :class:`Step` is one
equality (or definition) with the reason it holds; the :class:`Derivation`
carries the result, the conditions under which it holds, and *how it was
established*:

``"proved"``   equal, symbolically, to a published reference form;
``"checked"``  a closed form that agrees with the definition (independent
               quadrature or summation) to ≥ 40 digits at sampled points;
``"numeric"``  no closed form: an mpmath value from the definition itself.

Rendering (LaTeX, terminal) reads the record and never changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import mpmath
import sympy as sp


class Status(str, Enum):
    """How a result was established, strongest first."""

    PROVED = "proved"
    CHECKED = "checked"
    NUMERIC = "numeric"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Step:
    """``lhs = rhs`` (or another relation), and why.

    ``lhs`` and ``rhs`` are SymPy objects or ready LaTeX strings.
    """

    lhs: object
    rhs: object
    reason: str
    relation: str = "="


@dataclass(frozen=True)
class Derivation:
    """The Rényi divergence of a pair of densities at one order, with its derivation.

    Attributes
    ----------
    result : sympy.Expr or mpmath.mpf
        The divergence.  A ``Piecewise((value, condition), (oo, True))`` when
        convergence needs a condition on the parameters.
    status : Status
        ``"proved"``, ``"checked"`` or ``"numeric"`` (see the module docstring).
    order : sympy.Expr
        The order: a symbol (hypothesis ``order > 1``), a number, 1 (KL) or oo.
    conditions : tuple
        Conditions under which ``closed_form`` is the value (else ∞).
    evidence : tuple of str
        What was checked: the reference it was proved equal to, the sampled
        points and the digits of agreement.
    """

    order: sp.Expr
    result: object
    status: Status
    steps: tuple[Step, ...]
    closed_form: object = None
    conditions: tuple = ()
    hypotheses: tuple = ()
    evidence: tuple[str, ...] = ()
    reference: object = None
    moment: object = None
    notes: tuple[str, ...] = field(default=())

    @property
    def is_closed_form(self) -> bool:
        return self.status in (Status.PROVED, Status.CHECKED)

    def evalf(self, values: dict | None = None, dps: int = 50):
        """The result at parameter ``values`` as an mpmath number with ``dps`` digits.

        Values are checked against their symbols' assumptions (σ declared
        positive must get a positive value).  SymPy's ``evalf`` tracks
        accuracy and raises working precision as it needs, so a value near
        α = 1 keeps its digits; substitution happens inside it, so an order
        of 10⁶ does not build a million-digit rational first.
        """
        if isinstance(self.result, mpmath.mpf):
            return self.result
        from rdpsym.foundations.reading import value_for
        from rdpsym.foundations.errors import ParameterError

        given = {}
        for key, value in (values or {}).items():
            symbol = next((s for s in self.result.free_symbols if s == key or s.name == str(key)), None)
            if symbol is not None:
                given[symbol] = value_for(symbol, value)
        missing = sorted(str(s) for s in self.result.free_symbols - set(given))
        if missing:
            raise ParameterError(f"values must give every parameter; missing: {', '.join(missing)}.")
        expr = self.result
        if isinstance(expr, sp.Piecewise):
            expr = expr.subs(given)  # decide the branch exactly; conditions are small
        if expr == sp.oo:
            return mpmath.inf
        value = sp.N(expr, dps + 10, subs=given)
        if not value.is_Float:
            value = sp.N(expr.subs(given), dps + 10)
        with mpmath.workdps(dps):
            return +mpmath.mpf(value._to_mpmath(mpmath.mp.prec + 20))

    def latex(self) -> str:
        """The derivation as an ``align*`` block (definition → ... → result)."""
        from rdpsym.render.derivation import derivation_latex

        return derivation_latex(self)

    def _repr_latex_(self) -> str:
        """Jupyter shows the result in the paper's typography."""
        from rdpsym.render.latex import paper_latex

        return "$\\displaystyle " + paper_latex(self.result) + "$"

    def __str__(self) -> str:
        from rdpsym.render.derivation import derivation_text

        return derivation_text(self)
