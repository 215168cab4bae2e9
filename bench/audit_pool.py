"""Every question the audit would mine on real projects, uncapped, as a labeling template.

    python bench/audit_pool.py --clones /work/audit-data aio-libs+aiohttp encode+starlette > pool.tsv

One line per mined ``oddity`` or ``stale`` question: ``project<TAB>where<TAB>?<TAB>text``, ``where``
as ``bench/audit_precision.py`` reads it (``path:line``, or ``stale:path:line``). A labeler replaces
``?`` by ``meaningful`` or ``noise`` and the text by the reason. The cap on oddities is lifted
(``MAX_SCANNED``), so a later, stricter ranking stays inside the labeled pool.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from audit_precision import mined, source_of  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clones", required=True, type=Path, action="append")
    parser.add_argument("projects", nargs="+")
    args = parser.parse_args(argv)
    from cc_hooks.audit import questions

    questions.MAX_ODDITIES = questions.MAX_SCANNED
    defaults = list(questions.scan_oddities.__defaults__)
    defaults[-1] = questions.MAX_SCANNED
    questions.scan_oddities.__defaults__ = tuple(defaults)
    for project in args.projects:
        source = source_of(project, args.clones)
        if source is None:
            print(f"{project}: no clone", file=sys.stderr)
            continue
        for kind, where, copies, text in mined(source):
            flat = " ".join(text.split())
            extra = f" [copies: {', '.join(copies)}]" if copies else ""
            print(f"{project}\t{where}\t?\t{kind}: {flat}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
