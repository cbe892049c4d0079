"""Programs the tests run as child processes (fork, interpreter exit, memory)."""
