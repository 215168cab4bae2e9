"""Project configuration: an optional, tracked ``.cc-hooks.toml`` at the repo root.

Every field has a default, so a repo without the file works. Unknown keys are
kept (a newer cc-hooks may write keys an older one does not know) but reported
by ``doctor``; a file that does not parse is an error the caller turns into a
finding (hooks fall back to defaults and say so).
"""

# No `from __future__ import annotations`: pydantic would then evaluate every field annotation from a string.

import sys
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

CONFIG_NAME = ".cc-hooks.toml"
DEFAULT_FIX_SUBJECT = r"^(fix|bugfix|hotfix)(\([^)]*\))?!?(:|\s|$)"


class _Section(BaseModel):
    # defer_build: a class statement builds no schema; a hook that rebuilds a remembered config
    # (``load_config``) never builds one, and a validation builds it on first use.
    model_config = ConfigDict(extra="allow", defer_build=True)


def repo_relative(path: str) -> str:
    """``path`` if it names a place inside the repository; ValueError if it is absolute or
    climbs out with ``..`` (a cloned config must not make cc-hooks read or write elsewhere)."""
    import posixpath
    import re

    if not path or path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path) or "\0" in path:
        raise ValueError(f"{path!r} must be a path relative to the repository root")
    normalized = posixpath.normpath(path.replace("\\", "/"))
    if normalized in (".", "..") or normalized.startswith("../"):
        raise ValueError(f"{path!r} leaves the repository")
    return path


class RecordConfig(_Section):
    """Where the stores live, relative to the repo root."""

    symptoms: str = "SYMPTOMS.md"
    decisions: str = "DECISIONS.md"
    questions: str = "COLDSTART_QUESTIONS.md"
    default_dashboard: str = "next_steps.md"

    @field_validator("symptoms", "decisions", "questions", "default_dashboard")
    @classmethod
    def _inside_the_repo(cls, value: str) -> str:
        value = repo_relative(value)
        if any(part.casefold() == ".git" for part in value.replace("\\", "/").split("/")):
            raise ValueError(f"{value!r} is inside the git directory, not the work tree")
        return value


class TrailersConfig(_Section):
    """Which commits are fix commits (and so need a ``Symptom:`` trailer)."""

    fix_subject_pattern: str = Field(
        default=DEFAULT_FIX_SUBJECT,
        description="Case-insensitive regex on the subject line.",
    )
    touching_symptoms_is_fix: bool = Field(
        default=True, description="A commit that touches SYMPTOMS.md is a fix commit too."
    )


class HooksConfig(_Section):
    precompact_policy: Literal["warn", "block-manual"] = Field(
        default="warn",
        description="`warn` never blocks; `block-manual` blocks a manual /compact while checks FAIL.",
    )
    report_sources: list[str] = Field(
        default_factory=lambda: ["compact", "resume", "startup", "clear", "fork"],
        description="SessionStart sources that get the rehydration report.",
    )
    budget_chars: int = Field(default=6_000, ge=500, le=9_500, description="Max characters of hook output.")
    pre_compact_seconds: float = Field(default=10.0, gt=0, le=120)
    session_start_seconds: float = Field(default=5.0, gt=0, le=60)
    post_compact_seconds: float = Field(default=5.0, gt=0, le=60)
    user_prompt_submit_seconds: float = Field(default=2.0, gt=0, le=30)


class ProbeConfig(_Section):
    """A command that verifies an external-state claim; runs only once trusted."""

    argv: list[str]
    timeout: float = Field(default=10.0, gt=0, le=300)
    expect: Optional[str] = Field(default=None, description="Substring stdout must contain; else exit 0 suffices.")


class GuardConfig(_Section):
    argv: list[str]
    timeout: float = Field(default=60.0, gt=0, le=3600)
    symptom: Optional[str] = None


class GuardRunnerConfig(_Section):
    """Which environment runs the guards: written as bare keys of the `[guards]` table, beside the
    `[guards.NAME]` tables. Without them a guard runs in the project's `.venv` (or `venv`), else
    with `python3` on PATH. Either key makes every guard wait for `cc-hooks trust`."""

    python: Optional[str] = Field(
        default=None,
        description="The Python that runs pytest guards and `python` scripts: a path relative to the repository "
        "root (`.venv-test/bin/python`), an absolute path, or a program on PATH.",
    )
    command: Optional[list[str]] = Field(
        default=None,
        description="A command prefix every guard runs under, such as `[\"uv\", \"run\"]` or `[\"poetry\", \"run\"]`: "
        "a pytest guard runs as `<command> python -m pytest <id>`. Wins over `python`.",
    )


GUARD_RUNNER_KEYS = ("python", "command")


DEFAULT_TRUSTED_ASSOCIATIONS = ["OWNER", "MEMBER", "COLLABORATOR"]


