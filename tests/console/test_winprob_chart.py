"""The console's 胜率 chart (issue 25) looked at as the operator sees it: in its dock at the laptop and the
studio layout, in Chinese and English, with the teams' names at their maximum; every text inside the
widget and clear of the others, every line inside the plot, the latest point where the state's figure
puts it (read back from the pixels), a decision waiting for its figures said so, another deal's history
never shown as this one's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QRectF, QSettings
from PySide6.QtGui import QColor, QFontMetricsF

from broadcast.console.docks.winprob import MIN_SIZE, WinprobChart, percent
from broadcast.game.adapter import replay
from broadcast.qt import theme
from broadcast.rehearsal import selfplay_records
from broadcast.studio import open_store
from broadcast.winprob.actions import position_key
from broadcast.winprob.service import figures
from engine.winprob import evaluate, last_moment
from tests.console.conftest import NAMES
from tests.textfit import limits, text_of

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "console"
HAN = re.compile(r"[\u4e00-\u9fff]")


def _estimate(store: Any) -> None:
    """The engine's 胜率 of the store's position (12 play-outs), as the studio's evaluator sends it."""
    g = replay(store.state)
    seat, tags = last_moment(g)
    est = figures(evaluate(g, 12))
    store.dispatch(
        "winprob.estimate",
        {"position": position_key(store.state), "estimate": est, "seat": seat, "tags": tags},
    )


def _teams(alphabet: str) -> dict[str, dict[str, str]]:
    n = limits()["table.teams.odd.name"]
    return {"odd": {"name": text_of(n, alphabet)}, "even": {"name": text_of(n, alphabet, start=7)}}


def _open(
    tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], lang: str
) -> Any:
    """The whole console on a store with the hands entered, 30 decisions and a 胜率 after every 3rd
    (the engine's own figures), the teams' names at their maximum."""
    import broadcast.console.layout as layout_module
    from broadcast.console.app import build

    monkeypatch.setattr(layout_module, "screen_area", lambda _w: QRect(0, 0, *size))  # the screen's size
    store = open_store(tmp_path / "studio.sqlite")
    store.dispatch("match.new", {"teams": _teams("cjk" if lang == "zh_CN" else "latin"), "names": NAMES})
    rec = selfplay_records(2011, "tv_match")[0]
    store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
    for i, line in enumerate([None, *rec.moves[:30]]):
        if line is not None:
            store.dispatch("game.play", {"line": line})
        if i % 3 == 0:
            _estimate(store)
    settings = QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat)
    w = build(store, settings, lang=lang, monitors=False)
    w._test_store = store
    w._test_rec = rec
    w._test_lang = lang
    qtbot.addWidget(w)
    w.setGeometry(0, 0, *size)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture(params=[((1366, 768), "zh_CN"), ((1920, 1080), "en")], ids=["1366x768-zh", "1920x1080-en"])
