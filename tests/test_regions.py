"""The numeric routes' own reading of two laws (rdpsym.quadrature.regions), and the definition read through it.

The definition checks the closed forms, so it must not read the supports through the derivation's reader:
a defect there would be confirmed by the check instead of caught.  Each divergence here is compared with a
value worked out by hand or by a plain mpmath sum / quadrature written in the test (never rdpsym's).
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import rdpsym
from rdpsym.derive.numeric import renyi_divergence_mp
from rdpsym.foundations.errors import NoClosedFormError
from rdpsym.quadrature.regions import Law, probe_points, read_regions, read_tables

oo = sp.oo
R = sp.Rational
x = sp.Symbol("x", real=True)
k = sp.Symbol("k", integer=True)
ORDERS = ("1/2", 2, 1, "oo")


def C(expr, support, **kw):
    return rdpsym.Continuous(expr, x, support=support, **kw)


def D(expr, support, **kw):
    return rdpsym.Discrete(expr, k, support=support, **kw)


def shape(regions):
    return [(r.lo, r.hi, r.p, r.q) for r in regions]


def law(expr, support):
    return Law(expr, k if isinstance(support, sp.Range) else x, support)


# ------------------------------------------------------------------ the reader


def test_a_finite_range_keeps_its_last_outcome():
    # SymPy's Range stop is exclusive: Range(0, 3) is {0, 1, 2}; the outcome 2 must not be dropped.
    q = R(1, 2) ** (k + 1)
    assert shape(read_regions(law(R(1, 3), sp.Range(0, 3)), law(q, sp.Range(0, oo)))) == [
        (0, 2, R(1, 3), q), (3, oo, 0, q)]
    assert shape(read_regions(law(R(1, 2), sp.Range(5, 7)), law(R(1, 3), sp.Range(4, 7)))) == [
        (4, 4, 0, R(1, 3)), (5, 6, R(1, 2), R(1, 3))]


def test_a_range_unbounded_below():
    p, q = R(1, 2) ** (1 - k), R(1, 3) * R(1, 2) ** sp.Abs(k)
    assert shape(read_regions(law(p, sp.Range(-oo, 1)), law(q, sp.Range(-oo, oo)))) == [
        (-oo, -1, p, R(1, 3) * R(1, 2) ** (-k)), (0, 0, R(1, 2), R(1, 3)), (1, oo, 0, R(1, 3) * R(1, 2) ** k)]


def test_open_and_closed_interval_ends_read_alike():
    closed = read_regions(law(sp.S.One, sp.Interval(0, 1)), law(R(1, 2), sp.Interval(0, 2)))
    opened = read_regions(law(sp.S.One, sp.Interval.open(0, 1)), law(R(1, 2), sp.Interval.Lopen(0, 2)))
    assert shape(closed) == shape(opened) == [(0, 1, 1, R(1, 2)), (1, 2, 0, R(1, 2))]


@pytest.mark.parametrize("p_support, q_support, expected", [
    ((1, 2), (0, 3), [(0, 1, 0, "q"), (1, 2, "p", "q"), (2, 3, 0, "q")]),  # P inside Q
    ((0, 3), (1, 2), [(0, 1, "p", 0), (1, 2, "p", "q"), (2, 3, "p", 0)]),  # Q inside P
    ((0, 1), (2, 3), [(0, 1, "p", 0), (1, 2, 0, 0), (2, 3, 0, "q")]),  # disjoint: the gap holds neither
    ((0, 2), (1, 3), [(0, 1, "p", 0), (1, 2, "p", "q"), (2, 3, 0, "q")]),  # different on each side
    ((0, 2), (0, 2), [(0, 2, "p", "q")]),  # equal
])
def test_supports_against_each_other(p_support, q_support, expected):
    p, q = 1 / sp.Integer(p_support[1] - p_support[0]), 1 / sp.Integer(q_support[1] - q_support[0])
    got = shape(read_regions(law(p, sp.Interval(*p_support)), law(q, sp.Interval(*q_support))))
    assert got == [(a, b, p if bp == "p" else bp, q if bq == "q" else bq) for a, b, bp, bq in expected]


def test_switch_points_at_kinks_piecewise_boundaries_and_support_ends():
    laplace = law(sp.exp(-sp.Abs(x - 1)) / 2, sp.Interval(-oo, oo))
    steps = law(sp.Piecewise((R(1, 2), x < R(1, 2)), (sp.exp(R(1, 2) - x) / 2, True)), sp.Interval(0, oo))
    assert shape(read_regions(laplace, steps)) == [
        (-oo, 0, sp.exp(x - 1) / 2, 0), (0, R(1, 2), sp.exp(x - 1) / 2, R(1, 2)),
        (R(1, 2), 1, sp.exp(x - 1) / 2, sp.exp(R(1, 2) - x) / 2), (1, oo, sp.exp(1 - x) / 2, sp.exp(R(1, 2) - x) / 2)]
    # A kink at a support end is no piece of its own.
    one_sided = law(2 * sp.exp(-2 * sp.Abs(x)), sp.Interval(0, oo))
    assert shape(read_regions(one_sided, law(sp.exp(-x), sp.Interval(0, oo)))) == [
        (0, oo, 2 * sp.exp(-2 * x), sp.exp(-x))]
    # Every zero of a periodic argument on the support (SymPy's solve would give only 0 and π), each branch
    # positive; and every real zero of a cubic factor, where the log-density changes branch.
    sine = read_regions(law(sp.Abs(sp.sin(x)) / 6, sp.Interval(0, 3 * sp.pi)),
                        law(1 / (3 * sp.pi), sp.Interval(0, 3 * sp.pi)))
    assert [(r.lo, r.hi, r.p) for r in sine] == [
        (0, sp.pi, sp.sin(x) / 6), (sp.pi, 2 * sp.pi, -sp.sin(x) / 6), (2 * sp.pi, 3 * sp.pi, sp.sin(x) / 6)]
    cubic = read_regions(law((x**3 - 3 * x + 1) ** 2 * sp.exp(-x**2), sp.Interval(-oo, oo)),
                         law(sp.exp(-x**2), sp.Interval(-oo, oo)))
    assert [r.hi for r in cubic[:-1]] == [sp.CRootOf(x**3 - 3 * x + 1, j) for j in range(3)]


def test_discrete_switch_points():
    g = R(1, 2) ** (k + 1)
    # A switch at a non-integer starts a piece at its ceiling; at an integer, the integer is a piece of its own.
    half = read_regions(law(sp.exp(-sp.Abs(k - R(5, 2))), sp.Range(0, oo)), law(g, sp.Range(0, oo)))
    assert [(r.lo, r.hi) for r in half] == [(0, 2), (3, oo)]
    whole = read_regions(law(sp.exp(-sp.Abs(k - 2)), sp.Range(0, oo)), law(g, sp.Range(0, oo)))
    assert [(r.lo, r.hi, r.p) for r in whole] == [(0, 1, sp.exp(k - 2)), (2, 2, 1), (3, oo, sp.exp(2 - k))]
    # A nonlinear condition on the integer variable switches between its real roots: k² < 5 for k ≤ 2.
    square = read_regions(law(sp.Piecewise((0, k**2 < 5), (R(1, 2) ** (k - 2), True)), sp.Range(0, oo)),
                          law(g, sp.Range(0, oo)))
    assert shape(square) == [(0, 2, 0, g), (3, oo, R(1, 2) ** (k - 2), g)]


def test_tables_are_the_enumerated_outcomes():
    pmf = law(sp.binomial(2, k) / 4, sp.Range(0, 3))
    table = Law(None, None, None, table={0: R(1, 4), 1: R(1, 2), 2: R(1, 4)})
    tp, tq = read_tables(pmf, table)
    assert tp == {0: R(1, 4), 1: R(1, 2), 2: R(1, 4)} and tq == table.table
    assert read_tables(law(R(1, 500), sp.Range(0, 500)), table) is None  # beyond the table size: summed
    assert read_tables(law(R(1, 2) ** (k + 1), sp.Range(0, oo)), table) is None


def staircase(epsilon=1, shift=0):
    e = sp.Integer(epsilon)
    A = 1 / (2 * (R(1, 4) + sp.exp(-e) / (1 - sp.exp(-e))))
    return A * sp.exp(-e * sp.floor(sp.Abs(x - shift) + R(3, 4)))


def test_a_staircase_is_read_as_lattices_of_cells():
    regions = read_regions(law(staircase(), sp.Interval(-oo, oo)), law(staircase(shift=1), sp.Interval(-oo, oo)))
    lattices = [r for r in regions if r.lattice is not None]
    assert [(r.lo, r.hi) for r in lattices] == [(-oo, R(-1, 4)), (R(5, 4), oo)]
    assert all(r.lattice.step == 1 and r.lattice.offsets == (0,) for r in lattices)
    assert [(r.lo, r.hi) for r in regions if r.cell] == [
        (R(-1, 4), 0), (0, R(1, 4)), (R(1, 4), R(3, 4)), (R(3, 4), 1), (1, R(5, 4))]
    # Every cell's branches are the laws' values there, at any distance (block 10⁶ of each lattice).
    P, Q = staircase(), staircase(shift=1)
    cells = [r for r in regions if r.cell] + [c for r in lattices for n in (0, 1, 7, 10**6) for c in r.lattice.cells(n)]
    for c in cells:
        assert not (c.p.has(x) or c.q.has(x))
        t = (c.lo + c.hi) / 2
        assert sp.simplify(c.p - P.subs(x, t)) == 0 and sp.simplify(c.q - Q.subs(x, t)) == 0
    assert all(c.lo < t < c.hi for r in lattices for c in r.lattice.cells(0) for t in probe_points(c, False))


def test_floors_that_are_no_lattice_are_refused():
    with pytest.raises(NoClosedFormError, match=r"floor\(x\*\*2\)"):
        read_regions(law(sp.exp(-sp.floor(x**2)), sp.Interval(0, oo)), law(sp.exp(-x), sp.Interval(0, oo)))
    with pytest.raises(NoClosedFormError, match="incommensurable"):
        read_regions(law(sp.exp(-sp.floor(x)) * (1 - sp.exp(-1)), sp.Interval(0, oo)),
                     law(sp.exp(-sp.floor(sp.sqrt(2) * x)), sp.Interval(0, oo)))


def test_a_short_floor_is_cut_into_cells():
    regions = read_regions(law(sp.floor(x + R(1, 2)) / 2, sp.Interval(0, 2)), law(R(1, 2), sp.Interval(0, 2)))
    assert shape(regions) == [(0, R(1, 2), 0, R(1, 2)), (R(1, 2), R(3, 2), R(1, 2), R(1, 2)),
                              (R(3, 2), 2, 1, R(1, 2))]


# ------------------------------------------------------------------ the definition, read through it


def divergence(a, terms=None, pieces=None, dps=60):
    """D_a from P and Q written as plain mpmath: a sum over ``terms`` (p, q) or a quadrature over ``pieces``
    [(lo, hi, p(t), q(t))] split where they switch."""
    with mpmath.workdps(dps):
        a = mpmath.inf if a == "oo" else mpmath.mpf(sp.Rational(a).p) / sp.Rational(a).q
        if terms is not None:
            if a == mpmath.inf:
                return max(mpmath.log(p / q) for p, q in terms if p > 0)
            if a == 1:
                return mpmath.fsum(p * mpmath.log(p / q) for p, q in terms if p > 0)
            return mpmath.log(mpmath.fsum(p**a * q ** (1 - a) for p, q in terms if p > 0 and q > 0)) / (a - 1)
        if a == 1:
            def integrand(t, p, q):
                return p(t) * mpmath.log(p(t) / q(t)) if p(t) > 0 else 0
            return mpmath.fsum(mpmath.quad(lambda t, p=p, q=q: integrand(t, p, q), [lo, hi]) for lo, hi, p, q in pieces)
        value = mpmath.fsum(mpmath.quad(lambda t, p=p, q=q: p(t) ** a * q(t) ** (1 - a), [lo, hi])
                            for lo, hi, p, q in pieces)
        return mpmath.log(value) / (a - 1)


def close(value, truth, dps):
    """Whether ``value`` is ``truth`` to ``dps`` significant digits (compared at dps + 20 digits)."""
    if truth == mpmath.inf:
        return mpmath.isinf(value) and value > 0
    with mpmath.workdps(dps + 20):
        return abs(value - truth) <= mpmath.mpf(10) ** (1 - dps) * (abs(truth) or 1)  # (relative: not absolute below 1)


def check(P, Q, truths, dps=30):
    for a, truth in zip(ORDERS, truths):
        value = renyi_divergence_mp(P, Q, a, dps=dps)
        assert close(value, truth, dps), (a, value, truth)


half = mpmath.mpf(1) / 2


def test_uniform_on_a_finite_range_against_a_geometric_law():
    P, Q = D(R(1, 3), sp.Range(0, 3)), D(R(1, 2) ** (k + 1), sp.Range(0, oo))
    with mpmath.workdps(60):
        s = (1 / mpmath.sqrt(2) + half + 1 / (2 * mpmath.sqrt(2))) / mpmath.sqrt(3)
        truths = [-2 * mpmath.log(s), mpmath.log(mpmath.mpf(14) / 9), mpmath.log(mpmath.mpf(4) / 3),
                  mpmath.log(mpmath.mpf(8) / 3)]
    assert mpmath.nstr(truths[0], 15) == "0.208394451105285"
    check(P, Q, truths, dps=40)


def test_a_range_unbounded_below_against_a_two_sided_geometric():
    P, Q = D(R(1, 2) ** (1 - k), sp.Range(-oo, 1)), D(R(1, 3) * R(1, 2) ** sp.Abs(k), sp.Range(-oo, oo))
    with mpmath.workdps(60):
        check(P, Q, [mpmath.log(mpmath.mpf(3) / 2)] * 4)  # P/Q = 3/2 on P's support


def test_tables_against_pmfs_on_finite_ranges():
    pmf = D(sp.binomial(2, k) / 4, sp.Range(0, 3))
    table = rdpsym.Discrete({0: R(1, 4), 1: R(1, 2), 2: R(1, 4)})
    other = D(R(1, 4), sp.Range(-1, 3))  # one more outcome than the table, below it
    terms = [(0, R(1, 4)), (R(1, 4), R(1, 4)), (R(1, 2), R(1, 4)), (R(1, 4), R(1, 4))]
    with mpmath.workdps(60):
        terms = [(mpmath.mpf(p.p) / p.q if p else mpmath.mpf(0), mpmath.mpf(q.p) / q.q) for p, q in terms]
        truths = [divergence(a, terms=terms) for a in ORDERS]
    check(pmf, other, truths)
    check(table, other, truths)
    assert all(renyi_divergence_mp(pmf, table, a, dps=20) == 0 for a in ORDERS)


def test_a_switch_of_a_pmf_at_irrational_points():
    # k² < 5: the pmf switches between 2 and 3.  Read as one branch from k = 0, P would be 0 everywhere.
    g = R(1, 2) ** (k + 1)
    P = D(sp.Piecewise((0, k**2 < 5), (R(1, 2) ** (k - 2), True)), sp.Range(0, oo), check=False)
    with mpmath.workdps(60):
        check(P, D(g, sp.Range(0, oo)), [mpmath.log(8)] * 4)  # P/Q = 8 on P's support
    P = D(sp.Piecewise((R(1, 4), k**2 < 5), (R(1, 2) ** k, True)), sp.Range(0, oo), check=False)
    with mpmath.workdps(60):
        terms = [(mpmath.mpf(1) / 4 if j * j < 5 else half**j, half ** (j + 1)) for j in range(400)]
        truths = [divergence(a, terms=terms) for a in ORDERS]
    check(P, D(g, sp.Range(0, oo)), truths)


@pytest.mark.parametrize("p, q, truths", [
    # P inside Q (an open end and a closed one), Q inside P, disjoint, different on each side.
    ((1, sp.Interval.open(0, 1)), (R(1, 2), sp.Interval(0, 2)), ["log2"] * 4),
    ((R(1, 2), sp.Interval(0, 2)), (1, sp.Interval.Ropen(0, 1)), ["log2", "inf", "inf", "inf"]),
    ((1, sp.Interval(0, 1)), (1, sp.Interval(2, 3)), ["inf"] * 4),
    ((R(1, 2), sp.Interval(0, 2)), (R(1, 2), sp.Interval(1, 3)), ["2log2", "inf", "inf", "inf"]),
])
def test_uniform_laws_on_supports_against_each_other(p, q, truths):
    with mpmath.workdps(60):
        named = {"log2": mpmath.log(2), "2log2": 2 * mpmath.log(2), "inf": mpmath.inf}
        check(C(*p), C(*q), [named[t] for t in truths])


def test_kinks_inside_the_supports():
    P, Q = C(sp.exp(-sp.Abs(x)) / 2, sp.Interval(-oo, oo)), C(sp.exp(-sp.Abs(x - 1)) / 2, sp.Interval(-oo, oo))
    p, q = (lambda t: mpmath.exp(-abs(t)) / 2), (lambda t: mpmath.exp(-abs(t - 1)) / 2)
    pieces = [(-mpmath.inf, 0, p, q), (0, 1, p, q), (1, mpmath.inf, p, q)]
    with mpmath.workdps(60):
        check(P, Q, [divergence(a, pieces=pieces) for a in ORDERS[:3]] + [mpmath.mpf(1)])


def test_a_piecewise_boundary_and_a_kink_at_a_support_end():
    P = C(sp.Piecewise((R(1, 2), x < 1), (sp.exp(1 - x) / 2, True)), sp.Interval(0, oo))
    Q = C(sp.exp(-x), sp.Interval(0, oo))
    p, q = (lambda t: half if t < 1 else mpmath.exp(1 - t) / 2), (lambda t: mpmath.exp(-t))
    pieces = [(0, 1, p, q), (1, mpmath.inf, p, q)]
    with mpmath.workdps(60):
        check(P, Q, [divergence(a, pieces=pieces) for a in ORDERS[:3]] + [1 - mpmath.log(2)])
    # 2e^{−2|x|} on [0, ∞) against e^{−x}: ∫ P^α Q^{1−α} = 2^α/(1 + α), KL = log 2 − 1/2, sup log(P/Q) = log 2.
    P = C(2 * sp.exp(-2 * sp.Abs(x)), sp.Interval(0, oo))
    with mpmath.workdps(60):
        moment = lambda a: mpmath.log(2**a / (1 + a)) / (a - 1)  # noqa: E731
        truths = [moment(half), moment(mpmath.mpf(2)), mpmath.log(2) - half, mpmath.log(2)]
    check(P, Q, truths)


def test_a_periodic_kink_every_zero_found():
    # |sin x|/6 on [0, 3π] against the uniform law: three arches, the kinks at π and 2π.
    P = C(sp.Abs(sp.sin(x)) / 6, sp.Interval(0, 3 * sp.pi), check=False)
    Q = C(1 / (3 * sp.pi), sp.Interval(0, 3 * sp.pi))
    with mpmath.workdps(60):
        p, q = (lambda t: mpmath.sin(t) / 6), (lambda t: 1 / (3 * mpmath.pi))
        pieces = [(0, mpmath.pi, p, q)] * 3
        truths = [divergence(a, pieces=pieces) for a in ORDERS[:3]] + [mpmath.log(mpmath.pi / 2)]
    check(P, Q, truths)


def test_the_zeros_of_a_cubic_factor():
    # P ∝ (x³ − 3x + 1)²·e^{−x²}: its three zeros are kinks of P^α (α = 1/2); ∫ = (23/8)√π.
    P = C((x**3 - 3 * x + 1) ** 2 * sp.exp(-x**2) * 8 / (23 * sp.sqrt(sp.pi)), sp.Interval(-oo, oo))
    Q = C(sp.exp(-x**2) / sp.sqrt(sp.pi), sp.Interval(-oo, oo))
    with mpmath.workdps(60):
        q = lambda t: mpmath.exp(-t**2) / mpmath.sqrt(mpmath.pi)  # noqa: E731
        p = lambda t: (t**3 - 3 * t + 1) ** 2 * mpmath.mpf(8) / 23 * q(t)  # noqa: E731
        roots = sorted(mpmath.re(r) for r in mpmath.polyroots([1, 0, -3, 1], extraprec=100))
        ends = [-mpmath.inf, *roots, mpmath.inf]
        pieces = [(a, b, p, q) for a, b in zip(ends, ends[1:])]
        truths = [divergence(a, pieces=pieces) for a in ORDERS[:3]] + [mpmath.inf]
    check(P, Q, truths)


def test_the_staircase_mechanism_to_40_digits():
    # A = 1/(2·(1/4 + e^{−ε}/(1 − e^{−ε}))), ε = 1: P and Q are constant between the quarter points k/4, so the
    # definition is a plain sum over those cells (out to |x| = 400, where the terms are e^{−400}).
    P = C(staircase(), sp.Interval(-oo, oo), check=False)
    Q = C(staircase(shift=1), sp.Interval(-oo, oo), check=False)
    with mpmath.workdps(80):
        A = 1 / (2 * (mpmath.mpf(1) / 4 + mpmath.exp(-1) / (1 - mpmath.exp(-1))))
        p = lambda t: A * mpmath.exp(-mpmath.floor(abs(t) + mpmath.mpf(3) / 4))  # noqa: E731
        q = lambda t: A * mpmath.exp(-mpmath.floor(abs(t - 1) + mpmath.mpf(3) / 4))  # noqa: E731
        mids = [(mpmath.mpf(j) + half) / 4 for j in range(-1600, 1600)]
        terms = [(p(t) / 4, q(t) / 4) for t in mids]  # each cell's mass (width 1/4); the ratio is unchanged
        truths = [divergence(a, terms=terms, dps=80) for a in ORDERS]
    assert close(truths[3], 1, 60)
    check(P, Q, truths, dps=40)


def test_a_floor_on_a_finite_support_cell_by_cell():
    # (⌊x⌋ + 1)/3 on [0, 2] against (x + 1)/4: P jumps at 1, where Q is smooth.
    P, Q = C((sp.floor(x) + 1) / 3, sp.Interval(0, 2)), C((x + 1) / 4, sp.Interval(0, 2))
    with mpmath.workdps(60):
        q = lambda t: (t + 1) / 4  # noqa: E731
        pieces = [(0, 1, lambda t: mpmath.mpf(1) / 3, q), (1, 2, lambda t: mpmath.mpf(2) / 3, q)]
        truths = [divergence(a, pieces=pieces) for a in ORDERS[:3]] + [mpmath.log(mpmath.mpf(4) / 3)]
    check(P, Q, truths)


def test_a_floor_times_a_smooth_law_on_infinitely_many_cells():
    # The exponential law made a staircase, (1 − 1/e)·e^{−⌊x⌋}, against Exp(1): smooth, non-constant cells.
    # ∫ P²/Q = (1 − 1/e)²·Σ e^{−2n}·(e^{n+1} − e^{n}), and sup log(P/Q) = log(1 − 1/e) + 1, approached at each jump.
    P = C((1 - sp.exp(-1)) * sp.exp(-sp.floor(x)), sp.Interval(0, oo), check=False)
    Q = C(sp.exp(-x), sp.Interval(0, oo))
    with mpmath.workdps(60):
        c, e = 1 - mpmath.exp(-1), mpmath.e
        moment = c**2 * (e - 1) / (1 - 1 / e)  # Σ e^{−n}(e − 1)
        truths = {2: mpmath.log(moment), "oo": mpmath.log(c) + 1}
    for a, truth in truths.items():
        assert close(renyi_divergence_mp(P, Q, a, dps=15), truth, 15), a


def test_a_piece_without_branches_keeps_its_density_as_it_is():
    """Reading the regions resolves Abs, sign, Max and Piecewise at a point of each piece; a density with none of
    them (a Gaussian's) is handed on as the same object, not rebuilt (rebuilding evaluated it again at every point
    of a certified check), and one with a branch is resolved where it has one."""
    from rdpsym.quadrature.branches import _resolve

    gaussian = sp.exp(-(x - sp.Rational(1, 3)) ** 2 / 2) / sp.sqrt(2 * sp.pi)
    assert _resolve(gaussian, x, sp.Integer(5)) is gaussian
    laplace = sp.exp(-sp.Abs(x - 1)) / 2
    assert _resolve(laplace, x, sp.Integer(5)) == sp.exp(1 - x) / 2
    assert _resolve(laplace, x, sp.Integer(-5)) == sp.exp(x - 1) / 2
