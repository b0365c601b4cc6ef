"""``rdpsym.plots`` and ``rdpsym plot``: the drawn numbers are rdpsym's, checked against independent formulas.

The figures are rendered headless (the object-oriented ``Figure`` API, no
pyplot) in every format; every check of values reads the *plotted* line data
(``ax.get_lines()``) and compares it with closed forms evaluated here with
mpmath (Mironov 2017, Props 5–7 and 2; Balle–Wang 2018, Thm 8) or with
``rdpsym.epsilon``.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import arb
from matplotlib.figure import Figure

import rdpsym
from rdpsym.accounting.components import Component, Infinite
from rdpsym.accounting.curve import curve
from rdpsym.cli.main import main
from rdpsym.cli.params import parse_spec
from rdpsym.foundations.errors import ParameterError
from rdpsym.render.plots import (
    BUDGET_YLABEL,
    DEFAULT_DELTAS,
    budget_curves,
    budget_data,
    conversion_curves,
    conversion_data,
    default_orders,
)

REL = 1e-12


# --------------------------------------------------------------------------- helpers


def lines_of(ax, gid):
    return [ln for ln in ax.get_lines() if ln.get_gid() == gid]


def points(ax, gid):
    """The (x, y) a curve's lines draw, all segments together, with their checks: finite, no NaN."""
    xs, ys = [], []
    for ln in lines_of(ax, gid):
        x, y = np.asarray(ln.get_xdata(), dtype=float), np.asarray(ln.get_ydata(), dtype=float)
        assert np.all(np.isfinite(x)) and np.all(np.isfinite(y)), gid
        xs.extend(x.tolist())
        ys.extend(y.tolist())
    return xs, ys


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def close(a, b, rel=REL):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def laplace_prop6(a, lam):
    """Mironov 2017, Prop 6: the Laplace mechanism with λ = b/Δ."""
    a, lam = mpmath.mpf(a), mpmath.mpf(lam)
    return mpmath.log(a / (2 * a - 1) * mpmath.exp((a - 1) / lam)
                      + (a - 1) / (2 * a - 1) * mpmath.exp(-a / lam)) / (a - 1)


def rr_prop5(a, p):
    """Mironov 2017, Prop 5: randomized response."""
    a, p = mpmath.mpf(a), mpmath.mpf(p)
    return mpmath.log(p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)


def gaussian_delta(eps, sigma, sens=1):
    """Balle–Wang 2018, Thm 8: the Gaussian mechanism's exact δ(ε)."""
    eps, sigma, sens = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sens)
    return (mpmath.ncdf(sens / (2 * sigma) - eps * sigma / sens)
            - mpmath.exp(eps) * mpmath.ncdf(-sens / (2 * sigma) - eps * sigma / sens))


def gappy_curve():
    """ε(α) = α, except ∞ for 3 < α < 5 (a gap in the middle of the grid)."""
    def balls(orders):
        return [Infinite("made up: no bound on (3, 5)") if a != math.inf and 3 < a < 5
                else (arb(0.5) if a == math.inf else arb(a)) for a in orders]

    return curve(Component("gappy", balls), "gappy")


class Counting:
    """A mechanism-like object that records whether its curve was ever asked for."""

    def __init__(self):
        self.calls = 0

    def curve(self):
        self.calls += 1
        return rdpsym.gaussian(sigma=2).curve()


@pytest.fixture(scope="module")
def mechanisms():
    return {"laplace": rdpsym.laplace(scale=1), "gaussian": rdpsym.gaussian(sigma=2),
            "rr": rdpsym.randomized_response(p=sp.Rational(3, 4))}


@pytest.fixture(scope="module")
def three(mechanisms):
    """The three classic curves on the default grid (the figure most tests read)."""
    return budget_curves(list(mechanisms.values()))


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("fmt, magic", [("png", b"\x89PNG"), ("pdf", b"%PDF"), ("svg", None)])
def test_every_format_renders_headless(tmp_path, mechanisms, fmt, magic):
    fig = budget_curves([mechanisms["gaussian"]], orders=[2, 4, 8])
    path = tmp_path / f"curves.{fmt}"
    fig.savefig(path)
    data = path.read_bytes()
    assert len(data) > 1000
    if magic:
        assert data.startswith(magic)
    else:
        assert b"<svg" in data[:2000]


def test_a_figure_not_pyplot():
    code = ("import sys, io, rdpsym.render.plots as p\n"
            "from rdpsym.accounting.curve import Component, curve\n"
            "from flint import arb\n"
            "c = curve(Component('id', lambda orders: [arb(1) for _ in orders]), 'id')\n"
            "p.budget_curves([c], orders=[2, 3]).savefig(io.BytesIO(), format='png')\n"
            "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot was imported'\n")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- budget curves


def test_axes_labels_scales_and_legend(three):
    ax = three.axes[0]
    assert isinstance(three, Figure)
    assert ax.get_xlabel() == "order α"
    assert ax.get_ylabel() == BUDGET_YLABEL == r"ε(α) = $D_\alpha$ (nats)"
    assert ax.get_xscale() == "log" and ax.get_yscale() == "linear"
    assert ax.get_title() == "Rényi budget curves ε(α)"
    assert legend_texts(ax) == [
        "laplace(scale=1, sensitivity=1) (ε(∞) = 1, dashed)",
        "gaussian(sigma=2, sensitivity=1)",
        "randomized-response(p=3/4) (ε(∞) = 1.099, dashed)",
    ]


