"""`cc-hooks audit` asks git in batches (issue 22 item 3): the number of git processes does not grow
with the number of questions, and what it reads of history is remembered up to the last audited
HEAD (a new audit reads only the commits since). The grades stay those of one question at a time."""

from __future__ import annotations

import subprocess

import pytest

from .conftest import QUESTIONS, audit, by_kind


@pytest.fixture
def spawned(monkeypatch):
    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def spy(self, args, *rest, **kwargs):
        started.append([str(a) for a in args])
        real(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", spy)
    return started


def with_questions(project, count: int) -> None:
    lines = [f"- Where is add() line {n % 2 + 1}? → src/calc.py:{n % 2 + 1}" for n in range(count)]
    lines += [f"- Where is the test {n}? → tests/test_calc.py::test_add" for n in range(count)]
    project.write("COLDSTART_QUESTIONS.md", QUESTIONS + "\n".join(lines) + "\n")
    project.commit(f"Ask {count} more questions", "COLDSTART_QUESTIONS.md")


def git_processes(spawned) -> int:
    return sum(1 for argv in spawned if argv[:1] == ["git"])


def test_git_processes_do_not_grow_with_the_questions(project, spawned, tmp_path):
    from .conftest import build_project

    with_questions(project, 2)
    spawned.clear()
    few = audit(project)
    few_processes = git_processes(spawned)
    (tmp_path / "many").mkdir()
    other = build_project(tmp_path / "many")
    with_questions(other, 60)
    spawned.clear()
    many = audit(other)
    assert len(by_kind(many, "coldstart")) == len(by_kind(few, "coldstart")) + 116
    assert git_processes(spawned) == few_processes
    assert {g.grade for g in by_kind(many, "coldstart")} == {"PASS"}


def test_the_batched_grades_are_the_one_at_a_time_grades(project):
    from cc_hooks.audit.answer import Auditor
    from cc_hooks.audit.freshclone import fresh_clone
    from cc_hooks.audit.questions import generate
    from cc_hooks.config import load_config_or_default
    from cc_hooks.record.questions import resolve_pointers

    project.write("COLDSTART_QUESTIONS.md", QUESTIONS + "- Gone? → src/gone.py\n- Line? → src/calc.py:99\n"
                  "- Heading? → README.md#calc\n- Log? → " + project.fix[:10] + "\n")
    project.commit("More questions", "COLDSTART_QUESTIONS.md")
    with fresh_clone(project.root) as view:
        config, _ = load_config_or_default(view.path)
        auditor = Auditor(view, config)
        for question in [q for q in generate(view.path, config) if q.kind == "coldstart"]:
            alone = resolve_pointers(view.path, question.data["pointers"])
            batched = auditor._resolved(question.data["pointers"])
            assert {p: alone[p] for p in alone} == {p: batched[p] for p in alone}


def test_a_new_audit_reads_only_the_commits_since_the_last(project, spawned):
    project.state.mkdir(mode=0o700)  # as the first hook, or audit, made it
    audit(project)  # remembers the trailers and deleted paths of HEAD's history
    project.write("src/new.py", "X = 1\n")
    project.commit("Add a module", "src/new.py")
    spawned.clear()
    result = audit(project)
    walks = [argv for argv in spawned if argv[:1] == ["git"] and "log" in argv and "-1" not in argv
             and "--no-walk" not in " ".join(argv)]
    history = [argv for argv in walks if "--diff-filter=D" in argv or any("trailers:key=Symptom" in a for a in argv)]
    assert history and all(any(".." in a for a in argv) for argv in history), history
    assert by_kind(result, "symptom")[0].grade == "PASS"
