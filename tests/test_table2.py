"""Mironov 2017, Table II: every cell derived, proved, and equal to the paper's entry.

The expected entries are written out below from the paper (arXiv:1702.07476v3,
Table II and Propositions 5-7), independently of ``rdpsym.references``, and
each derived cell is compared with them by a symbolic check written here:
equal moments E_Q[(P/Q)^α] = exp((α−1)·D_α) for α > 1 (log is injective and
α − 1 > 0), ``expand_log``/``simplify`` of the difference for α = 1, and the
argument of ``Abs`` up to sign for D_∞.
"""

from __future__ import annotations

import functools
import re

import mpmath
import pytest
import sympy as sp

import rdpsym
import rdpsym.laws.mechanisms
from rdpsym.cli.main import main
from rdpsym.derive.table2 import table2

# The symbols Table II is stated in (SymPy symbols are equal by name and assumptions).
p = sp.Symbol("p", positive=True)
lam = sp.Symbol("lambda", positive=True)
sigma = sp.Symbol("sigma", positive=True)
a = sp.Symbol("alpha", positive=True)
beta = sp.Symbol("beta", positive=True)  # a = 1 + beta encodes the hypothesis a > 1

RR, LAPLACE, GAUSSIAN = "Randomized response", "Laplace", "Gaussian"
GT1, EQ1, INF = "α > 1", "α = 1", "α = ∞"
ORDER_OF = {GT1: a, EQ1: sp.S.One, INF: sp.oo}

#: Table II as printed in the paper.
PAPER = {
    (RR, GT1): sp.log(p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1),
    (RR, EQ1): (2 * p - 1) * sp.log(p / (1 - p)),
    (RR, INF): sp.Abs(sp.log(p / (1 - p))),
    (LAPLACE, GT1): sp.log(
        a / (2 * a - 1) * sp.exp((a - 1) / lam) + (a - 1) / (2 * a - 1) * sp.exp(-a / lam)
    )
    / (a - 1),
    (LAPLACE, EQ1): 1 / lam + sp.exp(-1 / lam) - 1,
    (LAPLACE, INF): 1 / lam,
    (GAUSSIAN, GT1): a / (2 * sigma**2),
    (GAUSSIAN, EQ1): 1 / (2 * sigma**2),
    (GAUSSIAN, INF): sp.oo,
}
CELLS = list(PAPER)


def _is_zero(expr: sp.Expr) -> bool:
    """Symbolic zero test under a > 1 (via a = 1 + beta); True only when shown."""
    e = expr.subs(a, 1 + beta)
    for rewrite in (
        sp.expand,
        lambda u: sp.expand(sp.expand_log(sp.powsimp(sp.expand(u), force=True), force=True)),
        lambda u: sp.simplify(sp.expand_log(u, force=True)),
        sp.simplify,
    ):
        if rewrite(e) == 0:
            return True
    return False


def _log_args_equal_up_to_sign(u: sp.Expr, v: sp.Expr) -> bool:
    return _is_zero(sp.expand_log(u - v, force=True)) or _is_zero(sp.expand_log(u + v, force=True))


def equals_paper(derived: sp.Expr, cell: tuple[str, str]) -> bool:
    """Whether ``derived`` is exactly the paper's entry for ``cell``."""
    paper = PAPER[cell]
    _, order_label = cell
    if paper == sp.oo or derived == sp.oo:
        return derived == paper
    if not isinstance(derived, sp.Expr) or derived.has(sp.Piecewise):
        return False
    if order_label == GT1:
        # exp((α−1)·D) is the moment; equal moments <=> equal divergences for α > 1.
        derived_moment = sp.exp(sp.expand((a - 1) * derived))
        paper_moment = sp.exp(sp.expand((a - 1) * paper))
        return _is_zero(derived_moment - paper_moment)
    if order_label == INF and isinstance(paper, sp.Abs):
        return isinstance(derived, sp.Abs) and _log_args_equal_up_to_sign(derived.args[0], paper.args[0])
    return _is_zero(derived - paper)


# ---------------------------------------------------------------- self-checks of the checker


def test_checker_rejects_wrong_entries():
    """The comparison used below can fail: near misses of each kind are rejected."""
    assert not equals_paper(a / sigma**2, (GAUSSIAN, GT1))
    assert not equals_paper(sp.log(a / (2 * a - 1) * sp.exp((a - 1) / lam)) / (a - 1), (LAPLACE, GT1))
    assert not equals_paper(1 / lam + sp.exp(-1 / lam), (LAPLACE, EQ1))
    assert not equals_paper(sp.Abs(sp.log(p)), (RR, INF))
    assert not equals_paper(sp.log(p / (1 - p)), (RR, INF))
    assert not equals_paper(sp.oo, (LAPLACE, INF))
    assert not equals_paper(sp.S(5), (GAUSSIAN, INF))
    assert equals_paper(sp.Abs(sp.log((1 - p) / p)), (RR, INF))
    assert equals_paper((2 * p - 1) * (sp.log(p) - sp.log(1 - p)), (RR, EQ1))


# ---------------------------------------------------------------- via table2()


@pytest.fixture(scope="module")
def table():
    return {(c.mechanism, c.order_label): c for c in table2()}


def test_table2_has_exactly_the_nine_cells(table):
    assert len(table) == 9
    assert set(table) == set(CELLS)


@pytest.mark.parametrize("cell", CELLS, ids=[f"{m}-{o}" for m, o in CELLS])
def test_table2_cell_is_proved_and_equals_paper(table, cell):
    d = table[cell].derivation
    assert d.status == "proved"
    assert d.status is rdpsym.Status.PROVED
    assert d.order == ORDER_OF[cell[1]]
    assert equals_paper(d.result, cell), f"{cell}: derived {d.result}, paper {PAPER[cell]}"


