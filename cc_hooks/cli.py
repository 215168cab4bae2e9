"""The argparse front door. One module per verb lives in ``cc_hooks.commands``.

Each verb module exposes ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Verb modules must stay cheap to import: heavy libraries
(pydantic, GitPython, rich) are imported inside ``run``.
"""

from __future__ import annotations

import sys

from cc_hooks import __version__


def verb_names() -> list[str]:
    import pkgutil

    import cc_hooks.commands as pkg

    names = [m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")]
    return sorted(name.replace("_", "-") for name in names)


def load_verb(name: str):
    import importlib

    return importlib.import_module(f"cc_hooks.commands.{name.replace('-', '_')}")


def verb_runner(args):
    """The verb's ``run``. A second harness's ``install``, ``uninstall`` and ``doctor`` live with its
    adapter (``--harness codex``): loaded like the verbs, by name, so the adapter may use the verbs'
    helpers without an import cycle."""
    import importlib

    from cc_hooks.harness import CLAUDE_CODE

    harness = getattr(args, "harness", CLAUDE_CODE)
    if harness != CLAUDE_CODE and args.verb in ("install", "uninstall", "doctor"):
        return importlib.import_module(f"cc_hooks.harness.{harness}_commands").run
    return args._module.run


def build_parser():
    import argparse

    parser = argparse.ArgumentParser(
        prog="cc-hooks",
        description="Claude Code hooks that keep a verified record across context compaction.",
    )
    parser.add_argument("--version", action="version", version=f"cc-hooks {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for name in verb_names():
        module = load_verb(name)
        verb_parser = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(verb_parser)
        verb_parser.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    process = argv is None  # called as the program (console script, python -m), not as a library
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["hook"]:
        # The hot path: Claude Code runs this on every hook event. Skip building
        # the whole parser (which imports every verb module).
        from cc_hooks.commands import hook

        code = hook.run(None)
        if process:
            hook.exit_process(code)
        return code
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "_module", None) is None:
        parser.print_help()
        return 2
    try:
        return int(verb_runner(args)(args) or 0)
    except KeyboardInterrupt:
        print("cc-hooks: interrupted", file=sys.stderr)
        return 130
    except CliError as exc:
        print(f"cc-hooks {args.verb}: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        # `cc-hooks doctor --json | head`: the reader left; not an error of ours.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


PROJECT_HELP = "the project: any directory in its git work tree (default: the current directory)"


class CliError(Exception):
    """An error a person can act on; printed as one line, exit non-zero."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code
