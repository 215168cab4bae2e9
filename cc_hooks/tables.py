"""Tables for the CLI: a rich table on a terminal, plain unwrapped lines anywhere else.

Into a pipe or a file (or with ``--plain``) a table is one line per row, cells separated by two
spaces, nothing wrapped, cut or styled: ``grep`` and ``diff`` see whole paths and whole commands.
A cell's extra lines (a check's findings) follow its row, indented.

On a terminal the table fits the terminal's width: the columns a verb marks as droppable go first
(lowest ``keep`` first), then the ones with a ``max_width`` are abbreviated with an ellipsis;
only the one ``wrap`` column folds its text. Cells are quoted repository text: the caller passes
them through ``printable``; here they are never read as markup.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, TextIO, Union

Cell = Union[str, tuple]  # text, or (text, rich style)


@dataclass
class Column:
    name: str
    keep: int = 100  # drop order when the terminal is too narrow: lowest first; 100 is never dropped
    max_width: Optional[int] = None  # abbreviated beyond this on a terminal
    wrap: bool = False  # the one column that takes the remaining width and folds
    justify: str = "left"
    ellipsis_start: bool = False  # abbreviate by keeping the end ("…/very/long/path.md")
    short: Optional[Callable[[str], str]] = None  # the cell as a terminal shows it (plain shows it whole)


def add_plain_argument(parser) -> None:
    parser.add_argument("--plain", action="store_true",
                        help="plain, unwrapped text even on a terminal (the default when stdout is not a terminal)")


def is_plain(plain: Optional[bool] = None, stream: Optional[TextIO] = None) -> bool:
    if plain:
        return True
    stream = stream or sys.stdout
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return True


def text_of(cell: Cell) -> str:
    return cell[0] if isinstance(cell, tuple) else cell


def style_of(cell: Cell) -> Optional[str]:
    return cell[1] if isinstance(cell, tuple) else None


def print_table(title: str, columns: Sequence[Column], rows: Sequence[Sequence[Cell]], plain: Optional[bool] = None,
                footer: str = "", stream: Optional[TextIO] = None, width: Optional[int] = None) -> None:
    stream = stream or sys.stdout
    if is_plain(plain, stream):
        stream.write(render_plain(title, columns, rows, footer))
        stream.flush()
        return
    _print_rich(title, columns, rows, footer, stream, width)


def render_plain(title: str, columns: Sequence[Column], rows: Sequence[Sequence[Cell]], footer: str = "") -> str:
    """The whole table as plain lines: a title, a header, a row per line. Columns up to the first
    folding one are aligned; the folding one ends the line; later columns, and a cell's extra lines
    (a check's findings), follow the row indented (``    fix: ...``)."""
    cut = next((i + 1 for i, c in enumerate(columns) if c.wrap), len(columns))
    inline, after = list(columns[:cut]), list(columns[cut:])
    heads = [c.name for c in inline]
    firsts = [[text_of(cell).split("\n", 1)[0] for cell in row[:cut]] for row in rows]
    widths = [max([len(heads[i])] + [len(r[i]) for r in firsts]) for i in range(len(inline))]
    out = [title] if title else []

    def line(cells: list[str]) -> str:
        padded = [cell.rjust(widths[i]) if inline[i].justify == "right" else cell.ljust(widths[i])
                  for i, cell in enumerate(cells[:-1])]
        return "  ".join([*padded, cells[-1]]).rstrip()

    out.append(line(heads))
    for row, first in zip(rows, firsts):
        out.append(line(first))
        for cell in row[:cut]:
            out += [f"    {extra.strip()}" for extra in text_of(cell).split("\n")[1:] if extra.strip()]
        for column, cell in zip(after, row[cut:]):
            text = " ".join(text_of(cell).split())
            if text:
                out.append(f"    {column.name}: {text}")
    if footer:
        out.append(footer)
    return "\n".join(out) + "\n"


def fit(columns: Sequence[Column], rows: Sequence[Sequence[Cell]], width: int) -> list[int]:
    """Indices of the columns shown in ``width`` characters: drop by ``keep`` until they fit."""
    rows = [[_terminal_text(columns[i], cell) for i, cell in enumerate(row)] for row in rows]
    natural = []
    for i, column in enumerate(columns):
        longest = max([len(column.name)] + [len(line) for row in rows for line in text_of(row[i]).split("\n")])
        if column.max_width:
            longest = min(longest, max(column.max_width, len(column.name)))
        if column.wrap:
            longest = min(longest, 20)  # a folding column needs only some room
        natural.append(longest)
    shown = list(range(len(columns)))

    def needed(indices: list[int]) -> int:
        return sum(natural[i] for i in indices) + 3 * len(indices) + 1  # rich's borders and padding

    for i in sorted(shown, key=lambda i: columns[i].keep):
        if needed(shown) <= width or columns[i].keep >= 100:
            break
        shown.remove(i)
    return shown


def _print_rich(title, columns, rows, footer, stream, width) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream, width=width) if width else Console(file=stream)
    shown = fit(columns, rows, console.width)
    table = Table(title=title or None, show_lines=False)
    for i in shown:
        column = columns[i]
        if column.wrap:
            table.add_column(column.name, overflow="fold", justify=column.justify, ratio=1)
        else:
            table.add_column(column.name, no_wrap=True, overflow="ellipsis", max_width=column.max_width,
                             justify=column.justify)
    for row in rows:
        cells = []
        for i in shown:
            column = columns[i]
            text = _terminal_text(column, row[i])
            if column.ellipsis_start and column.max_width and len(text) > column.max_width:
                text = "…" + text[-(column.max_width - 1):]
            cells.append(Text(text, style=style_of(row[i]) or ""))
        table.add_row(*cells)
    console.print(table)
    if len(shown) < len(columns):
        dropped = ", ".join(columns[i].name for i in range(len(columns)) if i not in shown)
        console.print(Text(f"(not shown at this width: {dropped}; --plain or a pipe shows every column)", style="dim"))
    if footer:
        console.print(Text(footer))


def _terminal_text(column: Column, cell: Cell) -> str:
    text = text_of(cell)
    return column.short(text) if column.short else text
