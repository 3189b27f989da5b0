"""The studio's on-air operations, one table for every control surface: the console's keys and
buttons, the HTTP control API (a Stream Deck through Bitfocus Companion) and scripts.

    for type_, payload in actions("take", state, {}):        # → [("bus.take", {})]
        store.dispatch(type_, payload)
    actions("mention", state, {"sponsor": "xiaodangjia"})   # → [("sponsor.mention", {…})]
    actions("lower_third", state, {"seat": 3})              # → the seat's name on the lower third, on preview

Each operation is the existing reducers of its component (``graphic.set``, ``bus.take``, ``bus.cut``,
``bus.panic``, ``graphic.clear``, ``cues.go``, ``sponsor.mention``, ``sponsor.shot``,
``lower_third.set``, ``jiugongge.draw`` …): nothing here changes the state. Bad parameters raise
:class:`ControlError` (Chinese and English, and the parameter) before anything is dispatched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from broadcast.errors import GoujiError, plural
from broadcast.show.actions import GRAPHICS
from broadcast.sponsors.actions import SHOT_SLOTS

Step = tuple[str, dict[str, Any]]
# a gate on GO (the console's pre-show check, broadcast.console.preflight): given the state and whether
# the surface confirmed (``go {confirm: true}``), the steps to dispatch before the GO (the record of the
# confirmation), or a ControlError refusing it
GoGate = Callable[[Mapping[str, Any], bool], list[Step]]

GRAPHIC_ZH = {
    "scoreboard": "比分",
    "leaderboard": "英雄榜",
    "qualifiers": "海选榜",
    "jiugongge": "九宫格",
    "corner_bug": "角标",
    "bumper": "标版",
    "ticker": "字幕条",
    "credits": "片尾",
    "commentary": "解说区",
    "lower_third": "人名条",
    "jipaiqi": "记牌器",
    "winprob": "胜率",
}
SHOT_ZH = {
    "table": "桌面镜头",
    "jiugongge_board": "九宫格下方镜头",
    "prize_stand": "奖品台镜头",
    "shirts": "文化衫镜头",
    "commentary": "解说区镜头",
}


class ControlError(GoujiError, ValueError):
    """A control operation with bad parameters: ``ControlError("control", zh, en, param=name)``;
    ``str()`` is the Chinese message."""

    rule = "control"

    def __init__(self, rule: str = "", zh: str = "", en: str = "", *, param: str = "") -> None:
        self.param = param
        super().__init__(rule, zh, en)

    def text(self) -> str:
        return self.zh


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # JSON Schema type: string, integer, boolean
    zh: str
    en: str
    required: bool = False
    enum: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Operation:
    name: str
    zh: str
    en: str
    params: tuple[Param, ...]
    build: Callable[[Mapping[str, Any], dict[str, Any]], list[Step]]


GRAPHIC = Param("graphic", "string", "图形", "graphic", True, tuple(GRAPHICS))


def _graphic(params: dict[str, Any]) -> str:
    g = params.get("graphic")
    if g not in GRAPHICS:
        raise ControlError(
            "control",
            f"没有这个图形：{g!r}（可用：{'、'.join(GRAPHICS)}）",
            f"unknown graphic {g!r} (known: {', '.join(GRAPHICS)})",
            param="graphic",
        )
    return str(g)


def _int(params: dict[str, Any], name: str, lo: int, hi: int) -> int:
    v = params.get(name)
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v.strip())
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ControlError(
            "control", f"{name} 应为 {lo}–{hi} 的整数，不是 {v!r}", f"{name} must be {lo}..{hi}", param=name
        )
    return v


def _text(params: dict[str, Any], name: str, limit: int = 40) -> str:
    v = params.get(name, "")
    if not isinstance(v, str):
        raise ControlError("control", f"{name} 应为文字", f"{name} must be a string", param=name)
    v = v.strip()
    if len(v) > limit:
        raise ControlError(
            "control", f"{name} 太长（最多 {limit} 字）", f"{name} longer than {limit}", param=name
        )
    return v


def _bool(params: dict[str, Any], name: str) -> bool | None:
    v = params.get(name)
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "1", "on", "false", "0", "off"):
        return v.lower() in ("true", "1", "on")
    raise ControlError("control", f"{name} 应为 true 或 false", f"{name} must be true or false", param=name)


# ------------------------------------------------------------------------------------ operations
def _preview(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    g = _graphic(p)
    on = _bool(p, "on")
    if on is None:  # toggle
        on = not state["graphics"]["preview"][g]["on"]
    return [("graphic.set", {"bus": "preview", "graphic": g, "on": on})]


def _go(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    payload: dict[str, Any] = {}
    if p.get("expect"):
        payload["expect"] = _text(p, "expect", 80)
    return [("cues.go", payload)]


def _mention(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    sid = _text(p, "sponsor", 80)
    ids = [r["id"] for r in state["sponsors"]["roster"]]
    if sid not in ids:
        raise ControlError(
            "control",
            f"没有这个赞助商：{sid!r}（可用：{'、'.join(ids) or '无'}）",
            f"unknown sponsor {sid!r}",
            param="sponsor",
        )
    return [("sponsor.mention", {"sponsor": sid})]


def _mention_retract(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    payload: dict[str, Any] = {"reason": _text(p, "reason", 80) or "按错 / keyed by mistake"}
    if p.get("sponsor"):
        payload["sponsor"] = _mention(state, {"sponsor": p["sponsor"]})[0][1]["sponsor"]
    return [("sponsor.mention_retract", payload)]


def _shot(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    slot = p.get("slot")
    if slot not in SHOT_SLOTS:
        raise ControlError(
            "control",
            f"没有这个现场广告位：{slot!r}（可用：{'、'.join(SHOT_SLOTS)}）",
            f"unknown studio slot {slot!r} (known: {', '.join(SHOT_SLOTS)})",
            param="slot",
        )
    return [("sponsor.shot", {"slot": slot})]


def lower_third_for(state: Mapping[str, Any], seat: int | None) -> tuple[str, str]:
    """The lower third's two lines for a seated player (``seat`` 1–6) or the host (``None``)."""
    if seat is None:
        host = str(state["show"].get("host", "")) or "主持人"
        title = state["show"].get("title", "")
        return host, f"《{title}》主持人" if title else "主持人"
    s = state["table"]["seats"][seat - 1]
    team = state["table"]["teams"].get(s.get("team", ""), {})
    name = str(s.get("name") or "").strip()
    if not name or name == f"{seat}号位":  # no name (older matches stored the seat as one): the seat, as
        # the scoreboard shows it, said once (never 3号位 over "… · 3号位"); the team's on-air label under it
        return f"{seat}号位", str(team.get("label") or team.get("name") or "")
    return name, f"{team.get('name') or ''} · {seat}号位".lstrip(" ·")


