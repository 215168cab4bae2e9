"""`cc-hooks init`: scaffold the missing stores of the record; never overwrite a file.

Creates, when missing: ``.cc-hooks.toml`` (the defaults, commented), SYMPTOMS.md,
DECISIONS.md, COLDSTART_QUESTIONS.md and the file dashboard (``next_steps.md``,
dated today). Declares the dashboard in CLAUDE.md (``Dashboard: file
next_steps.md``; CLAUDE.md is created or appended to). When CLAUDE.md is
gitignored, the declaration would vanish from a fresh clone (the tracked-home
rule), so the same line is echoed into the dashboard file's preamble, which the
dashboard reader finds with ``git grep '^Dashboard:'`` once it is committed.
Idempotent: a second run changes nothing and says so.

The first hour: a virtualenv at the top of the work tree that git does not ignore
(Python before 3.13 does not ignore its own) is added to ``.gitignore``; the commit
hint lists every file init and ``install`` wrote that git does not have yet; an
existing ``TODO.md``/``ROADMAP.md``-style queue is offered for migration into the
dashboard (listed first; moved with ``--migrate``: one dashboard, not two); and the
run ends with a first baseline, the cold-start audit, and what to do next.
"""

from __future__ import annotations

from cc_hooks.actions import Action, write_text
from cc_hooks.fsutil import read_repo_bytes, read_repo_text

HELP = "Scaffold the missing record stores and .cc-hooks.toml (never overwrites); declare the dashboard in CLAUDE.md."

CLAUDE_MD = "CLAUDE.md"

SECTION_COMMENTS = {
    "record": "Where the stores live, relative to the repository root.",
    "trailers": "Which commits are fix commits (and so need a `Symptom:` trailer).",
    "hooks": "How the hooks behave.",
}

EXAMPLES = {
    "probes": [
        "Named probes verify external-state claims such as 'staging runs v1.4.2 (probe: staging-version)'.",
        "They come from the repository, so they run only after `cc-hooks trust`. Example:",
        "[probes.staging-version]",
        'argv = ["./scripts/staging-version"]',
        "timeout = 10.0",
        'expect = "v1.4.2"',
    ],
    "guards": [
        "Named guards: executable checks of recorded fixes, run and proven both ways by `cc-hooks guards`. Example:",
        "[guards.add-returns-sum]",
        'argv = ["python", "-m", "pytest", "-q", "tests/test_calc.py::test_add"]',
        "timeout = 60.0",
        'symptom = "add(2, 3) returns -1"',
        "Guards run in the project's .venv (or venv), else with python3 on PATH. To choose, set in [guards]",
        '(then `cc-hooks trust`): python = ".venv-test/bin/python"  or  command = ["uv", "run"]',
    ],
}


def add_arguments(parser) -> None:
    from cc_hooks.cli import PROJECT_HELP

    parser.add_argument("--project", metavar="DIR", help=PROJECT_HELP)
    parser.add_argument("--migrate", action="store_true",
                        help="move the open items of an existing TODO.md / ROADMAP.md-style queue into the dashboard's "
                        "QUEUED section (without it, init only lists what it would move)")
    parser.add_argument("--no-audit", action="store_true", help="skip the first baseline (the cold-start audit) at the end")
    parser.epilog = ("Exit status: 0 on success (including when nothing was missing), 1 on an error (not a git "
                     "repository, unwritable file, invalid .cc-hooks.toml).")


def run(args) -> int:
    from cc_hooks.cli import CliError
    from cc_hooks import migrate_queue
    from cc_hooks.fsutil import RefusedFile

    root = repository_root(args.project or ".")
    try:
        actions = scaffold(root)
        actions += migrate_queue.migrate(root, execute=args.migrate)
    except RefusedFile as exc:
        raise CliError(str(exc)) from exc
    except OSError as exc:
        raise CliError(f"cannot write {exc.filename}: {exc.strerror or exc}") from exc
    for action in actions:
        print(action)
    changed = [a for a in actions if a.status in ("created", "updated", "migrated")]
    if not changed:
        print("Nothing to do: the record is already scaffolded.")
    pending, forced = uncommitted(root, [a.path for a in changed if not a.ignored] + record_paths(root) + installed_paths(root))
    commit = ""
    if pending:
        commit = f"git add {' '.join(pending)}" + (f" && git add -f {' '.join(forced)}" if forced else "")
        print(f"Commit them so they are tracked: {commit}")
    elif forced:
        commit = f"git add -f {' '.join(forced)}"
        print(f"Commit what .gitignore hides (see the warning of `cc-hooks install`): {commit}")
    if not args.no_audit:
        for line in baseline(root, commit):
            print(line)
    return 0