def console(request: Any, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    size, lang = request.param
    w = _open(tmp_path, qtbot, monkeypatch, size, lang)
    yield w
    w.console.bridge.close()
    w._test_store.close()


def _inside(w: Any, widget: Any) -> bool:
    top_left = widget.mapTo(w, widget.rect().topLeft())
    return widget.isVisible() and w.rect().contains(QRect(top_left, widget.size()))


def _looks_right(chart: WinprobChart, state: dict[str, Any]) -> dict[str, Any]:
    """What a person would check, on the chart as drawn: returns the layout for more checks."""
    lay = chart.chart()
    box = QRectF(chart.rect())
    texts = lay.texts
    assert texts, "the chart says nothing"
    for t in texts:
        drawn = QFontMetricsF(t.font).horizontalAdvance(t.text)
        assert box.contains(t.rect), (t.text, t.rect, box)
        assert drawn <= t.rect.width() + 0.5, (t.text, drawn, t.rect.width())
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert not a.rect.intersected(b.rect).isValid() or a.rect.intersected(b.rect).isEmpty(), (
                a.text,
                b.text,
            )
    plot = lay.plot
    assert plot.width() >= 100 and plot.height() >= 40, plot
    assert box.contains(plot)
    for t in texts:  # no text over the lines
        assert not t.rect.intersects(plot.adjusted(1, 1, -1, -1)), t.text
    for key in ("odd", "even"):
        for p in lay.lines[key]:
            assert plot.adjusted(-0.01, -0.01, 0.01, 0.01).contains(p), (key, p, plot)
    # the latest point: where the state's last figure puts it, and painted there in the team's colour
    last = state["winprob_history"]["history"][-1]
    image = chart.grab().toImage()
    ratio = image.devicePixelRatio()
    looked = 0
    for key in ("odd", "even"):
        p = lay.latest[key]
        assert abs(p.y() - (plot.bottom() - plot.height() * last[key])) < 0.01
        assert abs(p.x() - (plot.left() + plot.width() * last["moves"] / lay.xmax)) < 0.01
        colour = QColor(image.pixel(int(p.x() * ratio), int(p.y() * ratio)))
        want = QColor(state["table"]["teams"][key]["color"])
        apart = abs(lay.latest["odd"].y() - lay.latest["even"].y()) > 11  # (dots of radius 4.5)
        if key == "odd" or apart:  # the odd team's dot is drawn last; the even one's when apart
            assert (
                max(
                    abs(colour.red() - want.red()),
                    abs(colour.green() - want.green()),
                    abs(colour.blue() - want.blue()),
                )
                <= 40
            ), (key, colour.name(), want.name())
            looked += 1
    assert looked >= 1
    return {"layout": lay, "words": [t.text for t in texts], "dots looked at": looked}


def test_the_chart_reads_at_a_glance_in_its_dock_at_every_layout(console: Any, qtbot: Any) -> None:
    w = console
    chart = w.onair.winprob
    dock = w.dock("winprob")
    dock.raise_()  # a tab among the others on the laptop layout
    state = w.console.state
    qtbot.waitUntil(lambda: _inside(w, chart) and chart.width() >= MIN_SIZE.width(), timeout=30000)
    qtbot.wait(50)
    assert _inside(w, chart), "the chart is hidden or cut off"
    assert chart.width() >= MIN_SIZE.width() and chart.height() >= MIN_SIZE.height(), chart.size()
    seen = _looks_right(chart, state)
    last = state["winprob_history"]["history"][-1]
    cur = state["winprob"]["current"]
    words = seen["words"]
    assert seen["dots looked at"] >= 1
    assert f"{percent(last['odd'])}%" in words and f"{percent(last['even'])}%" in words
    en = w._test_lang == "en"
    if en:
        assert dock.windowTitle() == "WIN %"
        assert not [
            t
            for t in words
            if HAN.search(t) and t not in {v["name"] for v in state["table"]["teams"].values()}
        ]
        assert f"After move {last['moves']}" in " ".join(
            words
        ) and f"{cur['playouts']} play-outs" in " ".join(words)
    else:
        assert dock.windowTitle() == "胜率 WIN %"
        assert f"第{last['moves']}步后" in " ".join(words) and f"平 {percent(cur['level'])}%" in words
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = f"{w.width()}x{w.height()}-{'en' if en else 'zh'}"
    assert chart.grab().save(str(SHOTS / f"winprob-chart-{tag}.png"))
    assert w.grab().save(str(SHOTS / f"winprob-console-{tag}.png"))

    # a decision keyed: its figures are not in yet — the chart says so, the last figures dimmed
    store = w._test_store
    store.dispatch("game.play", {"line": w._test_rec.moves[30]})
    qtbot.waitUntil(lambda: chart.view.pending, timeout=30000)
    lay = chart.chart()
    status = " ".join(t.text for t in lay.texts)
    assert ("estimating" in status) if en else ("第31步 估算中" in status), status
    assert lay.now_x is not None and abs(lay.now_x - lay.x_of(31)) < 0.01
    figs = [t for t in lay.texts if t.text.endswith("%") and t.font.pixelSize() == theme.SIZE_NAME]
    assert len(figs) == 2 and all(t.colour == theme.MUTED for t in figs)
    _estimate(store)
    qtbot.waitUntil(lambda: not chart.view.pending, timeout=30000)
    state = w.console.state
    assert chart.chart().latest["odd"].x() > lay.x_of(30)
    _looks_right(chart, state)


def test_the_chart_fits_the_narrowest_dock_and_never_shows_another_deals_history(
    tmp_path: Path, qtbot: Any
) -> None:
    from broadcast.console.controller import Console
    from broadcast.qt import i18n
    from broadcast.qt.bridge import StoreBridge

    i18n.install("zh_CN")
    store = open_store(tmp_path / "s.sqlite")
    store.dispatch("match.new", {"teams": _teams("cjk"), "names": NAMES})
    rec = selfplay_records(2011, "tv_match")[0]
    store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands})
    bridge = StoreBridge(store)
    console = Console(bridge)
    chart = WinprobChart(console)
    qtbot.addWidget(chart)
    try:
        chart.resize(400, 220)
        chart.show()
        qtbot.waitExposed(chart)
        assert "开局 估算中" in " ".join(t.text for t in chart.chart().texts)
        assert not chart.chart().lines["odd"]
        for line in rec.moves[:12]:
            _estimate(store)
            store.dispatch("game.play", {"line": line})
        _estimate(store)
        bridge.drain()
        qtbot.waitUntil(lambda: len(chart.view.points) == 13, timeout=30000)
        for size in ((MIN_SIZE.width(), MIN_SIZE.height()), (300, 180), (700, 240), (1300, 420)):
            chart.resize(*size)
            qtbot.waitUntil(lambda s=size: (chart.width(), chart.height()) == s, timeout=30000)  # type: ignore[misc]
            _looks_right(chart, store.state)
            assert chart.grab().save(str(SHOTS / f"winprob-chart-{size[0]}x{size[1]}.png"))
        # a new deal: the old history is of another game — not shown until the new game's first figure
        store.dispatch("game.new", {"leader": rec.leader, "hands": rec.hands[1:] + rec.hands[:1]})
        bridge.drain()
        qtbot.waitUntil(lambda: not chart.view.points, timeout=30000)
        assert chart.view.pending and not chart.chart().latest
        store.dispatch("winprob.on", {"on": False})
        bridge.drain()
        qtbot.waitUntil(lambda: not chart.view.on, timeout=30000)
        assert "胜率估算已关闭" in " ".join(t.text for t in chart.chart().texts)
    finally:
        bridge.close()
        store.close()