def test_default_grid_is_drawn(three):
    x, _ = points(three.axes[0], "gaussian(sigma=2, sensitivity=1)")
    grid = default_orders()
    assert x == [int(a.p) / int(a.q) for a in grid]
    assert x[0] == 1.01 and x[-1] == 100 and x == sorted(x) and len(set(x)) == len(x)
    assert set(range(2, 101)) <= set(x)


def test_gaussian_points_are_alpha_over_two_sigma_squared(three):
    x, y = points(three.axes[0], "gaussian(sigma=2, sensitivity=1)")
    for a, v in zip(x, y):
        assert close(v, a / 8)


def test_laplace_points_match_proposition_6(three):
    x, y = points(three.axes[0], "laplace(scale=1, sensitivity=1)")
    with mpmath.workdps(40):
        for a, v in zip(x, y):
            assert close(v, float(laplace_prop6(a, 1))), a


def test_randomized_response_points_match_proposition_5(three):
    x, y = points(three.axes[0], "randomized-response(p=3/4)")
    with mpmath.workdps(40):
        for a, v in zip(x, y):
            assert close(v, float(rr_prop5(a, mpmath.mpf(3) / 4))), a


def test_asymptotes_are_d_infinity(three):
    ax = three.axes[0]
    [lap] = lines_of(ax, "laplace(scale=1, sensitivity=1): ε(∞)")
    [rr] = lines_of(ax, "randomized-response(p=3/4): ε(∞)")
    assert list(lap.get_ydata()) == [1, 1] and lap.get_linestyle() == "--"
    assert close(rr.get_ydata()[0], math.log(3))
    assert lines_of(ax, "gaussian(sigma=2, sensitivity=1): ε(∞)") == []  # D_∞ = ∞: no asymptote
    assert lap.get_color() == lines_of(ax, "laplace(scale=1, sensitivity=1)")[0].get_color()


def test_group_privacy_is_a_gap_below_its_minimum_order(mechanisms):
    g = mechanisms["gaussian"].curve().group(1)  # 3·ε(2α) for α ≥ 2, ∞ below (Prop 2)
    fig = budget_curves([g])
    ax = fig.axes[0]
    x, y = points(ax, g.label)
    assert min(x) == 2 and len(x) == sum(1 for a in default_orders() if a >= 2)
    for a, v in zip(x, y):
        assert close(v, 3 * (2 * a) / 8)
    assert legend_texts(ax) == [f"{g.label} (∞ for α < 2)"]
    [d] = budget_data([g])
    assert all(a < 2 for a, _ in d.infinite) and len(d.infinite) == sum(1 for a in default_orders() if a < 2)
    assert d.infinite[0][1] == "group privacy (Prop 2) needs order ≥ 2, got 101/100"


def test_an_infinite_stretch_in_the_middle_splits_the_line():
    fig = budget_curves({"made up": gappy_curve()}, orders=[2, 3, 4, 4.5, 5, 6, 8])
    ax = fig.axes[0]
    segments = lines_of(ax, "made up")
    assert [list(s.get_xdata()) for s in segments] == [[2, 3], [5, 6, 8]]
    assert [list(s.get_ydata()) for s in segments] == [[2, 3], [5, 6, 8]]
    assert len({s.get_color() for s in segments}) == 1
    assert [s.get_label() for s in segments] == ["made up (∞ at α ∈ [4, 4.5]; ε(∞) = 0.5, dashed)", "_nolegend_"]
    assert legend_texts(ax) == ["made up (∞ at α ∈ [4, 4.5]; ε(∞) = 0.5, dashed)"]


def test_a_curve_infinite_everywhere_has_an_empty_line_and_says_so():
    inf = curve(Component("never", lambda orders: [Infinite("no bound") for _ in orders]), "never")
    fig = budget_curves([inf], orders=[2, 3])
    [line] = lines_of(fig.axes[0], "never")
    assert len(line.get_xdata()) == 0
    assert legend_texts(fig.axes[0]) == ["never (∞ at every order plotted)"]


def test_steps_mapping_labels_ax_title_and_log_scale(mechanisms):
    fig = Figure()
    ax = fig.add_subplot()
    out = budget_curves({"ten Gaussians": mechanisms["gaussian"]}, orders="mironov", steps=10, ax=ax, title="",
                        yscale="log")
    assert out is fig and ax.get_title() == "" and ax.get_yscale() == "log"
    x, y = points(ax, "ten Gaussians")
    assert x == [1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 16, 32, 64]  # "inf" of the grid is not an abscissa
    assert all(close(v, 10 * a / 8) for a, v in zip(x, y))
    [d] = budget_data([mechanisms["gaussian"]], orders="mironov", steps=10)
    assert d.label == "10 × (gaussian(sigma=2, sensitivity=1))" and d.infinite[-1][0] == math.inf