def repository_root(directory: str):
    """The top of the work tree containing ``directory``; CliError if there is none."""
    from pathlib import Path

    from cc_hooks.cli import CliError
    from cc_hooks.git import GitError, run_git

    path = Path(directory).expanduser()
    if not path.is_dir():
        raise CliError(f"{directory}: not a directory")
    try:
        top = run_git(path, "rev-parse", "--show-toplevel").strip()
    except GitError as exc:
        if "not a git repository" in str(exc):
            raise CliError(f"{path.absolute()} is not inside a git work tree") from exc
        raise CliError(str(exc)) from exc
    if not top:
        raise CliError(f"{path.absolute()} is not inside a git work tree")
    return Path(top)


def scaffold(root, today: str | None = None) -> list[Action]:
    """Create what is missing under ``root``; return one Action per store."""
    import datetime

    from cc_hooks.cli import CliError
    from cc_hooks.config import CONFIG_NAME, Config, ConfigError, load_config

    today = today or datetime.date.today().isoformat()
    have_config = (root / CONFIG_NAME).exists()
    try:
        config = load_config(root) if have_config else Config()
    except ConfigError as exc:
        raise CliError(f"{exc}; fix it (or move it away) and run again") from exc
    check_new_files(root, config)
    if have_config:
        actions = [Action("exists", CONFIG_NAME, "left alone")]
    else:
        _create(root, CONFIG_NAME, render_config(config))
        actions = [Action("created", CONFIG_NAME, "the defaults, commented")]
    actions.extend(ignore_virtualenvs(root))
    questions = starter_questions(root, config)
    for name, rel in (("SYMPTOMS.md", config.record.symptoms), ("DECISIONS.md", config.record.decisions), ("COLDSTART_QUESTIONS.md", config.record.questions)):
        actions.append(_scaffold_file(root, rel, template(name, questions=questions)))
    actions.extend(_dashboard(root, config, today))
    return actions


def check_new_files(root, config) -> None:
    """RefusedFile, before the first file is created, when a file init would create is a link or lies
    behind one (a dangling ``SYMPTOMS.md -> ~/.config/x``) or outside the work tree. A file that
    exists is checked when it is written (most are left alone)."""
    from cc_hooks.config import CONFIG_NAME
    from cc_hooks.fsutil import RefusedFile, check_repo_path
    from cc_hooks.record.dashboard import find_declaration

    record = config.record
    declaration, _ = find_declaration(root, config)
    dashboard = [declaration.locator] if declaration.backend == "file" else []
    for rel in (CONFIG_NAME, record.symptoms, record.decisions, record.questions, CLAUDE_MD, *dashboard):
        if not (root / rel).exists():
            try:
                check_repo_path(root, root / rel)
            except RefusedFile:
                raise
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, rel) from exc


def starter_questions(root, config) -> str:
    """The first questions of a new COLDSTART_QUESTIONS.md: where the record's own parts live. They
    are true of every repository init scaffolds, so the first audit has something to grade."""
    from cc_hooks.record.dashboard import find_declaration

    declaration, _ = find_declaration(root, config)
    record = config.record
    lines = []
    if declaration.backend == "file":
        lines.append(f"- Where are the current state and the queued work? → {declaration.locator}")
    lines.append(f"- Where are past symptoms recorded, with their causes, fixes and guards? → {record.symptoms}")
    lines.append(f"- Where are design decisions recorded, with the alternatives they rejected? → {record.decisions}")
    return "\n".join(lines) + "\n"


# --- the first hour: virtualenvs, what to commit, the baseline ------------------------------------


