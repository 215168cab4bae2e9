"""cc-hooks: a memory for AI coding agents that survives context compaction."""

__version__ = "0.1.0"
