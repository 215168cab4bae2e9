"""The fast path of test-pointer resolution agrees with the definition regex it short-cuts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cc_hooks.record.questions import _definition_end, _definition_re

WORDS = ["def", "async def", "class", "function", "fn", "func", "sub", "it(", "test(", "describe(", "x", "#", "'", '"',
         "`", "(", ")", ":", " ", "  ", "\n", "\n\n", "\t", "_", "1", "test_a", "test_a1", "a_b", "ab"]
NAMES = ["test_a", "test_a1", "a_b", "ab", "test", "a", "_", "x1", "t(", "test_a1b"]


def regex_end(text: str, name: str, position: int):
    match = _definition_re(name).search(text, position)
    return match.end() if match else None


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from(NAMES), st.integers(0, 40))
def test_fast_path_matches_the_regex(parts, name, position):
    text = "".join(parts)
    position = min(position, len(text))
    assert _definition_end(text, name, position) == regex_end(text, name, position)


def test_definitions_found_and_missed_in_a_big_file():
    text = "".join(f"def test_recycle_{i}():\n    assert True\n\n\n" for i in range(300))
    assert _definition_end(text, "test_recycle_29", 0) == text.index("test_recycle_29(") + len("test_recycle_29")
    assert _definition_end(text, "test_recycle_2", 0) == text.index("test_recycle_2(") + len("test_recycle_2")
    assert _definition_end(text, "test_recycle_300", 0) is None
    assert _definition_end(text, "test_recycle_1", text.index("test_recycle_2(")) is None  # only before position
