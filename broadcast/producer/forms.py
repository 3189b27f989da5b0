"""The forms of the placements: one row per field, each with the checker's verdict beside it.

A slot's form is built from its row of ``SLOT_SPECS`` (which fields it takes, what it sells, its film
length); every edit goes to :meth:`Workspace.edit` and every check comes back to :meth:`Form.show_check`,
which puts the issues about each field (found by their line and column) beside that field, in red.
Logo and film pickers copy the file into the project and keep it only if the checker accepts it there.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from broadcast.producer.draft import Check, Path_
from broadcast.qt import i18n
from broadcast.qt.i18n import tr
from broadcast.qt.widgets import set_props
from broadcast.sponsors.placements import (
    BUMPER_SECONDS,
    DEFAULT_MINIMUMS,
    FILM_LENGTH,
    MINIMUM_KEYS,
    PRICE_UNITS,
    SPOT_LENGTHS,
    SPOT_LIST_PRICE,
    SlotSpec,
)
from broadcast.sponsors.placements.ratecard import CREDIT_ROLES, KIND_LABELS, LIST_PRICE

THUMB = 96


def alive(widget: Any) -> bool:
    """The widget still exists (a form is built anew when the draft's structure changes, while the
    worker may still answer the old one)."""
    import shiboken6

    return bool(shiboken6.isValid(widget))


def yaml_value(text: str) -> Any:
    """What a typed text is written as: a date for ``YYYY-MM-DD``, a whole number for digits, else text."""
    t = text.strip()
    try:
        if len(t) == 10:
            return date.fromisoformat(t)
    except ValueError:
        pass
    if t.isdigit() and len(t) < 15:
        return int(t)
    return t


def shown(value: Any) -> str:
    if value is None:
        return ""
    return str(value)


def price_label(kind: str, seconds: int | None = None) -> str:
    if kind == "spot":
        yuan = SPOT_LIST_PRICE.get(seconds or 0)
        return tr("刊例价 {y:,} 元/次").format(y=yuan) if yuan else ""
    if kind not in LIST_PRICE:
        return ""
    yuan, per = LIST_PRICE[kind]
    return tr("刊例价 {y:,} 元/{per}").format(y=yuan, per=PRICE_UNITS[per])


class Field(QWidget):
    """One field: its editor and, under it, the checker's words about it (red)."""

    def __init__(self, ws: Any, path: Path_, editor: QWidget, *, exact: bool = False) -> None:
        super().__init__()
        self.ws = ws
        self.path = path
        self.exact = exact
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(editor)
        self.issue = QLabel()
        self.issue.setObjectName("fieldIssue")
        self.issue.setWordWrap(True)
        self.issue.hide()
        lay.addWidget(self.issue)
        self.editor = editor
        self.issues: list[Any] = []

    def show_check(self, check: Check) -> None:
        found = check.at(self.path, exact=self.exact)
        self.issues = found
        errors = [i for i in found if i.level == "error"]
        warns = [i for i in found if i.level != "error"]
        if not found:
            self.issue.hide()
            set_props(self.editor, invalid=False)
        else:
            text = "\n".join(
                ("✕ " if i.level == "error" else "⚠ ") + i.text(i18n.current()) for i in errors + warns
            )
            self.issue.setText(text)
            set_props(self.issue, level="error" if errors else "warning")
            self.issue.show()
            set_props(self.editor, invalid=bool(errors))

    @property
    def error_text(self) -> str:
        return self.issue.text() if self.issue.isVisible() or self.issues else ""


