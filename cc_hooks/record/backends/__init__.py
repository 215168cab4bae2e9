"""Dashboard backends: one module per backend, named after it (``Dashboard: <name> <locator>``).

A module defines ``Backend(root: Path, locator: str)`` implementing
``cc_hooks.record.dashboard.Backend`` (read, queue, update, close); the package is
the registry (``cc_hooks.record.dashboard.available_backends``), so adding a backend
is adding a module. Modules starting with ``_`` are shared helpers, not backends:
``_tracker`` (the last good read, the time budget, the markdown state) and ``_http``
(the one HTTPS client) for trackers; a tracker subclasses ``_tracker.TrackerBackend``
and implements ``client``, ``fetch``, ``write_state``, ``open_item`` and ``close_item``.
"""