# ---------------------------------------------------------------- via the mechanism factories


@functools.cache
def _mechanism_cell(cell: tuple[str, str]):
    mechanism, order_label = cell
    mech = {
        RR: lambda: rdpsym.randomized_response(p),
        LAPLACE: lambda: rdpsym.laplace(scale=lam),
        GAUSSIAN: lambda: rdpsym.gaussian(sigma=sigma),
    }[mechanism]()
    return mech.rdp(ORDER_OF[order_label])


def test_markdown_table_has_the_papers_layout_and_every_cells_status(table):
    from rdpsym.render.documents import table2_markdown
    from rdpsym.render.latex import paper_latex

    lines = table2_markdown(list(table.values())).splitlines()
    assert lines[0] == "| mechanism | α > 1 | α = 1 | α = ∞ |" and len(lines) == 5
    assert [ln.split(" | ")[0] for ln in lines[2:]] == ["| Randomized response", "| Laplace", "| Gaussian"]
    gaussian = lines[4].split(" | ")[1:]
    assert gaussian[0] == f"${paper_latex(table['Gaussian', 'α > 1'].derivation.result)}$ (proved)"
    assert gaussian[2] == "$\\infty$ (proved) |"


def test_the_gaussian_constant_is_typeset_from_its_exact_square(table, monkeypatch):
    # 1/√(2π) prints as the papers print it, read from 1/c² itself: nsimplify (PSLQ, 20 ms a product printed)
    # made the nine cells' LaTeX 0.7 s, and was the test suite's largest single cost in printing.
    from rdpsym.render.latex import paper_latex

    asked = []
    monkeypatch.setattr(sp, "nsimplify", lambda *a, **k: asked.append(a) or sp.S.One)
    x, s = sp.Symbol("x", real=True), sp.Symbol("sigma", positive=True)
    assert paper_latex(sp.exp(-x**2 / (2 * s**2)) / (sp.sqrt(2 * sp.pi) * s)).startswith(
        r"\frac{1}{\sqrt{2 \pi}\, \sigma}")
    assert paper_latex(3 * x / sp.sqrt(8 * sp.pi)) == r"\frac{x}{\sqrt{\frac{8 \pi}{9}}}"
    assert paper_latex(x / sp.pi).replace(" ", "") == r"\frac{x}{\pi}"  # a c = 1/π: no square root of kπ
    for cell in table.values():
        cell.derivation.latex()
    assert not asked


@pytest.mark.parametrize("cell", CELLS, ids=[f"{m}-{o}" for m, o in CELLS])
def test_mechanism_rdp_is_proved_and_equals_paper(cell):
    d = _mechanism_cell(cell)
    assert d.status == "proved"
    assert equals_paper(d.result, cell), f"{cell}: derived {d.result}, paper {PAPER[cell]}"


def test_mechanism_factories_are_exported_at_top_level():
    """rdpsym.gaussian(...).rdp() is the documented spelling (Mechanism.rdp docstring, README)."""
    for name in ("gaussian", "laplace", "randomized_response"):
        assert getattr(rdpsym, name) is getattr(rdpsym.laws.mechanisms, name)


def test_sensitivity_rescales_laplace_to_lambda_over_delta():
    """Prop 6 is stated for λ = scale/Δ: scale 3, Δ = 2 is Table II's row at λ = 3/2."""
    d = rdpsym.laws.mechanisms.laplace(scale=3, sensitivity=2).rdp(1)
    assert d.status == "proved"
    assert _is_zero(d.result - PAPER[(LAPLACE, EQ1)].subs(lam, sp.Rational(3, 2)))


# ---------------------------------------------------------------- the command line

_ROW = re.compile(r"^(Randomized response|Laplace|Gaussian)\s+(α > 1|α = 1|α = ∞):\s+(.+)$")


def test_cli_table2_prints_nine_proved_cells(capsys):
    assert main(["table2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    rows = [(i, _ROW.match(line)) for i, line in enumerate(lines)]
    rows = [(i, m) for i, m in rows if m]
    assert len(rows) == 9
    assert {(m.group(1), m.group(2)) for _, m in rows} == set(CELLS)
    names = {"p": p, "lam": lam, "sigma": sigma, "alpha": a, "oo": sp.oo}
    for i, m in rows:
        cell = (m.group(1), m.group(2))
        assert "status: proved" in lines[i + 1], lines[i + 1]
        shown = sp.parse_expr(m.group(3).replace("lambda", "lam"), local_dict=names)
        assert equals_paper(shown, cell), f"{cell}: printed {m.group(3)}"
    assert "9/9 cells proved" in out


def test_cli_derive_prints_the_value_to_the_requested_digits(capsys):
    rc = main(["derive", "laplace", "--order", "2", "--set", "scale=1/2", "--dps", "40"])
    assert rc == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith("D_2(P||Q) = ")
    assert "status: proved" in out[1]
    assert "(40 digits)" in out[-2]
    printed = out[-1].strip()
    # Prop 6 at λ = 1/2, α = 2: D_2 = log(2/3·e^{2} + 1/3·e^{−4}), computed here at 60 digits.
    with mpmath.workdps(60):
        expected = mpmath.log(mpmath.mpf(2) / 3 * mpmath.e**2 + mpmath.exp(-4) / 3)
        assert len(re.sub(r"\D", "", printed).lstrip("0")) == 40
        assert abs(mpmath.mpf(printed) - expected) <= mpmath.mpf(10) ** -39 * expected
    assert printed == mpmath.nstr(expected, 40)