class Form(QWidget):
    """A column of labelled fields over the draft; ``refresh`` re-reads them, ``show_check`` marks them."""

    def __init__(self, ws: Any, title: str = "") -> None:
        super().__init__()
        self.ws = ws
        self.fields: dict[Path_, Field] = {}
        self.layout_ = QFormLayout(self)
        self.layout_.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.layout_.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.layout_.setVerticalSpacing(8)
        if title:
            head = QLabel(title)
            head.setObjectName("panelTitle")
            self.layout_.addRow(head)
        self._readers: list[Callable[[], None]] = []

    # -- building ------------------------------------------------------------------------------------
    def add(self, label: str, field: Field, reader: Callable[[], None] | None = None) -> Field:
        self.fields[field.path] = field
        self.layout_.addRow(label, field)
        if reader is not None:
            self._readers.append(reader)
            reader()
        return field

    def text(
        self,
        label: str,
        path: Path_,
        *,
        placeholder: str = "",
        required: bool = True,
        typed: bool = False,
        finished: Callable[[], None] | None = None,
    ) -> QLineEdit:
        edit = QLineEdit()
        edit.setPlaceholderText(placeholder)
        edit.setObjectName("field_" + "_".join(map(str, path)))

        def write(t: str) -> None:
            value: Any = yaml_value(t) if typed else t.strip()
            if value == "" and not required:
                value = None
            self.ws.edit(path, value)

        def read() -> None:
            if not edit.hasFocus():
                edit.blockSignals(True)
                edit.setText(shown(self.ws.draft.get(path)))
                edit.blockSignals(False)

        edit.textEdited.connect(write)
        if finished is not None:
            edit.editingFinished.connect(finished)
        self.add(label, Field(self.ws, path, edit), read)
        return edit

    def combo(
        self,
        label: str,
        path: Path_,
        choices: Callable[[], list[tuple[Any, str]]],
        *,
        on_change: Callable[[Any], None] | None = None,
    ) -> QComboBox:
        box = QComboBox()
        box.setObjectName("field_" + "_".join(map(str, path)))

        def read() -> None:
            box.blockSignals(True)
            box.clear()
            box.addItem(tr("（未选）"), None)
            for value, text in choices():
                box.addItem(text, value)
            cur = self.ws.draft.get(path)
            i = box.findData(cur)
            if i < 0 and cur not in (None, ""):
                box.addItem(f"{cur} ?", cur)
                i = box.count() - 1
            box.setCurrentIndex(max(0, i))
            box.blockSignals(False)

        def write(i: int) -> None:
            value = box.itemData(i)
            self.ws.edit(path, value, now=True)
            if on_change is not None:
                on_change(value)

        box.currentIndexChanged.connect(write)
        self.add(label, Field(self.ws, path, box), read)
        return box

    def lines(self, label: str, path: Path_) -> QPlainTextEdit:
        edit = QPlainTextEdit()
        edit.setObjectName("field_" + "_".join(map(str, path)))
        edit.setFixedHeight(96)

        def read() -> None:
            if not edit.hasFocus():
                edit.blockSignals(True)
                edit.setPlainText("\n".join(shown(x) for x in (self.ws.draft.get(path) or [])))
                edit.blockSignals(False)

        def write() -> None:
            rows = [r.strip() for r in edit.toPlainText().splitlines() if r.strip()]
            self.ws.edit(path, rows)

        edit.textChanged.connect(write)
        self.add(label, Field(self.ws, path, edit), read)
        return edit

    def refresh(self) -> None:
        for read in self._readers:
            read()

    def show_check(self, check: Check) -> None:
        for f in self.fields.values():
            f.show_check(check)


