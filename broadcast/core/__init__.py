"""The application core: schema'd show state, SQLite journal, action dispatch, listeners.

It knows no component: components (``Component``) bring their sections and actions, and the
application composes them (``broadcast.studio.open_store``)."""

from broadcast.core.component import Actions, Component, Context, Fragment, Payload, State
from broadcast.core.store import ActionRefused, Change, ShowStore, UnknownAction, peek

__all__ = [
    "ActionRefused",
    "Actions",
    "Change",
    "Component",
    "Context",
    "Fragment",
    "Payload",
    "ShowStore",
    "State",
    "UnknownAction",
    "peek",
]
