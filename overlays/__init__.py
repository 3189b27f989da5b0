"""The on-air pages (HTML, CSS, JS and demo SVG logos), shipped as package data.

Nothing here is Python: the folder is a package only so that ``importlib.resources`` finds it in a
source checkout and in an installed wheel alike (``broadcast.resources.overlays_dir()``); the overlay
server serves it at ``/overlay/``. Pages render the state they are sent and decide nothing.
"""
