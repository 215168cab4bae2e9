"""Text that is safe to print to Claude or a terminal.

Everything cc-hooks prints can carry text from the repository, a transcript or
the harness summary. ANSI/OSC escape sequences, C0/C1 control characters, bidi
overrides and zero-width characters are removed from it; newlines and tabs,
which are layout, stay. Standard library only: this runs on the hook path.
"""

from __future__ import annotations

import re

_UNPRINTABLE_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI (colours, cursor moves, clear screen)
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC (window title, hyperlinks)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # the 8-bit CSI
    r"|\x1b.?"  # any other escape
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]"
)


def printable(text: str) -> str:
    """``text`` without escape sequences and control characters; ``\\n`` and ``\\t`` kept."""
    return _UNPRINTABLE_RE.sub("", text)
