"""Claims beyond the paper: conversions and the sampled Gaussian, as users of RDP expect them."""
