"""``season`` is argparse sub-commands, each with its own handler: bad arguments are one line on stderr
and exit 2, the user-facing commands and messages are those of before."""

from __future__ import annotations

from pathlib import Path

import pytest

from broadcast.__main__ import main as cli
from broadcast.cli.season import register

SUBCOMMANDS = (
    "demo create set list show verify episode team match game penalty forfeit finish prize leaderboard push "
    "table"
).split()


def test_every_season_subcommand_has_a_handler() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    register(parser)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(sub.choices) == sorted(SUBCOMMANDS)
    for name, p in sub.choices.items():
        defaults = p._defaults
        assert callable(defaults["handler"]) and defaults["scope"], name


@pytest.mark.parametrize(
    "argv,words",
    [
        (["season"], ("SUBCOMMAND",)),
        (["season", "nope"], ("invalid choice", "'nope'")),
        (["season", "episode", "one"], ("number", "invalid int value")),
        (["season", "match", "--episode", "x"], ("--episode", "invalid int value")),
        (["season", "leaderboard", "--kind", "fans"], ("--kind", "invalid choice")),
        (["season", "prize", "--episode", "1"], ("required",)),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    argv: list[str], words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ei:
        cli(argv)
    assert ei.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("python -m broadcast season") and "错误 error" in err[0], err
    assert all(w in err[0] for w in words), err


def test_a_missing_database_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "none.sqlite"
    assert cli(["season", "show", "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(db) in err[0] and "数据库文件不存在" in err[0]
    assert not db.exists()  # a read command never creates the file


@pytest.mark.parametrize(
    "winner,decided_by,line",
    [
        ("odd", "points", "34:32，胜方 winner 河东老哥们队（比分）"),
        ("even", "lots", "30:30，胜方 winner 罗庄棋牌社队（抽签）"),
    ],
)
def test_season_table_says_a_match_as_season_finish_does(winner: str, decided_by: str, line: str) -> None:
    """``season table``'s line for a match played: the winning team by name and how it was decided, in
    Chinese (it printed ``胜方 winner odd（points）``)."""
    import argparse
    from types import SimpleNamespace

    from broadcast.cli.season_table import _score

    odd, even = (34, 32) if decided_by == "points" else (30, 30)
    result = {"odd": odd, "even": even, "winner": winner, "decided_by": decided_by}
    store = SimpleNamespace(state={"match": {"result": result}})
    args = argparse.Namespace(team_a="河东老哥们队", team_b="罗庄棋牌社队")
    assert _score(store, args) == line


def test_season_list_of_a_database_without_a_season_says_so(
    season_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An empty screen would leave the producer wondering whether the command looked at the right
    database: it names the database (a server without its password) and what to do."""
    from broadcast.season.backend import shown
    from broadcast.season.model import SeasonDB

    SeasonDB.open(season_db).close()  # the season's tables, no season
    assert cli(["season", "list", "--db", str(tmp_path / "p.sqlite"), "--season-db", season_db]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        f"{shown(season_db)}: 还没有赛季（python -m broadcast season create 名称，或 season demo）/ "
        "no season yet (python -m broadcast season create NAME, or season demo)"
    ]


def test_a_reader_that_leaves_early_ends_the_command_quietly(demo_db: Path) -> None:
    """``season leaderboard | head -2``: the reader closes the pipe; the command stops without an error
    line (it said 错误 error: 无法写入 … Broken pipe, exit 2), with a shell's status for it
    (128 + SIGPIPE)."""
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "broadcast", "season", "leaderboard", "--db", str(demo_db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader has gone before a line was written
    _, err = proc.communicate(timeout=120)
    assert err == "" and proc.returncode == 128 + signal.SIGPIPE
