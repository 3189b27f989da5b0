"""够级大明星 broadcast studio: application core, overlay server, OBS bridge, sponsors, seasons."""
