"""Addresses: the parts of a sentence that make it checkable.

An address is a commit SHA, a branch (or other ref) name, a path (``path`` or
``path:line``), an issue reference (``#123``, ``KEY-123``) or a probe
(``(probe: NAME)``). The rules are deliberately conservative, because every
address becomes a check and a wrong address becomes a false contradiction:

- text in backticks is an address when it has the shape of one (a hex string
  of 7-40 characters, a path, ``#123``); code such as `add()` is not;
- outside backticks a SHA needs a digit and a letter (``deadbeef`` counts only
  after "commit"/"sha"), a path needs a slash plus an extension or a known
  source extension, and a branch needs a git cue ("branch x", "merged into x",
  "rebased onto x", never a bare "onto": "map requests onto pre-determined responses")
  and the shape of a branch name (``main``, ``fix-login``, ``feature/x``,
  ``v1.2``), so the English word after the cue ("this branch holds the
  work", "merged into production") is never taken for one;
- a backticked name with a slash and no extension (`fix/refresh`) is a
  ``name``: the verifier accepts it as a ref or as a path, whichever exists.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Optional

from cc_hooks.claims.address import BRANCH, NAME, PATH, PROBE, REF, SHA, Address  # noqa: F401 (re-exported)
from cc_hooks.code_spans import blank_spans, code_spans


KNOWN_EXTENSIONS = frozenset(
    """py pyi md rst txt toml yaml yml json jsonl ini cfg lock sh bash zsh fish ps1 bat c h cc cpp hpp cxx
    rs go java kt kts scala swift m mm rb php pl lua r js mjs cjs ts tsx jsx vue svelte css scss sass less
    html htm xml svg ex exs erl hrl heex eex leex clj cljs edn hs ml mli fs fsx cs vb dart zig nim sql
    proto graphql gql tf hcl dockerfile mk cmake gradle csv tsv ipynb tex bib adoc org env conf service
    nix el vim patch diff log gemspec podspec nuspec csproj sln props rake ru erb haml slim rdoc textile
    properties bazel bzl jsonc json5 mdx gz tgz bz2 xz zip jar war whl tar pom plist""".split()
)
_STOP_NAMES = frozenset(
    "a an the this that it its is was are to and or of in on at for with from not no main's branch branches".split()
)
# `text/plain`, `application/json`: media types, not paths or branches.
_MEDIA_TYPES = frozenset("text application image audio video font multipart message model".split())
_NOT_KEYS = frozenset("UTF SHA ISO RFC CVE MD5 HTTP TLS SSL AES RSA GPT UTC GMT".split())

_PROBE_RE = re.compile(r"\(\s*probe:\s*([A-Za-z0-9_.-]+)\s*\)", re.IGNORECASE)
_HEX_RE = re.compile(r"[0-9a-fA-F]{7,40}")
_SHORT_HEX_RE = re.compile(r"[0-9a-fA-F]{4,6}")  # git accepts 4+ digits; short ones need a digit and a letter, or a cue
_PLAIN_SHORT_SHA_RE = re.compile(r"\b(?:commit|sha|revision|rev)\s+([0-9a-f]{4,6})\b", re.IGNORECASE)
_PLAIN_SHA_RE = re.compile(r"(?<![\w/.:#-])([0-9a-f]{7,40})(?![\w/-])")
_SHA_CUE_RE = re.compile(r"\b(?:commit|commits|sha|revision|rev)\s*", re.IGNORECASE)
# An all-digit short sha (1 in 27 of 7-digit ones) only right after "commit"/"sha": "revision 1234567"
# is as likely another system's revision number.
_DIGIT_SHA_CUE_RE = re.compile(r"\b(?:commit|commits|sha)\s*", re.IGNORECASE)
_PATH_CHARS = r"[\w.@+~-]"
_PATH_RE = re.compile(rf"^(\.{{0,2}}/)?{_PATH_CHARS}+(/{_PATH_CHARS}+)*/?(?::(\d+)(?:-(\d+))?)?$")
_PLAIN_PATH_RE = re.compile(rf"(?<![\w/.@:-])((?:\.{{0,2}}/)?{_PATH_CHARS}+(?:/{_PATH_CHARS}+)*)(?::(\d+)(?:-(\d+))?)?")
_EXT_RE = re.compile(r"\.([A-Za-z][A-Za-z0-9]{0,9})$")
_DOTFILE_RE = re.compile(r"\.[a-z][a-z0-9-]*(?:ignore|rc|config|attributes|modules|env|keep|mailmap|version|lint)")
_ISSUE_RE = re.compile(r"(?<![\w&/#])#(\d{1,7})\b")
_KEY_RE = re.compile(r"\b([A-Z][A-Z0-9]{1,9}-\d{1,7})\b")
_BRANCH_CUE_RE = re.compile(
    r"\b(?:branch(?:es)?|tag(?:s|ged)?(?:\s+as)?|(?:first\s+)?(?:released|shipped|published)\s+(?:first\s+)?in|on\s+branch|(?:merged?|rebased?|landed|pushed)\s+(?:in)?to|(?:rebas(?:e|ed|ing)|cherry-picked)\s+(?:\S+\s+){0,2}onto|rebased\s+on)\s*",
    re.IGNORECASE,
)
_VERSION_TAG_RE = re.compile(r"(?:[A-Za-z][\w.]*[-_])?v?\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)?")
_IN_RELEASE_CUE_RE = re.compile(r"\b(?:is|are|was|were|went\s+out|went|made\s+it|got|only|also|already|contained|included)\s+"
                                r"(?:not\s+)?(?:already\s+|also\s+|only\s+)?(?:in|into|part\s+of)\s+(?:the\s+)?", re.IGNORECASE)
_BRANCH_AFTER_RE = re.compile(r"\s+branch(?:es)?\b", re.IGNORECASE)
_ON_CUE_RE = re.compile(r"\b(?:on|from|into)\s*", re.IGNORECASE)
_COMMON_BRANCHES = frozenset("main master develop dev trunk next stable".split())
_CODE_BRANCHES = frozenset("if else elif elsif except catch try finally case switch when then otherwise unless".split())
_BARE_FILES = frozenset(
    "Makefile GNUmakefile Dockerfile Containerfile Procfile Gemfile Rakefile Justfile Vagrantfile Pipfile "
    "LICENSE LICENCE COPYING NOTICE AUTHORS CODEOWNERS CONTRIBUTING README CHANGELOG CHANGES".split()
)
_HEX_WORDS = frozenset("dead beef cafe face fade bead deaf feed babe bade abbe added faded decade facade accede deface efface beaded".split())
_SHORT_SHA_CUE_RE = re.compile(r"\b(?:is|in|at|was|fix(?:ed)?\s+in|landed\s+in|commit|sha)\s*", re.IGNORECASE)
_PLAIN_BRANCH_RE = re.compile(
    r"\b(?:branch|(?:merged?|rebased?|landed|pushed)\s+(?:in)?to|(?:rebas(?:e|ed|ing)|cherry-picked)\s+(?:\S+\s+){0,2}onto) (?![\s`])([A-Za-z0-9][\w./-]*[\w/-]|[A-Za-z0-9])",
    re.IGNORECASE,
)


def extract_addresses(text: str) -> list[Address]:
    """Every address in one line of text, in order of appearance, without duplicates."""
    return list(_addresses(text))


@lru_cache(maxsize=512)
def _addresses(text: str) -> tuple[Address, ...]:
    """Remembered per line: one hook asks for a line's addresses from several checks."""
    found: list[tuple[int, Address]] = []
    for match in _PROBE_RE.finditer(text):
        found.append((match.start(), Address(PROBE, match.group(1))))
    text = _PROBE_RE.sub(lambda m: " " * len(m.group(0)), text)
    spans, cues = code_spans(text), _Cues(text)
    for span in spans:
        token = span.token
        if _BRANCH_AFTER_RE.match(text, span.end) and token in _CODE_BRANCHES:
            continue  # "in the ``if`` branch (when the function returns ``True``)": a branch of the code
        if _BRANCH_AFTER_RE.match(text, span.end) and _is_ref_name(token):  # "the `3.0` branch"
            found.append((span.start, Address(BRANCH, token, quoted=True)))
            continue
        address = _classify_span(token, cues, span.start)
        if address is not None:
            found.append((span.start, replace(address, quoted=True)))
    plain = blank_spans(text, spans)
    found.extend(_plain_addresses(plain, _Cues(plain)))
    found.sort(key=lambda pair: pair[0])
    return tuple(dict.fromkeys(address for _, address in found))


