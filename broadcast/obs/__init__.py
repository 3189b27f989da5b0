"""The OBS bridge: the show state on a real OBS Studio, and what OBS really showed.

One job per file:

* ``client.py``    — one obs-websocket v5 connection: handshake, bounded requests, freeze watchdog;
* ``bridge.py``    — the worker: connect/re-connect, provision, sync, events, status, proofs;
* ``sync.py``      — state → OBS as data: what differs between the layout and what OBS holds (pure);
* ``provision.py`` — create/update the show's scenes and sources, re-using what OBS kept;
* ``layout.py``    — the scenes, their items and every native graphic's sources (pure);
* ``films.py``     — sponsor films in the break scene;
* ``onair.py``     — what is on air, as OBS confirmed it → the as-run log (outages included);
* ``status.py``    — the operator's status object (reason in Chinese and English);
* ``assets.py``    — logos and pictures of the state as files OBS can open;
* ``settings.py``, ``errors.py``, ``headless.py`` (a real OBS for tests and trials), ``cli.py``.
"""

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
