"""What a derivation returns: the divergence, the chain of steps that produced it, and how it was established.

A :class:`Derivation` is a record in the package's one model of mathematics
(:mod:`rdpsym.foundations.record`): its steps relate SymPy objects (the
notation of :mod:`rdpsym.foundations.notation`, such as D_α(P‖Q)), each with
the :class:`~rdpsym.foundations.record.Rule` that justifies it, and its
``status`` says how the result was established, with structured ``evidence``:

``proved``   equal, symbolically, to a published reference form;
``checked``  a closed form that agrees with the definition (independent
             quadrature or summation) to ≥ 40 digits at sampled points;
``numeric``  no closed form: an mpmath value from the definition itself.

Rendering (LaTeX, terminal, Markdown) lives in :mod:`rdpsym.render` and
reads the record: ``str(d)``, ``d.latex()`` and Jupyter's display reach it
through :mod:`rdpsym.foundations.operations`.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
from collections.abc import Mapping
from dataclasses import dataclass

import mpmath
import sympy as sp

from rdpsym.derive.values import branch_at, closed_value
from rdpsym.foundations import operations
from rdpsym.foundations.errors import (
    ConvergenceError,
    DomainError,
    NotVerified,
    ParameterError,
    WrongType,
    must,
    quoted,
)
from rdpsym.foundations.numbers import Digits, rounded_mpf
from rdpsym.foundations.reading import dps as read_dps
from rdpsym.foundations.reading import value_for
from rdpsym.foundations.record import Status, Step
from rdpsym.foundations.symbols import alpha as ALPHA
from rdpsym.foundations.symbols import check_intervals


@dataclass(frozen=True)
class Derivation:
    """The Rényi divergence of a pair of densities at one order, with its derivation.

    Attributes
    ----------
    order : sympy.Expr
        The order: a symbol (hypothesis ``order > 1``), a number, 1 (KL) or oo.
    result : sympy.Expr or mpmath.mpf
        The divergence.  A ``Piecewise((value, condition), (oo, True))`` when
        convergence needs a condition on the parameters.
    status : Status
        ``"proved"``, ``"checked"`` or ``"numeric"`` (see the module docstring).
    steps : tuple of Step
        The chain, from the densities and Definition 3 to the result.
    conditions : tuple
        Conditions under which ``closed_form`` is the value (else ∞).
    evidence : tuple of Evidence
        What established the status: the reference proved equal (or not), the
        sampled points and digits of agreement with the definition.
    """

    order: sp.Expr
    result: object
    status: Status
    steps: tuple[Step, ...]
    closed_form: object = None
    conditions: tuple = ()
    hypotheses: tuple = ()
    evidence: tuple = ()
    reference: object = None
    moment: object = None

    @property
    def is_closed_form(self) -> bool:
        return self.status in (Status.PROVED, Status.CHECKED)

    def evalf(self, values: dict | None = None, dps: int = 50) -> mpmath.mpf:
        """The result at parameter ``values`` as an mpmath number with ``dps`` digits.

        Values are checked against their symbols' assumptions (σ declared
        positive must get a positive value).  SymPy's ``evalf`` tracks
        accuracy and raises working precision as it needs, so a value near
        α = 1 keeps its digits; substitution happens inside it, so an order
        of 10⁶ does not build a million-digit rational first.
        """
        dps = read_dps(dps)
        if values is not None and not isinstance(values, Mapping):
            raise WrongType(must("values", "a mapping {parameter: value}, such as {sigma: 2}", quoted(values)))
        if isinstance(self.result, mpmath.mpf):
            return self.result
        given = {}
        # The order's symbol is read even where the result does not hold it: a result ∞ derived under α > 1
        # is not a value at α = 9/10 (its hypotheses decide below).
        known = self.result.free_symbols | {s for h in self.hypotheses for s in h.free_symbols}
        if isinstance(self.order, sp.Symbol):
            known.add(self.order)
        steps = {s for step in self.steps for side in (step.lhs, step.rhs) if isinstance(side, sp.Basic)
                 for s in side.free_symbols}  # (the laws' parameters a result lost: μ of a Gaussian shift)
        steps.add(ALPHA)  # (rdpsym's order symbol, given with the values of a result at a numeric order)
        for key, value in (values or {}).items():
            symbol = next((s for s in known | steps if s == key or s.name == str(key)), None)
            if symbol is None:  # (a misspelt name was passed over, and the value computed without it: a probe)
                names = ", ".join(sorted({str(s) for s in known | steps}))
                raise ParameterError(must("values", f"keyed by the derivation's symbols ({names})", f"also {key!r}"))
            if symbol in known:
                given[symbol] = value_for(symbol, value)
            elif symbol == ALPHA and not isinstance(self.order, sp.Symbol) and value_for(ALPHA, value) != self.order:
                raise ParameterError(must("values", f"without an order other than the derivation's ({self.order})",
                                          f"alpha = {value}"))  # (order 3 asked of the order-2 result: a review)
        check_intervals(given)  # (intervals whose ends involve other parameters)
        missing = sorted(str(s) for s in self.result.free_symbols - set(given))
        if missing:
            raise ParameterError(f"values must give every parameter; missing: {', '.join(missing)}.")
        for hypothesis in self.hypotheses:  # the result holds under them only (α ≠ 1 for a symbolic order)
            if hypothesis.subs(given) is sp.false:
                shown = ", ".join(f"{s} = {v}" for s, v in given.items() if s in hypothesis.free_symbols)
                raise DomainError(must("values", f"within the derivation's hypothesis {hypothesis}", shown))
        expr = self.result
        while True:  # (down a nested Piecewise: a Laplace pair's inner ∞ at α/b₁ + (1 − α)/b₂ = 0 was read as 0/0)
            branch = branch_at(expr, given)
            if branch is None:
                raise ConvergenceError(f"the result's branch cannot be decided at {given}")
            if not isinstance(expr, sp.Piecewise):
                break
            expr = expr.args[branch][0]
        order = self.order if isinstance(self.order, sp.Symbol) else None
        try:
            value = closed_value(expr, given, dps + 5, order_symbol=order)
        except NotVerified as exc:
            raise ConvergenceError(str(exc)) from None
        if mpmath.isinf(value):
            return mpmath.inf
        return Digits(rounded_mpf(value, dps), dps)  # rounded to its dps digits, whatever mpmath's precision

    def __reduce__(self):
        # A derivation keeps some expressions unevaluated on purpose (powers of 10⁴-digit rationals kept
        # as powers, Max(a, b) before it is simplified).  SymPy pickles an expression as its class and
        # arguments and evaluates it again when loading: each expression here is rebuilt as it was.
        state = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        buffer = io.BytesIO()
        _AsBuilt(buffer).dump(state)
        return _unpickled, (type(self), buffer.getvalue())

    def latex(self) -> str:
        """The derivation as an ``align*`` block (definition → ... → result), to paste into a paper."""
        return operations.latex(self)

    def _repr_latex_(self) -> str:
        """Jupyter shows the derivation typeset: each step with its reason, then the status."""
        return operations.latex(self, display=True)

    def __repr__(self) -> str:
        """One line: the order, the result (shortened) and the status (the steps: ``str()``, ``.steps``)."""
        result = str(self.result)
        result = result if len(result) <= 160 else result[:150] + " …"
        status = getattr(self.status, "value", self.status)
        return f"Derivation(D_{self.order} = {result}, status {status!r}, {len(self.steps)} steps)"

    def __str__(self) -> str:
        return operations.text(self)


def dumps_as_built(obj: object) -> bytes:
    """``pickle.dumps(obj)``, each SymPy expression in it rebuilt as it was, without evaluation, when loaded (by
    ``pickle.loads``): the same expressions, and no SymPy evaluation to pay again on the way in (a catalogue's
    results sent back by ``rdpsym check``'s worker)."""
    buffer = io.BytesIO()
    _AsBuilt(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


class _AsBuilt(pickle.Pickler):
    """Pickles a SymPy expression as its class and arguments, to be rebuilt without evaluation."""

    def reducer_override(self, obj):
        if isinstance(obj, sp.Basic) and not obj.is_Atom and obj.args:
            return _as_built, (type(obj), obj.args)
        return NotImplemented


def _as_built(cls: type, args: tuple) -> sp.Basic:
    """``cls(*args)`` exactly as it was built: unevaluated where the class can be (Add, Mul, Pow, Max, …)."""
    try:
        return cls(*args, evaluate=False)
    except TypeError:  # a class without evaluation (Integral, Tuple, the notation): its arguments are final
        return cls(*args)


def _unpickled(cls: type, data: bytes) -> Derivation:
    """A derivation from its pickled fields (see :meth:`Derivation.__reduce__`)."""
    return cls(**pickle.loads(data))  # noqa: S301 - bytes this module wrote, inside a pickle being loaded