class _Cues:
    """Where a cue word ("commit", "branch", "merged into", ...) and the blanks after it end in one
    line: a token starting there is cued. One pass of each cue pattern over the line, made the
    first time it is asked, so many tokens cost linear time (searching ``cue\\s*$`` in the text
    before each token was quadratic in their number)."""

    def __init__(self, text: str):
        self.text = text
        self._ends: dict = {}

    def before(self, pattern: "re.Pattern[str]", position: int) -> bool:
        ends = self._ends.get(pattern)
        if ends is None:
            ends = self._ends[pattern] = {match.end() for match in pattern.finditer(self.text)}
        return position in ends


def _classify_span(token: str, cues: _Cues, at: int) -> Optional[Address]:
    if not token or any(ch.isspace() for ch in token):
        return None
    if _HEX_RE.fullmatch(token):
        return Address(SHA, token.lower())
    # git prints shas in lower case: a short ``E203`` or ``F401`` is a lint code unless cued
    if _SHORT_HEX_RE.fullmatch(token) and ((_mixed(token) and token == token.lower()) or cues.before(_SHA_CUE_RE, at)):
        return Address(SHA, token.lower())
    if _SHORT_HEX_RE.fullmatch(token) and token.lower() not in _HEX_WORDS and token.islower() and cues.before(_SHORT_SHA_CUE_RE, at):
        return Address(SHA, token)
    if token.rsplit("/", 1)[-1] in _BARE_FILES:
        return Address(PATH, token)
    if re.fullmatch(r"#\d{1,7}", token):
        return Address(REF, token)
    if _KEY_RE.fullmatch(token) and token.split("-")[0] not in _NOT_KEYS:
        return Address(REF, token)
    if _VERSION_TAG_RE.fullmatch(token) and cues.before(_IN_RELEASE_CUE_RE, at):  # "is in `parent-3.17.0`": a tag
        return Address(BRANCH, token)
    if cues.before(_BRANCH_CUE_RE, at) and not names_a_file(token):  # "the merge into `hooks.json`": a file
        return Address(BRANCH, token) if _is_ref_name(token) else None
    if token in _COMMON_BRANCHES:
        return Address(NAME, token)
    path = parse_path(token)
    if path is None:
        return None
    has_ext = _EXT_RE.search(path.value) is not None
    if re.search(r"(?<![/\d])/\d{1,2}$", token) and "/" not in token[:token.rindex("/")]:  # foo/2: a function's arity
        return None
    if token.startswith("@") or _is_media_type(token) or _is_module_path(token):  # `@scope/package`, `text/plain`
        return None
    if re.fullmatch(r"[\w.-]+/HEAD", token):  # `origin/HEAD`: a remote's symbolic ref, not a branch or a path to look up
        return None
    if not has_ext and cues.before(_ON_CUE_RE, at) and (token in _COMMON_BRANCHES or "-" in token):
        return Address(NAME, token)
    if "/" in path.value.rstrip("/") and not has_ext and path.line is None:
        return Address(NAME, token)
    if "/" in path.value or has_ext and _extension(path.value) in KNOWN_EXTENSIONS or _is_dotfile(path.value):
        return path
    return None


