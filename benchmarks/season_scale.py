"""Season scale: 10,000 players, 100,000 games. Goals: 英雄榜 recomputed ≤ 1 s, XLSX export ≤ 5 s.

    .venv/bin/python benchmarks/season_scale.py [--players 10000] [--games 100000] [--keep FILE]

Builds the season in a temporary SQLite file with the season component's real schema. The game
records are real: a pool of engine self-play games (each a complete GJN record with its result) is
generated first and dealt out to the matches; rows are bulk-inserted in one transaction (the
per-game path with the engine's re-check is timed separately on a few games). Prints every figure.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from broadcast.season.export import export_ranking  # noqa: E402
from broadcast.season.model import SeasonDB  # noqa: E402
from broadcast.season.rankings import compute  # noqa: E402
from broadcast.season.render import render_leaderboard  # noqa: E402
from broadcast.season.scoring import check_record  # noqa: E402
from engine import first_leader, gjn, new_game  # noqa: E402

SURNAMES = (
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
)
GIVEN = "建国志强秀英桂兰海涛立新春梅玉珍国庆卫东红霞明亮德胜淑芬永刚晓东振华丽娟福来长青金凤宝山"


def timed(label: str, fn, *a, **kw):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn(*a, **kw)
    dt = time.perf_counter() - t0
    print(f"  {label:<58} {dt * 1000:9.1f} ms")
    return out, dt


def pool_of_games(n: int) -> list[tuple[str, list[int], dict[int, str], dict[int, int], bool]]:
    pool = []
    for i in range(n):
        seed = f"bench-{i}"
        g = new_game("tv_match", seed=seed, leader=first_leader(seed))
        g.play_randomly(random.Random(f"gouji-play:{seed}"))
        text = gjn.write(gjn.from_game(g, [("Event", f"bench {i}")]))
        out = check_record(text, f"bench-{i}.gjn")  # the engine's verdict and the per-seat points
        pool.append((text, out.finish_order, out.titles, out.points, out.quan_san))
    return pool


def build(path: Path, players: int, games: int, pool_size: int) -> int:
    rng = random.Random(7)
    sdb = SeasonDB.open(path)
    sid = sdb.create_season("规模测试", title="规模测试赛季")
    pool, _ = timed(f"engine self-play pool ({pool_size} games, checked)", pool_of_games, pool_size)
    c = sdb.conn
    t0 = time.perf_counter()
    c.execute("PRAGMA synchronous=OFF")
    c.execute("BEGIN")
    n_teams = players // 4
    c.executemany(
        "INSERT INTO season_teams(id, season_id, name, color) VALUES(?,?,?,?)",
        [(t, sid, f"第{t}队", f"#{rng.randrange(0x1000000):06x}") for t in range(1, n_teams + 1)],
    )
    c.executemany(
        "INSERT INTO season_players(id, season_id, team_id, code, name) VALUES(?,?,?,?,?)",
        [
            (
                p,
                sid,
                (p - 1) // 4 + 1,
                f"P{p:05d}",
                rng.choice(SURNAMES) + GIVEN[2 * rng.randrange(len(GIVEN) // 2) :][:2],
            )
            for p in range(1, players + 1)
        ],
    )
    n_matches = (games + 2) // 3
    match_rows, lineup_rows, game_rows, seat_rows = [], [], [], []
    gid = 0
    for m in range(1, n_matches + 1):
        ta, tb = rng.sample(range(1, n_teams + 1), 2)
        la = rng.sample(range((ta - 1) * 4 + 1, ta * 4 + 1), 3)
        lb = rng.sample(range((tb - 1) * 4 + 1, tb * 4 + 1), 3)
        lineup = {1: la[0], 3: la[1], 5: la[2], 2: lb[0], 4: lb[1], 6: lb[2]}
        lineup_rows += [(m, s, p) for s, p in lineup.items()]
        sa = sb = 0
        for number in range(1, 4):
            if gid >= games:
                break
            gid += 1
            text, order, titles, pts, qs = pool[rng.randrange(len(pool))]
            pa, pb = pts[1] + pts[3] + pts[5], pts[2] + pts[4] + pts[6]
            sa, sb = sa + pa, sb + pb
            game_rows.append((gid, m, number, text, int(qs), pa, pb))
            place = {s: i + 1 for i, s in enumerate(order)}
            seat_rows += [
                (gid, s, sid, lineup[s], ta if s % 2 else tb, titles[s], place.get(s), pts[s], 0)
                for s in range(1, 7)
            ]
        winner = ta if sa >= sb else tb
        match_rows.append((m, sid, 0, ta, tb, "final", sa, sb, winner, "points"))
    c.executemany(
        "INSERT INTO season_matches(id, season_id, round, team_a, team_b, status, score_a, score_b, "
        "winner, decided_by) VALUES(?,?,?,?,?,?,?,?,?,?)",
        match_rows,
    )
    c.executemany("INSERT INTO season_lineups(match_id, seat, player_id) VALUES(?,?,?)", lineup_rows)
    c.executemany(
        "INSERT INTO season_games(id, match_id, number, gjn, quan_san, points_a, points_b) "
        "VALUES(?,?,?,?,?,?,?)",
        game_rows,
    )
    c.executemany(
        "INSERT INTO season_game_seats(game_id, seat, season_id, player_id, team_id, title, place, "
        "points, opened) VALUES(?,?,?,?,?,?,?,?,?)",
        seat_rows,
    )
    c.execute("COMMIT")
    c.execute("PRAGMA synchronous=NORMAL")
    print(
        f"  {'bulk insert (' + f'{n_teams} teams, {players} players, {n_matches} matches, {gid} games)':<58} "
        f"{(time.perf_counter() - t0) * 1000:9.1f} ms"
    )
    timed("materialised totals rebuilt from 600k seat rows", sdb.rebuild_totals, sid)
    c.execute("ANALYZE")
    sdb.close()
    return sid


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--pool", type=int, default=400, help="distinct self-play records to deal out")
    ap.add_argument("--keep", default=None, help="keep the database at this path")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.keep) if args.keep else Path(tmp) / "season_scale.sqlite"
        if path.exists():
            path.unlink()
        print(f"== building: {args.players} players, {args.games} games → {path}")
        sid = build(path, args.players, args.games, args.pool)
        print(f"  database size {path.stat().st_size / 1e6:.0f} MB")
        sdb = SeasonDB.open(path)  # a fresh connection, as the app would have
        print("== 英雄榜 (goal ≤ 1 s)")
        players_fast, t_fast = timed(
            "players, materialised totals + tie-breaks (h2h)", compute, sdb.conn, sid, "players"
        )
        players_full, t_full = timed(
            "players, full recompute (GROUP BY seat rows) + tie-breaks",
            compute,
            sdb.conn,
            sid,
            "players",
            materialised=False,
        )
        teams_fast, t_tfast = timed(
            "teams, materialised totals + tie-breaks", compute, sdb.conn, sid, "teams"
        )
        _, t_tfull = timed("teams, full recompute", compute, sdb.conn, sid, "teams", materialised=False)
        same = [r.as_dict() for r in players_fast.rows] == [r.as_dict() for r in players_full.rows]
        tied = sum(1 for r in players_fast.rows if r.tied)
        print(
            f"  rows {len(players_fast.rows)} players / {len(teams_fast.rows)} teams; both ways identical: "
            f"{same};"
            f" rows sharing a rank (并列) after h2h: {tied}"
        )
        season = sdb.season(sid)
        print("== export (goal: XLSX ≤ 5 s)")
        with tempfile.TemporaryDirectory() as out:
            o = Path(out)
            _, t_x = timed(
                f"XLSX 英雄榜 players ({len(players_fast.rows)} rows), incl. recompute",
                lambda: export_ranking(
                    compute(sdb.conn, sid, "players"), season, o / "p.xlsx", "xlsx", quiet=True
                ),
            )
            _, t_xt = timed(
                f"XLSX 英雄榜 teams ({len(teams_fast.rows)} rows), incl. recompute",
                lambda: export_ranking(
                    compute(sdb.conn, sid, "teams"), season, o / "t.xlsx", "xlsx", quiet=True
                ),
            )
            timed("CSV 英雄榜 players", export_ranking, players_fast, season, o / "p.csv", "csv", quiet=True)
            timed(
                "JSON 英雄榜 players", export_ranking, players_fast, season, o / "p.json", "json", quiet=True
            )
            timed(
                "PNG 英雄榜 1920×1080",
                render_leaderboard,
                players_fast,
                o / "p.png",
                sponsor="鲁信汽车城",
                subtitle="规模测试",
            )
            print(f"  XLSX size {(o / 'p.xlsx').stat().st_size / 1e6:.1f} MB")
        print("== recording one more game through the model (engine re-check + totals update)")
        ta, tb = sdb.conn.execute("SELECT team_a, team_b FROM season_matches LIMIT 1").fetchone()
        lineup = {
            s: pid
            for s, pid in zip(
                (1, 3, 5, 2, 4, 6),
                [p["id"] for p in sdb.players(sid, ta)][:3] + [p["id"] for p in sdb.players(sid, tb)][:3],
                strict=True,
            )
        }
        mid = sdb.create_match(sid, ta, tb, lineup)
        texts = []
        for i in range(3):
            seed = f"extra-{i}"
            g = new_game("tv_match", seed=seed, leader=first_leader(seed))
            g.play_randomly(random.Random(seed))
            texts.append(gjn.write(gjn.from_game(g)))
        t0 = time.perf_counter()
        for t in texts:
            sdb.record_game(mid, t)
        per_game = (time.perf_counter() - t0) / 3
        print(f"  {'record_game (per game)':<58} {per_game * 1000:9.1f} ms")
        _, t_after = timed("players 英雄榜 right after (materialised)", compute, sdb.conn, sid, "players")
        sdb.close()
        ok_rank = max(t_fast, t_tfast) <= 1.0
        ok_xlsx = t_x <= 5.0
        print("== summary")
        print(
            f"  英雄榜 recompute: players {t_fast:.3f} s (full {t_full:.3f} s), teams {t_tfast:.3f} s "
            f"(full {t_tfull:.3f} s) → goal ≤ 1 s: {'met' if ok_rank else 'MISSED'}"
        )
        print(
            f"  XLSX export: players {t_x:.3f} s, teams {t_xt:.3f} s → goal ≤ 5 s: "
            f"{'met' if ok_xlsx else 'MISSED'}"
        )
        return 0 if ok_rank and ok_xlsx else 1


if __name__ == "__main__":
    sys.exit(main())
