"""The studio's command line speaks both languages: every command's, sub-command's and option's help is
Chinese first with its English (``中文 / English`` on one line, or the word pairs ``项目数据库 project
database``), and the English part says the 够级 terms in English — no Chinese word inside it but an
example of data (``e.g. 第16期``). A help in one language only, or an English with 英雄榜 in it, fails."""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from broadcast.__main__ import COMMANDS, OneLineParser

HAN = re.compile(r"[\u3400-\u9fff]")
# what is neither language: names of things (variables, formats, paths, options, programs)
NAMES = re.compile(
    r"\$?[A-Z][A-Z0-9_]+\w*|\S*[/.]\S*|--?[\w-]+|\b(?:YAML|JSON|OBS|GJN|CSV|XLSX|PDF|JPEG|PNG|URL|SQLite|"
    r"postgresql|auto|Dask|Chromium|Stream Deck|Bitfocus Companion)\b"
)
EXAMPLE = re.compile(r"e\.g\. \S+")  # an example of data may be Chinese (an episode is named 第16期)


def _helps(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, str]]:
    if parser.description:
        yield path, parser.description
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{path} {choice.dest}", choice.help or ""
            for name, sub in action.choices.items():
                yield from _helps(sub, f"{path} {name}")
        elif action.help and action.help != argparse.SUPPRESS and action.dest != "help":
            yield f"{path} {'/'.join(action.option_strings) or action.dest}", action.help


@functools.cache
def _all_helps() -> tuple[tuple[str, str], ...]:
    out = []
    for name, (module, description) in COMMANDS.items():
        parser = OneLineParser(prog=f"python -m broadcast {name}", description=description)
        importlib.import_module(module).register(parser)
        out.extend(_helps(parser, name))
    from engine.cli import parser as engine_parser  # python -m engine: the referee's command line

    out.extend(_helps(engine_parser(), "engine"))
    return tuple(out)


def _fault(text: str) -> str:
    if not HAN.search(text):
        return "English only"
    if not re.search(r"[A-Za-z]{3,}", NAMES.sub(" ", text)):
        return "Chinese only"
    english = re.split(r"(?:\s|）)/ ", text)[-1] if re.search(r"(?:\s|）)/ ", text) else ""
    if english and HAN.search(EXAMPLE.sub("", english)):
        return "a Chinese word in the English"
    return ""


def test_the_sweep_sees_every_command_and_its_options() -> None:
    helps = dict(_all_helps())
    assert len(helps) > 150  # every command, sub-command and option
    assert {"season match --round", "obs proof --out", "report --verify", "export all"} <= set(helps)
    assert {"engine check --partial", "engine winprob --playouts", "engine build --clean"} <= set(helps)


@pytest.mark.parametrize(
    "text, fault",
    [
        ("settings file (YAML/JSON, section obs:)", "English only"),
        ("选手名单 CSV / XLSX", "Chinese only"),
        ("显示英雄榜 / print the 英雄榜", "a Chinese word in the English"),
        ("期数，例如 第16期 / the episode, e.g. 第16期", ""),
        ("项目数据库 project database（默认 default: $GOUJI_DB）", ""),
        ("要写入的 JPEG 文件 / JPEG file to write", ""),
    ],
)
def test_the_sweeps_rule(text: str, fault: str) -> None:
    assert _fault(text) == fault


def test_every_help_of_the_command_line_is_in_chinese_and_in_english() -> None:
    bad = [f"{where}: {fault}: {text}" for where, text in _all_helps() if (fault := _fault(text))]
    assert not bad, "\n".join(bad)


def test_the_command_list_and_a_wrong_command_speak_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from broadcast.__main__ import main

    assert main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name, (_module, description) in COMMANDS.items():
        assert f"  {name:<10} {description}" in listing
        assert not _fault(description), description
    assert main(["no-such-command"]) == 2
    assert "未知命令 unknown command: no-such-command" in capsys.readouterr().err


# what a command prints in one language on purpose, each with its reason
ONE_LANGUAGE = {
    # the referee's report (docs/engine.md): an English line, then a 中文 line, each whole
    ("engine/cli.py", "  English: move  , seat  , rule  : "),
    ("engine/cli.py", "  中文: 第 步（第 行）， 号， ："),
    ("engine/cli.py", ":   at move   (line  ), seat  , rule "),
    ("engine/cli.py", "result ( ,  ):"),  # the demo's heading over the result's bilingual lines
    # the season's match lines: 第N期, the round's name, the teams' names and the score (data, no words)
    ("broadcast/cli/season.py", "  第 期     #    vs    "),
}
CLI_FILES = ("broadcast/cli/*.py", "broadcast/*/cli.py", "broadcast/overlay/*_cli.py", "engine/*cli.py")


def _printed() -> list[tuple[str, int, str]]:
    """Every ``print(…)`` of the command lines: (file, line, its words with the values left out)."""
    root = Path(__file__).resolve().parents[1]
    out = []
    for path in sorted({p for pattern in CLI_FILES for p in root.glob(pattern)}):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.JoinedStr):
                    words = " ".join(v.value for v in first.values if isinstance(v, ast.Constant))
                elif isinstance(first, ast.Constant) and isinstance(first.value, str):
                    words = first.value
                else:
                    continue
                if words.strip():
                    out.append((rel, node.lineno, words.replace("\n", " ")))
    return out


def test_what_the_commands_print_is_in_both_languages() -> None:
    printed = _printed()
    assert len(printed) > 50
    bad = []
    for rel, line, words in printed:
        zh, en = bool(HAN.search(words)), bool(re.search(r"[A-Za-z]{3,}", NAMES.sub(" ", words)))
        if zh != en and (rel, words) not in ONE_LANGUAGE:
            bad.append(f"{rel}:{line}: {'Chinese' if zh else 'English'} only: {words.strip()[:100]}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "argv, zh",
    [
        (["season", "nope"], "参数 SUBCOMMAND 没有 'nope' 这一项"),
        (["season", "episode", "one"], "参数 number 要一个数，不是 'one'"),
        (["report"], "缺少参数 episode"),
        (
            ["season", "leaderboard", "--kind", "fans"],
            "参数 --kind 没有 'fans' 这一项（可选 'players', 'teams'）",
        ),
    ],
)
def test_a_wrong_argument_is_one_line_in_chinese_then_english(
    argv: list[str], zh: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from broadcast.__main__ import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(err) == 1, err
    said = err[0].split("错误 error: ", 1)[1]
    assert said.startswith(zh) and re.search(r" / (argument|the following)", said), said  # then English
    assert not HAN.search(said.split(" / ", 1)[1].split("（用法见")[0]), said


def test_the_engines_command_line_refuses_in_both_languages_too(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["check"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "python -m engine check: 错误 error: 缺少参数 file / the following arguments are required: file"
    )
