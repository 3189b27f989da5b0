"""The qualifiers component: the qualifier board on air (section ``qualifiers``, ``schema.json``) and its
one table of actions, named here (nothing registers by being imported)."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.qualifiers import actions

COMPONENT = Component("qualifiers", schema=actions.SCHEMA, actions=(actions.ACTIONS,))
