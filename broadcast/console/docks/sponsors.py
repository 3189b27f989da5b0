"""The Sponsor events dock: what only a person in the studio can see, keyed as it happens.

* 口播 — one button (and key, Ctrl+1…9) per sponsor, named on it, with the count against the
  contract's minimum for the episode (orange until it is met).
* 镜头 — the table top and the board under the 九宫格 were on screen (Ctrl+Alt+1…5 for the studio
  placements that have a sponsor), counted against their minimums.
* 九宫格抽奖 — pick the contestant, the contestant picks a cell: the reveal goes on air and the prize is
  logged (the as-run log's draw); cells drawn earlier in the episode are marked with who drew them, and
  a drawn cell is refused with the reason.
* 人名条 — a lower third for any seated player (Alt+1…6) or the host (Alt+0), loaded to preview.

Every button is an operation of :mod:`broadcast.control` on the store thread; the counts shown are the
state's (the exposure report counts the as-run rows the same keys wrote).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from broadcast.clock import STUDIO_TZ
from broadcast.console import names, words
from broadcast.console.docks.onair import OnAir
from broadcast.console.keys import MENTIONS
from broadcast.control import lower_third_for
from broadcast.qt import theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, current, tr
from broadcast.sponsors.actions import SHOT_SLOTS
from engine.words import entered_name

CTX = "SponsorDock"
TITLE = QT_TRANSLATE_NOOP("SponsorDock", "赞助 SPONSOR EVENTS")
RETRACT_REASON = "按错（操作员撤销）/ keyed by mistake"  # journaled as it is, whatever the UI language


def hms(ts: float) -> str:
    return datetime.fromtimestamp(ts, STUDIO_TZ).strftime("%H:%M:%S") if ts else ""


def count_text(n: int, need: int | None) -> tuple[str, str]:
    """ "3 / 6" and its colour: orange below the minimum, green once met, plain with no minimum."""
    if need:
        return f"{n}/{need}", (theme.OK if n >= need else theme.WARN)
    return str(n), theme.TEXT


def _style(b: QPushButton, sheet: str) -> None:
    """Set a style sheet only when it differs (re-polishing a button costs a layout pass)."""
    if b.styleSheet() != sheet:
        b.setStyleSheet(sheet)


def _text(b: QPushButton, text: str) -> None:
    if b.text() != text:
        b.setText(text)


def _button(text: str, name: str) -> QPushButton:
    b = QPushButton(text)
    b.setObjectName(name)
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    # the grid shares the column's width out evenly; the text never widens the dock
    b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
    b.setMinimumSize(60, 32)
    b.setStyleSheet("QPushButton { padding: 4px 6px; }")
    return b


class SponsorPanel(QWidget):
    def __init__(self, onair: OnAir, placements: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.onair = onair
        self.console = onair.console
        self.placements = placements
        self.setObjectName("sponsorPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 4)
        lay.setSpacing(4)
        # 口播
        self.mention_box = QGroupBox()
        self.mention_grid = QGridLayout(self.mention_box)
        self.mention_grid.setSpacing(4)
        self.mention_grid.setContentsMargins(4, 2, 4, 4)
        lay.addWidget(self.mention_box)
        self.retract_button = _button("", "mentionRetract")
        self.retract_button.clicked.connect(lambda _c=False: self.retract())
        self.mention_buttons: dict[str, QPushButton] = {}
        self._roster_ids: list[str] = []
        self._seen: tuple[Any, ...] = ()
        # 镜头
        self.shot_box = QGroupBox()
        shot_grid = QGridLayout(self.shot_box)
        shot_grid.setSpacing(4)
        shot_grid.setContentsMargins(4, 2, 4, 4)
        self.shot_buttons: dict[str, QPushButton] = {}
        for n, slot in enumerate(SHOT_SLOTS):
            b = _button("", f"shot_{slot}")
            b.clicked.connect(lambda _c=False, slot=slot: self.shot(slot))
            shot_grid.addWidget(b, n // 3, n % 3)
            self.shot_buttons[slot] = b
        lay.addWidget(self.shot_box)
        # 九宫格
        self.draw_box = QGroupBox()
        dl = QVBoxLayout(self.draw_box)
        dl.setContentsMargins(4, 2, 4, 4)
        dl.setSpacing(4)
        pick = QHBoxLayout()
        pick.setSpacing(6)
        self.contestant_label = QLabel()
        pick.addWidget(self.contestant_label)
        self.contestant = QComboBox()
        self.contestant.setObjectName("contestant")
        self.contestant.setEditable(True)
        self.contestant.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.contestant.setMinimumWidth(120)
        pick.addWidget(self.contestant, 1)
        self.reveal_clear = _button("", "drawClear")
        self.reveal_clear.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.reveal_clear.clicked.connect(lambda _c=False: self.onair.run("draw_clear"))
        pick.addWidget(self.reveal_clear)
        dl.addLayout(pick)
        cells = QGridLayout()
        cells.setSpacing(4)
        self.cell_buttons: list[QPushButton] = []
        for i in range(9):
            b = _button("", f"cell{i + 1}")
            b.clicked.connect(lambda _c=False, i=i: self.draw(i + 1))
            cells.addWidget(b, i // 3, i % 3)
            self.cell_buttons.append(b)
        dl.addLayout(cells)
        self.draw_message = QLabel()
        self.draw_message.setObjectName("verdict")
        self.draw_message.setWordWrap(True)
        self.draw_message.setTextFormat(Qt.TextFormat.PlainText)
        self.draw_message.hide()
        dl.addWidget(self.draw_message)
        lay.addWidget(self.draw_box)
        # 人名条
        self.lower_box = QGroupBox()
        ll = QGridLayout(self.lower_box)
        ll.setSpacing(4)
        ll.setContentsMargins(4, 2, 4, 4)
        self.lower_buttons: dict[int, QPushButton] = {}
        for seat in range(1, 7):
            b = _button("", f"lower{seat}")
            b.clicked.connect(lambda _c=False, seat=seat: self.lower_third(seat))
            ll.addWidget(b, (seat - 1) // 4, (seat - 1) % 4)
            self.lower_buttons[seat] = b
        self.host_button = _button("", "lowerHost")
        self.host_button.clicked.connect(lambda _c=False: self.lower_third(None))
        ll.addWidget(self.host_button, 1, 2, 1, 2)
        lay.addWidget(self.lower_box)
        lay.addStretch(1)
        self.console.stateChanged.connect(self.refresh)
        onair.refused.connect(self._refused)
        onair.done.connect(self._done)
        self.refresh()

    # -- operations ----------------------------------------------------------------------------
    def mention(self, n: int) -> None:
        """口播 for the n-th sponsor on the panel (1-based, the key's number)."""
        if 1 <= n <= len(self._roster_ids):
            self.onair.run("mention", sponsor=self._roster_ids[n - 1])

    def retract(self, sponsor: str = "") -> None:
        """Take back the episode's last 口播 (or ``sponsor``'s last): keyed by mistake, never aired."""
        if sponsor:
            self.onair.run("mention_retract", sponsor=sponsor, reason=RETRACT_REASON)
        else:
            self.onair.run("mention_retract", reason=RETRACT_REASON)

    def last_mention(self) -> dict[str, Any] | None:
        marks = self.console.state["sponsors"].get("mention_marks") or []
        return marks[-1] if marks else None

    def shot(self, slot: str) -> None:
        self.onair.run("shot", slot=slot)

    def draw(self, cell: int) -> None:
        who = self.contestant.currentText().strip()
        if not who:
            self._say(tr("✕ 请先选择抽奖选手"))
            return
        self.onair.run("draw", contestant=who, cell=cell)

    def lower_third(self, seat: int | None) -> None:
        if seat is None:
            self.onair.run("lower_third", host=True)
        else:
            self.onair.run("lower_third", seat=seat)

    def set_host(self, name: str) -> None:
        """The host's name (on the host's lower third), kept in the show state."""
        self.console.act(
            "show.update",
            {"host": name.strip()},
            on_refused=lambda exc: self._say(f"✕ {getattr(exc, 'zh', exc)}\n{getattr(exc, 'en', '')}"),
        )

    def ask_host(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        name, ok = QInputDialog.getText(
            self,
            tr("主持人"),
            tr("主持人姓名（人名条）"),
            text=self.console.state["show"]["host"],
        )
        if ok:
            self.set_host(name)

    def _refused(self, name: str, zh: str, en: str) -> None:
        if name in ("draw", "draw_clear"):
            self._say(f"✕ {zh}\n{en}")

    def _say(self, text: str) -> None:
        self.draw_message.setText(text)
        self.draw_message.setVisible(bool(text))

    def _done(self, name: str, change: Any) -> None:
        if name == "mention_retract" and change is not None:
            gone = [m for m in change.previous["sponsors"].get("mention_marks", [])]
            now = {m["seq"] for m in change.state["sponsors"].get("mention_marks", [])}
            for m in gone:
                if m["seq"] not in now:
                    name_ = self._sponsor_name(m["sponsor"])
                    self.console.notice.emit(
                        tr("已撤销 {time} 的口播：{name}（报告不计）").format(time=hms(m["ts"]), name=name_)
                    )
        if name == "draw":
            self._say("")
            self._next_contestant()

    def _next_contestant(self) -> None:
        drawn = {d["contestant"] for d in self.console.state["jiugongge"]["draws"]}
        for i in range(self.contestant.count()):
            if self.contestant.itemText(i) not in drawn:
                self.contestant.setCurrentIndex(i)
                return

    # -- view -----------------------------------------------------------------------------------
    def _minimum(self, kind: str) -> int | None:
        p = self.placements
        if p is None:
            return None
        slot = p.one(kind)
        if slot is None:
            return None
        need = slot.minimums.get("appearances")
        return int(need) if need else None

    def refresh(self, force: bool = False) -> None:
        st = self.console.state
        # the store shares every section an action did not touch: nothing of ours changed, nothing to do
        seen = tuple(st[k] for k in ("sponsors", "jiugongge", "table", "show", "cues"))
        if not force and all(a is b for a, b in zip(seen, self._seen, strict=False)) and self._seen:
            return
        if force or not self.mention_box.title():  # first time, or the UI language changed
            self.mention_box.setTitle(tr("口播 Mentions（主持人说出名称时按）"))
            self.shot_box.setTitle(tr("镜头 Shots（广告位出镜时按）"))
            self.draw_box.setTitle(tr("九宫格抽奖 Draw：选手选格 → 上节目揭晓 → 记入奖品"))
            self.contestant_label.setText(tr("选手"))
            self.reveal_clear.setText(tr("收起揭晓"))
            self.lower_box.setTitle(tr("人名条 Lower third（到预览，再 TAKE）"))
        self._seen = seen
        sp = st["sponsors"]
        roster = sorted(sp["roster"], key=lambda r: -int(r["mentions_min"]))  # owed ones first
        ids = [r["id"] for r in roster][:MENTIONS]
        if ids != self._roster_ids:
            for b in self.mention_buttons.values():
                self.mention_grid.removeWidget(b)
                b.deleteLater()
            self.mention_buttons = {}
            self.mention_grid.removeWidget(self.retract_button)
            for n, sid in enumerate(ids):
                b = _button("", f"mention_{sid}")
                b.clicked.connect(lambda _c=False, n=n: self.mention(n + 1))
                b.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
                b.customContextMenuRequested.connect(
                    lambda pos, b=b, sid=sid: self._mention_menu(b, sid, pos)
                )
                self.mention_grid.addWidget(b, n // 3, n % 3)
                self.mention_buttons[sid] = b
            self._roster_ids = ids
            self.mention_grid.addWidget(self.retract_button, (len(ids) + 2) // 3, 0, 1, 3)
        for n, r in enumerate(roster[:MENTIONS]):
            text, colour = count_text(int(sp["mentions"].get(r["id"], 0)), int(r["mentions_min"]) or None)
            b = self.mention_buttons[r["id"]]
            _text(b, f"{r['name']}  {text}   {self.onair.key(f'sponsors.mention.{n + 1}')}")
            _style(b, f"QPushButton {{ color: {colour}; text-align: left; padding: 4px 8px; }}")
        self.mention_box.setVisible(bool(roster))
        last = self.last_mention()
        if last is None:
            _text(
                self.retract_button,
                tr("撤销口播 {key}（本期还没有）").format(key=self.onair.key("sponsors.mention_retract")),
            )
        else:
            _text(
                self.retract_button,
                tr("撤销最后一次口播：{name} {time}  {key}").format(
                    name=self._sponsor_name(last["sponsor"]),
                    time=hms(last["ts"]),
                    key=self.onair.key("sponsors.mention_retract"),
                ),
            )
        self.retract_button.setEnabled(last is not None)
        for slot, b in self.shot_buttons.items():
            held = bool(sp.get(slot, {}).get("name"))
            b.setVisible(held)
            text, colour = count_text(int(sp["shots"].get(slot, 0)), self._minimum(slot))
            _text(b, f"{names.say(names.place(slot))} {text}  {self.onair.key(f'sponsors.shot.{slot}')}")
            b.setToolTip(sp.get(slot, {}).get("name", ""))
            _style(b, f"QPushButton {{ color: {colour}; padding: 4px 6px; }}")
        self._refresh_draw(st)
        lang = words.lang_of(current())
        for seat, b in self.lower_buttons.items():
            # the seat and its player (``3 张三``), an unnamed seat in the UI's language (``Seat 3``)
            label = words.seat_label(seat, str(st["table"]["seats"][seat - 1].get("name") or ""), lang)
            _text(b, f"{label}  {self.onair.key(f'sponsors.lower_third.{seat}')}")
        host, _ = lower_third_for(st, None)
        _text(
            self.host_button,
            tr("主持人 {name}  {key}").format(name=host, key=self.onair.key("sponsors.lower_third.host")),
        )

    def _sponsor_name(self, sid: str) -> str:
        roster = self.console.state["sponsors"]["roster"]
        return next((str(r["name"]) for r in roster if r["id"] == sid), sid)

    def _mention_menu(self, button: QPushButton, sid: str, pos: Any) -> None:
        """Right-click on a sponsor's 口播 button: take back that sponsor's last 口播."""
        menu = QMenu(button)
        action = menu.addAction(tr("撤销 {name} 的最后一次口播（按错）").format(name=self._sponsor_name(sid)))
        action.setEnabled(any(m["sponsor"] == sid for m in self.console.state["sponsors"]["mention_marks"]))
        action.triggered.connect(lambda _c=False: self.retract(sid))
        self.menu = menu  # tests find it here
        menu.popup(button.mapToGlobal(pos))

    def _refresh_draw(self, st: dict[str, Any]) -> None:
        jg = st["jiugongge"]
        cells = jg.get("cells") or []
        drawn = {d["cell"]: d["contestant"] for d in jg.get("draws", [])}
        current = jg.get("draw")
        for i, b in enumerate(self.cell_buttons):
            c = cells[i] if i < len(cells) else {}
            prize = c.get("prize", "") or "—"
            b.setToolTip(f"{i + 1}. {prize} · {c.get('sponsor', '')}")
            if i in drawn:
                _text(b, f"{i + 1} ✕ {drawn[i]}")
                b.setToolTip(tr("{n}. {prize}：已被 {who} 抽走").format(n=i + 1, prize=prize, who=drawn[i]))
                on_air = current is not None and current.get("cell") == i
                border = theme.ACCENT if on_air else theme.BORDER
                _style(
                    b,
                    f"QPushButton {{ color: {theme.MUTED}; background: #2a2230;"
                    f" border: 2px solid {border}; }}",
                )
            else:
                _text(b, f"{i + 1} {prize}")
                _style(b, "QPushButton { padding: 4px 6px; }")
            b.setEnabled(bool(cells))
        seats = st["table"]["seats"]  # the names entered: an old placeholder "N号位" is nobody to draw
        names = [n for s in seats if (n := entered_name(int(s["seat"]), str(s.get("name") or "")))]
        for cue in st["cues"]["list"]:
            if cue["kind"] == "draw" and cue["item"] and cue["item"] not in names:
                names.append(cue["item"])
        have = [self.contestant.itemText(i) for i in range(self.contestant.count())]
        if names != have:
            text = self.contestant.currentText()
            self.contestant.clear()
            self.contestant.addItems(names)
            if text:
                self.contestant.setCurrentText(text)
            else:
                self._next_contestant()
        self.draw_box.setEnabled(bool(cells))


def register(window: Any, onair: OnAir, placements: Any = None) -> SponsorPanel:
    """The sponsor events dock and its keys (bound by id: :mod:`broadcast.console.keys`)."""
    panel = SponsorPanel(onair, placements)
    bind = window.hotkeys.bind
    for n in range(1, MENTIONS + 1):
        bind(f"sponsors.mention.{n}", lambda n=n: panel.mention(n))
    bind("sponsors.mention_retract", panel.retract)
    for slot in SHOT_SLOTS:
        bind(f"sponsors.shot.{slot}", lambda slot=slot: panel.shot(slot))
    window.menu("sponsors").addSeparator()
    for seat in range(1, 7):
        bind(f"sponsors.lower_third.{seat}", lambda seat=seat: panel.lower_third(seat))
    bind("sponsors.lower_third.host", lambda: panel.lower_third(None))
    bind("sponsors.host_name", panel.ask_host)
    window.add_dock("sponsors", TITLE, panel, Qt.DockWidgetArea.RightDockWidgetArea, CTX)
    return panel
