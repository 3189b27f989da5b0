"""``qualifiers import`` end to end on a real Dask LocalCluster (2 worker processes): counts, refusals
named, totals equal to an independent count, nothing counted twice (re-import, kill -9 and resume)."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from broadcast.qualifiers import synthetic

from .conftest import PY, ROOT, call, expected_totals, run_cli

Rec = tuple[str, list[synthetic.Player], bool]


def _write_sources(tmp: Path, recs: list[Rec]) -> list[str]:
    """The records spread over a JSON-lines export (with one broken line), a zip and a tar.gz of GJN files."""
    a, b = len(recs) // 2, len(recs) * 3 // 4
    with (tmp / "export.jsonl").open("w", encoding="utf-8") as f:
        for n, (text, seated, _) in enumerate(recs[:a], start=1):
            f.write(synthetic.jsonl_line(n, text, seated))
            if n == 3:
                f.write('{"players": [oops\n')
    with zipfile.ZipFile(tmp / "day2.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for i, (text, seated, _) in enumerate(recs[a:b]):
            z.writestr(f"day2/{i:03d}.gjn", synthetic.gjn_file(text, seated))
    with tarfile.open(tmp / "day3.tar.gz", "w:gz") as tf:
        for i, (text, seated, _) in enumerate(recs[b:]):
            data = synthetic.gjn_file(text, seated).encode()
            info = tarfile.TarInfo(f"day3/{i:03d}.gjn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return [str(tmp / n) for n in ("export.jsonl", "day2.zip", "day3.tar.gz")]


def _board(db: Path) -> dict[str, dict[str, int]]:
    res = call("qualifiers", "board", "--db", str(db), "--top", "100000", "--json")
    assert res.returncode == 0, res.stderr
    return {
        r["platform_id"]: {k: r[k] for k in ("games", "points", "firsts", "lasts", "quan_san")}
        for r in json.loads(res.stdout)
    }


@pytest.mark.long
def test_import_checks_counts_and_names_every_refusal(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 80, roster, illegal=0.1, seed=11))
    bad = sum(not ok for _, _, ok in recs)
    assert bad >= 3
    sources = _write_sources(tmp_path, recs)
    db = tmp_path / "q.sqlite"
    res = run_cli("qualifiers", "import", *sources, "--db", str(db), "--scheduler", cluster, "--batch", "7")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    out = res.stdout
    assert f"读取 read 81 条记录 records: 计入 counted {80 - bad}, 拒绝 refused {bad + 1}," in out
    assert "已导入过 already imported 0" in out
    # the broken JSON line is named by file:line; an illegal record by its file, move and clause
    assert f"{sources[0]}:4: [json]" in out
    refused = [ln for ln in out.splitlines() if ln.startswith("  ") and "[G" in ln]
    assert refused and all(" move " in ln and "seat" in ln for ln in refused)
    assert any(".zip!day2/" in ln or ".tar.gz!day3/" in ln or ".jsonl:" in ln for ln in refused)
    # the totals are those counted independently from the engine's own check
    assert _board(db) == expected_totals(recs)
    board = json.loads(call("qualifiers", "board", "--db", str(db), "--top", "5", "--json").stdout)
    assert [r["rank"] for r in board] == sorted(r["rank"] for r in board) and board[0]["rank"] == 1
    assert all({"name", "games", "points", "rank"} <= set(r) for r in board)
    points = [r["points"] for r in board]
    assert points == sorted(points, reverse=True)

    # the same sources again add nothing, and say so
    again = run_cli("qualifiers", "import", *sources, "--db", str(db), "--scheduler", cluster)
    assert again.returncode == 0, again.stderr
    assert "计入 counted 0, 拒绝 refused 0, 已导入过 already imported 81" in again.stdout
    assert _board(db) == expected_totals(recs)

    listing = call("qualifiers", "refusals", "--db", str(db), "--csv", str(tmp_path / "refused.csv"))
    assert listing.returncode == 0, listing.stderr
    assert len((tmp_path / "refused.csv").read_text(encoding="utf-8-sig").splitlines()) == bad + 2


@pytest.mark.long
def test_kill_9_halfway_then_the_same_command_counts_each_record_once(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 240, roster, illegal=0.05, seed=12))
    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs, start=1)), encoding="utf-8"
    )
    db = tmp_path / "q.sqlite"
    cmd = [PY, "-m", "broadcast", "qualifiers", "import", str(export), "--db", str(db)]
    # killed while the workers read their shards from the file (--shared-files), resumed with the shards'
    # bytes sent to them: the same records either way
    cmd += ["--scheduler", cluster, "--shared-files", "--batch", "6", "--checkpoint", "0"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    committed = 0
    try:
        while proc.poll() is None:  # wait for some batches to be committed, then kill it mid-flight
            if db.exists():
                try:
                    with sqlite3.connect(db) as c:
                        committed = c.execute("SELECT COUNT(*) FROM qualifiers_records").fetchone()[0]
                except sqlite3.OperationalError:
                    committed = 0
            if committed >= 30:
                os.kill(proc.pid, signal.SIGKILL)
                break
            time.sleep(0.05)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, "the import ended before it could be killed halfway"
    with sqlite3.connect(db) as c:
        before = c.execute("SELECT COUNT(*) FROM qualifiers_records").fetchone()[0]
    assert 30 <= before < 240
    res = run_cli("qualifiers", "import", str(export), "--db", str(db), "--scheduler", cluster)
    assert res.returncode == 0, res.stderr
    assert f"已导入过 already imported {before}" in res.stdout
    assert _board(db) == expected_totals(recs)


@pytest.mark.long
def test_ctrl_c_keeps_what_finished_and_the_same_command_goes_on(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    """Ctrl-C before any checkpoint: what the workers finished is committed, one line says so, exit 130;
    the same command then counts the rest, each record once."""
    # enough records that the import is still checking when the Ctrl-C comes (160 were all counted
    # before it, on a quiet machine: nothing was left for the same command to go on with)
    recs = list(synthetic.records(pool, 800, roster, illegal=0.05, seed=17))
    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs, start=1)), encoding="utf-8"
    )
    db = tmp_path / "q.sqlite"
    cmd = [
        PY,
        "-m",
        "broadcast",
        "qualifiers",
        "import",
        str(export),
        "--db",
        str(db),
        "--scheduler",
        cluster,
    ]
    proc = subprocess.Popen(
        [*cmd, "--batch", "5", "--checkpoint", "600", "--progress"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's Ctrl-C
    )
    assert proc.stderr is not None
    seen = b""
    while b"counted " not in seen or b"counted 0 " in seen.rsplit(b"\r", 1)[-1]:
        chunk = proc.stderr.read1(4096)  # the progress bar: wait until some records were checked
        assert chunk, "the import ended before it could be interrupted"
        seen += chunk
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    text = (seen + err).decode()
    assert proc.returncode == 130, text[-500:]
    assert "已中断 interrupted" in text and "Traceback" not in text
    with sqlite3.connect(db) as c:
        kept = c.execute("SELECT COUNT(*) FROM qualifiers_records").fetchone()[0]
    assert 0 < kept < len(recs)
    res = run_cli(*cmd[3:])
    assert res.returncode == 0, res.stderr
    assert f"已导入过 already imported {kept}" in res.stdout
    assert _board(db) == expected_totals(recs)


def test_a_ctrl_c_inside_a_held_block_is_raised_as_the_block_ends() -> None:
    """A Ctrl-C in the middle of ``client.submit`` cut Dask's Future in half (its ``__del__`` then printed
    a traceback): the import's held blocks (submit, a batch taken and added) end whole, then the
    interrupt goes on; outside them it is raised at once."""
    from broadcast.qualifiers.run import Interrupts

    it = Interrupts()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a command's main thread
    steps: list[object] = []
    try:
        with it.installed():
            with pytest.raises(KeyboardInterrupt), it.held():
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(1_000_000):  # the handler runs between two bytecodes of this thread
                    if it.waiting:
                        break
                steps.append(it.waiting)
                with it.held():  # nested: only the outermost block's end raises
                    pass
                steps.append("the block ran to its end")
            assert steps == [True, "the block ran to its end"] and not it.waiting
            with pytest.raises(KeyboardInterrupt):
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(1_000_000):
                    pass
                steps.append("never")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, before)

    assert "never" not in steps


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the lost one, on purpose
def test_a_ctrl_c_lost_inside_a_del_is_raised_at_the_next_safe_point() -> None:
    """Python drops an exception raised inside a ``__del__`` (it prints "Exception ignored in"): a Ctrl-C
    that landed in a Dask Future's ``__del__`` printed its traceback and the import ran on to exit 0
    (seen in a full run). The interrupt is kept, and the import's next safe point (a shard finished or
    submitted, the end of the run) raises it; inside a held block it still waits for the block's end."""
    import gc

    from broadcast.qualifiers.run import Interrupts

    it = Interrupts()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a command's main thread
    try:
        with it.installed():

            class Swallows:
                def __del__(self) -> None:
                    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while Dask's __del__ runs
                    for _ in range(1_000_000):
                        pass

            gc.disable()  # the __del__ runs here, on the del below
            try:
                x = Swallows()
                del x
            finally:
                gc.enable()
            assert it.fired  # the handler ran; its KeyboardInterrupt was lost in __del__
            with it.held():
                it.check()  # inside a held block: not yet
            with pytest.raises(KeyboardInterrupt):
                it.check()
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_damaged_archive_is_one_line_and_exit_2_the_rest_is_counted(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    recs = list(synthetic.records(pool, 6, roster, illegal=0.0, seed=13))
    good = tmp_path / "good.jsonl"
    good.write_text(
        "".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)), encoding="utf-8"
    )
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04garbage")
    db = tmp_path / "q.sqlite"
    res = run_cli("qualifiers", "import", str(broken), str(good), "--db", str(db), "--scheduler", cluster)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr + res.stdout
    errors = [ln for ln in res.stderr.splitlines() if "error" in ln]
    assert len(errors) == 1 and f"{broken}:1:" in errors[0] and "zip" in errors[0]
    assert "计入 counted 6" in res.stdout
    missing = call("qualifiers", "import", str(tmp_path / "nope.jsonl"), "--db", str(db))
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "nope.jsonl" in missing.stderr


