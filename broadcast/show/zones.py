"""What may share program: the one table of zones and layers (``zones`` in overlays/tokens.json), the way
CasparCG and vMix keep one graphic per layer.

Every change of the program bus goes through here — a TAKE or CUT (:func:`take`), one graphic put on or
taken off (:func:`put`: ``graphic.set`` on program, a cue's GO and its end), a panic (:func:`panic`) —
and :func:`verdict` decides, for a graphic coming on (the newer) and each graphic already on program
(the older), one of:

* ``coexist`` — other layers, boxes apart: both stay;
* ``replace`` — the same layer: the older goes off (with its own out-transition on the pages; a
  full-frame item hands what it holds to the newer);
* ``cover``  — the newer is a full-frame item (bumper, 九宫格, 英雄榜, credits) that clears the older's
  layer: the older goes off program and is held in ``graphics.held`` until the full-frame item ends,
  when it comes back if the item restores it;
* ``refuse`` — the older is a full-frame item that clears the newer, or their boxes overlap on other
  layers: the action is refused with the reason (the console and the HTTP control API show it).

The pages and the native OBS graphics are placed by the same table (tokens.css, each picture's frame),
so what the store lets onto program never overlaps on screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from broadcast import tokens as T
from broadcast.core import ActionRefused, State

Verdict = Literal["coexist", "replace", "cover", "refuse"]

# each graphic's name on air, for the operator's refusals
ZH = {
    "scoreboard": "比分牌",
    "jipaiqi": "记牌器",
    "winprob": "胜率",
    "lower_third": "人名条",
    "commentary": "解说区",
    "ticker": "底线流字",
    "corner_bug": "角标",
    "bumper": "标版",
    "jiugongge": "九宫格",
    "leaderboard": "英雄榜",
    "qualifiers": "海选榜",
    "credits": "片尾",
}
EN = {
    "scoreboard": "the scoreboard",
    "jipaiqi": "the card counter",
    "winprob": "the win-probability bar",
    "lower_third": "the lower third",
    "commentary": "the commentary plate",
    "ticker": "the ticker",
    "corner_bug": "the corner bug",
    "bumper": "the bumper",
    "jiugongge": "the prize grid",
    "leaderboard": "the leaderboard",
    "qualifiers": "the qualifier board",
    "credits": "the credits",
}


def full_frame(graphic: str) -> bool:
    """Is ``graphic`` a full-frame item (bumper, 九宫格, 英雄榜, credits)?"""
    return graphic in T.zones() and T.zone(graphic).full


def overlap(a: str, b: str) -> bool:
    """Do the boxes of graphics ``a`` and ``b`` share any pixel?"""
    ax0, ay0, ax1, ay1 = T.zone(a).edges
    bx0, by0, bx1, by1 = T.zone(b).edges
    return min(ax1, bx1) > max(ax0, bx0) and min(ay1, by1) > max(ay0, by0)


def verdict(newer: str, older: str) -> Verdict:
    """What the table does when ``newer`` comes onto program while ``older`` is on it."""
    n, o = T.zone(newer), T.zone(older)
    if n.layer == o.layer:
        return "replace"
    if older in n.clears:
        return "cover"
    if newer in o.clears or overlap(newer, older):
        return "refuse"
    return "coexist"


def reason(newer: str, older: str) -> tuple[str, str]:
    """The operator's words (中文, English) for a refused ``newer``."""
    if newer in T.zone(older).clears:
        return (
            f"{ZH[older]}（全屏）在播出中，{ZH[newer]}不能同时上屏；{ZH[older]}下屏后再上",
            f"{EN[older]} (full frame) is on air: {EN[newer]} cannot go on with it; take it after",
        )
    return (
        f"{ZH[newer]}与播出中的{ZH[older]}位置重叠，未上屏",
        f"{EN[newer]} would overlap {EN[older]} on air: not taken",
    )


def _refuse(newer: str, older: str) -> ActionRefused:
    zh, en = reason(newer, older)
    return ActionRefused("zones", zh, en)


def _held(state: State) -> dict[str, Any]:
    graphics = state["graphics"]
    held: dict[str, Any] = graphics.setdefault("held", {})
    return held


