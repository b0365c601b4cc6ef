"""Foundations: what every layer above stands on, and nothing of rdpsym's mathematics itself.

``errors`` (the one error hierarchy), ``symbols`` (the order α), ``arithmetic``
and ``reading`` (the one reader of user input: text is parsed, never
evaluated), ``budget`` (time budgets for open-ended SymPy calls; below it
``budget_clocks`` (what a budget counts), ``budget_blocks`` (where a ``with``
block is, read from the bytecode), ``budget_protected`` (where a timeout never
lands) and ``budget_watchdog`` (the thread that raises timeouts)), ``balls``
(Arb balls: certified evaluation, rounding up and down), ``numbers`` (a value
and an enclosure that print at the digits asked for, and pickle), ``precision`` (the one
precision ladder), ``record`` and ``notation`` (the one record of mathematics:
steps, and below ``record`` its parts ``statuses``, ``citations``, ``rules`` and
``evidence``), ``operations`` (what records offer and a higher layer provides).
"""

from rdpsym._lazy import submodules_on_first_use

__getattr__ = submodules_on_first_use(__name__, __path__)  # rdpsym/_lazy.py
