"""What the commentators' screen shows (解说区 monitor): built from the show state with the engine, for the
commentators alone — the one place outside the console where the dealt hands appear.

:func:`view` gives a JSON-ready dict: every seat with its hand as it stands (when the hands were entered),
its cards left and 报牌, whether it may act now, what it could beat the top play with (the lowest
beat of its hand and how many there are, from the engine's listing) and what the evaluator expects of it
(its likeliest title, mean place and points); the top play; the 胜率 now (``fresh``: of the position on
the table, not one a decision has since left) and its history; and the moments that moved it most (the
largest swings, with what happened in the decision: 烧牌, 闷, 让牌, a 够级牌 that lived …).

Every word the engine gives comes in both languages (``…_en`` beside the Chinese: statuses, titles,
plays, moments, teams without a name), so the page's English version (``?lang=en``) is English
throughout: only the players' and teams' own names are data, shown as entered.
"""

from __future__ import annotations

from typing import Any

import engine
from broadcast.core import ActionRefused
from broadcast.game.adapter import replay
from broadcast.winprob.actions import game_key
from engine.cards import format_counts
from engine.listing import enumerate_beats
from engine.policy import cheapest_beat, worth
from engine.winprob import MOMENTS
from engine.words import (
    SEAT_WORDS,
    STATUS_NAMES,
    TEAM_NAMES_EN,
    TITLE_NAMES_EN,
    entered_name,
    label_of,
    label_of_en,
)

STATUS_ZH = {k: zh for k, (zh, _) in STATUS_NAMES.items()}
STATUS_EN = {k: en for k, (_, en) in STATUS_NAMES.items()}
SWINGS = 5  # the moments listed


def _beats(g: engine.Game, seat: int) -> dict[str, Any] | None:
    """What ``seat`` could beat the top play with, from its hand (None when its hand is unknown)."""
    h = g.hand_counts(seat)
    top = g.last_play
    if h is None:
        return None
    if top is None or top.seat == seat or not g.in_play(seat):
        return {"count": 0, "lowest": "", "label": "", "label_en": "", "may": False}
    beats = enumerate_beats(h, top.play)
    low = cheapest_beat(h, top.play, True, g.preset.bie_san) if beats else None
    if low is None and beats:
        low = min(beats, key=worth)
    opts = g.options(seat)
    return {
        "count": len(beats),
        "lowest": str(low) if low is not None else "",
        "label": label_of(low) if low is not None else "",
        "label_en": label_of_en(low) if low is not None else "",
        "may": bool({"play", "burn"} & opts),
    }


def moments(history: list[dict[str, Any]], n: int = SWINGS) -> list[dict[str, Any]]:
    """The ``n`` decisions that moved the odd team's 胜率 most (the largest swings first)."""
    out = []
    for before, after in zip(history, history[1:], strict=False):
        delta = float(after["odd"]) - float(before["odd"])
        tags = list(after.get("tags", []))
        out.append(
            {
                "moves": after["moves"],
                "line": after.get("line", ""),
                "seat": after.get("seat", 0),
                "tags": tags,
                "words": [MOMENTS[t][0] for t in tags if t in MOMENTS],
                "words_en": [MOMENTS[t][1] for t in tags if t in MOMENTS],
                "before": before["odd"],
                "after": after["odd"],
                "delta": round(delta, 4),
            }
        )
    out.sort(key=lambda m: (-abs(m["delta"]), m["moves"]))
    return out[:n]


def fresh(state: dict[str, Any]) -> bool:
    """The 胜率 in the state is of the position on the table (no decision came since it was made)."""
    cur = state["winprob"]["current"]
    record = state["game"]["record"]
    if not cur:
        return False
    return bool(
        cur["moves"] == len(record)
        and cur.get("line", "") == (record[-1] if record else "")
        and cur.get("game_no", state["table"]["game_no"]) == state["table"]["game_no"]
        and cur.get("deal", state["table"].get("deal") or 0) == (state["table"].get("deal") or 0)
    )


def view(state: dict[str, Any]) -> dict[str, Any]:
    """The commentators' screen for ``state`` (see the module docstring)."""
    table = state["table"]
    wp = state["winprob"]
    kept = state["winprob_history"]
    # the history of the deal on the table only: after a re-deal, none until the new deal's first figures
    history = kept["history"] if kept["game"] == game_key(state) else []
    out: dict[str, Any] = {
        "seq": state["meta"]["seq"],
        "rules": table["rules"],
        "phase": table["phase"],
        "game_no": table["game_no"],
        "teams": {
            k: {
                "label": v["label"],
                "label_en": v.get("name", "").strip() or TEAM_NAMES_EN[k],
                "color": v["color"],
                "points": v["points"],
            }
            for k, v in table["teams"].items()
        },
        "winprob": {"current": wp["current"], "history": history, "fresh": fresh(state)},
        "moments": moments(history),
        "seats": [],
        "top": None,
        "to_act": None,
        "moves": len(state["game"]["record"]),
        "hands_known": False,
        "error": "",
        "error_en": "",
        # a seat's standing (无头, 烧牌中) as the engine's word table says it: [中文, English]
        "seat_words": {k: list(v) for k, v in SEAT_WORDS.items()},
    }
    # the name as entered ('' for none: the page says the seat in its language; an older database's
    # placeholder 4号位 is none too, never Chinese on the English page)
    names = {s["seat"]: entered_name(int(s["seat"]), str(s.get("name", ""))) for s in table["seats"]}
    if state["game"]["leader"] is None:
        out["seats"] = [
            {"seat": s, "name": names.get(s, ""), "team": "odd" if s % 2 else "even"} for s in range(1, 7)
        ]
        return out
    try:
        g = replay(state)
    except ActionRefused as exc:
        out["error"], out["error_en"] = exc.zh, exc.en
        return out
    cur = wp["current"]
    expect = {
        e["seat"]: {**e, "title_en": TITLE_NAMES_EN.get(e.get("title") or "", "")}
        for e in (cur.get("seats", []) if cur and out["winprob"]["fresh"] else [])
    }
    reports = g.report_counts()
    titles = g.titles_so_far()
    known = False
    for s in range(1, 7):
        h = g.hand_counts(s)
        dealt = g.dealt_hand_counts(s)
        known = known or h is not None
        out["seats"].append(
            {
                "seat": s,
                "name": names.get(s, ""),
                "team": "odd" if s % 2 else "even",
                "state": str(g.status(s)),
                "status": STATUS_ZH.get(str(g.status(s)), str(g.status(s))),
                "status_en": STATUS_EN.get(str(g.status(s)), str(g.status(s))),
                "title": titles.get(s),
                "title_en": TITLE_NAMES_EN.get(titles.get(s) or "", None),
                "cards_left": g.cards_left(s),
                "baopai": reports.get(s),
                "hand": format_counts(h) if h is not None else None,
                "dealt": format_counts(dealt) if dealt is not None else None,
                "wutou": g.is_wutou(s),
                "burner": g.burner == s,
                "beats": _beats(g, s),
                "expect": expect.get(s),
            }
        )
    out["hands_known"] = known
    top = g.last_play
    if top is not None:
        out["top"] = {
            "seat": top.seat,
            "play": str(top.play),
            "label": label_of(top.play),
            "label_en": label_of_en(top.play),
        }
    out["to_act"] = g.pending_seat
    return out
