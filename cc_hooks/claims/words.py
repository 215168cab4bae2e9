"""Significant words: how a sentence is compared with a commit subject or a
ledger heading. Lowercase, stop words dropped, crude suffix stemming, so
"Add regression tests" matches "Added a regression test".

Also the words that make a sentence a statement about external state.
"""

from __future__ import annotations

import re

STOP_WORDS = frozenset(
    """a an the and or but nor of in on at to for from by with without into onto over under about after before
    as is are was were be been being it its this that these those there here then than so such not no yes
    do does did done doing have has had having will would should could can may might must shall
    i we you he she they me us them my our your his her their what which who whom whose when where why how
    all any both each few more most other some same own only just also very too again once up down out off
    via per vs etc e.g i.e new now still yet already some
    add adds added fix fixes fixed make makes made update updates updated use uses used get set run runs
    item items task tasks work todo wip step steps""".split()
)
_EXTERNAL_RE = re.compile(
    r"\b(?:deploy(?:ed|s|ment)?|re-?deployed|released\s+(?:to|on|as)|(?:is|are|was|were|got|been)\s+released|"
    r"release\s+(?:is|was)\s+(?:out|live|published)|staging|production|prod|CI|pipeline|"
    r"(?:tests?|suite|build|checks?|lint|credo|dialyzer|mypy)\s+(?:all\s+)?(?:pass(?:es|ed|ing)?|green|red|fail(?:s|ed|ing)?|clean)|"
    r"all\s+\d*\s*tests?\s+pass(?:ed)?|published|PR\s*#?\d+|pull\s+request|"
    r"(?:build|builds|tests?|CI|checks?|pipeline|workflow|job)\b[^.;]{0,60}?\b(?:is|are|was|were|went|stays?)\s+(?:green|red|passing|failing|broken|flaky)|"
    r"(?:server|service|app|worker|daemon|job|container|pod|cluster|site|instance)s?\s+(?:is\s+|are\s+)?(?:running|runs|up|down|live|healthy))\b",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*[A-Za-z0-9]|[A-Za-z]{2,}")


_SYNONYMS = {"delet": "remov", "drop": "remov", "repair": "fix", "bug": "fix", "broken": "fix"}


def stem(word: str) -> str:
    """Crude but consistent: "renamed", "rename", "renames" -> "renam"; "dropped" -> "drop" -> "remov"."""
    word = word.lower().strip("'-_")
    if word.endswith("'s"):
        word = word[:-2]
    for suffix in ("ing", "ied", "ies", "ed", "es", "s"):
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            continue  # "pass", "status", "analysis"
        if suffix == "es" and not word.endswith(("sses", "ches", "shes", "xes", "zes")):
            continue  # "passes" -> "pass", but "notes" -> "not" would lose the word: strip "s" alone
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # dropped -> drop
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return _SYNONYMS.get(word, word)


def significant_words(text: str) -> list[str]:
    """Stemmed words of three letters or more that carry meaning, in order, without duplicates."""
    words = []
    for raw in _WORD_RE.findall(text.replace("`", " ")):
        lower = raw.lower()
        if lower in STOP_WORDS or len(lower) < 3:
            continue
        stemmed = stem(lower)
        if stemmed not in STOP_WORDS:
            words.append(stemmed)
    return list(dict.fromkeys(words))


def overlap(wanted: list[str], present) -> tuple[int, float]:
    """How many of ``wanted`` occur in ``present`` (a text, or a set of its significant words), and the ratio."""
    if not wanted:
        return 0, 0.0
    if isinstance(present, str):
        present = set(significant_words(present))
    hits = sum(1 for word in wanted if word in present)
    return hits, hits / len(wanted)


def clearly_matches(wanted: list[str], present, ratio: float = 0.6) -> bool:
    """Most of ``wanted`` (and at least two of them, or the only one) occur in ``present``."""
    hits, share = overlap(wanted, present)
    return share >= ratio and hits >= min(2, len(wanted)) and hits > 0


def is_external_statement(text: str) -> bool:
    """Speaks of deploys, releases, CI, tests, services: state only a probe can check."""
    return _EXTERNAL_RE.search(text) is not None


_IDENT_RE = re.compile(r"`([A-Za-z_$][\w.$]*(?:(?:::|#)[A-Za-z_$][\w.$]*)*)(?:\([^`]*\))?`|\b([a-z]+_[a-z0-9_]+|[a-z]+[A-Z]\w+|[A-Z][a-z]+[A-Z]\w+)\b")


def whole_name(name: str) -> "re.Pattern[str]":
    """A code name as written, whole: `INET_ADDRESS` is not found in INET_ADDRESS_FACTORY."""
    left = r"(?<![\w$])" if re.match(r"[\w$]", name) else ""
    right = r"(?![\w$])" if re.search(r"[\w$]$", name) else ""
    return re.compile(left + re.escape(name) + right)


def unhyphen(text: str) -> str:
    """"open-transaction" -> "open transaction": hyphenated words compare by their parts."""
    return re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", text)


def identifiers(text: str) -> list[str]:
    """Code names in a sentence (`delete_where()`, snake_case, camelCase): the strongest topic words."""
    found = []
    for quoted, bare in _IDENT_RE.findall(text):
        name = re.split(r"::|#|\.", (quoted or bare).rstrip("()"))[-1]  # `Rack::Request#headers` -> headers
        if len(name) >= 3 and not re.fullmatch(r"[0-9a-fA-F]+", name):
            found.append(name)
    return list(dict.fromkeys(found))
