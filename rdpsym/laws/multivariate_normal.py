"""The multivariate normal N(μ, Σ) with a symbolic mean vector and covariance matrix.

Σ is checked symmetric and positive definite at construction (Sylvester's
criterion: every leading principal minor > 0; a minor that is not decided is a
hypothesis, checked again wherever values are given).  Its own module because
it is given by its parameters, not by a density: the pdf (and the
:class:`~rdpsym.laws.joint.Joint` it is) is written from μ and Σ⁻¹ on demand,
and the derivation reads μ and Σ directly (Gil, Alajaji, Linder 2013).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from rdpsym.engine.context import Hypotheses
from rdpsym.engine.quadratic import positive_definite, tidy_signs
from rdpsym.foundations.errors import DensityError, ParameterError, must, quoted
from rdpsym.foundations.reading import exact
from rdpsym.laws.densities import parameter_values
from rdpsym.laws.joint import Joint, _read_variables, _twins
from rdpsym.laws.multivariate import Law


def _entries(value: sp.MatrixSymbol, covariance: bool) -> sp.ImmutableMatrix:
    """A matrix symbol written out entry by entry: Σ (d×d) as Σ_11, Σ_12 = Σ_21, …, a vector μ as μ_1, ….

    A covariance is symmetric, so Σ_ij and Σ_ji are one symbol; its diagonal entries are declared
    positive (variances), the others real.  This is where a matrix symbol "stays elementary": the
    derivation then works on the entries (the dimension must be a number).
    """
    rows, cols = value.shape
    if not (rows.is_Integer and cols.is_Integer):
        raise ParameterError(must(value.name, "a matrix symbol of numeric shape (d×d, d×1)", value.shape))
    name = value.name
    if not covariance:
        return sp.ImmutableMatrix(int(rows), int(cols), lambda i, j: sp.Symbol(
            f"{name}_{i + j + 1}", real=True))

    def entry(i, j):
        i, j = min(i, j), max(i, j)
        return sp.Symbol(f"{name}_{i + 1}{j + 1}", **({"positive": True} if i == j else {"real": True}))

    return sp.ImmutableMatrix(int(rows), int(cols), entry)


def _matrix(value: object, name: str) -> sp.ImmutableMatrix:
    if isinstance(value, sp.MatrixSymbol):
        return _entries(value, covariance=name == "covariance")
    if not isinstance(value, sp.MatrixBase):
        # Each entry through rdpsym's reader before SymPy sees it: sp.ImmutableMatrix sympifies a string entry, that
        # is, evaluates it ("__import__('os').system(...)" as a mean ran, and became 0; a probe).
        value = _rows(value, name)
    try:
        m = sp.ImmutableMatrix(value)
    except (TypeError, ValueError, sp.SympifyError):
        raise ParameterError(must(name, "a SymPy Matrix (or a list of rows)", quoted(value))) from None
    m = m.applyfunc(lambda e: exact(e, name))
    for (i, j), e in zip(((i, j) for i in range(m.rows) for j in range(m.cols)), m):
        if e.has(sp.oo, -sp.oo, sp.zoo):  # (a mean of ∞ was taken, and failed later as "nan": a probe)
            where = f"{name}[{i}][{j}]" if name == "covariance" else f"{name}[{max(i, j)}]"
            raise ParameterError(must(where, "a finite number", {sp.oo: "inf", -sp.oo: "-inf"}.get(e, e)))
    return m


#: The most entries a mean or a covariance given as lists may have.
_MOST_ENTRIES = 10_000


def _rows(value: object, name: str) -> list:
    """A list (of rows) given as Python or NumPy sequences, every entry read exactly (:func:`exact`): never text."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()  # (a NumPy array: nested lists of Python numbers)
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise ParameterError(must(name, "a SymPy Matrix (or a list of rows)", quoted(value)))
    if len(value) > _MOST_ENTRIES:
        raise ParameterError(must(name, f"at most {_MOST_ENTRIES} entries", f"{len(value)} rows"))
    out = []
    for i, row in enumerate(value):
        if isinstance(row, (list, tuple)) or (hasattr(row, "tolist") and getattr(row, "ndim", 0) > 0):
            row = list(row.tolist() if hasattr(row, "tolist") else row)
            if len(row) * len(value) > _MOST_ENTRIES:
                raise ParameterError(must(name, f"at most {_MOST_ENTRIES} entries", f"rows of {len(row)}"))
            out.append([exact(e, f"{name}[{i}][{j}]") for j, e in enumerate(row)])
        else:
            out.append(exact(row, f"{name}[{i}]"))
    return out


