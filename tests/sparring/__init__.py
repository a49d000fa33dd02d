"""Sparring partners written from the rules only, to measure the project's own bot levels."""
