"""Rundown order from the placements; sponsor actions in the store (and their journal replay)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.core import ActionRefused, ShowStore
from broadcast.sponsors.placements import Placements, load_placements, to_state
from broadcast.sponsors.rundown import build_rundown, format_table
from broadcast.studio import open_store
from tests.sponsors.conftest import AIR_DATE, DEMO_YAML, ROOT


def test_rundown_order_follows_the_package(demo: Placements) -> None:
    rd = build_rundown(demo, episode="第1期")
    ids = [c.id for c in rd.cues]
    # opening: corner bug, 冠名, 独家特约, then 赞助播出 in signing order
    assert ids[:6] == [
        "corner_bug_on",
        "bumper_title",
        "bumper_special",
        "bumper_supporter_1",
        "bumper_supporter_2",
        "bumper_supporter_3",
    ]
    assert [rd.cues[i].sponsor for i in range(3, 6)] == ["shunhe", "jinyimeng", "langya"]
    assert all(rd.cues[i].seconds == 5 for i in range(1, 6))
    # the producer's breaks land where they were put
    after_opening = ids[6:8]
    assert [rd.cues[6].film, rd.cues[7].film] == ["xiaodangjia_15s", "yiheyuan_15s"] and after_opening
    g1, g2, g3 = ids.index("game_1"), ids.index("game_2"), ids.index("game_3")
    assert [c.film for c in rd.cues[g1 + 1 : g2]] == [
        "shunhe_10s",
        "jinyimeng_10s",
        "langya_10s",
        "babao_15s",
    ]
    assert [c.film for c in rd.cues[g2 + 1 : g3]] == ["babao_15s", "jiaxin_5s"]
    assert ids.index("intro_prizes") < g1 < g2 < g3
    # 九宫格 draws, one per contestant, after the match; 英雄榜 then its film right after; credits last
    draws = [i for i, c in enumerate(rd.cues) if c.kind == "draw"]
    assert len(draws) == 6 and draws[0] > g3 and draws == list(range(draws[0], draws[0] + 6))
    lb = ids.index("leaderboard")
    assert lb > draws[-1] and ids[lb + 1] == "leaderboard_film"
    assert rd.cues[lb + 1].film == "luxin_15s" and rd.cues[lb + 1].seconds == 15
    assert ids[lb + 2] == "credits" and ids[-1] == "corner_bug_off"
    assert rd.fixed_seconds == 5 * 5 + 15 + 15 + 10 * 3 + 15 + 15 + 5 + 15
    table = format_table(rd)
    assert "冠名标版：《够级大明星》栏目由“小当家”独家冠名播出" in table and "九宫格抽奖：选手6" in table
    # --lang en: the generated words in English; the sponsors' names and the bumper's own text as entered
    en = format_table(rd, lang="en")
    assert (
        "title sponsor bumper: 《够级大明星》栏目由“小当家”独家冠名播出" in en
        and "Prize grid draw: Player 6" in en
    )
    assert en.splitlines()[2].split() == ["#", "Start", "Length", "Kind", "Cue", "Sponsor", "Notes"]
    generated_zh = (
        "节目流程",
        "开始",
        "时长",
        "类别",
        "说明",
        "秒",
        "定长",
        "标版：",
        "插播",
        "九宫格抽奖",
        "比赛 第",
    )
    assert not [w for w in generated_zh if w in en], en
    assert en.splitlines()[-1].startswith("Fixed-length items total ")


def test_the_rundown_command_prints_its_table_in_the_language_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``sponsors rundown --lang en`` like the other commands' ``--lang zh_CN|en`` (Chinese by default)."""
    import argparse

    from broadcast.cli import sponsors as cli

    parser = argparse.ArgumentParser()
    cli.register(parser)
    for lang, first in (("en", "Rundown"), ("zh_CN", "节目流程")):
        args = parser.parse_args(["rundown", str(DEMO_YAML), "--episode", "第1期", "--lang", lang])
        assert cli.main(args) == 0
        assert capsys.readouterr().out.startswith(f"{first} ")
    assert parser.parse_args(["rundown", str(DEMO_YAML)]).lang == "zh_CN"


