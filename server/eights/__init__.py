"""Eights: a private Crazy Eights table for friends, each on their own device; five tables
dealt by one rules engine."""

__version__ = "0.1.0"
