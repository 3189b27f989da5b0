"""The season on both backends: one schema (the project's own migration runner, both dialects at the
same version with the same tables and columns), the season target (--season-db, $GOUJI_SEASON_DB),
rows read alike, a newer schema refused, an unreachable server one clear line (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast.__main__ import main as cli
from broadcast.core.db import DatabaseError
from broadcast.season.backend import SEASON_DB_ENV, connect, season_target, shown
from broadcast.season.migrations import COMPONENT, POSTGRESQL, SQLITE
from broadcast.season.model import SeasonDB
from tests.pgserver import TempPostgres


def _columns(target: str) -> dict[str, list[str]]:
    conn = connect(target)
    try:
        if conn.postgres:
            rows = conn.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema='public' AND table_name LIKE 'season%' "
                "ORDER BY table_name, ordinal_position"
            ).fetchall()
            return _group(rows)
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'season%' ORDER BY name"
            )
        ]
        return {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    finally:
        conn.close()


def _group(rows: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(table, []).append(column)
    return out


def test_both_dialects_reach_the_same_version_with_the_same_tables_and_columns(
    tmp_path: Path, pg_url: str
) -> None:
    assert len(SQLITE) == len(POSTGRESQL) >= 2
    for target in (str(tmp_path / "s.sqlite"), pg_url):
        with SeasonDB.open(target) as sdb:
            row = sdb.conn.execute("SELECT version FROM schema_versions WHERE component=?", (COMPONENT,))
            assert row.fetchone()[0] == len(SQLITE)
    lite, pg = _columns(str(tmp_path / "s.sqlite")), _columns(pg_url)
    assert lite == pg and len(lite) == 13
    assert "uid" in lite["season_games"] and "h2h" in lite["season_player_totals"]


def test_a_postgresql_season_from_a_newer_build_is_refused(pg_url: str) -> None:
    SeasonDB.open(pg_url).close()
    conn = connect(pg_url)
    conn.execute("UPDATE schema_versions SET version=99 WHERE component=?", (COMPONENT,))
    conn.close()
    with pytest.raises(DatabaseError, match="newer"):
        SeasonDB.open(pg_url)


def test_rows_read_by_name_and_position_alike(season_db: str) -> None:
    with SeasonDB.open(season_db) as sdb:
        sid = sdb.create_season("读法", sponsor="鲁信汽车城")
        row = sdb.season(sid)
        assert row["name"] == row[1] == "读法" and dict(row)["sponsor"] == "鲁信汽车城"
        assert "revision" in row.keys()
        with pytest.raises(sdb.conn.IntegrityError):
            sdb.conn.execute("INSERT INTO season_seasons(name) VALUES(?)", ("读法",))


def test_the_season_target_is_the_flag_then_the_environment_then_the_project_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SEASON_DB_ENV, raising=False)
    assert season_target(None, "data/studio.sqlite") == "data/studio.sqlite"
    monkeypatch.setenv(SEASON_DB_ENV, "postgresql://gouji:secret@db.studio/season")
    assert season_target(None, "x.sqlite") == "postgresql://gouji:secret@db.studio/season"
    assert season_target("sqlite:///tmp/a.sqlite", "x.sqlite") == "/tmp/a.sqlite"
    assert shown("postgresql://gouji:secret@db.studio/season") == "postgresql://gouji:***@db.studio/season"


def test_the_environment_names_the_season_for_every_command(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(SEASON_DB_ENV, pg_url)
    project = str(tmp_path / "studio.sqlite")
    assert cli(["season", "create", "环境季", "--db", project]) == 0
    assert "赛季数据库 season: postgresql://" in capsys.readouterr().err
    with SeasonDB.open(pg_url) as sdb:
        assert [s["name"] for s in sdb.seasons()] == ["环境季"]
    assert cli(["export", "leaderboard", "--db", project, "--out", str(tmp_path / "b.csv")]) == 0
    assert (tmp_path / "b.csv").exists()


def test_a_server_that_is_not_there_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.pgserver import free_port

    url = f"postgresql://gouji:pw@127.0.0.1:{free_port()}/season"
    rc = cli(["season", "list", "--db", str(tmp_path / "s.sqlite"), "--season-db", url])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1
    assert err[0] == (
        f"错误 error: {shown(url)}: 连不上赛季数据库：那里没有运行中的服务器（未启动，或主机、端口不对） / "
        "cannot connect to the season database: no server is running there (not started, or the wrong host "
        "or port)"
    )
    assert ":pw@" not in err[0]


def test_a_refused_password_a_missing_database_and_a_bad_url_are_one_line_each_never_the_password(
    postgres: TempPostgres, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a producer sees when the season's server says no: one line naming the server (its password
    hidden) and what to fix, exit 2; the right password opens the season (the server checks it)."""
    from tests.pgserver import PASSWORD_ROLE

    postgres.sql(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD 'right-horse' CREATEDB")
    try:
        base = f"127.0.0.1:{postgres.port}"
        cases = {
            f"postgresql://{PASSWORD_ROLE}:wrong-horse@{base}/postgres": (
                f"用户 {PASSWORD_ROLE} 的密码不对",
                f"the password of user {PASSWORD_ROLE} was refused",
            ),
            f"postgresql://{PASSWORD_ROLE}@{base}/postgres": (
                "服务器要求密码，网址里没有",
                "the server asks for a password and the URL gives none",
            ),
            f"postgresql://{PASSWORD_ROLE}:right-horse@{base}/no_such_season": (
                "服务器上没有数据库 no_such_season",
                "no database no_such_season on the server",
            ),
            f"postgresql://{PASSWORD_ROLE}:right-horse@127.0.0.1:port/postgres": (
                "网址写得不对（postgresql://用户:密码@主机:端口/数据库）",
                "the URL is not valid (postgresql://user:password@host:port/database)",
            ),
            f"postgresql://{PASSWORD_ROLE}:right-horse@[::1/postgres": (
                "网址写得不对（postgresql://用户:密码@主机:端口/数据库）",
                "the URL is not valid (postgresql://user:password@host:port/database)",
            ),
        }
        for url, (zh, en) in cases.items():
            rc = cli(["season", "list", "--db", str(tmp_path / "s.sqlite"), "--season-db", url])
            err = capsys.readouterr().err.strip().splitlines()
            assert rc == 2 and len(err) == 1, (url, err)
            want = f"连不上赛季数据库：{zh} / cannot connect to the season database: {en}"
            assert err[0] == f"错误 error: {shown(url)}: {want}"
            assert "horse" not in err[0]
        postgres.sql(f"CREATE DATABASE pw_season OWNER {PASSWORD_ROLE}")
        good = f"postgresql://{PASSWORD_ROLE}:right-horse@{base}/pw_season"
        assert (
            cli(["season", "create", "密码季", "--db", str(tmp_path / "s.sqlite"), "--season-db", good]) == 0
        )
        with SeasonDB.open(good) as sdb:
            assert [s["name"] for s in sdb.seasons()] == ["密码季"]
    finally:
        postgres.drop_database("pw_season")
        postgres.sql(f"DROP ROLE IF EXISTS {PASSWORD_ROLE}")


def test_the_demo_season_on_a_server_never_prints_its_password(
    postgres: TempPostgres, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.season.conftest import fresh_database

    url = fresh_database(postgres).replace("postgres@", "postgres:hidden-horse@", 1)  # trust: any password
    args = ["season", "demo", "--db", str(tmp_path / "s.sqlite"), "--season-db", url]
    assert cli(args) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"演示赛季已建立 demo season built: {shown(url)} — 8 队") and "horse" not in out
    assert cli(args) == 2  # built already: refused, the server named without its password
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"错误 error: [season] {shown(url)}: 已有“第一季” / ")
    assert "horse" not in err[0]
    postgres.drop_database(url.rsplit("/", 1)[1])


