"""The ``rfd`` command: parses arguments, calls one function, returns an exit code."""
