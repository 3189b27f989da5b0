"""The engine is the only place that knows a rule: what the pages and the OBS graphics show (报牌, titles
so far, who passed, team names, the play's words) is decided by the engine, projected into the state by
the game component, and only rendered by overlays/ and broadcast/obs/."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from broadcast import studio
from broadcast.obs import layout as L
from engine import Action, Game, new_game
from engine.words import PRESETS, TEAM_NAMES_ZH, TITLES, team_name

ROOT = Path(__file__).resolve().parents[2]


def _selfplay(seed: int, rules: str) -> tuple[Game, list[str]]:
    g = new_game(rules, seed=seed)
    rng = random.Random(seed)
    lines = []
    while not g.is_over():
        a = g.random_action(rng)
        g.push(a)
        lines.append(str(a))
    return g, lines


@pytest.mark.parametrize("seed", range(40))
def test_passed_this_round_is_the_passes_since_the_lead(seed: int) -> None:
    """G5.2: the seats that passed in the current round — the record's passes since the round's lead."""
    rules = "dagang" if seed % 2 else "tv_match"
    g = new_game(rules, seed=seed)
    rng = random.Random(seed)
    lead_at = 0
    while not g.is_over():
        if g.last_play is None:
            lead_at = len(g.moves)
        g.push(g.random_action(rng))
        since = {a.seat for a in g.moves[lead_at:] if a.kind == "pass"}
        want = frozenset() if g.is_over() or g.last_play is None else frozenset(since)
        assert g.passed_this_round() == want


def test_titles_so_far_rank_zha_shao_below_men(tmp_path: Path) -> None:
    """G9.2: 诈烧 ranks below 闷, whatever the order of events. dagang: seat 1 is 闷 first (move 2), seat 3
    诈烧 later (move 17): the scoreboard shows 1 二落 and 3 大落 — the titles the game ends with. (A
    ranking by order of events would show seat 1 大落 and seat 3 二落.)"""
    hands = ["KK33", "6", "JJJJJB8", "AA98", "TTTTTQ9", "7"]
    lines = "1 KK|4 AA|5 pass|6 pass|2 pass|3 pass|4 9|5 Q|6 pass|2 pass|3 pass|4 pass|5 TTTTT|3 JJJJJ"
    lines += "|4 pass|6 pass|3 8"
    tail = "4 8|5 9|6 pass|2 pass|6 7"
    g = Game("dagang", hands=dict(enumerate(hands, start=1)), leader=1)
    for line in (lines + "|" + tail).split("|"):
        g.push(Action.parse(line))
    assert g.result().titles[1] == "二落" and g.result().titles[3] == "大落"
    assert [e for _m, e, _s in g.events() if e in ("men", "zha_shao")] == ["men", "zha_shao"]
    with studio.open_store(tmp_path / "s.sqlite") as store:
        store.dispatch("game.new", {"hands": hands, "leader": 1, "rules": "dagang"})
        for line in lines.split("|"):
            store.dispatch("game.play", {"line": line})
        shown = {s["seat"]: s["title"] for s in store.state["table"]["seats"] if s["title"]}
        assert shown == {1: "二落", 3: "大落"}


def test_the_store_projects_the_engine_decisions(tmp_path: Path) -> None:
    """Every move: seats' titles, 报牌 (G5.6), 过 (G5.2) and 无头 (G8) in the state are the engine's."""
    g, lines = _selfplay(245, "dagang")
    with studio.open_store(tmp_path / "s.sqlite") as store:
        store.dispatch("game.new", {"seed": 245, "rules": "dagang"})
        live = new_game("dagang", seed=245)
        seen_baopai = seen_passed = False
        for line in lines:
            store.dispatch("game.play", {"line": line})
            live.push(type(g.moves[0]).parse(line))
            seats = store.state["table"]["seats"]
            titles = live.titles_so_far()
            reporting = live.report_counts()
            passed = live.passed_this_round()
            assert [s["title"] for s in seats] == [titles.get(n) for n in range(1, 7)]
            assert [s["baopai"] for s in seats] == [n in reporting for n in range(1, 7)]
            assert [s["passed"] for s in seats] == [n in passed for n in range(1, 7)]
            assert [s["status"] == "wutou" for s in seats] == [
                live.is_wutou(n) and titles.get(n) is None and live.burner != n for n in range(1, 7)
            ]
            seen_baopai |= any(s["baopai"] for s in seats)
            seen_passed |= any(s["passed"] for s in seats)
        assert seen_baopai and seen_passed
        assert {s["seat"]: s["title"] for s in store.state["table"]["seats"]} == g.result().titles


def test_a_seat_with_few_cards_reports_only_while_in_play(tmp_path: Path) -> None:
    """G5.6: 报牌 is for players in play with 10 cards or fewer — not for a player who has played out."""
    with studio.open_store(tmp_path / "s.sqlite") as store:
        store.dispatch("game.new", {"leader": 1, "counts": [3, 36, 36, 11, 10, 36]})
        seats = store.state["table"]["seats"]
        assert [s["baopai"] for s in seats] == [True, False, False, False, True, False]
        store.dispatch("game.play", {"line": "1 333"})
        seats = store.state["table"]["seats"]
        assert seats[0]["title"] == TITLES[0] and seats[0]["cards_left"] == 0
        assert seats[0]["baopai"] is False


def test_team_names_on_air_are_the_engines(tmp_path: Path) -> None:
    """G1.2: a team without a name is 单号队 / 双号队 everywhere (the OBS fallback once said 单数队)."""
    default = studio.default_state()
    assert {t: default["table"]["teams"][t]["label"] for t in ("odd", "even")} == TEAM_NAMES_ZH
    lay = L.build_layout(default, browser=False)
    assert lay.pictures["scoreboard"].op("比分·单队名").settings["text"] == "单号队" == team_name("odd")
    assert lay.pictures["scoreboard"].op("比分·双队名").settings["text"] == "双号队" == team_name("even")
    with studio.open_store(tmp_path / "s.sqlite") as store:
        store.dispatch("match.new", {"teams": {"odd": {"name": " 红队 "}}})
        teams = store.state["table"]["teams"]
        assert (teams["odd"]["name"], teams["odd"]["label"]) == ("红队", "红队")
        assert (teams["even"]["name"], teams["even"]["label"]) == ("", "双号队")
        store.dispatch("match.update", {"teams": {"odd": {"name": ""}}})
        assert store.state["table"]["teams"]["odd"]["label"] == "单号队"
        store.dispatch("match.new", {})  # a new match keeps the names and what they show
        assert store.state["table"]["teams"]["odd"]["label"] == "单号队"


def test_the_schema_knows_the_engines_presets() -> None:
    table = json.loads((ROOT / "broadcast" / "game" / "schema.json").read_text(encoding="utf-8"))
    assert tuple(table["properties"]["table"]["properties"]["rules"]["enum"]) == PRESETS


def test_pages_and_obs_graphics_decide_no_rule() -> None:
    """The pages and the native OBS graphics render the state's fields: no 报牌 threshold and no
    team-name fallback of their own."""
    sources: dict[str, str] = {
        p.name: p.read_text(encoding="utf-8") for p in (ROOT / "overlays" / "js").rglob("*.js")
    }
    sources["layout.py"] = (ROOT / "broadcast" / "obs" / "layout.py").read_text(encoding="utf-8")
    for name, src in sources.items():
        for word in ("单号队", "双号队", "单数队", "双数队"):
            assert word not in src, f"{name} has its own {word}"
        assert not re.search(r"(<=|<|>=|>)\s*10\b|BAOPAI", src), f"{name} decides 报牌 itself"