def test_the_server_killed_and_back_loses_no_committed_write(postgres: TempPostgres) -> None:
    from tests.season.conftest import fresh_database

    url = fresh_database(postgres)
    with SeasonDB.open(url) as sdb:
        sid = sdb.create_season("断电季")
        sdb.add_team(sid, "甲队")
    postgres.kill()
    postgres.start()
    with SeasonDB.open(url) as sdb:
        assert [t["name"] for t in sdb.teams(sid)] == ["甲队"]


def test_the_producer_works_on_its_season_db(pg_url: str, tmp_path: Path, qtbot: Any) -> None:
    """The producer's season screens read and write the season given by --season-db (here a PostgreSQL
    season), not the project file; photos stay in the project."""
    from PySide6.QtCore import QSettings

    from broadcast.producer import season as season_work
    from broadcast.producer.app import build

    project = tmp_path / "studio.sqlite"
    with SeasonDB.open(pg_url) as sdb:
        sid = sdb.create_season("联赛")
        for team in ("甲队", "乙队", "丙队"):
            sdb.add_team(sid, team)
    w = build(
        project,
        settings=QSettings(str(tmp_path / "producer.ini"), QSettings.Format.IniFormat),
        lang="zh_CN",
        web=False,
        season_db=pg_url,
    )
    qtbot.addWidget(w)
    try:
        w.season.reload()
        qtbot.waitUntil(lambda: (w.ws.drain(), w.season.teams.rowCount() == 3)[1], timeout=60000)
        assert [w.season.teams.item(r, 0).text() for r in range(3)] == ["甲队", "乙队", "丙队"]
        tid = season_work.add_team(w.ws.places, sid, "丁队")  # what the tab's 添加 does, on its worker
        with SeasonDB.open(pg_url) as sdb:
            assert [t["name"] for t in sdb.teams(sid)][-1] == "丁队" and int(sdb.teams(sid)[-1]["id"]) == tid
        with SeasonDB.open(project) as local:
            assert local.seasons() == []  # nothing went into the project's own season tables
    finally:
        w.ws.close()


