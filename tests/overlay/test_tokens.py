"""One file of design tokens (overlays/tokens.json) for the pages' CSS and the native OBS graphics."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from broadcast import tokens as T
from broadcast.obs import layout as L
from broadcast.obs.graphics import paint as P
from broadcast.overlay import OverlayServer
from tests.overlay.conftest import SAFE, open_page

ROOT = Path(__file__).resolve().parents[2]
CSS = ROOT / "overlays" / "css"
# custom properties a page sets itself at run time (team colours of the match, roll durations …)
PAGE_SET = {"odd", "even", "team", "i", "cr-duration", "tk-duration"}


def test_the_css_custom_properties_are_generated_from_the_tokens() -> None:
    assert (CSS / "tokens.css").read_text(encoding="utf-8") == T.css()
    assert T.main(["--check"]) == 0


def test_the_pages_use_tokens_and_define_none_of_their_own() -> None:
    base = (CSS / "base.css").read_text(encoding="utf-8")
    assert '@import url("tokens.css");' in base
    defined = set(re.findall(r"^\s*--([a-z0-9-]+):", (CSS / "tokens.css").read_text(encoding="utf-8"), re.M))
    for css in CSS.glob("*.css"):
        if css.name == "tokens.css":
            continue
        text = css.read_text(encoding="utf-8")
        assert ":root" not in text, f"{css.name} defines tokens of its own"
        for name in re.findall(r"var\(--([a-z0-9-]+)", text):
            assert name in defined or name in PAGE_SET, f"{css.name}: --{name} is not a design token"
    for side in ("odd", "even"):
        assert f"--{side}" in {f"--{n}" for n in defined}


def test_the_native_obs_graphics_read_the_same_tokens() -> None:
    data = json.loads((ROOT / "overlays" / "tokens.json").read_text(encoding="utf-8"))
    assert (P.GOLD, P.INK, P.WARN) == (data["color"]["gold"], data["color"]["ink"], data["color"]["warn"])
    assert P.TEAM_COLOR == {"odd": data["color"]["odd"], "even": data["color"]["even"]}
    assert (P.PLATE, P.PLATE_2, P.HEADER) == tuple(data["native"][k] for k in ("plate", "plate-2", "header"))
    assert P.SAFE == L.SAFE == SAFE == T.safe_area()
    lay = L.build_layout({}, browser=False)
    assert lay.pictures["scoreboard"].op("比分·1号位").settings["font"]["face"] == data["font"]["native"]
    # a team's default colour in the show state is the token's
    from broadcast.studio import default_state

    teams = default_state()["table"]["teams"]
    assert {s: teams[s]["color"] for s in teams} == P.TEAM_COLOR


@pytest.mark.browser
def test_a_page_renders_with_the_tokens(page: Any, server: OverlayServer) -> None:
    open_page(page, server.url("program"))
    got = page.evaluate(
        """() => {
          const s = getComputedStyle(document.documentElement);
          const safe = document.querySelector('.safe').getBoundingClientRect();
          return {gold: s.getPropertyValue('--gold').trim(), warn: s.getPropertyValue('--warn').trim(),
                  safe: [safe.left, safe.top, safe.right, safe.bottom]};
        }"""
    )
    assert got["gold"] == T.color("gold") and got["warn"] == T.color("warn")
    assert tuple(got["safe"]) == T.safe_area()
