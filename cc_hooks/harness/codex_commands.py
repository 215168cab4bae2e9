"""``install``, ``uninstall`` and ``doctor`` with ``--harness codex``: the same guarantees as for Claude
Code (idempotent merge, foreign hooks kept, backup, atomic write, dry run, removal of exactly our
handlers), on Codex's ``hooks.json``, plus what Codex adds: trust."""

from __future__ import annotations

from pathlib import Path

SCOPES = ("project", "user")


def _scope(args) -> str:
    from cc_hooks.cli import CliError

    if args.scope not in SCOPES:
        raise CliError(f"Codex has no {args.scope} scope: use --scope project (<root>/.codex/hooks.json) "
                       "or --scope user ($CODEX_HOME/hooks.json)")
    return args.scope


def install(args, root: Path) -> int:
    from cc_hooks import harness, settings
    from cc_hooks.cli import CliError
    from cc_hooks.commands.install import apply, git_hook_outcome, load_or_fail
    from cc_hooks.harness import codex_hooks

    scope = _scope(args)
    if args.strict and not args.git_hooks:
        raise CliError("--strict only applies with --git-hooks")
    if args.agents:
        raise CliError("--agents installs Claude Code skills and subagents (.claude/): Claude Code only")
    path = harness.get(harness.CODEX).hooks_path(scope, root)
    file = load_or_fail(path)
    new_data, status = codex_hooks.merge(file.data, codex_hooks.hook_command(scope))
    for event in settings.EVENTS:
        print(f"{event}: {status[event]}")
    print(apply(file, new_data, args.dry_run, root if scope == "project" else None))  # project: through no symlink
    if args.git_hooks:
        print(git_hook_outcome(root, "install", args.dry_run, strict=args.strict))
    for line in trust_steps(scope, root, path):
        print(line)
    return 0


def trust_steps(scope: str, root: Path, path: Path) -> list[str]:
    """What the person must do before Codex runs the hooks (it tells nobody when it skips them)."""
    from cc_hooks.harness import codex_hooks

    config, problem = codex_hooks.load_config()
    lines = []
    if problem:
        lines.append(f"warning: {problem}")
    if not codex_hooks.hooks_enabled(config):
        lines.append(f"warning: [features] hooks = false in {codex_hooks.config_path()}: no hook runs; remove that line")
    if scope == "project" and not codex_hooks.project_trusted(config, root):
        lines.append("next: " + codex_hooks.PROJECT_TRUST_STEP.format(path=path, root=root, config=codex_hooks.config_path()))
    lines.append("next: " + codex_hooks.TRUST_STEP.format(root=root))
    return lines


def uninstall(args, root: Path) -> int:
    from cc_hooks import harness, settings
    from cc_hooks.commands.install import apply, git_hook_outcome, load_or_fail

    scope = _scope(args)
    path = harness.get(harness.CODEX).hooks_path(scope, root)
    file = load_or_fail(path)
    if args.git_hooks:
        print(git_hook_outcome(root, "uninstall", args.dry_run))
    if not file.exists:
        print(f"{path}: no such file, nothing to remove")
        return 0
    new_data, removed = settings.remove(file.data)
    for event in settings.EVENTS:
        print(f"{event}: removed" if event in removed else f"{event}: absent")
    print(apply(file, new_data, args.dry_run, root if scope == "project" else None))  # project: through no symlink
    return 0


# -- doctor ----------------------------------------------------------------------------------------


def diagnose(root: Path, codex: str | None = None) -> list:
    """The doctor's findings for Codex: as for Claude Code, with Codex's wiring and trust in place of
    Claude Code's settings."""
    from cc_hooks.commands import doctor
    from cc_hooks.config import Config

    findings = [doctor.check_python(), *doctor.check_dependencies(), doctor.check_git(), doctor.check_repo(root)]
    config_finding, config = doctor.check_config(root)
    findings.append(config_finding)
    findings += check_wiring(root, config or Config(), codex)
    findings += check_command_forms(root)
    findings.append(doctor.check_hook_runs(root, ("--harness", "codex")))
    findings.append(doctor.check_state_dir(root))
    findings += doctor.check_records(root, config or Config())
    findings.append(doctor.check_log(root))
    return findings


