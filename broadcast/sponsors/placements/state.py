"""Placements → the show state's sponsor sections: the ``sponsors.load`` payload.

The payload is the data itself (names, logo URLs, bumper texts, films, the 九宫格 cells), so replaying
the journal never reads the placements file again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from broadcast.sponsors.placements.model import Asset, Placements

# one sponsor (name + logo) per exclusive on-screen slot
BRANDED = (
    "title",
    "special",
    "leaderboard",
    "commentary",
    "table",
    "jiugongge_board",
    "prize_stand",
    "shirts",
    "qualifiers",
)


def _url(a: Asset | None) -> str:
    return a.url if a is not None else ""


def to_state(p: Placements) -> dict[str, Any]:
    """``{"sponsors": …, "cells": […], "source": {file, digest, air_date}}``."""

    def brand(kind: str) -> dict[str, str]:
        s = p.one(kind)
        if s is None:
            return {"name": "", "logo": ""}
        return {"name": p.sponsor_name(s.sponsor), "logo": _url(p.logo_of(s))}

    sponsors: dict[str, Any] = {k: brand(k) for k in BRANDED}
    sponsors["supporters"] = [
        {"name": p.sponsor_name(s.sponsor), "logo": _url(p.logo_of(s))} for s in p.supporters
    ]
    sponsors["bumpers"] = [
        {"id": s.bumper.id, "text": s.bumper.text, "logo": _url(p.logo_of(s)), "seconds": s.bumper.seconds}
        for s in p.bumpers_in_order()
        if s.bumper is not None
    ]
    ticker = p.one("ticker")
    sponsors["ticker"] = list(ticker.lines) if ticker else []
    sponsors["credits"] = [
        {"role": s.role, "name": p.sponsor_name(s.sponsor), "logo": _url(p.logo_of(s))} for s in p.credits()
    ]
    sponsors["films"] = [
        {
            "id": f.id,
            "sponsor": f.sponsor,
            "name": p.sponsor_name(f.sponsor),
            "url": f.asset.url,
            "seconds": f.seconds,
            "slot": f.slot,
        }
        for f in p.films.values()
    ]
    mentions_min: dict[str, int] = {}
    for s in p.slots:
        mentions_min[s.sponsor] = mentions_min.get(s.sponsor, 0) + int(s.minimums.get("mentions", 0))
    sponsors["roster"] = [
        {"id": sp.id, "name": sp.name, "logo": _url(sp.logo), "mentions_min": mentions_min.get(sp.id, 0)}
        for sp in p.sponsors.values()
    ]
    cells = [
        {
            "prize": c.prize,
            "sponsor": p.sponsor_name(c.sponsor),
            "sponsor_id": c.sponsor,
            "slogan": c.slogan,
            "logo": _url(p.logo_of(c)),
        }
        for c in p.cells
    ]
    return {
        "sponsors": sponsors,
        "cells": cells,
        "source": {
            "file": str(Path(p.file).resolve()),
            "digest": p.digest,
            "air_date": p.air_date.isoformat() if p.air_date else "",
        },
    }
