"""The console's one key table (Picard's and Spyder's way): every operation the operator can key, with
its id, its default key(s), its text and where it shows (a menu, and its group on the F1 sheet and in
the keys dialog).

The window and the docks never name a key: they bind their slots to ids
(``window.hotkeys.bind("graphics.take", panel.take)``) and print the key an id has now
(``window.hotkeys.native("graphics.take")``), so an operator's rebinding (View ▸ 快捷键设置…, kept
with QSettings, see :mod:`broadcast.console.hotkeys`) reaches every button and menu at once. Texts are
the Chinese source strings marked for Qt's translation (context ``Keys``; English in
``broadcast/i18n/console_en.ts``); ``docs/console.md``'s key tables are checked against this table
(``tests/console/test_keys.py``), and ``python -m broadcast.console.keys --markdown zh|en`` prints them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from broadcast.console import names
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, Arg, translated
from broadcast.show.actions import GRAPHICS
from broadcast.sponsors.actions import SHOT_SLOTS

CTX = "Keys"

# the menus, in the menu bar's order: key → title (context MainWindow)
MENUS: dict[str, str] = {
    "match": QT_TRANSLATE_NOOP("MainWindow", "比赛(&M)"),
    "edit": QT_TRANSLATE_NOOP("MainWindow", "编辑(&E)"),
    "view": QT_TRANSLATE_NOOP("MainWindow", "视图(&V)"),
    "help": QT_TRANSLATE_NOOP("MainWindow", "帮助(&H)"),
    "graphics": QT_TRANSLATE_NOOP("MainWindow", "图形(&G)"),
    "sponsors": QT_TRANSLATE_NOOP("MainWindow", "赞助(&S)"),
    "cues": QT_TRANSLATE_NOOP("MainWindow", "节目流程(&R)"),
    "producer": QT_TRANSLATE_NOOP("MainWindow", "制片(&P)"),
}
# the groups of the F1 sheet and the keys dialog, in their order
GROUPS: dict[str, str] = {
    "match": QT_TRANSLATE_NOOP("Keys", "比赛 Match"),
    "edit": QT_TRANSLATE_NOOP("Keys", "编辑 Edit"),
    "view": QT_TRANSLATE_NOOP("Keys", "视图 View"),
    "help": QT_TRANSLATE_NOOP("Keys", "帮助 Help"),
    "graphics": QT_TRANSLATE_NOOP("Keys", "图形 Graphics"),
    "cues": QT_TRANSLATE_NOOP("Keys", "节目流程 Cue list"),
    "sponsors": QT_TRANSLATE_NOOP("Keys", "赞助 Sponsors"),
    "producer": QT_TRANSLATE_NOOP("Keys", "制片 Producer"),
}


@dataclass(frozen=True)
class KeyAction:
    """One operation: ``text`` is the source string (context ``Keys``) with {fields} from ``args``."""

    id: str
    keys: tuple[str, ...]  # the default key sequences, portable text ("Ctrl+Z"); () = none by default
    text: str
    group: str  # a GROUPS key
    menu: str | None = None  # a MENUS key; None: keys only (listed on the F1 sheet)
    entry_empty: bool = False  # a plain key that works only while the entry line is empty (Space: GO)
    args: Mapping[str, Arg] = field(default_factory=dict)

    def label(self) -> str:
        """The text in the UI language, its fields filled."""
        return translated(CTX, self.text, self.args)


def _core() -> Iterator[KeyAction]:
    k = KeyAction
    yield k(
        "match.new", ("Ctrl+N",), QT_TRANSLATE_NOOP("Keys", "新比赛（从赛季选队、排座）"), "match", "match"
    )
    yield k("match.open", ("Ctrl+O",), QT_TRANSLATE_NOOP("Keys", "打开牌谱（GJN）…"), "match", "match")
    yield k("match.hands", ("Ctrl+H",), QT_TRANSLATE_NOOP("Keys", "录入手牌（发牌时）"), "match", "match")
    yield k(
        "match.penalty", ("Ctrl+P",), QT_TRANSLATE_NOOP("Keys", "裁判罚分 −2（写明原因）"), "match", "match"
    )
    yield k(
        "match.save", ("Ctrl+S",), QT_TRANSLATE_NOOP("Keys", "存入赛季（本局 / 比赛结果）"), "match", "match"
    )
    yield k("match.late", ("Ctrl+Shift+L",), QT_TRANSLATE_NOOP("Keys", "选手迟到"), "match", "match")
    yield k("match.forfeit", ("Ctrl+Shift+F",), QT_TRANSLATE_NOOP("Keys", "弃权"), "match", "match")
    yield k(
        "match.lots", ("Ctrl+Shift+D",), QT_TRANSLATE_NOOP("Keys", "抽签（加赛后仍平）"), "match", "match"
    )
    yield k("edit.undo", ("Ctrl+Z",), QT_TRANSLATE_NOOP("Keys", "撤销上一步（写明原因）"), "edit", "edit")
    yield k(
        "edit.redo", ("Ctrl+Shift+Z", "Ctrl+Y"), QT_TRANSLATE_NOOP("Keys", "重做撤销的一步"), "edit", "edit"
    )
    yield k("edit.correct", ("Ctrl+E",), QT_TRANSLATE_NOOP("Keys", "更正所选的一步"), "edit", "edit")
    yield k(
        "edit.insert", ("Ctrl+I",), QT_TRANSLATE_NOOP("Keys", "在所选的一步前插入漏录的一步"), "edit", "edit"
    )
    yield k("edit.delete", ("Ctrl+D",), QT_TRANSLATE_NOOP("Keys", "删除所选的一步（多录）"), "edit", "edit")
    yield k("edit.history", ("Ctrl+Shift+H",), QT_TRANSLATE_NOOP("Keys", "更正记录"), "edit", "edit")
    yield k("edit.leader", ("Ctrl+Shift+E",), QT_TRANSLATE_NOOP("Keys", "更正上班座位…"), "edit", "edit")
    yield k("edit.hands", ("Ctrl+Alt+H",), QT_TRANSLATE_NOOP("Keys", "更正手牌…"), "edit", "edit")
    yield k(
        "edit.setup",
        ("Ctrl+Shift+M",),
        QT_TRANSLATE_NOOP("Keys", "更正比赛设置（座位、队名）…"),
        "edit",
        "edit",
    )
    yield k("record.up", ("Alt+Up",), QT_TRANSLATE_NOOP("Keys", "牌谱中选上一步"), "edit")
    yield k("record.down", ("Alt+Down",), QT_TRANSLATE_NOOP("Keys", "牌谱中选下一步"), "edit")
    yield k("record.back", ("PgUp",), QT_TRANSLATE_NOOP("Keys", "彩排：退后一步（牌桌回到上一步）"), "edit")
    yield k(
        "record.forward", ("PgDown",), QT_TRANSLATE_NOOP("Keys", "彩排：前进一步（牌谱的下一步）"), "edit"
    )
    yield k("record.start", ("Ctrl+PgUp",), QT_TRANSLATE_NOOP("Keys", "彩排：回到开局"), "edit")
    yield k("record.end", ("Ctrl+PgDown",), QT_TRANSLATE_NOOP("Keys", "彩排：到牌谱的最后一步"), "edit")
    yield k("record.seek", ("Ctrl+Shift+G",), QT_TRANSLATE_NOOP("Keys", "彩排：走到牌谱中所选的一步"), "edit")
    yield k("view.entry", ("Ctrl+L",), QT_TRANSLATE_NOOP("Keys", "回到输入行"), "view")
    yield k("view.lang_zh", (), QT_TRANSLATE_NOOP("Keys", "中文界面 Chinese UI"), "view", "view")
    yield k("view.lang_en", (), QT_TRANSLATE_NOOP("Keys", "English UI 英文界面"), "view", "view")
    yield k("view.reset_layout", (), QT_TRANSLATE_NOOP("Keys", "恢复默认布局"), "view", "view")
    yield k("view.keys", ("Ctrl+Shift+K",), QT_TRANSLATE_NOOP("Keys", "快捷键设置…"), "view", "view")
    yield k("help.keys", ("F1",), QT_TRANSLATE_NOOP("Keys", "快捷键一览"), "help", "help")
    yield k(
        "producer.open",
        ("Ctrl+Shift+P",),
        QT_TRANSLATE_NOOP("Keys", "制片工作台（赞助、合同、选手、赛季播出）…"),
        "producer",
        "producer",
    )


# the preview key of each graphic (Shift+ the same key clears it), in the tile order; a graphic a later
# part adds to the show's schema gets a spare key, so it has a tile and a key without a change here
GRAPHIC_KEYS: dict[str, str] = {
    "scoreboard": "F2",
    "leaderboard": "F3",
    "jiugongge": "F4",
    "lower_third": "F5",
    "jipaiqi": "F6",
    "corner_bug": "F7",
    "ticker": "F8",
    "bumper": "Ctrl+F2",
    "credits": "Ctrl+F3",
    "commentary": "Ctrl+F4",
}
SPARE_KEYS = ("Ctrl+F5", "Ctrl+F6", "Ctrl+F7", "Ctrl+F8", "Ctrl+F9", "Ctrl+F10")


def graphics_in_order() -> list[str]:
    """Every graphic of the show state, in the tiles' order."""
    return [*GRAPHIC_KEYS, *(g for g in GRAPHICS if g not in GRAPHIC_KEYS)]


