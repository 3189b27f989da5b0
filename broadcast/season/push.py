"""A table's games and results go to the shared season: journaled at the table first, pushed until the
season acknowledges them, each once; and every studio's 英雄榜 follows the season.

Each console keeps its own SQLite journal (the show store). A finished game is first written there
(``season.queue``: the game's GJN record, its penalties, its ``uid`` — the season match and the game's
number, ``m12/g2``), so a crash loses nothing and the table goes on at once; then it is pushed to the
season (:meth:`~broadcast.season.matches.Matches.push_game`), which stores a ``uid`` only once; the
acknowledgement is journaled (``season.pushed``). A push that fails for want of the season (server
down, network, locked file) is tried again until it is acknowledged; one the season refuses (a record
the engine rejects, a match already decided otherwise) is journaled (``season.push_refused``), shown,
and not tried again. So kill -9 of the console or of PostgreSQL at any moment: nothing lost, nothing
counted twice.

    link = SeasonLink(store, "postgresql://…/season").start()   # the studio (run, console) does this
    ...                                                          # games finish: queued and pushed
    link.stop()

:class:`SeasonLink` also follows the season: on PostgreSQL it LISTENs for the season's NOTIFY (sent at
the commit of every counted change), on SQLite it watches the season's ``revision``; either way it
reads the top N (never a full recompute) and dispatches ``leaderboard.set`` when the board changed.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from pathlib import Path
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Payload, ShowStore, State
from broadcast.game.adapter import replay
from broadcast.season.actions import leaderboard_payload
from broadcast.season.backend import is_url
from broadcast.season.model import SeasonDB, SeasonError
from broadcast.season.rankings import Kind
from broadcast.season.store import NOTIFY_CHANNEL
from engine import gjn

log = logging.getLogger(__name__)
ACTIONS = Actions()
action = ACTIONS.action

RETRY_S = (0.2, 0.5, 1.0, 2.0)  # waits between tries while the season is unreachable (then every 2 s)
FOLLOW_POLL_S = 0.05  # SQLite: how often the season's revision is looked at (one indexed row: cheap)


# ----------------------------------------------------------------------------------- actions
@action("season.queue")
def season_queue(state: State, payload: Payload, ctx: Context) -> None:
    """A finished game or match to push: {uid, kind: game|final, match_id, game_no?, gjn?, lots_seed?,
    forfeit_team?, reason?, penalties: [{uid, team_id, reason, game_no}]}. Queuing a uid again is a no-op."""
    for key, want in (("uid", str), ("kind", str), ("match_id", int)):
        if not isinstance(payload.get(key), want):
            raise ActionRefused("season", f"season.queue 需要 {key}", f"season.queue needs {key}")
    if payload["kind"] not in ("game", "final"):
        raise ActionRefused("season", "season.queue 的 kind 应为 game 或 final", "kind is game or final")
    box = state["season_push"]
    if any(p["uid"] == payload["uid"] for p in box["pending"]):
        return
    item = {k: payload[k] for k in payload if k in _ITEM_KEYS}
    item["penalties"] = [dict(p) for p in payload.get("penalties", [])]
    box["pending"].append(item)


_ITEM_KEYS = ("uid", "kind", "match_id", "season_id", "game_no", "gjn", "lots_seed", "forfeit_team", "reason")


@action("season.pushed")
def season_pushed(state: State, payload: Payload, ctx: Context) -> None:
    """The season acknowledged ``uid``: {uid, game_id?} — off the queue; the linked match notes it."""
    uid = payload.get("uid")
    box = state["season_push"]
    item = next((p for p in box["pending"] if p["uid"] == uid), None)
    box["pending"] = [p for p in box["pending"] if p["uid"] != uid]
    if box["refused"] and box["refused"].get("uid") == uid:
        box["refused"] = None
    link = state["match"]["season"]
    if item is None or not link or link["match_id"] != item["match_id"]:
        return
    if item["kind"] == "game" and isinstance(payload.get("game_id"), int):
        saved = [s for s in link["saved"] if s["game_no"] != item["game_no"]]
        entry = {"game_no": item["game_no"], "game_id": payload["game_id"]}
        link["saved"] = sorted([*saved, entry], key=lambda s: s["game_no"])
    elif item["kind"] == "final":
        link["final"] = True
    link["penalties_saved"] = max(link["penalties_saved"], len(item.get("penalties", [])))


@action("season.push_refused")
def season_push_refused(state: State, payload: Payload, ctx: Context) -> None:
    """The season refused ``uid`` (not tried again): {uid, rule, zh, en}; the item leaves the queue."""
    uid = str(payload.get("uid", ""))
    box = state["season_push"]
    box["pending"] = [p for p in box["pending"] if p["uid"] != uid]
    box["refused"] = {k: str(payload.get(k, "")) for k in ("uid", "rule", "zh", "en")}


# ----------------------------------------------------------------------------------- the table's side
def _penalties(state: State, mid: int) -> list[dict[str, Any]]:
    link = state["match"]["season"]
    return [
        {
            "uid": f"m{mid}/p{i}",
            "team_id": int(link["team_ids"][p["team"]]),
            "reason": str(p.get("reason") or "违背够级规则"),
            "game_no": int(p.get("game_no", 1)),
        }
        for i, p in enumerate(state["game"]["penalties"], start=1)
    ]


def game_record(state: State) -> str:
    """The GJN text of the game on the table (names, rules, leader, hands or counts, every decision)."""
    table = state["table"]
    game = replay(state)
    link = state["match"]["season"] or {}
    event = " ".join(x for x in (state["show"]["title"], link.get("episode", ""), link.get("label", "")) if x)
    tags = [("Event", f"{event} 第{table['game_no']}局".strip())]
    tags += [(f"Seat{s['seat']}", s["name"]) for s in table["seats"]]
    return str(gjn.write(gjn.from_game(game, tags)))


def game_uid(mid: int, game_no: int) -> str:
    return f"m{mid}/g{game_no}"


def queue_game(store: ShowStore) -> str:
    """Journal the finished game on the table for the season (once); returns its uid."""
    state = store.state
    link = state["match"]["season"]
    if not link:
        raise ActionRefused(
            "season", "这场比赛没有关联赛季（比赛 → 新比赛）", "this match is not linked to a season"
        )
    if state["table"]["phase"] != "over":
        raise ActionRefused("G10.4", "本局还没有结束，不能存入赛季", "the game is not over yet")
    mid, game_no = int(link["match_id"]), int(state["table"]["game_no"])
    uid = game_uid(mid, game_no)
    if any(s["game_no"] == game_no for s in link["saved"]) or _queued(state, uid):
        return uid
    store.dispatch(
        "season.queue",
        {
            "uid": uid,
            "kind": "game",
            "match_id": mid,
            "season_id": int(link["season_id"]),
            "game_no": game_no,
            "gjn": game_record(state),
            "penalties": _penalties(state, mid),
        },
        source="season",
    )
    return uid


def queue_final(store: ShowStore) -> str:
    """Journal the decided match for the season (once); returns its uid."""
    state = store.state
    link = state["match"]["season"]
    if not link:
        raise ActionRefused("season", "这场比赛没有关联赛季", "this match is not linked to a season")
    if state["match"]["result"]["winner"] is None:
        raise ActionRefused("G11.2", "比赛还没有决出胜负", "the match is not decided yet")
    mid = int(link["match_id"])
    uid = f"m{mid}/final"
    if link["final"] or _queued(state, uid):
        return uid
    forfeit = state["match"]["forfeit"]
    lots = state["match"]["lots"]
    store.dispatch(
        "season.queue",
        {
            "uid": uid,
            "kind": "final",
            "match_id": mid,
            "season_id": int(link["season_id"]),
            "lots_seed": lots["seed"] if lots and not forfeit else None,
            "forfeit_team": int(link["team_ids"][forfeit["team"]]) if forfeit else None,
            "reason": str(forfeit["reason"]) if forfeit else "",
            "penalties": _penalties(state, mid),
        },
        source="season",
    )
    return uid


def _queued(state: State, uid: str) -> bool:
    return any(p["uid"] == uid for p in state["season_push"]["pending"])


def push_pending(store: ShowStore, sdb: SeasonDB) -> int:
    """Push every queued item, in order, and journal each acknowledgement; returns how many went. A
    refusal is journaled and the next item goes on; a failure to reach the season raises (try again)."""
    done = 0
    for item in list(store.state["season_push"]["pending"]):
        try:
            if item["kind"] == "game":
                gid = sdb.push_game(
                    int(item["match_id"]), item["uid"], item["gjn"], int(item["game_no"]), item["penalties"]
                )
                ack: dict[str, Any] = {"uid": item["uid"], "game_id": gid}
            else:
                sdb.push_final(
                    int(item["match_id"]),
                    lots_seed=item.get("lots_seed"),
                    forfeit_team=item.get("forfeit_team"),
                    reason=str(item.get("reason") or ""),
                    penalties=item["penalties"],
                )
                ack = {"uid": item["uid"]}
        except SeasonError as exc:
            store.dispatch(
                "season.push_refused",
                {"uid": item["uid"], "rule": exc.rule or "season", "zh": exc.zh, "en": exc.en},
                source="season",
            )
            continue
        store.dispatch("season.pushed", ack, source="season")
        done += 1
    return done


def finished_work(state: State) -> list[str]:
    """What the table has finished that is not queued yet: ``"game"`` and/or ``"final"``."""
    link = state["match"]["season"]
    if not link:
        return []
    out = []
    game_no = int(state["table"]["game_no"])
    if (
        state["table"]["phase"] == "over"
        and not any(s["game_no"] == game_no for s in link["saved"])
        and not _queued(state, game_uid(int(link["match_id"]), game_no))
    ):
        out.append("game")
    if (
        state["match"]["result"]["winner"] is not None
        and not link["final"]
        and not _queued(state, f"m{int(link['match_id'])}/final")
    ):
        out.append("final")
    return out


# ----------------------------------------------------------------------------------- the link
_LINKS: weakref.WeakKeyDictionary[ShowStore, SeasonLink] = weakref.WeakKeyDictionary()


def link_of(store: ShowStore) -> SeasonLink | None:
    """The running link of a studio's store (None when nothing follows the season for it)."""
    return _LINKS.get(store)


