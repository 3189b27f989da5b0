"""The 胜率 dock: each team's estimated chance of winning after every decision of the game, as a chart
the operator reads at a glance (issue 25).

Above the chart, each team's latest figure in its colour (its name elided to the room there is, the
figure always whole) and a level game's share between them; under them one line saying what the
figures are of: ``第46步后 · 1000次推演 · 已录手牌``, or ``第47步 估算中…`` from the moment a decision is
keyed until the evaluator's figures for it are in the state (the last figures stay, dimmed). The chart:
the two teams' lines over the game's decisions (0 … 100 %, the 50 % line marked), the latest point of
each as a dot, the key moments (烧牌, 闷, 让牌, 够级牌活了 …) as ticks under the lines; a hover names the
decision, its move and its figures.

A view only: it reads ``state["winprob"]`` (``on``, ``current``) and ``state["winprob_history"]`` (the
points, and the digest of the deal they are of: a history of another deal — a new game, hands entered
since — is not shown as this game's). Everything it paints comes from :func:`chart_layout`, which the
tests read too (every text inside the widget, every line inside the plot, the latest point at the
state's figure). Repainted only when one of those sections, the record's length or the teams change,
so typing is never slowed by it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from broadcast.qt import i18n, theme
from broadcast.qt.i18n import QT_TRANSLATE_NOOP, tr

CTX = "WinprobDock"
TITLE = QT_TRANSLATE_NOOP("WinprobDock", "胜率 WIN %")
MARGIN = 8.0
MIN_SIZE = QSize(240, 150)
# the decisions whose tick marks the chart (engine.winprob.MOMENTS keys)
KEY_MOMENTS = ("burn", "fan_shao", "jie_shao", "zha_shao", "men", "yield", "lived", "quan_san", "revolt")


_L = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
_R = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
_C = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter


def percent(p: float) -> int:
    """A probability as a whole percentage, halves up (the 胜率 graphic's rounding: JavaScript's
    Math.round), so the console says what the air says."""
    return int(math.floor(p * 100 + 0.5))


@dataclass(frozen=True)
class Point:
    moves: int
    odd: float
    even: float
    line: str = ""
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChartView:
    """What the chart shows, read from the state (:func:`view_of`)."""

    on: bool = True
    started: bool = False  # a game is dealt
    moves: int = 0  # decisions in the record now
    points: tuple[Point, ...] = ()  # this deal's history
    level: float | None = None  # P(level game) of the latest point, when the current estimate is it
    playouts: int = 0
    hands: str = ""  # known / sampled / over (of the latest point)
    names: tuple[str, str] = ("", "")  # odd, even (the teams' names; '' = unnamed)
    colours: tuple[str, str] = ("#d9534f", "#3b7dd8")

    @property
    def pending(self) -> bool:
        """A decision waits for its figures: the latest point is of an earlier position."""
        return self.on and self.started and (not self.points or self.points[-1].moves != self.moves)


def view_of(state: dict[str, Any]) -> ChartView:
    from broadcast.winprob.actions import game_key

    wp = state.get("winprob") or {}
    kept = state.get("winprob_history") or {}
    game = state["game"]
    table = state["table"]
    started = game.get("leader") is not None
    moves = len(game["record"])
    points: tuple[Point, ...] = ()
    if started and kept.get("history") and kept.get("game") == game_key(state):
        points = tuple(
            Point(
                int(h["moves"]),
                float(h["odd"]),
                float(h["even"]),
                str(h.get("line", "")),
                tuple(str(t) for t in h.get("tags", ())),
            )
            for h in kept["history"]
            if int(h["moves"]) <= moves
        )
    cur = wp.get("current")
    level = playouts = None
    hands = ""
    if points and cur and cur.get("moves") == points[-1].moves and cur.get("game_no") == table["game_no"]:
        level = float(cur.get("level", 0.0))
        playouts = int(cur.get("playouts", 0))
        hands = str(cur.get("hands", ""))
    teams = table["teams"]
    return ChartView(
        on=bool(wp.get("on", True)),
        started=started,
        moves=moves,
        points=points,
        level=level,
        playouts=playouts or 0,
        hands=hands,
        names=(str(teams["odd"].get("name") or ""), str(teams["even"].get("name") or "")),
        colours=(str(teams["odd"].get("color") or "#d9534f"), str(teams["even"].get("color") or "#3b7dd8")),
    )


@dataclass
class Text:
    rect: QRectF
    text: str
    colour: str
    font: QFont
    align: Qt.AlignmentFlag


@dataclass
class ChartLayout:
    """Everything :class:`WinprobChart` paints, in widget coordinates."""

    texts: list[Text] = field(default_factory=list)
    plot: QRectF = field(default_factory=QRectF)
    grid: list[tuple[float, bool]] = field(default_factory=list)  # y, is the 50 % line
    lines: dict[str, list[QPointF]] = field(default_factory=dict)  # odd/even → polyline
    latest: dict[str, QPointF] = field(default_factory=dict)
    ticks: list[tuple[float, Point]] = field(default_factory=list)  # x, the decision
    now_x: float | None = None  # the decision waiting for its figures
    xmax: int = 1

    def x_of(self, moves: float) -> float:
        return self.plot.left() + self.plot.width() * moves / self.xmax

    def y_of(self, p: float) -> float:
        return self.plot.bottom() - self.plot.height() * p


def _fonts() -> tuple[QFont, QFont, QFont]:
    return (
        theme.font(theme.SIZE_NAME, bold=True),
        theme.font(theme.SIZE_BASE),
        theme.font(theme.SIZE_BASE - 2),
    )


def _team_label(view: ChartView, k: int) -> str:
    return view.names[k] or (tr("单号队") if k == 0 else tr("双号队"))


def _status(view: ChartView) -> str:
    if not view.on:
        return tr("胜率估算已关闭")
    if not view.started:
        return tr("开局后每一步显示两队胜率（估算）")
    if view.pending:
        if view.points:
            return tr("第{n}步 估算中… 图为第{m}步后").format(n=view.moves, m=view.points[-1].moves)
        return tr("第{n}步 估算中…").format(n=view.moves) if view.moves else tr("开局 估算中…")
    last = view.points[-1]
    where = tr("第{m}步后").format(m=last.moves) if last.moves else tr("开局")
    if view.hands == "over":
        return tr("{where} · 终局").format(where=where)
    how = {"known": tr("已录手牌"), "sampled": tr("未录手牌，抽样")}.get(view.hands, "")
    parts = [where, tr("%n次推演估算", "", int(view.playouts))] + ([how] if how else [])
    return " · ".join(parts)


def _step(span: int, room: float, label_w: float) -> int:
    """The x axis' label step: the first of 1, 2, 5, 10, 20, 50 … whose labels do not touch."""
    for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if room * s / max(1, span) >= max(label_w * 2, label_w + 28):
            return s
    return 10000


