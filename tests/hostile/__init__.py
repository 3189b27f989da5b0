"""Hostile input swept across every command (hostile2): each module holds one kind of input to its
table of commands. ``code(argv)``: a studio command run in-process, its exit status (``serve`` and the
other commands that leave by ``SystemExit(2)`` included)."""

from __future__ import annotations

from broadcast.__main__ import main as studio


def code(argv: list[str]) -> int:
    try:
        return studio(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
