"""The command line: check (--json and the referee report), selfplay, demo; bad input exits 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).parent / "cases"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )


def test_check_json_shape_legal() -> None:
    p = run("check", str(CASES / "legal_quan_san.gjn"), "--json")
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout)
    assert list(obj) == ["ok", "finish_order", "titles", "team_points", "quan_san", "opened"]
    assert obj["titles"]["2"] == "圈三" and obj["team_points"] == {"odd": 32, "even": 0}


def test_check_json_shape_illegal() -> None:
    p = run("check", str(CASES / "illegal_size.gjn"), "--json")
    assert p.returncode == 1
    obj = json.loads(p.stdout)
    assert obj["ok"] is False
    assert list(obj["error"]) == ["move", "line", "seat", "rule", "message"]
    assert obj["error"]["rule"] == "G4.1" and obj["error"]["move"] == 2 and obj["error"]["seat"] == 3


def test_check_referee_report_is_bilingual() -> None:
    p = run("check", str(CASES / "illegal_passed_cannot_burn.gjn"))
    assert p.returncode == 1
    assert "move 4" in p.stdout and "seat 2" in p.stdout and "G7.4" in p.stdout
    assert (
        "过牌不烧" in p.stdout and "may not burn" in p.stdout and "a seat that passed never burns" in p.stdout
    )


def test_bad_card_string_one_line_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "bad.gjn"
    f.write_text('[Leader "1"]\n1 TTTTT\n4 JJXJJ\n', encoding="utf-8")
    for extra in ([], ["--json"]):
        p = run("check", str(f), *extra)
        assert p.returncode == 2
        assert p.stdout == ""
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{f}:3: ") and "Traceback" not in p.stderr


def test_missing_or_binary_file_exit_2(tmp_path: Path) -> None:
    p = run("check", str(tmp_path / "nope.gjn"))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    f = tmp_path / "bin.gjn"
    f.write_bytes(b'[Leader "1"]\n\xff\xfe\n')
    p = run("check", str(f))
    assert p.returncode == 2 and p.stderr.strip() == f"{f}:2: 牌谱应为 UTF-8 文本 / not UTF-8 text"


def test_bad_arguments_exit_2_one_line() -> None:
    p = run("selfplay", "--games", "x", "--out", "/tmp/x")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_selfplay_records_are_accepted_by_check(tmp_path: Path) -> None:
    for rules in ("tv_match", "dagang"):
        out = tmp_path / rules
        p = run("selfplay", "--games", "3", "--seed", "9", "--out", str(out), "--rules", rules)
        assert p.returncode == 0, p.stderr
        files = sorted(out.glob("*.gjn"))
        assert len(files) == 3
        for f in files:
            c = run("check", str(f), "--json")
            assert c.returncode == 0 and json.loads(c.stdout)["ok"] is True


def test_demo_prints_record_and_result() -> None:
    p = run("demo", "--seed", "3")
    assert p.returncode == 0, p.stderr
    assert (
        '[Rules "tv_match"]' in p.stdout and "first / 头科: seat" in p.stdout and "points / 得分:" in p.stdout
    )
    assert run("demo", "--seed", "3").stdout == p.stdout  # seeded
    # the report's lines say each thing in English, then in Chinese: no Chinese word inside the English
    report = [line for line in p.stdout.splitlines() if line.startswith("  ")]
    assert len(report) >= 4, p.stdout
    for line in report:
        assert " / " in line and not re.search(r"[\u3400-\u9fff]", line.split(" / ")[0]), line


def test_G3_2_mixed_ranks_are_an_illegal_move_exit_1() -> None:
    case = CASES / "G3_2_mixed_ranks.gjn"
    p = run("check", str(case), "--json")
    assert p.returncode == 1 and p.stderr == ""
    err = json.loads(p.stdout)["error"]
    assert (err["move"], err["line"], err["seat"], err["rule"]) == (7, 14, 1, "G3.2")
    assert " / " in err["message"]
    p = run("check", str(case))
    assert p.returncode == 1 and p.stderr == ""
    assert "move 7" in p.stdout and "seat 1" in p.stdout and "rule G3.2" in p.stdout
    assert "第7步" in p.stdout and "1号" in p.stdout and "G3.2：" in p.stdout
    assert "not a play" in p.stdout and "不同点数牌不可混合发出" in p.stdout


def test_syntax_error_after_mixed_ranks_is_still_a_format_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.gjn"
    f.write_text('[Leader "1"]\n1 TTJ\n2 pass\n3 3Z\n', encoding="utf-8")
    for extra in ([], ["--json"]):
        p = run("check", str(f), *extra)
        assert p.returncode == 2 and p.stdout == ""
        assert p.stderr.strip().splitlines() == [
            f"{f}:4: bad cards '3Z': bad card 'Z' at column 2 (cards are 3-9 T J Q K A 2 B R)"
        ]


def test_check_partial_reports_a_game_under_way(tmp_path: Path) -> None:
    f = tmp_path / "live.gjn"
    lines = (CASES / "G7_3_fan_shao_third_player.gjn").read_text(encoding="utf-8").split("\n")
    f.write_text("\n".join(lines[:9]) + "\n", encoding="utf-8")  # stops after seat 3's 反烧
    p = run("check", str(f), "--partial", "--json")
    assert p.returncode == 0, p.stderr
    st = json.loads(p.stdout)
    assert st["ok"] is True and st["over"] is False and st["moves"] == 3
    assert st["to_act"] == 6 and st["burner"] == 3 and st["top"] == {"seat": 3, "play": "QQQQQ"}
    p = run("check", str(f), "--partial")
    assert p.returncode == 0 and p.stderr == ""
    assert "legal so far / 至今合规" in p.stdout and "to act / 应由: seat 6 (pass) / 6号（过牌）" in p.stdout
    assert "burning / 烧牌中: seat 3" in p.stdout
    p = run("check", str(f))  # without --partial: 未完
    assert p.returncode == 1 and "INCOMPLETE / 未完 at move 4" in p.stdout and "G10.4" in p.stdout


def test_check_reads_a_record_with_a_line_separator_in_a_comment(tmp_path: Path) -> None:
    f = tmp_path / "u2028.gjn"
    text = (CASES / "legal_quan_san.gjn").read_text(encoding="utf-8")
    f.write_text("; 第12期\u2028第2局\f\n" + text, encoding="utf-8")
    p = run("check", str(f), "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["ok"] is True, p.stdout + p.stderr
