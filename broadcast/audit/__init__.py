"""The on-air audit: ``python -m broadcast audit EPISODE [--obs]`` plays a whole rehearsed episode through
the program page in headless Chromium and, at every program change, looks at what a viewer sees — the
visible graphics' boxes, every text's lines — against the table of zones, the line-breaking rule and the
state (``docs/overlays.md``, "The on-air audit"). With ``--obs`` a real OBS plays it too, watched by an
independent poller that counts frames of the game scene between items.

* :mod:`.probe` — what the page shows (JavaScript run in the page) and the judgement of it (pure);
* :mod:`.episode` — the episode: the rundown's cues and GO, TAKE/CUT, lower thirds, the games to their
  end banners saved to the season, 口播, the 九宫格 draws, the 英雄榜 and its film, the credits;
* :mod:`.obswatch` — the poller of OBS's program scene;
* :mod:`.report` — the report (JSON, HTML) with a screenshot of each finding;
* :mod:`.cli` — the command.
"""
