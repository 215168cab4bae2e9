"""Helpers for the transcript tests: real corpus copies and synthetic transcripts in real shape."""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid as uuidlib
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "transcripts"
CORPUS_332 = CORPUS.parent / "transcripts-2.1.332"


def corpus_transcripts() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*.jsonl") if p.name != "hook-payloads.jsonl")


@pytest.fixture
def corpus_copy(tmp_path: Path) -> list[Path]:
    """The real transcripts copied into ``tmp/projects/-home-dev-demo/``, made idle (old mtime)."""
    sources = corpus_transcripts()
    if not sources:
        pytest.skip(f"../shared/corpus not present: {CORPUS.resolve()}")
    folder = tmp_path / "projects" / "-home-dev-demo"
    folder.mkdir(parents=True)
    copies = []
    for source in sources:
        target = folder / source.name
        shutil.copyfile(source, target)
        age(target)
        copies.append(target)
    return copies


@pytest.fixture
def corpus_332_copy(tmp_path: Path) -> list[Path]:
    """The real 2.1.332 transcripts (attachments between a boundary and its summary), copied and idle."""
    sources = sorted(CORPUS_332.glob("*/*.jsonl"))
    if not sources:
        pytest.skip(f"../shared/corpus/transcripts-2.1.332 not present: {CORPUS_332.resolve()}")
    folder = tmp_path / "projects-332" / "-home-dev-demo"
    folder.mkdir(parents=True)
    copies = []
    for source in sources:
        target = folder / source.name
        shutil.copyfile(source, target)
        age(target)
        copies.append(target)
    return copies


def age(path: Path, seconds: float = 3600) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def line(record: dict) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


class Synth:
    """Writes a transcript line by line, chaining uuids like the CLI."""

    def __init__(self, session: str = "11111111-2222-3333-4444-555555555555", cwd: str = "/home/dev/demo"):
        self.session, self.cwd = session, cwd
        self.lines: list[str] = []
        self.parent = None
        self.n = 0

    def _env(self, kind: str, **extra) -> dict:
        self.n += 1
        record = {"parentUuid": self.parent, "isSidechain": False, "type": kind,
                  "uuid": str(uuidlib.UUID(int=self.n)), "timestamp": f"2026-01-01T00:00:{self.n % 60:02d}.000Z",
                  "sessionId": self.session, "cwd": self.cwd, "version": "2.1.197"}
        record.update(extra)
        self.parent = record["uuid"]
        self.lines.append(line(record))
        return record

    def user(self, content, **extra) -> dict:
        return self._env("user", message={"role": "user", "content": content}, **extra)

    def assistant(self, blocks: list, message_id: str | None = None) -> dict:
        return self._env("assistant", message={"id": message_id or f"msg_{self.n}", "role": "assistant",
                                               "type": "message", "content": blocks})

    def tool(self, name: str, tool_input: dict, result: str, is_error: bool = False, tool_use_result=None) -> None:
        tool_id = f"toolu_{self.n}"
        self.assistant([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}])
        self.user([{"type": "tool_result", "tool_use_id": tool_id, "content": result, "is_error": is_error}],
                  toolUseResult=tool_use_result if tool_use_result is not None else {"stdout": result})

    def meta(self, kind: str, **fields) -> None:
        self.lines.append(line({"type": kind, "sessionId": self.session, **fields}))

    def boundary(self, summary: str, preserved: list[str] | None = None, trigger: str = "auto") -> dict:
        logical = self.parent
        self.parent = None
        meta = {"trigger": trigger, "preTokens": 1000 + self.n}
        record = self._env("system", subtype="compact_boundary", content="Conversation compacted",
                           logicalParentUuid=logical, compactMetadata=meta)
        if preserved:
            meta["preservedMessages"] = {"anchorUuid": str(uuidlib.UUID(int=self.n + 1)), "uuids": preserved}
            self.lines[-1] = line(record)
        self.user("This session is being continued from a previous conversation that ran out of context. "
                  f"The summary below covers the earlier portion of the conversation.\n\nSummary:\n{summary}",
                  isCompactSummary=True, isVisibleInTranscriptOnly=True)
        return record

    def text(self) -> str:
        return "".join(self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path


def history(synth: Synth, turns: int, filler: int = 2000) -> None:
    """``turns`` of prompt, tool use and progress/snapshot noise, like a working session."""
    for i in range(turns):
        synth.meta("file-history-snapshot", messageId=f"m{i}", snapshot={"trackedFileBackups": {}},
                   isSnapshotUpdate=False)
        synth.user(f"prompt {i}")
        synth.meta("progress", data={"noise": "x" * filler})
        synth.tool("Bash", {"command": f"echo {i}"}, f"{i}\n" + "y" * filler)
        synth.assistant([{"type": "thinking", "thinking": "t" * 100, "signature": "s"}], f"msg_t{i}")
        synth.assistant([{"type": "text", "text": f"done {i}"}], f"msg_t{i}")
        synth.meta("last-prompt", lastPrompt=f"prompt {i}")
