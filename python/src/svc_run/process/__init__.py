"""Processes and threads: carrying the current span into thread pools."""
