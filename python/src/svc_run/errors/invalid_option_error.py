"""The error of an invalid option."""

from __future__ import annotations


class InvalidOptionError(TypeError, ValueError):
    """An option (of a constructor or a call) breaks its rule.

    The spec says invalid options throw ``TypeError``; Python code expects ``ValueError`` for a value
    of the right type that breaks a rule. This class is both, so either ``except`` clause catches
    it. The message names the option, the value (never a key's) and the rule.
    """
