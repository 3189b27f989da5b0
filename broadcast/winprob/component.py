"""The winprob component: the 胜率 after every decision (section ``winprob``, ``schema.json``) and its one
table of actions, named here (nothing registers by being imported)."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.winprob import actions

COMPONENT = Component("winprob", schema=actions.SCHEMA, actions=(actions.ACTIONS,))
