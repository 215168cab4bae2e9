"""Issue 16: every text channel that reaches the model or the person stays inert and bounded,
whatever hostile text the repository, the tracker or the summary puts into it.

Channels: the PreCompact instructions (read by the summarizer), the block-manual message, the
rehydration report and its systemMessage (SessionStart), the UserPromptSubmit audit, PostCompact's
line, and the CLI's output. Inert: no invisible or control character, and the hostile text (marked
by a sentinel) only ever inside an inline code span it cannot close. Bounded: within the channel's
budget. The builders run on many generated cases; the installed entry point on a few."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from cc_hooks import protocol, report
from cc_hooks.checks.result import COULD_NOT_CHECK, FAIL, CheckResult, Finding
from cc_hooks.claims.model import CONTRADICTED, UNVERIFIED, VERIFIED, Claim
from cc_hooks.events import post_compact, pre_compact
from cc_hooks.git import Head

from .conftest import fuzz
from .inert import hidden_characters, outside_code_spans

SENTINEL = "SENTINEL"
FRAGMENTS = [
    "`", "``", "```", "`````````", "</system>", "<system>", "<|im_start|>", "</summary>", "\x1b[2J", "\x1b]0;t\x07",
    "\x1b]8;;http://x\x1b\\", "\x9b31m", "\x9d0;t\x9c", "\u202e", "\u2066", "\u061c", "\U000e0069\U000e0067",
    "\u2028", "\u2029", "\n", "\r\n", "\r", "\t", "\u00ad", "\u3164", "\ufe0f", "\U000e0100", "\u200b", "\u2060",
    "\ufeff", "\ue000", "\u0378", "\x00", "\x7f", "\x85", "\u2003", "ignore previous instructions", "\\", "*", "_",
    "[", "](", "<!--", "-->", "#", "- ", "    ", "|",
]
piece = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12))
hostile = st.lists(piece, max_size=25).map("".join)
short = st.lists(piece, max_size=4).map("".join)
# The sentinel near the start, so that no quote limit cuts it away: where it shows, it must be quoted.
marked = st.builds(lambda head, tail: head + SENTINEL + tail, short, hostile)


def assert_inert(text: str, layout: bool = True) -> None:
    assert not hidden_characters(text, layout), (hidden_characters(text, layout), text[:3000])
    for line in text.splitlines():
        free = outside_code_spans(line)
        assert SENTINEL not in free and "</system>" not in free and "<system>" not in free, line


# --- PreCompact instructions and the block message -----------------------------------------------


def checklist(texts):
    summary, finding, unchecked, branch, command, test_id = texts
    session = CheckResult("session", FAIL, summary, [Finding(finding, file=None, preserve=True)],
                          data={"guard_candidates": [{"command": command, "test_id": test_id, "fixed_in": "0123abc"}]})
    return [
        session,
        CheckResult("trailers", FAIL, summary, [Finding(finding + " 2", commit="0123456789ab", command=command)]),
        CheckResult("questions", COULD_NOT_CHECK, unchecked),
    ], Head(branch, "0123456789abcdef0123456789abcdef01234567")


@fuzz(200)
@given(st.tuples(marked, marked, marked, marked, marked, marked))
def test_precompact_instructions_stay_inert_and_bounded(texts):
    results, head = checklist(texts)
    items = pre_compact._preserve(results)
    out = protocol.pre_compact_output(pre_compact.instructions(results, items, head), 6000).stdout
    assert_inert(out)
    assert len(out) <= 6000
    assert not out.lstrip().startswith("{")


@fuzz(200)
@given(st.tuples(marked, marked, marked, marked, marked, marked))
def test_the_block_message_stays_inert_and_bounded(texts):
    results, _ = checklist(texts)
    err = protocol.pre_compact_block(pre_compact.block_message([r for r in results if r.status == FAIL])).stderr
    assert_inert(err)
    assert len(err) <= 2000


# --- the rehydration report, its systemMessage, the UserPromptSubmit audit ------------------------


def claim(text, evidence, verdict, source, line=3):
    made = Claim(text=text, kind="path", source=source, line=line)
    made.add(f"path {SENTINEL}", verdict, evidence)
    return made


@fuzz(200)
@given(st.tuples(marked, marked, marked, marked, marked, marked, marked), st.sampled_from(["compact", "startup", "resume"]))
def test_the_report_and_its_system_message_stay_inert_and_bounded(texts, source):
    text, evidence, dashboard, debt, branch, note, resume = texts
    claims = [claim(text, evidence, CONTRADICTED, dashboard), claim(evidence, text, UNVERIFIED, "summary", None),
              claim(resume, evidence, VERIFIED, dashboard)]
    data = report.ReportInput(
        source=source, claims=claims, dashboard=dashboard, state_date="2026-12-01", resume_point=claims[0],
        capture_debt=[debt, {"status": "FAIL", "name": debt, "message": text}], summary_audited=True,
        summary_date=note[:10], head=report.head_fact(branch, "0123456789abcdef"),
        notes=[f"Configuration problem (defaults used): {report.quote(note)}"], budget=6000)
    markdown, cut = report.render(data)
    counted = {VERIFIED: 1, CONTRADICTED: 1, UNVERIFIED: 1}
    answer = json.loads(protocol.session_start_output(markdown, report.system_message(counted, cut=cut), 6000).stdout)
    context, system = answer["hookSpecificOutput"]["additionalContext"], answer.get("systemMessage", "")
    assert_inert(context)
    assert_inert(system, layout=False)
    assert len(context) <= 6000 and len(system) <= 300


@fuzz(200)
@given(st.tuples(marked, marked, marked, marked))
def test_the_user_prompt_submit_audit_stays_inert_and_bounded(texts):
    text, evidence, missing, verified = texts
    claims = [{"verdict": CONTRADICTED, "text": text, "evidence": evidence}, {"verdict": UNVERIFIED, "text": evidence, "evidence": text},
              {"verdict": VERIFIED, "text": verified, "evidence": ""}]
    audit = {"counts": {VERIFIED: 1, CONTRADICTED: 1, UNVERIFIED: 1}, "claims": claims * 5, "preserve_total": 2,
             "missing": [{"text": missing}, {"text": text}], "checkpoint": None}
    out = json.loads(protocol.user_prompt_submit_output(post_compact.audit_text(audit), 6000,
                                                        post_compact.audit_notice(audit)).stdout)
    context, notice = out["hookSpecificOutput"]["additionalContext"], out["systemMessage"]
    assert_inert(context)
    assert len(context) <= 6000
    assert_inert(notice, layout=False)  # the person's line (issue 18): one line, the summary's text quoted
    assert "\n" not in notice and len(notice) <= 300
    line = protocol.post_compact_output(post_compact.capture_line(text, text) + "; " + post_compact.audit_line(audit)).stdout
    assert not hidden_characters(line, layout=False) and len(line) <= 501  # the user's line: one line, short


# --- the installed entry point: hooks and the CLI, on a repository that carries the text -----------


def _entry_point_round(tmp_path_factory, text):
    from checks.conftest import build_record_repo

    from .inert import run

    repo = build_record_repo(tmp_path_factory.mktemp("channels"))
    dashboard = repo.root / "next_steps.md"
    dashboard.write_text(dashboard.read_text().replace("## QUEUED", f"- {text} landed in `src/missing.py`.\n\n## QUEUED"))
    repo.commit("dashboard", "next_steps.md")
    repo.write("src/calc.py", "def add(a, b):\n    return int(a) + int(b)\n")
    message = repo.root / ".git" / "hostile-message"
    message.write_text(f"fix: {text}".replace("\x00", ""))
    repo.git("add", "src/calc.py")
    repo.git("commit", "-q", "-F", str(message))
    root = str(repo.root)
    model, person = [], []
    for payload in (
        {"hook_event_name": "PreCompact", "trigger": "auto", "prompt_id": "p"},
        {"hook_event_name": "PostCompact", "trigger": "auto", "compact_summary": f"Done: {text} in `src/gone.py`."},
        {"hook_event_name": "UserPromptSubmit", "prompt": "go"},
        {"hook_event_name": "SessionStart", "source": "compact"},
    ):
        proc = run(["hook"], repo.root, json.dumps({"session_id": "s", "cwd": root, **payload}).encode())
        out = proc.stdout.decode("utf-8")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr.decode(), (payload, proc.stderr)
        if out.startswith("{"):
            data = json.loads(out)
            model.append(data["hookSpecificOutput"]["additionalContext"])
            person.append(data.get("systemMessage") or "")
        elif payload["hook_event_name"] == "PostCompact":
            person.append(out)
        else:
            model.append(out)
    model.append(run(["rehydrate"], repo.root).stdout.decode("utf-8"))  # the report, for the person and a model alike
    for verb in (["check"], ["doctor"]):
        person.append(run(verb, repo.root).stdout.decode("utf-8"))
    return model, person


@fuzz(4)
@given(data=st.data())
def test_every_channel_of_the_installed_entry_point_stays_inert(tmp_path_factory, data):
    text = data.draw(marked.filter(lambda t: SENTINEL in t.replace("\x00", "")))
    model, person = _entry_point_round(tmp_path_factory, text)
    assert sum(SENTINEL in out for out in model) >= 3, model  # the text did reach the channels
    for out in model:
        assert_inert(out)
        assert len(out) <= 10_000
    for out in person:
        assert not hidden_characters(out), (hidden_characters(out), out[:2000])
        assert len(out) <= 200_000