def check_wiring(root: Path, config, codex: str | None = None):
    from cc_hooks import harness, settings
    from cc_hooks.commands.doctor import _check_event, fail, ok, warn
    from cc_hooks.harness import codex_hooks

    adapter = harness.get(harness.CODEX)
    findings = []
    codex_config, problem = codex_hooks.load_config()
    if problem:
        findings.append(fail("codex config", problem, "fix the file; Codex cannot use it either"))
    if not codex_hooks.hooks_enabled(codex_config):
        findings.append(fail("codex hooks feature", f"[features] hooks = false in {codex_hooks.config_path()}: no hook runs",
                             "remove `hooks = false` from [features]"))
    wired: dict = {event: [] for event in settings.EVENTS}
    keys = []
    for scope in SCOPES:
        path = adapter.hooks_path(scope, root)
        try:
            file = settings.load(path)
        except settings.SettingsError as exc:
            findings.append(fail(f"hooks.json ({scope})", str(exc), "fix the file; Codex cannot use it either"))
            continue
        ours = codex_hooks.hook_keys(path, file.data)
        for event, _key, handler in ours:
            if event in wired:
                wired[event].append((scope, handler))
        if ours and scope == "project" and not codex_hooks.project_trusted(codex_config, root):
            findings.append(fail("codex project trust", f"{root} is not a trusted project: Codex ignores {path}",
                                 codex_hooks.PROJECT_TRUST_STEP.format(path=path, root=root, config=codex_hooks.config_path())))
        keys += [(scope, key) for _event, key, _handler in ours]
    for event in settings.EVENTS:
        finding = _check_event(event, wired[event], getattr(config.hooks, settings.BUDGET_FIELDS[event]))
        if finding.status == "fail" and not wired[event]:
            finding.fix = "cc-hooks install --harness codex (add --scope user for all projects)"
        findings.append(finding)
    findings += _trust_findings(root, keys, codex_config, codex, ok, warn, fail)
    return findings


def check_command_forms(root: Path) -> list:
    """Per scope: our hooks.json commands, byte for byte against what `install --harness codex` writes,
    and the installation they would start (as for Claude Code, ``doctor.check_command_forms``; Codex
    has no launcher). None of them runs: a clone supplies the project's hooks.json and .venv."""
    from cc_hooks import harness, settings
    from cc_hooks.commands import doctor
    from cc_hooks.harness import codex_hooks

    adapter = harness.get(harness.CODEX)
    findings = []
    for scope in SCOPES:
        try:
            found = settings.our_handlers(settings.load(adapter.hooks_path(scope, root)).data)
        except settings.SettingsError:
            continue  # check_wiring names the file
        if not found:
            continue
        fix = f"cc-hooks install --harness codex --scope {scope}"
        written = doctor.block_commands(codex_hooks.hooks_block(codex_hooks.hook_command(scope)))
        matched, stray = doctor.compare_commands(found, {"written": written})
        name = f"hook command ({scope})"
        findings.append(doctor.differs(name, stray, fix) if stray else doctor.ok(name, f"as `{fix}` writes it"))
        if matched:
            findings.append(doctor.project_installation(scope, root) if scope == "project"
                            else doctor.machine_installation(scope))
    return findings


def _trust_findings(root, keys, codex_config, codex, ok, warn, fail) -> list:
    from cc_hooks.harness import codex_hooks

    if not keys:
        return []
    step = codex_hooks.TRUST_STEP.format(root=root)
    recorded = codex_hooks.recorded_hashes(codex_config)
    untrusted = [key for _scope, key in keys if key not in recorded]
    if untrusted:
        return [fail("codex hook trust", f"{len(untrusted)} of {len(keys)} hook(s) declared but not trusted "
                     f"(Codex skips them silently): {', '.join(untrusted)}", step)]
    statuses = codex_hooks.codex_statuses(root, codex)
    if statuses is None:
        return [warn("codex hook trust", f"all {len(keys)} hook(s) have a trusted hash in {codex_hooks.config_path()}; "
                     "whether it matches the current definitions only Codex can tell (no `codex` answered)",
                     "put `codex` on PATH and run the doctor again, or look at /hooks in codex")]
    stale = [key for _scope, key in keys if (statuses.get(key) or {}).get("trustStatus") != "trusted"]
    if stale:
        states = ", ".join(f"{key} ({(statuses.get(key) or {}).get('trustStatus', 'not listed')})" for key in stale)
        return [fail("codex hook trust", f"{len(stale)} of {len(keys)} hook(s) not trusted as they are now: {states}", step)]
    return [ok("codex hook trust", f"all {len(keys)} hook(s) trusted (codex hooks/list)")]


def run(args) -> int:
    """``install``, ``uninstall`` and ``doctor`` with ``--harness codex`` (``cli.verb_runner``)."""
    from cc_hooks.commands.install import project_root

    root = project_root(args.project)
    if args.verb == "install":
        return install(args, root)
    if args.verb == "uninstall":
        return uninstall(args, root)
    from cc_hooks.commands.doctor import report

    return report(root, diagnose(root), args)
