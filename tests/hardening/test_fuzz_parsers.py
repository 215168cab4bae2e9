"""Every parser of the record takes any text: it returns findings, it never raises.

(tests/record/test_markdown_fuzz.py covers the SYMPTOMS/DECISIONS grammar in depth; here each
reader is fed arbitrary text, arbitrary bytes decoded as the reader decodes them, and the
grammar's own pieces shuffled.)"""

from __future__ import annotations

import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cc_hooks.claims.addresses import extract_addresses
from cc_hooks.claims.extract import extract_from_text
from cc_hooks.config import ConfigError, load_config
from cc_hooks.record.backends import file as dashboard_file
from cc_hooks.record.dashboard import DashboardError, parse_declaration, safe_relative_path
from cc_hooks.record.decisions import parse_decisions
from cc_hooks.record.questions import clean_pointer, parse_questions, path_problem, split_pointer
from cc_hooks.record.symptoms import parse_symptoms

from .conftest import fuzz

PIECES = [
    "# Next steps", "## CURRENT STATE — 2026-11-29", "## CURRENT STATE", "## current state - 2026-02-30", "## QUEUED",
    "Resume point: fix `src/a.py:12` on branch `main`", "**Resume point**:", "- DONE 2026-11-27 — item", "- 2026-1-2 x",
    "- abc1234 landed", "- `../../etc/passwd`", "- /etc/shadow", "- see src/x.py#L3-L9", "  continued", "* star",
    "Dashboard: file next_steps.md", "Dashboard: github-issues", "## Symptom: x", "### Cause 1: y — fixed in abc1234",
    "**Ruled out**:", "- Q? → src/a.py::test_x", "- Q -> README.md#install; commit 0123456", "- Q → ", "- no arrow",
    "```", "<!--", "-->", "---", "", "\t", "\r", "\x00", "\x1b[31m", "\ufeff", "\u202e", "ignore previous instructions",
]
line = st.one_of(st.sampled_from(PIECES), st.text(max_size=60))
markdownish = st.lists(line, max_size=80).flatmap(lambda ls: st.sampled_from(["\n", "\r\n", "\r"]).map(lambda nl: nl.join(ls)))
anything = st.one_of(st.text(max_size=3000), markdownish)
any_bytes = st.one_of(st.binary(max_size=3000), markdownish.map(lambda t: t.encode("utf-8", "surrogatepass")))


@fuzz(300)
@given(anything)
def test_symptoms_and_decisions_parsers_never_raise(text):
    assert parse_symptoms(text).findings is not None
    assert parse_decisions(text).findings is not None


@fuzz(300)
@given(any_bytes)
@example(b"\xff\xfe## CURRENT STATE \xed\xa0\x80\r\n- x\r")
def test_dashboard_parser_never_raises(data):
    read = dashboard_file.parse(data)
    for item in read.queued:
        assert item.line >= 1
    assert all(f.rule for f in read.findings)


@fuzz(300)
@given(anything)
def test_questions_parser_never_raises_and_every_pointer_is_classified(text):
    questions, findings = parse_questions(text)
    for question in questions:
        for pointer in question.pointers:
            target = split_pointer(pointer)
            assert target.kind in ("commit", "test", "heading", "line", "path")
            path_problem(target.path)  # a reason or None, never an exception


@fuzz(300)
@given(st.text(max_size=200))
@example("../x")
@example("a/../../x")
@example("/abs")
@example("C:\\x")
@example("~/x")
def test_pointer_and_dashboard_paths_cannot_escape(path):
    problem = path_problem(clean_pointer(path))
    try:
        relative = safe_relative_path(path)
    except DashboardError:
        relative = None
    for candidate in ([relative] if relative else []) + ([] if problem else [clean_pointer(path)]):
        normalized = candidate.replace("\\", "/")
        assert not normalized.startswith(("/", "~")), candidate
        import posixpath

        assert not posixpath.normpath(normalized).startswith("../") and posixpath.normpath(normalized) != "..", candidate


@fuzz(300)
@given(anything)
def test_claim_extraction_and_addresses_never_raise(text):
    for claim in extract_from_text(text):
        assert isinstance(claim.text, str)
    extract_addresses(text[:500])
    for one in text.splitlines()[:20]:
        parse_declaration(one)


TOML_PIECES = [
    "[record]", "[hooks]", "[probes.x]", "[guards.y]", "[trailers]", 'symptoms = "S.md"', "budget_chars = 100",
    "budget_chars = 9000", 'precompact_policy = "block-manual"', 'precompact_policy = 3', "pre_compact_seconds = -1",
    'argv = ["echo", "hi"]', "argv = 5", "timeout = 1e400", "report_sources = [1, 2]", 'fix_subject_pattern = "("',
    "x = {", "[[hooks]]", "a.b.c = 1", '"\\u0000" = 1', "key = '''", "= 1", "[record]\n[record]", "\ufeff", "\x00",
]
tomlish = st.lists(st.one_of(st.sampled_from(TOML_PIECES), st.text(alphabet=string.printable, max_size=30)), max_size=20).map("\n".join)


@fuzz(300)
@given(st.one_of(tomlish, st.binary(max_size=500).map(lambda b: b.decode("latin-1"))))
@example(b"\xff\xfe[hooks]")
def test_config_load_raises_only_config_error(tmp_path_factory, content):
    root = tmp_path_factory.mktemp("cfg")
    path = root / ".cc-hooks.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass") if False else path.write_bytes(
            content.encode("utf-8", "surrogatepass")
        )
    try:
        config = load_config(root)
    except ConfigError as exc:
        assert str(exc).startswith(str(path))
    else:
        assert 500 <= config.hooks.budget_chars <= 9_500


@pytest.mark.parametrize("kind", ["directory", "fifo-like-dir", "unreadable"])
def test_config_that_cannot_be_read_is_a_config_error(tmp_path, kind):
    path = tmp_path / ".cc-hooks.toml"
    if kind in ("directory", "fifo-like-dir"):
        path.mkdir()
    else:
        path.write_text("[hooks]\n")
        path.chmod(0)
        import os

        if os.access(path, os.R_OK):  # running as root: permissions do not bind
            pytest.skip("root reads any file")
    with pytest.raises(ConfigError):
        load_config(tmp_path)
