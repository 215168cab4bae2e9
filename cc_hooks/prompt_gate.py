"""The UserPromptSubmit gate: ``python -I -S prompt_gate.py FULL-HOOK-COMMAND...``, or imported by the
same ``python -I -S`` from its folder (``main(sys.argv[1:])``, what the wired command does).

The prompt hook is the process cc-hooks starts most often, and almost always nothing is queued for
the session. This script answers that case before anything else loads: no ``site`` (``-S``), no
import but ``posix`` and ``sys`` (both built in), no JSON parser. It finds ``session_id`` and ``cwd``
in the raw bytes of the payload, locates the git common dir the way ``cc_hooks.state`` does, and
lists the session's pending folder. Only when something is there, or when it cannot tell, does it
hand over: it ``exec``s the full hook command given as its arguments, with the payload on its stdin.

It fails open both ways: whatever it cannot read (a payload with escapes in those fields, a key
seen twice, another event, an error of its own) is handed to the full hook, which decides; and a
full hook that cannot be started costs one line on stderr and exit 0.

Keep it to ``posix`` (the built-in half of ``os``, loaded before any import: ``import os`` itself
costs more than the rest of the gate under ``-S``) and ``sys``, and to syntax every supported
Python reads: it runs before the package, or its dependencies, are importable
(``tests/test_prompt_gate.py`` checks both).
"""

import posix  # os's built-in half: already loaded at start-up, where `import os` costs ~1.5 ms under -S
import sys

MAX_STDIN_BYTES = 16 * 1024 * 1024  # as cc_hooks.runtime
STATE_DIR_NAME = "cc-hooks"  # as cc_hooks.state
_DIR, _FILE, _KIND = 0o040000, 0o100000, 0o170000


def read_stdin():
    chunks, size = [], 0
    while size <= MAX_STDIN_BYTES:
        chunk = posix.read(0, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def field(raw, key):
    """The plain string value of top-level ``key``, None when absent; ValueError when it is not a
    plain string or the key is there twice (a nested object): that is not guessed at.

    An unescaped ``"key"`` followed by ``:`` can only be an object key: inside a JSON string every
    quote is escaped."""
    token = b'"' + key + b'"'
    at = raw.find(token)
    if at < 0:
        return None
    value = None
    while at >= 0:
        rest = raw[at + len(token):].lstrip(b" \t\r\n")
        if rest[:1] == b":":
            if value is not None:
                raise ValueError("a second %r" % key)
            rest = rest[1:].lstrip(b" \t\r\n")
            end = rest.find(b'"', 1)
            if rest[:1] != b'"' or end < 0 or b"\\" in rest[1:end]:
                raise ValueError("%r is not a plain string" % key)
            value = rest[1:end]
        at = raw.find(token, at + 1)
    return value


# --- os.path, for bytes POSIX paths -------------------------------------------------------------


def _kind(path):
    try:
        return posix.stat(path).st_mode & _KIND
    except OSError:
        return None


def _normpath(path):
    """os.path.normpath for an absolute or relative bytes path."""
    parts = []
    for part in path.split(b"/"):
        if part in (b"", b"."):
            continue
        if part == b".." and parts and parts[-1] != b"..":
            parts.pop()
        elif part != b".." or not path.startswith(b"/"):
            parts.append(part)
    joined = b"/".join(parts)
    return b"/" + joined if path.startswith(b"/") else (joined or b".")


def _join(directory, name):
    return name if name.startswith(b"/") else directory.rstrip(b"/") + b"/" + name


def _read(path):
    fd = posix.open(path, posix.O_RDONLY)
    try:
        return posix.read(fd, 1 << 16)
    finally:
        posix.close(fd)


def git_dir(start):
    """cc_hooks.state.git_dir_path, for a bytes path."""
    directory = _normpath(_join(posix.getcwd().encode("utf-8", "surrogateescape"), start))
    while True:
        dot_git = _join(directory, b".git")
        kind = _kind(dot_git)
        if kind == _DIR:
            return dot_git
        if kind == _FILE:
            text = _read(dot_git).strip()
            if not text.startswith(b"gitdir:"):
                return None
            return _normpath(_join(directory, text[len(b"gitdir:"):].strip()))
        if (_kind(_join(directory, b"HEAD")) == _FILE and _kind(_join(directory, b"objects")) == _DIR
                and _kind(_join(directory, b"refs")) == _DIR):
            return directory
        parent = directory.rpartition(b"/")[0] or b"/"
        if parent == directory:
            return None
        directory = parent


def common_dir(start):
    found = git_dir(start)
    if found is None:
        return None
    try:
        return _normpath(_join(found, _read(_join(found, b"commondir")).strip()))
    except OSError:
        return found


def state_key(session_id):
    """cc_hooks.state.state_key (session ids are plain ASCII here: anything else is handed over)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in session_id)[:128]
    return safe or "unknown-session"


def nothing_pending(raw):
    """True only when the payload is a UserPromptSubmit and its session has nothing queued."""
    if len(raw) > MAX_STDIN_BYTES or field(raw, b"hook_event_name") != b"UserPromptSubmit":
        return False
    session, cwd = field(raw, b"session_id"), field(raw, b"cwd")
    if not session:
        return True  # the full hook is silent without a session id too
    try:
        session_id = session.decode("ascii")
    except UnicodeDecodeError:
        return False
    if not cwd or b"\0" in cwd or _kind(cwd) != _DIR:
        cwd = posix.getcwd().encode("utf-8", "surrogateescape")  # as cc_hooks.runtime
    common = common_dir(cwd)
    if common is None:
        return True  # outside a repository the full hook has no state to deliver either
    folder = b"/".join([common, STATE_DIR_NAME.encode(), b"pending", state_key(session_id).encode()])
    try:
        names = posix.listdir(folder)
    except OSError:
        return _kind(folder) is None
    return not [name for name in names if not name.startswith(b".") or b".taken-" in name]


def hand_over(raw, argv):
    """exec ``argv`` with ``raw`` on its stdin (a child writes what a pipe cannot hold at once)."""
    read_end, write_end = posix.pipe()
    if len(raw) <= 4096:
        posix.write(write_end, raw)
    elif posix.fork() == 0:
        posix.close(read_end)
        view, written = memoryview(raw), 0
        while written < len(raw):
            written += posix.write(write_end, view[written:])
        posix._exit(0)
    posix.close(write_end)
    posix.dup2(read_end, 0)
    posix.close(read_end)
    program = argv[0]
    if "/" not in program:  # os.execvp: the first match on PATH
        for folder in posix.environ.get(b"PATH", b"/usr/bin:/bin").split(b":"):
            candidate = _join(folder or b".", program.encode())
            if _kind(candidate) == _FILE and posix.access(candidate, posix.X_OK):
                program = candidate.decode("utf-8", "surrogateescape")
                break
    posix.execv(program, argv)


def main(argv):
    """``argv[1:]``: the full hook command to hand over to."""
    if len(argv) < 2:
        sys.stderr.write("cc-hooks: prompt gate: no hook command to hand over to; hook skipped\n")
        return 0
    try:
        raw = read_stdin()
    except OSError:
        return 0  # nothing readable: the full hook would fail open on it too
    try:
        if nothing_pending(raw):
            return 0
    except Exception:  # noqa: BLE001 - unsure: the full hook decides
        pass
    try:
        hand_over(raw, argv[1:])
    except OSError as exc:
        sys.stderr.write("cc-hooks: prompt gate: cannot start %s (%s); hook skipped\n" % (argv[1], exc.strerror or exc))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