def _clear_key(key: str) -> str:
    return "Shift+" + key if not key.startswith("Ctrl+") else "Ctrl+Shift+" + key[5:]


def _graphics() -> Iterator[KeyAction]:
    k = KeyAction
    yield k("graphics.take", ("F12",), QT_TRANSLATE_NOOP("Keys", "TAKE：预览上节目"), "graphics", "graphics")
    yield k(
        "graphics.cut",
        ("F11",),
        QT_TRANSLATE_NOOP("Keys", "CUT：预览立即上节目（无动画）"),
        "graphics",
        "graphics",
    )
    yield k(
        "graphics.panic",
        ("Shift+Esc", "Pause"),
        QT_TRANSLATE_NOOP("Keys", "紧急清屏：节目全部撤下"),
        "graphics",
        "graphics",
    )
    spare = iter(SPARE_KEYS)
    keys = {g: GRAPHIC_KEYS.get(g) or next(spare) for g in graphics_in_order()}
    for g, key in keys.items():
        yield k(
            f"graphics.preview.{g}",
            (key,),
            QT_TRANSLATE_NOOP("Keys", "{name}：放到预览 / 撤下预览"),
            "graphics",
            "graphics",
            args={"name": names.graphic(g)},
        )
    for g, key in keys.items():
        yield k(
            f"graphics.clear.{g}",
            (_clear_key(key),),
            QT_TRANSLATE_NOOP("Keys", "{name}：清除（节目和预览）"),
            "graphics",
            "graphics",
            args={"name": names.graphic(g)},
        )