def put(state: State, graphic: str, on: bool, item: str | None = None, *, defer: bool = False) -> None:
    """Put one graphic on program (``item``: its item, else the one it has) or take it off, by the
    table. Refused (``ActionRefused``, nothing changed) when the table refuses it — except, with
    ``defer`` (a cue of the rundown), a graphic a full-frame item on air clears: it is held under that
    item and comes on when the item ends."""
    program = state["graphics"]["program"]
    held = _held(state)
    entry = program[graphic]
    if not on:
        held.pop(graphic, None)
        if entry["on"]:
            entry["on"] = False
            _ended(state, graphic, successor=None)
        return
    if graphic in held:  # covered by the full-frame item on air: it comes back when that ends
        if item is not None:
            held[graphic]["item"] = item
        return
    if entry["on"]:
        if item is not None:
            entry["item"] = item
        return
    on_air = [g for g, e in program.items() if e["on"] and g != graphic]
    verdicts = {g: verdict(graphic, g) for g in on_air}
    for g, v in verdicts.items():
        if v == "refuse":
            if defer and graphic in T.zone(g).restores:
                held[graphic] = {"item": entry["item"] if item is None else item, "by": g}
                return
            raise _refuse(graphic, g)
    for g, v in verdicts.items():
        if v == "replace":
            program[g]["on"] = False
            _ended(state, g, successor=graphic)
        elif v == "cover":
            program[g]["on"] = False
            held[g] = {"item": program[g]["item"], "by": graphic}
    entry["on"] = True
    if item is not None:
        entry["item"] = item


def _ended(state: State, graphic: str, successor: str | None) -> None:
    """``graphic`` left program: what it held goes to the full-frame item that replaced it, else comes
    back if it restores it (and nothing on program now refuses it)."""
    held = _held(state)
    mine = [g for g, h in held.items() if h.get("by") == graphic]
    if not mine:
        return
    if successor is not None and T.zone(successor).full:
        for g in mine:
            if g in T.zone(successor).clears:
                held[g]["by"] = successor
            else:
                del held[g]
        return
    program = state["graphics"]["program"]
    restores = T.zone(graphic).restores
    for g in mine:
        back = held.pop(g)
        if g not in restores:
            continue
        on_air = [o for o, e in program.items() if e["on"]]
        if all(verdict(g, o) == "coexist" for o in on_air):
            program[g]["on"] = True
            program[g]["item"] = str(back.get("item", program[g]["item"]))


def take(state: State) -> None:
    """TAKE/CUT: program becomes what preview shows, by the table (preview is kept). What program shows
    and preview does not goes off first; then what preview adds comes on, the graphics first and the
    full-frame item last (so it covers them, to bring them back when it ends). Graphics held under the
    full-frame item on air stay held while preview still shows them."""
    want: Mapping[str, Any] = state["graphics"]["preview"]
    program = state["graphics"]["program"]
    held = _held(state)
    full = [g for g, e in want.items() if e["on"] and T.zone(g).full]
    if len(full) > 1:
        a, b = full[0], full[1]
        raise ActionRefused(
            "zones",
            f"预览里{ZH[a]}和{ZH[b]}同时在上（都是全屏），只能上一个",
            f"preview holds {EN[a]} and {EN[b]}, both full frame: only one can be taken",
        )
    for g in list(held):
        if not want[g]["on"]:
            del held[g]
    for g, e in program.items():
        if e["on"] and not want[g]["on"]:
            put(state, g, False)
    order = sorted(want, key=lambda g: (T.zone(g).full, T.zone(g).layer))
    for g in order:
        if want[g]["on"]:
            put(state, g, True, str(want[g]["item"]))


def panic(state: State, buses: tuple[str, ...]) -> None:
    """Every graphic off ``buses`` at once; nothing held comes back."""
    for bus in buses:
        for entry in state["graphics"][bus].values():
            entry["on"] = False
    _held(state).clear()


def on_program(state: Mapping[str, Any]) -> list[str]:
    """The graphics on program, bottom layer first."""
    program = state["graphics"]["program"]
    return [g for g in T.zones() if program.get(g, {}).get("on")]
