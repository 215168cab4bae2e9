"""`cc-hooks hook`: the single entry point Claude Code runs for every hook event."""

HELP = "Run as a Claude Code or Codex hook: read one event as JSON on stdin and answer it (wired by `cc-hooks install`)."


def add_arguments(parser) -> None:
    from cc_hooks.harness import NAMES

    parser.add_argument("--harness", choices=NAMES, default=None,
                        help="the CLI running the hook (cc-hooks install writes it); default: told by the payload")
    parser.epilog = (
        "Reads exactly one JSON object from stdin and dispatches on hook_event_name "
        "(PreCompact, PostCompact, SessionStart, UserPromptSubmit; other events are ignored). "
        "Exit status: always 0 (a failure is one line on stderr and the hook log), except PreCompact's "
        "deliberate 2 under the block-manual policy, which blocks a manual /compact."
    )


def run(args) -> int:
    import gc
    import sys

    # A hook process lives for a fraction of a second: the cyclic collector would only walk the
    # objects pydantic's import creates, again and again (DECISIONS.md).
    gc.disable()
    from cc_hooks.runtime import process_start, run_hook

    return run_hook(sys.stdin.buffer, sys.stdout, sys.stderr, started=process_start(),
                    harness=getattr(args, "harness", None), isolate=True)  # Claude Code's clock starts at the spawn


def exit_process(code: int):
    """End the hook process once its answer is flushed, skipping the interpreter's teardown of every
    module and object (7-10 ms of each hook): nothing of the hook's is left to clean up by then."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # the reader is gone: nothing more can reach it
    os._exit(code)
