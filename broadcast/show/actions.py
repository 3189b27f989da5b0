"""The show component: the show's fields, the lower third, and the graphics on the preview/program
buses (set, clear one, TAKE, CUT, panic). Its sections are in ``schema.json`` beside this file.

TAKE and CUT both make program what preview shows; ``graphics.transition`` tells the pages how: TAKE
with each graphic's own animation (``mix``), CUT and panic at once (``cut``). Every change of program
goes through the table of zones and layers (:mod:`broadcast.show.zones`): a graphic on the layer of
another replaces it, a full-frame item clears the graphics under it and brings them back when it ends,
and a graphic that would overlap what is on air is refused with the reason."""

from __future__ import annotations

from importlib import resources
from typing import Any

from broadcast.core import ActionRefused, Actions, Context, Fragment, Payload, State
from broadcast.errors import plural
from broadcast.show import zones

SCHEMA = Fragment(resources.files("broadcast.show").joinpath("schema.json"))
ACTIONS = Actions()
action = ACTIONS.action

BUSES = ("preview", "program")
# every graphic the pages render, in the schema's order (one source: the fragment's program bus)
GRAPHICS: tuple[str, ...] = tuple(SCHEMA.sections["graphics"]["properties"]["program"]["properties"])


def _bus(payload: Payload) -> str:
    bus = payload.get("bus", "preview")
    if bus not in BUSES:
        raise ActionRefused(
            "bus", f"没有这个通道：{bus!r}（应为 preview 或 program）", f"unknown bus {bus!r}"
        )
    return str(bus)


def _graphic(payload: Payload) -> str:
    g = payload.get("graphic")
    if g not in GRAPHICS:
        raise ActionRefused("graphic", f"没有这个图形：{g!r}", f"unknown graphic {g!r}")
    return str(g)


@action("graphic.set")
def graphic_set(state: State, payload: Payload, ctx: Context) -> None:
    """Show or hide one graphic on one bus: {bus, graphic, on, item?}."""
    bus, g = _bus(payload), _graphic(payload)
    on = bool(payload.get("on", True))
    item = str(payload["item"]) if "item" in payload else None
    if bus == "program":
        zones.put(state, g, on, item)
        state["graphics"]["transition"] = "mix"
        return
    entry = state["graphics"][bus][g]
    entry["on"] = on
    if item is not None:
        entry["item"] = item


@action("graphic.clear")
def graphic_clear(state: State, payload: Payload, ctx: Context) -> None:
    """Clear one graphic: off on program and on preview (so the next TAKE does not bring it back)."""
    g = _graphic(payload)
    state["graphics"]["preview"][g]["on"] = False
    zones.put(state, g, False)
    state["graphics"]["transition"] = "mix"


@action("bus.take")
def bus_take(state: State, payload: Payload, ctx: Context) -> None:
    """TAKE: program becomes what preview shows (preview is kept), each graphic with its animation."""
    zones.take(state)
    state["graphics"]["transition"] = "mix"


@action("bus.cut")
def bus_cut(state: State, payload: Payload, ctx: Context) -> None:
    """CUT: program becomes what preview shows at once (no animation)."""
    zones.take(state)
    state["graphics"]["transition"] = "cut"


@action("bus.panic")
def bus_panic(state: State, payload: Payload, ctx: Context) -> None:
    """Panic: every graphic off program at once (and off preview too when {all: true})."""
    zones.panic(state, BUSES if payload.get("all") else ("program",))
    state["graphics"]["transition"] = "cut"


_SHOW_FIELDS = ("title", "subtitle", "channel", "episode", "round", "air_date", "logo", "host")


@action("show.update")
def show_update(state: State, payload: Payload, ctx: Context) -> None:
    """Set show fields (title, episode, round, air date …)."""
    _update(state["show"], payload, _SHOW_FIELDS, "show")


@action("lower_third.set")
def lower_third_set(state: State, payload: Payload, ctx: Context) -> None:
    """The lower third's content: {name, line2, photo}."""
    _update(state["lower_third"], payload, ("name", "line2", "photo"), "lower_third")


def _update(target: dict[str, Any], payload: Payload, fields: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(payload) - set(fields))
    if unknown:
        raise ActionRefused(
            what,
            f"{what} 没有字段 {', '.join(unknown)}",
            f"{what} has no {plural(len(unknown), 'field')} {', '.join(unknown)}",
        )
    for k in fields:
        if k in payload:
            target[k] = str(payload[k])
