"""The package version, and the instrumentation scope the client's own spans and logs carry."""

SDK_VERSION = "0.2.3"
"""The version of the ``svc-run`` distribution."""

SDK_SCOPE = "svc-run"
"""The instrumentation scope name of the spans and log records the client's helpers create."""
