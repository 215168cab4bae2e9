"""Heading anchors of reStructuredText and AsciiDoc files, resolved as markdown's are.

A pointer ``docs/contributing.rst#release-process`` names a section the way Sphinx and
GitHub name it; ``guide.adoc#_release_process`` the way Asciidoctor does (``_`` prefix,
``_`` separator) and ``guide.adoc#release-process`` the way people often write it. Each
format's explicit targets count too (``.. _name:`` in reST, ``[[id]]``/``[#id]`` in AsciiDoc).
"""

from __future__ import annotations

import re
import unicodedata

RST_SUFFIXES = (".rst", ".rest")
ASCIIDOC_SUFFIXES = (".adoc", ".asciidoc", ".asc")
_RST_ADORNMENT_RE = re.compile(r"""^([=\-~^"'`#*+:.<>_!$%&,;?@\\|/])\1{2,}\s*$""")
_RST_TARGET_RE = re.compile(r"^\.\.\s+_([^:`]+|`[^`]+`):\s*$")
_ADOC_HEADING_RE = re.compile(r"^(={1,6}|#{1,6})\s+(\S.*?)\s*=*\s*$")
_ADOC_ID_RE = re.compile(r"^\[\[([^\],]+)(?:,[^\]]*)?\]\]\s*$|^\[#([\w.:-]+)[^\]]*\]\s*$|anchor:([\w.:-]+)\[")


def docutils_id(title: str) -> str:
    """docutils' ``make_id``: ASCII, lowercase, runs of anything else to one hyphen, no leading digits or hyphens."""
    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return re.sub(r"^[-0-9]+", "", text)


def _comparable(anchor: str) -> str:
    return re.sub(r"[-_\s]+", "-", anchor.lower()).strip("-")


def rst_anchors(text: str) -> list[str]:
    lines = text.splitlines()
    anchors = []
    for i, line in enumerate(lines):
        target = _RST_TARGET_RE.match(line)
        if target:
            anchors.append(docutils_id(target.group(1).strip("`")))
            continue
        if i + 1 < len(lines) and line.strip() and not _RST_ADORNMENT_RE.match(line) and _RST_ADORNMENT_RE.match(lines[i + 1]):
            if len(lines[i + 1].rstrip()) >= len(line.rstrip()) or len(lines[i + 1].strip()) >= 3:
                anchors.append(docutils_id(line.strip()))
    return [a for a in anchors if a]


def asciidoc_anchors(text: str) -> list[str]:
    anchors = []
    for line in text.splitlines():
        heading = _ADOC_HEADING_RE.match(line)
        if heading:
            title = re.sub(r"[^\w\s-]", "", heading.group(2).lower())
            anchors.append("_" + re.sub(r"[\s-]+", "_", title).strip("_"))
        for match in _ADOC_ID_RE.finditer(line):
            anchors.append(next(g for g in match.groups() if g))
    return anchors


def supported(path: str) -> bool:
    return path.lower().endswith(RST_SUFFIXES + ASCIIDOC_SUFFIXES)


def anchors_of(path: str, text: str) -> list[str]:
    return rst_anchors(text) if path.lower().endswith(RST_SUFFIXES) else asciidoc_anchors(text)


def resolves(path: str, text: str, anchor: str) -> tuple[bool, list[str]]:
    """(whether ``anchor`` names a section or target of the file, the file's anchors)."""
    anchors = anchors_of(path, text)
    wanted = _comparable(anchor)
    return any(_comparable(a) == wanted for a in anchors), anchors