def test_rundown_with_names_and_json_cli() -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "broadcast",
            "sponsors",
            "rundown",
            str(DEMO_YAML),
            "--episode",
            "第3期",
            "--contestants",
            "甲,乙",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    labels = [c["label"] for c in data["cues"] if c["kind"] == "draw"]
    assert labels == ["九宫格抽奖：甲", "九宫格抽奖：乙"] and data["episode"] == "第3期"


def _store(db: Path, p: Placements) -> ShowStore:
    store = open_store(db)
    store.dispatch("sponsors.load", to_state(p))
    return store


def test_load_draw_mention_shot_charity_and_replay(db_path: Path, demo: Placements) -> None:
    store = _store(db_path, demo)
    st = store.state
    assert st["sponsors"]["title"]["name"] == "小当家" and len(st["jiugongge"]["cells"]) == 9
    assert [r["id"] for r in st["sponsors"]["roster"]][:2] == ["xiaodangjia", "yiheyuan"]
    assert next(r for r in st["sponsors"]["roster"] if r["id"] == "xiaodangjia")["mentions_min"] == 6
    store.dispatch("jiugongge.draw", {"contestant": "王建国", "cell": 4})
    with pytest.raises(ActionRefused, match="已经抽过"):
        store.dispatch("jiugongge.draw", {"contestant": "王建国", "cell": 5})
    with pytest.raises(ActionRefused, match="已被 王建国 抽走"):
        store.dispatch("jiugongge.draw", {"contestant": "李秀英", "cell": 4})
    with pytest.raises(ActionRefused, match="格子编号"):
        store.dispatch("jiugongge.draw", {"contestant": "李秀英", "cell": 9})
    store.dispatch("jiugongge.draw", {"contestant": "李秀英", "cell": 0})
    assert store.state["jiugongge"]["draw"] == {"id": 2, "contestant": "李秀英", "cell": 0}
    store.dispatch("sponsor.mention", {"sponsor": "xiaodangjia"})
    store.dispatch("sponsor.mention", {"sponsor": "xiaodangjia"})
    with pytest.raises(ActionRefused, match="没有这个赞助商"):
        store.dispatch("sponsor.mention", {"sponsor": "小当家"})
    store.dispatch("sponsor.shot", {"slot": "table"})
    with pytest.raises(ActionRefused):
        store.dispatch("sponsor.shot", {"slot": "backdrop"})
    store.dispatch("charity.update", {"prize": {"contestant": "王建国", "yuan": 800}})
    store.dispatch("charity.update", {"prize": {"contestant": "李秀英", "yuan": 450.5}})
    with pytest.raises(ActionRefused):
        store.dispatch("charity.update", {"prize": {"contestant": "李秀英", "yuan": -1}})
    ch = store.state["charity"]
    assert (ch["prize_total_yuan"], ch["prizes"], ch["total_yuan"]) == (1250.5, 2, 125.05)
    before = store.snapshot()
    store.close()
    again = open_store(db_path)  # crash recovery replays the journal, never the YAML file
    assert again.state == before
    assert again.state["sponsors"]["mentions"] == {"xiaodangjia": 2}
    again.dispatch("sponsors.episode_reset", {})
    assert again.state["jiugongge"]["draws"] == [] and again.state["sponsors"]["mentions"] == {}


def test_reload_keeps_draws_only_when_cells_are_unchanged(
    db_path: Path, demo: Placements, variant: Callable[..., tuple[Path, str]]
) -> None:
    store = _store(db_path, demo)
    store.dispatch("jiugongge.draw", {"contestant": "王建国", "cell": 1})
    store.dispatch("sponsors.load", to_state(demo))
    assert len(store.state["jiugongge"]["draws"]) == 1
    path, _ = variant(("prize: 电热水壶", "prize: 电饭煲"))
    changed = load_placements(path, air_date=AIR_DATE)
    store.dispatch("sponsors.load", to_state(changed))
    assert (
        store.state["jiugongge"]["draws"] == [] and store.state["jiugongge"]["cells"][2]["prize"] == "电饭煲"
    )
    with pytest.raises(ActionRefused, match="9 格"):
        store.dispatch("sponsors.load", {"sponsors": {}, "cells": [{}] * 8})
