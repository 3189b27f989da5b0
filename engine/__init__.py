"""够级 (Gouji) rules engine: cards, plays, game state, GJN records, matches. See docs/engine.md."""

from __future__ import annotations

from . import (
    native as native,  # first: chooses the compiled core or the pure-Python modules (engine/native.py)
)
from .cards import CardError, Play, PlayError, Rank, format_cards, parse_cards
from .deal import deal, first_leader, new_game, random_playout
from .errors import GJNError, IllegalAction
from .game import Action, Game, GameResult, LegalPlays, NotAPlay, team_of
from .preset import Preset, PresetError, load_preset
from .seats import SeatStatus

__all__ = [
    "Action",
    "CardError",
    "GJNError",
    "Game",
    "GameResult",
    "IllegalAction",
    "LegalPlays",
    "NotAPlay",
    "Play",
    "PlayError",
    "Preset",
    "PresetError",
    "Rank",
    "SeatStatus",
    "deal",
    "first_leader",
    "format_cards",
    "load_preset",
    "new_game",
    "parse_cards",
    "random_playout",
    "team_of",
]

from . import gjn as gjn  # noqa: E402
from . import match as match  # noqa: E402
