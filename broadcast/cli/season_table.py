"""``python -m broadcast season table``: one table of a shared season, played out by the engine — the
rehearsal of a tournament day (several tables feeding one season) and the tables of the two-tables test.

    python -m broadcast season table --db 一号桌.sqlite --season-db postgresql://…/season \\
        --table 一号桌 --team-a 甲队 --team-b 乙队 --matches 3 [--seed 1] [--pace 0]

The table is a studio's: its own show journal (``--db``, a SQLite file: crash safety as the console's),
season matches started from the season (:func:`broadcast.season.live.start_match`), every game played
move by move through the store (``game.new``, ``game.play``: engine self-play, seeded), and a
:class:`~broadcast.season.push.SeasonLink` that pushes each finished game and match to the season until
acknowledged and keeps the table's 英雄榜 following the season. Killed at any moment and started again
with the same arguments, it goes on where its journal stopped: the match on the table is finished, the
next ones are played, nothing is pushed twice. Match ``k`` of table ``T`` is labelled ``T 第k场`` (also its
``uid``: a kill between creating it in the season and journaling the link leaves no second match).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from broadcast.core.db import DatabaseError
from broadcast.season.model import SeasonDB, SeasonError

T = TypeVar("T")

DRAIN_S = 600.0  # how long the table waits at the end for the season to acknowledge everything


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--table", required=True, help="桌名（写进比赛名）/ table name (in the match labels)")
    p.add_argument("--team-a", required=True, help="单号座位的队伍 / the team on seats 1, 3, 5")
    p.add_argument("--team-b", required=True, help="双号座位的队伍 / the team on seats 2, 4, 6")
    p.add_argument("--matches", type=int, default=3, help="比赛场数 / matches to play (3)")
    p.add_argument("--episode", type=int, default=1, help="期数 / episode (1)")
    p.add_argument("--seed", type=int, default=1, help="自动对局种子 / self-play seed")
    p.add_argument("--pace", type=float, default=0.0, help="每手牌秒数 / seconds per play (0)")


def main(args: argparse.Namespace) -> int:
    from broadcast.season.push import SeasonLink
    from broadcast.studio import open_store

    store = open_store(Path(args.db))
    link = SeasonLink(store, args.season_db).start()
    try:
        for k in range(1, args.matches + 1):
            label = f"{args.table} 第{k}场"
            if _retrying(lambda label=label: _final_in_season(args.season_db, label)):  # type: ignore[misc]
                continue
            _play_match(store, args, label, seed=args.seed * 1000 + k * 10)
            print(f"{label}: {_score(store, args)}", flush=True)
        deadline = time.monotonic() + DRAIN_S
        while store.state["season_push"]["pending"] and time.monotonic() < deadline:
            time.sleep(0.05)
        left = len(store.state["season_push"]["pending"])
        if left:
            print(f"{args.table}: {left} 项未被赛季确认 / not acknowledged by the season", file=sys.stderr)
            return 1
        refused = store.state["season_push"]["refused"]
        if refused:  # the season said no to something this table played: a person must look
            uid, zh, en, rule = (refused[k] for k in ("uid", "zh", "en", "rule"))
            print(
                f"{args.table}: 赛季拒收 {uid}：{zh} / the season refused {uid}: {en} [{rule}]",
                file=sys.stderr,
            )
            return 1
        _retrying(link.refresh)  # the table's board: the season's as the table leaves it
        print(f"{args.table}: 全部存入赛季 all acknowledged by the season", flush=True)
        return 0
    finally:
        link.stop()
        store.close()


def _retrying(fn: Callable[[], T]) -> T:
    """``fn()``, tried again while the season is unreachable (its server restarting): a table waits for
    its season, as an operator would try again."""
    deadline = time.monotonic() + DRAIN_S
    while True:
        try:
            return fn()
        except Exception as exc:
            unreachable = isinstance(exc, DatabaseError) or type(exc).__module__.startswith("psycopg")
            if not unreachable or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _final_in_season(target: str, label: str) -> bool:
    with SeasonDB.open(target) as sdb:
        row = sdb.conn.execute(
            "SELECT status FROM season_matches WHERE label=? ORDER BY id DESC LIMIT 1", (label,)
        ).fetchone()
    return row is not None and row[0] == "final"


def _play_match(store: Any, args: argparse.Namespace, label: str, *, seed: int) -> None:
    from broadcast.season.live import start_match

    link = store.state["match"]["season"]
    if not link or link.get("label") != label or link["final"]:
        if not _same_match_on_table(store, label):
            _retrying(lambda: start_match(store, args.season_db, **_lineup(args), label=label, uid=label))
    rng = random.Random(f"table:{args.table}:{seed}")
    while store.state["match"]["result"]["winner"] is None:
        result = store.state["match"]["result"]
        if result["needs_lots"]:
            store.dispatch("match.lots", {"seed": rng.randrange(2**31)}, source="table")
            continue
        _play_game(store, seed + int(store.state["table"]["game_no"]), rng, args.pace)


def _same_match_on_table(store: Any, label: str) -> bool:
    link = store.state["match"]["season"]
    return bool(link) and link.get("label") == label


def _lineup(args: argparse.Namespace) -> dict[str, Any]:
    with SeasonDB.open(args.season_db) as sdb:
        season = sdb.season(getattr(args, "season", None))
        sid = int(season["id"])
        teams = []
        for name in (args.team_a, args.team_b):
            tid = sdb.team_id(sid, name)
            if tid is None:
                raise SeasonError("team", f"没有这支队伍：{name}", f"no such team: {name}")
            players = [int(p["id"]) for p in sdb.players(sid, tid)][:3]
            if len(players) < 3:
                raise SeasonError("G1.1", f"{name} 不足三名队员", f"{name} has fewer than three players")
            teams.append((tid, players))
    (ta, pa), (tb, pb) = teams
    lineup = {1: pa[0], 3: pa[1], 5: pa[2], 2: pb[0], 4: pb[1], 6: pb[2]}
    return {"season": sid, "episode": args.episode, "odd": ta, "even": tb, "lineup": lineup}


def _play_game(store: Any, seed: int, rng: random.Random, pace: float) -> None:
    """One game through the store, move by move (a game left half-played by a kill goes on)."""
    from broadcast.game.adapter import replay
    from broadcast.game.live import RUNTIME_KEY, record_key

    if store.state["table"]["phase"] != "playing":
        store.dispatch("game.new", {"seed": seed}, source="table")
    while store.state["table"]["phase"] == "playing":
        # the store's live game, or the state's record replayed when the store has let it go (a dispatch
        # whose new state was not kept forgets it until the next decision rebuilds it)
        live = store.runtime.get(RUNTIME_KEY)
        game = live.game if live is not None and live.key == record_key(store.state) else replay(store.state)
        store.dispatch("game.play", {"line": str(game.random_action(rng))}, source="table")
        if pace:
            time.sleep(pace)


def _score(store: Any, args: argparse.Namespace) -> str:
    """The match's line as ``season finish`` says it: the score, the winning team by name, and how."""
    from broadcast.season.export import DECIDED_BY

    r = store.state["match"]["result"]
    winner = {"odd": args.team_a, "even": args.team_b}.get(r["winner"], r["winner"])
    how = DECIDED_BY.get(r["decided_by"], r["decided_by"])
    return f"{r['odd']}:{r['even']}，胜方 winner {winner}（{how}）"