def _lower_third(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    photo = ""
    if p.get("seat") is not None:
        seat = _int(p, "seat", 1, 6)
        name, line2 = lower_third_for(state, seat)
        photo = str(state["table"]["seats"][seat - 1].get("photo") or "")  # the season's, /assets/photos/
    elif _bool(p, "host"):
        name, line2 = lower_third_for(state, None)
    else:
        name, line2 = _text(p, "name"), _text(p, "line2")
        if not name:
            raise ControlError(
                "control", "请给出 seat、host 或 name", "give seat, host or name", param="name"
            )
    return [
        ("lower_third.set", {"name": name, "line2": line2, "photo": photo}),
        ("graphic.set", {"bus": "preview", "graphic": "lower_third", "on": True}),
    ]


def _draw(state: Mapping[str, Any], p: dict[str, Any]) -> list[Step]:
    contestant = _text(p, "contestant")
    if not contestant:
        raise ControlError("control", "请填写抽奖选手", "contestant missing", param="contestant")
    cell = _int(p, "cell", 1, 9)
    steps: list[Step] = [("jiugongge.draw", {"contestant": contestant, "cell": cell - 1})]
    if not state["graphics"]["program"]["jiugongge"]["on"]:  # the reveal must be on air
        for bus in ("preview", "program"):
            steps.append(
                ("graphic.set", {"bus": bus, "graphic": "jiugongge", "on": True, "item": contestant})
            )
    return steps


OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "take",
            "TAKE：预览上节目（带动画）",
            "TAKE: preview to program (animated)",
            (),
            lambda s, p: [("bus.take", {})],
        ),
        Operation(
            "cut",
            "CUT：预览立即上节目（无动画）",
            "CUT: preview to program at once",
            (),
            lambda s, p: [("bus.cut", {})],
        ),
        Operation(
            "panic",
            "紧急清屏：节目上的图形全部撤下",
            "panic: every graphic off program",
            (),
            lambda s, p: [("bus.panic", {})],
        ),
        Operation(
            "preview",
            "选择图形到预览（不给 on 则切换）",
            "select a graphic to preview (toggles without on)",
            (GRAPHIC, Param("on", "boolean", "开/关", "on or off")),
            _preview,
        ),
        Operation(
            "clear",
            "清除一个图形（节目和预览）",
            "clear one graphic (program and preview)",
            (GRAPHIC,),
            lambda s, p: [("graphic.clear", {"graphic": _graphic(p)})],
        ),
        Operation(
            "go",
            "GO：执行节目流程的下一条",
            "GO: run the next cue",
            (
                Param("expect", "string", "只在下一条是这一条时执行", "only if the next cue is this id"),
                Param(
                    "confirm",
                    "boolean",
                    "开录前检查有未通过项时仍然开始录制（同导播台的确认，播出记录里记下）",
                    "start the recording over the pre-show check's red lines (as the console's"
                    " confirmation; the as-run log records it)",
                ),
            ),
            _go,
        ),
        Operation("skip", "跳过下一条提示", "skip the next cue", (), lambda s, p: [("cues.skip", {})]),
        Operation(
            "mention",
            "口播 +1（主持人说出赞助商名称）",
            "host mention +1",
            (Param("sponsor", "string", "赞助商编号", "sponsor id", True),),
            _mention,
        ),
        Operation(
            "mention_retract",
            "撤销本期最后一次口播（按错；可指定赞助商），报告不计",
            "take back the episode's last 口播 (keyed by mistake; or a sponsor's last): reports drop it",
            (
                Param("sponsor", "string", "赞助商编号（不给则为最后一次）", "sponsor id (else the last)"),
                Param("reason", "string", "原因", "reason"),
            ),
            _mention_retract,
        ),
        Operation(
            "shot",
            "现场广告位出镜 +1",
            "studio placement on screen +1",
            (Param("slot", "string", "广告位", "slot", True, tuple(SHOT_SLOTS)),),
            _shot,
        ),
        Operation(
            "lower_third",
            "人名条：座位上的选手或主持人，放到预览",
            "lower third for a seat or the host, to preview",
            (
                Param("seat", "integer", "座位 1–6", "seat 1-6", minimum=1, maximum=6),
                Param("host", "boolean", "主持人", "the host"),
                Param("name", "string", "姓名", "name"),
                Param("line2", "string", "第二行", "second line"),
            ),
            _lower_third,
        ),
        Operation(
            "draw",
            "九宫格抽奖：选手选格，上节目揭晓",
            "九宫格 draw: the contestant's cell, revealed on air",
            (
                Param("contestant", "string", "选手", "contestant", True),
                Param("cell", "integer", "格子 1–9", "cell 1-9", True, minimum=1, maximum=9),
            ),
            _draw,
        ),
        Operation(
            "draw_clear",
            "收起九宫格揭晓",
            "hide the 九宫格 reveal",
            (),
            lambda s, p: [("jiugongge.clear", {})],
        ),
    )
}