def test_run_on_a_server_season_puts_its_board_up_and_keeps_the_project_file_seasonless(
    postgres: TempPostgres, demo_pg_master: str, tmp_path: Path
) -> None:
    """``run --season-db postgresql://…`` (the real command): the studio says which server (no password),
    its 英雄榜 is the server season's, and the project file holds no season (no demo season built there)."""
    import subprocess
    import sys

    from broadcast.season.actions import leaderboard_payload
    from broadcast.studio import open_store
    from tests.season.conftest import fresh_database
    from tests.season.test_demo_atomic import NO_PLACEMENTS, ROOT, STUDIO

    url = fresh_database(postgres, template=demo_pg_master).replace("postgres@", "postgres:run-horse@", 1)
    project = tmp_path / "studio.sqlite"
    cmd = [sys.executable, "-m", "broadcast", "run", "--db", str(project), "--season-db", url]
    done = subprocess.run(
        [*cmd, *STUDIO, *NO_PLACEMENTS, "--exit-when-done"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"赛季数据库 season: {shown(url)}" in done.stdout.splitlines() and "horse" not in done.stdout
    assert "演示赛季已建立" not in done.stdout
    with SeasonDB.open(url) as sdb:
        want = leaderboard_payload(sdb, int(sdb.season(None)["id"]))
    store = open_store(project)
    try:
        board = store.state["leaderboard"]
        assert want["rows"] and board["rows"] == want["rows"] and board["season"] == want["season"]
    finally:
        store.close()
    with SeasonDB.open(project) as local:
        assert local.seasons() == []
    postgres.drop_database(url.rsplit("/", 1)[1])


def test_every_command_that_opens_the_season_takes_season_db() -> None:
    """``--season-db`` on each: every ``season`` sub-command, ``import``, every ``export``, ``run``,
    ``console``, ``producer`` and every ``qualifiers`` sub-command (each resolves it with
    :func:`season_target`: the flag, then ``$GOUJI_SEASON_DB``, then the project file)."""
    import argparse
    import importlib

    from broadcast.__main__ import COMMANDS, OneLineParser

    def parsers(p: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.ArgumentParser]]:
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            return [(path, p)]
        return [x for name, q in subs[0].choices.items() for x in parsers(q, f"{path} {name}")]

    seen = []
    for command in ("season", "import", "export", "run", "console", "producer", "qualifiers"):
        top = OneLineParser(prog=command)
        importlib.import_module(COMMANDS[command][0]).register(top)
        for path, p in parsers(top, command):
            assert any("--season-db" in a.option_strings for a in p._actions), path
            seen.append(path)
    assert (
        len([s for s in seen if s.startswith("season ")]) == 17 and "export all" in seen and "console" in seen
    )
