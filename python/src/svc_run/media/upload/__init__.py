"""Uploads of the files records list: reserve → PUT → complete, in the background (internal)."""
