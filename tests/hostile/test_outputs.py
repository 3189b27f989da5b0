"""Every command that writes a file writes it whole or not at all (hostile2): on a real full disk (a small
tmpfs filled to the last byte) it answers one line naming the file, exits 2, leaves no half file behind
and keeps the file that was there. Before, ``companion --out`` left 4,096 bytes of a 40 KB page in place
of the good one, and ``studio-key --export`` and ``engine selfplay`` left empty files."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from broadcast.__main__ import main as studio
from engine.cli import main as engine
from tests.disk import fill, small_disk


def _code(run: Callable[[], int | None]) -> int:
    try:
        return int(run() or 0)
    except SystemExit as exc:  # the engine's CLI leaves by SystemExit(2) on bad input
        return int(exc.code or 0)


WRITERS: dict[str, tuple[str, Callable[[Path], int | None]]] = {
    "companion --out": ("deck.json", lambda f: studio(["companion", "--out", str(f)])),
    "studio-key --export": ("studio.pub", lambda f: studio(["studio-key", "--export", str(f)])),
    "engine selfplay --out": (
        "game_0001.gjn",
        lambda f: engine(["selfplay", "--games", "1", "--seed", "1", "--out", str(f.parent)]),
    ),
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_full_disk_leaves_no_half_file(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, run = WRITERS[command]
    with small_disk(256) as disk:
        fill(disk)
        out = disk / name
        assert _code(lambda: run(out)) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(out) in err[0] and "Traceback" not in err[0], err
        assert sorted(p.name for p in disk.iterdir()) == ["filler.bin"]  # no empty file, no .part


def test_a_full_disk_keeps_the_companion_page_that_was_there(capsys: pytest.CaptureFixture[str]) -> None:
    with small_disk(256) as disk:
        out = disk / "deck.json"
        out.write_text('{"kept": true}', encoding="utf-8")
        fill(disk)
        assert studio(["companion", "--out", str(out)]) == 2
        assert out.read_text(encoding="utf-8") == '{"kept": true}'
        assert f"{out}:0: 写不进 cannot write: No space left on device" in capsys.readouterr().err


def test_a_full_disk_under_the_sponsor_report_names_the_file_and_leaves_no_half_workbook(
    tmp_path: Path,
) -> None:
    """The report's XLSX on a full disk: before, an empty workbook was left behind, the line said only
    ``report: 磁盘已满`` and openpyxl's half-closed zip printed a traceback at exit (so: a subprocess)."""
    db = tmp_path / "rehearsal.sqlite"
    placements = Path(__file__).resolve().parents[2] / "sponsor_assets/demo/placements.yaml"
    args = ["sponsors", "rehearse", str(placements), "--db", str(db), "--episode", "第1期"]
    assert studio([*args, "--air-date", "2012-05-07"]) == 0
    with small_disk(256) as disk:
        fill(disk)
        r = subprocess.run(
            [sys.executable, "-m", "broadcast", "report", "第1期", "--db", str(db), "--rehearsal"]
            + ["--no-pdf", "--out", str(disk / "reports")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        xlsx = disk / "reports" / "赞助商播出报告_第1期.xlsx"
        full = "磁盘已满，腾出空间后重试 / the disk is full: free some space, then try again"
        assert r.stderr.strip().splitlines()[-1] == f"错误 error: {xlsx}: {full}"
        assert not xlsx.exists() and not list((disk / "reports").iterdir())


@pytest.mark.parametrize(
    ("out", "said"),
    [
        ("名单/英雄榜.csv", "名单: 这里是一个文件，不是文件夹 / a file is there, not a folder"),
        (
            "名单/sub/英雄榜.csv",
            "名单/sub: 路径中有一段是文件，不是文件夹 / a part of the path is a file, not a folder",
        ),
        ("d" * 300 + "/英雄榜.csv", "d" * 300 + ": 无法写入 / cannot write it (File name too long)"),
    ],
    ids=["folder-is-a-file", "under-a-file", "name-too-long"],
)
def test_an_output_under_a_file_says_so_once(
    out: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: ``名单: 无法写入 / cannot write it (File exists) (File exists)`` — the cause twice, and no word
    that the folder it wanted is a file."""
    db = tmp_path / "studio.sqlite"
    assert studio(["season", "create", "春季赛", "--db", str(db)]) == 0
    (tmp_path / "名单").write_text("a file, not a folder", encoding="utf-8")
    capsys.readouterr()
    assert studio(["export", "leaderboard", "--db", str(db), "--out", str(tmp_path / out)]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and f"{tmp_path}/{said}" in err[0], err
    causes = ("(File exists)", "(Not a directory)", "(File name too long)")
    assert sum(err[0].count(c) for c in causes) == 1, err