@dataclass(frozen=True, eq=False)
class MultivariateNormal(Law):
    """N(μ, Σ) on ℝ^d: ``mean`` a vector, ``covariance`` a symmetric positive definite d×d matrix.

    Entries may be symbols (σ₁, σ₂, ρ), or the whole matrix a ``MatrixSymbol`` of numeric shape,
    written out entry by entry (Σ_11, Σ_12 = Σ_21, …); Σ ≻ 0 is checked by Sylvester's criterion
    and a leading minor that is not decided (1 − ρ² > 0) is a hypothesis, checked
    again wherever values are given.  ``variables`` default to x_1, …, x_d.

    >>> import sympy as sp
    >>> MultivariateNormal([0, 0], [[1, 2], [2, 1]])
    Traceback (most recent call last):
    ...
    rdpsym.foundations.errors.DensityError: covariance must be positive definite (every leading principal minor > 0);
    got the leading minor -3.
    """

    mean: object
    covariance: object
    variables: object = None
    check: bool = True
    discrete = False

    def __post_init__(self) -> None:
        cov = _matrix(self.covariance, "covariance")
        mean = _matrix(self.mean, "mean")
        if mean.rows == 1 and mean.cols > 1:
            mean = mean.T
        d = cov.rows
        if cov.cols != d or d == 0:
            raise DensityError(must("covariance", "a square matrix", f"{cov.rows}×{cov.cols}"))
        if mean.shape != (d, 1):
            raise DensityError(must("mean", f"a vector of length {d} (the covariance is {d}×{d})", list(mean)))
        variables = self.variables
        if variables is None:
            variables = tuple(sp.Symbol(f"x_{i + 1}", real=True) for i in range(d))
        variables = _read_variables(variables, False)
        if len(variables) != d:
            raise DensityError(must("variables", f"{d} symbols", variables))
        variables = _twins(sp.S.Zero, variables, False)[1]
        object.__setattr__(self, "mean", mean)
        object.__setattr__(self, "covariance", cov)
        object.__setattr__(self, "variables", variables)
        if self.check:
            self._check()

    def _check(self) -> None:
        cov = self.covariance
        for i in range(cov.rows):
            for j in range(i):
                if cov[i, j] != cov[j, i] and sp.simplify(cov[i, j] - cov[j, i]) != 0:
                    raise DensityError(must("covariance", "symmetric", f"Σ[{i},{j}] = {cov[i, j]} ≠ "
                                                                        f"{cov[j, i]} = Σ[{j},{i}]"))
        definite, bad = positive_definite(sp.Matrix(cov), Hypotheses())
        if definite is False:
            raise DensityError(must("covariance", "positive definite (every leading principal minor > 0)",
                                    f"the leading minor {bad[0]}"))

    @property
    def dimension(self) -> sp.Expr:
        return sp.Integer(self.covariance.rows)

    @property
    def parameters(self) -> set[sp.Symbol]:
        return set(self.mean.free_symbols) | set(self.covariance.free_symbols)

    @functools.cached_property
    def precision(self) -> sp.Matrix:
        """Σ⁻¹, entry by entry cancelled."""
        cov = sp.Matrix(self.covariance)
        det = sp.factor(cov.det(method="berkowitz"))
        return (cov.adjugate(method="berkowitz") / det).applyfunc(lambda e: sp.factor(sp.cancel(e)))

    @property
    def expr(self) -> sp.Expr:
        """The pdf (2π)^{−d/2} det(Σ)^{−1/2} exp(−½ (x − μ)ᵀ Σ⁻¹ (x − μ))."""
        d = self.covariance.rows
        v = sp.Matrix(self.variables) - sp.Matrix(self.mean)
        quad = sp.expand((v.T * self.precision * v)[0, 0])
        det = tidy_signs(sp.factor(sp.Matrix(self.covariance).det(method="berkowitz")))
        return sp.exp(-quad / 2) / sp.sqrt((2 * sp.pi) ** d * det)

    def joint(self) -> Joint:
        return Joint(self.expr, self.variables, None, False, check=False)

    def renamed(self, variables: Sequence[sp.Symbol]) -> MultivariateNormal:
        return MultivariateNormal(self.mean, self.covariance, tuple(variables), check=False)

    def subs(self, values: Mapping) -> MultivariateNormal:
        given = parameter_values(values, (self,))
        return MultivariateNormal(self.mean.subs(given), self.covariance.subs(given), self.variables)

    def __repr__(self) -> str:
        return f"MultivariateNormal({list(self.mean)}, {self.covariance.tolist()})"

    def _key(self) -> tuple:
        return self.mean, self.covariance, self.variables


__all__ = ["MultivariateNormal"]