def _cues() -> Iterator[KeyAction]:
    k = KeyAction
    yield k("cues.go", ("F9",), QT_TRANSLATE_NOOP("Keys", "GO：执行下一条提示"), "cues", "cues")
    yield k(
        "cues.go_space",
        ("Space",),
        QT_TRANSLATE_NOOP("Keys", "GO（输入行为空时）"),
        "cues",
        entry_empty=True,
    )
    yield k("cues.skip", ("Shift+F9",), QT_TRANSLATE_NOOP("Keys", "跳过下一条提示"), "cues", "cues")
    yield k(
        "cues.preflight",
        ("Ctrl+Shift+R",),
        QT_TRANSLATE_NOOP("Keys", "开录前检查（OBS、素材、合同、比赛设置、磁盘）…"),
        "cues",
        "cues",
    )


MENTIONS = 9  # 口播 keys: one per sponsor on the panel, most-owed first


def _sponsors() -> Iterator[KeyAction]:
    k = KeyAction
    for n in range(1, MENTIONS + 1):
        yield k(
            f"sponsors.mention.{n}",
            (f"Ctrl+{n}",),
            QT_TRANSLATE_NOOP("Keys", "口播 +1：赞助商面板上第 {n} 个"),
            "sponsors",
            args={"n": n},
        )
    yield k(
        "sponsors.mention_retract",
        ("Ctrl+0",),  # beside the 口播 keys (Ctrl+Z stays the game's undo)
        QT_TRANSLATE_NOOP("Keys", "撤销本期最后一次口播（按错；报告不计）"),
        "sponsors",
        "sponsors",
    )
    for n, slot in enumerate(SHOT_SLOTS, start=1):
        yield k(
            f"sponsors.shot.{slot}",
            (f"Ctrl+Alt+{n}",),
            QT_TRANSLATE_NOOP("Keys", "{place}镜头 +1（广告位出镜）"),
            "sponsors",
            "sponsors",
            args={"place": names.place(slot)},
        )
    for seat in range(1, 7):
        yield k(
            f"sponsors.lower_third.{seat}",
            (f"Alt+{seat}",),
            QT_TRANSLATE_NOOP("Keys", "人名条：{seat}号位选手（到预览）"),
            "sponsors",
            "sponsors",
            args={"seat": seat},
        )
    yield k(
        "sponsors.lower_third.host",
        ("Alt+0",),
        QT_TRANSLATE_NOOP("Keys", "人名条：主持人（到预览）"),
        "sponsors",
        "sponsors",
    )
    yield k("sponsors.host_name", (), QT_TRANSLATE_NOOP("Keys", "主持人姓名…"), "sponsors", "sponsors")


