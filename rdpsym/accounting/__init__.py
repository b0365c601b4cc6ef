"""Accounting: RDP curves, composition and conversions, computed in certified balls."""
