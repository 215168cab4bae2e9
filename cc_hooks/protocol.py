"""Claude Code hook I/O as tolerant pydantic models.

Inputs keep unknown fields (``extra="allow"``) and accept unknown enum values
(Claude Code adds sources, triggers and fields every few weeks): ``source`` and
``trigger`` are plain strings, and the known values are listed for reference.
Outputs only carry what each event honours (``../shared/docs/claude-code-platform.md`` §3):

- SessionStart / UserPromptSubmit: JSON with ``hookSpecificOutput.additionalContext``
  (+ ``systemMessage``);
- PreCompact: plain stdout text (appended to the summarizer's instructions), or
  exit 2 with stderr to block; never ``hookSpecificOutput``;
- PostCompact: plain stdout, shown to the user only; never ``hookSpecificOutput``.
"""

# No `from __future__ import annotations`: pydantic would then evaluate every field annotation from a string.

import json
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from cc_hooks.hook_result import HookResult
from cc_hooks.printable import clean, printable

KNOWN_SOURCES = ("startup", "resume", "clear", "compact", "fork")
KNOWN_TRIGGERS = ("manual", "auto")
OUTPUT_CAP_CHARS = 10_000  # Claude Code spills longer hook output to a file
VISIBLE_LINE_CHARS = 300  # a systemMessage is one line on the person's screen: about two terminal rows
DEFAULT_BUDGET_CHARS = 6_000


class HookInput(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    hook_event_name: str
    session_id: str = ""
    transcript_path: Optional[str] = None
    cwd: Optional[str] = None
    prompt_id: Optional[str] = None
    permission_mode: Optional[str] = None
    agent_id: Optional[str] = None
    agent_type: Optional[str] = None


class PreCompactInput(HookInput):
    trigger: str = "manual"
    custom_instructions: Optional[str] = None


class PostCompactInput(HookInput):
    trigger: str = "manual"
    compact_summary: Optional[str] = None


class SessionStartInput(HookInput):
    source: str = "startup"
    model: Optional[str] = None
    session_title: Optional[str] = None
    # Resume fields added by CLI 2.1.332.
    context_tokens: Optional[int] = None
    estimated_cache_write_usd: Optional[float] = None
    prompt_cache_likely_expired: Optional[bool] = None
    seconds_since_last_response: Optional[float] = None


class UserPromptSubmitInput(HookInput):
    prompt: str = ""
    session_title: Optional[str] = None


INPUT_MODELS: dict[str, type[HookInput]] = {
    "PreCompact": PreCompactInput,
    "PostCompact": PostCompactInput,
    "SessionStart": SessionStartInput,
    "UserPromptSubmit": UserPromptSubmitInput,
}


def parse_input(data: dict[str, Any]) -> HookInput:
    """The model for ``data``'s event; unknown events get the common model."""
    model = INPUT_MODELS.get(str(data.get("hook_event_name")), HookInput)
    return model.model_validate(data)


class _Specific(BaseModel):
    model_config = ConfigDict(defer_build=True)

    additionalContext: str


class SessionStartSpecific(_Specific):
    hookEventName: Literal["SessionStart"] = "SessionStart"


class UserPromptSubmitSpecific(_Specific):
    hookEventName: Literal["UserPromptSubmit"] = "UserPromptSubmit"


class ContextOutput(BaseModel):
    model_config = ConfigDict(defer_build=True)

    hookSpecificOutput: SessionStartSpecific | UserPromptSubmitSpecific
    systemMessage: Optional[str] = Field(default=None)


def truncate(text: str, budget: int, pointer: str = "run `cc-hooks rehydrate` for the rest") -> str:
    """Cut ``text`` at a line boundary so the result fits ``budget`` characters."""
    budget = max(200, min(budget, OUTPUT_CAP_CHARS - 200))
    if len(text) <= budget:
        return text
    cut_note = f"\n[cut to the {budget}-character budget; {pointer}]"
    room = budget - len(cut_note)
    head = text[:room]
    newline = head.rfind("\n")
    if newline > room // 2:
        head = head[:newline]
    return head + cut_note


def session_start_output(context: str, system_message: str | None, budget: int) -> HookResult:
    out = ContextOutput.model_construct(
        hookSpecificOutput=SessionStartSpecific.model_construct(additionalContext=truncate(printable(context), budget)),
        systemMessage=visible_line(system_message) if system_message else None,
    )
    return HookResult(stdout=constructed_json(out))


def user_prompt_submit_output(context: str, budget: int, system_message: str | None = None) -> HookResult:
    out = ContextOutput.model_construct(
        hookSpecificOutput=UserPromptSubmitSpecific.model_construct(additionalContext=truncate(printable(context), budget)),
        systemMessage=visible_line(system_message) if system_message else None,
    )
    return HookResult(stdout=constructed_json(out))


def constructed_json(model: BaseModel) -> str:
    """``model.model_dump_json(exclude_none=True)`` of a model our own code built with ``model_construct``
    from strings: the fields in the model's order, None left out. Building the output models' serializer
    (their pydantic schema) costs more than the rest of writing a SessionStart's answer."""
    return dumps_compact(_constructed_data(model))


def _constructed_data(model: BaseModel) -> dict[str, Any]:
    data = {}
    for name in type(model).model_fields:
        value = getattr(model, name)
        if value is not None:
            data[name] = _constructed_data(value) if isinstance(value, BaseModel) else value
    return data


def visible_line(text: str, limit: int = VISIBLE_LINE_CHARS) -> str:
    """``text`` as the one line a person sees (``systemMessage``): printable, on one line, cut with "…"."""
    line = clean(text)
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def pre_compact_output(instructions: str, budget: int) -> HookResult:
    """Plain text: Claude Code appends it to the summarizer's instructions."""
    text = truncate(printable(instructions).strip(), budget, pointer="run `cc-hooks check` for every finding")
    if text.startswith("{"):
        text = " " + text  # never let it be read as a JSON control object
    return HookResult(stdout=text)


def pre_compact_block(reason: str) -> HookResult:
    """Exit 2 blocks a compaction; stderr becomes the reason the user sees."""
    return HookResult(stderr=truncate(printable(reason).strip(), 2_000, pointer="run `cc-hooks check`"), exit_code=2)


def post_compact_output(line: str) -> HookResult:
    """PostCompact stdout is shown to the user only."""
    return HookResult(stdout=truncate(printable(line).strip(), 500, pointer="see `cc-hooks rehydrate`"))


def dumps_compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
