"""The published sources the record cites: a :class:`Citation` and the sources rdpsym's rules name by default.

Mironov 2017 (its Definition 3 is the definition every derivation starts from),
van Erven and Harremoës 2014, Gil, Alajaji and Linder 2013.  A rule
(:mod:`rdpsym.foundations.rules`) or a law's declaration cites one of these, or
its own ``Citation("…", "Proposition 6", "arXiv:…")``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    """A published source: ``Citation("Mironov 2017", "Proposition 6", "arXiv:1702.07476v3")``."""

    source: str
    item: str = ""
    locator: str = ""  # arXiv id with version, DOI or URL

    def at(self, item: str) -> Citation:
        """The same source at another item."""
        return Citation(self.source, item, self.locator)


#: Mironov, "Rényi Differential Privacy", IEEE CSF 2017, arXiv:1702.07476v3.
MIRONOV_2017 = Citation("Mironov 2017", "", "arXiv:1702.07476v3")


#: Definition 3 of Mironov 2017: the Rényi divergence and its limits α → 1 and α → ∞.
DEFINITION_3 = MIRONOV_2017.at("Definition 3")


#: van Erven, Harremoës, "Rényi Divergence and Kullback–Leibler Divergence", IEEE Trans. Inf. Theory 60(7), 2014,
#: arXiv:1206.2459v2: Theorem 28, D_α(P₁×P₂‖Q₁×Q₂) = D_α(P₁‖Q₁) + D_α(P₂‖Q₂) at every order α ∈ [0, ∞].
VAN_ERVEN_HARREMOES_2014 = Citation("van Erven, Harremoës 2014", "Theorem 28", "arXiv:1206.2459v2")


# (Bound a second time, as record.py always did: this later value is the one every rule and importer sees.)
#: van Erven & Harremoës, "Rényi Divergence and Kullback-Leibler Divergence", IEEE Trans. Inf. Theory 60 (2014).
VAN_ERVEN_HARREMOES_2014 = Citation("van Erven & Harremoës 2014", "data-processing inequality", "arXiv:1206.2459")


#: Gil, Alajaji, Linder, "Rényi divergence measures for commonly used univariate continuous distributions",
#: Information Sciences 249 (2013) 124–131: the multivariate Gaussian entry, with Σ_α = αΣ₂ + (1−α)Σ₁.
GIL_ALAJAJI_LINDER_2013 = Citation("Gil, Alajaji, Linder 2013", "the multivariate Gaussian",
                                   "Information Sciences 249")
