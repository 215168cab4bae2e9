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


def write_text(root, rel: str, text: str) -> None:
    """Write the work tree's file ``rel`` atomically, through no symlink (``fsutil.write_repo_bytes``:
    RefusedFile, one line naming the path and the link, otherwise); any other OSError names the
    file, not the temporary one beside it."""
    import os

    from cc_hooks.fsutil import RefusedFile, write_repo_bytes

    try:
        write_repo_bytes(root, os.path.join(root, rel), text.encode("utf-8", errors="surrogateescape"))
    except RefusedFile:
        raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, rel) from exc
