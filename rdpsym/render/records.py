"""Every record's LaTeX, text and Markdown, provided to the records' ``str``/``latex``/Jupyter methods.

Records live below this layer and cannot import it; they call the operations
of :mod:`rdpsym.foundations.operations`, and this module provides them (when
:mod:`rdpsym.render` is imported, as ``import rdpsym`` does).  One
``singledispatch`` function per output format, and one table of what renders
each record type: a new record type is one row of it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rdpsym.accounting.api import AccountingResult
from rdpsym.accounting.calibrate import Calibration
from rdpsym.claims.claim import ClaimResult
from rdpsym.claims.runner import Report
from rdpsym.derive.derivation import Derivation
from rdpsym.foundations import operations
from rdpsym.foundations.record import Citation, Evidence, Rule
from rdpsym.peers.audit import AuditReport
from rdpsym.peers.verification import Verification
from rdpsym.render.accounting import result_json, result_latex, result_markdown, result_text
from rdpsym.render.calibration import calibration_json, calibration_text
from rdpsym.render.claims import claim_result_markdown, claim_result_text, report_json, report_markdown, report_text
from rdpsym.render.derivation import derivation_latex, derivation_markdown, derivation_text
from rdpsym.render.peers import audit_json, audit_text, verification_json, verification_text
from rdpsym.render.reasons import citation_text, evidence_latex, evidence_text, rule_latex, rule_text

__all__ = ["json", "latex", "markdown", "text"]


def _format(name: str, doc: str) -> Callable[..., Any]:
    """A dispatcher for one output format: each record type registers its renderer below."""

    @functools.singledispatch
    def render(record: object):
        raise TypeError(f"no {name} rendering for {type(record).__name__}")

    render.__doc__ = doc
    return render


latex = _format("LaTeX", "A record as LaTeX (math mode, or an environment such as ``align*``).")
text = _format("text", "A record as plain text for a terminal.")
markdown = _format("Markdown", "A record as Markdown with ``$...$`` math, for Jupyter.")
json = _format("JSON", "A record as JSON-ready data (dicts, lists, strings, numbers).")

#: Each record type, with its renderer in each format it has.
_RENDERERS = {
    Derivation: {latex: derivation_latex, text: derivation_text, markdown: derivation_markdown},
    Rule: {latex: rule_latex, text: rule_text},
    Evidence: {latex: evidence_latex, text: evidence_text},
    Citation: {text: citation_text},
    ClaimResult: {text: claim_result_text, markdown: claim_result_markdown},
    Report: {text: report_text, markdown: report_markdown, json: report_json},
    AccountingResult: {text: result_text, latex: result_latex, markdown: result_markdown, json: result_json},
    AuditReport: {text: audit_text, json: audit_json},
    Verification: {text: verification_text, json: verification_json},
    Calibration: {text: calibration_text, json: calibration_json},
}
for _type, _by_format in _RENDERERS.items():
    for _dispatcher, _renderer in _by_format.items():
        _dispatcher.register(_type, _renderer)

operations.latex.provide(latex)
operations.text.provide(text)
operations.markdown.provide(markdown)
operations.json.provide(json)
