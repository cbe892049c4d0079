"""The export path: span and log processors, bounded queues, OTLP/HTTP, and one account of it."""