def ignore_virtualenvs(root) -> list[Action]:
    """Add every top-level virtualenv git would otherwise offer to commit to ``.gitignore``."""
    from cc_hooks.git import GitError, run_git

    import re

    venvs = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.is_symlink() and (p / "pyvenv.cfg").is_file()
                   and re.fullmatch(r"[\w.-]+", p.name) and not _ignores_itself(p))
    if not venvs:
        return []
    try:
        tracked = {v for v in venvs if run_git(root, "ls-files", "-z", "--", v).strip("\0")}
        hidden = {p.rstrip("/") for p in run_git(root, "check-ignore", "-z", "--no-index", "--stdin",
                                                  input="".join(f"{v}/\0" for v in venvs), check=False).split("\0") if p}
    except GitError:
        return []
    unignored = [v for v in venvs if v not in tracked and v not in hidden]
    if not unignored:
        return []
    path = root / ".gitignore"
    text = path.read_bytes().decode("utf-8", errors="surrogateescape") if path.exists() else ""
    newline = "\r\n" if "\r\n" in text else "\n"
    separator = "" if not text or text.endswith(newline) else newline
    lines = "".join(f"/{v}/{newline}" for v in unignored)
    write_text(root, ".gitignore", f"{text}{separator}# virtualenvs (added by cc-hooks init){newline}{lines}")
    names = ", ".join(f"{v}/" for v in unignored)
    return [Action("updated" if text else "created", ".gitignore",
                   f"now ignores {names}: a virtualenv made by Python before 3.13 does not ignore itself, and its "
                   "packages' files would be committed and swept")]


def _ignores_itself(venv) -> bool:
    """Python 3.13+ writes a ``.gitignore`` holding ``*`` into every new virtualenv."""
    try:
        lines = (venv / ".gitignore").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    return "*" in (line.strip() for line in lines)


def record_paths(root) -> list[str]:
    from cc_hooks.config import CONFIG_NAME, ConfigError, load_config

    try:
        config = load_config(root)
    except ConfigError:
        return []
    record = config.record
    paths = [CONFIG_NAME, record.symptoms, record.decisions, record.questions]
    from cc_hooks.record.dashboard import find_declaration

    declaration, _ = find_declaration(root, config)
    if declaration.backend == "file":
        paths.append(declaration.locator)
    if declaration.source == "CLAUDE.md":
        paths.append(declaration.file or CLAUDE_MD)
    return paths


def installed_paths(root) -> list[str]:
    """Files ``cc-hooks install`` writes into the work tree that exist here: the project settings
    (when they wire cc-hooks) with their launcher, and the skills and subagents of ``install --agents``."""
    from cc_hooks import settings
    from cc_hooks.agents_install import planned_files

    found = []
    path = settings.settings_path("project", root)
    try:
        if path.is_file() and any(settings.our_handlers(settings.load(path).data).values()):
            found.append(settings.PROJECT_SETTINGS)
            if settings.is_launcher(settings.launcher_path("project", root)):
                found.append(settings.PROJECT_LAUNCHER)  # the settings run it: a clone needs both
    except settings.SettingsError:
        pass
    for target, _ in planned_files(root, "project"):
        if target.is_file():
            found.append(target.relative_to(root).as_posix())
    return found


def uncommitted(root, paths: list[str]) -> tuple[list[str], list[str]]:
    """(paths git does not have as they are: new or changed; the ignored project settings), in order."""
    from cc_hooks.git import GitError, run_git

    paths = [p for p in dict.fromkeys(paths) if p and (root / p).exists()]
    if not paths:
        return [], []
    try:
        out = run_git(root, "status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=all", "--", *paths)
    except GitError:
        return paths, []
    states = {}
    records = out.split("\0")
    index = 0
    while index < len(records):
        record = records[index]
        index += 1
        if len(record) > 3:
            states[record[3:]] = record[:2]
            index += record[0] in "RC"  # a rename's source path follows
    from cc_hooks.settings import PROJECT_LAUNCHER, PROJECT_SETTINGS

    pending = [p for p in paths if p in states and states[p] != "!!"]
    # Only the project settings and their launcher are worth forcing past .gitignore (install warned
    # about it); an ignored CLAUDE.md has its tracked echo, and ignored skills stay this machine's.
    forced = [p for p in paths if states.get(p) == "!!" and p in (PROJECT_SETTINGS, PROJECT_LAUNCHER)]
    return pending, forced