def test_zero_values_are_left_out_of_a_log_axis():
    zero = rdpsym.sampled_gaussian(q=0, sigma=1).curve()  # q = 0: ε(α) = 0
    fig = budget_curves([zero, rdpsym.zcdp(rho=1)], orders=[2, 4], yscale="log")
    ax = fig.axes[0]
    assert points(ax, zero.label) == ([], [])
    assert legend_texts(ax)[0].endswith("(ε(∞) = 0, dashed) (ε = 0 not drawn on the log axis)")
    fig.savefig(__import__("io").BytesIO(), format="png")


def test_a_log_axis_with_nothing_above_zero_is_refused_by_name(tmp_path, capsys):
    """A probe: randomized response at p = 1/2 (ε = 0 at every order) and ε(δ) of a Gaussian at δ ≥ 0.9 on a log axis
    raised matplotlib's "Data cannot be log-scaled" as a traceback; with a value above 0 the zeros are left out."""
    zero = rdpsym.sampled_gaussian(q=0, sigma=1).curve()
    with pytest.raises(ParameterError, match="yscale must be 'linear' where no finite value above 0 is plotted"):
        budget_curves([zero], orders=[2, 4], yscale="log")
    assert main(["plot", "randomized-response:p=1/2", "--yscale", "log", "-o", str(tmp_path / "x.png")]) == 2
    assert "yscale must be 'linear'" in capsys.readouterr().err and not (tmp_path / "x.png").exists()


def test_default_orders():
    grid = default_orders()
    assert len(grid) == 289 and grid[0] == rdpsym.accounting.curve.fmpq(101, 100)
    # 4 log-spaced orders 1.01, 2.01, 4.01, 8 (3 significant digits) and the integers 2 … 8.
    assert [float(a) for a in default_orders(8, points=4)] == [1.01, 2, 2.01, 3, 4, 4.01, 5, 6, 7, 8]
    with pytest.raises(ParameterError, match=r"max_order must be a number in \(1.01, 10\^6\]; got 1"):
        default_orders(1)
    with pytest.raises(ParameterError, match="points must be an integer in"):
        default_orders(10, points=1)


# --------------------------------------------------------------------------- conversion curves


def test_conversion_points_are_rdpsym_epsilon(mechanisms):
    sg = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10))
    deltas = [1e-9, 1e-5, 1e-2]
    fig = conversion_curves([mechanisms["gaussian"], sg], deltas, steps=100)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "δ" and ax.get_ylabel() == "ε(δ)" and ax.get_xscale() == "log"
    assert ax.get_title() == "RDP → (ε, δ)-DP: conversion bbghs, orders dp-accounting and ∞, 100 steps"
    for mech in (mechanisms["gaussian"], sg):
        c = mech.curve() * 100
        x, y = points(ax, c.label)
        assert x == deltas
        for d, v in zip(deltas, y):
            assert close(v, float(rdpsym.epsilon(c, d, conversion="bbghs", dps=30).epsilon))


def test_conversion_options_reach_rdpsym_epsilon(mechanisms):
    c = mechanisms["laplace"].curve()
    [d] = conversion_data([c], [1e-6, 1e-3], orders="mironov", conversion="mironov")
    for delta, v, order in zip(d.x, d.y, d.orders):
        r = rdpsym.epsilon(c, delta, orders="mironov", conversion="mironov", dps=30)
        assert close(v, float(r.epsilon)) and order == float(r.order)


def test_default_deltas():
    assert DEFAULT_DELTAS[0] == Fraction(1, 10**10) and DEFAULT_DELTAS[-1] == Fraction(1, 10)
    assert len(DEFAULT_DELTAS) == 73 and DEFAULT_DELTAS[1] == Fraction("1.33e-10")  # 8 per decade, 3 digits
    assert all(a < b for a, b in zip(DEFAULT_DELTAS, DEFAULT_DELTAS[1:]))
    [d] = conversion_data([rdpsym.zcdp(rho=sp.Rational(1, 2))])
    assert len(d.x) == 73 and d.x[0] == 1e-10 and d.x[-1] == 0.1
    # zCDP with the BBGHS conversion, minimised over the dp-accounting grid, decreases with δ.
    assert all(a > b for a, b in zip(d.y, d.y[1:]))


def test_exact_gaussian_curve_is_balle_wang_and_below_the_conversion(mechanisms):
    deltas = [1e-10, 1e-6, 1e-3, 1e-1]
    fig = conversion_curves([mechanisms["gaussian"], mechanisms["laplace"]], deltas, steps=4, exact=True)
    ax = fig.axes[0]
    label = "4 × (gaussian(sigma=2, sensitivity=1))"
    assert legend_texts(ax) == [label, f"{label}: exact (Balle–Wang 2018, dotted)",
                                "4 × (laplace(scale=1, sensitivity=1))"]
    [exact] = lines_of(ax, f"{label}: exact")
    assert exact.get_linestyle() == ":" and exact.get_color() == lines_of(ax, label)[0].get_color()
    _, rdp = points(ax, label)
    with mpmath.workdps(40):
        for d, e, bound in zip(exact.get_xdata(), exact.get_ydata(), rdp):
            # 4 Gaussians with σ = 2 are one Gaussian with sensitivity 2 = √4.
            assert close(float(gaussian_delta(e, 2, 2)), d, 1e-9)
            assert e < bound  # the RDP conversion is an upper bound, strictly above the optimum


