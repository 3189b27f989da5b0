"""A record over 1 MiB is refused from its size, unread, in one line (issue 24): the engine's record reader
(``gjn.read``, ``gjn.parse``) holds the limit, so every command that reads records inherits it — the
engine's ``check``, ``season game`` and ``rehearse --games`` (tests/test_record_limit_commands.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import GJNError, gjn

ROOT = Path(__file__).resolve().parents[2]
MiB = 1 << 20


def sparse_record(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that holds nothing (NUL bytes, none of it on disk): read and parsed, it
    would be a format error at line 1, not a size refusal."""
    with path.open("wb") as f:
        f.truncate(size)
    return path


def test_gjn_read_refuses_a_record_over_1_MiB_from_its_size(tmp_path: Path) -> None:
    big = sparse_record(tmp_path / "huge.gjn", 100 * MiB)
    with pytest.raises(GJNError) as ei:
        gjn.read(big)
    e = ei.value
    assert e.line == 0 and e.filename == str(big)
    assert "104,857,600 bytes" in e.en and "at most 1,048,576" in e.en and "not read" in e.en
    assert "牌谱过大" in e.zh and "未读入" in e.zh
    assert str(e).startswith(f"{big}:0: 牌谱过大") and "\n" not in str(e)
    assert gjn.MAX_BYTES == MiB


def test_gjn_read_takes_a_record_at_the_limit(tmp_path: Path) -> None:
    head = '[Rules "tv_match"]\n[Leader "1"]\n'
    body = "; " + "x" * (MiB - len(head) - 3) + "\n"
    f = tmp_path / "at.gjn"
    f.write_text(head + body, encoding="utf-8")
    assert f.stat().st_size == MiB
    text = gjn.read(f)
    assert gjn.parse(text, str(f)).leader == 1
    with f.open("ab") as out:
        out.write(b"\n")
    with pytest.raises(GJNError, match="1,048,577 bytes"):
        gjn.read(f)


def test_gjn_parse_refuses_text_over_the_limit_before_reading_it() -> None:
    with pytest.raises(GJNError) as ei:
        gjn.parse("\x00" * (2 * MiB), "big.gjn")  # a format error at line 1, were it read
    assert ei.value.line == 0 and "2,097,152 bytes" in ei.value.en
    cjk = '[Rules "tv_match"]\n[Leader "1"]\n; ' + "够" * (MiB // 3 + 10) + "\n"  # under 1 Mi characters
    assert len(cjk) < MiB < len(cjk.encode("utf-8"))
    with pytest.raises(GJNError, match="bytes: a record is at most 1,048,576"):
        gjn.check(cjk, "cjk.gjn")


def test_gjn_read_names_an_unreadable_or_non_utf8_file(tmp_path: Path) -> None:
    with pytest.raises(GJNError) as ei:
        gjn.read(tmp_path / "missing.gjn")
    assert ei.value.line == 0 and "cannot read the record" in ei.value.en and "读不到牌谱" in ei.value.zh
    bad = tmp_path / "latin1.gjn"
    bad.write_bytes('[Rules "tv_match"]\n[Event "caf\xe9"]\n'.encode("latin-1"))
    with pytest.raises(GJNError) as ei:
        gjn.read(bad)
    assert ei.value.line == 2 and "UTF-8" in ei.value.en
    bom = tmp_path / "bom.gjn"
    bom.write_bytes(b'\xef\xbb\xbf[Rules "tv_match"]\n')
    assert gjn.read(bom) == '[Rules "tv_match"]\n'


@pytest.mark.parametrize("json_out", [False, True])
def test_engine_check_refuses_a_huge_record_in_one_line_exit_2(tmp_path: Path, json_out: bool) -> None:
    big = sparse_record(tmp_path / "huge.gjn", 10 * MiB)
    cmd = [sys.executable, "-m", "engine", "check", str(big)] + (["--json"] if json_out else [])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{big}:0: 牌谱过大（10,485,760 字节）"), r.stderr
    assert "Traceback" not in r.stderr
