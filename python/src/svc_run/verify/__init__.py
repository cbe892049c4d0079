"""Trace verification: polling the trace receipt."""