class SeasonLink:
    """One studio's link to its season: queues what the table finishes (``auto``), pushes it until
    acknowledged, and keeps the on-air 英雄榜 following the season (see the module's doc)."""

    def __init__(
        self, store: ShowStore, target: str | Path, *, top: int = 10, auto: bool = True, follow: bool = True
    ) -> None:
        self.store = store
        self.target = str(target)
        self.top = top
        self.auto = auto
        self.follow = follow
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.idle = threading.Event()  # set whenever nothing is waiting to be pushed
        self.errors = 0  # failed tries (the season unreachable) so far
        self._threads: list[threading.Thread] = []
        self._unsubscribe: Any = None

    def start(self) -> SeasonLink:
        _LINKS[self.store] = self
        if self.auto:  # what the table finished before a kill: queued now, before the table goes on
            self._queue_finished()
        self._unsubscribe = self.store.subscribe(self._changed, "season-link")
        self._threads = [threading.Thread(target=self._pusher, name="season-push", daemon=True)]
        if self.follow:
            self._threads.append(threading.Thread(target=self._follower, name="season-follow", daemon=True))
        for t in self._threads:
            t.start()
        self.wake.set()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        for t in self._threads:
            t.join(timeout=10)
        if _LINKS.get(self.store) is self:
            del _LINKS[self.store]

    def wait_pushed(self, uid: str, timeout: float) -> bool:
        """Wait until ``uid`` has left the queue (acknowledged or refused); False when time ran out."""
        deadline = time.monotonic() + timeout
        self.wake.set()
        while time.monotonic() < deadline:
            if not _queued(self.store.state, uid):
                return True
            time.sleep(0.02)
        return not _queued(self.store.state, uid)

    def refresh(self) -> None:
        """Bring the on-air 英雄榜 up to the season now (in the caller's thread): what a table does
        before it closes, so that its board is the season's as it leaves it."""
        with SeasonDB.open(self.target) as sdb:
            self._refresh(sdb)

    def _changed(self, change: Any) -> None:
        """Every action on the table (in the thread that dispatched it): a game that just ended or a
        match just decided is queued here and now, before that thread can start the next game — the
        pusher, woken, may be busy with the last item or waiting for the season, and a game is on the
        table only until the next one begins."""
        try:
            if self.auto and not self.stopping.is_set():
                self._queue_finished()
        finally:
            self.wake.set()

    def _queue_finished(self) -> None:
        work = finished_work(self.store.state)
        if "game" in work:
            queue_game(self.store)
        if "final" in work:
            queue_final(self.store)

    # -- threads -------------------------------------------------------------------------------------
    def _pusher(self) -> None:
        sdb: SeasonDB | None = None
        tries = 0
        while not self.stopping.is_set():
            self.wake.wait(timeout=1.0)
            self.wake.clear()
            if self.stopping.is_set():
                break
            try:
                if self.auto:  # anything finished and not queued yet (never, but cheap to look)
                    self._queue_finished()
                if not self.store.state["season_push"]["pending"]:
                    self.idle.set()
                    continue
                self.idle.clear()
                if sdb is None:
                    sdb = SeasonDB.open(self.target)
                if push_pending(self.store, sdb):
                    self._refresh(sdb)
                tries = 0
            except ActionRefused:
                continue  # the store refused (a state that changed under us): look again
            except Exception as exc:  # the season unreachable, or the connection lost mid-push: again
                self.errors += 1
                if tries == 0:  # the first failure says why (the retries stay quiet)
                    why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    log.warning(
                        "赛季暂未确认，稍后重试 / the season has not acknowledged yet, retrying: %s", why
                    )
                if sdb is not None:
                    _close_quietly(sdb)
                    sdb = None
                self.stopping.wait(RETRY_S[min(tries, len(RETRY_S) - 1)])
                tries += 1
                self.wake.set()
        if sdb is not None:
            _close_quietly(sdb)

    def _follower(self) -> None:
        tries = 0
        while not self.stopping.is_set():
            try:
                if is_url(self.target):
                    self._listen()
                else:
                    self._poll()
                tries = 0
            except Exception:  # the season went away: follow again once it is back
                self.stopping.wait(RETRY_S[min(tries, len(RETRY_S) - 1)])
                tries += 1

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self.target, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            with SeasonDB.open(self.target) as sdb:
                self._refresh(sdb)
                while not self.stopping.is_set():
                    if any(True for _ in conn.notifies(timeout=0.5, stop_after=1)):
                        for _ in conn.notifies(timeout=0):  # those already come with it: one refresh
                            pass
                        self._refresh(sdb)

    def _poll(self) -> None:
        with SeasonDB.open(self.target) as sdb:
            seen = -1
            while not self.stopping.is_set():
                sid = self._season_id(sdb)
                rev = sdb.revision(sid) if sid else 0
                if rev != seen:
                    self._refresh(sdb)
                    seen = rev
                self.stopping.wait(FOLLOW_POLL_S)

    def _season_id(self, sdb: SeasonDB) -> int | None:
        link = self.store.state["match"]["season"]
        if link:
            return int(link["season_id"])
        try:
            return int(sdb.season(None)["id"])
        except SeasonError:
            return None

    def _refresh(self, sdb: SeasonDB) -> None:
        """The on-air 英雄榜 from the season's top N; dispatched only when it changed."""
        sid = self._season_id(sdb)
        if sid is None:
            return
        state = self.store.state
        kind: Kind = "teams" if state["leaderboard"].get("kind") == "teams" else "players"
        sponsor = state["sponsors"]["leaderboard"]["name"] if "sponsors" in state else ""
        payload = leaderboard_payload(sdb, sid, kind=kind, top=self.top, sponsor=sponsor or None)
        board = state["leaderboard"]
        if board.get("rows") == payload["rows"] and board.get("season") == payload["season"]:
            return
        self.store.dispatch("leaderboard.set", payload, source="season")


