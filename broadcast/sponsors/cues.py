"""The episode's cue list in the journaled show state (section ``cues``): GO on one key, as QLab and the
CasparCG client run a rundown.

    store.dispatch("cues.load", cue_list(build_rundown(placements, episode="第7期")))
    store.dispatch("cues.go", {})                    # the next cue (the playhead)
    store.dispatch("cues.go", {"expect": "game_2"})  # … only if it is still game_2 (a second GO is refused)
    store.dispatch("cues.end", {"id": "bumper_title"})   # a timed cue ran out (the cue runner does this)

Which cue is next, what is running since when and until when, and what each GO'd cue became (done, cut
short, skipped, stopped by panic, failed, late by how much) are in the state, so a crash and a restart
bring the cue list back where it was. A GO applies the cue's graphics on **both** buses in the same
action (so a later TAKE never drops them from program) and ends the cue before it: a segment (a game,
a draw, the 英雄榜) runs until the next GO; a bumper or a film runs for its seconds, and the cue after it
starts by itself when it is marked ``follow`` (the opening bumpers in contract order and the opening
films). Taking the 英雄榜 off is what makes OBS roll its 冠名 film (the bridge), so the film cue that
follows the board is one GO. A cue GO'd more than :data:`LATE_S` seconds after it became due (the
timed cue before it had run out, leaving nothing from the rundown on air) is marked late.

Reducers are deterministic: time is ``ctx.ts`` (the store's clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Payload, State
from broadcast.show import zones

ACTIONS = Actions()
action = ACTIONS.action

LATE_S = 2.0  # a GO this long after the cue became due is late
CUT_SLACK = 0.5  # a timed cue ended this close to its length counts as run in full
TIMED = ("bumper", "film")
KINDS = ("graphic", "bumper", "film", "segment", "draw", "leaderboard", "credits")
FIELDS: tuple[str, ...] = (
    "id",
    "kind",
    "label",
    "graphic",
    "item",
    "action",
    "film",
    "sponsor",
    "sponsor_name",
)
FIELDS += ("notes", "label_en", "notes_en")  # the generated words in English (the console's English UI)


# --------------------------------------------------------------------------------- from the rundown
def cue_list(rundown: Any) -> dict[str, Any]:
    """The ``cues.load`` payload for a :class:`broadcast.sponsors.rundown.Rundown`: its cues as data,
    a timed cue right after another timed cue marked ``follow``, and a full-frame item right after a
    timed cue (the table of zones)."""
    out: list[dict[str, Any]] = []
    prev: Any = None
    for c in rundown.cues:
        d: dict[str, Any] = {k: str(getattr(c, k)) for k in FIELDS}
        d["seconds"] = int(c.seconds) if c.seconds else None
        d["follow"] = bool(prev is not None and c.kind in TIMED and prev.kind in TIMED and c.seconds)
        if prev is not None and prev.kind in TIMED and c.graphic and zones.full_frame(c.graphic):
            # a full-frame item right after a film or a bumper (the prizes' 九宫格 after the opening
            # films, the credits after the 英雄榜冠名 film) takes over from it: no frame of the studio
            d["follow"] = c.action != "off"
        out.append(d)
        prev = c
    return {"episode": str(rundown.episode), "cues": out}


def _normalise(cues: Any) -> list[dict[str, Any]]:
    if not isinstance(cues, list) or not cues:
        raise ActionRefused("cues", "节目流程是空的（没有任何提示）", "the cue list is empty")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, c in enumerate(cues, start=1):
        if not isinstance(c, dict):
            raise ActionRefused("cues", f"第 {n} 条提示不是对象", f"cue {n} is not an object")
        cid = str(c.get("id", "")).strip()
        if not cid or cid in seen:
            raise ActionRefused(
                "cues", f"第 {n} 条提示的编号为空或重复：{cid!r}", f"cue {n}: empty or repeated id {cid!r}"
            )
        seen.add(cid)
        kind = str(c.get("kind", ""))
        if kind not in KINDS:
            raise ActionRefused(
                "cues", f"提示 {cid} 的类别 {kind!r} 不认识", f"cue {cid}: unknown kind {kind!r}"
            )
        seconds = c.get("seconds")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 1):
            raise ActionRefused(
                "cues", f"提示 {cid} 的时长 {seconds!r} 无效", f"cue {cid}: bad seconds {seconds!r}"
            )
        if kind in TIMED and not seconds:
            raise ActionRefused(
                "cues", f"提示 {cid}（{kind}）需要时长", f"cue {cid}: a {kind} needs its seconds"
            )
        d: dict[str, Any] = {k: str(c.get(k, "") or "") for k in FIELDS}
        d["action"] = d["action"] or "on"
        d["seconds"] = seconds
        d["follow"] = bool(c.get("follow", False))
        out.append(d)
    return out


# ------------------------------------------------------------------------------------------ reducers
@action("cues.load")
def cues_load(state: State, payload: Payload, ctx: Context) -> None:
    """Install the episode's cue list: {episode, cues: [...], restart?}. The same episode with the same
    cues keeps its progress (a restart of the console loads it again), and so does a list loaded before
    the episode was named (the console opened on a new project, then the match was set up: its GOs were
    that episode's); ``restart: true`` starts over."""
    cues = _normalise(payload.get("cues"))
    episode = str(payload.get("episode", ""))
    cq = state["cues"]
    same = cq["episode"] in (episode, "") and [c["id"] for c in cq["list"]] == [c["id"] for c in cues]
    if same and not payload.get("restart"):
        cq["list"] = cues
        cq["episode"] = episode
        return
    state["cues"] = {
        "episode": episode,
        "list": cues,
        "next": 0,
        "current": None,
        "log": {},
        "due": None,
        "preflight": None,
    }


@action("cues.go")
def cues_go(state: State, payload: Payload, ctx: Context) -> None:
    """GO: start the next cue (or {index}); {expect: id} refuses if the next cue is no longer that one
    (a second press, or another desk GO'd first). Cues jumped over are marked skipped."""
    cq = state["cues"]
    lst = cq["list"]
    if not lst:
        raise ActionRefused("cues", "还没有节目流程（先载入赞助排期）", "no cue list loaded")
    i = payload.get("index", cq["next"])
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= len(lst):
        raise ActionRefused("cues", f"提示序号 {i!r} 无效（1–{len(lst)}）", f"cue index {i!r} out of range")
    if i == len(lst):
        raise ActionRefused("cues.end", "节目流程已经走完", "the cue list is through")
    expect = payload.get("expect")
    if expect is not None and expect != lst[i]["id"]:
        raise ActionRefused(
            "cues.expect",
            f"下一条已不是“{expect}”（现在是“{lst[i]['label']}”），未执行",
            f"the next cue is no longer {expect!r} (it is {lst[i]['id']!r}): not done",
        )
    now = float(ctx.ts)
    for j in range(cq["next"], i):
        cid = lst[j]["id"]
        if cid not in cq["log"]:
            cq["log"][cid] = _log("skipped", now, now)
    _start(state, i, now)


@action("cues.end")
def cues_end(state: State, payload: Payload, ctx: Context) -> None:
    """The running cue {id} ran out (or {status: failed, note}: it could not air); a following cue
    marked ``follow`` starts at once."""
    cq = state["cues"]
    cur = cq["current"]
    cid = str(payload.get("id", ""))
    if cur is None or cur["id"] != cid:
        raise ActionRefused("cues.stale", f"“{cid}”没有在运行", f"{cid!r} is not running")
    status = payload.get("status")
    if status not in (None, "done", "failed"):
        raise ActionRefused("cues", f"结束状态 {status!r} 无效", f"bad end status {status!r}")
    now = float(ctx.ts)
    timed = _cue(cq, cid)["kind"] in TIMED
    _finish(state, now, status, str(payload.get("note", "")))
    nxt = cq["next"]
    if nxt < len(cq["list"]) and cq["list"][nxt]["follow"] and timed:
        _start(state, nxt, now)
    elif timed:
        cq["due"] = now


@action("cues.skip")
def cues_skip(state: State, payload: Payload, ctx: Context) -> None:
    """Skip the next cue (it stays in the list, marked skipped)."""
    cq = state["cues"]
    i = cq["next"]
    if i >= len(cq["list"]):
        raise ActionRefused("cues.end", "节目流程已经走完，没有可跳过的提示", "nothing left to skip")
    now = float(ctx.ts)
    cq["log"][cq["list"][i]["id"]] = _log("skipped", now, now)
    cq["next"] = i + 1


@action("cues.next")
def cues_next(state: State, payload: Payload, ctx: Context) -> None:
    """Move the playhead to {index} without GO (0 … len: len means through)."""
    cq = state["cues"]
    i = payload.get("index")
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= len(cq["list"]):
        raise ActionRefused("cues", f"提示序号 {i!r} 无效", f"cue index {i!r} out of range")
    cq["next"] = i


@action("cues.stop")
def cues_stop(state: State, payload: Payload, ctx: Context) -> None:
    """Stop the running cue now (after a panic): its graphics off both buses, marked stopped."""
    if state["cues"]["current"] is None:
        return
    _finish(state, float(ctx.ts), "stopped", str(payload.get("reason", "")) or "紧急清屏")


@action("cues.preflight")
def cues_preflight(state: State, payload: Payload, ctx: Context) -> None:
    """The operator starts recording over red lines of the pre-show check (``broadcast.preflight``):
    {red: [the lines in Chinese], red_en: [in English]}, kept with the time (the as-run log records it
    as an operator's event, never as anything aired)."""
    red: Any = payload.get("red")
    red_en: Any = payload.get("red_en", red)
    if not (_texts(red) and _texts(red_en)):
        raise ActionRefused(
            "cues.preflight",
            "开录前检查的未通过项应为非空的文字列表",
            "the pre-show check's red lines must be a non-empty list of texts",
        )
    state["cues"]["preflight"] = {"ts": float(ctx.ts), "red": list(red), "red_en": list(red_en)}


def _texts(lines: Any) -> bool:
    return isinstance(lines, list) and bool(lines) and all(isinstance(x, str) and x for x in lines)


# ------------------------------------------------------------------------------------------ helpers
def _log(status: str, go: float, end: float = 0.0, late: float = 0.0, note: str = "") -> dict[str, Any]:
    return {"status": status, "go": go, "end": end, "late": round(late, 1), "note": note}


def _cue(cq: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in cq["list"] if c["id"] == cid)


def _show(state: State, graphic: str, on: bool, item: str = "") -> None:
    """A cue's graphic on or off: preview mirrors it, program by the table of zones (a full-frame cue
    clears what it covers and brings it back when it ends; a graphic cue GO'd under a full-frame item
    comes on when that item ends; a graphic the table refuses refuses the GO)."""
    entry = state["graphics"]["preview"][graphic]
    entry["on"] = on
    if on:
        entry["item"] = item
    zones.put(state, graphic, on, item if on else None, defer=True)
    state["graphics"]["transition"] = "mix"


def _start(state: State, i: int, now: float) -> None:
    cq = state["cues"]
    cue = cq["list"][i]
    due = cq.get("due")
    late = now - due if due is not None and now - due > LATE_S else 0.0
    cq["due"] = None
    cq["next"] = i + 1
    if cue["kind"] == "graphic":  # instant: on or off, the running segment goes on
        if cue["graphic"]:
            _show(state, cue["graphic"], cue["action"] != "off", cue["item"])
        cq["log"][cue["id"]] = _log("done", now, now, late)
        if cq["next"] >= len(cq["list"]) and cq["current"] is not None:
            _finish(state, now)  # the rundown is through: nothing of it stays running
        return
    _finish(state, now)
    if cue["graphic"] and cue["action"] != "play":
        _show(state, cue["graphic"], True, cue["item"])
    if cue["kind"] == "draw":
        state["jiugongge"]["draw"] = None  # the next contestant: no reveal yet
    ends = now + cue["seconds"] if cue["kind"] in TIMED and cue["seconds"] else None
    cq["current"] = {"id": cue["id"], "started": now, "ends": ends}
    cq["log"][cue["id"]] = _log("running", now, 0.0, late)


def _finish(state: State, now: float, status: str | None = None, note: str = "") -> None:
    """End the running cue: its graphic off both buses; done, or cut when a timed cue ended early."""
    cq = state["cues"]
    cur = cq["current"]
    if cur is None:
        return
    cue = _cue(cq, cur["id"])
    if status is None:
        status = "cut" if cur["ends"] is not None and now < cur["ends"] - CUT_SLACK else "done"
    entry = cq["log"].get(cue["id"]) or _log("running", cur["started"])
    entry.update(status=status, end=now)
    if note:
        entry["note"] = note
    cq["log"][cue["id"]] = entry
    if cue["graphic"] and cue["action"] != "play":
        _show(state, cue["graphic"], False)
    if cue["kind"] == "draw":
        state["jiugongge"]["draw"] = None
    cq["current"] = None


# --------------------------------------------------------------------------------- reading the state
@dataclass(frozen=True)
class CueView:
    """One row of the cue list as the console and the control API show it."""

    index: int
    cue: dict[str, Any]
    status: str  # "" (not yet), running, done, cut, skipped, stopped, failed
    is_next: bool
    go: float
    end: float
    late: float
    note: str
    remaining: float | None  # seconds left of a running timed cue


def rows(cq: dict[str, Any], now: float) -> list[CueView]:
    out = []
    cur = cq.get("current")
    for i, cue in enumerate(cq.get("list", [])):
        entry = cq.get("log", {}).get(cue["id"], {})
        remaining = None
        if cur is not None and cur["id"] == cue["id"] and cur.get("ends") is not None:
            remaining = max(0.0, float(cur["ends"]) - now)
        out.append(
            CueView(
                i,
                cue,
                str(entry.get("status", "")),
                i == cq.get("next", 0),
                float(entry.get("go", 0.0)),
                float(entry.get("end", 0.0)),
                float(entry.get("late", 0.0)),
                str(entry.get("note", "")),
                remaining,
            )
        )
    return out


def overdue(cq: dict[str, Any], now: float) -> str | None:
    """The id of the running timed cue whose time has run out at ``now`` (for ``cues.end``), if any."""
    cur = cq.get("current")
    if cur is not None and cur.get("ends") is not None and now >= float(cur["ends"]):
        return str(cur["id"])
    return None


def started_film(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The film cue this change of the ``cues`` section started (the cue runner plays it), if any."""
    cur = after.get("current")
    if cur is None:
        return None
    prev = before.get("current")
    if prev is not None and prev["id"] == cur["id"] and prev["started"] == cur["started"]:
        return None
    cue = _cue(after, cur["id"])
    return cue if cue["kind"] == "film" else None
