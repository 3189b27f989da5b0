"""No clipped or covered text (issue 19): the clipped-text audit (tests/qtaudit.py, QFontMetrics against
each widget's own space) over the whole widget tree of the console and of the producer, at 1366×768 and
1920×1080, in Chinese and in English — the console in a game at move 230 (three-digit move numbers, the
longest events) with every badge a seat can hold at once shown on every seat card.

On the code before issue 19 it failed: the record's # column showed "…" from move 100 on, the seat
cards' tags covered names and counts ("27 引"), the graphics tiles' keys ran into their names."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings

from tests.console.conftest import NAMES, TEAMS
from tests.qtaudit import audit

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1366, 768), (1920, 1080)]
LONG_GAME = 313  # a seeded game of 295 decisions (engine.random_playout)


@pytest.fixture(scope="module")
def long_game() -> Any:
    import engine

    g = engine.new_game("tv_match", seed=LONG_GAME)
    engine.random_playout(g, seed=LONG_GAME)
    assert len(g.moves) > 230
    return g


@pytest.fixture(scope="module")
def placements() -> Any:
    from broadcast.sponsors.placements import load_placements

    return load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))


@pytest.fixture(scope="module")
def game_db(tmp_path_factory: pytest.TempPathFactory, long_game: Any, placements: Any) -> Path:
    """The project database at move 230 of the long game, the demo placements loaded: journaled once
    for the module (231 actions), each size and language opens a copy of it."""
    from broadcast.sponsors.placements import to_state
    from broadcast.studio import open_store

    db = tmp_path_factory.mktemp("clipped") / "studio.sqlite"
    store = open_store(db)
    try:
        store.dispatch("sponsors.load", to_state(placements))
        store.dispatch("show.update", {"episode": "第1期", "air_date": "2012-05-07"})
        store.dispatch("match.new", {"teams": TEAMS, "names": NAMES})
        store.dispatch("game.new", {"leader": long_game.leader})
        for a in long_game.moves[:230]:
            store.dispatch("game.play", {"line": str(a)})
    finally:
        store.close()
    return db


def laid_out(qtbot: Any, w: Any) -> None:
    """Until nothing is left to lay out: no default dock sizes wait to be set and the posted events
    (layout requests, resizes) are handled, twice over (tests/console/geometry_probe.py's measure)."""
    from PySide6.QtWidgets import QApplication

    from tests.console.geometry_probe import _settled

    app = QApplication.instance()
    if getattr(w, "layout_", None) is not None:
        qtbot.waitUntil(lambda: _settled(app, w), timeout=10000)
    else:  # the producer's window has no layout timers: its posted events only
        for _ in range(2):
            app.sendPostedEvents()
            app.processEvents()


def _console(
    tmp_path: Path,
    qtbot: Any,
    monkeypatch: pytest.MonkeyPatch,
    size: tuple[int, int],
    lang: str,
    game_db: Path,
    placements: Any,
) -> Any:
    import shutil

    import broadcast.console.layout as layout_module
    from broadcast.console.app import build
    from broadcast.studio import open_store

    monkeypatch.setattr(layout_module, "screen_area", lambda _w: QRect(0, 0, *size))
    shutil.copy(game_db, tmp_path / "studio.sqlite")
    store = open_store(tmp_path / "studio.sqlite")
    assert store.state["game"]["record"][229:] and not store.state["game"]["record"][230:]  # at move 230
    settings = QSettings(str(tmp_path / "console.ini"), QSettings.Format.IniFormat)
    w = build(store, settings, lang=lang, placements=placements, monitors=False)
    w._test_store = store
    qtbot.addWidget(w)
    w.setGeometry(0, 0, *size)
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: w.onair.cues.next_view() is not None, timeout=10000)
    laid_out(qtbot, w)  # the default sizes, once the window has its size
    return w


@pytest.fixture(
    params=[(s, lang) for s in SIZES for lang in ("zh_CN", "en")], ids=lambda p: f"{p[0][0]}x{p[0][1]}-{p[1]}"
)
def console(
    request: Any,
    tmp_path: Path,
    qtbot: Any,
    monkeypatch: pytest.MonkeyPatch,
    game_db: Path,
    placements: Any,
) -> Iterator[Any]:
    size, lang = request.param
    w = _console(tmp_path, qtbot, monkeypatch, size, lang, game_db, placements)
    yield w
    w.console.bridge.close()
    w._test_store.close()


def _every_badge(w: Any) -> None:
    """Every seat card with the most a seat can hold at once: its standing (the longest of 无头 / 烧牌中 /
    革命 / 闷 / 诈烧 in this language), 开点, 让牌 and 过, its name, and a title instead of a count."""
    from engine import words

    lang = w.console.lang
    standing = max(
        [words.seat_word(s, lang) for s in ("wutou", "burning")]
        + [words.event_word(e, lang) for e in ("revolt", "men", "zha_shao")],
        key=len,
    )
    badges = [
        standing,
        words.event_word("open", lang),
        words.kind_word("yield", lang),
        words.kind_word("pass", lang),
    ]
    state = w.console.state
    for seat in state["table"]["seats"]:
        card = w.table.cards[seat["seat"]]
        shown = dict(seat, title="二落" if seat["seat"] == 2 else seat["title"])
        card.show_seat(shown, "#c0392b", seat["seat"] == 4, 10, badges, lang)


def test_no_text_of_the_console_is_clipped_or_covered(console: Any, qtbot: Any) -> None:
    w = console
    assert w.panel.record_model.rowCount() == 230
    _every_badge(w)
    laid_out(qtbot, w)
    found = audit(w)
    assert not found, "\n".join(map(str, found))
    # and every on-air dock in front in turn (the compact layout shows one tab at a time)
    for key in ("graphics", "sponsors", "cues"):
        w.dock(key).raise_()
        laid_out(qtbot, w)
        found = audit(w)
        assert not found, f"{key} in front:\n" + "\n".join(map(str, found))


@pytest.fixture(params=["zh_CN", "en"])
def producer(request: Any, tmp_path: Path, qtbot: Any, demo_db_master: Path) -> Iterator[Any]:
    """The producer's window in one language; the test takes it through every size (nothing of the
    producer's window depends on the size it opened at: no screen-dependent layout, unlike the console's)."""
    import shutil

    from broadcast import project
    from broadcast.producer.app import build
    from tests.producer.conftest import settle

    lang = request.param
    db = tmp_path / "studio.sqlite"
    shutil.copy(demo_db_master, db)  # the demo season (built once for the run)
    shutil.copytree(ROOT / "sponsor_assets" / "demo", project.sponsors_dir(db), dirs_exist_ok=True)
    w = build(
        db,
        settings=QSettings(str(tmp_path / "producer.ini"), QSettings.Format.IniFormat),
        lang=lang,
        web=False,
    )
    qtbot.addWidget(w)
    w.setGeometry(0, 0, *SIZES[0])
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot, w)
    yield w
    w.ws.close()


def test_no_text_of_the_producer_is_clipped_or_covered(producer: Any, qtbot: Any) -> None:
    from tests.producer.conftest import settle

    w = producer
    for size in SIZES:
        w.setGeometry(0, 0, *size)
        qtbot.waitUntil(lambda size=size: (w.width(), w.height()) == size, timeout=10000)
        for i in range(w.tabs.count()):
            w.tabs.setCurrentIndex(i)
            settle(qtbot, w)
            laid_out(qtbot, w)
            found = audit(w)
            assert not found, f"{size}, tab {w.tabs.tabText(i)}:\n" + "\n".join(map(str, found))
