"""Fuzz the settings merger with arbitrary settings JSON: merge then remove never loses a foreign
key or handler, merge is idempotent, and what load() refuses it refuses with SettingsError only."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from cc_hooks import settings

from .conftest import fuzz

COMMAND = settings.hook_command("project")
scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20))
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=10)
foreign_handler = st.fixed_dictionaries(
    {"type": st.sampled_from(["command", "prompt", "agent"]), "command": st.text(max_size=40)},
    optional={"timeout": st.integers(1, 600), "x-extra": value},
)
our_handler = st.sampled_from([
    {"type": "command", "command": COMMAND, "timeout": 30},
    {"type": "command", "command": "cc-hooks hook"},
    {"type": "command", "command": '"/opt/x/cc-hooks" hook', "timeout": 5},
])
group = st.fixed_dictionaries(
    {"hooks": st.lists(st.one_of(foreign_handler, our_handler), max_size=4)},
    optional={"matcher": st.sampled_from(["", "*", "auto", "manual", "startup|compact", "Bash"]), "x-group": value},
)
event_name = st.one_of(st.sampled_from(list(settings.EVENTS) + ["Stop", "PreToolUse", "SessionEnd"]), st.text(max_size=12))
settings_data = st.fixed_dictionaries(
    {},
    optional={
        "hooks": st.dictionaries(event_name, st.lists(group, max_size=3), max_size=5),
        "model": st.text(max_size=10),
        "permissions": value,
        "env": st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3),
    },
).flatmap(lambda d: st.dictionaries(st.text(max_size=10), value, max_size=3).map(lambda extra: {**extra, **d}))


def foreign_only(data: dict) -> dict:
    """The settings with every handler of ours removed by hand (the oracle). Empty containers
    (a ``hooks`` object or an event list with nothing in it) are not content: both sides drop them."""
    out = {k: v for k, v in data.items() if k != "hooks"}
    hooks = {}
    for event, groups in data.get("hooks", {}).items():
        kept = []
        for g in groups:
            handlers = g.get("hooks", [])
            foreign = [h for h in handlers if not settings.is_ours(h)]
            if foreign or not handlers or len(foreign) == len(handlers):
                kept.append({**g, "hooks": foreign} if "hooks" in g else g)
        if kept:
            hooks[event] = kept
    if hooks:
        out["hooks"] = hooks
    return out


def without_empty(data: dict) -> dict:
    hooks = {e: gs for e, gs in data.get("hooks", {}).items() if gs}
    return {**{k: v for k, v in data.items() if k != "hooks"}, **({"hooks": hooks} if hooks else {})}


@fuzz(300)
@given(settings_data)
def test_merge_then_remove_keeps_everything_foreign(data):
    merged, status = settings.merge(data, COMMAND)
    assert set(status) == set(settings.EVENTS)
    for key in data:
        if key != "hooks":
            assert merged[key] == data[key]
    removed, _ = settings.remove(merged)
    assert without_empty(removed) == foreign_only(data)


@fuzz(300)
@given(settings_data)
def test_merge_is_idempotent_and_installs_exactly_one_handler_per_event(data):
    once, _ = settings.merge(data, COMMAND)
    twice, status = settings.merge(once, COMMAND)
    assert twice == once and set(status.values()) == {"unchanged"}
    for event in settings.EVENTS:
        ours = [h for g in once["hooks"][event] for h in g.get("hooks", []) if settings.is_ours(h)]
        command = settings.prompt_command(COMMAND) if event == "UserPromptSubmit" else COMMAND  # the prompt gate first
        assert ours == [{"type": "command", "command": command, "timeout": settings.TIMEOUTS[event]}]


@fuzz(300)
@given(st.one_of(st.binary(max_size=300), value.map(lambda v: json.dumps(v).encode()), settings_data.map(lambda d: json.dumps(d).encode())))
def test_load_takes_any_bytes_and_only_raises_settings_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("s") / "settings.json"
    path.write_bytes(raw)
    try:
        loaded = settings.load(path)
    except settings.SettingsError as exc:
        assert str(path) in str(exc)
        return
    merged, _ = settings.merge(loaded.data, COMMAND)
    rendered = settings.render(loaded, merged)
    assert json.loads(rendered) == merged
