"""The season component: the 英雄榜 (section ``leaderboard`` of the show state, ``schema.json``), the
live match's season actions (``season.link``, ``season.game_saved``, ``season.match_final``), the
correction of its lineup (``season.lineup``) and the table's push to the season (``season.queue``,
``season.pushed``, ``season.push_refused``), each table named here (nothing registers by being imported)."""

from __future__ import annotations

from broadcast.core import Component
from broadcast.season import actions, lineup, live, push

COMPONENT = Component(
    "season", schema=actions.SCHEMA, actions=(actions.ACTIONS, live.ACTIONS, push.ACTIONS, lineup.ACTIONS)
)