def baseline(root, commit: str) -> list[str]:
    """The first cold-start audit (stored, as `cc-hooks audit` would) and what to do next."""
    from cc_hooks.audit import run_audit
    from cc_hooks.audit.freshclone import FreshCloneError
    from cc_hooks.config import ConfigError, load_config
    from cc_hooks.git import GitError

    steps = [f"git commit -m 'Add the cc-hooks record'" if not commit else f"{commit} && git commit -m 'Add the cc-hooks record'"]
    try:
        result = run_audit(root, load_config(root), [])
    except (FreshCloneError, GitError, ConfigError) as exc:
        lines = [f"First baseline: the cold-start audit could not run ({exc})."]
        return lines + _next(([steps[0]] if commit else []) + ["cc-hooks audit", "cc-hooks check"])
    try:
        from cc_hooks.audit.result import store
        from cc_hooks.state import state_dir

        state = state_dir(root, create=True)
        stored = f"; stored for `cc-hooks check`" if state is not None and store(result, state) else ""
    except OSError:
        stored = ""
    score = result.score_line.replace("Score: ", "")
    if commit:
        return [f"First baseline: the cold-start audit graded {score}{stored}. It reads HEAD, as a fresh clone "
                "would, and HEAD does not have the record yet."] + _next(
            [steps[0], "cc-hooks audit    (the same questions, against the commit)", "cc-hooks check    (the compaction checklist)"])
    if result.all_pass:
        return [f"First baseline: the cold-start audit graded {score}{stored}."] + _next(
            ["cc-hooks check    (the compaction checklist)",
             f"add a question to {load_config(root).record.questions} for each non-obvious fact you learn"])
    gaps = [g for g in result.graded if g.grade != "PASS"][:3]
    lines = [f"First baseline: the cold-start audit graded {score}{stored}."]
    lines += [f"  {g.grade}: {g.question.text} — {g.remediation}".rstrip(" —") for g in gaps]
    return lines + _next(["fix what the audit lists, commit, then: cc-hooks audit", "cc-hooks check"])


def _next(steps: list[str]) -> list[str]:
    return ["Next:"] + [f"  {number}. {step}" for number, step in enumerate(steps, 1)]


def _scaffold_file(root, rel: str, text: str) -> Action:
    if (root / rel).exists():
        return Action("exists", rel, "left alone")
    _create(root, rel, text)
    return Action("created", rel)


def _create(root, rel: str, text: str) -> None:
    write_text(root, rel, text)  # its directories too, through no symlink


def template(name: str, **values: str) -> str:
    """A scaffold template from ``cc_hooks/templates`` with ``$name`` placeholders filled."""
    import string
    from importlib import resources

    text = resources.files("cc_hooks").joinpath("templates", name).read_text(encoding="utf-8")
    return string.Template(text).safe_substitute(values)


# --- the dashboard: declaration, file, tracked echo -----------------------------------------------


def _dashboard(root, config, today: str) -> list[Action]:
    from cc_hooks.record.dashboard import find_declaration

    actions = []
    declaration, _ = find_declaration(root, config)
    line = f"Dashboard: {declaration.backend} {declaration.locator}".rstrip()
    home = declaration.file if declaration.source == "CLAUDE.md" and declaration.file else CLAUDE_MD
    claude_ignored = _is_ignored(root, home)
    if declaration.source == "CLAUDE.md":
        actions.append(Action("exists", declaration.file or CLAUDE_MD, f"declares `{line}`", claude_ignored))
    else:
        origin = "" if declaration.source == "default" else f", as echoed in {declaration.file}"
        actions.append(_declare_in_claude_md(root, line, origin, claude_ignored))
    if declaration.backend != "file":
        actions.append(Action("skipped", "dashboard file", f"the dashboard backend is `{declaration.backend}`"))
        if claude_ignored and declaration.source == "CLAUDE.md":
            actions.append(Action("advice", home, f"gitignored: echo `{line}` in a tracked file (e.g. README.md)"))
        return actions
    rel = declaration.locator
    exists = (root / rel).exists()
    text = read_repo_text(root / rel, root) if exists else template("next_steps.md", date=today)
    echo = claude_ignored and declaration.source != "tracked-echo" and not _has_declaration(text)
    if echo:
        text = _insert_after_title(text, line)
    if not exists:
        _create(root, rel, text)
        detail = f"CURRENT STATE {today}" + (f"; tracked echo of `{line}` because {home} is gitignored" if echo else "")
        actions.append(Action("created", rel, detail))
    elif echo:
        write_text(root, rel, text)
        actions.append(Action("updated", rel, f"added a tracked echo of `{line}` ({home} is gitignored)"))
    else:
        actions.append(Action("exists", rel, "left alone"))
    return actions


