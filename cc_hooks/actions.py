"""What a scaffolding command did to which file (``init``, the queue migration), and how it writes one:
shared by both so that neither imports the other."""

from __future__ import annotations


class Action:
    """One line of the report: what happened to which path."""

    __slots__ = ("status", "path", "detail", "ignored", "more")

    def __init__(self, status: str, path: str, detail: str = "", ignored: bool = False, more: tuple = ()):
        self.status, self.path, self.detail, self.ignored, self.more = status, path, detail, ignored, tuple(more)

    def __str__(self) -> str:
        from cc_hooks.printable import printable

        head = f"{self.status:<8} {self.path}" + (f"  ({self.detail})" if self.detail else "")
        return "\n".join([head, *(f"         {printable(line)}" for line in self.more)])

    def __repr__(self) -> str:
        return f"Action({self.status!r}, {self.path!r}, {self.detail!r})"


def write_text(path, text: str, rel: str | None = None) -> None:
    """Atomically; an OSError names the file, not the temporary one beside it."""
    from cc_hooks.fsutil import atomic_write_bytes

    try:
        atomic_write_bytes(path, text.encode("utf-8", errors="surrogateescape"))
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, rel or str(path)) from exc
