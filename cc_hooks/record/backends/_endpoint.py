"""Where a tracker's credential goes, and which variable holds it: the user's decision, never the
repository's (issue 42, findings 1-2).

A repository may say which tracker project is its dashboard (``Dashboard: github o/r``): a
public fact. The keys that send a secret somewhere (GitHub's ``api_url`` and ``token_env``,
Jira's ``url``, ``email_env`` and ``token_env``) are taken

1. from the user's own config, ``${XDG_CONFIG_HOME:-~/.config}/cc-hooks/config.toml``
   (``[dashboard.github]``, ``[dashboard.jira]``), which wins over the repository's; else
2. from the repository's ``.cc-hooks.toml`` only when they are the defaults (``api.github.com``
   and ``GITHUB_TOKEN``) or when the user pinned exactly those values for this repository with
   ``cc-hooks trust`` (bound to its root commits, like the probe table). Every Jira site
   needs that: there is no default one.

Otherwise nothing is sent, and the read says in one line what to run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from cc_hooks.record.dashboard import DashboardError

CREDENTIAL_FIELDS = {"github": ("api_url", "token_env"), "jira": ("url", "email_env", "token_env")}
USER_CONFIG = "config.toml"


class EndpointRefused(DashboardError):
    """The repository asks for an endpoint or credential variable the user has not allowed."""


def user_config_path() -> Path:
    from cc_hooks.trust import config_dir

    return config_dir() / USER_CONFIG


def user_values(backend: str) -> dict:
    """The credential keys of ``[dashboard.<backend>]`` in the user's config ({} when absent)."""
    path = user_config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise DashboardError(f"{path}: cannot read ({exc})") from None
    try:
        data = _toml(text)
    except ValueError as exc:
        raise DashboardError(f"{path}: not valid TOML ({exc})") from None
    section = (data.get("dashboard") or {}).get(backend) if isinstance(data.get("dashboard"), dict) else None
    if not isinstance(section, dict):
        return {}
    values = {key: section[key] for key in CREDENTIAL_FIELDS[backend] if key in section}
    wrong = [key for key, value in values.items() if not isinstance(value, str) or not value.strip()]
    if wrong:
        raise DashboardError(f"{path}: [dashboard.{backend}] {', '.join(wrong)} must be a non-empty string")
    return values


def repository_asks(backend: str, settings) -> dict:
    """The credential keys the repository's config sets to something other than the default."""
    fields = type(settings).model_fields
    return {key: getattr(settings, key) for key in CREDENTIAL_FIELDS[backend]
            if getattr(settings, key) != fields[key].default}


def resolve(backend: str, root, settings) -> tuple:
    """(``settings`` with the user's credential keys in force, why nothing may be sent or None):
    refused when what is left of the repository's keys was not allowed for this repository."""
    try:
        user = user_values(backend)
    except DashboardError as exc:
        return settings, f"not contacted: {exc}"
    effective = settings.model_copy(update=user)
    asked = {key: value for key, value in repository_asks(backend, settings).items() if key not in user}
    if backend == "jira" and not effective.url:
        return effective, None  # no site at all: the backend says it needs one; nothing can be sent
    if asked and not _pinned(root, backend, asked):
        return effective, refusal(backend, asked)
    return effective, None


def describe(backend: str, asked: dict) -> str:
    """What the repository's keys do, in words: "the github token in $X goes to https://host"."""
    where = asked.get("api_url") or asked.get("url") or "https://api.github.com"
    names = [asked[key] for key in ("email_env", "token_env") if key in asked]
    held = f" in ${' and $'.join(names)}" if names else ""
    return f"the {backend} credential{held} goes to {where}"


def refusal(backend: str, asked: dict) -> str:
    return (f"not contacted: this repository's .cc-hooks.toml says {describe(backend, asked)}; "
            f"run `cc-hooks trust` to allow that here, or set [dashboard.{backend}] in {user_config_path()}")


def requests(config) -> dict:
    """{backend: the credential keys it asks for}, for every tracker whose keys the repository sets."""
    found = {name: repository_asks(name, getattr(config.dashboard, name)) for name in CREDENTIAL_FIELDS}
    return {name: asked for name, asked in found.items() if asked}


def _pinned(root, backend: str, asked: dict) -> bool:
    from cc_hooks import trust

    return trust.endpoints_pinned(root).get(backend) == asked


def _toml(text: str) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(str(exc)) from None
