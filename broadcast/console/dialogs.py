"""The console's dialogs: keyboard first (Enter accepts, Esc cancels), opened window-modal with
``open()`` so the store's answers keep arriving; each calls back with what the operator entered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from broadcast.console.completion import Completer
from broadcast.console.entry import read
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, current, tr
from broadcast.qt.widgets import widen_combos
from engine.cards import SYMBOLS, TOTALS

# A correction's reason presets, shown in the UI language (``reason_box`` translates them under the
# "Reasons" context); what the operator picks or types is journaled as it reads.
UNDO_REASONS = (
    QT_TRANSLATE_NOOP("Reasons", "录入错误"),
    QT_TRANSLATE_NOOP("Reasons", "裁判改判"),
    QT_TRANSLATE_NOOP("Reasons", "选手收回（裁判允许）"),
)
REDO_REASONS = (QT_TRANSLATE_NOOP("Reasons", "撤销错了"),)
CORRECT_REASONS = (
    QT_TRANSLATE_NOOP("Reasons", "录入错误"),
    QT_TRANSLATE_NOOP("Reasons", "裁判改判"),
    QT_TRANSLATE_NOOP("Reasons", "漏录"),
    QT_TRANSLATE_NOOP("Reasons", "多录"),
)
DELETE_REASONS = (QT_TRANSLATE_NOOP("Reasons", "多录"), QT_TRANSLATE_NOOP("Reasons", "录入错误"))
LEADER_REASONS = (QT_TRANSLATE_NOOP("Reasons", "录入错误"), QT_TRANSLATE_NOOP("Reasons", "裁判改判"))
SETUP_REASONS = (
    QT_TRANSLATE_NOOP("Reasons", "座位录错"),
    QT_TRANSLATE_NOOP("Reasons", "选手换人（裁判允许）"),
    QT_TRANSLATE_NOOP("Reasons", "队名录错"),
)
HANDS_REASONS = (QT_TRANSLATE_NOOP("Reasons", "录入错误"), QT_TRANSLATE_NOOP("Reasons", "裁判核对手牌"))
UNDO_CORRECTION_REASONS = (QT_TRANSLATE_NOOP("Reasons", "更正错了"), QT_TRANSLATE_NOOP("Reasons", "录入错误"))
# a penalty's and a forfeit's presets (G11.2), the same way
PENALTY_REASONS = (
    QT_TRANSLATE_NOOP("Reasons", "大声喧哗"),
    QT_TRANSLATE_NOOP("Reasons", "偷看牌"),
    QT_TRANSLATE_NOOP("Reasons", "发暗语"),
    QT_TRANSLATE_NOOP("Reasons", "发肢体暗号"),
    QT_TRANSLATE_NOOP("Reasons", "违背够级规则"),
)
FORFEIT_REASONS = (
    QT_TRANSLATE_NOOP("Reasons", "弃权"),
    QT_TRANSLATE_NOOP("Reasons", "选手迟到超过5分钟"),
    QT_TRANSLATE_NOOP("Reasons", "选手退赛"),
)
PACK = dict(zip(SYMBOLS, TOTALS, strict=True))  # the pack of four decks (G2.1)


class _Base(QDialog):
    def __init__(self, parent: QWidget | None, title: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.lay = QVBoxLayout(self)
        self.form = QFormLayout()
        self.lay.addLayout(self.form)
        self.error = QLabel()
        self.error.setObjectName("verdict")
        self.error.setWordWrap(True)
        self.lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.lay.addWidget(self.buttons)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        widen_combos(self)  # their longest item whole, before the dialog takes its size
        super().showEvent(event)

    def enter_accepts(self, box: QComboBox) -> QComboBox:
        """Enter in an editable combo box confirms the dialog (the box would swallow it otherwise)."""
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        line = box.lineEdit()
        if line is not None:
            line.returnPressed.connect(self._ok)
        return box

    # a dialog with ``submit`` set stays open until the store answers: closed when the action is
    # journaled, kept open with the refusal (the clause, in the UI language) when it is refused, so
    # that nothing typed is lost
    submit: Callable[[], object] | None = None

    def _ok(self) -> None:
        problem = self.problem()
        if problem:
            self.error.setText(problem)
            return
        if self.submit is None:
            self.accept()
            return
        self.error.setText(tr("核对中…"))
        self.buttons.setEnabled(False)
        self.submit()

    def journaled(self, _change: object = None) -> None:
        """The store took it: the dialog closes."""
        self.buttons.setEnabled(True)
        self.accept()

    def refused(self, exc: object) -> None:
        """The store refused it: the dialog stays open with the reason (the clause first)."""
        self.buttons.setEnabled(True)
        rule = str(getattr(exc, "rule", "") or "")
        zh = str(getattr(exc, "message", "") or exc)
        en = str(getattr(exc, "message_en", "") or zh)
        text = zh if current() == "zh_CN" else en
        self.error.setText(f"[{rule}] {text}" if rule and not text.startswith("[") else text)

    def problem(self) -> str:
        return ""


def reason_box(reasons: tuple[str, ...]) -> QComboBox:
    """An editable reason box holding ``reasons`` (presets marked under "Reasons") in the UI language."""
    box = QComboBox()
    box.setEditable(True)
    box.addItems([tr(r, "Reasons") for r in reasons])
    box.setCurrentIndex(0)
    line = box.lineEdit()
    if line is not None:
        line.selectAll()
    return box


class ReasonDialog(_Base):
    """One reason for an undo/redo (Enter takes the first, the most common)."""

    def __init__(self, parent: QWidget | None, title: str, detail: str, reasons: tuple[str, ...]) -> None:
        super().__init__(parent, title)
        label = QLabel(detail)
        label.setWordWrap(True)
        self.lay.insertWidget(0, label)
        self.reason = self.enter_accepts(reason_box(reasons))
        self.form.addRow(tr("原因"), self.reason)
        self.reason.setFocus()

    def problem(self) -> str:
        return "" if self.value() else tr("请写明原因")

    def value(self) -> str:
        return self.reason.currentText().strip()


class CorrectionDialog(_Base):
    """Correct decision n: the new line (checked live by the engine at that point), or delete it, or
    insert a forgotten one before it; with the reason."""

    def __init__(
        self, parent: QWidget | None, number: int, old: str, game_before: Any, mode: str = "correct"
    ) -> None:
        titles = {"correct": tr("更正第{n}步"), "delete": tr("删除第{n}步"), "insert": tr("在第{n}步前插入")}
        super().__init__(parent, titles[mode].format(n=number))
        self.number, self.mode, self.game = number, mode, game_before
        self.completer = Completer(game_before) if game_before is not None else None
        info = QLabel(tr("原来：第{n}步 {line}").format(n=number, line=old) if old else "")
        self.lay.insertWidget(0, info)
        self.line = QLineEdit(old if mode == "correct" else "")
        self.line.setObjectName("correctLine")
        if mode != "delete":
            self.form.addRow(tr("应为"), self.line)
            self.line.textChanged.connect(self._check)
        self.reason = self.enter_accepts(reason_box(CORRECT_REASONS if mode != "delete" else DELETE_REASONS))
        self.form.addRow(tr("原因"), self.reason)
        (self.line if mode != "delete" else self.reason).setFocus()
        self.line.selectAll()

    def _check(self) -> None:
        self.error.setText(self._verdict())

    def _verdict(self) -> str:
        if self.completer is None:
            return ""
        v = self.completer.verdict(read(self.line.text()))
        return f"{v.rule}  {v.zh}\n{v.en}" if v else ""

    def new_line(self) -> str:
        pending = self.game.pending_seat if self.game is not None else None
        return read(self.line.text()).line(pending) or ""

    def problem(self) -> str:
        if self.mode != "delete":
            if not self.new_line():
                return tr("请输入这一步（如 3 TTTTT、4 过）")
            v = self._verdict()
            if v:
                return v
        if not self.reason.currentText().strip():
            return tr("请写明原因")
        return ""

    def payload(self) -> dict[str, Any]:
        p: dict[str, Any] = {"move": self.number, "reason": self.reason.currentText().strip()}
        if self.mode == "delete":
            p["delete"] = True
        else:
            p["line"] = self.new_line()
            if self.mode == "insert":
                p["insert"] = True
        return p


class LeaderDialog(_Base):
    """Correct the 上班 seat (G12.1): the new seat and the reason; the engine plays the record again from
    it and what no longer stands is set aside for re-keying."""

    def __init__(self, parent: QWidget | None, names: dict[int, str], leader: int, moves: int) -> None:
        super().__init__(parent, tr("更正上班座位（G12.1）"))
        note = tr("现在：{who}；本局已录 %n 步，按新的上班座位重新核对", "", moves).format(
            who=names.get(leader, str(leader))
        )
        info = QLabel(note)
        info.setWordWrap(True)
        self.lay.insertWidget(0, info)
        self.seat = QComboBox()
        self.seat.setObjectName("leaderSeat")
        for s in range(1, 7):
            self.seat.addItem(names.get(s, str(s)), s)
        self.seat.setCurrentIndex(leader % 6)  # the next seat: the usual slip is one seat off
        self.form.addRow(tr("上班座位"), self.seat)
        self.reason = self.enter_accepts(reason_box(LEADER_REASONS))
        self.form.addRow(tr("原因"), self.reason)
        self.leader = leader
        self.seat.setFocus()

    def problem(self) -> str:
        if self.seat.currentData() == self.leader:
            return tr("上班座位没有变")
        return "" if self.reason.currentText().strip() else tr("请写明原因")

    def payload(self) -> dict[str, Any]:
        return {"leader": int(self.seat.currentData()), "reason": self.reason.currentText().strip()}


class SetupDialog(_Base):
    """Correct the match's set-up: the teams' names, who sits in each seat, the games in the match and
    — before the match's first decision only — the rules preset, with the reason. What the record
    already depends on is not offered (the preset once play started: the engine judged the plays by it;
    the store refuses it too, and fewer games than the match has reached)."""

    def __init__(
        self,
        parent: QWidget | None,
        teams: dict[str, str],
        names: dict[int, str],
        games: int = 3,
        rules: str = "tv_match",
        rules_open: bool = False,
        presets: tuple[str, ...] = ("tv_match", "dagang"),
    ) -> None:
        super().__init__(parent, tr("更正比赛设置"))
        self.teams: dict[str, QLineEdit] = {}
        for key, label in (("odd", tr("单号队（1·3·5）")), ("even", tr("双号队（2·4·6）"))):
            e = QLineEdit(teams.get(key, ""))
            e.setObjectName(f"team_{key}")
            self.teams[key] = e
            self.form.addRow(label, e)
        self.names: dict[int, QLineEdit] = {}
        for s in range(1, 7):
            e = QLineEdit(names.get(s, ""))
            e.setObjectName(f"name{s}")
            self.names[s] = e
            self.form.addRow(tr("{s}号座位").format(s=s), e)
        self.games = QSpinBox()
        self.games.setObjectName("gamesInMatch")
        self.games.setRange(1, 99)
        self.games.setValue(games)
        self.form.addRow(tr("本场局数"), self.games)
        self.rules = QComboBox()
        self.rules.setObjectName("rulesPreset")
        for preset in presets:
            self.rules.addItem(preset, preset)
        self.rules.setCurrentIndex(max(0, self.rules.findData(rules)))
        self.rules.setEnabled(rules_open)
        if not rules_open:
            self.rules.setToolTip(tr("本场已开始出牌：规则预设不能再改（已出的牌按它判定）"))
        self.form.addRow(tr("规则预设"), self.rules)
        self.reason = self.enter_accepts(reason_box(SETUP_REASONS))
        self.form.addRow(tr("原因"), self.reason)
        self.start = (dict(teams), dict(names), games, rules)
        self.names[1].setFocus()

    def problem(self) -> str:
        if any(not e.text().strip() for e in self.names.values()):
            return tr("每个座位都要有选手")
        teams, names, games, rules = self.start
        now = (
            {k: e.text().strip() for k, e in self.teams.items()},
            {s: e.text().strip() for s, e in self.names.items()},
            self.games.value(),
            str(self.rules.currentData()),
        )
        if now == (
            {k: teams.get(k, "") for k in self.teams},
            {s: names.get(s, "") for s in self.names},
            games,
            rules,
        ):
            return tr("比赛设置没有改动")
        return "" if self.reason.currentText().strip() else tr("请写明原因")

    def payload(self) -> dict[str, Any]:
        p: dict[str, Any] = {
            "teams": {k: {"name": e.text().strip()} for k, e in self.teams.items()},
            "names": [self.names[s].text().strip() for s in range(1, 7)],
            "games_in_match": self.games.value(),
            "reason": self.reason.currentText().strip(),
        }
        if self.rules.isEnabled():
            p["rules"] = str(self.rules.currentData())
        return p


class LineupDialog(_Base):
    """Correct a season match's lineup (编辑 ▸ 更正比赛设置… on a season match): each seat's player from
    the roster of the team on its side, the two teams exchanged (only while the season holds no game of
    the match: those were counted for the sides), the game the correction holds from (1: keyed wrong from
    the start, the games the season holds corrected too; later: a substitution), with the reason. The
    season checks it (G1.1, G1.2) and the dialog stays open with a refusal and everything chosen."""

    def __init__(self, parent: QWidget | None, choices: dict[str, Any], where: str = "") -> None:
        super().__init__(parent, tr("更正上场名单（赛季比赛）"))
        self.choices = choices
        saved = int(choices["games"])
        note = tr("赛季比赛 {where}：赛季已存本场 %n 局", "", saved).format(where=where)
        info = QLabel(note.replace("  ", " "))
        info.setWordWrap(True)
        self.lay.insertWidget(0, info)
        self.swap = QCheckBox(tr("两队坐反了（单双号换边）"))
        self.swap.setObjectName("lineupSwap")
        self.swap.setEnabled(saved == 0)
        if saved:
            self.swap.setToolTip(tr("赛季已存入的局是按原来的单双号计分的：不能换边"))
        self.form.addRow(tr("队伍"), self.swap)
        self.seats: dict[int, QComboBox] = {}
        self.labels: dict[int, QLabel] = {}
        for s in range(1, 7):
            box = QComboBox()
            box.setObjectName(f"lineup{s}")
            self.seats[s], self.labels[s] = box, QLabel()
            self.form.addRow(self.labels[s], box)
        self._fill()
        self.swap.toggled.connect(lambda _on: self._fill())
        self.from_game = QSpinBox()
        self.from_game.setObjectName("lineupFromGame")
        self.from_game.setRange(1, saved + 1)
        self.from_game.setPrefix(tr("从第 "))
        self.from_game.setSuffix(tr(" 局起"))
        self.from_game.setToolTip(
            tr("1：开场就录错了，赛季已存的局一并更正；更大：从这一局起换人，之前的局保留原来的选手")
        )
        self.form.addRow(tr("更正范围"), self.from_game)
        self.reason = self.enter_accepts(reason_box(SETUP_REASONS))
        self.form.addRow(tr("原因"), self.reason)
        self.start = self.lineup()
        self.seats[1].setFocus()

    def _side(self, seat: int) -> dict[str, Any]:
        """The team on ``seat``'s side (G1.2), the sides exchanged when asked."""
        odd = seat % 2 == 1
        if self.swap.isChecked():
            odd = not odd
        return dict(self.choices["odd" if odd else "even"])

    def _fill(self) -> None:
        current = {int(k): int(v) for k, v in self.choices["lineup"].items()}
        for s, box in self.seats.items():
            team = self._side(s)
            self.labels[s].setText(tr("{s}号座位（{team}）").format(s=s, team=team["name"]))
            keep = current.get(s)  # the lineup as the season holds it (the other side's players: not here)
            box.clear()
            for p in team["players"]:
                box.addItem(str(p["name"]), int(p["id"]))
            at = box.findData(keep)
            box.setCurrentIndex(at if at >= 0 else min((s - 1) // 2, box.count() - 1))

    def lineup(self) -> tuple[bool, dict[int, int]]:
        return self.swap.isChecked(), {s: int(b.currentData()) for s, b in self.seats.items() if b.count()}

    def problem(self) -> str:
        if any(not b.count() for b in self.seats.values()):
            return tr("每个座位都要有选手")
        if self.lineup() == self.start:
            return tr("上场名单没有改动")
        return "" if self.reason.currentText().strip() else tr("请写明原因")

    def payload(self) -> dict[str, Any]:
        swapped, lineup = self.lineup()
        odd, even = int(self.choices["odd"]["id"]), int(self.choices["even"]["id"])
        return {
            "lineup": lineup,
            "odd": even if swapped else odd,
            "even": odd if swapped else even,
            "from_game": self.from_game.value(),
            "reason": self.reason.currentText().strip(),
        }


class PenaltyDialog(_Base):
    """A referee penalty (G11.2: −2 for the team), with the reason."""

    def __init__(self, parent: QWidget | None, teams: dict[str, str], points: int = 2) -> None:
        super().__init__(parent, tr("裁判罚分（G11.2：每次扣%n分）", "", int(points)))
        self.team = QComboBox()
        for key in ("odd", "even"):
            side = tr("单号 1·3·5") if key == "odd" else tr("双号 2·4·6")
            self.team.addItem(f"{teams[key]}（{side}）", key)
        self.form.addRow(tr("受罚队伍"), self.team)
        self.reason = self.enter_accepts(reason_box(PENALTY_REASONS))
        self.form.addRow(tr("原因"), self.reason)
        self.team.setFocus()

    def problem(self) -> str:
        return "" if self.reason.currentText().strip() else tr("请写明原因")

    def payload(self) -> dict[str, Any]:
        return {"team": self.team.currentData(), "reason": self.reason.currentText().strip()}


class ForfeitDialog(_Base):
    def __init__(self, parent: QWidget | None, teams: dict[str, str]) -> None:
        super().__init__(parent, tr("弃权（G11.2：对方胜）"))
        self.team = QComboBox()
        for key in ("odd", "even"):
            self.team.addItem(teams[key], key)
        self.form.addRow(tr("弃权队伍"), self.team)
        self.reason = self.enter_accepts(reason_box(FORFEIT_REASONS))
        self.form.addRow(tr("原因"), self.reason)

    def problem(self) -> str:
        return "" if self.reason.currentText().strip() else tr("请写明原因")

    def payload(self) -> dict[str, Any]:
        return {"team": self.team.currentData(), "reason": self.reason.currentText().strip()}


class LateDialog(_Base):
    def __init__(self, parent: QWidget | None, names: dict[int, str]) -> None:
        super().__init__(parent, tr("选手迟到（超过5分钟按弃权，G11.2）"))
        self.seat = QComboBox()
        for s in range(1, 7):
            self.seat.addItem(names.get(s, str(s)), s)
        self.form.addRow(tr("座位"), self.seat)
        self.minutes = QDoubleSpinBox()
        self.minutes.setRange(0, 120)
        self.minutes.setDecimals(1)
        self.minutes.setSuffix(tr(" 分钟"))
        self.form.addRow(tr("迟到"), self.minutes)
        self.reason = QLineEdit()
        self.form.addRow(tr("说明"), self.reason)

    def payload(self) -> dict[str, Any]:
        m = self.minutes.value()
        return {
            "seat": self.seat.currentData(),
            "minutes": int(m) if m == int(m) else m,
            "reason": self.reason.text().strip(),
        }


class HandsDialog(_Base):
    """The hands at the deal, one line per seat, checked as typed: 36 cards, ≤ 16 of a rank (4 of each
    joker), the six together no more than the pack (216, G2.1). One dialog for the six seats, not one
    per seat (docs/console.md says why): the pack-wide check needs every hand in view, Tab goes from
    seat to seat, and the six are one journaled action. OK with a problem keeps the dialog open with the
    cursor in the seat's line that has it."""

    def __init__(
        self,
        parent: QWidget | None,
        names: dict[int, str],
        hands: list[str],
        dealt: dict[int, int],
        correcting: bool = False,
    ) -> None:
        super().__init__(parent, tr("更正手牌") if correcting else tr("录入手牌（发牌时）"))
        self.dealt = dealt
        self.correcting = correcting  # play has started or a hand is known: a correction, with the reason
        self.known = list(hands) if hands else [""] * 6
        grid = QGridLayout()
        self.lines: dict[int, QLineEdit] = {}
        self.counts: dict[int, QLabel] = {}
        for s in range(1, 7):
            grid.addWidget(QLabel(names.get(s, str(s))), s, 0)
            e = QLineEdit(hands[s - 1] if hands else "")
            e.setObjectName(f"hand{s}")
            e.setPlaceholderText(tr("未知（只核对张数）"))
            e.setMinimumWidth(520)
            e.textChanged.connect(self._check)
            grid.addWidget(e, s, 1)
            c = QLabel()
            grid.addWidget(c, s, 2)
            self.lines[s], self.counts[s] = e, c
        self.total = QLabel()
        self.total.setObjectName("handsTotal")
        grid.addWidget(self.total, 7, 1)
        self.lay.insertLayout(0, grid)
        self.lay.insertWidget(0, QLabel(tr("牌：3–9 T(10) J Q K A 2 B(小王) R(大王)；留空 = 未知")))
        self.reason: QComboBox | None = None
        if correcting:  # the engine re-checks every move played so far against the corrected hands
            note = QLabel(
                tr("更正后，裁判引擎按新手牌重新核对本局已出的每一步；有一步不再成立则不更正，并指出是哪一步")
            )
            note.setWordWrap(True)
            self.lay.insertWidget(1, note)
            self.reason = self.enter_accepts(reason_box(HANDS_REASONS))
            self.form.addRow(tr("原因"), self.reason)
        self._check()

    def hands(self) -> list[str]:
        out = []
        for s in range(1, 7):
            text = self.lines[s].text().upper().replace("10", "T")
            out.append("".join(ch for ch in text if ch in PACK))
        return out

    def _check(self) -> None:
        hands = self.hands()
        for s in range(1, 7):
            n = len(hands[s - 1])
            self.counts[s].setText(f"{n}/{self.dealt[s]}" if n else "—")
        known = [s for s in range(1, 7) if hands[s - 1]]
        self.total.setText(
            tr("已录 %n 手，合计 {n}/{m} 张", "", len(known)).format(
                n=sum(len(hands[s - 1]) for s in known),
                m=sum(self.dealt[s] for s in known),
            )
        )
        self.error.setText(self.problem())

    def _ok(self) -> None:
        seat, _text = self.check()
        if seat:  # the cursor goes to the seat whose hand is wrong
            self.lines[seat].setFocus()
            self.lines[seat].selectAll()
        super()._ok()

    def check(self) -> tuple[int, str]:
        """The first problem: (the seat to fix, or 0 for the pack as a whole; the words), or (0, "")."""
        hands = self.hands()
        for s in range(1, 7):
            raw = self.lines[s].text().upper().replace("10", "T")
            bad = [ch for ch in raw if ch not in PACK and not ch.isspace()]
            if bad:
                return s, tr("{s}号：看不懂“{ch}”").format(s=s, ch=bad[0])
            n = len(hands[s - 1])
            if n and n != self.dealt[s]:
                return s, tr("{s}号：%n张，应为{m}张（G2.1）", "", n).format(s=s, m=self.dealt[s])
        total = "".join(hands)
        over = [r for r in PACK if total.count(r) > PACK[r]]
        if over:
            seat = self._overflowing_seat(hands, total)
            words = "、".join(f"{r}×{total.count(r)}" for r in over)
            return seat, tr("合计超过四副牌：{over}（每点16张，大小王各4张，G2.1）").format(over=words)
        return 0, ""

    def problem(self) -> str:
        problem = self.check()[1]
        if problem or not self.correcting:
            return problem
        if [sorted(h) for h in self.hands()] == [sorted(h) for h in self.known]:
            return tr("手牌没有改动")
        return "" if self.reason_text() else tr("请写明原因")

    def reason_text(self) -> str:
        return self.reason.currentText().strip() if self.reason is not None else ""

    def refused(self, exc: object) -> None:
        """Refused: the reason shown, the cursor in the line of the seat whose move no longer stands."""
        super().refused(exc)
        import re

        m = re.search(r"[（(](\d) ", str(getattr(exc, "message", "")))
        if m and int(m.group(1)) in self.lines:
            self.lines[int(m.group(1))].setFocus()

    @staticmethod
    def _overflowing_seat(hands: list[str], total: str) -> int:
        """The seat to look at when the six hands hold more than the pack: the last seat whose hand,
        taken out, leaves the others within it (a hand typed twice); else the one holding most of the
        first rank over."""

        def fits(cards: str) -> bool:
            return all(cards.count(r) <= n for r, n in PACK.items())

        for s in range(6, 0, -1):
            if hands[s - 1] and fits("".join(h for i, h in enumerate(hands) if i != s - 1)):
                return s
        rank = next(r for r in PACK if total.count(r) > PACK[r])
        return max(range(1, 7), key=lambda s: hands[s - 1].count(rank))


class NewMatchDialog(_Base):
    """A new match from the season: season, episode, the two teams, six players seated (search by name)."""

    picked = Signal(dict)

    def __init__(self, parent: QWidget | None, choices: dict[str, Any]) -> None:
        super().__init__(parent, tr("新比赛（从赛季）"))
        self.choices = choices
        self.season = QComboBox()
        for s in choices["seasons"]:
            self.season.addItem(s["title"] or s["name"], s)
        self.form.addRow(tr("赛季"), self.season)
        self.episode = QSpinBox()
        self.episode.setRange(1, 999)
        self.form.addRow(tr("期数"), self.episode)
        self.label = QLineEdit()
        self.label.setPlaceholderText(tr("如：积分赛、第一轮"))
        self.form.addRow(tr("轮次"), self.label)
        self.odd = QComboBox()
        self.even = QComboBox()
        self.form.addRow(tr("单号队（1·3·5）"), self.odd)
        self.form.addRow(tr("双号队（2·4·6）"), self.even)
        self.seats: dict[int, QComboBox] = {}
        for s in range(1, 7):
            box = QComboBox()
            box.setEditable(True)
            box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            box.setObjectName(f"seatPlayer{s}")
            self.seats[s] = box
            self.form.addRow(tr("{s}号座位").format(s=s), box)
        self.season.currentIndexChanged.connect(self._season_changed)
        self.odd.currentIndexChanged.connect(lambda _i: self._team_changed("odd"))
        self.even.currentIndexChanged.connect(lambda _i: self._team_changed("even"))
        self._season_changed()

    def _season_changed(self) -> None:
        s = self.season.currentData()
        if s is None:
            return
        self.episode.setValue((max(s["episodes"]) + 1) if s["episodes"] else 1)
        for box in (self.odd, self.even):
            box.blockSignals(True)
            box.clear()
            for t in s["teams"]:
                box.addItem(t["name"], t)
            box.blockSignals(False)
        if len(s["teams"]) > 1:
            self.even.setCurrentIndex(1)
        self._team_changed("odd")
        self._team_changed("even")

    def _team_changed(self, side: str) -> None:
        team = (self.odd if side == "odd" else self.even).currentData()
        seats = (1, 3, 5) if side == "odd" else (2, 4, 6)
        names = [p["name"] for p in team["players"]] if team else []
        for i, s in enumerate(seats):
            box = self.seats[s]
            box.clear()
            for p in team["players"] if team else []:
                box.addItem(p["name"], p["id"])
            c = QCompleter(names, box)
            c.setFilterMode(Qt.MatchFlag.MatchContains)
            c.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            box.setCompleter(c)
            if i < box.count():
                box.setCurrentIndex(i)

    def lineup(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for s, box in self.seats.items():
            i = box.findText(box.currentText().strip())
            if i >= 0:
                out[s] = int(box.itemData(i))
        return out

    def problem(self) -> str:
        if self.odd.currentData() is None or self.even.currentData() is None:
            return tr("请选择两支队伍")
        if self.odd.currentData()["id"] == self.even.currentData()["id"]:
            return tr("两支队伍不能相同（G1.2）")
        lineup = self.lineup()
        missing = [str(s) for s in range(1, 7) if s not in lineup]
        if missing:
            return tr("{seats}号座位：找不到这名选手").format(seats="、".join(missing))
        if len(set(lineup.values())) != 6:
            return tr("同一选手不能坐两个座位（G1.1）")
        from broadcast.studio import state_schema  # the round's maximum on air, from the schema

        long = state_schema().too_long("show.round", self.label.text().strip())
        if long is not None:
            return f"{tr('轮次')}：{long.zh}\n{long.en}"
        return ""

    def payload(self) -> dict[str, Any]:
        s = self.season.currentData()
        return {
            "season": s["name"],
            "episode": self.episode.value(),
            "odd": self.odd.currentData()["id"],
            "even": self.even.currentData()["id"],
            "lineup": self.lineup(),
            "label": self.label.text().strip(),
        }


class HistoryDialog(QDialog):
    """Every undo, redo and correction of this game with its reason (the journal keeps them all)."""

    def __init__(self, parent: QWidget | None, history: list[dict[str, Any]]) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("更正记录"))
        self.resize(820, 420)
        lay = QVBoxLayout(self)
        self.list = QListWidget()
        kinds = {
            "undo": tr("撤销"),
            "redo": tr("重做"),
            "correct": tr("更正"),
            "delete": tr("删除"),
            "insert": tr("插入"),
            "hands": tr("手牌"),
            "leader": tr("上班座位"),
            "setup": tr("比赛设置"),
        }
        for h in history:
            text = f"#{h['seq']}  {kinds.get(h['kind'], h['kind'])} "
            if h["kind"] == "hands":
                text += tr("座位 {s}").format(s=h["line"])
            elif h["kind"] == "leader":
                text += tr("{a}号 → {b}号").format(a=h["line"], b=h["new_line"])
            elif h["kind"] == "setup":
                text += h["line"] or "—"
            else:
                text += tr("第{n}步").format(n=h["move"]) + f"  {h['line']}"
                if h.get("new_line"):
                    text += f" → {h['new_line']}"
            if (h["kind"] in ("hands", "setup") and h.get("new_line") == "undo") or h.get("undo"):
                text += tr("（撤销更正）")
            if h.get("dropped"):
                text += tr("（其后%n步不再成立）", "", int(h["dropped"]))
            text += f"  · {h.get('reason') or '—'}"
            self.list.addItem(text)
        lay.addWidget(self.list)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        box.rejected.connect(self.reject)
        lay.addWidget(box)


def run(dialog: QDialog, on_accept: Callable[[], object]) -> QDialog:
    """Open ``dialog`` window-modal; ``on_accept`` runs when the operator confirms."""
    dialog.accepted.connect(on_accept)
    dialog.open()
    return dialog
