"""The report after the placements file is edited (or removed) post-air must not change what it says aired
(docs/sponsors.md, "Exposure and report"): the episode's record keeps the file's text as it aired, chained;
the report measures by it and says on its first page that the file changed since."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

from broadcast.__main__ import main as cli
from broadcast.cli.report import placements_as_aired
from broadcast.clock import ScriptClock, air_start
from broadcast.core.airlog import GRAPHIC_OFF, GRAPHIC_ON, OBS_UP, PROGRAM_SCENE, AirEvent
from broadcast.sponsors.asrun import AsRunLog
from broadcast.sponsors.delivery import episode_exposures
from broadcast.sponsors.exposure import EpisodeExposure, compute
from broadcast.sponsors.placements import load_placements, to_state
from broadcast.sponsors.recorder import AsRunRecorder
from broadcast.studio import open_store
from tests.sponsors.conftest import ROOT

EP = "第8期"
T0 = air_start("2012-05-09")


def _air(db: Path, placements: Path) -> None:
    """The 独家特约 corner bug on air for 60 s, as OBS confirmed it."""
    clock = ScriptClock(T0)
    store = open_store(db, clock=clock)
    log = AsRunLog.open(db)
    rec = AsRunRecorder(store, log, clock=clock)
    store.dispatch("sponsors.load", to_state(load_placements(placements)))
    store.dispatch("show.update", {"episode": EP, "air_date": "2012-05-09"})
    rec.flush()
    for t, kind, subject, detail in (
        (0.0, OBS_UP, "29.0.2", {}),
        (0.0, PROGRAM_SCENE, "够级·比赛", {}),
        (0.0, GRAPHIC_ON, "corner_bug", {"item": "yiheyuan"}),
        (60.0, GRAPHIC_OFF, "corner_bug", {"item": "yiheyuan"}),
    ):
        log.record(AirEvent(T0 + t, kind, subject, "obs", detail=detail))
    rec.end_episode(T0 + 60.0)
    rec.flush()
    rec.close()
    log.close()
    store.close()


def _bug_sponsor(x: EpisodeExposure) -> tuple[str, float]:
    """Who the report credits the corner bug's coverage to, and its percent."""
    m = next(m for s in x.sponsors for m in s.metrics if m.slot_key == "special" and "覆盖率" in m.what)
    return m.sponsor, m.delivered


def _measure(db: Path) -> tuple[tuple[str, float], str]:
    log = AsRunLog.open(db)
    info = log.episode(EP)
    assert info is not None
    p, note = placements_as_aired(info.placements, info.placements["file"], None)
    x = compute(p, EP, log.events(EP), info=info, link_at_start=log.link_before(info.started or 0.0))
    log.close()
    return _bug_sponsor(x), note


def test_the_report_after_the_placements_are_edited_or_removed_post_air_says_what_aired(
    tmp_path: Path,
) -> None:
    shutil.copytree(ROOT / "sponsor_assets" / "demo", tmp_path / "set")
    yaml = tmp_path / "set" / "placements.yaml"
    db = tmp_path / "studio.sqlite"
    _air(db, yaml)
    aired, note = _measure(db)
    assert aired == ("yiheyuan", 100.0) and note == ""
    # the producer edits the file after air: the 独家特约 slot now names another sponsor
    text = yaml.read_text(encoding="utf-8")
    assert "special:\n  sponsor: yiheyuan\n" in text
    text = text.replace("special:\n  sponsor: yiheyuan\n", "special:\n  sponsor: mengshan\n")
    yaml.write_text(text.replace("由“沂河源矿泉水”独家特约播出", "由“蒙山云雾茶”独家特约播出"), "utf-8")
    assert load_placements(yaml).one("special").sponsor == "mengshan"  # type: ignore[union-attr]
    again, note = _measure(db)
    assert again == aired, again  # the bug aired for 沂河源, whatever the file says now
    assert "改过" in note and "as aired" in note, note
    # the report's files say it on their first page
    out = tmp_path / "r"
    assert cli(["report", EP, "--db", str(db), "--out", str(out), "--no-pdf"]) == 0
    html = next(out.glob("*.html")).read_text(encoding="utf-8")
    assert "在本期播出后改过" in html and "沂河源" in html
    # a file given on the command line is used, and the report says it is not the one that aired
    (tmp_path / "set" / "edited.yaml").write_text(yaml.read_text(encoding="utf-8"), "utf-8")
    info = AsRunLog.open(db).episode(EP)
    assert info is not None
    edited = str(tmp_path / "set" / "edited.yaml")
    given, note = placements_as_aired(info.placements, edited, None, given=True)
    assert given.one("special").sponsor == "mengshan" and "不是本期播出时的排期" in note  # type: ignore[union-attr]
    # the season's delivery measures the episode as it aired too (and says so)
    log = AsRunLog.open(db)
    season = episode_exposures(load_placements(yaml), log)
    log.close()
    assert [_bug_sponsor(x) for x in season] == [aired] and "按播出时的排期" in season[0].flags[0]
    # removed after air: still measured by the placements as aired
    yaml.unlink()
    gone, note = _measure(db)
    assert gone == aired and "已删除" in note, note


def test_the_air_date_the_placements_were_loaded_for_is_the_episode_s_when_the_show_names_none(
    tmp_path: Path,
) -> None:
    """``run --air-date D`` loads the placements for D and the rehearsal names the episode without a date:
    the report printed 播出日期 — and checked no contract's dates."""
    db = tmp_path / "studio.sqlite"
    store = open_store(db)
    log = AsRunLog.open(db)
    rec = AsRunRecorder(store, log)
    store.dispatch(
        "sponsors.load",
        to_state(
            load_placements(ROOT / "sponsor_assets" / "demo" / "placements.yaml", air_date=date(2012, 5, 7))
        ),
    )
    store.dispatch("show.update", {"episode": "彩排"})
    rec.flush()
    info = log.episode("彩排")
    assert info is not None and info.air_date == "2012-05-07", info
    rec.close()
    log.close()
    store.close()
