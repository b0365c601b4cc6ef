"""The integrand as the quadrature reads it: given by its logarithm, scaled to its piece, errors read as no mass.

Far from their mass, integrands such as exp(−e^(−x)) take values whose exponents
have millions of digits; given by its logarithm (:class:`LogForm`), an integrand
is searched on log|f| and evaluated as sign·exp(log|f| − shift), exactly 0 far
below the piece's integral (:func:`_scaled`).  These are the forms every stage
of :mod:`rdpsym.quadrature.integrate` hands on (the pieces, the cells of a
lattice, the recentred integrand), kept apart so that each stage can read them
without importing the others.

Everything runs with the mpmath context ``ctx`` handed in (a private one) and at
its precision; nothing here changes it.
"""

from __future__ import annotations

from collections.abc import Callable

from rdpsym.foundations.errors import ConvergenceError


class LogForm:
    """An integrand given by its logarithm: ``parts(t)`` is (log|f(t)|, sign of f(t)).

    Far from their mass, integrands such as exp(−e^(−x)) (Gumbel-type
    log-densities) take values like e^(−10^(4·10⁶)): as an mpf that is an
    exponent with millions of digits, and a scan or a quadrature node out there
    would run (nearly) forever.  Given as a logarithm, the search for the mass
    works on log|f| (cheap anywhere), and the quadrature evaluates
    f/(peak·width) as sign·exp(log|f| − log(peak·width)), and as exactly 0 where
    that exponent is below −(dps + 30)·ln 10 − 700: there the integrand is under
    10⁻³⁰⁴·10^(−dps−30) of the piece's integral per unit width, below anything the
    value can show (the truncation numerics.md asks for, at a level that bounds it).
    """

    __slots__ = ("ctx", "parts")

    def __init__(self, parts: Callable, ctx):
        self.parts = parts
        self.ctx = ctx

    def log_abs(self, t):
        return self.parts(t)[0]

    def __call__(self, t):
        log_value, sign = self.parts(t)
        if sign == 0 or log_value == self.ctx.ninf:
            return self.ctx.zero
        return sign * self.ctx.exp(log_value)


class NumericLogForm(LogForm):
    """A :class:`LogForm` about a centre that SymPy could not substitute in time (or substituted into a difference that
    cancels), evaluated at the centre's bits more than the working precision
    (:func:`rdpsym.quadrature.recentring.shifted_log`): right, and costly to integrate, so a hill it gives is read only
    where its mass may matter (:func:`rdpsym.quadrature.hidden_hills.hidden_hills`)."""

    __slots__ = ()


def _guarded(log_f, ctx):
    """log_f with evaluation errors and non-real values read as −∞ (no mass there)."""
    def h(t):
        try:
            v = log_f(t)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return ctx.ninf
        return v if isinstance(v, ctx.mpf) else ctx.ninf
    return h


def _shift_bits(shift, ctx) -> int:
    """The bits of precision ``log|f| − shift`` loses to cancellation, where they are worth recovering (else 0).

    A Laplace pair of scale 10⁻⁴⁰ has log|f| ≈ 5·10³⁹ over its whole mass: rounded to the working precision, it
    carries 10⁻¹² of absolute error at 40 digits, so the scaled integrand was noise at 10⁻¹², tanh-sinh never
    settled and ran every interval to its largest degree (2 251 nodes, 3.2 s a value).  Evaluated with the shift's
    bits more and the shift subtracted there, it is exact to the working precision again."""
    bits = int(ctx.mag(shift)) if shift else 0
    return bits + 10 if bits > _SHIFT_BITS_IGNORED else 0


#: A shift below 2^this loses too few bits to be worth recomputing (the usual case: log|f| of order 1 to 10⁴).
_SHIFT_BITS_IGNORED = 16


