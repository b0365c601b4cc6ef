"""Claims of the seeds: the lecture slides (000), lecture deck (001), paper (002) and notes (003, 004)."""
