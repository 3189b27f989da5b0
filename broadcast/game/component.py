"""The game component: the sections ``table``, ``game`` and ``match`` of the show state (``schema.json``)
and the actions that change them, each table named here (nothing registers by being imported)."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.game import actions, match, record

COMPONENT = Component("game", schema=actions.SCHEMA, actions=(actions.ACTIONS, record.ACTIONS, match.ACTIONS))
