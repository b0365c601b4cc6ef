"""Claims of Mironov 2017, *Rényi Differential Privacy* (arXiv:1702.07476): one module per statement."""