def chart_layout(view: ChartView, width: float, height: float) -> ChartLayout:
    """Where every text, grid line and point of the chart goes in a ``width`` × ``height`` widget."""
    big, base, small = _fonts()
    fb, fs, fm = QFontMetricsF(big), QFontMetricsF(base), QFontMetricsF(small)
    out = ChartLayout()
    inner = QRectF(MARGIN, MARGIN, max(1.0, width - 2 * MARGIN), max(1.0, height - 2 * MARGIN))
    y = inner.top()
    last = view.points[-1] if view.points else None
    # the header: each team's figure in its colour, its name elided to the room left; level between
    if last is not None:
        dim = view.pending or not view.on
        figs = [f"{percent(last.odd)}%", f"{percent(last.even)}%"]
        level = "" if view.level is None else tr("平 {p}%").format(p=percent(view.level))
        mid_w = fs.horizontalAdvance(level) + 16 if level else 12.0
        if inner.width() - 2 * max(fb.horizontalAdvance(f) for f in figs) < mid_w:
            level, mid_w = "", 12.0
        side = (inner.width() - mid_w) / 2
        hb = fb.height()
        for k in (0, 1):
            fig_w = fb.horizontalAdvance(figs[k])
            room = side - fig_w - 8
            name = fs.elidedText(_team_label(view, k), Qt.TextElideMode.ElideRight, room) if room > 0 else ""
            if name.endswith("…") and len(name) < 3:  # one character and the ellipsis says nothing
                name = ""
            name_w = fs.horizontalAdvance(name)
            colour = theme.MUTED if dim else view.colours[k]
            ny = y + (hb - fs.height()) / 2
            if k == 0:
                out.texts.append(
                    Text(QRectF(inner.left(), ny, name_w, fs.height()), name, theme.TEXT, base, _L)
                )
                fx = inner.left() + (name_w + 8 if name else 0)
                out.texts.append(Text(QRectF(fx, y, fig_w, hb), figs[k], colour, big, _L))
            else:
                out.texts.append(
                    Text(QRectF(inner.right() - name_w, ny, name_w, fs.height()), name, theme.TEXT, base, _R)
                )
                fx = inner.right() - name_w - (8 if name else 0) - fig_w
                out.texts.append(Text(QRectF(fx, y, fig_w, hb), figs[k], colour, big, _R))
        if level:
            lw = fs.horizontalAdvance(level)
            out.texts.append(
                Text(
                    QRectF(inner.center().x() - lw / 2, y + (hb - fs.height()) / 2, lw, fs.height()),
                    level,
                    theme.MUTED,
                    base,
                    _C,
                )
            )
        out.texts = [t for t in out.texts if t.text]
        y += hb + 2
    status = fm.elidedText(_status(view), Qt.TextElideMode.ElideRight, inner.width())
    colour = theme.ACCENT if view.pending else theme.MUTED
    out.texts.append(
        Text(QRectF(inner.left(), y, fm.horizontalAdvance(status), fm.height()), status, colour, small, _L)
    )
    y += fm.height() + 6
    # the plot: y labels on the left, the decisions' numbers underneath
    ylab_w = fm.horizontalAdvance("100%") + 6
    plot = QRectF(inner.left() + ylab_w, y + fm.height() / 2, inner.width() - ylab_w - 6, 0.0)
    plot.setBottom(inner.bottom() - fm.height() - 4)
    if plot.height() < 24 or plot.width() < 40:
        out.plot = QRectF(plot.topLeft(), QSize(0, 0))
        return out
    out.plot = plot
    last_moves = last.moves if last is not None else 0
    span = max(20, view.moves, last_moves)
    step = _step(span, plot.width(), fm.horizontalAdvance(str(span)))
    out.xmax = int(math.ceil(span / step) * step)
    for p in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.grid.append((out.y_of(p), p == 0.5))
        if p in (0.0, 0.5, 1.0):
            label = f"{percent(p)}%"
            ly = out.y_of(p) - fm.height() / 2
            out.texts.append(
                Text(QRectF(inner.left(), ly, ylab_w - 6, fm.height()), label, theme.MUTED, small, _R)
            )
    for m in range(0, out.xmax + 1, step):
        label = str(m)
        lw = fm.horizontalAdvance(label)
        lx = min(max(out.x_of(m) - lw / 2, plot.left()), inner.right() - lw)
        out.texts.append(Text(QRectF(lx, plot.bottom() + 4, lw, fm.height()), label, theme.MUTED, small, _C))
    for k, key in ((0, "odd"), (1, "even")):
        pts = [QPointF(out.x_of(pt.moves), out.y_of(pt.odd if k == 0 else pt.even)) for pt in view.points]
        out.lines[key] = pts
        if pts:
            out.latest[key] = pts[-1]
    out.ticks = [(out.x_of(pt.moves), pt) for pt in view.points if set(pt.tags) & set(KEY_MOMENTS)]
    if view.pending and view.moves:
        out.now_x = out.x_of(view.moves)
    return out


