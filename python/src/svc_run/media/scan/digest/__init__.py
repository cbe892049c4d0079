"""Digests of base64 text, UTF-8 text and file sources, read slice by slice."""
