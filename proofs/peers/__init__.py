"""The atlas of the peers' formulas: every closed form a peer accountant hard-codes, as a claim.

One file per peer (the version read is in its docstring).  Each claim names the peer's function
(``file::function``, the branch), writes its formula as the peer computes it, and gives rdpsym's verdict
from the mechanism's densities: proved equal, checked, a bound that holds, or refuted with a
counterexample -- *unsafe* when the peer is below the truth.  The transcriptions (``PEER_FORMULAS`` in each
file) are compared with the installed peers by ``tests/test_peer_atlas.py``.
"""
