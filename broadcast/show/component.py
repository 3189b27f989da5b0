"""The show component: the sections ``show``, ``graphics`` and ``lower_third`` of the show state
(``schema.json``) and the actions that change them (``actions.py``), named here."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.show import actions

COMPONENT = Component("show", schema=actions.SCHEMA, actions=(actions.ACTIONS,))