# ------------------------------------------------------------------------------------------ pickers
class Picker(QWidget):
    """A thumbnail, what was measured, and a button that copies a file in (checked at its field)."""

    def __init__(self, ws: Any, field: Path_, kind: str) -> None:
        super().__init__()
        self.ws = ws
        self.field_path = field
        self.kind = kind  # "logo" | "film"
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.thumb = QLabel()
        self.thumb.setFixedSize(THUMB * 16 // 9 if kind == "film" else THUMB, THUMB)
        self.thumb.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumb.setObjectName("thumb")
        lay.addWidget(self.thumb)
        col = QVBoxLayout()
        self.name = QLabel()
        self.name.setObjectName("muted")
        self.name.setWordWrap(True)
        col.addWidget(self.name)
        row = QHBoxLayout()
        self.button = QPushButton(tr("选择文件…") if kind == "logo" else tr("选择宣传片…"))
        self.button.clicked.connect(lambda: self.pick(None))
        row.addWidget(self.button)
        self.clear_button = QPushButton(tr("清除"))
        self.clear_button.clicked.connect(self.clear)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        col.addLayout(row)
        lay.addLayout(col, 1)
        self.refused = ""  # the checker's words when the last pick was refused
        self.busy = False

    def rel(self) -> str:
        value = self.ws.draft.get(self.field_path)
        if self.kind == "film":
            return str(value.get("file", "")) if isinstance(value, dict) else ""
        return str(value or "")

    def read(self) -> None:
        rel = self.rel()
        path = (self.ws.draft.path.parent / rel) if rel else None
        if path is None or not path.is_file():
            self.thumb.setPixmap(QPixmap())
            self.thumb.setText(tr("无") if not rel else "?")
            self.name.setText(rel or tr("未选择"))
            return
        if self.kind == "logo":
            pm = QPixmap(str(path))
            self.thumb.setPixmap(
                pm.scaled(
                    self.thumb.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
            self.name.setText(f"{rel}  {pm.width()}×{pm.height()}")
            return
        self.name.setText(rel)
        from broadcast.producer import files

        def measured(value: tuple[str, float]) -> None:
            if not alive(self.thumb):
                return
            poster, seconds = value
            pm = QPixmap(poster)
            self.thumb.setPixmap(
                pm.scaled(
                    self.thumb.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
            want = self.ws.draft.get((*self.field_path, "seconds"))
            self.name.setText(tr("{rel} · 实测 {s:.1f} 秒（应为 {w} 秒）").format(rel=rel, s=seconds, w=want))

        def failed(exc: Any) -> None:
            if not alive(self.thumb):
                return
            self.thumb.setText("✕")
            self.name.setText(f"{rel} · {exc}")

        self.ws.run(lambda: (str(files.poster(path)), files.film_seconds(path)), done=measured, failed=failed)

    def pick(self, src: Path | None, *, seconds: int | None = None, film_id: str = "") -> None:
        """Copy ``src`` in (a file dialog when None) and write it at the field, if the checker agrees."""
        from broadcast.producer import files

        if src is None:
            filt = (
                tr("图片 (*.png *.jpg *.jpeg *.webp)")
                if self.kind == "logo"
                else tr("视频 (*.mp4 *.mov *.m4v)")
            )
            chosen, _ = QFileDialog.getOpenFileName(self, self.button.text(), str(Path.home()), filt)
            if not chosen:
                return
            src = Path(chosen)
        self.busy = True
        self.refused = ""
        draft = self.ws.draft
        if self.kind == "logo":
            stem = self.stem()
            stage: Callable[[], Any] = lambda: files.stage_logo(draft, self.field_path, src, stem=stem)  # noqa: E731
        else:
            secs = seconds or self.film_seconds()
            fid = film_id or self.film_id(secs)
            stage = lambda: files.stage_film(draft, self.field_path, src, seconds=secs, film_id=fid)  # noqa: E731

        def staged(st: Any) -> None:  # Qt thread: the draft is only written here
            old = draft.get(st.field)
            draft.set(st.field, st.value)
            text = draft.text()
            self.ws.run(draft.check, text=text, done=lambda c: judged(st, old, c), failed=failed)

        def judged(st: Any, old: Any, check: Any) -> None:
            bad = files.refusals(check, list(st.checked))
            if bad:
                draft.set(st.field, old)
                st.undo()
                failed(files.AssetRefused(bad))
                return
            self.busy = False
            if alive(self.thumb):
                self.read()
            self.ws.schedule(now=True)

        def failed(exc: Any) -> None:
            self.busy = False
            self.refused = str(exc)
            self.ws.notice.emit(tr("文件未采用：{why}").format(why=exc))
            self.ws.schedule(now=True)
            if not alive(self.name):
                return
            self.name.setText(tr("不能用：{why}").format(why=exc))
            self.name.setObjectName("fieldIssue")
            self.name.setProperty("level", "error")
            self.name.style().unpolish(self.name)
            self.name.style().polish(self.name)

        self.ws.run(stage, done=staged, failed=failed)

    def clear(self) -> None:
        self.ws.edit(self.field_path, None, now=True)
        self.read()

    # what the picked file is named after, and the film the slot sells
    def stem(self) -> str:
        path = self.field_path
        if path[:1] == ("sponsors",) and len(path) > 1:
            return str(path[1])
        sponsor = self.ws.draft.get((*path[:-1], "sponsor"))
        return str(sponsor or "logo")

    def film_seconds(self) -> int:
        slot = self.field_path[:-1]
        kind = section_kind(slot)
        if kind == "spot":
            return int(self.ws.draft.get((*slot, "seconds")) or 15)
        return FILM_LENGTH.get(kind, 15)

    def film_id(self, seconds: int) -> str:
        sponsor = str(self.ws.draft.get((*self.field_path[:-1], "sponsor")) or "film")
        base = f"{sponsor}_{seconds}s"
        taken = {
            f
            for f in film_ids(self.ws.draft)
            if f != shown((self.ws.draft.get(self.field_path) or {}).get("id"))
        }
        fid, n = base, 2
        while fid in taken:
            fid, n = f"{base}_{n}", n + 1
        return fid


def section_kind(slot_path: Path_) -> str:
    from broadcast.sponsors.placements.slots import SPEC_OF

    spec = SPEC_OF.get(str(slot_path[0])) if slot_path else None
    return spec.kind if spec is not None else ""


def film_ids(draft: Any) -> list[str]:
    """Every film id written in the draft (for the rundown's breaks and unique ids)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "film" and isinstance(v, dict) and v.get("id"):
                    out.append(str(v["id"]))
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(draft.doc)
    return out


# ------------------------------------------------------------------------------------------ the forms
def sponsor_choices(ws: Any) -> Callable[[], list[tuple[Any, str]]]:
    return lambda: [(sid, f"{name or sid}（{sid}）") for sid, name in ws.draft.sponsors()]


class SponsorForm(Form):
    def __init__(self, ws: Any, sid: str) -> None:
        super().__init__(ws, tr("赞助企业 {sid}").format(sid=sid))
        self.sid = sid
        base = ("sponsors", sid)
        self.text(tr("名称（上屏）"), (*base, "name"), placeholder=tr("如 小当家"))
        self.text(tr("全称"), (*base, "full_name"), placeholder=tr("如 小当家便利店配货中心"), required=False)
        self.text(tr("联系人"), (*base, "contact"), placeholder=tr("如 市场部 王经理"), required=False)
        self.logo = Picker(ws, (*base, "logo"), "logo")
        self.add(tr("LOGO"), Field(ws, (*base, "logo"), self.logo), self.logo.read)


class SlotForm(Form):
    """The form of one slot, from its spec: only the fields that slot takes."""

    def __init__(self, ws: Any, spec: SlotSpec, path: Path_, title: str) -> None:
        super().__init__(ws, title)
        self.spec = spec
        self.path = path
        fields = spec.required + spec.optional
        p = path
        self.logo: Picker | None = None
        self.film: Picker | None = None
        # what the checker says about the slot as a whole (a missing field, a rule across slots)
        whole = QLabel(tr("整个广告位"))
        whole.setObjectName("muted")
        self.add("", Field(ws, path, whole, exact=True))
        if "prize" in fields:
            self.text(tr("奖品"), (*p, "prize"), placeholder=tr("如 粮油礼包"))
        if "sponsor" in fields:
            self.combo(tr("赞助企业"), (*p, "sponsor"), sponsor_choices(ws), on_change=self._sponsor_chosen)
        if "slogan" in fields:
            self.text(tr("广告语"), (*p, "slogan"), placeholder=tr("格子背面的广告语"))
        if "role" in fields:
            self.text(tr("鸣谢文字"), (*p, "role"), placeholder=tr("如 本节目礼品由小当家独家提供"))
        if "contract" in fields:
            signed = tr("签约日期（定播出顺序）") if spec.need_signed else tr("签约日期")
            self.text(
                signed,
                (*p, "contract", "signed"),
                placeholder="2012-03-15 14:30",
                required=spec.need_signed,
                typed=True,
                finished=self._signed if spec.kind == "supporter" else None,
            )
            self.text(tr("合同开始"), (*p, "contract", "start"), placeholder="2012-04-01", typed=True)
            self.text(tr("合同结束"), (*p, "contract", "end"), placeholder="2012-12-30", typed=True)
        if "price" in fields:
            self._price(p)
        if "seconds" in fields:
            self.combo(
                tr("时长（秒）"),
                (*p, "seconds"),
                lambda: [(s, tr("{s} 秒").format(s=s)) for s in SPOT_LENGTHS],
                on_change=self._spot_seconds,
            )
        if "bumper" in fields:
            row = QWidget()
            h = QHBoxLayout(row)
            h.setContentsMargins(0, 0, 0, 0)
            edit = QLineEdit()
            edit.setObjectName("field_" + "_".join(map(str, (*p, "bumper", "text"))))
            edit.setPlaceholderText(tr("须念出企业名称"))
            fill = QPushButton(tr("按方案"))
            fill.setToolTip(tr("按招商方案的标版写法填入"))
            h.addWidget(edit, 1)
            h.addWidget(fill)

            def read(edit: QLineEdit = edit) -> None:
                if not edit.hasFocus():
                    edit.setText(shown(ws.draft.get((*p, "bumper", "text"))))

            edit.textEdited.connect(lambda t: ws.edit((*p, "bumper", "text"), t.strip()))
            fill.clicked.connect(self.fill_bumper)
            self.bumper_edit = edit
            self.add(tr("{s}秒标版文字").format(s=BUMPER_SECONDS), Field(ws, (*p, "bumper"), row), read)
        if "film" in fields:
            self.film = Picker(ws, (*p, "film"), "film")
            self.add(tr("宣传片"), Field(ws, (*p, "film"), self.film), self.film.read)
            self.text(tr("宣传片编号"), (*p, "film", "id"), placeholder=tr("如 xiaodangjia_15s"))
        if "logo" in fields:
            self.logo = Picker(ws, (*p, "logo"), "logo")
            note = tr("LOGO") if "logo" in spec.required else tr("LOGO（不填用企业的）")
            self.add(note, Field(ws, (*p, "logo"), self.logo), self.logo.read)
        if "lines" in fields:
            self.lines(tr("流字（每行一条）"), (*p, "lines"))
        if "minimums" in fields:
            self._minimums(p)
        if "on_air" in fields:
            self.text(
                tr("上屏图形"), (*p, "on_air", "graphics"), placeholder=tr("默认按广告位"), required=False
            )
            self._list_field((*p, "on_air", "graphics"))
            self.text(
                tr("OBS 场景"),
                (*p, "on_air", "scenes"),
                placeholder=tr("如 桌面俯拍（逗号分隔）"),
                required=False,
            )
            self._list_field((*p, "on_air", "scenes"))
        if "notes" in fields:
            self.text(tr("备注"), (*p, "notes"), required=False)

    def _list_field(self, path: Path_) -> None:
        """A comma-separated line written as a YAML list."""
        f = self.fields[path]
        edit = f.editor
        assert isinstance(edit, QLineEdit)
        edit.textEdited.disconnect()

        def write(t: str) -> None:
            items = [x.strip() for x in t.replace("，", ",").split(",") if x.strip()]
            self.ws.edit(path, items or None)

        def read() -> None:
            if not edit.hasFocus():
                value = self.ws.draft.get(path)
                edit.setText(", ".join(map(str, value)) if isinstance(value, list) else shown(value))

        edit.textEdited.connect(write)
        self._readers.append(read)
        read()

    def _price(self, p: Path_) -> None:
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        yuan = QLineEdit()
        yuan.setObjectName("field_" + "_".join(map(str, (*p, "price", "yuan"))))
        yuan.setPlaceholderText(tr("元"))
        per = QComboBox()
        per.setObjectName("field_" + "_".join(map(str, (*p, "price", "per"))))
        for k, v in PRICE_UNITS.items():
            per.addItem(tr("元/{u}").format(u=v), k)
        card = QPushButton(tr("刊例价"))
        self.card_label = QLabel()
        self.card_label.setObjectName("muted")
        h.addWidget(yuan, 1)
        h.addWidget(per)
        h.addWidget(card)
        h.addWidget(self.card_label)

        def read() -> None:
            value = self.ws.draft.get((*p, "price")) or {}
            if not yuan.hasFocus():
                yuan.setText(shown(value.get("yuan")) if isinstance(value, dict) else "")
            per.blockSignals(True)
            i = per.findData(value.get("per") if isinstance(value, dict) else None)
            per.setCurrentIndex(max(0, i))
            per.blockSignals(False)
            self.card_label.setText(price_label(self.spec.kind, self._seconds()))

        yuan.textEdited.connect(lambda t: self.ws.edit((*p, "price", "yuan"), yaml_value(t)))
        per.currentIndexChanged.connect(
            lambda i: self.ws.edit((*p, "price", "per"), per.itemData(i), now=True)
        )
        card.clicked.connect(self.fill_price)
        self.add(tr("价格"), Field(self.ws, (*p, "price"), row), read)

    def _seconds(self) -> int | None:
        value = self.ws.draft.get((*self.path, "seconds"))
        return int(value) if isinstance(value, int) else None

    def fill_price(self) -> None:
        """The rate card's price for this slot (docs/sponsorship.md)."""
        if self.spec.kind == "spot":
            yuan, per = SPOT_LIST_PRICE.get(self._seconds() or 15, 2500), "airing"
        elif self.spec.kind in LIST_PRICE:
            yuan, per = LIST_PRICE[self.spec.kind]
        else:
            return
        self.ws.edit((*self.path, "price"), {"yuan": yuan, "per": per}, now=True)
        self.refresh()

    def fill_bumper(self) -> None:
        sid = self.ws.draft.get((*self.path, "sponsor"))
        name = dict(self.ws.draft.sponsors()).get(str(sid), "") if sid else ""
        show = self.ws.draft.get(("show",)) or "够级大明星"
        role = CREDIT_ROLES.get(self.spec.kind, "播出")
        self.ws.edit((*self.path, "bumper", "text"), f"《{show}》栏目由“{name}”{role}", now=True)
        self.refresh()

    def _signed(self) -> None:
        """A signing date typed in: the 赞助播出 take their airing order and the window follows this slot
        to its place — after this event is done with (the form is built anew)."""
        ws, path = self.ws, self.path
        QTimer.singleShot(0, lambda: ws.reorder(path))

    def _sponsor_chosen(self, _sid: Any) -> None:
        QTimer.singleShot(0, self.ws.structure.emit)  # lists redraw once this combo's signal is done

    def _spot_seconds(self, seconds: Any) -> None:
        film = self.ws.draft.get((*self.path, "film"))
        if isinstance(film, dict) and isinstance(seconds, int):
            self.ws.edit((*self.path, "film", "seconds"), seconds, now=True)
        self.refresh()

    def _minimums(self, p: Path_) -> None:
        kind = self.spec.kind
        keys = [
            k
            for k in MINIMUM_KEYS
            if (k != "bumper" or self.spec.bumper)
            and (k != "film" or self.spec.film)
            and (k != "coverage" or kind == "special")
            and (k != "draws" or kind == "cell")
        ]
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        for k in keys:
            edit = QLineEdit()
            edit.setObjectName("field_" + "_".join(map(str, (*p, "minimums", k))))
            promised = DEFAULT_MINIMUMS[kind].get(k)
            edit.setPlaceholderText(f"{promised:g}" if promised is not None else "—")
            edit.setToolTip(MINIMUM_KEYS[k])
            edit.setMaximumWidth(70)
            h.addWidget(QLabel(MINIMUM_KEYS[k].replace("次数", "").replace("百分比", "%")))
            h.addWidget(edit)

            def write(t: str, k: str = k) -> None:
                self.ws.edit((*p, "minimums", k), yaml_value(t) if t.strip() else None)
                if not self.ws.draft.get((*p, "minimums")):
                    self.ws.edit((*p, "minimums"), None)

            def read(edit: QLineEdit = edit, k: str = k) -> None:
                if not edit.hasFocus():
                    edit.setText(shown((self.ws.draft.get((*p, "minimums")) or {}).get(k)))

            edit.textEdited.connect(write)
            self._readers.append(read)
            read()
        h.addStretch(1)
        self.add(tr("每期至少（空 = 按方案）"), Field(self.ws, (*p, "minimums"), row))


def new_slot(ws: Any, section: str, sponsor: str) -> Path_:
    """Add a slot of ``section`` for ``sponsor`` to the draft, filled from the rate card; its path."""
    from broadcast.sponsors.placements.slots import SPEC_OF

    spec = SPEC_OF[section]
    draft = ws.draft
    today = date.today()
    value: dict[str, Any] = {}
    if "sponsor" in spec.required:
        value["sponsor"] = sponsor
    if "contract" in spec.required:
        per = LIST_PRICE.get(spec.kind, (0, "year"))[1]
        end = today + (timedelta(days=30) if per == "month" else timedelta(days=364))
        value["contract"] = {**({"signed": today} if spec.need_signed else {}), "start": today, "end": end}
    if spec.kind == "spot":
        value["seconds"] = 15
    if "price" in spec.required:
        if spec.kind == "spot":
            value["price"] = {"yuan": SPOT_LIST_PRICE[15], "per": "airing"}
        elif spec.kind in LIST_PRICE:
            yuan, per = LIST_PRICE[spec.kind]
            value["price"] = {"yuan": yuan, "per": per}
    if spec.bumper:
        name = dict(draft.sponsors()).get(sponsor, sponsor)
        show = draft.get(("show",)) or "够级大明星"
        value["bumper"] = {"text": f"《{show}》栏目由“{name}”{CREDIT_ROLES.get(spec.kind, '播出')}"}
    if spec.kind == "ticker":
        name = dict(draft.sponsors()).get(sponsor, sponsor)
        value["lines"] = [f"《{draft.get(('show',)) or '够级大明星'}》由{name}独家冠名播出"]
    if spec.kind == "credits":
        value = {"role": "", "sponsor": sponsor}
    if spec.kind == "cell":
        cells = draft.get(("jiugongge", "cells"))
        if not isinstance(cells, list):
            empty = {
                "prize": "",
                "sponsor": sponsor,
                "slogan": "",
                "logo": "",
                "contract": {"start": today, "end": today + timedelta(days=30)},
                "price": {"yuan": LIST_PRICE["cell"][0], "per": "month"},
            }
            draft.set(("jiugongge",), {"cells": []})
            for _ in range(9):
                draft.append(("jiugongge", "cells"), dict(empty))
        ws.changed_structure()
        return ("jiugongge", "cells", 0)
    if spec.many or spec.inside:
        where: Path_ = (section, spec.inside) if spec.inside else (section,)
        i = draft.append(where, value)
        item = draft.get(where)[i]
        ws.changed_structure()  # 赞助播出 go to their place in signing order
        at = next(n for n, x in enumerate(draft.get(where)) if x is item)
        return (*where, at)
    draft.set((section,), value)
    ws.changed_structure()
    return (section,)


def slot_title(spec: SlotSpec) -> str:
    return KIND_LABELS[spec.kind]
