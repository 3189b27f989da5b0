"""Every command the README's command table lists is true: the command and its sub-commands exist, and
every option it shows (``--db``, ``--lang en`` …) is one the command accepts (asked with ``--help``, in
process). A removed option (``run --token T``: the token comes only from ``--token-file`` or
``GOUJI_OVERLAY_TOKEN``) must leave the README too."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def _table_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        if not line.startswith("| `python -m "):
            continue
        cell = line.replace("\\|", "\0").split("|")[1].replace("\0", "|")
        for span in re.findall(r"`([^`]+)`", cell):
            if span.startswith("python -m "):
                out.append(span)
            elif span.startswith("--") and out:  # `serve --demo` / `--db FILE`: another form of it
                out[-1] += " " + span
    return out


def _help(argv: list[str]) -> tuple[int, str]:
    """``python -m MODULE argv… --help`` in process: (exit status, help text)."""
    module, *rest = argv
    buf = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            if module == "engine":
                from engine.cli import main as engine_main

                code = engine_main([*rest, "--help"])
            else:
                from broadcast.__main__ import main as broadcast_main

                code = broadcast_main([*rest, "--help"])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, buf.getvalue()


def _variants(words: list[str]) -> list[list[str]]:
    """``season demo|leaderboard`` → [[season, demo], [season, leaderboard]]."""
    out: list[list[str]] = [[]]
    for w in words:
        out = [[*o, alt] for o in out for alt in w.split("|")]
    return out


COMMANDS = _table_commands()


def test_the_readme_lists_commands() -> None:
    assert len(COMMANDS) >= 15, COMMANDS
    assert not any("--token " in c or c.endswith("--token") for c in COMMANDS), "run --token T is gone"
    assert "--token T" not in README.read_text(encoding="utf-8")
    from broadcast.__main__ import COMMANDS as CLI

    listed = {c.split()[3] for c in COMMANDS if c.split()[2] == "broadcast"}
    assert set(CLI) <= listed, f"commands missing from the README's table: {sorted(set(CLI) - listed)}"


@pytest.mark.parametrize("command", COMMANDS, ids=[c[10:50] for c in COMMANDS])
def test_each_listed_command_and_option_exists(command: str) -> None:
    words = command.split()[2:]  # after "python -m"
    module = words[0]
    # the command words: up to the first option or placeholder (FILE, 第1期, a.gjn …)
    path: list[str] = []
    for w in words[1:]:
        if w.startswith(("-", "[")) or not re.fullmatch(r"[a-z][a-z-]*(\|[a-z][a-z-]*)*", w):
            break
        path.append(w)
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", command))
    helps = []
    for variant in _variants(path):
        code, text = _help([module, *variant])
        assert code == 0, f"{command}: `{' '.join([module, *variant])} --help` exits {code}: {text[-300:]}"
        helps.append(text)
    for opt in sorted(options - {"--help"}):
        assert any(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", h) for h in helps), (
            f"README lists `{command}` but `{opt}` is not an option of it"
        )
