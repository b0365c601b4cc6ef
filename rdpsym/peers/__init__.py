"""Peers: read other privacy accountants' objects into rdpsym, and check their answers.

The field's accountants (dp_accounting, Opacus, autodp, prv_accountant)
compute in float64 from hand-typed formulas.  This layer speaks their
languages and holds them to certified values:

* ``events`` — :func:`from_dp_event`: dp_accounting's ``DpEvent`` vocabulary
  and ledgers into an :class:`~rdpsym.accounting.curve.RdpCurve`;
* ``opacus`` — :func:`from_opacus` (an accountant's history) and
  :class:`OpacusAccountant`, an Opacus accountant whose ε is certified
  (``register_with_opacus()`` makes ``PrivacyEngine(accountant="rdpsym")``
  use it);
* ``autodp`` — :func:`from_autodp`: autodp's mechanism-zoo objects whose
  parameters they keep;
* ``verify`` — :func:`verify`: what a peer was told and what it answered,
  order by order, with the error's direction and cause;
* ``audit`` — grids of inputs swept through an installed peer, every
  disagreement grouped by cause, and each peer's catalogue of known defects.

A peer's objects are read by class name and public fields: no peer is
imported at ``import rdpsym`` (nor by these modules, except where a function
is asked to run the peer itself: the audits, and registering with Opacus).
This layer sits beside the claims, above accounting and below render.
"""

from rdpsym._lazy import submodules_on_first_use

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
