"""The tracing client: spans and logs with the service's conventions."""