def _declare_in_claude_md(root, line: str, origin: str, ignored: bool) -> Action:
    path = root / CLAUDE_MD
    if not path.exists():
        _create(root, CLAUDE_MD, f"# Notes for agents working on this repository\n\n{line}\n")
        return Action("created", CLAUDE_MD, f"declares `{line}`{origin}", ignored)
    text = read_repo_bytes(path, root).decode("utf-8", errors="surrogateescape")
    newline = "\r\n" if "\r\n" in text else "\n"
    if not text.strip():
        separator = ""
    elif text.endswith(newline * 2):
        separator = ""
    elif text.endswith(newline):
        separator = newline
    else:
        separator = newline * 2
    write_text(root, CLAUDE_MD, f"{text}{separator}{line}{newline}")
    return Action("updated", CLAUDE_MD, f"appended `{line}`{origin}", ignored)


def _has_declaration(text: str) -> bool:
    import re

    return re.search(r"(?m)^[ \t]*Dashboard:", text) is not None


def _insert_after_title(text: str, line: str) -> str:
    """``line`` as its own paragraph after the first H1 (or at the top)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(newline)
    at = next((i + 1 for i, l in enumerate(lines[:20]) if l.startswith("# ")), 0)
    lines[at:at] = [""] + [line] if at else [line, ""]
    return newline.join(lines)


def _is_ignored(root, rel: str) -> bool:
    from cc_hooks.git import GitError, ignored, run_git

    try:
        if run_git(root, "ls-files", "-z", "--", rel).strip("\0"):
            return False  # tracked files are never ignored
        return rel in ignored(root, [rel])
    except GitError:
        return False


# --- .cc-hooks.toml ---------------------------------------------------------------------------------


def render_config(config) -> str:
    """TOML for ``config`` with a comment above every section and key (tomli-w writes the values)."""
    import tomli_w
    from pydantic import BaseModel

    out = [
        "# cc-hooks configuration. Every key is optional; the values below are the defaults.",
        "# Written by `cc-hooks init`; edit freely. `cc-hooks doctor` reports unknown keys.",
    ]
    for name, field in type(config).model_fields.items():
        value = getattr(config, name)
        if name == "guard_runner":  # bare keys of [guards]: written with the guards' example, when set
            runner = value.model_dump(mode="json", exclude_none=True)
            if runner:
                out += ["", "[guards]", tomli_w.dumps(runner).rstrip("\n")]
            continue
        out.append("")
        if isinstance(value, BaseModel):
            out += _table(name, value, SECTION_COMMENTS.get(name))
        elif isinstance(value, dict) and not value:
            out += _comment("\n".join(EXAMPLES.get(name, [field.description or name])))
        else:
            dumped = config.model_dump(mode="json", include={name}, exclude_none=True)
            out += _comment(field.description or "")
            out.append(tomli_w.dumps(dumped).rstrip("\n"))
    return "\n".join(out) + "\n"


def _table(title: str, value, comment=None) -> list[str]:
    """One ``[title]`` table, then its nested tables as ``[title.key]`` (``[dashboard.github]``)."""
    import tomli_w
    from pydantic import BaseModel

    out = _comment(comment or (type(value).__doc__ or "").strip()) + [f"[{title}]"]
    nested = []
    for key, sub in type(value).model_fields.items():
        if isinstance(getattr(value, key), BaseModel):
            nested.append(key)
            continue
        item = value.model_dump(mode="json", include={key})
        if item.get(key) is None:
            continue
        out += _comment(sub.description or "")
        out.append(tomli_w.dumps(item).rstrip("\n"))
    extra = {k: v for k, v in (value.model_extra or {}).items() if v is not None}
    if extra:
        out.append(tomli_w.dumps(extra).rstrip("\n"))
    for key in nested:
        out += [""] + _table(f"{title}.{key}", getattr(value, key))
    return out


def _comment(text: str) -> list[str]:
    return [f"# {line}".rstrip() for line in text.splitlines() if line.strip()]
