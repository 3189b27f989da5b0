"""Every input kind has a size limit, checked before parsing (issue 23): each over its limit is refused
by the real command in one line naming the limit, exit 2, in bounded time and memory — measured here
on a subprocess (wall time and the command's own peak RSS from ``wait4``, through a meter) and printed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RSS_BOUND_MB = 400  # the interpreter with the studio's imports is ~100–200 MB; the inputs are 100 MB+
SECONDS_BOUND = 60  # generous for a loaded machine: what is refused before it is read takes ~1–3 s


# The command's own peak RSS, through a small meter process: Linux carries the RSS high-water mark of the
# memory a process replaces at exec() into the new program's ru_maxrss — started straight from this test
# process (vfork: its memory), the command would report the pytest worker's peak (400–500 MB late in a
# CI run) however little it used itself. The meter (a fresh interpreter, ~10 MB) starts the command and
# prints the command's ru_maxrss.
_METER = (
    "import os, subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(p.pid, 0)\n"
    "print(usage.ru_maxrss)\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def _measured(args: list[str], cwd: Path) -> tuple[int, str, float, float]:
    """Run ``python -m …args``: (exit status, stderr, seconds, the command's peak RSS in MB)."""
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _METER, sys.executable, "-m", *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)},
    )
    peak_kb = int(proc.stdout.decode().split()[-1])
    return proc.returncode, proc.stderr.decode("utf-8", "replace"), time.monotonic() - t0, peak_kb / 1024


def _big(path: Path, size: int, head: bytes) -> Path:
    """A file of ``size`` bytes starting with ``head`` (the rest a hole: no disk used, but every byte
    is there to read — zeros)."""
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)
    return path


def _filled(path: Path, size: int, line: bytes) -> Path:
    """A file of real text, ``line`` repeated to ``size`` bytes (what a parser would chew on)."""
    with open(path, "wb") as f:
        n = size // len(line) + 1
        for _ in range(0, n, 10_000):
            f.write(line * 10_000)
    return path


CASES = {
    # kind: (file, command, the limit named in the one line)
    "placements YAML": (
        "p.yaml",
        ["broadcast", "sponsors", "check", "{f}", "--air-date", "2012-05-07"],
        "4 MB",
    ),
    "OBS settings YAML": ("s.yaml", ["broadcast", "obs", "status", "--settings", "{f}"], "4 MB"),
    "roster CSV": ("r.csv", ["broadcast", "import", "{f}", "--db", "{db}", "--dry-run"], "64 MB"),
    "roster XLSX": ("r.xlsx", ["broadcast", "import", "{f}", "--db", "{db}", "--dry-run"], "64 MB"),
}


@pytest.mark.parametrize("kind", list(CASES))
def test_each_input_over_its_limit_is_refused_in_bounded_time_and_memory(kind: str, tmp_path: Path) -> None:
    name, command, limit = CASES[kind]
    f = tmp_path / name
    if name.endswith(".yaml"):
        _filled(f, 100 * 1024 * 1024, b"- {a: [1, 2, 3], b: 'xxxxxxxxxxxxxxxxxxxxxxxx'}\n")
    elif name.endswith(".csv"):
        _filled(f, 100 * 1024 * 1024, "王建军,新队A,13800138000\n".encode())
    else:
        _big(f, 100 * 1024 * 1024, b"PK\x03\x04")
    db = tmp_path / "s.sqlite"
    if "{db}" in command:
        from broadcast.season.model import SeasonDB

        sdb = SeasonDB.open(db)
        sdb.create_season("第一季")
        sdb.close()
    args = [a.replace("{f}", str(f)).replace("{db}", str(db)) for a in command]
    rc, err, seconds, rss = _measured(args, tmp_path)
    print(f"{kind}: 100 MB → exit {rc} in {seconds:.1f} s, peak RSS {rss:.0f} MB: {err.strip()[:160]}")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    # the one line naming the limit (``sponsors check`` and ``import`` then say that nothing was loaded)
    assert rc == 2 and len(lines) <= 2, err  # (and "nothing was imported" / "1 error, nothing loaded")
    assert limit in lines[0] and (str(f) in lines[0] or f.name in lines[0]), err
    assert "internal error" not in err and "Traceback" not in err
    assert seconds < SECONDS_BOUND and rss < RSS_BOUND_MB, (seconds, rss)


def test_a_preset_over_its_limit_is_refused_by_the_reader() -> None:
    """The presets go through the same reader (engine.preset.load_preset → yamlread.read)."""
    import tempfile

    from engine.errors import GoujiError
    from engine.preset import load_preset
    from engine.yamlread import MAX_BYTES

    with tempfile.NamedTemporaryFile(suffix=".yaml") as f:
        f.truncate(MAX_BYTES + 1)
        t0 = time.monotonic()
        with pytest.raises(GoujiError) as err:
            load_preset(f.name)
        assert "4 MB" in str(err.value) and time.monotonic() - t0 < 5


def test_the_commands_that_read_gjn_inherit_the_engine_s_limit(tmp_path: Path) -> None:
    """The engine's GJN reader carries the limit (issue 24); ``season game`` and ``engine check`` read
    through it: a record over it is one line, exit 2, in bounded time and memory."""
    import engine.gjn as gjn

    limit = getattr(gjn, "MAX_BYTES", None) or getattr(gjn, "GJN_LIMIT", None)
    if limit is None:
        pytest.skip("the engine's GJN size limit has not landed yet (issue 24's engine part)")
    f = _filled(tmp_path / "big.gjn", 10 * int(limit), b"3 TTTTT 4 P 5 P 6 P 1 P 2 P ")
    for args in (
        ["engine", "check", str(f)],
        ["broadcast", "season", "game", "1", str(f), "--db", str(tmp_path / "s")],
    ):
        rc, err, seconds, rss = _measured(args, tmp_path)
        print(
            f"GJN {args[:2]}: {f.stat().st_size / 1e6:.0f} MB → exit {rc} in {seconds:.1f} s, "
            f"peak RSS {rss:.0f} MB"
        )
        assert rc == 2 and "internal error" not in err and seconds < SECONDS_BOUND and rss < RSS_BOUND_MB, err
