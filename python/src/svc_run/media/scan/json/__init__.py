"""Positioned JSON text: tokenizing, string literals, pointers."""
