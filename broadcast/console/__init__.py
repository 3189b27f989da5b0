"""The operator console (PySide6): a view plus a dispatcher over the one show store.

``python -m broadcast console [--db FILE]``. The pure parts (what the operator typed, the completion
list, the mirror of the engine's game) import no Qt; the Qt parts are a bridge to the store (its work
runs on one worker thread, results come back by signal), item models, widgets and the main window.
"""
