"""The served folders are package data (overlays/, sponsor_assets/, engine/presets/): the server finds
them with importlib.resources, serves the presets as shipped, and never serves the packages' code."""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from broadcast import resources
from broadcast.overlay.guard import PathRefused, safe_join
from broadcast.overlay.server import OverlayServer
from engine import load_preset
from engine.preset import parse_preset


def _get(srv: OverlayServer, path: str) -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read(), resp.headers.get("Content-Type", "")
    finally:
        conn.close()


def test_the_shipped_folders_are_found_as_package_data() -> None:
    root = Path(__file__).resolve().parents[2]
    assert resources.overlays_dir() == root / "overlays"
    assert resources.sponsor_assets_dir() == root / "sponsor_assets"
    assert resources.demo_placements().is_file() and (resources.presets_dir() / "tv_match.yaml").is_file()


def test_the_presets_are_served_as_shipped(server: OverlayServer) -> None:
    status, body, ctype = _get(server, "/assets/presets/dagang.yaml")
    assert status == 200 and ctype.startswith("text/yaml")
    assert parse_preset(body.decode("utf-8"), "served.yaml") == parse_preset(
        (resources.presets_dir() / "dagang.yaml").read_text(encoding="utf-8"), "served.yaml"
    )
    assert parse_preset(body.decode("utf-8"), "x").revolution == load_preset("dagang").revolution is True


@pytest.mark.parametrize(
    "path",
    [
        "/overlay/__init__.py",
        "/assets/sponsors/__init__.py",
        "/assets/sponsors/make_demo_assets.py",
        "/overlay/__pycache__/__init__.cpython-311.pyc",
        "/assets/presets/../__init__.py",
    ],
)
def test_the_packages_code_is_not_served(server: OverlayServer, path: str) -> None:
    status, body, _ = _get(server, path)
    assert status in (403, 404) and b"import" not in body and b'"""' not in body


def test_safe_join_refuses_python_files_and_caches() -> None:
    root = resources.overlays_dir()
    for tail in ("__init__.py", "js/x.pyc", "__pycache__/a"):
        with pytest.raises(PathRefused):
            safe_join(root, tail)
    assert safe_join(root, "js/page.js") == root / "js" / "page.js"