def actions(name: str, state: Mapping[str, Any], params: dict[str, Any] | None = None) -> list[Step]:
    """The store actions operation ``name`` stands for now (raises ControlError on bad input)."""
    op = OPERATIONS.get(name)
    if op is None:
        raise ControlError(
            "control", f"没有这个操作：{name!r}", f"unknown operation {name!r}", param="operation"
        )
    params = dict(params or {})
    unknown = sorted(set(params) - {p.name for p in op.params})
    if unknown:
        raise ControlError(
            "control",
            f"{name} 没有参数 {', '.join(unknown)}",
            f"{name} has no {plural(len(unknown), 'parameter')} {', '.join(unknown)}",
            param=unknown[0],
        )
    return op.build(state, params)


def run(
    store: Any,
    name: str,
    params: dict[str, Any] | None = None,
    *,
    source: str = "control",
    before_go: GoGate | None = None,
) -> Any:
    """Dispatch operation ``name`` on ``store`` (blocking: a store thread, never a UI or event loop);
    returns the last Change. A refused step stops the rest (ActionRefused propagates). A GO passes
    ``before_go`` first (the HTTP control API's GO, when the console gates the recording's start)."""
    steps = actions(name, store.state, params)
    if name == "go" and before_go is not None:
        steps = before_go(store.state, bool(_bool(dict(params or {}), "confirm"))) + steps
    change = None
    for type_, payload in steps:
        change = store.dispatch(type_, payload, source=source)
    return change
