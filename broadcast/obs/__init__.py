"""The OBS bridge: obs-websocket v5 client, provisioning, state → OBS sync, as-run and proof of air."""

from broadcast.obs.bridge import BridgeStatus, ObsBridge, ObsEvent, Proof
from broadcast.obs.errors import (
    ObsAuthError,
    ObsConnectError,
    ObsConnectionLost,
    ObsError,
    ObsNotConnected,
    ObsRequestError,
    ObsTimeout,
)
from broadcast.obs.settings import ObsSettings, SettingsError

__all__ = [
    "BridgeStatus",
    "ObsAuthError",
    "ObsBridge",
    "ObsConnectError",
    "ObsConnectionLost",
    "ObsError",
    "ObsEvent",
    "ObsNotConnected",
    "ObsRequestError",
    "ObsSettings",
    "ObsTimeout",
    "Proof",
    "SettingsError",
]
