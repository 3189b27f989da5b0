"""Pictures are counted before they are decoded (hostile2): a logo is at most 64 megapixels. Before, a
PNG whose header claims 60000×60000 (a 436 KB file: 3.6 gigapixels) was an internal error (Pillow's
DecompressionBombError, exit 1) in ``sponsors check`` and ``export leaderboard --sponsor-logo``, and
``season set --sponsor-logo`` stored any path unread (a folder, /dev/zero, a bomb), to fail at export."""

from __future__ import annotations

import io
import shutil
import sqlite3
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from broadcast.__main__ import main as studio

ROOT = Path(__file__).resolve().parents[2]


def claimed_png(path: Path, width: int, height: int) -> Path:
    """A real 1×1 PNG whose header says ``width``×``height`` (its checksum made right)."""
    buf = io.BytesIO()
    Image.new("1", (1, 1)).save(buf, "PNG")
    raw = bytearray(buf.getvalue())
    ihdr = raw[12:29]  # b"IHDR" + 13 bytes
    ihdr[4:12] = struct.pack(">II", width, height)
    raw[12:29] = ihdr
    raw[29:33] = struct.pack(">I", zlib.crc32(bytes(ihdr)))
    path.write_bytes(bytes(raw))
    return path


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("pictures") / "studio.sqlite"
    assert studio(["season", "demo", "--db", str(db)]) == 0
    return db


def _sponsor_logo(db: Path) -> str:
    with sqlite3.connect(db) as c:
        return str(c.execute("SELECT sponsor_logo FROM season_seasons").fetchone()[0])


PICTURES = {  # name → (make it, what the one line says)
    "bomb": (lambda p: claimed_png(p / "bomb.png", 60000, 60000), "图片太大（3,600,000,000 像素）"),
    "over-the-limit": (lambda p: claimed_png(p / "big.png", 12000, 12000), "图片太大（12000×12000 像素）"),
    "folder": (
        lambda p: (p / "logos").mkdir() or p / "logos",
        "是一个目录，不是图片文件 / sponsor logo: is a folder, not a picture",
    ),
    "device": (lambda p: Path("/dev/zero"), "不是普通文件 / sponsor logo: not a regular file"),
}


@pytest.mark.parametrize("kind", sorted(PICTURES))
def test_season_set_checks_the_sponsor_logo_when_it_is_set(
    kind: str, season: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, said = PICTURES[kind]
    logo = make(tmp_path)
    before = _sponsor_logo(season)
    assert studio(["season", "set", "--db", str(season), "--sponsor-logo", str(logo)]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and str(logo) in err[0] and said in err[0], err
    assert _sponsor_logo(season) == before


@pytest.mark.parametrize("kind", ["bomb", "over-the-limit"])
def test_export_leaderboard_counts_the_logo_s_pixels_first(
    kind: str, season: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, said = PICTURES[kind]
    logo, out = make(tmp_path), tmp_path / "英雄榜.png"
    args = ["export", "leaderboard", "--db", str(season), "--out", str(out), "--sponsor-logo", str(logo)]
    assert studio(args) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and str(logo) in err[0] and said in err[0] and "内部错误" not in err[0], err
    assert not out.exists()


def test_sponsors_check_refuses_a_bomb_logo_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "sponsor_assets/demo", tmp_path / "demo")
    claimed_png(tmp_path / "demo/logos/xiaodangjia.png", 60000, 60000)
    placements = tmp_path / "demo/placements.yaml"
    assert studio(["sponsors", "check", str(placements), "--air-date", "2012-05-07"]) == 2
    err = capsys.readouterr().err
    assert f"{placements}:13:11: 错误: 赞助商 xiaodangjia 的 logo logos/xiaodangjia.png 图片太大" in err
    assert "内部错误" not in err and "Traceback" not in err
