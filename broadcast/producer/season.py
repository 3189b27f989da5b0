"""The season work the producer's window asks for, run on its worker: reads of the season tables and
edits through :class:`~broadcast.season.model.SeasonDB` (the season's one model), the roster import
with its preview (the importer itself), and the season's sponsor delivery (``delivery``).

Each piece of work is given :class:`Places`: the project (its file: players' photos, the as-run log)
and its season — the project file, or the producer's ``--season-db`` (a PostgreSQL season many tables
share, or another file). A bare path is a project whose season is in it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from broadcast.season.model import SeasonDB, SeasonError


@dataclass(frozen=True)
class Places:
    """Where the producer's work goes: the project's file and the season (a file or a URL)."""

    project: Path
    season: str

    @classmethod
    def of(cls, where: Places | str | Path) -> Places:
        return where if isinstance(where, Places) else cls(Path(where), str(where))

    @property
    def season_exists(self) -> bool:
        """False for a season file not made yet (nothing to read); a URL is asked when it is opened."""
        from broadcast.season.backend import is_url

        return is_url(self.season) or Path(self.season).exists()


Where = Places | Path


@dataclass(frozen=True)
class SeasonData:
    seasons: list[tuple[int, str]]
    season_id: int | None
    teams: list[dict[str, Any]]
    players: list[dict[str, Any]]
    episodes: list[dict[str, Any]]


def load(where: Where, season: int | None = None) -> SeasonData:
    at = Places.of(where)
    if not at.season_exists:
        return SeasonData([], None, [], [], [])
    with SeasonDB.open(at.season) as sdb:
        seasons = [(int(s["id"]), str(s["name"])) for s in sdb.seasons()]
        if not seasons:
            return SeasonData([], None, [], [], [])
        sid = season if season in {i for i, _ in seasons} else seasons[-1][0]
        assert sid is not None
        teams = [dict(t) for t in sdb.teams(sid)]
        names = {t["id"]: t["name"] for t in teams}
        players = [dict(p) | {"team": names.get(p["team_id"], "")} for p in sdb.players(sid)]
        episodes = [dict(e) for e in sdb.episodes(sid)]
    return SeasonData(seasons, sid, teams, players, episodes)


def create_season(where: Where, name: str) -> int:
    with SeasonDB.open(Places.of(where).season) as sdb:
        return sdb.create_season(name, title=f"够级大明星 {name}")


def add_team(where: Where, sid: int, name: str) -> int:
    with SeasonDB.open(Places.of(where).season) as sdb:
        return sdb.add_team(sid, name)


def update_team(where: Where, tid: int, **fields: str) -> None:
    with SeasonDB.open(Places.of(where).season) as sdb:
        sdb.update_team(tid, **fields)


def add_player(where: Where, sid: int, name: str, team_id: int | None) -> int:
    with SeasonDB.open(Places.of(where).season) as sdb:
        return sdb.add_player(sid, name, team_id=team_id)


def update_player(where: Where, pid: int, **fields: Any) -> None:
    with SeasonDB.open(Places.of(where).season) as sdb:
        sdb.update_player(pid, **fields)


def set_photo(where: Where, pid: int, src: Path, hint: str) -> str:
    """Copy the photo into the project (checked: a real picture) and store its name on the player."""
    from broadcast.project import store_photo

    at = Places.of(where)
    name = store_photo(at.project, src, hint=hint)
    update_player(at, pid, photo=name)
    return name


def add_episode(where: Where, sid: int) -> int:
    """The next episode, aired two days after the last one (the producer corrects the date)."""
    with SeasonDB.open(Places.of(where).season) as sdb:
        eps = sdb.episodes(sid)
        number = (int(eps[-1]["number"]) + 1) if eps else 1
        last = eps[-1]["air_date"] if eps else ""
        try:
            day = (
                (date.fromisoformat(last) + timedelta(days=2)).isoformat()
                if last
                else date.today().isoformat()
            )
        except ValueError:
            day = ""
        return sdb.add_episode(sid, number, air_date=day)


def update_episode(where: Where, sid: int, number: int, air_date: str) -> None:
    with SeasonDB.open(Places.of(where).season) as sdb:
        sdb.update_episode(sid, number, air_date=air_date)


@dataclass(frozen=True)
class RosterPreview:
    rows: list[Any]  # RosterRow
    ignored: list[str]
    errors: list[str]
    added: int = 0
    updated: int = 0
    teams_created: tuple[str, ...] = ()


def preview_roster(where: Where, sid: int, path: Path) -> RosterPreview:
    """The rows a roster file holds and every problem in it, with what an import would do — nothing
    is written (the importer's own checks, then its dry run)."""
    from broadcast.project import roster_photos
    from broadcast.season.importer import ImportError_, import_file, read_roster

    try:
        rows, ignored = read_roster(path)
    except ImportError_ as exc:  # the rows read so far are shown with the errors
        return RosterPreview(exc.rows, [], list(exc.errors))
    try:
        at = Places.of(where)
        with SeasonDB.open(at.season) as sdb:
            rep = import_file(sdb, sid, path, dry_run=True, photos=roster_photos(at.project))
    except ImportError_ as exc:
        return RosterPreview(rows, ignored, list(exc.errors))
    return RosterPreview(rows, ignored, [], rep.added, rep.updated, tuple(rep.teams_created))


def import_roster(where: Where, sid: int, path: Path) -> Any:
    from broadcast.project import roster_photos
    from broadcast.season.importer import import_file

    at = Places.of(where)
    with SeasonDB.open(at.season) as sdb:
        return import_file(sdb, sid, path, photos=roster_photos(at.project))


def delivery(where: Where, placements: Path) -> Any:
    """The season's delivery per sponsor from the as-run log, against the saved placements."""
    from broadcast.sponsors.asrun import AsRunLog
    from broadcast.sponsors.delivery import season_delivery
    from broadcast.sponsors.placements import load_placements

    p = load_placements(placements)
    upcoming: list[tuple[str, str]] = []
    at = Places.of(where)
    if at.season_exists:
        with SeasonDB.open(at.season) as sdb:
            try:
                sid = int(sdb.season()["id"])
                upcoming = [(f"第{int(e['number'])}期", str(e["air_date"] or "")) for e in sdb.episodes(sid)]
            except SeasonError:
                upcoming = []
    log = AsRunLog.open(at.project)
    try:
        return p, season_delivery(p, log, upcoming=upcoming)
    finally:
        log.close()


def export_delivery(where: Where, placements: Path, out: Path) -> list[Path]:
    from broadcast.sponsors.delivery import write_delivery

    p, d = delivery(where, placements)
    return write_delivery(d, p, out)
