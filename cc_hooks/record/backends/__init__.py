"""Dashboard backends: one module per backend, named after it (``Dashboard: <name> <locator>``).

A module defines ``Backend(root: Path, locator: str)`` implementing
``cc_hooks.record.dashboard.Backend`` (read, queue, update, close).
"""
