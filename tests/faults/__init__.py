"""Fault tests: real server processes and Redis servers, killed and restarted."""
