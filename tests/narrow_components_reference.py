"""Plain mpmath references for tests/test_numeric_adversarial.py: laws with a component far narrower than its place.

Each value is D_a(P‖Q) of a mixture with one narrow light component, by mpmath's quadrature of the definition cut
at the component's own scales (its centre ± w·2^k) and the bulk's: nothing of rdpsym.  They are pure functions of
this file, so they are stored (tests/stored_values.py) and recorded from a run of that test file::

    RDPSYM_RECORD_STORES=1 python -m pytest -n 0 -p no:cacheprovider tests/test_numeric_adversarial.py

The four laws, each keyed by its name and its rational parameters (``name:v1,v2,…``, :func:`entry_key`):

* ``gaussian-beside-the-bulk:c,w,t,a``: (1 − t)·N(0, 1) + t·N(c, w²) against N(0, 1);
* ``laplace-at-a-kink:a``: (1 − 10⁻⁹)·Λ(0, 1) + 10⁻⁹·Λ(20, 10⁻¹⁰) against Λ(1, 1);
* ``gaussian-dip-of-the-kl:``: (1 − 10⁻⁶)·Λ(0, 1) + 10⁻⁶·N(5, 10⁻⁸) against Λ(1, 1), at a = 1;
* ``logistic-beside-a-laplace:a``: ½·Λ(0, 1) + ½·Logistic(5, 10⁻⁴) against Λ(1, 1).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from stored_values import Store

STORE = Store("narrow_components_reference", ("narrow_components_reference.py",),
              "RDPSYM_RECORD_STORES=1 python -m pytest -n 0 -p no:cacheprovider tests/test_numeric_adversarial.py")
#: Working digits of every reference.
DPS = 60


def definition_with_cuts(p, q, a, cuts, dps: int = DPS) -> mpmath.mpf:
    """D_a of two mpmath densities by plain mpmath quadrature cut at ``cuts`` (a = 1: the KL)."""
    with mpmath.workdps(dps):
        if a == 1:
            def f(z):
                pz = p(z)
                return pz * (mpmath.log(pz) - mpmath.log(q(z)))
            return mpmath.quad(f, cuts)
        value = mpmath.quad(lambda z: mpmath.exp(a * mpmath.log(p(z)) + (1 - a) * mpmath.log(q(z))), cuts)
        return mpmath.log(value) / (a - 1)


def _mp(v: Fraction) -> mpmath.mpf:
    return mpmath.mpf(v.numerator) / v.denominator


def _laplace_one(z):  # Λ(1, 1), every pair's Q but the first
    return mpmath.exp(-abs(z - 1)) / 2


def _gaussian_beside_the_bulk(c: Fraction, w: Fraction, t: Fraction, a: Fraction) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        c_, w_, t_, a_ = map(_mp, (c, w, t, a))

        def p(z):
            return (1 - t_) * mpmath.npdf(z, 0, 1) + t_ * mpmath.npdf(z, c_, w_)

        cuts = {-mpmath.inf, -20, -8, -4, -2, -1, 0, 1, 2, 4, 8, 20, mpmath.inf, c_}
        cuts |= {c_ + s * w_ * 2**k for k in range(int(mpmath.log(100 / w_, 2))) for s in (-1, 1)}
        return definition_with_cuts(p, lambda z: mpmath.npdf(z, 0, 1), a_, sorted(cuts))


def _laplace_at_a_kink(a: Fraction) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        wm, bm = mpmath.mpf(10) ** -9, mpmath.mpf(10) ** -10

        def p(z):
            return (1 - wm) * mpmath.exp(-abs(z)) / 2 + wm * mpmath.exp(-abs(z - 20) / bm) / (2 * bm)

        cuts = sorted({-mpmath.inf, 0, 1, 20, mpmath.inf} | {20 + s * bm * 2**k for k in range(40) for s in (-1, 1)})
        return definition_with_cuts(p, _laplace_one, _mp(a), cuts)


def _gaussian_dip_of_the_kl() -> mpmath.mpf:
    with mpmath.workdps(DPS):
        wm, sm = mpmath.mpf(10) ** -6, mpmath.mpf(10) ** -4

        def p(z):
            return (1 - wm) * mpmath.exp(-abs(z)) / 2 + wm * mpmath.npdf(z, 5, sm)

        cuts = sorted({-mpmath.inf, 0, 1, 5, mpmath.inf} | {5 + t * sm * 2**k for k in range(16) for t in (-1, 1)})
        return definition_with_cuts(p, _laplace_one, 1, cuts)


def _logistic_beside_a_laplace(a: Fraction) -> mpmath.mpf:
    with mpmath.workdps(DPS):
        sm = mpmath.mpf(10) ** -4

        def p(z):
            return mpmath.exp(-abs(z)) / 4 + 1 / (8 * sm * mpmath.cosh((z - 5) / (2 * sm)) ** 2)

        cuts = sorted({-mpmath.inf, 0, 1, 5, mpmath.inf} | {5 + t * sm * 2**k for k in range(20) for t in (-1, 1)})
        return definition_with_cuts(p, _laplace_one, _mp(a), cuts)


#: Each law's reference, by the name its keys start with.
LAWS = {
    "gaussian-beside-the-bulk": _gaussian_beside_the_bulk,
    "laplace-at-a-kink": _laplace_at_a_kink,
    "gaussian-dip-of-the-kl": _gaussian_dip_of_the_kl,
    "logistic-beside-a-laplace": _logistic_beside_a_laplace,
}


def entry_key(name: str, *values) -> str:
    """``name:v1,v2,…`` with each value an exact fraction."""
    return f"{name}:" + ",".join(str(Fraction(str(v))) for v in values)


def compute_entry(key: str) -> mpmath.mpf:
    """The reference of ``key``, computed."""
    name, _, values = key.partition(":")
    return LAWS[name](*(Fraction(v) for v in values.split(",") if v))


def reference(name: str, *values) -> mpmath.mpf:
    """The stored reference of the law ``name`` at ``values`` (computed where the store does not hold it)."""
    key = entry_key(name, *values)
    return STORE.value(key, lambda: compute_entry(key))
