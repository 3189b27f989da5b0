"""The commentators' screen (broadcast/commentators): in the session's Chromium with the hands entered, every
hand is there, with what each seat could beat the top play with, 报牌 and the 胜率's history and moments;
the same hands never reach an on-air page (program, preview, /state.json), and the screen refuses anyone
without its own token, the on-air token included, and any request naming a bus."""

from __future__ import annotations

import copy
import http.client
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from broadcast.commentators.server import CommentatorsServer
from broadcast.commentators.view import fresh, moments, view
from broadcast.game.adapter import replay
from broadcast.obs.graphics import winprob as native
from broadcast.overlay import OverlayServer
from broadcast.rehearsal import selfplay_records
from broadcast.studio import open_store
from broadcast.winprob.actions import position_key
from broadcast.winprob.service import figures
from engine.cards import format_counts
from engine.listing import enumerate_beats
from engine.winprob import evaluate, last_moment
from engine.words import TITLE_NAMES_EN
from tests.overlay.conftest import run_async
from tests.textfit import limits, text_of

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "winprob"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A store with the hands entered and 40 decisions, a 胜率 after every 4th (the engine's, 20
    play-outs), shared by the module's tests (the page's test keys one more decision at its end)."""
    store = open_store(tmp_path_factory.mktemp("played") / "s.sqlite")
    rec = selfplay_records(2011, "tv_match")[0]
    store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
    for i, line in enumerate([None, *rec.moves[:40]]):
        if line is not None:
            store.dispatch("game.play", {"line": line})
        if i % 4 and i != 40:
            continue
        _estimate(store)
    try:
        yield store, rec
    finally:
        store.close()


def _estimate(store: Any) -> None:
    """The engine's 胜率 of the store's position (20 play-outs), as the studio's evaluator sends it."""
    g = replay(store.state)
    seat, tags = last_moment(g)
    est = figures(evaluate(g, 20))
    position = position_key(store.state)
    store.dispatch("winprob.estimate", {"position": position, "estimate": est, "seat": seat, "tags": tags})


def _until(page: Any, predicate: str, arg: Any = None, timeout: float = 60.0) -> None:
    """Wait until the page's ``predicate`` (a JS function of ``arg``) holds, asked from here: the page's
    CSP allows no eval, which Playwright's wait_for_function needs when it has to poll."""
    end = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        assert time.monotonic() < end, f"the page never got to {predicate}"
        page.wait_for_timeout(50)


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_the_view_lists_the_beats_of_each_hand_and_the_largest_swings(played: Any) -> None:
    store, _ = played
    v = view(store.state)
    # the badges' words are the engine's (its glossary's): the page holds none of its own
    assert v["seat_words"] == {"wutou": ["无头", "headless"], "burning": ["烧牌中", "burning"]}
    g = replay(store.state)
    top = g.last_play
    for s in v["seats"]:
        h = g.hand_counts(s["seat"])
        assert h is not None and s["hand"] == format_counts(h) and s["cards_left"] == sum(h)
        if top is not None and s["seat"] != top.seat and g.in_play(s["seat"]):
            assert s["beats"]["count"] == len(enumerate_beats(h, top.play))
    hist = store.state["winprob_history"]["history"]
    swings = moments(hist)
    deltas = [abs(m["delta"]) for m in swings]
    assert deltas == sorted(deltas, reverse=True) and len(swings) == min(5, len(hist) - 1)
    every = sorted(abs(b["odd"] - a["odd"]) for a, b in zip(hist, hist[1:], strict=False))
    assert deltas[0] == pytest.approx(every[-1], abs=1e-4)


