"""The OBS bridge's pure parts, without an OBS: the state → OBS comparison (sync.py), on-air tracking
(onair.py), asset paths (assets.py), the credits table, the headless launcher's command line."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from broadcast.core import airlog as A
from broadcast.obs import layout as L
from broadcast.obs import sync as S
from broadcast.obs.assets import AssetResolver
from broadcast.obs.graphics.credits import NAME_BOX, ROLE_BOX, credits_table
from broadcast.obs.graphics.paint import text_width
from broadcast.obs.headless import HeadlessObs
from broadcast.obs.onair import OnAirTracker
from broadcast.studio import default_state

ROOT = Path(__file__).resolve().parents[2]


def _native(state: dict[str, Any] | None = None) -> L.Layout:
    return L.build_layout(state or default_state(), browser=False)


def _listing_of(lay: L.Layout, *, enabled: bool = False) -> dict[str, list[S.SceneItem]]:
    """What OBS would report for a layout provisioned exactly (graphics hidden unless ``enabled``)."""
    out: dict[str, list[S.SceneItem]] = {}
    iid = 0
    for scene in lay.scene_order():
        items = []
        for k, item in enumerate(lay.scenes[scene]):
            iid += 1
            t = S.transform(lay.inputs.get(item.source), item, scene)
            items.append(S.SceneItem(iid, item.source, enabled or not item.graphic, k, t))
        out[scene] = items
    return out


# -- sync: the state → OBS comparison ------------------------------------------------------------
def test_an_exact_obs_needs_no_request() -> None:
    lay = _native()
    plan = S.plan_items(lay, _listing_of(lay))
    assert (plan.create, plan.remove, plan.transforms, plan.base_show) == ([], [], [], [])
    assert S.plan_settings(lay, {n: dict(s.settings) for n, s in lay.inputs.items()}) == []
    current = {sc: [i.id for i in items] for sc, items in _listing_of(lay).items()}
    assert S.plan_order(current, current) == []


def test_only_what_differs_is_sent() -> None:
    lay = _native()
    listing = _listing_of(lay)
    seat1 = listing[L.SCENE_GAME][1]
    moved = S.SceneItem(
        seat1.id, seat1.source, seat1.enabled, seat1.index, {**seat1.transform, "positionX": 7.0}
    )
    listing[L.SCENE_GAME][1] = moved
    bg = listing[L.SCENE_LEADERBOARD][0]
    listing[L.SCENE_LEADERBOARD][0] = S.SceneItem(bg.id, bg.source, False, bg.index, bg.transform)
    gone = listing[L.SCENE_CREDITS].pop()
    dup = S.SceneItem(999, seat1.source, False, 99, seat1.transform)
    listing[L.SCENE_GAME].append(dup)
    listing[L.SCENE_GAME].append(S.SceneItem(1000, "图形·比分", True, 100))  # an old nested graphic
    plan = S.plan_items(lay, listing)
    assert [(sc, it.source) for sc, it in plan.create] == [(L.SCENE_CREDITS, gone.source)]
    assert sorted(plan.remove) == sorted(
        [(L.SCENE_GAME, 999, seat1.source), (L.SCENE_GAME, 1000, "图形·比分")]
    )
    assert [(sc, iid) for sc, iid, _t in plan.transforms] == [(L.SCENE_GAME, seat1.id)]
    assert plan.base_show == [(L.SCENE_LEADERBOARD, bg.id)]
    have = {n: dict(s.settings) for n, s in lay.inputs.items()}
    have["角标·画面2"] = {**have["角标·画面2"], "unload": True}
    assert [n for n, _s in S.plan_settings(lay, have)] == ["角标·画面2"]


def test_order_moves_batch_across_scenes() -> None:
    current = {"a": [3, 2, 1], "b": [5, 4], "c": [6]}
    wanted = {"a": [1, 2, 3], "b": [4, 5], "c": [6]}
    batches = S.plan_order(current, wanted)
    # replay the moves as OBS would and end in the wanted order; independent scenes share batches
    order = {k: list(v) for k, v in current.items()}
    for batch in batches:
        for _t, d in batch:
            order[d["sceneName"]].remove(d["sceneItemId"])
            order[d["sceneName"]].insert(d["sceneItemIndex"], d["sceneItemId"])
    assert order == wanted and len(batches) == 2 and len(batches[0]) == 2


def _ids(lay: L.Layout) -> dict[tuple[str, str], int]:
    return {
        (sc, it.source): i
        for i, (sc, it) in enumerate((sc, it) for sc in lay.scenes for it in lay.scenes[sc])
    }


def test_one_state_change_shows_before_the_cut_and_hides_after() -> None:
    lay = _native()
    ids = _ids(lay)
    enabled = {k: False for k in ids}
    bus = default_state()["graphics"]["program"]
    files = {g: f"/pictures/{g}-1.png" for g in lay.graphics}
    sent: dict[str, dict[str, Any]] = {n: dict(s.settings) for n, s in lay.inputs.items()}
    for g in lay.graphics:  # every graphic's first picture source holds its picture already
        sent[L.buffer_inputs(g)[0]]["file"] = files[g]
    for g in ("corner_bug", "scoreboard"):
        enabled[(L.SCENE_GAME, L.buffer_inputs(g)[0])] = True
    bus["corner_bug"]["on"] = True
    bus["leaderboard"]["on"] = True  # the board: cut to its scene; the scoreboard goes off
    plan = S.plan_sync(
        lay,
        bus,
        sent=sent,
        enabled=enabled,
        item_ids=ids,
        program=L.SCENE_GAME,
        want_scene=L.program_scene_for(bus),
        files=files,
    )
    shown = set(plan.show)
    hidden = set(plan.hide)

    def item(scene: str, g: str, k: int = 0) -> tuple[str, int]:
        return (scene, ids[(scene, L.buffer_inputs(g)[k])])

    # the board in its scene; the corner bug in every scene that carries it (it already shows in the game)
    bug = {item(sc, "corner_bug") for sc in L.CORNER_BUG_SCENES if sc != L.SCENE_GAME}
    assert shown == {item(L.SCENE_LEADERBOARD, "leaderboard")} | bug
    assert hidden == {item(L.SCENE_GAME, "scoreboard")}
    assert plan.program == L.SCENE_LEADERBOARD and plan.settings == ()
    assert plan.cut() == ("SetCurrentProgramScene", {"sceneName": L.SCENE_LEADERBOARD})
    first, last = plan.first(), plan.last()
    assert all(d["sceneItemEnabled"] for _t, d in first) and not any(d["sceneItemEnabled"] for _t, d in last)
    # nothing changed → nothing to send
    again = S.plan_sync(
        lay,
        bus,
        sent=sent,
        enabled={
            **enabled,
            **{k: True for k in ids if (k[0], ids[k]) in shown},
            **{k: False for k in ids if (k[0], ids[k]) in hidden},
        },
        item_ids=ids,
        program=L.SCENE_LEADERBOARD,
        want_scene=L.SCENE_LEADERBOARD,
        files=files,
        front=dict(plan.front),
    )
    assert again.empty


def test_a_new_picture_on_air_goes_into_the_hidden_source_first() -> None:
    """OBS's image source drops its picture before it has decoded a new one: the picture on air is
    never re-loaded. The new one is loaded into the graphic's other source, which is shown before the
    old one is hidden; a graphic off air is re-loaded where it is; a picture the other source still
    holds is shown again without loading."""
    lay = _native()
    ids = _ids(lay)
    a, b = L.buffer_inputs("scoreboard")
    bus = default_state()["graphics"]["program"]
    bus["scoreboard"]["on"] = True
    sent: dict[str, dict[str, Any]] = {n: dict(s.settings) for n, s in lay.inputs.items()}
    sent[a]["file"] = "/p/score-1.png"
    enabled = {k: False for k in ids}
    enabled[(L.SCENE_GAME, a)] = True  # on air: the first source, picture 1

    def plan(files: dict[str, str], front: dict[str, str] | None = None) -> S.SyncPlan:
        return S.plan_sync(
            lay,
            bus,
            sent=sent,
            enabled=enabled,
            item_ids=ids,
            program=L.SCENE_GAME,
            want_scene=L.SCENE_GAME,
            files=files,
            front=front,
        )

    p = plan({"scoreboard": "/p/score-2.png"})
    assert dict(p.settings) == {b: {"file": "/p/score-2.png"}}  # loaded where it is not on air
    assert p.show == ((L.SCENE_GAME, ids[(L.SCENE_GAME, b)]),)
    assert p.hide == ((L.SCENE_GAME, ids[(L.SCENE_GAME, a)]),)
    assert dict(p.front)["scoreboard"] == b
    first = p.first()
    assert first[0][0] == "SetInputSettings" and first[-1][1]["sceneItemEnabled"]  # loaded, then shown
    # back to picture 1, which the first source still holds: shown again, nothing loaded
    sent[b]["file"] = "/p/score-2.png"
    enabled[(L.SCENE_GAME, a)], enabled[(L.SCENE_GAME, b)] = False, True
    back = plan({"scoreboard": "/p/score-1.png"}, {"scoreboard": b})
    assert back.settings == () and dict(back.front)["scoreboard"] == a
    assert back.show == ((L.SCENE_GAME, ids[(L.SCENE_GAME, a)]),)
    # off air: its own source is re-loaded, nothing shown
    bus["scoreboard"]["on"] = False
    enabled[(L.SCENE_GAME, b)] = False
    off = plan({"scoreboard": "/p/score-3.png"}, {"scoreboard": b})
    assert dict(off.settings) == {b: {"file": "/p/score-3.png"}} and off.show == () and off.hide == ()


# -- on-air tracking -----------------------------------------------------------------------------
class Rows:
    def __init__(self) -> None:
        self.rows: list[tuple[float, str, str, dict[str, Any], str]] = []

    def __call__(self, ts: float, kind: str, subject: str, detail: dict[str, Any], source: str) -> int:
        self.rows.append((ts, kind, subject, detail, source))
        return len(self.rows)

    def brief(self) -> list[tuple[float, str, str]]:
        return [(ts, k, s) for ts, k, s, _d, _src in self.rows]


def test_nothing_counts_before_obs_confirms_and_nothing_while_it_is_down() -> None:
    rows = Rows()
    t = OnAirTracker(rows)
    t.observe(1.0, L.SCENE_GAME, {"corner_bug": "x"})  # before OBS confirmed anything: ignored
    t.down(1.5, "unreachable")
    t.down(1.7, "unreachable")  # one row per outage
    t.observe(1.8, L.SCENE_GAME, {"corner_bug": "x"})  # still down: ignored
    t.up(2.0)
    t.observe(2.0, L.SCENE_BUMPER, {"bumper": "title", "corner_bug": "x"})
    t.observe(2.1, L.SCENE_BUMPER, {"bumper": "title", "corner_bug": "x"})  # no change, no row
    t.observe(4.0, L.SCENE_BUMPER, {"bumper": "special", "corner_bug": "x"})  # the next sponsor's line
    t.down(9.0, "frozen", since=6.5, detail="silent")
    t.observe(9.5, L.SCENE_GAME, {"scoreboard": ""})  # while down: nothing
    t.up(12.0)
    t.observe(12.0, L.SCENE_GAME, {"corner_bug": "x"})
    t.down(20.0, "stopped")
    assert rows.brief() == [
        (1.5, A.OBS_DOWN, "unreachable"),
        (2.0, A.OBS_UP, ""),
        (2.0, A.PROGRAM_SCENE, L.SCENE_BUMPER),
        (2.0, A.GRAPHIC_ON, "bumper"),
        (2.0, A.GRAPHIC_ON, "corner_bug"),
        (4.0, A.GRAPHIC_OFF, "bumper"),
        (4.0, A.GRAPHIC_ON, "bumper"),
        (9.0, A.GRAPHIC_OFF, "bumper"),
        (9.0, A.GRAPHIC_OFF, "corner_bug"),
        (9.0, A.PROGRAM_SCENE, ""),
        (9.0, A.OBS_DOWN, "frozen"),
        (12.0, A.OBS_UP, ""),
        (12.0, A.PROGRAM_SCENE, L.SCENE_GAME),
        (12.0, A.GRAPHIC_ON, "corner_bug"),
        (20.0, A.GRAPHIC_OFF, "corner_bug"),
        (20.0, A.PROGRAM_SCENE, ""),
        (20.0, A.OBS_DOWN, "stopped"),
    ]
    frozen = next(r for r in rows.rows if r[2] == "frozen")
    assert frozen[3] == {"since": 6.5, "detail": "silent"}
    assert [r[3]["item"] for r in rows.rows if r[2] == "bumper"] == ["title", "title", "special", "special"]
    assert {r[3].get("reason") for r in rows.rows if r[1] == A.GRAPHIC_OFF and r[0] >= 9.0} == {
        "obs_lost",
        "stopped",
    }


def test_rows_never_go_back_in_time_and_films_close_with_the_link() -> None:
    rows = Rows()
    t = OnAirTracker(rows)
    t.up(5.0)
    t.observe(5.0, L.SCENE_BREAK, {})
    t.film_started(6.0, "xdj_15s", {"reason": "break"})
    t.observe(5.5, L.SCENE_BREAK, {"corner_bug": ""})  # a late event: stamped no earlier than 6.0
    t.down(7.0, "lost")
    assert [r[0] for r in rows.rows] == sorted(r[0] for r in rows.rows)
    assert (7.0, A.FILM_END, "xdj_15s") in rows.brief()
    assert next(r for r in rows.rows if r[1] == A.FILM_END)[3]["stopped"] == "obs_lost"


# -- assets --------------------------------------------------------------------------------------
def test_web_paths_of_the_state_reach_obs_as_files(tmp_path: Path) -> None:
    resolve = AssetResolver(base=tmp_path)
    logo = resolve("/assets/sponsors/demo/logos/xiaodangjia.png")
    assert logo == str((ROOT / "sponsor_assets" / "demo" / "logos" / "xiaodangjia.png").resolve())
    assert resolve("http://127.0.0.1:8610/assets/sponsors/demo/logos/xiaodangjia.png") == logo
    assert resolve("/overlay/assets/demo/xdj.svg").endswith("overlays/assets/demo/xdj.svg")
    (tmp_path / "own.png").write_bytes(b"\x89PNG")
    assert resolve("own.png") == str(tmp_path / "own.png")
    for bad in (
        "/assets/sponsors/../pyproject.toml",
        "/assets/sponsors/demo/none.png",
        "https://x.example/a.png",
    ):
        assert resolve(bad) == "", bad
    # every logo of the placements reaches the native graphics' pictures as a file
    from datetime import date

    from broadcast.sponsors.placements import load_placements, to_state

    state = default_state()
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    state["sponsors"].update(to_state(p)["sponsors"])
    lay = L.build_layout(state, browser=False)
    images = {
        o.name: o.settings["file"] for pic in lay.pictures.values() for o in pic.ops if o.kind == L.IMAGE
    }
    assert images and all(f and Path(f).is_file() for f in images.values()), images


# -- the credits ---------------------------------------------------------------------------------
def test_credits_are_one_table_whose_rows_stay_aligned() -> None:
    long_role = "本节目礼品由小当家便利店配货中心独家提供"
    for n in (1, 5, 14, 24):
        credits = [
            {"role": long_role if k % 3 == 0 else "赞助播出", "name": f"赞助商{k}号"} for k in range(n)
        ]
        roles, names, size = credits_table(credits)
        assert len(roles) == len(names) == n  # row k of one column is row k of the other
        assert max(text_width(r, size) for r in roles) <= ROLE_BOX[0]
        assert max(text_width(x, size) * 1.05 for x in names) <= NAME_BOX[0]
        assert n * size * 1.5 <= ROLE_BOX[1] or size == 12
        state = default_state()
        state["sponsors"]["credits"] = credits
        lay = _native(state)
        role, name = lay.pictures["credits"].op("片尾·职务"), lay.pictures["credits"].op("片尾·名单")
        assert role.settings["font"]["size"] == name.settings["font"]["size"] == size
        assert role.fit is None and name.fit is None  # never shrunk by OBS on its own
        assert role.y == name.y


# -- the password --------------------------------------------------------------------------------
def test_headless_obs_gets_the_password_from_its_config_not_the_command_line(tmp_path: Path) -> None:
    obs = HeadlessObs(tmp_path, password="s3cret-Pw")
    obs.write_config()
    ini = obs.home / ".config" / "obs-studio" / "global.ini"
    assert "ServerPassword=s3cret-Pw" in ini.read_text() and "AuthRequired=true" in ini.read_text()
    assert os.stat(ini).st_mode & 0o077 == 0  # readable by its owner only