def test_infinite_conversion_points_are_left_out():
    c = curve(Component("inf", lambda orders: [Infinite("none") for _ in orders]), "inf")
    [d] = conversion_data([c], [1e-5, 1e-3], orders=[2, 3])
    assert d.x == () and [x for x, _ in d.infinite] == [1e-5, 1e-3] and d.note == "ε = ∞ at every δ plotted"
    fig = conversion_curves([c], [1e-5], orders=[2, 3])
    [line] = lines_of(fig.axes[0], "inf")
    assert len(line.get_xdata()) == 0


# --------------------------------------------------------------------------- bad input, before any work


@pytest.mark.parametrize("call, message", [
    (lambda m: budget_curves([]), "curves must be a non-empty list"),
    (lambda m: budget_curves("gaussian"), "curves must be a list of curves or mechanisms"),
    (lambda m: budget_curves([m, 3]), r"curves\[1\] must be an RdpCurve or an object with .curve\(\)"),
    (lambda m: budget_curves([m], orders=[0.5]), r"^orders must be a grid name .* in \(1, ∞\], .*; got 0\.5\.$"),
    (lambda m: budget_curves([m], orders=[2, 2.0]), "orders must be a list without duplicates"),
    (lambda m: budget_curves([m], steps=0), "steps must be an integer >= 1; got 0"),
    (lambda m: budget_curves([m], dps=2), r"dps must be an integer in \[5, 1000\]; got 2"),
    (lambda m: budget_curves([m], ax="left"), "ax must be a matplotlib Axes or None; got str"),
    (lambda m: budget_curves([m], yscale="symlog"), "yscale must be 'linear' or 'log'; got 'symlog'"),
    (lambda m: budget_curves([m], figsize=(7, -1)), r"figsize must be \(width, height\)"),
    (lambda m: conversion_curves([m], [0]), r"delta must be in the open interval \(0, 1\); got 0"),
    (lambda m: conversion_curves([m], [1e-5, 0.00001]), "deltas must be a list without duplicates"),
    # (a float64 axis has no 10⁻⁴⁰⁰: it was drawn nowhere and summed up "at δ = 0")
    (lambda m: conversion_curves([m], ["1e-400", "1e-5"]), r"delta must be in \[2.22507e-308, 1\) to be drawn"),
    (lambda m: conversion_curves([m], []), "deltas must be a non-empty list"),
    (lambda m: conversion_curves([m], conversion="rdp"), "conversion must be one of 'best', 'mironov', 'bbghs'"),
    (lambda m: conversion_curves([m], orders="fast"), r"^orders must be a grid name \(mironov, dp-accounting, "
                                                      r"opacus, continuous\) .*; got 'fast'\.$"),
    (lambda m: conversion_data([m], exact=True), "exact must be used with at least one Gaussian mechanism"),
    (lambda m: conversion_data([m], exact="yes"), "exact must be True or False"),
])
def test_bad_input_is_refused_before_any_curve_is_computed(call, message):
    m = Counting()
    with pytest.raises(ParameterError, match=message):
        call(m)
    assert m.calls == 0


# --------------------------------------------------------------------------- the command


def run_cli(argv):
    """``rdpsym plot ...`` as the console script runs it (exit status 2 and a message on bad input)."""
    return main(argv)


