"""Shared bits of the season / import / export commands: the --db and --season-db options and clean error
exits."""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broadcast.core.db import DatabaseError, add_db_argument, describe, not_a_file
from broadcast.core.db import chosen as chosen_db
from broadcast.core.db import resolve as resolve_db
from broadcast.core.files import WriteFailed, describe_os_error
from broadcast.season.backend import add_season_db_argument, is_url, season_target, shown
from broadcast.season.export import ExportError
from broadcast.season.importer import ImportError_
from broadcast.season.model import SeasonError
from broadcast.season.rankings import SpecError
from broadcast.season.render import RenderError
from engine import yamlread

USER_ERRORS = (
    SeasonError,
    ImportError_,
    ExportError,
    RenderError,
    SpecError,
    DatabaseError,
    WriteFailed,
)


def add_db(p: argparse.ArgumentParser, *, season: bool = True) -> None:
    add_db_argument(p)
    add_season_db_argument(p)
    if season:
        p.add_argument(
            "--season", default=None, help="赛季名称或编号（默认最新）/ season name or id (default: latest)"
        )


def fail(lines: list[str] | str) -> int:
    for line in [lines] if isinstance(lines, str) else lines:
        print(line, file=sys.stderr)
    return 2


def run(fn: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; bad input becomes one clear line per problem and exit status 2, never a traceback.
    A command with ``--db`` uses the project's default database when none is given, and says which;
    ``args.season_db`` becomes the season it opens (``--season-db``, ``$GOUJI_SEASON_DB``, else ``--db``)."""
    if hasattr(args, "db"):
        target = season_target(getattr(args, "season_db", None), "")
        if is_url(target):  # the season is on a server: say which (the project file is not the season)
            args.db = str(resolve_db(args.db))
            if not getattr(args, "season_db", None):  # from $GOUJI_SEASON_DB: say which server
                print(f"赛季数据库 season: {shown(target)}", file=sys.stderr, flush=True)
        else:
            args.db = str(chosen_db(args.db))
        args.season_db = season_target(getattr(args, "season_db", None), args.db)
    try:
        return fn(args)
    except ImportError_ as e:
        first = e.errors[:20]
        more = (
            [f"… 另有 {len(e.errors) - 20} 处错误 / {len(e.errors) - 20} more"] if len(e.errors) > 20 else []
        )
        return fail(first + more + ["未导入任何数据 / nothing was imported"])
    except USER_ERRORS as e:
        return fail(f"错误 error: {e}")
    except BrokenPipeError:  # the reader left (… | head): nothing to say, as a shell's own tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush fails no more
        return 128 + signal.SIGPIPE
    except OSError as e:
        said = describe_os_error(e.filename or "", e)
        why = str(e.strerror or e)
        return fail(f"错误 error: {said}" + ("" if why in said else f" ({why})"))  # its cause once
    except sqlite3.Error as e:  # the disk or the file (full, read-only, damaged): name it, say what to do
        where = str(getattr(args, "season_db", None) or getattr(args, "db", "database"))
        return fail(f"错误 error: {describe(e, where)}")
    except Exception as e:  # the season's server went away or refused: one line naming it
        if not type(e).__module__.startswith("psycopg"):
            raise
        where = shown(getattr(args, "season_db", "") or "")
        line = (str(e).strip().splitlines() or [type(e).__name__])[0]
        return fail(f"错误 error: {where}: 赛季数据库出错 / the season database failed: {line}")


def db_must_exist(path: str) -> None:
    """A season in a SQLite file must be there already (a PostgreSQL season's tables are made on opening)."""
    if is_url(path):
        return
    if not Path(path).is_file():
        first = f"python -m broadcast season demo --db {path}"
        zh, en = not_a_file(path) or (
            f"数据库文件不存在（先运行 {first} 或 season create）",
            f"database not found (run {first}, or season create)",
        )
        raise SeasonError("db", zh, en, where=path)


def sponsor_from_placements(path: str | Path) -> tuple[str, str]:
    """The 英雄榜冠名 sponsor's (name, logo path) from a placements YAML (``leaderboard.sponsor``).

    Read as plain data (the sponsors module owns the format, docs/sponsors.md); only the two keys used
    here are looked at.
    """
    p = Path(path)
    try:
        data: Any = yamlread.load(yamlread.decode(yamlread.read(p), str(p)), str(p))
    except yamlread.YamlError as e:
        raise SeasonError("placements", e.zh, e.en, where=f"{e.file}:{e.line}:{e.column}") from None
    slot = (data or {}).get("leaderboard") if isinstance(data, dict) else None
    if not isinstance(slot, dict) or "sponsor" not in slot:
        raise SeasonError(
            "placements",
            "排期里没有 leaderboard.sponsor（英雄榜冠名）",
            "no leaderboard sponsor (leaderboard.sponsor) in the placements",
            where=f"{p}:1",
        )
    key = str(slot["sponsor"])
    sponsor = (data.get("sponsors") or {}).get(key)
    if not isinstance(sponsor, dict):
        raise SeasonError(
            "placements",
            f"leaderboard.sponsor {key!r} 不在 sponsors 里",
            f"leaderboard.sponsor {key!r} is not among the sponsors",
            where=f"{p}:1",
        )
    logo = str(sponsor.get("logo") or "")
    return str(sponsor.get("name") or key), str((p.parent / logo).resolve()) if logo else ""


def check_logo(path: str) -> None:
    """The 英雄榜 sponsor's logo is a picture the PNG export and the graphics can draw: checked when it is
    set (``season set`` stored a folder, /dev/zero or a 3.6-gigapixel PNG unread) and before the export
    draws it (Pillow's DecompressionBombError was an internal error)."""
    from broadcast.media import MediaError, probe_image

    p = Path(path)
    refusal = None
    if p.is_dir():
        refusal = "是一个目录，不是图片文件", "is a folder, not a picture"
    elif p.exists() and not p.is_file():
        refusal = "不是普通文件", "not a regular file"
    elif not p.exists():
        refusal = "文件不存在", "no such file"
    if refusal is not None:
        raise SeasonError(
            "season.sponsor_logo", f"冠名商标志：{refusal[0]}", f"sponsor logo: {refusal[1]}", where=p
        )
    try:
        probe_image(p)
    except MediaError as exc:
        raise SeasonError(
            "season.sponsor_logo", f"冠名商标志{exc.zh}", f"sponsor logo: {exc.en}", where=p
        ) from None