class WinprobChart(QWidget):
    """The chart (object name ``winprobChart``): follows the console's state, paints :func:`chart_layout`."""

    def __init__(self, console: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console = console
        self.setObjectName("winprobChart")
        self.setMinimumSize(MIN_SIZE)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.view = ChartView()
        self._seen: tuple[Any, ...] = ()
        self._layout: ChartLayout | None = None
        console.stateChanged.connect(self.refresh)
        console.estimated.connect(self.refresh)  # a new estimate: this view follows, the others need not
        self.refresh()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(440, 260)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return MIN_SIZE

    def refresh(self, force: bool = False) -> None:
        state = self.console.state
        table = state["table"]
        seen = (
            state.get("winprob"),
            state.get("winprob_history"),
            state["game"],  # the record's length and the deal (a history of another deal is not shown)
            table["teams"],
            table["game_no"],
        )
        if not force and seen == self._seen:  # (equal tuples: each section the same object, or equal)
            return
        self._seen = seen
        self.view = view_of(state)
        self._layout = None
        self.update()

    def chart(self) -> ChartLayout:
        """The layout at the widget's size now (what the next paint draws)."""
        if self._layout is None:
            self._layout = chart_layout(self.view, float(self.width()), float(self.height()))
        return self._layout

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self._layout = None
        super().resizeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        lay = self.chart()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(theme.PANEL))
        plot = lay.plot
        if plot.width() > 0:
            p.fillRect(plot, QColor("#0b0d11"))
            for gy, mid in lay.grid:
                pen = QPen(QColor(theme.MUTED if mid else theme.BORDER), 1)
                if mid:
                    pen.setStyle(Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.drawLine(QPointF(plot.left(), gy), QPointF(plot.right(), gy))
            for tx, _pt in lay.ticks:
                p.setPen(QPen(QColor(theme.WARN), 2))
                p.drawLine(QPointF(tx, plot.bottom()), QPointF(tx, plot.bottom() - 8))
            if lay.now_x is not None:
                pen = QPen(QColor(theme.ACCENT), 1)
                pen.setStyle(Qt.PenStyle.DotLine)
                p.setPen(pen)
                p.drawLine(QPointF(lay.now_x, plot.top()), QPointF(lay.now_x, plot.bottom()))
            dim = self.view.pending or not self.view.on
            p.setClipRect(plot.adjusted(-5, -5, 5, 5))
            for k, key in ((1, "even"), (0, "odd")):  # the odd team's line on top
                colour = QColor(self.view.colours[k])
                pts = lay.lines.get(key, [])
                p.setPen(QPen(colour, 2.5))
                if len(pts) > 1:
                    p.drawPolyline(pts)
                if key in lay.latest:
                    p.setPen(QPen(QColor(theme.TEXT if not dim else theme.MUTED), 1.5))
                    p.setBrush(colour)
                    p.drawEllipse(lay.latest[key], 4.5, 4.5)
                    p.setBrush(Qt.BrushStyle.NoBrush)
            p.setClipping(False)
        for t in lay.texts:
            p.setFont(t.font)
            p.setPen(QColor(t.colour))
            p.drawText(t.rect, int(t.align), t.text)
        p.end()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        lay = self.chart()
        pos = event.position()
        if not self.view.points or not lay.plot.adjusted(-6, -6, 6, 6).contains(pos):
            QToolTip.hideText()
            return
        pt = min(self.view.points, key=lambda q: abs(lay.x_of(q.moves) - pos.x()))
        QToolTip.showText(event.globalPosition().toPoint(), self.describe(pt), self)

    def describe(self, pt: Point) -> str:
        """A decision's line for the hover: which decision, its move, what happened, both figures."""
        from engine.winprob import MOMENTS

        en = i18n.current() == "en"
        head = tr("第{m}步后").format(m=pt.moves) if pt.moves else tr("开局")
        if pt.line:
            head += f"  {pt.line}"
        words = [MOMENTS[t][1 if en else 0] for t in pt.tags if t in MOMENTS]
        if words:
            head += "  (" + ", ".join(words) + ")"
        figs = tr("{odd} {p}% · {even} {q}%").format(
            odd=_team_label(self.view, 0),
            p=percent(pt.odd),
            even=_team_label(self.view, 1),
            q=percent(pt.even),
        )
        return head + "\n" + figs


def register(window: Any) -> WinprobChart:
    """The 胜率 dock, beside the cue list under the table and the record where the window has room for
    both, else a tab behind the sponsor events (:mod:`broadcast.console.layout` places it)."""
    chart = WinprobChart(window.console)
    dock = window.add_dock("winprob", TITLE, chart, Qt.DockWidgetArea.BottomDockWidgetArea, CTX)
    if "cues" in window._docks:
        window.splitDockWidget(window.dock("cues"), dock, Qt.Orientation.Horizontal)
    window.on_retranslate(lambda: chart.refresh(force=True))
    return chart
