"""The qualifier board: the ranking key as the 英雄榜's, ties sharing a rank, the order independent of
the import order, the on-air payload at its maxima."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from broadcast.qualifiers.actions import board_payload
from broadcast.qualifiers.board import ranked
from broadcast.qualifiers.check import STATS, Checked
from broadcast.qualifiers.store import QualifierDB
from broadcast.season.rankings import SpecError

from .conftest import call

# platform id, name, games, points, 头科 (place1), 大落 (place6)
PLAYERS = [
    ("P05", "五号", 10, 50, 2, 1),
    ("P01", "一号", 10, 60, 3, 0),
    ("P03", "三号", 10, 50, 2, 1),  # level with P05 on every term: 并列, P03 shown first (by id)
    ("P02", "二号", 4, 40, 3, 0),  # the best 头科率 (0.75)
    ("P04", "四号", 12, 50, 1, 3),
]


def _db(tmp_path: Path, order: list[int]) -> QualifierDB:
    qdb = QualifierDB.open(tmp_path / f"b{''.join(map(str, order))}.sqlite")
    imp = qdb.start_import(["test"])
    for i in order:  # one batch per player, in the order given
        pid, name, games, points, firsts, lasts = PLAYERS[i]
        stats = dict.fromkeys(STATS, 0) | {
            "games": games,
            "points": points,
            "place1": firsts,
            "place6": lasts,
        }
        b = Checked(counted=[pid.encode()], ids=[pid], names=[name], stats=array("q", stats.values()))
        qdb.commit(imp, [b])
    return qdb


def test_the_default_key_ties_and_the_order_do_not_depend_on_the_import(tmp_path: Path) -> None:
    boards = []
    for order in ([0, 1, 2, 3, 4], [4, 3, 2, 1, 0]):
        with _db(tmp_path, order) as qdb:
            boards.append([(r.rank, r.tied, r.platform_id) for r in ranked(qdb)])
    assert boards[0] == boards[1]
    # points desc, firsts desc, lasts asc: P01 60; then 50s — P03/P05 (2 头科, 1 大落) level, P04 (1 头科)
    assert boards[0] == [
        (1, False, "P01"),
        (2, True, "P03"),
        (2, True, "P05"),
        (4, False, "P04"),
        (5, False, "P02"),
    ]


def test_another_key_and_the_top_with_its_ties(tmp_path: Path) -> None:
    with _db(tmp_path, [0, 1, 2, 3, 4]) as qdb:
        rate = [r.platform_id for r in ranked(qdb, "first_rate desc, games asc")]
        assert rate[0] == "P02" and rate[1] == "P01"  # 0.75, then 0.3
        top2 = list(ranked(qdb, None, 2))
        assert [r.platform_id for r in top2] == ["P01", "P03", "P05"]  # the tie at the cut comes along
        with pytest.raises(SpecError, match="h2h"):
            list(ranked(qdb, "h2h"))  # a million games are not kept seat by seat: no head-to-head
        payload = board_payload(qdb, top=10)
        assert payload["summary"] == "5局 · 5位选手" and payload["spec"].startswith("按积分、头科")
        assert [r["rank"] for r in payload["rows"]] == [1, 2, 2, 4, 5]
    bad = call("qualifiers", "board", "--db", str(tmp_path / "b01234.sqlite"), "--spec", "wins desc")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "wins" in bad.stderr


def test_a_long_nickname_is_cut_for_air_and_kept_whole_in_the_database(tmp_path: Path) -> None:
    qdb = QualifierDB.open(tmp_path / "long.sqlite")
    imp = qdb.start_import(["test"])
    name = "沂蒙山够级协会第一把好手"  # 12 characters: whole on air
    longer = name + "王"  # 13: cut to 11 and …
    for pid, n in (("A", name), ("B", longer)):
        stats = dict.fromkeys(STATS, 0) | {"games": 1, "points": 7 if pid == "A" else 5}
        qdb.commit(
            imp, [Checked(counted=[pid.encode()], ids=[pid], names=[n], stats=array("q", stats.values()))]
        )
    rows = board_payload(qdb)["rows"]
    assert [r["name"] for r in rows] == [name, longer[:11] + "…"]
    assert qdb.player("B")["name"] == longer
    qdb.close()


def test_invite_refuses_a_name_too_long_for_the_season_whole_in_each_language(tmp_path: Path) -> None:
    import re

    from broadcast.qualifiers.invite import invite
    from broadcast.qualifiers.store import QualifierError
    from broadcast.season.model import SeasonDB

    qdb = _db(tmp_path, [0, 1, 2, 3, 4])
    qdb.conn.execute(
        "UPDATE qualifiers_players SET name=? WHERE platform_id='P03'", ("十一个字的网名超过上限",)
    )
    with qdb, SeasonDB.open(qdb.path) as sdb:
        sid = sdb.create_season("2012春季")
        with pytest.raises(QualifierError) as e:
            invite(qdb, sdb, 3, renames={"P01": "一号"})
        assert sdb.players(sid) == []  # all or nothing
        assert e.value.zh.startswith(
            "第2名 P03 “十一个字的网名超过上限” 有 11 个字，赛季选手姓名最多 10 个字"
        )
        assert "--rename P03=" in e.value.zh and not re.search(
            r"[\u4e00-\u9fff]", e.value.en.replace("十一个字的网名超过上限", "")
        )
        assert "rank 2, platform id P03: the name has 11 characters" in e.value.en
        done = invite(qdb, sdb, 3, renames={"P03": "三号"})
        assert [(str(p["code"]), str(p["name"])) for p in sdb.players(sid)] == [
            ("P01", "一号"),
            ("P03", "三号"),
            ("P05", "五号"),
        ]
        assert done.tied_out == [] and len(done.added) == 3
