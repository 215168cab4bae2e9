"""The reader's positioned-read view behaves like the bytes it stands for, seams included."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from cc_hooks.transcript.reader import _FileView


class TinyChunks(_FileView):
    CHUNK = 7  # many seams in little data
    KEEP = 2


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(min_size=0, max_size=200),
    needle=st.sampled_from([b"\n", b"ab", b'"compact_boundary"', b"xyz", b"aaa"]),
    start=st.integers(-5, 210),
    end=st.integers(-5, 210),
)
def test_find_rfind_and_slices_match_bytes(tmp_path_factory, data, needle, start, end):
    data = data.replace(b"Q", needle)  # make hits likely
    path = tmp_path_factory.mktemp("view") / "t.jsonl"
    path.write_bytes(data)
    with open(path, "rb") as handle, TinyChunks(handle, len(data)) as view:
        lo, hi = max(0, start), min(len(data), max(0, end))
        assert view.find(needle, lo, hi) == data.find(needle, lo, hi)
        assert view.rfind(needle, lo, hi) == data.rfind(needle, lo, hi)
        assert view[lo:hi] == data[lo:hi]


def test_a_file_truncated_after_open_reads_short_instead_of_crashing(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"x" * 5000 + b"\n" + b"y" * 5000)
    with open(path, "rb") as handle:
        view = TinyChunks(handle, os.path.getsize(path))
        os.truncate(path, 10)
        assert view.find(b"\n") == -1 and view[0:100] == b"x" * 10