def _close_quietly(sdb: SeasonDB) -> None:
    try:
        sdb.close()
    except Exception:
        pass


def start_studio_link(
    store: ShowStore, season_db: str | None, project_db: Path, *, say: Any = print, sponsor: str | None = None
) -> SeasonLink:
    """What a studio (``run``, ``console``) does with its season at start: the season is ``--season-db``
    / ``$GOUJI_SEASON_DB``, else the project file (where the demo season is built the first time); the
    英雄榜 is put up from it and a :class:`SeasonLink` pushes the table's games and follows the season.
    Called again (a start-up write retried), it returns the running link."""
    from broadcast.season.actions import push_leaderboard
    from broadcast.season.backend import season_target, shown
    from broadcast.season.demo import ensure_demo_season

    running = link_of(store)
    if running is not None:
        return running
    target = season_target(season_db, project_db)
    if not is_url(target) and Path(target).resolve() == Path(project_db).resolve():
        done, summary = ensure_demo_season(target, seed=2012)
        if done == "rebuilt":
            say("演示赛季上次未建完（旧版本被中断），已重建 / the demo season was left half-built: rebuilt")
        if summary is not None:
            say(
                f"演示赛季已建立 demo season built: {summary.episodes} 期 episodes, {summary.matches} 场 "
                f"matches, {summary.games} 局 games, {summary.players} 名选手 players"
            )
    else:
        say(f"赛季数据库 season: {shown(target)}")
    with SeasonDB.open(target) as sdb:
        try:
            push_leaderboard(store, sdb, sponsor=sponsor)
        except SeasonError as exc:  # a new shared season with nothing in it yet: the board follows later
            say(f"英雄榜 leaderboard: {exc.zh} / {exc.en}")
    rows = store.state["leaderboard"]["rows"]
    if rows:
        say(f"英雄榜 leaderboard: {len(rows)} 行，第一名 {rows[0]['name']}（{rows[0]['points']} 分）")
    return SeasonLink(store, target).start()