def test_invite_the_top_into_the_season_and_export_the_board(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    from openpyxl import load_workbook

    from broadcast.season.model import SeasonDB

    recs = list(synthetic.records(pool, 30, roster, illegal=0.0, seed=14))
    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)), encoding="utf-8"
    )
    db = tmp_path / "q.sqlite"
    assert (
        run_cli("qualifiers", "import", str(export), "--db", str(db), "--scheduler", cluster).returncode == 0
    )
    no_season = call("qualifiers", "invite", "--top", "4", "--db", str(db))
    assert no_season.returncode == 2 and "season create" in no_season.stderr
    assert call("season", "create", "第二季", "--db", str(db)).returncode == 0
    res = call("qualifiers", "invite", "--top", "4", "--db", str(db))
    assert res.returncode == 0, res.stderr
    top = json.loads(call("qualifiers", "board", "--db", str(db), "--top", "4", "--json").stdout)[:4]
    with SeasonDB.open(db) as sdb:
        players = sdb.players(int(sdb.season("第二季")["id"]))
        assert [(p["code"], p["name"]) for p in players] == [(r["platform_id"], r["name"]) for r in top]
        assert all(p["team_id"] is None for p in players)  # teams are the producer's to form
    again = call("qualifiers", "invite", "--top", "4", "--db", str(db))
    assert again.returncode == 0 and "新加入 invited 0" in again.stdout

    for name in ("board.csv", "board.xlsx"):
        res = call("qualifiers", "export", "--out", str(tmp_path / name), "--db", str(db))
        assert res.returncode == 0, res.stderr
    lines = (tmp_path / "board.csv").read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("名次,平台编号,昵称,局数,积分") and len(lines) == 1 + len(_board(db))
    ws = load_workbook(tmp_path / "board.xlsx", read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    assert "海选榜" in str(rows[0][0]) and rows[1][:3] == ("名次", "平台编号", "昵称")
    assert [str(r[1]) for r in rows[2:6]] == [r["platform_id"] for r in top]
    bad = call("qualifiers", "export", "--out", str(tmp_path / "board.pdf"), "--db", str(db))
    assert bad.returncode == 2 and "csv" in bad.stderr and "Traceback" not in bad.stderr


def test_the_board_on_the_seasons_postgresql_server(
    tmp_path: Path, cluster: str, postgres: Any, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    """--season-db URL: the qualifier tables live with the season on PostgreSQL; the same counts, the
    same board, a second import adds nothing, the invitation goes into that season."""
    from broadcast.season.model import SeasonDB

    recs = list(synthetic.records(pool, 24, roster, illegal=0.1, seed=16))
    export = tmp_path / "export.jsonl"
    export.write_text(
        "".join(synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)), encoding="utf-8"
    )
    url = postgres.create_database("qualifiers_board")
    db = tmp_path / "studio.sqlite"
    imp = ("qualifiers", "import", str(export), "--db", str(db), "--season-db", url, "--scheduler", cluster)
    res = run_cli(*imp)
    assert res.returncode == 0, res.stderr
    legal = sum(ok for _, _, ok in recs)
    assert f"计入 counted {legal}, 拒绝 refused {24 - legal}," in res.stdout
    assert not db.exists() or "qualifiers_players" not in db.read_bytes().decode("latin-1")
    board = call("qualifiers", "board", "--db", str(db), "--season-db", url, "--top", "1000", "--json")
    assert board.returncode == 0, board.stderr
    got = {r["platform_id"]: {k: r[k] for k in ("games", "points", "firsts", "lasts", "quan_san")}
           for r in json.loads(board.stdout)}  # fmt: skip
    assert got == expected_totals(recs)
    again = run_cli(*imp)
    assert "计入 counted 0, 拒绝 refused 0, 已导入过 already imported 24" in again.stdout
    with SeasonDB.open(url) as sdb:
        sdb.create_season("第二季")
    res = call("qualifiers", "invite", "--top", "3", "--db", str(db), "--season-db", url)
    assert res.returncode == 0, res.stderr
    with SeasonDB.open(url) as sdb:
        codes = [p["code"] for p in sdb.players(int(sdb.season("第二季")["id"]))]
    assert codes == [r["platform_id"] for r in json.loads(board.stdout)[:3]]


@pytest.mark.long
def test_the_default_is_a_local_cluster_on_this_machine(
    tmp_path: Path, cluster: str, pool: synthetic.Pool, roster: list[synthetic.Player]
) -> None:
    """Without --scheduler the workers read their shards of the export from the file themselves: a
    record twice, a blank line and a line over the limit are each where they belong, line numbers stay
    true across shards, and the export grown by a day adds only the new day (imported on the module's
    cluster, its workers reading the file as well: a second LocalCluster of its own cost ~4 CPU-s)."""
    recs = list(synthetic.records(pool, 18, roster, illegal=0.0, seed=15))
    lines = [synthetic.jsonl_line(n, t, s) for n, (t, s, _) in enumerate(recs)]
    huge = '{"gjn": "' + "x" * (1 << 21) + '"}\n'  # over the engine's 1 MiB: refused unread
    export = tmp_path / "export.jsonl"
    export.write_text("".join([*lines[:5], lines[2], "\n", huge, *lines[5:12]]), encoding="utf-8")
    db = tmp_path / "q.sqlite"
    cmd = ("qualifiers", "import", str(export), "--db", str(db), "--workers", "2", "--batch", "4")
    res = run_cli(*cmd, "--progress")
    assert res.returncode == 0, res.stderr
    assert (
        "读取 read 14 条记录 records: 计入 counted 12, 拒绝 refused 1, 已导入过 already imported 1"
        in res.stdout
    )
    assert f"{export}:8: [size]" in res.stdout  # line 8: after 5 records, the repeat and the blank line
    assert "2 个工作进程 workers" in res.stdout
    assert "条/s records/s" in res.stderr  # the progress bar, forced on
    assert "Traceback" not in res.stderr
    assert _board(db) == expected_totals(recs[:12])

    with export.open("a", encoding="utf-8") as f:  # the next day's records appended to the same export
        f.write("".join(lines[12:]))
    res = run_cli(*cmd[:-4], "--scheduler", cluster, "--shared-files", "--batch", "4")
    assert res.returncode == 0, res.stderr
    assert "计入 counted 6, 拒绝 refused 0, 已导入过 already imported 14" in res.stdout
    assert _board(db) == expected_totals(recs)
