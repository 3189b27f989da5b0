"""A worker's batch: every record replayed by the engine, refusals with their clause, totals per player."""

from __future__ import annotations

import json
import random
from pathlib import Path

from broadcast.qualifiers import records, synthetic
from broadcast.qualifiers.check import STATS, WIDTH, Shard, check_batch, check_shard, digest, pack, unpack
from broadcast.qualifiers.records import identity
from broadcast.qualifiers.store import Totals

from .conftest import expected_totals


def _item(n: int, text: str, kind: str = "jsonl") -> tuple[bytes, str, str, str]:
    return (identity(kind, f"{n}:{text}".encode()), f"export.jsonl:{n}", kind, text)


def test_legal_records_are_counted_and_summed_as_the_engine_scores_them(
    pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 40, roster, illegal=0.25, seed=5))
    items = [_item(n, synthetic.jsonl_line(n, t, s).strip()) for n, (t, s, _ok) in enumerate(recs, start=1)]
    out = check_batch(items, "tv_match")
    legal = sum(ok for _, _, ok in recs)
    assert 0 < legal < 40
    assert len(out.counted) == legal and len(out.refused) == 40 - legal
    want = expected_totals(recs)
    got = {
        pid: dict(zip(STATS, out.stats[i * WIDTH : (i + 1) * WIDTH], strict=True))
        for i, pid in enumerate(out.ids)
    }
    assert set(got) == set(want)
    for pid, w in want.items():
        g = got[pid]
        assert (g["games"], g["points"], g["place1"], g["place6"], g["quan_san"]) == (
            w["games"],
            w["points"],
            w["firsts"],
            w["lasts"],
            w["quan_san"],
        ), pid


def test_an_illegal_record_is_refused_with_its_move_and_clause(pool: synthetic.Pool) -> None:
    # docs/rules.md Appendix A: a record cut short is 未完, G10.4 at move n+1; G3.1: cards not held
    legal = pool.legal[0]
    cut = "\n".join(legal.rstrip("\n").split("\n")[:-1]) + "\n"
    lines = legal.rstrip("\n").split("\n")
    first_move = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("["))
    seat = lines[first_move].split()[0]
    stolen = "\n".join([*lines[:first_move], f"{seat} RRRR", *lines[first_move + 1 :]]) + "\n"
    named = "".join(f'[Id{s} "P{s}"]\n' for s in range(1, 7))
    out = check_batch([_item(1, named + cut, "gjn"), _item(2, named + stolen, "gjn")], "tv_match")
    assert not out.counted
    by_where = {r.where: r for r in out.refused}
    r1, r2 = by_where["export.jsonl:1"], by_where["export.jsonl:2"]
    assert r1.rule == "G10.4" and r1.move == len(lines) - first_move and "未完" in r1.zh
    assert r2.rule == "G3.1" and r2.move == 1 and r2.seat == int(seat) and "RRRR" in r2.en


def test_bad_lines_and_bad_players_are_refusals_never_errors(pool: synthetic.Pool) -> None:
    text = pool.legal[1]
    good_players = [{"seat": s, "id": f"P{s}", "name": f"选手{s}"} for s in range(1, 7)]

    def line(**kw: object) -> str:
        return json.dumps({"players": good_players, "gjn": text, **kw}, ensure_ascii=False)

    cases = {
        "json": '{"players": [1, 2',
        "not-object": "[1, 2, 3]",
        "no-gjn": json.dumps({"players": good_players}),
    }
    cases["five"] = line(players=good_players[:5])
    cases["twice"] = line(players=[*good_players[:5], {"seat": 6, "id": "P1", "name": "x"}])
    cases["bidi"] = line(players=[*good_players[:5], {"seat": 6, "id": "P6", "name": "王\u202e军"}])
    cases["dagang"] = line(gjn=text.replace('[Rules "tv_match"]', '[Rules "dagang"]'))
    cases["deep"] = "[" * 100000 + "]" * 100000
    items = [(identity("t", k.encode()), k, "jsonl", v) for k, v in cases.items()]
    out = check_batch(items, "tv_match")
    rules = {r.where: r.rule for r in out.refused}
    assert not out.counted
    assert rules["json"] == rules["not-object"] == rules["no-gjn"] == rules["five"] == "json"
    assert rules["twice"] == "player" and rules["bidi"] == "name"
    assert rules["deep"] == "json"
    # a dagang game is refused by rules — or, if its deal is not legal dagang, by the engine's clause
    assert rules["dagang"] not in ("json", "player", "name")
    assert all(r.zh and r.en and r.zh != r.en for r in out.refused)


