"""``python -m broadcast verify-journal --db FILE``: the full check of a project database's journal.

A restart loads the newest checkpoint and replays only what follows it; this command does the slow,
complete check instead, without writing anything:

* every row's running hash, from the first row (an edited or removed row is named);
* the sequence numbers (a gap that is not a recorded loss is named) and the head file beside the
  database (a journal shorter than its head: the ``-wal`` file deleted or emptied);
* the whole journal replayed from the first action with today's code, compared with every stored
  checkpoint at its position (a checkpoint that differs is named with the sections that differ) and
  with what a restart would load.

Exit status 0 when everything agrees, 1 when something is wrong (each finding on its own line),
2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from broadcast.errors import count, plural


def register(parser: argparse.ArgumentParser) -> None:
    from broadcast.core.db import add_db_argument

    add_db_argument(parser)


def _differs(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return sorted(k for k in set(a) | set(b) if k != "meta" and a.get(k) != b.get(k))


def main(args: argparse.Namespace) -> int:
    """The check; a file that cannot be read to the end is one line naming it and why (exit 2), never
    an internal error."""
    import sqlite3

    from broadcast.core.db import chosen as chosen_db
    from broadcast.core.db import describe

    path = chosen_db(args.db)
    try:
        return _check(path)
    except (sqlite3.Error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        print(describe(exc, path), file=sys.stderr)
        return 2


def _check(path: Any) -> int:
    from broadcast.core.db import DatabaseError, not_a_file
    from broadcast.core.journal import Journal
    from broadcast.core.store import ShowStore
    from broadcast.studio import components

    if not path.is_file():
        zh, en = not_a_file(path) or ("数据库文件不存在", "no such database file")
        print(f"{path}: {zh} / {en}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        journal = Journal.open(path, readonly=True)
        checkpoints = {cp.seq: cp for cp in journal.checkpoints()}
        stored = int(journal.connection.execute("SELECT COUNT(*) FROM journal_checkpoints").fetchone()[0])
        store = ShowStore(journal, components=components(), validate=False)  # what a restart loads
    except DatabaseError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    findings: list[str] = []
    if stored > len(checkpoints):
        findings.append(
            f"{path}: {stored - len(checkpoints)} 个检查点与日志对不上（日志在其后被截断或改动）/ "
            f"{count(stored - len(checkpoints), 'checkpoint')} no longer "
            f"{plural(stored - len(checkpoints), 'matches', 'match')} the journal (cut or edited since)"
        )
    for first, last, noted, why in journal.gaps():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(noted))
        findings.append(
            f"{path}: 操作 #{first}–#{last} 已丢失（{when} 发现：{why}）/ actions #{first}–#{last} were lost "
            f"(found {when}: {why})"
        )
    restart = store.state
    compared = 0

    def each(seq: int, state: dict[str, Any]) -> None:
        nonlocal compared
        cp = checkpoints.get(seq)
        if cp is None:
            return
        compared += 1
        diff = _differs(state, cp.state)
        if diff:
            findings.append(
                f"{path}: 检查点 #{seq} 与完整重放不同（{', '.join(diff)}）/ checkpoint #{seq} differs from "
                f"the full replay in: {', '.join(diff)}"
            )

    try:
        store.rebuild(each)  # the whole journal from the first action, every hash checked
    except DatabaseError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    findings[:0] = store.replay_errors
    seq = store.seq
    diff = _differs(restart, store.state)
    if diff:
        findings.append(
            f"{path}: 重启加载的状态与完整重放不同（{', '.join(diff)}）/ "
            f"the state a restart loads differs from the full replay in: {', '.join(diff)}"
        )
    store.close()
    dt = time.perf_counter() - t0
    if findings:
        for f in findings:
            print(f)
        print(
            f"{path}: 发现 {len(findings)} 处问题 / {count(len(findings), 'problem')} found "
            f"({seq} 个操作 / {count(seq, 'action')}, {dt:.1f} s)"
        )
        return 1
    print(
        f"{path}: 日志完好：{seq} 个操作，校验链完整，{compared} 个检查点与完整重放一致，重启状态一致 / "
        f"journal intact: {count(seq, 'action')}, hash chain whole, {count(compared, 'checkpoint')} "
        f"{plural(compared, 'equals', 'equal')} the full replay, restart state equal ({dt:.1f} s)"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    from broadcast.__main__ import main as cli

    sys.exit(cli(["verify-journal", *sys.argv[1:]]))
