"""The Qt kit the studio's windows share (the operator console and the producer's workspace).

* :mod:`.display` — whether a window can open here (one answer for every command);
* :mod:`.bridge` — :class:`~.bridge.StoreBridge`, the windows' only door to a store: work on one worker
  thread, answers by signal on the Qt thread;
* :mod:`.i18n` — the translation catalogs and the one :func:`~.i18n.tr`;
* :mod:`.theme` — the dark studio theme (colours, type sizes, one style sheet);
* :mod:`.monitor` — an on-air page in Qt WebEngine, scaled to its monitor.

Nothing here knows the console or the producer; both import it (never the other way round).
"""