#: Below this many e-folds under the piece's integral (beyond its dps + 30 digits), an integrand is 0: pieces up to
#: e^700 ≈ 10³⁰⁴ long; a longer span lowers the cutoff by its length and :data:`_SPAN_EFOLDS` more (_scaled), and a
#: node farther than 2^_FAR_NODE_BITS from 0 by its distance's bits beyond those.
_CUTOFF_EFOLDS = 700
_SPAN_EFOLDS = 20
_FAR_NODE_BITS = 990


def _ceiling(ctx):
    """The log of the largest value a scaled integrand may take: as far above the piece's integral as the cutoff
    is below it.  A larger value means the mass was not where the scan found it."""
    return (ctx.dps + 30) * ctx.ln10 + _CUTOFF_EFOLDS


def _scaled(integrand, shift, ctx, bounded: bool = True, span=None):
    """t -> integrand(t)·e^(−shift); for a :class:`LogForm`, without ever forming a value far below the piece's
    integral (exactly 0 there), and (``bounded``) refusing a value far above it.  Next to a singular end the
    integrand is unbounded by nature: there ``bounded`` is False, and the bound is applied to the substituted
    integrand, which is bounded (:func:`rdpsym.quadrature.ends._quad_peak_at_end`).

    ``span``: the longest stretch of x one node's value may be weighed over (a finite piece's length, a far mass's
    reach), where that is more than the :data:`_CUTOFF_EFOLDS` the cutoff allows for.  A value 10⁻⁴⁰¹ of the peak is
    negligible per unit width, not over 10⁴⁰⁰ of them: ⅔N(0, 1) + ⅓N(0, (10⁴⁰⁰)²) against ⅓/⅔ had its wide component
    set to 0 everywhere (D₂ = log(4/3) for log(3/2), the KL 0.462 for 0.231; a component 10³⁰⁰ wide was right)."""
    if isinstance(integrand, LogForm):
        parts = integrand.parts
        cutoff = -_ceiling(ctx)
        ceiling = -cutoff if bounded else ctx.inf
        if span is not None and span > 1:
            cutoff -= max(0, ctx.log(span) + _SPAN_EFOLDS - _CUTOFF_EFOLDS)
        mpf, zero, exp, far_efolds = ctx.mpf, ctx.zero, ctx.exp, ctx.ln2  # (looked up once: run at every node)
        extra = _shift_bits(shift, ctx)

        def scaled_log(t):  # (log|f(t)| − shift, sign); a log that is not an mpf is handed back as it is
            log_value, sign = parts(t)
            return (log_value - shift if isinstance(log_value, mpf) else log_value), sign

        def f(t):
            if extra:
                with ctx.extraprec(extra):  # log|f| − shift with as many digits as a log of order 1 has
                    d, sign = scaled_log(t)
            else:
                d, sign = scaled_log(t)
            if not isinstance(d, mpf):
                # A log-density that is not real at a node (a log-normal's log(x − m) just below its end m, where
                # rounding put the node): the integral at this precision cannot be trusted.
                raise ConvergenceError(f"the integrand is not a real number at x = {ctx.nstr(t, 8)}: {d}")
            if sign == 0:
                return zero
            if not d > cutoff and not d > cutoff - far_efolds * max(0, ctx.mag(t) - _FAR_NODE_BITS):
                # (below the cutoff per unit width, and per |t| units: a node 10⁴⁰⁰ out weighs that much; a
                # component N(10⁴⁰⁰, (10³⁹⁸)²) at 10⁻³⁹⁸ of the peak was set to 0 where no far mass was scanned)
                return zero
            if d > ceiling:
                raise ConvergenceError(
                    f"the integrand is e^{ctx.nstr(d, 5)} times its largest value found, at x = {ctx.nstr(t, 8)}: "
                    "where its mass lies could not be found")
            value = exp(d)
            return value if sign == 1 else sign * value
        return f
    if not shift:
        return integrand
    inv = ctx.exp(-shift)
    return lambda t: integrand(t) * inv
