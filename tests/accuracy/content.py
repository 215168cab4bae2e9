"""File contents for the corpus repositories: plausible code with stable line numbers."""

from __future__ import annotations

from typing import Callable


def pymodule(doc: str, functions: list[tuple[str, str, int]], imports: str = "") -> str:
    """A Python module: one ``def`` per (name, args, body length), each with a docstring."""
    lines = [f'"""{doc}"""', ""]
    if imports:
        lines += imports.splitlines() + [""]
    for name, args, length in functions:
        lines += ["", f"def {name}({args}):", f"    '''{name.replace('_', ' ').strip()}.'''"]
        for i in range(length):
            lines.append(f"    step_{i} = _step('{name}', {i})")
        lines.append(f"    return step_{length - 1}" if length else "    return None")
        lines.append("")
    return "\n".join(lines) + "\n"


def jsmodule(doc: str, functions: list[tuple[str, str, int]]) -> str:
    lines = [f"// {doc}", "'use strict';", ""]
    for name, args, length in functions:
        lines += [f"function {name}({args}) {{"]
        for i in range(length):
            lines.append(f"  const step{i} = step('{name}', {i});")
        lines += [f"  return step{max(length - 1, 0)};", "}", ""]
    names = ", ".join(name for name, _, _ in functions)
    lines.append(f"module.exports = {{ {names} }};")
    return "\n".join(lines) + "\n"


def page(title: str, paragraphs: int, words: str = "lorem ipsum dolor sit amet") -> str:
    body = [f"# {title}", ""]
    for i in range(paragraphs):
        body += [f"{title} paragraph {i + 1}: {words}.", ""]
    return "\n".join(body)


def sub(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    """An edit: replace ``old`` (which must be there) by ``new``."""

    def edit(text: str) -> str:
        if old not in text:
            raise ValueError(f"edit: {old!r} not found")
        return text.replace(old, new, count)

    return edit


def append(extra: str) -> Callable[[str], str]:
    return lambda text: text + extra


def chain(*edits: Callable[[str], str]) -> Callable[[str], str]:
    def edit(text: str) -> str:
        for one in edits:
            text = one(text)
        return text

    return edit


def ledger(*entries: tuple[str, str, str]) -> str:
    """A DECISIONS.md with (date, title, decision) entries in the methodology's format."""
    text = ["# Decision Ledger", ""]
    for date, title, decision in entries:
        text += [
            f"## {date} — {title}",
            f"**Decision**: {decision}",
            "**Context**: raised while working on the queue.",
            "**Rejected alternatives**:",
            "- leave it as is — rejected because it kept coming back",
            "**Consequences**: the docs say so.",
            "",
        ]
    return "\n".join(text)
