"""Mass far out on a log scale: a component far wider than the mass the scan located.

:func:`rdpsym.quadrature.locate.locate` finds the hills of the integrand f in x.  A component 10⁷⁰ times wider
than the one it finds is flat beside it, at 10⁻⁷⁰ of its peak, and falls off only at 10⁷⁰ widths: below the
negligible level everywhere, yet holding a third of the mass.  It is a hill not of f but of f·|x − mode|, the mass
per unit of log|x − mode|, and that is what :func:`far_mass` scans, every :data:`_STEP` decades from the e-fold
width out to :data:`_DECADES` decades (farther while the hill is significant or still rising).

Before this scan, ⅔N(0, 1) + ⅓N(0, σ²) against ⅓N(0, 1) + ⅔N(0, σ²) at σ = 10⁷⁰ gave D₂ = log(4/3) (truth log(3/2))
and +∞ past σ = 10¹³⁶; the same mixtures' KL was +∞ at σ = 10⁴⁵; a Cauchy component of scale 10⁷⁰ beside N(0, 1) was
off by 4·10⁻³ at order 3/2; and a Gamma(½) law with an Exp(10⁷⁰) component, log(4/3) for log(3/2) (reviews of the
wide-component family).  Three places use what it finds, through the :class:`~rdpsym.quadrature.locate.Locus`: the
quadrature is split across the far mass, the tails are substituted beyond it, and the reads that decide whether the
integral diverges start beyond it (:meth:`~rdpsym.quadrature.locate.Locus.far`,
:meth:`~rdpsym.quadrature.locate.Locus.outside`).

A tail that only falls (a power law, x⁻², or an exponential) has no far mass, whatever its slope: a hill must rise.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Decades between the scan's points.  A Gaussian component's hill of f·|x| is significant over dps + 5 decades below
#: its width; the KL of components of widths σ and 2σ, whose log(P/Q) cancels to (x/σ)² below σ, over a third of that.
_STEP = 4

#: Decades past the e-fold width the scan reaches; on past them while the hill is significant or still rising, up to
#: _MAX_DECADES (a component wider still reads as a tail that does not decay: +∞ from order 1 on).
_DECADES = 200
_MAX_DECADES = 4000

#: A rise of log(f·|x − mode|) between two scan points larger than this (in e-folds) is a hill, not rounding.
_RISE = 1


@dataclass(frozen=True)
class FarMass:
    """A hill of f·|x − mode| beyond the located mass on one side."""

    splits: tuple  # the points across it, every _STEP decades, from one step before it to one step beyond (none if
    #                its mass is negligible: it is then only read past)
    reach: object  # the distance from the mode beyond which it is negligible (one step past its last point; None
    #               if it is negligible everywhere)
    log_size: object  # the log of its largest mass per unit of log-distance (None if negligible)
    passed: object = None  # the distance beyond which the hill has fallen (where the reads of the tail may start)


def far_mass(log_f, mode, start, sign: int, end, log_size, ctx) -> FarMass | None:
    """The far mass of exp(log_f) on the side ``sign`` of ``mode``, scanned from the distance ``start`` (the e-fold
    width) every :data:`_STEP` decades, up to ``end`` (a finite end of the piece, or ±∞); None if there is none.
    Significant is above 10^−(dps + 5) of the located mass, e^``log_size``; a hill, a rise of more than :data:`_RISE`
    e-folds from the lowest point since the scan's second.

    >>> import mpmath
    >>> ctx = mpmath.mp.clone()
    >>> wide = lambda t: ctx.log(ctx.npdf(t) + ctx.npdf(t, 0, ctx.mpf(10) ** 70) / 2)
    >>> found = far_mass(wide, ctx.zero, ctx.mpf(9), 1, ctx.inf, ctx.log(ctx.npdf(0)), ctx)
    >>> int(ctx.log10(found.splits[0])), int(ctx.log10(found.splits[-1])), int(ctx.log10(found.reach))
    (48, 72, 72)
    >>> far_mass(lambda t: -2 * ctx.log(1 + t * t), ctx.zero, ctx.mpf(9), 1, ctx.inf, ctx.zero, ctx) is None
    True
    """
    threshold = log_size - (ctx.dps + 5) * ctx.ln10
    ten = ctx.mpf(10)
    limit = abs(end - mode) if ctx.isfinite(end) else ctx.inf
    decades, sizes = [], []
    for k in range(0, _MAX_DECADES + 1, _STEP):
        d = start * ten**k
        if d >= limit:
            break
        if k > _DECADES and not (sizes[-1] > threshold or sizes[-1] > sizes[-2]):
            break  # (past _DECADES only while the hill is significant or still rising: a component 10²¹⁰ wide rose
            #        to 10²⁰⁰, and the reads past its reach called its tail integrable: log(4/3) for log(3/2))
        v = log_f(mode + sign * d)
        decades.append(k)
        sizes.append(v + ctx.log(d) if ctx.isfinite(v) else ctx.ninf)
    above = [i for i in range(1, len(sizes)) if sizes[i] > threshold]
    # A rise from the lowest point since the second: the first, one e-fold width from the mode, may sit on a zero of f
    # (the KL integrand of Cauchy laws at x = 1, and the power-law tail after it "rose", split over 48 decades); and
    # a component ∝ |x|^−0.9 rises by 0.92 e-folds in a step, by 10 over 46 decades (a review).
    risen = [i for i in range(2, len(sizes)) if sizes[i] > min(sizes[1:i]) + _RISE]
    if not risen:
        return None
    if not any(i in above for i in risen):
        return _negligible_hill(sizes, decades, risen[0], start, ctx)
    # Read again at twice the digits where it is largest, and agreeing to half the working digits: the KL integrand of
    # Laplace laws of scale 10⁴⁰ one apart is P·(|x − 1| − |x|)/λ, a difference of logs near −92 that are 10⁻⁴⁰
    # apart, all rounding noise at 40 digits, and noise of a constant size is a hill of f·|x| too; of logistic laws,
    # the same difference keeps 10 of 50 digits (a review).  Split across, neither quadrature settled, and the value
    # was refused where the definition's near form answers.
    top = max(above, key=lambda i: sizes[i])
    d = start * ten ** decades[top]
    with ctx.workprec(2 * ctx.prec):
        again = log_f(mode + sign * d) + ctx.log(d)
    if not (ctx.isfinite(again) and abs(again - sizes[top]) <= ctx.ldexp(max(1, abs(sizes[top])), -ctx.prec // 2)):
        return None
    first, last = decades[above[0]] - _STEP, decades[above[-1]] + _STEP
    points = tuple(mode + sign * start * ten**k for k in range(max(first, 0), last + 1, _STEP)
                   if start * ten**k < limit)
    return FarMass(points, start * ten**last, max(sizes[i] for i in above), start * ten**last)


def _negligible_hill(sizes, decades, first, start, ctx) -> FarMass | None:
    """A hill of f·|x − mode| whose mass is negligible everywhere, read past: the reads of whether the integral
    diverges start where it has fallen (by the negligible level's dps + 5 decades from its top), and nothing else
    changes (no splits, no tail substituted beyond it).  ⅔N(0, 1) + ⅓N(0, σ²) against ⅓/⅔ at order 100: the wide
    part is 10⁻⁶⁰ of the integral, flat out to σ, and at σ = 10¹⁵⁰ the reads met that plateau 10⁷ widths out and
    said +∞ ("decays like |x|^0.0").  None if the scan did not see it fall: the reads then stay where they were.
    (Moving the tail's substitution past it too broke two Cauchy laws at order 20 000: "no mass found".)"""
    top = max(range(first, len(sizes)), key=lambda i: sizes[i])
    fallen = next((i for i in range(top, len(sizes)) if sizes[i] < sizes[top] - (ctx.dps + 5) * ctx.ln10), None)
    if fallen is None:
        return None
    return FarMass((), None, None, start * ctx.mpf(10) ** decades[fallen])


__all__ = ["FarMass", "far_mass"]
