"""Client options: their rules, defaults and the one place they are validated."""
