"""`cc-hooks hook`: the single entry point Claude Code runs for every hook event."""

HELP = "Run as a Claude Code hook: read one event as JSON on stdin and answer it (wired by `cc-hooks install`)."


def add_arguments(parser) -> None:
    parser.epilog = (
        "Reads exactly one JSON object from stdin and dispatches on hook_event_name "
        "(PreCompact, PostCompact, SessionStart, UserPromptSubmit; other events are ignored). "
        "Always exits 0, except PreCompact's deliberate exit 2 under the block-manual policy."
    )


def run(args) -> int:
    import gc
    import sys

    # A hook process lives for a fraction of a second: the cyclic collector would only walk the
    # objects pydantic's import creates, again and again, and once more at exit (DECISIONS.md).
    gc.disable()
    from cc_hooks.runtime import run_hook

    try:
        return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr)
    finally:
        gc.freeze()  # the answer is written: the exit need not walk them either