class GitHubDashboardConfig(_Section):
    """`Dashboard: github OWNER/REPO`: where the API is and which issues count."""

    api_url: str = Field(default="https://api.github.com", description=(
        "GitHub Enterprise: https://HOST/api/v3. Where your token goes: any other value than the default is used only "
        "from your own ~/.config/cc-hooks/config.toml, or from the repository's once you allow it (`cc-hooks trust`)."))
    token_env: str = Field(default="GITHUB_TOKEN", description=(
        "The variable holding the token; unset: `gh auth token`. Like `api_url`: another variable than the default "
        "needs your config or `cc-hooks trust`."))
    use_gh_cli: bool = Field(default=True, description="Ask `gh auth token` when the variable is unset.")
    state_label: str = "cc-hooks-state"
    queue_label: str = "cc-hooks-queue"
    trusted_associations: list[str] = Field(
        default_factory=lambda: list(DEFAULT_TRUSTED_ASSOCIATIONS),
        description="author_association values whose issues count (anyone can open an issue on a public repository).",
    )


class JiraDashboardConfig(_Section):
    """`Dashboard: jira PROJ`: a Jira Cloud site, basic auth with an email and an API token."""

    url: Optional[str] = Field(default=None, description=(
        "https://<site>.atlassian.net (required). Taken from your own ~/.config/cc-hooks/config.toml, or from the "
        "repository's once you allow it (`cc-hooks trust`): nothing is sent before."))
    email_env: str = Field(default="JIRA_EMAIL", description="Like `url`: another variable than the default needs your config or `cc-hooks trust`.")
    token_env: str = Field(default="JIRA_API_TOKEN", description="Like `email_env`.")
    state_label: str = "cc-hooks-state"
    queue_label: str = "cc-hooks-queue"
    issue_type: str = Field(default="Task", description="The issue type `queue` and `update` create.")


class DashboardConfig(_Section):
    """Tracker dashboards: one read never outlasts `timeout_seconds` (a hook's budget is small)."""

    timeout_seconds: float = Field(default=2.0, gt=0, le=60)
    github: GitHubDashboardConfig = Field(default_factory=GitHubDashboardConfig)
    jira: JiraDashboardConfig = Field(default_factory=JiraDashboardConfig)


class Config(_Section):
    record: RecordConfig = Field(default_factory=RecordConfig)
    trailers: TrailersConfig = Field(default_factory=TrailersConfig)
    hooks: HooksConfig = Field(default_factory=HooksConfig)
    probes: dict[str, ProbeConfig] = Field(default_factory=dict)
    guards: dict[str, GuardConfig] = Field(default_factory=dict)
    guard_runner: GuardRunnerConfig = Field(default_factory=GuardRunnerConfig, json_schema_extra={"toml_table": "guards"})
    dashboard: DashboardConfig = Field(default_factory=DashboardConfig)

    @model_validator(mode="before")
    @classmethod
    def _lift_guard_runner(cls, data: Any) -> Any:
        """`[guards] python = ...` and `command = [...]` are the runner's keys, not guards named so."""
        guards = data.get("guards") if isinstance(data, dict) else None
        if not isinstance(guards, dict) or not any(k in guards and not isinstance(guards[k], dict) for k in GUARD_RUNNER_KEYS):
            return data
        guards = dict(guards)
        runner = dict(data.get("guard_runner") or {})
        for key in GUARD_RUNNER_KEYS:
            if key in guards and not isinstance(guards[key], dict):
                runner[key] = guards.pop(key)
        return {**data, "guards": guards, "guard_runner": runner}


class ConfigError(Exception):
    """The config file exists but cannot be used; the message says where and why."""


def _toml_loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib.loads(text)


def load_config(repo_root: str | Path | None) -> Config:
    """The repo's config, or defaults when there is no file. Raises ConfigError."""
    if repo_root is None:
        return Config()
    from cc_hooks.fsutil import read_repo_text

    path = Path(repo_root) / CONFIG_NAME
    try:
        text = read_repo_text(path, repo_root, encoding="utf-8-sig", errors="strict")
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read ({exc})") from exc
    return _remembered_config(repo_root, path, text)


def _validated(path: Path, text: Optional[str]) -> Config:
    if text is None:
        return Config()
    try:
        data = _toml_loads(text)
    except Exception as exc:  # tomllib.TOMLDecodeError, or tomli's
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
    try:
        return Config.model_validate(data)
    except Exception as exc:  # pydantic.ValidationError
        first = str(exc).splitlines()
        raise ConfigError(f"{path}: invalid ({'; '.join(first[:3])})") from exc


def _remembered_config(repo_root: str | Path, path: Path, text: Optional[str]) -> Config:
    """The config validated the last time these bytes were read, rebuilt without validation (building
    the schema of every section costs more than the rest of a SessionStart's imports); validated,
    and remembered, when the bytes are new. A file that does not validate is never remembered."""
    from cc_hooks import config_facts, memo
    from cc_hooks.state import state_dir

    try:
        state = state_dir(repo_root)
    except OSError:
        state = None
    validated: list[Config] = []

    def validate() -> Any:
        validated.append(_validated(path, text))
        return config_facts.facts_of(validated[0])

    facts = memo.remember(state, "config", ["absent" if text is None else "text", text or ""], validate)
    if validated:
        return validated[0]
    try:
        return config_facts.rebuild(Config, facts)
    except (TypeError, ValueError, KeyError, AttributeError):  # a corrupt entry: validate again
        return _validated(path, text)


def load_config_or_default(repo_root: str | Path | None) -> tuple[Config, Optional[str]]:
    """For hooks: never raise; return defaults and the problem, if any."""
    try:
        return load_config(repo_root), None
    except ConfigError as exc:
        return Config(), str(exc)