@pytest.mark.browser
def test_the_commentators_page_shows_the_hands_and_no_on_air_page_ever_does(played: Any, page: Any) -> None:
    store, rec = played
    hands_now = [s["hand"] for s in view(store.state)["seats"]]
    secrets = [h for h in rec.hands + hands_now if h]
    with (
        OverlayServer(store, port=0, token="on-air-token") as air,
        CommentatorsServer(store, port=0) as desk,
    ):
        assert desk.token != air.token and desk.port != air.port
        # the screen itself: its own token, or nothing
        assert _get(desk.port, "/view.json")[0] == 403
        assert _get(desk.port, "/view.json?token=on-air-token")[0] == 403
        assert _get(desk.port, f"/?token={desk.token}&bus=program")[0] == 403  # never a program source
        status, body = _get(desk.port, f"/view.json?token={desk.token}")
        assert status == 200 and all(h in body for h in hands_now)
        # the on-air server: no route to it, and no hand in anything it serves
        assert _get(air.port, "/view.json?token=on-air-token")[0] == 404
        texts = [_get(air.port, "/state.json?token=on-air-token")[1]]
        texts += [_ws_texts(air.port, bus) for bus in ("program", "preview")]
        digest = store.state["winprob_history"]["game"]
        assert len(digest) == 32 and len(store.state["winprob_history"]["history"]) > 5
        for text in texts:
            assert text and not any(h in text for h in secrets)
            # the 胜率 goes to the pages as the graphic needs it (the figures and their move), never the
            # deal's digest (a hash of the hands) nor the history
            doc = json.loads(text)
            wp = (doc.get("state") or doc)["winprob"]
            assert set(wp) == {"on", "current"} and wp["current"] == store.state["winprob"]["current"]
            assert "winprob_history" not in text and digest not in text and '"history"' not in text

        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(desk.url())
        _until(page, "() => window.__frames >= 1")
        shown = page.eval_on_selector_all(".seat .s-hand", "els => els.map(e => e.dataset.hand)")
        assert shown == hands_now  # all six hands, as they stand
        text = page.eval_on_selector_all(".seat .s-hand", "els => els.map(e => e.textContent)")
        assert text == hands_now  # the cards shown are the hand's, grouped by rank
        assert page.eval_on_selector_all(".seat", "els => els.length") == 6
        beats = page.eval_on_selector_all(".seat .s-beat", "els => els.map(e => e.textContent)")
        assert any(b.startswith("可上：") or b == "无牌可上" for b in beats), beats
        assert len(page.eval_on_selector_all("#moments li", "els => els")) == 5
        assert page.eval_on_selector_all("#chart polyline", "els => els.length") == 2
        wp = store.state["winprob"]["current"]
        assert page.text_content("#wp-odd") == native.pct(wp["odd"])
        # each seat: what the evaluator expects of it (likeliest title and its chance, place, points)
        expect = page.eval_on_selector_all(".seat .s-expect", "els => els.map(e => e.textContent)")
        for line, e in zip(expect, wp["seats"], strict=True):
            assert line.startswith(f"预计：{e['title']}（{native.pct(e['chance'])}）"), line
            assert f"平均第{e['place']:.1f}名" in line, line
        assert page.text_content("#wp-even-name") == store.state["table"]["teams"]["even"]["label"]
        # every text inside its box: nothing drawn past the screen or its panel
        over = page.eval_on_selector_all(
            ".seat, .side, .wp-names span, #moments li",
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1"
            " || e.scrollHeight > e.clientHeight + 1).map(e => e.className)",
        )
        assert over == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "commentators.png"))
        # a decision keyed: the 胜率 and the expectations of the position gone leave the screen
        frames = page.evaluate("window.__frames")
        store.dispatch("game.play", {"line": rec.moves[40]})
        _until(page, "n => window.__frames > n && window.__view.moves === 41", frames)
        assert page.text_content("#wp-odd") == "—" and page.text_content("#wp-note") == "第41步 估算中…"
        expect = page.eval_on_selector_all(".seat .s-expect", "els => els.map(e => e.textContent)")
        assert expect == ["预计：估算中…"] * 6
        assert errors == []


def _ws_texts(port: int, bus: str) -> str:
    """Everything the on-air WebSocket sends a page of ``bus`` at connect (the whole state it may see)."""

    async def read() -> str:
        url = f"ws://127.0.0.1:{port}/ws?bus={bus}&token=on-air-token"
        async with aiohttp.ClientSession() as s, s.ws_connect(url) as ws:
            while True:
                msg = json.loads((await ws.receive(timeout=10)).data)
                if msg.get("type") == "snapshot":
                    return json.dumps(msg, ensure_ascii=False)

    return str(run_async(read()))


