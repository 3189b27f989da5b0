"""``python -m broadcast report EPISODE --db FILE …``: the sponsor exposure report of one episode.

    python -m broadcast report 第1期 --db demo.sqlite [--placements FILE] [--air-date D] [--out DIR]
                               [--sponsor ID] [--no-pdf] [--rehearsal]
    python -m broadcast report 第1期 --db demo.sqlite --verify [--key studio.pub]   # the checks only

Writes 赞助商播出报告_<episode>.xlsx/.html/.pdf and one PDF per sponsor under DIR/sponsors/. Only what
OBS confirmed counts; the as-run log is verified first (its chain, the signed heads of the head ledger
beside the database, the episode and prize tables: ``verify.py``) and its head printed on every page; the
first page also prints the episode's receipt (head, signature) and the studio key's fingerprint, and
``赞助商播出报告_<期>.asrun.json`` holds the episode's rows for ``verify-receipt --report``. A failed check
names the first row and the kind of change (exit 1 with ``--verify``) and the report says so on its first
page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from broadcast.core.db import DatabaseError, add_db_argument, not_a_file
from broadcast.core.db import chosen as chosen_db
from broadcast.core.signing import PublicKey, SigningError, StudioKey
from broadcast.errors import count
from broadcast.sponsors.placements import (
    PlacementError,
    Placements,
    load_placements,
    parse_air_date,
    parse_placements,
)


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "episode",
        help="期数（与演播室 show.episode 相同），如 第1期 / "
        "the episode (as the studio's show.episode), e.g. 第1期",
    )
    add_db_argument(parser, "演播室数据库（含播出记录）studio database (with the as-run log)")
    parser.add_argument(
        "--placements",
        help="排期文件（默认用本期加载的那份）/ placements file (default: the one loaded for the episode)",
    )
    parser.add_argument(
        "--air-date", help="播出日期 YYYY-MM-DD（默认取播出记录）/ air date (default: from the as-run log)"
    )
    parser.add_argument(
        "--out",
        default="out/reports",
        help="输出文件夹（默认 out/reports/）/ output folder (default out/reports/)",
    )
    parser.add_argument(
        "--sponsor", help="只给这一家赞助商出报告（赞助商编号）/ report on this sponsor only (its id)"
    )
    parser.add_argument(
        "--no-pdf",
        action="store_true",
        help="不生成 PDF（不启动 Chromium）/ no PDF (Chromium is not started)",
    )
    parser.add_argument(
        "--rehearsal",
        action="store_true",
        help="演练报告：计入 sponsors rehearse 的演练记录（每页标明“不是播出证明”）",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="只校验播出记录链（防篡改），不出报告 / only verify the as-run chain (tampering), no report",
    )
    parser.add_argument(
        "--key", help="用这把演播室公钥核对链头账本（默认本机的演播室密钥）/ the studio's public key"
    )


def main(args: argparse.Namespace) -> int:
    import json

    from broadcast.core.files import write_text
    from broadcast.sponsors.anchor import receipt_path
    from broadcast.sponsors.asrun import AsRunLog
    from broadcast.sponsors.delivery import measure_episode
    from broadcast.sponsors.receipt import export_rows, receipt_for
    from broadcast.sponsors.report import safe_name, write_reports
    from broadcast.sponsors.verify import seal_for, verify_log

    db = chosen_db(args.db)
    args.db = str(db)
    if not db.is_file():
        zh, en = not_a_file(db) or ("数据库文件不存在", "no such database file")
        print(f"{args.db}: {zh} / {en}", file=sys.stderr)
        return 2
    try:
        log = AsRunLog.open(db)
    except DatabaseError as exc:
        print(str(exc), file=sys.stderr)  # names the file itself
        return 2
    try:
        key = PublicKey.load(args.key) if args.key else StudioKey.load_or_create().public
    except SigningError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    verdict = verify_log(log.connection, db, key=key)
    chain = verdict.chain
    print(
        "\n".join(verdict.lines())
        + f"\n  链头 head: {chain.head_hash}\n  演播室公钥 studio key: {key.fingerprint}"
    )
    if args.verify:
        return 0 if verdict.ok else 1
    info = log.episode(args.episode)
    events = log.events(args.episode)
    if info is None and not events:
        known = "、".join(e.episode for e in log.episodes()) or "无"
        print(
            f"{args.db}: 没有 {args.episode!r} 的播出记录（已有：{known}）/ "
            f"no as-run log of {args.episode!r} (there are: {known})",
            file=sys.stderr,
        )
        return 2
    air_date = args.air_date or (info.air_date if info else "")
    day = parse_air_date(air_date) if air_date else None
    if air_date and day is None:
        print(
            f"播出日期 {air_date!r} 应写成 YYYY-MM-DD / the air date is written YYYY-MM-DD", file=sys.stderr
        )
        return 2
    stored = (info.placements if info else {}) or {}
    file = args.placements or stored.get("file", "")
    if not file:
        print(
            f"{args.episode}: 播出记录里没有排期文件；用 --placements 指定 / "
            "the as-run log names no placements file: give it with --placements",
            file=sys.stderr,
        )
        return 2
    try:
        p, note = placements_as_aired(stored, file, day, given=bool(args.placements))
    except PlacementError as exc:
        for issue in exc.errors:
            print(str(issue), file=sys.stderr)
        return 2
    if note:
        print(f"注意 note: {note}", file=sys.stderr)
    if args.sponsor and args.sponsor not in p.sponsors:
        print(
            f"没有赞助商 {args.sponsor!r}（可用：{', '.join(p.sponsors)}）/ "
            f"no sponsor {args.sponsor!r} (known: {', '.join(p.sponsors)})",
            file=sys.stderr,
        )
        return 2
    x = measure_episode(
        p, log, args.episode, events, info, air_date=air_date, rehearsal=args.rehearsal, chain=chain
    )
    if note:  # on the report's first page too: the auditor reads which placements it measured by
        x.flags.insert(0, note)
    receipt = receipt_for(db, args.episode)
    x.seal = seal_for(verdict, key, receipt)
    files = write_reports(
        x, p, Path(args.out), proofs=log.proofs(args.episode), pdf=not args.no_pdf, sponsor=args.sponsor
    )
    if receipt is not None and not args.sponsor:
        export = Path(args.out) / f"赞助商播出报告_{safe_name(args.episode)}.asrun.json"
        write_text(export, json.dumps(export_rows(log.connection, receipt), ensure_ascii=False))
        print(f"  回执 receipt: {receipt_path(db, args.episode)}\n  播出记录导出 export: {export}")
    _summary(args.episode, x, len(events))
    for label, path in (("XLSX", files.xlsx), ("HTML", files.html), ("PDF", files.pdf)):
        if path is not None:
            print(f"  {label}: {path}")
    for sid, path in (files.sponsor_pdfs or files.sponsor_htmls).items():
        print(f"  {p.sponsor_name(sid)}: {path}")
    return 0


def placements_as_aired(
    stored: dict[str, Any], file: str, day: Any, *, given: bool = False
) -> tuple[Placements, str]:
    """The placements the episode is measured by, and a line for the report when they are not the file as
    it aired. The episode's record keeps the file's text as it aired (``recorder.as_aired``): when the
    file was edited or removed since, that text is read — what aired, and for which sponsor, must not
    change with a later edit. ``given`` (``--placements``): that file, said to differ when it does."""
    digest, text = str(stored.get("digest", "")), stored.get("text")
    try:
        now: Placements | None = load_placements(file, air_date=day)
    except PlacementError:
        if given or not isinstance(text, str):
            raise
        now = None
    if now is not None and (not digest or now.digest == digest):
        return now, ""
    if now is not None and given:
        return now, (
            f"报告按指定的排期 {file}（{now.digest}）计算，不是本期播出时的排期（{digest}）/ measured by the "
            f"placements given ({now.digest}), not those the episode aired with ({digest})"
        )
    if isinstance(text, str):
        aired = parse_placements(text, file, base=Path(file).resolve().parent, air_date=day, digest=digest)
        change = "已删除" if now is None else f"改过（现在 {now.digest}）"
        change_en = "removed" if now is None else f"edited (now {now.digest})"
        return aired, (
            f"排期文件 {file} 在本期播出后{change}：报告按播出记录里存的播出时排期（{digest}）计算 / the "
            f"placements file was {change_en} after air: measured by the placements as aired ({digest}), "
            "kept in the as-run log"
        )
    assert now is not None
    return now, (
        f"排期文件 {file} 在本期播出后改过（播出时 {digest}，现在 {now.digest}），播出记录里没有播出时的"
        "排期：报告按现在的文件计算 / the placements file was edited after air and the as-run log has no "
        "copy of them as aired: measured by the file as it is now"
    )


def _summary(episode: str, x: Any, rows: int) -> None:
    """What the report found, in a few lines: evidence, outages, each sponsor's shortfalls, charity."""
    short = sum(len(s.shortfalls) for s in x.sponsors)
    if x.no_evidence:
        print("本期没有任何播出证据：不计任何播出 / no evidence of air: nothing credited")
    if x.outages:
        print(
            f"OBS 中断 {len(x.outages)} 次共 {x.outage_seconds:.1f} 秒（不计播出）/ OBS outages, not credited"
        )
    print(
        f"{episode}（{x.air_date or '—'}）：节目 {x.duration / 60:.1f} 分钟，播出记录 {rows} 条，"
        f"未达标 {short} 项 / show {x.duration / 60:.1f} min, {count(rows, 'as-run row')}, "
        f"{count(short, 'item')} short"
    )
    for s in x.sponsors:
        flag = (
            f"  ✗ {len(s.shortfalls)} 项未达标："
            + "；".join(
                f"{m.slot_label} {m.what} {m.delivered:g}/{m.promised:g}{m.unit}"
                for m in s.shortfalls
                if m.promised is not None
            )
            if s.shortfalls
            else "  ✓ 达标"
        )
        print(f"  {s.name}{flag}")
    print(
        f"  爱心基金：本期奖金 {x.prize_total:,.2f} 元 → {x.charity:,.2f} 元；"
        f"本季累计 {x.season_charity:,.2f} 元 / charity: prizes {x.prize_total:,.2f} yuan → "
        f"{x.charity:,.2f} yuan; season {x.season_charity:,.2f} yuan"
    )
