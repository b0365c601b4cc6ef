"""Every record's LaTeX, text and Markdown, provided to the records' ``str``/``latex``/Jupyter methods.

Records live below this layer and cannot import it; they call the operations
of :mod:`rdpsym.foundations.operations`, and this module provides them (when
:mod:`rdpsym.render` is imported, as ``import rdpsym`` does).  One
``singledispatch`` table per output format: a new record type is one line in
each.
"""

from __future__ import annotations

import functools

from rdpsym.accounting.api import AccountingResult
from rdpsym.accounting.audit import AuditReport
from rdpsym.claims.claim import ClaimResult
from rdpsym.claims.runner import Report
from rdpsym.derive.derivation import Derivation
from rdpsym.foundations import operations
from rdpsym.foundations.record import Citation, Evidence, Rule
from rdpsym.render.accounting import audit_json, audit_text, result_json, result_latex, result_markdown, result_text
from rdpsym.render.claims import claim_result_markdown, claim_result_text, report_json, report_markdown, report_text
from rdpsym.render.derivation import derivation_latex, derivation_markdown, derivation_text
from rdpsym.render.reasons import citation_text, evidence_latex, evidence_text, rule_latex, rule_text

__all__ = ["json", "latex", "markdown", "text"]


@functools.singledispatch
def latex(record: object) -> str:
    """A record as LaTeX (math mode, or an environment such as ``align*``)."""
    raise TypeError(f"no LaTeX rendering for {type(record).__name__}")


@functools.singledispatch
def text(record: object) -> str:
    """A record as plain text for a terminal."""
    raise TypeError(f"no text rendering for {type(record).__name__}")


@functools.singledispatch
def markdown(record: object) -> str:
    """A record as Markdown with ``$...$`` math, for Jupyter."""
    raise TypeError(f"no Markdown rendering for {type(record).__name__}")


@functools.singledispatch
def json(record: object) -> dict:
    """A record as JSON-ready data."""
    raise TypeError(f"no JSON rendering for {type(record).__name__}")


latex.register(Derivation, derivation_latex)
latex.register(Rule, rule_latex)
latex.register(Evidence, evidence_latex)
text.register(Derivation, derivation_text)
text.register(Rule, rule_text)
text.register(Evidence, evidence_text)
text.register(Citation, citation_text)
markdown.register(Derivation, derivation_markdown)
text.register(ClaimResult, claim_result_text)
markdown.register(ClaimResult, claim_result_markdown)
text.register(Report, report_text)
markdown.register(Report, report_markdown)
json.register(Report, report_json)
text.register(AccountingResult, result_text)
latex.register(AccountingResult, result_latex)
markdown.register(AccountingResult, result_markdown)
json.register(AccountingResult, result_json)
text.register(AuditReport, audit_text)
json.register(AuditReport, audit_json)

operations.latex.provide(latex)
operations.text.provide(text)
operations.markdown.provide(markdown)
operations.json.provide(json)
