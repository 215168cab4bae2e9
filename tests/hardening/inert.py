"""What "inert" means for text that reaches the model or a terminal, as assertions shared by the
hostile-text tests: no invisible or control character, and repository text only inside inline code
spans it cannot close."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Optional

from cc_hooks.printable import invisible

_RUN_RE = re.compile(r"`+")


def outside_code_spans(line: str) -> str:
    """``line`` with every inline code span removed, as CommonMark reads it: a run of n backticks
    opens a span that the next run of exactly n backticks closes; an unmatched run is literal."""
    runs = list(_RUN_RE.finditer(line))
    kept, pos, index = [], 0, 0
    while index < len(runs):
        opener = runs[index]
        closer = next((j for j in range(index + 1, len(runs)) if len(runs[j].group()) == len(opener.group())), None)
        if closer is None:
            index += 1
            continue
        kept.append(line[pos:opener.start()])
        pos, index = runs[closer].end(), closer + 1
    kept.append(line[pos:])
    return "".join(kept)


def hidden_characters(text: str, layout: bool = True) -> list[str]:
    """The characters of ``text`` that must never reach the model or a terminal."""
    allowed = "\n\t" if layout else ""
    found = [f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in text if c not in allowed and invisible(c)]
    if "\x1b" in text:
        found.append("ESC")
    return found


def assert_inert(text: str, markers: tuple[str, ...], layout: bool = True) -> None:
    """No hidden character in ``text``, and none of ``markers`` (pieces of a hostile payload)
    outside a code span on any line."""
    assert not hidden_characters(text, layout), (hidden_characters(text, layout), text[:2000])
    for line in text.splitlines():
        free = outside_code_spans(line)
        for marker in markers:
            assert marker not in free, (marker, line)


def entry_point() -> list[str]:
    """The installed console script (what settings.json runs), else the module."""
    script = Path(sys.executable).with_name("cc-hooks")
    if script.exists():
        return [str(script)]
    found = shutil.which("cc-hooks")
    return [found] if found else [sys.executable, "-m", "cc_hooks"]


def run(args: list[str], cwd: Path, stdin: Optional[bytes] = None, env: Optional[dict] = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(entry_point() + args, cwd=cwd, input=stdin, capture_output=True,
                          env={**os.environ, **(env or {})}, timeout=timeout)
