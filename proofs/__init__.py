"""The built-in catalogue of claims: the paper's statements, and those of its seeds, as executable claims.

One module per statement (``rdpsym check`` loads them all, ``rdpsym check PATH`` a
part): ``mironov2017`` (Mironov 2017, Rényi Differential Privacy), ``seeds`` (the
lecture slides, lecture deck and notes that came with it) and ``beyond`` (results
users expect beyond the paper).  ``CATALOGUE.md`` lists every claim with its
expected status.  Modules named ``_*`` are the folders' private helpers, not claim
files; the helpers any claim author may use are public in :mod:`rdpsym.claims.finite`.
"""
