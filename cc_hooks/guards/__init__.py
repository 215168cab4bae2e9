"""Guards: the executable top of the durability ladder (methodology §1.3, §7).

A guard is a verifier of one recorded cause: a pytest id, a tracked script, or
a command declared in ``.cc-hooks.toml`` (``[guards.NAME]``). Three modules, one
job each:

- ``resolve``: every SYMPTOMS.md cause's **Guard** field (and every configured
  guard) turned into a runnable ``Guard``, or a located reason why not;
- ``run``: run one guard without a shell, under a timeout, and read its exit
  code tri-state (0 healthy, 1 anomaly, anything else could not observe);
- ``prove``: run it on HEAD and with its fix reverted, in a throwaway worktree.
"""
