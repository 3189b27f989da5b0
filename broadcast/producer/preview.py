"""A slot shown as it will air, before it is saved: a show state composed from the unsaved placements,
rendered by the real on-air pages through a real overlay server.

    views = slot_views(slot)                                   # the moments a slot is on screen
    steps = preview_actions(placements, views[0], base)        # the actions that compose that state
    studio = PreviewStudio(db, sponsors_root); studio.show(steps); studio.url  # → program.html

The state is made by the studio's own actions (``sponsors.load`` with the draft's payload,
``match.new``, ``show.update``, ``leaderboard.set``, ``jiugongge.draw``, ``graphic.set`` and ``bus.cut``)
on a :class:`~broadcast.core.ShowStore` of its own (a file in a temporary folder, removed at close),
so its reducers and schema decide what the page receives, exactly as on air; the page is the one OBS
shows, served by :class:`~broadcast.overlay.server.OverlayServer` with the project's asset folders.
Nothing here touches the project's database or the studio's store.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broadcast import project
from broadcast.show.actions import GRAPHICS
from broadcast.sponsors.placements import Placements, Slot, to_state

Step = tuple[str, dict[str, Any]]
SAMPLE_NAMES = ("张立国", "李春燕", "王建军", "赵海峰", "刘晓东", "陈桂兰")
SAMPLE_TEAMS = ("小当家便利店联盟队", "沂河源矿泉水队")
DRAW_CONTESTANT = "选手（预览）"


@dataclass(frozen=True)
class View:
    """One moment a slot is on screen: the graphics on program (graphic, item), a 九宫格 cell drawn,
    or — for what no page draws (films, studio placements) — ``still``: what to show instead."""

    key: str
    label: str  # Chinese, shown in the preview's list
    graphics: tuple[tuple[str, str], ...] = ()
    draw: int | None = None
    still: str = ""  # "film" (its poster) or "studio" (the logo; a physical placement)


def slot_views(slot: Slot) -> list[View]:
    """The moments ``slot`` is on screen, first the one it is bought for."""
    k = slot.kind
    bumper = (("bumper", slot.bumper.id),) if slot.bumper is not None else ()
    if k == "title":
        return [
            View("bumper", "5秒标版", bumper),
            View("scoreboard", "游戏平台正中（比分台）", (("scoreboard", ""), ("ticker", ""))),
            View("credits", "片尾鸣谢", (("credits", ""),)),
            View("film", "15秒宣传片", still="film"),
        ]
    if k == "special":
        return [
            View("bumper", "5秒标版", bumper),
            View("corner_bug", "右上角标（全程）", (("scoreboard", ""), ("corner_bug", ""))),
            View("film", "15秒宣传片", still="film"),
        ]
    if k == "supporter":
        return [
            View("bumper", "5秒标版", bumper),
            View("credits", "片尾鸣谢", (("credits", ""),)),
            View("film", "10秒宣传片", still="film"),
        ]
    if k == "spot":
        return [View("film", "中插广告", still="film")]
    if k == "cell":
        return [
            View("draw", "抽中这一格（揭晓）", (("jiugongge", DRAW_CONTESTANT),), draw=slot.index),
            View("grid", "九宫格", (("jiugongge", ""),)),
        ]
    if k == "jiugongge_board":
        return [
            View("grid", "九宫格（下方广告位）", (("jiugongge", ""),)),
            View("studio", "现场实物", still="studio"),
        ]
    if k == "leaderboard":
        return [
            View("leaderboard", "够级英雄榜", (("leaderboard", ""),)),
            View("film", "15秒宣传片", still="film"),
        ]
    if k == "commentary":
        return [View("commentary", "解说区", (("commentary", ""),))]
    if k == "ticker":
        return [View("ticker", "底线流字", (("scoreboard", ""), ("ticker", "")))]
    if k == "credits":
        return [View("credits", "片尾鸣谢", (("credits", ""),))]
    return [View("studio", "现场实物广告位（无屏幕图形）", still="studio")]


@dataclass(frozen=True)
class Base:
    """What the state shows besides the sponsors: the show, a table, the 英雄榜 (from the season)."""

    title: str = "够级大明星"
    episode: str = ""
    teams: tuple[str, str] = SAMPLE_TEAMS
    names: tuple[str, ...] = SAMPLE_NAMES
    leaderboard: dict[str, Any] | None = None  # a leaderboard.set payload


def base_actions(base: Base) -> list[Step]:
    steps: list[Step] = [
        ("show.update", {"title": base.title, **({"episode": base.episode} if base.episode else {})}),
        (
            "match.new",
            {
                "teams": {"odd": {"name": base.teams[0]}, "even": {"name": base.teams[1]}},
                "names": list(base.names[:6]),
            },
        ),
    ]
    if base.leaderboard:
        steps.append(("leaderboard.set", base.leaderboard))
    return steps


def preview_actions(p: Placements, view: View, base: Base) -> list[Step]:
    """The actions that put ``view`` on the program bus over ``base`` with the placements ``p``: all
    graphics off, the sponsors loaded, the view's graphics on preview, then CUT (no animation)."""
    steps = base_actions(base)
    steps.append(("sponsors.load", to_state(p)))
    steps.append(("sponsors.episode_reset", {}))  # no draw left from an earlier preview
    if view.draw is not None:
        steps.append(("jiugongge.draw", {"contestant": DRAW_CONTESTANT, "cell": view.draw}))
    wanted = dict(view.graphics)
    for g in GRAPHICS:
        entry: dict[str, Any] = {"bus": "preview", "graphic": g, "on": g in wanted}
        if g in wanted:
            entry["item"] = wanted[g]
        steps.append(("graphic.set", entry))
    steps.append(("bus.cut", {}))
    return steps


def sponsors_root(p: Placements | None, fallback: Path) -> Path:
    """The folder the placements' logos and films are served from (as ``run`` serves them)."""
    from broadcast.sponsors.placements.assets import served_root

    if p is None:
        return fallback
    return served_root(Path(p.file).resolve().parent, None)


class PreviewStudio:
    """A show store of its own (temporary file) and an overlay server over it (free port, a token of
    its own), serving the project's asset folders. Call from one thread (the producer's worker)."""

    def __init__(self, db: str | Path, sponsors: Path, *, host: str = "127.0.0.1") -> None:
        from broadcast.overlay.server import OverlayServer
        from broadcast.studio import open_store

        self.folder = Path(tempfile.mkdtemp(prefix="gouji-preview-"))
        self.store = open_store(self.folder / "preview.sqlite")
        self.sponsors = sponsors
        self.server = OverlayServer(
            self.store,
            host=host,
            port=0,
            token=secrets.token_urlsafe(18),
            asset_roots=project.asset_roots(db, sponsors=sponsors),
            control=False,
        )
        self.server.start()

    @property
    def url(self) -> str:
        return self.server.url("program")

    def show(self, steps: list[Step]) -> int:
        """Apply the steps; returns the state's number once the last is applied."""
        for type_, payload in steps:
            self.store.dispatch(type_, payload, source="producer")
        return int(self.store.seq)

    def close(self) -> None:
        try:
            self.server.stop()
        finally:
            self.store.close()
            shutil.rmtree(self.folder, ignore_errors=True)
