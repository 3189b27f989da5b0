"""The HTTP control API on the overlay server: every operation journaled through store.dispatch, the
OpenAPI document, refusals (no token, a foreign origin or host, a drawn cell), and, in real Chromium,
a page on program that shows a TAKE pressed through the API in the frame that rendered it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from broadcast import control
from broadcast.overlay import OverlayServer
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.studio import open_store
from tests.overlay.conftest import wait_rendered

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "studio-secret-7"


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[tuple[Any, OverlayServer]]:
    store = open_store(tmp_path / "studio.sqlite")
    p = load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
    store.dispatch("sponsors.load", to_state(p))
    srv = OverlayServer(store, port=0, token=TOKEN)
    srv.start()
    yield store, srv
    srv.stop()
    store.close()


def call(
    srv: OverlayServer,
    path: str,
    body: Any = None,
    *,
    token: str | None = TOKEN,
    headers: dict[str, str] | None = None,
    method: str = "POST",
) -> tuple[int, Any]:
    h = {"Content-Type": "application/json", **(headers or {})}
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else (b"" if method == "POST" else None)
    req = urllib.request.Request(srv.base_url + path, data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text


def _journal(store: Any) -> list[tuple[str, str]]:
    rows = store.journal.connection.execute("SELECT type, source FROM journal ORDER BY seq").fetchall()
    return [(str(t), str(s)) for t, s in rows]


def test_operations_are_journaled_like_the_consoles_keys(studio: tuple[Any, OverlayServer]) -> None:
    store, srv = studio
    before = len(_journal(store))
    assert call(srv, "/api/preview", {"graphic": "scoreboard"})[0] == 200
    assert call(srv, "/api/preview", {"graphic": "lower_third", "on": True})[0] == 200
    status, answer = call(srv, "/api/take")
    assert status == 200 and answer["seq"] == store.seq
    program = store.state["graphics"]["program"]
    assert program["scoreboard"]["on"] and program["lower_third"]["on"]
    assert store.state["graphics"]["transition"] == "mix"
    assert call(srv, "/api/clear", {"graphic": "lower_third"})[0] == 200
    assert call(srv, "/api/cut")[0] == 200
    assert store.state["graphics"]["transition"] == "cut"
    assert call(srv, "/api/mention", {"sponsor": "xiaodangjia"})[0] == 200
    assert call(srv, "/api/shot?slot=table")[0] == 200  # query parameters work too (Companion's URL)
    assert call(srv, "/api/lower_third", {"host": True})[0] == 200
    assert call(srv, "/api/panic")[0] == 200
    assert not any(e["on"] for e in store.state["graphics"]["program"].values())
    new = _journal(store)[before:]
    assert [t for t, _ in new] == [
        "graphic.set",
        "graphic.set",
        "bus.take",
        "graphic.clear",
        "bus.cut",
        "sponsor.mention",
        "sponsor.shot",
        "lower_third.set",
        "graphic.set",
        "bus.panic",
    ]
    assert {s for _, s in new} == {"api"}
    assert store.state["sponsors"]["mentions"] == {"xiaodangjia": 1}
    assert store.state["sponsors"]["shots"] == {"table": 1}
    st = call(srv, "/api/status", method="GET")[1]
    owed = next(r["mentions_min"] for r in store.state["sponsors"]["roster"] if r["id"] == "xiaodangjia")
    assert owed >= 5  # 冠名: the host names it at least five times
    assert st["mentions"]["xiaodangjia"] == {"name": "小当家", "count": 1, "min": owed}


def test_refusals_say_why_and_journal_nothing(studio: tuple[Any, OverlayServer]) -> None:
    store, srv = studio
    assert call(srv, "/api/draw", {"contestant": "王建国", "cell": 5})[0] == 200
    seq = store.seq
    status, answer = call(srv, "/api/draw", {"contestant": "李秀英", "cell": 5})
    assert status == 409 and answer["error"]["rule"] == "jiugongge.cell"
    assert "已被 王建国 抽走" in answer["error"]["zh"]
    status, answer = call(srv, "/api/preview", {"graphic": "weather"})
    assert status == 400 and answer["error"]["param"] == "graphic"
    status, answer = call(srv, "/api/take", {"bus": "program"})
    assert status == 400 and answer["error"]["param"] == "bus"
    assert call(srv, "/api/nothing")[0] == 404
    assert store.seq == seq


@pytest.mark.parametrize(
    "token,headers,why",
    [
        (None, {}, "no token"),
        ("wrong", {}, "wrong token"),
        (TOKEN, {"Origin": "http://evil.example"}, "foreign origin"),
        (TOKEN, {"Host": "evil.example"}, "DNS-rebinding host"),
        (TOKEN, {"Sec-Fetch-Site": "cross-site"}, "cross-site fetch"),
    ],
)
def test_refused_without_the_token_or_from_elsewhere(
    studio: tuple[Any, OverlayServer], token: str | None, headers: dict[str, str], why: str
) -> None:
    store, srv = studio
    seq = store.seq
    if "Host" in headers:
        headers = {"Host": f"{headers['Host']}:{srv.port}"}
    status, _ = call(srv, "/api/panic", token=token, headers=headers)
    assert status == 403, why
    assert store.seq == seq


def test_a_server_without_a_token_refuses_every_operation(tmp_path: Path) -> None:
    store = open_store(tmp_path / "s.sqlite")
    srv = OverlayServer(store, port=0)
    srv.start()
    try:
        status, answer = call(srv, "/api/take", token=None)
        assert status == 403 and "--token" in answer["error"]["zh"]
        assert store.seq == 0
    finally:
        srv.stop()
        store.close()


def test_openapi_document_names_every_operation(studio: tuple[Any, OverlayServer]) -> None:
    _store, srv = studio
    status, doc = call(srv, "/api/openapi.json", method="GET")
    assert status == 200 and doc["openapi"].startswith("3.1")
    posts = {p.rsplit("/", 1)[1] for p, v in doc["paths"].items() if "post" in v}
    assert posts == set(control.OPERATIONS)
    draw = doc["paths"]["/api/draw"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert draw["required"] == ["contestant", "cell"] and draw["properties"]["cell"]["maximum"] == 9
    assert doc["servers"][0]["url"] == srv.base_url
    assert call(srv, "/api/openapi.json", token=None, method="GET")[0] == 403


# ------------------------------------------------------------------------------------ real Chromium
@pytest.mark.browser
def test_program_page_shows_an_api_take_in_the_frame_that_rendered_it(
    page: Any, studio: tuple[Any, OverlayServer]
) -> None:
    store, srv = studio
    page.goto(srv.url("program", echo="1"))
    wait_rendered(page, store.seq)
    assert call(srv, "/api/preview", {"graphic": "scoreboard"})[0] == 200
    # in the frame that rendered the preview change, program still shows nothing
    wait_rendered(page, store.seq)
    assert not page.eval_on_selector(".g.scoreboard", "e => e.classList.contains('on')")
    frames = page.evaluate("window.__rendered.frames")
    status, answer = call(srv, "/api/take")
    assert status == 200
    # the page echoes, from inside the requestAnimationFrame that painted state seq, what it showed:
    # the first frame after the TAKE arrived already has the scoreboard on
    wait_rendered(page, answer["seq"])
    shown = page.evaluate(
        "() => ({seq: window.__rendered.seq, frames: window.__rendered.frames,"
        " on: document.querySelector('.g.scoreboard').classList.contains('on'),"
        " transition: document.documentElement.dataset.transition})"
    )
    assert shown["frames"] == frames + 1
    del shown["frames"]
    assert shown == {"seq": answer["seq"], "on": True, "transition": "mix"}
    status, answer = call(srv, "/api/cut")
    wait_rendered(page, answer["seq"])
    assert page.evaluate("document.documentElement.dataset.transition") == "cut"


@pytest.mark.browser
def test_chromium_on_another_origin_cannot_press_the_buttons(
    page: Any, studio: tuple[Any, OverlayServer]
) -> None:
    """A web page elsewhere (here: a data: page, origin 'null', and the server's own page without the
    token) fetches the API as a browser does: refused, nothing journaled."""
    store, srv = studio
    seq = store.seq
    page.goto("data:text/html,<title>elsewhere</title>")
    result = page.evaluate(
        """async ([url, token]) => {
            try {
                const r = await fetch(url + '/api/panic', {method: 'POST', mode: 'no-cors',
                    headers: {'Content-Type': 'text/plain'}, body: '{}'});
                const q = await fetch(url + '/api/panic?token=' + token, {method: 'POST', mode: 'no-cors'});
                return [r.type, q.type];
            } catch (e) { return ['error', String(e)]; }
        }""",
        [srv.base_url, TOKEN],
    )
    assert result[0] in ("opaque", "error")
    assert store.seq == seq  # neither the tokenless nor the tokened cross-origin request did anything
    # the server's own page, same origin, but without the token in the request: refused
    page.goto(srv.url("program"))
    status = page.evaluate(
        "async (u) => (await fetch(u + '/api/panic', {method: 'POST'})).status", srv.base_url
    )
    assert status == 403
    assert store.seq == seq
