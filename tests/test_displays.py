"""Displays that fit (issue 27): short reprs in a REPL, typeset displays in Jupyter.

``repr()`` of an accounting result printed 34 000 characters (every order at 50 digits with its enclosure), of a
calibration 77 000: now one line with the answer, its order, conversion and certification; the full records
stay behind their fields and ``str()``.
"""

from __future__ import annotations

import pytest
import sympy as sp

import rdpsym

LINE = 200


@pytest.fixture(scope="session")
def records():
    m = rdpsym.gaussian(sigma=2)
    c = m.curve() * 4
    return {
        "mechanism": m,
        "curve": c,
        "subsampled": rdpsym.sampled_gaussian(q=sp.Rational(1, 100), sigma=1).curve(),
        "derivation": rdpsym.renyi_divergence(*m.pair, rdpsym.alpha),
        "epsilon": rdpsym.epsilon(c, delta=1e-5),
        "delta": rdpsym.delta(c, epsilon=1),
        "bbghs": rdpsym.epsilon(c, delta=1e-5, conversion="bbghs", dps=30),
        "calibration": rdpsym.calibrate("gaussian", epsilon=1, delta=1e-5, dps=15),
        "verification": rdpsym.verify(m, orders=[2], rdp=[0.25]),
    }


@pytest.mark.parametrize("name", ["mechanism", "curve", "subsampled", "derivation", "epsilon", "delta", "bbghs",
                                  "calibration", "verification"])
def test_every_repr_is_one_short_line(records, name):
    text = repr(records[name])
    assert len(text) <= LINE and "\n" not in text, (len(text), text[:300])


def test_a_result_says_its_answer_order_conversion_and_certification(records):
    text = repr(records["bbghs"])
    assert text.startswith("AccountingResult(epsilon ≤ 4.7285070672") and "order " in text
    assert "conversion 'bbghs'" in text and "certified" in text
    assert len(records["bbghs"].per_order) > 100  # the table is still there, behind its attribute
    assert "balle-wang" in repr(records["epsilon"]) and "order" not in repr(records["epsilon"])


def test_a_calibration_and_a_derivation_say_what_they_found(records):
    assert repr(records["calibration"]).startswith("Calibration(sigma = 3.7306")
    assert repr(records["derivation"]) == "Derivation(D_alpha = alpha/8, status 'checked', 7 steps)" \
        or repr(records["derivation"]).startswith("Derivation(D_alpha = alpha/8, status 'proved'")


def test_curves_and_mechanisms_typeset_in_jupyter(records):
    assert records["curve"]._repr_markdown_() == (r"**RDP curve** 4 × (gaussian(sigma=2, sensitivity=1)): "
                                                  r"$\varepsilon(\alpha) = \frac{\alpha}{2}$")
    assert "no closed form" in records["subsampled"]._repr_markdown_()
    shown = records["mechanism"]._repr_markdown_()
    assert shown.startswith("**gaussian**") and r"$\sigma = 2$" in shown and r"\mathrm{sensitivity}" in shown
    assert "\\begin{align*}" in records["derivation"]._repr_latex_()


def test_table2_markdown_is_a_table_for_a_gfm_parser():
    """Notebook 02's Table II was plain text in nbconvert's HTML: the randomized response's D_∞ = |log(p/(1−p))|
    put bare pipes in a cell.  Parsed by markdown-it's GFM tables (the rule GitHub and Jupyter's renderers
    share): one header, three mechanisms, every entry one whole cell with its math and its status."""
    from markdown_it import MarkdownIt

    from rdpsym.derive.table2 import table2

    tokens = MarkdownIt("commonmark").enable("table").parse(rdpsym.table2_markdown(table2()))
    rows, row = [], None
    for t in tokens:
        if t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content)
        elif t.type == "tr_close":
            rows.append(row)
            row = None
    assert len(rows) == 4 and all(len(r) == 4 for r in rows), rows
    for r in rows[1:]:
        for entry in r[1:]:
            assert entry.count("$") == 2 and entry.endswith(")"), entry  # whole: its math, then its status
    assert any(r"\left\vert" in entry for r in rows for entry in r)


def test_table2_markdown_is_a_table_in_nbconvert_s_html():
    """The issue's own check: nbconvert's HTML of notebook 02's Table II (its Markdown renderer, mistune) is a
    table of four rows and twelve cells; with the bare pipes it was no table at all."""
    filters = pytest.importorskip("nbconvert.filters.markdown_mistune")
    from rdpsym.derive.table2 import table2

    markdown = rdpsym.table2_markdown(table2())
    html = filters.markdown2html_mistune(markdown)
    assert html.count("<table") == 1 and html.count("<tr>") == 4 and html.count("<td") == 12
    assert filters.markdown2html_mistune(markdown.replace(r"\vert ", "|")).count("<table") == 0  # the old cells
