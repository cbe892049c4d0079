"""The connection check: ``GET /api/v1/projects/current``."""
