"""``python -m broadcast verify-receipt RECEIPT --db FILE`` (or ``--report EXPORT``): a third party's check.

    python -m broadcast verify-receipt 第16期.json --db studio.sqlite --key studio-ed25519.pub
    python -m broadcast verify-receipt 第16期.json --report 赞助商播出报告_第16期.asrun.json --key studio.pub

Needs only the studio's public key (``--key``; without it, the key inside the receipt, whose
fingerprint is printed to compare with the one on the report) and the receipt. Exit 0: the rows are
exactly what the studio signed at the episode's end; 1: they are not (the first row and the kind of
change named); 2: a file is missing or not what it should be.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from broadcast.core.db import not_a_file
from broadcast.core.signing import PublicKey, SigningError


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("receipt", help="本期回执（<数据库>.receipts/<期>.json）/ the episode's receipt")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--db", help="演播室数据库 / the studio database")
    src.add_argument(
        "--report", help="导出的播出记录（赞助商播出报告_<期>.asrun.json）/ the exported as-run rows"
    )
    parser.add_argument("--key", help="演播室公钥文件（PEM 或 base64）/ the studio's public key file")


def main(args: argparse.Namespace) -> int:
    import sqlite3

    from broadcast.sponsors.receipt import ReceiptError, check_db, check_export, check_signature, load_receipt

    try:
        receipt = load_receipt(args.receipt)
        key = PublicKey.load(args.key) if args.key else None
    except (ReceiptError, SigningError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    shown = key or PublicKey.from_b64(str(receipt["public_key"]))
    print(f"回执 receipt: {receipt['episode']} #{receipt['head_id']} {receipt['head']}")
    print(
        f"  公钥 key: {shown.fingerprint}"
        + ("" if key else "（回执自带：请与报告上印的指纹核对 / compare with the report）")
    )
    bad = check_signature(receipt, key)
    if bad is None:
        if args.db:
            db = Path(args.db)
            if not db.is_file():
                zh, en = not_a_file(db) or ("数据库文件不存在", "no such database")
                print(f"{db}: {zh} / {en}", file=sys.stderr)
                return 2
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
                bad = check_db(receipt, conn)
                conn.close()
            except sqlite3.DatabaseError as exc:
                print(
                    f"{db}: 不是可读的演播室数据库（{exc}）/ not a readable studio database", file=sys.stderr
                )
                return 2
        else:
            try:
                bad = check_export(receipt, args.report)
            except ReceiptError as exc:
                print(str(exc), file=sys.stderr)
                return 2
    if bad is not None:
        print(f"✗ 回执校验未通过：{bad.line_zh}\n  receipt check FAILED: {bad.line_en}")
        return 1
    print(
        f"✓ 回执校验通过：截至 #{receipt['head_id']} 的记录正是演播室"
        f"在 {receipt.get('time_text', '')} 签名的\n"
        f"  receipt verified: the rows up to #{receipt['head_id']} are exactly what the studio signed"
    )
    return 0
