"""Empty marker files that tell "PreCompact ran but could not store its checkpoint" from "PreCompact
did not run" (issue 51, item 2).

PreCompact makes its marker before the checks and removes it once the checkpoint is stored; when
that write fails it renames the marker to the error's name (``ENOSPC``), so a marker left saying
``running`` is a PreCompact that did not finish. Everything is in the name and the mtime, because
of what survives the faults: a full disk refuses data but still takes an empty file and a rename
(an inode and a directory entry), so the marker lives at the top of the state directory; a
read-only or immutable state directory takes nothing, so the marker goes to a private directory of
this user outside the repository instead (``$XDG_RUNTIME_DIR/cc-hooks``, else ``<tmp>/cc-hooks-<uid>``),
written by the state directory's rules (this user's, 0700, no symlink followed).

Name: ``precompact.<repo>.<session>.<prompt>.<status>``: a hash of the state directory's path, the
state keys of the session and of the prompt (``none`` without one), ``running`` or the errno's name.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Optional

PREFIX = "precompact"
RUNNING = "running"
NO_PROMPT = "none"
_KEY_CHARS = 100  # two keys, the hash and the status stay under the 255 bytes of a file name
STALE_SECONDS = 24 * 3600  # a marker no SessionStart(compact) read by then never will: the next one removes it


def places(state: Path) -> list[Path]:
    """Where a marker may go, in order: the state directory, then this user's runtime directory."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        other = Path(runtime) / "cc-hooks"
    else:
        other = Path(tempfile.gettempdir()) / f"cc-hooks-{os.geteuid()}"
    return [Path(state), other]


def _session_part(state: Path, session_id: str) -> str:
    from cc_hooks.state import state_key

    repo = hashlib.sha256(os.fsencode(os.path.abspath(state))).hexdigest()[:12]
    return f"{PREFIX}.{repo}.{state_key(session_id)[:_KEY_CHARS]}."


def _prompt_part(prompt_id: Optional[str]) -> str:
    from cc_hooks.state import state_key

    return state_key(prompt_id)[:_KEY_CHARS] if prompt_id else NO_PROMPT


def start(state: Path, session_id: str, prompt_id: Optional[str]) -> Optional[Path]:
    """Mark that a PreCompact of this compaction began: the marker, or None where none could be made."""
    stem = _session_part(state, session_id) + _prompt_part(prompt_id)
    for place in places(state):
        try:
            _clear(place, stem)
            _touch(place, place / f"{stem}.{RUNNING}")
        except OSError:
            continue
        return place / f"{stem}.{RUNNING}"
    return None


def settle(marker: Optional[Path], failure: Optional[OSError]) -> None:
    """The checkpoint is stored (``failure`` None): the marker goes. It could not be: the marker
    takes the error's name (a rename needs no free space)."""
    if marker is None:
        return
    try:
        if failure is None:
            os.unlink(marker)
        else:
            code = errno.errorcode.get(failure.errno or errno.EIO, "EIO")
            os.rename(marker, marker.with_name(f"{marker.name.rsplit('.', 1)[0]}.{code}"))
    except OSError:
        pass


def find(state: Path, session_id: str, prompt_id: Optional[str], max_age: float) -> Optional[tuple[Path, Optional[str]]]:
    """This compaction's marker and why its checkpoint is missing: (path, the error's text, or None
    when PreCompact did not finish). The marker of this prompt; else, as for checkpoints, the
    newest one younger than ``max_age`` seconds of a PreCompact without a prompt id (any one of
    the session when this event has no prompt id either)."""
    head, wanted = _session_part(state, session_id), _prompt_part(prompt_id)
    found = []
    for place in places(state):
        for name in _names(place):
            parts = name[len(head):].split(".") if name.startswith(head) else []
            when = _mtime(place / name) if len(parts) == 2 else None
            if when is None:
                continue
            prompt, status = parts
            exact = prompt == wanted != NO_PROMPT
            if exact or (time.time() - when <= max_age and (not prompt_id or prompt == NO_PROMPT)):
                found.append(((exact, when), str(place / name), status))
    if not found:
        return None
    _, path, status = max(found)
    return Path(path), _reason(status)


def _reason(status: str) -> Optional[str]:
    if status == RUNNING:
        return None
    codes = {name: code for code, name in errno.errorcode.items()}
    return os.strerror(codes.get(status, errno.EIO))


def consume(marker: Path) -> None:
    """The report has said what the marker told: it goes."""
    try:
        os.unlink(marker)
    except OSError:
        pass


def can_mark(state: Path) -> bool:
    """Whether a PreCompact could have left a marker at all (one empty file made and removed)."""
    probe = f"{PREFIX}.probe.{os.getpid()}.{os.urandom(4).hex()}"
    for place in places(state):
        try:
            _touch(place, place / probe)
        except OSError:
            continue
        _remove(place, lambda name: name == probe)
        return True
    return False


def _touch(place: Path, path: Path) -> None:
    from cc_hooks.fsutil import write_state_bytes
    from cc_hooks.state import private_dirs

    if not os.path.lexists(place):
        private_dirs(place)
    write_state_bytes(place, path, b"", durable=False)


def _clear(place: Path, stem: str) -> None:
    """The markers of an earlier run for this prompt, and those no report read within a day."""
    _remove(place, lambda name: name.startswith(stem + ".") or _stale(place / name))


def _names(place: Path) -> list[str]:
    """The markers in ``place``; none unless it is this user's and closed to others (the state
    directory's rule: a directory someone else made under /tmp tells nothing)."""
    from cc_hooks.fsutil import check_state_root

    try:
        check_state_root(place, tighten=False)
        return [name for name in os.listdir(place) if name.startswith(PREFIX + ".")]
    except OSError:
        return []


def _remove(place: Path, which) -> None:
    for name in _names(place):
        if which(name):
            try:
                os.unlink(place / name)
            except OSError:
                pass


def _stale(path: Path) -> bool:
    when = _mtime(path)
    return when is not None and time.time() - when > STALE_SECONDS


def _mtime(path: Path) -> Optional[float]:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_mtime if stat.S_ISREG(info.st_mode) else None