def parse_path(token: str) -> Optional[Address]:
    """``path``, ``path:line`` or ``path:line-end`` as a PATH address, or None."""
    if "://" in token or token.startswith(("http:", "https:", "mailto:", "-")):
        return None
    match = _PATH_RE.match(token)
    if not match:
        return None
    value = token.split(":", 1)[0] if match.group(3) else token
    if value in (".", "..", "/") or value.startswith("/"):
        return None
    value = value[2:] if value.startswith("./") else value
    line = int(match.group(3)) if match.group(3) else None
    end = int(match.group(4)) if match.group(4) else None
    return Address(PATH, value, line, end)


def _plain_addresses(text: str, cues: _Cues) -> list[tuple[int, Address]]:
    found: list[tuple[int, Address]] = []
    for match in _PLAIN_SHA_RE.finditer(text):
        token = match.group(1)
        has_digit = any(c.isdigit() for c in token)
        has_alpha = any(c.isalpha() for c in token)
        if (has_digit and has_alpha) or (has_alpha and cues.before(_SHA_CUE_RE, match.start())) or (
                not has_alpha and cues.before(_DIGIT_SHA_CUE_RE, match.start())):
            found.append((match.start(), Address(SHA, token)))
    for match in _PLAIN_SHORT_SHA_RE.finditer(text):
        if match.group(1).isdigit() and match.group(0)[:3].lower() == "rev":
            continue  # "Subversion revision 1263": a revision number, not an abbreviated sha
        found.append((match.start(1), Address(SHA, match.group(1).lower())))
    for match in _ISSUE_RE.finditer(text):
        found.append((match.start(), Address(REF, "#" + match.group(1))))
    for match in _KEY_RE.finditer(text):
        if match.group(1).split("-")[0] not in _NOT_KEYS:
            found.append((match.start(), Address(REF, match.group(1))))
    branch_spans = []
    for match in _PLAIN_BRANCH_RE.finditer(text):
        name = match.group(1).rstrip(".,;:")
        if looks_like_branch(name, quoted=False):
            found.append((match.start(1), Address(BRANCH, name)))
            branch_spans.append(match.span(1))
    for match in _PLAIN_PATH_RE.finditer(text):
        if any(start <= match.start() < end for start, end in branch_spans):
            continue
        value = match.group(1).rstrip(".")
        if value.startswith("./"):
            value = value[2:]
        ext = _extension(value)
        if ext is None or value.startswith("/") or "://" in text[match.start() : match.end() + 3]:
            continue
        if ("/" in value and value[0].isalnum()) or ext in KNOWN_EXTENSIONS:
            if re.fullmatch(r"v?\d+(\.\d+)+", value) or _HEX_RE.fullmatch(value):
                continue
            line = int(match.group(2)) if match.group(2) else None
            end = int(match.group(3)) if match.group(3) else None
            found.append((match.start(), Address(PATH, value, line, end)))
    return found


