"""The optional ``commit-msg`` git hook: warn when a fix commit has no ``Symptom:`` trailer.

The hook is a small POSIX sh script (no Python on the commit path) that asks
``git interpret-trailers --parse`` for the trailers. It warns on stderr and lets
the commit through; installed with ``strict`` it rejects instead. An existing
hook is never overwritten: it is moved aside to ``commit-msg.local`` and run
first, and its failure is the hook's failure. ``core.hooksPath`` is respected.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cc_hooks.config import load_config
from cc_hooks.fsutil import atomic_write_text
from cc_hooks.git import hooks_path

HOOK_NAME = "commit-msg"
CHAINED_NAME = "commit-msg.local"
MARKER = "# cc-hooks commit-msg hook"

_SCRIPT = """#!/bin/sh
{marker} (written by `cc-hooks install --git-hooks`; edit .cc-hooks.toml, not this file)
# Warns when a fix commit carries no `Symptom:` trailer.{strict_note}
# A hook that was here before lives in commit-msg.local and runs first.
FIX_PATTERN={pattern}
SYMPTOMS_PATH={symptoms}
STRICT={strict}
TOUCHING_SYMPTOMS_IS_FIX={touching}

local_hook="$(dirname "$0")/{chained}"
if [ -x "$local_hook" ]; then
    "$local_hook" "$@" || exit $?
fi

msg="$1"
subject=$(grep -v '^#' "$msg" | grep -v '^[[:space:]]*$' | head -n 1)
is_fix=0
if printf '%s\\n' "$subject" | grep -Eiq -e "$FIX_PATTERN"; then
    is_fix=1
elif [ "$TOUCHING_SYMPTOMS_IS_FIX" = 1 ] && ! git diff --cached --quiet -- "$SYMPTOMS_PATH" 2>/dev/null; then
    is_fix=1
fi
[ "$is_fix" = 1 ] || exit 0
if git interpret-trailers --parse "$msg" | grep -iq '^symptom:[[:space:]]*[^[:space:]]'; then
    exit 0
fi
echo "cc-hooks: fix commit without a 'Symptom:' trailer: $subject" >&2
echo "cc-hooks: add 'Symptom: <what was observed, as someone would search for it>' as the message's last paragraph" >&2
if [ "$STRICT" = 1 ]; then
    echo "cc-hooks: commit rejected (strict mode; bypass once with --no-verify)" >&2
    exit 1
fi
exit 0
"""

# Python-only regex syntax that POSIX ERE cannot express.
_UNTRANSLATABLE = re.compile(r"\(\?|[*+?}]\?|\\[AZzGpP]")
_ERE_CLASSES = {r"\s": "[[:space:]]", r"\S": "[^[:space:]]", r"\d": "[0-9]", r"\D": "[^0-9]", r"\w": "[[:alnum:]_]", r"\W": "[^[:alnum:]_]"}


class HookError(Exception):
    """The hook cannot be installed; the message says why."""


def python_regex_to_ere(pattern: str) -> str:
    """Translate the fix-subject regex for ``grep -E``; HookError if it cannot be."""
    if _UNTRANSLATABLE.search(pattern):
        raise HookError(f"fix_subject_pattern {pattern!r} uses Python-only regex syntax; use POSIX ERE")
    return re.sub(r"\\[sSdDwW]", lambda m: _ERE_CLASSES[m.group(0)], pattern)


def _sh_quote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def hook_script(pattern: str, symptoms_path: str, touching_symptoms_is_fix: bool, strict: bool) -> str:
    return _SCRIPT.format(
        marker=MARKER,
        strict_note=" Strict: rejects such a commit." if strict else "",
        pattern=_sh_quote(python_regex_to_ere(pattern)),
        symptoms=_sh_quote(symptoms_path),
        strict=1 if strict else 0,
        touching=1 if touching_symptoms_is_fix else 0,
        chained=CHAINED_NAME,
    )


def hooks_dir(repo_root: Path) -> Path:
    """Where git looks for hooks (``core.hooksPath`` or ``.git/hooks``).

    A ``core.hooksPath`` from the repository's own config that leads outside the repository is
    refused: a repository received as an archive could otherwise have ``install --git-hooks``
    write (and move aside) a ``commit-msg`` anywhere the user can write. The user's own
    global or system setting is theirs to point anywhere."""
    rel = hooks_path(repo_root)
    directory = (Path(repo_root) / rel).resolve() if not os.path.isabs(rel) else Path(rel).resolve()
    if not _inside(directory, _repository_dirs(Path(repo_root))) and _set_by_the_repository(Path(repo_root)):
        raise HookError(f"the repository's own core.hooksPath leads outside it ({directory}); not installing there "
                        "(set core.hooksPath in your global config, or unset it in this repository)")
    return directory


def _repository_dirs(root: Path) -> list[Path]:
    from cc_hooks.git import run_git

    common = run_git(root, "rev-parse", "--path-format=absolute", "--git-common-dir", check=False).strip()
    dirs = [root.resolve()]
    if common:
        dirs.append(Path(common).resolve())
    return dirs


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def _set_by_the_repository(root: Path) -> bool:
    """``core.hooksPath`` comes from the repository's local or worktree config (or a file they include)."""
    from cc_hooks.git import run_git

    out = run_git(root, "config", "--show-scope", "--get-all", "core.hooksPath", check=False)
    scopes = [line.split("\t", 1)[0] for line in out.splitlines() if line.strip()]
    return bool(scopes) and scopes[-1] in ("local", "worktree", "command")


def is_ours(path: Path) -> bool:
    from cc_hooks.fsutil import RefusedFile, read_repo_bytes

    try:
        return MARKER.encode() in read_repo_bytes(path, limit=256 * 1024)
    except (RefusedFile, OSError):
        return False


def install_commit_msg_hook(repo_root: Path, strict: bool = False) -> str:
    """Install or refresh the hook; returns "installed", "updated" or "unchanged"."""
    config = load_config(repo_root)
    script = hook_script(
        config.trailers.fix_subject_pattern, config.record.symptoms, config.trailers.touching_symptoms_is_fix, strict
    )
    directory = hooks_dir(Path(repo_root))
    target, chained = directory / HOOK_NAME, directory / CHAINED_NAME
    if target.exists() or target.is_symlink():
        if is_ours(target):
            if target.read_bytes() == script.encode("utf-8") and os.access(target, os.X_OK):
                return "unchanged"
            atomic_write_text(target, script, mode=0o755)
            return "updated"
        if chained.exists() or chained.is_symlink():
            raise HookError(f"{target} is not ours and {chained} already exists; merge them by hand")
        os.replace(target, chained)  # keep the user's hook; ours runs it first
    directory.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, script, mode=0o755)
    return "installed"


def uninstall_commit_msg_hook(repo_root: Path) -> str:
    """Remove our hook and put a chained one back; returns "removed", "absent" or "foreign"."""
    directory = hooks_dir(Path(repo_root))
    target, chained = directory / HOOK_NAME, directory / CHAINED_NAME
    if not (target.exists() or target.is_symlink()):
        return "absent"
    if not is_ours(target):
        return "foreign"
    if chained.exists() or chained.is_symlink():
        os.replace(chained, target)
    else:
        target.unlink()
    return "removed"