def test_cli_budget_png(tmp_path, capsys):
    out = tmp_path / "curves.png"
    assert run_cli(["plot", "laplace:scale=1", "gaussian:sigma=2", "randomized-response:p=0.75", "--orders",
                    "2,4,8,inf", "--output", str(out), "--dpi", "50"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"wrote {out} (Rényi budget curves, png)"
    lap2, lap8 = float(laplace_prop6(2, 1)), float(laplace_prop6(8, 1))
    assert lines[1] == f"  laplace(scale=1, sensitivity=1): ε(α) ≈ {lap2:.6g} at α = 2 … {lap8:.6g} at α = 8 " \
                       "(3 points); ε(∞) ≈ 1"
    assert lines[2] == "  gaussian(sigma=2, sensitivity=1): ε(α) ≈ 0.25 at α = 2 … 1 at α = 8 (3 points); " \
                       "∞ at 1 order"
    rr2, rr8 = float(rr_prop5(2, 0.75)), float(rr_prop5(8, 0.75))
    assert lines[3] == f"  randomized-response(p=3/4): ε(α) ≈ {rr2:.6g} at α = 2 … {rr8:.6g} at α = 8 " \
                       f"(3 points); ε(∞) ≈ {math.log(3):.6g}"


def test_cli_epsilon_delta_svg_and_pdf(tmp_path, capsys):
    svg = tmp_path / "eps_delta.svg"
    assert run_cli(["plot", "--kind", "epsilon-delta", "sampled-gaussian:q=0.01,sigma=1.1", "--steps", "1000",
                    "--deltas", "1e-6,1e-5", "--output", str(svg)]) == 0
    assert b"<svg" in svg.read_bytes()[:2000]
    out = capsys.readouterr().out.splitlines()
    c = rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=sp.Rational(11, 10)).curve() * 1000
    eps = float(rdpsym.epsilon(c, 1e-5, conversion="bbghs", dps=30).epsilon)  # the plot's default conversion
    assert out[1] == f"  {c.label}: ε(δ) ≈ {float(rdpsym.epsilon(c, 1e-6, conversion='bbghs', dps=30).epsilon):.6g} at δ = 1e-06 … " \
                     f"{eps:.6g} at δ = 1e-05 (2 points)"
    pdf = tmp_path / "gaussian.PDF"
    assert run_cli(["plot", "--kind", "epsilon-delta", "gaussian:sigma=2", "--exact", "--deltas", "1e-4:1e-2",
                    "--conversion", "mironov", "--orders", "mironov", "-o", str(pdf), "--yscale", "log",
                    "--title", "", "--size", "5x3"]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[2].startswith("  gaussian(sigma=2, sensitivity=1): exact: ε(δ) ≈ ")
    assert "(17 points)" in out[2]  # 1e-4 … 1e-2 at 8 per decade


def test_cli_max_order(tmp_path, capsys):
    out = tmp_path / "c.png"
    assert run_cli(["plot", "zcdp:rho=0.5", "--max-order", "8", "-o", str(out), "--dpi", "40"]) == 0
    assert "at α = 1.01 … 4 at α = 8 (" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["gaussian:sigma=1", "-o", "curves.jpg"], "--output must be a file name ending in .png, .pdf or .svg; got "
                                               "'curves.jpg'."),
    (["gaussian:sigma=1", "-o", "no/such/folder/c.png"], "--output must be a file in an existing folder"),
    (["gauss:sigma=1", "-o", "{tmp}/c.png"], "MECHANISM must be one of gaussian, laplace, randomized-response"),
    (["gaussian:sigma=-1", "-o", "{tmp}/c.png"], "'gaussian:sigma=-1': sigma must be positive (sigma > 0); got -1."),
    (["gaussian:sigma=x", "-o", "{tmp}/c.png"], "'gaussian:sigma=x': sigma must be a number"),
    (["gaussian:sig=1", "-o", "{tmp}/c.png"], "a parameter of gaussian must be one of sigma, sensitivity, Delta; got 'sig'"),
    (["gaussian:sigma", "-o", "{tmp}/c.png"], "the parameters of 'gaussian' must be NAME=VALUE pairs"),
    (["laplace:scale=1,,sensitivity=2", "-o", "{tmp}/c.png"], "the parameters of 'laplace' must be NAME=VALUE pairs"),
    (["sampled-gaussian:q=0.01", "-o", "{tmp}/c.png"], "'sampled-gaussian:q=0.01' must be given sigma"),
    (["randomized-response:p=1", "-o", "{tmp}/c.png"], "p must be in the open interval (0, 1); got 1."),
    (["gaussian:sigma=1", "--exact", "-o", "{tmp}/c.png"], "--exact must be used with --kind epsilon-delta only"),
    (["gaussian:sigma=1", "--kind", "epsilon-delta", "--max-order", "8", "-o", "{tmp}/c.png"],
     "--max-order must be used with --kind budget only"),
    (["laplace:scale=1", "--kind", "epsilon-delta", "--exact", "-o", "{tmp}/c.png"],
     "--exact must be used with at least one gaussian:sigma=... curve"),
    (["gaussian:sigma=1", "--orders", "2,3", "--max-order", "8", "-o", "{tmp}/c.png"],
     "--max-order must be used without --orders"),
    (["gaussian:sigma=1", "--max-order", "1", "-o", "{tmp}/c.png"], "--max-order must be a number in (1.01"),
    (["gaussian:sigma=1", "--max-order", "max_order", "-o", "{tmp}/c.png"],  # the value is shown as typed
     "--max-order must be a number (such as 2, 0.5, 1/3, 1e-5 or sqrt(2)/2); got 'max_order' (unknown name "
     "'max_order' at position 1)."),
    (["gaussian:sigma=1", "--kind", "epsilon-delta", "--deltas", "1e-2:1e-4", "-o", "{tmp}/c.png"],
     "--deltas must be LO:HI with 0 < LO < HI < 1"),
    (["gaussian:sigma=1", "--kind", "epsilon-delta", "--deltas", "0.5,2", "-o", "{tmp}/c.png"],
     "delta must be in the open interval (0, 1); got 2."),
    (["gaussian:sigma=1", "--dps", "3", "-o", "{tmp}/c.png"], "--dps must be an integer in [5, 1000]; got 3."),
])
def test_cli_bad_input(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)  # a relative --output would land in tmp_path too: the last check sees it
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert run_cli(["plot", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rdpsym: error: ") and message in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("argv, message", [
    (["--steps", "0"], "--steps must be a positive integer; got '0'"),
    (["--size", "7"], "--size must be WIDTHxHEIGHT in inches"),
    (["--dpi", "5"], "--dpi must be an integer in [10, 2000]"),
    (["--kind", "delta"], "invalid choice: 'delta'"),
])
def test_cli_bad_option_values_are_argparse_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        run_cli(["plot", "gaussian:sigma=1", "-o", "c.png", *argv])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_parse_spec():
    assert parse_spec("sampled-gaussian:q=0.01,sigma=1.1") == ("sampled-gaussian", ["q=0.01", "sigma=1.1"])
    assert parse_spec("pure-dp:epsilon=1") == ("pure-dp", ["epsilon=1"])
    with pytest.raises(ParameterError, match="MECHANISM must be one of"):
        parse_spec("Gaussian:sigma=1")


