"""The game component: the live rules engine behind the scoreboard (``state.table``, ``state.game``)."""
