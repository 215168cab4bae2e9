"""`Dashboard: jira PROJ` against the loopback fake of Jira Cloud REST v3: every operation, every failure."""

from __future__ import annotations

import base64
import time

import pytest

from cc_hooks.record.backends import _adf
from cc_hooks.record.backends._tracker import STALE_RULE, UNREAD_RULE
from cc_hooks.record.dashboard import DashboardError, get_backend

from .conftest import JIRA_EMAIL, JIRA_TOKEN, declare, state_body
from .fakes import adf


def backend(repo, project="PROJ"):
    return get_backend("jira", repo, project)


def seed(fake, queue=("Add the parser", "Write the docs")):
    fake.add_issue("cc-hooks: current state", ["cc-hooks-state"], _adf.to_adf(state_body("2026-11-24", "Finish the parser", "Branch `main` is the trunk.")))
    return [fake.add_issue(title, ["cc-hooks-queue"], created=f"2026-11-2{i}T09:00:00.000+0000") for i, title in enumerate(queue, 1)]


def messages(read, rule=None):
    return [f.message for f in read.findings if rule is None or f.rule == rule]


def test_read_uses_the_enhanced_search_with_basic_auth(jira_repo, jira):
    keys = seed(jira)
    jira.add_issue("Finished long ago", ["cc-hooks-queue"], done=True)
    jira.add_issue("Not ours", ["other-label"])
    read = backend(jira_repo).read()
    assert read.state.date == "2026-11-24" and read.state.resume_point.text == "Finish the parser"
    assert [c.text for c in read.state.claims][1] == "Branch `main` is the trunk."
    assert [(q.date, q.text) for q in read.queued] == [("2026-11-21", f"{keys[0]} Add the parser"), ("2026-11-22", f"{keys[1]} Write the docs")]
    (search,) = jira.requests
    assert (search.method, search.path) == ("POST", "/rest/api/3/search/jql")
    assert search.body["jql"] == 'project = "PROJ" AND labels in ("cc-hooks-state", "cc-hooks-queue") AND statusCategory != Done ORDER BY created ASC'
    assert set(search.body["fields"]) >= {"summary", "labels", "created", "description"}
    assert search.headers["authorization"] == "Basic " + base64.b64encode(f"{JIRA_EMAIL}:{JIRA_TOKEN}".encode()).decode()


def test_three_pages_through_next_page_token(jira_repo, jira):
    jira.page_cap = 2
    titles = [f"Item {n}" for n in range(1, 6)]
    seed(jira, queue=titles)
    read = backend(jira_repo).read()
    assert [q.text.split(" ", 1)[1] for q in read.queued] == titles
    tokens = [r.body.get("nextPageToken") for r in jira.seen("POST", "search/jql")]
    assert tokens == [None, "tok-1", "tok-2"]


def test_the_removed_search_endpoint_is_never_called(jira_repo, jira):
    seed(jira)
    backend(jira_repo).read()
    assert not jira.seen(path_re=r"/rest/api/\d/search$")


def test_410_gone_is_reported_not_raised(jira_repo, jira):
    from .fakes import REMOVED

    jira.fail_with(410, REMOVED)
    read = backend(jira_repo).read()
    message = messages(read, UNREAD_RULE)[0]
    assert "410 gone" in message and "The requested API has been removed" in message


def test_an_adf_description_edited_in_jira_still_reads(jira_repo, jira):
    description = {"type": "doc", "version": 1, "content": [
        {"type": "heading", "attrs": {"level": 2}, "content": [{"type": "text", "text": "CURRENT STATE — 2026-11-26"}]},
        {"type": "paragraph", "content": [{"type": "text", "text": "Resume point: "}, {"type": "text", "text": "ship it", "marks": [{"type": "strong"}]}]},
        {"type": "bulletList", "content": [{"type": "listItem", "content": [{"type": "paragraph", "content": [
            {"type": "text", "text": "Landed in "}, {"type": "text", "text": "abc1234", "marks": [{"type": "code"}]}]}]}]},
    ]}
    jira.add_issue("cc-hooks: current state", ["cc-hooks-state"], description)
    read = backend(jira_repo).read()
    assert read.state.date == "2026-11-26"
    assert [c.text for c in read.state.claims] == ["ship it", "Landed in `abc1234`"]


def test_update_creates_then_rewrites_the_description_in_adf(jira_repo, jira):
    b = backend(jira_repo)
    b.update("Start the lexer", ["Nothing landed yet."], date="2026-11-30")
    (created,) = jira.seen("POST", r"/rest/api/3/issue$")
    fields = created.body["fields"]
    assert fields["project"] == {"key": "PROJ"} and fields["labels"] == ["cc-hooks-state"] and fields["issuetype"] == {"name": "Task"}
    assert fields["description"]["type"] == "doc" and fields["description"]["content"][0]["type"] == "heading"
    b.update("Parser next", [], date="2026-12-01")
    (put,) = jira.seen("PUT", r"/rest/api/3/issue/PROJ-1$")
    assert put.body["fields"]["description"]["type"] == "doc"
    assert backend(jira_repo).read().state.resume_point.text == "Parser next"


