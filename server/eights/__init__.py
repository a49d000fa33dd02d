"""Eights: a private Crazy Eights table for two people on two devices."""

__version__ = "0.1.0"
