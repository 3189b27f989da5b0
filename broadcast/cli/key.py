"""``python -m broadcast studio-key [--export FILE]``: the studio's public key and its fingerprint.

The key is made at the first start (``broadcast/core/signing.py``); the private half never leaves
its 0600 file. ``--export FILE`` writes the public key (PEM) for a sponsor to check receipts with.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from broadcast.core import files
from broadcast.core.signing import SigningError, StudioKey


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--export", metavar="FILE", help="把公钥写入文件（PEM）/ write the public key (PEM)")


def main(args: argparse.Namespace) -> int:
    try:
        key = StudioKey.load_or_create()
    except SigningError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print(f"演播室公钥指纹 studio key fingerprint: {key.public.fingerprint}")
    if key.path is not None:
        print(f"  私钥 private key: {key.path}（仅本用户可读 / owner only）")
    if args.export:
        out = Path(args.export)
        try:  # whole or not at all: a full disk leaves the key file that was there
            files.write_text(out, key.public.pem(), encoding="ascii")
        except files.WriteFailed as exc:
            cause = exc.os_error.strerror if exc.os_error is not None else str(exc)
            print(f"{out}: 无法写入（{cause}）/ cannot write", file=sys.stderr)
            return 2
        print(f"  公钥已导出 public key written: {out}")
    else:
        print(key.public.pem(), end="")
    return 0