def test_a_legal_game_of_another_preset_is_refused_by_rules() -> None:
    """A board scores one preset (docs/rules.md G11.1 tv_match, G11.3 dagang): a legal dagang game is not
    counted on a tv_match board, and counts on a dagang one."""
    import random

    from engine import gjn
    from engine.deal import new_game

    g = new_game("dagang", seed="q-dagang")
    g.play_randomly(random.Random("q-dagang"))
    text = "".join(f'[Id{s} "D{s}"]\n' for s in range(1, 7)) + gjn.write_game(g)
    assert gjn.check(text)["ok"]
    out = check_batch([_item(1, text, "gjn")], "tv_match")
    assert not out.counted and [r.rule for r in out.refused] == ["rules"]
    assert "dagang" in out.refused[0].en and "tv_match" in out.refused[0].zh
    on_dagang = check_batch([_item(1, text, "gjn")], "dagang")
    if gjn.check(text)["finish_order"]:
        assert len(on_dagang.counted) == 1 and not on_dagang.refused
    else:  # a 流局 counts on no board (G10.5)
        assert [r.rule for r in on_dagang.refused] == ["G10.5"]


def test_a_gjn_file_names_its_players_by_id_and_seat_tags(pool: synthetic.Pool) -> None:
    tags = "".join(f'[Id{s} "QL{s}"] [Seat{s} "张{s}"]\n' for s in range(1, 6)) + '[Seat6 "无编号"]\n'
    out = check_batch([_item(1, tags + pool.legal[2], "gjn")], "tv_match")
    assert len(out.counted) == 1
    assert out.ids == ["QL1", "QL2", "QL3", "QL4", "QL5", "无编号"]
    assert out.names[:2] == ["张1", "张2"]
    nobody = check_batch([_item(2, pool.legal[2], "gjn")], "tv_match")
    assert [r.rule for r in nobody.refused] == ["player"] and nobody.refused[0].seat == 1


def _shards(path: Path, batch: int) -> list[Shard]:
    """The shards the driver hands out for ``path`` (the workers read the bytes themselves)."""
    out = []
    for run in records.units(path):
        assert isinstance(run, records.Lines)
        for i0, _i1, a, b in records.cuts(run, batch):
            sh = Shard(
                run.source, run.first_line + i0, path=str(path), start=run.start + a, end=run.start + b
            )
            sh.digest = digest(run.body[a:b])
            out.append(sh)
    return out


def test_a_worker_reads_its_shards_from_the_export_and_sums_as_the_engine_scores(
    tmp_path: Path, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 30, roster, illegal=0.2, seed=21))
    export = tmp_path / "export.jsonl"
    export.write_text("".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)), "utf-8")
    totals = Totals()
    counted: list[bytes] = []
    refused = []
    for sh in _shards(export, 7):
        out = check_shard(sh, "tv_match")
        assert out.error is None and not out.stats and len(out.packed) == len(out.ids)
        totals.add(out)
        counted += out.counted
        refused += out.refused
    assert len(counted) == sum(ok for *_, ok in recs) and len(counted) + len(refused) == 30
    # the identities are the records' own (as the driver and an earlier import took them)
    assert set(counted) | {r.key for r in refused} == {r.key for r in records.read(export)}
    # the refused are named by the export's own line numbers, whatever shard they were in
    bad_lines = {n + 1 for n, (*_, ok) in enumerate(recs) if not ok}
    assert {int(r.where.rsplit(":", 1)[1]) for r in refused} == bad_lines
    got = {row[0]: dict(zip(STATS, row[2:], strict=True)) for row in totals.rows()}
    want = expected_totals(recs)
    assert {p: (g["games"], g["points"], g["place1"], g["place6"]) for p, g in got.items()} == {
        p: (w["games"], w["points"], w["firsts"], w["lasts"]) for p, w in want.items()
    }


def test_a_shard_whose_file_changed_is_not_counted_and_names_the_place(
    tmp_path: Path, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 6, roster, illegal=0.0, seed=22))
    export = tmp_path / "export.jsonl"
    export.write_text("".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)), "utf-8")
    first, second = _shards(export, 3)
    text = export.read_text("utf-8")
    export.write_text(text.replace('"QL-G', '"QX-G'), "utf-8")  # rewritten while being imported
    out = check_shard(second, "tv_match")
    assert out.error is not None and not out.counted and not out.ids
    assert out.error[0] == f"{export}:4" and "changed" in out.error[2] and "改动" in out.error[1]
    export.unlink()
    gone = check_shard(first, "tv_match")
    assert gone.error is not None and "cannot read" in gone.error[2]


def test_packed_rows_add_up_as_their_figures_negative_points_too() -> None:
    rng = random.Random(7)
    rows = [[rng.randint(-(1 << 40), 1 << 40) for _ in range(WIDTH)] for _ in range(200)]
    assert unpack(sum(pack(r) for r in rows)) == [sum(col) for col in zip(*rows, strict=True)]
    assert unpack(pack([-3, -7, 0, 0, 0, 0, 0, 0, 0, 1])) == [-3, -7, 0, 0, 0, 0, 0, 0, 0, 1]
