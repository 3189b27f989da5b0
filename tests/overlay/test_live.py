"""Live behaviour of the pages in headless Chromium: an update shows in the next frame, reloads and
server restarts come back to the current state, on-air text is text, TAKE, tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broadcast.overlay import OverlayServer
from broadcast.overlay.demo import demo_state
from broadcast.overlay.memory import MemoryStore
from broadcast.studio import open_store
from tests.overlay.conftest import open_page, screenshot, wait_rendered

pytestmark = pytest.mark.browser

INJECTION = "<img src=x onerror=alert(1)>"
SHORT = "<hr>王建军<b>"  # markup within a name's 10 characters


def _cards(page: Any, seat: int) -> str:
    return page.text_content(f".scoreboard .seat.pos{seat} .cards") or ""


def test_update_shows_in_the_next_frame(page: Any, demo_store: MemoryStore, server: OverlayServer) -> None:
    open_page(page, server.url("program"))
    for n in (35, 20, 10, 3):
        frames_before = page.evaluate("window.__rendered.frames")

        def edit(st: dict[str, Any], n: int = n) -> None:
            st["table"]["seats"][1]["cards_left"] = n
            st["table"]["seats"][1]["baopai"] = n <= 10  # as the engine reports it (G5.6)

        change = demo_store.edit(edit)
        wait_rendered(page, change.seq)
        # exactly one animation frame after the patch arrived, and it carries the new value
        assert page.evaluate("window.__rendered.frames") == frames_before + 1
        assert _cards(page, 2) == str(n)
        assert page.eval_on_selector(".seat.pos2", "e => e.classList.contains('baopai')") == (n <= 10)


def test_reload_comes_back_to_the_current_state(
    page: Any, demo_store: MemoryStore, server: OverlayServer
) -> None:
    open_page(page, server.url("program"))
    change = demo_store.edit(lambda st: st["table"]["seats"][0].update(name="新名字", cards_left=5))
    wait_rendered(page, change.seq)
    page.reload()
    wait_rendered(page, change.seq)
    assert page.text_content(".seat.pos1 .name") == "新名字"
    assert _cards(page, 1) == "5"


def test_server_restart_comes_back_to_the_current_state(page: Any, demo_store: MemoryStore) -> None:
    srv = OverlayServer(demo_store, port=0)
    srv.start()
    port = srv.port
    try:
        open_page(page, srv.url("program"))
        assert page.evaluate("window.__overlay.connected")
    finally:
        srv.stop()
    # while the server is down the show goes on; the page keeps what it had on screen
    change = demo_store.edit(lambda st: st["table"]["seats"][3].update(cards_left=1))
    page.wait_for_function("!window.__overlay.connected", timeout=30000)
    assert _cards(page, 4) == "21"
    again = OverlayServer(demo_store, port=port)
    again.start()
    try:
        # the page reconnects by itself (backoff) and asks for nothing: the bound is only a guard
        wait_rendered(page, change.seq, timeout=30000)
        assert _cards(page, 4) == "1"
        assert page.evaluate("window.__overlay.reconnects") >= 1
    finally:
        again.stop()


def test_injected_name_shows_as_text(page: Any, shots: Path) -> None:
    st = demo_state(on=("scoreboard", "lower_third", "leaderboard", "ticker"))
    # names hold at most 10 characters on air: short markup there, the whole injection in longer fields
    st["table"]["seats"][0]["name"] = SHORT
    st["table"]["teams"]["odd"]["name"] = st["table"]["teams"]["odd"]["label"] = "<b>队</b>"
    st["lower_third"]["name"] = SHORT
    st["lower_third"]["line2"] = INJECTION
    st["table"]["message"] = INJECTION
    st["leaderboard"]["rows"][0]["name"] = SHORT
    st["sponsors"]["ticker"] = ["<script>alert(2)</script>"]
    st["table"]["teams"]["even"]["color"] = "red;background:url(http://x)"  # not a colour: ignored
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    with OverlayServer(MemoryStore(st), port=0) as srv:
        open_page(page, srv.url("program"))
        page.wait_for_timeout(300)
        assert page.text_content(".seat.pos1 .name") == SHORT
        assert page.text_content(".lower-third .lt-name") == SHORT
        assert page.text_content(".lower-third .lt-line2") == INJECTION
        assert page.text_content(".scoreboard .sb-message") == INJECTION
        assert page.text_content(".leaderboard .lb-body .name") == SHORT
        assert page.text_content(".sb-team.odd .team-name") == "<b>队</b>"
        assert page.text_content(".ticker .tk-item") == "<script>alert(2)</script>"
        # no element was created from the text
        assert (
            page.eval_on_selector_all(
                "#stage img:not(.logo):not([class*=logo]):not(.lt-photo)", "els => els.length"
            )
            == 0
        )
        assert page.eval_on_selector_all("#stage b, #stage hr, #stage script", "els => els.length") == 0
        assert (
            page.evaluate(
                "getComputedStyle(document.querySelector('.scoreboard')).getPropertyValue('--even').trim()"
            )
            == "#1f5fbf"
        )
        screenshot(page, shots / "injection.png", settle_ms=400)
    assert dialogs == []


def test_take_moves_preview_to_program(page: Any, other_page: Any, db_path: Path, shots: Path) -> None:
    store = open_store(db_path)
    store.dispatch("match.new", {"names": ["甲", "乙", "丙", "丁", "戊", "己"]})
    store.dispatch("graphic.set", {"bus": "preview", "graphic": "scoreboard", "on": True})
    store.dispatch("graphic.set", {"bus": "preview", "graphic": "lower_third", "on": True})
    store.dispatch("lower_third.set", {"name": "甲", "line2": "1号位"})
    try:
        with OverlayServer(store, port=0) as srv:
            # the preview in a context of its own (``other_page``), not a tab behind the program
            preview, program = other_page, page
            open_page(preview, srv.url("preview"), store.seq)
            open_page(program, srv.url("program"), store.seq)
            on = "els => els.map(e => e.dataset.graphic).sort()"
            assert preview.eval_on_selector_all(".g.on", on) == ["lower_third", "scoreboard"]
            assert program.eval_on_selector_all(".g.on", on) == []
            change = store.dispatch("bus.take")
            wait_rendered(program, change.seq)
            assert program.eval_on_selector_all(".g.on", on) == ["lower_third", "scoreboard"]
            assert program.text_content(".lower-third .lt-name") == "甲"
            screenshot(program, shots / "program_after_take.png")
            # panic clears program only
            change = store.dispatch("bus.panic")
            wait_rendered(program, change.seq)
            wait_rendered(preview, change.seq)
            assert program.eval_on_selector_all(".g.on", on) == []
            assert preview.eval_on_selector_all(".g.on", on) == ["lower_third", "scoreboard"]
    finally:
        store.close()


def test_token_is_required_and_a_bad_one_refused(page: Any, demo_store: MemoryStore) -> None:
    with OverlayServer(demo_store, port=0, token="s3cret-token") as srv:
        bad = page.goto(srv.url("program").replace("s3cret-token", "wrong"))
        assert bad is not None and bad.status == 403
        assert page.evaluate("window.__rendered === undefined")
        none = page.goto(f"{srv.base_url}/overlay/program.html?bus=program")
        assert none is not None and none.status == 403
        ok = page.goto(srv.url("program"))
        assert ok is not None and ok.status == 200
        wait_rendered(page, 0)
        assert page.text_content(".corner-bug .cb-name") == "沂蒙山泉"


def test_game_through_the_store_drives_the_scoreboard(page: Any, db_path: Path, shots: Path) -> None:
    """The engine-backed actions reach the page: cards left, turn, last play label, refusal leaves it."""
    store = open_store(db_path)
    store.dispatch(
        "match.new",
        {
            "names": ["甲", "乙", "丙", "丁", "戊", "己"],
            "teams": {"odd": {"name": "红队"}, "even": {"name": "蓝队"}},
        },
    )
    store.dispatch("graphic.set", {"bus": "program", "graphic": "scoreboard", "on": True})
    store.dispatch("game.new", {"leader": 3})
    try:
        with OverlayServer(store, port=0) as srv:
            open_page(page, srv.url("program"), store.seq)
            change = store.dispatch("game.play", {"line": "3 TTTTT"})
            wait_rendered(page, change.seq)
            assert page.text_content(".scoreboard .lp-play") == "五个10"
            assert page.eval_on_selector(".scoreboard .tag.gouji", "e => e.classList.contains('show')")
            assert _cards(page, 3) == "31"
            # only the 对头 (seat 6) may answer a 够级牌 (G6.2)
            assert page.eval_on_selector(".seat.pos6", "e => e.classList.contains('turn')")
            assert page.text_content(".scoreboard .turn-name") == "6号 己"
            screenshot(page, shots / "scoreboard_live.png")
    finally:
        store.close()


def test_bumper_keeps_its_line_while_it_fades_out(page: Any) -> None:
    st = demo_state(on=("bumper",))
    st["graphics"]["program"]["bumper"]["item"] = "special"
    store = MemoryStore(st)
    with OverlayServer(store, port=0) as srv:
        open_page(page, srv.url("program"))
        assert page.text_content(".bumper .bp-text") == "本节目由“沂蒙山泉”独家特约播出"
        change = store.edit(lambda s: s["graphics"]["program"]["bumper"].update(on=False, item=""))
        wait_rendered(page, change.seq)
        assert not page.eval_on_selector(".bumper", "e => e.classList.contains('on')")
        assert page.text_content(".bumper .bp-text") == "本节目由“沂蒙山泉”独家特约播出"
        # no web font was fetched: the system's Noto Sans CJK SC draws every glyph
        served = page.evaluate(
            "[...document.fonts].filter(f => f.status !== 'unloaded').map(f => f.family.replaceAll('\"', ''))"
        )
        assert "Gouji CJK Served" not in served