def test_the_rdpsym_command_writes_every_format_and_refuses_others(tmp_path, capsys):
    png = tmp_path / "c.png"
    assert run_cli(["plot", "pure-dp:epsilon=1", "--orders", "2,3", "-o", str(png), "--dpi", "30"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG") and "wrote" in capsys.readouterr().out
    assert run_cli(["plot", "pure-dp:epsilon=-1", "-o", str(png)]) == 2
    assert "epsilon must be a finite number >= 0" in capsys.readouterr().err
    out = tmp_path / "c.svg"
    assert run_cli(["plot", "gaussian:sigma=2", "--orders", "2,4", "-o", str(out)]) == 0
    assert b"<svg" in out.read_bytes()[:2000]
    assert run_cli(["plot", "gaussian:sigma=1", "-o", str(tmp_path / "c.gif")]) == 2
    assert "--output must be a file name ending in .png, .pdf or .svg" in capsys.readouterr().err


# --------------------------------------------------------------------------- α = ∞ in ε(δ), points, legends


def test_pure_dp_conversion_curves_never_rise_above_d_infinity():
    # Regression: the default orders left out α = ∞: a 1-DP Laplace was drawn at ε(1e-10) = 1.01408, and
    # 10-fold randomized response (p = 3/4, conversion mironov) at 11.0013 > 10 log 3, basic composition.
    [lap] = conversion_data([rdpsym.laplace(scale=1)])
    assert max(lap.y) == lap.y[0] == 1.0 and lap.orders[0] == math.inf
    rr = rdpsym.randomized_response(p=sp.Rational(3, 4))
    for conversion in ("mironov", "bbghs"):
        [d] = conversion_data([rr], steps=10, conversion=conversion)
        assert max(d.y) <= 10 * math.log(3) * (1 + 1e-15) and d.orders[0] == math.inf
    # A named grid is the peer's, exactly: no ∞ in it.
    [peer] = conversion_data([rdpsym.laplace(scale=1)], [1e-10], orders="dp-accounting")
    assert peer.orders == (1024,) and close(peer.y[0], 1.0140784054589957, 1e-12)


def test_cli_epsilon_delta_of_pure_dp_is_at_most_its_epsilon(tmp_path, capsys):
    out = tmp_path / "lap.png"
    assert run_cli(["plot", "laplace:scale=1", "--kind", "epsilon-delta", "-o", str(out), "--dpi", "30"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith(
        "  laplace(scale=1, sensitivity=1): ε(δ) ≈ 1 at δ = 1e-10 … ")
    assert run_cli(["plot", "randomized-response:p=3/4", "--steps", "10", "--kind", "epsilon-delta",
                    "--conversion", "mironov", "-o", str(out), "--dpi", "30"]) == 0
    assert f"ε(δ) ≈ {10 * math.log(3):.6g} at δ = 1e-10" in capsys.readouterr().out


def rendered(fig):
    """The figure as an RGBA array (rows from the top), drawn by Agg."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())


def ink_near(fig, ax, x, y, colour, radius=4):
    """Pixels of ``colour`` within ``radius`` pixels of the data point (x, y)."""
    from matplotlib.colors import to_rgba_array

    image = rendered(fig)
    px, py = ax.transData.transform((x, y))
    row, col = int(round(image.shape[0] - py)), int(round(px))
    window = image[row - radius:row + radius + 1, col - radius:col + radius + 1, :3].astype(int)
    want = (to_rgba_array(colour)[0, :3] * 255).astype(int)
    return int(np.sum(np.all(np.abs(window - want) <= 40, axis=-1)))


def test_a_single_finite_point_is_drawn_as_a_marker(tmp_path, capsys):
    # Regression: a curve with one finite order drew an empty line (no marker): blank axes with a legend.
    fig = budget_curves([rdpsym.gaussian(sigma=1)], orders=[2, "inf"])
    ax = fig.axes[0]
    [line] = lines_of(ax, "gaussian(sigma=1, sensitivity=1)")
    assert list(line.get_xdata()) == [2] and line.get_marker() == "o"
    assert ink_near(fig, ax, 2, 1, line.get_color()) > 10
    assert legend_texts(ax) == ["gaussian(sigma=1, sensitivity=1) (ε(∞) = ∞)"]
    out = tmp_path / "y.png"
    assert run_cli(["plot", "gaussian:sigma=1", "--orders", "2,inf", "-o", str(out), "--dpi", "30"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == \
        "  gaussian(sigma=1, sensitivity=1): ε(α) ≈ 1 at α = 2 (1 point); ∞ at 1 order"


def test_an_isolated_point_between_gaps_is_a_marker_and_the_legend_is_on_a_line():
    # The made-up curve is ∞ on (3, 5): on the orders 2, 4, 6, 8 the point at 2 has no finite neighbour.
    fig = budget_curves({"made up": gappy_curve()}, orders=[2, 4, 6, 8])
    ax = fig.axes[0]
    alone, run = lines_of(ax, "made up")
    assert list(alone.get_xdata()) == [2] and alone.get_marker() == "o" and alone.get_linestyle() == "None"
    assert list(run.get_xdata()) == [6, 8] and run.get_linestyle() == "-"
    assert [alone.get_label(), run.get_label()] == ["_nolegend_", "made up (∞ at α = 4; ε(∞) = 0.5, dashed)"]
    assert alone.get_color() == run.get_color() and ink_near(fig, ax, 2, 2, alone.get_color()) > 10


def covered(fig, ax):
    """The drawn points of every line (sampled along each segment in display space) inside the legend."""
    fig.draw_without_rendering()
    box = ax.get_legend().get_window_extent()
    hits = []
    for line in ax.get_lines():
        xy = line.get_transform().transform(np.column_stack([line.get_xdata(), line.get_ydata()]).astype(float))
        if len(xy) == 0:
            continue
        dense = [xy[0]] + [p + t * (q - p) for p, q in zip(xy, xy[1:]) for t in np.linspace(0, 1, 30)[1:]]
        hits += [(line.get_gid(), tuple(p)) for p in dense if box.contains(*p)]
    return hits


def test_the_legend_hides_no_data():
    # Regression: the README's ε(δ) figure had its legend over the σ = 2 curves between δ ≈ 1e-6 and 1e-3.
    fig = conversion_curves([rdpsym.gaussian(sigma=1), rdpsym.gaussian(sigma=2)], exact=True,
                            title="RDP → (ε, δ)-DP (bbghs, dp-accounting orders) vs the exact Gaussian ε(δ)")
    ax = fig.axes[0]
    assert covered(fig, ax) == []
    legend = ax.get_legend().get_window_extent()
    assert legend.y1 < ax.get_window_extent().y0  # there was no room inside: below the axes
    assert legend.y1 < min(t.get_window_extent().y0 for t in ax.get_xticklabels() if t.get_text())
    fig.savefig(__import__("io").BytesIO(), format="png")
    # Where there is room, the legend stays inside the axes (matplotlib's best spot).
    fig = budget_curves([rdpsym.laplace(scale=1), rdpsym.randomized_response(p=sp.Rational(731, 1000)),
                         rdpsym.gaussian(sigma=2)], orders=default_orders(32))
    ax = fig.axes[0]
    assert covered(fig, ax) == [] and ax.get_window_extent().contains(*ax.get_legend().get_window_extent().p0)


def test_duplicate_parameters_are_refused(tmp_path, capsys):
    # Regression: gaussian:sigma=1,sigma=2 plotted σ = 2 without a word.
    assert run_cli(["plot", "gaussian:sigma=1,sigma=2", "-o", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == ("rdpsym: error: the parameter sigma of 'gaussian:sigma=1,sigma=2' must be "
                                       "given once; got 2 values (1, 2).\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind, names", [("budget", "mironov, dp-accounting, opacus"),
                                         ("epsilon-delta", "mironov, dp-accounting, opacus, continuous")])
def test_a_bad_order_names_the_option(tmp_path, capsys, kind, names):
    # Regression: "order must be a number > 1 (α = 1 is KL: use the core's renyi_divergence); got 0.5."
    out = tmp_path / "z.png"
    assert run_cli(["plot", "gaussian:sigma=1", "--kind", kind, "--orders", "0.5,2", "-o", str(out)]) == 2
    assert capsys.readouterr().err == (f"rdpsym: error: --orders must be a grid name ({names}) or a non-empty list of "
                                       "rational orders in (1, ∞], each at most 10^1000 or inf, such as 1.5,2,inf; "
                                       "got 0.5.\n")
    assert list(tmp_path.iterdir()) == []


def test_a_figure_too_large_to_draw_is_refused_before_any_work(tmp_path, capsys):
    """A probe: --size 30x30 --dpi 2000 (each allowed on its own) is a 60 000² image, 14 GB of RGBA; it was accepted
    and ended in a MemoryError traceback.  Their product is bounded, named, before any work."""
    out = tmp_path / "big.png"
    assert main(["plot", "gaussian:sigma=1", "--output", str(out), "--size", "30x30", "--dpi", "2000"]) == 2
    assert "--size and --dpi" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("sigma, first, last", [("1e-1000", "5.05000e+1999", "1.60000e+2001"),
                                                ("1e1000", "5.05000e-2001", "1.60000e-1999")])
def test_values_no_float_holds_are_written_out_not_said_as_inf_or_zero(tmp_path, capsys, sigma, first, last):
    """A probe: `rdpsym plot gaussian:sigma=1e-1000` summed up ε(α) = α/(2σ²) = 5·10¹⁹⁹⁹ as "≈ inf", and σ = 10¹⁰⁰⁰'s
    5·10⁻²⁰⁰¹ as "≈ 0": finite values said as ∞ with no reason.  They are written out and said not drawn."""
    assert main(["plot", f"gaussian:sigma={sigma}", "--max-order", "32", "--output", str(tmp_path / "p.png")]) == 0
    out = capsys.readouterr().out
    assert f"ε(α) = {first} at α = 1.01 … {last} at α = 32, beyond a float's range: not drawn" in out, out
    assert "inf" not in out and "≈ 0" not in out
    (d,) = budget_data([rdpsym.gaussian(sigma=sp.Integer(10) ** int(sigma[2:]))], orders=[2, "inf"])
    assert d.x == () and d.beyond[0][0] == 2.0 and d.asymptote is None


@pytest.mark.parametrize("kind", ["budget", "epsilon-delta"])
def test_a_huge_step_count_is_a_short_label_and_a_drawn_plot(tmp_path, capsys, kind):
    """A probe: ``rdpsym plot ... --steps 1e100`` labelled its curve with all 101 digits of the count, the legend was
    as wide, and matplotlib collapsed the axes ("constrained_layout not applied", an error under this suite's
    warnings filter): the count is now 1e100 in a label."""
    out = tmp_path / "huge.png"
    assert run_cli(["plot", "--kind", kind, "gaussian:sigma=1", "--steps", "1e100", "--output", str(out),
                    "--dpi", "40"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "  1e100 × (gaussian(sigma=1, sensitivity=1))" in capsys.readouterr().out


def test_a_delta_range_is_drawn_at_points_across_all_of_it(tmp_path, capsys):
    """A review: --deltas LO:HI kept only the default grid's points (10⁻¹⁰ … 10⁻¹) inside the range, and added its
    ends: 1e-300:1e-1 drew one segment across 290 decades (ε ≈ 21.7 at δ = 10⁻¹⁵⁰ on it, where rdpsym's value is 26.6),
    and 1e-12:1e-11 was two points."""
    from rdpsym.cli.plot import _deltas

    wide = [float(d) for d in _deltas("1e-300:1e-1")]
    assert wide[0] == 1e-300 and wide[-1] == 0.1 and max(b / a for a, b in zip(wide, wide[1:])) < 10
    assert len(_deltas("1e-12:1e-11")) == 9  # 8 per decade, both ends
    out = tmp_path / "d.png"
    assert main(["plot", "--kind", "epsilon-delta", "gaussian:sigma=1", "--deltas", "1e-300:1e-1", "--output",
                 str(out)]) == 0
    assert "(400 points)" in capsys.readouterr().out


def test_values_a_plot_cannot_hold_are_said_and_not_drawn():
    """A review: ε(δ) of σ = 10⁻¹⁷⁰ (5.5·10³³⁹, certified) became float inf, drawn as nothing with a plain legend;
    values near a float's largest (σ = 10⁻¹⁵⁴) overflowed matplotlib's autoscale and left every curve off the axes;
    an ε of 10⁻³²² was drawn 1.2 % off as a subnormal."""
    [rdp, exact] = conversion_data([rdpsym.gaussian(sigma=sp.Rational(1, 10**170))], deltas=[1e-6, 1e-5], exact=True)
    assert rdp.y == () and len(rdp.beyond) == 2 and "beyond a float's range at 2 δ" in rdp.note
    assert exact.y == () and len(exact.beyond) == 2 and "beyond a float's range" in exact.legend
    gauss, lap = budget_data([rdpsym.gaussian(sigma=sp.Rational(1, 10**154)), rdpsym.laplace(scale=1)],
                             orders=[2, 3, 4, 8])
    assert all(y <= 1e300 for y in gauss.y) and gauss.beyond and len(lap.y) == 4
    fig = budget_curves([rdpsym.gaussian(sigma=sp.Rational(1, 10**154)), rdpsym.laplace(scale=1)], orders=[2, 3, 4, 8])
    low, high = fig.axes[0].get_ylim()
    assert low <= min(lap.y) and max(lap.y) <= high  # the Laplace curve is on the axes
    [tiny] = budget_data([rdpsym.gaussian(sigma=10**161)], orders=[2, 3])
    assert tiny.y == () and len(tiny.beyond) == 2


def test_a_conversion_plot_draws_what_rdpsym_epsilon_says():
    """A review: with conversion="best" the plot's curve was wrapped so that no Gaussian was recognised, and drew
    4.7285 at δ = 10⁻⁵ where rdpsym.epsilon says 4.3772 (Balle–Wang's exact curve)."""
    g = rdpsym.gaussian(sigma=1)
    [d] = conversion_data([g], deltas=[1e-5, 0.1], conversion="best")
    assert d.y == tuple(float(rdpsym.epsilon(g.curve(), delta=x, conversion="best").value) for x in (1e-5, 0.1))
    assert d.orders == (None, None)  # no order: the exact (ε, δ) curve


def test_orders_a_budget_plot_cannot_draw_are_refused_by_name():
    """A review: --orders inf ended in matplotlib's "Data cannot be log-scaled"; --orders 2,1e400 in a raw
    OverflowError."""
    with pytest.raises(ParameterError, match="at least one finite order to draw"):
        budget_data([rdpsym.laplace(scale=1)], orders="inf")
    with pytest.raises(ParameterError, match=r"orders a float holds \(up to 1.8e308\)"):
        budget_data([rdpsym.laplace(scale=1)], orders="2,1e400")
