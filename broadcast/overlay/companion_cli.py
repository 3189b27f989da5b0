"""``python -m broadcast companion``: a Bitfocus Companion page export (``.companionconfig``) whose buttons
press the console's on-air operations through the HTTP control API — a Stream Deck beside the console.

    python -m broadcast companion --out docs/companion/gouji-console.companionconfig
    python -m broadcast companion --lang en --out docs/companion/gouji-console-en.companionconfig
    python -m broadcast companion --url http://192.168.1.20:8610 --placements my.yaml --out deck.json

In Companion: Import/Export → Import → the file → "Import page" onto a free page. It brings one
connection of Companion's **Generic HTTP** module (``generic-http``) whose URL prefix is the overlay
server's ``/api/``; each button is a POST to one operation (TAKE, CUT, 清屏, GO, 跳过, a graphic to
preview, 口播 +1 per sponsor, 镜头 +1, lower thirds). The token is never written into the file: every
button sends ``Authorization: Bearer $(custom:gouji_token)`` — create the custom variable
``gouji_token`` in Companion (Variables → Custom variables) holding the studio's token.

The page is an 8×4 grid (a Stream Deck XL; smaller decks page through it). The export is Companion's
page format, version 8 (Companion 4.x imports it and upgrades it to its own version).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from broadcast.control import GRAPHIC_ZH, OPERATIONS
from broadcast.core import files

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_URL = "http://127.0.0.1:8610"
DEMO_PLACEMENTS = ROOT / "sponsor_assets" / "demo" / "placements.yaml"
SHIPPED = ROOT / "docs" / "companion" / "gouji-console.companionconfig"
SHIPPED_EN = ROOT / "docs" / "companion" / "gouji-console-en.companionconfig"
LANGS = ("zh", "en")
# the buttons' words in English (``--lang en``); a sponsor's name stays as the placements give it
EN = {
    "清屏": "CLEAR",
    "跳过": "SKIP",
    "预览": "PVW",
    "收起\\n揭晓": "Hide\\nreveal",
    "清除\\n人名条": "Clear\\nlower 3rd",
    "口播": "Mention",
    "镜头": "shot",
    "桌面": "Table",
    "九宫格下方": "Under grid",
    "人名条": "Lower 3rd",
    "主持人": "host",
    "{seat}号位": "seat {seat}",
    "够级 导播台": "Gouji console",
    **{
        "比分": "Score",
        "英雄榜": "Leaders",
        "九宫格": "Prize grid",
        "角标": "Corner bug",
        "标版": "Bumper",
        "字幕条": "Ticker",
        "片尾": "Credits",
        "解说区": "Commentary",
        "记牌器": "Counter",
    },
}
CONNECTION = "gouji_studio_api"
TOKEN_HEADER = '{"Authorization": "Bearer $(custom:gouji_token)"}'
COLUMNS, ROWS = 8, 4

WHITE, BLACK = 0xFFFFFF, 0x000000
GREEN, RED, BLUE, AMBER, GREY, TEAL = 0x1F7A3F, 0xB3261E, 0x2D4F8A, 0xC98A00, 0x303846, 0x0F6B6B


def button(
    text: str, op: str, body: dict[str, Any] | None = None, *, bg: int = GREY, n: int = 0
) -> dict[str, Any]:
    """One Companion button: a POST of ``body`` to ``/api/<op>`` on press."""
    if op not in OPERATIONS:
        raise KeyError(f"no operation {op!r}")
    return {
        "type": "button",
        "style": {
            "text": text,
            "textExpression": False,
            "size": "auto",
            "alignment": "center:center",
            "pngalignment": "center:center",
            "color": WHITE if bg != AMBER else BLACK,
            "bgcolor": bg,
            "show_topbar": "default",
            "png64": None,
        },
        "options": {"rotaryActions": False, "stepAutoProgress": True},
        "feedbacks": [],
        "steps": {
            "0": {
                "action_sets": {
                    "down": [
                        {
                            "type": "action",
                            "id": f"gouji_{op}_{n}",
                            "definitionId": "post",
                            "connectionId": CONNECTION,
                            "options": {
                                "url": op,
                                "body": json.dumps(body or {}, ensure_ascii=False),
                                "header": TOKEN_HEADER,
                                "contenttype": "application/json",
                                "jsonResultDataVariable": "",
                                "result_stringify": True,
                                "statusCodeVariable": "",
                            },
                            "upgradeIndex": None,
                        }
                    ],
                    "up": [],
                },
                "options": {"runWhileHeld": []},
            }
        },
    }


def buttons(placements: Any = None, lang: str = "zh") -> list[dict[str, Any]]:
    """The page's buttons, row by row (8 a row): on-air controls, graphics to preview, 口播 and shots,
    lower thirds. Sponsor buttons come from the placements (the demo's when none are given); ``lang``
    ``en`` words them in English (a sponsor's name as the placements give it)."""

    def w(zh: str) -> str:
        return EN.get(zh, zh) if lang == "en" else zh

    out = [
        button("TAKE\\nF12", "take", bg=GREEN),
        button("CUT\\nF11", "cut", bg=BLUE),
        button(f"{w('清屏')}\\nPANIC", "panic", bg=RED),
        button("GO\\nF9", "go", bg=GREEN),
        button(f"{w('跳过')}\\nSKIP" if lang != "en" else "SKIP\\nShift+F9", "skip", bg=AMBER),
    ]
    for g in (
        "scoreboard",
        "leaderboard",
        "jiugongge",
        "lower_third",
        "jipaiqi",
        "corner_bug",
        "ticker",
        "bumper",
    ):
        out.append(
            button(f"{w(GRAPHIC_ZH[g])}\\n{w('预览')}", "preview", {"graphic": g}, bg=GREY, n=len(out))
        )
    out.append(button(w("收起\\n揭晓"), "draw_clear", bg=GREY))
    out.append(button(w("清除\\n人名条"), "clear", {"graphic": "lower_third"}, bg=GREY, n=len(out)))
    out.append(button(f"{w('片尾')}\\n{w('预览')}", "preview", {"graphic": "credits"}, bg=GREY, n=len(out)))
    sponsors: list[tuple[str, str]] = []
    shots: list[tuple[str, str]] = []
    if placements is not None:
        from broadcast.sponsors.placements import to_state

        roster = to_state(placements)["sponsors"]["roster"]  # the console's order: owed most first
        ranked = sorted(roster, key=lambda r: -int(r["mentions_min"]))
        sponsors = [(str(r["id"]), str(r["name"])) for r in ranked][:6]
        for slot, label in (("table", "桌面"), ("jiugongge_board", "九宫格下方")):
            if placements.one(slot) is not None:
                shots.append((slot, label))
    for sid, name in sponsors:
        out.append(button(f"{w('口播')}\\n{name}", "mention", {"sponsor": sid}, bg=TEAL, n=len(out)))
    for slot, label in shots:
        out.append(button(f"{w(label)}\\n{w('镜头')}", "shot", {"slot": slot}, bg=TEAL, n=len(out)))
    while len(out) % COLUMNS:
        out.append({})
    for seat in range(1, 7):
        text = f"{w('人名条')}\\n{w('{seat}号位').format(seat=seat)}"
        out.append(button(text, "lower_third", {"seat": seat}, bg=BLUE, n=len(out)))
    out.append(button(f"{w('人名条')}\\n{w('主持人')}", "lower_third", {"host": True}, bg=BLUE, n=len(out)))
    return out[: COLUMNS * ROWS]


def page_export(
    url: str = DEFAULT_URL, placements: Any = None, name: str = "", lang: str = "zh"
) -> dict[str, Any]:
    """The ``.companionconfig`` page export (a JSON object); ``lang`` "en" for English buttons."""
    name = name or (EN["够级 导播台"] if lang == "en" else "够级 导播台")
    controls: dict[str, dict[str, Any]] = {}
    for i, b in enumerate(buttons(placements, lang)):
        if b:
            controls.setdefault(str(i // COLUMNS), {})[str(i % COLUMNS)] = b
    prefix = url.rstrip("/") + "/api/"
    return {
        "version": 8,
        "type": "page",
        "companionBuild": "gouji-studio",
        "page": {
            "name": name,
            "controls": controls,
            "gridSize": {"minColumn": 0, "maxColumn": COLUMNS - 1, "minRow": 0, "maxRow": ROWS - 1},
        },
        "instances": {
            CONNECTION: {
                "label": "gouji_studio",
                "moduleId": "generic-http",
                "instance_type": "generic-http",
                "config": {"prefix": prefix, "proxyAddress": "", "rejectUnauthorized": True},
                "isFirstInit": False,
                "lastUpgradeIndex": -1,
                "enabled": True,
                "sortOrder": 0,
            }
        },
        "connectionCollections": [],
        "oldPageNumber": 1,
    }


def dumps(export: dict[str, Any]) -> str:
    return json.dumps(export, ensure_ascii=False, indent=2) + "\n"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url", default=DEFAULT_URL, help=f"图形服务器地址 / the overlay server ({DEFAULT_URL})"
    )
    parser.add_argument(
        "--placements", default=str(DEMO_PLACEMENTS), help="赞助排期 YAML（口播按钮）/ placements"
    )
    parser.add_argument("--out", default="-", help="输出文件（- = 标准输出）/ output file")
    parser.add_argument(
        "--lang", default="zh", choices=LANGS, help="按钮文字：中文 zh（默认）或 English en / button words"
    )


def main(args: argparse.Namespace) -> int:
    from broadcast.sponsors.placements import PlacementError, load_placements

    try:
        p = load_placements(args.placements)
    except PlacementError as exc:
        print(f"{exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{args.placements}:0: 读不到排期文件 cannot read: {exc.strerror}", file=sys.stderr)
        return 2
    if not args.url.startswith(("http://", "https://")):
        print(f"companion: --url {args.url!r} 应以 http:// 开头 / must start with http://", file=sys.stderr)
        return 2
    text = dumps(page_export(args.url, p, lang=args.lang))
    if args.out == "-":
        sys.stdout.write(text)
        return 0
    out = Path(args.out)
    try:  # whole or not at all: a full disk leaves the page that was there (never half a JSON file)
        out.parent.mkdir(parents=True, exist_ok=True)
        files.write_text(out, text)
    except (OSError, files.WriteFailed) as exc:
        print(f"{out}:0: 写不进 cannot write: {_why(exc)}", file=sys.stderr)
        return 2
    print(f"Companion 页面已写入 / page export written: {out}（{len(text)} 字节）")
    return 0


def _why(exc: OSError | files.WriteFailed) -> str:
    cause = exc if isinstance(exc, OSError) else exc.os_error
    return (cause.strerror if cause is not None else None) or str(exc)
