"""What every handler needs first: the repository, its config, the stores."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from cc_hooks.runtime import HookContext

RECORD_FILES = ("SYMPTOMS.md", "DECISIONS.md", "next_steps.md", "COLDSTART_QUESTIONS.md")


@dataclass
class Project:
    root: Path
    config: object  # cc_hooks.config.Config
    config_problem: Optional[str]

    def missing_stores(self) -> list[str]:
        record = self.config.record
        names = [record.symptoms, record.decisions, record.default_dashboard, record.questions]
        return [name for name in names if not (self.root / name).is_file()]


def open_project(ctx: HookContext, budget_field: str) -> Optional[Project]:
    """The project the event happened in, with the deadline set from config;
    None (and a log line) outside a git repository."""
    from cc_hooks.config import load_config_or_default

    root = ctx.repo_root()
    if root is None:
        ctx.log("info", f"{ctx.cwd} is not inside a git repository")
        return None
    config, problem = load_config_or_default(root)
    if problem:
        ctx.log("warning", problem)
    ctx.deadline.reset(getattr(config.hooks, budget_field))
    return Project(root, config, problem)
