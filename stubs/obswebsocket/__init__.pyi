# Type stubs for obs-websocket-py (untyped): the studio uses only its request catalogue
# (broadcast/obs/client.py builds each request through it so that a misspelt name fails before sending).
