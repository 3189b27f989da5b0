"""The sponsors component: the sections ``sponsors``, ``jiugongge``, ``charity`` and ``cues`` of the show
state (``schema.json``) and the actions that change them (the placements, 九宫格, 口播, shots and charity
in ``actions.py``; the episode's cue list in ``cues.py``), each table named here (nothing registers by
being imported)."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.sponsors import actions, cues

COMPONENT = Component("sponsors", schema=actions.SCHEMA, actions=(actions.ACTIONS, cues.ACTIONS))
