"""Sponsor placements: the YAML format, its validation (file:line on every error) and the typed model.

    placements = load_placements("sponsor_assets/demo/placements.yaml", air_date=date(2012, 5, 7))

Each job has its own file:

==============  ==========================================================================================
``ratecard``    what the package sells: slot kinds, exclusives, lengths, list prices, promised minimums
``model``       the typed values (Placements, Slot, Film, …) and how problems are reported (Issue, zh + en)
``load``        reading a file: YAML → sections → cross-rules → Placements, all or nothing
``nodes``       typed access to the YAML nodes, collecting every problem with its line
``fields``      the fields slots share: sponsor registry, contract, price, minimums, on_air, film, bumper
``assets``      logo and film files: inside the served folder, really an image / a video of that length
``slots``       every slot section as one table of slot specs, read by one builder
``breaks``      the ``rundown:`` section (games, contestants, commercial breaks)
``rules``       the rules across slots (one package per sponsor, signing order, films placed …)
``state``       Placements → the ``sponsors.load`` payload of the show state
``english``     the English of the messages' wording (``Issue.message_en``, shown by the English UI)
==============  ==========================================================================================

The YAML is parsed by :mod:`engine.yamlread`, the project's one YAML reader. The format is documented in
``docs/sponsors.md`` and ``sponsor_assets/README.md``.
"""

from __future__ import annotations

from broadcast.sponsors.placements.assets import ASSETS_URL, iter_assets
from broadcast.sponsors.placements.load import FORMAT, load_placements, parse_air_date, parse_placements
from broadcast.sponsors.placements.model import (
    Asset,
    Break,
    Bumper,
    Contract,
    Film,
    Issue,
    PlacementError,
    Placements,
    Price,
    RundownConfig,
    Slot,
    Sponsor,
)
from broadcast.sponsors.placements.ratecard import (
    BUMPER_SECONDS,
    DEFAULT_GRAPHICS,
    DEFAULT_MINIMUMS,
    EXCLUSIVE,
    FILM_LENGTH,
    KIND_LABELS,
    MAX_SUPPORTERS,
    MINIMUM_KEYS,
    PRICE_UNITS,
    SPOT_LENGTHS,
    SPOT_LIST_PRICE,
)
from broadcast.sponsors.placements.slots import SLOT_SPECS, SlotSpec
from broadcast.sponsors.placements.state import to_state

__all__ = [
    "ASSETS_URL",
    "BUMPER_SECONDS",
    "DEFAULT_GRAPHICS",
    "DEFAULT_MINIMUMS",
    "EXCLUSIVE",
    "FILM_LENGTH",
    "FORMAT",
    "KIND_LABELS",
    "MAX_SUPPORTERS",
    "MINIMUM_KEYS",
    "PRICE_UNITS",
    "SLOT_SPECS",
    "SPOT_LENGTHS",
    "SPOT_LIST_PRICE",
    "Asset",
    "Break",
    "Bumper",
    "Contract",
    "Film",
    "Issue",
    "PlacementError",
    "Placements",
    "Price",
    "RundownConfig",
    "Slot",
    "SlotSpec",
    "Sponsor",
    "iter_assets",
    "load_placements",
    "parse_air_date",
    "parse_placements",
    "to_state",
]