def test_the_studio_s_commentators_page_keeps_its_token_beside_the_database(tmp_path: Path) -> None:
    """run/console: the page on its own port with the token kept in <db>.commentators-token (0600, the same
    after a restart, never printed); a damaged token file gets a new token."""
    from broadcast.commentators.run import LiveWinprob, commentators_token, token_file

    db = tmp_path / "show.sqlite"
    said: list[str] = []
    store = open_store(db)
    try:
        live = LiveWinprob.start(store, db, port=0, workers=0, say=said.append)
        try:
            assert live.server is not None and live.service is None
            token = token_file(db).read_text(encoding="ascii").strip()
            assert token == live.server.token and token_file(db).stat().st_mode & 0o777 == 0o600
            assert _get(live.server.port, f"/view.json?token={token}")[0] == 200
            assert said and not any(token in line for line in said)  # the address, with token=…
        finally:
            live.stop()
        assert commentators_token(db) == token  # the same after a restart
        token_file(db).write_bytes(b"\x00" * 5000)
        fresh = commentators_token(db)
        assert fresh != token and token_file(db).read_text(encoding="ascii").strip() == fresh
    finally:
        store.close()


CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
# every text drawn past its box or past the screen (the header is one line 1920 px wide)
OVERFLOW = (
    "() => [...document.querySelectorAll('.seat, .side, .wp-names span, #moments li, .s-beat, .s-expect')]"
    ".filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)"
    ".map(e => e.className).concat(document.querySelector('header').scrollWidth > 1920 ? ['header'] : [])"
)


class _Still:
    """A store that holds one state (the commentators' server reads ``state`` and subscribes)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    def subscribe(self, listener: Any, name: str = "") -> Any:
        return lambda: None


def _at_maxima(state: dict[str, Any], alphabet: str) -> dict[str, Any]:
    """``state`` with every team's and player's name at its declared maximum (the data a page shows)."""
    st = copy.deepcopy(state)
    lim = limits()
    for i, team in enumerate(("odd", "even")):
        name = text_of(lim[f"table.teams.{team}.name"], alphabet, i)
        st["table"]["teams"][team].update(name=name, label=name[: lim[f"table.teams.{team}.label"]])
    for seat in st["table"]["seats"]:
        seat["name"] = text_of(lim["table.seats[].name"], alphabet, seat["seat"])
    return st


@pytest.mark.browser
def test_the_commentators_page_in_english_is_english_throughout_and_both_fit_at_the_maxima(
    played: Any, page: Any
) -> None:
    """Chinese first, English complete and never mixed: ``?lang=en`` has no Chinese character but the
    names (data), the engine's words included (titles, plays, statuses, moments); both languages fit
    their boxes with every name at its maximum (full-width 汉字 and the widest Latin letters)."""
    store, _ = played
    if not fresh(store.state):  # the page's test above keyed a decision: its own figures first
        _estimate(store)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for lang, alphabet in (("en", "latin"), ("en", "cjk"), ("zh", "cjk"), ("zh", "latin")):
        state = _at_maxima(store.state, alphabet)
        with CommentatorsServer(_Still(state), port=0) as desk:
            page.goto(f"{desk.url()}&lang={lang}")
            page.wait_for_selector(".seat[data-seat]", timeout=20000)  # the view rendered (no eval: CSP)
            assert page.evaluate(OVERFLOW) == [], (lang, alphabet)
            text = page.inner_text("body")
            names = [t["name"] for t in state["table"]["teams"].values()]
            names += [s["name"] for s in state["table"]["seats"]]
            bare = text
            for name in sorted(names, key=len, reverse=True):
                bare = bare.replace(name, "")
            if lang == "en":
                assert not CJK.findall(bare), CJK.findall(bare)[:20]
                assert page.evaluate("document.documentElement.lang") == "en"
                wp = state["winprob"]["current"]
                expect = page.eval_on_selector_all(".s-expect", "els => els.map(e => e.textContent)")
                for line, e in zip(expect, wp["seats"], strict=True):
                    title = TITLE_NAMES_EN[e["title"]]
                    assert line.startswith(f"Expected: {title} ({native.pct(e['chance'])})"), line
                assert "Win probability (estimate)" in text and "Key moments" in text
                if alphabet == "latin":
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / "commentators-en.png"))
            else:
                assert "胜率（估算）" in text and "走势关键" in text and "预计：" in text
                assert "Expected" not in text and "Win probability" not in text
    assert errors == []
