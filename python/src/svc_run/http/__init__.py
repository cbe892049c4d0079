"""HTTP to the service: one urllib3 connection pool per client, untraced, capped reads."""