def _mixed(token: str) -> bool:
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token)


_MODULE_HOST_RE = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|in|co|me|sh|app|cloud|xyz|info|gov|edu)/[^/]", re.I)


def _is_module_path(token: str) -> bool:
    """`github.com/go-chi/chi/v5`, `golang.org/x/net`, `gopkg.in/yaml.v3`: a module or a URL without its
    scheme, not a path of this repository."""
    return _MODULE_HOST_RE.match(token) is not None


def _is_media_type(token: str) -> bool:
    kind, slash, sub = token.partition("/")
    if not slash or kind not in _MEDIA_TYPES or re.fullmatch(r"[\w.+-]+", sub) is None:
        return False
    return _extension(sub) not in KNOWN_EXTENSIONS  # `text/notes.md` is a path


def _extension(value: str) -> Optional[str]:
    match = _EXT_RE.search(value.rstrip("/"))
    return match.group(1).lower() if match else None


def _is_dotfile(value: str) -> bool:
    name = value.rstrip("/").rsplit("/", 1)[-1]
    return _DOTFILE_RE.fullmatch(name) is not None


def bare_file(name: str) -> bool:
    """``name`` is a conventional file name that needs no suffix (``README``, ``Makefile``)."""
    return name in _BARE_FILES


def names_a_file(name: str) -> bool:
    """``name`` ends in a known file extension (``hooks.json``, ``settings.py``)."""
    return _extension(name) in KNOWN_EXTENSIONS


def looks_like_branch(name: str, quoted: bool) -> bool:
    """``name`` (after a cue such as "branch" or "merged into") can be a branch.

    In backticks any valid ref name can. In plain text only a common branch
    name or a word with a separator or digit in it (``fix-login``,
    ``feature/x``, ``release_2``): a plain English word is prose.
    """
    if not _is_ref_name(name):
        return False
    if quoted:
        return True
    if name.lower() in _STOP_NAMES:
        return False
    return name in _COMMON_BRANCHES or re.search(r"[/_.\d-]", name) is not None


def _is_ref_name(name: str) -> bool:
    """The shape git's check-ref-format accepts (the common subset)."""
    if not name or name.startswith(("-", "/", ".")) or name.endswith(("/", ".", ".lock")):
        return False
    if ".." in name or "//" in name or "@{" in name:
        return False
    # a letter or digit: "branches`_" of a reST link is no branch "_"; "i.e" and "e.g" are abbreviations
    return re.fullmatch(r"[\w./+-]+", name) is not None and re.search(r"[^\W_]", name) is not None and not _ABBREVIATION_RE.fullmatch(name)


_ABBREVIATION_RE = re.compile(r"(?:[A-Za-z]\.){1,3}[A-Za-z]?")
