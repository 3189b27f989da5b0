"""The application core: schema'd show state, SQLite journal, action dispatch, listeners."""

from broadcast.core.store import ActionRefused, Change, Context, ShowStore, action

__all__ = ["ActionRefused", "Change", "Context", "ShowStore", "action"]
