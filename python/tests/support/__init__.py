"""Test support: the reference server, fixtures and file helpers."""