ACTIONS: tuple[KeyAction, ...] = (*_core(), *_graphics(), *_cues(), *_sponsors())
BY_ID: dict[str, KeyAction] = {a.id: a for a in ACTIONS}

# keys the entry line handles itself (listed on the F1 sheet; not rebindable: the entry needs them)
ENTRY_KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", QT_TRANSLATE_NOOP("Keys", "记录所打的一手（或所选的提示）")),
    ("↑ ↓", QT_TRANSLATE_NOOP("Keys", "在提示列表中选择")),
    ("Tab", QT_TRANSLATE_NOOP("Keys", "把所选提示填入输入行")),
    ("Esc", QT_TRANSLATE_NOOP("Keys", "清空输入行")),
    ("p / 过", QT_TRANSLATE_NOOP("Keys", "过牌 pass（再按回车）")),
    ("y / 让", QT_TRANSLATE_NOOP("Keys", "让牌 yield（再按回车）")),
    ("3 TTTTT", QT_TRANSLATE_NOOP("Keys", "指明座位：烧牌或其他不在轮次的出牌")),
)
# keys no operation may take: the entry line's own (typing, choosing, clearing)
RESERVED = ("Return", "Enter", "Up", "Down", "Tab", "Backtab", "Esc", "Backspace", "Del", "Left", "Right")


def markdown(lang: str) -> str:
    """The table of every default key as ``docs/console.md`` shows it, in ``lang`` ("zh_CN" or "en"):
    one row per operation, grouped as on the F1 sheet (the English catalog must be installed for
    "en")."""
    from broadcast.qt.i18n import tr

    head = (
        ("| 键 | 操作 | 分组 |", "|---|---|---|")
        if lang == "zh_CN"
        else ("| Key | Does | Group |", "|---|---|---|")
    )
    rows = list(head)
    for group in GROUPS:
        for a in ACTIONS:
            if a.group != group:
                continue
            keys = " / ".join(a.keys) if a.keys else "—"
            if a.entry_empty:
                keys += tr("（输入行为空时）")
            rows.append(f"| {keys} | {a.label()} | {tr(GROUPS[group], CTX)} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str]) -> int:
    """``python -m broadcast.console.keys --markdown zh|en``: print the key table for the docs."""
    if len(argv) != 2 or argv[0] != "--markdown" or argv[1] not in ("zh", "en"):
        print("usage: python -m broadcast.console.keys --markdown zh|en", file=sys.stderr)
        return 2
    from PySide6.QtCore import QCoreApplication

    from broadcast.qt import i18n

    app = QCoreApplication.instance() or QCoreApplication([])
    i18n.install("zh_CN" if argv[1] == "zh" else "en")
    print(markdown("zh_CN" if argv[1] == "zh" else "en"), end="")
    del app
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
