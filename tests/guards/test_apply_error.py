from cc_hooks.guards.prove import _apply_error


def test_names_the_file_not_the_fallback_chatter():
    stderr = "Falling back to direct application...\nerror: patch failed: pyproject.toml:1\nerror: pyproject.toml: patch does not apply\n"
    assert _apply_error(stderr) == "pyproject.toml:1"


def test_falls_back_to_the_last_line_without_an_error_line():
    assert _apply_error("warning: x\nsomething odd\n") == "something odd"
    assert _apply_error("") == "?"
