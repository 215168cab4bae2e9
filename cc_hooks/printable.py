"""Text that is safe to print to Claude or a terminal: the one sanitizer of cc-hooks.

Everything cc-hooks prints can carry text from the repository, a transcript or
the harness summary. ``printable`` removes escape sequences (CSI, OSC, 8-bit
forms) and then every character that is invisible or controls layout, decided
by Unicode category rather than by a list: Cc (controls), Cf (format: bidi
overrides, zero-width joiners, U+00AD, U+061C, U+180E, U+2060-2064, the tag
characters U+E0000-E007F that can smuggle a hidden ASCII instruction), Co
(private use), Cs (lone surrogates), Cn (unassigned), Zl/Zp (U+2028/2029,
which some renderers show as line breaks). Some invisible characters have a
visible category and are named deliberately: the variation selectors and other
default-ignorable marks (Mn) and the Hangul fillers (Lo). Other spaces (Zs,
e.g. U+2003) become a plain space. ``\\n`` and ``\\t`` are kept where the channel
allows layout.

``clean`` is the one-line form and ``quote`` puts text in an inline code span
that nothing inside can close: repository and summary text reaches the model
only that way. Standard library only: this runs on the hook path.
"""

from __future__ import annotations

import re

_ESCAPE_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI (colours, cursor moves, clear screen)
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC (window title, hyperlinks)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # the 8-bit CSI
    r"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\)?"  # the 8-bit OSC
    r"|\x1b.?",  # any other escape
    re.DOTALL,
)
_ASCII_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SEPARATING_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # on one line, a control separates words
REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# Invisible although their category is not one of the above (Unicode's Default_Ignorable_Code_Point
# outside Cf/Cn, and the fillers that render as nothing).
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner (Mn)
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers (Lo)
    (0x17B4, 0x17B5),  # Khmer inherent vowels (Mn)
    (0x180B, 0x180F),  # Mongolian free variation selectors (Mn) and vowel separator
    (0x3164, 0x3164),  # Hangul filler (Lo)
    (0xFE00, 0xFE0F),  # variation selectors (Mn)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler (Lo)
    (0xE0100, 0xE01EF),  # variation selectors supplement (Mn)
)


def invisible(char: str) -> bool:
    """True for a character that must not reach Claude or a terminal (``\\n`` and ``\\t`` included:
    whether layout is allowed is the caller's choice)."""
    import unicodedata

    code = ord(char)
    if unicodedata.category(char) in REMOVED_CATEGORIES:
        return True
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


class _Table(dict):
    """``str.translate`` table computed on first use of each code point (most text repeats few)."""

    def __missing__(self, code: int):
        import unicodedata

        char = chr(code)
        if char in "\n\t":
            value = code
        elif invisible(char):
            value = None
        elif unicodedata.category(char) == "Zs":
            value = " "
        else:
            value = code
        self[code] = value
        return value


_TABLE = _Table()


def printable(text: str) -> str:
    """``text`` without escape sequences and invisible or control characters; ``\\n`` and ``\\t`` kept."""
    text = _ESCAPE_RE.sub("", str(text))
    if text.isascii():
        return _ASCII_CONTROL_RE.sub("", text)
    return text.translate(_TABLE)


def clean(text: str) -> str:
    """``printable`` on one line: every run of whitespace or controls (newlines included) is one space."""
    return " ".join(printable(_SEPARATING_CONTROL_RE.sub(" ", _ESCAPE_RE.sub(" ", str(text)))).split())


def quote(text: str, limit: int = 300) -> str:
    """``text`` as an inline code span that nothing inside can close (its fence is longer than
    any backtick run in it), on one line, at most about ``limit`` characters."""
    text = clean(text)
    if len(text) > limit:
        text = text[: max(1, limit - 1)] + "…"
    if not text:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"
