"""One handler per hook event. Each module defines ``handle(ctx) -> HookResult | None``
and ``on_timeout(ctx) -> HookResult | None``; it may define ``quick(payload, cwd)``,
run before pydantic is imported, returning a result to short-circuit or None."""