def test_queue_and_close_through_a_done_transition(jira_repo, jira):
    b = backend(jira_repo)
    item = b.queue("Add a regression test", date="2026-11-28")
    assert item.text == "PROJ-1 Add a regression test"
    assert [q.date for q in b.read().queued] == ["2026-11-28"]
    b.close("PROJ-1", commits=["abc1234"])
    assert jira.issues["PROJ-1"]["fields"]["status"]["statusCategory"]["key"] == "done"
    (posted,) = jira.seen("POST", "transitions$")
    assert posted.body == {"transition": {"id": "31"}}  # the one into the Done category, not the first listed
    assert "abc1234" in str(jira.comments["PROJ-1"][0])
    assert b.read().queued == []


def test_close_without_a_done_transition_says_what_is_available(jira_repo, jira, monkeypatch):
    from . import fakes

    seed(jira)
    monkeypatch.setattr(fakes, "TRANSITIONS", fakes.TRANSITIONS[:2])
    with pytest.raises(DashboardError, match=r"no transition into a Done-category status \(available: Back to do, Start\)"):
        backend(jira_repo).close("PROJ-2", commits=["abc1234"])


def test_missing_credentials_name_both_variables(jira_repo, jira, monkeypatch):
    monkeypatch.delenv("JIRA_API_TOKEN")
    read = backend(jira_repo).read()
    assert "set JIRA_EMAIL and JIRA_API_TOKEN" in messages(read, UNREAD_RULE)[0]
    assert jira.requests == []


def test_missing_url_is_one_clear_line(git_repo, jira):
    declare(git_repo, "Dashboard: jira PROJ")
    read = backend(git_repo).read()
    assert "needs `url` in `[dashboard.jira]`" in messages(read, UNREAD_RULE)[0]


def test_401(jira_repo, jira, monkeypatch):
    monkeypatch.setenv("JIRA_API_TOKEN", "wrong")
    message = messages(backend(jira_repo).read(), UNREAD_RULE)[0]
    assert "HTTP 401 unauthorized" in message and "set JIRA_EMAIL and JIRA_API_TOKEN" in message


def test_429_with_retry_after_is_not_retried(jira_repo, jira):
    seed(jira)
    backend(jira_repo).read()
    jira.fail_with(429, {"errorMessages": ["Rate limit exceeded."]}, {"Retry-After": 30})
    read = backend(jira_repo).read()
    assert "rate limited (HTTP 429)" in messages(read, STALE_RULE)[0]
    count = len(jira.requests)
    backend(jira_repo).read()
    assert len(jira.requests) == count


def test_unknown_project(git_repo, jira):
    declare(git_repo, "Dashboard: jira NOPE", f'[dashboard.jira]\nurl = "{jira.url}"\n')
    message = messages(backend(git_repo, "NOPE").read(), UNREAD_RULE)[0]
    assert "project NOPE not found" in message


def test_404(jira_repo, jira):
    jira.fail_with(404, {"errorMessages": ["Not found"]})
    assert "project PROJ not found" in messages(backend(jira_repo).read(), UNREAD_RULE)[0]


def test_500_falls_back_to_the_last_good_read(jira_repo, jira):
    seed(jira)
    backend(jira_repo).read()
    jira.fail_with(500, {"errorMessages": ["Internal server error"]})
    read = backend(jira_repo).read()
    assert "jira PROJ unreachable: HTTP 500" in messages(read, STALE_RULE)[0]
    assert len(read.queued) == 2


def test_timeout(jira_repo, jira):
    jira.delay = 3
    start = time.monotonic()
    read = backend(jira_repo).read(timeout=0.4)
    assert time.monotonic() - start < 1.5 and not read.exists


def test_answer_after_the_budget(jira_repo, jira):
    seed(jira)
    jira.drip = 0.05
    start = time.monotonic()
    read = backend(jira_repo).read(timeout=0.5)
    assert time.monotonic() - start < 1.5 and not read.exists


def test_malformed_json(jira_repo, jira):
    jira.malformed = True
    assert "malformed JSON" in messages(backend(jira_repo).read(), UNREAD_RULE)[0]


def test_a_search_answer_without_issues_is_malformed(jira_repo, jira):
    jira.fail_with(200, {"unexpected": True})
    assert "malformed answer" in messages(backend(jira_repo).read(), UNREAD_RULE)[0]


def test_adf_round_trip():
    text = state_body("2026-11-24", "Resume here", "one", "two `x`")
    assert _adf.to_text(_adf.to_adf(text)) == text
    assert _adf.to_text(adf("a", "b")) == "a\nb\n"
    assert _adf.to_text(None) == "\n" or _adf.to_text(None) == ""
